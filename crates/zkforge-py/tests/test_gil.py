"""Long calls release the GIL: a Python thread keeps running while another thread is inside a
long zkforge call (if the GIL were held, the counter would not move during the call)."""

import threading
import time

import zkforge.kzg as kzg
from zkforge.bls12_381 import G1Point, Scalar


def _progress_during(call):
    done = threading.Event()
    counts = []

    def worker():
        call()
        done.set()

    t = threading.Thread(target=worker)
    n = 0
    t.start()
    time.sleep(0.005)
    start = n
    while not done.is_set():
        n += 1
    t.join()
    counts.append(n - start)
    return counts[0]


def test_kzg_call_releases_the_gil(setup):
    blob = bytes(131072)
    assert _progress_during(lambda: [kzg.compute_cells_and_kzg_proofs(blob, setup) for _ in range(2)]) > 1000


def test_msm_releases_the_gil():
    pts = [G1Point() * Scalar(i + 1) for i in range(512)]
    ks = [Scalar(3**i) for i in range(512)]
    assert _progress_during(lambda: [G1Point.multiexp_unchecked(pts, ks) for _ in range(5)]) > 1000


def test_hashsig_keygen_releases_the_gil(tmp_path):
    from zkforge import hashsig

    scheme = "poseidon2_toplevel_lifetime8_dim64_base8"
    keys = [tmp_path / f"k{i}" for i in range(4)]
    assert _progress_during(lambda: [hashsig.keygen(scheme, bytes([i]) * 32, k, 256) for i, k in enumerate(keys)]) > 1000

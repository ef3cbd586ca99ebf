"""A test module written against the ckzg 2.x API, run unchanged on `ckzg` itself (when the
package is installed) and on `import zkforge.kzg as ckzg`; then the two are compared on fresh
random blobs (every output equal byte for byte) and on bad input (the same exception class)."""

import importlib
import os
import random

import pytest

from conftest import SETUP_TXT

MODULES = ["zkforge.kzg", "ckzg"]


def load(name):
    try:
        return importlib.import_module(name)
    except ImportError:
        pytest.skip(f"{name} is not installed")


@pytest.fixture(scope="module", params=MODULES)
def ckzg(request):
    return load(request.param)


@pytest.fixture(scope="module")
def ts(ckzg):
    return ckzg.load_trusted_setup(str(SETUP_TXT), 0)


def random_blob(rng):
    # 4096 field elements, each below r (top byte below 0x73)
    return b"".join(bytes([rng.randrange(0x73)]) + rng.randbytes(31) for _ in range(4096))


# ---- the module below uses only ckzg's API -------------------------------------------------


def test_commit_prove_verify(ckzg, ts):
    rng = random.Random(1)
    blob = random_blob(rng)
    commitment = ckzg.blob_to_kzg_commitment(blob, ts)
    assert isinstance(commitment, bytes) and len(commitment) == 48
    proof = ckzg.compute_blob_kzg_proof(blob, commitment, ts)
    assert ckzg.verify_blob_kzg_proof(blob, commitment, proof, ts) is True
    z = bytes([0x11]) + rng.randbytes(31)
    pi, y = ckzg.compute_kzg_proof(blob, z, ts)
    assert len(pi) == 48 and len(y) == 32
    assert ckzg.verify_kzg_proof(commitment, z, y, pi, ts) is True
    bad_y = (int.from_bytes(y, "big") ^ 1).to_bytes(32, "big")
    assert ckzg.verify_kzg_proof(commitment, z, bad_y, pi, ts) is False


def test_batch(ckzg, ts):
    rng = random.Random(2)
    blobs = [random_blob(rng) for _ in range(3)]
    cs = [ckzg.blob_to_kzg_commitment(b, ts) for b in blobs]
    ps = [ckzg.compute_blob_kzg_proof(b, c, ts) for b, c in zip(blobs, cs)]
    assert ckzg.verify_blob_kzg_proof_batch(b"".join(blobs), b"".join(cs), b"".join(ps), ts)
    assert not ckzg.verify_blob_kzg_proof_batch(b"".join(blobs), b"".join(cs), b"".join(reversed(ps)), ts)
    assert ckzg.verify_blob_kzg_proof_batch(b"", b"", b"", ts)


def test_cells(ckzg, ts):
    rng = random.Random(3)
    blob = random_blob(rng)
    commitment = ckzg.blob_to_kzg_commitment(blob, ts)
    cells, proofs = ckzg.compute_cells_and_kzg_proofs(blob, ts)
    assert len(cells) == 128 and len(proofs) == 128 and all(len(c) == 2048 for c in cells)
    idx = list(range(0, 128, 2))
    rc, rp = ckzg.recover_cells_and_kzg_proofs(idx, [cells[i] for i in idx], ts)
    assert rc == cells and rp == proofs
    some = [0, 5, 127]
    assert ckzg.verify_cell_kzg_proof_batch([commitment] * 3, some, [cells[i] for i in some], [proofs[i] for i in some], ts)
    assert not ckzg.verify_cell_kzg_proof_batch([commitment] * 3, some, [cells[i] for i in some], [proofs[i] for i in [5, 0, 127]], ts)


@pytest.mark.parametrize(
    "call",
    [
        lambda k, ts: k.blob_to_kzg_commitment(b"\x00" * 100, ts),
        lambda k, ts: k.blob_to_kzg_commitment("not bytes", ts),
        lambda k, ts: k.compute_kzg_proof(b"\x00" * 131072, b"\x00" * 31, ts),
        lambda k, ts: k.verify_kzg_proof(b"\x00" * 47, b"\x00" * 32, b"\x00" * 32, b"\x00" * 48, ts),
        lambda k, ts: k.verify_blob_kzg_proof_batch(b"\x00" * 131072, b"", b"", ts),
        lambda k, ts: k.recover_cells_and_kzg_proofs([0], [], ts),
        lambda k, ts: k.recover_cells_and_kzg_proofs((0,), (b"\x00" * 2048,), ts),
        lambda k, ts: k.verify_cell_kzg_proof_batch([b"\x00" * 48], [0], [b"\x00" * 2047], [b"\x00" * 48], ts),
        lambda k, ts: k.load_trusted_setup(1234, 0),
    ],
    ids=["short-blob", "str-blob", "short-z", "short-commitment", "batch-count", "recover-count", "recover-tuples", "short-cell", "setup-path-type"],
)
def test_bad_arguments_raise_value_error(ckzg, ts, call):
    with pytest.raises(ValueError):
        call(ckzg, ts)


@pytest.mark.parametrize(
    "call",
    [
        # a field element equal to r
        lambda k, ts: k.blob_to_kzg_commitment(bytes.fromhex("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001") + bytes(131040), ts),
        # 48 zero bytes are not a valid compressed point (the infinity flag is missing)
        lambda k, ts: k.verify_kzg_proof(bytes(48), bytes(32), bytes(32), bytes(48), ts),
        # a cell index out of range
        lambda k, ts: k.verify_cell_kzg_proof_batch([b"\xc0" + bytes(47)], [128], [bytes(2048)], [b"\xc0" + bytes(47)], ts),
        lambda k, ts: k.load_trusted_setup("/nonexistent/trusted_setup.txt", 0),
    ],
    ids=["blob-element-r", "point-not-on-curve", "cell-index-128", "missing-setup-file"],
)
def test_refused_input_raises_runtime_error(ckzg, ts, call):
    with pytest.raises(RuntimeError):
        call(ckzg, ts)


# ---- differential: zkforge.kzg against ckzg on fresh random inputs --------------------------


def test_same_outputs_as_ckzg():
    ck = load("ckzg")
    zk = load("zkforge.kzg")
    ts_c, ts_z = ck.load_trusted_setup(str(SETUP_TXT), 0), zk.load_trusted_setup(str(SETUP_TXT), 0)
    rng = random.Random(int.from_bytes(os.urandom(8), "big"))
    for _ in range(2):
        blob = random_blob(rng)
        c = zk.blob_to_kzg_commitment(blob, ts_z)
        assert c == ck.blob_to_kzg_commitment(blob, ts_c)
        assert zk.compute_blob_kzg_proof(blob, c, ts_z) == ck.compute_blob_kzg_proof(blob, c, ts_c)
        z = bytes([rng.randrange(0x73)]) + rng.randbytes(31)
        assert zk.compute_kzg_proof(blob, z, ts_z) == ck.compute_kzg_proof(blob, z, ts_c)
        cz, cc = zk.compute_cells_and_kzg_proofs(blob, ts_z), ck.compute_cells_and_kzg_proofs(blob, ts_c)
        assert cz[0] == cc[0] and cz[1] == cc[1]

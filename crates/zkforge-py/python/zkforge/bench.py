"""``python -m zkforge.bench``: zkforge against ckzg, py_arkworks_bls12381 and py_ecc in one run.

Every row runs the same operation on the same inputs through both Python packages, checks that
the outputs are equal, then takes the median of shuffled rounds and prints the ratio
zkforge / peer (below 1.00 zkforge is faster). Both sides run on one thread: the KZG setups are
loaded from the same file (precompute 0, and 8 for the cell rows), as ckzg loads it. The BN254
rows take py_ecc's ``optimized_bn128`` (pure Python, what the execution-spec tools use) as the peer,
with the points in the EVM encoding on our side and py_ecc's Jacobian tuples on its side; the
outputs are compared in the EVM encoding. The BLS signature rows
(``zkforge.bls``) take py_ecc's ``G2ProofOfPossession`` (the consensus specs' BLS) as the peer,
on the same key, message and bytes. The hashsig row has no Python peer (leanSig and hash-sig
are Rust only) and prints '-'.

The call-overhead rows compare a Python-level call with the same operation timed inside Rust
(``verify_kzg_proof``, and a G1 scalar multiplication).

Usage: ``python -m zkforge.bench [--rounds N] [--quick] [--setup PATH]``, run from the
repository root (the default setup path is ``crates/zkforge-kzg/data/trusted_setup.txt``).
"""

import argparse
import importlib
import os
import random
import statistics
import sys
import tempfile
import time

import zkforge.bls12_381 as zb
import zkforge.bls as zbls
import zkforge.kzg as zk
from zkforge import _zkforge, bn254, hashsig


def _peer(name):
    try:
        return importlib.import_module(name)
    except ImportError:
        print(f"{name} is not installed: its rows print '-'", file=sys.stderr)
        return None


def _blob(rng):
    return b"".join(bytes([rng.randrange(0x73)]) + rng.randbytes(31) for _ in range(4096))


def _time(fn, min_s):
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        t = time.perf_counter() - t0
        if t >= min_s:
            return t / n * 1e9
        n *= 2


def _fmt(ns):
    for unit, div in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= div:
            return f"{ns / div:.2f} {unit}"
    return f"{ns:.0f} ns"


def _kzg_rows(ck, setup, quick):
    rng = random.Random(4844)
    blobs = [_blob(rng) for _ in range(2 if quick else 8)]
    blob = blobs[0]
    sz0, sz8 = zk.load_trusted_setup(setup, 0), zk.load_trusted_setup(setup, 8)
    sc0, sc8 = (ck.load_trusted_setup(setup, 0), ck.load_trusted_setup(setup, 8)) if ck else (None, None)
    c = zk.blob_to_kzg_commitment(blob, sz0)
    p = zk.compute_blob_kzg_proof(blob, c, sz0)
    z = bytes([0x11]) + rng.randbytes(31)
    pi, y = zk.compute_kzg_proof(blob, z, sz0)
    cs = [zk.blob_to_kzg_commitment(b, sz0) for b in blobs]
    ps = [zk.compute_blob_kzg_proof(b, cc, sz0) for b, cc in zip(blobs, cs)]
    cells, cproofs = zk.compute_cells_and_kzg_proofs(blob, sz8)
    half = list(range(0, 128, 2))
    n = len(blobs)
    ops = [
        ("blob_to_kzg_commitment", lambda m, s: m.blob_to_kzg_commitment(blob, s), 0),
        ("compute_kzg_proof", lambda m, s: m.compute_kzg_proof(blob, z, s), 0),
        ("compute_blob_kzg_proof", lambda m, s: m.compute_blob_kzg_proof(blob, c, s), 0),
        ("verify_kzg_proof", lambda m, s: m.verify_kzg_proof(c, z, y, pi, s), 0),
        ("verify_blob_kzg_proof", lambda m, s: m.verify_blob_kzg_proof(blob, c, p, s), 0),
        (f"verify_blob_kzg_proof_batch({n})", lambda m, s: m.verify_blob_kzg_proof_batch(b"".join(blobs), b"".join(cs), b"".join(ps), s), 0),
        ("compute_cells_and_kzg_proofs(precompute 8)", lambda m, s: m.compute_cells_and_kzg_proofs(blob, s), 8),
        ("recover_cells_and_kzg_proofs(64 of 128)", lambda m, s: m.recover_cells_and_kzg_proofs(half, [cells[i] for i in half], s), 8),
        ("verify_cell_kzg_proof_batch(128)", lambda m, s: m.verify_cell_kzg_proof_batch([c] * 128, list(range(128)), cells, cproofs, s), 8),
    ]
    rows = []
    for name, fn, pre in ops:
        sz, sc = (sz8, sc8) if pre else (sz0, sc0)
        rows.append(("kzg", name, (lambda fn=fn, sz=sz: fn(zk, sz)), (lambda fn=fn, sc=sc: fn(ck, sc)) if ck else None, "ckzg"))
    overhead = ("verify_kzg_proof", lambda: zk.verify_kzg_proof(c, z, y, pi, sz0), lambda iters: _zkforge._rust_verify_kzg_proof_ns(c, z, y, pi, sz0, iters))
    return rows, overhead


def _bls_rows(ark, quick):
    rng = random.Random(381)
    dst1 = b"QUUX-V01-CS02-with-BLS12381G1_XMD:SHA-256_SSWU_RO_"
    dst2 = b"QUUX-V01-CS02-with-BLS12381G2_XMD:SHA-256_SSWU_RO_"
    ks = [rng.randrange(1 << 255) for _ in range(64)]
    n_msm = 16 if quick else 64

    def inputs(m):
        g, h = m.G1Point() * m.Scalar(ks[0]), m.G2Point() * m.Scalar(ks[1])
        k = m.Scalar(ks[2])
        pts = [m.G1Point() * m.Scalar(x) for x in ks[:n_msm]]
        sc = [m.Scalar(x) for x in ks[:n_msm]]
        gc = g.to_compressed_bytes()
        return dict(g=g, h=h, k=k, pts=pts, sc=sc, gc=gc, g2=m.G1Point() * m.Scalar(ks[3]), h2=m.G2Point() * m.Scalar(ks[4]))

    zi = inputs(zb)
    ai = inputs(ark) if ark else None

    def row(name, fn, out=lambda r: r.to_compressed_bytes()):
        zf = lambda: fn(zb, zi)
        af = (lambda: fn(ark, ai)) if ark else None
        return ("bls12_381", name, zf, af, "py_arkworks_bls12381", out)

    rows = [
        row("G1 add", lambda m, i: i["g"] + i["g2"]),
        row("G1 scalar mul", lambda m, i: i["g"] * i["k"]),
        row("G2 scalar mul", lambda m, i: i["h"] * i["k"]),
        row(f"G1 multiexp({n_msm})", lambda m, i: m.G1Point.multiexp_unchecked(i["pts"], i["sc"])),
        row("G1 decompress (checked)", lambda m, i: m.G1Point.from_compressed_bytes(i["gc"])),
        row("G1 compress", lambda m, i: i["g"].to_compressed_bytes(), out=lambda r: r),
        row("hash_to_curve G1", lambda m, i: m.G1Point.hash_to_curve(b"abc", dst1)),
        row("hash_to_curve G2", lambda m, i: m.G2Point.hash_to_curve(b"abc", dst2)),
        row("pairing", lambda m, i: m.GT.pairing(i["g"], i["h"]), out=str),
        row("pairing_check(2)", lambda m, i: m.GT.pairing_check([i["g"], i["g2"]], [i["h"], i["h2"]]), out=lambda r: r),
        row("Scalar mul", lambda m, i: i["k"] * i["k"], out=str),
        row("Scalar inverse", lambda m, i: i["k"].inverse(), out=str),
    ]
    overhead = ("G1 scalar mul", lambda: zi["g"] * zi["k"], lambda iters: _zkforge._rust_g1_mul_ns(zi["g"], zi["k"], iters))
    return rows, overhead


def _bn_rows(ecc):
    rng = random.Random(254)
    ks = [rng.randrange(1, 1 << 254) for _ in range(4)]

    def g1(x, y):
        return x.to_bytes(32, "big") + y.to_bytes(32, "big")

    zg = g1(1, 2)
    zp, zq = bn254.g1_mul(zg, ks[0]), bn254.g1_mul(zg, ks[1])
    g2 = bytes.fromhex(
        "198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2"
        "1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed"
        "090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b"
        "12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa"
    )
    zh = bn254.g2_mul(g2, ks[2])
    # e(k0 G1, k2 G2) * e(-k0 k2 G1, G2) = 1
    r = 0x30644E72E131A029B85045B68181585D2833E84879B9709143E1F593F0000001
    zneg = bn254.g1_neg(bn254.g1_mul(zg, ks[0] * ks[2] % r))
    if ecc:
        P, Q = ecc.multiply(ecc.G1, ks[0]), ecc.multiply(ecc.G1, ks[1])
        H = ecc.multiply(ecc.G2, ks[2])
        N = ecc.neg(ecc.multiply(ecc.G1, ks[0] * ks[2] % r))

    def enc(p):
        x, y = ecc.normalize(p)
        return g1(int(x), int(y))

    def check(pairs):
        f = ecc.FQ12.one()
        for p, q in pairs:
            f = f * ecc.pairing(q, p, final_exponentiate=False)
        return ecc.final_exponentiate(f) == ecc.FQ12.one()

    def row(name, zf, ef, out_e=lambda x: x):
        return ("bn254", name, zf, ef if ecc else None, "py_ecc", (lambda x: x, out_e))

    return [
        row("G1 add", lambda: bn254.g1_add(zp, zq), lambda: ecc.add(P, Q), out_e=enc),
        row("G1 scalar mul", lambda: bn254.g1_mul(zp, ks[3]), lambda: ecc.multiply(P, ks[3]), out_e=enc),
        row("pairing_check(2)", lambda: bn254.pairing_check([zp, zneg], [zh, g2]), lambda: check([(P, H), (N, ecc.G2)])),
    ]


def _bls_sig_rows():
    peer = _peer("py_ecc.bls")
    P = peer.G2ProofOfPossession if peer else None
    Z = zbls.G2ProofOfPossession
    sk, msg = 0x263DBD792F5B1BE47ED85F8938C0F29586AF0D3AC7B977F21C278FE1462040E3, b"\x56" * 32
    pk, sig = Z.SkToPk(sk), Z.Sign(sk, msg)

    def row(name, zf, pf):
        return ("bls", name, zf, pf if P else None, "py_ecc G2ProofOfPossession", (lambda x: x, lambda x: x))

    return [
        row("Sign", lambda: Z.Sign(sk, msg), lambda: P.Sign(sk, msg)),
        row("Verify", lambda: Z.Verify(pk, msg, sig), lambda: P.Verify(pk, msg, sig)),
    ]


def _hashsig_rows():
    scheme = "poseidon2_toplevel_lifetime8_dim64_base8"
    store = os.path.join(tempfile.mkdtemp(), "bench.key")
    pk = hashsig.keygen(scheme, bytes(32), store, active_epochs=256)
    msg = bytes(range(32))
    sig = hashsig.sign(scheme, store, 3, msg)
    os.remove(store)
    return [("hashsig", f"verify ({scheme[:-9]}...)", lambda: hashsig.verify(scheme, pk, 3, msg, sig), None, "leanSig (no Python)", (lambda x: x, lambda x: x))]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m zkforge.bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="shuffled rounds per row (median taken)")
    ap.add_argument("--quick", action="store_true", help="smaller batches and 0.01 s per timing (the CI smoke run)")
    ap.add_argument("--setup", default=os.environ.get("ZKFORGE_TRUSTED_SETUP", os.path.join("crates", "zkforge-kzg", "data", "trusted_setup.txt")), help="c-kzg text trusted setup")
    a = ap.parse_args(argv)
    if not os.path.exists(a.setup):
        sys.exit(f"error: trusted setup {a.setup} not found; run from the repository root or pass --setup PATH (c-kzg's trusted_setup.txt)")
    min_s = 0.01 if a.quick else 0.05
    ck, ark, ecc = _peer("ckzg"), _peer("py_arkworks_bls12381"), _peer("py_ecc.optimized_bn128")
    missing = {name for name, mod in (("ckzg", ck), ("py_arkworks_bls12381", ark), ("py_ecc", ecc)) if mod is None}
    kzg_rows, kzg_over = _kzg_rows(ck, a.setup, a.quick)
    bls_rows, bls_over = _bls_rows(ark, a.quick)
    same = lambda x: x  # noqa: E731
    rows = [r + ((same, same),) for r in kzg_rows] + [r[:5] + ((r[5], r[5]),) for r in bls_rows] + _bn_rows(ecc) + _bls_sig_rows() + _hashsig_rows()
    print(f"zkforge {getattr(__import__('zkforge'), '__version__', '')} against ckzg, py_arkworks_bls12381 and py_ecc; medians of {a.rounds} shuffled rounds, one thread")
    print(f"{'group':<10} {'op':<44} {'zkforge':>11} {'peer':<22} {'peer time':>11} {'ratio':>6}")
    for group, name, zf, pf, peer, (out_z, out_p) in rows:
        impls = [("zk", zf)]
        if pf is not None:
            if out_z(zf()) != out_p(pf()):
                sys.exit(f"error: {group} {name}: zkforge and {peer} give different outputs")
            impls.append(("peer", pf))
        times = {k: [] for k, _ in impls}
        for r in range(a.rounds):
            order = impls[:]
            random.Random(r).shuffle(order)
            for k, f in order:
                times[k].append(_time(f, min_s))
        tz = statistics.median(times["zk"])
        if pf is not None:
            tp = statistics.median(times["peer"])
            print(f"{group:<10} {name:<44} {_fmt(tz):>11} {peer:<22} {_fmt(tp):>11} {tz / tp:>6.2f}")
        else:
            print(f"{group:<10} {name:<44} {_fmt(tz):>11} {peer + ' (missing)' if peer in missing else peer:<22} {'-':>11} {'-':>6}")
    for name, py_call, rust_ns in (kzg_over, bls_over):
        py = statistics.median(_time(py_call, min_s) for _ in range(a.rounds))
        iters = max(1, int(min_s * 1e9 / max(py, 1.0)))
        rs = statistics.median(rust_ns(iters) for _ in range(a.rounds))
        print(f"call overhead, {name}: from Python {_fmt(py)}, inside Rust {_fmt(rs)}: {py / rs:.3f}x, +{_fmt(max(py - rs, 0.0))}")


if __name__ == "__main__":
    main()

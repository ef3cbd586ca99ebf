"""zkforge.bn254 against py_ecc (the Ethereum Foundation's pure-Python BN254, `optimized_bn128`)
on fresh random inputs: G1/G2 addition, negation, scalar multiplication and MSM, and pairing
checks, equal point for point and answer for answer. py_ecc is installed in the test
environment; the module is skipped when it is missing."""

import random

import pytest

from zkforge import bn254

b = pytest.importorskip("py_ecc.optimized_bn128")

RNG = random.Random()
N = b.curve_order


def enc_g1(p):
    if b.is_inf(p):
        return bytes(64)
    x, y = b.normalize(p)
    return int(x).to_bytes(32, "big") + int(y).to_bytes(32, "big")


def enc_g2(q):
    if b.is_inf(q):
        return bytes(128)
    x, y = b.normalize(q)
    xr, xi = (int(c) for c in x.coeffs)
    yr, yi = (int(c) for c in y.coeffs)
    return b"".join(v.to_bytes(32, "big") for v in (xi, xr, yi, yr))


def scalars(k):
    # random, plus the edges: 0, 1, r-1, r (reduced to 0), and a scalar above r
    return [RNG.randrange(N) for _ in range(k)] + [0, 1, N - 1, N, N + 5, 2**256 - 1]


def test_g1_ops_match_py_ecc():
    ks = scalars(12)
    pts = [b.multiply(b.G1, RNG.randrange(1, N)) for _ in ks]
    for p, q, k in zip(pts, pts[1:] + pts[:1], ks):
        assert bn254.g1_add(enc_g1(p), enc_g1(q)) == enc_g1(b.add(p, q))
        assert bn254.g1_add(enc_g1(p), enc_g1(p)) == enc_g1(b.double(p))
        assert bn254.g1_add(enc_g1(p), enc_g1(b.neg(p))) == bytes(64)
        assert bn254.g1_neg(enc_g1(p)) == enc_g1(b.neg(p))
        assert bn254.g1_mul(enc_g1(p), k) == enc_g1(b.multiply(p, k % N))
    acc = b.Z1
    for p, k in zip(pts, ks):
        acc = b.add(acc, b.multiply(p, k % N))
    assert bn254.g1_msm([enc_g1(p) for p in pts], ks) == enc_g1(acc)


def test_g2_ops_match_py_ecc():
    ks = scalars(4)
    pts = [b.multiply(b.G2, RNG.randrange(1, N)) for _ in ks]
    for p, q, k in zip(pts, pts[1:] + pts[:1], ks):
        assert bn254.g2_add(enc_g2(p), enc_g2(q)) == enc_g2(b.add(p, q))
        assert bn254.g2_add(enc_g2(p), enc_g2(p)) == enc_g2(b.double(p))
        assert bn254.g2_mul(enc_g2(p), k) == enc_g2(b.multiply(p, k % N))
    acc = b.Z2
    for p, k in zip(pts, ks):
        acc = b.add(acc, b.multiply(p, k % N))
    assert bn254.g2_msm([enc_g2(p) for p in pts], ks) == enc_g2(acc)


def py_ecc_check(pairs):
    f = b.FQ12.one()
    for p, q in pairs:
        if not (b.is_inf(p) or b.is_inf(q)):
            f = f * b.pairing(q, p, final_exponentiate=False)
    return b.final_exponentiate(f) == b.FQ12.one()


def test_pairing_check_matches_py_ecc():
    a, c = RNG.randrange(1, N), RNG.randrange(1, N)
    P, Q = b.multiply(b.G1, a), b.multiply(b.G2, c)
    cases = [
        [(P, Q), (b.neg(b.multiply(b.G1, a * c % N)), b.G2)],  # e(aG1, cG2) e(-acG1, G2) = 1
        [(P, Q), (b.multiply(b.G1, a), b.neg(Q))],  # e(P, Q) e(P, -Q) = 1
        [(P, Q), (b.G1, b.G2)],  # not 1
        [(b.Z1, Q), (P, b.Z2)],  # identities only: 1
    ]
    for pairs in cases:
        want = py_ecc_check(pairs)
        got = bn254.pairing_check([enc_g1(p) for p, _ in pairs], [enc_g2(q) for _, q in pairs])
        assert got == want
    assert [py_ecc_check(c) for c in cases] == [True, True, False, True]

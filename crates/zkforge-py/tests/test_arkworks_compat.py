"""A test module written against the py_arkworks_bls12381 (0.5) API, run unchanged on that
package (when installed) and on zkforge.bls12_381; then the two are compared on fresh random
inputs: every encoding, str/repr, int and boolean equal, and the same exception class on bad
input."""

import importlib
import os
import random

import pytest

R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
P = 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB
DST_G1 = b"QUUX-V01-CS02-with-BLS12381G1_XMD:SHA-256_SSWU_RO_"
DST_G2 = b"QUUX-V01-CS02-with-BLS12381G2_XMD:SHA-256_SSWU_RO_"


def load(name):
    try:
        return importlib.import_module(name)
    except ImportError:
        pytest.skip(f"{name} is not installed")


@pytest.fixture(scope="module", params=["zkforge.bls12_381", "py_arkworks_bls12381"])
def bls(request):
    return load(request.param)


# ---- written against py_arkworks_bls12381's API --------------------------------------------


def test_group_laws(bls):
    g, h = bls.G1Point(), bls.G2Point()
    a, b = bls.Scalar(12345), bls.Scalar(2**200 + 7)
    assert g * a + g * b == g * (a + b)
    assert h * a - h * b == h * (a - b)
    assert g - g == bls.G1Point.identity()
    assert -(g * a) + g * a == bls.G1Point.identity()
    assert (g * a) * b == g * (a * b)
    assert bls.G1Point.identity().to_compressed_bytes()[0] == 0xC0
    assert hash(g * a) == hash(g * bls.Scalar(12345))


def test_scalars(bls):
    S = bls.Scalar
    assert int(S(2**300)) == 2**300 % R
    assert int(S(R)) == 0 and int(-S(1)) == R - 1
    assert S(3) / S(2) * S(2) == S(3)
    assert int(S(2).pow(S(10))) == 1024
    assert int(S(3).square()) == 9 and S(1).is_one() and S(0).is_zero()
    assert S.from_le_bytes(S(5).to_le_bytes()) == S(5)
    assert S.from_be_bytes(S(5).to_be_bytes()) == S(5)
    assert int(S.from_le_bytes_mod_order(b"\xff" * 64)) == int.from_bytes(b"\xff" * 64, "little") % R
    assert int(S.from_be_bytes_mod_order(b"\x01" * 40)) == int.from_bytes(b"\x01" * 40, "big") % R
    assert str(S(7)) == "07" + "00" * 31 and repr(S(7)) == "Scalar(7)"
    assert S(3) != S(4) and not (S(3) == 3)
    with pytest.raises(ZeroDivisionError):
        S(0).inverse()
    with pytest.raises(ZeroDivisionError):
        S(1) / S(0)
    with pytest.raises(OverflowError):
        S(-1)


def test_encodings(bls):
    g, h = bls.G1Point() * bls.Scalar(99), bls.G2Point() * bls.Scalar(99)
    assert bls.G1Point.from_compressed_bytes(g.to_compressed_bytes()) == g
    assert bls.G2Point.from_compressed_bytes(h.to_compressed_bytes()) == h
    for enc, dec in (("to_xy_bytes_be", "from_xy_bytes_be"), ("to_xy_bytes_le", "from_xy_bytes_le")):
        assert getattr(bls.G1Point, dec)(getattr(g, enc)()) == g
        assert getattr(bls.G2Point, dec)(getattr(h, enc)()) == h
        assert getattr(bls.G1Point, dec)(bytes(96)) == bls.G1Point.identity()
    assert str(g) == g.to_compressed_bytes().hex()
    assert repr(bls.G1Point.identity()) == "G1Point(0xc0000000...00000000)"


def test_pairings(bls):
    g, h = bls.G1Point(), bls.G2Point()
    a, b = bls.Scalar(5), bls.Scalar(7)
    e = bls.GT.pairing(g, h)
    assert bls.GT.pairing(g * a, h * b) == bls.GT.pairing(g * (a * b), h)
    assert e * e == bls.GT.pairing(g * bls.Scalar(2), h)
    assert e * bls.GT.one() == e and e - e == bls.GT.zero() and -e + e == bls.GT.zero()
    assert bls.GT.pairing_check([g * a, -g], [h, h * a])
    assert not bls.GT.pairing_check([g, g], [h, h])
    assert bls.GT.pairing_check([], [])
    assert bls.GT.multi_pairing([g, g], [h, h]) == e * e
    assert bls.G1Point.multiexp_unchecked([g, g * a], [b, b]) == g * (b + a * b)
    assert bls.G1Point.multiexp_unchecked([g, g], [a]) == g * a  # pairs up to the shorter list
    with pytest.raises(ValueError):
        bls.GT.pairing_check([g], [h, h])


def test_hash_to_curve(bls):
    # RFC 9380 appendix J.9.1 and J.10.1, msg = "" (x's first bytes)
    p = bls.G1Point.hash_to_curve(b"", DST_G1)
    assert p.to_xy_bytes_be()[:8].hex() == "052926add2207b76"
    q = bls.G2Point.hash_to_curve(b"", DST_G2)
    assert q.to_xy_bytes_be()[:8].hex() == "0141ebfbdca40eb8"


@pytest.mark.parametrize(
    "call, exc",
    [
        (lambda m: m.G1Point.from_compressed_bytes(b"\x00" * 48), ValueError),
        (lambda m: m.G1Point.from_compressed_bytes(b"\x00" * 47), ValueError),
        (lambda m: m.G2Point.from_compressed_bytes(b"\xc0" + b"\x00" * 94), ValueError),
        (lambda m: m.G1Point.from_xy_bytes_be(b"\x01" * 96), ValueError),
        (lambda m: m.Scalar.from_le_bytes(b"\xff" * 32), ValueError),
        (lambda m: m.Scalar.from_be_bytes(b"\x01" * 31), ValueError),
        (lambda m: m.G1Point.map_from_fp_be(P.to_bytes(48, "big")), ValueError),
        (lambda m: m.G1Point() * 5, TypeError),
        (lambda m: m.G1Point() + m.G2Point(), TypeError),
        (lambda m: m.Scalar(3) + 3, TypeError),
        (lambda m: m.GT.pairing(m.G2Point(), m.G1Point()), TypeError),
    ],
    ids=["g1-zero", "g1-short", "g2-short", "xy-off-curve", "scalar-r-le", "scalar-short", "map-p", "g1-times-int", "g1-plus-g2", "scalar-plus-int", "pairing-swapped"],
)
def test_bad_input(bls, call, exc):
    with pytest.raises(exc):
        call(bls)


# ---- differential: zkforge against py_arkworks_bls12381 on fresh random inputs ---------------


def test_same_results_as_arkworks():
    ark = load("py_arkworks_bls12381")
    zk = load("zkforge.bls12_381")
    rng = random.Random(int.from_bytes(os.urandom(8), "big"))
    for _ in range(20):
        ks = [rng.randrange(1 << 256) for _ in range(3)]
        za, aa = [zk.Scalar(k) for k in ks], [ark.Scalar(k) for k in ks]
        assert [str(x) for x in za] == [str(x) for x in aa] and [repr(x) for x in za] == [repr(x) for x in aa]
        assert str(za[0] * za[1] - za[2]) == str(aa[0] * aa[1] - aa[2])
        assert str(za[0] / za[1]) == str(aa[0] / aa[1])
        assert str(za[0].pow(za[1])) == str(aa[0].pow(aa[1]))
        zg, ag = zk.G1Point() * za[0], ark.G1Point() * aa[0]
        zh, ah = zk.G2Point() * za[1], ark.G2Point() * aa[1]
        for name in ("to_compressed_bytes", "to_xy_bytes_be", "to_xy_bytes_le"):
            assert getattr(zg, name)() == getattr(ag, name)()
            assert getattr(zh, name)() == getattr(ah, name)()
        assert repr(zg) == repr(ag) and str(zh) == str(ah)
        msg, fp = rng.randbytes(rng.randrange(64)), rng.randrange(P)
        assert zk.G1Point.hash_to_curve(msg, DST_G1).to_compressed_bytes() == ark.G1Point.hash_to_curve(msg, DST_G1).to_compressed_bytes()
        assert zk.G2Point.hash_to_curve(msg, DST_G2).to_compressed_bytes() == ark.G2Point.hash_to_curve(msg, DST_G2).to_compressed_bytes()
        for end in ("be", "le"):
            b = fp.to_bytes(48, "big" if end == "be" else "little")
            assert getattr(zk.G1Point, "map_from_fp_" + end)(b).to_compressed_bytes() == getattr(ark.G1Point, "map_from_fp_" + end)(b).to_compressed_bytes()
            b2 = b + rng.randrange(P).to_bytes(48, "big" if end == "be" else "little")
            assert getattr(zk.G2Point, "map_from_fp2_" + end)(b2).to_compressed_bytes() == getattr(ark.G2Point, "map_from_fp2_" + end)(b2).to_compressed_bytes()
        ze, ae = zk.GT.pairing(zg, zh), ark.GT.pairing(ag, ah)
        assert str(ze) == str(ae) and repr(ze) == repr(ae)
        assert str(ze + ze) == str(ae + ae) and str(ze * ze) == str(ae * ae) and str(-ze) == str(-ae)
        pts = [rng.randrange(1, 1 << 64) for _ in range(5)]
        zm = zk.G1Point.multiexp_unchecked([zk.G1Point() * zk.Scalar(p) for p in pts], za + za[:2])
        am = ark.G1Point.multiexp_unchecked([ark.G1Point() * ark.Scalar(p) for p in pts], aa + aa[:2])
        assert zm.to_compressed_bytes() == am.to_compressed_bytes()
    assert str(zk.GT.zero()) == str(ark.GT.zero()) and str(zk.GT.one()) == str(ark.GT.one())


def test_unchecked_point_outside_the_subgroup():
    """A curve point outside G1 (from the unchecked decoder): multiplication must still be
    k * P for that point, as with the peer."""
    ark = load("py_arkworks_bls12381")
    zk = load("zkforge.bls12_381")
    # find a curve point not in G1: x with x^3 + 4 a square, y by the p = 3 mod 4 root
    for x in range(1, 1000):
        rhs = (x**3 + 4) % P
        y = pow(rhs, (P + 1) // 4, P)
        if y * y % P != rhs:
            continue
        xy = x.to_bytes(48, "big") + y.to_bytes(48, "big")
        zp, ap = zk.G1Point.from_xy_bytes_unchecked_be(xy), ark.G1Point.from_xy_bytes_unchecked_be(xy)
        if zp.is_in_subgroup():
            continue
        assert not ap.is_in_subgroup()
        with pytest.raises(ValueError):
            zk.G1Point.from_xy_bytes_be(xy)
        k = 0x1234567890ABCDEF1234567890ABCDEF
        assert (zp * zk.Scalar(k)).to_compressed_bytes() == (ap * ark.Scalar(k)).to_compressed_bytes()
        assert (zp + zp).to_compressed_bytes() == (ap + ap).to_compressed_bytes()
        return
    pytest.fail("no point outside the subgroup found")

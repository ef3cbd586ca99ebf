"""zkforge.bls against py_ecc's G2ProofOfPossession (py_ecc 8, the consensus specs' BLS) and
the Ethereum BLS test suite's cases (crates/zkforge-bls/tests/vectors): the same keys, public
keys, signatures, aggregates and verdicts, the same exceptions for invalid secret keys and
empty aggregates, False for malformed inputs. py_ecc's pairing is pure Python (about a second a
verification), so the differential part runs a handful of fresh random cases."""

import json
import pathlib
import random

import pytest

from zkforge import bls as zb

G2PoP = zb.G2ProofOfPossession
ROOT = pathlib.Path(__file__).resolve().parents[3]
SUITE = json.loads((ROOT / "crates" / "zkforge-bls" / "tests" / "vectors" / "ethereum_bls12_381_tests.json").read_text())
RNG = random.Random()
R = zb.CURVE_ORDER


def h(s):
    return bytes.fromhex(s[2:] if s.startswith("0x") else s)


def test_suite_sign_and_verify():
    for c in SUITE["sign"]:
        sk = int.from_bytes(h(c["input"]["privkey"]), "big")
        msg = h(c["input"]["message"])
        if c["output"] is None:
            with pytest.raises(zb.ValidationError):
                G2PoP.Sign(sk, msg)
        else:
            assert G2PoP.Sign(sk, msg) == h(c["output"])
    for c in SUITE["verify"]:
        i = c["input"]
        assert G2PoP.Verify(h(i["pubkey"]), h(i["message"]), h(i["signature"])) is c["output"]


def test_suite_deserialization_and_eip2333():
    for c in SUITE["deserialization_G1"]:
        b = h(c["input"]["pubkey"])
        # KeyValidate also refuses the identity, which decodes
        assert G2PoP.KeyValidate(b) == (c["output"] and b[0] != 0xC0), c["name"]
    for c in SUITE["eip2333_master_sk"]["cases"]:
        assert G2PoP.KeyGen(h(c["seed"])) == int(c["master_sk"], 16)


def test_invalid_inputs_like_py_ecc():
    for bad in (0, R, R + 1, -1, 1.5, True, b"\x01" * 32):
        with pytest.raises(zb.ValidationError):
            G2PoP.Sign(bad, b"m")
        with pytest.raises(zb.ValidationError):
            G2PoP.SkToPk(bad)
    with pytest.raises(zb.ValidationError):
        G2PoP.Aggregate([])
    with pytest.raises(zb.ValidationError):
        G2PoP._AggregatePKs([])
    with pytest.raises(zb.ValidationError):
        G2PoP.Aggregate([b"\x00" * 96])
    with pytest.raises(zb.ValidationError):
        G2PoP.KeyGen(b"short")
    pk, sig = G2PoP.SkToPk(5), G2PoP.Sign(5, b"m")
    assert G2PoP.Verify(pk, b"m", sig)
    for args in ((pk[:47], b"m", sig), (pk, b"m", sig[:95]), (pk, "m", sig), (bytes(48), b"m", sig), (pk, b"m", bytes(96))):
        assert G2PoP.Verify(*args) is False
    assert G2PoP.FastAggregateVerify([], b"m", sig) is False
    assert G2PoP.AggregateVerify([], [], sig) is False
    assert G2PoP.AggregateVerify([pk], [b"m", b"n"], sig) is False
    z1 = b"\xc0" + bytes(47)
    assert G2PoP.KeyValidate(z1) is False
    assert G2PoP._AggregatePKs([pk, G2PoP.SkToPk(R - 5)]) == z1  # 5 G + (r - 5) G = O


def test_signature_sets():
    sks = [RNG.randrange(1, R) for _ in range(6)]
    msgs = [bytes([i]) * 32 for i in range(6)]
    sets = [([G2PoP.SkToPk(k)], m, G2PoP.Sign(k, m)) for k, m in zip(sks, msgs)]
    # a set of two keys on one message
    sets.append(([G2PoP.SkToPk(sks[0]), G2PoP.SkToPk(sks[1])], b"both", G2PoP.Aggregate([G2PoP.Sign(sks[0], b"both"), G2PoP.Sign(sks[1], b"both")])))
    assert zb.verify_signature_sets(sets)
    bad = list(sets)
    bad[2] = (bad[2][0], b"other", bad[2][2])
    assert not zb.verify_signature_sets(bad)
    assert not zb.verify_signature_sets([])


py_ecc_bls = pytest.importorskip("py_ecc.bls")
P = py_ecc_bls.G2ProofOfPossession


def test_exception_class_is_py_ecc_s():
    eth_utils = pytest.importorskip("eth_utils")
    assert zb.ValidationError is eth_utils.ValidationError


def test_keys_signatures_and_aggregates_equal_py_ecc():
    for _ in range(3):
        ikm = RNG.randbytes(32 + RNG.randrange(8))
        info = RNG.randbytes(RNG.randrange(5))
        sk = G2PoP.KeyGen(ikm, info)
        assert sk == P.KeyGen(ikm, info)
        assert G2PoP.SkToPk(sk) == P.SkToPk(sk)
        msg = RNG.randbytes(RNG.randrange(40))
        assert G2PoP.Sign(sk, msg) == P.Sign(sk, msg)
    sks = [RNG.randrange(1, R) for _ in range(3)]
    sigs = [G2PoP.Sign(k, b"agg") for k in sks]
    assert G2PoP.Aggregate(sigs) == P.Aggregate(sigs)
    pks = [G2PoP.SkToPk(k) for k in sks]
    assert G2PoP._AggregatePKs(pks) == P._AggregatePKs(pks)
    assert G2PoP.PopProve(sks[0]) == P.PopProve(sks[0])


def test_verdicts_equal_py_ecc():
    sk, sk2 = RNG.randrange(1, R), RNG.randrange(1, R)
    pk, pk2 = G2PoP.SkToPk(sk), G2PoP.SkToPk(sk2)
    sig = G2PoP.Sign(sk, b"msg")
    agg = G2PoP.Aggregate([sig, G2PoP.Sign(sk2, b"msg")])
    agg2 = G2PoP.Aggregate([sig, G2PoP.Sign(sk2, b"two")])
    cases = [
        (G2PoP.Verify, P.Verify, (pk, b"msg", sig)),
        (G2PoP.Verify, P.Verify, (pk2, b"msg", sig)),
        (G2PoP.FastAggregateVerify, P.FastAggregateVerify, ([pk, pk2], b"msg", agg)),
        (G2PoP.AggregateVerify, P.AggregateVerify, ([pk, pk2], [b"msg", b"two"], agg2)),
        (G2PoP.AggregateVerify, P.AggregateVerify, ([pk, pk2], [b"two", b"msg"], agg2)),
        (G2PoP.PopVerify, P.PopVerify, (pk, G2PoP.PopProve(sk))),
    ]
    for ours, theirs, args in cases:
        assert ours(*args) == theirs(*args), ours.__name__

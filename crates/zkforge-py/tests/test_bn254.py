"""zkforge.bn254 against the EVM precompiles' semantics: g1_add / g1_mul / pairing_check give
what ECADD / ECMUL / ECPAIRING return on go-ethereum's vectors, MSMs equal the sums of their
products on random inputs, and bad points raise ValueError."""

import json
import random

import pytest

from conftest import ROOT
from zkforge import bn254, evm

VEC = ROOT / "crates" / "zkforge-evm" / "tests" / "vectors"
G1 = (1).to_bytes(32, "big") + (2).to_bytes(32, "big")
R = 0x30644E72E131A029B85045B68181585D2833E84879B9709143E1F593F0000001
P = 0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47
# the EIP-197 G2 generator, x.im || x.re || y.im || y.re
G2 = bytes.fromhex(
    "198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2"
    "1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed"
    "090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b"
    "12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa"
)


def vectors(name):
    return [pytest.param(c, id=c.get("Name", "")) for c in json.loads((VEC / name).read_text())]


@pytest.mark.parametrize("case", vectors("bn256Add.json"))
def test_add_matches_ecadd(case):
    data = bytes.fromhex(case["Input"]).ljust(128, b"\x00")[:128]
    assert bn254.g1_add(data[:64], data[64:]).hex() == case["Expected"]


@pytest.mark.parametrize("case", vectors("bn256ScalarMul.json"))
def test_mul_matches_ecmul(case):
    data = bytes.fromhex(case["Input"]).ljust(96, b"\x00")[:96]
    assert bn254.g1_mul(data[:64], int.from_bytes(data[64:], "big")).hex() == case["Expected"]


@pytest.mark.parametrize("case", vectors("bn256Pairing.json"))
def test_pairing_matches_ecpairing(case):
    data = bytes.fromhex(case["Input"])
    g1s = [data[i : i + 64] for i in range(0, len(data), 192)]
    g2s = [data[i + 64 : i + 192] for i in range(0, len(data), 192)]
    assert bn254.pairing_check(g1s, g2s) == (case["Expected"][-1] == "1")


def test_msm_and_laws():
    rng = random.Random(254)
    ks = [rng.randrange(1 << 256) for _ in range(40)]
    pts = [bn254.g1_mul(G1, rng.randrange(1, R)) for _ in range(40)]
    acc = bytes(64)
    for p, k in zip(pts, ks):
        acc = bn254.g1_add(acc, bn254.g1_mul(p, k))
    assert bn254.g1_msm(pts, ks) == acc
    q = [bn254.g2_mul(G2, rng.randrange(1, R)) for _ in range(5)]
    acc2 = bytes(128)
    for p, k in zip(q, ks):
        acc2 = bn254.g2_add(acc2, bn254.g2_mul(p, k))
    assert bn254.g2_msm(q, ks[:5]) == acc2
    assert bn254.g1_add(G1, bn254.g1_neg(G1)) == bytes(64)
    a, b = rng.randrange(R), rng.randrange(R)
    assert bn254.pairing_check([bn254.g1_mul(G1, a * b % R), bn254.g1_neg(bn254.g1_mul(G1, a))], [G2, bn254.g2_mul(G2, b)])
    assert bn254.pairing_check([], [])
    # the same answers as the precompiles
    assert evm.call(0x07, G1 + (5).to_bytes(32, "big"), 6000)[0] == bn254.g1_mul(G1, 5)


@pytest.mark.parametrize(
    "call",
    [
        lambda: bn254.g1_add(G1, G1[:63]),
        lambda: bn254.g1_add(G1, (1).to_bytes(32, "big") * 2),  # off the curve
        lambda: bn254.g1_mul(P.to_bytes(32, "big") + (2).to_bytes(32, "big"), 1),  # x = p
        lambda: bn254.g2_mul(G2[:127] + b"\x00", 1),
        lambda: bn254.g1_msm([G1], [1, 2]),
        lambda: bn254.pairing_check([G1], []),
    ],
    ids=["short", "off-curve", "x-is-p", "g2-off-curve", "msm-lengths", "pairing-lengths"],
)
def test_bad_input(call):
    with pytest.raises(ValueError):
        call()


def test_negative_scalar():
    with pytest.raises(OverflowError):
        bn254.g1_mul(G1, -1)

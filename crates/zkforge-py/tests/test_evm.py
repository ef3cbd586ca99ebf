"""The EVM precompile vectors of crates/zkforge-evm/tests/vectors (go-ethereum's and EIP-2537's;
see its README for source and licence) through zkforge.evm.call: every success case gives the
expected output and gas, and one gas less raises PrecompileError; every fail-* case raises it."""

import json

import pytest

from conftest import ROOT
from zkforge import evm

VEC = ROOT / "crates" / "zkforge-evm" / "tests" / "vectors"
SUCCESS = [
    (0x06, "bn256Add.json"),
    (0x07, "bn256ScalarMul.json"),
    (0x08, "bn256Pairing.json"),
    (0x0B, "blsG1Add.json"),
    (0x0C, "blsG1Mul.json"),
    (0x0C, "blsG1MultiExp.json"),
    (0x0D, "blsG2Add.json"),
    (0x0E, "blsG2Mul.json"),
    (0x0E, "blsG2MultiExp.json"),
    (0x0F, "blsPairing.json"),
    (0x10, "blsMapG1.json"),
    (0x11, "blsMapG2.json"),
]
FAIL = [
    (0x0B, "fail-blsG1Add.json"),
    (0x0C, "fail-blsG1Mul.json"),
    (0x0C, "fail-blsG1MultiExp.json"),
    (0x0D, "fail-blsG2Add.json"),
    (0x0E, "fail-blsG2Mul.json"),
    (0x0E, "fail-blsG2MultiExp.json"),
    (0x0F, "fail-blsPairing.json"),
    (0x10, "fail-blsMapG1.json"),
    (0x11, "fail-blsMapG2.json"),
]


def cases(table):
    out = []
    for addr, name in table:
        for c in json.loads((VEC / name).read_text()):
            out.append(pytest.param(addr, c, id=f"{name}:{c.get('Name', '')}"))
    return out


@pytest.mark.parametrize("addr, case", cases(SUCCESS))
def test_success(addr, case):
    data = bytes.fromhex(case["Input"])
    out, gas = evm.call(addr, data, case["Gas"])
    assert out.hex() == case["Expected"].lower()
    assert gas == case["Gas"]
    if case["Gas"] > 0:
        with pytest.raises(evm.PrecompileError):
            evm.call(addr, data, case["Gas"] - 1)


@pytest.mark.parametrize("addr, case", cases(FAIL))
def test_failure(addr, case):
    with pytest.raises(evm.PrecompileError):
        evm.call(addr, bytes.fromhex(case["Input"]), 10**9)


def test_address_forms():
    g1 = (1).to_bytes(32, "big") + (2).to_bytes(32, "big")
    a = evm.call(6, g1 + g1, 150)
    assert evm.call(b"\x00" * 19 + b"\x06", g1 + g1, 150) == a
    with pytest.raises(ValueError):
        evm.call(b"\x01" + b"\x00" * 18 + b"\x06", g1 + g1, 150)
    with pytest.raises(ValueError):
        evm.call(-1, b"", 0)
    with pytest.raises(evm.PrecompileError):
        evm.call(0x01, b"", 10**6)  # ecrecover is not a zkforge precompile

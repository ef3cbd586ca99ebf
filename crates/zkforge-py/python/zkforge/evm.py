"""The EVM precompiles: BN254 (0x06 ECADD, 0x07 ECMUL, 0x08 ECPAIRING; EIP-196/197, Istanbul
gas), the EIP-4844 point evaluation (0x0a) and EIP-2537 BLS12-381 (0x0b-0x11, Prague gas).

``call(address, input, gas) -> (output, gas_used)``; ``address`` is an int or 20 bytes. A
failed call raises ``PrecompileError`` (in the EVM it consumes all the gas given).

Example::

    from zkforge import evm
    g1 = (1).to_bytes(32, "big") + (2).to_bytes(32, "big")   # the BN254 G1 generator
    out, gas = evm.call(0x06, g1 + g1, 150)                   # ECADD: 2 G
    assert gas == 150 and len(out) == 64
"""

from ._zkforge import PrecompileError, call

__all__ = ["call", "PrecompileError"]

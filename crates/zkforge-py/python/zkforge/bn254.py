"""BN254 (alt_bn128) in the EVM's encodings (EIP-196/197): G1 as 64 bytes x || y, G2 as
128 bytes x.im || x.re || y.im || y.re, big-endian, the identity as all zeros; scalars are
non-negative Python ints (reduced mod r, as ECMUL does).

Functions: ``g1_add``, ``g1_neg``, ``g1_mul``, ``g1_msm``, ``g2_add``, ``g2_mul``, ``g2_msm``,
``pairing_check``. A point that does not decode (a coordinate not below p, off the curve, a G2
point outside the subgroup) raises ``ValueError``. MSMs and pairings release the GIL.

Example::

    from zkforge import bn254
    g = (1).to_bytes(32, "big") + (2).to_bytes(32, "big")
    assert bn254.g1_add(g, g) == bn254.g1_mul(g, 2)
    assert bn254.g1_msm([g, g], [3, 4]) == bn254.g1_mul(g, 7)
"""

from ._zkforge import bn254 as _bn

g1_add = _bn.g1_add
g1_neg = _bn.g1_neg
g1_mul = _bn.g1_mul
g1_msm = _bn.g1_msm
g2_add = _bn.g2_add
g2_mul = _bn.g2_mul
g2_msm = _bn.g2_msm
pairing_check = _bn.pairing_check

__all__ = ["g1_add", "g1_neg", "g1_mul", "g1_msm", "g2_add", "g2_mul", "g2_msm", "pairing_check"]

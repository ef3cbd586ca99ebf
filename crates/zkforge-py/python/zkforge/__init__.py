"""zkforge: fast, verified cryptography for Ethereum and zero-knowledge systems.

Submodules:

- ``zkforge.kzg``: KZG commitments for Ethereum blobs and cells (EIP-4844, EIP-7594), a drop-in
  for the ``ckzg`` package: ``import zkforge.kzg as ckzg``.
- ``zkforge.bls12_381``: G1/G2 points, scalars and pairings, a drop-in for
  ``py_arkworks_bls12381``.
- ``zkforge.bls``: BLS signatures (Ethereum's ciphersuite), a drop-in for py_ecc's
  ``G2ProofOfPossession``: ``from zkforge.bls import G2ProofOfPossession as bls``.
- ``zkforge.bn254``: BN254 points in the EVM encodings, MSMs and pairing checks.
- ``zkforge.evm``: the EVM precompiles, ``call(address, input, gas) -> (output, gas_used)``.
- ``zkforge.hashsig``: hash-based signatures (Generalized XMSS, hash-sig and leanSig
  instances), keys kept in a store that refuses to sign an epoch twice.
"""

from . import bls, bls12_381, bn254, evm, hashsig, kzg

__all__ = ["bls", "bls12_381", "bn254", "evm", "hashsig", "kzg"]
__version__ = "0.1.0"

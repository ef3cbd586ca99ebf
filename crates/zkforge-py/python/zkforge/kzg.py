"""KZG for Ethereum blobs and cells (EIP-4844, EIP-7594), with the API of ``ckzg`` 2.x.

``import zkforge.kzg as ckzg`` runs code written for ckzg unchanged: the same function names,
argument order, return types (bytes in, bytes out) and exception classes (``ValueError`` for
arguments of the wrong type or length, ``RuntimeError`` when an input is refused, such as a
field element not below r or a point outside G1). Every computing call releases the GIL.

Beyond ckzg: ``load_trusted_setup_mainnet(precompute=8)`` needs no file (the mainnet setup is
embedded), and ``compute_cells``.

Example::

    import zkforge.kzg as ckzg
    s = ckzg.load_trusted_setup_mainnet(0)
    blob = bytes(131072)
    c = ckzg.blob_to_kzg_commitment(blob, s)
    p = ckzg.compute_blob_kzg_proof(blob, c, s)
    assert ckzg.verify_blob_kzg_proof(blob, c, p, s)
"""

from ._zkforge import (
    BYTES_PER_BLOB,
    BYTES_PER_CELL,
    CELLS_PER_EXT_BLOB,
    KZGSettings,
    blob_to_kzg_commitment,
    compute_blob_kzg_proof,
    compute_cells,
    compute_cells_and_kzg_proofs,
    compute_kzg_proof,
    load_trusted_setup,
    load_trusted_setup_mainnet,
    recover_cells_and_kzg_proofs,
    verify_blob_kzg_proof,
    verify_blob_kzg_proof_batch,
    verify_cell_kzg_proof_batch,
    verify_kzg_proof,
)

BYTES_PER_FIELD_ELEMENT = 32
BYTES_PER_COMMITMENT = 48
BYTES_PER_PROOF = 48
FIELD_ELEMENTS_PER_BLOB = 4096

__all__ = [
    "BYTES_PER_BLOB",
    "BYTES_PER_CELL",
    "BYTES_PER_COMMITMENT",
    "BYTES_PER_FIELD_ELEMENT",
    "BYTES_PER_PROOF",
    "CELLS_PER_EXT_BLOB",
    "FIELD_ELEMENTS_PER_BLOB",
    "KZGSettings",
    "blob_to_kzg_commitment",
    "compute_blob_kzg_proof",
    "compute_cells",
    "compute_cells_and_kzg_proofs",
    "compute_kzg_proof",
    "load_trusted_setup",
    "load_trusted_setup_mainnet",
    "recover_cells_and_kzg_proofs",
    "verify_blob_kzg_proof",
    "verify_blob_kzg_proof_batch",
    "verify_cell_kzg_proof_batch",
    "verify_kzg_proof",
]

from typing import List, Tuple

BYTES_PER_BLOB: int
BYTES_PER_CELL: int
BYTES_PER_COMMITMENT: int
BYTES_PER_FIELD_ELEMENT: int
BYTES_PER_PROOF: int
CELLS_PER_EXT_BLOB: int
FIELD_ELEMENTS_PER_BLOB: int

class KZGSettings:
    """A loaded trusted setup."""

def load_trusted_setup(file: str, precompute: int) -> KZGSettings:
    """Load a setup in c-kzg's text format; precompute 0..15 is the cell-proof table width."""
def load_trusted_setup_mainnet(precompute: int = 8) -> KZGSettings:
    """The embedded Ethereum mainnet setup."""
def blob_to_kzg_commitment(blob: bytes, s: KZGSettings) -> bytes: ...
def compute_kzg_proof(blob: bytes, z_bytes: bytes, s: KZGSettings) -> Tuple[bytes, bytes]:
    """Returns (proof, y)."""
def compute_blob_kzg_proof(blob: bytes, commitment_bytes: bytes, s: KZGSettings) -> bytes: ...
def verify_kzg_proof(commitment_bytes: bytes, z_bytes: bytes, y_bytes: bytes, proof_bytes: bytes, s: KZGSettings) -> bool: ...
def verify_blob_kzg_proof(blob: bytes, commitment_bytes: bytes, proof_bytes: bytes, s: KZGSettings) -> bool: ...
def verify_blob_kzg_proof_batch(blobs: bytes, commitments_bytes: bytes, proofs_bytes: bytes, s: KZGSettings) -> bool:
    """Each argument is the items concatenated."""
def compute_cells(blob: bytes, s: KZGSettings) -> List[bytes]: ...
def compute_cells_and_kzg_proofs(blob: bytes, s: KZGSettings) -> Tuple[List[bytes], List[bytes]]: ...
def recover_cells_and_kzg_proofs(cell_indices: List[int], cells: List[bytes], s: KZGSettings) -> Tuple[List[bytes], List[bytes]]: ...
def verify_cell_kzg_proof_batch(commitments_bytes: List[bytes], cell_indices: List[int], cells: List[bytes], proofs_bytes: List[bytes], s: KZGSettings) -> bool: ...

"""A short tour of the zkforge Python package (pip install ./crates/zkforge-py).

1. KZG for an EIP-4844 blob, written as ckzg code: `import zkforge.kzg as ckzg`.
2. EIP-7594 cells: compute, drop half, recover, batch-verify.
3. BLS12-381 as py_arkworks_bls12381 code: a BLS signature (sign = sk * H(m) in G2) and its
   pairing check, then an aggregate of three signatures on distinct messages.
4. A hash-based (XMSS) signing key in a key store: sign, verify, and the refusal to sign an
   epoch twice.

Run from the repository root: python examples/python/kzg_and_bls.py
"""

import os
import random
import tempfile
import time

import zkforge.kzg as ckzg
from zkforge import hashsig
from zkforge.bls12_381 import G1Point, G2Point, GT, Scalar

rng = random.Random(7)

# 1. KZG, with the mainnet setup (embedded; ckzg.load_trusted_setup(path, 0) reads a file)
ts = ckzg.load_trusted_setup_mainnet(8)
blob = b"".join(bytes([rng.randrange(0x73)]) + rng.randbytes(31) for _ in range(4096))
t = time.perf_counter()
commitment = ckzg.blob_to_kzg_commitment(blob, ts)
proof = ckzg.compute_blob_kzg_proof(blob, commitment, ts)
ok = ckzg.verify_blob_kzg_proof(blob, commitment, proof, ts)
print(f"blob commitment {commitment.hex()[:16]}..., proof verifies: {ok} ({(time.perf_counter() - t) * 1e3:.1f} ms)")

# 2. cells: every other cell is enough to recover the rest
cells, proofs = ckzg.compute_cells_and_kzg_proofs(blob, ts)
kept = list(range(0, 128, 2))
rcells, rproofs = ckzg.recover_cells_and_kzg_proofs(kept, [cells[i] for i in kept], ts)
assert rcells == cells and rproofs == proofs
ok = ckzg.verify_cell_kzg_proof_batch([commitment] * 128, list(range(128)), cells, proofs, ts)
print(f"128 cells recovered from 64 and batch-verified: {ok}")

# 3. BLS signatures (minimal-pubkey-size: pk in G1, signature in G2)
dst = b"BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_"
keys = [Scalar(rng.randrange(1, 2**255)) for _ in range(3)]
pks = [G1Point() * sk for sk in keys]
msgs = [f"message {i}".encode() for i in range(3)]
sigs = [G2Point.hash_to_curve(m, dst) * sk for m, sk in zip(msgs, keys)]
assert GT.pairing_check([pks[0], -G1Point()], [G2Point.hash_to_curve(msgs[0], dst), sigs[0]])
agg = sigs[0] + sigs[1] + sigs[2]
ok = GT.pairing_check(pks + [-G1Point()], [G2Point.hash_to_curve(m, dst) for m in msgs] + [agg])
print(f"aggregate of 3 BLS signatures verifies: {ok}")

# 4. hash-based signatures: the secret key lives only in the store file
scheme = "poseidon2_toplevel_lifetime8_dim64_base8"
store = os.path.join(tempfile.mkdtemp(), "validator.key")
pk = hashsig.keygen(scheme, rng.randbytes(32), store, active_epochs=256)
msg = rng.randbytes(32)
sig = hashsig.sign(scheme, store, 7, msg)
print(f"XMSS signature at epoch 7 ({len(sig)} bytes, SSZ) verifies: {hashsig.verify(scheme, pk, 7, msg, sig)}")
try:
    hashsig.sign(scheme, store, 7, rng.randbytes(32))
except hashsig.EpochAlreadyUsedError as e:
    print(f"second signature at epoch 7 refused: {e}")

//! # zkforge-bulletproofs
//!
//! Bulletproofs range proofs (Bunz et al., ePrint 2017/1066) over three groups: BLS12-381 G1
//! and BN254 G1 on zkforge's curves and MSM, and Ristretto255 on curve25519-dalek.
//!
//! - [`RangeProof`]: proofs that committed values are below 2^n, any 1 <= n <= 64, one value
//!   or up to 64 aggregated; verification as one multi-scalar multiplication, with optional
//!   fixed-base [`GeneratorTables`]; [`verify_batch`] for many proofs at once.
//! - With [`Ristretto255`] the generators, the Merlin transcript and the bytes are those of
//!   dalek's `bulletproofs` 5.x: proofs pass between the two crates in both directions.
//! - [`RangeProofPlus`]: Bulletproofs+ (ePrint 2020/735) over the same groups and generators,
//!   with [`verify_batch_plus`]; shorter proofs, a constant-time prover; in
//!   [`PlusFormat::Tari`] the proofs are those of Tari's `tari_bulletproofs_plus`.
//! - The provers' rounds run over the original generators with public coefficients and rebase
//!   onto the folded generators only when that is cheaper ([`ProverConfig`], [`inner_product`]).
//!
//! ```
//! use merlin::Transcript;
//! use zkforge_bulletproofs::{BpGroup, Bls12381G1, BulletproofGens, PedersenGens, RangeProof};
//! let bp = BulletproofGens::<Bls12381G1>::new(16, 2);
//! let pc = PedersenGens::default();
//! let r = [Bls12381G1::scalar_from_u64(11), Bls12381G1::scalar_from_u64(12)];
//! let (proof, commitments) = RangeProof::prove_multiple(&bp, &pc, &mut Transcript::new(b"example"), &[300, 65535], &r, 16).unwrap();
//! let bytes = proof.to_bytes();
//! let decoded = RangeProof::<Bls12381G1>::from_bytes(&bytes).unwrap();
//! assert!(decoded.verify_multiple(&bp, &pc, &mut Transcript::new(b"example"), &commitments, 16).is_ok());
//! ```

#![warn(missing_docs)]

pub mod error;
pub mod generators;
pub mod group;
pub mod groups;
pub mod inner_product;
pub mod range_proof;
pub mod range_proof_plus;
mod transcript;

pub use error::BulletproofError;
pub use generators::{BulletproofGens, ExtendedPedersenGens, GeneratorTables, PedersenGens, MAX_EXTENSION_DEGREE};
pub use group::{BpGroup, BpScalar};
pub use groups::{Bls12381G1, Bn254G1, Ristretto255, Scalar25519};
pub use inner_product::Encoded;
pub use merlin::Transcript;
pub use zkforge_msm::msm_ct::CtMsmMethod;
pub use range_proof::{verify_batch, BatchItem, Commitment, ProverConfig, RangeProof, MAX_BITS, MAX_VALUES};
pub use range_proof_plus::{verify_batch_plus, verify_batch_plus_in, verify_batch_plus_promises, BatchItemPlus, PlusFormat, RangeProofPlus};

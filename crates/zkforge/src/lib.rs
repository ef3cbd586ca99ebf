//! # zkforge
//!
//! The crate to depend on: it re-exports zkforge's layers behind cargo features, so a user
//! adds one dependency and switches on what they need.
//!
//! | module | crate | feature |
//! |---|---|---|
//! | [`field`] | `zkforge-field`: Montgomery prime fields, Fp2/Fp6/Fp12 towers | always |
//! | `curve` | `zkforge-curve`: G1/G2 of BN254 and BLS12-381, encodings, hash-to-curve | `curves` (default) |
//! | `msm` | `zkforge-msm`: multi-scalar multiplication | `msm` (default) |
//! | `pairing` | `zkforge-pairing`: optimal ate pairings, multi-Miller loop | `pairing` (default) |
//! | `poly` | `zkforge-poly`: radix-2 FFTs and evaluation domains | `poly` (default) |
//! | `bls` | `zkforge-bls`: BLS signatures (Ethereum's ciphersuite): sign, aggregate, fast aggregate, aggregate and batch verification | `bls` |
//! | `hashsig` | `zkforge-hashsig`: Generalized XMSS (Poseidon2, SHA3, leanSig devnet 4) | `hashsig` |
//! | `kzg` | `zkforge-kzg`: KZG commitments and proofs for Ethereum blobs (EIP-4844) | `kzg` |
//! | `evm` | `zkforge-evm`: the EVM precompiles 0x06-0x08, 0x0a, 0x0b-0x11 | `evm` |
//! | `bulletproofs` | `zkforge-bulletproofs`: range proofs, aggregated and batch-verified, dalek-compatible on Ristretto | `bulletproofs` |
//! | `gpu` | `zkforge-gpu`: G1 MSM on GPUs in WGSL through wgpu, with a CPU fallback | `gpu` |
//!
//! `default-features = false, features = ["curves"]` gives the field and curve layers as
//! `no_std` + `alloc` (CI builds them for a bare-metal target).
//!
#![cfg_attr(
    all(feature = "curves", feature = "pairing"),
    doc = r#"
```
use zkforge::curve::bls12_381::{G1Projective, G2Projective, Scalar};
use zkforge::pairing::bls12_381::pairing_check;
let (g1, g2) = (G1Projective::generator(), G2Projective::generator());
let s = Scalar::from_u64(5);
// e(sP, Q) e(-P, sQ) = 1
assert!(pairing_check(&[((g1 * s).to_affine(), g2.to_affine()), ((-g1).to_affine(), (g2 * s).to_affine())]));
```
"#
)]
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

pub use zkforge_field as field;

/// Groups G1 and G2 (`zkforge-curve`).
#[cfg(feature = "curves")]
pub use zkforge_curve as curve;

/// Multi-scalar multiplication (`zkforge-msm`).
#[cfg(feature = "msm")]
pub use zkforge_msm as msm;

/// Pairings (`zkforge-pairing`).
#[cfg(feature = "pairing")]
pub use zkforge_pairing as pairing;

/// Polynomials and FFTs (`zkforge-poly`).
#[cfg(feature = "poly")]
pub use zkforge_poly as poly;

/// Hash-based signatures (`zkforge-hashsig`).
#[cfg(feature = "hashsig")]
pub use zkforge_hashsig as hashsig;

/// BLS signatures (`zkforge-bls`).
#[cfg(feature = "bls")]
pub use zkforge_bls as bls;

/// EVM precompiles (`zkforge-evm`).
#[cfg(feature = "evm")]
pub use zkforge_evm as evm;

/// KZG commitments for Ethereum blobs (`zkforge-kzg`).
#[cfg(feature = "kzg")]
pub use zkforge_kzg as kzg;

/// Bulletproofs range proofs (`zkforge-bulletproofs`).
#[cfg(feature = "bulletproofs")]
pub use zkforge_bulletproofs as bulletproofs;

/// G1 MSM on GPUs (`zkforge-gpu`).
#[cfg(feature = "gpu")]
pub use zkforge_gpu as gpu;

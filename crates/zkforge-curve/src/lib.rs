//! # zkforge-curve
//!
//! The groups G1 and G2 of BN254 and BLS12-381: one short-Weierstrass implementation (a = 0)
//! in affine, Jacobian and XYZZ coordinates ([`point`]), constant-time and `_vartime` scalar
//! multiplication with the GLV/GLS endomorphism split ([`scalar_mul`]), endomorphism subgroup
//! checks and cofactor clearing, the Zcash BLS12-381 compressed/uncompressed encodings (the
//! EVM's EIP-196/197 and EIP-2537 formats live in `zkforge-evm`), and RFC 9380 hash-to-curve
//! ([`hash_to_curve`]).
//!
//! ```
//! use zkforge_curve::bls12_381::{G1Affine, G1Projective, Scalar};
//! let g = G1Projective::generator();
//! let k = Scalar::from_u64(5);
//! let p = (g * k).to_affine();
//! let bytes = p.to_compressed();
//! assert_eq!(G1Affine::from_compressed(&bytes).unwrap(), p);
//! ```

#![warn(missing_docs)]
#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

pub mod bls12_381;
pub mod bn254;
pub mod config;
pub mod field;
pub mod hash_to_curve;
pub mod point;
pub mod scalar_mul;
mod wide;

pub use config::{CurveConfig, Endomorphism, NoEndomorphism};
pub use field::CurveField;
#[cfg(feature = "test-utils")]
pub use point::sample_points;
#[cfg(feature = "test-utils")]
pub mod test_curves;
pub use point::{Affine, Jacobian, Xyzz};

/// Errors from decoding points.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CurveError {
    /// The input has the wrong number of bytes.
    #[error("wrong length: expected {expected} bytes, got {got}")]
    WrongLength {
        /// Bytes the encoding needs.
        expected: usize,
        /// Bytes given.
        got: usize,
    },
    /// A coordinate is not below the field modulus.
    #[error("non-canonical coordinate: not below the field modulus")]
    NonCanonical,
    /// The flag bits are not a valid combination for this encoding.
    #[error("invalid flag bits")]
    InvalidFlags,
    /// The identity encoding carries non-zero coordinate bits.
    #[error("invalid encoding of the point at infinity")]
    InvalidInfinity,
    /// The coordinates do not satisfy the curve equation (or x has no y).
    #[error("point is not on the curve")]
    NotOnCurve,
    /// The point is on the curve but outside the prime-order subgroup.
    #[error("point is not in the prime-order subgroup")]
    NotInSubgroup,
}

/// `Ok` when `b` has exactly `n` bytes.
pub(crate) fn check_len(b: &[u8], n: usize) -> Result<(), CurveError> {
    if b.len() != n {
        Err(CurveError::WrongLength { expected: n, got: b.len() })
    } else {
        Ok(())
    }
}

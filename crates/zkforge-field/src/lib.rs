//! # zkforge-field
//!
//! Prime and extension fields for zkforge: Montgomery arithmetic over fixed u64 limbs (one
//! generic implementation, [`mont::Fp`], instantiated for BN254 and BLS12-381 Fp and Fr),
//! an x86-64 MULX/ADCX/ADOX backend chosen at run time beside a portable one
//! ([`backend`]), constant-time inversion (Bernstein-Yang safegcd) and square roots, batch
//! inversion, canonical encodings with typed errors, and the Fp2/Fp6/Fp12 towers with the
//! Frobenius maps and cyclotomic squaring that pairings need.
//!
//! ```
//! use zkforge_field::bls12_381::{Fp, Fr};
//! let a = Fp::from_u64(12345);
//! let b = a.invert().unwrap();
//! assert_eq!(a * b, Fp::ONE);
//! // BLS12-381 Fr has 2-adicity 32: a primitive 2^32-th root of unity
//! assert_eq!(Fr::TWO_ADICITY, 32);
//! assert_eq!(Fr::ROOT_OF_UNITY.square_n(32), Fr::ONE);
//! ```

#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

pub mod backend;
pub mod bls12_381;
pub mod bn254;
mod chain;
mod chain_data;
mod inverse;
pub mod limbs;
pub mod mont;
mod sqrt;
pub mod tower;

pub use mont::{ByteArray, FieldConfig, Fp};
pub use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};

/// Errors from decoding and parsing field elements.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    /// The input has the wrong number of bytes.
    #[error("wrong length: expected {expected} bytes, got {got}")]
    WrongLength {
        /// Bytes the encoding needs.
        expected: usize,
        /// Bytes given.
        got: usize,
    },
    /// The encoded integer is not below the modulus.
    #[error("non-canonical encoding: the value is not below the modulus")]
    NonCanonical,
    /// A character is not a digit of the expected base.
    #[error("invalid {0} digit")]
    InvalidDigit(&'static str),
    /// The string is empty.
    #[error("empty string")]
    Empty,
}

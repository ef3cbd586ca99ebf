//! # zkforge-pairing
//!
//! Optimal ate pairings on BLS12-381 and BN254:
//! - a multi-Miller loop ([`bls12_381::multi_miller_loop`], [`bn254::multi_miller_loop`]):
//!   one Fp12 accumulator and one squaring per loop digit shared by all pairs, twist points in
//!   homogeneous projective coordinates (no inversions), lines multiplied in sparse form
//!   (slots 0,1,4 on BLS12-381's M-twist, 0,3,4 on BN254's D-twist), identity pairs skipped;
//! - prepared G2 points ([`bls12_381::G2Prepared`]) whose lines are computed once;
//! - [`bls12_381::pairing_check_g2_unchecked`]: a pairing check that also tests its G2 inputs
//!   for G2 membership with the point the Miller loop ends on ([|x|] Q = -psi(Q)), instead of
//!   63 separate doublings per point (the EIP-2537 precompile's default);
//! - final exponentiation: easy part with Frobenius maps, hard part with cyclotomic squarings
//!   and the chains of Hayashida-Hayasaka-Teruya (ePrint 2020/875, BLS12) and
//!   Fuentes-Castaneda-Knapp-Rodriguez-Henriquez / Duquesne-Ghammam (BN);
//! - [`Gt`] (multiplication, exponentiation, equality, encoding) and `pairing_check`, one
//!   final exponentiation for all pairs;
//! - run-time switches for the Miller loop's optimisations ([`config`]), each tested to give the
//!   same result;
//! - one front end for every curve ([`engine`], generic over [`PairingConfig`]): a curve
//!   supplies its groups, loop shape, trailing Frobenius points and hard part, and
//!   `bls12_381` / `bn254` are thin modules over it.
//!
//! Each module's docs count the field operations of its steps. Inputs are points of G1 and G2:
//! decode them with the subgroup-checking decoders of `zkforge-curve`.
//!
//! ```
//! use zkforge_curve::bls12_381::{G1Projective, G2Projective, Scalar};
//! use zkforge_pairing::bls12_381::{pairing, pairing_check};
//! let (g1, g2) = (G1Projective::generator(), G2Projective::generator());
//! let s = Scalar::from_u64(3);
//! assert_eq!(pairing(&(g1 * s).to_affine(), &g2.to_affine()), pairing(&g1.to_affine(), &(g2 * s).to_affine()));
//! assert!(pairing_check(&[((g1 * s).to_affine(), g2.to_affine()), ((-g1).to_affine(), (g2 * s).to_affine())]));
//! ```
#![warn(missing_docs)]

pub mod bls12_381;
pub mod bn254;
pub mod config;
pub mod engine;
pub mod gt;
pub mod line;
mod miller;
pub mod sparse;

pub use engine::PairingConfig;
pub use gt::Gt;
pub use miller::LoopShape;

/// Error of the Gt decoders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairingError {
    /// The input has the wrong length.
    WrongLength {
        /// Expected bytes.
        expected: usize,
        /// Bytes given.
        got: usize,
    },
    /// A coefficient is not below p.
    NonCanonical,
    /// The element is not in the order-r subgroup of Fp12.
    NotInGt,
}

impl core::fmt::Display for PairingError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PairingError::WrongLength { expected, got } => write!(f, "expected {expected} bytes, got {got}"),
            PairingError::NonCanonical => write!(f, "a coefficient is not below the modulus"),
            PairingError::NotInGt => write!(f, "not an element of the pairing target group"),
        }
    }
}
impl std::error::Error for PairingError {}

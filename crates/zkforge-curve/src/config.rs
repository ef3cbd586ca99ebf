//! Per-group data: the curve y^2 = x^3 + b over the coordinate field (a = 0 for all four groups),
//! the generator, and the endomorphism used for GLV/GLS scalar decomposition, subgroup checks and
//! cofactor clearing.

use core::fmt::Debug;

use subtle::Choice;

use crate::field::CurveField;
use crate::point::{Affine, Jacobian};

/// One signed sub-scalar of a GLV/GLS decomposition: `neg` set means the part is subtracted.
#[derive(Clone, Copy, Debug)]
pub struct SubScalar {
    /// Sign (1 = negative), a `Choice` so the constant-time path never branches on it.
    pub neg: Choice,
    /// Magnitude.
    pub mag: u128,
}

impl Default for SubScalar {
    fn default() -> Self {
        Self { neg: Choice::from(0), mag: 0 }
    }
}

/// A short Weierstrass group y^2 = x^3 + b with an efficient endomorphism.
pub trait CurveConfig: Copy + Debug + Send + Sync + 'static + Sized {
    /// Coordinate field.
    type Base: CurveField;
    /// The scalar field Fr (integers mod the group order r). APIs that take scalars as field
    /// elements, such as the MSM, accept only this type for this group, so a BN254 scalar
    /// cannot be handed to a BLS12-381 operation.
    type Scalar: Copy + core::fmt::Debug + Send + Sync + 'static;
    /// Name used in errors and benches.
    const NAME: &'static str;
    /// The constant b.
    const B: Self::Base;
    /// Affine generator (x, y).
    const GENERATOR: (Self::Base, Self::Base);
    /// The prime group order r, little-endian limbs.
    const ORDER: [u64; 4];
    /// Sub-scalars a decomposition yields (2 for GLV, 4 for the BLS12-381 G2 GLS split).
    const DIM: usize;
    /// Largest bit length of a sub-scalar magnitude.
    const SUB_BITS: u32;

    /// b * x (curves override it with additions for small b).
    #[inline(always)]
    fn mul_by_b(x: &Self::Base) -> Self::Base {
        *x * Self::B
    }

    /// Split a canonical scalar k < r into `DIM` signed parts with
    /// k = sum_i part_i * lambda^i (mod r), lambda the eigenvalue of [`CurveConfig::endo`];
    /// constant time in k.
    fn decompose(k: &[u64; 4]) -> [SubScalar; 4];

    /// The endomorphism whose eigenvalue the decomposition uses (phi on G1, psi on G2).
    fn endo(p: &Jacobian<Self>) -> Jacobian<Self>;

    /// Membership of the prime-order subgroup for a point already known to be on the curve
    /// (endomorphism tests; variable time: inputs are public).
    fn is_torsion_free_vartime(p: &Affine<Self>) -> bool;

    /// Map a curve point into the prime-order subgroup (multiplication by h_eff).
    fn clear_cofactor(p: &Jacobian<Self>) -> Jacobian<Self>;
}

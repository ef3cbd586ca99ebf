//! Per-group data: the curve y^2 = x^3 + a x + b over the coordinate field (a = 0 for all four
//! groups we ship, and the formulas take the a = 0 shortcuts at compile time when
//! `CurveConfig::A` is `None`), the generator, subgroup checks and cofactor clearing, and the
//! optional GLV/GLS endomorphism ([`Endomorphism`]; a group without one names
//! [`NoEndomorphism`] and gets plain windows in scalar multiplication and MSM).

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

/// A short Weierstrass group y^2 = x^3 + a x + b.
pub trait CurveConfig: Copy + Debug + Send + Sync + 'static + Sized {
    /// Coordinate field.
    type Base: CurveField;
    /// The scalar field Fr (integers mod the group order r). APIs that take scalars as field
    /// elements, such as the MSM, accept only this type for this group, so a BN254 scalar
    /// cannot be handed to a BLS12-381 operation.
    type Scalar: Copy + core::fmt::Debug + Send + Sync + 'static;
    /// Name used in errors and benches.
    const NAME: &'static str;
    /// The constant a: `None` for a = 0, which selects the a = 0 formulas at compile time
    /// (`dbl-2009-l` and friends); `Some(a)` adds the a-terms (`dbl-2007-bl`, tangent slope
    /// (3x^2 + a) / 2y, curve equation x^3 + a x + b).
    const A: Option<Self::Base>;
    /// The constant b.
    const B: Self::Base;
    /// Affine generator (x, y).
    const GENERATOR: (Self::Base, Self::Base);
    /// The prime group order r, little-endian limbs.
    const ORDER: [u64; 4];
    /// The GLV/GLS endomorphism used to split scalars, or [`NoEndomorphism`].
    type Endo: Endomorphism<Self>;

    /// b * x (curves override it with additions for small b).
    #[inline(always)]
    fn mul_by_b(x: &Self::Base) -> Self::Base {
        *x * Self::B
    }

    /// m + a t, with `t` computed only when a != 0 (for a = 0, `A` is `None` and this is m,
    /// resolved at compile time).
    #[inline(always)]
    fn plus_a_times(m: Self::Base, t: impl FnOnce() -> Self::Base) -> Self::Base {
        match Self::A {
            None => m,
            Some(a) => m + a * t(),
        }
    }

    /// Membership of the prime-order subgroup for a point already known to be on the curve
    /// (endomorphism tests; variable time: inputs are public).
    fn is_torsion_free_vartime(p: &Affine<Self>) -> bool;

    /// Map a curve point into the prime-order subgroup (multiplication by h_eff).
    fn clear_cofactor(p: &Jacobian<Self>) -> Jacobian<Self>;

    /// p doubled n times: [`Jacobian::double`] n times, unless the group has a faster route for
    /// long runs (BLS12-381 G2 on AVX-512 IFMA lanes: `bls12_381::set_g2_doubling_runs`). The
    /// same coordinates either way; constant time in p (the route depends on n and the CPU).
    #[inline]
    fn double_n(p: &Jacobian<Self>, n: u32) -> Jacobian<Self> {
        p.double_times(n)
    }
}

/// An efficiently computable endomorphism of a group and the scalar split it allows
/// (Gallant-Lambert-Vanstone, CRYPTO 2001; Galbraith-Lin-Scott for psi on G2). Optional: a group
/// without one sets `type Endo = NoEndomorphism`, and every caller checks
/// [`Endomorphism::PRESENT`] before using the split.
pub trait Endomorphism<C: CurveConfig>: 'static {
    /// False only for [`NoEndomorphism`].
    const PRESENT: bool = true;
    /// Sub-scalars a decomposition yields (2 for GLV, 4 for the BLS12-381 G2 GLS split).
    const DIM: usize;
    /// Largest bit length of a sub-scalar magnitude.
    const SUB_BITS: u32;

    /// Split a canonical scalar k < r into `DIM` signed parts with
    /// k = sum_i part_i * lambda^i (mod r), lambda the eigenvalue of [`Endomorphism::endo`];
    /// constant time in k.
    fn decompose(k: &[u64; 4]) -> [SubScalar; 4];

    /// The endomorphism whose eigenvalue the decomposition uses (phi on G1, psi on G2).
    fn endo(p: &Jacobian<C>) -> Jacobian<C>;
}

/// The absent endomorphism: scalar multiplication and MSM use plain windows over the whole
/// scalar. Its methods are never called (callers check `PRESENT`); they return the trivial
/// split and the identity map.
#[derive(Clone, Copy, Debug)]
pub struct NoEndomorphism;

impl<C: CurveConfig> Endomorphism<C> for NoEndomorphism {
    const PRESENT: bool = false;
    const DIM: usize = 1;
    const SUB_BITS: u32 = 256;

    fn decompose(_k: &[u64; 4]) -> [SubScalar; 4] {
        [SubScalar::default(); 4]
    }

    fn endo(p: &Jacobian<C>) -> Jacobian<C> {
        *p
    }
}

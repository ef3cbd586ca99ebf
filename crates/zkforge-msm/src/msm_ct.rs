//! Constant-time multi-scalar multiplication sum_i k_i P_i for secret scalars over public
//! points (Pedersen vector commitments, the rounds of a Bulletproofs+ prover): no branch and
//! no memory address depends on a scalar.
//!
//! Two methods, the same sums:
//! - Straus (`zkforge_curve::scalar_mul::multi_mul_ct`): the GLV parts of every scalar share
//!   one chain of doublings, signed window-5 Booth digits, a full scan of each 16-entry table,
//!   complete Jacobian mixed additions.
//! - Lanes (AVX-512 IFMA, base fields of eight 52-bit limbs: BLS12-381 G1): point i on lane
//!   i % 8, eight accumulators at once; the GLV parts made odd and recoded with regular
//!   window-4 digits (Joye-Tunstall, AFRICACRYPT 2009: every digit odd, so every window adds
//!   an entry and no digit is zero), tables of the odd multiples P..15P read by a full scan
//!   under vector masks, and the complete formulas of Renes, Costello and Batina (ePrint
//!   2015/1060, Algorithms 8 and 9) in homogeneous coordinates, so no input is exceptional.
//!   Per point and part: 33 complete mixed additions (11M) and 1 more for the parity fix;
//!   per lane 128 complete doublings (6M + 2S).
//!
//! The points are public: their tables are built in variable time, identities among them
//! are dropped first, and their number decides the method.

use zkforge_curve::scalar_mul::ScalarMulConfig;
use zkforge_curve::{Affine, CurveConfig, Jacobian};

use crate::MsmError;

/// How [`msm_ct_with`] computes the sum. Every value gives the same point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CtMsmMethod {
    /// Lanes where they exist and at least [`ct_lanes_min`] points remain, Straus otherwise
    /// (the measured best: BENCHMARKS.md, 2026-12-02).
    #[default]
    Auto,
    /// Straus on the 64-bit field, always.
    Straus,
    /// Lanes for any number of points where they exist; Straus elsewhere.
    Lanes,
}

/// The fewest points for which [`CtMsmMethod::Auto`] takes the lanes (a group of eight lanes
/// costs about what five points cost by Straus), on CPUs with full-width AVX-512 units; see
/// [`ct_lanes_min`].
pub const CT_LANES_MIN: usize = 5;

/// [`CT_LANES_MIN`] on CPUs that run AVX-512 on 256-bit units (AMD Zen 4,
/// `zkforge_field::backend::avx512_half_width`): lanes / Straus 1.41 at 4 points, 1.18 at 5,
/// 0.99 at 6, 0.78 at 8 (`examples/msm_ct_ab.rs`, 2026-12-06; BENCHMARKS.md).
pub const CT_LANES_MIN_HALF_WIDTH: usize = 6;

/// The fewest points for which [`CtMsmMethod::Auto`] takes the lanes on this CPU:
/// [`CT_LANES_MIN_HALF_WIDTH`] where AVX-512 runs on 256-bit units, [`CT_LANES_MIN`] elsewhere.
pub fn ct_lanes_min() -> usize {
    zkforge_field::backend::per_avx512_width(CT_LANES_MIN, CT_LANES_MIN_HALF_WIDTH)
}

/// Under [`CtMsmMethod::Auto`], a last group of fewer points than this goes to Straus (a
/// group costs about what three more points cost there).
pub const CT_LANES_REM_MIN: usize = 2;

/// sum_i k_i P_i in constant time in the scalars, with the default method. The points must be
/// in the prime-order subgroup (the endomorphism split relies on it, as for
/// `Jacobian::mul_limbs`); scalars of any 256-bit value are reduced mod r (constant time).
///
/// ```
/// use zkforge_curve::bls12_381::{G1Projective, Scalar};
/// let g = G1Projective::generator();
/// let pts = [g.to_affine(), (g * Scalar::from_u64(2)).to_affine()];
/// let sum = zkforge_msm::msm_ct::msm_ct(&pts, &[[5, 0, 0, 0], [7, 0, 0, 0]]).unwrap();
/// assert_eq!(sum, g * Scalar::from_u64(19));
/// ```
pub fn msm_ct<C: CurveConfig>(points: &[Affine<C>], scalars: &[[u64; 4]]) -> Result<Jacobian<C>, MsmError> {
    msm_ct_with(points, scalars, CtMsmMethod::Auto)
}

/// [`msm_ct`] with the method chosen; `LengthMismatch` when the slices differ in length.
pub fn msm_ct_with<C: CurveConfig>(points: &[Affine<C>], scalars: &[[u64; 4]], method: CtMsmMethod) -> Result<Jacobian<C>, MsmError> {
    if points.len() != scalars.len() {
        return Err(MsmError::LengthMismatch { points: points.len(), scalars: scalars.len() });
    }
    // identities add nothing whatever their scalar; which points are identities is public
    let live: Vec<usize> = (0..points.len()).filter(|&i| !bool::from(points[i].is_identity())).collect();
    let pts: Vec<Affine<C>> = live.iter().map(|&i| points[i]).collect();
    let mut ks: Vec<[u64; 4]> = live.iter().map(|&i| zkforge_curve::scalar_mul::reduce_scalar::<C>(&scalars[i])).collect();
    let straus = |pts: &[Affine<C>], ks: &[[u64; 4]]| {
        let jac: Vec<Jacobian<C>> = pts.iter().map(|p| p.to_jacobian()).collect();
        zkforge_curve::scalar_mul::multi_mul_ct(&jac, ks, &ScalarMulConfig::for_curve::<C>())
    };
    // how many points go to the lanes (a multiple of eight unless all of them): under Auto,
    // none below ct_lanes_min(), and a last group of fewer than CT_LANES_REM_MIN goes to Straus
    let n = pts.len();
    let laned = match method {
        CtMsmMethod::Straus => 0,
        CtMsmMethod::Lanes => n,
        CtMsmMethod::Auto if n < ct_lanes_min() => 0,
        CtMsmMethod::Auto if n % 8 < CT_LANES_REM_MIN => n - n % 8,
        CtMsmMethod::Auto => n,
    };
    let laned_sum = if laned > 0 { crate::ifma::msm_ct_affine_lanes(&pts[..laned], &ks[..laned]) } else { None };
    let out = match laned_sum {
        Some(sum) if laned < n => sum.add(&straus(&pts[laned..], &ks[laned..])),
        Some(sum) => sum,
        None => straus(&pts, &ks),
    };
    zeroize::Zeroize::zeroize(&mut ks);
    Ok(out)
}

/// `sums` independent sums at once in constant time in the scalars: sum j is over the j-th of
/// `sums` equal consecutive runs of the terms (the folded generators of a Bulletproofs
/// prover: many short sums). On lanes, one sum per lane, eight at a time; by Straus, one after
/// another. `Auto` takes the lanes for at least [`MANY_LANES_MIN`] sums. Identities among the
/// points add nothing; the other points must be in the prime-order subgroup; scalars are
/// reduced mod r. Errors: `LengthMismatch`, and `UnevenSums` when the terms do not split
/// into `sums` equal runs (or `sums` is 0 with terms left).
///
/// ```
/// use zkforge_curve::bls12_381::{G1Projective, Scalar};
/// use zkforge_msm::msm_ct::{msm_many_ct_with, CtMsmMethod};
/// let g = G1Projective::generator().to_affine();
/// let sums = msm_many_ct_with(&[g; 4], &[[1, 0, 0, 0], [2, 0, 0, 0], [3, 0, 0, 0], [4, 0, 0, 0]], 2, CtMsmMethod::Auto).unwrap();
/// assert_eq!(sums, vec![G1Projective::generator() * Scalar::from_u64(3), G1Projective::generator() * Scalar::from_u64(7)]);
/// ```
pub fn msm_many_ct_with<C: CurveConfig>(points: &[Affine<C>], scalars: &[[u64; 4]], sums: usize, method: CtMsmMethod) -> Result<Vec<Jacobian<C>>, MsmError> {
    if points.len() != scalars.len() {
        return Err(MsmError::LengthMismatch { points: points.len(), scalars: scalars.len() });
    }
    let n = points.len();
    if sums == 0 {
        return if n == 0 { Ok(Vec::new()) } else { Err(MsmError::UnevenSums { terms: n, sums }) };
    }
    if n % sums != 0 {
        return Err(MsmError::UnevenSums { terms: n, sums });
    }
    let m = n / sums;
    let mut ks: Vec<[u64; 4]> = scalars.iter().map(zkforge_curve::scalar_mul::reduce_scalar::<C>).collect();
    let lanes = match method {
        CtMsmMethod::Straus => false,
        CtMsmMethod::Auto => sums >= MANY_LANES_MIN && m > 0,
        CtMsmMethod::Lanes => m > 0,
    };
    let laned = if lanes { crate::ifma::msm_many_affine_lanes(points, &ks, sums) } else { None };
    let out = match laned {
        Some(v) => v,
        None => (0..sums).map(|j| msm_ct_with(&points[j * m..(j + 1) * m], &ks[j * m..(j + 1) * m], CtMsmMethod::Straus).expect("equal lengths")).collect(),
    };
    zeroize::Zeroize::zeroize(&mut ks);
    Ok(out)
}

/// The fewest sums for which [`msm_many_ct_with`] under [`CtMsmMethod::Auto`] takes the lanes.
pub const MANY_LANES_MIN: usize = 4;

/// Whether [`CtMsmMethod::Lanes`] runs on lanes for group `C` on this CPU.
pub fn lanes_apply<C: CurveConfig>() -> bool {
    crate::ifma::msm_ct_affine_lanes::<C>(&[], &[]).is_some()
}

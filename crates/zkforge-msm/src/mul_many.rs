//! Many independent variable-time scalar multiplications k_i P_i at once (not their sum): the
//! twiddle products of a G1 FFT (FK20's proofs), where each point meets its own public scalar.
//!
//! One by one, each product is the curve crate's interleaved wNAF over the GLV split
//! (`Jacobian::mul_limbs_vartime`). On CPUs with AVX-512 IFMA and a base field that fits eight
//! 52-bit limbs (BLS12-381 G1), eight products run at once, one per lane (`ifma`): the GLV parts
//! recoded with regular window-4 digits (Joye-Tunstall), so every lane adds an entry in every
//! window, the odd-multiple tables formed on the lanes and normalised with one inversion per
//! call. A lane whose ladder meets equal or opposite points is redone one by one.

use zkforge_curve::{CurveConfig, Jacobian};

use crate::MsmError;

/// How [`mul_many_vartime_with`] computes the products. Every value gives the same points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MulManyMethod {
    /// Lanes for every group of at least [`LANES_MIN`] points where the lanes exist, one by one
    /// otherwise (the measured best: BENCHMARKS.md, 2026-12-02).
    #[default]
    Auto,
    /// One product at a time (`Jacobian::mul_limbs_vartime`).
    OneByOne,
    /// Lanes for every group, however small, where they exist; one by one elsewhere.
    Lanes,
}

/// The fewest points worth a group of eight lanes under [`MulManyMethod::Auto`]: a group costs
/// about what three products one by one cost.
pub const LANES_MIN: usize = 4;

/// k_i P_i for every i, in variable time (public points and scalars), with the default method.
/// Every P_i must lie in the prime-order subgroup, as for `Jacobian::mul_limbs_vartime`, whose
/// results these are; scalars are reduced mod r first.
///
/// ```
/// use zkforge_curve::bls12_381::G1Projective;
/// let g = G1Projective::generator();
/// let out = zkforge_msm::mul_many::mul_many_vartime(&[g; 9], &[[5, 0, 0, 0]; 9]).unwrap();
/// assert!(out.iter().all(|p| *p == g.mul_limbs_vartime(&[5, 0, 0, 0])));
/// ```
pub fn mul_many_vartime<C: CurveConfig>(points: &[Jacobian<C>], scalars: &[[u64; 4]]) -> Result<Vec<Jacobian<C>>, MsmError> {
    mul_many_vartime_with(points, scalars, MulManyMethod::Auto)
}

/// [`mul_many_vartime`] with the method chosen; `LengthMismatch` when the slices differ in length.
pub fn mul_many_vartime_with<C: CurveConfig>(points: &[Jacobian<C>], scalars: &[[u64; 4]], method: MulManyMethod) -> Result<Vec<Jacobian<C>>, MsmError> {
    if points.len() != scalars.len() {
        return Err(MsmError::LengthMismatch { points: points.len(), scalars: scalars.len() });
    }
    let one_by_one = |i: usize| points[i].mul_limbs_vartime(&scalars[i]);
    let min = match method {
        MulManyMethod::OneByOne => return Ok((0..points.len()).map(one_by_one).collect()),
        MulManyMethod::Auto => LANES_MIN,
        MulManyMethod::Lanes => 1,
    };
    // the identities stay out of the lanes (k O = O); the rest go in normalised
    let live: Vec<usize> = (0..points.len()).filter(|&i| !bool::from(points[i].is_identity())).collect();
    // a last group of fewer than `min` points is cheaper one by one
    let rem = live.len() % 8;
    let laned = if rem != 0 && rem < min { live.len() - rem } else { live.len() };
    let mut out = vec![Jacobian::<C>::IDENTITY; points.len()];
    if laned > 0 {
        let pts: Vec<Jacobian<C>> = live[..laned].iter().map(|&i| points[i]).collect();
        let affine = Jacobian::batch_to_affine_vartime(&pts);
        let ks: Vec<[u64; 4]> = live[..laned].iter().map(|&i| zkforge_curve::scalar_mul::reduce_scalar::<C>(&scalars[i])).collect();
        match crate::ifma::mul_many_affine_lanes(&affine, &ks) {
            Some(r) => {
                for (&i, p) in live[..laned].iter().zip(r) {
                    out[i] = p;
                }
            }
            None => {
                for &i in &live[..laned] {
                    out[i] = one_by_one(i);
                }
            }
        }
    }
    for &i in &live[laned..] {
        out[i] = one_by_one(i);
    }
    Ok(out)
}

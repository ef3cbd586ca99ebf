//! Extension-field towers Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - xi), Fp12 = Fp6[w]/(w^2 - v),
//! the towers BN254 (xi = 9 + u) and BLS12-381 (xi = 1 + u) both use for their pairings.
//!
//! Formulas: Karatsuba and Chung-Hasan squaring from Devegili, O hEigeartaigh, Scott, Dahab,
//! "Multiplication and Squaring on Pairing-Friendly Fields" (ePrint 2006/471); cyclotomic
//! squaring from Granger-Scott, "Faster Squaring in the Cyclotomic Subgroup of Sixth Degree
//! Extensions" (ePrint 2009/565); Fp2 square roots by Algorithm 9 of Adj and
//! Rodriguez-Henriquez, "Square root computation over even extension fields" (ePrint 2012/685).
//! Frobenius coefficients are generated from the curve records (`scripts/gen_all.py`) and rechecked by tests.
//!
//! Code size is part of the speed here. Several operations are deliberately out of line
//! (`#[inline(never)]`): the 6-limb Fp2 product and square (the 4-limb ones are small enough
//! to inline: BN254's G2 additions 0.94-0.95x), the wide Fp6 products of the lazy tower,
//! its Fp12 product and square, the 6-limb double-width kernels, the Granger-Scott coefficient
//! updates. Inlined, they made single functions of 10,000-30,000 instructions (30-45 KB of
//! straight-line code, more than a 32 KB L1 instruction cache), which ran at about 2.5
//! instructions a cycle against blst's 3.2 for the same work (callgrind counted fewer
//! instructions for our Fp12 product than for blst's). Out of line: Fp12 product 1.16x ->
//! 1.02x blst, cyclotomic square 1.20x -> 1.03x, final exponentiation 1.08x -> 0.94x
//! (BENCHMARKS.md, issue 19 seventh part).

mod fp12;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod ifma;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod ifma_fp12;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub use ifma_fp12::{Fp12Lanes, G2Lanes, LineScale};
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod ifma_gt;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod ifma_double;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub use ifma_double::double_run_lanes;

mod fp2;
mod fp6;
pub mod lazy;

pub use fp12::Fp12;
pub use fp2::Fp2;
pub use fp6::Fp6;

use crate::mont::FieldConfig;

/// The per-curve data of a tower: the Fp6 non-residue xi and the Frobenius coefficients.
pub trait TowerConfig<const N: usize>: FieldConfig<N> {
    /// xi, with v^3 = xi in Fp6.
    const XI: Fp2<Self, N>;
    /// The small integer k with xi = k + u (1 for BLS12-381, 9 for BN254); the lazy tower
    /// multiplies unreduced values by xi with it. `tests/tower.rs` checks it against `XI`.
    const XI_C0: u64;
    /// xi^((p^k - 1) / 3), k = 0..6.
    const FROB6_C1: [Fp2<Self, N>; 6];
    /// xi^(2 (p^k - 1) / 3), k = 0..6.
    const FROB6_C2: [Fp2<Self, N>; 6];
    /// xi^((p^k - 1) / 6), k = 0..12.
    const FROB12_C1: [Fp2<Self, N>; 12];
    /// a * xi, specialised per curve to additions.
    fn mul_by_xi(a: &Fp2<Self, N>) -> Fp2<Self, N>;
}

/// The fewest values of a group that [`pow_p_plus_1_over_4_many`] and
/// [`pow_p_minus_3_over_4_many`] run on IFMA lanes (a lane run costs the same for one value as
/// for eight); smaller groups run two at a time, interleaved. On CPUs with full-width AVX-512
/// units; see [`pow_lanes_min`].
pub const POW_LANES_MIN: usize = 4;

/// [`POW_LANES_MIN`] on CPUs that run AVX-512 on 256-bit units (AMD Zen 4,
/// [`crate::backend::avx512_half_width`]): a lane run of BLS12-381's x^((p + 1) / 4) takes
/// 70.8 us for one to eight values, the interleaved pairs 15.0 us a value, so lanes / pairs is
/// 1.18 at 4 values and 0.94 at 5 (2026-12-06; BENCHMARKS.md).
pub const POW_LANES_MIN_HALF_WIDTH: usize = 5;

/// The fewest values of a group that runs on IFMA lanes on this CPU: [`POW_LANES_MIN_HALF_WIDTH`]
/// where AVX-512 runs on 256-bit units, [`POW_LANES_MIN`] elsewhere.
pub fn pow_lanes_min() -> usize {
    crate::backend::per_avx512_width(POW_LANES_MIN, POW_LANES_MIN_HALF_WIDTH)
}

/// x^((p + 1) / 4) of many elements of a tower's base field (square roots, p = 3 mod 4): on
/// CPUs with AVX-512 IFMA (BLS12-381), groups of [`pow_lanes_min`] to eight values run on the
/// lanes of one vector exponentiation; elsewhere two at a time interleaved
/// ([`crate::mont::Fp::pow_p_plus_1_over_4_x2`]). The same results as one call each, and the
/// same operations for every value: constant time in the values (the path depends only on
/// their number).
///
/// ```
/// use zkforge_field::bls12_381::{Fp, FpConfig};
/// use zkforge_field::tower::pow_p_plus_1_over_4_many;
/// let xs: Vec<Fp> = (1..12u64).map(|k| Fp::from_u64(k).square()).collect();
/// let rs = pow_p_plus_1_over_4_many::<FpConfig, 6>(&xs);
/// assert!(rs.iter().zip(&xs).all(|(r, x)| r.square() == *x));
/// ```
pub fn pow_p_plus_1_over_4_many<C: TowerConfig<N>, const N: usize>(xs: &[crate::mont::Fp<C, N>]) -> alloc::vec::Vec<crate::mont::Fp<C, N>> {
    pow_many(xs, crate::mont::Fp::<C, N>::plan_p_plus_1_over_4())
}

/// x^((p - 3) / 4) of many elements of a tower's base field (the exponent of RFC 9380's
/// sqrt_ratio and of the Fp2 square root), as [`pow_p_plus_1_over_4_many`] runs them.
///
/// ```
/// use zkforge_field::bls12_381::{Fp, FpConfig};
/// use zkforge_field::tower::pow_p_minus_3_over_4_many;
/// let xs: Vec<Fp> = (1..10u64).map(Fp::from_u64).collect();
/// let rs = pow_p_minus_3_over_4_many::<FpConfig, 6>(&xs);
/// assert!(rs.iter().zip(&xs).all(|(r, x)| *r == x.pow_p_minus_3_over_4()));
/// ```
pub fn pow_p_minus_3_over_4_many<C: TowerConfig<N>, const N: usize>(xs: &[crate::mont::Fp<C, N>]) -> alloc::vec::Vec<crate::mont::Fp<C, N>> {
    pow_many(xs, crate::mont::Fp::<C, N>::plan_p_minus_3_over_4())
}

/// x^e of many values along `plan`: balanced groups of at most eight, each on the lanes when it
/// has [`pow_lanes_min`] values or more and the lanes apply, else in interleaved pairs.
fn pow_many<C: TowerConfig<N>, const N: usize>(xs: &[crate::mont::Fp<C, N>], plan: &crate::chain::PowPlan) -> alloc::vec::Vec<crate::mont::Fp<C, N>> {
    use crate::mont::Fp;
    let mut out = alloc::vec::Vec::with_capacity(xs.len());
    if xs.is_empty() {
        return out;
    }
    let size = xs.len().div_ceil(xs.len().div_ceil(8));
    for group in xs.chunks(size) {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        if group.len() >= pow_lanes_min() {
            if let Some(v) = ifma::pow_plan_lanes(group, plan) {
                out.extend(v);
                continue;
            }
        }
        for pair in group.chunks(2) {
            if let [a, b] = pair {
                let (ra, rb) = Fp::pow_plan_x2(a, b, plan);
                out.extend([ra, rb]);
            } else {
                out.extend(pair.iter().map(|a| a.pow_plan(plan)));
            }
        }
    }
    out
}

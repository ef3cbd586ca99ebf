//! Scalar-decomposition helpers, all constant time: Barrett division of a 256-bit scalar by a
//! divisor below 2^128 (one correction step), sign and magnitude of a short two's-complement
//! value, and a table-index comparison. The limb arithmetic itself (carry chains, the wide
//! product) is `zkforge_field::limbs`.

use subtle::{Choice, ConditionallySelectable};
use zkforge_field::limbs::{add_rt, mul_wide, sub_rt as sub};

/// (floor(k / d), k mod d) for k < 2^(64 s), 0 < d < 2^128, with mu = floor(2^(64 s) / d)
/// (< 2^192) and s = 3 or 4.
/// The quotient estimate floor(k mu / 2^256) is q or q - 1, so one constant-time correction
/// finishes (Barrett reduction, HAC 14.42).
pub(crate) fn divrem_ct(k: &[u64; 4], d: u128, mu: &[u64; 3], s: usize) -> (u128, u128) {
    let prod: [u64; 7] = mul_wide(k, mu);
    let q_est = [prod[s], prod[s + 1], prod[s + 2]];
    let dl = [d as u64, (d >> 64) as u64];
    let qd: [u64; 4] = mul_wide(&q_est, &dl);
    let (rem, _) = sub(k, &qd);
    // rem < 2d < 2^129: three limbs
    let rem3 = [rem[0], rem[1], rem[2]];
    let d3 = [dl[0], dl[1], 0];
    let (rem_minus_d, borrow) = sub(&rem3, &d3);
    let ge = Choice::from((borrow ^ 1) as u8);
    let r = [u64::conditional_select(&rem3[0], &rem_minus_d[0], ge), u64::conditional_select(&rem3[1], &rem_minus_d[1], ge)];
    let (q, _) = add_rt(&q_est, &[ge.unwrap_u8() as u64, 0, 0]);
    debug_assert!(q[2] == 0);
    ((q[0] as u128) | ((q[1] as u128) << 64), (r[0] as u128) | ((r[1] as u128) << 64))
}

/// Sign and magnitude of a two's-complement 256-bit value known to lie in (-2^128, 2^128).
pub(crate) fn signed_mag(v: &[u64; 4]) -> (Choice, u128) {
    let neg = Choice::from((v[3] >> 63) as u8);
    let (negv, _) = sub(&[0u64; 4], v);
    let lo = u64::conditional_select(&v[0], &negv[0], neg);
    let hi = u64::conditional_select(&v[1], &negv[1], neg);
    (neg, (lo as u128) | ((hi as u128) << 64))
}

/// Constant-time `a == b` for table indices, by arithmetic (x - 1 borrows out of 64 bits only
/// for x = 0) and a single `Choice` construction (each one costs an optimisation barrier).
#[inline(always)]
pub(crate) fn ct_eq_u32(a: u32, b: u32) -> Choice {
    let x = (a ^ b) as u64;
    Choice::from((x.wrapping_sub(1) >> 63) as u8)
}

//! FFTs whose values are G1 points (the group is a module over Fr): evaluations of
//! sum_i P_i X^i at the powers of a root of unity. FK20 runs them on its setup tables once and
//! on two 128-point vectors per blob.
//!
//! Radix-2 decimation in frequency (Gentleman-Sande), natural order in, natural order out
//! after one bit-reversal; each butterfly costs one addition, one subtraction and, unless the
//! twiddle is 1, one variable-time scalar multiplication (GLV, about 130 doublings): inputs
//! are public setup points and proofs. The two halves of each level run on rayon's
//! `join` when a pool is given.

use rayon::prelude::*;
use zkforge_curve::bls12_381::G1Projective;
use zkforge_field::bls12_381::Fr;

/// The butterflies of one level and everything below it. `tw[j * stride]` is w^j for the
/// root w of this level's size.
fn dif(a: &mut [G1Projective], tw: &[Fr], stride: usize, parallel: bool) {
    let n = a.len();
    if n <= 1 {
        return;
    }
    let half = n / 2;
    let (lo, hi) = a.split_at_mut(half);
    let butterfly = |(j, (u, v)): (usize, (&mut G1Projective, &mut G1Projective))| {
        let (x, y) = (*u, *v);
        *u = x + y;
        let d = x - y;
        *v = if j == 0 { d } else { d.mul_limbs_vartime(&tw[j * stride].to_limbs()) };
    };
    if parallel && half >= 8 {
        lo.par_iter_mut().zip(hi.par_iter_mut()).enumerate().for_each(butterfly);
        rayon::join(|| dif(lo, tw, stride * 2, true), || dif(hi, tw, stride * 2, true));
    } else {
        lo.iter_mut().zip(hi.iter_mut()).enumerate().for_each(butterfly);
        dif(lo, tw, stride * 2, false);
        dif(hi, tw, stride * 2, false);
    }
}

/// w^j for j < n/2.
pub(crate) fn twiddles(w: &Fr, n: usize) -> Vec<Fr> {
    let mut t = Vec::with_capacity(n / 2);
    let mut acc = Fr::ONE;
    for _ in 0..n / 2 {
        t.push(acc);
        acc *= *w;
    }
    t
}

/// In place: a[i] <- sum_j a[j] w^(ij), for a power-of-two length n and w a primitive n-th root
/// of unity (`tw` = [`twiddles`]`(w, n)`). `parallel` runs the levels' halves and butterflies
/// on the current rayon pool.
pub(crate) fn fft(a: &mut [G1Projective], tw: &[Fr], parallel: bool) {
    assert!(a.len().is_power_of_two() && tw.len() == a.len() / 2, "G1 FFT: length must be a power of two with n/2 twiddles");
    dif(a, tw, 1, parallel);
    zkforge_poly::bit_reverse_permute(a);
}

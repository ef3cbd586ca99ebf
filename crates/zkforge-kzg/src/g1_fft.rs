//! FFTs whose values are G1 points (the group is a module over Fr): evaluations of
//! sum_i P_i X^i at the powers of a root of unity. FK20 runs them on its setup tables once and
//! on two 128-point vectors per blob.
//!
//! Radix-2 decimation in frequency (Gentleman-Sande), natural order in, natural order out
//! after one bit-reversal, one level at a time: each butterfly costs one addition, one
//! subtraction and, unless the twiddle is 1, one variable-time scalar multiplication of the
//! difference (GLV, about 130 doublings; the inputs are public setup points and proofs). The
//! multiplications of a level are independent, so they go to `zkforge_msm::mul_many` together:
//! eight at a time on AVX-512 IFMA lanes where the CPU has them ([`MulManyMethod`]), spread over
//! the current rayon pool when `parallel`.

use rayon::prelude::*;
use zkforge_curve::bls12_381::G1Projective;
use zkforge_field::bls12_381::Fr;
use zkforge_msm::mul_many::{mul_many_vartime_with, MulManyMethod};

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
/// of unity (`tw` = [`twiddles`]`(w, n)`). `parallel` spreads each level's multiplications over
/// the current rayon pool; `method` is how they are taken (every value gives the same points).
pub(crate) fn fft(a: &mut [G1Projective], tw: &[Fr], parallel: bool, method: MulManyMethod) {
    let n = a.len();
    assert!(n.is_power_of_two() && tw.len() == n / 2, "G1 FFT: length must be a power of two with n/2 twiddles");
    let mut half = n / 2;
    let mut stride = 1;
    let mut at = Vec::with_capacity(n / 2);
    let mut diffs = Vec::with_capacity(n / 2);
    let mut ks = Vec::with_capacity(n / 2);
    while half >= 1 {
        at.clear();
        diffs.clear();
        ks.clear();
        for block in (0..n).step_by(2 * half) {
            for j in 0..half {
                let (x, y) = (a[block + j], a[block + j + half]);
                a[block + j] = x.add_vartime(&y);
                let d = x.add_vartime(&-y);
                if j == 0 {
                    a[block + j + half] = d;
                } else {
                    at.push(block + j + half);
                    diffs.push(d);
                    ks.push(tw[j * stride].to_limbs());
                }
            }
        }
        let products = multiply(&diffs, &ks, parallel, method);
        for (&i, p) in at.iter().zip(products) {
            a[i] = p;
        }
        half /= 2;
        stride *= 2;
    }
    zkforge_poly::bit_reverse_permute(a);
}

/// The products of one level, on the pool's threads in chunks of whole lane groups.
fn multiply(points: &[G1Projective], ks: &[[u64; 4]], parallel: bool, method: MulManyMethod) -> Vec<G1Projective> {
    let one = |p: &[G1Projective], k: &[[u64; 4]]| mul_many_vartime_with(p, k, method).expect("one scalar per point");
    let threads = if parallel { rayon::current_num_threads() } else { 1 };
    if threads <= 1 || points.len() < 16 {
        return one(points, ks);
    }
    let chunk = points.len().div_ceil(threads).div_ceil(8) * 8;
    let parts: Vec<Vec<G1Projective>> = points.par_chunks(chunk).zip(ks.par_chunks(chunk)).map(|(p, k)| one(p, k)).collect();
    parts.concat()
}

//! Small-size path: Straus's interleaving (Straus 1964; with width-w NAF digits as in
//! Moller, "Algorithms for multi-exponentiation", SAC 2001) over the GLV/GLS parts of every
//! scalar. All points share one run of doublings (about 128 on G1); each part adds one
//! precomputed odd multiple per non-zero digit. The odd-multiple tables of every point are
//! normalised to affine with a single inversion, so the main loop uses mixed additions.
//!
//! Cost for n points, w = 5: ~128 doublings + n (1 doubling + 7 additions for the table +
//! 2 x ~22 mixed additions) + one inversion.

use zkforge_curve::scalar_mul::wnaf;
use zkforge_curve::{Affine, CurveConfig, Endomorphism, Jacobian};

use crate::{reduced_limbs, MsmScalar};

/// sum_i k_i P_i by interleaved wNAF with the endomorphism split; `w` is the NAF width (2..=7).
pub fn straus<C: CurveConfig, S: MsmScalar<C>>(points: &[Affine<C>], scalars: &[S], w: u32) -> Jacobian<C> {
    let n = points.len().min(scalars.len());
    if n == 0 {
        return Jacobian::IDENTITY;
    }
    let dim = C::Endo::DIM;
    let tsize = 1usize << (w - 2);
    // odd multiples P, 3P, ..., (2^(w-1) - 1) P of every point, normalised together
    let mut jac = Vec::with_capacity(n * tsize);
    for p in &points[..n] {
        let pj = p.to_jacobian();
        let p2 = pj.double();
        let mut acc = pj;
        jac.push(acc);
        for _ in 1..tsize {
            acc = acc.add_vartime(&p2);
            jac.push(acc);
        }
    }
    let base = Jacobian::batch_to_affine(&jac);
    // digits of every part
    let mut digits = vec![[0i8; 132]; n * dim];
    let mut lens = vec![0usize; n * dim];
    let mut negs = vec![false; n * dim];
    let mut maxlen = 0;
    for i in 0..n {
        let k = reduced_limbs::<C, S>(&scalars[i]);
        let parts = C::Endo::decompose(&k);
        for j in 0..dim {
            let idx = i * dim + j;
            lens[idx] = wnaf(parts[j].mag, w, &mut digits[idx]);
            negs[idx] = bool::from(parts[j].neg);
            maxlen = maxlen.max(lens[idx]);
        }
    }
    // tables of endo^j(P): images of the affine base table (phi and psi keep Z = 1)
    let mut tables: Vec<Affine<C>> = Vec::with_capacity(n * dim * tsize);
    for i in 0..n {
        let mut t: Vec<Affine<C>> = base[i * tsize..(i + 1) * tsize].to_vec();
        for j in 0..dim {
            if j > 0 {
                for e in t.iter_mut() {
                    if !bool::from(e.is_identity()) {
                        let q = C::Endo::endo(&e.to_jacobian());
                        *e = Affine::new_unchecked(q.x(), q.y());
                    }
                }
            }
            tables.extend_from_slice(&t);
        }
    }
    let mut acc = Jacobian::<C>::IDENTITY;
    for pos in (0..maxlen).rev() {
        acc = acc.double();
        for idx in 0..n * dim {
            if pos < lens[idx] {
                let d = digits[idx][pos] as i32;
                if d != 0 {
                    let e = tables[idx * tsize + (d.unsigned_abs() as usize >> 1)];
                    acc = acc.add_mixed_vartime(&if (d < 0) ^ negs[idx] { -e } else { e });
                }
            }
        }
    }
    acc
}

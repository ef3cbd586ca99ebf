//! A run of doublings of one Jacobian point on a j = 0 curve over Fp2 (y^2 = x^3 + b': the G2
//! twists), with each doubling's Fp products spread over eight AVX-512 IFMA lanes.
//!
//! The doubling is the scalar one of `zkforge_curve` (EFD dbl-2009-l with D = 2 X B2 and
//! 8 Y^4 = 2 B2^2, B2 = 2 Y^2): A = X^2, B2 = 2 Y^2, D = 2 X B2, E = 3A, X3 = E^2 - 2D,
//! Y3 = E (D - X3) - 2 B2^2, Z3 = 2 Y Z. Its 17 Fp products fall into three layers of
//! independent ones when the next doubling's A = X3^2 joins the layer of E (D - X3):
//! - layer b: Y^2 (two lanes: (y0 + y1)(y0 - y1) and y0 (2 y1)), Y Z (four lanes, schoolbook);
//! - layer c: X B2 (four lanes), E^2 (two), B2^2 (two);
//! - layer a: E (D - X3) (four), X3^2 (two), the next doubling's A.
//!
//! so a doubling is three lane products (`simd::mul`: 264 `vpmadd52` for eight Fp products)
//! where the scalar doubling runs 17 MULX products one after another. Between the layers the
//! operands move between lanes by `vpermq` and masked additions.
//!
//! Bounds (p < 2^381, R = 2^416, lazy additions as in `ifma.rs`): a lane product's output is
//! below 2p; the state X < 18p, Y < 8p, Z < 8p after each doubling, every product input below
//! 36p, so every product's inputs multiply to far below R p. Values enter the 52-bit form with
//! one product by `Consts52::k_in` and leave with one by `k_out` (then one conditional
//! subtraction), as the other lane kernels' do.

use super::ifma::{from52, rows, rows_mut, tower_consts, to52, Consts, Consts52, Lanes, L};
use super::{Fp2, TowerConfig};
use crate::backend::portable::reduce_once_ct;
use crate::mont::Fp;

/// (X, Y, Z) doubled `n` times (Jacobian coordinates on y^2 = x^3 + b' over Fp2: the formula
/// of the module header, which needs no b') on IFMA lanes; `None` where the CPU has no
/// AVX-512 IFMA or the field has no lanes. The same projective point as `n` scalar doublings
/// by the same formula, as canonical coordinates: (X, Y, Z) with Z = 0 (the identity) stays
/// there, and a point of order 2 (Y = 0) goes to Z = 0 as the scalar doubling sends it.
///
/// ```
/// use zkforge_field::bls12_381::{Fp, Fp2};
/// use zkforge_field::tower::double_run_lanes;
/// let (x, y, z) = (Fp2::new(Fp::from_u64(3), Fp::from_u64(5)), Fp2::new(Fp::from_u64(7), Fp::ONE), Fp2::ONE);
/// let dbl = |(x, y, z): (Fp2, Fp2, Fp2)| {
///     let (a, b2) = (x.square(), y.square().double());
///     let d = (x * b2).double();
///     let e = a.double() + a;
///     let x3 = e.square() - d.double();
///     (x3, e * (d - x3) - b2.square().double(), (y * z).double())
/// };
/// if let Some(r) = double_run_lanes(&x, &y, &z, 3) {
///     assert_eq!(r, dbl(dbl(dbl((x, y, z)))));
/// }
/// ```
pub fn double_run_lanes<C: TowerConfig<N>, const N: usize>(x: &Fp2<C, N>, y: &Fp2<C, N>, z: &Fp2<C, N>, n: u32) -> Option<(Fp2<C, N>, Fp2<C, N>, Fp2<C, N>)> {
    let consts = tower_consts::<C, N>()?;
    let coords = [x.c0, x.c1, y.c0, y.c1, z.c0, z.c1];
    let mut v: Lanes = [[0u64; 8]; L];
    match consts {
        Consts::L8(c) => run::<C, N, 8>(&mut v, &coords, n, c),
        Consts::L6(c) => run::<C, N, 6>(&mut v, &coords, n, c),
    }
    let f = |i: usize| lane_fp::<C, N>(&v, i, consts);
    Some((Fp2::new(f(0), f(1)), Fp2::new(f(2), f(3)), Fp2::new(f(4), f(5))))
}

/// The six coordinates into lanes 0..6 of `v` (64-bit Montgomery form in 52-bit limbs), the
/// kernel, the result in the same lanes (below 2p).
fn run<C: TowerConfig<N>, const N: usize, const M: usize>(v: &mut Lanes, coords: &[Fp<C, N>; 6], n: u32, c: &Consts52<M>) {
    for (i, e) in coords.iter().enumerate() {
        let a = to52::<M>(&e.limbs);
        for j in 0..M {
            v[j][i] = a[j];
        }
    }
    // SAFETY: `c` exists (`tower_consts` returned it), so the CPU has AVX-512F and IFMA.
    unsafe { kernel::double_run::<M>(rows_mut::<M>(v), n, c) };
}

/// Lane i of `v` (below 2p, 64-bit Montgomery form in 52-bit limbs) as a canonical Fp.
fn lane_fp<C: TowerConfig<N>, const N: usize>(v: &Lanes, i: usize, consts: Consts) -> Fp<C, N> {
    let w: [u64; N] = match consts {
        Consts::L8(_) => from52::<8, N>(&rows::<8>(v).map(|r| r[i])),
        Consts::L6(_) => from52::<6, N>(&rows::<6>(v).map(|r| r[i])),
    };
    Fp::from_mont_unchecked(reduce_once_ct(w, &Fp::<C, N>::PINV))
}

mod kernel {
    //! The vector kernel (AVX-512F and AVX-512 IFMA).
    use super::super::ifma::simd::{add, blend, constants, load, mul, norm, perm, splat, store, sub, E, K};
    use super::super::ifma::Consts52;
    use super::super::ifma_fp12::kernels::idx;
    use core::arch::x86_64::*;

    /// a with b added in the lanes of `m`.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn madd<const M: usize>(m: __mmask8, a: &E<M>, b: &E<M>) -> E<M> {
        let mut r = *a;
        for j in 0..M {
            r[j] = _mm512_mask_add_epi64(a[j], m, a[j], b[j]);
        }
        r
    }

    /// a with b subtracted in the lanes of `m`.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn msub<const M: usize>(m: __mmask8, a: &E<M>, b: &E<M>) -> E<M> {
        let mut r = *a;
        for j in 0..M {
            r[j] = _mm512_mask_sub_epi64(a[j], m, a[j], b[j]);
        }
        r
    }

    /// The lane product of two unnormalised operands (each below 2^(52 M), non-negative).
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn prod<const M: usize>(a: &E<M>, b: &E<M>, k: &K<M>) -> E<M> {
        mul(&norm(*a, k), &norm(*b, k), k)
    }

    /// An Fp2 square's operands in lanes (i, i + 1) from the value in lanes (s, s + 1) of the
    /// vectors `pa` / `pb` (the caller's permutations already put u0 in both lanes of `pa`
    /// and (u0, u1) in `pb`), with `u1` holding u1 in lanes i and i + 1:
    /// a = (u0 + u1, u0), b = (u0 - u1 + kp, 2 u1).
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn square_operands<const M: usize>(lo: __mmask8, pa: &E<M>, pb: &E<M>, u1: &E<M>, kp: &E<M>) -> (E<M>, E<M>) {
        let hi = lo << 1;
        let a = madd(lo, pa, u1);
        let b = madd(lo, &msub(lo, pb, u1), kp);
        (a, madd(hi, &b, u1))
    }

    /// `v` (lanes 0..6: X.re, X.im, Y.re, Y.im, Z.re, Z.im, each below p, 64-bit Montgomery
    /// form in 52-bit limbs) doubled `n` times in place (below 2p, same form): the module
    /// header's layers.
    ///
    /// # Safety
    /// The CPU must support AVX-512F and AVX-512 IFMA.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) unsafe fn double_run<const M: usize>(v: &mut [[u64; 8]; M], n: u32, c: &Consts52<M>) {
        let k: K<M> = constants(c);
        let kp = |m: usize| splat(&c.mult[m]);
        let (kp2, kp4, kp6, kp8, kp16, kp18) = (kp(2), kp(4), kp(6), kp(8), kp(16), kp(18));
        // into the lane form (< 2p)
        let mut s = mul(&load(v), &splat(&c.k_in), &k);
        // A = X^2 in lanes 4, 5 of `ra` (where layer a leaves the next doubling's A)
        let x1 = perm(&s, idx([1; 8]));
        let (a, b) = square_operands(0b1_0000, &perm(&s, idx([0; 8])), &perm(&s, idx([0, 0, 0, 0, 0, 1, 0, 0])), &x1, &kp2);
        let mut ra = prod(&a, &b, &k);
        for _ in 0..n {
            // layer b: B = Y^2 (lanes 0, 1), Y Z schoolbook (lanes 2..6: y0 z0, y1 z1, y0 z1, y1 z0)
            let y1 = perm(&s, idx([3; 8]));
            let (a, b) = square_operands(0b1, &perm(&s, idx([2, 2, 2, 3, 2, 3, 2, 2])), &perm(&s, idx([2, 3, 4, 5, 5, 4, 2, 2])), &y1, &kp8);
            let rb = prod(&a, &b, &k);
            // layer c operands: w = (X, B2 = 2B, E = 3A) in lanes (0, 1), (2, 3), (4, 5)
            let b2 = add(&rb, &rb); // < 4p
            let e = add(&add(&ra, &ra), &ra); // < 6p
            let w = blend(0b1100, &s, &perm(&b2, idx([0, 0, 0, 1, 0, 0, 0, 0])));
            let w = blend(0b11_0000, &w, &e);
            // X B2 schoolbook (lanes 0..4: x0 b0, x1 b1, x0 b1, x1 b0), E^2 (4, 5), B2^2 (6, 7)
            let t = perm(&w, idx([5, 5, 5, 5, 5, 5, 3, 3]));
            let a = madd(0b0101_0000, &perm(&w, idx([0, 1, 0, 1, 4, 4, 2, 2])), &t);
            let b = madd(0b0101_0000, &msub(0b0101_0000, &perm(&w, idx([2, 3, 3, 2, 4, 5, 2, 3])), &t), &kp6);
            let b = madd(0b1010_0000, &b, &t);
            let rc = prod(&a, &b, &k);
            // D' = X B2 = (c0 - c1 + 2p, c2 + c3) < 4p, F = E^2 (lanes 4, 5), all in lanes 0, 1
            let t = perm(&rc, idx([1, 3, 1, 3, 1, 3, 1, 3]));
            let d = madd(0b1, &msub(0b1, &perm(&rc, idx([0, 2, 0, 2, 0, 2, 0, 2])), &t), &kp2);
            let d = madd(0b10, &d, &t);
            let f = perm(&rc, idx([4, 5, 4, 5, 4, 5, 4, 5]));
            // X3 = F - 4D' + 16p < 18p; H = D - X3 = 2D' - X3 + 18p < 26p
            let d2 = add(&d, &d);
            let x3 = sub(&add(&f, &kp16), &add(&d2, &d2));
            let h = sub(&add(&d2, &kp18), &x3);
            // layer a operands: (E, H, X3) in lanes (0, 1), (2, 3), (4, 5); E H schoolbook
            // (lanes 0..4), X3^2 (4, 5): the next doubling's A
            let u = blend(0b1100, &perm(&w, idx([4, 5, 4, 5, 4, 5, 4, 5])), &perm(&h, idx([0, 0, 0, 1, 0, 0, 0, 0])));
            let u = blend(0b11_0000, &u, &perm(&x3, idx([0, 0, 0, 0, 0, 1, 0, 0])));
            let t = perm(&u, idx([5; 8]));
            let (a, b) = square_operands(0b1_0000, &perm(&u, idx([0, 1, 0, 1, 4, 4, 4, 4])), &perm(&u, idx([2, 3, 3, 2, 4, 5, 4, 4])), &t, &kp18);
            ra = prod(&a, &b, &k);
            // Y3 = E H - 2 B2^2 + 4p (lanes 2, 3): E H = (a0 - a1 + 2p, a2 + a3), B2^2 in
            // layer c's lanes 6, 7
            let t = perm(&ra, idx([1, 1, 1, 3, 1, 1, 1, 1]));
            let eh = madd(0b100, &msub(0b100, &perm(&ra, idx([0, 0, 0, 2, 0, 0, 0, 0])), &t), &kp2);
            let eh = madd(0b1000, &eh, &t);
            let g = perm(&rc, idx([6, 6, 6, 7, 6, 6, 6, 6]));
            let y3 = sub(&add(&eh, &kp4), &add(&g, &g));
            // Z3 = 2 Y Z (lanes 4, 5): Y Z = (b2 - b3 + 2p, b4 + b5) from layer b
            let t = perm(&rb, idx([3, 3, 3, 3, 3, 5, 3, 3]));
            let yz = madd(0b1_0000, &msub(0b1_0000, &perm(&rb, idx([2, 2, 2, 2, 2, 4, 2, 2])), &t), &kp2);
            let yz = madd(0b10_0000, &yz, &t);
            let z3 = add(&yz, &yz);
            s = blend(0b11_0000, &blend(0b1100, &x3, &y3), &z3);
        }
        // out of the lane form (< 2p)
        store(&mul(&norm(s, &k), &splat(&c.k_out), &k), v);
    }
}

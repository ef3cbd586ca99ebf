//! Cyclotomic-subgroup arithmetic on eight AVX-512 IFMA lanes for the final exponentiation:
//! the Granger-Scott squaring and the general Fp12 product without leaving the 52-bit form, for
//! both towers: BLS12-381 on 8 limbs of 52 bits (R = 2^416, xi = 1 + u) and BN254 on 6
//! (R = 2^312, xi = 9 + u; the scalar BN254 product is a 4-limb MULX product of about 13 ns,
//! the 6-limb lane product about half of that per element).
//!
//! Layout (as `ifma_fp12`): lane i holds the Fp2 coefficient i of f in the order (c0.c0,
//! c0.c1, c0.c2, c1.c0, c1.c1, c1.c2); lanes 6 and 7 are zero; each coordinate is below 3p
//! between operations.
//!
//! - Cyclotomic square (Granger-Scott, ePrint 2009/565, the formulas of
//!   `Fp12::cyclotomic_square`): the nine Fp2 squarings of its three Fp4 squarings (z, z' and
//!   (z + z') for the pairs (c0.c0, c1.c1), (c1.c0, c0.c2), (c0.c1, c1.c2)) are eighteen Fp
//!   products, (x0 + x1)(x0 - x1) and 2 x0 x1 per squaring: three lane products (the six
//!   coefficients and two sums in one set of lanes, the third sum's two products in one more).
//!   The combinations 3t -+ 2z are lane permutations and lazy sums.
//! - Product: Karatsuba over Fp6 (aa = a0 b0, bb = a1 b1, mm = (a0 + a1)(b0 + b1); c0 = aa +
//!   v bb, c1 = mm - aa - bb), each Fp6 product by Karatsuba with the operand lanes
//!   K(z) = (z0, z1, z2, z1 + z2, z0 + z1, z0 + z2): three lane Fp2 products, nine lane products
//!   for the 54 Fp products.
//!
//! Bounds are written beside each step (t = 1 or 9 the real part of xi); every subtraction
//! adds a multiple of p at least as large as what it subtracts, and one normalisation and one
//! Barrett-style step per output (`ifma::simd::reduce`) bring each coordinate back below 3p.
//! The scalar tower is the reference (`tests/tower.rs` compares both towers on random
//! inputs). The methods are `Fp12Lanes::{cyclotomic_square, mul_assign, conjugate}`.

// The kernels are generic over the limb count M; each needs AVX-512F and AVX-512 IFMA (the
// callers hold an `Fp12Lanes`, which exists only on such CPUs). `T` is the real part of xi
// (1 or 9).
use super::ifma::simd::{self, add, blend, constants, load, norm, perm, splat, store, sub, E, K};
use super::ifma::Consts52;
use super::ifma_fp12::kernels::{a2, ak, b2, fp6_combine_t, idx, m2, n2, p2, pz, r2, s2, xi_t, F2};
use core::arch::x86_64::*;

const HI3: __mmask8 = 0b111_000;
const LO6: __mmask8 = 0b0011_1111;

#[target_feature(enable = "avx512f,avx512ifma")]
#[inline]
fn zero<const M: usize>() -> F2<M> {
    F2 { re: [_mm512_setzero_si512(); M], im: [_mm512_setzero_si512(); M] }
}

/// Lanes 0..6 of `out` (each coordinate below 3p) into the rows, lanes 6 and 7 zero.
#[target_feature(enable = "avx512f,avx512ifma")]
#[inline]
fn put<const M: usize>(out: &F2<M>, re: &mut [[u64; 8]; M], im: &mut [[u64; 8]; M]) {
    let z = zero::<M>();
    let o = b2(LO6, &z, out);
    store(&o.re, re);
    store(&o.im, im);
}

/// The Fp products of an Fp2 squaring, (x0 + x1 u)^2 = (x0 + x1)(x0 - x1) + (2 x0) x1 u: the
/// operands x0 + x1, x0 - x1 + 6p and 2 x0 of x below 6p (each below 12p, normalised).
#[target_feature(enable = "avx512f,avx512ifma")]
#[inline]
fn square_operands<const M: usize>(x: &F2<M>, k: &K<M>) -> [E<M>; 3] {
    [norm(add(&x.re, &x.im), k), norm(add(&sub(&x.re, &x.im), &k.p6), k), norm(add(&x.re, &x.re), k)]
}

/// f <- f^2 for a cyclotomic f (Granger-Scott on the lanes; see the module notes).
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) unsafe fn cyclotomic_square<const M: usize, const T: u64>(re: &mut [[u64; 8]; M], im: &mut [[u64; 8]; M], c: &Consts52<M>) {
    let k: K<M> = constants(c);
    let kp = |m: usize| splat(&c.mult[m]);
    let f = F2 { re: load(re), im: load(im) }; // < 3p, lanes 6, 7 zero
    // the nine squaring operands: lanes 0..6 the coefficients z0, z4, z3, z2, z1, z5 (the
    // scalar code's names), lane 6 z0 + z1, lane 7 z2 + z3; lane 0 of y: z4 + z5 (< 6p)
    let x = n2(&a2(&p2(&f, idx([0, 1, 2, 3, 4, 5, 0, 3])), &pz(&f, 0b1100_0000, idx([0, 0, 0, 0, 0, 0, 4, 2]))), &k);
    let y = n2(&a2(&pz(&f, 0b1, idx([1, 0, 0, 0, 0, 0, 0, 0])), &pz(&f, 0b1, idx([5, 0, 0, 0, 0, 0, 0, 0]))), &k);
    // Fp2 squares: re = (x0 + x1)(x0 - x1 + 6p), im = (2 x0) x1 (operands < 12p)
    let [xa, xb, xd] = square_operands(&x, &k);
    let sx = F2 { re: simd::mul(&xa, &xb, &k), im: simd::mul(&xd, &x.im, &k) }; // < 2p
    // y's two products in one: u = (ya, yd), v = (yb, y1) on lanes 0, 1
    let [ya, yb, yd] = square_operands(&y, &k);
    let lane0 = idx([0, 0, 0, 0, 0, 0, 0, 0]);
    let u = blend(0b10, &ya, &perm(&yd, lane0));
    let v = blend(0b10, &yb, &perm(&y.im, lane0));
    let sy = simd::mul(&u, &v, &k); // lane 0 re, lane 1 im of (z4 + z5)^2, < 2p
    let s8 = F2 { re: sy, im: perm(&sy, idx([1, 1, 1, 1, 1, 1, 1, 1])) };
    // T: lanes 0..3 X + xi Y, lanes 3..6 X - Y - Z, then xi on lane 3, with
    // X = (s0, s3, s1, s8, s6, s7), Y = (s4, s2, s5, s1, s0, s3), Z = (-, -, -, s5, s4, s2)
    let xx = a2(&pz(&sx, 0b110_111, idx([0, 3, 1, 0, 6, 7, 0, 0])), &pz(&s8, 0b001_000, idx([0, 0, 0, 0, 0, 0, 0, 0]))); // < 2p
    let yy = p2(&sx, idx([4, 2, 5, 1, 0, 3, 0, 0])); // < 2p
    let zz = pz(&sx, HI3, idx([0, 0, 0, 5, 4, 2, 0, 0])); // < 2p
    let lo = xi_t::<M, T>(&yy, &kp(2)); // < (2t + 2) p
    let hi = ak(&s2(&s2(&xx, &yy), &zz), &kp(4)); // < 6p
    let tt = b2(HI3, &a2(&xx, &lo), &hi); // < (2t + 4) p, lanes 3..6 < 6p
    let tt = b2(0b001_000, &tt, &xi_t::<M, T>(&tt, &kp(6))); // lane 3 < 6 (t + 1) p
    // 3T - 2z on lanes 0..3, 3T + 2z on lanes 3..6 (< 18 (t + 1) p + 6p)
    let two_f = a2(&f, &f);
    let e = b2(HI3, &s2(&F2 { re: k.p6, im: k.p6 }, &two_f), &two_f);
    let out = a2(&a2(&a2(&tt, &tt), &tt), &e);
    put(&r2(&out, &k), re, im);
}

/// K(z) = (z0, z1, z2, z1 + z2, z0 + z1, z0 + z2) of the Fp6 on lanes off..off + 3 of f.
#[target_feature(enable = "avx512f,avx512ifma")]
#[inline]
fn kform<const M: usize>(f: &F2<M>, off: i64) -> F2<M> {
    let o = off;
    a2(&p2(f, idx([o, o + 1, o + 2, o + 1, o, o, 0, 0])), &pz(f, HI3, idx([0, 0, 0, o + 2, o + 1, o + 2, 0, 0])))
}

/// a <- a b (Karatsuba over Fp6, see the module notes).
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) unsafe fn product<const M: usize, const T: u64>(are: &mut [[u64; 8]; M], aim: &mut [[u64; 8]; M], bre: &[[u64; 8]; M], bim: &[[u64; 8]; M], c: &Consts52<M>) {
    let k: K<M> = constants(c);
    let kp = |m: usize| splat(&c.mult[m]);
    let a = F2 { re: load(are), im: load(aim) }; // < 3p
    let b = F2 { re: load(bre), im: load(bim) };
    let (ka0, ka1) = (kform(&a, 0), kform(&a, 3)); // < 6p
    let (kb0, kb1) = (kform(&b, 0), kform(&b, 3));
    let (ka0, ka1, kb0, kb1) = (n2(&ka0, &k), n2(&ka1, &k), n2(&kb0, &k), n2(&kb1, &k));
    let (ks, ls) = (n2(&a2(&ka0, &ka1), &k), n2(&a2(&kb0, &kb1), &k)); // < 12p
    // the three Fp6 products, each reduced below 3p (lanes 0..3)
    let aa = r2(&fp6_combine_t::<M, T>(&m2(&ka0, &kb0, &k), c), &k);
    let bb = r2(&fp6_combine_t::<M, T>(&m2(&ka1, &kb1, &k), c), &k);
    let mm = r2(&fp6_combine_t::<M, T>(&m2(&ks, &ls, &k), c), &k);
    // c1 = mm - aa - bb (< 9p) on lanes 3..6
    let c1 = ak(&s2(&s2(&mm, &aa), &bb), &kp(6));
    let c1 = p2(&c1, idx([0, 0, 0, 0, 1, 2, 0, 0]));
    // c0 = aa + v bb, v bb = (xi bb2, bb0, bb1) (< 3p + 3 (t + 1) p + 3p)
    let rot = p2(&bb, idx([2, 0, 1, 0, 0, 0, 0, 0]));
    let vb = b2(0b001, &rot, &xi_t::<M, T>(&rot, &kp(3)));
    let c0 = a2(&aa, &vb);
    put(&r2(&b2(HI3, &c0, &c1), &k), are, aim);
}

/// f <- conjugate(f) = c0 - c1 w: lanes 3..6 become 4p - x, then reduced below 3p.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) unsafe fn conjugate<const M: usize>(re: &mut [[u64; 8]; M], im: &mut [[u64; 8]; M], c: &Consts52<M>) {
    let k: K<M> = constants(c);
    let f = F2 { re: load(re), im: load(im) };
    let neg = s2(&F2 { re: k.p4, im: k.p4 }, &f);
    put(&r2(&b2(HI3, &f, &neg), &k), re, im);
}

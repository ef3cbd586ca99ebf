//! The tower with lazy reduction: Fp2 and Fp6 products kept double width ([`Wide`], 2N
//! words, below p R) while they are added and subtracted, and reduced once per output
//! coefficient. Source: Aranha, Karabina, Longa, Gebotys, Lopez, "Faster explicit formulas for
//! computing pairings over ordinary curves" (ePrint 2010/526, sections 3-4); blst's
//! `fp12_tower.c` has the same structure.
//!
//! Costs in N-limb products ("units"; a Montgomery reduction is one unit too):
//! - Fp2 product: 3 wide products (Karatsuba), reduced by 2 REDC: 5 units, against 6 for two
//!   lazy sums of products (`Fp2 * Fp2`);
//! - Fp6 product: 6 wide Fp2 products (18) + 6 REDC = 24 units, against 36;
//! - Fp12 product: 3 wide Fp6 products (54) + 12 REDC = 66 units, against 108;
//! - Fp12 squaring (complex): 2 wide Fp6 products + 12 REDC = 48, against 72.
//!
//! Bounds: every field here has 4p < R = 2^(64N). Inputs are canonical (< p); the Karatsuba
//! sums inside a product are unreduced (< 2p), so a product is < 4p^2 < p R; sums and
//! differences are taken modulo p R ([`dbl_add`], [`dbl_sub`]); the Karatsuba middle term
//! (a0 + a1)(b0 + b1) - a0 b0 - a1 b1 = a0 b1 + a1 b0 is exact and non-negative, so it needs
//! no correction. [`use_lazy`] refuses a field without the two spare bits. The Fp2 sums that
//! feed a wide Fp6 product's Karatsuba products may also stay unreduced (below 2p; see
//! `karatsuba_sum` and [`backend::set_karatsuba_sums`] for the bounds).
//!
//! The values are built in place (`*_to` writes into an output, `*_assign` updates one): the
//! kernels store 64-bit words, and a by-value copy of a 2N-word value right after them is a
//! vector load that cannot be forwarded from those stores, which measured 1.5x slower.
//!
//! The wide Fp6 products and the Fp12 product and square are out of line on purpose: one
//! copy each keeps the hot code inside the instruction cache (see the module notes of
//! [`crate::tower`]).
//!
//! Whether `*` and squaring in Fp6/Fp12 take this path is a run-time switch,
//! [`crate::backend::set_tower`]; the per-product formulas stay as the reference that
//! `tests/tower.rs` compares this module against.

use core::marker::PhantomData;

use super::{Fp12, Fp2, Fp6, TowerConfig};
use crate::backend::{self, dbl_add, dbl_add_assign, dbl_double_assign, dbl_sub, dbl_sub_assign, mul_wide, redc, wide_sub_assign, Wide};
use crate::mont::{FieldConfig, Fp};

/// True when the lazy tower may be used for this field (two spare top bits) and the switch
/// selects it.
#[inline(always)]
pub fn use_lazy<C: FieldConfig<N>, const N: usize>() -> bool {
    C::MODULUS[N - 1] >> 62 == 0 && backend::lazy_tower_selected(N)
}

/// An unreduced Fp2 value c0 + c1 u, each coefficient a [`Wide`] below p R.
pub struct Fp2Wide<C: FieldConfig<N>, const N: usize> {
    /// Real part.
    pub c0: Wide<N>,
    /// Coefficient of u.
    pub c1: Wide<N>,
    _c: PhantomData<C>,
}

/// The part of [`Fp2Wide`] that needs only the base field (the reduced Fp2 product of
/// `Fp2 * Fp2` takes it too).
impl<C: FieldConfig<N>, const N: usize> Fp2Wide<C, N> {
    /// Zero.
    pub const ZERO: Self = Self { c0: Wide::ZERO, c1: Wide::ZERO, _c: PhantomData };

    /// out = a * b unreduced (Karatsuba): v0 = a0 b0, v1 = a1 b1,
    /// c0 = v0 - v1 (mod p R), c1 = (a0 + a1)(b0 + b1) - v0 - v1 (exact). 3 products.
    #[inline(always)]
    pub fn mul_to(out: &mut Self, a: &Fp2<C, N>, b: &Fp2<C, N>) {
        let p = &Fp::<C, N>::PINV;
        let mut v1 = Wide::ZERO;
        mul_wide(&mut out.c0, &a.c0.limbs, &b.c0.limbs);
        mul_wide(&mut v1, &a.c1.limbs, &b.c1.limbs);
        mul_wide(&mut out.c1, &a.c0.add_lazy(&a.c1).limbs, &b.c0.add_lazy(&b.c1).limbs);
        wide_sub_assign(&mut out.c1, &out.c0);
        wide_sub_assign(&mut out.c1, &v1);
        dbl_sub_assign(&mut out.c0, &v1, p);
    }

    /// out = a^2 unreduced (complex squaring): c0 = (a0 + a1)(a0 - a1 + p), c1 = (a0 + a0) a1.
    /// 2 products; every factor is below 2p, so each product is below 4p^2 < p R.
    #[inline(always)]
    pub fn square_to(out: &mut Self, a: &Fp2<C, N>) {
        mul_wide(&mut out.c0, &a.c0.add_lazy(&a.c1).limbs, &a.c0.sub_lazy(&a.c1).limbs);
        mul_wide(&mut out.c1, &a.c0.add_lazy(&a.c0).limbs, &a.c1.limbs);
    }

    /// self -= b modulo p R.
    #[inline(always)]
    pub fn sub_assign(&mut self, b: &Self) {
        let p = &Fp::<C, N>::PINV;
        dbl_sub_assign(&mut self.c0, &b.c0, p);
        dbl_sub_assign(&mut self.c1, &b.c1, p);
    }

    /// Reduce both coefficients (two REDC), fully reduced.
    #[inline(always)]
    pub fn reduce(&self) -> Fp2<C, N> {
        let p = &Fp::<C, N>::PINV;
        Fp2::new(Fp::from_mont_unchecked(redc(&self.c0, p)), Fp::from_mont_unchecked(redc(&self.c1, p)))
    }
}

impl<C: TowerConfig<N>, const N: usize> Fp2Wide<C, N> {
    /// self += b modulo p R.
    #[inline(always)]
    pub fn add_assign(&mut self, b: &Self) {
        let p = &Fp::<C, N>::PINV;
        dbl_add_assign(&mut self.c0, &b.c0, p);
        dbl_add_assign(&mut self.c1, &b.c1, p);
    }

    /// out = a + b modulo p R.
    #[inline(always)]
    pub fn add_to(out: &mut Self, a: &Self, b: &Self) {
        let p = &Fp::<C, N>::PINV;
        dbl_add(&mut out.c0, &a.c0, &b.c0, p);
        dbl_add(&mut out.c1, &a.c1, &b.c1, p);
    }

    /// out = a * xi with xi = k + u: (k a0 - a1) + (a0 + k a1) u.
    #[inline(always)]
    pub fn mul_by_xi_to(out: &mut Self, a: &Self) {
        let p = &Fp::<C, N>::PINV;
        if C::XI_C0 == 1 {
            dbl_sub(&mut out.c0, &a.c0, &a.c1, p);
            dbl_add(&mut out.c1, &a.c0, &a.c1, p);
            return;
        }
        // BN254 (xi = 9 + u): one pass per coefficient by a quotient estimate (the default
        // XiForm), else the double-and-add chain below
        if backend::xi_quotient() && C::XI_C0 <= 13 && C::MODULUS[N - 1] >> 60 != 0 {
            let (lo, hi) = Fp::<C, N>::small_combination_wide::<true>(&a.c0.lo, &a.c0.hi, C::XI_C0, &a.c1.lo, &a.c1.hi);
            out.c0 = Wide { lo, hi };
            let (lo, hi) = Fp::<C, N>::small_combination_wide::<false>(&a.c1.lo, &a.c1.hi, C::XI_C0, &a.c0.lo, &a.c0.hi);
            out.c1 = Wide { lo, hi };
            return;
        }
        times_small_to(&mut out.c0, &a.c0, C::XI_C0, p);
        dbl_sub_assign(&mut out.c0, &a.c1, p);
        times_small_to(&mut out.c1, &a.c1, C::XI_C0, p);
        dbl_add_assign(&mut out.c1, &a.c0, p);
    }
}

/// (a + b s)^2 in Fp4 = Fp2[s]/(s^2 - xi) with one reduction per output coefficient:
/// t0 = a^2, t1 = b^2 (wide), c0 = t0 + xi t1, c1 = (a + b)^2 - t0 - t1; 3 wide Fp2 squarings
/// (6 products) and 4 reductions instead of 3 reduced squarings (6 products, 6 reductions).
/// The Fp4 squaring of the Granger-Scott cyclotomic square (blst's `sqr_fp4` has this form).
#[inline(always)]
pub fn fp4_square<C: TowerConfig<N>, const N: usize>(a: &Fp2<C, N>, b: &Fp2<C, N>) -> (Fp2<C, N>, Fp2<C, N>) {
    let mut t0 = Fp2Wide::ZERO;
    let mut t1 = Fp2Wide::ZERO;
    let mut t2 = Fp2Wide::ZERO;
    Fp2Wide::square_to(&mut t0, a);
    Fp2Wide::square_to(&mut t1, b);
    Fp2Wide::mul_by_xi_to(&mut t2, &t1);
    t2.add_assign(&t0);
    let c0 = t2.reduce();
    Fp2Wide::square_to(&mut t2, &(*a + *b));
    t2.sub_assign(&t0);
    t2.sub_assign(&t1);
    (c0, t2.reduce())
}

/// out = k a modulo p R for a small k >= 2 (double-and-add over k's bits).
#[inline(always)]
fn times_small_to<const N: usize>(out: &mut Wide<N>, a: &Wide<N>, k: u64, p: &[u64; 8]) {
    dbl_add(out, a, a, p);
    let top = 63 - k.leading_zeros();
    for i in (0..top).rev() {
        if (k >> i) & 1 == 1 {
            dbl_add_assign(out, a, p);
        }
        if i > 0 {
            dbl_double_assign(out, p);
        }
    }
}

/// a + b as a factor of a wide Fp2 product ([`Fp2Wide::mul_to`]) inside a wide Fp6 product:
/// unreduced (each coefficient below 2p) when [`backend::set_karatsuba_sums`] allows it, else
/// reduced. Bounds, for a field with two spare top bits (4p < R): the product's own sum
/// a0 + a1 is below 4p < R; its wide products are below 16p^2 < R^2; c0 = v0 - v1 modulo p R
/// with v0, v1 < 4p^2 < p R; c1 = a0 b1 + a1 b0 is exact and below 8p^2. Where 8p > R
/// (BN254) that c1 can exceed p R, so every caller here first subtracts the two exact
/// sub-products it contains (the Fp6 Karatsuba's t1 and t2, or t0 and t1): those
/// subtractions never borrow, so they are exact, and they leave a value below 2p^2 < p R
/// before any modular addition or reduction. With three spare bits (BLS12-381) every value
/// stays below p R throughout.
#[inline(always)]
fn karatsuba_sum<C: TowerConfig<N>, const N: usize>(a: &Fp2<C, N>, b: &Fp2<C, N>) -> Fp2<C, N> {
    if C::MODULUS[N - 1] >> 62 == 0 && backend::karatsuba_sums_lazy() {
        Fp2::new(a.c0.add_lazy(&b.c0), a.c1.add_lazy(&b.c1))
    } else {
        *a + *b
    }
}

/// An unreduced Fp6 value c0 + c1 v + c2 v^2.
pub struct Fp6Wide<C: FieldConfig<N>, const N: usize> {
    /// Constant coefficient.
    pub c0: Fp2Wide<C, N>,
    /// Coefficient of v.
    pub c1: Fp2Wide<C, N>,
    /// Coefficient of v^2.
    pub c2: Fp2Wide<C, N>,
}

impl<C: TowerConfig<N>, const N: usize> Fp6Wide<C, N> {
    /// Zero.
    pub const ZERO: Self = Self { c0: Fp2Wide::ZERO, c1: Fp2Wide::ZERO, c2: Fp2Wide::ZERO };

    /// out = a * b unreduced, Karatsuba over Fp2 (ePrint 2006/471 section 4): 6 wide Fp2
    /// products, 18 N-limb products in all and no reduction.
    #[inline(never)]
    pub fn mul_to(out: &mut Self, a: &Fp6<C, N>, b: &Fp6<C, N>) {
        let mut t0 = Fp2Wide::ZERO;
        let mut t1 = Fp2Wide::ZERO;
        let mut t2 = Fp2Wide::ZERO;
        let mut m = Fp2Wide::ZERO;
        Fp2Wide::mul_to(&mut t0, &a.c0, &b.c0);
        Fp2Wide::mul_to(&mut t1, &a.c1, &b.c1);
        Fp2Wide::mul_to(&mut t2, &a.c2, &b.c2);
        // c0 = a0 b0 + xi (a1 b2 + a2 b1), with a1 b2 + a2 b1 = (a1 + a2)(b1 + b2) - t1 - t2
        Fp2Wide::mul_to(&mut m, &karatsuba_sum(&a.c1, &a.c2), &karatsuba_sum(&b.c1, &b.c2));
        m.sub_assign(&t1);
        m.sub_assign(&t2);
        Fp2Wide::mul_by_xi_to(&mut out.c0, &m);
        out.c0.add_assign(&t0);
        // c1 = a0 b1 + a1 b0 + xi a2 b2
        Fp2Wide::mul_to(&mut out.c1, &karatsuba_sum(&a.c0, &a.c1), &karatsuba_sum(&b.c0, &b.c1));
        out.c1.sub_assign(&t0);
        out.c1.sub_assign(&t1);
        Fp2Wide::mul_by_xi_to(&mut m, &t2);
        out.c1.add_assign(&m);
        // c2 = a0 b2 + a2 b0 + a1 b1
        Fp2Wide::mul_to(&mut out.c2, &karatsuba_sum(&a.c0, &a.c2), &karatsuba_sum(&b.c0, &b.c2));
        out.c2.sub_assign(&t0);
        out.c2.sub_assign(&t2);
        out.c2.add_assign(&t1);
    }

    /// out = a * (b0 + b1 v) unreduced, for a line's sparse factor: 5 wide Fp2 products, a0 b0,
    /// a1 b1 and a2 b1, a2 b0 directly, the middle term by Karatsuba (as blst's
    /// `mul_by_xy0_fp6x2`: the Karatsuba forms of a2 b1 and a2 b0 cost the same products and
    /// two more Fp2 additions and three more wide operations).
    #[inline(never)]
    pub fn mul_by_01_to(out: &mut Self, a: &Fp6<C, N>, b0: &Fp2<C, N>, b1: &Fp2<C, N>) {
        let mut t0 = Fp2Wide::ZERO;
        let mut t1 = Fp2Wide::ZERO;
        let mut m = Fp2Wide::ZERO;
        Fp2Wide::mul_to(&mut t0, &a.c0, b0);
        Fp2Wide::mul_to(&mut t1, &a.c1, b1);
        // c0 = t0 + xi a2 b1
        Fp2Wide::mul_to(&mut m, &a.c2, b1);
        Fp2Wide::mul_by_xi_to(&mut out.c0, &m);
        out.c0.add_assign(&t0);
        // c1 = (a0 + a1)(b0 + b1) - t0 - t1
        Fp2Wide::mul_to(&mut out.c1, &karatsuba_sum(&a.c0, &a.c1), &karatsuba_sum(b0, b1));
        out.c1.sub_assign(&t0);
        out.c1.sub_assign(&t1);
        // c2 = a2 b0 + a1 b1
        Fp2Wide::mul_to(&mut out.c2, &a.c2, b0);
        out.c2.add_assign(&t1);
    }

    /// out = a * (b1 v) = xi a2 b1 + a0 b1 v + a1 b1 v^2 unreduced: 3 wide Fp2 products.
    #[inline(never)]
    pub fn mul_by_1_to(out: &mut Self, a: &Fp6<C, N>, b1: &Fp2<C, N>) {
        let mut m = Fp2Wide::ZERO;
        Fp2Wide::mul_to(&mut m, &a.c2, b1);
        Fp2Wide::mul_by_xi_to(&mut out.c0, &m);
        Fp2Wide::mul_to(&mut out.c1, &a.c0, b1);
        Fp2Wide::mul_to(&mut out.c2, &a.c1, b1);
    }

    /// out = a * b for b in Fp2, unreduced: 3 wide Fp2 products.
    #[inline(never)]
    pub fn mul_by_fp2_to(out: &mut Self, a: &Fp6<C, N>, b: &Fp2<C, N>) {
        Fp2Wide::mul_to(&mut out.c0, &a.c0, b);
        Fp2Wide::mul_to(&mut out.c1, &a.c1, b);
        Fp2Wide::mul_to(&mut out.c2, &a.c2, b);
    }

    /// self -= b modulo p R.
    #[inline(always)]
    pub fn sub_assign(&mut self, b: &Self) {
        self.c0.sub_assign(&b.c0);
        self.c1.sub_assign(&b.c1);
        self.c2.sub_assign(&b.c2);
    }

    /// Reduce every coefficient (six REDC).
    #[inline(always)]
    pub fn reduce(&self) -> Fp6<C, N> {
        Fp6::new(self.c0.reduce(), self.c1.reduce(), self.c2.reduce())
    }
}

/// Fp6 product with one reduction per output coefficient (24 units).
#[inline]
pub fn fp6_mul<C: TowerConfig<N>, const N: usize>(a: &Fp6<C, N>, b: &Fp6<C, N>) -> Fp6<C, N> {
    let mut w = Fp6Wide::ZERO;
    Fp6Wide::mul_to(&mut w, a, b);
    w.reduce()
}

/// Fp12 product, Karatsuba over Fp6 on wide values: aa = a0 b0, bb = a1 b1,
/// c0 = aa + v bb, c1 = (a0 + a1)(b0 + b1) - aa - bb, 12 reductions in all (66 units).
#[inline(never)]
pub fn fp12_mul<C: TowerConfig<N>, const N: usize>(a: &Fp12<C, N>, b: &Fp12<C, N>) -> Fp12<C, N> {
    let mut aa = Fp6Wide::ZERO;
    let mut bb = Fp6Wide::ZERO;
    let mut mid = Fp6Wide::ZERO;
    Fp6Wide::mul_to(&mut aa, &a.c0, &b.c0);
    Fp6Wide::mul_to(&mut bb, &a.c1, &b.c1);
    Fp6Wide::mul_to(&mut mid, &(a.c0 + a.c1), &(b.c0 + b.c1));
    fp12_karatsuba_finish(&aa, &bb, &mut mid)
}

/// The end of a Karatsuba product in Fp12 from its three wide Fp6 products aa = a0 b0,
/// bb = a1 b1 and mid = (a0 + a1)(b0 + b1): c0 = aa + v bb, c1 = mid - aa - bb, reduced
/// (12 REDC). `mid` is consumed as scratch.
#[inline]
pub fn fp12_karatsuba_finish<C: TowerConfig<N>, const N: usize>(aa: &Fp6Wide<C, N>, bb: &Fp6Wide<C, N>, mid: &mut Fp6Wide<C, N>) -> Fp12<C, N> {
    mid.sub_assign(aa);
    mid.sub_assign(bb);
    let c1 = mid.reduce();
    // c0 = aa + v bb = (aa0 + xi bb2) + (aa1 + bb0) v + (aa2 + bb1) v^2
    let mut t = Fp2Wide::ZERO;
    Fp2Wide::mul_by_xi_to(&mut t, &bb.c2);
    t.add_assign(&aa.c0);
    let c00 = t.reduce();
    Fp2Wide::add_to(&mut t, &aa.c1, &bb.c0);
    let c01 = t.reduce();
    Fp2Wide::add_to(&mut t, &aa.c2, &bb.c1);
    Fp12::new(Fp6::new(c00, c01, t.reduce()), c1)
}

/// Fp12 complex squaring on wide values: ab = a0 a1, c0 = (a0 + a1)(a0 + v a1) - ab - v ab,
/// c1 = 2 ab (48 units).
#[inline(never)]
pub fn fp12_square<C: TowerConfig<N>, const N: usize>(a: &Fp12<C, N>) -> Fp12<C, N> {
    let mut ab = Fp6Wide::ZERO;
    let mut t = Fp6Wide::ZERO;
    Fp6Wide::mul_to(&mut ab, &a.c0, &a.c1);
    Fp6Wide::mul_to(&mut t, &(a.c0 + a.c1), &(a.c0 + a.c1.mul_by_nonresidue()));
    t.sub_assign(&ab);
    // v ab = xi ab2 + ab0 v + ab1 v^2
    let mut x = Fp2Wide::ZERO;
    Fp2Wide::mul_by_xi_to(&mut x, &ab.c2);
    t.c0.sub_assign(&x);
    t.c1.sub_assign(&ab.c0);
    t.c2.sub_assign(&ab.c1);
    Fp12::new(t.reduce(), ab.reduce().double())
}

//! Fp2 = Fp[u]/(u^2 + 1): Karatsuba multiplication (3 Fp multiplications), complex squaring
//! (2), inversion through the norm (one Fp inversion), Frobenius (conjugation) and the
//! constant-time square root of ePrint 2012/685, Algorithm 9 (p = 3 mod 4).

use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use rand_core::RngCore;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};

use super::TowerConfig;
use crate::mont::{FieldConfig, Fp};

/// An element c0 + c1 u of Fp2, u^2 = -1. `#[repr(C)]`: c0 then c1, no padding.
#[derive(Debug)]
#[repr(C)]
pub struct Fp2<C: FieldConfig<N>, const N: usize> {
    /// Real part.
    pub c0: Fp<C, N>,
    /// Coefficient of u.
    pub c1: Fp<C, N>,
}

impl<C: FieldConfig<N>, const N: usize> Clone for Fp2<C, N> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<C: FieldConfig<N>, const N: usize> Copy for Fp2<C, N> {}

impl<C: FieldConfig<N>, const N: usize> Fp2<C, N> {
    /// Zero.
    pub const ZERO: Self = Self { c0: Fp::ZERO, c1: Fp::ZERO };
    /// One.
    pub const ONE: Self = Self { c0: Fp::ONE, c1: Fp::ZERO };

    /// c0 + c1 u.
    pub const fn new(c0: Fp<C, N>, c1: Fp<C, N>) -> Self {
        Self { c0, c1 }
    }

    /// Constant from two canonical big-endian hex strings (compile-time checked).
    pub const fn from_hex_const(c0: &str, c1: &str) -> Self {
        Self { c0: Fp::from_hex_const(c0), c1: Fp::from_hex_const(c1) }
    }

    /// Uniformly random element (rand_core 0.6 RNG).
    pub fn random(rng: &mut impl RngCore) -> Self {
        Self::random_with(|| rng.next_u64())
    }

    /// Uniformly random element from any source of uniform 64-bit words.
    pub fn random_with(mut next_u64: impl FnMut() -> u64) -> Self {
        let c0 = Fp::random_with(&mut next_u64);
        Self { c0, c1: Fp::random_with(&mut next_u64) }
    }

    /// True for zero.
    pub fn is_zero(&self) -> Choice {
        self.c0.is_zero() & self.c1.is_zero()
    }

    /// 2a.
    #[inline(always)]
    pub fn double(&self) -> Self {
        Self { c0: self.c0.double(), c1: self.c1.double() }
    }

    /// Complex squaring: (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u; 2 multiplications.
    /// Over 6 limbs out of line, like `*` (see the module notes in `tower`: inlined into the
    /// G2 formulas they made a BLS12-381 G2 addition 1.3x slower); over 4 limbs inlined, where
    /// the body is small: BN254's square alone 0.72x, G2 doubling 0.95x and G2 mixed addition
    /// 0.94x of the out-of-line call (`fp2_product_switch` in zkforge-pairing's examples, old
    /// and new binaries alternated, Zen 4, 2026-12-06; BENCHMARKS.md).
    #[inline(always)]
    pub fn square(&self) -> Self {
        if N == 4 {
            self.square_body()
        } else {
            self.square_out_of_line()
        }
    }

    /// [`Fp2::square`]'s body behind a call.
    #[inline(never)]
    fn square_out_of_line(&self) -> Self {
        self.square_body()
    }

    /// [`Fp2::square`]'s body.
    #[inline(always)]
    fn square_body(&self) -> Self {
        // 4p < 2^(64N) on both base fields: the sums go unreduced into the products
        if C::MODULUS[N - 1] >> 62 == 0 {
            let c0 = self.c0.add_lazy(&self.c1) * self.c0.sub_lazy(&self.c1);
            let c1 = self.c0.add_lazy(&self.c0) * self.c1;
            return Self { c0, c1 };
        }
        let t = self.c0 * self.c1;
        Self { c0: (self.c0 + self.c1) * (self.c0 - self.c1), c1: t.double() }
    }

    /// Conjugate a0 - a1 u (the p-power Frobenius).
    #[inline(always)]
    pub fn conjugate(&self) -> Self {
        Self { c0: self.c0, c1: -self.c1 }
    }

    /// a^(p^k).
    #[inline(always)]
    pub fn frobenius_map(&self, k: usize) -> Self {
        if k % 2 == 1 {
            self.conjugate()
        } else {
            *self
        }
    }

    /// The norm a0^2 + a1^2 in Fp.
    #[inline]
    pub fn norm(&self) -> Fp<C, N> {
        self.c0.square() + self.c1.square()
    }

    /// a * b for b in Fp.
    #[inline(always)]
    pub fn mul_by_fp(&self, b: &Fp<C, N>) -> Self {
        Self { c0: self.c0 * *b, c1: self.c1 * *b }
    }

    /// Inverse (a0 - a1 u) / (a0^2 + a1^2), constant time; `None` for zero.
    ///
    /// ```
    /// use zkforge_field::bn254::{Fp, Fp2};
    /// let a = Fp2::new(Fp::from_u64(3), Fp::from_u64(4));
    /// assert_eq!(a * a.invert().unwrap(), Fp2::ONE);
    /// ```
    pub fn invert(&self) -> CtOption<Self> {
        self.norm().invert().map(|t| Self { c0: self.c0 * t, c1: -(self.c1 * t) })
    }

    /// a^e for a public exponent (variable time in `exp` only).
    pub fn pow_vartime(&self, exp: &[u64]) -> Self {
        let mut r = Self::ONE;
        for limb in exp.iter().rev() {
            for i in (0..64).rev() {
                r = r.square();
                if (limb >> i) & 1 == 1 {
                    r *= *self;
                }
            }
        }
        r
    }

    /// Square root through the norm (the "complex method", Scott, ePrint 2012/685 section 4
    /// and Adj-Rodriguez-Henriquez Alg. 8 in its p = 3 mod 4 form), constant time in `self`;
    /// `None` for a non-square. Cost: two Fp exponentiations and a few multiplications.
    ///
    /// For a = a0 + a1 u: alpha = sqrt(a0^2 + a1^2) in Fp, delta = (a0 + alpha)/2 and
    /// t = delta^((p-3)/4). If delta is a square, x = t delta + (a1 t / 2) u. Otherwise -delta
    /// is (as -1 is not a square), and with s = (-1)^((p-3)/4):
    /// x = (a1 s t / 2) - (s t delta) u. Both are computed and one is selected.
    ///
    /// ```
    /// use zkforge_field::bls12_381::{Fp, Fp2};
    /// let a = Fp2::new(Fp::from_u64(5), Fp::from_u64(11)).square();
    /// assert_eq!(a.sqrt().unwrap().square(), a);
    /// ```
    pub fn sqrt(&self) -> CtOption<Self> {
        let alpha = self.norm().pow_p_plus_1_over_4();
        self.sqrt_with_norm_root(alpha)
    }

    /// The second half of [`Fp2::sqrt`] for a caller that already holds `alpha`, a square
    /// root (either sign) of the norm c0^2 + c1^2; hash-to-curve derives it without a second
    /// exponentiation. `None` if `alpha` is not such a root or `self` is not a square.
    /// One Fp exponentiation by (p - 3) / 4.
    pub fn sqrt_with_norm_root(&self, alpha: Fp<C, N>) -> CtOption<Self> {
        let delta = self.norm_root_delta(alpha);
        self.sqrt_from_delta(&delta, &delta.pow_p_minus_3_over_4())
    }

    /// [`Fp2::sqrt_with_norm_root`] of two elements at once, their two exponentiations
    /// interleaved ([`Fp::pow_p_minus_3_over_4_x2`]): the two SSWU maps of a hash to G2 take
    /// their square roots here. Same results as two single calls; constant time.
    ///
    /// ```
    /// use zkforge_field::bls12_381::{Fp, Fp2};
    /// let (a, b) = (Fp2::new(Fp::from_u64(3), Fp::from_u64(4)), Fp2::new(Fp::from_u64(5), Fp::from_u64(12)));
    /// let (ra, rb) = Fp2::sqrt_with_norm_root_x2(&a.square(), Fp::from_u64(25), &b.square(), Fp::from_u64(169));
    /// assert_eq!(ra.unwrap().square(), a.square());
    /// assert_eq!(rb.unwrap().square(), b.square());
    /// ```
    pub fn sqrt_with_norm_root_x2(a: &Self, alpha_a: Fp<C, N>, b: &Self, alpha_b: Fp<C, N>) -> (CtOption<Self>, CtOption<Self>) {
        let (da, db) = (a.norm_root_delta(alpha_a), b.norm_root_delta(alpha_b));
        let (ta, tb) = Fp::pow_p_minus_3_over_4_x2(&da, &db);
        (a.sqrt_from_delta(&da, &ta), b.sqrt_from_delta(&db, &tb))
    }

    /// [`Fp2::sqrt_with_norm_root`] of many elements (`alphas[i]` a root of the norm of
    /// `elems[i]`), their exponentiations together ([`super::pow_p_minus_3_over_4_many`]: eight
    /// at a time on IFMA lanes where the CPU has them): the SSWU maps of a batch of hashes to
    /// G2 take their square roots here. Same results as one call each; constant time (the path
    /// depends only on the number of elements). Extra entries of the longer slice are ignored.
    ///
    /// ```
    /// use zkforge_field::bls12_381::{Fp, Fp2};
    /// let (a, b) = (Fp2::new(Fp::from_u64(3), Fp::from_u64(4)), Fp2::new(Fp::from_u64(5), Fp::from_u64(12)));
    /// let r = Fp2::sqrt_with_norm_root_many(&[a.square(), b.square()], &[Fp::from_u64(25), Fp::from_u64(169)]);
    /// assert_eq!(r[0].unwrap().square(), a.square());
    /// assert_eq!(r[1].unwrap().square(), b.square());
    /// ```
    pub fn sqrt_with_norm_root_many(elems: &[Self], alphas: &[Fp<C, N>]) -> alloc::vec::Vec<CtOption<Self>>
    where
        C: TowerConfig<N>,
    {
        let deltas: alloc::vec::Vec<Fp<C, N>> = elems.iter().zip(alphas).map(|(e, a)| e.norm_root_delta(*a)).collect();
        let ts = super::pow_p_minus_3_over_4_many(&deltas);
        elems.iter().zip(deltas.iter().zip(&ts)).map(|(e, (d, t))| e.sqrt_from_delta(d, t)).collect()
    }

    /// 1/2 in Fp: (p + 1) / 2.
    const HALF: Fp<C, N> = Fp::from_limbs_const(crate::limbs::shr1(&crate::limbs::add_small(&C::MODULUS, 1)));

    /// delta = (c0 + alpha) / 2 for a norm root alpha, the sign of alpha flipped when c0 +
    /// alpha = 0 (only possible when c1 = 0), so that delta != 0 for a non-zero element.
    fn norm_root_delta(&self, alpha: Fp<C, N>) -> Fp<C, N> {
        assert!(C::MODULUS[0] & 3 == 3, "the norm method here needs p = 3 mod 4");
        let alpha = Fp::conditional_select(&alpha, &-alpha, (self.c0 + alpha).is_zero());
        (self.c0 + alpha) * Self::HALF
    }

    /// The root from delta and t = delta^((p - 3) / 4): delta is a square in Fp when
    /// t^2 delta = 1, and then x = t delta + c1 t / 2 u; otherwise x = c1 s t / 2 - s t delta u
    /// with s = (-1)^((p - 3) / 4). Checked by squaring.
    fn sqrt_from_delta(&self, delta: &Fp<C, N>, t: &Fp<C, N>) -> CtOption<Self> {
        let (t, half) = (*t, Self::HALF);
        let td = t * *delta;
        let delta_is_square = (t * td).is_one();
        let x_sq = Self { c0: td, c1: self.c1 * t * half };
        let s_neg = Choice::from((Fp::<C, N>::P_MINUS_3_OVER_4[0] & 1) as u8);
        let st = Fp::conditional_select(&t, &-t, s_neg);
        let x_nsq = Self { c0: self.c1 * st * half, c1: -(st * *delta) };
        let x = Self::conditional_select(&x_nsq, &x_sq, delta_is_square);
        CtOption::new(x, x.square().ct_eq(self))
    }
}

impl<C: TowerConfig<N>, const N: usize> Fp2<C, N> {
    /// a * xi (the Fp6 non-residue).
    #[inline(always)]
    pub fn mul_by_nonresidue(&self) -> Self {
        C::mul_by_xi(self)
    }
}

impl<C: FieldConfig<N>, const N: usize> Add for Fp2<C, N> {
    type Output = Self;
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        Self { c0: self.c0 + b.c0, c1: self.c1 + b.c1 }
    }
}
impl<C: FieldConfig<N>, const N: usize> Sub for Fp2<C, N> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        Self { c0: self.c0 - b.c0, c1: self.c1 - b.c1 }
    }
}
impl<C: FieldConfig<N>, const N: usize> Neg for Fp2<C, N> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self { c0: -self.c0, c1: -self.c1 }
    }
}
impl<C: FieldConfig<N>, const N: usize> Mul for Fp2<C, N> {
    type Output = Self;
    /// With the MULX/ADX kernels, the form [`crate::backend::set_fp2_product`] chose: Karatsuba
    /// over three exact double-width products and two reductions (the default), or
    /// c0 = a0 b0 + a1 (-b1), c1 = a0 b1 + a1 b0 as two lazy sums of products. Otherwise
    /// [`Fp2::mul_karatsuba`]. Out of line over 6 limbs, inlined over 4 (see [`Fp2::square`]).
    #[inline(always)]
    fn mul(self, b: Self) -> Self {
        if N == 4 {
            self.mul_body(&b)
        } else {
            self.mul_out_of_line(&b)
        }
    }
}

impl<C: FieldConfig<N>, const N: usize> Fp2<C, N> {
    /// `*`'s body behind a call.
    #[inline(never)]
    fn mul_out_of_line(&self, b: &Self) -> Self {
        self.mul_body(b)
    }

    /// `*`'s body.
    #[inline(always)]
    fn mul_body(&self, b: &Self) -> Self {
        if crate::backend::adx_selected() {
            // Karatsuba over wide products needs two spare top bits (sums below 2p enter the
            // products, and products below 4p^2 < p R are what REDC accepts)
            if C::MODULUS[N - 1] >> 62 == 0 && crate::backend::fp2_product_karatsuba() {
                let mut w = super::lazy::Fp2Wide::ZERO;
                super::lazy::Fp2Wide::mul_to(&mut w, self, b);
                return w.reduce();
            }
            let (c0, c1) = Fp::fp2_mul_lazy(&self.c0, &self.c1, &b.c0, &b.c1);
            return Self { c0, c1 };
        }
        self.mul_karatsuba(b)
    }
}

impl<C: FieldConfig<N>, const N: usize> Fp2<C, N> {
    /// self * b - 2 c^2, the Y coordinate of a Jacobian doubling (E (D - X3) - 8 Y^4 with
    /// c = 2 Y^2, EFD dbl-2009-l). Where the tower reduces lazily
    /// ([`crate::tower::lazy::use_lazy`], switched by [`crate::backend::set_tower`]) the
    /// product and the square stay double width and one reduction per coefficient finishes:
    /// two Montgomery reductions and two reduced additions fewer than the reduced form, which
    /// runs elsewhere. The same value either way.
    ///
    /// ```
    /// use zkforge_field::bls12_381::{Fp, Fp2};
    /// let (a, b, c) = (Fp2::new(Fp::from_u64(3), Fp::from_u64(5)), Fp2::new(Fp::from_u64(7), Fp::from_u64(11)), Fp2::new(Fp::from_u64(2), Fp::from_u64(13)));
    /// assert_eq!(a.mul_sub_double_square(&b, &c), a * b - c.square().double());
    /// ```
    #[inline]
    pub fn mul_sub_double_square(&self, b: &Self, c: &Self) -> Self {
        if super::lazy::use_lazy::<C, N>() {
            let (mut w, mut cc) = (super::lazy::Fp2Wide::ZERO, super::lazy::Fp2Wide::ZERO);
            super::lazy::Fp2Wide::mul_to(&mut w, self, b);
            super::lazy::Fp2Wide::square_to(&mut cc, c);
            w.sub_assign(&cc);
            w.sub_assign(&cc);
            return w.reduce();
        }
        *self * *b - c.square().double()
    }

    /// self * b - c d, the Y coordinate of a Jacobian addition (R (V - X3) - S1 (2 J) in EFD
    /// add-2007-bl and madd-2007-bl, R (V - X3) - S1 H^3 in the unified addition), formed as
    /// [`Fp2::mul_sub_double_square`] is: both products double width and one reduction per
    /// coefficient on the lazy tower, the reduced form elsewhere. The same value either way.
    ///
    /// ```
    /// use zkforge_field::bls12_381::{Fp, Fp2};
    /// let f = |a: u64, b: u64| Fp2::new(Fp::from_u64(a), Fp::from_u64(b));
    /// let (a, b, c, d) = (f(3, 5), f(7, 11), f(2, 13), f(17, 19));
    /// assert_eq!(a.mul_sub_mul(&b, &c, &d), a * b - c * d);
    /// ```
    #[inline]
    pub fn mul_sub_mul(&self, b: &Self, c: &Self, d: &Self) -> Self {
        if super::lazy::use_lazy::<C, N>() {
            let (mut w, mut cd) = (super::lazy::Fp2Wide::ZERO, super::lazy::Fp2Wide::ZERO);
            super::lazy::Fp2Wide::mul_to(&mut w, self, b);
            super::lazy::Fp2Wide::mul_to(&mut cd, c, d);
            w.sub_assign(&cd);
            return w.reduce();
        }
        *self * *b - *c * *d
    }

    /// Karatsuba: v0 = a0 b0, v1 = a1 b1, c0 = v0 - v1, c1 = (a0 + a1)(b0 + b1) - v0 - v1
    /// (three products; the portable path of `*`).
    #[inline]
    pub fn mul_karatsuba(&self, b: &Self) -> Self {
        let v0 = self.c0 * b.c0;
        let v1 = self.c1 * b.c1;
        let s = (self.c0 + self.c1) * (b.c0 + b.c1);
        Self { c0: v0 - v1, c1: s - v0 - v1 }
    }
}
impl<C: FieldConfig<N>, const N: usize> AddAssign for Fp2<C, N> {
    #[inline(always)]
    fn add_assign(&mut self, b: Self) {
        *self = *self + b;
    }
}
impl<C: FieldConfig<N>, const N: usize> SubAssign for Fp2<C, N> {
    #[inline(always)]
    fn sub_assign(&mut self, b: Self) {
        *self = *self - b;
    }
}
impl<C: FieldConfig<N>, const N: usize> MulAssign for Fp2<C, N> {
    #[inline(always)]
    fn mul_assign(&mut self, b: Self) {
        *self = *self * b;
    }
}
impl<C: FieldConfig<N>, const N: usize> ConstantTimeEq for Fp2<C, N> {
    fn ct_eq(&self, o: &Self) -> Choice {
        self.c0.ct_eq(&o.c0) & self.c1.ct_eq(&o.c1)
    }
}
impl<C: FieldConfig<N>, const N: usize> ConditionallySelectable for Fp2<C, N> {
    fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
        Self { c0: Fp::conditional_select(&a.c0, &b.c0, c), c1: Fp::conditional_select(&a.c1, &b.c1, c) }
    }
}
impl<C: FieldConfig<N>, const N: usize> PartialEq for Fp2<C, N> {
    fn eq(&self, o: &Self) -> bool {
        self.ct_eq(o).into()
    }
}
impl<C: FieldConfig<N>, const N: usize> Eq for Fp2<C, N> {}
impl<C: FieldConfig<N>, const N: usize> Default for Fp2<C, N> {
    fn default() -> Self {
        Self::ZERO
    }
}

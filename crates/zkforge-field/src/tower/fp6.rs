//! Fp6 = Fp2[v]/(v^3 - xi): Karatsuba multiplication (6 Fp2 multiplications) and Chung-Hasan
//! squaring CH-SQR2 (2 multiplications + 3 squarings), ePrint 2006/471 sections 4 and 5.

use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use rand_core::RngCore;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};

use super::{Fp2, TowerConfig};

/// An element c0 + c1 v + c2 v^2 of Fp6.
#[derive(Debug)]
pub struct Fp6<C: TowerConfig<N>, const N: usize> {
    /// Constant coefficient.
    pub c0: Fp2<C, N>,
    /// Coefficient of v.
    pub c1: Fp2<C, N>,
    /// Coefficient of v^2.
    pub c2: Fp2<C, N>,
}

impl<C: TowerConfig<N>, const N: usize> Clone for Fp6<C, N> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<C: TowerConfig<N>, const N: usize> Copy for Fp6<C, N> {}

impl<C: TowerConfig<N>, const N: usize> Fp6<C, N> {
    /// Zero.
    pub const ZERO: Self = Self { c0: Fp2::ZERO, c1: Fp2::ZERO, c2: Fp2::ZERO };
    /// One.
    pub const ONE: Self = Self { c0: Fp2::ONE, c1: Fp2::ZERO, c2: Fp2::ZERO };

    /// c0 + c1 v + c2 v^2.
    pub const fn new(c0: Fp2<C, N>, c1: Fp2<C, N>, c2: Fp2<C, N>) -> Self {
        Self { c0, c1, c2 }
    }

    /// Uniformly random element (rand_core 0.6 RNG).
    pub fn random(rng: &mut impl RngCore) -> Self {
        Self::random_with(|| rng.next_u64())
    }

    /// Uniformly random element from any source of uniform 64-bit words.
    pub fn random_with(mut next_u64: impl FnMut() -> u64) -> Self {
        let c0 = Fp2::random_with(&mut next_u64);
        let c1 = Fp2::random_with(&mut next_u64);
        Self { c0, c1, c2: Fp2::random_with(&mut next_u64) }
    }

    /// True for zero.
    pub fn is_zero(&self) -> Choice {
        self.c0.is_zero() & self.c1.is_zero() & self.c2.is_zero()
    }

    /// 2a.
    #[inline(always)]
    pub fn double(&self) -> Self {
        Self { c0: self.c0.double(), c1: self.c1.double(), c2: self.c2.double() }
    }

    /// a * v = xi c2 + c0 v + c1 v^2.
    #[inline(always)]
    pub fn mul_by_nonresidue(&self) -> Self {
        Self { c0: self.c2.mul_by_nonresidue(), c1: self.c0, c2: self.c1 }
    }

    /// a * b for b in Fp2.
    #[inline(always)]
    pub fn mul_by_fp2(&self, b: &Fp2<C, N>) -> Self {
        Self { c0: self.c0 * *b, c1: self.c1 * *b, c2: self.c2 * *b }
    }

    /// CH-SQR2 (ePrint 2006/471): s0 = a0^2, s1 = 2 a0 a1, s2 = (a0 - a1 + a2)^2,
    /// s3 = 2 a1 a2, s4 = a2^2; c0 = s0 + xi s3, c1 = s1 + xi s4, c2 = s1 + s2 + s3 - s0 - s4.
    #[inline]
    pub fn square(&self) -> Self {
        let s0 = self.c0.square();
        let s1 = (self.c0 * self.c1).double();
        let s2 = (self.c0 - self.c1 + self.c2).square();
        let s3 = (self.c1 * self.c2).double();
        let s4 = self.c2.square();
        Self {
            c0: s0 + s3.mul_by_nonresidue(),
            c1: s1 + s4.mul_by_nonresidue(),
            c2: s1 + s2 + s3 - s0 - s4,
        }
    }

    /// Inverse: with t0 = a0^2 - xi a1 a2, t1 = xi a2^2 - a0 a1, t2 = a1^2 - a0 a2, the
    /// inverse is (t0, t1, t2) / (a0 t0 + xi (a2 t1 + a1 t2)). `None` for zero.
    pub fn invert(&self) -> CtOption<Self> {
        let t0 = self.c0.square() - (self.c1 * self.c2).mul_by_nonresidue();
        let t1 = self.c2.square().mul_by_nonresidue() - self.c0 * self.c1;
        let t2 = self.c1.square() - self.c0 * self.c2;
        let d = self.c0 * t0 + (self.c2 * t1 + self.c1 * t2).mul_by_nonresidue();
        d.invert().map(|di| Self { c0: t0 * di, c1: t1 * di, c2: t2 * di })
    }

    /// a^(p^k).
    #[inline]
    pub fn frobenius_map(&self, k: usize) -> Self {
        Self {
            c0: self.c0.frobenius_map(k),
            c1: self.c1.frobenius_map(k) * C::FROB6_C1[k % 6],
            c2: self.c2.frobenius_map(k) * C::FROB6_C2[k % 6],
        }
    }
}

impl<C: TowerConfig<N>, const N: usize> Mul for Fp6<C, N> {
    type Output = Self;
    /// Karatsuba (ePrint 2006/471 section 4): 6 Fp2 multiplications, reduced lazily
    /// ([`super::lazy`]) or per product, as [`crate::backend::set_tower`] selects.
    #[inline]
    fn mul(self, b: Self) -> Self {
        if super::lazy::use_lazy::<C, N>() {
            return super::lazy::fp6_mul(&self, &b);
        }
        self.mul_per_product(&b)
    }
}

impl<C: TowerConfig<N>, const N: usize> Fp6<C, N> {
    /// Karatsuba with every Fp2 product reduced as it is formed (the reference formulas of
    /// `*`).
    #[inline]
    pub fn mul_per_product(&self, b: &Self) -> Self {
        let a = *self;
        let v0 = a.c0 * b.c0;
        let v1 = a.c1 * b.c1;
        let v2 = a.c2 * b.c2;
        let c0 = ((a.c1 + a.c2) * (b.c1 + b.c2) - v1 - v2).mul_by_nonresidue() + v0;
        let c1 = (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1 + v2.mul_by_nonresidue();
        let c2 = (a.c0 + a.c2) * (b.c0 + b.c2) - v0 - v2 + v1;
        Self { c0, c1, c2 }
    }
}
impl<C: TowerConfig<N>, const N: usize> Add for Fp6<C, N> {
    type Output = Self;
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        Self { c0: self.c0 + b.c0, c1: self.c1 + b.c1, c2: self.c2 + b.c2 }
    }
}
impl<C: TowerConfig<N>, const N: usize> Sub for Fp6<C, N> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        Self { c0: self.c0 - b.c0, c1: self.c1 - b.c1, c2: self.c2 - b.c2 }
    }
}
impl<C: TowerConfig<N>, const N: usize> Neg for Fp6<C, N> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self { c0: -self.c0, c1: -self.c1, c2: -self.c2 }
    }
}
impl<C: TowerConfig<N>, const N: usize> AddAssign for Fp6<C, N> {
    #[inline(always)]
    fn add_assign(&mut self, b: Self) {
        *self = *self + b;
    }
}
impl<C: TowerConfig<N>, const N: usize> SubAssign for Fp6<C, N> {
    #[inline(always)]
    fn sub_assign(&mut self, b: Self) {
        *self = *self - b;
    }
}
impl<C: TowerConfig<N>, const N: usize> MulAssign for Fp6<C, N> {
    #[inline(always)]
    fn mul_assign(&mut self, b: Self) {
        *self = *self * b;
    }
}
impl<C: TowerConfig<N>, const N: usize> ConstantTimeEq for Fp6<C, N> {
    fn ct_eq(&self, o: &Self) -> Choice {
        self.c0.ct_eq(&o.c0) & self.c1.ct_eq(&o.c1) & self.c2.ct_eq(&o.c2)
    }
}
impl<C: TowerConfig<N>, const N: usize> ConditionallySelectable for Fp6<C, N> {
    fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
        Self {
            c0: Fp2::conditional_select(&a.c0, &b.c0, c),
            c1: Fp2::conditional_select(&a.c1, &b.c1, c),
            c2: Fp2::conditional_select(&a.c2, &b.c2, c),
        }
    }
}
impl<C: TowerConfig<N>, const N: usize> PartialEq for Fp6<C, N> {
    fn eq(&self, o: &Self) -> bool {
        self.ct_eq(o).into()
    }
}
impl<C: TowerConfig<N>, const N: usize> Eq for Fp6<C, N> {}
impl<C: TowerConfig<N>, const N: usize> Default for Fp6<C, N> {
    fn default() -> Self {
        Self::ZERO
    }
}

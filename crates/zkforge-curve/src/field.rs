//! The few field operations the curve code needs, as one small trait implemented for the prime
//! fields (G1 coordinates) and for Fp2 (G2 coordinates). The arithmetic itself lives in
//! `zkforge-field`; this trait only lets one group-law implementation serve both.

use alloc::vec::Vec;
use core::fmt::Debug;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use rand_core::RngCore;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};
use zkforge_field::tower::Fp2;
use zkforge_field::{FieldConfig, Fp};

/// A field that curve coordinates live in.
pub trait CurveField:
    Copy
    + Debug
    + Default
    + Eq
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + ConditionallySelectable
    + ConstantTimeEq
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// The degree over the prime field: 1 for Fp (G1), 2 for Fp2 (the G2 twists). Per-group
    /// defaults (such as the MSM's measured table) are chosen by it.
    const DEGREE: usize;
    /// 2a.
    fn double(&self) -> Self;
    /// a^2.
    fn square(&self) -> Self;
    /// a^-1 in constant time; `None` for zero.
    fn invert(&self) -> CtOption<Self>;
    /// a^-1 in variable time (public data only); `None` for zero.
    fn invert_vartime(&self) -> Option<Self>;
    /// Square root in constant time; `None` for a non-square.
    fn sqrt(&self) -> CtOption<Self>;
    /// True for zero.
    fn is_zero(&self) -> Choice;
    /// The RFC 9380 sign: parity of the canonical value (of c0, or of c1 when c0 = 0).
    fn sgn0(&self) -> Choice;
    /// "Lexicographically largest": a > (p-1)/2 in the Zcash sense (c1 first for Fp2).
    fn lexicographically_largest(&self) -> Choice;
    /// Uniformly random element.
    fn random(rng: &mut impl RngCore) -> Self;
    /// For a prime field: its modulus as little-endian 64-bit limbs (zero-padded to 8) and
    /// their count N; `None` for an extension field. The AVX-512 MSM kernels read it.
    fn prime_modulus() -> Option<([u64; 8], usize)> {
        None
    }
    /// For a prime field: the Montgomery-form limbs a 2^(64 N) mod p (little-endian,
    /// zero-padded to 8); `None` for an extension field.
    fn to_mont_u64s(&self) -> Option<[u64; 8]> {
        None
    }
    /// For a prime field: the element whose Montgomery-form limbs are `l` (zero-padded to 8);
    /// `None` when they are not below p, or for an extension field.
    fn from_mont_u64s(l: &[u64; 8]) -> Option<Self> {
        let _ = l;
        None
    }
    /// a b - 2 c^2, the Y coordinate of a Jacobian doubling. Both fields here form it with one
    /// reduction where the tower reduces lazily: Fp as one lazy sum of products, Fp2 through
    /// [`Fp2::mul_sub_double_square`]; this default is the two reduced products.
    #[inline(always)]
    fn mul_sub_double_square(a: &Self, b: &Self, c: &Self) -> Self {
        *a * *b - c.square().double()
    }
    /// a b - c d, the Y coordinate of a Jacobian addition, with one reduction as
    /// [`CurveField::mul_sub_double_square`] (Fp2: [`Fp2::mul_sub_mul`]).
    #[inline(always)]
    fn mul_sub_mul(a: &Self, b: &Self, c: &Self, d: &Self) -> Self {
        *a * *b - *c * *d
    }
    /// Montgomery's trick: invert every non-zero element of `v` with one inversion, leaving
    /// zeros as zero.
    fn batch_invert(v: &mut [Self]) {
        let mut acc = Self::ONE;
        let mut prefix = Vec::with_capacity(v.len());
        for x in v.iter() {
            prefix.push(acc);
            let nz = !x.is_zero();
            acc = Self::conditional_select(&acc, &(acc * *x), nz);
        }
        let mut inv = acc.invert().unwrap_or(Self::ZERO);
        for (x, pre) in v.iter_mut().zip(prefix).rev() {
            let nz = !x.is_zero();
            let new_inv = inv * *x;
            let xi = inv * pre;
            *x = Self::conditional_select(&Self::ZERO, &xi, nz);
            inv = Self::conditional_select(&inv, &new_inv, nz);
        }
    }
}

/// True when the canonical value of `a` exceeds (p-1)/2 (constant time).
fn fp_gt_half<C: FieldConfig<N>, const N: usize>(a: &Fp<C, N>) -> Choice {
    let l = a.to_limbs();
    let h = Fp::<C, N>::P_MINUS_1_OVER_2;
    // compute h - l with borrow: borrow set iff l > h
    let mut borrow = 0u64;
    for i in 0..N {
        let (d, b1) = h[i].overflowing_sub(l[i]);
        let (_, b2) = d.overflowing_sub(borrow);
        borrow = (b1 | b2) as u64;
    }
    Choice::from(borrow as u8)
}

impl<C: FieldConfig<N>, const N: usize> CurveField for Fp<C, N> {
    const ZERO: Self = Fp::ZERO;
    const ONE: Self = Fp::ONE;
    const DEGREE: usize = 1;
    /// a b + (-2c) c as one lazy sum of products ([`Fp::sum_of_products2`]: one reduction)
    /// where the tower reduces lazily (`zkforge_field::backend::set_tower`; the two reduced
    /// products otherwise, the same value).
    #[inline(always)]
    fn mul_sub_double_square(a: &Self, b: &Self, c: &Self) -> Self {
        if zkforge_field::backend::lazy_tower_selected(N) {
            return Fp::sum_of_products2(a, &-c.double(), b, c);
        }
        *a * *b - c.square().double()
    }
    /// a b + (-c) d as one lazy sum of products, as [`CurveField::mul_sub_double_square`].
    #[inline(always)]
    fn mul_sub_mul(a: &Self, b: &Self, c: &Self, d: &Self) -> Self {
        if zkforge_field::backend::lazy_tower_selected(N) {
            return Fp::sum_of_products2(a, &-*c, b, d);
        }
        *a * *b - *c * *d
    }
    #[inline(always)]
    fn double(&self) -> Self {
        Fp::double(self)
    }
    #[inline(always)]
    fn square(&self) -> Self {
        Fp::square(self)
    }
    fn invert(&self) -> CtOption<Self> {
        Fp::invert(self)
    }
    fn invert_vartime(&self) -> Option<Self> {
        Fp::invert_vartime(self)
    }
    fn sqrt(&self) -> CtOption<Self> {
        Fp::sqrt(self)
    }
    #[inline(always)]
    fn is_zero(&self) -> Choice {
        Fp::is_zero(self)
    }
    fn sgn0(&self) -> Choice {
        Choice::from((self.to_limbs()[0] & 1) as u8)
    }
    fn lexicographically_largest(&self) -> Choice {
        fp_gt_half(self)
    }
    fn random(rng: &mut impl RngCore) -> Self {
        Fp::random(rng)
    }
    fn prime_modulus() -> Option<([u64; 8], usize)> {
        if N > 8 {
            return None;
        }
        let mut m = [0u64; 8];
        m[..N].copy_from_slice(&C::MODULUS);
        Some((m, N))
    }
    fn to_mont_u64s(&self) -> Option<[u64; 8]> {
        if N > 8 {
            return None;
        }
        let mut m = [0u64; 8];
        m[..N].copy_from_slice(&self.to_mont_limbs());
        Some(m)
    }
    fn from_mont_u64s(l: &[u64; 8]) -> Option<Self> {
        if N > 8 || l[N..].iter().any(|&w| w != 0) {
            return None;
        }
        let mut m = [0u64; N];
        m.copy_from_slice(&l[..N]);
        Fp::from_mont_limbs(m).ok()
    }
}

impl<C: FieldConfig<N>, const N: usize> CurveField for Fp2<C, N> {
    const ZERO: Self = Fp2::ZERO;
    const ONE: Self = Fp2::ONE;
    const DEGREE: usize = 2;
    #[inline(always)]
    fn mul_sub_double_square(a: &Self, b: &Self, c: &Self) -> Self {
        a.mul_sub_double_square(b, c)
    }
    #[inline(always)]
    fn mul_sub_mul(a: &Self, b: &Self, c: &Self, d: &Self) -> Self {
        a.mul_sub_mul(b, c, d)
    }
    #[inline(always)]
    fn double(&self) -> Self {
        Fp2::double(self)
    }
    #[inline(always)]
    fn square(&self) -> Self {
        Fp2::square(self)
    }
    fn invert(&self) -> CtOption<Self> {
        Fp2::invert(self)
    }
    fn invert_vartime(&self) -> Option<Self> {
        let t = self.norm().invert_vartime()?;
        Some(Fp2::new(self.c0 * t, -(self.c1 * t)))
    }
    fn sqrt(&self) -> CtOption<Self> {
        Fp2::sqrt(self)
    }
    #[inline(always)]
    fn is_zero(&self) -> Choice {
        Fp2::is_zero(self)
    }
    fn sgn0(&self) -> Choice {
        let s0 = self.c0.sgn0();
        let z0 = self.c0.is_zero();
        let s1 = self.c1.sgn0();
        s0 | (z0 & s1)
    }
    fn lexicographically_largest(&self) -> Choice {
        fp_gt_half(&self.c1) | (self.c1.is_zero() & fp_gt_half(&self.c0))
    }
    fn random(rng: &mut impl RngCore) -> Self {
        Fp2::random(rng)
    }
}

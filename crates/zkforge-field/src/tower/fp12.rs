//! Fp12 = Fp6[w]/(w^2 - v): Karatsuba multiplication (3 Fp6 multiplications), complex
//! squaring (2), inversion, conjugation (the p^6-power Frobenius), Frobenius maps, and the
//! Granger-Scott cyclotomic squaring (ePrint 2009/565, section 3.2: 3 Fp4 squarings, i.e. 9
//! Fp2 squarings) valid on the cyclotomic subgroup that final exponentiation lands in, and
//! Karabina's compressed squaring for long runs of them (ePrint 2010/542: 6 Fp2 squarings on
//! four of the six Fp2 coefficients, one decompression with an Fp2 inversion at the end).

use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use rand_core::RngCore;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};

use super::{Fp2, Fp6, TowerConfig};

/// An element c0 + c1 w of Fp12.
#[derive(Debug)]
pub struct Fp12<C: TowerConfig<N>, const N: usize> {
    /// Constant coefficient.
    pub c0: Fp6<C, N>,
    /// Coefficient of w.
    pub c1: Fp6<C, N>,
}

impl<C: TowerConfig<N>, const N: usize> Clone for Fp12<C, N> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<C: TowerConfig<N>, const N: usize> Copy for Fp12<C, N> {}

/// (a + b s)^2 in Fp4 = Fp2[s]/(s^2 - xi): returns (a^2 + xi b^2, 2ab) with 3 squarings
/// (reduced lazily, [`super::lazy::fp4_square`], when the tower switch selects it and
/// [`crate::backend::set_fp4_squaring`] allows it for this field).
#[inline(never)]
fn fp4_square<C: TowerConfig<N>, const N: usize>(a: Fp2<C, N>, b: Fp2<C, N>) -> (Fp2<C, N>, Fp2<C, N>) {
    if super::lazy::use_lazy::<C, N>() && crate::backend::fp4_squaring_lazy(N) {
        return super::lazy::fp4_square(&a, &b);
    }
    let t0 = a.square();
    let t1 = b.square();
    let c0 = t1.mul_by_nonresidue() + t0;
    let c1 = (a + b).square() - t0 - t1;
    (c0, c1)
}

/// 2 (t - z) + t, the Granger-Scott update of a coefficient.
#[inline(never)]
fn three_t_minus_two_z<C: TowerConfig<N>, const N: usize>(t: &Fp2<C, N>, z: &Fp2<C, N>) -> Fp2<C, N> {
    (*t - *z).double() + *t
}

/// 2 (t + z) + t, the Granger-Scott update of a coefficient.
#[inline(never)]
fn three_t_plus_two_z<C: TowerConfig<N>, const N: usize>(t: &Fp2<C, N>, z: &Fp2<C, N>) -> Fp2<C, N> {
    (*t + *z).double() + *t
}

impl<C: TowerConfig<N>, const N: usize> Fp12<C, N> {
    /// Zero.
    pub const ZERO: Self = Self { c0: Fp6::ZERO, c1: Fp6::ZERO };
    /// One.
    pub const ONE: Self = Self { c0: Fp6::ONE, c1: Fp6::ZERO };

    /// c0 + c1 w.
    pub const fn new(c0: Fp6<C, N>, c1: Fp6<C, N>) -> Self {
        Self { c0, c1 }
    }

    /// Uniformly random element (rand_core 0.6 RNG).
    pub fn random(rng: &mut impl RngCore) -> Self {
        Self::random_with(|| rng.next_u64())
    }

    /// Uniformly random element from any source of uniform 64-bit words.
    pub fn random_with(mut next_u64: impl FnMut() -> u64) -> Self {
        let c0 = Fp6::random_with(&mut next_u64);
        Self { c0, c1: Fp6::random_with(&mut next_u64) }
    }

    /// True for one.
    pub fn is_one(&self) -> Choice {
        self.ct_eq(&Self::ONE)
    }

    /// Complex squaring: ab = a0 a1, c0 = (a0 + a1)(a0 + v a1) - ab - v ab, c1 = 2 ab;
    /// reduced lazily ([`super::lazy`]) or per product, as [`crate::backend::set_tower`]
    /// selects.
    #[inline]
    pub fn square(&self) -> Self {
        if super::lazy::use_lazy::<C, N>() {
            return super::lazy::fp12_square(self);
        }
        self.square_per_product()
    }

    /// Complex squaring with per-product reduction (the reference formulas).
    #[inline]
    pub fn square_per_product(&self) -> Self {
        let ab = self.c0.mul_per_product(&self.c1);
        let t = (self.c0 + self.c1).mul_per_product(&(self.c0 + self.c1.mul_by_nonresidue()));
        Self { c0: t - ab - ab.mul_by_nonresidue(), c1: ab.double() }
    }

    /// Conjugate c0 - c1 w: the p^6 Frobenius, and the inverse on the cyclotomic subgroup.
    #[inline(always)]
    pub fn conjugate(&self) -> Self {
        Self { c0: self.c0, c1: -self.c1 }
    }

    /// Inverse (c0 - c1 w) / (c0^2 - v c1^2); `None` for zero.
    pub fn invert(&self) -> CtOption<Self> {
        let t = self.c0.square() - self.c1.square().mul_by_nonresidue();
        t.invert().map(|ti| Self { c0: self.c0 * ti, c1: -(self.c1 * ti) })
    }

    /// a^(p^k).
    #[inline]
    pub fn frobenius_map(&self, k: usize) -> Self {
        let c1 = self.c1.frobenius_map(k).mul_by_fp2(&C::FROB12_C1[k % 12]);
        Self { c0: self.c0.frobenius_map(k), c1 }
    }

    /// Granger-Scott cyclotomic squaring. Only correct for elements of the cyclotomic
    /// subgroup (a^(p^6 + 1)(p^2 - 1) powers, e.g. after the easy part of the final
    /// exponentiation); elsewhere use [`Fp12::square`].
    ///
    /// ```
    /// use zkforge_field::bls12_381::Fp12;
    /// use rand_core::OsRng;
    /// let f = Fp12::random(&mut OsRng);
    /// // easy part: f^(p^6 - 1)(p^2 + 1) is cyclotomic
    /// let g = f.conjugate() * f.invert().unwrap();
    /// let g = g.frobenius_map(2) * g;
    /// assert_eq!(g.cyclotomic_square(), g.square());
    /// ```
    pub fn cyclotomic_square(&self) -> Self {
        // Fp4 pairs (z0, z1), (z2, z3), (z4, z5) of ePrint 2009/565 in this tower's order
        let (z0, z4, z3) = (self.c0.c0, self.c0.c1, self.c0.c2);
        let (z2, z1, z5) = (self.c1.c0, self.c1.c1, self.c1.c2);

        let (t0, t1) = fp4_square(z0, z1);
        // A = 3 t - 2 z (and its conjugate part)
        let z0 = three_t_minus_two_z(&t0, &z0);
        let z1 = three_t_plus_two_z(&t1, &z1);

        let (t0, t1) = fp4_square(z2, z3);
        let (t2, t3) = fp4_square(z4, z5);
        // C
        let z4 = three_t_minus_two_z(&t0, &z4);
        let z5 = three_t_plus_two_z(&t1, &z5);
        // B
        let t0 = t3.mul_by_nonresidue();
        let z2 = three_t_plus_two_z(&t0, &z2);
        let z3 = three_t_minus_two_z(&t2, &z3);

        Self { c0: Fp6::new(z0, z4, z3), c1: Fp6::new(z2, z1, z5) }
    }
}

/// Karabina's compressed form of a cyclotomic element: four of its six Fp2 coefficients,
/// (g1, g2, g4, g5) = (c1.c0, c0.c1, c0.c2, c1.c2) in the basis 1, w, w^2, ..., w^5 of
/// Fp12 = Fp2[w]/(w^6 - xi) (Karabina's g2, g4, g3, g5: his squaring formulas matched to the
/// Granger-Scott squaring of this tower term by term). Squaring it needs only these four; the
/// other two, g0 = c0.c0 and g3 = c1.c1, follow from them on the cyclotomic subgroup.
#[derive(Clone, Copy, Debug)]
struct Compressed<C: TowerConfig<N>, const N: usize> {
    g1: Fp2<C, N>,
    g2: Fp2<C, N>,
    g4: Fp2<C, N>,
    g5: Fp2<C, N>,
}

impl<C: TowerConfig<N>, const N: usize> Compressed<C, N> {
    /// The compressed square, 6 Fp2 squarings:
    /// g1' = 2 g1 + 3 xi (2 g2 g5), g2' = 3 (g1^2 + xi g4^2) - 2 g2,
    /// g4' = 3 (g2^2 + xi g5^2) - 2 g4, g5' = 2 g5 + 3 (2 g1 g4),
    /// with 2 g1 g4 = (g1 + g4)^2 - g1^2 - g4^2 (and likewise for g2 g5).
    #[inline]
    fn square(&self) -> Self {
        if super::lazy::use_lazy::<C, N>() {
            return self.square_lazy();
        }
        let (s1, s4, s14) = (self.g1.square(), self.g4.square(), (self.g1 + self.g4).square());
        let (s2, s5, s25) = (self.g2.square(), self.g5.square(), (self.g2 + self.g5).square());
        let t14 = s14 - s1 - s4; // 2 g1 g4
        let t25 = (s25 - s2 - s5).mul_by_nonresidue(); // 2 xi g2 g5
        let a = s1 + s4.mul_by_nonresidue(); // g1^2 + xi g4^2
        let b = s2 + s5.mul_by_nonresidue(); // g2^2 + xi g5^2
        Self {
            g1: (t25 + self.g1).double() + t25,
            g2: (a - self.g2).double() + a,
            g4: (b - self.g4).double() + b,
            g5: (t14 + self.g5).double() + t14,
        }
    }

    /// [`Compressed::square`] with the six squarings kept wide and one reduction per
    /// combination (t14, t25, a, b): 12 products and 8 reductions instead of 12 of each.
    /// Out of line, like the Fp2 glue it ends with: a copy inlined beside the per-product
    /// formulas made a 9,000-instruction function (see `three_t_minus_two_z`).
    #[inline(never)]
    fn square_lazy(&self) -> Self {
        use super::lazy::Fp2Wide;
        let (mut s1, mut s4, mut t) = (Fp2Wide::ZERO, Fp2Wide::ZERO, Fp2Wide::ZERO);
        let mut x = Fp2Wide::ZERO;
        Fp2Wide::square_to(&mut s1, &self.g1);
        Fp2Wide::square_to(&mut s4, &self.g4);
        Fp2Wide::square_to(&mut t, &(self.g1 + self.g4));
        t.sub_assign(&s1);
        t.sub_assign(&s4);
        let t14 = t.reduce(); // 2 g1 g4
        Fp2Wide::mul_by_xi_to(&mut x, &s4);
        x.add_assign(&s1);
        let a = x.reduce(); // g1^2 + xi g4^2
        let (mut s2, mut s5) = (Fp2Wide::ZERO, Fp2Wide::ZERO);
        Fp2Wide::square_to(&mut s2, &self.g2);
        Fp2Wide::square_to(&mut s5, &self.g5);
        Fp2Wide::square_to(&mut t, &(self.g2 + self.g5));
        t.sub_assign(&s2);
        t.sub_assign(&s5);
        Fp2Wide::mul_by_xi_to(&mut x, &t);
        let t25 = x.reduce(); // 2 xi g2 g5
        Fp2Wide::mul_by_xi_to(&mut x, &s5);
        x.add_assign(&s2);
        let b = x.reduce(); // g2^2 + xi g5^2
        Self {
            g1: three_t_plus_two_z(&t25, &self.g1),
            g2: three_t_minus_two_z(&a, &self.g2),
            g4: three_t_minus_two_z(&b, &self.g4),
            g5: three_t_plus_two_z(&t14, &self.g5),
        }
    }

    /// Back to Fp12 (Karabina, section 3.2): g3 = (xi g5^2 + 3 g2^2 - 2 g4) / (4 g1) when
    /// g1 != 0, else 2 g2 g5 / g4 (both selected in constant time before one inversion; 0/0 is
    /// taken as 0, which gives the identity back); g0 = xi (2 g3^2 + g1 g5 - 3 g2 g4) + 1.
    fn decompress(&self) -> Fp12<C, N> {
        let (num, den) = self.g3_fraction();
        self.with_g3(num * den.invert().unwrap_or(Fp2::ZERO))
    }

    /// Whether the compressed squarings run on IFMA lanes: the cyclotomic switch allows them
    /// and they apply to this tower on this CPU.
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    fn on_lanes() -> bool {
        crate::backend::karabina_lanes().is_some() && super::ifma::available::<C, N>()
    }

    /// The shortest run of squarings worth compressing under the cyclotomic switch (shorter
    /// on the lanes, where a compressed squaring costs less).
    fn min_run() -> u32 {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        if Self::on_lanes() {
            return crate::backend::karabina_lanes().unwrap_or(u32::MAX);
        }
        crate::backend::karabina_min_run()
    }

    /// The compressed squares of `start` at each depth (increasing, from 1): one run, on IFMA
    /// lanes when [`Compressed::on_lanes`], scalar otherwise.
    fn square_depths<const M: usize>(start: Self, depths: &[u32; M]) -> [Self; M] {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        if Self::on_lanes() {
            if let Some(out) = super::ifma::square_depths([start.g1, start.g2, start.g4, start.g5], depths) {
                return out.map(|[g1, g2, g4, g5]| Compressed { g1, g2, g4, g5 });
            }
        }
        let mut at = [start; M];
        let mut c = start;
        let mut prev = 0;
        for (a, &d) in at.iter_mut().zip(depths) {
            for _ in prev..d {
                c = c.square();
            }
            *a = c;
            prev = d;
        }
        at
    }

    /// g3 as a fraction num / den (see [`Compressed::decompress`]), the branch chosen in
    /// constant time.
    fn g3_fraction(&self) -> (Fp2<C, N>, Fp2<C, N>) {
        let Self { g1, g2, g4, g5 } = *self;
        let (num1, den1) = self.g3_first_fraction();
        let num0 = (g2 * g5).double();
        let g1_zero = g1.is_zero();
        let num = Fp2::conditional_select(&num1, &num0, g1_zero);
        let den = Fp2::conditional_select(&den1, &g4, g1_zero);
        (num, den)
    }

    /// g3 by Karabina's first formula, (xi g5^2 + 3 g2^2 - 2 g4) / (4 g1), as a fraction (exact
    /// on the cyclotomic subgroup where g1 != 0).
    fn g3_first_fraction(&self) -> (Fp2<C, N>, Fp2<C, N>) {
        let Self { g1, g2, g4, g5 } = *self;
        let s2 = g2.square();
        (g5.square().mul_by_nonresidue() + s2.double() + s2 - g4.double(), g1.double().double())
    }

    /// The Fp12 element with this g3 (g0 follows from it).
    fn with_g3(&self, g3: Fp2<C, N>) -> Fp12<C, N> {
        let Self { g1, g2, g4, g5 } = *self;
        let g24 = g2 * g4;
        let g0 = ((g3.square().double() + g1 * g5) - g24.double() - g24).mul_by_nonresidue() + Fp2::ONE;
        Fp12 { c0: Fp6::new(g0, g2, g4), c1: Fp6::new(g1, g3, g5) }
    }
}

/// The inverses of `den` by Montgomery's trick: prefix products, one inversion of their
/// product by `invert` (`None` from it is passed on), and a backward pass. Every value must be
/// non-zero for the results to be inverses.
fn batch_inverse<C: TowerConfig<N>, const N: usize, const M: usize>(den: &[Fp2<C, N>; M], invert: impl FnOnce(&Fp2<C, N>) -> Option<Fp2<C, N>>) -> Option<[Fp2<C, N>; M]> {
    let mut prefix = [Fp2::ONE; M];
    let mut acc = Fp2::ONE;
    for i in 0..M {
        prefix[i] = acc;
        acc *= den[i];
    }
    let mut inv = invert(&acc)?;
    let mut out = [Fp2::ZERO; M];
    for i in (0..M).rev() {
        out[i] = inv * prefix[i];
        inv *= den[i];
    }
    Some(out)
}

impl<C: TowerConfig<N>, const N: usize> Fp12<C, N> {
    /// self^(2^k) for a cyclotomic self: k Granger-Scott squarings, or for runs of at least
    /// [`crate::backend::karabina_min_run`] squarings (on IFMA lanes, where the switch allows
    /// them, from [`crate::backend::KARABINA_IFMA_MIN_RUN`]), k of Karabina's compressed squarings
    /// (6 Fp2 squarings each instead of 9) and one decompression (an Fp2 inversion, constant
    /// time). The result equals k [`Fp12::cyclotomic_square`]s for every cyclotomic input.
    ///
    /// ```
    /// use zkforge_field::bls12_381::Fp12;
    /// use rand_core::OsRng;
    /// let f = Fp12::random(&mut OsRng);
    /// let g = f.conjugate() * f.invert().unwrap();
    /// let g = g.frobenius_map(2) * g; // cyclotomic
    /// let mut h = g;
    /// for _ in 0..20 {
    ///     h = h.cyclotomic_square();
    /// }
    /// assert_eq!(g.cyclotomic_square_n(20), h);
    /// ```
    pub fn cyclotomic_square_n(&self, k: u32) -> Self {
        if k >= Compressed::<C, N>::min_run() {
            let start = Compressed { g1: self.c1.c0, g2: self.c0.c1, g4: self.c0.c2, g5: self.c1.c2 };
            let [c] = Compressed::square_depths(start, &[k]);
            return c.decompress();
        }
        let mut r = *self;
        for _ in 0..k {
            r = r.cyclotomic_square();
        }
        r
    }
}

impl<C: TowerConfig<N>, const N: usize> Fp12<C, N> {
    /// f^(2^d) for each depth d of `depths` (strictly increasing, the first at least 1) of a
    /// cyclotomic f, from one run of Karabina's compressed squarings (on IFMA lanes where
    /// [`crate::backend::CyclotomicSquaring`] allows it) that keeps the compressed value at each
    /// depth, and one simultaneous decompression: the M fractions g3 = num / den share one Fp2
    /// inversion by Montgomery's trick (Aranha, Karabina, Longa, Gebotys, Lopez, "Faster
    /// explicit formulas for computing pairings over ordinary curves", ePrint 2010/526, section
    /// 5). A power by a sparse exponent sum 2^(d_i) is then the product of the results. Constant
    /// time in f (a zero denominator, which only the identity's powers have, is replaced by one
    /// before the inversion and its g3 taken as zero, as [`Fp12::cyclotomic_square_n`] does).
    ///
    /// # Panics
    /// If `depths` is empty, starts at 0 or does not increase: the depths are the bit positions
    /// of a fixed public exponent, a constant of the caller.
    ///
    /// ```
    /// use zkforge_field::bls12_381::Fp12;
    /// use rand_core::OsRng;
    /// let f = Fp12::random(&mut OsRng);
    /// let g = f.conjugate() * f.invert().unwrap();
    /// let g = g.frobenius_map(2) * g; // cyclotomic
    /// let [a, b] = g.cyclotomic_square_depths(&[3, 20]);
    /// assert_eq!(a, g.cyclotomic_square_n(3));
    /// assert_eq!(b, g.cyclotomic_square_n(20));
    /// ```
    pub fn cyclotomic_square_depths<const M: usize>(&self, depths: &[u32; M]) -> [Self; M] {
        assert!(M > 0 && depths[0] >= 1 && depths.windows(2).all(|w| w[0] < w[1]), "depths must increase from 1");
        let start = Compressed { g1: self.c1.c0, g2: self.c0.c1, g4: self.c0.c2, g5: self.c1.c2 };
        let at = Compressed::square_depths(start, depths);
        // simultaneous decompression: prefix products of the denominators, one inversion
        let mut num = [Fp2::ZERO; M];
        let mut den = [Fp2::ONE; M];
        let mut zero = [Choice::from(0u8); M];
        for i in 0..M {
            let (n, d) = at[i].g3_fraction();
            zero[i] = d.is_zero();
            num[i] = n;
            den[i] = Fp2::conditional_select(&d, &Fp2::ONE, zero[i]);
        }
        // the product of non-zero values is non-zero
        let inv = batch_inverse(&den, |d| Some(d.invert().unwrap_or(Fp2::ZERO))).unwrap_or([Fp2::ZERO; M]);
        let mut out = [Self::ONE; M];
        for i in 0..M {
            let g3 = Fp2::conditional_select(&(num[i] * inv[i]), &Fp2::ZERO, zero[i]);
            out[i] = at[i].with_g3(g3);
        }
        out
    }
}

impl<C: TowerConfig<N>, const N: usize> Fp12<C, N> {
    /// [`Fp12::cyclotomic_square_depths`] in variable time, for public values such as a Gt
    /// membership candidate: `None` when the compressed value at some depth has g1 = 0 (its
    /// decompression would take Karabina's second formula or his special case g1 = g4 = 0; the
    /// caller then squares without compression), else f^(2^d) for each depth d, by Karabina's
    /// first formula alone, g3 = (xi g5^2 + 3 g2^2 - 2 g4) / (4 g1), which is exact for every
    /// element of the cyclotomic subgroup with g1 != 0 (ePrint 2010/542, section 3.2). `self`
    /// must be cyclotomic (the caller checks that first).
    ///
    /// # Panics
    /// As [`Fp12::cyclotomic_square_depths`]: if `depths` is empty, starts at 0 or does not
    /// increase.
    ///
    /// ```
    /// use zkforge_field::bls12_381::Fp12;
    /// use rand_core::OsRng;
    /// let f = Fp12::random(&mut OsRng);
    /// let g = f.conjugate() * f.invert().unwrap();
    /// let g = g.frobenius_map(2) * g; // cyclotomic
    /// let [a, b] = g.cyclotomic_square_depths_vartime(&[3, 20]).unwrap();
    /// assert_eq!((a, b), (g.cyclotomic_square_n(3), g.cyclotomic_square_n(20)));
    /// ```
    pub fn cyclotomic_square_depths_vartime<const M: usize>(&self, depths: &[u32; M]) -> Option<[Self; M]> {
        assert!(M > 0 && depths[0] >= 1 && depths.windows(2).all(|w| w[0] < w[1]), "depths must increase from 1");
        let start = Compressed { g1: self.c1.c0, g2: self.c0.c1, g4: self.c0.c2, g5: self.c1.c2 };
        let at = Compressed::square_depths(start, depths);
        if at.iter().any(|c| bool::from(c.g1.is_zero())) {
            return None;
        }
        // g3 = num / (4 g1) at every depth, the denominators inverted together; their product is
        // non-zero (every g1 is): (a0 - a1 u) / (a0^2 + a1^2) by the variable-time Fp inverse
        let fractions = at.map(|c| c.g3_first_fraction());
        let inv = batch_inverse(&fractions.map(|(_, d)| d), |d| {
            let t = d.norm().invert_vartime()?;
            Some(Fp2::new(d.c0 * t, -(d.c1 * t)))
        })?;
        let mut out = [Self::ONE; M];
        for i in 0..M {
            out[i] = at[i].with_g3(fractions[i].0 * inv[i]);
        }
        Some(out)
    }
}

impl<C: TowerConfig<N>, const N: usize> Mul for Fp12<C, N> {
    type Output = Self;
    /// Karatsuba: aa = a0 b0, bb = a1 b1, c0 = aa + v bb, c1 = (a0 + a1)(b0 + b1) - aa - bb;
    /// reduced lazily ([`super::lazy`]) or per product, as [`crate::backend::set_tower`]
    /// selects.
    #[inline]
    fn mul(self, b: Self) -> Self {
        if super::lazy::use_lazy::<C, N>() {
            return super::lazy::fp12_mul(&self, &b);
        }
        self.mul_per_product(&b)
    }
}

impl<C: TowerConfig<N>, const N: usize> Fp12<C, N> {
    /// Karatsuba with per-product reduction (the reference formulas of `*`).
    #[inline]
    pub fn mul_per_product(&self, b: &Self) -> Self {
        let aa = self.c0.mul_per_product(&b.c0);
        let bb = self.c1.mul_per_product(&b.c1);
        let c1 = (self.c0 + self.c1).mul_per_product(&(b.c0 + b.c1)) - aa - bb;
        Self { c0: aa + bb.mul_by_nonresidue(), c1 }
    }
}
impl<C: TowerConfig<N>, const N: usize> Add for Fp12<C, N> {
    type Output = Self;
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        Self { c0: self.c0 + b.c0, c1: self.c1 + b.c1 }
    }
}
impl<C: TowerConfig<N>, const N: usize> Sub for Fp12<C, N> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        Self { c0: self.c0 - b.c0, c1: self.c1 - b.c1 }
    }
}
impl<C: TowerConfig<N>, const N: usize> Neg for Fp12<C, N> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self { c0: -self.c0, c1: -self.c1 }
    }
}
impl<C: TowerConfig<N>, const N: usize> AddAssign for Fp12<C, N> {
    #[inline(always)]
    fn add_assign(&mut self, b: Self) {
        *self = *self + b;
    }
}
impl<C: TowerConfig<N>, const N: usize> SubAssign for Fp12<C, N> {
    #[inline(always)]
    fn sub_assign(&mut self, b: Self) {
        *self = *self - b;
    }
}
impl<C: TowerConfig<N>, const N: usize> MulAssign for Fp12<C, N> {
    #[inline(always)]
    fn mul_assign(&mut self, b: Self) {
        *self = *self * b;
    }
}
impl<C: TowerConfig<N>, const N: usize> ConstantTimeEq for Fp12<C, N> {
    fn ct_eq(&self, o: &Self) -> Choice {
        self.c0.ct_eq(&o.c0) & self.c1.ct_eq(&o.c1)
    }
}
impl<C: TowerConfig<N>, const N: usize> ConditionallySelectable for Fp12<C, N> {
    fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
        Self { c0: Fp6::conditional_select(&a.c0, &b.c0, c), c1: Fp6::conditional_select(&a.c1, &b.c1, c) }
    }
}
impl<C: TowerConfig<N>, const N: usize> PartialEq for Fp12<C, N> {
    fn eq(&self, o: &Self) -> bool {
        self.ct_eq(o).into()
    }
}
impl<C: TowerConfig<N>, const N: usize> Eq for Fp12<C, N> {}
impl<C: TowerConfig<N>, const N: usize> Default for Fp12<C, N> {
    fn default() -> Self {
        Self::ZERO
    }
}

#[cfg(all(test, feature = "std", target_arch = "x86_64"))]
mod lane_tests {
    use super::super::ifma as lanes;
    use super::Compressed;
    use crate::bls12_381::{Fp, Fp2};
    use rand::{rngs::StdRng, RngCore, SeedableRng};

    /// The compressed squaring is a polynomial map, so the lanes must equal the scalar formulas
    /// on any four Fp2 values, not only on compressed cyclotomic elements: random values and
    /// every combination of the edge values 0, 1, 2, p - 1, p - 2 in the eight coordinates'
    /// positions (the largest canonical inputs stress the lazy bounds), for several run lengths
    /// and depth lists.
    #[test]
    fn lanes_equal_the_scalar_compressed_squaring() {
        if !lanes::available::<crate::bls12_381::FpConfig, 6>() {
            eprintln!("no AVX-512 IFMA on this CPU: the lane kernel is not exercised here");
            return;
        }
        let edges = [Fp::ZERO, Fp::ONE, Fp::from_u64(2), -Fp::ONE, -Fp::from_u64(2)];
        let mut rng = StdRng::seed_from_u64(0x1234_5678_9abc_def0);
        let mut cases: Vec<[Fp2; 4]> = Vec::new();
        for _ in 0..200 {
            let mut v = [Fp2::ZERO; 4];
            for e in v.iter_mut() {
                let mut pick = || if rng.next_u32() % 4 == 0 { edges[rng.next_u32() as usize % edges.len()] } else { Fp::random(&mut rng) };
                *e = Fp2::new(pick(), pick());
            }
            cases.push(v);
        }
        for e in edges {
            cases.push([Fp2::new(e, e); 4]);
            cases.push([Fp2::new(e, -e), Fp2::new(-e, e), Fp2::new(e, Fp::ZERO), Fp2::new(Fp::ZERO, e)]);
        }
        for g in &cases {
            let mut c = Compressed { g1: g[0], g2: g[1], g4: g[2], g5: g[3] };
            let mut want = Vec::new();
            for _ in 0..17 {
                c = c.square();
                want.push([c.g1, c.g2, c.g4, c.g5]);
            }
            for k in [1u32, 2, 5, 17] {
                assert_eq!(lanes::square_depths(*g, &[k]).unwrap(), [want[k as usize - 1]], "k = {k}, {g:?}");
            }
            let got = lanes::square_depths(*g, &[1, 3, 4, 16, 17]).unwrap();
            assert_eq!(got, [1usize, 3, 4, 16, 17].map(|k| want[k - 1]), "{g:?}");
        }
    }
}

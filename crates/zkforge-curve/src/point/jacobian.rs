//! Jacobian points: complete constant-time additions and doubling, `_vartime` ones for
//! public data, normalisation (one and many), multiplication by public integers, cofactor
//! clearing, and the operator impls. Formulas: see the module docs of `point`.

use alloc::vec::Vec;
use core::ops::{Add, AddAssign, Neg, Sub, SubAssign};

use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};

use super::{naf_u64, Affine, Jacobian, Xyzz};
use crate::config::CurveConfig;
use crate::field::CurveField;

impl<C: CurveConfig> Jacobian<C> {
    /// The identity (1, 1, 0).
    pub const IDENTITY: Self = Self { x: C::Base::ONE, y: C::Base::ONE, z: C::Base::ZERO };

    /// The group generator.
    pub fn generator() -> Self {
        Affine::<C>::generator().to_jacobian()
    }

    /// True for the identity (Z = 0).
    #[inline(always)]
    pub fn is_identity(&self) -> Choice {
        self.z.is_zero()
    }

    /// The point with Jacobian coordinates (X, Y, Z), without any check (see [`Affine`] for
    /// what an unchecked point may be used for).
    pub const fn from_xyz_unchecked(x: C::Base, y: C::Base, z: C::Base) -> Self {
        Self { x, y, z }
    }

    /// X = x Z^2.
    #[inline(always)]
    pub fn x(&self) -> C::Base {
        self.x
    }

    /// Y = y Z^3.
    #[inline(always)]
    pub fn y(&self) -> C::Base {
        self.y
    }

    /// Z (zero for the identity).
    #[inline(always)]
    pub fn z(&self) -> C::Base {
        self.z
    }

    /// Map any curve point into the prime-order subgroup: multiplication by the effective
    /// cofactor h_eff of RFC 9380 (BLS12-381 G1: 1 - z; G2: Budroni-Pintore; BN254 G1: 1;
    /// BN254 G2: the twist cofactor).
    ///
    /// ```
    /// use zkforge_curve::bls12_381::G1Projective;
    /// let g = G1Projective::generator();
    /// assert!(g.clear_cofactor().to_affine().is_in_subgroup());
    /// ```
    pub fn clear_cofactor(&self) -> Self {
        C::clear_cofactor(self)
    }

    /// Y^2 = X^3 + a X Z^4 + b Z^6.
    pub fn is_on_curve(&self) -> bool {
        let z2 = self.z.square();
        let z4 = z2.square();
        let z6 = z4 * z2;
        let rhs = C::plus_a_times(self.x.square() * self.x + C::mul_by_b(&z6), || self.x * z4);
        bool::from(self.is_identity()) || self.y.square() == rhs
    }

    /// Doubling, `dbl-2009-l` (EFD) rearranged to 3M + 4S for a = 0, with Y3's product and
    /// square reduced together where the field allows ([`CurveField::mul_sub_double_square`]);
    /// with a != 0 the `dbl-2007-bl` slope numerator 3X^2 + a Z^4 (two more S and a
    /// multiplication by a). Complete (the identity and 2-torsion map to the identity).
    #[inline]
    pub fn double(&self) -> Self {
        // with B2 = 2 Y^2: D = 4 X Y^2 = 2 X B2, 8 Y^4 = 2 B2^2 (one product and one square
        // where dbl-2009-l's D = 2((X + B)^2 - A - C) and 8 C take two squares and five
        // additions; 0.95-0.97 of that form on all four groups, `examples/double_forms.rs`)
        let a = self.x.square();
        let b2 = self.y.square().double();
        let d = (self.x * b2).double();
        let e = C::plus_a_times(a.double() + a, || self.z.square().square());
        let x3 = e.square() - d.double();
        let y3 = C::Base::mul_sub_double_square(&e, &(d - x3), &b2);
        let z3 = (self.y * self.z).double();
        Self { x: x3, y: y3, z: z3 }
    }

    /// [`Jacobian::double`] n times, one after the other (the scalar route of
    /// [`CurveConfig::double_n`]).
    #[inline]
    pub(crate) fn double_times(&self, n: u32) -> Self {
        let mut acc = *self;
        for _ in 0..n {
            acc = acc.double();
        }
        acc
    }

    /// `add-2007-bl` core without special cases; returns (sum, H == 0, R == 0). Y3's two
    /// products share one reduction where the field allows ([`CurveField::mul_sub_mul`]).
    #[inline(always)]
    fn add_core(&self, o: &Self) -> (Self, Choice, Choice) {
        let z1z1 = self.z.square();
        let z2z2 = o.z.square();
        let u1 = self.x * z2z2;
        let u2 = o.x * z1z1;
        let s1 = self.y * o.z * z2z2;
        let s2 = o.y * self.z * z1z1;
        let h = u2 - u1;
        let i = h.double().square();
        let j = h * i;
        let r = (s2 - s1).double();
        let v = u1 * i;
        let x3 = r.square() - j - v.double();
        let y3 = C::Base::mul_sub_mul(&r, &(v - x3), &s1, &j.double());
        let z3 = ((self.z + o.z).square() - z1z1 - z2z2) * h;
        (Self { x: x3, y: y3, z: z3 }, h.is_zero(), r.is_zero())
    }

    /// `madd-2007-bl` core (o has Z = 1, o not the identity); returns (sum, H == 0, R == 0).
    /// Y3 as in [`Jacobian::add_core`].
    #[inline(always)]
    fn add_mixed_core(&self, o: &Affine<C>) -> (Self, Choice, Choice) {
        let z1z1 = self.z.square();
        let u2 = o.x * z1z1;
        let s2 = o.y * self.z * z1z1;
        let h = u2 - self.x;
        let hh = h.square();
        let i = hh.double().double();
        let j = h * i;
        let r = (s2 - self.y).double();
        let v = self.x * i;
        let x3 = r.square() - j - v.double();
        let y3 = C::Base::mul_sub_mul(&r, &(v - x3), &self.y, &j.double());
        let z3 = (self.z + h).square() - z1z1 - hh;
        (Self { x: x3, y: y3, z: z3 }, h.is_zero(), r.is_zero())
    }

    /// Shared tail of the unified additions: from U1 = x1 D^2, U2, S1 = y1 D^3, S2 (D the
    /// common denominator Z1 Z2) it computes P1 + P2, or 2 P1 when the points are equal, with
    /// the same operations: the chord numerator/denominator (R, H) = (S2 - S1, U2 - U1) is
    /// replaced by the tangent's (3 U1^2, 2 S1) when H = R = 0, and the tail uses
    /// X3 = R^2 - H^2 (U1 + U2), Y3 = R (U1 H^2 - X3) - S1 H^3, Z3 = D H, which holds for both.
    /// H^2 (U1 + U2) is formed as 2 V + H^3 (chord) or 2 V (tangent) from V = U1 H^2, which Y3
    /// needs anyway: one product fewer than multiplying it out (the same coordinates).
    #[inline(always)]
    fn unified_tail(u1: C::Base, u2: C::Base, s1: C::Base, s2: C::Base, d: C::Base) -> Self {
        let h = u2 - u1;
        let r = s2 - s1;
        let is_dbl = h.is_zero() & r.is_zero();
        let u1u1 = u1.square();
        let h = C::Base::conditional_select(&h, &s1.double(), is_dbl);
        let tangent = C::plus_a_times(u1u1.double() + u1u1, || d.square().square());
        let r = C::Base::conditional_select(&r, &tangent, is_dbl);
        let hh = h.square();
        let hhh = hh * h;
        let v = u1 * hh;
        // H^2 (U1 + U2) without its own product: for the chord U2 = U1 + H, so it is
        // 2 V + H^3; for the tangent U2 = U1 (and H was replaced by 2 S1), so it is 2 V.
        let chord_hhh = C::Base::conditional_select(&hhh, &C::Base::ZERO, is_dbl);
        let x3 = r.square() - v.double() - chord_hhh;
        let y3 = C::Base::mul_sub_mul(&r, &(v - x3), &s1, &hhh);
        Self { x: x3, y: y3, z: d * h }
    }

    /// Complete addition in constant time (12M + 5S): one unified formula for the chord and
    /// the tangent (see `unified_tail`), identity inputs selected.
    #[inline]
    pub fn add(&self, o: &Self) -> Self {
        let z1z1 = self.z.square();
        let z2z2 = o.z.square();
        let u1 = self.x * z2z2;
        let u2 = o.x * z1z1;
        let s1 = self.y * o.z * z2z2;
        let s2 = o.y * self.z * z1z1;
        let out = Self::unified_tail(u1, u2, s1, s2, self.z * o.z);
        let out = Self::conditional_select(&out, o, self.is_identity());
        Self::conditional_select(&out, self, o.is_identity())
    }

    /// Complete mixed addition in constant time (8M + 4S), unified like [`Jacobian::add`].
    #[inline]
    pub fn add_mixed(&self, o: &Affine<C>) -> Self {
        let z1z1 = self.z.square();
        let u2 = o.x * z1z1;
        let s2 = o.y * self.z * z1z1;
        let out = Self::unified_tail(self.x, u2, self.y, s2, self.z);
        let out = Self::conditional_select(&out, &o.to_jacobian(), self.is_identity());
        Self::conditional_select(&out, self, o.is_identity())
    }

    /// Addition that branches on the special cases (public data).
    #[inline]
    pub fn add_vartime(&self, o: &Self) -> Self {
        if bool::from(self.is_identity()) {
            return *o;
        }
        if bool::from(o.is_identity()) {
            return *self;
        }
        let (sum, h0, r0) = self.add_core(o);
        if bool::from(h0) {
            return if bool::from(r0) { self.double() } else { Self::IDENTITY };
        }
        sum
    }

    /// Mixed addition that branches on the special cases (public data).
    #[inline]
    pub fn add_mixed_vartime(&self, o: &Affine<C>) -> Self {
        if o.is_identity_vartime() {
            return *self;
        }
        if bool::from(self.is_identity()) {
            return o.to_jacobian();
        }
        let (sum, h0, r0) = self.add_mixed_core(o);
        if bool::from(h0) {
            return if bool::from(r0) { o.double_affine() } else { Self::IDENTITY };
        }
        sum
    }

    /// To affine with one inversion (constant time).
    pub fn to_affine(&self) -> Affine<C> {
        let zinv = self.z.invert().unwrap_or(C::Base::ZERO);
        let zinv2 = zinv.square();
        let x = self.x * zinv2;
        let y = self.y * zinv2 * zinv;
        let inf = self.is_identity();
        Affine { x: C::Base::conditional_select(&x, &C::Base::ZERO, inf), y: C::Base::conditional_select(&y, &C::Base::ZERO, inf) }
    }

    /// To affine with a variable-time inversion (binary extended Euclid), for public points
    /// such as precompile outputs: the same result as [`Jacobian::to_affine`], faster.
    pub fn to_affine_vartime(&self) -> Affine<C> {
        match self.z.invert_vartime() {
            None => Affine::IDENTITY,
            Some(zinv) => {
                let zinv2 = zinv.square();
                Affine { x: self.x * zinv2, y: self.y * zinv2 * zinv }
            }
        }
    }

    /// Normalise many points to affine with a single inversion (Montgomery's trick).
    pub fn batch_to_affine(points: &[Self]) -> Vec<Affine<C>> {
        let mut zs: Vec<C::Base> = points.iter().map(|p| p.z).collect();
        C::Base::batch_invert(&mut zs);
        points
            .iter()
            .zip(zs)
            .map(|(p, zinv)| {
                if bool::from(p.is_identity()) {
                    Affine::IDENTITY
                } else {
                    let zinv2 = zinv.square();
                    Affine { x: p.x * zinv2, y: p.y * zinv2 * zinv }
                }
            })
            .collect()
    }

    /// [`Jacobian::batch_to_affine`] in variable time, for public points: one variable-time
    /// inversion (Montgomery's trick over the non-identity points), branches on identities.
    pub fn batch_to_affine_vartime(points: &[Self]) -> Vec<Affine<C>> {
        let mut prefix = Vec::with_capacity(points.len());
        let mut acc = C::Base::ONE;
        for p in points {
            prefix.push(acc);
            if !bool::from(p.is_identity()) {
                acc *= p.z;
            }
        }
        let mut inv = acc.invert_vartime().unwrap_or(C::Base::ZERO);
        let mut out = alloc::vec![Affine::IDENTITY; points.len()];
        for (i, p) in points.iter().enumerate().rev() {
            if bool::from(p.is_identity()) {
                continue;
            }
            let zinv = inv * prefix[i];
            inv *= p.z;
            let zinv2 = zinv.square();
            out[i] = Affine { x: p.x * zinv2, y: p.y * zinv2 * zinv };
        }
        out
    }

    /// Multiply by a little-endian integer of any length, double-and-add (variable time; for
    /// public scalars such as the group order or a cofactor).
    pub fn mul_bigint_vartime(&self, k: &[u64]) -> Self {
        let mut acc = Self::IDENTITY;
        for limb in k.iter().rev() {
            for i in (0..64).rev() {
                acc = acc.double();
                if (limb >> i) & 1 == 1 {
                    acc = acc.add_vartime(self);
                }
            }
        }
        acc
    }

    /// Multiply by a u64 (variable time, NAF).
    pub fn mul_u64_vartime(&self, k: u64) -> Self {
        let (naf, len) = naf_u64(k);
        let neg = -*self;
        let mut acc = Self::IDENTITY;
        for &d in naf[..len].iter().rev() {
            acc = acc.double();
            match d {
                1 => acc = acc.add_vartime(self),
                -1 => acc = acc.add_vartime(&neg),
                _ => {}
            }
        }
        acc
    }

    /// To XYZZ (ZZ = Z^2, ZZZ = Z^3, X and Y unchanged).
    pub fn to_xyzz(&self) -> Xyzz<C> {
        let zz = self.z.square();
        Xyzz { x: self.x, y: self.y, zz, zzz: zz * self.z }
    }
}

impl<C: CurveConfig> ConditionallySelectable for Jacobian<C> {
    #[inline(always)]
    fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
        Self { x: C::Base::conditional_select(&a.x, &b.x, c), y: C::Base::conditional_select(&a.y, &b.y, c), z: C::Base::conditional_select(&a.z, &b.z, c) }
    }
}

impl<C: CurveConfig> ConstantTimeEq for Jacobian<C> {
    /// Equality of the represented points: X1 Z2^2 = X2 Z1^2 and Y1 Z2^3 = Y2 Z1^3, or both
    /// identities.
    fn ct_eq(&self, o: &Self) -> Choice {
        let z1z1 = self.z.square();
        let z2z2 = o.z.square();
        let xe = (self.x * z2z2).ct_eq(&(o.x * z1z1));
        let ye = (self.y * z2z2 * o.z).ct_eq(&(o.y * z1z1 * self.z));
        let i1 = self.is_identity();
        let i2 = o.is_identity();
        (i1 & i2) | (!i1 & !i2 & xe & ye)
    }
}
impl<C: CurveConfig> PartialEq for Jacobian<C> {
    fn eq(&self, o: &Self) -> bool {
        self.ct_eq(o).into()
    }
}
impl<C: CurveConfig> Eq for Jacobian<C> {}
impl<C: CurveConfig> PartialEq<Affine<C>> for Jacobian<C> {
    fn eq(&self, o: &Affine<C>) -> bool {
        *self == o.to_jacobian()
    }
}

impl<C: CurveConfig> Default for Jacobian<C> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<C: CurveConfig> Neg for Jacobian<C> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self { x: self.x, y: -self.y, z: self.z }
    }
}
impl<C: CurveConfig> Jacobian<C> {
    /// Negate when `c` is set, in constant time.
    #[inline(always)]
    pub fn conditional_negate(&mut self, c: Choice) {
        self.y = C::Base::conditional_select(&self.y, &-self.y, c);
    }
}
impl<C: CurveConfig> Add for Jacobian<C> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Jacobian::add(&self, &o)
    }
}
impl<C: CurveConfig> Sub for Jacobian<C> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Jacobian::add(&self, &-o)
    }
}
impl<C: CurveConfig> AddAssign for Jacobian<C> {
    fn add_assign(&mut self, o: Self) {
        *self = Jacobian::add(self, &o);
    }
}
impl<C: CurveConfig> SubAssign for Jacobian<C> {
    fn sub_assign(&mut self, o: Self) {
        *self = Jacobian::add(self, &-o);
    }
}
impl<C: CurveConfig> Add<Affine<C>> for Jacobian<C> {
    type Output = Self;
    fn add(self, o: Affine<C>) -> Self {
        self.add_mixed(&o)
    }
}
impl<C: CurveConfig> From<Affine<C>> for Jacobian<C> {
    fn from(a: Affine<C>) -> Self {
        a.to_jacobian()
    }
}

//! Affine points: checked and unchecked construction, accessors, conversions, the
//! identity (0, 0), negation, small multiples and affine doubling.

use core::ops::Neg;

use subtle::{Choice, ConditionallySelectable};

use super::{naf_u64, Affine, Jacobian, Xyzz};
use crate::config::CurveConfig;
use crate::field::CurveField;
use crate::CurveError;

impl<C: CurveConfig> Affine<C> {
    /// The point at infinity.
    pub const IDENTITY: Self = Self { x: C::Base::ZERO, y: C::Base::ZERO };

    /// The group generator.
    pub fn generator() -> Self {
        Self { x: C::GENERATOR.0, y: C::GENERATOR.1 }
    }

    /// The point (x, y), checked: on the curve ([`CurveError::NotOnCurve`] otherwise) and in the
    /// prime-order subgroup ([`CurveError::NotInSubgroup`] otherwise). The identity has no
    /// affine coordinates: use [`Affine::IDENTITY`].
    ///
    /// ```
    /// use zkforge_curve::bls12_381::G1Affine;
    /// let g = G1Affine::generator();
    /// assert_eq!(G1Affine::from_xy(g.x(), g.y()), Ok(g));
    /// assert!(G1Affine::from_xy(g.x(), g.x()).is_err());
    /// ```
    pub fn from_xy(x: C::Base, y: C::Base) -> Result<Self, CurveError> {
        let p = Self { x, y };
        // the curve equation itself: (0, 0), the identity's representation, is not on it
        if y.square() != C::plus_a_times(x.square() * x + C::B, || x) {
            return Err(CurveError::NotOnCurve);
        }
        if !C::is_torsion_free_vartime(&p) {
            return Err(CurveError::NotInSubgroup);
        }
        Ok(p)
    }

    /// The point (x, y) without any check. The caller promises a point of the prime-order
    /// subgroup; on anything else scalar multiplication and MSM give wrong multiples (see the
    /// type's documentation). Check later with [`Affine::is_in_subgroup`]. (0, 0) is the identity.
    pub const fn new_unchecked(x: C::Base, y: C::Base) -> Self {
        Self { x, y }
    }

    /// The x coordinate (zero for the identity).
    #[inline(always)]
    pub fn x(&self) -> C::Base {
        self.x
    }

    /// The y coordinate (zero for the identity).
    #[inline(always)]
    pub fn y(&self) -> C::Base {
        self.y
    }

    /// True for the identity (a `Choice`, like [`Jacobian::is_identity`]).
    #[inline(always)]
    pub fn is_identity(&self) -> Choice {
        self.x.is_zero() & self.y.is_zero()
    }

    /// [`Affine::is_identity`] as a `bool`, for public points.
    #[inline(always)]
    pub(crate) fn is_identity_vartime(&self) -> bool {
        bool::from(self.is_identity())
    }

    /// y^2 = x^3 + b (the identity counts as on the curve).
    pub fn is_on_curve(&self) -> bool {
        self.is_identity_vartime() || self.y.square() == C::plus_a_times(self.x.square() * self.x + C::B, || self.x)
    }

    /// In the prime-order subgroup (includes the on-curve check).
    pub fn is_in_subgroup(&self) -> bool {
        self.is_on_curve() && C::is_torsion_free_vartime(self)
    }

    /// To Jacobian (Z = 1, or Z = 0 for the identity).
    pub fn to_jacobian(&self) -> Jacobian<C> {
        let z = C::Base::conditional_select(&C::Base::ONE, &C::Base::ZERO, self.is_identity());
        Jacobian { x: self.x, y: self.y, z }
    }

    /// To XYZZ.
    pub fn to_xyzz(&self) -> Xyzz<C> {
        let z = C::Base::conditional_select(&C::Base::ONE, &C::Base::ZERO, self.is_identity());
        Xyzz { x: self.x, y: self.y, zz: z, zzz: z }
    }
}

impl<C: CurveConfig> Affine<C> {
    /// P + Q in affine coordinates with one variable-time inversion (chord, or tangent when
    /// P = Q: lambda = (3x^2 + a) / 2y), for public points such as precompile inputs.
    /// Valid for any points on the curve, in the subgroup or not.
    ///
    /// ```
    /// use zkforge_curve::bn254::G1Affine;
    /// let g = G1Affine::generator();
    /// assert_eq!(g.add_vartime(&g), g.to_jacobian().double().to_affine());
    /// assert_eq!(g.add_vartime(&-g), G1Affine::IDENTITY);
    /// ```
    pub fn add_vartime(&self, o: &Self) -> Self {
        if self.is_identity_vartime() {
            return *o;
        }
        if o.is_identity_vartime() {
            return *self;
        }
        let (num, den) = if self.x == o.x {
            if self.y != o.y || bool::from(self.y.is_zero()) {
                // Q = -P (a point of order 2 would have y = 0; none exists here, but the tangent
                // is vertical all the same)
                return Self::IDENTITY;
            }
            let xx = self.x.square();
            (C::plus_a_times(xx.double() + xx, || C::Base::ONE), self.y.double())
        } else {
            (o.y - self.y, o.x - self.x)
        };
        let lambda = num * den.invert_vartime().expect("a non-zero denominator");
        let x3 = lambda.square() - self.x - o.x;
        let y3 = lambda * (self.x - x3) - self.y;
        Self { x: x3, y: y3 }
    }
}

impl<C: CurveConfig> PartialEq for Affine<C> {
    fn eq(&self, o: &Self) -> bool {
        self.x == o.x && self.y == o.y
    }
}
impl<C: CurveConfig> Eq for Affine<C> {}

impl<C: CurveConfig> Default for Affine<C> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<C: CurveConfig> Neg for Affine<C> {
    type Output = Self;
    fn neg(self) -> Self {
        // -(0, 0) = (0, 0): the identity needs no case
        Self { x: self.x, y: -self.y }
    }
}

impl<C: CurveConfig> ConditionallySelectable for Affine<C> {
    fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
        Self { x: C::Base::conditional_select(&a.x, &b.x, c), y: C::Base::conditional_select(&a.y, &b.y, c) }
    }
}

impl<C: CurveConfig> Affine<C> {
    /// k P for a public u64 k (NAF, mixed additions of the affine base; variable time).
    pub fn mul_u64_vartime(&self, k: u64) -> Jacobian<C> {
        let (naf, len) = naf_u64(k);
        let neg = -*self;
        let mut acc = Jacobian::<C>::IDENTITY;
        for &d in naf[..len].iter().rev() {
            acc = acc.double();
            match d {
                1 => acc = acc.add_mixed_vartime(self),
                -1 => acc = acc.add_mixed_vartime(&neg),
                _ => {}
            }
        }
        acc
    }

    /// 2P for an affine P as a Jacobian point, `mdbl-2007-bl`: 1M + 5S (M = 3x^2 + a).
    #[inline]
    pub fn double_affine(&self) -> Jacobian<C> {
        let xx = self.x.square();
        let yy = self.y.square();
        let yyyy = yy.square();
        let s = ((self.x + yy).square() - xx - yyyy).double();
        let m = C::plus_a_times(xx.double() + xx, || C::Base::ONE);
        let t = m.square() - s.double();
        let x3 = t;
        let y3 = m * (s - t) - yyyy.double().double().double();
        let z3 = self.y.double();
        let p = Jacobian { x: x3, y: y3, z: z3 };
        Jacobian::conditional_select(&p, &Jacobian::IDENTITY, self.is_identity())
    }
}

impl<C: CurveConfig> From<Jacobian<C>> for Affine<C> {
    fn from(p: Jacobian<C>) -> Self {
        p.to_affine()
    }
}

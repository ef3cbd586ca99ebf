//! Points of y^2 = x^3 + b (a = 0) in affine, Jacobian and extended Jacobian (XYZZ) coordinates.
//!
//! Formulas (Explicit-Formulas Database, hyperelliptic.org/EFD, "g1p/auto-shortw-jacobian-0" and
//! "auto-shortw-xyzz"):
//! - Jacobian doubling `dbl-2009-l` (2M + 5S), addition `add-2007-bl` (11M + 5S), mixed addition
//!   `madd-2007-bl` (7M + 4S), affine doubling `mdbl-2007-bl` (1M + 5S); the constant-time
//!   `add`/`add_mixed` use a unified chord-or-tangent form of the same formulas (13M + 5S and
//!   9M + 4S, no separate doubling to compute and select);
//! - XYZZ addition `add-2008-s` (12M + 2S), mixed `madd-2008-s` (8M + 2S), doubling
//!   `dbl-2008-s-1` (6M + 4S), mixed doubling `mdbl-2008-s-1` (4M + 3S).
//!
//! Jacobian (X, Y, Z) is x = X/Z^2, y = Y/Z^3, the identity has Z = 0. XYZZ (X, Y, ZZ, ZZZ) is
//! x = X/ZZ, y = Y/ZZZ with ZZ^3 = ZZZ^2, identity ZZ = 0.
//!
//! `add`/`add_mixed` are complete and constant time (the doubling and identity cases are
//! selected, not branched on); `*_vartime` variants branch and are for public data.

use core::fmt;
use core::ops::{Add, AddAssign, Neg, Sub, SubAssign};

use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};

use crate::config::CurveConfig;
use crate::field::CurveField;
use crate::CurveError;

/// A point in affine coordinates; the identity is flagged (its x, y are zero).
///
/// The type stands for an element of the prime-order subgroup: every safe constructor
/// ([`Affine::from_xy`], the checked decoders, the group operations, hash-to-curve, cofactor
/// clearing) yields one, and scalar multiplication by `Fr` and the MSM rely on it (their
/// endomorphism split is only valid there). Points that skip the checks come only from
/// functions named `_unchecked` (and the raw `map_to_curve_*` maps, whose outputs are meant for
/// [`Jacobian::clear_cofactor`]); on such a point only the group law, the checks and
/// [`Jacobian::mul_bigint_vartime`] are meaningful.
pub struct Affine<C: CurveConfig> {
    pub(crate) x: C::Base,
    pub(crate) y: C::Base,
    pub(crate) infinity: bool,
}

/// A point in Jacobian coordinates (X, Y, Z): x = X/Z^2, y = Y/Z^3, Z = 0 for the identity.
/// Like [`Affine`], a prime-order-subgroup element unless built by an `_unchecked` function.
pub struct Jacobian<C: CurveConfig> {
    pub(crate) x: C::Base,
    pub(crate) y: C::Base,
    pub(crate) z: C::Base,
}

/// A point in extended Jacobian (XYZZ) coordinates, the bucket format of MSM:
/// x = X/ZZ, y = Y/ZZZ with ZZ^3 = ZZZ^2, ZZ = 0 for the identity.
pub struct Xyzz<C: CurveConfig> {
    pub(crate) x: C::Base,
    pub(crate) y: C::Base,
    pub(crate) zz: C::Base,
    pub(crate) zzz: C::Base,
}

macro_rules! copy_clone {
    ($t:ident) => {
        impl<C: CurveConfig> Clone for $t<C> {
            #[inline(always)]
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<C: CurveConfig> Copy for $t<C> {}
    };
}
copy_clone!(Affine);
copy_clone!(Jacobian);
copy_clone!(Xyzz);

impl<C: CurveConfig> fmt::Debug for Affine<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.infinity {
            write!(f, "{}::Affine(infinity)", C::NAME)
        } else {
            write!(f, "{}::Affine({:?}, {:?})", C::NAME, self.x, self.y)
        }
    }
}
impl<C: CurveConfig> fmt::Debug for Jacobian<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_affine(), f)
    }
}
impl<C: CurveConfig> fmt::Debug for Xyzz<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_affine(), f)
    }
}

/// Non-adjacent form of k, least significant digit first, and its length.
fn naf_u64(k: u64) -> ([i8; 66], usize) {
    let mut naf = [0i8; 66];
    let mut n = k as u128;
    let mut len = 0;
    while n > 0 {
        if n & 1 == 1 {
            let d = 2 - (n & 3) as i8;
            naf[len] = d;
            n = (n as i128 - d as i128) as u128;
        }
        n >>= 1;
        len += 1;
    }
    (naf, len)
}

// ---------------------------------------------------------------------------------------------
// Affine

impl<C: CurveConfig> Affine<C> {
    /// The point at infinity.
    pub const IDENTITY: Self = Self { x: C::Base::ZERO, y: C::Base::ZERO, infinity: true };

    /// The group generator.
    pub fn generator() -> Self {
        Self { x: C::GENERATOR.0, y: C::GENERATOR.1, infinity: false }
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
        let p = Self { x, y, infinity: false };
        if !p.is_on_curve() {
            return Err(CurveError::NotOnCurve);
        }
        if !C::is_torsion_free_vartime(&p) {
            return Err(CurveError::NotInSubgroup);
        }
        Ok(p)
    }

    /// The point (x, y) without any check. The caller promises a point of the prime-order
    /// subgroup; on anything else scalar multiplication and MSM give wrong multiples (see the
    /// type's documentation). Check later with [`Affine::is_in_subgroup`].
    pub const fn new_unchecked(x: C::Base, y: C::Base) -> Self {
        Self { x, y, infinity: false }
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
        Choice::from(self.infinity as u8)
    }

    /// y^2 = x^3 + b (the identity counts as on the curve).
    pub fn is_on_curve(&self) -> bool {
        self.infinity || self.y.square() == self.x.square() * self.x + C::B
    }

    /// In the prime-order subgroup (includes the on-curve check).
    pub fn is_in_subgroup(&self) -> bool {
        self.is_on_curve() && C::is_torsion_free_vartime(self)
    }

    /// To Jacobian (Z = 1, or Z = 0 for the identity).
    pub fn to_jacobian(&self) -> Jacobian<C> {
        let z = C::Base::conditional_select(&C::Base::ONE, &C::Base::ZERO, Choice::from(self.infinity as u8));
        Jacobian { x: self.x, y: self.y, z }
    }

    /// To XYZZ.
    pub fn to_xyzz(&self) -> Xyzz<C> {
        let z = C::Base::conditional_select(&C::Base::ONE, &C::Base::ZERO, Choice::from(self.infinity as u8));
        Xyzz { x: self.x, y: self.y, zz: z, zzz: z }
    }
}

impl<C: CurveConfig> PartialEq for Affine<C> {
    fn eq(&self, o: &Self) -> bool {
        (self.infinity && o.infinity) || (!self.infinity && !o.infinity && self.x == o.x && self.y == o.y)
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
        Self { x: self.x, y: C::Base::conditional_select(&-self.y, &self.y, Choice::from(self.infinity as u8)), infinity: self.infinity }
    }
}

impl<C: CurveConfig> ConditionallySelectable for Affine<C> {
    fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
        let inf = u8::conditional_select(&(a.infinity as u8), &(b.infinity as u8), c);
        Self { x: C::Base::conditional_select(&a.x, &b.x, c), y: C::Base::conditional_select(&a.y, &b.y, c), infinity: inf == 1 }
    }
}

// ---------------------------------------------------------------------------------------------
// Jacobian

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

    /// Y^2 = X^3 + b Z^6.
    pub fn is_on_curve(&self) -> bool {
        let z2 = self.z.square();
        let z6 = z2.square() * z2;
        bool::from(self.is_identity()) || self.y.square() == self.x.square() * self.x + C::mul_by_b(&z6)
    }

    /// Doubling, `dbl-2009-l`: 2M + 5S. Complete (the identity and 2-torsion map to the identity).
    #[inline]
    pub fn double(&self) -> Self {
        let a = self.x.square();
        let b = self.y.square();
        let c = b.square();
        let d = ((self.x + b).square() - a - c).double();
        let e = a.double() + a;
        let f = e.square();
        let x3 = f - d.double();
        let c8 = c.double().double().double();
        let y3 = e * (d - x3) - c8;
        let z3 = (self.y * self.z).double();
        Self { x: x3, y: y3, z: z3 }
    }

    /// `add-2007-bl` core without special cases; returns (sum, H == 0, R == 0).
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
        let y3 = r * (v - x3) - (s1 * j).double();
        let z3 = ((self.z + o.z).square() - z1z1 - z2z2) * h;
        (Self { x: x3, y: y3, z: z3 }, h.is_zero(), r.is_zero())
    }

    /// `madd-2007-bl` core (o has Z = 1, o not the identity); returns (sum, H == 0, R == 0).
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
        let y3 = r * (v - x3) - (self.y * j).double();
        let z3 = (self.z + h).square() - z1z1 - hh;
        (Self { x: x3, y: y3, z: z3 }, h.is_zero(), r.is_zero())
    }

    /// Shared tail of the unified additions: from U1 = x1 D^2, U2, S1 = y1 D^3, S2 (D the
    /// common denominator Z1 Z2) it computes P1 + P2, or 2 P1 when the points are equal, with
    /// the same operations: the chord numerator/denominator (R, H) = (S2 - S1, U2 - U1) is
    /// replaced by the tangent's (3 U1^2, 2 S1) when H = R = 0, and the tail uses
    /// X3 = R^2 - H^2 (U1 + U2), Y3 = R (U1 H^2 - X3) - S1 H^3, Z3 = D H, which holds for both.
    #[inline(always)]
    fn unified_tail(u1: C::Base, u2: C::Base, s1: C::Base, s2: C::Base, d: C::Base) -> Self {
        let h = u2 - u1;
        let r = s2 - s1;
        let is_dbl = h.is_zero() & r.is_zero();
        let u1u1 = u1.square();
        let h = C::Base::conditional_select(&h, &s1.double(), is_dbl);
        let r = C::Base::conditional_select(&r, &(u1u1.double() + u1u1), is_dbl);
        let hh = h.square();
        let hhh = hh * h;
        let x3 = r.square() - hh * (u1 + u2);
        let y3 = r * (u1 * hh - x3) - s1 * hhh;
        Self { x: x3, y: y3, z: d * h }
    }

    /// Complete addition in constant time (13M + 5S): one unified formula for the chord and
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

    /// Complete mixed addition in constant time (9M + 4S), unified like [`Jacobian::add`].
    #[inline]
    pub fn add_mixed(&self, o: &Affine<C>) -> Self {
        let z1z1 = self.z.square();
        let u2 = o.x * z1z1;
        let s2 = o.y * self.z * z1z1;
        let out = Self::unified_tail(self.x, u2, self.y, s2, self.z);
        let out = Self::conditional_select(&out, &o.to_jacobian(), self.is_identity());
        Self::conditional_select(&out, self, Choice::from(o.infinity as u8))
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
        if o.infinity {
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
        Affine { x: C::Base::conditional_select(&x, &C::Base::ZERO, inf), y: C::Base::conditional_select(&y, &C::Base::ZERO, inf), infinity: bool::from(inf) }
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
                    Affine { x: p.x * zinv2, y: p.y * zinv2 * zinv, infinity: false }
                }
            })
            .collect()
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

    /// 2P for an affine P as a Jacobian point, `mdbl-2007-bl`: 1M + 5S.
    #[inline]
    pub fn double_affine(&self) -> Jacobian<C> {
        let xx = self.x.square();
        let yy = self.y.square();
        let yyyy = yy.square();
        let s = ((self.x + yy).square() - xx - yyyy).double();
        let m = xx.double() + xx;
        let t = m.square() - s.double();
        let x3 = t;
        let y3 = m * (s - t) - yyyy.double().double().double();
        let z3 = self.y.double();
        let p = Jacobian { x: x3, y: y3, z: z3 };
        Jacobian::conditional_select(&p, &Jacobian::IDENTITY, Choice::from(self.infinity as u8))
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
impl<C: CurveConfig> From<Jacobian<C>> for Affine<C> {
    fn from(p: Jacobian<C>) -> Self {
        p.to_affine()
    }
}

// ---------------------------------------------------------------------------------------------
// XYZZ

impl<C: CurveConfig> Xyzz<C> {
    /// The identity.
    pub const IDENTITY: Self = Self { x: C::Base::ONE, y: C::Base::ONE, zz: C::Base::ZERO, zzz: C::Base::ZERO };

    /// True for the identity (ZZ = 0).
    #[inline(always)]
    pub fn is_identity(&self) -> Choice {
        self.zz.is_zero()
    }

    /// The point with XYZZ coordinates (X, Y, ZZ, ZZZ), without any check (ZZ^3 = ZZZ^2 is the
    /// caller's promise).
    pub const fn from_xyzz_unchecked(x: C::Base, y: C::Base, zz: C::Base, zzz: C::Base) -> Self {
        Self { x, y, zz, zzz }
    }

    /// Doubling, `dbl-2008-s-1` with a = 0: 6M + 3S.
    #[inline]
    pub fn double(&self) -> Self {
        let u = self.y.double();
        let v = u.square();
        let w = u * v;
        let s = self.x * v;
        let xx = self.x.square();
        let m = xx.double() + xx;
        let x3 = m.square() - s.double();
        let y3 = m * (s - x3) - w * self.y;
        let zz3 = v * self.zz;
        let zzz3 = w * self.zzz;
        Self { x: x3, y: y3, zz: zz3, zzz: zzz3 }
    }

    /// Doubling of an affine point, `mdbl-2008-s-1`.
    #[inline]
    pub fn double_affine(p: &Affine<C>) -> Self {
        if p.infinity {
            return Self::IDENTITY;
        }
        let u = p.y.double();
        let v = u.square();
        let w = u * v;
        let s = p.x * v;
        let xx = p.x.square();
        let m = xx.double() + xx;
        let x3 = m.square() - s.double();
        let y3 = m * (s - x3) - w * p.y;
        Self { x: x3, y: y3, zz: v, zzz: w }
    }

    /// Addition, `add-2008-s` (variable time in the special cases).
    #[inline]
    pub fn add_vartime(&self, o: &Self) -> Self {
        if bool::from(self.is_identity()) {
            return *o;
        }
        if bool::from(o.is_identity()) {
            return *self;
        }
        let u1 = self.x * o.zz;
        let u2 = o.x * self.zz;
        let s1 = self.y * o.zzz;
        let s2 = o.y * self.zzz;
        let p = u2 - u1;
        let r = s2 - s1;
        if bool::from(p.is_zero()) {
            return if bool::from(r.is_zero()) { self.double() } else { Self::IDENTITY };
        }
        let pp = p.square();
        let ppp = p * pp;
        let q = u1 * pp;
        let x3 = r.square() - ppp - q.double();
        let y3 = r * (q - x3) - s1 * ppp;
        let zz3 = self.zz * o.zz * pp;
        let zzz3 = self.zzz * o.zzz * ppp;
        Self { x: x3, y: y3, zz: zz3, zzz: zzz3 }
    }

    /// Mixed addition, `madd-2008-s` (variable time in the special cases).
    #[inline]
    pub fn add_mixed_vartime(&self, o: &Affine<C>) -> Self {
        if o.infinity {
            return *self;
        }
        if bool::from(self.is_identity()) {
            return o.to_xyzz();
        }
        let u2 = o.x * self.zz;
        let s2 = o.y * self.zzz;
        let p = u2 - self.x;
        let r = s2 - self.y;
        if bool::from(p.is_zero()) {
            return if bool::from(r.is_zero()) { Self::double_affine(o) } else { Self::IDENTITY };
        }
        let pp = p.square();
        let ppp = p * pp;
        let q = self.x * pp;
        let x3 = r.square() - ppp - q.double();
        let y3 = r * (q - x3) - self.y * ppp;
        let zz3 = self.zz * pp;
        let zzz3 = self.zzz * ppp;
        Self { x: x3, y: y3, zz: zz3, zzz: zzz3 }
    }

    /// To Jacobian with Z = ZZZ: X_J = X ZZ^2, Y_J = Y ZZZ^2 (using ZZZ^2 = ZZ^3).
    pub fn to_jacobian(&self) -> Jacobian<C> {
        Jacobian { x: self.x * self.zz.square(), y: self.y * self.zzz.square(), z: self.zzz }
    }

    /// To affine (one inversion).
    pub fn to_affine(&self) -> Affine<C> {
        if bool::from(self.is_identity()) {
            return Affine::IDENTITY;
        }
        let zzzinv = self.zzz.invert().unwrap_or(C::Base::ZERO);
        // 1/ZZ = ZZZ^-1 * (ZZZ/ZZ) where ZZZ/ZZ = Z... compute 1/ZZ = (zzz^-1 * zz)^2 * ... use
        // 1/ZZ = ZZ^2 / ZZZ^2 since ZZZ^2 = ZZ^3.
        let zzinv = self.zz.square() * zzzinv.square();
        Affine { x: self.x * zzinv, y: self.y * zzzinv, infinity: false }
    }
}

impl<C: CurveConfig> Neg for Xyzz<C> {
    type Output = Self;
    fn neg(self) -> Self {
        Self { x: self.x, y: -self.y, zz: self.zz, zzz: self.zzz }
    }
}
impl<C: CurveConfig> PartialEq for Xyzz<C> {
    /// Equality of the represented points (through Jacobian coordinates).
    fn eq(&self, o: &Self) -> bool {
        self.to_jacobian() == o.to_jacobian()
    }
}
impl<C: CurveConfig> Eq for Xyzz<C> {}
impl<C: CurveConfig> PartialEq<Jacobian<C>> for Xyzz<C> {
    fn eq(&self, o: &Jacobian<C>) -> bool {
        self.to_jacobian() == *o
    }
}
impl<C: CurveConfig> PartialEq<Affine<C>> for Xyzz<C> {
    fn eq(&self, o: &Affine<C>) -> bool {
        self.to_jacobian() == o.to_jacobian()
    }
}

/// n points of the prime-order subgroup for tests and benchmarks: a random multiple of the
/// generator, then repeated additions of another random multiple (cheap: one addition per
/// point and one batch normalisation). The points are distinct but related, so not for
/// protocols.
pub fn sample_points<C: CurveConfig>(rng: &mut impl rand_core::RngCore, n: usize) -> Vec<Affine<C>> {
    let g = Jacobian::<C>::generator();
    let step = g.mul_limbs_vartime(&[rng.next_u64(), rng.next_u64(), 0, 0]);
    let mut acc = g.mul_limbs_vartime(&[rng.next_u64(), rng.next_u64(), rng.next_u64(), 0]);
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        v.push(acc);
        acc = acc.add_vartime(&step);
    }
    Jacobian::batch_to_affine(&v)
}

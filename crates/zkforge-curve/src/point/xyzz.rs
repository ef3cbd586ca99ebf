//! XYZZ points (the MSM bucket format): additions, doublings and conversions (EFD
//! g1p/auto-shortw-xyzz); every Y3 = A B - C D takes one reduction where the field allows
//! (`CurveField::mul_sub_mul`).

use core::ops::Neg;

use subtle::Choice;

use super::{Affine, Jacobian, Xyzz};
use crate::config::CurveConfig;
use crate::field::CurveField;

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

    /// Doubling, `dbl-2008-s-1`: 6M + 3S for a = 0 (M = 3X^2 + a ZZ^2 otherwise: one more S and
    /// a multiplication by a).
    #[inline]
    pub fn double(&self) -> Self {
        let u = self.y.double();
        let v = u.square();
        let w = u * v;
        let s = self.x * v;
        let xx = self.x.square();
        let m = C::plus_a_times(xx.double() + xx, || self.zz.square());
        let x3 = m.square() - s.double();
        let y3 = C::Base::mul_sub_mul(&m, &(s - x3), &w, &self.y);
        let zz3 = v * self.zz;
        let zzz3 = w * self.zzz;
        Self { x: x3, y: y3, zz: zz3, zzz: zzz3 }
    }

    /// Doubling of an affine point, `mdbl-2008-s-1`.
    #[inline]
    pub fn double_affine(p: &Affine<C>) -> Self {
        if p.is_identity_vartime() {
            return Self::IDENTITY;
        }
        let u = p.y.double();
        let v = u.square();
        let w = u * v;
        let s = p.x * v;
        let xx = p.x.square();
        let m = C::plus_a_times(xx.double() + xx, || C::Base::ONE);
        let x3 = m.square() - s.double();
        let y3 = C::Base::mul_sub_mul(&m, &(s - x3), &w, &p.y);
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
        let y3 = C::Base::mul_sub_mul(&r, &(q - x3), &s1, &ppp);
        let zz3 = self.zz * o.zz * pp;
        let zzz3 = self.zzz * o.zzz * ppp;
        Self { x: x3, y: y3, zz: zz3, zzz: zzz3 }
    }

    /// Mixed addition, `madd-2008-s` (variable time in the special cases).
    #[inline]
    pub fn add_mixed_vartime(&self, o: &Affine<C>) -> Self {
        if o.is_identity_vartime() {
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
        let y3 = C::Base::mul_sub_mul(&r, &(q - x3), &self.y, &ppp);
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
        Affine { x: self.x * zzinv, y: self.y * zzzinv }
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

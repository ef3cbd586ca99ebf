//! Points of y^2 = x^3 + b (a = 0) in affine, Jacobian and extended Jacobian (XYZZ) coordinates.
//!
//! Formulas (Explicit-Formulas Database, hyperelliptic.org/EFD, "g1p/auto-shortw-jacobian-0" and
//! "auto-shortw-xyzz"):
//! - Jacobian doubling `dbl-2009-l` (2M + 5S), addition `add-2007-bl` (11M + 5S), mixed addition
//!   `madd-2007-bl` (7M + 4S), affine doubling `mdbl-2007-bl` (1M + 5S); the constant-time
//!   `add`/`add_mixed` use a unified chord-or-tangent form of the same formulas (12M + 5S and
//!   8M + 4S, no separate doubling to compute and select);
//! - XYZZ addition `add-2008-s` (12M + 2S), mixed `madd-2008-s` (8M + 2S), doubling
//!   `dbl-2008-s-1` (6M + 4S), mixed doubling `mdbl-2008-s-1` (4M + 3S).
//!
//! Jacobian (X, Y, Z) is x = X/Z^2, y = Y/Z^3, the identity has Z = 0. XYZZ (X, Y, ZZ, ZZZ) is
//! x = X/ZZ, y = Y/ZZZ with ZZ^3 = ZZZ^2, identity ZZ = 0.
//!
//! `add`/`add_mixed` are complete and constant time (the doubling and identity cases are
//! selected, not branched on); `*_vartime` variants branch and are for public data.

//!
//! Layout: the three point types and what they share are here; their arithmetic is in
//! `affine.rs`, `jacobian.rs` and `xyzz.rs`.

use core::fmt;

use crate::config::CurveConfig;

mod affine;
mod jacobian;
mod xyzz;

/// A point in affine coordinates; the identity is (0, 0), which is on no curve y^2 = x^3 + b
/// with b != 0.
///
/// Layout: `#[repr(C)]`, exactly two coordinates and no padding (`x` then `y`, each a
/// `#[repr(transparent)]` array of Montgomery limbs), so a slice of points can be handed to a
/// GPU buffer as it is; `tests/layout.rs` checks the sizes.
///
/// The type stands for an element of the prime-order subgroup: every safe constructor
/// ([`Affine::from_xy`], the checked decoders, the group operations, hash-to-curve, cofactor
/// clearing) yields one, and scalar multiplication by `Fr` and the MSM rely on it (their
/// endomorphism split is only valid there). Points that skip the checks come only from
/// functions named `_unchecked` (and the raw `map_to_curve_*` maps, whose outputs are meant for
/// [`Jacobian::clear_cofactor`]); on such a point only the group law, the checks and
/// [`Jacobian::mul_bigint_vartime`] are meaningful.
#[repr(C)]
pub struct Affine<C: CurveConfig> {
    pub(crate) x: C::Base,
    pub(crate) y: C::Base,
}

/// A point in Jacobian coordinates (X, Y, Z): x = X/Z^2, y = Y/Z^3, Z = 0 for the identity.
/// Like [`Affine`], a prime-order-subgroup element unless built by an `_unchecked` function.
/// `#[repr(C)]`: X, Y, Z with no padding.
#[repr(C)]
pub struct Jacobian<C: CurveConfig> {
    pub(crate) x: C::Base,
    pub(crate) y: C::Base,
    pub(crate) z: C::Base,
}

/// A point in extended Jacobian (XYZZ) coordinates, the bucket format of MSM:
/// x = X/ZZ, y = Y/ZZZ with ZZ^3 = ZZZ^2, ZZ = 0 for the identity. `#[repr(C)]`: X, Y, ZZ, ZZZ
/// with no padding.
#[repr(C)]
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
        if self.is_identity_vartime() {
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
pub(crate) fn naf_u64(k: u64) -> ([i8; 66], usize) {
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

/// n points of the prime-order subgroup for tests and benchmarks (behind the `test-utils`
/// feature, not part of the default API): a random multiple of the
/// generator, then repeated additions of another random multiple (cheap: one addition per
/// point and one batch normalisation). The points are distinct but related, so not for
/// protocols.
#[cfg(feature = "test-utils")]
pub fn sample_points<C: CurveConfig>(rng: &mut impl rand_core::RngCore, n: usize) -> alloc::vec::Vec<Affine<C>> {
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

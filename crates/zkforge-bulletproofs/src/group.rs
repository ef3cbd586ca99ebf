//! The prime-order group a range proof runs over: the operations the protocols need and
//! nothing more, so one protocol implementation serves BLS12-381 G1, BN254 G1 (our curves and
//! MSM) and Ristretto255 (curve25519-dalek's arithmetic).
//!
//! Conventions shared by every group (they fix the wire format):
//! - scalars are 32 bytes little-endian and must be canonical (< the group order) when
//!   decoded; challenges are 64 transcript bytes read little-endian and reduced mod the order
//!   (as dalek's `Scalar::from_bytes_mod_order_wide`);
//! - points are the group's standard compressed form (Ristretto 32 bytes, BLS12-381 G1 the
//!   Zcash 48 bytes, BN254 G1 gnark-crypto's 32 bytes), decoded with every check (length,
//!   canonical coordinates, on the curve, in the subgroup).

use core::fmt::Debug;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use rand_core::{CryptoRng, RngCore};
use subtle::ConditionallySelectable;
use zeroize::Zeroize;

/// A scalar of the group's field: the arithmetic the protocols use, by value.
pub trait BpScalar:
    Copy
    + Eq
    + Debug
    + Default
    + Send
    + Sync
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + ConditionallySelectable
    + Zeroize
{
}

impl<T> BpScalar for T where
    T: Copy
        + Eq
        + Debug
        + Default
        + Send
        + Sync
        + Add<Output = T>
        + Sub<Output = T>
        + Mul<Output = T>
        + Neg<Output = T>
        + AddAssign
        + SubAssign
        + MulAssign
        + ConditionallySelectable
        + Zeroize
{
}

/// A prime-order group for Bulletproofs.
///
/// `Point` is the form points are kept in between operations (affine for the short Weierstrass
/// curves, so MSMs read them directly); `Tables` is a fixed-base precomputation over the
/// generators, built once by [`crate::BulletproofGens`].
pub trait BpGroup: Copy + Debug + PartialEq + Sized + Send + Sync + 'static {
    /// The scalar field.
    type Scalar: BpScalar;
    /// A group element.
    type Point: Copy + Debug + PartialEq + Send + Sync;
    /// Fixed-base tables for a list of points (the verifier's generators).
    type Tables: Send + Sync;

    /// Name in errors, benchmarks and the CLI (`ristretto255`, `bls12-381-g1`, `bn254-g1`).
    const NAME: &'static str;
    /// Bytes of a compressed point.
    const POINT_BYTES: usize;

    /// The scalar v.
    fn scalar_from_u64(v: u64) -> Self::Scalar;
    /// 64 bytes, little-endian, reduced mod the order (transcript challenges).
    fn scalar_from_wide(bytes: &[u8; 64]) -> Self::Scalar;
    /// 32 bytes little-endian.
    fn scalar_to_bytes(s: &Self::Scalar) -> [u8; 32];
    /// Decodes 32 little-endian bytes; `None` when not below the order.
    fn scalar_from_canonical(bytes: &[u8; 32]) -> Option<Self::Scalar>;
    /// s^-1 (zero has none). Used on public values only.
    fn scalar_invert(s: &Self::Scalar) -> Option<Self::Scalar>;
    /// A uniformly random scalar.
    fn scalar_random<R: RngCore + CryptoRng>(rng: &mut R) -> Self::Scalar;

    /// The identity.
    fn identity() -> Self::Point;
    /// -a.
    fn neg(a: &Self::Point) -> Self::Point;
    /// Whether a is the identity.
    fn is_identity(a: &Self::Point) -> bool;
    /// `b` when `choice` is set, else `a`, in constant time.
    fn select(a: &Self::Point, b: &Self::Point, choice: subtle::Choice) -> Self::Point;
    /// The sum of the points, in constant time (complete additions).
    fn sum_ct(points: &[Self::Point]) -> Self::Point;

    /// The compressed encoding (`POINT_BYTES` bytes).
    fn compress(p: &Self::Point) -> Vec<u8>;
    /// Decodes a compressed point with every check; `None` when it is not a group element.
    fn decompress(bytes: &[u8]) -> Option<Self::Point>;

    /// sum_i s_i P_i in constant time (secret scalars).
    fn msm_ct(scalars: &[Self::Scalar], points: &[Self::Point]) -> Self::Point;
    /// [`BpGroup::msm_ct`] by the given method ([`crate::ProverConfig::ct_msm`]); groups with
    /// one method ignore it.
    fn msm_ct_with(scalars: &[Self::Scalar], points: &[Self::Point], method: zkforge_msm::msm_ct::CtMsmMethod) -> Self::Point {
        let _ = method;
        Self::msm_ct(scalars, points)
    }
    /// sum_i s_i P_i, variable time (public scalars).
    fn msm_vartime(scalars: &[Self::Scalar], points: &[Self::Point]) -> Self::Point;
    /// `sums` independent sums of public terms, sum j over the j-th of `sums` equal
    /// consecutive runs (the folded generators of a rebase): by `method`
    /// ([`crate::ProverConfig::fold_msm`]), one [`BpGroup::msm_vartime`] per sum by default
    /// and for groups with one method. The terms must split evenly (callers guarantee it).
    fn msm_many_vartime(scalars: &[Self::Scalar], points: &[Self::Point], sums: usize, method: zkforge_msm::msm_ct::CtMsmMethod) -> Vec<Self::Point> {
        let _ = method;
        msm_many_one_by_one::<Self>(scalars, points, sums)
    }

    /// Fixed-base tables for `points`.
    fn tables(points: &[Self::Point]) -> Self::Tables;
    /// Bytes the tables take.
    fn tables_bytes(t: &Self::Tables) -> usize;
    /// sum_i s_i T_i + sum_j d_j Q_j over the tabled points T (one scalar per tabled point, in
    /// order) and the dynamic points Q; variable time.
    fn msm_mixed_vartime(
        tables: &Self::Tables,
        static_scalars: &[Self::Scalar],
        dynamic_scalars: &[Self::Scalar],
        dynamic_points: &[Self::Point],
    ) -> Self::Point;

    /// Whether an MSM with `static_len` tabled points and `dynamic_len` other points is
    /// faster through [`BpGroup::msm_mixed_vartime`] than as one plain MSM (measured per group:
    /// dalek's precomputed Straus loses to its Pippenger on large inputs, where its tables
    /// no longer fit the cache).
    fn prefer_tables(static_len: usize, dynamic_len: usize) -> bool;

    /// The standard Pedersen bases (B, B_blinding) of the group.
    fn pedersen_bases() -> (Self::Point, Self::Point);
    /// Generators `start..start + count` of the chain named `label`, nothing-up-my-sleeve
    /// (independent discrete logarithms).
    fn generator_chain(label: &[u8], start: usize, count: usize) -> Vec<Self::Point>;
}

/// [`BpGroup::msm_many_vartime`] one [`BpGroup::msm_vartime`] per sum (the default, and the
/// groups' fallback).
pub(crate) fn msm_many_one_by_one<G: BpGroup>(scalars: &[G::Scalar], points: &[G::Point], sums: usize) -> Vec<G::Point> {
    let m = if sums == 0 { 0 } else { points.len() / sums };
    (0..sums).map(|j| G::msm_vartime(&scalars[j * m..(j + 1) * m], &points[j * m..(j + 1) * m])).collect()
}

//! BLS12-381 G1 and BN254 G1 on zkforge's curves and MSM.
//!
//! - Points are kept affine (MSMs read them directly; a sum costs one inversion).
//! - Constant-time MSM: `zkforge_curve::scalar_mul::multi_mul_ct` (GLV split, Booth windows,
//!   full table scans, complete additions). Variable-time: `zkforge_msm` on one thread
//!   (Straus below its threshold, Pippenger above). Tables: `FixedBaseMsm` (shifted copies,
//!   one bucket pass).
//! - Generators: RFC 9380 hash-to-curve, `hash_to_g1` (BLS12381G1_XMD:SHA-256_SSWU_RO_) and
//!   `hash_to_bn254_g1` (BN254G1_XMD:SHA-256_SVDW_RO_) with this crate's DSTs; generator i of
//!   the chain `label` hashes "GeneratorsChain" || label || i (u32 little-endian). B is the
//!   curve's standard generator and B_blinding the hash of B's compressed bytes.
//! - Encodings: BLS12-381 G1 the Zcash 48-byte compressed form; BN254 G1 gnark-crypto's
//!   32-byte compressed form. Scalars 32 bytes little-endian.

use rand_core::{CryptoRng, RngCore};
use zkforge_curve::scalar_mul::{multi_mul_ct, ScalarMulConfig};
use zkforge_curve::{bls12_381, bn254, hash_to_curve, Affine, CurveConfig, Jacobian};
use zkforge_msm::{msm_threads, Buckets, FixedBaseMsm};

use crate::group::BpGroup;

/// DST of the BLS12-381 G1 generators.
pub const BLS12_381_DST: &[u8] = b"ZKFORGE-BULLETPROOFS-V01-CS01-with-BLS12381G1_XMD:SHA-256_SSWU_RO_";
/// DST of the BN254 G1 generators.
pub const BN254_DST: &[u8] = b"ZKFORGE-BULLETPROOFS-V01-CS01-with-BN254G1_XMD:SHA-256_SVDW_RO_";

/// BLS12-381 G1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bls12381G1;
/// BN254 G1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bn254G1;

fn msm_ct<C: CurveConfig>(scalars: &[[u64; 4]], points: &[Affine<C>]) -> Affine<C> {
    let jac: Vec<Jacobian<C>> = points.iter().map(|p| p.to_jacobian()).collect();
    multi_mul_ct(&jac, scalars, &ScalarMulConfig::for_curve::<C>()).to_affine()
}

/// Fixed-base tables sized for the point count: the window c minimising the bucket pass,
/// n ceil(255 / c) additions plus about 2^c for the running sums (c = 9 for a 64-bit proof's
/// 130 points, where the MSM crate's default c = 12 spends most of its time summing 2048
/// buckets); XYZZ buckets below a few thousand points, batch-affine above.
fn tables_for<C: CurveConfig>(points: &[Affine<C>]) -> FixedBaseMsm<C> {
    let n = points.len().max(1);
    let c = (4..=16u32).min_by_key(|&c| n * 255usize.div_ceil(c as usize) + (1usize << c)).unwrap_or(12);
    let total = n * 255usize.div_ceil(c as usize);
    let buckets = if total < 8192 { Buckets::Xyzz } else { Buckets::BatchAffine { batch: 256 } };
    FixedBaseMsm::with_params(points, c, 1, buckets).unwrap_or_else(|_| FixedBaseMsm::new(points))
}

fn sum_ct<C: CurveConfig>(points: &[Affine<C>]) -> Affine<C> {
    points.iter().fold(Jacobian::IDENTITY, |acc, p| acc.add_mixed(p)).to_affine()
}

fn add<C: CurveConfig>(a: &Affine<C>, b: &Affine<C>) -> Affine<C> {
    a.to_jacobian().add_mixed(b).to_affine()
}

/// 64 little-endian bytes as a big-endian string for `from_bytes_be_mod_order`.
fn wide_be(bytes: &[u8; 64]) -> [u8; 64] {
    let mut be = *bytes;
    be.reverse();
    be
}

fn chain_message(label: &[u8], i: usize) -> Vec<u8> {
    let mut msg = Vec::with_capacity(15 + label.len() + 4);
    msg.extend_from_slice(b"GeneratorsChain");
    msg.extend_from_slice(label);
    msg.extend_from_slice(&(i as u32).to_le_bytes());
    msg
}

macro_rules! scalar_common {
    ($fr:ty) => {
        fn scalar_from_u64(v: u64) -> $fr {
            <$fr>::from_u64(v)
        }
        fn scalar_from_wide(bytes: &[u8; 64]) -> $fr {
            <$fr>::from_bytes_be_mod_order(&wide_be(bytes))
        }
        fn scalar_to_bytes(s: &$fr) -> [u8; 32] {
            s.to_bytes_le()
        }
        fn scalar_from_canonical(bytes: &[u8; 32]) -> Option<$fr> {
            <$fr>::from_bytes_le(bytes).ok()
        }
        fn scalar_invert(s: &$fr) -> Option<$fr> {
            s.invert_vartime()
        }
        fn scalar_random<R: RngCore + CryptoRng>(rng: &mut R) -> $fr {
            <$fr>::random(rng)
        }
    };
}

impl BpGroup for Bls12381G1 {
    type Scalar = bls12_381::Scalar;
    type Point = bls12_381::G1Affine;
    type Tables = FixedBaseMsm<bls12_381::G1Config>;
    const NAME: &'static str = "bls12-381-g1";
    const POINT_BYTES: usize = 48;

    scalar_common!(bls12_381::Scalar);

    fn identity() -> Self::Point {
        Affine::IDENTITY
    }
    fn add(a: &Self::Point, b: &Self::Point) -> Self::Point {
        add(a, b)
    }
    fn neg(a: &Self::Point) -> Self::Point {
        -*a
    }
    fn is_identity(a: &Self::Point) -> bool {
        bool::from(a.is_identity())
    }
    fn select(a: &Self::Point, b: &Self::Point, choice: subtle::Choice) -> Self::Point {
        subtle::ConditionallySelectable::conditional_select(a, b, choice)
    }
    fn sum_ct(points: &[Self::Point]) -> Self::Point {
        sum_ct(points)
    }
    fn compress(p: &Self::Point) -> Vec<u8> {
        p.to_compressed().to_vec()
    }
    fn decompress(bytes: &[u8]) -> Option<Self::Point> {
        bls12_381::G1Affine::from_compressed(bytes).ok()
    }
    fn msm_ct(scalars: &[Self::Scalar], points: &[Self::Point]) -> Self::Point {
        let limbs: Vec<[u64; 4]> = scalars.iter().map(|s| s.to_limbs()).collect();
        msm_ct(&limbs, points)
    }
    fn msm_vartime(scalars: &[Self::Scalar], points: &[Self::Point]) -> Self::Point {
        msm_threads(points, scalars, 1).map(|p| p.to_affine_vartime()).unwrap_or(Affine::IDENTITY)
    }
    fn tables(points: &[Self::Point]) -> Self::Tables {
        tables_for(points)
    }
    fn tables_bytes(t: &Self::Tables) -> usize {
        t.memory_bytes()
    }
    fn msm_mixed_vartime(t: &Self::Tables, ss: &[Self::Scalar], ds: &[Self::Scalar], dp: &[Self::Point]) -> Self::Point {
        let a = t.msm(ss).unwrap_or(Jacobian::IDENTITY);
        let b = msm_threads(dp, ds, 1).unwrap_or(Jacobian::IDENTITY);
        a.add_vartime(&b).to_affine_vartime()
    }
    fn prefer_tables(_static_len: usize, _dynamic_len: usize) -> bool {
        // the tabled part is a fixed-base bucket pass and the rest a Pippenger of its own
        true
    }
    fn pedersen_bases() -> (Self::Point, Self::Point) {
        let g = bls12_381::G1Affine::generator();
        let h = hash_to_curve::hash_to_g1(&g.to_compressed(), BLS12_381_DST).expect("fixed DST is valid");
        (g, h)
    }
    fn generator_chain(label: &[u8], start: usize, count: usize) -> Vec<Self::Point> {
        (start..start + count)
            .map(|i| hash_to_curve::hash_to_g1(&chain_message(label, i), BLS12_381_DST).expect("fixed DST is valid"))
            .collect()
    }
}

impl BpGroup for Bn254G1 {
    type Scalar = bn254::Scalar;
    type Point = bn254::G1Affine;
    type Tables = FixedBaseMsm<bn254::G1Config>;
    const NAME: &'static str = "bn254-g1";
    const POINT_BYTES: usize = 32;

    scalar_common!(bn254::Scalar);

    fn identity() -> Self::Point {
        Affine::IDENTITY
    }
    fn add(a: &Self::Point, b: &Self::Point) -> Self::Point {
        add(a, b)
    }
    fn neg(a: &Self::Point) -> Self::Point {
        -*a
    }
    fn is_identity(a: &Self::Point) -> bool {
        bool::from(a.is_identity())
    }
    fn select(a: &Self::Point, b: &Self::Point, choice: subtle::Choice) -> Self::Point {
        subtle::ConditionallySelectable::conditional_select(a, b, choice)
    }
    fn sum_ct(points: &[Self::Point]) -> Self::Point {
        sum_ct(points)
    }
    fn compress(p: &Self::Point) -> Vec<u8> {
        p.to_compressed().to_vec()
    }
    fn decompress(bytes: &[u8]) -> Option<Self::Point> {
        bn254::G1Affine::from_compressed(bytes).ok()
    }
    fn msm_ct(scalars: &[Self::Scalar], points: &[Self::Point]) -> Self::Point {
        let limbs: Vec<[u64; 4]> = scalars.iter().map(|s| s.to_limbs()).collect();
        msm_ct(&limbs, points)
    }
    fn msm_vartime(scalars: &[Self::Scalar], points: &[Self::Point]) -> Self::Point {
        msm_threads(points, scalars, 1).map(|p| p.to_affine_vartime()).unwrap_or(Affine::IDENTITY)
    }
    fn tables(points: &[Self::Point]) -> Self::Tables {
        tables_for(points)
    }
    fn tables_bytes(t: &Self::Tables) -> usize {
        t.memory_bytes()
    }
    fn msm_mixed_vartime(t: &Self::Tables, ss: &[Self::Scalar], ds: &[Self::Scalar], dp: &[Self::Point]) -> Self::Point {
        let a = t.msm(ss).unwrap_or(Jacobian::IDENTITY);
        let b = msm_threads(dp, ds, 1).unwrap_or(Jacobian::IDENTITY);
        a.add_vartime(&b).to_affine_vartime()
    }
    fn prefer_tables(_static_len: usize, _dynamic_len: usize) -> bool {
        // the tabled part is a fixed-base bucket pass and the rest a Pippenger of its own
        true
    }
    fn pedersen_bases() -> (Self::Point, Self::Point) {
        let g = bn254::G1Affine::generator();
        let h = hash_to_curve::hash_to_bn254_g1(&g.to_compressed(), BN254_DST).expect("fixed DST is valid");
        (g, h)
    }
    fn generator_chain(label: &[u8], start: usize, count: usize) -> Vec<Self::Point> {
        (start..start + count)
            .map(|i| hash_to_curve::hash_to_bn254_g1(&chain_message(label, i), BN254_DST).expect("fixed DST is valid"))
            .collect()
    }
}

//! BLS12-381 G1 and BN254 G1 on zkforge's curves and MSM: one implementation,
//! [`Weierstrass<C>`], over the few things that differ per curve ([`BpCurve`]).
//!
//! - Points are kept affine (MSMs read them directly; a sum costs one inversion at the end).
//! - Constant-time MSM: `zkforge_msm::msm_ct` (GLV split, full table scans, complete
//!   additions; Straus on the 64-bit field, or eight accumulators on AVX-512 IFMA lanes for
//!   BLS12-381, by [`crate::ProverConfig::ct_msm`]). Variable-time: `zkforge_msm` on one thread
//!   (Straus below its threshold, Pippenger above). Tables: `FixedBaseMsm` (shifted copies,
//!   one bucket pass) with the window chosen for the point count.
//! - Generators: RFC 9380 hash-to-curve, `hash_to_g1` (BLS12381G1_XMD:SHA-256_SSWU_RO_) and
//!   `hash_to_bn254_g1` (BN254G1_XMD:SHA-256_SVDW_RO_) with this crate's DSTs; generator i of
//!   the chain `label` hashes "GeneratorsChain" || label || i (u32 little-endian). B is the
//!   curve's standard generator and B_blinding the hash of B's compressed bytes.
//! - Encodings: BLS12-381 G1 the Zcash 48-byte compressed form; BN254 G1 gnark-crypto's
//!   32-byte compressed form. Scalars 32 bytes little-endian.

use core::marker::PhantomData;

use rand_core::{CryptoRng, RngCore};
use zeroize::Zeroize;
use zkforge_curve::{bls12_381, bn254, hash_to_curve, Affine, CurveConfig, Jacobian};
use zkforge_field::mont::{FieldConfig, Fp};
use zkforge_msm::msm_ct::{lanes_apply, msm_ct_with, msm_many_ct_with, CtMsmMethod, MANY_LANES_MIN};
use zkforge_msm::{msm_threads, Buckets, FixedBaseMsm, MsmScalar};

use crate::group::{msm_many_one_by_one, BpGroup};

/// DST of the BLS12-381 G1 generators.
pub const BLS12_381_DST: &[u8] = b"ZKFORGE-BULLETPROOFS-V01-CS01-with-BLS12381G1_XMD:SHA-256_SSWU_RO_";
/// DST of the BN254 G1 generators.
pub const BN254_DST: &[u8] = b"ZKFORGE-BULLETPROOFS-V01-CS01-with-BN254G1_XMD:SHA-256_SVDW_RO_";

/// What a short Weierstrass group adds to its `CurveConfig` for Bulletproofs: its name, its
/// compressed encoding and its hash-to-curve.
pub trait BpCurve: CurveConfig<Scalar = Fp<Self::ScalarConfig, 4>> {
    /// The scalar field's definition.
    type ScalarConfig: FieldConfig<4>;
    /// Name in errors, benchmarks and the CLI.
    const BP_NAME: &'static str;
    /// Bytes of a compressed point.
    const POINT_BYTES: usize;
    /// The compressed encoding.
    fn compress(p: &Affine<Self>) -> Vec<u8>;
    /// Decodes a compressed point with every check.
    fn decompress(bytes: &[u8]) -> Option<Affine<Self>>;
    /// RFC 9380 hash-to-curve with this crate's DST.
    fn hash(msg: &[u8]) -> Affine<Self>;
}

impl BpCurve for bls12_381::G1Config {
    type ScalarConfig = zkforge_field::bls12_381::FrConfig;
    const BP_NAME: &'static str = "bls12-381-g1";
    const POINT_BYTES: usize = 48;
    fn compress(p: &Affine<Self>) -> Vec<u8> {
        p.to_compressed().to_vec()
    }
    fn decompress(bytes: &[u8]) -> Option<Affine<Self>> {
        bls12_381::G1Affine::from_compressed(bytes).ok()
    }
    fn hash(msg: &[u8]) -> Affine<Self> {
        hash_to_curve::hash_to_g1(msg, BLS12_381_DST).expect("the DST is a valid fixed string")
    }
}

impl BpCurve for bn254::G1Config {
    type ScalarConfig = zkforge_field::bn254::FrConfig;
    const BP_NAME: &'static str = "bn254-g1";
    const POINT_BYTES: usize = 32;
    fn compress(p: &Affine<Self>) -> Vec<u8> {
        p.to_compressed().to_vec()
    }
    fn decompress(bytes: &[u8]) -> Option<Affine<Self>> {
        bn254::G1Affine::from_compressed(bytes).ok()
    }
    fn hash(msg: &[u8]) -> Affine<Self> {
        hash_to_curve::hash_to_bn254_g1(msg, BN254_DST).expect("the DST is a valid fixed string")
    }
}

/// The group G1 of a short Weierstrass curve, for Bulletproofs (a marker type: every value is
/// the same group).
#[derive(Clone, Copy, Debug)]
pub struct Weierstrass<C>(PhantomData<C>);

impl<C> PartialEq for Weierstrass<C> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<C> Eq for Weierstrass<C> {}

/// BLS12-381 G1.
pub type Bls12381G1 = Weierstrass<bls12_381::G1Config>;
/// BN254 G1.
pub type Bn254G1 = Weierstrass<bn254::G1Config>;

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

/// "GeneratorsChain" || label || i (u32 little-endian): the message of generator i.
fn chain_message(label: &[u8], i: usize) -> Vec<u8> {
    let mut msg = Vec::with_capacity(15 + label.len() + 4);
    msg.extend_from_slice(b"GeneratorsChain");
    msg.extend_from_slice(label);
    msg.extend_from_slice(&(i as u32).to_le_bytes());
    msg
}

impl<C: BpCurve> BpGroup for Weierstrass<C>
where
    Fp<C::ScalarConfig, 4>: MsmScalar<C>,
{
    type Scalar = Fp<C::ScalarConfig, 4>;
    type Point = Affine<C>;
    type Tables = FixedBaseMsm<C>;
    const NAME: &'static str = C::BP_NAME;
    const POINT_BYTES: usize = C::POINT_BYTES;

    fn scalar_from_u64(v: u64) -> Self::Scalar {
        Self::Scalar::from_u64(v)
    }
    fn scalar_from_wide(bytes: &[u8; 64]) -> Self::Scalar {
        let mut be = *bytes;
        be.reverse();
        Self::Scalar::from_bytes_be_mod_order(&be)
    }
    fn scalar_to_bytes(s: &Self::Scalar) -> [u8; 32] {
        let mut out = [0u8; 32];
        out.copy_from_slice(s.to_bytes_le().as_ref());
        out
    }
    fn scalar_from_canonical(bytes: &[u8; 32]) -> Option<Self::Scalar> {
        Self::Scalar::from_bytes_le(bytes).ok()
    }
    fn scalar_invert(s: &Self::Scalar) -> Option<Self::Scalar> {
        s.invert_vartime()
    }
    fn scalar_random<R: RngCore + CryptoRng>(rng: &mut R) -> Self::Scalar {
        Self::Scalar::random(rng)
    }

    fn identity() -> Self::Point {
        Affine::IDENTITY
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
        points.iter().fold(Jacobian::IDENTITY, |acc, p| acc.add_mixed(p)).to_affine()
    }
    fn compress(p: &Self::Point) -> Vec<u8> {
        C::compress(p)
    }
    fn decompress(bytes: &[u8]) -> Option<Self::Point> {
        C::decompress(bytes)
    }

    fn msm_ct(scalars: &[Self::Scalar], points: &[Self::Point]) -> Self::Point {
        Self::msm_ct_with(scalars, points, CtMsmMethod::Auto)
    }
    fn msm_ct_with(scalars: &[Self::Scalar], points: &[Self::Point], method: CtMsmMethod) -> Self::Point {
        let n = scalars.len().min(points.len());
        let mut limbs: Vec<[u64; 4]> = scalars[..n].iter().map(|s| s.to_limbs()).collect();
        let sum = msm_ct_with(&points[..n], &limbs, method).unwrap_or(Jacobian::IDENTITY).to_affine();
        limbs.zeroize();
        sum
    }
    fn msm_vartime(scalars: &[Self::Scalar], points: &[Self::Point]) -> Self::Point {
        msm_threads(points, scalars, 1).map(|p| p.to_affine_vartime()).unwrap_or(Affine::IDENTITY)
    }
    fn msm_many_vartime(scalars: &[Self::Scalar], points: &[Self::Point], sums: usize, method: CtMsmMethod) -> Vec<Self::Point> {
        let lanes = match method {
            CtMsmMethod::Straus => false,
            CtMsmMethod::Auto => sums >= MANY_LANES_MIN && lanes_apply::<C>(),
            CtMsmMethod::Lanes => lanes_apply::<C>(),
        };
        let m = if sums == 0 { 0 } else { points.len() / sums };
        if !lanes || m == 0 || scalars.len() != points.len() || m * sums != points.len() {
            return msm_many_one_by_one::<Self>(scalars, points, sums);
        }
        let limbs: Vec<[u64; 4]> = scalars.iter().map(|s| s.to_limbs()).collect();
        let sums = msm_many_ct_with(points, &limbs, sums, CtMsmMethod::Lanes).expect("even runs");
        Jacobian::batch_to_affine_vartime(&sums)
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
        let g = Affine::<C>::generator();
        (g, C::hash(&C::compress(&g)))
    }
    fn generator_chain(label: &[u8], start: usize, count: usize) -> Vec<Self::Point> {
        (start..start + count).map(|i| C::hash(&chain_message(label, i))).collect()
    }
}

//! Ristretto255 through curve25519-dalek 5 (its arithmetic and backend: serial, or AVX2/IFMA
//! where dalek selects them at run time), with dalek's `bulletproofs` 5.x generators so proofs
//! are interchangeable with that crate (which runs on curve25519-dalek 4; the two meet in
//! bytes only):
//! - Pedersen bases: B the ristretto255 basepoint, B_blinding = from_uniform_bytes(SHA3-512(B's
//!   compressed bytes)), which is dalek's `hash_from_bytes::<Sha3_512>`;
//! - generator chains: SHAKE256("GeneratorsChain" || label) read 64 bytes at a time, each block
//!   mapped by `RistrettoPoint::from_uniform_bytes` (labels `G` / `H` || party index u32 LE).
//!
//! Scalars mod l = 2^252 + 27742317777372353535851937790883648493 are our Montgomery field
//! ([`Scalar25519`]: four limbs, the MULX/ADX backend), not dalek's `Scalar`, which keeps bytes
//! and unpacks them on every multiplication; the verifier's 2N generator scalars cost about a
//! third as much. They become dalek scalars (the same little-endian bytes) only at the MSMs.

use curve25519_dalek::constants::{RISTRETTO_BASEPOINT_COMPRESSED, RISTRETTO_BASEPOINT_POINT};
use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint, VartimeRistrettoPrecomputation};
use curve25519_dalek::scalar::Scalar;
use zkforge_field::mont::{FieldConfig, Fp};
use curve25519_dalek::traits::{Identity, IsIdentity, MultiscalarMul, VartimeMultiscalarMul, VartimePrecomputedMultiscalarMul};
use rand_core::{CryptoRng, RngCore};
use sha3::digest::{ExtendableOutput, Update, XofReader};
use sha3::{Digest, Sha3_512, Shake256};

use crate::group::BpGroup;

/// The scalar field of Ristretto255 (and ed25519): the prime l.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scalar25519Config;
impl FieldConfig<4> for Scalar25519Config {
    const NAME: &'static str = "ristretto255::Scalar";
    // l = 2^252 + 27742317777372353535851937790883648493
    const MODULUS: [u64; 4] = [0x5812631a5cf5d3ed, 0x14def9dea2f79cd6, 0, 0x1000000000000000];
    // 2 is a quadratic non-residue mod l
    const GENERATOR: u64 = 2;
    type Bytes = [u8; 32];
}

/// A scalar mod l.
pub type Scalar25519 = Fp<Scalar25519Config, 4>;

/// The dalek scalar with the same value.
#[inline]
fn to_dalek(s: &Scalar25519) -> Scalar {
    // canonical by type: from_bytes_mod_order leaves it unchanged
    Scalar::from_bytes_mod_order(s.to_bytes_le())
}

fn to_dalek_vec(s: &[Scalar25519]) -> Vec<Scalar> {
    s.iter().map(to_dalek).collect()
}

/// Ristretto255 (curve25519-dalek).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ristretto255;

/// Precomputed Straus tables (dalek's `VartimeRistrettoPrecomputation`) and their count.
pub struct RistrettoTables {
    pre: VartimeRistrettoPrecomputation,
    len: usize,
}

impl BpGroup for Ristretto255 {
    type Scalar = Scalar25519;
    type Point = RistrettoPoint;
    type Tables = RistrettoTables;
    const NAME: &'static str = "ristretto255";
    const POINT_BYTES: usize = 32;

    fn scalar_from_u64(v: u64) -> Scalar25519 {
        Scalar25519::from_u64(v)
    }
    fn scalar_from_wide(bytes: &[u8; 64]) -> Scalar25519 {
        let mut be = *bytes;
        be.reverse();
        Scalar25519::from_bytes_be_mod_order(&be)
    }
    fn scalar_to_bytes(s: &Scalar25519) -> [u8; 32] {
        s.to_bytes_le()
    }
    fn scalar_from_canonical(bytes: &[u8; 32]) -> Option<Scalar25519> {
        Scalar25519::from_bytes_le(bytes).ok()
    }
    fn scalar_invert(s: &Scalar25519) -> Option<Scalar25519> {
        s.invert_vartime()
    }
    fn scalar_random<R: RngCore + CryptoRng>(rng: &mut R) -> Scalar25519 {
        // dalek's Scalar::random: 64 bytes reduced (so a seeded RNG gives dalek's proof bytes)
        let mut b = [0u8; 64];
        rng.fill_bytes(&mut b);
        let s = Self::scalar_from_wide(&b);
        zeroize::Zeroize::zeroize(&mut b);
        s
    }

    fn identity() -> RistrettoPoint {
        RistrettoPoint::identity()
    }
    fn neg(a: &RistrettoPoint) -> RistrettoPoint {
        -a
    }
    fn is_identity(a: &RistrettoPoint) -> bool {
        a.is_identity()
    }
    fn select(a: &RistrettoPoint, b: &RistrettoPoint, choice: subtle::Choice) -> RistrettoPoint {
        subtle::ConditionallySelectable::conditional_select(a, b, choice)
    }
    fn sum_ct(points: &[RistrettoPoint]) -> RistrettoPoint {
        points.iter().sum()
    }
    fn compress(p: &RistrettoPoint) -> Vec<u8> {
        p.compress().to_bytes().to_vec()
    }
    fn decompress(bytes: &[u8]) -> Option<RistrettoPoint> {
        CompressedRistretto::from_slice(bytes).ok()?.decompress()
    }

    fn msm_ct(scalars: &[Scalar25519], points: &[RistrettoPoint]) -> RistrettoPoint {
        let mut s = to_dalek_vec(scalars);
        let r = RistrettoPoint::multiscalar_mul(&s, points);
        s.iter_mut().for_each(zeroize::Zeroize::zeroize);
        r
    }
    fn msm_vartime(scalars: &[Scalar25519], points: &[RistrettoPoint]) -> RistrettoPoint {
        RistrettoPoint::vartime_multiscalar_mul(to_dalek_vec(scalars), points)
    }

    fn tables(points: &[RistrettoPoint]) -> RistrettoTables {
        RistrettoTables { pre: VartimeRistrettoPrecomputation::new(points), len: points.len() }
    }
    fn tables_bytes(t: &RistrettoTables) -> usize {
        // dalek keeps a width-8 NAF table per point: 64 cached points of 4 field elements
        // (4 x 40 bytes serial, 160 bytes as AVX2 lanes)
        t.len * 64 * 160
    }
    fn msm_mixed_vartime(
        tables: &RistrettoTables,
        static_scalars: &[Scalar25519],
        dynamic_scalars: &[Scalar25519],
        dynamic_points: &[RistrettoPoint],
    ) -> RistrettoPoint {
        assert_eq!(static_scalars.len(), tables.len, "one scalar per tabled point");
        tables.pre.vartime_mixed_multiscalar_mul(to_dalek_vec(static_scalars), to_dalek_vec(dynamic_scalars), dynamic_points)
    }

    fn prefer_tables(static_len: usize, dynamic_len: usize) -> bool {
        // measured (`cargo zkbench bulletproofs`): tables win for one 64-bit proof (130
        // tabled points, 17 others) and lose at 16 values (2050 tabled) and for batches of
        // 64 proofs (over 1000 others, which Pippenger handles better than Straus)
        static_len <= 600 && dynamic_len <= 64
    }
    fn pedersen_bases() -> (RistrettoPoint, RistrettoPoint) {
        let h: [u8; 64] = Sha3_512::digest(RISTRETTO_BASEPOINT_COMPRESSED.as_bytes()).into();
        (RISTRETTO_BASEPOINT_POINT, RistrettoPoint::from_uniform_bytes(&h))
    }

    fn generator_chain(label: &[u8], start: usize, count: usize) -> Vec<RistrettoPoint> {
        let mut shake = Shake256::default();
        shake.update(b"GeneratorsChain");
        shake.update(label);
        let mut reader = shake.finalize_xof();
        let mut buf = [0u8; 64];
        for _ in 0..start {
            reader.read(&mut buf);
        }
        (0..count)
            .map(|_| {
                reader.read(&mut buf);
                RistrettoPoint::from_uniform_bytes(&buf)
            })
            .collect()
    }
}

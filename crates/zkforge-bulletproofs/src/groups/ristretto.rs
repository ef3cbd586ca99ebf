//! Ristretto255 through curve25519-dalek 4 (its arithmetic and backend: serial, or AVX2/IFMA
//! where dalek selects them at run time), with dalek's `bulletproofs` 5.x generators so proofs
//! are interchangeable with that crate:
//! - Pedersen bases: B the ristretto255 basepoint, B_blinding = RistrettoPoint::hash_from_bytes
//!   over SHA3-512 of B's compressed bytes;
//! - generator chains: SHAKE256("GeneratorsChain" || label) read 64 bytes at a time, each block
//!   mapped by `RistrettoPoint::from_uniform_bytes` (labels `G` / `H` || party index u32 LE).

use curve25519_dalek::constants::{RISTRETTO_BASEPOINT_COMPRESSED, RISTRETTO_BASEPOINT_POINT};
use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint, VartimeRistrettoPrecomputation};
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::{Identity, IsIdentity, MultiscalarMul, VartimeMultiscalarMul, VartimePrecomputedMultiscalarMul};
use rand_core::{CryptoRng, RngCore};
use sha3::digest::{ExtendableOutput, Update, XofReader};
use sha3::{Sha3_512, Shake256};

use crate::group::BpGroup;

/// Ristretto255 (curve25519-dalek).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ristretto255;

/// Precomputed Straus tables (dalek's `VartimeRistrettoPrecomputation`) and their count.
pub struct RistrettoTables {
    pre: VartimeRistrettoPrecomputation,
    len: usize,
}

impl BpGroup for Ristretto255 {
    type Scalar = Scalar;
    type Point = RistrettoPoint;
    type Tables = RistrettoTables;
    const NAME: &'static str = "ristretto255";
    const POINT_BYTES: usize = 32;

    fn scalar_from_u64(v: u64) -> Scalar {
        Scalar::from(v)
    }
    fn scalar_from_wide(bytes: &[u8; 64]) -> Scalar {
        Scalar::from_bytes_mod_order_wide(bytes)
    }
    fn scalar_to_bytes(s: &Scalar) -> [u8; 32] {
        s.to_bytes()
    }
    fn scalar_from_canonical(bytes: &[u8; 32]) -> Option<Scalar> {
        Scalar::from_canonical_bytes(*bytes).into()
    }
    fn scalar_invert(s: &Scalar) -> Option<Scalar> {
        if *s == Scalar::ZERO {
            None
        } else {
            Some(s.invert())
        }
    }
    fn scalar_random<R: RngCore + CryptoRng>(rng: &mut R) -> Scalar {
        // dalek's Scalar::random: 64 bytes reduced (so a seeded RNG gives dalek's proof bytes)
        let mut b = [0u8; 64];
        rng.fill_bytes(&mut b);
        let s = Scalar::from_bytes_mod_order_wide(&b);
        zeroize::Zeroize::zeroize(&mut b);
        s
    }

    fn identity() -> RistrettoPoint {
        RistrettoPoint::identity()
    }
    fn add(a: &RistrettoPoint, b: &RistrettoPoint) -> RistrettoPoint {
        a + b
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

    fn msm_ct(scalars: &[Scalar], points: &[RistrettoPoint]) -> RistrettoPoint {
        RistrettoPoint::multiscalar_mul(scalars, points)
    }
    fn msm_vartime(scalars: &[Scalar], points: &[RistrettoPoint]) -> RistrettoPoint {
        RistrettoPoint::vartime_multiscalar_mul(scalars, points)
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
        static_scalars: &[Scalar],
        dynamic_scalars: &[Scalar],
        dynamic_points: &[RistrettoPoint],
    ) -> RistrettoPoint {
        assert_eq!(static_scalars.len(), tables.len, "one scalar per tabled point");
        tables.pre.vartime_mixed_multiscalar_mul(static_scalars, dynamic_scalars, dynamic_points)
    }

    fn pedersen_bases() -> (RistrettoPoint, RistrettoPoint) {
        (RISTRETTO_BASEPOINT_POINT, RistrettoPoint::hash_from_bytes::<Sha3_512>(RISTRETTO_BASEPOINT_COMPRESSED.as_bytes()))
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

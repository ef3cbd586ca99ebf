//! zkforge as revm's precompile crypto backend.
//!
//! revm-precompile (pinned to 43.0.3) routes the elliptic-curve and KZG work of its
//! precompiles through a [`Crypto`] trait object that an application can replace once, before
//! the first call. [`ZkforgeCrypto`] implements every method zkforge covers (BN254 add, mul
//! and pairing check; the seven EIP-2537 operations; the EIP-4844 KZG proof check) and keeps
//! revm's defaults for the rest (SHA-256, RIPEMD-160, ecrecover, modexp, BLAKE2, P-256).
//! revm still does the framing (gas, lengths, padding); the methods here decode, check and
//! compute, with the same error classes as revm's own backends.
//!
//! ```
//! use revm_precompile::install_crypto;
//! use zkforge_revm::ZkforgeCrypto;
//! // once, at start-up, before any precompile runs
//! let installed = install_crypto(ZkforgeCrypto::default());
//! assert!(installed);
//! ```

use revm_precompile::bls12_381::{G1Point, G1PointScalar, G2Point, G2PointScalar};
use revm_precompile::{Crypto, PrecompileHalt};
use zkforge_curve::bls12_381::{G1Affine as BlsG1, G2Affine as BlsG2};
use zkforge_evm::{bls12_381 as e2537, bn254 as e196, PrecompileError};
use zkforge_field::bls12_381::Fp2;

pub use revm_precompile::install_crypto;

/// The zkforge backend for revm's precompiles (stateless; install it with
/// [`install_crypto`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct ZkforgeCrypto;

fn bn_err(_: PrecompileError) -> PrecompileHalt {
    PrecompileHalt::Bn254AffineGFailedToCreate
}

fn bn_g1(b: &[u8]) -> Result<zkforge_curve::bn254::G1Affine, PrecompileHalt> {
    let b: &[u8; 64] = b.try_into().map_err(|_| PrecompileHalt::Bn254PairLength)?;
    e196::decode_g1(b).map_err(|e| match e {
        PrecompileError::NonCanonicalField => PrecompileHalt::Bn254FieldPointNotAMember,
        other => bn_err(other),
    })
}

fn bn_g2(b: &[u8]) -> Result<zkforge_curve::bn254::G2Affine, PrecompileHalt> {
    let b: &[u8; 128] = b.try_into().map_err(|_| PrecompileHalt::Bn254PairLength)?;
    e196::decode_g2(b).map_err(|e| match e {
        PrecompileError::NonCanonicalField => PrecompileHalt::Bn254FieldPointNotAMember,
        other => bn_err(other),
    })
}

fn bls_err(e: PrecompileError, g2: bool) -> PrecompileHalt {
    match (e, g2) {
        (PrecompileError::NonCanonicalField, _) => PrecompileHalt::NonCanonicalFp,
        (PrecompileError::NotInSubgroup, false) => PrecompileHalt::Bls12381G1NotInSubgroup,
        (PrecompileError::NotInSubgroup, true) => PrecompileHalt::Bls12381G2NotInSubgroup,
        (_, false) => PrecompileHalt::Bls12381G1NotOnCurve,
        (_, true) => PrecompileHalt::Bls12381G2NotOnCurve,
    }
}

fn bls_g1(p: &G1Point, subgroup: bool) -> Result<BlsG1, PrecompileHalt> {
    let f = |b| e2537::fp_from_be48(b).map_err(|e| bls_err(e, false));
    e2537::g1_from_xy(f(&p.0)?, f(&p.1)?, subgroup).map_err(|e| bls_err(e, false))
}

fn bls_g2(p: &G2Point, subgroup: bool) -> Result<BlsG2, PrecompileHalt> {
    let f = |b| e2537::fp_from_be48(b).map_err(|e| bls_err(e, true));
    let x = Fp2::new(f(&p.0)?, f(&p.1)?);
    let y = Fp2::new(f(&p.2)?, f(&p.3)?);
    e2537::g2_from_xy(x, y, subgroup).map_err(|e| bls_err(e, true))
}

fn g1_bytes(p: &BlsG1) -> [u8; 96] {
    let padded = e2537::encode_g1(p);
    let mut out = [0u8; 96];
    out[..48].copy_from_slice(&padded[16..64]);
    out[48..].copy_from_slice(&padded[80..128]);
    out
}

fn g2_bytes(p: &BlsG2) -> [u8; 192] {
    let padded = e2537::encode_g2(p);
    let mut out = [0u8; 192];
    for i in 0..4 {
        out[48 * i..48 * (i + 1)].copy_from_slice(&padded[64 * i + 16..64 * (i + 1)]);
    }
    out
}

impl Crypto for ZkforgeCrypto {
    fn bn254_g1_add(&self, p1: &[u8], p2: &[u8]) -> Result<[u8; 64], PrecompileHalt> {
        let (p, q) = (bn_g1(p1)?, bn_g1(p2)?);
        Ok(e196::encode_g1(&p.add_vartime(&q)))
    }

    fn bn254_g1_mul(&self, point: &[u8], s: &[u8]) -> Result<[u8; 64], PrecompileHalt> {
        let p = bn_g1(point)?;
        let s: &[u8; 32] = s.try_into().map_err(|_| PrecompileHalt::Bn254PairLength)?;
        Ok(e196::encode_g1(&p.to_jacobian().mul_limbs_vartime(&zkforge_evm::limbs_be(s)).to_affine_vartime()))
    }

    fn bn254_pairing_check(&self, pairs: &[(&[u8], &[u8])]) -> Result<bool, PrecompileHalt> {
        let mut decoded = Vec::with_capacity(pairs.len());
        for (g1, g2) in pairs {
            decoded.push((bn_g1(g1)?, bn_g2(g2)?));
        }
        Ok(zkforge_pairing::bn254::pairing_check(&decoded))
    }

    fn verify_kzg_proof(&self, z: &[u8; 32], y: &[u8; 32], commitment: &[u8; 48], proof: &[u8; 48]) -> Result<(), PrecompileHalt> {
        if zkforge_evm::point_evaluation::verify_kzg_proof(commitment, z, y, proof) {
            Ok(())
        } else {
            Err(PrecompileHalt::BlobVerifyKzgProofFailed)
        }
    }

    fn bls12_381_g1_add(&self, a: G1Point, b: G1Point) -> Result<[u8; 96], PrecompileHalt> {
        let (p, q) = (bls_g1(&a, false)?, bls_g1(&b, false)?);
        Ok(g1_bytes(&p.add_vartime(&q)))
    }

    fn bls12_381_g1_msm(&self, pairs: &mut dyn Iterator<Item = Result<G1PointScalar, PrecompileHalt>>) -> Result<[u8; 96], PrecompileHalt> {
        let (mut points, mut scalars) = (Vec::new(), Vec::new());
        for pair in pairs {
            let (p, s) = pair?;
            points.push(bls_g1(&p, true)?);
            scalars.push(zkforge_evm::limbs_be(&s));
        }
        let r = match points.len() {
            0 => return Ok([0u8; 96]),
            1 => points[0].to_jacobian().mul_limbs_vartime(&scalars[0]),
            _ => zkforge_msm::msm_threads(&points, &scalars, 1).expect("lengths match"),
        };
        Ok(g1_bytes(&r.to_affine_vartime()))
    }

    fn bls12_381_g2_add(&self, a: G2Point, b: G2Point) -> Result<[u8; 192], PrecompileHalt> {
        let (p, q) = (bls_g2(&a, false)?, bls_g2(&b, false)?);
        Ok(g2_bytes(&p.add_vartime(&q)))
    }

    fn bls12_381_g2_msm(&self, pairs: &mut dyn Iterator<Item = Result<G2PointScalar, PrecompileHalt>>) -> Result<[u8; 192], PrecompileHalt> {
        let (mut points, mut scalars) = (Vec::new(), Vec::new());
        for pair in pairs {
            let (p, s) = pair?;
            points.push(bls_g2(&p, true)?);
            scalars.push(zkforge_evm::limbs_be(&s));
        }
        let r = match points.len() {
            0 => return Ok([0u8; 192]),
            1 => points[0].to_jacobian().mul_limbs_vartime(&scalars[0]),
            _ => zkforge_msm::msm_threads(&points, &scalars, 1).expect("lengths match"),
        };
        Ok(g2_bytes(&r.to_affine_vartime()))
    }

    fn bls12_381_pairing_check(&self, pairs: &[(G1Point, G2Point)]) -> Result<bool, PrecompileHalt> {
        let mut decoded = Vec::with_capacity(pairs.len());
        for (p, q) in pairs {
            decoded.push((bls_g1(p, true)?, bls_g2(q, true)?));
        }
        Ok(zkforge_pairing::bls12_381::pairing_check(&decoded))
    }

    fn bls12_381_fp_to_g1(&self, fp: &[u8; 48]) -> Result<[u8; 96], PrecompileHalt> {
        let u = e2537::fp_from_be48(fp).map_err(|e| bls_err(e, false))?;
        Ok(g1_bytes(&zkforge_curve::hash_to_curve::map_fp_to_g1(&u)))
    }

    fn bls12_381_fp2_to_g2(&self, fp2: ([u8; 48], [u8; 48])) -> Result<[u8; 192], PrecompileHalt> {
        let f = |b| e2537::fp_from_be48(b).map_err(|e| bls_err(e, true));
        let u = Fp2::new(f(&fp2.0)?, f(&fp2.1)?);
        Ok(g2_bytes(&zkforge_curve::hash_to_curve::map_fp2_to_g2(&u)))
    }
}

/// Run revm-precompile's own entry point for the precompile at `address` (0x06-0x08 at
/// Istanbul prices, 0x0a, 0x0b-0x11) through whichever backend is installed (revm's defaults
/// when none is): gas used and output, or revm's halt reason; `None` for an address it does not
/// cover here. The differential tests and the benchmarks use it to call revm the same way.
pub fn revm_call(address: u8, input: &[u8], gas_limit: u64) -> Option<Result<(u64, Vec<u8>), PrecompileHalt>> {
    use revm_precompile::{bls12_381 as b, bn254, kzg_point_evaluation as kzg};
    const ISTANBUL: zkforge_evm::GasSchedule = zkforge_evm::GasSchedule::Istanbul;
    let r = match address {
        0x06 => bn254::run_add(input, ISTANBUL.add(), gas_limit),
        0x07 => bn254::run_mul(input, ISTANBUL.mul(), gas_limit),
        0x08 => bn254::run_pair(input, ISTANBUL.pairing(1) - ISTANBUL.pairing(0), ISTANBUL.pairing(0), gas_limit),
        0x0a => kzg::run(input, gas_limit),
        0x0b => b::g1_add::g1_add(input, gas_limit),
        0x0c => b::g1_msm::g1_msm(input, gas_limit),
        0x0d => b::g2_add::g2_add(input, gas_limit),
        0x0e => b::g2_msm::g2_msm(input, gas_limit),
        0x0f => b::pairing::pairing(input, gas_limit),
        0x10 => b::map_fp_to_g1::map_fp_to_g1(input, gas_limit),
        0x11 => b::map_fp2_to_g2::map_fp2_to_g2(input, gas_limit),
        _ => return None,
    };
    Some(r.map(|o| (o.gas_used, o.bytes.to_vec())))
}

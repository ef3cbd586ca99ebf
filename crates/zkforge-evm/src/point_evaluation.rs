//! 0x0a POINT_EVALUATION (EIP-4844): check that a KZG commitment C opens to y at z with proof
//! pi, for blobs committed under Ethereum's KZG ceremony.
//!
//! Input (192 bytes): versioned_hash || z || y || C || pi, with z and y 32-byte big-endian
//! scalars below r and C, pi compressed G1 points (48 bytes, Zcash format, in the subgroup).
//! The versioned hash must be 0x01 || sha256(C)[1..]. The check is
//! e(C - [y]G1, G2) = e(pi, [tau]G2 - [z]G2), run as one two-pair pairing check; [tau]G2 is
//! the ceremony's second G2 power (`g2_monomial[1]` of the mainnet trusted setup). Output:
//! FIELD_ELEMENTS_PER_BLOB (4096) and the BLS modulus r, each as a 32-byte word. Gas 50000.

use std::sync::OnceLock;

use sha2::{Digest, Sha256};
use zkforge_curve::bls12_381::{G1Affine, G1Projective, G2Affine, G2Projective, Scalar};

use crate::{charge, Output, PrecompileError};

/// POINT_EVALUATION's price.
pub const GAS: u64 = 50_000;

/// [tau]G2 of the Ethereum KZG ceremony (mainnet `trusted_setup.txt`, `g2_monomial[1]`),
/// compressed.
pub const TAU_G2_COMPRESSED: &str = "b5bfd7dd8cdeb128843bc287230af38926187075cbfbefa81009a2ce615ac53d2914e5870cb452d2afaaab24f3499f72185cbfee53492714734429b7b38608e23926c911cceceac9a36851477ba4c60b087041de621000edc98edada20c1def2";

/// The fixed output: 4096 and r, as two 32-byte big-endian words.
pub const RETURN_VALUE: [u8; 64] = {
    let mut out = [0u8; 64];
    out[30] = 0x10;
    let r: [u8; 32] = [
        0x73, 0xed, 0xa7, 0x53, 0x29, 0x9d, 0x7d, 0x48, 0x33, 0x39, 0xd8, 0x08, 0x09, 0xa1, 0xd8, 0x05, 0x53, 0xbd, 0xa4, 0x02,
        0xff, 0xfe, 0x5b, 0xfe, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01,
    ];
    let mut i = 0;
    while i < 32 {
        out[32 + i] = r[i];
        i += 1;
    }
    out
};

fn tau_g2() -> &'static G2Affine {
    static TAU: OnceLock<G2Affine> = OnceLock::new();
    TAU.get_or_init(|| {
        let b: Vec<u8> = (0..96).map(|i| u8::from_str_radix(&TAU_G2_COMPRESSED[2 * i..2 * i + 2], 16).expect("hex")).collect();
        G2Affine::from_compressed(&b).expect("the ceremony's [tau]G2 decodes")
    })
}

/// 0x01 || sha256(commitment)[1..], the EIP-4844 versioned hash.
pub fn versioned_hash(commitment: &[u8]) -> [u8; 32] {
    let mut h: [u8; 32] = Sha256::digest(commitment).into();
    h[0] = 0x01;
    h
}

/// Verify a KZG opening: C opens to y at z with proof pi (all as their byte encodings).
/// False for any input that does not decode (non-canonical scalars, bad points).
pub fn verify_kzg_proof(commitment: &[u8; 48], z: &[u8; 32], y: &[u8; 32], proof: &[u8; 48]) -> bool {
    let (Ok(c), Ok(pi), Ok(z), Ok(y)) =
        (G1Affine::from_compressed(commitment), G1Affine::from_compressed(proof), Scalar::from_bytes_be(z), Scalar::from_bytes_be(y))
    else {
        return false;
    };
    // e(C - [y]G1, -G2) * e(pi, [tau - z]G2) = 1
    // public data: variable-time multiplications and normalisations
    let lhs = (c.to_jacobian() - G1Projective::generator().mul_limbs_vartime(&y.to_limbs())).to_affine_vartime();
    let rhs = (tau_g2().to_jacobian() - G2Projective::generator().mul_limbs_vartime(&z.to_limbs())).to_affine_vartime();
    zkforge_pairing::bls12_381::pairing_check(&[(lhs, -G2Affine::generator()), (pi, rhs)])
}

/// 0x0a POINT_EVALUATION.
pub fn point_evaluation(input: &[u8], gas_limit: u64) -> Result<Output, PrecompileError> {
    let gas = charge(GAS, gas_limit)?;
    if input.len() != 192 {
        return Err(PrecompileError::InvalidLength { got: input.len(), expected: "exactly 192 bytes" });
    }
    if versioned_hash(&input[96..144]) != input[..32] {
        return Err(PrecompileError::VersionedHashMismatch);
    }
    let field = |r: core::ops::Range<usize>| -> [u8; 32] { input[r].try_into().expect("32 bytes") };
    let point = |r: core::ops::Range<usize>| -> [u8; 48] { input[r].try_into().expect("48 bytes") };
    if !verify_kzg_proof(&point(96..144), &field(32..64), &field(64..96), &point(144..192)) {
        return Err(PrecompileError::KzgProofInvalid);
    }
    Ok(Output::new(gas, RETURN_VALUE.to_vec()))
}

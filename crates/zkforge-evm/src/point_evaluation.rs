//! 0x0a POINT_EVALUATION (EIP-4844): check that a KZG commitment C opens to y at z with proof
//! pi, for blobs committed under Ethereum's KZG ceremony.
//!
//! Input (192 bytes): versioned_hash || z || y || C || pi, with z and y 32-byte big-endian
//! scalars below r and C, pi compressed G1 points (48 bytes, Zcash format, in the subgroup).
//! The versioned hash must be 0x01 || sha256(C)[1..]. The check is
//! e(C - [y]G1, G2) = e(pi, [tau]G2 - [z]G2), run as one two-pair pairing check; [tau]G2 is
//! the ceremony's second G2 power (`g2_monomial[1]` of the mainnet trusted setup). Output:
//! FIELD_ELEMENTS_PER_BLOB (4096) and the BLS modulus r, each as a 32-byte word. Gas 50000.
//! The opening check is zkforge-kzg's (`verify_kzg_proof_mainnet`), which needs only [tau]G2.

use sha2::{Digest, Sha256};

use crate::{charge, Output, PrecompileError};

/// POINT_EVALUATION's price.
pub const GAS: u64 = 50_000;

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

/// 0x01 || sha256(commitment)[1..], the EIP-4844 versioned hash.
pub fn versioned_hash(commitment: &[u8]) -> [u8; 32] {
    let mut h: [u8; 32] = Sha256::digest(commitment).into();
    h[0] = 0x01;
    h
}

/// Verify a KZG opening: C opens to y at z with proof pi (all as their byte encodings).
/// False for any input that does not decode (non-canonical scalars, bad points).
pub fn verify_kzg_proof(commitment: &[u8; 48], z: &[u8; 32], y: &[u8; 32], proof: &[u8; 48]) -> bool {
    zkforge_kzg::verify_kzg_proof_mainnet(commitment, z, y, proof).unwrap_or(false)
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

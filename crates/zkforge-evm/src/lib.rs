//! EVM precompiles over zkforge, bytes in and bytes out, with the consensus gas rules and a
//! typed error for every way an input can be refused.
//!
//! | address | precompile | spec | gas |
//! |---|---|---|---|
//! | 0x06 | ECADD (BN254 G1) | EIP-196 | 150 (Istanbul, EIP-1108); 500 (Byzantium) |
//! | 0x07 | ECMUL (BN254 G1) | EIP-196 | 6000; 40000 |
//! | 0x08 | ECPAIRING (BN254) | EIP-197 | 45000 + 34000 k; 100000 + 80000 k |
//! | 0x0a | POINT_EVALUATION (KZG, BLS12-381) | EIP-4844 | 50000 |
//! | 0x0b | BLS12_G1ADD | EIP-2537 | 375 |
//! | 0x0c | BLS12_G1MSM | EIP-2537 | 12000 k d(k) / 1000 |
//! | 0x0d | BLS12_G2ADD | EIP-2537 | 600 |
//! | 0x0e | BLS12_G2MSM | EIP-2537 | 22500 k d(k) / 1000 |
//! | 0x0f | BLS12_PAIRING_CHECK | EIP-2537 | 37700 + 32600 k |
//! | 0x10 | BLS12_MAP_FP_TO_G1 | EIP-2537 | 5500 |
//! | 0x11 | BLS12_MAP_FP2_TO_G2 | EIP-2537 | 23800 |
//!
//! Semantics follow the EIPs as shipped (Istanbul for BN254, Prague for EIP-2537, Cancun for
//! 0x0a) and are checked against go-ethereum's precompile test data, the EIP-2537 authors'
//! vectors and revm-precompile (differentially, `tests/`). An error consumes all the gas the
//! call was given, as in every client; [`PrecompileError`] says why.
//!
//! ```
//! use zkforge_evm::{call, BN254_ADD};
//! // G + G on BN254 (the generator is (1, 2))
//! let mut input = [0u8; 128];
//! input[31] = 1; input[63] = 2; input[95] = 1; input[127] = 2;
//! let out = call(BN254_ADD, &input, 1_000).unwrap();
//! assert_eq!(out.gas_used, 150);
//! assert_eq!(out.bytes.len(), 64);
//! ```

pub mod bls12_381;
pub mod bn254;
pub mod point_evaluation;

pub use bn254::GasSchedule;

/// ECADD, BN254 G1 addition.
pub const BN254_ADD: u8 = 0x06;
/// ECMUL, BN254 G1 scalar multiplication.
pub const BN254_MUL: u8 = 0x07;
/// ECPAIRING, BN254 pairing check.
pub const BN254_PAIRING: u8 = 0x08;
/// POINT_EVALUATION, the EIP-4844 KZG proof check.
pub const POINT_EVALUATION: u8 = 0x0a;
/// BLS12_G1ADD.
pub const BLS12_G1ADD: u8 = 0x0b;
/// BLS12_G1MSM.
pub const BLS12_G1MSM: u8 = 0x0c;
/// BLS12_G2ADD.
pub const BLS12_G2ADD: u8 = 0x0d;
/// BLS12_G2MSM.
pub const BLS12_G2MSM: u8 = 0x0e;
/// BLS12_PAIRING_CHECK.
pub const BLS12_PAIRING_CHECK: u8 = 0x0f;
/// BLS12_MAP_FP_TO_G1.
pub const BLS12_MAP_FP_TO_G1: u8 = 0x10;
/// BLS12_MAP_FP2_TO_G2.
pub const BLS12_MAP_FP2_TO_G2: u8 = 0x11;

/// A successful call: the gas it charged and its output bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// Gas charged (never more than the call's limit).
    pub gas_used: u64,
    /// The return data.
    pub bytes: Vec<u8>,
}

impl Output {
    pub(crate) fn new(gas_used: u64, bytes: Vec<u8>) -> Self {
        Self { gas_used, bytes }
    }
}

/// Why a precompile call failed. Every failure consumes all the gas the call was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PrecompileError {
    /// The call's gas limit is below the precompile's price for this input.
    #[error("out of gas: the call needs {needed} gas")]
    OutOfGas {
        /// The price of this input.
        needed: u64,
    },
    /// The input length is not one the precompile accepts.
    #[error("input length {got} is invalid: {expected}")]
    InvalidLength {
        /// The length given.
        got: usize,
        /// What the precompile accepts, in words.
        expected: &'static str,
    },
    /// A field element is not below the modulus.
    #[error("a field element is not below the field modulus")]
    NonCanonicalField,
    /// An EIP-2537 field element's top 16 bytes are not zero.
    #[error("a 64-byte field element does not start with 16 zero bytes")]
    InvalidPadding,
    /// A point is not on its curve.
    #[error("a point is not on the curve")]
    NotOnCurve,
    /// A point is on its curve but outside the prime-order subgroup.
    #[error("a point is not in the prime-order subgroup")]
    NotInSubgroup,
    /// POINT_EVALUATION: the versioned hash is not that of the commitment.
    #[error("the versioned hash does not match the commitment")]
    VersionedHashMismatch,
    /// POINT_EVALUATION: the KZG proof does not verify (or an input does not decode).
    #[error("the KZG proof does not verify")]
    KzgProofInvalid,
    /// No precompile here at this address.
    #[error("no precompile at address {0:#04x}")]
    UnknownAddress(u8),
}

/// Run the precompile at `address` (the low byte of 0x00..00XX) on `input` with `gas_limit`,
/// under the current schedule (Istanbul prices for BN254, Prague for EIP-2537).
pub fn call(address: u8, input: &[u8], gas_limit: u64) -> Result<Output, PrecompileError> {
    call_with(address, input, gas_limit, GasSchedule::Istanbul)
}

/// [`call`] with the BN254 gas schedule chosen (Byzantium or Istanbul).
pub fn call_with(address: u8, input: &[u8], gas_limit: u64, schedule: GasSchedule) -> Result<Output, PrecompileError> {
    match address {
        BN254_ADD => bn254::ec_add(input, gas_limit, schedule),
        BN254_MUL => bn254::ec_mul(input, gas_limit, schedule),
        BN254_PAIRING => bn254::ec_pairing(input, gas_limit, schedule),
        POINT_EVALUATION => point_evaluation::point_evaluation(input, gas_limit),
        BLS12_G1ADD => bls12_381::g1_add(input, gas_limit),
        BLS12_G1MSM => bls12_381::g1_msm(input, gas_limit),
        BLS12_G2ADD => bls12_381::g2_add(input, gas_limit),
        BLS12_G2MSM => bls12_381::g2_msm(input, gas_limit),
        BLS12_PAIRING_CHECK => bls12_381::pairing_check(input, gas_limit),
        BLS12_MAP_FP_TO_G1 => bls12_381::map_fp_to_g1(input, gas_limit),
        BLS12_MAP_FP2_TO_G2 => bls12_381::map_fp2_to_g2(input, gas_limit),
        other => Err(PrecompileError::UnknownAddress(other)),
    }
}

/// Fail with [`PrecompileError::OutOfGas`] when `gas_limit < needed`.
pub(crate) fn charge(needed: u64, gas_limit: u64) -> Result<u64, PrecompileError> {
    if needed > gas_limit {
        return Err(PrecompileError::OutOfGas { needed });
    }
    Ok(needed)
}

/// The 32-byte word 0...0b.
pub(crate) fn word_bool(b: bool) -> Vec<u8> {
    let mut out = vec![0u8; 32];
    out[31] = b as u8;
    out
}

/// A 32-byte big-endian scalar (any 256-bit value, as the EVM passes them) as little-endian
/// limbs. Panics if `b` is shorter than 32 bytes.
pub fn limbs_be(b: &[u8]) -> [u64; 4] {
    core::array::from_fn(|i| u64::from_be_bytes(b[24 - 8 * i..32 - 8 * i].try_into().expect("8 bytes")))
}

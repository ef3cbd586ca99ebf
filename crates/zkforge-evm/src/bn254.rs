//! BN254 (alt_bn128) precompiles: ECADD 0x06 and ECMUL 0x07 (EIP-196), ECPAIRING 0x08
//! (EIP-197), with EIP-1108's Istanbul prices or the original Byzantium ones.
//!
//! Encodings: field elements are 32-byte big-endian and must be below p; G1 is x || y, G2 is
//! x.im || x.re || y.im || y.re (imaginary part first); the all-zero encoding is the point at
//! infinity. ECADD and ECMUL right-pad a short input with zeros and ignore bytes past 128 / 96;
//! ECPAIRING takes a multiple of 192 bytes, checks G1 points on the curve (G1 has cofactor 1)
//! and G2 points on the twist and in the order-r subgroup.

use zkforge_curve::bn254::{G1Affine, G1Projective, G2Affine};
use zkforge_field::bn254::{Fp, Fp2};

use crate::{charge, limbs_be, word_bool, Output, PrecompileError};

/// Which hard fork's BN254 prices apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GasSchedule {
    /// Byzantium (EIP-196/197 as first shipped): 500, 40000, 100000 + 80000 k.
    Byzantium,
    /// Istanbul and later (EIP-1108): 150, 6000, 45000 + 34000 k.
    #[default]
    Istanbul,
}

impl GasSchedule {
    /// ECADD's price.
    pub const fn add(self) -> u64 {
        match self {
            Self::Byzantium => 500,
            Self::Istanbul => 150,
        }
    }
    /// ECMUL's price.
    pub const fn mul(self) -> u64 {
        match self {
            Self::Byzantium => 40_000,
            Self::Istanbul => 6_000,
        }
    }
    /// ECPAIRING's price for k pairs.
    pub const fn pairing(self, k: u64) -> u64 {
        match self {
            Self::Byzantium => 100_000 + 80_000 * k,
            Self::Istanbul => 45_000 + 34_000 * k,
        }
    }
}

/// The first `N` bytes of `input`, right-padded with zeros.
fn padded<const N: usize>(input: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    let n = input.len().min(N);
    out[..n].copy_from_slice(&input[..n]);
    out
}

fn fp(b: &[u8]) -> Result<Fp, PrecompileError> {
    Fp::from_bytes_be(b).map_err(|_| PrecompileError::NonCanonicalField)
}

/// Decode a 64-byte G1 point: coordinates below p, (0, 0) the identity, else on the curve
/// (which for BN254 G1, of prime order, is also the subgroup).
pub fn decode_g1(b: &[u8; 64]) -> Result<G1Affine, PrecompileError> {
    let x = fp(&b[..32])?;
    let y = fp(&b[32..])?;
    let p = G1Affine::new_unchecked(x, y);
    if bool::from(p.is_identity()) {
        return Ok(p);
    }
    if !p.is_on_curve() {
        return Err(PrecompileError::NotOnCurve);
    }
    Ok(p)
}

/// Decode a 128-byte G2 point (imaginary parts first): coordinates below p, all zeros the
/// identity, else on the twist and in the order-r subgroup.
pub fn decode_g2(b: &[u8; 128]) -> Result<G2Affine, PrecompileError> {
    let x = Fp2::new(fp(&b[32..64])?, fp(&b[..32])?);
    let y = Fp2::new(fp(&b[96..128])?, fp(&b[64..96])?);
    let p = G2Affine::new_unchecked(x, y);
    if bool::from(p.is_identity()) {
        return Ok(p);
    }
    if !p.is_on_curve() {
        return Err(PrecompileError::NotOnCurve);
    }
    if !p.is_in_subgroup() {
        return Err(PrecompileError::NotInSubgroup);
    }
    Ok(p)
}

/// The 64-byte encoding x || y (all zeros for the identity).
pub fn encode_g1(p: &G1Affine) -> [u8; 64] {
    let mut out = [0u8; 64];
    if !bool::from(p.is_identity()) {
        out[..32].copy_from_slice(p.x().to_bytes_be().as_ref());
        out[32..].copy_from_slice(p.y().to_bytes_be().as_ref());
    }
    out
}

/// The 128-byte encoding x.im || x.re || y.im || y.re (all zeros for the identity).
pub fn encode_g2(p: &G2Affine) -> [u8; 128] {
    let mut out = [0u8; 128];
    if !bool::from(p.is_identity()) {
        let (x, y) = (p.x(), p.y());
        for (i, c) in [x.c1, x.c0, y.c1, y.c0].iter().enumerate() {
            out[32 * i..32 * (i + 1)].copy_from_slice(c.to_bytes_be().as_ref());
        }
    }
    out
}

/// 0x06 ECADD: P + Q.
pub fn ec_add(input: &[u8], gas_limit: u64, schedule: GasSchedule) -> Result<Output, PrecompileError> {
    let gas = charge(schedule.add(), gas_limit)?;
    let b: [u8; 128] = padded(input);
    let p = decode_g1(b[..64].try_into().expect("64 bytes"))?;
    let q = decode_g1(b[64..].try_into().expect("64 bytes"))?;
    let r = p.add_vartime(&q);
    Ok(Output::new(gas, encode_g1(&r).to_vec()))
}

/// 0x07 ECMUL: [s] P for a 256-bit s (any value; G1 has order r, so s acts mod r).
pub fn ec_mul(input: &[u8], gas_limit: u64, schedule: GasSchedule) -> Result<Output, PrecompileError> {
    let gas = charge(schedule.mul(), gas_limit)?;
    let b: [u8; 96] = padded(input);
    let p = decode_g1(b[..64].try_into().expect("64 bytes"))?;
    let r: G1Projective = p.to_jacobian().mul_limbs_vartime(&limbs_be(&b[64..]));
    Ok(Output::new(gas, encode_g1(&r.to_affine_vartime()).to_vec()))
}

/// 0x08 ECPAIRING: 1 when prod e(P_i, Q_i) = 1 (also for no pairs), else 0.
pub fn ec_pairing(input: &[u8], gas_limit: u64, schedule: GasSchedule) -> Result<Output, PrecompileError> {
    let gas = charge(schedule.pairing((input.len() / 192) as u64), gas_limit)?;
    if input.len() % 192 != 0 {
        return Err(PrecompileError::InvalidLength { got: input.len(), expected: "a multiple of 192 bytes" });
    }
    let mut pairs = Vec::with_capacity(input.len() / 192);
    for chunk in input.chunks_exact(192) {
        let p = decode_g1(chunk[..64].try_into().expect("64 bytes"))?;
        let q = decode_g2(chunk[64..].try_into().expect("128 bytes"))?;
        pairs.push((p, q));
    }
    Ok(Output::new(gas, word_bool(zkforge_pairing::bn254::pairing_check(&pairs))))
}

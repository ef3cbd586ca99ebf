//! The EIP-2537 BLS12-381 precompiles 0x0b-0x11 as shipped in Prague.
//!
//! Encodings: a field element is 64 bytes, 16 zero bytes then 48 big-endian bytes below p;
//! G1 is x || y (128 bytes), G2 is x.c0 || x.c1 || y.c0 || y.c1 (256 bytes); (0, 0) is the
//! point at infinity; a scalar is 32 bytes big-endian, any value. Points must be on their
//! curve everywhere; the MSM and pairing precompiles also require the prime-order subgroup
//! (the additions do not). Gas: G1ADD 375, G2ADD 600, MSM k * base * d(k) / 1000 with the
//! EIP's discount tables (base 12000 / 22500), PAIRING_CHECK 37700 + 32600 k, MAP_FP_TO_G1
//! 5500, MAP_FP2_TO_G2 23800. The order of the length and gas checks follows the EIP's
//! reference (fixed-price calls check gas first, priced-by-length calls the length first).
//! PAIRING_CHECK tests its G2 points with the Miller loop's last point by default
//! ([`G2Check`]).

use zkforge_curve::bls12_381::{G1Affine, G2Affine};
use zkforge_field::bls12_381::{Fp, Fp2};
use zkforge_curve::hash_to_curve::{map_fp2_to_g2_vartime, map_fp_to_g1_vartime};

use crate::{charge, limbs_be, word_bool, Output, PrecompileError};

/// G1ADD's price.
pub const G1ADD_GAS: u64 = 375;
/// G2ADD's price.
pub const G2ADD_GAS: u64 = 600;
/// G1MSM's price per pair before the discount.
pub const G1MSM_BASE_GAS: u64 = 12_000;
/// G2MSM's price per pair before the discount.
pub const G2MSM_BASE_GAS: u64 = 22_500;
/// PAIRING_CHECK's price per pair.
pub const PAIRING_PER_PAIR_GAS: u64 = 32_600;
/// PAIRING_CHECK's fixed price.
pub const PAIRING_BASE_GAS: u64 = 37_700;
/// MAP_FP_TO_G1's price.
pub const MAP_FP_TO_G1_GAS: u64 = 5_500;
/// MAP_FP2_TO_G2's price.
pub const MAP_FP2_TO_G2_GAS: u64 = 23_800;

/// EIP-2537's G1MSM discount d(k) for k = 1..=128, per mille (k > 128: the last entry).
pub const G1_DISCOUNT: [u16; 128] = [
    1000, 949, 848, 797, 764, 750, 738, 728, 719, 712, 705, 698, 692, 687, 682, 677, 673, 669, 665, 661, 658, 654, 651, 648,
    645, 642, 640, 637, 635, 632, 630, 627, 625, 623, 621, 619, 617, 615, 613, 611, 609, 608, 606, 604, 603, 601, 599, 598,
    596, 595, 593, 592, 591, 589, 588, 586, 585, 584, 582, 581, 580, 579, 577, 576, 575, 574, 573, 572, 570, 569, 568, 567,
    566, 565, 564, 563, 562, 561, 560, 559, 558, 557, 556, 555, 554, 553, 552, 551, 550, 549, 548, 547, 547, 546, 545, 544,
    543, 542, 541, 540, 540, 539, 538, 537, 536, 536, 535, 534, 533, 532, 532, 531, 530, 529, 528, 528, 527, 526, 525, 525,
    524, 523, 522, 522, 521, 520, 520, 519,
];
/// EIP-2537's G2MSM discount d(k) for k = 1..=128, per mille (k > 128: the last entry).
pub const G2_DISCOUNT: [u16; 128] = [
    1000, 1000, 923, 884, 855, 832, 812, 796, 782, 770, 759, 749, 740, 732, 724, 717, 711, 704, 699, 693, 688, 683, 679,
    674, 670, 666, 663, 659, 655, 652, 649, 646, 643, 640, 637, 634, 632, 629, 627, 624, 622, 620, 618, 615, 613, 611, 609,
    607, 606, 604, 602, 600, 598, 597, 595, 593, 592, 590, 589, 587, 586, 584, 583, 582, 580, 579, 578, 576, 575, 574, 573,
    571, 570, 569, 568, 567, 566, 565, 563, 562, 561, 560, 559, 558, 557, 556, 555, 554, 553, 552, 552, 551, 550, 549, 548,
    547, 546, 545, 545, 544, 543, 542, 541, 541, 540, 539, 538, 537, 537, 536, 535, 535, 534, 533, 532, 532, 531, 530, 530,
    529, 528, 528, 527, 526, 526, 525, 524, 524,
];

/// The price of an MSM of k pairs: k * base * d(k) / 1000 (0 for k = 0).
pub fn msm_gas(k: usize, base: u64, discount: &[u16; 128]) -> u64 {
    if k == 0 {
        return 0;
    }
    let d = discount[(k - 1).min(127)] as u64;
    (k as u64 * base * d) / 1000
}

/// Decode one 64-byte field element: 16 zero bytes, then 48 big-endian bytes below p.
pub fn decode_fp(b: &[u8]) -> Result<Fp, PrecompileError> {
    if b[..16].iter().any(|&v| v != 0) {
        return Err(PrecompileError::InvalidPadding);
    }
    Fp::from_bytes_be(&b[16..64]).map_err(|_| PrecompileError::NonCanonicalField)
}

/// Decode a 128-byte Fp2 element c0 || c1.
pub fn decode_fp2(b: &[u8]) -> Result<Fp2, PrecompileError> {
    Ok(Fp2::new(decode_fp(&b[..64])?, decode_fp(&b[64..128])?))
}

/// Decode a 128-byte G1 point: (0, 0) the identity, else on the curve; with `subgroup` also in
/// the prime-order subgroup.
pub fn decode_g1(b: &[u8], subgroup: bool) -> Result<G1Affine, PrecompileError> {
    padding_first(&b[..128])?;
    g1_from_xy(decode_fp(&b[..64])?, decode_fp(&b[64..128])?, subgroup)
}

/// Decode a 256-byte G2 point, as [`decode_g1`].
pub fn decode_g2(b: &[u8], subgroup: bool) -> Result<G2Affine, PrecompileError> {
    padding_first(&b[..256])?;
    g2_from_xy(decode_fp2(&b[..128])?, decode_fp2(&b[128..256])?, subgroup)
}

/// Decode a 48-byte big-endian field element (no padding), below p.
pub fn fp_from_be48(b: &[u8; 48]) -> Result<Fp, PrecompileError> {
    Fp::from_bytes_be(b).map_err(|_| PrecompileError::NonCanonicalField)
}

/// The G1 point (x, y): (0, 0) the identity, else on the curve, and with `subgroup` in the
/// prime-order subgroup.
pub fn g1_from_xy(x: Fp, y: Fp, subgroup: bool) -> Result<G1Affine, PrecompileError> {
    checked(G1Affine::new_unchecked(x, y), subgroup)
}

/// The G2 point (x, y), as [`g1_from_xy`].
pub fn g2_from_xy(x: Fp2, y: Fp2, subgroup: bool) -> Result<G2Affine, PrecompileError> {
    checked(G2Affine::new_unchecked(x, y), subgroup)
}

fn checked<C: zkforge_curve::CurveConfig>(p: zkforge_curve::Affine<C>, subgroup: bool) -> Result<zkforge_curve::Affine<C>, PrecompileError> {
    if bool::from(p.is_identity()) {
        return Ok(p);
    }
    if !p.is_on_curve() {
        return Err(PrecompileError::NotOnCurve);
    }
    if subgroup && !p.is_in_subgroup() {
        return Err(PrecompileError::NotInSubgroup);
    }
    Ok(p)
}

fn put_fp(out: &mut [u8], x: &Fp) {
    out[16..64].copy_from_slice(x.to_bytes_be().as_ref());
}

/// The 128-byte encoding of a G1 point (all zeros for the identity).
pub fn encode_g1(p: &G1Affine) -> Vec<u8> {
    let mut out = vec![0u8; 128];
    if !bool::from(p.is_identity()) {
        put_fp(&mut out[..64], &p.x());
        put_fp(&mut out[64..], &p.y());
    }
    out
}

/// The 256-byte encoding of a G2 point (all zeros for the identity).
pub fn encode_g2(p: &G2Affine) -> Vec<u8> {
    let mut out = vec![0u8; 256];
    if !bool::from(p.is_identity()) {
        let (x, y) = (p.x(), p.y());
        for (i, c) in [x.c0, x.c1, y.c0, y.c1].iter().enumerate() {
            put_fp(&mut out[64 * i..64 * (i + 1)], c);
        }
    }
    out
}

/// The padding of every 64-byte field slot of `input`, checked before anything else is decoded
/// (the order revm's and geth's framing use for the additions and the pairing check, so the
/// first error reported is the same).
fn padding_first(input: &[u8]) -> Result<(), PrecompileError> {
    if input.chunks_exact(64).any(|slot| slot[..16].iter().any(|&v| v != 0)) {
        return Err(PrecompileError::InvalidPadding);
    }
    Ok(())
}

fn exact(input: &[u8], len: usize, expected: &'static str) -> Result<(), PrecompileError> {
    if input.len() != len {
        return Err(PrecompileError::InvalidLength { got: input.len(), expected });
    }
    Ok(())
}

fn multiple(input: &[u8], unit: usize, expected: &'static str) -> Result<usize, PrecompileError> {
    if input.is_empty() || input.len() % unit != 0 {
        return Err(PrecompileError::InvalidLength { got: input.len(), expected });
    }
    Ok(input.len() / unit)
}

/// 0x0b BLS12_G1ADD: P + Q for two points on the curve (no subgroup check).
pub fn g1_add(input: &[u8], gas_limit: u64) -> Result<Output, PrecompileError> {
    let gas = charge(G1ADD_GAS, gas_limit)?;
    exact(input, 256, "exactly 256 bytes")?;
    padding_first(input)?;
    let p = decode_g1(&input[..128], false)?;
    let q = decode_g1(&input[128..], false)?;
    Ok(Output::new(gas, encode_g1(&p.add_vartime(&q))))
}

/// 0x0d BLS12_G2ADD: P + Q for two points on the twist (no subgroup check).
pub fn g2_add(input: &[u8], gas_limit: u64) -> Result<Output, PrecompileError> {
    let gas = charge(G2ADD_GAS, gas_limit)?;
    exact(input, 512, "exactly 512 bytes")?;
    padding_first(input)?;
    let p = decode_g2(&input[..256], false)?;
    let q = decode_g2(&input[256..], false)?;
    Ok(Output::new(gas, encode_g2(&p.add_vartime(&q))))
}

/// 0x0c BLS12_G1MSM: sum s_i P_i over k >= 1 pairs (point || 32-byte scalar), points in the
/// subgroup. One thread, as a block executor runs precompiles.
pub fn g1_msm(input: &[u8], gas_limit: u64) -> Result<Output, PrecompileError> {
    let k = multiple(input, 160, "a positive multiple of 160 bytes")?;
    let gas = charge(msm_gas(k, G1MSM_BASE_GAS, &G1_DISCOUNT), gas_limit)?;
    let mut points = Vec::with_capacity(k);
    let mut scalars = Vec::with_capacity(k);
    // decode on the curve in order, up to the first error; then one batched subgroup test of
    // the decoded points (eight at a time on IFMA lanes where the CPU has them). The error is
    // the one a point-by-point decode would give: a subgroup failure before the first decoding
    // error wins.
    let mut first_error = None;
    for chunk in input.chunks_exact(160) {
        match decode_g1(&chunk[..128], false) {
            Ok(p) => points.push(p),
            Err(e) => {
                first_error = Some(e);
                break;
            }
        }
        scalars.push(limbs_be(&chunk[128..]));
    }
    if zkforge_msm::ifma::bls12_381_g1_in_subgroup_vartime(&points).contains(&false) {
        return Err(PrecompileError::NotInSubgroup);
    }
    if let Some(e) = first_error {
        return Err(e);
    }
    let r = if k == 1 {
        points[0].to_jacobian().mul_limbs_vartime(&scalars[0])
    } else {
        zkforge_msm::msm_threads(&points, &scalars, 1).expect("lengths match and one thread is valid")
    };
    Ok(Output::new(gas, encode_g1(&r.to_affine_vartime())))
}

/// 0x0e BLS12_G2MSM: as [`g1_msm`] on G2 (288 bytes per pair).
pub fn g2_msm(input: &[u8], gas_limit: u64) -> Result<Output, PrecompileError> {
    let k = multiple(input, 288, "a positive multiple of 288 bytes")?;
    let gas = charge(msm_gas(k, G2MSM_BASE_GAS, &G2_DISCOUNT), gas_limit)?;
    let mut points = Vec::with_capacity(k);
    let mut scalars = Vec::with_capacity(k);
    // as in g1_msm: decode on the twist up to the first error, then one batched subgroup test
    // (eight points at a time on IFMA lanes where the CPU has them), errors in input order
    let mut first_error = None;
    for chunk in input.chunks_exact(288) {
        match decode_g2(&chunk[..256], false) {
            Ok(p) => points.push(p),
            Err(e) => {
                first_error = Some(e);
                break;
            }
        }
        scalars.push(limbs_be(&chunk[256..]));
    }
    if zkforge_curve::bls12_381::g2_in_subgroup_batch_vartime(&points).contains(&false) {
        return Err(PrecompileError::NotInSubgroup);
    }
    if let Some(e) = first_error {
        return Err(e);
    }
    let r = if k == 1 {
        points[0].to_jacobian().mul_limbs_vartime(&scalars[0])
    } else {
        zkforge_msm::msm_threads(&points, &scalars, 1).expect("lengths match and one thread is valid")
    };
    Ok(Output::new(gas, encode_g2(&r.to_affine_vartime())))
}

/// Where PAIRING_CHECK tests that its G2 points lie in G2 (the result and the errors are the
/// same either way; tests run both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum G2Check {
    /// With the point the Miller loop ends on: the loop over the bits of |x| leaves [|x|] Q,
    /// compared with -psi(Q) (`zkforge_pairing::bls12_381::pairing_check_g2_unchecked`), so
    /// the test costs no doublings of its own. The default.
    #[default]
    InMillerLoop,
    /// A separate test per point while decoding (63 doublings and 5 additions on the twist).
    Separate,
}

/// 0x0f BLS12_PAIRING_CHECK: 1 when prod e(P_i, Q_i) = 1 over k >= 1 pairs (G1 || G2, 384
/// bytes each, both in their subgroups), else 0.
pub fn pairing_check(input: &[u8], gas_limit: u64) -> Result<Output, PrecompileError> {
    pairing_check_with(input, gas_limit, G2Check::default())
}

/// [`pairing_check`] with the G2 subgroup test done as `g2_check` says. The first error is the
/// one a pair-by-pair decoder reports (pair by pair, G1 before G2, each point's encoding and
/// curve checks before its subgroup test): when decoding fails at pair j, the G2 points of
/// the pairs before j are tested first.
pub fn pairing_check_with(input: &[u8], gas_limit: u64, g2_check: G2Check) -> Result<Output, PrecompileError> {
    let k = multiple(input, 384, "a positive multiple of 384 bytes")?;
    let gas = charge(PAIRING_BASE_GAS + PAIRING_PER_PAIR_GAS * k as u64, gas_limit)?;
    padding_first(input)?;
    let separate = g2_check == G2Check::Separate;
    let mut pairs = Vec::with_capacity(k);
    // the G1 points' subgroup tests run together (eight at a time on IFMA lanes where the CPU
    // has them) once four or more pairs decode; the error stays the pair-by-pair one
    let batch_g1 = k >= 4;
    for chunk in input.chunks_exact(384) {
        let p = decode_g1(&chunk[..128], !batch_g1);
        match p.clone().and_then(|p| decode_g2(&chunk[128..], separate).map(|q| (p, q))) {
            Ok(pq) => pairs.push(pq),
            Err(e) => {
                // a pair-by-pair decoder tested the points before this pair first (their G1
                // points when batched, their G2 points when the loop was to test them), and
                // this pair's G1 point before its G2 point
                let this_g1_fails = batch_g1 && matches!(&p, Ok(p) if !p.is_in_subgroup());
                let g1_fails = this_g1_fails || (batch_g1 && pairs.iter().any(|(p, _)| !p.is_in_subgroup()));
                let g2_fails = !separate && pairs.iter().any(|(_, q)| !bool::from(q.is_identity()) && !q.is_in_subgroup());
                if g1_fails || g2_fails {
                    return Err(PrecompileError::NotInSubgroup);
                }
                return Err(e);
            }
        }
    }
    if batch_g1 {
        let g1s: Vec<G1Affine> = pairs.iter().map(|(p, _)| *p).collect();
        if zkforge_msm::ifma::bls12_381_g1_in_subgroup_vartime(&g1s).contains(&false) {
            return Err(PrecompileError::NotInSubgroup);
        }
    }
    let ok = if separate {
        zkforge_pairing::bls12_381::pairing_check(&pairs)
    } else {
        zkforge_pairing::bls12_381::pairing_check_g2_unchecked(&pairs).map_err(|_| PrecompileError::NotInSubgroup)?
    };
    Ok(Output::new(gas, word_bool(ok)))
}

/// How MAP_FP_TO_G1 and MAP_FP2_TO_G2 invert (the output is the same either way; tests run
/// both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MapInverse {
    /// The variable-time inverse for the SSWU denominator and the affine output: the input
    /// is public. The default.
    #[default]
    Vartime,
    /// The constant-time map of `zkforge_curve::hash_to_curve` (as in hash-to-curve of
    /// secret messages).
    ConstantTime,
}

/// 0x10 BLS12_MAP_FP_TO_G1: RFC 9380's simplified SWU map of one field element, then the
/// cofactor cleared.
pub fn map_fp_to_g1(input: &[u8], gas_limit: u64) -> Result<Output, PrecompileError> {
    map_fp_to_g1_with(input, gas_limit, MapInverse::default())
}

/// [`map_fp_to_g1`] with the inversions chosen by `inverse`.
pub fn map_fp_to_g1_with(input: &[u8], gas_limit: u64, inverse: MapInverse) -> Result<Output, PrecompileError> {
    let gas = charge(MAP_FP_TO_G1_GAS, gas_limit)?;
    exact(input, 64, "exactly 64 bytes")?;
    let u = decode_fp(input)?;
    let p = match inverse {
        MapInverse::Vartime => map_fp_to_g1_vartime(&u),
        MapInverse::ConstantTime => zkforge_curve::hash_to_curve::map_fp_to_g1(&u),
    };
    Ok(Output::new(gas, encode_g1(&p)))
}

/// 0x11 BLS12_MAP_FP2_TO_G2: the same for one Fp2 element (c0 || c1) onto G2.
pub fn map_fp2_to_g2(input: &[u8], gas_limit: u64) -> Result<Output, PrecompileError> {
    map_fp2_to_g2_with(input, gas_limit, MapInverse::default())
}

/// [`map_fp2_to_g2`] with the inversions chosen by `inverse`.
pub fn map_fp2_to_g2_with(input: &[u8], gas_limit: u64, inverse: MapInverse) -> Result<Output, PrecompileError> {
    let gas = charge(MAP_FP2_TO_G2_GAS, gas_limit)?;
    exact(input, 128, "exactly 128 bytes")?;
    padding_first(input)?;
    let u = decode_fp2(input)?;
    let p = match inverse {
        MapInverse::Vartime => map_fp2_to_g2_vartime(&u),
        MapInverse::ConstantTime => zkforge_curve::hash_to_curve::map_fp2_to_g2(&u),
    };
    Ok(Output::new(gas, encode_g2(&p)))
}

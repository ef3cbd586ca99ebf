//! zkforge-evm against revm-precompile 43.0.3's default backends (arkworks for BN254, blst for
//! BLS12-381, c-kzg for the point evaluation) on fresh random inputs, valid and corrupted:
//! every case must give the same output and gas, or an error of the same class on both sides.
//!
//! Inputs are built from pools of valid points (random multiples of the generators), points at
//! infinity, points off the curve (y + 1), points on the curve outside the subgroup (an
//! uncleared map-to-curve output on BLS12-381, a random twist point on BN254 G2), coordinates
//! at or above p, non-zero EIP-2537 padding, random scalars (including 0, r, 2^256 - 1), then
//! with some probability a flipped bit or a changed length. The seed is printed; set
//! `ZKFORGE_DIFF_SEED` to replay and `ZKFORGE_DIFF_CASES` for the count per precompile
//! (default 100000; `differential_10m` runs 10^7 by hand with `--ignored`).

use rand::rngs::StdRng;
use rand::{Rng, RngCore, SeedableRng};
use revm_precompile::PrecompileHalt;
use zkforge_evm::{call, PrecompileError};

use zkforge_field::FieldConfig;

/// Little-endian limbs as big-endian bytes.
fn be<const N: usize>(limbs: [u64; N]) -> Vec<u8> {
    limbs.iter().rev().flat_map(|l| l.to_be_bytes()).collect()
}

fn class_ours(e: &PrecompileError) -> &'static str {
    match e {
        PrecompileError::OutOfGas { .. } => "gas",
        PrecompileError::InvalidLength { .. } => "length",
        PrecompileError::NonCanonicalField => "field",
        PrecompileError::InvalidPadding => "padding",
        PrecompileError::NotOnCurve => "curve",
        PrecompileError::NotInSubgroup => "subgroup",
        PrecompileError::VersionedHashMismatch => "vhash",
        PrecompileError::KzgProofInvalid => "kzg",
        PrecompileError::UnknownAddress(_) => "address",
    }
}

fn class_revm(e: &PrecompileHalt) -> &'static str {
    use PrecompileHalt::*;
    match e {
        OutOfGas => "gas",
        Bn254PairLength | BlobInvalidInputLength | Bls12381G1AddInputLength | Bls12381G1MsmInputLength | Bls12381G2AddInputLength
        | Bls12381G2MsmInputLength | Bls12381PairingInputLength | Bls12381MapFpToG1InputLength | Bls12381MapFp2ToG2InputLength => "length",
        Bn254FieldPointNotAMember | NonCanonicalFp => "field",
        Bls12381FpPaddingInvalid | Bls12381FpPaddingLength | Bls12381G1PaddingLength | Bls12381G2PaddingLength => "padding",
        Bls12381G1NotOnCurve | Bls12381G2NotOnCurve => "curve",
        Bls12381G1NotInSubgroup | Bls12381G2NotInSubgroup => "subgroup",
        // arkworks' BN254 backend has one error for off-curve and off-subgroup points
        Bn254AffineGFailedToCreate => "curve-or-subgroup",
        BlobMismatchedVersion => "vhash",
        BlobVerifyKzgProofFailed => "kzg",
        _ => "other",
    }
}

fn revm_call(address: u8, input: &[u8], gas: u64) -> Result<(u64, Vec<u8>), PrecompileHalt> {
    zkforge_revm::revm_call(address, input, gas).expect("a covered address")
}

/// Compare one input; panics with the input on a mismatch.
fn same(address: u8, input: &[u8], gas: u64, seed: u64) -> bool {
    let ours = call(address, input, gas);
    let theirs = revm_call(address, input, gas);
    let hex = || input.iter().map(|b| format!("{b:02x}")).collect::<String>();
    match (&ours, &theirs) {
        (Ok(o), Ok((g, bytes))) => {
            assert!(o.gas_used == *g && &o.bytes == bytes, "{address:#04x} seed {seed}: outputs differ on {}", hex());
            true
        }
        (Err(e), Err(h)) => {
            let (a, b) = (class_ours(e), class_revm(h));
            let ok = a == b || (b == "curve-or-subgroup" && (a == "curve" || a == "subgroup"));
            assert!(ok, "{address:#04x} seed {seed}: error classes differ ({e} vs {h:?}) on {}", hex());
            false
        }
        _ => panic!("{address:#04x} seed {seed}: ours {ours:?}, revm {theirs:?} on {}", hex()),
    }
}

/// Pools of encoded points of each kind.
struct Pools {
    bn_g1: Vec<[u8; 64]>,
    bn_g2: Vec<[u8; 128]>,
    bls_g1: Vec<Vec<u8>>,
    bls_g2: Vec<Vec<u8>>,
    bls_g1_off_subgroup: Vec<Vec<u8>>,
    bls_g2_off_subgroup: Vec<Vec<u8>>,
    kzg: Vec<Vec<u8>>,
}

fn pools(rng: &mut StdRng) -> Pools {
    use zkforge_curve::{bls12_381 as bls, bn254 as bn, hash_to_curve as h2c};
    use zkforge_evm::{bls12_381 as e2537, bn254 as e196};
    let n = 12;
    let bn_g1 = (0..n).map(|_| e196::encode_g1(&(bn::G1Projective::generator() * bn::Scalar::random(&mut *rng)).to_affine())).collect();
    let bn_g2 = (0..n).map(|_| e196::encode_g2(&(bn::G2Projective::generator() * bn::Scalar::random(&mut *rng)).to_affine())).collect();
    let bls_g1 = (0..n).map(|_| e2537::encode_g1(&(bls::G1Projective::generator() * bls::Scalar::random(&mut *rng)).to_affine())).collect();
    let bls_g2 = (0..n).map(|_| e2537::encode_g2(&(bls::G2Projective::generator() * bls::Scalar::random(&mut *rng)).to_affine())).collect();
    let bls_g1_off_subgroup = (0..n)
        .map(|_| e2537::encode_g1(&h2c::map_to_curve_bls12_381_g1(&zkforge_field::bls12_381::Fp::random(&mut *rng)).to_affine()))
        .collect();
    let bls_g2_off_subgroup = (0..n)
        .map(|_| e2537::encode_g2(&h2c::map_to_curve_bls12_381_g2(&zkforge_field::bls12_381::Fp2::random(&mut *rng)).to_affine()))
        .collect();
    // POINT_EVALUATION inputs from c-kzg's verify_kzg_proof cases (valid and invalid proofs)
    let dir = format!("{}/../zkforge-evm/tests/vectors/kzg_verify", env!("CARGO_MANIFEST_DIR"));
    let mut kzg = Vec::new();
    for e in std::fs::read_dir(dir).expect("kzg vectors") {
        let text = std::fs::read_to_string(e.expect("entry").path()).expect("read");
        let field = |k: &str| -> Option<Vec<u8>> {
            let v = text.lines().find_map(|l| l.trim().strip_prefix(&format!("{k}:")).map(|v| v.trim().trim_matches('\'').to_string()))?;
            let v = v.trim_start_matches("0x");
            (0..v.len()).step_by(2).map(|i| u8::from_str_radix(v.get(i..i + 2)?, 16).ok()).collect()
        };
        let (Some(c), Some(z), Some(y), Some(p)) = (field("commitment"), field("z"), field("y"), field("proof")) else { continue };
        if c.len() != 48 || p.len() != 48 || z.len() != 32 || y.len() != 32 {
            continue;
        }
        let mut input = zkforge_evm::point_evaluation::versioned_hash(&c).to_vec();
        for part in [&z, &y, &c, &p] {
            input.extend_from_slice(part);
        }
        kzg.push(input);
    }
    Pools { bn_g1, bn_g2, bls_g1, bls_g2, bls_g1_off_subgroup, bls_g2_off_subgroup, kzg }
}

fn pick<'a, T>(rng: &mut StdRng, v: &'a [T]) -> &'a T {
    &v[rng.gen_range(0..v.len())]
}

/// A BN254 field slot (32 bytes) at or above p.
fn bn_non_canonical(rng: &mut StdRng) -> [u8; 32] {
    let mut b: [u8; 32] = be(<zkforge_field::bn254::FpConfig as FieldConfig<4>>::MODULUS).try_into().expect("32");
    let add = rng.gen_range(0u8..3);
    b[31] = b[31].wrapping_add(add);
    if rng.gen_bool(0.3) {
        b = [0xff; 32];
    }
    b
}

/// A BLS12-381 64-byte slot: 16 zero bytes and 48 bytes at or above p.
fn bls_non_canonical(rng: &mut StdRng) -> [u8; 64] {
    let mut b = [0u8; 64];
    b[16..].copy_from_slice(&be(<zkforge_field::bls12_381::FpConfig as FieldConfig<6>>::MODULUS));
    b[63] = b[63].wrapping_add(rng.gen_range(0u8..3));
    b
}

fn bn_g1(rng: &mut StdRng, p: &Pools) -> Vec<u8> {
    let mut v = pick(rng, &p.bn_g1).to_vec();
    match rng.gen_range(0..10) {
        0 => v = vec![0; 64],
        1 => v[63] ^= 1, // off the curve
        2 => v[..32].copy_from_slice(&bn_non_canonical(rng)),
        3 => v[32..].copy_from_slice(&bn_non_canonical(rng)),
        _ => {}
    }
    v
}

fn bn_g2(rng: &mut StdRng, p: &Pools) -> Vec<u8> {
    let mut v = pick(rng, &p.bn_g2).to_vec();
    match rng.gen_range(0..10) {
        0 => v = vec![0; 128],
        1 => v[127] ^= 1,
        2 => {
            let k = rng.gen_range(0..4);
            v[32 * k..32 * k + 32].copy_from_slice(&bn_non_canonical(rng));
        }
        _ => {}
    }
    v
}

fn bls_point(rng: &mut StdRng, valid: &[Vec<u8>], off: &[Vec<u8>], len: usize) -> Vec<u8> {
    let mut v = pick(rng, valid).clone();
    match rng.gen_range(0..12) {
        0 => v = vec![0; len],
        1 => v[len - 1] ^= 1,
        2 => v = pick(rng, off).clone(),
        3 => {
            let k = rng.gen_range(0..len / 64);
            v[64 * k..64 * k + 64].copy_from_slice(&bls_non_canonical(rng));
        }
        4 => {
            let k = rng.gen_range(0..len / 64);
            v[64 * k + rng.gen_range(0..16)] = rng.gen_range(1..=255);
        }
        _ => {}
    }
    v
}

fn scalar(rng: &mut StdRng) -> Vec<u8> {
    let mut s = [0u8; 32];
    match rng.gen_range(0..8) {
        0 => {}
        1 => s = [0xff; 32],
        2 => s.copy_from_slice(&be(<zkforge_field::bn254::FrConfig as FieldConfig<4>>::MODULUS)),
        3 => s.copy_from_slice(&be(<zkforge_field::bls12_381::FrConfig as FieldConfig<4>>::MODULUS)),
        _ => rng.fill_bytes(&mut s),
    }
    s.to_vec()
}

/// One random input for `address` (valid, or with a defect in it).
fn input(address: u8, rng: &mut StdRng, p: &Pools) -> Vec<u8> {
    let mut v: Vec<u8> = match address {
        0x06 => [bn_g1(rng, p), bn_g1(rng, p)].concat(),
        0x07 => [bn_g1(rng, p), scalar(rng)].concat(),
        0x08 => {
            let k = rng.gen_range(0..4);
            let mut v = Vec::new();
            for _ in 0..k {
                let (a, b) = (bn_g1(rng, p), bn_g2(rng, p));
                v.extend_from_slice(&a);
                v.extend_from_slice(&b);
                if rng.gen_bool(0.3) {
                    // the same pair with -P: the product is 1
                    let mut neg = a.clone();
                    if let Ok(q) = zkforge_evm::bn254::decode_g1(&a.clone().try_into().expect("64")) {
                        neg = zkforge_evm::bn254::encode_g1(&-q).to_vec();
                    }
                    v.extend_from_slice(&neg);
                    v.extend_from_slice(&b);
                }
            }
            v
        }
        0x0a => pick(rng, &p.kzg).clone(),
        0x0b => [bls_point(rng, &p.bls_g1, &p.bls_g1_off_subgroup, 128), bls_point(rng, &p.bls_g1, &p.bls_g1_off_subgroup, 128)].concat(),
        0x0d => [bls_point(rng, &p.bls_g2, &p.bls_g2_off_subgroup, 256), bls_point(rng, &p.bls_g2, &p.bls_g2_off_subgroup, 256)].concat(),
        0x0c | 0x0e => {
            let k = rng.gen_range(1..5);
            let mut v = Vec::new();
            for _ in 0..k {
                let pt = if address == 0x0c {
                    bls_point(rng, &p.bls_g1, &p.bls_g1_off_subgroup, 128)
                } else {
                    bls_point(rng, &p.bls_g2, &p.bls_g2_off_subgroup, 256)
                };
                v.extend_from_slice(&pt);
                v.extend_from_slice(&scalar(rng));
            }
            v
        }
        0x0f => {
            let k = rng.gen_range(1..4);
            let mut v = Vec::new();
            for _ in 0..k {
                v.extend_from_slice(&bls_point(rng, &p.bls_g1, &p.bls_g1_off_subgroup, 128));
                v.extend_from_slice(&bls_point(rng, &p.bls_g2, &p.bls_g2_off_subgroup, 256));
            }
            v
        }
        0x10 | 0x11 => {
            let n = if address == 0x10 { 1 } else { 2 };
            let mut v = Vec::new();
            for _ in 0..n {
                let mut slot = [0u8; 64];
                match rng.gen_range(0..10) {
                    0 => slot = bls_non_canonical(rng),
                    1 => slot[rng.gen_range(0..16)] = 1,
                    _ => slot[16..].copy_from_slice(&zkforge_field::bls12_381::Fp::random(&mut *rng).to_bytes_be()),
                }
                v.extend_from_slice(&slot);
            }
            v
        }
        _ => unreachable!(),
    };
    // a generic defect on top: a flipped bit or a changed length
    match rng.gen_range(0..10) {
        0 if !v.is_empty() => {
            let i = rng.gen_range(0..v.len());
            v[i] ^= 1 << rng.gen_range(0..8);
        }
        1 if !v.is_empty() => v.truncate(rng.gen_range(0..v.len())),
        2 => v.extend((0..rng.gen_range(1..70)).map(|_| rng.gen::<u8>())),
        _ => {}
    }
    v
}

/// Cases per precompile: `ZKFORGE_DIFF_CASES` or 100000; the expensive precompiles (pairings,
/// MSMs, maps to G2, point evaluation) get a twentieth.
fn run(cases: u64) {
    let seed = std::env::var("ZKFORGE_DIFF_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| rand::thread_rng().gen());
    println!("seed {seed}");
    let mut rng = StdRng::seed_from_u64(seed);
    let p = pools(&mut rng);
    for address in [0x06u8, 0x07, 0x08, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11] {
        let n = match address {
            0x08 | 0x0a | 0x0c | 0x0e | 0x0f | 0x11 => cases / 20,
            _ => cases,
        };
        let (mut ok, mut err) = (0u64, 0u64);
        for _ in 0..n {
            let inp = input(address, &mut rng, &p);
            // mostly ample gas, sometimes too little
            let gas = if rng.gen_bool(0.02) { rng.gen_range(0..60_000) } else { 10_000_000 };
            if same(address, &inp, gas, seed) {
                ok += 1;
            } else {
                err += 1;
            }
        }
        println!("{address:#04x}: {n} cases, {ok} equal outputs, {err} equal error classes");
        assert!(ok > 0 && err > 0, "{address:#04x}: the generator should give both outcomes");
    }
}

#[test]
fn differential_against_revm_default_backends() {
    let cases = std::env::var("ZKFORGE_DIFF_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    run(cases);
}

#[test]
#[ignore = "10^7 cases per cheap precompile: run by hand"]
fn differential_10m() {
    run(10_000_000);
}

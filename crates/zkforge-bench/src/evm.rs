//! EVM precompile cases: zkforge-evm's `call` against revm-precompile 43.0.3's own entry
//! points with its default backends (arkworks for BN254, blst for BLS12-381, c-kzg for the
//! point evaluation), both doing the whole precompile (framing, decoding, checks, the
//! arithmetic, encoding) on the same input, one thread, outputs checked equal first. Rows carry
//! the gas each call charges, so the table also gives Mgas/s = gas / ns * 1000.
//!
//! revm's G1MSM/G2MSM with k >= 2 spread blst's MSM over blst's thread pool (a worker per CPU):
//! their one-thread `revm-blst` peer is revm in a child process whose blst pool has one worker
//! and is not used ([`crate::revm_1thr`]), and `revm-blst-poolN`
//! is the same call in this process with its pool of N workers (ours stays on one thread), which
//! is what a client running revm's default build gets.
//!
//! Sizes: ecAdd, ecMul; ecPairing with 1, 2, 4, 8 pairs; G1ADD, G2ADD; G1MSM and G2MSM with
//! k = 1, 8, 32, 128; PAIRING_CHECK with 1, 2, 4, 8 pairs; both maps; the point evaluation on
//! a valid c-kzg case. Pairing inputs are pairs (P, Q), (-P, Q) so the check returns 1 as in a
//! real proof check. revm's other BN254 backend, substrate-bn (its `bn` feature, a build-time
//! choice of revm), is a second peer of the BN254 rows, called directly
//! ([`crate::substrate_bn`]).

use std::hint::black_box;

use rand::{rngs::StdRng, Rng, SeedableRng};
use zkforge_curve::{bls12_381 as bls, bn254 as bn};
use zkforge_evm::{bls12_381 as e2537, bn254 as e196};

use crate::{agree, timed, Case};

/// The gas a case's call charges (for the Mgas/s columns), from its op and size.
pub fn case_gas(op: &str, size: usize) -> Option<u64> {
    use zkforge_evm::GasSchedule::Istanbul;
    let k = size as u64;
    Some(match op {
        "ecadd" => Istanbul.add(),
        "ecmul" => Istanbul.mul(),
        "ecpairing" => Istanbul.pairing(k),
        "g1add" => e2537::G1ADD_GAS,
        "g2add" => e2537::G2ADD_GAS,
        "g1msm" => e2537::msm_gas(size, e2537::G1MSM_BASE_GAS, &e2537::G1_DISCOUNT),
        "g2msm" => e2537::msm_gas(size, e2537::G2MSM_BASE_GAS, &e2537::G2_DISCOUNT),
        "pairing_check" => e2537::PAIRING_BASE_GAS + e2537::PAIRING_PER_PAIR_GAS * k,
        "map_fp_to_g1" => e2537::MAP_FP_TO_G1_GAS,
        "map_fp2_to_g2" => e2537::MAP_FP2_TO_G2_GAS,
        "point_evaluation" => zkforge_evm::point_evaluation::GAS,
        _ => return None,
    })
}

fn revm(address: u8, input: &[u8]) -> Vec<u8> {
    crate::revm_1thr::call(address, input).expect("a valid benchmark input at an EVM case address")
}

fn case(op: &'static str, curve: &'static str, address: u8, size: usize, input: Vec<u8>) -> Case {
    let peer = match address {
        0x06..=0x08 => "revm-arkworks-vartime",
        0x0a => "revm-c-kzg",
        _ => "revm-blst",
    };
    // revm's G1MSM/G2MSM with k >= 2 call blst's `mult`, which uses blst's thread pool (one
    // worker per CPU of the process): the one-thread row runs revm in a child process whose pool
    // has one worker (`revm_1thr`), and the in-process call is a second peer named with its pool
    // size
    let pooled = matches!(address, 0x0c | 0x0e) && size >= 2;
    let child = if pooled { crate::revm_1thr::load(address, &input).ok() } else { None };
    let pool_name: &'static str = if pooled {
        let cpus = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        Box::leak(format!("revm-blst-pool{cpus}").into_boxed_str())
    } else {
        peer
    };
    // the BN254 rows also run revm's other backend, substrate-bn, called directly
    let substrate = (0x06..=0x08).contains(&address);
    let check = {
        let input = input.clone();
        let child_out = child.as_ref().map(|(_, out)| out.clone());
        move || {
            let ours = zkforge_evm::call(address, &input, 100_000_000).map_err(|e| e.to_string())?.bytes;
            let mut theirs = vec![(pool_name, revm(address, &input))];
            theirs.extend(child_out.map(|out| (peer, out)));
            if substrate {
                let out = crate::substrate_bn::call(address, &input).ok_or("substrate-bn refused a valid input")?;
                theirs.push((crate::substrate_bn::NAME, out));
            }
            agree(ours, theirs)
        }
    };
    let i1 = input.clone();
    let i2 = input.clone();
    let ours = timed(move || {
        black_box(zkforge_evm::call(address, black_box(&i1), 100_000_000).expect("valid"));
    });
    let theirs = timed(move || {
        black_box(revm(address, black_box(&input)));
    });
    let mut peers: Vec<(&'static str, crate::Runner)> = child.map(|(runner, _)| (peer, runner)).into_iter().collect();
    peers.push((pool_name, theirs));
    if substrate {
        peers.push((
            crate::substrate_bn::NAME,
            timed(move || {
                black_box(crate::substrate_bn::call(address, black_box(&i2)));
            }),
        ));
    }
    Case { group: "evm", op, curve, size, threads: 1, ours, peers, check: None }.with_check(check)
}

/// The point-evaluation input: c-kzg's `correct_proof_2_3` (random z and y, commitment and
/// proof not the identity), so that every multiplication and both pairings do full work (case
/// `1_0`, used before, has z = 0 and a proof at infinity, which skips most of it).
fn kzg_input() -> Option<Vec<u8>> {
    let path = format!("{}/../zkforge-evm/tests/vectors/kzg_verify/verify_kzg_proof_case_correct_proof_2_3.yaml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).ok()?;
    let field = |k: &str| -> Option<Vec<u8>> {
        let v = text.lines().find_map(|l| l.trim().strip_prefix(&format!("{k}:")).map(|v| v.trim().trim_matches('\'').trim_start_matches("0x").to_string()))?;
        (0..v.len()).step_by(2).map(|i| u8::from_str_radix(v.get(i..i + 2)?, 16).ok()).collect()
    };
    let (c, z, y, p) = (field("commitment")?, field("z")?, field("y")?, field("proof")?);
    let mut input = zkforge_evm::point_evaluation::versioned_hash(&c).to_vec();
    for part in [&z, &y, &c, &p] {
        input.extend_from_slice(part);
    }
    Some(input)
}

/// Every EVM case.
pub fn cases() -> Vec<Case> {
    let mut rng = StdRng::seed_from_u64(0xe7);
    let mut out = Vec::new();
    let bn_g1 = |rng: &mut StdRng| (bn::G1Projective::generator() * bn::Scalar::random(rng)).to_affine();
    let bn_g2 = |rng: &mut StdRng| (bn::G2Projective::generator() * bn::Scalar::random(rng)).to_affine();
    let bls_g1 = |rng: &mut StdRng| (bls::G1Projective::generator() * bls::Scalar::random(rng)).to_affine();
    let bls_g2 = |rng: &mut StdRng| (bls::G2Projective::generator() * bls::Scalar::random(rng)).to_affine();
    let scalar = |rng: &mut StdRng| {
        let mut s = [0u8; 32];
        rng.fill(&mut s);
        s
    };

    out.push(case("ecadd", "bn254", 0x06, 1, [e196::encode_g1(&bn_g1(&mut rng)), e196::encode_g1(&bn_g1(&mut rng))].concat()));
    out.push(case("ecmul", "bn254", 0x07, 1, [e196::encode_g1(&bn_g1(&mut rng)).as_slice(), &scalar(&mut rng)].concat()));
    for k in [1usize, 2, 4, 8] {
        let mut input = Vec::new();
        for i in 0..k {
            // pairs (P, Q), (-P, Q): the product is 1 (an odd k ends with a lone pair)
            let p = bn_g1(&mut rng);
            let q = bn_g2(&mut rng);
            let p = if i % 2 == 1 { -p } else { p };
            input.extend_from_slice(&e196::encode_g1(&p));
            input.extend_from_slice(&e196::encode_g2(&q));
        }
        out.push(case("ecpairing", "bn254", 0x08, k, input));
    }
    out.push(case("g1add", "bls12_381", 0x0b, 1, [e2537::encode_g1(&bls_g1(&mut rng)), e2537::encode_g1(&bls_g1(&mut rng))].concat()));
    out.push(case("g2add", "bls12_381", 0x0d, 1, [e2537::encode_g2(&bls_g2(&mut rng)), e2537::encode_g2(&bls_g2(&mut rng))].concat()));
    for k in [1usize, 8, 32, 128] {
        let mut g1 = Vec::new();
        let mut g2 = Vec::new();
        for _ in 0..k {
            g1.extend_from_slice(&e2537::encode_g1(&bls_g1(&mut rng)));
            g1.extend_from_slice(&scalar(&mut rng));
            g2.extend_from_slice(&e2537::encode_g2(&bls_g2(&mut rng)));
            g2.extend_from_slice(&scalar(&mut rng));
        }
        out.push(case("g1msm", "bls12_381", 0x0c, k, g1));
        out.push(case("g2msm", "bls12_381", 0x0e, k, g2));
    }
    for k in [1usize, 2, 4, 8] {
        let mut input = Vec::new();
        let mut p = bls_g1(&mut rng);
        for i in 0..k {
            if i % 2 == 0 {
                p = bls_g1(&mut rng);
            }
            let q = bls_g2(&mut rng);
            let q = if i % 2 == 1 { input[input.len() - 256..].to_vec() } else { e2537::encode_g2(&q) };
            let pi = if i % 2 == 1 { -p } else { p };
            input.extend_from_slice(&e2537::encode_g1(&pi));
            input.extend_from_slice(&q);
        }
        out.push(case("pairing_check", "bls12_381", 0x0f, k, input));
    }
    let fp = zkforge_field::bls12_381::Fp::random(&mut rng);
    let mut slot = vec![0u8; 64];
    slot[16..].copy_from_slice(fp.to_bytes_be().as_ref());
    out.push(case("map_fp_to_g1", "bls12_381", 0x10, 1, slot.clone()));
    let fp2 = zkforge_field::bls12_381::Fp::random(&mut rng);
    let mut slot2 = slot.clone();
    slot2.extend_from_slice(&[0u8; 16]);
    slot2.extend_from_slice(fp2.to_bytes_be().as_ref());
    out.push(case("map_fp2_to_g2", "bls12_381", 0x11, 1, slot2));
    if let Some(input) = kzg_input() {
        out.push(case("point_evaluation", "bls12_381", 0x0a, 1, input));
    }
    out
}

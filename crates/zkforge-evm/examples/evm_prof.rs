//! Split one precompile call's time into decoding (with the checks) and the arithmetic, for
//! profiling: `cargo run --release -p zkforge-evm --example evm_prof -- g1msm|g2msm K`.
//! `pairing K`: PAIRING_CHECK of K valid pairs with each `G2Check` value, interleaved
//! (15 rounds, fastest round per value; both outputs checked equal). `map1 K` / `map2 K`: the
//! maps on K random elements with each `MapInverse`, the same way.
use std::time::Instant;

use zkforge_curve::bls12_381::{G1Projective, G2Projective, Scalar};
use zkforge_evm::bls12_381 as e;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map(String::as_str).unwrap_or("g1msm");
    let k: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(128);
    let mut seed = 1u64;
    let mut next = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        seed
    };
    let reps = 20;
    match what {
        "g1msm" | "g2msm" => {
            let g1 = what == "g1msm";
            let mut input = Vec::new();
            for _ in 0..k {
                let s = Scalar::random_with(&mut next);
                if g1 {
                    input.extend_from_slice(&e::encode_g1(&(G1Projective::generator() * s).to_affine()));
                } else {
                    input.extend_from_slice(&e::encode_g2(&(G2Projective::generator() * s).to_affine()));
                }
                input.extend_from_slice(Scalar::random_with(&mut next).to_bytes_be().as_ref());
            }
            let unit = if g1 { 160 } else { 288 };
            let t = Instant::now();
            for _ in 0..reps {
                for c in input.chunks_exact(unit) {
                    if g1 {
                        std::hint::black_box(e::decode_g1(&c[..128], true).unwrap());
                    } else {
                        std::hint::black_box(e::decode_g2(&c[..256], true).unwrap());
                    }
                }
            }
            let dec = t.elapsed().as_secs_f64() / reps as f64;
            let t = Instant::now();
            for _ in 0..reps {
                std::hint::black_box(zkforge_evm::call(if g1 { 0x0c } else { 0x0e }, &input, u64::MAX).unwrap());
            }
            let all = t.elapsed().as_secs_f64() / reps as f64;
            println!("{what} k={k}: call {:.1} us, decode+checks {:.1} us ({:.1} us per point)", all * 1e6, dec * 1e6, dec * 1e6 / k as f64);
        }
        "pairing" => {
            let mut input = Vec::new();
            for i in 0..k {
                // e(a P, Q) e(-P, a Q) pairs cancel; an odd K leaves one random pair
                let a = Scalar::random_with(&mut next);
                let b = Scalar::random_with(&mut next);
                let p = G1Projective::generator() * b;
                let q = G2Projective::generator() * Scalar::random_with(&mut next);
                let (p, q) = if i % 2 == 0 { (p * a, q) } else { (-p, q * a) };
                input.extend_from_slice(&e::encode_g1(&p.to_affine()));
                input.extend_from_slice(&e::encode_g2(&q.to_affine()));
            }
            let modes = [e::G2Check::InMillerLoop, e::G2Check::Separate];
            let first = e::pairing_check_with(&input, u64::MAX, modes[0]).unwrap();
            assert_eq!(first, e::pairing_check_with(&input, u64::MAX, modes[1]).unwrap());
            let mut best = [f64::MAX; 2];
            for _ in 0..15 {
                for (m, mode) in modes.iter().enumerate() {
                    let t = Instant::now();
                    for _ in 0..4 {
                        std::hint::black_box(e::pairing_check_with(&input, u64::MAX, *mode).unwrap());
                    }
                    best[m] = best[m].min(t.elapsed().as_secs_f64() / 4.0);
                }
            }
            println!(
                "pairing k={k}: G2 test in the Miller loop {:.1} us, separate {:.1} us, ratio {:.3}",
                best[0] * 1e6,
                best[1] * 1e6,
                best[0] / best[1]
            );
        }
        "map1" | "map2" => {
            // K random field elements through MAP_FP_TO_G1 / MAP_FP2_TO_G2 with each
            // `MapInverse`, interleaved (15 rounds, fastest round each; outputs checked equal)
            let g1 = what == "map1";
            let inputs: Vec<Vec<u8>> = (0..k)
                .map(|_| {
                    let mut slot = vec![0u8; if g1 { 64 } else { 128 }];
                    for part in slot.chunks_exact_mut(64) {
                        part[16..].copy_from_slice(zkforge_field::bls12_381::Fp::random_with(&mut next).to_bytes_be().as_ref());
                    }
                    slot
                })
                .collect();
            let modes = [e::MapInverse::Vartime, e::MapInverse::ConstantTime];
            let run = |input: &[u8], mode| if g1 { e::map_fp_to_g1_with(input, u64::MAX, mode) } else { e::map_fp2_to_g2_with(input, u64::MAX, mode) };
            for input in &inputs {
                assert_eq!(run(input, modes[0]).unwrap(), run(input, modes[1]).unwrap());
            }
            let mut best = [f64::MAX; 2];
            for _ in 0..15 {
                for (m, mode) in modes.iter().enumerate() {
                    let t = Instant::now();
                    for input in &inputs {
                        std::hint::black_box(run(input, *mode).unwrap());
                    }
                    best[m] = best[m].min(t.elapsed().as_secs_f64() / k as f64);
                }
            }
            println!("{what}: vartime inverses {:.2} us, constant-time {:.2} us, ratio {:.3}", best[0] * 1e6, best[1] * 1e6, best[0] / best[1]);
        }
        _ => eprintln!("usage: evm_prof g1msm|g2msm|pairing|map1|map2 K"),
    }
}

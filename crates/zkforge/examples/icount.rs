//! The workload of the instruction-count gate (issue 19): runs one hot kernel `K` times on
//! fixed inputs, so that `valgrind --tool=callgrind` counts it. `scripts/icount_gate.py` runs
//! each kernel with K = 0 and K = k and divides the difference by k, then compares it with
//! `scripts/icount_baseline.json`.
//!
//!     cargo run --release -p zkforge --example icount -- fp12_mul 100
//!
//! Under valgrind the CPU reports no ADX, so the counts are of the portable backend (and of
//! every formula above it: towers, Miller loop, MSM buckets), not of the MULX assembly.
use std::hint::black_box;

use zkforge::curve::bls12_381::{G1Affine, G1Projective, G2Affine};
use zkforge::field::bls12_381::{Fp, Fp12, Fr};

/// A fixed xorshift64* stream: the same inputs on every run.
fn stream(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed;
    move || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        s.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (name, k) = match (args.get(1), args.get(2).and_then(|s| s.parse::<usize>().ok())) {
        (Some(n), Some(k)) => (n.as_str(), k),
        _ => {
            eprintln!("usage: icount KERNEL REPETITIONS (fp_mul, fp_square, fp_inverse, fp12_mul, miller_loop, final_exponentiation, g1_msm_4096)");
            std::process::exit(2);
        }
    };
    let mut next = stream(0x9e37_79b9_7f4a_7c15);
    let x = Fp::random_with(&mut next);
    let y = Fp::random_with(&mut next);
    match name {
        "fp_mul" => {
            let mut a = x;
            for _ in 0..k {
                a = black_box(a) * y;
            }
            black_box(a);
        }
        "fp_square" => {
            let mut a = x;
            for _ in 0..k {
                a = black_box(a).square();
            }
            black_box(a);
        }
        "fp_inverse" => {
            let mut a = x;
            for _ in 0..k {
                a = black_box(a).invert().unwrap();
            }
            black_box(a);
        }
        "fp12_mul" => {
            let (mut a, b) = (Fp12::random_with(&mut next), Fp12::random_with(&mut next));
            for _ in 0..k {
                a = black_box(a) * b;
            }
            black_box(a);
        }
        "miller_loop" | "final_exponentiation" => {
            let pairs = [(G1Affine::generator(), G2Affine::generator())];
            let f = zkforge::pairing::bls12_381::multi_miller_loop(&pairs);
            for _ in 0..k {
                if name == "miller_loop" {
                    black_box(zkforge::pairing::bls12_381::multi_miller_loop(black_box(&pairs)));
                } else {
                    black_box(zkforge::pairing::bls12_381::final_exponentiation(black_box(&f)));
                }
            }
        }
        "g1_msm_4096" => {
            // bases G, 2G, 3G, ... (one addition each), scalars from the stream
            let g = G1Projective::generator();
            let mut acc = g;
            let mut points = Vec::with_capacity(4096);
            for _ in 0..4096 {
                points.push(acc);
                acc = acc + g;
            }
            let bases = G1Projective::batch_to_affine(&points);
            let scalars: Vec<Fr> = (0..4096).map(|_| Fr::random_with(&mut next)).collect();
            for _ in 0..k {
                black_box(zkforge::msm::msm_threads(&bases, &scalars, 1).unwrap());
            }
        }
        other => {
            eprintln!("unknown kernel {other}");
            std::process::exit(2);
        }
    }
}

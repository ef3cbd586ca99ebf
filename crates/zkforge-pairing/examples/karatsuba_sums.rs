//! BLS12-381's Karatsuba sums inside wide Fp6 products reduced or left below 2p
//! (`backend::set_karatsuba_sums`), measured in one process on what uses them: the Fp6 and
//! Fp12 products, the Fp12 square, the Miller loop and the final exponentiation, the last two
//! also in the scalar tower that CPUs without AVX-512 IFMA run (latency chains or single runs,
//! fastest of 25 alternating chunks per form).
//! `cargo run --release -p zkforge-pairing --example karatsuba_sums`.
use std::hint::black_box;
use std::time::Instant;

use zkforge_curve::bls12_381 as bls;
use zkforge_field::backend::{set_karatsuba_sums, KaratsubaSums};
use zkforge_field::bls12_381::{Fp12, Fp6};
use zkforge_field::bn254::{Fp12 as BnFp12, Fp6 as BnFp6};
use zkforge_pairing::bls12_381 as pb;
use zkforge_pairing::config::{self, HardPart, MillerAccumulator};

fn time(reps: u32, mut f: impl FnMut()) -> f64 {
    let s = Instant::now();
    for _ in 0..reps {
        f();
    }
    s.elapsed().as_nanos() as f64 / reps as f64
}

fn main() {
    let mut rng = rand::thread_rng();
    let (a, b) = (Fp6::random(&mut rng), Fp6::random(&mut rng));
    let (f, g) = (Fp12::random(&mut rng), Fp12::random(&mut rng));
    let p = bls::G1Affine::generator();
    let q = bls::G2Affine::generator();
    let ml = pb::multi_miller_loop(&[(p, q)]);
    let (ba, bb) = (BnFp6::random(&mut rng), BnFp6::random(&mut rng));
    let (bf, bg) = (BnFp12::random(&mut rng), BnFp12::random(&mut rng));
    let forms = [("reduced", KaratsubaSums::Reduced), ("lazy", KaratsubaSums::Lazy)];
    // every form gives the same answers
    let mut outs = Vec::new();
    for (_, k) in &forms {
        set_karatsuba_sums(*k);
        outs.push((a * b, f * g, f.square(), pb::multi_miller_loop(&[(p, q)]), (ba * bb, bf * bg, bf.square())));
    }
    assert!(outs.iter().all(|o| *o == outs[0]));
    let names = ["fp6 mul", "fp12 mul", "fp12 square", "miller loop", "final exp", "miller loop, scalar", "final exp, scalar", "bn254 fp6 mul", "bn254 fp12 mul", "bn254 fp12 square"];
    let mut best = [[f64::MAX; 10]; 2];
    for _ in 0..25 {
        for (k, (_, form)) in forms.iter().enumerate() {
            set_karatsuba_sums(*form);
            let mut y = black_box(a);
            best[k][0] = best[k][0].min(time(4000, || y = y * b));
            black_box(y);
            let mut y = black_box(f);
            best[k][1] = best[k][1].min(time(2000, || y = y * g));
            black_box(y);
            let mut y = black_box(f);
            best[k][2] = best[k][2].min(time(2000, || y = y.square()));
            black_box(y);
            let mut y = black_box(ba);
            best[k][7] = best[k][7].min(time(4000, || y = y * bb));
            black_box(y);
            let mut y = black_box(bf);
            best[k][8] = best[k][8].min(time(2000, || y = y * bg));
            black_box(y);
            let mut y = black_box(bf);
            best[k][9] = best[k][9].min(time(2000, || y = y.square()));
            black_box(y);
            for (col, (acc, hard)) in [(3, (MillerAccumulator::Auto, HardPart::Auto)), (5, (MillerAccumulator::Scalar, HardPart::Scalar))] {
                config::set_miller_accumulator(acc);
                config::set_hard_part(hard);
                best[k][col] = best[k][col].min(time(20, || {
                    black_box(pb::multi_miller_loop(black_box(&[(p, q)])));
                }));
                best[k][col + 1] = best[k][col + 1].min(time(20, || {
                    black_box(pb::final_exponentiation(black_box(&ml)));
                }));
            }
            config::set_miller_accumulator(MillerAccumulator::Auto);
            config::set_hard_part(HardPart::Auto);
        }
    }
    set_karatsuba_sums(KaratsubaSums::Auto);
    println!("{:20} {:>11} {:>11}   lazy / reduced", "", forms[0].0, forms[1].0);
    for (i, n) in names.iter().enumerate() {
        println!("{n:20} {:11.1} {:11.1}  {:.3}", best[0][i], best[1][i], best[1][i] / best[0][i]);
    }
}

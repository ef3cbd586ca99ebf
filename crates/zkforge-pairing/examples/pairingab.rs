//! Quick BLS12-381 pairing timings for A/B runs on a noisy machine: fastest of 15 chunks of 10
//! calls each for the Miller loop of one pair, the final exponentiation and the pairing check of
//! two and eight pairs. The Miller-loop switches of `zkforge_pairing::config` are interleaved
//! in one process (three rounds, each setting in turn), so their rows compare on the same
//! machine state; run two builds alternately to compare code changes.
//! `cargo run --release -p zkforge-pairing --example pairingab`.
use std::hint::black_box;
use std::time::Instant;
use zkforge_curve::bls12_381 as bls;
use zkforge_pairing::bls12_381 as pb;
use zkforge_pairing::config::{self, ThreeBForm};

fn best(f: impl Fn()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..15 {
        let s = Instant::now();
        for _ in 0..10 {
            f();
        }
        best = best.min(s.elapsed().as_secs_f64() / 10.0 * 1e6);
    }
    best
}

fn main() {
    let g1 = bls::G1Projective::generator();
    let g2 = bls::G2Projective::generator();
    let mut pairs = Vec::new();
    for i in 1..=4u64 {
        let s = bls::Scalar::from_u64(1000 + i);
        pairs.push(((g1 * s).to_affine(), g2.to_affine()));
        pairs.push(((-g1).to_affine(), (g2 * s).to_affine()));
    }
    let f = pb::multi_miller_loop(&pairs[..1]);
    let settings: [(&str, ThreeBForm); 2] = [("auto", ThreeBForm::Auto), ("3b general", ThreeBForm::General)];
    for round in 0..3 {
        for (name, tb) in settings {
            config::set_three_b_form(tb);
            let ml = best(|| {
                black_box(pb::multi_miller_loop(black_box(&pairs[..1])));
            });
            let fe = best(|| {
                black_box(pb::final_exponentiation(black_box(&f)));
            });
            let c2 = best(|| assert!(pb::pairing_check(black_box(&pairs[..2]))));
            let c8 = best(|| assert!(pb::pairing_check(black_box(&pairs))));
            println!("round {round} {name:15} miller_loop {ml:7.1} us  final_exp {fe:7.1} us  check2 {c2:7.1} us  check8 {c8:7.1} us");
        }
    }
}

//! Quick BLS12-381 pairing timings for A/B runs of two builds on a noisy machine (run the two
//! binaries alternately and compare the minima): fastest of 15 chunks of 10 calls each for the
//! Miller loop of one pair, the final exponentiation and the pairing check of two pairs.
//! `cargo run --release -p zkforge-pairing --example pairingab`.
use std::hint::black_box;
use std::time::Instant;
use zkforge_curve::bls12_381 as bls;
use zkforge_pairing::bls12_381 as pb;

fn best(name: &str, f: impl Fn()) {
    let mut best = f64::MAX;
    for _ in 0..15 {
        let s = Instant::now();
        for _ in 0..10 {
            f();
        }
        best = best.min(s.elapsed().as_secs_f64() / 10.0 * 1e6);
    }
    println!("{name:22} {best:9.1} us");
}

fn main() {
    let (h1, h2) = (bls::G1Affine::generator(), bls::G2Affine::generator());
    let pairs = vec![(h1, h2), (-h1, h2)];
    let f = pb::multi_miller_loop(&pairs[..1]);
    best("miller_loop", || {
        black_box(pb::multi_miller_loop(black_box(&pairs[..1])));
    });
    best("final_exponentiation", || {
        black_box(pb::final_exponentiation(black_box(&f)));
    });
    best("pairing_check_2", || assert!(pb::pairing_check(black_box(&pairs))));
}

//! `aggregate_verify_with` and `verify_signature_sets_with` on two threads under each
//! `zkforge_pairing::config::ParallelSplit` (whole lane groups of eight messages, near-equal
//! parts) against one thread, 4 to 16 messages, alternated in one process (each figure the
//! fastest of three rounds of five chunks).
//! `cargo run --release -p zkforge-bls --example verify_split`.
use std::hint::black_box;

use rand::SeedableRng;
use zkforge_bls::{aggregate_verify_with, verify_signature_sets_with, SecretKey, Signature, SignatureSet, VerifyConfig};
use zkforge_pairing::config::{set_parallel_split, ParallelSplit};

fn best(f: &mut dyn FnMut() -> bool) -> f64 {
    let mut b = f64::MAX;
    for _ in 0..5 {
        let t = std::time::Instant::now();
        for _ in 0..4 {
            assert!(black_box(f()));
        }
        b = b.min(t.elapsed().as_secs_f64() / 4.0 * 1e6);
    }
    b
}

fn main() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    println!("two threads / one thread, us: one thread, lane groups, even");
    for n in [4usize, 6, 8, 12, 16] {
        let sks: Vec<_> = (0..n).map(|i| SecretKey::key_gen(&[i as u8 + 1; 32], b"").expect("key")).collect();
        let pks: Vec<_> = sks.iter().map(|s| s.public_key()).collect();
        let msgs: Vec<Vec<u8>> = (0..n).map(|i| vec![i as u8; 32]).collect();
        let sigs: Vec<_> = sks.iter().zip(&msgs).map(|(s, m)| s.sign(m)).collect();
        let agg = Signature::aggregate(&sigs).expect("aggregate");
        let sets: Vec<_> = (0..n).map(|i| SignatureSet { public_keys: &pks[i..i + 1], message: &msgs[i], signature: &sigs[i] }).collect();
        let forms = [(1, ParallelSplit::Auto), (2, ParallelSplit::LaneGroups), (2, ParallelSplit::Even)];
        let mut m = [[f64::MAX; 3]; 2];
        for _ in 0..3 {
            for (i, &(threads, split)) in forms.iter().enumerate() {
                set_parallel_split(split);
                let cfg = VerifyConfig { threads, ..VerifyConfig::default() };
                m[0][i] = m[0][i].min(best(&mut || aggregate_verify_with(&pks, &msgs, &agg, &cfg)));
                m[1][i] = m[1][i].min(best(&mut || verify_signature_sets_with(&sets, &mut rng, &cfg)));
            }
        }
        set_parallel_split(ParallelSplit::Auto);
        for (row, name) in m.iter().zip(["aggregate_verify", "signature_sets"]) {
            println!("n = {n:2} {name:17} {:6.0} {:6.0} {:6.0} (even / groups {:.2})", row[0], row[1], row[2], row[2] / row[1]);
        }
    }
}

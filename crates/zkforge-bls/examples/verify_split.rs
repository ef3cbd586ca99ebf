//! `aggregate_verify_with` and `verify_signature_sets_with` on one thread and on two under
//! each `zkforge_pairing::config::ParallelSplit` (whole lane groups of eight messages,
//! near-equal parts) and [`Handoff`], 4 to 16 messages, alternated in one process. "warm":
//! calls back to back (the fastest of three rounds of five chunks of four); "cold": each call
//! after 2 ms in which the calling thread spins and the pool idles, as between a node's
//! occasional checks (the median of 40 calls).
//! `cargo run --release -p zkforge-bls --example verify_split`.
use std::hint::black_box;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use zkforge_bls::{aggregate_verify_with, verify_signature_sets_with, Handoff, SecretKey, Signature, SignatureSet, VerifyConfig};
use zkforge_pairing::config::{set_parallel_split, ParallelSplit};

fn warm(f: &mut dyn FnMut() -> bool) -> f64 {
    let mut b = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..4 {
            assert!(black_box(f()));
        }
        b = b.min(t.elapsed().as_secs_f64() / 4.0 * 1e6);
    }
    b
}

fn cold(f: &mut dyn FnMut() -> bool) -> f64 {
    let mut v: Vec<f64> = (0..40)
        .map(|_| {
            let idle = Instant::now();
            while idle.elapsed() < Duration::from_millis(2) {
                std::hint::spin_loop();
            }
            let t = Instant::now();
            assert!(black_box(f()));
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let forms = [
        (1, ParallelSplit::Auto, Handoff::CallerJoins, "1 thread"),
        (2, ParallelSplit::LaneGroups, Handoff::PoolOnly, "groups, pool only"),
        (2, ParallelSplit::Even, Handoff::PoolOnly, "even, pool only"),
        (2, ParallelSplit::Even, Handoff::CallerJoins, "even, caller joins"),
    ];
    println!("us per call: {}", forms.map(|f| f.3).join(" | "));
    for n in [4usize, 8, 12, 16] {
        let sks: Vec<_> = (0..n).map(|i| SecretKey::key_gen(&[i as u8 + 1; 32], b"").expect("key")).collect();
        let pks: Vec<_> = sks.iter().map(|s| s.public_key()).collect();
        let msgs: Vec<Vec<u8>> = (0..n).map(|i| vec![i as u8; 32]).collect();
        let sigs: Vec<_> = sks.iter().zip(&msgs).map(|(s, m)| s.sign(m)).collect();
        let agg = Signature::aggregate(&sigs).expect("aggregate");
        let sets: Vec<_> = (0..n).map(|i| SignatureSet { public_keys: &pks[i..i + 1], message: &msgs[i], signature: &sigs[i] }).collect();
        // [check][mode][form]
        let mut m = [[[f64::MAX; 4]; 2]; 2];
        for _ in 0..3 {
            for (i, &(threads, split, handoff, _)) in forms.iter().enumerate() {
                set_parallel_split(split);
                let cfg = VerifyConfig { threads, handoff, ..VerifyConfig::default() };
                for (mode, time) in [warm as fn(&mut dyn FnMut() -> bool) -> f64, cold].into_iter().enumerate() {
                    m[0][mode][i] = m[0][mode][i].min(time(&mut || aggregate_verify_with(&pks, &msgs, &agg, &cfg)));
                    m[1][mode][i] = m[1][mode][i].min(time(&mut || verify_signature_sets_with(&sets, &mut rng, &cfg)));
                }
            }
        }
        set_parallel_split(ParallelSplit::Auto);
        for (check, name) in m.iter().zip(["aggregate_verify", "signature_sets"]) {
            for (row, mode) in check.iter().zip(["warm", "cold"]) {
                println!("n = {n:2} {name:17} {mode}: {:6.0} | {:6.0} | {:6.0} | {:6.0}", row[0], row[1], row[2], row[3]);
            }
        }
    }
}

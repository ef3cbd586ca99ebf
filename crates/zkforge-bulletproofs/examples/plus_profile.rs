//! Repeated 64-bit Bulletproofs+ proofs on BLS12-381 G1, for `perf record`.
//! `cargo run --release -p zkforge-bulletproofs --example plus_profile`
use merlin::Transcript;
use std::time::Instant;
use zkforge_bulletproofs::{Bls12381G1, BpGroup, BulletproofGens, PedersenGens, RangeProofPlus};

fn main() {
    type G = Bls12381G1;
    let bp = BulletproofGens::<G>::new(64, 1);
    let pc = PedersenGens::default();
    let b = G::scalar_from_u64(77);
    let iters: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let s = Instant::now();
    for _ in 0..iters {
        std::hint::black_box(RangeProofPlus::prove(&bp, &pc, &mut Transcript::new(b"p"), &[5], &[b], 64, &mut rand_core::OsRng).unwrap());
    }
    println!("{}: plus prove {:.2} ms", G::NAME, s.elapsed().as_secs_f64() / iters as f64 * 1e3);
}

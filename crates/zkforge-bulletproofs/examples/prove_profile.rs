//! Repeated 64-bit proofs on one group, for `perf record` (the group is the first argument:
//! ristretto255, bls12-381-g1 or bn254-g1).
//! `cargo run --release -p zkforge-bulletproofs --example prove_profile -- bls12-381-g1`
use merlin::Transcript;
use std::time::Instant;
use zkforge_bulletproofs::{Bls12381G1, Bn254G1, BpGroup, BulletproofGens, GeneratorTables, PedersenGens, ProverConfig, RangeProof, Ristretto255};

fn run<G: BpGroup>() {
    let bp = BulletproofGens::<G>::new(64, 1);
    let pc = PedersenGens::default();
    let t = GeneratorTables::new(&bp, &pc, 64, 1).unwrap();
    let b = G::scalar_from_u64(77);
    let iters = 100;
    let s = Instant::now();
    for _ in 0..iters {
        std::hint::black_box(RangeProof::prove_with_tables(&bp, &pc, Some(&t), &ProverConfig::default(), &mut Transcript::new(b"p"), &[5], &[b], 64, &mut rand_core::OsRng).unwrap());
    }
    println!("{}: prove {:.2} ms", G::NAME, s.elapsed().as_secs_f64() / iters as f64 * 1e3);
}

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("bls12-381-g1") => run::<Bls12381G1>(),
        Some("bn254-g1") => run::<Bn254G1>(),
        _ => run::<Ristretto255>(),
    }
}

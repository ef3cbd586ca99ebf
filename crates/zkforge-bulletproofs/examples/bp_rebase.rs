//! Sweep of the Bulletproof prover's `rebase_ratio` knob, with and without generator tables:
//! 64-bit proofs of 1 and 16 values on each group, one thread, interleaved (medians of 5).
//! `cargo run --release -p zkforge-bulletproofs --example bp_rebase`
use merlin::Transcript;
use std::time::Instant;
use zkforge_bulletproofs::{Bls12381G1, Bn254G1, BpGroup, BulletproofGens, GeneratorTables, PedersenGens, ProverConfig, RangeProof, Ristretto255};

fn sweep<G: BpGroup>() {
    let bp = BulletproofGens::<G>::new(64, 16);
    let pc = PedersenGens::default();
    let ratios = [None, Some(2), Some(4), Some(8), Some(16)];
    for m in [1usize, 16] {
        let t = GeneratorTables::new(&bp, &pc, 64, m).unwrap();
        let v: Vec<u64> = (0..m as u64).map(|i| i * 0x9e37_79b9_7f4a_7c15).collect();
        let b: Vec<G::Scalar> = (0..m as u64).map(|i| G::scalar_from_u64(i + 7)).collect();
        let reps = if m == 1 { 20 } else { 2 };
        let mut times = vec![Vec::new(); 2 * ratios.len()];
        for _ in 0..5 {
            for (k, r) in ratios.iter().enumerate() {
                for (u, tables) in [None, Some(&t)].into_iter().enumerate() {
                    let cfg = ProverConfig { rebase_ratio: *r, ..ProverConfig::default() };
                    let s = Instant::now();
                    for _ in 0..reps {
                        std::hint::black_box(RangeProof::prove_with_tables(&bp, &pc, tables, &cfg, &mut Transcript::new(b"s"), &v, &b, 64, &mut rand_core::OsRng).unwrap());
                    }
                    times[2 * k + u].push(s.elapsed().as_secs_f64() / reps as f64 * 1e3);
                }
            }
        }
        let mut row = Vec::new();
        for (k, r) in ratios.iter().enumerate() {
            for u in 0..2 {
                let t = &mut times[2 * k + u];
                t.sort_by(|a, b| a.partial_cmp(b).unwrap());
                row.push(format!("{:?}{}: {:.2}", r, if u == 1 { "+tables" } else { "" }, t[2]));
            }
        }
        println!("{} m={m} (ms): {}", G::NAME, row.join(", "));
    }
}

fn main() {
    sweep::<Ristretto255>();
    sweep::<Bls12381G1>();
    sweep::<Bn254G1>();
}

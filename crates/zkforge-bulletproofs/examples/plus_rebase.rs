//! Sweep of the Bulletproofs+ prover's `rebase_ratio` knob: 64-bit proofs of 1 and 16 values
//! on each group, one thread, interleaved runs (medians of 5).
//! `cargo run --release -p zkforge-bulletproofs --example plus_rebase [-- GROUP]`
use merlin::Transcript;
use std::time::Instant;
use zkforge_bulletproofs::{Bls12381G1, Bn254G1, BpGroup, BulletproofGens, PedersenGens, ProverConfig, RangeProofPlus, Ristretto255};

fn sweep<G: BpGroup>() {
    let bp = BulletproofGens::<G>::new(64, 16);
    let pc = PedersenGens::default();
    let ratios = [None, Some(2), Some(4), Some(8), Some(16), Some(32)];
    for m in [1usize, 16] {
        let v: Vec<u64> = (0..m as u64).map(|i| i * 0x9e37_79b9_7f4a_7c15).collect();
        let b: Vec<G::Scalar> = (0..m as u64).map(|i| G::scalar_from_u64(i + 7)).collect();
        let reps = if m == 1 { 20 } else { 2 };
        let mut times = vec![Vec::new(); ratios.len()];
        for _ in 0..5 {
            for (k, r) in ratios.iter().enumerate() {
                let cfg = ProverConfig { rebase_ratio: *r, ..ProverConfig::default() };
                let s = Instant::now();
                for _ in 0..reps {
                    std::hint::black_box(RangeProofPlus::prove_with(&bp, &pc, &cfg, &mut Transcript::new(b"s"), &v, &b, 64, &mut rand_core::OsRng).unwrap());
                }
                times[k].push(s.elapsed().as_secs_f64() / reps as f64 * 1e3);
            }
        }
        let row: Vec<String> = ratios
            .iter()
            .zip(times.iter_mut())
            .map(|(r, t)| {
                t.sort_by(|a, b| a.partial_cmp(b).unwrap());
                format!("{:?}: {:.2} ms", r, t[2])
            })
            .collect();
        println!("{} m={m}: {}", G::NAME, row.join(", "));
    }
}

fn main() {
    // an argument names one group: ristretto255, bls12-381-g1 or bn254-g1 (all three without)
    let which = std::env::args().nth(1);
    let on = |name: &str| which.as_deref().is_none_or(|w| w == name);
    if on("ristretto255") {
        sweep::<Ristretto255>();
    }
    if on("bls12-381-g1") {
        sweep::<Bls12381G1>();
    }
    if on("bn254-g1") {
        sweep::<Bn254G1>();
    }
}

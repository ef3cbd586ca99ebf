//! `verify_blob_kzg_proof_batch` on two threads with `KzgConfig::threaded_batch_tail` on and
//! off, and on one thread, for 8, 16 and 64 random blobs, alternated in one process (each
//! figure the fastest of three rounds of five chunks).
//! `cargo run --release -p zkforge-kzg --example batch_tail`.
use std::hint::black_box;
use std::time::Instant;

use rand::{rngs::StdRng, SeedableRng};
use zkforge_field::bls12_381::Fr;
use zkforge_kzg::{KzgConfig, KzgSettings};

fn main() {
    let forms: Vec<(&str, KzgSettings)> = [("1 thread", 1, true), ("2 threads, tail after", 2, false), ("2 threads, tail threaded", 2, true)]
        .into_iter()
        .map(|(name, threads, threaded_batch_tail)| (name, KzgSettings::mainnet_with(&KzgConfig { threads, threaded_batch_tail, ..Default::default() }).expect("settings")))
        .collect();
    let mut rng = StdRng::seed_from_u64(5);
    let blobs: Vec<Vec<u8>> = (0..64).map(|_| (0..4096).flat_map(|_| Fr::random(&mut rng).to_bytes_be().as_ref().to_vec()).collect()).collect();
    let commitments: Vec<[u8; 48]> = blobs.iter().map(|b| forms[0].1.blob_to_kzg_commitment(b).expect("commitment")).collect();
    let proofs: Vec<[u8; 48]> = blobs.iter().zip(&commitments).map(|(b, c)| forms[0].1.compute_blob_kzg_proof(b, c).expect("proof")).collect();
    println!("ms per batch: {}", forms.iter().map(|f| f.0).collect::<Vec<_>>().join(" | "));
    for n in [8usize, 16, 64] {
        let b: Vec<&[u8]> = blobs[..n].iter().map(|x| &x[..]).collect();
        let c: Vec<&[u8]> = commitments[..n].iter().map(|x| &x[..]).collect();
        let p: Vec<&[u8]> = proofs[..n].iter().map(|x| &x[..]).collect();
        let reps = (256 / n).max(2);
        let mut best = vec![f64::MAX; forms.len()];
        for _ in 0..3 {
            for (i, (_, kzg)) in forms.iter().enumerate() {
                for _ in 0..5 {
                    let t = Instant::now();
                    for _ in 0..reps {
                        assert_eq!(black_box(kzg.verify_blob_kzg_proof_batch(&b, &c, &p)), Ok(true));
                    }
                    best[i] = best[i].min(t.elapsed().as_secs_f64() * 1e3 / reps as f64);
                }
            }
        }
        println!("n = {n:2}: {:.2} | {:.2} | {:.2} (threaded / after {:.3})", best[0], best[1], best[2], best[2] / best[1]);
    }
}

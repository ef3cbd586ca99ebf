//! 1024 compressed BLS12-381 G1 points decoded one by one (`from_compressed_unchecked`) against
//! the batch with lane square roots, interleaved in one process, medians of 15 rounds
//! (`cargo run --release -p zkforge-msm --example decompress_ab`).
use rand::{rngs::StdRng, SeedableRng};
use std::time::Instant;
use zkforge_curve::bls12_381::{G1Affine, G1Config};
use zkforge_curve::sample_points;
use zkforge_msm::ifma::bls12_381_g1_from_compressed_batch_unchecked;

fn main() {
    let mut rng = StdRng::seed_from_u64(5);
    let bytes: Vec<[u8; 48]> = sample_points::<G1Config>(&mut rng, 1024).iter().map(G1Affine::to_compressed).collect();
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..15 {
        let t = Instant::now();
        let a: Vec<_> = bytes.iter().map(|b| G1Affine::from_compressed_unchecked(b)).collect();
        ta.push(t.elapsed().as_secs_f64() * 1e6 / 1024.0);
        let t = Instant::now();
        let b = bls12_381_g1_from_compressed_batch_unchecked(&bytes);
        tb.push(t.elapsed().as_secs_f64() * 1e6 / 1024.0);
        assert_eq!(a, b);
    }
    ta.sort_by(f64::total_cmp);
    tb.sort_by(f64::total_cmp);
    println!("per point: one by one {:.2} us, batch {:.2} us, ratio {:.2}", ta[7], tb[7], tb[7] / ta[7]);
}

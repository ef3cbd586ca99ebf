//! Window/GLV/split sweep for the MSM defaults: `cargo run --release -p zkforge-bench --example msm_sweep -- LOG2N THREADS`
use std::time::Instant;
use rand::{rngs::StdRng, SeedableRng};
use zkforge_curve::bls12_381 as bls;
use zkforge_msm::{msm_with, MsmConfig, Split};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let lg: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(12);
    let threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let n = 1usize << lg;
    let mut rng = StdRng::seed_from_u64(5);
    let pts = zkforge_curve::sample_points::<bls::G1Config>(&mut rng, n);
    let ks: Vec<zkforge_field::bls12_381::Fr> = (0..n).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng)).collect();
    let reps = if lg <= 12 { 5 } else { 2 };
    let batch: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    let kind = if batch == 0 { zkforge_msm::Buckets::Xyzz } else { zkforge_msm::Buckets::BatchAffine { batch } };
    for glv in [false, true] {
        for split in if threads > 1 { vec![Split::Windows, Split::Points] } else { vec![Split::Windows] } {
            let mut line = format!("n=2^{lg} t={threads} glv={glv} {split:?} {kind:?}:");
            for c in 4..=16u32 {
                if (c as i32 - lg as i32).abs() > 6 { continue; }
                let cfg = MsmConfig { window: Some(c), glv, buckets: kind, small_threshold: 0, small_method: zkforge_msm::SmallMethod::Straus, threads, split };
                let mut best = f64::MAX;
                for _ in 0..reps {
                    let t = Instant::now();
                    std::hint::black_box(msm_with(&pts, &ks, &cfg).unwrap());
                    best = best.min(t.elapsed().as_secs_f64() * 1e3);
                }
                line += &format!(" c{c}={best:.1}");
            }
            println!("{line}");
        }
    }
}

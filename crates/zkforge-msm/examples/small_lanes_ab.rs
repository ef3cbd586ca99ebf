//! Small variable-time G1 MSMs on BLS12-381: the `for_size` configuration against the lane
//! Straus (`SmallMethod::Lanes`), alternating in one process, medians of 15 rounds, one thread;
//! with the argument `2`, `for_size(n, 2)` (two threads) against the lanes on one.
//! `cargo run --release -p zkforge-msm --example small_lanes_ab [-- 2]`
use rand::{rngs::StdRng, SeedableRng};
use std::time::Instant;
use zkforge_curve::bls12_381::{G1Config, Scalar};
use zkforge_curve::sample_points;
use zkforge_msm::{msm_with, MsmConfig, SmallMethod};

fn main() {
    let threads: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = StdRng::seed_from_u64(5);
    for n in [4usize, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 16, 17, 20, 24, 31, 32, 48, 64, 96, 128, 160, 192, 256, 384] {
        let pts = sample_points::<G1Config>(&mut rng, n);
        let ks: Vec<Scalar> = (0..n).map(|_| Scalar::random(&mut rng)).collect();
        let base = MsmConfig::for_size(n, threads);
        let one = MsmConfig::for_size(n, 1);
        let lanes = MsmConfig { small_threshold: usize::MAX, small_method: SmallMethod::Lanes, ..one };
        let straus = MsmConfig { small_threshold: usize::MAX, small_method: SmallMethod::Straus, ..one };
        let cfgs = [base, lanes, straus];
        let want = msm_with(&pts, &ks, &base).unwrap();
        for c in &cfgs {
            assert_eq!(msm_with(&pts, &ks, c).unwrap(), want);
        }
        let reps = (2000 / n).max(2);
        let mut t = vec![Vec::new(); cfgs.len()];
        for _ in 0..15 {
            for (k, c) in cfgs.iter().enumerate() {
                let s = Instant::now();
                for _ in 0..reps {
                    std::hint::black_box(msm_with(&pts, &ks, c).unwrap());
                }
                t[k].push(s.elapsed().as_secs_f64() / reps as f64 * 1e6);
            }
        }
        for v in t.iter_mut() {
            v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        }
        println!("n {n:>4}: default {:>9.1} us  lanes {:>9.1} us  straus {:>9.1} us  lanes/default {:.2}", t[0][7], t[1][7], t[2][7], t[1][7] / t[0][7]);
    }
}

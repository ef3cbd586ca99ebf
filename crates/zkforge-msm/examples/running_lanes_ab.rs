//! The bucket reduction's running sums on lanes (`ifma::set_running_sum_lanes`) on and off,
//! alternating in one process, medians of 11 rounds: BLS12-381 G1 MSMs of 2^10, 2^12, 2^14 and
//! 2^16 points on one thread with the default configuration, and a FixedBaseMany pass of 128
//! lists of 64 points at window 8 (FK20's positions)
//! (`cargo run --release -p zkforge-msm --example running_lanes_ab`).
use rand::{rngs::StdRng, SeedableRng};
use std::time::Instant;
use zkforge_curve::bls12_381::G1Config;
use zkforge_curve::sample_points;
use zkforge_field::bls12_381::Fr;
use zkforge_msm::ifma::set_running_sum_lanes;
use zkforge_msm::{msm_threads, FixedBaseMany};

fn ab(name: &str, mut f: impl FnMut()) {
    let mut t = [Vec::new(), Vec::new()];
    for _ in 0..11 {
        for (side, on) in [true, false].into_iter().enumerate() {
            set_running_sum_lanes(on);
            let s = Instant::now();
            f();
            t[side].push(s.elapsed().as_secs_f64() * 1e3);
        }
    }
    set_running_sum_lanes(true);
    for v in t.iter_mut() {
        v.sort_by(f64::total_cmp);
    }
    println!("{name:28} lanes {:8.3} ms, one at a time {:8.3} ms, ratio {:.2}", t[0][5], t[1][5], t[0][5] / t[1][5]);
}

fn main() {
    let mut rng = StdRng::seed_from_u64(9);
    let pts = sample_points::<G1Config>(&mut rng, 1 << 16);
    let ks: Vec<Fr> = (0..1 << 16).map(|_| Fr::random(&mut rng)).collect();
    for log in [10, 12, 14, 16] {
        let n = 1usize << log;
        ab(&format!("msm 2^{log}"), || {
            std::hint::black_box(msm_threads(&pts[..n], &ks[..n], 1).unwrap());
        });
    }
    let lists: Vec<Vec<_>> = pts[..8192].chunks(64).map(|c| c.to_vec()).collect();
    let many = FixedBaseMany::new(&lists, 8, 1, 256).unwrap();
    ab("fixed-base many 128 x 64, c 8", || {
        std::hint::black_box(many.msm_many(&ks[..8192], 1).unwrap());
    });
}

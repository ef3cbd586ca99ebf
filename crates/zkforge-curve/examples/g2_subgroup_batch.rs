//! The batched G2 subgroup test (`g2_in_subgroup_batch_vartime`, eight points at a time on IFMA
//! lanes) against the point-by-point test, per point, for batches of 1 to 16 points; medians
//! of 21 interleaved rounds. Its crossover sets where the batch takes the lanes.
//!
//! `cargo run --release -p zkforge-curve --example g2_subgroup_batch`
use std::hint::black_box;
use std::time::Instant;
use zkforge_curve::bls12_381::{g2_in_subgroup_batch_vartime, G2Affine, G2Projective};

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let g = G2Projective::generator();
    let pts: Vec<G2Affine> = (0..16u64).map(|k| g.mul_u64_vartime(1000 + 77 * k).to_affine()).collect();
    for n in [1usize, 2, 3, 4, 5, 6, 7, 8, 16] {
        let batch = &pts[..n];
        assert!(g2_in_subgroup_batch_vartime(batch).iter().all(|&b| b));
        let (mut lanes, mut single) = (vec![], vec![]);
        for _ in 0..21 {
            let t = Instant::now();
            for _ in 0..4 {
                black_box(g2_in_subgroup_batch_vartime(black_box(batch)));
            }
            lanes.push(t.elapsed().as_secs_f64() * 1e6 / (4 * n) as f64);
            let t = Instant::now();
            for _ in 0..4 {
                for p in batch {
                    black_box(black_box(p).is_in_subgroup());
                }
            }
            single.push(t.elapsed().as_secs_f64() * 1e6 / (4 * n) as f64);
        }
        let (l, s) = (median(&mut lanes), median(&mut single));
        println!("n = {n:2}: batched {l:6.1} us per point, one by one {s:6.1} us per point, ratio {:.2}", l / s);
    }
}

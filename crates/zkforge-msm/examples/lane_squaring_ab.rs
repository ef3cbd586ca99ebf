//! The lanes' dedicated squaring (`ifma::set_dedicated_squaring`) on and off, alternating in one
//! process, medians of 15 rounds: 64 BLS12-381 G1 scalar multiplications (`mul_many`), 1024
//! compressed points decoded (lane square roots) and 1024 subgroup tests, per point
//! (`cargo run --release -p zkforge-msm --example lane_squaring_ab`).
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::time::Instant;
use zkforge_curve::bls12_381::{G1Affine, G1Config, G1Projective};
use zkforge_curve::sample_points;
use zkforge_msm::ifma::{bls12_381_g1_from_compressed_batch_unchecked, bls12_381_g1_in_subgroup_vartime, set_dedicated_squaring};
use zkforge_msm::mul_many::{mul_many_vartime_with, MulManyMethod};

fn main() {
    let mut rng = StdRng::seed_from_u64(8);
    let pts = sample_points::<G1Config>(&mut rng, 1024);
    let jac: Vec<G1Projective> = pts[..64].iter().map(|p| p.to_jacobian()).collect();
    let ks: Vec<[u64; 4]> = (0..64).map(|_| [rng.gen(), rng.gen(), rng.gen(), rng.gen::<u64>() >> 2]).collect();
    let bytes: Vec<[u8; 48]> = pts.iter().map(G1Affine::to_compressed).collect();
    let mut t = [[Vec::new(), Vec::new(), Vec::new()], [Vec::new(), Vec::new(), Vec::new()]];
    for _ in 0..15 {
        for (side, on) in [true, false].into_iter().enumerate() {
            set_dedicated_squaring(on);
            let s = Instant::now();
            std::hint::black_box(mul_many_vartime_with(&jac, &ks, MulManyMethod::Lanes).unwrap());
            t[side][0].push(s.elapsed().as_secs_f64() * 1e6 / 64.0);
            let s = Instant::now();
            std::hint::black_box(bls12_381_g1_from_compressed_batch_unchecked(&bytes));
            t[side][1].push(s.elapsed().as_secs_f64() * 1e6 / 1024.0);
            let s = Instant::now();
            std::hint::black_box(bls12_381_g1_in_subgroup_vartime(&pts));
            t[side][2].push(s.elapsed().as_secs_f64() * 1e6 / 1024.0);
        }
    }
    for side in t.iter_mut() {
        for v in side.iter_mut() {
            v.sort_by(f64::total_cmp);
        }
    }
    for (k, name) in ["mul_many (lanes)", "decode (lane roots)", "subgroup test (lanes)"].iter().enumerate() {
        println!("{name:24} dedicated squaring {:6.2} us, general product {:6.2} us, ratio {:.2}", t[0][k][7], t[1][k][7], t[0][k][7] / t[1][k][7]);
    }
}

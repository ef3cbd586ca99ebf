//! `mul_many_vartime` one by one against the IFMA lanes, interleaved in one process (medians of
//! 15 rounds): 8, 16, 32 and 64 BLS12-381 G1 products with random 255-bit scalars, as FK20's
//! G1 FFT levels take them (`cargo run --release -p zkforge-msm --example mul_many_ab`).
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::time::Instant;
use zkforge_curve::bls12_381::{G1Config, G1Projective};
use zkforge_curve::sample_points;
use zkforge_msm::mul_many::{mul_many_vartime_with, MulManyMethod};

fn main() {
    let mut rng = StdRng::seed_from_u64(3);
    println!("lanes available: {}", zkforge_msm::ifma::available());
    for n in [4usize, 8, 16, 32, 64] {
        let pts: Vec<G1Projective> = sample_points::<G1Config>(&mut rng, n).iter().map(|p| p.to_jacobian().double()).collect();
        let ks: Vec<[u64; 4]> = (0..n).map(|_| [rng.gen(), rng.gen(), rng.gen(), rng.gen::<u64>() >> 2]).collect();
        let a = mul_many_vartime_with(&pts, &ks, MulManyMethod::OneByOne).unwrap();
        let b = mul_many_vartime_with(&pts, &ks, MulManyMethod::Lanes).unwrap();
        assert_eq!(a, b);
        let (mut ta, mut tb) = (Vec::new(), Vec::new());
        for _ in 0..15 {
            let t = Instant::now();
            std::hint::black_box(mul_many_vartime_with(&pts, &ks, MulManyMethod::OneByOne).unwrap());
            ta.push(t.elapsed().as_secs_f64() * 1e6 / n as f64);
            let t = Instant::now();
            std::hint::black_box(mul_many_vartime_with(&pts, &ks, MulManyMethod::Lanes).unwrap());
            tb.push(t.elapsed().as_secs_f64() * 1e6 / n as f64);
        }
        ta.sort_by(f64::total_cmp);
        tb.sort_by(f64::total_cmp);
        println!("n {n:3}: one by one {:6.1} us, lanes {:6.1} us per product, ratio {:.2}", ta[7], tb[7], tb[7] / ta[7]);
    }
}

//! Profiling target: one default BLS12-381 G1 MSM of 2^LOG2N points, repeated.
use rand::{rngs::StdRng, SeedableRng};
use zkforge_curve::bls12_381 as bls;
use zkforge_msm::{msm_with, MsmConfig};
fn main() {
    let lg: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(16);
    let n = 1usize << lg;
    let mut rng = StdRng::seed_from_u64(5);
    let pts = zkforge_curve::sample_points::<bls::G1Config>(&mut rng, n);
    let ks: Vec<zkforge_field::bls12_381::Fr> = (0..n).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng)).collect();
    let cfg = MsmConfig::for_size(n, 1);
    for _ in 0..3 {
        let t = std::time::Instant::now();
        std::hint::black_box(msm_with(&pts, &ks, &cfg).unwrap());
        println!("{:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    }
}

//! Repeated 130-point `msm_ct` on the lanes (BLS12-381 G1), for `perf record`.
//! `cargo run --release -p zkforge-msm --example msm_ct_profile`
use rand::{rngs::StdRng, Rng, SeedableRng};
use zkforge_curve::{bls12_381::G1Config, sample_points};
use zkforge_msm::msm_ct::{msm_ct_with, CtMsmMethod};

fn main() {
    let mut rng = StdRng::seed_from_u64(5);
    let pts = sample_points::<G1Config>(&mut rng, 130);
    let ks: Vec<[u64; 4]> = (0..130).map(|_| [rng.gen(), rng.gen(), rng.gen(), rng.gen::<u64>() >> 2]).collect();
    for _ in 0..2000 {
        std::hint::black_box(msm_ct_with(&pts, &ks, CtMsmMethod::Lanes).unwrap());
    }
}

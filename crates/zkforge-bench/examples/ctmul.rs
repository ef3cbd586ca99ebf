//! Profiling target: constant-time BLS12-381 G1 scalar multiplication in a loop.
use std::hint::black_box;
use zkforge_curve::bls12_381::G1Projective;
use zkforge_field::bls12_381::Fr;
fn main() {
    let mut rng = rand::thread_rng();
    let p = G1Projective::generator() * Fr::random(&mut rng);
    let ks: Vec<[u64; 4]> = (0..64).map(|_| Fr::random(&mut rng).to_limbs()).collect();
    let mode = std::env::args().nth(1).unwrap_or_default();
    let t = std::time::Instant::now();
    let mut acc = 0u64;
    for i in 0..20000 {
        let r = if mode == "vt" { black_box(&p).mul_limbs_vartime(&ks[i % 64]) } else { black_box(&p).mul_limbs(&ks[i % 64]) };
        acc ^= r.x().to_limbs()[0];
    }
    println!("{:.1} us/op {acc}", t.elapsed().as_secs_f64() * 1e6 / 20000.0);
}

//! Times the 8-pair pairing check on one thread and split over a 2-thread pool
//! (`pairing_check_parallel`): `cargo run --release -p zkforge-pairing --example parallel_check`.
use zkforge_curve::{bls12_381 as bls, bn254 as bn};

fn time(f: impl Fn() -> bool) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..7 {
        let t = std::time::Instant::now();
        for _ in 0..10 {
            assert!(f());
        }
        best = best.min(t.elapsed().as_secs_f64() / 10.0 * 1e6);
    }
    best
}

fn main() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("pool");
    let (g1, g2) = (bls::G1Affine::generator(), bls::G2Affine::generator());
    let bls_pairs: Vec<_> = (0..8).map(|i| (if i % 2 == 0 { g1 } else { -g1 }, g2)).collect();
    let (h1, h2) = (bn::G1Affine::generator(), bn::G2Affine::generator());
    let bn_pairs: Vec<_> = (0..8).map(|i| (if i % 2 == 0 { h1 } else { -h1 }, h2)).collect();
    for _ in 0..2 {
        let one = time(|| zkforge_pairing::bls12_381::pairing_check(&bls_pairs));
        let two = time(|| pool.install(|| zkforge_pairing::bls12_381::pairing_check_parallel(&bls_pairs)));
        println!("bls12_381 8 pairs: 1 thread {one:.0} us, 2 threads {two:.0} us ({:.2}x)", one / two);
        let one = time(|| zkforge_pairing::bn254::pairing_check(&bn_pairs));
        let two = time(|| pool.install(|| zkforge_pairing::bn254::pairing_check_parallel(&bn_pairs)));
        println!("bn254 8 pairs: 1 thread {one:.0} us, 2 threads {two:.0} us ({:.2}x)", one / two);
    }
}

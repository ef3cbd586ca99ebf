//! Times the pairing check with each value of the tower switch (`backend::set_tower`), for
//! choosing the default per field size: `cargo run --release -p zkforge-pairing --example tower_switch`.
use zkforge_curve::{bls12_381 as bls, bn254 as bn};
use zkforge_field::backend::{set_tower, Tower};

fn time(f: impl Fn() -> bool) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..7 {
        let t = std::time::Instant::now();
        for _ in 0..20 {
            assert!(f());
        }
        best = best.min(t.elapsed().as_secs_f64() / 20.0 * 1e6);
    }
    best
}

fn main() {
    let (g1, g2) = (bn::G1Affine::generator(), bn::G2Affine::generator());
    let bn_pairs = vec![(g1, g2), (-g1, g2)];
    let (h1, h2) = (bls::G1Affine::generator(), bls::G2Affine::generator());
    let bls_pairs = vec![(h1, h2), (-h1, h2)];
    for tower in [Tower::PerProduct, Tower::Lazy] {
        set_tower(tower);
        let bn_us = time(|| zkforge_pairing::bn254::pairing_check(&bn_pairs));
        let bls_us = time(|| zkforge_pairing::bls12_381::pairing_check(&bls_pairs));
        println!("{tower:?}: bn254 pairing_check(2) {bn_us:.1} us, bls12_381 {bls_us:.1} us");
    }
}

//! Profiling target: square chains, sqrt (`cargo run --release -p zkforge-field --example sqrprof`).
use std::hint::black_box;
use zkforge_field::bls12_381::Fp;
use zkforge_field::backend::{set_squaring, Squaring};
fn main() {
    let mut r = rand::thread_rng();
    let x = Fp::random(&mut r).square();
    for (name, s) in [("multiply", Squaring::Multiply), ("dedicated", Squaring::Dedicated)] {
        set_squaring(s);
        let mut best = f64::MAX;
        for _ in 0..5 {
            let t = std::time::Instant::now();
            let y = black_box(x).square_n(100_000);
            black_box(y);
            best = best.min(t.elapsed().as_nanos() as f64 / 100_000.0);
        }
        println!("square chain ({name}) {best:.2} ns");
    }
    set_squaring(Squaring::Auto);
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = std::time::Instant::now();
        for _ in 0..1000 { black_box(black_box(x).sqrt().unwrap()); }
        best = best.min(t.elapsed().as_nanos() as f64 / 1000.0);
    }
    println!("sqrt {best:.1} ns");
}

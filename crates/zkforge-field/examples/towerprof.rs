//! Latency of the tower operations (x <- f(x, y) chains, best of five), for profiling the
//! lazy tower against the per-product one: `cargo run --release -p zkforge-field --example towerprof`.
use std::hint::black_box;
use zkforge_field::bls12_381::{Fp, Fp2, Fp6, Fp12};
use zkforge_field::tower::lazy::Fp2Wide;
fn t<T: Copy>(name: &str, x0: T, y: T, f: impl Fn(T, T) -> T) {
    let n = 200_000u32;
    let mut best = f64::MAX;
    for _ in 0..5 {
        let mut x = x0;
        let s = std::time::Instant::now();
        for _ in 0..n { x = f(black_box(x), y); }
        black_box(x);
        best = best.min(s.elapsed().as_nanos() as f64 / n as f64);
    }
    println!("{name:20} {best:8.1} ns");
}
fn main() {
    let mut r = rand::thread_rng();
    let (a, b) = (Fp::random(&mut r), Fp::random(&mut r));
    t("fp_add", a, b, |x, y| x + y);
    t("fp_sub", a, b, |x, y| x - y);
    t("fp_mul", a, b, |x, y| x * y);
    let (a, b) = (Fp2::random(&mut r), Fp2::random(&mut r));
    t("fp2_add", a, b, |x, y| x + y);
    t("fp2_mul", a, b, |x, y| x * y);
    t("fp2_sq", a, b, |x, _| x.square());
    t("fp2_xi", a, b, |x, _| x.mul_by_nonresidue());
    t("fp2wide_mul", a, b, |x, y| { let mut w = Fp2Wide::ZERO; Fp2Wide::mul_to(&mut w, &x, &y); w.reduce() });
    let (a, b) = (Fp6::random(&mut r), Fp6::random(&mut r));
    t("fp6_add", a, b, |x, y| x + y);
    t("fp6_mul", a, b, |x, y| x * y);
    t("fp6_sq", a, b, |x, _| x.square());
    let (a, b) = (Fp12::random(&mut r), Fp12::random(&mut r));
    t("fp12_mul", a, b, |x, y| x * y);
    t("fp12_sq", a, b, |x, _| x.square());
}

//! Throughput of the lazy-tower building blocks (profiling):
//! `cargo run --release -p zkforge-field --example kernelprof`.
use std::hint::black_box;
use zkforge_field::backend::{self, Wide};
use zkforge_field::bls12_381::{Fp, Fp2, Fp6};
use zkforge_field::tower::lazy::{Fp2Wide, Fp6Wide};
fn t(name: &str, mut f: impl FnMut()) {
    let n = 200_000u32;
    let mut best = f64::MAX;
    for _ in 0..5 {
        let s = std::time::Instant::now();
        for _ in 0..n { f(); }
        best = best.min(s.elapsed().as_nanos() as f64 / n as f64);
    }
    println!("{name:24} {best:8.1} ns");
}
fn main() {
    let mut r = rand::thread_rng();
    let (a, b) = (Fp::random(&mut r), Fp::random(&mut r));
    let p = Fp::PINV;
    let (al, bl) = (a.to_mont_limbs(), b.to_mont_limbs());
    let mut w = Wide::<6>::ZERO;
    let mut w2 = Wide::<6>::ZERO;
    backend::mul_wide(&mut w2, &al, &bl);
    t("mul_wide_6", || backend::mul_wide(black_box(&mut w), black_box(&al), black_box(&bl)));
    t("redc_6", || { black_box(backend::redc(black_box(&w2), &p)); });
    t("dbl_sub_6", || backend::dbl_sub(black_box(&mut w), black_box(&w2), black_box(&w2), &p));
    t("fp_mul", || { black_box(black_box(a) * black_box(b)); });
    t("fp_add", || { black_box(black_box(a) + black_box(b)); });
    let (x, y) = (Fp2::random(&mut r), Fp2::random(&mut r));
    let mut ww = Fp2Wide::ZERO;
    t("fp2wide_mul_to", || Fp2Wide::mul_to(black_box(&mut ww), black_box(&x), black_box(&y)));
    t("fp2_mul", || { black_box(black_box(x) * black_box(y)); });
    t("fp2_add", || { black_box(black_box(x) + black_box(y)); });
    let (u, v) = (Fp6::random(&mut r), Fp6::random(&mut r));
    let mut w6 = Fp6Wide::ZERO;
    t("fp6wide_mul_to", || Fp6Wide::mul_to(black_box(&mut w6), black_box(&u), black_box(&v)));
    t("fp6_mul", || { black_box(black_box(u) * black_box(v)); });
}

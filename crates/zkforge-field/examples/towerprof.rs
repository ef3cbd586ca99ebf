//! Profiling the tower: latency of x <- f(x, y) chains (best of five) for the Fp, Fp2, Fp6 and
//! Fp12 operations of both curves, then the throughput of the lazy tower's building blocks
//! (wide product, REDC, wide subtraction, wide Fp2/Fp6 products) on BLS12-381:
//! `cargo run --release -p zkforge-field --example towerprof`.
use std::hint::black_box;
use zkforge_field::backend::{self, Wide};
use zkforge_field::tower::lazy::{Fp2Wide, Fp6Wide};
use zkforge_field::tower::{Fp12, Fp2, Fp6, TowerConfig};
use zkforge_field::{bls12_381, bn254, Fp};

const N_ITERS: u32 = 200_000;

fn best_of_five(mut run: impl FnMut() -> f64) -> f64 {
    (0..5).map(|_| run()).fold(f64::MAX, f64::min)
}

/// Latency: x <- f(x, y), chained.
fn t<T: Copy>(curve: &str, name: &str, x0: T, y: T, f: impl Fn(T, T) -> T) {
    let ns = best_of_five(|| {
        let mut x = x0;
        let s = std::time::Instant::now();
        for _ in 0..N_ITERS {
            x = f(black_box(x), y);
        }
        black_box(x);
        s.elapsed().as_nanos() as f64 / N_ITERS as f64
    });
    println!("{curve:10} {name:24} {ns:8.1} ns  latency");
}

/// Throughput: independent calls.
fn tp(curve: &str, name: &str, mut f: impl FnMut()) {
    let ns = best_of_five(|| {
        let s = std::time::Instant::now();
        for _ in 0..N_ITERS {
            f();
        }
        s.elapsed().as_nanos() as f64 / N_ITERS as f64
    });
    println!("{curve:10} {name:24} {ns:8.1} ns  throughput");
}

fn chains<C: TowerConfig<M>, const M: usize>(curve: &str) {
    let mut r = rand::thread_rng();
    let (a, b) = (Fp::<C, M>::random(&mut r), Fp::<C, M>::random(&mut r));
    t(curve, "fp_add", a, b, |x, y| x + y);
    t(curve, "fp_sub", a, b, |x, y| x - y);
    t(curve, "fp_mul", a, b, |x, y| x * y);
    let (a, b) = (Fp2::<C, M>::random(&mut r), Fp2::<C, M>::random(&mut r));
    t(curve, "fp2_add", a, b, |x, y| x + y);
    t(curve, "fp2_mul", a, b, |x, y| x * y);
    t(curve, "fp2_sq", a, b, |x, _| x.square());
    t(curve, "fp2_xi", a, b, |x, _| x.mul_by_nonresidue());
    t(curve, "fp2wide_mul", a, b, |x, y| {
        let mut w = Fp2Wide::ZERO;
        Fp2Wide::mul_to(&mut w, &x, &y);
        w.reduce()
    });
    let (a, b) = (Fp6::<C, M>::random(&mut r), Fp6::<C, M>::random(&mut r));
    t(curve, "fp6_add", a, b, |x, y| x + y);
    t(curve, "fp6_mul", a, b, |x, y| x * y);
    t(curve, "fp6_sq", a, b, |x, _| x.square());
    let (a, b) = (Fp12::<C, M>::random(&mut r), Fp12::<C, M>::random(&mut r));
    t(curve, "fp12_mul", a, b, |x, y| x * y);
    t(curve, "fp12_sq", a, b, |x, _| x.square());
    let c = a.conjugate() * a.invert().unwrap();
    let g = c.frobenius_map(2) * c; // cyclotomic
    t(curve, "fp12_cyclotomic_sq", g, g, |x, _| x.cyclotomic_square());
}

fn main() {
    chains::<bls12_381::FpConfig, 6>("bls12_381");
    chains::<bn254::FpConfig, 4>("bn254");

    let mut r = rand::thread_rng();
    let (a, b) = (bls12_381::Fp::random(&mut r), bls12_381::Fp::random(&mut r));
    let p = bls12_381::Fp::PINV;
    let (al, bl) = (a.to_mont_limbs(), b.to_mont_limbs());
    let (mut w, mut w2) = (Wide::<6>::ZERO, Wide::<6>::ZERO);
    backend::mul_wide(&mut w2, &al, &bl);
    tp("bls12_381", "mul_wide_6", || backend::mul_wide(black_box(&mut w), black_box(&al), black_box(&bl)));
    tp("bls12_381", "redc_6", || {
        black_box(backend::redc(black_box(&w2), &p));
    });
    tp("bls12_381", "dbl_sub_6", || backend::dbl_sub(black_box(&mut w), black_box(&w2), black_box(&w2), &p));
    let (x, y) = (bls12_381::Fp2::random(&mut r), bls12_381::Fp2::random(&mut r));
    let mut ww = Fp2Wide::ZERO;
    tp("bls12_381", "fp2wide_mul_to", || Fp2Wide::mul_to(black_box(&mut ww), black_box(&x), black_box(&y)));
    let (u, v) = (bls12_381::Fp6::random(&mut r), bls12_381::Fp6::random(&mut r));
    let mut w6 = Fp6Wide::ZERO;
    tp("bls12_381", "fp6wide_mul_to", || Fp6Wide::mul_to(black_box(&mut w6), black_box(&u), black_box(&v)));
}

//! Latency chains of the tower operations on both curves, for `perf record` and for the
//! BENCHMARKS.md comparisons with gnark-crypto's Go figures:
//! `cargo run --release -p zkforge-field --example fp12prof [iterations]`.
use std::hint::black_box;
use zkforge_field::tower::{Fp12, Fp2, TowerConfig};
use zkforge_field::{bls12_381, bn254, Fp};

fn chain<T: Copy + PartialEq>(name: &str, curve: &str, n: usize, x0: T, f: impl Fn(T) -> T) {
    let mut x = x0;
    let s = std::time::Instant::now();
    for _ in 0..n {
        x = f(black_box(x));
    }
    println!("{curve:10} {name:24} {:8.1} ns {}", s.elapsed().as_nanos() as f64 / n as f64, (x == x0) as u8);
}

fn run<C: TowerConfig<N>, const N: usize>(curve: &str, n: usize) {
    let mut r = rand::thread_rng();
    let (x, y) = (Fp12::<C, N>::random(&mut r), Fp12::<C, N>::random(&mut r));
    chain("fp12_mul", curve, n, x, |a| a * y);
    let t = x.conjugate() * x.invert().unwrap();
    let g = t.frobenius_map(2) * t; // cyclotomic
    chain("fp12_cyclotomic_square", curve, n, g, |a| a.cyclotomic_square());
    let (a, b) = (Fp2::<C, N>::random(&mut r), Fp2::<C, N>::random(&mut r));
    chain("fp2_mul", curve, 20 * n, a, |v| v * b);
    chain("fp2_square", curve, 20 * n, a, |v| v.square());
    let (e, f) = (Fp::<C, N>::random(&mut r), Fp::<C, N>::random(&mut r));
    chain("fp_mul", curve, 20 * n, e, |v| v * f);
}

fn main() {
    let n: usize = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(200_000);
    run::<bls12_381::FpConfig, 6>("bls12_381", n);
    run::<bn254::FpConfig, 4>("bn254", n);
}

//! Latency and throughput of field squaring under each value of `backend::set_squaring`
//! (BLS12-381 Fp and Fr, BN254 Fp): a dependent chain of squarings, and eight independent
//! chains interleaved. The `Squaring::Auto` choice comes from this.
//!
//! `cargo run --release -p zkforge-field --example squaring`

use std::hint::black_box;
use std::time::Instant;

use zkforge_field::backend::{set_squaring, Squaring};
use zkforge_field::{bls12_381, bn254, FieldConfig, Fp};

fn time<C: FieldConfig<N>, const N: usize>(name: &str) {
    const K: usize = 2_000_000;
    for s in [Squaring::Multiply, Squaring::Dedicated] {
        set_squaring(s);
        let mut best = (f64::MAX, f64::MAX);
        for _ in 0..5 {
            let mut x = black_box(Fp::<C, N>::from_u64(7));
            let t = Instant::now();
            for _ in 0..K {
                x = x.square();
            }
            black_box(x);
            let lat = t.elapsed().as_secs_f64() * 1e9 / K as f64;
            let mut v: [Fp<C, N>; 8] = core::array::from_fn(|i| black_box(Fp::<C, N>::from_u64(i as u64 + 3)));
            let t = Instant::now();
            for _ in 0..K / 8 {
                for y in v.iter_mut() {
                    *y = y.square();
                }
            }
            black_box(v);
            let thr = t.elapsed().as_secs_f64() * 1e9 / K as f64;
            best = (best.0.min(lat), best.1.min(thr));
        }
        println!("{name:<16} {s:<10?} latency {:6.2} ns   throughput {:6.2} ns", best.0, best.1);
    }
    set_squaring(Squaring::Auto);
}

fn main() {
    time::<bls12_381::FpConfig, 6>("bls12_381 Fp");
    time::<bls12_381::FrConfig, 4>("bls12_381 Fr");
    time::<bn254::FpConfig, 4>("bn254 Fp");
}

//! Quick latency probe of the BLS12-381 tower products for A/B runs of two builds on a noisy
//! machine (run the two binaries alternately and compare the minima): fastest of 60 chunks of
//! 1000 chained operations each, for Fp2, Fp6 and Fp12 products and squarings.
//! `cargo run --release -p zkforge-field --example fp12probe`.
use std::hint::black_box;
use std::time::Instant;
use zkforge_field::bls12_381 as bls;

fn best<T: Copy>(name: &str, x0: T, y: T, f: impl Fn(&T, &T) -> T) {
    let mut x = x0;
    let mut best = f64::MAX;
    for _ in 0..60 {
        let yy = black_box(y);
        let mut z = black_box(x);
        let s = Instant::now();
        for _ in 0..1000 {
            z = f(&z, &yy);
        }
        best = best.min(s.elapsed().as_nanos() as f64 / 1000.0);
        x = black_box(z);
    }
    println!("{name:22} {best:9.1} ns");
}

fn main() {
    let mut s = 0x1234_5678_9abc_def0u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let (x2, y2) = (bls::Fp2::random_with(&mut next), bls::Fp2::random_with(&mut next));
    let (x6, y6) = (bls::Fp6::random_with(&mut next), bls::Fp6::random_with(&mut next));
    let (x12, y12) = (bls::Fp12::random_with(&mut next), bls::Fp12::random_with(&mut next));
    let g = {
        let t = x12.conjugate() * x12.invert().unwrap();
        t.frobenius_map(2) * t
    };
    best("fp2_mul", x2, y2, |a, b| *a * *b);
    best("fp2_sqr", x2, y2, |a, _| a.square());
    best("fp6_mul", x6, y6, |a, b| *a * *b);
    best("fp6_sqr", x6, y6, |a, _| a.square());
    best("fp12_mul", x12, y12, |a, b| *a * *b);
    best("fp12_sqr", x12, y12, |a, _| a.square());
    best("fp12_cyclotomic_sqr", g, g, |a, _| a.cyclotomic_square());
    best("cyclotomic_sqr_n(32)", g, g, |a, _| a.cyclotomic_square_n(32));
}


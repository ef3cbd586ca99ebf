//! Tower kernels against blst in one tight, interleaved loop: x <- f(x, y) chains of Fp2, Fp6
//! (ours only), Fp12 products and squarings, timed in alternating chunks (ours, blst, ours,
//! ...) so that frequency changes and neighbours on a shared machine hit both sides alike; the
//! fastest chunk per side is printed with the ratio ours / blst. Both sides are checked equal
//! first. A development probe for issue 19 (the table's figures come from `cargo zkbench`):
//! `cargo run --release -p zkforge-bench --example towerprobe --config
//! "target.x86_64-unknown-linux-gnu.rustflags=['-C', 'target-feature=+bmi2,+adx']"`.
use std::hint::black_box;
use std::time::Instant;

use rand::{rngs::StdRng, SeedableRng};
use zkforge_bench::field::{blst_fp12, blst_fp2};
use zkforge_field::bls12_381 as bls;

const CHUNK: u32 = 2_000;
const ROUNDS: usize = 40;

/// Fastest chunk (ns per operation) of a chain x <- f(x, y).
fn chunk<T: Copy>(x: &mut T, y: &T, f: &impl Fn(&T, &T) -> T) -> f64 {
    let y = black_box(*y);
    let mut z = black_box(*x);
    let s = Instant::now();
    for _ in 0..CHUNK {
        z = f(&z, &y);
    }
    *x = black_box(z);
    s.elapsed().as_nanos() as f64 / CHUNK as f64
}

fn pair<A: Copy, B: Copy>(name: &str, mut a: A, ya: A, fa: impl Fn(&A, &A) -> A, mut b: B, yb: B, fb: impl Fn(&B, &B) -> B) {
    let (mut ta, mut tb) = (f64::MAX, f64::MAX);
    for _ in 0..ROUNDS {
        ta = ta.min(chunk(&mut a, &ya, &fa));
        tb = tb.min(chunk(&mut b, &yb, &fb));
    }
    println!("{name:24} ours {ta:8.1} ns   blst {tb:8.1} ns   ratio {:.3}", ta / tb);
}

fn solo<A: Copy>(name: &str, mut a: A, ya: A, fa: impl Fn(&A, &A) -> A) {
    let mut ta = f64::MAX;
    for _ in 0..ROUNDS {
        ta = ta.min(chunk(&mut a, &ya, &fa));
    }
    println!("{name:24} ours {ta:8.1} ns");
}

fn main() {
    let mut rng = StdRng::seed_from_u64(7);
    let (x2, y2) = (bls::Fp2::random(&mut rng), bls::Fp2::random(&mut rng));
    let (x6, y6) = (bls::Fp6::random(&mut rng), bls::Fp6::random(&mut rng));
    let (x12, y12) = (bls::Fp12::random(&mut rng), bls::Fp12::random(&mut rng));
    // an element of the cyclotomic subgroup: x^((p^6 - 1)(p^2 + 1))
    let g = {
        let t = x12.conjugate() * x12.invert().unwrap();
        t.frobenius_map(2) * t
    };

    // both sides agree before timing
    let mut r2 = blst::blst_fp2::default();
    let mut r12 = blst::blst_fp12::default();
    // SAFETY: blst's C functions on valid, initialised values.
    unsafe { blst::blst_fp2_mul(&mut r2, &blst_fp2(&x2), &blst_fp2(&y2)) };
    assert!(r2 == blst_fp2(&(x2 * y2)), "fp2 mul differs from blst");
    // SAFETY: as above.
    unsafe { blst::blst_fp12_mul(&mut r12, &blst_fp12(&x12), &blst_fp12(&y12)) };
    assert!(r12 == blst_fp12(&(x12 * y12)), "fp12 mul differs from blst");
    // SAFETY: as above.
    unsafe { blst::blst_fp12_sqr(&mut r12, &blst_fp12(&x12)) };
    assert!(r12 == blst_fp12(&x12.square()), "fp12 square differs from blst");
    // SAFETY: as above.
    unsafe { blst::blst_fp12_cyclotomic_sqr(&mut r12, &blst_fp12(&g)) };
    assert!(r12 == blst_fp12(&g.cyclotomic_square()), "cyclotomic square differs from blst");

    pair(
        "fp2_mul",
        x2,
        y2,
        |a, b| *a * *b,
        blst_fp2(&x2),
        blst_fp2(&y2),
        |a, b| {
            let mut r = blst::blst_fp2::default();
            // SAFETY: as above.
            unsafe { blst::blst_fp2_mul(&mut r, a, b) };
            r
        },
    );
    pair(
        "fp2_sqr",
        x2,
        y2,
        |a, _| a.square(),
        blst_fp2(&x2),
        blst_fp2(&y2),
        |a, _| {
            let mut r = blst::blst_fp2::default();
            // SAFETY: as above.
            unsafe { blst::blst_fp2_sqr(&mut r, a) };
            r
        },
    );
    solo("fp6_mul", x6, y6, |a, b| *a * *b);
    solo("fp6_sqr", x6, y6, |a, _| a.square());
    pair(
        "fp12_mul",
        x12,
        y12,
        |a, b| *a * *b,
        blst_fp12(&x12),
        blst_fp12(&y12),
        |a, b| {
            let mut r = blst::blst_fp12::default();
            // SAFETY: as above.
            unsafe { blst::blst_fp12_mul(&mut r, a, b) };
            r
        },
    );
    pair(
        "fp12_sqr",
        x12,
        y12,
        |a, _| a.square(),
        blst_fp12(&x12),
        blst_fp12(&y12),
        |a, _| {
            let mut r = blst::blst_fp12::default();
            // SAFETY: as above.
            unsafe { blst::blst_fp12_sqr(&mut r, a) };
            r
        },
    );
    pair(
        "fp12_cyclotomic_sqr",
        g,
        g,
        |a, _| a.cyclotomic_square(),
        blst_fp12(&g),
        blst_fp12(&g),
        |a, _| {
            let mut r = blst::blst_fp12::default();
            // SAFETY: as above.
            unsafe { blst::blst_fp12_cyclotomic_sqr(&mut r, a) };
            r
        },
    );
}

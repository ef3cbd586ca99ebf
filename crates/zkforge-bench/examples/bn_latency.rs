//! Probe: latency of dependent BN254 Fp products, ours against halo2curves (asm), interleaved,
//! in a plain loop and in the bench harness's shape (a boxed closure). Both read the same here
//! (13.0-13.5 ns each on Zen 5), while the bench's `fp_mul bn254` row reads 1.5x: in the bench
//! binary LLVM copies the operand through the stack with 16-byte moves right after the product's
//! 8-byte stores, and the 16-byte loads cannot be forwarded from them (see BENCHMARKS.md).
//! `cargo run --release -p zkforge-bench --example bn_latency`
use std::time::Instant;
use ff::Field;
use rand::{rngs::StdRng, SeedableRng};
use zkforge_field::bn254::Fp;

#[inline(never)]
fn ours(mut x: Fp, y: Fp, n: usize) -> Fp {
    for _ in 0..n {
        x = x * y;
    }
    x
}

#[inline(never)]
fn theirs(mut x: halo2curves::bn256::Fq, y: halo2curves::bn256::Fq, n: usize) -> halo2curves::bn256::Fq {
    for _ in 0..n {
        x *= y;
    }
    x
}

/// The bench harness's shape (`field::chain2`): the loop inside a boxed closure over `f`.
fn boxed<T: Copy + 'static>(x0: T, y: T, f: impl Fn(&T, &T) -> T + 'static) -> Box<dyn FnMut(u64) -> f64> {
    let mut x = x0;
    Box::new(move |iters| {
        let y = std::hint::black_box(y);
        let mut z = std::hint::black_box(x);
        let start = Instant::now();
        for _ in 0..iters {
            z = f(&z, &y);
        }
        x = std::hint::black_box(z);
        start.elapsed().as_secs_f64() / iters as f64
    })
}

fn main() {
    let mut rng = StdRng::seed_from_u64(1);
    let (x, y) = (Fp::random(&mut rng), Fp::random(&mut rng));
    let (hx, hy) = (halo2curves::bn256::Fq::random(&mut rng), halo2curves::bn256::Fq::random(&mut rng));
    let n = 1_000_000;
    let mut best = [f64::MAX; 2];
    for _ in 0..10 {
        let t = Instant::now();
        std::hint::black_box(ours(std::hint::black_box(x), y, n));
        best[0] = best[0].min(t.elapsed().as_secs_f64() / n as f64);
        let t = Instant::now();
        std::hint::black_box(theirs(std::hint::black_box(hx), hy, n));
        best[1] = best[1].min(t.elapsed().as_secs_f64() / n as f64);
    }
    println!("latency ns: ours {:.2}, halo2curves {:.2}", best[0] * 1e9, best[1] * 1e9);
    let mut a = boxed(x, y, |a, b| *a * *b);
    let mut b = boxed(hx, hy, |a, b| *a * b);
    let mut best = [f64::MAX; 2];
    for _ in 0..10 {
        best[0] = best[0].min(a(n as u64));
        best[1] = best[1].min(b(n as u64));
    }
    println!("boxed-closure latency ns: ours {:.2}, halo2curves {:.2}", best[0] * 1e9, best[1] * 1e9);
}

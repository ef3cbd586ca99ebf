//! Probe: latency of dependent BN254 Fp products, ours against halo2curves (asm), interleaved.
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
}

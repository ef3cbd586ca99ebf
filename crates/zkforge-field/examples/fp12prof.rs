//! Profiling target: a long chain of BLS12-381 Fp12 multiplications (`perf record` it).
use std::hint::black_box;
use zkforge_field::bls12_381::Fp12;
fn main() {
    let mut r = rand::thread_rng();
    let (mut x, y) = (Fp12::random(&mut r), Fp12::random(&mut r));
    let n: usize = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(2_000_000);
    let s = std::time::Instant::now();
    for _ in 0..n { x = black_box(x) * y; }
    println!("fp12_mul {:.1} ns {}", s.elapsed().as_nanos() as f64 / n as f64, (x == y) as u8);
}

//! Profiling target: BN254 Fp12 multiplication and cyclotomic squaring chains.
use std::hint::black_box;
use zkforge_field::bn254::Fp12;
fn main() {
    let mut r = rand::thread_rng();
    let (mut x, y) = (Fp12::random(&mut r), Fp12::random(&mut r));
    let n: usize = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(1_000_000);
    let s = std::time::Instant::now();
    for _ in 0..n { x = black_box(x) * y; }
    println!("bn fp12_mul {:.1} ns {}", s.elapsed().as_nanos() as f64 / n as f64, (x == y) as u8);
    let s = std::time::Instant::now();
    for _ in 0..n { x = black_box(x).cyclotomic_square(); }
    let (mut a, b) = (zkforge_field::bn254::Fp2::random(&mut r), zkforge_field::bn254::Fp2::random(&mut r));
    let s = std::time::Instant::now();
    for _ in 0..5 * n { a = black_box(a) * b; }
    println!("bn fp2_mul {:.1} ns {}", s.elapsed().as_nanos() as f64 / (5 * n) as f64, (a == b) as u8);
    let s = std::time::Instant::now();
    for _ in 0..5 * n { a = black_box(a).square(); }
    println!("bn fp2_sq {:.1} ns {}", s.elapsed().as_nanos() as f64 / (5 * n) as f64, (a == b) as u8);
    let (mut e, f) = (zkforge_field::bn254::Fp::random(&mut r), zkforge_field::bn254::Fp::random(&mut r));
    let s = std::time::Instant::now();
    for _ in 0..5 * n { e = black_box(e) * f; }
    println!("bn fp_mul {:.1} ns {}", s.elapsed().as_nanos() as f64 / (5 * n) as f64, (e == f) as u8);
    println!("bn fp12_cyclotomic_square {:.1} ns {}", s.elapsed().as_nanos() as f64 / n as f64, (x == y) as u8);
}

//! Profiling target: BLS12-381 G2 doubling chain, and Fp2 op chains.
use std::hint::black_box;
use zkforge_curve::bls12_381::G2Projective;
use zkforge_field::bls12_381::{Fp, Fp2};
fn main() {
    let mut rng = rand::thread_rng();
    let mut p = G2Projective::generator() * zkforge_field::bls12_381::Fr::random(&mut rng);
    let n = 2_000_000;
    let t = std::time::Instant::now();
    for _ in 0..n {
        p = p.double();
    }
    println!("g2 dbl {:.1} ns {:?}", t.elapsed().as_nanos() as f64 / n as f64, black_box(p.z().c0.is_zero()));
    let mut a = black_box(Fp2::random(&mut rng));
    let b = black_box(Fp2::random(&mut rng));
    let t = std::time::Instant::now();
    for _ in 0..n { a = a.square(); }
    println!("fp2 sq {:.1} ns", t.elapsed().as_nanos() as f64 / n as f64);
    let t = std::time::Instant::now();
    for _ in 0..n { a = a * b; }
    println!("fp2 mul {:.1} ns", t.elapsed().as_nanos() as f64 / n as f64);
    let t = std::time::Instant::now();
    for _ in 0..n { a = a.double(); }
    println!("fp2 dbl {:.1} ns", t.elapsed().as_nanos() as f64 / n as f64);
    let t = std::time::Instant::now();
    for _ in 0..n { a = a - b; }
    println!("fp2 sub {:.1} ns", t.elapsed().as_nanos() as f64 / n as f64);
    let mut x = black_box(Fp::random(&mut rng));
    let t = std::time::Instant::now();
    for _ in 0..n { x = x.double(); }
    println!("fp dbl {:.1} ns {:?}", t.elapsed().as_nanos() as f64 / n as f64, black_box(x).is_zero());
    let t = std::time::Instant::now();
    for _ in 0..n { x = x.square(); }
    println!("fp sq {:.1} ns {:?}", t.elapsed().as_nanos() as f64 / n as f64, black_box(x).is_zero());
    println!("{:?} {:?} {:?}", black_box(a).is_zero(), zk_fp_double_probe(&x).is_zero(), zk_fp_invert_probe(&x).is_zero());
}
/// Disassembly probe: one Fp doubling.
#[inline(never)]
#[no_mangle]
pub fn zk_fp_double_probe(x: &Fp) -> Fp {
    x.double()
}
/// Disassembly probe: one Fp inversion.
#[inline(never)]
#[no_mangle]
pub fn zk_fp_invert_probe(x: &Fp) -> Fp {
    x.invert().unwrap_or(Fp::ZERO)
}

//! Disassembly target: a BN254 and a BLS12-381 multiplication chain.
use zkforge_field::{bls12_381, bn254};
/// n chained BN254 Fp multiplications.
#[inline(never)]
pub fn bn_chain(mut x: bn254::Fp, y: bn254::Fp, n: usize) -> bn254::Fp {
    for _ in 0..n {
        x = *std::hint::black_box(&x) * y;
    }
    x
}
/// n chained BLS12-381 Fp multiplications.
#[inline(never)]
pub fn bls_chain(mut x: bls12_381::Fp, y: bls12_381::Fp, n: usize) -> bls12_381::Fp {
    for _ in 0..n {
        x = x * y;
    }
    x
}
fn main() {
    let n: usize = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(10_000_000);
    let t = std::time::Instant::now();
    let r = bn_chain(bn254::Fp::from_u64(3), bn254::Fp::from_u64(5), n);
    println!("bn  {:.2} ns {:?}", t.elapsed().as_nanos() as f64 / n as f64, r.is_zero());
    let t = std::time::Instant::now();
    let r = bls_chain(bls12_381::Fp::from_u64(3), bls12_381::Fp::from_u64(5), n);
    println!("bls {:.2} ns {:?}", t.elapsed().as_nanos() as f64 / n as f64, r.is_zero());
}

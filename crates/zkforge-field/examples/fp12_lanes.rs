//! Fp12 arithmetic on IFMA lanes (`Fp12Lanes`) against the 64-bit tower, both towers, one
//! process: the square and the D-twist line product of the Miller loop, the Granger-Scott
//! squaring and product of the final exponentiation, and the round trip into and out of the
//! 52-bit form (`cargo run --release -p zkforge-field --example gt_lanes`;
//! needs AVX-512 IFMA).
use std::hint::black_box;
use zkforge_field::tower::{Fp12, Fp12Lanes, Fp2, LineScale, TowerConfig};
use zkforge_field::Fp;
use zkforge_field::{bls12_381, bn254};
fn run<C: TowerConfig<N>, const N: usize>(name: &str) {
    if !Fp12Lanes::<C, N>::available() {
        println!("{name}: no AVX-512 IFMA here");
        return;
    }
    let x = Fp12::<C, N>::random(&mut rand::thread_rng());
    let t = x.conjugate() * x.invert().unwrap();
    let x = t.frobenius_map(2) * t;
    let n = 20000;
    for _ in 0..3 {
        let mut g = Fp12Lanes::<C, N>::from_fp12(&x).unwrap();
        let h = g.clone();
        let s = std::time::Instant::now();
        for _ in 0..n { g.cyclotomic_square(); }
        let a = s.elapsed().as_nanos() as f64 / n as f64;
        let s = std::time::Instant::now();
        for _ in 0..n { g.mul_assign(&h); }
        let a2 = s.elapsed().as_nanos() as f64 / n as f64;
        let s = std::time::Instant::now();
        for _ in 0..n { g.square(); }
        let a3 = s.elapsed().as_nanos() as f64 / n as f64;
        let sc = LineScale::<C, N>::new(&Fp::from_u64(3), &Fp::from_u64(5)).unwrap();
        let (l0, lx, ly) = (Fp2::<C, N>::random(&mut rand::thread_rng()), Fp2::random(&mut rand::thread_rng()), Fp2::random(&mut rand::thread_rng()));
        let s = std::time::Instant::now();
        for _ in 0..n { g.mul_by_034(&l0, &lx, &ly, &sc); }
        let a4 = s.elapsed().as_nanos() as f64 / n as f64;
        black_box(g.to_fp12());
        let mut y = x;
        let s = std::time::Instant::now();
        for _ in 0..n { y = y.cyclotomic_square(); }
        let c = s.elapsed().as_nanos() as f64 / n as f64;
        black_box(y);
        let s = std::time::Instant::now();
        for _ in 0..n { y = y * x; }
        let d = s.elapsed().as_nanos() as f64 / n as f64;
        black_box(y);
        let s = std::time::Instant::now();
        for _ in 0..n { black_box(Fp12Lanes::<C, N>::from_fp12(black_box(&y)).unwrap().to_fp12()); }
        let e = s.elapsed().as_nanos() as f64 / n as f64;
        let s = std::time::Instant::now();
        for _ in 0..n { y = y.square(); }
        let f = s.elapsed().as_nanos() as f64 / n as f64;
        black_box(y);
        println!("{name}: lanes cyclo {a:.0} ns, mul {a2:.0}, square {a3:.0}, line {a4:.0}; scalar cyclo {c:.0}, mul {d:.0}, square {f:.0}; round trip {e:.0}");
    }
}
fn main() {
    run::<bls12_381::FpConfig, 6>("bls");
    run::<bn254::FpConfig, 4>("bn254");
}

//! Where Karabina's compressed squarings start to pay: k Granger-Scott squarings against k
//! compressed squarings and one decompression, BLS12-381 and BN254
//! (`cargo run --release -p zkforge-field --example karabina`).
use std::hint::black_box;
use zkforge_field::backend::{set_cyclotomic_squaring, CyclotomicSquaring};
use zkforge_field::tower::{Fp12, TowerConfig};
use zkforge_field::{bls12_381, bn254};

fn run<C: TowerConfig<N>, const N: usize>(name: &str) {
    let x = Fp12::<C, N>::random(&mut rand::thread_rng());
    let t = x.conjugate() * x.invert().unwrap();
    let g = t.frobenius_map(2) * t;
    for k in [4u32, 8, 10, 12, 14, 16, 24, 32] {
        let mut row = format!("{name} k={k:2}");
        for mode in [CyclotomicSquaring::GrangerScott, CyclotomicSquaring::Karabina, CyclotomicSquaring::KarabinaIfma] {
            set_cyclotomic_squaring(mode);
            let n = 2000;
            let mut best = f64::MAX;
            for _ in 0..5 {
                let s = std::time::Instant::now();
                for _ in 0..n {
                    black_box(black_box(g).cyclotomic_square_n(k));
                }
                best = best.min(s.elapsed().as_nanos() as f64 / n as f64);
            }
            row += &format!("  {mode:?} {best:9.0} ns");
        }
        println!("{row}");
    }
    set_cyclotomic_squaring(CyclotomicSquaring::Auto);
}

fn main() {
    run::<bls12_381::FpConfig, 6>("bls12_381");
    run::<bn254::FpConfig, 4>("bn254");
}

//! The constant-time select at the end of reduced additions and doublings by CMOV or by masks
//! (`backend::set_narrow_select`), measured in one process on what is built of them: a chain
//! of Fp additions, the Fp2 product, BLS12-381's and BN254's Fp12 products, squares and
//! cyclotomic squares in the scalar tower, BN254's product by xi (latency chains, fastest of 25
//! alternating chunks per form).
//! `cargo run --release -p zkforge-pairing --example select_probe`.
use std::hint::black_box;
use std::time::Instant;
use zkforge_field::backend::{set_narrow_select, NarrowSelect};
use zkforge_field::bls12_381::{Fp12, Fp2, Fp};
use zkforge_field::bn254::{Fp12 as BnFp12, Fp2 as BnFp2};
fn time(reps: u32, mut f: impl FnMut()) -> f64 { let s = Instant::now(); for _ in 0..reps { f(); } s.elapsed().as_nanos() as f64 / reps as f64 }
fn main() {
    let mut rng = rand::thread_rng();
    let (a, b) = (Fp2::random(&mut rng), Fp2::random(&mut rng));
    let (x, y) = (Fp::random(&mut rng), Fp::random(&mut rng));
    let (f, g) = (Fp12::random(&mut rng), Fp12::random(&mut rng));
    let c = f.conjugate() * f.invert().unwrap(); let c = c.frobenius_map(2) * c;
    let (bf, bg) = (BnFp12::random(&mut rng), BnFp12::random(&mut rng));
    let bc = bf.conjugate() * bf.invert().unwrap(); let bc = bc.frobenius_map(2) * bc;
    let ba = BnFp2::random(&mut rng);
    let names = ["fp add chain", "fp2 mul", "fp12 mul", "fp12 square", "cyclo square", "bn fp12 mul", "bn fp12 sq", "bn cyclo", "bn fp2*xi"];
    let mut best = [[f64::MAX; 9]; 2];
    for _ in 0..25 {
        for k in 0..2 {
            set_narrow_select(if k == 1 { NarrowSelect::Cmov } else { NarrowSelect::Masks });
            let mut z = black_box(x); best[k][0] = best[k][0].min(time(20000, || z = z + y)); black_box(z);
            let mut z = black_box(a); best[k][1] = best[k][1].min(time(20000, || z = z * b)); black_box(z);
            let mut z = black_box(f); best[k][2] = best[k][2].min(time(2000, || z = z * g)); black_box(z);
            let mut z = black_box(f); best[k][3] = best[k][3].min(time(2000, || z = z.square())); black_box(z);
            let mut z = black_box(c); best[k][4] = best[k][4].min(time(2000, || z = z.cyclotomic_square())); black_box(z);
            let mut z = black_box(bf); best[k][5] = best[k][5].min(time(2000, || z = z * bg)); black_box(z);
            let mut z = black_box(bf); best[k][6] = best[k][6].min(time(2000, || z = z.square())); black_box(z);
            let mut z = black_box(bc); best[k][7] = best[k][7].min(time(2000, || z = z.cyclotomic_square())); black_box(z);
            let mut z = black_box(ba); best[k][8] = best[k][8].min(time(20000, || z = z.mul_by_nonresidue())); black_box(z);
        }
    }
    for (i, n) in names.iter().enumerate() { println!("{n:16} masks {:9.1} cmov {:9.1}  {:.3}", best[0][i], best[1][i], best[1][i] / best[0][i]); }
}

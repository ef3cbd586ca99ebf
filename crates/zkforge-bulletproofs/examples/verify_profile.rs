//! Where a 64-bit Ristretto verification spends its time: the equation's scalars (transcript,
//! challenges, 2N generator scalars) against the multi-scalar multiplication.
//! `cargo run --release -p zkforge-bulletproofs --example verify_profile`
use merlin::Transcript;
use std::time::Instant;
use zkforge_bulletproofs::{BpGroup, BulletproofGens, PedersenGens, RangeProof, Ristretto255, GeneratorTables};

fn main() {
    let bp = BulletproofGens::<Ristretto255>::new(64, 1);
    let pc = PedersenGens::default();
    let t = GeneratorTables::new(&bp, &pc, 64, 1).unwrap();
    let b = Ristretto255::scalar_from_u64(77);
    let (p, c) = RangeProof::prove_single(&bp, &pc, &mut Transcript::new(b"p"), 5, &b, 64).unwrap();
    let cs = [c];
    let iters = 2000;
    let s = Instant::now();
    for _ in 0..iters {
        p.verify_with_tables(&bp, &pc, &t, &mut Transcript::new(b"p"), &cs, 64).unwrap();
    }
    let total = s.elapsed().as_secs_f64() / iters as f64;
    let s = Instant::now();
    for _ in 0..iters {
        std::hint::black_box(p.equation_only(&mut Transcript::new(b"p"), &cs, 64).unwrap());
    }
    let eq = s.elapsed().as_secs_f64() / iters as f64;
    let xs: Vec<[u8; 32]> = (0..147u64).map(|i| Ristretto255::scalar_to_bytes(&Ristretto255::scalar_from_u64(i * 0x9e3779b97f4a7c15 + 1).square())).collect();
    let s = Instant::now();
    for _ in 0..iters {
        for x in &xs {
            std::hint::black_box(curve25519_dalek::Scalar::from_bytes_mod_order(*std::hint::black_box(x)));
        }
    }
    println!("147 conversions to dalek scalars: {:.1} us", s.elapsed().as_secs_f64() / iters as f64 * 1e6);
    println!("verify {:.1} us, equation scalars {:.1} us, MSM {:.1} us", total * 1e6, eq * 1e6, (total - eq) * 1e6);
}

#[allow(dead_code)]
fn conversion_cost() {}

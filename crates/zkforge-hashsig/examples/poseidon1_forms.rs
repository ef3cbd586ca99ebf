//! The one-state Poseidon1 of widths 16 and 24 (leanSig devnet 4's chain step, and its sponge
//! leaves and tree nodes) in the textbook rounds, in AVX2 registers and in AVX-512 registers
//! (`poseidon1::set_registers`; each where the CPU has it), as latency chains, alternated in
//! one process: per form the fastest of 15 rounds of 10 chunks of 500.
//! `cargo run --release -p zkforge-hashsig --example poseidon1_forms`.
use std::hint::black_box;
use std::time::Instant;

use zkforge_hashsig::koalabear::Kb;
use zkforge_hashsig::poseidon1::{set_registers, Poseidon1, Registers};

fn run<const W: usize>(p: &Poseidon1<W>) {
    let forms = [Registers::Portable, Registers::Avx2, Registers::Avx512];
    let mut best = [f64::MAX; 3];
    let mut outs = [[Kb::ZERO; W]; 3];
    for _ in 0..15 {
        for (i, on) in forms.into_iter().enumerate() {
            set_registers(on);
            let mut s: [Kb; W] = core::array::from_fn(|j| Kb::new(j as u32 * 7919 + 1));
            for _ in 0..10 {
                let t = Instant::now();
                for _ in 0..500 {
                    p.permute_mut(black_box(&mut s));
                }
                best[i] = best[i].min(t.elapsed().as_nanos() as f64 / 500.0);
            }
            outs[i] = s;
        }
    }
    assert!(outs.iter().all(|o| *o == outs[0]), "forms disagree");
    set_registers(Registers::Auto);
    println!(
        "Poseidon1 width {W}, ns per permutation: textbook {:.1}, AVX2 registers {:.1} ({:.3}), AVX-512 registers {:.1} ({:.3})",
        best[0],
        best[1],
        best[1] / best[0],
        best[2],
        best[2] / best[0]
    );
}

fn main() {
    for _ in 0..2 {
        run(&Poseidon1::new_16());
        run(&Poseidon1::new_24());
    }
}

//! The one-state Poseidon2 permutation (`Poseidon2::permute_mut`, widths 16 and 24) under each
//! `poseidon2::ScalarForm` (portable rounds: fused internal rounds, lazy S-box square, both,
//! neither; the state in AVX2 or AVX-512 registers, where the CPU has them), as a
//! latency chain (each output permuted again, as the bench's `poseidon2_16` row and a hash
//! chain run it), the forms alternated in one process: per form the fastest of 15 rounds of
//! 20 chunks of 2000 permutations.
//! `cargo run --release -p zkforge-hashsig --example scalar_forms`.
use std::hint::black_box;
use std::time::Instant;

use zkforge_hashsig::koalabear::Kb;
use zkforge_hashsig::poseidon2::{set_scalar_form, Poseidon2, Registers, ScalarForm};

fn chunk<const W: usize>(p: &Poseidon2<W>, s: &mut [Kb; W]) -> f64 {
    let t = Instant::now();
    for _ in 0..2000 {
        p.permute_mut(black_box(s));
    }
    t.elapsed().as_nanos() as f64 / 2000.0
}

fn run<const W: usize>(p: &Poseidon2<W>) {
    let forms = [
        ("reference", ScalarForm::REFERENCE),
        ("lazy cube", ScalarForm { fused_internal: false, lazy_cube: true, registers: Registers::Portable }),
        ("fused", ScalarForm { fused_internal: true, lazy_cube: false, registers: Registers::Portable }),
        ("both", ScalarForm { fused_internal: true, lazy_cube: true, registers: Registers::Portable }),
        ("AVX2 regs", ScalarForm { fused_internal: false, lazy_cube: true, registers: Registers::Avx2 }),
        ("AVX-512 regs", ScalarForm { fused_internal: false, lazy_cube: true, registers: Registers::Avx512 }),
    ];
    let mut best = [f64::MAX; 6];
    let mut outs = [[Kb::ZERO; W]; 6];
    for _ in 0..15 {
        for (i, (_, f)) in forms.iter().enumerate() {
            set_scalar_form(*f);
            let mut s: [Kb; W] = core::array::from_fn(|j| Kb::new(j as u32 * 7919 + 1));
            for _ in 0..20 {
                best[i] = best[i].min(chunk(p, &mut s));
            }
            outs[i] = s;
        }
    }
    assert!(outs.iter().all(|o| *o == outs[0]), "forms disagree");
    set_scalar_form(ScalarForm::DEFAULT);
    print!("width {W:2}:");
    for (i, (name, _)) in forms.iter().enumerate() {
        print!("  {name} {:.1} ({:.3})", best[i], best[i] / best[0]);
    }
    println!();
}

fn main() {
    for _ in 0..2 {
        run(&Poseidon2::new_16());
        run(&Poseidon2::new_24());
    }
}

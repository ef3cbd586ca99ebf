//! Poseidon1 of widths 16 and 24 (leanSig devnet 4's chain step, and its sponge leaves and
//! tree nodes) in every form, alternated in one process, per form the fastest of 15 rounds:
//! - one state after another (a latency chain, as chain steps run in signing): the textbook
//!   rounds, the scalar sparse partial rounds (`permute_mut_sparse`), both also with width
//!   24's MDS product as a convolution (`Form::circulant_ntt`), the latter also with the
//!   partial rounds deferred (`Form::deferred_partial`: `permute_mut_deferred`), and one state
//!   in AVX2 and AVX-512 registers (`set_registers`), the latter also with sparse partial
//!   rounds (`Form::sparse_partial`, width 24 only), and both with them deferred (both
//!   widths);
//! - 256 independent states through `permute_many` (throughput, as key generation runs):
//!   packed batches of eight (AVX2) and sixteen (AVX-512), with dense and sparse partial rounds,
//!   and the latter with the IFMA matrix product (`Form::ifma_mds`), and with width 24's MDS
//!   product as a convolution (`Form::circulant_ntt`, with IFMA as the default has it).
//!
//! Forms the CPU lacks fall back (and read like the scalar ones). The ratio is to the
//! textbook rounds.
//! `cargo run --release -p zkforge-hashsig --example poseidon1_forms`.
use std::hint::black_box;
use std::time::Instant;

use zkforge_hashsig::koalabear::Kb;
use zkforge_hashsig::poseidon1::{set_form, set_registers, Form, Poseidon1, Registers};

const DENSE: Form = Form { sparse_partial: false, packed: true, ifma_mds: false, circulant_ntt: false, mds16_crt: false, deferred_partial: false };
const SPARSE: Form = Form { sparse_partial: true, packed: true, ifma_mds: false, circulant_ntt: false, mds16_crt: false, deferred_partial: false };
const SPARSE_IFMA: Form = Form { sparse_partial: true, packed: true, ifma_mds: true, circulant_ntt: false, mds16_crt: false, deferred_partial: false };
const SPARSE_NTT: Form = Form { sparse_partial: true, packed: true, ifma_mds: false, circulant_ntt: true, mds16_crt: false, deferred_partial: false };
const SPARSE_NTT_CRT: Form = Form { mds16_crt: true, ..SPARSE_NTT };
const SPARSE_NTT_IFMA: Form = Form { ifma_mds: true, ..SPARSE_NTT };
const SPARSE_DEFERRED: Form = Form { deferred_partial: true, ..SPARSE };
const DEFERRED_NTT_CRT: Form = Form { deferred_partial: true, ..SPARSE_NTT_CRT };

/// How a row calls the permutation.
#[derive(Clone, Copy, PartialEq)]
enum Call {
    /// `permute_mut`, one state after another.
    One,
    /// `permute_mut_sparse`, one state after another.
    OneSparse,
    /// `permute_mut_deferred`, one state after another.
    OneDeferred,
    /// `permute_many` on 256 states.
    Many,
}

fn run<const W: usize>(p: &Poseidon1<W>) {
    const DENSE_NTT: Form = Form { circulant_ntt: true, mds16_crt: true, ..DENSE };
    let forms: [(&str, Registers, Form, Call); 21] = [
        ("textbook", Registers::Portable, DENSE, Call::One),
        ("scalar sparse", Registers::Portable, SPARSE, Call::OneSparse),
        ("textbook, conv./CRT", Registers::Portable, DENSE_NTT, Call::One),
        ("scalar sparse, conv./CRT", Registers::Portable, SPARSE_NTT_CRT, Call::OneSparse),
        ("... deferred", Registers::Portable, DEFERRED_NTT_CRT, Call::OneDeferred),
        ("AVX2 registers", Registers::Avx2, SPARSE, Call::One),
        ("... sparse, deferred", Registers::Avx2, SPARSE_DEFERRED, Call::One),
        ("AVX-512 registers", Registers::Avx512, DENSE, Call::One),
        ("... sparse (w24)", Registers::Avx512, SPARSE, Call::One),
        ("... sparse, deferred", Registers::Avx512, SPARSE_DEFERRED, Call::One),
        ("packed x8 dense", Registers::Avx2, DENSE, Call::Many),
        ("packed x8 sparse", Registers::Avx2, SPARSE, Call::Many),
        ("packed x16 dense", Registers::Avx512, DENSE, Call::Many),
        ("packed x16 sparse", Registers::Avx512, SPARSE, Call::Many),
        ("... + IFMA matrix", Registers::Avx512, SPARSE_IFMA, Call::Many),
        ("x8 sparse, conv.", Registers::Avx2, SPARSE_NTT, Call::Many),
        ("x16 sparse, conv.", Registers::Avx512, SPARSE_NTT, Call::Many),
        ("... + IFMA", Registers::Avx512, SPARSE_NTT_IFMA, Call::Many),
        ("x8 ..., w16 CRT", Registers::Avx2, SPARSE_NTT_CRT, Call::Many),
        ("x16 ..., w16 CRT", Registers::Avx512, SPARSE_NTT_CRT, Call::Many),
        ("default (+ IFMA)", Registers::Avx512, Form::DEFAULT, Call::Many),
    ];
    let mut best = [f64::MAX; 21];
    let start: [Kb; W] = core::array::from_fn(|j| Kb::new(j as u32 * 7919 + 1));
    let mut outs = [None; 21];
    let mut many_outs = vec![None; 21];
    for _ in 0..15 {
        for (i, (_, regs, form, call)) in forms.iter().enumerate() {
            set_registers(*regs);
            set_form(*form);
            if *call == Call::Many {
                let mut states: Vec<[Kb; W]> = (0..256u32).map(|k| core::array::from_fn(|j| Kb::new(k * 31 + j as u32))).collect();
                for _ in 0..4 {
                    let t = Instant::now();
                    p.permute_many(black_box(&mut states));
                    best[i] = best[i].min(t.elapsed().as_nanos() as f64 / 256.0);
                }
                many_outs[i] = Some(states);
            } else {
                let mut s = start;
                for _ in 0..10 {
                    let t = Instant::now();
                    for _ in 0..200 {
                        if *call == Call::OneSparse {
                            p.permute_mut_sparse(black_box(&mut s));
                        } else if *call == Call::OneDeferred {
                            p.permute_mut_deferred(black_box(&mut s));
                        } else {
                            p.permute_mut(black_box(&mut s));
                        }
                    }
                    best[i] = best[i].min(t.elapsed().as_nanos() as f64 / 200.0);
                }
                outs[i] = Some(s);
            }
        }
    }
    let one: Vec<_> = outs.iter().flatten().collect();
    assert!(one.iter().all(|o| *o == one[0]), "one-state forms disagree");
    let many: Vec<_> = many_outs.iter().flatten().collect();
    assert!(many.iter().all(|o| *o == many[0]), "packed forms disagree");
    set_registers(Registers::Auto);
    set_form(Form::DEFAULT);
    println!("Poseidon1 width {W}, ns per permutation (ratio to textbook):");
    for (i, (name, ..)) in forms.iter().enumerate() {
        println!("  {name:>24}: {:8.1} ({:.3})", best[i], best[i] / best[0]);
    }
}

fn main() {
    for _ in 0..2 {
        run(&Poseidon1::new_16());
        run(&Poseidon1::new_24());
    }
}

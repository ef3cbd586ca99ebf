//! Hash-signature cases: the scalar Poseidon2 KoalaBear permutation (widths 16 and 24) against
//! Plonky3's `default_koalabear_poseidon2_{16,24}` on the same state, as a latency chain
//! (state <- perm(state)), and 8 or 16 states at once (our AVX2 / AVX-512 paths; Plonky3's
//! default x86-64 build has no packing, so its rows are scalar calls). The reference's native-build figures (0.80 / 1.09 us) are quoted
//! in BENCHMARKS.md.

use std::hint::black_box;

use p3_symmetric::Permutation;
use zkforge_hashsig::{koalabear::Kb, poseidon2::Poseidon2};

use crate::{Case, Runner};

fn chain<S: Copy + 'static>(mut s: S, f: impl Fn(&mut S) + 'static) -> Runner {
    Box::new(move |iters| {
        let t = std::time::Instant::now();
        for _ in 0..iters {
            f(&mut s);
        }
        black_box(&s);
        t.elapsed()
    })
}

/// Every hashsig case.
pub fn cases() -> Vec<Case> {
    let o16 = Poseidon2::new_16();
    let o24 = Poseidon2::new_24();
    let p16 = p3_koala_bear::default_koalabear_poseidon2_16();
    let p24 = p3_koala_bear::default_koalabear_poseidon2_24();
    let s16: [Kb; 16] = core::array::from_fn(|i| Kb::new(i as u32 * 7919 + 1));
    let s24: [Kb; 24] = core::array::from_fn(|i| Kb::new(i as u32 * 7919 + 1));
    let q16: [p3_koala_bear::KoalaBear; 16] = core::array::from_fn(|i| p3_koala_bear::KoalaBear::new(i as u32 * 7919 + 1));
    let q24: [p3_koala_bear::KoalaBear; 24] = core::array::from_fn(|i| p3_koala_bear::KoalaBear::new(i as u32 * 7919 + 1));
    let o16x = Poseidon2::new_16();
    let p16x = p3_koala_bear::default_koalabear_poseidon2_16();
    let s16x: [[Kb; 16]; 8] = core::array::from_fn(|k| core::array::from_fn(|i| Kb::new((k * 16 + i) as u32 * 7919 + 1)));
    let q16x: [[p3_koala_bear::KoalaBear; 16]; 8] = core::array::from_fn(|k| core::array::from_fn(|i| p3_koala_bear::KoalaBear::new((k * 16 + i) as u32 * 7919 + 1)));
    let o16y = Poseidon2::new_16();
    let p16y = p3_koala_bear::default_koalabear_poseidon2_16();
    let s16y: [[Kb; 16]; 16] = core::array::from_fn(|k| core::array::from_fn(|i| Kb::new((k * 16 + i) as u32 * 7919 + 1)));
    let q16y: [[p3_koala_bear::KoalaBear; 16]; 16] = core::array::from_fn(|k| core::array::from_fn(|i| p3_koala_bear::KoalaBear::new((k * 16 + i) as u32 * 7919 + 1)));
    let o24y = Poseidon2::new_24();
    let p24y = p3_koala_bear::default_koalabear_poseidon2_24();
    let s24y: [[Kb; 24]; 16] = core::array::from_fn(|k| core::array::from_fn(|i| Kb::new((k * 24 + i) as u32 * 7919 + 1)));
    let q24y: [[p3_koala_bear::KoalaBear; 24]; 16] = core::array::from_fn(|k| core::array::from_fn(|i| p3_koala_bear::KoalaBear::new((k * 24 + i) as u32 * 7919 + 1)));
    vec![
        Case {
            group: "hashsig",
            op: "poseidon2_16_x16",
            curve: "koalabear",
            size: 16,
            threads: 1,
            ours: chain(s16y, move |s| o16y.permute_x16(s)),
            peers: vec![(
                "plonky3",
                chain(q16y, move |s| {
                    for x in s.iter_mut() {
                        p16y.permute_mut(x);
                    }
                }),
            )],
        },
        Case {
            group: "hashsig",
            op: "poseidon2_24_x16",
            curve: "koalabear",
            size: 16,
            threads: 1,
            ours: chain(s24y, move |s| o24y.permute_x16(s)),
            peers: vec![(
                "plonky3",
                chain(q24y, move |s| {
                    for x in s.iter_mut() {
                        p24y.permute_mut(x);
                    }
                }),
            )],
        },
        Case {
            group: "hashsig",
            op: "poseidon2_16_x8",
            curve: "koalabear",
            size: 8,
            threads: 1,
            ours: chain(s16x, move |s| o16x.permute_x8(s)),
            peers: vec![(
                "plonky3",
                chain(q16x, move |s| {
                    for x in s.iter_mut() {
                        p16x.permute_mut(x);
                    }
                }),
            )],
        },
        Case {
            group: "hashsig",
            op: "poseidon2_16",
            curve: "koalabear",
            size: 1,
            threads: 1,
            ours: chain(s16, move |s| o16.permute_mut(s)),
            peers: vec![("plonky3", chain(q16, move |s| p16.permute_mut(s)))],
        },
        Case {
            group: "hashsig",
            op: "poseidon2_24",
            curve: "koalabear",
            size: 1,
            threads: 1,
            ours: chain(s24, move |s| o24.permute_mut(s)),
            peers: vec![("plonky3", chain(q24, move |s| p24.permute_mut(s)))],
        },
    ]
}

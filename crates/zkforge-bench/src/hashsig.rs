//! Hash-signature cases: the scalar Poseidon2 KoalaBear permutation (widths 16 and 24) against
//! Plonky3's `default_koalabear_poseidon2_{16,24}` on the same state, as a latency chain
//! (state <- perm(state)), and 8 or 16 states at once (our AVX2 / AVX-512 paths; Plonky3's
//! default x86-64 build has no packing, so its rows are scalar calls). The reference's
//! native-build figures (0.80 / 1.09 us) are quoted in BENCHMARKS.md.

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

/// Key generation, signing and verification of the top-level 2^8 instantiation (dimension 64,
/// base 8). hash-sig and leanSig are not on crates.io, so these rows have no peer; their
/// figures are quoted in BENCHMARKS.md.
fn scheme_cases() -> Vec<Case> {
    use rand_chacha::rand_core::SeedableRng;
    use zkforge_hashsig::hypercube::Layers;
    use zkforge_hashsig::keygen::key_gen;
    use zkforge_hashsig::scheme::instance_by_name;
    use zkforge_hashsig::tweak_hash::Perms;
    let scheme = instance_by_name("poseidon2_toplevel_lifetime8_dim64_base8").expect("known scheme");
    let perms = std::sync::Arc::new(Perms::default());
    let layers = std::sync::Arc::new(Layers::new(8, 64));
    let key = std::sync::Arc::new(key_gen::<5, 2, 8, 9>(&perms, &scheme.shape, &mut rand_chacha::ChaCha20Rng::from_seed([0x42; 32]), 0, 256));
    let sigs: Vec<_> = (0..16u32).map(|e| scheme.sign::<5, 2, 8, 9, 7>(&perms, &layers, &key, e * 2, &[e as u8; 32]).expect("sign")).collect();
    let mk = |op: &'static str, ours: crate::Runner| Case { group: "hashsig", op, curve: "koalabear", size: 1, threads: 1, ours, peers: vec![] };
    let (p1, s1) = (perms.clone(), scheme);
    let keygen = Box::new(move |iters: u64| {
        let t = std::time::Instant::now();
        for i in 0..iters {
            black_box(key_gen::<5, 2, 8, 9>(&p1, &s1.shape, &mut rand_chacha::ChaCha20Rng::from_seed([i as u8; 32]), 0, 256));
        }
        t.elapsed()
    });
    let (p2, l2, k2) = (perms.clone(), layers.clone(), key.clone());
    let sign = Box::new(move |iters: u64| {
        let t = std::time::Instant::now();
        for i in 0..iters {
            // epochs of the prepared interval (the first two bottom trees), as a key store keeps it
            let e = (i % 32) as u32;
            black_box(scheme.sign::<5, 2, 8, 9, 7>(&p2, &l2, &k2, e, &[i as u8; 32]).expect("sign"));
        }
        t.elapsed()
    });
    let (p3, l3, k3) = (perms, layers, key);
    let verify = Box::new(move |iters: u64| {
        let t = std::time::Instant::now();
        for i in 0..iters {
            let e = (i % 16) as u32;
            black_box(scheme.verify::<5, 2, 8, 9, 7>(&p3, &l3, &k3.root, &k3.parameter, e * 2, &[e as u8; 32], &sigs[e as usize]));
        }
        t.elapsed()
    });
    vec![mk("keygen_l8_256", keygen), mk("sign_l8", sign), mk("verify_l8", verify)]
}

/// L states of width W permuted per call: ours through `ours` (scalar for L = 1, packed
/// otherwise), Plonky3 with one scalar call per state, on the same starting states.
fn perm_case<const W: usize, const L: usize>(
    op: &'static str,
    ours: impl Fn(&mut [[Kb; W]; L]) + 'static,
    peer: impl Permutation<[p3_koala_bear::KoalaBear; W]> + 'static,
) -> Case {
    let value = |k: usize, i: usize| (k * W + i) as u32 * 7919 + 1;
    let s: [[Kb; W]; L] = core::array::from_fn(|k| core::array::from_fn(|i| Kb::new(value(k, i))));
    let q: [[p3_koala_bear::KoalaBear; W]; L] = core::array::from_fn(|k| core::array::from_fn(|i| p3_koala_bear::KoalaBear::new(value(k, i))));
    Case {
        group: "hashsig",
        op,
        curve: "koalabear",
        size: L,
        threads: 1,
        ours: chain(s, ours),
        peers: vec![(
            "plonky3",
            chain(q, move |q| {
                for x in q.iter_mut() {
                    peer.permute_mut(x);
                }
            }),
        )],
    }
}

/// Every hashsig case.
pub fn cases() -> Vec<Case> {
    use p3_koala_bear::{default_koalabear_poseidon2_16 as p16, default_koalabear_poseidon2_24 as p24};
    let mut out = scheme_cases();
    let (o16, o24) = (Poseidon2::new_16(), Poseidon2::new_24());
    let (a16, a24, b16) = (o16.clone(), o24.clone(), o16.clone());
    out.push(perm_case::<16, 16>("poseidon2_16_x16", move |s| a16.permute_x16(s), p16()));
    out.push(perm_case::<24, 16>("poseidon2_24_x16", move |s| a24.permute_x16(s), p24()));
    out.push(perm_case::<16, 8>("poseidon2_16_x8", move |s| b16.permute_x8(s), p16()));
    out.push(perm_case::<16, 1>("poseidon2_16", move |s| o16.permute_mut(&mut s[0]), p16()));
    out.push(perm_case::<24, 1>("poseidon2_24", move |s| o24.permute_mut(&mut s[0]), p24()));
    out
}

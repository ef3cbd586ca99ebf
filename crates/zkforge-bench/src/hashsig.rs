//! Hash-signature cases: the scalar Poseidon2 KoalaBear permutation (widths 16 and 24) against
//! Plonky3's `default_koalabear_poseidon2_{16,24}` on the same state, as a latency chain
//! (state <- perm(state)), and 8 or 16 states at once (our AVX2 / AVX-512 paths). Plonky3's
//! default x86-64 build has no packing, so in a default build its rows are scalar calls,
//! labelled `plonky3-scalar`: those rows compare our SIMD code with scalar code and are not a
//! head-to-head. The head-to-head is packed against packed (`*_packed_peer` rows, peer
//! `plonky3-avx2` / `plonky3-avx512`), which appear when the bench crate is built with the
//! target features, as `scripts/bench_plonky3_native.sh` does. The reference's native-build
//! figures (0.80 / 1.09 us) are quoted in BENCHMARKS.md. Every row first checks that both sides
//! give the same states.

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

/// Key generation (`epochs` active epochs, on `threads` threads), signing and verification
/// of the Poseidon2 instantiation `name`. hash-sig and leanSig are not on crates.io, so these
/// rows have no peer; their figures are quoted in BENCHMARKS.md.
fn scheme_rows<const H: usize, const R: usize>(name: &str, label: &'static str, epochs: u64, threads: usize) -> Vec<Case> {
    use rand_chacha::rand_core::SeedableRng;
    use std::sync::Arc;
    use zkforge_hashsig::keygen::key_gen;
    use zkforge_hashsig::scheme::instance_by_name;
    use zkforge_hashsig::tweak_hash::Perms;
    let scheme = instance_by_name(name).expect("known scheme");
    let perms = Arc::new(Perms::default());
    let layers = Arc::new(scheme.layers());
    let key = Arc::new(key_gen::<5, 2, H, 9>(&perms, &scheme.shape, &mut rand_chacha::ChaCha20Rng::from_seed([0x42; 32]), 0, epochs).expect("activation within the lifetime"));
    let op = |what: &str| -> &'static str { Box::leak(format!("{what}_{label}").into_boxed_str()) };
    let mk = |op: &'static str, threads: usize, ours: crate::Runner| Case { group: "hashsig", op, curve: "koalabear", size: epochs as usize, threads, ours, peers: vec![], check: None };
    let pool = Arc::new(rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool"));
    let p1 = perms.clone();
    let keygen = Box::new(move |iters: u64| {
        let t = std::time::Instant::now();
        for i in 0..iters {
            black_box(pool.install(|| key_gen::<5, 2, H, 9>(&p1, &scheme.shape, &mut rand_chacha::ChaCha20Rng::from_seed([i as u8; 32]), 0, epochs).expect("activation within the lifetime")));
        }
        t.elapsed()
    });
    let (p2, l2, k2) = (perms.clone(), layers.clone(), key.clone());
    let (sign, verify) = sign_verify_runners(
        move |e, m| scheme.sign::<5, 2, H, 9, R>(&p2, &l2, &k2, e, m).expect("sign"),
        move |e, m, sig| scheme.verify::<5, 2, H, 9, R>(&perms, &layers, &key.root, &key.parameter, e, m, sig),
    );
    vec![mk(op("keygen"), threads, keygen), mk(op("sign"), 1, sign), mk(op("verify"), 1, verify)]
}

/// Signing and verification runners over one key: signing cycles through epochs 0..32 (the
/// prepared interval, as a key store keeps it) and messages; verification checks sixteen
/// signatures made up front (epochs 0, 2, .., 30).
fn sign_verify_runners<S: 'static>(sign: impl Fn(u32, &[u8; 32]) -> S + 'static, verify: impl Fn(u32, &[u8; 32], &S) -> bool + 'static) -> (Runner, Runner) {
    let sigs: Vec<S> = (0..16u32).map(|e| sign(e * 2, &[e as u8; 32])).collect();
    let sign = Box::new(move |iters: u64| {
        let t = std::time::Instant::now();
        for i in 0..iters {
            black_box(sign((i % 32) as u32, &[i as u8; 32]));
        }
        t.elapsed()
    });
    let verify = Box::new(move |iters: u64| {
        let t = std::time::Instant::now();
        for i in 0..iters {
            let e = (i % 16) as u32;
            black_box(verify(e * 2, &[e as u8; 32], &sigs[e as usize]));
        }
        t.elapsed()
    });
    (sign, verify)
}

/// Signing and verification of hash-sig's SHA3 Winternitz 2^18 w = 8 (1024 epochs).
fn sha3_rows() -> Vec<Case> {
    use rand_chacha::rand_core::SeedableRng;
    use std::sync::Arc;
    use zkforge_hashsig::sha3_xmss::sha3_instance_by_name;
    let inst = sha3_instance_by_name("sha3_winternitz_lifetime18_w8").expect("known");
    let key = Arc::new(inst.key_gen(&mut rand_chacha::ChaCha20Rng::from_seed([0x42; 32]), 0, 1024).expect("activation within the lifetime"));
    let inst = Arc::new(inst);
    let (i2, k2) = (inst.clone(), key.clone());
    let (sign, verify) = sign_verify_runners(move |e, m| i2.sign(&k2, e, m).expect("sign"), move |e, m, sig| inst.verify(&key.root, &key.parameter, e, m, sig));
    let mk = |op: &'static str, ours: crate::Runner| Case { group: "hashsig", op, curve: "sha3", size: 1024, threads: 1, ours, peers: vec![], check: None };
    vec![mk("sign_sha3_w8_l18", sign), mk("verify_sha3_w8_l18", verify)]
}

/// leanSig devnet 4 (Poseidon1, aborting target sum), its 2^8 test instance: key generation
/// (all 256 epochs, one thread), signing and verification. leanSig is not on crates.io, so
/// these rows have no peer; the 2^32 key generation's figure is in BENCHMARKS.md.
fn devnet4_rows() -> Vec<Case> {
    use rand_chacha::rand_core::SeedableRng;
    use std::sync::Arc;
    use zkforge_hashsig::devnet4::Devnet4;
    let inst = Arc::new(Devnet4::by_name("leansig_head_aborting_lifetime8_dim46_base8").expect("known"));
    let key = Arc::new(inst.key_gen(&mut rand_chacha::ChaCha20Rng::from_seed([0x42; 32]), 0, 256).expect("activation within the lifetime"));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("pool");
    let i1 = inst.clone();
    let keygen = Box::new(move |iters: u64| {
        let t = std::time::Instant::now();
        for i in 0..iters {
            black_box(pool.install(|| i1.key_gen(&mut rand_chacha::ChaCha20Rng::from_seed([i as u8; 32]), 0, 256).expect("activation within the lifetime")));
        }
        t.elapsed()
    });
    let (i2, k2) = (inst.clone(), key.clone());
    let (sign, verify) = sign_verify_runners(move |e, m| i2.sign(&k2, e, m).expect("sign"), move |e, m, sig| inst.verify(&key.root, &key.parameter, e, m, sig));
    let mk = |op: &'static str, ours: crate::Runner| Case { group: "hashsig", op, curve: "koalabear", size: 256, threads: 1, ours, peers: vec![], check: None };
    vec![mk("keygen_devnet4_l8", keygen), mk("sign_devnet4_l8", sign), mk("verify_devnet4_l8", verify)]
}

/// Sixteen Poseidon1 states of width W (leanSig devnet 4's permutation) through
/// `permute_many` (the packed batches with sparse partial rounds), against the same sixteen
/// one after another through `permute_mut` (one state in registers): an internal row
/// (`zkforge-one-state`), as the released Plonky3 crates carry no KoalaBear Poseidon1.
fn poseidon1_case<const W: usize>(op: &'static str, perm: zkforge_hashsig::poseidon1::Poseidon1<W>) -> Case {
    let s: [[Kb; W]; 16] = core::array::from_fn(|k| core::array::from_fn(|i| Kb::new((k * W + i) as u32 * 7919 + 1)));
    let (mut a, mut b) = (s, s);
    perm.permute_many(&mut a);
    for x in b.iter_mut() {
        perm.permute_mut(x);
    }
    let flat = |v: &[[Kb; W]; 16]| -> Vec<u32> { v.iter().flatten().map(|x| x.to_canonical()).collect() };
    let (ours_out, peer_out) = (flat(&a), flat(&b));
    let p2 = perm.clone();
    Case {
        group: "hashsig",
        op,
        curve: "koalabear",
        size: 16,
        threads: 1,
        ours: chain(s, move |x| perm.permute_many(x)),
        peers: vec![(
            "zkforge-one-state",
            chain(s, move |x| {
                for st in x.iter_mut() {
                    p2.permute_mut(st);
                }
            }),
        )],
        check: None,
    }
    .with_check(move || crate::agree(ours_out, vec![("zkforge-one-state", peer_out)]))
}

fn scheme_cases() -> Vec<Case> {
    let mut out = scheme_rows::<8, 7>("poseidon2_toplevel_lifetime8_dim64_base8", "top_l8", 256, 1);
    out.extend(scheme_rows::<7, 6>("poseidon2_toplevel_lifetime18_dim64_base8", "top_l18", 1024, 1));
    out.extend(scheme_rows::<7, 5>("poseidon2_winternitz_lifetime18_w8", "w8_l18", 1024, 1));
    out.extend(scheme_rows::<7, 5>("poseidon2_winternitz_lifetime18_w8", "w8_l18", 1024, 2).into_iter().take(1));
    out.extend(scheme_rows::<7, 6>("poseidon2_targetsum_lifetime18_w8_off10", "ts8_l18", 1024, 1));
    out.extend(sha3_rows());
    out.extend(devnet4_rows());
    out
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
    use p3_field::PrimeField32;
    // agreement: one permutation of the starting states on both sides
    let mut so = s;
    ours(&mut so);
    let mut sq = q;
    for x in sq.iter_mut() {
        peer.permute_mut(x);
    }
    let ours_out: Vec<u32> = so.iter().flatten().map(|x| x.to_canonical()).collect();
    let peer_out: Vec<u32> = sq.iter().flatten().map(|x| x.as_canonical_u32()).collect();
    Case {
        group: "hashsig",
        op,
        curve: "koalabear",
        size: L,
        threads: 1,
        ours: chain(s, ours),
        peers: vec![(
            "plonky3-scalar",
            chain(q, move |q| {
                for x in q.iter_mut() {
                    peer.permute_mut(x);
                }
            }),
        )],
        check: None,
    }
    .with_check(move || crate::agree(ours_out, vec![("plonky3-scalar", peer_out)]))
}

/// Sixteen states of width W, both sides in their packed layout: ours in column layout
/// through `permute_columns_x16` (no transposes), Plonky3 through its packed KoalaBear (`<KoalaBear as Field>::Packing`: AVX-512 / AVX2 only when this crate is built
/// with those target features, e.g. `scripts/bench_plonky3_native.sh`). In a default build
/// Plonky3 has no packing and the row is left out (the scalar rows cover it).
fn packed_peer_case<const W: usize>(
    op: &'static str,
    ours: impl Fn(&mut [[Kb; 16]; W]) + 'static,
    peer: impl Permutation<[<p3_koala_bear::KoalaBear as p3_field::Field>::Packing; W]> + 'static,
) -> Option<Case> {
    use p3_field::PackedValue;
    type Pk = <p3_koala_bear::KoalaBear as p3_field::Field>::Packing;
    let width = <Pk as PackedValue>::WIDTH;
    let name = match width {
        16 => "plonky3-avx512",
        8 => "plonky3-avx2",
        4 => "plonky3-neon",
        _ => return None,
    };
    let value = |k: usize, i: usize| (k * W + i) as u32 * 7919 + 1;
    // column j holds element j of the sixteen states
    let s: [[Kb; 16]; W] = core::array::from_fn(|i| core::array::from_fn(|k| Kb::new(value(k, i))));
    // lane k of packed state j holds state j * width + k
    let q: Vec<[Pk; W]> = (0..16 / width).map(|j| core::array::from_fn(|i| Pk::from_fn(|k| p3_koala_bear::KoalaBear::new(value(j * width + k, i))))).collect();
    // agreement: state j element i on both sides after one permutation
    use p3_field::PrimeField32;
    let mut so = s;
    ours(&mut so);
    let mut sq = q.clone();
    for x in sq.iter_mut() {
        peer.permute_mut(x);
    }
    let ours_out: Vec<u32> = (0..16).flat_map(|k| (0..W).map(move |i| (k, i))).map(|(k, i)| so[i][k].to_canonical()).collect();
    let peer_out: Vec<u32> = (0..16).flat_map(|k| (0..W).map(move |i| (k, i))).map(|(k, i)| sq[k / width][i].as_slice()[k % width].as_canonical_u32()).collect();
    Some(Case {
        group: "hashsig",
        op,
        curve: "koalabear",
        size: 16,
        threads: 1,
        ours: chain(s, ours),
        peers: vec![(
            name,
            Box::new(move |iters| {
                let mut q = q.clone();
                let t = std::time::Instant::now();
                for _ in 0..iters {
                    for x in q.iter_mut() {
                        peer.permute_mut(x);
                    }
                }
                black_box(&q);
                t.elapsed()
            }),
        )],
        check: None,
    }
    .with_check(move || crate::agree(ours_out, vec![(name, peer_out)])))
}

/// Every hashsig case.
pub fn cases() -> Vec<Case> {
    use p3_koala_bear::{default_koalabear_poseidon2_16 as p16, default_koalabear_poseidon2_24 as p24};
    let mut out = scheme_cases();
    let (o16, o24) = (Poseidon2::new_16(), Poseidon2::new_24());
    let (a16, a24, b16) = (o16.clone(), o24.clone(), o16.clone());
    out.push(perm_case::<16, 16>("poseidon2_16_x16", move |s| a16.permute_x16(s), p16()));
    out.push(perm_case::<24, 16>("poseidon2_24_x16", move |s| a24.permute_x16(s), p24()));
    let (c16, c24) = (o16.clone(), o24.clone());
    out.extend(packed_peer_case::<16>("poseidon2_16_x16_packed_peer", move |s| c16.permute_columns_x16(s), p16()));
    out.extend(packed_peer_case::<24>("poseidon2_24_x16_packed_peer", move |s| c24.permute_columns_x16(s), p24()));
    out.push(perm_case::<16, 8>("poseidon2_16_x8", move |s| b16.permute_x8(s), p16()));
    out.push(perm_case::<16, 1>("poseidon2_16", move |s| o16.permute_mut(&mut s[0]), p16()));
    out.push(perm_case::<24, 1>("poseidon2_24", move |s| o24.permute_mut(&mut s[0]), p24()));
    out.push(poseidon1_case("poseidon1_16_x16", zkforge_hashsig::poseidon1::Poseidon1::new_16()));
    out.push(poseidon1_case("poseidon1_24_x16", zkforge_hashsig::poseidon1::Poseidon1::new_24()));
    out
}

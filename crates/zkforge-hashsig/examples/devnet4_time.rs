//! leanSig devnet 4 (Poseidon1) on one thread: key generation of the 2^8 test instance (its
//! sixteen bottom trees), and of one bottom tree's first 64 epochs of the 2^32 instance (their
//! 64 x 46 chains walked to their ends, then their leaves), under each Poseidon1 form, alternated;
//! per form the fastest of five rounds. Forms: the one-state textbook rounds (also with width
//! 24's MDS product as a convolution, what a CPU without AVX2 runs); one state in
//! AVX2 / AVX-512 registers (`poseidon1::set_registers`, packing off); packed batches of eight
//! (AVX2) / sixteen (AVX-512) with sparse partial rounds (`poseidon1::set_form`, the default),
//! each also with width 16's MDS product whole instead of split by the CRT (`Form::mds16_crt`
//! off), and with width 24's dense instead of its convolution form too (`Form::circulant_ntt`
//! off: the default before both).
//! `cargo run --release -p zkforge-hashsig --example devnet4_time`; with the argument `full`,
//! instead the 2^32 instance's key generation of 131,072 epochs (two bottom trees, as the
//! vectors' key) in the default form on one thread and on a pool of two, and one state at a
//! time in AVX-512 registers (the form before the packed batches) on a pool of two; then
//! signing and verification of 40 epochs in three forms (the default; with the one-state partial
//! rounds not deferred, `Form::deferred_partial` off; one state in AVX-512 registers with dense
//! partial rounds; one thread, medians, alternated per epoch). `full sign`
//! generates the key once (default form, two threads) and times only signing and verification.
use std::time::Instant;

use rand::SeedableRng;
use zkforge_hashsig::devnet4::Devnet4;
use zkforge_hashsig::koalabear::Kb;
use zkforge_hashsig::poseidon1::{set_form, set_registers, Form, Registers};

const ONE_BY_ONE: Form = Form { sparse_partial: false, packed: false, ifma_mds: false, circulant_ntt: false, mds16_crt: false, deferred_partial: false };
/// The default but for width 16's whole MDS product (no CRT split).
const WHOLE_MDS16: Form = Form { mds16_crt: false, ..Form::DEFAULT };
/// And width 24's dense MDS product too (the default before both).
const BEFORE: Form = Form { circulant_ntt: false, ..WHOLE_MDS16 };

fn main() {
    let small = Devnet4::by_name("leansig_head_aborting_lifetime8_dim46_base8").expect("instance");
    let big = Devnet4::by_name("leansig_head_aborting_lifetime32_dim46_base8").expect("instance");
    if std::env::args().nth(1).as_deref() == Some("full") {
        let sign_only = std::env::args().nth(2).as_deref() == Some("sign");
        let mut roots = Vec::new();
        let mut keys = Vec::new();
        let keygen_forms: &[(&str, Registers, Form, usize)] = if sign_only {
            &[("packed (default)", Registers::Auto, Form::DEFAULT, 2)]
        } else {
            &[
                ("packed (default)", Registers::Auto, Form::DEFAULT, 1),
                ("packed (default)", Registers::Auto, Form::DEFAULT, 2),
                ("one state in AVX-512 registers", Registers::Avx512, ONE_BY_ONE, 2),
            ]
        };
        for &(name, regs, form, threads) in keygen_forms {
            set_registers(regs);
            set_form(form);
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
            let t = Instant::now();
            let key = pool.install(|| big.key_gen(&mut rand::rngs::StdRng::seed_from_u64(7), 0, 131_072)).expect("keygen");
            println!("devnet 4, 2^32 instance, key generation of {} epochs, {name}, {threads} thread(s): {:.2} s", key.active_epochs, t.elapsed().as_secs_f64());
            roots.push(key.root);
            keys.push(key);
        }
        assert!(roots.iter().all(|r| *r == roots[0]), "forms disagree");
        // signing and verification, one thread: 40 epochs of the prepared interval, the forms
        // alternated per epoch; medians
        let key = &keys[0];
        let mut times = [[Vec::new(), Vec::new()], [Vec::new(), Vec::new()], [Vec::new(), Vec::new()]];
        let sign_forms = [(Registers::Auto, Form::DEFAULT), (Registers::Auto, Form { deferred_partial: false, ..Form::DEFAULT }), (Registers::Avx512, ONE_BY_ONE)];
        for e in 0..40u32 {
            let msg = [e as u8; 32];
            let mut sigs = Vec::new();
            for (f, (regs, form)) in sign_forms.into_iter().enumerate() {
                set_registers(regs);
                set_form(form);
                let t = Instant::now();
                let sig = big.sign(key, e * 1000, &msg).expect("sign");
                times[f][0].push(t.elapsed().as_secs_f64() * 1e6);
                let t = Instant::now();
                assert!(big.verify(&key.root, &key.parameter, e * 1000, &msg, &sig));
                times[f][1].push(t.elapsed().as_secs_f64() * 1e6);
                sigs.push(sig);
            }
            assert!(sigs.iter().all(|s| *s == sigs[0]), "forms disagree");
        }
        set_registers(Registers::Auto);
        set_form(Form::DEFAULT);
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        for (f, name) in ["packed, one-state partial rounds deferred (default)", "... not deferred", "one state in AVX-512 registers, dense partial rounds"].iter().enumerate() {
            let (s, v) = (median(&mut times[f][0]), median(&mut times[f][1]));
            println!("devnet 4, 2^32 instance, {name}, one thread: sign {s:.0} us, verify {v:.0} us (medians of 40)");
        }
        return;
    }
    let forms = [
        ("textbook", Registers::Portable, ONE_BY_ONE),
        ("textbook, conv./CRT", Registers::Portable, Form { circulant_ntt: true, mds16_crt: true, ..ONE_BY_ONE }),
        ("AVX2 registers", Registers::Avx2, ONE_BY_ONE),
        ("AVX-512 registers", Registers::Avx512, ONE_BY_ONE),
        ("x8, both matrices off", Registers::Avx2, BEFORE),
        ("x8, w16 whole", Registers::Avx2, WHOLE_MDS16),
        ("packed x8 sparse", Registers::Avx2, Form::DEFAULT),
        ("x16, both matrices off", Registers::Avx512, BEFORE),
        ("x16, w16 whole", Registers::Avx512, WHOLE_MDS16),
        ("packed x16 sparse", Registers::Avx512, Form::DEFAULT),
    ];
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("pool");
    let mut best = [[f64::MAX; 10]; 2];
    let mut roots = [[Kb::ZERO; 8]; 10];
    let mut leaves = vec![Vec::new(); 10];
    let parameter = [Kb::new(3), Kb::new(1), Kb::new(4), Kb::new(1), Kb::new(5)];
    let prf_key = [7u8; 32];
    for _ in 0..5 {
        for (i, (_, regs, form)) in forms.iter().enumerate() {
            set_registers(*regs);
            set_form(*form);
            let t = Instant::now();
            let mut rng = rand::rngs::StdRng::seed_from_u64(7);
            let key = pool.install(|| small.key_gen(&mut rng, 0, 256)).expect("keygen");
            best[0][i] = best[0][i].min(t.elapsed().as_secs_f64() * 1e3);
            roots[i] = key.root;
            let t = Instant::now();
            let epochs: Vec<u32> = (1u32 << 20..(1 << 20) + 64).collect();
            let mut out = Vec::new();
            for group in epochs.chunks(16) {
                let items: Vec<(u32, u8)> = group.iter().flat_map(|&e| (0..46u8).map(move |c| (e, c))).collect();
                let ends = big.chain_ends(&parameter, &prf_key, &items);
                let per: Vec<&[[Kb; 8]]> = ends.chunks(46).collect();
                out.extend(big.leaves(&parameter, group, &per));
            }
            best[1][i] = best[1][i].min(t.elapsed().as_secs_f64() * 1e3);
            leaves[i] = out;
        }
    }
    assert!(roots.iter().all(|r| *r == roots[0]) && leaves.iter().all(|l| *l == leaves[0]), "forms disagree");
    set_registers(Registers::Auto);
    set_form(Form::DEFAULT);
    println!("devnet 4 on one thread, ms (ratio to textbook):");
    for (i, (name, ..)) in forms.iter().enumerate() {
        println!("  {name:>22}: 2^8 key generation {:7.2} ({:.3}); 64 leaves of the 2^32 instance {:7.2} ({:.3})", best[0][i], best[0][i] / best[0][0], best[1][i], best[1][i] / best[1][0]);
    }
}

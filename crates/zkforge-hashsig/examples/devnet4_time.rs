//! leanSig devnet 4 (Poseidon1) on one thread: key generation of the 2^8 test instance (its
//! sixteen bottom trees) and a bottom tree's worth of chain steps of the 2^32 instance (one
//! epoch's 46 chains walked to their ends), with the textbook Poseidon1 and in AVX2 and
//! AVX-512 registers (`poseidon1::set_registers`), alternated; per form the fastest of five
//! rounds.
//! `cargo run --release -p zkforge-hashsig --example devnet4_time`.
use std::time::Instant;

use rand::SeedableRng;
use zkforge_hashsig::devnet4::Devnet4;
use zkforge_hashsig::koalabear::Kb;
use zkforge_hashsig::poseidon1::{set_registers, Registers};

fn main() {
    let small = Devnet4::by_name("leansig_head_aborting_lifetime8_dim46_base8").expect("instance");
    let big = Devnet4::by_name("leansig_head_aborting_lifetime32_dim46_base8").expect("instance");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("pool");
    let mut best = [[f64::MAX; 3]; 2];
    for _ in 0..5 {
        for (i, on) in [Registers::Portable, Registers::Avx2, Registers::Avx512].into_iter().enumerate() {
            set_registers(on);
            let t = Instant::now();
            let mut rng = rand::rngs::StdRng::seed_from_u64(7);
            let key = pool.install(|| small.key_gen(&mut rng, 0, 256)).expect("keygen");
            best[0][i] = best[0][i].min(t.elapsed().as_secs_f64() * 1e3);
            std::hint::black_box(key.root);
            let t = Instant::now();
            let parameter = [Kb::ONE; 5];
            let mut acc = Kb::ZERO;
            for chain in 0..46u8 {
                let end = big.chain(&parameter, 12345, chain, 0, 7, &[Kb::new(chain as u32); 8]);
                acc += end[0];
            }
            best[1][i] = best[1][i].min(t.elapsed().as_secs_f64() * 1e6);
            std::hint::black_box(acc);
        }
    }
    set_registers(Registers::Auto);
    println!("devnet 4, Poseidon1 textbook / AVX2 registers / AVX-512 registers:");
    let r = |b: &[f64; 3]| format!("{:.1} / {:.1} / {:.1} ({:.3} / {:.3})", b[0], b[1], b[2], b[1] / b[0], b[2] / b[0]);
    println!("  key generation, 2^8 instance, ms: {}", r(&best[0]));
    println!("  46 chains of 7 steps (one epoch of the 2^32 instance), us: {}", r(&best[1]));
}

//! The `bls_keystore` fuzz target's body (fuzz/fuzz_targets/bls_keystore_body.rs) on seeded
//! random and mutated-valid inputs: a short, deterministic stand-in for the fuzzer in CI.
//! Long runs: `cd fuzz && cargo +nightly fuzz run bls_keystore`.

use rand::{rngs::StdRng, Rng, SeedableRng};
use zkforge_bls::keystore::{Kdf, Keystore};
use zkforge_bls::SecretKey;

include!("../../../fuzz/fuzz_targets/bls_keystore_body.rs");

#[test]
fn keystore_decoder_never_panics_and_round_trips() {
    let mut rng = StdRng::seed_from_u64(0x2335);
    let runs: usize = std::env::var("ZKFORGE_FUZZ_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(600);
    for i in 0..runs {
        let len = [2usize, 10, 40, 200][i % 4] + rng.gen_range(0..8);
        let mut data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        data[0] = (i % 4) as u8 | (data[0] & 0xf0);
        one_input(&data);
    }
    // documents that are close to valid: every single-byte change at each position class
    let base = valid_keystore(b"smoke", false);
    for (i, c) in base.bytes().enumerate().step_by(3) {
        let mut b = base.clone().into_bytes();
        b[i] = if c == b'"' { b'x' } else { b'"' };
        parse_and_open(&String::from_utf8_lossy(&b));
    }
}

//! The `bls_decode` fuzz target's body (fuzz/fuzz_targets/bls_decode_body.rs) on seeded
//! random and mutated-valid inputs: a short, deterministic stand-in for the fuzzer in CI.
//! Long runs: `cd fuzz && cargo +nightly fuzz run bls_decode`.

use rand::{rngs::StdRng, Rng, SeedableRng};
use zkforge_bls::{PublicKey, SecretKey, Signature};

include!("../../../fuzz/fuzz_targets/bls_decode_body.rs");

#[test]
fn decoders_never_panic_and_round_trip() {
    let mut rng = StdRng::seed_from_u64(0xb15);
    let runs: usize = std::env::var("ZKFORGE_FUZZ_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(600);
    for i in 0..runs {
        let len = [3usize, 35, 51, 99, 20, 130][i % 6] + rng.gen_range(0..3);
        let mut data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        data[0] = (i % 3) as u8;
        one_input(&data);
    }
}

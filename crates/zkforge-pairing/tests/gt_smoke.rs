//! The `gt_decode` fuzz target's body (fuzz/fuzz_targets/gt_decode_body.rs) on seeded random
//! and mutated-valid inputs: a short, deterministic stand-in for the fuzzer in CI.
//! Long runs: `cd fuzz && cargo +nightly fuzz run gt_decode`.

use rand::{rngs::StdRng, Rng, SeedableRng};
use zkforge_pairing::{bls12_381 as pb, bn254 as pn};

include!("../../../fuzz/fuzz_targets/gt_decode_body.rs");

#[test]
fn gt_decoders_never_panic_and_round_trip() {
    let mut rng = StdRng::seed_from_u64(0x6767);
    let runs: usize = std::env::var("ZKFORGE_FUZZ_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(200);
    for i in 0..runs {
        let len = [3usize, 577, 385, 576, 384, 10][i % 6];
        let mut data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        data[0] = (i % 4) as u8;
        one_input(&data);
    }
}

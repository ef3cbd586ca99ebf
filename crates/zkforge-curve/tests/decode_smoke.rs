//! The `curve_decode` fuzz target's body (fuzz/fuzz_targets/curve_decode_body.rs) on seeded
//! random and mutated-valid inputs: a short, deterministic stand-in for the fuzzer in CI.
//! Long runs: `cd fuzz && cargo +nightly fuzz run curve_decode`.

use rand::{rngs::StdRng, Rng, SeedableRng};
use zkforge_curve::bls12_381::{G1Affine, G2Affine};
use zkforge_curve::hash_to_curve::{map_fp2_to_g2, map_fp_to_g1};
use zkforge_field::bls12_381;

include!("../../../fuzz/fuzz_targets/curve_decode_body.rs");

#[test]
fn decoders_never_panic_and_round_trip() {
    let mut rng = StdRng::seed_from_u64(0x2b2b);
    let runs: usize = std::env::var("ZKFORGE_FUZZ_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(3000);
    for i in 0..runs {
        let len = [3usize, 51, 99, 131, 195, 259, 67, 35][i % 8] + rng.gen_range(0..3);
        let mut data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        data[0] = (i % 4) as u8;
        one_input(&data);
    }
}

//! The EVM fuzz targets' body (fuzz/fuzz_targets/evm_precompile_body.rs) on seeded random and
//! mutated-valid inputs for every precompile: a short, deterministic stand-in for the fuzzer in
//! CI. Long runs: `cd fuzz && cargo +nightly fuzz run evm_precompile` (or `evm_ecpairing`, ...).

use rand::{rngs::StdRng, Rng, SeedableRng};

include!("../../../fuzz/fuzz_targets/evm_precompile_body.rs");

#[test]
fn precompiles_never_panic() {
    let mut rng = StdRng::seed_from_u64(0xe0e0);
    let runs: usize = std::env::var("ZKFORGE_FUZZ_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(4000);
    // valid inputs to mutate: the first success vector of each precompile
    let dir = format!("{}/tests/vectors", env!("CARGO_MANIFEST_DIR"));
    let seeds: Vec<(u8, Vec<u8>)> = [
        (0x06, "bn256Add.json"),
        (0x07, "bn256ScalarMul.json"),
        (0x08, "bn256Pairing.json"),
        (0x0b, "blsG1Add.json"),
        (0x0c, "blsG1MultiExp.json"),
        (0x0d, "blsG2Add.json"),
        (0x0e, "blsG2MultiExp.json"),
        (0x0f, "blsPairing.json"),
        (0x10, "blsMapG1.json"),
        (0x11, "blsMapG2.json"),
    ]
    .iter()
    .map(|(a, f)| {
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(format!("{dir}/{f}")).unwrap()).unwrap();
        let s = v[1]["Input"].as_str().unwrap();
        (*a, (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect())
    })
    .collect();
    for i in 0..runs {
        if i % 2 == 0 {
            let (address, seed) = &seeds[(i / 2) % seeds.len()];
            let mut input = seed.clone();
            for _ in 0..rng.gen_range(1..4) {
                let j = rng.gen_range(0..input.len());
                input[j] ^= 1 << rng.gen_range(0..8);
            }
            if rng.gen_bool(0.2) {
                input.truncate(rng.gen_range(0..input.len()));
            }
            one_call(*address, &input);
        } else {
            let len = rng.gen_range(0..700);
            let mut data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
            if let Some(first) = data.first_mut() {
                *first = (i % ADDRESSES.len()) as u8;
            }
            one_input(&data);
        }
    }
}

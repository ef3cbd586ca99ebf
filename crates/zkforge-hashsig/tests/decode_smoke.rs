//! The `hashsig_decode` fuzz target's body on seeded random inputs and on mutations of valid
//! encodings: a short, deterministic stand-in for the fuzzer in CI.
//! Long runs: `cd fuzz && cargo +nightly fuzz run hashsig_decode`.

use rand::{Rng, SeedableRng};
use zkforge_hashsig::scheme::{PublicKey, Signature};
use zkforge_hashsig::sha3_xmss::sha3_instance_by_name;

include!("../../../fuzz/fuzz_targets/hashsig_decode_body.rs");

#[test]
fn decoders_never_panic_and_round_trip() {
    let v: serde_json::Value = serde_json::from_str(include_str!("vectors/leansig_f477348_poseidon2_ssz.json")).unwrap();
    let hex = |h: &str| -> Vec<u8> { (0..h.len() / 2).map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap()).collect() };
    let ssz = hex(v[0]["signatures"][0]["signature_ssz_hex"].as_str().unwrap());
    let pk = hex(v[0]["public_key_ssz_hex"].as_str().unwrap());
    let load = |s: &str| -> serde_json::Value { serde_json::from_str(s).unwrap() };
    let wots = hex(load(include_str!("vectors/poseidon2_winternitz_lifetime18_w8.json"))["signatures"][0]["signature_bincode_legacy_hex"].as_str().unwrap());
    let sha = hex(load(include_str!("vectors/sha3_winternitz_lifetime18_w8.json"))["signatures"][0]["signature_bincode_legacy_hex"].as_str().unwrap());
    // the unmodified encodings must decode and re-encode (the body's `if let Ok` arms alone
    // would pass decoders that reject everything)
    assert_eq!(Signature::<7, 8>::from_ssz(&ssz, 8, 64).expect("valid SSZ signature").to_ssz(), ssz);
    assert_eq!(PublicKey::<5, 8>::from_ssz(&pk).expect("valid SSZ public key").to_ssz(), pk);
    assert_eq!(Signature::<5, 7>::from_bincode_legacy(&wots, 18, 22).expect("valid Winternitz signature").to_bincode_legacy(), wots);
    let inst = sha3_instance_by_name("sha3_winternitz_lifetime18_w8").expect("known");
    assert_eq!(inst.signature_to_bytes(&inst.signature_from_bytes(&sha).expect("valid SHA3 signature")), sha);
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x4853);
    for i in 0..7000 {
        let sel = (i % 7) as u8;
        let mut data = vec![sel];
        match i % 3 {
            0 => data.extend((0..rng.gen_range(0..60)).map(|_| rng.gen::<u8>())),
            _ => {
                let base = match sel {
                    1 => &ssz,
                    4 => &wots,
                    5 => &sha,
                    _ => &pk,
                };
                let mut b = base.clone();
                let pos = rng.gen_range(0..b.len());
                b[pos] ^= 1 << rng.gen_range(0..8);
                if rng.gen_bool(0.1) {
                    b.truncate(rng.gen_range(0..b.len()));
                }
                data.extend(b);
            }
        }
        one_input(&data);
    }
}

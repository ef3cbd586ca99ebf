//! The lean-consensus instantiation (top-level, lifetime 2^32, 131,072 active epochs): key
//! generation reproduces hash-sig's public key and signatures and leanSig's SSZ encodings byte
//! for byte. Several seconds of key generation, so it runs by hand:
//! `cargo test --release -p zkforge-hashsig --test lifetime32 -- --ignored`.

use rand_chacha::rand_core::SeedableRng;
use serde_json::Value;
use zkforge_hashsig::hypercube::Layers;
use zkforge_hashsig::keygen::key_gen;
use zkforge_hashsig::scheme::{instance_by_name, PublicKey};
use zkforge_hashsig::tweak_hash::Perms;

fn hex_bytes(h: &str) -> Vec<u8> {
    (0..h.len() / 2).map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap()).collect()
}

#[test]
#[ignore]
fn lifetime_2_32_keys_and_signatures() {
    let d: Value = serde_json::from_str(include_str!("vectors/poseidon2_toplevel_lifetime32_dim64_base8.json")).unwrap();
    let scheme = instance_by_name("poseidon2_toplevel_lifetime32_dim64_base8").unwrap();
    let perms = Perms::default();
    let mut rng = rand_chacha::ChaCha20Rng::from_seed([0x42; 32]);
    let start = d["activation_epoch_requested"].as_u64().unwrap();
    let num = d["num_active_epochs_requested"].as_u64().unwrap();
    let t = std::time::Instant::now();
    let km = key_gen::<5, 2, 8, 9>(&perms, &scheme.shape, &mut rng, start, num).unwrap();
    eprintln!("key generation: {:.2} s", t.elapsed().as_secs_f64());
    let pk = PublicKey::<5, 8> { root: km.root, parameter: km.parameter };
    assert_eq!(pk.to_bincode_legacy(), hex_bytes(d["public_key_bincode_legacy_hex"].as_str().unwrap()));
    let layers = Layers::new(8, 64);
    for s in d["signatures"].as_array().unwrap() {
        let epoch = s["epoch"].as_u64().unwrap() as u32;
        let msg: [u8; 32] = hex_bytes(s["message_hex"].as_str().unwrap()).try_into().unwrap();
        let sig = scheme.sign::<5, 2, 8, 9, 7>(&perms, &layers, &km, epoch, &msg).unwrap();
        assert_eq!(sig.to_bincode_legacy(), hex_bytes(s["signature_bincode_legacy_hex"].as_str().unwrap()), "epoch {epoch}");
        assert!(scheme.verify::<5, 2, 8, 9, 7>(&perms, &layers, &pk.root, &pk.parameter, epoch, &msg, &sig));
    }
    // leanSig f477348's SSZ encodings of the same key and its signatures
    let v: Value = serde_json::from_str(include_str!("vectors/leansig_f477348_poseidon2_ssz.json")).unwrap();
    let l = &v[1];
    assert_eq!(pk.to_ssz(), hex_bytes(l["public_key_ssz_hex"].as_str().unwrap()));
    for s in l["signatures"].as_array().unwrap() {
        let epoch = s["epoch"].as_u64().unwrap() as u32;
        let msg: [u8; 32] = hex_bytes(s["message_hex"].as_str().unwrap()).try_into().unwrap();
        let sig = scheme.sign::<5, 2, 8, 9, 7>(&perms, &layers, &km, epoch, &msg).unwrap();
        assert_eq!(sig.to_ssz(), hex_bytes(s["signature_ssz_hex"].as_str().unwrap()), "SSZ epoch {epoch}");
    }
}

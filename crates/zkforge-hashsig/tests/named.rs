//! The by-name API (`zkforge_hashsig::named`, what the CLI and the Python package call):
//! keys and signatures equal to the reference vectors through the key store, in both
//! encodings; every refusal typed (used epoch, lower epoch, out of range, existing store,
//! damaged store, SSZ for SHA3, bad activation, undecodable inputs); every listed name
//! resolves.

use std::path::PathBuf;

use serde_json::Value;
use zkforge_hashsig::keystore::KeyStoreError;
use zkforge_hashsig::named::{scheme_names, NamedError, NamedScheme, SeedRng, Wire};

fn vectors(name: &str) -> Value {
    let p = format!("{}/tests/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

fn hex32(s: &str) -> [u8; 32] {
    hex(s).try_into().unwrap()
}

fn tmp(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zkforge-named-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Key generation from the vector's seed, then every vector signature, in order, through
/// the store; each equal byte for byte and verifying; negative cases rejected.
fn reproduce(v: &Value, rng: SeedRng, wire: Wire, pk_field: &str, sig_field: &str, tag: &str) {
    let name = v["name"].as_str().unwrap().replace("leansig_p2_", "poseidon2_");
    let s = NamedScheme::by_name(&name).unwrap();
    let store = tmp(tag).join("key");
    let pk = s
        .keygen_to_store(&store, hex32(v["seed_hex"].as_str().unwrap()), rng, v["activation_epoch_requested"].as_u64().unwrap(), v["num_active_epochs_requested"].as_u64().unwrap(), wire, &mut |_, _| {})
        .unwrap();
    assert_eq!(pk, hex(v[pk_field].as_str().unwrap()), "{name}: public key");
    let mut signed = 0;
    for sv in v["signatures"].as_array().unwrap() {
        let epoch = sv["epoch"].as_u64().unwrap() as u32;
        let msg = hex32(sv["message_hex"].as_str().unwrap());
        let Some(want) = sv[sig_field].as_str() else { continue };
        let sig = s.sign_with_store(&store, epoch, &msg, wire).unwrap();
        assert_eq!(sig, hex(want), "{name}: signature at epoch {epoch}");
        assert!(s.verify(&pk, epoch, &msg, &sig, wire).unwrap());
        let mut other = msg;
        other[0] ^= 1;
        assert!(!s.verify(&pk, epoch, &other, &sig, wire).unwrap());
        // the key-reuse guard: the same epoch again, for another message, is refused
        match s.sign_with_store(&store, epoch, &other, wire) {
            Err(NamedError::Refused(KeyStoreError::EpochAlreadyUsed { epoch: e, next })) => assert_eq!((e, next), (epoch as u64, epoch as u64 + 1)),
            r => panic!("{name}: second signature at epoch {epoch}: {r:?}"),
        }
        assert_eq!(s.store_status(&store).unwrap().0, epoch as u64 + 1);
        signed += 1;
    }
    assert!(signed >= 2, "{name}: only {signed} vector signatures");
}

#[test]
fn hash_sig_toplevel_lifetime8_bincode() {
    let v = vectors("poseidon2_toplevel_lifetime8_dim64_base8.json");
    reproduce(&v, SeedRng::ChaCha20, Wire::BincodeLegacy, "public_key_bincode_legacy_hex", "signature_bincode_legacy_hex", "hs8");
}

#[test]
fn leansig_toplevel_lifetime8_ssz() {
    let v = vectors("leansig_f477348_poseidon2_ssz.json");
    reproduce(&v[0], SeedRng::ChaCha20, Wire::Ssz, "public_key_ssz_hex", "signature_ssz_hex", "ls8");
}

#[test]
fn leansig_devnet4_lifetime8_ssz() {
    let v = vectors("leansig_c08a3ba_devnet4_poseidon1_ssz.json");
    reproduce(&v[0], SeedRng::Std, Wire::Ssz, "public_key_ssz_hex", "signature_ssz_hex", "d4");
}

#[test]
fn sha3_vectors_verify_by_name() {
    let v = vectors("sha3_winternitz_lifetime18_w8.json");
    let s = NamedScheme::by_name("sha3_winternitz_lifetime18_w8").unwrap();
    let pk = hex(v["public_key_bincode_legacy_hex"].as_str().unwrap());
    for sv in v["signatures"].as_array().unwrap() {
        let (epoch, msg) = (sv["epoch"].as_u64().unwrap() as u32, hex32(sv["message_hex"].as_str().unwrap()));
        let sig = hex(sv["signature_bincode_legacy_hex"].as_str().unwrap());
        assert!(s.verify(&pk, epoch, &msg, &sig, Wire::BincodeLegacy).unwrap());
        assert!(!s.verify(&pk, epoch + 1, &msg, &sig, Wire::BincodeLegacy).unwrap());
        assert!(matches!(s.verify(&pk, epoch, &msg, &sig[..sig.len() - 1], Wire::BincodeLegacy), Err(NamedError::Decode { what: "signature", .. })));
    }
    assert!(matches!(s.verify(&pk, 0, &[0; 32], &[], Wire::Ssz), Err(NamedError::NoSsz)));
    assert!(matches!(s.keygen_to_store(&tmp("sha3").join("k"), [1; 32], SeedRng::ChaCha20, 0, 1024, Wire::Ssz, &mut |_, _| {}), Err(NamedError::NoSsz)));
}

#[test]
fn refusals_are_typed_and_change_nothing() {
    let s = NamedScheme::by_name("poseidon2_toplevel_lifetime8_dim64_base8").unwrap();
    let dir = tmp("refuse");
    let store = dir.join("key");
    // activation outside the lifetime: refused before anything is written
    for (a, n) in [(250, 100), (0, 0), (u64::MAX, 2)] {
        assert!(matches!(s.keygen_to_store(&store, [3; 32], SeedRng::ChaCha20, a, n, Wire::Ssz, &mut |_, _| {}), Err(NamedError::Activation(_))));
        assert!(!store.exists());
    }
    let pk = s.keygen_to_store(&store, [3; 32], SeedRng::ChaCha20, 0, 256, Wire::Ssz, &mut |_, _| {}).unwrap();
    let before = std::fs::read(&store).unwrap();
    // an existing store is never overwritten, whatever the seed
    assert!(matches!(s.keygen_to_store(&store, [4; 32], SeedRng::ChaCha20, 0, 256, Wire::Ssz, &mut |_, _| {}), Err(NamedError::Refused(KeyStoreError::AlreadyExists { .. }))));
    assert_eq!(std::fs::read(&store).unwrap(), before);
    // out of range, then a signature, then lower epochs
    assert!(matches!(s.sign_with_store(&store, 256, &[0; 32], Wire::Ssz), Err(NamedError::Refused(KeyStoreError::EpochOutOfRange))));
    let sig = s.sign_with_store(&store, 9, &[5; 32], Wire::Ssz).unwrap();
    assert!(s.verify(&pk, 9, &[5; 32], &sig, Wire::Ssz).unwrap());
    for e in [0, 8, 9] {
        assert!(matches!(s.sign_with_store(&store, e, &[5; 32], Wire::Ssz), Err(NamedError::Refused(KeyStoreError::EpochAlreadyUsed { .. }))));
    }
    // another scheme's name on this store is not a usable store
    let other = NamedScheme::by_name("leansig_head_aborting_lifetime8_dim46_base8").unwrap();
    assert!(matches!(other.sign_with_store(&store, 10, &[5; 32], Wire::Ssz), Err(NamedError::Refused(_))));
    // one flipped bit anywhere: damaged, no epoch spent
    let good = std::fs::read(&store).unwrap();
    let mut bad = good.clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 0x10;
    std::fs::write(&store, &bad).unwrap();
    assert!(matches!(s.sign_with_store(&store, 10, &[5; 32], Wire::Ssz), Err(NamedError::Refused(KeyStoreError::Damaged { .. }))));
    std::fs::write(&store, &good).unwrap();
    assert_eq!(s.store_status(&store).unwrap(), (10, 0, 256));
    // a missing store is an I/O refusal
    assert!(matches!(s.sign_with_store(&dir.join("none"), 1, &[5; 32], Wire::Ssz), Err(NamedError::Refused(KeyStoreError::Io { .. }))));
    // undecodable inputs are errors, not `false`
    assert!(matches!(s.verify(&pk[..pk.len() - 1], 9, &[5; 32], &sig, Wire::Ssz), Err(NamedError::Decode { what: "public key", .. })));
    assert!(matches!(s.verify(&pk, 9, &[5; 32], &sig[1..], Wire::Ssz), Err(NamedError::Decode { what: "signature", .. })));
    // the errors read as plain words
    let e = s.sign_with_store(&store, 9, &[5; 32], Wire::Ssz).unwrap_err().to_string();
    assert!(e.contains("epoch 9 was already used") && !e.contains("EpochAlreadyUsed"), "{e}");
}

#[test]
fn every_listed_name_resolves() {
    for n in scheme_names() {
        let s = NamedScheme::by_name(&n).unwrap_or_else(|e| panic!("{n}: {e}"));
        assert_eq!(s.name(), n);
        assert!(s.describe().starts_with(&n));
    }
    assert!(matches!(NamedScheme::by_name("poseidon2_nonsense"), Err(NamedError::UnknownScheme(_))));
}

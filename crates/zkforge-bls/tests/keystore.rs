//! EIP-2333 child keys, EIP-2334 paths and EIP-2335 keystores: the EIPs' test vectors
//! (tests/vectors/, sources in its README), byte-identical re-encryption of the keystore
//! vectors, random round trips under both KDFs, and every refusal as its typed error.

use aes::cipher::{KeyIvInit, StreamCipher};
use rand::{rngs::StdRng, Rng, SeedableRng};
use serde_json::Value;
use sha2::{Digest, Sha256};
use zkforge_bls::keystore::{normalize_password, Kdf, KdfKind, Keystore, KeystoreError};
use zkforge_bls::{BlsError, KeyPath, SecretKey};

fn hex(s: &str) -> Vec<u8> {
    let s = s.strip_prefix("0x").unwrap_or(s);
    (0..s.len() / 2).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap()).collect()
}

fn vectors() -> Value {
    serde_json::from_str(include_str!("vectors/eip2335_keystores.json")).unwrap()
}

fn suite() -> Value {
    serde_json::from_str(include_str!("vectors/ethereum_bls12_381_tests.json")).unwrap()
}

/// Cheap KDF parameters for round trips.
fn cheap(kind: KdfKind, salt: Vec<u8>) -> Kdf {
    match kind {
        KdfKind::Scrypt => Kdf::Scrypt { n: 16, r: 8, p: 1, salt },
        KdfKind::Pbkdf2 => Kdf::Pbkdf2 { c: 3, salt },
    }
}

const UUID: &str = "6f7c1c9e-2b1e-4a57-9d3a-6a1c0e0b9f41";

#[test]
fn eip2333_child_keys() {
    let v = suite();
    for c in v["eip2333_master_sk"]["cases"].as_array().unwrap() {
        let master = SecretKey::derive_master(&hex(c["seed"].as_str().unwrap())).unwrap();
        assert_eq!(master.to_bytes().to_vec(), hex(c["master_sk"].as_str().unwrap()));
        let child = master.derive_child(c["child_index"].as_u64().unwrap() as u32);
        assert_eq!(child.to_bytes().to_vec(), hex(c["child_sk"].as_str().unwrap()), "child {}", c["child_index"]);
        // the path form gives the same key
        let path = KeyPath(vec![c["child_index"].as_u64().unwrap() as u32]);
        assert_eq!(SecretKey::derive_path(&hex(c["seed"].as_str().unwrap()), &path).unwrap(), child);
    }
    assert_eq!(SecretKey::derive_master(&[1u8; 31]).unwrap_err(), BlsError::ShortKeyMaterial { got: 31 });
    // the empty path is the master key
    assert_eq!(SecretKey::derive_path(&[4u8; 32], &"m".parse().unwrap()).unwrap(), SecretKey::derive_master(&[4u8; 32]).unwrap());
}

#[test]
fn eip2334_paths() {
    for (s, want) in [("m", vec![]), ("m/0", vec![0]), ("m/12381/3600/0/0/0", vec![12381, 3600, 0, 0, 0]), ("m/4294967295", vec![u32::MAX]), ("m/007", vec![7])] {
        assert_eq!(s.parse::<KeyPath>().unwrap(), KeyPath(want), "{s}");
    }
    assert_eq!(KeyPath::validator_withdrawal(3).to_string(), "m/12381/3600/3/0");
    for bad in ["", "M/1", "m/", "m//1", "m/1/", "m/-1", "m/+1", "m/ 1", "m/4294967296", "m/1x", "n/1", "/1", "m1"] {
        assert!(matches!(bad.parse::<KeyPath>(), Err(BlsError::InvalidPath { .. })), "{bad:?}");
    }
}

#[test]
fn eip2335_password_normalisation() {
    let v = vectors();
    assert_eq!(normalize_password(v["password"].as_str().unwrap()).to_vec(), hex(v["encoded_password"].as_str().unwrap()));
    // C0, DEL and C1 go, space stays; NFKD decomposes (é -> e + U+0301, ﬁ -> fi)
    assert_eq!(normalize_password("a\u{0}\t\u{1f} \u{7f}\u{80}\u{9f}b\u{a0}").to_vec(), "a b\u{20}".as_bytes().to_vec());
    assert_eq!(normalize_password("\u{e9}\u{fb01}").to_vec(), "e\u{301}fi".as_bytes().to_vec());
}

#[test]
fn eip2335_vectors_decrypt_and_reencrypt_identically() {
    let v = vectors();
    let secret = hex(v["secret"].as_str().unwrap());
    let password = v["password"].as_str().unwrap();
    for ks_json in v["keystores"].as_array().unwrap() {
        let text = serde_json::to_string(ks_json).unwrap();
        let ks = Keystore::from_json(&text).unwrap();
        let sk = ks.decrypt(password).unwrap();
        assert_eq!(sk.to_bytes().to_vec(), secret);
        assert_eq!(ks.public_key().unwrap().unwrap(), sk.public_key());
        assert_eq!(ks.decrypt("testpassword"), Err(KeystoreError::WrongPassword));
        // the same parameters give the same file
        let again = Keystore::encrypt_with(&sk, password, ks.kdf.clone(), ks.iv, &ks.uuid, &ks.path, ks.description.as_deref().unwrap_or("")).unwrap();
        assert_eq!(again, ks);
        let written: Value = serde_json::from_str(&again.to_json()).unwrap();
        assert_eq!(&written, ks_json, "to_json writes the EIP's document");
    }
}

#[test]
fn random_round_trips_under_both_kdfs() {
    let mut rng = StdRng::seed_from_u64(2335);
    for i in 0..12 {
        let kind = if i % 2 == 0 { KdfKind::Scrypt } else { KdfKind::Pbkdf2 };
        let mut ikm = [0u8; 32];
        rng.fill(&mut ikm);
        let sk = SecretKey::derive_path(&ikm, &KeyPath::validator_signing(i)).unwrap();
        let password: String = (0..rng.gen_range(0..20)).map(|_| char::from_u32(rng.gen_range(0..0x3000)).unwrap_or('x')).collect();
        let mut salt = vec![0u8; rng.gen_range(0..40)];
        rng.fill(&mut salt[..]);
        let iv: [u8; 16] = rng.gen();
        let ks = Keystore::encrypt_with(&sk, &password, cheap(kind, salt), iv, UUID, &KeyPath::validator_signing(i).to_string(), "round trip").unwrap();
        let back = Keystore::from_json(&ks.to_json()).unwrap();
        assert_eq!(back, ks);
        assert_eq!(back.decrypt(&password).unwrap(), sk);
        // the password goes through normalisation: an added control code changes nothing
        assert_eq!(back.decrypt(&format!("{password}\n")).unwrap(), sk);
        assert_eq!(back.decrypt(&format!("{password}!")), Err(KeystoreError::WrongPassword));
    }
}

#[test]
fn encrypt_with_standard_parameters_and_fresh_randomness() {
    let mut rng = StdRng::seed_from_u64(7);
    let sk = SecretKey::derive_master(&[6u8; 32]).unwrap();
    let a = Keystore::encrypt(&sk, "pw", KdfKind::Pbkdf2, "", "", &mut rng).unwrap();
    let b = Keystore::encrypt(&sk, "pw", KdfKind::Pbkdf2, "", "", &mut rng).unwrap();
    assert_ne!(a.iv, b.iv);
    assert_ne!(a.uuid, b.uuid);
    assert_eq!(a.kdf, Kdf::standard(KdfKind::Pbkdf2, match &a.kdf { Kdf::Pbkdf2 { salt, .. } => salt.clone(), _ => unreachable!() }));
    assert_eq!(&a.uuid[14..15], "4", "a version-4 UUID");
    assert!(a.description.is_none() && !a.to_json().contains("description"));
    assert_eq!(Keystore::from_json(&a.to_json()).unwrap().decrypt("pw").unwrap(), sk);
    assert!(matches!(Keystore::encrypt(&sk, "pw", KdfKind::Scrypt, "m/x", "", &mut rng), Err(KeystoreError::Path(_))));
    assert!(matches!(Keystore::encrypt_with(&sk, "pw", cheap(KdfKind::Scrypt, vec![]), [0; 16], "not-a-uuid", "", ""), Err(KeystoreError::Field { field: "uuid", .. })));
}

/// A small valid keystore's JSON as a value, to break one field at a time.
fn sample() -> (Value, SecretKey) {
    let sk = SecretKey::derive_master(&[8u8; 32]).unwrap();
    let ks = Keystore::encrypt_with(&sk, "pw", cheap(KdfKind::Scrypt, vec![9; 32]), [1; 16], UUID, "m/12381/3600/0/0/0", "d").unwrap();
    (serde_json::from_str(&ks.to_json()).unwrap(), sk)
}

fn parse(v: &Value) -> Result<Keystore, KeystoreError> {
    Keystore::from_json(&serde_json::to_string(v).unwrap())
}

#[test]
fn malformed_keystores_get_typed_errors() {
    let (base, _) = sample();
    assert!(parse(&base).is_ok());
    let field = |f: &dyn Fn(&mut Value)| {
        let mut v = base.clone();
        f(&mut v);
        parse(&v)
    };
    assert!(matches!(Keystore::from_json("{"), Err(KeystoreError::Json(_))));
    assert!(matches!(Keystore::from_json("[]"), Err(KeystoreError::Field { .. })));
    assert_eq!(field(&|v| v["version"] = 3.into()).unwrap_err(), KeystoreError::Version(3));
    assert!(matches!(field(&|v| v["version"] = "4".into()), Err(KeystoreError::Field { field: "version", .. })));
    assert!(matches!(field(&|v| { v.as_object_mut().unwrap().remove("crypto"); }), Err(KeystoreError::Field { field: "crypto", .. })));
    assert!(matches!(field(&|v| { v.as_object_mut().unwrap().remove("uuid"); }), Err(KeystoreError::Field { field: "uuid", .. })));
    assert!(matches!(field(&|v| { v.as_object_mut().unwrap().remove("path"); }), Err(KeystoreError::Field { field: "path", .. })));
    assert!(matches!(field(&|v| v["path"] = "m/a".into()), Err(KeystoreError::Path(_))));
    assert!(matches!(field(&|v| v["uuid"] = "1d85ae20-35c5-4611-98e8-aa14a633906".into()), Err(KeystoreError::Field { field: "uuid", .. })));
    assert!(matches!(field(&|v| v["crypto"]["kdf"]["function"] = "argon2id".into()), Err(KeystoreError::Function { module: "kdf", .. })));
    assert!(matches!(field(&|v| v["crypto"]["checksum"]["function"] = "keccak256".into()), Err(KeystoreError::Function { module: "checksum", .. })));
    assert!(matches!(field(&|v| v["crypto"]["cipher"]["function"] = "aes-256-gcm".into()), Err(KeystoreError::Function { module: "cipher", .. })));
    assert!(matches!(field(&|v| v["crypto"]["kdf"]["params"]["dklen"] = 16.into()), Err(KeystoreError::KdfParams(_))));
    assert!(matches!(field(&|v| v["crypto"]["kdf"]["params"]["salt"] = "abc".into()), Err(KeystoreError::Field { field: "crypto.kdf.params.salt", .. })));
    assert!(matches!(field(&|v| v["crypto"]["kdf"]["params"]["salt"] = "zz".into()), Err(KeystoreError::Field { field: "crypto.kdf.params.salt", .. })));
    assert!(matches!(field(&|v| v["crypto"]["cipher"]["params"]["iv"] = "00".into()), Err(KeystoreError::Field { field: "crypto.cipher.params.iv", .. })));
    assert!(matches!(field(&|v| v["crypto"]["checksum"]["message"] = "00".into()), Err(KeystoreError::Field { field: "crypto.checksum.message", .. })));
    assert!(matches!(field(&|v| v["crypto"]["kdf"]["params"]["n"] = (-1).into()), Err(KeystoreError::Field { field: "crypto.kdf.params.n", .. })));
    assert!(matches!(field(&|v| v["pubkey"] = "00".into()), Err(KeystoreError::Field { field: "pubkey", .. })));
    assert!(matches!(field(&|v| v["description"] = 5.into()), Err(KeystoreError::Field { field: "description", .. })));
    // hex with a 0x prefix, an empty pubkey, no description: accepted
    let ok = field(&|v| {
        let iv = v["crypto"]["cipher"]["params"]["iv"].as_str().unwrap().to_string();
        v["crypto"]["cipher"]["params"]["iv"] = format!("0x{iv}").into();
        v["pubkey"] = "".into();
        v.as_object_mut().unwrap().remove("description");
    })
    .unwrap();
    assert!(ok.pubkey.is_none() && ok.description.is_none());
    assert!(ok.decrypt("pw").is_ok());
}

#[test]
fn kdf_bounds_are_checked_before_any_work() {
    let (base, _) = sample();
    let with_kdf = |kdf: Value| {
        let mut v = base.clone();
        v["crypto"]["kdf"] = kdf;
        parse(&v).unwrap().decrypt("pw")
    };
    let scrypt = |n: u64, r: u64, p: u64| serde_json::json!({"function": "scrypt", "params": {"dklen": 32, "n": n, "r": r, "p": p, "salt": ""}, "message": ""});
    for (n, r, p) in [(0, 8, 1), (1, 8, 1), (3, 8, 1), (1 << 40, 8, 1), (1 << 22, 8, 1), (16, 0, 1), (16, 8, 0), (16, 8, 17), (16, u64::MAX, 1)] {
        assert!(matches!(with_kdf(scrypt(n, r, p)), Err(KeystoreError::KdfParams(_))), "scrypt n={n} r={r} p={p}");
    }
    let pbkdf2 = |c: u64| serde_json::json!({"function": "pbkdf2", "params": {"dklen": 32, "c": c, "prf": "hmac-sha256", "salt": ""}, "message": ""});
    for c in [0, (1 << 24) + 1, u64::MAX] {
        assert!(matches!(with_kdf(pbkdf2(c)), Err(KeystoreError::KdfParams(_))), "pbkdf2 c={c}");
    }
    // valid but different parameters: a wrong-password answer, not a refusal
    assert_eq!(with_kdf(pbkdf2(2)), Err(KeystoreError::WrongPassword));
    let mut v = base.clone();
    v["crypto"]["kdf"]["params"]["prf"] = "hmac-sha512".into();
    v["crypto"]["kdf"]["function"] = "pbkdf2".into();
    v["crypto"]["kdf"]["params"]["c"] = 2.into();
    assert!(matches!(parse(&v), Err(KeystoreError::Function { module: "kdf prf", .. })));
}

/// A keystore holding `secret` (any bytes) under "pw", built with the EIP's steps by hand.
fn keystore_of(secret: &[u8], pubkey: Option<[u8; 48]>) -> Keystore {
    let kdf = cheap(KdfKind::Pbkdf2, vec![5; 32]);
    let dk = kdf.derive(&normalize_password("pw")).unwrap();
    let iv = [3u8; 16];
    let mut ct = secret.to_vec();
    ctr::Ctr128BE::<aes::Aes128>::new(dk[..16].into(), (&iv).into()).apply_keystream(&mut ct);
    let mut h = Sha256::new();
    h.update(&dk[16..]);
    h.update(&ct);
    Keystore { kdf, checksum: h.finalize().into(), iv, ciphertext: ct, pubkey, path: String::new(), uuid: UUID.into(), description: None }
}

#[test]
fn decrypted_secrets_are_checked() {
    let sk = SecretKey::derive_master(&[2u8; 32]).unwrap();
    let other = SecretKey::derive_master(&[3u8; 32]).unwrap();
    assert_eq!(keystore_of(&sk.to_bytes()[..], Some(sk.public_key().to_bytes())).decrypt("pw").unwrap(), sk);
    assert_eq!(keystore_of(&sk.to_bytes()[..], None).decrypt("pw").unwrap(), sk);
    assert_eq!(keystore_of(&sk.to_bytes()[..], Some(other.public_key().to_bytes())).decrypt("pw"), Err(KeystoreError::PublicKeyMismatch));
    assert_eq!(keystore_of(&[0u8; 32], None).decrypt("pw"), Err(KeystoreError::Secret(BlsError::InvalidSecretKey)));
    assert_eq!(keystore_of(&[0xffu8; 32], None).decrypt("pw"), Err(KeystoreError::Secret(BlsError::InvalidSecretKey)));
    assert!(matches!(keystore_of(&[1u8; 31], None).decrypt("pw"), Err(KeystoreError::Secret(BlsError::WrongLength { .. }))));
    // other secrets come out of decrypt_secret as they are
    assert_eq!(keystore_of(b"any secret", None).decrypt_secret("pw").unwrap().to_vec(), b"any secret".to_vec());
    // a flipped ciphertext bit fails the checksum
    let mut ks = keystore_of(&sk.to_bytes()[..], None);
    ks.ciphertext[0] ^= 1;
    assert_eq!(ks.decrypt("pw"), Err(KeystoreError::WrongPassword));
}

//! `zkforge bls`: keygen (EIP-2333's master key from its seed), sign, verify in its three forms
//! (exit 0 valid, 1 invalid), aggregate, and refusals in plain words (exit 2): an existing key
//! file, short key material, a signature that does not decode, unmatched messages.
use std::process::{Command, Output};

fn zkforge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zkforge")).args(args).output().expect("run zkforge")
}

fn field(out: &Output, name: &str) -> String {
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().find_map(|l| l.strip_prefix(name).map(|r| r.trim().to_string())).unwrap_or_else(|| panic!("no {name} in {text}"))
}

fn keygen(dir: &std::path::Path, name: &str, ikm: &str) -> (String, String) {
    let path = dir.join(name);
    let out = zkforge(&["bls", "keygen", "--ikm", ikm, "--out", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    (path.to_str().unwrap().to_string(), field(&out, "public_key "))
}

#[test]
fn keygen_sign_verify_aggregate() {
    let dir = std::env::temp_dir().join(format!("zkforge-bls-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // EIP-2333 test case 1: the seed's master key
    let (k1, pk1) = keygen(&dir, "a.key", "0x3141592653589793238462643383279502884197169399375105820974944592");
    assert_eq!(std::fs::read_to_string(&k1).unwrap().trim(), "0x41c9e07822b092a93fd6797396338c3ada4170cc81829fdfce6b5d34bd5e7ec7");
    let (k2, pk2) = keygen(&dir, "b.key", &"ab".repeat(40));
    let sign = |k: &str, m: &str| field(&zkforge(&["bls", "sign", "--key", k, "--message", m]), "signature ");
    let s1 = sign(&k1, "0x5656");
    let v = |args: &[&str]| zkforge(&[&["bls", "verify"], args].concat()).status.code();
    assert_eq!(v(&["--public-key", &pk1, "--message", "0x5656", "--signature", &s1]), Some(0));
    assert_eq!(v(&["--public-key", &pk1, "--message", "0x5657", "--signature", &s1]), Some(1));
    assert_eq!(v(&["--public-key", &pk2, "--message", "0x5656", "--signature", &s1]), Some(1));
    // a message file
    let mf = dir.join("msg");
    std::fs::write(&mf, [0x56u8, 0x56]).unwrap();
    assert_eq!(v(&["--public-key", &pk1, "--message-file", mf.to_str().unwrap(), "--signature", &s1]), Some(0));
    // two keys, one message: FastAggregateVerify
    let s2 = sign(&k2, "0x5656");
    let agg = field(&zkforge(&["bls", "aggregate", "--signature", &s1, "--signature", &s2]), "signature ");
    assert_eq!(v(&["--public-key", &pk1, "--public-key", &pk2, "--message", "0x5656", "--signature", &agg]), Some(0));
    assert_eq!(v(&["--public-key", &pk1, "--message", "0x5656", "--signature", &agg]), Some(1));
    // two keys, two messages: AggregateVerify
    let s3 = sign(&k2, "0x01");
    let agg2 = field(&zkforge(&["bls", "aggregate", "--signature", &s1, "--signature", &s3]), "signature ");
    assert_eq!(v(&["--public-key", &pk1, "--public-key", &pk2, "--message", "0x5656", "--message", "0x01", "--signature", &agg2]), Some(0));
    assert_eq!(v(&["--public-key", &pk1, "--public-key", &pk2, "--message", "0x01", "--message", "0x5656", "--signature", &agg2]), Some(1));
    // refusals: exit 2, plain words, no Debug output
    let again = zkforge(&["bls", "keygen", "--ikm", &"ab".repeat(40), "--out", &k1]);
    assert_eq!(again.status.code(), Some(2));
    let err = String::from_utf8_lossy(&again.stderr).to_string();
    assert!(err.contains("already exists"), "{err}");
    let short = zkforge(&["bls", "keygen", "--ikm", "0x0102", "--out", dir.join("c.key").to_str().unwrap()]);
    assert_eq!(short.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&short.stderr).contains("32 bytes"));
    let bad = zkforge(&["bls", "verify", "--public-key", &pk1, "--message", "0x56", "--signature", "0x00"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&bad.stderr).contains("WrongLength"), "a Debug value leaked");
    let three = zkforge(&["bls", "verify", "--public-key", &pk1, "--public-key", &pk2, "--message", "0x01", "--message", "0x02", "--message", "0x03", "--signature", &agg2]);
    assert_eq!(three.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

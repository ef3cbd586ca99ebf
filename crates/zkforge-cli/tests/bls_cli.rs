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

/// EIP-2333/2334 derivation and EIP-2335 keystores through the command: `keygen --path` gives
/// the EIP-2333 child key, `--password-file` writes a keystore that `sign` opens with the
/// password (and refuses without it or with a wrong one, in plain words), and the EIP's own
/// keystore vector signs like its secret.
#[test]
fn keystores_and_key_paths() {
    let dir = std::env::temp_dir().join(format!("zkforge-bls-ks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let sign = |args: &[&str]| zkforge(&[&["bls", "sign", "--message", "0x5656"], args].concat());
    // EIP-2333 test case 3: seed -> child 42
    let seed = "0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3";
    let out = zkforge(&["bls", "keygen", "--ikm", seed, "--path", "m/42", "--out", &p("child.key")]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(p("child.key")).unwrap().trim(), "0x455c0dc9fccb3395825d92a60d2672d69416be1c2578a87a7a3d3ced11ebb88d");
    let by_hex = field(&sign(&["--key", &p("child.key")]), "signature ");
    // the same key into a keystore (PBKDF2 here: quicker than scrypt), signed through it
    std::fs::write(p("pw"), "correct horse battery staple\n").unwrap();
    let out = zkforge(&["bls", "keygen", "--ikm", seed, "--path", "m/42", "--password-file", &p("pw"), "--kdf", "pbkdf2", "--description", "test", "--out", &p("child.json")]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let ks: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(p("child.json")).unwrap()).unwrap();
    assert_eq!(ks["version"], 4);
    assert_eq!(ks["path"], "m/42");
    assert_eq!(ks["description"], "test");
    assert_eq!(ks["crypto"]["kdf"]["function"], "pbkdf2");
    assert_eq!(format!("0x{}", ks["pubkey"].as_str().unwrap()), field(&out, "public_key "));
    assert_eq!(field(&sign(&["--key", &p("child.json"), "--password-file", &p("pw")]), "signature "), by_hex);
    // refusals in plain words, exit 2
    let no_pw = sign(&["--key", &p("child.json")]);
    assert_eq!(no_pw.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&no_pw.stderr).contains("--password-file"), "{}", String::from_utf8_lossy(&no_pw.stderr));
    std::fs::write(p("bad_pw"), "wrong").unwrap();
    let wrong = sign(&["--key", &p("child.json"), "--password-file", &p("bad_pw")]);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("wrong password"), "{}", String::from_utf8_lossy(&wrong.stderr));
    let bad_path = zkforge(&["bls", "keygen", "--ikm", seed, "--path", "m/x", "--out", &p("x.key")]);
    assert_eq!(bad_path.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad_path.stderr).contains("m/12381/3600/0/0/0"));
    std::fs::write(p("broken.json"), "{\"version\": 3}").unwrap();
    let broken = sign(&["--key", &p("broken.json"), "--password-file", &p("pw")]);
    assert_eq!(broken.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&broken.stderr).contains("version 3"), "{}", String::from_utf8_lossy(&broken.stderr));
    // EIP-2335's PBKDF2 test vector signs as its secret does
    let v: serde_json::Value = serde_json::from_str(include_str!("../../zkforge-bls/tests/vectors/eip2335_keystores.json")).unwrap();
    std::fs::write(p("eip.json"), serde_json::to_string(&v["keystores"][1]).unwrap()).unwrap();
    std::fs::write(p("eip_pw"), v["password"].as_str().unwrap()).unwrap();
    std::fs::write(p("eip.key"), format!("0x{}", v["secret"].as_str().unwrap())).unwrap();
    assert_eq!(field(&sign(&["--key", &p("eip.json"), "--password-file", &p("eip_pw")]), "signature "), field(&sign(&["--key", &p("eip.key")]), "signature "));
    std::fs::remove_dir_all(&dir).ok();
}

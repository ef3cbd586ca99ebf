//! `zkforge hashsig` end to end: keygen from the reference seed gives leanSig's SSZ public key
//! byte for byte; sign, verify, refusal to sign an epoch twice, rejection of a wrong epoch.

use std::process::Command;

const SCHEME: &str = "poseidon2_toplevel_lifetime8_dim64_base8";
const SEED: &str = "4242424242424242424242424242424242424242424242424242424242424242";
const MSG: &str = "ccbebb1a7e7e65bbaa09a7783fe4e9adb7f7a0e6a9f4f31c96eb4c1dc6854ab6";
// leanSig f477348, SIGTopLevelTargetSumLifetime8Dim64Base8, seed 0x42 * 32 (vectors in
// crates/zkforge-hashsig/tests/vectors)
const PK_SSZ: &str = "8a505a6b2bbc28049f4af16a9c1dc6204715017e941ea57842a29c51dbb6fb298602e50e7a500506efe12b1080bc487cf9029d0f";

fn zkforge(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_zkforge")).args(args).output().expect("run zkforge")
}

#[test]
fn keygen_sign_verify() {
    let dir = std::env::temp_dir().join(format!("zkforge-cli-hashsig-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let out = zkforge(&["hashsig", "keygen", "--scheme", SCHEME, "--seed", SEED, "--activation-epoch", "0", "--active-epochs", "256", "--encoding", "ssz", "--public-key-out", &p("pk"), "--secret-key-out", &p("sk")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let pk: String = std::fs::read(dir.join("pk")).unwrap().iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(pk, PK_SSZ);
    let out = zkforge(&["hashsig", "sign", "--scheme", SCHEME, "--secret-key", &p("sk"), "--epoch", "5", "--message", MSG, "--signature-out", &p("sig")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let verify = |epoch: &str| zkforge(&["hashsig", "verify", "--scheme", SCHEME, "--public-key", &p("pk"), "--epoch", epoch, "--message", MSG, "--signature", &p("sig")]);
    assert!(verify("5").status.success());
    assert_eq!(verify("6").status.code(), Some(1));
    // epoch 5 is used; so is everything below it
    for e in ["5", "4"] {
        let out = zkforge(&["hashsig", "sign", "--scheme", SCHEME, "--secret-key", &p("sk"), "--epoch", e, "--message", MSG, "--signature-out", &p("sig2")]);
        assert!(!out.status.success());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The other families through the same commands: hash-sig's Winternitz 2^18 with the StdRng
/// seed (bincode-legacy), and leanSig devnet 4 (SSZ); public keys byte for byte.
#[test]
fn winternitz_and_devnet4_keys() {
    let dir = std::env::temp_dir().join(format!("zkforge-cli-hashsig2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = |f: &str| dir.join(f).to_string_lossy().into_owned();
    for (scheme, epochs, enc, want) in [
        ("poseidon2_winternitz_lifetime18_w8", "1024", "bincode-legacy", "0df0546031d42536c236ff159afb5b22a74b2e78c802605115a1b361998143437ac01e6ee4d3dd762d73b96f484fa34d"),
        ("leansig_head_aborting_lifetime8_dim46_base8", "256", "ssz", "284af619f3b29451e2766755bf720371a26ab31e564ae874c9f3a250d971662bb6823a5184bed80be3f3eb51deffbf70acfbc334"),
    ] {
        let out = zkforge(&["hashsig", "keygen", "--scheme", scheme, "--seed", SEED, "--active-epochs", epochs, "--rng", "std", "--encoding", enc, "--public-key-out", &p("pk"), "--secret-key-out", &p("sk")]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let pk: String = std::fs::read(dir.join("pk")).unwrap().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(pk, want, "{scheme}");
        let out = zkforge(&["hashsig", "sign", "--scheme", scheme, "--secret-key", &p("sk"), "--epoch", "300", "--message", MSG, "--encoding", enc, "--signature-out", &p("sig")]);
        assert!(out.status.success() == (scheme != "leansig_head_aborting_lifetime8_dim46_base8"), "{}", String::from_utf8_lossy(&out.stderr));
        let out = zkforge(&["hashsig", "sign", "--scheme", scheme, "--secret-key", &p("sk"), "--epoch", "200", "--message", MSG, "--encoding", enc, "--signature-out", &p("sig")]);
        if scheme.starts_with("leansig") {
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            let out = zkforge(&["hashsig", "verify", "--scheme", scheme, "--public-key", &p("pk"), "--epoch", "200", "--message", MSG, "--signature", &p("sig"), "--encoding", enc]);
            assert!(out.status.success());
        }
        std::fs::remove_file(dir.join("sk")).ok();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

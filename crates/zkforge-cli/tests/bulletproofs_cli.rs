//! `zkforge bulletproofs`: prove then verify on every group (exit 0), a wrong order or label
//! (exit 1), bad input in plain words (exit 2), and a proof file.
use std::process::{Command, Output};

fn zkforge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zkforge")).args(args).output().expect("run zkforge")
}

fn field<'a>(out: &'a str, name: &str) -> Vec<&'a str> {
    out.lines().filter_map(|l| l.strip_prefix(name).map(|r| r.trim())).collect()
}

#[test]
fn prove_verify_every_group() {
    for group in ["ristretto255", "bls12-381-g1", "bn254-g1"] {
        let out = zkforge(&["bulletproofs", "prove", "--group", group, "--bits", "12", "--value", "4095", "--value", "0", "--value", "17"]);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        let cs = field(&text, "commitment ");
        assert_eq!(cs.len(), 3);
        assert_eq!(field(&text, "blinding ").len(), 3);
        let proof = field(&text, "proof ")[0];
        let mut args = vec!["bulletproofs", "verify", "--group", group, "--bits", "12", "--proof", proof];
        for c in &cs {
            args.extend(["--commitment", c]);
        }
        assert_eq!(zkforge(&args).status.code(), Some(0), "{group}");
        // another order, another label, another bit size: invalid (exit 1)
        let mut swapped = vec!["bulletproofs", "verify", "--group", group, "--bits", "12", "--proof", proof];
        for c in [cs[1], cs[0], cs[2]] {
            swapped.extend(["--commitment", c]);
        }
        assert_eq!(zkforge(&swapped).status.code(), Some(1));
        let mut other = args.clone();
        other.extend(["--label", "other"]);
        assert_eq!(zkforge(&other).status.code(), Some(1));
        // a proof file in hex
        let dir = std::env::temp_dir().join(format!("zkforge-bp-{group}-{}", std::process::id()));
        std::fs::write(&dir, proof).unwrap();
        let mut file_args = vec!["bulletproofs", "verify", "--group", group, "--bits", "12", "--proof-file", dir.to_str().unwrap()];
        for c in &cs {
            file_args.extend(["--commitment", c]);
        }
        assert_eq!(zkforge(&file_args).status.code(), Some(0));
        std::fs::remove_file(&dir).ok();
    }
}

#[test]
fn plus_proofs() {
    let out = zkforge(&["bulletproofs", "prove", "--plus", "--bits", "64", "--value", "18446744073709551615"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let c = field(&text, "commitment ")[0];
    let proof = field(&text, "proof ")[0];
    assert_eq!(proof.len(), 2 + 2 * 576);
    assert_eq!(zkforge(&["bulletproofs", "verify", "--plus", "--commitment", c, "--proof", proof]).status.code(), Some(0));
    // a Bulletproofs+ proof is not a Bulletproof
    assert_ne!(zkforge(&["bulletproofs", "verify", "--commitment", c, "--proof", proof]).status.code(), Some(0));
}

#[test]
fn tari_format() {
    let out = zkforge(&["bulletproofs", "prove", "--tari", "--bits", "32", "--value", "7", "--value", "9"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let cs = field(&text, "commitment ");
    let proof = field(&text, "proof ")[0];
    let ok = zkforge(&["bulletproofs", "verify", "--tari", "--bits", "32", "--commitment", cs[0], "--commitment", cs[1], "--proof", proof]);
    assert_eq!(ok.status.code(), Some(0));
    assert_eq!(zkforge(&["bulletproofs", "verify", "--plus", "--bits", "32", "--commitment", cs[0], "--commitment", cs[1], "--proof", proof]).status.code().map(|c| c != 0), Some(true));
    assert_eq!(zkforge(&["bulletproofs", "prove", "--tari", "--bits", "12", "--value", "7"]).status.code(), Some(2));
    assert_eq!(zkforge(&["bulletproofs", "prove", "--tari", "--group", "bn254-g1", "--value", "7"]).status.code(), Some(2));
}

#[test]
fn input_errors_are_plain() {
    for args in [
        vec!["bulletproofs", "prove", "--value", "70000", "--bits", "16"],
        vec!["bulletproofs", "prove", "--value", "1", "--group", "secp256k1"],
        vec!["bulletproofs", "prove", "--value", "1", "--bits", "65"],
        vec!["bulletproofs", "prove", "--value", "1", "--blinding", "zz"],
        vec!["bulletproofs", "prove", "--value", "1", "--blinding", "0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"],
        vec!["bulletproofs", "verify", "--commitment", "0x00", "--proof", "0x00"],
        vec!["bulletproofs", "verify", "--commitment", "0x0000000000000000000000000000000000000000000000000000000000000000", "--proof", "0x00"],
        vec!["bulletproofs", "verify", "--commitment", "0x0000000000000000000000000000000000000000000000000000000000000000", "--proof-file", "/nonexistent/proof"],
    ] {
        let out = zkforge(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: ") && !err.contains("Err(") && !err.contains("{ "), "{args:?}: {err}");
    }
}

//! Every precompile vector file: go-ethereum's success and failure files, the EIP-2537
//! authors' vectors, BN254 vectors from aurora-engine and evmone, and c-kzg's verify_kzg_proof
//! cases as POINT_EVALUATION inputs. Success files: output bytes and gas; failure files: an
//! error, of the class the case name or geth's error string says.

use serde_json::Value;
use zkforge_evm::{call, PrecompileError};

fn dir() -> String {
    format!("{}/tests/vectors", env!("CARGO_MANIFEST_DIR"))
}

fn load(path: &str) -> Vec<Value> {
    let full = format!("{}/{path}", dir());
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))).unwrap();
    v.as_array().unwrap_or_else(|| panic!("{full}: not an array")).clone()
}

fn unhex(s: &str) -> Vec<u8> {
    let s = s.trim_start_matches("0x");
    assert!(s.len() % 2 == 0, "odd hex");
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Run every success case of `file` at `address`; returns the count.
fn success(address: u8, file: &str) -> usize {
    let cases = load(file);
    for c in &cases {
        let name = c["Name"].as_str().unwrap_or("?");
        let input = unhex(c["Input"].as_str().unwrap());
        let gas = c["Gas"].as_u64().unwrap();
        let out = call(address, &input, gas).unwrap_or_else(|e| panic!("{file} {name}: {e}"));
        assert_eq!(hex(&out.bytes), c["Expected"].as_str().unwrap().to_lowercase(), "{file} {name}");
        assert_eq!(out.gas_used, gas, "{file} {name}: gas");
        // one gas short is out of gas
        if gas > 0 {
            assert!(matches!(call(address, &input, gas - 1), Err(PrecompileError::OutOfGas { .. })), "{file} {name}");
        }
    }
    cases.len()
}

/// The error class a failure case names (geth's error string or the EIP file's case name).
fn expected_class(c: &Value) -> Option<&'static str> {
    let text = format!("{} {}", c["ExpectedError"].as_str().unwrap_or(""), c["Name"].as_str().unwrap_or("")).to_lowercase();
    let classes: [(&str, &'static str); 8] = [
        ("invalid input length", "length"),
        ("invalid_length", "length"),
        ("short_input", "length"),
        ("large_input", "length"),
        ("empty_input", "length"),
        ("invalid field element top bytes", "padding"),
        ("invalid_top_bytes", "padding"),
        ("violate_top_bytes", "padding"),
    ];
    for (needle, class) in classes {
        if text.contains(needle) {
            return Some(class);
        }
    }
    for (needle, class) in [
        ("invalid fp.element encoding", "field"),
        ("must be less than modulus", "field"),
        ("not less than modulus", "field"),
        ("invalid_fp_encoding", "field"),
        ("invalid_fp2_encoding", "field"),
        ("fp_larger_than_p", "field"),
        ("not_on_curve", "curve"),
        ("not on curve", "curve"),
        ("point is not on curve", "curve"),
        ("not in correct subgroup", "subgroup"),
        ("not_in_subgroup", "subgroup"),
        ("g1 point is not in", "subgroup"),
        ("g2 point is not in", "subgroup"),
        ("point is not on correct subgroup", "subgroup"),
    ] {
        if text.contains(needle) {
            return Some(class);
        }
    }
    None
}

fn class_of(e: &PrecompileError) -> &'static str {
    match e {
        PrecompileError::InvalidLength { .. } => "length",
        PrecompileError::InvalidPadding => "padding",
        PrecompileError::NonCanonicalField => "field",
        PrecompileError::NotOnCurve => "curve",
        PrecompileError::NotInSubgroup => "subgroup",
        PrecompileError::OutOfGas { .. } => "gas",
        _ => "other",
    }
}

/// Run every failure case of `file` at `address` with ample gas; returns (cases, classes checked).
fn failure(address: u8, file: &str) -> (usize, usize) {
    let cases = load(file);
    let mut classed = 0;
    for c in &cases {
        let name = c["Name"].as_str().unwrap_or("?");
        let input = unhex(c["Input"].as_str().unwrap());
        let err = call(address, &input, 100_000_000).err().unwrap_or_else(|| panic!("{file} {name}: succeeded"));
        if let Some(class) = expected_class(c) {
            assert_eq!(class_of(&err), class, "{file} {name}: {err} ({})", c["ExpectedError"]);
            classed += 1;
        }
    }
    (cases.len(), classed)
}

#[test]
fn bn254_geth_and_extra() {
    let mut n = 0;
    n += success(0x06, "bn256Add.json");
    n += success(0x07, "bn256ScalarMul.json");
    n += success(0x08, "bn256Pairing.json");
    n += success(0x06, "bn254-extra/aurora_ecadd.json");
    n += success(0x07, "bn254-extra/aurora_ecmul.json");
    n += success(0x08, "bn254-extra/aurora_ecpairing.json");
    n += success(0x06, "bn254-extra/evmone_ecadd.json");
    n += success(0x07, "bn254-extra/evmone_ecmul.json");
    assert_eq!(n, 16 + 19 + 14 + 17 + 63 + 52 + 42 + 90);
    println!("BN254: {n} vectors");
}

#[test]
fn eip2537_geth_success() {
    let mut n = 0;
    for (a, f) in [
        (0x0b, "blsG1Add.json"),
        (0x0c, "blsG1Mul.json"),
        (0x0c, "blsG1MultiExp.json"),
        (0x0d, "blsG2Add.json"),
        (0x0e, "blsG2Mul.json"),
        (0x0e, "blsG2MultiExp.json"),
        (0x0f, "blsPairing.json"),
        (0x10, "blsMapG1.json"),
        (0x11, "blsMapG2.json"),
    ] {
        n += success(a, f);
    }
    assert_eq!(n, 112 + 11 + 154 + 112 + 11 + 153 + 106 + 105 + 105);
    println!("EIP-2537 geth success: {n}");
}

#[test]
fn eip2537_geth_failures() {
    let (mut n, mut classed) = (0, 0);
    for (a, f) in [
        (0x0b, "fail-blsG1Add.json"),
        (0x0c, "fail-blsG1Mul.json"),
        (0x0c, "fail-blsG1MultiExp.json"),
        (0x0d, "fail-blsG2Add.json"),
        (0x0e, "fail-blsG2Mul.json"),
        (0x0e, "fail-blsG2MultiExp.json"),
        (0x0f, "fail-blsPairing.json"),
        (0x10, "fail-blsMapG1.json"),
        (0x11, "fail-blsMapG2.json"),
    ] {
        let (c, k) = failure(a, f);
        n += c;
        classed += k;
    }
    assert_eq!(n, 6 + 7 + 7 + 6 + 7 + 7 + 9 + 5 + 5);
    println!("EIP-2537 geth failures: {n}, error class checked on {classed}");
    assert!(classed * 10 >= n * 9, "error classes named for only {classed} of {n}");
}

#[test]
fn eip2537_authors_vectors() {
    let mut n = 0;
    for (a, f) in [
        (0x0b, "add_G1_bls.json"),
        (0x0d, "add_G2_bls.json"),
        (0x0c, "mul_G1_bls.json"),
        (0x0e, "mul_G2_bls.json"),
        (0x0c, "msm_G1_bls.json"),
        (0x0e, "msm_G2_bls.json"),
        (0x0f, "pairing_check_bls.json"),
        (0x10, "map_fp_to_G1_bls.json"),
        (0x11, "map_fp2_to_G2_bls.json"),
    ] {
        n += success(a, &format!("eip2537/{f}"));
    }
    let (mut fails, mut classed) = (0, 0);
    for (a, f) in [
        (0x0b, "fail-add_G1_bls.json"),
        (0x0d, "fail-add_G2_bls.json"),
        (0x0c, "fail-mul_G1_bls.json"),
        (0x0e, "fail-mul_G2_bls.json"),
        (0x0c, "fail-msm_G1_bls.json"),
        (0x0e, "fail-msm_G2_bls.json"),
        (0x0f, "fail-pairing_check_bls.json"),
        (0x10, "fail-map_fp_to_G1_bls.json"),
        (0x11, "fail-map_fp2_to_G2_bls.json"),
    ] {
        let (c, k) = failure(a, &format!("eip2537/{f}"));
        fails += c;
        classed += k;
    }
    println!("EIP-2537 authors: {n} success, {fails} failures ({classed} with the error class checked)");
    assert_eq!(n, 9 + 9 + 11 + 11 + 40 + 40 + 15 + 5 + 5);
    assert_eq!(fails, 7 + 7 + 8 + 8 + 8 + 8 + 25 + 5 + 5);
}

/// One field of c-kzg's data.yaml: `  key: '0x...'` (or `output: true|false|null`).
fn yaml_field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines().find_map(|l| l.trim().strip_prefix(&format!("{key}:")).map(|v| v.trim().trim_matches('\'')))
}

#[test]
fn point_evaluation_c_kzg_verify_cases() {
    use zkforge_evm::point_evaluation::{versioned_hash, RETURN_VALUE};
    let d = format!("{}/kzg_verify", dir());
    let mut entries: Vec<_> = std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    let (mut ok, mut bad) = (0, 0);
    for path in &entries {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let [c, z, y, p] = ["commitment", "z", "y", "proof"].map(|k| unhex(yaml_field(&text, k).unwrap()));
        let expect_ok = yaml_field(&text, "output") == Some("true");
        let mut input = Vec::new();
        input.extend_from_slice(&versioned_hash(&c));
        for part in [&z, &y, &c, &p] {
            input.extend_from_slice(part);
        }
        let r = call(0x0a, &input, 50_000);
        if expect_ok {
            let out = r.unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(out.bytes, RETURN_VALUE.to_vec());
            assert_eq!(out.gas_used, 50_000);
            ok += 1;
        } else {
            // wrong-length fields (c-kzg's invalid-length cases) make a wrong-length input
            let e = r.err().unwrap_or_else(|| panic!("{name}: succeeded"));
            assert!(matches!(e, PrecompileError::KzgProofInvalid | PrecompileError::InvalidLength { .. }), "{name}: {e}");
            bad += 1;
        }
    }
    println!("point evaluation: {ok} valid, {bad} invalid");
    assert_eq!(ok + bad, 122);
    // the versioned hash is checked before the proof
    let mut input = vec![0u8; 192];
    input[96] = 0xc0;
    input[144] = 0xc0;
    assert_eq!(call(0x0a, &input, 50_000), Err(PrecompileError::VersionedHashMismatch));
    let vh = versioned_hash(&input[96..144]);
    input[..32].copy_from_slice(&vh);
    assert!(call(0x0a, &input, 50_000).is_ok(), "commitment and proof at infinity open to 0 at 0");
    assert!(matches!(call(0x0a, &input, 49_999), Err(PrecompileError::OutOfGas { .. })));
    assert!(matches!(call(0x0a, &input[..191], 50_000), Err(PrecompileError::InvalidLength { .. })));
}

/// PAIRING_CHECK's two G2 tests (`G2Check::InMillerLoop`, the default, and `Separate`) on every
/// pairing vector file, success and failure: the same output and gas, or the same error.
#[test]
fn pairing_check_g2_test_both_ways() {
    use zkforge_evm::bls12_381::{pairing_check_with, G2Check};
    let mut n = 0;
    for f in ["blsPairing.json", "fail-blsPairing.json", "eip2537/pairing_check_bls.json", "eip2537/fail-pairing_check_bls.json"] {
        for c in load(f) {
            let input = unhex(c["Input"].as_str().unwrap());
            let gas = c["Gas"].as_u64().unwrap_or(u64::MAX);
            let a = pairing_check_with(&input, gas, G2Check::InMillerLoop);
            let b = pairing_check_with(&input, gas, G2Check::Separate);
            assert_eq!(a, b, "{f} {}", c["Name"]);
            n += 1;
        }
    }
    assert!(n >= 40, "{n} cases");
}

/// MAP_FP_TO_G1 and MAP_FP2_TO_G2 with both inverses (`MapInverse::Vartime`, the default, and
/// `ConstantTime`) on every map vector file, success and failure, and on random and edge field
/// elements (0, 1, p - 1 in each coordinate, where the SSWU denominator is zero for u = 0): the
/// same output and gas, or the same error. The success files' expected outputs are checked by
/// `success` through the default.
#[test]
fn maps_both_inverses() {
    use zkforge_evm::bls12_381::{map_fp2_to_g2_with, map_fp_to_g1_with, MapInverse};
    type Map = fn(&[u8], u64, MapInverse) -> Result<zkforge_evm::Output, PrecompileError>;
    let both = |f: Map, input: &[u8], what: &str| {
        let a = f(input, u64::MAX, MapInverse::Vartime);
        let b = f(input, u64::MAX, MapInverse::ConstantTime);
        assert_eq!(a, b, "{what}");
    };
    let mut n = 0;
    for (file, f) in [
        ("blsMapG1.json", map_fp_to_g1_with as Map),
        ("fail-blsMapG1.json", map_fp_to_g1_with),
        ("eip2537/map_fp_to_G1_bls.json", map_fp_to_g1_with),
        ("eip2537/fail-map_fp_to_G1_bls.json", map_fp_to_g1_with),
        ("blsMapG2.json", map_fp2_to_g2_with),
        ("fail-blsMapG2.json", map_fp2_to_g2_with),
        ("eip2537/map_fp2_to_G2_bls.json", map_fp2_to_g2_with),
        ("eip2537/fail-map_fp2_to_G2_bls.json", map_fp2_to_g2_with),
    ] {
        for c in load(file) {
            both(f, &unhex(c["Input"].as_str().unwrap()), &format!("{file} {}", c["Name"]));
            n += 1;
        }
    }
    assert!(n >= 20, "{n} cases");
    // p - 1 big-endian, in a 64-byte slot
    let p_minus_1 = {
        let mut s = [0u8; 64];
        s[16..].copy_from_slice((-zkforge_field::bls12_381::Fp::ONE).to_bytes_be().as_ref());
        s
    };
    let small = |v: u8| {
        let mut s = [0u8; 64];
        s[63] = v;
        s
    };
    let edges = [small(0), small(1), p_minus_1];
    let mut seed = 7u64;
    let mut random = || {
        let mut s = [0u8; 64];
        for b in s[17..].iter_mut() {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            *b = (seed >> 56) as u8;
        }
        s
    };
    let mut g1_inputs: Vec<[u8; 64]> = edges.to_vec();
    g1_inputs.extend((0..64).map(|_| random()));
    for (i, u) in g1_inputs.iter().enumerate() {
        both(map_fp_to_g1_with, u, &format!("G1 input {i}"));
    }
    for (i, (c0, c1)) in edges.iter().flat_map(|a| edges.iter().map(move |b| (*a, *b))).chain((0..24).map(|_| (random(), random()))).enumerate() {
        both(map_fp2_to_g2_with, &[c0, c1].concat(), &format!("G2 input {i}"));
    }
}

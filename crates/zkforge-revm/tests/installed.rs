//! With `ZkforgeCrypto` installed, revm-precompile's own entry points (its framing, our
//! crypto) pass every vector file of zkforge-evm (outputs, gas, failures), and agree with
//! zkforge-evm's dispatcher on random inputs. A separate test binary: the backend is global.

use revm_precompile::PrecompileHalt;
use serde_json::Value;
use zkforge_revm::{install_crypto, ZkforgeCrypto};

fn revm_call(address: u8, input: &[u8], gas: u64) -> Result<(u64, Vec<u8>), PrecompileHalt> {
    zkforge_revm::revm_call(address, input, gas).expect("a covered address")
}

fn unhex(s: &str) -> Vec<u8> {
    let s = s.trim_start_matches("0x");
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

#[test]
fn vectors_through_revm_with_zkforge_installed() {
    assert!(install_crypto(ZkforgeCrypto), "nothing else installs a backend in this binary");
    let dir = format!("{}/../zkforge-evm/tests/vectors", env!("CARGO_MANIFEST_DIR"));
    let files: [(u8, &str); 37] = [
        (0x06, "bn256Add.json"),
        (0x07, "bn256ScalarMul.json"),
        (0x08, "bn256Pairing.json"),
        (0x06, "bn254-extra/aurora_ecadd.json"),
        (0x07, "bn254-extra/aurora_ecmul.json"),
        (0x08, "bn254-extra/aurora_ecpairing.json"),
        (0x06, "bn254-extra/evmone_ecadd.json"),
        (0x07, "bn254-extra/evmone_ecmul.json"),
        (0x0b, "blsG1Add.json"),
        (0x0c, "blsG1Mul.json"),
        (0x0c, "blsG1MultiExp.json"),
        (0x0d, "blsG2Add.json"),
        (0x0e, "blsG2Mul.json"),
        (0x0e, "blsG2MultiExp.json"),
        (0x0f, "blsPairing.json"),
        (0x10, "blsMapG1.json"),
        (0x11, "blsMapG2.json"),
        (0x0b, "fail-blsG1Add.json"),
        (0x0c, "fail-blsG1Mul.json"),
        (0x0c, "fail-blsG1MultiExp.json"),
        (0x0d, "fail-blsG2Add.json"),
        (0x0e, "fail-blsG2Mul.json"),
        (0x0e, "fail-blsG2MultiExp.json"),
        (0x0f, "fail-blsPairing.json"),
        (0x10, "fail-blsMapG1.json"),
        (0x11, "fail-blsMapG2.json"),
        (0x0b, "eip2537/add_G1_bls.json"),
        (0x0d, "eip2537/add_G2_bls.json"),
        (0x0c, "eip2537/msm_G1_bls.json"),
        (0x0e, "eip2537/msm_G2_bls.json"),
        (0x0f, "eip2537/pairing_check_bls.json"),
        (0x10, "eip2537/map_fp_to_G1_bls.json"),
        (0x11, "eip2537/map_fp2_to_G2_bls.json"),
        (0x0c, "eip2537/fail-msm_G1_bls.json"),
        (0x0e, "eip2537/fail-msm_G2_bls.json"),
        (0x0f, "eip2537/fail-pairing_check_bls.json"),
        (0x11, "eip2537/fail-map_fp2_to_G2_bls.json"),
    ];
    let (mut ok, mut failed) = (0, 0);
    for (address, file) in files {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(format!("{dir}/{file}")).unwrap()).unwrap();
        for c in v.as_array().unwrap() {
            let input = unhex(c["Input"].as_str().unwrap());
            let name = c["Name"].as_str().unwrap_or("?");
            match c["Expected"].as_str() {
                Some(expected) => {
                    let gas = c["Gas"].as_u64().unwrap();
                    let (g, out) = revm_call(address, &input, gas).unwrap_or_else(|e| panic!("{file} {name}: {e:?}"));
                    assert_eq!((g, out), (gas, unhex(expected)), "{file} {name}");
                    ok += 1;
                }
                None => {
                    assert!(revm_call(address, &input, 100_000_000).is_err(), "{file} {name}: succeeded");
                    failed += 1;
                }
            }
        }
    }
    println!("through revm with ZkforgeCrypto: {ok} success and {failed} failure vectors");
    assert!(ok > 1300 && failed > 90);
    // the outputs and errors equal zkforge-evm's own dispatcher
    for address in [0x06u8, 0x07, 0x08, 0x0b, 0x0d, 0x10, 0x11] {
        let input = vec![0u8; if address == 0x0d { 512 } else if address == 0x11 { 128 } else if address == 0x10 { 64 } else { 256 }];
        let ours = zkforge_evm::call(address, &input, 10_000_000).map(|o| (o.gas_used, o.bytes));
        let theirs = revm_call(address, &input, 10_000_000);
        assert_eq!(ours.is_ok(), theirs.is_ok(), "{address:#04x}");
        if let (Ok(a), Ok(b)) = (ours, theirs) {
            assert_eq!(a, b, "{address:#04x}");
        }
    }
}

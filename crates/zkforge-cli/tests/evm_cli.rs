//! `zkforge evm call` and `zkforge evm vectors`: outputs, plain-word errors and exit codes.

use std::process::{Command, Output};

fn zkforge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zkforge")).args(args).output().expect("run zkforge")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

#[test]
fn call_prints_gas_and_output() {
    // G + G on BN254
    let g = "0000000000000000000000000000000000000000000000000000000000000001\
             0000000000000000000000000000000000000000000000000000000000000002";
    let o = zkforge(&["evm", "call", "0x06", "--input", &format!("{g}{g}")]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("gas_used 150"), "{t}");
    assert!(t.contains("output 030644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd3"), "{t}");
    // Byzantium prices
    let o = zkforge(&["evm", "call", "6", "--input", &format!("{g}{g}"), "--byzantium"]);
    assert!(text(&o).contains("gas_used 500"), "{}", text(&o));
    // the whole 20-byte address works too
    let o = zkforge(&["evm", "call", "0x0000000000000000000000000000000000000006"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn refused_inputs_and_usage_errors() {
    let o = zkforge(&["evm", "call", "0x0b", "--input", "00"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).contains("input length 1 is invalid"), "{}", text(&o));
    let o = zkforge(&["evm", "call", "0x06", "--gas", "100"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).contains("out of gas"), "{}", text(&o));
    for bad in [["evm", "call", "0x05"], ["evm", "call", "zz"]] {
        let o = zkforge(&bad);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains("0x06-0x08"), "{}", text(&o));
    }
    let o = zkforge(&["evm", "call", "0x06", "--input", "0g"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("not hex"), "{}", text(&o));
    let o = zkforge(&["evm", "vectors", "/nonexistent-folder"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("cannot read /nonexistent-folder"), "{}", text(&o));
    assert!(!text(&o).contains("Os {"), "no Debug values: {}", text(&o));
}

#[test]
fn vectors_folder_passes() {
    let dir = format!("{}/../zkforge-evm/tests/vectors", env!("CARGO_MANIFEST_DIR"));
    let o = zkforge(&["evm", "vectors", &dir]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.contains("977 passed, 0 failed"), "{t}");
    let o = zkforge(&["evm", "vectors", &format!("{dir}/eip2537")]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

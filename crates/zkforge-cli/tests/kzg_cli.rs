//! `zkforge kzg`: outputs equal the library's, verification exit codes, recovery from half the
//! cells, and plain-word errors with exit code 2 for bad files and arguments.

use std::process::{Command, Output};

use zkforge_kzg::{KzgSettings, BYTES_PER_BLOB};

fn zkforge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zkforge")).args(args).output().expect("run zkforge")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn hex(b: &[u8]) -> String {
    format!("0x{}", b.iter().map(|x| format!("{x:02x}")).collect::<String>())
}

fn dir() -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("zkforge-kzg-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn commit_prove_verify_cells_recover() {
    let d = dir();
    let blob: Vec<u8> = (0..BYTES_PER_BLOB).map(|i| if i % 32 == 0 { 0 } else { (i * 7 % 255) as u8 }).collect();
    let raw = d.join("blob.bin");
    std::fs::write(&raw, &blob).unwrap();
    let hexfile = d.join("blob.hex");
    std::fs::write(&hexfile, format!("{}\n", hex(&blob))).unwrap();
    let kzg = KzgSettings::mainnet();
    let c = kzg.blob_to_kzg_commitment(&blob).unwrap();
    let p = kzg.compute_blob_kzg_proof(&blob, &c).unwrap();

    for f in [&raw, &hexfile] {
        let o = zkforge(&["kzg", "commit", f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), hex(&c));
    }
    let o = zkforge(&["kzg", "prove", raw.to_str().unwrap()]);
    assert_eq!(text(&o), format!("commitment {}\nproof {}\n", hex(&c), hex(&p)));
    let o = zkforge(&["kzg", "verify", raw.to_str().unwrap(), "--commitment", &hex(&c), "--proof", &hex(&p)]);
    assert_eq!((o.status.code(), String::from_utf8_lossy(&o.stdout).trim().to_string()), (Some(0), "valid".to_string()));
    // another blob's proof: invalid, exit 1
    let g = zkforge_curve::bls12_381::G1Affine::generator().to_compressed();
    let o = zkforge(&["kzg", "verify", raw.to_str().unwrap(), "--commitment", &hex(&c), "--proof", &hex(&g)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    // a point proof
    let z = [0x11u8; 32];
    let (pz, y) = kzg.compute_kzg_proof(&blob, &z).unwrap();
    let o = zkforge(&["kzg", "prove", raw.to_str().unwrap(), "--z", &hex(&z)]);
    assert_eq!(text(&o), format!("proof {}\ny {}\n", hex(&pz), hex(&y)));
    let o = zkforge(&["kzg", "verify", "--commitment", &hex(&c), "--z", &hex(&z), "--y", &hex(&y), "--proof", &hex(&pz)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // cells, then recovery from the odd lines
    let o = zkforge(&["kzg", "cells", raw.to_str().unwrap(), "--threads", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let lines = String::from_utf8(o.stdout).unwrap();
    let (cells, proofs) = kzg.compute_cells_and_kzg_proofs(&blob).unwrap();
    let all: Vec<&str> = lines.lines().collect();
    assert_eq!(all.len(), 128);
    assert_eq!(all[5], format!("5 {} {}", hex(&cells[5 * 2048..6 * 2048]), hex(&proofs[5])));
    let half: String = all.iter().skip(1).step_by(2).rev().map(|l| format!("{l}\n")).collect();
    let cf = d.join("half.txt");
    std::fs::write(&cf, half).unwrap();
    let o = zkforge(&["kzg", "recover", cf.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(String::from_utf8(o.stdout).unwrap(), lines);
    // verify-cells: the printed lines (any subset) against the commitment; a wrong proof fails
    let cf = d.join("some.txt");
    std::fs::write(&cf, all.iter().step_by(5).map(|l| format!("{l}\n")).collect::<String>()).unwrap();
    let o = zkforge(&["kzg", "verify-cells", cf.to_str().unwrap(), "--commitment", &hex(&c)]);
    assert_eq!((o.status.code(), String::from_utf8_lossy(&o.stdout).trim().to_string()), (Some(0), "valid".to_string()), "{}", text(&o));
    let swapped = format!("{} {}\n", all[0].rsplit_once(' ').unwrap().0, hex(&proofs[1]));
    std::fs::write(&cf, swapped).unwrap();
    let o = zkforge(&["kzg", "verify-cells", cf.to_str().unwrap(), "--commitment", &hex(&c)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    // a setup file gives the same commitment
    let setup = concat!(env!("CARGO_MANIFEST_DIR"), "/../zkforge-kzg/data/trusted_setup.txt");
    let o = zkforge(&["kzg", "commit", raw.to_str().unwrap(), "--setup", setup]);
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), hex(&c), "{}", text(&o));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn errors_are_plain_words_with_exit_code_2() {
    let d = dir().join("errors");
    std::fs::create_dir_all(&d).unwrap();
    let short = d.join("short.bin");
    std::fs::write(&short, "00ff").unwrap();
    let big = d.join("big.hex");
    std::fs::write(&big, "ff".repeat(BYTES_PER_BLOB)).unwrap();
    let zero = d.join("zero.bin");
    std::fs::write(&zero, vec![0u8; BYTES_PER_BLOB]).unwrap();
    let few = d.join("few.txt");
    std::fs::write(&few, format!("0 {}\n", "00".repeat(2048))).unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["kzg", "commit", "/nonexistent/blob"], "cannot read /nonexistent/blob"),
        (vec!["kzg", "commit", short.to_str().unwrap()], "holds 2 bytes; a blob is 131072 bytes"),
        (vec!["kzg", "commit", big.to_str().unwrap()], "not below the BLS12-381 group order"),
        (vec!["kzg", "commit", zero.to_str().unwrap(), "--setup", "/nonexistent/setup"], "cannot read the setup file"),
        (vec!["kzg", "commit", zero.to_str().unwrap(), "--setup", short.to_str().unwrap()], "invalid trusted setup"),
        (vec!["kzg", "cells", zero.to_str().unwrap(), "--threads", "0"], "--threads must be at least 1"),
        (vec!["kzg", "recover", few.to_str().unwrap()], "recovery needs at least 64"),
        (vec!["kzg", "verify", "--commitment", "zz", "--proof", "00"], "--commitment is not hex"),
        // multi-byte characters: a hex error, not a panic on a character boundary
        (vec!["kzg", "verify", "--commitment", "a\u{20ac}", "--proof", "00"], "--commitment is not hex"),
        (vec!["kzg", "verify", "--commitment", "00", "--proof", "00"], "give either a BLOB file"),
    ];
    for (args, want) in cases {
        let o = zkforge(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(want), "{args:?}: {}", text(&o));
        assert!(!text(&o).contains("Err(") && !text(&o).contains("InvalidLength {"), "{args:?}: {}", text(&o));
    }
    std::fs::remove_dir_all(&d).ok();
}

//! `zkforge msm`: exit codes and plain-word errors; with --gpu on whatever adapter wgpu finds
//! (lavapipe in CI, where ZKFORGE_REQUIRE_GPU=1 makes its absence a failure).

use std::process::{Command, Output};

fn zkforge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zkforge")).args(args).output().expect("run zkforge")
}

#[test]
fn cpu_msm_and_usage_errors() {
    for curve in ["bls12-381", "bn254"] {
        let out = zkforge(&["msm", "--curve", curve, "--log", "5"]);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let out = zkforge(&["msm", "--curve", "secp256k1"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown curve `secp256k1`") && !err.contains("Err("), "{err}");
    assert_eq!(zkforge(&["msm", "--log", "40"]).status.code(), Some(2));
    let help = zkforge(&["msm", "--help"]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("Exit codes"));
}

#[test]
fn gpu_msm_matches_cpu() {
    let out = zkforge(&["msm", "--curve", "bn254", "--log", "7", "--gpu", "--allow-cpu-adapter", "--runs", "1"]);
    let err = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(2) && err.contains("no GPU adapter") {
        assert!(std::env::var("ZKFORGE_REQUIRE_GPU").as_deref() != Ok("1"), "ZKFORGE_REQUIRE_GPU=1 but {err}");
        return;
    }
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("matches the CPU"));
}

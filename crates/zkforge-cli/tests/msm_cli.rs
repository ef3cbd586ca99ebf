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

/// `--cuda`: in a build without the `cuda` feature (the default) a usage error that says how to
/// get it; with the feature and no CUDA device, a usage error naming what is missing; on an
/// NVIDIA machine, the MSM matching the CPU.
#[test]
fn cuda_flag_says_what_it_needs() {
    let out = zkforge(&["msm", "--curve", "bn254", "--log", "6", "--cuda", "--runs", "1"]);
    let err = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => assert!(String::from_utf8_lossy(&out.stdout).contains("matches the CPU")),
        Some(2) => {
            assert!(err.contains("--features cuda") || err.contains("CUDA") || err.contains("libnvrtc"), "{err}");
            assert!(!err.contains("NoAdapter(") && !err.contains("Err("), "plain words: {err}");
        }
        c => panic!("exit {c:?}: {err}"),
    }
    assert_eq!(zkforge(&["msm", "--gpu", "--cuda"]).status.code(), Some(2));
}

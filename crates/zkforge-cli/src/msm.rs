//! `zkforge msm`: one G1 MSM of 2^log random points and scalars on BLS12-381 or BN254, on the
//! CPU (zkforge-msm, all cores) or with `--gpu` on a GPU through wgpu (zkforge-gpu, bases kept
//! resident), or with `--cuda` through the CUDA backend (zkforge-gpu's `cuda` feature, which
//! this binary must be built with), checked against the CPU result and timed per phase.

use crate::hashsig::CliError;
use clap::Args;
use rand_core::{RngCore, SeedableRng};
use std::time::Instant;
use zkforge_curve::{bls12_381, bn254, Jacobian};
use zkforge_gpu::{GpuConfig, GpuCurve, GpuMsm, GpuOptions};

/// Exit codes of `zkforge msm`.
pub const EXIT_HELP: &str = "Exit codes: 0 the MSM ran and (with --gpu or --cuda) matched the CPU result; 1 the GPU result differed from the CPU result; 2 usage error, --gpu without a usable adapter, or --cuda without a CUDA device (or in a build without the `cuda` feature).";

/// Arguments of `zkforge msm`.
#[derive(Args)]
pub struct MsmArgs {
    /// bls12-381 or bn254 (G1).
    #[arg(long, default_value = "bls12-381")]
    curve: String,
    /// log2 of the number of points (0..=24).
    #[arg(long, default_value_t = 16)]
    log: u32,
    /// Run on a GPU (wgpu: Vulkan, Metal or DX12).
    #[arg(long)]
    gpu: bool,
    /// Run on an NVIDIA GPU through CUDA (needs a build with `--features cuda`, the NVIDIA
    /// driver, and libnvrtc on the library path).
    #[arg(long, conflicts_with = "gpu")]
    cuda: bool,
    /// With --gpu, also accept a CPU adapter such as Mesa's lavapipe (slow; for testing).
    #[arg(long)]
    allow_cpu_adapter: bool,
    /// Timed repetitions after the checked run.
    #[arg(long, default_value_t = 3)]
    runs: usize,
}

fn usage(message: String) -> CliError {
    CliError { code: 2, message }
}

/// Runs `zkforge msm`.
pub fn run(a: MsmArgs) -> Result<i32, CliError> {
    if a.log > 24 {
        return Err(usage(format!("--log {} is too large: at most 24 (16 million points)", a.log)));
    }
    match a.curve.as_str() {
        "bls12-381" => run_on::<bls12_381::G1Config>(&a),
        "bn254" => run_on::<bn254::G1Config>(&a),
        other => Err(usage(format!("unknown curve `{other}`: use bls12-381 or bn254"))),
    }
}

fn run_on<C: GpuCurve>(a: &MsmArgs) -> Result<i32, CliError> {
    let n = 1usize << a.log;
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
    let g = Jacobian::<C>::generator().mul_bigint_vartime(&[rng.next_u64(), rng.next_u64(), rng.next_u64(), 0]).to_affine();
    let mut acc = g.to_jacobian();
    let mut pts = Vec::with_capacity(n);
    for _ in 0..n {
        pts.push(acc);
        acc = acc.add_mixed_vartime(&g);
    }
    let pts = Jacobian::batch_to_affine(&pts);
    let sc: Vec<[u64; 4]> = (0..n).map(|_| [rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64() >> 2]).collect();
    let t = Instant::now();
    let want = zkforge_msm::msm(&pts, &sc).map_err(|e| usage(e.to_string()))?;
    println!("{} MSM, 2^{} points: CPU (zkforge-msm, all cores) {:.2} ms", C::NAME, a.log, t.elapsed().as_secs_f64() * 1e3);
    if a.cuda {
        return run_cuda::<C>(a, &pts, &sc, &want);
    }
    if !a.gpu {
        return Ok(0);
    }
    let gpu = GpuMsm::<C>::new(&GpuOptions { allow_cpu_adapter: a.allow_cpu_adapter, name_contains: None })
        .map_err(|e| usage(format!("{e}; run without --gpu for the CPU MSM, or with --allow-cpu-adapter to test on lavapipe")))?;
    println!("adapter: {}", gpu.adapter_name());
    let bases = gpu.upload_bases(&pts).map_err(|e| usage(e.to_string()))?;
    println!("upload of the bases (kept resident): {:.2} ms", bases.upload_time.as_secs_f64() * 1e3);
    let cfg = GpuConfig::for_size(n);
    let (got, ph) = gpu.msm_profiled(&bases, &sc, &cfg).map_err(|e| usage(e.to_string()))?;
    if got != want {
        eprintln!("error: the GPU result differs from the CPU result");
        return Ok(1);
    }
    println!("phases (first run, shader compilation included): {}", ph.summary());
    for _ in 0..a.runs {
        let t = Instant::now();
        let r = gpu.msm_resident(&bases, &sc, &cfg).map_err(|e| usage(e.to_string()))?;
        if r != want {
            eprintln!("error: the GPU result differs from the CPU result");
            return Ok(1);
        }
        println!("GPU MSM with resident bases: {:.2} ms (matches the CPU)", t.elapsed().as_secs_f64() * 1e3);
    }
    Ok(0)
}

#[cfg(feature = "cuda")]
fn run_cuda<C: GpuCurve>(a: &MsmArgs, pts: &[zkforge_curve::Affine<C>], sc: &[[u64; 4]], want: &Jacobian<C>) -> Result<i32, CliError> {
    use zkforge_gpu::{CudaConfig, CudaMsm};
    let cuda = CudaMsm::<C>::new(0).map_err(|e| usage(format!("{e}; run without --cuda for the CPU MSM, or with --gpu for wgpu")))?;
    println!("device: {}", cuda.device_name());
    let bases = cuda.upload_bases(pts).map_err(|e| usage(e.to_string()))?;
    println!("upload of the bases (kept resident): {:.2} ms", bases.upload_time.as_secs_f64() * 1e3);
    let cfg = CudaConfig::for_size(pts.len());
    let (got, ph) = cuda.msm_profiled(&bases, sc, &cfg).map_err(|e| usage(e.to_string()))?;
    if got != *want {
        eprintln!("error: the CUDA result differs from the CPU result");
        return Ok(1);
    }
    println!("phases (first run): {}", ph.summary());
    for _ in 0..a.runs {
        let t = Instant::now();
        let r = cuda.msm_resident(&bases, sc, &cfg).map_err(|e| usage(e.to_string()))?;
        if r != *want {
            eprintln!("error: the CUDA result differs from the CPU result");
            return Ok(1);
        }
        println!("CUDA MSM with resident bases: {:.2} ms (matches the CPU)", t.elapsed().as_secs_f64() * 1e3);
    }
    Ok(0)
}

#[cfg(not(feature = "cuda"))]
fn run_cuda<C: GpuCurve>(_: &MsmArgs, _: &[zkforge_curve::Affine<C>], _: &[[u64; 4]], _: &Jacobian<C>) -> Result<i32, CliError> {
    Err(usage("this zkforge was built without CUDA support: rebuild it with `--features cuda` (cargo build --release -p zkforge-cli --features cuda), or use --gpu for wgpu".into()))
}

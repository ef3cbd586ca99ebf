//! The `zkforge` command. `zkforge hashsig schemes | keygen | sign | verify` makes and checks
//! Generalized XMSS keys and signatures; `zkforge evm call | vectors` runs the EVM precompiles;
//! `zkforge kzg commit | prove | verify | cells | verify-cells | recover` makes and checks KZG commitments,
//! proofs and EIP-7594 cells; `zkforge bulletproofs prove | verify` makes and checks range proofs;
//! `zkforge msm [--gpu]` runs one timed G1 MSM on the CPU or a GPU (wgpu). With the `bench` feature (`cargo zkbench`, which also
//! builds with BMI2/ADX so that arkworks' assembly is on), `zkforge bench [GROUP...] [--json
//! FILE]` runs the head-to-head benchmarks (ours against blst, arkworks, halo2curves and Plonky3
//! on the same inputs) and prints medians and the ratio ours / peer, and `zkforge bench msm
//! --ablation` prints the MSM ablation table: every switch alone and combined, per phase, at
//! sizes 2^0 to 2^20. The default build links no peer library.

use clap::{Parser, Subcommand};

mod bulletproofs;
mod evm;
mod hashsig;
mod kzg;
mod msm;

#[derive(Parser)]
#[command(name = "zkforge", version, about = "Fast, verified cryptography for Ethereum and zero-knowledge systems", after_help = "Exit codes: 0 success; 1 verify found the signature or proof invalid, or a precompile refused its input / a vector failed; 2 usage or input error; 3 refused by the key store; 4 key-store epoch spent without a signature (see `zkforge msm --help`, `zkforge hashsig --help`, `zkforge evm --help`, `zkforge kzg --help` and `zkforge bulletproofs --help`).")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Benchmark zkforge against peer libraries and print ours / peer ratios (built with the
    /// `bench` feature: `cargo zkbench`).
    #[cfg(feature = "bench")]
    Bench {
        /// Groups to run (field, ...); all when none is given.
        groups: Vec<String>,
        /// Write the rows as a JSON array to this file.
        #[arg(long)]
        json: Option<std::path::PathBuf>,
        /// Batches per implementation (more is steadier and slower).
        #[arg(long, default_value_t = 31)]
        samples: usize,
        /// Target milliseconds per batch.
        #[arg(long, default_value_t = 2.0)]
        batch_ms: f64,
        /// With group msm: print the ablation table (each switch alone and combined, per phase)
        /// instead of the head-to-head rows.
        #[arg(long)]
        ablation: bool,
        /// Ablation: smallest log2 size.
        #[arg(long, default_value_t = 0)]
        min_log: u32,
        /// Ablation: largest log2 size (22 by hand).
        #[arg(long, default_value_t = 20)]
        max_log: u32,
        /// Ablation: threads per MSM.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Ablation: add the sweeps of the window width c and the batch size S.
        #[arg(long)]
        sweeps: bool,
    },
    /// EVM precompiles: run one (`call`) or a folder of go-ethereum-format vector files
    /// (`vectors`).
    #[command(after_help = evm::EXIT_HELP)]
    Evm {
        #[command(subcommand)]
        cmd: evm::EvmCmd,
    },
    /// KZG commitments, proofs and EIP-7594 cells for Ethereum blobs.
    #[command(after_help = kzg::EXIT_HELP)]
    Kzg {
        #[command(subcommand)]
        cmd: kzg::KzgCmd,
    },
    /// Bulletproofs range proofs on ristretto255 (dalek-compatible), BLS12-381 G1 or BN254 G1.
    #[command(after_help = bulletproofs::EXIT_HELP)]
    Bulletproofs {
        #[command(subcommand)]
        cmd: bulletproofs::BulletproofsCmd,
    },
    /// One G1 MSM of 2^log random points on BLS12-381 or BN254, on the CPU or (--gpu) a GPU.
    #[command(after_help = msm::EXIT_HELP)]
    Msm(msm::MsmArgs),
    /// Hash-based signatures (Generalized XMSS: Poseidon2, SHA3, leanSig devnet 4).
    #[command(after_help = hashsig::EXIT_HELP)]
    Hashsig {
        #[command(subcommand)]
        cmd: hashsig::HashsigCmd,
    },
}

fn main() {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            // plain words, never a Debug value
            eprintln!("error: {}", e.message);
            std::process::exit(e.code);
        }
    }
}

fn run(cli: Cli) -> Result<i32, hashsig::CliError> {
    match cli.cmd {
        Cmd::Hashsig { cmd } => hashsig::run(cmd),
        Cmd::Evm { cmd } => evm::run(cmd),
        Cmd::Kzg { cmd } => kzg::run(cmd),
        Cmd::Bulletproofs { cmd } => bulletproofs::run(cmd),
        Cmd::Msm(a) => msm::run(a),
        #[cfg(feature = "bench")]
        cmd => run_bench(cmd).map(|_| 0).map_err(|e| hashsig::CliError { code: 2, message: e.to_string() }),
    }
}

#[cfg(feature = "bench")]
fn run_bench(cmd: Cmd) -> Result<(), Box<dyn std::error::Error>> {
    match cmd {
        Cmd::Hashsig { .. } | Cmd::Evm { .. } | Cmd::Kzg { .. } | Cmd::Bulletproofs { .. } | Cmd::Msm(_) => unreachable!("handled in run"),
        Cmd::Bench { groups, ablation: true, min_log, max_log, threads, sweeps, .. } => {
            if groups.iter().any(|g| g != "msm") {
                return Err("--ablation applies to the msm group only".into());
            }
            let opts = zkforge_bench::msm_ablation::AblationOptions { min_log, max_log: max_log.max(min_log), threads: threads.max(1), sweeps };
            eprintln!("zkforge bench msm --ablation: BLS12-381 G1, 2^{min_log}..2^{max_log}, {threads} thread(s)");
            let table = zkforge_bench::msm_ablation::run(opts, |block| eprint!("{block}"));
            println!("{table}");
        }
        Cmd::Bench { groups, json, samples, batch_ms, .. } => {
            let settings = zkforge_bench::harness::Settings { batch_ms, samples };
            let mut rows = Vec::new();
            let backend = if zkforge_field::backend::adx_active() { "x86-64 MULX/ADX" } else { "portable" };
            eprintln!("zkforge bench: field backend {backend}; medians of {samples} interleaved batches");
            for mut case in zkforge_bench::cases(&groups) {
                let r = zkforge_bench::harness::run_case(&mut case, settings).map_err(|e| format!("benchmark refused: {e}"))?;
                eprint!("{}", zkforge_bench::harness::table(&r).lines().skip(1).collect::<Vec<_>>().join("\n"));
                eprintln!();
                rows.extend(r);
            }
            println!("{}", zkforge_bench::harness::table(&rows));
            if let Some(path) = json {
                std::fs::write(&path, serde_json::to_string_pretty(&rows)?)?;
                eprintln!("wrote {}", path.display());
            }
        }
    }
    Ok(())
}

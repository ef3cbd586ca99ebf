//! The `zkforge` command. `zkforge hashsig schemes | keygen | sign | verify` makes and checks
//! Generalized XMSS keys and signatures; `zkforge bls keygen | sign | verify | aggregate` BLS
//! signatures in Ethereum's ciphersuite; `zkforge evm call | vectors` runs the EVM precompiles;
//! `zkforge kzg commit | prove | verify | cells | verify-cells | recover` makes and checks KZG commitments,
//! proofs and EIP-7594 cells; `zkforge bulletproofs prove | verify` makes and checks range proofs;
//! `zkforge msm [--gpu | --cuda]` runs one timed G1 MSM on the CPU or a GPU (wgpu, or CUDA in a build with the `cuda` feature). With the `bench` feature (`cargo zkbench`, which also
//! builds with BMI2/ADX so that arkworks' assembly is on), `zkforge bench [GROUP...] [--quick]
//! [--json FILE] [--report FILE.html] [--markdown FILE]` runs the head-to-head benchmarks (ours
//! against blst, arkworks, halo2curves, c-kzg, dalek and Plonky3 on the same inputs) with progress
//! on stderr, and prints a header naming the machine and commit, medians, the ratio ours / peer
//! and a summary of where zkforge leads and trails; and `zkforge bench msm
//! --ablation` prints the MSM ablation table: every switch alone and combined, per phase, at
//! sizes 2^0 to 2^20. The default build links no peer library.

use clap::{Parser, Subcommand};

mod bls;
mod bulletproofs;
mod evm;
mod hashsig;
mod kzg;
mod msm;

#[derive(Parser)]
#[command(name = "zkforge", version, about = "Fast, verified cryptography for Ethereum and zero-knowledge systems", after_help = "Exit codes: 0 success; 1 verify found the signature or proof invalid, or a precompile refused its input / a vector failed; 2 usage or input error; 3 refused by the key store; 4 key-store epoch spent without a signature (see `zkforge msm --help`, `zkforge bls --help`, `zkforge hashsig --help`, `zkforge evm --help`, `zkforge kzg --help` and `zkforge bulletproofs --help`).")]
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
        /// Write the header fields, the rows and the summary as JSON to this file (rows
        /// without a peer have `null` peer time and ratio).
        #[arg(long)]
        json: Option<std::path::PathBuf>,
        /// Write a self-contained HTML page (inline SVG charts of the ratios per group, MSM time
        /// against size, the summary and the raw rows) to this file.
        #[arg(long)]
        report: Option<std::path::PathBuf>,
        /// Write the BENCHMARKS.md tables (header, summary, one table per group) to this file:
        /// between its `<!-- zkbench:begin ... -->` and `<!-- zkbench:end -->` lines when it
        /// has them (the prose around them is kept), as a new file when it does not exist.
        #[arg(long)]
        markdown: Option<std::path::PathBuf>,
        /// The quick preset (the CI smoke run, under a minute on two cores): 3 batches of
        /// ~0.5 ms, MSMs to 2^12, 4 blobs in the KZG batch rows. Its ratios are rough; the
        /// default settings give the steadier figures.
        #[arg(long)]
        quick: bool,
        /// Batches per implementation (more is steadier and slower) [default: 31; 3 with --quick].
        #[arg(long)]
        samples: Option<usize>,
        /// Target milliseconds per batch [default: 2; 0.5 with --quick].
        #[arg(long)]
        batch_ms: Option<f64>,
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
    /// One G1 MSM of 2^log random points on BLS12-381 or BN254, on the CPU or a GPU (--gpu: wgpu; --cuda: CUDA).
    #[command(after_help = msm::EXIT_HELP)]
    Msm(msm::MsmArgs),
    /// BLS signatures in Ethereum's ciphersuite: keygen, sign, verify (one key, fast aggregate,
    /// aggregate), aggregate.
    #[command(after_help = bls::EXIT_HELP)]
    Bls {
        #[command(subcommand)]
        cmd: bls::BlsCmd,
    },
    /// Hash-based signatures (Generalized XMSS: Poseidon2, SHA3, leanSig devnet 4).
    #[command(after_help = hashsig::EXIT_HELP)]
    Hashsig {
        #[command(subcommand)]
        cmd: hashsig::HashsigCmd,
    },
}

fn main() {
    // the bench's one-thread revm peer is this binary started again (zkforge_bench::revm_1thr)
    #[cfg(feature = "bench")]
    {
        zkforge_bench::revm_1thr::serve_if_child();
        zkforge_bench::revm_1thr::enable();
    }
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
        Cmd::Bls { cmd } => bls::run(cmd),
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
        Cmd::Hashsig { .. } | Cmd::Bls { .. } | Cmd::Evm { .. } | Cmd::Kzg { .. } | Cmd::Bulletproofs { .. } | Cmd::Msm(_) => unreachable!("handled in run"),
        Cmd::Bench { groups, ablation: true, min_log, max_log, threads, sweeps, .. } => {
            if groups.iter().any(|g| g != "msm") {
                return Err("--ablation applies to the msm group only".into());
            }
            let opts = zkforge_bench::msm_ablation::AblationOptions { min_log, max_log: max_log.max(min_log), threads: threads.max(1), sweeps };
            eprintln!("zkforge bench msm --ablation: BLS12-381 G1, 2^{min_log}..2^{max_log}, {threads} thread(s)");
            let table = zkforge_bench::msm_ablation::run(opts, |block| eprint!("{block}"));
            println!("{table}");
        }
        Cmd::Bench { groups, json, report, markdown, quick, samples, batch_ms, .. } => bench_rows(BenchArgs { groups, json, report, markdown, quick, samples, batch_ms })?,
    }
    Ok(())
}

#[cfg(feature = "bench")]
struct BenchArgs {
    groups: Vec<String>,
    json: Option<std::path::PathBuf>,
    report: Option<std::path::PathBuf>,
    markdown: Option<std::path::PathBuf>,
    quick: bool,
    samples: Option<usize>,
    batch_ms: Option<f64>,
}

/// The head-to-head run: build every group's inputs, time each case (progress on stderr when
/// it is a terminal), print the header, the table and the summary, and write the files asked
/// for.
#[cfg(feature = "bench")]
fn bench_rows(a: BenchArgs) -> Result<(), Box<dyn std::error::Error>> {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use zkforge_bench::{harness, report};

    let samples = a.samples.unwrap_or(if a.quick { 3 } else { 31 });
    let batch_ms = a.batch_ms.unwrap_or(if a.quick { 0.5 } else { 2.0 });
    if samples == 0 || !(batch_ms > 0.0 && batch_ms.is_finite()) {
        return Err("--samples must be at least 1 and --batch-ms a positive number".into());
    }
    let settings = harness::Settings { batch_ms, samples };
    let builders = zkforge_bench::group_builders(&a.groups, zkforge_bench::Scale { quick: a.quick })?;
    // fail on an unwritable output before the run rather than after it
    for p in [&a.json, &a.report, &a.markdown].into_iter().flatten() {
        let existed = p.exists();
        std::fs::OpenOptions::new().create(true).append(true).open(p).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
        if !existed {
            let _ = std::fs::remove_file(p);
        }
    }
    let md_existing = match &a.markdown {
        Some(p) if p.exists() => {
            let text = std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            report::splice_markdown(&text, "")
                .map_err(|e| format!("{}: {e}; add the two marker lines where the tables go, or name a new file", p.display()))?;
            Some(text)
        }
        _ => None,
    };
    let meta = report::Meta::detect(&format!(
        "{}medians of {samples} interleaved batches of ~{batch_ms} ms per implementation",
        if a.quick { "quick preset, " } else { "" }
    ));

    // stderr progress: hidden (no output at all) when stderr is not a terminal
    let target = ProgressDrawTarget::stderr();
    let visible = !target.is_hidden();
    let pb = ProgressBar::with_draw_target(Some(builders.len() as u64), target);
    pb.set_style(ProgressStyle::with_template("preparing inputs, group {pos}/{len} [{elapsed_precise}] {wide_msg}").expect("template"));
    if visible {
        pb.enable_steady_tick(std::time::Duration::from_millis(500));
    }
    let mut cases = Vec::new();
    for (name, build) in builders {
        pb.set_message(name);
        cases.extend(build());
        pb.inc(1);
    }
    let mut meta = meta;
    meta.external_peers.extend(zkforge_bench::gnark::status_if_used());
    meta.external_peers.extend(zkforge_bench::revm_1thr::status_if_used());
    // the bar advances by implementations timed, so that the estimate weighs a case by its work
    let weight = |c: &zkforge_bench::Case| 1 + c.peers.len() as u64;
    let total: u64 = cases.iter().map(weight).sum();
    let n_cases = cases.len();
    pb.set_style(
        ProgressStyle::with_template("{bar:24} [{elapsed_precise} elapsed, ~{eta_precise} left] {wide_msg}")
            .expect("template")
            .progress_chars("=> "),
    );
    pb.set_length(total);
    pb.set_position(0);
    pb.reset_eta();
    if visible {
        pb.println(harness::table(&[]).trim_end());
    }
    let mut rows = Vec::new();
    for (i, mut case) in cases.into_iter().enumerate() {
        pb.set_message(format!("case {}/{n_cases}: {} {} {} n={}", i + 1, case.group, case.op, case.curve, case.size));
        let w = weight(&case);
        let r = harness::run_case(&mut case, settings).map_err(|e| format!("benchmark refused: {e}"))?;
        drop(case);
        for row in &r {
            pb.println(harness::row_line(row));
        }
        rows.extend(r);
        pb.inc(w);
    }
    pb.finish_and_clear();

    let summary = report::summarize(&rows);
    println!("{}", meta.header());
    println!("{}", harness::table(&rows));
    println!("{}", report::summary_text(&summary));
    if let Some(path) = a.json {
        let doc = report::Document { meta: &meta, rows: &rows, summary: &summary };
        std::fs::write(&path, serde_json::to_string_pretty(&doc)?).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    if let Some(path) = a.report {
        let page = report::html(&meta, &rows, &summary)?;
        std::fs::write(&path, page).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    if let Some(path) = a.markdown {
        let block = report::markdown(&meta, &rows, &summary);
        let text = match md_existing {
            Some(old) => report::splice_markdown(&old, &block)?,
            None => format!("{block}\n"),
        };
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

//! # zkforge-bench
//!
//! Head-to-head benchmarks of zkforge against its peers (blst, arkworks with `asm`,
//! halo2curves with `asm`) on the same inputs. Each [`Case`] holds one operation and one
//! closure per implementation; a closure runs the operation `iters` times and returns the
//! elapsed time. The criterion benches (`cargo bench -p zkforge-bench`) and the quick
//! `zkforge bench` command both measure these same closures, so their numbers agree.
//!
//! Mul, square and cyclotomic square are latency chains (x <- x * y), as in the issue's
//! reference figures; inverse and sqrt chain through their own output (sqrt of x^2).

pub mod canon;
pub mod curve;
pub mod field;
pub mod gnark;
pub mod msm;
pub mod msm_ablation;
pub mod pairing;
pub mod bls_sig;
pub mod evm;
pub mod pipe;
pub mod revm_1thr;
pub mod substrate_bn;
pub mod bulletproofs;
pub mod kzg;
pub mod kzg_cells;
pub mod poly;
pub mod hashsig;
pub mod gpu;
pub mod harness;
pub mod report;

use std::time::Duration;

/// One implementation's timed loop: runs the operation `iters` times.
pub type Runner = Box<dyn FnMut(u64) -> Duration>;

/// A [`Runner`] that calls `f` once per iteration (for operations that own their inputs, such
/// as an MSM over shared points).
pub(crate) fn timed(mut f: impl FnMut() + 'static) -> Runner {
    Box::new(move |iters| {
        let start = std::time::Instant::now();
        for _ in 0..iters {
            f();
        }
        start.elapsed()
    })
}

/// One implementation of a single-operation row: its timed loop and its output on the first
/// input in canonical form ([`canon::Canon`]), which the case compares across
/// implementations before timing.
pub struct Impl {
    /// The timed loop.
    pub runner: Runner,
    /// The operation's output on the first input, canonical.
    pub probe: Vec<u64>,
}

/// A single-operation case from implementations with probes: the check compares every
/// peer's probe with ours.
pub fn probed_case(group: &'static str, op: &'static str, curve: &'static str, ours: Impl, peers: Vec<(&'static str, Impl)>) -> Case {
    let mut runners = Vec::with_capacity(peers.len());
    let mut probes = Vec::with_capacity(peers.len());
    for (name, imp) in peers {
        runners.push((name, imp.runner));
        probes.push((name, imp.probe));
    }
    let want = ours.probe;
    Case { group, op, curve, size: 1, threads: 1, ours: ours.runner, peers: runners, check: None }.with_check(move || agree(want, probes))
}

/// A case's agreement check, run once before any timing: computes the operation on one input
/// with ours and with every peer, converts each result to one canonical form, and returns
/// `Err` naming the peer that differs (or whose input or output conversion failed).
pub type Check = Box<dyn FnOnce() -> Result<(), String>>;

/// `Ok` when `ours` equals every peer's value, else an error naming the first that differs.
pub fn agree<T: PartialEq + core::fmt::Debug>(ours: T, peers: Vec<(&str, T)>) -> Result<(), String> {
    for (name, v) in peers {
        if v != ours {
            return Err(format!("{name} gives {v:?}, zkforge gives {ours:?}"));
        }
    }
    Ok(())
}

/// One benchmarked operation with every implementation of it.
pub struct Case {
    /// "field", "curve", "msm", "pairing", ...
    pub group: &'static str,
    /// Operation, e.g. "fp_mul".
    pub op: &'static str,
    /// "bls12_381" or "bn254".
    pub curve: &'static str,
    /// Input size (1 for single operations).
    pub size: usize,
    /// Threads used.
    pub threads: usize,
    /// zkforge's implementation.
    pub ours: Runner,
    /// (peer name, implementation). Names carry the build flavour and security class where
    /// it matters (`plonky3-scalar`, `blst-ct`, `arkworks-vartime`).
    pub peers: Vec<(&'static str, Runner)>,
    /// Agreement of ours and every peer on one input, checked before timing.
    pub check: Option<Check>,
}

impl Case {
    /// Attach the agreement check.
    pub fn with_check(mut self, f: impl FnOnce() -> Result<(), String> + 'static) -> Self {
        self.check = Some(Box::new(f));
        self
    }
}

/// The groups `zkforge bench` knows, in the order they run.
pub const GROUPS: [&str; 9] = ["field", "curve", "msm", "pairing", "poly", "kzg", "evm", "hashsig", "bulletproofs"];

/// Groups that run only when named (`cargo zkbench gpu`): the GPU MSM, which needs a GPU.
pub const OPT_IN_GROUPS: [&str; 1] = ["gpu"];

/// How much work the cases do: the full run, or the quick preset (`zkforge bench --quick`, the
/// CI smoke run) with smaller sizes where building the inputs dominates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scale {
    /// Quick preset: MSM sizes to 2^12 (instead of 2^16, or `ZKFORGE_MSM_MAX_LOG`), 4 blobs in
    /// the KZG batch rows instead of 64.
    pub quick: bool,
}

impl Scale {
    /// The largest MSM size, log2.
    pub fn msm_max_log(self) -> u32 {
        if self.quick {
            12
        } else {
            std::env::var("ZKFORGE_MSM_MAX_LOG").ok().and_then(|s| s.parse::<u32>().ok()).unwrap_or(16)
        }
    }

    /// Blobs in the KZG batch rows (64 in the targets).
    pub fn kzg_batch_blobs(self) -> usize {
        if self.quick {
            4
        } else {
            64
        }
    }
}

/// A group's cases, built when called (building the inputs of a group can take seconds).
pub type GroupBuilder = Box<dyn FnOnce() -> Vec<Case>>;

/// The builders of the named groups (all of [`GROUPS`] when `groups` is empty), in run order;
/// `Err` names an unknown group.
pub fn group_builders(groups: &[String], scale: Scale) -> Result<Vec<(&'static str, GroupBuilder)>, String> {
    if let Some(bad) = groups.iter().find(|g| !GROUPS.contains(&g.as_str()) && !OPT_IN_GROUPS.contains(&g.as_str())) {
        return Err(format!("unknown group `{bad}`; the groups are {} (and {}, only when named)", GROUPS.join(", "), OPT_IN_GROUPS.join(", ")));
    }
    let mut out: Vec<(&'static str, GroupBuilder)> = Vec::new();
    for g in GROUPS.into_iter().chain(OPT_IN_GROUPS.into_iter().filter(|g| groups.iter().any(|x| x == g))) {
        if !groups.is_empty() && !groups.iter().any(|x| x == g) {
            continue;
        }
        let build: GroupBuilder = match g {
            "field" => Box::new(field::cases),
            "curve" => Box::new(curve::cases),
            "msm" => Box::new(move || msm::cases_to(scale.msm_max_log())),
            "pairing" => Box::new(pairing::cases),
            "poly" => Box::new(poly::cases),
            "kzg" => Box::new(move || {
                let blobs = scale.kzg_batch_blobs();
                let mut v = kzg::cases(blobs);
                // the batch-verification row checks every cell of the blobs, as the peer figures
                v.extend(kzg_cells::cases(blobs));
                v.extend(kzg_cells::scaling_cases(blobs));
                v
            }),
            "evm" => Box::new(evm::cases),
            "hashsig" => Box::new(hashsig::cases),
            "gpu" => Box::new(move || gpu::cases(scale.msm_max_log())),
            _ => Box::new(bulletproofs::cases),
        };
        out.push((g, build));
    }
    Ok(out)
}

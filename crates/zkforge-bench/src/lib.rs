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

pub mod curve;
pub mod field;
pub mod msm;
pub mod msm_ablation;
pub mod pairing;
pub mod hashsig;
pub mod harness;

use std::time::Duration;

/// One implementation's timed loop: runs the operation `iters` times.
pub type Runner = Box<dyn FnMut(u64) -> Duration>;

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
    /// (peer name, implementation).
    pub peers: Vec<(&'static str, Runner)>,
}

/// Every case of the named groups (all when `groups` is empty).
pub fn cases(groups: &[String]) -> Vec<Case> {
    let mut all = Vec::new();
    let want = |g: &str| groups.is_empty() || groups.iter().any(|x| x == g);
    if want("field") {
        all.extend(field::cases());
    }
    if want("curve") {
        all.extend(curve::cases());
    }
    if want("msm") {
        all.extend(msm::cases());
    }
    if want("pairing") {
        all.extend(pairing::cases());
    }
    if want("hashsig") {
        all.extend(hashsig::cases());
    }
    all
}

//! A small measuring loop for `zkforge bench`: run the case's agreement check (ours and every
//! peer give the same value on one input, or the case fails), calibrate a batch to about
//! `batch_ms`, then take `samples` rounds of one batch of ours and of each peer, in a fresh
//! shuffled order every round (so machine noise and cache warmth favour no one), and report
//! medians in ns per operation.

use serde::Serialize;

use crate::{Case, Runner};

/// One output row; the JSON schema shared by every group.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Group ("field", ...).
    pub group: String,
    /// Operation.
    pub op: String,
    /// Curve.
    pub curve: String,
    /// Input size.
    pub size: usize,
    /// Threads.
    pub threads: usize,
    /// Our median, ns per operation.
    pub ours_ns: f64,
    /// Peer name (`-` when the row has no runnable peer).
    pub peer: String,
    /// Peer median, ns per operation (`None`, JSON `null`, when the row has no peer).
    pub peer_ns: Option<f64>,
    /// ours_ns / peer_ns (`None`, JSON `null`, when the row has no peer).
    pub ratio: Option<f64>,
    /// Gas one call charges (EVM rows only), for Mgas/s = gas / ns * 1000.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gas: Option<u64>,
}

/// Measurement settings.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Target duration of one batch in milliseconds.
    pub batch_ms: f64,
    /// Batches per implementation.
    pub samples: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { batch_ms: 2.0, samples: 31 }
    }
}

fn calibrate(r: &mut Runner, batch_ms: f64) -> u64 {
    let mut iters = 1u64;
    loop {
        let t = r(iters).as_secs_f64() * 1e3;
        if t > batch_ms / 4.0 || iters > 1 << 30 {
            return ((iters as f64) * batch_ms / t.max(1e-6)).max(1.0) as u64;
        }
        iters *= 4;
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    v[v.len() / 2]
}

/// The order of `n` implementations in round `round` (a seeded Fisher-Yates shuffle).
pub fn round_order(n: usize, round: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut state = 0x9e37_79b9_7f4a_7c15u64 ^ (round as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    for i in (1..n).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        order.swap(i, (state % (i as u64 + 1)) as usize);
    }
    order
}

/// Measure one case: its agreement check, then medians of shuffled interleaved batches. `Err`
/// when ours and a peer disagree (no row is timed then).
pub fn run_case(case: &mut Case, s: Settings) -> Result<Vec<Row>, String> {
    if let Some(check) = case.check.take() {
        check().map_err(|e| format!("{}/{}/{} n={}: outputs differ: {e}", case.group, case.curve, case.op, case.size))?;
    }
    let mut runners: Vec<&mut Runner> = vec![&mut case.ours];
    for (_, r) in case.peers.iter_mut() {
        runners.push(r);
    }
    let iters: Vec<u64> = runners.iter_mut().map(|r| calibrate(r, s.batch_ms)).collect();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); runners.len()];
    for round in 0..s.samples {
        for k in round_order(runners.len(), round) {
            let d = runners[k](iters[k]);
            times[k].push(d.as_secs_f64() * 1e9 / iters[k] as f64);
        }
    }
    let meds: Vec<f64> = times.into_iter().map(median).collect();
    if case.peers.is_empty() {
        // no peer can run here (its figures are quoted in BENCHMARKS.md): ours alone
        return Ok(vec![Row {
            group: case.group.into(),
            op: case.op.into(),
            curve: case.curve.into(),
            size: case.size,
            threads: case.threads,
            ours_ns: meds[0],
            peer: "-".into(),
            peer_ns: None,
            ratio: None,
            gas: gas_of(case),
        }]);
    }
    Ok(case
        .peers
        .iter()
        .enumerate()
        .map(|(i, (name, _))| Row {
            group: case.group.into(),
            op: case.op.into(),
            curve: case.curve.into(),
            size: case.size,
            threads: case.threads,
            ours_ns: meds[0],
            peer: (*name).into(),
            peer_ns: Some(meds[i + 1]),
            ratio: Some(meds[0] / meds[i + 1]),
            gas: gas_of(case),
        })
        .collect())
}

/// The gas an EVM case's call charges.
fn gas_of(case: &Case) -> Option<u64> {
    if case.group == "evm" {
        crate::evm::case_gas(case.op, case.size)
    } else {
        None
    }
}

/// Plain-text table of rows; a row without a peer prints `-` for the peer's time and the ratio.
pub fn table(rows: &[Row]) -> String {
    let mut s = format!(
        "{:<12} {:<40} {:<12} {:>7} {:>3} {:>14} {:<28} {:>14} {:>6}\n",
        "group", "op", "curve", "size", "thr", "ours ns", "peer", "peer ns", "ratio"
    );
    for r in rows {
        s.push_str(&row_line(r));
        s.push('\n');
    }
    s
}

/// One row of [`table`], without the line break.
pub fn row_line(r: &Row) -> String {
    let dash = |v: Option<f64>, prec: usize| v.map_or_else(|| "-".to_string(), |x| format!("{x:.prec$}"));
    let mut s = format!(
        "{:<12} {:<40} {:<12} {:>7} {:>3} {:>14.1} {:<28} {:>14} {:>6}",
        r.group,
        r.op,
        r.curve,
        r.size,
        r.threads,
        r.ours_ns,
        r.peer,
        dash(r.peer_ns, 1),
        dash(r.ratio, 2)
    );
    if let Some(g) = r.gas {
        // gas per second, ours and the peer's (gas / ns * 1000 = Mgas/s)
        let mgas = |ns: f64| g as f64 * 1e3 / ns;
        s.push_str(&format!("   {:>7.1} / {:>7} Mgas/s", mgas(r.ours_ns), dash(r.peer_ns.map(mgas), 1)));
    }
    s
}

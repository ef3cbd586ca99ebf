//! The pairing group's 2-thread rows through the bench harness, several passes in one
//! process, optionally after other pairing cases (`cargo run --release -p zkforge-bench
//! --example twothr_probe -- [FILTER]`, `REPS=4` for four passes; FILTER is a substring of
//! "op curve peers" naming cases to run first). On the 2-vCPU Zen 5 guest the same row reads
//! 0.86-0.90 in some passes and 1.36-1.40 in others, in one process, while the one-thread rows
//! stay put (BENCHMARKS.md, issue 19 eleventh part).
use zkforge_bench::harness::{run_case, Settings};

fn main() {
    let first = std::env::args().nth(1).unwrap_or_else(|| "none".into());
    let reps: usize = std::env::var("REPS").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    let mut cases = zkforge_bench::pairing::cases();
    cases.retain(|c| c.threads == 2 || format!("{} {} {}", c.op, c.curve, c.peers.iter().map(|p| p.0).collect::<Vec<_>>().join(",")).contains(first.as_str()));
    for pass in 0..reps {
        let mut run = if pass + 1 == reps { std::mem::take(&mut cases) } else { zkforge_bench::pairing::cases().into_iter().filter(|c| c.threads == 2).collect() };
        for c in run.iter_mut() {
            for r in run_case(c, Settings::default()).expect("outputs agree") {
                println!("pass {pass}: {} {} n={} thr={} ours {:.0} ns, {} {:.0} ns, ratio {:.2}", r.op, r.curve, r.size, r.threads, r.ours_ns, r.peer, r.peer_ns.unwrap_or(0.0), r.ratio.unwrap_or(0.0));
            }
        }
    }
}

//! MSM ablation at one size: `cargo run --release -p zkforge-bench --example msm_ablation -- LOG2N [THREADS]`.
//! The same table as `zkforge bench msm --ablation --sweeps --min-log N --max-log N`.
use zkforge_bench::msm_ablation::{run, AblationOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let lg: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(12);
    let threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    print!("{}", run(AblationOptions { min_log: lg, max_log: lg, threads, sweeps: true }, |_| {}));
}

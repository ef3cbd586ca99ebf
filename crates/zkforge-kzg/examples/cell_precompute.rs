//! Sweep of FK20's precomputation knob (`CellPrecompute`): table build time, table memory and
//! the median time of `compute_cells_and_kzg_proofs`, on a fixed random blob, one thread unless
//! `THREADS` says otherwise. The default in `CellPrecompute::default` and the window of
//! `CellPrecompute::None` (the single-copy rows) come from this sweep.
//!
//! `cargo run --release -p zkforge-kzg --example cell_precompute`

use std::time::Instant;

use zkforge_kzg::{CellPrecompute, KzgConfig, KzgSettings, BYTES_PER_BLOB};

fn main() {
    let threads: usize = std::env::var("THREADS").ok().and_then(|t| t.parse().ok()).unwrap_or(1);
    let mut blob = vec![0u8; BYTES_PER_BLOB];
    let mut x = 0x1234_5678_9abc_def0u64;
    for chunk in blob.chunks_exact_mut(32) {
        for b in chunk[1..].iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *b = x as u8;
        }
    }
    let mut reference = None;
    let mut sweep = vec![CellPrecompute::None];
    for interleaved in [false, true] {
        for (window, stride) in [(6, 1), (7, 1), (8, 1), (9, 1), (10, 1), (8, 2), (8, 4)] {
            sweep.push(CellPrecompute::FixedBase { window, stride, interleaved });
        }
        // a stride of 64 (at least every window) keeps one copy: no tables, as `None`
        for window in 5..=10 {
            sweep.push(CellPrecompute::FixedBase { window, stride: 64, interleaved });
        }
    }
    println!("threads {threads}");
    println!("{:<60} {:>10} {:>10} {:>12}", "precompute", "build ms", "MB", "median ms");
    for pre in sweep {
        let kzg = KzgSettings::mainnet_with(&KzgConfig { threads, cell_precompute: pre, ..KzgConfig::default() }).expect("valid config");
        let t = Instant::now();
        let bytes = kzg.prepare_cell_proofs();
        let build = t.elapsed().as_secs_f64() * 1e3;
        let mut times = Vec::new();
        let mut out = None;
        for _ in 0..7 {
            let t = Instant::now();
            out = Some(kzg.compute_cells_and_kzg_proofs(&blob).expect("valid blob"));
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(f64::total_cmp);
        match &reference {
            None => reference = out,
            Some(r) => assert_eq!(Some(r), out.as_ref(), "{pre:?} disagrees"),
        }
        println!("{:<60} {:>10.0} {:>10.1} {:>12.1}", format!("{pre:?}"), build, bytes as f64 / 1e6, times[times.len() / 2]);
    }
}

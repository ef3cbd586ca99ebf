//! Peak memory and load time of KZG settings, ours and the peers', one process per setting:
//! loads the mainnet setup, computes the cells and proofs of one blob (so lazily built tables
//! exist), and prints the load time, the first call's time and the process's peak resident
//! memory (VmHWM) beside its resident memory before loading.
//!
//! `cargo run --release -p zkforge-bench --example kzg_memory -- WHICH` with WHICH one of
//! zkforge, zkforge-noprecomp, zkforge-text (from the text file, every point decoded and
//! checked), zkforge-text-known (the same file recognised by its digest, the default),
//! c-kzg-precompute8, c-kzg-precompute0, rust_eth_kzg-precomp8,
//! rust_eth_kzg-noprecomp; no argument runs them all, each in a child process.

use std::time::Instant;

const ALL: [&str; 8] = ["zkforge", "zkforge-noprecomp", "zkforge-text", "zkforge-text-known", "c-kzg-precompute8", "c-kzg-precompute0", "rust_eth_kzg-precomp8", "rust_eth_kzg-noprecomp"];

fn status_kb(key: &str) -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines().find(|l| l.starts_with(key)).and_then(|l| l.split_whitespace().nth(1)).and_then(|v| v.parse().ok()).unwrap_or(0)
}

fn main() {
    let Some(which) = std::env::args().nth(1) else {
        let exe = std::env::current_exe().expect("own path");
        println!("{:<24} {:>9} {:>13} {:>13}", "settings", "load ms", "first call ms", "peak RSS MB");
        for w in ALL {
            let out = std::process::Command::new(&exe).arg(w).output().expect("child runs");
            print!("{}", String::from_utf8_lossy(&out.stdout));
        }
        return;
    };
    let blob: Vec<u8> = (0..zkforge_kzg::BYTES_PER_BLOB).map(|i| if i % 32 == 0 { 0 } else { (i * 131 % 251) as u8 }).collect();
    let base = status_kb("VmRSS:");
    let t = Instant::now();
    let (load, first) = match which.as_str() {
        "zkforge" | "zkforge-noprecomp" => {
            // zkforge: both default tables (FK20 and commitments); noprecomp: neither
            let (cell_precompute, commit_precompute) = if which == "zkforge" {
                (zkforge_kzg::CellPrecompute::default(), zkforge_kzg::CommitPrecompute::default())
            } else {
                (zkforge_kzg::CellPrecompute::None, zkforge_kzg::CommitPrecompute::None)
            };
            let k = zkforge_kzg::KzgSettings::mainnet_with(&zkforge_kzg::KzgConfig { threads: 1, cell_precompute, commit_precompute, ..Default::default() }).expect("mainnet");
            let load = t.elapsed();
            let t = Instant::now();
            std::hint::black_box(k.compute_cells_and_kzg_proofs(&blob).expect("blob"));
            let first = t.elapsed();
            // and the commitment tables (the first commitment builds them)
            std::hint::black_box(k.blob_to_kzg_commitment(&blob).expect("blob"));
            (load, first)
        }
        "zkforge-text" | "zkforge-text-known" => {
            // the text file parsed and every point decoded and subgroup-checked (FK20's columns
            // and tables are then built by the first call), or recognised by its digest
            let text = include_str!("../../zkforge-kzg/data/trusted_setup.txt");
            let cfg = zkforge_kzg::KzgConfig { known_setup: which == "zkforge-text-known", ..Default::default() };
            let k = zkforge_kzg::KzgSettings::from_text_with(text, &cfg).expect("mainnet text");
            let load = t.elapsed();
            let t = Instant::now();
            std::hint::black_box(k.compute_cells_and_kzg_proofs(&blob).expect("blob"));
            (load, t.elapsed())
        }
        "c-kzg-precompute8" | "c-kzg-precompute0" => {
            let k = c_kzg::ethereum_kzg_settings(if which.ends_with('8') { 8 } else { 0 });
            let load = t.elapsed();
            let b = c_kzg::Blob::from_bytes(&blob).expect("blob");
            let t = Instant::now();
            std::hint::black_box(k.compute_cells_and_kzg_proofs(&b).expect("blob"));
            (load, t.elapsed())
        }
        "rust_eth_kzg-precomp8" | "rust_eth_kzg-noprecomp" => {
            let pre = if which.ends_with('8') { rust_eth_kzg::UsePrecomp::Yes { width: 8 } } else { rust_eth_kzg::UsePrecomp::No };
            let k = rust_eth_kzg::DASContext::new(&rust_eth_kzg::TrustedSetup::default(), pre);
            let load = t.elapsed();
            let b: &[u8; zkforge_kzg::BYTES_PER_BLOB] = blob.as_slice().try_into().expect("blob size");
            let t = Instant::now();
            std::hint::black_box(k.compute_cells_and_kzg_proofs(b).expect("blob"));
            (load, t.elapsed())
        }
        other => {
            eprintln!("unknown settings {other}; one of {ALL:?}");
            std::process::exit(2);
        }
    };
    let peak = status_kb("VmHWM:");
    println!("{:<24} {:>9.0} {:>13.0} {:>13.1}", which, load.as_secs_f64() * 1e3, first.as_secs_f64() * 1e3, (peak.saturating_sub(base)) as f64 / 1024.0);
}

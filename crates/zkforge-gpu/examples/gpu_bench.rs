//! GPU MSM sweep: end-to-end time with resident bases (median of runs) and per-phase times,
//! for both curves, over window width, accumulation method (XYZZ or batch-affine S), reduce
//! placement, multiplication form and workgroup size. Every configuration's result is checked
//! against zkforge-msm first.
//!
//! `cargo run --release -p zkforge-gpu --example gpu_bench -- [max_log] [runs] [default|compare|confirm|merge|scalars|fold]`
//! (`default`: only the default configuration per size; `compare`: the default against the
//! CPU sort, other segment counts and run lengths, at every size; `confirm`: the default against
//! its nearest alternatives and without buffer reuse; `merge`: the tree merge of a bucket's
//! runs against the serial merge, on equal scalars and at c = 14; `scalars`: the scalars
//! converted on the device against reduced on the host, as integers and as field elements;
//! `fold`: the default on plain bases against window-folded ones, `upload_bases_folded`, for
//! c = 16 into 1 and 2 bucket sets and c = 15, 18 and 20 into 1, each with `GpuConfig::for_fold`,
//! and the CPU sort, other segment counts and runs of 32 on c = 20; the copies' device build
//! time in each label)

#[path = "../tests/common/mod.rs"]
mod common;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::time::Instant;
use zkforge_curve::{bls12_381, bn254};
use zkforge_gpu::*;

fn run<C: GpuCurve>(name: &str, max_log: u32, runs: usize, field: fn(&[u64; 4]) -> C::Scalar)
where
    C::Scalar: zkforge_msm::MsmScalar<C>,
{
    let gpu = GpuMsm::<C>::new(&GpuOptions { allow_cpu_adapter: true, name_contains: None }).expect("adapter");
    println!("# {name} on {}", gpu.adapter_name());
    let mut r = StdRng::seed_from_u64(11);
    // Below 2^16 (a smoke run on a CPU adapter), the one size asked for.
    let sizes: Vec<u32> = if max_log < 16 { vec![max_log] } else { [20u32, 16, 18, 22].into_iter().filter(|&l| l <= max_log).collect() };
    for lg in sizes {
        let n = 1usize << lg;
        let pts = common::many_points::<C>(&mut StdRng::seed_from_u64(7), n);
        let sc: Vec<[u64; 4]> = (0..n).map(|_| [r.gen(), r.gen(), r.gen(), r.gen::<u64>() >> 2]).collect();
        let t = Instant::now();
        let want = zkforge_msm::msm(&pts, &sc).unwrap();
        let cpu_ms = t.elapsed().as_secs_f64() * 1e3;
        let bases = gpu.upload_bases(&pts).unwrap();
        println!("## {name} n = 2^{lg}: upload (resident bases) {:.2} ms; CPU zkforge-msm (all cores) {cpu_ms:.2} ms", bases.upload_time.as_secs_f64() * 1e3);
        let mut cfgs: Vec<(String, GpuConfig)> = Vec::new();
        for c in [lg.saturating_sub(4), lg.saturating_sub(3), lg.saturating_sub(2)].into_iter().filter(|c| (8..=16).contains(c)) {
            cfgs.push((format!("xyzz c={c}"), GpuConfig { window: Some(c), ..Default::default() }));
        }
        let c0 = GpuConfig::for_size(n).window_for(n);
        for s in [8u32, 16, 32] {
            cfgs.push((format!("affine S={s} c={c0}"), GpuConfig { window: Some(c0), accumulate: Accumulate::BatchAffine { s }, ..Default::default() }));
        }
        cfgs.push((format!("xyzz c={c0} reduce=cpu"), GpuConfig { window: Some(c0), reduce: Placement::Cpu, ..Default::default() }));
        cfgs.push((format!("xyzz c={c0} unrolled"), GpuConfig { window: Some(c0), unroll: Some(true), ..Default::default() }));
        for wg in [128u32] {
            cfgs.push((format!("xyzz c={c0} wg={wg}"), GpuConfig { window: Some(c0), workgroup: wg, ..Default::default() }));
        }
        for seg in [64u32, 1024] {
            cfgs.push((format!("xyzz c={c0} segments={seg}"), GpuConfig { window: Some(c0), segments: seg, ..Default::default() }));
        }
        for max_run in [16u32, 256] {
            cfgs.push((format!("xyzz c={c0} max_run={max_run}"), GpuConfig { window: Some(c0), max_run, ..Default::default() }));
        }
        let d = GpuConfig::for_size(n);
        match std::env::args().nth(3).as_deref() {
            Some("default") => cfgs = vec![(format!("default (c={c0})"), d)],
            Some("scalars") => {
                // The scalars converted on the device (default) or reduced on the host, as
                // raw integers and as field elements (Montgomery limbs).
                let fr: Vec<C::Scalar> = sc.iter().map(field).collect();
                println!("| config | median ms | {} |", PhaseTimes::TABLE_HEADER);
                println!("|---|---|---|---|---|---|---|---|---|---|---|");
                for (what, scalars) in [("converted on the GPU (default)", Placement::Gpu), ("reduced on the host", Placement::Cpu)] {
                    time_row(&gpu, &bases, &sc, &want, &format!("integers, {what}"), &GpuConfig { scalars, ..d }, runs);
                    time_row(&gpu, &bases, &fr, &want, &format!("field elements, {what}"), &GpuConfig { scalars, ..d }, runs);
                }
                continue;
            }
            Some("fold") => {
                println!("| config | median ms | {} |", PhaseTimes::TABLE_HEADER);
                println!("|---|---|---|---|---|---|---|---|---|---|---|");
                time_row(&gpu, &bases, &sc, &want, &format!("plain bases, default (c={c0})"), &d, runs);
                // Each fold with its own default (`GpuConfig::for_fold`: segments raised to
                // keep 16 buckets a segment); c = 20 into one set with its switches beside it.
                for (c, sets) in [(16u32, 1usize), (16, 2), (15, 1), (18, 1), (20, 1)] {
                    let fold = plan::Fold::new(c, sets).unwrap();
                    let fd = GpuConfig::for_fold(n, fold);
                    let fb = match gpu.upload_bases_folded(&pts, fold) {
                        Ok(b) => b,
                        Err(e) => {
                            println!("| folded c={c}, {sets} sets | error: {e} |");
                            continue;
                        }
                    };
                    let label = format!("folded c={c}, {sets} sets, {} copies (built on the device and uploaded in {:.0} ms; segments={})", fold.copies, fb.upload_time.as_secs_f64() * 1e3, fd.segments);
                    time_row(&gpu, &fb, &sc, &want, &label, &fd, runs);
                    if sets == 1 && c == 20 {
                        time_row(&gpu, &fb, &sc, &want, "folded c=20, 1 set, CPU sort", &GpuConfig { sort: Placement::Cpu, ..fd }, runs);
                        for segments in [fd.segments / 4, fd.segments * 4] {
                            time_row(&gpu, &fb, &sc, &want, &format!("folded c=20, 1 set, segments={segments}"), &GpuConfig { segments, ..fd }, runs);
                        }
                        time_row(&gpu, &fb, &sc, &want, "folded c=20, 1 set, max_run=32", &GpuConfig { max_run: 32, ..fd }, runs);
                    }
                }
                continue;
            }
            Some("confirm") => {
                cfgs = vec![(format!("default (c={c0}, segments={})", d.segments), d), ("CPU sort".into(), GpuConfig { sort: Placement::Cpu, ..d })];
                cfgs.push(("buffers not reused".into(), GpuConfig { reuse_buffers: false, ..d }));
                for seg in [256u32, 1024] {
                    if seg != d.segments {
                        cfgs.push((format!("segments={seg}"), GpuConfig { segments: seg, ..d }));
                    }
                }
                cfgs.push(("c=16".into(), GpuConfig { window: Some(16), ..d }));
                cfgs.push(("c=16 segments=256".into(), GpuConfig { window: Some(16), segments: 256, ..d }));
                for max_run in [16u32, 32] {
                    cfgs.push((format!("max_run={max_run}"), GpuConfig { max_run, ..d }));
                }
                cfgs.push(("wg=128".into(), GpuConfig { workgroup: 128, ..d }));
                cfgs.push(("combine=cpu".into(), GpuConfig { combine: Placement::Cpu, ..d }));
                cfgs.push(("scalars=cpu".into(), GpuConfig { scalars: Placement::Cpu, ..d }));
                cfgs.push(("prefetch".into(), GpuConfig { prefetch: true, ..d }));
            }
            Some("compare") => {
                cfgs = vec![(format!("default (c={c0}, GPU sort)"), d), (format!("CPU sort (c={c0})"), GpuConfig { sort: Placement::Cpu, ..d })];
                for seg in [64u32, 1024, 4096] {
                    cfgs.push((format!("segments={seg}"), GpuConfig { segments: seg, ..d }));
                }
                for max_run in [16u32, 32, 128] {
                    cfgs.push((format!("max_run={max_run}"), GpuConfig { max_run, ..d }));
                }
                cfgs.push(("wg=128".into(), GpuConfig { workgroup: 128, ..d }));
                cfgs.push(("unrolled".into(), GpuConfig { unroll: Some(true), ..d }));
                cfgs.push(("combine=cpu".into(), GpuConfig { combine: Placement::Cpu, ..d }));
                cfgs.push(("prefetch".into(), GpuConfig { prefetch: true, ..d }));
                for tree_roots in [1u32, 8, 128] {
                    cfgs.push((format!("tree_roots={tree_roots}"), GpuConfig { tree_roots, ..d }));
                }
                if c0 > 12 {
                    cfgs.push((format!("c={}", c0 - 1), GpuConfig { window: Some(c0 - 1), ..d }));
                }
                if c0 < 16 {
                    cfgs.push((format!("c={}", c0 + 1), GpuConfig { window: Some(c0 + 1), ..d }));
                }
                if lg == 20 || lg < 16 {
                    for s in [8u32, 16, 32, 64] {
                        cfgs.push((format!("affine S={s}"), GpuConfig { accumulate: Accumulate::BatchAffine { s }, ..d }));
                    }
                }
            }
            _ => {}
        }
        println!("| config | median ms | {} |", PhaseTimes::TABLE_HEADER);
        println!("|---|---|---|---|---|---|---|---|---|---|---|");
        if std::env::args().nth(3).as_deref() == Some("merge") {
            // The tree merge of a bucket's runs against the serial one: equal scalars (every
            // point in one bucket per window) and random scalars at c = 14 (the top window of
            // a 255-bit scalar has few buckets), each with merge_serial 16 and never.
            let equal = vec![sc[0]; n];
            let want_eq = zkforge_msm::msm(&pts, &equal).unwrap();
            for (what, scal, w, c) in [("equal scalars", &equal, &want_eq, c0), ("random", &sc, &want, c0), ("random", &sc, &want, 14)] {
                for merge_serial in [16u32, u32::MAX] {
                    let label = format!("{what} c={c} merge_serial={}", if merge_serial == u32::MAX { "never".to_string() } else { merge_serial.to_string() });
                    time_row(&gpu, &bases, scal, w, &label, &GpuConfig { window: Some(c), merge_serial, ..d }, runs);
                }
            }
            continue;
        }
        for (label, cfg) in cfgs {
            time_row(&gpu, &bases, &sc, &want, &label, &cfg, runs);
        }
    }
}

/// One table row: an untimed run first (pipelines compile on first use, seconds on some
/// drivers), a profiled run checked against `want`, then the median of `runs` timed runs.
fn time_row<C: GpuCurve, S: zkforge_msm::MsmScalar<C>>(gpu: &GpuMsm<C>, bases: &GpuBases<C>, sc: &[S], want: &zkforge_curve::Jacobian<C>, label: &str, cfg: &GpuConfig, runs: usize) {
    if let Err(e) = gpu.msm_resident(bases, sc, cfg) {
        println!("| {label} | error: {e} |");
        return;
    }
    let (got, ph) = match gpu.msm_profiled(bases, sc, cfg) {
        Ok(x) => x,
        Err(e) => {
            println!("| {label} | error: {e} |");
            return;
        }
    };
    assert_eq!(&got, want, "{label}");
    let mut ts: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            let _ = gpu.msm_resident(bases, sc, cfg).unwrap();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ts.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("| {label} | {:.2} | {} |", ts[ts.len() / 2], ph.table_cells());
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let max_log = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let runs = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    run::<bls12_381::G1Config>("BLS12-381 G1", max_log, runs, |k| zkforge_field::bls12_381::Fr::from_limbs(zkforge_curve::scalar_mul::reduce_scalar::<bls12_381::G1Config>(k)).unwrap());
    run::<bn254::G1Config>("BN254 G1", max_log, runs, |k| zkforge_field::bn254::Fr::from_limbs(zkforge_curve::scalar_mul::reduce_scalar::<bn254::G1Config>(k)).unwrap());
}

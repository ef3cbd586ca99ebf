//! CUDA MSM sweep (feature `cuda`), with the wgpu/Vulkan MSM on the same inputs when an adapter
//! is present: end-to-end time with resident bases (median of runs) and per-phase times (wall
//! clock and CUDA events), both curves, 2^16 - 2^22. Every configuration's result is checked
//! against zkforge-msm before it is timed.
//!
//! `cargo run --release -p zkforge-gpu --features cuda --example cuda_bench -- [max_log] [runs] [default|sweep]`

#[path = "../tests/common/mod.rs"]
mod common;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::time::{Duration, Instant};
use zkforge_curve::{bls12_381, bn254, Jacobian};
use zkforge_gpu::*;

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1e3)
}

fn median(mut ts: Vec<f64>) -> f64 {
    ts.sort_by(|a, b| a.partial_cmp(b).unwrap());
    ts[ts.len() / 2]
}

/// One table row: the result checked (plain and profiled), then the median of `runs` MSMs.
fn row<C: GpuCurve, S: zkforge_msm::MsmScalar<C>>(cuda: &CudaMsm<C>, bases: &CudaBases<C>, sc: &[S], want: &Jacobian<C>, label: &str, cfg: &CudaConfig, runs: usize) {
    match cuda.msm_resident(bases, sc, cfg) {
        Ok(got) if got == *want => {}
        Ok(_) => return println!("| {label} | WRONG RESULT |"),
        Err(e) => return println!("| {label} | error: {e} |"),
    }
    let (got, ph) = cuda.msm_profiled(bases, sc, cfg).unwrap();
    if got != *want {
        return println!("| {label} | WRONG RESULT (profiled) |");
    }
    let ts: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            let _ = cuda.msm_resident(bases, sc, cfg).unwrap();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    println!("| {label} | {:.2} | {} |", median(ts), ph.table_cells());
}

fn run<C: GpuCurve>(name: &str, max_log: u32, runs: usize, sweep: bool, field: fn(&[u64; 4]) -> C::Scalar)
where
    C::Scalar: zkforge_msm::MsmScalar<C>,
{
    let t = Instant::now();
    let cuda = CudaMsm::<C>::new(0).expect("CUDA device");
    println!("# {name}: device opened and default kernels ready in {} ms (ZKFORGE_CUDA_KERNELS={:?})", ms(t.elapsed()), std::env::var("ZKFORGE_CUDA_KERNELS").ok());
    let vk = GpuMsm::<C>::new(&GpuOptions::default()).ok();
    println!("# {name} on {}; wgpu: {}", cuda.device_name(), vk.as_ref().map_or("none".into(), |g| g.adapter_name()));
    let mut r = StdRng::seed_from_u64(11);
    let sizes: Vec<u32> = [16u32, 18, 20, 22].into_iter().filter(|&l| l <= max_log).collect();
    for lg in sizes {
        let n = 1usize << lg;
        let pts = common::many_points::<C>(&mut StdRng::seed_from_u64(7), n);
        let sc: Vec<[u64; 4]> = (0..n).map(|_| [r.gen(), r.gen(), r.gen(), r.gen::<u64>() >> 2]).collect();
        let t = Instant::now();
        let want = zkforge_msm::msm(&pts, &sc).unwrap();
        let cpu_ms = t.elapsed().as_secs_f64() * 1e3;
        let bases = cuda.upload_bases(&pts).unwrap();
        println!("## {name} n = 2^{lg}: CUDA upload (resident bases) {} ms; CPU zkforge-msm (all cores) {cpu_ms:.2} ms", ms(bases.upload_time));
        let d = CudaConfig::for_size(n);
        let c0 = d.window_for(n);
        let mut cfgs: Vec<(String, CudaConfig)> = vec![(format!("CUDA default (c={c0}, {:?} mul, max_run={}, segments={})", d.mul, d.max_run, d.segments), d)];
        for mul in CudaMul::ALL.into_iter().filter(|&m| m != d.mul) {
            cfgs.push((format!("CUDA {mul:?} mul"), CudaConfig { mul, ..d }));
        }
        if sweep {
            for c in [c0 - 2, c0 - 1, c0 + 1].into_iter().filter(|c| (8..=16).contains(c)) {
                cfgs.push((format!("c={c}"), CudaConfig { window: Some(c), ..d }));
            }
            for max_run in [8u32, 16, 32, 64].into_iter().filter(|&m| m != d.max_run) {
                cfgs.push((format!("max_run={max_run}"), CudaConfig { max_run, ..d }));
            }
            for acc_regs in [64u32, 96, 128] {
                cfgs.push((format!("acc_regs={acc_regs}"), CudaConfig { acc_regs, ..d }));
            }
            for block in [64u32, 256] {
                cfgs.push((format!("block={block}"), CudaConfig { block, ..d }));
            }
            for segments in [256u32, 512, 1024, 2048, 4096].into_iter().filter(|&s| s != d.segments) {
                cfgs.push((format!("segments={segments}"), CudaConfig { segments, ..d }));
            }
            cfgs.push(("max_run=8, segments=256".into(), CudaConfig { max_run: 8, segments: 256, ..d }));
            cfgs.push(("max_run=8, segments=512".into(), CudaConfig { max_run: 8, segments: 512, ..d }));
            for tree_roots in [1u32, 8, 128].into_iter().filter(|&r| r != d.tree_roots) {
                cfgs.push((format!("tree_roots={tree_roots}"), CudaConfig { tree_roots, ..d }));
            }
            cfgs.push(("combine=cpu".into(), CudaConfig { combine: Placement::Cpu, ..d }));
            cfgs.push(("reduce=cpu".into(), CudaConfig { reduce: Placement::Cpu, ..d }));
            cfgs.push(("buffers not reused".into(), CudaConfig { reuse_buffers: false, ..d }));
            cfgs.push(("pinned=false".into(), CudaConfig { pinned: false, ..d }));
        }
        cfgs.push(("scalars=cpu (reduced on the host)".into(), CudaConfig { scalars: Placement::Cpu, ..d }));
        cfgs.push(("prefetch (next base loaded before each addition)".into(), CudaConfig { prefetch: true, ..d }));
        println!("| config | median ms | {} |", PhaseTimes::TABLE_HEADER);
        println!("|---|---|---|---|---|---|---|---|---|---|---|");
        for (label, cfg) in cfgs {
            row(&cuda, &bases, &sc, &want, &label, &cfg, runs);
        }
        // The same scalars as field elements (Montgomery limbs), the usual caller's form:
        // converted on the GPU (default) or on the host.
        let fr: Vec<C::Scalar> = sc.iter().map(field).collect();
        row(&cuda, &bases, &fr, &want, "field-element scalars (default: converted on the GPU)", &d, runs);
        row(&cuda, &bases, &fr, &want, "field-element scalars, scalars=cpu", &CudaConfig { scalars: Placement::Cpu, ..d }, runs);
        // A skewed scalar set: every scalar equal (one bucket a window, n / max_run runs in it),
        // with the tree merge (default) and, at small sizes, without it.
        let skew = vec![sc[0]; n];
        let want_skew = zkforge_msm::msm(&pts, &skew).unwrap();
        row(&cuda, &bases, &skew, &want_skew, "equal scalars (tree merge)", &d, runs);
        if lg <= 16 {
            row(&cuda, &bases, &skew, &want_skew, "equal scalars, merge_serial=MAX", &CudaConfig { merge_serial: u32::MAX, ..d }, runs);
        }
        // Window-folded bases (`upload_bases_folded`, copies built on the device): the windows
        // share `sets` bucket sets, so the reduction shrinks and a wider window pays. At 2^16
        // the host build of the same tables (`FoldTables::new`) is timed too.
        if lg <= fold_max_log() {
            if lg == 16 {
                let t = Instant::now();
                let tables = plan::FoldTables::new(&pts, plan::Fold::new(16, 1).unwrap());
                println!("# folded tables c=16, 1 set: {} copies built on the host in {} ms", tables.fold().copies, ms(t.elapsed()));
            }
            // Each fold with its own default (`CudaConfig::for_fold`: segments raised to keep
            // 16 buckets a segment); c = 20 into one set (13 digit windows instead of 18: the
            // fewest additions at 2^20, BENCHMARKS.md) with its switches beside it.
            for (c, sets) in [(16u32, 1usize), (16, 2), (15, 1), (18, 1), (20, 1), (21, 1)] {
                let fold = plan::Fold::new(c, sets).unwrap();
                let fd = CudaConfig::for_fold(n, fold);
                let fb = match cuda.upload_bases_folded(&pts, fold) {
                    Ok(b) => b,
                    Err(e) => {
                        println!("| folded c={c}, {sets} sets | error: {e} |");
                        continue;
                    }
                };
                let label = format!("folded bases c={c}, {sets} bucket sets ({} copies, built on the device and uploaded in {} ms; segments={})", fold.copies, ms(fb.upload_time), fd.segments);
                row(&cuda, &fb, &sc, &want, &label, &fd, runs);
                if c == 20 && sets == 1 {
                    row(&cuda, &fb, &sc, &want, "folded c=20, 1 set, prefetch", &CudaConfig { prefetch: true, ..fd }, runs);
                    for max_run in [8u32, 32, 64] {
                        row(&cuda, &fb, &sc, &want, &format!("folded c=20, 1 set, max_run={max_run}"), &CudaConfig { max_run, ..fd }, runs);
                    }
                    for segments in [fd.segments / 4, fd.segments * 4] {
                        row(&cuda, &fb, &sc, &want, &format!("folded c=20, 1 set, segments={segments}"), &CudaConfig { segments, ..fd }, runs);
                    }
                    row(&cuda, &fb, &fr, &want, "folded c=20, 1 set, field-element scalars", &fd, runs);
                }
                drop(fb);
                cuda.release_buffers();
            }
        }
        if let Some(vk) = &vk {
            // The wgpu default, and its two host placements for comparison: the segment sums
            // combined on the host, the scalars reduced on the host.
            let vb = vk.upload_bases(&pts).unwrap();
            let d = GpuConfig::for_size(n);
            for (label, cfg) in [("wgpu/Vulkan default", d), ("wgpu/Vulkan combine=cpu", GpuConfig { combine: Placement::Cpu, ..d }), ("wgpu/Vulkan scalars=cpu", GpuConfig { scalars: Placement::Cpu, ..d }), ("wgpu/Vulkan prefetch", GpuConfig { prefetch: true, ..d })] {
                assert_eq!(vk.msm_resident(&vb, &sc, &cfg).unwrap(), want, "{label}");
                let (_, ph) = vk.msm_profiled(&vb, &sc, &cfg).unwrap();
                let ts: Vec<f64> = (0..runs)
                    .map(|_| {
                        let t = Instant::now();
                        let _ = vk.msm_resident(&vb, &sc, &cfg).unwrap();
                        t.elapsed().as_secs_f64() * 1e3
                    })
                    .collect();
                println!("| {label} | {:.2} | {} |", median(ts), ph.table_cells());
            }
        }
    }
}

/// Largest size with folded-bases rows (`ZKFORGE_FOLD_MAX_LOG`, default 20; 18 copies of the
/// bases at c = 15: 1.7 GiB for BLS12-381 at 2^20).
fn fold_max_log() -> u32 {
    std::env::var("ZKFORGE_FOLD_MAX_LOG").ok().and_then(|s| s.parse().ok()).unwrap_or(20)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let max_log = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let runs = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let sweep = args.get(3).map(String::as_str) == Some("sweep");
    run::<bls12_381::G1Config>("BLS12-381 G1", max_log, runs, sweep, |k| zkforge_field::bls12_381::Fr::from_limbs(zkforge_curve::scalar_mul::reduce_scalar::<bls12_381::G1Config>(k)).unwrap());
    run::<bn254::G1Config>("BN254 G1", max_log, runs, sweep, |k| zkforge_field::bn254::Fr::from_limbs(zkforge_curve::scalar_mul::reduce_scalar::<bn254::G1Config>(k)).unwrap());
}

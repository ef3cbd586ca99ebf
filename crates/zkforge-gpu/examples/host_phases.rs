//! Host time of the two host phases the GPU MSMs moved to the device, on this machine's cores.
//!
//! 1. The scalar staging before the upload (`GpuConfig::scalars`,
//! `CudaConfig::scalars`): reducing on the host (`Cpu`: field elements out of Montgomery form,
//! raw integers mod r) against copying the limbs as stored for the device to convert (`Gpu`),
//! into a reused (pooled) buffer in blocks of 4096 on the rayon pool, as `host.rs` does, on
//! this machine's cores, for 2^k scalars of both kinds. A fresh vector for each MSM (the code
//! before the pool) is the first column.
//! 2. The combination of the reduction's segment sums (`GpuConfig::combine`,
//!    `CudaConfig::combine`): every window's T segment triples joined on the host, against the
//!    GPU tree's 32 root triples a window (`plan::window_sums`), for c = 15 (17 windows) and
//!    T = 1024, the default from 2^15 points; random points stand in for the sums.
//! 3. The one-time host precomputation of window-folded bases (`plan::FoldTables::new`, what
//!    `upload_bases_folded` runs before its upload) for c = 16 into 1 and 2 bucket sets and
//!    c = 15 into 1, on min(2^log_n, 2^16) BLS12-381 points, timed once, with the time a
//!    point and that times 2^20.
//!
//! `cargo run --release -p zkforge-gpu --example host_phases -- [log_n] [runs]`
use rand::{rngs::StdRng, Rng, SeedableRng};
use rayon::prelude::*;
use std::time::Instant;
use zkforge_curve::bls12_381::G1Config;
use zkforge_curve::Xyzz;
use zkforge_field::bls12_381::Fr;
use zkforge_msm::MsmScalar;

fn median(mut f: impl FnMut() -> usize, runs: usize) -> f64 {
    let mut ts: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ts.sort_by(|a, b| a.partial_cmp(b).unwrap());
    ts[ts.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let lg: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let runs: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(9);
    let n = 1usize << lg;
    let mut r = StdRng::seed_from_u64(5);
    let fr: Vec<Fr> = (0..n).map(|_| Fr::random_with(|| r.gen())).collect();
    let raw: Vec<[u64; 4]> = (0..n).map(|_| [r.gen(), r.gen(), r.gen(), r.gen::<u64>() >> 2]).collect();
    println!("2^{lg} scalars, {} threads, median of {runs}, ms", rayon::current_num_threads());
    println!("| scalars | host reduces into a fresh vector (before) | host reduces, pooled (scalars = Cpu) | host copies, pooled (scalars = Gpu) | Gpu / before |");
    println!("|---|---:|---:|---:|---:|");
    let mut pool = vec![[0u64; 4]; n];
    let mut fill = |f: &(dyn Fn(usize) -> [u64; 4] + Sync)| {
        pool.par_chunks_mut(4096).enumerate().for_each(|(b, o)| {
            for (j, o) in o.iter_mut().enumerate() {
                *o = f(4096 * b + j);
            }
        });
        pool.len()
    };
    let fresh_fr = median(|| fr.par_iter().map(MsmScalar::<G1Config>::to_limbs).collect::<Vec<_>>().len(), runs);
    let reduce_fr = median(|| fill(&|i| MsmScalar::<G1Config>::to_limbs(&fr[i])), runs);
    let copy_fr = median(|| fill(&|i| MsmScalar::<G1Config>::raw_limbs(&fr[i])), runs);
    println!("| BLS12-381 Fr | {fresh_fr:.2} | {reduce_fr:.2} | {copy_fr:.2} | {:.2} |", copy_fr / fresh_fr);
    let fresh_raw = median(|| raw.par_iter().map(zkforge_curve::scalar_mul::reduce_scalar::<G1Config>).collect::<Vec<_>>().len(), runs);
    let reduce_raw = median(|| fill(&|i| zkforge_curve::scalar_mul::reduce_scalar::<G1Config>(&raw[i])), runs);
    let copy_raw = median(|| fill(&|i| MsmScalar::<G1Config>::raw_limbs(&raw[i])), runs);
    println!("| [u64; 4] below 2^254 | {fresh_raw:.2} | {reduce_raw:.2} | {copy_raw:.2} | {:.2} |", copy_raw / fresh_raw);

    // 2. Window sums from segment triples (host) or tree roots (GPU tree), 17 windows.
    let (nw, t, roots, l) = (17usize, 1024usize, 32usize, 16usize);
    let pts: Vec<Xyzz<G1Config>> = zkforge_curve::sample_points::<G1Config>(&mut r, 3 * nw * t).iter().map(|a| Xyzz::IDENTITY.add_mixed_vartime(a)).collect();
    let host = median(|| zkforge_gpu::plan::window_sums(&pts, t, l, false).len(), runs);
    let tree = median(|| zkforge_gpu::plan::window_sums(&pts[..3 * nw * roots], roots, l, true).len(), runs);
    println!();
    println!("| combination of 17 windows, BLS12-381 | segments joined on the host (combine = Cpu) | 32 tree roots joined on the host (combine = Gpu) | ratio |");
    println!("|---|---:|---:|---:|");
    println!("| T = {t} segments a window | {host:.2} | {tree:.2} | {:.3} |", tree / host);

    // 3. Folded tables: one run each (a setup cost, not a per-MSM one).
    let m = n.min(1 << 16);
    let bases = zkforge_curve::sample_points::<G1Config>(&mut r, m);
    println!();
    println!("| folded bases, BLS12-381, {m} points | copies | doublings a point | ms | us a point | x 2^20 points, s |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (c, sets) in [(16u32, 1usize), (16, 2), (15, 1)] {
        let fold = zkforge_gpu::plan::Fold::new(c, sets).unwrap();
        let t = Instant::now();
        let tables = zkforge_gpu::plan::FoldTables::new(&bases, fold);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        assert_eq!(tables.points().len(), m * fold.copies);
        let per = ms * 1e3 / m as f64;
        println!("| c = {c}, {} sets | {} | {} | {ms:.1} | {per:.2} | {:.1} |", fold.sets, fold.copies, (fold.copies - 1) * c as usize * fold.sets, per * (1u64 << 20) as f64 / 1e6);
    }
}

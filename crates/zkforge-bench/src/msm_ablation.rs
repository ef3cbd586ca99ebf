//! MSM ablation (`zkforge bench msm-ablation`): at each size 2^lo..2^hi, every switch of
//! `MsmConfig` alone and combined (XYZZ or batch-affine buckets, with or without the GLV
//! split, the two thread splits), per phase (decompose, accumulate, reduce, combine), then
//! sweeps of the window width c around the default and of the batch size S (as in the rust-kzg
//! seed's sweep). These runs produced the table in `MsmConfig::for_size`. BLS12-381 G1,
//! random points and scalars; each row is the best of a few runs (ms).

use std::fmt::Write as _;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand::{rngs::StdRng, SeedableRng};
use zkforge_curve::bls12_381 as bls;
use zkforge_msm::{msm_profiled, Buckets, MsmConfig, PhaseTimes, SmallMethod, Split};

/// What to sweep.
#[derive(Clone, Copy, Debug)]
pub struct AblationOptions {
    /// Smallest log2 size.
    pub min_log: u32,
    /// Largest log2 size (20 in the issue; 22 by hand).
    pub max_log: u32,
    /// Thread count of every row.
    pub threads: usize,
    /// Include the c and S sweeps (slower).
    pub sweeps: bool,
}

/// The named configurations measured at size n.
pub fn rows_for(n: usize, threads: usize, sweeps: bool) -> Vec<(String, MsmConfig)> {
    let base = MsmConfig::for_size(n, threads);
    let c = base.window.unwrap_or(8);
    let split = if threads > 1 { base.split } else { Split::Windows };
    let mk = |glv: bool, buckets: Buckets, small: usize| MsmConfig { window: Some(c), glv, buckets, small_threshold: small, small_method: SmallMethod::Straus, threads, split };
    let mut rows: Vec<(String, MsmConfig)> = vec![
        ("xyzz".into(), mk(false, Buckets::Xyzz, 0)),
        ("xyzz+glv".into(), mk(true, Buckets::Xyzz, 0)),
        ("batch-affine(256)".into(), mk(false, Buckets::BatchAffine { batch: 256 }, 0)),
        ("batch-affine(256)+glv".into(), mk(true, Buckets::BatchAffine { batch: 256 }, 0)),
        ("straus".into(), mk(true, Buckets::Xyzz, usize::MAX)),
        ("singles".into(), MsmConfig { small_method: SmallMethod::Singles, ..mk(true, Buckets::Xyzz, usize::MAX) }),
        ("default".into(), base),
    ];
    if n > 1 << 14 {
        // Straus and singles are quadratic-ish in memory traffic at large n: not informative.
        rows.retain(|(name, _)| name != "straus" && name != "singles");
    }
    if threads > 1 {
        for sp in [Split::Windows, Split::Points] {
            for glv in [false, true] {
                let cfg = MsmConfig { split: sp, glv, small_threshold: 0, ..base };
                rows.push((format!("split={sp:?} glv={glv}"), cfg));
            }
        }
    }
    if sweeps {
        for cc in c.saturating_sub(2).max(2)..=(c + 2).min(16) {
            rows.push((format!("default, c={cc}"), MsmConfig { window: Some(cc), small_threshold: 0, ..base }));
        }
        if n >= 1 << 8 {
            for s in [32usize, 64, 128, 256, 512, 1024, 2048, 4096] {
                rows.push((format!("S={s}"), mk(base.glv, Buckets::BatchAffine { batch: s }, 0)));
            }
        }
    }
    rows
}

/// Run the ablation and return the printed table.
pub fn run(opts: AblationOptions, mut progress: impl FnMut(&str)) -> String {
    let max = 1usize << opts.max_log;
    let mut rng = StdRng::seed_from_u64(5);
    let pts = zkforge_curve::sample_points::<bls::G1Config>(&mut rng, max);
    let ks: Vec<zkforge_field::bls12_381::Fr> = (0..max).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng)).collect();
    let mut out = String::new();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    for lg in opts.min_log..=opts.max_log {
        let n = 1usize << lg;
        let reps = if lg <= 12 { 7 } else if lg <= 16 { 3 } else { 1 };
        let base = MsmConfig::for_size(n, opts.threads);
        let mut block = String::new();
        let _ = writeln!(
            block,
            "\nn = 2^{lg}, threads = {}, default: c = {}, glv = {}, {:?}, split {:?}; ms, best of {reps}",
            opts.threads,
            base.window.unwrap_or(0),
            base.glv,
            base.buckets,
            base.split
        );
        let _ = writeln!(block, "{:<24} {:>10} | {:>9} {:>10} {:>9} {:>9}", "config", "total", "decompose", "accumulate", "reduce", "combine");
        for (name, cfg) in rows_for(n, opts.threads, opts.sweeps) {
            let mut best = (f64::MAX, PhaseTimes::default());
            for _ in 0..reps {
                let times = Mutex::new(PhaseTimes::default());
                let t = Instant::now();
                std::hint::black_box(msm_profiled(&pts[..n], &ks[..n], &cfg, Some(&times)).expect("valid ablation config"));
                let total = t.elapsed().as_secs_f64() * 1e3;
                if total < best.0 {
                    best = (total, times.into_inner().unwrap_or_default());
                }
            }
            let p = best.1;
            let _ = writeln!(
                block,
                "{name:<24} {:>10.3} | {:>9.3} {:>10.3} {:>9.3} {:>9.3}",
                best.0,
                ms(p.decompose),
                ms(p.accumulate),
                ms(p.reduce),
                ms(p.combine)
            );
        }
        progress(&block);
        out.push_str(&block);
    }
    out
}

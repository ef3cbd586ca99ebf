//! MSM ablation: each switch alone and combined, per phase, plus sweeps of the window width c
//! (around the default) and of the batch size S. These runs produced `MsmConfig::for_size`.
//! `cargo run --release -p zkforge-bench --example msm_ablation -- LOG2N [THREADS]`
//! Prints milliseconds (best of a few runs): total, then decompose/accumulate/reduce/combine.
use std::sync::Mutex;
use std::time::Instant;

use rand::{rngs::StdRng, SeedableRng};
use zkforge_curve::bls12_381 as bls;
use zkforge_msm::{msm_profiled, Buckets, MsmConfig, PhaseTimes, SmallMethod, Split};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let lg: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(12);
    let threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let n = 1usize << lg;
    let mut rng = StdRng::seed_from_u64(5);
    let pts = zkforge_curve::sample_points::<bls::G1Config>(&mut rng, n);
    let ks: Vec<zkforge_field::bls12_381::Fr> = (0..n).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng)).collect();
    let reps = if lg <= 12 { 5 } else if lg <= 16 { 3 } else { 1 };
    let base = MsmConfig::for_size(n, threads);
    let c = base.window.unwrap();
    let split = if threads > 1 { base.split } else { Split::Windows };
    let mk = |glv: bool, buckets: Buckets, c: u32| MsmConfig { window: Some(c), glv, buckets, small_threshold: 0, small_method: SmallMethod::Straus, threads, split };
    let mut rows: Vec<(String, MsmConfig)> = vec![
        ("xyzz".into(), mk(false, Buckets::Xyzz, c)),
        ("xyzz+glv".into(), mk(true, Buckets::Xyzz, c)),
        ("batch-affine(256)".into(), mk(false, Buckets::BatchAffine { batch: 256 }, c)),
        ("batch-affine(256)+glv".into(), mk(true, Buckets::BatchAffine { batch: 256 }, c)),
        ("default".into(), base),
    ];
    if threads > 1 {
        for sp in [Split::Windows, Split::Points] {
            for glv in [false, true] {
                let mut cfg = base;
                cfg.split = sp;
                cfg.glv = glv;
                rows.push((format!("{sp:?} glv={glv}"), cfg));
            }
        }
    }
    for cc in c.saturating_sub(3).max(2)..=(c + 3).min(16) {
        let mut cfg = base;
        cfg.window = Some(cc);
        rows.push((format!("default, c={cc}"), cfg));
    }
    for s in [32usize, 64, 128, 256, 512, 1024, 2048, 4096] {
        rows.push((format!("S={s}"), mk(false, Buckets::BatchAffine { batch: s }, c)));
    }
    println!("n = 2^{lg}, threads = {threads}, window c = {c}; ms (best of {reps}): total | decompose accumulate reduce combine");
    for (name, cfg) in rows {
        let mut best = (f64::MAX, PhaseTimes::default());
        for _ in 0..reps {
            let times = Mutex::new(PhaseTimes::default());
            let t = Instant::now();
            std::hint::black_box(msm_profiled(&pts, &ks, &cfg, Some(&times)));
            let total = t.elapsed().as_secs_f64() * 1e3;
            if total < best.0 {
                best = (total, times.into_inner().unwrap());
            }
        }
        let p = best.1;
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        println!(
            "{name:<24} {:>9.1} | {:>8.1} {:>9.1} {:>8.1} {:>8.1}",
            best.0,
            ms(p.decompose),
            ms(p.accumulate),
            ms(p.reduce),
            ms(p.combine)
        );
    }
}

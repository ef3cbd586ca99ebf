//! The portable batch-affine buckets against the AVX-512 IFMA ones (`Buckets::BatchAffineSimd`)
//! on the same G1 MSM, interleaved run by run (best of 5 each), results checked equal; one
//! thread (or `THREADS` from the environment), the default window and split of
//! `MsmConfig::for_size` for each size.
//! `cargo run --release -p zkforge-bench --example msm_simd_ab -- [LOG2N...]`; with `--sweep LOG2N...`
//! it sweeps S and the window of the IFMA kind instead (env: `S=512,1024` the batch sizes, `GLV=0|1`
//! the split, `CURVE=bls` BLS12-381 only); with `--fixed LOG2N...` it compares the
//! two kinds on fixed-base tables.
use rand::{rngs::StdRng, SeedableRng};
use std::sync::Mutex;
use zkforge_curve::{bls12_381 as bls, bn254 as bn, Affine, CurveConfig};
use zkforge_msm::{msm_profiled, Buckets, FixedBaseMsm, MsmConfig, PhaseTimes};

fn run<C: CurveConfig>(name: &str, lg: u32, ks: &[[u64; 4]], rng: &mut StdRng) {
    let n = 1usize << lg;
    let pts: Vec<Affine<C>> = zkforge_curve::sample_points(rng, n);
    let threads: usize = std::env::var("THREADS").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let base = MsmConfig::for_size(n, threads);
    let batch = base.buckets.batch().unwrap_or(256);
    let forms = [("portable", Buckets::BatchAffine { batch }), ("ifma", Buckets::BatchAffineSimd { batch })];
    let mut best = [(f64::MAX, PhaseTimes::default()); 2];
    let mut outs = Vec::new();
    for _ in 0..5 {
        for (i, (_, b)) in forms.iter().enumerate() {
            let cfg = MsmConfig { buckets: *b, ..base };
            let times = Mutex::new(PhaseTimes::default());
            let t = std::time::Instant::now();
            let r = msm_profiled(&pts, &ks[..n], &cfg, Some(&times)).unwrap();
            let e = t.elapsed().as_secs_f64() * 1e3;
            if e < best[i].0 {
                best[i] = (e, *times.lock().unwrap());
            }
            outs.push(r);
        }
    }
    assert!(outs.windows(2).all(|w| w[0] == w[1]), "results differ");
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    for (i, (label, _)) in forms.iter().enumerate() {
        let (t, p) = best[i];
        println!(
            "{name} 2^{lg:<2} {label:<9} {t:9.2} ms  (decompose {:.2}, accumulate {:.2}, reduce {:.2}, combine {:.2})",
            ms(p.decompose),
            ms(p.accumulate),
            ms(p.reduce),
            ms(p.combine)
        );
    }
    println!("{name} 2^{lg:<2} ifma/portable {:.3}   (ifma available: {})", best[1].0 / best[0].0, zkforge_msm::ifma::available());
}

/// The IFMA kind over S in 64..=1024 and the window c - 1, c, c + 1 around the default (best of
/// 3 each), one thread.
fn sweep<C: CurveConfig>(name: &str, lg: u32, ks: &[[u64; 4]], rng: &mut StdRng) {
    let n = 1usize << lg;
    let pts: Vec<Affine<C>> = zkforge_curve::sample_points(rng, n);
    // GLV=0|1 overrides the table's GLV split, S=a,b,.. the batch sizes swept
    let mut base = MsmConfig::for_size(n, 1);
    if let Ok(g) = std::env::var("GLV") {
        base.glv = g == "1";
    }
    let sizes: Vec<usize> = std::env::var("S").ok().map(|v| v.split(',').filter_map(|x| x.parse().ok()).collect()).unwrap_or_else(|| vec![64, 128, 256, 512, 1024]);
    let c0 = base.window.unwrap_or(8);
    for c in [c0 - 1, c0, c0 + 1] {
        let mut line = format!("{name} 2^{lg:<2} glv={} c={c:<2}", base.glv);
        for &s in &sizes {
            let cfg = MsmConfig { buckets: Buckets::BatchAffineSimd { batch: s }, window: Some(c), ..base };
            let mut best = f64::MAX;
            for _ in 0..3 {
                let t = std::time::Instant::now();
                std::hint::black_box(msm_profiled(&pts, &ks[..n], &cfg, None).unwrap());
                best = best.min(t.elapsed().as_secs_f64() * 1e3);
            }
            line += &format!("  S={s}: {best:8.2}");
        }
        println!("{line} ms");
    }
}

/// Fixed-base tables (c = 12, stride 1, S = 256) with the portable and the IFMA buckets,
/// interleaved, best of 7.
fn fixed<C: CurveConfig>(name: &str, lg: u32, ks: &[[u64; 4]], rng: &mut StdRng) {
    let n = 1usize << lg;
    let pts: Vec<Affine<C>> = zkforge_curve::sample_points(rng, n);
    let tables = [
        ("portable", FixedBaseMsm::with_params(&pts, 12, 1, Buckets::BatchAffine { batch: 256 }).unwrap()),
        ("ifma", FixedBaseMsm::with_params(&pts, 12, 1, Buckets::BatchAffineSimd { batch: 256 }).unwrap()),
    ];
    let want = tables[0].1.msm(&ks[..n]).unwrap();
    let mut best = [f64::MAX; 2];
    for _ in 0..7 {
        for (i, (_, t)) in tables.iter().enumerate() {
            let s = std::time::Instant::now();
            assert_eq!(t.msm(&ks[..n]).unwrap(), want);
            best[i] = best[i].min(s.elapsed().as_secs_f64() * 1e3);
        }
    }
    for (i, (label, t)) in tables.iter().enumerate() {
        println!("{name} fixed 2^{lg} {label:<9} {:8.2} ms  tables {:.1} MB", best[i], t.memory_bytes() as f64 / 1e6);
    }
    println!("{name} fixed 2^{lg} ifma/portable {:.3}", best[1] / best[0]);
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--fixed") {
        let lgs: Vec<u32> = std::env::args().skip(2).filter_map(|s| s.parse().ok()).collect();
        let mut rng = StdRng::seed_from_u64(7);
        let max = 1usize << lgs.iter().max().copied().unwrap_or(12);
        let ks: Vec<[u64; 4]> = (0..max).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng).to_limbs()).collect();
        for &lg in &lgs {
            fixed::<bls::G1Config>("bls12_381", lg, &ks, &mut rng);
            fixed::<bn::G1Config>("bn254    ", lg, &ks, &mut rng);
        }
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("--sweep") {
        let lgs: Vec<u32> = std::env::args().skip(2).filter_map(|s| s.parse().ok()).collect();
        let mut rng = StdRng::seed_from_u64(7);
        let max = 1usize << lgs.iter().max().copied().unwrap_or(16);
        let ks: Vec<[u64; 4]> = (0..max).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng).to_limbs()).collect();
        for &lg in &lgs {
            sweep::<bls::G1Config>("bls12_381", lg, &ks, &mut rng);
            if std::env::var("CURVE").as_deref() != Ok("bls") {
                sweep::<bn::G1Config>("bn254    ", lg, &ks, &mut rng);
            }
        }
        return;
    }
    let lgs: Vec<u32> = std::env::args().skip(1).filter_map(|s| s.parse().ok()).collect();
    let lgs = if lgs.is_empty() { vec![8, 12, 16] } else { lgs };
    let mut rng = StdRng::seed_from_u64(7);
    let max = 1usize << lgs.iter().max().copied().unwrap_or(16);
    let ks: Vec<[u64; 4]> = (0..max).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng).to_limbs()).collect();
    for &lg in &lgs {
        run::<bls::G1Config>("bls12_381", lg, &ks, &mut rng);
        run::<bn::G1Config>("bn254    ", lg, &ks, &mut rng);
    }
}

//! GPU MSM and the generated field arithmetic against zkforge-field / zkforge-msm, on
//! whatever adapter wgpu finds (Mesa's lavapipe in CI). Without an adapter the tests say so
//! and pass, unless ZKFORGE_REQUIRE_GPU=1 (CI sets it) makes that a failure.

mod common;
use common::*;
use rand::Rng;
use std::sync::OnceLock;
use zkforge_curve::{bls12_381, bn254, Affine, Jacobian};
use zkforge_gpu::*;

fn gpu<C: GpuCurve>(cell: &'static OnceLock<Option<GpuMsm<C>>>) -> Option<&'static GpuMsm<C>> {
    cell.get_or_init(|| match GpuMsm::<C>::new(&GpuOptions { allow_cpu_adapter: true, name_contains: None }) {
        Ok(g) => {
            eprintln!("adapter: {}", g.adapter_name());
            Some(g)
        }
        Err(e) => {
            assert!(std::env::var("ZKFORGE_REQUIRE_GPU").as_deref() != Ok("1"), "ZKFORGE_REQUIRE_GPU=1 but {e}");
            eprintln!("skipping: {e}");
            None
        }
    })
    .as_ref()
}
static BLS: OnceLock<Option<GpuMsm<bls12_381::G1Config>>> = OnceLock::new();
static BN: OnceLock<Option<GpuMsm<bn254::G1Config>>> = OnceLock::new();

// ---------- field arithmetic ----------

macro_rules! field_test {
    ($name:ident, $cell:ident, $curve:ty, $fp:ty, $limbs:expr) => {
        #[test]
        fn $name() {
            let Some(g) = gpu::<$curve>(&$cell) else { return };
            let w = <$curve as GpuCurve>::WORDS;
            let mut r = rng();
            let pm1 = -<$fp>::ONE;
            let mut xs: Vec<$fp> = vec![<$fp>::ZERO, <$fp>::ONE, pm1, <$fp>::from_u64(2), pm1 - <$fp>::ONE];
            while xs.len() < 2000 {
                xs.push(<$fp>::random(&mut r));
            }
            let ys: Vec<$fp> = (0..xs.len()).map(|i| if i < 25 { xs[(i / 5) % 5] } else { <$fp>::random(&mut r) }).collect();
            let xs: Vec<$fp> = (0..xs.len()).map(|i| if i < 25 { xs[i % 5] } else { xs[i] }).collect();
            let mut words = vec![0u32; xs.len() * 2 * w];
            for i in 0..xs.len() {
                <$curve as GpuCurve>::to_words(&xs[i], &mut words[2 * i * w..(2 * i + 1) * w]);
                <$curve as GpuCurve>::to_words(&ys[i], &mut words[(2 * i + 1) * w..(2 * i + 2) * w]);
            }
            for unroll in [false, true] {
                let out = g.field_ops(&words, unroll).unwrap();
                for i in 0..xs.len() {
                    let (a, b) = (xs[i], ys[i]);
                    let inv = if a == <$fp>::ZERO { <$fp>::ZERO } else { a.invert_fermat().unwrap() };
                    let mut x = a;
                    for _ in 0..1000 {
                        x = x.square() + b;
                    }
                    let want = [a * b, a + b, a - b, inv, -a, x];
                    for (k, v) in want.iter().enumerate() {
                        let mut e = vec![0u32; w];
                        <$curve as GpuCurve>::to_words(v, &mut e);
                        let o = (6 * i + k) * w;
                        assert_eq!(&out[o..o + w], &e[..], "op {k} on pair {i} (unroll {unroll})");
                    }
                }
            }
        }
    };
}
field_test!(bls12_381_field_ops, BLS, bls12_381::G1Config, zkforge_field::bls12_381::Fp, 6);
field_test!(bn254_field_ops, BN, bn254::G1Config, zkforge_field::bn254::Fp, 4);

// ---------- MSM ----------

fn check<C: GpuCurve>(g: &GpuMsm<C>, pts: &[Affine<C>], sc: &[[u64; 4]], cfg: &GpuConfig) {
    let want: Jacobian<C> = zkforge_msm::msm(pts, sc).unwrap();
    let bases = g.upload_bases(pts).unwrap();
    let got = g.msm_resident(&bases, sc, cfg).unwrap();
    assert_eq!(got, want, "n = {}, {cfg:?}", pts.len());
}

fn sizes_and_edges<C: GpuCurve>(g: &GpuMsm<C>, max_log: u32) {
    let mut r = rng();
    // n = 0 and 1.
    check::<C>(g, &[], &[], &GpuConfig::default());
    let p1 = zkforge_curve::sample_points::<C>(&mut r, 1);
    check(g, &p1, &random_scalars(&mut r, 1), &GpuConfig::default());
    check(g, &p1, &[[0; 4]], &GpuConfig::default());
    // Random sizes up to 2^max_log with awkward bases and random raw (unreduced) scalars.
    let mut sizes = vec![2usize, 3, 17, 100, 1000];
    sizes.push(r.gen_range(1usize << (max_log - 1)..=1 << max_log));
    for n in sizes {
        let pts = awkward::<C>(&mut r, n);
        let sc = random_scalars(&mut r, n);
        check(g, &pts, &sc, &GpuConfig::default());
        if n <= 1000 {
            check(g, &pts, &sc, &GpuConfig { sort: Placement::Cpu, ..Default::default() });
        }
    }
    // All-zero scalars; all scalars equal (every point in one bucket per window); r - 1 and 1.
    let n = 300;
    let pts = awkward::<C>(&mut r, n);
    check(g, &pts, &vec![[0u64; 4]; n], &GpuConfig::default());
    let k = random_scalars(&mut r, 1)[0];
    check(g, &pts, &vec![k; n], &GpuConfig::default());
    let mut rm1 = C::ORDER;
    rm1[0] -= 1;
    let sc: Vec<[u64; 4]> = (0..n).map(|i| if i % 2 == 0 { rm1 } else { [1, 0, 0, 0] }).collect();
    check(g, &pts, &sc, &GpuConfig::default());
    // The same point n times: one bucket per window gets the same point again and again
    // (doublings in the accumulation).
    let same = vec![pts[0]; 64];
    check(g, &same, &vec![k; 64], &GpuConfig::default());
    check(g, &same, &vec![k; 64], &GpuConfig { accumulate: Accumulate::BatchAffine { s: 4 }, ..Default::default() });
}

/// The GPU sort's layout against the CPU's (`plan::layout`): the same bucket starts, runs and
/// first runs, the same entries in each bucket (in any order), and the run offsets past the
/// last run padded with the entry total.
fn layout_matches<C: GpuCurve>(g: &GpuMsm<C>) {
    let mut r = rng();
    for (n, c, max_run) in [(1usize, 4u32, 64u32), (300, 2, 1), (1000, 5, 3), (777, 8, 64), (2000, 11, 7), (513, 16, 2), (64, 6, u32::MAX)] {
        let mut sc = random_scalars(&mut r, n);
        for (i, k) in sc.iter_mut().enumerate() {
            *k = zkforge_curve::scalar_mul::reduce_scalar::<C>(k);
            if i % 5 == 0 {
                *k = [0; 4];
            }
            if i % 11 == 0 {
                *k = sc_top::<C>();
            }
        }
        let want = zkforge_gpu::plan::layout(&sc, 0, c, max_run);
        let (entries, offsets, bucket_runs) = g.gpu_layout(&sc, c, max_run).unwrap();
        assert_eq!(bucket_runs, want.bucket_runs, "first runs, n {n} c {c} max_run {max_run}");
        let runs = want.runs();
        assert_eq!(&offsets[..=runs], &want.offsets[..], "run offsets, n {n} c {c} max_run {max_run}");
        assert!(offsets[runs..].iter().all(|&o| o as usize == want.entries.len()), "padding past the last run");
        assert_eq!(entries.len(), want.entries.len());
        let nb = bucket_runs.len() - 1;
        for b in 0..nb {
            let (lo, hi) = (want.offsets[want.bucket_runs[b] as usize] as usize, want.offsets[want.bucket_runs[b + 1] as usize] as usize);
            let mut got = entries[lo..hi].to_vec();
            let mut exp = want.entries[lo..hi].to_vec();
            got.sort_unstable();
            exp.sort_unstable();
            assert_eq!(got, exp, "bucket {b}, n {n} c {c}");
        }
        // Each run's bucket (nb past the last run) and the most runs of a bucket, which size
        // the fold passes.
        let (run_bucket, most) = g.gpu_run_buckets(&sc, c, max_run).unwrap();
        let mut want_rb = vec![nb as u32; run_bucket.len()];
        for (b, w) in want.bucket_runs.windows(2).enumerate() {
            want_rb[w[0] as usize..w[1] as usize].fill(b as u32);
        }
        assert_eq!(run_bucket, want_rb, "run buckets, n {n} c {c} max_run {max_run}");
        let want_most = want.bucket_runs.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        assert_eq!(most, want_most, "most runs of a bucket, n {n} c {c} max_run {max_run}");
    }
}

/// The GPU sort's layout for folded bases (`sets` bucket sets, copies of `nbases` bases) against
/// `plan::layout_folded`: the same first runs and run offsets, the same entries in each bucket
/// (in any order); and `plan::layout_folded` with one set a window equal to `plan::layout`.
fn folded_layout_matches<C: GpuCurve>(g: &GpuMsm<C>) {
    let mut r = rng();
    for (n, c, max_run, sets, nbases) in [(300usize, 2u32, 1u32, 1u32, 300u32), (1000, 5, 3, 2, 1000), (777, 8, 64, 3, 5000), (513, 16, 2, 1, 513), (64, 6, u32::MAX, 43, 64), (0, 10, 4, 1, 0), (400, 20, 3, 1, 400), (90, 17, 16, 2, 90)] {
        let mut sc = random_scalars(&mut r, n);
        for (i, k) in sc.iter_mut().enumerate() {
            *k = zkforge_curve::scalar_mul::reduce_scalar::<C>(k);
            if i % 7 == 0 {
                *k = sc_top::<C>();
            }
        }
        let want = zkforge_gpu::plan::layout_folded(&sc, 0, c, max_run, sets as usize, nbases);
        let nw = zkforge_gpu::plan::windows(c);
        assert_eq!(want.nw, (sets as usize).min(nw));
        assert_eq!(want.entries.len(), zkforge_gpu::plan::layout(&sc, 0, c, max_run).entries.len());
        let (entries, offsets, bucket_runs) = g.gpu_layout_folded(&sc, c, max_run, sets.min(nw as u32), nbases).unwrap();
        assert_eq!(bucket_runs, want.bucket_runs, "first runs, n {n} c {c} sets {sets}");
        let runs = want.runs();
        assert_eq!(&offsets[..=runs], &want.offsets[..], "run offsets, n {n} c {c} sets {sets}");
        assert_eq!(entries.len(), want.entries.len());
        for b in 0..bucket_runs.len() - 1 {
            let (lo, hi) = (want.offsets[want.bucket_runs[b] as usize] as usize, want.offsets[want.bucket_runs[b + 1] as usize] as usize);
            let mut got = entries[lo..hi].to_vec();
            let mut exp = want.entries[lo..hi].to_vec();
            got.sort_unstable();
            exp.sort_unstable();
            assert_eq!(got, exp, "bucket {b}, n {n} c {c} sets {sets}");
        }
        // Every entry names a point of its window's copy.
        let copies = nw.div_ceil((sets as usize).min(nw));
        assert!(want.entries.iter().all(|&e| ((e & 0x7fff_ffff) as usize) < (nbases as usize).max(n) * copies));
    }
    let sc: Vec<[u64; 4]> = random_scalars(&mut r, 200).iter().map(zkforge_curve::scalar_mul::reduce_scalar::<C>).collect();
    let (a, b) = (zkforge_gpu::plan::layout(&sc, 5, 9, 3), zkforge_gpu::plan::layout_folded(&sc, 5, 9, 3, 100, 200));
    assert_eq!((a.entries, a.offsets, a.bucket_runs, a.nw), (b.entries, b.offsets, b.bucket_runs, b.nw));
}

/// MSMs on window-folded bases (`upload_bases_folded`, copies built on the device by
/// `FoldShift`; `upload_fold_tables` from host tables): every window into one bucket set, two,
/// three and one a window, through both sorts, both reductions and combinations, batch-affine
/// and XYZZ buckets, chunks and prefetch; edge scalars; a configured window other than the
/// fold's ignored; folded bases of an instance without adapter use the CPU MSM.
fn folded_msms<C: GpuCurve>(g: &GpuMsm<C>) {
    let mut r = rng();
    let n = 700;
    let pts = awkward::<C>(&mut r, n);
    let sc = random_scalars(&mut r, n);
    let want: Jacobian<C> = zkforge_msm::msm(&pts, &sc).unwrap();
    let configs = [
        GpuConfig::default(),
        GpuConfig { sort: Placement::Cpu, ..Default::default() },
        GpuConfig { reduce: Placement::Cpu, ..Default::default() },
        GpuConfig { combine: Placement::Cpu, segments: 64, ..Default::default() },
        GpuConfig { accumulate: Accumulate::BatchAffine { s: 8 }, sort: Placement::Cpu, max_run: 5, ..Default::default() },
        GpuConfig { chunk: Some(33), prefetch: true, max_run: 3, tree_roots: 1, ..Default::default() },
    ];
    for (i, (c, sets)) in [(16u32, 1usize), (12, 2), (8, 3), (5, 100), (11, 1)].into_iter().enumerate() {
        let fold = plan::Fold::new(c, sets).unwrap();
        let bases = g.upload_bases_folded(&pts, fold).unwrap();
        assert_eq!(bases.fold(), Some(fold));
        for cfg in [configs[0], configs[1 + i % 5], configs[1 + (i + 2) % 5]] {
            assert_eq!(g.msm_resident(&bases, &sc, &cfg).unwrap(), want, "folded ({c}, {sets}), {cfg:?}");
        }
        // The fold fixes the window: a configured one (here from for_size) is ignored.
        let other = if c == 16 { 15 } else { c + 1 };
        assert_eq!(g.msm_resident(&bases, &sc, &GpuConfig { window: Some(other), ..Default::default() }).unwrap(), want);
        assert_eq!(g.msm_resident(&bases, &sc, &GpuConfig::for_size(n)).unwrap(), want);
    }
    // Wide windows (above 16: fewer digit windows, 2^(c-1) buckets a set), the point of
    // folding: for_fold's segments, the CPU sort and reduction, batch-affine buckets.
    for (c, sets) in [(20u32, 1usize), (17, 2)] {
        let fold = plan::Fold::new(c, sets).unwrap();
        let bases = g.upload_bases_folded(&pts, fold).unwrap();
        let wide = [
            GpuConfig::for_fold(n, fold),
            GpuConfig { sort: Placement::Cpu, reduce: Placement::Cpu, ..Default::default() },
            GpuConfig { accumulate: Accumulate::BatchAffine { s: 16 }, combine: Placement::Cpu, max_run: 2, ..GpuConfig::for_fold(n, fold) },
        ];
        for cfg in wide {
            assert_eq!(g.msm_resident(&bases, &sc, &cfg).unwrap(), want, "folded ({c}, {sets}), {cfg:?}");
        }
    }
    let bases = g.upload_bases_folded(&pts, plan::Fold::new(13, 1).unwrap()).unwrap();
    let mut rm1 = C::ORDER;
    rm1[0] -= 1;
    let edge: Vec<[u64; 4]> = (0..n).map(|i| if i % 2 == 0 { rm1 } else { [1, 0, 0, 0] }).collect();
    for s in [edge, vec![sc[0]; n], vec![[0u64; 4]; n]] {
        assert_eq!(g.msm_resident(&bases, &s, &GpuConfig::default()).unwrap(), zkforge_msm::msm(&pts, &s).unwrap());
    }
    let empty = g.upload_bases_folded(&[], plan::Fold::new(16, 1).unwrap()).unwrap();
    assert_eq!(g.msm_resident::<[u64; 4]>(&empty, &[], &GpuConfig::default()).unwrap(), Jacobian::<C>::IDENTITY);
    // Tables built once and refolded into more sets (no new doublings) equal tables built for
    // those sets, and upload as they do.
    let t1 = plan::FoldTables::new(&pts[..300], plan::Fold::new(10, 1).unwrap());
    let want300: Jacobian<C> = zkforge_msm::msm(&pts[..300], &sc[..300]).unwrap();
    for sets in [1usize, 2, 3, 13, 26, 1000] {
        let re = t1.refold(sets).unwrap();
        assert_eq!(re.points(), plan::FoldTables::new(&pts[..300], plan::Fold::new(10, sets).unwrap()).points(), "refold into {sets}");
        assert_eq!((re.len(), re.fold().sets), (300, sets.min(plan::windows(10))));
        assert_eq!(g.msm_resident(&g.upload_fold_tables(&re).unwrap(), &sc[..300], &GpuConfig::default()).unwrap(), want300, "refold into {sets}");
    }
    assert!(t1.refold(2).unwrap().refold(3).is_none());
    assert!(t1.refold(0).is_none());
    let cpu = GpuMsm::<C>::new_or_cpu(&GpuOptions { allow_cpu_adapter: false, name_contains: Some("no such adapter".into()) });
    assert_eq!(cpu.msm_resident(&cpu.upload_fold_tables(&t1).unwrap(), &sc[..300], &GpuConfig::default()).unwrap(), want300);
    let cb = cpu.upload_bases_folded(&pts, plan::Fold::new(16, 1).unwrap()).unwrap();
    assert_eq!(cpu.msm_resident(&cb, &sc, &GpuConfig::default()).unwrap(), want);
    assert!(matches!(plan::Fold::new(MAX_WINDOW + 1, 1), Err(GpuError::Config(_))));
    assert!(matches!(plan::Fold::new(1, 1), Err(GpuError::Config(_))));
    assert!(matches!(plan::Fold::new(8, 0), Err(GpuError::Config(_))));
    assert_eq!(plan::Fold::new(8, 1000).unwrap(), plan::Fold { window: 8, sets: plan::windows(8), copies: 1 });
}

#[test]
fn bls12_381_folded_bases() {
    let Some(g) = gpu(&BLS) else { return };
    folded_layout_matches(g);
    folded_msms(g);
}

#[test]
fn bn254_folded_bases() {
    let Some(g) = gpu(&BN) else { return };
    folded_layout_matches(g);
    folded_msms(g);
}

/// r - 1, the largest reduced scalar (every window's digit at its extreme).
fn sc_top<C: GpuCurve>() -> [u64; 4] {
    let mut k = C::ORDER;
    k[0] -= 1;
    k
}

#[test]
fn bls12_381_gpu_sort_layout() {
    let Some(g) = gpu(&BLS) else { return };
    layout_matches(g);
}

#[test]
fn bn254_gpu_sort_layout() {
    let Some(g) = gpu(&BN) else { return };
    layout_matches(g);
}

#[test]
fn bls12_381_msm_sizes_and_edges() {
    let Some(g) = gpu(&BLS) else { return };
    sizes_and_edges(g, 12);
}

#[test]
fn bn254_msm_sizes_and_edges() {
    let Some(g) = gpu(&BN) else { return };
    sizes_and_edges(g, 14);
}

/// Every documented value of every switch.
fn every_switch<C: GpuCurve>(g: &GpuMsm<C>, workgroups: &[u32]) {
    let mut r = rng();
    let n = 700;
    let pts = awkward::<C>(&mut r, n);
    let sc = random_scalars(&mut r, n);
    for s in [1u32, 2, 4, 8, 16, 32, 64, 128, 256] {
        check(g, &pts, &sc, &GpuConfig { window: Some(6), accumulate: Accumulate::BatchAffine { s }, ..Default::default() });
    }
    for sort in [Placement::Gpu, Placement::Cpu] {
        for c in [2u32, 3, 5, 8, 11, 16] {
            check(g, &pts[..100], &sc[..100], &GpuConfig { window: Some(c), sort, ..Default::default() });
        }
    }
    for (reduce, combine) in [(Placement::Gpu, Placement::Gpu), (Placement::Gpu, Placement::Cpu), (Placement::Cpu, Placement::Gpu)] {
        for segments in [1u32, 2, 8, 64, 4096] {
            check(g, &pts, &sc, &GpuConfig { window: Some(7), reduce, combine, segments, ..Default::default() });
        }
    }
    // The segment tree run to every depth (tree_roots 1 to beyond the segments), and both
    // combinations at the extreme windows.
    for (tree_roots, segments) in [(1u32, 1u32), (1, 64), (2, 64), (8, 1024), (32, 1024), (1024, 64), (1 << 20, 1024)] {
        check(g, &pts, &sc, &GpuConfig { window: Some(12), segments, tree_roots, ..Default::default() });
    }
    for combine in [Placement::Gpu, Placement::Cpu] {
        for c in [2u32, 16] {
            check(g, &pts[..200], &sc[..200], &GpuConfig { window: Some(c), combine, segments: 1024, ..Default::default() });
        }
    }
    for &workgroup in workgroups {
        check(g, &pts, &sc, &GpuConfig { workgroup, ..Default::default() });
    }
    for unroll in [Some(false), Some(true)] {
        if unroll == Some(false) && !g.supports_rolled() {
            continue; // refused there: `rolled_form_refused_where_miscompiled`
        }
        check(g, &pts[..50], &sc[..50], &GpuConfig { unroll, ..Default::default() });
        check(g, &pts, &sc, &GpuConfig { unroll, window: Some(15), reduce: Placement::Gpu, segments: 8, ..Default::default() });
    }
    // The prefetching accumulation: random scalars, runs of one point, equal scalars (long
    // runs of repeats, doublings), and with the CPU sort.
    for sort in [Placement::Gpu, Placement::Cpu] {
        check(g, &pts, &sc, &GpuConfig { prefetch: true, sort, ..Default::default() });
        check(g, &pts, &sc, &GpuConfig { prefetch: true, sort, window: Some(5), max_run: 1, ..Default::default() });
        check(g, &pts[..300], &vec![sc[0]; 300], &GpuConfig { prefetch: true, sort, window: Some(6), max_run: 3, ..Default::default() });
    }
    for sort in [Placement::Gpu, Placement::Cpu] {
        for max_run in [1u32, 2, 5, 64, 100_000, u32::MAX] {
            check(g, &pts, &sc, &GpuConfig { window: Some(5), max_run, sort, ..Default::default() });
            check(g, &pts, &sc, &GpuConfig { window: Some(5), max_run, sort, accumulate: Accumulate::BatchAffine { s: 4 }, ..Default::default() });
        }
        for chunk in [1usize, 33, 699, 700, 10_000] {
            check(g, &pts, &sc, &GpuConfig { chunk: Some(chunk), sort, ..Default::default() });
        }
        check(g, &pts, &sc, &GpuConfig { sort, reduce: Placement::Cpu, ..Default::default() });
        // The tree merge of a bucket's runs: merge_serial from 1 to never, on random scalars cut
        // into runs of one point, and on equal scalars (every point in one bucket per
        // window, 700 runs of one point: up to ten fold passes).
        let equal = vec![sc[0]; n];
        for merge_serial in [1u32, 3, 16, u32::MAX] {
            for acc in [Accumulate::Xyzz, Accumulate::BatchAffine { s: 4 }] {
                check(g, &pts, &sc, &GpuConfig { window: Some(5), max_run: 1, merge_serial, sort, accumulate: acc, ..Default::default() });
                check(g, &pts, &equal, &GpuConfig { window: Some(4), max_run: 1, merge_serial, sort, accumulate: acc, ..Default::default() });
            }
        }
    }
}

#[test]
fn bls12_381_every_switch() {
    let Some(g) = gpu(&BLS) else { return };
    every_switch(g, &[64]);
}

#[test]
fn bn254_every_switch() {
    let Some(g) = gpu(&BN) else { return };
    every_switch(g, &[32, 64, 128, 256]);
}

/// Pooled work buffers: MSMs of shrinking and growing sizes one after another (stale contents
/// of a larger earlier MSM must never leak into a later one), with either sort and either
/// accumulation, and four threads at once on one instance (each MSM holds its buffers
/// exclusively); `reuse_buffers: false` and `release_buffers` too.
#[test]
fn buffer_reuse_across_sizes_and_threads() {
    let Some(g) = gpu(&BN) else { return };
    let mut r = rng();
    let pts = awkward::<bn254::G1Config>(&mut r, 1200);
    let sc = random_scalars(&mut r, 1200);
    for (n, sort, acc) in [
        (1200usize, Placement::Gpu, Accumulate::Xyzz),
        (17, Placement::Gpu, Accumulate::Xyzz),
        (1200, Placement::Cpu, Accumulate::Xyzz),
        (300, Placement::Gpu, Accumulate::BatchAffine { s: 8 }),
        (1, Placement::Cpu, Accumulate::Xyzz),
        (900, Placement::Gpu, Accumulate::Xyzz),
    ] {
        for reuse_buffers in [true, false] {
            check(g, &pts[..n], &sc[..n], &GpuConfig { window: Some(7), sort, accumulate: acc, reuse_buffers, ..Default::default() });
        }
    }
    g.release_buffers();
    check(g, &pts[..500], &sc[..500], &GpuConfig::default());
    std::thread::scope(|s| {
        for t in 0..4usize {
            let (pts, sc) = (&pts, &sc);
            s.spawn(move || {
                for k in 0..3usize {
                    let n = 200 + 300 * ((t + k) % 3);
                    check(g, &pts[..n], &sc[..n], &GpuConfig { window: Some(6), ..Default::default() });
                }
            });
        }
    });
}

/// The profiled entry point: the same point, every phase timed, and GPU timestamps exactly
/// when the device has them (the sort's zero with the CPU sort, the reduction's with the CPU
/// reduction).
#[test]
fn profiled_phases_and_timestamps() {
    let Some(g) = gpu(&BN) else { return };
    let mut r = rng();
    let pts = awkward::<bn254::G1Config>(&mut r, 800);
    let sc = random_scalars(&mut r, 800);
    let want: Jacobian<bn254::G1Config> = zkforge_msm::msm(&pts, &sc).unwrap();
    let bases = g.upload_bases(&pts).unwrap();
    eprintln!("timestamps: {}", g.has_timestamps());
    for (sort, reduce) in [(Placement::Gpu, Placement::Gpu), (Placement::Cpu, Placement::Cpu)] {
        let cfg = GpuConfig { sort, reduce, ..GpuConfig::for_size(800) };
        let (got, ph) = g.msm_profiled(&bases, &sc, &cfg).unwrap();
        assert_eq!(got, want);
        assert!(ph.total() > std::time::Duration::ZERO);
        if g.has_timestamps() {
            let (s, a, red) = (ph.gpu_sort.unwrap(), ph.gpu_accumulate.unwrap(), ph.gpu_reduce.unwrap());
            eprintln!("{sort:?}/{reduce:?}: GPU sort {s:?}, accumulate {a:?}, reduce {red:?}");
            assert!(a > std::time::Duration::ZERO);
            assert_eq!(s.is_zero(), sort == Placement::Cpu);
            assert_eq!(red.is_zero(), reduce == Placement::Cpu);
        } else {
            assert!(ph.gpu_sort.is_none() && ph.gpu_accumulate.is_none() && ph.gpu_reduce.is_none());
        }
        // Unprofiled runs record no timestamps.
        assert_eq!(g.msm_resident(&bases, &sc, &cfg).unwrap(), want);
    }
}

#[test]
fn errors_are_typed() {
    let Some(g) = gpu(&BN) else { return };
    let mut r = rng();
    let pts = zkforge_curve::sample_points::<bn254::G1Config>(&mut r, 4);
    let sc = random_scalars(&mut r, 3);
    assert_eq!(g.msm(&pts, &sc), Err(GpuError::LengthMismatch { points: 4, scalars: 3 }));
    let bases = g.upload_bases(&pts).unwrap();
    for bad in [
        GpuConfig { window: Some(1), ..Default::default() },
        GpuConfig { window: Some(MAX_WINDOW + 1), ..Default::default() },
        GpuConfig { accumulate: Accumulate::BatchAffine { s: 0 }, ..Default::default() },
        GpuConfig { merge_serial: 0, ..Default::default() },
        GpuConfig { tree_roots: 3, ..Default::default() },
        GpuConfig { tree_roots: 0, ..Default::default() },
        GpuConfig { accumulate: Accumulate::BatchAffine { s: 257 }, ..Default::default() },
        GpuConfig { segments: 3, ..Default::default() },
        GpuConfig { workgroup: 16, ..Default::default() },
        GpuConfig { workgroup: 96, ..Default::default() },
        GpuConfig { chunk: Some(0), ..Default::default() },
        GpuConfig { max_run: 0, ..Default::default() },
    ] {
        let e = g.msm_resident(&bases, &random_scalars(&mut r, 4), &bad).unwrap_err();
        assert!(matches!(e, GpuError::Config(_)), "{bad:?}: {e}");
        assert!(!e.to_string().contains("Config("), "plain words: {e}");
    }
    // Wide windows on plain bases: right (c = 17: 15 windows of 2^16 buckets), or refused by
    // the memory budget with a typed error (c = 24: 11 windows of 2^23 buckets), never a
    // crash.
    let sc4 = random_scalars(&mut r, 4);
    let want4: Jacobian<bn254::G1Config> = zkforge_msm::msm(&pts[..4], &sc4).unwrap();
    let b4 = g.upload_bases(&pts[..4]).unwrap();
    assert_eq!(g.msm_resident(&b4, &sc4, &GpuConfig { window: Some(17), ..Default::default() }).unwrap(), want4);
    match g.msm_resident(&b4, &sc4, &GpuConfig { window: Some(MAX_WINDOW), ..Default::default() }) {
        Ok(p) => assert_eq!(p, want4),
        Err(e) => assert!(matches!(e, GpuError::TooLarge { .. }), "{e}"),
    }
}

/// The scalars' conversion on the device (`GpuConfig::scalars`) against the host's, in both
/// forms: field elements (Montgomery limbs) random and 0, 1, -1, and raw integers at and
/// around every multiple of r below 2^256 (r - 1, r, r + 1, 2r, ...), 2^256 - 1 and random
/// ones; chunked too, so each chunk converts its own scalars.
fn scalar_forms<C: GpuCurve<Scalar = zkforge_field::mont::Fp<F, 4>>, F: zkforge_field::mont::FieldConfig<4>>(g: &GpuMsm<C>)
where
    zkforge_field::mont::Fp<F, 4>: zkforge_msm::MsmScalar<C>,
{
    use zkforge_field::mont::Fp;
    let mut r = rng();
    let n = 300;
    let pts = awkward::<C>(&mut r, n);
    let fr: Vec<Fp<F, 4>> = field_scalars(&mut r, n);
    let mut raw = random_scalars(&mut r, n);
    let edges = order_multiples::<C>();
    raw[..edges.len()].copy_from_slice(&edges);
    // The conversion itself, in both multiplication forms: canonical residues, word for word.
    for unroll in [false, true] {
        let got = g.device_scalars(&fr, unroll).unwrap();
        for (k, got) in fr.iter().zip(&got) {
            assert_eq!(*got, k.to_limbs(), "field element, unroll {unroll}");
        }
        let got = g.device_scalars(&raw, unroll).unwrap();
        for (k, got) in raw.iter().zip(&got) {
            assert_eq!(*got, zkforge_curve::scalar_mul::reduce_scalar::<C>(k), "integer {k:x?}, unroll {unroll}");
        }
    }
    let bases = g.upload_bases(&pts).unwrap();
    let want_fr: Jacobian<C> = zkforge_msm::msm(&pts, &fr).unwrap();
    let want_raw: Jacobian<C> = zkforge_msm::msm(&pts, &raw).unwrap();
    for scalars in [Placement::Gpu, Placement::Cpu] {
        for chunk in [None, Some(7)] {
            let cfg = GpuConfig { scalars, chunk, window: Some(6), ..Default::default() };
            assert_eq!(g.msm_resident(&bases, &fr, &cfg).unwrap(), want_fr, "field elements, {cfg:?}");
            assert_eq!(g.msm_resident(&bases, &raw, &cfg).unwrap(), want_raw, "raw integers, {cfg:?}");
        }
    }
    // Every scalar at an edge, so a wrong conversion of one of them cannot hide in a sum.
    for (j, k) in edges.iter().enumerate() {
        let one = [pts[3 + j % 2]];
        let want: Jacobian<C> = zkforge_msm::msm(&one, &[*k]).unwrap();
        let b1 = g.upload_bases(&one).unwrap();
        assert_eq!(g.msm_resident(&b1, &[*k], &GpuConfig::default()).unwrap(), want, "scalar {k:x?}");
    }
}

#[test]
fn bls12_381_scalar_forms_on_the_device() {
    let Some(g) = gpu(&BLS) else { return };
    scalar_forms(g);
}

#[test]
fn bn254_scalar_forms_on_the_device() {
    let Some(g) = gpu(&BN) else { return };
    scalar_forms(g);
}

#[test]
fn field_scalars_and_the_doc_example_shape() {
    let Some(g) = gpu(&BLS) else { return };
    use zkforge_field::bls12_381::Fr;
    let gen = bls12_381::G1Projective::generator();
    let points = vec![(gen * Fr::from_u64(2)).to_affine(), (gen * Fr::from_u64(3)).to_affine()];
    let scalars = vec![Fr::from_u64(5), Fr::from_u64(7)];
    assert_eq!(g.msm(&points, &scalars).unwrap(), gen * Fr::from_u64(31));
}

// ---------- large sizes, on a real GPU only ----------

fn large<C: GpuCurve>(name: &str) {
    let g = match GpuMsm::<C>::new(&GpuOptions::default()) {
        Ok(g) => g,
        Err(e) => {
            assert!(std::env::var("ZKFORGE_REQUIRE_REAL_GPU").as_deref() != Ok("1"), "ZKFORGE_REQUIRE_REAL_GPU=1 but {e}");
            eprintln!("skipping the large sizes (they need a GPU, not a CPU adapter): {e}");
            return;
        }
    };
    eprintln!("{name} on {}", g.adapter_name());
    let mut r = rng();
    let max_log: u32 = std::env::var("ZKFORGE_GPU_TEST_MAX_LOG").ok().and_then(|s| s.parse().ok()).unwrap_or(22);
    for lg in (16..=max_log).step_by(2) {
        let n = (1usize << lg) - r.gen_range(0..64usize);
        let pts = many_points::<C>(&mut r, n);
        let sc = random_scalars(&mut r, n);
        let want: Jacobian<C> = zkforge_msm::msm(&pts, &sc).unwrap();
        let bases = g.upload_bases(&pts).unwrap();
        let mut cfgs = vec![GpuConfig::for_size(n), GpuConfig { sort: Placement::Cpu, ..GpuConfig::for_size(n) }];
        if lg == 18 {
            cfgs.push(GpuConfig { accumulate: Accumulate::BatchAffine { s: 16 }, ..GpuConfig::for_size(n) });
            cfgs.push(GpuConfig { reduce: Placement::Cpu, ..GpuConfig::for_size(n) });
            cfgs.push(GpuConfig { window: Some(12), max_run: 16, segments: 1024, ..GpuConfig::for_size(n) });
        }
        for cfg in cfgs {
            let got = g.msm_resident(&bases, &sc, &cfg).unwrap();
            assert_eq!(got, want, "{name} n = {n}, {cfg:?}");
        }
        // All scalars equal: every point in one bucket per window.
        if lg == 16 {
            let k = sc[0];
            let want: Jacobian<C> = zkforge_msm::msm(&pts, &vec![k; n]).unwrap();
            assert_eq!(g.msm_resident(&bases, &vec![k; n], &GpuConfig::for_size(n)).unwrap(), want, "{name} equal scalars");
        }
        eprintln!("{name} n = {n}: ok");
    }
}

/// 2^16 - 2^22 points against zkforge-msm, both sorts (plus batch-affine, CPU reduction and a
/// narrow window at 2^18). Needs a real GPU: `ZKFORGE_REQUIRE_REAL_GPU=1 cargo test --release
/// -p zkforge-gpu -- --ignored` (`ZKFORGE_GPU_TEST_MAX_LOG` lowers the top size).
#[test]
#[ignore]
fn bls12_381_large_sizes_on_a_gpu() {
    large::<bls12_381::G1Config>("BLS12-381");
}

/// As [`bls12_381_large_sizes_on_a_gpu`], for BN254.
#[test]
#[ignore]
fn bn254_large_sizes_on_a_gpu() {
    large::<bn254::G1Config>("BN254");
}

// ---------- every switch at once, drawn at random ----------

/// A configuration with every switch drawn at random from its documented values, so that
/// combinations the per-switch tests above never pair (a CPU sort with a GPU tree of 2 roots,
/// batch-affine S = 8 with runs of 3 and chunks of 40, ...) meet. With `compiles` false, the
/// switches that pick a pipeline (workgroup size, unrolling, S) keep values the tests above
/// compile anyway (lavapipe's LLVM takes seconds a pipeline) and windows stay at most 12 bits
/// (wider ones take lavapipe seconds an MSM in the reduction); with it true they vary too.
/// `rolled`: whether the adapter runs the rolled multiplication (`GpuMsm::supports_rolled`).
fn random_config(r: &mut rand::rngs::StdRng, n: usize, compiles: bool, rolled: bool) -> GpuConfig {
    let place = |r: &mut rand::rngs::StdRng| if r.gen() { Placement::Gpu } else { Placement::Cpu };
    let s = if compiles && r.gen_ratio(1, 4) { [3, 7, 100, 255][r.gen_range(0..4)] } else { 1 << r.gen_range(0..=8) };
    GpuConfig {
        window: if r.gen_ratio(1, 4) { None } else { Some(r.gen_range(2..=if compiles { 16 } else { 12 })) },
        sort: place(r),
        scalars: place(r),
        accumulate: if r.gen_ratio(1, 3) { Accumulate::BatchAffine { s } } else { Accumulate::Xyzz },
        prefetch: r.gen(),
        reduce: place(r),
        segments: 1 << r.gen_range(0..=12),
        combine: place(r),
        tree_roots: 1 << r.gen_range(0..=11),
        workgroup: if compiles { 32 << r.gen_range(0..=3) } else { 64 },
        unroll: if compiles { [None, Some(true), Some(false)][r.gen_range(0..if rolled { 3 } else { 2 })] } else { None },
        chunk: if r.gen_ratio(1, 3) { Some(r.gen_range(1..=n + 10)) } else { None },
        reuse_buffers: r.gen(),
        max_run: if r.gen_ratio(1, 8) { u32::MAX } else { r.gen_range(1..=100) },
        merge_serial: if r.gen_ratio(1, 8) { u32::MAX } else { r.gen_range(1..=20) },
    }
}

/// `iters` MSMs, each with random points (awkward cases mixed in), a random scalar shape
/// ([`scalar_shape`]) and a random configuration, against zkforge-msm. The failing
/// configuration and the seed are printed.
fn random_combinations<C: GpuCurve>(g: &GpuMsm<C>, iters: usize, max_n: usize, compiles: bool) {
    let mut r = rng();
    let pts = awkward::<C>(&mut r, max_n);
    for i in 0..iters {
        let n = if r.gen_ratio(1, 10) { r.gen_range(0..=3) } else { r.gen_range(1..=max_n) };
        let start = r.gen_range(0..=max_n - n);
        let sc = scalar_shape::<C>(&mut r, n);
        let mut cfg = random_config(&mut r, n, compiles, g.supports_rolled());
        let want: Jacobian<C> = zkforge_msm::msm(&pts[start..start + n], &sc).unwrap();
        let t = std::time::Instant::now();
        // One in four on window-folded bases, any number of bucket sets; the configured window
        // (None, the fold's or another, which the fold overrides) is then ignored.
        let fold = r.gen_ratio(1, 4).then(|| {
            // In the soak, one fold in six at a wide window (17..=20, above the plain range),
            // in one set or, up to c = 18, two (more would pass lavapipe's 128 MiB buffer
            // limit: a TooLarge error, tested in errors_are_typed).
            let wide = compiles && r.gen_ratio(1, 6);
            let c = if wide { r.gen_range(17..=20) } else { cfg.window.unwrap_or_else(|| r.gen_range(2..=if compiles { 16 } else { 12 })) };
            cfg.window = [None, Some(c), Some(r.gen_range(2..=16))][r.gen_range(0..3)];
            let sets = if wide {
                r.gen_range(1..=if c <= 18 { 2 } else { 1 })
            } else if r.gen() {
                r.gen_range(1..=3)
            } else {
                r.gen_range(1..=plan::windows(c))
            };
            plan::Fold::new(c, sets).unwrap()
        });
        // Replaying a failure (with its ZKFORGE_TEST_SEED): ZKFORGE_GPU_SOAK_FROM=i skips the
        // MSMs before combination i (their inputs are still drawn).
        if i < std::env::var("ZKFORGE_GPU_SOAK_FROM").ok().and_then(|s| s.parse().ok()).unwrap_or(0) {
            continue;
        }
        let bases = match fold {
            Some(f) => g.upload_bases_folded(&pts[start..start + n], f).unwrap(),
            None => g.upload_bases(&pts[start..start + n]).unwrap(),
        };
        let got = g.msm_resident(&bases, &sc, &cfg).unwrap();
        assert!(got == want, "combination {i}: n = {n}, {fold:?}, {cfg:?}");
        eprintln!("combination {i}: n = {n} in {:?}, {fold:?}, {cfg:?}", t.elapsed());
    }
}

/// A few random combinations in every run (CI included).
#[test]
fn random_switch_combinations() {
    if let Some(g) = gpu(&BN) {
        random_combinations(g, 8, 600, false);
    }
    if let Some(g) = gpu(&BLS) {
        random_combinations(g, 5, 600, false);
    }
}

/// The same, as a soak run by hand: `ZKFORGE_GPU_SOAK=N cargo test --release -p zkforge-gpu
/// --test gpu_msm soak -- --ignored` (N combinations a curve, default 100, up to 3000
/// points; BN254's vary the pipeline switches too).
#[test]
#[ignore]
fn random_switch_combinations_soak() {
    let iters = std::env::var("ZKFORGE_GPU_SOAK").ok().and_then(|s| s.parse().ok()).unwrap_or(100);
    if let Some(g) = gpu(&BN) {
        random_combinations(g, iters, 3000, true);
    }
    if let Some(g) = gpu(&BLS) {
        random_combinations(g, iters, 3000, false);
    }
}

/// One GPU-reduction segment of 2^15 buckets (c = 16, one segment: 2^16 loop steps in one
/// thread), which lavapipe before Mesa 25 summed wrong (found by the soak, 2026-11-29): right
/// everywhere (there the host splits such segments).
#[test]
fn longest_reduction_segment() {
    let Some(g) = gpu(&BN) else { return };
    let mut r = rng();
    let pts = awkward::<bn254::G1Config>(&mut r, 300);
    let sc = random_scalars(&mut r, 300);
    for segments in [1u32, 2] {
        check(g, &pts, &sc, &GpuConfig { window: Some(16), segments, reduce: Placement::Gpu, ..Default::default() });
    }
}

/// The rolled multiplication where the driver miscompiles it (Mesa's lavapipe before 25: a GPU
/// reduction over 2048 buckets a segment gave wrong sums with it) is a typed error in plain
/// words, never a wrong sum; elsewhere it gives the right one.
#[test]
fn rolled_form_refused_where_miscompiled() {
    let Some(g) = gpu(&BN) else { return };
    let mut r = rng();
    let pts = awkward::<bn254::G1Config>(&mut r, 1202);
    let sc = random_scalars(&mut r, 1202);
    let bases = g.upload_bases(&pts).unwrap();
    let cfg = GpuConfig { window: Some(15), sort: Placement::Cpu, reduce: Placement::Gpu, segments: 8, unroll: Some(false), ..Default::default() };
    let got = g.msm_resident(&bases, &sc, &cfg);
    if g.supports_rolled() {
        assert_eq!(got.unwrap(), zkforge_msm::msm::<bn254::G1Config, _>(&pts, &sc).unwrap());
    } else {
        let e = got.unwrap_err();
        assert!(matches!(e, GpuError::Config(_)) && e.to_string().contains("unroll"), "{e}");
        eprintln!("refused as expected: {e}");
    }
}

//! The CUDA backend (feature `cuda`) against zkforge-field / zkforge-msm. The generated source
//! is compiled by NVRTC wherever libnvrtc loads (no GPU needed: `nvrtc_compiles_every_form`);
//! the MSM and field tests need an NVIDIA driver and device, and without one they say so and
//! pass, unless ZKFORGE_REQUIRE_CUDA=1 makes that a failure.
#![cfg(feature = "cuda")]

mod common;
use common::*;
use rand::Rng;
use std::sync::OnceLock;
use zkforge_curve::{bls12_381, bn254, Affine, Jacobian};
use zkforge_gpu::cuda_gen::cuda_source_with;

/// The accumulation kernel's register caps the tests and the benchmark sweep.
const ACC_REGS_SWEEP: [u32; 3] = [64, 96, 128];
use zkforge_gpu::*;

fn cuda<C: GpuCurve>(cell: &'static OnceLock<Option<CudaMsm<C>>>) -> Option<&'static CudaMsm<C>> {
    cell.get_or_init(|| match CudaMsm::<C>::new(0) {
        Ok(g) => {
            eprintln!("device: {}", g.device_name());
            Some(g)
        }
        Err(e) => {
            assert!(std::env::var("ZKFORGE_REQUIRE_CUDA").as_deref() != Ok("1"), "ZKFORGE_REQUIRE_CUDA=1 but {e}");
            eprintln!("skipping: {e}");
            None
        }
    })
    .as_ref()
}
static BLS: OnceLock<Option<CudaMsm<bls12_381::G1Config>>> = OnceLock::new();
static BN: OnceLock<Option<CudaMsm<bn254::G1Config>>> = OnceLock::new();

/// Both curves' sources in every multiplication form compile (PTX for sm_90, and for sm_75
/// too with ZKFORGE_NVRTC_ALL_ARCHS=1). CI runs this with the nvidia-cuda-nvrtc wheel's
/// libnvrtc and ZKFORGE_REQUIRE_NVRTC=1.
#[test]
fn nvrtc_compiles_every_form() {
    // SAFETY: only tries to dlopen libnvrtc.
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        for var in ["ZKFORGE_REQUIRE_CUDA", "ZKFORGE_REQUIRE_NVRTC"] {
            assert!(std::env::var(var).as_deref() != Ok("1"), "{var}=1 but libnvrtc is missing");
        }
        eprintln!("skipping: libnvrtc not found");
        return;
    }
    // Every form, and the wide form with the accumulation kernel's registers capped.
    let variants: Vec<(CudaMul, u32)> = CudaMul::ALL.into_iter().map(|m| (m, 0)).chain(ACC_REGS_SWEEP.iter().map(|&r| (CudaMul::Wide, r))).collect();
    for (spec, scalar) in [(bls12_381::G1Config::spec(), bls12_381::G1Config::scalar_spec()), (bn254::G1Config::spec(), bn254::G1Config::scalar_spec())] {
        for &(mul, regs) in &variants {
            let archs: &[&'static str] = if std::env::var("ZKFORGE_NVRTC_ALL_ARCHS").as_deref() == Ok("1") { &["compute_75", "compute_90"] } else { &["compute_90"] };
            for &arch in archs {
                let opts = cudarc::nvrtc::CompileOptions { arch: Some(arch), options: vec!["--std=c++17".into()], ..Default::default() };
                let t = std::time::Instant::now();
                let ptx = cudarc::nvrtc::compile_ptx_with_opts(cuda_source_with(spec, scalar, mul, regs), opts);
                match ptx {
                    Ok(p) => {
                        eprintln!("{}-bit {mul:?} (acc_regs {regs}) {arch}: {} bytes of PTX in {:?}", spec.bits(), p.to_src().len(), t.elapsed());
                        // ZKFORGE_PTX_DIR: keep the PTX, named for ZKFORGE_CUDA_KERNELS.
                        if let Ok(dir) = std::env::var("ZKFORGE_PTX_DIR") {
                            // Named for ZKFORGE_CUDA_KERNELS (assemble to `<stem>.cubin` with ptxas).
                            let stem = zkforge_gpu::cuda::kernel_file_stem(&cuda_source_with(spec, scalar, mul, regs), arch);
                            std::fs::write(format!("{dir}/{stem}.ptx"), p.to_src()).unwrap();
                            eprintln!("  -> {dir}/{stem}.ptx");
                        }
                    }
                    Err(cudarc::nvrtc::CompileError::CompileError { log, .. }) => panic!("{}-bit {mul:?}: {}", spec.bits(), log.to_string_lossy()),
                    Err(e) => panic!("{e}"),
                }
            }
        }
    }
}

// ---------- field arithmetic (both multiplication forms) ----------

fn field_ops<C: GpuCurve<Base = zkforge_field::mont::Fp<F, N>>, F: zkforge_field::mont::FieldConfig<N>, const N: usize>(g: &CudaMsm<C>) {
    let (pairs, words) = field_pairs::<C, F, N>(&mut rng(), 3000);
    for mul in CudaMul::ALL {
        check_field_out::<C, F, N>(&pairs, &g.field_ops(&words, mul).unwrap(), &format!("{mul:?}"));
    }
}

#[test]
fn bls12_381_field_ops() {
    let Some(g) = cuda(&BLS) else { return };
    field_ops(g);
}

#[test]
fn bn254_field_ops() {
    let Some(g) = cuda(&BN) else { return };
    field_ops(g);
}

// ---------- MSM ----------

fn check<C: GpuCurve>(g: &CudaMsm<C>, pts: &[Affine<C>], sc: &[[u64; 4]], cfg: &CudaConfig) {
    let want: Jacobian<C> = zkforge_msm::msm(pts, sc).unwrap();
    let bases = g.upload_bases(pts).unwrap();
    let got = g.msm_resident(&bases, sc, cfg).unwrap();
    assert_eq!(got, want, "n = {}, {cfg:?}", pts.len());
}

fn sizes_and_edges<C: GpuCurve>(g: &CudaMsm<C>) {
    let mut r = rng();
    check::<C>(g, &[], &[], &CudaConfig::default());
    let p1 = zkforge_curve::sample_points::<C>(&mut r, 1);
    check(g, &p1, &random_scalars(&mut r, 1), &CudaConfig::default());
    check(g, &p1, &[[0; 4]], &CudaConfig::default());
    let mut sizes = vec![2usize, 3, 17, 100, 1000];
    sizes.push(r.gen_range(1usize << 13..=1 << 14));
    for n in sizes {
        let pts = awkward::<C>(&mut r, n);
        let sc = random_scalars(&mut r, n);
        check(g, &pts, &sc, &CudaConfig::for_size(n));
        check(g, &pts, &sc, &CudaConfig::default());
    }
    let n = 300;
    let pts = awkward::<C>(&mut r, n);
    check(g, &pts, &vec![[0u64; 4]; n], &CudaConfig::default());
    let k = random_scalars(&mut r, 1)[0];
    check(g, &pts, &vec![k; n], &CudaConfig::default());
    let mut rm1 = C::ORDER;
    rm1[0] -= 1;
    let sc: Vec<[u64; 4]> = (0..n).map(|i| if i % 2 == 0 { rm1 } else { [1, 0, 0, 0] }).collect();
    check(g, &pts, &sc, &CudaConfig::default());
    let same = vec![pts[0]; 64];
    check(g, &same, &vec![k; 64], &CudaConfig::default());
}

#[test]
fn bls12_381_msm_sizes_and_edges() {
    let Some(g) = cuda(&BLS) else { return };
    sizes_and_edges(g);
}

#[test]
fn bn254_msm_sizes_and_edges() {
    let Some(g) = cuda(&BN) else { return };
    sizes_and_edges(g);
}

/// Every documented value of every switch.
fn every_switch<C: GpuCurve>(g: &CudaMsm<C>) {
    let mut r = rng();
    let n = 700;
    let pts = awkward::<C>(&mut r, n);
    let sc = random_scalars(&mut r, n);
    for mul in CudaMul::ALL {
        for c in [2u32, 3, 5, 8, 11, 16] {
            check(g, &pts[..100], &sc[..100], &CudaConfig { window: Some(c), mul, ..Default::default() });
        }
    }
    for reduce in [Placement::Gpu, Placement::Cpu] {
        for combine in [Placement::Gpu, Placement::Cpu] {
            for segments in [1u32, 2, 8, 64, 4096] {
                check(g, &pts, &sc, &CudaConfig { window: Some(7), reduce, combine, segments, ..Default::default() });
            }
        }
    }
    for combine in [Placement::Gpu, Placement::Cpu] {
        for c in [2u32, 16] {
            check(g, &pts, &sc, &CudaConfig { window: Some(c), combine, segments: 1024, ..Default::default() });
        }
    }
    for tree_roots in [1u32, 2, 8, 32, 1024, 1 << 20] {
        for segments in [1u32, 64, 1024] {
            check(g, &pts, &sc, &CudaConfig { window: Some(12), segments, tree_roots, ..Default::default() });
        }
    }
    assert!(g.msm_resident(&g.upload_bases(&pts[..2]).unwrap(), &sc[..2], &CudaConfig { tree_roots: 3, ..Default::default() }).is_err());
    for prefetch in [false, true] {
        check(g, &pts, &sc, &CudaConfig { prefetch, ..Default::default() });
        check(g, &pts, &sc, &CudaConfig { prefetch, window: Some(5), max_run: 1, ..Default::default() });
        check(g, &pts[..300], &vec![sc[0]; 300], &CudaConfig { prefetch, window: Some(6), max_run: 3, ..Default::default() });
    }
    for acc_regs in [0u32].into_iter().chain(ACC_REGS_SWEEP) {
        check(g, &pts, &sc, &CudaConfig { acc_regs, ..Default::default() });
        check(g, &pts, &sc, &CudaConfig { acc_regs, block: 1024, ..Default::default() });
    }
    for bad in [1u32, 31, 256, u32::MAX] {
        assert!(g.msm_resident(&g.upload_bases(&pts[..2]).unwrap(), &sc[..2], &CudaConfig { acc_regs: bad, ..Default::default() }).is_err());
    }
    for block in [32u32, 64, 128, 256, 512, 1024] {
        check(g, &pts, &sc, &CudaConfig { block, ..Default::default() });
    }
    for max_run in [1u32, 2, 5, 64, 100_000, u32::MAX] {
        check(g, &pts, &sc, &CudaConfig { window: Some(5), max_run, ..Default::default() });
    }
    // merge_serial with runs of one point: folds from 1 up to none at all, also on equal
    // scalars (one bucket a window).
    let k = random_scalars(&mut r, 1)[0];
    for merge_serial in [1u32, 2, 3, 16, 1000, u32::MAX] {
        check(g, &pts, &sc, &CudaConfig { window: Some(6), max_run: 1, merge_serial, ..Default::default() });
        check(g, &pts[..300], &vec![k; 300], &CudaConfig { window: Some(6), max_run: 2, merge_serial, ..Default::default() });
    }
    for chunk in [1usize, 33, 699, 700, 10_000] {
        check(g, &pts, &sc, &CudaConfig { chunk: Some(chunk), ..Default::default() });
    }
    for reuse_buffers in [true, false] {
        for pinned in [true, false] {
            check(g, &pts[..300], &sc[..300], &CudaConfig { reuse_buffers, pinned, ..Default::default() });
            check(g, &pts[..300], &sc[..300], &CudaConfig { reuse_buffers, pinned, reduce: Placement::Cpu, window: Some(6), ..Default::default() });
        }
    }
    // Growing sizes through the pooled page-locked buffers.
    for n in [10usize, 400, 700] {
        check(g, &pts[..n], &sc[..n], &CudaConfig::default());
    }
    g.release_buffers();
    check(g, &pts[..500], &sc[..500], &CudaConfig::default());
}

/// The scalars' conversion (`CudaConfig::scalars`) on the device or the host, pinned or not,
/// chunked, on raw integers and on field elements (Montgomery limbs; 0, 1 and -1 among them).
fn scalar_forms<C: GpuCurve<Scalar = zkforge_field::mont::Fp<F, 4>>, F: zkforge_field::mont::FieldConfig<4>>(g: &CudaMsm<C>)
where
    zkforge_field::mont::Fp<F, 4>: zkforge_msm::MsmScalar<C>,
{
    use zkforge_field::mont::Fp;
    let mut r = rng();
    let n = 400;
    let pts = awkward::<C>(&mut r, n);
    let mut sc = random_scalars(&mut r, n);
    sc[0] = [u64::MAX; 4];
    sc[1] = C::ORDER;
    let fr: Vec<Fp<F, 4>> = field_scalars(&mut r, n);
    let bases = g.upload_bases(&pts).unwrap();
    let want_fr: Jacobian<C> = zkforge_msm::msm(&pts, &fr).unwrap();
    for scalars in [Placement::Gpu, Placement::Cpu] {
        for pinned in [true, false] {
            for chunk in [None, Some(33)] {
                let cfg = CudaConfig { scalars, pinned, chunk, ..Default::default() };
                check(g, &pts, &sc, &cfg);
                assert_eq!(g.msm_resident(&bases, &fr, &cfg).unwrap(), want_fr, "field elements, {cfg:?}");
            }
        }
    }
}

/// Window-folded bases (`upload_bases_folded`, copies built by `fold_shift`; `upload_fold_tables`
/// from host tables): every window into 1, 2, 3 and all bucket sets,
/// with the switches that touch the bucket sets (reduction and combination placements, tree
/// roots, segments, chunks, prefetch), edge scalars, and a configured window that differs from
/// the fold's ignored.
fn folded<C: GpuCurve>(g: &CudaMsm<C>) {
    let mut r = rng();
    let n = 700;
    let pts = awkward::<C>(&mut r, n);
    let sc = random_scalars(&mut r, n);
    let want: Jacobian<C> = zkforge_msm::msm(&pts, &sc).unwrap();
    for (c, sets) in [(16u32, 1usize), (16, 2), (15, 1), (13, 3), (8, 1), (5, 100), (20, 1), (17, 2)] {
        let bases = g.upload_bases_folded(&pts, plan::Fold::new(c, sets).unwrap()).unwrap();
        for cfg in [
            CudaConfig::default(),
            CudaConfig::for_size(n),
            CudaConfig::for_fold(n, plan::Fold::new(c, sets).unwrap()),
            CudaConfig { window: Some(c), segments: 1024, tree_roots: 1, ..Default::default() },
            CudaConfig { reduce: Placement::Cpu, ..Default::default() },
            CudaConfig { combine: Placement::Cpu, segments: 64, ..Default::default() },
            CudaConfig { chunk: Some(33), prefetch: true, max_run: 3, ..Default::default() },
        ] {
            assert_eq!(g.msm_resident(&bases, &sc, &cfg).unwrap(), want, "folded ({c}, {sets}), {cfg:?}");
        }
        // The fold fixes the window: a configured one is ignored.
        let other = if c == 16 { 15 } else { c - 1 };
        assert_eq!(g.msm_resident(&bases, &sc, &CudaConfig { window: Some(other), ..Default::default() }).unwrap(), want);
    }
    let bases = g.upload_bases_folded(&pts, plan::Fold::new(16, 1).unwrap()).unwrap();
    let mut rm1 = C::ORDER;
    rm1[0] -= 1;
    let edge: Vec<[u64; 4]> = (0..n).map(|i| if i % 2 == 0 { rm1 } else { [1, 0, 0, 0] }).collect();
    for s in [edge, vec![sc[0]; n], vec![[0u64; 4]; n]] {
        assert_eq!(g.msm_resident(&bases, &s, &CudaConfig::default()).unwrap(), zkforge_msm::msm(&pts, &s).unwrap());
    }
    // Tables built on the host (and refolded) give the same MSMs as copies built on the device.
    let tables = plan::FoldTables::new(&pts, plan::Fold::new(12, 1).unwrap());
    for sets in [1usize, 3, 22] {
        let hb = g.upload_fold_tables(&tables.refold(sets).unwrap()).unwrap();
        assert_eq!(g.msm_resident(&hb, &sc, &CudaConfig::default()).unwrap(), want, "host tables, {sets} sets");
    }
    let empty = g.upload_bases_folded(&[], plan::Fold::new(16, 1).unwrap()).unwrap();
    assert_eq!(g.msm_resident::<[u64; 4]>(&empty, &[], &CudaConfig::default()).unwrap(), Jacobian::<C>::IDENTITY);
}

#[test]
fn bls12_381_every_switch() {
    let Some(g) = cuda(&BLS) else { return };
    every_switch(g);
    scalar_forms(g);
    folded(g);
}

#[test]
fn bn254_every_switch() {
    let Some(g) = cuda(&BN) else { return };
    every_switch(g);
    scalar_forms(g);
    folded(g);
}

/// Four threads on one instance (each MSM holds its pooled buffers exclusively), sizes
/// shrinking and growing.
#[test]
fn concurrent_msms_share_the_pool_safely() {
    let Some(g) = cuda(&BN) else { return };
    let mut r = rng();
    let pts = awkward::<bn254::G1Config>(&mut r, 1200);
    let sc = random_scalars(&mut r, 1200);
    std::thread::scope(|s| {
        for t in 0..4usize {
            let (pts, sc) = (&pts, &sc);
            s.spawn(move || {
                for k in 0..3usize {
                    let n = 200 + 300 * ((t + k) % 3);
                    check(g, &pts[..n], &sc[..n], &CudaConfig { window: Some(6), ..Default::default() });
                }
            });
        }
    });
}

#[test]
fn profiled_phases_and_errors() {
    let Some(g) = cuda(&BN) else { return };
    let mut r = rng();
    let pts = awkward::<bn254::G1Config>(&mut r, 800);
    let sc = random_scalars(&mut r, 800);
    let want: Jacobian<bn254::G1Config> = zkforge_msm::msm(&pts, &sc).unwrap();
    let bases = g.upload_bases(&pts).unwrap();
    for reduce in [Placement::Gpu, Placement::Cpu] {
        let cfg = CudaConfig { reduce, ..CudaConfig::for_size(800) };
        let (got, ph) = g.msm_profiled(&bases, &sc, &cfg).unwrap();
        assert_eq!(got, want);
        let (s, a, red) = (ph.gpu_sort.unwrap(), ph.gpu_accumulate.unwrap(), ph.gpu_reduce.unwrap());
        eprintln!("{reduce:?}: GPU sort {s:?}, accumulate {a:?}, reduce {red:?}");
        assert!(a > std::time::Duration::ZERO && s > std::time::Duration::ZERO);
    }
    assert_eq!(g.msm(&pts[..4], &sc[..3]), Err(GpuError::LengthMismatch { points: 4, scalars: 3 }));
    for bad in [
        CudaConfig { window: Some(1), ..Default::default() },
        CudaConfig { window: Some(MAX_WINDOW + 1), ..Default::default() },
        CudaConfig { segments: 3, ..Default::default() },
        CudaConfig { block: 16, ..Default::default() },
        CudaConfig { block: 96, ..Default::default() },
        CudaConfig { block: 2048, ..Default::default() },
        CudaConfig { chunk: Some(0), ..Default::default() },
        CudaConfig { max_run: 0, ..Default::default() },
    ] {
        let e = g.msm_resident(&bases, &sc, &bad).unwrap_err();
        assert!(matches!(e, GpuError::Config(_)), "{bad:?}: {e}");
    }
    // Wide windows on plain bases: right (c = 17: 15 windows of 2^16 buckets), or refused by
    // the memory budget with a typed error (c = 24: 11 windows of 2^23 buckets), never a
    // crash.
    let sc4 = random_scalars(&mut r, 4);
    let want4: Jacobian<bn254::G1Config> = zkforge_msm::msm(&pts[..4], &sc4).unwrap();
    let b4 = g.upload_bases(&pts[..4]).unwrap();
    assert_eq!(g.msm_resident(&b4, &sc4, &CudaConfig { window: Some(17), ..Default::default() }).unwrap(), want4);
    match g.msm_resident(&b4, &sc4, &CudaConfig { window: Some(MAX_WINDOW), ..Default::default() }) {
        Ok(p) => assert_eq!(p, want4),
        Err(e) => assert!(matches!(e, GpuError::TooLarge { .. }), "{e}"),
    }
    use zkforge_field::bn254::Fr;
    let gen = bn254::G1Projective::generator();
    let points = vec![(gen * Fr::from_u64(2)).to_affine(), (gen * Fr::from_u64(3)).to_affine()];
    assert_eq!(g.msm(&points, &[Fr::from_u64(5), Fr::from_u64(7)]).unwrap(), gen * Fr::from_u64(31));
}

// ---------- large sizes ----------

fn large<C: GpuCurve>(cell: &'static OnceLock<Option<CudaMsm<C>>>, name: &str) {
    let Some(g) = cuda(cell) else { return };
    let mut r = rng();
    let max_log: u32 = std::env::var("ZKFORGE_GPU_TEST_MAX_LOG").ok().and_then(|s| s.parse().ok()).unwrap_or(22);
    for lg in (16..=max_log).step_by(2) {
        let n = (1usize << lg) - r.gen_range(0..64usize);
        let pts = many_points::<C>(&mut r, n);
        let sc = random_scalars(&mut r, n);
        let want: Jacobian<C> = zkforge_msm::msm(&pts, &sc).unwrap();
        let bases = g.upload_bases(&pts).unwrap();
        let mut cfgs = vec![CudaConfig::for_size(n)];
        if lg == 18 {
            for mul in CudaMul::ALL {
                cfgs.push(CudaConfig { mul, ..CudaConfig::for_size(n) });
            }
            cfgs.push(CudaConfig { reduce: Placement::Cpu, ..CudaConfig::for_size(n) });
            cfgs.push(CudaConfig { window: Some(12), max_run: 64, segments: 256, chunk: Some(100_000), ..CudaConfig::for_size(n) });
        }
        for cfg in cfgs {
            assert_eq!(g.msm_resident(&bases, &sc, &cfg).unwrap(), want, "{name} n = {n}, {cfg:?}");
        }
        if lg == 16 {
            let k = sc[0];
            let want: Jacobian<C> = zkforge_msm::msm(&pts, &vec![k; n]).unwrap();
            assert_eq!(g.msm_resident(&bases, &vec![k; n], &CudaConfig::for_size(n)).unwrap(), want, "{name} equal scalars");
        }
        eprintln!("{name} n = {n}: ok");
    }
}

/// 2^16 - 2^22 points against zkforge-msm (needs an NVIDIA GPU: `cargo test --release -p
/// zkforge-gpu --features cuda --test cuda_msm -- --ignored`).
#[test]
#[ignore]
fn bls12_381_large_sizes() {
    large(&BLS, "BLS12-381");
}

/// As [`bls12_381_large_sizes`], for BN254.
#[test]
#[ignore]
fn bn254_large_sizes() {
    large(&BN, "BN254");
}

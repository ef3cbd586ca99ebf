//! GPU MSM and the generated field arithmetic against zkforge-field / zkforge-msm, on
//! whatever adapter wgpu finds (Mesa's lavapipe in CI). Without an adapter the tests say so
//! and pass, unless ZKFORGE_REQUIRE_GPU=1 (CI sets it) makes that a failure.

use rand::{rngs::StdRng, Rng, SeedableRng};
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

fn rng() -> StdRng {
    let seed: u64 = rand::random();
    eprintln!("seed {seed}");
    StdRng::seed_from_u64(seed)
}

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

fn random_scalars(r: &mut StdRng, n: usize) -> Vec<[u64; 4]> {
    (0..n).map(|_| [r.gen(), r.gen(), r.gen(), r.gen()]).collect()
}

fn check<C: GpuCurve>(g: &GpuMsm<C>, pts: &[Affine<C>], sc: &[[u64; 4]], cfg: &GpuConfig) {
    let want: Jacobian<C> = zkforge_msm::msm(pts, sc).unwrap();
    let bases = g.upload_bases(pts).unwrap();
    let got = g.msm_resident(&bases, sc, cfg).unwrap();
    assert_eq!(got, want, "n = {}, {cfg:?}", pts.len());
}

/// Bases with the awkward cases mixed in: identities, repeats, P next to -P.
fn awkward<C: GpuCurve>(r: &mut StdRng, n: usize) -> Vec<Affine<C>> {
    let mut pts = zkforge_curve::sample_points::<C>(r, n);
    for i in 0..n {
        match i % 7 {
            1 => pts[i] = Affine::<C>::IDENTITY,
            3 if i > 0 => pts[i] = pts[i - 1],
            5 if i > 0 => pts[i] = -pts[i - 1],
            _ => {}
        }
    }
    pts
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
        check(g, &pts, &random_scalars(&mut r, n), &GpuConfig::default());
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
    for c in [2u32, 3, 5, 8, 11, 16] {
        check(g, &pts[..100], &sc[..100], &GpuConfig { window: Some(c), ..Default::default() });
    }
    for reduce in [Placement::Gpu, Placement::Cpu] {
        for segments in [1u32, 2, 8, 64, 4096] {
            check(g, &pts, &sc, &GpuConfig { window: Some(7), reduce, segments, ..Default::default() });
        }
    }
    for &workgroup in workgroups {
        check(g, &pts, &sc, &GpuConfig { workgroup, ..Default::default() });
    }
    for unroll in [Some(false), Some(true)] {
        check(g, &pts[..50], &sc[..50], &GpuConfig { unroll, ..Default::default() });
    }
    for max_run in [1u32, 2, 5, 64, 100_000] {
        check(g, &pts, &sc, &GpuConfig { window: Some(5), max_run, ..Default::default() });
        check(g, &pts, &sc, &GpuConfig { window: Some(5), max_run, accumulate: Accumulate::BatchAffine { s: 4 }, ..Default::default() });
    }
    for chunk in [1usize, 33, 699, 700, 10_000] {
        check(g, &pts, &sc, &GpuConfig { chunk: Some(chunk), ..Default::default() });
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
        GpuConfig { window: Some(17), ..Default::default() },
        GpuConfig { accumulate: Accumulate::BatchAffine { s: 0 }, ..Default::default() },
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

//! MSM against the naive sum at every size 0..=300 (prefix sums of k_i P_i, computed with plain
//! double-and-add), under every switch; adversarial inputs; and against arkworks and blst on
//! the same random inputs at larger sizes.

use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::PrimeField;
use rand::{rngs::StdRng, Rng, RngCore, SeedableRng};
use zkforge_curve::{bls12_381, bn254, Affine, CurveConfig, Jacobian};
use zkforge_msm::{msm, msm_threads, msm_with, Buckets, FixedBaseMsm, MsmConfig, MsmError, SmallMethod, Split};

fn rng() -> StdRng {
    let seed = std::env::var("ZKFORGE_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random::<u64>);
    eprintln!("ZKFORGE_SEED={seed}");
    StdRng::seed_from_u64(seed)
}

fn random_points<C: CurveConfig>(rng: &mut impl RngCore, n: usize) -> Vec<Affine<C>> {
    zkforge_curve::sample_points(rng, n)
}

fn random_scalars(rng: &mut impl RngCore, n: usize) -> Vec<[u64; 4]> {
    (0..n).map(|_| [rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64() >> 2]).collect()
}

/// Prefix sums of k_i P_i by double-and-add (independent of the MSM code paths).
fn naive_prefix<C: CurveConfig>(points: &[Affine<C>], ks: &[[u64; 4]]) -> Vec<Jacobian<C>> {
    let mut out = vec![Jacobian::IDENTITY];
    let mut acc = Jacobian::IDENTITY;
    for (p, k) in points.iter().zip(ks) {
        acc = acc.add_vartime(&p.to_jacobian().mul_bigint_vartime(k));
        out.push(acc);
    }
    out
}

fn configs<C: CurveConfig>(n: usize) -> Vec<MsmConfig> {
    let mut v = vec![MsmConfig::for_size(n, 1), MsmConfig::for_size(n, 2), MsmConfig::for_curve::<C>(n, 1), MsmConfig::for_curve::<C>(n, 2)];
    for glv in [false, true] {
        for (threads, split) in [(1, Split::Windows), (2, Split::Windows), (2, Split::Points), (3, Split::Points)] {
            for buckets in [Buckets::Xyzz, Buckets::BatchAffine { batch: 1 + n % 37 }, Buckets::BatchAffine { batch: 256 }, Buckets::BatchAffineSimd { batch: 1 + n % 37 }, Buckets::BatchAffineSimd { batch: 256 }] {
                v.push(MsmConfig { window: None, glv, buckets, small_threshold: 0, small_method: SmallMethod::Straus, threads, split }.with_window_for(n));
            }
        }
    }
    let widths = (2..=7).map(|width| SmallMethod::StrausWidth { width });
    for small_method in [SmallMethod::Straus, SmallMethod::Singles, SmallMethod::Lanes].into_iter().chain(widths) {
        v.push(MsmConfig { window: None, glv: false, buckets: Buckets::Xyzz, small_threshold: usize::MAX, small_method, threads: 1, split: Split::Windows }.with_window_for(n));
    }
    v
}

fn every_size<C: CurveConfig>(max: usize) {
    let mut rng = rng();
    let points = random_points::<C>(&mut rng, max);
    let ks = random_scalars(&mut rng, max);
    let want = naive_prefix(&points, &ks);
    for n in 0..=max {
        if n > 64 && n % 7 != 0 && n != max {
            continue;
        }
        for cfg in configs::<C>(n) {
            assert_eq!(msm_with(&points[..n], &ks[..n], &cfg).unwrap(), want[n], "n={n} cfg={cfg:?}");
        }
    }
    // every window width at one size (1 is rejected: see `window_widths_and_edge_scalars`)
    let n = max.min(200);
    for c in 2..=16 {
        for glv in [false, true] {
            for buckets in [Buckets::Xyzz, Buckets::BatchAffine { batch: 64 }, Buckets::BatchAffineSimd { batch: 64 }] {
                let cfg = MsmConfig { window: Some(c), glv, buckets, small_threshold: 0, small_method: SmallMethod::Straus, threads: 1, split: Split::Windows };
                assert_eq!(msm_with(&points[..n], &ks[..n], &cfg).unwrap(), want[n], "c={c} glv={glv} {buckets:?}");
            }
        }
    }
}

#[test]
fn bls12_381_g1_every_size() {
    every_size::<bls12_381::G1Config>(300);
}
#[test]
fn bn254_g1_every_size() {
    every_size::<bn254::G1Config>(300);
}
#[test]
fn bls12_381_g2_sizes() {
    every_size::<bls12_381::G2Config>(70);
}

/// Every row of both default tables (G1 `for_size`, G2 `for_size_g2`), one and two threads, on
/// its first and last size, against plain XYZZ buckets without the endomorphism split (a
/// different bucket form, window and decomposition), on G1 and G2 of both curves.
fn default_tables<C: CurveConfig>(max_log: u32) {
    let mut rng = rng();
    let max = (1usize << max_log) + 1;
    let points = random_points::<C>(&mut rng, max);
    let ks = random_scalars(&mut rng, max);
    for lg in 0..=max_log {
        for n in [1usize << lg, ((2usize << lg) - 1).min(max)] {
            let plain = MsmConfig { window: None, glv: false, buckets: Buckets::Xyzz, small_threshold: 0, small_method: SmallMethod::Straus, threads: 1, split: Split::Windows }.with_window_for(n);
            let want = msm_with(&points[..n], &ks[..n], &plain).unwrap();
            for threads in [1, 2] {
                for cfg in [MsmConfig::for_curve::<C>(n, threads), MsmConfig::for_size(n, threads), MsmConfig::for_size_g2(n, threads)] {
                    assert_eq!(msm_with(&points[..n], &ks[..n], &cfg).unwrap(), want, "{} n={n} cfg={cfg:?}", C::NAME);
                }
            }
        }
    }
    // (on one or two threads BLS12-381 G1 takes the lane small method below 224 points where
    // IFMA is; on four, below 32)
    assert_eq!(MsmConfig::for_curve::<C>(100, 4), if C::NAME.contains("G2") { MsmConfig::for_size_g2(100, 4) } else { MsmConfig::for_size(100, 4) }, "{}", C::NAME);
}

#[test]
fn default_tables_every_row() {
    default_tables::<bls12_381::G1Config>(15);
    default_tables::<bls12_381::G2Config>(15);
    default_tables::<bn254::G1Config>(12);
    default_tables::<bn254::G2Config>(12);
}

#[test]
fn bn254_g2_sizes() {
    every_size::<bn254::G2Config>(70);
}

fn adversarial<C: CurveConfig>() {
    let mut rng = rng();
    let n = 200;
    let points = random_points::<C>(&mut rng, n);
    let r = C::ORDER;
    let mut r_minus_1 = r;
    r_minus_1[0] -= 1;
    let one = [1u64, 0, 0, 0];
    let zero = [0u64; 4];
    let same_k = random_scalars(&mut rng, 1)[0];
    let p0 = points[0];
    let cases: Vec<(Vec<Affine<C>>, Vec<[u64; 4]>)> = vec![
        (points.clone(), vec![same_k; n]),
        (vec![p0; n], random_scalars(&mut rng, n)),
        (vec![p0; n], vec![same_k; n]),
        (points.clone(), vec![zero; n]),
        (points.clone(), vec![one; n]),
        (points.clone(), vec![r_minus_1; n]),
        (points.clone(), vec![r; n]),
        (points.clone(), vec![[u64::MAX; 4]; n]),
        // half the points the negation of the other half, same scalars: the sum is zero
        (points[..n / 2].iter().chain(points[..n / 2].iter()).enumerate().map(|(i, p)| if i < n / 2 { *p } else { -*p }).collect(), vec![same_k; n]),
        // identities among the bases
        (points.iter().enumerate().map(|(i, p)| if i % 3 == 0 { Affine::IDENTITY } else { *p }).collect(), random_scalars(&mut rng, n)),
    ];
    for (ci, (pts, ks)) in cases.iter().enumerate() {
        let want = *naive_prefix(pts, ks).last().unwrap();
        for cfg in configs::<C>(n) {
            assert_eq!(msm_with(pts, ks, &cfg).unwrap(), want, "case {ci} cfg={cfg:?}");
        }
    }
    // the half/half case really cancels
    assert!(bool::from(msm(&cases[8].0, &cases[8].1).unwrap().is_identity()));
    // mismatched lengths are an error for msm_with
    assert!(msm_with(&points[..3], &random_scalars(&mut rng, 4), &MsmConfig::for_size(3, 1)).is_err());
    // and for the simple API (it used to truncate silently)
    assert_eq!(msm(&points[..3], &random_scalars(&mut rng, 4)), Err(MsmError::LengthMismatch { points: 3, scalars: 4 }));
    assert_eq!(msm_threads(&points[..4], &random_scalars(&mut rng, 3), 1), Err(MsmError::LengthMismatch { points: 4, scalars: 3 }));
}

#[test]
fn adversarial_inputs_bls12_381_g1() {
    adversarial::<bls12_381::G1Config>();
}
#[test]
fn adversarial_inputs_bn254_g1() {
    adversarial::<bn254::G1Config>();
}
#[test]
fn adversarial_inputs_bls12_381_g2() {
    adversarial::<bls12_381::G2Config>();
}

#[test]
fn identity_among_9000_bases() {
    // halo2curves' batch-affine MSM panics on this; ours must not
    let mut rng = rng();
    let mut points = random_points::<bn254::G1Config>(&mut rng, 9000);
    points[4321] = Affine::IDENTITY;
    let ks = random_scalars(&mut rng, 9000);
    let want = *naive_prefix(&points, &ks).last().unwrap();
    assert_eq!(msm(&points, &ks).unwrap(), want);
}

#[test]
fn vs_arkworks_and_blst_bls12_381_g1() {
    let mut rng = rng();
    for n in [1000usize, 4096 + rng.gen_range(0..100)] {
        let points = random_points::<bls12_381::G1Config>(&mut rng, n);
        let ks: Vec<zkforge_field::bls12_381::Fr> = (0..n).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng)).collect();
        let ours = msm(&points, &ks).unwrap().to_affine();
        // arkworks
        let apts: Vec<ark_bls12_381::G1Affine> = points
            .iter()
            .map(|p| {
                let x = ark_bls12_381::Fq::from_bigint(ark_ff::BigInt(p.x().to_limbs())).unwrap();
                let y = ark_bls12_381::Fq::from_bigint(ark_ff::BigInt(p.y().to_limbs())).unwrap();
                ark_bls12_381::G1Affine::new_unchecked(x, y)
            })
            .collect();
        let aks: Vec<ark_bls12_381::Fr> = ks.iter().map(|k| ark_bls12_381::Fr::from_bigint(ark_ff::BigInt(k.to_limbs())).unwrap()).collect();
        let theirs = ark_bls12_381::G1Projective::msm(&apts, &aks).unwrap().into_affine();
        let (tx, ty) = (theirs.x.into_bigint().0, theirs.y.into_bigint().0);
        assert_eq!((ours.x().to_limbs(), ours.y().to_limbs()), (tx, ty), "arkworks n={n}");
        // blst
        let bpts: Vec<blst::blst_p1_affine> = points
            .iter()
            .map(|p| {
                let mut a = blst::blst_p1_affine::default();
                unsafe { blst::blst_p1_deserialize(&mut a, p.to_uncompressed().as_ptr()) };
                a
            })
            .collect();
        let bks: Vec<u8> = ks.iter().flat_map(|k| k.to_bytes_le()).collect();
        let bp = blst::p1_affines::from(&bpts.iter().map(|a| {
            let mut p = blst::blst_p1::default();
            unsafe { blst::blst_p1_from_affine(&mut p, a) };
            p
        }).collect::<Vec<_>>());
        let r = bp.mult(&bks, 255);
        let mut out = [0u8; 96];
        unsafe { blst::blst_p1_serialize(out.as_mut_ptr(), &r) };
        assert_eq!(out, ours.to_uncompressed(), "blst n={n}");
    }
}

fn fixed_base_case<C: CurveConfig>() {
    let mut rng = rng();
    for n in [0usize, 1, 5, 100] {
        let points = random_points::<C>(&mut rng, n);
        let mut ks = random_scalars(&mut rng, n);
        if n > 3 {
            ks[0] = [0; 4];
            ks[1] = [u64::MAX; 4];
            ks[2] = C::ORDER;
        }
        let want = *naive_prefix(&points, &ks).last().unwrap();
        for (c, stride) in [(12u32, 1usize), (8, 1), (8, 3), (5, 2), (12, 100), (3, 7), (2, 1), (2, 5), (4, 1), (16, 1), (16, 2)] {
            for buckets in [Buckets::Xyzz, Buckets::BatchAffine { batch: 64 }, Buckets::BatchAffineSimd { batch: 64 }] {
                let t = FixedBaseMsm::with_params(&points, c, stride, buckets).unwrap();
                assert_eq!(t.msm(&ks).unwrap(), want, "n={n} c={c} stride={stride} {buckets:?}");
            }
        }
        let t = FixedBaseMsm::new(&points);
        assert_eq!(t.msm(&ks).unwrap(), want);
        assert_eq!(t.len(), n);
        assert!(t.msm(&ks[..n.saturating_sub(1)]).is_err() || n == 0);
    }
}

#[test]
fn fixed_base_bls12_381_g1() {
    fixed_base_case::<bls12_381::G1Config>();
}
#[test]
fn fixed_base_bn254_g1() {
    fixed_base_case::<bn254::G1Config>();
}
#[test]
fn fixed_base_bn254_g2() {
    fixed_base_case::<bn254::G2Config>();
}

/// r - 1, 2^255 - 1 (reduced by the MSM), 2^256 - 1 and random scalars, every window width
/// 1..=16 (1 must be refused), with and without the split, both bucket kinds, one and two
/// threads; the reviewer's minimal case (G, r - 1, c = 2, no GLV) first.
fn window_widths_and_edge_scalars<C: CurveConfig>(n: usize) {
    let mut rng = rng();
    let g = Affine::<C>::generator();
    let mut r1 = C::ORDER;
    r1[0] -= 1;
    let cfg2 = MsmConfig { window: Some(2), glv: false, buckets: Buckets::Xyzz, small_threshold: 0, small_method: SmallMethod::Straus, threads: 1, split: Split::Windows };
    assert_eq!(msm_with(&[g], &[r1], &cfg2).unwrap(), -g.to_jacobian(), "{}: [r - 1] G at c = 2", C::NAME);

    let points = random_points::<C>(&mut rng, n);
    let edge = [r1, [u64::MAX, u64::MAX, u64::MAX, u64::MAX >> 1], [u64::MAX; 4]];
    let mut sets: Vec<Vec<[u64; 4]>> = edge.iter().map(|k| vec![*k; n]).collect();
    let full: Vec<[u64; 4]> = (0..n).map(|_| [rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64()]).collect();
    sets.push(full);
    sets.push((0..n).map(|i| edge[i % 3]).collect());
    for ks in &sets {
        let want = *naive_prefix(&points, ks).last().unwrap();
        for c in 1..=16u32 {
            for glv in [false, true] {
                for buckets in [Buckets::Xyzz, Buckets::BatchAffine { batch: 16 }, Buckets::BatchAffineSimd { batch: 16 }] {
                    for (threads, split) in [(1, Split::Windows), (2, Split::Points)] {
                        let cfg = MsmConfig { window: Some(c), glv, buckets, small_threshold: 0, small_method: SmallMethod::Straus, threads, split };
                        let got = msm_with(&points, ks, &cfg);
                        if c == 1 {
                            assert_eq!(got, Err(MsmError::InvalidWindow { window: 1 }));
                        } else {
                            assert_eq!(got.unwrap(), want, "{} c={c} glv={glv} {buckets:?} threads={threads}", C::NAME);
                        }
                    }
                }
            }
        }
        for (c, stride) in [(2u32, 1usize), (2, 3), (4, 1), (8, 1), (16, 1)] {
            assert_eq!(FixedBaseMsm::with_params(&points, c, stride, Buckets::Xyzz).unwrap().msm(ks).unwrap(), want, "fixed c={c}");
        }
    }
}

#[test]
fn window_widths_and_edge_scalars_bls12_381_g1() {
    window_widths_and_edge_scalars::<bls12_381::G1Config>(12);
}
#[test]
fn window_widths_and_edge_scalars_bls12_381_g2() {
    window_widths_and_edge_scalars::<bls12_381::G2Config>(5);
}
#[test]
fn window_widths_and_edge_scalars_bn254_g1() {
    window_widths_and_edge_scalars::<bn254::G1Config>(12);
}
#[test]
fn window_widths_and_edge_scalars_bn254_g2() {
    window_widths_and_edge_scalars::<bn254::G2Config>(5);
}

#[test]
fn out_of_range_configs_are_rejected() {
    let mut rng = rng();
    let points = random_points::<bls12_381::G1Config>(&mut rng, 4);
    let ks = random_scalars(&mut rng, 4);
    let base = MsmConfig::for_size(4, 1);
    for w in [0u32, 1, 17, 100] {
        assert_eq!(msm_with(&points, &ks, &MsmConfig { window: Some(w), ..base }), Err(MsmError::InvalidWindow { window: w }));
        assert_eq!(FixedBaseMsm::with_params(&points, w, 1, Buckets::Xyzz).err(), Some(MsmError::InvalidWindow { window: w }));
    }
    assert_eq!(msm_with(&points, &ks, &MsmConfig { buckets: Buckets::BatchAffine { batch: 0 }, ..base }), Err(MsmError::InvalidBatch));
    assert_eq!(msm_with(&points, &ks, &MsmConfig { threads: 0, ..base }), Err(MsmError::InvalidThreads));
    for width in [0u32, 1, 8, 64] {
        let cfg = MsmConfig { small_method: SmallMethod::StrausWidth { width }, ..base };
        assert_eq!(msm_with(&points, &ks, &cfg), Err(MsmError::InvalidWindow { window: width }));
    }
    assert_eq!(msm_threads(&points, &ks, 0), Err(MsmError::InvalidThreads));
    assert_eq!(FixedBaseMsm::with_params(&points, 8, 0, Buckets::Xyzz).err(), Some(MsmError::InvalidStride));
    assert_eq!(FixedBaseMsm::with_params(&points, 8, 1, Buckets::BatchAffine { batch: 0 }).err(), Some(MsmError::InvalidBatch));
    // the window 0 and 1 values used to be clamped to 2; the profiled entry point checks too
    assert!(zkforge_msm::msm_profiled(&points, &ks, &MsmConfig { window: Some(0), ..base }, None).is_err());
}

/// Number of OS threads of this process (Linux).
fn os_threads() -> usize {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    s.lines().find_map(|l| l.strip_prefix("Threads:")).unwrap().trim().parse().unwrap()
}

/// threads = 1 must not start any pool (rayon's global one included). Run in a child process
/// of this test binary, where nothing else has started threads.
#[test]
fn one_thread_starts_no_thread() {
    if !std::path::Path::new("/proc/self/status").exists() {
        return;
    }
    if std::env::var("ZKFORGE_THREAD_CHILD").is_ok() {
        let mut rng = rng();
        let before = os_threads();
        for (n, glv) in [(100usize, true), (5000, true), (5000, false)] {
            let points = random_points::<bls12_381::G1Config>(&mut rng, n);
            let ks = random_scalars(&mut rng, n);
            let cfg = MsmConfig { glv, ..MsmConfig::for_size(n, 1) };
            msm_with(&points, &ks, &cfg).unwrap();
            msm_threads(&points, &ks, 1).unwrap();
        }
        assert_eq!(os_threads(), before, "threads = 1 started OS threads");
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let out = std::process::Command::new(exe)
        .args(["--exact", "one_thread_starts_no_thread", "--test-threads", "1", "--nocapture"])
        .env("ZKFORGE_THREAD_CHILD", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "child failed: {}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 passed"), "{}", String::from_utf8_lossy(&out.stdout));
}

// ---- against arkworks and blst on fresh random inputs, beyond BLS12-381 G1 ----------------

fn ark_limbs<F: ark_ff::Field>(f: &F) -> Vec<u64> {
    f.to_base_prime_field_elements().flat_map(|b| b.into_bigint().as_ref().to_vec()).collect()
}

fn ours_limbs<C: CurveConfig>(p: &Jacobian<C>, flat: impl Fn(&C::Base) -> Vec<u64>) -> Option<(Vec<u64>, Vec<u64>)> {
    let a = p.to_affine();
    if bool::from(a.is_identity()) {
        None
    } else {
        Some((flat(&a.x()), flat(&a.y())))
    }
}

fn ark_xy<A: ark_ec::AffineRepr>(a: A) -> Option<(Vec<u64>, Vec<u64>)> {
    a.xy().map(|(x, y)| (ark_limbs(&x), ark_limbs(&y)))
}

fn bn_fp(x: &zkforge_field::bn254::Fp) -> ark_bn254::Fq {
    ark_bn254::Fq::from_bigint(ark_ff::BigInt(x.to_limbs())).unwrap()
}
fn bls_fp(x: &zkforge_field::bls12_381::Fp) -> ark_bls12_381::Fq {
    ark_bls12_381::Fq::from_bigint(ark_ff::BigInt(x.to_limbs())).unwrap()
}

#[test]
fn vs_arkworks_bn254_g1_and_g2() {
    let mut rng = rng();
    for n in [1usize, 37, 300, 2048 + rng.gen_range(0..64)] {
        let ks: Vec<zkforge_field::bn254::Fr> = (0..n).map(|_| zkforge_field::bn254::Fr::random(&mut rng)).collect();
        let aks: Vec<ark_bn254::Fr> = ks.iter().map(|k| ark_bn254::Fr::from_bigint(ark_ff::BigInt(k.to_limbs())).unwrap()).collect();
        // G1
        let pts = random_points::<bn254::G1Config>(&mut rng, n);
        let apts: Vec<ark_bn254::G1Affine> = pts.iter().map(|p| ark_bn254::G1Affine::new_unchecked(bn_fp(&p.x()), bn_fp(&p.y()))).collect();
        let theirs = ark_xy(ark_bn254::G1Projective::msm(&apts, &aks).unwrap().into_affine());
        for threads in [1, 2] {
            let ours = msm_threads(&pts, &ks, threads).unwrap();
            assert_eq!(ours_limbs(&ours, |f| f.to_limbs().to_vec()), theirs, "BN254 G1 n={n} threads={threads}");
        }
        // G2
        let m = n.min(600);
        let pts2 = random_points::<bn254::G2Config>(&mut rng, m);
        let f2 = |x: &zkforge_field::bn254::Fp2| ark_bn254::Fq2::new(bn_fp(&x.c0), bn_fp(&x.c1));
        let apts2: Vec<ark_bn254::G2Affine> = pts2.iter().map(|p| ark_bn254::G2Affine::new_unchecked(f2(&p.x()), f2(&p.y()))).collect();
        let theirs2 = ark_xy(ark_bn254::G2Projective::msm(&apts2, &aks[..m]).unwrap().into_affine());
        let ours2 = msm_threads(&pts2, &ks[..m], 1).unwrap();
        assert_eq!(ours_limbs(&ours2, |f| [f.c0.to_limbs(), f.c1.to_limbs()].concat()), theirs2, "BN254 G2 n={m}");
    }
}

#[test]
fn vs_arkworks_and_blst_bls12_381_g2() {
    let mut rng = rng();
    for n in [1usize, 37, 300 + rng.gen_range(0..64)] {
        let pts = random_points::<bls12_381::G2Config>(&mut rng, n);
        let ks: Vec<zkforge_field::bls12_381::Fr> = (0..n).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng)).collect();
        let ours = msm_threads(&pts, &ks, 1).unwrap().to_affine();
        let f2 = |x: &zkforge_field::bls12_381::Fp2| ark_bls12_381::Fq2::new(bls_fp(&x.c0), bls_fp(&x.c1));
        let apts: Vec<ark_bls12_381::G2Affine> = pts.iter().map(|p| ark_bls12_381::G2Affine::new_unchecked(f2(&p.x()), f2(&p.y()))).collect();
        let aks: Vec<ark_bls12_381::Fr> = ks.iter().map(|k| ark_bls12_381::Fr::from_bigint(ark_ff::BigInt(k.to_limbs())).unwrap()).collect();
        let theirs = ark_xy(ark_bls12_381::G2Projective::msm(&apts, &aks).unwrap().into_affine());
        assert_eq!(ours_limbs(&ours.to_jacobian(), |f| [f.c0.to_limbs(), f.c1.to_limbs()].concat()), theirs, "arkworks n={n}");
        // blst
        let bpts: Vec<blst::blst_p2> = pts
            .iter()
            .map(|p| {
                let mut a = blst::blst_p2_affine::default();
                let rc = unsafe { blst::blst_p2_deserialize(&mut a, p.to_uncompressed().as_ptr()) };
                assert_eq!(rc, blst::BLST_ERROR::BLST_SUCCESS);
                let mut q = blst::blst_p2::default();
                unsafe { blst::blst_p2_from_affine(&mut q, &a) };
                q
            })
            .collect();
        let bks: Vec<u8> = ks.iter().flat_map(|k| k.to_bytes_le()).collect();
        let r = blst::p2_affines::from(&bpts).mult(&bks, 255);
        let mut out = [0u8; 192];
        unsafe { blst::blst_p2_serialize(out.as_mut_ptr(), &r) };
        assert_eq!(out, ours.to_uncompressed(), "blst n={n}");
    }
}

#[test]
fn fixed_base_vs_blst_and_arkworks() {
    let mut rng = rng();
    let n = 300 + rng.gen_range(0..50);
    let pts = random_points::<bls12_381::G1Config>(&mut rng, n);
    let ks: Vec<zkforge_field::bls12_381::Fr> = (0..n).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng)).collect();
    let apts: Vec<ark_bls12_381::G1Affine> = pts.iter().map(|p| ark_bls12_381::G1Affine::new_unchecked(bls_fp(&p.x()), bls_fp(&p.y()))).collect();
    let aks: Vec<ark_bls12_381::Fr> = ks.iter().map(|k| ark_bls12_381::Fr::from_bigint(ark_ff::BigInt(k.to_limbs())).unwrap()).collect();
    let theirs = ark_xy(ark_bls12_381::G1Projective::msm(&apts, &aks).unwrap().into_affine());
    // blst's precomputed fixed-window MSM on the same bases
    let bpts: Vec<blst::blst_p1_affine> = pts
        .iter()
        .map(|p| {
            let mut a = blst::blst_p1_affine::default();
            let rc = unsafe { blst::blst_p1_deserialize(&mut a, p.to_uncompressed().as_ptr()) };
            assert_eq!(rc, blst::BLST_ERROR::BLST_SUCCESS);
            a
        })
        .collect();
    let bks: Vec<u8> = ks.iter().flat_map(|k| k.to_bytes_le()).collect();
    let wbits = 6;
    let mut table = vec![blst::blst_p1_affine::default(); unsafe { blst::blst_p1s_mult_wbits_precompute_sizeof(wbits, n) } / core::mem::size_of::<blst::blst_p1_affine>()];
    let pp: [*const blst::blst_p1_affine; 2] = [bpts.as_ptr(), std::ptr::null()];
    unsafe { blst::blst_p1s_mult_wbits_precompute(table.as_mut_ptr(), wbits, pp.as_ptr(), n) };
    let mut scratch = vec![0u64; unsafe { blst::blst_p1s_mult_wbits_scratch_sizeof(n) } / 8 + 1];
    let s: [*const u8; 2] = [bks.as_ptr(), std::ptr::null()];
    let mut r = blst::blst_p1::default();
    unsafe { blst::blst_p1s_mult_wbits(&mut r, table.as_ptr(), wbits, n, s.as_ptr(), 255, scratch.as_mut_ptr()) };
    let mut blst_bytes = [0u8; 96];
    unsafe { blst::blst_p1_serialize(blst_bytes.as_mut_ptr(), &r) };
    for (c, stride) in [(12u32, 1usize), (8, 4), (2, 1), (16, 1)] {
        for buckets in [Buckets::Xyzz, Buckets::BatchAffine { batch: 128 }, Buckets::BatchAffineSimd { batch: 128 }] {
            let ours = FixedBaseMsm::with_params(&pts, c, stride, buckets).unwrap().msm(&ks).unwrap();
            assert_eq!(ours_limbs(&ours, |f| f.to_limbs().to_vec()), theirs, "arkworks c={c} stride={stride} {buckets:?}");
            assert_eq!(ours.to_affine().to_uncompressed(), blst_bytes, "blst c={c} stride={stride}");
        }
    }
    // BN254 G2 fixed base against arkworks
    let m = 64;
    let pts2 = random_points::<bn254::G2Config>(&mut rng, m);
    let ks2: Vec<zkforge_field::bn254::Fr> = (0..m).map(|_| zkforge_field::bn254::Fr::random(&mut rng)).collect();
    let f2 = |x: &zkforge_field::bn254::Fp2| ark_bn254::Fq2::new(bn_fp(&x.c0), bn_fp(&x.c1));
    let apts2: Vec<ark_bn254::G2Affine> = pts2.iter().map(|p| ark_bn254::G2Affine::new_unchecked(f2(&p.x()), f2(&p.y()))).collect();
    let aks2: Vec<ark_bn254::Fr> = ks2.iter().map(|k| ark_bn254::Fr::from_bigint(ark_ff::BigInt(k.to_limbs())).unwrap()).collect();
    let theirs2 = ark_xy(ark_bn254::G2Projective::msm(&apts2, &aks2).unwrap().into_affine());
    let ours2 = FixedBaseMsm::new(&pts2).msm(&ks2).unwrap();
    assert_eq!(ours_limbs(&ours2, |f| [f.c0.to_limbs(), f.c1.to_limbs()].concat()), theirs2);
}

/// Prepared bases (cached endomorphism images) give the naive sum under every switch, for
/// every group; field-element scalars (no reduction) and raw limbs (reduced) alike.
fn prepared_bases<C: CurveConfig>(max: usize)
where
    C::Scalar: zkforge_msm::MsmScalar<C>,
{
    use zkforge_msm::PreparedBases;
    let mut rng = rng();
    let points = random_points::<C>(&mut rng, max);
    let ks = random_scalars(&mut rng, max);
    let want = naive_prefix(&points, &ks);
    for n in [0usize, 1, 5, 63, 64, 65, max] {
        let prepared = PreparedBases::new(&points[..n]);
        assert_eq!(prepared.len(), n);
        for cfg in configs::<C>(n) {
            assert_eq!(prepared.msm_with(&ks[..n], &cfg).unwrap(), want[n], "{} n={n} {cfg:?}", C::NAME);
        }
        for threads in [1, 2] {
            assert_eq!(prepared.msm(&ks[..n], threads).unwrap(), want[n]);
        }
    }
    let prepared = PreparedBases::new(&points[..10]);
    assert_eq!(prepared.msm(&ks[..9], 1), Err(MsmError::LengthMismatch { points: 10, scalars: 9 }));
    assert_eq!(prepared.msm(&ks[..10], 0), Err(MsmError::InvalidThreads));
    assert_eq!(prepared.msm_with(&ks[..10], &MsmConfig { window: Some(1), ..MsmConfig::for_size(10, 1) }), Err(MsmError::InvalidWindow { window: 1 }));
}

#[test]
fn prepared_bases_all_groups() {
    prepared_bases::<bls12_381::G1Config>(400);
    prepared_bases::<bls12_381::G2Config>(100);
    prepared_bases::<bn254::G1Config>(400);
    prepared_bases::<bn254::G2Config>(100);
}

/// Field-element scalars skip the reduction: the same answer as their limbs.
#[test]
fn field_scalars_and_limbs_agree() {
    let mut rng = rng();
    let n = 3000;
    let points = random_points::<bls12_381::G1Config>(&mut rng, n);
    let fr: Vec<zkforge_field::bls12_381::Fr> = (0..n).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng)).collect();
    let limbs: Vec<[u64; 4]> = fr.iter().map(|k| k.to_limbs()).collect();
    for threads in [1, 2] {
        assert_eq!(msm_threads(&points, &fr, threads).unwrap(), msm_threads(&points, &limbs, threads).unwrap());
    }
}

/// FixedBaseMany: K lists at once equal K naive sums, with repeated and negated bases across
/// and within lists (the batch-affine doubling and cancelling paths), edge scalars, every
/// window/stride/batch tried, one to three threads; bad shapes are errors.
fn fixed_base_many_case<C: CurveConfig>() {
    use zkforge_msm::FixedBaseMany;
    let mut rng = rng();
    for (k, n) in [(0usize, 0usize), (1, 0), (1, 1), (3, 5), (9, 16)] {
        let mut lists: Vec<Vec<Affine<C>>> = (0..k).map(|_| random_points::<C>(&mut rng, n)).collect();
        let mut ks = random_scalars(&mut rng, k * n);
        if k > 2 && n > 3 {
            // the same base in two lists and twice in one list, and a negated base
            lists[1][0] = lists[0][0];
            lists[2][1] = lists[2][0];
            lists[2][2] = -lists[2][0];
            lists[1][3] = Affine::IDENTITY;
            ks[n] = ks[0];
            ks[2 * n + 1] = ks[2 * n];
            ks[2 * n + 2] = ks[2 * n];
            ks[3] = [0; 4];
            ks[4] = [u64::MAX; 4];
            ks[n + 2] = C::ORDER;
        }
        let want: Vec<Jacobian<C>> = (0..k).map(|j| *naive_prefix(&lists[j], &ks[j * n..(j + 1) * n]).last().unwrap()).collect();
        for (c, stride, batch) in [(8u32, 1usize, 256usize), (2, 1, 1), (5, 3, 7), (12, 100, 64), (16, 1, 1000)] {
            for buckets in [Buckets::BatchAffine { batch }, Buckets::BatchAffineSimd { batch }, Buckets::Xyzz] {
                let t = FixedBaseMany::with_buckets(&lists, c, stride, buckets).unwrap();
                for threads in [1, 2, 3] {
                    assert_eq!(t.msm_many(&ks, threads).unwrap(), want, "k={k} n={n} c={c} stride={stride} {buckets:?} threads={threads}");
                }
                assert!(t.msm_many(&ks, 0).is_err());
                if k * n > 0 {
                    assert!(t.msm_many(&ks[1..], 1).is_err());
                }
            }
            let t = FixedBaseMany::new(&lists, c, stride, batch).unwrap();
            assert_eq!(t.msm_many(&ks, 1).unwrap(), want);
        }
    }
    let lists = vec![random_points::<C>(&mut rng, 3), random_points::<C>(&mut rng, 2)];
    assert!(FixedBaseMany::new(&lists, 8, 1, 16).is_err());
    let lists = vec![random_points::<C>(&mut rng, 3)];
    assert_eq!(FixedBaseMany::new(&lists, 1, 1, 16).err(), Some(MsmError::InvalidWindow { window: 1 }));
    assert_eq!(FixedBaseMany::new(&lists, 8, 0, 16).err(), Some(MsmError::InvalidStride));
    assert_eq!(FixedBaseMany::new(&lists, 8, 1, 0).err(), Some(MsmError::InvalidBatch));
    assert_eq!(FixedBaseMany::with_buckets(&lists, 8, 1, Buckets::BatchAffineSimd { batch: 0 }).err(), Some(MsmError::InvalidBatch));
}

#[test]
fn fixed_base_many_bls12_381_g1() {
    fixed_base_many_case::<bls12_381::G1Config>();
}
#[test]
fn fixed_base_many_bn254_g1() {
    fixed_base_many_case::<bn254::G1Config>();
}
#[test]
fn fixed_base_many_bn254_g2() {
    fixed_base_many_case::<bn254::G2Config>();
}

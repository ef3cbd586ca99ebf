//! MSM cases: BLS12-381 G1 against blst (its single-threaded Pippenger, and its thread pool
//! for the two-thread rows) and arkworks (single-threaded `VariableBaseMSM`); BN254 G1 against
//! arkworks and halo2curves (its `msm_best` run inside a one-thread rayon pool); G2 of both
//! curves (blst for BLS12-381, arkworks for BN254). Sizes 1, 2, 4,
//! 8, 16, 32, 2^8, 2^12, 2^16 by default; `ZKFORGE_MSM_MAX_LOG=20` adds larger ones.

use std::hint::black_box;
use std::time::Instant;

use ark_ec::VariableBaseMSM;
use ark_ff::{BigInt, PrimeField as ArkPrimeField};
use blst::*;
use rand::{rngs::StdRng, SeedableRng};
use zkforge_curve::{bls12_381 as bls, bn254 as bn, sample_points};
use zkforge_msm::{msm_with, MsmConfig};

use crate::curve::{ark_g1, blst_g1, blst_g2};
use crate::{Case, Runner};

fn timed(mut f: impl FnMut() + 'static) -> Runner {
    Box::new(move |iters| {
        let start = Instant::now();
        for _ in 0..iters {
            f();
        }
        start.elapsed()
    })
}

fn sizes() -> Vec<usize> {
    let max = std::env::var("ZKFORGE_MSM_MAX_LOG").ok().and_then(|s| s.parse::<u32>().ok()).unwrap_or(16);
    let mut v: Vec<usize> = vec![1, 2, 4, 8, 16, 32, 1 << 8, 1 << 12, 1 << 16];
    for lg in [18u32, 20, 22] {
        if lg <= max {
            v.push(1 << lg);
        }
    }
    v.retain(|&n| n <= 1 << max);
    v
}

fn bls_g1(out: &mut Vec<Case>) {
    let mut rng = StdRng::seed_from_u64(21);
    let max = *sizes().last().unwrap();
    let pts = sample_points::<bls::G1Config>(&mut rng, max);
    let ks: Vec<zkforge_field::bls12_381::Fr> = (0..max).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng)).collect();
    let bpts: Vec<blst_p1_affine> = pts.iter().map(blst_g1).collect();
    let bks: Vec<u8> = ks.iter().flat_map(|k| k.to_bytes_le()).collect();
    let apts: Vec<ark_bls12_381::G1Affine> = pts.iter().map(ark_g1).collect();
    let aks: Vec<ark_bls12_381::Fr> = ks.iter().map(|k| ark_bls12_381::Fr::from_bigint(BigInt(k.to_limbs())).unwrap()).collect();
    let (pts, ks, bpts, bks, apts, aks) = (
        std::sync::Arc::new(pts),
        std::sync::Arc::new(ks),
        std::sync::Arc::new(bpts),
        std::sync::Arc::new(bks),
        std::sync::Arc::new(apts),
        std::sync::Arc::new(aks),
    );
    for n in sizes() {
        for threads in [1usize, 2] {
            if threads == 2 && n < 1 << 12 {
                continue;
            }
            let ours = {
                let (pts, ks) = (pts.clone(), ks.clone());
                let cfg = MsmConfig::for_size(n, threads);
                timed(move || {
                    black_box(msm_with(&pts[..n], &ks[..n], &cfg).unwrap());
                })
            };
            let blst_r: Runner = if threads == 1 {
                let (bpts, bks) = (bpts.clone(), bks.clone());
                let mut scratch: Vec<u64> = vec![0u64; unsafe { blst_p1s_mult_pippenger_scratch_sizeof(n) } / 8 + 1];
                timed(move || {
                    let p: [*const blst_p1_affine; 2] = [bpts.as_ptr(), std::ptr::null()];
                    let s: [*const u8; 2] = [bks.as_ptr(), std::ptr::null()];
                    let mut ret = blst_p1::default();
                    unsafe { blst_p1s_mult_pippenger(&mut ret, p.as_ptr(), n, s.as_ptr(), 255, scratch.as_mut_ptr()) };
                    black_box(ret);
                })
            } else {
                let (bpts, bks) = (bpts.clone(), bks.clone());
                timed(move || {
                    use blst::MultiPoint;
                    black_box(bpts[..n].mult(&bks[..32 * n], 255));
                })
            };
            let mut peers: Vec<(&'static str, Runner)> = vec![("blst", blst_r)];
            if threads == 1 {
                let (apts, aks) = (apts.clone(), aks.clone());
                peers.push(("arkworks", timed(move || {
                    let _ = black_box(ark_bls12_381::G1Projective::msm(&apts[..n], &aks[..n]).unwrap());
                })));
            }
            out.push(Case { group: "msm", op: "g1_msm", curve: "bls12_381", size: n, threads, ours, peers });
        }
    }
}

fn bn_g1(out: &mut Vec<Case>) {
    let mut rng = StdRng::seed_from_u64(22);
    let max = *sizes().last().unwrap();
    let pts = sample_points::<bn::G1Config>(&mut rng, max);
    let ks: Vec<zkforge_field::bn254::Fr> = (0..max).map(|_| zkforge_field::bn254::Fr::random(&mut rng)).collect();
    let apts: Vec<ark_bn254::G1Affine> = pts
        .iter()
        .map(|p| {
            ark_bn254::G1Affine::new_unchecked(
                ark_bn254::Fq::from_bigint(BigInt(p.x.to_limbs())).unwrap(),
                ark_bn254::Fq::from_bigint(BigInt(p.y.to_limbs())).unwrap(),
            )
        })
        .collect();
    let aks: Vec<ark_bn254::Fr> = ks.iter().map(|k| ark_bn254::Fr::from_bigint(BigInt(k.to_limbs())).unwrap()).collect();
    let h2_fq = |x: &zkforge_field::bn254::Fp| {
        use ff::PrimeField as _;
        halo2curves::bn256::Fq::from_repr(x.to_bytes_le().into()).unwrap()
    };
    let hpts: Vec<halo2curves::bn256::G1Affine> = pts.iter().map(|p| halo2curves::bn256::G1Affine { x: h2_fq(&p.x), y: h2_fq(&p.y) }).collect();
    let hks: Vec<halo2curves::bn256::Fr> = ks
        .iter()
        .map(|k| {
            use ff::PrimeField as _;
            halo2curves::bn256::Fr::from_repr(k.to_bytes_le().into()).unwrap()
        })
        .collect();
    let (hpts, hks) = (std::sync::Arc::new(hpts), std::sync::Arc::new(hks));
    // halo2curves parallelises on rayon's global pool: run it inside a one-thread pool
    let one = std::sync::Arc::new(rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("pool"));
    let (pts, ks, apts, aks) = (std::sync::Arc::new(pts), std::sync::Arc::new(ks), std::sync::Arc::new(apts), std::sync::Arc::new(aks));
    for n in sizes() {
        if n < 1 << 8 {
            continue;
        }
        let ours = {
            let (pts, ks) = (pts.clone(), ks.clone());
            let cfg = MsmConfig::for_size(n, 1);
            timed(move || {
                black_box(msm_with(&pts[..n], &ks[..n], &cfg).unwrap());
            })
        };
        let ark = {
            let (apts, aks) = (apts.clone(), aks.clone());
            timed(move || {
                let _ = black_box(ark_bn254::G1Projective::msm(&apts[..n], &aks[..n]).unwrap());
            })
        };
        let h2 = {
            let (hpts, hks, one) = (hpts.clone(), hks.clone(), one.clone());
            timed(move || {
                black_box(one.install(|| halo2curves::msm::msm_best(&hks[..n], &hpts[..n])));
            })
        };
        out.push(Case { group: "msm", op: "g1_msm", curve: "bn254", size: n, threads: 1, ours, peers: vec![("arkworks", ark), ("halo2curves", h2)] });
    }
}

/// Fixed-base MSM over 4096 bases (a KZG setup's size): ours (stride 1, c = 12) against blst's
/// precomputed fixed-window MSM (`blst_p1s_mult_wbits`, wbits = 8) and our own variable-base
/// MSM on the same bases.
fn bls_g1_fixed(out: &mut Vec<Case>) {
    let n = 4096;
    let mut rng = StdRng::seed_from_u64(24);
    let pts = sample_points::<bls::G1Config>(&mut rng, n);
    let ks: Vec<zkforge_field::bls12_381::Fr> = (0..n).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng)).collect();
    let table = zkforge_msm::FixedBaseMsm::new(&pts);
    let ours = {
        let ks = ks.clone();
        timed(move || {
            black_box(table.msm(&ks).unwrap());
        })
    };
    let ours_var = {
        let (pts, ks) = (pts.clone(), ks.clone());
        let cfg = MsmConfig::for_size(n, 1);
        timed(move || {
            black_box(msm_with(&pts, &ks, &cfg).unwrap());
        })
    };
    let bpts: Vec<blst_p1_affine> = pts.iter().map(blst_g1).collect();
    let bks: Vec<u8> = ks.iter().flat_map(|k| k.to_bytes_le()).collect();
    let wbits = 8;
    let mut btable = vec![blst_p1_affine::default(); unsafe { blst_p1s_mult_wbits_precompute_sizeof(wbits, n) } / core::mem::size_of::<blst_p1_affine>()];
    let pp: [*const blst_p1_affine; 2] = [bpts.as_ptr(), std::ptr::null()];
    unsafe { blst_p1s_mult_wbits_precompute(btable.as_mut_ptr(), wbits, pp.as_ptr(), n) };
    let mut scratch: Vec<u64> = vec![0u64; unsafe { blst_p1s_mult_wbits_scratch_sizeof(n) } / 8 + 1];
    let blst_fixed = timed(move || {
        let s: [*const u8; 2] = [bks.as_ptr(), std::ptr::null()];
        let mut ret = blst_p1::default();
        unsafe { blst_p1s_mult_wbits(&mut ret, btable.as_ptr(), wbits, n, s.as_ptr(), 255, scratch.as_mut_ptr()) };
        black_box(ret);
    });
    out.push(Case { group: "msm", op: "g1_msm_fixed_base", curve: "bls12_381", size: n, threads: 1, ours, peers: vec![("blst-wbits8", blst_fixed), ("zkforge-var", ours_var)] });
}

fn bls_g2(out: &mut Vec<Case>) {
    let mut rng = StdRng::seed_from_u64(23);
    let sizes: Vec<usize> = sizes().into_iter().filter(|&n| n == 16 || n == 256 || n == 4096).collect();
    let max = *sizes.last().unwrap_or(&16);
    let pts = sample_points::<bls::G2Config>(&mut rng, max);
    let ks: Vec<zkforge_field::bls12_381::Fr> = (0..max).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng)).collect();
    let bpts: Vec<blst_p2_affine> = pts.iter().map(blst_g2).collect();
    let bks: Vec<u8> = ks.iter().flat_map(|k| k.to_bytes_le()).collect();
    let (pts, ks, bpts, bks) = (std::sync::Arc::new(pts), std::sync::Arc::new(ks), std::sync::Arc::new(bpts), std::sync::Arc::new(bks));
    for n in sizes {
        let ours = {
            let (pts, ks) = (pts.clone(), ks.clone());
            let cfg = MsmConfig::for_size(n, 1);
            timed(move || {
                black_box(msm_with(&pts[..n], &ks[..n], &cfg).unwrap());
            })
        };
        let blst_r = {
            let (bpts, bks) = (bpts.clone(), bks.clone());
            let mut scratch: Vec<u64> = vec![0u64; unsafe { blst_p2s_mult_pippenger_scratch_sizeof(n) } / 8 + 1];
            timed(move || {
                let p: [*const blst_p2_affine; 2] = [bpts.as_ptr(), std::ptr::null()];
                let s: [*const u8; 2] = [bks.as_ptr(), std::ptr::null()];
                let mut ret = blst_p2::default();
                unsafe { blst_p2s_mult_pippenger(&mut ret, p.as_ptr(), n, s.as_ptr(), 255, scratch.as_mut_ptr()) };
                black_box(ret);
            })
        };
        out.push(Case { group: "msm", op: "g2_msm", curve: "bls12_381", size: n, threads: 1, ours, peers: vec![("blst", blst_r)] });
    }
}

/// BN254 G2 against arkworks (blst has no BN254); sizes 16, 256, 4096.
fn bn_g2(out: &mut Vec<Case>) {
    let mut rng = StdRng::seed_from_u64(25);
    let sizes: Vec<usize> = sizes().into_iter().filter(|&n| n == 16 || n == 256 || n == 4096).collect();
    let max = *sizes.last().unwrap_or(&16);
    let pts = sample_points::<bn::G2Config>(&mut rng, max);
    let ks: Vec<zkforge_field::bn254::Fr> = (0..max).map(|_| zkforge_field::bn254::Fr::random(&mut rng)).collect();
    let fq = |x: &zkforge_field::bn254::Fp| ark_bn254::Fq::from_bigint(BigInt(x.to_limbs())).unwrap();
    let apts: Vec<ark_bn254::G2Affine> = pts
        .iter()
        .map(|p| ark_bn254::G2Affine::new_unchecked(ark_bn254::Fq2::new(fq(&p.x.c0), fq(&p.x.c1)), ark_bn254::Fq2::new(fq(&p.y.c0), fq(&p.y.c1))))
        .collect();
    let aks: Vec<ark_bn254::Fr> = ks.iter().map(|k| ark_bn254::Fr::from_bigint(BigInt(k.to_limbs())).unwrap()).collect();
    let (pts, ks, apts, aks) = (std::sync::Arc::new(pts), std::sync::Arc::new(ks), std::sync::Arc::new(apts), std::sync::Arc::new(aks));
    for n in sizes {
        let ours = {
            let (pts, ks) = (pts.clone(), ks.clone());
            let cfg = MsmConfig::for_size(n, 1);
            timed(move || {
                black_box(msm_with(&pts[..n], &ks[..n], &cfg).unwrap());
            })
        };
        let ark = {
            let (apts, aks) = (apts.clone(), aks.clone());
            timed(move || {
                let _ = black_box(ark_bn254::G2Projective::msm(&apts[..n], &aks[..n]).unwrap());
            })
        };
        out.push(Case { group: "msm", op: "g2_msm", curve: "bn254", size: n, threads: 1, ours, peers: vec![("arkworks", ark)] });
    }
}

/// Every MSM case.
pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    bls_g1(&mut out);
    bls_g2(&mut out);
    bls_g1_fixed(&mut out);
    bn_g1(&mut out);
    bn_g2(&mut out);
    out
}

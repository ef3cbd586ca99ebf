//! MSM cases: BLS12-381 G1 against blst (its single-threaded Pippenger; at n = 1 its
//! `blst_p1_mult`, since its Pippenger entry takes the constant-time window path there; its
//! thread pool for the two-thread rows, with the process pinned to two CPUs so that the pool,
//! sized to the CPUs the process may use, has exactly two threads) and arkworks
//! (single-threaded `VariableBaseMSM`); BN254 G1 against arkworks and halo2curves (its
//! `msm_best` run inside a one-thread rayon pool); G2 of both curves (blst for BLS12-381,
//! arkworks for BN254); fixed-base MSM against blst's precomputed tables at every wbits 4..=10
//! (peer names carry the table size); and our MSM called from inside a caller's one-thread
//! rayon pool against the same call from a plain thread. Sizes 1, 2, 4, 8, 16, 32, 2^8, 2^12,
//! 2^16 by default; `ZKFORGE_MSM_MAX_LOG=20` adds larger ones. gnark-crypto (Go, one task,
//! GOMAXPROCS=1; [`crate::gnark`]) joins the one-thread G1 rows of both curves when Go is
//! present. Every case first checks that ours and each peer give the same point.

use std::hint::black_box;
use std::sync::Arc;

use ark_ec::VariableBaseMSM;
use ark_ff::{BigInt, PrimeField as ArkPrimeField};
use blst::*;
use rand::{rngs::StdRng, SeedableRng};
use zkforge_curve::{bls12_381 as bls, bn254 as bn, sample_points};
use zkforge_msm::{msm_with, MsmConfig};

use crate::curve::{ark_g1, blst_g1, blst_g2, blst_p1_bytes, blst_p2_bytes};
use crate::{agree, timed, Case, Runner};

/// Restrict this thread (and the threads it starts later, such as blst's pool on its first
/// use) to two CPUs, so a "2 threads" row has two threads on both sides whatever the machine.
/// No-op where the process already has at most two CPUs.
fn pin_two_cpus() {
    if std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1) <= 2 {
        return;
    }
    // SAFETY: a zeroed cpu_set_t is a valid empty set; CPU_SET and sched_setaffinity read and
    // write only that set.
    unsafe {
        let mut set: libc::cpu_set_t = core::mem::zeroed();
        libc::CPU_SET(0, &mut set);
        libc::CPU_SET(1, &mut set);
        libc::sched_setaffinity(0, core::mem::size_of::<libc::cpu_set_t>(), &set);
    }
}

/// blst's single-threaded Pippenger over the first n G1 points and 32-byte scalars, with a
/// caller-owned scratch buffer (sized by [`blst_g1_scratch`]) so the timed loop allocates
/// nothing.
fn blst_g1_pippenger(bpts: &[blst_p1_affine], bks: &[u8], n: usize, scratch: &mut [u64]) -> blst_p1 {
    let p: [*const blst_p1_affine; 2] = [bpts.as_ptr(), std::ptr::null()];
    let s: [*const u8; 2] = [bks.as_ptr(), std::ptr::null()];
    let mut ret = blst_p1::default();
    assert!(bpts.len() >= n && bks.len() >= 32 * n && scratch.len() >= blst_g1_scratch_words(n));
    // SAFETY: n valid points and n 32-byte scalars (checked above), scratch of blst's size.
    unsafe { blst_p1s_mult_pippenger(&mut ret, p.as_ptr(), n, s.as_ptr(), 255, scratch.as_mut_ptr()) };
    ret
}

/// u64 words of scratch [`blst_g1_pippenger`] needs for n points.
fn blst_g1_scratch_words(n: usize) -> usize {
    // SAFETY: a pure size query.
    let bytes = unsafe { blst_p1s_mult_pippenger_scratch_sizeof(n) };
    bytes / 8 + 1
}

/// Scratch space for [`blst_g1_pippenger`] over n points.
fn blst_g1_scratch(n: usize) -> Vec<u64> {
    vec![0u64; blst_g1_scratch_words(n)]
}

/// [`blst_g1_pippenger`] on G2.
fn blst_g2_pippenger(bpts: &[blst_p2_affine], bks: &[u8], n: usize, scratch: &mut [u64]) -> blst_p2 {
    let p: [*const blst_p2_affine; 2] = [bpts.as_ptr(), std::ptr::null()];
    let s: [*const u8; 2] = [bks.as_ptr(), std::ptr::null()];
    let mut ret = blst_p2::default();
    assert!(bpts.len() >= n && bks.len() >= 32 * n && scratch.len() >= blst_g2_scratch_words(n));
    // SAFETY: n valid points and n 32-byte scalars (checked above), scratch of blst's size.
    unsafe { blst_p2s_mult_pippenger(&mut ret, p.as_ptr(), n, s.as_ptr(), 255, scratch.as_mut_ptr()) };
    ret
}

/// u64 words of scratch [`blst_g2_pippenger`] needs for n points.
fn blst_g2_scratch_words(n: usize) -> usize {
    // SAFETY: a pure size query.
    let bytes = unsafe { blst_p2s_mult_pippenger_scratch_sizeof(n) };
    bytes / 8 + 1
}

/// Scratch space for [`blst_g2_pippenger`] over n points.
fn blst_g2_scratch(n: usize) -> Vec<u64> {
    vec![0u64; blst_g2_scratch_words(n)]
}

/// Canonical (x, y) limbs of an arkworks affine point (None for the identity).
fn ark_xy<A: ark_ec::AffineRepr>(p: A) -> Option<(Vec<u64>, Vec<u64>)>
where
    A::BaseField: ark_ff::Field,
{
    use ark_ff::Field;
    let (x, y) = p.xy()?;
    let limbs = |f: A::BaseField| -> Vec<u64> { f.to_base_prime_field_elements().flat_map(|b| b.into_bigint().as_ref().to_vec()).collect() };
    Some((limbs(x), limbs(y)))
}


/// gnark-crypto's single-task MSM over the first n points and scalars, when the Go peer is
/// available: its runner and a check that our MSM of the same inputs equals gnark's output.
/// `kind` names the curve for the Go program, `width` is the base field's byte length.
fn gnark_msm<C, F, const L: usize, S>(kind: &str, pts: &Arc<Vec<zkforge_curve::Affine<C>>>, ks: &Arc<Vec<zkforge_field::Fp<S, 4>>>, n: usize, width: usize) -> Option<(Runner, crate::Check)>
where
    C: zkforge_curve::CurveConfig<Base = zkforge_field::Fp<F, L>>,
    F: zkforge_field::FieldConfig<L>,
    S: zkforge_field::FieldConfig<4>,
    zkforge_field::Fp<S, 4>: zkforge_msm::MsmScalar<C>,
{
    let mut input = Vec::with_capacity(n * (2 * width + 32));
    for p in &pts[..n] {
        input.extend_from_slice(p.x().to_bytes_be().as_ref());
        input.extend_from_slice(p.y().to_bytes_be().as_ref());
    }
    for k in &ks[..n] {
        input.extend_from_slice(k.to_bytes_be().as_ref());
    }
    let (runner, out) = crate::gnark::load(kind, &input).ok()?;
    let want = (!out.is_empty()).then(|| {
        let limbs = crate::gnark::be_to_limbs(&out, width);
        let (x, y) = limbs.split_at(limbs.len() / 2);
        (x.to_vec(), y.to_vec())
    });
    let (pts, ks) = (pts.clone(), ks.clone());
    let check: crate::Check = Box::new(move || {
        let ours = msm_with(&pts[..n], &ks[..n], &MsmConfig::for_size(n, 1)).map_err(|e| e.to_string())?.to_affine();
        let ours_xy = if bool::from(ours.is_identity()) { None } else { Some((ours.x().to_limbs().to_vec(), ours.y().to_limbs().to_vec())) };
        agree(ours_xy, vec![("gnark-crypto", want)])
    });
    Some((runner, check))
}

/// The MSM sizes to 2^max.
fn sizes(max: u32) -> Vec<usize> {
    let mut v: Vec<usize> = vec![1, 2, 4, 8, 16, 32, 1 << 8, 1 << 12, 1 << 16];
    for lg in [18u32, 20, 22] {
        if lg <= max {
            v.push(1 << lg);
        }
    }
    v.retain(|&n| n <= 1 << max);
    v
}

fn bls_g1(out: &mut Vec<Case>, max_log: u32) {
    let mut rng = StdRng::seed_from_u64(21);
    let max = *sizes(max_log).last().unwrap();
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
    for n in sizes(max_log) {
        for threads in [1usize, 2] {
            if threads == 2 && n < 1 << 12 {
                continue;
            }
            if threads == 2 {
                pin_two_cpus();
            }
            let check = {
                let (pts, ks, bpts, bks, apts, aks) = (pts.clone(), ks.clone(), bpts.clone(), bks.clone(), apts.clone(), aks.clone());
                move || {
                    let ours = msm_with(&pts[..n], &ks[..n], &MsmConfig::for_curve::<bls::G1Config>(n, threads)).map_err(|e| e.to_string())?.to_affine();
                    let bp = blst_g1_pippenger(&bpts, &bks, n, &mut blst_g1_scratch(n));
                    agree(ours.to_uncompressed().to_vec(), vec![("blst", blst_p1_bytes(&bp))])?;
                    let theirs = ark_bls12_381::G1Projective::msm(&apts[..n], &aks[..n]).map_err(|_| "arkworks length".to_string())?;
                    use ark_ec::CurveGroup;
                    let ours_xy = if bool::from(ours.is_identity()) { None } else { Some((ours.x().to_limbs().to_vec(), ours.y().to_limbs().to_vec())) };
                    agree(ours_xy, vec![("arkworks", ark_xy(theirs.into_affine()))])
                }
            };
            let ours = {
                let (pts, ks) = (pts.clone(), ks.clone());
                let cfg = MsmConfig::for_curve::<bls::G1Config>(n, threads);
                timed(move || {
                    black_box(msm_with(&pts[..n], &ks[..n], &cfg).unwrap());
                })
            };
            let blst_r: Runner = if n == 1 {
                let (bpts, bks) = (bpts.clone(), bks.clone());
                timed(move || {
                    let mut p = blst_p1::default();
                    let mut ret = blst_p1::default();
                    // SAFETY: one valid point, one 32-byte scalar of 255 bits.
                    unsafe {
                        blst_p1_from_affine(&mut p, &bpts[0]);
                        blst_p1_mult(&mut ret, &p, bks.as_ptr(), 255);
                    }
                    black_box(ret);
                })
            } else if threads == 1 {
                let (bpts, bks) = (bpts.clone(), bks.clone());
                let mut scratch = blst_g1_scratch(n);
                timed(move || {
                    black_box(blst_g1_pippenger(&bpts, &bks, n, &mut scratch));
                })
            } else {
                let (bpts, bks) = (bpts.clone(), bks.clone());
                timed(move || {
                    use blst::MultiPoint;
                    black_box(bpts[..n].mult(&bks[..32 * n], 255));
                })
            };
            let blst_name = if n == 1 { "blst-p1_mult-ct" } else if threads == 1 { "blst" } else { "blst-pool2" };
            let mut peers: Vec<(&'static str, Runner)> = vec![(blst_name, blst_r)];
            if threads == 1 {
                let (apts, aks) = (apts.clone(), aks.clone());
                peers.push(("arkworks", timed(move || {
                    let _ = black_box(ark_bls12_381::G1Projective::msm(&apts[..n], &aks[..n]).unwrap());
                })));
            }
            let gnark = if threads == 1 { gnark_msm("bls_msm", &pts, &ks, n, 48) } else { None };
            let check = crate::gnark::join(&mut peers, Box::new(check), gnark);
            out.push(Case { group: "msm", op: "g1_msm", curve: "bls12_381", size: n, threads, ours, peers, check: None }.with_check(check));
        }
    }
}

fn bn_g1(out: &mut Vec<Case>, max_log: u32) {
    let mut rng = StdRng::seed_from_u64(22);
    let max = *sizes(max_log).last().unwrap();
    let pts = sample_points::<bn::G1Config>(&mut rng, max);
    let ks: Vec<zkforge_field::bn254::Fr> = (0..max).map(|_| zkforge_field::bn254::Fr::random(&mut rng)).collect();
    let apts: Vec<ark_bn254::G1Affine> = pts
        .iter()
        .map(|p| {
            ark_bn254::G1Affine::new_unchecked(
                ark_bn254::Fq::from_bigint(BigInt(p.x().to_limbs())).unwrap(),
                ark_bn254::Fq::from_bigint(BigInt(p.y().to_limbs())).unwrap(),
            )
        })
        .collect();
    let aks: Vec<ark_bn254::Fr> = ks.iter().map(|k| ark_bn254::Fr::from_bigint(BigInt(k.to_limbs())).unwrap()).collect();
    let h2_fq = |x: &zkforge_field::bn254::Fp| {
        use ff::PrimeField as _;
        halo2curves::bn256::Fq::from_repr(x.to_bytes_le().into()).unwrap()
    };
    let hpts: Vec<halo2curves::bn256::G1Affine> = pts.iter().map(|p| halo2curves::bn256::G1Affine { x: h2_fq(&p.x()), y: h2_fq(&p.y()) }).collect();
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
    for n in sizes(max_log) {
        if n < 1 << 8 {
            continue;
        }
        let ours = {
            let (pts, ks) = (pts.clone(), ks.clone());
            let cfg = MsmConfig::for_curve::<bn::G1Config>(n, 1);
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
        let check = {
            let (pts, ks, apts, aks, hpts, hks) = (pts.clone(), ks.clone(), apts.clone(), aks.clone(), hpts.clone(), hks.clone());
            move || {
                use ark_ec::CurveGroup;
                use ff::PrimeField as _;
                use halo2curves::group::Curve as _;
                let ours = msm_with(&pts[..n], &ks[..n], &MsmConfig::for_curve::<bn::G1Config>(n, 1)).map_err(|e| e.to_string())?.to_affine();
                let ours_xy = Some((ours.x().to_limbs().to_vec(), ours.y().to_limbs().to_vec()));
                let a = ark_bn254::G1Projective::msm(&apts[..n], &aks[..n]).map_err(|_| "arkworks length".to_string())?;
                agree(ours_xy, vec![("arkworks", ark_xy(a.into_affine()))])?;
                let h = halo2curves::msm::msm_best(&hks[..n], &hpts[..n]).to_affine();
                let le = |b: [u8; 32]| -> Vec<u64> { b.chunks(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect() };
                agree((ours.x().to_limbs().to_vec(), ours.y().to_limbs().to_vec()), vec![("halo2curves", (le(h.x.to_repr().into()), le(h.y.to_repr().into())))])
            }
        };
        let mut peers: Vec<(&'static str, Runner)> = vec![("arkworks", ark), ("halo2curves", h2)];
        let check = crate::gnark::join(&mut peers, Box::new(check), gnark_msm("bn_msm", &pts, &ks, n, 32));
        out.push(Case { group: "msm", op: "g1_msm", curve: "bn254", size: n, threads: 1, ours, peers, check: None }.with_check(check));
    }
}

/// Fixed-base MSM over 4096 bases (a KZG setup's size): ours (stride 1, c = 12) against blst's
/// precomputed fixed-window MSM (`blst_p1s_mult_wbits`) at every wbits 4..=10, each peer named
/// with its table size, and our own variable-base MSM on the same bases.
fn bls_g1_fixed(out: &mut Vec<Case>) {
    let n = 4096;
    let mut rng = StdRng::seed_from_u64(24);
    let pts = sample_points::<bls::G1Config>(&mut rng, n);
    let ks: Vec<zkforge_field::bls12_381::Fr> = (0..n).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng)).collect();
    let table = std::sync::Arc::new(zkforge_msm::FixedBaseMsm::new(&pts));
    let op: &'static str = Box::leak(format!("g1_msm_fixed_base({:.1}MB)", table.memory_bytes() as f64 / 1e6).into_boxed_str());
    let want = table.msm(&ks).expect("lengths").to_affine().to_uncompressed().to_vec();
    let ours = {
        let (ks, table) = (ks.clone(), table.clone());
        timed(move || {
            black_box(table.msm(&ks).unwrap());
        })
    };
    let ours_var = {
        let (pts, ks) = (pts.clone(), ks.clone());
        let cfg = MsmConfig::for_curve::<bls::G1Config>(n, 1);
        timed(move || {
            black_box(msm_with(&pts, &ks, &cfg).unwrap());
        })
    };
    let var_bytes = msm_with(&pts, &ks, &MsmConfig::for_curve::<bls::G1Config>(n, 1)).expect("lengths").to_affine().to_uncompressed().to_vec();
    let bpts: Vec<blst_p1_affine> = pts.iter().map(blst_g1).collect();
    let bks: std::sync::Arc<Vec<u8>> = std::sync::Arc::new(ks.iter().flat_map(|k| k.to_bytes_le()).collect());
    let mut peers: Vec<(&'static str, Runner)> = Vec::new();
    let mut results: Vec<(&'static str, Vec<u8>)> = vec![("zkforge-var", var_bytes)];
    for wbits in 4..=10usize {
        // SAFETY (all blst calls below): buffers of the sizes blst reports, n valid points,
        // n 32-byte scalars.
        let bytes = unsafe { blst_p1s_mult_wbits_precompute_sizeof(wbits, n) };
        let mut btable = vec![blst_p1_affine::default(); bytes / core::mem::size_of::<blst_p1_affine>()];
        let pp: [*const blst_p1_affine; 2] = [bpts.as_ptr(), std::ptr::null()];
        unsafe { blst_p1s_mult_wbits_precompute(btable.as_mut_ptr(), wbits, pp.as_ptr(), n) };
        let mut scratch: Vec<u64> = vec![0u64; unsafe { blst_p1s_mult_wbits_scratch_sizeof(n) } / 8 + 1];
        let mut run = {
            let bks = bks.clone();
            move || {
                let s: [*const u8; 2] = [bks.as_ptr(), std::ptr::null()];
                let mut ret = blst_p1::default();
                unsafe { blst_p1s_mult_wbits(&mut ret, btable.as_ptr(), wbits, n, s.as_ptr(), 255, scratch.as_mut_ptr()) };
                ret
            }
        };
        let name: &'static str = Box::leak(format!("blst-wbits{wbits}({:.0}MB)", bytes as f64 / 1e6).into_boxed_str());
        results.push((name, blst_p1_bytes(&run())));
        peers.push((name, timed(move || {
            black_box(run());
        })));
    }
    peers.push(("zkforge-var", ours_var));
    out.push(Case { group: "msm", op, curve: "bls12_381", size: n, threads: 1, ours, peers, check: None }.with_check(move || agree(want, results)));
}

/// Our MSM at 2^16 (one thread, the default configuration) called from inside a caller's
/// one-thread rayon pool, against the same call from a plain thread: the two must cost the
/// same (threads = 1 uses no pool at all).
fn inside_rayon(out: &mut Vec<Case>, max_log: u32) {
    let n = 1 << 12.max(sizes(max_log).last().map(|m| m.trailing_zeros()).unwrap_or(12).min(16));
    let mut rng = StdRng::seed_from_u64(26);
    let pts = std::sync::Arc::new(sample_points::<bls::G1Config>(&mut rng, n));
    let ks: std::sync::Arc<Vec<zkforge_field::bls12_381::Fr>> = std::sync::Arc::new((0..n).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng)).collect());
    let cfg = MsmConfig::for_curve::<bls::G1Config>(n, 1);
    let pool = std::sync::Arc::new(rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("pool"));
    let plain = {
        let (pts, ks) = (pts.clone(), ks.clone());
        timed(move || {
            black_box(msm_with(&pts, &ks, &cfg).unwrap());
        })
    };
    let inside = {
        let (pts, ks) = (pts.clone(), ks.clone());
        timed(move || {
            black_box(pool.install(|| msm_with(&pts, &ks, &cfg).unwrap()));
        })
    };
    out.push(Case { group: "msm", op: "g1_msm_in_rayon_pool1", curve: "bls12_381", size: n, threads: 1, ours: inside, peers: vec![("zkforge-plain-thread", plain)], check: None });
}

fn bls_g2(out: &mut Vec<Case>, max_log: u32) {
    let mut rng = StdRng::seed_from_u64(23);
    let sizes: Vec<usize> = sizes(max_log).into_iter().filter(|&n| n == 16 || n == 256 || n == 4096).collect();
    let max = *sizes.last().unwrap_or(&16);
    let pts = sample_points::<bls::G2Config>(&mut rng, max);
    let ks: Vec<zkforge_field::bls12_381::Fr> = (0..max).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng)).collect();
    let bpts: Vec<blst_p2_affine> = pts.iter().map(blst_g2).collect();
    let bks: Vec<u8> = ks.iter().flat_map(|k| k.to_bytes_le()).collect();
    let (pts, ks, bpts, bks) = (std::sync::Arc::new(pts), std::sync::Arc::new(ks), std::sync::Arc::new(bpts), std::sync::Arc::new(bks));
    for n in sizes {
        let ours = {
            let (pts, ks) = (pts.clone(), ks.clone());
            let cfg = MsmConfig::for_curve::<bls::G2Config>(n, 1);
            timed(move || {
                black_box(msm_with(&pts[..n], &ks[..n], &cfg).unwrap());
            })
        };
        let blst_r = {
            let (bpts, bks) = (bpts.clone(), bks.clone());
            let mut scratch = blst_g2_scratch(n);
            timed(move || {
                black_box(blst_g2_pippenger(&bpts, &bks, n, &mut scratch));
            })
        };
        let check = {
            let (pts, ks, bpts, bks) = (pts.clone(), ks.clone(), bpts.clone(), bks.clone());
            move || {
                let ours = msm_with(&pts[..n], &ks[..n], &MsmConfig::for_curve::<bls::G2Config>(n, 1)).map_err(|e| e.to_string())?.to_affine();
                let ret = blst_g2_pippenger(&bpts, &bks, n, &mut blst_g2_scratch(n));
                agree(ours.to_uncompressed().to_vec(), vec![("blst", blst_p2_bytes(&ret))])
            }
        };
        out.push(Case { group: "msm", op: "g2_msm", curve: "bls12_381", size: n, threads: 1, ours, peers: vec![("blst", blst_r)], check: None }.with_check(check));
    }
}

/// BN254 G2 against arkworks (blst has no BN254); sizes 16, 256, 4096.
fn bn_g2(out: &mut Vec<Case>, max_log: u32) {
    let mut rng = StdRng::seed_from_u64(25);
    let sizes: Vec<usize> = sizes(max_log).into_iter().filter(|&n| n == 16 || n == 256 || n == 4096).collect();
    let max = *sizes.last().unwrap_or(&16);
    let pts = sample_points::<bn::G2Config>(&mut rng, max);
    let ks: Vec<zkforge_field::bn254::Fr> = (0..max).map(|_| zkforge_field::bn254::Fr::random(&mut rng)).collect();
    let fq = |x: &zkforge_field::bn254::Fp| ark_bn254::Fq::from_bigint(BigInt(x.to_limbs())).unwrap();
    let apts: Vec<ark_bn254::G2Affine> = pts
        .iter()
        .map(|p| ark_bn254::G2Affine::new_unchecked(ark_bn254::Fq2::new(fq(&p.x().c0), fq(&p.x().c1)), ark_bn254::Fq2::new(fq(&p.y().c0), fq(&p.y().c1))))
        .collect();
    let aks: Vec<ark_bn254::Fr> = ks.iter().map(|k| ark_bn254::Fr::from_bigint(BigInt(k.to_limbs())).unwrap()).collect();
    let (pts, ks, apts, aks) = (std::sync::Arc::new(pts), std::sync::Arc::new(ks), std::sync::Arc::new(apts), std::sync::Arc::new(aks));
    for n in sizes {
        let ours = {
            let (pts, ks) = (pts.clone(), ks.clone());
            let cfg = MsmConfig::for_curve::<bn::G2Config>(n, 1);
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
        let check = {
            let (pts, ks, apts, aks) = (pts.clone(), ks.clone(), apts.clone(), aks.clone());
            move || {
                use ark_ec::CurveGroup;
                let ours = msm_with(&pts[..n], &ks[..n], &MsmConfig::for_curve::<bn::G2Config>(n, 1)).map_err(|e| e.to_string())?.to_affine();
                let flat = |f: zkforge_field::bn254::Fp2| -> Vec<u64> { f.c0.to_limbs().iter().chain(f.c1.to_limbs().iter()).copied().collect() };
                let a = ark_bn254::G2Projective::msm(&apts[..n], &aks[..n]).map_err(|_| "arkworks length".to_string())?;
                agree(Some((flat(ours.x()), flat(ours.y()))), vec![("arkworks", ark_xy(a.into_affine()))])
            }
        };
        out.push(Case { group: "msm", op: "g2_msm", curve: "bn254", size: n, threads: 1, ours, peers: vec![("arkworks", ark)], check: None }.with_check(check));
    }
}

/// Prepared bases (endomorphism images cached once, as for a KZG setup) against the same MSM
/// recomputing them per call, BLS12-381 G1 and G2 at 4096 bases, one thread.
fn prepared(out: &mut Vec<Case>) {
    fn one<C: zkforge_curve::CurveConfig>(out: &mut Vec<Case>, op: &'static str, seed: u64)
    where
        zkforge_field::bls12_381::Fr: zkforge_msm::MsmScalar<C>,
    {
        let n = 4096;
        let mut rng = StdRng::seed_from_u64(seed);
        let pts = std::sync::Arc::new(sample_points::<C>(&mut rng, n));
        let ks: std::sync::Arc<Vec<zkforge_field::bls12_381::Fr>> = std::sync::Arc::new((0..n).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng)).collect());
        let prepared = std::sync::Arc::new(zkforge_msm::PreparedBases::new(&pts));
        let cfg = MsmConfig::for_curve::<C>(n, 1);
        let want = prepared.msm_with(&ks[..], &cfg).expect("lengths");
        let got = msm_with(&pts[..], &ks[..], &cfg).expect("lengths");
        let check = move || if want == got { Ok(()) } else { Err("prepared and unprepared MSMs differ".to_string()) };
        let ours = {
            let (prepared, ks) = (prepared.clone(), ks.clone());
            timed(move || {
                black_box(prepared.msm_with(&ks[..], &cfg).unwrap());
            })
        };
        let plain = {
            let (pts, ks) = (pts.clone(), ks.clone());
            timed(move || {
                black_box(msm_with(&pts[..], &ks[..], &cfg).unwrap());
            })
        };
        out.push(Case { group: "msm", op, curve: "bls12_381", size: n, threads: 1, ours, peers: vec![("zkforge-unprepared", plain)], check: None }.with_check(check));
    }
    one::<bls::G1Config>(out, "g1_msm_prepared_bases", 27);
    one::<bls::G2Config>(out, "g2_msm_prepared_bases", 28);
}

/// Every MSM case, sizes to 2^16 (or `ZKFORGE_MSM_MAX_LOG`).
pub fn cases() -> Vec<Case> {
    cases_to(crate::Scale::default().msm_max_log())
}

/// Every MSM case, sizes to 2^max_log.
pub fn cases_to(max_log: u32) -> Vec<Case> {
    let mut out = Vec::new();
    bls_g1(&mut out, max_log);
    bls_g2(&mut out, max_log);
    bls_g1_fixed(&mut out);
    bn_g1(&mut out, max_log);
    bn_g2(&mut out, max_log);
    inside_rayon(&mut out, max_log);
    prepared(&mut out);
    out
}

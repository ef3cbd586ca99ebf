//! Probe for the small-size MSM defaults per group (issue 17: the EIP-2537 G1MSM/G2MSM rows at
//! k = 8..256 points): `cargo run --release -p zkforge-bench --example small_msm -- g2 128 [ROUNDS [THREADS]]`.
//! Times `MsmConfig::for_curve` (the default), Straus, and the bucket method with XYZZ and
//! batch-affine buckets over a grid of windows, with and without the GLV/GLS split, plus blst's
//! single-threaded Pippenger, interleaved in chunks on this noisy 2-core machine (each round runs
//! every configuration once for ~20 ms; the minimum chunk per configuration is printed). Every
//! configuration's output is checked equal to the default's first.
use std::hint::black_box;
use std::time::Instant;

use blst::*;
use rand::{rngs::StdRng, SeedableRng};
use zkforge_curve::{bls12_381 as bls, sample_points};
use zkforge_field::bls12_381::Fr;
use zkforge_msm::{msm_with, Buckets, MsmConfig, SmallMethod};

fn configs(n: usize, base: MsmConfig) -> Vec<(String, MsmConfig)> {
    let mut out = vec![("default".to_string(), base)];
    for width in 3..=6 {
        out.push((format!("straus w={width}"), MsmConfig { small_threshold: usize::MAX, small_method: SmallMethod::StrausWidth { width }, ..base }));
    }
    for glv in [true, false] {
        let lg = usize::BITS - n.leading_zeros() - 1;
        for c in (lg / 2).max(3)..=(lg + 1).min(13) {
            let bucket = MsmConfig { window: Some(c), glv, small_threshold: 0, ..base };
            out.push((format!("xyzz c={c} glv={}", glv as u8), MsmConfig { buckets: Buckets::Xyzz, ..bucket }));
            for batch in [8usize, 16, 32, 64, 128, 256].into_iter().filter(|&b| b <= 64 || n >= 1024) {
                out.push((format!("ba{batch} c={c} glv={}", glv as u8), MsmConfig { buckets: Buckets::BatchAffine { batch }, ..bucket }));
                out.push((format!("simd{batch} c={c} glv={}", glv as u8), MsmConfig { buckets: Buckets::BatchAffineSimd { batch }, ..bucket }));
            }
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let group = args.get(1).map(String::as_str).unwrap_or("g2");
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(128);
    let rounds: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(15);
    let mut rng = StdRng::seed_from_u64(17);
    let ks: Vec<Fr> = (0..n).map(|_| Fr::random(&mut rng)).collect();
    let kbytes: Vec<u8> = ks.iter().flat_map(|k| k.to_bytes_le()).collect();
    let threads: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    macro_rules! probe {
        ($cfgty:ty, $ptaff:ty, $pt:ty, $from:ident, $to_aff:ident, $ser:ident, $pip:ident, $scratch_sz:ident) => {{
            let pts = sample_points::<$cfgty>(&mut rng, n);
            let cfgs = configs(n, MsmConfig::for_curve::<$cfgty>(n, threads));
            let mut best = vec![f64::INFINITY; cfgs.len() + 1];
            let reference = msm_with(&pts, &ks, &cfgs[0].1).unwrap();
            for (name, cfg) in &cfgs {
                assert_eq!(msm_with(&pts, &ks, cfg).unwrap(), reference, "{name}");
            }
            let bpts: Vec<$ptaff> = pts
                .iter()
                .map(|p| {
                    let mut a = <$ptaff>::default();
                    let bytes = p.to_uncompressed();
                    // SAFETY: a valid uncompressed encoding of a subgroup point.
                    unsafe { $from(&mut a, bytes.as_ptr()) };
                    a
                })
                .collect();
            // SAFETY: a pure size query.
            let mut scratch = vec![0u64; unsafe { $scratch_sz(n) } / 8 + 1];
            let blst_once = |scratch: &mut [u64]| -> $pt {
                let p: [*const $ptaff; 2] = [bpts.as_ptr(), std::ptr::null()];
                let s: [*const u8; 2] = [kbytes.as_ptr(), std::ptr::null()];
                let mut ret = <$pt>::default();
                // SAFETY: n valid points, n 32-byte scalars, scratch of blst's size.
                unsafe { $pip(&mut ret, p.as_ptr(), n, s.as_ptr(), 255, scratch.as_mut_ptr()) };
                ret
            };
            let r = blst_once(&mut scratch);
            let mut ra = <$ptaff>::default();
            let mut out = vec![0u8; core::mem::size_of::<$ptaff>()];
            // SAFETY: valid point and output buffers of the serialised size.
            unsafe {
                $to_aff(&mut ra, &r);
                $ser(out.as_mut_ptr(), &ra);
            }
            assert_eq!(out[..], reference.to_affine().to_uncompressed()[..], "blst");
            for _ in 0..rounds {
                for (i, (_, cfg)) in cfgs.iter().enumerate() {
                    let t = Instant::now();
                    let mut m = 0;
                    while t.elapsed().as_secs_f64() < 0.02 {
                        black_box(msm_with(&pts, &ks, cfg).unwrap());
                        m += 1;
                    }
                    best[i] = best[i].min(t.elapsed().as_secs_f64() / m as f64);
                }
                let t = Instant::now();
                let mut m = 0;
                while t.elapsed().as_secs_f64() < 0.02 {
                    black_box(blst_once(&mut scratch));
                    m += 1;
                }
                let last = cfgs.len();
                best[last] = best[last].min(t.elapsed().as_secs_f64() / m as f64);
            }
            (cfgs, best)
        }};
    }
    let (cfgs, best) = match group {
        "g1" => probe!(bls::G1Config, blst_p1_affine, blst_p1, blst_p1_deserialize, blst_p1_to_affine, blst_p1_affine_serialize, blst_p1s_mult_pippenger, blst_p1s_mult_pippenger_scratch_sizeof),
        _ => probe!(bls::G2Config, blst_p2_affine, blst_p2, blst_p2_deserialize, blst_p2_to_affine, blst_p2_affine_serialize, blst_p2s_mult_pippenger, blst_p2s_mult_pippenger_scratch_sizeof),
    };
    let blst = best[cfgs.len()];
    let mut rows: Vec<(f64, &str)> = cfgs.iter().zip(&best).map(|((n, _), t)| (*t, n.as_str())).collect();
    rows.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
    println!("{group} n={n}: blst pippenger {:.1} us; default {:.1} us ({:.3} of blst)", blst * 1e6, best[0] * 1e6, best[0] / blst);
    for (t, name) in rows.iter().take(12) {
        println!("  {name:<18} {:>9.1} us  {:.3} of blst  {:.3} of default", t * 1e6, t / blst, t / best[0]);
    }
}

//! GPU MSM cases (`zkforge bench gpu`, issue 21): zkforge-gpu (WGSL through wgpu, the bases
//! uploaded once and kept resident on the GPU, `GpuConfig::for_size`) against zkforge-msm on
//! every CPU thread of rayon's global pool (peer `zkforge-msm-cpu-<n>thr`: the GPU's job is to
//! beat the host it sits in), G1 of BLS12-381 and BN254, 2^12 and 2^16 points (and every
//! even power up to `ZKFORGE_MSM_MAX_LOG`). GPUs only: with no GPU adapter the group has no
//! case and says why on stderr; CPU adapters such as Mesa's lavapipe are never timed (they
//! are slower than the CPU MSM and are for the tests). Outputs are compared before timing.
//! The group runs only when asked for (`cargo zkbench gpu`).

use std::hint::black_box;
use std::rc::Rc;

use rand::{rngs::StdRng, SeedableRng};
use zkforge_curve::point::Affine;
use zkforge_curve::{bls12_381 as bls, bn254 as bn, sample_points};
use zkforge_gpu::{GpuConfig, GpuCurve, GpuMsm, GpuOptions};

use crate::{agree, timed, Case};

/// The sizes (log2): 12, 16, then 18, 20, 22 up to `max_log`.
fn logs(max_log: u32) -> Vec<u32> {
    [12u32, 16, 18, 20, 22].into_iter().filter(|&l| l <= max_log.max(16)).collect()
}

fn one_curve<C: GpuCurve>(out: &mut Vec<Case>, curve: &'static str, max_log: u32, seed: u64) {
    let gpu = match GpuMsm::<C>::new(&GpuOptions::default()) {
        Ok(g) => Rc::new(g),
        Err(e) => {
            eprintln!("bench gpu ({curve}): no case: {e}");
            return;
        }
    };
    let threads = rayon::current_num_threads();
    let peer: &'static str = Box::leak(format!("zkforge-msm-cpu-{threads}thr").into_boxed_str());
    let op: &'static str = Box::leak(format!("g1_msm_gpu({})", gpu.adapter_name()).into_boxed_str());
    let mut rng = StdRng::seed_from_u64(seed);
    let max = 1usize << logs(max_log).last().copied().unwrap_or(16);
    let pts: Rc<Vec<Affine<C>>> = Rc::new(sample_points::<C>(&mut rng, max));
    let ks: Rc<Vec<[u64; 4]>> = Rc::new((0..max).map(|_| {
        use rand::RngCore;
        [rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64() >> 2]
    }).collect());
    for lg in logs(max_log) {
        let n = 1usize << lg;
        let bases = match gpu.upload_bases(&pts[..n]) {
            Ok(b) => Rc::new(b),
            Err(e) => {
                eprintln!("bench gpu ({curve}, 2^{lg}): no case: {e}");
                continue;
            }
        };
        let cfg = GpuConfig::for_size(n);
        let check = {
            let (gpu, bases, pts, ks, cfg) = (gpu.clone(), bases.clone(), pts.clone(), ks.clone(), cfg);
            move || {
                let ours = gpu.msm_resident(&bases, &ks[..n], &cfg).map_err(|e| e.to_string())?;
                let cpu = zkforge_msm::msm(&pts[..n], &ks[..n]).map_err(|e| e.to_string())?;
                agree(ours.to_affine(), vec![(peer, cpu.to_affine())])
            }
        };
        let ours = {
            let (gpu, bases, ks, cfg) = (gpu.clone(), bases.clone(), ks.clone(), cfg);
            timed(move || {
                black_box(gpu.msm_resident(&bases, &ks[..n], &cfg).expect("GPU MSM"));
            })
        };
        let cpu = {
            let (pts, ks) = (pts.clone(), ks.clone());
            timed(move || {
                black_box(zkforge_msm::msm(&pts[..n], &ks[..n]).expect("CPU MSM"));
            })
        };
        out.push(Case { group: "gpu", op, curve, size: n, threads, ours, peers: vec![(peer, cpu)], check: None }.with_check(check));
    }
}

/// Every GPU case (none without a GPU adapter), sizes to 2^max_log (at least 2^16).
pub fn cases(max_log: u32) -> Vec<Case> {
    let mut out = Vec::new();
    one_curve::<bls::G1Config>(&mut out, "bls12_381", max_log, 2101);
    one_curve::<bn::G1Config>(&mut out, "bn254", max_log, 2102);
    out
}

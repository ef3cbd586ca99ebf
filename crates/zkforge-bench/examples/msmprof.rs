//! Profiling target: one default BLS12-381 G1 MSM of 2^LOG2N points, repeated; also reports the
//! MSM's extra memory (peak RSS during the runs minus RSS after the inputs were built, using
//! Linux's /proc/self/clear_refs to reset the peak).
use rand::{rngs::StdRng, SeedableRng};
use zkforge_curve::bls12_381 as bls;
use zkforge_msm::{msm_with, MsmConfig};
fn main() {
    let lg: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(16);
    let n = 1usize << lg;
    let mut rng = StdRng::seed_from_u64(5);
    let pts = zkforge_curve::sample_points::<bls::G1Config>(&mut rng, n);
    let ks: Vec<zkforge_field::bls12_381::Fr> = (0..n).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng)).collect();
    let cfg = MsmConfig::for_size(n, 1);
    let status = |key: &str| -> Option<u64> {
        let s = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = s.lines().find(|l| l.starts_with(key))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let before = status("VmRSS:");
    for _ in 0..3 {
        let t = std::time::Instant::now();
        std::hint::black_box(msm_with(&pts, &ks, &cfg).unwrap());
        println!("{:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    }
    if let (Some(b), Some(h)) = (before, status("VmHWM:")) {
        let input = n * (core::mem::size_of::<zkforge_curve::bls12_381::G1Affine>() + 32);
        println!("RSS before {b} kB, peak {h} kB: MSM extra {} kB (input points + scalars {} kB)", h.saturating_sub(b), input / 1024);
    }
}

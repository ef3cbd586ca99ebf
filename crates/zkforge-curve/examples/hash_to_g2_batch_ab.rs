//! `hash_to_g2_batch_vartime` against `hash_to_g2` one message at a time and blst's
//! `blst_hash_to_g2` one at a time (its Jacobian output; ours are affine), per message, for batches of 1-64 messages; interleaved in
//! one process (fastest of 11 chunks, three rounds), every output checked equal to blst's
//! first. `cargo run --release -p zkforge-curve --example hash_to_g2_batch_ab [sizes...]`
//! (add the bench aliases' `+bmi2,+adx` flags for the build the benchmark table uses).
use std::hint::black_box;
use std::time::Instant;
use zkforge_curve::hash_to_curve::{hash_to_g2, hash_to_g2_batch_vartime};

fn best(reps: usize, f: impl Fn()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..11 {
        let s = Instant::now();
        for _ in 0..reps {
            f();
        }
        best = best.min(s.elapsed().as_secs_f64() / reps as f64 * 1e6);
    }
    best
}

fn blst_hash2(msg: &[u8], dst: &[u8]) -> [u8; 96] {
    let mut p = blst::blst_p2::default();
    let mut out = [0u8; 96];
    // SAFETY: blst reads msg and dst within their lengths and writes one point.
    unsafe {
        blst::blst_hash_to_g2(&mut p, msg.as_ptr(), msg.len(), dst.as_ptr(), dst.len(), std::ptr::null(), 0);
        blst::blst_p2_compress(out.as_mut_ptr(), &p);
    }
    out
}

fn blst_hash2_jacobian(msg: &[u8], dst: &[u8]) -> blst::blst_p2 {
    let mut p = blst::blst_p2::default();
    // SAFETY: as in `blst_hash2`.
    unsafe { blst::blst_hash_to_g2(&mut p, msg.as_ptr(), msg.len(), dst.as_ptr(), dst.len(), std::ptr::null(), 0) };
    p
}

fn main() {
    let dst = b"QUUX-V01-CS02-with-BLS12381G2_XMD:SHA-256_SSWU_RO_";
    let sizes: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![1, 2, 3, 4, 6, 8, 16, 64] } else { sizes };
    for &n in &sizes {
        let msgs: Vec<[u8; 32]> = (0..n).map(|i| [(i as u8).wrapping_mul(37) ^ 0x5a; 32]).collect();
        let batch = hash_to_g2_batch_vartime(&msgs, dst).unwrap();
        for (m, p) in msgs.iter().zip(&batch) {
            assert_eq!(p.to_compressed(), blst_hash2(m, dst), "batch differs from blst");
        }
        let reps = (64 / n).max(1);
        for round in 0..3 {
            let one = best(reps, || {
                for m in &msgs {
                    black_box(hash_to_g2(black_box(m), dst).unwrap());
                }
            }) / n as f64;
            let bat = best(reps, || {
                black_box(hash_to_g2_batch_vartime(black_box(&msgs), dst).unwrap());
            }) / n as f64;
            let bl = best(reps, || {
                for m in &msgs {
                    black_box(blst_hash2_jacobian(black_box(m), dst));
                }
            }) / n as f64;
            println!("n={n:3} round {round}: one by one {one:7.2} us  batch {bat:7.2} us  blst {bl:7.2} us  batch/one {:.3}  batch/blst {:.3}", bat / one, bat / bl);
        }
    }
}

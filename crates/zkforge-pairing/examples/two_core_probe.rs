//! Does this machine run two IFMA-heavy Miller loops at once at full speed? One 8-pair loop on
//! one thread, then two independent 8-pair loops on two scoped threads (no pool), min of 9.
//! `cargo run --release -p zkforge-pairing --example two_core_probe`
use std::time::Instant;
use zkforge_curve::bls12_381 as bls;
use zkforge_pairing::bls12_381 as pb;

fn main() {
    let g1 = bls::G1Projective::generator();
    let g2 = bls::G2Projective::generator().to_affine();
    let pairs: Vec<(bls::G1Affine, bls::G2Affine)> = (1..=8u64).map(|k| ((g1 * bls::Scalar::from_u64(k)).to_affine(), g2)).collect();
    let reps = 50;
    let one = || {
        for _ in 0..reps {
            std::hint::black_box(pb::multi_miller_loop(std::hint::black_box(&pairs)));
        }
    };
    let (mut t1, mut t2) = (f64::MAX, f64::MAX);
    for _ in 0..9 {
        let s = Instant::now();
        one();
        t1 = t1.min(s.elapsed().as_secs_f64() / reps as f64 * 1e6);
        let s = Instant::now();
        std::thread::scope(|sc| {
            sc.spawn(one);
            sc.spawn(one);
        });
        t2 = t2.min(s.elapsed().as_secs_f64() / reps as f64 * 1e6);
    }
    println!("one loop alone: {t1:.1} us; two at once: {t2:.1} us per pair of loops ({:.2}x of one)", t2 / t1);
    // the 16-pair check on one thread and on a 2-thread rayon pool
    let pairs16: Vec<(bls::G1Affine, bls::G2Affine)> = (1..=16u64).map(|k| ((g1 * bls::Scalar::from_u64(k)).to_affine(), g2)).collect();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let (mut s1, mut s2, mut m1, mut m2) = (f64::MAX, f64::MAX, f64::MAX, f64::MAX);
    for _ in 0..9 {
        let s = Instant::now();
        for _ in 0..reps {
            std::hint::black_box(pb::pairing_check(std::hint::black_box(&pairs16)));
        }
        s1 = s1.min(s.elapsed().as_secs_f64() / reps as f64 * 1e6);
        let s = Instant::now();
        for _ in 0..reps {
            std::hint::black_box(pool.install(|| pb::pairing_check_parallel(std::hint::black_box(&pairs16))));
        }
        s2 = s2.min(s.elapsed().as_secs_f64() / reps as f64 * 1e6);
        let s = Instant::now();
        for _ in 0..reps {
            std::hint::black_box(pb::multi_miller_loop(std::hint::black_box(&pairs16)));
        }
        m1 = m1.min(s.elapsed().as_secs_f64() / reps as f64 * 1e6);
        let s = Instant::now();
        for _ in 0..reps {
            std::hint::black_box(pool.install(|| pb::multi_miller_loop_parallel(std::hint::black_box(&pairs16))));
        }
        m2 = m2.min(s.elapsed().as_secs_f64() / reps as f64 * 1e6);
    }
    println!("16-pair check: one thread {s1:.1} us, two {s2:.1} us ({:.2}x); loop only: {m1:.1} / {m2:.1} us ({:.2}x)", s2 / s1, m2 / m1);
}

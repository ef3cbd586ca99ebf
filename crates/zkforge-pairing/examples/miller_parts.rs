//! Where a BLS12-381 Miller loop spends its time, beside blst's parts, in one process:
//! Fp and Fp2 products and squares, the Fp12 square and product, the line product
//! (`mul_by_014` against `blst_fp12_mul_by_xy00z0`), the doubling step, and the whole loop,
//! live and with prepared lines (`blst_miller_loop_lines`). Rounds alternate ours and blst's;
//! each figure is the fastest of 15 chunks. A probe for locating a gap, not a benchmark row
//! (those are `cargo zkbench pairing field`).
//! `cargo run --release -p zkforge-pairing --example miller_parts`.
use std::hint::black_box;
use std::time::Instant;

use blst::*;
use zkforge_curve::bls12_381 as bls;
use zkforge_field::bls12_381::{Fp, Fp12, Fp2};
use zkforge_pairing::bls12_381 as pb;
use zkforge_pairing::line::{doubling_step, G2Homogeneous, ThreeB};

fn best(reps: usize, mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..15 {
        let s = Instant::now();
        for _ in 0..reps {
            f();
        }
        best = best.min(s.elapsed().as_secs_f64() / reps as f64 * 1e9);
    }
    best
}

fn main() {
    let mut rng = rand::thread_rng();
    let (a, b) = (Fp::random(&mut rng), Fp::random(&mut rng));
    let (a2, b2) = (Fp2::random(&mut rng), Fp2::random(&mut rng));
    let (f, g) = (Fp12::random(&mut rng), Fp12::random(&mut rng));
    let (l0, l1, l4) = (Fp2::random(&mut rng), Fp2::random(&mut rng), Fp2::random(&mut rng));
    let q = bls::G2Affine::generator();
    let p = bls::G1Affine::generator();
    let prepared = pb::G2Prepared::from(&q);
    let three_b = ThreeB::OnePlusUTimes(12);

    // blst values: the generators and a Miller-loop output
    let (bq, bp) = unsafe { (*blst_p2_affine_generator(), *blst_p1_affine_generator()) };
    let mut bf = blst_fp12::default();
    unsafe { blst_miller_loop(&mut bf, &bq, &bp) };
    let bg = bf;
    let (ba, bb) = (bq.x.fp[0], bq.y.fp[1]);
    let (ba2, bb2) = (bq.x, bq.y);
    let line = blst_fp6 { fp2: [bq.x, bq.y, bq.x] };
    let mut lines = vec![blst_fp6::default(); 68];
    unsafe { blst_precompute_lines(lines.as_mut_ptr(), &bq) };

    for round in 0..3 {
        println!("round {round}: ours ns / blst ns = ratio");
        let row = |name: &str, ours: f64, theirs: f64| println!("  {name:24} {ours:10.1} {theirs:10.1}  {:.2}", ours / theirs);
        row("fp_mul", best(20000, || { black_box(black_box(a) * black_box(b)); }), best(20000, || unsafe {
            let mut r = blst_fp::default();
            blst_fp_mul(&mut r, black_box(&ba), black_box(&bb));
            black_box(r);
        }));
        row("fp2_mul", best(20000, || { black_box(black_box(a2) * black_box(b2)); }), best(20000, || unsafe {
            let mut r = blst_fp2::default();
            blst_fp2_mul(&mut r, black_box(&ba2), black_box(&bb2));
            black_box(r);
        }));
        row("fp2_mul karatsuba-wide", best(20000, || {
            let mut w = zkforge_field::tower::lazy::Fp2Wide::ZERO;
            zkforge_field::tower::lazy::Fp2Wide::mul_to(&mut w, black_box(&a2), black_box(&b2));
            black_box(w.reduce());
        }), best(20000, || unsafe {
            let mut r = blst_fp2::default();
            blst_fp2_mul(&mut r, black_box(&ba2), black_box(&bb2));
            black_box(r);
        }));
        row("fp2_square", best(20000, || { black_box(black_box(a2).square()); }), best(20000, || unsafe {
            let mut r = blst_fp2::default();
            blst_fp2_sqr(&mut r, black_box(&ba2));
            black_box(r);
        }));
        row("fp12_square", best(2000, || { black_box(black_box(f).square()); }), best(2000, || unsafe {
            let mut r = blst_fp12::default();
            blst_fp12_sqr(&mut r, black_box(&bf));
            black_box(r);
        }));
        row("fp12_mul", best(2000, || { black_box(black_box(f) * black_box(g)); }), best(2000, || unsafe {
            let mut r = blst_fp12::default();
            blst_fp12_mul(&mut r, black_box(&bf), black_box(&bg));
            black_box(r);
        }));
        row("line_product (014)", best(2000, || { black_box(zkforge_pairing::sparse::mul_by_014(black_box(&f), &l0, &l1, &l4)); }), best(2000, || unsafe {
            let mut r = blst_fp12::default();
            blst_fp12_mul_by_xy00z0(&mut r, black_box(&bf), black_box(&line));
            black_box(r);
        }));
        let mut t = G2Homogeneous { x: Fp2::from(q.x()), y: Fp2::from(q.y()), z: Fp2::ONE };
        let dbl = best(2000, || { black_box(doubling_step(black_box(&mut t), &three_b)); });
        row("doubling_step (no peer)", dbl, f64::NAN);
        row("miller_loop", best(20, || { black_box(pb::multi_miller_loop(black_box(&[(p, q)]))); }), best(20, || unsafe {
            let mut r = blst_fp12::default();
            blst_miller_loop(&mut r, black_box(&bq), black_box(&bp));
            black_box(r);
        }));
        row("miller_loop_prepared", best(20, || { black_box(pb::multi_miller_loop_prepared(black_box(&[(p, &prepared)]))); }), best(20, || unsafe {
            let mut r = blst_fp12::default();
            blst_miller_loop_lines(&mut r, black_box(lines.as_ptr()), black_box(&bp));
            black_box(r);
        }));
    }
}

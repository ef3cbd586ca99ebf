//! Prepared G2 lines raw or divided by their constant coefficients
//! (`config::set_prepared_lines`), measured in one process: the prepared Miller loop of one
//! pair and a two-pair prepared pairing check (KZG verification's shape) on both curves, with
//! the scalar accumulator (CPUs without AVX-512 IFMA) and the default one (IFMA lanes where
//! the CPU has them, which take the general line product either way). Fastest of 25
//! alternating chunks per form; both forms' final exponentiations are checked equal first.
//! `cargo run --release -p zkforge-pairing --example prepared_lines`.
use std::hint::black_box;
use std::time::Instant;

use zkforge_curve::{bls12_381 as bls, bn254 as bn};
use zkforge_pairing::config::{self, MillerAccumulator, PreparedLines};
use zkforge_pairing::{bls12_381 as pb, bn254 as pn};

fn time(reps: u32, mut f: impl FnMut()) -> f64 {
    let s = Instant::now();
    for _ in 0..reps {
        f();
    }
    s.elapsed().as_nanos() as f64 / reps as f64 / 1000.0
}

fn main() {
    let mut rng = rand::thread_rng();
    let bp = [(bls::G1Projective::generator() * zkforge_field::bls12_381::Fr::random(&mut rng)).to_affine(), bls::G1Affine::generator()];
    let bq = [(bls::G2Projective::generator() * zkforge_field::bls12_381::Fr::random(&mut rng)).to_affine(), bls::G2Affine::generator()];
    let np = [(bn::G1Projective::generator() * zkforge_field::bn254::Fr::random(&mut rng)).to_affine(), bn::G1Affine::generator()];
    let nq = [(bn::G2Projective::generator() * zkforge_field::bn254::Fr::random(&mut rng)).to_affine(), bn::G2Affine::generator()];
    let forms = [PreparedLines::Raw, PreparedLines::Normalized];
    let prep = |f: PreparedLines| {
        config::set_prepared_lines(f);
        let b: Vec<pb::G2Prepared> = bq.iter().map(pb::G2Prepared::new).collect();
        let n: Vec<pn::G2Prepared> = nq.iter().map(pn::G2Prepared::new).collect();
        (b, n)
    };
    let preps: Vec<_> = forms.iter().map(|f| prep(*f)).collect();
    config::set_prepared_lines(PreparedLines::Auto);
    let fe = |(b, n): &(Vec<pb::G2Prepared>, Vec<pn::G2Prepared>)| {
        (pb::final_exponentiation(&pb::multi_miller_loop_prepared(&[(bp[0], &b[0]), (bp[1], &b[1])])), pn::final_exponentiation(&pn::multi_miller_loop_prepared(&[(np[0], &n[0]), (np[1], &n[1])])))
    };
    assert_eq!(fe(&preps[0]), fe(&preps[1]));
    let names = ["bls ml prepared, scalar", "bls check 2, scalar", "bn ml prepared, scalar", "bn check 2, scalar", "bls ml prepared, default", "bls check 2, default", "bn ml prepared, default", "bn check 2, default"];
    let mut best = [[f64::MAX; 8]; 2];
    for _ in 0..25 {
        for (k, (b, n)) in preps.iter().enumerate() {
            for (col, acc) in [(0, MillerAccumulator::Scalar), (4, MillerAccumulator::Auto)] {
                config::set_miller_accumulator(acc);
                best[k][col] = best[k][col].min(time(10, || { black_box(pb::multi_miller_loop_prepared(black_box(&[(bp[0], &b[0])]))); }));
                best[k][col + 1] = best[k][col + 1].min(time(5, || { black_box(pb::pairing_check_prepared(black_box(&[(bp[0], &b[0]), (bp[1], &b[1])]))); }));
                best[k][col + 2] = best[k][col + 2].min(time(10, || { black_box(pn::multi_miller_loop_prepared(black_box(&[(np[0], &n[0])]))); }));
                best[k][col + 3] = best[k][col + 3].min(time(5, || { black_box(pn::pairing_check_prepared(black_box(&[(np[0], &n[0]), (np[1], &n[1])]))); }));
            }
            config::set_miller_accumulator(MillerAccumulator::Auto);
        }
    }
    println!("{:26} {:>10} {:>10}   normalized / raw (us)", "", "raw", "normalized");
    for (i, n) in names.iter().enumerate() {
        println!("{n:26} {:10.1} {:10.1}  {:.3}", best[0][i], best[1][i], best[1][i] / best[0][i]);
    }
}

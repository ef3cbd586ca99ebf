//! The two-thread pairing check (`pairing_check_parallel`) under each
//! `config::ParallelSplit` (whole lane groups of eight, near-equal parts) against one thread,
//! both curves, 2 to 17 pairs, alternated in one process (each figure the fastest of three
//! rounds of five chunks). Written for AMD Zen 4, whose lane loops cost more with more pairs,
//! so that eight pairs kept on one thread lost to two scalar halves.
//! `cargo run --release -p zkforge-pairing --example parallel_split`.
use std::hint::black_box;

use zkforge_curve::{bls12_381 as bls, bn254 as bn};
use zkforge_pairing::config::{set_parallel_split, ParallelSplit};
use zkforge_pairing::{bls12_381 as pb, bn254 as pn};

fn best(f: &dyn Fn() -> bool) -> f64 {
    let mut b = f64::MAX;
    for _ in 0..5 {
        let t = std::time::Instant::now();
        for _ in 0..6 {
            assert!(black_box(f()));
        }
        b = b.min(t.elapsed().as_secs_f64() / 6.0 * 1e6);
    }
    b
}

fn main() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("pool");
    let (g1, g2) = (bls::G1Affine::generator(), bls::G2Affine::generator());
    let (h1, h2) = (bn::G1Affine::generator(), bn::G2Affine::generator());
    println!("two-thread check / one thread, us: lane groups, even");
    for n in [2usize, 4, 5, 6, 8, 9, 10, 12, 16, 17] {
        // pairs that cancel: (P, Q), (-P, Q), ...; an odd count starts with (2P, Q) and ends
        // with (-P, Q)
        let coeff = |i: usize| -> i64 {
            match i {
                0 if n % 2 == 1 => 2,
                _ if n % 2 == 1 && i + 1 == n => -1,
                _ if i.is_multiple_of(2) => 1,
                _ => -1,
            }
        };
        let bp: Vec<_> = (0..n)
            .map(|i| {
                let p = (g1.to_jacobian() * bls::Scalar::from_u64(coeff(i).unsigned_abs())).to_affine();
                (if coeff(i) < 0 { -p } else { p }, g2)
            })
            .collect();
        let np: Vec<_> = (0..n)
            .map(|i| {
                let p = (h1.to_jacobian() * bn::Scalar::from_u64(coeff(i).unsigned_abs())).to_affine();
                (if coeff(i) < 0 { -p } else { p }, h2)
            })
            .collect();
        let run = |split: Option<ParallelSplit>, bls_curve: bool| -> f64 {
            match split {
                None if bls_curve => best(&|| pb::pairing_check(&bp)),
                None => best(&|| pn::pairing_check(&np)),
                Some(s) => {
                    set_parallel_split(s);
                    if bls_curve {
                        best(&|| pool.install(|| pb::pairing_check_parallel(&bp)))
                    } else {
                        best(&|| pool.install(|| pn::pairing_check_parallel(&np)))
                    }
                }
            }
        };
        let forms = [None, Some(ParallelSplit::LaneGroups), Some(ParallelSplit::Even)];
        let mut m = [[f64::MAX; 3]; 2];
        for _ in 0..3 {
            for (c, bls_curve) in [true, false].into_iter().enumerate() {
                for (i, &s) in forms.iter().enumerate() {
                    m[c][i] = m[c][i].min(run(s, bls_curve));
                }
            }
        }
        set_parallel_split(ParallelSplit::Auto);
        println!(
            "n = {n:2}  bls12_381 {:5.0} {:5.0} {:5.0} (even / groups {:.2})  bn254 {:5.0} {:5.0} {:5.0} (even / groups {:.2})",
            m[0][0],
            m[0][1],
            m[0][2],
            m[0][2] / m[0][1],
            m[1][0],
            m[1][1],
            m[1][2],
            m[1][2] / m[1][1]
        );
    }
}

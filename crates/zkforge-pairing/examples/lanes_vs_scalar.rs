//! Whether the IFMA lanes pay on this CPU: the Miller loop (1, 2, 4 and 8 pairs) and the final
//! exponentiation of both curves with `MillerAccumulator` and `HardPart` set to `Scalar` and to
//! `Ifma` (and, for the Miller loop, the lanes with the G2 steps kept scalar), alternated in one process (five rounds; each figure the fastest of 15 chunks), so the
//! rows compare on the same machine state. Written for AMD Zen 4, whose AVX-512 units are
//! 256 bits wide (a 512-bit IFMA instruction issues as two halves), where the lane defaults
//! measured on Zen 5 and Intel Xeon had never been checked.
//! `cargo run --release -p zkforge-pairing --example lanes_vs_scalar`.
use std::hint::black_box;
use std::time::Instant;

use zkforge_curve::{bls12_381 as bls, bn254 as bn};
use zkforge_pairing::config::{self, HardPart, MillerAccumulator};
use zkforge_pairing::{bls12_381 as pb, bn254 as pn};

fn best(reps: usize, f: impl Fn()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..15 {
        let s = Instant::now();
        for _ in 0..reps {
            f();
        }
        best = best.min(s.elapsed().as_secs_f64() / reps as f64 * 1e6);
    }
    best
}

fn set(lanes: bool) {
    set_mode(if lanes { 1 } else { 0 });
}

/// 0: scalar tower; 1: lanes (the defaults, lane G2 steps from this CPU's
/// `lane_steps_min_pairs`); 2: lanes for the accumulator and the hard part, the G2 steps in the
/// scalar tower at every pair count (`set_lane_steps_min_pairs(usize::MAX)`); 3: lane G2 steps
/// at every pair count (`set_lane_steps_min_pairs(1)`).
fn set_mode(mode: usize) {
    if mode == 0 {
        config::set_miller_accumulator(MillerAccumulator::Scalar);
        config::set_hard_part(HardPart::Scalar);
    } else {
        config::set_miller_accumulator(MillerAccumulator::Ifma);
        config::set_hard_part(HardPart::Ifma);
    }
    config::set_lane_steps_min_pairs(match mode {
        2 => usize::MAX,
        3 => 1,
        _ => 0,
    });
}

fn main() {
    let mut bls_pairs = Vec::new();
    let mut bn_pairs = Vec::new();
    for i in 1..=8u64 {
        let s = bls::Scalar::from_u64(1000 + 7 * i);
        bls_pairs.push(((bls::G1Projective::generator() * s).to_affine(), (bls::G2Projective::generator() * s).to_affine()));
        let t = bn::Scalar::from_u64(1000 + 7 * i);
        bn_pairs.push(((bn::G1Projective::generator() * t).to_affine(), (bn::G2Projective::generator() * t).to_affine()));
    }
    let f_bls = pb::multi_miller_loop(&bls_pairs[..1]);
    let f_bn = pn::multi_miller_loop(&bn_pairs[..1]);
    // every setting must give the same values before anything is timed
    for n in [1, 2, 4, 8] {
        set(false);
        let (a, b) = (pb::multi_miller_loop(&bls_pairs[..n]), pn::multi_miller_loop(&bn_pairs[..n]));
        set(true);
        assert_eq!(a, pb::multi_miller_loop(&bls_pairs[..n]));
        assert_eq!(b, pn::multi_miller_loop(&bn_pairs[..n]));
    }
    set(false);
    let (a, b) = (pb::final_exponentiation(&f_bls), pn::final_exponentiation(&f_bn));
    set(true);
    assert_eq!(a, pb::final_exponentiation(&f_bls));
    assert_eq!(b, pn::final_exponentiation(&f_bn));
    println!("fastest of 15 chunks, us; five rounds alternating the settings; half-width AVX-512: {}; lane steps from {} pairs by default", zkforge_field::backend::avx512_half_width(), { config::set_lane_steps_min_pairs(0); config::lane_steps_min_pairs() });
    let mut rows: Vec<(String, [Vec<f64>; 4])> = Vec::new();
    for round in 0..5 {
        let mut k = 0;
        for n in [1usize, 2, 4, 5, 6, 8] {
            let reps = 40 / n;
            for (curve, is_bls) in [("bls12_381", true), ("bn254", false)] {
                let name = format!("{curve} miller_loop n={n}");
                if round == 0 {
                    rows.push((name, [Vec::new(), Vec::new(), Vec::new(), Vec::new()]));
                }
                for mode in 0..4 {
                    set_mode(mode);
                    let t = if is_bls {
                        best(reps, || {
                            black_box(pb::multi_miller_loop(black_box(&bls_pairs[..n])));
                        })
                    } else {
                        best(reps, || {
                            black_box(pn::multi_miller_loop(black_box(&bn_pairs[..n])));
                        })
                    };
                    rows[k].1[mode].push(t);
                }
                k += 1;
            }
        }
        for (curve, is_bls) in [("bls12_381", true), ("bn254", false)] {
            let name = format!("{curve} final_exponentiation");
            if round == 0 {
                rows.push((name, [Vec::new(), Vec::new(), Vec::new(), Vec::new()]));
            }
            for lanes in [false, true] {
                set(lanes);
                let t = if is_bls {
                    best(20, || {
                        black_box(pb::final_exponentiation(black_box(&f_bls)));
                    })
                } else {
                    best(20, || {
                        black_box(pn::final_exponentiation(black_box(&f_bn)));
                    })
                };
                rows[k].1[lanes as usize].push(t);
            }
            k += 1;
        }
    }
    println!("| row | scalar (us) | lanes, default (us) | lanes / scalar, per round | lanes, scalar G2 steps (us) | lanes, lane G2 steps (us) |");
    println!("|---|---:|---:|---|---:|---:|");
    for (name, [s, l, m, a]) in &rows {
        let med = |v: &Vec<f64>| {
            let mut v = v.clone();
            v.sort_by(|a, b| a.partial_cmp(b).unwrap());
            v[v.len() / 2]
        };
        let ratios: Vec<String> = s.iter().zip(l).map(|(a, b)| format!("{:.2}", b / a)).collect();
        let opt = |v: &Vec<f64>| if v.is_empty() { "-".to_string() } else { format!("{:.1}", med(v)) };
        println!("| {name} | {:.1} | {:.1} | {} | {} | {} |", med(s), med(l), ratios.join(" "), opt(m), opt(a));
    }
}

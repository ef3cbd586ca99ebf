//! Pairing cases: BLS12-381 against blst (`blst_miller_loop_n` + `blst_final_exp`, and its
//! precomputed-lines Miller loop) and arkworks; BN254 against arkworks. Pairing checks with
//! 1, 2, 4 and 8 pairs (fresh random points, one final exponentiation), the Miller loop of one
//! pair (live and prepared) and the final exponentiation alone; and the 8-pair check on two
//! threads against our own one-thread run. gnark-crypto (Go,
//! GOMAXPROCS=1; [`crate::gnark`]) joins the BN254 rows when Go is present, checked on the
//! same pairing values (it computes the same power of the Miller loop output as ours: checked
//! on every row).
//!
//! Every row first checks agreement on the pairing value itself (Miller-loop outputs differ
//! between libraries by factors the final exponentiation removes): for pairing checks the
//! product of the n pairings, for the Miller-loop rows the final exponentiation of each side's
//! own Miller-loop output (live or from prepared lines), for the final-exponentiation row each
//! side's exponentiation of its own Miller-loop output.

use std::hint::black_box;
use std::sync::Arc;

use ark_ec::pairing::Pairing;
use ark_ff::{BigInt, PrimeField as ArkPrimeField};
use blst::*;
use rand::{rngs::StdRng, SeedableRng};
use zkforge_curve::{bls12_381 as bls, bn254 as bn, sample_points};
use zkforge_pairing::{bls12_381 as pb, bn254 as pn};

use crate::curve::{ark_g1, ark_g2, blst_g1, blst_g2};
use crate::canon::Canon;
use crate::{agree, timed, Case, Runner};

fn case(op: &'static str, curve: &'static str, size: usize, ours: Runner, peers: Vec<(&'static str, Runner)>) -> Case {
    Case { group: "pairing", op, curve, size, threads: 1, ours, peers, check: None }
}


fn ark_bn_g1(p: &bn::G1Affine) -> ark_bn254::G1Affine {
    let f = |x: &zkforge_field::bn254::Fp| ark_bn254::Fq::from_bigint(BigInt(x.to_limbs())).unwrap();
    ark_bn254::G1Affine::new_unchecked(f(&p.x()), f(&p.y()))
}
fn ark_bn_g2(p: &bn::G2Affine) -> ark_bn254::G2Affine {
    let f = |x: &zkforge_field::bn254::Fp| ark_bn254::Fq::from_bigint(BigInt(x.to_limbs())).unwrap();
    let f2 = |x: &zkforge_field::bn254::Fp2| ark_bn254::Fq2::new(f(&x.c0), f(&x.c1));
    ark_bn254::G2Affine::new_unchecked(f2(&p.x()), f2(&p.y()))
}

/// The pairs as gnark's input file: per pair x, y of G1 then x.c0, x.c1, y.c0, y.c1 of G2, each
/// 32 bytes big-endian.
fn gnark_bn_pairs(pairs: &[(bn::G1Affine, bn::G2Affine)]) -> Vec<u8> {
    let mut v = Vec::with_capacity(192 * pairs.len());
    for (p, q) in pairs {
        for f in [p.x(), p.y(), q.x().c0, q.x().c1, q.y().c0, q.y().c1] {
            v.extend_from_slice(f.to_bytes_be().as_ref());
        }
    }
    v
}

/// gnark-crypto's run of `kind` on `pairs` (when the Go peer is available): its runner and a
/// check that its output, a GT value as 12 big-endian coefficients in structural order, is
/// `want` (our value, canonical).
fn gnark_pairing(kind: &str, pairs: &[(bn::G1Affine, bn::G2Affine)], want: Vec<u64>) -> Option<(Runner, crate::Check)> {
    let (runner, out) = crate::gnark::load(kind, &gnark_bn_pairs(pairs)).ok()?;
    let got = crate::gnark::be_to_limbs(&out, 32);
    Some((runner, Box::new(move || agree(want, vec![("gnark-crypto", got)]))))
}

fn bls_cases(out: &mut Vec<Case>) {
    let mut rng = StdRng::seed_from_u64(31);
    let g1 = Arc::new(sample_points::<bls::G1Config>(&mut rng, 8));
    let g2 = Arc::new(sample_points::<bls::G2Config>(&mut rng, 8));
    let b1: Arc<Vec<blst_p1_affine>> = Arc::new(g1.iter().map(blst_g1).collect());
    let b2: Arc<Vec<blst_p2_affine>> = Arc::new(g2.iter().map(blst_g2).collect());
    let a1: Arc<Vec<ark_bls12_381::G1Affine>> = Arc::new(g1.iter().map(ark_g1).collect());
    let a2: Arc<Vec<ark_bls12_381::G2Affine>> = Arc::new(g2.iter().map(ark_g2).collect());
    for n in [1usize, 2, 4, 8] {
        let pairs: Vec<(bls::G1Affine, bls::G2Affine)> = (0..n).map(|i| (g1[i], g2[i])).collect();
        let ours = timed(move || {
            black_box(pb::pairing_check(black_box(&pairs)));
        });
        let (b1c, b2c) = (b1.clone(), b2.clone());
        let blst_r = timed(move || {
            let ps: Vec<*const blst_p1_affine> = b1c[..n].iter().map(|p| p as *const _).collect();
            let qs: Vec<*const blst_p2_affine> = b2c[..n].iter().map(|q| q as *const _).collect();
            let mut ml = blst_fp12::default();
            let mut gt = blst_fp12::default();
            unsafe {
                blst_miller_loop_n(&mut ml, qs.as_ptr(), ps.as_ptr(), n);
                blst_final_exp(&mut gt, &ml);
                black_box(blst_fp12_is_one(&gt));
            }
        });
        let (a1c, a2c) = (a1.clone(), a2.clone());
        let ark = timed(move || {
            let r = ark_bls12_381::Bls12_381::multi_pairing(a1c[..n].iter().copied(), a2c[..n].iter().copied());
            black_box(r.0 == <ark_bls12_381::Fq12 as ark_ff::One>::one());
        });
        let check = {
            let (g1, g2, b1, b2, a1, a2) = (g1.clone(), g2.clone(), b1.clone(), b2.clone(), a1.clone(), a2.clone());
            move || {
                let pairs: Vec<(bls::G1Affine, bls::G2Affine)> = (0..n).map(|i| (g1[i], g2[i])).collect();
                let ours = pb::final_exponentiation(&pb::multi_miller_loop(&pairs)).ok_or("zero Miller loop")?.as_fp12().canon();
                agree(ours, vec![("blst", blst_pairing(&b1[..n], &b2[..n])), ("arkworks", ark_bls12_381::Bls12_381::multi_pairing(a1[..n].iter().copied(), a2[..n].iter().copied()).0.canon())])
            }
        };
        out.push(case("pairing_check", "bls12_381", n, ours, vec![("blst", blst_r), ("arkworks", ark)]).with_check(check));
    }
    // Miller loop, one pair
    let (p, q) = (g1[0], g2[0]);
    let (bp, bq) = (b1[0], b2[0]);
    let (ap, aq) = (a1[0], a2[0]);
    let want = pb::pairing(&p, &q).as_fp12().canon();
    let blst_fe = |ml: &blst_fp12| -> Vec<u64> {
        let mut gt = blst_fp12::default();
        // SAFETY: valid input and output.
        unsafe { blst_final_exp(&mut gt, ml) };
        gt.canon()
    };
    let ark_ml_fe = |ml: ark_ec::pairing::MillerLoopOutput<ark_bls12_381::Bls12_381>| -> Vec<u64> {
        ark_bls12_381::Bls12_381::final_exponentiation(ml).map(|g| g.0.canon()).unwrap_or_default()
    };
    let mut bml = blst_fp12::default();
    // SAFETY: valid points.
    unsafe { blst_miller_loop(&mut bml, &bq, &bp) };
    let live_check = {
        let (want, got_b, got_a) = (want.clone(), blst_fe(&bml), ark_ml_fe(ark_bls12_381::Bls12_381::multi_miller_loop([ap], [aq])));
        move || agree(want, vec![("blst", got_b), ("arkworks", got_a)])
    };
    out.push(case(
        "miller_loop",
        "bls12_381",
        1,
        timed(move || {
            black_box(pb::multi_miller_loop(black_box(&[(p, q)])));
        }),
        vec![
            ("blst", timed(move || {
                let mut ml = blst_fp12::default();
                unsafe { blst_miller_loop(&mut ml, &bq, &bp) };
                black_box(ml);
            })),
            ("arkworks", timed(move || {
                let _ = black_box(ark_bls12_381::Bls12_381::multi_miller_loop([ap], [aq]));
            })),
        ],
    ).with_check(live_check));
    // Miller loop from prepared lines
    let prep = pb::G2Prepared::new(&q);
    let mut lines = vec![blst_fp6::default(); 68];
    unsafe { blst_precompute_lines(lines.as_mut_ptr(), &bq) };
    let aprep = <ark_bls12_381::Bls12_381 as Pairing>::G2Prepared::from(aq);
    let prepared_check = {
        let ours = pb::final_exponentiation(&pb::multi_miller_loop_prepared(&[(p, &prep)])).map(|g| g.as_fp12().canon()).unwrap_or_default();
        let mut ml = blst_fp12::default();
        // SAFETY: 68 precomputed lines of a valid point, a valid G1 point.
        unsafe { blst_miller_loop_lines(&mut ml, lines.as_ptr(), &bp) };
        let (got_b, got_a) = (blst_fe(&ml), ark_ml_fe(ark_bls12_381::Bls12_381::multi_miller_loop([ap], [aprep.clone()])));
        let want = want.clone();
        move || agree(want, vec![("zkforge-prepared", ours), ("blst", got_b), ("arkworks", got_a)])
    };
    out.push(case(
        "miller_loop_prepared",
        "bls12_381",
        1,
        timed(move || {
            black_box(pb::multi_miller_loop_prepared(black_box(&[(p, &prep)])));
        }),
        vec![
            ("blst", timed(move || {
                let mut ml = blst_fp12::default();
                unsafe { blst_miller_loop_lines(&mut ml, lines.as_ptr(), &bp) };
                black_box(ml);
            })),
            ("arkworks", timed(move || {
                let _ = black_box(ark_bls12_381::Bls12_381::multi_miller_loop([ap], [aprep.clone()]));
            })),
        ],
    ).with_check(prepared_check));
    // final exponentiation of a Miller-loop output
    let f = pb::multi_miller_loop(&[(p, q)]);
    let aml = ark_bls12_381::Bls12_381::multi_miller_loop([ap], [aq]);
    let fe_check = {
        let ours = pb::final_exponentiation(&f).map(|g| g.as_fp12().canon()).unwrap_or_default();
        let (got_b, got_a) = (blst_fe(&bml), ark_ml_fe(aml));
        move || agree(want, vec![("zkforge", ours), ("blst", got_b), ("arkworks", got_a)])
    };
    out.push(case(
        "final_exponentiation",
        "bls12_381",
        1,
        timed(move || {
            black_box(pb::final_exponentiation(black_box(&f)));
        }),
        vec![
            ("blst", timed(move || {
                let mut gt = blst_fp12::default();
                unsafe { blst_final_exp(&mut gt, &bml) };
                black_box(gt);
            })),
            ("arkworks", timed(move || {
                black_box(ark_bls12_381::Bls12_381::final_exponentiation(aml));
            })),
        ],
    ).with_check(fe_check));
    // Gt membership of a decoded value: ours (cyclotomic check, then f^p = f^x) against
    // blst_fp12_in_group; both accept a member and reject a cyclotomic non-member before timing
    let member = pb::final_exponentiation(&f).map(|g| *g.as_fp12()).unwrap_or(zkforge_field::bls12_381::Fp12::ONE);
    let outside = {
        let t = f.conjugate() * f.invert().unwrap();
        t.frobenius_map(2) * t // cyclotomic, not of order r
    };
    let (bm, bo) = (crate::field::blst_fp12(&member), crate::field::blst_fp12(&outside));
    let membership_check = move || {
        let ours = vec![pb::Gt::from_fp12(member).is_ok(), pb::Gt::from_fp12(outside).is_ok()];
        // SAFETY: valid blst_fp12 values.
        let theirs = unsafe { vec![blst_fp12_in_group(&bm), blst_fp12_in_group(&bo)] };
        if ours != [true, false] {
            return Err(format!("zkforge's Gt membership gives {ours:?} for a member and a non-member"));
        }
        agree(ours, vec![("blst", theirs)])
    };
    out.push(case(
        "gt_membership",
        "bls12_381",
        1,
        timed(move || {
            black_box(pb::Gt::from_fp12(black_box(member)).is_ok());
        }),
        vec![("blst", timed(move || {
            // SAFETY: a valid blst_fp12.
            black_box(unsafe { blst_fp12_in_group(black_box(&bm)) });
        }))],
    ).with_check(membership_check));
}

/// blst's product of pairings e(P_i, Q_i), canonical.
fn blst_pairing(ps: &[blst_p1_affine], qs: &[blst_p2_affine]) -> Vec<u64> {
    let pp: Vec<*const blst_p1_affine> = ps.iter().map(|p| p as *const _).collect();
    let qq: Vec<*const blst_p2_affine> = qs.iter().map(|q| q as *const _).collect();
    let (mut ml, mut gt) = (blst_fp12::default(), blst_fp12::default());
    // SAFETY: n valid points on each side.
    unsafe {
        blst_miller_loop_n(&mut ml, qq.as_ptr(), pp.as_ptr(), ps.len());
        blst_final_exp(&mut gt, &ml);
    }
    gt.canon()
}

fn bn_cases(out: &mut Vec<Case>) {
    let mut rng = StdRng::seed_from_u64(32);
    let g1 = Arc::new(sample_points::<bn::G1Config>(&mut rng, 8));
    let g2 = Arc::new(sample_points::<bn::G2Config>(&mut rng, 8));
    let a1: Arc<Vec<ark_bn254::G1Affine>> = Arc::new(g1.iter().map(ark_bn_g1).collect());
    let a2: Arc<Vec<ark_bn254::G2Affine>> = Arc::new(g2.iter().map(ark_bn_g2).collect());
    for n in [1usize, 2, 4, 8] {
        let pairs: Vec<(bn::G1Affine, bn::G2Affine)> = (0..n).map(|i| (g1[i], g2[i])).collect();
        let ours = timed(move || {
            black_box(pn::pairing_check(black_box(&pairs)));
        });
        let (a1c, a2c) = (a1.clone(), a2.clone());
        let ark = timed(move || {
            let r = ark_bn254::Bn254::multi_pairing(a1c[..n].iter().copied(), a2c[..n].iter().copied());
            black_box(r.0 == <ark_bn254::Fq12 as ark_ff::One>::one());
        });
        let check = {
            let (g1, g2, a1, a2) = (g1.clone(), g2.clone(), a1.clone(), a2.clone());
            move || {
                let pairs: Vec<(bn::G1Affine, bn::G2Affine)> = (0..n).map(|i| (g1[i], g2[i])).collect();
                let ours = pn::final_exponentiation(&pn::multi_miller_loop(&pairs)).ok_or("zero Miller loop")?.as_fp12().canon();
                agree(ours, vec![("arkworks", ark_bn254::Bn254::multi_pairing(a1[..n].iter().copied(), a2[..n].iter().copied()).0.canon())])
            }
        };
        let mut peers: Vec<(&'static str, Runner)> = vec![("arkworks", ark)];
        let pairs: Vec<(bn::G1Affine, bn::G2Affine)> = (0..n).map(|i| (g1[i], g2[i])).collect();
        let want = pn::final_exponentiation(&pn::multi_miller_loop(&pairs)).map(|g| g.as_fp12().canon()).unwrap_or_default();
        let check = crate::gnark::join(&mut peers, Box::new(check), gnark_pairing("bn_pairing_check", &pairs, want));
        out.push(case("pairing_check", "bn254", n, ours, peers).with_check(check));
    }
    let (p, q) = (g1[0], g2[0]);
    let (ap, aq) = (a1[0], a2[0]);
    let want = pn::pairing(&p, &q).as_fp12().canon();
    let ark_fe = |ml: ark_ec::pairing::MillerLoopOutput<ark_bn254::Bn254>| -> Vec<u64> { ark_bn254::Bn254::final_exponentiation(ml).map(|g| g.0.canon()).unwrap_or_default() };
    let live = (want.clone(), ark_fe(ark_bn254::Bn254::multi_miller_loop([ap], [aq])));
    // gnark-crypto's Miller loop and final exponentiation, checked through FE(ML)
    let mut ml_peers: Vec<(&'static str, Runner)> = vec![("arkworks", timed(move || {
        let _ = black_box(ark_bn254::Bn254::multi_miller_loop([ap], [aq]));
    }))];
    let ml_check = crate::gnark::join(
        &mut ml_peers,
        Box::new(move || agree(live.0, vec![("arkworks", live.1)])),
        gnark_pairing("bn_miller_loop", &[(p, q)], want.clone()),
    );
    out.push(case(
        "miller_loop",
        "bn254",
        1,
        timed(move || {
            black_box(pn::multi_miller_loop(black_box(&[(p, q)])));
        }),
        ml_peers,
    ).with_check(ml_check));
    let prep = pn::G2Prepared::new(&q);
    let aprep = <ark_bn254::Bn254 as Pairing>::G2Prepared::from(aq);
    let prepared = (
        want.clone(),
        pn::final_exponentiation(&pn::multi_miller_loop_prepared(&[(p, &prep)])).map(|g| g.as_fp12().canon()).unwrap_or_default(),
        ark_fe(ark_bn254::Bn254::multi_miller_loop([ap], [aprep.clone()])),
    );
    out.push(case(
        "miller_loop_prepared",
        "bn254",
        1,
        timed(move || {
            black_box(pn::multi_miller_loop_prepared(black_box(&[(p, &prep)])));
        }),
        vec![("arkworks", timed(move || {
            let _ = black_box(ark_bn254::Bn254::multi_miller_loop([ap], [aprep.clone()]));
        }))],
    ).with_check(move || agree(prepared.0, vec![("zkforge-prepared", prepared.1), ("arkworks", prepared.2)])));
    let f = pn::multi_miller_loop(&[(p, q)]);
    let aml = ark_bn254::Bn254::multi_miller_loop([ap], [aq]);
    let mut fe_peers: Vec<(&'static str, Runner)> = vec![("arkworks", timed(move || {
        black_box(ark_bn254::Bn254::final_exponentiation(aml));
    }))];
    let fe = (want.clone(), pn::final_exponentiation(&f).map(|g| g.as_fp12().canon()).unwrap_or_default(), ark_fe(aml));
    let fe_check = crate::gnark::join(
        &mut fe_peers,
        Box::new(move || agree(fe.0, vec![("zkforge", fe.1), ("arkworks", fe.2)])),
        gnark_pairing("bn_final_exp", &[(p, q)], want),
    );
    out.push(case(
        "final_exponentiation",
        "bn254",
        1,
        timed(move || {
            black_box(pn::final_exponentiation(black_box(&f)));
        }),
        fe_peers,
    ).with_check(fe_check));
}

/// Two threads against one (the "peer" is our own one-thread run, an internal row): the
/// pairing check of 8 and of 16 pairs with the Miller loop split over a 2-thread pool
/// (`pairing_check_parallel`, issue 19), checked equal on the same fresh points (the check
/// value is true: the pairs cancel in twos). How the pairs are cut is
/// `zkforge_pairing::config::parallel_split` (near-equal halves on Zen 4; whole lane groups of
/// eight on full-width AVX-512, where 8 pairs stay one loop and that row reads about 1). These
/// rows wake the pool for every call of a ~1 ms operation and move by tens of percent between
/// runs on a shared 2-vCPU machine; `examples/parallel_split.rs` (zkforge-pairing) times the
/// same calls in runs of six.
fn two_thread_cases(out: &mut Vec<Case>) {
    let mut rng = StdRng::seed_from_u64(37);
    let two = zkforge_msm::pippenger::pool(2);
    for n in [8usize, 16] {
        let b1 = sample_points::<bls::G1Config>(&mut rng, n / 2);
        let b2 = sample_points::<bls::G2Config>(&mut rng, n / 2);
        let bls_pairs: Arc<Vec<(bls::G1Affine, bls::G2Affine)>> = Arc::new((0..n).map(|i| (if i % 2 == 0 { b1[i / 2] } else { -b1[i / 2] }, b2[i / 2])).collect());
        let n1 = sample_points::<bn::G1Config>(&mut rng, n / 2);
        let n2 = sample_points::<bn::G2Config>(&mut rng, n / 2);
        let bn_pairs: Arc<Vec<(bn::G1Affine, bn::G2Affine)>> = Arc::new((0..n).map(|i| (if i % 2 == 0 { n1[i / 2] } else { -n1[i / 2] }, n2[i / 2])).collect());
        let (p, q, t) = (bls_pairs.clone(), bls_pairs, two.clone());
        out.push(two_thread_row("bls12_381", n, move || t.install(|| pb::pairing_check_parallel(black_box(&p))), move || pb::pairing_check(black_box(&q))));
        let (p, q, t) = (bn_pairs.clone(), bn_pairs, two.clone());
        out.push(two_thread_row("bn254", n, move || t.install(|| pn::pairing_check_parallel(black_box(&p))), move || pn::pairing_check(black_box(&q))));
    }
}

/// One n-pair row: `two` on the 2-thread pool against `one` on the caller's thread, checked
/// to agree and to be true.
fn two_thread_row(curve: &'static str, n: usize, two: impl Fn() -> bool + Clone + Send + 'static, one: impl Fn() -> bool + Clone + Send + 'static) -> Case {
    let (two_c, one_c) = (two.clone(), one.clone());
    let check = move || if two_c() && one_c() { Ok(()) } else { Err(format!("{curve}: the 2-thread and 1-thread checks disagree or are false")) };
    Case {
        group: "pairing",
        op: "pairing_check",
        curve,
        size: n,
        threads: 2,
        ours: timed(move || {
            black_box(two());
        }),
        peers: vec![("zkforge-1thread", timed(move || {
            black_box(one());
        }))],
        check: None,
    }
    .with_check(check)
}

/// Every pairing case.
pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    bls_cases(&mut out);
    bn_cases(&mut out);
    two_thread_cases(&mut out);
    out.extend(crate::bls_sig::cases());
    out
}

//! Every value of the Miller-loop switches (`zkforge_pairing::config`: 3b' form, accumulator) and
//! of the tower switch
//! gives the same Miller-loop output, on both curves, for 1 to 5 pairs, live and prepared
//! (normalized prepared lines, `config::PreparedLines`, the same after the final
//! exponentiation). One
//! test function sets the switches (they are process-wide, so no other test of this binary may
//! depend on them).

use rand::{rngs::StdRng, RngCore, SeedableRng};
use zkforge_curve::{bls12_381 as bls, bn254 as bn, Affine, CurveConfig, Jacobian};
use zkforge_field::backend::{set_tower, Tower};
use zkforge_pairing::config::{set_lane_addition_steps, set_lane_steps_min_pairs, set_miller_accumulator, set_prepared_lines, set_three_b_form, MillerAccumulator, PreparedLines, ThreeBForm, LANE_ADDITION_STEPS, LANE_STEPS_MIN_PAIRS, LANE_STEPS_MIN_PAIRS_HALF_WIDTH};
use zkforge_pairing::{bls12_381 as pb, bn254 as pn};

fn rand_point<C: CurveConfig>(rng: &mut impl RngCore) -> Affine<C> {
    Jacobian::<C>::generator().mul_limbs_vartime(&[rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64() >> 4]).to_affine()
}

#[test]
fn every_switch_value_gives_the_same_miller_loop() {
    let seed = std::env::var("ZKFORGE_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random::<u64>);
    eprintln!("ZKFORGE_SEED={seed}");
    let mut rng = StdRng::seed_from_u64(seed);
    let bls_pairs: Vec<_> = (0..5).map(|_| (rand_point::<bls::G1Config>(&mut rng), rand_point::<bls::G2Config>(&mut rng))).collect();
    let bn_pairs: Vec<_> = (0..5).map(|_| (rand_point::<bn::G1Config>(&mut rng), rand_point::<bn::G2Config>(&mut rng))).collect();
    // raw prepared lines give the live loop's value exactly; normalized ones (the default) the
    // same value up to an Fp2 factor, so those are compared after the final exponentiation
    set_prepared_lines(PreparedLines::Raw);
    let bls_prep: Vec<_> = bls_pairs.iter().map(|(_, q)| pb::G2Prepared::new(q)).collect();
    let bn_prep: Vec<_> = bn_pairs.iter().map(|(_, q)| pn::G2Prepared::new(q)).collect();
    set_prepared_lines(PreparedLines::Normalized);
    let bls_norm: Vec<_> = bls_pairs.iter().map(|(_, q)| pb::G2Prepared::new(q)).collect();
    let bn_norm: Vec<_> = bn_pairs.iter().map(|(_, q)| pn::G2Prepared::new(q)).collect();
    set_prepared_lines(PreparedLines::Auto);

    // reference: per-product tower, general 3b', lines one by one, scalar accumulator
    set_tower(Tower::PerProduct);
    set_three_b_form(ThreeBForm::General);
    set_miller_accumulator(MillerAccumulator::Scalar);
    let bls_ref: Vec<_> = (1..=5).map(|n| pb::multi_miller_loop(&bls_pairs[..n])).collect();
    let bn_ref: Vec<_> = (1..=5).map(|n| pn::multi_miller_loop(&bn_pairs[..n])).collect();
    let bls_fe: Vec<_> = bls_ref.iter().map(pb::final_exponentiation).collect();
    let bn_fe: Vec<_> = bn_ref.iter().map(pn::final_exponentiation).collect();

    for tower in [Tower::Auto, Tower::Lazy, Tower::PerProduct] {
        for tb in [ThreeBForm::Auto, ThreeBForm::General] {
            for (acc, steps) in [
                (MillerAccumulator::Auto, 0),
                (MillerAccumulator::Scalar, 0),
                (MillerAccumulator::Ifma, LANE_STEPS_MIN_PAIRS),
                (MillerAccumulator::Ifma, LANE_STEPS_MIN_PAIRS_HALF_WIDTH),
                (MillerAccumulator::Ifma, 1),
                (MillerAccumulator::Ifma, 3),
                (MillerAccumulator::Ifma, usize::MAX),
            ] {
                for adds in [true, false] {
                    set_tower(tower);
                    set_three_b_form(tb);
                    set_miller_accumulator(acc);
                    set_lane_steps_min_pairs(steps);
                    set_lane_addition_steps(adds);
                    let what = format!("{tower:?} {tb:?} {acc:?} lane steps from {steps} pairs, lane additions {adds}");
                    for n in 1..=5 {
                        assert_eq!(pb::multi_miller_loop(&bls_pairs[..n]), bls_ref[n - 1], "BLS12-381 live, {n} pairs, {what}");
                        assert_eq!(pn::multi_miller_loop(&bn_pairs[..n]), bn_ref[n - 1], "BN254 live, {n} pairs, {what}");
                        let bp: Vec<_> = bls_pairs[..n].iter().zip(&bls_prep).map(|((p, _), q)| (*p, q)).collect();
                        assert_eq!(pb::multi_miller_loop_prepared(&bp), bls_ref[n - 1], "BLS12-381 prepared, {n} pairs, {what}");
                        let np: Vec<_> = bn_pairs[..n].iter().zip(&bn_prep).map(|((p, _), q)| (*p, q)).collect();
                        assert_eq!(pn::multi_miller_loop_prepared(&np), bn_ref[n - 1], "BN254 prepared, {n} pairs, {what}");
                        let bp: Vec<_> = bls_pairs[..n].iter().zip(&bls_norm).map(|((p, _), q)| (*p, q)).collect();
                        assert_eq!(pb::final_exponentiation(&pb::multi_miller_loop_prepared(&bp)), bls_fe[n - 1], "BLS12-381 normalized, {n} pairs, {what}");
                        let np: Vec<_> = bn_pairs[..n].iter().zip(&bn_norm).map(|((p, _), q)| (*p, q)).collect();
                        assert_eq!(pn::final_exponentiation(&pn::multi_miller_loop_prepared(&np)), bn_fe[n - 1], "BN254 normalized, {n} pairs, {what}");
                    }
                }
            }
        }
    }
    // an identity pair among live ones is skipped
    set_tower(Tower::Auto);
    set_three_b_form(ThreeBForm::Auto);
    let mut with_id = bls_pairs[..3].to_vec();
    with_id.insert(1, (bls::G1Affine::IDENTITY, bls_pairs[0].1));
    assert_eq!(pb::multi_miller_loop(&with_id), bls_ref[2], "identity pair");
    set_miller_accumulator(MillerAccumulator::Scalar);
    assert_eq!(pb::multi_miller_loop(&with_id), bls_ref[2], "identity pair, scalar accumulator");
    set_miller_accumulator(MillerAccumulator::Ifma);
    set_lane_steps_min_pairs(1);
    assert_eq!(pb::multi_miller_loop(&with_id), bls_ref[2], "identity pair, lane steps");
    let mut bn_with_id = bn_pairs[..3].to_vec();
    bn_with_id.insert(2, (bn::G1Affine::IDENTITY, bn_pairs[0].1));
    assert_eq!(pn::multi_miller_loop(&bn_with_id), bn_ref[2], "BN254 identity pair, lane accumulator");
    // more pairs than one lane group holds (8): 9, 11 and 17 pairs, lane steps against scalar
    let many: Vec<_> = (0..17).map(|_| (rand_point::<bls::G1Config>(&mut rng), rand_point::<bls::G2Config>(&mut rng))).collect();
    for n in [9, 11, 17] {
        set_miller_accumulator(MillerAccumulator::Scalar);
        let want = pb::multi_miller_loop(&many[..n]);
        set_miller_accumulator(MillerAccumulator::Ifma);
        assert_eq!(pb::multi_miller_loop(&many[..n]), want, "{n} pairs, lane steps");
    }
    let bn_many: Vec<_> = (0..17).map(|_| (rand_point::<bn::G1Config>(&mut rng), rand_point::<bn::G2Config>(&mut rng))).collect();
    for n in [8, 9, 17] {
        set_miller_accumulator(MillerAccumulator::Scalar);
        let want = pn::multi_miller_loop(&bn_many[..n]);
        let bls_want = pb::multi_miller_loop(&many[..n]);
        set_miller_accumulator(MillerAccumulator::Ifma);
        set_lane_steps_min_pairs(1);
        for adds in [true, false] {
            set_lane_addition_steps(adds);
            assert_eq!(pn::multi_miller_loop(&bn_many[..n]), want, "BN254 {n} pairs, lane steps, lane additions {adds}");
            assert_eq!(pb::multi_miller_loop(&many[..n]), bls_want, "BLS12-381 {n} pairs, lane steps, lane additions {adds}");
        }
    }
    let bn_ends = |steps: usize, acc: MillerAccumulator| {
        set_miller_accumulator(acc);
        set_lane_steps_min_pairs(steps);
        let (f, e) = zkforge_pairing::engine::multi_miller_loop_with_ends::<zkforge_pairing::bn254::Bn254, 4>(&bn_many[..9]);
        (f, e.into_iter().map(|t| t.map(|t| (t.x, t.y, t.z))).collect::<Vec<_>>())
    };
    for adds in [true, false] {
        set_lane_addition_steps(adds);
        assert_eq!(bn_ends(1, MillerAccumulator::Ifma), bn_ends(1, MillerAccumulator::Scalar), "BN254 loop ends, lane steps, lane additions {adds}");
    }
    set_lane_addition_steps(LANE_ADDITION_STEPS);
    // the loop's end points (what pairing_check_g2_unchecked tests G2 membership with) agree
    let ends = |steps: usize, acc: MillerAccumulator| {
        set_miller_accumulator(acc);
        set_lane_steps_min_pairs(steps);
        let (f, e) = zkforge_pairing::engine::multi_miller_loop_with_ends::<zkforge_pairing::bls12_381::Bls12_381, 6>(&many[..9]);
        (f, e.into_iter().map(|t| t.map(|t| (t.x, t.y, t.z))).collect::<Vec<_>>())
    };
    for adds in [true, false] {
        set_lane_addition_steps(adds);
        assert_eq!(ends(1, MillerAccumulator::Ifma), ends(1, MillerAccumulator::Scalar), "loop ends, lane steps, lane additions {adds}");
    }
    set_lane_addition_steps(LANE_ADDITION_STEPS);
    set_miller_accumulator(MillerAccumulator::Auto);
    set_lane_steps_min_pairs(0);
    set_tower(Tower::Auto);
    set_three_b_form(ThreeBForm::Auto);
    set_miller_accumulator(MillerAccumulator::Auto);
}

/// `ThreeB::OnePlusUTimes(k)` is k (1 + u) times its input for every k, 0 included.
#[test]
fn three_b_addition_form_is_k_times_one_plus_u() {
    use zkforge_field::bls12_381::{Fp, Fp2};
    use zkforge_pairing::line::ThreeB;
    let c = Fp2::new(Fp::from_u64(123456789), Fp::from_u64(987654321));
    let one_plus_u = Fp2::new(Fp::ONE, Fp::ONE);
    for k in [0u64, 1, 2, 3, 7, 12, 255, u64::MAX] {
        let want = one_plus_u * c * Fp2::new(Fp::from_u64(k), Fp::ZERO);
        assert_eq!(ThreeB::OnePlusUTimes(k).mul(&c), want, "k = {k}");
    }
}

/// Every [`ExpByXForm`] crossed with every cyclotomic squaring gives the same final
/// exponentiation on random Miller-loop outputs, on the identity and on cyclotomic elements
/// with zero coefficients (g1 = 0 takes Karabina's other decompression branch), and the same
/// pairing checks.
#[test]
fn every_final_exponentiation_form_agrees() {
    use zkforge_field::backend::{set_cyclotomic_squaring, CyclotomicSquaring};
    use zkforge_field::bls12_381::{Fp12, Fp2, Fp6};
    use zkforge_pairing::config::{set_exp_by_x_form, ExpByXForm};
    let seed = std::env::var("ZKFORGE_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random::<u64>);
    eprintln!("ZKFORGE_SEED={seed}");
    let mut rng = StdRng::seed_from_u64(seed);
    let pairs: Vec<_> = (0..3).map(|_| (rand_point::<bls::G1Config>(&mut rng), rand_point::<bls::G2Config>(&mut rng))).collect();
    let mut inputs: Vec<Fp12> = (1..=3).map(|n| pb::multi_miller_loop(&pairs[..n])).collect();
    inputs.push(Fp12::ONE);
    // sparse elements: after the easy part some coefficients of these are zero or small
    inputs.push(Fp12 { c0: Fp6::new(Fp2::ONE, Fp2::ZERO, Fp2::ZERO), c1: Fp6::new(Fp2::ZERO, Fp2::ONE, Fp2::ZERO) });
    inputs.push(Fp12 { c0: Fp6::new(Fp2::ZERO, Fp2::ONE, Fp2::ZERO), c1: Fp6::new(Fp2::ZERO, Fp2::ZERO, Fp2::ONE) });
    inputs.push(Fp12 { c0: Fp6::new(-Fp2::ONE, Fp2::ZERO, Fp2::ONE), c1: Fp6::ZERO });

    set_exp_by_x_form(ExpByXForm::Wnaf);
    set_cyclotomic_squaring(CyclotomicSquaring::GrangerScott);
    let want: Vec<_> = inputs.iter().map(pb::final_exponentiation).collect();
    for form in [ExpByXForm::Auto, ExpByXForm::Wnaf, ExpByXForm::Depths] {
        for cyc in [CyclotomicSquaring::Auto, CyclotomicSquaring::GrangerScott, CyclotomicSquaring::Karabina, CyclotomicSquaring::KarabinaIfma] {
            set_exp_by_x_form(form);
            set_cyclotomic_squaring(cyc);
            for (f, w) in inputs.iter().zip(&want) {
                assert_eq!(pb::final_exponentiation(f), *w, "{form:?} {cyc:?}");
            }
            // e(P, Q) e(-P, Q) = 1, and not 1 without the second pair
            let (p, q) = pairs[0];
            assert!(pb::pairing_check(&[(p, q), (-p, q)]), "{form:?} {cyc:?}");
            assert!(!pb::pairing_check(&[(p, q)]), "{form:?} {cyc:?}");
        }
    }
    set_exp_by_x_form(ExpByXForm::Auto);
    set_cyclotomic_squaring(CyclotomicSquaring::Auto);
}

/// Every [`HardPart`] (the BN254 hard part on IFMA lanes or in the 64-bit tower) crossed with
/// every [`ExpByUForm`] (u's window NAF or its signed addition chain) gives the same final
/// exponentiation on random Miller-loop outputs, the identity and sparse elements, crossed
/// with every cyclotomic squaring and both towers, and the same pairing checks; on BLS12-381
/// (where `Auto` keeps the scalar hard part) too.
#[test]
fn every_hard_part_agrees() {
    use zkforge_field::backend::{set_cyclotomic_squaring, CyclotomicSquaring};
    use zkforge_field::bn254::{Fp12, Fp2, Fp6};
    use zkforge_pairing::config::{set_exp_by_u_form, set_hard_part, ExpByUForm, HardPart};
    let seed = std::env::var("ZKFORGE_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random::<u64>);
    eprintln!("ZKFORGE_SEED={seed}");
    let mut rng = StdRng::seed_from_u64(seed);
    let pairs: Vec<_> = (0..3).map(|_| (rand_point::<bn::G1Config>(&mut rng), rand_point::<bn::G2Config>(&mut rng))).collect();
    let mut inputs: Vec<Fp12> = (1..=3).map(|n| pn::multi_miller_loop(&pairs[..n])).collect();
    inputs.push(Fp12::ONE);
    inputs.push(Fp12 { c0: Fp6::new(Fp2::ONE, Fp2::ZERO, Fp2::ZERO), c1: Fp6::new(Fp2::ZERO, Fp2::ONE, Fp2::ZERO) });
    inputs.push(Fp12 { c0: Fp6::new(Fp2::ZERO, Fp2::ONE, Fp2::ZERO), c1: Fp6::new(Fp2::ZERO, Fp2::ZERO, Fp2::ONE) });
    inputs.push(Fp12 { c0: Fp6::new(-Fp2::ONE, Fp2::ZERO, Fp2::ONE), c1: Fp6::ZERO });
    let bls_pairs: Vec<_> = (0..2).map(|_| (rand_point::<bls::G1Config>(&mut rng), rand_point::<bls::G2Config>(&mut rng))).collect();
    let bls_input = pb::multi_miller_loop(&bls_pairs);

    set_hard_part(HardPart::Scalar);
    set_exp_by_u_form(ExpByUForm::Wnaf);
    set_cyclotomic_squaring(CyclotomicSquaring::GrangerScott);
    let want: Vec<_> = inputs.iter().map(pn::final_exponentiation).collect();
    let bls_want = pb::final_exponentiation(&bls_input);
    for hard in [HardPart::Auto, HardPart::Scalar, HardPart::Ifma] {
        for by_u in [ExpByUForm::Auto, ExpByUForm::Wnaf, ExpByUForm::Chain] {
            for cyc in [CyclotomicSquaring::Auto, CyclotomicSquaring::GrangerScott, CyclotomicSquaring::Karabina, CyclotomicSquaring::KarabinaIfma] {
                for tower in [Tower::Auto, Tower::Lazy, Tower::PerProduct] {
                    set_hard_part(hard);
                    set_exp_by_u_form(by_u);
                    set_cyclotomic_squaring(cyc);
                    set_tower(tower);
                    for (f, w) in inputs.iter().zip(&want) {
                        assert_eq!(pn::final_exponentiation(f), *w, "{hard:?} {by_u:?} {cyc:?} {tower:?}");
                    }
                    assert_eq!(pb::final_exponentiation(&bls_input), bls_want, "{hard:?} {by_u:?} {cyc:?} {tower:?}");
                    let (p, q) = pairs[0];
                    assert!(pn::pairing_check(&[(p, q), (-p, q)]), "{hard:?} {by_u:?} {cyc:?} {tower:?}");
                    assert!(!pn::pairing_check(&[(p, q)]), "{hard:?} {by_u:?} {cyc:?} {tower:?}");
                }
            }
        }
    }
    set_hard_part(HardPart::Auto);
    set_exp_by_u_form(ExpByUForm::Auto);
    set_cyclotomic_squaring(CyclotomicSquaring::Auto);
    set_tower(Tower::Auto);
}

/// Every [`GtMembership`] value (crossed with every `GtSquarings` and cyclotomic-squaring
/// value) accepts and rejects the same Fp12 elements on both curves
/// (BLS12-381's Frobenius test f^p = f^x against f^r = 1; BN254 has no Frobenius test and
/// falls back): members (pairings, the generator and its powers, one), cyclotomic elements
/// outside Gt (easy parts of random elements, their r-th powers, whose order divides the
/// cofactor, and their products with members), non-cyclotomic elements and zero.
#[test]
fn every_gt_membership_test_agrees() {
    let seed = std::env::var("ZKFORGE_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random::<u64>);
    eprintln!("ZKFORGE_SEED={seed}");
    let mut rng = StdRng::seed_from_u64(seed);
    gt_membership_on::<pb::Bls12_381, 6>(&mut rng);
    gt_membership_on::<pn::Bn254, 4>(&mut rng);
    zkforge_pairing::config::set_gt_membership(zkforge_pairing::config::GtMembership::Auto);
}

fn gt_membership_on<P: zkforge_pairing::PairingConfig<N>, const N: usize>(rng: &mut StdRng) {
    use zkforge_field::tower::Fp12;
    use zkforge_field::backend::{set_cyclotomic_squaring, CyclotomicSquaring};
    use zkforge_pairing::config::{set_gt_membership, set_gt_squarings, set_hard_part, GtMembership, GtSquarings, HardPart};
    use zkforge_pairing::engine::{gt_from_bytes, gt_from_fp12, gt_generator, pairing};
    use zkforge_pairing::{Gt, PairingError};
    let easy = |f: Fp12<P::Fp, N>| {
        let t = f.conjugate() * f.invert().unwrap();
        t.frobenius_map(2) * t
    };
    let r = <P::G1 as CurveConfig>::ORDER;
    let g = gt_generator::<P, N>();
    let mut members = vec![Fp12::ONE, *g.as_fp12(), *g.pow_vartime(&[12345, 0, 0, 0]).as_fp12()];
    for _ in 0..3 {
        members.push(*pairing::<P, N>(&rand_point::<P::G1>(rng), &rand_point::<P::G2>(rng)).as_fp12());
    }
    let mut outside = Vec::new();
    for _ in 0..3 {
        let c = easy(Fp12::random(rng));
        let c_r = *Gt::from_fp12_unchecked(c).pow_vartime(&r).as_fp12();
        outside.extend([c, c_r, c_r * members[3], c * members[1]]);
    }
    let not_cyclotomic = [Fp12::random(rng), Fp12::ZERO, members[3] - Fp12::ONE];
    let encode = |f: &Fp12<P::Fp, N>| {
        let mut out = vec![0u8; 12 * 8 * N];
        for (i, c) in [f.c0.c0, f.c0.c1, f.c0.c2, f.c1.c0, f.c1.c1, f.c1.c2].iter().enumerate() {
            out[16 * N * i..16 * N * i + 8 * N].copy_from_slice(c.c0.to_bytes_be().as_ref());
            out[16 * N * i + 8 * N..16 * N * (i + 1)].copy_from_slice(c.c1.to_bytes_be().as_ref());
        }
        out
    };
    // the Frobenius tests square on IFMA lanes under the hard-part switch; BLS12-381's
    // compressed form (`GtSquarings`) runs its squarings where the cyclotomic switch says and
    // falls back to the chain for one, whose compressed powers are all zero
    let cycs = [CyclotomicSquaring::Auto, CyclotomicSquaring::GrangerScott, CyclotomicSquaring::Karabina, CyclotomicSquaring::KarabinaIfma];
    for hard in [HardPart::Auto, HardPart::Scalar, HardPart::Ifma] {
        for form in [GtMembership::Auto, GtMembership::Order, GtMembership::Frobenius] {
            for squarings in [GtSquarings::Auto, GtSquarings::GrangerScott, GtSquarings::Compressed] {
                for cyc in cycs {
                    set_hard_part(hard);
                    set_gt_membership(form);
                    set_gt_squarings(squarings);
                    set_cyclotomic_squaring(cyc);
                    for f in &members {
                        assert_eq!(gt_from_fp12::<P, N>(*f).map(|x| *x.as_fp12()), Ok(*f), "{hard:?} {form:?} {squarings:?} {cyc:?}");
                        assert_eq!(gt_from_bytes::<P, N>(&encode(f)).map(|x| *x.as_fp12()), Ok(*f), "{hard:?} {form:?} {squarings:?} {cyc:?}");
                    }
                    for f in outside.iter().chain(&not_cyclotomic) {
                        assert_eq!(gt_from_fp12::<P, N>(*f).err(), Some(PairingError::NotInGt), "{hard:?} {form:?} {squarings:?} {cyc:?}");
                        assert_eq!(gt_from_bytes::<P, N>(&encode(f)).err(), Some(PairingError::NotInGt), "{hard:?} {form:?} {squarings:?} {cyc:?}");
                    }
                }
            }
        }
    }
    set_hard_part(HardPart::Auto);
    set_gt_squarings(GtSquarings::Auto);
    set_cyclotomic_squaring(CyclotomicSquaring::Auto);
}

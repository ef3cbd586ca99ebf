//! `msm_ct`: every method against the sum of `Jacobian::mul_limbs_vartime` products and the
//! variable-time MSM, on BLS12-381 G1 (the IFMA lanes where the CPU has them) and BN254 G1
//! (Straus under every method), for sizes 0 to 40 and 66, 130 (a Bulletproofs+ round) and edge
//! cases: identities among the points, equal and opposite points (sums that meet a doubling or
//! the identity in a lane's accumulator), scalars 0, 1, 2, r - 1, r, r + 1, 2^256 - 1, lambda
//! and its neighbours (a GLV part of 0 or 1), even and odd parts, the largest parts.

use rand::{rngs::StdRng, Rng, SeedableRng};
use zkforge_curve::point::{Affine, Jacobian};
use zkforge_curve::{bls12_381, bn254, sample_points, CurveConfig};
use zkforge_msm::msm_ct::{lanes_apply, msm_ct, msm_ct_with, CtMsmMethod};
use zkforge_msm::MsmError;

mod common;
use common::random_scalars;

const METHODS: [CtMsmMethod; 3] = [CtMsmMethod::Auto, CtMsmMethod::Straus, CtMsmMethod::Lanes];

fn check<C: CurveConfig>(points: &[Affine<C>], scalars: &[[u64; 4]], what: &str) {
    let want = points.iter().zip(scalars).fold(Jacobian::<C>::IDENTITY, |acc, (p, k)| acc.add_vartime(&p.to_jacobian().mul_limbs_vartime(k)));
    for m in METHODS {
        let got = msm_ct_with(points, scalars, m).expect("equal lengths");
        assert!(got.is_on_curve(), "{what}, {m:?}: off the curve");
        assert_eq!(got.to_affine(), want.to_affine(), "{what}, {m:?}");
    }
}


fn sizes_and_randoms<C: CurveConfig>(seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    for n in (0..=17).chain([23, 31, 32, 33, 40, 66, 130]) {
        let pts = sample_points::<C>(&mut rng, n);
        let ks = random_scalars(&mut rng, n);
        check(&pts, &ks, &format!("{} random, n {n}", core::any::type_name::<C>()));
        // scalars below r with small GLV parts and small values
        let small: Vec<[u64; 4]> = (0..n).map(|_| [rng.gen::<u64>() >> rng.gen_range(0..64), 0, 0, 0]).collect();
        check(&pts, &small, &format!("{} small scalars, n {n}", core::any::type_name::<C>()));
    }
}

#[test]
fn random_sizes_match_the_products() {
    sizes_and_randoms::<bls12_381::G1Config>(1);
    sizes_and_randoms::<bn254::G1Config>(2);
}

fn edge_cases<C: CurveConfig>(lambda: [u64; 4]) {
    let mut rng = StdRng::seed_from_u64(7);
    let special = common::special_scalars::<C>(lambda);
    let base = sample_points::<C>(&mut rng, 3);
    let neg0 = (-base[0].to_jacobian()).to_affine();
    let dbl2 = base[2].to_jacobian().double().to_affine();
    for (s, k) in special.iter().enumerate() {
        let mut pts = Vec::new();
        let mut ks = Vec::new();
        for i in 0..24 {
            pts.push(match i % 5 {
                0 => base[0],
                1 => neg0,
                2 => Affine::IDENTITY,
                3 => base[1],
                _ => dbl2,
            });
            ks.push(if i % 3 == s % 3 { *k } else { random_scalars(&mut rng, 1)[0] });
        }
        check(&pts, &ks, &format!("{} special scalar {s}", core::any::type_name::<C>()));
        // the special scalar everywhere
        check(&pts, &vec![*k; 24], &format!("{} special scalar {s} everywhere", core::any::type_name::<C>()));
    }
    // one point many times with one scalar (every lane's accumulator doubles into itself),
    // P and -P with one scalar (a sum of zero), all identities, all-zero scalars, single points
    check(&[base[1]; 16], &[[5, 0, 0, 0]; 16], "one point, one scalar");
    check(&[base[1]; 9], &vec![random_scalars(&mut rng, 1)[0]; 9], "one point, one random scalar");
    let k = random_scalars(&mut rng, 1)[0];
    check(&[base[0], neg0, base[0], neg0, base[0], neg0, base[0], neg0], &[k; 8], "P and -P");
    check(&[base[0], base[0]], &[k, k], "P and P, lanes 0 and 1");
    check(&[Affine::<C>::IDENTITY; 9], &random_scalars(&mut rng, 9), "identities");
    check(&base, &[[0; 4]; 3], "zero scalars");
    check(&base[..1], &special[4..5], "one point, r - 1");
    check(&base[..1], &special[1..2], "one point, 1");
}

#[test]
fn edge_cases_match_the_products() {
    edge_cases::<bls12_381::G1Config>(common::BLS12_381_LAMBDA);
    edge_cases::<bn254::G1Config>(common::BN254_LAMBDA);
}

#[test]
fn lengths_must_match_and_lanes_are_where_expected() {
    let g = Affine::<bls12_381::G1Config>::generator();
    assert_eq!(msm_ct(&[g, g], &[[1, 0, 0, 0]]), Err(MsmError::LengthMismatch { points: 2, scalars: 1 }));
    assert_eq!(msm_ct::<bls12_381::G1Config>(&[], &[]), Ok(Jacobian::IDENTITY));
    // BN254's field does not fit the lanes' headroom; BLS12-381 G1 has them exactly where IFMA is
    assert!(!lanes_apply::<bn254::G1Config>());
    assert_eq!(lanes_apply::<bls12_381::G1Config>(), zkforge_msm::ifma::available());
}

fn many_sums<C: CurveConfig>(seed: u64) {
    use zkforge_msm::msm_ct::msm_many_ct_with;
    let mut rng = StdRng::seed_from_u64(seed);
    for (sums, m) in [(1usize, 1usize), (3, 4), (4, 4), (8, 2), (9, 4), (16, 1), (17, 5), (32, 4), (5, 16)] {
        let mut pts = sample_points::<C>(&mut rng, sums * m);
        // identities, repeats and opposites inside the sums
        if pts.len() > 6 {
            pts[1] = Affine::IDENTITY;
            pts[3] = pts[2];
            pts[5] = (-pts[4].to_jacobian()).to_affine();
        }
        let mut ks = random_scalars(&mut rng, sums * m);
        if ks.len() > 6 {
            ks[5] = ks[4];
            ks[0] = [0; 4];
        }
        let want: Vec<Affine<C>> = (0..sums)
            .map(|j| (0..m).fold(Jacobian::<C>::IDENTITY, |acc, k| acc.add_vartime(&pts[j * m + k].to_jacobian().mul_limbs_vartime(&ks[j * m + k]))).to_affine())
            .collect();
        for method in METHODS {
            let got: Vec<Affine<C>> = msm_many_ct_with(&pts, &ks, sums, method).unwrap().iter().map(|p| p.to_affine()).collect();
            assert_eq!(got, want, "{} {sums} sums of {m}, {method:?}", core::any::type_name::<C>());
        }
    }
    let g = Affine::<C>::generator();
    assert_eq!(msm_many_ct_with(&[g; 6], &[[1, 0, 0, 0]; 6], 4, CtMsmMethod::Auto), Err(MsmError::UnevenSums { terms: 6, sums: 4 }));
    assert_eq!(msm_many_ct_with(&[g; 6], &[[1, 0, 0, 0]; 6], 0, CtMsmMethod::Auto), Err(MsmError::UnevenSums { terms: 6, sums: 0 }));
    assert_eq!(msm_many_ct_with(&[g; 6], &[[1, 0, 0, 0]; 5], 1, CtMsmMethod::Auto), Err(MsmError::LengthMismatch { points: 6, scalars: 5 }));
    assert_eq!(msm_many_ct_with::<C>(&[], &[], 0, CtMsmMethod::Lanes), Ok(vec![]));
    assert_eq!(msm_many_ct_with::<C>(&[], &[], 3, CtMsmMethod::Lanes), Ok(vec![Jacobian::IDENTITY; 3]));
}

#[test]
fn many_sums_match_the_products() {
    many_sums::<bls12_381::G1Config>(11);
    many_sums::<bn254::G1Config>(12);
}

/// A point outside the prime-order subgroup (documented as not allowed, but it must not spoil
/// the other lanes): (0, 2) has order 3 on BLS12-381 G1, so its lane table meets the identity;
/// the lanes hand the sum to Straus, and every method gives Straus's value.
#[test]
fn a_point_of_order_three_falls_back_to_straus() {
    use zkforge_curve::bls12_381::G1Config;
    use zkforge_field::bls12_381::Fp;
    use zkforge_msm::{msm_with, MsmConfig, SmallMethod};
    let mut rng = StdRng::seed_from_u64(3);
    let t = Affine::<G1Config>::new_unchecked(Fp::ZERO, Fp::from_u64(2));
    assert!(t.is_on_curve());
    let mut pts = sample_points::<G1Config>(&mut rng, 12);
    pts[5] = t;
    let ks = random_scalars(&mut rng, 12);
    let straus = msm_ct_with(&pts, &ks, CtMsmMethod::Straus).unwrap();
    assert_eq!(msm_ct_with(&pts, &ks, CtMsmMethod::Lanes).unwrap(), straus);
    let base = MsmConfig::for_size(12, 1);
    let var = |m| msm_with(&pts, &ks, &MsmConfig { small_threshold: usize::MAX, small_method: m, ..base }).unwrap();
    assert_eq!(var(SmallMethod::Lanes), var(SmallMethod::Straus));
}

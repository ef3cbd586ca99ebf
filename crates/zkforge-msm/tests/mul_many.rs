//! `mul_many_vartime`: every method against `Jacobian::mul_limbs_vartime` one product at a time,
//! on BLS12-381 G1 (the IFMA lanes where the CPU has them) and BN254 G1 (one by one), for sizes
//! 0 to 40 and edge cases: identities among the points, equal and opposite points, scalars 0, 1,
//! 2, r - 1, r, r + 1, 2^256 - 1, lambda and its neighbours (a GLV part of 0 or 1), even and odd
//! parts, and scalars whose parts are at their largest.

use rand::{rngs::StdRng, SeedableRng};
use zkforge_curve::point::Jacobian;
use zkforge_curve::{bls12_381, bn254, sample_points, CurveConfig};
use zkforge_msm::mul_many::{mul_many_vartime, mul_many_vartime_with, MulManyMethod};
use zkforge_msm::MsmError;

mod common;
use common::random_scalars;

const METHODS: [MulManyMethod; 3] = [MulManyMethod::Auto, MulManyMethod::OneByOne, MulManyMethod::Lanes];

fn check<C: CurveConfig>(points: &[Jacobian<C>], scalars: &[[u64; 4]], what: &str) {
    let want: Vec<_> = points.iter().zip(scalars).map(|(p, k)| p.mul_limbs_vartime(k).to_affine()).collect();
    for m in METHODS {
        let got = mul_many_vartime_with(points, scalars, m).expect("equal lengths");
        assert_eq!(got.len(), want.len());
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(g.is_on_curve(), "{what}, {m:?}, entry {i}: off the curve");
            assert_eq!(g.to_affine(), *w, "{what}, {m:?}, entry {i}");
        }
    }
}


fn sizes_and_randoms<C: CurveConfig>(seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    for n in (0..=17).chain([23, 31, 32, 33, 40]) {
        let pts: Vec<Jacobian<C>> = sample_points::<C>(&mut rng, n).iter().map(|p| p.to_jacobian()).collect();
        // non-normalised inputs: each point times a random Z
        let pts: Vec<Jacobian<C>> = pts.iter().map(|p| p.double().add(p)).collect();
        let ks = random_scalars(&mut rng, n);
        check(&pts, &ks, &format!("{} random, n {n}", core::any::type_name::<C>()));
    }
}

#[test]
fn random_sizes_match_one_by_one() {
    sizes_and_randoms::<bls12_381::G1Config>(1);
    sizes_and_randoms::<bn254::G1Config>(2);
}

fn edge_cases<C: CurveConfig>(lambda: [u64; 4]) {
    let mut rng = StdRng::seed_from_u64(7);
    let special = common::special_scalars::<C>(lambda);
    let base: Vec<Jacobian<C>> = sample_points::<C>(&mut rng, 3).iter().map(|p| p.to_jacobian()).collect();
    // every special scalar on every lane position, with equal, opposite and identity points around
    for (s, k) in special.iter().enumerate() {
        let mut pts = Vec::new();
        let mut ks = Vec::new();
        for i in 0..16 {
            let p = match i % 5 {
                0 => base[0],
                1 => -base[0],
                2 => Jacobian::IDENTITY,
                3 => base[1],
                _ => base[2].double(),
            };
            pts.push(p);
            ks.push(if i % 3 == s % 3 { *k } else { random_scalars(&mut rng, 1)[0] });
        }
        check(&pts, &ks, &format!("{} special scalar {s}", core::any::type_name::<C>()));
    }
    // all identities, all the same point and scalar, a single point
    check(&[Jacobian::<C>::IDENTITY; 9], &random_scalars(&mut rng, 9), "identities");
    check(&[base[1]; 12], &[[5, 0, 0, 0]; 12], "one point, one scalar");
    check(&base[..1], &special[4..5], "one point, r - 1");
}

#[test]
fn edge_cases_match_one_by_one() {
    edge_cases::<bls12_381::G1Config>(common::BLS12_381_LAMBDA);
    edge_cases::<bn254::G1Config>(common::BN254_LAMBDA);
}

#[test]
fn lengths_must_match() {
    let g = Jacobian::<bls12_381::G1Config>::generator();
    assert_eq!(mul_many_vartime(&[g, g], &[[1, 0, 0, 0]]), Err(MsmError::LengthMismatch { points: 2, scalars: 1 }));
    assert_eq!(mul_many_vartime::<bls12_381::G1Config>(&[], &[]), Ok(vec![]));
}

/// Both settings of the lanes' squaring kernel (`ifma::set_dedicated_squaring`) give the same
/// products, subgroup answers and decoded points (the setting is process-wide: the other tests
/// of this binary may run under either, which they must survive too).
#[test]
fn both_squaring_kernels_agree() {
    use zkforge_curve::bls12_381::{G1Affine, G1Config};
    let mut rng = StdRng::seed_from_u64(99);
    let pts: Vec<G1Affine> = sample_points::<G1Config>(&mut rng, 24);
    let jac: Vec<Jacobian<G1Config>> = pts.iter().map(|p| p.to_jacobian()).collect();
    let ks = random_scalars(&mut rng, 24);
    let bytes: Vec<[u8; 48]> = pts.iter().map(G1Affine::to_compressed).collect();
    let mut runs = Vec::new();
    for on in [true, false] {
        zkforge_msm::ifma::set_dedicated_squaring(on);
        let products: Vec<G1Affine> = mul_many_vartime_with(&jac, &ks, MulManyMethod::Lanes).unwrap().iter().map(|p| p.to_affine()).collect();
        let decoded = zkforge_msm::ifma::bls12_381_g1_from_compressed_batch_unchecked(&bytes);
        let subgroup = zkforge_msm::ifma::bls12_381_g1_in_subgroup_vartime(&pts);
        runs.push((products, decoded, subgroup));
    }
    zkforge_msm::ifma::set_dedicated_squaring(true);
    assert_eq!(runs[0], runs[1]);
    check(&jac, &ks, "after the switch");
    assert!(runs[0].1.iter().zip(&pts).all(|(d, p)| *d == Ok(*p)));
    assert!(runs[0].2.iter().all(|&ok| ok));
}

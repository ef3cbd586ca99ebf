//! map_to_curve against arkworks' Wahby-Boneh maps on fresh random field elements and edge
//! values (0, 1, -1), and the BN254 SVDW map's outputs on the curve.

mod common;

use ark_ec::hashing::curve_maps::wb::WBMap;
use ark_ec::hashing::map_to_curve_hasher::MapToCurve;
use common::*;
use zkforge_curve::hash_to_curve::{map_to_curve_bls12_381_g1, map_to_curve_bls12_381_g2, map_to_curve_bn254_g1};
use zkforge_curve::CurveField;
use zkforge_field::{bls12_381, bn254};

#[test]
fn bls12_381_maps_vs_arkworks() {
    let mut rng = rng();
    let mut us: Vec<bls12_381::Fp> = vec![bls12_381::Fp::ZERO, bls12_381::Fp::ONE, -bls12_381::Fp::ONE];
    us.extend((0..iters(200)).map(|_| bls12_381::Fp::random(&mut rng)));
    for u in &us {
        let ours = map_to_curve_bls12_381_g1(u).to_affine();
        assert!(ours.is_on_curve());
        let theirs = <WBMap<ark_bls12_381::g1::Config> as MapToCurve<ark_bls12_381::G1Projective>>::map_to_curve(fp_to_ark(u)).unwrap();
        assert_eq!(fp_to_ark::<_, 6, ark_bls12_381::Fq>(&ours.x()), theirs.x, "u={u:?}");
        assert_eq!(fp_to_ark::<_, 6, ark_bls12_381::Fq>(&ours.y()), theirs.y);
    }
    let mut us2: Vec<bls12_381::Fp2> = vec![bls12_381::Fp2::ZERO, bls12_381::Fp2::ONE, -bls12_381::Fp2::ONE];
    us2.push(bls12_381::Fp2::new(bls12_381::Fp::ZERO, bls12_381::Fp::ONE));
    us2.extend((0..iters(100)).map(|_| bls12_381::Fp2::random(&mut rng)));
    for u in &us2 {
        let ours = map_to_curve_bls12_381_g2(u).to_affine();
        assert!(ours.is_on_curve());
        let au: ark_bls12_381::Fq2 = fp2_to_ark::<_, 6, ark_bls12_381::Fq, ark_bls12_381::Fq2Config>(u);
        let theirs = <WBMap<ark_bls12_381::g2::Config> as MapToCurve<ark_bls12_381::G2Projective>>::map_to_curve(au).unwrap();
        assert_eq!(fp2_to_ark::<_, 6, ark_bls12_381::Fq, ark_bls12_381::Fq2Config>(&ours.x()), theirs.x);
        assert_eq!(fp2_to_ark::<_, 6, ark_bls12_381::Fq, ark_bls12_381::Fq2Config>(&ours.y()), theirs.y);
    }
}

#[test]
fn bn254_svdw_on_curve() {
    let mut rng = rng();
    let mut us: Vec<bn254::Fp> = vec![bn254::Fp::ZERO, bn254::Fp::ONE, -bn254::Fp::ONE];
    us.extend((0..iters(300)).map(|_| bn254::Fp::random(&mut rng)));
    for u in &us {
        let p = map_to_curve_bn254_g1(u);
        assert!(p.is_on_curve() && !bool::from(p.is_identity()));
        // sgn0(y) = sgn0(u)
        assert_eq!(bool::from(p.y().sgn0()), bool::from(u.sgn0()));
    }
}

/// The variable-time cofactor clearings (the EIP-2537 map precompiles) equal the constant-time
/// ones on every kind of point: map outputs (outside the subgroup, with components of every
/// cofactor prime), the identity, G1's points of order 3, (0, +-2), alone and added to a map
/// output (their ladders meet the doubling and identity cases of the additions), subgroup
/// points, and a G2 point of order dividing the cofactor.
#[test]
fn vartime_cofactor_clearing_equals_constant_time() {
    use zkforge_curve::bls12_381::{clear_cofactor_g1_vartime, clear_cofactor_g2_vartime, G1Config, G1Projective, G2Config, G2Projective};
    use zkforge_curve::{Affine, CurveConfig, Jacobian};
    let mut rng = rng();
    let two = bls12_381::Fp::from_u64(2);
    let order3 = Affine::<G1Config>::new_unchecked(bls12_381::Fp::ZERO, two).to_jacobian();
    assert!(bool::from(order3.double().add(&order3).is_identity()), "(0, 2) has order 3");
    let mut g1: Vec<G1Projective> = vec![Jacobian::IDENTITY, order3, -order3, G1Projective::generator()];
    for _ in 0..iters(40) {
        let m = map_to_curve_bls12_381_g1(&bls12_381::Fp::random(&mut rng));
        g1.push(m);
        g1.push(m.add(&order3));
    }
    for p in &g1 {
        assert_eq!(clear_cofactor_g1_vartime(p), G1Config::clear_cofactor(p), "G1 {p:?}");
    }
    let mut g2: Vec<G2Projective> = vec![Jacobian::IDENTITY, G2Projective::generator()];
    for _ in 0..iters(20) {
        let m = map_to_curve_bls12_381_g2(&bls12_381::Fp2::random(&mut rng));
        g2.push(m);
        // [r] m has order dividing the cofactor: a point with no G2 component
        g2.push(m.mul_bigint_vartime(&<G2Config as CurveConfig>::ORDER));
    }
    for p in &g2 {
        assert_eq!(clear_cofactor_g2_vartime(p), G2Config::clear_cofactor(p), "G2 {p:?}");
    }
}

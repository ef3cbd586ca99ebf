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

//! The FFT against arkworks' `Radix2EvaluationDomain` (same roots of unity: the generators 7
//! and 5 of BLS12-381 and BN254 Fr) and against a naive DFT, on fresh random inputs; round
//! trips, cosets, every size 1..=2^12, the parallel and serial layers, and the typed errors.

use ark_ff::{BigInt, PrimeField};
use ark_poly::{EvaluationDomain, Radix2EvaluationDomain};
use rand::{rngs::StdRng, RngCore, SeedableRng};
use zkforge_field::{FieldConfig, Fp};
use zkforge_poly::{evaluate, Domain, FftConfig, PolyError};

fn rng() -> StdRng {
    let seed = std::env::var("ZKFORGE_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random::<u64>);
    eprintln!("ZKFORGE_SEED={seed}");
    StdRng::seed_from_u64(seed)
}

fn to_ark<C: FieldConfig<4>, A: PrimeField<BigInt = BigInt<4>>>(x: &Fp<C, 4>) -> A {
    A::from_bigint(BigInt(x.to_limbs())).expect("canonical")
}

fn vs_arkworks<C: FieldConfig<4>, A: PrimeField<BigInt = BigInt<4>>>(max_log: u32) {
    let mut rng = rng();
    for log_n in 0..=max_log {
        let n = 1usize << log_n;
        let coeffs: Vec<Fp<C, 4>> = (0..n).map(|_| Fp::random(&mut rng)).collect();
        let acoeffs: Vec<A> = coeffs.iter().map(to_ark).collect();
        let ad = Radix2EvaluationDomain::<A>::new(n).expect("arkworks domain");
        for config in [FftConfig::default(), FftConfig { parallel_from: 1 }, FftConfig { parallel_from: usize::MAX }] {
            let d = Domain::<C, 4>::with_config(n, config).unwrap();
            assert_eq!(to_ark::<C, A>(&d.generator()), ad.group_gen(), "n={n}: same root of unity");
            let mut ours = coeffs.clone();
            d.fft(&mut ours).unwrap();
            let theirs = ad.fft(&acoeffs);
            assert_eq!(ours.iter().map(to_ark::<C, A>).collect::<Vec<_>>(), theirs, "fft n={n} {config:?}");
            // inverse
            let mut back = ours.clone();
            d.ifft(&mut back).unwrap();
            assert_eq!(back, coeffs, "ifft n={n}");
            assert_eq!(ad.ifft(&theirs), acoeffs);
            // coset with a random offset
            let g = Fp::<C, 4>::random(&mut rng);
            let mut c = coeffs.clone();
            d.coset_fft(&mut c, &g).unwrap();
            let cd = ad.get_coset(to_ark(&g)).expect("coset");
            assert_eq!(c.iter().map(to_ark::<C, A>).collect::<Vec<_>>(), cd.fft(&acoeffs), "coset fft n={n}");
            d.coset_ifft(&mut c, &g).unwrap();
            assert_eq!(c, coeffs, "coset ifft n={n}");
        }
    }
}

#[test]
fn bls12_381_fr_vs_arkworks() {
    vs_arkworks::<zkforge_field::bls12_381::FrConfig, ark_bls12_381::Fr>(12);
}

#[test]
fn bn254_fr_vs_arkworks() {
    vs_arkworks::<zkforge_field::bn254::FrConfig, ark_bn254::Fr>(12);
}

/// A naive DFT (Horner at every w^i) and edge inputs: zero, one, the constant p - 1, a single
/// monomial, and a delta in evaluation form.
#[test]
fn against_naive_evaluation_and_edges() {
    type Fr = zkforge_field::bls12_381::Fr;
    let mut rng = rng();
    for n in [1usize, 2, 4, 16, 64] {
        let d = Domain::new(n).unwrap();
        let minus_one = Fr::ZERO - Fr::ONE;
        let cases: Vec<Vec<Fr>> = vec![
            vec![Fr::ZERO; n],
            vec![Fr::ONE; n],
            vec![minus_one; n],
            (0..n).map(|i| if i == n - 1 { Fr::ONE } else { Fr::ZERO }).collect(),
            (0..n).map(|_| Fr::random(&mut rng)).collect(),
        ];
        for coeffs in cases {
            let mut evals = coeffs.clone();
            d.fft(&mut evals).unwrap();
            for (i, e) in evals.iter().enumerate() {
                assert_eq!(*e, evaluate(&coeffs, &d.element(i)), "n={n} i={i}");
            }
        }
        // evaluations (1, 0, ..., 0) are the polynomial with every coefficient 1/n
        let mut delta = vec![Fr::ZERO; n];
        delta[0] = Fr::ONE;
        d.ifft(&mut delta).unwrap();
        let n_inv = Fr::from_u64(n as u64).invert().unwrap();
        assert!(delta.iter().all(|x| *x == n_inv));
        assert_eq!(d.elements().len(), n);
        assert_eq!(d.generator() * d.generator_inv(), Fr::ONE);
        assert_eq!(d.generator().pow_vartime(&[n as u64]), Fr::ONE);
        if n > 1 {
            assert_ne!(d.generator().pow_vartime(&[(n / 2) as u64]), Fr::ONE, "w must be primitive");
        }
    }
    let _ = rng.next_u64();
}

#[test]
fn typed_errors() {
    type C = zkforge_field::bls12_381::FrConfig;
    for n in [0usize, 3, 6, 100] {
        assert_eq!(Domain::<C, 4>::new(n).err(), Some(PolyError::NotPowerOfTwo { n }));
    }
    // BLS12-381 Fr has two-adicity 32, BN254 Fr 28
    assert_eq!(Domain::<C, 4>::new(1 << 33).err(), Some(PolyError::TooLarge { n: 1 << 33, max: 1 << 32 }));
    assert!(matches!(Domain::<zkforge_field::bn254::FrConfig, 4>::new(1 << 29), Err(PolyError::TooLarge { .. })));
    let d = Domain::<C, 4>::new(8).unwrap();
    let mut short = vec![Fp::ZERO; 7];
    assert_eq!(d.fft(&mut short), Err(PolyError::WrongLength { expected: 8, got: 7 }));
    assert_eq!(d.ifft(&mut short), Err(PolyError::WrongLength { expected: 8, got: 7 }));
    let mut ok = vec![Fp::ONE; 8];
    assert_eq!(d.coset_fft(&mut ok, &Fp::ZERO), Err(PolyError::ZeroOffset));
    assert_eq!(d.coset_ifft(&mut ok, &Fp::ZERO), Err(PolyError::ZeroOffset));
}

//! FFT cases: our radix-2 FFT and inverse FFT over BLS12-381 Fr against arkworks'
//! `Radix2EvaluationDomain` (ark-poly 0.5, default features: no `parallel`, so one thread),
//! ours with every layer on the calling thread, at 2^12 (an EIP-4844 blob) and 2^16. Both sides
//! transform the same coefficients; the check compares the evaluations.

use std::hint::black_box;

use ark_ff::{BigInt, PrimeField};
use ark_poly::{EvaluationDomain, Radix2EvaluationDomain};
use rand::{rngs::StdRng, SeedableRng};
use zkforge_field::bls12_381::Fr;
use zkforge_poly::{Domain, FftConfig};

use crate::{agree, timed, Case};


/// Every FFT case.
pub fn cases() -> Vec<Case> {
    let mut rng = StdRng::seed_from_u64(41);
    let mut out = Vec::new();
    for log_n in [12u32, 16] {
        let n = 1usize << log_n;
        let coeffs: Vec<Fr> = (0..n).map(|_| Fr::random(&mut rng)).collect();
        let acoeffs: Vec<ark_bls12_381::Fr> = coeffs.iter().map(|c| ark_bls12_381::Fr::from_bigint(BigInt(c.to_limbs())).expect("canonical")).collect();
        let d = Domain::with_config(n, FftConfig { parallel_from: usize::MAX }).expect("domain");
        let ad = Radix2EvaluationDomain::<ark_bls12_381::Fr>::new(n).expect("domain");
        let mut ours_evals = coeffs.clone();
        d.fft(&mut ours_evals).expect("length");
        let theirs_evals = ad.fft(&acoeffs);
        let check = {
            let ours: Vec<[u64; 4]> = ours_evals.iter().map(|x| x.to_limbs()).collect();
            let theirs: Vec<[u64; 4]> = theirs_evals.iter().map(|x| x.into_bigint().0).collect();
            move || agree(ours, vec![("arkworks", theirs)])
        };
        let (d1, c1, ad1, a1) = (d.clone(), coeffs.clone(), ad, acoeffs.clone());
        let ours = timed(move || {
            let mut v = c1.clone();
            d1.fft(&mut v).expect("length");
            black_box(v);
        });
        let ark = timed(move || {
            let mut v = a1.clone();
            ad1.fft_in_place(&mut v);
            black_box(v);
        });
        out.push(Case { group: "poly", op: "fft", curve: "bls12_381", size: n, threads: 1, ours, peers: vec![("arkworks", ark)], check: None }.with_check(check));
        let (d2, e2, ad2, ae2) = (d, ours_evals.clone(), ad, theirs_evals.clone());
        let check = {
            let (d, e, ad, ae) = (d2.clone(), e2.clone(), ad2, ae2.clone());
            move || {
                let mut v = e;
                d.ifft(&mut v).map_err(|e| e.to_string())?;
                agree(v.iter().map(|x| x.to_limbs()).collect::<Vec<_>>(), vec![("arkworks", ad.ifft(&ae).iter().map(|x| x.into_bigint().0).collect())])
            }
        };
        let ours = timed(move || {
            let mut v = e2.clone();
            d2.ifft(&mut v).expect("length");
            black_box(v);
        });
        let ark = timed(move || {
            let mut v = ae2.clone();
            ad2.ifft_in_place(&mut v);
            black_box(v);
        });
        out.push(Case { group: "poly", op: "ifft", curve: "bls12_381", size: n, threads: 1, ours, peers: vec![("arkworks", ark)], check: None }.with_check(check));
    }
    out
}

//! `KzgSettings::evaluate` (the barycentric formula, accumulated as one fraction in four
//! lanes) against the textbook form: an inverse per term, p(z) = (z^N - 1)/N sum p_i w_i /
//! (z - w_i), on random polynomials and points, a point on the domain, and inputs shorter than
//! 4096 and not a multiple of the lane count.
use rand::{rngs::StdRng, SeedableRng};
use zkforge_field::bls12_381::Fr;
use zkforge_kzg::KzgSettings;

/// The spec's roots: w = 7^((r - 1) / 4096), its powers in bit-reversed order.
fn roots() -> Vec<Fr> {
    let domain = zkforge_poly::Domain::<zkforge_field::bls12_381::FrConfig, 4>::new(4096).unwrap();
    let mut r = domain.elements();
    zkforge_poly::bit_reverse_permute(&mut r);
    r
}

fn textbook(poly: &[Fr], z: &Fr) -> Fr {
    let n = 4096u64;
    let mut sum = Fr::ZERO;
    for (p, w) in poly.iter().zip(roots()) {
        sum += *p * w * Option::<Fr>::from((*z - w).invert()).unwrap();
    }
    sum * (z.pow_vartime(&[n]) - Fr::ONE) * Option::<Fr>::from(Fr::from_u64(n).invert()).unwrap()
}

#[test]
fn evaluate_matches_textbook() {
    let kzg = KzgSettings::mainnet();
    let mut rng = StdRng::seed_from_u64(7);
    for len in [4096usize, 4095, 4093, 1, 0] {
        let poly: Vec<Fr> = (0..len).map(|_| Fr::random(&mut rng)).collect();
        for _ in 0..3 {
            let z = Fr::random(&mut rng);
            assert_eq!(kzg.evaluate(&poly, &z), textbook(&poly, &z), "len {len}");
        }
    }
    // on the domain: the value at that root
    let poly: Vec<Fr> = (0..4096).map(|_| Fr::random(&mut rng)).collect();
    let w5 = roots()[5];
    assert_eq!(kzg.evaluate(&poly, &w5), poly[5]);
}

//! Pairing tests: values equal to arkworks' (both curves) and blst's (BLS12-381) on fresh
//! random points; bilinearity and non-degeneracy; multi-Miller loops and pairing checks with 0
//! to 8 pairs, identities and cancelling pairs; prepared lines equal live ones; Gt encoding.

use ark_ec::pairing::Pairing;
use ark_ff::{BigInt, PrimeField};
use blst::*;
use rand::{rngs::StdRng, RngCore, SeedableRng};
use zkforge_curve::{bls12_381 as bls, bn254 as bn, Affine, CurveConfig, Jacobian};
use zkforge_pairing::{bls12_381 as pb, bn254 as pn, PairingError};

fn rng() -> StdRng {
    let seed = std::env::var("ZKFORGE_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random::<u64>);
    eprintln!("ZKFORGE_SEED={seed}");
    StdRng::seed_from_u64(seed)
}

fn rand_point<C: CurveConfig>(rng: &mut impl RngCore) -> Affine<C> {
    Jacobian::<C>::generator().mul_limbs_vartime(&[rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64() >> 4]).to_affine()
}

fn fq<F: PrimeField<BigInt = BigInt<N>>, const N: usize>(l: [u64; N]) -> F {
    F::from_bigint(BigInt(l)).unwrap()
}

// ---- arkworks conversions ------------------------------------------------------------------

fn ark_bls_g1(p: &bls::G1Affine) -> ark_bls12_381::G1Affine {
    if bool::from(p.is_identity()) {
        return ark_bls12_381::G1Affine::identity();
    }
    ark_bls12_381::G1Affine::new_unchecked(fq(p.x().to_limbs()), fq(p.y().to_limbs()))
}
fn ark_bls_g2(p: &bls::G2Affine) -> ark_bls12_381::G2Affine {
    if bool::from(p.is_identity()) {
        return ark_bls12_381::G2Affine::identity();
    }
    let f2 = |x: &zkforge_field::bls12_381::Fp2| ark_bls12_381::Fq2::new(fq(x.c0.to_limbs()), fq(x.c1.to_limbs()));
    ark_bls12_381::G2Affine::new_unchecked(f2(&p.x()), f2(&p.y()))
}
fn ark_bn_g1(p: &bn::G1Affine) -> ark_bn254::G1Affine {
    ark_bn254::G1Affine::new_unchecked(fq(p.x().to_limbs()), fq(p.y().to_limbs()))
}
fn ark_bn_g2(p: &bn::G2Affine) -> ark_bn254::G2Affine {
    let f2 = |x: &zkforge_field::bn254::Fp2| ark_bn254::Fq2::new(fq(x.c0.to_limbs()), fq(x.c1.to_limbs()));
    ark_bn254::G2Affine::new_unchecked(f2(&p.x()), f2(&p.y()))
}

/// The 12 Fp coefficients of an arkworks Fp12 in our tower order, as limbs.
fn ark_fp12_limbs<P: ark_ff::Fp12Config>(f: &ark_ff::Fp12<P>) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for c6 in [&f.c0, &f.c1] {
        for c2 in [&c6.c0, &c6.c1, &c6.c2] {
            for c in [&c2.c0, &c2.c1] {
                use ark_ff::Field;
                let b = c.to_base_prime_field_elements().next().unwrap();
                out.push(b.into_bigint().as_ref().to_vec());
            }
        }
    }
    out
}
fn our_fp12_limbs<C: zkforge_field::tower::TowerConfig<N>, const N: usize>(f: &zkforge_field::tower::Fp12<C, N>) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for c6 in [&f.c0, &f.c1] {
        for c2 in [&c6.c0, &c6.c1, &c6.c2] {
            out.push(c2.c0.to_limbs().to_vec());
            out.push(c2.c1.to_limbs().to_vec());
        }
    }
    out
}

// ---- blst conversions ----------------------------------------------------------------------

fn blst_g1(p: &bls::G1Affine) -> blst_p1_affine {
    let mut a = blst_p1_affine::default();
    unsafe { blst_p1_deserialize(&mut a, p.to_uncompressed().as_ptr()) };
    a
}
fn blst_g2(p: &bls::G2Affine) -> blst_p2_affine {
    let mut a = blst_p2_affine::default();
    unsafe { blst_p2_deserialize(&mut a, p.to_uncompressed().as_ptr()) };
    a
}

// ---- values against the peers --------------------------------------------------------------

#[test]
fn bls_pairing_equals_arkworks() {
    let mut rng = rng();
    for _ in 0..6 {
        let p = rand_point::<bls::G1Config>(&mut rng);
        let q = rand_point::<bls::G2Config>(&mut rng);
        let ours = pb::pairing(&p, &q);
        let ark = ark_bls12_381::Bls12_381::pairing(ark_bls_g1(&p), ark_bls_g2(&q));
        assert_eq!(our_fp12_limbs(ours.as_fp12()), ark_fp12_limbs(&ark.0));
    }
}

#[test]
fn bn_pairing_equals_arkworks() {
    let mut rng = rng();
    for _ in 0..6 {
        let p = rand_point::<bn::G1Config>(&mut rng);
        let q = rand_point::<bn::G2Config>(&mut rng);
        let ours = pn::pairing(&p, &q);
        let ark = ark_bn254::Bn254::pairing(ark_bn_g1(&p), ark_bn_g2(&q));
        assert_eq!(our_fp12_limbs(ours.as_fp12()), ark_fp12_limbs(&ark.0));
    }
}

#[test]
fn bls_pairing_equals_blst() {
    let mut rng = rng();
    for n in [1usize, 2, 3] {
        let pairs: Vec<(bls::G1Affine, bls::G2Affine)> = (0..n).map(|_| (rand_point(&mut rng), rand_point(&mut rng))).collect();
        let ours = pb::final_exponentiation(&pb::multi_miller_loop(&pairs)).unwrap();
        let bp: Vec<blst_p1_affine> = pairs.iter().map(|(p, _)| blst_g1(p)).collect();
        let bq: Vec<blst_p2_affine> = pairs.iter().map(|(_, q)| blst_g2(q)).collect();
        let pp: Vec<*const blst_p1_affine> = bp.iter().map(|x| x as *const _).collect();
        let qq: Vec<*const blst_p2_affine> = bq.iter().map(|x| x as *const _).collect();
        let mut ml = blst_fp12::default();
        let mut gt = blst_fp12::default();
        let mut bytes = [0u8; 576];
        unsafe {
            blst_miller_loop_n(&mut ml, qq.as_ptr(), pp.as_ptr(), n);
            blst_final_exp(&mut gt, &ml);
            blst_bendian_from_fp12(bytes.as_mut_ptr(), &gt);
        }
        // blst writes the Fp2 coefficients in powers of w: 1, w, w^2 (= v), w^3, w^4, w^5, i.e.
        // our c0.c0, c1.c0, c0.c1, c1.c1, c0.c2, c1.c2
        let ours = ours.to_bytes();
        let chunks: Vec<&[u8]> = ours.chunks(96).collect();
        let reordered: Vec<u8> = [0usize, 3, 1, 4, 2, 5].iter().flat_map(|&i| chunks[i].iter().copied()).collect();
        assert_eq!(reordered.as_slice(), &bytes[..], "{n} pairs");
    }
}

// ---- algebra -------------------------------------------------------------------------------

#[test]
fn bilinear_and_non_degenerate() {
    let mut rng = rng();
    let a = [rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64() >> 8];
    let b = [rng.next_u64(), rng.next_u64(), 0, 0];
    let ab = {
        // a * b mod r via the scalar field
        let fa = zkforge_field::bls12_381::Fr::from_limbs(a).unwrap();
        let fb = zkforge_field::bls12_381::Fr::from_limbs(b).unwrap();
        (fa * fb).to_limbs()
    };
    let g1 = Jacobian::<bls::G1Config>::generator();
    let g2 = Jacobian::<bls::G2Config>::generator();
    let e = pb::pairing(&g1.to_affine(), &g2.to_affine());
    assert!(!e.is_identity());
    assert!(e.pow_vartime(&<zkforge_field::bls12_381::FrConfig as zkforge_field::FieldConfig<4>>::MODULUS).is_identity());
    let lhs = pb::pairing(&g1.mul_limbs_vartime(&a).to_affine(), &g2.mul_limbs_vartime(&b).to_affine());
    assert_eq!(lhs, e.pow_vartime(&ab));
    assert_eq!(lhs, e.pow(&ab));

    let a = [rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64() >> 8];
    let b = [rng.next_u64(), rng.next_u64(), 0, 0];
    let fa = zkforge_field::bn254::Fr::from_limbs(a).unwrap();
    let fb = zkforge_field::bn254::Fr::from_limbs(b).unwrap();
    let ab = (fa * fb).to_limbs();
    let g1 = Jacobian::<bn::G1Config>::generator();
    let g2 = Jacobian::<bn::G2Config>::generator();
    let e = pn::pairing(&g1.to_affine(), &g2.to_affine());
    assert!(!e.is_identity());
    let lhs = pn::pairing(&g1.mul_limbs_vartime(&a).to_affine(), &g2.mul_limbs_vartime(&b).to_affine());
    assert_eq!(lhs, e.pow_vartime(&ab));
    assert_eq!(lhs, e.pow(&ab));
}

/// Random pairs whose pairings multiply to one: (a_i P, b_i Q) with a last pair cancelling the
/// sum of the a_i b_i.
fn cancelling_bls(rng: &mut impl RngCore, n: usize) -> Vec<(bls::G1Affine, bls::G2Affine)> {
    use zkforge_field::bls12_381::Fr;
    let g1 = Jacobian::<bls::G1Config>::generator();
    let g2 = Jacobian::<bls::G2Config>::generator();
    let mut acc = Fr::ZERO;
    let mut v = Vec::new();
    for _ in 0..n.saturating_sub(1) {
        let (a, b) = (Fr::random(&mut *rng), Fr::random(&mut *rng));
        acc += a * b;
        v.push(((g1 * a).to_affine(), (g2 * b).to_affine()));
    }
    if n > 0 {
        v.push(((g1 * (-acc)).to_affine(), g2.to_affine()));
    }
    v
}

fn cancelling_bn(rng: &mut impl RngCore, n: usize) -> Vec<(bn::G1Affine, bn::G2Affine)> {
    use zkforge_field::bn254::Fr;
    let g1 = Jacobian::<bn::G1Config>::generator();
    let g2 = Jacobian::<bn::G2Config>::generator();
    let mut acc = Fr::ZERO;
    let mut v = Vec::new();
    for _ in 0..n.saturating_sub(1) {
        let (a, b) = (Fr::random(&mut *rng), Fr::random(&mut *rng));
        acc += a * b;
        v.push(((g1 * a).to_affine(), (g2 * b).to_affine()));
    }
    if n > 0 {
        v.push(((g1 * (-acc)).to_affine(), g2.to_affine()));
    }
    v
}

#[test]
fn pairing_check_0_to_8_pairs_bls() {
    let mut rng = rng();
    assert!(pb::pairing_check(&[]));
    for n in 1..=8 {
        let mut pairs = cancelling_bls(&mut rng, n);
        assert!(pb::pairing_check(&pairs), "{n} cancelling pairs");
        let prepared: Vec<pb::G2Prepared> = pairs.iter().map(|(_, q)| pb::G2Prepared::new(q)).collect();
        let with_prep: Vec<(bls::G1Affine, &pb::G2Prepared)> = pairs.iter().zip(&prepared).map(|((p, _), q)| (*p, q)).collect();
        assert!(pb::pairing_check_prepared(&with_prep));
        // identities anywhere change nothing
        pairs.insert(rng.next_u64() as usize % (pairs.len() + 1), (bls::G1Affine::IDENTITY, rand_point(&mut rng)));
        pairs.insert(rng.next_u64() as usize % (pairs.len() + 1), (rand_point(&mut rng), bls::G2Affine::IDENTITY));
        assert!(pb::pairing_check(&pairs));
        // breaking one pair breaks the check
        let k = rng.next_u64() as usize % pairs.len();
        let (p, q) = pairs[k];
        if !bool::from(p.is_identity()) && !bool::from(q.is_identity()) {
            pairs[k] = (p.to_jacobian().double().to_affine(), q);
            assert!(!pb::pairing_check(&pairs), "{n} pairs, one doubled");
        }
    }
    // only identities: the product is one
    assert!(pb::pairing_check(&[(bls::G1Affine::IDENTITY, bls::G2Affine::IDENTITY)]));
    let g = (Jacobian::<bls::G1Config>::generator().to_affine(), Jacobian::<bls::G2Config>::generator().to_affine());
    assert!(!pb::pairing_check(&[g]));
    // e(P, Q) e(-P, Q) = 1: P and -P in one batch
    assert!(pb::pairing_check(&[g, (-g.0, g.1)]));
    assert!(pb::pairing_check(&[g, (g.0, -g.1)]));
}

#[test]
fn pairing_check_0_to_8_pairs_bn() {
    let mut rng = rng();
    assert!(pn::pairing_check(&[]));
    for n in 1..=8 {
        let mut pairs = cancelling_bn(&mut rng, n);
        assert!(pn::pairing_check(&pairs), "{n} cancelling pairs");
        let prepared: Vec<pn::G2Prepared> = pairs.iter().map(|(_, q)| pn::G2Prepared::new(q)).collect();
        let with_prep: Vec<(bn::G1Affine, &pn::G2Prepared)> = pairs.iter().zip(&prepared).map(|((p, _), q)| (*p, q)).collect();
        assert!(pn::pairing_check_prepared(&with_prep));
        pairs.insert(rng.next_u64() as usize % (pairs.len() + 1), (bn::G1Affine::IDENTITY, rand_point(&mut rng)));
        pairs.insert(rng.next_u64() as usize % (pairs.len() + 1), (rand_point(&mut rng), bn::G2Affine::IDENTITY));
        assert!(pn::pairing_check(&pairs));
        let k = rng.next_u64() as usize % pairs.len();
        let (p, q) = pairs[k];
        if !bool::from(p.is_identity()) && !bool::from(q.is_identity()) {
            pairs[k] = (p, q.to_jacobian().double().to_affine());
            assert!(!pn::pairing_check(&pairs), "{n} pairs, one doubled");
        }
    }
    let g = (Jacobian::<bn::G1Config>::generator().to_affine(), Jacobian::<bn::G2Config>::generator().to_affine());
    assert!(!pn::pairing_check(&[g]));
    assert!(pn::pairing_check(&[g, (-g.0, g.1)]));
}

#[test]
fn multi_miller_loop_is_product_of_singles() {
    let mut rng = rng();
    let pairs: Vec<(bls::G1Affine, bls::G2Affine)> = (0..3).map(|_| (rand_point(&mut rng), rand_point(&mut rng))).collect();
    let multi = pb::final_exponentiation(&pb::multi_miller_loop(&pairs)).unwrap();
    let prod = pairs.iter().fold(pb::Gt::IDENTITY, |acc, (p, q)| acc * pb::pairing(p, q));
    assert_eq!(multi, prod);
    // prepared lines: raw ones give the live Miller-loop value exactly (same lines), normalized
    // ones (the default) the same value up to a factor the final exponentiation removes
    use zkforge_pairing::config::{set_prepared_lines, PreparedLines};
    set_prepared_lines(PreparedLines::Raw);
    let prepared: Vec<pb::G2Prepared> = pairs.iter().map(|(_, q)| pb::G2Prepared::new(q)).collect();
    let with_prep: Vec<(bls::G1Affine, &pb::G2Prepared)> = pairs.iter().zip(&prepared).map(|((p, _), q)| (*p, q)).collect();
    assert_eq!(pb::multi_miller_loop_prepared(&with_prep), pb::multi_miller_loop(&pairs));
    set_prepared_lines(PreparedLines::Auto);
    let prepared: Vec<pb::G2Prepared> = pairs.iter().map(|(_, q)| pb::G2Prepared::new(q)).collect();
    let with_prep: Vec<(bls::G1Affine, &pb::G2Prepared)> = pairs.iter().zip(&prepared).map(|((p, _), q)| (*p, q)).collect();
    assert_eq!(pb::final_exponentiation(&pb::multi_miller_loop_prepared(&with_prep)), Some(multi));

    let pairs: Vec<(bn::G1Affine, bn::G2Affine)> = (0..3).map(|_| (rand_point(&mut rng), rand_point(&mut rng))).collect();
    let multi = pn::final_exponentiation(&pn::multi_miller_loop(&pairs)).unwrap();
    let prod = pairs.iter().fold(pn::Gt::IDENTITY, |acc, (p, q)| acc * pn::pairing(p, q));
    assert_eq!(multi, prod);
    set_prepared_lines(PreparedLines::Raw);
    let prepared: Vec<pn::G2Prepared> = pairs.iter().map(|(_, q)| pn::G2Prepared::new(q)).collect();
    let with_prep: Vec<(bn::G1Affine, &pn::G2Prepared)> = pairs.iter().zip(&prepared).map(|((p, _), q)| (*p, q)).collect();
    assert_eq!(pn::multi_miller_loop_prepared(&with_prep), pn::multi_miller_loop(&pairs));
    set_prepared_lines(PreparedLines::Auto);
    let prepared: Vec<pn::G2Prepared> = pairs.iter().map(|(_, q)| pn::G2Prepared::new(q)).collect();
    let with_prep: Vec<(bn::G1Affine, &pn::G2Prepared)> = pairs.iter().zip(&prepared).map(|((p, _), q)| (*p, q)).collect();
    assert_eq!(pn::final_exponentiation(&pn::multi_miller_loop_prepared(&with_prep)), Some(multi));
}

#[test]
fn identity_pairs_give_one() {
    let mut rng = rng();
    let q: bls::G2Affine = rand_point(&mut rng);
    assert!(pb::pairing(&bls::G1Affine::IDENTITY, &q).is_identity());
    let p: bls::G1Affine = rand_point(&mut rng);
    assert!(pb::pairing(&p, &bls::G2Affine::IDENTITY).is_identity());
    assert!(pn::pairing(&bn::G1Affine::IDENTITY, &rand_point(&mut rng)).is_identity());
    assert_eq!(pb::final_exponentiation(&zkforge_field::bls12_381::Fp12::ZERO), None);
}

#[test]
fn gt_encoding_round_trip_and_rejections() {
    let mut rng = rng();
    let e = pb::pairing(&rand_point(&mut rng), &rand_point(&mut rng));
    let bytes = e.to_bytes();
    assert_eq!(bytes.len(), 576);
    assert_eq!(pb::Gt::from_bytes(&bytes).unwrap(), e);
    assert_eq!(pb::Gt::from_bytes(&bytes[..575]), Err(PairingError::WrongLength { expected: 576, got: 575 }));
    // a coefficient >= p
    let mut bad = bytes.clone();
    bad[..48].copy_from_slice(&zkforge_field::bls12_381::Fp::ZERO.to_bytes_be());
    bad[0] = 0x1a;
    bad[1] = 0x01;
    bad[2] = 0x12;
    for b in &mut bad[3..48] {
        *b = 0xff;
    }
    assert_eq!(pb::Gt::from_bytes(&bad), Err(PairingError::NonCanonical));
    // one flipped bit leaves Gt
    let mut bad = bytes.clone();
    bad[100] ^= 1;
    assert_eq!(pb::Gt::from_bytes(&bad), Err(PairingError::NotInGt));
    // a random Fp12 element is not in Gt; neither is zero; one is
    let f = zkforge_field::bls12_381::Fp12::random(&mut rng);
    assert_eq!(pb::Gt::from_bytes(&pb::Gt::IDENTITY.to_bytes()).unwrap(), pb::Gt::IDENTITY);
    assert_eq!(pb::Gt::from_bytes(&vec![0u8; 576]), Err(PairingError::NotInGt));
    let _ = f;
    // a cyclotomic element outside the order-r subgroup: the easy part of a random element
    let g = pb::Gt::generator();
    assert_eq!(pb::Gt::from_bytes(&g.to_bytes()).unwrap(), g);

    let e = pn::pairing(&rand_point(&mut rng), &rand_point(&mut rng));
    let bytes = e.to_bytes();
    assert_eq!(bytes.len(), 384);
    assert_eq!(pn::Gt::from_bytes(&bytes).unwrap(), e);
    let mut bad = bytes.clone();
    bad[200] ^= 4;
    assert_eq!(pn::Gt::from_bytes(&bad), Err(PairingError::NotInGt));
    assert_eq!(pn::Gt::from_bytes(&bytes[1..]), Err(PairingError::WrongLength { expected: 384, got: 383 }));
}

/// The premises of the Frobenius Gt membership tests (`config::GtMembership::Frobenius`),
/// recomputed: on BLS12-381 r = x^4 - x^2 + 1 and p = x (mod r); on BN254 p = 6u^2 (mod r)
/// and gcd(Phi12(p), Phi12(6u^2)) = r, with Phi12(t) = t^4 - t^2 + 1.
#[test]
fn gt_frobenius_test_premises() {
    use num_bigint::BigInt;
    use zkforge_field::FieldConfig;
    let big = |limbs: &[u64]| limbs.iter().rev().fold(BigInt::from(0u8), |acc, &l| (acc << 64) + BigInt::from(l));
    let phi = |t: &BigInt| t.pow(4) - t.pow(2) + 1;
    let gcd = |a: &BigInt, b: &BigInt| {
        let (mut a, mut b) = (a.clone(), b.clone());
        while b != BigInt::from(0u8) {
            let t = &a % &b;
            a = b;
            b = t;
        }
        a
    };
    let modulo = |a: &BigInt, m: &BigInt| ((a % m) + m) % m;
    // BLS12-381
    let x = -BigInt::from(pb::X_ABS);
    let r = big(&bls::G1Config::ORDER);
    let p = big(&<zkforge_field::bls12_381::FpConfig as FieldConfig<6>>::MODULUS);
    assert_eq!(phi(&x), r);
    assert_eq!(modulo(&p, &r), modulo(&x, &r));
    // BN254
    let u = BigInt::from(pn::U);
    let r = big(&bn::G1Config::ORDER);
    let p = big(&<zkforge_field::bn254::FpConfig as FieldConfig<4>>::MODULUS);
    let t = BigInt::from(6u8) * &u * &u;
    assert_eq!(modulo(&p, &r), t);
    assert_eq!(gcd(&phi(&p), &phi(&t)), r);
}

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

/// `KzgConfig::fused_blob_decode` (the blob decoded inside the evaluation) against the decode
/// first: the same verdicts on valid and wrong proofs, single and batched, on random blobs whose
/// elements include 0, 1 and r - 1, and the same errors for an element equal to r, 2^256 - 1, and
/// a short blob.
#[test]
fn fused_blob_decode_matches_decode_first() {
    use zkforge_kzg::{KzgConfig, KzgError};
    let [fused, plain] = [true, false].map(|fused_blob_decode| KzgSettings::mainnet_with(&KzgConfig { fused_blob_decode, ..Default::default() }).unwrap());
    let mut rng = StdRng::seed_from_u64(11);
    let r_minus_1 = (-Fr::ONE).to_bytes_be();
    let blobs: Vec<Vec<u8>> = (0..3)
        .map(|b| {
            let mut blob: Vec<u8> = (0..4096).flat_map(|_| Fr::random(&mut rng).to_bytes_be().as_ref().to_vec()).collect();
            blob[32 * b..32 * b + 32].fill(0);
            blob[32 * 100 + 31] = 1;
            blob[32 * 100..32 * 100 + 31].fill(0);
            blob[32 * 4095..].copy_from_slice(r_minus_1.as_ref());
            blob
        })
        .collect();
    let commitments: Vec<[u8; 48]> = blobs.iter().map(|b| plain.blob_to_kzg_commitment(b).unwrap()).collect();
    let proofs: Vec<[u8; 48]> = blobs.iter().zip(&commitments).map(|(b, c)| plain.compute_blob_kzg_proof(b, c).unwrap()).collect();
    for kzg in [&fused, &plain] {
        for i in 0..3 {
            assert_eq!(kzg.verify_blob_kzg_proof(&blobs[i], &commitments[i], &proofs[i]), Ok(true));
            assert_eq!(kzg.verify_blob_kzg_proof(&blobs[i], &commitments[i], &proofs[(i + 1) % 3]), Ok(false));
        }
        let (b, c, p): (Vec<&[u8]>, Vec<&[u8]>, Vec<&[u8]>) = (blobs.iter().map(|x| &x[..]).collect(), commitments.iter().map(|x| &x[..]).collect(), proofs.iter().map(|x| &x[..]).collect());
        assert_eq!(kzg.verify_blob_kzg_proof_batch(&b, &c, &p), Ok(true));
        let swapped = [p[1], p[0], p[2]];
        assert_eq!(kzg.verify_blob_kzg_proof_batch(&b, &c, &swapped), Ok(false));
        // non-canonical elements and a wrong length: the same error from both paths
        let r_bytes: [u8; 32] = {
            let mut x = r_minus_1.as_ref().to_vec();
            x[31] += 1; // r - 1 ends in ...00, so r = r - 1 + 1 without a carry
            x.try_into().unwrap()
        };
        for bad in [r_bytes, [0xff; 32]] {
            let mut blob = blobs[0].clone();
            blob[32 * 7..32 * 8].copy_from_slice(&bad);
            assert_eq!(kzg.verify_blob_kzg_proof(&blob, &commitments[0], &proofs[0]), Err(KzgError::NonCanonicalFieldElement));
            assert_eq!(kzg.verify_blob_kzg_proof_batch(&[&blob, b[1]], &c[..2], &p[..2]), Err(KzgError::NonCanonicalFieldElement));
        }
        assert!(matches!(kzg.verify_blob_kzg_proof(&blobs[0][..4096 * 32 - 1], &commitments[0], &proofs[0]), Err(KzgError::InvalidLength { .. })));
    }
}

/// `KzgConfig::threaded_batch_tail` (subgroup tests inside each thread's runs of blobs, the
/// three MSMs side by side) against the tests and MSMs after the parallel part, and against one
/// thread: nine blobs on two and three threads (runs of 4, 4, 1 and 4, 4, 1), the same verdicts
/// on a valid batch and on swapped proofs, the subgroup error for a commitment (first run) or a
/// proof (last run) on the curve but outside G1, and a non-canonical blob in the last run taking
/// precedence over a subgroup failure in the first.
#[test]
fn threaded_batch_tail_gives_the_same_answers_and_errors() {
    use zkforge_kzg::{KzgConfig, KzgError};
    let settings: Vec<KzgSettings> = [(1, true), (2, true), (2, false), (3, true), (3, false)]
        .into_iter()
        .map(|(threads, threaded_batch_tail)| KzgSettings::mainnet_with(&KzgConfig { threads, threaded_batch_tail, ..Default::default() }).unwrap())
        .collect();
    let mut rng = StdRng::seed_from_u64(21);
    let blobs: Vec<Vec<u8>> = (0..9).map(|_| (0..4096).flat_map(|_| Fr::random(&mut rng).to_bytes_be().as_ref().to_vec()).collect()).collect();
    let commitments: Vec<[u8; 48]> = blobs.iter().map(|b| settings[0].blob_to_kzg_commitment(b).unwrap()).collect();
    let proofs: Vec<[u8; 48]> = blobs.iter().zip(&commitments).map(|(b, c)| settings[0].compute_blob_kzg_proof(b, c).unwrap()).collect();
    // a point on the curve outside G1: the SSWU map without cofactor clearing
    let off = zkforge_curve::hash_to_curve::map_to_curve_bls12_381_g1(&zkforge_field::bls12_381::Fp::ONE).to_affine();
    assert!(!off.is_in_subgroup());
    let off = off.to_compressed();
    let mut bad_blob = blobs[8].clone();
    bad_blob[32 * 9..32 * 10].fill(0xff);
    let b: Vec<&[u8]> = blobs.iter().map(|x| &x[..]).collect();
    let c: Vec<&[u8]> = commitments.iter().map(|x| &x[..]).collect();
    let p: Vec<&[u8]> = proofs.iter().map(|x| &x[..]).collect();
    let not_in_g1 = Err(KzgError::InvalidPoint(zkforge_curve::CurveError::NotInSubgroup));
    for (k, kzg) in settings.iter().enumerate() {
        assert_eq!(kzg.verify_blob_kzg_proof_batch(&b, &c, &p), Ok(true), "settings {k}");
        let mut swapped = p.clone();
        swapped.swap(2, 6);
        assert_eq!(kzg.verify_blob_kzg_proof_batch(&b, &c, &swapped), Ok(false), "settings {k}");
        let mut c_off = c.clone();
        c_off[0] = &off;
        assert_eq!(kzg.verify_blob_kzg_proof_batch(&b, &c_off, &p), not_in_g1, "settings {k}");
        let mut p_off = p.clone();
        p_off[8] = &off;
        assert_eq!(kzg.verify_blob_kzg_proof_batch(&b, &c, &p_off), not_in_g1, "settings {k}");
        let mut b_bad = b.clone();
        b_bad[8] = &bad_blob;
        assert_eq!(kzg.verify_blob_kzg_proof_batch(&b_bad, &c_off, &p), Err(KzgError::NonCanonicalFieldElement), "settings {k}");
    }
}

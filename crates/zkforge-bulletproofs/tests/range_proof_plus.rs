//! Bulletproofs+ on all three groups: completeness (edge values, bit sizes that are and are
//! not powers of two, aggregation with padding), soundness (wrong bit size, transcript,
//! commitment order; every field of the proof altered), batch verification (mixed shapes, one
//! bad proof, with and without tables), sizes, and the decoder's typed errors.

mod common;

use common::value;
use merlin::Transcript;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zkforge_bulletproofs::{
    CtMsmMethod,
    verify_batch_plus, BatchItemPlus, Bls12381G1, Bn254G1, BpGroup, BulletproofError, BulletproofGens, Commitment, GeneratorTables, PedersenGens,
    ProverConfig, RangeProofPlus, Ristretto255,
};


fn prove<G: BpGroup>(bp: &BulletproofGens<G>, pc: &PedersenGens<G>, v: &[u64], n: usize, rng: &mut ChaCha20Rng) -> (RangeProofPlus<G>, Vec<Commitment<G>>) {
    let b: Vec<G::Scalar> = v.iter().map(|_| G::scalar_random(rng)).collect();
    RangeProofPlus::prove(bp, pc, &mut Transcript::new(b"plus"), v, &b, n, rng).unwrap()
}

fn verify<G: BpGroup>(bp: &BulletproofGens<G>, pc: &PedersenGens<G>, p: &RangeProofPlus<G>, c: &[Commitment<G>], n: usize) -> Result<(), BulletproofError> {
    p.verify(bp, pc, &mut Transcript::new(b"plus"), c, n)
}

fn check_completeness<G: BpGroup>() {
    let bp = BulletproofGens::<G>::new(64, 8);
    let pc = PedersenGens::<G>::default();
    let mut rng = ChaCha20Rng::seed_from_u64(17);
    for &n in &[1usize, 2, 5, 8, 16, 31, 32, 64] {
        let max = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        for v in [0, max, value(&mut rng, n)] {
            let (p, c) = prove(&bp, &pc, &[v], n, &mut rng);
            verify(&bp, &pc, &p, &c, n).unwrap_or_else(|e| panic!("{} n={n} v={v}: {e}", G::NAME));
            let back = RangeProofPlus::<G>::from_bytes(&p.to_bytes()).unwrap();
            assert_eq!(back, p);
        }
        if n < 64 {
            let b = [G::scalar_from_u64(1)];
            let r = RangeProofPlus::<G>::prove(&bp, &pc, &mut Transcript::new(b"plus"), &[1u64 << n], &b, n, &mut rng);
            assert_eq!(r.unwrap_err(), BulletproofError::ValueOutOfRange { index: 0, bits: n });
        }
    }
    for &m in &[2usize, 3, 4, 8] {
        for &n in &[8usize, 12, 64] {
            let v: Vec<u64> = (0..m).map(|_| value(&mut rng, n)).collect();
            let (p, c) = prove(&bp, &pc, &v, n, &mut rng);
            verify(&bp, &pc, &p, &c, n).unwrap_or_else(|e| panic!("{} n={n} m={m}: {e}", G::NAME));
            let mut swapped = c.clone();
            swapped.swap(0, 1);
            if swapped != c {
                assert!(verify(&bp, &pc, &p, &swapped, n).is_err());
            }
            assert!(verify(&bp, &pc, &p, &c[..m - 1], n).is_err());
        }
    }
    // size: 3 points, 3 scalars, 2 log2(n' m') points
    let (p, _) = prove(&bp, &pc, &[5], 64, &mut rng);
    assert_eq!(p.to_bytes().len(), (3 + 12) * G::POINT_BYTES + 96);
}

fn check_soundness<G: BpGroup>() {
    let bp = BulletproofGens::<G>::new(64, 2);
    let pc = PedersenGens::<G>::default();
    let mut rng = ChaCha20Rng::seed_from_u64(18);
    let (p, c) = prove(&bp, &pc, &[1000, 70000], 32, &mut rng);
    verify(&bp, &pc, &p, &c, 32).unwrap();
    assert!(verify(&bp, &pc, &p, &c, 16).is_err());
    assert!(verify(&bp, &pc, &p, &c, 31).is_err());
    assert!(p.verify(&bp, &pc, &mut Transcript::new(b"other"), &c, 32).is_err());
    let other = Commitment::<G>::new(pc.commit(G::scalar_from_u64(1000), G::scalar_from_u64(5)));
    assert!(verify(&bp, &pc, &p, &[other, c[1].clone()], 32).is_err());
    // the proof is Bulletproofs+, not a Bulletproof: the other verifier rejects its bytes
    assert!(zkforge_bulletproofs::RangeProof::<G>::from_bytes(&p.to_bytes()).map(|q| q.verify_multiple(&bp, &pc, &mut Transcript::new(b"plus"), &c, 32).is_err()).unwrap_or(true));
    let bytes = p.to_bytes();
    let pb = G::POINT_BYTES;
    let rounds = (bytes.len() - 3 * pb - 96) / (2 * pb);
    let mut fields: Vec<(usize, bool)> = (0..3).map(|k| (k * pb, true)).collect();
    fields.extend((0..3).map(|k| (3 * pb + 32 * k, false)));
    fields.extend((0..2 * rounds).map(|k| (3 * pb + 96 + k * pb, true)));
    let replacement = G::compress(&pc.b);
    for (off, is_point) in fields {
        let mut t = bytes.clone();
        if is_point {
            t[off..off + pb].copy_from_slice(&replacement);
        } else {
            t[off] ^= 1;
        }
        if let Ok(q) = RangeProofPlus::<G>::from_bytes(&t) {
            assert!(verify(&bp, &pc, &q, &c, 32).is_err(), "{}: field at {off} altered still verifies", G::NAME);
        }
    }
}

fn check_batch<G: BpGroup>() {
    let bp = BulletproofGens::<G>::new(64, 4);
    let pc = PedersenGens::<G>::default();
    let mut rng = ChaCha20Rng::seed_from_u64(19);
    let shapes = [(64usize, 1usize), (32, 2), (8, 4), (10, 3), (64, 4), (64, 1)];
    let proofs: Vec<_> = shapes
        .iter()
        .map(|&(n, m)| {
            let v: Vec<u64> = (0..m).map(|_| value(&mut rng, n)).collect();
            prove(&bp, &pc, &v, n, &mut rng)
        })
        .collect();
    let items = |bad: Option<usize>| -> Vec<BatchItemPlus<'_, G>> {
        proofs
            .iter()
            .zip(&shapes)
            .enumerate()
            .map(|(k, ((p, c), &(n, _)))| BatchItemPlus { proof: p, commitments: c, n, transcript: Transcript::new(if Some(k) == bad { b"bad!" } else { b"plus" }) })
            .collect()
    };
    verify_batch_plus(&bp, &pc, None, &mut items(None), &mut rng).unwrap();
    for bad in 0..shapes.len() {
        assert!(verify_batch_plus(&bp, &pc, None, &mut items(Some(bad)), &mut rng).is_err(), "{} bad proof {bad} passed", G::NAME);
    }
    let t = GeneratorTables::new(&bp, &pc, 64, 4).unwrap();
    verify_batch_plus(&bp, &pc, Some(&t), &mut items(None), &mut rng).unwrap();
    assert!(verify_batch_plus(&bp, &pc, Some(&t), &mut items(Some(3)), &mut rng).is_err());
    let t1 = GeneratorTables::new(&bp, &pc, 64, 1).unwrap();
    let (p, c) = &proofs[0];
    p.verify_with(&bp, &pc, Some(&t1), &mut Transcript::new(b"plus"), c, 64).unwrap();
}

/// Every rebase ratio under the default MSM method, and every constant-time MSM method at
/// the ratios where the rounds' MSMs are longest (None) and at the defaults' (4, 8).
fn knob_values() -> Vec<(Option<usize>, CtMsmMethod)> {
    let mut v: Vec<_> = [None, Some(0), Some(1), Some(2), Some(3), Some(4), Some(8), Some(1 << 20)].into_iter().map(|r| (r, CtMsmMethod::Auto)).collect();
    for r in [None, Some(4), Some(8)] {
        v.push((r, CtMsmMethod::Straus));
        v.push((r, CtMsmMethod::Lanes));
    }
    v
}

fn check_rebase_knob<G: BpGroup>() {
    // every value of the prover's knob gives the same proof from the same draws
    let bp = BulletproofGens::<G>::new(64, 16);
    let pc = PedersenGens::<G>::default();
    let mut rng = ChaCha20Rng::seed_from_u64(21);
    for &(n, m) in &[(64usize, 1usize), (16, 4), (8, 16), (5, 3)] {
        let v: Vec<u64> = (0..m).map(|_| value(&mut rng, n)).collect();
        let b: Vec<G::Scalar> = v.iter().map(|_| G::scalar_random(&mut rng)).collect();
        let seed: u64 = rng.gen();
        let mut first: Option<Vec<u8>> = None;
        for (ratio, ct_msm) in knob_values() {
            let cfg = ProverConfig { rebase_ratio: ratio, ct_msm, fold_msm: ct_msm };
            let (p, c) = RangeProofPlus::<G>::prove_with(&bp, &pc, &cfg, &mut Transcript::new(b"plus"), &v, &b, n, &mut ChaCha20Rng::seed_from_u64(seed)).unwrap();
            verify(&bp, &pc, &p, &c, n).unwrap_or_else(|e| panic!("{} ratio {ratio:?}: {e}", G::NAME));
            match &first {
                None => first = Some(p.to_bytes()),
                Some(f) => assert_eq!(&p.to_bytes(), f, "{} n={n} m={m} ratio {ratio:?} {ct_msm:?}", G::NAME),
            }
        }
    }
}

fn check_decoding<G: BpGroup>() {
    let bp = BulletproofGens::<G>::new(8, 1);
    let pc = PedersenGens::<G>::default();
    let mut rng = ChaCha20Rng::seed_from_u64(20);
    let (p, c) = prove(&bp, &pc, &[5], 8, &mut rng);
    let bytes = p.to_bytes();
    let pb = G::POINT_BYTES;
    for len in [0, 1, bytes.len() - 1, bytes.len() + 1, bytes.len() + pb, 3 * pb + 96 + 26 * pb] {
        let mut t = bytes.clone();
        t.resize(len, 0);
        assert!(matches!(RangeProofPlus::<G>::from_bytes(&t), Err(BulletproofError::WrongLength { .. })), "{} len {len}", G::NAME);
    }
    let mut t = bytes.clone();
    t[3 * pb..3 * pb + 32].copy_from_slice(&[0xff; 32]);
    assert_eq!(RangeProofPlus::<G>::from_bytes(&t).unwrap_err(), BulletproofError::NonCanonicalScalar { offset: 3 * pb });
    for off in [0, 2 * pb, 3 * pb + 96] {
        let mut t = bytes.clone();
        t[off..off + pb].copy_from_slice(&vec![0xff; pb]);
        assert_eq!(RangeProofPlus::<G>::from_bytes(&t).unwrap_err(), BulletproofError::InvalidPoint { group: G::NAME, offset: off });
    }
    let mut t = bytes.clone();
    t[..pb].copy_from_slice(&G::compress(&G::identity()));
    let q = RangeProofPlus::<G>::from_bytes(&t).unwrap();
    assert_eq!(verify(&bp, &pc, &q, &c, 8).unwrap_err(), BulletproofError::VerificationFailed);
    // n = 1: no rounds
    let (p1, c1) = prove(&bp, &pc, &[1], 1, &mut rng);
    assert_eq!(p1.to_bytes().len(), 3 * pb + 96);
    verify(&bp, &pc, &RangeProofPlus::from_bytes(&p1.to_bytes()).unwrap(), &c1, 1).unwrap();
}

mod ristretto {
    use super::*;
    #[test]
    fn completeness() {
        check_completeness::<Ristretto255>();
    }
    #[test]
    fn soundness() {
        check_soundness::<Ristretto255>();
    }
    #[test]
    fn batch() {
        check_batch::<Ristretto255>();
    }
    #[test]
    fn decoding() {
        check_decoding::<Ristretto255>();
    }
    #[test]
    fn rebase_knob() {
        check_rebase_knob::<Ristretto255>();
    }
}

mod bls12_381 {
    use super::*;
    #[test]
    fn completeness() {
        check_completeness::<Bls12381G1>();
    }
    #[test]
    fn soundness() {
        check_soundness::<Bls12381G1>();
    }
    #[test]
    fn batch() {
        check_batch::<Bls12381G1>();
    }
    #[test]
    fn decoding() {
        check_decoding::<Bls12381G1>();
    }
    #[test]
    fn rebase_knob() {
        check_rebase_knob::<Bls12381G1>();
    }
}

mod bn254 {
    use super::*;
    #[test]
    fn completeness() {
        check_completeness::<Bn254G1>();
    }
    #[test]
    fn soundness() {
        check_soundness::<Bn254G1>();
    }
    #[test]
    fn batch() {
        check_batch::<Bn254G1>();
    }
    #[test]
    fn decoding() {
        check_decoding::<Bn254G1>();
    }
    #[test]
    fn rebase_knob() {
        check_rebase_knob::<Bn254G1>();
    }
}

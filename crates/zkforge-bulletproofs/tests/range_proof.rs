//! Range proofs on all three groups: completeness (edge values, every bit size 1..=64 class,
//! aggregation with and without padding), soundness checks (out-of-range values, the wrong
//! bit size, the wrong commitment, every field of the proof altered), batch verification
//! (mixed shapes, one bad proof), and the decoder's typed errors.

mod common;

use common::value;
use merlin::Transcript;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zkforge_bulletproofs::{
    CtMsmMethod,
    verify_batch, BatchItem, Bls12381G1, Bn254G1, BpGroup, BulletproofError, BulletproofGens, Commitment, PedersenGens, RangeProof,
    ProverConfig, Ristretto255, GeneratorTables,
};


fn prove<G: BpGroup>(bp: &BulletproofGens<G>, pc: &PedersenGens<G>, v: &[u64], n: usize, rng: &mut ChaCha20Rng) -> (RangeProof<G>, Vec<Commitment<G>>) {
    let b: Vec<G::Scalar> = v.iter().map(|_| G::scalar_random(rng)).collect();
    RangeProof::prove_multiple_with_rng(bp, pc, &mut Transcript::new(b"test"), v, &b, n, rng).unwrap()
}

fn verify<G: BpGroup>(bp: &BulletproofGens<G>, pc: &PedersenGens<G>, p: &RangeProof<G>, c: &[Commitment<G>], n: usize) -> Result<(), BulletproofError> {
    p.verify_multiple(bp, pc, &mut Transcript::new(b"test"), c, n)
}

fn check_completeness<G: BpGroup>() {
    let bp = BulletproofGens::<G>::new(64, 8);
    let pc = PedersenGens::<G>::default();
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for &n in &[1usize, 2, 7, 8, 13, 16, 31, 32, 33, 63, 64] {
        let max = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        for v in [0, max, value(&mut rng, n)] {
            let (p, c) = prove(&bp, &pc, &[v], n, &mut rng);
            verify(&bp, &pc, &p, &c, n).unwrap_or_else(|e| panic!("{} n={n} v={v}: {e}", G::NAME));
            let back = RangeProof::<G>::from_bytes(&p.to_bytes()).unwrap();
            assert_eq!(back, p);
            verify(&bp, &pc, &back, &c, n).unwrap();
            assert_eq!(p.to_bytes().len(), p.serialized_size());
        }
        if n < 64 {
            let b = [G::scalar_from_u64(1)];
            let r = RangeProof::<G>::prove_multiple(&bp, &pc, &mut Transcript::new(b"test"), &[1u64 << n], &b, n);
            assert_eq!(r.unwrap_err(), BulletproofError::ValueOutOfRange { index: 0, bits: n });
        }
    }
    for &m in &[2usize, 3, 4, 5, 8] {
        for &n in &[8usize, 20, 64] {
            let v: Vec<u64> = (0..m).map(|_| value(&mut rng, n)).collect();
            let (p, c) = prove(&bp, &pc, &v, n, &mut rng);
            verify(&bp, &pc, &p, &c, n).unwrap_or_else(|e| panic!("{} n={n} m={m}: {e}", G::NAME));
            // dropping or reordering a commitment breaks it
            assert!(verify(&bp, &pc, &p, &c[..m - 1], n).is_err());
            let mut swapped = c.clone();
            swapped.swap(0, 1);
            if swapped != c {
                assert!(verify(&bp, &pc, &p, &swapped, n).is_err());
            }
        }
    }
}

fn check_soundness<G: BpGroup>() {
    let bp = BulletproofGens::<G>::new(64, 2);
    let pc = PedersenGens::<G>::default();
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    let (p, c) = prove(&bp, &pc, &[1000, 70000], 32, &mut rng);
    verify(&bp, &pc, &p, &c, 32).unwrap();
    // another bit size, another transcript, another commitment
    assert!(verify(&bp, &pc, &p, &c, 16).is_err());
    assert!(verify(&bp, &pc, &p, &c, 31).is_err());
    assert!(p.verify_multiple(&bp, &pc, &mut Transcript::new(b"other"), &c, 32).is_err());
    let other = Commitment::<G>::new(pc.commit(G::scalar_from_u64(1000), G::scalar_from_u64(5)));
    assert!(verify(&bp, &pc, &p, &[other, c[1].clone()], 32).is_err());
    // every field altered: each point replaced by another valid point, each scalar changed
    let bytes = p.to_bytes();
    let pb = G::POINT_BYTES;
    let rounds = (bytes.len() - 4 * pb - 5 * 32) / (2 * pb);
    let mut fields = Vec::new();
    let mut off = 0;
    for _ in 0..4 {
        fields.push((off, true));
        off += pb;
    }
    for _ in 0..3 {
        fields.push((off, false));
        off += 32;
    }
    for _ in 0..2 * rounds {
        fields.push((off, true));
        off += pb;
    }
    fields.push((off, false));
    fields.push((off + 32, false));
    let replacement = G::compress(&pc.b);
    for (off, is_point) in fields {
        let mut t = bytes.clone();
        if is_point {
            t[off..off + pb].copy_from_slice(&replacement);
        } else {
            t[off] ^= 1;
        }
        match RangeProof::<G>::from_bytes(&t) {
            Ok(q) => assert!(verify(&bp, &pc, &q, &c, 32).is_err(), "{}: field at {off} altered still verifies", G::NAME),
            Err(_) => {}
        }
        // a flipped bit in a point is either rejected by the decoder or a different point
        if is_point {
            let mut t = bytes.clone();
            t[off + pb / 2] ^= 4;
            if let Ok(q) = RangeProof::<G>::from_bytes(&t) {
                assert!(verify(&bp, &pc, &q, &c, 32).is_err());
            }
        }
    }
}

fn check_batch<G: BpGroup>() {
    let bp = BulletproofGens::<G>::new(64, 4);
    let pc = PedersenGens::<G>::default();
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let shapes = [(64usize, 1usize), (32, 2), (8, 4), (64, 1), (10, 3), (64, 4)];
    let proofs: Vec<_> = shapes
        .iter()
        .map(|&(n, m)| {
            let v: Vec<u64> = (0..m).map(|_| value(&mut rng, n)).collect();
            prove(&bp, &pc, &v, n, &mut rng)
        })
        .collect();
    let items = |bad: Option<usize>| -> Vec<BatchItem<'_, G>> {
        proofs
            .iter()
            .zip(&shapes)
            .enumerate()
            .map(|(k, ((p, c), &(n, _)))| BatchItem { proof: p, commitments: c, n, transcript: Transcript::new(if Some(k) == bad { b"bad!" } else { b"test" }) })
            .collect()
    };
    verify_batch(&bp, &pc, None, &mut items(None), &mut rng).unwrap();
    for bad in 0..shapes.len() {
        assert!(verify_batch(&bp, &pc, None, &mut items(Some(bad)), &mut rng).is_err(), "{} bad proof {bad} passed", G::NAME);
    }
    // the same with tables of the union shape (64 x 4) and of another shape
    let t = GeneratorTables::new(&bp, &pc, 64, 4).unwrap();
    verify_batch(&bp, &pc, Some(&t), &mut items(None), &mut rng).unwrap();
    assert!(verify_batch(&bp, &pc, Some(&t), &mut items(Some(2)), &mut rng).is_err());
    let t1 = GeneratorTables::new(&bp, &pc, 64, 1).unwrap();
    verify_batch(&bp, &pc, Some(&t1), &mut items(None), &mut rng).unwrap();
    // tables on single verification
    let (p, c) = &proofs[0];
    p.verify_with_tables(&bp, &pc, &t1, &mut Transcript::new(b"test"), c, 64).unwrap();
    assert!(p.verify_with_tables(&bp, &pc, &t1, &mut Transcript::new(b"test"), c, 32).is_err());
    // 64 single-value proofs in one batch
    let many: Vec<_> = (0..16).map(|_| prove(&bp, &pc, &[value(&mut rng, 64)], 64, &mut rng)).collect();
    let mut it: Vec<_> = many.iter().map(|(p, c)| BatchItem { proof: p, commitments: c, n: 64, transcript: Transcript::new(b"test") }).collect();
    verify_batch(&bp, &pc, Some(&t1), &mut it, &mut rng).unwrap();
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
    // every value of the prover's knob, with and without tables, gives the same proof
    let bp = BulletproofGens::<G>::new(64, 16);
    let pc = PedersenGens::<G>::default();
    let mut rng = ChaCha20Rng::seed_from_u64(22);
    for &(n, m) in &[(64usize, 1usize), (16, 4), (8, 16), (5, 3)] {
        let t = GeneratorTables::new(&bp, &pc, n, m).unwrap();
        let v: Vec<u64> = (0..m).map(|_| value(&mut rng, n)).collect();
        let b: Vec<G::Scalar> = v.iter().map(|_| G::scalar_random(&mut rng)).collect();
        let seed: u64 = rng.gen();
        let mut first: Option<Vec<u8>> = None;
        for (ratio, ct_msm) in knob_values() {
            for tables in [None, Some(&t)] {
                let cfg = ProverConfig { rebase_ratio: ratio, ct_msm, fold_msm: ct_msm };
                let (p, c) = RangeProof::<G>::prove_with_tables(&bp, &pc, tables, &cfg, &mut Transcript::new(b"test"), &v, &b, n, &mut ChaCha20Rng::seed_from_u64(seed)).unwrap();
                verify(&bp, &pc, &p, &c, n).unwrap_or_else(|e| panic!("{} ratio {ratio:?}: {e}", G::NAME));
                match &first {
                    None => first = Some(p.to_bytes()),
                    Some(f) => assert_eq!(&p.to_bytes(), f, "{} n={n} m={m} ratio {ratio:?} {ct_msm:?} tables {}", G::NAME, tables.is_some()),
                }
            }
        }
    }
}

fn check_decoding<G: BpGroup>() {
    let bp = BulletproofGens::<G>::new(8, 1);
    let pc = PedersenGens::<G>::default();
    let mut rng = ChaCha20Rng::seed_from_u64(10);
    let (p, _) = prove(&bp, &pc, &[5], 8, &mut rng);
    let bytes = p.to_bytes();
    let pb = G::POINT_BYTES;
    for len in [0, 1, 32, bytes.len() - 1, bytes.len() + 1, bytes.len() + pb, 4 * pb + 5 * 32 + 26 * pb] {
        let mut t = bytes.clone();
        t.resize(len, 0);
        assert!(matches!(RangeProof::<G>::from_bytes(&t), Err(BulletproofError::WrongLength { .. })), "{} len {len}", G::NAME);
    }
    // the shortest valid length (no rounds) decodes, n = 1 proofs have zero rounds
    let (p1, c1) = prove(&bp, &pc, &[1], 1, &mut rng);
    assert_eq!(p1.to_bytes().len(), 4 * pb + 5 * 32);
    verify(&bp, &pc, &RangeProof::from_bytes(&p1.to_bytes()).unwrap(), &c1, 1).unwrap();
    // non-canonical scalar: t_x = all ones
    let mut t = bytes.clone();
    t[4 * pb..4 * pb + 32].copy_from_slice(&[0xff; 32]);
    assert_eq!(RangeProof::<G>::from_bytes(&t).unwrap_err(), BulletproofError::NonCanonicalScalar { offset: 4 * pb });
    let mut t = bytes.clone();
    let end = t.len();
    t[end - 32..].copy_from_slice(&[0xff; 32]);
    assert_eq!(RangeProof::<G>::from_bytes(&t).unwrap_err(), BulletproofError::NonCanonicalScalar { offset: end - 32 });
    // invalid point: all 0xff bytes decode in no group
    for off in [0, pb, 3 * pb, 4 * pb + 5 * 32 - 64] {
        let off = if off == 4 * pb + 5 * 32 - 64 { 4 * pb + 3 * 32 } else { off };
        let mut t = bytes.clone();
        t[off..off + pb].copy_from_slice(&vec![0xff; pb]);
        assert_eq!(RangeProof::<G>::from_bytes(&t).unwrap_err(), BulletproofError::InvalidPoint { group: G::NAME, offset: off });
    }
    assert!(Commitment::<G>::from_bytes(&vec![0xff; pb]).is_none());
    assert!(Commitment::<G>::from_bytes(&[0u8; 5]).is_none());
    // identity points decode but never verify where the protocol forbids them
    let mut t = bytes.clone();
    t[..pb].copy_from_slice(&G::compress(&G::identity()));
    let q = RangeProof::<G>::from_bytes(&t).unwrap();
    let c = Commitment::<G>::new(pc.commit(G::scalar_from_u64(5), G::scalar_from_u64(1)));
    assert_eq!(verify(&bp, &pc, &q, &[c], 8).unwrap_err(), BulletproofError::VerificationFailed);
}

fn check_parameters<G: BpGroup>() {
    let bp = BulletproofGens::<G>::new(16, 2);
    let pc = PedersenGens::<G>::default();
    let one = G::scalar_from_u64(1);
    let t = &mut Transcript::new(b"p");
    assert_eq!(RangeProof::<G>::prove_multiple(&bp, &pc, t, &[1], &[one], 0).unwrap_err(), BulletproofError::InvalidBitsize(0));
    assert_eq!(RangeProof::<G>::prove_multiple(&bp, &pc, t, &[1], &[one], 65).unwrap_err(), BulletproofError::InvalidBitsize(65));
    assert_eq!(RangeProof::<G>::prove_multiple(&bp, &pc, t, &[], &[], 8).unwrap_err(), BulletproofError::InvalidAggregation(0));
    assert!(matches!(RangeProof::<G>::prove_multiple(&bp, &pc, t, &[1], &[one], 32), Err(BulletproofError::GeneratorsTooSmall { .. })));
    assert!(matches!(RangeProof::<G>::prove_multiple(&bp, &pc, t, &[1, 2, 3], &[one, one, one], 8), Err(BulletproofError::GeneratorsTooSmall { .. })));
    assert!(matches!(RangeProof::<G>::prove_multiple(&bp, &pc, t, &[1, 2], &[one], 8), Err(BulletproofError::WrongNumBlindingFactors { .. })));
    let vals = vec![1u64; 65];
    let bl = vec![one; 65];
    assert_eq!(RangeProof::<G>::prove_multiple(&bp, &pc, t, &vals, &bl, 8).unwrap_err(), BulletproofError::InvalidAggregation(65));
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
    #[test]
    fn parameters() {
        check_parameters::<Ristretto255>();
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
    #[test]
    fn parameters() {
        check_parameters::<Bls12381G1>();
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
    #[test]
    fn parameters() {
        check_parameters::<Bn254G1>();
    }
}

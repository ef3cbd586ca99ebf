//! Ristretto255 proofs against dalek's `bulletproofs` 5.0.0 (a dev-dependency): the same
//! generators, byte-identical proofs from the same random draws, and verification in both
//! directions for every size dalek supports.

use bulletproofs as dalek;
use curve25519_dalek::ristretto::CompressedRistretto;
use curve25519_dalek::scalar::Scalar;
use merlin::Transcript;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zkforge_bulletproofs::{BpGroup, BulletproofGens, Commitment, PedersenGens, RangeProof, Ristretto255, VerifierTables};

fn ours() -> (BulletproofGens<Ristretto255>, PedersenGens<Ristretto255>) {
    (BulletproofGens::new(64, 8), PedersenGens::default())
}

fn theirs() -> (dalek::BulletproofGens, dalek::PedersenGens) {
    (dalek::BulletproofGens::new(64, 8), dalek::PedersenGens::default())
}

fn values(rng: &mut ChaCha20Rng, n: usize, m: usize) -> (Vec<u64>, Vec<Scalar>) {
    let v = (0..m).map(|_| if n == 64 { rng.gen() } else { rng.gen::<u64>() >> (64 - n) }).collect();
    let b = (0..m).map(|_| Ristretto255::scalar_random(rng)).collect();
    (v, b)
}

#[test]
fn generators_match() {
    let (bp, pc) = ours();
    let (dbp, dpc) = theirs();
    assert_eq!(pc.b, dpc.B);
    assert_eq!(pc.b_blinding, dpc.B_blinding);
    for j in 0..8 {
        let ours_g = bp.g(64, 8);
        let theirs_g: Vec<_> = dbp.share(j).G(64).copied().collect();
        assert_eq!(&ours_g[j * 64..(j + 1) * 64], &theirs_g[..]);
    }
}

#[test]
fn same_draws_same_bytes() {
    let (bp, pc) = ours();
    let (dbp, dpc) = theirs();
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    for &(n, m) in &[(8, 1), (16, 2), (32, 4), (64, 1), (64, 8)] {
        let (v, b) = values(&mut rng, n, m);
        let seed: u64 = rng.gen();
        let (p1, c1) = RangeProof::<Ristretto255>::prove_multiple_with_rng(&bp, &pc, &mut Transcript::new(b"interop"), &v, &b, n, &mut ChaCha20Rng::seed_from_u64(seed)).unwrap();
        let (p2, c2) = dalek::RangeProof::prove_multiple_with_rng(&dbp, &dpc, &mut Transcript::new(b"interop"), &v, &b, n, &mut ChaCha20Rng::seed_from_u64(seed)).unwrap();
        assert_eq!(p1.to_bytes(), p2.to_bytes(), "n = {n}, m = {m}");
        for (a, b) in c1.iter().zip(&c2) {
            assert_eq!(a.bytes, b.as_bytes().to_vec());
        }
    }
}

#[test]
fn both_directions() {
    let (bp, pc) = ours();
    let (dbp, dpc) = theirs();
    let tables = VerifierTables::new(&bp, &pc, 64, 1).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    for &n in &[8, 16, 32, 64] {
        for &m in &[1, 2, 4, 8] {
            let (v, b) = values(&mut rng, n, m);
            // dalek proves, we verify
            let (dp, dc) = dalek::RangeProof::prove_multiple_with_rng(&dbp, &dpc, &mut Transcript::new(b"dir"), &v, &b, n, &mut rng).unwrap();
            let ours_proof = RangeProof::<Ristretto255>::from_bytes(&dp.to_bytes()).unwrap();
            let ours_c: Vec<Commitment<Ristretto255>> = dc.iter().map(|c| Commitment::from_bytes(c.as_bytes()).unwrap()).collect();
            ours_proof.verify_multiple(&bp, &pc, &mut Transcript::new(b"dir"), &ours_c, n).unwrap();
            if (n, m) == (64, 1) {
                ours_proof.verify_with_tables(&bp, &pc, &tables, &mut Transcript::new(b"dir"), &ours_c, n).unwrap();
            }
            assert!(ours_proof.verify_multiple(&bp, &pc, &mut Transcript::new(b"other"), &ours_c, n).is_err());
            // we prove, dalek verifies
            let (p, c) = RangeProof::<Ristretto255>::prove_multiple_with_rng(&bp, &pc, &mut Transcript::new(b"dir"), &v, &b, n, &mut rng).unwrap();
            let dproof = dalek::RangeProof::from_bytes(&p.to_bytes()).unwrap();
            let dcs: Vec<CompressedRistretto> = c.iter().map(|x| CompressedRistretto::from_slice(&x.bytes).unwrap()).collect();
            dproof.verify_multiple(&dbp, &dpc, &mut Transcript::new(b"dir"), &dcs, n).unwrap();
            assert!(dproof.verify_multiple(&dbp, &dpc, &mut Transcript::new(b"dir"), &dcs, n / 2).is_err() || n == 8);
        }
    }
}

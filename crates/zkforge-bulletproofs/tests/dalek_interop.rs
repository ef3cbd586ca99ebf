//! Ristretto255 proofs against dalek's `bulletproofs` 5.0.0 (a dev-dependency, on
//! curve25519-dalek 4 where we run on 5: the two meet in bytes): the same generators,
//! byte-identical proofs from the same random draws, and verification in both directions for
//! every size dalek supports.

use bulletproofs as dalek;
use curve25519_dalek_4::ristretto::CompressedRistretto;
use curve25519_dalek_4::scalar::Scalar;
use merlin::Transcript;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zkforge_bulletproofs::{BpGroup, BulletproofGens, Commitment, GeneratorTables, PedersenGens, ProverConfig, RangeProof, Ristretto255};

fn ours() -> (BulletproofGens<Ristretto255>, PedersenGens<Ristretto255>) {
    (BulletproofGens::new(64, 64), PedersenGens::default())
}

fn theirs() -> (dalek::BulletproofGens, dalek::PedersenGens) {
    (dalek::BulletproofGens::new(64, 64), dalek::PedersenGens::default())
}

type OurScalar = <Ristretto255 as BpGroup>::Scalar;

fn values(rng: &mut ChaCha20Rng, n: usize, m: usize) -> (Vec<u64>, Vec<OurScalar>) {
    let v = (0..m).map(|_| if n == 64 { rng.gen() } else { rng.gen::<u64>() >> (64 - n) }).collect();
    let b = (0..m).map(|_| Ristretto255::scalar_random(rng)).collect();
    (v, b)
}

fn to_dalek(s: &[OurScalar]) -> Vec<Scalar> {
    s.iter().map(|x| Scalar::from_canonical_bytes(x.to_bytes_le()).unwrap()).collect()
}

#[test]
fn generators_match() {
    let (bp, pc) = ours();
    let (dbp, dpc) = theirs();
    assert_eq!(Ristretto255::compress(&pc.b), dpc.B.compress().to_bytes().to_vec());
    assert_eq!(Ristretto255::compress(&pc.b_blinding), dpc.B_blinding.compress().to_bytes().to_vec());
    for j in 0..8 {
        let ours_g = bp.g(64, 8).unwrap();
        let theirs_g: Vec<Vec<u8>> = dbp.share(j).G(64).map(|p| p.compress().to_bytes().to_vec()).collect();
        let ours_g: Vec<Vec<u8>> = ours_g[j * 64..(j + 1) * 64].iter().map(Ristretto255::compress).collect();
        assert_eq!(ours_g, theirs_g);
    }
}

#[test]
fn same_draws_same_bytes() {
    let (bp, pc) = ours();
    let (dbp, dpc) = theirs();
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    for &(n, m) in &[(8, 1), (16, 2), (32, 4), (64, 1), (64, 8), (8, 64)] {
        let (v, b) = values(&mut rng, n, m);
        let seed: u64 = rng.gen();
        let (p1, c1) = RangeProof::<Ristretto255>::prove_multiple_with_rng(&bp, &pc, &mut Transcript::new(b"interop"), &v, &b, n, &mut ChaCha20Rng::seed_from_u64(seed)).unwrap();
        let (p2, c2) = dalek::RangeProof::prove_multiple_with_rng(&dbp, &dpc, &mut Transcript::new(b"interop"), &v, &to_dalek(&b), n, &mut ChaCha20Rng::seed_from_u64(seed)).unwrap();
        assert_eq!(p1.to_bytes(), p2.to_bytes(), "n = {n}, m = {m}");
        let t = GeneratorTables::new(&bp, &pc, n, m).unwrap();
        let (p3, _) = RangeProof::<Ristretto255>::prove_with_tables(&bp, &pc, Some(&t), &ProverConfig::default(), &mut Transcript::new(b"interop"), &v, &b, n, &mut ChaCha20Rng::seed_from_u64(seed)).unwrap();
        assert_eq!(p3.to_bytes(), p2.to_bytes(), "tables, n = {n}, m = {m}");
        for (a, b) in c1.iter().zip(&c2) {
            assert_eq!(a.bytes, b.as_bytes().to_vec());
        }
    }
}

#[test]
fn scalar_field_matches_dalek() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let d = |s: &OurScalar| Scalar::from_canonical_bytes(s.to_bytes_le()).unwrap();
    for _ in 0..10_000 {
        let mut w = [0u8; 64];
        rng.fill(&mut w[..]);
        let a = Ristretto255::scalar_from_wide(&w);
        assert_eq!(d(&a), Scalar::from_bytes_mod_order_wide(&w));
        let b = Ristretto255::scalar_random(&mut rng);
        assert_eq!(d(&(a * b)), d(&a) * d(&b));
        assert_eq!(d(&(a + b)), d(&a) + d(&b));
        assert_eq!(d(&(a - b)), d(&a) - d(&b));
        assert_eq!(d(&Ristretto255::scalar_invert(&a).unwrap()), d(&a).invert());
    }
    // edges: 0, 1, l - 1, and l itself is not canonical
    let l_minus_1 = -Ristretto255::scalar_from_u64(1);
    assert_eq!(d(&l_minus_1), -Scalar::ONE);
    let mut l = l_minus_1.to_bytes_le();
    l[0] += 1;
    assert!(Ristretto255::scalar_from_canonical(&l).is_none());
    assert!(bool::from(Scalar::from_canonical_bytes(l).is_none()));
    assert_eq!(Ristretto255::scalar_invert(&Ristretto255::scalar_from_u64(0)), None);
}

#[test]
fn both_directions() {
    let (bp, pc) = ours();
    let (dbp, dpc) = theirs();
    let tables = GeneratorTables::new(&bp, &pc, 64, 1).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    for &n in &[8, 16, 32, 64] {
        for &m in &[1, 2, 4, 8] {
            let (v, b) = values(&mut rng, n, m);
            // dalek proves, we verify
            let (dp, dc) = dalek::RangeProof::prove_multiple_with_rng(&dbp, &dpc, &mut Transcript::new(b"dir"), &v, &to_dalek(&b), n, &mut rng).unwrap();
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

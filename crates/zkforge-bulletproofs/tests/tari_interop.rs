//! Bulletproofs+ in Tari's format against `tari_bulletproofs_plus` 0.5.3 (a dev-dependency, on
//! curve25519-dalek 5 like us): Tari's proofs verify in ours and ours in Tari's, for bit sizes
//! 8 to 64 and 1 to 8 values; a proof for the wrong commitments or transcript fails on both
//! sides.

use curve25519_dalek::ristretto::CompressedRistretto;
use merlin::Transcript;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use tari_bulletproofs_plus::commitment_opening::CommitmentOpening;
use tari_bulletproofs_plus::generators::pedersen_gens::ExtensionDegree;
use tari_bulletproofs_plus::range_parameters::RangeParameters;
use tari_bulletproofs_plus::range_proof::{RangeProof as TariProof, VerifyAction};
use tari_bulletproofs_plus::range_statement::RangeStatement;
use tari_bulletproofs_plus::range_witness::RangeWitness;
use tari_bulletproofs_plus::ristretto::{create_pedersen_gens_with_extension_degree, RistrettoRangeProof};
use zkforge_bulletproofs::{verify_batch_plus_in, BatchItemPlus, BpGroup, BulletproofGens, Commitment, PedersenGens, PlusFormat, ProverConfig, RangeProofPlus, Ristretto255};

const LABEL: &[u8] = b"tari interop";

fn tari_params(n: usize, m: usize) -> RangeParameters<curve25519_dalek::RistrettoPoint> {
    RangeParameters::init(n, m, create_pedersen_gens_with_extension_degree(ExtensionDegree::DefaultPedersen)).unwrap()
}

fn tari_verify(n: usize, commitments: &[Commitment<Ristretto255>], proof_bytes: &[u8]) -> bool {
    let params = tari_params(n, commitments.len());
    let cs: Vec<_> = commitments.iter().map(|c| CompressedRistretto::from_slice(&c.bytes).unwrap().decompress().unwrap()).collect();
    let statement = RangeStatement::init(params, cs, vec![None; commitments.len()], None).unwrap();
    let Ok(proof) = RistrettoRangeProof::from_bytes(proof_bytes) else { return false };
    let mut ts = vec![tari_merlin::Transcript::new(LABEL)];
    TariProof::verify_batch(&mut ts, &[statement], &[proof], VerifyAction::VerifyOnly).is_ok()
}

#[test]
fn pedersen_bases_match() {
    let ours = PedersenGens::<Ristretto255>::tari();
    let theirs = create_pedersen_gens_with_extension_degree(ExtensionDegree::DefaultPedersen);
    let s = ours.commit(Ristretto255::scalar_from_u64(12), Ristretto255::scalar_from_u64(34));
    let t = theirs.commit(&curve25519_dalek::Scalar::from(12u64), &[curve25519_dalek::Scalar::from(34u64)]).unwrap();
    assert_eq!(s, t);
}

#[test]
fn both_directions() {
    let bp = BulletproofGens::<Ristretto255>::new(64, 8);
    let pc = PedersenGens::<Ristretto255>::tari();
    let mut rng = ChaCha20Rng::seed_from_u64(735);
    for &n in &[8usize, 16, 32, 64] {
        for &m in &[1usize, 2, 4, 8] {
            let values: Vec<u64> = (0..m).map(|_| if n == 64 { rng.gen() } else { rng.gen::<u64>() >> (64 - n) }).collect();
            let blind: Vec<_> = values.iter().map(|_| Ristretto255::scalar_random(&mut rng)).collect();
            // ours in Tari's format, verified by Tari
            let (p, cs) = RangeProofPlus::<Ristretto255>::prove_in(PlusFormat::Tari, &bp, &pc, &ProverConfig::BULLETPROOFS_PLUS, &mut Transcript::new(LABEL), &values, &blind, n, &mut rng).unwrap();
            let bytes = p.to_bytes_in(PlusFormat::Tari);
            assert!(tari_verify(n, &cs, &bytes), "Tari rejects ours, n = {n}, m = {m}");
            p.verify_in(PlusFormat::Tari, &bp, &pc, &mut Transcript::new(LABEL), &cs, n).unwrap();
            let back = RangeProofPlus::<Ristretto255>::from_bytes_in(PlusFormat::Tari, &bytes).unwrap();
            assert_eq!(back, p);
            // a wrong commitment order fails on both sides (when the values differ)
            if m > 1 && cs[0] != cs[1] {
                let mut sw = cs.clone();
                sw.swap(0, 1);
                assert!(!tari_verify(n, &sw, &bytes));
                assert!(p.verify_in(PlusFormat::Tari, &bp, &pc, &mut Transcript::new(LABEL), &sw, n).is_err());
            }
            // Tari's proof of the same values, verified by ours
            let params = tari_params(n, m);
            let mut openings = Vec::new();
            let mut tcs = Vec::new();
            for (v, b) in values.iter().zip(&blind) {
                let r = curve25519_dalek::Scalar::from_canonical_bytes(Ristretto255::scalar_to_bytes(b)).unwrap();
                tcs.push(params.pc_gens().commit(&curve25519_dalek::Scalar::from(*v), &[r]).unwrap());
                openings.push(CommitmentOpening::new(*v, vec![r]));
            }
            let statement = RangeStatement::init(params, tcs.clone(), vec![None; m], None).unwrap();
            let tproof = RistrettoRangeProof::prove(&mut tari_merlin::Transcript::new(LABEL), &statement, &RangeWitness::init(openings).unwrap()).unwrap();
            let ours = RangeProofPlus::<Ristretto255>::from_bytes_in(PlusFormat::Tari, &tproof.to_bytes()).unwrap();
            let our_cs: Vec<Commitment<Ristretto255>> = tcs.iter().map(|c| Commitment::new(*c)).collect();
            assert_eq!(our_cs, cs, "the same openings give the same commitments");
            ours.verify_in(PlusFormat::Tari, &bp, &pc, &mut Transcript::new(LABEL), &our_cs, n).unwrap_or_else(|e| panic!("ours rejects Tari's, n = {n}, m = {m}: {e}"));
            assert!(ours.verify_in(PlusFormat::Tari, &bp, &pc, &mut Transcript::new(b"other"), &our_cs, n).is_err());
            // the formats do not mix
            assert!(ours.verify_in(PlusFormat::Zkforge, &bp, &pc, &mut Transcript::new(LABEL), &our_cs, n).is_err());
        }
    }
}

#[test]
fn tari_format_batch() {
    // Tari's proofs of mixed shapes in one batch of ours; one from another transcript fails it
    let bp = BulletproofGens::<Ristretto255>::new(64, 4);
    let pc = PedersenGens::<Ristretto255>::tari();
    let mut rng = ChaCha20Rng::seed_from_u64(736);
    let mut proofs = Vec::new();
    for &(n, m) in &[(64usize, 1usize), (32, 2), (8, 4), (64, 4)] {
        let params = tari_params(n, m);
        let mut openings = Vec::new();
        let mut tcs = Vec::new();
        for _ in 0..m {
            let v: u64 = if n == 64 { rng.gen() } else { rng.gen::<u64>() >> (64 - n) };
            let r = curve25519_dalek::Scalar::from_canonical_bytes(Ristretto255::scalar_to_bytes(&Ristretto255::scalar_random(&mut rng))).unwrap();
            tcs.push(params.pc_gens().commit(&curve25519_dalek::Scalar::from(v), &[r]).unwrap());
            openings.push(CommitmentOpening::new(v, vec![r]));
        }
        let statement = RangeStatement::init(params, tcs.clone(), vec![None; m], None).unwrap();
        let tproof = RistrettoRangeProof::prove(&mut tari_merlin::Transcript::new(LABEL), &statement, &RangeWitness::init(openings).unwrap()).unwrap();
        let p = RangeProofPlus::<Ristretto255>::from_bytes_in(PlusFormat::Tari, &tproof.to_bytes()).unwrap();
        let cs: Vec<Commitment<Ristretto255>> = tcs.iter().map(|c| Commitment::new(*c)).collect();
        proofs.push((p, cs, n));
    }
    let items = |bad: Option<usize>| -> Vec<BatchItemPlus<'_, Ristretto255>> {
        proofs.iter().enumerate().map(|(k, (p, c, n))| BatchItemPlus { proof: p, commitments: c, n: *n, transcript: Transcript::new(if Some(k) == bad { b"bad" } else { LABEL }) }).collect()
    };
    verify_batch_plus_in(PlusFormat::Tari, &bp, &pc, None, &mut items(None), &mut rng).unwrap();
    assert!(verify_batch_plus_in(PlusFormat::Tari, &bp, &pc, None, &mut items(Some(2)), &mut rng).is_err());
    assert!(verify_batch_plus_in(PlusFormat::Zkforge, &bp, &pc, None, &mut items(None), &mut rng).is_err());
}

#[test]
fn tari_format_refuses_other_shapes() {
    let bp = BulletproofGens::<Ristretto255>::new(64, 4);
    let pc = PedersenGens::<Ristretto255>::tari();
    let b = [Ristretto255::scalar_from_u64(1); 3];
    let cfg = ProverConfig::BULLETPROOFS_PLUS;
    assert!(RangeProofPlus::<Ristretto255>::prove_in(PlusFormat::Tari, &bp, &pc, &cfg, &mut Transcript::new(LABEL), &[1], &b[..1], 12, &mut rand_core::OsRng).is_err());
    assert!(RangeProofPlus::<Ristretto255>::prove_in(PlusFormat::Tari, &bp, &pc, &cfg, &mut Transcript::new(LABEL), &[1, 2, 3], &b, 8, &mut rand_core::OsRng).is_err());
    // a wrong extension-degree byte, and short inputs
    let (p, _) = RangeProofPlus::<Ristretto255>::prove_in(PlusFormat::Tari, &bp, &pc, &cfg, &mut Transcript::new(LABEL), &[1], &b[..1], 8, &mut rand_core::OsRng).unwrap();
    let mut bytes = p.to_bytes_in(PlusFormat::Tari);
    assert!(RangeProofPlus::<Ristretto255>::from_bytes_in(PlusFormat::Tari, &bytes[..100]).is_err());
    bytes[0] = 2;
    assert!(RangeProofPlus::<Ristretto255>::from_bytes_in(PlusFormat::Tari, &bytes).is_err());
}

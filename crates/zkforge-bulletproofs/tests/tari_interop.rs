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

/// Tari's proof (degree 1) of `values` with our blinding factors and Tari's promises: its
/// bytes and its commitments.
fn tari_prove(n: usize, values: &[u64], blind: &[<Ristretto255 as BpGroup>::Scalar], mins: Vec<Option<u64>>) -> (Vec<u8>, Vec<curve25519_dalek::RistrettoPoint>) {
    let params = tari_params(n, values.len());
    let mut openings = Vec::new();
    let mut tcs = Vec::new();
    for (v, b) in values.iter().zip(blind) {
        let r = curve25519_dalek::Scalar::from_canonical_bytes(Ristretto255::scalar_to_bytes(b)).unwrap();
        tcs.push(params.pc_gens().commit(&curve25519_dalek::Scalar::from(*v), &[r]).unwrap());
        openings.push(CommitmentOpening::new(*v, vec![r]));
    }
    let statement = RangeStatement::init(params, tcs.clone(), mins, None).unwrap();
    let tproof = RistrettoRangeProof::prove(&mut tari_merlin::Transcript::new(LABEL), &statement, &RangeWitness::init(openings).unwrap()).unwrap();
    (tproof.to_bytes(), tcs)
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
            let (tbytes, tcs) = tari_prove(n, &values, &blind, vec![None; m]);
            let ours = RangeProofPlus::<Ristretto255>::from_bytes_in(PlusFormat::Tari, &tbytes).unwrap();
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

/// Tari's verifier for proofs with minimum-value promises.
fn tari_verify_promises(n: usize, commitments: &[Commitment<Ristretto255>], minimums: &[Option<u64>], proof_bytes: &[u8]) -> bool {
    let params = tari_params(n, commitments.len());
    let cs: Vec<_> = commitments.iter().map(|c| CompressedRistretto::from_slice(&c.bytes).unwrap().decompress().unwrap()).collect();
    let statement = RangeStatement::init(params, cs, minimums.to_vec(), None).unwrap();
    let Ok(proof) = RistrettoRangeProof::from_bytes(proof_bytes) else { return false };
    let mut ts = vec![tari_merlin::Transcript::new(LABEL)];
    TariProof::verify_batch(&mut ts, &[statement], &[proof], VerifyAction::VerifyOnly).is_ok()
}

#[test]
fn minimum_value_promises_both_directions() {
    let bp = BulletproofGens::<Ristretto255>::new(64, 4);
    let pc = PedersenGens::<Ristretto255>::tari();
    let cfg = ProverConfig::BULLETPROOFS_PLUS;
    let mut rng = ChaCha20Rng::seed_from_u64(737);
    for &(n, m) in &[(64usize, 1usize), (32, 2), (16, 4), (8, 1)] {
        // promises: some values with a minimum (v - min < 2^n), one without (Tari's None = 0)
        let mut values = Vec::new();
        let mut mins = Vec::new();
        for j in 0..m {
            // Tari takes promises below 2^n only, and its prover values below 2^n
            let off: u64 = rng.gen::<u64>() >> (64 - n + 1);
            let min: u64 = if j % 2 == 0 { rng.gen::<u64>() >> (64 - n + 1) } else { 0 };
            values.push(min + off);
            mins.push(min);
        }
        let tari_mins: Vec<Option<u64>> = mins.iter().map(|&v| if v == 0 { None } else { Some(v) }).collect();
        let blind: Vec<_> = values.iter().map(|_| Ristretto255::scalar_random(&mut rng)).collect();
        // ours, verified by Tari and by ours; a wrong promise fails on both sides
        let (p, cs) = RangeProofPlus::<Ristretto255>::prove_promise(PlusFormat::Tari, &bp, &pc, &cfg, &mut Transcript::new(LABEL), &values, &mins, &blind, n, &mut rng).unwrap();
        let bytes = p.to_bytes_in(PlusFormat::Tari);
        p.verify_promise(PlusFormat::Tari, &bp, &pc, None, &mut Transcript::new(LABEL), &cs, &mins, n).unwrap();
        assert!(tari_verify_promises(n, &cs, &tari_mins, &bytes), "Tari rejects ours, n = {n}, m = {m}");
        let mut wrong = mins.clone();
        wrong[0] ^= 1;
        let wrong_tari: Vec<Option<u64>> = wrong.iter().map(|&v| Some(v)).collect();
        assert!(!tari_verify_promises(n, &cs, &wrong_tari, &bytes));
        assert!(p.verify_promise(PlusFormat::Tari, &bp, &pc, None, &mut Transcript::new(LABEL), &cs, &wrong, n).is_err());
        // without the promises the statement is another one
        if mins.iter().any(|&v| v != 0) {
            assert!(p.verify_in(PlusFormat::Tari, &bp, &pc, &mut Transcript::new(LABEL), &cs, n).is_err());
        }
        // Tari's proof with the same promises, verified by ours (single and in a batch)
        let (tbytes, _) = tari_prove(n, &values, &blind, tari_mins.clone());
        let theirs = RangeProofPlus::<Ristretto255>::from_bytes_in(PlusFormat::Tari, &tbytes).unwrap();
        theirs.verify_promise(PlusFormat::Tari, &bp, &pc, None, &mut Transcript::new(LABEL), &cs, &mins, n).unwrap_or_else(|e| panic!("ours rejects Tari's, n = {n}, m = {m}: {e}"));
        assert!(theirs.verify_promise(PlusFormat::Tari, &bp, &pc, None, &mut Transcript::new(LABEL), &cs, &wrong, n).is_err());
        let items = vec![
            BatchItemPlus { proof: &theirs, commitments: &cs, n, transcript: Transcript::new(LABEL) },
            BatchItemPlus { proof: &p, commitments: &cs, n, transcript: Transcript::new(LABEL) },
        ];
        let mut ok = items;
        zkforge_bulletproofs::verify_batch_plus_promises(PlusFormat::Tari, &bp, &pc, None, &mut ok, &[&mins, &mins], &mut rng).unwrap();
        let mut bad = vec![
            BatchItemPlus { proof: &theirs, commitments: &cs, n, transcript: Transcript::new(LABEL) },
            BatchItemPlus { proof: &p, commitments: &cs, n, transcript: Transcript::new(LABEL) },
        ];
        assert!(zkforge_bulletproofs::verify_batch_plus_promises(PlusFormat::Tari, &bp, &pc, None, &mut bad, &[&mins, &wrong], &mut rng).is_err());
    }
}

#[test]
fn promises_in_our_format_and_refusals() {
    let bp = BulletproofGens::<Ristretto255>::new(64, 2);
    let pc = PedersenGens::<Ristretto255>::default();
    let cfg = ProverConfig::BULLETPROOFS_PLUS;
    let b = [Ristretto255::scalar_from_u64(3), Ristretto255::scalar_from_u64(4)];
    // 12-bit offsets (padding) over promises, any value count
    let (p, cs) = RangeProofPlus::<Ristretto255>::prove_promise(PlusFormat::Zkforge, &bp, &pc, &cfg, &mut Transcript::new(LABEL), &[5000, 77], &[1000, 0], &b, 12, &mut rand_core::OsRng).unwrap();
    p.verify_promise(PlusFormat::Zkforge, &bp, &pc, None, &mut Transcript::new(LABEL), &cs, &[1000, 0], 12).unwrap();
    assert!(p.verify_promise(PlusFormat::Zkforge, &bp, &pc, None, &mut Transcript::new(LABEL), &cs, &[999, 0], 12).is_err());
    assert!(p.verify(&bp, &pc, &mut Transcript::new(LABEL), &cs, 12).is_err());
    // all-zero promises are the statement without promises
    let (q, cq) = RangeProofPlus::<Ristretto255>::prove_promise(PlusFormat::Zkforge, &bp, &pc, &cfg, &mut Transcript::new(LABEL), &[5, 6], &[0, 0], &b, 12, &mut rand_core::OsRng).unwrap();
    q.verify(&bp, &pc, &mut Transcript::new(LABEL), &cq, 12).unwrap();
    // typed refusals: below the minimum, offset too wide, wrong counts
    use zkforge_bulletproofs::BulletproofError as E;
    let prove = |v: &[u64], mins: &[u64]| RangeProofPlus::<Ristretto255>::prove_promise(PlusFormat::Zkforge, &bp, &pc, &cfg, &mut Transcript::new(LABEL), v, mins, &b[..v.len()], 12, &mut rand_core::OsRng).map(|_| ());
    assert_eq!(prove(&[5, 6], &[6, 0]), Err(E::BelowMinimum { index: 0 }));
    assert_eq!(prove(&[5, 10000], &[0, 8000]), Ok(()));
    assert_eq!(prove(&[5, 10000], &[0, 1]), Err(E::ValueOutOfRange { index: 1, bits: 12 }));
    assert_eq!(prove(&[5, 6], &[1]), Err(E::WrongNumMinimums { values: 2, minimums: 1 }));
    assert_eq!(p.verify_promise(PlusFormat::Zkforge, &bp, &pc, None, &mut Transcript::new(LABEL), &cs, &[1000], 12), Err(E::WrongNumMinimums { values: 2, minimums: 1 }));
    // this crate's format takes a promise above 2^n; Tari's refuses it, as Tari's verifier does
    let big = [1u64 << 40, 0];
    let (r, cr) = RangeProofPlus::<Ristretto255>::prove_promise(PlusFormat::Zkforge, &bp, &pc, &cfg, &mut Transcript::new(LABEL), &[(1 << 40) + 9, 1], &big, &b, 16, &mut rand_core::OsRng).unwrap();
    r.verify_promise(PlusFormat::Zkforge, &bp, &pc, None, &mut Transcript::new(LABEL), &cr, &big, 16).unwrap();
    let tari = RangeProofPlus::<Ristretto255>::prove_promise(PlusFormat::Tari, &bp, &PedersenGens::tari(), &cfg, &mut Transcript::new(LABEL), &[(1 << 40) + 9, 1], &big, &b, 16, &mut rand_core::OsRng);
    assert_eq!(tari.map(|_| ()), Err(E::MinimumTooLarge { index: 0, bits: 16 }));
}

#[test]
fn extension_degrees_both_directions() {
    use zkforge_bulletproofs::ExtendedPedersenGens;
    let bp = BulletproofGens::<Ristretto255>::new(64, 2);
    let cfg = ProverConfig::BULLETPROOFS_PLUS;
    let mut rng = ChaCha20Rng::seed_from_u64(738);
    for t in 1..=6usize {
        let epc = ExtendedPedersenGens::<Ristretto255>::tari(t).unwrap();
        let degree = ExtensionDegree::try_from(t).unwrap();
        let tari_gens = create_pedersen_gens_with_extension_degree(degree);
        for &(n, m, with_min) in &[(64usize, 1usize, false), (16, 2, true)] {
            // Tari's prover also wants v < 2^n: min and offset below 2^(n-1)
            let mins: Vec<u64> = if with_min { (0..m).map(|_| rng.gen::<u64>() >> (64 - n + 1)).collect() } else { vec![] };
            let values: Vec<u64> = (0..m).map(|j| mins.get(j).copied().unwrap_or(0) + (rng.gen::<u64>() >> (64 - n + 1))).collect();
            let blind: Vec<Vec<_>> = (0..m).map(|_| (0..t).map(|_| Ristretto255::scalar_random(&mut rng)).collect()).collect();
            let tari_mins: Vec<Option<u64>> = (0..m).map(|j| mins.get(j).copied()).collect();
            // the same commitments on both sides
            let to_dalek = |b: &<Ristretto255 as BpGroup>::Scalar| curve25519_dalek::Scalar::from_canonical_bytes(Ristretto255::scalar_to_bytes(b)).unwrap();
            let tcs: Vec<_> = values.iter().zip(&blind).map(|(v, b)| tari_gens.commit(&curve25519_dalek::Scalar::from(*v), &b.iter().map(to_dalek).collect::<Vec<_>>()).unwrap()).collect();
            // ours, verified by Tari and by ours
            let (p, cs) = RangeProofPlus::<Ristretto255>::prove_extended(&bp, &epc, &cfg, &mut Transcript::new(LABEL), &values, &mins, &blind, n, &mut rng).unwrap();
            let ours_c: Vec<Commitment<Ristretto255>> = tcs.iter().map(|c| Commitment::new(*c)).collect();
            assert_eq!(cs, ours_c, "extended commitments, degree {t}");
            assert_eq!(p.extension_degree(), t);
            let bytes = p.to_bytes_in(PlusFormat::Tari);
            assert_eq!(bytes[0] as usize, t);
            p.verify_extended(&bp, &epc, &mut Transcript::new(LABEL), &cs, &mins, n).unwrap();
            // with fixed-base tables for the pair's bases: the same verdicts
            let tables = zkforge_bulletproofs::GeneratorTables::new(&bp, &epc.pc, n, m).unwrap();
            p.verify_extended_with(&bp, &epc, Some(&tables), &mut Transcript::new(LABEL), &cs, &mins, n).unwrap();
            assert!(p.verify_extended_with(&bp, &epc, Some(&tables), &mut Transcript::new(b"other"), &cs, &mins, n).is_err());
            let wrong_tables = zkforge_bulletproofs::GeneratorTables::new(&bp, &PedersenGens::default(), n, m).unwrap();
            assert!(p.verify_extended_with(&bp, &epc, Some(&wrong_tables), &mut Transcript::new(LABEL), &cs, &mins, n).is_err());
            let params = RangeParameters::init(n, m, tari_gens.clone()).unwrap();
            let statement = RangeStatement::init(params.clone(), tcs.clone(), tari_mins.clone(), None).unwrap();
            let tp = RistrettoRangeProof::from_bytes(&bytes).unwrap();
            let mut ts = vec![tari_merlin::Transcript::new(LABEL)];
            assert!(TariProof::verify_batch(&mut ts, &[statement.clone()], &[tp], VerifyAction::VerifyOnly).is_ok(), "Tari rejects ours, degree {t}, n = {n}, m = {m}");
            assert_eq!(RangeProofPlus::<Ristretto255>::from_bytes_in(PlusFormat::Tari, &bytes).unwrap(), p);
            // Tari's, verified by ours; the wrong degree of bases fails
            let openings: Vec<_> = values.iter().zip(&blind).map(|(v, b)| CommitmentOpening::new(*v, b.iter().map(to_dalek).collect())).collect();
            let tproof = RistrettoRangeProof::prove(&mut tari_merlin::Transcript::new(LABEL), &statement, &RangeWitness::init(openings).unwrap()).unwrap();
            let theirs = RangeProofPlus::<Ristretto255>::from_bytes_in(PlusFormat::Tari, &tproof.to_bytes()).unwrap();
            assert_eq!(theirs.extension_degree(), t);
            theirs.verify_extended(&bp, &epc, &mut Transcript::new(LABEL), &cs, &mins, n).unwrap_or_else(|e| panic!("ours rejects Tari's, degree {t}: {e}"));
            theirs.verify_extended_with(&bp, &epc, Some(&tables), &mut Transcript::new(LABEL), &cs, &mins, n).unwrap_or_else(|e| panic!("ours with tables rejects Tari's, degree {t}: {e}"));
            let other = ExtendedPedersenGens::<Ristretto255>::tari(if t == 1 { 2 } else { t - 1 }).unwrap();
            assert!(theirs.verify_extended(&bp, &other, &mut Transcript::new(LABEL), &cs, &mins, n).is_err());
            assert!(theirs.verify_extended(&bp, &epc, &mut Transcript::new(b"other"), &cs, &mins, n).is_err());
        }
    }
    // refusals: wrong factor counts, degree 7, extension in this crate's format
    use zkforge_bulletproofs::BulletproofError as E;
    let epc = ExtendedPedersenGens::<Ristretto255>::tari(3).unwrap();
    let r = Ristretto255::scalar_from_u64(1);
    let bad = RangeProofPlus::<Ristretto255>::prove_extended(&bp, &epc, &cfg, &mut Transcript::new(LABEL), &[1], &[], &[vec![r; 2]], 8, &mut rng);
    assert_eq!(bad.map(|_| ()), Err(E::WrongExtensionDegree { index: 0, expected: 3, got: 2 }));
    assert!(ExtendedPedersenGens::<Ristretto255>::tari(0).is_err() && ExtendedPedersenGens::<Ristretto255>::tari(7).is_err());
    assert_eq!(epc.commit(r, &[r]).map(|_| ()), Err(E::WrongExtensionDegree { index: 0, expected: 3, got: 1 }));
    let (p, _) = RangeProofPlus::<Ristretto255>::prove_extended(&bp, &epc, &cfg, &mut Transcript::new(LABEL), &[1], &[], &[vec![r; 3]], 8, &mut rng).unwrap();
    let mut bytes = p.to_bytes();
    assert_eq!(bytes[0], 3, "an extended proof's to_bytes is Tari's layout");
    assert!(RangeProofPlus::<Ristretto255>::from_bytes(&bytes).is_err());
    bytes[0] = 7;
    assert!(RangeProofPlus::<Ristretto255>::from_bytes_in(PlusFormat::Tari, &bytes).is_err());
    bytes[0] = 2;
    assert!(RangeProofPlus::<Ristretto255>::from_bytes_in(PlusFormat::Tari, &bytes).is_err());
}

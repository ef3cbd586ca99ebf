//! Bulletproofs cases: zkforge-bulletproofs against dalek's `bulletproofs` 5.0.0 (Ristretto,
//! curve25519-dalek 4) and Tari's `tari_bulletproofs_plus` 0.5.3 (Bulletproofs+, Ristretto,
//! curve25519-dalek 5), one thread, on the same values. Both dalek versions pick their field
//! backend at run time (AVX2 on this machine; IFMA needs a nightly build flag); ours runs on
//! curve25519-dalek 5 like Tari. The `ristretto_msm_147` row times the same 147-point
//! variable-time MSM on both dalek versions, so a reader sees what the version alone is worth. All three are variable time in verification and in the inner-product
//! rounds, constant time for the secret commitments.
//!
//! Checked before timing: our proof verifies in dalek and dalek's in ours (Ristretto rows),
//! Tari's proof verifies in Tari, and every verification timed returns Ok.
//! The `plus_*_promise_ext2` rows time Tari's two features beyond plain BP+ (a minimum-value
//! promise and extension degree 2, two blinding factors per commitment) on both sides, each
//! proof checked in the other library first.
//! Rows on BLS12-381 G1 and BN254 G1 show what our MSM gives there; the one arkworks peer on
//! that curve is docknetwork's `bulletproofs_plus_plus` 0.9 (Bulletproofs++, ePrint 2022/510:
//! a different and smaller argument, base-b digits and a weighted norm-linear argument, over
//! ark-bls12-381 0.4 with ark-ff's `asm`, its `parallel` default off), timed at bases 2 and
//! 16 (its public API's choices of digit base) against our Bulletproofs+ on the same curve.

use std::hint::black_box;

use merlin::Transcript;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zkforge_bulletproofs::{verify_batch, verify_batch_plus, BatchItem, BatchItemPlus, Bls12381G1, Bn254G1, BpGroup, BulletproofGens, Commitment, GeneratorTables, PedersenGens, ProverConfig, CtMsmMethod, RangeProof, RangeProofPlus, Ristretto255};

use crate::{timed, Case, Runner};

const LABEL: &[u8] = b"zkforge-bench";

fn values(rng: &mut ChaCha20Rng, m: usize) -> Vec<u64> {
    (0..m).map(|_| rng.gen()).collect()
}

/// Tari: parameters, statement and witness for `values` (plain range proofs: no minimum
/// value promise, no mask-recovery nonce).
struct Tari {
    statement: tari_bulletproofs_plus::range_statement::RangeStatement<curve25519_dalek_5::RistrettoPoint>,
    witness: tari_bulletproofs_plus::range_witness::RangeWitness,
}

fn tari_setup(v: &[u64], rng: &mut ChaCha20Rng) -> Tari {
    use tari_bulletproofs_plus::{commitment_opening::CommitmentOpening, generators::pedersen_gens::ExtensionDegree, range_parameters::RangeParameters, range_statement::RangeStatement, range_witness::RangeWitness, ristretto};
    let params = RangeParameters::init(64, v.len(), ristretto::create_pedersen_gens_with_extension_degree(ExtensionDegree::DefaultPedersen)).expect("tari parameters");
    let mut commitments = Vec::new();
    let mut openings = Vec::new();
    for &x in v {
        let mut b = [0u8; 64];
        rng.fill(&mut b[..]);
        let r = curve25519_dalek_5::Scalar::from_bytes_mod_order_wide(&b);
        commitments.push(params.pc_gens().commit(&curve25519_dalek_5::Scalar::from(x), &[r]).expect("tari commit"));
        openings.push(CommitmentOpening::new(x, vec![r]));
    }
    let statement = RangeStatement::init(params, commitments, vec![None; v.len()], None).expect("tari statement");
    Tari { statement, witness: RangeWitness::init(openings).expect("tari witness") }
}

fn tari_prove(t: &Tari) -> tari_bulletproofs_plus::ristretto::RistrettoRangeProof {
    tari_bulletproofs_plus::ristretto::RistrettoRangeProof::prove(&mut tari_merlin::Transcript::new(b"tari"), &t.statement, &t.witness).expect("tari prove")
}

fn tari_verify(statements: &[tari_bulletproofs_plus::range_statement::RangeStatement<curve25519_dalek_5::RistrettoPoint>], proofs: &[tari_bulletproofs_plus::ristretto::RistrettoRangeProof]) -> bool {
    let mut ts = vec![tari_merlin::Transcript::new(b"tari"); proofs.len()];
    tari_bulletproofs_plus::range_proof::RangeProof::verify_batch(&mut ts, statements, proofs, tari_bulletproofs_plus::range_proof::VerifyAction::VerifyOnly).is_ok()
}

fn to_dalek4(s: &[<Ristretto255 as BpGroup>::Scalar]) -> Vec<curve25519_dalek::Scalar> {
    s.iter().map(|x| curve25519_dalek::Scalar::from_bytes_mod_order(x.to_bytes_le())).collect()
}

/// The same variable-time MSM (147 random points and scalars, a 64-bit range proof's
/// verification size) on curve25519-dalek 4 and 5.
fn backend_row() -> Case {
    use curve25519_dalek::traits::VartimeMultiscalarMul as V4;
    use curve25519_dalek_5::traits::VartimeMultiscalarMul as V5;
    let mut rng = ChaCha20Rng::seed_from_u64(147);
    let mut wide = || {
        let mut b = [0u8; 64];
        rng.fill(&mut b[..]);
        b
    };
    let mut s4 = Vec::new();
    let mut p4 = Vec::new();
    let mut s5 = Vec::new();
    let mut p5 = Vec::new();
    for _ in 0..147 {
        let (s, p) = (wide(), wide());
        s4.push(curve25519_dalek::Scalar::from_bytes_mod_order_wide(&s));
        p4.push(curve25519_dalek::RistrettoPoint::from_uniform_bytes(&p));
        s5.push(curve25519_dalek_5::Scalar::from_bytes_mod_order_wide(&s));
        p5.push(curve25519_dalek_5::RistrettoPoint::from_uniform_bytes(&p));
    }
    let (a, b) = (curve25519_dalek::RistrettoPoint::vartime_multiscalar_mul(&s4, &p4), curve25519_dalek_5::RistrettoPoint::vartime_multiscalar_mul(&s5, &p5));
    let same = a.compress().to_bytes() == b.compress().to_bytes();
    Case {
        group: "bulletproofs",
        op: "ristretto_msm_147",
        curve: "ristretto255",
        size: 147,
        threads: 1,
        ours: timed(move || {
            black_box(curve25519_dalek_5::RistrettoPoint::vartime_multiscalar_mul(&s5, &p5));
        }),
        peers: vec![("curve25519-dalek-4.1", timed(move || {
            black_box(curve25519_dalek::RistrettoPoint::vartime_multiscalar_mul(&s4, &p4));
        }))],
        check: None,
    }
    .with_check(move || if same { Ok(()) } else { Err("dalek 4 and 5 disagree".into()) })
}

fn leak<T>(v: T) -> &'static T {
    Box::leak(Box::new(v))
}

/// Every Bulletproofs case.
pub fn cases() -> Vec<Case> {
    let mut out = vec![backend_row()];
    let mut rng = ChaCha20Rng::seed_from_u64(2017_1066);
    let bp: &'static BulletproofGens<Ristretto255> = leak(BulletproofGens::new(64, 16));
    let pc: &'static PedersenGens<Ristretto255> = leak(PedersenGens::default());
    let dbp: &'static bulletproofs::BulletproofGens = leak(bulletproofs::BulletproofGens::new(64, 16));
    let dpc: &'static bulletproofs::PedersenGens = leak(bulletproofs::PedersenGens::default());
    let t1: &'static GeneratorTables<Ristretto255> = leak(GeneratorTables::new(bp, pc, 64, 1).expect("tables"));
    let t16: &'static GeneratorTables<Ristretto255> = leak(GeneratorTables::new(bp, pc, 64, 16).expect("tables"));

    for &m in &[1usize, 16] {
        let v = values(&mut rng, m);
        let blind: Vec<_> = v.iter().map(|_| Ristretto255::scalar_random(&mut rng)).collect();
        let (proof, cs) = RangeProof::<Ristretto255>::prove_multiple_with_rng(bp, pc, &mut Transcript::new(LABEL), &v, &blind, 64, &mut rng).expect("prove");
        let dblind = to_dalek4(&blind);
        let (dproof, dcs) = bulletproofs::RangeProof::prove_multiple_with_rng(dbp, dpc, &mut Transcript::new(LABEL), &v, &dblind, 64, &mut rng).expect("dalek prove");
        let tari = leak(tari_setup(&v, &mut rng));
        let tproof = leak(tari_prove(tari));
        let proof = leak(proof);
        let cs = leak(cs);
        let dproof = leak(dproof);
        let dcs = leak(dcs);
        let tables = if m == 1 { t1 } else { t16 };
        let check = move || -> Result<(), String> {
            let ours_in_dalek = bulletproofs::RangeProof::from_bytes(&proof.to_bytes()).map_err(|e| format!("{e:?}"))?;
            let dc: Vec<_> = cs.iter().map(|c| curve25519_dalek::ristretto::CompressedRistretto::from_slice(&c.bytes).expect("32 bytes")).collect();
            ours_in_dalek.verify_multiple(dbp, dpc, &mut Transcript::new(LABEL), &dc, 64).map_err(|e| format!("dalek rejects ours: {e:?}"))?;
            let dalek_in_ours = RangeProof::<Ristretto255>::from_bytes(&dproof.to_bytes()).map_err(|e| e.to_string())?;
            let oc: Vec<Commitment<Ristretto255>> = dcs.iter().map(|c| Commitment::from_bytes(c.as_bytes()).expect("point")).collect();
            dalek_in_ours.verify_with_tables(bp, pc, tables, &mut Transcript::new(LABEL), &oc, 64).map_err(|e| format!("ours rejects dalek's: {e}"))?;
            if !tari_verify(std::slice::from_ref(&tari.statement), std::slice::from_ref(tproof)) {
                return Err("tari rejects its own proof".into());
            }
            Ok(())
        };
        let op_verify: &'static str = if m == 1 { "range_verify_64" } else { "range_verify_64x16" };
        out.push(
            Case {
                group: "bulletproofs",
                op: op_verify,
                curve: "ristretto255",
                size: m,
                threads: 1,
                ours: timed(move || {
                    proof.verify_with_tables(bp, pc, tables, &mut Transcript::new(LABEL), cs, 64).expect("verify");
                }),
                peers: vec![
                    ("dalek-bp5-vartime", timed(move || {
                        dproof.verify_multiple(dbp, dpc, &mut Transcript::new(LABEL), dcs, 64).expect("verify");
                    })),
                    ("tari-bp+0.5-vartime", timed(move || {
                        assert!(tari_verify(std::slice::from_ref(&tari.statement), std::slice::from_ref(tproof)));
                    })),
                ],
                check: None,
            }
            .with_check(check),
        );
        // without tables: the same MSM strategy as dalek's (one Straus/Pippenger call)
        let op_plain: &'static str = if m == 1 { "range_verify_64_notables" } else { "range_verify_64x16_notables" };
        out.push(Case {
            group: "bulletproofs",
            op: op_plain,
            curve: "ristretto255",
            size: m,
            threads: 1,
            ours: timed(move || {
                proof.verify_multiple(bp, pc, &mut Transcript::new(LABEL), cs, 64).expect("verify");
            }),
            peers: vec![("dalek-bp5-vartime", timed(move || {
                dproof.verify_multiple(dbp, dpc, &mut Transcript::new(LABEL), dcs, 64).expect("verify");
            }))],
            check: None,
        });
        let op_prove: &'static str = if m == 1 { "range_prove_64" } else { "range_prove_64x16" };
        let v = leak(v);
        let blind = leak(blind);
        let dblind = leak(dblind);
        let mut r1 = ChaCha20Rng::seed_from_u64(1);
        let mut r2 = ChaCha20Rng::seed_from_u64(1);
        out.push(Case {
            group: "bulletproofs",
            op: op_prove,
            curve: "ristretto255",
            size: m,
            threads: 1,
            ours: timed(move || {
                black_box(RangeProof::<Ristretto255>::prove_with_tables(bp, pc, Some(tables), &ProverConfig::default(), &mut Transcript::new(LABEL), v, blind, 64, &mut r1).expect("prove"));
            }),
            peers: vec![
                ("dalek-bp5-ct", timed(move || {
                    black_box(bulletproofs::RangeProof::prove_multiple_with_rng(dbp, dpc, &mut Transcript::new(LABEL), v, dblind, 64, &mut r2).expect("prove"));
                })),
                ("tari-bp+0.5-ct", timed(move || {
                    black_box(tari_prove(tari));
                })),
            ],
            check: None,
        });
    }

    // batch verification of 64 single-value 64-bit proofs
    let k = 64;
    let mut ours_p = Vec::new();
    let mut dalek_p = Vec::new();
    let mut tari_s = Vec::new();
    let mut tari_p = Vec::new();
    for _ in 0..k {
        let v = values(&mut rng, 1);
        let b = [Ristretto255::scalar_random(&mut rng)];
        ours_p.push(RangeProof::<Ristretto255>::prove_multiple_with_rng(bp, pc, &mut Transcript::new(LABEL), &v, &b, 64, &mut rng).expect("prove"));
        dalek_p.push(bulletproofs::RangeProof::prove_multiple_with_rng(dbp, dpc, &mut Transcript::new(LABEL), &v, &to_dalek4(&b), 64, &mut rng).expect("prove"));
        let t = tari_setup(&v, &mut rng);
        tari_p.push(tari_prove(&t));
        tari_s.push(t.statement);
    }
    let ours_p = leak(ours_p);
    let dalek_p = leak(dalek_p);
    let tari_s = leak(tari_s);
    let tari_p = leak(tari_p);
    let batch = move |use_tables: bool| -> Runner {
        let mut wr = ChaCha20Rng::seed_from_u64(3);
        timed(move || {
            let mut items: Vec<BatchItem<'_, Ristretto255>> = ours_p.iter().map(|(p, c)| BatchItem { proof: p, commitments: c, n: 64, transcript: Transcript::new(LABEL) }).collect();
            verify_batch(bp, pc, if use_tables { Some(t1) } else { None }, &mut items, &mut wr).expect("batch");
        })
    };
    out.push(
        Case {
            group: "bulletproofs",
            op: "range_verify_batch_64",
            curve: "ristretto255",
            size: k,
            threads: 1,
            ours: batch(false),
            peers: vec![
                ("dalek-bp5-vartime x64", timed(move || {
                    for (p, c) in dalek_p.iter() {
                        p.verify_multiple(dbp, dpc, &mut Transcript::new(LABEL), c, 64).expect("verify");
                    }
                })),
                ("tari-bp+0.5-vartime batch", timed(move || {
                    assert!(tari_verify(tari_s, tari_p));
                })),
                ("zkforge-tables", batch(true)),
            ],
            check: None,
        }
        .with_check(move || if tari_verify(tari_s, tari_p) { Ok(()) } else { Err("tari rejects its batch".into()) }),
    );

    out.extend(plus_rows(bp, pc, t1, t16));
    out.extend(tari_extended_rows(bp));
    out.extend(curve_rows::<Bls12381G1>("bls12_381"));
    out.extend(bpp_rows());
    out.extend(curve_rows::<Bn254G1>("bn254"));
    out
}

/// Bulletproofs+ against Tari's: 64-bit verify and prove, 16 values verify, a batch of 64.
/// Our prover runs its rounds in constant time (the WIP vectors hold the value bits); Tari's
/// runs them variable time.
fn plus_rows(bp: &'static BulletproofGens<Ristretto255>, pc: &'static PedersenGens<Ristretto255>, t1: &'static GeneratorTables<Ristretto255>, t16: &'static GeneratorTables<Ristretto255>) -> Vec<Case> {
    let mut rng = ChaCha20Rng::seed_from_u64(2020_735);
    let mut out = Vec::new();
    for &m in &[1usize, 16] {
        let v = leak(values(&mut rng, m));
        let blind = leak(v.iter().map(|_| Ristretto255::scalar_random(&mut rng)).collect::<Vec<_>>());
        let (proof, cs) = RangeProofPlus::<Ristretto255>::prove(bp, pc, &mut Transcript::new(LABEL), v, blind, 64, &mut rng).expect("prove");
        let (proof, cs) = (leak(proof), leak(cs));
        let tari = leak(tari_setup(v, &mut rng));
        let tproof = leak(tari_prove(tari));
        let tables = if m == 1 { t1 } else { t16 };
        let check = move || -> Result<(), String> {
            proof.verify_with(bp, pc, Some(tables), &mut Transcript::new(LABEL), cs, 64).map_err(|e| e.to_string())?;
            if !tari_verify(std::slice::from_ref(&tari.statement), std::slice::from_ref(tproof)) {
                return Err("tari rejects its own proof".into());
            }
            Ok(())
        };
        out.push(
            Case {
                group: "bulletproofs",
                op: if m == 1 { "plus_verify_64" } else { "plus_verify_64x16" },
                curve: "ristretto255",
                size: m,
                threads: 1,
                ours: timed(move || {
                    proof.verify_with(bp, pc, Some(tables), &mut Transcript::new(LABEL), cs, 64).expect("verify");
                }),
                peers: vec![("tari-bp+0.5-vartime", timed(move || {
                    assert!(tari_verify(std::slice::from_ref(&tari.statement), std::slice::from_ref(tproof)));
                }))],
                check: None,
            }
            .with_check(check),
        );
        let mut r1 = ChaCha20Rng::seed_from_u64(11);
        out.push(Case {
            group: "bulletproofs",
            op: if m == 1 { "plus_prove_64_ct" } else { "plus_prove_64x16_ct" },
            curve: "ristretto255",
            size: m,
            threads: 1,
            ours: timed(move || {
                black_box(RangeProofPlus::<Ristretto255>::prove(bp, pc, &mut Transcript::new(LABEL), v, blind, 64, &mut r1).expect("prove"));
            }),
            peers: vec![("tari-bp+0.5-vartime-rounds", timed(move || {
                black_box(tari_prove(tari));
            }))],
            check: None,
        });
    }
    let mut ours = Vec::new();
    let mut ts = Vec::new();
    let mut tp = Vec::new();
    for _ in 0..64 {
        let v = values(&mut rng, 1);
        let b = [Ristretto255::scalar_random(&mut rng)];
        ours.push(RangeProofPlus::<Ristretto255>::prove(bp, pc, &mut Transcript::new(LABEL), &v, &b, 64, &mut rng).expect("prove"));
        let t = tari_setup(&v, &mut rng);
        tp.push(tari_prove(&t));
        ts.push(t.statement);
    }
    let (ours, ts, tp) = (leak(ours), leak(ts), leak(tp));
    let mut wr = ChaCha20Rng::seed_from_u64(12);
    out.push(
        Case {
            group: "bulletproofs",
            op: "plus_verify_batch_64",
            curve: "ristretto255",
            size: 64,
            threads: 1,
            ours: timed(move || {
                let mut items: Vec<BatchItemPlus<'_, Ristretto255>> = ours.iter().map(|(p, c)| BatchItemPlus { proof: p, commitments: c, n: 64, transcript: Transcript::new(LABEL) }).collect();
                verify_batch_plus(bp, pc, Some(t1), &mut items, &mut wr).expect("batch");
            }),
            peers: vec![("tari-bp+0.5-vartime batch", timed(move || {
                assert!(tari_verify(ts, tp));
            }))],
            check: None,
        }
        .with_check(move || if tari_verify(ts, tp) { Ok(()) } else { Err("tari rejects its batch".into()) }),
    );
    out
}

/// Prove, verify and batch-verify 64 proofs on one of our curves (no peer).
fn curve_rows<G: BpGroup>(curve: &'static str) -> Vec<Case> {
    let mut rng = ChaCha20Rng::seed_from_u64(20);
    let bp: &'static BulletproofGens<G> = leak(BulletproofGens::new(64, 1));
    let pc: &'static PedersenGens<G> = leak(PedersenGens::default());
    let t1: &'static GeneratorTables<G> = leak(GeneratorTables::new(bp, pc, 64, 1).expect("tables"));
    let proofs: Vec<(RangeProof<G>, Vec<Commitment<G>>)> = (0..64)
        .map(|_| {
            let v = values(&mut rng, 1);
            let b = [G::scalar_random(&mut rng)];
            RangeProof::prove_multiple_with_rng(bp, pc, &mut Transcript::new(LABEL), &v, &b, 64, &mut rng).expect("prove")
        })
        .collect();
    let proofs = leak(proofs);
    let (p0, c0) = &proofs[0];
    let mut r = ChaCha20Rng::seed_from_u64(5);
    let b0 = G::scalar_random(&mut r);
    let mut wr = ChaCha20Rng::seed_from_u64(6);
    vec![
        Case {
            group: "bulletproofs",
            op: "range_prove_64",
            curve,
            size: 1,
            threads: 1,
            ours: timed(move || {
                black_box(RangeProof::<G>::prove_with_tables(bp, pc, Some(t1), &ProverConfig::default(), &mut Transcript::new(LABEL), &[12345], &[b0], 64, &mut r).expect("prove"));
            }),
            peers: vec![],
            check: None,
        },
        Case {
            group: "bulletproofs",
            op: "range_verify_64",
            curve,
            size: 1,
            threads: 1,
            ours: timed(move || {
                p0.verify_with_tables(bp, pc, t1, &mut Transcript::new(LABEL), c0, 64).expect("verify");
            }),
            peers: vec![("zkforge-notables", timed(move || {
                p0.verify_multiple(bp, pc, &mut Transcript::new(LABEL), c0, 64).expect("verify");
            }))],
            check: None,
        },
        Case {
            group: "bulletproofs",
            op: "range_verify_batch_64",
            curve,
            size: 64,
            threads: 1,
            ours: timed(move || {
                let mut items: Vec<BatchItem<'_, G>> = proofs.iter().map(|(p, c)| BatchItem { proof: p, commitments: c, n: 64, transcript: Transcript::new(LABEL) }).collect();
                verify_batch(bp, pc, Some(t1), &mut items, &mut wr).expect("batch");
            }),
            peers: vec![],
            check: None,
        },
    ]
}

/// Bulletproofs+ with a minimum-value promise at extension degree 2 (Tari's layout and
/// transcript), 64-bit values, one proof: ours against Tari's, on the same statement.
fn tari_extended_rows(bp: &'static BulletproofGens<Ristretto255>) -> Vec<Case> {
    use tari_bulletproofs_plus::{commitment_opening::CommitmentOpening, generators::pedersen_gens::ExtensionDegree, range_parameters::RangeParameters, range_statement::RangeStatement, range_witness::RangeWitness, ristretto};
    use zkforge_bulletproofs::{ExtendedPedersenGens, PlusFormat};
    let mut rng = ChaCha20Rng::seed_from_u64(2020_7352);
    let epc: &'static ExtendedPedersenGens<Ristretto255> = leak(ExtendedPedersenGens::tari(2).expect("degree 2"));
    let tables: &'static GeneratorTables<Ristretto255> = leak(GeneratorTables::new(bp, &epc.pc, 64, 1).expect("tables"));
    let v: &'static [u64] = leak(vec![rng.gen::<u64>() | (1 << 63)]);
    let mins: &'static [u64] = leak(vec![v[0] >> 1]);
    let blind: &'static Vec<Vec<<Ristretto255 as BpGroup>::Scalar>> = leak(vec![(0..2).map(|_| Ristretto255::scalar_random(&mut rng)).collect()]);
    let cfg = ProverConfig::BULLETPROOFS_PLUS;
    let (proof, cs) = RangeProofPlus::<Ristretto255>::prove_extended(bp, epc, &cfg, &mut Transcript::new(LABEL), v, mins, blind, 64, &mut rng).expect("prove");
    let (proof, cs) = (leak(proof), leak(cs));
    let to_dalek = |b: &<Ristretto255 as BpGroup>::Scalar| curve25519_dalek_5::Scalar::from_canonical_bytes(Ristretto255::scalar_to_bytes(b)).expect("canonical");
    let gens = ristretto::create_pedersen_gens_with_extension_degree(ExtensionDegree::try_from(2usize).expect("degree 2"));
    let params = RangeParameters::init(64, 1, gens.clone()).expect("tari parameters");
    let tari_c = gens.commit(&curve25519_dalek_5::Scalar::from(v[0]), &blind[0].iter().map(to_dalek).collect::<Vec<_>>()).expect("tari commit");
    let statement = leak(RangeStatement::init(params, vec![tari_c], vec![Some(mins[0])], None).expect("tari statement"));
    let witness = leak(RangeWitness::init(vec![CommitmentOpening::new(v[0], blind[0].iter().map(to_dalek).collect())]).expect("tari witness"));
    let tari_prove = move || ristretto::RistrettoRangeProof::prove(&mut tari_merlin::Transcript::new(LABEL), statement, witness).expect("tari prove");
    let tproof = leak(tari_prove());
    let tari_verify = move |p: &ristretto::RistrettoRangeProof| {
        let mut ts = vec![tari_merlin::Transcript::new(LABEL)];
        tari_bulletproofs_plus::range_proof::RangeProof::verify_batch(&mut ts, std::slice::from_ref(statement), std::slice::from_ref(p), tari_bulletproofs_plus::range_proof::VerifyAction::VerifyOnly).is_ok()
    };
    let check = move || -> Result<(), String> {
        if cs[0].bytes != tari_c.compress().to_bytes() {
            return Err("the two sides commit differently".into());
        }
        proof.verify_extended_with(bp, epc, Some(tables), &mut Transcript::new(LABEL), cs, mins, 64).map_err(|e| format!("ours rejects ours: {e}"))?;
        let theirs = RangeProofPlus::<Ristretto255>::from_bytes_in(PlusFormat::Tari, &tproof.to_bytes()).map_err(|e| e.to_string())?;
        theirs.verify_extended_with(bp, epc, Some(tables), &mut Transcript::new(LABEL), cs, mins, 64).map_err(|e| format!("ours rejects Tari's: {e}"))?;
        let ours_in_tari = ristretto::RistrettoRangeProof::from_bytes(&proof.to_bytes_in(PlusFormat::Tari)).map_err(|e| format!("{e:?}"))?;
        if !tari_verify(&ours_in_tari) || !tari_verify(tproof) {
            return Err("Tari rejects a proof".into());
        }
        Ok(())
    };
    let mut r1 = ChaCha20Rng::seed_from_u64(13);
    vec![
        Case {
            group: "bulletproofs",
            op: "plus_verify_64_promise_ext2",
            curve: "ristretto255",
            size: 1,
            threads: 1,
            ours: timed(move || {
                proof.verify_extended_with(bp, epc, Some(tables), &mut Transcript::new(LABEL), cs, mins, 64).expect("verify");
            }),
            peers: vec![("tari-bp+0.5-vartime", timed(move || assert!(tari_verify(tproof))))],
            check: None,
        }
        .with_check(check),
        Case {
            group: "bulletproofs",
            op: "plus_prove_64_promise_ext2_ct",
            curve: "ristretto255",
            size: 1,
            threads: 1,
            ours: timed(move || {
                black_box(RangeProofPlus::<Ristretto255>::prove_extended(bp, epc, &cfg, &mut Transcript::new(LABEL), v, mins, blind, 64, &mut r1).expect("prove"));
            }),
            peers: vec![("tari-bp+0.5-vartime-rounds", timed(move || {
                black_box(tari_prove());
            }))],
            check: None,
        },
    ]
}

/// One 64-bit range proof on BLS12-381 G1: our Bulletproofs+ (the verifier with the
/// generator tables) against docknetwork's arkworks Bulletproofs++ at digit bases 2 and 16.
fn bpp_rows() -> Vec<Case> {
    use ark_bls12_381_04::{Fr as ArkFr, G1Affine as ArkG1};
    use ark_std_04::UniformRand;
    use bulletproofs_plus_plus::prelude::{Proof as BppProof, Prover as BppProver, SetupParams};
    use dock_crypto_utils::transcript::new_merlin_transcript;
    type G = Bls12381G1;
    let mut rng = ChaCha20Rng::seed_from_u64(2022_510);
    let bp: &'static BulletproofGens<G> = leak(BulletproofGens::new(64, 1));
    let pc: &'static PedersenGens<G> = leak(PedersenGens::default());
    let t1: &'static GeneratorTables<G> = leak(GeneratorTables::new(bp, pc, 64, 1).expect("tables"));
    let v: &'static [u64] = leak(values(&mut rng, 1));
    let blind: &'static [<G as BpGroup>::Scalar] = leak(vec![G::scalar_random(&mut rng)]);
    let (proof, cs) = RangeProofPlus::<G>::prove(bp, pc, &mut Transcript::new(LABEL), v, blind, 64, &mut rng).expect("prove");
    let (proof, cs) = (leak(proof), leak(cs));
    let mut out = Vec::new();
    let mut verify_peers: Vec<(&'static str, Runner)> = Vec::new();
    let mut prove_peers: Vec<(&'static str, Runner)> = Vec::new();
    let mut checks: Vec<Box<dyn Fn() -> Result<(), String>>> = Vec::new();
    for (base, label) in [(2u16, "arkworks-bp++0.9-base2-vartime"), (16, "arkworks-bp++0.9-base16-vartime")] {
        let setup: &'static SetupParams<ArkG1> = leak(SetupParams::new_for_perfect_range_proof::<blake2::Blake2b512>(b"zkforge-bench", base, 64, 1));
        let gamma: &'static ArkFr = leak(ArkFr::rand(&mut rng));
        let big_v: &'static Vec<ArkG1> = leak(vec![setup.compute_pedersen_commitment(v[0], gamma)]);
        let mut prng = ChaCha20Rng::seed_from_u64(base as u64);
        let prove = move |rng: &mut ChaCha20Rng| -> BppProof<ArkG1> {
            let prover = BppProver::new_with_given_base(base, 64, big_v.clone(), v.to_vec(), vec![*gamma]).expect("bp++ prover");
            prover.prove(rng, setup.clone(), &mut new_merlin_transcript(b"zkforge-bench")).expect("bp++ prove")
        };
        let bproof: &'static BppProof<ArkG1> = leak(prove(&mut prng));
        let verify = move || bproof.verify(64, big_v, setup, &mut new_merlin_transcript(b"zkforge-bench")).is_ok();
        checks.push(Box::new(move || if verify() { Ok(()) } else { Err(format!("bp++ base {base} rejects its own proof")) }));
        verify_peers.push((label, timed(move || assert!(verify()))));
        prove_peers.push((label, timed(move || {
            black_box(prove(&mut prng));
        })));
    }
    let check = move || -> Result<(), String> {
        proof.verify_with(bp, pc, Some(t1), &mut Transcript::new(LABEL), cs, 64).map_err(|e| e.to_string())?;
        checks.iter().try_for_each(|c| c())
    };
    out.push(
        Case {
            group: "bulletproofs",
            op: "plus_verify_64",
            curve: "bls12_381",
            size: 1,
            threads: 1,
            ours: timed(move || {
                proof.verify_with(bp, pc, Some(t1), &mut Transcript::new(LABEL), cs, 64).expect("verify");
            }),
            peers: verify_peers,
            check: None,
        }
        .with_check(check),
    );
    let mut r1 = ChaCha20Rng::seed_from_u64(14);
    // the ablation: the same prover with both MSM switches on Straus (no IFMA lanes)
    let straus = ProverConfig { ct_msm: CtMsmMethod::Straus, fold_msm: CtMsmMethod::Straus, ..ProverConfig::BULLETPROOFS_PLUS };
    let mut r2 = ChaCha20Rng::seed_from_u64(15);
    prove_peers.push(("zkforge-ct-straus", timed(move || {
        black_box(RangeProofPlus::<G>::prove_with(bp, pc, &straus, &mut Transcript::new(LABEL), v, blind, 64, &mut r2).expect("prove"));
    })));
    out.push(Case {
        group: "bulletproofs",
        op: "plus_prove_64_ct",
        curve: "bls12_381",
        size: 1,
        threads: 1,
        ours: timed(move || {
            black_box(RangeProofPlus::<G>::prove(bp, pc, &mut Transcript::new(LABEL), v, blind, 64, &mut r1).expect("prove"));
        }),
        peers: prove_peers,
        check: None,
    });
    out
}

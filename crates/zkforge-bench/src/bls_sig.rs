//! BLS signature rows (zkforge-bls against blst's min_pk, the same ciphersuite), in the
//! pairing group: Sign, Verify, FastAggregateVerify of 64 keys, AggregateVerify of 8 and 64
//! messages, and 64 signature sets verified together.
//!
//! Both sides start from decoded keys and signatures (public keys validated once when
//! decoded, signatures subgroup-tested inside every verification, as blst's `sig_groupcheck =
//! true`) and return the same thing (a signature as an affine point, a verdict). One thread on
//! both sides: blst's multi-message functions spread their work over its own thread pool (a
//! worker per CPU), so the `blst` peer of those rows runs the same calls its workers make
//! (`Pairing::aggregate` / `Pairing::mul_n_aggregate`, `commit`, `finalverify`) on the calling
//! thread. The multi-message rows come again on every CPU (N, the `thr` column): ours with
//! `VerifyConfig::threads = N` against `blst-poolN`, blst's pooled public function itself,
//! whose pool has a worker per CPU. Verify and
//! FastAggregateVerify call blst's C `blst_core_verify_pk_in_g1` after its G2 test, which is
//! what `Signature::verify` runs for one key, without the pool hand-off.

use std::hint::black_box;

use blst::min_pk as b;
use blst::*;
use rand::{rngs::StdRng, RngCore, SeedableRng};
use zkforge_bls::{aggregate_verify_with, fast_aggregate_verify, verify, verify_signature_sets_with, PublicKey, SecretKey, Signature, SignatureSet, VerifyConfig, DST};

use crate::canon::Canon;
use crate::field::over_probe;
use crate::{probed_case, Case, Impl};

fn case(op: &'static str, size: usize, ours: Impl, peers: Vec<(&'static str, Impl)>) -> Case {
    let mut c = probed_case("pairing", op, "bls12_381", ours, peers);
    c.size = size;
    c
}

/// The default switches on exactly `t` threads (1: the calling thread, no pool).
fn threads(t: usize) -> VerifyConfig {
    VerifyConfig { threads: t, ..VerifyConfig::default() }
}

fn leak<T>(v: T) -> &'static T {
    Box::leak(Box::new(v))
}

/// n signers with keys from a seeded generator, and their blst twins (raw affine points for the
/// `Pairing` API).
struct Signers {
    sks: Vec<SecretKey>,
    pks: Vec<PublicKey>,
    bsks: Vec<b::SecretKey>,
    bpks: Vec<b::PublicKey>,
    raw_pks: Vec<blst_p1_affine>,
}

fn signers(rng: &mut StdRng, n: usize) -> Signers {
    let sks: Vec<SecretKey> = (0..n)
        .map(|_| {
            let mut ikm = [0u8; 32];
            rng.fill_bytes(&mut ikm);
            SecretKey::key_gen(&ikm, b"").unwrap()
        })
        .collect();
    let pks: Vec<PublicKey> = sks.iter().map(|k| k.public_key()).collect();
    let bsks: Vec<b::SecretKey> = sks.iter().map(|k| b::SecretKey::from_bytes(&*k.to_bytes()).unwrap()).collect();
    let bpks: Vec<b::PublicKey> = pks.iter().map(|p| b::PublicKey::from_bytes(&p.to_bytes()).unwrap()).collect();
    let raw_pks = pks.iter().map(|p| raw_p1(&p.to_bytes())).collect();
    Signers { sks, pks, bsks, bpks, raw_pks }
}

fn raw_p1(b: &[u8; 48]) -> blst_p1_affine {
    let mut p = blst_p1_affine::default();
    // SAFETY: blst reads 48 bytes and writes one point.
    let e = unsafe { blst_p1_uncompress(&mut p, b.as_ptr()) };
    assert_eq!(e, BLST_ERROR::BLST_SUCCESS);
    p
}

fn raw_p2(b: &[u8; 96]) -> blst_p2_affine {
    let mut p = blst_p2_affine::default();
    // SAFETY: blst reads 96 bytes and writes one point.
    let e = unsafe { blst_p2_uncompress(&mut p, b.as_ptr()) };
    assert_eq!(e, BLST_ERROR::BLST_SUCCESS);
    p
}

/// blst's one-key verification on the calling thread: the G2 test, then the core verify.
fn blst_verify_1thr(pk: &blst_p1_affine, msg: &[u8], sig: &blst_p2_affine) -> bool {
    // SAFETY: both points are valid blst values; blst reads msg and DST within their lengths.
    unsafe {
        blst_p2_affine_in_g2(sig)
            && blst_core_verify_pk_in_g1(pk, sig, true, msg.as_ptr(), msg.len(), DST.as_ptr(), DST.len(), std::ptr::null(), 0) == BLST_ERROR::BLST_SUCCESS
    }
}

/// blst's AggregateVerify on the calling thread: what each worker of `aggregate_verify` does,
/// then its final step.
fn blst_aggregate_verify_1thr(pks: &[blst_p1_affine], msgs: &[Vec<u8>], sig: &blst_p2_affine) -> bool {
    // SAFETY: sig is a valid blst point.
    if !unsafe { blst_p2_affine_in_g2(sig) } {
        return false;
    }
    let mut p = Pairing::new(true, DST);
    for (pk, m) in pks.iter().zip(msgs) {
        if p.aggregate(pk, false, &(), false, m, &[]) != BLST_ERROR::BLST_SUCCESS {
            return false;
        }
    }
    p.commit();
    let mut gt = blst_fp12::default();
    Pairing::aggregated(&mut gt, sig);
    p.finalverify(Some(&gt))
}

/// blst's `verify_multiple_aggregate_signatures` on the calling thread (64-bit weights).
fn blst_sets_1thr(pks: &[blst_p1_affine], msgs: &[Vec<u8>], sigs: &[blst_p2_affine], rng: &mut StdRng) -> bool {
    let mut p = Pairing::new(true, DST);
    for ((pk, m), s) in pks.iter().zip(msgs).zip(sigs) {
        let r = (rng.next_u64() | 1).to_le_bytes();
        if p.mul_n_aggregate(pk, false, s, true, &r, 64, m, &[]) != BLST_ERROR::BLST_SUCCESS {
            return false;
        }
    }
    p.commit();
    p.finalverify(None)
}

/// The BLS signature cases (see the module docs).
pub fn cases() -> Vec<Case> {
    let cpus = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let pool: &'static str = Box::leak(format!("blst-pool{cpus}").into_boxed_str());
    let mut rng = StdRng::seed_from_u64(2026_12_03);
    let mut out = Vec::new();
    let s: &'static Signers = leak(signers(&mut rng, 64));
    let msgs: &'static Vec<Vec<u8>> = leak((0..64).map(|_| (0..32).map(|_| rng.next_u32() as u8).collect()).collect());

    // Sign (constant time on both sides), to an affine point
    out.push(case(
        "bls_sign",
        1,
        over_probe(vec![0usize], move |_| s.sks[0].sign(&msgs[0]), |r: &Signature| r.to_bytes()),
        vec![("blst-ct", over_probe(vec![0usize], move |_| s.bsks[0].sign(&msgs[0], DST, &[]), |r: &b::Signature| r.compress()))],
    ));

    // Verify
    let sig0 = leak(s.sks[0].sign(&msgs[0]));
    let raw_sig0 = leak(raw_p2(&sig0.to_bytes()));
    out.push(case(
        "bls_verify",
        1,
        over_probe(vec![0usize], move |_| verify(&s.pks[0], &msgs[0], sig0), |r: &bool| *r),
        vec![("blst", over_probe(vec![0usize], move |_| blst_verify_1thr(&s.raw_pks[0], &msgs[0], raw_sig0), |r: &bool| *r))],
    ));

    // FastAggregateVerify, 64 keys (a sync-committee-sized share): blst aggregates the keys,
    // then verifies against the sum
    let agg1 = leak(Signature::aggregate(&s.sks.iter().map(|k| k.sign(&msgs[0])).collect::<Vec<_>>()).unwrap());
    let bagg1 = leak(b::Signature::from_bytes(&agg1.to_bytes()).unwrap());
    out.push(case(
        "bls_fast_aggregate_verify",
        64,
        over_probe(vec![0usize], move |_| fast_aggregate_verify(&s.pks, &msgs[0], agg1), |r: &bool| *r),
        vec![(
            "blst",
            over_probe(
                vec![0usize],
                move |_| {
                    let refs: Vec<&b::PublicKey> = s.bpks.iter().collect();
                    let apk = b::AggregatePublicKey::aggregate(&refs, false).unwrap().to_public_key();
                    let raw = raw_p1(&apk.compress());
                    blst_verify_1thr(&raw, &msgs[0], &raw_p2(&bagg1.compress()))
                },
                |r: &bool| *r,
            ),
        )],
    ));

    // AggregateVerify, n distinct messages: one thread on both sides, then every CPU on both
    // sides (ours on a pool of that many workers, blst's own pool)
    for n in [8usize, 64] {
        let agg = leak(Signature::aggregate(&(0..n).map(|i| s.sks[i].sign(&msgs[i])).collect::<Vec<_>>()).unwrap());
        let raw = leak(raw_p2(&agg.to_bytes()));
        let bsig = leak(b::Signature::from_bytes(&agg.to_bytes()).unwrap());
        out.push(case(
            "bls_aggregate_verify",
            n,
            over_probe(vec![0usize], move |_| aggregate_verify_with(&s.pks[..n], &msgs[..n], agg, &threads(1)), |r: &bool| *r),
            vec![("blst", over_probe(vec![0usize], move |_| blst_aggregate_verify_1thr(&s.raw_pks[..n], &msgs[..n], raw), |r: &bool| *r))],
        ));
        if cpus > 1 {
            let mut c = case(
                "bls_aggregate_verify",
                n,
                over_probe(vec![0usize], move |_| aggregate_verify_with(&s.pks[..n], &msgs[..n], agg, &threads(cpus)), |r: &bool| *r),
                vec![(
                    pool,
                    over_probe(
                        vec![0usize],
                        move |_| {
                            let refs: Vec<&b::PublicKey> = s.bpks[..n].iter().collect();
                            let m: Vec<&[u8]> = msgs[..n].iter().map(|m| m.as_slice()).collect();
                            bsig.aggregate_verify(true, &m, DST, &refs, false) == BLST_ERROR::BLST_SUCCESS
                        },
                        |r: &bool| *r,
                    ),
                )],
            );
            c.threads = cpus;
            out.push(c);
        }
    }

    // 64 signature sets (one key, one message each), one check with random 64-bit weights:
    // one thread on both sides, then every CPU on both sides
    let sigs: &'static Vec<Signature> = leak((0..64).map(|i| s.sks[i].sign(&msgs[i])).collect());
    let raw_sigs: &'static Vec<blst_p2_affine> = leak(sigs.iter().map(|x| raw_p2(&x.to_bytes())).collect());
    let bsigs: &'static Vec<b::Signature> = leak(sigs.iter().map(|x| b::Signature::from_bytes(&x.to_bytes()).unwrap()).collect());
    let ours_sets = move |t: usize| {
        over_probe(
            vec![0usize],
            move |_| {
                let sets: Vec<SignatureSet> = (0..64).map(|i| SignatureSet { public_keys: &s.pks[i..i + 1], message: &msgs[i], signature: &sigs[i] }).collect();
                let mut rng = StdRng::seed_from_u64(black_box(7));
                verify_signature_sets_with(&sets, &mut rng, &threads(t))
            },
            |r: &bool| *r,
        )
    };
    out.push(case(
        "bls_verify_signature_sets",
        64,
        ours_sets(1),
        vec![(
            "blst",
            over_probe(
                vec![0usize],
                move |_| {
                    let mut rng = StdRng::seed_from_u64(black_box(7));
                    blst_sets_1thr(&s.raw_pks, msgs, raw_sigs, &mut rng)
                },
                |r: &bool| *r,
            ),
        )],
    ));
    if cpus > 1 {
        let mut c = case(
            "bls_verify_signature_sets",
            64,
            ours_sets(cpus),
            vec![(
                pool,
                over_probe(
                    vec![0usize],
                    move |_| {
                        let mut rng = StdRng::seed_from_u64(black_box(7));
                        let rands: Vec<blst_scalar> = (0..64)
                            .map(|_| {
                                let mut x = blst_scalar::default();
                                x.b[..8].copy_from_slice(&(rng.next_u64() | 1).to_le_bytes());
                                x
                            })
                            .collect();
                        let pks: Vec<&b::PublicKey> = s.bpks.iter().collect();
                        let sg: Vec<&b::Signature> = bsigs.iter().collect();
                        let m: Vec<&[u8]> = msgs.iter().map(|m| m.as_slice()).collect();
                        b::Signature::verify_multiple_aggregate_signatures(&m, DST, &pks, false, &sg, true, &rands, 64) == BLST_ERROR::BLST_SUCCESS
                    },
                    |r: &bool| *r,
                ),
            )],
        );
        c.threads = cpus;
        out.push(c);
    }
    out
}

/// Bytes as one limb each (signature encodings in the rows' agreement checks).
impl<const N: usize> Canon for [u8; N] {
    fn canon(&self) -> Vec<u64> {
        self.iter().map(|&x| x as u64).collect()
    }
}

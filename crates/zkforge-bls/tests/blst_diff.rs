//! Differential tests against blst (min_pk, the same ciphersuite) on fresh random keys and
//! messages: KeyGen, SkToPk, Sign, PopProve, Verify, FastAggregateVerify, AggregateVerify and
//! batch verification (blst's `verify_multiple_aggregate_signatures`), with every value of
//! every [`VerifyConfig`] switch; valid inputs, wrong messages, wrong keys, swapped
//! signatures, identity signatures and twist points outside G2. The threaded checks also run
//! under both `zkforge_pairing::config::ParallelSplit` cuts (lane groups, near-equal parts) and
//! both [`Handoff`]s.

use blst::min_pk as b;
use blst::BLST_ERROR;
use rand::{Rng, RngCore, SeedableRng};
use zkforge_bls::*;
use zkforge_curve::bls12_381::G2Affine;
use zkforge_curve::hash_to_curve::map_to_curve_bls12_381_g2;
use zkforge_field::bls12_381::{Fp, Fp2};
use zkforge_pairing::config::{set_parallel_split, ParallelSplit};

/// The split is process-wide: the tests that set it take turns.
static SPLIT: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Every thread count of the tests, with both parallel splits and both handoffs where there
/// is more than one thread (the split is set before the triple is used).
fn thread_settings() -> impl Iterator<Item = (usize, ParallelSplit, Handoff)> {
    [(1, ParallelSplit::Auto, Handoff::CallerJoins)].into_iter().chain([2, 3, 0].into_iter().flat_map(|t| {
        [ParallelSplit::LaneGroups, ParallelSplit::Even].into_iter().flat_map(move |s| [Handoff::CallerJoins, Handoff::PoolOnly].map(|h| (t, s, h)))
    }))
}

fn rng() -> rand::rngs::StdRng {
    let seed = rand::thread_rng().gen();
    eprintln!("seed {seed}");
    rand::rngs::StdRng::seed_from_u64(seed)
}

fn random_key(rng: &mut impl RngCore) -> (SecretKey, b::SecretKey) {
    let mut ikm = [0u8; 32];
    rng.fill_bytes(&mut ikm);
    let ours = SecretKey::key_gen(&ikm, b"").unwrap();
    let theirs = b::SecretKey::from_bytes(&*ours.to_bytes()).unwrap();
    (ours, theirs)
}

fn random_msg(rng: &mut impl RngCore) -> Vec<u8> {
    let n = (rng.next_u32() % 80) as usize;
    (0..n).map(|_| rng.gen()).collect()
}

/// A point of the twist outside G2 (the SSWU map without cofactor clearing).
fn twist_point_outside_g2(rng: &mut impl RngCore) -> G2Affine {
    loop {
        let u = Fp2::new(Fp::from_u64(rng.next_u64()), Fp::from_u64(rng.next_u64()));
        let p = map_to_curve_bls12_381_g2(&u).to_affine();
        if !p.is_in_subgroup() {
            return p;
        }
    }
}

fn ok(e: BLST_ERROR) -> bool {
    e == BLST_ERROR::BLST_SUCCESS
}

#[test]
fn keys_and_signatures_equal_blst() {
    let mut rng = rng();
    for _ in 0..20 {
        let mut ikm = vec![0u8; 32 + (rng.next_u32() % 40) as usize];
        rng.fill_bytes(&mut ikm);
        let info = random_msg(&mut rng);
        let ours = SecretKey::key_gen(&ikm, &info).unwrap();
        let theirs = b::SecretKey::key_gen(&ikm, &info).unwrap();
        assert_eq!(*ours.to_bytes(), theirs.to_bytes());
        assert_eq!(ours.public_key().to_bytes(), theirs.sk_to_pk().compress());
        let msg = random_msg(&mut rng);
        assert_eq!(ours.sign(&msg).to_bytes(), theirs.sign(&msg, DST, &[]).compress());
        let pk = ours.public_key().to_bytes();
        assert_eq!(ours.pop_prove().to_bytes(), theirs.sign(&pk, POP_DST, &[]).compress());
        assert!(pop_verify(&ours.public_key(), &ours.pop_prove()));
        assert!(!pop_verify(&ours.public_key(), &ours.sign(&pk)), "a signature of the key bytes is no proof");
        // round trips
        assert_eq!(SecretKey::from_bytes(&*ours.to_bytes()).unwrap(), ours);
        assert_eq!(PublicKey::from_bytes(&pk).unwrap(), ours.public_key());
    }
    assert!(SecretKey::key_gen(&[0u8; 31], b"").is_err());
    assert!(SecretKey::from_bytes(&[1u8; 31]).is_err());
    // r itself and r - 1
    let r = hex_r();
    assert_eq!(SecretKey::from_bytes(&r), Err(BlsError::InvalidSecretKey));
    let mut r1 = r;
    r1[31] -= 1;
    assert!(SecretKey::from_bytes(&r1).is_ok());
}

fn hex_r() -> [u8; 32] {
    let s = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";
    let mut out = [0u8; 32];
    for i in 0..32 {
        out[i] = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap();
    }
    out
}

#[test]
fn verify_equals_blst() {
    let mut rng = rng();
    for _ in 0..12 {
        let (sk, bsk) = random_key(&mut rng);
        let (sk2, _) = random_key(&mut rng);
        let msg = random_msg(&mut rng);
        let sig = sk.sign(&msg);
        let bsig = b::Signature::from_bytes(&sig.to_bytes()).unwrap();
        let bpk = bsk.sk_to_pk();
        let other = random_msg(&mut rng);
        for (pk, m, s, bpk_, bs) in [
            (sk.public_key(), &msg, sig, bpk, bsig),
            (sk.public_key(), &other, sig, bpk, bsig),
            (sk2.public_key(), &msg, sig, b::PublicKey::from_bytes(&sk2.public_key().to_bytes()).unwrap(), bsig),
        ] {
            let ours = verify(&pk, m, &s);
            let theirs = ok(bs.verify(true, m, DST, &[], &bpk_, true));
            assert_eq!(ours, theirs);
            assert_eq!(ours, m == &msg && pk == sk.public_key());
        }
    }
    // the identity signature, and a twist point outside G2, never verify
    let (sk, _) = random_key(&mut rng);
    let mut inf = [0u8; 96];
    inf[0] = 0xc0;
    assert!(!verify(&sk.public_key(), b"m", &Signature::from_bytes(&inf).unwrap()));
    for _ in 0..4 {
        let q = twist_point_outside_g2(&mut rng);
        let s = Signature::from_bytes(&q.to_compressed()).unwrap();
        assert!(!s.is_in_subgroup());
        assert!(Signature::from_bytes_validated(&q.to_compressed()).is_err());
        assert!(!verify(&sk.public_key(), b"m", &s));
        assert!(!fast_aggregate_verify(&[sk.public_key()], b"m", &s));
        assert!(!aggregate_verify(&[sk.public_key()], &[b"m"], &s));
        // a valid signature plus a torsion-carrying point: still refused
        let sum = Signature::aggregate(&[sk.sign(b"m"), s]).unwrap();
        assert!(!verify(&sk.public_key(), b"m", &sum));
    }
}

#[test]
fn aggregates_equal_blst() {
    let _turn = SPLIT.lock().unwrap_or_else(|e| e.into_inner());
    let mut rng = rng();
    for n in 1..=10usize {
        let keys: Vec<_> = (0..n).map(|_| random_key(&mut rng)).collect();
        let pks: Vec<PublicKey> = keys.iter().map(|k| k.0.public_key()).collect();
        let bpks: Vec<b::PublicKey> = keys.iter().map(|k| k.1.sk_to_pk()).collect();
        let bpk_refs: Vec<&b::PublicKey> = bpks.iter().collect();
        // one message
        let msg = random_msg(&mut rng);
        let agg = Signature::aggregate(&keys.iter().map(|k| k.0.sign(&msg)).collect::<Vec<_>>()).unwrap();
        let bagg = b::Signature::from_bytes(&agg.to_bytes()).unwrap();
        assert!(fast_aggregate_verify(&pks, &msg, &agg));
        assert!(ok(bagg.fast_aggregate_verify(true, &msg, DST, &bpk_refs)));
        assert_eq!(fast_aggregate_verify(&pks[..n - 1], &msg, &agg), ok(bagg.fast_aggregate_verify(true, &msg, DST, &bpk_refs[..n - 1])));
        assert!(!fast_aggregate_verify(&pks, b"other", &agg));
        // n messages, some repeated
        let msgs: Vec<Vec<u8>> = (0..n).map(|i| if i % 3 == 2 { b"same".to_vec() } else { random_msg(&mut rng) }).collect();
        let agg = Signature::aggregate(&keys.iter().zip(&msgs).map(|(k, m)| k.0.sign(m)).collect::<Vec<_>>()).unwrap();
        let bagg = b::Signature::from_bytes(&agg.to_bytes()).unwrap();
        let mrefs: Vec<&[u8]> = msgs.iter().map(|m| m.as_slice()).collect();
        let outside = Signature::from_bytes(&twist_point_outside_g2(&mut rng).to_compressed()).unwrap();
        let identity = Signature::from_bytes(&G2Affine::IDENTITY.to_compressed()).unwrap();
        for hash in [HashMethod::Batch, HashMethod::OneByOne] {
            for merge in [false, true] {
                for (threads, split, handoff) in thread_settings() {
                    set_parallel_split(split);
                    let cfg = VerifyConfig { hash, merge_equal_messages: merge, threads, handoff };
                    assert!(aggregate_verify_with(&pks, &msgs, &agg, &cfg), "n = {n}, {cfg:?}");
                    let mut swapped = mrefs.clone();
                    if n > 1 {
                        swapped.swap(0, 1);
                        let theirs = ok(bagg.aggregate_verify(true, &swapped, DST, &bpk_refs, true));
                        assert_eq!(aggregate_verify_with(&pks, &swapped, &agg, &cfg), theirs);
                        // a wrong message in the last part
                        let mut wrong = mrefs.clone();
                        wrong[n - 1] = b"not this one";
                        assert!(!aggregate_verify_with(&pks, &wrong, &agg, &cfg));
                    }
                    assert!(!aggregate_verify_with(&pks, &msgs, &outside, &cfg));
                    assert!(!aggregate_verify_with(&pks, &msgs, &identity, &cfg));
                    assert!(!aggregate_verify_with(&pks[..n - 1], &msgs, &agg, &cfg));
                }
            }
        }
        assert!(ok(bagg.aggregate_verify(true, &mrefs, DST, &bpk_refs, true)));
    }
}

#[test]
fn signature_sets_equal_blst_under_every_switch() {
    let _turn = SPLIT.lock().unwrap_or_else(|e| e.into_inner());
    let mut rng = rng();
    for n in [1usize, 2, 3, 5, 8, 9, 17] {
        // sets of 1-3 keys each; some share a message
        let mut keys = Vec::new();
        let mut msgs: Vec<Vec<u8>> = Vec::new();
        let mut sigs = Vec::new();
        for i in 0..n {
            let k: Vec<_> = (0..1 + i % 3).map(|_| random_key(&mut rng)).collect();
            let m = if i % 4 == 3 { msgs[0].clone() } else { random_msg(&mut rng) };
            let s = Signature::aggregate(&k.iter().map(|k| k.0.sign(&m)).collect::<Vec<_>>()).unwrap();
            keys.push(k);
            msgs.push(m);
            sigs.push(s);
        }
        let pks: Vec<Vec<PublicKey>> = keys.iter().map(|k| k.iter().map(|k| k.0.public_key()).collect()).collect();
        let sets: Vec<SignatureSet> = (0..n).map(|i| SignatureSet { public_keys: &pks[i], message: &msgs[i], signature: &sigs[i] }).collect();
        // blst: aggregate each set's keys, then verify_multiple_aggregate_signatures
        let bapks: Vec<b::PublicKey> = pks
            .iter()
            .map(|set| {
                let v: Vec<b::PublicKey> = set.iter().map(|p| b::PublicKey::from_bytes(&p.to_bytes()).unwrap()).collect();
                let r: Vec<&b::PublicKey> = v.iter().collect();
                b::AggregatePublicKey::aggregate(&r, true).unwrap().to_public_key()
            })
            .collect();
        let bsigs: Vec<b::Signature> = sigs.iter().map(|s| b::Signature::from_bytes(&s.to_bytes()).unwrap()).collect();
        let blst_check = |msgs: &[&[u8]], sigs: &[&b::Signature]| {
            let rands: Vec<blst::blst_scalar> = (0..n)
                .map(|_| {
                    let mut s = blst::blst_scalar::default();
                    s.b[..8].copy_from_slice(&(rand::random::<u64>() | 1).to_le_bytes());
                    s
                })
                .collect();
            let pk_refs: Vec<&b::PublicKey> = bapks.iter().collect();
            ok(b::Signature::verify_multiple_aggregate_signatures(msgs, DST, &pk_refs, false, sigs, true, &rands, 64))
        };
        let mrefs: Vec<&[u8]> = msgs.iter().map(|m| m.as_slice()).collect();
        let srefs: Vec<&b::Signature> = bsigs.iter().collect();
        assert!(blst_check(&mrefs, &srefs));
        for (hash, merge, (threads, split, handoff)) in [HashMethod::Batch, HashMethod::OneByOne].into_iter().flat_map(|h| [false, true].into_iter().flat_map(move |m| thread_settings().map(move |t| (h, m, t)))) {
            {
                set_parallel_split(split);
                let cfg = VerifyConfig { hash, merge_equal_messages: merge, threads, handoff };
                assert!(verify_signature_sets_with(&sets, &mut rng, &cfg), "n = {n}, {cfg:?}");
                if n > 1 {
                    // a wrong message
                    let mut bad = sets.clone();
                    let other = b"not this one".to_vec();
                    bad[n - 1].message = &other;
                    let mut bm = mrefs.clone();
                    bm[n - 1] = &other;
                    assert_eq!(verify_signature_sets_with(&bad, &mut rng, &cfg), blst_check(&bm, &srefs));
                    assert!(!verify_signature_sets_with(&bad, &mut rng, &cfg));
                    // two signatures swapped (their sum is unchanged: each set must hold alone)
                    let mut sw = sets.clone();
                    sw[0].signature = &sigs[n - 1];
                    sw[n - 1].signature = &sigs[0];
                    let mut bs = srefs.clone();
                    bs.swap(0, n - 1);
                    assert_eq!(verify_signature_sets_with(&sw, &mut rng, &cfg), blst_check(&mrefs, &bs));
                    assert!(!verify_signature_sets_with(&sw, &mut rng, &cfg));
                }
                // a signature outside G2, in the first and in the last part
                let q = Signature::from_bytes(&twist_point_outside_g2(&mut rng).to_compressed()).unwrap();
                for at in [0, n - 1] {
                    let mut bad = sets.clone();
                    bad[at].signature = &q;
                    assert!(!verify_signature_sets_with(&bad, &mut rng, &cfg));
                }
                // a set without keys in the last part
                let mut bad = sets.clone();
                bad[n - 1].public_keys = &[];
                assert!(!verify_signature_sets_with(&bad, &mut rng, &cfg));
            }
        }
        // a set without keys, and no sets
        let mut bad = sets.clone();
        bad[0].public_keys = &[];
        assert!(!verify_signature_sets(&bad, &mut rng));
        assert!(!verify_signature_sets(&[], &mut rng));
    }
}

//! Verification (draft-irtf-cfrg-bls-signature-05, sections 2.7, 2.9, 3.3.4 and 3.3.3):
//! `Verify`, `FastAggregateVerify`, `AggregateVerify`, `PopVerify`, and many signature sets
//! checked together by a random linear combination (the method of Ethereum clients' batch
//! verification, e.g. blst's `verify_multiple_aggregate_signatures`).
//!
//! Each is one pairing check. The signature sits in the pair (-g1, sigma), so its G2 subgroup
//! test comes from the end of the Miller loop (`pairing_check_g2_unchecked`). For signature
//! sets, with weights r_i (random, 64 bits, non-zero):
//!
//!   e(-g1, sum_i r_i sigma_i) * prod_m e(sum_{i: m_i = m} r_i apk_i, H(m)) = 1,
//!
//! where apk_i is the sum of set i's public keys: the weighted signatures are one G2 MSM
//! (zkforge-msm), the weighted keys one batch of 64-bit G1 products (`mul_many_vartime`, IFMA
//! lanes), sets that share a message share one pair and one hash (switch
//! [`VerifyConfig::merge_equal_messages`]), and every sigma_i is subgroup-tested first in
//! batches (`g2_in_subgroup_batch_vartime`), since a sum could hide torsion parts. A forged
//! set passes with probability at most 2^-63 over the weights.
//!
//! The multi-message checks run on [`VerifyConfig::threads`] threads (by default one per CPU,
//! as blst's pool does): the sets (or messages) are cut into one contiguous part per thread;
//! each part validates, weights and hashes its own inputs and runs the Miller loop of its
//! pairs; the parts' Miller values are multiplied and one final exponentiation decides. The
//! weights are drawn on the calling thread in set order, so every thread count computes the
//! same weighted sums.

use std::collections::HashMap;
use std::ops::Range;

use rand_core::{CryptoRng, RngCore};
use rayon::prelude::*;
use zkforge_curve::bls12_381::{g2_in_subgroup_batch_vartime, G1Affine, G1Projective, G2Affine, G2Config, G2Projective};
use zkforge_curve::hash_to_curve::{hash_to_g2, hash_to_g2_batch_vartime};
use zkforge_field::bls12_381::Fp12;
use zkforge_pairing::bls12_381::{final_exponentiation, multi_miller_loop, multi_miller_loop_g2_unchecked, pairing_check_g2_unchecked, parallel_part_len};

use crate::{PublicKey, Signature, DST, POP_DST};

/// How the messages of a multi-message verification are hashed to G2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HashMethod {
    /// `hash_to_g2_batch_vartime`: groups of up to eight messages share one inversion and run
    /// their exponentiations and cofactor ladders on IFMA lanes (one by one on CPUs without).
    #[default]
    Batch,
    /// `hash_to_g2` once per message.
    OneByOne,
}

/// How a multi-thread verification hands its parts to threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Handoff {
    /// The calling thread runs the first part and a cached pool of `threads - 1` workers the
    /// others (`rayon::ThreadPool::in_place_scope`): one worker to wake for two threads, and
    /// the caller's core stays busy. On a 2-vCPU Zen 4 VM (`examples/verify_split.rs`,
    /// 2026-12-06, two runs) two threads of `aggregate_verify` on 8 messages took 1700-1720 us
    /// against 1746-2112 us with [`Handoff::PoolOnly`] (1717-1743 against 1780-1796 us after
    /// 2 ms idle), and the rows of 4 to 16 messages were equal or faster with fewer slow
    /// outliers.
    #[default]
    CallerJoins,
    /// A cached pool of `threads` workers runs every part (`install` and a parallel iterator):
    /// the caller waits, and one woken worker wakes the next.
    PoolOnly,
}

/// The switches of [`aggregate_verify_with`] and [`verify_signature_sets_with`]; every value
/// gives the same answer.
///
/// ```
/// use zkforge_bls::{verify_signature_sets_with, SecretKey, SignatureSet, VerifyConfig};
/// let sk = SecretKey::from_bytes(&[3; 32]).unwrap();
/// let (pk, sig) = (sk.public_key(), sk.sign(b"m"));
/// let sets = vec![SignatureSet { public_keys: std::slice::from_ref(&pk), message: b"m", signature: &sig }; 4];
/// // on the calling thread only, no pool
/// let one = VerifyConfig { threads: 1, ..VerifyConfig::default() };
/// assert!(verify_signature_sets_with(&sets, &mut rand::rngs::OsRng, &one));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifyConfig {
    /// How messages are hashed (default [`HashMethod::Batch`]).
    pub hash: HashMethod,
    /// Signature sets with equal messages share one hash and one pair (default on).
    pub merge_equal_messages: bool,
    /// Threads: 0 (the default) one per CPU; 1 the calling thread alone, with no pool; n
    /// threads from cached rayon pools (`zkforge_msm::pippenger::pool`, as [`VerifyConfig::handoff`]
    /// says). A check never uses more threads than it has sets (or messages).
    pub threads: usize,
    /// Where the parts run when there is more than one (default [`Handoff::CallerJoins`]).
    pub handoff: Handoff,
}

impl Default for VerifyConfig {
    fn default() -> Self {
        Self { hash: HashMethod::Batch, merge_equal_messages: true, threads: 0, handoff: Handoff::CallerJoins }
    }
}

impl VerifyConfig {
    /// The thread count for `items` independent inputs: [`VerifyConfig::threads`] resolved (0
    /// to the CPU count), at most `items`, at least 1.
    fn threads_for(&self, items: usize) -> usize {
        let t = match self.threads {
            0 => std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
            t => t,
        };
        t.min(items).max(1)
    }
}

/// `0..n` cut into at most `parts` contiguous ranges as the parallel Miller loop cuts pairs
/// (`parallel_part_len`, by `zkforge_pairing::config::parallel_split`): of near-equal length,
/// or, where that is the measured best (full-width AVX-512 units), each but the last a whole
/// number of Miller-loop groups (eight pairs where the loop runs on IFMA lanes, which is also
/// the group of the batched hash), so that eight messages stay on one thread.
fn split(n: usize, parts: usize) -> Vec<Range<usize>> {
    let len = parallel_part_len(n, parts).max(1);
    (0..n).step_by(len).map(|a| a..(a + len).min(n)).collect()
}

/// `f` on every part, one thread per part (`split` never makes more parts than threads): on
/// the calling thread for one part; else by `handoff`, the first part on the calling thread
/// and the others on a pool of one worker each, or all on a pool of one worker per part.
/// `None` from any part is `None`.
fn run_parts<T: Send>(parts: &[Range<usize>], handoff: Handoff, f: impl Fn(usize, Range<usize>) -> Option<T> + Sync) -> Option<Vec<T>> {
    if parts.len() <= 1 {
        return parts.iter().enumerate().map(|(i, r)| f(i, r.clone())).collect();
    }
    match handoff {
        Handoff::CallerJoins => {
            let mut out: Vec<Option<T>> = parts.iter().map(|_| None).collect();
            let (first, rest) = out.split_first_mut().expect("two parts or more");
            let f = &f;
            zkforge_msm::pippenger::pool(parts.len() - 1).in_place_scope(|s| {
                for (i, slot) in rest.iter_mut().enumerate() {
                    let r = parts[i + 1].clone();
                    s.spawn(move |_| *slot = f(i + 1, r));
                }
                *first = f(0, parts[0].clone());
            });
            out.into_iter().collect()
        }
        Handoff::PoolOnly => zkforge_msm::pippenger::pool(parts.len()).install(|| parts.par_iter().enumerate().map(|(i, r)| f(i, r.clone())).collect()),
    }
}

/// The product of Miller values (a part that failed is `None`), its final exponentiation,
/// and whether that is 1.
fn is_one_after_final_exponentiation(values: Option<Vec<Fp12>>) -> bool {
    let Some(values) = values else { return false };
    let f = values.into_iter().fold(Fp12::ONE, |a, b| a * b);
    final_exponentiation(&f).is_some_and(|g| g.is_identity())
}

fn hash_messages(msgs: &[&[u8]], dst: &[u8], method: HashMethod) -> Option<Vec<G2Affine>> {
    match method {
        HashMethod::Batch => hash_to_g2_batch_vartime(msgs, dst).ok(),
        HashMethod::OneByOne => msgs.iter().map(|m| hash_to_g2(m, dst).ok()).collect(),
    }
}

fn neg_g1() -> G1Affine {
    -G1Affine::generator()
}

/// The draft's `CoreVerify` for one key: e(-g1, sigma) e(pk, H(m)) = 1 with sigma in G2.
fn core_verify(pk: &G1Affine, message: &[u8], sig: &Signature, dst: &[u8]) -> bool {
    let Ok(h) = hash_to_g2(message, dst) else { return false };
    pairing_check_g2_unchecked(&[(neg_g1(), sig.0), (*pk, h)]) == Ok(true)
}

/// `Verify(PK, message, signature)`: whether `signature` is `pk`'s signature of `message`
/// (the signature must be in G2; the key passed `KeyValidate` when it was made).
///
/// ```
/// use zkforge_bls::{verify, SecretKey};
/// let sk = SecretKey::from_bytes(&[9; 32]).unwrap();
/// let sig = sk.sign(b"block root");
/// assert!(verify(&sk.public_key(), b"block root", &sig));
/// assert!(!verify(&SecretKey::from_bytes(&[8; 32]).unwrap().public_key(), b"block root", &sig));
/// ```
pub fn verify(pk: &PublicKey, message: &[u8], signature: &Signature) -> bool {
    core_verify(&pk.0, message, signature, DST)
}

/// `PopVerify(PK, proof)`: whether `proof` is a proof of possession of `pk`'s secret key.
pub fn pop_verify(pk: &PublicKey, proof: &Signature) -> bool {
    core_verify(&pk.0, &pk.to_bytes(), proof, POP_DST)
}

/// `FastAggregateVerify(PK_1..PK_n, message, signature)`: whether `signature` is the
/// aggregate of the keys' signatures of one message (false for no keys, or when the keys sum
/// to the identity). Safe against rogue keys only for keys with a verified proof of
/// possession, as in the draft.
///
/// ```
/// use zkforge_bls::{fast_aggregate_verify, SecretKey, Signature};
/// let sks: Vec<_> = (1..=3u8).map(|i| SecretKey::from_bytes(&[i; 32]).unwrap()).collect();
/// let pks: Vec<_> = sks.iter().map(|s| s.public_key()).collect();
/// let agg = Signature::aggregate(&sks.iter().map(|s| s.sign(b"slot")).collect::<Vec<_>>()).unwrap();
/// assert!(fast_aggregate_verify(&pks, b"slot", &agg));
/// assert!(!fast_aggregate_verify(&pks[..2], b"slot", &agg));
/// assert!(!fast_aggregate_verify(&[], b"slot", &agg));
/// ```
pub fn fast_aggregate_verify(pks: &[PublicKey], message: &[u8], signature: &Signature) -> bool {
    match PublicKey::aggregate(pks) {
        Ok(apk) => core_verify(&apk.0, message, signature, DST),
        Err(_) => false,
    }
}

/// `AggregateVerify((PK_1..PK_n), (m_1..m_n), signature)` of the proof-of-possession scheme
/// (the messages need not differ): false for no keys or unequal lengths. The messages are
/// hashed together ([`HashMethod::Batch`]); [`aggregate_verify_with`] takes the switches.
///
/// ```
/// use zkforge_bls::{aggregate_verify, SecretKey, Signature};
/// let a = SecretKey::from_bytes(&[1; 32]).unwrap();
/// let b = SecretKey::from_bytes(&[2; 32]).unwrap();
/// let agg = Signature::aggregate(&[a.sign(b"x"), b.sign(b"y")]).unwrap();
/// assert!(aggregate_verify(&[a.public_key(), b.public_key()], &[b"x", b"y"], &agg));
/// assert!(!aggregate_verify(&[a.public_key(), b.public_key()], &[b"y", b"x"], &agg));
/// ```
pub fn aggregate_verify<M: AsRef<[u8]>>(pks: &[PublicKey], messages: &[M], signature: &Signature) -> bool {
    aggregate_verify_with(pks, messages, signature, &VerifyConfig::default())
}

/// [`aggregate_verify`] with the switches chosen (`merge_equal_messages` does not apply: each
/// key has its own pair). Each part (one on one thread) hashes its messages and runs the
/// Miller loop of its pairs; the first part also holds the signature's pair, whose G2 test
/// comes from the end of its loop (`multi_miller_loop_g2_unchecked`).
pub fn aggregate_verify_with<M: AsRef<[u8]>>(pks: &[PublicKey], messages: &[M], signature: &Signature, cfg: &VerifyConfig) -> bool {
    if pks.is_empty() || pks.len() != messages.len() {
        return false;
    }
    let msgs: Vec<&[u8]> = messages.iter().map(|m| m.as_ref()).collect();
    let parts = split(msgs.len(), cfg.threads_for(msgs.len()));
    let values = run_parts(&parts, cfg.handoff, |i, r| {
        let hs = hash_messages(&msgs[r.clone()], DST, cfg.hash)?;
        let mut pairs = Vec::with_capacity(r.len() + 1);
        if i > 0 {
            pairs.extend(pks[r].iter().zip(hs).map(|(pk, h)| (pk.0, h)));
            return Some(multi_miller_loop(&pairs));
        }
        pairs.push((neg_g1(), signature.0));
        pairs.extend(pks[r].iter().zip(hs).map(|(pk, h)| (pk.0, h)));
        multi_miller_loop_g2_unchecked(&pairs).ok()
    });
    is_one_after_final_exponentiation(values)
}

/// One signature set of [`verify_signature_sets`]: `signature` is the aggregate of
/// `public_keys`' signatures of `message` (one key for a plain signature).
#[derive(Clone, Copy, Debug)]
pub struct SignatureSet<'a> {
    /// The signers' keys (aggregated by addition, as in `FastAggregateVerify`).
    pub public_keys: &'a [PublicKey],
    /// The signed message.
    pub message: &'a [u8],
    /// The (aggregate) signature.
    pub signature: &'a Signature,
}

/// Whether every set holds: the same answer as [`fast_aggregate_verify`] on each set and a
/// logical and, except with probability at most 2^-63 over `rng`'s weights (a random linear
/// combination, one pairing check for all). False for no sets, a set without keys, keys
/// that sum to the identity, or a signature outside G2. `rng` must be a cryptographic RNG
/// the signers cannot predict.
///
/// ```
/// use zkforge_bls::{verify_signature_sets, SecretKey, SignatureSet};
/// let sks: Vec<_> = (1..=4u8).map(|i| SecretKey::from_bytes(&[i; 32]).unwrap()).collect();
/// let pks: Vec<_> = sks.iter().map(|s| s.public_key()).collect();
/// let msgs: Vec<Vec<u8>> = (0..4u8).map(|i| vec![i; 32]).collect();
/// let sigs: Vec<_> = sks.iter().zip(&msgs).map(|(s, m)| s.sign(m)).collect();
/// let sets: Vec<_> = (0..4)
///     .map(|i| SignatureSet { public_keys: &pks[i..i + 1], message: &msgs[i], signature: &sigs[i] })
///     .collect();
/// let mut rng = rand::rngs::OsRng;
/// assert!(verify_signature_sets(&sets, &mut rng));
/// let mut bad = sets.clone();
/// bad[2].message = &msgs[3];
/// assert!(!verify_signature_sets(&bad, &mut rng));
/// ```
pub fn verify_signature_sets<R: RngCore + CryptoRng>(sets: &[SignatureSet<'_>], rng: &mut R) -> bool {
    verify_signature_sets_with(sets, rng, &VerifyConfig::default())
}

/// [`verify_signature_sets`] with the switches chosen. With more than one thread, the sets
/// are cut into one part per thread, and each part tests its signatures for G2, aggregates and
/// weights its keys and sums its weighted signatures (a one-thread MSM); the distinct messages
/// are then cut into parts again, each hashing its messages and running the Miller loop of its
/// pairs, the first part with the pair of the weighted signature sum.
pub fn verify_signature_sets_with<R: RngCore + CryptoRng>(sets: &[SignatureSet<'_>], rng: &mut R, cfg: &VerifyConfig) -> bool {
    if sets.is_empty() {
        return false;
    }
    // the weights, drawn here in set order whatever the thread count
    let weights: Vec<[u64; 4]> = (0..sets.len())
        .map(|_| loop {
            let r = rng.next_u64();
            if r != 0 {
                break [r, 0, 0, 0];
            }
        })
        .collect();
    // per part of the sets: every signature in G2 (a weighted sum could cancel torsion parts),
    // the aggregate keys (public data) weighted, the weighted signatures summed
    let weigh = |_: usize, r: Range<usize>| -> Option<(Vec<G1Projective>, G2Projective)> {
        let sigs: Vec<G2Affine> = sets[r.clone()].iter().map(|s| s.signature.0).collect();
        if !sigs.iter().all(|q| bool::from(q.is_identity()) || q.is_on_curve()) || g2_in_subgroup_batch_vartime(&sigs).contains(&false) {
            return None;
        }
        let apks = sets[r.clone()].iter().map(|s| PublicKey::aggregate(s.public_keys).ok().map(|k| k.0.to_jacobian())).collect::<Option<Vec<_>>>()?;
        let keys = zkforge_msm::mul_many::mul_many_vartime(&apks, &weights[r.clone()]).ok()?;
        let sig = zkforge_msm::msm_threads::<G2Config, [u64; 4]>(&sigs, &weights[r], 1).ok()?;
        Some((keys, sig))
    };
    let Some(weighed) = run_parts(&split(sets.len(), cfg.threads_for(sets.len())), cfg.handoff, weigh) else { return false };
    let mut weighted_sig = G2Projective::IDENTITY;
    let mut weighted_keys = Vec::with_capacity(sets.len());
    for (keys, sig) in weighed {
        weighted_sig = weighted_sig.add_vartime(&sig);
        weighted_keys.extend(keys);
    }
    // one pair per distinct message (or per set)
    let mut msgs: Vec<&[u8]> = Vec::with_capacity(sets.len());
    let mut keys: Vec<G1Projective> = Vec::with_capacity(sets.len());
    if cfg.merge_equal_messages {
        let mut slot: HashMap<&[u8], usize> = HashMap::with_capacity(sets.len());
        for (s, k) in sets.iter().zip(&weighted_keys) {
            match slot.get(s.message) {
                Some(&j) => keys[j] = keys[j].add_vartime(k),
                None => {
                    slot.insert(s.message, msgs.len());
                    msgs.push(s.message);
                    keys.push(*k);
                }
            }
        }
    } else {
        msgs.extend(sets.iter().map(|s| s.message));
        keys.extend_from_slice(&weighted_keys);
    }
    let sig_pair = (neg_g1(), G2Projective::to_affine_vartime(&weighted_sig));
    let pair_up = |i: usize, r: Range<usize>| -> Option<Fp12> {
        let hs = hash_messages(&msgs[r.clone()], DST, cfg.hash)?;
        let mut pairs = Vec::with_capacity(r.len() + 1);
        if i == 0 {
            pairs.push(sig_pair);
        }
        pairs.extend(G1Projective::batch_to_affine_vartime(&keys[r]).into_iter().zip(hs));
        Some(multi_miller_loop(&pairs))
    };
    is_one_after_final_exponentiation(run_parts(&split(msgs.len(), cfg.threads_for(msgs.len())), cfg.handoff, pair_up))
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn split_covers_every_index_once_in_at_most_the_asked_parts() {
        use zkforge_pairing::config::{set_parallel_split, ParallelSplit};
        for s in [ParallelSplit::LaneGroups, ParallelSplit::Even, ParallelSplit::Auto] {
            set_parallel_split(s);
            for n in 1..=70 {
                for parts in 1..=5 {
                    let r = split(n, parts);
                    assert!(!r.is_empty() && r.len() <= parts, "{s:?}, n = {n}, parts = {parts}: {r:?}");
                    assert_eq!(r[0].start, 0);
                    assert_eq!(r.last().unwrap().end, n);
                    assert!(r.windows(2).all(|w| w[0].end == w[1].start && !w[0].is_empty()));
                    if s == ParallelSplit::Even {
                        // near-equal parts: no part longer than the even share
                        assert!(r.iter().all(|p| p.len() <= n.div_ceil(parts)), "n = {n}, parts = {parts}: {r:?}");
                    }
                }
            }
        }
    }
}

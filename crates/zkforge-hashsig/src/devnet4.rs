//! leanSig's "devnet 4" generation (commit c08a3ba): Generalized XMSS with the aborting
//! target-sum encoding over Poseidon1 (`instantiations_aborting`: lifetime 2^32 with dimension
//! 46, and the 2^8 test instance with dimension 4; base 8, target sums 200 and 6; PARAMETER_LEN
//! 5, TWEAK_LEN 2, HASH_LEN 8, RAND_LEN 7, CAPACITY 9, MSG_LEN 9).
//!
//! Differences from the Poseidon2 generation (`scheme.rs`), all from the reference source:
//! - Poseidon1 ([`crate::poseidon1`]) replaces Poseidon2 in every hash;
//! - a chain step compresses [value | parameter | tweak] (value first) with width 16;
//! - the leaf is a *replacement* sponge with the capacity first: state[..9] holds the
//!   capacity value, each 15-element chunk overwrites state[9..] (the last one zero-padded),
//!   the output is state[9..17];
//! - the message hash compresses [message | parameter | epoch | rho] with width 24 into 8
//!   elements, and decodes them by rejection (Hülsing et al., "Aborting random oracles",
//!   ePrint 2026/016, section 6.1): with p = 127 * 8^8 + 1, an element A >= 127 * 8^8 aborts
//!   the attempt, otherwise floor(A / 127) gives 8 base-8 digits (least significant first);
//!   the first ceil(dimension / 8) elements give the dimension's digits;
//! - the key-generation RNG of the vectors is rand 0.10's StdRng (ChaCha12), consumed in the
//!   same order as before.
//!
//! Key material, signatures and their encodings are the Poseidon2 generation's types.

use rand_core::RngCore;

use crate::hypercube::{encode_epoch, encode_message};
use crate::keygen::{check_activation, expand_activation, sample_bytes32, sample_kb, top_tree, ActivationError, KeyMaterial};
use crate::koalabear::Kb;
use crate::poseidon1::Poseidon1;
use crate::prf;
use crate::scheme::{SchemeError, Signature};
use crate::tweak_hash::{chain_tweak, tree_tweak, tweak_digits};

const PL: usize = 5;
const T: usize = 2;
/// HASH_LEN of the devnet-4 instantiations.
pub const H: usize = 8;
/// RAND_LEN of the devnet-4 instantiations.
pub const R: usize = 7;
const CAP: usize = 9;
const BASE: u32 = 8;
const Z: usize = 8;
const Q: u64 = 127;

/// A devnet-4 instantiation with its permutations.
#[derive(Clone, Debug)]
pub struct Devnet4 {
    /// log2 of the lifetime.
    pub log_lifetime: u32,
    /// Number of chains (46, or 4 for the 2^8 test instance).
    pub dimension: usize,
    /// Required digit sum.
    pub target_sum: u32,
    p16: Poseidon1<16>,
    p24: Poseidon1<24>,
}

/// (P(s) + s)[..OUT] for s = `input` zero-padded to the width.
fn compress<const W: usize, const OUT: usize>(perm: &Poseidon1<W>, input: &[Kb]) -> [Kb; OUT] {
    let mut s = [Kb::ZERO; W];
    s[..input.len()].copy_from_slice(input);
    let out = perm.permute(s);
    core::array::from_fn(|k| out[k] + s[k])
}

impl Devnet4 {
    /// The instance by name: `leansig_head_aborting_lifetime32_dim46_base8` or the test
    /// instance `leansig_head_aborting_lifetime8_dim46_base8` (really dimension 4, target 6),
    /// as the vector file names them.
    pub fn by_name(name: &str) -> Option<Self> {
        let (log_lifetime, dimension, target_sum) = match name {
            "leansig_head_aborting_lifetime32_dim46_base8" => (32, 46, 200),
            "leansig_head_aborting_lifetime8_dim46_base8" => (8, 4, 6),
            _ => return None,
        };
        Some(Devnet4 { log_lifetime, dimension, target_sum, p16: Poseidon1::new_16(), p24: Poseidon1::new_24() })
    }

    /// Walk `steps` chain steps from the value at position `start`.
    pub fn chain(&self, parameter: &[Kb; PL], epoch: u32, chain: u8, start: u8, steps: u8, value: &[Kb; H]) -> [Kb; H] {
        let mut v = *value;
        for j in 1..=steps {
            let mut input = [Kb::ZERO; H + PL + T];
            input[..H].copy_from_slice(&v);
            input[H..H + PL].copy_from_slice(parameter);
            input[H + PL..].copy_from_slice(&chain_tweak::<T>(epoch, chain, start + j));
            v = compress::<16, H>(&self.p16, &input);
        }
        v
    }

    /// A tree node (level >= 1) from its children.
    pub fn node(&self, parameter: &[Kb; PL], level: u8, pos: u32, left: &[Kb; H], right: &[Kb; H]) -> [Kb; H] {
        let mut input = [Kb::ZERO; PL + T + 2 * H];
        input[..PL].copy_from_slice(parameter);
        input[PL..PL + T].copy_from_slice(&tree_tweak::<T>(level, pos));
        input[PL + T..PL + T + H].copy_from_slice(left);
        input[PL + T + H..].copy_from_slice(right);
        compress::<24, H>(&self.p24, &input)
    }

    /// The sponge's capacity value: the width-24 compression of the lengths' tweak digits.
    fn leaf_capacity(&self) -> [Kb; CAP] {
        let lengths = [PL as u32, T as u32, self.dimension as u32, H as u32];
        let packed = lengths.iter().fold(0u128, |acc, &l| (acc << 32) | l as u128);
        compress::<24, CAP>(&self.p24, &tweak_digits::<24>(packed))
    }

    /// The leaf of `epoch`: the replacement sponge over [parameter | tree tweak (0, epoch) |
    /// chain ends].
    pub fn leaf(&self, parameter: &[Kb; PL], epoch: u32, ends: &[[Kb; H]]) -> [Kb; H] {
        let cap = self.leaf_capacity();
        let mut input: Vec<Kb> = Vec::with_capacity(PL + T + ends.len() * H);
        input.extend_from_slice(parameter);
        input.extend_from_slice(&tree_tweak::<T>(0, epoch));
        for e in ends {
            input.extend_from_slice(e);
        }
        let mut s = [Kb::ZERO; 24];
        s[..CAP].copy_from_slice(&cap);
        for chunk in input.chunks(24 - CAP) {
            s[CAP..CAP + chunk.len()].copy_from_slice(chunk);
            for x in s[CAP + chunk.len()..].iter_mut() {
                *x = Kb::ZERO;
            }
            self.p24.permute_mut(&mut s);
        }
        core::array::from_fn(|k| s[CAP + k])
    }

    /// The message hash's width-24 input: [message | parameter | epoch | rho | 0].
    fn message_hash_input(parameter: &[Kb; PL], epoch: u32, rho: &[Kb; R], message: &[u8; 32]) -> [Kb; 24] {
        let msg: [Kb; 9] = encode_message(message);
        let ep: [Kb; T] = encode_epoch(epoch);
        let mut input = [Kb::ZERO; 24];
        input[..9].copy_from_slice(&msg);
        input[9..9 + PL].copy_from_slice(parameter);
        input[9 + PL..9 + PL + T].copy_from_slice(&ep);
        input[9 + PL + T..9 + PL + T + R].copy_from_slice(rho);
        input
    }

    /// The digits of a message hash's output, or `None` when an element aborts.
    fn decode(&self, out: &[Kb; H]) -> Option<Vec<u8>> {
        let mut digits = vec![0u8; self.dimension];
        let limit = Q * (BASE as u64).pow(Z as u32);
        for (i, fe) in out[..self.dimension.div_ceil(Z)].iter().enumerate() {
            let a = fe.to_canonical() as u64;
            if a >= limit {
                return None;
            }
            let mut d = a / Q;
            for j in 0..Z.min(self.dimension - i * Z) {
                digits[i * Z + j] = (d % BASE as u64) as u8;
                d /= BASE as u64;
            }
        }
        Some(digits)
    }

    /// The aborting message hash: the digits, or `None` when an element aborts.
    pub fn message_hash(&self, parameter: &[Kb; PL], epoch: u32, rho: &[Kb; R], message: &[u8; 32]) -> Option<Vec<u8>> {
        let input = Self::message_hash_input(parameter, epoch, rho, message);
        let out: [Kb; H] = compress::<24, H>(&self.p24, &input);
        self.decode(&out)
    }

    /// The codeword for rho: the digits when the hash does not abort and they sum to the
    /// target.
    pub fn codeword(&self, parameter: &[Kb; PL], epoch: u32, rho: &[Kb; R], message: &[u8; 32]) -> Option<Vec<u8>> {
        let d = self.message_hash(parameter, epoch, rho, message)?;
        (d.iter().map(|&x| x as u32).sum::<u32>() == self.target_sum).then_some(d)
    }

    /// [`Devnet4::codeword`] for each of `rhos`, the message hashes through
    /// [`Poseidon1::permute_many`] (packed batches where the CPU and [`crate::poseidon1::Form`]
    /// allow).
    pub fn codewords(&self, parameter: &[Kb; PL], epoch: u32, rhos: &[[Kb; R]], message: &[u8; 32]) -> Vec<Option<Vec<u8>>> {
        let inputs: Vec<[Kb; 24]> = rhos.iter().map(|rho| Self::message_hash_input(parameter, epoch, rho, message)).collect();
        let mut states = inputs.clone();
        self.p24.permute_many(&mut states);
        states
            .iter()
            .zip(&inputs)
            .map(|(o, i)| {
                let out: [Kb; H] = core::array::from_fn(|k| o[k] + i[k]);
                self.decode(&out).filter(|d| d.iter().map(|&x| x as u32).sum::<u32>() == self.target_sum)
            })
            .collect()
    }

    /// The first signing counter (0, 1, ...; at most 100,000 tries, as the reference) whose
    /// rho gives a codeword: [`crate::poseidon1::packed_lanes`] counters per batch (rho by the
    /// eight-way PRF, the message hashes packed), the first success in counter order, so the
    /// signature is the reference's.
    fn first_codeword(&self, key: &KeyMaterial<PL, H>, epoch: u32, message: &[u8; 32]) -> Result<([Kb; R], Vec<u8>), SchemeError> {
        const MAX_TRIES: u64 = 100_000;
        let batch = crate::poseidon1::packed_lanes() as u64;
        let mut c0 = 0;
        while c0 < MAX_TRIES {
            let rhos: Vec<[Kb; R]> = if batch >= 8 {
                (0..batch / 8).flat_map(|b| prf::randomness_x8::<R>(&key.prf_key, epoch, message, c0 + 8 * b)).collect()
            } else {
                vec![prf::randomness(&key.prf_key, epoch, message, c0)]
            };
            let words = self.codewords(&key.parameter, epoch, &rhos, message);
            let n = (MAX_TRIES - c0).min(rhos.len() as u64) as usize;
            if let Some(found) = rhos.into_iter().zip(words).take(n).find_map(|(rho, w)| w.map(|x| (rho, x))) {
                return Ok(found);
            }
            c0 += batch.max(1);
        }
        Err(SchemeError::EncodingFailed)
    }

    /// One packed batch of chain walks (see `poseidon1_packed::chains`): every slice holds the
    /// batch's lanes, 16 (AVX-512) or 8 (AVX2), as the caller read
    /// [`crate::poseidon1::packed_lanes`] once for the whole operation. (Reading the switch again
    /// here raced with a `set_registers` or `set_form` from another thread: a batch sized for
    /// one value met the other and panicked.)
    #[cfg(target_arch = "x86_64")]
    fn packed_walk(&self, parameter: &[Kb; PL], epochs: &[u32], chains: &[u8], starts: &[u8], steps: u8, values: &mut [[Kb; H]]) {
        let n = values.len();
        assert!(
            (n == 16 && std::is_x86_feature_detected!("avx512f")) || (n == 8 && std::is_x86_feature_detected!("avx2")),
            "a packed batch is 16 lanes on AVX-512 or 8 on AVX2"
        );
        let sparse = crate::poseidon1::form().sparse_partial;
        // SAFETY: AVX-512F (16 lanes) or AVX2 (8 lanes) was detected just above; `packed_ifma`
        // detects IFMA.
        unsafe {
            if n == 16 && crate::poseidon1::packed_ifma() {
                crate::poseidon1_avx512::chains_x16_ifma::<PL, T, H>(&self.p16, sparse, parameter, epochs, chains, starts, steps, values)
            } else if n == 16 {
                crate::poseidon1_avx512::chains_x16::<PL, T, H>(&self.p16, sparse, parameter, epochs, chains, starts, steps, values)
            } else {
                crate::poseidon1_avx2::chains_x8::<PL, T, H>(&self.p16, sparse, parameter, epochs, chains, starts, steps, values)
            }
        }
    }

    /// The end of every chain `items[i] = (epoch, chain)` walked from its start (the PRF) to
    /// position base - 1: [`crate::poseidon1::packed_lanes`] chains per packed batch, the rest
    /// one by one.
    pub fn chain_ends(&self, parameter: &[Kb; PL], prf_key: &[u8; 32], items: &[(u32, u8)]) -> Vec<[Kb; H]> {
        let last = (BASE - 1) as u8;
        let mut out: Vec<[Kb; H]> = Vec::with_capacity(items.len());
        #[allow(unused_mut)]
        let mut done = 0;
        #[cfg(target_arch = "x86_64")]
        {
            let n = crate::poseidon1::packed_lanes();
            if n > 1 {
                let zeros = vec![0u8; n];
                for b in items.chunks_exact(n) {
                    let epochs: Vec<u32> = b.iter().map(|x| x.0).collect();
                    let chains: Vec<u8> = b.iter().map(|x| x.1).collect();
                    let mut values: Vec<[Kb; H]> = if n == 16 {
                        prf::chain_starts::<H, 16>(prf_key, &core::array::from_fn(|i| epochs[i]), &core::array::from_fn(|i| chains[i] as u64)).to_vec()
                    } else {
                        prf::chain_starts::<H, 8>(prf_key, &core::array::from_fn(|i| epochs[i]), &core::array::from_fn(|i| chains[i] as u64)).to_vec()
                    };
                    self.packed_walk(parameter, &epochs, &chains, &zeros, last, &mut values);
                    out.extend_from_slice(&values);
                }
                done = items.len() / n * n;
            }
        }
        for &(epoch, c) in &items[done..] {
            out.push(self.chain(parameter, epoch, c, 0, last, &prf::chain_start(prf_key, epoch, c as u64)));
        }
        out
    }

    /// Walk chain i of `epoch` (i = 0, 1, ...) from `values[i]` at position `starts[i]` for
    /// `steps[i]` steps, in place, as signing and verification do: in packed batches of
    /// [`crate::poseidon1::packed_lanes`] chains (the last batch padded with idle lanes), each
    /// running as many steps as its longest walk, one step per call, and keeping each lane's
    /// value once its walk is done; without packed batches one by one.
    pub fn walk_chains(&self, parameter: &[Kb; PL], epoch: u32, starts: &[u8], steps: &[u8], values: &mut [[Kb; H]]) {
        assert!(starts.len() == values.len() && steps.len() == values.len(), "one start and one step count per chain");
        assert!(values.len() <= 256, "chain indices are bytes");
        #[cfg(target_arch = "x86_64")]
        {
            let n = crate::poseidon1::packed_lanes();
            if n > 1 {
                let epochs = vec![epoch; n];
                for first in (0..values.len()).step_by(n) {
                    let real = (values.len() - first).min(n);
                    // lane k holds chain first + k, or an idle lane (no steps) past the end
                    let chains: Vec<u8> = (0..n).map(|k| (first + k) as u8).collect();
                    let lane_steps: Vec<u8> = (0..n).map(|k| if k < real { steps[first + k] } else { 0 }).collect();
                    let lane_starts: Vec<u8> = (0..n).map(|k| if k < real { starts[first + k] } else { 0 }).collect();
                    let mut cur: Vec<[Kb; H]> = (0..n).map(|k| if k < real { values[first + k] } else { [Kb::ZERO; H] }).collect();
                    for j in 0..lane_steps.iter().copied().max().unwrap_or(0) {
                        let at: Vec<u8> = lane_starts.iter().map(|&s| s.wrapping_add(j)).collect();
                        let mut next = cur.clone();
                        self.packed_walk(parameter, &epochs, &chains, &at, 1, &mut next);
                        for k in 0..n {
                            if j < lane_steps[k] {
                                cur[k] = next[k];
                            }
                        }
                    }
                    values[first..first + real].copy_from_slice(&cur[..real]);
                }
                return;
            }
        }
        for i in 0..values.len() {
            values[i] = self.chain(parameter, epoch, i as u8, starts[i], steps[i], &values[i]);
        }
    }

    /// The leaves of `epochs[i]` over chain ends `ends[i]`: [`crate::poseidon1::packed_lanes`] leaves per packed
    /// batch, the rest one by one.
    pub fn leaves(&self, parameter: &[Kb; PL], epochs: &[u32], ends: &[&[[Kb; H]]]) -> Vec<[Kb; H]> {
        assert_eq!(epochs.len(), ends.len(), "one set of chain ends per epoch");
        let mut out: Vec<[Kb; H]> = Vec::with_capacity(epochs.len());
        #[allow(unused_mut)]
        let mut done = 0;
        #[cfg(target_arch = "x86_64")]
        {
            let n = crate::poseidon1::packed_lanes();
            let sparse = crate::poseidon1::form().sparse_partial;
            if n > 1 && ends.iter().all(|e| e.len() == self.dimension) {
                let cap = self.leaf_capacity();
                for (eb, nb) in epochs.chunks_exact(n).zip(ends.chunks_exact(n)) {
                    let mut leaves = vec![[Kb::ZERO; H]; n];
                    // SAFETY: `packed_lanes` gives 16 only after detecting AVX-512F, 8 only
                    // after detecting AVX2.
                    unsafe {
                        if n == 16 {
                            crate::poseidon1_avx512::leaves_x16::<PL, T, H, CAP>(&self.p24, sparse, &cap, parameter, eb, nb, &mut leaves)
                        } else {
                            crate::poseidon1_avx2::leaves_x8::<PL, T, H, CAP>(&self.p24, sparse, &cap, parameter, eb, nb, &mut leaves)
                        }
                    }
                    out.extend_from_slice(&leaves);
                }
                done = epochs.len() / n * n;
            }
        }
        for (&e, en) in epochs[done..].iter().zip(&ends[done..]) {
            out.push(self.leaf(parameter, e, en));
        }
        out
    }

    /// Every layer of bottom tree `k`, leaves first.
    pub fn bottom_tree(&self, parameter: &[Kb; PL], prf_key: &[u8; 32], k: u64) -> Vec<Vec<[Kb; H]>> {
        let half = self.log_lifetime / 2;
        let first = k << half;
        // sixteen epochs at a time: their chains, then their leaves, in packed batches
        // (the groups, and each layer's nodes, in parallel on the caller's rayon pool: more
        // threads than bottom trees are used, and the layers are the same on any pool)
        use rayon::prelude::*;
        let epochs: Vec<u32> = (0..1u64 << half).map(|i| (first + i) as u32).collect();
        let mut layer: Vec<[Kb; H]> = epochs
            .par_chunks(16)
            .flat_map_iter(|group| {
                let items: Vec<(u32, u8)> = group.iter().flat_map(|&e| (0..self.dimension).map(move |c| (e, c as u8))).collect();
                let ends = self.chain_ends(parameter, prf_key, &items);
                let per_epoch: Vec<&[[Kb; H]]> = ends.chunks(self.dimension).collect();
                self.leaves(parameter, group, &per_epoch)
            })
            .collect();
        let mut layers = Vec::with_capacity(half as usize + 1);
        let mut start = first;
        for level in 1..=half {
            start >>= 1;
            let next = layer.par_chunks_exact(2).enumerate().map(|(j, p)| self.node(parameter, level as u8, (start + j as u64) as u32, &p[0], &p[1])).collect();
            layers.push(std::mem::replace(&mut layer, next));
        }
        layers.push(layer);
        layers
    }

    /// Key generation, consuming the RNG as the reference does (bottom trees, and the leaf
    /// groups and nodes inside each, in parallel on the caller's rayon pool). Parameters the
    /// reference refuses give an [`ActivationError`] before the RNG is touched.
    pub fn key_gen(&self, rng: &mut impl RngCore, activation_start: u64, num_active: u64) -> Result<KeyMaterial<PL, H>, ActivationError> {
        use rayon::prelude::*;
        check_activation(self.log_lifetime, activation_start, num_active)?;
        let parameter: [Kb; PL] = core::array::from_fn(|_| sample_kb(rng));
        let prf_key = sample_bytes32(rng);
        let (start, num) = expand_activation(self.log_lifetime, activation_start, num_active);
        let half = self.log_lifetime / 2;
        let first_tree = start >> half;
        let trees: Vec<(u64, Vec<Vec<[Kb; H]>>)> = (first_tree..first_tree + (num >> half))
            .into_par_iter()
            .map(|k| {
                let mut t = self.bottom_tree(&parameter, &prf_key, k);
                if k >= first_tree + 2 {
                    t = vec![t.pop().expect("root layer")];
                }
                (k, t)
            })
            .collect();
        let roots: Vec<[Kb; H]> = trees.iter().map(|(_, t)| t.last().expect("root layer")[0]).collect();
        let prepared = trees.into_iter().filter(|(k, _)| *k < first_tree + 2).collect();
        let top_layers = top_tree(roots, first_tree, self.log_lifetime, || core::array::from_fn(|_| sample_kb(rng)), |level, pos, l, r| self.node(&parameter, level, pos, l, r));
        let root = top_layers.last().expect("root layer").1[0];
        Ok(KeyMaterial { root, parameter, prf_key, activation_start: start, active_epochs: num, top_layers, prepared })
    }

    /// Sign (deterministic: rho from the PRF with a retry counter; aborted and missed
    /// attempts both retry; the counters tried in packed batches, the chains walked in packed
    /// batches).
    pub fn sign(&self, key: &KeyMaterial<PL, H>, epoch: u32, message: &[u8; 32]) -> Result<Signature<R, H>, SchemeError> {
        let e = epoch as u64;
        crate::keygen::check_active(e, key.activation_start, key.active_epochs)?;
        let (rho, x) = self.first_codeword(key, epoch, message)?;
        let mut hashes: Vec<[Kb; H]> = prf::epoch_chain_starts(&key.prf_key, epoch, x.len());
        self.walk_chains(&key.parameter, epoch, &vec![0u8; x.len()], &x, &mut hashes);
        let co_path = crate::keygen::co_path_prepared(self.log_lifetime, e, &key.prepared, &key.top_layers, |k| {
            self.bottom_tree(&key.parameter, &key.prf_key, k)
        });
        Ok(Signature { co_path, rho, hashes })
    }

    /// Verify against the public key (root, parameter).
    pub fn verify(&self, root: &[Kb; H], parameter: &[Kb; PL], epoch: u32, message: &[u8; 32], sig: &Signature<R, H>) -> bool {
        if (epoch as u64) >> self.log_lifetime != 0 || sig.co_path.len() != self.log_lifetime as usize || sig.hashes.len() != self.dimension {
            return false;
        }
        let Some(x) = self.codeword(parameter, epoch, &sig.rho, message) else {
            return false;
        };
        let last = (BASE - 1) as u8;
        let steps: Vec<u8> = x.iter().map(|&xi| last - xi).collect();
        let mut ends = sig.hashes.clone();
        self.walk_chains(parameter, epoch, &x, &steps, &mut ends);
        let mut cur = self.leaf(parameter, epoch, &ends);
        let mut idx = epoch as u64;
        for (l, sib) in sig.co_path.iter().enumerate() {
            let parent = (idx >> 1) as u32;
            cur = if idx & 1 == 0 { self.node(parameter, (l + 1) as u8, parent, &cur, sib) } else { self.node(parameter, (l + 1) as u8, parent, sib, &cur) };
            idx >>= 1;
        }
        cur == *root
    }
}

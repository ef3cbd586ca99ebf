//! Generalized XMSS over SHA3-256 (hash-sig's `instantiations_sha`: `ShaPRF`,
//! `ShaTweakHash`, `ShaMessageHash`; FIPS 202), byte-compatible with the reference.
//!
//! - PRF: chain start = SHA3-256(SEP || 0x00 || key || epoch u32 BE || chain u64 BE)[..HASH_LEN],
//!   rho = SHA3-256(SEP || 0x01 || key || epoch u32 BE || message || counter u64 BE)[..RAND_LEN].
//! - Tweak hash: SHA3-256(parameter || tweak || inputs...)[..HASH_LEN]; tweaks are bytes: a
//!   chain step `0x00 || epoch u32 BE || chain u8 || position u8`, a tree node
//!   `0x01 || level u8 || position u32 BE`. A leaf hashes all chain ends of its epoch at once
//!   with the tree tweak (0, epoch).
//! - Message hash: SHA3-256(rho || parameter || 0x02 || epoch u32 LE || message), its first
//!   NUM_CHUNKS * CHUNK_SIZE / 8 bytes cut into chunks (low bits first).
//! - Key generation consumes the RNG as the Poseidon instances do (the parameter's 18 bytes and
//!   the PRF key's 32 bytes, one `next_u32` per byte keeping the low byte; then one HASH_LEN
//!   random node per top-tree padding position).
//!
//! Nodes are `[u8; 32]` with the bytes past HASH_LEN zero.

use rand_core::RngCore;
use sha3::{Digest, Sha3_256};

use crate::encoding::{bytes_to_chunks, winternitz};
use crate::hypercube::target_sum;
use crate::keygen::{check_activation, expand_activation, top_tree, ActivationError};
use crate::scheme::{Encoding, SchemeError};

/// PARAMETER_LEN of every SHA3 instantiation (bytes).
pub const PARAMETER_LEN: usize = 18;
/// MESSAGE_HASH_LEN of every SHA3 instantiation (bytes).
pub const MESSAGE_HASH_LEN: usize = 18;

const PRF_SEPARATOR: [u8; 16] = [0x00, 0x01, 0x12, 0xff, 0x00, 0x01, 0xfa, 0xff, 0x00, 0xaf, 0x12, 0xff, 0x01, 0xfa, 0xff, 0x00];

/// A hash value: the first `hash_len` bytes are used, the rest are zero.
pub type Node = [u8; 32];

/// A SHA3 instantiation.
#[derive(Clone, Copy, Debug)]
pub struct Sha3Instance {
    /// log2 of the lifetime.
    pub log_lifetime: u32,
    /// Bits per chunk (base = 2^chunk_size).
    pub chunk_size: u32,
    /// Winternitz (with its checksum chunks) or target sum.
    pub encoding: Encoding,
    /// HASH_LEN in bytes.
    pub hash_len: usize,
    /// RAND_LEN in bytes.
    pub rand_len: usize,
}

/// A SHA3 key: public root and parameter, the PRF key (zeroized on drop), the top tree and the
/// prepared bottom trees.
#[derive(Clone)]
pub struct Sha3Key {
    /// Merkle root.
    pub root: Node,
    /// Tweak-hash parameter.
    pub parameter: [u8; PARAMETER_LEN],
    /// PRF key.
    pub prf_key: [u8; 32],
    /// First epoch of the expanded activation range.
    pub activation_start: u64,
    /// Number of epochs of the expanded range.
    pub active_epochs: u64,
    /// Top-tree layers (see [`crate::keygen::top_tree`]).
    pub top_layers: Vec<(u64, Vec<Node>)>,
    /// The first two bottom trees, all layers.
    pub prepared: Vec<(u64, Vec<Vec<Node>>)>,
    /// HASH_LEN of the instance the key belongs to (the bytes of each node that are used).
    pub hash_len: usize,
}

impl Drop for Sha3Key {
    fn drop(&mut self) {
        use zeroize::Zeroize;
        self.prf_key.zeroize();
    }
}

impl core::fmt::Debug for Sha3Key {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Sha3Key").field("root", &self.root).field("prf_key", &"<secret>").finish()
    }
}

/// A SHA3 signature: co-path, rho (RAND_LEN bytes used) and one node per chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sha3Signature {
    /// Sibling nodes from the leaf to the root.
    pub co_path: Vec<Node>,
    /// The message-hash randomness (first RAND_LEN bytes).
    pub rho: [u8; 32],
    /// Each chain at its codeword position.
    pub hashes: Vec<Node>,
}

/// The SHA3 instantiations by name: `sha3_winternitz_lifetime{18,20}_w{1,2,4,8}` and
/// `sha3_targetsum_lifetime{18,20}_w{1,2,4,8}_{nooff,off10}` (hash-sig's
/// `instantiations_sha::lifetime_2_to_the_{18,20}::{winternitz, target_sum}`).
pub fn sha3_instance_by_name(name: &str) -> Option<Sha3Instance> {
    let rest = name.strip_prefix("sha3_")?;
    let (kind, rest) = rest.split_once("_lifetime")?;
    let (life, rest) = rest.split_once("_w")?;
    let log_lifetime = match life {
        "18" => 18,
        "20" => 20,
        _ => return None,
    };
    let (w, off) = match rest.split_once('_') {
        Some((w, o)) => (w, Some(o)),
        None => (rest, None),
    };
    let chunk_size: u32 = w.parse().ok().filter(|w| matches!(w, 1 | 2 | 4 | 8))?;
    let hash_len = match chunk_size {
        1 | 2 => 25,
        4 => 26,
        _ => 28,
    };
    let (encoding, rand_len) = match (kind, off) {
        ("winternitz", None) => {
            let checksum_chunks = crate::encoding::winternitz_checksum_chunks(chunk_size);
            (Encoding::Winternitz { chunk_size, checksum_chunks }, 20)
        }
        ("targetsum", Some(o)) => {
            let (no, ten) = match chunk_size {
                1 => (72, 80),
                2 => (108, 119),
                4 => (270, 297),
                _ => (2295, 2525),
            };
            let target_sum = match o {
                "nooff" => no,
                "off10" => ten,
                _ => return None,
            };
            (Encoding::TargetSum { target_sum }, 23)
        }
        _ => return None,
    };
    Some(Sha3Instance { log_lifetime, chunk_size, encoding, hash_len, rand_len })
}

fn truncate(h: &[u8], len: usize) -> Node {
    let mut n = [0u8; 32];
    n[..len].copy_from_slice(&h[..len]);
    n
}

impl Sha3Instance {
    /// Chain length.
    pub fn base(&self) -> u32 {
        1 << self.chunk_size
    }

    /// Message chunks (without checksum).
    pub fn message_chunks(&self) -> usize {
        MESSAGE_HASH_LEN * 8 / self.chunk_size as usize
    }

    /// Number of chains.
    pub fn dimension(&self) -> usize {
        match self.encoding {
            Encoding::Winternitz { checksum_chunks, .. } => self.message_chunks() + checksum_chunks,
            _ => self.message_chunks(),
        }
    }

    /// The PRF's chain start.
    pub fn chain_start(&self, key: &[u8; 32], epoch: u32, chain: u64) -> Node {
        let mut h = Sha3_256::new();
        h.update(PRF_SEPARATOR);
        h.update([0x00]);
        h.update(key);
        h.update(epoch.to_be_bytes());
        h.update(chain.to_be_bytes());
        truncate(&h.finalize(), self.hash_len)
    }

    /// The PRF's signing randomness.
    pub fn randomness(&self, key: &[u8; 32], epoch: u32, message: &[u8; 32], counter: u64) -> [u8; 32] {
        let mut h = Sha3_256::new();
        h.update(PRF_SEPARATOR);
        h.update([0x01]);
        h.update(key);
        h.update(epoch.to_be_bytes());
        h.update(message);
        h.update(counter.to_be_bytes());
        truncate(&h.finalize(), self.rand_len)
    }

    fn tweak_hash(&self, parameter: &[u8; PARAMETER_LEN], tweak: &[u8], inputs: &[&Node]) -> Node {
        let mut h = Sha3_256::new();
        h.update(parameter);
        h.update(tweak);
        for x in inputs {
            h.update(&x[..self.hash_len]);
        }
        truncate(&h.finalize(), self.hash_len)
    }

    /// Walk `steps` chain steps from the value at position `start`.
    pub fn chain(&self, parameter: &[u8; PARAMETER_LEN], epoch: u32, chain: u8, start: u8, steps: u8, value: &Node) -> Node {
        let mut tweak = [0u8; 7];
        tweak[1..5].copy_from_slice(&epoch.to_be_bytes());
        tweak[5] = chain;
        let mut v = *value;
        for j in 1..=steps {
            tweak[6] = start + j;
            v = self.tweak_hash(parameter, &tweak, &[&v]);
        }
        v
    }

    /// [`Sha3Instance::chain`] for many chains at once: chain i is chain `chains[i]` of
    /// `epochs[i]` holding `values[i]` at position `starts[i]`, walked `steps[i]` steps.
    /// With AVX2, four lanes of the four-way SHA3-256 (the chain hash input is 25 + hash_len
    /// bytes, one Keccak-f block) are refilled from a queue ordered longest first, as in
    /// [`crate::tweak_hash::Perms::walk_chains`]; a last lone chain, or a CPU without AVX2,
    /// walks one hash at a time.
    pub fn walk_chains(&self, parameter: &[u8; PARAMETER_LEN], epochs: &[u32], chains: &[u8], starts: &[u8], steps: &[u8], values: &mut [Node]) {
        let n = values.len();
        assert!(epochs.len() == n && chains.len() == n && starts.len() == n && steps.len() == n);
        let mut queue: Vec<usize> = (0..n).filter(|&i| steps[i] > 0).collect();
        queue.sort_by_key(|&i| core::cmp::Reverse(steps[i]));
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut queue = queue.into_iter();
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                let len = PARAMETER_LEN + 7 + self.hash_len;
                let v = PARAMETER_LEN + 7;
                // lane i: (job, position reached, steps left) and its hash input
                let mut lanes: [Option<(usize, u8, u8)>; 4] = [None; 4];
                let mut msgs = [[0u8; PARAMETER_LEN + 7 + 32]; 4];
                loop {
                    for (lane, m) in lanes.iter_mut().zip(msgs.iter_mut()).filter(|(l, _)| l.is_none()) {
                        let Some(j) = queue.next() else { break };
                        *lane = Some((j, starts[j], steps[j]));
                        m[..PARAMETER_LEN].copy_from_slice(parameter);
                        m[PARAMETER_LEN] = 0;
                        m[PARAMETER_LEN + 1..PARAMETER_LEN + 5].copy_from_slice(&epochs[j].to_be_bytes());
                        m[PARAMETER_LEN + 5] = chains[j];
                        m[v..len].copy_from_slice(&values[j][..self.hash_len]);
                    }
                    let live = lanes.iter().filter(|l| l.is_some()).count();
                    if live < 2 {
                        // at most one chain left and nothing queued
                        for (lane, m) in lanes.iter_mut().zip(&msgs) {
                            if let Some((j, pos, left)) = lane.take() {
                                values[j] = self.chain(parameter, epochs[j], chains[j], pos, left, &truncate(&m[v..len], self.hash_len));
                            }
                        }
                        return;
                    }
                    for (lane, m) in lanes.iter().zip(msgs.iter_mut()) {
                        if let Some((_, pos, _)) = lane {
                            m[PARAMETER_LEN + 6] = pos + 1;
                        }
                    }
                    let refs: [&[u8]; 4] = core::array::from_fn(|i| &msgs[i][..len]);
                    // SAFETY: AVX2 was detected on this CPU just above.
                    let h = unsafe { crate::keccak_x4::sha3_256_one_block_x4(&refs) };
                    for ((lane, m), hi) in lanes.iter_mut().zip(msgs.iter_mut()).zip(&h) {
                        let Some((j, pos, left)) = *lane else { continue };
                        m[v..len].copy_from_slice(&hi[..self.hash_len]);
                        if left == 1 {
                            values[j] = truncate(&m[v..len], self.hash_len);
                            *lane = None;
                        } else {
                            *lane = Some((j, pos + 1, left - 1));
                        }
                    }
                }
            }
        }
        for j in queue {
            values[j] = self.chain(parameter, epochs[j], chains[j], starts[j], steps[j], &values[j]);
        }
    }

    /// A tree node (level >= 1) from its children.
    pub fn node(&self, parameter: &[u8; PARAMETER_LEN], level: u8, pos: u32, left: &Node, right: &Node) -> Node {
        let mut tweak = [0x01, level, 0, 0, 0, 0];
        tweak[2..].copy_from_slice(&pos.to_be_bytes());
        self.tweak_hash(parameter, &tweak, &[left, right])
    }

    /// The leaf of `epoch` from all its chain ends.
    pub fn leaf(&self, parameter: &[u8; PARAMETER_LEN], epoch: u32, ends: &[Node]) -> Node {
        let mut tweak = [0x01, 0, 0, 0, 0, 0];
        tweak[2..].copy_from_slice(&epoch.to_be_bytes());
        let refs: Vec<&Node> = ends.iter().collect();
        self.tweak_hash(parameter, &tweak, &refs)
    }

    /// The message chunks for rho.
    pub fn message_hash(&self, parameter: &[u8; PARAMETER_LEN], epoch: u32, rho: &[u8; 32], message: &[u8; 32]) -> Vec<u8> {
        let mut h = Sha3_256::new();
        h.update(&rho[..self.rand_len]);
        h.update(parameter);
        h.update([0x02]);
        h.update(epoch.to_le_bytes());
        h.update(message);
        let d = h.finalize();
        bytes_to_chunks(&d[..self.message_chunks() * self.chunk_size as usize / 8], self.chunk_size)
    }

    /// The codeword for rho, or `None` when the target sum is missed.
    pub fn codeword(&self, parameter: &[u8; PARAMETER_LEN], epoch: u32, rho: &[u8; 32], message: &[u8; 32]) -> Option<Vec<u8>> {
        let d = self.message_hash(parameter, epoch, rho, message);
        match self.encoding {
            Encoding::Winternitz { chunk_size, checksum_chunks } => Some(winternitz(d, self.base(), chunk_size, checksum_chunks)),
            Encoding::TargetSum { target_sum: t } => target_sum(&d, t).ok(),
            Encoding::TopLevel { .. } => None,
        }
    }

    /// Every layer of bottom tree `k`, leaves first.
    pub fn bottom_tree(&self, parameter: &[u8; PARAMETER_LEN], prf_key: &[u8; 32], k: u64) -> Vec<Vec<Node>> {
        let half = self.log_lifetime / 2;
        let first = k << half;
        let last = (self.base() - 1) as u8;
        // every chain of every epoch of the tree, walked four at a time, in groups of 64
        // epochs; the groups, and each layer's nodes, in parallel on the caller's rayon pool
        // (more threads than bottom trees are used; the layers are the same on any pool)
        use rayon::prelude::*;
        const GROUP: usize = 64;
        let dim = self.dimension();
        let n = 1usize << half;
        let mut layer: Vec<Node> = (0..n.div_ceil(GROUP))
            .into_par_iter()
            .flat_map_iter(|g| {
                let (lo, hi) = (g * GROUP, ((g + 1) * GROUP).min(n));
                let epochs: Vec<u32> = (lo * dim..hi * dim).map(|j| (first + (j / dim) as u64) as u32).collect();
                let chains: Vec<u8> = (lo * dim..hi * dim).map(|j| (j % dim) as u8).collect();
                let mut ends: Vec<Node> = epochs.iter().zip(&chains).map(|(&e, &c)| self.chain_start(prf_key, e, c as u64)).collect();
                let (starts, steps) = (vec![0u8; ends.len()], vec![last; ends.len()]);
                self.walk_chains(parameter, &epochs, &chains, &starts, &steps, &mut ends);
                ends.chunks_exact(dim).enumerate().map(|(i, e)| self.leaf(parameter, (first + (lo + i) as u64) as u32, e)).collect::<Vec<Node>>()
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

    /// Key generation from the RNG, as the reference consumes it; bottom trees, and the leaf
    /// groups and nodes inside each, in parallel on the caller's rayon pool. Parameters the
    /// reference refuses give an [`ActivationError`] before the RNG is touched.
    pub fn key_gen(&self, rng: &mut impl RngCore, activation_start: u64, num_active: u64) -> Result<Sha3Key, ActivationError> {
        use rayon::prelude::*;
        check_activation(self.log_lifetime, activation_start, num_active)?;
        let parameter: [u8; PARAMETER_LEN] = core::array::from_fn(|_| rng.next_u32() as u8);
        let prf_key: [u8; 32] = core::array::from_fn(|_| rng.next_u32() as u8);
        let (start, num) = expand_activation(self.log_lifetime, activation_start, num_active);
        let half = self.log_lifetime / 2;
        let first_tree = start >> half;
        let trees: Vec<(u64, Vec<Vec<Node>>)> = (first_tree..first_tree + (num >> half))
            .into_par_iter()
            .map(|k| {
                let mut t = self.bottom_tree(&parameter, &prf_key, k);
                if k >= first_tree + 2 {
                    t = vec![t.pop().expect("root layer")];
                }
                (k, t)
            })
            .collect();
        let roots: Vec<Node> = trees.iter().map(|(_, t)| t.last().expect("root layer")[0]).collect();
        let prepared = trees.into_iter().filter(|(k, _)| *k < first_tree + 2).collect();
        let hash_len = self.hash_len;
        let top_layers = top_tree(roots, first_tree, self.log_lifetime, || {
                // rand's [u8; HASH_LEN]: one next_u32 per byte, low byte kept
                let mut n = [0u8; 32];
                for b in n[..hash_len].iter_mut() {
                    *b = rng.next_u32() as u8;
                }
                n
            }, |level, pos, l, r| self.node(&parameter, level, pos, l, r));
        let root = top_layers.last().expect("root layer").1[0];
        Ok(Sha3Key { root, parameter, prf_key, activation_start: start, active_epochs: num, top_layers, prepared, hash_len })
    }

    /// Sign (deterministic: rho from the PRF with a retry counter).
    pub fn sign(&self, key: &Sha3Key, epoch: u32, message: &[u8; 32]) -> Result<Sha3Signature, SchemeError> {
        let e = epoch as u64;
        crate::keygen::check_active(e, key.activation_start, key.active_epochs)?;
        let max_tries = match self.encoding {
            Encoding::Winternitz { .. } => 1,
            _ => 100_000,
        };
        let (rho, x) = crate::keygen::first_codeword(max_tries, |counter| {
            let rho = self.randomness(&key.prf_key, epoch, message, counter);
            self.codeword(&key.parameter, epoch, &rho, message).map(|x| (rho, x))
        })?;
        let d = x.len();
        let mut hashes: Vec<Node> = (0..d).map(|i| self.chain_start(&key.prf_key, epoch, i as u64)).collect();
        let chains: Vec<u8> = (0..d as u8).collect();
        self.walk_chains(&key.parameter, &vec![epoch; d], &chains, &vec![0; d], &x, &mut hashes);
        let co_path = crate::keygen::co_path_prepared(self.log_lifetime, e, &key.prepared, &key.top_layers, |k| {
            self.bottom_tree(&key.parameter, &key.prf_key, k)
        });
        Ok(Sha3Signature { co_path, rho, hashes })
    }

    /// Verify against the public key (root, parameter).
    pub fn verify(&self, root: &Node, parameter: &[u8; PARAMETER_LEN], epoch: u32, message: &[u8; 32], sig: &Sha3Signature) -> bool {
        if (epoch as u64) >> self.log_lifetime != 0 || sig.co_path.len() != self.log_lifetime as usize || sig.hashes.len() != self.dimension() {
            return false;
        }
        let Some(x) = self.codeword(parameter, epoch, &sig.rho, message) else {
            return false;
        };
        let last = (self.base() - 1) as u8;
        let d = x.len();
        let mut ends = sig.hashes.clone();
        let chains: Vec<u8> = (0..d as u8).collect();
        let steps: Vec<u8> = x.iter().map(|&xi| last - xi).collect();
        self.walk_chains(parameter, &vec![epoch; d], &chains, &x, &steps, &mut ends);
        let mut cur = self.leaf(parameter, epoch, &ends);
        let mut idx = epoch as u64;
        for (l, sib) in sig.co_path.iter().enumerate() {
            let parent = (idx >> 1) as u32;
            cur = if idx & 1 == 0 { self.node(parameter, (l + 1) as u8, parent, &cur, sib) } else { self.node(parameter, (l + 1) as u8, parent, sib, &cur) };
            idx >>= 1;
        }
        cur == *root
    }

    /// bincode-legacy public key: root (HASH_LEN bytes) || parameter (18 bytes).
    pub fn public_key_bytes(&self, key: &Sha3Key) -> Vec<u8> {
        let mut out = key.root[..self.hash_len].to_vec();
        out.extend_from_slice(&key.parameter);
        out
    }

    /// Decode a bincode-legacy public key into (root, parameter).
    pub fn public_key_from_bytes(&self, b: &[u8]) -> Result<(Node, [u8; PARAMETER_LEN]), SchemeError> {
        if b.len() != self.hash_len + PARAMETER_LEN {
            return Err(SchemeError::WrongLength);
        }
        Ok((truncate(b, self.hash_len), b[self.hash_len..].try_into().expect("18 bytes")))
    }

    /// bincode-legacy signature: u64 LE count || co-path nodes || rho || u64 LE count || chain
    /// nodes (byte arrays without length prefixes).
    pub fn signature_to_bytes(&self, sig: &Sha3Signature) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&(sig.co_path.len() as u64).to_le_bytes());
        for n in &sig.co_path {
            out.extend_from_slice(&n[..self.hash_len]);
        }
        out.extend_from_slice(&sig.rho[..self.rand_len]);
        out.extend_from_slice(&(sig.hashes.len() as u64).to_le_bytes());
        for n in &sig.hashes {
            out.extend_from_slice(&n[..self.hash_len]);
        }
        out
    }

    /// Decode a bincode-legacy signature, requiring exact counts and length.
    pub fn signature_from_bytes(&self, b: &[u8]) -> Result<Sha3Signature, SchemeError> {
        let h = self.hash_len;
        let (ll, dim) = (self.log_lifetime as usize, self.dimension());
        if b.len() != 16 + h * (ll + dim) + self.rand_len {
            return Err(SchemeError::WrongLength);
        }
        let count = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
        let hashes_at = 8 + h * ll + self.rand_len;
        if count(0) != ll as u64 || count(hashes_at) != dim as u64 {
            return Err(SchemeError::WrongLength);
        }
        let nodes = |from: usize, n: usize| (0..n).map(|i| truncate(&b[from + i * h..], h)).collect();
        Ok(Sha3Signature { co_path: nodes(8, ll), rho: truncate(&b[8 + h * ll..], self.rand_len), hashes: nodes(hashes_at + 8, dim) })
    }
}

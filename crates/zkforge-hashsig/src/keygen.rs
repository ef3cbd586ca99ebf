//! Key generation of Generalized XMSS as in hash-sig / leanSig, reproducing the reference's
//! keys from the same RNG (Drake, Khovratovich, Kudinov, Wagner, "Hash-based multi-signatures
//! for post-quantum Ethereum", ePrint 2025/055; the reference's `GeneralizedXMSSSignatureScheme`).
//!
//! RNG consumption order (ChaCha20 from the caller's seed): the tweak-hash parameter
//! (PARAMETER_LEN field elements, each `next_u32() >> 1` rejected when >= p and taken as a
//! Montgomery representative), the 32-byte PRF key (the low byte of 32 `next_u32()`), then one
//! random node for each top-tree padding position, bottom-up.
//!
//! Tree: leaves are the sponge hashes of each epoch's chain ends; the activation range is
//! expanded to whole bottom trees of sqrt(LIFETIME) leaves (at least two); each bottom tree's
//! root is computed directly (full and aligned, it needs no padding); the top tree pads every
//! layer, from the bottom roots up to the root layer inclusive: a random node in front when
//! the layer starts at an odd index, one behind when it ends at an even one.

use rand_core::RngCore;

use crate::koalabear::{Kb, P};
use crate::prf;
use crate::tweak_hash::Perms;

/// One field element from the RNG, the reference's way.
pub fn sample_kb<R: RngCore + ?Sized>(rng: &mut R) -> Kb {
    loop {
        let x = rng.next_u32() >> 1;
        if x < P {
            return Kb::from_monty(x).expect("x < p");
        }
    }
}

/// 32 bytes from the RNG, the reference's way (one `next_u32` per byte, low byte kept).
pub fn sample_bytes32(rng: &mut impl RngCore) -> [u8; 32] {
    core::array::from_fn(|_| rng.next_u32() as u8)
}

/// The shape of an instantiation (the const generics carry the lengths).
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// log2 of the lifetime (number of epochs).
    pub log_lifetime: u32,
    /// Number of chains.
    pub dimension: usize,
    /// Chain length (the base of the encoding).
    pub base: u32,
    /// The chain count written into the sponge's domain separator (the tweak hash's
    /// NUM_CHUNKS): the dimension, except for Winternitz, where the reference passes the
    /// message chunks without the checksum chunks.
    pub sponge_chunks: usize,
}

impl Shape {
    /// A shape whose sponge separator is the dimension.
    pub const fn new(log_lifetime: u32, dimension: usize, base: u32) -> Self {
        Shape { log_lifetime, dimension, base, sponge_chunks: dimension }
    }
}

/// A generated key pair's public root and the secret data that regenerates everything. The
/// PRF key is zeroized on drop and never printed.
#[derive(Clone)]
pub struct KeyMaterial<const PL: usize, const H: usize> {
    /// The Merkle root.
    pub root: [Kb; H],
    /// The tweak-hash parameter.
    pub parameter: [Kb; PL],
    /// The PRF key.
    pub prf_key: [u8; 32],
    /// First epoch of the expanded activation range.
    pub activation_start: u64,
    /// Number of epochs of the expanded range.
    pub active_epochs: u64,
    /// The top tree, level by level from the bottom-tree roots (level log_lifetime / 2) to
    /// the root layer, each as (index of its first node, nodes), padding nodes included.
    pub top_layers: Vec<(u64, Vec<[Kb; H]>)>,
    /// Prepared bottom trees (index k, all layers): the two that cover the next epochs to
    /// sign, as in the reference's prepared interval; others are recomputed on demand.
    pub prepared: Vec<(u64, Vec<Vec<[Kb; H]>>)>,
}

impl<const PL: usize, const H: usize> Drop for KeyMaterial<PL, H> {
    fn drop(&mut self) {
        use zeroize::Zeroize;
        self.prf_key.zeroize();
    }
}

impl<const PL: usize, const H: usize> core::fmt::Debug for KeyMaterial<PL, H> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("KeyMaterial")
            .field("root", &self.root)
            .field("parameter", &self.parameter)
            .field("prf_key", &"<secret>")
            .field("activation_start", &self.activation_start)
            .field("active_epochs", &self.active_epochs)
            .finish()
    }
}

/// Activation parameters outside the key's lifetime.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActivationError {
    /// Requested first epoch.
    pub activation_epoch: u64,
    /// Requested number of epochs.
    pub active_epochs: u64,
    /// The lifetime, 2^log_lifetime.
    pub lifetime: u64,
}

impl core::fmt::Display for ActivationError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.active_epochs == 0 {
            write!(f, "the number of active epochs must be at least 1")
        } else {
            write!(
                f,
                "activation epoch {} plus {} active epochs passes the lifetime of {} epochs: activation_epoch + active_epochs must be at most {}",
                self.activation_epoch, self.active_epochs, self.lifetime, self.lifetime
            )
        }
    }
}
impl std::error::Error for ActivationError {}

/// The reference's key-generation precondition (hash-sig / leanSig `key_gen`):
/// `active_epochs >= 1` and `activation_epoch + active_epochs <= 2^log_lifetime`, with no
/// overflow. Every key-generation function of this crate checks it first and returns the
/// error (outside it the expanded range is meaningless).
pub fn check_activation(log_lifetime: u32, activation_epoch: u64, active_epochs: u64) -> Result<(), ActivationError> {
    let lifetime = 1u64 << log_lifetime;
    let err = ActivationError { activation_epoch, active_epochs, lifetime };
    if active_epochs == 0 {
        return Err(err);
    }
    match activation_epoch.checked_add(active_epochs) {
        Some(end) if end <= lifetime => Ok(()),
        _ => Err(err),
    }
}

/// The expanded activation range: start rounded down and end rounded up to multiples of
/// sqrt(LIFETIME), at least two bottom trees.
pub fn expand_activation(log_lifetime: u32, start: u64, num: u64) -> (u64, u64) {
    let leafs = 1u64 << (log_lifetime / 2);
    let lifetime = 1u64 << log_lifetime;
    let mut s = start / leafs * leafs;
    let mut e = (start + num).div_ceil(leafs) * leafs;
    if e - s < 2 * leafs {
        e = s + 2 * leafs;
        if e > lifetime {
            e = lifetime;
            s = e - 2 * leafs;
        }
    }
    (s, e - s)
}

impl Perms {
    /// The leaf of `epoch`: walk every chain to its end, then the sponge.
    pub fn epoch_leaf<const PL: usize, const T: usize, const H: usize, const CAP: usize>(&self, shape: &Shape, parameter: &[Kb; PL], prf_key: &[u8; 32], epoch: u32) -> [Kb; H] {
        let ends = self.chain_ends::<PL, T, H>(shape, parameter, prf_key, epoch);
        self.leaf::<PL, T, H, CAP>(parameter, epoch, &ends, shape.sponge_chunks as u32)
    }

    /// Every chain's end at `epoch`.
    pub fn chain_ends<const PL: usize, const T: usize, const H: usize>(&self, shape: &Shape, parameter: &[Kb; PL], prf_key: &[u8; 32], epoch: u32) -> Vec<[Kb; H]> {
        let steps = (shape.base - 1) as u8;
        let mut ends: Vec<[Kb; H]> = Vec::with_capacity(shape.dimension);
        // sixteen chains at a time through the packed permutation, the rest one by one
        const L: usize = 16;
        let full = shape.dimension / L * L;
        for c in (0..full).step_by(L) {
            let mut values: [[Kb; H]; L] = core::array::from_fn(|i| prf::chain_start(prf_key, epoch, (c + i) as u64));
            self.chains_lanes::<PL, T, H, L>(parameter, [epoch; L], core::array::from_fn(|i| (c + i) as u8), 0, steps, &mut values);
            ends.extend_from_slice(&values);
        }
        for i in full..shape.dimension {
            let start: [Kb; H] = prf::chain_start(prf_key, epoch, i as u64);
            ends.push(self.chain::<PL, T, H>(parameter, epoch, i as u8, 0, steps, &start));
        }
        ends
    }

    /// Every layer of bottom tree `k` (epochs k sqrt(L) .. (k + 1) sqrt(L)), leaves first,
    /// the root layer last. The leaves (in groups of sixteen epochs) and each layer's nodes
    /// are computed in parallel on the caller's rayon pool, so a pool with more threads than
    /// bottom trees (an activation has at least two) is used whole, and an odd number of trees
    /// balances (three trees on two threads: 0.75-0.79 of the time with trees alone in
    /// parallel); the layers are the same on any pool.
    pub fn bottom_tree<const PL: usize, const T: usize, const H: usize, const CAP: usize>(&self, shape: &Shape, parameter: &[Kb; PL], prf_key: &[u8; 32], k: u64) -> Vec<Vec<[Kb; H]>> {
        use rayon::prelude::*;
        let half = shape.log_lifetime / 2;
        let first = k << half;
        // leaves sixteen epochs at a time (the packed sponge) when the tree allows, else one by one
        const L: usize = 16;
        let n = 1u64 << half;
        let mut layer: Vec<[Kb; H]> = if n.is_multiple_of(L as u64) {
            let steps = (shape.base - 1) as u8;
            let dim = shape.dimension;
            (0..n / L as u64)
                .into_par_iter()
                .flat_map_iter(|g| {
                    let epochs: [u32; L] = core::array::from_fn(|i| (first + g * L as u64 + i as u64) as u32);
                    // all L * dim chains of these epochs, sixteen (epoch, chain) lanes at a time
                    let mut ends: [Vec<[Kb; H]>; L] = core::array::from_fn(|_| Vec::with_capacity(dim));
                    for b in (0..L * dim).step_by(L) {
                        let ep: [u32; L] = core::array::from_fn(|i| epochs[(b + i) / dim]);
                        let ch: [u8; L] = core::array::from_fn(|i| ((b + i) % dim) as u8);
                        let mut values: [[Kb; H]; L] = prf::chain_starts(prf_key, &ep, &ch.map(|c| c as u64));
                        self.chains_lanes::<PL, T, H, L>(parameter, ep, ch, 0, steps, &mut values);
                        for i in 0..L {
                            ends[(b + i) / dim].push(values[i]);
                        }
                    }
                    self.leaves_lanes::<PL, T, H, CAP, L>(parameter, epochs, &ends, shape.sponge_chunks as u32)
                })
                .collect()
        } else {
            (0..n).into_par_iter().map(|i| self.epoch_leaf::<PL, T, H, CAP>(shape, parameter, prf_key, (first + i) as u32)).collect()
        };
        let mut start = first;
        let mut layers = Vec::with_capacity(half as usize + 1);
        for level in 1..=half {
            start >>= 1;
            let next = layer
                .par_chunks_exact(2)
                .enumerate()
                .map(|(j, pair)| self.node::<PL, T, H>(parameter, level as u8, (start + j as u64) as u32, &pair[0], &pair[1]))
                .collect();
            layers.push(std::mem::replace(&mut layer, next));
        }
        layers.push(layer);
        layers
    }
}

/// The top tree over the bottom-tree roots `layer` (the first is bottom tree `first_tree`),
/// level by level up to the root, each as (index of its first node, nodes). Every layer is
/// padded as the reference does, drawing padding nodes from `random` in this order: one in
/// front when the layer starts at an odd index, one behind when it ends at an even one.
pub fn top_tree<N: Copy>(
    mut layer: Vec<N>,
    first_tree: u64,
    log_lifetime: u32,
    mut random: impl FnMut() -> N,
    node: impl Fn(u8, u32, &N, &N) -> N,
) -> Vec<(u64, Vec<N>)> {
    let mut layer_start = first_tree;
    let mut top_layers = Vec::new();
    for level in log_lifetime / 2..=log_lifetime {
        if layer_start & 1 == 1 {
            layer.insert(0, random());
            layer_start -= 1;
        }
        let end = layer_start + layer.len() as u64 - 1;
        if end & 1 == 0 {
            layer.push(random());
        }
        top_layers.push((layer_start, layer.clone()));
        if level == log_lifetime {
            break;
        }
        let parent_start = layer_start >> 1;
        layer = layer.chunks_exact(2).enumerate().map(|(j, pair)| node((level + 1) as u8, (parent_start + j as u64) as u32, &pair[0], &pair[1])).collect();
        layer_start = parent_start;
    }
    top_layers
}

// ------------------------------------------------------------------ the shared signing steps
// Every instance family (Poseidon2 in `scheme.rs`, SHA3 in `sha3_xmss.rs`, devnet-4 in
// `devnet4.rs`) signs the same way: refuse an epoch outside the activation range, take the first
// PRF counter whose randomness gives a codeword, walk the chains, then the co-path from a
// prepared bottom tree or one rebuilt on the spot. The first, second and last steps are here.

/// Refuse an epoch outside `[start, start + num)`, the key's activation range.
pub(crate) fn check_active(epoch: u64, start: u64, num: u64) -> Result<(), crate::scheme::SchemeError> {
    if epoch < start || epoch >= start + num {
        return Err(crate::scheme::SchemeError::EpochOutOfRange);
    }
    Ok(())
}

/// The first counter in `0..max_tries` for which `try_counter` finds a codeword (rho, x), as the
/// reference's retry loop takes it; [`crate::scheme::SchemeError::EncodingFailed`] when none does.
pub(crate) fn first_codeword<Rho, X>(
    max_tries: u64,
    try_counter: impl FnMut(u64) -> Option<(Rho, X)>,
) -> Result<(Rho, X), crate::scheme::SchemeError> {
    (0..max_tries).find_map(try_counter).ok_or(crate::scheme::SchemeError::EncodingFailed)
}

/// The co-path of `epoch` from the key's `prepared` bottom trees when one covers it, else from
/// `rebuild(k)`, bottom tree k = epoch >> (log_lifetime / 2) built on the spot.
pub(crate) fn co_path_prepared<N: Copy>(
    log_lifetime: u32,
    epoch: u64,
    prepared: &[(u64, Vec<Vec<N>>)],
    top: &[(u64, Vec<N>)],
    rebuild: impl FnOnce(u64) -> Vec<Vec<N>>,
) -> Vec<N> {
    let k = epoch >> (log_lifetime / 2);
    match prepared.iter().find(|(i, _)| *i == k) {
        Some((_, t)) => co_path(log_lifetime, epoch, t, top),
        None => co_path(log_lifetime, epoch, &rebuild(k), top),
    }
}

/// The co-path of `epoch`: its bottom tree's sibling nodes (`bottom`: all layers of bottom tree
/// epoch >> (log_lifetime / 2), leaves first), then the top tree's (`top` as from [`top_tree`]).
pub fn co_path<N: Copy>(log_lifetime: u32, epoch: u64, bottom: &[Vec<N>], top: &[(u64, Vec<N>)]) -> Vec<N> {
    let half = log_lifetime / 2;
    let first = (epoch >> half) << half;
    let mut path = Vec::with_capacity(log_lifetime as usize);
    for (l, layer) in bottom.iter().take(half as usize).enumerate() {
        path.push(layer[(((epoch >> l) ^ 1) - (first >> l)) as usize]);
    }
    for (l, (start, layer)) in top.iter().take((log_lifetime - half) as usize).enumerate() {
        path.push(layer[(((epoch >> (half as usize + l)) ^ 1) - start) as usize]);
    }
    path
}

/// Generate a key for `shape` with activation (start, num) expanded as the reference does.
/// Parameters the reference refuses ([`check_activation`]: no epoch, or a range past the
/// lifetime) give an [`ActivationError`] before the RNG is touched.
pub fn key_gen<const PL: usize, const T: usize, const H: usize, const CAP: usize>(
    perms: &Perms,
    shape: &Shape,
    rng: &mut impl RngCore,
    activation_start: u64,
    num_active: u64,
) -> Result<KeyMaterial<PL, H>, ActivationError> {
    key_gen_with_progress::<PL, T, H, CAP>(perms, shape, rng, activation_start, num_active, &mut |_, _| {})
}

/// [`key_gen`] calling `progress(done, total)` after each bottom tree.
pub fn key_gen_with_progress<const PL: usize, const T: usize, const H: usize, const CAP: usize>(
    perms: &Perms,
    shape: &Shape,
    rng: &mut impl RngCore,
    activation_start: u64,
    num_active: u64,
    progress: &mut (dyn FnMut(u64, u64) + Send),
) -> Result<KeyMaterial<PL, H>, ActivationError> {
    check_activation(shape.log_lifetime, activation_start, num_active)?;
    let parameter: [Kb; PL] = core::array::from_fn(|_| sample_kb(rng));
    let prf_key = sample_bytes32(rng);
    let (start, num) = expand_activation(shape.log_lifetime, activation_start, num_active);
    let half = shape.log_lifetime / 2;
    let first_tree = start >> half;
    let trees = num >> half;
    // bottom trees (and the work inside each) in parallel on the caller's rayon pool (they
    // need no randomness); the first two are kept whole as the prepared interval
    let done = std::sync::atomic::AtomicU64::new(0);
    let progress = std::sync::Mutex::new(progress);
    let trees_out: Vec<(u64, Vec<Vec<[Kb; H]>>)> = {
        use rayon::prelude::*;
        (first_tree..first_tree + trees)
            .into_par_iter()
            .map(|k| {
                let mut t = perms.bottom_tree::<PL, T, H, CAP>(shape, &parameter, &prf_key, k);
                if k >= first_tree + 2 {
                    t = vec![t.pop().expect("root layer")];
                }
                let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                if let Ok(mut p) = progress.lock() {
                    (*p)(n, trees);
                }
                (k, t)
            })
            .collect()
    };
    let layer: Vec<[Kb; H]> = trees_out.iter().map(|(_, t)| t.last().expect("root layer")[0]).collect();
    let prepared: Vec<(u64, Vec<Vec<[Kb; H]>>)> = trees_out.into_iter().filter(|(k, _)| *k < first_tree + 2).collect();
    let top_layers = top_tree(layer, first_tree, shape.log_lifetime, || core::array::from_fn(|_| sample_kb(rng)), |level, pos, l, r| perms.node::<PL, T, H>(&parameter, level, pos, l, r));
    let root = top_layers.last().expect("root layer").1[0];
    Ok(KeyMaterial { root, parameter, prf_key, activation_start: start, active_epochs: num, top_layers, prepared })
}

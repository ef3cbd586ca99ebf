//! hash-sig's Poseidon2 tweakable hash (`PoseidonTweakHash`): every call hashes
//! [parameter | tweak | inputs] with a domain-separating tweak.
//! - Tweaks are integers written as TWEAK_LEN base-p digits, least significant first: a tree
//!   node is `level << 40 | pos << 8 | 0x01`, a chain step `epoch << 24 | chain << 16 |
//!   pos << 8 | 0x00`.
//! - One input (a chain step): feed-forward compression with the width-16 permutation,
//!   (P16(s) + s)[..HASH_LEN], s = [parameter | tweak | value | 0...].
//! - Two inputs (a tree node): the same with the width-24 permutation on [parameter | tweak |
//!   left | right | 0...].
//! - More (a leaf: all chain ends of an epoch): a sponge over width 24 with capacity
//!   CAPACITY (the last lanes), the capacity initialised to the compression of the lengths
//!   (PARAMETER_LEN, TWEAK_LEN, NUM_CHUNKS, HASH_LEN) packed base 2^32 and re-expanded base
//!   p; additive absorption of rate-sized blocks (zero-padded), output the first HASH_LEN
//!   lanes.

use crate::koalabear::{Kb, P};
use crate::poseidon2::Poseidon2;

/// Widths of the two permutations.
pub const W16: usize = 16;
/// Width of the tree and sponge permutation.
pub const W24: usize = 24;

/// The TWEAK_LEN base-p digits of a tweak integer, least significant first.
pub fn tweak_digits<const T: usize>(v: u128) -> [Kb; T] {
    // chain and tree tweaks fit 64 bits: keep their per-step digits off the u128 division
    if let Ok(mut w) = u64::try_from(v) {
        return core::array::from_fn(|_| {
            let d = (w % P as u64) as u32;
            w /= P as u64;
            Kb::new(d)
        });
    }
    let mut v = v;
    core::array::from_fn(|_| {
        let d = (v % P as u128) as u32;
        v /= P as u128;
        Kb::new(d)
    })
}

/// The tweak of tree node `pos` at `level` (level 0: leaves).
pub fn tree_tweak<const T: usize>(level: u8, pos: u32) -> [Kb; T] {
    tweak_digits(((level as u128) << 40) | ((pos as u128) << 8) | 0x01)
}

/// The tweak of position `pos` in chain `chain` at `epoch`.
pub fn chain_tweak<const T: usize>(epoch: u32, chain: u8, pos: u8) -> [Kb; T] {
    tweak_digits(((epoch as u128) << 24) | ((chain as u128) << 16) | ((pos as u128) << 8))
}

/// The permutations, built once.
#[derive(Clone, Debug)]
pub struct Perms {
    /// Width 16.
    pub p16: Poseidon2<16>,
    /// Width 24.
    pub p24: Poseidon2<24>,
}

impl Default for Perms {
    fn default() -> Self {
        Self { p16: Poseidon2::new_16(), p24: Poseidon2::new_24() }
    }
}

/// (P(s) + s)[..H] for s = the concatenation of `parts`, zero-padded to the width.
fn compress<const W: usize, const H: usize>(perm: &Poseidon2<W>, parts: &[&[Kb]]) -> [Kb; H] {
    let mut s = [Kb::ZERO; W];
    let mut i = 0;
    for part in parts {
        s[i..i + part.len()].copy_from_slice(part);
        i += part.len();
    }
    let out = perm.permute(s);
    core::array::from_fn(|k| out[k] + s[k])
}

impl Perms {
    /// The sponge capacity's initial value for these lengths (see [`Perms::leaf`]).
    fn sponge_capacity<const PL: usize, const T: usize, const H: usize, const CAP: usize>(&self, num_chunks: u32) -> [Kb; CAP] {
        let lengths = [PL as u32, T as u32, num_chunks, H as u32];
        let mut packed: u128 = 0;
        for &l in lengths.iter() {
            packed = (packed << 32) | l as u128;
        }
        let digits: [Kb; W24] = tweak_digits(packed);
        compress::<W24, CAP>(&self.p24, &[&digits])
    }

    /// [`Perms::leaf`] for L epochs at once through the L-lane permutation (L = 8 or 16).
    pub fn leaves_lanes<const PL: usize, const T: usize, const H: usize, const CAP: usize, const L: usize>(
        &self,
        parameter: &[Kb; PL],
        epochs: [u32; L],
        chain_ends: &[Vec<[Kb; H]>; L],
        num_chunks: u32,
    ) -> [[Kb; H]; L] {
        let rate = W24 - CAP;
        let cap = self.sponge_capacity::<PL, T, H, CAP>(num_chunks);
        let mut states = [[Kb::ZERO; W24]; L];
        let inputs: Vec<Vec<Kb>> = (0..L)
            .map(|i| {
                let mut v = Vec::with_capacity(PL + T + chain_ends[i].len() * H);
                v.extend_from_slice(parameter);
                v.extend_from_slice(&tree_tweak::<T>(0, epochs[i]));
                for e in &chain_ends[i] {
                    v.extend_from_slice(e);
                }
                v
            })
            .collect();
        for st in states.iter_mut() {
            st[rate..].copy_from_slice(&cap);
        }
        let blocks = inputs[0].len().div_ceil(rate);
        for b in 0..blocks {
            for (st, inp) in states.iter_mut().zip(&inputs) {
                for (x, v) in st.iter_mut().zip(inp.iter().skip(b * rate).take(rate)) {
                    *x += *v;
                }
            }
            self.p24.permute_lanes(&mut states);
        }
        core::array::from_fn(|i| core::array::from_fn(|k| states[i][k]))
    }

    /// One chain step: the value at position `pos` (>= 1) from the value at `pos - 1`.
    pub fn chain_step<const PL: usize, const T: usize, const H: usize>(&self, parameter: &[Kb; PL], epoch: u32, chain: u8, pos: u8, value: &[Kb; H]) -> [Kb; H] {
        let tweak = chain_tweak::<T>(epoch, chain, pos);
        compress::<W16, H>(&self.p16, &[parameter, &tweak, value])
    }

    /// Walk `steps` chain steps from the value at position `start`.
    pub fn chain<const PL: usize, const T: usize, const H: usize>(&self, parameter: &[Kb; PL], epoch: u32, chain: u8, start: u8, steps: u8, value: &[Kb; H]) -> [Kb; H] {
        let mut v = *value;
        for j in 1..=steps {
            v = self.chain_step::<PL, T, H>(parameter, epoch, chain, start + j, &v);
        }
        v
    }

    /// L chains walked in lockstep (L = 8 or 16 use the packed permutations), `steps`
    /// steps each from position `start`: lane i is chain `chains[i]` of epoch `epochs[i]`,
    /// holding `values[i]`.
    #[allow(clippy::too_many_arguments)]
    pub fn chains_lanes<const PL: usize, const T: usize, const H: usize, const L: usize>(&self, parameter: &[Kb; PL], epochs: [u32; L], chains: [u8; L], start: u8, steps: u8, values: &mut [[Kb; H]; L]) {
        assert!(PL + T + H <= W16, "a chain step must fit one width-16 state");
        #[cfg(target_arch = "x86_64")]
        {
            // the tweaks of step j for lanes first..first + N, built on the stack
            fn lane_tweaks<const T: usize, const N: usize>(epochs: &[u32], chains: &[u8], first: usize, pos: u8) -> [[Kb; T]; N] {
                core::array::from_fn(|i| chain_tweak::<T>(epochs[first + i], chains[first + i], pos))
            }
            if L == 16 && crate::packed_avx512::use_lanes() {
                let v: &mut [[Kb; H]; 16] = (&mut values[..]).try_into().expect("16 lanes");
                // SAFETY: `use_lanes` found AVX-512F and AVX-512BW on this CPU just above.
                unsafe { crate::packed_avx512::chains_x16::<PL, T, H>(&self.p16, parameter, |j| lane_tweaks::<T, 16>(&epochs, &chains, 0, start + j), steps, v) };
                return;
            }
            if L.is_multiple_of(8) && std::is_x86_feature_detected!("avx2") {
                for (b, chunk) in values.chunks_exact_mut(8).enumerate() {
                    let v: &mut [[Kb; H]; 8] = chunk.try_into().expect("8 lanes");
                    // SAFETY: AVX2 was detected on this CPU just above.
                    unsafe { crate::packed_avx2::chains_x8::<PL, T, H>(&self.p16, parameter, |j| lane_tweaks::<T, 8>(&epochs, &chains, 8 * b, start + j), steps, v) };
                }
                return;
            }
        }
        for j in 1..=steps {
            let mut states = [[Kb::ZERO; W16]; L];
            for (i, st) in states.iter_mut().enumerate() {
                st[..PL].copy_from_slice(parameter);
                st[PL..PL + T].copy_from_slice(&chain_tweak::<T>(epochs[i], chains[i], start + j));
                st[PL + T..PL + T + H].copy_from_slice(&values[i]);
            }
            let inputs = states;
            self.p16.permute_lanes(&mut states);
            for i in 0..L {
                for k in 0..H {
                    values[i][k] = states[i][k] + inputs[i][k];
                }
            }
        }
    }

    /// Walk chains of different lengths through the packed permutations: job i is `chain` i
    /// of `epoch` holding `values[i]` at position `starts[i]`, to be walked `steps[i]` steps.
    /// Sixteen lanes are refilled from a queue as their chains finish; the queue holds the
    /// longest chains first (longest-processing-time order), so the long walks overlap the
    /// short ones instead of running alone at the end. While more than eight lanes are live
    /// a step is one sixteen-lane call; with two to eight live, the live lanes are packed
    /// into one eight-lane call (half the cost on AVX2, where sixteen lanes are two calls);
    /// a last lone chain is walked scalar. The cost is about (sum of steps) / 16 packed
    /// calls, or the longest chain's length in eight-lane calls if that is more (signing
    /// and verification walk every chain a different distance).
    pub fn walk_chains<const PL: usize, const T: usize, const H: usize>(&self, parameter: &[Kb; PL], epoch: u32, starts: &[u8], steps: &[u8], values: &mut [[Kb; H]]) {
        const L: usize = 16;
        assert!(PL + T + H <= W16, "a chain step must fit one width-16 state");
        assert!(starts.len() == values.len() && steps.len() == values.len());
        let mut queue: Vec<usize> = (0..values.len()).filter(|&i| steps[i] > 0).collect();
        queue.sort_by_key(|&i| core::cmp::Reverse(steps[i]));
        let mut queue = queue.into_iter();
        // lane i works on job lanes[i] = (job, position reached, steps left) holding cur[i]
        let mut lanes: [Option<(usize, u8, u8)>; L] = [None; L];
        let mut cur: [[Kb; H]; L] = [[Kb::ZERO; H]; L];
        let state = |j: usize, pos: u8, c: &[Kb; H]| {
            let mut st = [Kb::ZERO; W16];
            st[..PL].copy_from_slice(parameter);
            st[PL..PL + T].copy_from_slice(&chain_tweak::<T>(epoch, j as u8, pos + 1));
            st[PL + T..PL + T + H].copy_from_slice(c);
            st
        };
        loop {
            for (lane, c) in lanes.iter_mut().zip(cur.iter_mut()).filter(|(l, _)| l.is_none()) {
                let Some(j) = queue.next() else { break };
                *lane = Some((j, starts[j], steps[j]));
                *c = values[j];
            }
            let mut live_at = [0usize; L];
            let mut n = 0;
            for (i, l) in lanes.iter().enumerate() {
                if l.is_some() {
                    live_at[n] = i;
                    n += 1;
                }
            }
            let live = &live_at[..n];
            match n {
                0 => break,
                1 => {
                    let i = live[0];
                    let (j, pos, left) = lanes[i].take().expect("live lane");
                    values[j] = self.chain::<PL, T, H>(parameter, epoch, j as u8, pos, left, &cur[i]);
                    continue;
                }
                2..=8 => {
                    let mut states = [[Kb::ZERO; W16]; 8];
                    for (st, &i) in states.iter_mut().zip(live) {
                        let (j, pos, _) = lanes[i].expect("live lane");
                        *st = state(j, pos, &cur[i]);
                    }
                    let inputs = states;
                    self.p16.permute_x8(&mut states);
                    for (k, &i) in live.iter().enumerate() {
                        cur[i] = core::array::from_fn(|m| states[k][m] + inputs[k][m]);
                    }
                }
                _ => {
                    let mut states = [[Kb::ZERO; W16]; L];
                    for &i in live {
                        let (j, pos, _) = lanes[i].expect("live lane");
                        states[i] = state(j, pos, &cur[i]);
                    }
                    let inputs = states;
                    self.p16.permute_x16(&mut states);
                    for &i in live {
                        cur[i] = core::array::from_fn(|m| states[i][m] + inputs[i][m]);
                    }
                }
            }
            for &i in live {
                let (j, pos, left) = lanes[i].expect("live lane");
                if left == 1 {
                    values[j] = cur[i];
                    lanes[i] = None;
                } else {
                    lanes[i] = Some((j, pos + 1, left - 1));
                }
            }
        }
    }

    /// A tree node from its two children.
    pub fn node<const PL: usize, const T: usize, const H: usize>(&self, parameter: &[Kb; PL], level: u8, pos: u32, left: &[Kb; H], right: &[Kb; H]) -> [Kb; H] {
        let tweak = tree_tweak::<T>(level, pos);
        compress::<W24, H>(&self.p24, &[parameter, &tweak, left, right])
    }

    /// The sponge leaf hash over all chain ends of `epoch` (tree tweak level 0, position
    /// epoch). CAP is the capacity, `num_chunks` the domain separator's chain count.
    pub fn leaf<const PL: usize, const T: usize, const H: usize, const CAP: usize>(
        &self,
        parameter: &[Kb; PL],
        epoch: u32,
        chain_ends: &[[Kb; H]],
        num_chunks: u32,
    ) -> [Kb; H] {
        let rate = W24 - CAP;
        // capacity: compress24 of the lengths, packed base 2^32 and re-expanded base p
        let cap: [Kb; CAP] = self.sponge_capacity::<PL, T, H, CAP>(num_chunks);
        let mut s = [Kb::ZERO; W24];
        s[rate..].copy_from_slice(&cap);
        let tweak = tree_tweak::<T>(0, epoch);
        let mut input: Vec<Kb> = Vec::with_capacity(PL + T + chain_ends.len() * H);
        input.extend_from_slice(parameter);
        input.extend_from_slice(&tweak);
        for e in chain_ends {
            input.extend_from_slice(e);
        }
        for block in input.chunks(rate) {
            for (x, v) in s.iter_mut().zip(block) {
                *x += *v;
            }
            self.p24.permute_mut(&mut s);
        }
        core::array::from_fn(|k| s[k])
    }
}

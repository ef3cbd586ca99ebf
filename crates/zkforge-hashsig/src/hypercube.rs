//! Layers of the hypercube {0..w-1}^v and the top-level message hash of hash-sig's
//! `TopLevelPoseidonMessageHash` (Drake, Khovratovich, Kudinov, Wagner, ePrint 2025/055,
//! "top-level target sum"): a vertex a lies in layer d = sum_i (w - 1 - a_i); layer 0 is
//! (w-1, ..., w-1).
//!
//! Layer sizes satisfy size_v(d) = sum_{j=0}^{w-1} size_{v-1}(d - j) (j is the first
//! coordinate's share of d). An integer x below the number of vertices of layers 0..=D is
//! mapped to a vertex by finding its layer (prefix sums) and then, coordinate by coordinate,
//! walking j = 0, 1, ... and subtracting the size of each skipped sub-layer.

use num_bigint::BigUint;

use crate::koalabear::{Kb, P};
use crate::tweak_hash::Perms;

/// Layer sizes of {0..w-1}^k for k = 0..=v.
#[derive(Clone, Debug)]
pub struct Layers {
    w: usize,
    /// sizes[k][d] for dimension k.
    sizes: Vec<Vec<BigUint>>,
}

impl Layers {
    /// The table for base w and dimensions up to v.
    pub fn new(w: usize, v: usize) -> Self {
        let mut sizes: Vec<Vec<BigUint>> = vec![vec![BigUint::from(1u32)]];
        for k in 1..=v {
            let prev = &sizes[k - 1];
            let max_d = (w - 1) * k;
            let cur: Vec<BigUint> = (0..=max_d)
                .map(|d| {
                    let mut s = BigUint::from(0u32);
                    for j in 0..w.min(d + 1) {
                        if let Some(x) = prev.get(d - j) {
                            s += x;
                        }
                    }
                    s
                })
                .collect();
            sizes.push(cur);
        }
        Self { w, sizes }
    }

    /// Number of vertices in layers 0..=d of dimension v.
    pub fn part_size(&self, v: usize, d: usize) -> BigUint {
        self.sizes[v][..=d].iter().sum()
    }

    /// The layer of the vertex with index x among layers 0..=D, and x's offset in it.
    pub fn layer_of(&self, v: usize, mut x: BigUint) -> (usize, BigUint) {
        let mut d = 0;
        while x >= self.sizes[v][d] {
            x -= &self.sizes[v][d];
            d += 1;
        }
        (d, x)
    }

    /// The vertex of dimension v with index x among layers 0..=D (x below `part_size`).
    pub fn vertex(&self, v: usize, x: BigUint) -> Vec<u8> {
        let (d, x) = self.layer_of(v, x);
        self.vertex_in_layer(v, d, x)
    }

    /// The vertex with offset x in layer d of dimension v.
    pub fn vertex_in_layer(&self, v: usize, d: usize, mut x: BigUint) -> Vec<u8> {
        let w = self.w;
        let mut d = d;
        let mut out = Vec::with_capacity(v);
        for i in 1..v {
            let rest = v - i;
            let lo = d.saturating_sub((w - 1) * rest);
            let mut chosen = None;
            for j in lo..=d.min(w - 1) {
                let count = &self.sizes[rest][d - j];
                if x >= *count {
                    x -= count;
                } else {
                    chosen = Some(j);
                    break;
                }
            }
            let j = chosen.expect("x is below the layer size");
            out.push((w - 1 - j) as u8);
            d -= j;
        }
        out.push((w - 1 - d) as u8);
        out
    }
}

/// The message's 32 bytes as MSG_LEN base-p digits of a little-endian integer.
pub fn encode_message<const M: usize>(message: &[u8; 32]) -> [Kb; M] {
    let mut acc = BigUint::from_bytes_le(message);
    let p = BigUint::from(P);
    core::array::from_fn(|_| {
        let d = (&acc % &p).to_u32_digits().first().copied().unwrap_or(0);
        acc /= &p;
        Kb::new(d)
    })
}

/// The epoch with the message-hash separator 0x02 as two base-p digits.
pub fn encode_epoch<const T: usize>(epoch: u32) -> [Kb; T] {
    let acc = ((epoch as u64) << 8) | 0x02;
    core::array::from_fn(|i| match i {
        0 => Kb::new((acc % P as u64) as u32),
        1 => Kb::new((acc / P as u64) as u32),
        _ => Kb::ZERO,
    })
}

impl Perms {
    /// The top-level message hash: `invocations` width-24 compressions of [rho | parameter |
    /// epoch | message | i], OUT_PER elements each, read as one base-p integer (first element
    /// most significant), reduced mod the size of layers 0..=final_layer, mapped to a vertex.
    #[allow(clippy::too_many_arguments)]
    pub fn top_level_message_hash<const PL: usize, const T: usize, const R: usize, const M: usize, const OUT_PER: usize>(
        &self,
        layers: &Layers,
        dimension: usize,
        final_layer: usize,
        invocations: usize,
        parameter: &[Kb; PL],
        epoch: u32,
        rho: &[Kb; R],
        message: &[u8; 32],
    ) -> Vec<u8> {
        self.top_level_message_hash_in_layer::<PL, T, R, M, OUT_PER>(layers, dimension, final_layer, invocations, parameter, epoch, rho, message, None)
            .expect("no layer required")
    }

    /// [`Perms::top_level_message_hash`], returning `None` without mapping to a vertex when
    /// `required_layer` is given and the hash lands in another layer (the target-sum
    /// encoding only accepts one layer, so signing skips the mapping on failed attempts).
    #[allow(clippy::too_many_arguments)]
    pub fn top_level_message_hash_in_layer<const PL: usize, const T: usize, const R: usize, const M: usize, const OUT_PER: usize>(
        &self,
        layers: &Layers,
        dimension: usize,
        final_layer: usize,
        invocations: usize,
        parameter: &[Kb; PL],
        epoch: u32,
        rho: &[Kb; R],
        message: &[u8; 32],
        required_layer: Option<usize>,
    ) -> Option<Vec<u8>> {
        let msg: [Kb; M] = encode_message(message);
        let ep: [Kb; T] = encode_epoch(epoch);
        let mut acc = BigUint::from(0u32);
        for i in 0..invocations {
            let s = top_level_state(rho, parameter, &ep, &msg, i);
            let out = self.p24.permute(s);
            for j in 0..OUT_PER {
                acc = acc * P + (out[j] + s[j]).to_canonical();
            }
        }
        top_level_vertex(layers, dimension, final_layer, acc, required_layer)
    }

    /// [`Perms::top_level_message_hash_in_layer`] for eight randomness values at once: each
    /// invocation is one eight-lane width-24 permutation (signing tries the counters eight
    /// at a time). Lane i of the result belongs to `rhos[i]`.
    #[allow(clippy::too_many_arguments)]
    pub fn top_level_message_hash_in_layer_x8<const PL: usize, const T: usize, const R: usize, const M: usize, const OUT_PER: usize>(
        &self,
        layers: &Layers,
        dimension: usize,
        final_layer: usize,
        invocations: usize,
        parameter: &[Kb; PL],
        epoch: u32,
        rhos: &[[Kb; R]; 8],
        message: &[u8; 32],
        required_layer: Option<usize>,
    ) -> [Option<Vec<u8>>; 8] {
        let msg: [Kb; M] = encode_message(message);
        let ep: [Kb; T] = encode_epoch(epoch);
        let mut acc: [BigUint; 8] = core::array::from_fn(|_| BigUint::from(0u32));
        for i in 0..invocations {
            let inputs: [[Kb; 24]; 8] = core::array::from_fn(|lane| top_level_state(&rhos[lane], parameter, &ep, &msg, i));
            let mut out = inputs;
            self.p24.permute_x8(&mut out);
            for (a, (o, s)) in acc.iter_mut().zip(out.iter().zip(&inputs)) {
                for j in 0..OUT_PER {
                    *a = &*a * P + (o[j] + s[j]).to_canonical();
                }
            }
        }
        acc.map(|a| top_level_vertex(layers, dimension, final_layer, a, required_layer))
    }
}

/// Invocation i's input [rho | parameter | epoch | message | i], zero-padded to width 24.
fn top_level_state<const PL: usize, const T: usize, const R: usize, const M: usize>(rho: &[Kb; R], parameter: &[Kb; PL], ep: &[Kb; T], msg: &[Kb; M], i: usize) -> [Kb; 24] {
    let mut s = [Kb::ZERO; 24];
    for (k, x) in rho.iter().chain(parameter).chain(ep).chain(msg).chain(core::iter::once(&Kb::new(i as u32))).enumerate() {
        s[k] = *x;
    }
    s
}

/// The hash integer reduced mod the size of layers 0..=final_layer and mapped to its
/// vertex; `None` when `required_layer` is given and the hash lands in another layer.
fn top_level_vertex(layers: &Layers, dimension: usize, final_layer: usize, acc: BigUint, required_layer: Option<usize>) -> Option<Vec<u8>> {
    let (d, x) = layers.layer_of(dimension, acc % layers.part_size(dimension, final_layer));
    if required_layer.is_some_and(|r| r != d) {
        return None;
    }
    Some(layers.vertex_in_layer(dimension, d, x))
}

/// The target-sum encoding: the chunks themselves when they sum to `target`, else the sum.
pub fn target_sum(chunks: &[u8], target: u32) -> Result<Vec<u8>, u32> {
    let s: u32 = chunks.iter().map(|&c| c as u32).sum();
    if s == target {
        Ok(chunks.to_vec())
    } else {
        Err(s)
    }
}

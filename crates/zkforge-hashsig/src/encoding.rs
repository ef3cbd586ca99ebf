//! The message hash of hash-sig's Winternitz and target-sum instantiations
//! (`PoseidonMessageHash`) and the two incomparable encodings built on it (Drake,
//! Khovratovich, Kudinov, Wagner, ePrint 2025/055, section 4; the reference's
//! `inc_encoding::{basic_winternitz, target_sum}`).
//!
//! - Message hash: one width-24 feed-forward compression of [rho | parameter | epoch |
//!   message] (zero-padded), keeping MSG_HASH_LEN = 5 elements; those are read as one base-p
//!   integer, first element most significant, and split into `chunks` digits of `base`,
//!   least significant first.
//! - Winternitz: the digits followed by the checksum sum(base - 1 - x_i), written as
//!   little-endian u64 bytes, cut into chunks of `chunk_size` bits (low bits first), of which
//!   the first `checksum_chunks` are kept. Always succeeds (MAX_TRIES = 1).
//! - Target sum: the digits when they sum to the target, else a retry with the next rho.

use num_bigint::BigUint;

use crate::hypercube::{encode_epoch, encode_message};
use crate::koalabear::{Kb, P};
use crate::tweak_hash::Perms;

/// MSG_HASH_LEN of every `PoseidonMessageHash` instantiation.
pub const MSG_HASH_LEN: usize = 5;

/// The chunks of `bytes` of `chunk_size` bits (1, 2, 4 or 8), low bits of each byte first.
pub fn bytes_to_chunks(bytes: &[u8], chunk_size: u32) -> Vec<u8> {
    debug_assert!(matches!(chunk_size, 1 | 2 | 4 | 8));
    let per = 8 / chunk_size;
    let mask = ((1u16 << chunk_size) - 1) as u8;
    bytes.iter().flat_map(|&b| (0..per).map(move |k| (b >> (k * chunk_size)) & mask)).collect()
}

impl Perms {
    /// `PoseidonMessageHash`: `chunks` digits of `base` from one compression of
    /// [rho | parameter | epoch | message].
    #[allow(clippy::too_many_arguments)]
    pub fn poseidon_message_hash<const PL: usize, const T: usize, const R: usize, const M: usize>(
        &self,
        parameter: &[Kb; PL],
        epoch: u32,
        rho: &[Kb; R],
        message: &[u8; 32],
        chunks: usize,
        base: u32,
    ) -> Vec<u8> {
        let s = message_hash_state::<PL, T, R, M>(parameter, &encode_epoch(epoch), rho, &encode_message(message));
        let out = self.p24.permute(s);
        hash_digits(&out, &s, chunks, base)
    }

    /// [`Perms::poseidon_message_hash`] for eight randomness values at once (one eight-lane
    /// width-24 permutation): signing tries the counters eight at a time.
    #[allow(clippy::too_many_arguments)]
    pub fn poseidon_message_hash_x8<const PL: usize, const T: usize, const R: usize, const M: usize>(
        &self,
        parameter: &[Kb; PL],
        epoch: u32,
        rhos: &[[Kb; R]; 8],
        message: &[u8; 32],
        chunks: usize,
        base: u32,
    ) -> [Vec<u8>; 8] {
        let (ep, msg) = (encode_epoch(epoch), encode_message(message));
        let inputs: [[Kb; 24]; 8] = core::array::from_fn(|i| message_hash_state::<PL, T, R, M>(parameter, &ep, &rhos[i], &msg));
        let mut out = inputs;
        self.p24.permute_x8(&mut out);
        core::array::from_fn(|i| hash_digits(&out[i], &inputs[i], chunks, base))
    }
}

/// The message-hash input [rho | parameter | epoch | message], zero-padded to width 24.
fn message_hash_state<const PL: usize, const T: usize, const R: usize, const M: usize>(parameter: &[Kb; PL], ep: &[Kb; T], rho: &[Kb; R], msg: &[Kb; M]) -> [Kb; 24] {
    assert!(R + PL + T + M <= 24, "the message hash input must fit one width-24 state");
    let mut s = [Kb::ZERO; 24];
    for (k, x) in rho.iter().chain(parameter).chain(ep).chain(msg).enumerate() {
        s[k] = *x;
    }
    s
}

/// The digits of the feed-forward output (out + input)[..MSG_HASH_LEN] read as one base-p
/// integer (first element most significant): 5 elements of 31 bits, 155 bits, held in three
/// 64-bit limbs; base 2^k digits come straight from the bits, other bases by division.
fn hash_digits(out: &[Kb; 24], input: &[Kb; 24], chunks: usize, base: u32) -> Vec<u8> {
    if base.is_power_of_two() {
        let mut acc = [0u64; 3];
        for j in 0..MSG_HASH_LEN {
            // acc <- acc p + digit
            let mut carry = (out[j] + input[j]).to_canonical() as u128;
            for limb in acc.iter_mut() {
                let t = *limb as u128 * P as u128 + carry;
                *limb = t as u64;
                carry = t >> 64;
            }
        }
        let bit = |i: u64| (acc[(i / 64) as usize] >> (i % 64)) & 1;
        let k = base.trailing_zeros() as u64;
        (0..chunks as u64).map(|i| (0..k).fold(0u8, |d, b| d | ((bit(i * k + b) as u8) << b))).collect()
    } else {
        let mut acc = BigUint::from(0u32);
        for j in 0..MSG_HASH_LEN {
            acc = acc * P + (out[j] + input[j]).to_canonical();
        }
        let b = BigUint::from(base);
        (0..chunks)
            .map(|_| {
                let d = (&acc % &b).to_u32_digits().first().copied().unwrap_or(0) as u8;
                acc /= &b;
                d
            })
            .collect()
    }
}

/// Checksum chunks of the Winternitz encoding for a chunk size of 1, 2, 4 or 8 bits, the
/// reference's table (shared by the Poseidon2 and SHA3 instance lists).
pub(crate) fn winternitz_checksum_chunks(chunk_size: u32) -> usize {
    match chunk_size {
        1 => 8,
        2 => 4,
        4 => 3,
        _ => 2,
    }
}

/// The Winternitz codeword: the message digits followed by their checksum's first
/// `checksum_chunks` chunks.
pub fn winternitz(mut digits: Vec<u8>, base: u32, chunk_size: u32, checksum_chunks: usize) -> Vec<u8> {
    let checksum: u64 = digits.iter().map(|&x| (base - 1 - x as u32) as u64).sum();
    let c = bytes_to_chunks(&checksum.to_le_bytes(), chunk_size);
    digits.extend_from_slice(&c[..checksum_chunks]);
    digits
}

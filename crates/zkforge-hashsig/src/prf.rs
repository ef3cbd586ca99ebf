//! The SHAKE128 pseudorandom function of hash-sig's `ShakePRFtoF` (FIPS 202 SHAKE128):
//! - chain start: SHAKE128(SEP || 0x00 || key || epoch (u32 BE) || chain index (u64 BE));
//! - signing randomness rho: SHAKE128(SEP || 0x01 || key || epoch (u32 BE) || message (32
//!   bytes) || counter (u64 BE)).
//!
//! Each field element is read from 16 output bytes as a big-endian u128 reduced mod p.

use sha3::digest::{ExtendableOutput, Update, XofReader};
use sha3::Shake128;

use crate::koalabear::{Kb, P};

/// The PRF's 16-byte domain separator.
pub const PRF_SEPARATOR: [u8; 16] = [0xae, 0xae, 0x22, 0xff, 0x00, 0x01, 0xfa, 0xff, 0x21, 0xaf, 0x12, 0x00, 0x01, 0x11, 0xff, 0x00];

/// A field element from 16 bytes read as a big-endian integer mod p.
pub fn kb_from_u128_be(b: &[u8; 16]) -> Kb {
    // x = hi 2^64 + lo, reduced with 64-bit remainders by the constant p (multiplications,
    // not the u128 division routine): (hi mod p)(2^64 mod p) + (lo mod p) < 2^63.
    const R64: u64 = ((1u128 << 64) % P as u128) as u64;
    let hi = u64::from_be_bytes(b[..8].try_into().expect("8 bytes")) % P as u64;
    let lo = u64::from_be_bytes(b[8..].try_into().expect("8 bytes")) % P as u64;
    Kb::new(((hi * R64 + lo) % P as u64) as u32)
}

fn read_elements<const L: usize>(mut xof: impl XofReader) -> [Kb; L] {
    core::array::from_fn(|_| {
        let mut b = [0u8; 16];
        xof.read(&mut b);
        kb_from_u128_be(&b)
    })
}

/// The secret start of chain `chain_index` at `epoch`.
pub fn chain_start<const L: usize>(key: &[u8; 32], epoch: u32, chain_index: u64) -> [Kb; L] {
    let mut h = Shake128::default();
    h.update(&PRF_SEPARATOR);
    h.update(&[0x00]);
    h.update(key);
    h.update(&epoch.to_be_bytes());
    h.update(&chain_index.to_be_bytes());
    read_elements(h.finalize_xof())
}

/// The signing randomness rho for (epoch, message, counter).
pub fn randomness<const L: usize>(key: &[u8; 32], epoch: u32, message: &[u8; 32], counter: u64) -> [Kb; L] {
    let mut h = Shake128::default();
    h.update(&PRF_SEPARATOR);
    h.update(&[0x01]);
    h.update(key);
    h.update(&epoch.to_be_bytes());
    h.update(message);
    h.update(&counter.to_be_bytes());
    read_elements(h.finalize_xof())
}

/// SHAKE128 of eight messages of one length below one rate block (168 bytes), the first 168
/// output bytes of each: eight states per Keccak-f call with AVX-512F, four with AVX2, else
/// the `sha3` crate one by one.
fn shake128_one_block_x8(msgs: &[&[u8]; 8]) -> [[u8; 168]; 8] {
    #[cfg(target_arch = "x86_64")]
    {
        let mut out = [[0u8; 168]; 8];
        if std::is_x86_feature_detected!("avx512f") {
            // SAFETY: AVX-512F was detected on this CPU just above.
            unsafe { crate::keccak_x8::shake128_one_block_x8(msgs, &mut out) };
            return out;
        }
        if std::is_x86_feature_detected!("avx2") {
            for h in 0..2 {
                let refs: [&[u8]; 4] = core::array::from_fn(|i| msgs[4 * h + i]);
                let sq: &mut [[u8; 168]; 4] = (&mut out[4 * h..4 * h + 4]).try_into().expect("4 blocks");
                // SAFETY: AVX2 was detected on this CPU just above.
                unsafe { crate::keccak_x4::shake128_one_block_x4(&refs, sq) };
            }
            return out;
        }
    }
    shake128_one_block_x8_portable(msgs)
}

/// The portable fallback of `shake128_one_block_x8`: the `sha3` crate, one message at a time.
fn shake128_one_block_x8_portable(msgs: &[&[u8]; 8]) -> [[u8; 168]; 8] {
    core::array::from_fn(|i| {
        let mut h = Shake128::default();
        h.update(msgs[i]);
        let mut o = [0u8; 168];
        h.finalize_xof().read(&mut o);
        o
    })
}

/// [`randomness`] for the eight counters `counter0..counter0 + 8` (signing tries them in
/// order; a batch costs about two single calls).
pub fn randomness_x8<const L: usize>(key: &[u8; 32], epoch: u32, message: &[u8; 32], counter0: u64) -> [[Kb; L]; 8] {
    assert!(16 * L <= 168);
    let msgs: [[u8; 93]; 8] = core::array::from_fn(|i| {
        let mut m = [0u8; 93];
        m[..16].copy_from_slice(&PRF_SEPARATOR);
        m[16] = 0x01;
        m[17..49].copy_from_slice(key);
        m[49..53].copy_from_slice(&epoch.to_be_bytes());
        m[53..85].copy_from_slice(message);
        m[85..93].copy_from_slice(&(counter0 + i as u64).to_be_bytes());
        m
    });
    let refs: [&[u8]; 8] = core::array::from_fn(|i| &msgs[i][..]);
    let squeezed = shake128_one_block_x8(&refs);
    core::array::from_fn(|i| core::array::from_fn(|k| kb_from_u128_be(squeezed[i][16 * k..16 * k + 16].try_into().expect("16 bytes"))))
}

/// [`chain_start`] for N (epoch, chain) pairs, eight SHAKE128 instances per batch (see
/// `shake128_one_block_x8`) when N is a multiple of eight (the messages are 61 bytes and the
/// output at most 128, so each is one Keccak-f permutation); else one by one.
pub fn chain_starts<const L: usize, const N: usize>(key: &[u8; 32], epochs: &[u32; N], chains: &[u64; N]) -> [[Kb; L]; N] {
    if !N.is_multiple_of(8) || 16 * L > 168 {
        return core::array::from_fn(|i| chain_start(key, epochs[i], chains[i]));
    }
    let mut out = [[Kb::ZERO; L]; N];
    for b in (0..N).step_by(8) {
        let msgs: [[u8; 61]; 8] = core::array::from_fn(|i| {
            let mut m = [0u8; 61];
            m[..16].copy_from_slice(&PRF_SEPARATOR);
            m[16] = 0x00;
            m[17..49].copy_from_slice(key);
            m[49..53].copy_from_slice(&epochs[b + i].to_be_bytes());
            m[53..61].copy_from_slice(&chains[b + i].to_be_bytes());
            m
        });
        let refs: [&[u8]; 8] = core::array::from_fn(|i| &msgs[i][..]);
        let squeezed = shake128_one_block_x8(&refs);
        for i in 0..8 {
            out[b + i] = core::array::from_fn(|k| kb_from_u128_be(squeezed[i][16 * k..16 * k + 16].try_into().expect("16 bytes")));
        }
    }
    out
}

/// [`chain_start`] for chains 0..n of one epoch (signing), eight at a time through
/// [`chain_starts`] and the remainder one by one.
pub fn epoch_chain_starts<const L: usize>(key: &[u8; 32], epoch: u32, n: usize) -> Vec<[Kb; L]> {
    let mut out = Vec::with_capacity(n);
    let mut c = 0;
    while c + 8 <= n {
        let batch: [[Kb; L]; 8] = chain_starts(key, &[epoch; 8], &core::array::from_fn(|i| (c + i) as u64));
        out.extend_from_slice(&batch);
        c += 8;
    }
    out.extend((c..n).map(|i| chain_start::<L>(key, epoch, i as u64)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The split reduction equals u128 % p, edges included.
    /// The batched starts of one epoch equal the one-by-one ones (lengths around the
    /// batch of eight).
    #[test]
    fn epoch_chain_starts_match() {
        let key = [7u8; 32];
        for n in [0usize, 1, 7, 8, 9, 22, 64] {
            let got: Vec<[Kb; 8]> = epoch_chain_starts(&key, 12345, n);
            let want: Vec<[Kb; 8]> = (0..n).map(|i| chain_start(&key, 12345, i as u64)).collect();
            assert_eq!(got, want, "n = {n}");
        }
    }

    /// The run-time selected batch (AVX-512 / AVX2 Keccak) equals the portable one, for
    /// every message length below one block.
    #[test]
    fn batched_shake_matches_portable() {
        for len in [0usize, 1, 61, 93, 135, 136, 167] {
            let msgs: [Vec<u8>; 8] = core::array::from_fn(|i| (0..len).map(|j| (j * 3 + i * 11) as u8).collect());
            let refs: [&[u8]; 8] = core::array::from_fn(|i| &msgs[i][..]);
            assert_eq!(shake128_one_block_x8(&refs), shake128_one_block_x8_portable(&refs), "length {len}");
        }
    }

    /// Eight batched signing randomness values equal the one-by-one ones.
    #[test]
    fn randomness_x8_matches() {
        let (key, msg) = ([3u8; 32], [9u8; 32]);
        for counter0 in [0u64, 8, 1000] {
            let got: [[Kb; 7]; 8] = randomness_x8(&key, 77, &msg, counter0);
            for (i, g) in got.iter().enumerate() {
                assert_eq!(*g, randomness::<7>(&key, 77, &msg, counter0 + i as u64));
            }
        }
    }

    #[test]
    fn u128_reduction_matches() {
        let p = P as u128;
        let mut xs = vec![0u128, 1, p - 1, p, p + 1, u64::MAX as u128, 1u128 << 64, u128::MAX, u128::MAX - 1, (p << 64) - 1, p * p * p];
        let mut x = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834u128;
        for _ in 0..1000 {
            x = x.wrapping_mul(0x2545_f491_4f6c_dd1d_0000_0000_0000_0001).wrapping_add(0x1234_5678_9abc_def1);
            xs.push(x);
        }
        for x in xs {
            assert_eq!(kb_from_u128_be(&x.to_be_bytes()), Kb::new((x % p) as u32), "{x:#x}");
        }
    }
}

//! Four Keccak-f[1600] permutations at once in AVX2 registers (FIPS 202, section 3): lane i
//! of register k is lane k of state i. AVX2 has no three-input logic or 64-bit rotate, so
//! chi is `a ^ (!b & c)` with one `vpandn`, and rho is two shifts and an OR (the offsets r[x, y]
//! of FIPS 202 table 2, written into the code).
//!
//! The AVX2 counterpart of `keccak_x8.rs` (eight states, AVX-512), used by the PRF
//! ([`crate::prf::chain_starts`]) on CPUs without AVX-512, and as four-way SHA3-256 by the
//! SHA3 instantiations' chain walks ([`crate::sha3_xmss`]). The functions are `unsafe` only for
//! the intrinsics; callers check `is_x86_feature_detected!("avx2")`. Tests compare every
//! output with the `sha3` crate.

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::*;

use crate::keccak_x8::RC;

/// Keccak-f[1600] on four states; `a[x + 5 y]` holds lane (x, y) of each.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn keccak_f_x4(a: &mut [__m256i; 25]) {
    // The round is written out lane by lane (from the FIPS 202 index formulas) so that every
    // index and rotation is a constant: loops over x and y kept the state in memory and
    // loaded each shift count.
    for rc in RC {
        // theta: column parities c[x], then d[x] = c[x - 1] ^ rot(c[x + 1], 1) into every lane
        let c0 = xor5(a[0], a[5], a[10], a[15], a[20]);
        let c1 = xor5(a[1], a[6], a[11], a[16], a[21]);
        let c2 = xor5(a[2], a[7], a[12], a[17], a[22]);
        let c3 = xor5(a[3], a[8], a[13], a[18], a[23]);
        let c4 = xor5(a[4], a[9], a[14], a[19], a[24]);
        let d0 = _mm256_xor_si256(c4, rol::<1, 63>(c1));
        let d1 = _mm256_xor_si256(c0, rol::<1, 63>(c2));
        let d2 = _mm256_xor_si256(c1, rol::<1, 63>(c3));
        let d3 = _mm256_xor_si256(c2, rol::<1, 63>(c4));
        let d4 = _mm256_xor_si256(c3, rol::<1, 63>(c0));
        // rho and pi, with theta's d folded in: B[y, 2x + 3y] = rot(A[x, y] ^ d[x], r[x, y])
        let b0 = _mm256_xor_si256(a[0], d0);
        let b16 = rol::<36, 28>(_mm256_xor_si256(a[5], d0));
        let b7 = rol::<3, 61>(_mm256_xor_si256(a[10], d0));
        let b23 = rol::<41, 23>(_mm256_xor_si256(a[15], d0));
        let b14 = rol::<18, 46>(_mm256_xor_si256(a[20], d0));
        let b10 = rol::<1, 63>(_mm256_xor_si256(a[1], d1));
        let b1 = rol::<44, 20>(_mm256_xor_si256(a[6], d1));
        let b17 = rol::<10, 54>(_mm256_xor_si256(a[11], d1));
        let b8 = rol::<45, 19>(_mm256_xor_si256(a[16], d1));
        let b24 = rol::<2, 62>(_mm256_xor_si256(a[21], d1));
        let b20 = rol::<62, 2>(_mm256_xor_si256(a[2], d2));
        let b11 = rol::<6, 58>(_mm256_xor_si256(a[7], d2));
        let b2 = rol::<43, 21>(_mm256_xor_si256(a[12], d2));
        let b18 = rol::<15, 49>(_mm256_xor_si256(a[17], d2));
        let b9 = rol::<61, 3>(_mm256_xor_si256(a[22], d2));
        let b5 = rol::<28, 36>(_mm256_xor_si256(a[3], d3));
        let b21 = rol::<55, 9>(_mm256_xor_si256(a[8], d3));
        let b12 = rol::<25, 39>(_mm256_xor_si256(a[13], d3));
        let b3 = rol::<21, 43>(_mm256_xor_si256(a[18], d3));
        let b19 = rol::<56, 8>(_mm256_xor_si256(a[23], d3));
        let b15 = rol::<27, 37>(_mm256_xor_si256(a[4], d4));
        let b6 = rol::<20, 44>(_mm256_xor_si256(a[9], d4));
        let b22 = rol::<39, 25>(_mm256_xor_si256(a[14], d4));
        let b13 = rol::<8, 56>(_mm256_xor_si256(a[19], d4));
        let b4 = rol::<14, 50>(_mm256_xor_si256(a[24], d4));
        // chi: A[x, y] = B[x, y] ^ (!B[x + 1, y] & B[x + 2, y]); iota on lane 0
        a[0] = _mm256_xor_si256(b0, _mm256_andnot_si256(b1, b2));
        a[1] = _mm256_xor_si256(b1, _mm256_andnot_si256(b2, b3));
        a[2] = _mm256_xor_si256(b2, _mm256_andnot_si256(b3, b4));
        a[3] = _mm256_xor_si256(b3, _mm256_andnot_si256(b4, b0));
        a[4] = _mm256_xor_si256(b4, _mm256_andnot_si256(b0, b1));
        a[5] = _mm256_xor_si256(b5, _mm256_andnot_si256(b6, b7));
        a[6] = _mm256_xor_si256(b6, _mm256_andnot_si256(b7, b8));
        a[7] = _mm256_xor_si256(b7, _mm256_andnot_si256(b8, b9));
        a[8] = _mm256_xor_si256(b8, _mm256_andnot_si256(b9, b5));
        a[9] = _mm256_xor_si256(b9, _mm256_andnot_si256(b5, b6));
        a[10] = _mm256_xor_si256(b10, _mm256_andnot_si256(b11, b12));
        a[11] = _mm256_xor_si256(b11, _mm256_andnot_si256(b12, b13));
        a[12] = _mm256_xor_si256(b12, _mm256_andnot_si256(b13, b14));
        a[13] = _mm256_xor_si256(b13, _mm256_andnot_si256(b14, b10));
        a[14] = _mm256_xor_si256(b14, _mm256_andnot_si256(b10, b11));
        a[15] = _mm256_xor_si256(b15, _mm256_andnot_si256(b16, b17));
        a[16] = _mm256_xor_si256(b16, _mm256_andnot_si256(b17, b18));
        a[17] = _mm256_xor_si256(b17, _mm256_andnot_si256(b18, b19));
        a[18] = _mm256_xor_si256(b18, _mm256_andnot_si256(b19, b15));
        a[19] = _mm256_xor_si256(b19, _mm256_andnot_si256(b15, b16));
        a[20] = _mm256_xor_si256(b20, _mm256_andnot_si256(b21, b22));
        a[21] = _mm256_xor_si256(b21, _mm256_andnot_si256(b22, b23));
        a[22] = _mm256_xor_si256(b22, _mm256_andnot_si256(b23, b24));
        a[23] = _mm256_xor_si256(b23, _mm256_andnot_si256(b24, b20));
        a[24] = _mm256_xor_si256(b24, _mm256_andnot_si256(b20, b21));
        a[0] = _mm256_xor_si256(a[0], _mm256_set1_epi64x(rc as i64));
    }
}

/// Rotate each 64-bit lane left by L (R = 64 - L).
/// (A safe `#[target_feature]` function: callable without `unsafe` from the AVX2 functions
/// below, and inlined into them.)
#[inline]
#[target_feature(enable = "avx2")]
fn rol<const L: i32, const R: i32>(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi64::<L>(x), _mm256_srli_epi64::<R>(x))
}

/// a ^ b ^ c ^ d ^ e.
#[inline]
#[target_feature(enable = "avx2")]
fn xor5(a: __m256i, b: __m256i, c: __m256i, d: __m256i, e: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(c, d)), e)
}

/// One-block Keccak sponge on four messages of equal length below `rate` bytes: absorb with
/// the domain padding `pad` ... 0x80, one permutation, the first `rate` bytes of each state
/// into `out`.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn keccak_one_block_x4(messages: &[&[u8]; 4], rate: usize, pad: u8, out: &mut [[u8; 168]; 4]) {
    let len = messages[0].len();
    assert!(rate <= 168 && rate.is_multiple_of(8) && len < rate && messages.iter().all(|m| m.len() == len));
    let lanes_in = rate / 8;
    let mut blocks = [[0u64; 21]; 4];
    for (blk, m) in blocks.iter_mut().zip(messages) {
        let mut bytes = [0u8; 168];
        bytes[..len].copy_from_slice(m);
        bytes[len] ^= pad;
        bytes[rate - 1] ^= 0x80;
        for (w, c) in blk.iter_mut().zip(bytes.chunks_exact(8)) {
            *w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        }
    }
    let mut a = [_mm256_setzero_si256(); 25];
    for (k, ak) in a.iter_mut().enumerate().take(lanes_in) {
        let lanes: [u64; 4] = core::array::from_fn(|i| blocks[i][k]);
        // SAFETY: reads the 32 bytes of `lanes`; AVX2 is enabled in this function.
        *ak = unsafe { _mm256_loadu_si256(lanes.as_ptr() as *const __m256i) };
    }
    // SAFETY: this function runs with AVX2 enabled (its caller's contract).
    unsafe { keccak_f_x4(&mut a) };
    for (k, ak) in a.iter().enumerate().take(lanes_in) {
        let mut lanes = [0u64; 4];
        // SAFETY: writes the 32 bytes of `lanes`; AVX2 is enabled in this function.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, *ak) };
        for i in 0..4 {
            out[i][8 * k..8 * k + 8].copy_from_slice(&lanes[i].to_le_bytes());
        }
    }
}

/// SHAKE128 of four messages of equal length below one rate block (168 bytes), squeezing
/// one rate block each.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn shake128_one_block_x4(messages: &[&[u8]; 4], out: &mut [[u8; 168]; 4]) {
    // SAFETY: AVX2 is enabled here (the caller's contract).
    unsafe { keccak_one_block_x4(messages, 168, 0x1f, out) };
}

/// SHA3-256 of four messages of equal length below one rate block (136 bytes).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn sha3_256_one_block_x4(messages: &[&[u8]; 4]) -> [[u8; 32]; 4] {
    let mut out = [[0u8; 168]; 4];
    // SAFETY: AVX2 is enabled here (the caller's contract).
    unsafe { keccak_one_block_x4(messages, 136, 0x06, &mut out) };
    core::array::from_fn(|i| out[i][..32].try_into().expect("32 bytes"))
}

#[cfg(test)]
mod tests {
    use sha3::digest::{Digest, ExtendableOutput, Update, XofReader};

    /// Every length below one block (0..167 bytes), four different messages each, against
    /// the `sha3` crate's SHAKE128.
    #[test]
    fn matches_sha3() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        for len in 0..168usize {
            let msgs: [Vec<u8>; 4] = core::array::from_fn(|i| (0..len).map(|j| (j * 31 + i * 7 + len) as u8).collect());
            let refs: [&[u8]; 4] = core::array::from_fn(|i| &msgs[i][..]);
            let mut out = [[0u8; 168]; 4];
            // SAFETY: AVX2 was detected just above.
            unsafe { super::shake128_one_block_x4(&refs, &mut out) };
            for i in 0..4 {
                let mut h = sha3::Shake128::default();
                h.update(&msgs[i]);
                let mut want = [0u8; 168];
                h.finalize_xof().read(&mut want);
                assert_eq!(out[i], want, "length {len}, message {i}");
            }
        }
    }

    /// SHA3-256 for every length below one block (0..135 bytes) against the `sha3` crate.
    #[test]
    fn sha3_256_matches_sha3() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        for len in 0..136usize {
            let msgs: [Vec<u8>; 4] = core::array::from_fn(|i| (0..len).map(|j| (j * 13 + i * 5 + len) as u8).collect());
            let refs: [&[u8]; 4] = core::array::from_fn(|i| &msgs[i][..]);
            // SAFETY: AVX2 was detected just above.
            let out = unsafe { super::sha3_256_one_block_x4(&refs) };
            for i in 0..4 {
                let want: [u8; 32] = sha3::Sha3_256::digest(&msgs[i]).into();
                assert_eq!(out[i], want, "length {len}, message {i}");
            }
        }
    }
}

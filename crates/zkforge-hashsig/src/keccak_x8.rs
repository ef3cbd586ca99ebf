//! Eight Keccak-f[1600] permutations at once in AVX-512 registers (FIPS 202, section 3): lane
//! i of register k is lane k of state i. Chi is one `vpternlogq` (a ^ (!b & c), table 0xD2),
//! theta's five-way parities two (a ^ b ^ c, table 0x96), rho one `vprolvq`.
//!
//! Used by the PRF ([`crate::prf::chain_starts`]) to hash eight chain starts per call during
//! key generation. The functions are `unsafe` only for the intrinsics; callers check
//! `is_x86_feature_detected!("avx512f")`. Tests compare every output with the `sha3` crate.

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::*;

/// The 24 round constants (iota).
pub(crate) const RC: [u64; 24] = [
    0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000, 0x000000000000808B, 0x0000000080000001,
    0x8000000080008081, 0x8000000000008009, 0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
    0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003, 0x8000000000008002, 0x8000000000000080,
    0x000000000000800A, 0x800000008000000A, 0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
];

/// Rotation offsets r[x + 5 y] (rho).
const ROT: [u64; 25] = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];

/// Keccak-f[1600] on eight states; `a[x + 5 y]` holds lane (x, y) of each.
///
/// # Safety
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn keccak_f_x8(a: &mut [__m512i; 25]) {
    for rc in RC {
        // theta
        let c: [__m512i; 5] = core::array::from_fn(|x| {
            let t = _mm512_ternarylogic_epi64::<0x96>(a[x], a[x + 5], a[x + 10]);
            _mm512_ternarylogic_epi64::<0x96>(t, a[x + 15], a[x + 20])
        });
        for x in 0..5 {
            let d = _mm512_xor_si512(c[(x + 4) % 5], _mm512_rol_epi64::<1>(c[(x + 1) % 5]));
            for y in 0..5 {
                a[x + 5 * y] = _mm512_xor_si512(a[x + 5 * y], d);
            }
        }
        // rho and pi: B[y, 2x + 3y] = rot(A[x, y], r[x, y])
        let mut b = [_mm512_setzero_si512(); 25];
        for x in 0..5 {
            for y in 0..5 {
                let r = _mm512_set1_epi64(ROT[x + 5 * y] as i64);
                b[y + 5 * ((2 * x + 3 * y) % 5)] = _mm512_rolv_epi64(a[x + 5 * y], r);
            }
        }
        // chi
        for y in 0..5 {
            for x in 0..5 {
                a[x + 5 * y] = _mm512_ternarylogic_epi64::<0xD2>(b[x + 5 * y], b[(x + 1) % 5 + 5 * y], b[(x + 2) % 5 + 5 * y]);
            }
        }
        // iota
        a[0] = _mm512_xor_si512(a[0], _mm512_set1_epi64(rc as i64));
    }
}

/// SHAKE128 of eight messages of equal length below one rate block (168 bytes), squeezing
/// `out_len` <= 168 bytes each: absorb (with the 0x1F ... 0x80 padding), one permutation,
/// read the rate.
///
/// # Safety
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn shake128_one_block_x8(messages: &[&[u8]; 8], out: &mut [[u8; 168]; 8]) {
    let len = messages[0].len();
    assert!(len < 168 && messages.iter().all(|m| m.len() == len));
    let mut blocks = [[0u64; 21]; 8];
    for (blk, m) in blocks.iter_mut().zip(messages) {
        let mut bytes = [0u8; 168];
        bytes[..len].copy_from_slice(m);
        bytes[len] ^= 0x1f;
        bytes[167] ^= 0x80;
        for (w, c) in blk.iter_mut().zip(bytes.chunks_exact(8)) {
            *w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        }
    }
    let mut a = [_mm512_setzero_si512(); 25];
    for (k, ak) in a.iter_mut().enumerate().take(21) {
        let lanes: [u64; 8] = core::array::from_fn(|i| blocks[i][k]);
        // SAFETY: reads the 64 bytes of `lanes`; AVX-512F is enabled in this function.
        *ak = unsafe { _mm512_loadu_si512(lanes.as_ptr() as *const __m512i) };
    }
    // SAFETY: this function runs with AVX-512F enabled (its caller's contract).
    unsafe { keccak_f_x8(&mut a) };
    for (k, ak) in a.iter().enumerate().take(21) {
        let mut lanes = [0u64; 8];
        // SAFETY: writes the 64 bytes of `lanes`; AVX-512F is enabled in this function.
        unsafe { _mm512_storeu_si512(lanes.as_mut_ptr() as *mut __m512i, *ak) };
        for i in 0..8 {
            out[i][8 * k..8 * k + 8].copy_from_slice(&lanes[i].to_le_bytes());
        }
    }
}

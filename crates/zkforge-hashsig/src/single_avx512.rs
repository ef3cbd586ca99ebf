//! One Poseidon2 state in AVX-512 registers (sixteen KoalaBear lanes each, lane j = element
//! j: width 16 in one register, width 24 in one and the low half of a second), for the
//! one-state permutation (`Poseidon2::permute_mut`), whose rounds are a
//! latency chain: a hash chain step or a sponge absorb waits for the previous permutation.
//!
//! - Full rounds: the sixteen S-boxes as two lane-wise Montgomery products (`packed_avx512`'s,
//!   after Plonky3's packed MontyField31), then the external matrix in the register: each
//!   chunk of four is circulant, M4 x = 2 x + 3 r1 + r2 + r3 (r_k: the chunk rotated by k,
//!   `vpshufd`), written S + (x + r1) + r1 with S = x + r1 + r2 + r3; the column sums across
//!   chunks by two 128-bit swaps (`vshufi32x4`); width 24 adds its second register's two
//!   chunks, broadcast.
//! - Internal rounds: lane 0's S-box on a scalar register while the other lanes form V_j x_j (one
//!   lane-wise product by the diagonal in Montgomery form) and their tail sum (64-bit lanes,
//!   then one horizontal add). Lane 0 becomes sum - 2 c = tail - c, so the next round's S-box
//!   input tail - c + k is one lazy sum and one reduction after the cube; the broadcast sum
//!   then completes the other lanes beside the next cube.
//!
//! Same permutation as `Poseidon2::permute_mut_portable` (tested against it and against
//! Plonky3's vectors through it). The entry point is `unsafe` because it needs AVX-512F:
//! `Poseidon2::permute_mut` checks `is_x86_feature_detected!("avx512f")` first.

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::*;

use crate::koalabear::{reduce64, Kb, P};
use crate::packed::Lanes;
use crate::packed_avx512::{mul, Avx512};
use crate::poseidon2::Poseidon2;

// Every intrinsic below needs AVX-512F; the helpers run only inside `permute_one`, which has
// `#[target_feature(enable = "avx512f")]` and is reached after run-time detection.

/// a + b mod p per lane (canonical in and out): `packed_avx512`'s lane addition.
#[inline(always)]
unsafe fn add(a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: AVX-512F, see above.
    unsafe { <Avx512 as Lanes>::add(Avx512(a), Avx512(b)).0 }
}

/// x^3 per lane.
#[inline(always)]
unsafe fn cube(x: __m512i) -> __m512i {
    // SAFETY: AVX-512F, see above.
    unsafe { mul(mul(Avx512(x), Avx512(x)), Avx512(x)).0 }
}

/// Each chunk of four times M4 (circulant: 2 x + 3 r1 + r2 + r3 with r_k the chunk rotated by
/// k lanes), written (x + r1 + r2 + r3) + (x + r1) + r1.
#[inline(always)]
unsafe fn m4_chunks(x: __m512i) -> __m512i {
    // SAFETY: AVX-512F, see above.
    unsafe {
        // lane i of chunk c gets element (i + k) mod 4 of the same chunk
        let r1 = _mm512_shuffle_epi32::<0b00_11_10_01>(x);
        let r2 = _mm512_shuffle_epi32::<0b01_00_11_10>(x);
        let r3 = _mm512_shuffle_epi32::<0b10_01_00_11>(x);
        let a = add(x, r1);
        let s = add(a, add(r2, r3));
        add(add(s, a), r1)
    }
}

/// The external matrix of width 16 or 24 (chunk-wise M4, then every lane plus the sum of its
/// column across the chunks): lanes 0-15 in `a`, lanes 16-23 in the low half of `b` (width 24;
/// its high half is ignored).
#[inline(always)]
unsafe fn external_linear<const W: usize>(a: &mut __m512i, b: &mut __m512i) {
    // SAFETY: AVX-512F, see above.
    unsafe {
        let oa = m4_chunks(*a);
        // column sums of a's four chunks: add the neighbouring chunk, then the pair two away
        let u = add(oa, _mm512_shuffle_i32x4::<0b10_11_00_01>(oa, oa));
        let mut t = add(u, _mm512_shuffle_i32x4::<0b01_00_11_10>(u, u));
        if W == 24 {
            let ob = m4_chunks(*b);
            // b's two chunks summed, then chunk 0 broadcast to all four
            let ub = add(ob, _mm512_shuffle_i32x4::<0b10_11_00_01>(ob, ob));
            t = add(t, _mm512_shuffle_i32x4::<0>(ub, ub));
            *b = add(ob, t);
        }
        *a = add(oa, t);
    }
}

/// The sum of lanes 1-15 of `a` and, for width 24, lanes 0-7 of `b`, as an integer (each
/// below p, so below 2^36).
#[inline(always)]
unsafe fn tail_sum<const W: usize>(a: __m512i, b: __m512i) -> u64 {
    // SAFETY: AVX-512F, see above.
    unsafe {
        let mut x = _mm512_maskz_mov_epi32(0xfffe, a);
        let lo32 = _mm512_set1_epi64(0xffff_ffff);
        let mut w = _mm512_add_epi64(_mm512_and_si512(x, lo32), _mm512_srli_epi64::<32>(x));
        if W == 24 {
            x = _mm512_maskz_mov_epi32(0x00ff, b);
            w = _mm512_add_epi64(w, _mm512_add_epi64(_mm512_and_si512(x, lo32), _mm512_srli_epi64::<32>(x)));
        }
        _mm512_reduce_add_epi64(w) as u64
    }
}

/// A full round: the S-boxes of v + rc (rc - p given: p added back), then the external matrix.
///
/// # Safety
/// AVX-512F; `rc` must hold W lanes.
#[inline(always)]
unsafe fn full_round<const W: usize>(a: &mut __m512i, b: &mut __m512i, rc: &[i32]) {
    // SAFETY: AVX-512F, and W lanes in rc (the caller's W-lane constants).
    unsafe {
        let pv = _mm512_set1_epi32(P as i32);
        let (ka, kb) = load::<W>(rc.as_ptr() as *const u32);
        *a = cube(add(*a, _mm512_add_epi32(ka, pv)));
        if W == 24 {
            *b = cube(add(*b, _mm512_add_epi32(kb, pv)));
        }
        external_linear::<W>(a, b);
    }
}

/// Lanes 0-15 and, for width 24, 16-23 of W lanes at `x` as two registers.
///
/// # Safety
/// AVX-512F; `x` must point to W readable u32 (W = 16 or 24).
#[inline(always)]
unsafe fn load<const W: usize>(x: *const u32) -> (__m512i, __m512i) {
    // SAFETY: AVX-512F; reads lanes 0-15 and, for W = 24, the masked lanes 16-23 of x.
    unsafe {
        let a = _mm512_loadu_si512(x as *const __m512i);
        let b = if W == 24 { _mm512_maskz_loadu_epi32(0x00ff, x.add(16) as *const i32) } else { _mm512_setzero_si512() };
        (a, b)
    }
}

/// The Poseidon2 permutation of one state of width 16 or 24 in registers (lanes 0-15 in one,
/// 16-23 in the low half of a second); `false` (and `s` untouched) for another width.
///
/// # Safety
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn permute_one<const W: usize>(perm: &Poseidon2<W>, s: &mut [Kb; W]) -> bool {
    if W != 16 && W != 24 {
        return false;
    }
    let raw: [u32; W] = core::array::from_fn(|j| s[j].to_monty());
    let p = P as u64;
    let neg = perm.neg_constants();
    // SAFETY: AVX-512F is enabled here and the caller checked the CPU has it; `load` reads W
    // lanes of W-lane arrays, and the stores write the 64-byte `out` arrays.
    unsafe {
        let (mut a, mut b) = load::<W>(raw.as_ptr());
        external_linear::<W>(&mut a, &mut b);
        for rc in &neg.initial {
            full_round::<W>(&mut a, &mut b, rc);
        }

        let (da, db) = load::<W>(perm.diagonal_lanes().as_ptr());
        let internal = perm.internal_constants();
        let mut tail = tail_sum::<W>(a, b);
        let lane0 = _mm_cvtsi128_si32(_mm512_castsi512_si128(a)) as u32;
        let mut input = (Kb::from_monty_unchecked(lane0) + internal[0]).to_monty();
        for r in 0..internal.len() {
            // V_j x_j for the lanes other than 0 (lane 0 of the diagonal is 0), beside the cube
            let xa = mul(Avx512(a), Avx512(da)).0;
            let xb = if W == 24 { mul(Avx512(b), Avx512(db)).0 } else { b };
            let c = Kb::from_monty_unchecked(input).cube_lazy_square().raw64();
            let k = internal.get(r + 1).map_or(0, |k| k.raw64());
            // lane 0: sum - 2 c = tail - c, plus the next round's constant
            let next = reduce64(tail + k + p - c);
            let sum = _mm512_set1_epi32(reduce64(tail + c) as i32);
            a = add(sum, xa);
            if W == 24 {
                b = add(sum, xb);
            }
            tail = tail_sum::<W>(a, b);
            input = next;
        }
        // lane 0 after the last round: tail - c (the loop's `next` without a constant)
        a = _mm512_mask_mov_epi32(a, 1, _mm512_set1_epi32(input as i32));

        for rc in &neg.terminal {
            full_round::<W>(&mut a, &mut b, rc);
        }
        let mut out = [[0u32; 16]; 2];
        _mm512_storeu_si512(out[0].as_mut_ptr() as *mut __m512i, a);
        _mm512_storeu_si512(out[1].as_mut_ptr() as *mut __m512i, b);
        for (j, x) in s.iter_mut().enumerate() {
            *x = Kb::from_monty_unchecked(out[j / 16][j % 16]);
        }
    }
    true
}

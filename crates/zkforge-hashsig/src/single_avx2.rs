//! One Poseidon2 state in AVX2 registers (eight KoalaBear lanes each, lane j of register r =
//! element 8 r + j: width 16 in two, width 24 in three), for the one-state permutation on
//! CPUs with AVX2 but without AVX-512 (`single_avx512.rs` is the same plan in AVX-512
//! registers; see there for the rounds).
//!
//! - Full rounds: `packed_avx2`'s signed S-box (the round constant's addition unreduced, even
//!   and odd lanes cubed apart); the chunk-wise M4 by in-lane rotations (`vpshufd`), the
//!   column sums across the registers, then across the two 128-bit halves (`vperm2i128`).
//! - Internal rounds: lane 0's S-box on a scalar register while the other lanes form V_j x_j
//!   (a lane-wise Montgomery product by the diagonal) and their sum in 64-bit lanes.
//!
//! Same permutation as `Poseidon2::permute_mut_portable` (tested). The entry point is `unsafe`
//! because it needs AVX2: `Poseidon2::permute_mut` checks `is_x86_feature_detected!("avx2")`.

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::*;

use crate::koalabear::{reduce64, Kb, P};
use crate::packed::Lanes;
use crate::packed_avx2::{movehdup, red_signed, Avx2};
use crate::poseidon2::Poseidon2;

// Every intrinsic below needs AVX2; the helpers run only inside `permute_one`, which has
// `#[target_feature(enable = "avx2")]` and is reached after run-time detection.

/// a + b mod p per lane (canonical in and out): `packed_avx2`'s lane addition.
#[inline(always)]
unsafe fn add(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: AVX2, see above.
    unsafe { <Avx2 as Lanes>::add(Avx2(a), Avx2(b)).0 }
}

/// a b 2^-32 mod p per lane, canonical in and out: even and odd lanes multiplied apart, the
/// two high halves merged by one blend, then + p where negative (unsigned minimum).
#[inline(always)]
unsafe fn mul(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: AVX2, see above.
    unsafe {
        let evn = red_signed(_mm256_mul_epi32(a, b));
        let odd = red_signed(_mm256_mul_epi32(movehdup(a), movehdup(b)));
        let t = _mm256_blend_epi32::<0b1010_1010>(movehdup(evn), odd);
        _mm256_min_epu32(t, _mm256_add_epi32(t, _mm256_set1_epi32(P as i32)))
    }
}

/// Each chunk of four times M4 (circulant: 2 x + 3 r1 + r2 + r3), written
/// (x + r1 + r2 + r3) + (x + r1) + r1.
#[inline(always)]
unsafe fn m4_chunks(x: __m256i) -> __m256i {
    // SAFETY: AVX2, see above.
    unsafe {
        let r1 = _mm256_shuffle_epi32::<0b00_11_10_01>(x);
        let r2 = _mm256_shuffle_epi32::<0b01_00_11_10>(x);
        let r3 = _mm256_shuffle_epi32::<0b10_01_00_11>(x);
        let a = add(x, r1);
        let s = add(a, add(r2, r3));
        add(add(s, a), r1)
    }
}

/// The external matrix on R registers (R = W / 8): chunk-wise M4, then every lane plus the
/// sum of its column across all chunks.
#[inline(always)]
unsafe fn external_linear<const R: usize>(x: &mut [__m256i; R]) {
    // SAFETY: AVX2, see above.
    unsafe {
        let mut o = *x;
        for v in o.iter_mut() {
            *v = m4_chunks(*v);
        }
        let mut t = o[0];
        for v in &o[1..] {
            t = add(t, *v);
        }
        // the two chunks of each register: add the other 128-bit half
        t = add(t, _mm256_permute2x128_si256::<0x01>(t, t));
        for (x, o) in x.iter_mut().zip(o) {
            *x = add(o, t);
        }
    }
}

/// The sum of every lane but lane 0 of register 0, as an integer (each below p).
#[inline(always)]
unsafe fn tail_sum<const R: usize>(x: &[__m256i; R]) -> u64 {
    // SAFETY: AVX2, see above.
    unsafe {
        let lo32 = _mm256_set1_epi64x(0xffff_ffff);
        let mut w = _mm256_setzero_si256();
        for (r, v) in x.iter().enumerate() {
            let v = if r == 0 { _mm256_blend_epi32::<1>(*v, _mm256_setzero_si256()) } else { *v };
            w = _mm256_add_epi64(w, _mm256_add_epi64(_mm256_and_si256(v, lo32), _mm256_srli_epi64::<32>(v)));
        }
        let h = _mm_add_epi64(_mm256_castsi256_si128(w), _mm256_extracti128_si256::<1>(w));
        (_mm_cvtsi128_si64(h) as u64).wrapping_add(_mm_extract_epi64::<1>(h) as u64)
    }
}

/// R registers from lanes 0 .. 8 R of `x`.
///
/// # Safety
/// AVX2; `x` must point to 8 R readable u32.
#[inline(always)]
unsafe fn load<const R: usize>(x: *const u32) -> [__m256i; R] {
    // SAFETY: AVX2, and the caller's 8 R readable lanes.
    unsafe {
        let mut v = [_mm256_setzero_si256(); R];
        for (r, v) in v.iter_mut().enumerate() {
            *v = _mm256_loadu_si256(x.add(8 * r) as *const __m256i);
        }
        v
    }
}

/// A full round: the S-boxes of v + rc (rc - p given, so the sum lies in [-p, p) and the
/// signed S-box takes it unreduced), then the external matrix.
///
/// # Safety
/// AVX2; `rc` must hold 8 R lanes.
#[inline(always)]
unsafe fn full_round<const R: usize>(v: &mut [__m256i; R], rc: &[i32]) {
    // SAFETY: AVX2, and 8 R lanes in rc (checked by the caller, W = 8 R).
    unsafe {
        let k: [__m256i; R] = load(rc.as_ptr() as *const u32);
        for (x, k) in v.iter_mut().zip(k) {
            *x = <Avx2 as Lanes>::add_rc_cube(Avx2(*x), Avx2(k)).0;
        }
        external_linear(v);
    }
}

/// The Poseidon2 permutation of one state of width W = 8 R (16 or 24) in R AVX2 registers;
/// `false` (and `s` untouched) when W is not 8 R.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn permute_one<const W: usize, const R: usize>(perm: &Poseidon2<W>, s: &mut [Kb; W]) -> bool {
    if W != 8 * R || R == 0 {
        return false;
    }
    let raw: [u32; W] = core::array::from_fn(|j| s[j].to_monty());
    let p = P as u64;
    let neg = perm.neg_constants();
    // SAFETY: AVX2 is enabled here and the caller checked the CPU has it; every load and store
    // touches lanes 8 r .. 8 r + 8 of a W = 8 R lane array.
    unsafe {
        let mut v: [__m256i; R] = load(raw.as_ptr());
        external_linear(&mut v);
        for rc in &neg.initial {
            full_round(&mut v, rc);
        }

        let d: [__m256i; R] = load(perm.diagonal_lanes().as_ptr());
        let internal = perm.internal_constants();
        let mut tail = tail_sum(&v);
        let lane0 = _mm_cvtsi128_si32(_mm256_castsi256_si128(v[0])) as u32;
        let mut input = (Kb::from_monty_unchecked(lane0) + internal[0]).to_monty();
        for r in 0..internal.len() {
            // V_j x_j for the lanes other than 0 (lane 0 of the diagonal is 0), beside the cube
            let mut x = v;
            for (x, d) in x.iter_mut().zip(d) {
                *x = mul(*x, d);
            }
            let c = Kb::from_monty_unchecked(input).cube_lazy_square().raw64();
            let k = internal.get(r + 1).map_or(0, |k| k.raw64());
            // lane 0: sum - 2 c = tail - c, plus the next round's constant
            let next = reduce64(tail + k + p - c);
            let sum = _mm256_set1_epi32(reduce64(tail + c) as i32);
            for (v, x) in v.iter_mut().zip(x) {
                *v = add(sum, x);
            }
            tail = tail_sum(&v);
            input = next;
        }
        // lane 0 after the last round: tail - c (the loop's `next` without a constant)
        v[0] = _mm256_blend_epi32::<1>(v[0], _mm256_set1_epi32(input as i32));

        for rc in &neg.terminal {
            full_round(&mut v, rc);
        }
        let mut out = [0u32; W];
        for (r, x) in v.iter().enumerate() {
            _mm256_storeu_si256(out.as_mut_ptr().add(8 * r) as *mut __m256i, *x);
        }
        for (x, o) in s.iter_mut().zip(out) {
            *x = Kb::from_monty_unchecked(o);
        }
    }
    true
}

//! Sixteen KoalaBear lanes in one AVX-512 register: the [`Lanes`] arithmetic for the generic
//! Poseidon2 rounds of `packed.rs`, and the sixteen-state entry points.
//!
//! Montgomery multiplication per lane as in Plonky3's packed MontyField31: even and odd lanes
//! multiplied apart (`_mm512_mul_epu32`), q = (prod mod 2^32) p^-1 mod 2^32,
//! (prod - q p) / 2^32 in (-p, p), one blend per product. (The signed S-box of
//! `packed_avx2.rs` measured 5% slower here on Zen 5.) AVX-512 has no `vpsignd`: signs in the
//! internal diagonal become mask registers (a compare, then a masked add or move). Additions
//! reduce with an unsigned minimum: min(t, t - p) is t mod p for t < 2p.
//!
//! The entry points are `unsafe` because they need AVX-512F: callers check
//! `is_x86_feature_detected!("avx512f")` first (see `Poseidon2::permute_x16`). The tests
//! compare this path with the scalar permutation.

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::*;

use crate::koalabear::{Kb, P, P_NEG_INV};
use crate::packed::{self, Lanes};
use crate::poseidon2::Poseidon2;

/// p^-1 mod 2^32 (positive inverse).
const P_INV: u32 = P_NEG_INV.wrapping_neg();

/// One AVX-512 register of sixteen lanes.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Avx512(pub(crate) __m512i);

// Every intrinsic below needs AVX-512F, which the `Lanes` contract guarantees: the methods
// run only inside the `#[target_feature(enable = "avx512f")]` entry points at the end of this
// file, which callers reach after run-time detection.

/// sum + m for m a signed value in (-p, p) and sum canonical: t = sum + m, corrected by p
/// with the sign of m (t - p, or t + p where m < 0); the unsigned minimum picks [0, p).
#[inline(always)]
unsafe fn signed_add(sum: __m512i, m: __m512i) -> __m512i {
    // SAFETY: AVX-512F, see above.
    unsafe {
        let p = _mm512_set1_epi32(P as i32);
        let t = _mm512_add_epi32(sum, m);
        let neg = _mm512_cmplt_epi32_mask(m, _mm512_setzero_si512());
        let corr = _mm512_mask_add_epi32(_mm512_sub_epi32(t, p), neg, t, p);
        _mm512_min_epu32(t, corr)
    }
}

// SAFETY: every method uses AVX-512F intrinsics only; the trait's contract makes callers run
// them on an AVX-512F CPU inside `#[target_feature(enable = "avx512f")]` code.
unsafe impl Lanes for Avx512 {
    const N: usize = 16;

    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: AVX-512F, see above.
        Avx512(unsafe { _mm512_setzero_si512() })
    }

    #[inline(always)]
    unsafe fn splat(x: i32) -> Self {
        // SAFETY: AVX-512F, see above.
        Avx512(unsafe { _mm512_set1_epi32(x) })
    }

    #[inline(always)]
    unsafe fn load(lanes: &[u32; 16]) -> Self {
        // SAFETY: reads the 64-byte array; AVX-512F, see above.
        Avx512(unsafe { _mm512_loadu_si512(lanes.as_ptr() as *const __m512i) })
    }

    #[inline(always)]
    unsafe fn store(self, lanes: &mut [u32; 16]) {
        // SAFETY: writes the 64-byte array; AVX-512F, see above.
        unsafe { _mm512_storeu_si512(lanes.as_mut_ptr() as *mut __m512i, self.0) }
    }

    #[inline(always)]
    unsafe fn add(a: Self, b: Self) -> Self {
        // SAFETY: AVX-512F, see above.
        unsafe {
            let t = _mm512_add_epi32(a.0, b.0);
            Avx512(_mm512_min_epu32(t, _mm512_sub_epi32(t, _mm512_set1_epi32(P as i32))))
        }
    }

    #[inline(always)]
    unsafe fn sub(a: Self, b: Self) -> Self {
        // SAFETY: AVX-512F, see above.
        unsafe {
            let t = _mm512_sub_epi32(a.0, b.0);
            Avx512(_mm512_min_epu32(t, _mm512_add_epi32(t, _mm512_set1_epi32(P as i32))))
        }
    }

    #[inline(always)]
    unsafe fn half(x: Self) -> Self {
        // SAFETY: AVX-512F, see above.
        unsafe {
            let odd = _mm512_test_epi32_mask(x.0, _mm512_set1_epi32(1));
            let half = _mm512_maskz_mov_epi32(odd, _mm512_set1_epi32(P.div_ceil(2) as i32));
            Avx512(_mm512_add_epi32(_mm512_srli_epi32::<1>(x.0), half))
        }
    }

    /// 127 l as (l << 7) - l (no `vpmaddwd` without AVX-512BW).
    #[inline(always)]
    unsafe fn add_div_pow2(neg: bool, k: u32, sum: Self, x: Self) -> Self {
        // SAFETY: AVX-512F, see above.
        unsafe {
            let k = k as i32;
            let h = _mm512_srl_epi32(x.0, _mm_cvtsi32_si128(k));
            let l = _mm512_and_si512(x.0, _mm512_set1_epi32((1i32 << k) - 1));
            let l127 = _mm512_sub_epi32(_mm512_slli_epi32::<7>(l), l);
            let c = _mm512_sll_epi32(l127, _mm_cvtsi32_si128(24 - k));
            let m = if neg { _mm512_sub_epi32(c, h) } else { _mm512_sub_epi32(h, c) };
            Avx512(signed_add(sum.0, m))
        }
    }

    /// Here the unsigned form measured faster than the signed one of `packed_avx2.rs` (Zen 5:
    /// 1000 vs 1050 ns for sixteen width-16 states): v + rc reduced to [0, p), then two
    /// Montgomery products, each with one blend of the even and odd halves.
    #[inline(always)]
    unsafe fn add_rc_cube(v: Self, rc_neg: Self) -> Self {
        // SAFETY: AVX-512F, see above.
        unsafe {
            let p = _mm512_set1_epi32(P as i32);
            let x = Self::add(v, Avx512(_mm512_add_epi32(rc_neg.0, p)));
            mul(mul(x, x), x)
        }
    }

    #[inline(always)]
    unsafe fn mul(a: Self, b: Self) -> Self {
        // SAFETY: AVX-512F, see above.
        unsafe { mul(a, b) }
    }
}

/// a b 2^-32 mod p per lane, canonical in and out: even and odd lanes multiplied apart
/// (`_mm512_mul_epu32`), q = (prod mod 2^32) p^-1, (prod - q p) / 2^32 in (-p, p) from the
/// high halves, then + p where negative (unsigned minimum).
#[inline(always)]
pub(crate) unsafe fn mul(a: Avx512, b: Avx512) -> Avx512 {
    // SAFETY: AVX-512F, see above.
    unsafe {
        let p = _mm512_set1_epi32(P as i32);
        let pinv = _mm512_set1_epi32(P_INV as i32);
        let prod_evn = _mm512_mul_epu32(a.0, b.0);
        let prod_odd = _mm512_mul_epu32(_mm512_srli_epi64::<32>(a.0), _mm512_srli_epi64::<32>(b.0));
        let qp_evn = _mm512_mul_epu32(_mm512_mul_epu32(prod_evn, pinv), p);
        let qp_odd = _mm512_mul_epu32(_mm512_mul_epu32(prod_odd, pinv), p);
        let prod_hi = _mm512_mask_blend_epi32(0b1010_1010_1010_1010, _mm512_srli_epi64::<32>(prod_evn), prod_odd);
        let qp_hi = _mm512_mask_blend_epi32(0b1010_1010_1010_1010, _mm512_srli_epi64::<32>(qp_evn), qp_odd);
        let t = _mm512_sub_epi32(prod_hi, qp_hi);
        Avx512(_mm512_min_epu32(t, _mm512_add_epi32(t, p)))
    }
}

/// The width-W permutation (16 or 24) on sixteen states; `states[i]` is state i.
///
/// # Safety
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn permute_x16<const W: usize>(perm: &Poseidon2<W>, states: &mut [[Kb; W]; 16]) {
    // SAFETY: AVX-512F is enabled here and the caller checked the CPU has it.
    unsafe {
        let mut v: [Avx512; W] = packed::load_rows(states);
        packed::permute_regs(perm, &mut v);
        packed::store_rows(&v, states);
    }
}

/// The width-W permutation on L states (L a multiple of 16) in column layout: `cols[j][i]`
/// is element j of state i.
///
/// # Safety
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn permute_columns<const W: usize, const L: usize>(perm: &Poseidon2<W>, cols: &mut [[Kb; L]; W]) {
    // SAFETY: AVX-512F is enabled here and the caller checked the CPU has it.
    unsafe { packed::permute_columns::<Avx512, W, L>(perm, cols) }
}

/// Sixteen chain walks with the width-16 permutation (see `packed::chains`).
///
/// # Safety
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn chains_x16<const PL: usize, const T: usize, const H: usize>(
    perm: &Poseidon2<16>,
    parameter: &[Kb; PL],
    tweaks: impl Fn(u8) -> [[Kb; T]; 16],
    steps: u8,
    values: &mut [[Kb; H]; 16],
) {
    // SAFETY: AVX-512F is enabled here and the caller checked the CPU has it.
    unsafe { packed::chains::<Avx512, PL, T, H, _>(perm, parameter, tweaks, steps, values) }
}

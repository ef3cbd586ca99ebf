//! Eight KoalaBear lanes in one AVX2 register: the [`Lanes`] arithmetic for the generic
//! Poseidon2 rounds of `packed.rs`, and the eight-state entry points.
//!
//! Montgomery multiplication per lane in signed form, as in Plonky3's packed MontyField31:
//! with prod = a b a signed 64-bit product, q = (prod mod 2^32) p^-1 mod 2^32 read as signed,
//! (prod - q p) / 2^32 lies in (-p, p) and is a b 2^-32 mod p. Even and odd lanes are
//! multiplied separately (`_mm256_mul_epi32` reads the low 32 bits of each 64-bit lane); the
//! S-box cubes both halves in 64-bit lanes and merges them once. Additions reduce with an
//! unsigned minimum: for t = a + b, min(t, t - p) is t mod p when t < 2p < 2^32.
//!
//! The entry points are `unsafe` because they need AVX2: callers check
//! `is_x86_feature_detected!("avx2")` first (see `Poseidon2::permute_x8`). The scalar
//! permutation is the reference the tests compare this path with. `packed_avx512.rs` is the
//! same arithmetic on sixteen lanes.

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::*;

use crate::koalabear::{Kb, P, P_NEG_INV};
use crate::packed::{self, Lanes};
use crate::poseidon2::Poseidon2;

/// p^-1 mod 2^32 (positive inverse).
const P_INV: u32 = P_NEG_INV.wrapping_neg();

/// One AVX2 register of eight lanes.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Avx2(pub(crate) __m256i);

// Every intrinsic below needs AVX2, which the `Lanes` contract guarantees: the methods run
// only inside the `#[target_feature(enable = "avx2")]` entry points at the end of this file,
// which callers reach after run-time detection.

/// The odd 32-bit lanes copied into the even ones (a shuffle, not a shift: it runs on
/// another port than the shifts).
#[inline(always)]
pub(crate) unsafe fn movehdup(x: __m256i) -> __m256i {
    // SAFETY: AVX (implied by AVX2), see above.
    unsafe { _mm256_castps_si256(_mm256_movehdup_ps(_mm256_castsi256_ps(x))) }
}

/// Partial Montgomery reduction of signed 64-bit lanes in (-2^31 p, 2^31 p): with q the
/// low 32 bits of prod p^-1 read as signed, (prod - q p) / 2^32 lies in (-p, p) and is left
/// in the high 32 bits of each 64-bit lane (the low bits of prod and q p agree, so a 32-bit
/// subtraction gives the high half without a borrow).
#[inline(always)]
pub(crate) unsafe fn red_signed(prod: __m256i) -> __m256i {
    // SAFETY: AVX2, see above.
    unsafe {
        let q = _mm256_mul_epi32(prod, _mm256_set1_epi32(P_INV as i32));
        let qp = _mm256_mul_epi32(q, _mm256_set1_epi32(P as i32));
        _mm256_sub_epi32(prod, qp)
    }
}

/// x^3 on the even 32-bit lanes of `x`, read as signed values in [-p, p]; the result lies
/// in (-p, p) in the odd lanes. Square and cube stay in 64-bit lanes: no blends between.
#[inline(always)]
unsafe fn cube_evn_signed(x: __m256i) -> __m256i {
    // SAFETY: AVX2, see above.
    unsafe {
        let sq = movehdup(red_signed(_mm256_mul_epi32(x, x)));
        red_signed(_mm256_mul_epi32(sq, x))
    }
}

/// sum + m for m a signed value in (-p, p) and sum canonical: t = sum + m, corrected by
/// p with the sign of m (`vpsignd`), the unsigned minimum picks the one in [0, p).
#[inline(always)]
unsafe fn signed_add(sum: __m256i, m: __m256i) -> __m256i {
    // SAFETY: AVX2, see above.
    unsafe {
        let t = _mm256_add_epi32(sum, m);
        let corr = _mm256_sub_epi32(t, _mm256_sign_epi32(_mm256_set1_epi32(P as i32), m));
        _mm256_min_epu32(t, corr)
    }
}

// SAFETY: every method uses AVX2 intrinsics only; the trait's contract makes callers run them
// on an AVX2 CPU inside `#[target_feature(enable = "avx2")]` code.
unsafe impl Lanes for Avx2 {
    const N: usize = 8;

    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: AVX, see above.
        Avx2(unsafe { _mm256_setzero_si256() })
    }

    #[inline(always)]
    unsafe fn splat(x: i32) -> Self {
        // SAFETY: AVX, see above.
        Avx2(unsafe { _mm256_set1_epi32(x) })
    }

    #[inline(always)]
    unsafe fn load(lanes: &[u32; 16]) -> Self {
        // SAFETY: reads 32 bytes of the 64-byte array; AVX, see above.
        Avx2(unsafe { _mm256_loadu_si256(lanes.as_ptr() as *const __m256i) })
    }

    #[inline(always)]
    unsafe fn store(self, lanes: &mut [u32; 16]) {
        // SAFETY: writes 32 bytes of the 64-byte array; AVX, see above.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, self.0) }
    }

    #[inline(always)]
    unsafe fn add(a: Self, b: Self) -> Self {
        // SAFETY: AVX2, see above.
        unsafe {
            let t = _mm256_add_epi32(a.0, b.0);
            Avx2(_mm256_min_epu32(t, _mm256_sub_epi32(t, _mm256_set1_epi32(P as i32))))
        }
    }

    #[inline(always)]
    unsafe fn sub(a: Self, b: Self) -> Self {
        // SAFETY: AVX2, see above.
        unsafe {
            let t = _mm256_sub_epi32(a.0, b.0);
            Avx2(_mm256_min_epu32(t, _mm256_add_epi32(t, _mm256_set1_epi32(P as i32))))
        }
    }

    #[inline(always)]
    unsafe fn half(x: Self) -> Self {
        // SAFETY: AVX2, see above.
        unsafe {
            let lsb = _mm256_and_si256(x.0, _mm256_set1_epi32(1));
            let half = _mm256_sign_epi32(_mm256_set1_epi32(P.div_ceil(2) as i32), lsb);
            Avx2(_mm256_add_epi32(_mm256_srli_epi32::<1>(x.0), half))
        }
    }

    #[inline(always)]
    unsafe fn add_div_pow2(neg: bool, k: u32, sum: Self, x: Self) -> Self {
        // SAFETY: as the two steps'.
        unsafe { Self::div_pow2_finish(neg, k, sum, Self::div_pow2_part(neg, k, x)) }
    }

    /// The signed value +-(h - c), c = 127 l 2^(24 - k); 127 l is one `vpmaddwd` when
    /// l < 2^15, else (l << 7) - l.
    #[inline(always)]
    unsafe fn div_pow2_part(neg: bool, k: u32, x: Self) -> Self {
        // SAFETY: AVX2, see above.
        unsafe {
            let k = k as i32;
            let h = _mm256_srl_epi32(x.0, _mm_cvtsi32_si128(k));
            let l = _mm256_and_si256(x.0, _mm256_set1_epi32((1i32 << k) - 1));
            let l127 = if k <= 15 { _mm256_madd_epi16(l, _mm256_set1_epi32(127)) } else { _mm256_sub_epi32(_mm256_slli_epi32::<7>(l), l) };
            let c = _mm256_sll_epi32(l127, _mm_cvtsi32_si128(24 - k));
            Avx2(if neg { _mm256_sub_epi32(c, h) } else { _mm256_sub_epi32(h, c) })
        }
    }

    /// [`signed_add`] of the signed value.
    #[inline(always)]
    unsafe fn div_pow2_finish(neg: bool, k: u32, sum: Self, part: Self) -> Self {
        let _ = (neg, k);
        // SAFETY: AVX2, see above.
        Avx2(unsafe { signed_add(sum.0, part.0) })
    }

    /// The sum lies in [-p, p) and needs no reduction before the signed cube; the even and
    /// odd lanes are cubed apart and merged once.
    #[inline(always)]
    unsafe fn add_rc_cube(v: Self, rc_neg: Self) -> Self {
        // SAFETY: AVX2, see above.
        unsafe {
            let x = _mm256_add_epi32(v.0, rc_neg.0);
            let evn = cube_evn_signed(x);
            let odd = cube_evn_signed(movehdup(x));
            let t = _mm256_blend_epi32::<0b1010_1010>(movehdup(evn), odd);
            Avx2(_mm256_min_epu32(t, _mm256_add_epi32(t, _mm256_set1_epi32(P as i32))))
        }
    }

    /// Signed products of the even and odd lanes (canonical values are below 2^31), each
    /// reduced by [`red_signed`] into (-p, p), merged, then + p where negative.
    #[inline(always)]
    unsafe fn mul(a: Self, b: Self) -> Self {
        // SAFETY: AVX2, see above.
        unsafe {
            let evn = red_signed(_mm256_mul_epi32(a.0, b.0));
            let odd = red_signed(_mm256_mul_epi32(movehdup(a.0), movehdup(b.0)));
            let t = _mm256_blend_epi32::<0b1010_1010>(movehdup(evn), odd);
            Avx2(_mm256_min_epu32(t, _mm256_add_epi32(t, _mm256_set1_epi32(P as i32))))
        }
    }
}

/// The width-W permutation (16 or 24) on eight states; `states[i]` is state i.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn permute_x8<const W: usize>(perm: &Poseidon2<W>, states: &mut [[Kb; W]; 8]) {
    // SAFETY: AVX2 is enabled here and the caller checked the CPU has it.
    unsafe {
        let mut v: [Avx2; W] = packed::load_rows(states);
        packed::permute_regs(perm, &mut v);
        packed::store_rows(&v, states);
    }
}

/// The width-W permutation on L states (L a multiple of 8) in column layout: `cols[j][i]` is
/// element j of state i.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn permute_columns<const W: usize, const L: usize>(perm: &Poseidon2<W>, cols: &mut [[Kb; L]; W]) {
    // SAFETY: AVX2 is enabled here and the caller checked the CPU has it.
    unsafe { packed::permute_columns::<Avx2, W, L>(perm, cols) }
}

/// Eight chain walks with the width-16 permutation (see `packed::chains`).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn chains_x8<const PL: usize, const T: usize, const H: usize>(
    perm: &Poseidon2<16>,
    parameter: &[Kb; PL],
    tweaks: impl Fn(u8) -> [[Kb; T]; 8],
    steps: u8,
    values: &mut [[Kb; H]; 8],
) {
    // SAFETY: AVX2 is enabled here and the caller checked the CPU has it.
    unsafe { packed::chains::<Avx2, PL, T, H, _>(perm, parameter, tweaks, steps, values) }
}

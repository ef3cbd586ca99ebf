//! Sixteen KoalaBear lanes in one AVX-512 register: the [`Lanes`] arithmetic for the generic
//! Poseidon2 rounds of `packed.rs`, and the sixteen-state entry points.
//!
//! Montgomery multiplication per lane (as in Plonky3's packed MontyField31): even and odd
//! lanes multiplied apart in 64-bit lanes, q = (prod mod 2^32) p^-1 mod 2^32,
//! (prod - q p) / 2^32 in (-p, p) from the high halves. The S-box (x + rc)^3 takes
//! x + rc in [-p, p) unreduced into signed products; square and cube stay in 64-bit lanes,
//! the square only partly reduced, and the two halves merge once. Everything is arranged for
//! Intel's ports, where 512-bit shifts and unsigned minima share port 0 with the
//! multiplications: the odd lanes move down by `vmovshdup` (a shuffle), merge by a masked
//! `vmovshdup`, and the last correction is a compare into a mask and a masked add. Two LLVM
//! rewrites are blocked with inline assembly ([`opaque`], [`merge_hi`]).
//!
//! Measured on Intel Emerald Rapids (`examples/poseidon2_packed_peer.rs`, sixteen states):
//! width 16 1938-1998 -> 1683-1706 ns, width 24 3120-3144 -> 2712-2718 ns, against the
//! previous form, [`Avx512Unsigned`] (v + rc reduced first, two full Montgomery products with
//! shifts and blends), which stays behind `poseidon2::PackedForm::signed_cube = false`.
//! With the S-box layer written out (`packed::sbox_layer`: the state in registers, not a
//! stack array) and 127 l hidden from LLVM in the diagonal ([`opaque`]) 1624-1633 /
//! 2682-2722 ns, and Plonky3's packed permutation 1.02-1.04x faster in the same process
//! (1.07-1.09x before). With the masked internal diagonal (`Lanes::add_div_pow2`,
//! `PackedForm::masked_diag`) 1563-1608 / 2545-2600 ns, 0.98-1.00 / 0.97-0.99 of Plonky3's
//! (native builds, same process). On Zen 4 (AVX-512 on 256-bit units) the same code read
//! 1.05 / 1.03-1.04 of Plonky3's, all of it in the internal rounds (their instructions equal
//! Plonky3's in number and kind, but their order put the work behind the S-box); with the
//! internal rounds in Plonky3's order (`PackedForm::tail_first`) 1.01-1.03 / 0.99-1.02.
//! (An earlier
//! signed S-box measured 5% slower than the previous form on Zen 5; written with the same
//! intrinsics, it most likely paid for the LLVM rewrite that [`opaque`] now blocks, two extra
//! shifts per reduction. Not re-measured on Zen 5.)
//!
//! AVX-512 has no `vpsignd`, so the internal diagonal's x / 2^k entries are formed as
//! -x / 2^k in [0, p] (a masked shift where the low bits are zero) and added or subtracted by
//! the plain modular operations, rather than as signed values. Additions reduce with an
//! unsigned minimum: min(t, t - p) is t mod p for t < 2p.
//!
//! The entry points are `unsafe` because they need AVX-512F and AVX-512BW (the diagonal's
//! `vpmaddwd` / `vpmaddubsw`): callers check [`has_lanes`] first (see
//! `Poseidon2::permute_x16`). The tests
//! compare this path with the scalar permutation, and the lane arithmetic with the scalar
//! field on edge values.

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

/// The sixteen-lane register types that share this file's lane arithmetic: [`Avx512`],
/// [`Avx512Alt`] (the previous S-box and product and the previous internal diagonal, alone
/// and combined, kept to measure against) and `poseidon1_avx512::Avx512Ifma` (Avx512 with
/// another matrix product for Poseidon1). One [`Lanes`] implementation serves all of them.
pub(crate) trait Avx512Form: Copy {
    /// [`Avx512`]'s signed S-box and shuffle-based product (false: [`Avx512Unsigned`]'s).
    const SIGNED: bool;
    /// [`Avx512`]'s internal-diagonal form: x / 2^k as -x / 2^k in [0, p] from a masked shift,
    /// then a plain modular addition or subtraction, with `vpmaddwd` / `vpmaddubsw` for the
    /// product by 127 (needs AVX-512BW). False: the signed value +-(h - c) and a signed
    /// addition (`PackedForm::masked_diag = false`). Poseidon1, which has no internal diagonal,
    /// keeps the default.
    const MASKED_DIAG: bool = true;
    /// The register.
    fn reg(self) -> __m512i;
    /// The value held in a register.
    fn from_reg(x: __m512i) -> Self;
}

impl Avx512Form for Avx512 {
    const SIGNED: bool = true;
    #[inline(always)]
    fn reg(self) -> __m512i {
        self.0
    }
    #[inline(always)]
    fn from_reg(x: __m512i) -> Self {
        Avx512(x)
    }
}

// SAFETY: every method uses AVX-512F intrinsics only; the trait's contract makes callers run
// them on an AVX-512F CPU inside `#[target_feature(enable = "avx512f")]` code.
unsafe impl<T: Avx512Form> Lanes for T {
    const N: usize = 16;

    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: AVX-512F, see above.
        T::from_reg(unsafe { _mm512_setzero_si512() })
    }

    #[inline(always)]
    unsafe fn splat(x: i32) -> Self {
        // SAFETY: AVX-512F, see above.
        T::from_reg(unsafe { _mm512_set1_epi32(x) })
    }

    #[inline(always)]
    unsafe fn load(lanes: &[u32; 16]) -> Self {
        // SAFETY: reads the 64-byte array; AVX-512F, see above.
        T::from_reg(unsafe { _mm512_loadu_si512(lanes.as_ptr() as *const __m512i) })
    }

    #[inline(always)]
    unsafe fn store(self, lanes: &mut [u32; 16]) {
        // SAFETY: writes the 64-byte array; AVX-512F, see above.
        unsafe { _mm512_storeu_si512(lanes.as_mut_ptr() as *mut __m512i, self.reg()) }
    }

    #[inline(always)]
    unsafe fn add(a: Self, b: Self) -> Self {
        // SAFETY: AVX-512F, see above.
        unsafe {
            let t = _mm512_add_epi32(a.reg(), b.reg());
            T::from_reg(_mm512_min_epu32(t, _mm512_sub_epi32(t, _mm512_set1_epi32(P as i32))))
        }
    }

    #[inline(always)]
    unsafe fn sub(a: Self, b: Self) -> Self {
        // SAFETY: AVX-512F, see above.
        unsafe {
            let t = _mm512_sub_epi32(a.reg(), b.reg());
            T::from_reg(_mm512_min_epu32(t, _mm512_add_epi32(t, _mm512_set1_epi32(P as i32))))
        }
    }

    #[inline(always)]
    unsafe fn half(x: Self) -> Self {
        // SAFETY: AVX-512F, see above.
        unsafe {
            let odd = _mm512_test_epi32_mask(x.reg(), _mm512_set1_epi32(1));
            let half = _mm512_maskz_mov_epi32(odd, _mm512_set1_epi32(P.div_ceil(2) as i32));
            T::from_reg(_mm512_add_epi32(_mm512_srli_epi32::<1>(x.reg()), half))
        }
    }

    /// Two forms, both from 2^-k = -127 2^(24 - k) mod p and x = h 2^k + l (l the low k bits):
    /// - masked ([`Avx512Form::MASKED_DIAG`], the default): m = 127 l 2^(24 - k) - h is
    ///   -x / 2^k and lies in [0, p) when l > 0; where l = 0 the shift starts from p instead
    ///   (a masked shift under a `vptestmd` mask), so m = p - h, in [0, p]. Then sum - m (or
    ///   sum + m with `neg`) by the plain modular subtraction (addition), which is right for
    ///   m = p too: 8-9 uops with the addition, where the signed form below takes 11. 127 l
    ///   is one `vpmaddwd` for k <= 15 (l < 2^15, one signed 16-bit product), one `vpmaddubsw`
    ///   of x itself for k = 8 (its low byte times 127, the other bytes times 0), and for
    ///   larger k the shift pair l 2^(31 - k) - l 2^(24 - k). Needs AVX-512BW.
    /// - signed: +-(h - c) in (-p, p), c = 127 l 2^(24 - k) with 127 l as (l << 7) - l, then
    ///   [`signed_add`]. 127 l is hidden by [`opaque`]: LLVM otherwise folds 127 l 2^(24 - k)
    ///   into one `vpmulld` for some k (two port-0 uops of latency 10, beside the S-box's
    ///   products; 1-2 % slower measured).
    #[inline(always)]
    unsafe fn add_div_pow2(neg: bool, k: u32, sum: Self, x: Self) -> Self {
        // SAFETY: as the two steps'.
        unsafe { Self::div_pow2_finish(neg, k, sum, Self::div_pow2_part(neg, k, x)) }
    }

    /// The masked form's m = -x / 2^k in [0, p], or the signed form's +-(h - c).
    #[inline(always)]
    unsafe fn div_pow2_part(neg: bool, k: u32, x: Self) -> Self {
        // SAFETY: AVX-512F, see above; AVX-512BW for the masked form, whose entry points
        // enable it after run-time detection (`has_lanes`).
        unsafe {
            let k = k as i32;
            let h = _mm512_srl_epi32(x.reg(), _mm_cvtsi32_si128(k));
            if T::MASKED_DIAG {
                let p = _mm512_set1_epi32(P as i32);
                let low_bits = _mm512_set1_epi32((1i32 << k) - 1);
                let l_nonzero = _mm512_test_epi32_mask(x.reg(), low_bits);
                return T::from_reg(if k <= 15 {
                    let l127 = if k == 8 {
                        _mm512_maddubs_epi16(x.reg(), _mm512_set1_epi32(127))
                    } else {
                        _mm512_madd_epi16(_mm512_and_si512(x.reg(), low_bits), _mm512_set1_epi32(127))
                    };
                    let top = _mm512_mask_sll_epi32(p, l_nonzero, l127, _mm_cvtsi32_si128(24 - k));
                    _mm512_sub_epi32(top, h)
                } else {
                    let l = _mm512_and_si512(x.reg(), low_bits);
                    let top = _mm512_mask_sll_epi32(p, l_nonzero, l, _mm_cvtsi32_si128(31 - k));
                    _mm512_sub_epi32(top, _mm512_add_epi32(_mm512_sll_epi32(l, _mm_cvtsi32_si128(24 - k)), h))
                });
            }
            let l = _mm512_and_si512(x.reg(), _mm512_set1_epi32((1i32 << k) - 1));
            let l127 = opaque(_mm512_sub_epi32(_mm512_slli_epi32::<7>(l), l));
            let c = _mm512_sll_epi32(l127, _mm_cvtsi32_si128(24 - k));
            T::from_reg(if neg { _mm512_sub_epi32(c, h) } else { _mm512_sub_epi32(h, c) })
        }
    }

    /// The masked form's plain modular addition (`neg`) or subtraction of m, or the signed
    /// form's [`signed_add`].
    #[inline(always)]
    unsafe fn div_pow2_finish(neg: bool, k: u32, sum: Self, part: Self) -> Self {
        let _ = k;
        // SAFETY: AVX-512F, see above.
        unsafe {
            if T::MASKED_DIAG {
                if neg {
                    Self::add(sum, part)
                } else {
                    Self::sub(sum, part)
                }
            } else {
                T::from_reg(signed_add(sum.reg(), part.reg()))
            }
        }
    }

    /// v + rc in [-p, p) goes unreduced into signed products: the even and odd lanes are
    /// cubed apart in 64-bit lanes ([`cube_evn_signed_raw`]) and reduced and merged once
    /// ([`red_signed_merged`]). In the previous form: v + rc reduced to [0, p), then two
    /// [`mul_unsigned`] products.
    #[inline(always)]
    unsafe fn add_rc_cube(v: Self, rc_neg: Self) -> Self {
        // SAFETY: AVX-512F, see above.
        unsafe {
            if T::SIGNED {
                let x = _mm512_add_epi32(v.reg(), rc_neg.reg());
                T::from_reg(red_signed_merged(cube_evn_signed_raw(x), cube_evn_signed_raw(movehdup(x))))
            } else {
                let x = Self::add(v, T::from_reg(_mm512_add_epi32(rc_neg.reg(), _mm512_set1_epi32(P as i32)))).reg();
                T::from_reg(mul_unsigned(mul_unsigned(x, x), x))
            }
        }
    }

    #[inline(always)]
    unsafe fn mul(a: Self, b: Self) -> Self {
        // SAFETY: AVX-512F, see above.
        unsafe {
            if T::SIGNED {
                T::from_reg(mul(Avx512(a.reg()), Avx512(b.reg())).0)
            } else {
                T::from_reg(mul_unsigned(a.reg(), b.reg()))
            }
        }
    }
}

/// The odd 32-bit lanes copied into the even ones (`vmovshdup`: a shuffle, which runs beside
/// the multiplications, where a 64-bit shift would compete with them for a port on Intel).
#[inline(always)]
unsafe fn movehdup(x: __m512i) -> __m512i {
    // SAFETY: AVX-512F, see above.
    unsafe { _mm512_castps_si512(_mm512_movehdup_ps(_mm512_castsi512_ps(x))) }
}

/// The high halves of the 64-bit lanes of `evn` (into the even lanes) and of `odd` (the odd
/// lanes as they are): one masked `vmovshdup` (latency 1). Written as assembly because LLVM
/// turns the intrinsic `_mm512_mask_movehdup_ps` into `vpermt2d` with an index register
/// (latency 3, on every S-box's critical path).
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn merge_hi(evn: __m512i, odd: __m512i) -> __m512i {
    let out: __m512i;
    // SAFETY: one register-only AVX-512F instruction (enabled here): `out` starts as `odd`,
    // and its even lanes (mask 0x5555) take the odd lanes of `evn`; no memory, no flags.
    unsafe {
        core::arch::asm!(
            "vmovshdup {out}{{{k}}}, {evn}",
            out = inlateout(zmm_reg) odd => out,
            k = in(kreg) 0x5555u16,
            evn = in(zmm_reg) evn,
            options(pure, nomem, nostack, preserves_flags),
        )
    };
    out
}

/// `x` unchanged, hidden from the optimiser. q = prod p^-1 matters only in its low 32 bits,
/// and without this LLVM rewrites the pair of products q, q p: into a product and two shifts
/// that clear q's high half (which the signed product by p ignores anyway), or, where
/// AVX-512DQ is enabled at compile time, into `vpmullq` (three uops). Either costs the
/// multiplier's port two or more extra uops per reduction.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn opaque(mut x: __m512i) -> __m512i {
    // SAFETY: an empty template (an assembler comment) that reads and writes back one zmm
    // register: no instruction, memory or flags touched; AVX-512F is enabled here.
    unsafe { core::arch::asm!("/* {0} */", inout(zmm_reg) x, options(pure, nomem, nostack, preserves_flags)) };
    x
}

/// Partial Montgomery reduction of signed 64-bit lanes in (-2^31 p, 2^31 p): with q the low
/// 32 bits of prod p^-1 read as signed, (prod - q p) / 2^32 lies in (-p, p) and is left in
/// the high 32 bits of each 64-bit lane (the low halves of prod and q p agree, so a 32-bit
/// subtraction gives the high half without a borrow).
#[inline(always)]
unsafe fn red_signed(prod: __m512i) -> __m512i {
    // SAFETY: AVX-512F, see above.
    unsafe {
        let q = opaque(_mm512_mul_epi32(prod, _mm512_set1_epi32(P_INV as i32)));
        _mm512_sub_epi32(prod, _mm512_mul_epi32(q, _mm512_set1_epi32(P as i32)))
    }
}

/// x^3 R^-1 on the even 32-bit lanes of `x`, read as signed values in [-p, p], as a signed
/// 64-bit product in (-p^2, p^2) not yet reduced: the square is reduced into (-p, p) by
/// [`red_signed`] and moved down, then multiplied by x.
#[inline(always)]
unsafe fn cube_evn_signed_raw(x: __m512i) -> __m512i {
    // SAFETY: AVX-512F, see above.
    unsafe { _mm512_mul_epi32(movehdup(red_signed(_mm512_mul_epi32(x, x))), x) }
}

/// The Montgomery reductions of two vectors of signed 64-bit products in (-2^31 p, 2^31 p)
/// (the even lanes' and the odd lanes'), canonical in one register: q and q p per half, the
/// high halves of the products and of q p merged once each, their 32-bit difference in
/// (-p, p), + p where the product's half is below q p's (a signed compare that runs beside
/// the subtraction).
#[inline(always)]
unsafe fn red_signed_merged(evn: __m512i, odd: __m512i) -> __m512i {
    // SAFETY: AVX-512F, see above.
    unsafe {
        let (pinv, p) = (_mm512_set1_epi32(P_INV as i32), _mm512_set1_epi32(P as i32));
        let qp_evn = _mm512_mul_epi32(opaque(_mm512_mul_epi32(evn, pinv)), p);
        let qp_odd = _mm512_mul_epi32(opaque(_mm512_mul_epi32(odd, pinv)), p);
        let prod_hi = merge_hi(evn, odd);
        let qp_hi = merge_hi(qp_evn, qp_odd);
        let t = _mm512_sub_epi32(prod_hi, qp_hi);
        _mm512_mask_add_epi32(t, _mm512_cmplt_epi32_mask(prod_hi, qp_hi), t, p)
    }
}

/// a b 2^-32 mod p per lane, canonical in and out: even and odd lanes multiplied apart
/// (`_mm512_mul_epu32`, the odd ones moved down by [`movehdup`]), q = (prod mod 2^32) p^-1,
/// the high halves of prod and q p merged once each, (prod - q p) / 2^32 in (-p, p) by a
/// 32-bit subtraction, + p where it borrowed.
#[inline(always)]
pub(crate) unsafe fn mul(a: Avx512, b: Avx512) -> Avx512 {
    // SAFETY: AVX-512F, see above.
    unsafe {
        let p = _mm512_set1_epi32(P as i32);
        let pinv = _mm512_set1_epi32(P_INV as i32);
        let prod_evn = _mm512_mul_epu32(a.0, b.0);
        let prod_odd = _mm512_mul_epu32(movehdup(a.0), movehdup(b.0));
        let qp_evn = _mm512_mul_epu32(opaque(_mm512_mul_epu32(prod_evn, pinv)), p);
        let qp_odd = _mm512_mul_epu32(opaque(_mm512_mul_epu32(prod_odd, pinv)), p);
        let prod_hi = merge_hi(prod_evn, prod_odd);
        let qp_hi = merge_hi(qp_evn, qp_odd);
        let t = _mm512_sub_epi32(prod_hi, qp_hi);
        Avx512(_mm512_mask_add_epi32(t, _mm512_cmplt_epu32_mask(prod_hi, qp_hi), t, p))
    }
}

/// The previous lane arithmetics, kept to measure against, alone and combined: [`Avx512`]
/// with its S-box and product in the previous form where `SIGNED` is false
/// (`PackedForm::signed_cube = false`: a b 2^-32 mod p with the odd lanes moved by 64-bit
/// shifts, the high halves merged by blends and the result reduced by an unsigned minimum; the
/// S-box reduces v + rc to [0, p) first and takes two such products), and with the previous
/// internal diagonal where `MASKED_DIAG` is false (`PackedForm::masked_diag = false`, see
/// `add_div_pow2`).
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Avx512Alt<const SIGNED: bool, const MASKED_DIAG: bool>(Avx512);

/// Both previous forms: the arithmetic before 2026-12-07.
pub(crate) type Avx512Unsigned = Avx512Alt<false, false>;

/// [`mul`] in the previous form (see [`Avx512Alt`]).
#[inline(always)]
unsafe fn mul_unsigned(a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: AVX-512F, see above.
    unsafe {
        let p = _mm512_set1_epi32(P as i32);
        let pinv = _mm512_set1_epi32(P_INV as i32);
        let prod_evn = _mm512_mul_epu32(a, b);
        let prod_odd = _mm512_mul_epu32(_mm512_srli_epi64::<32>(a), _mm512_srli_epi64::<32>(b));
        let qp_evn = _mm512_mul_epu32(_mm512_mul_epu32(prod_evn, pinv), p);
        let qp_odd = _mm512_mul_epu32(_mm512_mul_epu32(prod_odd, pinv), p);
        let prod_hi = _mm512_mask_blend_epi32(0b1010_1010_1010_1010, _mm512_srli_epi64::<32>(prod_evn), prod_odd);
        let qp_hi = _mm512_mask_blend_epi32(0b1010_1010_1010_1010, _mm512_srli_epi64::<32>(qp_evn), qp_odd);
        let t = _mm512_sub_epi32(prod_hi, qp_hi);
        _mm512_min_epu32(t, _mm512_add_epi32(t, p))
    }
}

impl<const SIGNED: bool, const MASKED_DIAG: bool> Avx512Form for Avx512Alt<SIGNED, MASKED_DIAG> {
    const SIGNED: bool = SIGNED;
    const MASKED_DIAG: bool = MASKED_DIAG;
    #[inline(always)]
    fn reg(self) -> __m512i {
        self.0 .0
    }
    #[inline(always)]
    fn from_reg(x: __m512i) -> Self {
        Avx512Alt(Avx512(x))
    }
}

/// Whether this CPU runs the packed Poseidon2 permutation's sixteen lanes: AVX-512F, and
/// AVX-512BW for the internal diagonal's 16-bit products (every AVX-512 CPU since Skylake-SP
/// and Zen 4 has both; without BW the AVX2 lanes run).
#[inline]
pub(crate) fn has_lanes() -> bool {
    std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw")
}

/// Whether the packed Poseidon2 entry points take the sixteen lanes: [`has_lanes`] and
/// `PackedForm::sixteen_lanes` (else the eight-lane AVX2 path runs twice).
#[inline]
pub(crate) fn use_lanes() -> bool {
    crate::poseidon2::packed_form().sixteen_lanes && has_lanes()
}

/// One register type's load, permutation and store of sixteen row-major states.
#[inline(always)]
unsafe fn permute_x16_as<T: Avx512Form, const W: usize>(perm: &Poseidon2<W>, states: &mut [[Kb; W]; 16]) {
    // SAFETY: the caller runs this under AVX-512F and AVX-512BW.
    unsafe {
        let mut v: [T; W] = packed::load_rows(states);
        packed::permute_regs(perm, &mut v);
        packed::store_rows(&v, states);
    }
}

/// The width-W permutation (16 or 24) on sixteen states; `states[i]` is state i.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512BW ([`has_lanes`]).
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn permute_x16<const W: usize>(perm: &Poseidon2<W>, states: &mut [[Kb; W]; 16]) {
    let form = crate::poseidon2::packed_form();
    // SAFETY: AVX-512F and AVX-512BW are enabled here and the caller checked the CPU has them.
    unsafe {
        match (form.signed_cube, form.masked_diag) {
            (true, true) => permute_x16_as::<Avx512, W>(perm, states),
            (true, false) => permute_x16_as::<Avx512Alt<true, false>, W>(perm, states),
            (false, true) => permute_x16_as::<Avx512Alt<false, true>, W>(perm, states),
            (false, false) => permute_x16_as::<Avx512Unsigned, W>(perm, states),
        }
    }
}

/// The width-W permutation on L states (L a multiple of 16) in column layout: `cols[j][i]`
/// is element j of state i.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512BW ([`has_lanes`]).
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn permute_columns<const W: usize, const L: usize>(perm: &Poseidon2<W>, cols: &mut [[Kb; L]; W]) {
    let form = crate::poseidon2::packed_form();
    // SAFETY: AVX-512F and AVX-512BW are enabled here and the caller checked the CPU has them.
    unsafe {
        match (form.signed_cube, form.masked_diag) {
            (true, true) => packed::permute_columns::<Avx512, W, L>(perm, cols),
            (true, false) => packed::permute_columns::<Avx512Alt<true, false>, W, L>(perm, cols),
            (false, true) => packed::permute_columns::<Avx512Alt<false, true>, W, L>(perm, cols),
            (false, false) => packed::permute_columns::<Avx512Unsigned, W, L>(perm, cols),
        }
    }
}

/// Sixteen chain walks with the width-16 permutation (see `packed::chains`).
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512BW ([`has_lanes`]).
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn chains_x16<const PL: usize, const T: usize, const H: usize>(
    perm: &Poseidon2<16>,
    parameter: &[Kb; PL],
    tweaks: impl Fn(u8) -> [[Kb; T]; 16],
    steps: u8,
    values: &mut [[Kb; H]; 16],
) {
    let form = crate::poseidon2::packed_form();
    // SAFETY: AVX-512F and AVX-512BW are enabled here and the caller checked the CPU has them.
    unsafe {
        match (form.signed_cube, form.masked_diag) {
            (true, true) => packed::chains::<Avx512, PL, T, H, _>(perm, parameter, tweaks, steps, values),
            (true, false) => packed::chains::<Avx512Alt<true, false>, PL, T, H, _>(perm, parameter, tweaks, steps, values),
            (false, true) => packed::chains::<Avx512Alt<false, true>, PL, T, H, _>(perm, parameter, tweaks, steps, values),
            (false, false) => packed::chains::<Avx512Unsigned, PL, T, H, _>(perm, parameter, tweaks, steps, values),
        }
    }
}

#[cfg(test)]
mod tests {
    //! The lane arithmetic against the scalar field on edge values (0, 1, p - 1, values near
    //! p / 2 and the powers of two, every constant at its extremes) and random ones: the
    //! permutation tests rarely reach these in the intermediate values.
    use super::*;
    use crate::packed::Lanes;

    fn values() -> Vec<u32> {
        let mut v = vec![0, 1, 2, 3, P - 1, P - 2, P / 2, P / 2 + 1, P.div_ceil(2), 1 << 24, (1 << 24) + 1, 127 << 24, (1 << 30) - 1, 1 << 30, (1 << 31) - (1 << 24)];
        let mut x = 0x9e37_79b9u32;
        while v.len() % 16 != 0 || v.len() < 96 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            v.push(x % P);
        }
        v
    }

    /// Every operation on sixteen lanes `a` (and `b`) against the scalar field, in every
    /// form.
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn check(a: &[u32; 16], b: &[u32; 16]) {
        let lane = |v: Avx512| {
            let mut out = [0u32; 16];
            // SAFETY: AVX-512F is enabled here.
            unsafe { v.store(&mut out) };
            out
        };
        let kb = |raw: u32| Kb::from_monty(raw).expect("a canonical Montgomery word");
        // SAFETY: AVX-512F is enabled here and the caller checked the CPU has it.
        unsafe {
            let (va, vb) = (Avx512::load(a), Avx512::load(b));
            let rc_neg = Avx512(_mm512_sub_epi32(vb.0, _mm512_set1_epi32(P as i32)));
            let (m, c, s, d, h) = (lane(mul(va, vb)), lane(Avx512::add_rc_cube(va, rc_neg)), lane(Avx512::add(va, vb)), lane(Avx512::sub(va, vb)), lane(Avx512::half(va)));
            let (mu, cu) = (Avx512Unsigned::mul(Avx512Alt(va), Avx512Alt(vb)), Avx512Unsigned::add_rc_cube(Avx512Alt(va), Avx512Alt(rc_neg)));
            let (mu, cu) = (lane(mu.0), lane(cu.0));
            for i in 0..16 {
                let (x, y) = (kb(a[i]), kb(b[i]));
                assert_eq!(m[i], (x * y).to_monty(), "mul {:#x} {:#x}", a[i], b[i]);
                assert_eq!(c[i], (x + y).cube().to_monty(), "add_rc_cube {:#x} {:#x}", a[i], b[i]);
                assert_eq!(mu[i], m[i], "previous-form mul {:#x} {:#x}", a[i], b[i]);
                assert_eq!(cu[i], c[i], "previous-form add_rc_cube {:#x} {:#x}", a[i], b[i]);
                assert_eq!(s[i], (x + y).to_monty());
                assert_eq!(d[i], (x - y).to_monty());
                assert_eq!(h[i], (x * Kb::new(2).inverse()).to_monty());
            }
            for k in 2..=24u32 {
                let inv = Kb::new(2).pow(k as u64).inverse();
                for neg in [false, true] {
                    let masked = lane(Avx512::add_div_pow2(neg, k, vb, va));
                    let signed = lane(Avx512Alt::<true, false>::add_div_pow2(neg, k, Avx512Alt(vb), Avx512Alt(va)).0);
                    let unsigned_masked = lane(Avx512Alt::<false, true>::add_div_pow2(neg, k, Avx512Alt(vb), Avx512Alt(va)).0);
                    for i in 0..16 {
                        let t = kb(a[i]) * inv;
                        let want = (if neg { kb(b[i]) - t } else { kb(b[i]) + t }).to_monty();
                        assert_eq!(masked[i], want, "masked add_div_pow2 k {k} neg {neg} x {:#x} sum {:#x}", a[i], b[i]);
                        assert_eq!(signed[i], want, "signed add_div_pow2 k {k} neg {neg} x {:#x} sum {:#x}", a[i], b[i]);
                        assert_eq!(unsigned_masked[i], want, "add_div_pow2 k {k} neg {neg}");
                    }
                }
            }
        }
    }

    #[test]
    fn lanes_match_scalar() {
        if !has_lanes() {
            eprintln!("no AVX-512F and AVX-512BW: skipped");
            return;
        }
        let v = values();
        let rev: [u32; 16] = core::array::from_fn(|i| v[v.len() - 1 - i]);
        for a in v.chunks(16) {
            let a: [u32; 16] = a.try_into().unwrap();
            // SAFETY: the CPU has AVX-512F (checked above).
            unsafe { check(&a, &rev) };
            for rot in [0, 1, 5] {
                let mut b = a;
                b.rotate_left(rot);
                // SAFETY: as above.
                unsafe { check(&a, &b) };
            }
        }
    }
}

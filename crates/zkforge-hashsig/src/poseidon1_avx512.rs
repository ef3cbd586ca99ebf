//! Poseidon1 on one state in AVX-512 registers, for leanSig devnet 4's chain steps (width 16)
//! and its sponge leaves and tree nodes (width 24), which run one permutation after another.
//!
//! Width 16, one register (lane j = element j):
//! Every round: the round constants added lane-wise, the S-box (all lanes in full rounds;
//! in partial rounds the cube of the whole register blended into lane 0), then the circulant
//! MDS product as a sum of columns: y = sum_j x_j col_j, each x_j broadcast from the register
//! (`vpermd`; a store and sixteen broadcast loads measured 6 % slower) and
//! multiplied by its column (entries below 2^7) in 64-bit lanes (`vpmuludq`, two registers for
//! the sixteen outputs), the sums (below 2^40) folded twice by 2^31 = 2^24 - 1 (mod p), one
//! conditional subtraction, then packed back to 32-bit lanes. A Montgomery representative
//! times an integer represents the product, so no Montgomery reduction is needed there (as in
//! the textbook path of `poseidon1.rs`, which the tests compare this one with).
//!
//! Width 24, three registers of eight 64-bit lanes (element j in the low half of lane j mod 8 of
//! register j / 8): the S-boxes as Montgomery products in 64-bit lanes (`vpmuludq`, REDC by
//! p^-1); the MDS matrix's entries are full 31-bit values, so y = sum_j x_j col_j takes the
//! columns in Montgomery form and pairs of products: x_j c_j + x_k c_k < 2p^2 < p 2^32 is one
//! REDC (output below 2p) per pair, twelve summed per lane (below 24p < 2^40) and folded as
//! above.
//!
//! The entry points are `unsafe` because they need AVX-512F: `Poseidon1::permute_mut` checks
//! `is_x86_feature_detected!("avx512f")` first.

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::*;

use crate::koalabear::{Kb, P};
use crate::packed::Lanes;
use crate::packed_avx512::{mul, Avx512};

// Every intrinsic below needs AVX-512F; the helpers run only inside `permute_16` and
// `permute_wide`, which have `#[target_feature(enable = "avx512f")]` and are reached after
// run-time detection.

/// x mod p per 64-bit lane for x < 2^44: two folds by 2^31 = 2^24 - 1 (mod p), then one
/// conditional subtraction (after the first fold x < 2^37 + 2^31, after the second
/// x < 65 2^24 + 2^31 < 2p).
#[inline(always)]
unsafe fn reduce40(x: __m512i) -> __m512i {
    // SAFETY: AVX-512F, see above.
    unsafe {
        let m31 = _mm512_set1_epi64((1 << 31) - 1);
        let fold = |x: __m512i| {
            let h = _mm512_srli_epi64::<31>(x);
            _mm512_add_epi64(_mm512_sub_epi64(_mm512_slli_epi64::<24>(h), h), _mm512_and_si512(x, m31))
        };
        let y = fold(fold(x));
        _mm512_min_epu64(y, _mm512_sub_epi64(y, _mm512_set1_epi64(P as i64)))
    }
}

/// (u + w + off) / 2 mod p per 64-bit lane, for the CRT split's output halves (the sum is even
/// and below 2^44 by construction; wrapping arithmetic, see `poseidon1_circulant::SmallCrt16`).
#[inline(always)]
unsafe fn crt_half(u: __m512i, w: __m512i, off: __m512i) -> __m512i {
    // SAFETY: the caller's instruction set, see above.
    unsafe { reduce40(_mm512_srli_epi64::<1>(_mm512_add_epi64(u, _mm512_add_epi64(w, off)))) }
}

/// acc + a c per 64-bit lane for a, c whose values sit in the low 32 bits: one `vpmadd52luq`
/// when `IFMA` (which reads 52 bits, so the callers clear the high halves), else `vpmuludq`
/// (which reads only the low 32) and an addition.
#[inline(always)]
unsafe fn mul_acc<const IFMA: bool>(acc: __m512i, a: __m512i, c: __m512i) -> __m512i {
    // SAFETY: AVX-512F, and IFMA when `IFMA` (the callers' instruction sets), see above.
    unsafe {
        if IFMA {
            _mm512_madd52lo_epu64(acc, a, c)
        } else {
            _mm512_add_epi64(acc, _mm512_mul_epu32(a, c))
        }
    }
}

/// Width 16's MDS product split by the CRT (`poseidon1_circulant::SmallCrt16`) on sixteen
/// registers of sixteen lanes: the halves' sums s = x_lo + x_hi and biased differences
/// d' = x_lo + p - x_hi (both below 2^32) as even and odd 64-bit halves, the cyclic and
/// negacyclic products by [`mul_acc`], and (u +- v + off) / 2 reduced per output half. With
/// `IFMA` the even halves are masked to their low 32 bits (IFMA reads 52); `vpmuludq` needs no
/// mask. The even and odd halves go side by side in one pass over j: a loop over the halves let
/// LLVM hoist the constants out of it, spill them and lose that their high halves are zero, and
/// every product became a three-multiply 64-bit one.
#[inline(always)]
unsafe fn small_mds_crt_512<const IFMA: bool>(k: &crate::poseidon1_circulant::SmallCrt16, x: &mut [__m512i; 16]) {
    // SAFETY: AVX-512F, and IFMA when `IFMA` (the callers' instruction sets), see above.
    unsafe {
        let p = _mm512_set1_epi32(P as i32);
        let lo32 = _mm512_set1_epi64(0xffff_ffff);
        let z = _mm512_setzero_si512();
        let (mut s, mut d) = ([[z; 8]; 2], [[z; 8]; 2]);
        let mut big_d = [z; 2];
        for j in 0..8 {
            let (sj, dj) = (_mm512_add_epi32(x[j], x[j + 8]), _mm512_sub_epi32(_mm512_add_epi32(x[j], p), x[j + 8]));
            (s[0][j], s[1][j]) = (if IFMA { _mm512_and_si512(sj, lo32) } else { sj }, _mm512_srli_epi64::<32>(sj));
            (d[0][j], d[1][j]) = (if IFMA { _mm512_and_si512(dj, lo32) } else { dj }, _mm512_srli_epi64::<32>(dj));
            // the sum D' needs the even half masked either way (its high bits hold the odd lane)
            big_d[0] = _mm512_add_epi64(big_d[0], if IFMA { d[0][j] } else { _mm512_and_si512(dj, lo32) });
            big_d[1] = _mm512_add_epi64(big_d[1], d[1][j]);
        }
        // 128 D' per half (`CRT_BIAS` = 2^7)
        let bias_d = [_mm512_slli_epi64::<7>(big_d[0]), _mm512_slli_epi64::<7>(big_d[1])];
        for i in 0..8 {
            let (mut ue, mut uo, mut we, mut wo) = (z, z, z, z);
            for j in 0..8 {
                let (c, n) = (_mm512_set1_epi64(k.cyc[i][j] as i64), _mm512_set1_epi64(k.neg[i][j] as i64));
                ue = mul_acc::<IFMA>(ue, s[0][j], c);
                uo = mul_acc::<IFMA>(uo, s[1][j], c);
                we = mul_acc::<IFMA>(we, d[0][j], n);
                wo = mul_acc::<IFMA>(wo, d[1][j], n);
            }
            let (we, wo) = (_mm512_sub_epi64(we, bias_d[0]), _mm512_sub_epi64(wo, bias_d[1]));
            // u + v + off and u - v + off: even, in [0, 2^44)
            let (off_lo, off_hi) = (_mm512_set1_epi64(k.off_lo[i] as i64), _mm512_set1_epi64(k.off_hi[i] as i64));
            x[i] = _mm512_or_si512(crt_half(ue, we, off_lo), _mm512_slli_epi64::<32>(crt_half(uo, wo, off_lo)));
            let (ne, no) = (_mm512_sub_epi64(z, we), _mm512_sub_epi64(z, wo));
            x[i + 8] = _mm512_or_si512(crt_half(ue, ne, off_hi), _mm512_slli_epi64::<32>(crt_half(uo, no, off_hi)));
        }
    }
}

/// The width-16 permutation of one state; `false` (and `s` untouched) unless W = 16 with
/// 16 columns. `rc` holds each round's constants as Montgomery representatives, `cols[j]`
/// column j of the MDS matrix (entry i in position i), `partial` the number of partial rounds
/// between the two halves of the full ones.
///
/// # Safety
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn permute_16<const W: usize>(rc: &[[u32; W]], cols: &[[u64; W]], partial: usize, s: &mut [Kb; W]) -> bool {
    if W != 16 || cols.len() != 16 || partial > rc.len() {
        return false;
    }
    let mut raw = [0u32; 16];
    for (r, x) in raw.iter_mut().zip(s.iter()) {
        *r = x.to_monty();
    }
    let full_before = (rc.len() - partial) / 2;
    // SAFETY: AVX-512F is enabled here and the caller checked the CPU has it; every load and
    // store touches 64 bytes of a 16-lane array (W = 16: 16 u32, or 8 of 16 u64).
    unsafe {
        let mut v = _mm512_loadu_si512(raw.as_ptr() as *const __m512i);
        for (r, k) in rc.iter().enumerate() {
            let x = <Avx512 as Lanes>::add(Avx512(v), Avx512(_mm512_loadu_si512(k.as_ptr() as *const __m512i))).0;
            let c = mul(mul(Avx512(x), Avx512(x)), Avx512(x)).0;
            let full = r < full_before || r >= full_before + partial;
            v = if full { c } else { _mm512_mask_mov_epi32(x, 1, c) };
            // y = sum_j x_j col_j in 64-bit lanes: outputs 0-7 in `lo`, 8-15 in `hi`
            let mut lo = [_mm512_setzero_si512(); 2];
            let mut hi = [_mm512_setzero_si512(); 2];
            for (j, col) in cols.iter().enumerate() {
                // x_j in every lane, from the register (no store and reload)
                let b = _mm512_permutexvar_epi32(_mm512_set1_epi32(j as i32), v);
                let c_lo = _mm512_loadu_si512(col.as_ptr() as *const __m512i);
                let c_hi = _mm512_loadu_si512(col.as_ptr().add(8) as *const __m512i);
                lo[j & 1] = _mm512_add_epi64(lo[j & 1], _mm512_mul_epu32(b, c_lo));
                hi[j & 1] = _mm512_add_epi64(hi[j & 1], _mm512_mul_epu32(b, c_hi));
            }
            let lo = reduce40(_mm512_add_epi64(lo[0], lo[1]));
            let hi = reduce40(_mm512_add_epi64(hi[0], hi[1]));
            v = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(lo)), _mm512_cvtepi64_epi32(hi));
        }
        _mm512_storeu_si512(raw.as_mut_ptr() as *mut __m512i, v);
    }
    for (x, r) in s.iter_mut().zip(raw) {
        *x = Kb::from_monty_unchecked(r);
    }
    true
}

/// x mod p for each 64-bit lane t < 2p (value in the low half).
#[inline(always)]
unsafe fn sub_p_64(t: __m512i) -> __m512i {
    // SAFETY: AVX-512F, see above.
    unsafe { _mm512_min_epu64(t, _mm512_sub_epi64(t, _mm512_set1_epi64(P as i64))) }
}

/// (x + q p) / 2^32 with q = x (-p^-1) mod 2^32, for x < p 2^32 in each 64-bit lane: below 2p.
#[inline(always)]
unsafe fn redc_64(x: __m512i) -> __m512i {
    // SAFETY: AVX-512F, see above.
    unsafe {
        let q = _mm512_mul_epu32(x, _mm512_set1_epi64(crate::koalabear::P_NEG_INV as i64));
        _mm512_srli_epi64::<32>(_mm512_add_epi64(x, _mm512_mul_epu32(q, _mm512_set1_epi64(P as i64))))
    }
}

/// a b R^-1 mod p per 64-bit lane (canonical values in the low halves, in and out).
#[inline(always)]
unsafe fn mul_64(a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: AVX-512F, see above.
    unsafe { sub_p_64(redc_64(_mm512_mul_epu32(a, b))) }
}

/// The permutation of one state of width W = 8 R in R registers of 64-bit lanes (used for
/// width 24); `false` (and `s` untouched) unless W = 8 R with W columns. `rc` holds the round
/// constants as Montgomery representatives, `cols_mont[j]` column j of the MDS matrix with
/// each entry c as c R mod p.
///
/// # Safety
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn permute_wide<const W: usize, const R: usize>(rc: &[[u32; W]], cols_mont: &[[u64; W]], partial: usize, s: &mut [Kb; W]) -> bool {
    if W != 8 * R || cols_mont.len() != W || partial > rc.len() {
        return false;
    }
    let full_before = (rc.len() - partial) / 2;
    let mut raw = [0u32; W];
    for (r, x) in raw.iter_mut().zip(s.iter()) {
        *r = x.to_monty();
    }
    // SAFETY: AVX-512F is enabled here and the caller checked the CPU has it; every load and
    // store touches lanes 8 r .. 8 r + 8 (r < R) of a W = 8 R lane array.
    unsafe {
        let mut v = [_mm512_setzero_si512(); R];
        for (r, x) in v.iter_mut().enumerate() {
            *x = _mm512_cvtepu32_epi64(_mm256_loadu_si256(raw.as_ptr().add(8 * r) as *const __m256i));
        }
        for (round, k) in rc.iter().enumerate() {
            let full = round < full_before || round >= full_before + partial;
            for (r, x) in v.iter_mut().enumerate() {
                let kr = _mm512_cvtepu32_epi64(_mm256_loadu_si256(k.as_ptr().add(8 * r) as *const __m256i));
                let t = sub_p_64(_mm512_add_epi64(*x, kr));
                if full || r == 0 {
                    let c = mul_64(mul_64(t, t), t);
                    *x = if full { c } else { _mm512_mask_mov_epi64(t, 1, c) };
                } else {
                    *x = t;
                }
            }
            mds_wide::<W, R>(&mut v, cols_mont);
        }
        for (r, x) in v.iter().enumerate() {
            _mm256_storeu_si256(raw.as_mut_ptr().add(8 * r) as *mut __m256i, _mm512_cvtepi64_epi32(*x));
        }
    }
    for (x, r) in s.iter_mut().zip(raw) {
        *x = Kb::from_monty_unchecked(r);
    }
    true
}

/// A full round on one state in R registers of 64-bit lanes (as in [`permute_wide`]): the
/// constants `k` added lane-wise, every lane cubed, then y = sum_j x_j col_j with `cols` in
/// Montgomery form, one REDC per pair of columns.
#[inline(always)]
unsafe fn full_round_wide<const W: usize, const R: usize>(v: &mut [__m512i; R], k: &[u32; W], cols: &[[u64; W]]) {
    // SAFETY: AVX-512F (the caller's); every load touches lanes 8 r .. 8 r + 8 (r < R) of a
    // W = 8 R lane array.
    unsafe {
        for (r, x) in v.iter_mut().enumerate() {
            let kr = _mm512_cvtepu32_epi64(_mm256_loadu_si256(k.as_ptr().add(8 * r) as *const __m256i));
            let t = sub_p_64(_mm512_add_epi64(*x, kr));
            *x = mul_64(mul_64(t, t), t);
        }
        mds_wide::<W, R>(v, cols);
    }
}

/// y = sum_j x_j col_j on one state in R registers of 64-bit lanes, `cols` in Montgomery form:
/// one REDC per pair of columns (x_j c_j + x_k c_k < 2p^2 < p 2^32, below 2p after), W / 2
/// summed per lane (below 2^40) and reduced once.
#[inline(always)]
unsafe fn mds_wide<const W: usize, const R: usize>(v: &mut [__m512i; R], cols: &[[u64; W]]) {
    // SAFETY: AVX-512F (the caller's); every load touches lanes 8 r .. 8 r + 8 (r < R) of a
    // W = 8 R lane array.
    unsafe {
        let mut acc = [_mm512_setzero_si512(); R];
        for j in (0..W).step_by(2) {
            let bj = _mm512_permutexvar_epi64(_mm512_set1_epi64((j % 8) as i64), v[j / 8]);
            let bk = _mm512_permutexvar_epi64(_mm512_set1_epi64(((j + 1) % 8) as i64), v[(j + 1) / 8]);
            for (r, a) in acc.iter_mut().enumerate() {
                let cj = _mm512_loadu_si512(cols[j].as_ptr().add(8 * r) as *const __m512i);
                let ck = _mm512_loadu_si512(cols[j + 1].as_ptr().add(8 * r) as *const __m512i);
                let pair = _mm512_add_epi64(_mm512_mul_epu32(bj, cj), _mm512_mul_epu32(bk, ck));
                *a = _mm512_add_epi64(*a, redc_64(pair));
            }
        }
        for (x, a) in v.iter_mut().zip(acc) {
            *x = reduce40(a);
        }
    }
}

/// [`permute_wide`] with the sparse partial rounds of `poseidon1_fast.rs` (ePrint 2019/458
/// appendix B): the last initial full round takes the dense matrix B_0 M (`raw.pre_cols`),
/// and each partial round cubes lane 0 after its constant, forms x0' = w . x as lane-wise
/// products (one REDC per pair of registers) and a horizontal sum, and adds v_j x0 to every
/// other lane (one lane-wise product); with `deferred` (`Form::deferred_partial`), the
/// partial rounds run instead in the deferred form of `poseidon1_fast::Deferred` (the sums
/// off the latency chain, its lane loops vectorised with AVX-512 here). Used for widths 24
/// (R = 3) and, deferred, 16 (R = 2). Same result as [`permute_wide`].
///
/// # Safety
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn permute_wide_sparse<const W: usize, const R: usize>(
    raw: &crate::poseidon1_fast::Raw<W>,
    deferred: Option<&crate::poseidon1_fast::Deferred<W>>,
    cols_mont: &[[u64; W]],
    s: &mut [Kb; W],
) -> bool {
    if W != 8 * R || R < 2 || cols_mont.len() != W || raw.pre_cols.len() != W || raw.init_rc.len() != 4 || raw.term_rc.len() != 4 {
        return false;
    }
    let mut lanes = [0u32; W];
    for (r, x) in lanes.iter_mut().zip(s.iter()) {
        *r = x.to_monty();
    }
    // SAFETY: AVX-512F is enabled here and the caller checked the CPU has it; every load and
    // store touches lanes 8 r .. 8 r + 8 (r < R) of a W = 8 R lane array.
    unsafe {
        let mut v = [_mm512_setzero_si512(); R];
        for (r, x) in v.iter_mut().enumerate() {
            *x = _mm512_cvtepu32_epi64(_mm256_loadu_si256(lanes.as_ptr().add(8 * r) as *const __m256i));
        }
        for r in 0..4 {
            full_round_wide::<W, R>(&mut v, &raw.init_rc[r], if r == 3 { &raw.pre_cols } else { cols_mont });
        }
        if let Some(d) = deferred {
            // the partial rounds with their sums off the chain, on the lanes as u64 (the
            // lane loops vectorise with AVX-512 here)
            let mut x = [0u64; W];
            for (r, reg) in v.iter().enumerate() {
                _mm512_storeu_si512(x.as_mut_ptr().add(8 * r) as *mut __m512i, *reg);
            }
            d.run(&mut x);
            for (r, reg) in v.iter_mut().enumerate() {
                *reg = _mm512_loadu_si512(x.as_ptr().add(8 * r) as *const __m512i);
            }
        } else {
            for ((k, w), vv) in raw.k.iter().zip(&raw.w).zip(&raw.v) {
                // lane 0: constant and cube (the other lanes pass through unchanged)
                let t = sub_p_64(_mm512_mask_add_epi64(v[0], 1, v[0], _mm512_set1_epi64(*k as i64)));
                let c = mul_64(mul_64(t, t), t);
                v[0] = _mm512_mask_mov_epi64(t, 1, c);
                // x0' = w . x: products by register, a REDC per pair of registers (below 2p each)
                let mut acc = _mm512_setzero_si512();
                let mut r = 0;
                while r + 1 < R {
                    let wr = _mm512_loadu_si512(w.as_ptr().add(8 * r) as *const __m512i);
                    let ws = _mm512_loadu_si512(w.as_ptr().add(8 * r + 8) as *const __m512i);
                    acc = _mm512_add_epi64(acc, redc_64(_mm512_add_epi64(_mm512_mul_epu32(v[r], wr), _mm512_mul_epu32(v[r + 1], ws))));
                    r += 2;
                }
                if r < R {
                    let wr = _mm512_loadu_si512(w.as_ptr().add(8 * r) as *const __m512i);
                    acc = _mm512_add_epi64(acc, redc_64(_mm512_mul_epu32(v[r], wr)));
                }
                // eight lanes below 2p R / 2 each: the sum is far below 2^40
                let y0 = (_mm512_reduce_add_epi64(acc) as u64 % P as u64) as i64;
                // x_j += v_j x0 (v_0 = 0 keeps lane 0), then lane 0 <- x0'
                let x0 = _mm512_permutexvar_epi64(_mm512_setzero_si512(), v[0]);
                for (r, x) in v.iter_mut().enumerate() {
                    let vr = _mm512_loadu_si512(vv.as_ptr().add(8 * r) as *const __m512i);
                    *x = sub_p_64(_mm512_add_epi64(*x, mul_64(x0, vr)));
                }
                v[0] = _mm512_mask_mov_epi64(v[0], 1, _mm512_set1_epi64(y0));
            }
        }
        for k in &raw.term_rc {
            full_round_wide::<W, R>(&mut v, k, cols_mont);
        }
        for (r, x) in v.iter().enumerate() {
            _mm256_storeu_si256(lanes.as_mut_ptr().add(8 * r) as *mut __m256i, _mm512_cvtepi64_epi32(*x));
        }
    }
    for (x, r) in s.iter_mut().zip(lanes) {
        *x = Kb::from_monty_unchecked(r);
    }
    true
}

/// The width-W permutation of 16 states in Avx512 registers (`poseidon1_packed.rs`);
/// `states.len()` must be 16.
///
/// # Safety
/// The CPU must support AVX512F.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn permute_x16<const W: usize>(p: &crate::poseidon1::Poseidon1<W>, sparse: bool, states: &mut [[Kb; W]]) {
    assert_eq!(states.len(), 16);
    // SAFETY: AVX512F is enabled here and the caller checked the CPU has it.
    unsafe { crate::poseidon1_packed::permute_states::<crate::packed_avx512::Avx512, W>(p, sparse, states) }
}

/// 16 devnet-4 chain walks (see `poseidon1_packed::chains`); every slice holds 16 lanes.
///
/// # Safety
/// The CPU must support AVX512F.
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn chains_x16<const PL: usize, const T: usize, const H: usize>(
    p: &crate::poseidon1::Poseidon1<16>,
    sparse: bool,
    parameter: &[Kb; PL],
    epochs: &[u32],
    chains: &[u8],
    starts: &[u8],
    steps: u8,
    values: &mut [[Kb; H]],
) {
    assert!(epochs.len() == 16 && chains.len() == 16 && starts.len() == 16 && values.len() == 16);
    // SAFETY: AVX512F is enabled here and the caller checked the CPU has it.
    unsafe { crate::poseidon1_packed::chains::<crate::packed_avx512::Avx512, PL, T, H>(p, sparse, parameter, epochs, chains, starts, steps, values) }
}

/// 16 devnet-4 leaves (see `poseidon1_packed::leaves`); every slice holds 16 lanes, every
/// lane the same number of chain ends.
///
/// # Safety
/// The CPU must support AVX512F.
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn leaves_x16<const PL: usize, const T: usize, const H: usize, const CAP: usize>(
    p: &crate::poseidon1::Poseidon1<24>,
    sparse: bool,
    cap: &[Kb; CAP],
    parameter: &[Kb; PL],
    epochs: &[u32],
    ends: &[&[[Kb; H]]],
    out: &mut [[Kb; H]],
) {
    assert!(epochs.len() == 16 && ends.len() == 16 && out.len() == 16 && ends.iter().all(|e| e.len() == ends[0].len()));
    // SAFETY: AVX512F is enabled here and the caller checked the CPU has it.
    unsafe { crate::poseidon1_packed::leaves::<crate::packed_avx512::Avx512, PL, T, H, CAP>(p, sparse, cap, parameter, epochs, ends, out) }
}

// SAFETY: the method uses AVX-512F intrinsics only, under the `Lanes` contract of `Avx512`.
unsafe impl crate::poseidon1_packed::MatrixLanes for Avx512 {
    /// Even and odd lanes multiplied apart into 64-bit lanes (`vpmuludq` reads the low 32
    /// bits, so the even half needs no mask), summed, [`reduce40`], and the odd half shifted
    /// back over the even one.
    #[inline(always)]
    unsafe fn small_mds<const W: usize>(rows: &[[u64; W]], x: &mut [Self; W]) {
        // SAFETY: AVX-512F, see above.
        unsafe {
            let mut odd = [_mm512_setzero_si512(); W];
            for (o, v) in odd.iter_mut().zip(x.iter()) {
                *o = _mm512_srli_epi64::<32>(v.0);
            }
            let mut y = [_mm512_setzero_si512(); W];
            for (yi, row) in y.iter_mut().zip(rows) {
                let (mut ae, mut ao) = (_mm512_setzero_si512(), _mm512_setzero_si512());
                for j in 0..W {
                    let c = _mm512_set1_epi64(row[j] as i64);
                    ae = _mm512_add_epi64(ae, _mm512_mul_epu32(x[j].0, c));
                    ao = _mm512_add_epi64(ao, _mm512_mul_epu32(odd[j], c));
                }
                *yi = _mm512_or_si512(reduce40(ae), _mm512_slli_epi64::<32>(reduce40(ao)));
            }
            for (v, yi) in x.iter_mut().zip(y) {
                v.0 = yi;
            }
        }
    }

    #[inline(always)]
    unsafe fn small_mds_crt(k: &crate::poseidon1_circulant::SmallCrt16, x: &mut [Self; 16]) {
        // SAFETY: AVX-512F, see above.
        unsafe {
            let mut r = x.map(|v| v.0);
            small_mds_crt_512::<false>(k, &mut r);
            for (v, r) in x.iter_mut().zip(r) {
                v.0 = r;
            }
        }
    }

    #[inline(always)]
    unsafe fn dot<const W: usize>(row: &[Kb; W], x: &[Self; W]) -> Self {
        // SAFETY: AVX-512F, see above.
        unsafe {
            let (mut ae, mut ao) = (_mm512_setzero_si512(), _mm512_setzero_si512());
            let mut j = 0;
            while j + 1 < W {
                let (c0, c1) = (_mm512_set1_epi64(row[j].to_monty() as i64), _mm512_set1_epi64(row[j + 1].to_monty() as i64));
                let (o0, o1) = (_mm512_srli_epi64::<32>(x[j].0), _mm512_srli_epi64::<32>(x[j + 1].0));
                ae = _mm512_add_epi64(ae, redc_64(_mm512_add_epi64(_mm512_mul_epu32(x[j].0, c0), _mm512_mul_epu32(x[j + 1].0, c1))));
                ao = _mm512_add_epi64(ao, redc_64(_mm512_add_epi64(_mm512_mul_epu32(o0, c0), _mm512_mul_epu32(o1, c1))));
                j += 2;
            }
            if j < W {
                let c = _mm512_set1_epi64(row[j].to_monty() as i64);
                ae = _mm512_add_epi64(ae, redc_64(_mm512_mul_epu32(x[j].0, c)));
                ao = _mm512_add_epi64(ao, redc_64(_mm512_mul_epu32(_mm512_srli_epi64::<32>(x[j].0), c)));
            }
            Self(_mm512_or_si512(reduce40(ae), _mm512_slli_epi64::<32>(reduce40(ao))))
        }
    }
}

/// [`Avx512`] whose width-16 MDS product runs in 52-bit multiply-adds (AVX-512 IFMA,
/// `vpmadd52luq`: acc + lo52(a b) in one instruction; products of a canonical value by an
/// entry below 2^7 stay below 2^38, exact): every other operation is [`Avx512`]'s.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Avx512Ifma(pub(crate) Avx512);

impl crate::packed_avx512::Avx512Form for Avx512Ifma {
    const SIGNED: bool = true;
    #[inline(always)]
    fn reg(self) -> __m512i {
        self.0 .0
    }
    #[inline(always)]
    fn from_reg(x: __m512i) -> Self {
        Avx512Ifma(Avx512(x))
    }
}

// SAFETY: AVX-512F and AVX-512 IFMA intrinsics; the entry points below enable both, and their
// callers detect both first.
unsafe impl crate::poseidon1_packed::MatrixLanes for Avx512Ifma {
    /// As [`Avx512`]'s, with each product and its addition one `vpmadd52luq` (the even
    /// halves masked to their low 32 bits, since IFMA reads 52).
    #[inline(always)]
    unsafe fn small_mds<const W: usize>(rows: &[[u64; W]], x: &mut [Self; W]) {
        // SAFETY: AVX-512F and IFMA, see above.
        unsafe {
            let lo32 = _mm512_set1_epi64(0xffff_ffff);
            let (mut evn, mut odd) = ([_mm512_setzero_si512(); W], [_mm512_setzero_si512(); W]);
            for j in 0..W {
                evn[j] = _mm512_and_si512(x[j].0 .0, lo32);
                odd[j] = _mm512_srli_epi64::<32>(x[j].0 .0);
            }
            let mut y = [_mm512_setzero_si512(); W];
            for (yi, row) in y.iter_mut().zip(rows) {
                let (mut ae, mut ao) = (_mm512_setzero_si512(), _mm512_setzero_si512());
                for j in 0..W {
                    let c = _mm512_set1_epi64(row[j] as i64);
                    ae = _mm512_madd52lo_epu64(ae, evn[j], c);
                    ao = _mm512_madd52lo_epu64(ao, odd[j], c);
                }
                *yi = _mm512_or_si512(reduce40(ae), _mm512_slli_epi64::<32>(reduce40(ao)));
            }
            for (v, yi) in x.iter_mut().zip(y) {
                v.0 .0 = yi;
            }
        }
    }

    /// As [`Avx512`]'s, with each product and its addition one `vpmadd52luq`.
    #[inline(always)]
    unsafe fn small_mds_crt(k: &crate::poseidon1_circulant::SmallCrt16, x: &mut [Self; 16]) {
        // SAFETY: AVX-512F and IFMA, see above.
        unsafe {
            let mut r = x.map(|v| v.0 .0);
            small_mds_crt_512::<true>(k, &mut r);
            for (v, r) in x.iter_mut().zip(r) {
                v.0 .0 = r;
            }
        }
    }

    #[inline(always)]
    unsafe fn dot<const W: usize>(row: &[Kb; W], x: &[Self; W]) -> Self {
        // SAFETY: as `Avx512`'s; `Avx512Ifma` is a transparent wrapper of it.
        Self(unsafe { <Avx512 as crate::poseidon1_packed::MatrixLanes>::dot(row, &*(x as *const [Self; W] as *const [Avx512; W])) })
    }
}

/// [`permute_x16`] with the IFMA matrix product ([`Avx512Ifma`]).
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn permute_x16_ifma<const W: usize>(p: &crate::poseidon1::Poseidon1<W>, sparse: bool, states: &mut [[Kb; W]]) {
    assert_eq!(states.len(), 16);
    // SAFETY: AVX-512F and IFMA are enabled here and the caller checked the CPU has them.
    unsafe { crate::poseidon1_packed::permute_states::<Avx512Ifma, W>(p, sparse, states) }
}

/// [`chains_x16`] with the IFMA matrix product ([`Avx512Ifma`]).
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA.
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn chains_x16_ifma<const PL: usize, const T: usize, const H: usize>(
    p: &crate::poseidon1::Poseidon1<16>,
    sparse: bool,
    parameter: &[Kb; PL],
    epochs: &[u32],
    chains: &[u8],
    starts: &[u8],
    steps: u8,
    values: &mut [[Kb; H]],
) {
    assert!(epochs.len() == 16 && chains.len() == 16 && starts.len() == 16 && values.len() == 16);
    // SAFETY: AVX-512F and IFMA are enabled here and the caller checked the CPU has them.
    unsafe { crate::poseidon1_packed::chains::<Avx512Ifma, PL, T, H>(p, sparse, parameter, epochs, chains, starts, steps, values) }
}

#[cfg(test)]
mod tests {
    //! The CRT-split width-16 MDS product on lanes against the dense product, on edge and
    //! random states (the permutation tests reach the extremes of its sums only by chance).
    use super::*;
    use crate::poseidon1::MDS16;
    use crate::poseidon1_circulant::test_states::{crt_states, dense};
    use crate::poseidon1_circulant::SmallCrt16;
    use crate::poseidon1_packed::small_mds_crt_states;

    #[target_feature(enable = "avx512f")]
    unsafe fn crt16_plain(k: &SmallCrt16, states: &mut [[Kb; 16]]) {
        // SAFETY: AVX-512F is enabled here; the caller checked the CPU has it.
        unsafe { small_mds_crt_states::<Avx512>(k, states) }
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    unsafe fn crt16_ifma(k: &SmallCrt16, states: &mut [[Kb; 16]]) {
        // SAFETY: AVX-512F and IFMA are enabled here; the caller checked the CPU has them.
        unsafe { small_mds_crt_states::<Avx512Ifma>(k, states) }
    }

    #[test]
    fn small_mds_crt_lanes_match_dense() {
        if !std::is_x86_feature_detected!("avx512f") {
            eprintln!("no AVX-512F: skipped");
            return;
        }
        let k = SmallCrt16::new(&MDS16.map(|c| c as u64));
        let states = crt_states(16);
        let (mut plain, mut ifma) = (states.clone(), states.clone());
        // SAFETY: the CPU has AVX-512F (checked above).
        unsafe { crt16_plain(&k, &mut plain) };
        let mut outs = vec![("plain", plain)];
        if std::is_x86_feature_detected!("avx512ifma") {
            // SAFETY: and IFMA (checked here).
            unsafe { crt16_ifma(&k, &mut ifma) };
            outs.push(("ifma", ifma));
        }
        for (name, out) in outs {
            for (s, o) in states.iter().zip(&out) {
                assert_eq!(*o, dense(&MDS16, s), "{name}, state {s:?}");
            }
        }
    }
}

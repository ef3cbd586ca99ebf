//! Poseidon1 on one state in AVX2 registers of four 64-bit lanes (element j in the low half of
//! lane j mod 4 of register j / 4: width 16 in four registers, width 24 in six), for CPUs with
//! AVX2 but without AVX-512: the width-24 plan of `poseidon1_avx512.rs` at both widths. The
//! S-boxes as Montgomery products in 64-bit lanes (`vpmuludq`, REDC by p^-1); the MDS product
//! y = sum_j x_j col_j with the columns in Montgomery form, each pair of products (below
//! 2p^2 < p 2^32) one REDC, the pair sums (below W p < 2^40) folded twice by
//! 2^31 = 2^24 - 1 (mod p) and one conditional subtraction.
//!
//! The entry point is `unsafe` because it needs AVX2: `Poseidon1::permute_mut` checks
//! `is_x86_feature_detected!("avx2")` first. Tested against the textbook rounds.

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::*;

use crate::koalabear::{Kb, P, P_NEG_INV};

// Every intrinsic below needs AVX2; the helpers run only inside `permute_wide`, which has
// `#[target_feature(enable = "avx2")]` and is reached after run-time detection.

/// x mod p for each 64-bit lane t < 2p: AVX2 has no unsigned 64-bit minimum, so the
/// subtraction's sign (t - p < 0 as a signed 64-bit value, t < 2^33) picks.
#[inline(always)]
unsafe fn sub_p(t: __m256i) -> __m256i {
    // SAFETY: AVX2, see above.
    unsafe {
        let d = _mm256_sub_epi64(t, _mm256_set1_epi64x(P as i64));
        let neg = _mm256_cmpgt_epi64(_mm256_setzero_si256(), d);
        _mm256_blendv_epi8(d, t, neg)
    }
}

/// (x + q p) / 2^32 with q = x (-p^-1) mod 2^32, for x < p 2^32 in each 64-bit lane: below 2p.
#[inline(always)]
unsafe fn redc(x: __m256i) -> __m256i {
    // SAFETY: AVX2, see above.
    unsafe {
        let q = _mm256_mul_epu32(x, _mm256_set1_epi64x(P_NEG_INV as i64));
        _mm256_srli_epi64::<32>(_mm256_add_epi64(x, _mm256_mul_epu32(q, _mm256_set1_epi64x(P as i64))))
    }
}

/// a b R^-1 mod p per 64-bit lane (canonical values in the low halves, in and out).
#[inline(always)]
unsafe fn mul(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: AVX2, see above.
    unsafe { sub_p(redc(_mm256_mul_epu32(a, b))) }
}

/// x mod p per 64-bit lane for x < 2^44 (two folds by 2^31 = 2^24 - 1, one subtraction:
/// after the first fold x < 2^37 + 2^31, after the second x < 65 2^24 + 2^31 < 2p).
#[inline(always)]
unsafe fn reduce40(x: __m256i) -> __m256i {
    // SAFETY: AVX2, see above.
    unsafe {
        let m31 = _mm256_set1_epi64x((1 << 31) - 1);
        let mut y = x;
        for _ in 0..2 {
            let h = _mm256_srli_epi64::<31>(y);
            y = _mm256_add_epi64(_mm256_sub_epi64(_mm256_slli_epi64::<24>(h), h), _mm256_and_si256(y, m31));
        }
        sub_p(y)
    }
}

/// (u + w + off) / 2 mod p per 64-bit lane, for the CRT split's output halves (the sum is even
/// and below 2^44 by construction; wrapping arithmetic, see `poseidon1_circulant::SmallCrt16`).
#[inline(always)]
unsafe fn crt_half(u: __m256i, w: __m256i, off: __m256i) -> __m256i {
    // SAFETY: the caller's instruction set, see above.
    unsafe { reduce40(_mm256_srli_epi64::<1>(_mm256_add_epi64(u, _mm256_add_epi64(w, off)))) }
}

/// Four u32 at `x` zero-extended to 64-bit lanes.
///
/// # Safety
/// AVX2; `x` must point to 4 readable u32.
#[inline(always)]
unsafe fn load4(x: *const u32) -> __m256i {
    // SAFETY: AVX2, and 16 readable bytes at x (the caller's).
    unsafe { _mm256_cvtepu32_epi64(_mm_loadu_si128(x as *const __m128i)) }
}

/// The permutation of one state of width W = 4 R in R registers; `false` (and `s` untouched)
/// unless W = 4 R with W columns. `rc` holds the round constants as Montgomery
/// representatives, `cols_mont[j]` column j of the MDS matrix with each entry c as c R mod p.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn permute_wide<const W: usize, const R: usize>(rc: &[[u32; W]], cols_mont: &[[u64; W]], partial: usize, s: &mut [Kb; W]) -> bool {
    if W != 4 * R || !W.is_multiple_of(2) || cols_mont.len() != W || partial > rc.len() {
        return false;
    }
    let full_before = (rc.len() - partial) / 2;
    let mut raw = [0u32; W];
    for (r, x) in raw.iter_mut().zip(s.iter()) {
        *r = x.to_monty();
    }
    // SAFETY: AVX2 is enabled here and the caller checked the CPU has it; every load and store
    // touches lanes 4 r .. 4 r + 4 (r < R) of a W = 4 R lane array.
    unsafe {
        let mut v = [_mm256_setzero_si256(); R];
        for (r, x) in v.iter_mut().enumerate() {
            *x = load4(raw.as_ptr().add(4 * r));
        }
        for (round, k) in rc.iter().enumerate() {
            let full = round < full_before || round >= full_before + partial;
            for (r, x) in v.iter_mut().enumerate() {
                let t = sub_p(_mm256_add_epi64(*x, load4(k.as_ptr().add(4 * r))));
                if full || r == 0 {
                    let c = mul(mul(t, t), t);
                    *x = if full { c } else { _mm256_blend_epi32::<0b0000_0011>(t, c) };
                } else {
                    *x = t;
                }
            }
            mds_wide::<W, R>(&mut v, cols_mont);
        }
        let mut out = [0u64; W];
        for (r, x) in v.iter().enumerate() {
            _mm256_storeu_si256(out.as_mut_ptr().add(4 * r) as *mut __m256i, *x);
        }
        for (x, o) in s.iter_mut().zip(out) {
            *x = Kb::from_monty_unchecked(o as u32);
        }
    }
    true
}

/// y = sum_j x_j col_j on one state in R registers of four 64-bit lanes, `cols` in Montgomery
/// form: one REDC per pair of columns (x_j c_j + x_k c_k < 2p^2 < p 2^32, below 2p after),
/// W / 2 summed per lane (below 2^40) and reduced once.
#[inline(always)]
unsafe fn mds_wide<const W: usize, const R: usize>(v: &mut [__m256i; R], cols: &[[u64; W]]) {
    // SAFETY: AVX2 (the caller's); every load touches lanes 4 r .. 4 r + 4 (r < R) of a
    // W = 4 R lane array.
    unsafe {
        let mut acc = [_mm256_setzero_si256(); R];
        for j in (0..W).step_by(2) {
            // x_j in the low half of every 64-bit lane (vpermd of its 32-bit lane)
            let bj = _mm256_permutevar8x32_epi32(v[j / 4], _mm256_set1_epi32(2 * (j % 4) as i32));
            let bk = _mm256_permutevar8x32_epi32(v[(j + 1) / 4], _mm256_set1_epi32(2 * ((j + 1) % 4) as i32));
            for (r, a) in acc.iter_mut().enumerate() {
                let cj = _mm256_loadu_si256(cols[j].as_ptr().add(4 * r) as *const __m256i);
                let ck = _mm256_loadu_si256(cols[j + 1].as_ptr().add(4 * r) as *const __m256i);
                let pair = _mm256_add_epi64(_mm256_mul_epu32(bj, cj), _mm256_mul_epu32(bk, ck));
                *a = _mm256_add_epi64(*a, redc(pair));
            }
        }
        for (x, a) in v.iter_mut().zip(acc) {
            *x = reduce40(a);
        }
    }
}

/// A full round on one state in R registers (as in [`permute_wide`]): the constants `k`
/// added lane-wise, every lane cubed, then [`mds_wide`] with `cols`.
#[inline(always)]
unsafe fn full_round_wide<const W: usize, const R: usize>(v: &mut [__m256i; R], k: &[u32; W], cols: &[[u64; W]]) {
    // SAFETY: AVX2 (the caller's); every load touches lanes 4 r .. 4 r + 4 (r < R).
    unsafe {
        for (r, x) in v.iter_mut().enumerate() {
            let t = sub_p(_mm256_add_epi64(*x, load4(k.as_ptr().add(4 * r))));
            *x = mul(mul(t, t), t);
        }
        mds_wide::<W, R>(v, cols);
    }
}

/// [`permute_wide`] with the sparse partial rounds of `poseidon1_fast.rs` in their deferred
/// form (`poseidon1_fast::Deferred`, `Form::deferred_partial`): the last initial full round
/// takes the dense matrix B_0 M (`raw.pre_cols`), the partial rounds run with their sums off
/// the latency chain (lane loops vectorised with AVX2 here). Same result as [`permute_wide`].
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn permute_wide_deferred<const W: usize, const R: usize>(
    raw: &crate::poseidon1_fast::Raw<W>,
    deferred: &crate::poseidon1_fast::Deferred<W>,
    cols_mont: &[[u64; W]],
    s: &mut [Kb; W],
) -> bool {
    if W != 4 * R || !W.is_multiple_of(2) || cols_mont.len() != W || raw.pre_cols.len() != W || raw.init_rc.len() != 4 || raw.term_rc.len() != 4 {
        return false;
    }
    let mut x = [0u64; W];
    for (r, e) in x.iter_mut().zip(s.iter()) {
        *r = e.to_monty() as u64;
    }
    // SAFETY: AVX2 is enabled here and the caller checked the CPU has it; every load and store
    // touches lanes 4 r .. 4 r + 4 (r < R) of a W = 4 R lane array.
    unsafe {
        let mut v = [_mm256_setzero_si256(); R];
        for (r, reg) in v.iter_mut().enumerate() {
            *reg = _mm256_loadu_si256(x.as_ptr().add(4 * r) as *const __m256i);
        }
        for r in 0..4 {
            full_round_wide::<W, R>(&mut v, &raw.init_rc[r], if r == 3 { &raw.pre_cols } else { cols_mont });
        }
        for (r, reg) in v.iter().enumerate() {
            _mm256_storeu_si256(x.as_mut_ptr().add(4 * r) as *mut __m256i, *reg);
        }
        deferred.run(&mut x);
        for (r, reg) in v.iter_mut().enumerate() {
            *reg = _mm256_loadu_si256(x.as_ptr().add(4 * r) as *const __m256i);
        }
        for k in &raw.term_rc {
            full_round_wide::<W, R>(&mut v, k, cols_mont);
        }
        for (r, reg) in v.iter().enumerate() {
            _mm256_storeu_si256(x.as_mut_ptr().add(4 * r) as *mut __m256i, *reg);
        }
    }
    for (e, r) in s.iter_mut().zip(x) {
        *e = Kb::from_monty_unchecked(r as u32);
    }
    true
}

/// The width-W permutation of 8 states in Avx2 registers (`poseidon1_packed.rs`);
/// `states.len()` must be 8.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn permute_x8<const W: usize>(p: &crate::poseidon1::Poseidon1<W>, sparse: bool, states: &mut [[Kb; W]]) {
    assert_eq!(states.len(), 8);
    // SAFETY: AVX2 is enabled here and the caller checked the CPU has it.
    unsafe { crate::poseidon1_packed::permute_states::<crate::packed_avx2::Avx2, W>(p, sparse, states) }
}

/// 8 devnet-4 chain walks (see `poseidon1_packed::chains`); every slice holds 8 lanes.
///
/// # Safety
/// The CPU must support AVX2.
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn chains_x8<const PL: usize, const T: usize, const H: usize>(
    p: &crate::poseidon1::Poseidon1<16>,
    sparse: bool,
    parameter: &[Kb; PL],
    epochs: &[u32],
    chains: &[u8],
    starts: &[u8],
    steps: u8,
    values: &mut [[Kb; H]],
) {
    assert!(epochs.len() == 8 && chains.len() == 8 && starts.len() == 8 && values.len() == 8);
    // SAFETY: AVX2 is enabled here and the caller checked the CPU has it.
    unsafe { crate::poseidon1_packed::chains::<crate::packed_avx2::Avx2, PL, T, H>(p, sparse, parameter, epochs, chains, starts, steps, values) }
}

/// 8 devnet-4 leaves (see `poseidon1_packed::leaves`); every slice holds 8 lanes, every
/// lane the same number of chain ends.
///
/// # Safety
/// The CPU must support AVX2.
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn leaves_x8<const PL: usize, const T: usize, const H: usize, const CAP: usize>(
    p: &crate::poseidon1::Poseidon1<24>,
    sparse: bool,
    cap: &[Kb; CAP],
    parameter: &[Kb; PL],
    epochs: &[u32],
    ends: &[&[[Kb; H]]],
    out: &mut [[Kb; H]],
) {
    assert!(epochs.len() == 8 && ends.len() == 8 && out.len() == 8 && ends.iter().all(|e| e.len() == ends[0].len()));
    // SAFETY: AVX2 is enabled here and the caller checked the CPU has it.
    unsafe { crate::poseidon1_packed::leaves::<crate::packed_avx2::Avx2, PL, T, H, CAP>(p, sparse, cap, parameter, epochs, ends, out) }
}

// SAFETY: the method uses AVX2 intrinsics only, under the `Lanes` contract of `Avx2`.
unsafe impl crate::poseidon1_packed::MatrixLanes for crate::packed_avx2::Avx2 {
    /// Even and odd lanes multiplied apart into 64-bit lanes (`vpmuludq` reads the low 32
    /// bits, so the even half needs no mask), summed, [`reduce40`], and the odd half shifted
    /// back over the even one.
    #[inline(always)]
    unsafe fn small_mds<const W: usize>(rows: &[[u64; W]], x: &mut [Self; W]) {
        // SAFETY: AVX2, see above.
        unsafe {
            let mut odd = [_mm256_setzero_si256(); W];
            for (o, v) in odd.iter_mut().zip(x.iter()) {
                *o = _mm256_srli_epi64::<32>(v.0);
            }
            let mut y = [_mm256_setzero_si256(); W];
            for (yi, row) in y.iter_mut().zip(rows) {
                let (mut ae, mut ao) = (_mm256_setzero_si256(), _mm256_setzero_si256());
                for j in 0..W {
                    let c = _mm256_set1_epi64x(row[j] as i64);
                    ae = _mm256_add_epi64(ae, _mm256_mul_epu32(x[j].0, c));
                    ao = _mm256_add_epi64(ao, _mm256_mul_epu32(odd[j], c));
                }
                *yi = _mm256_or_si256(reduce40(ae), _mm256_slli_epi64::<32>(reduce40(ao)));
            }
            for (v, yi) in x.iter_mut().zip(y) {
                v.0 = yi;
            }
        }
    }

    #[inline(always)]
    unsafe fn small_mds_crt(k: &crate::poseidon1_circulant::SmallCrt16, x: &mut [Self; 16]) {
        // SAFETY: AVX2, see above.
        unsafe {
            // [even, odd] halves of s = x_lo + x_hi and d' = x_lo + p - x_hi, both below 2^32
            // (`vpmuludq` reads the low 32 bits, so the even halves need no mask), and of D'
            let p = _mm256_set1_epi32(P as i32);
            let (mut s, mut d) = ([[_mm256_setzero_si256(); 8]; 2], [[_mm256_setzero_si256(); 8]; 2]);
            let lo32 = _mm256_set1_epi64x(0xffff_ffff);
            let mut big_d = [_mm256_setzero_si256(); 2];
            for j in 0..8 {
                let (sj, dj) = (_mm256_add_epi32(x[j].0, x[j + 8].0), _mm256_sub_epi32(_mm256_add_epi32(x[j].0, p), x[j + 8].0));
                (s[0][j], s[1][j]) = (sj, _mm256_srli_epi64::<32>(sj));
                (d[0][j], d[1][j]) = (dj, _mm256_srli_epi64::<32>(dj));
                // the even half's high bits hold the odd lane: masked for the sum
                big_d[0] = _mm256_add_epi64(big_d[0], _mm256_and_si256(d[0][j], lo32));
                big_d[1] = _mm256_add_epi64(big_d[1], d[1][j]);
            }
            // 128 D' per half (`CRT_BIAS` = 2^7)
            let bias_d = [_mm256_slli_epi64::<7>(big_d[0]), _mm256_slli_epi64::<7>(big_d[1])];
            for i in 0..8 {
                // the even and odd halves side by side in one pass over j (a loop over the
                // halves let LLVM hoist the constants out of it, spill them, and lose that their
                // high halves are zero: every product became a three-multiply 64-bit one)
                let z = _mm256_setzero_si256();
                let (mut ue, mut uo, mut we, mut wo) = (z, z, z, z);
                for j in 0..8 {
                    let (c, n) = (_mm256_set1_epi64x(k.cyc[i][j] as i64), _mm256_set1_epi64x(k.neg[i][j] as i64));
                    ue = _mm256_add_epi64(ue, _mm256_mul_epu32(s[0][j], c));
                    uo = _mm256_add_epi64(uo, _mm256_mul_epu32(s[1][j], c));
                    we = _mm256_add_epi64(we, _mm256_mul_epu32(d[0][j], n));
                    wo = _mm256_add_epi64(wo, _mm256_mul_epu32(d[1][j], n));
                }
                let (we, wo) = (_mm256_sub_epi64(we, bias_d[0]), _mm256_sub_epi64(wo, bias_d[1]));
                // u + v + off and u - v + off: even, in [0, 2^44)
                let (off_lo, off_hi) = (_mm256_set1_epi64x(k.off_lo[i] as i64), _mm256_set1_epi64x(k.off_hi[i] as i64));
                let lo = _mm256_or_si256(crt_half(ue, we, off_lo), _mm256_slli_epi64::<32>(crt_half(uo, wo, off_lo)));
                let (ne, no) = (_mm256_sub_epi64(z, we), _mm256_sub_epi64(z, wo));
                let hi = _mm256_or_si256(crt_half(ue, ne, off_hi), _mm256_slli_epi64::<32>(crt_half(uo, no, off_hi)));
                x[i].0 = lo;
                x[i + 8].0 = hi;
            }
        }
    }

    #[inline(always)]
    unsafe fn dot<const W: usize>(row: &[Kb; W], x: &[Self; W]) -> Self {
        // SAFETY: AVX2, see above.
        unsafe {
            let (mut ae, mut ao) = (_mm256_setzero_si256(), _mm256_setzero_si256());
            let mut j = 0;
            while j + 1 < W {
                let (c0, c1) = (_mm256_set1_epi64x(row[j].to_monty() as i64), _mm256_set1_epi64x(row[j + 1].to_monty() as i64));
                let (o0, o1) = (_mm256_srli_epi64::<32>(x[j].0), _mm256_srli_epi64::<32>(x[j + 1].0));
                ae = _mm256_add_epi64(ae, redc(_mm256_add_epi64(_mm256_mul_epu32(x[j].0, c0), _mm256_mul_epu32(x[j + 1].0, c1))));
                ao = _mm256_add_epi64(ao, redc(_mm256_add_epi64(_mm256_mul_epu32(o0, c0), _mm256_mul_epu32(o1, c1))));
                j += 2;
            }
            if j < W {
                let c = _mm256_set1_epi64x(row[j].to_monty() as i64);
                ae = _mm256_add_epi64(ae, redc(_mm256_mul_epu32(x[j].0, c)));
                ao = _mm256_add_epi64(ao, redc(_mm256_mul_epu32(_mm256_srli_epi64::<32>(x[j].0), c)));
            }
            Self(_mm256_or_si256(reduce40(ae), _mm256_slli_epi64::<32>(reduce40(ao))))
        }
    }
}

#[cfg(test)]
mod tests {
    //! The CRT-split width-16 MDS product on AVX2 lanes against the dense product, on edge and
    //! random states.
    use crate::koalabear::Kb;
    use crate::packed_avx2::Avx2;
    use crate::poseidon1::MDS16;
    use crate::poseidon1_circulant::test_states::{crt_states, dense};
    use crate::poseidon1_circulant::SmallCrt16;
    use crate::poseidon1_packed::small_mds_crt_states;

    #[target_feature(enable = "avx2")]
    unsafe fn crt8(k: &SmallCrt16, states: &mut [[Kb; 16]]) {
        // SAFETY: AVX2 is enabled here; the caller checked the CPU has it.
        unsafe { small_mds_crt_states::<Avx2>(k, states) }
    }

    #[test]
    fn small_mds_crt_lanes_match_dense() {
        if !std::is_x86_feature_detected!("avx2") {
            eprintln!("no AVX2: skipped");
            return;
        }
        let k = SmallCrt16::new(&MDS16.map(|c| c as u64));
        let states = crt_states(16);
        for chunk in states.chunks(8) {
            let mut out = chunk.to_vec();
            // SAFETY: the CPU has AVX2 (checked above).
            unsafe { crt8(&k, &mut out) };
            for (s, o) in chunk.iter().zip(&out) {
                assert_eq!(*o, dense(&MDS16, s), "state {s:?}");
            }
        }
    }
}

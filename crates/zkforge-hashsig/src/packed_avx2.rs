//! Eight KoalaBear elements in one AVX2 register and the width-16/24 Poseidon2 permutations
//! on eight states at once (lane i of every register belongs to state i).
//!
//! Montgomery multiplication per lane in signed form, as in Plonky3's packed MontyField31:
//! with prod = a b a signed 64-bit product, q = (prod mod 2^32) p^-1 mod 2^32 read as signed,
//! (prod - q p) / 2^32 lies in (-p, p) and is a b 2^-32 mod p. Even and odd lanes are
//! multiplied separately (`_mm256_mul_epi32` reads the low 32 bits of each 64-bit lane); the
//! S-box cubes both halves in 64-bit lanes and merges them once. Round constants are stored
//! as rc - p, so v + rc needs no reduction before the signed cube. Additions reduce with an
//! unsigned minimum: for t = a + b, min(t, t - p) is t mod p when t < 2p < 2^32.
//!
//! Every function here is `unsafe` only because it uses AVX2 intrinsics; callers check
//! `is_x86_feature_detected!("avx2")` first (see `Poseidon2::permute_x8`). The scalar
//! permutation is the reference the tests compare this one with.
//!
//! `packed_avx512.rs` is the same permutation on sixteen lanes but still in the earlier form
//! (unsigned Montgomery products with a blend after each, two passes per internal round):
//! the signed form here was written on a machine without AVX-512, where that file's tests
//! cannot run, so it was not ported blind. Port it where AVX-512 is at hand (the tests
//! compare both paths with the scalar permutation).

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::*;

use crate::koalabear::{Kb, P, P_NEG_INV};
use crate::poseidon2::{diag_ops, DiagOp, Poseidon2};

/// p^-1 mod 2^32 (positive inverse).
const P_INV: u32 = P_NEG_INV.wrapping_neg();

#[inline]
#[target_feature(enable = "avx2")]
unsafe fn add(a: __m256i, b: __m256i) -> __m256i {
    let p = _mm256_set1_epi32(P as i32);
    let t = _mm256_add_epi32(a, b);
    _mm256_min_epu32(t, _mm256_sub_epi32(t, p))
}

#[inline]
#[target_feature(enable = "avx2")]
unsafe fn sub(a: __m256i, b: __m256i) -> __m256i {
    let p = _mm256_set1_epi32(P as i32);
    let t = _mm256_sub_epi32(a, b);
    _mm256_min_epu32(t, _mm256_add_epi32(t, p))
}

/// sum + m for m a signed value in (-p, p) and sum canonical: t = sum + m, corrected by
/// p with the sign of m (`vpsignd`), the unsigned minimum picks the one in [0, p).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn signed_add(sum: __m256i, m: __m256i) -> __m256i {
    let t = _mm256_add_epi32(sum, m);
    let corr = _mm256_sub_epi32(t, _mm256_sign_epi32(_mm256_set1_epi32(P as i32), m));
    _mm256_min_epu32(t, corr)
}

/// sum + V_j x for one internal-diagonal entry (see `DiagOp`), canonical out:
/// - small multiples by reduced additions;
/// - x / 2 as (x >> 1) + (x odd) (p + 1) / 2, already canonical;
/// - ±x / 2^k (k >= 2) as the signed value ±(h - c) in (-p, p), with h = x >> k, l the low k
///   bits and c = 127 l 2^(24 - k) (since 2^-k = -127 2^(24-k) mod p), then a signed add.
///   127 l is one `vpmaddwd` when l < 2^15, else (l << 7) - l.
#[inline(always)]
unsafe fn add_diag(op: DiagOp, sum: __m256i, x: __m256i) -> __m256i {
    let pm = |sum: __m256i, m: __m256i| if op.neg { sub(sum, m) } else { add(sum, m) };
    match op.mul {
        1 => pm(sum, x),
        2 => pm(sum, double(x)),
        3 => pm(sum, add(double(x), x)),
        4 => pm(sum, double(double(x))),
        _ if op.shift == 1 => {
            let lsb = _mm256_and_si256(x, _mm256_set1_epi32(1));
            let half = _mm256_sign_epi32(_mm256_set1_epi32(P.div_ceil(2) as i32), lsb);
            pm(sum, _mm256_add_epi32(_mm256_srli_epi32::<1>(x), half))
        }
        _ => {
            let k = op.shift as i32;
            let h = _mm256_srl_epi32(x, _mm_cvtsi32_si128(k));
            let l = _mm256_and_si256(x, _mm256_set1_epi32((1i32 << k) - 1));
            let l127 = if k <= 15 { _mm256_madd_epi16(l, _mm256_set1_epi32(127)) } else { _mm256_sub_epi32(_mm256_slli_epi32::<7>(l), l) };
            let c = _mm256_sll_epi32(l127, _mm_cvtsi32_si128(24 - k));
            let m = if op.neg { _mm256_sub_epi32(c, h) } else { _mm256_sub_epi32(h, c) };
            signed_add(sum, m)
        }
    }
}

/// Sum of the registers 1.. of `v` in four interleaved accumulators (short dependency
/// chains, no recursion, so everything stays in registers).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn tail_sum<const W: usize>(v: &[__m256i; W]) -> __m256i {
    let mut acc = [v[1], v[2], v[3], v[4]];
    for j in 5..W {
        acc[(j - 1) % 4] = add(acc[(j - 1) % 4], v[j]);
    }
    add(add(acc[0], acc[1]), add(acc[2], acc[3]))
}

/// Entry J of an internal round: v[J] <- sum + V_J v[J], added into the next round's tail
/// sum (accumulator (J - 1) mod 4). J is a constant, so the diagonal operation is too.
#[inline(always)]
unsafe fn entry<const W: usize, const J: usize>(v: &mut [__m256i; W], sum: __m256i, acc: &mut [__m256i; 4]) {
    let y = add_diag(diag_ops::<W>()[J], sum, v[J]);
    v[J] = y;
    acc[(J - 1) % 4] = if J <= 4 { y } else { add(acc[(J - 1) % 4], y) };
}

/// The internal rounds: s0 <- (s0 + rc)^3, then s_j <- sum + V_j s_j. One pass over the
/// state per round: each new s_j is added into the next round's tail sum (s_1 + ... ) as it
/// is made, so the state is read once per round, and with V_0 = -2 the next s0 is
/// tail - s0^3 at once; its S-box (the long latency chain) overlaps the rest of the pass.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn internal_rounds<const W: usize>(v: &mut [__m256i; W], constants: &[i32]) {
    let mut tail = tail_sum(v);
    for k in constants {
        let s0 = add_rc_cube(v[0], _mm256_set1_epi32(*k));
        let sum = add(tail, s0);
        v[0] = sub(tail, s0);
        let mut acc = [_mm256_setzero_si256(); 4];
        entry::<W, 1>(v, sum, &mut acc);
        entry::<W, 2>(v, sum, &mut acc);
        entry::<W, 3>(v, sum, &mut acc);
        entry::<W, 4>(v, sum, &mut acc);
        entry::<W, 5>(v, sum, &mut acc);
        entry::<W, 6>(v, sum, &mut acc);
        entry::<W, 7>(v, sum, &mut acc);
        entry::<W, 8>(v, sum, &mut acc);
        entry::<W, 9>(v, sum, &mut acc);
        entry::<W, 10>(v, sum, &mut acc);
        entry::<W, 11>(v, sum, &mut acc);
        entry::<W, 12>(v, sum, &mut acc);
        entry::<W, 13>(v, sum, &mut acc);
        entry::<W, 14>(v, sum, &mut acc);
        entry::<W, 15>(v, sum, &mut acc);
        if W == 24 {
            entry::<W, 16>(v, sum, &mut acc);
            entry::<W, 17>(v, sum, &mut acc);
            entry::<W, 18>(v, sum, &mut acc);
            entry::<W, 19>(v, sum, &mut acc);
            entry::<W, 20>(v, sum, &mut acc);
            entry::<W, 21>(v, sum, &mut acc);
            entry::<W, 22>(v, sum, &mut acc);
            entry::<W, 23>(v, sum, &mut acc);
        }
        tail = add(add(acc[0], acc[1]), add(acc[2], acc[3]));
    }
}

/// The odd 32-bit lanes copied into the even ones (a shuffle, not a shift: it runs on
/// another port than the shifts).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn movehdup(x: __m256i) -> __m256i {
    _mm256_castps_si256(_mm256_movehdup_ps(_mm256_castsi256_ps(x)))
}

/// Partial Montgomery reduction of signed 64-bit lanes in (-2^31 p, 2^31 p): with q the
/// low 32 bits of prod p^-1 read as signed, (prod - q p) / 2^32 lies in (-p, p) and is left
/// in the high 32 bits of each 64-bit lane (the low bits of prod and q p agree, so a 32-bit
/// subtraction gives the high half without a borrow).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn red_signed(prod: __m256i) -> __m256i {
    let q = _mm256_mul_epi32(prod, _mm256_set1_epi32(P_INV as i32));
    let qp = _mm256_mul_epi32(q, _mm256_set1_epi32(P as i32));
    _mm256_sub_epi32(prod, qp)
}

/// x^3 on the even 32-bit lanes of `x`, read as signed values in [-p, p]; the result lies
/// in (-p, p) in the odd lanes. Square and cube stay in 64-bit lanes: no blends between.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn cube_evn_signed(x: __m256i) -> __m256i {
    let sq = movehdup(red_signed(_mm256_mul_epi32(x, x)));
    red_signed(_mm256_mul_epi32(sq, x))
}

/// (v + rc)^3 in canonical form, for v canonical and `rc_neg` = rc - p in [-p, 0): the sum
/// lies in [-p, p) and needs no reduction before the signed cube (the S-box of every
/// round; the even and odd lanes are cubed apart and merged once).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn add_rc_cube(v: __m256i, rc_neg: __m256i) -> __m256i {
    let x = _mm256_add_epi32(v, rc_neg);
    let evn = cube_evn_signed(x);
    let odd = cube_evn_signed(movehdup(x));
    let t = _mm256_blend_epi32::<0b1010_1010>(movehdup(evn), odd);
    _mm256_min_epu32(t, _mm256_add_epi32(t, _mm256_set1_epi32(P as i32)))
}

#[inline]
#[target_feature(enable = "avx2")]
unsafe fn double(x: __m256i) -> __m256i {
    add(x, x)
}

/// M4 on each chunk of four lanes-vectors, then the column sums added.
#[inline(always)]
unsafe fn external_linear<const W: usize>(s: &mut [__m256i; W]) {
    for c in 0..W / 4 {
        let (x0, x1, x2, x3) = (s[4 * c], s[4 * c + 1], s[4 * c + 2], s[4 * c + 3]);
        let t01 = add(x0, x1);
        let t23 = add(x2, x3);
        let t0123 = add(t01, t23);
        let t01123 = add(t0123, x1);
        let t01233 = add(t0123, x3);
        s[4 * c + 3] = add(t01233, double(x0));
        s[4 * c + 1] = add(t01123, double(x2));
        s[4 * c] = add(t01123, t01);
        s[4 * c + 2] = add(t01233, t23);
    }
    for k in 0..4 {
        let mut sum = s[k];
        for c in 1..W / 4 {
            sum = add(sum, s[4 * c + k]);
        }
        for c in 0..W / 4 {
            s[4 * c + k] = add(s[4 * c + k], sum);
        }
    }
}

/// M4 (Plonky3's `MDSMat4`, circ(2, 3, 1, 1)) on one chunk of four.
#[inline(always)]
unsafe fn m4(x: [__m256i; 4]) -> [__m256i; 4] {
    let t01 = add(x[0], x[1]);
    let t23 = add(x[2], x[3]);
    let t0123 = add(t01, t23);
    let t01123 = add(t0123, x[1]);
    let t01233 = add(t0123, x[3]);
    [add(t01123, t01), add(t01123, double(x[2])), add(t01233, t23), add(t01233, double(x[0]))]
}

/// Chunk C of an external round: the S-box on its four entries, M4, and the result added
/// into the column sums. Chunk by chunk, only one chunk's temporaries are live at a time.
#[inline(always)]
unsafe fn sbox_m4_chunk<const W: usize, const C: usize>(v: &mut [__m256i; W], c: &[i32; W], sums: &mut [__m256i; 4]) {
    let s = |j: usize| add_rc_cube(v[4 * C + j], _mm256_set1_epi32(c[4 * C + j]));
    let y = m4([s(0), s(1), s(2), s(3)]);
    for k in 0..4 {
        v[4 * C + k] = y[k];
        sums[k] = if C == 0 { y[k] } else { add(sums[k], y[k]) };
    }
}

/// One external round: S-box layer then the external linear layer (M4 per chunk, then each
/// column sum added to its column).
#[inline(always)]
unsafe fn external_round<const W: usize>(v: &mut [__m256i; W], c: &[i32; W]) {
    let mut sums = [_mm256_setzero_si256(); 4];
    sbox_m4_chunk::<W, 0>(v, c, &mut sums);
    sbox_m4_chunk::<W, 1>(v, c, &mut sums);
    sbox_m4_chunk::<W, 2>(v, c, &mut sums);
    sbox_m4_chunk::<W, 3>(v, c, &mut sums);
    if W == 24 {
        sbox_m4_chunk::<W, 4>(v, c, &mut sums);
        sbox_m4_chunk::<W, 5>(v, c, &mut sums);
    }
    for j in 0..W {
        v[j] = add(v[j], sums[j % 4]);
    }
}

/// Load lane-major registers: v[j] lane i = rows[i][j].
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load_lanes<const M: usize>(rows: &[[Kb; M]; 8]) -> [__m256i; M] {
    core::array::from_fn(|j| {
        let lanes: [u32; 8] = core::array::from_fn(|i| rows[i][j].to_monty());
        _mm256_loadu_si256(lanes.as_ptr() as *const __m256i)
    })
}

/// Store lane-major registers back: rows[i][j] = v[j] lane i.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store_lanes<const M: usize>(v: &[__m256i; M], rows: &mut [[Kb; M]; 8]) {
    for (j, vj) in v.iter().enumerate() {
        let mut lanes = [0u32; 8];
        _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, *vj);
        for i in 0..8 {
            // every register lane is reduced below p
            rows[i][j] = Kb::from_monty_unchecked(lanes[i]);
        }
    }
}

/// The width-W permutation on lane-major registers.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn permute_regs<const W: usize>(perm: &Poseidon2<W>, v: &mut [__m256i; W]) {
    let rc = perm.neg_constants();
    external_linear(v);
    for c in &rc.initial {
        external_round(v, c);
    }
    internal_rounds(v, &rc.internal);
    for c in &rc.terminal {
        external_round(v, c);
    }
}

/// The width-W permutation (16 or 24) on eight states; `states[i]` is state i.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn permute_x8<const W: usize>(perm: &Poseidon2<W>, states: &mut [[Kb; W]; 8]) {
    let mut v = load_lanes(states);
    permute_regs(perm, &mut v);
    store_lanes(&v, states);
}

/// The width-W permutation on L states (L a multiple of 8) in column layout, the layout of
/// packed fields: `cols[j][i]` is element j of state i. 8 states at a time, each register
/// loaded from 8 consecutive entries of a column (no transposes).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn permute_columns<const W: usize, const L: usize>(perm: &Poseidon2<W>, cols: &mut [[Kb; L]; W]) {
    for b in 0..L / 8 {
        let mut v: [__m256i; W] = core::array::from_fn(|j| {
            let lanes: [u32; 8] = core::array::from_fn(|i| cols[j][8 * b + i].to_monty());
            _mm256_loadu_si256(lanes.as_ptr() as *const __m256i)
        });
        permute_regs(perm, &mut v);
        for (col, vj) in cols.iter_mut().zip(v.iter()) {
            let mut lanes = [0u32; 8];
            _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, *vj);
            for i in 0..8 {
                // every register lane is reduced below p
                col[8 * b + i] = Kb::from_monty_unchecked(lanes[i]);
            }
        }
    }
}

/// Eight chain walks of `steps` steps each with the width-16 permutation, the chain values
/// staying in registers between steps (no per-step transposes): lane i holds `values[i]`;
/// step j (1-based) hashes [parameter | tweaks(j)[i] | value | 0...] and keeps the
/// feed-forward (P(s) + s)[..H].
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
    let par: [__m256i; PL] = core::array::from_fn(|k| _mm256_set1_epi32(parameter[k].to_monty() as i32));
    let mut val = load_lanes(values);
    for j in 1..=steps {
        let tw = load_lanes(&tweaks(j));
        let mut s = [_mm256_setzero_si256(); 16];
        s[..PL].copy_from_slice(&par);
        s[PL..PL + T].copy_from_slice(&tw);
        s[PL + T..PL + T + H].copy_from_slice(&val);
        let input = s;
        permute_regs(perm, &mut s);
        for k in 0..H {
            val[k] = add(s[k], input[k]);
        }
    }
    store_lanes(&val, values);
}

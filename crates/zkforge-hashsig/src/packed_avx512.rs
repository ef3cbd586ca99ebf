//! Sixteen KoalaBear elements in one AVX-512 register and the width-16/24 Poseidon2 permutations
//! on sixteen states at once (lane i of every register belongs to state i).
//!
//! Montgomery multiplication per lane, as in Plonky3's packed MontyField31 (and the usual
//! signed-Montgomery trick): with prod = a b (64 bits), q = (prod mod 2^32) p^-1 mod 2^32,
//! (prod - q p) / 2^32 lies in (-p, p) and is a b 2^-32 mod p up to one addition of p. Even
//! and odd lanes are multiplied separately (`_mm512_mul_epu32` reads the low 32 bits of each
//! 64-bit lane). Additions reduce with an unsigned minimum: for t = a + b,
//! min(t, t - p) is t mod p when t < 2p < 2^32.
//!
//! Every function here is `unsafe` only because it uses AVX-512 intrinsics; callers check
//! `is_x86_feature_detected!("avx512f")` first (see `Poseidon2::permute_x16`). The scalar
//! permutation is the reference the tests compare this one with.

//!
//! `packed_avx2.rs` is the same algorithm with the other register width: the two files differ only
//! in intrinsic names and lane counts; change them together (the tests compare both paths
//! with the scalar permutation).

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::*;

use crate::koalabear::{Kb, P, P_NEG_INV};
use crate::poseidon2::{diag_ops, DiagOp, Poseidon2};

/// p^-1 mod 2^32 (positive inverse).
const P_INV: u32 = P_NEG_INV.wrapping_neg();

#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn add(a: __m512i, b: __m512i) -> __m512i {
    let p = _mm512_set1_epi32(P as i32);
    let t = _mm512_add_epi32(a, b);
    _mm512_min_epu32(t, _mm512_sub_epi32(t, p))
}

#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn sub(a: __m512i, b: __m512i) -> __m512i {
    let p = _mm512_set1_epi32(P as i32);
    let t = _mm512_sub_epi32(a, b);
    _mm512_min_epu32(t, _mm512_add_epi32(t, p))
}

/// |V| x for one internal-diagonal entry (see `DiagOp`): small multiples by additions,
/// x / 2^k as (x >> k) - ((l << (31 - k)) - (l << (24 - k))) with l the low k bits.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn diag_mag(op: DiagOp, x: __m512i) -> __m512i {
    match op.mul {
        1 => x,
        2 => double(x),
        3 => add(double(x), x),
        4 => double(double(x)),
        _ => {
            let k = op.shift as i32;
            let h = _mm512_srl_epi32(x, _mm_cvtsi32_si128(k));
            let l = _mm512_and_si512(x, _mm512_set1_epi32((1i32 << k) - 1));
            let c = _mm512_sub_epi32(_mm512_sll_epi32(l, _mm_cvtsi32_si128(31 - k)), _mm512_sll_epi32(l, _mm_cvtsi32_si128(24 - k)));
            sub(h, c)
        }
    }
}

/// sum + V x from m = |V| x.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn add_signed(op: DiagOp, sum: __m512i, m: __m512i) -> __m512i {
    if op.neg {
        sub(sum, m)
    } else {
        add(sum, m)
    }
}

/// Sum of the registers 1.. of `v` in four interleaved accumulators (short dependency
/// chains, no recursion, so everything stays in registers).
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn tail_sum<const W: usize>(v: &[__m512i; W]) -> __m512i {
    let mut acc = [v[1], v[2], v[3], v[4]];
    for j in 5..W {
        acc[(j - 1) % 4] = add(acc[(j - 1) % 4], v[j]);
    }
    add(add(acc[0], acc[1]), add(acc[2], acc[3]))
}

/// One internal round: s0 <- (s0 + rc)^3, then s_j <- sum + V_j s_j. Everything but the
/// S-box is independent of s0, so the tail sum and the tail's diagonal products run beside
/// the cube; with V_0 = -2, s0 becomes sum - 2 s0 = tail - s0. The entries are written out
/// one by one so that each operation is a compile-time constant.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn internal_round<const W: usize>(v: &mut [__m512i; W], rc: __m512i) {
    let ops = diag_ops::<W>();
    let tail = tail_sum(v);
    v[1] = diag_mag(ops[1], v[1]);
    v[2] = diag_mag(ops[2], v[2]);
    v[3] = diag_mag(ops[3], v[3]);
    v[4] = diag_mag(ops[4], v[4]);
    v[5] = diag_mag(ops[5], v[5]);
    v[6] = diag_mag(ops[6], v[6]);
    v[7] = diag_mag(ops[7], v[7]);
    v[8] = diag_mag(ops[8], v[8]);
    v[9] = diag_mag(ops[9], v[9]);
    v[10] = diag_mag(ops[10], v[10]);
    v[11] = diag_mag(ops[11], v[11]);
    v[12] = diag_mag(ops[12], v[12]);
    v[13] = diag_mag(ops[13], v[13]);
    v[14] = diag_mag(ops[14], v[14]);
    v[15] = diag_mag(ops[15], v[15]);
    if W == 24 {
        v[16] = diag_mag(ops[16], v[16]);
        v[17] = diag_mag(ops[17], v[17]);
        v[18] = diag_mag(ops[18], v[18]);
        v[19] = diag_mag(ops[19], v[19]);
        v[20] = diag_mag(ops[20], v[20]);
        v[21] = diag_mag(ops[21], v[21]);
        v[22] = diag_mag(ops[22], v[22]);
        v[23] = diag_mag(ops[23], v[23]);
    }
    let s0 = cube(add(v[0], rc));
    let sum = add(tail, s0);
    v[0] = sub(tail, s0);
    v[1] = add_signed(ops[1], sum, v[1]);
    v[2] = add_signed(ops[2], sum, v[2]);
    v[3] = add_signed(ops[3], sum, v[3]);
    v[4] = add_signed(ops[4], sum, v[4]);
    v[5] = add_signed(ops[5], sum, v[5]);
    v[6] = add_signed(ops[6], sum, v[6]);
    v[7] = add_signed(ops[7], sum, v[7]);
    v[8] = add_signed(ops[8], sum, v[8]);
    v[9] = add_signed(ops[9], sum, v[9]);
    v[10] = add_signed(ops[10], sum, v[10]);
    v[11] = add_signed(ops[11], sum, v[11]);
    v[12] = add_signed(ops[12], sum, v[12]);
    v[13] = add_signed(ops[13], sum, v[13]);
    v[14] = add_signed(ops[14], sum, v[14]);
    v[15] = add_signed(ops[15], sum, v[15]);
    if W == 24 {
        v[16] = add_signed(ops[16], sum, v[16]);
        v[17] = add_signed(ops[17], sum, v[17]);
        v[18] = add_signed(ops[18], sum, v[18]);
        v[19] = add_signed(ops[19], sum, v[19]);
        v[20] = add_signed(ops[20], sum, v[20]);
        v[21] = add_signed(ops[21], sum, v[21]);
        v[22] = add_signed(ops[22], sum, v[22]);
        v[23] = add_signed(ops[23], sum, v[23]);
    }
}

#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn mul(a: __m512i, b: __m512i) -> __m512i {
    let p = _mm512_set1_epi32(P as i32);
    let pinv = _mm512_set1_epi32(P_INV as i32);
    let a_odd = _mm512_srli_epi64::<32>(a);
    let b_odd = _mm512_srli_epi64::<32>(b);
    let prod_evn = _mm512_mul_epu32(a, b);
    let prod_odd = _mm512_mul_epu32(a_odd, b_odd);
    let q_evn = _mm512_mul_epu32(prod_evn, pinv);
    let q_odd = _mm512_mul_epu32(prod_odd, pinv);
    let qp_evn = _mm512_mul_epu32(q_evn, p);
    let qp_odd = _mm512_mul_epu32(q_odd, p);
    // high halves of each 64-bit product, back in lane order
    let prod_hi = _mm512_mask_blend_epi32(0b1010_1010_1010_1010, _mm512_srli_epi64::<32>(prod_evn), prod_odd);
    let qp_hi = _mm512_mask_blend_epi32(0b1010_1010_1010_1010, _mm512_srli_epi64::<32>(qp_evn), qp_odd);
    let t = _mm512_sub_epi32(prod_hi, qp_hi);
    _mm512_min_epu32(t, _mm512_add_epi32(t, p))
}

#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn cube(x: __m512i) -> __m512i {
    mul(mul(x, x), x)
}

#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn double(x: __m512i) -> __m512i {
    add(x, x)
}

/// M4 on each chunk of four lanes-vectors, then the column sums added.
#[inline(always)]
unsafe fn external_linear<const W: usize>(s: &mut [__m512i; W]) {
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

/// Load lane-major registers: v[j] lane i = rows[i][j].
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn load_lanes<const M: usize>(rows: &[[Kb; M]; 16]) -> [__m512i; M] {
    core::array::from_fn(|j| {
        let lanes: [u32; 16] = core::array::from_fn(|i| rows[i][j].to_monty());
        _mm512_loadu_si512(lanes.as_ptr() as *const __m512i)
    })
}

/// Store lane-major registers back: rows[i][j] = v[j] lane i.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn store_lanes<const M: usize>(v: &[__m512i; M], rows: &mut [[Kb; M]; 16]) {
    for (j, vj) in v.iter().enumerate() {
        let mut lanes = [0u32; 16];
        _mm512_storeu_si512(lanes.as_mut_ptr() as *mut __m512i, *vj);
        for i in 0..16 {
            // every register lane is reduced below p
            rows[i][j] = Kb::from_monty_unchecked(lanes[i]);
        }
    }
}

/// The width-W permutation on lane-major registers.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn permute_regs<const W: usize>(perm: &Poseidon2<W>, v: &mut [__m512i; W]) {
    let splat = |x: Kb| _mm512_set1_epi32(x.to_monty() as i32);
    external_linear(v);
    for rc in perm.initial_constants() {
        for j in 0..W {
            v[j] = cube(add(v[j], splat(rc[j])));
        }
        external_linear(v);
    }
    for k in perm.internal_constants() {
        internal_round(v, splat(*k));
    }
    for rc in perm.terminal_constants() {
        for j in 0..W {
            v[j] = cube(add(v[j], splat(rc[j])));
        }
        external_linear(v);
    }
}

/// The width-W permutation (16 or 24) on sixteen states; `states[i]` is state i.
///
/// # Safety
/// The CPU must support AVX-512.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn permute_x16<const W: usize>(perm: &Poseidon2<W>, states: &mut [[Kb; W]; 16]) {
    let mut v = load_lanes(states);
    permute_regs(perm, &mut v);
    store_lanes(&v, states);
}

/// The width-W permutation on L states (L a multiple of 16) in column layout, the layout of
/// packed fields: `cols[j][i]` is element j of state i. 16 states at a time, each register
/// loaded from 16 consecutive entries of a column (no transposes).
///
/// # Safety
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn permute_columns<const W: usize, const L: usize>(perm: &Poseidon2<W>, cols: &mut [[Kb; L]; W]) {
    for b in 0..L / 16 {
        let mut v: [__m512i; W] = core::array::from_fn(|j| {
            let lanes: [u32; 16] = core::array::from_fn(|i| cols[j][16 * b + i].to_monty());
            _mm512_loadu_si512(lanes.as_ptr() as *const __m512i)
        });
        permute_regs(perm, &mut v);
        for (col, vj) in cols.iter_mut().zip(v.iter()) {
            let mut lanes = [0u32; 16];
            _mm512_storeu_si512(lanes.as_mut_ptr() as *mut __m512i, *vj);
            for i in 0..16 {
                // every register lane is reduced below p
                col[16 * b + i] = Kb::from_monty_unchecked(lanes[i]);
            }
        }
    }
}

/// Sixteen chain walks of `steps` steps each with the width-16 permutation, the chain values
/// staying in registers between steps (no per-step transposes): lane i holds `values[i]`;
/// step j (1-based) hashes [parameter | tweaks(j)[i] | value | 0...] and keeps the
/// feed-forward (P(s) + s)[..H].
///
/// # Safety
/// The CPU must support AVX-512.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn chains_x16<const PL: usize, const T: usize, const H: usize>(
    perm: &Poseidon2<16>,
    parameter: &[Kb; PL],
    tweaks: impl Fn(u8) -> [[Kb; T]; 16],
    steps: u8,
    values: &mut [[Kb; H]; 16],
) {
    let par: [__m512i; PL] = core::array::from_fn(|k| _mm512_set1_epi32(parameter[k].to_monty() as i32));
    let mut val = load_lanes(values);
    for j in 1..=steps {
        let tw = load_lanes(&tweaks(j));
        let mut s = [_mm512_setzero_si512(); 16];
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

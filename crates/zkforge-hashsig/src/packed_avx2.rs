//! Eight KoalaBear elements in one AVX2 register and the width-16/24 Poseidon2 permutations
//! on eight states at once (lane i of every register belongs to state i).
//!
//! Montgomery multiplication per lane, as in Plonky3's packed MontyField31 (and the usual
//! signed-Montgomery trick): with prod = a b (64 bits), q = (prod mod 2^32) p^-1 mod 2^32,
//! (prod - q p) / 2^32 lies in (-p, p) and is a b 2^-32 mod p up to one addition of p. Even
//! and odd lanes are multiplied separately (`_mm256_mul_epu32` reads the low 32 bits of each
//! 64-bit lane). Additions reduce with an unsigned minimum: for t = a + b,
//! min(t, t - p) is t mod p when t < 2p < 2^32.
//!
//! Every function here is `unsafe` only because it uses AVX2 intrinsics; callers check
//! `is_x86_feature_detected!("avx2")` first (see `Poseidon2::permute_x8`). The scalar
//! permutation is the reference the tests compare this one with.

//!
//! `packed_avx512.rs` is the same algorithm with the other register width: the two files differ only
//! in intrinsic names and lane counts; change them together (the tests compare both paths
//! with the scalar permutation).

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

/// sum + V x for one internal-diagonal entry (see `DiagOp`): small multiples by additions,
/// x / 2^k as (x >> k) - ((l << (31 - k)) - (l << (24 - k))) with l the low k bits.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn diag(op: DiagOp, x: __m256i, sum: __m256i) -> __m256i {
    let v = match op.mul {
        1 => x,
        2 => double(x),
        3 => add(double(x), x),
        4 => double(double(x)),
        _ => {
            let k = op.shift as i32;
            let h = _mm256_srl_epi32(x, _mm_cvtsi32_si128(k));
            let l = _mm256_and_si256(x, _mm256_set1_epi32((1i32 << k) - 1));
            let c = _mm256_sub_epi32(_mm256_sll_epi32(l, _mm_cvtsi32_si128(31 - k)), _mm256_sll_epi32(l, _mm_cvtsi32_si128(24 - k)));
            sub(h, c)
        }
    };
    if op.neg {
        sub(sum, v)
    } else {
        add(sum, v)
    }
}

/// v_j <- sum + V_j v_j for every lane, written out entry by entry so that each entry's
/// operation is a compile-time constant (a loop over the table was left rolled, with branches).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn internal_diag<const W: usize>(v: &mut [__m256i; W], sum: __m256i) {
    let ops = diag_ops::<W>();
    v[0] = diag(ops[0], v[0], sum);
    v[1] = diag(ops[1], v[1], sum);
    v[2] = diag(ops[2], v[2], sum);
    v[3] = diag(ops[3], v[3], sum);
    v[4] = diag(ops[4], v[4], sum);
    v[5] = diag(ops[5], v[5], sum);
    v[6] = diag(ops[6], v[6], sum);
    v[7] = diag(ops[7], v[7], sum);
    v[8] = diag(ops[8], v[8], sum);
    v[9] = diag(ops[9], v[9], sum);
    v[10] = diag(ops[10], v[10], sum);
    v[11] = diag(ops[11], v[11], sum);
    v[12] = diag(ops[12], v[12], sum);
    v[13] = diag(ops[13], v[13], sum);
    v[14] = diag(ops[14], v[14], sum);
    v[15] = diag(ops[15], v[15], sum);
    if W == 24 {
        v[16] = diag(ops[16], v[16], sum);
        v[17] = diag(ops[17], v[17], sum);
        v[18] = diag(ops[18], v[18], sum);
        v[19] = diag(ops[19], v[19], sum);
        v[20] = diag(ops[20], v[20], sum);
        v[21] = diag(ops[21], v[21], sum);
        v[22] = diag(ops[22], v[22], sum);
        v[23] = diag(ops[23], v[23], sum);
    }
}

#[inline]
#[target_feature(enable = "avx2")]
unsafe fn mul(a: __m256i, b: __m256i) -> __m256i {
    let p = _mm256_set1_epi32(P as i32);
    let pinv = _mm256_set1_epi32(P_INV as i32);
    let a_odd = _mm256_srli_epi64::<32>(a);
    let b_odd = _mm256_srli_epi64::<32>(b);
    let prod_evn = _mm256_mul_epu32(a, b);
    let prod_odd = _mm256_mul_epu32(a_odd, b_odd);
    let q_evn = _mm256_mul_epu32(prod_evn, pinv);
    let q_odd = _mm256_mul_epu32(prod_odd, pinv);
    let qp_evn = _mm256_mul_epu32(q_evn, p);
    let qp_odd = _mm256_mul_epu32(q_odd, p);
    // high halves of each 64-bit product, back in lane order
    let prod_hi = _mm256_blend_epi32::<0b1010_1010>(_mm256_srli_epi64::<32>(prod_evn), prod_odd);
    let qp_hi = _mm256_blend_epi32::<0b1010_1010>(_mm256_srli_epi64::<32>(qp_evn), qp_odd);
    let t = _mm256_sub_epi32(prod_hi, qp_hi);
    _mm256_min_epu32(t, _mm256_add_epi32(t, p))
}

#[inline]
#[target_feature(enable = "avx2")]
unsafe fn cube(x: __m256i) -> __m256i {
    mul(mul(x, x), x)
}

#[inline]
#[target_feature(enable = "avx2")]
unsafe fn double(x: __m256i) -> __m256i {
    add(x, x)
}

/// M4 on each chunk of four lanes-vectors, then the column sums added.
#[inline]
#[target_feature(enable = "avx2")]
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

/// The width-W permutation (16 or 24) on eight states; `states[i]` is state i.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn permute_x8<const W: usize>(perm: &Poseidon2<W>, states: &mut [[Kb; W]; 8]) {
    // transpose into lane-major registers: v[j] lane i = states[i][j]
    let mut v = [_mm256_setzero_si256(); W];
    for (j, vj) in v.iter_mut().enumerate() {
        let lanes: [u32; 8] = core::array::from_fn(|i| states[i][j].to_monty());
        *vj = _mm256_loadu_si256(lanes.as_ptr() as *const __m256i);
    }
    let splat = |x: Kb| _mm256_set1_epi32(x.to_monty() as i32);
    external_linear(&mut v);
    for rc in perm.initial_constants() {
        for j in 0..W {
            v[j] = cube(add(v[j], splat(rc[j])));
        }
        external_linear(&mut v);
    }
    for k in perm.internal_constants() {
        v[0] = cube(add(v[0], splat(*k)));
        let mut sum = v[0];
        for x in &v[1..] {
            sum = add(sum, *x);
        }
        internal_diag(&mut v, sum);
    }
    for rc in perm.terminal_constants() {
        for j in 0..W {
            v[j] = cube(add(v[j], splat(rc[j])));
        }
        external_linear(&mut v);
    }
    for (j, vj) in v.iter().enumerate() {
        let mut lanes = [0u32; 8];
        _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, *vj);
        for i in 0..8 {
            states[i][j] = Kb::from_monty(lanes[i]).expect("reduced lanes");
        }
    }
}

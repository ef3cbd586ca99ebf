//! Batch-affine bucket accumulation on eight lanes of AVX-512 IFMA: the additions of a batch
//! (see `batch_affine`) run eight at a time, each coordinate held as L limbs of 52 bits, one
//! limb per 512-bit register across eight elements (structure of arrays), multiplied with
//! `vpmadd52luq` / `vpmadd52huq`.
//!
//! Field arithmetic: Montgomery multiplication in radix 2^52 (operand scanning, CIOS: Koc,
//! Acar, Kaliski, "Analyzing and comparing Montgomery multiplication algorithms", IEEE Micro
//! 1996), R = 2^(52 L) with L = 8 for 381-bit moduli (BLS12-381 Fp) and L = 5 for moduli of at
//! most 254 bits (BN254 Fp). The 64-bit IFMA accumulators absorb every partial product of a
//! row without carries (at most 4 L terms below 2^52 per limb), carries run once at the end.
//! R exceeds p by at least 2^6, so products of inputs below 4p come out below 2p and additions
//! and subtractions stay lazy: a - b is a + kp - b with kp above b's bound. Only x coordinates
//! are kept canonical (they are compared).
//!
//! Data flow per window: the bases are converted once per MSM (`Bases52`: radix 2^64 -> 2^52
//! and one product by 2^(2*52L - 64N) mod p moves a Montgomery form a 2^(64N) to a 2^(52L));
//! buckets live in the 52-bit form; a batch of S additions gathers its operands into lane
//! order, runs the Montgomery-trick inversion on two interleaved chains of eight lanes (one
//! scalar inversion for the sixteen lane products), forms slopes and the new buckets, and
//! scatters them back. A point whose bucket is already in the batch waits for the next batch
//! (up to S/4 of them; an XYZZ overflow addition costs about four lane additions here, so the
//! portable path's immediate overflow is the fallback only), and a point whose x equals its
//! bucket's (doubling or cancellation) goes to the bucket's XYZZ overflow accumulator. The
//! running sums read the buckets converted back.
//!
//! The same lanes carry other kernels over the same field arithmetic: the bucket reduction's
//! running sums (`simd::running_lanes`), many independent products (`simd::ladder`, for
//! `mul_many`), batched G1 subgroup tests and square roots, and the constant-time Straus of
//! `msm_ct` (`simd::straus_ct`: one accumulator per lane, regular window-4 digits, full table
//! scans, the complete formulas of ePrint 2015/1060 in homogeneous coordinates), which the
//! small variable-time MSMs (`SmallMethod::Lanes`) also take.
//!
//! Selected at run time (`is_x86_feature_detected!("avx512ifma")`); the portable batch-affine
//! accumulator is the reference the tests compare against, on every size and edge case.

#![allow(clippy::needless_range_loop)]
// Off x86-64 only the portable parts of this module are called (the lane kernels are
// selected by CPU detection there), so the x86-only helpers would warn as unused.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code, unused_imports, unused_variables, unused_mut))]

use zkforge_curve::{Affine, CurveConfig, CurveField, Jacobian, Xyzz};

const MASK52: u64 = (1u64 << 52) - 1;

/// The modulus-dependent constants of the 52-bit Montgomery arithmetic (L limbs).
#[derive(Clone, Debug)]
pub(crate) struct Field52<const L: usize> {
    /// p and 2p in 52-bit limbs.
    p: [u64; L],
    p2: [u64; L],
    /// -p^-1 mod 2^52.
    pinv: u64,
    /// 2^(2*52L - 64N) mod p: a product with it turns a 2^(64N) into a 2^(52L).
    k_in: [u64; L],
    /// 2^(64N) mod p: a product with it turns a 2^(52L) into a 2^(64N).
    k_out: [u64; L],
    /// 1 in the 52-bit Montgomery form, 2^(52L) mod p.
    one: [u64; L],
    /// The 64-bit limb count N of the field.
    n64: usize,
    /// The lane inversion runs in the 64-bit domain and multiplies by 2^(2(52L - 64N)) there
    /// (see `invert_lanes_64`); this is that exponent.
    lane_fix_doublings: u32,
}

/// Little-endian 64-bit limbs -> L limbs of 52 bits (the value must fit 52 L bits).
fn to52<const L: usize>(a: &[u64]) -> [u64; L] {
    let mut r = [0u64; L];
    for (j, limb) in r.iter_mut().enumerate() {
        let bit = 52 * j;
        let (w, sh) = (bit / 64, bit % 64);
        let mut x = if w < a.len() { a[w] >> sh } else { 0 };
        if sh > 12 && w + 1 < a.len() {
            x |= a[w + 1] << (64 - sh);
        }
        *limb = x & MASK52;
    }
    r
}

/// L normalised 52-bit limbs -> 8 little-endian 64-bit limbs.
fn from52<const L: usize>(a: &[u64; L]) -> [u64; 8] {
    let mut r = [0u64; 9];
    for (j, &x) in a.iter().enumerate() {
        let bit = 52 * j;
        let (w, sh) = (bit / 64, bit % 64);
        r[w] |= x << sh;
        if sh > 12 {
            r[w + 1] |= x >> (64 - sh);
        }
    }
    let mut out = [0u64; 8];
    out.copy_from_slice(&r[..8]);
    out
}

/// k p in normalised 52-bit limbs (k < 2^11, so the top limb has room).
fn multiple52<const L: usize>(p: &[u64; L], k: u64) -> [u64; L] {
    let mut r = [0u64; L];
    let mut carry = 0u64;
    for j in 0..L {
        let t = p[j] * k + carry;
        r[j] = t & MASK52;
        carry = t >> 52;
    }
    r
}

/// 2^e mod m for little-endian limbs m (m > 2^64 assumed odd), by doublings with a conditional
/// subtraction: setup only.
fn pow2_mod(e: u32, m: &[u64]) -> Vec<u64> {
    let n = m.len();
    let mut x = vec![0u64; n];
    x[0] = 1;
    for _ in 0..e {
        let mut carry = 0u64;
        for w in x.iter_mut() {
            let nc = *w >> 63;
            *w = (*w << 1) | carry;
            carry = nc;
        }
        // subtract m when x >= m (or when the doubling carried out)
        let mut t = vec![0u64; n];
        let mut borrow = 0u64;
        for i in 0..n {
            let (d, b1) = x[i].overflowing_sub(m[i]);
            let (d, b2) = d.overflowing_sub(borrow);
            t[i] = d;
            borrow = (b1 | b2) as u64;
        }
        if carry == 1 || borrow == 0 {
            x = t;
        }
    }
    x
}

impl<const L: usize> Field52<L> {
    /// Constants for the prime field of `C`, when L limbs of 52 bits suit its size (L = 5 for at
    /// most 254 bits, L = 8 for at most 384) and the CPU has AVX-512 IFMA; else `None`.
    pub(crate) fn for_field<F: CurveField>() -> Option<Self> {
        if !available() {
            return None;
        }
        let (m, n) = F::prime_modulus()?;
        // the constants take a few thousand word operations (two chains of doublings): computed
        // once per modulus and limb count, then cloned (a small MSM must not pay them per call)
        type Cache = Vec<([u64; 8], usize, Box<dyn std::any::Any + Send + Sync>)>;
        static CACHE: std::sync::Mutex<Cache> = std::sync::Mutex::new(Vec::new());
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, _, f)) = cache.iter().find(|(cm, cl, _)| *cm == m && *cl == L) {
            return f.downcast_ref::<Option<Self>>().cloned().flatten();
        }
        let f = Self::compute(&m, n);
        cache.push((m, L, Box::new(f.clone())));
        f
    }

    fn compute(m: &[u64; 8], n: usize) -> Option<Self> {
        let m = &m[..n];
        let bits = 64 * n as u32 - m[n - 1].leading_zeros();
        let fits = match L {
            5 => bits <= 254 && n == 4,
            8 => bits <= 384 && n == 6,
            _ => false,
        };
        if !fits || m[0] & 1 == 0 {
            return None;
        }
        let p = to52::<L>(m);
        let norm = |x: &[u64]| to52::<L>(x);
        // -p^-1 mod 2^52 by Newton iteration on the low word
        let mut inv: u64 = 1;
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(m[0].wrapping_mul(inv)));
        }
        let pinv = inv.wrapping_neg() & MASK52;
        let r_bits = 52 * L as u32;
        let n_bits = 64 * n as u32;
        Some(Self {
            p,
            p2: multiple52(&p, 2),
            pinv,
            k_in: norm(&pow2_mod(2 * r_bits - n_bits, m)),
            k_out: norm(&pow2_mod(n_bits, m)),
            one: norm(&pow2_mod(r_bits, m)),
            n64: n,
            lane_fix_doublings: 2 * (r_bits - n_bits),
        })
    }
}

/// Whether this CPU runs the IFMA kernels (AVX-512F and AVX-512 IFMA) and they are allowed
/// (`zkforge_field::backend::set_ifma_allowed`, `ZKFORGE_NO_IFMA`).
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        zkforge_field::backend::ifma_allowed() && std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512ifma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

static DEDICATED_SQUARING: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(true);

/// Whether the lane kernels square with their dedicated squaring (the cross products once,
/// then the reduction: 100 pairs of IFMA products on eight limbs instead of 128) or with the
/// general product (`false`). Process-wide; both give the same values. The default (`true`)
/// measured 0.80x the time of the lane scalar multiplications (`mul_many`), 0.69x the lane
/// square roots of the batched G1 decoding and 0.70x the batched G1 subgroup test
/// (`examples/lane_squaring_ab.rs`, BENCHMARKS.md, 2026-12-02).
pub fn set_dedicated_squaring(on: bool) {
    DEDICATED_SQUARING.store(on, core::sync::atomic::Ordering::Relaxed);
}

/// The current [`set_dedicated_squaring`] setting.
pub fn dedicated_squaring() -> bool {
    DEDICATED_SQUARING.load(core::sync::atomic::Ordering::Relaxed)
}

/// One base in the 52-bit form: x (canonical) and y (canonical), a 2^(52L) mod p.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Point52<const L: usize> {
    x: [u64; L],
    y: [u64; L],
}

/// Eight lanes of L limbs, limb-major: `v[j][lane]`.
type Lanes<const L: usize> = [[u64; 8]; L];

#[cfg(target_arch = "x86_64")]
mod simd {
    //! The vector kernels. Every function here needs AVX-512F and AVX-512 IFMA, which the
    //! callers check at run time ([`super::available`]) before the first call.
    use super::{Field52, Lanes, MASK52};
    use core::arch::x86_64::*;

    type V = __m512i;

    #[derive(Clone, Copy)]
    pub(super) struct Consts<const L: usize> {
        p: [V; L],
        p2: [V; L],
        pinv: V,
        mask: V,
        zero: V,
        /// [`super::dedicated_squaring`], read once per kernel call.
        dedicated_sqr: bool,
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn consts<const L: usize>(f: &Field52<L>) -> Consts<L> {
        Consts {
            p: splat(&f.p),
            p2: splat(&f.p2),
            pinv: _mm512_set1_epi64(f.pinv as i64),
            mask: _mm512_set1_epi64(MASK52 as i64),
            zero: _mm512_setzero_si512(),
            dedicated_sqr: super::dedicated_squaring(),
        }
    }

    /// Every lane set to the limbs of `a`.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn splat<const L: usize>(a: &[u64; L]) -> [V; L] {
        let mut r = [_mm512_setzero_si512(); L];
        for j in 0..L {
            r[j] = _mm512_set1_epi64(a[j] as i64);
        }
        r
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(super) fn load<const L: usize>(a: &Lanes<L>) -> [V; L] {
        let mut r = [_mm512_setzero_si512(); L];
        for j in 0..L {
            // SAFETY: each `a[j]` is 64 readable bytes; the unaligned load needs no alignment.
            r[j] = unsafe { _mm512_loadu_si512(a[j].as_ptr() as *const _) };
        }
        r
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(super) fn store<const L: usize>(v: &[V; L], a: &mut Lanes<L>) {
        for j in 0..L {
            // SAFETY: each `a[j]` is 64 writable bytes; the unaligned store has no alignment need.
            unsafe { _mm512_storeu_si512(a[j].as_mut_ptr() as *mut _, v[j]) };
        }
    }

    /// a b / 2^(52L) mod p in [0, 2p) for inputs whose product is below 2^(52L) p (inputs
    /// below 4p suffice), limbs normalised.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(super) fn mul<const L: usize>(a: &[V; L], b: &[V; L], c: &Consts<L>) -> [V; L] {
        let mut t = [c.zero; 9];
        for i in 0..L {
            let ai = a[i];
            for j in 0..L {
                t[j] = _mm512_madd52lo_epu64(t[j], ai, b[j]);
                t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], ai, b[j]);
            }
            let m = _mm512_madd52lo_epu64(c.zero, t[0], c.pinv);
            for j in 0..L {
                t[j] = _mm512_madd52lo_epu64(t[j], m, c.p[j]);
                t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, c.p[j]);
            }
            // t[0] is a multiple of 2^52 now: carry its top into the next limb, shift down
            let carry = _mm512_srli_epi64(t[0], 52);
            for j in 0..L {
                t[j] = t[j + 1];
            }
            t[0] = _mm512_add_epi64(t[0], carry);
            t[L] = c.zero;
        }
        let mut r = [c.zero; L];
        let mut carry = c.zero;
        for j in 0..L {
            let x = _mm512_add_epi64(t[j], carry);
            carry = _mm512_srli_epi64(x, 52);
            r[j] = _mm512_and_si512(x, c.mask);
        }
        r
    }

    /// a^2 / 2^(52L) mod p in [0, 2p), the contract of [`mul`] with both inputs a (L <= 8):
    /// the product first (the L(L-1)/2 cross products once, doubled by a shift, then the L
    /// squares), then the L rounds of the Montgomery reduction, separated (SOS), so a squaring
    /// takes 36 + 64 pairs of IFMA products on eight limbs where [`mul`] takes 128. Every
    /// accumulator stays below 2^59: at most 2(L - 1) cross halves (doubled), 2 square halves
    /// and 2L reduction halves of 52 bits each, plus the carries.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(super) fn sqr<const L: usize>(a: &[V; L], c: &Consts<L>) -> [V; L] {
        let mut t = [c.zero; 17];
        for i in 0..L {
            for j in i + 1..L {
                t[i + j] = _mm512_madd52lo_epu64(t[i + j], a[i], a[j]);
                t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a[i], a[j]);
            }
        }
        for k in 1..2 * L {
            t[k] = _mm512_slli_epi64(t[k], 1);
        }
        for i in 0..L {
            t[2 * i] = _mm512_madd52lo_epu64(t[2 * i], a[i], a[i]);
            t[2 * i + 1] = _mm512_madd52hi_epu64(t[2 * i + 1], a[i], a[i]);
        }
        for i in 0..L {
            let m = _mm512_madd52lo_epu64(c.zero, t[i], c.pinv);
            for j in 0..L {
                t[i + j] = _mm512_madd52lo_epu64(t[i + j], m, c.p[j]);
                t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], m, c.p[j]);
            }
            // t[i] is a multiple of 2^52 now: its top goes to the next limb
            t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64(t[i], 52));
        }
        let mut r = [c.zero; L];
        let mut carry = c.zero;
        for j in 0..L {
            let x = _mm512_add_epi64(t[L + j], carry);
            carry = _mm512_srli_epi64(x, 52);
            r[j] = _mm512_and_si512(x, c.mask);
        }
        r
    }

    /// a^2 by [`sqr`] or, with the dedicated squaring switched off, by [`mul`].
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn sq<const L: usize>(a: &[V; L], c: &Consts<L>) -> [V; L] {
        if c.dedicated_sqr {
            sqr(a, c)
        } else {
            mul(a, a, c)
        }
    }

    /// Squares of every element of `a` ([`sqr`]), reduced to [0, p) (the tests' entry).
    #[cfg(test)]
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn sqr_all<const L: usize>(a: &mut [Lanes<L>], f: &Field52<L>) {
        let c = consts(f);
        for g in a.iter_mut() {
            let x = load(g);
            store(&reduce_2p(&sqr(&x, &c), &c), g);
        }
    }

    /// Signed limbs -> normalised limbs (the value must be non-negative and below 2^(52L)).
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn carry_signed<const L: usize>(mut r: [V; L], c: &Consts<L>) -> [V; L] {
        for j in 0..L - 1 {
            let carry = _mm512_srai_epi64(r[j], 52);
            r[j] = _mm512_and_si512(r[j], c.mask);
            r[j + 1] = _mm512_add_epi64(r[j + 1], carry);
        }
        r
    }

    /// a + k - b for a multiple k of p (one of `Consts`' p, 2p, 4p) with k >= b.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(super) fn add_sub<const L: usize>(a: &[V; L], k: &[V; L], b: &[V; L], c: &Consts<L>) -> [V; L] {
        let mut r = [c.zero; L];
        for j in 0..L {
            r[j] = _mm512_sub_epi64(_mm512_add_epi64(a[j], k[j]), b[j]);
        }
        carry_signed(r, c)
    }

    /// x - k when that is non-negative, else x (k a multiple of p).
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn cond_sub<const L: usize>(x: &[V; L], k: &[V; L], c: &Consts<L>) -> [V; L] {
        let mut t = [c.zero; L];
        for j in 0..L {
            t[j] = _mm512_sub_epi64(x[j], k[j]);
        }
        let mut t = carry_signed(t, c);
        // the sign of the top limb after the carries is the sign of x - k
        let neg = _mm512_cmplt_epi64_mask(t[L - 1], c.zero);
        for j in 0..L {
            t[j] = _mm512_mask_blend_epi64(neg, t[j], x[j]);
        }
        t
    }

    /// [0, 4p) -> [0, p).
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(super) fn reduce_4p<const L: usize>(x: &[V; L], c: &Consts<L>) -> [V; L] {
        let x = cond_sub(x, &c.p2, c);
        cond_sub(&x, &c.p, c)
    }

    /// [0, 2p) -> [0, p).
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(super) fn reduce_2p<const L: usize>(x: &[V; L], c: &Consts<L>) -> [V; L] {
        cond_sub(x, &c.p, c)
    }

    /// Products by one constant of every element of `a` (eight at a time), reduced to [0, p).
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn mul_const_all<const L: usize>(a: &mut [Lanes<L>], k: &[u64; L], f: &Field52<L>) {
        let c = consts(f);
        let kv = splat(k);
        for g in a.iter_mut() {
            let x = load(g);
            let y = reduce_2p(&mul(&x, &kv, &c), &c);
            store(&y, g);
        }
    }

    /// The batch of affine additions (see `Acc52::flush`): `groups` groups of eight lanes,
    /// bucket (bx, by), point (qx, qy) with `neg` lanes negating qy; writes the sums over
    /// (bx, by). Lane inversion goes through `invert_lanes`.
    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn add_batch<const L: usize>(
        f: &Field52<L>,
        bx: &mut [Lanes<L>],
        by: &mut [Lanes<L>],
        qx: &[Lanes<L>],
        qy: &[Lanes<L>],
        neg: &[u8],
        num: &mut Vec<[V; L]>,
        den: &mut Vec<[V; L]>,
        prefix: &mut Vec<[V; L]>,
        invert_lanes: &mut dyn FnMut(&mut [Lanes<L>; 2]),
    ) {
        let c = consts(f);
        let groups = bx.len();
        num.clear();
        den.clear();
        prefix.clear();
        // numerators, denominators; forward products on two interleaved chains
        // the chains start from 1 in Montgomery form
        let one = splat(&f.one);
        let mut acc = [one, one];
        for g in 0..groups {
            let (b_x, b_y, q_x) = (load(&bx[g]), load(&by[g]), load(&qx[g]));
            let mut q_y = load(&qy[g]);
            let nq = add_sub(&c.zero_l(), &c.p, &q_y, &c);
            let m = neg[g] as __mmask8;
            for j in 0..L {
                q_y[j] = _mm512_mask_blend_epi64(m, q_y[j], nq[j]);
            }
            num.push(add_sub(&q_y, &c.p, &b_y, &c));
            let d = add_sub(&q_x, &c.p, &b_x, &c);
            den.push(d);
            let lane = g & 1;
            prefix.push(acc[lane]);
            acc[lane] = mul(&acc[lane], &d, &c);
        }
        // invert the sixteen lane products with one scalar inversion
        let mut lanes: [Lanes<L>; 2] = [[[0u64; 8]; L]; 2];
        for h in 0..2 {
            let v = reduce_2p(&acc[h], &c);
            store(&v, &mut lanes[h]);
        }
        invert_lanes(&mut lanes);
        let mut inv = [load(&lanes[0]), load(&lanes[1])];
        // backward: each inverse, the slope, the new bucket
        for g in (0..groups).rev() {
            let lane = g & 1;
            let dinv = mul(&inv[lane], &prefix[g], &c);
            inv[lane] = mul(&inv[lane], &den[g], &c);
            let l = mul(&num[g], &dinv, &c);
            let (b_x, b_y, q_x) = (load(&bx[g]), load(&by[g]), load(&qx[g]));
            // x3 = l^2 - bx - qx, canonical (l^2 < 2p, bx and qx < p)
            let ll = sq(&l, &c);
            let s = add_sub(&ll, &c.p2, &b_x, &c);
            let x3 = reduce_4p(&add_sub(&s, &c.zero_l(), &q_x, &c), &c);
            // y3 = l (bx - x3) - by, canonical
            let t = add_sub(&b_x, &c.p, &x3, &c);
            let y = mul(&l, &t, &c);
            let y3 = reduce_4p(&add_sub(&y, &c.p, &b_y, &c), &c);
            store(&x3, &mut bx[g]);
            store(&y3, &mut by[g]);
        }
    }

    /// a <- a b / 2^(52L) mod p in [0, p), lane by lane (the tests' view of `mul`).
    #[cfg(test)]
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn mul_pairs<const L: usize>(a: &mut [Lanes<L>], b: &[Lanes<L>], f: &Field52<L>) {
        let c = consts(f);
        for (x, y) in a.iter_mut().zip(b) {
            let r = reduce_2p(&mul(&load(x), &load(y), &c), &c);
            store(&r, x);
        }
    }

    /// k p in 52-bit limbs, every lane (k < 2^11).
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn multiple<const L: usize>(f: &Field52<L>, k: u64) -> [V; L] {
        splat(&super::multiple52(&f.p, k))
    }

    /// a + b (non-negative), limbs normalised.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn add<const L: usize>(a: &[V; L], b: &[V; L], c: &Consts<L>) -> [V; L] {
        let mut r = [c.zero; L];
        for j in 0..L {
            r[j] = _mm512_add_epi64(a[j], b[j]);
        }
        carry_signed(r, c)
    }

    /// The multiples of p the point formulas subtract with.
    pub(super) struct Mults<const L: usize> {
        k: [[V; L]; 8],
    }
    const MULTS: [u64; 8] = [1, 2, 4, 8, 16, 24, 32, 64];
    const K2: usize = 1;
    const K4: usize = 2;
    const K8: usize = 3;
    const K16: usize = 4;
    const K24: usize = 5;
    const K64: usize = 7;

    /// x in [0, 128p) -> [0, p) (x mod p).
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn canonical<const L: usize>(x: &[V; L], m: &Mults<L>, c: &Consts<L>) -> [V; L] {
        let mut r = *x;
        for k in (0..8).rev() {
            if k == K24 {
                continue;
            }
            r = cond_sub(&r, &m.k[k], c);
        }
        r
    }

    /// All-zero limbs, lane by lane.
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn is_zero<const L: usize>(x: &[V; L], c: &Consts<L>) -> __mmask8 {
        let mut acc = c.zero;
        for j in 0..L {
            acc = _mm512_or_si512(acc, x[j]);
        }
        _mm512_cmpeq_epi64_mask(acc, c.zero)
    }

    /// Jacobian points in lanes, every coordinate below 64p.
    #[derive(Clone, Copy)]
    struct Jac<const L: usize> {
        x: [V; L],
        y: [V; L],
        z: [V; L],
    }

    /// Doubling on y^2 = x^3 + b (dbl-2009-l, 2M + 5S); bounds in the comments (inputs < 64p).
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn dbl<const L: usize>(t: &Jac<L>, m: &Mults<L>, c: &Consts<L>) -> Jac<L> {
        let a = sq(&t.x, c); // < 2p
        let b = sq(&t.y, c); // < 2p
        let cc = sq(&b, c); // < 2p
        let xb = add(&t.x, &b, c); // < 66p
        let t2 = sq(&xb, c); // < 2p
        let d0 = add_sub(&add_sub(&t2, &m.k[K4], &a, c), &c.zero_l(), &cc, c); // < 6p
        let d = add(&d0, &d0, c); // < 12p
        let e = add(&add(&a, &a, c), &a, c); // < 6p
        let ff = sq(&e, c); // < 2p
        let d2 = add(&d, &d, c); // < 24p
        let x3 = add_sub(&ff, &m.k[K24], &d2, c); // < 26p
        let dx = add_sub(&d, &m.k[K64], &x3, c); // < 76p
        let c2 = add(&cc, &cc, c);
        let c4 = add(&c2, &c2, c);
        let c8 = add(&c4, &c4, c); // < 16p
        let y3 = add_sub(&mul(&e, &dx, c), &m.k[K16], &c8, c); // < 18p
        let yz = mul(&t.y, &t.z, c); // < 2p
        let z3 = add(&yz, &yz, c); // < 4p
        Jac { x: x3, y: y3, z: z3 }
    }

    /// t + (qx, qy) with the affine point canonical (madd-2007-bl, 7M + 4S); Z3 = 2 Z1 H, so an
    /// exceptional case (H = 0) leaves Z3 = 0 for the caller to see.
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn madd<const L: usize>(t: &Jac<L>, qx: &[V; L], qy: &[V; L], m: &Mults<L>, c: &Consts<L>) -> Jac<L> {
        let z1z1 = sq(&t.z, c); // < 2p
        let u2 = mul(qx, &z1z1, c); // < 2p
        let s2 = mul(&mul(qy, &t.z, c), &z1z1, c); // < 2p
        let h = add_sub(&u2, &m.k[K64], &t.x, c); // < 66p
        let hh = sq(&h, c); // < 2p
        let hh2 = add(&hh, &hh, c);
        let i = add(&hh2, &hh2, c); // < 8p
        let j = mul(&h, &i, c); // < 2p
        let r0 = add_sub(&s2, &m.k[K64], &t.y, c); // < 66p
        let r = add(&r0, &r0, c); // < 132p
        let v = mul(&t.x, &i, c); // < 2p
        let v2 = add(&v, &v, c); // < 4p
        let x3 = add_sub(&add_sub(&sq(&r, c), &m.k[K8], &j, c), &c.zero_l(), &v2, c); // < 10p
        let vx = add_sub(&v, &m.k[K16], &x3, c); // < 18p
        let yj = mul(&t.y, &j, c); // < 2p
        let yj2 = add(&yj, &yj, c); // < 4p
        let y3 = add_sub(&mul(&r, &vx, c), &m.k[K4], &yj2, c); // < 6p
        let zh = add(&t.z, &h, c); // < 130p
        let z3 = add_sub(&add_sub(&sq(&zh, c), &m.k[K4], &z1z1, c), &c.zero_l(), &hh, c); // < 6p
        Jac { x: x3, y: y3, z: z3 }
    }

    /// t + q for Jacobian q (add-2007-bl, 11M + 5S); Z3 = 2 Z1 Z2 H as in [`madd`].
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn add_jac<const L: usize>(t: &Jac<L>, q: &Jac<L>, m: &Mults<L>, c: &Consts<L>) -> Jac<L> {
        let z1z1 = sq(&t.z, c);
        let z2z2 = sq(&q.z, c);
        let u1 = mul(&t.x, &z2z2, c);
        let u2 = mul(&q.x, &z1z1, c);
        let s1 = mul(&mul(&t.y, &q.z, c), &z2z2, c);
        let s2 = mul(&mul(&q.y, &t.z, c), &z1z1, c);
        let h = add_sub(&u2, &m.k[K2], &u1, c); // < 4p
        let h2 = add(&h, &h, c); // < 8p
        let i = sq(&h2, c); // < 2p
        let j = mul(&h, &i, c); // < 2p
        let r0 = add_sub(&s2, &m.k[K2], &s1, c); // < 4p
        let r = add(&r0, &r0, c); // < 8p
        let v = mul(&u1, &i, c); // < 2p
        let v2 = add(&v, &v, c); // < 4p
        let x3 = add_sub(&add_sub(&sq(&r, c), &m.k[K8], &j, c), &c.zero_l(), &v2, c); // < 10p
        let vx = add_sub(&v, &m.k[K16], &x3, c); // < 18p
        let sj = mul(&s1, &j, c);
        let sj2 = add(&sj, &sj, c); // < 4p
        let y3 = add_sub(&mul(&r, &vx, c), &m.k[K4], &sj2, c); // < 6p
        let zz = add(&t.z, &q.z, c); // < 128p
        let zs = add_sub(&add_sub(&sq(&zz, c), &m.k[K4], &z1z1, c), &c.zero_l(), &z2z2, c); // < 6p
        let z3 = mul(&zs, &h, c); // < 2p
        Jac { x: x3, y: y3, z: z3 }
    }

    /// x times a small public constant k (1 <= k <= 16) by doublings and additions: the
    /// bound of x grows k-fold, no product is taken.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn times_small<const L: usize>(x: &[V; L], k: u64, c: &Consts<L>) -> [V; L] {
        let top = 63 - k.leading_zeros();
        let mut r = *x;
        for bit in (0..top).rev() {
            r = add(&r, &r, c);
            if (k >> bit) & 1 == 1 {
                r = add(&r, x, c);
            }
        }
        r
    }

    /// Complete doubling in homogeneous projective coordinates (X : Y : Z), x = X/Z, y = Y/Z,
    /// on y^2 = x^3 + b with b3 = 3b <= 16 (Renes, Costello, Batina, "Complete addition
    /// formulas for prime order elliptic curves", ePrint 2015/1060, Algorithm 9: 6M + 2S and
    /// products by b3 as additions). Correct for every input, the identity (0 : 1 : 0)
    /// included; no branch. Inputs below 4p; outputs X, Y below 4p and Z below 2p.
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn dbl_complete<const L: usize>(t: &Jac<L>, b3: u64, k128: &[V; L], c: &Consts<L>) -> Jac<L> {
        let t0 = sq(&t.y, c); // < 2p
        let z8 = add(&t0, &t0, c);
        let z8 = add(&z8, &z8, c);
        let z8 = add(&z8, &z8, c); // < 16p
        let t1 = mul(&t.y, &t.z, c); // < 2p
        let t2 = times_small(&sq(&t.z, c), b3, c); // < 32p
        let x3 = mul(&t2, &z8, c); // < 2p
        let y3 = add(&t0, &t2, c); // < 34p
        let z3 = mul(&t1, &z8, c); // < 2p
        let t1 = add(&t2, &t2, c);
        let t2 = add(&t1, &t2, c); // < 96p
        let t0 = add_sub(&t0, k128, &t2, c); // < 130p
        let y3 = add(&x3, &mul(&t0, &y3, c), c); // < 4p
        let t1 = mul(&t.x, &t.y, c); // < 2p
        let x3 = mul(&t0, &t1, c);
        let x3 = add(&x3, &x3, c); // < 4p
        Jac { x: x3, y: y3, z: z3 }
    }

    /// Complete mixed addition (X1 : Y1 : Z1) + (x2, y2), homogeneous projective, for an affine
    /// point that is not the identity (ePrint 2015/1060, Algorithm 8: 11M and two products by
    /// b3 as additions). Correct for every first input, the identity and +-(x2, y2) included;
    /// no branch. Inputs: the projective point below 4p, the affine one below p; outputs
    /// below 4p.
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn madd_complete<const L: usize>(t: &Jac<L>, qx: &[V; L], qy: &[V; L], b3: u64, m: &Mults<L>, c: &Consts<L>) -> Jac<L> {
        let t0 = mul(&t.x, qx, c); // X1 x2 < 2p
        let t1 = mul(&t.y, qy, c); // Y1 y2 < 2p
        let t3 = mul(&add(qx, qy, c), &add(&t.x, &t.y, c), c); // < 2p
        let t3 = add_sub(&t3, &m.k[K4], &add(&t0, &t1, c), c); // X1 y2 + x2 Y1 < 6p
        let t4 = add(&mul(qy, &t.z, c), &t.y, c); // y2 Z1 + Y1 < 6p
        let y3 = add(&mul(qx, &t.z, c), &t.x, c); // x2 Z1 + X1 < 6p
        let x3 = add(&t0, &t0, c);
        let t0 = add(&x3, &t0, c); // 3 X1 x2 < 6p
        let t2 = times_small(&t.z, b3, c); // b3 Z1 < 64p
        let z3 = add(&t1, &t2, c); // < 66p
        let t1 = add_sub(&t1, &m.k[K64], &t2, c); // < 66p
        let y3 = times_small(&y3, b3, c); // < 96p
        let x3 = mul(&t4, &y3, c); // < 2p
        let t2 = mul(&t3, &t1, c); // < 2p
        let x3 = add_sub(&t2, &m.k[K2], &x3, c); // < 4p
        let y3 = mul(&y3, &t0, c); // < 2p
        let t1 = mul(&t1, &z3, c); // < 2p
        let y3 = add(&t1, &y3, c); // < 4p
        let t0 = mul(&t0, &t3, c); // < 2p
        let z3 = mul(&z3, &t4, c); // < 2p
        let z3 = add(&z3, &t0, c); // < 4p
        Jac { x: x3, y: y3, z: z3 }
    }

    /// The entry of one table picked by one secret digit per lane, in constant time: all eight
    /// entries are read and blended under masks from vector compares (no branch or address
    /// depends on a digit), then y negated under the digit's sign. `d` holds odd digits,
    /// |d| <= 15; entry e is (2e + 1) times the lane's point, x and y canonical.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn select_ct<const L: usize>(tx: &[Lanes<L>; 8], ty: &[Lanes<L>; 8], d: &[i64; 8], c: &Consts<L>) -> ([V; L], [V; L]) {
        // SAFETY: `d` is 64 readable bytes; the unaligned load needs no alignment.
        let dv = unsafe { _mm512_loadu_si512(d.as_ptr() as *const _) };
        let idx = _mm512_srli_epi64(_mm512_sub_epi64(_mm512_abs_epi64(dv), _mm512_set1_epi64(1)), 1);
        let neg = _mm512_cmplt_epi64_mask(dv, c.zero);
        let mut qx = [c.zero; L];
        let mut qy = [c.zero; L];
        for e in 0..8 {
            let hit = _mm512_cmpeq_epi64_mask(idx, _mm512_set1_epi64(e as i64));
            let (ex, ey) = (load(&tx[e]), load(&ty[e]));
            qx = blend(hit, &qx, &ex);
            qy = blend(hit, &qy, &ey);
        }
        let ny = add_sub(&c.zero_l(), &c.p, &qy, c);
        (qx, blend(neg, &qy, &ny))
    }

    /// Constant-time sum over `groups` groups of eight lanes, lane by lane: every lane's
    /// accumulator (homogeneous projective, from the identity) runs the windows from the top,
    /// four complete doublings and then, for every group and both streams (P, endo(P)), one
    /// complete mixed addition of the entry its digit picks ([`select_ct`]); `digits` is
    /// indexed ((window * groups) + group) * 2 + stream, `tables` (group * 2 + stream).
    /// Then each (group, stream) adds entry 0 with the sign of `fixes` in the lanes where that
    /// is non-zero (an addition computed in every lane and blended in: no branch). Every
    /// step is the same for every digit value. Writes X, Y, Z of the eight lane sums,
    /// canonical.
    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn straus_ct<const L: usize>(
        f: &Field52<L>,
        tx: &[[Lanes<L>; 8]],
        ty: &[[Lanes<L>; 8]],
        digits: &[[i64; 8]],
        fixes: &[[i64; 8]],
        windows: usize,
        b3: u64,
        out: &mut [Lanes<L>; 3],
    ) {
        let c = consts(f);
        let m = mults(f);
        let k128 = multiple(f, 128);
        let slots = tx.len();
        let mut acc = Jac { x: c.zero_l(), y: splat(&f.one), z: c.zero_l() };
        for w in (0..windows).rev() {
            if w != windows - 1 {
                for _ in 0..4 {
                    acc = dbl_complete(&acc, b3, &k128, &c);
                }
            }
            for k in 0..slots {
                let (qx, qy) = select_ct(&tx[k], &ty[k], &digits[w * slots + k], &c);
                acc = madd_complete(&acc, &qx, &qy, b3, &m, &c);
            }
        }
        for k in 0..slots {
            // SAFETY: `fixes[k]` is 64 readable bytes.
            let fv = unsafe { _mm512_loadu_si512(fixes[k].as_ptr() as *const _) };
            let live = _mm512_cmpneq_epi64_mask(fv, c.zero);
            // entry 0 (the point itself: a public index), negated under the fix's sign
            let (qx, y) = (load(&tx[k][0]), load(&ty[k][0]));
            let qy = blend(_mm512_cmplt_epi64_mask(fv, c.zero), &y, &add_sub(&c.zero_l(), &c.p, &y, &c));
            let s = madd_complete(&acc, &qx, &qy, b3, &m, &c);
            acc = Jac { x: blend(live, &acc.x, &s.x), y: blend(live, &acc.y, &s.y), z: blend(live, &acc.z, &s.z) };
        }
        store(&canonical(&acc.x, &m, &c), &mut out[0]);
        store(&canonical(&acc.y, &m, &c), &mut out[1]);
        store(&canonical(&acc.z, &m, &c), &mut out[2]);
    }

    /// The BLS12-381 G1 subgroup test phi(P) = -[z^2] P on eight lanes: [|z|] P by
    /// double-and-add with mixed additions, [|z|] of that with Jacobian additions, then
    /// X = beta x Z^2 and Y = -y Z^3. Returns (passed, exceptional): lanes whose final Z is 0
    /// (an addition met equal or opposite points, impossible for subgroup points since every
    /// multiple taken is below r) are exceptional and must be decided by the scalar test.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn g1_endo_test<const L: usize>(f: &Field52<L>, x: &Lanes<L>, y: &Lanes<L>, beta: &[u64; L], z_abs: u64) -> (u8, u8) {
        let c = consts(f);
        let m = mults(f);
        let one = splat(&f.one);
        let (px, py) = (load(x), load(y));
        let top = 63 - z_abs.leading_zeros();
        let mut t = Jac { x: px, y: py, z: one };
        for i in (0..top).rev() {
            t = dbl(&t, &m, &c);
            if (z_abs >> i) & 1 == 1 {
                t = madd(&t, &px, &py, &m, &c);
            }
        }
        let zp = t;
        for i in (0..top).rev() {
            t = dbl(&t, &m, &c);
            if (z_abs >> i) & 1 == 1 {
                t = add_jac(&t, &zp, &m, &c);
            }
        }
        let z2 = sq(&t.z, &c);
        let z3 = mul(&z2, &t.z, &c);
        let bx = mul(&splat(beta), &px, &c);
        let rx = mul(&bx, &z2, &c); // < 2p
        let ex = canonical(&add_sub(&t.x, &m.k[K2], &rx, &c), &m, &c); // t.x < 26p: sum < 28p
        let ry = mul(&py, &z3, &c); // < 2p
        let ey = canonical(&add(&t.y, &ry, &c), &m, &c); // < 20p
        let zc = canonical(&t.z, &m, &c);
        let exceptional = is_zero(&zc, &c);
        let passed = is_zero(&ex, &c) & is_zero(&ey, &c) & !exceptional;
        (passed, exceptional)
    }

    /// The multiples of p the point formulas use, every lane.
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn mults<const L: usize>(f: &Field52<L>) -> Mults<L> {
        let mut k = [[_mm512_setzero_si512(); L]; 8];
        for (i, v) in k.iter_mut().enumerate() {
            *v = multiple(f, MULTS[i]);
        }
        Mults { k }
    }

    /// a in the lanes whose bit of `m` is clear, b in the others.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn blend<const L: usize>(m: __mmask8, a: &[V; L], b: &[V; L]) -> [V; L] {
        let mut r = *a;
        for j in 0..L {
            r[j] = _mm512_mask_blend_epi64(m, a[j], b[j]);
        }
        r
    }

    /// P, 3P, 5P, ..., 15P of eight affine points (canonical coordinates, none the identity,
    /// each of order above 15), Jacobian, every coordinate below 26p: out[e] = (2e + 1) P as
    /// (X, Y, Z). Seven doublings and seven mixed additions: (2e + 1) P = 2 (e P) + P, with
    /// 2e P the doubling of e P (even e: the doubling chain 2P, 4P, 8P; odd e: an odd entry).
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn odd_multiples<const L: usize>(f: &Field52<L>, x: &Lanes<L>, y: &Lanes<L>, out: &mut [[Lanes<L>; 3]; 8]) {
        let c = consts(f);
        let m = mults(f);
        let (px, py) = (load(x), load(y));
        let p = Jac { x: px, y: py, z: splat(&f.one) };
        // all[k] = k P for k = 1..=15 as they are formed
        let mut all = [p; 16];
        for k in 2..16 {
            all[k] = if k % 2 == 0 { dbl(&all[k / 2], &m, &c) } else { madd(&all[k - 1], &px, &py, &m, &c) };
        }
        for e in 0..8 {
            let t = &all[2 * e + 1];
            store(&t.x, &mut out[e][0]);
            store(&t.y, &mut out[e][1]);
            store(&t.z, &mut out[e][2]);
        }
    }

    /// The affine tables of [`straus_ct`] from the Jacobian odd multiples of
    /// [`odd_multiples`] (one entry array per group of eight points), normalised on the lanes
    /// with Montgomery's trick over two interleaved chains and one call of `invert_lanes` for
    /// the sixteen chain products: tx/ty[2g][e] = (x, y) of entry e of group g, and
    /// tx/ty[2g + 1][e] = (beta x, y), the image under the endomorphism (x, y) -> (beta x, y);
    /// canonical. Variable time (public points); no Z may be 0.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn normalize_tables<const L: usize>(
        f: &Field52<L>,
        jac: &[[[Lanes<L>; 3]; 8]],
        beta: &[u64; L],
        tx: &mut [[Lanes<L>; 8]],
        ty: &mut [[Lanes<L>; 8]],
        invert_lanes: &mut dyn FnMut(&mut [Lanes<L>; 2]),
    ) {
        let c = consts(f);
        let one = splat(&f.one);
        let bv = splat(beta);
        let n = jac.len() * 8;
        let mut prefix: Vec<[V; L]> = Vec::with_capacity(n);
        let mut acc = [one, one];
        for k in 0..n {
            let z = load(&jac[k / 8][k % 8][2]);
            prefix.push(acc[k & 1]);
            acc[k & 1] = mul(&acc[k & 1], &z, &c);
        }
        let mut lanes: [Lanes<L>; 2] = [[[0u64; 8]; L]; 2];
        for h in 0..2 {
            store(&reduce_2p(&acc[h], &c), &mut lanes[h]);
        }
        invert_lanes(&mut lanes);
        let mut inv = [load(&lanes[0]), load(&lanes[1])];
        for k in (0..n).rev() {
            let (g, e) = (k / 8, k % 8);
            let t = &jac[g][e];
            let zinv = mul(&inv[k & 1], &prefix[k], &c);
            inv[k & 1] = mul(&inv[k & 1], &load(&t[2]), &c);
            let zinv2 = sq(&zinv, &c);
            let x = reduce_2p(&mul(&load(&t[0]), &zinv2, &c), &c);
            let y = reduce_2p(&mul(&mul(&load(&t[1]), &zinv2, &c), &zinv, &c), &c);
            let bx = reduce_2p(&mul(&bv, &x, &c), &c);
            store(&x, &mut tx[2 * g][e]);
            store(&y, &mut ty[2 * g][e]);
            store(&bx, &mut tx[2 * g + 1][e]);
            store(&y, &mut ty[2 * g + 1][e]);
        }
    }

    /// Affine odd multiples of eight points for [`ladder`]: stream s (0: P, 1: endo(P)),
    /// lane, entry e = (|d| - 1) / 2 for a digit d; x, y and -y canonical, 52-bit form.
    pub(super) struct LaneTable<const L: usize> {
        pub(super) x: [[[[u64; L]; 8]; 8]; 2],
        pub(super) y: [[[[u64; L]; 8]; 8]; 2],
        pub(super) ny: [[[[u64; L]; 8]; 8]; 2],
    }

    /// The entries of stream `s` picked by one digit per lane (odd, |d| <= 15), lane order.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn gather<const L: usize>(t: &LaneTable<L>, s: usize, d: &[i8; 8]) -> ([V; L], [V; L]) {
        let mut gx = [[0u64; 8]; L];
        let mut gy = [[0u64; 8]; L];
        for lane in 0..8 {
            let e = (d[lane].unsigned_abs() as usize - 1) >> 1;
            let ys = if d[lane] < 0 { &t.ny[s][lane][e] } else { &t.y[s][lane][e] };
            for j in 0..L {
                gx[j][lane] = t.x[s][lane][e][j];
                gy[j][lane] = ys[j];
            }
        }
        (load(&gx), load(&gy))
    }

    /// Eight variable-time scalar multiplications, one per lane: sum over t of
    /// 16^t (d[t][0] P + d[t][1] endo(P)) with the regular digits d (odd, |d| <= 15, the signs
    /// of the GLV parts folded in), then the lanes set in `fix[s]` add the entry +-1 of stream
    /// s given by `fix_d[s]` (the correction of a part made odd). The result is Jacobian in
    /// `out` (X, Y, Z, canonical). Returns the lanes whose Z is 0: an addition met equal or
    /// opposite points (or the result is the identity); the caller redoes those.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn ladder<const L: usize>(
        f: &Field52<L>,
        t: &LaneTable<L>,
        d: &[[[i8; 8]; 2]],
        fix: [u8; 2],
        fix_d: &[[i8; 8]; 2],
        out: &mut [Lanes<L>; 3],
    ) -> u8 {
        let c = consts(f);
        let m = mults(f);
        let top = d.len() - 1;
        let (ax, ay) = gather(t, 0, &d[top][0]);
        let mut acc = Jac { x: ax, y: ay, z: splat(&f.one) };
        let (bx, by) = gather(t, 1, &d[top][1]);
        acc = madd(&acc, &bx, &by, &m, &c);
        for w in (0..top).rev() {
            for _ in 0..4 {
                acc = dbl(&acc, &m, &c);
            }
            for s in 0..2 {
                let (qx, qy) = gather(t, s, &d[w][s]);
                acc = madd(&acc, &qx, &qy, &m, &c);
            }
        }
        for s in 0..2 {
            if fix[s] != 0 {
                let (qx, qy) = gather(t, s, &fix_d[s]);
                let sum = madd(&acc, &qx, &qy, &m, &c);
                acc = Jac { x: blend(fix[s], &acc.x, &sum.x), y: blend(fix[s], &acc.y, &sum.y), z: blend(fix[s], &acc.z, &sum.z) };
            }
        }
        let zc = canonical(&acc.z, &m, &c);
        let x = canonical(&acc.x, &m, &c);
        let y = canonical(&acc.y, &m, &c);
        store(&x, &mut out[0]);
        store(&y, &mut out[1]);
        store(&zc, &mut out[2]);
        is_zero(&zc, &c)
    }

    /// The running sums of one bucket range split into eight segments, one per lane: lane s
    /// walks buckets base + s m + i for i = m - 1 down to 0 (52-bit x, y below 2p; `occupied`
    /// says which hold a point) and ends with T_s = sum_i (i + 1) B and R_s = sum_i B in
    /// `out` (T's X, Y, Z, then R's, canonical). Returns (lanes whose R ever held a point,
    /// lanes whose result must be redone one by one: a Z of 0 at the end, left by an addition
    /// of equal or opposite points or by a sum that is the identity).
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn running_lanes<const L: usize>(
        f: &Field52<L>,
        x: &[[u64; L]],
        y: &[[u64; L]],
        occupied: &[bool],
        base: usize,
        m: usize,
        out: &mut [Lanes<L>; 6],
    ) -> (u8, u8) {
        let c = consts(f);
        let mk = mults(f);
        let one = splat(&f.one);
        let mut r = Jac { x: c.zero_l(), y: c.zero_l(), z: one };
        let mut t = r;
        let (mut r_live, mut t_live) = (0u8, 0u8);
        let mut gx = [[0u64; 8]; L];
        let mut gy = [[0u64; 8]; L];
        for i in (0..m).rev() {
            let mut occ = 0u8;
            for lane in 0..8 {
                let b = base + lane * m + i;
                if occupied[b] {
                    occ |= 1 << lane;
                    for j in 0..L {
                        gx[j][lane] = x[b][j];
                        gy[j][lane] = y[b][j];
                    }
                }
            }
            if occ != 0 {
                let (bx, by) = (load(&gx), load(&gy));
                let add = occ & r_live;
                if add != 0 {
                    let s = madd(&r, &bx, &by, &mk, &c);
                    r = Jac { x: blend(add, &r.x, &s.x), y: blend(add, &r.y, &s.y), z: blend(add, &r.z, &s.z) };
                }
                let first = occ & !r_live;
                if first != 0 {
                    r = Jac { x: blend(first, &r.x, &bx), y: blend(first, &r.y, &by), z: blend(first, &r.z, &one) };
                    r_live |= first;
                }
            }
            let add = r_live & t_live;
            if add != 0 {
                let s = add_jac(&t, &r, &mk, &c);
                t = Jac { x: blend(add, &t.x, &s.x), y: blend(add, &t.y, &s.y), z: blend(add, &t.z, &s.z) };
            }
            let first = r_live & !t_live;
            if first != 0 {
                t = Jac { x: blend(first, &t.x, &r.x), y: blend(first, &t.y, &r.y), z: blend(first, &t.z, &r.z) };
                t_live |= first;
            }
        }
        let (tz, rz) = (canonical(&t.z, &mk, &c), canonical(&r.z, &mk, &c));
        let bad = (is_zero(&tz, &c) | is_zero(&rz, &c)) & r_live;
        let coords = [canonical(&t.x, &mk, &c), canonical(&t.y, &mk, &c), tz, canonical(&r.x, &mk, &c), canonical(&r.y, &mk, &c), rz];
        for (o, v) in out.iter_mut().zip(coords.iter()) {
            store(v, o);
        }
        (r_live, bad)
    }

    /// x^e for eight lane values (52-bit form, below 2p) by a sliding window over e: `start`
    /// is the first window's odd value, then each step squares `ops[i].0` times and multiplies
    /// by x^(ops[i].1) (odd, below 32; 0 for none). Canonical output.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn pow_lanes<const L: usize>(f: &Field52<L>, x: &Lanes<L>, start: u8, ops: &[(u32, u8)], out: &mut Lanes<L>) {
        let c = consts(f);
        let x = load(x);
        let x2 = sq(&x, &c);
        // odd powers x, x^3, ..., x^31
        let mut odd = [x; 16];
        for k in 1..16 {
            odd[k] = mul(&odd[k - 1], &x2, &c);
        }
        let mut acc = odd[(start as usize) >> 1];
        for &(squarings, v) in ops {
            for _ in 0..squarings {
                acc = sq(&acc, &c);
            }
            if v != 0 {
                acc = mul(&acc, &odd[(v as usize) >> 1], &c);
            }
        }
        store(&reduce_2p(&acc, &c), out);
    }

    impl<const L: usize> Consts<L> {
        #[inline(always)]
        fn zero_l(&self) -> [V; L] {
            [self.zero; L]
        }
    }
}

/// The 52-bit forms of the bases of one MSM (converted once, read by every window).
pub(crate) struct Bases52<const L: usize> {
    pub(crate) f: Field52<L>,
    pub(crate) pts: Vec<Point52<L>>,
}

impl<const L: usize> Bases52<L> {
    /// Convert every base (identities become zeros and are never read); in parallel chunks on
    /// the current rayon pool when `parallel`, else on the calling thread.
    pub(crate) fn new<C: CurveConfig>(f: Field52<L>, points: &[Affine<C>], parallel: bool) -> Self {
        use rayon::prelude::*;
        const CHUNK: usize = 4096;
        if parallel && points.len() > CHUNK {
            let parts: Vec<Vec<Point52<L>>> = points.par_chunks(CHUNK).map(|c| Self::convert(&f, c)).collect();
            return Self { pts: parts.concat(), f };
        }
        let pts = Self::convert(&f, points);
        Self { f, pts }
    }

    fn convert<C: CurveConfig>(f: &Field52<L>, points: &[Affine<C>]) -> Vec<Point52<L>> {
        let n = points.len();
        let groups = n.div_ceil(8);
        let mut xs = vec![[[0u64; 8]; L]; groups];
        let mut ys = vec![[[0u64; 8]; L]; groups];
        for (i, p) in points.iter().enumerate() {
            if bool::from(p.is_identity()) {
                continue;
            }
            let (x, y) = (p.x().to_mont_u64s(), p.y().to_mont_u64s());
            let (Some(x), Some(y)) = (x, y) else { continue };
            let (x, y) = (to52::<L>(&x[..f.n64]), to52::<L>(&y[..f.n64]));
            for j in 0..L {
                xs[i / 8][j][i % 8] = x[j];
                ys[i / 8][j][i % 8] = y[j];
            }
        }
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: `Field52::for_field` returned `f` only after `available()` saw AVX-512F
            // and AVX-512 IFMA on this CPU.
            unsafe {
                simd::mul_const_all(&mut xs, &f.k_in, f);
                simd::mul_const_all(&mut ys, &f.k_in, f);
            }
        }
        let mut pts = Vec::with_capacity(n);
        for i in 0..n {
            let x = core::array::from_fn(|j| xs[i / 8][j][i % 8]);
            let y = core::array::from_fn(|j| ys[i / 8][j][i % 8]);
            pts.push(Point52 { x, y });
        }
        pts
    }
}

/// The fewest buckets per sum whose running sums go to the lanes (eight segments of at least 8;
/// the count must be a power of two, as every window's is).
const RUNNING_LANES_MIN: usize = 64;

static RUNNING_SUM_LANES: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(true);

/// Whether the IFMA bucket accumulator takes its running sums (the bucket reduction
/// sum_b b B_b) on lanes, eight segments of a window's buckets at once, for eight-limb fields
/// (BLS12-381) with at least 64 buckets per sum (`true`, the default), or one bucket at a time
/// in the 64-bit field (`false`). Process-wide; both give the same sums.
pub fn set_running_sum_lanes(on: bool) {
    RUNNING_SUM_LANES.store(on, core::sync::atomic::Ordering::Relaxed);
}

/// The current [`set_running_sum_lanes`] setting.
pub fn running_sum_lanes() -> bool {
    RUNNING_SUM_LANES.load(core::sync::atomic::Ordering::Relaxed)
}

/// Whether MSMs over this base field take their running sums on lanes: the switch is on, the
/// CPU has AVX-512 IFMA and the field fits eight 52-bit limbs (`MsmConfig::for_curve` widens
/// its windows then).
pub fn running_lanes_apply<F: CurveField>() -> bool {
    running_sum_lanes() && Field52::<8>::for_field::<F>().is_some()
}

/// A batch of S additions defers at most S / DEFER_DIVISOR points whose bucket it already
/// holds to the next batch (the rest take an XYZZ overflow addition, which costs about four
/// lane additions here).
const DEFER_DIVISOR: usize = 4;

/// The 52-bit batch-affine accumulator (the IFMA counterpart of `batch_affine::Accumulator`).
struct Acc52<'a, C: CurveConfig, const L: usize> {
    f: &'a Field52<L>,
    /// The bases in the 52-bit form and as given (same indices).
    pts: &'a [Point52<L>],
    points: &'a [Affine<C>],
    x: Vec<[u64; L]>,
    y: Vec<[u64; L]>,
    occupied: Vec<bool>,
    mark: Vec<u32>,
    overflow: Vec<Xyzz<C>>,
    overflow_used: Vec<bool>,
    epoch: u32,
    batch: usize,
    pend_b: Vec<u32>,
    bx: Vec<Lanes<L>>,
    by: Vec<Lanes<L>>,
    qx: Vec<Lanes<L>>,
    qy: Vec<Lanes<L>>,
    neg: Vec<u8>,
    /// Points whose bucket was already in the batch, retried after the next flush (base index,
    /// digit); at most `defer_cap`, the rest go to the overflow accumulators.
    deferred: Vec<(u32, u32, i16)>,
    defer_cap: usize,
    /// 2^(2(52L - 64N)) as an element of the 64-bit field (`invert_lanes_64`), formed once.
    lane_fix: C::Base,
    #[cfg(target_arch = "x86_64")]
    scratch: [Vec<[core::arch::x86_64::__m512i; L]>; 3],
}

impl<'a, C: CurveConfig, const L: usize> Acc52<'a, C, L> {
    fn new(f: &'a Field52<L>, pts: &'a [Point52<L>], points: &'a [Affine<C>], nb: usize, batch: usize) -> Self {
        let batch = batch.max(1);
        let groups = batch.div_ceil(8);
        Self {
            f,
            pts,
            points,
            x: vec![[0u64; L]; nb],
            y: vec![[0u64; L]; nb],
            occupied: vec![false; nb],
            mark: vec![u32::MAX; nb],
            overflow: vec![Xyzz::IDENTITY; nb],
            overflow_used: vec![false; nb],
            epoch: 0,
            batch,
            pend_b: Vec::with_capacity(batch),
            bx: vec![[[0u64; 8]; L]; groups],
            by: vec![[[0u64; 8]; L]; groups],
            qx: vec![[[0u64; 8]; L]; groups],
            qy: vec![[[0u64; 8]; L]; groups],
            neg: vec![0u8; groups],
            deferred: Vec::with_capacity(batch / DEFER_DIVISOR + 1),
            defer_cap: batch / DEFER_DIVISOR,
            lane_fix: (0..f.lane_fix_doublings).fold(C::Base::ONE, |x, _| x.double()),
            #[cfg(target_arch = "x86_64")]
            scratch: [Vec::with_capacity(groups), Vec::with_capacity(groups), Vec::with_capacity(groups)],
        }
    }

    /// Add base `i` (negated when d < 0) to bucket base + |d| - 1; nothing for d = 0 or the
    /// identity.
    #[inline]
    fn push_digit(&mut self, base: usize, i: usize, d: i16) {
        if d == 0 || bool::from(self.points[i].is_identity()) {
            return;
        }
        let neg = d < 0;
        let b = base + (d as i32).unsigned_abs() as usize - 1;
        let q = &self.pts[i];
        if !self.occupied[b] {
            self.x[b] = q.x;
            self.y[b] = if neg { neg52(&q.y, &self.f.p) } else { q.y };
            self.occupied[b] = true;
            return;
        }
        if self.mark[b] == self.epoch && self.deferred.len() < self.defer_cap {
            // bucket already in this batch: retry after the flush
            self.deferred.push((base as u32, i as u32, d));
            return;
        }
        if self.mark[b] == self.epoch || self.x[b] == q.x {
            // bucket already in this batch and the retry queue full, or the same x (doubling
            // or cancellation)
            let p = if neg { -self.points[i] } else { self.points[i] };
            self.overflow[b] = self.overflow[b].add_mixed_vartime(&p);
            self.overflow_used[b] = true;
            return;
        }
        self.mark[b] = self.epoch;
        let k = self.pend_b.len();
        let (g, lane) = (k / 8, k % 8);
        for j in 0..L {
            self.bx[g][j][lane] = self.x[b][j];
            self.by[g][j][lane] = self.y[b][j];
            self.qx[g][j][lane] = q.x[j];
            self.qy[g][j][lane] = q.y[j];
        }
        if lane == 0 {
            self.neg[g] = 0;
        }
        self.neg[g] |= (neg as u8) << lane;
        self.pend_b.push(b as u32);
        if self.pend_b.len() == self.batch {
            self.flush();
            self.retry_deferred();
        }
    }

    /// Push the deferred points again (after a flush; fewer than a batch, so no flush nests).
    fn retry_deferred(&mut self) {
        let retry = std::mem::take(&mut self.deferred);
        for &(base, i, d) in &retry {
            self.push_digit(base as usize, i as usize, d);
        }
        // keep the allocation for the next round
        let mut retry = retry;
        retry.clear();
        if self.deferred.is_empty() {
            self.deferred = retry;
        }
    }

    /// Flush until nothing is pending or deferred (each round places at least the first
    /// deferred point: its bucket is unmarked after a flush).
    fn finish(&mut self) {
        loop {
            self.flush();
            if self.deferred.is_empty() {
                return;
            }
            self.retry_deferred();
        }
    }

    /// Apply the pending additions: eight lanes at a time, one scalar inversion.
    fn flush(&mut self) {
        let n = self.pend_b.len();
        if n > 0 {
            let groups = n.div_ceil(8);
            // pad the last group with harmless lanes: bucket (0, 0), point (1, 0)
            for k in n..groups * 8 {
                let (g, lane) = (k / 8, k % 8);
                for j in 0..L {
                    self.bx[g][j][lane] = 0;
                    self.by[g][j][lane] = 0;
                    self.qx[g][j][lane] = 0;
                    self.qy[g][j][lane] = 0;
                }
                self.qx[g][0][lane] = 1;
            }
            #[cfg(target_arch = "x86_64")]
            {
                let f = self.f;
                let fix = self.lane_fix;
                let mut invert_lanes = |lanes: &mut [Lanes<L>; 2]| invert_lanes_64::<C, L>(lanes, fix);
                let [num, den, prefix] = &mut self.scratch;
                // SAFETY: the accumulator exists only with a `Field52` from `for_field`, which
                // checked AVX-512F and AVX-512 IFMA on this CPU.
                unsafe {
                    simd::add_batch(
                        f,
                        &mut self.bx[..groups],
                        &mut self.by[..groups],
                        &self.qx[..groups],
                        &self.qy[..groups],
                        &self.neg[..groups],
                        num,
                        den,
                        prefix,
                        &mut invert_lanes,
                    );
                }
            }
            for k in 0..n {
                let (g, lane) = (k / 8, k % 8);
                let b = self.pend_b[k] as usize;
                for j in 0..L {
                    self.x[b][j] = self.bx[g][j][lane];
                    self.y[b][j] = self.by[g][j][lane];
                }
            }
            self.pend_b.clear();
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == u32::MAX {
            self.mark.iter_mut().for_each(|m| *m = u32::MAX - 1);
            self.epoch = 0;
        }
    }

    /// For each run of `nb` buckets (sum j: buckets j nb .. (j + 1) nb), sum_b (b + 1)
    /// bucket_b by running sums, the buckets converted back to `C::Base`.
    fn running_sums(&self, nb_each: usize) -> Vec<Xyzz<C>> {
        #[cfg(target_arch = "x86_64")]
        if L == 8 && nb_each >= RUNNING_LANES_MIN && nb_each.is_power_of_two() && running_sum_lanes() {
            return self.running_sums_lanes(nb_each);
        }
        self.running_sums_scalar(nb_each)
    }

    /// [`Acc52::running_sums`] on lanes (eight-limb fields only: the point formulas' lazy bounds
    /// need the headroom): each sum's buckets cut into eight segments of m = nb_each / 8, one
    /// per lane, which give T_s = sum_i (i + 1) B_(s m + i) and R_s = sum_i B_(s m + i); then
    /// sum_b (b + 1) B_b = sum_s T_s + m sum_s s R_s (the second sum by a running sum over the
    /// eight R_s, then log2 m doublings). Overflow accumulators are folded into their buckets
    /// first (normalised together); a lane that met an exceptional addition is redone by the
    /// scalar loop over its segment.
    #[cfg(target_arch = "x86_64")]
    fn running_sums_lanes(&self, nb_each: usize) -> Vec<Xyzz<C>> {
        let nb = self.x.len();
        let f = self.f;
        let m = nb_each / 8;
        let folded;
        let (x, y, occupied): (&[[u64; L]], &[[u64; L]], &[bool]) = if self.overflow_used.iter().any(|&u| u) {
            folded = self.fold_overflows();
            (&folded.0, &folded.1, &folded.2)
        } else {
            (&self.x, &self.y, &self.occupied)
        };
        let to64 = |v: &mut Lanes<L>| {
            // SAFETY: `f` exists only where AVX-512F and IFMA were detected.
            unsafe { simd::mul_const_all(core::slice::from_mut(v), &f.k_out, f) }
        };
        let mut sums = Vec::with_capacity(nb / nb_each);
        for j in 0..nb / nb_each {
            let base = j * nb_each;
            let mut out = [[[0u64; 8]; L]; 6];
            // SAFETY: as above.
            let (live, bad) = unsafe { simd::running_lanes(f, x, y, occupied, base, m, &mut out) };
            for o in out.iter_mut() {
                to64(o);
            }
            let coord = |k: usize, lane: usize| {
                let l: [u64; L] = core::array::from_fn(|i| out[k][i][lane]);
                C::Base::from_mont_u64s(&from52(&l)).unwrap_or(C::Base::ZERO)
            };
            let mut ts = [Jacobian::<C>::IDENTITY; 8];
            let mut rs = [Jacobian::<C>::IDENTITY; 8];
            for lane in 0..8 {
                if (live >> lane) & 1 == 0 {
                    continue;
                }
                if (bad >> lane) & 1 == 1 {
                    let (t, r) = self.segment_scalar(x, y, occupied, base + lane * m, m);
                    ts[lane] = t;
                    rs[lane] = r;
                } else {
                    ts[lane] = Jacobian::from_xyz_unchecked(coord(0, lane), coord(1, lane), coord(2, lane));
                    rs[lane] = Jacobian::from_xyz_unchecked(coord(3, lane), coord(4, lane), coord(5, lane));
                }
            }
            // sum_s T_s + m sum_s s R_s
            let mut total = ts.iter().fold(Jacobian::<C>::IDENTITY, |a, t| a.add_vartime(t));
            let (mut run, mut weighted) = (Jacobian::<C>::IDENTITY, Jacobian::<C>::IDENTITY);
            for s in (1..8).rev() {
                run = run.add_vartime(&rs[s]);
                weighted = weighted.add_vartime(&run);
            }
            for _ in 0..m.trailing_zeros() {
                weighted = weighted.double();
            }
            total = total.add_vartime(&weighted);
            sums.push(total.to_xyzz());
        }
        sums
    }

    /// One segment of [`Acc52::running_sums_lanes`] in the 64-bit field: (T, R).
    #[cfg(target_arch = "x86_64")]
    fn segment_scalar(&self, x: &[[u64; L]], y: &[[u64; L]], occupied: &[bool], start: usize, m: usize) -> (Jacobian<C>, Jacobian<C>) {
        let (mut run, mut sum) = (Xyzz::<C>::IDENTITY, Xyzz::<C>::IDENTITY);
        for b in (start..start + m).rev() {
            if occupied[b] {
                run = run.add_mixed_vartime(&self.bucket_point(&x[b], &y[b]));
            }
            sum = sum.add_vartime(&run);
        }
        (sum.to_jacobian(), run.to_jacobian())
    }

    /// One bucket's 52-bit (x, y) as an affine point of `C` (the fallbacks' one-off conversion).
    #[cfg(target_arch = "x86_64")]
    fn bucket_point(&self, x: &[u64; L], y: &[u64; L]) -> Affine<C> {
        let (mut xs, mut ys) = ([[0u64; 8]; L], [[0u64; 8]; L]);
        for j in 0..L {
            xs[j][0] = x[j];
            ys[j][0] = y[j];
        }
        // SAFETY: as in `running_sums_lanes`.
        unsafe {
            simd::mul_const_all(core::slice::from_mut(&mut xs), &self.f.k_out, self.f);
            simd::mul_const_all(core::slice::from_mut(&mut ys), &self.f.k_out, self.f);
        }
        let back = |v: &Lanes<L>| C::Base::from_mont_u64s(&from52(&core::array::from_fn::<u64, L, _>(|j| v[j][0]))).unwrap_or(C::Base::ZERO);
        Affine::new_unchecked(back(&xs), back(&ys))
    }

    /// The buckets with their overflow accumulators added in (x, y in the 52-bit form, occupied).
    #[cfg(target_arch = "x86_64")]
    fn fold_overflows(&self) -> (Vec<[u64; L]>, Vec<[u64; L]>, Vec<bool>) {
        let (mut x, mut y, mut occupied) = (self.x.clone(), self.y.clone(), self.occupied.clone());
        let used: Vec<usize> = (0..x.len()).filter(|&b| self.overflow_used[b]).collect();
        let mut sums = Vec::with_capacity(used.len());
        for &b in &used {
            let mut s = self.overflow[b];
            if self.occupied[b] {
                s = s.add_mixed_vartime(&self.bucket_point(&self.x[b], &self.y[b]));
            }
            sums.push(s.to_jacobian());
        }
        let affine = Jacobian::batch_to_affine_vartime(&sums);
        let conv = Bases52::<L>::convert::<C>(self.f, &affine);
        for (k, &b) in used.iter().enumerate() {
            occupied[b] = !bool::from(affine[k].is_identity());
            x[b] = conv[k].x;
            y[b] = conv[k].y;
        }
        (x, y, occupied)
    }

    fn running_sums_scalar(&self, nb_each: usize) -> Vec<Xyzz<C>> {
        let nb = self.x.len();
        let f = self.f;
        let groups = nb.div_ceil(8);
        let mut xs = vec![[[0u64; 8]; L]; groups];
        let mut ys = vec![[[0u64; 8]; L]; groups];
        for b in 0..nb {
            for j in 0..L {
                xs[b / 8][j][b % 8] = self.x[b][j];
                ys[b / 8][j][b % 8] = self.y[b][j];
            }
        }
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: as in `flush`.
            unsafe {
                simd::mul_const_all(&mut xs, &f.k_out, f);
                simd::mul_const_all(&mut ys, &f.k_out, f);
            }
        }
        let back = |v: &[Lanes<L>], b: usize| {
            let l: [u64; L] = core::array::from_fn(|j| v[b / 8][j][b % 8]);
            C::Base::from_mont_u64s(&from52(&l)).unwrap_or(C::Base::ZERO)
        };
        let mut sums = Vec::with_capacity(nb / nb_each);
        for j in 0..nb / nb_each {
            let mut running = Xyzz::IDENTITY;
            let mut sum = Xyzz::IDENTITY;
            for b in (j * nb_each..(j + 1) * nb_each).rev() {
                if self.occupied[b] {
                    running = running.add_mixed_vartime(&Affine::new_unchecked(back(&xs, b), back(&ys, b)));
                }
                if self.overflow_used[b] {
                    running = running.add_vartime(&self.overflow[b]);
                }
                sum = sum.add_vartime(&running);
            }
            sums.push(sum);
        }
        sums
    }
}

/// Whether each BLS12-381 G1 point (each on the curve, as every decoder and constructor
/// ensures) lies in the prime-order subgroup: the endomorphism test of
/// `G1Config::is_torsion_free_vartime` (phi(P) = -[z^2] P), eight points at a time on the IFMA
/// lanes when the CPU has them, else one at a time; a lane that meets an exceptional addition
/// (only possible off the subgroup) is decided by the scalar test. Variable time: for public
/// points (proofs, precompile inputs, setups). The identity is in the subgroup.
///
/// ```
/// use zkforge_curve::bls12_381::G1Affine;
/// let g = G1Affine::generator();
/// assert_eq!(zkforge_msm::ifma::bls12_381_g1_in_subgroup_vartime(&[g, G1Affine::IDENTITY]), vec![true, true]);
/// ```
pub fn bls12_381_g1_in_subgroup_vartime(points: &[zkforge_curve::bls12_381::G1Affine]) -> Vec<bool> {
    g1_subgroup_lanes(points).0
}

/// [`bls12_381_g1_in_subgroup_vartime`] with the number of points the lanes decided (the rest
/// went to the scalar test).
fn g1_subgroup_lanes(points: &[zkforge_curve::bls12_381::G1Affine]) -> (Vec<bool>, usize) {
    use zkforge_curve::bls12_381::{G1Config, BETA, Z_ABS};
    use zkforge_field::bls12_381::Fp;
    let Some(f) = Field52::<8>::for_field::<Fp>() else {
        return (points.iter().map(|p| p.is_in_subgroup()).collect(), 0);
    };
    let mut by_lanes = 0;
    let pts = Bases52::<8>::convert::<G1Config>(&f, points);
    let beta = {
        let mut l = vec![[[0u64; 8]; 8]; 1];
        let b = to52::<8>(&BETA.to_mont_u64s().unwrap_or([0; 8])[..f.n64]);
        for j in 0..8 {
            l[0][j][0] = b[j];
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `f` exists only where AVX-512F and IFMA were detected.
        unsafe {
            simd::mul_const_all(&mut l, &f.k_in, &f)
        };
        let out: [u64; 8] = core::array::from_fn(|j| l[0][j][0]);
        out
    };
    let mut out = Vec::with_capacity(points.len());
    for (chunk, p52) in points.chunks(8).zip(pts.chunks(8)) {
        if chunk.len() < LANES_WORTH_IT {
            // a group of eight lanes costs about three scalar tests
            out.extend(chunk.iter().map(|p| p.is_in_subgroup()));
            continue;
        }
        let mut x = [[0u64; 8]; 8];
        let mut y = [[0u64; 8]; 8];
        for (lane, q) in p52.iter().enumerate() {
            for j in 0..8 {
                x[j][lane] = q.x[j];
                y[j][lane] = q.y[j];
            }
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        let (passed, exceptional) = unsafe { simd::g1_endo_test(&f, &x, &y, &beta, Z_ABS) };
        #[cfg(not(target_arch = "x86_64"))]
        let (passed, exceptional) = (0u8, 0xffu8);
        for (lane, p) in chunk.iter().enumerate() {
            let ok = if bool::from(p.is_identity()) {
                true
            } else if (exceptional >> lane) & 1 == 1 {
                p.is_in_subgroup()
            } else {
                by_lanes += 1;
                // the curve equation too, as `is_in_subgroup` checks it (two products)
                (passed >> lane) & 1 == 1 && p.is_on_curve()
            };
            out.push(ok);
        }
    }
    (out, by_lanes)
}

/// The sliding-window schedule of a fixed exponent e > 0 (little-endian words) with windows of
/// at most five bits: the first window's value, then (squarings, odd window value or 0) steps.
fn window_schedule(e: &[u64]) -> (u8, Vec<(u32, u8)>) {
    let bit = |i: usize| (e[i / 64] >> (i % 64)) & 1 == 1;
    let top = (0..64 * e.len()).rev().find(|&i| bit(i)).expect("a non-zero exponent");
    let mut i = top as isize;
    let (mut start, mut ops, mut pending) = (None, Vec::new(), 0u32);
    while i >= 0 {
        if !bit(i as usize) {
            pending += 1;
            i -= 1;
            continue;
        }
        let mut len = 5.min(i + 1);
        while !bit((i - len + 1) as usize) {
            len -= 1;
        }
        let val = (0..len).fold(0u8, |v, k| (v << 1) | bit((i - k) as usize) as u8);
        match start {
            None => start = Some(val),
            Some(_) => ops.push((pending + len as u32, val)),
        }
        pending = 0;
        i -= len;
    }
    if pending > 0 {
        ops.push((pending, 0));
    }
    (start.expect("a non-zero exponent"), ops)
}

/// Decodes 48-byte compressed BLS12-381 G1 points onto the curve (the subgroup is not tested),
/// with the results and errors of `G1Affine::from_compressed_unchecked` one by one: the square
/// roots y = (x^3 + 4)^((p + 1) / 4) run eight at a time on AVX-512 IFMA lanes where the CPU has
/// them (about 460 lane products for eight roots instead of eight scalar exponentiations), the
/// flags, the range of x, the root's check and the sign as the scalar decoder takes them; an
/// encoding that is not a canonical non-identity point, and groups of fewer than
/// [`LANES_WORTH_IT`] points, take the scalar decoder.
///
/// ```
/// use zkforge_curve::bls12_381::G1Affine;
/// let g = G1Affine::generator().to_compressed();
/// let out = zkforge_msm::ifma::bls12_381_g1_from_compressed_batch_unchecked(&[g; 9]);
/// assert!(out.iter().all(|p| *p == Ok(G1Affine::generator())));
/// ```
pub fn bls12_381_g1_from_compressed_batch_unchecked<B: AsRef<[u8]>>(bs: &[B]) -> Vec<Result<zkforge_curve::bls12_381::G1Affine, zkforge_curve::CurveError>> {
    use zkforge_curve::bls12_381::{G1Affine, G1Config};
    use zkforge_field::bls12_381::Fp;
    let one = |b: &B| G1Affine::from_compressed_unchecked(b.as_ref());
    let Some(f) = Field52::<8>::for_field::<Fp>() else {
        return bs.iter().map(one).collect();
    };
    // the candidates: compressed, not the identity, x canonical (everything else: the scalar path)
    let mut out: Vec<Option<Result<G1Affine, zkforge_curve::CurveError>>> = vec![None; bs.len()];
    let mut cand: Vec<(usize, Fp, bool)> = Vec::with_capacity(bs.len());
    for (i, b) in bs.iter().enumerate() {
        let b = b.as_ref();
        if b.len() == 48 && b[0] & 0xc0 == 0x80 {
            let mut body = [0u8; 48];
            body.copy_from_slice(b);
            body[0] &= 0x1f;
            if let Ok(x) = Fp::from_bytes_be(&body) {
                cand.push((i, x, b[0] & 0x20 != 0));
                continue;
            }
        }
        out[i] = Some(one(&bs[i]));
    }
    // the sliding-window schedule of (p + 1) / 4, formed once
    static SCHEDULE: std::sync::OnceLock<(u8, Vec<(u32, u8)>)> = std::sync::OnceLock::new();
    let (start, ops) = SCHEDULE.get_or_init(|| {
        let (m, n) = <Fp as CurveField>::prime_modulus().unwrap_or(([0; 8], 6));
        let mut e = [0u64; 6];
        e.copy_from_slice(&m[..n.min(6)]);
        let (s, c) = e[0].overflowing_add(1);
        e[0] = s;
        let mut carry = c;
        for w in e.iter_mut().skip(1) {
            let (s, c) = w.overflowing_add(carry as u64);
            *w = s;
            carry = c;
        }
        for k in 0..6 {
            e[k] = (e[k] >> 2) | if k + 1 < 6 { e[k + 1] << 62 } else { 0 };
        }
        window_schedule(&e)
    });
    let (start, ops) = (*start, &ops[..]);
    for group in cand.chunks(8) {
        if group.len() < LANES_WORTH_IT {
            for &(i, _, _) in group {
                out[i] = Some(one(&bs[i]));
            }
            continue;
        }
        let rhs: Vec<Fp> = group.iter().map(|(_, x, _)| x.square() * *x + G1Config::B).collect();
        let roots: Vec<Fp> = {
            let mut v = [[0u64; 8]; 8];
            for (lane, r) in rhs.iter().enumerate() {
                let w = to52::<8>(&r.to_mont_u64s().unwrap_or([0; 8])[..f.n64]);
                for j in 0..8 {
                    v[j][lane] = w[j];
                }
            }
            let mut y = [[0u64; 8]; 8];
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `f` exists only where AVX-512F and IFMA were detected.
            unsafe {
                simd::mul_const_all(core::slice::from_mut(&mut v), &f.k_in, &f);
                simd::pow_lanes(&f, &v, start, ops, &mut y);
                simd::mul_const_all(core::slice::from_mut(&mut y), &f.k_out, &f);
            }
            (0..group.len())
                .map(|lane| {
                    let l: [u64; 8] = core::array::from_fn(|j| y[j][lane]);
                    Fp::from_mont_u64s(&from52(&l)).unwrap_or(Fp::ZERO)
                })
                .collect()
        };
        for (k, &(i, x, largest)) in group.iter().enumerate() {
            let y = roots[k];
            out[i] = Some(if y.square() == rhs[k] {
                Ok(G1Affine::new_unchecked(x, if bool::from(y.lexicographically_largest()) == largest { y } else { -y }))
            } else {
                // no root: the scalar decoder says which error
                one(&bs[i])
            });
        }
    }
    out.into_iter().map(|r| r.unwrap_or(Err(zkforge_curve::CurveError::NotOnCurve))).collect()
}

/// The fewest points worth a group of lanes in the subgroup test: eight lanes take 92 us on
/// Zen 5 (`mul_throughput` times 1017 products), one scalar test 32 us.
const LANES_WORTH_IT: usize = 3;

/// Regular signed digits per GLV part (window 4): 32 windows of 4 bits and a top digit.
const MUL_DIGITS: usize = 33;

/// The regular window-4 recoding of an odd m < 2^128 (Joye and Tunstall, "Exponent recoding and
/// regular exponentiation algorithms", AFRICACRYPT 2009): m = sum_t d_t 16^t with every d_t
/// odd and |d_t| <= 15, so a ladder adds a table entry in every window and never the identity.
/// d_t = (m mod 32) - 16 keeps the rest (m - d_t) / 16 = 2 floor(m / 32) + 1 odd; after 32
/// steps the rest is below 2^128 / 16^32 + 16/15, so it is 1, the top digit.
fn regular_digits(mut m: u128) -> [i8; MUL_DIGITS] {
    let mut d = [0i8; MUL_DIGITS];
    for t in d.iter_mut().take(MUL_DIGITS - 1) {
        let v = (m & 31) as i8 - 16;
        *t = v;
        m = ((m >> 5) << 1) | 1;
    }
    d[MUL_DIGITS - 1] = m as i8;
    d
}

/// k_i P_i for affine points (none the identity, each in the prime-order subgroup, which the
/// endomorphism split relies on) and scalars k_i < r, eight at a time on the lanes: the GLV
/// parts made odd and recoded regularly ([`regular_digits`]), the odd multiples P, ..., 15P
/// formed and normalised on the lanes with one inversion for the whole call ([`lane_tables`],
/// shared with `msm_ct`), then 128 doublings and 66 mixed additions per group of eight (two
/// more for the parts that were even). Lanes whose ladder met an exceptional addition are
/// redone by the scalar path. `None` where the lanes do not apply ([`LaneCurve`]) or a point
/// has order at most 15.
#[cfg(target_arch = "x86_64")]
pub(crate) fn mul_many_affine_lanes<C: CurveConfig>(points: &[Affine<C>], scalars: &[[u64; 4]]) -> Option<Vec<Jacobian<C>>> {
    use zkforge_curve::Endomorphism;
    if points.len() != scalars.len() {
        return None;
    }
    let lc = LaneCurve::<C>::new()?;
    let f = &lc.f;
    let n = points.len();
    if n == 0 {
        return Some(Vec::new());
    }
    let groups = n.div_ceil(8);
    let lane_point = |g: usize, lane: usize| (g * 8 + lane).min(n - 1);
    // the tables of both streams (P's odd multiples and their images), formed and normalised
    // on the lanes for every group at once
    let padded: Vec<Affine<C>> = (0..groups * 8).map(|i| points[i.min(n - 1)]).collect();
    let (tx, ty) = lane_tables(&lc, &padded)?;
    let mut out = Vec::with_capacity(n);
    let mut table = Box::new(simd::LaneTable::<8> { x: [[[[0; 8]; 8]; 8]; 2], y: [[[[0; 8]; 8]; 8]; 2], ny: [[[[0; 8]; 8]; 8]; 2] });
    for g in 0..groups {
        for s in 0..2 {
            for e in 0..8 {
                for lane in 0..8 {
                    let x: [u64; 8] = core::array::from_fn(|j| tx[g * 2 + s][e][j][lane]);
                    let y: [u64; 8] = core::array::from_fn(|j| ty[g * 2 + s][e][j][lane]);
                    table.x[s][lane][e] = x;
                    table.y[s][lane][e] = y;
                    table.ny[s][lane][e] = neg52(&y, &f.p);
                }
            }
        }
        // digits per window, stream and lane; the parts made odd, corrected at the end
        let mut d = [[[0i8; 8]; 2]; MUL_DIGITS];
        let mut fix = [0u8; 2];
        let mut fix_d = [[0i8; 8]; 2];
        for lane in 0..8 {
            let parts = C::Endo::decompose(&scalars[lane_point(g, lane)]);
            for s in 0..2 {
                let (neg, mut mag) = (bool::from(parts[s].neg), parts[s].mag);
                if mag & 1 == 0 {
                    mag += 1;
                    fix[s] |= 1 << lane;
                }
                let digits = regular_digits(mag);
                for (t, &v) in digits.iter().enumerate() {
                    d[t][s][lane] = if neg { -v } else { v };
                }
                // the part was sign * (mag + 1): add -sign * (entry 1)
                fix_d[s][lane] = if neg { 1 } else { -1 };
            }
        }
        let mut r = [[[0u64; 8]; 8]; 3];
        // SAFETY: as above.
        let exceptional = unsafe {
            let e = simd::ladder(f, &table, &d, fix, &fix_d, &mut r);
            simd::mul_const_all(&mut r, &f.k_out, f);
            e
        };
        for lane in 0..8 {
            let i = g * 8 + lane;
            if i >= n {
                break;
            }
            if (exceptional >> lane) & 1 == 1 {
                out.push(points[i].to_jacobian().mul_limbs_vartime(&scalars[i]));
                continue;
            }
            let coord = |k: usize| {
                let l: [u64; 8] = core::array::from_fn(|j| r[k][j][lane]);
                C::Base::from_mont_u64s(&from52(&l)).unwrap_or(C::Base::ZERO)
            };
            out.push(Jacobian::from_xyz_unchecked(coord(0), coord(1), coord(2)));
        }
    }
    Some(out)
}

/// sum_i k_i P_i in constant time in the scalars, on the lanes (the points and their number
/// are public): point i on lane i % 8 (row i / 8 of [`straus_rows`]), the eight lane sums
/// added with the complete Jacobian addition. Points must be in the prime-order subgroup and
/// none the identity; scalars below r. `None` where the lanes do not apply ([`LaneCurve`]) or
/// a point has order at most 15 (its table meets the identity).
#[cfg(target_arch = "x86_64")]
pub(crate) fn msm_ct_affine_lanes<C: CurveConfig>(points: &[Affine<C>], scalars: &[[u64; 4]]) -> Option<Jacobian<C>> {
    let lc = LaneCurve::<C>::new()?;
    let n = points.len().min(scalars.len());
    if n == 0 {
        return Some(Jacobian::IDENTITY);
    }
    let sums = straus_rows(&lc, n.div_ceil(8), |row, lane| {
        let i = row * 8 + lane;
        (i < n).then(|| (points[i], scalars[i]))
    })?;
    Some(sums.iter().fold(Jacobian::IDENTITY, |acc, p| acc.add(p)))
}

/// `count` independent sums at once, sum j being sum_k k_(j m + k) P_(j m + k) over its
/// m = n / count consecutive terms, one sum per lane (eight sums per call of
/// [`straus_rows`], row k holding their k-th terms): constant time in the scalars as
/// [`msm_ct_affine_lanes`]. Identity points are allowed (they add nothing). `None` where the
/// lanes do not apply or n is not a multiple of `count`.
#[cfg(target_arch = "x86_64")]
pub(crate) fn msm_many_affine_lanes<C: CurveConfig>(points: &[Affine<C>], scalars: &[[u64; 4]], count: usize) -> Option<Vec<Jacobian<C>>> {
    let lc = LaneCurve::<C>::new()?;
    let n = points.len();
    if scalars.len() != n || count == 0 || n % count != 0 {
        return None;
    }
    let m = n / count;
    let mut out = Vec::with_capacity(count);
    for batch in 0..count.div_ceil(8) {
        let sums = straus_rows(&lc, m, |row, lane| {
            let j = batch * 8 + lane;
            let i = j * m + row;
            (j < count && !bool::from(points[i].is_identity())).then(|| (points[i], scalars[i]))
        })?;
        out.extend_from_slice(&sums[..(count - batch * 8).min(8)]);
    }
    Some(out)
}

/// What the lane kernels need of a curve: the 52-bit field, 3b as a small integer and beta
/// of the endomorphism (x, y) -> (beta x, y). `None` where the lanes do not apply: no AVX-512
/// IFMA, a base field that does not fit eight 52-bit limbs, no two-part split of at most 128
/// bits, an endomorphism of another form, or 3b above 16 or not an integer.
#[cfg(target_arch = "x86_64")]
pub(crate) struct LaneCurve<C: CurveConfig> {
    f: Field52<8>,
    b3: u64,
    beta: [u64; 8],
    _c: core::marker::PhantomData<C>,
}

#[cfg(target_arch = "x86_64")]
impl<C: CurveConfig> LaneCurve<C> {
    /// The curve's lane constants, formed once per curve type and process (beta takes an
    /// inversion: a small MSM must not pay it per call); `None` where the lanes do not apply.
    pub(crate) fn new() -> Option<Self> {
        use std::sync::Mutex;
        type Entry = (core::any::TypeId, Option<(Field52<8>, u64, [u64; 8])>);
        static CACHE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
        let id = core::any::TypeId::of::<C>();
        let hit = CACHE.lock().unwrap_or_else(|e| e.into_inner()).iter().find(|(k, _)| *k == id).map(|(_, v)| v.clone());
        let v = match hit {
            Some(v) => v,
            None => {
                let v = Self::form();
                CACHE.lock().unwrap_or_else(|e| e.into_inner()).push((id, v.clone()));
                v
            }
        };
        v.map(|(f, b3, beta)| Self { f, b3, beta, _c: core::marker::PhantomData })
    }

    fn form() -> Option<(Field52<8>, u64, [u64; 8])> {
        use zkforge_curve::Endomorphism;
        if !(C::Endo::PRESENT && C::Endo::DIM == 2 && C::Endo::SUB_BITS <= 128) {
            return None;
        }
        let b3 = small_b3::<C>()?;
        let f = Field52::<8>::for_field::<C::Base>()?;
        let beta = endo_beta52::<C>(&f)?;
        Some((f, b3, beta))
    }
}

/// The affine tables of eight points per row (`pts.len()` a multiple of eight, none the
/// identity): P, 3P, ..., 15P formed on the lanes (`simd::odd_multiples`) and normalised there
/// with one inversion for all (`simd::normalize_tables`), with their images (beta x, y);
/// tx[row * 2 + stream][entry][limb][lane], canonical 52-bit form. Variable time (public
/// points). `None` when a table meets the identity (a point of order at most 15, outside the
/// prime-order subgroup): a Z of 0 zeroes the chains' products, so their inverses come back 0.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::type_complexity)]
fn lane_tables<C: CurveConfig>(lc: &LaneCurve<C>, pts: &[Affine<C>]) -> Option<(Vec<[Lanes<8>; 8]>, Vec<[Lanes<8>; 8]>)> {
    let f = &lc.f;
    let rows = pts.len() / 8;
    let p52 = Bases52::<8>::convert::<C>(f, pts);
    let mut jac = vec![[[[[0u64; 8]; 8]; 3]; 8]; rows];
    for (g, t) in jac.iter_mut().enumerate() {
        let mut x = [[0u64; 8]; 8];
        let mut y = [[0u64; 8]; 8];
        for lane in 0..8 {
            let q = &p52[g * 8 + lane];
            for j in 0..8 {
                x[j][lane] = q.x[j];
                y[j][lane] = q.y[j];
            }
        }
        // SAFETY: `LaneCurve` holds a `Field52` only where AVX-512F and IFMA were detected.
        unsafe { simd::odd_multiples(f, &x, &y, t) };
    }
    let mut tx = vec![[[[0u64; 8]; 8]; 8]; rows * 2];
    let mut ty = vec![[[[0u64; 8]; 8]; 8]; rows * 2];
    let fix = (0..f.lane_fix_doublings).fold(C::Base::ONE, |x, _| x.double());
    let mut zero_z = false;
    let mut invert = |l: &mut [Lanes<8>; 2]| {
        invert_lanes_64::<C, 8>(l, fix);
        zero_z |= l.iter().any(|v| (0..8).any(|lane| v.iter().all(|limb| limb[lane] == 0)));
    };
    // SAFETY: as above.
    unsafe { simd::normalize_tables(f, &jac, &lc.beta, &mut tx, &mut ty, &mut invert) };
    (!zero_z).then_some((tx, ty))
}

/// The eight lane sums sum_row k(row, lane) P(row, lane) in constant time in the scalars:
/// `term(row, lane)` gives the point (in the prime-order subgroup, not the identity) and the
/// scalar (below r), or `None` for nothing (the generator with scalar 0 stands in). Each
/// point's GLV parts (the curve crate's constant-time split) are made odd without a branch
/// and recoded regularly ([`regular_digits`]: every digit odd, so every window adds a table
/// entry); per lane one accumulator through 32 windows of four complete doublings and, per
/// row and part, one complete mixed addition of the entry a full table scan reads
/// (`simd::straus_ct`); the parts made odd are corrected by one more addition blended in
/// every lane. The tables (odd multiples P..15P and their images, variable time) depend on
/// the points only. `None` when a table meets the identity (a point of order at most 15).
#[cfg(target_arch = "x86_64")]
fn straus_rows<C: CurveConfig>(lc: &LaneCurve<C>, rows: usize, term: impl Fn(usize, usize) -> Option<(Affine<C>, [u64; 4])>) -> Option<[Jacobian<C>; 8]> {
    use zeroize::Zeroize;
    use zkforge_curve::Endomorphism;
    let f = &lc.f;
    let slots = rows * 2;
    let mut pts = Vec::with_capacity(rows * 8);
    let mut ks = Vec::with_capacity(rows * 8);
    for row in 0..rows {
        for lane in 0..8 {
            let (p, k) = term(row, lane).unwrap_or((Affine::generator(), [0u64; 4]));
            pts.push(p);
            ks.push(k);
        }
    }
    let (tx, ty) = lane_tables(lc, &pts)?;
    // the digits, secret: every step below is arithmetic on the scalar's bits, no branch
    let mut digits = vec![[0i64; 8]; MUL_DIGITS * slots];
    let mut fixes = vec![[0i64; 8]; slots];
    for g in 0..rows {
        for lane in 0..8 {
            let mut parts = C::Endo::decompose(&ks[g * 8 + lane]);
            for s in 0..2 {
                let nm = -(parts[s].neg.unwrap_u8() as i64);
                let even = !parts[s].mag & 1;
                let mut rd = regular_digits(parts[s].mag + even);
                for (t, v) in rd.iter().enumerate() {
                    digits[(t * rows + g) * 2 + s][lane] = ((*v as i64) ^ nm) - nm;
                }
                // the part was sign (mag' - 1) for an even mag: add -sign times the point
                fixes[g * 2 + s][lane] = (-(1 + 2 * nm)) * (even as i64);
                rd.zeroize();
            }
            for p in parts.iter_mut() {
                p.mag = 0;
            }
        }
    }
    ks.zeroize();
    let mut r = [[[0u64; 8]; 8]; 3];
    // SAFETY: as above.
    unsafe {
        simd::straus_ct(f, &tx, &ty, &digits, &fixes, MUL_DIGITS, lc.b3, &mut r);
        simd::mul_const_all(&mut r, &f.k_out, f);
    }
    digits.zeroize();
    fixes.zeroize();
    // homogeneous (X : Y : Z) -> Jacobian (X Z, Y Z^2, Z)
    let out = core::array::from_fn(|lane| {
        let coord = |k: usize| {
            let l: [u64; 8] = core::array::from_fn(|j| r[k][j][lane]);
            C::Base::from_mont_u64s(&from52(&l)).unwrap_or(C::Base::ZERO)
        };
        let (x, y, z) = (coord(0), coord(1), coord(2));
        Jacobian::from_xyz_unchecked(x * z, y * z.square(), z)
    });
    r.zeroize();
    Some(out)
}

/// The lanes exist on x86-64 only.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn msm_ct_affine_lanes<C: CurveConfig>(_points: &[Affine<C>], _scalars: &[[u64; 4]]) -> Option<Jacobian<C>> {
    None
}

/// The lanes exist on x86-64 only.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn msm_many_affine_lanes<C: CurveConfig>(_points: &[Affine<C>], _scalars: &[[u64; 4]], _count: usize) -> Option<Vec<Jacobian<C>>> {
    None
}

/// beta in the 52-bit Montgomery form when the endomorphism is (x, y) -> (beta x, y) (G1 of
/// BLS12-381 and BN254), read off its image of the generator; `None` for any other form.
#[cfg(target_arch = "x86_64")]
fn endo_beta52<C: CurveConfig>(f: &Field52<8>) -> Option<[u64; 8]> {
    use zkforge_curve::Endomorphism;
    let g = Jacobian::<C>::generator();
    let e = C::Endo::endo(&g);
    if e.y() != g.y() || e.z() != g.z() {
        return None;
    }
    let beta = e.x() * g.x().invert_vartime()?;
    // a point whose x is beta converts it (Bases52 takes x through the same products)
    let conv = Bases52::<8>::convert::<C>(f, &[Affine::new_unchecked(beta, C::Base::ONE)]);
    Some(conv[0].x)
}

/// 3b as a small integer (1..=16), the constant of the complete formulas' products by b3.
#[cfg(target_arch = "x86_64")]
fn small_b3<C: CurveConfig>() -> Option<u64> {
    if C::A.is_some() {
        return None;
    }
    let b3 = C::B + C::B + C::B;
    let mut k = C::Base::ZERO;
    for v in 1..=16u64 {
        k = k + C::Base::ONE;
        if k == b3 {
            return Some(v);
        }
    }
    None
}

/// The lanes exist on x86-64 only.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn mul_many_affine_lanes<C: CurveConfig>(_points: &[Affine<C>], _scalars: &[[u64; 4]]) -> Option<Vec<Jacobian<C>>> {
    None
}

/// p - y for canonical y (0 stays 0), 52-bit limbs.
fn neg52<const L: usize>(y: &[u64; L], p: &[u64; L]) -> [u64; L] {
    if y.iter().all(|&w| w == 0) {
        return *y;
    }
    let mut r = [0u64; L];
    let mut borrow = 0i64;
    for j in 0..L {
        let d = p[j] as i64 - y[j] as i64 + borrow;
        r[j] = (d as u64) & MASK52;
        borrow = d >> 52;
    }
    r
}

/// The sixteen lane values v (each a 2^(52L) mod p, canonical, non-zero) -> their inverses in
/// the same form, through the 64-bit field: v read as Montgomery limbs is the element
/// a 2^(52L - 64N); its inverse times `scale` = 2^(2(52L - 64N)) has Montgomery limbs
/// a^-1 2^(52L).
fn invert_lanes_64<C: CurveConfig, const L: usize>(lanes: &mut [Lanes<L>; 2], scale: C::Base) {
    let mut vals = [C::Base::ONE; 16];
    for h in 0..2 {
        for lane in 0..8 {
            let l: [u64; L] = core::array::from_fn(|j| lanes[h][j][lane]);
            vals[h * 8 + lane] = C::Base::from_mont_u64s(&from52(&l)).unwrap_or(C::Base::ONE);
        }
    }
    // Montgomery's trick over the sixteen, one variable-time inversion (MSM data is public)
    let mut prefix = [C::Base::ONE; 16];
    let mut acc = C::Base::ONE;
    for k in 0..16 {
        prefix[k] = acc;
        acc *= vals[k];
    }
    let mut inv = acc.invert_vartime().unwrap_or(C::Base::ZERO) * scale;
    for k in (0..16).rev() {
        let vi = inv * prefix[k];
        inv *= vals[k];
        let l = vi.to_mont_u64s().unwrap_or([0u64; 8]);
        let w = to52::<L>(&l);
        for j in 0..L {
            lanes[k / 8][j][k % 8] = w[j];
        }
    }
}

/// sum_b b * (sum of the points whose signed digit is +-b) for the stream of (base index,
/// digit) pairs, with the IFMA accumulator; returns the sum and the accumulate and reduce
/// times. `pts` are `points` in the 52-bit form (same indices).
pub(crate) fn bucket_sum_52<C: CurveConfig, const L: usize>(
    f: &Field52<L>,
    pts: &[Point52<L>],
    points: &[Affine<C>],
    pairs: impl Iterator<Item = (usize, i16)>,
    c: u32,
    batch: usize,
) -> (Xyzz<C>, std::time::Duration, std::time::Duration) {
    let t0 = std::time::Instant::now();
    let nb = 1usize << (c - 1);
    let mut acc = Acc52::<C, L>::new(f, pts, points, nb, batch);
    for (i, d) in pairs {
        acc.push_digit(0, i, d);
    }
    acc.finish();
    let t1 = std::time::Instant::now();
    let sum = acc.running_sums(nb)[0];
    (sum, t1 - t0, t1.elapsed())
}

/// Many independent bucket sums in one pass (the IFMA counterpart of
/// `batch_affine::bucket_sums_batch_affine`): pair (j, base index, digit) goes to sum j < `sums`,
/// all `sums * 2^(c-1)` buckets share the batches. Returns sum_b b * bucket_b for every j.
pub(crate) fn bucket_sums_52<C: CurveConfig, const L: usize>(
    f: &Field52<L>,
    pts: &[Point52<L>],
    points: &[Affine<C>],
    sums: usize,
    pairs: impl Iterator<Item = (usize, usize, i16)>,
    c: u32,
    batch: usize,
) -> Vec<Xyzz<C>> {
    let nb = 1usize << (c - 1);
    let mut acc = Acc52::<C, L>::new(f, pts, points, nb * sums, batch);
    for (j, i, d) in pairs {
        acc.push_digit(j * nb, i, d);
    }
    acc.finish();
    acc.running_sums(nb)
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    //! The 52-bit Montgomery product and the domain conversions against the 64-bit field
    //! (`zkforge-field`), on 10^5 random pairs and the edge values 0, 1, 2, p - 1, p - 2, where
    //! the CPU has AVX-512 IFMA (elsewhere there is nothing to compare).
    use super::*;
    use rand::{rngs::StdRng, SeedableRng};
    use zkforge_field::{bls12_381, bn254, FieldConfig, Fp};

    fn lanes_of<F: CurveField, const L: usize>(f: &Field52<L>, v: &[F]) -> Vec<Lanes<L>> {
        let mut out = vec![[[0u64; 8]; L]; v.len().div_ceil(8)];
        for (i, x) in v.iter().enumerate() {
            let l = to52::<L>(&x.to_mont_u64s().unwrap()[..f.n64]);
            for j in 0..L {
                out[i / 8][j][i % 8] = l[j];
            }
        }
        // SAFETY: `f` exists only where AVX-512F and IFMA were detected.
        unsafe { simd::mul_const_all(&mut out, &f.k_in, f) };
        out
    }

    fn values_of<F: CurveField, const L: usize>(f: &Field52<L>, mut v: Vec<Lanes<L>>, n: usize) -> Vec<F> {
        // SAFETY: as above.
        unsafe { simd::mul_const_all(&mut v, &f.k_out, f) };
        (0..n)
            .map(|i| {
                let l: [u64; L] = core::array::from_fn(|j| v[i / 8][j][i % 8]);
                F::from_mont_u64s(&from52(&l)).expect("canonical output")
            })
            .collect()
    }

    fn check<C: FieldConfig<N>, const N: usize, const L: usize>() {
        let Some(f) = Field52::<L>::for_field::<Fp<C, N>>() else {
            eprintln!("no AVX-512 IFMA here: nothing to compare");
            return;
        };
        let mut rng = StdRng::seed_from_u64(52);
        let m1 = -Fp::<C, N>::ONE;
        let edges = [Fp::ZERO, Fp::ONE, Fp::from_u64(2), m1, m1 - Fp::ONE];
        let mut a: Vec<Fp<C, N>> = Vec::new();
        let mut b: Vec<Fp<C, N>> = Vec::new();
        for x in edges {
            for y in edges {
                a.push(x);
                b.push(y);
            }
        }
        for _ in 0..100_000 {
            a.push(Fp::random(&mut rng));
            b.push(Fp::random(&mut rng));
        }
        let n = a.len();
        let (la, lb) = (lanes_of(&f, &a), lanes_of(&f, &b));
        // the conversions alone round-trip
        let back: Vec<Fp<C, N>> = values_of(&f, la.clone(), n);
        assert_eq!(back, a, "{}: conversion round trip", C::NAME);
        let mut prod = la;
        // SAFETY: as above.
        unsafe { simd::mul_pairs(&mut prod, &lb, &f) };
        let got: Vec<Fp<C, N>> = values_of(&f, prod, n);
        for i in 0..n {
            assert_eq!(got[i], a[i] * b[i], "{}: {:?} * {:?}", C::NAME, a[i], b[i]);
        }
        // the squaring, on canonical inputs and (eight limbs: the point formulas' bounds) on
        // inputs plus k p up to 129 p
        let ks: &[u64] = if L == 8 { &[0, 1, 3, 65, 129] } else { &[0, 1, 3] };
        for &k in ks {
            let mut sq = lanes_of(&f, &a);
            let kp = multiple52(&f.p, k);
            for g in sq.iter_mut() {
                for lane in 0..8 {
                    let mut carry = 0u64;
                    for j in 0..L {
                        let t = g[j][lane] + kp[j] + carry;
                        g[j][lane] = t & MASK52;
                        carry = t >> 52;
                    }
                    assert_eq!(carry, 0);
                }
            }
            // SAFETY: as above.
            unsafe { simd::sqr_all(&mut sq, &f) };
            let got: Vec<Fp<C, N>> = values_of(&f, sq, n);
            for i in 0..n {
                assert_eq!(got[i], a[i].square(), "{}: ({:?} + {k} p)^2", C::NAME, a[i]);
            }
        }
    }

    #[test]
    fn mul_matches_the_64_bit_field() {
        check::<bls12_381::FpConfig, 6, 8>();
        check::<bn254::FpConfig, 4, 5>();
    }

    /// The batched BLS12-381 G1 subgroup test against the scalar one: subgroup points, curve
    /// points off the subgroup (random x with a square root), the order-3 points (0, +-2), the
    /// identity, in counts that are not multiples of eight.
    #[test]
    fn g1_subgroup_batch_matches_scalar() {
        use zkforge_curve::bls12_381::{G1Affine, G1Config};
        use zkforge_field::bls12_381::Fp as BFp;
        let mut rng = StdRng::seed_from_u64(381);
        let mut pts: Vec<G1Affine> = zkforge_curve::sample_points::<G1Config>(&mut rng, 37);
        let mut off = 0;
        while off < 37 {
            let x = BFp::random(&mut rng);
            if let Some(y) = Option::<BFp>::from((x.square() * x + BFp::from_u64(4)).sqrt()) {
                pts.push(G1Affine::new_unchecked(x, y));
                off += 1;
            }
        }
        pts.push(G1Affine::new_unchecked(BFp::ZERO, BFp::from_u64(2)));
        pts.push(G1Affine::new_unchecked(BFp::ZERO, -BFp::from_u64(2)));
        pts.push(G1Affine::IDENTITY);
        // a point off the curve is not in the subgroup either
        pts.push(G1Affine::new_unchecked(BFp::from_u64(1), BFp::from_u64(1)));
        for perm in 0..3 {
            let mut v = pts.clone();
            v.rotate_left(perm * 5);
            for n in [0usize, 1, 7, 8, 9, v.len()] {
                let got = bls12_381_g1_in_subgroup_vartime(&v[..n]);
                let want: Vec<bool> = v[..n].iter().map(|p| p.is_in_subgroup()).collect();
                assert_eq!(got, want, "n={n} perm={perm}");
            }
        }
        assert_eq!(pts.iter().filter(|p| p.is_in_subgroup()).count(), 37 + 1);
        // the lanes decide every subgroup point themselves (none is exceptional; 40 points make
        // five full groups)
        let (ok, by_lanes) = g1_subgroup_lanes(&pts[..40]);
        assert_eq!(ok.iter().filter(|&&b| b).count(), 37);
        if Field52::<8>::for_field::<BFp>().is_none() {
            // no AVX-512 IFMA here: the scalar test decided every point, as it must
            assert_eq!(by_lanes, 0);
            eprintln!("no AVX-512 IFMA on this CPU: the lane path was not run");
            return;
        }
        assert_eq!(by_lanes, 40);
        let (_, by_lanes) = g1_subgroup_lanes(&pts[37..77]);
        eprintln!("off-subgroup points decided by the lanes: {by_lanes} of 40");
    }

    #[test]
    fn regular_digits_are_odd_small_and_sum_back() {
        use rand::Rng;
        let mut rng = StdRng::seed_from_u64(16);
        let odd: Vec<u128> = [1u128, 3, 15, 17, 31, 33, u128::MAX, u128::MAX - 2, 1 << 127 | 1, (1 << 124) + 1]
            .into_iter()
            .chain((0..1000).map(|_| rng.gen::<u128>() | 1))
            .collect();
        for m in odd {
            let d = regular_digits(m);
            assert!(d.iter().all(|&v| v % 2 != 0 && v.unsigned_abs() <= 15), "{m:#x}: {d:?}");
            assert!(d[MUL_DIGITS - 1] > 0, "{m:#x}: top digit");
            // sum d_t 16^t exactly, as a signed high word over a low one (Horner)
            let (mut hi, mut lo) = (0i128, 0u128);
            for &v in d.iter().rev() {
                hi = hi * 16 + (lo >> 124) as i128;
                lo <<= 4;
                let (s, carry) = if v >= 0 { lo.overflowing_add(v as u128) } else { lo.overflowing_sub(v.unsigned_abs() as u128) };
                lo = s;
                hi += if !carry { 0 } else if v >= 0 { 1 } else { -1 };
            }
            assert_eq!((hi, lo), (0, m), "{m:#x}");
        }
    }

    #[test]
    fn only_fitting_fields_get_lanes() {
        // 255-bit scalar field with five limbs: too close to 2^260 for the lazy bounds
        assert!(Field52::<5>::for_field::<bls12_381::Fr>().is_none());
        assert!(Field52::<5>::for_field::<bls12_381::Fp>().is_none());
        assert!(Field52::<8>::for_field::<bn254::Fp>().is_none());
        assert!(Field52::<8>::for_field::<zkforge_field::tower::Fp2<bls12_381::FpConfig, 6>>().is_none());
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod probe {
    use super::*;
    #[test]
    #[ignore]
    fn mul_throughput() {
        let Some(f) = Field52::<8>::for_field::<zkforge_field::bls12_381::Fp>() else { return };
        let mut a = vec![[[3u64; 8]; 8]; 4096];
        let b = vec![[[5u64; 8]; 8]; 4096];
        for _ in 0..3 {
            let t = std::time::Instant::now();
            for _ in 0..10 {
                unsafe { simd::mul_pairs(&mut a, &b, &f) };
            }
            let ns = t.elapsed().as_nanos() as f64 / (10.0 * 4096.0);
            eprintln!("{ns:.1} ns per 8-lane product (incl. reduce_2p, load/store)");
        }
    }
}

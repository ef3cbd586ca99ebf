//! Field arithmetic on eight AVX-512 IFMA lanes for the pairing towers, shared by the lane
//! kernels of the tower (`ifma_fp12`: the Miller-loop accumulator and twist steps; `ifma_gt`:
//! the final exponentiation's cyclotomic squaring and product), and runs of Karabina's
//! compressed cyclotomic squarings (ePrint 2010/542; the formulas of
//! `fp12::Compressed::square`) for BLS12-381.
//!
//! Arithmetic: Montgomery products in radix 2^52 (`vpmadd52luq/huq`, operand scanning,
//! R = 2^(52 M); the product of `zkforge_msm::ifma`), eight elements per register set of M
//! limbs: M = 8 for BLS12-381 (R = 2^416, p < 2^381), M = 6 for BN254 (R = 2^312, p < 2^254;
//! R/p leaves 2^58 of headroom, where 5 limbs would leave 84). Lazy additions (a multiple of p
//! added before each subtraction) with signed limbs, one carry normalisation before each
//! product, and one Barrett-style step (q from the bits above 2^s times floor(2^(s+52) / p))
//! that brings a value below 3p. Values enter the 52-bit form with one product by
//! 2^(104 M - 64 N) mod p and leave it with one by 2^(64 N) mod p (the 64-bit form's
//! R = 2^(64 N) outside, N its limb count), then one conditional subtraction.
//!
//! Karabina: one compressed squaring is six Fp2 squarings, twelve Fp products, all
//! independent: the scalar code runs them on the MULX unit one after another (about 21 ns
//! each on Zen 5), here they are two 8-lane products. Lane k of the state holds one Fp2
//! coefficient (c0 and c1 in two register sets): lanes 0, 1, 3, 4 are g1, g4, g2, g5; lanes 2
//! and 5 take g1 + g4 and g2 + g5 before the products, so one product pair squares all six.
//! The combinations (t14, t25, a, b and 3t +- 2g) are lane permutations and lazy additions.
//! Bounds (p < 2^381, R = 2^416): state < 3p; x with the sums < 6p; the product inputs
//! x0 + x1, x0 - x1 + 6p, 2 x0 < 12p, so every product's inputs multiply to below R p and its
//! output is below 2p; the combination before the reduction is below 42p.
//!
//! Selected at run time (AVX-512F and AVX-512 IFMA, std builds on x86-64); the scalar tower is
//! the reference the tests compare with.

#![allow(clippy::needless_range_loop)]

use super::{Fp2, TowerConfig};
use crate::backend::portable::reduce_once_ct;
use crate::limbs;
use crate::mont::Fp;
use std::sync::OnceLock;

/// Limbs of the BLS12-381 lanes (R = 2^416); the BN254 lanes use 6 (R = 2^312, `ifma_gt`).
pub(super) const L: usize = 8;
pub(super) const MASK52: u64 = (1u64 << 52) - 1;

/// The modulus-dependent constants of M-limb lanes (R = 2^(52 M)), in normalised 52-bit limbs.
#[derive(Clone, Debug)]
pub(super) struct Consts52<const M: usize = L> {
    /// The 64-bit modulus these belong to (zero-padded to six words).
    pub(super) modulus: [u64; 6],
    pub(super) p: [u64; M],
    /// -p^-1 mod 2^52.
    pub(super) pinv: u64,
    /// floor(2^(s + 52) / p), below 2^51, with s = 52 (M - 1) - `sh` (the reduction's quotient
    /// estimate: see `simd::reduce`).
    pub(super) mu: u64,
    /// The shift of the reduction's top-bits window (0 for BLS12-381 on 8 limbs).
    pub(super) sh: u32,
    /// 2^(104 M - 64 N) mod p (into the 52-bit form) and 2^(64 N) mod p (out of it), N the
    /// 64-bit limb count.
    pub(super) k_in: [u64; M],
    pub(super) k_out: [u64; M],
    /// `k_in` in 64-bit limbs, zero-padded (a per-pair line scale is px k_in, see `ifma_fp12`).
    pub(super) k_in64: [u64; 6],
    /// k p for k < 256 (offsets of lazy subtractions).
    pub(super) mult: [[u64; M]; 256],
}

/// Little-endian 64-bit limbs -> M limbs of 52 bits (the value must fit 52 M bits).
pub(super) fn to52<const M: usize>(a: &[u64]) -> [u64; M] {
    let mut r = [0u64; M];
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

/// M normalised 52-bit limbs of a value below 2^(64 N) -> N little-endian 64-bit limbs.
pub(super) fn from52<const M: usize, const N: usize>(a: &[u64; M]) -> [u64; N] {
    let mut r = [0u64; 7];
    for (j, &x) in a.iter().enumerate() {
        let bit = 52 * j;
        let (w, sh) = (bit / 64, bit % 64);
        r[w] |= x << sh;
        if sh > 12 {
            r[w + 1] |= x >> (64 - sh);
        }
    }
    let mut out = [0u64; N];
    out.copy_from_slice(&r[..N]);
    out
}

/// k p in normalised 52-bit limbs.
fn multiple52<const M: usize>(p: &[u64; M], k: u64) -> [u64; M] {
    let mut r = [0u64; M];
    let mut carry = 0u64;
    for j in 0..M {
        let t = p[j] * k + carry;
        r[j] = t & MASK52;
        carry = t >> 52;
    }
    r
}

impl<const M: usize> Consts52<M> {
    /// The constants for an N-limb modulus with two spare top bits whose lanes leave 2^30 p of
    /// headroom (52 M >= bits + 30); None otherwise.
    pub(super) fn compute<const N: usize>(m: &[u64; N]) -> Option<Self> {
        if N > 6 || m[N - 1] >> 62 != 0 || m[0] & 1 == 0 || M > 8 {
            return None;
        }
        let bits = 64 * N - m[N - 1].leading_zeros() as usize;
        if 52 * M < bits + 30 || 104 * M < 64 * N {
            return None;
        }
        // the quotient window starts at bit s: mu = floor(2^(s + 52) / m) < 2^51
        let s = (52 * (M - 1)).min(bits - 2);
        let mut m7 = [0u64; 7];
        m7[..N].copy_from_slice(m);
        // floor(2^(s + 52) / m) by long division, one quotient bit at a time (setup only)
        let top = (s + 52) as u32;
        let mut rem = [0u64; 7];
        let mut mu = 0u64;
        for bit in (0..=top).rev() {
            let mut carry = (bit == top) as u64;
            for w in rem.iter_mut() {
                let nc = *w >> 63;
                *w = (*w << 1) | carry;
                carry = nc;
            }
            if limbs::geq(&rem, &m7) {
                rem = limbs::sub(&rem, &m7).0;
                if bit < 64 {
                    mu |= 1 << bit;
                }
            }
        }
        let p = to52::<M>(m);
        let k_in = limbs::pow2_mod(104 * M - 64 * N, m);
        let mut modulus = [0u64; 6];
        modulus[..N].copy_from_slice(m);
        let mut k_in64 = [0u64; 6];
        k_in64[..N].copy_from_slice(&k_in);
        Some(Self {
            modulus,
            p,
            pinv: limbs::neg_inv64(m[0]) & MASK52,
            mu,
            sh: (52 * (M - 1) - s) as u32,
            k_in: to52(&k_in),
            k_out: to52(&limbs::pow2_mod(64 * N, m)),
            k_in64,
            mult: core::array::from_fn(|k| multiple52(&p, k as u64)),
        })
    }
}

/// Whether this CPU has AVX-512F and AVX-512 IFMA (detected once) and the lanes are allowed
/// ([`crate::backend::set_ifma_allowed`]).
pub(super) fn cpu_has_ifma() -> bool {
    static HAS: OnceLock<bool> = OnceLock::new();
    crate::backend::ifma_allowed() && *HAS.get_or_init(|| std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512ifma"))
}

/// The constants for `C`'s modulus when the 8-limb lanes apply to its tower (6 limbs,
/// p < 2^381, xi = 1 + u) and the CPU has IFMA; `None` otherwise.
pub(super) fn consts_for<C: TowerConfig<N>, const N: usize>() -> Option<&'static Consts52> {
    if N != 6 || C::XI_C0 != 1 || !cpu_has_ifma() {
        return None;
    }
    // one tower in practice (BLS12-381); another 6-limb modulus is refused
    static BLS: OnceLock<Option<Consts52>> = OnceLock::new();
    cached(&BLS, &C::MODULUS)
}

/// The constants for `C`'s modulus on 6-limb lanes (a 4-limb modulus with two spare bits and
/// xi = 9 + u: BN254) when the CPU has IFMA; `None` otherwise.
pub(super) fn consts6_for<C: TowerConfig<N>, const N: usize>() -> Option<&'static Consts52<6>> {
    if N != 4 || C::XI_C0 != 9 || !cpu_has_ifma() {
        return None;
    }
    // one tower in practice (BN254); another 4-limb modulus is refused
    static BN: OnceLock<Option<Consts52<6>>> = OnceLock::new();
    cached(&BN, &C::MODULUS)
}

/// The constants of the lanes a tower uses: 8 limbs for BLS12-381 (xi = 1 + u), 6 for BN254
/// (xi = 9 + u); the kernels take the limb count and xi's real part as constants.
#[derive(Clone, Copy, Debug)]
pub(super) enum Consts {
    L8(&'static Consts52<8>),
    L6(&'static Consts52<6>),
}

/// The lanes for `C`'s tower ([`consts_for`], then [`consts6_for`]) when the CPU has IFMA;
/// `None` otherwise.
pub(super) fn tower_consts<C: TowerConfig<N>, const N: usize>() -> Option<Consts> {
    consts_for::<C, N>().map(Consts::L8).or_else(|| consts6_for::<C, N>().map(Consts::L6))
}

/// The first M rows of eight lanes.
pub(super) fn rows<const M: usize>(a: &Lanes) -> &[[u64; 8]; M] {
    (&a[..M]).try_into().expect("M <= 8")
}

/// The first M rows of eight lanes, mutable.
pub(super) fn rows_mut<const M: usize>(a: &mut Lanes) -> &mut [[u64; 8]; M] {
    (&mut a[..M]).try_into().expect("M <= 8")
}

/// The constants of the first modulus asked for, if `m` is that modulus.
fn cached<const M: usize, const N: usize>(cell: &'static OnceLock<Option<Consts52<M>>>, m: &[u64; N]) -> Option<&'static Consts52<M>> {
    let c = cell.get_or_init(|| Consts52::compute(m)).as_ref()?;
    (c.modulus[..N] == m[..] && c.modulus[N..].iter().all(|&w| w == 0)).then_some(c)
}

/// Whether [`square_depths`] runs on lanes for this tower on this CPU.
pub(crate) fn available<C: TowerConfig<N>, const N: usize>() -> bool {
    consts_for::<C, N>().is_some()
}

/// The compressed squares of (g1, g2, g4, g5) at each depth of `depths` (increasing, from 1),
/// one run on the lanes: the value enters the 52-bit form once and a copy leaves it at each
/// depth. `None` when the lanes do not apply ([`available`]).
pub(crate) fn square_depths<C: TowerConfig<N>, const N: usize, const M: usize>(g: [Fp2<C, N>; 4], depths: &[u32; M]) -> Option<[[Fp2<C, N>; 4]; M]> {
    let c = consts_for::<C, N>()?;
    let mut state = to_lanes(&g);
    let mut outs = [state; M];
    // SAFETY: `consts_for` returned Some, so the CPU has AVX-512F and AVX-512 IFMA.
    unsafe { simd::run_depths(&mut state, depths, &mut outs, c) };
    Some(outs.map(|o| from_lanes(&o)))
}

/// x^e for up to eight elements of the tower's base field along `plan`, one run on the lanes
/// (each enters the 52-bit form with one product and leaves it with another, then one
/// constant-time subtraction of p); the same operations for every input, so constant time in
/// the values. `None` when the lanes do not apply ([`available`]) or for more than eight.
pub(crate) fn pow_plan_lanes<C: TowerConfig<N>, const N: usize>(xs: &[Fp<C, N>], plan: &crate::chain::PowPlan) -> Option<Vec<Fp<C, N>>> {
    let c = consts_for::<C, N>()?;
    if xs.len() > 8 {
        return None;
    }
    if plan.out().is_none() {
        return Some(alloc::vec![Fp::ONE; xs.len()]);
    }
    let mut v = [[[0u64; 8]; L]; 1];
    for (i, x) in xs.iter().enumerate() {
        let a = to52::<L>(&x.limbs);
        for j in 0..L {
            v[0][j][i] = a[j];
        }
    }
    // SAFETY (all three): `consts_for` returned Some, so the CPU has AVX-512F and AVX-512 IFMA.
    unsafe {
        simd::mul_all(&mut v, &c.k_in, c);
        simd::pow_plan(&mut v[0], plan, c);
        simd::mul_all(&mut v, &c.k_out, c);
    }
    Some(
        (0..xs.len())
            .map(|i| {
                let mut a = [0u64; L];
                for j in 0..L {
                    a[j] = v[0][j][i];
                }
                Fp::from_mont_unchecked(reduce_once_ct(from52::<L, N>(&a), &Fp::<C, N>::PINV))
            })
            .collect(),
    )
}

/// Lane order: g1, g4, (g1 + g4), g2, g5, (g2 + g5), unused, unused.
const LANE: [usize; 4] = [0, 3, 1, 4]; // lane of g1, g2, g4, g5

/// Eight lanes of L limbs, limb-major.
pub(super) type Lanes = [[u64; 8]; L];

/// Writes e into lane i of (re, im): the 52-bit limbs of its 64-bit Montgomery form.
pub(super) fn set_lane_fp2<C: TowerConfig<N>, const N: usize, const M: usize>(re: &mut [[u64; 8]; M], im: &mut [[u64; 8]; M], i: usize, e: &Fp2<C, N>) {
    let (a, b) = (to52::<M>(&e.c0.limbs), to52::<M>(&e.c1.limbs));
    for j in 0..M {
        re[j][i] = a[j];
        im[j][i] = b[j];
    }
}

/// Lane i of (re, im), a 64-bit Montgomery form below 2p in 52-bit limbs, as a canonical Fp2
/// (one constant-time subtraction of p per coordinate).
pub(super) fn lane_fp2<C: TowerConfig<N>, const N: usize, const M: usize>(re: &[[u64; 8]; M], im: &[[u64; 8]; M], i: usize) -> Fp2<C, N> {
    let coord = |v: &[[u64; 8]; M]| {
        let mut a = [0u64; M];
        for j in 0..M {
            a[j] = v[j][i];
        }
        let w = from52::<M, N>(&a);
        Fp::from_mont_unchecked(reduce_once_ct(w, &Fp::<C, N>::PINV))
    };
    Fp2::new(coord(re), coord(im))
}

/// (g1, g2, g4, g5) -> the c0 and c1 lane arrays.
fn to_lanes<C: TowerConfig<N>, const N: usize>(g: &[Fp2<C, N>; 4]) -> [Lanes; 2] {
    let [mut c0, mut c1] = [[[0u64; 8]; L]; 2];
    for (e, &lane) in g.iter().zip(&LANE) {
        set_lane_fp2(&mut c0, &mut c1, lane, e);
    }
    [c0, c1]
}

/// The lane arrays (64-bit Montgomery form, below 2p) -> canonical (g1, g2, g4, g5).
fn from_lanes<C: TowerConfig<N>, const N: usize>([c0, c1]: &[Lanes; 2]) -> [Fp2<C, N>; 4] {
    LANE.map(|lane| lane_fp2(c0, c1, lane))
}

pub(super) mod simd {
    //! The vector kernels; every function needs AVX-512F and AVX-512 IFMA. Generic over the
    //! limb count M (8 for BLS12-381, 6 for BN254); `E` and `K` without it are the 8-limb ones.
    use super::{Consts52, Lanes, L, MASK52};
    use core::arch::x86_64::*;

    pub(in crate::tower) type V = __m512i;
    pub(in crate::tower) type E<const M: usize = L> = [V; M];

    pub(in crate::tower) struct K<const M: usize = L> {
        pub(in crate::tower) p: E<M>,
        pub(in crate::tower) p2: E<M>,
        pub(in crate::tower) p4: E<M>,
        pub(in crate::tower) p6: E<M>,
        pub(in crate::tower) pinv: V,
        pub(in crate::tower) mu: V,
        /// Shift counts of the reduction's top-bits window (`Consts52::sh`, 52 - sh).
        pub(in crate::tower) shl: __m128i,
        pub(in crate::tower) shr: __m128i,
        pub(in crate::tower) mask: V,
        pub(in crate::tower) zero: V,
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(in crate::tower) fn splat<const M: usize>(a: &[u64; M]) -> E<M> {
        let mut r = [_mm512_setzero_si512(); M];
        for j in 0..M {
            r[j] = _mm512_set1_epi64(a[j] as i64);
        }
        r
    }

    /// a b / 2^(52 M) mod p in [0, 2p) for normalised inputs whose product is below
    /// 2^(52 M) p.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(in crate::tower) fn mul<const M: usize>(a: &E<M>, b: &E<M>, k: &K<M>) -> E<M> {
        // M + 1 accumulators (M <= 8; the unused tail is dead code after unrolling)
        let mut t = [k.zero; 9];
        for i in 0..M {
            let ai = a[i];
            for j in 0..M {
                t[j] = _mm512_madd52lo_epu64(t[j], ai, b[j]);
                t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], ai, b[j]);
            }
            let m = _mm512_madd52lo_epu64(k.zero, t[0], k.pinv);
            for j in 0..M {
                t[j] = _mm512_madd52lo_epu64(t[j], m, k.p[j]);
                t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, k.p[j]);
            }
            // t[0] is a multiple of 2^52 now: carry its top into the next limb, shift down
            let carry = _mm512_srli_epi64(t[0], 52);
            for j in 0..M {
                t[j] = t[j + 1];
            }
            t[0] = _mm512_add_epi64(t[0], carry);
            t[M] = k.zero;
        }
        let mut r = [k.zero; M];
        let mut carry = k.zero;
        for j in 0..M {
            let x = _mm512_add_epi64(t[j], carry);
            carry = _mm512_srli_epi64(x, 52);
            r[j] = _mm512_and_si512(x, k.mask);
        }
        r
    }

    /// Signed limbs -> normalised limbs (for a non-negative value below 2^(52 M); the top
    /// limb keeps what is above bit 52 (M - 1)).
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(in crate::tower) fn norm<const M: usize>(mut r: E<M>, k: &K<M>) -> E<M> {
        for j in 0..M - 1 {
            let carry = _mm512_srai_epi64(r[j], 52);
            r[j] = _mm512_and_si512(r[j], k.mask);
            r[j + 1] = _mm512_add_epi64(r[j + 1], carry);
        }
        r
    }

    /// Limb-wise a + b (not normalised).
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(in crate::tower) fn add<const M: usize>(a: &E<M>, b: &E<M>) -> E<M> {
        let mut r = *a;
        for j in 0..M {
            r[j] = _mm512_add_epi64(a[j], b[j]);
        }
        r
    }

    /// Limb-wise a - b (not normalised).
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(in crate::tower) fn sub<const M: usize>(a: &E<M>, b: &E<M>) -> E<M> {
        let mut r = *a;
        for j in 0..M {
            r[j] = _mm512_sub_epi64(a[j], b[j]);
        }
        r
    }

    /// Lane i of the result is lane idx[i] of a.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(in crate::tower) fn perm<const M: usize>(a: &E<M>, idx: V) -> E<M> {
        let mut r = *a;
        for j in 0..M {
            r[j] = _mm512_permutexvar_epi64(idx, a[j]);
        }
        r
    }

    /// Lanes of b where `m` is set, of a elsewhere.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(in crate::tower) fn blend<const M: usize>(m: __mmask8, a: &E<M>, b: &E<M>) -> E<M> {
        let mut r = *a;
        for j in 0..M {
            r[j] = _mm512_mask_blend_epi64(m, a[j], b[j]);
        }
        r
    }

    /// A normalised x below 2^(s + 52) -> x - q p in [0, 3p), s = 52 (M - 1) - sh, with
    /// q = floor(a mu / 2^52), a = floor(x / 2^s) (the top limb, shifted in with the next one's
    /// top bits when sh > 0) and mu = floor(2^(s + 52) / p) < 2^51: q <= x / p and
    /// x / p - q < 1 + 2^s / p + 1 < 3 (2^s <= p / 2; for BLS12-381, sh = 0 and s = 364).
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(in crate::tower) fn reduce<const M: usize>(x: &E<M>, k: &K<M>) -> E<M> {
        let a = _mm512_add_epi64(_mm512_sll_epi64(x[M - 1], k.shl), _mm512_srl_epi64(x[M - 2], k.shr));
        let q = _mm512_madd52hi_epu64(k.zero, a, k.mu);
        let mut r = *x;
        for j in 0..M {
            let lo = _mm512_madd52lo_epu64(k.zero, q, k.p[j]);
            r[j] = _mm512_sub_epi64(r[j], lo);
            if j + 1 < M {
                let hi = _mm512_madd52hi_epu64(k.zero, q, k.p[j]);
                r[j + 1] = _mm512_sub_epi64(r[j + 1], hi);
            }
        }
        norm(r, k)
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(in crate::tower) fn constants<const M: usize>(c: &Consts52<M>) -> K<M> {
        K {
            p: splat(&c.p),
            p2: splat(&c.mult[2]),
            p4: splat(&c.mult[4]),
            p6: splat(&c.mult[6]),
            pinv: _mm512_set1_epi64(c.pinv as i64),
            mu: _mm512_set1_epi64(c.mu as i64),
            shl: _mm_set_epi64x(0, c.sh as i64),
            shr: _mm_set_epi64x(0, 52 - c.sh as i64),
            mask: _mm512_set1_epi64(MASK52 as i64),
            zero: _mm512_setzero_si512(),
        }
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(in crate::tower) fn load<const M: usize>(a: &[[u64; 8]; M]) -> E<M> {
        let mut r = [_mm512_setzero_si512(); M];
        for j in 0..M {
            // SAFETY: each row is 64 readable bytes; unaligned loads need no alignment.
            r[j] = unsafe { _mm512_loadu_si512(a[j].as_ptr() as *const _) };
        }
        r
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(in crate::tower) fn store<const M: usize>(v: &E<M>, a: &mut [[u64; 8]; M]) {
        for j in 0..M {
            // SAFETY: each row is 64 writable bytes; unaligned stores need no alignment.
            unsafe { _mm512_storeu_si512(a[j].as_mut_ptr() as *mut _, v[j]) };
        }
    }

    /// Each lane array (its first M rows) times the constant `m` (Montgomery, in place): with `Consts52::k_in` a
    /// value enters the 52-bit form (a 2^(64 N) -> a 2^(52 M)), with `k_out` it leaves it;
    /// below 2p either way.
    ///
    /// # Safety
    /// The CPU must support AVX-512F and AVX-512 IFMA.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(in crate::tower) unsafe fn mul_all<const M: usize>(v: &mut [Lanes], m: &[u64; M], c: &Consts52<M>) {
        let k = constants(c);
        let m = splat(m);
        for a in v.iter_mut() {
            store(&mul(&load(super::rows::<M>(a)), &m, &k), super::rows_mut::<M>(a));
        }
    }

    /// x^e for the eight lanes of `x` (52-bit form, below 2p; in place, below 2p) along a
    /// x <- x^e in every lane along `plan` (`chain.rs`: a straight-line program of squaring
    /// runs and products over registers, register 0 holding x). The same operations for every
    /// lane value. Bounds: every product's inputs are below 2p, so their product is below
    /// 4p^2 < R p and its output below 2p (`mul`); the caller reduces the result once.
    ///
    /// # Safety
    /// The CPU must support AVX-512F and AVX-512 IFMA.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) unsafe fn pow_plan(x: &mut Lanes, plan: &crate::chain::PowPlan, c: &Consts52) {
        let k = constants(c);
        let xv = load(x);
        let mut regs = [xv; crate::chain::MAX_REGS];
        for op in plan.ops() {
            let (d, a, b) = op.regs();
            if op.is_sqr() {
                let mut v = regs[a];
                for _ in 0..b {
                    v = mul(&v, &v, &k);
                }
                regs[d] = v;
            } else {
                regs[d] = mul(&regs[a], &regs[b], &k);
            }
        }
        if let Some(out) = plan.out() {
            store(&regs[out], x);
        }
    }

    /// n compressed squarings of the 52-bit state (c0 in `g0`, c1 in `g1`; lanes 0, 1, 3, 4 =
    /// g1, g4, g2, g5, each coordinate below 3p).
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn squarings(g0: &mut E, g1: &mut E, n: u32, k: &K) {
        let (mut g0v, mut g1v) = (*g0, *g1);
        // lanes 2 and 5 take the sums g1 + g4 and g2 + g5
        let idx_a = _mm512_set_epi64(7, 6, 3, 4, 3, 0, 1, 0);
        let idx_b = _mm512_set_epi64(7, 6, 4, 4, 3, 1, 1, 0);
        const SUMS: __mmask8 = 0b0010_0100;
        // the three terms of each new coefficient: lane 0 (g1') xi (s5 - s3 - s4), lane 1 (g4')
        // s3 + xi s4, lane 3 (g2') s0 + xi s1, lane 4 (g5') s2 - s0 - s1
        let idx_v1 = _mm512_set_epi64(0, 0, 0, 2, 0, 0, 3, 5);
        let idx_v2 = _mm512_set_epi64(0, 0, 0, 0, 1, 0, 4, 3);
        let idx_v3 = _mm512_set_epi64(0, 0, 0, 1, 0, 0, 0, 4);
        const LANE0: __mmask8 = 0b0000_0001;
        const LANE4: __mmask8 = 0b0001_0000;
        const PLUS_2G: __mmask8 = 0b0001_0001;

        for _ in 0..n {
            // x = state with the two sums (< 6p)
            let x0 = norm(add(&perm(&g0v, idx_a), &blend(SUMS, &[k.zero; L], &perm(&g0v, idx_b))), k);
            let x1 = norm(add(&perm(&g1v, idx_a), &blend(SUMS, &[k.zero; L], &perm(&g1v, idx_b))), k);
            // six Fp2 squarings: (x0 + x1)(x0 - x1) and 2 x0 x1, each term < 12p
            let a = norm(add(&x0, &x1), k);
            let b = norm(sub(&add(&x0, &k.p6), &x1), k);
            let d = norm(add(&x0, &x0), k);
            let q0 = mul(&a, &b, k); // s.c0 < 2p
            let q1 = mul(&d, &x1, k); // s.c1 < 2p
            let (v10, v11) = (perm(&q0, idx_v1), perm(&q1, idx_v1));
            let (v20, v21) = (perm(&q0, idx_v2), perm(&q1, idx_v2));
            let (v30, v31) = (perm(&q0, idx_v3), perm(&q1, idx_v3));
            // w = v1 - v2 - v3 + 4p (< 6p)
            let w0 = sub(&sub(&add(&v10, &k.p4), &v20), &v30);
            let w1 = sub(&sub(&add(&v11, &k.p4), &v21), &v31);
            // y = v1 + xi v2, xi (a0 + a1 u) = (a0 - a1) + (a0 + a1) u (< 6p)
            let y0 = add(&v10, &add(&sub(&v20, &v21), &k.p2));
            let y1 = add(&v11, &add(&v20, &v21));
            // xi w (< 12p)
            let xw0 = add(&sub(&w0, &w1), &k.p6);
            let xw1 = add(&w0, &w1);
            // t: lane 0 xi w, lanes 1 and 3 y, lane 4 w
            let t0 = blend(LANE0, &blend(LANE4, &y0, &w0), &xw0);
            let t1 = blend(LANE0, &blend(LANE4, &y1, &w1), &xw1);
            // 3t + 2g on lanes 0 and 4, 3t + 6p - 2g on lanes 1 and 3 (< 42p)
            let (dg0, dg1) = (add(&g0v, &g0v), add(&g1v, &g1v));
            let e0 = blend(PLUS_2G, &sub(&k.p6, &dg0), &dg0);
            let e1 = blend(PLUS_2G, &sub(&k.p6, &dg1), &dg1);
            let o0 = add(&add(&add(&t0, &t0), &t0), &e0);
            let o1 = add(&add(&add(&t1, &t1), &t1), &e1);
            g0v = reduce(&norm(o0, k), k);
            g1v = reduce(&norm(o1, k), k);
        }

        *g0 = g0v;
        *g1 = g1v;
    }

    /// Compressed squarings of the state `s` (c0 and c1 coefficients, 64-bit Montgomery form,
    /// canonical, lane-major limbs of 52 bits; lanes 0, 1, 3, 4 = g1, g4, g2, g5), with a copy
    /// of the state at each depth (increasing, from 1) in `outs`, in the same form (below 2p).
    ///
    /// # Safety
    /// The CPU must support AVX-512F and AVX-512 IFMA.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) unsafe fn run_depths<const M: usize>(s: &mut [Lanes; 2], depths: &[u32; M], outs: &mut [[Lanes; 2]; M], c: &Consts52) {
        // SAFETY (both calls): the caller's contract, the CPU has AVX-512F and IFMA.
        unsafe { mul_all(s, &c.k_in, c) };
        let k = constants(c);
        let (mut g0, mut g1) = (load(&s[0]), load(&s[1]));
        let mut prev = 0u32;
        for (o, &d) in outs.iter_mut().zip(depths) {
            squarings(&mut g0, &mut g1, d - prev, &k);
            store(&g0, &mut o[0]);
            store(&g1, &mut o[1]);
            unsafe { mul_all(o, &c.k_out, c) };
            prev = d;
        }
    }
}

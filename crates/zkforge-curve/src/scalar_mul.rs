//! Scalar multiplication with the GLV/GLS endomorphism split.
//!
//! The scalar k < r is split into `DIM` signed sub-scalars of about log2(r)/DIM bits
//! (Gallant-Lambert-Vanstone, CRYPTO 2001; Galbraith-Lin-Scott, ePrint 2008/194 for the
//! 4-dimensional psi split on BLS12 G2), and the parts are processed together, sharing the
//! doublings:
//! - constant time (`mul`): signed fixed windows (Booth recoding, digits in
//!   [-2^(w-1), 2^(w-1)]), tables scanned in full for every lookup, complete additions; no
//!   branch or memory index depends on the scalar;
//! - variable time (`mul_vartime`): width-w NAF per part, interleaved (Straus), odd-multiple
//!   tables.
//! Costs for one 128-bit part pair (G1), w = 5: 128 doublings (2M+5S) and 2 x 26 additions.

use alloc::vec::Vec;
use subtle::{Choice, ConditionallySelectable};

use crate::config::{CurveConfig, Endomorphism, SubScalar};
use crate::point::{Affine, Jacobian};
use crate::wide::ct_eq_u32;

/// Tunables for scalar multiplication, so each choice can be measured alone.
#[derive(Clone, Copy, Debug)]
pub struct ScalarMulConfig {
    /// Window width of the constant-time path (2..=6).
    pub ct_window: u32,
    /// wNAF width of the variable-time path (2..=7).
    pub wnaf_window: u32,
    /// Use the endomorphism split (off: one part, plain windows over 256 bits).
    pub endomorphism: bool,
}

impl ScalarMulConfig {
    /// The measured defaults for group `C`: the endomorphism split when the group has one.
    pub fn for_curve<C: CurveConfig>() -> Self {
        let mut cfg = Self::default_for(C::Endo::SUB_BITS);
        cfg.endomorphism = C::Endo::PRESENT;
        cfg
    }

    /// Measured defaults for a group whose sub-scalars have `sub_bits` bits.
    pub const fn default_for(sub_bits: u32) -> Self {
        if sub_bits <= 64 {
            Self { ct_window: 4, wnaf_window: 4, endomorphism: true }
        } else {
            Self { ct_window: 5, wnaf_window: 5, endomorphism: true }
        }
    }
}

/// The parts of k and their bases endo^i(P) (sign not yet applied).
fn split<C: CurveConfig>(p: &Jacobian<C>, k: &[u64; 4], endo: bool) -> (usize, [SubScalar; 4], [Jacobian<C>; 4], u32) {
    let mut bases = [*p; 4];
    if endo && C::Endo::PRESENT {
        let parts = C::Endo::decompose(k);
        for i in 1..C::Endo::DIM {
            bases[i] = C::Endo::endo(&bases[i - 1]);
        }
        (C::Endo::DIM, parts, bases, C::Endo::SUB_BITS)
    } else {
        // No split: one part; 256-bit scalars do not fit a u128 part, so this path handles
        // them with two parts k_lo + 2^128 k_hi over P and 2^128 P.
        let lo = (k[0] as u128) | ((k[1] as u128) << 64);
        let hi = (k[2] as u128) | ((k[3] as u128) << 64);
        let mut b1 = *p;
        for _ in 0..128 {
            b1 = b1.double();
        }
        bases[1] = b1;
        let parts = [
            SubScalar { neg: Choice::from(0), mag: lo },
            SubScalar { neg: Choice::from(0), mag: hi },
            SubScalar::default(),
            SubScalar::default(),
        ];
        (2, parts, bases, 128)
    }
}

#[inline(always)]
fn bits_at(v: u128, pos: i32, len: u32) -> u32 {
    // bits pos .. pos+len of v (pos may be -1: bit -1 reads as 0; bits above 127 read as 0)
    if pos < 0 {
        ((v << 1) & ((1u128 << len) - 1)) as u32
    } else if pos >= 128 {
        0
    } else {
        ((v >> pos) & ((1u128 << len) - 1)) as u32
    }
}

/// Constant-time k P for a canonical scalar k < r (little-endian limbs).
pub fn mul_ct<C: CurveConfig>(p: &Jacobian<C>, k: &[u64; 4], cfg: &ScalarMulConfig) -> Jacobian<C> {
    multi_mul_ct(core::slice::from_ref(p), core::slice::from_ref(k), cfg)
}

/// Constant-time sum_i k_i P_i for canonical scalars k_i < r (Straus: every part of every
/// scalar shares one chain of doublings; per part one full table scan and one complete mixed
/// addition per window). For secret scalars (Pedersen vector commitments of blinding
/// vectors); the points and their number are public. The lengths must match (the shorter
/// is used otherwise).
pub fn multi_mul_ct<C: CurveConfig>(points: &[Jacobian<C>], scalars: &[[u64; 4]], cfg: &ScalarMulConfig) -> Jacobian<C> {
    let w = cfg.ct_window;
    let half = 1usize << (w - 1);
    let n = points.len().min(scalars.len());
    let endo = cfg.endomorphism && C::Endo::PRESENT;
    let mut all_parts = Vec::with_capacity(n * 4);
    let mut all_bases = Vec::with_capacity(n * 4);
    let mut bits = 0;
    let mut dim = 1;
    for (p, k) in points[..n].iter().zip(&scalars[..n]) {
        let (d, parts, bases, b) = split(p, k, cfg.endomorphism);
        bits = b;
        dim = d;
        all_parts.extend_from_slice(&parts[..d]);
        all_bases.extend_from_slice(&bases[..d]);
    }
    // tables[i][m-1] = m * bases[i], m = 1..=half, in affine form (one inversion for all) so the
    // main loop uses mixed additions. A table depends on the point only, never on the scalar:
    // the points are public (see above), so a table may branch on the point's special cases
    // (`add_vartime`) and is normalised with a variable-time inversion without leaking anything
    // about k. Even multiples are doublings of the half multiple (a doubling costs less than
    // half an addition), odd ones an addition of the base.
    let tables = affine_tables(&all_bases, dim, half, endo, |base, out| {
        let start = out.len();
        out.push(*base);
        for m in 2..=half {
            let next = if m % 2 == 0 { out[start + m / 2 - 1].double() } else { out[start + m - 2].add_vartime(base) };
            out.push(next);
        }
    });
    let nwin = bits / w + 1;
    let mut acc = Jacobian::<C>::IDENTITY;
    for j in (0..nwin).rev() {
        if j != nwin - 1 {
            for _ in 0..w {
                acc = acc.double();
            }
        }
        for (i, part) in all_parts.iter().enumerate() {
            let raw = bits_at(part.mag, (j * w) as i32 - 1, w + 1);
            let top = raw >> w;
            let low = raw & ((1 << w) - 1);
            // Booth digit: ((low + 1) >> 1) - top * 2^(w-1), as sign and magnitude
            let pos = (low + 1) >> 1;
            let d = pos as i32 - ((top as i32) << (w - 1));
            let sign = ((d >> 31) & 1) as u32;
            let mag = ((d ^ -(sign as i32)) + sign as i32) as u32;
            let mut e = Affine::<C>::IDENTITY;
            for m in 1..=half {
                e = Affine::conditional_select(&e, &tables[i * half + m - 1], ct_eq_u32(mag, m as u32));
            }
            let neg = Choice::from(sign as u8) ^ part.neg;
            e.y = C::Base::conditional_select(&e.y, &-e.y, neg);
            acc = acc.add_mixed(&e);
        }
    }
    acc
}

/// Multiples tables of every base in affine form, for bases grouped `dim` per point: with the
/// endomorphism split only each point's first table is built by `build` and the others are its
/// images (endo keeps Z = 1), otherwise every table is built; all built tables are normalised
/// together with one inversion. The output holds the tables in the order of `bases`.
fn affine_tables<C: CurveConfig>(bases: &[Jacobian<C>], dim: usize, per: usize, endo: bool, build: impl Fn(&Jacobian<C>, &mut Vec<Jacobian<C>>)) -> Vec<Affine<C>> {
    let built: Vec<&Jacobian<C>> = if endo { bases.iter().step_by(dim).collect() } else { bases.iter().collect() };
    let mut jac = Vec::with_capacity(built.len() * per);
    for base in built {
        build(base, &mut jac);
    }
    let aff = Jacobian::batch_to_affine_vartime(&jac);
    if !endo {
        return aff;
    }
    let mut out = Vec::with_capacity(bases.len() * per);
    for first in aff.chunks_exact(per) {
        out.extend_from_slice(first);
        for _ in 1..dim {
            let prev = out.len() - per;
            for k in 0..per {
                let j = C::Endo::endo(&out[prev + k].to_jacobian());
                out.push(Affine { x: j.x, y: j.y });
            }
        }
    }
    out
}

/// Width-w NAF digits of v, least significant first; returns the count.
pub fn wnaf(v: u128, w: u32, out: &mut [i8; 132]) -> usize {
    let mut n = [v as u64, (v >> 64) as u64, 0u64];
    let mut i = 0;
    let full = 1i64 << w;
    let half = 1i64 << (w - 1);
    while n[0] | n[1] | n[2] != 0 {
        if n[0] & 1 == 1 {
            let mut d = (n[0] & (full as u64 - 1)) as i64;
            if d >= half {
                d -= full;
            }
            out[i] = d as i8;
            // n -= d
            if d >= 0 {
                let (s, b) = n[0].overflowing_sub(d as u64);
                n[0] = s;
                if b {
                    let (s1, b1) = n[1].overflowing_sub(1);
                    n[1] = s1;
                    if b1 {
                        n[2] -= 1;
                    }
                }
            } else {
                let (s, c) = n[0].overflowing_add((-d) as u64);
                n[0] = s;
                if c {
                    let (s1, c1) = n[1].overflowing_add(1);
                    n[1] = s1;
                    if c1 {
                        n[2] += 1;
                    }
                }
            }
        } else {
            out[i] = 0;
        }
        n[0] = (n[0] >> 1) | (n[1] << 63);
        n[1] = (n[1] >> 1) | (n[2] << 63);
        n[2] >>= 1;
        i += 1;
    }
    i
}

/// Variable-time k P (public scalars): interleaved wNAF over the endomorphism split.
pub fn mul_vartime<C: CurveConfig>(p: &Jacobian<C>, k: &[u64; 4], cfg: &ScalarMulConfig) -> Jacobian<C> {
    let w = cfg.wnaf_window;
    let (dim, parts, bases, _) = split(p, k, cfg.endomorphism);
    let tsize = 1usize << (w - 2);
    let mut digits = [[0i8; 132]; 4];
    let mut lens = [0usize; 4];
    let mut maxlen = 0;
    for i in 0..dim {
        lens[i] = wnaf(parts[i].mag, w, &mut digits[i]);
        maxlen = maxlen.max(lens[i]);
    }
    // odd multiples of each base: P, 3P, ..., (2^(w-1) - 1) P, affine; signs applied in the loop
    let tables = affine_tables(&bases[..dim], dim, tsize, cfg.endomorphism && C::Endo::PRESENT, |b, out| {
        let b2 = b.double();
        let mut acc = *b;
        out.push(acc);
        for _ in 1..tsize {
            acc = acc.add_vartime(&b2);
            out.push(acc);
        }
    });
    let mut acc = Jacobian::<C>::IDENTITY;
    for j in (0..maxlen).rev() {
        acc = acc.double();
        for i in 0..dim {
            if j < lens[i] {
                let d = digits[i][j] as i32;
                if d != 0 {
                    let e = tables[i * tsize + (d.unsigned_abs() as usize >> 1)];
                    let neg = (d < 0) ^ bool::from(parts[i].neg);
                    acc = acc.add_mixed_vartime(&if neg { -e } else { e });
                }
            }
        }
    }
    acc
}

/// k mod r for any 256-bit k, in constant time (r > 2^250 for both curves, so at most 63
/// subtractions would be needed in general; here k < 2^256 < 64 r, done as six conditional
/// subtractions of 32r, 16r, ..., r).
pub fn reduce_scalar<C: CurveConfig>(k: &[u64; 4]) -> [u64; 4] {
    let mut k = *k;
    // top: 32 r may exceed 2^256 for r > 2^251; compare in 5 limbs
    for shift in (0..6).rev() {
        let mut m = [0u64; 5];
        for i in 0..4 {
            m[i] |= C::ORDER[i] << shift;
            if shift > 0 {
                m[i + 1] |= C::ORDER[i] >> (64 - shift);
            }
        }
        let k5 = [k[0], k[1], k[2], k[3], 0];
        let (d, borrow) = zkforge_field::limbs::sub_rt(&k5, &m);
        let ge = Choice::from((borrow ^ 1) as u8);
        for i in 0..4 {
            k[i] = u64::conditional_select(&k[i], &d[i], ge);
        }
    }
    k
}

impl<C: CurveConfig> Jacobian<C> {
    /// k P in constant time for any 256-bit k (little-endian limbs; reduced mod r first).
    /// Valid for P in the prime-order subgroup (the endomorphism split relies on it), which
    /// every checked decoder guarantees.
    pub fn mul_limbs(&self, k: &[u64; 4]) -> Self {
        mul_ct(self, &reduce_scalar::<C>(k), &ScalarMulConfig::for_curve::<C>())
    }

    /// k P in variable time (public k; reduced mod r first). Same subgroup condition.
    pub fn mul_limbs_vartime(&self, k: &[u64; 4]) -> Self {
        mul_vartime(self, &reduce_scalar::<C>(k), &ScalarMulConfig::for_curve::<C>())
    }
}

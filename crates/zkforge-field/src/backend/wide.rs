//! Double-width ("wide") values for lazy reduction, portable reference versions.
//!
//! A [`Wide`] holds a 2N-word integer t that stands for t * R^-1 mod p (R = 2^(64N)), as the
//! unreduced product of two Montgomery-form elements does. Sums and differences of such
//! products are formed modulo p R (so they stay below p R) and reduced once, by [`redc`],
//! instead of once per product: the lazy reduction of Aranha, Karabina, Longa, Gebotys and
//! Lopez, "Faster explicit formulas for computing pairings over ordinary curves" (ePrint
//! 2010/526, section 3), which blst and constantine use in their towers.
//!
//! Bounds, for a modulus with two spare top bits (4p < R; BN254 and BLS12-381 both qualify):
//! a product of two inputs below 2p is below 4p^2 < p R; `dbl_add` / `dbl_sub` keep values in
//! [0, p R); `redc` of a value below p R is fully reduced. The x86-64 kernels in
//! `x86_64_adx.rs` compute the same functions; `tests/backends.rs` compares them.

use crate::limbs::{adc_rt, mac, sbb_rt};

/// A 2N-word value, low words first: `lo` holds words 0..N, `hi` words N..2N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Wide<const N: usize> {
    /// Words 0..N.
    pub lo: [u64; N],
    /// Words N..2N.
    pub hi: [u64; N],
}

impl<const N: usize> Wide<N> {
    /// Zero.
    pub const ZERO: Self = Self { lo: [0; N], hi: [0; N] };
}

/// The exact product a * b (schoolbook, u128 products).
#[inline(always)]
pub fn mul_wide<const N: usize>(a: &[u64; N], b: &[u64; N]) -> Wide<N> {
    let mut lo = [0u64; N];
    let mut hi = [0u64; N];
    for i in 0..N {
        let mut carry = 0u64;
        for j in 0..N {
            let k = i + j;
            let t = if k < N { lo[k] } else { hi[k - N] };
            let (l, h) = mac(t, a[j], b[i], carry);
            if k < N {
                lo[k] = l;
            } else {
                hi[k - N] = l;
            }
            carry = h;
        }
        // word i + N is untouched so far
        hi[i] = carry;
    }
    Wide { lo, hi }
}

/// t R^-1 mod p, fully reduced, for t < p R: Montgomery reduction of the low half (a value
/// U <= p), plus the high half, minus p under a mask.
#[inline(always)]
pub fn redc<const N: usize>(t: &Wide<N>, p: &[u64; 8]) -> [u64; N] {
    let inv = p[N];
    let mut u = t.lo;
    for _ in 0..N {
        let m = u[0].wrapping_mul(inv);
        let (_, mut carry) = mac(u[0], m, p[0], 0);
        for j in 1..N {
            let (l, h) = mac(u[j], m, p[j], carry);
            u[j - 1] = l;
            carry = h;
        }
        u[N - 1] = carry;
    }
    let mut s = [0u64; N];
    let mut c = 0;
    for j in 0..N {
        let (x, cc) = adc_rt(u[j], t.hi[j], c);
        s[j] = x;
        c = cc;
    }
    super::portable::reduce_once_ct(s, p)
}

/// a + b modulo p R, for a, b < p R.
#[inline(always)]
pub fn dbl_add<const N: usize>(a: &Wide<N>, b: &Wide<N>, p: &[u64; 8]) -> Wide<N> {
    let mut r = Wide::ZERO;
    let mut c = 0;
    for j in 0..N {
        (r.lo[j], c) = adc_rt(a.lo[j], b.lo[j], c);
    }
    for j in 0..N {
        (r.hi[j], c) = adc_rt(a.hi[j], b.hi[j], c);
    }
    r.hi = super::portable::reduce_once_ct(r.hi, p);
    r
}

/// a - b modulo p R, for a, b < p R.
#[inline(always)]
pub fn dbl_sub<const N: usize>(a: &Wide<N>, b: &Wide<N>, p: &[u64; 8]) -> Wide<N> {
    let mut r = wide_sub_borrow(a, b);
    let mask = super::portable::value_barrier(0u64.wrapping_sub(r.1));
    let mut c = 0;
    for j in 0..N {
        (r.0.hi[j], c) = adc_rt(r.0.hi[j], p[j] & mask, c);
    }
    r.0
}

/// The plain difference a - b, for a >= b.
#[inline(always)]
pub fn wide_sub<const N: usize>(a: &Wide<N>, b: &Wide<N>) -> Wide<N> {
    wide_sub_borrow(a, b).0
}

#[inline(always)]
fn wide_sub_borrow<const N: usize>(a: &Wide<N>, b: &Wide<N>) -> (Wide<N>, u64) {
    let mut r = Wide::ZERO;
    let mut c = 0;
    for j in 0..N {
        (r.lo[j], c) = sbb_rt(a.lo[j], b.lo[j], c);
    }
    for j in 0..N {
        (r.hi[j], c) = sbb_rt(a.hi[j], b.hi[j], c);
    }
    (r, c)
}

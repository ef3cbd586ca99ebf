//! Portable Montgomery multiplication: CIOS (Koc, Acar, Kaliski, "Analyzing and comparing
//! Montgomery multiplication algorithms", IEEE Micro 1996) over u64 limbs with u128 products.
//!
//! Cost: 2N^2 + N word multiplications. The accumulator has N+1 words; for a modulus with a
//! spare top bit (all fields here) the result is < 2p and fits N words.

use crate::limbs::mac;

/// a*b*2^(-64N) mod p, result in [0, 2p). `p[N]` holds -p^-1 mod 2^64.
#[inline(always)]
pub const fn mont_mul<const N: usize>(a: &[u64; N], b: &[u64; N], p: &[u64; 8]) -> [u64; N] {
    let inv = p[N];
    // t[0..N] plus a top word
    let mut t = [0u64; N];
    let mut top: u64 = 0;
    let mut i = 0;
    while i < N {
        // t += a * b[i]
        let mut carry = 0u64;
        let mut j = 0;
        while j < N {
            let (lo, hi) = mac(t[j], a[j], b[i], carry);
            t[j] = lo;
            carry = hi;
            j += 1;
        }
        let (s, c) = crate::limbs::adc(top, carry, 0);
        top = s;
        let top_hi = c;
        // t = (t + m*p) / 2^64
        let m = t[0].wrapping_mul(inv);
        let (_, mut carry) = mac(t[0], m, p[0], 0);
        let mut j = 1;
        while j < N {
            let (lo, hi) = mac(t[j], m, p[j], carry);
            t[j - 1] = lo;
            carry = hi;
            j += 1;
        }
        let (s, c) = crate::limbs::adc(top, carry, 0);
        t[N - 1] = s;
        top = top_hi + c;
        i += 1;
    }
    debug_assert!(top == 0);
    t
}

/// Full reduction of a value in [0, 2p) (constant time: subtract, then select on the borrow).
/// Also usable in const context (the derivation of constants).
#[inline(always)]
pub const fn reduce_once<const N: usize>(a: [u64; N], p: &[u64; 8]) -> [u64; N] {
    let mut d = [0u64; N];
    let mut borrow = 0;
    let mut i = 0;
    while i < N {
        let (x, b) = crate::limbs::sbb(a[i], p[i], borrow);
        d[i] = x;
        borrow = b;
        i += 1;
    }
    // borrow = 1 means a < p: keep a
    let mask = 0u64.wrapping_sub(borrow);
    let mut r = [0u64; N];
    let mut i = 0;
    while i < N {
        r[i] = (a[i] & mask) | (d[i] & !mask);
        i += 1;
    }
    r
}

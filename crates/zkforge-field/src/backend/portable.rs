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

/// Hide a value from the optimiser, so that mask arithmetic on it cannot be turned into a
/// branch (LLVM does turn `(a & m) | (d & !m)` on a borrow mask into a conditional jump, which
/// is neither constant time nor fast on random data).
#[inline(always)]
pub fn value_barrier(x: u64) -> u64 {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        let mut x = x;
        // SAFETY: an empty asm block that only claims to read and rewrite `x` in a register; it
        // touches no memory, stack or flags.
        unsafe { core::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags)) };
        x
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        core::hint::black_box(x)
    }
}

/// Full reduction of a value in [0, 2p) at run time: subtract, then select on the borrow
/// through [`value_barrier`] (constant time). [`reduce_once`] is the const-context twin.
#[inline(always)]
pub fn reduce_once_ct<const N: usize>(a: [u64; N], p: &[u64; 8]) -> [u64; N] {
    let mut d = [0u64; N];
    let mut borrow = 0;
    for i in 0..N {
        let (x, b) = crate::limbs::sbb_rt(a[i], p[i], borrow);
        d[i] = x;
        borrow = b;
    }
    select_on_borrow(borrow, a, d)
}

/// `a` where `borrow` is 1 and `d` where it is 0, in constant time: one TEST and a CMOVZ per
/// word on x86-64 for 4 and 6 words (7 instructions for 6 words, where the mask form takes
/// 19) unless [`crate::backend::set_narrow_select`] asks for masks, the masks
/// `(a & m) | (d & !m)` behind [`value_barrier`] otherwise. `borrow` must be 0 or 1.
#[inline(always)]
pub fn select_on_borrow<const N: usize>(borrow: u64, a: [u64; N], d: [u64; N]) -> [u64; N] {
    #[cfg(target_arch = "x86_64")]
    {
        if N == 6 && crate::backend::cmov_select() {
            let mut r = [a[0], a[1], a[2], a[3], a[4], a[5]];
            // SAFETY: register-only CMOVs (no memory, no stack); flags are clobbered (TEST),
            // which the block declares by not saying `preserves_flags`.
            unsafe {
                core::arch::asm!(
                    "test {b}, {b}",
                    "cmovz {r0}, {d0}",
                    "cmovz {r1}, {d1}",
                    "cmovz {r2}, {d2}",
                    "cmovz {r3}, {d3}",
                    "cmovz {r4}, {d4}",
                    "cmovz {r5}, {d5}",
                    b = in(reg) borrow,
                    r0 = inout(reg) r[0], r1 = inout(reg) r[1], r2 = inout(reg) r[2],
                    r3 = inout(reg) r[3], r4 = inout(reg) r[4], r5 = inout(reg) r[5],
                    d0 = in(reg) d[0], d1 = in(reg) d[1], d2 = in(reg) d[2],
                    d3 = in(reg) d[3], d4 = in(reg) d[4], d5 = in(reg) d[5],
                    options(pure, nomem, nostack),
                );
            }
            let mut out = [0u64; N];
            out.copy_from_slice(&r[..N]);
            return out;
        }
        if N == 4 && crate::backend::cmov_select() {
            let mut r = [a[0], a[1], a[2], a[3]];
            // SAFETY: as above.
            unsafe {
                core::arch::asm!(
                    "test {b}, {b}",
                    "cmovz {r0}, {d0}",
                    "cmovz {r1}, {d1}",
                    "cmovz {r2}, {d2}",
                    "cmovz {r3}, {d3}",
                    b = in(reg) borrow,
                    r0 = inout(reg) r[0], r1 = inout(reg) r[1], r2 = inout(reg) r[2], r3 = inout(reg) r[3],
                    d0 = in(reg) d[0], d1 = in(reg) d[1], d2 = in(reg) d[2], d3 = in(reg) d[3],
                    options(pure, nomem, nostack),
                );
            }
            let mut out = [0u64; N];
            out.copy_from_slice(&r[..N]);
            return out;
        }
    }
    let mask = value_barrier(0u64.wrapping_sub(borrow));
    let mut r = [0u64; N];
    for i in 0..N {
        r[i] = (a[i] & mask) | (d[i] & !mask);
    }
    r
}

/// Full reduction of a value in [0, 2p) (subtract, then select on the borrow), for const
/// context (the derivation of constants); run-time code uses [`reduce_once_ct`].
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

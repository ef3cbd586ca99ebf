//! Fixed-size little-endian u64 limb arithmetic, usable in `const` context.
//!
//! These helpers derive every Montgomery constant (R, R^2, R^3, -p^-1 mod 2^64) from the
//! modulus at compile time, so no constant is typed in by hand and trusted. They are also the
//! building blocks of the portable backend. Nothing here allocates.

/// Add with carry: returns (a + b + carry mod 2^64, carry out).
#[inline(always)]
pub const fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    // two overflowing adds: the shape LLVM turns into an ADC chain
    let (s, c1) = a.overflowing_add(b);
    let (s, c2) = s.overflowing_add(carry);
    (s, (c1 | c2) as u64)
}

/// Run-time add with carry: the x86-64 ADC instruction through its intrinsic (LLVM does not
/// always fuse the two-overflowing-adds shape of [`adc`] into ADC), portable elsewhere.
#[inline(always)]
pub fn adc_rt(a: u64, b: u64, carry: u64) -> (u64, u64) {
    #[cfg(target_arch = "x86_64")]
    {
        let mut out = 0u64;
        // SAFETY: `_addcarry_u64` is baseline x86-64 (no feature needed); it only writes `out`.
        #[allow(unused_unsafe)]
        let c = unsafe { core::arch::x86_64::_addcarry_u64(carry as u8, a, b, &mut out) };
        (out, c as u64)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        adc(a, b, carry)
    }
}

/// Run-time subtract with borrow (SBB through its intrinsic on x86-64; see [`adc_rt`]).
#[inline(always)]
pub fn sbb_rt(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    #[cfg(target_arch = "x86_64")]
    {
        let mut out = 0u64;
        // SAFETY: `_subborrow_u64` is baseline x86-64 (no feature needed); it only writes `out`.
        #[allow(unused_unsafe)]
        let b = unsafe { core::arch::x86_64::_subborrow_u64(borrow as u8, a, b, &mut out) };
        (out, b as u64)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        sbb(a, b, borrow)
    }
}

/// a - b with the borrow out, run-time version of [`sub`] (SBB chain).
#[inline(always)]
pub fn sub_rt<const N: usize>(a: &[u64; N], b: &[u64; N]) -> ([u64; N], u64) {
    let mut r = [0u64; N];
    let mut borrow = 0;
    for i in 0..N {
        let (d, bo) = sbb_rt(a[i], b[i], borrow);
        r[i] = d;
        borrow = bo;
    }
    (r, borrow)
}

/// a * b for little-endian limbs, the product truncated to O limbs (O = A + B for the full
/// product); schoolbook, constant time.
#[inline(always)]
pub fn mul_wide<const A: usize, const B: usize, const O: usize>(a: &[u64; A], b: &[u64; B]) -> [u64; O] {
    let mut out = [0u64; O];
    for i in 0..A {
        let mut carry = 0u128;
        for j in 0..B {
            if i + j < O {
                let t = (a[i] as u128) * (b[j] as u128) + out[i + j] as u128 + carry;
                out[i + j] = t as u64;
                carry = t >> 64;
            }
        }
        if i + B < O {
            out[i + B] = carry as u64;
        }
    }
    out
}

/// a + b with the carry out, run-time version of [`add`] (ADC chain).
#[inline(always)]
pub fn add_rt<const N: usize>(a: &[u64; N], b: &[u64; N]) -> ([u64; N], u64) {
    let mut r = [0u64; N];
    let mut carry = 0;
    for i in 0..N {
        let (s, c) = adc_rt(a[i], b[i], carry);
        r[i] = s;
        carry = c;
    }
    (r, carry)
}

/// Subtract with borrow: returns (a - b - borrow mod 2^64, borrow out in {0, 1}).
#[inline(always)]
pub const fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    // two overflowing subtractions: the shape LLVM turns into an SBB chain
    let (d, b1) = a.overflowing_sub(b);
    let (d, b2) = d.overflowing_sub(borrow);
    (d, (b1 | b2) as u64)
}

/// Multiply-accumulate: returns the low and high words of a + b*c + carry.
#[inline(always)]
pub const fn mac(a: u64, b: u64, c: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + (b as u128) * (c as u128) + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// `a >= b` as integers (variable time; for constants and public data).
pub const fn geq<const N: usize>(a: &[u64; N], b: &[u64; N]) -> bool {
    let mut i = N;
    while i > 0 {
        i -= 1;
        if a[i] > b[i] {
            return true;
        }
        if a[i] < b[i] {
            return false;
        }
    }
    true
}

/// a - b with the borrow out.
pub const fn sub<const N: usize>(a: &[u64; N], b: &[u64; N]) -> ([u64; N], u64) {
    let mut r = [0u64; N];
    let mut borrow = 0;
    let mut i = 0;
    while i < N {
        let (d, bo) = sbb(a[i], b[i], borrow);
        r[i] = d;
        borrow = bo;
        i += 1;
    }
    (r, borrow)
}

/// a + b with the carry out.
pub const fn add<const N: usize>(a: &[u64; N], b: &[u64; N]) -> ([u64; N], u64) {
    let mut r = [0u64; N];
    let mut carry = 0;
    let mut i = 0;
    while i < N {
        let (s, c) = adc(a[i], b[i], carry);
        r[i] = s;
        carry = c;
        i += 1;
    }
    (r, carry)
}

/// 2a mod p for a < p (const context only: variable time).
pub const fn double_mod<const N: usize>(a: &[u64; N], p: &[u64; N]) -> [u64; N] {
    let (d, carry) = add(a, a);
    if carry != 0 || geq(&d, p) {
        sub(&d, p).0
    } else {
        d
    }
}

/// 2^k mod p, by k modular doublings of 1 (const context; p odd, p > 2).
pub const fn pow2_mod<const N: usize>(k: usize, p: &[u64; N]) -> [u64; N] {
    let mut r = [0u64; N];
    r[0] = 1;
    let mut i = 0;
    while i < k {
        r = double_mod(&r, p);
        i += 1;
    }
    r
}

/// -p^-1 mod 2^64 by Newton iteration (p odd): x <- x(2 - p x) doubles the correct bits.
pub const fn neg_inv64(p0: u64) -> u64 {
    let mut x: u64 = 1;
    let mut i = 0;
    while i < 6 {
        x = x.wrapping_mul(2u64.wrapping_sub(p0.wrapping_mul(x)));
        i += 1;
    }
    x.wrapping_neg()
}

/// Number of significant bits.
pub const fn num_bits<const N: usize>(a: &[u64; N]) -> u32 {
    let mut i = N;
    while i > 0 {
        i -= 1;
        if a[i] != 0 {
            return 64 * i as u32 + (64 - a[i].leading_zeros());
        }
    }
    0
}

/// a >> 1.
pub const fn shr1<const N: usize>(a: &[u64; N]) -> [u64; N] {
    let mut r = [0u64; N];
    let mut i = 0;
    while i < N {
        r[i] = a[i] >> 1;
        if i + 1 < N {
            r[i] |= a[i + 1] << 63;
        }
        i += 1;
    }
    r
}

/// a >> k for k < 64 * N.
pub const fn shr<const N: usize>(a: &[u64; N], k: u32) -> [u64; N] {
    let mut r = *a;
    let mut i = 0;
    while i < k {
        r = shr1(&r);
        i += 1;
    }
    r
}

/// a - small (a >= small).
pub const fn sub_small<const N: usize>(a: &[u64; N], s: u64) -> [u64; N] {
    let mut b = [0u64; N];
    b[0] = s;
    sub(a, &b).0
}

/// a + small (no overflow expected).
pub const fn add_small<const N: usize>(a: &[u64; N], s: u64) -> [u64; N] {
    let mut b = [0u64; N];
    b[0] = s;
    add(a, &b).0
}

/// Number of trailing zero bits (a != 0).
pub const fn trailing_zeros<const N: usize>(a: &[u64; N]) -> u32 {
    let mut i = 0;
    while i < N {
        if a[i] != 0 {
            return 64 * i as u32 + a[i].trailing_zeros();
        }
        i += 1;
    }
    64 * N as u32
}

/// Parse a big-endian hex string (no prefix, at most 16N digits) in const context. Panics at
/// compile time on a bad digit: only for constants written in this crate.
pub const fn from_hex_const<const N: usize>(s: &str) -> [u64; N] {
    let bytes = s.as_bytes();
    let mut r = [0u64; N];
    let mut i = 0;
    let len = bytes.len();
    while i < len {
        let c = bytes[len - 1 - i];
        let v = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => panic!("bad hex digit in constant"),
        } as u64;
        r[i / 16] |= v << (4 * (i % 16));
        i += 1;
    }
    r
}

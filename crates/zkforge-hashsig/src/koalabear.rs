//! The KoalaBear field, p = 2^31 - 2^24 + 1 = 127 * 2^24 + 1, in Montgomery form with
//! R = 2^32 (the representation of Plonky3's `MontyField31`, whose raw u32 is what the
//! reference implementations serialise). Multiplication is one 32x32 -> 64-bit product and a
//! Montgomery reduction (Montgomery, "Modular multiplication without trial division", 1985);
//! additions use a masked conditional subtraction, so every operation is constant time.

use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

/// The modulus.
pub const P: u32 = 0x7f00_0001;
/// -p^-1 mod 2^32.
pub(crate) const P_NEG_INV: u32 = {
    // Newton iteration for p^-1 mod 2^32
    let mut inv: u32 = 1;
    let mut i = 0;
    while i < 5 {
        inv = inv.wrapping_mul(2u32.wrapping_sub(P.wrapping_mul(inv)));
        i += 1;
    }
    inv.wrapping_neg()
};
/// R^2 mod p, for conversion into Montgomery form.
const R2: u32 = ((1u128 << 64) % P as u128) as u32;

/// An element of KoalaBear in Montgomery form (value x R mod p, in [0, p)).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Kb(u32);

impl core::fmt::Debug for Kb {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Kb({})", self.to_canonical())
    }
}

/// x R^-1 mod p as a representative below 2p (the REDC without its final subtraction), for
/// x < p 2^32: (x + m p) / 2^32 < (p 2^32 + 2^32 p) / 2^32 = 2p.
#[inline(always)]
const fn monty_reduce_lazy(x: u64) -> u32 {
    let m = (x as u32).wrapping_mul(P_NEG_INV);
    ((x + m as u64 * P as u64) >> 32) as u32
}

/// x R^-1 mod p for x < p 2^32.
#[inline(always)]
const fn monty_reduce(x: u64) -> u32 {
    let m = (x as u32).wrapping_mul(P_NEG_INV);
    let t = (x + m as u64 * P as u64) >> 32; // < 2p
    let t = t as u32;
    let (d, borrow) = t.overflowing_sub(P);
    let mask = 0u32.wrapping_sub(borrow as u32);
    (t & mask) | (d & !mask)
}

impl Kb {
    /// Zero.
    pub const ZERO: Kb = Kb(0);
    /// One.
    pub const ONE: Kb = Kb::from_canonical_const(1);

    /// The element with canonical value `v` (< p; larger values are reduced).
    pub const fn from_canonical_const(v: u32) -> Kb {
        Kb(monty_reduce((v % P) as u64 * R2 as u64))
    }

    /// The element with canonical value `v mod p`.
    #[inline]
    pub fn new(v: u32) -> Kb {
        Self::from_canonical_const(v)
    }

    /// The element whose Montgomery representation is `raw`, if `raw < p` (the reference
    /// serialises this raw value).
    pub fn from_monty(raw: u32) -> Option<Kb> {
        (raw < P).then_some(Kb(raw))
    }

    /// The Montgomery representation.
    #[inline]
    pub const fn to_monty(self) -> u32 {
        self.0
    }

    /// The canonical value in [0, p).
    #[inline]
    pub const fn to_canonical(self) -> u32 {
        monty_reduce(self.0 as u64)
    }

    /// self^3, the Poseidon2 S-box.
    #[inline(always)]
    pub fn cube(self) -> Kb {
        self * self * self
    }

    /// self^3 with the square's Montgomery reduction left below 2p (no conditional
    /// subtraction): s = x^2 R^-1 + (0 or p) < 2p, and s x < 2p^2 < p 2^32 is still a valid
    /// input of the second reduction, whose output is below p. The same value as
    /// [`Kb::cube`], one conditional subtraction shorter.
    #[inline(always)]
    pub(crate) fn cube_lazy_square(self) -> Kb {
        let sq = monty_reduce_lazy(self.0 as u64 * self.0 as u64);
        Kb(monty_reduce(sq as u64 * self.0 as u64))
    }

    /// self^e (square and multiply over the bits of a public exponent).
    pub fn pow(self, mut e: u64) -> Kb {
        let (mut acc, mut b) = (Kb::ONE, self);
        while e > 0 {
            if e & 1 == 1 {
                acc *= b;
            }
            b = b * b;
            e >>= 1;
        }
        acc
    }

    /// The inverse by Fermat (zero maps to zero).
    pub fn inverse(self) -> Kb {
        self.pow(P as u64 - 2)
    }

    /// 2 self.
    #[inline(always)]
    pub fn double(self) -> Kb {
        self + self
    }
}

/// x mod p for x < 2^38, by folding 2^31 = 2^24 - 1 (mod p) twice and one masked
/// subtraction; used to reduce lazily accumulated sums of Montgomery representatives (the
/// Poseidon2 layers stay below 2^37).
#[inline(always)]
pub(crate) const fn reduce64(x: u64) -> u32 {
    const M31: u64 = (1 << 31) - 1;
    let y = ((x >> 31) << 24) - (x >> 31) + (x & M31); // < 2^31 + 2^31
    let y = ((y >> 31) << 24) - (y >> 31) + (y & M31); // < 2^31 + 2^24 < 2p
    let y = y as u32;
    let (d, borrow) = y.overflowing_sub(P);
    let mask = 0u32.wrapping_sub(borrow as u32);
    (y & mask) | (d & !mask)
}

impl Kb {
    /// The element with Montgomery representative `x mod p` (lazy-sum reduction).
    #[inline(always)]
    pub(crate) const fn from_lazy(x: u64) -> Kb {
        Kb(reduce64(x))
    }

    /// The element with Montgomery representative `raw`, which the caller guarantees is < p.
    #[inline(always)]
    pub(crate) const fn from_monty_unchecked(raw: u32) -> Kb {
        debug_assert!(raw < P);
        Kb(raw)
    }

    /// The raw Montgomery representative as u64, for lazy sums.
    #[inline(always)]
    pub(crate) const fn raw64(self) -> u64 {
        self.0 as u64
    }
}

impl Add for Kb {
    type Output = Kb;
    #[inline(always)]
    fn add(self, o: Kb) -> Kb {
        let s = self.0 + o.0; // < 2p < 2^32
        let (d, borrow) = s.overflowing_sub(P);
        let mask = 0u32.wrapping_sub(borrow as u32);
        Kb((s & mask) | (d & !mask))
    }
}
impl Sub for Kb {
    type Output = Kb;
    #[inline(always)]
    // the & builds the branch-free correction: p where the subtraction borrowed, else 0
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn sub(self, o: Kb) -> Kb {
        let (d, borrow) = self.0.overflowing_sub(o.0);
        Kb(d.wrapping_add(P & 0u32.wrapping_sub(borrow as u32)))
    }
}
impl Neg for Kb {
    type Output = Kb;
    #[inline(always)]
    fn neg(self) -> Kb {
        Kb::ZERO - self
    }
}
impl Mul for Kb {
    type Output = Kb;
    #[inline(always)]
    fn mul(self, o: Kb) -> Kb {
        Kb(monty_reduce(self.0 as u64 * o.0 as u64))
    }
}
impl AddAssign for Kb {
    #[inline(always)]
    fn add_assign(&mut self, o: Kb) {
        *self = *self + o;
    }
}
impl SubAssign for Kb {
    #[inline(always)]
    fn sub_assign(&mut self, o: Kb) {
        *self = *self - o;
    }
}
impl MulAssign for Kb {
    #[inline(always)]
    fn mul_assign(&mut self, o: Kb) {
        *self = *self * o;
    }
}

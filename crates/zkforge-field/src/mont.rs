//! Montgomery prime fields over u64 limbs, one generic implementation for every modulus.
//!
//! An element `a` is stored as `a * R mod p` with `R = 2^(64N)`, always fully reduced to
//! `[0, p)`. Multiplication is CIOS Montgomery multiplication (Koc-Acar-Kaliski 1996) through
//! [`crate::backend`] (ADX assembly or portable Rust). Every derived constant (R, R^2, R^3,
//! -p^-1 mod 2^64, the 2-adicity, the roots of unity, the exponents used by inversion,
//! square roots and the Legendre symbol) is computed here at compile time from the modulus.
//!
//! Constant time: add, sub, neg, mul, square, `pow` (fixed 4-bit window with a scanned table),
//! `invert` (Bernstein-Yang, see `inverse.rs`), `sqrt` (see `sqrt.rs`), equality and the
//! encoders/decoders' arithmetic. Functions ending in `_vartime` branch on their input.
//! No operation here allocates.

use alloc::format;
use alloc::string::String;
use core::fmt;
use core::marker::PhantomData;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use rand_core::RngCore;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};

use crate::backend;
use crate::limbs;
use crate::FieldError;

/// Fixed-size byte array of a field's canonical encoding (`[u8; 32]` or `[u8; 48]`).
pub trait ByteArray: Copy + AsRef<[u8]> + AsMut<[u8]> + fmt::Debug + Send + Sync + 'static {
    /// All zeros.
    const ZERO: Self;
}
impl ByteArray for [u8; 32] {
    const ZERO: Self = [0u8; 32];
}
impl ByteArray for [u8; 48] {
    const ZERO: Self = [0u8; 48];
}

/// The data that defines one prime field: its modulus and a multiplicative generator.
/// Everything else is derived (see [`Fp`]'s associated constants).
pub trait FieldConfig<const N: usize>: 'static + Copy + Send + Sync + fmt::Debug {
    /// Name used in `Debug` output and benchmarks, e.g. `"bls12_381::Fp"`.
    const NAME: &'static str;
    /// The prime modulus, little-endian limbs. Must be odd with its top bit clear: a
    /// full-width modulus is refused at compile time (the additions rely on the spare bit).
    ///
    /// ```compile_fail
    /// use zkforge_field::{FieldConfig, Fp};
    /// // secp256k1's base field: full width, so `Fp` over it must not compile
    /// #[derive(Clone, Copy, Debug)]
    /// struct Secp256k1Fp;
    /// impl FieldConfig<4> for Secp256k1Fp {
    ///     const NAME: &'static str = "secp256k1::Fp";
    ///     const MODULUS: [u64; 4] = [0xfffffffefffffc2f, u64::MAX, u64::MAX, u64::MAX];
    ///     const GENERATOR: u64 = 3;
    ///     type Bytes = [u8; 32];
    /// }
    /// let one = Fp::<Secp256k1Fp, 4>::ONE;
    /// let _ = one + one;
    /// ```
    const MODULUS: [u64; N];
    /// A small generator of the multiplicative group (a quadratic non-residue), used for the
    /// 2-adic roots of unity and Tonelli-Shanks.
    const GENERATOR: u64;
    /// Canonical byte encoding, `8 * N` bytes.
    type Bytes: ByteArray;
}

/// An element of the prime field defined by `C`, in Montgomery form.
///
/// `#[repr(transparent)]`: exactly the `[u64; N]` limbs (little-endian, Montgomery form), so
/// points and GPU buffers built from it have no padding.
#[repr(transparent)]
pub struct Fp<C: FieldConfig<N>, const N: usize> {
    pub(crate) limbs: [u64; N],
    _c: PhantomData<C>,
}

impl<C: FieldConfig<N>, const N: usize> Clone for Fp<C, N> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<C: FieldConfig<N>, const N: usize> Copy for Fp<C, N> {}

const fn pack_pinv<const N: usize>(p: &[u64; N]) -> [u64; 8] {
    let mut r = [0u64; 8];
    let mut i = 0;
    while i < N {
        r[i] = p[i];
        i += 1;
    }
    r[N] = limbs::neg_inv64(p[0]);
    r
}

/// Montgomery multiplication in const context (portable CIOS), fully reduced.
const fn mont_mul_const<const N: usize>(a: &[u64; N], b: &[u64; N], p: &[u64; N]) -> [u64; N] {
    let pinv = pack_pinv(p);
    crate::backend::portable::reduce_once(crate::backend::portable::mont_mul(a, b, &pinv), &pinv)
}

/// x^e for x in Montgomery form, in const context (square and multiply).
const fn pow_const<const N: usize>(x: &[u64; N], e: &[u64; N], p: &[u64; N], one: &[u64; N]) -> [u64; N] {
    let mut r = *one;
    let nb = limbs::num_bits(e);
    let mut i = nb;
    while i > 0 {
        i -= 1;
        r = mont_mul_const(&r, &r, p);
        if (e[(i / 64) as usize] >> (i % 64)) & 1 == 1 {
            r = mont_mul_const(&r, x, p);
        }
    }
    r
}

impl<C: FieldConfig<N>, const N: usize> Fp<C, N> {
    /// The modulus limbs followed by -p^-1 mod 2^64 (the layout the backends read).
    pub const PINV: [u64; 8] = {
        // every use of the field reads PINV, so this refuses a full-width or even modulus at
        // compile time: the additions drop the carry out of the top limb, which is only right
        // with a spare top bit (a full-width modulus such as secp256k1's needs another `add`)
        assert!(C::MODULUS[N - 1] >> 63 == 0, "FieldConfig::MODULUS must leave the top bit clear (full-width moduli are not supported)");
        assert!(C::MODULUS[0] & 1 == 1, "FieldConfig::MODULUS must be odd");
        assert!(N <= 7, "at most 7 limbs");
        pack_pinv(&C::MODULUS)
    };
    /// -p^-1 mod 2^64.
    pub const INV: u64 = limbs::neg_inv64(C::MODULUS[0]);
    /// R = 2^(64N) mod p (the Montgomery form of 1).
    pub const R: [u64; N] = limbs::pow2_mod(64 * N, &C::MODULUS);
    /// R^2 mod p (converts into Montgomery form).
    pub const R2: [u64; N] = limbs::pow2_mod(128 * N, &C::MODULUS);
    /// R^3 mod p (used after the plain-integer inversion).
    pub const R3: [u64; N] = limbs::pow2_mod(192 * N, &C::MODULUS);
    /// Bit length of the modulus.
    pub const BITS: u32 = limbs::num_bits(&C::MODULUS);
    /// Length of the canonical byte encoding.
    pub const BYTES: usize = 8 * N;
    /// p - 1.
    pub const P_MINUS_1: [u64; N] = limbs::sub_small(&C::MODULUS, 1);
    /// p - 2 (Fermat inversion exponent).
    pub const P_MINUS_2: [u64; N] = limbs::sub_small(&C::MODULUS, 2);
    /// (p - 1) / 2 (Euler's criterion).
    pub const P_MINUS_1_OVER_2: [u64; N] = limbs::shr1(&Self::P_MINUS_1);
    /// The largest S with 2^S | p - 1.
    pub const TWO_ADICITY: u32 = limbs::trailing_zeros(&Self::P_MINUS_1);
    /// T = (p - 1) / 2^S (odd).
    pub const TRACE: [u64; N] = limbs::shr(&Self::P_MINUS_1, Self::TWO_ADICITY);
    /// (T - 1) / 2.
    pub const TRACE_MINUS_1_OVER_2: [u64; N] = limbs::shr1(&limbs::sub_small(&Self::TRACE, 1));
    /// (p - 3) / 4 (Fp2 square roots, p = 3 mod 4).
    pub const P_MINUS_3_OVER_4: [u64; N] = limbs::shr(&limbs::sub_small(&C::MODULUS, 3), 2);
    /// (p + 1) / 4, the square-root exponent when p = 3 mod 4.
    pub const P_PLUS_1_OVER_4: [u64; N] = limbs::shr(&limbs::add_small(&C::MODULUS, 1), 2);

    /// Zero.
    pub const ZERO: Self = Self { limbs: [0u64; N], _c: PhantomData };
    /// One.
    pub const ONE: Self = Self { limbs: Self::R, _c: PhantomData };
    /// The multiplicative generator `C::GENERATOR`.
    pub const GENERATOR: Self = Self::from_u64_const(C::GENERATOR);
    /// A primitive 2^S-th root of unity: GENERATOR^T.
    pub const ROOT_OF_UNITY: Self =
        Self::from_mont_unchecked(pow_const(&Self::GENERATOR.limbs, &Self::TRACE, &C::MODULUS, &Self::R));

    pub(crate) const fn from_mont_unchecked(limbs: [u64; N]) -> Self {
        Self { limbs, _c: PhantomData }
    }

    /// The element with the given canonical limbs in const context. Panics at compile time
    /// if `limbs >= p` (for constants written in this crate only; use [`Fp::from_limbs`]
    /// for data).
    pub const fn from_limbs_const(limbs: [u64; N]) -> Self {
        assert!(!limbs::geq(&limbs, &C::MODULUS), "constant is not below the modulus");
        Self::from_mont_unchecked(mont_mul_const(&limbs, &Self::R2, &C::MODULUS))
    }

    /// The element with the given big-endian hex digits in const context (compile-time
    /// panic when not canonical).
    pub const fn from_hex_const(s: &str) -> Self {
        Self::from_limbs_const(limbs::from_hex_const(s))
    }

    /// Small integer in const context.
    pub const fn from_u64_const(v: u64) -> Self {
        let mut l = [0u64; N];
        l[0] = v;
        if limbs::geq(&l, &C::MODULUS) {
            l = limbs::sub(&l, &C::MODULUS).0;
        }
        Self::from_mont_unchecked(mont_mul_const(&l, &Self::R2, &C::MODULUS))
    }

    /// The element `v mod p`.
    ///
    /// ```
    /// use zkforge_field::bls12_381::Fp;
    /// assert_eq!(Fp::from_u64(2) + Fp::from_u64(3), Fp::from_u64(5));
    /// ```
    pub fn from_u64(v: u64) -> Self {
        let mut l = [0u64; N];
        l[0] = v;
        // v < 2^64 < p for every modulus here
        Self::from_canonical_unchecked(l)
    }

    /// Montgomery form of canonical limbs (`l < p` must already hold).
    #[inline(always)]
    fn from_canonical_unchecked(l: [u64; N]) -> Self {
        Self::from_mont_unchecked(backend::mont_mul(&l, &Self::R2, &Self::PINV))
    }

    /// The element with canonical little-endian limbs, or `NonCanonical` if `limbs >= p`.
    pub fn from_limbs(l: [u64; N]) -> Result<Self, FieldError> {
        if !bool::from(Self::limbs_lt_modulus(&l)) {
            return Err(FieldError::NonCanonical);
        }
        Ok(Self::from_canonical_unchecked(l))
    }

    /// Canonical little-endian limbs of the element (out of Montgomery form).
    #[inline]
    pub fn to_limbs(&self) -> [u64; N] {
        let mut one = [0u64; N];
        one[0] = 1;
        backend::mont_mul(&self.limbs, &one, &Self::PINV)
    }

    /// The raw Montgomery-form limbs (for backends and tests).
    pub fn to_mont_limbs(&self) -> [u64; N] {
        self.limbs
    }

    /// Build from Montgomery-form limbs, or `NonCanonical` if they are not below p.
    pub fn from_mont_limbs(l: [u64; N]) -> Result<Self, FieldError> {
        if !bool::from(Self::limbs_lt_modulus(&l)) {
            return Err(FieldError::NonCanonical);
        }
        Ok(Self::from_mont_unchecked(l))
    }

    fn limbs_lt_modulus(l: &[u64; N]) -> Choice {
        let (_, borrow) = limbs::sub(l, &C::MODULUS);
        Choice::from(borrow as u8)
    }

    /// True for zero (constant time).
    pub fn is_zero(&self) -> Choice {
        self.ct_eq(&Self::ZERO)
    }

    /// True for one (constant time).
    pub fn is_one(&self) -> Choice {
        self.ct_eq(&Self::ONE)
    }

    /// 2a.
    #[inline(always)]
    pub fn double(&self) -> Self {
        // 2a < 2p < 2^(64N) (spare top bit): a one-bit shift has no carry chain, then one
        // conditional subtraction
        let mut d = [0u64; N];
        d[0] = self.limbs[0] << 1;
        for i in 1..N {
            d[i] = (self.limbs[i] << 1) | (self.limbs[i - 1] >> 63);
        }
        Self::from_mont_unchecked(backend::portable::reduce_once_ct(d, &Self::PINV))
    }

    /// a^2 (Montgomery squaring through the same backend as `mul`).
    #[inline(always)]
    pub fn square(&self) -> Self {
        Self::from_mont_unchecked(backend::mont_square(&self.limbs, &Self::PINV))
    }

    /// a^(2^k).
    #[inline]
    pub fn square_n(&self, k: u32) -> Self {
        let mut r = *self;
        for _ in 0..k {
            r = r.square();
        }
        r
    }

    /// a^e for a little-endian exponent, constant time in the base and in the exponent's
    /// bits (the exponent's length is public): fixed 4-bit windows, table read by scanning.
    ///
    /// ```
    /// use zkforge_field::bn254::Fr;
    /// assert_eq!(Fr::from_u64(3).pow(&[4]), Fr::from_u64(81));
    /// ```
    pub fn pow(&self, exp: &[u64]) -> Self {
        let mut table = [Self::ONE; 16];
        for i in 1..16 {
            table[i] = table[i - 1] * *self;
        }
        let mut r = Self::ONE;
        for limb in exp.iter().rev() {
            for w in (0..16).rev() {
                r = r.square().square().square().square();
                let idx = ((limb >> (4 * w)) & 15) as u8;
                let mut sel = Self::ONE;
                for (j, t) in table.iter().enumerate() {
                    sel.conditional_assign(t, (j as u8).ct_eq(&idx));
                }
                r *= sel;
            }
        }
        r
    }

    /// a^e, variable time in the exponent (sliding 4-bit windows; public exponents only).
    pub fn pow_vartime(&self, exp: &[u64]) -> Self {
        let mut odd = [*self; 8]; // a, a^3, ..., a^15
        let sq = self.square();
        for i in 1..8 {
            odd[i] = odd[i - 1] * sq;
        }
        let nbits = exp.len() * 64;
        let bit = |i: usize| (exp[i / 64] >> (i % 64)) & 1;
        let mut r = Self::ONE;
        let mut started = false;
        let mut i = nbits as isize - 1;
        while i >= 0 {
            if bit(i as usize) == 0 {
                if started {
                    r = r.square();
                }
                i -= 1;
                continue;
            }
            // window [i-l+1, i] with l <= 4 ending in a 1 bit
            let mut l = 4.min(i as usize + 1);
            while bit(i as usize + 1 - l) == 0 {
                l -= 1;
            }
            let mut w = 0usize;
            for k in 0..l {
                w = (w << 1) | bit(i as usize - k) as usize;
            }
            if started {
                for _ in 0..l {
                    r = r.square();
                }
                r *= odd[w >> 1];
            } else {
                r = odd[w >> 1];
                started = true;
            }
            i -= l as isize;
        }
        r
    }

    /// The Legendre symbol (a | p): 0 for zero, 1 for a nonzero square, -1 otherwise
    /// (Euler's criterion; constant time).
    pub fn legendre(&self) -> i8 {
        let e = self.pow_plan(Self::plan_p_minus_1_over_2());
        let is_one = e.is_one();
        let is_zero = e.is_zero();
        let r = i8::conditional_select(&-1, &1, is_one);
        i8::conditional_select(&r, &0, is_zero)
    }

    /// Multiplicative inverse by Fermat (a^(p-2)); constant time. Kept as a reference.
    pub fn invert_fermat(&self) -> CtOption<Self> {
        CtOption::new(self.pow(&Self::P_MINUS_2), !self.is_zero())
    }

    /// Uniformly random element from a rand_core 0.6 RNG (rejection sampling on BITS random
    /// bits). For an RNG of any other rand_core version, or any source of random words, use
    /// [`Fp::random_with`].
    ///
    /// ```
    /// use zkforge_field::bls12_381::Fr;
    /// let x = Fr::random(&mut rand_core::OsRng);
    /// assert_eq!(x * x.invert().unwrap(), Fr::ONE);
    /// ```
    pub fn random(rng: &mut impl RngCore) -> Self {
        Self::random_with(|| rng.next_u64())
    }

    /// Uniformly random element from any source of uniform 64-bit words (rejection sampling on
    /// BITS random bits): ties the caller to no rand_core version.
    ///
    /// ```
    /// use zkforge_field::bn254::Fr;
    /// // e.g. with rand 0.9: Fr::random_with(|| rng.next_u64())
    /// let mut state = 0x9e3779b97f4a7c15u64;
    /// let x = Fr::random_with(|| { state = state.wrapping_mul(6364136223846793005).wrapping_add(1); state });
    /// assert!(x != Fr::ZERO);
    /// ```
    pub fn random_with(mut next_u64: impl FnMut() -> u64) -> Self {
        let top_bits = Self::BITS - 64 * (N as u32 - 1);
        let mask = if top_bits == 64 { u64::MAX } else { (1u64 << top_bits) - 1 };
        loop {
            let mut l = [0u64; N];
            for x in l.iter_mut() {
                *x = next_u64();
            }
            l[N - 1] &= mask;
            if let Ok(v) = Self::from_limbs(l) {
                return v;
            }
        }
    }

    /// Canonical big-endian encoding.
    ///
    /// ```
    /// use zkforge_field::bn254::Fp;
    /// let b = Fp::from_u64(258).to_bytes_be();
    /// assert_eq!(&b[30..], &[1, 2]);
    /// assert_eq!(Fp::from_bytes_be(&b).unwrap(), Fp::from_u64(258));
    /// ```
    pub fn to_bytes_be(&self) -> C::Bytes {
        let l = self.to_limbs();
        let mut out = C::Bytes::ZERO;
        let o = out.as_mut();
        for i in 0..N {
            o[8 * (N - 1 - i)..8 * (N - i)].copy_from_slice(&l[i].to_be_bytes());
        }
        out
    }

    /// Canonical little-endian encoding.
    pub fn to_bytes_le(&self) -> C::Bytes {
        let l = self.to_limbs();
        let mut out = C::Bytes::ZERO;
        let o = out.as_mut();
        for i in 0..N {
            o[8 * i..8 * i + 8].copy_from_slice(&l[i].to_le_bytes());
        }
        out
    }

    /// Decode a canonical big-endian encoding of exactly `8N` bytes; values `>= p` give
    /// `NonCanonical`, other lengths `WrongLength`.
    pub fn from_bytes_be(bytes: &[u8]) -> Result<Self, FieldError> {
        if bytes.len() != 8 * N {
            return Err(FieldError::WrongLength { expected: 8 * N, got: bytes.len() });
        }
        let mut l = [0u64; N];
        for i in 0..N {
            let mut w = [0u8; 8];
            w.copy_from_slice(&bytes[8 * (N - 1 - i)..8 * (N - i)]);
            l[i] = u64::from_be_bytes(w);
        }
        Self::from_limbs(l)
    }

    /// Decode a canonical little-endian encoding of exactly `8N` bytes.
    pub fn from_bytes_le(bytes: &[u8]) -> Result<Self, FieldError> {
        if bytes.len() != 8 * N {
            return Err(FieldError::WrongLength { expected: 8 * N, got: bytes.len() });
        }
        let mut l = [0u64; N];
        for i in 0..N {
            let mut w = [0u8; 8];
            w.copy_from_slice(&bytes[8 * i..8 * i + 8]);
            l[i] = u64::from_le_bytes(w);
        }
        Self::from_limbs(l)
    }

    /// Reduce an arbitrary-length big-endian byte string mod p (for hash-to-field and
    /// wide random values): Horner's rule over digits of N - 1 limbs (each below 2^(64(N-1)),
    /// so below p, and converted with one Montgomery product), one multiplication by
    /// 2^(64(N-1)) per digit: 5 products for RFC 9380's 64-byte BLS12-381 and 48-byte BN254
    /// elements, against 16 and 12 with 64-bit digits.
    ///
    /// ```
    /// use zkforge_field::bls12_381::Fp;
    /// let mut b = [0u8; 64];
    /// b[63] = 5;
    /// assert_eq!(Fp::from_bytes_be_mod_order(&b), Fp::from_u64(5));
    /// assert_eq!(Fp::from_bytes_be_mod_order(&[0xff; 64]), Fp::from_bytes_be_mod_order_by_words(&[0xff; 64]));
    /// ```
    pub fn from_bytes_be_mod_order(bytes: &[u8]) -> Self {
        if N < 2 || C::MODULUS[N - 1] == 0 {
            return Self::from_bytes_be_mod_order_by_words(bytes);
        }
        let digit = 8 * (N - 1);
        let limbs_of = |chunk: &[u8]| {
            // big-endian bytes (at most 8(N - 1)) -> little-endian limbs, top limb zero
            let mut l = [0u64; N];
            for (i, c) in chunk.rchunks(8).enumerate() {
                let mut w = [0u8; 8];
                w[8 - c.len()..].copy_from_slice(c);
                l[i] = u64::from_be_bytes(w);
            }
            l
        };
        // 2^(64(N-1)) in Montgomery form: below p because p's top limb is not zero
        let mut t = [0u64; N];
        t[N - 1] = 1;
        let base = Self::from_canonical_unchecked(t);
        let rem = bytes.len() % digit;
        let (head, body) = bytes.split_at(rem);
        let mut acc = Self::from_canonical_unchecked(limbs_of(head));
        for c in body.chunks_exact(digit) {
            acc = acc * base + Self::from_canonical_unchecked(limbs_of(c));
        }
        acc
    }

    /// [`Fp::from_bytes_be_mod_order`] by Horner's rule over 64-bit digits (two products a
    /// digit): the reference the faster form is tested against.
    pub fn from_bytes_be_mod_order_by_words(bytes: &[u8]) -> Self {
        // 2^64 in Montgomery form (every field here has N >= 2, see `from_u64`)
        let base = Self::from_canonical_unchecked({
            let mut l = [0u64; N];
            l[1] = 1;
            l
        });
        let mut acc = Self::ZERO;
        let rem = bytes.len() % 8;
        if rem != 0 {
            let mut w = [0u8; 8];
            w[8 - rem..].copy_from_slice(&bytes[..rem]);
            acc = Self::from_u64(u64::from_be_bytes(w));
        }
        for c in bytes[rem..].chunks_exact(8) {
            let d = u64::from_be_bytes(c.try_into().expect("chunk of 8"));
            acc = acc * base + Self::from_u64(d);
        }
        acc
    }

    /// Parse a hex string (optional `0x`, big-endian, case-insensitive); the value must be
    /// canonical (< p).
    ///
    /// ```
    /// use zkforge_field::bn254::Fr;
    /// assert_eq!(Fr::from_hex("0x1f").unwrap(), Fr::from_u64(31));
    /// ```
    pub fn from_hex(s: &str) -> Result<Self, FieldError> {
        let s = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")).unwrap_or(s);
        if s.is_empty() {
            return Err(FieldError::Empty);
        }
        let digits = s.trim_start_matches('0');
        if digits.len() > 16 * N {
            return Err(FieldError::NonCanonical);
        }
        let mut l = [0u64; N];
        for (i, c) in digits.bytes().rev().enumerate() {
            let v = (c as char).to_digit(16).ok_or(FieldError::InvalidDigit("hex"))? as u64;
            l[i / 16] |= v << (4 * (i % 16));
        }
        Self::from_limbs(l)
    }

    /// Parse a decimal string; the value must be canonical (< p).
    ///
    /// ```
    /// use zkforge_field::bls12_381::Fp;
    /// assert_eq!(Fp::from_dec("1000").unwrap(), Fp::from_u64(1000));
    /// ```
    pub fn from_dec(s: &str) -> Result<Self, FieldError> {
        if s.is_empty() {
            return Err(FieldError::Empty);
        }
        let mut l = [0u64; N];
        for c in s.bytes() {
            let d = (c as char).to_digit(10).ok_or(FieldError::InvalidDigit("decimal"))? as u64;
            let mut carry = d;
            for x in l.iter_mut() {
                let (lo, hi) = limbs::mac(carry, *x, 10, 0);
                *x = lo;
                carry = hi;
            }
            if carry != 0 {
                return Err(FieldError::NonCanonical);
            }
        }
        Self::from_limbs(l)
    }

    /// Canonical big-endian hex with `0x`.
    pub fn to_hex(&self) -> String {
        let mut s = String::from("0x");
        for b in self.to_bytes_be().as_ref() {
            s.push_str(&format!("{b:02x}"));
        }
        s
    }
}

impl<C: FieldConfig<N>, const N: usize> Add for Fp<C, N> {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        // a + b < 2p < 2^(64N): no carry out (spare top bit)
        let (s, _) = limbs::add_rt(&self.limbs, &rhs.limbs);
        Self::from_mont_unchecked(backend::portable::reduce_once_ct(s, &Self::PINV))
    }
}

impl<C: FieldConfig<N>, const N: usize> Sub for Fp<C, N> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        let (d, borrow) = limbs::sub_rt(&self.limbs, &rhs.limbs);
        let mask = backend::portable::value_barrier(0u64.wrapping_sub(borrow));
        let mut r = [0u64; N];
        let mut carry = 0;
        for i in 0..N {
            let (x, c) = limbs::adc_rt(d[i], C::MODULUS[i] & mask, carry);
            r[i] = x;
            carry = c;
        }
        Self::from_mont_unchecked(r)
    }
}

impl<C: FieldConfig<N>, const N: usize> Neg for Fp<C, N> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        let (d, _) = limbs::sub_rt(&C::MODULUS, &self.limbs);
        let mut nz = 0u64;
        for x in self.limbs {
            nz |= x;
        }
        // mask = all ones when self != 0
        let mask = backend::portable::value_barrier(0u64.wrapping_sub(((nz | nz.wrapping_neg()) >> 63) & 1));
        let mut r = [0u64; N];
        for i in 0..N {
            r[i] = d[i] & mask;
        }
        Self::from_mont_unchecked(r)
    }
}

impl<C: FieldConfig<N>, const N: usize> Fp<C, N> {
    /// a + b without the final reduction: a value in [0, 2p) held in an Fp. Only valid as an
    /// input of `*` (Montgomery products accept inputs below 2p when 4p < 2^(64N), which
    /// holds for both base fields), never as a result.
    #[inline(always)]
    pub(crate) fn add_lazy(&self, b: &Self) -> Self {
        let (s, _) = limbs::add_rt(&self.limbs, &b.limbs);
        Self::from_mont_unchecked(s)
    }

    /// (k a + b) mod p for canonical a, b and a small k >= 1, in one pass: the (N+1)-word
    /// value k a + b < (k + 1) p, then conditional subtractions of 2^j p for j from
    /// floor(log2 k) down to 0, each chosen in constant time (before step j the value is below
    /// 2^(j+1) p, after it below 2^j p). For BN254's xi = 9 + u: 4 subtractions of 5 words
    /// instead of the 5 chained reduced additions and doublings of 8a + a + b.
    #[inline(always)]
    pub(crate) fn mul_small_add(&self, k: u64, b: &Self) -> Self {
        let mut x = [0u64; N];
        let mut carry = 0u64;
        for i in 0..N {
            let t = (self.limbs[i] as u128) * (k as u128) + (b.limbs[i] as u128) + (carry as u128);
            x[i] = t as u64;
            carry = (t >> 64) as u64;
        }
        let mut hi = carry;
        let top = 63 - k.leading_zeros();
        for j in (0..=top).rev() {
            // m = p 2^j as N words and a top word
            let mut m = [0u64; N];
            for i in 0..N {
                m[i] = if j == 0 { C::MODULUS[i] } else { (C::MODULUS[i] << j) | if i > 0 { C::MODULUS[i - 1] >> (64 - j) } else { 0 } };
            }
            let mhi = if j == 0 { 0 } else { C::MODULUS[N - 1] >> (64 - j) };
            let (d, borrow) = limbs::sub_rt(&x, &m);
            let (dhi, under) = limbs::sbb_rt(hi, mhi, borrow);
            // keep x (mask all ones) when x < m
            let mask = backend::portable::value_barrier(0u64.wrapping_sub(under));
            for i in 0..N {
                x[i] = (x[i] & mask) | (d[i] & !mask);
            }
            hi = (hi & mask) | (dhi & !mask);
        }
        Self::from_mont_unchecked(x)
    }

    /// The divisor of [`Fp::small_combination_limbs`]'s estimate: p's bits from 64(N-1) + 4
    /// up, plus one (a value near 2^57 for BN254 and BLS12-381).
    const QUOT_PTOP: u64 = (C::MODULUS[N - 1] >> 4) + 1;
    /// floor(2^120 / QUOT_PTOP): the estimate multiplies by it instead of dividing.
    const QUOT_RECIP: u64 = ((1u128 << 120) / (Self::QUOT_PTOP as u128)) as u64;

    /// (k a + b) mod p like [`Fp::mul_small_add`] (k <= 13, a and b canonical), reduced by a
    /// quotient estimate instead of a ladder of conditional subtractions. See
    /// [`Fp::small_combination_limbs`].
    #[inline(always)]
    pub(crate) fn mul_small_add_quotient(&self, k: u64, b: &Self) -> Self {
        Self::from_mont_unchecked(Self::small_combination_limbs::<false>(&self.limbs, k, &b.limbs, 0))
    }

    /// (k a - b) mod p (k <= 13, a and b canonical) in the same one pass as
    /// [`Fp::mul_small_add_quotient`], without negating b first: the value formed is
    /// k a + 2p - b, in (p, (k + 2) p).
    #[inline(always)]
    pub(crate) fn mul_small_sub_quotient(&self, k: u64, b: &Self) -> Self {
        Self::from_mont_unchecked(Self::small_combination_limbs::<true>(&self.limbs, k, &b.limbs, 0))
    }

    /// x = k a + b (SUB false) or x = k a + 2p - b (SUB true), then x mod p by Barrett's method
    /// (Crypto '86) with a one-word quotient, in constant time. With B = 64(N-1) + 4, the
    /// estimate's numerator t is formed from the inputs' top words alone (k floor(a / 2^B) +
    /// floor(b / 2^B), or k floor(a / 2^B) + 2 floor(p / 2^B) - floor(b / 2^B) - 1), which is
    /// at most floor(x / 2^B) and at most k + 3 below it, so it is ready before x's carry chain
    /// runs; q' = floor(t R / 2^120) with R = floor(2^120 / (floor(p / 2^B) + 1)). Then
    /// q' <= x / p (every truncation lowers it), and q' >= floor(x / p) - 1 since all the
    /// truncations together lose less than (k + 20) / 2^56 of one unit when p's top word has
    /// more than 60 bits (BN254 and BLS12-381) and x < 16p. So x - q' p, formed in the same
    /// signed carry chain as x itself, lies in [0, 2p), and one conditional subtraction of p
    /// finishes. The products by k and q' are MULX words, so the time does not depend on the
    /// values.
    ///
    /// On words, with a carry in: (k a + b +
    /// c) mod p or (k a + 2p - b + c) mod p for a, b < p, k <= 13 and c in [-1, 13] (the wide
    /// product by xi passes the carry out of its low half here; a c >= 0 only raises x above
    /// the estimate's numerator, and c = -1 is covered by the "- 1" of the subtracting
    /// numerator, which already allows b's low words their largest value).
    #[inline(always)]
    pub(crate) fn small_combination_limbs<const SUB: bool>(a: &[u64; N], k: u64, b: &[u64; N], carry_in: i128) -> [u64; N] {
        let (at, bt) = (a[N - 1] >> 4, b[N - 1] >> 4);
        let pt = C::MODULUS[N - 1] >> 4;
        let top = if SUB { k * at + 2 * pt - bt - 1 } else { k * at + bt };
        let q = (((top as u128) * (Self::QUOT_RECIP as u128)) >> 120) as u64;
        // x - q p, one signed carry chain: every term below 2^69 in size
        let mut x = [0u64; N];
        let mut carry: i128 = carry_in;
        for i in 0..N {
            let mut t = ((a[i] as u128) * (k as u128)) as i128 - ((C::MODULUS[i] as u128) * (q as u128)) as i128 + carry;
            if SUB {
                t += 2 * (C::MODULUS[i] as i128) - (b[i] as i128);
            } else {
                t += b[i] as i128;
            }
            x[i] = t as u64;
            carry = t >> 64;
        }
        // the carry out is zero: x - q p < 2p < 2^(64N)
        let (d, under) = limbs::sub_rt(&x, &C::MODULUS);
        backend::portable::select_on_borrow(under, x, d)
    }

    /// The double-width form of [`Fp::small_combination_limbs`], for the lazy tower's
    /// product by xi: (k a + b) or (k a - b) modulo p R for 2N-word a, b < p R (R = 2^(64N)).
    /// Since p R has zero low words, x mod p R keeps x's low N words and reduces its high part
    /// modulo p: the low halves form k a_lo +- b_lo and hand their carry (in [-1, k]) to
    /// [`Fp::small_combination_limbs`] on the high halves (each below p).
    #[inline(always)]
    pub(crate) fn small_combination_wide<const SUB: bool>(a_lo: &[u64; N], a_hi: &[u64; N], k: u64, b_lo: &[u64; N], b_hi: &[u64; N]) -> ([u64; N], [u64; N]) {
        let mut lo = [0u64; N];
        let mut carry: i128 = 0;
        for i in 0..N {
            let mut t = ((a_lo[i] as u128) * (k as u128)) as i128 + carry;
            if SUB {
                t -= b_lo[i] as i128;
            } else {
                t += b_lo[i] as i128;
            }
            lo[i] = t as u64;
            carry = t >> 64;
        }
        (lo, Self::small_combination_limbs::<SUB>(a_hi, k, b_hi, carry))
    }

    /// a - b + p without reduction, in (0, 2p); the same contract as [`Fp::add_lazy`].
    #[inline(always)]
    pub(crate) fn sub_lazy(&self, b: &Self) -> Self {
        let (t, _) = limbs::add_rt(&self.limbs, &C::MODULUS);
        let (d, _) = limbs::sub_rt(&t, &b.limbs);
        Self::from_mont_unchecked(d)
    }

    /// The Fp2 product (a0 + a1 u)(b0 + b1 u) with u^2 = -1, as (a0 b0 - a1 b1, a0 b1 + a1 b0):
    /// two lazy sums of products (see [`Fp::sum_of_products2`]) with each operand laid out once.
    #[inline(always)]
    pub(crate) fn fp2_mul_lazy(a0: &Self, a1: &Self, b0: &Self, b1: &Self) -> (Self, Self) {
        if C::MODULUS[N - 1] >> 62 == 0 {
            let nb1 = -*b1;
            let [c0, c1] = backend::mont_fp2_mul(&[a0.limbs, a1.limbs], &[b1.limbs, b0.limbs, nb1.limbs], &Self::PINV);
            (Self::from_mont_unchecked(c0), Self::from_mont_unchecked(c1))
        } else {
            (*a0 * *b0 - *a1 * *b1, *a0 * *b1 + *a1 * *b0)
        }
    }

    /// a0 b0 + a1 b1 with one Montgomery reduction per row for both products (the lazy sum
    /// of products; ePrint 2022/367 section 4 names it for Fp2), when the MULX/ADX kernel is
    /// in use; two products otherwise.
    #[inline(always)]
    pub fn sum_of_products2(a0: &Self, a1: &Self, b0: &Self, b1: &Self) -> Self {
        // the one-pass kernel needs two spare top bits (p < 2^(64N - 2)) for its accumulator
        if C::MODULUS[N - 1] >> 62 == 0 {
            Self::from_mont_unchecked(backend::mont_sum2(&a0.limbs, &a1.limbs, &b0.limbs, &b1.limbs, &Self::PINV))
        } else {
            *a0 * *b0 + *a1 * *b1
        }
    }
}

impl<C: FieldConfig<N>, const N: usize> Mul for Fp<C, N> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self::from_mont_unchecked(backend::mont_mul(&self.limbs, &rhs.limbs, &Self::PINV))
    }
}

impl<C: FieldConfig<N>, const N: usize> AddAssign for Fp<C, N> {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}
impl<C: FieldConfig<N>, const N: usize> SubAssign for Fp<C, N> {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Self) {
        *self = *self - rhs;
    }
}
impl<C: FieldConfig<N>, const N: usize> MulAssign for Fp<C, N> {
    #[inline(always)]
    fn mul_assign(&mut self, rhs: Self) {
        *self = *self * rhs;
    }
}

impl<C: FieldConfig<N>, const N: usize> ConstantTimeEq for Fp<C, N> {
    fn ct_eq(&self, other: &Self) -> Choice {
        let mut acc = 0u64;
        for i in 0..N {
            acc |= self.limbs[i] ^ other.limbs[i];
        }
        acc.ct_eq(&0)
    }
}

impl<C: FieldConfig<N>, const N: usize> ConditionallySelectable for Fp<C, N> {
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        let mut r = [0u64; N];
        for i in 0..N {
            r[i] = u64::conditional_select(&a.limbs[i], &b.limbs[i], choice);
        }
        Self::from_mont_unchecked(r)
    }
}

impl<C: FieldConfig<N>, const N: usize> PartialEq for Fp<C, N> {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}
impl<C: FieldConfig<N>, const N: usize> Eq for Fp<C, N> {}

/// Overwrites the limbs with zeros through `zeroize`'s volatile writes (secret scalars:
/// blinding factors, signing keys).
impl<C: FieldConfig<N>, const N: usize> zeroize::Zeroize for Fp<C, N> {
    fn zeroize(&mut self) {
        self.limbs.zeroize();
    }
}

impl<C: FieldConfig<N>, const N: usize> Default for Fp<C, N> {
    fn default() -> Self {
        Self::ZERO
    }
}

impl<C: FieldConfig<N>, const N: usize> fmt::Debug for Fp<C, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", C::NAME, self.to_hex())
    }
}

impl<C: FieldConfig<N>, const N: usize> fmt::Display for Fp<C, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl<C: FieldConfig<N>, const N: usize> core::hash::Hash for Fp<C, N> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.limbs.hash(state)
    }
}

impl<C: FieldConfig<N>, const N: usize> From<u64> for Fp<C, N> {
    fn from(v: u64) -> Self {
        Self::from_u64(v)
    }
}

#[cfg(test)]
mod small_multiple_tests {
    use super::Fp;
    use crate::FieldConfig;

    /// Raw canonical limb patterns: 0, 1, 2, p - 1, p - 2, (p - 1) / 2, 2^(64k) boundaries,
    /// then a pseudo-random walk (x <- x^2 + 7) for the rest.
    fn inputs<C: FieldConfig<N>, const N: usize>(count: usize) -> Vec<Fp<C, N>> {
        let mut raw: Vec<[u64; N]> = Vec::new();
        let mut pm1 = C::MODULUS;
        pm1[0] -= 1; // p is odd
        let mut pm2 = pm1;
        pm2[0] -= 1;
        let mut half = [0u64; N];
        for i in 0..N {
            half[i] = (pm1[i] >> 1) | if i + 1 < N { pm1[i + 1] << 63 } else { 0 };
        }
        let mut one = [0u64; N];
        one[0] = 1;
        let mut two = [0u64; N];
        two[0] = 2;
        raw.extend([[0u64; N], one, two, pm1, pm2, half]);
        for i in 1..N {
            let mut w = [0u64; N];
            w[i] = 1;
            raw.push(w);
            let mut m = [0u64; N];
            m[..i].fill(u64::MAX);
            raw.push(m);
        }
        let mut out: Vec<Fp<C, N>> = raw.into_iter().map(Fp::from_mont_unchecked).collect();
        let mut x = Fp::<C, N>::from_u64(3);
        let seven = Fp::<C, N>::from_u64(7);
        while out.len() < count {
            x = x * x + seven;
            out.push(x);
        }
        out
    }

    fn check<C: FieldConfig<N>, const N: usize>() {
        let xs = inputs::<C, N>(400);
        for k in 1..=13u64 {
            for a in &xs {
                for b in xs.iter().step_by(7) {
                    let want = a.mul_small_add(k, b);
                    assert_eq!(a.mul_small_add_quotient(k, b), want, "k = {k}");
                    assert!(want.limbs.iter().rev().cmp(C::MODULUS.iter().rev()).is_lt());
                    assert_eq!(a.mul_small_sub_quotient(k, b), a.mul_small_add(k, &-*b), "k = {k}");
                }
            }
        }
        // k a + b = k (p - 1) + (p - 1) and its neighbours at every k
        let top = Fp::<C, N>::from_mont_unchecked({
            let mut m = C::MODULUS;
            m[0] -= 1;
            m
        });
        let zero = Fp::<C, N>::ZERO;
        for k in 1..=13u64 {
            assert_eq!(top.mul_small_add_quotient(k, &top), top.mul_small_add(k, &top));
            for (a, b) in [(zero, top), (top, zero), (zero, zero), (top, top)] {
                assert_eq!(a.mul_small_sub_quotient(k, &b), a.mul_small_add(k, &-b), "k = {k}");
            }
        }
    }

    #[test]
    fn the_quotient_estimate_reduces_like_the_subtraction_ladder() {
        check::<crate::bn254::FpConfig, 4>();
        check::<crate::bls12_381::FpConfig, 6>();
    }
}

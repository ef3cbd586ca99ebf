//! The target group Gt: the order-r subgroup of Fp12^*, written multiplicatively. Its elements
//! lie in the cyclotomic subgroup, so squarings use Granger-Scott (ePrint 2009/565) and the
//! inverse is the conjugate.
//!
//! Encoding: the twelve Fp coefficients, big-endian, in the order c0.c0.c0, c0.c0.c1,
//! c0.c1.c0, ..., c1.c2.c1 (the tower's coefficient order Fp12 = Fp6[w], Fp6 = Fp2[v], real part
//! first); 576 bytes on BLS12-381 and 384 on BN254, returned as fixed arrays. Decoding rejects
//! wrong lengths, coefficients >= p and elements outside Gt.
//!
//! blst's `blst_bendian_from_fp12` writes the same twelve coefficients in powers of w instead
//! (1, w, w^2, ..., w^5 = our c0.c0, c1.c0, c0.c1, c1.c1, c0.c2, c1.c2, each Fp2 real part
//! first): to convert, take our six 2-coefficient chunks in the order 0, 3, 1, 4, 2, 5 (a test
//! checks this against blst).

use core::ops::{Mul, MulAssign};

use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
use zkforge_field::tower::{Fp12, Fp2, Fp6, TowerConfig};
use zkforge_field::Fp;

use crate::PairingError;

/// An element of the target group.
#[derive(Debug)]
pub struct Gt<C: TowerConfig<N>, const N: usize>(pub(crate) Fp12<C, N>);

impl<C: TowerConfig<N>, const N: usize> Clone for Gt<C, N> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<C: TowerConfig<N>, const N: usize> Copy for Gt<C, N> {}

/// f^e for a cyclotomic f, e given as little-endian limbs; variable time in e.
pub(crate) fn cyclotomic_pow_vartime<C: TowerConfig<N>, const N: usize>(f: &Fp12<C, N>, e: &[u64]) -> Fp12<C, N> {
    let mut acc = Fp12::ONE;
    let mut started = false;
    for limb in e.iter().rev() {
        for i in (0..64).rev() {
            if started {
                acc = acc.cyclotomic_square();
            }
            if (limb >> i) & 1 == 1 {
                acc = if started { acc * *f } else { *f };
                started = true;
            }
        }
    }
    acc
}

/// f^e for a cyclotomic f and a small public exponent e, with e's non-adjacent form (the
/// inverse of a cyclotomic element is its conjugate, so a -1 digit costs one multiplication).
pub(crate) fn cyclotomic_pow_u64_naf<C: TowerConfig<N>, const N: usize>(f: &Fp12<C, N>, e: u64) -> Fp12<C, N> {
    let (digits, len) = crate::miller::loop_digits::<66>(e as u128, true);
    let inv = f.conjugate();
    let mut acc = *f;
    for &d in &digits[..len] {
        acc = acc.cyclotomic_square();
        if d == 1 {
            acc *= *f;
        } else if d == -1 {
            acc *= inv;
        }
    }
    acc
}

/// The easy part of the final exponentiation, f^((p^6 - 1)(p^2 + 1)), shared by both curves:
/// one Fp12 inversion, a conjugation (the p^6-Frobenius), a p^2-Frobenius and two
/// multiplications. The result is in the cyclotomic subgroup. `None` for f = 0.
pub(crate) fn easy_part<C: TowerConfig<N>, const N: usize>(f: &Fp12<C, N>) -> Option<Fp12<C, N>> {
    let inv: Option<Fp12<C, N>> = f.invert().into();
    inv.map(|fi| {
        let t = f.conjugate() * fi; // f^(p^6 - 1)
        t.frobenius_map(2) * t
    })
}

impl<C: TowerConfig<N>, const N: usize> Gt<C, N> {
    /// The identity (one).
    pub const IDENTITY: Self = Gt(Fp12::ONE);

    /// True for the identity.
    pub fn is_identity(&self) -> bool {
        bool::from(self.0.is_one())
    }

    /// The underlying Fp12 element.
    pub fn as_fp12(&self) -> &Fp12<C, N> {
        &self.0
    }

    /// The inverse (the conjugate, free on the cyclotomic subgroup).
    pub fn inverse(&self) -> Self {
        Gt(self.0.conjugate())
    }

    /// self^2 by a cyclotomic squaring.
    pub fn square(&self) -> Self {
        Gt(self.0.cyclotomic_square())
    }

    /// self^k for a public 256-bit exponent (little-endian limbs); variable time.
    pub fn pow_vartime(&self, k: &[u64; 4]) -> Self {
        Gt(cyclotomic_pow_vartime(&self.0, k))
    }

    /// self^k in constant time: fixed 4-bit windows over all 256 bits, table entries read by
    /// a full scan with constant-time selection.
    pub fn pow(&self, k: &[u64; 4]) -> Self {
        let mut table = [Fp12::<C, N>::ONE; 16];
        for i in 1..16 {
            table[i] = table[i - 1] * self.0;
        }
        let mut acc = Fp12::<C, N>::ONE;
        for w in (0..64).rev() {
            for _ in 0..4 {
                acc = acc.cyclotomic_square();
            }
            let idx = ((k[w / 16] >> ((w % 16) * 4)) & 15) as u32;
            let mut t = table[0];
            for (j, e) in table.iter().enumerate().skip(1) {
                t.conditional_assign(e, (j as u32).ct_eq(&idx));
            }
            acc *= t;
        }
        Gt(acc)
    }

    /// An Fp12 value taken as a Gt element without the membership check: the caller
    /// promises f is in the order-r subgroup (a final exponentiation's output is). The
    /// per-curve `Gt::from_fp12` checks.
    pub fn from_fp12_unchecked(f: Fp12<C, N>) -> Self {
        Gt(f)
    }

    /// Write the 12 N * 8-byte encoding described in the module docs into `out` (exactly that
    /// long; the per-curve `to_bytes` returns it as an array).
    pub(crate) fn write_bytes(&self, out: &mut [u8]) {
        let w = N * 8;
        for (i, c) in fp12_coeffs(&self.0).iter().enumerate() {
            out[i * w..(i + 1) * w].copy_from_slice(c.to_bytes_be().as_ref());
        }
    }

    /// `Ok` for an f in Gt, else [`PairingError::NotInGt`].
    pub(crate) fn from_fp12_with_order(f: Fp12<C, N>, order: &[u64; 4]) -> Result<Self, PairingError> {
        if Self::is_in_gt(&f, order) {
            Ok(Gt(f))
        } else {
            Err(PairingError::NotInGt)
        }
    }

    /// Decode and check membership in Gt: the element must be in the cyclotomic subgroup
    /// (f^(p^4) f = f^(p^2)) and have order dividing r.
    pub(crate) fn from_bytes_with_order(bytes: &[u8], order: &[u64; 4]) -> Result<Self, PairingError> {
        let w = N * 8;
        if bytes.len() != 12 * w {
            return Err(PairingError::WrongLength { expected: 12 * w, got: bytes.len() });
        }
        let mut c = [Fp::<C, N>::ZERO; 12];
        for (i, ci) in c.iter_mut().enumerate() {
            *ci = Fp::from_bytes_be(&bytes[i * w..(i + 1) * w]).map_err(|_| PairingError::NonCanonical)?;
        }
        let fp2 = |i: usize| Fp2::new(c[2 * i], c[2 * i + 1]);
        let f = Fp12::new(Fp6::new(fp2(0), fp2(1), fp2(2)), Fp6::new(fp2(3), fp2(4), fp2(5)));
        if !Self::is_in_gt(&f, order) {
            return Err(PairingError::NotInGt);
        }
        Ok(Gt(f))
    }

    /// f is in Gt: non-zero, in the cyclotomic subgroup G_{Phi12}, and f^r = 1.
    pub(crate) fn is_in_gt(f: &Fp12<C, N>, order: &[u64; 4]) -> bool {
        if bool::from(f.c0.is_zero() & f.c1.is_zero()) {
            return false;
        }
        if f.frobenius_map(4) * *f != f.frobenius_map(2) {
            return false;
        }
        bool::from(cyclotomic_pow_vartime(f, order).is_one())
    }
}

fn fp12_coeffs<C: TowerConfig<N>, const N: usize>(f: &Fp12<C, N>) -> [Fp<C, N>; 12] {
    let e = [f.c0.c0, f.c0.c1, f.c0.c2, f.c1.c0, f.c1.c1, f.c1.c2];
    let mut out = [Fp::<C, N>::ZERO; 12];
    for i in 0..6 {
        out[2 * i] = e[i].c0;
        out[2 * i + 1] = e[i].c1;
    }
    out
}

impl<C: TowerConfig<N>, const N: usize> Mul for Gt<C, N> {
    type Output = Self;
    fn mul(self, b: Self) -> Self {
        Gt(self.0 * b.0)
    }
}
impl<C: TowerConfig<N>, const N: usize> MulAssign for Gt<C, N> {
    fn mul_assign(&mut self, b: Self) {
        self.0 *= b.0;
    }
}
impl<C: TowerConfig<N>, const N: usize> ConstantTimeEq for Gt<C, N> {
    fn ct_eq(&self, o: &Self) -> Choice {
        self.0.ct_eq(&o.0)
    }
}
impl<C: TowerConfig<N>, const N: usize> PartialEq for Gt<C, N> {
    fn eq(&self, o: &Self) -> bool {
        self.0 == o.0
    }
}
impl<C: TowerConfig<N>, const N: usize> Eq for Gt<C, N> {}

//! The target group Gt: the order-r subgroup of Fp12^*, written multiplicatively. Its elements
//! lie in the cyclotomic subgroup, so squarings use Granger-Scott (ePrint 2009/565) and the
//! inverse is the conjugate.
//!
//! Encoding: the twelve Fp coefficients, big-endian, in the order c0.c0.c0, c0.c0.c1,
//! c0.c1.c0, ..., c1.c2.c1 (the tower's coefficient order Fp12 = Fp6\[w\], Fp6 = Fp2\[v\], real part
//! first); 576 bytes on BLS12-381 and 384 on BN254, returned as fixed arrays. Decoding rejects
//! wrong lengths, coefficients >= p and elements outside Gt.
//!
//! blst's `blst_bendian_from_fp12` writes the same twelve coefficients in powers of w instead
//! (1, w, w^2, ..., w^5 = our c0.c0, c1.c0, c0.c1, c1.c1, c0.c2, c1.c2, each Fp2 real part
//! first): to convert, take our six 2-coefficient chunks in the order 0, 3, 1, 4, 2, 5 (a test
//! checks this against blst).

use core::ops::{Mul, MulAssign};

use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
#[cfg(target_arch = "x86_64")]
use zkforge_field::tower::Fp12Lanes;
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

/// The width-w non-adjacent form of a public exponent (odd digits below 2^(w-1) in absolute
/// value, at least w - 1 zeros after each nonzero digit), most significant digit first, with
/// the window width w in 2..=5 that needs the fewest multiplications (table included), fixed at
/// compile time per exponent. Source: Solinas 2000 / Hankerson-Menezes-Vanstone, Guide to
/// Elliptic Curve Cryptography, algorithm 3.35.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Wnaf {
    /// Digits, most significant first (the first is nonzero).
    pub digits: [i8; 66],
    /// Number of digits used.
    pub len: usize,
    /// Window width.
    pub w: u32,
}

impl Wnaf {
    /// The width-w form of e (e > 0).
    pub const fn with_window(e: u64, w: u32) -> Self {
        let mut lsb_first = [0i8; 66];
        let mut n = e as u128;
        let mut len = 0;
        while n > 0 {
            let mut d: i64 = 0;
            if n & 1 == 1 {
                d = (n % (1u128 << w)) as i64;
                if d >= 1i64 << (w - 1) {
                    d -= 1i64 << w;
                }
                if d > 0 {
                    n -= d as u128;
                } else {
                    n += (-d) as u128;
                }
            }
            lsb_first[len] = d as i8;
            n >>= 1;
            len += 1;
        }
        let mut digits = [0i8; 66];
        let mut i = 0;
        while i < len {
            digits[i] = lsb_first[len - 1 - i];
            i += 1;
        }
        Wnaf { digits, len, w }
    }

    /// Multiplications the exponentiation takes (the table's 2^(w-2) - 1 and one per nonzero
    /// digit after the first); squarings are len - 1 whatever w (plus one for the table).
    pub const fn products(&self) -> usize {
        let mut n = (1usize << (self.w - 2)) - 1;
        let mut i = 1;
        while i < self.len {
            if self.digits[i] != 0 {
                n += 1;
            }
            i += 1;
        }
        n
    }

    /// The cheapest width for e.
    pub const fn new(e: u64) -> Self {
        let mut best = Self::with_window(e, 2);
        let mut w = 3;
        while w <= 5 {
            let c = Self::with_window(e, w);
            if c.products() < best.products() || (c.products() == best.products() && c.len < best.len) {
                best = c;
            }
            w += 1;
        }
        best
    }
}

/// f^e for a cyclotomic f along the width-w NAF of a public exponent (the inverse of a
/// cyclotomic element is its conjugate, so a negative digit costs one multiplication like a
/// positive one): one cyclotomic squaring per digit after the first and one multiplication
/// per nonzero digit, plus the table f, f^3, ..., f^(2^(w-1) - 1). For BN254's u the best width
/// is 4: 62 squarings and 16 multiplications, against 23 with the plain NAF (gnark-crypto's
/// addition chain: 60 and 17; the signed chain [`SignedChain`] that BN254 takes by default:
/// 61 and 14). BLS12-381's |x| has runs of 15 and 31 zeros, which
/// [`Fp12::cyclotomic_square_n`] squares in Karabina's compressed form.
pub(crate) fn cyclotomic_pow_wnaf<C: TowerConfig<N>, const N: usize>(f: &Fp12<C, N>, e: &Wnaf) -> Fp12<C, N> {
    let mut table = [*f; 8];
    let entries = 1usize << (e.w - 2);
    if entries > 1 {
        let f2 = f.cyclotomic_square();
        for k in 1..entries {
            table[k] = table[k - 1] * f2;
        }
    }
    let pick = |d: i8| {
        let t = table[(d.unsigned_abs() as usize) >> 1];
        if d < 0 {
            t.conjugate()
        } else {
            t
        }
    };
    // each nonzero digit after the first: the run of squarings since the previous one (long
    // runs go through Karabina's compressed squarings, see `Fp12::cyclotomic_square_n`), then
    // one multiplication
    let mut acc = pick(e.digits[0]);
    let mut run = 0u32;
    for &d in &e.digits[1..e.len] {
        run += 1;
        if d != 0 {
            acc = acc.cyclotomic_square_n(run) * pick(d);
            run = 0;
        }
    }
    acc.cyclotomic_square_n(run)
}

/// [`cyclotomic_pow_wnaf`] on IFMA lanes: the same digits, squarings and products, each on
/// the lanes (`Fp12Lanes`: a Granger-Scott squaring there costs about half the scalar one, a
/// product about two thirds on BN254); the value stays in the 52-bit form throughout.
#[cfg(target_arch = "x86_64")]
pub(crate) fn cyclotomic_pow_wnaf_lanes<C: TowerConfig<N>, const N: usize>(f: &Fp12Lanes<C, N>, e: &Wnaf) -> Fp12Lanes<C, N> {
    let entries = 1usize << (e.w - 2);
    let mut table = vec![f.clone()];
    if entries > 1 {
        let mut f2 = f.clone();
        f2.cyclotomic_square();
        for k in 1..entries {
            let mut t = table[k - 1].clone();
            t.mul_assign(&f2);
            table.push(t);
        }
    }
    let conj: Vec<_> = table.iter().map(|t| t.conjugate()).collect();
    let pick = |d: i8| {
        let i = (d.unsigned_abs() as usize) >> 1;
        if d < 0 {
            &conj[i]
        } else {
            &table[i]
        }
    };
    let mut acc = pick(e.digits[0]).clone();
    for &d in &e.digits[1..e.len] {
        acc.cyclotomic_square();
        if d != 0 {
            acc.mul_assign(pick(d));
        }
    }
    acc
}

/// A signed addition chain for a fixed public exponent e (found offline by
/// `scripts/exp_chain_search.py`): a short chain builds a table of a few powers f^t, then e is
/// evaluated left to right as a sum of terms +-t 2^k, each term one run of cyclotomic
/// squarings and one product (a negative term multiplies by the conjugate, the inverse on the
/// cyclotomic subgroup). Where the window NAF's table is f, f^3, f^5, f^7 and its digits must
/// be windows of the exponent, here the table may hold any powers the chain reaches (f^5, f^9,
/// f^19 for BN254's u), which fits the exponent's bit pattern with fewer terms.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SignedChain {
    /// The table after entry 0 = f: step k makes entry k + 1 = entry a * entry b (a squaring
    /// when a == b). At most 7 steps.
    pub table: &'static [(u8, u8)],
    /// The table entry the result starts from.
    pub first: u8,
    /// The following terms, most significant first: (squarings before it, table entry,
    /// negative).
    pub terms: &'static [(u8, u8, bool)],
    /// Squarings after the last term.
    pub tail: u8,
}

impl SignedChain {
    /// The exponent the chain computes (for tests and the plan's doc figures).
    pub const fn exponent(&self) -> i128 {
        let mut t = [0i128; 8];
        t[0] = 1;
        let mut k = 0;
        while k < self.table.len() {
            let (a, b) = self.table[k];
            t[k + 1] = t[a as usize] + t[b as usize];
            k += 1;
        }
        let mut e = t[self.first as usize];
        let mut i = 0;
        while i < self.terms.len() {
            let (run, idx, neg) = self.terms[i];
            e <<= run;
            e += if neg { -t[idx as usize] } else { t[idx as usize] };
            i += 1;
        }
        e << self.tail
    }

    /// Products the exponentiation takes: the table's and one per term.
    pub const fn products(&self) -> usize {
        let mut n = self.terms.len();
        let mut k = 0;
        while k < self.table.len() {
            if self.table[k].0 != self.table[k].1 {
                n += 1;
            }
            k += 1;
        }
        n
    }

    /// Cyclotomic squarings the exponentiation takes: the table's and every run.
    pub const fn squarings(&self) -> usize {
        let mut n = self.tail as usize;
        let mut k = 0;
        while k < self.table.len() {
            if self.table[k].0 == self.table[k].1 {
                n += 1;
            }
            k += 1;
        }
        let mut i = 0;
        while i < self.terms.len() {
            n += self.terms[i].0 as usize;
            i += 1;
        }
        n
    }
}

/// f^e for a cyclotomic f along a [`SignedChain`] for e: the table, then per term a run of
/// squarings ([`Fp12::cyclotomic_square_n`]) and one product.
pub(crate) fn cyclotomic_pow_chain<C: TowerConfig<N>, const N: usize>(f: &Fp12<C, N>, c: &SignedChain) -> Fp12<C, N> {
    cyclotomic_pow_chain_with(f, c, |x, k| x.cyclotomic_square_n(k))
}

/// f^(e^k) for any element f of the cyclotomic subgroup, by `k` runs of a [`SignedChain`] for
/// e with Granger-Scott squarings alone, whatever the cyclotomic squaring switch says: on IFMA
/// lanes where [`crate::config::hard_part`] allows them and the CPU has them, else in the
/// 64-bit tower. Exact on the whole cyclotomic subgroup, for untrusted input (Gt membership),
/// where the compressed squarings' decompression has a special case (g1 = g4 = 0) that is only
/// known to be right on the powers a final exponentiation meets.
pub(crate) fn cyclotomic_pow_chain_exact<C: TowerConfig<N>, const N: usize>(f: &Fp12<C, N>, c: &SignedChain, k: u32) -> Fp12<C, N> {
    #[cfg(target_arch = "x86_64")]
    if crate::config::hard_part() != crate::config::HardPart::Scalar {
        if let Some(mut x) = Fp12Lanes::from_fp12(f) {
            for _ in 0..k {
                x = cyclotomic_pow_chain_lanes(&x, c);
            }
            return x.to_fp12();
        }
    }
    let mut x = *f;
    for _ in 0..k {
        x = cyclotomic_pow_chain_with(&x, c, |y, n| {
            let mut y = *y;
            for _ in 0..n {
                y = y.cyclotomic_square();
            }
            y
        });
    }
    x
}

/// f^e for a cyclotomic f and the public e = sum of 2^d over `depths` (increasing, from 1),
/// in variable time: one run of compressed squarings, the powers decompressed together
/// ([`Fp12::cyclotomic_square_depths_vartime`]) and multiplied. `None` where that
/// decompression declines (some power has g1 = 0); the caller then takes an exact chain.
pub(crate) fn cyclotomic_pow_sparse_vartime<C: TowerConfig<N>, const N: usize, const M: usize>(f: &Fp12<C, N>, depths: &[u32; M]) -> Option<Fp12<C, N>> {
    let powers = f.cyclotomic_square_depths_vartime(depths)?;
    let mut acc = powers[0];
    for x in &powers[1..] {
        acc *= *x;
    }
    Some(acc)
}

/// The chain with runs of k squarings by `square_n`.
#[inline(always)]
fn cyclotomic_pow_chain_with<C: TowerConfig<N>, const N: usize>(f: &Fp12<C, N>, c: &SignedChain, square_n: impl Fn(&Fp12<C, N>, u32) -> Fp12<C, N>) -> Fp12<C, N> {
    let mut t = [*f; 8];
    for (k, &(a, b)) in c.table.iter().enumerate() {
        let (a, b) = (a as usize, b as usize);
        t[k + 1] = if a == b { t[a].cyclotomic_square() } else { t[a] * t[b] };
    }
    let mut acc = t[c.first as usize];
    for &(run, idx, neg) in c.terms {
        let x = t[idx as usize];
        acc = square_n(&acc, run as u32) * if neg { x.conjugate() } else { x };
    }
    square_n(&acc, c.tail as u32)
}

/// [`cyclotomic_pow_chain`] on IFMA lanes (`Fp12Lanes`), the value in the 52-bit form
/// throughout.
#[cfg(target_arch = "x86_64")]
pub(crate) fn cyclotomic_pow_chain_lanes<C: TowerConfig<N>, const N: usize>(f: &Fp12Lanes<C, N>, c: &SignedChain) -> Fp12Lanes<C, N> {
    let mut t = vec![f.clone()];
    for &(a, b) in c.table {
        let mut x = t[a as usize].clone();
        if a == b {
            x.cyclotomic_square();
        } else {
            x.mul_assign(&t[b as usize]);
        }
        t.push(x);
    }
    let mut acc = t[c.first as usize].clone();
    for &(run, idx, neg) in c.terms {
        for _ in 0..run {
            acc.cyclotomic_square();
        }
        if neg {
            acc.mul_assign(&t[idx as usize].conjugate());
        } else {
            acc.mul_assign(&t[idx as usize]);
        }
    }
    for _ in 0..c.tail {
        acc.cyclotomic_square();
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

    /// The Fp12 value of a 12 N * 8-byte encoding (the module docs' coefficient order):
    /// [`PairingError::WrongLength`] or [`PairingError::NonCanonical`] for a bad encoding, no
    /// membership check (the caller's, `engine::gt_from_bytes`).
    pub(crate) fn decode_fp12(bytes: &[u8]) -> Result<Fp12<C, N>, PairingError> {
        let w = N * 8;
        if bytes.len() != 12 * w {
            return Err(PairingError::WrongLength { expected: 12 * w, got: bytes.len() });
        }
        let mut c = [Fp::<C, N>::ZERO; 12];
        for (i, ci) in c.iter_mut().enumerate() {
            *ci = Fp::from_bytes_be(&bytes[i * w..(i + 1) * w]).map_err(|_| PairingError::NonCanonical)?;
        }
        let fp2 = |i: usize| Fp2::new(c[2 * i], c[2 * i + 1]);
        Ok(Fp12::new(Fp6::new(fp2(0), fp2(1), fp2(2)), Fp6::new(fp2(3), fp2(4), fp2(5))))
    }

    /// f is non-zero and in the cyclotomic subgroup G_{Phi12}: f^(p^4) f = f^(p^2).
    pub(crate) fn is_cyclotomic(f: &Fp12<C, N>) -> bool {
        if bool::from(f.c0.is_zero() & f.c1.is_zero()) {
            return false;
        }
        f.frobenius_map(4) * *f == f.frobenius_map(2)
    }

    /// A cyclotomic f has order dividing r: f^r = 1 (the reference test, any curve).
    pub(crate) fn has_order_dividing(f: &Fp12<C, N>, order: &[u64; 4]) -> bool {
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

#[cfg(test)]
mod tests {
    use super::{cyclotomic_pow_vartime, cyclotomic_pow_wnaf, easy_part, Wnaf};
    use zkforge_field::{bls12_381, bn254};

    /// Every window width gives f^e (against square-and-multiply) on cyclotomic elements of
    /// both curves, for the curve parameters and awkward exponents.
    #[test]
    fn wnaf_powers_match_square_and_multiply() {
        let exps = [1u64, 2, 3, 5, 7, 15, 16, 0x44e9_92b4_4a69_09f1, 0xd201_0000_0001_0000, u64::MAX, 1 << 63, 0xaaaa_aaaa_aaaa_aaab];
        let mut seed = 1u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            seed
        };
        for _ in 0..3 {
            let fb = easy_part(&bn254::Fp12::random_with(&mut next)).unwrap();
            let fl = easy_part(&bls12_381::Fp12::random_with(&mut next)).unwrap();
            for &e in &exps {
                for w in 2..=5 {
                    let plan = Wnaf::with_window(e, w);
                    assert_eq!(cyclotomic_pow_wnaf(&fb, &plan), cyclotomic_pow_vartime(&fb, &[e]), "bn e={e:x} w={w}");
                    assert_eq!(cyclotomic_pow_wnaf(&fl, &plan), cyclotomic_pow_vartime(&fl, &[e]), "bls e={e:x} w={w}");
                }
                let best = Wnaf::new(e);
                assert_eq!(cyclotomic_pow_wnaf(&fb, &best), cyclotomic_pow_vartime(&fb, &[e]), "bn e={e:x} best");
            }
        }
        // every cyclotomic squaring mode gives the same powers
        use zkforge_field::backend::{set_cyclotomic_squaring, CyclotomicSquaring};
        let fl = easy_part(&bls12_381::Fp12::random_with(&mut next)).unwrap();
        let x = Wnaf::new(0xd201_0000_0001_0000);
        let want = cyclotomic_pow_vartime(&fl, &[0xd201_0000_0001_0000]);
        for mode in [CyclotomicSquaring::GrangerScott, CyclotomicSquaring::Karabina, CyclotomicSquaring::KarabinaIfma, CyclotomicSquaring::Auto] {
            set_cyclotomic_squaring(mode);
            assert_eq!(cyclotomic_pow_wnaf(&fl, &x), want, "{mode:?}");
        }
        // BN254's u: width 4, 16 multiplications with the table
        let u = Wnaf::new(0x44e9_92b4_4a69_09f1);
        assert_eq!((u.w, u.products()), (4, 16));
    }
}

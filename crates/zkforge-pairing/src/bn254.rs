//! The optimal ate pairing on BN254 (alt_bn128, the curve of the EVM's EIP-196/197
//! precompiles): e(P, Q) = (f_{6u+2,Q}(P) l_{T,pi(Q)}(P) l_{T',-pi^2(Q)}(P))^((p^12 - 1)/r
//! * m) with u = 4965661367192848881 (Vercauteren, "Optimal pairings"; Beuchat et al.,
//! "High-speed software implementation of the optimal ate pairing over Barreto-Naehrig curves",
//! ePrint 2010/354).
//!
//! Miller loop: the non-adjacent form of 6u + 2 (66 digits, 65 doubling steps and 21 addition steps with +-Q),
//! then the two Frobenius addition steps with pi(Q) and -pi^2(Q), on the D-type twist (lines in
//! slots 0, 3, 4). Step costs as in `line.rs` and `sparse.rs`.
//!
//! Final exponentiation: easy part as for BLS12 (one Fp12 inversion); hard part by Fuentes-
//! Castaneda, Knapp, Rodriguez-Henriquez, "Faster hashing to G2" (SAC 2011) in the form of
//! Duquesne-Ghammam (ePrint 2015/192): f^(2u (6u^2 + 3u + 1) (p^4 - p^2 + 1) / r) with 3
//! exponentiations by u, 3 cyclotomic squarings, 13 multiplications and 3 Frobenius maps. The
//! multiple m = 2u(6u^2 + 3u + 1) is prime to r; arkworks and gnark-crypto compute the same
//! power.

use zkforge_curve::bn254::{psi, G1Affine, G1Config, G2Affine, G2Config};
use zkforge_curve::Jacobian;
use zkforge_field::bn254::{Fp12, Fp2, FpConfig};

use crate::engine::{self, PairingConfig};
use crate::line::Twist;
use crate::miller::{self, LoopShape};

/// The target group of BN254.
pub type Gt = crate::gt::Gt<FpConfig, 4>;

/// The BN parameter u.
pub const U: u64 = zkforge_curve::bn254::U;
/// The ate loop count 6u + 2.
pub const ATE_LOOP_COUNT: u128 = 6 * U as u128 + 2;
const DIGITS: ([i8; 80], usize) = miller::loop_digits::<80>(ATE_LOOP_COUNT, true);
static LOOP_DIGITS: [i8; 80] = DIGITS.0;

/// The BN254 parameters of the generic pairing ([`crate::engine`]).
#[derive(Clone, Copy, Debug)]
pub struct Bn254;

impl PairingConfig<4> for Bn254 {
    type Fp = FpConfig;
    type G1 = G1Config;
    type G2 = G2Config;

    fn loop_shape() -> LoopShape {
        LoopShape { digits: &LOOP_DIGITS[..DIGITS.1], extra: 2, twist: Twist::D, conjugate: false }
    }

    /// pi(Q) and -pi^2(Q) for an affine Q (psi keeps Z = 1, so the results stay affine).
    fn extra_points(q: &G2Affine) -> [(Fp2, Fp2); 2] {
        let j: Jacobian<G2Config> = (*q).into();
        let q1 = psi(&j);
        let q2 = psi(&q1);
        [(q1.x(), q1.y()), (q2.x(), -q2.y())]
    }

    fn hard_part(f: &Fp12) -> Fp12 {
        hard_part(f)
    }

    /// A cyclotomic f has order dividing r iff f^p = f^(6u^2): p = 6u^2 (mod r) gives one
    /// direction; for the other, f^p = f^T makes f^(p^k) = f^(T^k) for every k, so
    /// f^(Phi12(T)) = f^(Phi12(p)) = 1 and the order of f divides
    /// gcd(Phi12(p), Phi12(6u^2)), which is exactly r (computed for BN254's u; the test in
    /// `tests/pairing.rs` recomputes it). One Frobenius map and two exponentiations by u
    /// (Granger-Scott squarings only: exact on the whole cyclotomic subgroup) instead of f^r:
    /// f^(6u^2) = (f^6)^(u^2).
    fn gt_frobenius_test(f: &Fp12) -> Option<bool> {
        let f2 = f.cyclotomic_square();
        let f6 = (f2 * *f).cyclotomic_square();
        Some(f.frobenius_map(1) == crate::gt::cyclotomic_pow_chain_exact(&f6, &U_CHAIN, 2))
    }
}

/// A G2 point with every Miller-loop line precomputed (88 lines, 5.5 KiB).
pub type G2Prepared = engine::G2Prepared<Bn254, 4>;

/// The Miller loop of all pairs with one accumulator; identity pairs are skipped. Points must
/// lie in G1 and G2 (zkforge-evm's EIP-197 decoder checks the G2 subgroup).
///
/// ```
/// use zkforge_curve::bn254::{G1Projective, G2Projective};
/// use zkforge_pairing::bn254::{final_exponentiation, multi_miller_loop, pairing};
/// let (p, q) = (G1Projective::generator().to_affine(), G2Projective::generator().to_affine());
/// assert_eq!(final_exponentiation(&multi_miller_loop(&[(p, q)])).unwrap(), pairing(&p, &q));
/// ```
pub fn multi_miller_loop(pairs: &[(G1Affine, G2Affine)]) -> Fp12 {
    engine::multi_miller_loop::<Bn254, 4>(pairs)
}

/// The multi-Miller loop with prepared G2 points.
pub fn multi_miller_loop_prepared(pairs: &[(G1Affine, &G2Prepared)]) -> Fp12 {
    engine::multi_miller_loop_prepared::<Bn254, 4>(pairs)
}

/// The windowed NAF of u (the width is chosen at compile time by cost).
static U_WNAF: crate::gt::Wnaf = crate::gt::Wnaf::new(U);

/// A signed addition chain for u (`scripts/exp_chain_search.py`: the cheapest found with a
/// product costing 1.7-2.2 cyclotomic squarings): table entries f, f^2, f^4, f^5, f^9, f^18,
/// f^19 (3 squarings, 3 products), then left to right the terms of
/// u = 19 2^58 - 19 2^54 - 19 2^53 + 19 2^47 + 19 2^40 - 19 2^34 + 9 2^27 + 19 2^21 + 9 2^16 +
/// 5 2^9 - 5 2 - 5: 61 squarings and 14 products in all, against 62 and 16 for the width-4
/// NAF ([`U_WNAF`]).
pub(crate) static U_CHAIN: crate::gt::SignedChain = crate::gt::SignedChain {
    table: &[(0, 0), (1, 1), (2, 0), (3, 2), (4, 4), (5, 0)],
    first: 6,
    terms: &[(4, 6, true), (1, 6, true), (6, 6, false), (7, 6, false), (6, 6, true), (7, 4, false), (6, 6, false), (5, 4, false), (7, 3, false), (8, 3, true), (1, 3, true)],
    tail: 0,
};

const _: () = assert!(U_CHAIN.exponent() == U as i128, "U_CHAIN must compute u");
const _: () = assert!(U_CHAIN.squarings() == 61 && U_CHAIN.products() == 14, "U_CHAIN's documented cost");

/// Whether the exponentiations by u take [`U_CHAIN`] ([`crate::config::ExpByUForm`]).
#[inline]
fn u_by_chain() -> bool {
    crate::config::exp_by_u_form() != crate::config::ExpByUForm::Wnaf
}

/// f^(-u) on the cyclotomic subgroup.
#[inline]
fn exp_by_neg_u(f: &Fp12) -> Fp12 {
    if u_by_chain() {
        return crate::gt::cyclotomic_pow_chain(f, &U_CHAIN).conjugate();
    }
    crate::gt::cyclotomic_pow_wnaf(f, &U_WNAF).conjugate()
}

/// The hard part on a cyclotomic f: f^(2u (6u^2 + 3u + 1) (p^4 - p^2 + 1) / r), computed as
/// f^(l3 p^3 + l2 p^2 + l1 p + l0) with l3 = 12u^3 + 6u^2 + 4u - 1, l2 = 12u^3 + 6u^2 + 6u,
/// l1 = 12u^3 + 6u^2 + 4u, l0 = 12u^3 + 12u^2 + 6u + 1. On IFMA lanes where
/// [`crate::config::hard_part`] selects them and the CPU has them ([`hard_part_lanes`]).
pub(crate) fn hard_part(f: &Fp12) -> Fp12 {
    #[cfg(target_arch = "x86_64")]
    if crate::config::hard_part() != crate::config::HardPart::Scalar {
        if let Some(r) = hard_part_lanes(f) {
            return r;
        }
    }
    let a = exp_by_neg_u(f); // f^(-u)
    let b = a.cyclotomic_square(); // f^(-2u)
    let d = b.cyclotomic_square() * b; // f^(-6u)
    let e = exp_by_neg_u(&d); // f^(6u^2)
    let g = exp_by_neg_u(&e.cyclotomic_square()); // f^(-12u^3)
    let j = g.conjugate() * e; // f^(12u^3 + 6u^2)
    let k = j * d.conjugate(); // f^(12u^3 + 6u^2 + 6u)  (l2)
    let l = k * b; // f^(12u^3 + 6u^2 + 4u)  (l1)
    let m = k * e * *f; // f^(12u^3 + 12u^2 + 6u + 1)  (l0)
    let t = l * f.conjugate(); // f^(l3)
    t.frobenius_map(3) * k.frobenius_map(2) * l.frobenius_map(1) * m
}

/// [`hard_part`] with every squaring and product up to the four Frobenius inputs on IFMA lanes
/// (`Fp12Lanes`, 6 limbs of 52 bits); the Frobenius maps and the last three products in the
/// 64-bit tower. `None` where the lanes do not apply.
#[cfg(target_arch = "x86_64")]
fn hard_part_lanes(f: &Fp12) -> Option<Fp12> {
    use zkforge_field::tower::Fp12Lanes;
    let by_chain = u_by_chain();
    let exp = |x: &Fp12Lanes<FpConfig, 4>| {
        if by_chain {
            crate::gt::cyclotomic_pow_chain_lanes(x, &U_CHAIN).conjugate()
        } else {
            crate::gt::cyclotomic_pow_wnaf_lanes(x, &U_WNAF).conjugate()
        }
    };
    let mul = |x: &Fp12Lanes<FpConfig, 4>, y: &Fp12Lanes<FpConfig, 4>| {
        let mut r = x.clone();
        r.mul_assign(y);
        r
    };
    let square = |x: &Fp12Lanes<FpConfig, 4>| {
        let mut r = x.clone();
        r.cyclotomic_square();
        r
    };
    let fl = Fp12Lanes::<FpConfig, 4>::from_fp12(f)?;
    let a = exp(&fl); // f^(-u)
    let b = square(&a); // f^(-2u)
    let d = mul(&square(&b), &b); // f^(-6u)
    let e = exp(&d); // f^(6u^2)
    let g = exp(&square(&e)); // f^(-12u^3)
    let j = mul(&g.conjugate(), &e); // f^(12u^3 + 6u^2)
    let k = mul(&j, &d.conjugate()); // l2
    let l = mul(&k, &b); // l1
    let m = mul(&mul(&k, &e), &fl); // l0
    let t = mul(&l, &fl.conjugate()); // l3
    let (t, k, l, m) = (t.to_fp12(), k.to_fp12(), l.to_fp12(), m.to_fp12());
    Some(t.frobenius_map(3) * k.frobenius_map(2) * l.frobenius_map(1) * m)
}

/// The final exponentiation of a Miller-loop output; `None` only for f = 0.
pub fn final_exponentiation(f: &Fp12) -> Option<Gt> {
    engine::final_exponentiation::<Bn254, 4>(f)
}

/// e(P, Q).
///
/// ```
/// use zkforge_curve::bn254::{G1Projective, G2Projective, Scalar};
/// use zkforge_pairing::bn254::pairing;
/// let (g1, g2) = (G1Projective::generator(), G2Projective::generator());
/// let lhs = pairing(&(g1 * Scalar::from_u64(6)).to_affine(), &(g2 * Scalar::from_u64(7)).to_affine());
/// assert_eq!(lhs, pairing(&g1.to_affine(), &g2.to_affine()).pow_vartime(&[42, 0, 0, 0]));
/// ```
pub fn pairing(p: &G1Affine, q: &G2Affine) -> Gt {
    engine::pairing::<Bn254, 4>(p, q)
}

/// prod_i e(P_i, Q_i) == 1 with one Miller loop and one final exponentiation: the EIP-197
/// ecPairing check. The empty product is one: `true`.
///
/// ```
/// use zkforge_curve::bn254::{G1Projective, G2Projective, Scalar};
/// use zkforge_pairing::bn254::pairing_check;
/// let (g1, g2) = (G1Projective::generator(), G2Projective::generator());
/// let s = Scalar::from_u64(9);
/// assert!(pairing_check(&[((g1 * s).to_affine(), g2.to_affine()), ((-g1).to_affine(), (g2 * s).to_affine())]));
/// ```
pub fn pairing_check(pairs: &[(G1Affine, G2Affine)]) -> bool {
    engine::pairing_check::<Bn254, 4>(pairs)
}

/// [`pairing_check`] with the Miller loop split over the current rayon pool's threads (run it
/// inside `pool.install(..)`); the same answer, the final exponentiation once.
///
/// ```
/// use zkforge_curve::bn254::{G1Projective, G2Projective};
/// use zkforge_pairing::bn254::{pairing_check, pairing_check_parallel};
/// let (g1, g2) = (G1Projective::generator().to_affine(), G2Projective::generator().to_affine());
/// let pairs = vec![(g1, g2), (-g1, g2), (g1, g2), (-g1, g2)];
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// assert!(pool.install(|| pairing_check_parallel(&pairs)));
/// assert_eq!(pool.install(|| pairing_check_parallel(&pairs[..3])), pairing_check(&pairs[..3]));
/// ```
pub fn pairing_check_parallel(pairs: &[(G1Affine, G2Affine)]) -> bool {
    engine::pairing_check_parallel::<Bn254, 4>(pairs)
}

/// [`multi_miller_loop`] split over the current rayon pool's threads (the same value).
pub fn multi_miller_loop_parallel(pairs: &[(G1Affine, G2Affine)]) -> Fp12 {
    engine::multi_miller_loop_parallel::<Bn254, 4>(pairs)
}

/// [`pairing_check`] with prepared G2 points.
pub fn pairing_check_prepared(pairs: &[(G1Affine, &G2Prepared)]) -> bool {
    engine::pairing_check_prepared::<Bn254, 4>(pairs)
}

impl Gt {
    /// Length of the encoding in bytes.
    pub const BYTES: usize = 384;

    /// Decode (384 bytes) and check membership in Gt.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, crate::PairingError> {
        engine::gt_from_bytes::<Bn254, 4>(bytes)
    }

    /// The 384-byte encoding (coefficient order in the [`crate::gt`] module docs).
    ///
    /// ```
    /// use zkforge_pairing::bn254::Gt;
    /// let g = Gt::generator();
    /// assert_eq!(Gt::from_bytes(&g.to_bytes()), Ok(g));
    /// ```
    pub fn to_bytes(&self) -> [u8; 384] {
        let mut out = [0u8; 384];
        self.write_bytes(&mut out);
        out
    }

    /// An Fp12 element as a Gt element, checked (cyclotomic and of order r); else
    /// [`crate::PairingError::NotInGt`].
    ///
    /// ```
    /// use zkforge_pairing::bn254::Gt;
    /// let g = Gt::generator();
    /// assert_eq!(Gt::from_fp12(*g.as_fp12()), Ok(g));
    /// ```
    pub fn from_fp12(f: Fp12) -> Result<Self, crate::PairingError> {
        engine::gt_from_fp12::<Bn254, 4>(f)
    }

    /// The generator e(G1, G2).
    pub fn generator() -> Self {
        engine::gt_generator::<Bn254, 4>()
    }
}

//! The optimal ate pairing on BLS12-381: e(P, Q) = f_{|x|,Q}(P)^(-1 conj) ^ (3 (p^12 - 1) / r)
//! with x = -0xd201000000010000 (Bowe, "BLS12-381: New zk-SNARK Elliptic Curve Construction";
//! Vercauteren, "Optimal pairings", IEEE TIT 2010).
//!
//! Miller loop: 63 doubling steps and 5 addition steps over the bits of |x|, on the M-type
//! twist (lines in slots 0, 1, 4), then one conjugation because x < 0. Per pair and bit:
//! doubling step 3 M~ + 5 S~, line evaluation 4 m, sparse product 13 M~; per bit for all pairs:
//! one Fp12 squaring (2 Fp6 multiplications = 12 M~). One pair: about 63 * (12 + 16) M~ +
//! 63 * 5 S~ + 5 * 24 M~ ~ 1900 M~ + 315 S~.
//!
//! Final exponentiation: easy part f^((p^6 - 1)(p^2 + 1)) with one Fp12 inversion, one
//! conjugation, one p^2-Frobenius and two multiplications; hard part by Hayashida, Hayasaka,
//! Teruya, "Efficient final exponentiation via cyclotomic structure for pairings over families
//! of elliptic curves" (ePrint 2020/875): the exponent 3 (p^4 - p^2 + 1) / r =
//! (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3 costs 5 exponentiations by x (5 * 63 cyclotomic
//! squarings + 5 * 5 multiplications), 2 Frobenius maps and 8 multiplications. The result is
//! the cube of the reduced Tate exponent's, as in arkworks and gnark-crypto (3 is prime to r,
//! so it is still a non-degenerate bilinear pairing).

use zkforge_curve::bls12_381::{psi, G1Affine, G1Config, G2Affine, G2Config};
use zkforge_field::bls12_381::{Fp12, Fp2, FpConfig};

use crate::engine::{self, PairingConfig};
use crate::line::Twist;
use crate::miller::{self, LoopShape};

/// The target group of BLS12-381.
pub type Gt = crate::gt::Gt<FpConfig, 6>;

/// |x|, the absolute value of the curve parameter.
pub const X_ABS: u64 = 0xd201_0000_0001_0000;
const DIGITS: ([i8; 64], usize) = miller::loop_digits::<64>(X_ABS as u128, false);
static LOOP_DIGITS: [i8; 64] = DIGITS.0;

/// The BLS12-381 parameters of the generic pairing ([`crate::engine`]).
#[derive(Clone, Copy, Debug)]
pub struct Bls12_381;

impl PairingConfig<6> for Bls12_381 {
    type Fp = FpConfig;
    type G1 = G1Config;
    type G2 = G2Config;

    fn loop_shape() -> LoopShape {
        LoopShape { digits: &LOOP_DIGITS[..DIGITS.1], extra: 0, twist: Twist::M, conjugate: true }
    }

    fn extra_points(_q: &G2Affine) -> [(Fp2, Fp2); 2] {
        [(Fp2::ZERO, Fp2::ZERO); 2]
    }

    fn hard_part(f: &Fp12) -> Fp12 {
        hard_part(f)
    }

    /// b' = 4 (1 + u), so 3b' = 12 (1 + u).
    fn three_b_one_plus_u() -> Option<u64> {
        Some(12)
    }

    /// Scott's test (ePrint 2021/1130, section 6): a cyclotomic f has order dividing r iff
    /// f^p = f^x. If f^p = f^x then f^(p^k) = f^(x^k) for every k, so
    /// 1 = f^(p^4 - p^2 + 1) = f^(x^4 - x^2 + 1) = f^r; conversely p = x (mod r) (p =
    /// (x - 1)^2 r / 3 + x). One Frobenius map and one exponentiation by x (63 squarings)
    /// instead of f^r (255).
    fn gt_frobenius_test(f: &Fp12) -> Option<bool> {
        use crate::config::GtSquarings;
        let compressed = crate::config::gt_squarings() != GtSquarings::GrangerScott;
        let fx = if compressed { crate::gt::cyclotomic_pow_sparse_vartime(f, &X_DEPTHS) } else { None };
        let fx = fx.unwrap_or_else(|| crate::gt::cyclotomic_pow_chain_exact(f, &X_CHAIN, 1));
        Some(f.frobenius_map(1) == fx.conjugate())
    }
}

/// |x| = 2^63 + 2^62 + 2^60 + 2^57 + 2^48 + 2^16 as a [`crate::gt::SignedChain`]: f, then a
/// product by f after runs of 1, 2, 3, 9 and 32 squarings, then 16 squarings (63 and 5). The
/// Gt membership test squares along it by Granger-Scott alone
/// ([`crate::gt::cyclotomic_pow_chain_exact`]), exact on the whole cyclotomic subgroup, unlike
/// the compressed runs of [`exp_by_x`].
static X_CHAIN: crate::gt::SignedChain =
    crate::gt::SignedChain { table: &[], first: 0, terms: &[(1, 0, false), (2, 0, false), (3, 0, false), (9, 0, false), (32, 0, false)], tail: 16 };

const _: () = assert!(X_CHAIN.exponent() == X_ABS as i128, "X_CHAIN must compute |x|");

/// The one bits of |x|: f^|x| is the product of f^(2^d) over these depths (the Gt membership
/// test's compressed form, [`crate::config::GtSquarings::Compressed`]).
const X_DEPTHS: [u32; 6] = [16, 48, 57, 60, 62, 63];

const _: () = {
    let mut e = 0u64;
    let mut i = 0;
    while i < X_DEPTHS.len() {
        e += 1 << X_DEPTHS[i];
        i += 1;
    }
    assert!(e == X_ABS, "X_DEPTHS must be the one bits of |x|");
};

/// A G2 point with every Miller-loop line precomputed (68 lines, 13 KiB): for a fixed Q such
/// as the generator or a KZG setup's \[tau\]_2, it saves the doubling and addition steps.
pub type G2Prepared = engine::G2Prepared<Bls12_381, 6>;

/// prod_i f_{|x|, Q_i}(P_i), conjugated: the Miller loop of all pairs with one accumulator.
/// Pairs with an identity point are skipped (their pairing is one). Points must lie in G1 and
/// G2 (the decoders of `zkforge-curve` check this).
///
/// ```
/// use zkforge_curve::bls12_381::{G1Projective, G2Projective};
/// use zkforge_pairing::bls12_381::{final_exponentiation, multi_miller_loop, pairing};
/// let (p, q) = (G1Projective::generator().to_affine(), G2Projective::generator().to_affine());
/// let f = multi_miller_loop(&[(p, q)]);
/// assert_eq!(final_exponentiation(&f).unwrap(), pairing(&p, &q));
/// ```
pub fn multi_miller_loop(pairs: &[(G1Affine, G2Affine)]) -> Fp12 {
    engine::multi_miller_loop::<Bls12_381, 6>(pairs)
}

/// The multi-Miller loop with prepared G2 points.
pub fn multi_miller_loop_prepared(pairs: &[(G1Affine, &G2Prepared)]) -> Fp12 {
    engine::multi_miller_loop_prepared::<Bls12_381, 6>(pairs)
}

/// The windowed NAF of |x| (the width is chosen at compile time by cost).
static X_WNAF: crate::gt::Wnaf = crate::gt::Wnaf::new(X_ABS);

/// The bits of |x| = 0xd201_0000_0001_0000, lowest first.
const X_BITS: [u32; 6] = [16, 48, 57, 60, 62, 63];

/// f^(|x| ) on the cyclotomic subgroup, then conjugated: f^x for the negative x. Two forms
/// ([`crate::config::ExpByXForm`]): the windowed NAF, or the product of f^(2^d) over the bits d
/// of |x| from one compressed run with one simultaneous decompression.
#[inline]
fn exp_by_x(f: &Fp12) -> Fp12 {
    use crate::config::{exp_by_x_form, ExpByXForm};
    if exp_by_x_form() == ExpByXForm::Wnaf {
        return crate::gt::cyclotomic_pow_wnaf(f, &X_WNAF).conjugate();
    }
    let [a, b, c, d, e, g] = f.cyclotomic_square_depths(&X_BITS);
    (((((a * b) * c) * d) * e) * g).conjugate()
}

/// The hard part on a cyclotomic f: f^(3 (p^4 - p^2 + 1) / r) by the chain of ePrint
/// 2020/875 (exponents tracked in the comments).
pub(crate) fn hard_part(f: &Fp12) -> Fp12 {
    #[cfg(target_arch = "x86_64")]
    if crate::config::hard_part() != crate::config::HardPart::Scalar {
        if let Some(r) = hard_part_lanes(f) {
            return r;
        }
    }
    let f3 = f.cyclotomic_square() * *f; // f^3
    let t = exp_by_x(f) * f.conjugate(); // f^(x-1)
    let t = exp_by_x(&t) * t.conjugate(); // f^((x-1)^2)
    let a = exp_by_x(&t) * t.frobenius_map(1); // a = f^((x-1)^2 (x+p))
    let ax2 = exp_by_x(&exp_by_x(&a)); // a^(x^2)
    let b = ax2 * a.frobenius_map(2) * a.conjugate(); // a^(x^2 + p^2 - 1)
    f3 * b
}

/// [`hard_part`] with its squarings and products on IFMA lanes (`Fp12Lanes`), the two Frobenius
/// maps in the 64-bit tower: each exponentiation by |x| is Karabina's compressed run on the
/// lanes kept at |x|'s bit depths with its five products on the lanes
/// ([`crate::config::ExpByXForm::Depths`]), or Granger-Scott squarings on the lanes along the
/// windowed NAF of |x| (`Wnaf`, and `Auto`: 148 us against 161 us for the depths, interleaved).
/// `None` where the lanes do not apply.
#[cfg(target_arch = "x86_64")]
fn hard_part_lanes(f: &Fp12) -> Option<Fp12> {
    use zkforge_field::tower::Fp12Lanes;
    type F = Fp12Lanes<FpConfig, 6>;
    use crate::config::{exp_by_x_form, ExpByXForm};
    let depths = exp_by_x_form() == ExpByXForm::Depths;
    let exp = |x: &F| -> Option<F> {
        if !depths {
            return Some(crate::gt::cyclotomic_pow_wnaf_lanes(x, &X_WNAF).conjugate());
        }
        // Karabina's compressed run on the lanes kept at |x|'s six bit depths (one
        // simultaneous decompression), the five products on the lanes
        let outs = x.to_fp12().cyclotomic_square_depths(&X_BITS);
        let mut acc = F::from_fp12(&outs[0])?;
        for o in &outs[1..] {
            acc.mul_assign(&F::from_fp12(o)?);
        }
        Some(acc.conjugate())
    };
    let mul = |x: &F, y: &F| {
        let mut r = x.clone();
        r.mul_assign(y);
        r
    };
    let fl = F::from_fp12(f)?;
    let mut f3 = fl.clone();
    f3.cyclotomic_square();
    let f3 = mul(&f3, &fl); // f^3
    let t = mul(&exp(&fl)?, &fl.conjugate()); // f^(x-1)
    let t = mul(&exp(&t)?, &t.conjugate()); // f^((x-1)^2)
    let t1 = F::from_fp12(&t.to_fp12().frobenius_map(1))?;
    let a = mul(&exp(&t)?, &t1); // a = f^((x-1)^2 (x+p))
    let ax2 = exp(&exp(&a)?)?; // a^(x^2)
    let a2 = F::from_fp12(&a.to_fp12().frobenius_map(2))?;
    let b = mul(&mul(&ax2, &a2), &a.conjugate()); // a^(x^2 + p^2 - 1)
    Some(mul(&f3, &b).to_fp12())
}

/// The final exponentiation of a Miller-loop output; `None` only for f = 0, which no Miller
/// loop of valid points produces.
pub fn final_exponentiation(f: &Fp12) -> Option<Gt> {
    engine::final_exponentiation::<Bls12_381, 6>(f)
}

/// e(P, Q).
///
/// ```
/// use zkforge_curve::bls12_381::{G1Projective, G2Projective, Scalar};
/// use zkforge_pairing::bls12_381::pairing;
/// let (g1, g2) = (G1Projective::generator(), G2Projective::generator());
/// let (a, b) = (Scalar::from_u64(6), Scalar::from_u64(7));
/// // e(aP, bQ) = e(P, Q)^(ab)
/// let lhs = pairing(&(g1 * a).to_affine(), &(g2 * b).to_affine());
/// let rhs = pairing(&g1.to_affine(), &g2.to_affine()).pow_vartime(&[42, 0, 0, 0]);
/// assert_eq!(lhs, rhs);
/// ```
pub fn pairing(p: &G1Affine, q: &G2Affine) -> Gt {
    engine::pairing::<Bls12_381, 6>(p, q)
}

/// prod_i e(P_i, Q_i) == 1, with one shared Miller loop and one final exponentiation (the
/// check of BLS signature verification, KZG verification and the EIP-2537 pairing
/// precompile). The empty product is one: `true`.
///
/// ```
/// use zkforge_curve::bls12_381::{G1Projective, G2Projective, Scalar};
/// use zkforge_pairing::bls12_381::pairing_check;
/// let (g1, g2) = (G1Projective::generator(), G2Projective::generator());
/// let s = Scalar::from_u64(5);
/// // e(sP, Q) e(-P, sQ) = 1
/// assert!(pairing_check(&[((g1 * s).to_affine(), g2.to_affine()), ((-g1).to_affine(), (g2 * s).to_affine())]));
/// ```
pub fn pairing_check(pairs: &[(G1Affine, G2Affine)]) -> bool {
    engine::pairing_check::<Bls12_381, 6>(pairs)
}

/// A G2 input of [`pairing_check_g2_unchecked`] that is not in G2 (off the twist or outside
/// the order-r subgroup).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct G2NotInSubgroup {
    /// Index of the first such pair.
    pub index: usize,
}

impl core::fmt::Display for G2NotInSubgroup {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "the G2 point of pair {} is not in the order-r subgroup of the twist", self.index)
    }
}

/// [`pairing_check`] for G1 points already in G1 and G2 points that have not been checked for
/// G2: each G2 point is checked with the point the Miller loop ends on. The loop over the bits
/// of |x| leaves T = [|x|] Q, and Q is in G2 exactly when [|x|] Q = -psi(Q) (psi(Q) = \[x\] Q,
/// Scott, ePrint 2021/1130, section 4; the test of EIP-2537), so the test costs one psi and
/// two Fp2 products instead of 63 doublings and 5 additions. Pairs whose P is the identity
/// are not in the loop; their Q is tested on its own. A T that met an exceptional step ends
/// with Z = 0 and fails the test (see [`engine::multi_miller_loop_with_ends`]); any such Q
/// has a multiple \[k\] Q = O with 0 < k < r, so it is outside G2.
///
/// `Err` names the first pair whose Q is off the twist or outside G2 (found by the separate
/// test when some Q is off the twist).
///
/// ```
/// use zkforge_curve::bls12_381::{G1Projective, G2Affine, G2Projective, Scalar};
/// use zkforge_pairing::bls12_381::pairing_check_g2_unchecked;
/// let (g1, g2) = (G1Projective::generator(), G2Projective::generator());
/// let s = Scalar::from_u64(5);
/// let pairs = [((g1 * s).to_affine(), g2.to_affine()), ((-g1).to_affine(), (g2 * s).to_affine())];
/// assert_eq!(pairing_check_g2_unchecked(&pairs), Ok(true));
/// ```
pub fn pairing_check_g2_unchecked(pairs: &[(G1Affine, G2Affine)]) -> Result<bool, G2NotInSubgroup> {
    let f = multi_miller_loop_g2_unchecked(pairs)?;
    Ok(final_exponentiation(&f).is_some_and(|g| g.is_identity()))
}

/// The Miller loop of [`pairing_check_g2_unchecked`] without its final exponentiation: the
/// product of the pairs' Miller values, each G2 point tested for G2 by the point the loop ends
/// on (the same test and the same `Err`). For a check split into parts (a product of parts'
/// values, one final exponentiation), where one part holds pairs whose G2 points are not yet
/// known to be in G2.
///
/// ```
/// use zkforge_curve::bls12_381::{G1Projective, G2Projective, Scalar};
/// use zkforge_pairing::bls12_381::{multi_miller_loop, multi_miller_loop_g2_unchecked};
/// let (g1, g2) = (G1Projective::generator(), G2Projective::generator());
/// let pairs = [(g1.to_affine(), (g2 * Scalar::from_u64(3)).to_affine())];
/// assert_eq!(multi_miller_loop_g2_unchecked(&pairs), Ok(multi_miller_loop(&pairs)));
/// ```
pub fn multi_miller_loop_g2_unchecked(pairs: &[(G1Affine, G2Affine)]) -> Result<Fp12, G2NotInSubgroup> {
    let in_g2 = |q: &G2Affine| bool::from(q.is_identity()) || q.is_in_subgroup();
    if let Some(off) = pairs.iter().position(|(_, q)| !bool::from(q.is_identity()) && !q.is_on_curve()) {
        let index = pairs[..off].iter().position(|(_, q)| !in_g2(q)).unwrap_or(off);
        return Err(G2NotInSubgroup { index });
    }
    let (f, ends) = engine::multi_miller_loop_with_ends::<Bls12_381, 6>(pairs);
    for (index, ((_, q), end)) in pairs.iter().zip(&ends).enumerate() {
        let ok = match end {
            // [|x|] Q = -psi(Q) = (X/Z, Y/Z) with Z != 0
            Some(t) => {
                let m = psi(&q.to_jacobian());
                !bool::from(t.z.is_zero()) && t.x == m.x() * t.z && t.y == -(m.y() * t.z)
            }
            None => in_g2(q),
        };
        if !ok {
            return Err(G2NotInSubgroup { index });
        }
    }
    Ok(f)
}

/// [`pairing_check`] with the Miller loop split over the current rayon pool's threads (run it
/// inside `pool.install(..)`); the same answer, the final exponentiation once.
///
/// ```
/// use zkforge_curve::bls12_381::{G1Projective, G2Projective};
/// use zkforge_pairing::bls12_381::{pairing_check, pairing_check_parallel};
/// let (g1, g2) = (G1Projective::generator().to_affine(), G2Projective::generator().to_affine());
/// let pairs = vec![(g1, g2), (-g1, g2), (g1, g2), (-g1, g2)];
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// assert!(pool.install(|| pairing_check_parallel(&pairs)));
/// assert_eq!(pool.install(|| pairing_check_parallel(&pairs[..3])), pairing_check(&pairs[..3]));
/// ```
pub fn pairing_check_parallel(pairs: &[(G1Affine, G2Affine)]) -> bool {
    engine::pairing_check_parallel::<Bls12_381, 6>(pairs)
}

/// How many pairs one [`multi_miller_loop`] call of `n` pairs runs at once: 8 where its steps
/// run on IFMA lanes (one pair per lane), else 1. A caller that splits pairs over threads
/// should cut them as [`parallel_part_len`] does (whole groups where a part of fewer pairs
/// costs what a full group does, near-equal parts where it does not).
///
/// ```
/// use zkforge_pairing::bls12_381::miller_loop_group;
/// assert!(miller_loop_group(64) == 1 || miller_loop_group(64) == 8);
/// assert_eq!(miller_loop_group(1), 1);
/// ```
pub fn miller_loop_group(n: usize) -> usize {
    miller::lane_chunk::<FpConfig, 6>(n)
}

/// The length of each part (the last may be shorter) when `n` pairs are cut over `parts`
/// threads as [`multi_miller_loop_parallel`] cuts them ([`crate::config::parallel_split`]:
/// near-equal parts, or whole [`miller_loop_group`]s where that is the measured best).
///
/// ```
/// use zkforge_pairing::bls12_381::parallel_part_len;
/// use zkforge_pairing::config::{set_parallel_split, ParallelSplit};
/// set_parallel_split(ParallelSplit::Even);
/// assert_eq!(parallel_part_len(9, 2), 5);
/// set_parallel_split(ParallelSplit::Auto);
/// assert!(parallel_part_len(9, 2) >= 5);
/// ```
pub fn parallel_part_len(n: usize, parts: usize) -> usize {
    miller::parallel_part_len::<FpConfig, 6>(n, parts)
}

/// [`multi_miller_loop`] split over the current rayon pool's threads (the same value).
pub fn multi_miller_loop_parallel(pairs: &[(G1Affine, G2Affine)]) -> Fp12 {
    engine::multi_miller_loop_parallel::<Bls12_381, 6>(pairs)
}

/// [`pairing_check`] with prepared G2 points.
pub fn pairing_check_prepared(pairs: &[(G1Affine, &G2Prepared)]) -> bool {
    engine::pairing_check_prepared::<Bls12_381, 6>(pairs)
}

impl Gt {
    /// Length of the encoding in bytes.
    pub const BYTES: usize = 576;

    /// Decode (576 bytes) and check membership in Gt.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, crate::PairingError> {
        engine::gt_from_bytes::<Bls12_381, 6>(bytes)
    }

    /// The 576-byte encoding (coefficient order in the [`crate::gt`] module docs).
    ///
    /// ```
    /// use zkforge_pairing::bls12_381::Gt;
    /// let g = Gt::generator();
    /// assert_eq!(Gt::from_bytes(&g.to_bytes()), Ok(g));
    /// ```
    pub fn to_bytes(&self) -> [u8; 576] {
        let mut out = [0u8; 576];
        self.write_bytes(&mut out);
        out
    }

    /// An Fp12 element as a Gt element, checked (cyclotomic and of order r); else
    /// [`crate::PairingError::NotInGt`].
    ///
    /// ```
    /// use zkforge_pairing::bls12_381::Gt;
    /// let g = Gt::generator();
    /// assert_eq!(Gt::from_fp12(*g.as_fp12()), Ok(g));
    /// ```
    pub fn from_fp12(f: Fp12) -> Result<Self, crate::PairingError> {
        engine::gt_from_fp12::<Bls12_381, 6>(f)
    }

    /// The generator e(G1, G2).
    pub fn generator() -> Self {
        engine::gt_generator::<Bls12_381, 6>()
    }
}

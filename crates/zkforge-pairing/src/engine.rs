//! The pairing front end, written once for every curve: prepared G2 points, the multi-Miller
//! loop (live and prepared), the final exponentiation, `pairing`, `pairing_check` and the Gt
//! constructors, generic over a [`PairingConfig`] (the shape of arkworks' `Bls12<P>` / `Bn<P>`
//! and of gnark-crypto's per-curve pairing files). A curve supplies only what differs: its G1
//! and G2 groups, the Miller-loop shape (loop digits, twist type, trailing Frobenius steps,
//! conjugation for a negative parameter), the extra points of those trailing steps, and the
//! hard part of the final exponentiation. `bls12_381` and `bn254` are thin modules over it.

use zkforge_curve::{Affine, CurveConfig};
use zkforge_field::tower::{Fp12, Fp2, TowerConfig};
use zkforge_field::Fp;

use crate::gt::Gt;
use crate::line::{G2Homogeneous, LineCoeffs, ThreeB};
use crate::miller::{self, Lines, LoopShape};
use crate::PairingError;

/// An affine point of the twist, (x, y) in Fp2.
pub type TwistXY<C, const N: usize> = (Fp2<C, N>, Fp2<C, N>);
/// One (G1, G2) input pair of curve `P`.
pub type PairOf<P, const N: usize> = (Affine<<P as PairingConfig<N>>::G1>, Affine<<P as PairingConfig<N>>::G2>);

/// What a curve supplies to the generic pairing. `N` is the number of 64-bit limbs of Fp.
pub trait PairingConfig<const N: usize>: 'static + Sized {
    /// The tower over Fp (Fp2, Fp6, Fp12 constants).
    type Fp: TowerConfig<N>;
    /// G1, with coordinates in Fp.
    type G1: CurveConfig<Base = Fp<Self::Fp, N>>;
    /// G2 on the sextic twist, with coordinates in Fp2.
    type G2: CurveConfig<Base = Fp2<Self::Fp, N>>;
    /// The Miller loop's digits, trailing steps, twist type and final conjugation.
    fn loop_shape() -> LoopShape;
    /// The points of the trailing addition steps for Q (BN: pi(Q) and -pi^2(Q)); unused
    /// entries are zero.
    fn extra_points(q: &Affine<Self::G2>) -> [TwistXY<Self::Fp, N>; 2];
    /// The hard part of the final exponentiation on a cyclotomic element.
    fn hard_part(f: &Fp12<Self::Fp, N>) -> Fp12<Self::Fp, N>;
    /// 3b' = k (1 + u) with this small k when the twist's b' has that form (BLS12-381: 12), so
    /// that the doubling step multiplies by it with additions; `None` (the default) for a
    /// general b'. The engine checks the claim against b' before using it.
    fn three_b_one_plus_u() -> Option<u64> {
        None
    }
    /// For a cyclotomic f, whether f has order dividing r by a test cheaper than f^r = 1,
    /// where the curve has one (BLS12-381: f^p = f^x; BN254: f^p = f^(6u^2);
    /// [`crate::config::GtMembership`]); `None` (the default) to use f^r = 1.
    fn gt_frobenius_test(_f: &Fp12<Self::Fp, N>) -> Option<bool> {
        None
    }
}

/// How the doubling steps multiply by 3b' of the twist: the curve's addition form when it has
/// one and [`crate::config::three_b_form`] allows it, else a general product. Every Miller loop
/// and prepared point goes through here, so it also refuses, at compile time, a pairing over
/// groups with a != 0 (the doubling lines assume y^2 = x^3 + b).
fn three_b<P: PairingConfig<N>, const N: usize>() -> ThreeB<P::Fp, N> {
    const {
        assert!(
            <P::G1 as CurveConfig>::A.is_none() && <P::G2 as CurveConfig>::A.is_none(),
            "the Miller loop's line functions assume a = 0"
        )
    };
    let b = <P::G2 as CurveConfig>::B;
    let three_b = b.double() + b;
    if let (Some(k), crate::config::ThreeBForm::Auto) = (P::three_b_one_plus_u(), crate::config::three_b_form()) {
        // the claim is checked, not trusted: 3b' must equal k (1 + u)
        let form = ThreeB::OnePlusUTimes(k);
        if form.mul(&Fp2::ONE) == three_b {
            return form;
        }
    }
    ThreeB::General(three_b)
}

fn live<P: PairingConfig<N>, const N: usize>(q: &Affine<P::G2>) -> Lines<'static, P::Fp, N> {
    Lines::live(q.x(), q.y(), P::extra_points(q))
}

/// A G2 point with every Miller-loop line precomputed: for a fixed Q such as the generator or
/// a KZG setup's \[tau\]_2, it saves the doubling and addition steps.
pub struct G2Prepared<P: PairingConfig<N>, const N: usize> {
    coeffs: Vec<LineCoeffs<P::Fp, N>>,
    infinity: bool,
}

impl<P: PairingConfig<N>, const N: usize> Clone for G2Prepared<P, N> {
    fn clone(&self) -> Self {
        Self { coeffs: self.coeffs.clone(), infinity: self.infinity }
    }
}

impl<P: PairingConfig<N>, const N: usize> core::fmt::Debug for G2Prepared<P, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("G2Prepared").field("lines", &self.coeffs.len()).field("infinity", &self.infinity).finish()
    }
}

impl<P: PairingConfig<N>, const N: usize> G2Prepared<P, N> {
    /// Precompute the lines of Q, divided by their constant coefficients unless
    /// [`crate::config::set_prepared_lines`] asks for the raw ones (so the Miller-loop value of
    /// prepared lines may differ from the live loop's by a factor that the final
    /// exponentiation removes).
    pub fn new(q: &Affine<P::G2>) -> Self {
        if bool::from(q.is_identity()) {
            return Self { coeffs: Vec::new(), infinity: true };
        }
        let mut coeffs = miller::prepare(&P::loop_shape(), &three_b::<P, N>(), live::<P, N>(q));
        if crate::config::prepared_lines() != crate::config::PreparedLines::Raw {
            miller::normalize_lines(&mut coeffs);
        }
        Self { coeffs, infinity: false }
    }

    /// Number of precomputed lines.
    pub fn len(&self) -> usize {
        self.coeffs.len()
    }

    /// True for the identity (no lines).
    pub fn is_empty(&self) -> bool {
        self.coeffs.is_empty()
    }
}

impl<P: PairingConfig<N>, const N: usize> From<&Affine<P::G2>> for G2Prepared<P, N> {
    fn from(q: &Affine<P::G2>) -> Self {
        Self::new(q)
    }
}

/// The Miller loop of all pairs with one accumulator; pairs with an identity point are
/// skipped (their pairing is one). Points must lie in G1 and G2.
pub fn multi_miller_loop<P: PairingConfig<N>, const N: usize>(pairs: &[PairOf<P, N>]) -> Fp12<P::Fp, N> {
    let mut v = live_pairs::<P, N>(pairs);
    miller::multi_miller_loop(&P::loop_shape(), &three_b::<P, N>(), &mut v)
}

/// True for a pair the loop runs on (neither point the identity).
fn is_live<P: PairingConfig<N>, const N: usize>((p, q): &PairOf<P, N>) -> bool {
    !bool::from(p.is_identity()) && !bool::from(q.is_identity())
}

/// The loop's inputs for the live pairs: P's coordinates and Q's live lines.
#[allow(clippy::type_complexity)]
fn live_pairs<P: PairingConfig<N>, const N: usize>(pairs: &[PairOf<P, N>]) -> Vec<(Fp<P::Fp, N>, Fp<P::Fp, N>, Lines<'static, P::Fp, N>)> {
    pairs.iter().filter(|pq| is_live::<P, N>(pq)).map(|(p, q)| (p.x(), p.y(), live::<P, N>(q))).collect()
}

/// Every pair's last Miller-loop point (`None` for a skipped pair), in input order.
pub type LoopEnds<C, const N: usize> = Vec<Option<G2Homogeneous<C, N>>>;

/// [`multi_miller_loop`], also handing back for every pair, in input order, the loop's last
/// twist point T in homogeneous coordinates: \[n\] Q for the loop count n when the curve has no
/// trailing steps (`None` for a pair skipped because one of its points is the identity). On
/// BLS12 curves Q is in G2 exactly when [|x|] Q = -psi(Q) (Scott, ePrint 2021/1130, section
/// 4), so these points check the G2 inputs without the 63 doublings of a separate test
/// ([`crate::bls12_381::pairing_check_g2_unchecked`]).
///
/// For a Q outside G2 the loop's steps may meet an exceptional case (T = +-Q in an addition
/// step, which needs [k +- 1] Q = O for some 0 < k +- 1 < r). The homogeneous formulas then
/// give Z = 0, and every later step keeps Z = 0 (a doubling multiplies Z by Y Z, an addition
/// by lambda^3 with lambda = X - xQ Z = 0), so such a T has Z = 0 at the end and fails any
/// comparison that requires Z != 0; the Fp12 value is then meaningless, which is why a caller
/// must look at the points before using it.
pub fn multi_miller_loop_with_ends<P: PairingConfig<N>, const N: usize>(
    pairs: &[PairOf<P, N>],
) -> (Fp12<P::Fp, N>, LoopEnds<P::Fp, N>) {
    let mut v = live_pairs::<P, N>(pairs);
    let f = miller::multi_miller_loop(&P::loop_shape(), &three_b::<P, N>(), &mut v);
    // every entry of `v` has live lines, so each yields its T
    let mut ends = v.into_iter().map(|(_, _, src)| match src {
        Lines::Live { t, .. } => Some(t),
        Lines::Prepared { .. } => None,
    });
    let out = pairs.iter().map(|pq| if is_live::<P, N>(pq) { ends.next().flatten() } else { None }).collect();
    (f, out)
}

/// The multi-Miller loop with prepared G2 points.
pub fn multi_miller_loop_prepared<P: PairingConfig<N>, const N: usize>(pairs: &[(Affine<P::G1>, &G2Prepared<P, N>)]) -> Fp12<P::Fp, N> {
    let mut v: Vec<_> = pairs
        .iter()
        .filter(|(p, q)| !bool::from(p.is_identity()) && !q.infinity)
        .map(|(p, q)| (p.x(), p.y(), Lines::Prepared { coeffs: &q.coeffs, pos: 0 }))
        .collect();
    miller::multi_miller_loop(&P::loop_shape(), &three_b::<P, N>(), &mut v)
}

/// [`multi_miller_loop`] on the threads of the current rayon pool (run it inside
/// `pool.install(..)` to choose them): the pairs are cut into one contiguous chunk per
/// thread, each chunk runs its own multi-Miller loop, and the partial products are multiplied
/// (the loop's output is the product of the pairs' Miller functions, so this is the same
/// value). One thread, or fewer than two pairs: the plain loop, no task spawned. The chunks
/// each pay the loop's shared squarings, so two threads gain at most about 1.6x on eight pairs.
/// [`crate::config::parallel_split`] sets the chunk length: near-equal chunks, or (where the
/// steps run on AVX-512 IFMA lanes with full-width units, Zen 5) whole lane groups of eight
/// pairs, so eight pairs or fewer run as one loop on the caller's thread (there two half-empty
/// lane loops cost what two full ones do: 1.4-1.7x the one-thread time measured).
pub fn multi_miller_loop_parallel<P: PairingConfig<N>, const N: usize>(pairs: &[PairOf<P, N>]) -> Fp12<P::Fp, N>
where
    PairOf<P, N>: Sync,
{
    use rayon::prelude::*;
    let threads = rayon::current_num_threads().min(pairs.len());
    let chunk = miller::parallel_part_len::<P::Fp, N>(pairs.len(), threads);
    if threads <= 1 || chunk >= pairs.len() {
        return multi_miller_loop::<P, N>(pairs);
    }
    pairs.par_chunks(chunk).map(multi_miller_loop::<P, N>).reduce(|| Fp12::ONE, |a, b| a * b)
}

/// [`pairing_check`] with the Miller loop on the current rayon pool's threads
/// ([`multi_miller_loop_parallel`]); the final exponentiation runs once, on the caller's thread.
pub fn pairing_check_parallel<P: PairingConfig<N>, const N: usize>(pairs: &[PairOf<P, N>]) -> bool
where
    PairOf<P, N>: Sync,
{
    final_exponentiation::<P, N>(&multi_miller_loop_parallel::<P, N>(pairs)).is_some_and(|g| g.is_identity())
}

/// The final exponentiation of a Miller-loop output: the shared easy part, then the curve's
/// hard part. `None` only for f = 0, which no Miller loop of valid points produces.
pub fn final_exponentiation<P: PairingConfig<N>, const N: usize>(f: &Fp12<P::Fp, N>) -> Option<Gt<P::Fp, N>> {
    crate::gt::easy_part(f).map(|e| Gt(P::hard_part(&e)))
}

/// e(P, Q).
pub fn pairing<P: PairingConfig<N>, const N: usize>(p: &Affine<P::G1>, q: &Affine<P::G2>) -> Gt<P::Fp, N> {
    final_exponentiation::<P, N>(&multi_miller_loop::<P, N>(&[(*p, *q)])).unwrap_or(Gt::IDENTITY)
}

/// prod_i e(P_i, Q_i) == 1 with one shared Miller loop and one final exponentiation; the empty
/// product is one.
pub fn pairing_check<P: PairingConfig<N>, const N: usize>(pairs: &[PairOf<P, N>]) -> bool {
    final_exponentiation::<P, N>(&multi_miller_loop::<P, N>(pairs)).is_some_and(|g| g.is_identity())
}

/// [`pairing_check`] with prepared G2 points.
pub fn pairing_check_prepared<P: PairingConfig<N>, const N: usize>(pairs: &[(Affine<P::G1>, &G2Prepared<P, N>)]) -> bool {
    final_exponentiation::<P, N>(&multi_miller_loop_prepared::<P, N>(pairs)).is_some_and(|g| g.is_identity())
}

/// Decode a Gt element (12 N * 8 bytes) and check membership.
pub fn gt_from_bytes<P: PairingConfig<N>, const N: usize>(bytes: &[u8]) -> Result<Gt<P::Fp, N>, PairingError> {
    gt_from_fp12::<P, N>(Gt::<P::Fp, N>::decode_fp12(bytes)?)
}

/// An Fp12 element as a Gt element, checked: non-zero, in the cyclotomic subgroup, and of
/// order dividing r (by the curve's Frobenius test where it has one and
/// [`crate::config::gt_membership`] allows it, else f^r = 1).
pub fn gt_from_fp12<P: PairingConfig<N>, const N: usize>(f: Fp12<P::Fp, N>) -> Result<Gt<P::Fp, N>, PairingError> {
    if Gt::is_cyclotomic(&f) && order_divides_r::<P, N>(&f) {
        Ok(Gt::from_fp12_unchecked(f))
    } else {
        Err(PairingError::NotInGt)
    }
}

/// A cyclotomic f has order dividing r.
fn order_divides_r<P: PairingConfig<N>, const N: usize>(f: &Fp12<P::Fp, N>) -> bool {
    if crate::config::gt_membership() != crate::config::GtMembership::Order {
        if let Some(b) = P::gt_frobenius_test(f) {
            return b;
        }
    }
    Gt::has_order_dividing(f, &<P::G1 as CurveConfig>::ORDER)
}

/// The generator e(G1, G2).
pub fn gt_generator<P: PairingConfig<N>, const N: usize>() -> Gt<P::Fp, N> {
    pairing::<P, N>(&Affine::<P::G1>::generator(), &Affine::<P::G2>::generator())
}

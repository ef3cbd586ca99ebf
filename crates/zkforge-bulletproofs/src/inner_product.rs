//! The logarithmic inner-product argument (Bunz et al., ePrint 2017/1066, section 3; dalek's
//! transcript order: "ipp v1", n, then per round L, R and the challenge u).
//!
//! The prover does not fold generators point by point. After k rounds the folded G'_t is
//! sum over the originals i = t (mod n_k) of cg_i G_i, and cg_i is just the product of the
//! round challenges (u^-1 for the left half, u for the right) times the initial factor. So
//! each L and R is one multi-scalar multiplication over the basis with scalars a_t cg_i (resp.
//! b_t ch_i), through the fixed-base tables when given. Once the basis holds
//! `ProverConfig::rebase_ratio` points per position, the folded generators are computed
//! (small variable-time MSMs) and become the basis. The points are the same as with folding,
//! so proofs are dalek's bytes.
//!
//! The verifier does not run the rounds: `challenges` and `verification_scalars`
//! return the challenges u_k, then u_k^2, u_k^-2 and the vector s (s_i = prod_k u_k^(+-1) by the bits of i) that the
//! range proof's single multi-scalar check uses.

use merlin::Transcript;
use zkforge_msm::msm_ct::CtMsmMethod;

use crate::error::BulletproofError;
use crate::group::BpGroup;
use crate::transcript::{append_point, challenge_scalar, innerproduct_domain_sep, validate_and_append_point};

/// A point as it was read or written: its compressed bytes (for the transcript and the wire)
/// and the decoded element.
#[derive(Clone, Debug, PartialEq)]
pub struct Encoded<G: BpGroup> {
    /// Compressed bytes (`G::POINT_BYTES`).
    pub bytes: Vec<u8>,
    /// The group element.
    pub point: G::Point,
}

impl<G: BpGroup> Encoded<G> {
    /// Compresses `point`.
    pub fn new(point: G::Point) -> Self {
        Self { bytes: G::compress(&point), point }
    }

    /// Decodes compressed bytes with every check.
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        if bytes.len() != G::POINT_BYTES {
            return None;
        }
        Some(Self { bytes: bytes.to_vec(), point: G::decompress(bytes)? })
    }
}

/// L and R of every round, and the final a and b.
#[derive(Clone, Debug, PartialEq)]
pub struct InnerProductProof<G: BpGroup> {
    pub(crate) l_vec: Vec<Encoded<G>>,
    pub(crate) r_vec: Vec<Encoded<G>>,
    pub(crate) a: G::Scalar,
    pub(crate) b: G::Scalar,
}

/// Inner product of two scalar slices.
pub(crate) fn inner_product<G: BpGroup>(a: &[G::Scalar], b: &[G::Scalar]) -> G::Scalar {
    let mut acc = G::Scalar::default();
    for (x, y) in a.iter().zip(b) {
        acc += *x * *y;
    }
    acc
}

impl<G: BpGroup> InnerProductProof<G> {
    /// Proves knowledge of a, b with P = <a, G'> + <b, H'> + <a, b> Q, where
    /// G'_i = g_factors_i G_i and H'_i = h_factors_i H_i. All vectors have the same
    /// power-of-two length (the caller guarantees it). a and b are the range proof's l(x) and
    /// r(x), which the unfolded protocol would send in the clear: the MSMs run variable time.
    ///
    /// With `tables` = (tables over [B, B_blinding, G, H], w) where Q = w B, every L and R is
    /// one fixed-base MSM over the tables (the zero scalars cost no additions).
    ///
    /// `rebase_ratio` (see [`crate::ProverConfig`]): once the basis holds that many points per
    /// current position, the folded generators are computed (public points, public
    /// coefficients, variable time) and the rounds go on over them; the tables serve only the
    /// original basis.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn prove(
        transcript: &mut Transcript,
        tables: Option<(&G::Tables, G::Scalar)>,
        rebase_ratio: Option<usize>,
        fold: CtMsmMethod,
        q: &G::Point,
        g_factors: &[G::Scalar],
        h_factors: &[G::Scalar],
        g: &[G::Point],
        h: &[G::Point],
        mut a: Vec<G::Scalar>,
        mut b: Vec<G::Scalar>,
    ) -> Self {
        let big_n = g.len();
        innerproduct_domain_sep(transcript, big_n as u64);
        let mut basis = Basis::<G>::new(g, h, g_factors.to_vec(), h_factors.to_vec());
        let mut tables = tables;
        let mut l_vec = Vec::new();
        let mut r_vec = Vec::new();
        // one MSM input: the basis G then H then Q, rebuilt only when the basis changes
        let mut points = msm_points::<G>(&basis, q);
        let mut sl = vec![G::Scalar::default(); 2 * big_n + 1];
        let mut sr = vec![G::Scalar::default(); 2 * big_n + 1];
        let mut n = big_n;
        while n > 1 {
            if basis.maybe_rebase(rebase_ratio, n, fold) {
                tables = None;
                points = msm_points::<G>(&basis, q);
                sl.truncate(points.len());
                sr.truncate(points.len());
            }
            let base = basis.len();
            let half = n / 2;
            let (a_l, a_r) = a[..n].split_at(half);
            let (b_l, b_r) = b[..n].split_at(half);
            // basis point i sits at position t = i mod n of the current vectors; every slot
            // is written (zero where the point is not in this half)
            let zero = G::Scalar::default();
            for i in 0..base {
                let t = i % n;
                if t < half {
                    // G_i is in G'_L, H_i in H'_L
                    sl[i] = zero;
                    sr[i] = a_r[t] * basis.cg[i];
                    sl[base + i] = b_r[t] * basis.ch[i];
                    sr[base + i] = zero;
                } else {
                    sl[i] = a_l[t - half] * basis.cg[i];
                    sr[i] = zero;
                    sl[base + i] = zero;
                    sr[base + i] = b_l[t - half] * basis.ch[i];
                }
            }
            sl[2 * base] = inner_product::<G>(a_l, b_r);
            sr[2 * base] = inner_product::<G>(a_r, b_l);
            let (l, r) = match tables {
                Some((t, w)) => (Encoded::<G>::new(msm_tabled::<G>(t, w, &sl)), Encoded::<G>::new(msm_tabled::<G>(t, w, &sr))),
                None => (Encoded::<G>::new(msm_nonzero::<G>(&sl, &points)), Encoded::<G>::new(msm_nonzero::<G>(&sr, &points))),
            };
            append_point(transcript, b"L", &l.bytes);
            append_point(transcript, b"R", &r.bytes);
            l_vec.push(l);
            r_vec.push(r);
            let u = challenge_scalar::<G>(transcript, b"u");
            // u is a hash output: zero has probability 2^-250; the inverse then reads as 0
            let u_inv = G::scalar_invert(&u).unwrap_or_default();
            for t in 0..half {
                a[t] = a[t] * u + u_inv * a[half + t];
                b[t] = b[t] * u_inv + u * b[half + t];
            }
            basis.fold(n, u_inv, u, u, u_inv);
            n = half;
        }
        Self { l_vec, r_vec, a: a[0], b: b[0] }
    }

    /// Replays the transcript for a proof of length `n` and returns the round challenges
    /// u_k (creation order), checking that no L or R is the identity.
    pub(crate) fn challenges(&self, n: usize, transcript: &mut Transcript) -> Result<Vec<G::Scalar>, BulletproofError> {
        let lg_n = self.l_vec.len();
        if lg_n >= 32 || n != (1usize << lg_n) {
            return Err(BulletproofError::VerificationFailed);
        }
        innerproduct_domain_sep(transcript, n as u64);
        let mut u = Vec::with_capacity(lg_n);
        for (l, r) in self.l_vec.iter().zip(&self.r_vec) {
            validate_and_append_point::<G>(transcript, b"L", &l.point, &l.bytes)?;
            validate_and_append_point::<G>(transcript, b"R", &r.point, &r.bytes)?;
            u.push(challenge_scalar::<G>(transcript, b"u"));
        }
        Ok(u)
    }

    /// Number of rounds (log2 of the vector length).
    pub fn rounds(&self) -> usize {
        self.l_vec.len()
    }
}

/// A prover's generators during the rounds: the folded G'_t (t < len) is the sum over
/// i = t (mod len) of cg_i g_i, and H'_t likewise; the coefficients are public (products of
/// round challenges and the initial factors). Shared by both provers.
pub(crate) struct Basis<G: BpGroup> {
    pub(crate) g: Vec<G::Point>,
    pub(crate) h: Vec<G::Point>,
    pub(crate) cg: Vec<G::Scalar>,
    pub(crate) ch: Vec<G::Scalar>,
}

impl<G: BpGroup> Basis<G> {
    /// The original generators with their initial factors.
    pub(crate) fn new(g: &[G::Point], h: &[G::Point], cg: Vec<G::Scalar>, ch: Vec<G::Scalar>) -> Self {
        Self { g: g.to_vec(), h: h.to_vec(), cg, ch }
    }

    /// Points in the basis.
    pub(crate) fn len(&self) -> usize {
        self.g.len()
    }

    /// With current length `len`: when the basis holds at least `ratio` points per position,
    /// replace it by the folded generators (small variable-time MSMs of public points) with
    /// coefficients 1. Returns whether it did.
    pub(crate) fn maybe_rebase(&mut self, ratio: Option<usize>, len: usize, fold: CtMsmMethod) -> bool {
        match ratio {
            Some(r) if self.len() >= r.max(2) * len => {
                self.g = fold_points::<G>(&self.g, &self.cg, len, fold);
                self.h = fold_points::<G>(&self.h, &self.ch, len, fold);
                let one = G::scalar_from_u64(1);
                self.cg = vec![one; len];
                self.ch = vec![one; len];
                true
            }
            _ => false,
        }
    }

    /// One round's fold at length `len`: the G coefficients of the low half times `g_lo`, of
    /// the high half times `g_hi`; H likewise.
    pub(crate) fn fold(&mut self, len: usize, g_lo: G::Scalar, g_hi: G::Scalar, h_lo: G::Scalar, h_hi: G::Scalar) {
        let half = len / 2;
        for i in 0..self.len() {
            if i % len < half {
                self.cg[i] *= g_lo;
                self.ch[i] *= h_lo;
            } else {
                self.cg[i] *= g_hi;
                self.ch[i] *= h_hi;
            }
        }
    }

    /// The fully folded G' and H' (length 1).
    pub(crate) fn folded(&self, fold: CtMsmMethod) -> (G::Point, G::Point) {
        // the two sums together: G' from the first run, H' from the second
        let s: Vec<G::Scalar> = self.cg.iter().chain(&self.ch).copied().collect();
        let p: Vec<G::Point> = self.g.iter().chain(&self.h).copied().collect();
        let both = G::msm_many_vartime(&s, &p, 2, fold);
        (both[0], both[1])
    }
}

/// The `len` points sum over i = t (mod len) of coeff_i basis_i, for t < len: `len`
/// independent sums of basis.len() / len terms ([`BpGroup::msm_many_vartime`] by `fold`).
fn fold_points<G: BpGroup>(basis: &[G::Point], coeff: &[G::Scalar], len: usize, fold: CtMsmMethod) -> Vec<G::Point> {
    let per = basis.len() / len;
    let mut s = Vec::with_capacity(per * len);
    let mut p = Vec::with_capacity(per * len);
    for t in 0..len {
        for k in 0..per {
            s.push(coeff[t + k * len]);
            p.push(basis[t + k * len]);
        }
    }
    G::msm_many_vartime(&s, &p, len, fold)
}

/// (u_k^2, u_k^-2, s) from the challenges u and their inverses: s_0 = prod u_k^-1 and
/// s_i = s_(i - 2^lg i) u_(lg i)^2 (challenges in creation order), n = 2^(number of rounds).
pub(crate) fn verification_scalars<G: BpGroup>(u: &[G::Scalar], u_inv: &[G::Scalar]) -> (Vec<G::Scalar>, Vec<G::Scalar>, Vec<G::Scalar>) {
    let lg_n = u.len();
    let n = 1usize << lg_n;
    let all_inv = u_inv.iter().fold(G::scalar_from_u64(1), |acc, x| acc * *x);
    let u_sq: Vec<G::Scalar> = u.iter().map(|x| *x * *x).collect();
    let u_inv_sq: Vec<G::Scalar> = u_inv.iter().map(|x| *x * *x).collect();
    let mut s = Vec::with_capacity(n);
    s.push(all_inv);
    for i in 1..n {
        let lg_i = (usize::BITS - 1 - i.leading_zeros()) as usize;
        let k = 1 << lg_i;
        s.push(s[i - k] * u_sq[lg_n - 1 - lg_i]);
    }
    (u_sq, u_inv_sq, s)
}

/// Inverts every element with one inversion (Montgomery's trick); `None` if one is zero.
pub(crate) fn batch_invert<G: BpGroup>(v: &mut [G::Scalar]) -> Option<()> {
    let mut prefix = Vec::with_capacity(v.len());
    let mut acc = G::scalar_from_u64(1);
    for x in v.iter() {
        prefix.push(acc);
        acc *= *x;
    }
    let mut inv = G::scalar_invert(&acc)?;
    for (x, p) in v.iter_mut().zip(prefix).rev() {
        let xi = inv * p;
        inv *= *x;
        *x = xi;
    }
    Some(())
}

/// The basis's G, then H, then Q: one MSM input for L and R.
fn msm_points<G: BpGroup>(basis: &Basis<G>, q: &G::Point) -> Vec<G::Point> {
    let mut points = Vec::with_capacity(2 * basis.len() + 1);
    points.extend_from_slice(&basis.g);
    points.extend_from_slice(&basis.h);
    points.push(*q);
    points
}

/// The round MSM through tables over [B, B_blinding, G, H]: `scalars` is laid out G, H, Q
/// and Q = w B.
fn msm_tabled<G: BpGroup>(tables: &G::Tables, w: G::Scalar, scalars: &[G::Scalar]) -> G::Point {
    let n2 = scalars.len() - 1;
    let mut st = Vec::with_capacity(n2 + 2);
    st.push(w * scalars[n2]);
    st.push(G::Scalar::default());
    st.extend_from_slice(&scalars[..n2]);
    G::msm_mixed_vartime(tables, &st, &[], &[])
}

/// MSM over the terms whose scalar is not zero (half of each round's terms are).
fn msm_nonzero<G: BpGroup>(scalars: &[G::Scalar], points: &[G::Point]) -> G::Point {
    let zero = G::Scalar::default();
    let mut s = Vec::with_capacity(scalars.len() / 2 + 1);
    let mut p = Vec::with_capacity(scalars.len() / 2 + 1);
    for (x, q) in scalars.iter().zip(points) {
        if *x != zero {
            s.push(*x);
            p.push(*q);
        }
    }
    G::msm_vartime(&s, &p)
}

//! Aggregated range proofs (Bunz, Bootle, Boneh, Poelstra, Wuille, Maxwell: "Bulletproofs",
//! ePrint 2017/1066, sections 4.1-4.3 and 6), the protocol and wire format of dalek's
//! `bulletproofs` 5.x: the proof is A, S, T_1, T_2, t_x, t_x_blinding, e_blinding, then the
//! inner-product proof's (L, R) pairs and a, b. For n in {8, 16, 32, 64} and m a power of two
//! the transcript, the proof and (with the same random draws) its bytes are dalek's.
//!
//! Beyond dalek:
//! - any bit size 1 <= n <= 64: each value's n bits are padded with zero entries to n' (the
//!   next power of two) in l(x) and r(x); the padded entries are zero in l0, r0, l1 and r1, so
//!   t(x) and delta(y, z) sum over the n real bits only and the verifier's G/H scalars at the
//!   padded positions keep only the inner-product terms. The proof shows v < 2^n.
//! - any number of values 1 <= m <= 64: the proof covers m' (the next power of two) values;
//!   the extra ones are 0 with blinding 0, and their commitments, the identity, are appended
//!   to the transcript by both sides.
//! - batch verification: one multi-scalar multiplication over all proofs, each proof's
//!   equation weighted by a fresh random scalar; the generators' scalars are summed, so the
//!   generators appear once.
//!
//! Verification is one multi-scalar multiplication (Bulletproofs section 6.2):
//! A + x S + c x T_1 + c x^2 T_2 + sum u_k^2 L_k + u_k^-2 R_k
//! - (e_blinding + c t_x_blinding) B_blinding + (w (t_x - a b) + c (delta - t_x)) B
//! + sum g_i G_i + sum h_i H_i + sum c z^2 z^j V_j == 0.
//!
//! Secrets (values, blinding factors, the bit vectors and the masks s_L, s_R) go through
//! constant-time code only (Pedersen and vector commitments by the constant-time MSM, the
//! bit commitment A by constant-time selection) and are zeroized when dropped. l(x) and r(x)
//! are masked by s_L, s_R and would be sent in the clear by the unfolded protocol, so the
//! inner-product argument runs variable time, as dalek's does.

use merlin::Transcript;
use rand_core::{CryptoRng, RngCore};
use subtle::{Choice, ConditionallySelectable};
use zeroize::Zeroize;
use zkforge_msm::msm_ct::CtMsmMethod;

use crate::error::BulletproofError;
use crate::generators::{BulletproofGens, PedersenGens, GeneratorTables};
use crate::group::BpGroup;
use crate::inner_product::{batch_invert, verification_scalars, Encoded, InnerProductProof};
use crate::transcript::{append_point, append_scalar, challenge_scalar, rangeproof_domain_sep, validate_and_append_point};

/// The provers' knob (both proof systems).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProverConfig {
    /// Rebase the inner-product rounds onto the folded generators (computed with
    /// variable-time MSMs: public points, public coefficients) whenever the basis holds at
    /// least this many points per current position. `None` keeps the original generators
    /// throughout, so every round's MSMs stay N + 1 terms long (and a Bulletproof's can use the
    /// generator tables); `Some(2)` folds every round (the textbook prover). Every value gives
    /// the same proof. Measured defaults ([`ProverConfig::BULLETPROOFS`],
    /// [`ProverConfig::BULLETPROOFS_PLUS`]) from `examples/bp_rebase.rs` and
    /// `examples/plus_rebase.rs`.
    pub rebase_ratio: Option<usize>,
    /// How the constant-time MSMs (commitments to the secret vectors, every Bulletproofs+
    /// round's L and R) are computed on BLS12-381 and BN254 G1 ([`CtMsmMethod`]: Straus on the
    /// 64-bit field, or AVX-512 IFMA lanes where the CPU and field allow; `Auto` picks by
    /// size). Every value gives the same proof; Ristretto has one method.
    pub ct_msm: CtMsmMethod,
    /// How a rebase computes the folded generators (public sums of a few terms each): one
    /// variable-time MSM per point (`Straus`), or eight sums at once on AVX-512 IFMA lanes
    /// where they exist (`Lanes`; `Auto` from [`zkforge_msm::msm_ct::MANY_LANES_MIN`] sums).
    /// Every value gives the same proof; Ristretto has one method.
    pub fold_msm: CtMsmMethod,
}

impl ProverConfig {
    /// The measured best for [`RangeProof`]: rebase at 8 points per position (Ristretto 16 x
    /// 64 bits: 57 ms against 86 ms without; one value with tables 3.9 against 4.1 ms).
    pub const BULLETPROOFS: Self = Self { rebase_ratio: Some(8), ct_msm: CtMsmMethod::Auto, fold_msm: CtMsmMethod::Auto };
    /// The measured best for [`crate::RangeProofPlus`]: rebase at 4 (its rounds are
    /// constant-time MSMs, so shorter rounds pay sooner: 16 x 64 bits 63 ms against 151 ms).
    pub const BULLETPROOFS_PLUS: Self = Self { rebase_ratio: Some(4), ct_msm: CtMsmMethod::Auto, fold_msm: CtMsmMethod::Auto };
}

impl Default for ProverConfig {
    /// [`ProverConfig::BULLETPROOFS`].
    fn default() -> Self {
        Self::BULLETPROOFS
    }
}

/// The largest number of values one proof aggregates.
pub const MAX_VALUES: usize = 64;
/// The largest bit size.
pub const MAX_BITS: usize = 64;

/// A range proof that each of m committed values is below 2^n.
#[derive(Clone, Debug, PartialEq)]
pub struct RangeProof<G: BpGroup> {
    a: Encoded<G>,
    s: Encoded<G>,
    t_1: Encoded<G>,
    t_2: Encoded<G>,
    t_x: G::Scalar,
    t_x_blinding: G::Scalar,
    e_blinding: G::Scalar,
    ipp: InnerProductProof<G>,
}

/// A value commitment v B + r B_blinding, as produced by the prover or decoded.
pub type Commitment<G> = Encoded<G>;

/// (n', m'): the bit size and the value count rounded up to powers of two, after checking
/// both ranges.
pub(crate) fn padded_shape(n: usize, m: usize) -> Result<(usize, usize), BulletproofError> {
    if n == 0 || n > MAX_BITS {
        return Err(BulletproofError::InvalidBitsize(n));
    }
    if m == 0 || m > MAX_VALUES {
        return Err(BulletproofError::InvalidAggregation(m));
    }
    Ok((n.next_power_of_two(), m.next_power_of_two()))
}

/// Checks a prover's inputs and returns the padded shape (n', m').
pub(crate) fn check_prover_inputs<G: BpGroup>(bp_gens: &BulletproofGens<G>, values: &[u64], num_blindings: usize, n: usize) -> Result<(usize, usize), BulletproofError> {
    let m = values.len();
    if num_blindings != m {
        return Err(BulletproofError::WrongNumBlindingFactors { values: m, blindings: num_blindings });
    }
    let (n_pad, m_pad) = padded_shape(n, m)?;
    bp_gens.check(n_pad, m_pad)?;
    for (index, v) in values.iter().enumerate() {
        if n < 64 && (v >> n) != 0 {
            return Err(BulletproofError::ValueOutOfRange { index, bits: n });
        }
    }
    Ok((n_pad, m_pad))
}

/// The value commitments v_j B + gamma_j B_blinding, appended to the transcript as `V`, then
/// the identity for each padding value up to m' (value 0, blinding 0).
pub(crate) fn commit_values<G: BpGroup>(pc_gens: &PedersenGens<G>, transcript: &mut Transcript, values: &[u64], blindings: &[G::Scalar], m_pad: usize) -> Vec<Commitment<G>> {
    let mut commitments = Vec::with_capacity(m_pad);
    for j in 0..m_pad {
        let c = if j < values.len() { pc_gens.commit(G::scalar_from_u64(values[j]), blindings[j]) } else { G::identity() };
        let c = Encoded::<G>::new(c);
        append_point(transcript, b"V", &c.bytes);
        commitments.push(c);
    }
    commitments
}

/// The verifier's side of [`commit_values`]: the given commitments, then identities to m'.
pub(crate) fn append_commitments<G: BpGroup>(transcript: &mut Transcript, commitments: &[Commitment<G>], m_pad: usize) {
    for c in commitments {
        append_point(transcript, b"V", &c.bytes);
    }
    let identity = Encoded::<G>::new(G::identity());
    for _ in commitments.len()..m_pad {
        append_point(transcript, b"V", &identity.bytes);
    }
}

/// 1, x, x^2, ... (count terms).
pub(crate) fn powers<G: BpGroup>(x: &G::Scalar, count: usize) -> Vec<G::Scalar> {
    let mut out = Vec::with_capacity(count);
    let mut acc = G::scalar_from_u64(1);
    for _ in 0..count {
        out.push(acc);
        acc *= *x;
    }
    out
}

/// The secrets of one party, zeroized on drop.
struct PartySecrets<G: BpGroup> {
    v: u64,
    v_blinding: G::Scalar,
    a_blinding: G::Scalar,
    s_blinding: G::Scalar,
    s_l: Vec<G::Scalar>,
    s_r: Vec<G::Scalar>,
    t_1_blinding: G::Scalar,
    t_2_blinding: G::Scalar,
}

impl<G: BpGroup> Drop for PartySecrets<G> {
    fn drop(&mut self) {
        self.v.zeroize();
        self.v_blinding.zeroize();
        self.a_blinding.zeroize();
        self.s_blinding.zeroize();
        self.s_l.iter_mut().for_each(Zeroize::zeroize);
        self.s_r.iter_mut().for_each(Zeroize::zeroize);
        self.t_1_blinding.zeroize();
        self.t_2_blinding.zeroize();
    }
}

/// A vector of secret scalars zeroized on drop (l(x), r(x) coefficients).
pub(crate) struct SecretVec<S: Zeroize>(pub(crate) Vec<S>);

impl<S: Zeroize> Drop for SecretVec<S> {
    fn drop(&mut self) {
        self.0.iter_mut().for_each(Zeroize::zeroize);
    }
}

impl<G: BpGroup> RangeProof<G> {
    /// Proves that `value < 2^n` for the commitment `value B + blinding B_blinding`, which it
    /// also returns.
    ///
    /// ```
    /// use merlin::Transcript;
    /// use zkforge_bulletproofs::{BpGroup, BulletproofGens, PedersenGens, RangeProof, Ristretto255};
    /// let bp = BulletproofGens::<Ristretto255>::new(64, 1);
    /// let pc = PedersenGens::default();
    /// let blinding = Ristretto255::scalar_random(&mut rand_core::OsRng);
    /// let (proof, v) = RangeProof::prove_single(&bp, &pc, &mut Transcript::new(b"doc"), 1037578891, &blinding, 32).unwrap();
    /// assert!(proof.verify_single(&bp, &pc, &mut Transcript::new(b"doc"), &v, 32).is_ok());
    /// ```
    pub fn prove_single(
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        transcript: &mut Transcript,
        value: u64,
        blinding: &G::Scalar,
        n: usize,
    ) -> Result<(Self, Commitment<G>), BulletproofError> {
        let (p, mut v) = Self::prove_multiple_with_rng(bp_gens, pc_gens, transcript, &[value], &[*blinding], n, &mut rand_core::OsRng)?;
        Ok((p, v.swap_remove(0)))
    }

    /// Proves that every value is below 2^n, with the operating system's randomness.
    pub fn prove_multiple(
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        transcript: &mut Transcript,
        values: &[u64],
        blindings: &[G::Scalar],
        n: usize,
    ) -> Result<(Self, Vec<Commitment<G>>), BulletproofError> {
        Self::prove_multiple_with_rng(bp_gens, pc_gens, transcript, values, blindings, n, &mut rand_core::OsRng)
    }

    /// Proves that every value is below 2^n (1 <= n <= 64, 1 to 64 values) and returns the
    /// proof and the value commitments. The random draws are dalek's, in dalek's order, so a
    /// seeded RNG reproduces dalek's proof bytes for the sizes dalek supports.
    pub fn prove_multiple_with_rng<R: RngCore + CryptoRng>(
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        transcript: &mut Transcript,
        values: &[u64],
        blindings: &[G::Scalar],
        n: usize,
        rng: &mut R,
    ) -> Result<(Self, Vec<Commitment<G>>), BulletproofError> {
        Self::prove_with_tables(bp_gens, pc_gens, None, &ProverConfig::default(), transcript, values, blindings, n, rng)
    }

    /// [`RangeProof::prove_multiple_with_rng`] with generator tables of the proof's shape:
    /// the inner-product rounds run as fixed-base MSMs (where the group measures that as
    /// faster, see [`BpGroup::prefer_tables`]). The proof is the same.
    ///
    /// ```
    /// use merlin::Transcript;
    /// use zkforge_bulletproofs::{BpGroup, BulletproofGens, GeneratorTables, PedersenGens, ProverConfig, RangeProof, Ristretto255};
    /// let bp = BulletproofGens::<Ristretto255>::new(64, 1);
    /// let pc = PedersenGens::default();
    /// let t = GeneratorTables::new(&bp, &pc, 64, 1).unwrap();
    /// let r = Ristretto255::scalar_from_u64(3);
    /// let (p, v) = RangeProof::prove_with_tables(&bp, &pc, Some(&t), &ProverConfig::default(), &mut Transcript::new(b"t"), &[9], &[r], 64, &mut rand_core::OsRng).unwrap();
    /// assert!(p.verify_with_tables(&bp, &pc, &t, &mut Transcript::new(b"t"), &v, 64).is_ok());
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn prove_with_tables<R: RngCore + CryptoRng>(
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        tables: Option<&GeneratorTables<G>>,
        config: &ProverConfig,
        transcript: &mut Transcript,
        values: &[u64],
        blindings: &[G::Scalar],
        n: usize,
        rng: &mut R,
    ) -> Result<(Self, Vec<Commitment<G>>), BulletproofError> {
        let m = values.len();
        let (n_pad, m_pad) = check_prover_inputs(bp_gens, values, blindings.len(), n)?;
        let big_n = n_pad * m_pad;
        let g = bp_gens.g_in(n_pad, m_pad);
        let h = bp_gens.h_in(n_pad, m_pad);

        rangeproof_domain_sep(transcript, n as u64, m_pad as u64);
        let zero = G::Scalar::default();
        let one = G::scalar_from_u64(1);
        let mut commitments = commit_values(pc_gens, transcript, values, blindings, m_pad);

        // per party: A_j = a_blinding B_blinding + sum_i (bit ? G_i : -H_i), S_j (dalek's draws)
        let mut parties: Vec<PartySecrets<G>> = Vec::with_capacity(m_pad);
        let mut a_terms = Vec::with_capacity(m_pad * (n + 1));
        let mut s_scalars = Vec::with_capacity(m_pad * (2 * n + 1));
        let mut s_points = Vec::with_capacity(m_pad * (2 * n + 1));
        for j in 0..m_pad {
            let (v, v_blinding) = if j < m { (values[j], blindings[j]) } else { (0, zero) };
            let a_blinding = G::scalar_random(rng);
            a_terms.push(G::msm_ct_with(&[a_blinding], &[pc_gens.b_blinding], config.ct_msm));
            for i in 0..n {
                let bit = Choice::from(((v >> i) & 1) as u8);
                let gi = g[j * n_pad + i];
                let neg_hi = G::neg(&h[j * n_pad + i]);
                a_terms.push(G::select(&neg_hi, &gi, bit));
            }
            let s_blinding = G::scalar_random(rng);
            let s_l: Vec<G::Scalar> = (0..n).map(|_| G::scalar_random(rng)).collect();
            let s_r: Vec<G::Scalar> = (0..n).map(|_| G::scalar_random(rng)).collect();
            s_scalars.push(s_blinding);
            s_points.push(pc_gens.b_blinding);
            s_scalars.extend_from_slice(&s_l);
            s_points.extend_from_slice(&g[j * n_pad..j * n_pad + n]);
            s_scalars.extend_from_slice(&s_r);
            s_points.extend_from_slice(&h[j * n_pad..j * n_pad + n]);
            parties.push(PartySecrets { v, v_blinding, a_blinding, s_blinding, s_l, s_r, t_1_blinding: zero, t_2_blinding: zero });
        }
        let a_point = Encoded::<G>::new(G::sum_ct(&a_terms));
        let s_point = Encoded::<G>::new(G::msm_ct_with(&s_scalars, &s_points, config.ct_msm));
        s_scalars.iter_mut().for_each(Zeroize::zeroize);
        append_point(transcript, b"A", &a_point.bytes);
        append_point(transcript, b"S", &s_point.bytes);
        let y = challenge_scalar::<G>(transcript, b"y");
        let z = challenge_scalar::<G>(transcript, b"z");
        let zz = z * z;

        // l(x) = l0 + l1 x, r(x) = r0 + r1 x over all N' positions (zero at padding), and
        // t(x) = <l, r> = t0 + t1 x + t2 x^2 (Karatsuba for t1)
        let y_pow = powers::<G>(&y, big_n);
        let z_pow = powers::<G>(&z, m_pad);
        let mut l0 = SecretVec(vec![zero; big_n]);
        let mut l1 = SecretVec(vec![zero; big_n]);
        let mut r0 = SecretVec(vec![zero; big_n]);
        let mut r1 = SecretVec(vec![zero; big_n]);
        let mut t1_sum = zero;
        let mut t2_sum = zero;
        let mut t1_blind_sum = zero;
        let mut t2_blind_sum = zero;
        for (j, party) in parties.iter_mut().enumerate() {
            let offset_zz = zz * z_pow[j];
            let mut exp_2 = one;
            for i in 0..n {
                let p = j * n_pad + i;
                let a_l = G::Scalar::conditional_select(&zero, &one, Choice::from(((party.v >> i) & 1) as u8));
                let a_r = a_l - one;
                l0.0[p] = a_l - z;
                l1.0[p] = party.s_l[i];
                r0.0[p] = y_pow[p] * (a_r + z) + offset_zz * exp_2;
                r1.0[p] = y_pow[p] * party.s_r[i];
                exp_2 = exp_2 + exp_2;
            }
            let rng_range = j * n_pad..j * n_pad + n;
            let t0 = crate::inner_product::inner_product::<G>(&l0.0[rng_range.clone()], &r0.0[rng_range.clone()]);
            let t2 = crate::inner_product::inner_product::<G>(&l1.0[rng_range.clone()], &r1.0[rng_range.clone()]);
            let mut t01 = zero;
            for p in rng_range {
                t01 += (l0.0[p] + l1.0[p]) * (r0.0[p] + r1.0[p]);
            }
            let t1 = t01 - t0 - t2;
            party.t_1_blinding = G::scalar_random(rng);
            party.t_2_blinding = G::scalar_random(rng);
            t1_sum += t1;
            t2_sum += t2;
            t1_blind_sum += party.t_1_blinding;
            t2_blind_sum += party.t_2_blinding;
        }
        // T_1 = sum_j (t1_j B + t1b_j B_blinding): the same point as dalek's sum of shares
        let t_1 = Encoded::<G>::new(pc_gens.commit(t1_sum, t1_blind_sum));
        let t_2 = Encoded::<G>::new(pc_gens.commit(t2_sum, t2_blind_sum));
        append_point(transcript, b"T_1", &t_1.bytes);
        append_point(transcript, b"T_2", &t_2.bytes);
        let x = challenge_scalar::<G>(transcript, b"x");

        let mut t_x_blinding = zero;
        let mut e_blinding = zero;
        for (j, party) in parties.iter().enumerate() {
            t_x_blinding += zz * z_pow[j] * party.v_blinding + (party.t_1_blinding + party.t_2_blinding * x) * x;
            e_blinding += party.a_blinding + party.s_blinding * x;
        }
        let l_vec: Vec<G::Scalar> = (0..big_n).map(|p| l0.0[p] + l1.0[p] * x).collect();
        let r_vec: Vec<G::Scalar> = (0..big_n).map(|p| r0.0[p] + r1.0[p] * x).collect();
        let t_x = crate::inner_product::inner_product::<G>(&l_vec, &r_vec);
        append_scalar::<G>(transcript, b"t_x", &t_x);
        append_scalar::<G>(transcript, b"t_x_blinding", &t_x_blinding);
        append_scalar::<G>(transcript, b"e_blinding", &e_blinding);
        let w = challenge_scalar::<G>(transcript, b"w");
        let q = G::msm_vartime(&[w], &[pc_gens.b]);

        let g_factors = vec![one; big_n];
        let y_inv = G::scalar_invert(&y).ok_or(BulletproofError::VerificationFailed)?;
        let h_factors = powers::<G>(&y_inv, big_n);
        let tabled = match tables {
            Some(t) if t.n_pad == n_pad && t.m_pad == m_pad && G::prefer_tables(2 + 2 * big_n, 0) => Some((&t.tables, w)),
            _ => None,
        };
        let ipp = InnerProductProof::prove(transcript, tabled, config.rebase_ratio, config.fold_msm, &q, &g_factors, &h_factors, &g, &h, l_vec, r_vec);
        commitments.truncate(m);
        Ok((Self { a: a_point, s: s_point, t_1, t_2, t_x, t_x_blinding, e_blinding, ipp }, commitments))
    }

    /// Verifies a proof for one commitment (randomness from the operating system).
    pub fn verify_single(
        &self,
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        transcript: &mut Transcript,
        commitment: &Commitment<G>,
        n: usize,
    ) -> Result<(), BulletproofError> {
        self.verify_multiple(bp_gens, pc_gens, transcript, core::slice::from_ref(commitment), n)
    }

    /// Verifies a proof for the given commitments: one variable-time multi-scalar
    /// multiplication over the proof's points and the generators.
    pub fn verify_multiple(
        &self,
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        transcript: &mut Transcript,
        commitments: &[Commitment<G>],
        n: usize,
    ) -> Result<(), BulletproofError> {
        self.verify_one(bp_gens, pc_gens, None, transcript, commitments, n)
    }

    /// Verifies with precomputed generator tables ([`GeneratorTables`]); when the tables are
    /// of another shape it verifies as [`RangeProof::verify_multiple`] does.
    ///
    /// ```
    /// use merlin::Transcript;
    /// use zkforge_bulletproofs::{BpGroup, BulletproofGens, PedersenGens, RangeProof, Ristretto255, GeneratorTables};
    /// let bp = BulletproofGens::<Ristretto255>::new(64, 1);
    /// let pc = PedersenGens::default();
    /// let tables = GeneratorTables::new(&bp, &pc, 64, 1).unwrap();
    /// let r = Ristretto255::scalar_from_u64(3);
    /// let (proof, v) = RangeProof::prove_single(&bp, &pc, &mut Transcript::new(b"t"), u64::MAX, &r, 64).unwrap();
    /// assert!(proof.verify_with_tables(&bp, &pc, &tables, &mut Transcript::new(b"t"), &[v], 64).is_ok());
    /// ```
    pub fn verify_with_tables(
        &self,
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        tables: &GeneratorTables<G>,
        transcript: &mut Transcript,
        commitments: &[Commitment<G>],
        n: usize,
    ) -> Result<(), BulletproofError> {
        self.verify_one(bp_gens, pc_gens, Some(tables), transcript, commitments, n)
    }

    fn verify_one(
        &self,
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        tables: Option<&GeneratorTables<G>>,
        transcript: &mut Transcript,
        commitments: &[Commitment<G>],
        n: usize,
    ) -> Result<(), BulletproofError> {
        let (n_pad, m_pad) = padded_shape(n, commitments.len())?;
        bp_gens.check(n_pad, m_pad)?;
        let mut eq = Equation::<G>::new(n_pad, m_pad);
        self.add_to_equation(&mut eq, transcript, commitments, n, G::scalar_from_u64(1), &mut rand_core::OsRng)?;
        eq.check(bp_gens, pc_gens, tables, n_pad, m_pad)
    }

    /// The verification equation's scalar work alone (transcript replay and every scalar),
    /// without the MSM: for profiling (`examples/verify_profile.rs`).
    #[doc(hidden)]
    pub fn equation_only(&self, transcript: &mut Transcript, commitments: &[Commitment<G>], n: usize) -> Result<usize, BulletproofError> {
        let (n_pad, m_pad) = padded_shape(n, commitments.len())?;
        let mut eq = Equation::<G>::new(n_pad, m_pad);
        self.add_to_equation(&mut eq, transcript, commitments, n, G::scalar_from_u64(1), &mut rand_core::OsRng)?;
        Ok(eq.dynamic_scalars.len())
    }

    /// Replays the transcript and adds this proof's check, times `weight`, to `eq`.
    fn add_to_equation<R: RngCore + CryptoRng>(
        &self,
        eq: &mut Equation<G>,
        transcript: &mut Transcript,
        commitments: &[Commitment<G>],
        n: usize,
        weight: G::Scalar,
        rng: &mut R,
    ) -> Result<(), BulletproofError> {
        let m = commitments.len();
        let (n_pad, m_pad) = padded_shape(n, m)?;
        let big_n = n_pad * m_pad;
        rangeproof_domain_sep(transcript, n as u64, m_pad as u64);
        append_commitments(transcript, commitments, m_pad);
        validate_and_append_point::<G>(transcript, b"A", &self.a.point, &self.a.bytes)?;
        validate_and_append_point::<G>(transcript, b"S", &self.s.point, &self.s.bytes)?;
        let y = challenge_scalar::<G>(transcript, b"y");
        let z = challenge_scalar::<G>(transcript, b"z");
        let zz = z * z;
        validate_and_append_point::<G>(transcript, b"T_1", &self.t_1.point, &self.t_1.bytes)?;
        validate_and_append_point::<G>(transcript, b"T_2", &self.t_2.point, &self.t_2.bytes)?;
        let x = challenge_scalar::<G>(transcript, b"x");
        append_scalar::<G>(transcript, b"t_x", &self.t_x);
        append_scalar::<G>(transcript, b"t_x_blinding", &self.t_x_blinding);
        append_scalar::<G>(transcript, b"e_blinding", &self.e_blinding);
        let w = challenge_scalar::<G>(transcript, b"w");
        // c combines the t(x) check with the inner-product check
        let c = G::scalar_random(rng);
        let u = self.ipp.challenges(big_n, transcript)?;
        // one inversion for y and every u_k
        let mut inv = u.clone();
        inv.push(y);
        batch_invert::<G>(&mut inv).ok_or(BulletproofError::VerificationFailed)?;
        let y_inv = inv.pop().ok_or(BulletproofError::VerificationFailed)?;
        let (u_sq, u_inv_sq, s) = verification_scalars::<G>(&u, &inv);
        let a = self.ipp.a;
        let b = self.ipp.b;

        let z_pow = powers::<G>(&z, m_pad);
        // delta(y, z) = (z - z^2) sum_{real positions} y^p - z^3 (2^n - 1) sum_j z^j
        let mut y_n_pad = G::scalar_from_u64(1);
        for _ in 0..n_pad {
            y_n_pad *= y;
        }
        let mut block = G::Scalar::default();
        let mut y_p = G::scalar_from_u64(1);
        for _ in 0..n {
            block += y_p;
            y_p *= y;
        }
        let mut sum_y = G::Scalar::default();
        let mut y_j = G::scalar_from_u64(1);
        for _ in 0..m_pad {
            sum_y += block * y_j;
            y_j *= y_n_pad;
        }
        let sum_2 = G::scalar_from_u64(if n == 64 { u64::MAX } else { (1u64 << n) - 1 });
        let sum_z = z_pow.iter().fold(G::Scalar::default(), |acc, v| acc + *v);
        let delta = (z - zz) * sum_y - zz * z * sum_2 * sum_z;

        // static scalars: B, B_blinding, G (N'), H (N'), the weight folded into the
        // per-proof factors so each position costs the same as unweighted
        let st = &mut eq.static_scalars;
        st[0] += weight * (w * (self.t_x - a * b) + c * (delta - self.t_x));
        st[1] += weight * (-(self.e_blinding) - c * self.t_x_blinding);
        let (wz, wa, wb) = (weight * z, weight * a, weight * b);
        let mut y_inv_p = G::scalar_from_u64(1);
        for j in 0..m_pad {
            // weight z^2 z^j 2^i, doubled along the bits
            let mut zz2 = weight * zz * z_pow[j];
            for i in 0..n_pad {
                let p = j * n_pad + i;
                let s_p = s[p];
                let s_inv_p = s[big_n - 1 - p];
                if i < n {
                    st[2 + p] -= wz + wa * s_p;
                    st[2 + big_n + p] += wz + y_inv_p * (zz2 - wb * s_inv_p);
                    zz2 = zz2 + zz2;
                } else {
                    st[2 + p] -= wa * s_p;
                    st[2 + big_n + p] -= y_inv_p * wb * s_inv_p;
                }
                y_inv_p *= y_inv;
            }
        }
        // the proof's own points
        let ds = &mut eq.dynamic_scalars;
        let dp = &mut eq.dynamic_points;
        ds.push(weight);
        dp.push(self.a.point);
        ds.push(weight * x);
        dp.push(self.s.point);
        ds.push(weight * c * x);
        dp.push(self.t_1.point);
        ds.push(weight * c * x * x);
        dp.push(self.t_2.point);
        for k in 0..u_sq.len() {
            ds.push(weight * u_sq[k]);
            dp.push(self.ipp.l_vec[k].point);
            ds.push(weight * u_inv_sq[k]);
            dp.push(self.ipp.r_vec[k].point);
        }
        // V_j for the real values (the padding commitments are the identity)
        for (j, cmt) in commitments.iter().enumerate() {
            ds.push(weight * c * zz * z_pow[j]);
            dp.push(cmt.point);
        }
        Ok(())
    }

    /// The proof's bytes: A, S, T_1, T_2 (compressed), t_x, t_x_blinding, e_blinding (32 bytes
    /// little-endian each), then each round's L and R, then a and b. With Ristretto this is
    /// dalek's `RangeProof::to_bytes`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.serialized_size());
        for p in [&self.a, &self.s, &self.t_1, &self.t_2] {
            out.extend_from_slice(&p.bytes);
        }
        for s in [&self.t_x, &self.t_x_blinding, &self.e_blinding] {
            out.extend_from_slice(&G::scalar_to_bytes(s));
        }
        for (l, r) in self.ipp.l_vec.iter().zip(&self.ipp.r_vec) {
            out.extend_from_slice(&l.bytes);
            out.extend_from_slice(&r.bytes);
        }
        out.extend_from_slice(&G::scalar_to_bytes(&self.ipp.a));
        out.extend_from_slice(&G::scalar_to_bytes(&self.ipp.b));
        out
    }

    /// Bytes of [`RangeProof::to_bytes`]: (4 + 2 log2(n' m')) points and 5 scalars.
    pub fn serialized_size(&self) -> usize {
        (4 + 2 * self.ipp.rounds()) * G::POINT_BYTES + 5 * 32
    }

    /// Decodes [`RangeProof::to_bytes`], checking the length, that every scalar is canonical
    /// and that every point is a valid group element (identity points decode; verification
    /// rejects them where the protocol forbids them).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, BulletproofError> {
        let pb = G::POINT_BYTES;
        let wrong = BulletproofError::WrongLength { group: G::NAME, len: bytes.len() };
        let fixed = 4 * pb + 5 * 32;
        if bytes.len() < fixed || (bytes.len() - fixed) % (2 * pb) != 0 {
            return Err(wrong);
        }
        let rounds = (bytes.len() - fixed) / (2 * pb);
        if rounds > 12 {
            // more than 64 values of 64 bits
            return Err(wrong);
        }
        let mut off = 0;
        let point = |off: &mut usize| -> Result<Encoded<G>, BulletproofError> {
            let p = Encoded::<G>::from_bytes(&bytes[*off..*off + pb]).ok_or(BulletproofError::InvalidPoint { group: G::NAME, offset: *off })?;
            *off += pb;
            Ok(p)
        };
        let a = point(&mut off)?;
        let s = point(&mut off)?;
        let t_1 = point(&mut off)?;
        let t_2 = point(&mut off)?;
        let scalar = |off: &mut usize| -> Result<G::Scalar, BulletproofError> {
            let mut b = [0u8; 32];
            b.copy_from_slice(&bytes[*off..*off + 32]);
            let s = G::scalar_from_canonical(&b).ok_or(BulletproofError::NonCanonicalScalar { offset: *off })?;
            *off += 32;
            Ok(s)
        };
        let t_x = scalar(&mut off)?;
        let t_x_blinding = scalar(&mut off)?;
        let e_blinding = scalar(&mut off)?;
        let mut l_vec = Vec::with_capacity(rounds);
        let mut r_vec = Vec::with_capacity(rounds);
        for _ in 0..rounds {
            l_vec.push(point(&mut off)?);
            r_vec.push(point(&mut off)?);
        }
        let ia = scalar(&mut off)?;
        let ib = scalar(&mut off)?;
        Ok(Self { a, s, t_1, t_2, t_x, t_x_blinding, e_blinding, ipp: InnerProductProof { l_vec, r_vec, a: ia, b: ib } })
    }
}

/// The accumulated verification equation: scalars of the shape's generators (B,
/// B_blinding, G, H) and the proofs' own points.
pub(crate) struct Equation<G: BpGroup> {
    pub(crate) static_scalars: Vec<G::Scalar>,
    pub(crate) dynamic_scalars: Vec<G::Scalar>,
    pub(crate) dynamic_points: Vec<G::Point>,
}

impl<G: BpGroup> Equation<G> {
    pub(crate) fn new(n_pad: usize, m_pad: usize) -> Self {
        Self { static_scalars: vec![G::Scalar::default(); 2 + 2 * n_pad * m_pad], dynamic_scalars: Vec::new(), dynamic_points: Vec::new() }
    }

    /// Adds `eq` (of shape (n', m')) into this equation of the union shape (n_max, m_max):
    /// generator (party j, index i) keeps its place.
    pub(crate) fn absorb(&mut self, eq: Equation<G>, n_pad: usize, m_pad: usize, n_max: usize, m_max: usize) {
        self.static_scalars[0] += eq.static_scalars[0];
        self.static_scalars[1] += eq.static_scalars[1];
        let big = n_max * m_max;
        let small = n_pad * m_pad;
        for j in 0..m_pad {
            for i in 0..n_pad {
                let from = j * n_pad + i;
                let to = j * n_max + i;
                self.static_scalars[2 + to] += eq.static_scalars[2 + from];
                self.static_scalars[2 + big + to] += eq.static_scalars[2 + small + from];
            }
        }
        self.dynamic_scalars.extend_from_slice(&eq.dynamic_scalars);
        self.dynamic_points.extend_from_slice(&eq.dynamic_points);
    }

    /// Evaluates the equation of shape (n', m'): through the tables when they have this
    /// shape, else one MSM over generators and proof points together.
    pub(crate) fn check(
        self,
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        tables: Option<&GeneratorTables<G>>,
        n_pad: usize,
        m_pad: usize,
    ) -> Result<(), BulletproofError> {
        let result = match tables {
            Some(t) if t.n_pad == n_pad && t.m_pad == m_pad && G::prefer_tables(self.static_scalars.len(), self.dynamic_points.len()) => {
                G::msm_mixed_vartime(&t.tables, &self.static_scalars, &self.dynamic_scalars, &self.dynamic_points)
            }
            _ => {
                let mut points = vec![pc_gens.b, pc_gens.b_blinding];
                points.extend(bp_gens.g_in(n_pad, m_pad));
                points.extend(bp_gens.h_in(n_pad, m_pad));
                points.extend_from_slice(&self.dynamic_points);
                let mut scalars = self.static_scalars;
                scalars.extend_from_slice(&self.dynamic_scalars);
                G::msm_vartime(&scalars, &points)
            }
        };
        if G::is_identity(&result) {
            Ok(())
        } else {
            Err(BulletproofError::VerificationFailed)
        }
    }
}

/// One proof of a batch: the proof, its commitments, its bit size and the transcript in the
/// state the prover started from. `P` is the proof type: [`RangeProof`] (the default) or
/// [`crate::RangeProofPlus`] (see [`crate::BatchItemPlus`]).
pub struct BatchItem<'a, G: BpGroup, P = RangeProof<G>> {
    /// The proof.
    pub proof: &'a P,
    /// Its value commitments.
    pub commitments: &'a [Commitment<G>],
    /// Its bit size.
    pub n: usize,
    /// The transcript (consumed).
    pub transcript: Transcript,
}

/// Verifies many proofs (any mix of shapes) with one multi-scalar multiplication: each
/// proof's equation is weighted by a fresh random scalar and the generators' scalars are
/// summed. With `tables` (of the largest shape in the batch) the generators go through the
/// fixed-base tables. `Ok` only when every proof verifies; a failing batch says nothing about
/// which proof failed (verify them one by one to find it).
///
/// ```
/// use merlin::Transcript;
/// use zkforge_bulletproofs::{verify_batch, BatchItem, BpGroup, BulletproofGens, PedersenGens, RangeProof, Ristretto255};
/// let bp = BulletproofGens::<Ristretto255>::new(64, 1);
/// let pc = PedersenGens::default();
/// let r = Ristretto255::scalar_from_u64(9);
/// let (p1, v1) = RangeProof::prove_multiple(&bp, &pc, &mut Transcript::new(b"t"), &[7], &[r], 16).unwrap();
/// let (p2, v2) = RangeProof::prove_multiple(&bp, &pc, &mut Transcript::new(b"t"), &[8], &[r], 64).unwrap();
/// let mut items = [
///     BatchItem { proof: &p1, commitments: &v1, n: 16, transcript: Transcript::new(b"t") },
///     BatchItem { proof: &p2, commitments: &v2, n: 64, transcript: Transcript::new(b"t") },
/// ];
/// assert!(verify_batch(&bp, &pc, None, &mut items, &mut rand_core::OsRng).is_ok());
/// ```
pub fn verify_batch<G: BpGroup, R: RngCore + CryptoRng>(
    bp_gens: &BulletproofGens<G>,
    pc_gens: &PedersenGens<G>,
    tables: Option<&GeneratorTables<G>>,
    items: &mut [BatchItem<'_, G>],
    rng: &mut R,
) -> Result<(), BulletproofError> {
    batch_check(
        bp_gens,
        pc_gens,
        tables,
        items,
        |it| (it.n, it.commitments.len()),
        |it, eq, w, rng| it.proof.add_to_equation(eq, &mut it.transcript, it.commitments, it.n, w, rng),
        rng,
    )
}

/// One MSM for a batch of any proof system that writes its check into an [`Equation`]:
/// `shape` gives an item's (n, m), `add` adds its equation times the weight (1 for a batch of
/// one, else a fresh random scalar). The shapes' generators merge into the union shape.
pub(crate) fn batch_check<G: BpGroup, T, R: RngCore + CryptoRng>(
    bp_gens: &BulletproofGens<G>,
    pc_gens: &PedersenGens<G>,
    tables: Option<&GeneratorTables<G>>,
    items: &mut [T],
    shape: impl Fn(&T) -> (usize, usize),
    mut add: impl FnMut(&mut T, &mut Equation<G>, G::Scalar, &mut R) -> Result<(), BulletproofError>,
    rng: &mut R,
) -> Result<(), BulletproofError> {
    if items.is_empty() {
        return Ok(());
    }
    let mut n_max = 1;
    let mut m_max = 1;
    for it in items.iter() {
        let (n, m) = shape(it);
        let (n_pad, m_pad) = padded_shape(n, m)?;
        n_max = n_max.max(n_pad);
        m_max = m_max.max(m_pad);
    }
    bp_gens.check(n_max, m_max)?;
    let mut total = Equation::<G>::new(n_max, m_max);
    let single = items.len() == 1;
    for it in items.iter_mut() {
        let (n, m) = shape(it);
        let (n_pad, m_pad) = padded_shape(n, m)?;
        let weight = if single { G::scalar_from_u64(1) } else { G::scalar_random(rng) };
        let mut eq = Equation::<G>::new(n_pad, m_pad);
        add(it, &mut eq, weight, rng)?;
        total.absorb(eq, n_pad, m_pad, n_max, m_max);
    }
    total.check(bp_gens, pc_gens, tables, n_max, m_max)
}

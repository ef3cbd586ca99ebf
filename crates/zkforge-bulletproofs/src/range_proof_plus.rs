//! Bulletproofs+ aggregated range proofs (Chung, Han, Ju, Kim, Kim: "Bulletproofs+: Shorter
//! Proofs for a Privacy-Enhanced Distributed Ledger", ePrint 2020/735, section 4 and the
//! aggregated protocol of section 4.3): the weighted inner-product argument (WIP) over the
//! same groups, generators and fixed-base tables as [`crate::RangeProof`]. A proof is
//! A, A1, B (points), r1, s1, d1 (scalars) and log2(n' m') pairs (L, R): three points and two
//! scalars fewer than a Bulletproof (576 bytes for a 64-bit proof on Ristretto, against 672).
//!
//! Prover (n' m' = N positions, y-weighted inner product <a, b>_y = sum a_i y^(i+1) b_i):
//! - A = <a_L, G> + <a_R, H> + alpha B_blinding (a_L the bits, a_R = a_L - 1); challenges y, z;
//! - a^ = a_L - z 1, b^ = a_R + d o <-y + z 1 with d_(jn'+i) = z^(2(j+1)) 2^i and
//!   <-y_k = y^(N-k); alpha^ = alpha + y^(N+1) sum_j z^(2(j+1)) gamma_j;
//! - each round: L = c_L B + d_L B_blinding + <a_lo y^-n, G_hi> + <b_hi, H_lo>, R likewise,
//!   challenge e; G' = e^-1 G_lo + e y^-n G_hi, H' = e H_lo + e^-1 H_hi, a' = e a_lo + e^-1 y^n a_hi,
//!   b' = e^-1 b_lo + e b_hi, alpha^ += e^2 d_L + e^-2 d_R;
//! - last: A1 = r G' + s H' + y (r b + s a) B + d B_blinding, B = r y s B + eta B_blinding,
//!   challenge e; r1 = r + a e, s1 = s + b e, d1 = eta + d e + alpha^ e^2.
//!
//! Unlike a Bulletproof, the WIP vectors carry the value bits unmasked (zero knowledge comes
//! from d_L, d_R and the last round), so every round's L and R is a constant-time MSM here
//! (on BLS12-381 G1 with AVX-512 IFMA: eight complete-formula accumulators on the lanes,
//! `zkforge_msm::msm_ct`, switch [`crate::ProverConfig::ct_msm`]); Tari's
//! `tari_bulletproofs_plus` runs them variable time. The folded generators exist only after a
//! rebase ([`crate::ProverConfig::rebase_ratio`]; eight public sums at once on the lanes,
//! [`crate::ProverConfig::fold_msm`]): before it, as in [`crate::inner_product`], each original
//! generator carries a public coefficient.
//!
//! Verification is one MSM (the paper's batched check, as Tari writes it, times a weight):
//! for every position i, G_i gets r1 e y^-i s_i + e^2 z (real positions) and H_i gets
//! s1 e s_(N-1-i) - e^2 (d_i y^(N-i) + z); B gets r1 y s1 + e^2 (y^(N+1) z sum d + (z^2 - z)
//! sum_(real p) y^(p+1)); B_blinding d1; A1 -e; B -1; A -e^2; L_k -e^2 e_k^2; R_k -e^2 e_k^-2;
//! V_j -e^2 y^(N+1) z^(2(j+1)). Padding (bit sizes that are not powers of two, value counts
//! that are not) works as in [`crate::range_proof`]: zero entries in a^, b^ at padded bit
//! positions, identity commitments for padded values.
//!
//! Two transcripts and byte layouts ([`PlusFormat`]): this crate's, and Tari's
//! (`tari_bulletproofs_plus` 0.5: extension degrees 1 to 6, with or without minimum-value
//! promises), whose generators G, H are the same chains as dalek's and whose blinding bases
//! are [`crate::PedersenGens::tari`] and [`crate::ExtendedPedersenGens::tari`]; in Tari's
//! format proofs pass between the two crates in both directions (`tests/tari_interop.rs`).
//! With extension degree T every blinding-side term (alpha in A, d_L and d_R in each round,
//! d in A1, eta in B, and so d1) becomes T scalars over T bases.

use merlin::Transcript;
use rand_core::{CryptoRng, RngCore};
use subtle::{Choice, ConditionallySelectable};
use zeroize::Zeroize;

use crate::error::BulletproofError;
use crate::generators::{commit_extended, BulletproofGens, ExtendedPedersenGens, GeneratorTables, PedersenGens, MAX_EXTENSION_DEGREE};
use crate::group::BpGroup;
use crate::inner_product::{batch_invert, verification_scalars, Basis, Encoded};
use crate::range_proof::{BatchItem, ProverConfig, append_commitments, batch_check, check_prover_inputs, commit_values, padded_shape, powers, Commitment, Equation, SecretVec};
use crate::transcript::{append_point, challenge_scalar, validate_and_append_point};

/// A Bulletproofs+ range proof that each of m committed values is below 2^n.
#[derive(Clone, Debug, PartialEq)]
pub struct RangeProofPlus<G: BpGroup> {
    a: Encoded<G>,
    a1: Encoded<G>,
    b: Encoded<G>,
    r1: G::Scalar,
    s1: G::Scalar,
    d1: G::Scalar,
    /// d1 of the extra blinding bases (Tari's extension degree minus one; empty at degree 1).
    d1_extra: Vec<G::Scalar>,
    l_vec: Vec<Encoded<G>>,
    r_vec: Vec<Encoded<G>>,
}

/// Transcript and byte layout of a Bulletproofs+ proof. The protocol and its equations are
/// the same in both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlusFormat {
    /// This crate's: `dom-sep` "zkforge bulletproofs+ v1", n, m, the commitments as `V`, ...,
    /// the last challenge `e_final`; bytes A, A1, B, r1, s1, d1, (L, R)*.
    Zkforge,
    /// Tari's `tari_bulletproofs_plus` 0.5: `dom-sep` "Bulletproofs+ Range Proof", the bases
    /// `H` (value) and each blinding base as `G`, `N`, `T` (the extension degree), `M`, the
    /// commitments as `Ci`, each value's minimum-value promise (0 for none) as
    /// `vi - minimum_value`, ..., the last challenge `e`; bytes T, d1 (T scalars), A, A1, B,
    /// r1, s1, (L, R)*. With [`PedersenGens::tari`] (degree 1) or
    /// [`ExtendedPedersenGens::tari`] on Ristretto255 proofs pass between the two crates both
    /// ways.
    /// Tari takes power-of-two bit sizes and value counts only; so does this format.
    Tari,
}

/// Tari's transcript preamble (see [`PlusFormat::Tari`]).
fn tari_preamble<G: BpGroup>(t: &mut Transcript, pc_gens: &PedersenGens<G>, extra: &[G::Point], n: u64, commitments: &[Commitment<G>], minimums: &[u64]) -> Result<(), BulletproofError> {
    t.append_message(b"dom-sep", b"Bulletproofs+ Range Proof");
    validate_and_append_point::<G>(t, b"H", &pc_gens.b, &G::compress(&pc_gens.b))?;
    for g in core::iter::once(&pc_gens.b_blinding).chain(extra) {
        validate_and_append_point::<G>(t, b"G", g, &G::compress(g))?;
    }
    t.append_u64(b"N", n);
    t.append_u64(b"T", 1 + extra.len() as u64);
    t.append_u64(b"M", commitments.len() as u64);
    for c in commitments {
        append_point(t, b"Ci", &c.bytes);
    }
    for j in 0..commitments.len() {
        t.append_u64(b"vi - minimum_value", minimums.get(j).copied().unwrap_or(0));
    }
    Ok(())
}

/// This crate's format binds nonzero minimum-value promises after the commitments (all zero
/// is the statement without promises, and its transcript is that one's).
fn append_minimums(t: &mut Transcript, minimums: &[u64]) {
    if minimums.iter().any(|&v| v != 0) {
        for &v in minimums {
            t.append_u64(b"min", v);
        }
    }
}

/// The offsets v_j - min_j a proof with promises ranges over (`minimums` empty: no promises).
fn offsets(values: &[u64], minimums: &[u64]) -> Result<Vec<u64>, BulletproofError> {
    if minimums.is_empty() {
        return Ok(values.to_vec());
    }
    if minimums.len() != values.len() {
        return Err(BulletproofError::WrongNumMinimums { values: values.len(), minimums: minimums.len() });
    }
    values.iter().zip(minimums).enumerate().map(|(index, (v, m))| v.checked_sub(*m).ok_or(BulletproofError::BelowMinimum { index })).collect()
}

/// Tari's format takes promises below 2^n only (its verifier refuses the others).
fn tari_minimums(n: usize, minimums: &[u64]) -> Result<(), BulletproofError> {
    match minimums.iter().position(|&v| n < 64 && v >> n != 0) {
        Some(index) => Err(BulletproofError::MinimumTooLarge { index, bits: n }),
        None => Ok(()),
    }
}

/// Tari's format needs power-of-two shapes.
fn tari_shape(n: usize, m: usize) -> Result<(), BulletproofError> {
    if !n.is_power_of_two() {
        return Err(BulletproofError::InvalidBitsize(n));
    }
    if !m.is_power_of_two() {
        return Err(BulletproofError::InvalidAggregation(m));
    }
    Ok(())
}

fn domain_sep(t: &mut Transcript, n: u64, m: u64) {
    t.append_message(b"dom-sep", b"zkforge bulletproofs+ v1");
    t.append_u64(b"n", n);
    t.append_u64(b"m", m);
}

/// The label of the last challenge.
fn final_label(format: PlusFormat) -> &'static [u8] {
    match format {
        PlusFormat::Zkforge => b"e_final",
        PlusFormat::Tari => b"e",
    }
}

/// Zeroizes a scalar on drop.
struct Secret<S: Zeroize>(S);

impl<S: Zeroize> Drop for Secret<S> {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl<G: BpGroup> RangeProofPlus<G> {
    /// Proves that every value is below 2^n (1 <= n <= 64, 1 to 64 values) and returns the
    /// proof and the value commitments.
    ///
    /// ```
    /// use merlin::Transcript;
    /// use zkforge_bulletproofs::{BpGroup, BulletproofGens, PedersenGens, RangeProofPlus, Ristretto255};
    /// let bp = BulletproofGens::<Ristretto255>::new(64, 2);
    /// let pc = PedersenGens::default();
    /// let r = [Ristretto255::scalar_from_u64(5), Ristretto255::scalar_from_u64(6)];
    /// let (proof, v) = RangeProofPlus::prove(&bp, &pc, &mut Transcript::new(b"doc"), &[7, 1 << 40], &r, 64, &mut rand_core::OsRng).unwrap();
    /// assert_eq!(proof.to_bytes().len(), 640);
    /// assert!(proof.verify(&bp, &pc, &mut Transcript::new(b"doc"), &v, 64).is_ok());
    /// ```
    pub fn prove<R: RngCore + CryptoRng>(
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        transcript: &mut Transcript,
        values: &[u64],
        blindings: &[G::Scalar],
        n: usize,
        rng: &mut R,
    ) -> Result<(Self, Vec<Commitment<G>>), BulletproofError> {
        Self::prove_with(bp_gens, pc_gens, &ProverConfig::BULLETPROOFS_PLUS, transcript, values, blindings, n, rng)
    }

    /// [`RangeProofPlus::prove`] with the prover's knob ([`ProverConfig`]; `prove` uses
    /// [`ProverConfig::BULLETPROOFS_PLUS`]); every value gives the same proof from the same
    /// random draws.
    #[allow(clippy::too_many_arguments)]
    pub fn prove_with<R: RngCore + CryptoRng>(
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        config: &ProverConfig,
        transcript: &mut Transcript,
        values: &[u64],
        blindings: &[G::Scalar],
        n: usize,
        rng: &mut R,
    ) -> Result<(Self, Vec<Commitment<G>>), BulletproofError> {
        Self::prove_in(PlusFormat::Zkforge, bp_gens, pc_gens, config, transcript, values, blindings, n, rng)
    }

    /// A proof in `format`'s transcript (serialise it with [`RangeProofPlus::to_bytes_in`]).
    ///
    /// ```
    /// use merlin::Transcript;
    /// use zkforge_bulletproofs::{BpGroup, BulletproofGens, PedersenGens, PlusFormat, ProverConfig, RangeProofPlus, Ristretto255};
    /// let bp = BulletproofGens::<Ristretto255>::new(64, 1);
    /// let pc = PedersenGens::tari();
    /// let r = Ristretto255::scalar_from_u64(5);
    /// let f = PlusFormat::Tari;
    /// let (p, v) = RangeProofPlus::prove_in(f, &bp, &pc, &ProverConfig::BULLETPROOFS_PLUS, &mut Transcript::new(b"t"), &[7], &[r], 64, &mut rand_core::OsRng).unwrap();
    /// let bytes = p.to_bytes_in(f);
    /// assert_eq!(bytes.len(), 577);
    /// let q = RangeProofPlus::<Ristretto255>::from_bytes_in(f, &bytes).unwrap();
    /// assert!(q.verify_in(f, &bp, &pc, &mut Transcript::new(b"t"), &v, 64).is_ok());
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn prove_in<R: RngCore + CryptoRng>(
        format: PlusFormat,
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        config: &ProverConfig,
        transcript: &mut Transcript,
        values: &[u64],
        blindings: &[G::Scalar],
        n: usize,
        rng: &mut R,
    ) -> Result<(Self, Vec<Commitment<G>>), BulletproofError> {
        Self::prove_promise(format, bp_gens, pc_gens, config, transcript, values, &[], blindings, n, rng)
    }

    /// A proof with minimum-value promises (Tari's `minimum_value_promises`): that
    /// min_j <= v_j < min_j + 2^n for every value, the commitments still to v_j. `minimums`
    /// is empty (no promises) or one per value; promises go into the transcript (Tari's
    /// `vi - minimum_value`, in this crate's format `min` after the commitments when any is
    /// nonzero), and the verifier takes the same list ([`RangeProofPlus::verify_promise`]).
    /// Tari's format also needs each promise below 2^n, as Tari's verifier does
    /// ([`BulletproofError::MinimumTooLarge`]); this crate's takes any. (Tari's own prover
    /// further refuses values of 2^n and above; its verifier does not, nor does ours.)
    ///
    /// ```
    /// use merlin::Transcript;
    /// use zkforge_bulletproofs::{BpGroup, BulletproofGens, PedersenGens, PlusFormat, ProverConfig, RangeProofPlus, Ristretto255};
    /// let bp = BulletproofGens::<Ristretto255>::new(32, 1);
    /// let pc = PedersenGens::tari();
    /// let (f, r) = (PlusFormat::Tari, [Ristretto255::scalar_from_u64(5)]);
    /// // 1000 <= 1234 < 1000 + 2^32
    /// let (p, v) = RangeProofPlus::prove_promise(f, &bp, &pc, &ProverConfig::BULLETPROOFS_PLUS, &mut Transcript::new(b"t"), &[1234], &[1000], &r, 32, &mut rand_core::OsRng).unwrap();
    /// assert!(p.verify_promise(f, &bp, &pc, None, &mut Transcript::new(b"t"), &v, &[1000], 32).is_ok());
    /// assert!(p.verify_promise(f, &bp, &pc, None, &mut Transcript::new(b"t"), &v, &[1001], 32).is_err());
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn prove_promise<R: RngCore + CryptoRng>(
        format: PlusFormat,
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        config: &ProverConfig,
        transcript: &mut Transcript,
        values: &[u64],
        minimums: &[u64],
        blindings: &[G::Scalar],
        n: usize,
        rng: &mut R,
    ) -> Result<(Self, Vec<Commitment<G>>), BulletproofError> {
        Self::prove_core(format, bp_gens, pc_gens, &[], config, transcript, values, minimums, blindings, n, rng)
    }

    /// A proof over Tari's extended commitments (extension degree T = 1 + the extra bases:
    /// C_j = v_j B + sum_k gamma_(j,k) B_blinding_k), in Tari's format, with optional
    /// minimum-value promises as in [`RangeProofPlus::prove_promise`]. `blindings[j]` holds
    /// value j's T blinding factors. With [`ExtendedPedersenGens::tari`] on Ristretto255 the
    /// proofs pass between this crate and `tari_bulletproofs_plus` both ways.
    ///
    /// ```
    /// use merlin::Transcript;
    /// use zkforge_bulletproofs::{BpGroup, BulletproofGens, ExtendedPedersenGens, ProverConfig, RangeProofPlus, Ristretto255};
    /// let bp = BulletproofGens::<Ristretto255>::new(64, 1);
    /// let epc = ExtendedPedersenGens::tari(3).unwrap();
    /// let r: Vec<_> = (1..=3).map(Ristretto255::scalar_from_u64).collect();
    /// let (p, v) = RangeProofPlus::prove_extended(&bp, &epc, &ProverConfig::BULLETPROOFS_PLUS, &mut Transcript::new(b"t"), &[42], &[], &[r], 64, &mut rand_core::OsRng).unwrap();
    /// assert_eq!(p.extension_degree(), 3);
    /// assert!(p.verify_extended(&bp, &epc, &mut Transcript::new(b"t"), &v, &[], 64).is_ok());
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn prove_extended<R: RngCore + CryptoRng>(
        bp_gens: &BulletproofGens<G>,
        epc: &ExtendedPedersenGens<G>,
        config: &ProverConfig,
        transcript: &mut Transcript,
        values: &[u64],
        minimums: &[u64],
        blindings: &[Vec<G::Scalar>],
        n: usize,
        rng: &mut R,
    ) -> Result<(Self, Vec<Commitment<G>>), BulletproofError> {
        let t = epc.degree();
        let mut flat = SecretVec(Vec::with_capacity(blindings.len() * t));
        for (index, b) in blindings.iter().enumerate() {
            if b.len() != t {
                return Err(BulletproofError::WrongExtensionDegree { index, expected: t, got: b.len() });
            }
            flat.0.extend_from_slice(b);
        }
        if blindings.len() != values.len() {
            return Err(BulletproofError::WrongNumBlindingFactors { values: values.len(), blindings: blindings.len() });
        }
        Self::prove_core(PlusFormat::Tari, bp_gens, &epc.pc, &epc.extra_blinding, config, transcript, values, minimums, &flat.0, n, rng)
    }

    /// The prover: `extra` the blinding bases beyond B_blinding (Tari's format only when
    /// nonempty), `blindings` value-major with 1 + extra.len() per value.
    #[allow(clippy::too_many_arguments)]
    fn prove_core<R: RngCore + CryptoRng>(
        format: PlusFormat,
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        extra: &[G::Point],
        config: &ProverConfig,
        transcript: &mut Transcript,
        values: &[u64],
        minimums: &[u64],
        blindings: &[G::Scalar],
        n: usize,
        rng: &mut R,
    ) -> Result<(Self, Vec<Commitment<G>>), BulletproofError> {
        let m = values.len();
        let t_deg = 1 + extra.len();
        if t_deg > 1 && format != PlusFormat::Tari {
            return Err(BulletproofError::ExtensionNeedsTariFormat);
        }
        let offs = offsets(values, minimums)?;
        // T blinding factors per value (prove_extended checked each value's count)
        let (n_pad, m_pad) = check_prover_inputs(bp_gens, &offs, blindings.len() / t_deg, n)?;
        let blind_bases: Vec<G::Point> = core::iter::once(pc_gens.b_blinding).chain(extra.iter().copied()).collect();
        let big_n = n_pad * m_pad;
        let g = bp_gens.g_in(n_pad, m_pad);
        let h = bp_gens.h_in(n_pad, m_pad);
        let zero = G::Scalar::default();
        let one = G::scalar_from_u64(1);

        let mut commitments = match format {
            PlusFormat::Zkforge => {
                domain_sep(transcript, n as u64, m_pad as u64);
                let c = commit_values(pc_gens, transcript, values, blindings, m_pad);
                append_minimums(transcript, minimums);
                c
            }
            PlusFormat::Tari => {
                tari_shape(n, m)?;
                tari_minimums(n, minimums)?;
                let c: Vec<_> = (0..m).map(|j| Encoded::<G>::new(commit_extended(pc_gens, extra, G::scalar_from_u64(values[j]), &blindings[j * t_deg..(j + 1) * t_deg]))).collect();
                tari_preamble(transcript, pc_gens, extra, n as u64, &c, minimums)?;
                c
            }
        };

        // A = <a_L, G> + <a_R, H> + alpha B_blinding: per bit G_i or -H_i, selected in constant time
        let alpha = SecretVec((0..t_deg).map(|_| G::scalar_random(rng)).collect());
        let mut a_terms = Vec::with_capacity(big_n + 1);
        a_terms.push(G::msm_ct_with(&alpha.0, &blind_bases, config.ct_msm));
        // the bits are those of v_j - min_j: C_j - min_j B commits to them
        let value = |j: usize| if j < m { offs[j] } else { 0 };
        for j in 0..m_pad {
            let v = value(j);
            for i in 0..n {
                let bit = Choice::from(((v >> i) & 1) as u8);
                a_terms.push(G::select(&G::neg(&h[j * n_pad + i]), &g[j * n_pad + i], bit));
            }
        }
        let a_point = Encoded::<G>::new(G::sum_ct(&a_terms));
        validate_and_append_point::<G>(transcript, b"A", &a_point.point, &a_point.bytes).map_err(|_| BulletproofError::VerificationFailed)?;
        let y = challenge_scalar::<G>(transcript, b"y");
        let z = challenge_scalar::<G>(transcript, b"z");
        let zz = z * z;

        // a^ = a_L - z, b^ = a_R + d y^(N-p) + z at real positions; zero at padding
        let y_pow = powers::<G>(&y, big_n + 2);
        let mut a_hat = SecretVec(vec![zero; big_n]);
        let mut b_hat = SecretVec(vec![zero; big_n]);
        let mut alpha_hat = SecretVec(alpha.0.clone());
        let mut z2j = one;
        for j in 0..m_pad {
            z2j *= zz;
            let v = value(j);
            let mut d = z2j;
            for i in 0..n {
                let p = j * n_pad + i;
                let a_l = G::Scalar::conditional_select(&zero, &one, Choice::from(((v >> i) & 1) as u8));
                a_hat.0[p] = a_l - z;
                b_hat.0[p] = a_l - one + d * y_pow[big_n - p] + z;
                d = d + d;
            }
            if j < m {
                for (k, ah) in alpha_hat.0.iter_mut().enumerate() {
                    *ah += z2j * y_pow[big_n + 1] * blindings[j * t_deg + k];
                }
            }
        }

        // WIP rounds over a basis of points with public coefficients: the folded G'_t is
        // sum over i = t (mod len) of cg_i gb_i (first the original generators; after a
        // rebase, the folded generators themselves)
        let one_vec = vec![one; big_n];
        let mut basis = Basis::<G>::new(&g, &h, one_vec.clone(), one_vec);
        let mut l_vec = Vec::new();
        let mut r_vec = Vec::new();
        // L and R each take B, B_blinding and one half of G and of H; which half depends on the
        // position only (public), so the term lists are built without the zero terms
        let mut lp = Vec::with_capacity(big_n + 2);
        let mut rp = Vec::with_capacity(big_n + 2);
        let mut sl = SecretVec(Vec::with_capacity(big_n + 2));
        let mut sr = SecretVec(Vec::with_capacity(big_n + 2));
        let mut len = big_n;
        while len > 1 {
            basis.maybe_rebase(config.rebase_ratio, len, config.fold_msm);
            let base = basis.len();
            let half = len / 2;
            let y_half = y_pow[half];
            let y_half_inv = G::scalar_invert(&y_half).ok_or(BulletproofError::VerificationFailed)?;
            let d_l = SecretVec((0..t_deg).map(|_| G::scalar_random(rng)).collect());
            let d_r = SecretVec((0..t_deg).map(|_| G::scalar_random(rng)).collect());
            let mut c_l = zero;
            let mut c_r = zero;
            for t in 0..half {
                c_l += a_hat.0[t] * y_pow[t + 1] * b_hat.0[half + t];
                c_r += a_hat.0[half + t] * y_pow[half + t + 1] * b_hat.0[t];
            }
            lp.clear();
            rp.clear();
            sl.0.iter_mut().for_each(Zeroize::zeroize);
            sr.0.iter_mut().for_each(Zeroize::zeroize);
            sl.0.clear();
            sr.0.clear();
            lp.push(pc_gens.b);
            rp.push(pc_gens.b);
            lp.extend_from_slice(&blind_bases);
            rp.extend_from_slice(&blind_bases);
            sl.0.push(c_l);
            sr.0.push(c_r);
            sl.0.extend_from_slice(&d_l.0);
            sr.0.extend_from_slice(&d_r.0);
            for i in 0..base {
                let t = i % len;
                if t < half {
                    // basis point i in G_lo (R), H_lo (L)
                    rp.push(basis.g[i]);
                    sr.0.push(a_hat.0[half + t] * y_half * basis.cg[i]);
                    lp.push(basis.h[i]);
                    sl.0.push(b_hat.0[half + t] * basis.ch[i]);
                } else {
                    lp.push(basis.g[i]);
                    sl.0.push(a_hat.0[t - half] * y_half_inv * basis.cg[i]);
                    rp.push(basis.h[i]);
                    sr.0.push(b_hat.0[t - half] * basis.ch[i]);
                }
            }
            let l = Encoded::<G>::new(G::msm_ct_with(&sl.0, &lp, config.ct_msm));
            let r = Encoded::<G>::new(G::msm_ct_with(&sr.0, &rp, config.ct_msm));
            append_point(transcript, b"L", &l.bytes);
            append_point(transcript, b"R", &r.bytes);
            l_vec.push(l);
            r_vec.push(r);
            let e = challenge_scalar::<G>(transcript, b"e");
            let e_inv = G::scalar_invert(&e).unwrap_or_default();
            for t in 0..half {
                a_hat.0[t] = a_hat.0[t] * e + a_hat.0[half + t] * y_half * e_inv;
                b_hat.0[t] = b_hat.0[t] * e_inv + b_hat.0[half + t] * e;
            }
            basis.fold(len, e_inv, e * y_half_inv, e, e_inv);
            for k in 0..t_deg {
                alpha_hat.0[k] += d_l.0[k] * e * e + d_r.0[k] * e_inv * e_inv;
            }
            len = half;
        }
        sl.0.iter_mut().for_each(Zeroize::zeroize);
        sr.0.iter_mut().for_each(Zeroize::zeroize);

        // the last round over the folded G', H' (public combinations of the generators)
        let (g_fold, h_fold) = basis.folded(config.fold_msm);
        let (a0, b0) = (a_hat.0[0], b_hat.0[0]);
        let r = Secret(G::scalar_random(rng));
        let s = Secret(G::scalar_random(rng));
        let d = SecretVec((0..t_deg).map(|_| G::scalar_random(rng)).collect());
        let eta = SecretVec((0..t_deg).map(|_| G::scalar_random(rng)).collect());
        let y1 = y_pow[1];
        let mut a1_s = SecretVec(vec![r.0, s.0, y1 * (r.0 * b0 + s.0 * a0)]);
        a1_s.0.extend_from_slice(&d.0);
        let mut a1_p = vec![g_fold, h_fold, pc_gens.b];
        a1_p.extend_from_slice(&blind_bases);
        let a1 = Encoded::<G>::new(G::msm_ct_with(&a1_s.0, &a1_p, config.ct_msm));
        let mut b_s = SecretVec(vec![r.0 * y1 * s.0]);
        b_s.0.extend_from_slice(&eta.0);
        let b_pt = Encoded::<G>::new(G::msm_ct_with(&b_s.0, &a1_p[2..], config.ct_msm));
        append_point(transcript, b"A1", &a1.bytes);
        append_point(transcript, b"B", &b_pt.bytes);
        let e = challenge_scalar::<G>(transcript, final_label(format));
        let r1 = r.0 + a0 * e;
        let s1 = s.0 + b0 * e;
        let mut d1s: Vec<G::Scalar> = (0..t_deg).map(|k| eta.0[k] + d.0[k] * e + alpha_hat.0[k] * e * e).collect();
        let d1 = d1s.remove(0);
        commitments.truncate(m);
        Ok((Self { a: a_point, a1, b: b_pt, r1, s1, d1, d1_extra: d1s, l_vec, r_vec }, commitments))
    }

    /// Verifies the proof for the given commitments (one variable-time MSM).
    pub fn verify(
        &self,
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        transcript: &mut Transcript,
        commitments: &[Commitment<G>],
        n: usize,
    ) -> Result<(), BulletproofError> {
        self.verify_with(bp_gens, pc_gens, None, transcript, commitments, n)
    }

    /// Verifies with optional generator tables of this proof's shape.
    pub fn verify_with(
        &self,
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        tables: Option<&GeneratorTables<G>>,
        transcript: &mut Transcript,
        commitments: &[Commitment<G>],
        n: usize,
    ) -> Result<(), BulletproofError> {
        self.verify_format(PlusFormat::Zkforge, bp_gens, pc_gens, tables, transcript, commitments, n)
    }

    /// Verifies a proof made in `format`'s transcript.
    pub fn verify_in(
        &self,
        format: PlusFormat,
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        transcript: &mut Transcript,
        commitments: &[Commitment<G>],
        n: usize,
    ) -> Result<(), BulletproofError> {
        self.verify_format(format, bp_gens, pc_gens, None, transcript, commitments, n)
    }

    #[allow(clippy::too_many_arguments)]
    fn verify_format(
        &self,
        format: PlusFormat,
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        tables: Option<&GeneratorTables<G>>,
        transcript: &mut Transcript,
        commitments: &[Commitment<G>],
        n: usize,
    ) -> Result<(), BulletproofError> {
        self.verify_core(format, bp_gens, pc_gens, &[], tables, transcript, commitments, &[], n)
    }

    /// The one verification path: the equation of this proof (extra blinding bases and
    /// promises as given, both empty for a plain proof), checked by one MSM.
    #[allow(clippy::too_many_arguments)]
    fn verify_core(
        &self,
        format: PlusFormat,
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        extra: &[G::Point],
        tables: Option<&GeneratorTables<G>>,
        transcript: &mut Transcript,
        commitments: &[Commitment<G>],
        minimums: &[u64],
        n: usize,
    ) -> Result<(), BulletproofError> {
        let (n_pad, m_pad) = padded_shape(n, commitments.len())?;
        bp_gens.check(n_pad, m_pad)?;
        let mut eq = Equation::<G>::new(n_pad, m_pad);
        self.add_to_equation(format, pc_gens, extra, &mut eq, transcript, commitments, minimums, n, G::scalar_from_u64(1))?;
        eq.check(bp_gens, pc_gens, tables, n_pad, m_pad)
    }

    /// Verifies a proof over extended commitments (see [`RangeProofPlus::prove_extended`]):
    /// the proof's extension degree must be the bases'.
    #[allow(clippy::too_many_arguments)]
    pub fn verify_extended(
        &self,
        bp_gens: &BulletproofGens<G>,
        epc: &ExtendedPedersenGens<G>,
        transcript: &mut Transcript,
        commitments: &[Commitment<G>],
        minimums: &[u64],
        n: usize,
    ) -> Result<(), BulletproofError> {
        self.verify_extended_with(bp_gens, epc, None, transcript, commitments, minimums, n)
    }

    /// [`RangeProofPlus::verify_extended`] with optional fixed-base tables, built by
    /// [`GeneratorTables::new`] from `bp_gens` and `epc.pc` for this proof's shape (the extra
    /// blinding bases stay in the variable-base part of the one MSM). Tables of another
    /// shape are ignored; tables of other generators make every proof fail.
    ///
    /// ```
    /// use zkforge_bulletproofs::{BulletproofGens, ExtendedPedersenGens, GeneratorTables, ProverConfig, RangeProofPlus, Ristretto255, BpGroup, Transcript};
    /// let bp = BulletproofGens::<Ristretto255>::new(64, 1);
    /// let epc = ExtendedPedersenGens::<Ristretto255>::tari(2).unwrap();
    /// let tables = GeneratorTables::new(&bp, &epc.pc, 64, 1).unwrap();
    /// let mut rng = rand_core::OsRng;
    /// let blind = vec![vec![Ristretto255::scalar_random(&mut rng), Ristretto255::scalar_random(&mut rng)]];
    /// let (proof, cs) = RangeProofPlus::prove_extended(&bp, &epc, &ProverConfig::BULLETPROOFS_PLUS, &mut Transcript::new(b"doc"), &[1000], &[500], &blind, 64, &mut rng).unwrap();
    /// proof.verify_extended_with(&bp, &epc, Some(&tables), &mut Transcript::new(b"doc"), &cs, &[500], 64).unwrap();
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn verify_extended_with(
        &self,
        bp_gens: &BulletproofGens<G>,
        epc: &ExtendedPedersenGens<G>,
        tables: Option<&GeneratorTables<G>>,
        transcript: &mut Transcript,
        commitments: &[Commitment<G>],
        minimums: &[u64],
        n: usize,
    ) -> Result<(), BulletproofError> {
        self.verify_core(PlusFormat::Tari, bp_gens, &epc.pc, &epc.extra_blinding, tables, transcript, commitments, minimums, n)
    }

    /// Tari's extension degree: the number of blinding factors per commitment (1 unless the
    /// proof was made by [`RangeProofPlus::prove_extended`] or decoded from Tari's bytes).
    pub fn extension_degree(&self) -> usize {
        1 + self.d1_extra.len()
    }

    /// Verifies a proof with minimum-value promises (see [`RangeProofPlus::prove_promise`]):
    /// `minimums` empty or one per commitment, as the prover gave them.
    #[allow(clippy::too_many_arguments)]
    pub fn verify_promise(
        &self,
        format: PlusFormat,
        bp_gens: &BulletproofGens<G>,
        pc_gens: &PedersenGens<G>,
        tables: Option<&GeneratorTables<G>>,
        transcript: &mut Transcript,
        commitments: &[Commitment<G>],
        minimums: &[u64],
        n: usize,
    ) -> Result<(), BulletproofError> {
        self.verify_core(format, bp_gens, pc_gens, &[], tables, transcript, commitments, minimums, n)
    }

    #[allow(clippy::too_many_arguments)]
    fn add_to_equation(
        &self,
        format: PlusFormat,
        pc_gens: &PedersenGens<G>,
        extra: &[G::Point],
        eq: &mut Equation<G>,
        transcript: &mut Transcript,
        commitments: &[Commitment<G>],
        minimums: &[u64],
        n: usize,
        w: G::Scalar,
    ) -> Result<(), BulletproofError> {
        let m = commitments.len();
        if !minimums.is_empty() && minimums.len() != m {
            return Err(BulletproofError::WrongNumMinimums { values: m, minimums: minimums.len() });
        }
        // a proof's extension degree is the bases'
        if self.d1_extra.len() != extra.len() {
            return Err(BulletproofError::VerificationFailed);
        }
        let (n_pad, m_pad) = padded_shape(n, m)?;
        let big_n = n_pad * m_pad;
        if self.l_vec.len() != self.r_vec.len() || self.l_vec.len() >= 32 || big_n != 1 << self.l_vec.len() {
            return Err(BulletproofError::VerificationFailed);
        }
        match format {
            PlusFormat::Zkforge => {
                domain_sep(transcript, n as u64, m_pad as u64);
                append_commitments(transcript, commitments, m_pad);
                append_minimums(transcript, minimums);
            }
            PlusFormat::Tari => {
                tari_shape(n, m).map_err(|_| BulletproofError::VerificationFailed)?;
                tari_minimums(n, minimums).map_err(|_| BulletproofError::VerificationFailed)?;
                tari_preamble(transcript, pc_gens, extra, n as u64, commitments, minimums)?;
            }
        }
        validate_and_append_point::<G>(transcript, b"A", &self.a.point, &self.a.bytes)?;
        let y = challenge_scalar::<G>(transcript, b"y");
        let z = challenge_scalar::<G>(transcript, b"z");
        let mut es = Vec::with_capacity(self.l_vec.len());
        for (l, r) in self.l_vec.iter().zip(&self.r_vec) {
            validate_and_append_point::<G>(transcript, b"L", &l.point, &l.bytes)?;
            validate_and_append_point::<G>(transcript, b"R", &r.point, &r.bytes)?;
            es.push(challenge_scalar::<G>(transcript, b"e"));
        }
        validate_and_append_point::<G>(transcript, b"A1", &self.a1.point, &self.a1.bytes)?;
        validate_and_append_point::<G>(transcript, b"B", &self.b.point, &self.b.bytes)?;
        let e = challenge_scalar::<G>(transcript, final_label(format));

        let mut inv = es.clone();
        inv.push(y);
        batch_invert::<G>(&mut inv).ok_or(BulletproofError::VerificationFailed)?;
        let y_inv = inv.pop().ok_or(BulletproofError::VerificationFailed)?;
        let (e_sq, e_inv_sq, s) = verification_scalars::<G>(&es, &inv);

        let zz = z * z;
        let ee = e * e;
        let y_pow = powers::<G>(&y, big_n + 2);
        // sum over real positions of y^(p+1), and sum d = (2^n - 1) sum_j z^(2(j+1))
        let mut y_sum = G::Scalar::default();
        let mut z2j_sum = G::Scalar::default();
        let mut z2j = G::scalar_from_u64(1);
        for j in 0..m_pad {
            z2j *= zz;
            z2j_sum += z2j;
            for i in 0..n {
                y_sum += y_pow[j * n_pad + i + 1];
            }
        }
        let d_sum = G::scalar_from_u64(if n == 64 { u64::MAX } else { (1u64 << n) - 1 }) * z2j_sum;

        let st = &mut eq.static_scalars;
        st[0] += w * (self.r1 * y * self.s1 + ee * (y_pow[big_n + 1] * z * d_sum + (zz - z) * y_sum));
        st[1] += w * self.d1;
        let (w_r1_e, w_s1_e, w_ee, w_ee_z) = (w * self.r1 * e, w * self.s1 * e, w * ee, w * ee * z);
        let mut r1_y_inv = w_r1_e;
        let mut z2j = G::scalar_from_u64(1);
        for j in 0..m_pad {
            z2j *= zz;
            // w e^2 d_p y^(N-p), d_p = z^(2(j+1)) 2^i
            let mut d_y = w_ee * z2j * y_pow[big_n - j * n_pad];
            let two_y_inv = G::scalar_from_u64(2) * y_inv;
            for i in 0..n_pad {
                let p = j * n_pad + i;
                if i < n {
                    st[2 + p] += r1_y_inv * s[p] + w_ee_z;
                    st[2 + big_n + p] += w_s1_e * s[big_n - 1 - p] - d_y - w_ee_z;
                    d_y *= two_y_inv;
                } else {
                    st[2 + p] += r1_y_inv * s[p];
                    st[2 + big_n + p] += w_s1_e * s[big_n - 1 - p];
                }
                r1_y_inv *= y_inv;
            }
        }
        let ds = &mut eq.dynamic_scalars;
        let dp = &mut eq.dynamic_points;
        for (d1, g) in self.d1_extra.iter().zip(extra) {
            ds.push(w * *d1);
            dp.push(*g);
        }
        ds.push(-(w * e));
        dp.push(self.a1.point);
        ds.push(-w);
        dp.push(self.b.point);
        ds.push(-w_ee);
        dp.push(self.a.point);
        for k in 0..e_sq.len() {
            ds.push(-(w_ee * e_sq[k]));
            dp.push(self.l_vec[k].point);
            ds.push(-(w_ee * e_inv_sq[k]));
            dp.push(self.r_vec[k].point);
        }
        let v_base = -(w_ee * y_pow[big_n + 1]);
        let mut z2j = G::scalar_from_u64(1);
        for (j, c) in commitments.iter().enumerate() {
            z2j *= zz;
            ds.push(v_base * z2j);
            dp.push(c.point);
            // a promise replaces C_j by C_j - min_j B
            if let Some(&min) = minimums.get(j).filter(|&&v| v != 0) {
                eq.static_scalars[0] -= v_base * z2j * G::scalar_from_u64(min);
            }
        }
        Ok(())
    }

    /// The proof's bytes: A, A1, B (compressed), r1, s1, d1 (32 bytes little-endian each),
    /// then each round's L and R. A proof of extension degree above 1 exists only in Tari's
    /// format, and its `to_bytes` is Tari's layout (which begins with the degree).
    pub fn to_bytes(&self) -> Vec<u8> {
        if !self.d1_extra.is_empty() {
            return self.to_bytes_in(PlusFormat::Tari);
        }
        let mut out = Vec::with_capacity((3 + 2 * self.l_vec.len()) * G::POINT_BYTES + 96);
        for p in [&self.a, &self.a1, &self.b] {
            out.extend_from_slice(&p.bytes);
        }
        for s in [&self.r1, &self.s1, &self.d1] {
            out.extend_from_slice(&G::scalar_to_bytes(s));
        }
        for (l, r) in self.l_vec.iter().zip(&self.r_vec) {
            out.extend_from_slice(&l.bytes);
            out.extend_from_slice(&r.bytes);
        }
        out
    }

    /// The proof's bytes in `format`'s layout.
    pub fn to_bytes_in(&self, format: PlusFormat) -> Vec<u8> {
        match format {
            PlusFormat::Zkforge => self.to_bytes(),
            PlusFormat::Tari => {
                let mut out = Vec::with_capacity(1 + (3 + 2 * self.l_vec.len()) * G::POINT_BYTES + 64 + 32 * self.extension_degree());
                out.push(self.extension_degree() as u8);
                for d1 in core::iter::once(&self.d1).chain(&self.d1_extra) {
                    out.extend_from_slice(&G::scalar_to_bytes(d1));
                }
                for p in [&self.a, &self.a1, &self.b] {
                    out.extend_from_slice(&p.bytes);
                }
                out.extend_from_slice(&G::scalar_to_bytes(&self.r1));
                out.extend_from_slice(&G::scalar_to_bytes(&self.s1));
                for (l, r) in self.l_vec.iter().zip(&self.r_vec) {
                    out.extend_from_slice(&l.bytes);
                    out.extend_from_slice(&r.bytes);
                }
                out
            }
        }
    }

    /// Decodes `format`'s layout with every check.
    pub fn from_bytes_in(format: PlusFormat, bytes: &[u8]) -> Result<Self, BulletproofError> {
        match format {
            PlusFormat::Zkforge => Self::from_bytes(bytes),
            PlusFormat::Tari => {
                // T, d1 (T scalars) | A, A1, B | r1, s1 | (L, R)*  ->  A, A1, B | r1, s1, d1[0] | (L, R)*
                let pb = G::POINT_BYTES;
                let wrong = BulletproofError::WrongLength { group: G::NAME, len: bytes.len() };
                let t = *bytes.first().ok_or(wrong.clone())? as usize;
                if !(1..=MAX_EXTENSION_DEGREE).contains(&t) || bytes.len() < 1 + 32 * t + 3 * pb + 64 {
                    return Err(wrong);
                }
                let head = 1 + 32 * t;
                let d1 = &bytes[1..33];
                let mut d1_extra = Vec::with_capacity(t - 1);
                for k in 1..t {
                    let off = 1 + 32 * k;
                    let mut b = [0u8; 32];
                    b.copy_from_slice(&bytes[off..off + 32]);
                    d1_extra.push(G::scalar_from_canonical(&b).ok_or(BulletproofError::NonCanonicalScalar { offset: off })?);
                }
                let rest = &bytes[head..];
                let mut ours = Vec::with_capacity(bytes.len() - 1);
                ours.extend_from_slice(&rest[..3 * pb + 64]);
                ours.extend_from_slice(d1);
                ours.extend_from_slice(&rest[3 * pb + 64..]);
                let mut proof = Self::from_bytes(&ours).map_err(|e| match e {
                    // report offsets in the caller's bytes
                    BulletproofError::NonCanonicalScalar { offset } if offset == 3 * pb + 64 => BulletproofError::NonCanonicalScalar { offset: 1 },
                    BulletproofError::NonCanonicalScalar { offset } => BulletproofError::NonCanonicalScalar { offset: offset + head },
                    BulletproofError::InvalidPoint { group, offset } if offset < 3 * pb => BulletproofError::InvalidPoint { group, offset: offset + head },
                    BulletproofError::InvalidPoint { group, offset } => BulletproofError::InvalidPoint { group, offset: offset + head - 32 },
                    BulletproofError::WrongLength { group, .. } => BulletproofError::WrongLength { group, len: bytes.len() },
                    other => other,
                })?;
                proof.d1_extra = d1_extra;
                Ok(proof)
            }
        }
    }

    /// Decodes [`RangeProofPlus::to_bytes`] with every check (length, canonical scalars, valid
    /// points).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, BulletproofError> {
        let pb = G::POINT_BYTES;
        let wrong = BulletproofError::WrongLength { group: G::NAME, len: bytes.len() };
        let fixed = 3 * pb + 96;
        if bytes.len() < fixed || (bytes.len() - fixed) % (2 * pb) != 0 || (bytes.len() - fixed) / (2 * pb) > 12 {
            return Err(wrong);
        }
        let rounds = (bytes.len() - fixed) / (2 * pb);
        let point = |off: usize| Encoded::<G>::from_bytes(&bytes[off..off + pb]).ok_or(BulletproofError::InvalidPoint { group: G::NAME, offset: off });
        let scalar = |off: usize| {
            let mut b = [0u8; 32];
            b.copy_from_slice(&bytes[off..off + 32]);
            G::scalar_from_canonical(&b).ok_or(BulletproofError::NonCanonicalScalar { offset: off })
        };
        let a = point(0)?;
        let a1 = point(pb)?;
        let b = point(2 * pb)?;
        let r1 = scalar(3 * pb)?;
        let s1 = scalar(3 * pb + 32)?;
        let d1 = scalar(3 * pb + 64)?;
        let mut l_vec = Vec::with_capacity(rounds);
        let mut r_vec = Vec::with_capacity(rounds);
        for k in 0..rounds {
            l_vec.push(point(fixed + 2 * k * pb)?);
            r_vec.push(point(fixed + (2 * k + 1) * pb)?);
        }
        Ok(Self { a, a1, b, r1, s1, d1, d1_extra: Vec::new(), l_vec, r_vec })
    }
}

/// One proof of a Bulletproofs+ batch.
pub type BatchItemPlus<'a, G> = BatchItem<'a, G, RangeProofPlus<G>>;

/// Verifies many Bulletproofs+ proofs (any mix of shapes) with one MSM, each equation
/// weighted by a fresh random scalar; `Ok` only when all verify.
pub fn verify_batch_plus<G: BpGroup, R: RngCore + CryptoRng>(
    bp_gens: &BulletproofGens<G>,
    pc_gens: &PedersenGens<G>,
    tables: Option<&GeneratorTables<G>>,
    items: &mut [BatchItemPlus<'_, G>],
    rng: &mut R,
) -> Result<(), BulletproofError> {
    verify_batch_plus_in(PlusFormat::Zkforge, bp_gens, pc_gens, tables, items, rng)
}

/// [`verify_batch_plus`] for proofs made in `format`'s transcript.
pub fn verify_batch_plus_in<G: BpGroup, R: RngCore + CryptoRng>(
    format: PlusFormat,
    bp_gens: &BulletproofGens<G>,
    pc_gens: &PedersenGens<G>,
    tables: Option<&GeneratorTables<G>>,
    items: &mut [BatchItemPlus<'_, G>],
    rng: &mut R,
) -> Result<(), BulletproofError> {
    let none: Vec<&[u64]> = vec![&[]; items.len()];
    verify_batch_plus_promises(format, bp_gens, pc_gens, tables, items, &none, rng)
}

/// [`verify_batch_plus_in`] for proofs with minimum-value promises: `minimums[i]` is item
/// i's list (empty for none).
pub fn verify_batch_plus_promises<G: BpGroup, R: RngCore + CryptoRng>(
    format: PlusFormat,
    bp_gens: &BulletproofGens<G>,
    pc_gens: &PedersenGens<G>,
    tables: Option<&GeneratorTables<G>>,
    items: &mut [BatchItemPlus<'_, G>],
    minimums: &[&[u64]],
    rng: &mut R,
) -> Result<(), BulletproofError> {
    if minimums.len() != items.len() {
        return Err(BulletproofError::WrongNumMinimums { values: items.len(), minimums: minimums.len() });
    }
    // batch_check calls `add` once per item, in order
    let mut next = 0;
    batch_check(
        bp_gens,
        pc_gens,
        tables,
        items,
        |it| (it.n, it.commitments.len()),
        |it, eq, w, _| {
            let mins = minimums[next];
            next += 1;
            it.proof.add_to_equation(format, pc_gens, &[], eq, &mut it.transcript, it.commitments, mins, it.n, w)
        },
        rng,
    )
}

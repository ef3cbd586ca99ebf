//! Generators: the Pedersen pair (B, B_blinding) and the per-party vectors G, H.
//!
//! As in dalek's `bulletproofs` (`BulletproofGens`): party j's G and H are the chains labelled
//! `G` || j and `H` || j (j as u32 little-endian); a proof with bit size n (rounded up to a
//! power of two, n') and m' parties uses the first n' of each of the first m' parties' chains,
//! party-major. With Ristretto the points are dalek's exactly.
//!
//! [`GeneratorTables`] precomputes fixed-base tables over B, B_blinding and the generators of one
//! proof shape, so the verifier's multi-scalar multiplication only builds tables for the
//! proof's own points; its memory is reported by [`GeneratorTables::memory_bytes`].

use crate::group::BpGroup;

/// The Pedersen commitment bases: `commit(v, r) = v B + r B_blinding`.
#[derive(Clone, Copy, Debug)]
pub struct PedersenGens<G: BpGroup> {
    /// Base of the committed value.
    pub b: G::Point,
    /// Base of the blinding factor.
    pub b_blinding: G::Point,
}

impl<G: BpGroup> Default for PedersenGens<G> {
    /// The group's standard bases (dalek's for Ristretto).
    fn default() -> Self {
        let (b, b_blinding) = G::pedersen_bases();
        Self { b, b_blinding }
    }
}

impl PedersenGens<crate::Ristretto255> {
    /// Tari's Pedersen bases (`tari_bulletproofs_plus`, extension degree 1; see
    /// [`ExtendedPedersenGens::tari`] for the others): B the
    /// ristretto255 basepoint, B_blinding = from_uniform_bytes(SHA3-512(
    /// "RISTRETTO_MASKING_BASEPOINT_1")). For [`crate::PlusFormat::Tari`].
    pub fn tari() -> Self {
        use sha3::{Digest, Sha3_512};
        let h: [u8; 64] = Sha3_512::digest(b"RISTRETTO_MASKING_BASEPOINT_1").into();
        let (b, _) = <crate::Ristretto255 as BpGroup>::pedersen_bases();
        Self { b, b_blinding: curve25519_dalek::ristretto::RistrettoPoint::from_uniform_bytes(&h) }
    }
}

impl<G: BpGroup> PedersenGens<G> {
    /// v B + r B_blinding, in constant time.
    ///
    /// ```
    /// use zkforge_bulletproofs::{PedersenGens, Ristretto255, BpGroup};
    /// let pc = PedersenGens::<Ristretto255>::default();
    /// let c = pc.commit(Ristretto255::scalar_from_u64(5), Ristretto255::scalar_from_u64(7));
    /// assert!(!Ristretto255::is_identity(&c));
    /// ```
    pub fn commit(&self, value: G::Scalar, blinding: G::Scalar) -> G::Point {
        G::msm_ct(&[value, blinding], &[self.b, self.b_blinding])
    }
}

/// The largest extension degree Tari's format has (`ExtensionDegree::AddFiveBasePoints`).
pub const MAX_EXTENSION_DEGREE: usize = 6;

/// Tari's extended Pedersen commitments: `commit(v, r_0, ..., r_(T-1)) = v B + sum_k r_k
/// B_blinding_k` with B_blinding_0 the pair's own blinding base and T - 1 extra bases (the
/// extension degree T, 1 to 6). For [`crate::RangeProofPlus::prove_extended`].
#[derive(Clone, Debug)]
pub struct ExtendedPedersenGens<G: BpGroup> {
    /// B and B_blinding_0.
    pub pc: PedersenGens<G>,
    /// B_blinding_1 .. B_blinding_(T-1).
    pub extra_blinding: Vec<G::Point>,
}

impl ExtendedPedersenGens<crate::Ristretto255> {
    /// Tari's bases of extension degree `degree` (1 to 6): B the ristretto255 basepoint and
    /// B_blinding_k = from_uniform_bytes(SHA3-512("RISTRETTO_MASKING_BASEPOINT_" || k+1)),
    /// as `tari_bulletproofs_plus::ristretto::create_pedersen_gens_with_extension_degree`.
    ///
    /// ```
    /// use zkforge_bulletproofs::{BpGroup, ExtendedPedersenGens, Ristretto255};
    /// let epc = ExtendedPedersenGens::tari(2).unwrap();
    /// let c = epc.commit(Ristretto255::scalar_from_u64(5), &[Ristretto255::scalar_from_u64(1), Ristretto255::scalar_from_u64(2)]).unwrap();
    /// assert!(!Ristretto255::is_identity(&c));
    /// assert!(ExtendedPedersenGens::tari(7).is_err());
    /// ```
    pub fn tari(degree: usize) -> Result<Self, crate::BulletproofError> {
        use sha3::{Digest, Sha3_512};
        if !(1..=MAX_EXTENSION_DEGREE).contains(&degree) {
            return Err(crate::BulletproofError::WrongExtensionDegree { index: 0, expected: MAX_EXTENSION_DEGREE, got: degree });
        }
        let extra_blinding = (2..=degree)
            .map(|k| {
                let h: [u8; 64] = Sha3_512::digest(format!("RISTRETTO_MASKING_BASEPOINT_{k}").as_bytes()).into();
                curve25519_dalek::ristretto::RistrettoPoint::from_uniform_bytes(&h)
            })
            .collect();
        Ok(Self { pc: PedersenGens::tari(), extra_blinding })
    }
}

impl<G: BpGroup> ExtendedPedersenGens<G> {
    /// The extension degree T (blinding factors per commitment).
    pub fn degree(&self) -> usize {
        1 + self.extra_blinding.len()
    }

    /// v B + sum_k r_k B_blinding_k in constant time; `blindings` must hold T factors.
    pub fn commit(&self, value: G::Scalar, blindings: &[G::Scalar]) -> Result<G::Point, crate::BulletproofError> {
        if blindings.len() != self.degree() {
            return Err(crate::BulletproofError::WrongExtensionDegree { index: 0, expected: self.degree(), got: blindings.len() });
        }
        Ok(commit_extended(&self.pc, &self.extra_blinding, value, blindings))
    }
}

/// v B + sum_k r_k B_blinding_k over B_blinding and `extra` (`blindings` one per base), in
/// constant time: [`ExtendedPedersenGens::commit`] and the Bulletproofs+ prover's commitments.
pub(crate) fn commit_extended<G: BpGroup>(pc: &PedersenGens<G>, extra: &[G::Point], value: G::Scalar, blindings: &[G::Scalar]) -> G::Point {
    let mut scalars = Vec::with_capacity(1 + blindings.len());
    scalars.push(value);
    scalars.extend_from_slice(blindings);
    let points: Vec<G::Point> = [pc.b, pc.b_blinding].into_iter().chain(extra.iter().copied()).collect();
    let c = G::msm_ct(&scalars, &points);
    zeroize::Zeroize::zeroize(&mut scalars);
    c
}

/// G and H for up to `party_capacity` parties of up to `gens_capacity` bits each.
#[derive(Clone, Debug)]
pub struct BulletproofGens<G: BpGroup> {
    /// Generators per party (the largest bit size, rounded up to a power of two, it serves).
    pub gens_capacity: usize,
    /// Parties (values of an aggregated proof).
    pub party_capacity: usize,
    g_vec: Vec<Vec<G::Point>>,
    h_vec: Vec<Vec<G::Point>>,
}

impl<G: BpGroup> BulletproofGens<G> {
    /// Generators for `party_capacity` parties of `gens_capacity` each (64 serves every bit
    /// size).
    ///
    /// ```
    /// use zkforge_bulletproofs::{BulletproofGens, Ristretto255};
    /// let gens = BulletproofGens::<Ristretto255>::new(64, 1);
    /// assert_eq!(gens.g(64, 1).unwrap().len(), 64);
    /// assert!(gens.g(128, 1).is_err());
    /// ```
    pub fn new(gens_capacity: usize, party_capacity: usize) -> Self {
        let mut g_vec = Vec::with_capacity(party_capacity);
        let mut h_vec = Vec::with_capacity(party_capacity);
        for j in 0..party_capacity {
            let mut label = [b'G', 0, 0, 0, 0];
            label[1..].copy_from_slice(&(j as u32).to_le_bytes());
            g_vec.push(G::generator_chain(&label, 0, gens_capacity));
            label[0] = b'H';
            h_vec.push(G::generator_chain(&label, 0, gens_capacity));
        }
        Self { gens_capacity, party_capacity, g_vec, h_vec }
    }

    /// The G generators of a proof with `n` per party and `m` parties, party-major; an error
    /// when the generators hold fewer.
    pub fn g(&self, n: usize, m: usize) -> Result<Vec<G::Point>, crate::BulletproofError> {
        self.check(n, m)?;
        Ok(self.g_in(n, m))
    }

    /// The H generators, laid out like [`BulletproofGens::g`].
    pub fn h(&self, n: usize, m: usize) -> Result<Vec<G::Point>, crate::BulletproofError> {
        self.check(n, m)?;
        Ok(self.h_in(n, m))
    }

    /// [`BulletproofGens::g`] for a shape already checked.
    pub(crate) fn g_in(&self, n: usize, m: usize) -> Vec<G::Point> {
        self.g_vec[..m].iter().flat_map(|v| v[..n].iter().copied()).collect()
    }

    /// [`BulletproofGens::h`] for a shape already checked.
    pub(crate) fn h_in(&self, n: usize, m: usize) -> Vec<G::Point> {
        self.h_vec[..m].iter().flat_map(|v| v[..n].iter().copied()).collect()
    }

    /// Whether a proof of `n_pad` per party (a power of two) and `m_pad` parties fits.
    pub(crate) fn check(&self, n_pad: usize, m_pad: usize) -> Result<(), crate::BulletproofError> {
        if n_pad > self.gens_capacity || m_pad > self.party_capacity {
            return Err(crate::BulletproofError::GeneratorsTooSmall {
                capacity: self.gens_capacity,
                parties: self.party_capacity,
                need_bits: n_pad,
                need_parties: m_pad,
            });
        }
        Ok(())
    }
}

/// Fixed-base tables over B, B_blinding, G and H of one proof shape (bit size `n`, `m`
/// values), for [`crate::RangeProof::verify_with_tables`] and batch verification.
pub struct GeneratorTables<G: BpGroup> {
    pub(crate) n_pad: usize,
    pub(crate) m_pad: usize,
    pub(crate) tables: G::Tables,
}

impl<G: BpGroup> GeneratorTables<G> {
    /// Tables for proofs of `n` bits and `m` values (both rounded up to powers of two, as
    /// the proofs are): the points are B, B_blinding, then G and H of the padded shape.
    pub fn new(bp_gens: &BulletproofGens<G>, pc_gens: &PedersenGens<G>, n: usize, m: usize) -> Result<Self, crate::BulletproofError> {
        let (n_pad, m_pad) = crate::range_proof::padded_shape(n, m)?;
        bp_gens.check(n_pad, m_pad)?;
        let mut points = vec![pc_gens.b, pc_gens.b_blinding];
        points.extend(bp_gens.g_in(n_pad, m_pad));
        points.extend(bp_gens.h_in(n_pad, m_pad));
        Ok(Self { n_pad, m_pad, tables: G::tables(&points) })
    }

    /// Bytes the tables take.
    pub fn memory_bytes(&self) -> usize {
        G::tables_bytes(&self.tables)
    }
}

//! EIP-7594 (PeerDAS) cells, as the consensus specs define them
//! (`specs/fulu/polynomial-commitments-sampling.md`): a blob's polynomial p (degree < 4096) is
//! evaluated on the 8192-point domain in bit-reversed order and cut into 128 cells of 64 points;
//! cell k is p on the coset h_k <w_64> with h_k = w_8192^brp7(k), and its proof commits to
//! p / (X^64 - h_k^64).
//!
//! - [`KzgSettings::compute_cells_and_kzg_proofs`]: cells by one inverse FFT and one 8192-point
//!   FFT, proofs by FK20 (module `fk20`).
//! - [`KzgSettings::recover_cells_and_kzg_proofs`]: the spec's `recover_polynomialcoeff`. With
//!   E the received evaluations (0 where missing) and Z the polynomial vanishing on the missing
//!   cosets (Z(X) = prod (X^64 - h_k^64) over missing k), E Z = p Z on the domain, so one inverse
//!   FFT gives the coefficients of p Z; dividing by Z on the coset 7 H (where Z has no root)
//!   and transforming back gives p. Z's values only depend on X^64, so they are computed on 128
//!   points, not by FFTs.
//! - [`KzgSettings::verify_cell_kzg_proof_batch`]: the spec's universal verification equation
//!   e(sum r^k pi_k, [tau^64]) = e(RLC - RLI + RLP, G2), where RLC = sum_i w_i C_i (the weights of
//!   each distinct commitment), RLI the commitment to sum_k r^k I_k (I_k the cell's interpolation
//!   polynomial, found by a 64-point inverse FFT per distinct cell index) and
//!   RLP = sum_k r^k h_k^64 pi_k.

use std::collections::HashMap;

use sha2::{Digest, Sha256};
use zkforge_curve::bls12_381::{G1Affine, G1Projective, G2Affine};
use zkforge_field::bls12_381::{Fr, FrConfig};
use zkforge_poly::Domain;

use crate::fk20::Fk20;
use crate::{
    compress, field, g1_many, KzgError, KzgSettings, BYTES_PER_CELL, BYTES_PER_COMMITMENT, CELLS_PER_EXT_BLOB, FIELD_ELEMENTS_PER_BLOB,
    FIELD_ELEMENTS_PER_CELL, FIELD_ELEMENTS_PER_EXT_BLOB, RANDOM_CHALLENGE_KZG_CELL_BATCH_DOMAIN,
};

/// The spec's PRIMITIVE_ROOT_OF_UNITY, the shift of recovery's coset.
const COSET_SHIFT: u64 = 7;

/// The first 4096 of 8192 recovered coefficients, or [`KzgError::InconsistentCells`] when any
/// of the rest is non-zero. Cells of one blob always pass; with exactly 64 cells any values
/// pass (4096 points fix a polynomial of degree < 4096). Where the spec truncates silently
/// (and c-kzg returns the untruncated cells with the truncated polynomial's proofs), a wrong
/// set of cells is refused here, as rust_eth_kzg does.
fn degree_below_blob(mut coeffs: Vec<Fr>) -> Result<Vec<Fr>, KzgError> {
    if coeffs[FIELD_ELEMENTS_PER_BLOB..].iter().any(|c| !bool::from(c.is_zero())) {
        return Err(KzgError::InconsistentCells);
    }
    coeffs.truncate(FIELD_ELEMENTS_PER_BLOB);
    Ok(coeffs)
}

/// brp7(k): the 7-bit reversal of a cell index.
fn brp7(k: usize) -> usize {
    ((k as u8).reverse_bits() >> 1) as usize
}

/// A cell's 64 field elements (each 32 bytes, big-endian, below r).
fn cell_evals(cell: &[u8]) -> Result<Vec<Fr>, KzgError> {
    if cell.len() != BYTES_PER_CELL {
        return Err(KzgError::InvalidLength { what: "a cell", expected: BYTES_PER_CELL, got: cell.len() });
    }
    cell.chunks_exact(32).map(field).collect()
}

fn cell_index(i: u64) -> Result<usize, KzgError> {
    if i >= CELLS_PER_EXT_BLOB as u64 {
        return Err(KzgError::CellIndexOutOfRange(i));
    }
    Ok(i as usize)
}

/// The spec's `compute_verify_cell_kzg_proof_batch_challenge`: sha256 of
/// RCKZGCBATCH__V1_ || 4096 || 64 || #commitments || #cells (8 bytes each, big-endian) ||
/// the distinct commitments || for each cell: commitment index, cell index (8 bytes each), the
/// cell's 64 elements, the proof; reduced mod r. Cells are given as their 2048 bytes (the same
/// bytes as the spec's coset evaluations). No input is checked here.
pub fn compute_verify_cell_kzg_proof_batch_challenge(
    commitments: &[&[u8]],
    commitment_indices: &[u64],
    cell_indices: &[u64],
    cells: &[&[u8]],
    proofs: &[&[u8]],
) -> Fr {
    let mut h = Sha256::new();
    h.update(RANDOM_CHALLENGE_KZG_CELL_BATCH_DOMAIN);
    h.update((FIELD_ELEMENTS_PER_BLOB as u64).to_be_bytes());
    h.update((FIELD_ELEMENTS_PER_CELL as u64).to_be_bytes());
    h.update((commitments.len() as u64).to_be_bytes());
    h.update((cell_indices.len() as u64).to_be_bytes());
    for c in commitments {
        h.update(c);
    }
    for (k, cell) in cells.iter().enumerate() {
        h.update(commitment_indices[k].to_be_bytes());
        h.update(cell_indices[k].to_be_bytes());
        h.update(cell);
        h.update(proofs[k]);
    }
    Fr::from_bytes_be_mod_order(&h.finalize())
}

impl KzgSettings {
    /// EIP-7594's `compute_cells`: the blob's polynomial evaluated on the 8192-element
    /// extended domain in bit-reversed order, as 128 cells of 64 field elements (2048 bytes
    /// each, concatenated). The coefficients come from one inverse FFT of the blob (undoing its
    /// bit-reversed order), the extension from one FFT of size 8192.
    ///
    /// ```no_run
    /// use zkforge_kzg::{KzgSettings, BYTES_PER_BLOB, BYTES_PER_CELL};
    /// let cells = KzgSettings::mainnet().compute_cells(&vec![0u8; BYTES_PER_BLOB]).unwrap();
    /// assert_eq!(cells.len(), 128 * BYTES_PER_CELL);
    /// ```
    pub fn compute_cells(&self, blob: &[u8]) -> Result<Vec<u8>, KzgError> {
        self.on_pool(|| Ok(self.cells_from_coefficients(self.coefficients(blob)?)))
    }

    /// The cells of the polynomial with these (4096) coefficients.
    fn cells_from_coefficients(&self, mut evals: Vec<Fr>) -> Vec<u8> {
        evals.resize(FIELD_ELEMENTS_PER_EXT_BLOB, Fr::ZERO);
        self.ext_domain.fft(&mut evals).expect("8192 coefficients");
        zkforge_poly::bit_reverse_permute(&mut evals);
        let mut out = Vec::with_capacity(FIELD_ELEMENTS_PER_EXT_BLOB * 32);
        for x in &evals {
            out.extend_from_slice(x.to_bytes_be().as_ref());
        }
        out
    }

    /// The blob's polynomial in coefficient form (inverse FFT of the bit-reversed evaluations).
    fn coefficients(&self, blob: &[u8]) -> Result<Vec<Fr>, KzgError> {
        let mut evals = crate::blob_to_polynomial(blob)?;
        zkforge_poly::bit_reverse_permute(&mut evals);
        self.domain.ifft(&mut evals).expect("4096 evaluations");
        Ok(evals)
    }

    /// FK20's tables (built on first use from the setup's monomial points).
    fn fk20(&self) -> &Fk20 {
        self.fk20.get_or_init(|| {
            let w128 = self.w128();
            match &self.fk20_columns {
                Some(cols) => Fk20::new(cols, &w128, self.cell_precompute, self.threads),
                None => Fk20::new(&Fk20::columns(&self.g1_monomial, &w128, self.threads, self.g1_fft_products), &w128, self.cell_precompute, self.threads),
            }
        })
    }

    /// w_128 = w_8192^64, the root whose powers are the cells' h_k^64.
    pub(crate) fn w128(&self) -> Fr {
        self.ext_domain.element(FIELD_ELEMENTS_PER_CELL)
    }

    /// h_k^-1 = w_8192^(8192 - brp7(k)), the inverse of the shift h_k of cell k's coset
    /// h_k <w_64>.
    fn coset_shift_inv(&self, k: usize) -> Fr {
        self.ext_domain.element(FIELD_ELEMENTS_PER_EXT_BLOB - brp7(k))
    }

    /// h_k^64 = w_128^brp7(k): the coset's vanishing polynomial is X^64 - h_k^64.
    fn coset_root(&self, k: usize) -> Fr {
        self.ext_domain.element(FIELD_ELEMENTS_PER_CELL * brp7(k))
    }

    /// Builds FK20's tables now (they are otherwise built by the first cell proof) and returns
    /// their size in bytes.
    pub fn prepare_cell_proofs(&self) -> usize {
        self.fk20().memory_bytes()
    }

    /// Cells and proofs of the polynomial with these 4096 coefficients.
    fn cells_and_proofs(&self, coeffs: Vec<Fr>) -> (Vec<u8>, Vec<[u8; 48]>) {
        let proofs = self.fk20().proofs(&coeffs, self.threads, self.g1_fft_products);
        let cells = self.on_pool(|| self.cells_from_coefficients(coeffs));
        let proofs = G1Projective::batch_to_affine(&proofs).iter().map(G1Affine::to_compressed).collect();
        (cells, proofs)
    }

    /// EIP-7594's `compute_cells_and_kzg_proofs`: the 128 cells (as
    /// [`KzgSettings::compute_cells`]) and one proof per cell, by FK20. The first call builds
    /// FK20's tables (see [`crate::CellPrecompute`]).
    ///
    /// ```no_run
    /// use zkforge_kzg::{KzgSettings, BYTES_PER_BLOB};
    /// let kzg = KzgSettings::mainnet();
    /// let blob = vec![0u8; BYTES_PER_BLOB];
    /// let (cells, proofs) = kzg.compute_cells_and_kzg_proofs(&blob).unwrap();
    /// let commitment = kzg.blob_to_kzg_commitment(&blob).unwrap();
    /// let c: Vec<&[u8]> = vec![&commitment[..]; 128];
    /// let idx: Vec<u64> = (0..128).collect();
    /// let cs: Vec<&[u8]> = cells.chunks(2048).collect();
    /// let ps: Vec<&[u8]> = proofs.iter().map(|p| &p[..]).collect();
    /// assert!(kzg.verify_cell_kzg_proof_batch(&c, &idx, &cs, &ps).unwrap());
    /// ```
    pub fn compute_cells_and_kzg_proofs(&self, blob: &[u8]) -> Result<(Vec<u8>, Vec<[u8; 48]>), KzgError> {
        let coeffs = self.on_pool(|| self.coefficients(blob))?;
        Ok(self.cells_and_proofs(coeffs))
    }

    /// The proof of one cell by direct division: the quotient of p(X) by X^64 - h_k^64 (long
    /// division, 4032 coefficients) committed with the monomial points, one 4032-point MSM.
    /// About 100 times the work per proof of FK20; the reference the tests compare FK20 with.
    pub fn cell_kzg_proof_by_division(&self, blob: &[u8], cell: u64) -> Result<[u8; 48], KzgError> {
        let k = cell_index(cell)?;
        let coeffs = self.coefficients(blob)?;
        let c = self.coset_root(k);
        let qlen = FIELD_ELEMENTS_PER_BLOB - FIELD_ELEMENTS_PER_CELL;
        let mut q = vec![Fr::ZERO; qlen];
        // p = q (X^64 - c) + r: q[k - 64] = p[k] + c q[k], from the top (q[j] = 0 for j >= 4032)
        for i in (FIELD_ELEMENTS_PER_CELL..FIELD_ELEMENTS_PER_BLOB).rev() {
            let above = if i < qlen { q[i] } else { Fr::ZERO };
            q[i - FIELD_ELEMENTS_PER_CELL] = coeffs[i] + c * above;
        }
        let proof = zkforge_msm::msm_threads(&self.g1_monomial, &q, self.threads).expect("4032 scalars for 4032 points");
        Ok(compress(&proof))
    }

    /// EIP-7594's `recover_cells_and_kzg_proofs`: from at least 64 of the 128 cells (indices
    /// strictly ascending, each cell 2048 bytes), all cells and all proofs. The spec's checks are
    /// typed errors: lengths, count, order, range, field elements below r; and cells that no
    /// single blob produced (possible with more than 64) are [`KzgError::InconsistentCells`].
    ///
    /// ```no_run
    /// use zkforge_kzg::{KzgSettings, BYTES_PER_BLOB};
    /// let kzg = KzgSettings::mainnet();
    /// let (cells, proofs) = kzg.compute_cells_and_kzg_proofs(&vec![1u8; BYTES_PER_BLOB]).unwrap();
    /// // keep the odd cells
    /// let idx: Vec<u64> = (1..128).step_by(2).collect();
    /// let kept: Vec<&[u8]> = idx.iter().map(|&i| &cells[i as usize * 2048..][..2048]).collect();
    /// let (all, all_proofs) = kzg.recover_cells_and_kzg_proofs(&idx, &kept).unwrap();
    /// assert_eq!((all, all_proofs), (cells, proofs));
    /// ```
    pub fn recover_cells_and_kzg_proofs(&self, cell_indices: &[u64], cells: &[&[u8]]) -> Result<(Vec<u8>, Vec<[u8; 48]>), KzgError> {
        let coeffs = self.on_pool(|| self.recover_polynomial(cell_indices, cells))?;
        Ok(self.cells_and_proofs(coeffs))
    }

    /// The spec's `recover_polynomialcoeff`, with its input checks.
    fn recover_polynomial(&self, cell_indices: &[u64], cells: &[&[u8]]) -> Result<Vec<Fr>, KzgError> {
        if cell_indices.len() != cells.len() {
            return Err(KzgError::CellLengthMismatch { what: format!("{} cell indices, {} cells", cell_indices.len(), cells.len()) });
        }
        let n = cells.len();
        if !(CELLS_PER_EXT_BLOB / 2..=CELLS_PER_EXT_BLOB).contains(&n) {
            return Err(KzgError::WrongCellCount(n));
        }
        for w in cell_indices.windows(2) {
            if w[0] == w[1] {
                return Err(KzgError::DuplicateCellIndex(w[0]));
            }
            if w[0] > w[1] {
                return Err(KzgError::CellIndicesNotAscending);
            }
        }
        let mut present = [false; CELLS_PER_EXT_BLOB];
        let mut evals_brp = vec![Fr::ZERO; FIELD_ELEMENTS_PER_EXT_BLOB];
        for (&i, cell) in cell_indices.iter().zip(cells) {
            let k = cell_index(i)?;
            present[k] = true;
            evals_brp[k * FIELD_ELEMENTS_PER_CELL..][..FIELD_ELEMENTS_PER_CELL].copy_from_slice(&cell_evals(cell)?);
        }
        let mut e = evals_brp;
        zkforge_poly::bit_reverse_permute(&mut e);
        if n == CELLS_PER_EXT_BLOB {
            // nothing missing: Z = 1, p is E's inverse transform
            self.ext_domain.ifft(&mut e).expect("8192 values");
            return degree_below_blob(e);
        }
        // the short vanishing polynomial s(Y) = prod over missing k of (Y - w_128^brp7(k)); Z(X) = s(X^64)
        let mut s = vec![Fr::ONE];
        for k in (0..CELLS_PER_EXT_BLOB).filter(|&k| !present[k]) {
            let root = self.coset_root(k);
            s.push(Fr::ZERO);
            for j in (1..s.len()).rev() {
                let below = s[j - 1];
                s[j] = below - root * s[j];
            }
            s[0] = -(root * s[0]);
        }
        // Z on the domain: Z(w^i) = s(w_128^(i mod 128)); on the coset: Z(7 w^i) = s(7^64 w_128^(i mod 128))
        let domain128: Domain<FrConfig, 4> = Domain::new(CELLS_PER_EXT_BLOB).expect("128-point domain");
        let mut z_dom = s.clone();
        z_dom.resize(CELLS_PER_EXT_BLOB, Fr::ZERO);
        domain128.fft(&mut z_dom).expect("128 values");
        let shift = Fr::from_u64(COSET_SHIFT);
        let mut z_coset = s;
        z_coset.resize(CELLS_PER_EXT_BLOB, Fr::ZERO);
        domain128.coset_fft(&mut z_coset, &shift.pow_vartime(&[FIELD_ELEMENTS_PER_CELL as u64])).expect("128 values");
        // (E Z) on the domain, to coefficients of p Z
        for (i, x) in e.iter_mut().enumerate() {
            *x *= z_dom[i % CELLS_PER_EXT_BLOB];
        }
        self.ext_domain.ifft(&mut e).expect("8192 values");
        // on the coset 7 H: (p Z) / Z, back to coefficients
        self.ext_domain.coset_fft(&mut e, &shift).expect("8192 values");
        Fr::batch_invert(&mut z_coset);
        for (i, x) in e.iter_mut().enumerate() {
            *x *= z_coset[i % CELLS_PER_EXT_BLOB];
        }
        self.ext_domain.coset_ifft(&mut e, &shift).expect("8192 values");
        degree_below_blob(e)
    }

    /// EIP-7594's `verify_cell_kzg_proof_batch`: do these cells (2048 bytes each, at these
    /// indices) of the blobs with these commitments open with these proofs? Commitments may
    /// repeat (one per cell); an empty batch is valid. Every input is checked first (lengths,
    /// indices below 128, field elements below r, points in G1) and refused with a typed error.
    /// Variable time: every input is public.
    pub fn verify_cell_kzg_proof_batch(&self, commitments: &[&[u8]], cell_indices: &[u64], cells: &[&[u8]], proofs: &[&[u8]]) -> Result<bool, KzgError> {
        let n = cells.len();
        if commitments.len() != n || cell_indices.len() != n || proofs.len() != n {
            return Err(KzgError::CellLengthMismatch {
                what: format!("{} commitments, {} cell indices, {} cells, {} proofs", commitments.len(), cell_indices.len(), n, proofs.len()),
            });
        }
        // the distinct commitments in order of first appearance, and each cell's index into them
        let mut distinct: Vec<&[u8]> = Vec::new();
        let mut seen: HashMap<&[u8], u64> = HashMap::new();
        let mut commitment_indices = Vec::with_capacity(n);
        for &c in commitments {
            if c.len() != BYTES_PER_COMMITMENT {
                return Err(KzgError::InvalidLength { what: "a commitment", expected: BYTES_PER_COMMITMENT, got: c.len() });
            }
            let next = distinct.len() as u64;
            let i = *seen.entry(c).or_insert(next);
            if i == next {
                distinct.push(c);
            }
            commitment_indices.push(i);
        }
        let idx: Vec<usize> = cell_indices.iter().map(|&i| cell_index(i)).collect::<Result<_, _>>()?;
        for p in proofs {
            if p.len() != BYTES_PER_COMMITMENT {
                return Err(KzgError::InvalidLength { what: "a proof", expected: BYTES_PER_COMMITMENT, got: p.len() });
            }
        }
        // decoding (square roots and subgroup checks of the proofs) is most of the work: on the
        // settings' threads
        // (the points: decoded, then subgroup-tested together, see `g1_many`)
        let evals: Vec<Vec<Fr>> = if self.threads > 1 {
            use rayon::prelude::*;
            zkforge_msm::pippenger::pool(self.threads).install(|| cells.par_iter().map(|c| cell_evals(c)).collect::<Result<_, _>>())?
        } else {
            cells.iter().map(|c| cell_evals(c)).collect::<Result<_, _>>()?
        };
        let cs = g1_many(&distinct, self.threads, self.batch_point_decoding).map_err(KzgError::InvalidPoint)?;
        let pis = g1_many(proofs, self.threads, self.batch_point_decoding).map_err(KzgError::InvalidPoint)?;
        if n == 0 {
            return Ok(true);
        }
        let r = compute_verify_cell_kzg_proof_batch_challenge(&distinct, &commitment_indices, cell_indices, cells, proofs);
        let mut r_pows = Vec::with_capacity(n);
        let mut acc = Fr::ONE;
        for _ in 0..n {
            r_pows.push(acc);
            acc *= r;
        }
        let threads = self.threads;
        let msm = |points: &[G1Affine], scalars: &[Fr]| zkforge_msm::msm_threads(points, scalars, threads).expect("lengths match");
        // LL = sum r^k pi_k
        let ll = msm(&pis, &r_pows);
        // RLC = sum_i weight_i C_i
        let mut weights = vec![Fr::ZERO; cs.len()];
        for (k, &i) in commitment_indices.iter().enumerate() {
            weights[i as usize] += r_pows[k];
        }
        let rlc = msm(&cs, &weights);
        // RLI: sum_k r^k I_k, gathered per cell index (the cosets' evaluations add up)
        let mut agg: Vec<Option<Vec<Fr>>> = vec![None; CELLS_PER_EXT_BLOB];
        for (k, ev) in evals.iter().enumerate() {
            let slot = agg[idx[k]].get_or_insert_with(|| vec![Fr::ZERO; FIELD_ELEMENTS_PER_CELL]);
            for (a, e) in slot.iter_mut().zip(ev) {
                *a += r_pows[k] * *e;
            }
        }
        let domain64: Domain<FrConfig, 4> = Domain::new(FIELD_ELEMENTS_PER_CELL).expect("64-point domain");
        let mut interp = vec![Fr::ZERO; FIELD_ELEMENTS_PER_CELL];
        for (k, slot) in agg.iter_mut().enumerate() {
            let Some(v) = slot else { continue };
            // v holds I(h_k w_64^brp6(j)) at j; natural order, inverse FFT: coefficients of I(h_k Y)
            zkforge_poly::bit_reverse_permute(v);
            domain64.ifft(v).expect("64 values");
            let h_inv = self.coset_shift_inv(k);
            let mut hp = Fr::ONE;
            for (a, c) in interp.iter_mut().zip(v.iter()) {
                *a += *c * hp;
                hp *= h_inv;
            }
        }
        let rli = self.g1_monomial_cell.msm(&interp, threads).expect("64 scalars for 64 points");
        // RLP = sum r^k h_k^64 pi_k
        let h64: Vec<Fr> = (0..CELLS_PER_EXT_BLOB).map(|k| self.coset_root(k)).collect();
        let wr: Vec<Fr> = r_pows.iter().zip(&idx).map(|(r, &k)| *r * h64[k]).collect();
        let rlp = msm(&pis, &wr);
        let rl = rlc - rli + rlp;
        Ok(zkforge_pairing::bls12_381::pairing_check(&[(ll.to_affine_vartime(), self.g2_monomial[FIELD_ELEMENTS_PER_CELL]), (rl.to_affine_vartime(), -G2Affine::generator())]))
    }
}

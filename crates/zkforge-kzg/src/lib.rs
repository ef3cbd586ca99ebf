//! KZG commitments for Ethereum blobs (EIP-4844) and cells (EIP-7594), as the consensus specs define them
//! (`specs/deneb/polynomial-commitments.md`): a blob is 4096 field elements of BLS12-381 Fr,
//! the evaluations of a polynomial of degree < 4096 over the 4096th roots of unity in
//! bit-reversed order; the commitment is that polynomial at the ceremony's secret tau, computed
//! as one MSM over the setup's Lagrange-form G1 points; a proof for (z, y) is the commitment to
//! the quotient (p(X) - y) / (X - z), and it verifies by `e(C - [y]G1, G2) = e(pi, [tau - z]G2)`.
//!
//! - [`KzgSettings::mainnet`] / [`KzgSettings::mainnet_with`]: the ceremony's setup from the
//!   crate's embedded fast-load copy (4 ms); [`KzgSettings::from_text_with`] and
//!   [`KzgSettings::from_json_with`]: c-kzg's text and the specs' JSON formats, every point
//!   subgroup-checked. [`KzgConfig`] sets the threads (default 1, as c-kzg; 1 never starts a
//!   pool) and the two table knobs, [`CommitPrecompute`] (fixed-base tables for commitments and
//!   proofs) and [`CellPrecompute`] (FK20's), each built on first use.
//! - [`KzgSettings::blob_to_kzg_commitment`], [`KzgSettings::compute_kzg_proof`],
//!   [`KzgSettings::compute_blob_kzg_proof`], [`KzgSettings::verify_kzg_proof`],
//!   [`KzgSettings::verify_blob_kzg_proof`], [`KzgSettings::verify_blob_kzg_proof_batch`] and
//!   [`compute_challenge`]: the spec's functions, bytes in and bytes out, with the spec's checks
//!   (field elements below r, points in the subgroup) as typed [`KzgError`]s.
//! - From EIP-7594 (`specs/fulu/polynomial-commitments-sampling.md`, module [`cells`]):
//!   [`KzgSettings::compute_cells`], [`KzgSettings::compute_cells_and_kzg_proofs`] (FK20,
//!   module `fk20`), [`KzgSettings::recover_cells_and_kzg_proofs`] (the vanishing-polynomial
//!   method with coset FFTs) and [`KzgSettings::verify_cell_kzg_proof_batch`] (the spec's
//!   universal verification equation, one two-pair pairing check), with
//!   [`compute_verify_cell_kzg_proof_batch_challenge`].
//!
//! Evaluation at a point outside the domain is the barycentric formula
//! p(z) = (z^n - 1) / n * sum_i p_i w_i / (z - w_i) with one batch inversion; inside the domain
//! the quotient's value at that root uses the spec's `compute_quotient_eval_within_domain`. The
//! batch verification is the spec's random linear combination (one two-pair pairing check).
//!
//! ```no_run
//! use zkforge_kzg::{KzgSettings, BYTES_PER_BLOB};
//! let kzg = KzgSettings::mainnet();
//! let blob = vec![0u8; BYTES_PER_BLOB];
//! let commitment = kzg.blob_to_kzg_commitment(&blob).unwrap();
//! let proof = kzg.compute_blob_kzg_proof(&blob, &commitment).unwrap();
//! assert!(kzg.verify_blob_kzg_proof(&blob, &commitment, &proof).unwrap());
//! ```

use std::sync::OnceLock;

pub mod cells;
mod embedded;
mod fk20;
mod g1_fft;

pub use cells::compute_verify_cell_kzg_proof_batch_challenge;
#[doc(hidden)]
pub use embedded::embedded_from_text;
pub use fk20::CellPrecompute;
pub use zkforge_msm::mul_many::MulManyMethod;

use sha2::{Digest, Sha256};
use zkforge_curve::bls12_381::{G1Affine, G1Projective, G2Affine};
use zkforge_curve::CurveError;
use zkforge_field::bls12_381::Fr;
use zkforge_msm::PreparedBases;

/// Field elements in a blob.
pub const FIELD_ELEMENTS_PER_BLOB: usize = 4096;
/// Bytes of one field element (big-endian, below r).
pub const BYTES_PER_FIELD_ELEMENT: usize = 32;
/// Bytes of a blob.
pub const BYTES_PER_BLOB: usize = FIELD_ELEMENTS_PER_BLOB * BYTES_PER_FIELD_ELEMENT;
/// Bytes of a commitment or a proof (a compressed G1 point).
pub const BYTES_PER_COMMITMENT: usize = 48;
/// Field elements of an extended blob (EIP-7594: the blob's polynomial on twice the domain).
pub const FIELD_ELEMENTS_PER_EXT_BLOB: usize = 2 * FIELD_ELEMENTS_PER_BLOB;
/// Field elements in a cell.
pub const FIELD_ELEMENTS_PER_CELL: usize = 64;
/// Cells of an extended blob.
pub const CELLS_PER_EXT_BLOB: usize = FIELD_ELEMENTS_PER_EXT_BLOB / FIELD_ELEMENTS_PER_CELL;
/// Bytes of a cell.
pub const BYTES_PER_CELL: usize = FIELD_ELEMENTS_PER_CELL * BYTES_PER_FIELD_ELEMENT;
/// Domain separator of the blob challenge.
pub const FIAT_SHAMIR_PROTOCOL_DOMAIN: &[u8; 16] = b"FSBLOBVERIFY_V1_";
/// Domain separator of the batch-verification randomness.
pub const RANDOM_CHALLENGE_KZG_BATCH_DOMAIN: &[u8; 16] = b"RCKZGBATCH___V1_";
/// Domain separator of the cell batch-verification randomness (EIP-7594).
pub const RANDOM_CHALLENGE_KZG_CELL_BATCH_DOMAIN: &[u8; 16] = b"RCKZGCBATCH__V1_";

/// Why a KZG operation refused its input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KzgError {
    /// An input has the wrong number of bytes.
    #[error("{what} must be {expected} bytes, got {got}")]
    InvalidLength {
        /// Which input.
        what: &'static str,
        /// The length it must have.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A field element (of a blob, or z, or y) is not below the BLS12-381 group order r.
    #[error("a field element is not below the BLS12-381 group order")]
    NonCanonicalFieldElement,
    /// A commitment or proof is not a valid compressed point of the G1 subgroup.
    #[error("a commitment or proof is not a valid G1 point: {0}")]
    InvalidPoint(CurveError),
    /// The batch inputs have different lengths.
    #[error("batch inputs differ in length: {blobs} blobs, {commitments} commitments, {proofs} proofs")]
    BatchLengthMismatch {
        /// Blobs given.
        blobs: usize,
        /// Commitments given.
        commitments: usize,
        /// Proofs given.
        proofs: usize,
    },
    /// The trusted setup text does not parse or a point in it does not decode.
    #[error("invalid trusted setup: {0}")]
    InvalidSetup(&'static str),
    /// The inputs of a cell operation have different lengths.
    #[error("cell inputs differ in length: {what}")]
    CellLengthMismatch {
        /// Which lists, and their lengths.
        what: String,
    },
    /// A cell index is not below 128 (`CELLS_PER_EXT_BLOB`).
    #[error("cell index {0} is out of range (there are 128 cells, 0 to 127)")]
    CellIndexOutOfRange(u64),
    /// A cell index appears twice where each cell must be given once (recovery).
    #[error("cell index {0} is given more than once")]
    DuplicateCellIndex(u64),
    /// Recovery takes its cells in ascending order of index, as the spec asks.
    #[error("cell indices must be in ascending order")]
    CellIndicesNotAscending,
    /// Recovery needs at least half of the 128 cells, and at most all of them.
    #[error("recovery needs between 64 and 128 cells, got {0}")]
    WrongCellCount(usize),
    /// The cells given to recovery are not evaluations of one polynomial of degree < 4096 (the
    /// spec's procedure would silently return the cells of a truncated polynomial, which differ
    /// from the ones given; rust_eth_kzg also refuses).
    #[error("the cells are not all evaluations of one blob's polynomial: they cannot be from the same blob")]
    InconsistentCells,
    /// A setting of [`KzgConfig`] is out of range.
    #[error("invalid KZG configuration: {0}")]
    InvalidConfig(&'static str),
}

/// How blob commitments and proofs run: each is one 4096-point MSM over the Lagrange setup.
/// Every value gives the same results; the default is the measured best (BENCHMARKS.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommitPrecompute {
    /// GLV Pippenger over the prepared setup points, no tables.
    None,
    /// Fixed-base tables ([`zkforge_msm::FixedBaseMany`]: ceil(w / stride) shifted copies of the
    /// 4096 points, w = ceil(255 / window) + 1; window 13, stride 1 is 7.2 MB), built on the
    /// first commitment or proof; the points are split into one list per thread.
    FixedBase {
        /// Window width c in bits (2..=16).
        window: u32,
        /// Windows folded per table copy (>= 1).
        stride: usize,
    },
}

impl Default for CommitPrecompute {
    fn default() -> Self {
        CommitPrecompute::FixedBase { window: 13, stride: 1 }
    }
}

/// How a [`KzgSettings`] runs: threads and the precomputations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KzgConfig {
    /// Threads for MSMs, FK20 and recovery (1 = the calling thread only, no pool).
    pub threads: usize,
    /// FK20's tables for [`KzgSettings::compute_cells_and_kzg_proofs`] (built on first use).
    pub cell_precompute: CellPrecompute,
    /// Tables for blob commitments and proofs (built on first use).
    pub commit_precompute: CommitPrecompute,
    /// Blob verification (`verify_blob_kzg_proof`, `verify_blob_kzg_proof_batch`) decodes the
    /// blob inside the evaluation at the challenge: each element's raw limbs, once checked
    /// canonical, are read as a Montgomery representative (the value times R^-1) and multiplied
    /// by a precomputed w_i R, which gives p_i w_i in one multiplication instead of two (the
    /// conversion into Montgomery form and the product). `false`: decode the blob first, then
    /// evaluate (the reference path). Both give the same answers and the same errors.
    pub fused_blob_decode: bool,
    /// Loading a text or JSON setup ([`KzgSettings::from_text_with`], [`KzgSettings::from_json_with`])
    /// first decodes every hex line to its compressed bytes (each of the right length) and
    /// hashes them; when the SHA-256 equals the mainnet ceremony's ([`MAINNET_SETUP_SHA256`]),
    /// the points are taken from the crate's embedded copy of that ceremony (whose points the
    /// crate's tests decode, subgroup-check and compare with `data/trusted_setup.txt`) instead
    /// of decompressing and subgroup-checking the 8,257 points again (one square root and a
    /// 126-doubling test per G1 point, about 0.35 s on one thread). `false`: always decode and
    /// check every point. Both give the same settings; any other file takes the full path.
    pub known_setup: bool,
    /// How FK20's two 128-point G1 FFTs per blob (and the setup's, when it is not the embedded
    /// copy) take the scalar multiplications of each level: `Auto` (the default) puts them
    /// eight at a time on AVX-512 IFMA lanes where the CPU has them
    /// ([`zkforge_msm::mul_many`]); `OneByOne` takes each alone; `Lanes` forces the lanes for
    /// every group. All give the same proofs.
    pub g1_fft_products: MulManyMethod,
    /// Many compressed G1 points decoded together (the cell batch verification's commitments and
    /// proofs, a setup's G1 points) take their square roots eight at a time on AVX-512 IFMA lanes
    /// where the CPU has them ([`zkforge_msm::ifma::bls12_381_g1_from_compressed_batch_unchecked`]);
    /// `false`: one root at a time. Both give the same points and the same errors.
    pub batch_point_decoding: bool,
    /// With more than one thread, [`KzgSettings::verify_blob_kzg_proof_batch`] also tests its
    /// commitments and proofs for the subgroup inside each thread's runs of blobs (not after
    /// them, on the calling thread), and runs its three 64-bit-scalar MSMs side by side, one
    /// thread each. `false`: the tests after the parallel part, the MSMs one after another.
    /// Both give the same answers and the same errors. Two threads, threaded / after
    /// (`examples/batch_tail.rs`, Zen 4, 2026-12-06, two runs): 0.81-0.85 at 8 blobs, 0.83-0.87
    /// at 16, 0.86-0.97 at 64 (17.6-18.0 ms against 32.9-33.0 ms on one thread).
    pub threaded_batch_tail: bool,
}

impl Default for KzgConfig {
    /// One thread (as c-kzg) and the default precomputations.
    fn default() -> Self {
        Self { threads: 1, cell_precompute: CellPrecompute::default(), commit_precompute: CommitPrecompute::default(), fused_blob_decode: true, known_setup: true, g1_fft_products: MulManyMethod::Auto, batch_point_decoding: true, threaded_batch_tail: true }
    }
}

/// SHA-256 of the mainnet trusted setup's compressed points, in file order: the 4096 G1
/// Lagrange points, the 65 G2 monomial points, the 4096 G1 monomial points (48, 96 and 48 bytes
/// each), as `data/trusted_setup.txt` and the consensus specs' `trusted_setup_4096.json` list
/// them. See [`KzgConfig::known_setup`].
pub const MAINNET_SETUP_SHA256: [u8; 32] = [
    0x60, 0x8a, 0xc7, 0x20, 0xba, 0x55, 0xfc, 0x77, 0xf6, 0x5d, 0x15, 0x53, 0x91, 0x02, 0x0f, 0xc5, 0xb0, 0x50, 0x1d, 0xb2, 0x66, 0xa3, 0xe3, 0x60, 0xe7, 0x34, 0xd6, 0xc0, 0xdb, 0x0d,
    0xfa, 0xe3,
];

impl KzgConfig {
    fn validate(&self) -> Result<(), KzgError> {
        if self.threads == 0 {
            return Err(KzgError::InvalidConfig("threads must be at least 1"));
        }
        if let CellPrecompute::FixedBase { window, stride, .. } = self.cell_precompute {
            if !(2..=16).contains(&window) {
                return Err(KzgError::InvalidConfig("the cell precompute window must be 2 to 16 bits"));
            }
            if stride == 0 {
                return Err(KzgError::InvalidConfig("the cell precompute stride must be at least 1"));
            }
        }
        if let CommitPrecompute::FixedBase { window, stride } = self.commit_precompute {
            if !(2..=16).contains(&window) {
                return Err(KzgError::InvalidConfig("the commit precompute window must be 2 to 16 bits"));
            }
            if stride == 0 {
                return Err(KzgError::InvalidConfig("the commit precompute stride must be at least 1"));
            }
        }
        Ok(())
    }
}

/// The trusted setup, decoded and checked, with what the operations precompute from it.
pub struct KzgSettings {
    /// The setup's G1 points in Lagrange form, prepared for MSMs.
    g1_lagrange: PreparedBases<zkforge_curve::bls12_381::G1Config>,
    /// Their fixed-base tables (one list per thread), built on first use.
    lagrange_tables: OnceLock<zkforge_msm::FixedBaseMany<zkforge_curve::bls12_381::G1Config>>,
    commit_precompute: CommitPrecompute,
    /// The 4096th roots of unity in bit-reversed order.
    roots_brp: Vec<Fr>,
    /// The same roots times R = 2^256 mod r (for the fused blob decode).
    roots_brp_r: Vec<Fr>,
    fused_blob_decode: bool,
    /// The 65 G2 monomial points [tau^i]G2: [tau]G2 verifies openings, [tau^64]G2 cells.
    g2_monomial: Vec<G2Affine>,
    /// The setup's G1 points in monomial form, [tau^i]G1 for i < 4096 - 64 (the degrees a cell
    /// proof's quotient can have).
    g1_monomial: Vec<G1Affine>,
    /// The first 64 of them, prepared (the interpolation term of the cell batch verification).
    g1_monomial_cell: PreparedBases<zkforge_curve::bls12_381::G1Config>,
    /// FK20's tables, built on the first cell proof.
    fk20: OnceLock<fk20::Fk20>,
    /// FK20's transformed setup when it came with the settings (the embedded mainnet copy);
    /// otherwise computed with the tables.
    fk20_columns: Option<Vec<G1Affine>>,
    cell_precompute: CellPrecompute,
    g1_fft_products: MulManyMethod,
    batch_point_decoding: bool,
    threaded_batch_tail: bool,
    /// The blob's domain (4096) and the extended domain (8192), for EIP-7594's cells.
    domain: zkforge_poly::Domain<zkforge_field::bls12_381::FrConfig, 4>,
    ext_domain: zkforge_poly::Domain<zkforge_field::bls12_381::FrConfig, 4>,
    /// Threads for the MSMs (1 = the calling thread).
    threads: usize,
    /// The lines of G2 and [tau]G2 for the opening checks, built on the first verification.
    g2_lines: OnceLock<G2Lines>,
}

impl core::fmt::Debug for KzgSettings {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("KzgSettings").field("g1_points", &self.g1_lagrange.len()).field("threads", &self.threads).finish()
    }
}

fn field(b: &[u8]) -> Result<Fr, KzgError> {
    if b.len() != BYTES_PER_FIELD_ELEMENT {
        return Err(KzgError::InvalidLength { what: "a field element", expected: 32, got: b.len() });
    }
    Fr::from_bytes_be(b).map_err(|_| KzgError::NonCanonicalFieldElement)
}

/// Decodes many compressed G1 points (48 bytes each; the callers check lengths) onto the curve
/// (with `batch_roots`, their square roots eight at a time on IFMA lanes:
/// [`zkforge_msm::ifma::bls12_381_g1_from_compressed_batch_unchecked`]; the same points and
/// errors), then tests them for subgroup membership together
/// ([`zkforge_msm::ifma::bls12_381_g1_in_subgroup_vartime`]: eight at a time on AVX-512 IFMA
/// lanes where the CPU has them, the same answers as `G1Affine::from_compressed` point by
/// point); on the settings' pool when `threads` > 1. Errors: the first point that does not
/// decode, else the first outside the subgroup.
pub(crate) fn g1_many<B: AsRef<[u8]> + Sync>(bs: &[B], threads: usize, batch_roots: bool) -> Result<Vec<G1Affine>, zkforge_curve::CurveError> {
    let chunk = |c: &[B]| -> Result<Vec<G1Affine>, zkforge_curve::CurveError> {
        let pts = if batch_roots {
            zkforge_msm::ifma::bls12_381_g1_from_compressed_batch_unchecked(c).into_iter().collect::<Result<Vec<_>, _>>()?
        } else {
            c.iter().map(|b| G1Affine::from_compressed_unchecked(b.as_ref())).collect::<Result<Vec<_>, _>>()?
        };
        if zkforge_msm::ifma::bls12_381_g1_in_subgroup_vartime(&pts).iter().all(|&ok| ok) {
            Ok(pts)
        } else {
            Err(zkforge_curve::CurveError::NotInSubgroup)
        }
    };
    let parts: Vec<Result<Vec<G1Affine>, _>> = if threads > 1 && bs.len() > 64 {
        use rayon::prelude::*;
        zkforge_msm::pippenger::pool(threads).install(|| bs.par_chunks(bs.len().div_ceil(threads * 4).max(8)).map(chunk).collect())
    } else {
        vec![chunk(bs)]
    };
    // decoding errors anywhere come before subgroup errors, as one point at a time would not
    // promise an order either; each part is all-or-nothing
    let mut out = Vec::with_capacity(bs.len());
    for p in parts {
        out.extend(p?);
    }
    Ok(out)
}

/// A commitment or proof decoded onto the curve, its subgroup test left to the caller.
fn g1_on_curve(b: &[u8]) -> Result<G1Affine, KzgError> {
    commitment_length(b)?;
    G1Affine::from_compressed_unchecked(b).map_err(KzgError::InvalidPoint)
}

fn g1(b: &[u8]) -> Result<G1Affine, KzgError> {
    commitment_length(b)?;
    G1Affine::from_compressed(b).map_err(KzgError::InvalidPoint)
}

fn commitment_length(b: &[u8]) -> Result<(), KzgError> {
    if b.len() != BYTES_PER_COMMITMENT {
        return Err(KzgError::InvalidLength { what: "a commitment or proof", expected: 48, got: b.len() });
    }
    Ok(())
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    let s = s.trim().trim_start_matches("0x");
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok()).collect()
}

/// The blob's field elements (each below r).
pub fn blob_to_polynomial(blob: &[u8]) -> Result<Vec<Fr>, KzgError> {
    if blob.len() != BYTES_PER_BLOB {
        return Err(KzgError::InvalidLength { what: "a blob", expected: BYTES_PER_BLOB, got: blob.len() });
    }
    blob.chunks_exact(32).map(field).collect()
}

/// sha256(data) as an integer mod r (the spec's `hash_to_bls_field`).
fn hash_to_field(data: &[u8]) -> Fr {
    Fr::from_bytes_be_mod_order(&Sha256::digest(data))
}

/// The spec's `compute_challenge`: the Fiat-Shamir evaluation point of a blob and its
/// commitment, hash(FSBLOBVERIFY_V1_ || 4096 as 16 bytes || blob || commitment) mod r.
pub fn compute_challenge(blob: &[u8], commitment: &[u8]) -> Fr {
    let mut h = Sha256::new();
    h.update(FIAT_SHAMIR_PROTOCOL_DOMAIN);
    h.update((FIELD_ELEMENTS_PER_BLOB as u128).to_be_bytes());
    h.update(blob);
    h.update(commitment);
    Fr::from_bytes_be_mod_order(&h.finalize())
}

/// `[tau]G2` of the Ethereum KZG ceremony, compressed: `g2_monomial[1]` of the mainnet setup
/// (what a verifier needs, and all it needs, from the setup).
pub const MAINNET_TAU_G2: &str = "b5bfd7dd8cdeb128843bc287230af38926187075cbfbefa81009a2ce615ac53d2914e5870cb452d2afaaab24f3499f72185cbfee53492714734429b7b38608e23926c911cceceac9a36851477ba4c60b087041de621000edc98edada20c1def2";

/// [`MAINNET_TAU_G2`] decoded (once).
pub fn mainnet_tau_g2() -> &'static G2Affine {
    static TAU: OnceLock<G2Affine> = OnceLock::new();
    TAU.get_or_init(|| G2Affine::from_compressed(&unhex(MAINNET_TAU_G2).expect("hex")).expect("the ceremony's [tau]G2 decodes"))
}

/// The KZG opening check for decoded inputs: does C open to y at z with proof pi, under the
/// setup whose secret is tau? `e(C - [y]G1, -G2) e(pi, [tau - z]G2) = 1`, evaluated as
/// `e(-(C - [y]G1 + [z]pi), G2) e(pi, [tau]G2) = 1` (see `opening_lhs`): one two-term G1 MSM
/// and one two-pair pairing check (variable time: every input is public).
pub fn verify_opening(tau_g2: &G2Affine, commitment: &G1Affine, z: &Fr, y: &Fr, proof: &G1Affine) -> bool {
    let lhs = opening_lhs(commitment, z, y, proof);
    zkforge_pairing::bls12_381::pairing_check(&[(lhs, G2Affine::generator()), (*proof, *tau_g2)])
}

/// The G1 side of an opening check with z moved from G2 to G1: e(C - [y]G1, G2) =
/// e(pi, [tau - z]G2) holds exactly when e(-(C - [y]G1 + [z]pi), G2) e(pi, [tau]G2) = 1, so the
/// check costs one two-term G1 MSM ([y]G1 and [z]pi with shared doublings) instead of a G1 and a
/// G2 multiplication, and both G2 points are fixed (their Miller-loop lines can be precomputed).
/// Returns -(C - [y]G1 + [z]pi).
fn opening_lhs(commitment: &G1Affine, z: &Fr, y: &Fr, proof: &G1Affine) -> G1Affine {
    let yz = zkforge_msm::msm_threads(&[G1Affine::generator(), *proof], &[-*y, *z], 1).expect("two scalars for two points");
    (-(yz + commitment.to_jacobian())).to_affine_vartime()
}

/// [`verify_opening`] with the lines of G2 and [tau]G2 precomputed.
fn verify_opening_prepared(lines: &G2Lines, commitment: &G1Affine, z: &Fr, y: &Fr, proof: &G1Affine) -> bool {
    let lhs = opening_lhs(commitment, z, y, proof);
    zkforge_pairing::bls12_381::pairing_check_prepared(&[(lhs, &lines.g2), (*proof, &lines.tau_g2)])
}

/// The Miller-loop lines of the generator G2 and of [tau]G2: every opening check pairs with
/// these two fixed points.
struct G2Lines {
    g2: zkforge_pairing::bls12_381::G2Prepared,
    tau_g2: zkforge_pairing::bls12_381::G2Prepared,
}

impl G2Lines {
    fn new(tau_g2: &G2Affine) -> Self {
        Self { g2: zkforge_pairing::bls12_381::G2Prepared::new(&G2Affine::generator()), tau_g2: zkforge_pairing::bls12_381::G2Prepared::new(tau_g2) }
    }
}

/// The spec's `verify_kzg_proof` under the mainnet setup, without loading the setup (only
/// `[tau]G2` is needed): the EIP-4844 point-evaluation precompile uses this.
pub fn verify_kzg_proof_mainnet(commitment: &[u8], z: &[u8], y: &[u8], proof: &[u8]) -> Result<bool, KzgError> {
    let (c, z, y, pi) = (g1(commitment)?, field(z)?, field(y)?, g1(proof)?);
    static LINES: OnceLock<G2Lines> = OnceLock::new();
    Ok(verify_opening_prepared(LINES.get_or_init(|| G2Lines::new(mainnet_tau_g2())), &c, &z, &y, &pi))
}

fn compress(p: &G1Projective) -> [u8; 48] {
    p.to_affine_vartime().to_compressed()
}

impl KzgSettings {
    /// The Ethereum mainnet setup, on every core (built on first use from the embedded
    /// fast-load form, see [`KzgSettings::mainnet_with`]).
    pub fn mainnet() -> &'static KzgSettings {
        static MAINNET: OnceLock<KzgSettings> = OnceLock::new();
        MAINNET.get_or_init(|| {
            let threads = std::thread::available_parallelism().map(|t| t.get()).unwrap_or(1);
            Self::mainnet_with_threads(threads)
        })
    }

    /// The mainnet setup with MSMs on exactly `threads` threads (1 = the calling thread only), as
    /// a new instance (for benchmarks and thread-pinned callers).
    pub fn mainnet_with_threads(threads: usize) -> KzgSettings {
        Self::mainnet_with(&KzgConfig { threads: threads.max(1), ..KzgConfig::default() }).expect("the embedded mainnet setup is valid")
    }

    /// A setup in c-kzg's text format: `4096`, `65`, the 4096 G1 Lagrange points, the 65 G2
    /// monomial points, then the 4096 G1 monomial points (for EIP-7594's cell proofs),
    /// compressed and hex-encoded, one per line. Every point is decoded and subgroup-checked
    /// (the mainnet file is recognised by its digest and checked against the embedded copy
    /// instead: [`KzgConfig::known_setup`]); anything missing, extra or invalid is an error.
    /// `threads` is used by the MSMs.
    pub fn from_text(text: &str, threads: usize) -> Result<Self, KzgError> {
        Self::from_text_with(text, &KzgConfig { threads: threads.max(1), ..KzgConfig::default() })
    }

    /// The mainnet setup under an explicit configuration (a new instance), from the crate's
    /// embedded copy: the ceremony's points uncompressed (checked on the curve as they load;
    /// their subgroup membership and equality with `data/trusted_setup.txt` are checked by the
    /// crate's tests) and FK20's transformed setup, so that neither square roots, subgroup checks
    /// nor the setup's G1 FFTs run at start-up.
    ///
    /// ```
    /// use zkforge_kzg::{KzgConfig, KzgSettings};
    /// let kzg = KzgSettings::mainnet_with(&KzgConfig::default()).unwrap();
    /// assert_eq!(kzg.blob_to_kzg_commitment(&vec![0u8; 131072]).unwrap()[0], 0xc0);
    /// ```
    pub fn mainnet_with(config: &KzgConfig) -> Result<KzgSettings, KzgError> {
        config.validate()?;
        let e = embedded::decode(embedded::MAINNET)?;
        Self::from_points(e.lagrange_brp, &e.g2, e.monomial, Some(e.fk20_columns), config)
    }

    /// [`KzgSettings::from_text`] under an explicit configuration. The points are decoded on
    /// `config.threads` threads.
    pub fn from_text_with(text: &str, config: &KzgConfig) -> Result<Self, KzgError> {
        config.validate()?;
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
        let n1: usize = lines.next().and_then(|l| l.parse().ok()).ok_or(KzgError::InvalidSetup("the first line is not the G1 count"))?;
        let n2: usize = lines.next().and_then(|l| l.parse().ok()).ok_or(KzgError::InvalidSetup("the second line is not the G2 count"))?;
        if n1 != FIELD_ELEMENTS_PER_BLOB || n2 != FIELD_ELEMENTS_PER_CELL + 1 {
            return Err(KzgError::InvalidSetup("the setup must have 4096 G1 points and 65 G2 points"));
        }
        let lagrange: Vec<&str> = lines.by_ref().take(n1).collect();
        let g2: Vec<&str> = lines.by_ref().take(n2).collect();
        let mono: Vec<&str> = lines.by_ref().take(FIELD_ELEMENTS_PER_BLOB).collect();
        if lines.next().is_some() {
            return Err(KzgError::InvalidSetup("text after the last G1 monomial point"));
        }
        Self::from_hex(&lagrange, &g2, &mono, config)
    }

    /// A setup in the consensus specs' JSON format (`trusted_setup_4096.json`: the lists
    /// `g1_monomial`, `g1_lagrange` and `g2_monomial` of 0x-prefixed compressed points), every
    /// point decoded and subgroup-checked on `config.threads` threads (or the mainnet setup
    /// recognised by its digest, as in [`KzgSettings::from_text`]).
    pub fn from_json_with(json: &str, config: &KzgConfig) -> Result<Self, KzgError> {
        #[derive(serde::Deserialize)]
        struct Setup {
            g1_monomial: Vec<String>,
            g1_lagrange: Vec<String>,
            g2_monomial: Vec<String>,
        }
        config.validate()?;
        let s: Setup = serde_json::from_str(json).map_err(|_| KzgError::InvalidSetup("not JSON with the lists g1_monomial, g1_lagrange and g2_monomial"))?;
        fn refs(v: &[String]) -> Vec<&str> {
            v.iter().map(String::as_str).collect()
        }
        Self::from_hex(&refs(&s.g1_lagrange), &refs(&s.g2_monomial), &refs(&s.g1_monomial), config)
    }

    /// Settings from hex-encoded compressed points: 4096 G1 Lagrange points (natural order),
    /// 65 G2 monomial points, 4096 G1 monomial points; all decoded and subgroup-checked.
    fn from_hex(lagrange: &[&str], g2: &[&str], mono: &[&str], config: &KzgConfig) -> Result<Self, KzgError> {
        use sha2::{Digest, Sha256};
        if lagrange.len() != FIELD_ELEMENTS_PER_BLOB || g2.len() != FIELD_ELEMENTS_PER_CELL + 1 || mono.len() != FIELD_ELEMENTS_PER_BLOB {
            return Err(KzgError::InvalidSetup("the setup must have 4096 G1 Lagrange points, 65 G2 points and 4096 G1 monomial points"));
        }
        let bytes = |v: &[&str], len: usize, what: &'static str| -> Result<Vec<Vec<u8>>, KzgError> {
            v.iter().map(|h| unhex(h).filter(|b| b.len() == len).ok_or(KzgError::InvalidSetup(what))).collect()
        };
        let lagrange = bytes(lagrange, 48, "a G1 point is not 48 bytes of hex")?;
        let g2 = bytes(g2, 96, "a G2 point is not 96 bytes of hex")?;
        let mono = bytes(mono, 48, "a G1 point is not 48 bytes of hex")?;
        if config.known_setup {
            let mut h = Sha256::new();
            lagrange.iter().chain(&g2).chain(&mono).for_each(|b| h.update(b));
            if h.finalize().as_slice() == MAINNET_SETUP_SHA256 {
                return Self::mainnet_with(config);
            }
        }
        let g1_list = |v: &[Vec<u8>]| -> Result<Vec<G1Affine>, KzgError> { g1_many(v, config.threads, config.batch_point_decoding).map_err(|_| KzgError::InvalidSetup("a G1 point does not decode to the subgroup")) };
        let mut g1s = g1_list(&lagrange)?;
        let mut mono = g1_list(&mono)?;
        // the 65 G2 points: decoded on the twist, then one batched subgroup test (eight at a
        // time on IFMA lanes where the CPU has them)
        let g2_bad = KzgError::InvalidSetup("a G2 point does not decode to the subgroup");
        let g2s = g2.iter().map(|b| G2Affine::from_compressed_unchecked(b).map_err(|_| g2_bad.clone())).collect::<Result<Vec<_>, _>>()?;
        if zkforge_curve::bls12_381::g2_in_subgroup_batch_vartime(&g2s).contains(&false) {
            return Err(g2_bad);
        }
        // the file lists the Lagrange points in natural order; blobs are evaluations over the
        // bit-reversed domain, so the i-th blob element pairs with the bit-reversed i-th point
        zkforge_poly::bit_reverse_permute(&mut g1s);
        // only the first 4032 monomial points are used (by cell proofs); all were checked
        mono.truncate(FIELD_ELEMENTS_PER_BLOB - FIELD_ELEMENTS_PER_CELL);
        Self::from_points(g1s, &g2s, mono, None, config)
    }

    /// Settings from decoded points: the Lagrange points in bit-reversed order, the 65 G2
    /// monomial points, the first 4032 G1 monomial points and, when known, FK20's transformed
    /// setup (position-major, 128 x 64).
    fn from_points(g1s: Vec<G1Affine>, g2s: &[G2Affine], mono: Vec<G1Affine>, fk20_columns: Option<Vec<G1Affine>>, config: &KzgConfig) -> Result<Self, KzgError> {
        if g1s.len() != FIELD_ELEMENTS_PER_BLOB || g2s.len() != FIELD_ELEMENTS_PER_CELL + 1 || mono.len() != FIELD_ELEMENTS_PER_BLOB - FIELD_ELEMENTS_PER_CELL {
            return Err(KzgError::InvalidSetup("wrong number of points"));
        }
        if mono[0] != G1Affine::generator() {
            return Err(KzgError::InvalidSetup("the first G1 monomial point is not the generator"));
        }
        if g2s[0] != G2Affine::generator() {
            return Err(KzgError::InvalidSetup("the first G2 point is not the generator"));
        }
        // w = 7^((r - 1) / 4096), the spec's root of unity; its powers in bit-reversed order
        // FFT layers run in parallel (on the settings' pool, see `on_pool`) only with threads
        let fft = zkforge_poly::FftConfig { parallel_from: if config.threads > 1 { 1 << 10 } else { usize::MAX } };
        let domain = zkforge_poly::Domain::<zkforge_field::bls12_381::FrConfig, 4>::with_config(FIELD_ELEMENTS_PER_BLOB, fft).map_err(|_| KzgError::InvalidSetup("no 4096-element domain"))?;
        let mut roots_brp = domain.elements();
        zkforge_poly::bit_reverse_permute(&mut roots_brp);
        // R mod r as a field element: ONE's Montgomery limbs read as an integer.
        let r_mont = Fr::from_limbs(Fr::ONE.to_mont_limbs()).map_err(|_| KzgError::InvalidSetup("R mod r is canonical"))?;
        let roots_brp_r = roots_brp.iter().map(|w| *w * r_mont).collect();
        let ext_domain = zkforge_poly::Domain::with_config(FIELD_ELEMENTS_PER_EXT_BLOB, fft).map_err(|_| KzgError::InvalidSetup("no 8192-element domain"))?;
        Ok(Self {
            g1_lagrange: PreparedBases::new(&g1s),
            lagrange_tables: OnceLock::new(),
            commit_precompute: config.commit_precompute,
            g1_monomial_cell: PreparedBases::new(&mono[..FIELD_ELEMENTS_PER_CELL]),
            g1_monomial: mono,
            g2_monomial: g2s.to_vec(),
            roots_brp,
            roots_brp_r,
            fused_blob_decode: config.fused_blob_decode,
            domain,
            ext_domain,
            fk20: OnceLock::new(),
            g2_lines: OnceLock::new(),
            fk20_columns,
            cell_precompute: config.cell_precompute,
            g1_fft_products: config.g1_fft_products,
            batch_point_decoding: config.batch_point_decoding,
            threaded_batch_tail: config.threaded_batch_tail,
            threads: config.threads,
        })
    }

    /// `f` on the settings' pool when they have threads (rayon work inside it, such as the FFT
    /// layers, then runs there), else on the calling thread.
    pub(crate) fn on_pool<T: Send>(&self, f: impl FnOnce() -> T + Send) -> T {
        if self.threads > 1 {
            zkforge_msm::pippenger::pool(self.threads).install(f)
        } else {
            f()
        }
    }

    /// sum_i poly[i] L_i over the Lagrange setup (4096 scalars).
    fn commit(&self, poly: &[Fr]) -> G1Projective {
        let CommitPrecompute::FixedBase { window, stride } = self.commit_precompute else {
            return self.g1_lagrange.msm(poly, self.threads).expect("4096 scalars for 4096 points and a positive thread count");
        };
        // one list per thread, the last padded with the identity (and zero scalars)
        let per = FIELD_ELEMENTS_PER_BLOB.div_ceil(self.threads);
        let tables = self.lagrange_tables.get_or_init(|| {
            let lists: Vec<Vec<G1Affine>> = self
                .g1_lagrange
                .points()
                .chunks(per)
                .map(|c| {
                    let mut v = c.to_vec();
                    v.resize(per, G1Affine::IDENTITY);
                    v
                })
                .collect();
            zkforge_msm::FixedBaseMany::new(&lists, window, stride, 256).expect("window and stride checked by KzgConfig")
        });
        let lists = FIELD_ELEMENTS_PER_BLOB.div_ceil(per);
        // zero scalars for the padding, copied only when there is any (threads not dividing 4096)
        let padded: Vec<Fr>;
        let scalars = if lists * per == poly.len() {
            poly
        } else {
            padded = poly.iter().copied().chain(core::iter::repeat(Fr::ZERO)).take(lists * per).collect();
            &padded
        };
        let parts = tables.msm_many(scalars, self.threads.min(lists)).expect("scalars sized to the tables and a positive thread count");
        parts.iter().fold(G1Projective::IDENTITY, |acc, p| acc.add_vartime(p))
    }

    /// Builds the commitment tables now (they are otherwise built by the first commitment or
    /// proof) and returns their size in bytes (0 without them).
    pub fn prepare_commitments(&self) -> usize {
        if let CommitPrecompute::FixedBase { .. } = self.commit_precompute {
            self.commit(&[Fr::ZERO; FIELD_ELEMENTS_PER_BLOB]);
        }
        self.lagrange_tables.get().map_or(0, zkforge_msm::FixedBaseMany::memory_bytes)
    }

    /// The spec's `blob_to_kzg_commitment`.
    pub fn blob_to_kzg_commitment(&self, blob: &[u8]) -> Result<[u8; 48], KzgError> {
        Ok(compress(&self.commit(&blob_to_polynomial(blob)?)))
    }

    /// p(z) for p in evaluation form (the spec's `evaluate_polynomial_in_evaluation_form`).
    pub fn evaluate(&self, poly: &[Fr], z: &Fr) -> Fr {
        let zn = z.pow_vartime(&[FIELD_ELEMENTS_PER_BLOB as u64]);
        if let Some(i) = self.root_index(z, &zn) {
            return poly[i];
        }
        let len = poly.len().min(self.roots_brp.len());
        self.evaluate_off_domain(z, &zn, &poly[..len], &self.roots_brp[..len])
    }

    /// The position of z among the roots of unity, if it is one, given zn = z^4096 (which the
    /// evaluation needs anyway): zn = 1 is tested before a search of 4096 elements.
    fn root_index(&self, z: &Fr, zn: &Fr) -> Option<usize> {
        if *zn != Fr::ONE {
            return None;
        }
        self.roots_brp.iter().position(|w| w == z)
    }

    /// The blob's polynomial at z, decoded inside the evaluation (`KzgConfig::fused_blob_decode`):
    /// the same value and errors as `evaluate(&blob_to_polynomial(blob)?, z)`.
    fn evaluate_blob(&self, blob: &[u8], z: &Fr) -> Result<Fr, KzgError> {
        if !self.fused_blob_decode {
            return Ok(self.evaluate(&blob_to_polynomial(blob)?, z));
        }
        if blob.len() != BYTES_PER_BLOB {
            return Err(KzgError::InvalidLength { what: "a blob", expected: BYTES_PER_BLOB, got: blob.len() });
        }
        // Each element's big-endian limbs, checked below r, as the Montgomery representative
        // of (element) R^-1; times w_i R that is element * w_i.
        let raw: Vec<Fr> = blob
            .chunks_exact(32)
            .map(|c| {
                let l: [u64; 4] = core::array::from_fn(|i| u64::from_be_bytes(c[32 - 8 * (i + 1)..32 - 8 * i].try_into().expect("8 bytes")));
                Fr::from_mont_limbs(l).map_err(|_| KzgError::NonCanonicalFieldElement)
            })
            .collect::<Result<_, _>>()?;
        let zn = z.pow_vartime(&[FIELD_ELEMENTS_PER_BLOB as u64]);
        if let Some(i) = self.root_index(z, &zn) {
            return field(&blob[32 * i..32 * i + 32]);
        }
        Ok(self.evaluate_off_domain(z, &zn, &raw, &self.roots_brp_r))
    }

    /// sum_i v_i w_i / (z - w_i) (zn - 1) / N for z off the domain (zn = z^N), with
    /// v_i w_i given as `a[i] * b[i]` (the values and the roots, or the fused decode's raw
    /// values and roots times R).
    fn evaluate_off_domain(&self, z: &Fr, zn: &Fr, a: &[Fr], b: &[Fr]) -> Fr {
        // sum_i p_i w_i / (z - w_i) as one fraction num / den, accumulated in LANES independent
        // lanes (so the multiplications of consecutive terms do not wait on each other):
        // num' = num d_i + den p_i w_i (one fused sum of products), den' = den d_i; then one
        // inversion. About 3.3 multiplications a term, against 5 for a batch inversion of the
        // d_i followed by the products, and no 4096-element scratch vectors.
        const LANES: usize = 4;
        let mut num = [Fr::ZERO; LANES];
        let mut den = [Fr::ONE; LANES];
        let len = a.len().min(b.len());
        let (poly, roots, rw) = (&a[..len], &self.roots_brp[..len], &b[..len]);
        let full = len - len % LANES;
        for ((chunk_p, chunk_w), chunk_b) in poly[..full].chunks_exact(LANES).zip(roots[..full].chunks_exact(LANES)).zip(rw[..full].chunks_exact(LANES)) {
            for k in 0..LANES {
                let d = *z - chunk_w[k];
                let pw = chunk_p[k] * chunk_b[k];
                num[k] = Fr::sum_of_products2(&num[k], &den[k], &d, &pw);
                den[k] *= d;
            }
        }
        for ((p, w), bw) in poly[full..].iter().zip(&roots[full..]).zip(&rw[full..]) {
            let d = *z - *w;
            num[0] = Fr::sum_of_products2(&num[0], &den[0], &d, &(*p * *bw));
            den[0] *= d;
        }
        // num0/den0 + num1/den1 = (num0 den1 + num1 den0) / (den0 den1), pairwise
        let (mut n_acc, mut d_acc) = (num[0], den[0]);
        for k in 1..LANES {
            n_acc = Fr::sum_of_products2(&n_acc, &num[k], &den[k], &d_acc);
            d_acc *= den[k];
        }
        let d_inv = Option::<Fr>::from(d_acc.invert()).expect("z is no root of unity, so no factor z - w_i is zero");
        let sum = n_acc * d_inv;
        let n_inv = Option::<Fr>::from(Fr::from_u64(FIELD_ELEMENTS_PER_BLOB as u64).invert()).expect("4096 is invertible");
        sum * (*zn - Fr::ONE) * n_inv
    }

    /// The quotient (p(X) - y) / (X - z) in evaluation form, committed: the proof for (z, y).
    fn proof_impl(&self, poly: &[Fr], z: &Fr) -> (G1Projective, Fr) {
        let y = self.evaluate(poly, z);
        let mut den: Vec<Fr> = self.roots_brp.iter().map(|w| *w - *z).collect();
        let hit = den.iter().position(|d| bool::from(d.is_zero()));
        if let Some(m) = hit {
            den[m] = Fr::ONE; // replaced below
        }
        Fr::batch_invert(&mut den);
        let mut q: Vec<Fr> = poly.iter().zip(&den).map(|(p, d)| (*p - y) * *d).collect();
        if let Some(m) = hit {
            // the spec's compute_quotient_eval_within_domain: q(w_m) = sum_{i != m} (p_i - y) w_i / (w_m (w_m - w_i))
            let wm = self.roots_brp[m];
            let mut dd: Vec<Fr> = self.roots_brp.iter().enumerate().map(|(i, w)| if i == m { Fr::ONE } else { wm * (wm - *w) }).collect();
            Fr::batch_invert(&mut dd);
            let mut acc = Fr::ZERO;
            for (i, ((p, w), d)) in poly.iter().zip(&self.roots_brp).zip(&dd).enumerate() {
                if i != m {
                    acc += (*p - y) * *w * *d;
                }
            }
            q[m] = acc;
        }
        (self.commit(&q), y)
    }

    /// The spec's `compute_kzg_proof`: (proof, y = p(z)) for a blob and a point z (32 bytes,
    /// big-endian, below r).
    pub fn compute_kzg_proof(&self, blob: &[u8], z: &[u8]) -> Result<([u8; 48], [u8; 32]), KzgError> {
        let poly = blob_to_polynomial(blob)?;
        let z = field(z)?;
        let (proof, y) = self.proof_impl(&poly, &z);
        let mut yb = [0u8; 32];
        yb.copy_from_slice(y.to_bytes_be().as_ref());
        Ok((compress(&proof), yb))
    }

    /// The spec's `compute_blob_kzg_proof`: the proof at the blob's Fiat-Shamir challenge.
    pub fn compute_blob_kzg_proof(&self, blob: &[u8], commitment: &[u8]) -> Result<[u8; 48], KzgError> {
        g1(commitment)?;
        let poly = blob_to_polynomial(blob)?;
        let z = compute_challenge(blob, commitment);
        Ok(compress(&self.proof_impl(&poly, &z).0))
    }

    fn verify_impl(&self, c: &G1Affine, z: &Fr, y: &Fr, proof: &G1Affine) -> bool {
        verify_opening_prepared(self.g2_lines(), c, z, y, proof)
    }

    fn g2_lines(&self) -> &G2Lines {
        self.g2_lines.get_or_init(|| G2Lines::new(&self.g2_monomial[1]))
    }

    /// The spec's `verify_kzg_proof`: does the commitment open to y at z with this proof?
    pub fn verify_kzg_proof(&self, commitment: &[u8], z: &[u8], y: &[u8], proof: &[u8]) -> Result<bool, KzgError> {
        let (c, z, y, pi) = (g1(commitment)?, field(z)?, field(y)?, g1(proof)?);
        Ok(self.verify_impl(&c, &z, &y, &pi))
    }

    /// The spec's `verify_blob_kzg_proof`.
    pub fn verify_blob_kzg_proof(&self, blob: &[u8], commitment: &[u8], proof: &[u8]) -> Result<bool, KzgError> {
        // The challenge hashes the bytes, so it comes first; the blob's errors still come
        // before the points' (as the spec's order of decoding has them).
        let z = compute_challenge(blob, commitment);
        let y = self.evaluate_blob(blob, &z)?;
        let (c, pi) = (g1(commitment)?, g1(proof)?);
        Ok(self.verify_impl(&c, &z, &y, &pi))
    }

    /// The spec's `verify_blob_kzg_proof_batch`: every blob's proof at once, by the spec's
    /// random linear combination with r from hashing all inputs:
    /// `e(sum r^i pi_i, -[tau]G2) e(sum r^i (C_i - [y_i]G1 + [z_i] pi_i), G2) = 1`.
    pub fn verify_blob_kzg_proof_batch(&self, blobs: &[&[u8]], commitments: &[&[u8]], proofs: &[&[u8]]) -> Result<bool, KzgError> {
        if blobs.len() != commitments.len() || blobs.len() != proofs.len() {
            return Err(KzgError::BatchLengthMismatch { blobs: blobs.len(), commitments: commitments.len(), proofs: proofs.len() });
        }
        if blobs.is_empty() {
            return Ok(true);
        }
        let n = blobs.len();
        // per blob: decode onto the curve, challenge, evaluation; the subgroup tests of a run of
        // commitments and proofs then go together (eight at a time on IFMA lanes)
        let one = |i: usize| -> Result<(G1Affine, G1Affine, Fr, Fr), KzgError> {
            let z = compute_challenge(blobs[i], commitments[i]);
            let y = self.evaluate_blob(blobs[i], &z)?;
            let (c, pi) = (g1_on_curve(commitments[i])?, g1_on_curve(proofs[i])?);
            Ok((c, pi, z, y))
        };
        let in_subgroup = |e: &[(G1Affine, G1Affine, Fr, Fr)]| -> bool {
            let both: Vec<G1Affine> = e.iter().map(|e| e.0).chain(e.iter().map(|e| e.1)).collect();
            !zkforge_msm::ifma::bls12_381_g1_in_subgroup_vartime(&both).contains(&false)
        };
        let threaded_tail = self.threads > 1 && self.threaded_batch_tail;
        let (each, in_g1): (Vec<(G1Affine, G1Affine, Fr, Fr)>, bool) = if threaded_tail {
            // runs of four or more blobs (whole lane groups of points), about two per thread;
            // every run's decoding errors come before any run's subgroup failure, as on one thread
            use rayon::prelude::*;
            let len = n.div_ceil(2 * self.threads).next_multiple_of(4);
            let runs: Vec<Result<(Vec<_>, bool), KzgError>> = self.on_pool(|| {
                (0..n.div_ceil(len))
                    .into_par_iter()
                    .map(|k| {
                        let e = (k * len..n.min((k + 1) * len)).map(one).collect::<Result<Vec<_>, _>>()?;
                        let ok = in_subgroup(&e);
                        Ok((e, ok))
                    })
                    .collect()
            });
            let mut each = Vec::with_capacity(n);
            let mut ok = true;
            for run in runs {
                let (e, o) = run?;
                each.extend(e);
                ok &= o;
            }
            (each, ok)
        } else {
            let each: Vec<_> = if self.threads > 1 {
                use rayon::prelude::*;
                self.on_pool(|| (0..n).into_par_iter().map(one).collect::<Result<_, _>>())?
            } else {
                (0..n).map(one).collect::<Result<_, _>>()?
            };
            let ok = in_subgroup(&each);
            (each, ok)
        };
        if !in_g1 {
            return Err(KzgError::InvalidPoint(zkforge_curve::CurveError::NotInSubgroup));
        }
        let cs: Vec<G1Affine> = each.iter().map(|e| e.0).collect();
        let pis: Vec<G1Affine> = each.iter().map(|e| e.1).collect();
        let zs: Vec<Fr> = each.iter().map(|e| e.2).collect();
        let ys: Vec<Fr> = each.iter().map(|e| e.3).collect();
        if n == 1 {
            return Ok(self.verify_impl(&cs[0], &zs[0], &ys[0], &pis[0]));
        }
        // r = hash(RCKZGBATCH___V1_ || 4096 (8 bytes) || n (8 bytes) || (C_i || z_i || y_i || pi_i)...)
        let mut data = Vec::with_capacity(32 + n * 160);
        data.extend_from_slice(RANDOM_CHALLENGE_KZG_BATCH_DOMAIN);
        data.extend_from_slice(&(FIELD_ELEMENTS_PER_BLOB as u64).to_be_bytes());
        data.extend_from_slice(&(n as u64).to_be_bytes());
        for i in 0..n {
            data.extend_from_slice(commitments[i]);
            data.extend_from_slice(zs[i].to_bytes_be().as_ref());
            data.extend_from_slice(ys[i].to_bytes_be().as_ref());
            data.extend_from_slice(proofs[i]);
        }
        let r = hash_to_field(&data);
        let mut rs = Vec::with_capacity(n);
        let mut acc = Fr::ONE;
        for _ in 0..n {
            rs.push(acc);
            acc *= r;
        }
        let rz: Vec<Fr> = rs.iter().zip(&zs).map(|(r, z)| *r * *z).collect();
        let msm = |p: &[G1Affine], k: &[Fr], threads: usize| zkforge_msm::msm_threads(p, k, threads).expect("lengths match");
        let (proof_lincomb, (proof_z_lincomb, c_lincomb)) = if threaded_tail {
            // the three MSMs side by side, each on one thread
            self.on_pool(|| rayon::join(|| msm(&pis, &rs, 1), || rayon::join(|| msm(&pis, &rz, 1), || msm(&cs, &rs, 1))))
        } else {
            (msm(&pis, &rs, self.threads), (msm(&pis, &rz, self.threads), msm(&cs, &rs, self.threads)))
        };
        let ry: Fr = rs.iter().zip(&ys).fold(Fr::ZERO, |s, (r, y)| s + *r * *y);
        let rhs = (c_lincomb - G1Projective::generator().mul_limbs_vartime(&ry.to_limbs()) + proof_z_lincomb).to_affine_vartime();
        // e(PL, -[tau]G2) e(rhs, G2) = e(-PL, [tau]G2) e(rhs, G2), on the precomputed lines
        let lines = self.g2_lines();
        Ok(zkforge_pairing::bls12_381::pairing_check_prepared(&[((-proof_lincomb).to_affine_vartime(), &lines.tau_g2), (rhs, &lines.g2)]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fused decode's evaluation at points on and off the domain equals decode-then-evaluate
    /// (the challenge never lands on the domain in practice, so only this reaches that branch).
    #[test]
    fn evaluate_blob_on_and_off_the_domain() {
        let kzg = KzgSettings::mainnet();
        let blob: Vec<u8> = (0..4096u64).flat_map(|i| Fr::from_u64(i * i + 3).to_bytes_be().as_ref().to_vec()).collect();
        let poly = blob_to_polynomial(&blob).unwrap();
        for z in [kzg.roots_brp[0], kzg.roots_brp[5], kzg.roots_brp[4095], Fr::from_u64(12345), -Fr::ONE - Fr::ONE] {
            assert_eq!(kzg.evaluate_blob(&blob, &z).unwrap(), kzg.evaluate(&poly, &z));
        }
        assert_eq!(kzg.evaluate_blob(&blob, &kzg.roots_brp[5]).unwrap(), Fr::from_u64(28));
    }
}

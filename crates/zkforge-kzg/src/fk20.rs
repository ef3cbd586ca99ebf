//! FK20: all 128 cell proofs of a blob at once (Feist and Khovratovich, "Fast amortized KZG
//! proofs", ePrint 2023/033, section 3; the consensus specs' `compute_cells_and_kzg_proofs`).
//!
//! The polynomial f has n = 4096 coefficients; a cell is l = 64 points, the coset h_k <w_64> of
//! the 8192-point domain, whose vanishing polynomial is X^l - z_k with z_k = h_k^l a 128th root of
//! unity. The proof for cell k commits to the quotient q_k = floor(f / (X^l - z_k)). Cut f into
//! m = n / l blocks, f = sum_j X^(lj) F_j. Then
//!
//!   [q_z] = sum_{d=0}^{m-2} z^d H_d,  H_d = sum_{i=0}^{m-2-d} sum_{t<l} f_{l(i+d+1)+t} [tau^(li+t)],
//!
//! so the 128 proofs are one 128-point G1 FFT of (H_0, ..., H_{m-2}, 0, ...). For each offset t,
//! (H_d) is a Toeplitz product of the setup column s_t = ([tau^(li+t)])_i with the coefficient
//! column c_t = (f_(lj+t))_j: a linear convolution of length < 2m = 128, so a circular one of
//! size 128. With the setup columns transformed once (64 G1 FFTs, the precomputation), each blob
//! costs 64 scalar FFTs of size 128, 128 MSMs of 64 points (position p sums the 64 columns'
//! p-th entries), one inverse and one forward 128-point G1 FFT.
//!
//! Cost per blob: the 128 MSMs dominate (8192 scalar-point products), then the two G1 FFTs
//! (about 320 variable-time scalar multiplications each, eight at a time on AVX-512 IFMA lanes
//! where the CPU has them: `g1_fft`). The knob [`CellPrecompute`] trades
//! memory for the MSMs: no tables (the 8192 transformed points once, all positions in one
//! bucket pass), or fixed-base tables (window c, stride s: ceil(w / s) shifted copies of every point,
//! w = ceil(255 / c) + 1 windows), either one MSM per position with XYZZ buckets
//! ([`zkforge_msm::FixedBaseMsm`]) or the 128 positions interleaved in one batch-affine bucket
//! pass ([`zkforge_msm::FixedBaseMany`]: each position alone has too few points per bucket for
//! batch-affine additions to pay).

use rayon::prelude::*;
use zkforge_curve::bls12_381::{G1Affine, G1Config, G1Projective};
use zkforge_field::bls12_381::{Fr, FrConfig};
use zkforge_msm::mul_many::MulManyMethod;
use zkforge_msm::{Buckets, FixedBaseMany, FixedBaseMsm};
use zkforge_poly::Domain;

use crate::g1_fft;

/// Coefficients per cell (l).
const L: usize = crate::FIELD_ELEMENTS_PER_CELL;
/// Blocks of l coefficients in a blob's polynomial (m).
const M: usize = crate::FIELD_ELEMENTS_PER_BLOB / L;
/// The circulant size 2m, which is also the number of cells.
const K: usize = 2 * M;

/// How much FK20 precomputes for the 128 per-blob MSMs (memory against speed). Every value
/// gives the same proofs; the default is the measured best (BENCHMARKS.md, issue 18).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellPrecompute {
    /// No tables: the 128 x 64 transformed setup points once, the 128 positions in one
    /// batch-affine bucket pass with 5-bit windows ([`zkforge_msm::FixedBaseMany`] with a single
    /// copy; 1.8 MB with its 52-bit lane copy). It measured 0.86x the time of a Pippenger MSM
    /// per position (with the GLV split), which was this value's first form (BENCHMARKS.md,
    /// 2026-12-01 Intel section); [`CellPrecompute::FixedBase`] with `interleaved: false`
    /// and a stride of at least the window count is the per-position form without tables.
    None,
    /// Fixed-base tables per position: window `window` (2..=16) and stride `stride` (>= 1);
    /// memory 8192 x ceil(w / stride) affine points (96 bytes each), w the window count.
    FixedBase {
        /// Window width c in bits.
        window: u32,
        /// Windows folded per table copy (1 = the most memory and the fewest doublings).
        stride: usize,
        /// All positions in one batch-affine bucket pass (true), or one XYZZ-bucket MSM per
        /// position (false).
        interleaved: bool,
    },
}

impl Default for CellPrecompute {
    fn default() -> Self {
        CellPrecompute::FixedBase { window: 8, stride: 1, interleaved: true }
    }
}

/// Additions per inversion in the interleaved pass.
const BATCH: usize = 256;

/// The window of [`CellPrecompute::None`]'s single-copy pass (the best of 5..=10 in
/// `examples/cell_precompute.rs`: 64 points per position leave few per bucket above 5 bits).
const NONE_WINDOW: u32 = 5;
/// A stride of at least every window: one copy of the points, no tables.
const NONE_STRIDE: usize = 64;

/// The 128 position MSMs, as the knob asks.
enum Positions {
    PerPosition(Vec<FixedBaseMsm<G1Config>>),
    Interleaved(FixedBaseMany<G1Config>),
}

impl Positions {
    /// Result p: sum_t scalars[p * l + t] FFT(s_t)[p].
    fn msms(&self, scalars: &[Fr], threads: usize) -> Vec<G1Projective> {
        // one MSM per position, the positions spread over the threads
        let each = |one: &(dyn Fn(&[Fr], usize) -> G1Projective + Sync)| {
            let at = |p: usize| one(&scalars[p * L..(p + 1) * L], p);
            run(threads, || (0..K).into_par_iter().map(at).collect(), || (0..K).map(at).collect())
        };
        match self {
            Positions::PerPosition(v) => each(&|s, p| v[p].msm(s).expect("64 scalars for 64 points")),
            Positions::Interleaved(t) => t.msm_many(scalars, threads).expect("128 x 64 scalars and a positive thread count"),
        }
    }

    fn memory_bytes(&self) -> usize {
        match self {
            Positions::PerPosition(v) => v.iter().map(FixedBaseMsm::memory_bytes).sum(),
            Positions::Interleaved(t) => t.memory_bytes(),
        }
    }
}

/// FK20's precomputed setup for the mainnet parameters (n = 4096, l = 64).
pub(crate) struct Fk20 {
    /// Position p: the points FFT(s_t)[p] for t < l.
    positions: Positions,
    /// Powers of w_128 and of its inverse (n/2 each) for the G1 FFTs.
    tw: Vec<Fr>,
    tw_inv: Vec<Fr>,
    /// The 128-point scalar domain (same root w_128 = w_8192^64).
    domain: Domain<FrConfig, 4>,
}

impl Fk20 {
    /// FK20's transformed setup: position-major, entry p * l + t is FFT(s_t)[p], where
    /// s_t = ([tau^(l i + t)]G1)_{i < m - 1} padded to 128. `monomial` holds [tau^i]G1 for
    /// i < n - l; `w128` is the primitive 128th root of unity of the cells' cosets (w_8192^64);
    /// `fft_products` is how the FFTs take their products.
    pub(crate) fn columns(monomial: &[G1Affine], w128: &Fr, threads: usize, fft_products: MulManyMethod) -> Vec<G1Affine> {
        assert_eq!(monomial.len(), crate::FIELD_ELEMENTS_PER_BLOB - L, "FK20 needs the n - l monomial points");
        let tw = g1_fft::twiddles(w128, K);
        let column = |t: usize| {
            let mut s: Vec<G1Projective> = (0..K).map(|i| if i < M - 1 { monomial[L * i + t].to_jacobian() } else { G1Projective::IDENTITY }).collect();
            g1_fft::fft(&mut s, &tw, false, fft_products);
            s
        };
        let columns: Vec<Vec<G1Projective>> = run(threads, || (0..L).into_par_iter().map(column).collect(), || (0..L).map(column).collect());
        // position-major: all[p * l + t] = columns[t][p], normalised together
        let mut all = Vec::with_capacity(K * L);
        for p in 0..K {
            all.extend(columns.iter().map(|c| c[p]));
        }
        G1Projective::batch_to_affine(&all)
    }

    /// The tables for the transformed setup `affine` ([`Fk20::columns`]).
    pub(crate) fn new(affine: &[G1Affine], w128: &Fr, precompute: CellPrecompute, threads: usize) -> Self {
        assert_eq!(affine.len(), K * L, "FK20 needs 128 x 64 transformed points");
        let domain = Domain::new(K).expect("a 128-point domain exists in Fr");
        assert_eq!(domain.generator(), *w128, "the 128-point domain's root is w_8192^64");
        let tw = g1_fft::twiddles(w128, K);
        let tw_inv = g1_fft::twiddles(&w128.invert_vartime().expect("a root of unity is non-zero"), K);
        // no tables is the interleaved pass over a single copy
        let (window, stride, interleaved) = match precompute {
            CellPrecompute::None => (NONE_WINDOW, NONE_STRIDE, true),
            CellPrecompute::FixedBase { window, stride, interleaved } => (window, stride, interleaved),
        };
        let positions = if interleaved {
            let lists: Vec<Vec<G1Affine>> = affine.chunks(L).map(<[G1Affine]>::to_vec).collect();
            Positions::Interleaved(FixedBaseMany::new(&lists, window, stride, BATCH).expect("window and stride checked by KzgConfig"))
        } else {
            let prep = |b: &[G1Affine]| FixedBaseMsm::with_params(b, window, stride, Buckets::Xyzz).expect("window and stride checked by KzgConfig");
            Positions::PerPosition(run(threads, || affine.par_chunks(L).map(prep).collect(), || affine.chunks(L).map(prep).collect()))
        };
        Self { positions, tw, tw_inv, domain }
    }

    /// Bytes held by the per-position tables.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.positions.memory_bytes()
    }

    /// The 128 proofs, in cell order, for the polynomial with these n coefficients; the G1
    /// FFTs take their twiddle products as `fft_products` says.
    pub(crate) fn proofs(&self, coeffs: &[Fr], threads: usize, fft_products: MulManyMethod) -> Vec<G1Projective> {
        assert_eq!(coeffs.len(), crate::FIELD_ELEMENTS_PER_BLOB);
        let k_inv = Fr::from_u64(K as u64).invert_vartime().expect("128 is invertible");
        // column t of the Toeplitz product, reversed: x_t[k] = f[l (m - 1 - k) + t] for k < m - 1,
        // transformed and scaled by 1/128 (the inverse G1 FFT below is left unscaled)
        let column = |t: usize| {
            let mut x: Vec<Fr> = (0..K).map(|k| if k < M - 1 { coeffs[L * (M - 1 - k) + t] } else { Fr::ZERO }).collect();
            self.domain.fft(&mut x).expect("128 values");
            x.iter_mut().for_each(|v| *v *= k_inv);
            x
        };
        let cols: Vec<Vec<Fr>> = run(threads, || (0..L).into_par_iter().map(column).collect(), || (0..L).map(column).collect());
        // position-major scalars: position p takes the p-th entry of every column
        let mut scalars = Vec::with_capacity(K * L);
        for p in 0..K {
            scalars.extend(cols.iter().map(|c| c[p]));
        }
        let mut h = self.positions.msms(&scalars, threads);
        // the circular convolution; H_d is entry m - 2 - d
        g1_fft_on(threads, &mut h, &self.tw_inv, fft_products);
        let mut y: Vec<G1Projective> = (0..K).map(|d| if d < M - 1 { h[M - 2 - d] } else { G1Projective::IDENTITY }).collect();
        g1_fft_on(threads, &mut y, &self.tw, fft_products);
        // y[j] is the proof for z = w_128^j; cell k has z_k = w_128^brp7(k)
        zkforge_poly::bit_reverse_permute(&mut y);
        y
    }
}

/// A G1 FFT on `threads` threads.
fn g1_fft_on(threads: usize, a: &mut [G1Projective], tw: &[Fr], method: MulManyMethod) {
    if threads > 1 {
        zkforge_msm::pippenger::pool(threads).install(|| g1_fft::fft(a, tw, true, method));
    } else {
        g1_fft::fft(a, tw, false, method);
    }
}

/// `par` on a pool of exactly `threads` workers, `seq` on the calling thread when threads <= 1.
fn run<T: Send>(threads: usize, par: impl FnOnce() -> T + Send, seq: impl FnOnce() -> T) -> T {
    if threads > 1 {
        zkforge_msm::pippenger::pool(threads).install(par)
    } else {
        seq()
    }
}

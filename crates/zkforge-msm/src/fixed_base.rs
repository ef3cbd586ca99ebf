//! Fixed-base MSM: for bases known in advance (a KZG setup's 4096 points), store shifted copies
//! 2^(c s k) P_i of every base, so that the windows of a scalar become extra points of a single
//! bucket pass instead of separate passes joined by doublings (the precomputation of Brickell,
//! Gordon, McCurley and Wilson, "Fast exponentiation with precomputation", EUROCRYPT 1992,
//! applied to the bucket method).
//!
//! Knob: the stride s. With w windows of c bits the table holds ceil(w/s) copies of the bases
//! (memory n ceil(w/s) affine points, see [`FixedBaseMsm::memory_bytes`]); an MSM then runs s
//! bucket passes of n ceil(w/s) points each and c (s - 1) doublings. s = 1 is the fastest and
//! largest; s = w is plain Pippenger with no extra memory.

use rayon::prelude::*;
use zkforge_curve::{Affine, CurveConfig, Jacobian};

use crate::config::Buckets;
use crate::pippenger::{bucket_sum, SimdBases};
use crate::recode::{num_windows, signed_digits, MAX_WINDOW, MIN_WINDOW};
use crate::{order_minus_one, reduced_limbs, MsmError, MsmScalar};

/// 2^bits P for every P: one copy of a fixed-base table from the previous one (here, and for
/// the GPU MSM's window-folded bases in zkforge-gpu). Jacobian doublings, then one batch
/// normalisation per chunk of 1024 points, chunks in parallel on the current rayon pool.
/// Variable time (the inversion, identities): for public bases.
///
/// ```
/// use zkforge_curve::bls12_381::{G1Config, G1Projective, Scalar};
/// let g = G1Projective::generator();
/// let t = zkforge_msm::fixed_base::shifted_vartime::<G1Config>(&[g.to_affine()], 3);
/// assert_eq!(t[0], (g * Scalar::from_u64(8)).to_affine());
/// ```
pub fn shifted_vartime<C: CurveConfig>(points: &[Affine<C>], bits: usize) -> Vec<Affine<C>> {
    points
        .par_chunks(1024)
        .flat_map_iter(|chunk| {
            let jac: Vec<Jacobian<C>> = chunk
                .iter()
                .map(|p| {
                    let mut q = p.to_jacobian();
                    for _ in 0..bits {
                        q = q.double();
                    }
                    q
                })
                .collect();
            Jacobian::batch_to_affine_vartime(&jac)
        })
        .collect()
}

/// Precomputed tables for MSMs over one fixed list of bases.
pub struct FixedBaseMsm<C: CurveConfig> {
    n: usize,
    c: u32,
    nwin: usize,
    stride: usize,
    copies: usize,
    /// tables[k * n + i] = 2^(c s k) P_i.
    tables: Vec<Affine<C>>,
    buckets: Buckets,
    /// The tables in the 52-bit form of the IFMA lanes, for `Buckets::BatchAffineSimd` on a CPU
    /// that has them (converted once, resident).
    simd: Option<SimdBases<C>>,
}

impl<C: CurveConfig> FixedBaseMsm<C> {
    /// Tables with window c = 12, stride 1 and batch-affine buckets (S = 256, on the IFMA lanes
    /// where the CPU has them): about 22 copies of the bases (BLS12-381 G1, 4096 bases: 8.7 MB,
    /// and 11.5 MB more for the 52-bit copy of the lanes).
    pub fn new(bases: &[Affine<C>]) -> Self {
        match Self::with_params(bases, 12, 1, Buckets::BatchAffineSimd { batch: 256 }) {
            Ok(t) => t,
            Err(_) => unreachable!("the default parameters are valid"),
        }
    }

    /// Tables for window width `c` (2..=16) and stride `stride` (>= 1; a stride above the
    /// window count means one copy of the bases, the same as the window count). A width outside
    /// 2..=16, a stride of 0 or a batch size of 0 is an error.
    pub fn with_params(bases: &[Affine<C>], c: u32, stride: usize, buckets: Buckets) -> Result<Self, MsmError> {
        if !(MIN_WINDOW..=MAX_WINDOW).contains(&c) {
            return Err(MsmError::InvalidWindow { window: c });
        }
        if stride == 0 {
            return Err(MsmError::InvalidStride);
        }
        if buckets.batch() == Some(0) {
            return Err(MsmError::InvalidBatch);
        }
        let nwin = num_windows(&order_minus_one::<C>(), c);
        let stride = stride.min(nwin);
        let copies = nwin.div_ceil(stride);
        let n = bases.len();
        let mut tables = Vec::with_capacity(n * copies);
        tables.extend_from_slice(bases);
        for k in 1..copies {
            let next = shifted_vartime(&tables[(k - 1) * n..k * n], c as usize * stride);
            tables.extend(next);
        }
        let simd = match buckets {
            Buckets::BatchAffineSimd { batch } => SimdBases::new(&tables, batch, false),
            _ => None,
        };
        Ok(Self { n, c, nwin, stride, copies, tables, buckets, simd })
    }

    /// Bytes held by the tables (with their 52-bit copy for the IFMA lanes, when there is one).
    pub fn memory_bytes(&self) -> usize {
        self.tables.len() * core::mem::size_of::<Affine<C>>() + self.simd.as_ref().map_or(0, SimdBases::memory_bytes)
    }

    /// Number of bases.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True when there are no bases.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// sum_i scalars[i] * bases[i]; scalars of any 256-bit value are reduced mod r.
    ///
    /// ```
    /// use zkforge_curve::bls12_381::{G1Projective, Scalar};
    /// use zkforge_msm::fixed_base::FixedBaseMsm;
    /// let g = G1Projective::generator();
    /// let bases = vec![g.to_affine(), (g * Scalar::from_u64(2)).to_affine()];
    /// let t = FixedBaseMsm::new(&bases);
    /// let r = t.msm(&[Scalar::from_u64(3), Scalar::from_u64(4)]).unwrap();
    /// assert_eq!(r, g * Scalar::from_u64(11));
    /// ```
    pub fn msm<S: MsmScalar<C>>(&self, scalars: &[S]) -> Result<Jacobian<C>, MsmError> {
        if scalars.len() != self.n {
            return Err(MsmError::LengthMismatch { points: self.n, scalars: scalars.len() });
        }
        if self.n == 0 {
            return Ok(Jacobian::IDENTITY);
        }
        let (n, nwin, s) = (self.n, self.nwin, self.stride);
        let mut digits = vec![0i16; n * nwin];
        for (row, k) in digits.chunks_exact_mut(nwin).zip(scalars) {
            // reduced scalars are <= r - 1, which sized nwin: a real check all the same
            assert!(signed_digits(&reduced_limbs::<C, S>(k), self.c, nwin, row, 1), "fixed-base MSM internal error: scalar does not fit its windows");
        }
        // virtual window v gathers windows v, v + s, v + 2s, ... from the shifted copies
        let mut acc = Jacobian::<C>::IDENTITY;
        for v in (0..s).rev() {
            for _ in 0..self.c {
                acc = acc.double();
            }
            let pairs = (0..self.copies).filter(move |k| k * s + v < nwin).flat_map(move |k| {
                let w = k * s + v;
                (0..n).map(move |i| (k, i, w))
            });
            let sum = match &self.simd {
                Some(simd) => simd.bucket_sum(&self.tables, 0, pairs.map(|(k, i, w)| (k * n + i, digits[i * nwin + w])), self.c, None),
                None => bucket_sum(pairs.map(|(k, i, w)| (&self.tables[k * n + i], digits[i * nwin + w])), self.c, self.buckets, None),
            };
            acc = acc.add_vartime(&sum.to_jacobian());
        }
        Ok(acc)
    }
}

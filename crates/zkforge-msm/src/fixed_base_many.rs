//! Many small fixed-base MSMs computed together: K lists of n fixed bases each (FK20's 128
//! positions of 64 points), K scalar lists per call, K results. Each list gets the shifted
//! copies of [`crate::FixedBaseMsm`] (Brickell-Gordon-McCurley-Wilson; window c, stride s), and
//! all K bucket passes run as one batch-affine pass over K 2^(c-1) buckets
//! ([`crate::batch_affine::bucket_sums_batch_affine`]) with the K lists interleaved, so a batch
//! of S additions meets almost no collisions even though each MSM alone has only
//! n ceil(w/s) points for 2^(c-1) buckets (where one MSM's own batches would collide
//! constantly). An addition then costs about 5M + 1S instead of XYZZ's 8M + 2S.
//!
//! Memory: K n ceil(w/s) affine points. Threads split the K lists.

use rayon::prelude::*;
use zkforge_curve::{Affine, CurveConfig, Jacobian};

use crate::batch_affine::bucket_sums_batch_affine;
use crate::config::Buckets;
use crate::pippenger::SimdBases;
use crate::fixed_base::shifted_vartime;
use crate::recode::{num_windows, signed_digits, MAX_WINDOW, MIN_WINDOW};
use crate::{order_minus_one, reduced_limbs, MsmError, MsmScalar};

/// Precomputed tables for K fixed-base MSMs of n bases each.
pub struct FixedBaseMany<C: CurveConfig> {
    k: usize,
    n: usize,
    c: u32,
    nwin: usize,
    stride: usize,
    copies: usize,
    /// tables[(copy * n + i) * k + j] = 2^(c s copy) P_{j,i}: the K lists interleaved.
    tables: Vec<Affine<C>>,
    batch: usize,
    /// The tables in the 52-bit form of the IFMA lanes (`Buckets::BatchAffineSimd` on a CPU
    /// that has them), converted once.
    simd: Option<SimdBases<C>>,
}

impl<C: CurveConfig> FixedBaseMany<C> {
    /// Tables for `lists` (each of the same length n), window `c` (2..=16), stride `stride`
    /// (>= 1; above the window count it means one copy) and batch size `batch` (>= 1), with the
    /// batch-affine additions on the IFMA lanes where the CPU has them
    /// (`Buckets::BatchAffineSimd`, the measured best; [`FixedBaseMany::with_buckets`] chooses).
    pub fn new(lists: &[Vec<Affine<C>>], c: u32, stride: usize, batch: usize) -> Result<Self, MsmError> {
        Self::with_buckets(lists, c, stride, Buckets::BatchAffineSimd { batch })
    }

    /// [`FixedBaseMany::new`] with the bucket kind given: `BatchAffine` (portable) or
    /// `BatchAffineSimd`; `Xyzz` is taken as `BatchAffine` with S = 256 (these tables always
    /// batch their additions).
    pub fn with_buckets(lists: &[Vec<Affine<C>>], c: u32, stride: usize, buckets: Buckets) -> Result<Self, MsmError> {
        let batch = buckets.batch().unwrap_or(256);
        if !(MIN_WINDOW..=MAX_WINDOW).contains(&c) {
            return Err(MsmError::InvalidWindow { window: c });
        }
        if stride == 0 {
            return Err(MsmError::InvalidStride);
        }
        if batch == 0 {
            return Err(MsmError::InvalidBatch);
        }
        let k = lists.len();
        let n = lists.first().map_or(0, Vec::len);
        if let Some(l) = lists.iter().find(|l| l.len() != n) {
            return Err(MsmError::LengthMismatch { points: n, scalars: l.len() });
        }
        let nwin = num_windows(&order_minus_one::<C>(), c);
        let stride = stride.min(nwin);
        let copies = nwin.div_ceil(stride);
        let mut tables = Vec::with_capacity(k * n * copies);
        for i in 0..n {
            tables.extend(lists.iter().map(|l| l[i]));
        }
        for copy in 1..copies {
            let next = shifted_vartime(&tables[(copy - 1) * n * k..copy * n * k], c as usize * stride);
            tables.extend(next);
        }
        let simd = match buckets {
            Buckets::BatchAffineSimd { .. } => SimdBases::new(&tables, batch, false),
            _ => None,
        };
        Ok(Self { k, n, c, nwin, stride, copies, tables, batch, simd })
    }

    /// Bytes held by the tables (with their 52-bit copy for the IFMA lanes, when there is one).
    pub fn memory_bytes(&self) -> usize {
        self.tables.len() * core::mem::size_of::<Affine<C>>() + self.simd.as_ref().map_or(0, SimdBases::memory_bytes)
    }

    /// The K MSMs: result j is sum_i scalars[j * n + i] P_{j,i} (scalars flat, list-major; any
    /// 256-bit value, reduced mod r). `threads` workers split the lists (1 = the calling
    /// thread).
    pub fn msm_many<S: MsmScalar<C>>(&self, scalars: &[S], threads: usize) -> Result<Vec<Jacobian<C>>, MsmError> {
        if threads == 0 {
            return Err(MsmError::InvalidThreads);
        }
        if scalars.len() != self.k * self.n {
            return Err(MsmError::LengthMismatch { points: self.k * self.n, scalars: scalars.len() });
        }
        let (n, nwin) = (self.n, self.nwin);
        // digits[(j * n + i) * nwin + w]
        let mut digits = vec![0i16; self.k * n * nwin];
        for (row, s) in digits.chunks_exact_mut(nwin).zip(scalars) {
            // reduced scalars are <= r - 1, which sized nwin: a real check all the same
            assert!(signed_digits(&reduced_limbs::<C, S>(s), self.c, nwin, row, 1), "fixed-base MSM internal error: scalar does not fit its windows");
        }
        if threads == 1 {
            return Ok(self.range(0, self.k, &digits));
        }
        let per = self.k.div_ceil(threads);
        let parts: Vec<Vec<Jacobian<C>>> = crate::pippenger::pool(threads)
            .install(|| (0..threads).into_par_iter().map(|t| self.range((t * per).min(self.k), ((t + 1) * per).min(self.k), &digits)).collect());
        Ok(parts.concat())
    }

    /// Results for lists lo..hi.
    fn range(&self, lo: usize, hi: usize, digits: &[i16]) -> Vec<Jacobian<C>> {
        let (k, n, nwin, s) = (self.k, self.n, self.nwin, self.stride);
        let m = hi - lo;
        let mut acc = vec![Jacobian::<C>::IDENTITY; m];
        if m == 0 {
            return acc;
        }
        // virtual window v gathers windows v, v + s, v + 2s, ... from the shifted copies
        for v in (0..s).rev() {
            for a in acc.iter_mut() {
                for _ in 0..self.c {
                    *a = a.double();
                }
            }
            let triples = (0..self.copies).filter(move |copy| copy * s + v < nwin).flat_map(move |copy| {
                let w = copy * s + v;
                (0..n).flat_map(move |i| (lo..hi).map(move |j| (j - lo, (copy * n + i) * k + j, digits[(j * n + i) * nwin + w])))
            });
            let sums = match &self.simd {
                Some(simd) => simd.bucket_sums(&self.tables, m, triples, self.c),
                None => bucket_sums_batch_affine(m, triples.map(|(j, t, d)| (j, &self.tables[t], d)), self.c, self.batch),
            };
            for (a, sum) in acc.iter_mut().zip(sums) {
                *a = a.add_vartime(&sum.to_jacobian());
            }
        }
        acc
    }
}

//! The bucket method and its driver: scalar reduction and optional endomorphism split,
//! signed-digit recoding (point-major: one row of window digits per point), bucket
//! accumulation (XYZZ mixed additions here, batch-affine ones in `batch_affine`), running-sum
//! reduction, and window combination.
//!
//! Cost for n points, c-bit windows and b-bit scalars (w = b/c + 1 windows): n w additions
//! into buckets (8M + 2S each in XYZZ, about 5M + 1S batch-affine), w 2^(c-1) pairs of
//! additions for the running sums, and b doublings to combine.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;
use zkforge_curve::{Affine, CurveConfig, Endomorphism, Jacobian, Xyzz};

use crate::batch_affine::bucket_sum_batch_affine;
use crate::config::{default_window, Buckets, MsmConfig, SmallMethod, Split};
use crate::straus::straus;
use crate::recode::{max_of_bits, num_windows, signed_digits};
use crate::{order_minus_one, reduced_limbs, MsmError, MsmScalar};

/// A rayon pool of exactly `threads` workers, built once per size and reused.
pub fn pool(threads: usize) -> Arc<rayon::ThreadPool> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let mut map = POOLS.get_or_init(|| Mutex::new(HashMap::new())).lock().unwrap_or_else(|e| e.into_inner());
    map.entry(threads)
        .or_insert_with(|| {
            Arc::new(rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("rayon pool"))
        })
        .clone()
}

/// endo^j(P) for j < DIM, for every base: the table [`crate::PreparedBases`] keeps (the points
/// themselves for a group without an endomorphism).
pub(crate) fn endo_images<C: CurveConfig>(points: &[Affine<C>]) -> Vec<Affine<C>> {
    let dim = C::Endo::DIM;
    let mut out = Vec::with_capacity(points.len() * dim);
    for p in points {
        let mut e = *p;
        for j in 0..dim {
            if j > 0 {
                e = endo_affine(&e);
            }
            out.push(e);
        }
    }
    out
}

/// endo^j(P) for an affine P (phi and psi keep Z = 1).
fn endo_affine<C: CurveConfig>(p: &Affine<C>) -> Affine<C> {
    if bool::from(p.is_identity()) {
        return *p;
    }
    let j = C::Endo::endo(&p.to_jacobian());
    Affine::new_unchecked(j.x(), j.y())
}

/// Wall time of each MSM phase, for the ablation benchmark.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhaseTimes {
    /// Scalar reduction, GLV/GLS decomposition and signed-digit recoding.
    pub decompose: std::time::Duration,
    /// Bucket accumulation (all windows).
    pub accumulate: std::time::Duration,
    /// Running-sum reduction of the buckets (all windows).
    pub reduce: std::time::Duration,
    /// Combining the window sums (doublings).
    pub combine: std::time::Duration,
}

/// The MSM with every switch given (already validated by the caller).
pub(crate) fn msm_with_config<C: CurveConfig, S: MsmScalar<C>>(points: &[Affine<C>], scalars: &[S], cfg: &MsmConfig) -> Jacobian<C> {
    run_msm(points, None, scalars, cfg, None)
}

/// [`crate::msm_with`], also recording per-phase times. With several threads the
/// accumulate/reduce times are summed over threads (CPU time, not wall time).
pub fn msm_profiled<C: CurveConfig, S: MsmScalar<C>>(
    points: &[Affine<C>],
    scalars: &[S],
    cfg: &MsmConfig,
    times: Option<&Mutex<PhaseTimes>>,
) -> Result<Jacobian<C>, MsmError> {
    cfg.validate()?;
    if points.len() != scalars.len() {
        return Err(MsmError::LengthMismatch { points: points.len(), scalars: scalars.len() });
    }
    Ok(run_msm(points, None, scalars, cfg, times))
}

/// The MSM over prepared bases (validated by the caller): their endomorphism images come
/// from `images` instead of being recomputed.
pub(crate) fn msm_with_images<C: CurveConfig, S: MsmScalar<C>>(points: &[Affine<C>], images: &[Affine<C>], scalars: &[S], cfg: &MsmConfig) -> Jacobian<C> {
    run_msm(points, Some(images), scalars, cfg, None)
}

/// `images`, when given, holds endo^j(P_i) at `i * DIM + j` for every base.
fn run_msm<C: CurveConfig, S: MsmScalar<C>>(points: &[Affine<C>], images: Option<&[Affine<C>]>, scalars: &[S], cfg: &MsmConfig, times: Option<&Mutex<PhaseTimes>>) -> Jacobian<C> {
    let n = points.len();
    if n == 0 {
        return Jacobian::IDENTITY;
    }
    if n < cfg.small_threshold {
        return match cfg.small_method {
            // Straus interleaves the endomorphism parts; a group without one takes singles
            SmallMethod::Straus if C::Endo::PRESENT => straus(points, scalars, 5),
            SmallMethod::StrausWidth { width } if C::Endo::PRESENT => straus(points, scalars, width),
            SmallMethod::Lanes if C::Endo::PRESENT => small_lanes(points, scalars),
            SmallMethod::Straus | SmallMethod::StrausWidth { .. } | SmallMethod::Singles | SmallMethod::Lanes => small(points, scalars),
        };
    }
    let threads = cfg.threads;
    let run = || {
        let t0 = std::time::Instant::now();
        let reduce = reduced_limbs::<C, S>;
        let ks: Vec<[u64; 4]> = if threads == 1 { scalars.iter().map(reduce).collect() } else { scalars.par_iter().map(reduce).collect() };
        // the split needs the group's endomorphism; without one the switch has no effect
        if cfg.glv && C::Endo::PRESENT {
            let (pts, parts) = glv_expand(points, images, &ks, threads);
            if let Some(t) = times {
                t.lock().unwrap_or_else(|e| e.into_inner()).decompose += t0.elapsed();
            }
            let c = cfg.window.unwrap_or_else(|| default_window(n, true));
            bucket_msm(&pts, &parts, &max_of_bits(C::Endo::SUB_BITS), c, threads, cfg.split, cfg.buckets, times)
        } else {
            if let Some(t) = times {
                t.lock().unwrap_or_else(|e| e.into_inner()).decompose += t0.elapsed();
            }
            let c = cfg.window.unwrap_or_else(|| default_window(n, false));
            bucket_msm(points, &ks, &order_minus_one::<C>(), c, threads, cfg.split, cfg.buckets, times)
        }
    };
    if threads == 1 {
        // no pool at all: every phase runs on the calling thread
        run()
    } else {
        pool(threads).install(run)
    }
}

/// Sum of single variable-time multiplications (wNAF with the endomorphism split).
fn small<C: CurveConfig, S: MsmScalar<C>>(points: &[Affine<C>], scalars: &[S]) -> Jacobian<C> {
    let mut acc = Jacobian::IDENTITY;
    for (p, k) in points.iter().zip(scalars) {
        acc = acc.add_vartime(&p.to_jacobian().mul_limbs_vartime(&k.to_limbs()));
    }
    acc
}

/// [`SmallMethod::Lanes`]: the non-identity points in groups of eight on the IFMA lanes
/// (`ifma::msm_ct_affine_lanes`), a short last group and short inputs by Straus; Straus
/// entirely where the lanes do not apply.
fn small_lanes<C: CurveConfig, S: MsmScalar<C>>(points: &[Affine<C>], scalars: &[S]) -> Jacobian<C> {
    use crate::config::{lanes_small_min, LANES_SMALL_REM_MIN};
    let live: Vec<usize> = (0..points.len().min(scalars.len())).filter(|&i| !bool::from(points[i].is_identity())).collect();
    if live.len() < lanes_small_min() {
        return straus(points, scalars, 5);
    }
    let pts: Vec<Affine<C>> = live.iter().map(|&i| points[i]).collect();
    let ks: Vec<[u64; 4]> = live.iter().map(|&i| reduced_limbs::<C, S>(&scalars[i])).collect();
    let n = pts.len();
    let laned = if n % 8 < LANES_SMALL_REM_MIN { n - n % 8 } else { n };
    let Some(sum) = crate::ifma::msm_ct_affine_lanes(&pts[..laned], &ks[..laned]) else {
        return straus(points, scalars, 5);
    };
    if laned < n {
        sum.add_vartime(&straus(&pts[laned..], &ks[laned..], 5))
    } else {
        sum
    }
}

/// Split every scalar into `DIM` parts over endo^j(P), signs folded into the points (on the
/// calling thread when `threads` is 1, else on the current pool). The images endo^j(P) come
/// from `images` (`i * DIM + j`) when the bases were prepared, else they are computed here.
fn glv_expand<C: CurveConfig>(points: &[Affine<C>], images: Option<&[Affine<C>]>, ks: &[[u64; 4]], threads: usize) -> (Vec<Affine<C>>, Vec<[u64; 4]>) {
    let dim = C::Endo::DIM;
    let mut pts = vec![Affine::IDENTITY; points.len() * dim];
    let mut parts = vec![[0u64; 4]; points.len() * dim];
    type Item<'a, C> = ((&'a mut [Affine<C>], &'a mut [[u64; 4]]), (&'a Affine<C>, &'a [u64; 4]));
    let fill = |((pc, kc), (p, k)): Item<'_, C>| {
        let d = C::Endo::decompose(k);
        let mut e = *p;
        for j in 0..dim {
            if j > 0 {
                e = endo_affine(&e);
            }
            pc[j] = if bool::from(d[j].neg) { -e } else { e };
            kc[j] = [d[j].mag as u64, (d[j].mag >> 64) as u64, 0, 0];
        }
    };
    if let Some(images) = images {
        type PreparedItem<'a, C> = ((&'a mut [Affine<C>], &'a mut [[u64; 4]]), (&'a [Affine<C>], &'a [u64; 4]));
        let fill_prepared = |((pc, kc), (im, k)): PreparedItem<'_, C>| {
            let d = C::Endo::decompose(k);
            for j in 0..dim {
                pc[j] = if bool::from(d[j].neg) { -im[j] } else { im[j] };
                kc[j] = [d[j].mag as u64, (d[j].mag >> 64) as u64, 0, 0];
            }
        };
        if threads == 1 {
            pts.chunks_mut(dim).zip(parts.chunks_mut(dim)).zip(images.chunks_exact(dim).zip(ks)).for_each(fill_prepared);
        } else {
            pts.par_chunks_mut(dim).zip(parts.par_chunks_mut(dim)).zip(images.par_chunks_exact(dim).zip(ks)).for_each(fill_prepared);
        }
        return (pts, parts);
    }
    if threads == 1 {
        pts.chunks_mut(dim).zip(parts.chunks_mut(dim)).zip(points.iter().zip(ks)).for_each(fill);
    } else {
        pts.par_chunks_mut(dim).zip(parts.par_chunks_mut(dim)).zip(points.par_iter().zip(ks)).for_each(fill);
    }
    (pts, parts)
}

/// The bucket method over scalars of at most `max` (r - 1, or 2^SUB_BITS - 1 for the parts of
/// the endomorphism split); `c` in 2..=16, validated by the caller.
#[allow(clippy::too_many_arguments)]
fn bucket_msm<C: CurveConfig>(
    points: &[Affine<C>],
    ks: &[[u64; 4]],
    max: &[u64; 4],
    c: u32,
    threads: usize,
    split: Split,
    buckets: Buckets,
    times: Option<&Mutex<PhaseTimes>>,
) -> Jacobian<C> {
    let m = points.len();
    let nwin = num_windows(max, c);
    // point-major digits: digits[i * nwin + w]; window w reads them with stride nwin
    let t0 = std::time::Instant::now();
    let mut digits = vec![0i16; nwin * m];
    let recode = |(row, k): (&mut [i16], &[u64; 4])| signed_digits(k, c, nwin, row, 1);
    // a scalar above `max` would lose its top digits: a real check, in release builds too
    let fits = if threads == 1 {
        digits.chunks_mut(nwin).zip(ks.iter()).all(recode)
    } else {
        digits.par_chunks_mut(nwin).zip(ks.par_iter()).all(recode)
    };
    assert!(fits, "MSM internal error: a scalar does not fit its signed windows");
    if let Some(t) = times {
        t.lock().unwrap_or_else(|e| e.into_inner()).decompose += t0.elapsed();
    }
    // the IFMA lanes: the bases converted once, read by every window
    let simd = match buckets {
        Buckets::BatchAffineSimd { batch } => SimdBases::new(points, batch, threads > 1),
        _ => None,
    };
    let window_sum = |points: &[Affine<C>], lo: usize, digits: &[i16], w: usize| match &simd {
        Some(s) => s.window_sum(points, lo, digits, nwin, w, c, times),
        None => window_sum(points, digits, nwin, w, c, buckets, times),
    };
    let sums: Vec<Xyzz<C>> = match split {
        Split::Windows if threads > 1 => (0..nwin).into_par_iter().map(|w| window_sum(points, 0, &digits, w)).collect(),
        Split::Points if threads > 1 => {
            let chunk = m.div_ceil(threads);
            let partial: Vec<Vec<Xyzz<C>>> = (0..threads)
                .into_par_iter()
                .map(|t| {
                    let lo = (t * chunk).min(m);
                    let hi = ((t + 1) * chunk).min(m);
                    (0..nwin).map(|w| window_sum(&points[lo..hi], lo, &digits[lo * nwin..hi * nwin], w)).collect()
                })
                .collect();
            (0..nwin).map(|w| partial.iter().fold(Xyzz::IDENTITY, |a, p| a.add_vartime(&p[w]))).collect()
        }
        _ => (0..nwin).map(|w| window_sum(points, 0, &digits, w)).collect(),
    };
    // combine: sum_w 2^(c w) S_w
    let t0 = std::time::Instant::now();
    let mut acc = sums[nwin - 1].to_jacobian();
    for w in (0..nwin - 1).rev() {
        for _ in 0..c {
            acc = acc.double();
        }
        acc = acc.add_vartime(&sums[w].to_jacobian());
    }
    if let Some(t) = times {
        t.lock().unwrap_or_else(|e| e.into_inner()).combine += t0.elapsed();
    }
    acc
}

/// The bases of one MSM in the 52-bit form of `crate::ifma`, for the limb count that fits
/// their field, with the batch size.
pub(crate) enum SimdBases<C: CurveConfig> {
    L5(crate::ifma::Bases52<5>, usize, core::marker::PhantomData<C>),
    L8(crate::ifma::Bases52<8>, usize, core::marker::PhantomData<C>),
}

impl<C: CurveConfig> SimdBases<C> {
    /// Bytes held by the converted bases.
    pub(crate) fn memory_bytes(&self) -> usize {
        match self {
            SimdBases::L5(b, ..) => core::mem::size_of_val(b.pts.as_slice()),
            SimdBases::L8(b, ..) => core::mem::size_of_val(b.pts.as_slice()),
        }
    }

    /// `None` when the CPU lacks AVX-512 IFMA or the field has no 52-bit form here.
    pub(crate) fn new(points: &[Affine<C>], batch: usize, parallel: bool) -> Option<Self> {
        use crate::ifma::{Bases52, Field52};
        if let Some(f) = Field52::<8>::for_field::<C::Base>() {
            return Some(SimdBases::L8(Bases52::new(f, points, parallel), batch, core::marker::PhantomData));
        }
        if let Some(f) = Field52::<5>::for_field::<C::Base>() {
            return Some(SimdBases::L5(Bases52::new(f, points, parallel), batch, core::marker::PhantomData));
        }
        None
    }

    /// One window over `points` (the bases from index `lo` on) and their digit rows.
    #[allow(clippy::too_many_arguments)]
    fn window_sum(&self, points: &[Affine<C>], lo: usize, digits: &[i16], nwin: usize, w: usize, c: u32, times: Option<&Mutex<PhaseTimes>>) -> Xyzz<C> {
        self.bucket_sum(points, lo, digits.chunks_exact(nwin).map(|row| row[w]).enumerate(), c, times)
    }

    /// `sums` bucket sums in one pass over (sum, index, digit) triples, the index into the
    /// converted bases (all of them).
    pub(crate) fn bucket_sums(&self, points: &[Affine<C>], sums: usize, pairs: impl Iterator<Item = (usize, usize, i16)>, c: u32) -> Vec<Xyzz<C>> {
        match self {
            SimdBases::L5(b, batch, _) => crate::ifma::bucket_sums_52(&b.f, &b.pts, points, sums, pairs, c, *batch),
            SimdBases::L8(b, batch, _) => crate::ifma::bucket_sums_52(&b.f, &b.pts, points, sums, pairs, c, *batch),
        }
    }

    /// sum_b b * (sum of the points whose signed digit is +-b) over (index, digit) pairs, the
    /// index into `points`, which are the converted bases from index `lo` on.
    pub(crate) fn bucket_sum(&self, points: &[Affine<C>], lo: usize, pairs: impl Iterator<Item = (usize, i16)>, c: u32, times: Option<&Mutex<PhaseTimes>>) -> Xyzz<C> {
        let (s, acc_t, red_t) = match self {
            SimdBases::L5(b, batch, _) => crate::ifma::bucket_sum_52(&b.f, &b.pts[lo..lo + points.len()], points, pairs, c, *batch),
            SimdBases::L8(b, batch, _) => crate::ifma::bucket_sum_52(&b.f, &b.pts[lo..lo + points.len()], points, pairs, c, *batch),
        };
        add_times(times, acc_t, red_t);
        s
    }
}

/// Adds one bucket sum's accumulate and reduce times to the profile, when there is one.
fn add_times(times: Option<&Mutex<PhaseTimes>>, accumulate: std::time::Duration, reduce: std::time::Duration) {
    if let Some(t) = times {
        let mut t = t.lock().unwrap_or_else(|e| e.into_inner());
        t.accumulate += accumulate;
        t.reduce += reduce;
    }
}

/// One window: accumulate into 2^(c-1) buckets, then reduce by running sums.
#[allow(clippy::too_many_arguments)]
fn window_sum<C: CurveConfig>(points: &[Affine<C>], digits: &[i16], nwin: usize, w: usize, c: u32, kind: Buckets, times: Option<&Mutex<PhaseTimes>>) -> Xyzz<C> {
    bucket_sum(points.iter().zip(digits.chunks_exact(nwin).map(|row| row[w])), c, kind, times)
}

/// sum_b b * (sum of the points whose signed digit is +-b) over any stream of (point, digit)
/// pairs, with the chosen bucket kind; records the accumulate and reduce times.
pub(crate) fn bucket_sum<'a, C: CurveConfig>(
    pairs: impl Iterator<Item = (&'a Affine<C>, i16)>,
    c: u32,
    kind: Buckets,
    times: Option<&Mutex<PhaseTimes>>,
) -> Xyzz<C> {
    if let Some(batch) = kind.batch() {
        let (s, acc_t, red_t) = bucket_sum_batch_affine(pairs, c, batch);
        add_times(times, acc_t, red_t);
        return s;
    }
    // the clock is read only when the caller profiles (`msm_profiled`)
    let t0 = times.map(|_| std::time::Instant::now());
    let mut buckets = vec![Xyzz::<C>::IDENTITY; 1 << (c - 1)];
    for (p, d) in pairs {
        if d > 0 {
            let b = &mut buckets[d as usize - 1];
            *b = b.add_mixed_vartime(p);
        } else if d < 0 {
            let b = &mut buckets[(-(d as i32)) as usize - 1];
            *b = b.add_mixed_vartime(&-*p);
        }
    }
    let t1 = times.map(|_| std::time::Instant::now());
    let mut running = Xyzz::IDENTITY;
    let mut sum = Xyzz::IDENTITY;
    for b in buckets.iter().rev() {
        running = running.add_vartime(b);
        sum = sum.add_vartime(&running);
    }
    if let (Some(t0), Some(t1)) = (t0, t1) {
        add_times(times, t1 - t0, t1.elapsed());
    }
    sum
}

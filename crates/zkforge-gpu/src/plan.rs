//! CPU phases of the GPU bucket method: signed-window decomposition of the scalars with a
//! counting sort of (point, sign) by bucket (the layout the accumulation kernels read), and
//! the final combination of segment sums and windows.
//!
//! Layout: global bucket g = w * H + (|d| - 1) for digit d of window w, H = 2^(c-1) buckets
//! per window (signed digits lie in [-2^(c-1), 2^(c-1))); `entries[offsets[g]..offsets[g+1]]`
//! are bucket g's points as `index | (d < 0) << 31`.

use rayon::prelude::*;
use zkforge_curve::{CurveConfig, Jacobian, Xyzz};
use zkforge_msm::recode::{max_of_bits, num_windows, signed_digits};

/// Bits of the reduced scalars the MSM reads (both groups' r are below 2^255).
pub const SCALAR_BITS: u32 = 255;

/// The sorted bucket layout of one MSM (or one chunk of it). Each bucket's run of entries is
/// cut into runs of at most `max_run` entries, one GPU thread (or batch-affine slot) each, so
/// that a crowded bucket (the top window's few buckets hold n / 2^k points each) does not
/// serialise the whole accumulation on one thread; a merge pass then sums each bucket's runs.
pub struct Layout {
    /// `index | sign << 31`, bucket after bucket.
    pub entries: Vec<u32>,
    /// runs + 1 offsets into `entries`.
    pub offsets: Vec<u32>,
    /// nb + 1 offsets into the runs: bucket g's runs are `bucket_runs[g] .. bucket_runs[g+1]`.
    pub bucket_runs: Vec<u32>,
    /// Windows.
    pub nw: usize,
}

impl Layout {
    /// Number of runs.
    pub fn runs(&self) -> usize {
        self.offsets.len() - 1
    }
}

/// Number of windows of width c for reduced scalars.
pub fn windows(c: u32) -> usize {
    num_windows(&max_of_bits(SCALAR_BITS), c)
}

/// Decomposes `scalars` (reduced, little-endian limbs) for the points `base_index ..` and
/// sorts them into buckets; runs on `pool` (rayon).
pub fn layout(scalars: &[[u64; 4]], base_index: u32, c: u32, max_run: u32) -> Layout {
    let nw = windows(c);
    let h = 1usize << (c - 1);
    let n = scalars.len();
    // Digits, scalar-major: digits[i * nw + w].
    let mut digits = vec![0i16; n * nw];
    digits.par_chunks_mut(nw * 1024).zip(scalars.par_chunks(1024)).for_each(|(d, s)| {
        for (k, sc) in s.iter().enumerate() {
            let ok = signed_digits(sc, c, nw, &mut d[k * nw..(k + 1) * nw], 1);
            // `nw` comes from num_windows for 255-bit scalars, and every reduced scalar fits.
            assert!(ok, "scalar does not fit the window count");
        }
    });
    // Per window: counting sort by |digit|.
    let per_window: Vec<(Vec<u32>, Vec<u32>)> = (0..nw)
        .into_par_iter()
        .map(|w| {
            let mut counts = vec![0u32; h + 1];
            for i in 0..n {
                let d = digits[i * nw + w];
                if d != 0 {
                    counts[d.unsigned_abs() as usize] += 1;
                }
            }
            // counts[b] -> start of bucket b (b = 1..=h) within this window's run.
            let mut starts = vec![0u32; h + 1];
            let mut acc = 0u32;
            for b in 1..=h {
                starts[b] = acc;
                acc += counts[b];
            }
            let mut run = vec![0u32; acc as usize];
            let mut next = starts.clone();
            for i in 0..n {
                let d = digits[i * nw + w];
                if d != 0 {
                    let b = d.unsigned_abs() as usize;
                    run[next[b] as usize] = (base_index + i as u32) | (((d < 0) as u32) << 31);
                    next[b] += 1;
                }
            }
            (run, starts[1..].to_vec())
        })
        .collect();
    let total: usize = per_window.iter().map(|(r, _)| r.len()).sum();
    let mut entries = Vec::with_capacity(total);
    let mut offsets = Vec::with_capacity(nw * h + 1);
    let mut bucket_runs = Vec::with_capacity(nw * h + 1);
    let max_run = max_run.max(1);
    for (run, starts) in &per_window {
        let base = entries.len() as u32;
        for b in 0..h {
            let lo = base + starts[b];
            let hi = if b + 1 < h { base + starts[b + 1] } else { base + run.len() as u32 };
            bucket_runs.push(offsets.len() as u32);
            let mut e = lo;
            while e < hi {
                offsets.push(e);
                e = (e + max_run).min(hi);
            }
        }
        entries.extend_from_slice(run);
    }
    bucket_runs.push(offsets.len() as u32);
    offsets.push(entries.len() as u32);
    Layout { entries, offsets, bucket_runs, nw }
}

/// sum_b b B_b for one window's bucket sums `b[0..h]` (bucket 1 first), by running sums.
pub fn reduce_window<C: CurveConfig>(buckets: &[Xyzz<C>]) -> Xyzz<C> {
    let mut running = Xyzz::<C>::IDENTITY;
    let mut acc = Xyzz::<C>::IDENTITY;
    for b in buckets.iter().rev() {
        running = running.add_vartime(b);
        acc = acc.add_vartime(&running);
    }
    acc
}

/// One window's sum from its T segments (acc_t, run_t), segment length L:
/// sum_t acc_t + L sum_t t run_t.
pub fn combine_segments<C: CurveConfig>(segs: &[(Xyzz<C>, Xyzz<C>)], l: usize) -> Xyzz<C> {
    let mut acc_sum = Xyzz::<C>::IDENTITY;
    for (a, _) in segs {
        acc_sum = acc_sum.add_vartime(a);
    }
    // sum_t t run_t by running sums from the top.
    let mut running = Xyzz::<C>::IDENTITY;
    let mut weighted = Xyzz::<C>::IDENTITY;
    for (_, r) in segs.iter().skip(1).rev() {
        running = running.add_vartime(r);
        weighted = weighted.add_vartime(&running);
    }
    let mut k = l;
    while k > 1 {
        weighted = weighted.double();
        k >>= 1;
    }
    acc_sum.add_vartime(&weighted)
}

/// sum_w 2^(c w) window_w (Horner from the top window).
pub fn combine_windows<C: CurveConfig>(windows: &[Xyzz<C>], c: u32) -> Jacobian<C> {
    let mut acc = Xyzz::<C>::IDENTITY;
    for w in windows.iter().rev() {
        for _ in 0..c {
            acc = acc.double();
        }
        acc = acc.add_vartime(w);
    }
    acc.to_jacobian()
}

//! CPU phases of the GPU bucket method: signed-window decomposition of the scalars with a
//! counting sort of (point, sign) by bucket (the layout the accumulation kernels read), and
//! the final combination of segment sums and windows.
//!
//! Layout: global bucket g = w * H + (|d| - 1) for digit d of window w, H = 2^(c-1) buckets
//! per window (signed digits lie in [-2^(c-1), 2^(c-1))). `entries` holds the buckets' points
//! as `index | (d < 0) << 31`, bucket after bucket, cut into runs (see [`Layout`]).

use rayon::prelude::*;
use zkforge_curve::{Affine, CurveConfig, Jacobian, Xyzz};
use zkforge_msm::recode::{max_of_bits, num_windows};

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
    /// Bucket sets: the windows, or fewer with folded bases ([`layout_folded`]).
    pub nw: usize,
}

impl Layout {
    /// Number of runs.
    pub fn runs(&self) -> usize {
        self.offsets.len() - 1
    }
}

/// Bits `start .. start + len` of k (zero above 256), len <= 32.
#[inline(always)]
fn bits(k: &[u64; 4], start: u32, len: u32) -> u32 {
    if start >= 256 {
        return 0;
    }
    let (limb, off) = ((start / 64) as usize, start % 64);
    let mut v = k[limb] >> off;
    if off + len > 64 && limb + 1 < 4 {
        v |= k[limb + 1] << (64 - off);
    }
    (v & ((1u64 << len) - 1)) as u32
}

/// The signed recoding's carry into window w is 1 exactly when k mod 2^(cw) >= theta_w, with
/// theta_1 = 2^(c-1) and theta_(w+1) = theta_w + (2^(c-1) - 1) 2^(cw) (a carry leaves window
/// w - 1 when its raw value plus the incoming carry reaches 2^(c-1)). `thresholds(c, nw)[w]`
/// is theta_w (theta_0 unused: no carry enters window 0).
pub fn thresholds(c: u32, nw: usize) -> Vec<[u64; 4]> {
    let mut out = vec![[0u64; 4]; nw];
    let mut t = [0u64; 4];
    for (w, slot) in out.iter_mut().enumerate().skip(1) {
        // t += (2^(c-1) - 1) << (c (w - 1)), plus 1 the first time.
        let add = if w == 1 { 1u64 << (c - 1) } else { (1u64 << (c - 1)) - 1 };
        let sh = c * (w as u32 - 1);
        if sh < 256 {
            let (limb, off) = ((sh / 64) as usize, sh % 64);
            let wide = (add as u128) << off;
            let mut carry = 0u128;
            for (i, part) in [wide & u64::MAX as u128, wide >> 64].into_iter().enumerate() {
                if limb + i < 4 {
                    let v = t[limb + i] as u128 + part + carry;
                    t[limb + i] = v as u64;
                    carry = v >> 64;
                }
            }
            let mut i = limb + 2;
            while carry != 0 && i < 4 {
                let v = t[i] as u128 + carry;
                t[i] = v as u64;
                carry = v >> 64;
                i += 1;
            }
        }
        *slot = t;
    }
    out
}

/// The signed digit of window w of k, computed alone from the window's bits and the carry
/// test against `theta` = `thresholds(c, nw)[w]`; equal to zkforge-msm's `signed_digits`
/// (tested).
#[inline(always)]
pub fn digit(k: &[u64; 4], w: u32, c: u32, theta: &[u64; 4]) -> i32 {
    let carry = if w == 0 {
        0
    } else {
        // k mod 2^(cw) >= theta, compared from the top limb.
        let bitsw = c * w;
        let mut low = *k;
        for (i, l) in low.iter_mut().enumerate() {
            let lo = 64 * i as u32;
            if bitsw <= lo {
                *l = 0;
            } else if bitsw < lo + 64 {
                *l &= (1u64 << (bitsw - lo)) - 1;
            }
        }
        let mut ge = 1;
        for i in (0..4).rev() {
            if low[i] != theta[i] {
                ge = (low[i] > theta[i]) as i32;
                break;
            }
        }
        ge
    };
    let v = bits(k, c * w, c) as i32 + carry;
    if v >= 1 << (c - 1) {
        v - (1 << c)
    } else {
        v
    }
}

/// Window folding for resident bases: the precomputation of Brickell, Gordon, McCurley and
/// Wilson ("Fast exponentiation with precomputation", EUROCRYPT 1992) applied to the bucket
/// method, as zkforge-msm's `FixedBaseMsm` and the ZPrize 2022 GPU MSM entries do. The bases
/// are stored in `copies` shifted copies, copy k holding 2^(c sets k) P_i; the nw digit windows
/// then share `sets` bucket sets (window w goes to set w % sets, its points read from copy
/// w / sets), so an MSM reduces `sets` windows of buckets instead of nw and combines `sets`
/// window sums with c doublings between them. The additions into buckets stay n nw; what
/// shrinks is the reduction and the combination, which is what lets a wider window (fewer
/// digit windows, so fewer additions) pay. Memory: `copies` times the bases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fold {
    /// Window width c the copies were made for (2..=[`crate::config::MAX_WINDOW`]).
    pub window: u32,
    /// Bucket sets (1 ..= digit windows; 1 folds every window into one set).
    pub sets: usize,
    /// Copies of the bases: ceil(nw / sets).
    pub copies: usize,
}

impl Fold {
    /// The folding of the `windows(window)` digit windows into `sets` bucket sets (a `sets`
    /// above the window count is the window count: one copy, nothing folded). A width outside
    /// 2..=[`crate::config::MAX_WINDOW`] or `sets` = 0 is a `GpuError::Config`.
    pub fn new(window: u32, sets: usize) -> Result<Fold, crate::GpuError> {
        let max = crate::config::MAX_WINDOW;
        if !(2..=max).contains(&window) {
            return Err(crate::GpuError::Config(format!("folded bases: window width {window} is outside 2..={max}")));
        }
        if sets == 0 {
            return Err(crate::GpuError::Config("folded bases: sets must be at least 1".into()));
        }
        let nw = windows(window);
        let sets = sets.min(nw);
        Ok(Fold { window, sets, copies: nw.div_ceil(sets) })
    }
}

/// The window-folded tables of a list of bases: `fold.copies` blocks of `len()` affine points,
/// block k holding 2^(c sets k) P_i (block 0 the points themselves). Built only here, so a
/// table always matches its [`Fold`]; build once, upload to any number of devices
/// (`upload_fold_tables` of either backend), or [`FoldTables::refold`] into more bucket sets
/// without new doublings.
#[derive(Clone, Debug)]
pub struct FoldTables<C: CurveConfig> {
    fold: Fold,
    n: usize,
    points: Vec<Affine<C>>,
}

impl<C: CurveConfig> FoldTables<C> {
    /// The tables of `points`: each block from the previous one by c sets doublings a point
    /// (zkforge-msm's `fixed_base::shifted_vartime`: Jacobian form, one batch normalisation
    /// per 1024 points, in parallel on the current rayon pool). A one-time cost per set of resident bases of (copies - 1) c sets ~ 255
    /// doublings a point (BLS12-381 on 2 AMD EPYC cores without AVX-512: 81 us a point,
    /// BENCHMARKS.md).
    pub fn new(points: &[Affine<C>], fold: Fold) -> Self {
        let n = points.len();
        let mut tables = Vec::with_capacity(n * fold.copies);
        tables.extend_from_slice(points);
        let bits = fold.window as usize * fold.sets;
        for k in 1..fold.copies {
            let next = zkforge_msm::fixed_base::shifted_vartime(&tables[(k - 1) * n..k * n], bits);
            tables.extend(next);
        }
        FoldTables { fold, n, points: tables }
    }

    /// The same bases folded into `sets` bucket sets (capped at the window count), taken from
    /// these tables without doublings: copy k of the new fold is copy (sets / self.sets) k of
    /// this one. `None` unless `sets` is a multiple of this fold's sets.
    pub fn refold(&self, sets: usize) -> Option<FoldTables<C>> {
        let fold = Fold::new(self.fold.window, sets).ok()?;
        if fold.sets % self.fold.sets != 0 {
            return None;
        }
        let step = fold.sets / self.fold.sets;
        let n = self.n;
        let points = (0..fold.copies).flat_map(|k| self.points[step * k * n..(step * k + 1) * n].iter().copied()).collect();
        Some(FoldTables { fold, n, points })
    }

    /// The fold these tables were made for.
    pub fn fold(&self) -> Fold {
        self.fold
    }

    /// Number of bases (of one copy).
    pub fn len(&self) -> usize {
        self.n
    }

    /// True when there are no bases.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Every copy, block after block (`fold().copies` blocks of `len()` points).
    pub fn points(&self) -> &[Affine<C>] {
        &self.points
    }
}

/// Number of signed windows of width c (2..=31) that every reduced scalar (below
/// 2^[`SCALAR_BITS`]) needs, the last carry included (zkforge-msm's `num_windows`): 18 at
/// c = 15, 13 at c = 20, 12 at 22, 11 at 24.
pub fn windows(c: u32) -> usize {
    num_windows(&max_of_bits(SCALAR_BITS), c)
}

/// Decomposes `scalars` (reduced, little-endian limbs) for the points `base_index ..` and
/// sorts them into buckets, windows in parallel on the current rayon pool.
pub fn layout(scalars: &[[u64; 4]], base_index: u32, c: u32, max_run: u32) -> Layout {
    layout_folded(scalars, base_index, c, max_run, windows(c), 0)
}

/// [`layout`] for bases folded into `sets` bucket sets ([`Fold`]): window w's digits go to
/// set w % sets and name point `base_index + i + (w / sets) nbases` (the copy of base i
/// shifted for window w; `nbases` is the number of bases of one copy). `sets` = the window
/// count (or more) is [`layout`]. Digits per window in parallel, then the sets in parallel.
pub fn layout_folded(scalars: &[[u64; 4]], base_index: u32, c: u32, max_run: u32, sets: usize, nbases: u32) -> Layout {
    let nw = windows(c);
    let sets = sets.clamp(1, nw);
    let h = 1usize << (c - 1);
    let theta = thresholds(c, nw);
    // Pass 1, per window in parallel: digits (kept for pass 2; |d| <= 2^(c-1)) and counts
    // per |digit|.
    let mut counted: Vec<(Vec<i32>, Vec<u32>)> = (0..nw)
        .into_par_iter()
        .map(|w| {
            let mut counts = vec![0u32; h + 1];
            let digits: Vec<i32> = scalars
                .iter()
                .map(|k| {
                    let d = digit(k, w as u32, c, &theta[w]);
                    counts[d.unsigned_abs() as usize] += 1;
                    d
                })
                .collect();
            counts[0] = 0;
            (digits, counts)
        })
        .collect();
    // Each set's windows (w = s, s + sets, ...) and its bucket counts over them.
    let mut by_set: Vec<Vec<(usize, Vec<i32>)>> = (0..sets).map(|_| Vec::new()).collect();
    let mut set_counts: Vec<Vec<u32>> = vec![vec![0u32; h + 1]; sets];
    for (w, (digits, counts)) in counted.drain(..).enumerate() {
        for (a, b) in set_counts[w % sets].iter_mut().zip(&counts) {
            *a += b;
        }
        by_set[w % sets].push((w, digits));
    }
    // Every set's place in one entries array, and each bucket's start within it.
    let totals: Vec<usize> = set_counts.iter().map(|cnt| cnt.iter().map(|&x| x as usize).sum()).collect();
    let total: usize = totals.iter().sum();
    let mut entries = vec![0u32; total];
    let mut slices: Vec<&mut [u32]> = Vec::with_capacity(sets);
    let mut rest: &mut [u32] = &mut entries;
    for &t in &totals {
        let (a, b) = rest.split_at_mut(t);
        slices.push(a);
        rest = b;
    }
    let mut set_base = Vec::with_capacity(sets);
    let mut acc = 0u32;
    for &t in &totals {
        set_base.push(acc);
        acc += t as u32;
    }
    // Pass 2, per set in parallel: scatter its windows into the set's slice; the set's run
    // offsets (absolute) and its buckets' first runs (relative to the set) come back.
    let max_run = max_run.max(1);
    let per_set: Vec<(Vec<u32>, Vec<u32>)> = slices
        .into_par_iter()
        .zip(by_set.into_par_iter().zip(set_counts.into_par_iter()))
        .enumerate()
        .map(|(s, (slice, (wins, counts)))| {
            let mut next = vec![0u32; h + 1];
            let mut a = 0u32;
            for b in 1..=h {
                next[b] = a;
                a += counts[b];
            }
            let starts = next.clone();
            for (w, digits) in &wins {
                let shift = (w / sets) as u32 * nbases;
                for (i, &d) in digits.iter().enumerate() {
                    if d != 0 {
                        let b = d.unsigned_abs() as usize;
                        slice[next[b] as usize] = (base_index + i as u32 + shift) | (((d < 0) as u32) << 31);
                        next[b] += 1;
                    }
                }
            }
            let base = set_base[s];
            let mut offs = Vec::new();
            let mut first = Vec::with_capacity(h);
            for b in 1..=h {
                first.push(offs.len() as u32);
                let (lo, hi) = (base + starts[b], base + starts[b] + counts[b]);
                let mut e = lo;
                while e < hi {
                    offs.push(e);
                    e = e.saturating_add(max_run).min(hi);
                }
            }
            (offs, first)
        })
        .collect();
    let mut offsets = Vec::with_capacity(per_set.iter().map(|(o, _)| o.len()).sum::<usize>() + 1);
    let mut bucket_runs = Vec::with_capacity(sets * h + 1);
    for (offs, first) in &per_set {
        let r0 = offsets.len() as u32;
        bucket_runs.extend(first.iter().map(|f| r0 + f));
        offsets.extend_from_slice(offs);
    }
    bucket_runs.push(offsets.len() as u32);
    offsets.push(entries.len() as u32);
    Layout { entries, offsets, bucket_runs, nw: sets }
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

/// One window's sum from its T segments, given as the GPU writes them, interleaved
/// acc_0, run_0, acc_1, run_1, ... (segment length L): sum_t acc_t + L sum_t t run_t.
pub fn combine_segments<C: CurveConfig>(segs: &[Xyzz<C>], l: usize) -> Xyzz<C> {
    let mut acc_sum = Xyzz::<C>::IDENTITY;
    for a in segs.iter().step_by(2) {
        acc_sum = acc_sum.add_vartime(a);
    }
    // sum_t t run_t by running sums from the top (segment 0 has weight 0).
    let mut running = Xyzz::<C>::IDENTITY;
    let mut weighted = Xyzz::<C>::IDENTITY;
    for r in segs.iter().skip(3).step_by(2).rev() {
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

/// One part of a window's segment sums (`segs` as in [`combine_segments`]), segments
/// `s0..s1`: `[A, R, W]` with A = sum acc_s, R = sum run_s and W = sum (s - s0) run_s. The
/// parts of a window are independent (the host sums them in parallel); [`combine_parts`]
/// joins them.
pub fn segment_part<C: CurveConfig>(segs: &[Xyzz<C>], s0: usize, s1: usize) -> [Xyzz<C>; 3] {
    let (mut a, mut running, mut weighted) = (Xyzz::<C>::IDENTITY, Xyzz::<C>::IDENTITY, Xyzz::<C>::IDENTITY);
    for s in s0..s1 {
        a = a.add_vartime(&segs[2 * s]);
    }
    for s in (s0 + 1..s1).rev() {
        running = running.add_vartime(&segs[2 * s + 1]);
        weighted = weighted.add_vartime(&running);
    }
    let r = running.add_vartime(&segs[2 * s0 + 1]);
    [a, r, weighted]
}

/// A window's sum from its parts (each [`segment_part`] of `m` segments, part q starting at
/// segment q m; `m` and `l` powers of two): sum A_q + l (sum W_q + m sum_q q R_q). Equal to
/// [`combine_segments`] over the whole window.
pub fn combine_parts<C: CurveConfig>(parts: &[[Xyzz<C>; 3]], m: usize, l: usize) -> Xyzz<C> {
    let (mut a, mut w) = (Xyzz::<C>::IDENTITY, Xyzz::<C>::IDENTITY);
    for p in parts {
        a = a.add_vartime(&p[0]);
        w = w.add_vartime(&p[2]);
    }
    // sum_q q R_q by running sums from the top, then times m.
    let (mut running, mut qr) = (Xyzz::<C>::IDENTITY, Xyzz::<C>::IDENTITY);
    for p in parts.iter().skip(1).rev() {
        running = running.add_vartime(&p[1]);
        qr = qr.add_vartime(&running);
    }
    let times_pow2 = |mut x: Xyzz<C>, k: usize| {
        let mut k = k;
        while k > 1 {
            x = x.double();
            k >>= 1;
        }
        x
    };
    let weighted = w.add_vartime(&times_pow2(qr, m));
    a.add_vartime(&times_pow2(weighted, l))
}

/// A window's sum from the roots of the GPU's segment tree (`tree_segments`): `roots` triples
/// [A_q, D_q, S_q] for consecutive ranges q of m segments each (D_q = m sum running_s,
/// S_q = sum (s - q m) running_s): sum A_q + l (sum S_q + sum_q q D_q), `l` buckets a
/// segment (a power of two). Equal to [`combine_segments`] over the whole window.
pub fn combine_roots<C: CurveConfig>(roots: &[[Xyzz<C>; 3]], l: usize) -> Xyzz<C> {
    let (mut a, mut sum) = (Xyzz::<C>::IDENTITY, Xyzz::<C>::IDENTITY);
    for r in roots {
        a = a.add_vartime(&r[0]);
        sum = sum.add_vartime(&r[2]);
    }
    // sum_q q D_q by running sums from the top.
    let mut running = Xyzz::<C>::IDENTITY;
    for r in roots.iter().skip(1).rev() {
        running = running.add_vartime(&r[1]);
        sum = sum.add_vartime(&running);
    }
    let mut k = l;
    while k > 1 {
        sum = sum.double();
        k >>= 1;
    }
    a.add_vartime(&sum)
}

/// Parts a window's segment sums are split in for the host's parallel combination
/// ([`window_sums`] without the tree).
pub const HOST_COMBINE_PARTS: usize = 16;

/// The windows' sums from the GPU reduction's triples as they came down (`pts`, three points
/// a triple, `per` triples a window, `l` buckets a segment): with `tree`, the segment tree's
/// roots ([`combine_roots`]); else the untouched segment triples [acc, running, 0], each
/// window summed in [`HOST_COMBINE_PARTS`] parts in parallel ([`segment_part`],
/// [`combine_parts`]: a window at a time leaves most of a 16-core host idle).
pub fn window_sums<C: CurveConfig>(pts: &[Xyzz<C>], per: usize, l: usize, tree: bool) -> Vec<Xyzz<C>> {
    if tree {
        let tri: Vec<[Xyzz<C>; 3]> = pts.chunks(3).map(|t| [t[0], t[1], t[2]]).collect();
        return tri.par_chunks(per).map(|r| combine_roots(r, l)).collect();
    }
    let two: Vec<Xyzz<C>> = pts.chunks(3).flat_map(|tri| [tri[0], tri[1]]).collect();
    let nw = two.len() / (2 * per);
    let parts = per.min(HOST_COMBINE_PARTS);
    let m = per / parts;
    let tr: Vec<[Xyzz<C>; 3]> = (0..nw * parts).into_par_iter().map(|i| segment_part(&two[(i / parts) * 2 * per..(i / parts + 1) * 2 * per], (i % parts) * m, (i % parts + 1) * m)).collect();
    tr.chunks(parts).map(|p| combine_parts(p, m, l)).collect()
}

/// The tree's merge of two adjacent ranges of equal length as triples [A, D, S] (what
/// `tree_segments` does on the GPU; for tests and the host's own checks).
pub fn tree_merge<C: CurveConfig>(left: &[Xyzz<C>; 3], right: &[Xyzz<C>; 3]) -> [Xyzz<C>; 3] {
    [left[0].add_vartime(&right[0]), left[1].add_vartime(&right[1]).double(), left[2].add_vartime(&right[2]).add_vartime(&right[1])]
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

/// Tree passes over a bucket's run sums before its merge thread adds them (CUDA `fold_runs`):
/// the fewest `p` with ceil(`most` / 2^p) <= `serial`, where `most` is the most runs of any
/// bucket and `serial` the most sums one merge thread adds in a row.
pub fn fold_passes(most: u32, serial: u32) -> u32 {
    let mut p = 0;
    while p < 31 && most.div_ceil(1 << p) > serial.max(1) {
        p += 1;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    /// sum_w d_w 2^(c w) as 6 little-endian limbs (two's complement), for the digits of any
    /// width.
    fn recompose(d: &[i32], c: u32) -> [u64; 6] {
        let mut acc = [0u64; 6];
        for (w, &dw) in d.iter().enumerate() {
            let sh = c * w as u32;
            // dw 2^sh as a sign-extended 6-limb number, then added.
            let mut term = [if dw < 0 { u64::MAX } else { 0 }; 6];
            let v = dw as i64 as i128;
            let (limb, off) = ((sh / 64) as usize, sh % 64);
            let wide = v << off;
            for t in term.iter_mut().take(limb) {
                *t = 0;
            }
            if limb < 6 {
                term[limb] = wide as u64;
            }
            if limb + 1 < 6 {
                term[limb + 1] = (wide >> 64) as u64;
            }
            let mut carry = 0u128;
            for (a, t) in acc.iter_mut().zip(term) {
                let s = *a as u128 + t as u128 + carry;
                *a = s as u64;
                carry = s >> 64;
            }
        }
        acc
    }

    #[test]
    fn digit_alone_equals_the_recoding() {
        use zkforge_msm::recode::signed_digits;
        let mut x = 0x9e3779b97f4a7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for c in 2..=crate::config::MAX_WINDOW {
            let nw = windows(c);
            let theta = thresholds(c, nw);
            for t in 0..300 {
                let mut k = [next(), next(), next(), next() >> 1];
                if t % 3 == 0 {
                    k = [u64::MAX, u64::MAX, u64::MAX, u64::MAX >> 1];
                }
                if t % 5 == 0 {
                    k = [next() & 0x8080_8080_8080_8080, 0, 0, 0];
                }
                if t == 1 {
                    k = [0; 4];
                }
                let d: Vec<i32> = (0..nw).map(|w| digit(&k, w as u32, c, &theta[w])).collect();
                // Every width: signed digits in [-2^(c-1), 2^(c-1)) that recompose to k (the
                // balanced representation is unique, so this pins each digit).
                for (w, &dw) in d.iter().enumerate() {
                    assert!((-(1i32 << (c - 1))..(1i32 << (c - 1))).contains(&dw), "c {c} w {w} digit {dw}");
                }
                assert_eq!(recompose(&d, c), [k[0], k[1], k[2], k[3], 0, 0], "c {c} k {k:x?}");
                // The widths zkforge-msm recodes: the same digits.
                if c <= 16 {
                    let mut r = vec![0i16; nw];
                    assert!(signed_digits(&k, c, nw, &mut r, 1));
                    for w in 0..nw {
                        assert_eq!(d[w], r[w] as i32, "c {c} w {w} k {k:x?}");
                    }
                }
            }
        }
        assert_eq!((windows(20), windows(22), windows(24)), (13, 12, 11));
    }

    #[test]
    fn parts_combine_like_the_whole_window() {
        use rand::{rngs::StdRng, SeedableRng};
        use zkforge_curve::bn254::G1Config;
        let mut r = StdRng::seed_from_u64(5);
        let pts = zkforge_curve::sample_points::<G1Config>(&mut r, 64);
        for t in [1usize, 2, 4, 16, 32] {
            // Identities and repeats among the segment sums too.
            let segs: Vec<Xyzz<G1Config>> = (0..2 * t).map(|i| if i % 5 == 3 { Xyzz::IDENTITY } else { Xyzz::IDENTITY.add_mixed_vartime(&pts[i % 37]) }).collect();
            for l in [1usize, 2, 8] {
                let want = combine_segments(&segs, l);
                for parts in [1usize, 2, 4, 16, 32].into_iter().filter(|&p| p <= t) {
                    let m = t / parts;
                    let tr: Vec<_> = (0..parts).map(|q| segment_part(&segs, q * m, (q + 1) * m)).collect();
                    assert_eq!(combine_parts(&tr, m, l).to_jacobian(), want.to_jacobian(), "t {t} l {l} parts {parts}");
                }
            }
        }
    }

    #[test]
    fn tree_roots_combine_like_the_whole_window() {
        use rand::{rngs::StdRng, SeedableRng};
        use zkforge_curve::bls12_381::G1Config;
        let mut r = StdRng::seed_from_u64(9);
        let pts = zkforge_curve::sample_points::<G1Config>(&mut r, 40);
        for t in [1usize, 2, 4, 16, 64] {
            let segs: Vec<Xyzz<G1Config>> = (0..2 * t).map(|i| if i % 7 == 2 { Xyzz::IDENTITY } else { Xyzz::IDENTITY.add_mixed_vartime(&pts[i % 29]) }).collect();
            for l in [1usize, 4] {
                let want = combine_segments(&segs, l).to_jacobian();
                // Level by level as the GPU does, checking the roots at every level.
                let mut level: Vec<[Xyzz<G1Config>; 3]> = (0..t).map(|s| [segs[2 * s], segs[2 * s + 1], Xyzz::IDENTITY]).collect();
                loop {
                    assert_eq!(combine_roots(&level, l).to_jacobian(), want, "t {t} l {l} roots {}", level.len());
                    if level.len() == 1 {
                        break;
                    }
                    level = level.chunks(2).map(|p| tree_merge(&p[0], &p[1])).collect();
                }
            }
        }
    }

    #[test]
    fn fold_passes_bound_the_serial_merge() {
        for most in [0u32, 1, 2, 3, 16, 17, 100, 65_536, 1 << 31] {
            for serial in [1u32, 2, 3, 16, u32::MAX] {
                let p = fold_passes(most, serial);
                assert!(most.div_ceil(1 << p) <= serial, "most {most} serial {serial}");
                assert!(p == 0 || most.div_ceil(1 << (p - 1)) > serial, "most {most} serial {serial}: not the fewest");
            }
        }
        assert_eq!(fold_passes(8192, 16), 9);
        assert_eq!(fold_passes(5, u32::MAX), 0);
    }
}

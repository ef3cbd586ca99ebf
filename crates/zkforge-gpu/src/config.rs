//! The GPU MSM's switches. Every value a field documents gives the right answer (tests run
//! them all); [`GpuConfig::for_size`] picks the default per size.

use crate::GpuError;

/// The widest window either backend takes: 24 bits (11 digit windows of 2^23 buckets). The
/// digits fit both sort kernels' 32-bit reads and the host's i32 digits; the bucket count
/// is what limits it in practice (each configuration's memory budget refuses what does not
/// fit).
pub const MAX_WINDOW: u32 = 24;

/// How buckets accumulate their points on the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accumulate {
    /// One thread per bucket, XYZZ mixed additions (madd-2008-s, 8M + 2S each).
    Xyzz,
    /// One thread per `s` buckets: each step adds one point to each of the s buckets in affine
    /// coordinates with one shared field inversion (6M + 1S each, plus one inversion per
    /// step). `s` in 1..=256 (1024 gave wrong sums on Mesa 22.3's lavapipe and is refused).
    BatchAffine {
        /// Buckets (and so additions) per inversion.
        s: u32,
    },
}

/// Where a phase runs: the bucket sort ([`GpuConfig::sort`]) or the bucket reduction,
/// sum_b b B_b per window ([`GpuConfig::reduce`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// On the GPU. For the reduction: each window split into `segments` running sums; the
    /// CPU combines the segments.
    Gpu,
    /// On the CPU (rayon). For the reduction: bucket sums are downloaded and reduced per
    /// window.
    Cpu,
}

/// Every switch of the GPU MSM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuConfig {
    /// Window width c in 2..=[`MAX_WINDOW`]; `None` picks by size (at most 15). Ignored on
    /// window-folded bases, whose copies fix the window (`plan::Fold::window`). Widths above 16
    /// are for folded bases (fewer digit windows, one bucket set); on plain bases their
    /// 2^(c-1) buckets a window soon exceed the memory budget and are refused.
    pub window: Option<u32>,
    /// Where the scalars are decomposed into signed digits and counting-sorted into buckets:
    /// `Gpu` uploads the scalars (32 bytes a point) and sorts with the kernels of
    /// `sort_kernels`; `Cpu` sorts on the host (rayon, `plan::layout`) and uploads the
    /// entries (4 bytes a point and window).
    pub sort: Placement,
    /// Where the scalars become residues mod r below r: `Gpu` uploads them as stored (a
    /// plain copy of `MsmScalar::raw_limbs`: Montgomery limbs for field elements, any 256-bit
    /// integer for `[u64; 4]`) and one kernel ([`crate::kernels::Kernel::ScalarPrep`])
    /// converts them in place before the sort; `Cpu` converts and reduces them on the host
    /// (rayon). With `sort: Cpu` the host needs the digits, so the scalars are always
    /// converted there.
    pub scalars: Placement,
    /// Bucket accumulation method.
    pub accumulate: Accumulate,
    /// With XYZZ accumulation, load the next entry's base before the current addition
    /// (`Kernel::AccumulateXyzzPrefetch`, software pipelining) instead of after it. Off by
    /// default until a GPU run times it (BENCHMARKS.md, 2026-11-29).
    pub prefetch: bool,
    /// Where the bucket reduction runs.
    pub reduce: Placement,
    /// Segments per window of the GPU reduction: a power of two, at most 2^(c-1). On lavapipe
    /// before Mesa 25 at least 2^(c-15) (a segment of 2^15 buckets sums wrong there).
    pub segments: u32,
    /// With the GPU reduction, where a window's segment sums are combined: on the GPU
    /// (`TreeSegments` passes, tree levels down to `tree_roots` triples a window, which come
    /// down and the host joins; the CUDA backend's method) or on the host (every segment sum
    /// comes down, each window summed in parts in parallel).
    pub combine: Placement,
    /// Triples a window the GPU tree stops at (a power of two; capped at the segments): 1 runs
    /// the tree to the top; more leave the last levels, whose few threads are latency-bound,
    /// to the host.
    pub tree_roots: u32,
    /// Threads per workgroup: a power of two in 32..=256.
    pub workgroup: u32,
    /// Fully unrolled (`Some(true)`) or rolled (`Some(false)`) field multiplication for every
    /// kernel; `None`: rolled on GPUs except the batch-affine kernel, unrolled on CPU adapters
    /// (the measured and tested choices, explained at `Gpu::unroll_for` in `host.rs`).
    /// `Some(false)` is refused with [`GpuError::Config`] on Mesa's lavapipe before Mesa 25,
    /// which computes wrong sums with the rolled form ([`crate::GpuMsm::supports_rolled`]).
    pub unroll: Option<bool>,
    /// Points per chunk: an MSM is split into chunks whose bucket layouts fit the adapter's
    /// buffer limit; `Some(k)` caps chunks at k points (k >= 1).
    pub chunk: Option<usize>,
    /// Keep the work buffers (layout, run and bucket sums; about as much device memory as the
    /// largest MSM so far needed) for the next MSM instead of allocating them anew each time;
    /// `GpuMsm::release_buffers` frees them.
    pub reuse_buffers: bool,
    /// Longest run of points one accumulation thread sums (>= 1): longer buckets are cut into
    /// runs whose partial sums a merge pass adds, so crowded buckets (the top window's) do not
    /// serialise the accumulation on one thread. CPU adapters cap it at 32 (see `host`).
    pub max_run: u32,
    /// Most run sums one merge thread adds in a row (>= 1): a bucket with more runs (a
    /// skewed scalar set such as equal scalars, or a top window of few buckets) is first
    /// summed in a tree by `FoldRuns` passes, each halving its runs, as the CUDA backend does;
    /// `u32::MAX` never folds (the merge adds every run of a bucket on one thread).
    pub merge_serial: u32,
}

impl Default for GpuConfig {
    fn default() -> Self {
        GpuConfig { window: None, sort: Placement::Gpu, scalars: Placement::Gpu, accumulate: Accumulate::Xyzz, prefetch: false, reduce: Placement::Gpu, segments: 256, combine: Placement::Gpu, tree_roots: 32, workgroup: 64, unroll: None, chunk: None, reuse_buffers: true, max_run: 64, merge_serial: 16 }
    }
}

impl GpuConfig {
    /// The default for `n` points.
    pub fn for_size(n: usize) -> Self {
        GpuConfig { window: Some(default_window(n)), segments: default_segments(n), max_run: default_max_run(n), ..Default::default() }
    }

    /// The default for `n` points on bases folded by `fold` ([`crate::plan::Fold`]):
    /// [`GpuConfig::for_size`] with the fold's window and at least 2^(c-1) / 16 reduction
    /// segments a bucket set, so that a segment holds no more than the 16 buckets of the
    /// plain default (c = 15, 1024 segments): a wide fold (c = 20, 2^19 buckets in one set)
    /// keeps its reduction as parallel as the plain bases' 18 windows. Not yet timed on a GPU.
    ///
    /// ```
    /// use zkforge_gpu::{plan::Fold, GpuConfig};
    /// let cfg = GpuConfig::for_fold(1 << 20, Fold::new(20, 1).unwrap());
    /// assert_eq!((cfg.window, cfg.segments), (Some(20), 1 << 15));
    /// ```
    pub fn for_fold(n: usize, fold: crate::plan::Fold) -> Self {
        let g = GpuConfig::for_size(n);
        GpuConfig { window: Some(fold.window), segments: fold_segments(g.segments, fold), ..g }
    }

    /// The window width used for `n` points.
    pub fn window_for(&self, n: usize) -> u32 {
        self.window.unwrap_or_else(|| default_window(n))
    }

    /// Checks every field's range.
    pub fn validate(&self) -> Result<(), GpuError> {
        check_shared(self.window, self.max_run, self.chunk, self.segments, self.merge_serial, self.tree_roots)?;
        if let Accumulate::BatchAffine { s } = self.accumulate {
            if !(1..=256).contains(&s) {
                return Err(GpuError::Config(format!("batch-affine S = {s} is outside 1..=256")));
            }
        }
        if !self.workgroup.is_power_of_two() || !(32..=256).contains(&self.workgroup) {
            return Err(GpuError::Config(format!("workgroup size {} is not a power of two in 32..=256", self.workgroup)));
        }
        Ok(())
    }
}

/// The range checks both backends' configurations share: window width, run length, chunk
/// size, segment count, merge run and tree roots.
pub(crate) fn check_shared(window: Option<u32>, max_run: u32, chunk: Option<usize>, segments: u32, merge_serial: u32, tree_roots: u32) -> Result<(), GpuError> {
    if let Some(c) = window {
        if !(2..=MAX_WINDOW).contains(&c) {
            return Err(GpuError::Config(format!("window width {c} is outside 2..={MAX_WINDOW}")));
        }
    }
    if max_run == 0 {
        return Err(GpuError::Config("max_run must be at least 1 point".into()));
    }
    if chunk == Some(0) {
        return Err(GpuError::Config("chunk size must be at least 1 point".into()));
    }
    if !segments.is_power_of_two() {
        return Err(GpuError::Config(format!("segments = {segments} is not a power of two")));
    }
    if merge_serial == 0 {
        return Err(GpuError::Config("merge_serial must be at least 1".into()));
    }
    if !tree_roots.is_power_of_two() {
        return Err(GpuError::Config(format!("tree_roots {tree_roots} is not a power of two")));
    }
    Ok(())
}

/// Reduction segments per window by size (H200, BENCHMARKS.md): 1024 from 2^15 points (the
/// GPU reduction 2.5-4x shorter for a CPU combination of 2 x 1024 points a window; equal or
/// faster at 2^16-2^22 on both curves), 256 below.
fn default_segments(n: usize) -> u32 {
    if n >= 1 << 15 {
        1024
    } else {
        256
    }
}

/// Reduction segments a bucket set for folded bases: `plain` (the size's default) raised to
/// 2^(c-1) / 16.
pub(crate) fn fold_segments(plain: u32, fold: crate::plan::Fold) -> u32 {
    plain.max((1u32 << (fold.window - 1)) / 16)
}

/// Longest accumulation run by size (H200, BENCHMARKS.md): 16 from 2^19 points (at 2^20 the
/// MSM 16 % (BLS12-381) and 12 % (BN254) faster than with 64; 3-4 % at 2^22), 64 below, where
/// the two were within noise.
fn default_max_run(n: usize) -> u32 {
    if n >= 1 << 19 {
        16
    } else {
        64
    }
}

/// Window width by size (measured on an H200 with the GPU sort, BENCHMARKS.md): 15 from 2^15
/// points (c = 16 was 5-12 % slower at 2^20 and 2^22, c = 14 slower from 2^16), below that
/// enough buckets to keep threads busy without leaving most of them empty.
pub(crate) fn default_window(n: usize) -> u32 {
    let lg = usize::BITS - n.max(1).leading_zeros();
    if n >= 1 << 15 {
        15
    } else {
        lg.saturating_sub(3).clamp(4, 13)
    }
}

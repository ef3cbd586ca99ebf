//! The wgpu host side: adapter and device selection, pipelines (generated WGSL, compiled once
//! per kernel and workgroup size), resident bases, buffers within the adapter's limits, the
//! dispatch sequence of one MSM, and per-phase timing.

use crate::config::{Accumulate, GpuConfig, Placement};
use crate::kernels::{source, Kernel};
use crate::plan;
use crate::{GpuCurve, GpuError};
use rayon::prelude::*;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use zkforge_curve::{Affine, Jacobian, Xyzz};
use zkforge_msm::MsmScalar;

/// Which adapters the MSM may use (default: GPUs only, any name).
#[derive(Clone, Debug, Default)]
pub struct GpuOptions {
    /// Accept a CPU adapter (lavapipe, WARP) when no GPU is present. Off by default: such an
    /// adapter is slower than the CPU MSM, and Mesa 22.3's lavapipe miscompiled some kernel
    /// shapes (see `field_gen`); the tests turn it on and check every result.
    pub allow_cpu_adapter: bool,
    /// Use only adapters whose name contains this (case-insensitive), if set.
    pub name_contains: Option<String>,
}

/// Wall-clock time of each phase of one MSM (the profiled entry point waits for the GPU after
/// each phase, so the phases add up to a little more than an unprofiled run), and, where the
/// adapter has timestamp queries, the GPU's own time for the kernels of each phase.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhaseTimes {
    /// Scalar decomposition and bucket sort (GPU kernels with the scalars' conversion, or the
    /// CPU with `sort: Cpu`, its reduction of the scalars included).
    pub decompose: Duration,
    /// Upload of the scalars (written straight into the staging memory: copied as stored, or
    /// reduced there with `scalars: Cpu`) or of the CPU sort's bucket layout.
    pub upload: Duration,
    /// Bucket accumulation kernel.
    pub accumulate: Duration,
    /// Bucket reduction (GPU kernel, or CPU when placed there).
    pub reduce: Duration,
    /// Download of segment or bucket sums.
    pub download: Duration,
    /// Final combination on the CPU.
    pub combine: Duration,
    /// GPU timestamps (`None` without `TIMESTAMP_QUERY`, or outside `msm_profiled`): the sort
    /// kernels' time, summed over their passes (zero with `sort: Cpu`).
    pub gpu_sort: Option<Duration>,
    /// GPU timestamps: the accumulation and merge kernels' time.
    pub gpu_accumulate: Option<Duration>,
    /// GPU timestamps: the reduction kernel's time (zero with `reduce: Cpu`).
    pub gpu_reduce: Option<Duration>,
}

fn add_opt(a: &mut Option<Duration>, b: Option<Duration>) {
    *a = match (*a, b) {
        (Some(x), Some(y)) => Some(x + y),
        (None, y) => y,
        (x, None) => x,
    };
}

/// Phases that GPU timestamps are summed into.
#[derive(Clone, Copy)]
enum StampPhase {
    Sort,
    Accumulate,
    Reduce,
}

/// Timestamp queries around every compute pass of one profiled MSM chunk.
struct Stamps {
    set: wgpu::QuerySet,
    phases: Vec<StampPhase>,
}

/// Query pairs one chunk can use: it has at most 56 passes (the scalars' conversion, six sort
/// kernels, the accumulation, up to 31 fold passes, the merge, the reduction and up to 15
/// tree levels).
const STAMP_PAIRS: u32 = 64;

impl PhaseTimes {
    pub(crate) fn add(&mut self, o: &PhaseTimes) {
        self.decompose += o.decompose;
        self.upload += o.upload;
        self.accumulate += o.accumulate;
        self.reduce += o.reduce;
        self.download += o.download;
        self.combine += o.combine;
        add_opt(&mut self.gpu_sort, o.gpu_sort);
        add_opt(&mut self.gpu_accumulate, o.gpu_accumulate);
        add_opt(&mut self.gpu_reduce, o.gpu_reduce);
    }
    /// The column names of [`PhaseTimes::table_cells`], as a markdown table row's middle.
    pub const TABLE_HEADER: &'static str = "decompose | upload | accumulate | reduce | download | combine | GPU sort | GPU accumulate | GPU reduce";

    /// The phases in milliseconds as markdown table cells (`-` for GPU times not measured),
    /// in the order of [`PhaseTimes::TABLE_HEADER`].
    pub fn table_cells(&self) -> String {
        let ms = |d: Duration| format!("{:.2}", d.as_secs_f64() * 1e3);
        let g = |d: Option<Duration>| d.map_or("-".to_string(), ms);
        [ms(self.decompose), ms(self.upload), ms(self.accumulate), ms(self.reduce), ms(self.download), ms(self.combine), g(self.gpu_sort), g(self.gpu_accumulate), g(self.gpu_reduce)].join(" | ")
    }

    /// One line: every phase in milliseconds, and the GPU's own times where measured.
    pub fn summary(&self) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let mut s = format!(
            "decompose {:.2} upload {:.2} accumulate {:.2} reduce {:.2} download {:.2} combine {:.2} ms",
            ms(self.decompose),
            ms(self.upload),
            ms(self.accumulate),
            ms(self.reduce),
            ms(self.download),
            ms(self.combine)
        );
        if let (Some(a), Some(b), Some(c)) = (self.gpu_sort, self.gpu_accumulate, self.gpu_reduce) {
            s += &format!("; GPU time: sort {:.2} accumulate {:.2} reduce {:.2} ms", ms(a), ms(b), ms(c));
        }
        s
    }

    /// Sum of the phases.
    pub fn total(&self) -> Duration {
        self.decompose + self.upload + self.accumulate + self.reduce + self.download + self.combine
    }
}

/// Bases kept on the device (Montgomery form) for many MSMs.
pub struct GpuBases<C: GpuCurve> {
    buf: Option<wgpu::Buffer>,
    cpu: Vec<Affine<C>>,
    n: usize,
    /// The window folding the copies in `buf` were made for (`None`: the bases alone).
    fold: Option<plan::Fold>,
    /// Time the upload (copy and conversion to Montgomery form) took.
    pub upload_time: Duration,
}

impl<C: GpuCurve> GpuBases<C> {
    /// Number of bases.
    pub fn len(&self) -> usize {
        self.n
    }
    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    /// The window folding of these bases ([`GpuMsm::upload_bases_folded`]), if any.
    pub fn fold(&self) -> Option<plan::Fold> {
        self.fold
    }
}

struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    info: wgpu::AdapterInfo,
    limits: wgpu::Limits,
    pipelines: Mutex<HashMap<(Kernel, u32, bool), wgpu::ComputePipeline>>,
    /// Work buffers of finished MSMs, by role, for the next one ([`GpuConfig::reuse_buffers`]).
    /// An MSM takes the buffers it uses out of the pool and puts them back when its result is
    /// downloaded, so concurrent MSMs never share one.
    pool: Mutex<HashMap<&'static str, wgpu::Buffer>>,
    /// The host vector the scalars are staged in before their upload, kept for the next MSM
    /// like the work buffers (a fresh 32 MB vector at 2^20 points costs more in page faults
    /// than filling it).
    host_scalars: Mutex<Vec<[u64; 4]>>,
    /// The device was opened with `TIMESTAMP_QUERY`.
    timestamps: bool,
}

impl Gpu {
    /// The multiplication form for `kernel` when the configuration leaves it open, in one
    /// place:
    /// - batch-affine: unrolled everywhere (on the H100 the two forms ran it at the same speed;
    ///   on Mesa 22.3's lavapipe the rolled one, nested in its loops, gave wrong values);
    /// - other kernels on GPUs: rolled (as fast or faster on the H100, BENCHMARKS.md);
    /// - other kernels on CPU adapters: unrolled (lavapipe gave wrong BLS12-381 accumulation
    ///   and merge sums with the rolled one after a few dozen points; NVIDIA ran the same
    ///   shaders correctly, and the field tests pass on both forms on both drivers).
    fn unroll_for(&self, kernel: Kernel, cfg_unroll: Option<bool>) -> bool {
        cfg_unroll.unwrap_or(match kernel {
            Kernel::AccumulateAffine => true,
            _ => self.is_cpu(),
        })
    }
    fn is_cpu(&self) -> bool {
        self.info.device_type == wgpu::DeviceType::Cpu
    }

    /// True on Mesa's lavapipe before Mesa 25, whose compiler gets the MSM kernels' long loops
    /// wrong (BENCHMARKS.md, 2026-11-29): the rolled multiplication there (wrong sums for a GPU
    /// reduction over 2048 buckets a segment, and for the accumulation and merge of long runs),
    /// and, unrolled too, a reduction of 2^15 buckets a segment (2^16 loop steps). Mesa 25.0.7
    /// ran the same shaders right; versions between were not tried, so they count as affected.
    fn old_lavapipe(&self) -> bool {
        self.is_cpu() && self.info.driver.eq_ignore_ascii_case("llvmpipe") && mesa_major(&self.info.driver_info).is_none_or(|v| v < 25)
    }
}

/// The most buckets a GPU-reduction segment holds on lavapipe before Mesa 25 (2^15 gave wrong
/// sums there, 2^14 right: BENCHMARKS.md, 2026-11-29, third session).
const OLD_LAVAPIPE_MAX_SEGMENT: u32 = 1 << 14;

/// The major version in a Mesa driver string such as "Mesa 22.3.6 (LLVM 15.0.6)".
fn mesa_major(driver_info: &str) -> Option<u32> {
    let rest = &driver_info[driver_info.find("Mesa ")? + 5..];
    rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

/// G1 MSM on a GPU (or, from [`GpuMsm::new_or_cpu`] without one, on the CPU).
pub struct GpuMsm<C: GpuCurve> {
    gpu: Option<Gpu>,
    fallback: Option<String>,
    _c: PhantomData<C>,
}

fn wait(device: &wgpu::Device) -> Result<(), GpuError> {
    device.poll(wgpu::PollType::wait_indefinitely()).map(|_| ()).map_err(|e| GpuError::Device(e.to_string()))
}

impl<C: GpuCurve> GpuMsm<C> {
    /// Opens the first adapter the options allow (GPUs before CPU adapters).
    pub fn new(opts: &GpuOptions) -> Result<Self, GpuError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
        let mut found: Vec<wgpu::Adapter> = adapters
            .into_iter()
            .filter(|a| {
                let info = a.get_info();
                let name_ok = opts.name_contains.as_ref().is_none_or(|s| info.name.to_lowercase().contains(&s.to_lowercase()));
                let kind_ok = opts.allow_cpu_adapter || info.device_type != wgpu::DeviceType::Cpu;
                name_ok && kind_ok && a.get_downlevel_capabilities().flags.contains(wgpu::DownlevelFlags::COMPUTE_SHADERS)
            })
            .collect();
        found.sort_by_key(|a| match a.get_info().device_type {
            wgpu::DeviceType::DiscreteGpu => 0,
            wgpu::DeviceType::IntegratedGpu => 1,
            wgpu::DeviceType::VirtualGpu => 2,
            wgpu::DeviceType::Other => 3,
            wgpu::DeviceType::Cpu => 4,
        });
        let adapter = found.into_iter().next().ok_or_else(|| {
            GpuError::NoAdapter(if opts.allow_cpu_adapter {
                "wgpu found no Vulkan, Metal or DX12 adapter with compute shaders (on Linux, install a Vulkan driver: mesa-vulkan-drivers gives the CPU driver lavapipe)".into()
            } else {
                "wgpu found no GPU adapter (CPU adapters were excluded)".into()
            })
        })?;
        let info = adapter.get_info();
        let limits = adapter.limits();
        let timestamps = adapter.features().contains(wgpu::Features::TIMESTAMP_QUERY);
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("zkforge-gpu"),
            required_features: if timestamps { wgpu::Features::TIMESTAMP_QUERY } else { wgpu::Features::empty() },
            required_limits: limits.clone(),
            experimental_features: wgpu::ExperimentalFeatures::disabled(),
            memory_hints: wgpu::MemoryHints::Performance,
            trace: wgpu::Trace::Off,
        }))
        .map_err(|e| GpuError::Device(format!("could not open {}: {e}", info.name)))?;
        Ok(GpuMsm { gpu: Some(Gpu { device, queue, info, limits, pipelines: Mutex::new(HashMap::new()), pool: Mutex::new(HashMap::new()), host_scalars: Mutex::new(Vec::new()), timestamps }), fallback: None, _c: PhantomData })
    }

    /// [`GpuMsm::new`], or the CPU MSM (zkforge-msm) when no adapter can be opened; then
    /// [`GpuMsm::fallback_reason`] says why.
    pub fn new_or_cpu(opts: &GpuOptions) -> Self {
        match Self::new(opts) {
            Ok(g) => g,
            Err(e) => GpuMsm { gpu: None, fallback: Some(e.to_string()), _c: PhantomData },
        }
    }

    /// Why this instance runs on the CPU, if it does.
    pub fn fallback_reason(&self) -> Option<&str> {
        self.fallback.as_deref()
    }

    /// False on a driver known to compute wrong MSM sums with the rolled field multiplication
    /// (Mesa's lavapipe before Mesa 25), where [`GpuConfig::unroll`] `Some(false)` is refused
    /// with a [`GpuError::Config`]; true elsewhere (and on the CPU fallback, which ignores the
    /// switch).
    pub fn supports_rolled(&self) -> bool {
        self.gpu.as_ref().is_none_or(|g| !g.old_lavapipe())
    }

    /// The adapter's name, driver and backend, or "CPU (zkforge-msm)".
    pub fn adapter_name(&self) -> String {
        match &self.gpu {
            Some(g) => format!("{} ({:?}, {} {})", g.info.name, g.info.backend, g.info.driver, g.info.driver_info),
            None => "CPU (zkforge-msm)".into(),
        }
    }

    fn pipeline(&self, g: &Gpu, kernel: Kernel, wg: u32, unroll: bool) -> Result<wgpu::ComputePipeline, GpuError> {
        let mut cache = g.pipelines.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = cache.get(&(kernel, wg, unroll)) {
            return Ok(p.clone());
        }
        let scope = g.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = g.device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("zkforge-gpu kernel"),
            source: wgpu::ShaderSource::Wgsl(source(if matches!(kernel, Kernel::ScalarPrep(_)) { C::scalar_spec() } else { C::spec() }, kernel, wg, unroll).into()),
        });
        let p = g.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("zkforge-gpu pipeline"),
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(GpuError::Device(format!("kernel {kernel:?} did not compile: {e}")));
        }
        cache.insert((kernel, wg, unroll), p.clone());
        Ok(p)
    }

    fn check_size(g: &Gpu, what: &'static str, bytes: u64) -> Result<(), GpuError> {
        let limit = g.limits.max_storage_buffer_binding_size.min(g.limits.max_buffer_size);
        if bytes > limit {
            return Err(GpuError::TooLarge { what, bytes, limit });
        }
        Ok(())
    }

    fn storage(g: &Gpu, label: &'static str, bytes: u64) -> Result<wgpu::Buffer, GpuError> {
        Self::check_size(g, label, bytes)?;
        Ok(g.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: bytes.max(4),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        }))
    }

    /// A work buffer of at least `bytes` for `label`: from the pool when `reuse` and the pooled
    /// one is large enough (its stale contents are never read: every kernel writes or clears
    /// what it later reads), else new. Recorded in `held` to go back to the pool.
    fn work_buf(g: &Gpu, held: &mut Vec<(&'static str, wgpu::Buffer)>, reuse: bool, label: &'static str, bytes: u64) -> Result<wgpu::Buffer, GpuError> {
        let pooled = if reuse { g.pool.lock().unwrap_or_else(|e| e.into_inner()).remove(label) } else { None };
        let b = match pooled {
            Some(b) if b.size() >= bytes.max(4) => b,
            _ => Self::storage(g, label, bytes)?,
        };
        held.push((label, b.clone()));
        Ok(b)
    }

    /// The GPU time of the timestamped passes, summed per phase (sort, accumulate, reduce).
    fn read_stamps(g: &Gpu, st: &Stamps) -> Result<[Duration; 3], GpuError> {
        let queries = 2 * st.phases.len() as u32;
        let mut out = [Duration::ZERO; 3];
        if queries == 0 {
            return Ok(out);
        }
        let buf = g.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("timestamps"),
            size: 8 * queries as u64,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let mut enc = g.device.create_command_encoder(&Default::default());
        enc.resolve_query_set(&st.set, 0..queries, &buf, 0);
        g.queue.submit([enc.finish()]);
        let words = Self::read_back(g, &buf, 8 * queries as u64)?;
        let ns_per_tick = g.queue.get_timestamp_period() as f64;
        for (k, phase) in st.phases.iter().enumerate() {
            let tick = |q: usize| words[2 * q] as u64 | (words[2 * q + 1] as u64) << 32;
            let ticks = tick(2 * k + 1).saturating_sub(tick(2 * k));
            out[*phase as usize] += Duration::from_nanos((ticks as f64 * ns_per_tick) as u64);
        }
        Ok(out)
    }

    /// True when the device records GPU timestamps in [`GpuMsm::msm_profiled`]
    /// ([`PhaseTimes::gpu_accumulate`] and the others are `Some`).
    pub fn has_timestamps(&self) -> bool {
        self.gpu.as_ref().is_some_and(|g| g.timestamps)
    }

    /// Puts an MSM's work buffers back into the pool (after its GPU work has finished).
    fn give_back(g: &Gpu, held: Vec<(&'static str, wgpu::Buffer)>) {
        let mut pool = g.pool.lock().unwrap_or_else(|e| e.into_inner());
        for (label, b) in held {
            match pool.get(label) {
                Some(old) if old.size() >= b.size() => {}
                _ => {
                    pool.insert(label, b);
                }
            }
        }
    }

    /// Frees the pooled work buffers (they hold about as much device memory as the largest
    /// MSM run so far needed; the next MSM allocates again).
    pub fn release_buffers(&self) {
        if let Some(g) = &self.gpu {
            g.pool.lock().unwrap_or_else(|e| e.into_inner()).clear();
            *g.host_scalars.lock().unwrap_or_else(|e| e.into_inner()) = Vec::new();
        }
    }

    fn params(g: &Gpu, p: [u32; 8]) -> wgpu::Buffer {
        Self::params_words(g, &p)
    }

    /// A uniform buffer of `p` (a multiple of 4 words: 16-byte sizes for every backend).
    fn params_words(g: &Gpu, p: &[u32]) -> wgpu::Buffer {
        let b = g.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("params"),
            size: 4 * p.len() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        g.queue.write_buffer(&b, 0, bytemuck::cast_slice(p));
        b
    }

    fn dispatch(
        &self,
        g: &Gpu,
        enc: &mut wgpu::CommandEncoder,
        kernel: Kernel,
        wg: u32,
        unroll: Option<bool>,
        buffers: &[&wgpu::Buffer],
        threads: u32,
        stamp: Option<(&mut Stamps, StampPhase)>,
    ) -> Result<(), GpuError> {
        if threads == 0 {
            return Ok(());
        }
        let pipe = self.pipeline(g, kernel, wg, g.unroll_for(kernel, unroll))?;
        let layout = pipe.get_bind_group_layout(0);
        let entries: Vec<wgpu::BindGroupEntry> =
            buffers.iter().enumerate().map(|(i, b)| wgpu::BindGroupEntry { binding: i as u32, resource: b.as_entire_binding() }).collect();
        let bg = g.device.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout: &layout, entries: &entries });
        let groups = threads.div_ceil(wg);
        let max = g.limits.max_compute_workgroups_per_dimension.max(1);
        let (x, y) = if groups <= max { (groups, 1) } else { (max, groups.div_ceil(max)) };
        let writes = match stamp {
            Some((st, phase)) if (st.phases.len() as u32) < STAMP_PAIRS => {
                let i = 2 * st.phases.len() as u32;
                st.phases.push(phase);
                Some(wgpu::ComputePassTimestampWrites { query_set: &st.set, beginning_of_pass_write_index: Some(i), end_of_pass_write_index: Some(i + 1) })
            }
            _ => None,
        };
        let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor { label: None, timestamp_writes: writes });
        pass.set_pipeline(&pipe);
        pass.set_bind_group(0, &bg, &[]);
        pass.dispatch_workgroups(x, y, 1);
        Ok(())
    }

    fn read_back(g: &Gpu, src: &wgpu::Buffer, bytes: u64) -> Result<Vec<u32>, GpuError> {
        Self::read_back_at(g, src, 0, bytes)
    }

    /// `bytes` of `src` from byte `offset` (a multiple of 4), downloaded.
    fn read_back_at(g: &Gpu, src: &wgpu::Buffer, offset: u64, bytes: u64) -> Result<Vec<u32>, GpuError> {
        let staging = g.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("staging"),
            size: bytes.max(4),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut enc = g.device.create_command_encoder(&Default::default());
        enc.copy_buffer_to_buffer(src, offset, &staging, 0, bytes.max(4));
        g.queue.submit([enc.finish()]);
        let slice = staging.slice(..);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        wait(&g.device)?;
        rx.recv().map_err(|e| GpuError::Device(e.to_string()))?.map_err(|e| GpuError::Device(format!("download failed: {e}")))?;
        let out = {
            let view = slice.get_mapped_range().map_err(|e| GpuError::Device(e.to_string()))?;
            bytemuck::cast_slice::<u8, u32>(&view).to_vec()
        };
        staging.unmap();
        Ok(out)
    }

    /// Runs the field test kernel on pairs (a, b) of canonical elements (each `WORDS` words):
    /// returns, per pair, a b, a + b, a - b, a^-1 (0 for 0), -a and x <- x^2 + b iterated 1000 times from a, canonical, with
    /// `unroll` choosing the multiplication's form. For tests of the generated arithmetic.
    #[doc(hidden)]
    pub fn field_ops(&self, pairs: &[u32], unroll: bool) -> Result<Vec<u32>, GpuError> {
        let g = self.gpu.as_ref().ok_or_else(|| GpuError::NoAdapter("field_ops needs a GPU adapter".into()))?;
        let w = C::WORDS;
        let n = pairs.len() / (2 * w);
        let src = Self::storage(g, "field inputs", (pairs.len() * 4) as u64)?;
        let dst = Self::storage(g, "field outputs", (n * 6 * w * 4) as u64)?;
        g.queue.write_buffer(&src, 0, bytemuck::cast_slice(pairs));
        let params = Self::params(g, [0, 0, 0, 0, 0, 0, n as u32, 0]);
        let mut enc = g.device.create_command_encoder(&Default::default());
        self.dispatch(g, &mut enc, Kernel::FieldOps, 64, Some(unroll), &[&params, &src, &dst], n as u32, None)?;
        g.queue.submit([enc.finish()]);
        Self::read_back(g, &dst, (n * 6 * w * 4) as u64)
    }

    /// The scalars as the device converts them before its sort (`Kernel::ScalarPrep` on
    /// [`MsmScalar::raw_limbs`], with `unroll` choosing the multiplication's form), downloaded:
    /// each should be the scalar's residue mod r, below r. For tests of the conversion.
    #[doc(hidden)]
    pub fn device_scalars<S: MsmScalar<C>>(&self, scalars: &[S], unroll: bool) -> Result<Vec<[u64; 4]>, GpuError> {
        let g = self.gpu.as_ref().ok_or_else(|| GpuError::NoAdapter("device_scalars needs a GPU adapter".into()))?;
        let raw = staged_scalars::<C, S>(scalars, true);
        let sc = Self::storage(g, "scalars", 32 * raw.len() as u64)?;
        g.queue.write_buffer(&sc, 0, bytemuck::cast_slice(&raw));
        let params = Self::params(g, [0, 0, 0, 0, 0, 0, raw.len() as u32, 0]);
        let mut enc = g.device.create_command_encoder(&Default::default());
        self.dispatch(g, &mut enc, Kernel::ScalarPrep(S::FORM), 64, Some(unroll), &[&params, &sc], raw.len() as u32, None)?;
        g.queue.submit([enc.finish()]);
        let words = Self::read_back(g, &sc, 32 * raw.len() as u64)?;
        Ok(words.chunks(8).take(raw.len()).map(|w| core::array::from_fn(|i| w[2 * i] as u64 | (w[2 * i + 1] as u64) << 32)).collect())
    }

    /// Uploads `points` once; they are converted to Montgomery form on the device and kept
    /// there for [`GpuMsm::msm_resident`].
    pub fn upload_bases(&self, points: &[Affine<C>]) -> Result<GpuBases<C>, GpuError> {
        let t0 = Instant::now();
        let Some(g) = &self.gpu else {
            return Ok(GpuBases { buf: None, cpu: points.to_vec(), n: points.len(), fold: None, upload_time: t0.elapsed() });
        };
        self.upload_points(g, points, points.len(), None, false, t0)
    }

    /// Uploads `points` with their window-folded copies ([`plan::Fold`]: `fold.copies` blocks,
    /// block k = 2^(c sets k) P_i, computed on the device from block k - 1 by
    /// [`crate::kernels::Kernel::FoldShift`]: c sets XYZZ doublings and one inversion a point; timed
    /// in `upload_time`; tables built on the host instead go up through
    /// [`GpuMsm::upload_fold_tables`]). MSMs on these bases run with the fold's window (the
    /// configuration's `window` is ignored for them) and reduce `fold.sets` bucket sets instead of one
    /// per window. Device memory: `fold.copies` times the bases. Without an adapter the points
    /// are kept for the CPU fallback as by [`GpuMsm::upload_bases`].
    ///
    /// ```
    /// use zkforge_curve::bls12_381::{G1Config, G1Projective};
    /// use zkforge_field::bls12_381::Fr;
    /// use zkforge_gpu::{plan::Fold, GpuConfig, GpuMsm, GpuOptions};
    /// let gpu = GpuMsm::<G1Config>::new_or_cpu(&GpuOptions::default());
    /// let g = G1Projective::generator();
    /// let points = vec![(g * Fr::from_u64(2)).to_affine(), (g * Fr::from_u64(3)).to_affine()];
    /// // Window 16: its 17 digit windows folded into two bucket sets (9 copies of the bases).
    /// let bases = gpu.upload_bases_folded(&points, Fold::new(16, 2).unwrap()).unwrap();
    /// let r = gpu.msm_resident(&bases, &[Fr::from_u64(5), Fr::from_u64(7)], &GpuConfig::for_size(2)).unwrap();
    /// assert_eq!(r, g * Fr::from_u64(31));
    /// ```
    pub fn upload_bases_folded(&self, points: &[Affine<C>], fold: plan::Fold) -> Result<GpuBases<C>, GpuError> {
        let t0 = Instant::now();
        let Some(g) = &self.gpu else {
            return Ok(GpuBases { buf: None, cpu: points.to_vec(), n: points.len(), fold: Some(fold), upload_time: t0.elapsed() });
        };
        Self::check_fold_size(g, points.len(), &fold)?;
        self.upload_points(g, points, points.len(), Some(fold), true, t0)
    }

    /// Uploads tables built before ([`plan::FoldTables`]: once for many devices, or refolded
    /// into more bucket sets), as [`GpuMsm::upload_bases_folded`] does after building them.
    pub fn upload_fold_tables(&self, tables: &plan::FoldTables<C>) -> Result<GpuBases<C>, GpuError> {
        self.upload_fold_tables_since(tables, Instant::now())
    }

    fn upload_fold_tables_since(&self, tables: &plan::FoldTables<C>, t0: Instant) -> Result<GpuBases<C>, GpuError> {
        let (n, fold) = (tables.len(), tables.fold());
        let Some(g) = &self.gpu else {
            return Ok(GpuBases { buf: None, cpu: tables.points()[..n].to_vec(), n, fold: Some(fold), upload_time: t0.elapsed() });
        };
        Self::check_fold_size(g, n, &fold)?;
        self.upload_points(g, tables.points(), n, Some(fold), false, t0)
    }

    /// Refuses folded bases whose entries would not fit the 31-bit point index or the adapter.
    fn check_fold_size(g: &Gpu, n: usize, fold: &plan::Fold) -> Result<(), GpuError> {
        let total = n.saturating_mul(fold.copies);
        let bytes = (total as u64).saturating_mul(2 * C::WORDS as u64 * 4);
        if total >= 1 << 31 {
            return Err(GpuError::TooLarge { what: "the folded bases (fewer copies: more sets)", bytes, limit: (1u64 << 31) * 2 * C::WORDS as u64 * 4 });
        }
        Self::check_size(g, "the folded bases", bytes)
    }

    /// Uploads `points` (converted to Montgomery form by `ToMont`); with `build_copies` they are
    /// copy 0 of `fold` and `FoldShift` passes build the other copies on the device.
    fn upload_points(&self, g: &Gpu, points: &[Affine<C>], n: usize, fold: Option<plan::Fold>, build_copies: bool, t0: Instant) -> Result<GpuBases<C>, GpuError> {
        let w = C::WORDS;
        let bytes = (points.len() * 2 * w * 4) as u64;
        let total = match fold {
            Some(f) if build_copies => n * f.copies,
            _ => points.len(),
        };
        Self::check_size(g, "the bases", (total * 2 * w * 4) as u64)?;
        let words = pack_points(points, C::to_words);
        let scope = g.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let src = Self::storage(g, "bases (canonical)", bytes)?;
        let dst = Self::storage(g, "bases", (total * 2 * w * 4) as u64)?;
        g.queue.write_buffer(&src, 0, bytemuck::cast_slice(&words));
        let params = Self::params(g, [0, 0, 0, 0, 0, 0, points.len() as u32, 0]);
        let mut enc = g.device.create_command_encoder(&Default::default());
        self.dispatch(g, &mut enc, Kernel::ToMont, 64, None, &[&params, &src, &dst], points.len() as u32, None)?;
        if let (Some(f), true) = (fold, build_copies) {
            // Copy k from copy k - 1: FoldShift reads np = n points at nr, writes them at nb,
            // each doubled s = c sets times.
            let bits = f.window * f.sets as u32;
            for k in 1..f.copies {
                let shift = Self::params(g, [((k - 1) * n) as u32, 0, bits, 0, 0, 0, n as u32, (k * n) as u32]);
                self.dispatch(g, &mut enc, Kernel::FoldShift, 64, None, &[&shift, &dst], n as u32, None)?;
            }
        }
        g.queue.submit([enc.finish()]);
        wait(&g.device)?;
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(GpuError::Device(format!("uploading {} bases: {e}", points.len())));
        }
        Ok(GpuBases { buf: Some(dst), cpu: Vec::new(), n, fold, upload_time: t0.elapsed() })
    }

    /// `sum_i scalars[i] points[i]` with the default configuration (bases uploaded for this call).
    pub fn msm<S: MsmScalar<C>>(&self, points: &[Affine<C>], scalars: &[S]) -> Result<Jacobian<C>, GpuError> {
        if points.len() != scalars.len() {
            return Err(GpuError::LengthMismatch { points: points.len(), scalars: scalars.len() });
        }
        let bases = self.upload_bases(points)?;
        self.msm_resident(&bases, scalars, &GpuConfig::for_size(points.len()))
    }

    /// `sum_i scalars[i] bases[i]` on resident bases.
    pub fn msm_resident<S: MsmScalar<C>>(&self, bases: &GpuBases<C>, scalars: &[S], cfg: &GpuConfig) -> Result<Jacobian<C>, GpuError> {
        self.run(bases, scalars, cfg, false).map(|(r, _)| r)
    }

    /// [`GpuMsm::msm_resident`] with each phase timed (the GPU is waited for after each).
    pub fn msm_profiled<S: MsmScalar<C>>(
        &self,
        bases: &GpuBases<C>,
        scalars: &[S],
        cfg: &GpuConfig,
    ) -> Result<(Jacobian<C>, PhaseTimes), GpuError> {
        self.run(bases, scalars, cfg, true)
    }

    fn run<S: MsmScalar<C>>(&self, bases: &GpuBases<C>, scalars: &[S], cfg: &GpuConfig, profile: bool) -> Result<(Jacobian<C>, PhaseTimes), GpuError> {
        cfg.validate()?;
        if let Some(g) = &self.gpu {
            if cfg.unroll == Some(false) && g.old_lavapipe() {
                return Err(GpuError::Config(format!(
                    "the rolled field multiplication (unroll: Some(false)) is refused on {} {}: that driver computes wrong MSM sums with it; leave unroll at None or Some(true), or use Mesa 25 or later",
                    g.info.driver, g.info.driver_info
                )));
            }
        }
        if bases.n != scalars.len() {
            return Err(GpuError::LengthMismatch { points: bases.n, scalars: scalars.len() });
        }
        // Folded bases fix the window (their copies are 2^(c sets k) P): `window` is ignored.
        let c = bases.fold.map_or_else(|| cfg.window_for(bases.n), |f| f.window);
        let mut times = PhaseTimes::default();
        // The scalars go up as stored and the device converts them (`GpuConfig::scalars`), or
        // are reduced on the host.
        let on_device = cfg.sort == Placement::Gpu && cfg.scalars == Placement::Gpu;
        let Some(g) = &self.gpu else {
            let t = Instant::now();
            let r = zkforge_msm::msm(&bases.cpu, scalars).map_err(|e| GpuError::Config(e.to_string()))?;
            times.accumulate = t.elapsed();
            return Ok((r, times));
        };
        let Some(buf) = bases.buf.as_ref() else {
            return Err(GpuError::Config("these bases were uploaded by a GpuMsm without an adapter: upload them again on this one".into()));
        };
        let nw = plan::windows(c);
        // Bucket sets: one a window, fewer with folded bases (window w to set w % sets).
        let sets = bases.fold.map_or(nw, |f| f.sets);
        // Chunks small enough that the entries of one fit a buffer.
        let limit = g.limits.max_storage_buffer_binding_size.min(g.limits.max_buffer_size);
        // On CPU adapters runs are capped at 32 points: Mesa 22.3's lavapipe gave wrong
        // BLS12-381 sums for longer batch-affine runs (shorter runs only add merge work).
        let max_run = if g.is_cpu() { cfg.max_run.min(32) } else { cfg.max_run };
        let mut chunk = ((limit / (4 * nw as u64)) as usize).clamp(1, 1 << 30).min(cfg.chunk.unwrap_or(usize::MAX));
        if cfg.sort == Placement::Gpu {
            // The GPU sort sizes the run sums by a bound (sort_kernels::runs_bound): keep that
            // within the limit too when the buckets alone leave room (else the bucket buffer
            // itself is refused, as with the CPU sort).
            let run_bytes = 4 * C::WORDS as u64 * 4;
            let nb = sets as u64 * (1u64 << (c - 1));
            let room = (limit / run_bytes).saturating_sub(nb);
            if room > 0 {
                let m = max_run as u64;
                chunk = chunk.min(((room.saturating_mul(m)) / nw as u64).clamp(1, 1 << 30) as usize);
            }
        }
        let mut acc = Jacobian::<C>::IDENTITY;
        for (k, sc) in scalars.chunks(chunk.max(1)).enumerate() {
            let (r, t) = self.run_chunk(g, buf, sc, on_device, (k * chunk) as u32, c, (sets as u32, bases.n as u32), max_run, cfg, profile)?;
            acc = acc.add_vartime(&r);
            times.add(&t);
        }
        Ok((acc, times))
    }

    #[allow(clippy::too_many_arguments)]
    fn run_chunk<S: MsmScalar<C>>(
        &self,
        g: &Gpu,
        bases: &wgpu::Buffer,
        scalars: &[S],
        on_device: bool,
        base_index: u32,
        c: u32,
        (sets, nbases): (u32, u32),
        max_run: u32,
        cfg: &GpuConfig,
        profile: bool,
    ) -> Result<(Jacobian<C>, PhaseTimes), GpuError> {
        let mut times = PhaseTimes::default();
        let w = C::WORDS as u64;
        let h = 1u32 << (c - 1);
        // From here on the bucket sets play the windows' part (sets = windows unless folded).
        let nw = sets;
        let nb = nw * h;
        // Lavapipe before Mesa 25 sums wrong when one reduction thread runs 2 L >= 2^16 steps
        // (c = 16 with one segment): there a segment holds at most 2^14 buckets. `segments`
        // only splits the same sum, so the answer is unchanged.
        let most_l = if g.old_lavapipe() { OLD_LAVAPIPE_MAX_SEGMENT } else { h };
        let segs_per_window = cfg.segments.min(h).max(h / most_l.min(h));
        let l = h / segs_per_window;

        let scope = g.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let vscope = g.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut held = Vec::new();
        let reuse = cfg.reuse_buffers;
        // GPU timestamps around every pass of a profiled run, where the device has them.
        let mut stamps = (profile && g.timestamps).then(|| Stamps {
            set: g.device.create_query_set(&wgpu::QuerySetDescriptor { label: Some("phase timestamps"), ty: wgpu::QueryType::Timestamp, count: 2 * STAMP_PAIRS }),
            phases: Vec::new(),
        });
        let DeviceLayout { entries, offsets, bucket_runs, run_bucket, nr, most } = match cfg.sort {
            Placement::Cpu => {
                let t = Instant::now();
                let lay = plan::layout_folded(&staged_scalars::<C, S>(scalars, false), base_index, c, max_run, sets as usize, nbases);
                times.decompose = t.elapsed();
                let t = Instant::now();
                let entries = Self::work_buf(g, &mut held, reuse, "bucket entries", 4 * lay.entries.len() as u64)?;
                let offsets = Self::work_buf(g, &mut held, reuse, "run offsets", 4 * lay.offsets.len() as u64)?;
                let bucket_runs = Self::work_buf(g, &mut held, reuse, "bucket runs", 4 * lay.bucket_runs.len() as u64)?;
                // Each run's bucket and the most runs of one, for the fold passes.
                let nbk = lay.bucket_runs.len() - 1;
                let mut rb = vec![nbk as u32; lay.runs() + 1];
                let mut most_runs = 0u32;
                for (b, w) in lay.bucket_runs.windows(2).enumerate() {
                    rb[w[0] as usize..w[1] as usize].fill(b as u32);
                    most_runs = most_runs.max(w[1] - w[0]);
                }
                let run_bucket = Self::work_buf(g, &mut held, reuse, "run buckets", 4 * rb.len() as u64)?;
                if !lay.entries.is_empty() {
                    g.queue.write_buffer(&entries, 0, bytemuck::cast_slice(&lay.entries));
                }
                g.queue.write_buffer(&offsets, 0, bytemuck::cast_slice(&lay.offsets));
                g.queue.write_buffer(&bucket_runs, 0, bytemuck::cast_slice(&lay.bucket_runs));
                g.queue.write_buffer(&run_bucket, 0, bytemuck::cast_slice(&rb));
                if profile {
                    g.queue.submit([]);
                    wait(&g.device)?;
                }
                times.upload = t.elapsed();
                DeviceLayout { entries, offsets, bucket_runs, run_bucket, nr: lay.runs() as u32, most: MostRuns::Known(most_runs) }
            }
            Placement::Gpu => self.sort_on_gpu(g, scalars, on_device, base_index, c, (sets, nbases), max_run, cfg.workgroup, profile, &mut times, &mut held, reuse, stamps.as_mut())?,
        };

        let t = Instant::now();
        let partials = Self::work_buf(g, &mut held, reuse, "run sums", nr as u64 * 4 * w * 4)?;
        let buckets = Self::work_buf(g, &mut held, reuse, "buckets", nb as u64 * 4 * w * 4)?;
        let s = match cfg.accumulate {
            Accumulate::BatchAffine { s } => s,
            Accumulate::Xyzz => 1,
        };
        let scratch = match cfg.accumulate {
            Accumulate::BatchAffine { .. } => Some(Self::work_buf(g, &mut held, reuse, "batch-affine scratch", nr as u64 * w * 4)?),
            Accumulate::Xyzz => None,
        };
        let nsegs = nw * segs_per_window;
        // Segment triples, then (with the GPU tree) the windows' root triples.
        let gpu_combine = cfg.combine == Placement::Gpu;
        let roots = cfg.tree_roots.min(segs_per_window);
        let levels = if gpu_combine { (segs_per_window / roots).trailing_zeros() } else { 0 };
        let root_triples = if levels > 0 { nw * roots } else { 0 };
        let segs = Self::work_buf(g, &mut held, reuse, "segment sums", (nsegs + root_triples) as u64 * 3 * 4 * w * 4)?;
        let params = Self::params(g, [nr, h, s, segs_per_window, l, nw, 0, nb]);
        times.upload += t.elapsed();

        let t = Instant::now();
        let mut enc = g.device.create_command_encoder(&Default::default());
        match (cfg.accumulate, &scratch) {
            (Accumulate::BatchAffine { s }, Some(scratch)) => {
                enc.clear_buffer(&partials, 0, None);
                self.dispatch(g, &mut enc, Kernel::AccumulateAffine, cfg.workgroup, cfg.unroll, &[&params, bases, &entries, &offsets, &partials, scratch], nr.div_ceil(s), stamps.as_mut().map(|x| (x, StampPhase::Accumulate)))?;
            }
            _ => self.dispatch(g, &mut enc, if cfg.prefetch { Kernel::AccumulateXyzzPrefetch } else { Kernel::AccumulateXyzz }, cfg.workgroup, cfg.unroll, &[&params, bases, &entries, &offsets, &partials], nr, stamps.as_mut().map(|x| (x, StampPhase::Accumulate)))?,
        }
        // Tree passes over the run sums until no merge thread adds more than `merge_serial`
        // in a row. The GPU sort leaves the most runs of a bucket on the device: read back
        // (after the accumulation, which the wait then covers) only when a fold may be needed.
        let most = match most {
            _ if cfg.merge_serial == u32::MAX || nr <= cfg.merge_serial => 0,
            MostRuns::Known(m) => m,
            MostRuns::OnDevice(stats) => {
                g.queue.submit([enc.finish()]);
                enc = g.device.create_command_encoder(&Default::default());
                Self::read_back(g, &stats, 4)?[0]
            }
        };
        let passes = plan::fold_passes(most, cfg.merge_serial);
        for p in 0..passes {
            let fold = Self::params(g, [nr, h, s, segs_per_window, l, nw, 1 << p, nb]);
            self.dispatch(g, &mut enc, Kernel::FoldRuns, cfg.workgroup, cfg.unroll, &[&fold, &partials, &bucket_runs, &run_bucket], nr, stamps.as_mut().map(|x| (x, StampPhase::Accumulate)))?;
        }
        let merge = Self::params(g, [nr, h, s, segs_per_window, l, nw, 1 << passes, nb]);
        self.dispatch(g, &mut enc, Kernel::Merge, cfg.workgroup, cfg.unroll, &[&merge, &partials, &bucket_runs, &buckets], nb, stamps.as_mut().map(|x| (x, StampPhase::Accumulate)))?;
        if profile {
            g.queue.submit([enc.finish()]);
            wait(&g.device)?;
            times.accumulate = t.elapsed();
            enc = g.device.create_command_encoder(&Default::default());
        }
        let t = Instant::now();
        let window_sums: Vec<Xyzz<C>>;
        match cfg.reduce {
            Placement::Gpu => {
                self.dispatch(g, &mut enc, Kernel::Reduce, cfg.workgroup, cfg.unroll, &[&params, &buckets, &segs], nsegs, stamps.as_mut().map(|x| (x, StampPhase::Reduce)))?;
                for k in 0..levels {
                    // TreeSegments reads: nr = where the roots go, s = level, np = roots.
                    let tree = Self::params(g, [nsegs, h, k, segs_per_window, l, nw, roots, nb]);
                    self.dispatch(g, &mut enc, Kernel::TreeSegments, cfg.workgroup, cfg.unroll, &[&tree, &segs], nw * (segs_per_window >> (k + 1)), stamps.as_mut().map(|x| (x, StampPhase::Reduce)))?;
                }
                g.queue.submit([enc.finish()]);
                if profile {
                    wait(&g.device)?;
                    times.reduce = t.elapsed();
                }
                let t = Instant::now();
                // What comes down: the windows' roots after the tree, else every segment triple.
                let (from, count) = if levels > 0 { (nsegs, root_triples) } else { (0, nsegs) };
                let words = Self::read_back_at(g, &segs, from as u64 * 3 * 4 * w * 4, count as u64 * 3 * 4 * w * 4)?;
                times.download = t.elapsed();
                let t = Instant::now();
                let pts = to_points::<C>(&words, C::from_mont13_words);
                window_sums = plan::window_sums(&pts, if gpu_combine { roots } else { segs_per_window } as usize, l as usize, gpu_combine);
                times.combine = t.elapsed();
            }
            Placement::Cpu => {
                g.queue.submit([enc.finish()]);
                if profile {
                    wait(&g.device)?;
                }
                let t = Instant::now();
                let words = Self::read_back(g, &buckets, nb as u64 * 4 * w * 4)?;
                times.download = t.elapsed();
                let t = Instant::now();
                let pts = to_points::<C>(&words, C::from_mont13_words);
                window_sums = pts.par_chunks(h as usize).map(plan::reduce_window).collect();
                times.reduce = t.elapsed();
            }
        }
        if let Some(e) = pollster::block_on(vscope.pop()) {
            return Err(GpuError::Device(format!("MSM dispatch rejected: {e}")));
        }
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(GpuError::Device(format!("out of device memory: {e}")));
        }
        if let Some(st) = &stamps {
            let [sort, acc, red] = Self::read_stamps(g, st)?;
            times.gpu_sort = Some(sort);
            times.gpu_accumulate = Some(acc);
            times.gpu_reduce = Some(red);
        }
        // The downloads above waited for every kernel of this MSM: its buffers are free.
        if reuse {
            Self::give_back(g, held);
        }
        let t = Instant::now();
        let r = plan::combine_windows(&window_sums, c);
        times.combine += t.elapsed();
        Ok((r, times))
    }
}

impl<C: GpuCurve> GpuMsm<C> {
    /// The bucket layout built on the device from the scalars (`sort_kernels`): returns
    /// the entries, run offsets and buckets' first runs, and the run bound the accumulation
    /// is dispatched for. With `on_device` the scalars go up as stored and
    /// `Kernel::ScalarPrep` converts them first; else they are reduced into the staging
    /// memory. The staging and upload are timed as `upload`, the kernels as `decompose`.
    #[allow(clippy::too_many_arguments)]
    fn sort_on_gpu<S: MsmScalar<C>>(
        &self,
        g: &Gpu,
        scalars: &[S],
        on_device: bool,
        base_index: u32,
        c: u32,
        (sets, nbases): (u32, u32),
        max_run: u32,
        wg: u32,
        profile: bool,
        times: &mut PhaseTimes,
        held: &mut Vec<(&'static str, wgpu::Buffer)>,
        reuse: bool,
        mut stamps: Option<&mut Stamps>,
    ) -> Result<DeviceLayout, GpuError> {
        use crate::sort_kernels::{runs_bound, SortKernel, SCAN_CHUNK};
        let n = scalars.len();
        let nw = plan::windows(c);
        let h = 1usize << (c - 1);
        let nb = sets as usize * h;
        let nr = runs_bound(n, nw, nb, max_run);
        let nc = nb.div_ceil(SCAN_CHUNK as usize);
        if nr >= u32::MAX as usize || n * nw >= u32::MAX as usize {
            return Err(GpuError::TooLarge { what: "the bucket layout", bytes: 4 * (n * nw) as u64, limit: 4 * u32::MAX as u64 });
        }
        let t = Instant::now();
        let sc = Self::work_buf(g, held, reuse, "scalars", 32 * n as u64)?;
        let counts = Self::work_buf(g, held, reuse, "bucket counts", 4 * nb as u64)?;
        let starts = Self::work_buf(g, held, reuse, "bucket starts", 4 * (nb as u64 + 1))?;
        let bucket_runs = Self::work_buf(g, held, reuse, "bucket runs", 4 * (nb as u64 + 1))?;
        let partials = Self::work_buf(g, held, reuse, "scan partials", 8 * nc as u64)?;
        let entries = Self::work_buf(g, held, reuse, "bucket entries", 4 * (n * nw) as u64)?;
        let offsets = Self::work_buf(g, held, reuse, "run offsets", 4 * (nr as u64 + 1))?;
        let run_bucket = Self::work_buf(g, held, reuse, "run buckets", 4 * (nr as u64 + 1))?;
        let stats = Self::work_buf(g, held, reuse, "sort statistics", 4)?;
        if n > 0 {
            // The kernels read 8 little-endian 32-bit words a scalar: as stored, for the
            // device to convert, or reduced here; staged in the pooled host vector.
            let mut staged = std::mem::take(&mut *g.host_scalars.lock().unwrap_or_else(|e| e.into_inner()));
            staged.resize(n, [0; 4]);
            scalars_into::<C, S>(scalars, &mut staged, on_device);
            #[cfg(target_endian = "little")]
            g.queue.write_buffer(&sc, 0, bytemuck::cast_slice(&staged));
            #[cfg(not(target_endian = "little"))]
            {
                let words: Vec<u32> = staged.iter().flat_map(|k| k.iter().flat_map(|&l| [l as u32, (l >> 32) as u32])).collect();
                g.queue.write_buffer(&sc, 0, bytemuck::cast_slice(&words));
            }
            if reuse {
                let mut pooled = g.host_scalars.lock().unwrap_or_else(|e| e.into_inner());
                if pooled.capacity() < staged.capacity() {
                    *pooled = staged;
                }
            }
        }
        let params = Self::params_words(g, &[n as u32, c, nw as u32, h as u32, nb as u32, max_run, base_index, nr as u32, sets, nbases, 0, 0]);
        if profile {
            g.queue.submit([]);
            wait(&g.device)?;
        }
        times.upload += t.elapsed();
        let t = Instant::now();
        let mut enc = g.device.create_command_encoder(&Default::default());
        let k = |s| Kernel::Sort(s);
        enc.clear_buffer(&counts, 0, None);
        enc.clear_buffer(&stats, 0, None);
        if on_device {
            let np = Self::params(g, [0, 0, 0, 0, 0, 0, n as u32, 0]);
            self.dispatch(g, &mut enc, Kernel::ScalarPrep(S::FORM), wg, None, &[&np, &sc], n as u32, stamps.as_deref_mut().map(|x| (x, StampPhase::Sort)))?;
        }
        self.dispatch(g, &mut enc, k(SortKernel::Count), wg, None, &[&params, &sc, &counts], n as u32, stamps.as_deref_mut().map(|x| (x, StampPhase::Sort)))?;
        self.dispatch(g, &mut enc, k(SortKernel::ScanPartial), wg, None, &[&params, &counts, &partials], nc as u32, stamps.as_deref_mut().map(|x| (x, StampPhase::Sort)))?;
        self.dispatch(g, &mut enc, k(SortKernel::ScanTop), wg, None, &[&params, &partials, &starts, &bucket_runs], wg, stamps.as_deref_mut().map(|x| (x, StampPhase::Sort)))?;
        self.dispatch(g, &mut enc, k(SortKernel::ScanFinal), wg, None, &[&params, &counts, &partials, &starts, &bucket_runs], nc as u32, stamps.as_deref_mut().map(|x| (x, StampPhase::Sort)))?;
        self.dispatch(g, &mut enc, k(SortKernel::Runs), wg, None, &[&params, &counts, &starts, &bucket_runs, &offsets, &run_bucket, &stats], nb.max(nr + 1) as u32, stamps.as_deref_mut().map(|x| (x, StampPhase::Sort)))?;
        enc.clear_buffer(&counts, 0, None);
        self.dispatch(g, &mut enc, k(SortKernel::Scatter), wg, None, &[&params, &sc, &counts, &starts, &entries], n as u32, stamps.as_deref_mut().map(|x| (x, StampPhase::Sort)))?;
        g.queue.submit([enc.finish()]);
        if profile {
            wait(&g.device)?;
        }
        times.decompose += t.elapsed();
        Ok(DeviceLayout { entries, offsets, bucket_runs, run_bucket, nr: nr as u32, most: MostRuns::OnDevice(stats) })
    }

    /// The bucket layout the GPU sort builds for `scalars` (reduced) with window `c` and
    /// runs of at most `max_run`: entries, run offsets (the bound's count plus one) and the
    /// buckets' first runs, downloaded. For tests against [`plan::layout`].
    #[doc(hidden)]
    pub fn gpu_layout(&self, scalars: &[[u64; 4]], c: u32, max_run: u32) -> Result<(Vec<u32>, Vec<u32>, Vec<u32>), GpuError> {
        self.gpu_layout_folded(scalars, c, max_run, plan::windows(c) as u32, 0)
    }

    /// [`GpuMsm::gpu_layout`] for bases folded into `sets` bucket sets of `nbases` bases a
    /// copy. For tests against [`plan::layout_folded`].
    #[doc(hidden)]
    pub fn gpu_layout_folded(&self, scalars: &[[u64; 4]], c: u32, max_run: u32, sets: u32, nbases: u32) -> Result<(Vec<u32>, Vec<u32>, Vec<u32>), GpuError> {
        let g = self.gpu.as_ref().ok_or_else(|| GpuError::NoAdapter("gpu_layout needs a GPU adapter".into()))?;
        let mut times = PhaseTimes::default();
        let lay = self.sort_on_gpu(g, scalars, false, 0, c, (sets, nbases), max_run, 64, false, &mut times, &mut Vec::new(), false, None)?;
        let nb = sets as u64 * (1u64 << (c - 1));
        let offsets = Self::read_back(g, &lay.offsets, 4 * (lay.nr as u64 + 1))?;
        let bucket_runs = Self::read_back(g, &lay.bucket_runs, 4 * (nb + 1))?;
        let total = *offsets.last().unwrap_or(&0) as u64;
        let entries = if total == 0 { Vec::new() } else { Self::read_back(g, &lay.entries, 4 * total)? };
        Ok((entries, offsets, bucket_runs))
    }

    /// The GPU sort's run buckets (the bound's count plus one) and its most runs of a bucket,
    /// downloaded. For tests against [`plan::layout`].
    #[doc(hidden)]
    pub fn gpu_run_buckets(&self, scalars: &[[u64; 4]], c: u32, max_run: u32) -> Result<(Vec<u32>, u32), GpuError> {
        let g = self.gpu.as_ref().ok_or_else(|| GpuError::NoAdapter("gpu_run_buckets needs a GPU adapter".into()))?;
        let mut times = PhaseTimes::default();
        let lay = self.sort_on_gpu(g, scalars, false, 0, c, (plan::windows(c) as u32, 0), max_run, 64, false, &mut times, &mut Vec::new(), false, None)?;
        let run_bucket = Self::read_back(g, &lay.run_bucket, 4 * (lay.nr as u64 + 1))?;
        let most = match &lay.most {
            MostRuns::Known(m) => *m,
            MostRuns::OnDevice(stats) => Self::read_back(g, stats, 4)?[0],
        };
        Ok((run_bucket, most))
    }
}

/// The bucket layout on the device: entries, run offsets, each bucket's first run, each run's
/// bucket (`nb` past the last run), the run count the kernels see (exact from the CPU sort, a
/// bound from the GPU's) and the most runs of any bucket.
struct DeviceLayout {
    entries: wgpu::Buffer,
    offsets: wgpu::Buffer,
    bucket_runs: wgpu::Buffer,
    run_bucket: wgpu::Buffer,
    nr: u32,
    most: MostRuns,
}

/// The most runs of any bucket: known on the host (CPU sort), or in word 0 of a device buffer
/// (GPU sort), read back only when the fold passes need it.
enum MostRuns {
    Known(u32),
    OnDevice(wgpu::Buffer),
}

/// [`scalars_into`] a fresh vector.
pub(crate) fn staged_scalars<C: GpuCurve, S: MsmScalar<C>>(scalars: &[S], raw: bool) -> Vec<[u64; 4]> {
    let mut out = vec![[0u64; 4]; scalars.len()];
    scalars_into::<C, S>(scalars, &mut out, raw);
    out
}

/// The scalars as little-endian limbs into `out` (as long as `scalars`), in blocks of 4096 per
/// task: as stored when `raw` ([`MsmScalar::raw_limbs`], form [`MsmScalar::FORM`], for the
/// device to convert), else reduced below the group order. Both backends stage their uploads
/// with it (the wgpu pooled host vector, the CUDA page-locked buffer).
pub(crate) fn scalars_into<C: GpuCurve, S: MsmScalar<C>>(scalars: &[S], out: &mut [[u64; 4]], raw: bool) {
    out.par_chunks_mut(4096).zip(scalars.par_chunks(4096)).for_each(|(o, s)| {
        for (o, s) in o.iter_mut().zip(s) {
            *o = if raw { s.raw_limbs() } else { reduce_one::<C, S>(s) };
        }
    });
}

fn reduce_one<C: GpuCurve, S: MsmScalar<C>>(s: &S) -> [u64; 4] {
    if S::CANONICAL {
        s.to_limbs()
    } else {
        zkforge_curve::scalar_mul::reduce_scalar::<C>(&s.to_limbs())
    }
}

/// Affine points as packed words (2 W words each, x then y), each coordinate written by
/// `encode` (canonical words for the wgpu kernels, Montgomery words for the CUDA ones); the
/// identity (0, 0) packs to zeros in both forms.
pub(crate) fn pack_points<C: GpuCurve>(points: &[Affine<C>], encode: fn(&C::Base, &mut [u32])) -> Vec<u32> {
    let w = C::WORDS;
    let mut words = vec![0u32; points.len() * 2 * w];
    words.par_chunks_mut(2 * w).zip(points.par_iter()).for_each(|(o, p)| {
        encode(&p.x(), &mut o[..w]);
        encode(&p.y(), &mut o[w..]);
    });
    words
}

/// XYZZ points from packed words (4 W words each), each coordinate read by `decode`
/// (Montgomery-13 words from the wgpu kernels, Montgomery words from the CUDA ones).
pub(crate) fn to_points<C: GpuCurve>(words: &[u32], decode: fn(&[u32]) -> C::Base) -> Vec<Xyzz<C>> {
    let w = C::WORDS;
    words
        .par_chunks(4 * w)
        .map(|p| {
            let f = |k: usize| decode(&p[k * w..(k + 1) * w]);
            Xyzz::from_xyzz_unchecked(f(0), f(1), f(2), f(3))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn mesa_versions() {
        assert_eq!(super::mesa_major("Mesa 22.3.6 (LLVM 15.0.6)"), Some(22));
        assert_eq!(super::mesa_major("Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6)"), Some(25));
        assert_eq!(super::mesa_major("llvmpipe Mesa 24.1.0-devel"), Some(24));
        assert_eq!(super::mesa_major("535.104"), None);
        assert_eq!(super::mesa_major("Mesa x"), None);
        assert_eq!(super::mesa_major(""), None);
    }
}

//! # zkforge-gpu
//!
//! G1 multi-scalar multiplication sum_i k_i P_i for BN254 and BLS12-381 on GPUs, in portable
//! WGSL run through wgpu (Vulkan, Metal, DX12; Mesa's CPU Vulkan driver lavapipe in CI), or in
//! CUDA (feature `cuda`).
//!
//! The algorithm is the bucket method (Pippenger; Bernstein et al., ePrint 2012/549) laid out
//! for a GPU as in the ZPrize 2022/2023 MSM entries and Barretenberg's WebGPU MSM (seed 004):
//!
//! 0. **scalars** (GPU or CPU, [`GpuConfig::scalars`]): uploaded as stored (Montgomery limbs
//!    of field elements, or any 256-bit integer) and turned into residues mod r by one
//!    Montgomery product a scalar on the device, so the host only copies them;
//! 1. **decompose** (GPU or CPU, [`GpuConfig::sort`]): signed c-bit window digits,
//!    counting-sorted into per-bucket runs of `point index | sign` ([`sort_kernels`] on the
//!    GPU, [`plan`] on the CPU);
//! 2. **accumulate** (GPU): every bucket's points summed, by XYZZ mixed additions (one
//!    thread per bucket) or batch-affine additions with one inversion per S buckets
//!    ([`Accumulate`]);
//! 3. **reduce** (GPU or CPU, [`Placement`]): sum_b b B_b per window by running sums, on the
//!    GPU in T segments per window;
//! 4. **combine** (GPU tree and CPU, or CPU, [`GpuConfig::combine`]): each window's segments
//!    joined in a tree on the GPU down to a few roots, which the CPU joins with the windows
//!    into the result.
//!
//! Field arithmetic is generated from Rust ([`field_gen`]): 13-bit limbs in `u32`,
//! Montgomery multiplication with lazy carries, fully unrolled with the modulus inlined. The
//! GPU's bases can stay resident across MSMs ([`GpuMsm::upload_bases`]) and the work buffers
//! are pooled ([`GpuConfig::reuse_buffers`]). Resident bases can also be **window-folded**
//! ([`GpuMsm::upload_bases_folded`], [`plan::Fold`]; CUDA too): stored with shifted copies
//! 2^(c sets k) P, so that the windows share `sets` bucket sets and the reduction and window
//! combination shrink by nw / sets (the fixed-base precomputation of Brickell et al., as the
//! ZPrize 2022 GPU entries use it), at `copies` times the bases' memory. [`GpuMsm::msm_profiled`] times every phase, with
//! GPU timestamps where the device has them. MSMs larger than the
//! adapter's buffer limits are split into chunks, and bases that cannot fit are refused with
//! [`GpuError::TooLarge`]. With no adapter, [`GpuMsm::new_or_cpu`] falls back to zkforge-msm
//! and says why ([`GpuMsm::fallback_reason`]).
//!
//! **CUDA** (cargo feature `cuda`): [`CudaMsm`] runs the same method as CUDA C kernels from
//! [`cuda_gen`] (32-bit limbs; the Montgomery product with wide products, PTX carry chains or
//! portable 64-bit accumulations, [`CudaMul`]), compiled at run time by NVRTC and launched through the CUDA
//! driver API; both libraries load at run time, so building needs no CUDA toolkit. Without a
//! GPU the kernels are checked by NVRTC, by a host-C++ emulation (`tests/cuda_host_emulation.rs`)
//! and by a model of the PTX carry chains.
//!
//! MSM works on public data: it is variable time.
//!
//! ```no_run
//! use zkforge_curve::bls12_381::{G1Config, G1Projective};
//! use zkforge_field::bls12_381::Fr;
//! use zkforge_gpu::{GpuMsm, GpuOptions};
//! let gpu = GpuMsm::<G1Config>::new_or_cpu(&GpuOptions::default());
//! let g = G1Projective::generator();
//! let points = vec![(g * Fr::from_u64(2)).to_affine(), (g * Fr::from_u64(3)).to_affine()];
//! let scalars = vec![Fr::from_u64(5), Fr::from_u64(7)];
//! assert_eq!(gpu.msm(&points, &scalars).unwrap(), g * Fr::from_u64(31));
//! ```
#![warn(missing_docs)]

pub mod config;
#[cfg(feature = "cuda")]
pub mod cuda;
pub mod cuda_gen;
pub mod curve;
pub mod field_gen;
mod host;
pub mod kernels;
pub mod plan;
pub mod sort_kernels;

pub use config::{Accumulate, GpuConfig, Placement, MAX_WINDOW};
#[cfg(feature = "cuda")]
pub use cuda::{CudaBases, CudaConfig, CudaMsm};
pub use cuda_gen::CudaMul;
pub use curve::GpuCurve;
pub use host::{GpuBases, GpuMsm, GpuOptions, PhaseTimes};

/// Errors of the GPU MSM; every one says what happened in plain words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GpuError {
    /// No GPU adapter was found (or none that the options allow).
    NoAdapter(String),
    /// A configuration value is out of range.
    Config(String),
    /// points and scalars differ in length.
    LengthMismatch {
        /// Number of points.
        points: usize,
        /// Number of scalars.
        scalars: usize,
    },
    /// An input needs a buffer larger than the adapter allows.
    TooLarge {
        /// What the buffer holds.
        what: &'static str,
        /// Bytes needed.
        bytes: u64,
        /// The adapter's limit.
        limit: u64,
    },
    /// The device ran out of memory or reported an error.
    Device(String),
}

impl core::fmt::Display for GpuError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            GpuError::NoAdapter(why) => write!(f, "no GPU adapter: {why}"),
            GpuError::Config(why) => write!(f, "invalid GPU MSM configuration: {why}"),
            GpuError::LengthMismatch { points, scalars } => write!(f, "{points} points but {scalars} scalars"),
            GpuError::TooLarge { what, bytes, limit } => {
                write!(f, "{what} need {bytes} bytes, more than the adapter's limit of {limit} bytes per buffer; use fewer points")
            }
            GpuError::Device(why) => write!(f, "GPU device error: {why}"),
        }
    }
}
impl std::error::Error for GpuError {}

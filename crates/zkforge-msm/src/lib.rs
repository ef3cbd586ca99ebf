//! # zkforge-msm
//!
//! Multi-scalar multiplication sum_i k_i P_i on the G1 and G2 groups of BN254 and BLS12-381.
//!
//! - Large inputs: the bucket method (Pippenger, "On the evaluation of powers and related
//!   problems", FOCS 1976; as laid out by Bernstein et al., "Faster batch forgery
//!   identification", ePrint 2012/549) with signed window digits in [-2^(c-1), 2^(c-1)), so a
//!   window needs 2^(c-1) buckets; buckets in XYZZ coordinates fed by mixed additions
//!   (madd-2008-s, 8M + 2S), reduced by running sums (two XYZZ additions per bucket), windows
//!   combined by c doublings each. Optionally each scalar is first split by the GLV/GLS
//!   endomorphism into 128-bit (G1) or 64-bit (BLS12-381 G2) parts over endo^j(P).
//! - Small inputs: Straus interleaving of the GLV/GLS parts (shared doublings, wNAF digits,
//!   one inversion for all tables), below a measured threshold.
//! - Fixed bases ([`FixedBaseMsm`]): shifted copies of every base fold all windows into one
//!   bucket pass; the stride knob trades memory for doublings.
//! - Secret scalars ([`msm_ct`]): constant-time Straus, or eight complete-formula
//!   accumulators on AVX-512 IFMA lanes (BLS12-381 G1); many short sums at once
//!   ([`msm_ct::msm_many_ct_with`]).
//! - Threads: windows (or chunks of points) run in parallel on a rayon pool of the requested
//!   size, cached per size; the caller's or the global pool is never used implicitly.
//!
//! Every switch lives in [`MsmConfig`]; [`MsmConfig::for_curve`] picks the measured default
//! (the G1 table [`MsmConfig::for_size`] or the G2 table [`MsmConfig::for_size_g2`]).
//! Scalars of any 256-bit value are accepted and reduced mod r (documented, not rejected).
//! MSM works on public data: it is variable time.
//!
//! ```
//! use zkforge_curve::bls12_381::{G1Projective, Scalar};
//! use zkforge_msm::msm;
//! let g = G1Projective::generator();
//! let points = vec![(g * Scalar::from_u64(2)).to_affine(), (g * Scalar::from_u64(3)).to_affine()];
//! let scalars = vec![Scalar::from_u64(5), Scalar::from_u64(7)];
//! // 5 * 2G + 7 * 3G = 31 G
//! assert_eq!(msm(&points, &scalars).unwrap(), g * Scalar::from_u64(31));
//! ```
#![warn(missing_docs)]

pub mod batch_affine;
pub mod config;
pub mod fixed_base;
pub mod fixed_base_many;
pub mod ifma;
pub mod msm_ct;
pub mod mul_many;
pub mod pippenger;
pub mod recode;
pub mod straus;

pub use config::{lanes_small_min, lanes_small_threshold, Buckets, MsmConfig, SmallMethod, Split, G2_SMALL_THRESHOLD, G2_STRAUS_WIDTH, LANES_SMALL_MIN, LANES_SMALL_MIN_HALF_WIDTH, LANES_SMALL_REM_MIN, LANES_SMALL_THRESHOLD, SMALL_THRESHOLD};
pub use fixed_base::FixedBaseMsm;
pub use fixed_base_many::FixedBaseMany;
pub use pippenger::{msm_profiled, PhaseTimes};

use zkforge_curve::{Affine, CurveConfig, Jacobian};

/// A scalar the MSM over group `C` can read as four little-endian limbs (canonical or not: it
/// is reduced mod r). Field elements are accepted only as `C`'s own scalar field
/// ([`CurveConfig::Scalar`]); raw limbs (`[u64; 4]`) are accepted for every group.
///
/// A BN254 scalar for a BLS12-381 MSM does not compile:
///
/// ```compile_fail
/// use zkforge_curve::bls12_381::G1Affine;
/// let points = vec![G1Affine::generator()];
/// let scalars = vec![zkforge_field::bn254::Fr::from_u64(1)];
/// let _ = zkforge_msm::msm(&points, &scalars);
/// ```
///
/// while its own scalar does:
///
/// ```
/// use zkforge_curve::bls12_381::G1Affine;
/// let points = vec![G1Affine::generator()];
/// let scalars = vec![zkforge_field::bls12_381::Fr::from_u64(1)];
/// assert!(zkforge_msm::msm(&points, &scalars).is_ok());
/// ```
pub trait MsmScalar<C: CurveConfig>: Sync {
    /// True when every value of the type is already below r (field elements): the MSM then
    /// skips the reduction.
    const CANONICAL: bool = false;
    /// How [`MsmScalar::raw_limbs`] encodes the value, for backends that finish the
    /// conversion themselves (the GPU MSM converts on the device).
    const FORM: ScalarForm = ScalarForm::Integer;
    /// The scalar's integer value as little-endian limbs.
    fn to_limbs(&self) -> [u64; 4];
    /// The limbs as stored, in the form [`MsmScalar::FORM`] names (for Montgomery field
    /// elements a plain copy, no multiplication).
    fn raw_limbs(&self) -> [u64; 4] {
        self.to_limbs()
    }
}

/// How a scalar type's stored limbs ([`MsmScalar::raw_limbs`]) encode its value k mod r.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarForm {
    /// Any 256-bit integer x (little-endian limbs); the scalar is x mod r.
    Integer,
    /// Montgomery form with R = 2^256: the limbs are k 2^256 mod r, below r (zkforge-field's
    /// `Fr`).
    Montgomery,
}

/// The scalar's value mod r as limbs: field elements as they are (canonical by type), raw
/// limbs reduced. Every MSM path reads its scalars through this.
#[inline]
pub(crate) fn reduced_limbs<C: CurveConfig, S: MsmScalar<C>>(s: &S) -> [u64; 4] {
    if S::CANONICAL {
        s.to_limbs()
    } else {
        zkforge_curve::scalar_mul::reduce_scalar::<C>(&s.to_limbs())
    }
}

/// r - 1, the largest reduced scalar (r is odd, so only the lowest bit changes).
pub(crate) fn order_minus_one<C: CurveConfig>() -> [u64; 4] {
    let mut m = C::ORDER;
    m[0] -= 1;
    m
}

impl<C: CurveConfig> MsmScalar<C> for [u64; 4] {
    fn to_limbs(&self) -> [u64; 4] {
        *self
    }
}
impl<C: CurveConfig<Scalar = zkforge_field::bls12_381::Fr>> MsmScalar<C> for zkforge_field::bls12_381::Fr {
    const CANONICAL: bool = true;
    const FORM: ScalarForm = ScalarForm::Montgomery;
    fn to_limbs(&self) -> [u64; 4] {
        zkforge_field::bls12_381::Fr::to_limbs(self)
    }
    fn raw_limbs(&self) -> [u64; 4] {
        self.to_mont_limbs()
    }
}
impl<C: CurveConfig<Scalar = zkforge_field::bn254::Fr>> MsmScalar<C> for zkforge_field::bn254::Fr {
    const CANONICAL: bool = true;
    const FORM: ScalarForm = ScalarForm::Montgomery;
    fn to_limbs(&self) -> [u64; 4] {
        zkforge_field::bn254::Fr::to_limbs(self)
    }
    fn raw_limbs(&self) -> [u64; 4] {
        self.to_mont_limbs()
    }
}

/// sum_i scalars[i] * points[i] with the measured default configuration for this size, on
/// every core the machine reports (`std::thread::available_parallelism`); use [`msm_threads`]
/// to choose the thread count (1 = the calling thread only, no pool). The lengths must match.
///
/// Points must be in the prime-order subgroup (every checked constructor and decoder gives
/// such points); the GLV/GLS split used by the default configuration relies on it.
pub fn msm<C: CurveConfig, S: MsmScalar<C>>(points: &[Affine<C>], scalars: &[S]) -> Result<Jacobian<C>, MsmError> {
    let threads = std::thread::available_parallelism().map(|t| t.get()).unwrap_or(1);
    msm_threads(points, scalars, threads)
}

/// [`msm`] on exactly `threads` threads: 1 runs on the calling thread with no rayon pool at
/// all (also when called from inside a caller's pool); n > 1 runs on a cached pool of n
/// workers. `threads = 0` is an error.
///
/// ```
/// use zkforge_curve::bn254::{G1Projective, Scalar};
/// use zkforge_msm::msm_threads;
/// let g = G1Projective::generator();
/// let points = vec![g.to_affine(), g.double().to_affine()];
/// let scalars = vec![Scalar::from_u64(3), Scalar::from_u64(4)];
/// assert_eq!(msm_threads(&points, &scalars, 1).unwrap(), g * Scalar::from_u64(11));
/// ```
pub fn msm_threads<C: CurveConfig, S: MsmScalar<C>>(points: &[Affine<C>], scalars: &[S], threads: usize) -> Result<Jacobian<C>, MsmError> {
    if threads == 0 {
        return Err(MsmError::InvalidThreads);
    }
    msm_with(points, scalars, &MsmConfig::for_curve::<C>(points.len(), threads))
}

/// MSM bases prepared once for many MSMs (a KZG setup's points): the endomorphism images
/// endo^j(P_i) that the GLV/GLS split needs are computed here instead of on every call
/// (DIM - 1 images per base: one Fp multiplication each on G1, a psi on BLS12-381 G2).
/// Memory: DIM affine points per base. For the larger-table alternative see
/// [`FixedBaseMsm`].
///
/// ```
/// use zkforge_curve::bls12_381::{G1Projective, Scalar};
/// use zkforge_msm::{msm, PreparedBases};
/// let g = G1Projective::generator();
/// let points: Vec<_> = (1..=100u64).map(|i| (g * Scalar::from_u64(i)).to_affine()).collect();
/// let scalars: Vec<Scalar> = (0..100u64).map(|i| Scalar::from_u64(i * i + 1)).collect();
/// let prepared = PreparedBases::new(&points);
/// assert_eq!(prepared.msm(&scalars, 1).unwrap(), msm(&points, &scalars).unwrap());
/// ```
pub struct PreparedBases<C: CurveConfig> {
    points: Vec<Affine<C>>,
    /// endo^j(P_i) at i * DIM + j.
    images: Vec<Affine<C>>,
}

impl<C: CurveConfig> PreparedBases<C> {
    /// Prepare `points` (computes DIM - 1 endomorphism images per point).
    pub fn new(points: &[Affine<C>]) -> Self {
        Self { points: points.to_vec(), images: pippenger::endo_images(points) }
    }

    /// Number of bases.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// True when there are no bases.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The bases.
    pub fn points(&self) -> &[Affine<C>] {
        &self.points
    }

    /// sum_i scalars[i] * bases[i] with the measured default configuration on `threads`
    /// threads (1 = the calling thread); the lengths must match.
    pub fn msm<S: MsmScalar<C>>(&self, scalars: &[S], threads: usize) -> Result<Jacobian<C>, MsmError> {
        if threads == 0 {
            return Err(MsmError::InvalidThreads);
        }
        self.msm_with(scalars, &MsmConfig::for_curve::<C>(self.len(), threads))
    }

    /// [`PreparedBases::msm`] with an explicit configuration.
    pub fn msm_with<S: MsmScalar<C>>(&self, scalars: &[S], cfg: &MsmConfig) -> Result<Jacobian<C>, MsmError> {
        cfg.validate()?;
        if scalars.len() != self.points.len() {
            return Err(MsmError::LengthMismatch { points: self.points.len(), scalars: scalars.len() });
        }
        Ok(pippenger::msm_with_images(&self.points, &self.images, scalars, cfg))
    }
}

/// Error of the MSM entry points: mismatched inputs or a configuration value out of range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MsmError {
    /// points and scalars differ in length.
    LengthMismatch {
        /// Number of points.
        points: usize,
        /// Number of scalars.
        scalars: usize,
    },
    /// The window width is outside 2..=16.
    InvalidWindow {
        /// The width asked for.
        window: u32,
    },
    /// A batch-affine batch size of 0.
    InvalidBatch,
    /// A thread count of 0.
    InvalidThreads,
    /// A fixed-base stride of 0.
    InvalidStride,
    /// Many sums asked of terms that do not split into that many equal runs (or zero sums).
    UnevenSums {
        /// Number of terms.
        terms: usize,
        /// Number of sums asked for.
        sums: usize,
    },
}

impl core::fmt::Display for MsmError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            MsmError::LengthMismatch { points, scalars } => write!(f, "{points} points but {scalars} scalars"),
            MsmError::InvalidWindow { window } => write!(f, "window width {window} is outside 2..=16"),
            MsmError::InvalidBatch => write!(f, "batch-affine batch size must be at least 1"),
            MsmError::InvalidThreads => write!(f, "thread count must be at least 1"),
            MsmError::InvalidStride => write!(f, "fixed-base stride must be at least 1"),
            MsmError::UnevenSums { terms, sums } => write!(f, "{terms} terms do not split into {sums} equal sums"),
        }
    }
}
impl std::error::Error for MsmError {}

/// sum_i scalars[i] * points[i] with an explicit configuration; the lengths must match and
/// the configuration must pass [`MsmConfig::validate`].
pub fn msm_with<C: CurveConfig, S: MsmScalar<C>>(points: &[Affine<C>], scalars: &[S], cfg: &MsmConfig) -> Result<Jacobian<C>, MsmError> {
    cfg.validate()?;
    if points.len() != scalars.len() {
        return Err(MsmError::LengthMismatch { points: points.len(), scalars: scalars.len() });
    }
    Ok(pippenger::msm_with_config(points, scalars, cfg))
}

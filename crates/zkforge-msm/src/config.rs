//! The MSM switches. Each optimisation is a field here so it can be measured alone and in
//! combination (`zkforge bench msm` runs the ablation); `for_size` returns the measured best.

/// How the work is split across threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Each thread takes whole windows (no extra bucket memory; needs windows >= threads).
    Windows,
    /// Each thread takes a chunk of the points over all windows, partial sums added at the end
    /// (one bucket set per thread).
    Points,
}

/// How buckets accumulate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Buckets {
    /// XYZZ buckets, one mixed addition (8M + 2S) per point.
    Xyzz,
    /// Affine buckets, additions batched `batch` at a time around one inversion (~5M + 1S).
    BatchAffine {
        /// Additions per inversion (S).
        batch: usize,
    },
    /// [`Buckets::BatchAffine`] with the additions of a batch run eight at a time on AVX-512
    /// IFMA (52-bit limbs, `crate::ifma`) when the CPU has it and the group is over a prime
    /// field (G1 of BN254 and BLS12-381); elsewhere exactly [`Buckets::BatchAffine`].
    BatchAffineSimd {
        /// Additions per inversion (S).
        batch: usize,
    },
}

impl Buckets {
    /// The batch size S of a batch-affine kind, `None` for XYZZ.
    pub fn batch(&self) -> Option<usize> {
        match *self {
            Buckets::Xyzz => None,
            Buckets::BatchAffine { batch } | Buckets::BatchAffineSimd { batch } => Some(batch),
        }
    }
}

/// What runs below the small-size threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmallMethod {
    /// Straus interleaving: shared doublings, wNAF digits of width 5 of the GLV/GLS parts.
    Straus,
    /// Straus interleaving with wNAF digits of the given width (2..=7; others are rejected by
    /// [`MsmConfig::validate`]): a table of 2^(width-2) odd multiples per point and part.
    StrausWidth {
        /// The wNAF width w.
        width: u32,
    },
    /// Independent single multiplications, summed.
    Singles,
    /// Eight accumulators at once on AVX-512 IFMA lanes (the kernel of
    /// [`crate::msm_ct`]: regular window-4 digits, complete formulas) for groups of eight
    /// points, a last group of fewer than [`LANES_SMALL_REM_MIN`] points and inputs of fewer
    /// than [`LANES_SMALL_MIN`] points by Straus (width 5); Straus where the lanes do not apply
    /// (no IFMA, BN254, G2).
    Lanes,
}

/// Under [`SmallMethod::Lanes`], inputs of fewer points than this run Straus (a group of
/// eight lanes costs about what seven points cost there: 6 points 1.15x, 8 points 0.89x), on
/// CPUs with full-width AVX-512 units; see [`lanes_small_min`].
pub const LANES_SMALL_MIN: usize = 7;

/// [`LANES_SMALL_MIN`] on CPUs that run AVX-512 on 256-bit units (AMD Zen 4,
/// `zkforge_field::backend::avx512_half_width`), where one group of lanes costs what about ten
/// Straus points cost and two groups what fifteen cost: lanes / Straus 1.20 at 7 points, 1.10
/// at 8, 1.35 at 10, 1.08 at 13, 1.01 at 14, 0.95 at 15, 0.89 at 16, 0.82 at 24
/// (`examples/small_lanes_ab.rs`, one thread, 2026-12-06; BENCHMARKS.md).
pub const LANES_SMALL_MIN_HALF_WIDTH: usize = 15;

/// The smallest input [`SmallMethod::Lanes`] runs on the lanes on this CPU:
/// [`LANES_SMALL_MIN_HALF_WIDTH`] where AVX-512 runs on 256-bit units, [`LANES_SMALL_MIN`]
/// elsewhere.
pub fn lanes_small_min() -> usize {
    zkforge_field::backend::per_avx512_width(LANES_SMALL_MIN, LANES_SMALL_MIN_HALF_WIDTH)
}

/// [`MsmConfig::for_curve`] on one or two threads sends fewer points than this to
/// [`SmallMethod::Lanes`] (on the calling thread) where the lanes apply (BLS12-381 G1 with
/// AVX-512 IFMA): against `for_size` on one thread 0.63-0.93x from 8 to 192 points, 0.98x at
/// 256, 1.17x at 384; against `for_size` on two threads 0.66-0.93x from 8 to 192, 1.08x at 256
/// (Intel Xeon, 2026-12-02). With more threads, and with two on CPUs that run AVX-512 on
/// 256-bit units (AMD Zen 4: lanes on one thread against `for_size` on two 1.06-1.24x from 64
/// to 192 points, `examples/small_lanes_ab.rs 2`, 2026-12-06), only the Straus range (below
/// [`SMALL_THRESHOLD`]) goes to the lanes; see [`lanes_small_threshold`].
pub const LANES_SMALL_THRESHOLD: usize = 224;

/// Below how many points [`MsmConfig::for_curve`] sends an MSM on `threads` threads to
/// [`SmallMethod::Lanes`] where the lanes apply: [`LANES_SMALL_THRESHOLD`] on one thread, and
/// on two where AVX-512 runs on full-width units; [`SMALL_THRESHOLD`] otherwise.
pub fn lanes_small_threshold(threads: usize) -> usize {
    if threads <= 1 || (threads == 2 && !zkforge_field::backend::avx512_half_width()) {
        LANES_SMALL_THRESHOLD
    } else {
        SMALL_THRESHOLD
    }
}

/// Under [`SmallMethod::Lanes`], a last group of fewer points than this runs Straus.
pub const LANES_SMALL_REM_MIN: usize = 2;

/// Multi-scalar multiplication configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MsmConfig {
    /// Window width c in bits (2..=16, others are rejected by [`MsmConfig::validate`]);
    /// `None` picks it from the size.
    pub window: Option<u32>,
    /// Split every scalar with the GLV/GLS endomorphism first (twice the points, half the bits).
    pub glv: bool,
    /// Bucket representation.
    pub buckets: Buckets,
    /// Below this many points, use `small_method` instead of buckets.
    pub small_threshold: usize,
    /// The small-size method.
    pub small_method: SmallMethod,
    /// Worker threads: 1 runs on the calling thread with no pool at all; n > 1 runs on a cached
    /// pool of exactly n workers; 0 is rejected.
    pub threads: usize,
    /// How threads share the work.
    pub split: Split,
}

/// Straus below this many points (measured crossover against the bucket method, G1: at 32
/// points XYZZ buckets with c = 5 and the GLV split are 0.98 of Straus' time, at 48 points 0.89;
/// `small_msm` probe, Zen 5, 2026-11-28; it was 64 before).
pub const SMALL_THRESHOLD: usize = 32;

/// Straus below this many points on G2 ([`MsmConfig::for_size_g2`]; the crossover lies between
/// the measured sizes: at 16 points Straus with width 4 is 0.97-0.99 of the batch-affine
/// buckets' time, at 24 points the buckets are 0.89-0.99 of Straus').
pub const G2_SMALL_THRESHOLD: usize = 20;

/// The wNAF width of the G2 Straus path: 0.96-0.97 of width 5's time at 8 and 16 points (the
/// G1 path keeps width 5: widths 4 and 5 are within 1 % there).
pub const G2_STRAUS_WIDTH: u32 = 4;

impl MsmConfig {
    /// The measured default for `n` points on `threads` threads (BLS12-381 G1 sweeps of
    /// `examples/msm_ablation.rs` (its c and S sweeps), 2026-11-22, this 2-core machine;
    /// see BENCHMARKS.md):
    /// - below 32 points (64 before 2026-11-28), Straus interleaving (0.61-0.86x blst from 1 to
    ///   32 points);
    /// - with XYZZ buckets the GLV split wins up to 2^8 points (it halves the running-sum
    ///   reduction) and is neutral above; with batch-affine buckets it wins at every size
    ///   measured (2^12 to 2^16), so from 2^11 the default is batch-affine (S = 256) + GLV
    ///   (2^16, one thread: 333 ms against 447 ms for plain XYZZ; `examples/msm_ablation.rs`);
    /// - at 2^20 the split loses again (its decomposition and doubled point set cost 0.6 s of
    ///   5.1 s), and S = 1024 is best: no GLV, c = 15, S = 1024 takes 4.5 s;
    /// - on two threads, windows are split across threads up to 2^12 and points above;
    /// - re-measured on one thread at 2^7-2^12 (Zen 5, 2026-11-28, `small_msm` probe): since the
    ///   four-lane batch inversion, batch-affine buckets with S = 64-128 and the GLV split win
    ///   there too: 0.81 of the old XYZZ default at 2^9, 0.83 at 2^10, 0.95 at 2^11-2^12; on two
    ///   threads S = 64, c = 8 gives 0.94 at 2^8, 0.86 at 2^9, 0.88 at 2^10;
    /// - every batch-affine row is [`Buckets::BatchAffineSimd`]: on a CPU with AVX-512 IFMA it
    ///   takes 0.98 of the portable buckets' time at 2^8, 0.89 at 2^10, 0.78 at 2^12-2^14 and
    ///   0.69-0.74 at 2^16 (BLS12-381 and BN254 G1, Zen 5, 2026-11-28, `examples/msm_simd_ab.rs`
    ///   in zkforge-bench), and its S and c sweep there confirmed the same S and c per size.
    pub fn for_size(n: usize, threads: usize) -> Self {
        let threads = threads.max(1);
        let lg = (usize::BITS - n.max(1).leading_zeros() - 1) as usize; // floor(log2 n)
        const X: Buckets = Buckets::Xyzz;
        // the IFMA lanes where the CPU has them (the portable batch-affine buckets elsewhere)
        const BA: Buckets = Buckets::BatchAffineSimd { batch: 256 };
        const BA1024: Buckets = Buckets::BatchAffineSimd { batch: 1024 };
        const BA64: Buckets = Buckets::BatchAffineSimd { batch: 64 };
        const BA128: Buckets = Buckets::BatchAffineSimd { batch: 128 };
        let (glv, c, split, buckets) = if threads == 1 {
            match lg {
                0..=5 => (true, 5, Split::Windows, X),
                6 => (true, 6, Split::Windows, X),
                7 => (true, 7, Split::Windows, BA64),
                8 => (true, 8, Split::Windows, BA64),
                9 => (true, 8, Split::Windows, BA64),
                10 => (true, 9, Split::Windows, BA64),
                11..=12 => (true, 10, Split::Windows, BA128),
                13..=14 => (true, 11, Split::Windows, BA),
                15..=16 => (true, 13, Split::Windows, BA),
                17..=18 => (false, 14, Split::Windows, BA),
                _ => (false, 15, Split::Windows, BA1024),
            }
        } else {
            match lg {
                0..=5 => (true, 5, Split::Windows, X),
                6 => (true, 6, Split::Windows, X),
                7 => (true, 8, Split::Windows, X),
                8..=10 => (true, 8, Split::Windows, BA64),
                11..=12 => (true, 11, Split::Windows, BA),
                13..=14 => (true, 10, Split::Points, BA),
                15..=16 => (true, 12, Split::Points, BA),
                17..=18 => (false, 13, Split::Points, BA),
                _ => (false, 14, Split::Points, BA1024),
            }
        };
        Self { window: Some(c), glv, buckets, small_threshold: SMALL_THRESHOLD, small_method: SmallMethod::Straus, threads, split }
    }

    /// The measured default for `n` points of the G2 groups (coordinates in Fp2) on `threads`
    /// threads (BLS12-381 G2 sweeps of `zkforge-bench/examples/small_msm.rs`, Zen 5, 2026-11-28;
    /// see BENCHMARKS.md). An Fp2 inversion costs fewer Fp2 products than an Fp inversion costs
    /// Fp products, so batch-affine buckets win from about 20 points with small batches (16-64),
    /// and Straus (wNAF width 4) runs below that. Against the [`MsmConfig::for_size`] table used
    /// before, one thread: 0.81 at 32 points, 0.89 at 128, 0.68 at 512, 0.72 at 1024, 0.83 at 4096, 0.91 at
    /// 16384; two threads: 0.86 at 128, 0.77 at 1024. From 2^15 points it is the G1 table.
    pub fn for_size_g2(n: usize, threads: usize) -> Self {
        let g1 = Self::for_size(n, threads);
        let lg = (usize::BITS - n.max(1).leading_zeros() - 1) as usize; // floor(log2 n)
        let ba = |batch: usize| Buckets::BatchAffine { batch };
        let straus = SmallMethod::StrausWidth { width: G2_STRAUS_WIDTH };
        let (c, buckets) = match lg {
            0..=3 => return Self { small_threshold: G2_SMALL_THRESHOLD, small_method: straus, ..g1 },
            4 => (5, ba(16)),
            5 => (6, ba(16)),
            6 => (7, ba(16)),
            7 => (7, ba(32)),
            8 => (8, ba(32)),
            9 => (9, ba(64)),
            10 => (if threads == 1 { 10 } else { 11 }, ba(64)),
            11 => (11, ba(64)),
            12 => (11, ba(128)),
            13..=14 => (13, ba(256)),
            _ => return g1,
        };
        Self { window: Some(c), glv: true, buckets, small_threshold: G2_SMALL_THRESHOLD, small_method: straus, ..g1 }
    }

    /// The measured default for `n` points of the group `C`: [`MsmConfig::for_size_g2`] for a
    /// group over Fp2, [`MsmConfig::for_size`] otherwise. The entry points without a
    /// configuration (`msm`, `msm_threads`, `PreparedBases::msm`) use it.
    ///
    /// ```
    /// use zkforge_curve::bls12_381::{G1Config, G2Config};
    /// use zkforge_msm::{Buckets, MsmConfig};
    /// assert_eq!(MsmConfig::for_curve::<G1Config>(100, 4), MsmConfig::for_size(100, 4));
    /// let g2 = MsmConfig::for_curve::<G2Config>(100, 1);
    /// assert_eq!(g2, MsmConfig::for_size_g2(100, 1));
    /// assert!(matches!(g2.buckets, Buckets::BatchAffine { .. }) && g2.glv);
    /// ```
    ///
    /// Where the bucket reduction runs on IFMA lanes (BLS12-381 G1 on a CPU with AVX-512 IFMA,
    /// `ifma::set_running_sum_lanes` on) the reduction costs less, so on one thread wider
    /// windows win at 2^10 (c = 10: 0.91x of c = 9), 2^13 (c = 12: 0.97x of 11) and 2^14
    /// (c = 13: 0.85x of 11) (Intel Xeon, 2026-12-02, interleaved sweep of 15 rounds;
    /// BENCHMARKS.md). There too fewer than [`lanes_small_threshold`] points go to
    /// [`SmallMethod::Lanes`].
    pub fn for_curve<C: zkforge_curve::CurveConfig>(n: usize, threads: usize) -> Self {
        if <C::Base as zkforge_curve::CurveField>::DEGREE == 2 {
            return Self::for_size_g2(n, threads);
        }
        let mut cfg = Self::for_size(n, threads);
        // the lanes run on the calling thread: below 224 points they beat the one-thread
        // bucket method, and the two-thread one where AVX-512 units are full width; otherwise
        // they replace only Straus (below 32)
        let lanes_below = lanes_small_threshold(cfg.threads);
        if n < lanes_below && crate::msm_ct::lanes_apply::<C>() {
            return Self { small_threshold: lanes_below, small_method: SmallMethod::Lanes, ..cfg };
        }
        if cfg.threads == 1 && matches!(cfg.buckets, Buckets::BatchAffineSimd { .. }) && crate::ifma::running_lanes_apply::<C::Base>() {
            let lg = (usize::BITS - n.max(1).leading_zeros() - 1) as usize;
            cfg.window = match lg {
                10 => Some(10),
                13 => Some(12),
                14 => Some(13),
                _ => cfg.window,
            };
        }
        cfg
    }

    /// Check every value: window in 2..=16 (or `None`), batch >= 1, threads >= 1, a Straus
    /// width in 2..=7.
    pub fn validate(&self) -> Result<(), crate::MsmError> {
        if let Some(w) = self.window {
            if !(crate::recode::MIN_WINDOW..=crate::recode::MAX_WINDOW).contains(&w) {
                return Err(crate::MsmError::InvalidWindow { window: w });
            }
        }
        if self.buckets.batch() == Some(0) {
            return Err(crate::MsmError::InvalidBatch);
        }
        if self.threads == 0 {
            return Err(crate::MsmError::InvalidThreads);
        }
        if let SmallMethod::StrausWidth { width } = self.small_method {
            if !(2..=7).contains(&width) {
                return Err(crate::MsmError::InvalidWindow { window: width });
            }
        }
        Ok(())
    }

    /// Fill in the window from the size when it is `None`.
    pub fn with_window_for(mut self, n: usize) -> Self {
        if self.window.is_none() {
            self.window = Some(default_window(n, self.glv));
        }
        self
    }
}

/// Window width for n points when none is configured (the single-thread column of
/// [`MsmConfig::for_size`], shifted by one bit when the GLV split doubles the points).
pub fn default_window(n: usize, glv: bool) -> u32 {
    let c = MsmConfig::for_size(n, 1).window.unwrap_or(8);
    if glv && n > 256 {
        c + 1
    } else {
        c
    }
}

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
}

/// What runs below the small-size threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmallMethod {
    /// Straus interleaving: shared doublings, wNAF digits of the GLV/GLS parts.
    Straus,
    /// Independent single multiplications, summed.
    Singles,
}

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

/// Straus below this many points (measured crossover against the bucket method).
pub const SMALL_THRESHOLD: usize = 64;

impl MsmConfig {
    /// The measured default for `n` points on `threads` threads (BLS12-381 G1 sweeps of
    /// `examples/msm_ablation.rs` (its c and S sweeps), 2026-11-22, this 2-core machine;
    /// see BENCHMARKS.md):
    /// - below 64 points, Straus interleaving (0.61-0.86x blst from 1 to 32 points);
    /// - with XYZZ buckets the GLV split wins up to 2^8 points (it halves the running-sum
    ///   reduction) and is neutral above; with batch-affine buckets it wins at every size
    ///   measured (2^12 to 2^16), so from 2^11 the default is batch-affine (S = 256) + GLV
    ///   (2^16, one thread: 333 ms against 447 ms for plain XYZZ; `examples/msm_ablation.rs`);
    /// - at 2^20 the split loses again (its decomposition and doubled point set cost 0.6 s of
    ///   5.1 s), and S = 1024 is best: no GLV, c = 15, S = 1024 takes 4.5 s;
    /// - on two threads, windows are split across threads up to 2^12 and points above.
    pub fn for_size(n: usize, threads: usize) -> Self {
        let threads = threads.max(1);
        let lg = (usize::BITS - n.max(1).leading_zeros() - 1) as usize; // floor(log2 n)
        const X: Buckets = Buckets::Xyzz;
        const BA: Buckets = Buckets::BatchAffine { batch: 256 };
        const BA1024: Buckets = Buckets::BatchAffine { batch: 1024 };
        let (glv, c, split, buckets) = if threads == 1 {
            match lg {
                0..=5 => (true, 5, Split::Windows, X),
                6 => (true, 6, Split::Windows, X),
                7..=8 => (true, 7, Split::Windows, X),
                9..=10 => (false, 8, Split::Windows, X),
                11..=12 => (true, 10, Split::Windows, BA),
                13..=14 => (true, 11, Split::Windows, BA),
                15..=16 => (true, 13, Split::Windows, BA),
                17..=18 => (false, 14, Split::Windows, BA),
                _ => (false, 15, Split::Windows, BA1024),
            }
        } else {
            match lg {
                0..=5 => (true, 5, Split::Windows, X),
                6 => (true, 6, Split::Windows, X),
                7..=8 => (true, 8, Split::Windows, X),
                9..=10 => (true, 9, Split::Windows, X),
                11..=12 => (true, 11, Split::Windows, BA),
                13..=14 => (true, 10, Split::Points, BA),
                15..=16 => (true, 12, Split::Points, BA),
                17..=18 => (false, 13, Split::Points, BA),
                _ => (false, 14, Split::Points, BA1024),
            }
        };
        Self { window: Some(c), glv, buckets, small_threshold: SMALL_THRESHOLD, small_method: SmallMethod::Straus, threads, split }
    }

    /// Check every value: window in 2..=16 (or `None`), batch >= 1, threads >= 1.
    pub fn validate(&self) -> Result<(), crate::MsmError> {
        if let Some(w) = self.window {
            if !(crate::recode::MIN_WINDOW..=crate::recode::MAX_WINDOW).contains(&w) {
                return Err(crate::MsmError::InvalidWindow { window: w });
            }
        }
        if let Buckets::BatchAffine { batch: 0 } = self.buckets {
            return Err(crate::MsmError::InvalidBatch);
        }
        if self.threads == 0 {
            return Err(crate::MsmError::InvalidThreads);
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

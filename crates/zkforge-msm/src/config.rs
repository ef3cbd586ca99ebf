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

/// Multi-scalar multiplication configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MsmConfig {
    /// Window width c in bits (2..=16); `None` picks it from the size.
    pub window: Option<u32>,
    /// Split every scalar with the GLV/GLS endomorphism first (twice the points, half the bits).
    pub glv: bool,
    /// Below this many points, sum single multiplications instead of bucketing.
    pub small_threshold: usize,
    /// Worker threads (1 = run on the calling thread).
    pub threads: usize,
    /// How threads share the work.
    pub split: Split,
}

impl MsmConfig {
    /// The measured default for `n` points on `threads` threads.
    pub fn for_size(n: usize, threads: usize) -> Self {
        Self { window: None, glv: n >= 1 << 10, small_threshold: 16, threads: threads.max(1), split: Split::Windows }
            .with_window_for(n)
    }

    /// Fill in the window from the size when it is `None` (ln-based rule, tuned by the sweep in
    /// `zkforge bench msm`).
    pub fn with_window_for(mut self, n: usize) -> Self {
        if self.window.is_none() {
            self.window = Some(default_window(n, self.glv));
        }
        self
    }
}

/// Window width for n points (n counts the points before any GLV doubling).
pub fn default_window(n: usize, glv: bool) -> u32 {
    let m = if glv { 2 * n } else { n }.max(1);
    let lg = usize::BITS - m.leading_zeros(); // ceil-ish log2
    match lg {
        0..=4 => 3,
        5..=6 => 4,
        7..=8 => 5,
        9..=10 => 7,
        11..=12 => 9,
        13..=14 => 10,
        15..=16 => 12,
        17..=18 => 13,
        19..=20 => 14,
        _ => 15,
    }
}

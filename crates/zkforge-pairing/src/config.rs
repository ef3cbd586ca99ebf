//! Run-time switches of the Miller loop, so that each optimisation can be timed alone and in
//! combination (`examples/pairingab.rs` interleaves them in one process). The defaults are the
//! measured best (BENCHMARKS.md, issue 19); every value gives the same Fp12 result, which
//! `tests/switches.rs` checks for each of them.

use core::sync::atomic::{AtomicU8, Ordering};

/// How the doubling step multiplies by 3b' of the twist ([`crate::line::ThreeB`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreeBForm {
    /// The curve's cheapest form: additions and doublings on BLS12-381 (3b' = 12 (1 + u)), a
    /// general Fp2 product on BN254.
    Auto,
    /// A general Fp2 product on every curve (the reference form).
    General,
}

static THREE_B: AtomicU8 = AtomicU8::new(0);

/// Choose how doubling steps multiply by 3b' (process-wide).
pub fn set_three_b_form(f: ThreeBForm) {
    THREE_B.store(
        match f {
            ThreeBForm::Auto => 0,
            ThreeBForm::General => 1,
        },
        Ordering::Relaxed,
    );
}

/// The current [`ThreeBForm`].
pub fn three_b_form() -> ThreeBForm {
    match THREE_B.load(Ordering::Relaxed) {
        0 => ThreeBForm::Auto,
        _ => ThreeBForm::General,
    }
}


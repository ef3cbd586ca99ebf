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


/// How [`crate::bls12_381::G2Prepared`] and [`crate::bn254::G2Prepared`] store their lines.
/// A line l0 + lx xP + ly yP is defined up to an Fp2 factor, which the final exponentiation
/// kills; divided by l0 it has a constant coefficient of one, and the scalar Miller loop
/// multiplies such a line into its accumulator with 9 Fp2 products instead of 13
/// (`sparse::mul_by_014_unit`, `sparse::mul_by_034_unit`). The Miller-loop value of prepared
/// lines then differs from the live loop's by that factor; final exponentiations, pairings and
/// pairing checks are the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreparedLines {
    /// The measured best, [`PreparedLines::Normalized`] (see BENCHMARKS.md).
    Auto,
    /// The doubling and addition steps' coefficients as they come (the Miller-loop value
    /// equals the live loop's).
    Raw,
    /// Each line divided by its constant coefficient (where that is not zero; one batched
    /// inversion per prepared point).
    Normalized,
}

static PREPARED_LINES: AtomicU8 = AtomicU8::new(0);

/// Choose how G2 points prepared from now on store their lines (process-wide; points prepared
/// before keep their form, and every form gives the same pairings).
pub fn set_prepared_lines(f: PreparedLines) {
    PREPARED_LINES.store(
        match f {
            PreparedLines::Auto => 0,
            PreparedLines::Raw => 1,
            PreparedLines::Normalized => 2,
        },
        Ordering::Relaxed,
    );
}

/// The current [`PreparedLines`].
pub fn prepared_lines() -> PreparedLines {
    match PREPARED_LINES.load(Ordering::Relaxed) {
        0 => PreparedLines::Auto,
        1 => PreparedLines::Raw,
        _ => PreparedLines::Normalized,
    }
}

/// How the final exponentiation raises to BLS12-381's |x| = 2^63 + 2^62 + 2^60 + 2^57 + 2^48
/// + 2^16 (five times per hard part).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpByXForm {
    /// The measured best: [`ExpByXForm::Depths`] in the scalar tower; [`ExpByXForm::Wnaf`]
    /// with the hard part on IFMA lanes ([`HardPart::Ifma`], where Granger-Scott squarings
    /// cost half of the scalar ones and products stay on the lanes).
    Auto,
    /// The windowed NAF of |x| with runs of cyclotomic squarings between its digits, each long
    /// run compressed and decompressed on its own (`Fp12::cyclotomic_square_n`).
    Wnaf,
    /// One run of 63 compressed squarings that keeps f^(2^d) at the six depths d of |x|'s bits,
    /// one simultaneous decompression (one Fp2 inversion for all six), five products
    /// (`Fp12::cyclotomic_square_depths`).
    Depths,
}

static EXP_BY_X: AtomicU8 = AtomicU8::new(0);

/// Choose how BLS12-381's final exponentiation raises to |x| (process-wide; every form gives
/// the same result).
pub fn set_exp_by_x_form(f: ExpByXForm) {
    EXP_BY_X.store(
        match f {
            ExpByXForm::Auto => 0,
            ExpByXForm::Wnaf => 1,
            ExpByXForm::Depths => 2,
        },
        Ordering::Relaxed,
    );
}

/// The current [`ExpByXForm`].
pub fn exp_by_x_form() -> ExpByXForm {
    match EXP_BY_X.load(Ordering::Relaxed) {
        0 => ExpByXForm::Auto,
        1 => ExpByXForm::Wnaf,
        _ => ExpByXForm::Depths,
    }
}

/// How the final exponentiation raises to BN254's u = 0x44e992b44a6909f1 (three times per hard
/// part, in the scalar tower and on IFMA lanes alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpByUForm {
    /// The measured best, [`ExpByUForm::Chain`].
    Auto,
    /// The width-4 NAF of u: table f, f^3, f^5, f^7, then 62 squarings and 16 products.
    Wnaf,
    /// A signed addition chain: table f^2, f^4, f^5, f^9, f^18, f^19, then twelve terms +-f^5,
    /// +-f^9, +-f^19: 61 squarings and 14 products.
    Chain,
}

static EXP_BY_U: AtomicU8 = AtomicU8::new(0);

/// Choose how BN254's final exponentiation raises to u (process-wide; every form gives the
/// same result).
///
/// ```
/// use zkforge_pairing::config::{set_exp_by_u_form, ExpByUForm};
/// set_exp_by_u_form(ExpByUForm::Wnaf);
/// set_exp_by_u_form(ExpByUForm::Auto);
/// ```
pub fn set_exp_by_u_form(f: ExpByUForm) {
    EXP_BY_U.store(
        match f {
            ExpByUForm::Auto => 0,
            ExpByUForm::Wnaf => 1,
            ExpByUForm::Chain => 2,
        },
        Ordering::Relaxed,
    );
}

/// The current [`ExpByUForm`].
pub fn exp_by_u_form() -> ExpByUForm {
    match EXP_BY_U.load(Ordering::Relaxed) {
        0 => ExpByUForm::Auto,
        1 => ExpByUForm::Wnaf,
        _ => ExpByUForm::Chain,
    }
}

/// How a decoded or converted Gt element's order is checked (after the cyclotomic-subgroup
/// check `Gt::from_bytes` and `Gt::from_fp12` make first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GtMembership {
    /// The measured best, [`GtMembership::Frobenius`].
    Auto,
    /// f^r = 1 by a variable-time square-and-multiply cyclotomic exponentiation (about 254
    /// squarings and 127 products).
    Order,
    /// f^p = f^(p mod r), one Frobenius map and an exponentiation by a short exponent: on
    /// BLS12-381 f^p = f^x (r = x^4 - x^2 + 1 and p = x mod r, so this holds exactly for the
    /// cyclotomic f of order dividing r: Scott, "A note on group membership tests for G1, G2
    /// and GT on BLS pairing-friendly curves", ePrint 2021/1130; 63 squarings, 5 products); on
    /// BN254 f^p = f^(6u^2) (gcd(Phi12(p), Phi12(6u^2)) = r; 124 squarings, 29 products).
    Frobenius,
}

static GT_MEMBERSHIP: AtomicU8 = AtomicU8::new(0);

/// Choose how Gt membership is checked (process-wide; every value accepts and rejects the
/// same elements).
///
/// ```
/// use zkforge_pairing::config::{set_gt_membership, GtMembership};
/// use zkforge_pairing::bls12_381::Gt;
/// let g = Gt::generator();
/// set_gt_membership(GtMembership::Order);
/// assert_eq!(Gt::from_bytes(&g.to_bytes()), Ok(g));
/// set_gt_membership(GtMembership::Auto);
/// assert_eq!(Gt::from_bytes(&g.to_bytes()), Ok(g));
/// ```
pub fn set_gt_membership(m: GtMembership) {
    GT_MEMBERSHIP.store(
        match m {
            GtMembership::Auto => 0,
            GtMembership::Order => 1,
            GtMembership::Frobenius => 2,
        },
        Ordering::Relaxed,
    );
}

/// The current [`GtMembership`].
pub fn gt_membership() -> GtMembership {
    match GT_MEMBERSHIP.load(Ordering::Relaxed) {
        0 => GtMembership::Auto,
        1 => GtMembership::Order,
        _ => GtMembership::Frobenius,
    }
}

/// How BLS12-381's Gt membership test ([`GtMembership::Frobenius`]) raises the candidate to
/// |x| = 2^63 + 2^62 + 2^60 + 2^57 + 2^48 + 2^16.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GtSquarings {
    /// The measured best, [`GtSquarings::Compressed`]: 0.826 of [`GtSquarings::GrangerScott`]'s
    /// time in the 64-bit tower, 0.991 on IFMA lanes (`examples/gt_membership.rs`, Zen 4,
    /// 2026-12-06).
    Auto,
    /// 63 Granger-Scott squarings and 5 products along the chain (exact on the whole
    /// cyclotomic subgroup).
    GrangerScott,
    /// One run of 63 of Karabina's compressed squarings, the powers at depths 16, 48, 57, 60,
    /// 62 and 63 decompressed by his first formula with one shared inversion, and 5 products
    /// (`Fp12::cyclotomic_square_depths_vartime`); when some power has g1 = 0 the test falls
    /// back to [`GtSquarings::GrangerScott`], so it is exact on every input.
    Compressed,
}

static GT_SQUARINGS: AtomicU8 = AtomicU8::new(0);

/// Choose how the Gt membership test squares (process-wide; every value accepts and rejects
/// the same elements).
///
/// ```
/// use zkforge_pairing::config::{set_gt_squarings, GtSquarings};
/// use zkforge_pairing::bls12_381::Gt;
/// let g = Gt::generator();
/// set_gt_squarings(GtSquarings::Compressed);
/// assert_eq!(Gt::from_bytes(&g.to_bytes()), Ok(g));
/// set_gt_squarings(GtSquarings::Auto);
/// ```
pub fn set_gt_squarings(s: GtSquarings) {
    GT_SQUARINGS.store(
        match s {
            GtSquarings::Auto => 0,
            GtSquarings::GrangerScott => 1,
            GtSquarings::Compressed => 2,
        },
        Ordering::Relaxed,
    );
}

/// The current [`GtSquarings`].
pub fn gt_squarings() -> GtSquarings {
    match GT_SQUARINGS.load(Ordering::Relaxed) {
        0 => GtSquarings::Auto,
        1 => GtSquarings::GrangerScott,
        _ => GtSquarings::Compressed,
    }
}

/// Where the Miller loop keeps its Fp12 accumulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MillerAccumulator {
    /// The measured best: [`MillerAccumulator::Ifma`] where it applies (BLS12-381 and BN254
    /// on a CPU with AVX-512 IFMA), the scalar tower elsewhere.
    Auto,
    /// The 64-bit tower (MULX/ADX or portable), the reference.
    Scalar,
    /// Eight AVX-512 IFMA lanes (`zkforge_field::tower::Fp12Lanes`): the square and the line
    /// products (M-twist on BLS12-381, D-twist on BN254) run there, lines come from the scalar
    /// G2 steps (on lanes too for BLS12-381 from [`lane_steps_min_pairs`] pairs); the scalar
    /// tower where the lanes do not apply.
    Ifma,
}

static MILLER_ACC: AtomicU8 = AtomicU8::new(0);

/// Choose where Miller loops keep their accumulator (process-wide; every value gives the same
/// result).
pub fn set_miller_accumulator(a: MillerAccumulator) {
    MILLER_ACC.store(
        match a {
            MillerAccumulator::Auto => 0,
            MillerAccumulator::Scalar => 1,
            MillerAccumulator::Ifma => 2,
        },
        Ordering::Relaxed,
    );
}

/// The current [`MillerAccumulator`].
pub fn miller_accumulator() -> MillerAccumulator {
    match MILLER_ACC.load(Ordering::Relaxed) {
        0 => MillerAccumulator::Auto,
        1 => MillerAccumulator::Scalar,
        _ => MillerAccumulator::Ifma,
    }
}

/// The smallest number of pairs whose doubling (and addition) steps the IFMA Miller loop runs
/// on lanes, one pair per lane (`zkforge_field::tower::G2Lanes`), on CPUs with full-width
/// AVX-512 units; below it they run in the scalar tower. Measured on Zen 5 for both curves
/// (`examples/pairingprof.rs`, BENCHMARKS.md issue 19 tenth and eleventh parts: BLS12-381 wins
/// from 4 pairs, BN254 ties at 4 and wins from 5).
pub const LANE_STEPS_MIN_PAIRS: usize = 4;

/// [`LANE_STEPS_MIN_PAIRS`] on CPUs that run AVX-512 on 256-bit units (AMD Zen 4,
/// `zkforge_field::backend::avx512_half_width`): there the scalar steps still win at 4 pairs
/// (Miller loop of 4 pairs: BLS12-381 692 us against 734 with lane steps, BN254 501 against
/// 557) and the lane steps from 5 (BLS12-381 812 against 851, BN254 615 against 618; 6 pairs
/// 896 / 1007 and 672 / 726); `examples/lanes_vs_scalar.rs`, BENCHMARKS.md, 2026-12-06.
pub const LANE_STEPS_MIN_PAIRS_HALF_WIDTH: usize = 5;

// 0 = the measured default for this CPU
static LANE_STEPS_MIN: core::sync::atomic::AtomicUsize = core::sync::atomic::AtomicUsize::new(0);

/// Set the smallest pair count whose doubling steps run on lanes (1 always, `usize::MAX`
/// never, 0 the measured default for this CPU; process-wide; every value gives the same
/// result).
pub fn set_lane_steps_min_pairs(n: usize) {
    LANE_STEPS_MIN.store(n, Ordering::Relaxed);
}

/// The current smallest pair count for lane doubling steps: the value set, or by default
/// [`LANE_STEPS_MIN_PAIRS_HALF_WIDTH`] on a CPU with half-width AVX-512 units and
/// [`LANE_STEPS_MIN_PAIRS`] elsewhere.
pub fn lane_steps_min_pairs() -> usize {
    match LANE_STEPS_MIN.load(Ordering::Relaxed) {
        0 => zkforge_field::backend::per_avx512_width(LANE_STEPS_MIN_PAIRS, LANE_STEPS_MIN_PAIRS_HALF_WIDTH),
        n => n,
    }
}

/// Where the final exponentiation's hard part runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HardPart {
    /// The measured best: [`HardPart::Ifma`] where it applies (BLS12-381 and BN254 on a CPU
    /// with AVX-512 IFMA; final exponentiation 165 -> 148 us and 153 -> 87 us on Zen 5), the
    /// scalar tower elsewhere.
    Auto,
    /// The 64-bit tower (MULX/ADX or portable), the reference.
    Scalar,
    /// The cyclotomic squarings and products on AVX-512 IFMA lanes
    /// (`zkforge_field::tower::Fp12Lanes`), the Frobenius maps in the 64-bit tower; the scalar
    /// tower where the lanes do not apply. BN254 squares along u's chain or windowed NAF
    /// ([`ExpByUForm`], Granger-Scott); BLS12-381 follows [`ExpByXForm`] (compressed depths or
    /// the windowed NAF of |x| on the lanes). The Frobenius Gt membership tests
    /// ([`GtMembership`]) take the lanes under the same switch.
    Ifma,
}

static HARD_PART: AtomicU8 = AtomicU8::new(0);

/// Choose where final exponentiations run their hard part (process-wide; every value gives
/// the same result).
pub fn set_hard_part(h: HardPart) {
    HARD_PART.store(
        match h {
            HardPart::Auto => 0,
            HardPart::Scalar => 1,
            HardPart::Ifma => 2,
        },
        Ordering::Relaxed,
    );
}

/// The current [`HardPart`].
pub fn hard_part() -> HardPart {
    match HARD_PART.load(Ordering::Relaxed) {
        0 => HardPart::Auto,
        1 => HardPart::Scalar,
        _ => HardPart::Ifma,
    }
}

/// Whether the lane Miller loop ([`lane_steps_min_pairs`]) runs its addition steps on lanes
/// too (`zkforge_field::tower::G2Lanes::add_into`) instead of taking the points out for a
/// scalar step at each nonzero digit. Measured on Zen 5 (`examples/pairingprof.rs`, BENCHMARKS.md
/// issue 19 eleventh part).
pub const LANE_ADDITION_STEPS: bool = true;

static LANE_ADDS: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(LANE_ADDITION_STEPS);

/// Run the lane Miller loop's addition steps on lanes (`true`) or in the scalar tower
/// (process-wide; both give the same result).
pub fn set_lane_addition_steps(on: bool) {
    LANE_ADDS.store(on, Ordering::Relaxed);
}

/// The current lane-addition setting.
pub fn lane_addition_steps() -> bool {
    LANE_ADDS.load(Ordering::Relaxed)
}

/// How the parallel Miller loop (`multi_miller_loop_parallel`, `pairing_check_parallel`, and
/// zkforge-bls's threaded verification) cuts its pairs over threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParallelSplit {
    /// The measured best for this CPU: [`ParallelSplit::Even`] where AVX-512 runs on 256-bit
    /// units (AMD Zen 4: there a lane loop's cost grows with its pairs, and a part below
    /// [`lane_steps_min_pairs`] runs its steps in the scalar tower; two-thread pairing check of
    /// 8 pairs 0.75 of the lane-group split's time for BLS12-381 and 0.68 for BN254, of 5 to 17
    /// pairs 0.66-0.90 except at 16, where the splits agree; `examples/parallel_split.rs`,
    /// 2026-12-06), [`ParallelSplit::LaneGroups`] elsewhere (Zen 5: a half-empty lane loop cost
    /// what a full one did; Intel Emerald Rapids, 2026-12-07: seven runs of the probe split,
    /// three with the even cut ahead by 8 % over 2-17 pairs, four with the lane groups ahead by
    /// 5 % and by 25 % at 8 pairs, so the default stays).
    Auto,
    /// Parts of whole lane groups (`miller_loop_group`: eight pairs where the loop runs on IFMA
    /// lanes), so eight pairs or fewer stay on one thread.
    LaneGroups,
    /// Parts of near-equal length, one per thread.
    Even,
}

static PARALLEL_SPLIT: AtomicU8 = AtomicU8::new(0);

/// Choose how parallel Miller loops cut their pairs (process-wide; every value gives the same
/// result).
///
/// ```
/// use zkforge_pairing::config::{parallel_split, set_parallel_split, ParallelSplit};
/// set_parallel_split(ParallelSplit::Even);
/// assert_eq!(parallel_split(), ParallelSplit::Even);
/// set_parallel_split(ParallelSplit::Auto);
/// ```
pub fn set_parallel_split(s: ParallelSplit) {
    PARALLEL_SPLIT.store(
        match s {
            ParallelSplit::Auto => 0,
            ParallelSplit::LaneGroups => 1,
            ParallelSplit::Even => 2,
        },
        Ordering::Relaxed,
    );
}

/// The current [`ParallelSplit`].
pub fn parallel_split() -> ParallelSplit {
    match PARALLEL_SPLIT.load(Ordering::Relaxed) {
        0 => ParallelSplit::Auto,
        1 => ParallelSplit::LaneGroups,
        _ => ParallelSplit::Even,
    }
}

//! Montgomery multiplication backends behind one entry point, [`mont_mul`].
//!
//! - `portable`: CIOS in plain Rust with u128 products; every target, and the reference that
//!   the assembly is tested against.
//! - `x86_64_adx`: MULX/ADCX/ADOX inline assembly for 4 and 6 limbs, chosen at run time when
//!   the CPU reports BMI2 and ADX, so a default build uses it without any compile flag; a
//!   build compiled for BMI2 and ADX ([`STATIC_ADX`]) fixes it at compile time instead.
//!
//! [`Backend`] lets tests and benchmarks force one of them; the default is `Auto`.

pub mod portable;
pub mod wide;
#[cfg(target_arch = "x86_64")]
pub mod x86_64_adx;

pub use wide::Wide;

use core::sync::atomic::{AtomicU8, Ordering};

/// Which Montgomery multiplication backend field operations use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The fastest available on this CPU (ADX assembly where supported).
    Auto,
    /// Portable Rust (u128 CIOS) everywhere.
    Portable,
}

// 0 = not yet detected, 1 = portable, 2 = adx
static SELECTED: AtomicU8 = AtomicU8::new(0);

/// True in a build compiled for CPUs with BMI2 and ADX (`-C target-feature=+bmi2,+adx`, as the
/// benchmark aliases in `.cargo/config.toml` do, or `-C target-cpu=native` on such a CPU). Such
/// a binary cannot run elsewhere, so the MULX/ADX assembly is fixed at compile time and
/// [`set_backend`] has no effect. Default builds (no such flags: the library, the CLI, the
/// Python wheel, the test suite) detect the CPU at run time and honour [`set_backend`].
pub const STATIC_ADX: bool = cfg!(all(target_arch = "x86_64", target_feature = "bmi2", target_feature = "adx"));

/// Force a backend for the whole process (tests and benchmarks use this to compare them).
/// Without effect in a [`STATIC_ADX`] build, where the assembly is fixed at compile time
/// ([`adx_active`] says which backend runs).
///
/// # Example
/// ```
/// use zkforge_field::backend::{set_backend, Backend};
/// set_backend(Backend::Portable);
/// set_backend(Backend::Auto);
/// ```
pub fn set_backend(b: Backend) {
    let v = match b {
        Backend::Portable => 1,
        Backend::Auto => detect(),
    };
    SELECTED.store(v, Ordering::Relaxed);
}

/// How Fp6 and Fp12 products are reduced: the run-time switch of the lazy tower
/// ([`crate::tower::lazy`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tower {
    /// Lazy when the MULX/ADX kernels are in use, for 6-limb fields (BLS12-381) always and for
    /// 4-limb ones (BN254) with the quotient product by xi ([`XiForm::Quotient`], the default);
    /// per product otherwise. The measured best: the BLS12-381 pairing check is 6% faster lazy
    /// (`examples/tower_switch.rs` in zkforge-pairing); BN254's was 5% slower lazy while its
    /// wide product by xi = 9 + u took four wide additions, and is faster lazy since that
    /// product is one pass (Zen 4, `examples/xi_switch.rs`: Fp12 product 0.89 and square 0.92
    /// of the per-product tower, scalar Miller loop 0.91, scalar final exponentiation 0.96).
    Auto,
    /// Double-width products, one reduction per output coefficient (any backend).
    Lazy,
    /// Every Fp2 product reduced as it is formed (the reference formulas).
    PerProduct,
}

// 0 = auto, 1 = lazy, 2 = per product
static TOWER: AtomicU8 = AtomicU8::new(0);

/// Choose the tower's reduction strategy for the whole process. Every value gives the same
/// results (tested); only speed differs.
///
/// # Example
/// ```
/// use zkforge_field::backend::{set_tower, Tower};
/// use zkforge_field::bls12_381::Fp12;
/// use rand_core::OsRng;
/// let (a, b) = (Fp12::random(&mut OsRng), Fp12::random(&mut OsRng));
/// set_tower(Tower::PerProduct);
/// let slow = a * b;
/// set_tower(Tower::Auto);
/// assert_eq!(a * b, slow);
/// ```
pub fn set_tower(t: Tower) {
    TOWER.store(
        match t {
            Tower::Auto => 0,
            Tower::Lazy => 1,
            Tower::PerProduct => 2,
        },
        Ordering::Relaxed,
    );
}

/// How field squarings run: the run-time switch of the dedicated squaring kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Squaring {
    /// The measured best: a multiplication on every field for now. The dedicated kernel
    /// (below) is slower on the machines measured so far (Zen 5, BLS12-381 Fp: 24.5 ns latency
    /// against 20.7 ns for the CIOS multiplication, `examples/squaring.rs`): its 21 word
    /// products save MULX issue slots, but the CIOS multiplication is bound by its carry
    /// chains, and the square pays a memory round trip between its two passes and the
    /// separate reduction.
    Auto,
    /// The wide square with each cross product computed once (n(n-1)/2 + n word products
    /// instead of n^2), then one Montgomery reduction; MULX/ADX kernels only, the portable
    /// backend multiplies.
    Dedicated,
    /// a * a through the Montgomery multiplication.
    Multiply,
}

// 0 = auto, 1 = dedicated, 2 = multiply
static SQUARING: AtomicU8 = AtomicU8::new(0);

/// Choose how squarings run for the whole process. Every value gives the same results
/// (tested); only speed differs.
///
/// # Example
/// ```
/// use zkforge_field::backend::{set_squaring, Squaring};
/// use zkforge_field::bls12_381::Fp;
/// let x = Fp::from_u64(12345);
/// set_squaring(Squaring::Multiply);
/// let slow = x.square();
/// set_squaring(Squaring::Auto);
/// assert_eq!(x.square(), slow);
/// ```
pub fn set_squaring(s: Squaring) {
    SQUARING.store(
        match s {
            Squaring::Auto => 0,
            Squaring::Dedicated => 1,
            Squaring::Multiply => 2,
        },
        Ordering::Relaxed,
    );
}

/// a^2 R^-1 mod p, fully reduced (see [`set_squaring`]).
#[inline(always)]
pub(crate) fn mont_square<const N: usize>(a: &[u64; N], p: &[u64; 8]) -> [u64; N] {
    #[cfg(target_arch = "x86_64")]
    {
        let dedicated = SQUARING.load(Ordering::Relaxed) == 1;
        if dedicated && (N == 4 || N == 6) && selected() == 2 {
            let mut t = Wide::<N>::ZERO;
            sqr_wide(&mut t, a);
            return redc(&t, p);
        }
    }
    mont_mul(a, a, p)
}

/// How the reduced Fp2 product (`Fp2 * Fp2`) runs with the MULX/ADX kernels, on fields with
/// two spare top bits (BN254, BLS12-381). Without those kernels it is Karatsuba over three
/// reduced products whatever this says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fp2Product {
    /// The measured best, [`Fp2Product::Karatsuba`]: BLS12-381 G2 addition and scalar
    /// multiplication 0.95-0.97 of [`Fp2Product::SumsOfProducts`]'s time, G2 doubling and hash
    /// to G2 0.98-0.99; BN254 (whose 4-limb product is inlined) the product 0.94, G2 addition
    /// 0.92-0.95, scalar multiplication 0.97 (`fp2_product_switch` in zkforge-pairing's
    /// examples, Zen 4, 2026-12-06; BENCHMARKS.md).
    Auto,
    /// c0 = a0 b0 + a1 (-b1), c1 = a0 b1 + a1 b0, each one lazy sum of products (one
    /// Montgomery reduction per row for both products: 6 N-limb product units).
    SumsOfProducts,
    /// Karatsuba over three exact double-width products (a0 b0, a1 b1, (a0 + a1)(b0 + b1)),
    /// then two Montgomery reductions (5 units), as blst's `mul_mont_384x`.
    Karatsuba,
}

// 0 = auto, 1 = sums of products, 2 = Karatsuba
static FP2_PRODUCT: AtomicU8 = AtomicU8::new(0);

/// Choose how reduced Fp2 products run for the whole process. Every value gives the same
/// results (tested); only speed differs.
///
/// # Example
/// ```
/// use zkforge_field::backend::{set_fp2_product, Fp2Product};
/// use zkforge_field::bls12_381::Fp2;
/// use rand_core::OsRng;
/// let (a, b) = (Fp2::random(&mut OsRng), Fp2::random(&mut OsRng));
/// set_fp2_product(Fp2Product::SumsOfProducts);
/// let sums = a * b;
/// set_fp2_product(Fp2Product::Auto);
/// assert_eq!(a * b, sums);
/// ```
pub fn set_fp2_product(f: Fp2Product) {
    FP2_PRODUCT.store(
        match f {
            Fp2Product::Auto => 0,
            Fp2Product::SumsOfProducts => 1,
            Fp2Product::Karatsuba => 2,
        },
        Ordering::Relaxed,
    );
}

/// True when reduced Fp2 products take Karatsuba over wide products (see [`set_fp2_product`]).
#[inline(always)]
pub(crate) fn fp2_product_karatsuba() -> bool {
    FP2_PRODUCT.load(Ordering::Relaxed) != 1
}

/// How BN254's Fp2 product by its non-residue xi = 9 + u, (9 a0 - a1) + (a0 + 9 a1) u, runs.
/// (BLS12-381's xi = 1 + u is one addition and one subtraction either way.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum XiForm {
    /// [`XiForm::Quotient`]: 0.57 of [`XiForm::Chain`]'s time for the product alone (0.64 of
    /// [`XiForm::OnePass`]'s), 0.93-0.94 for the scalar Fp12 square, product and cyclotomic
    /// square (`examples/xi_switch.rs` in zkforge-pairing, Zen 4, 2026-12-06; BENCHMARKS.md).
    /// Before that, [`XiForm::OnePass`] (0.905 of the chain on Zen 3).
    Auto,
    /// 8a + a + b by three reduced doublings and two reduced additions per coefficient.
    Chain,
    /// 9a + b as one 5-word value, reduced by four constant-time conditional subtractions
    /// (of 8p, 4p, 2p, p) per coefficient.
    OnePass,
    /// 9a + b as one 5-word value, reduced by a one-word quotient estimate q (q p subtracted,
    /// then one conditional subtraction of p) per coefficient.
    Quotient,
}

// 0 = auto, 1 = chain, 2 = one pass, 3 = quotient
static XI_FORM: AtomicU8 = AtomicU8::new(0);

/// Choose how BN254's products by xi run for the whole process. Every value gives the same
/// results (tested); only speed differs.
///
/// # Example
/// ```
/// use zkforge_field::backend::{set_xi_form, XiForm};
/// use zkforge_field::bn254::Fp2;
/// use rand_core::OsRng;
/// let a = Fp2::random(&mut OsRng);
/// set_xi_form(XiForm::Chain);
/// let chain = a.mul_by_nonresidue();
/// set_xi_form(XiForm::Auto);
/// assert_eq!(a.mul_by_nonresidue(), chain);
/// ```
pub fn set_xi_form(f: XiForm) {
    XI_FORM.store(
        match f {
            XiForm::Auto => 0,
            XiForm::Chain => 1,
            XiForm::OnePass => 2,
            XiForm::Quotient => 3,
        },
        Ordering::Relaxed,
    );
}

/// True when products by xi take the one-pass form (see [`set_xi_form`]; asked only when
/// [`xi_quotient`] is false).
#[inline(always)]
pub(crate) fn xi_one_pass() -> bool {
    XI_FORM.load(Ordering::Relaxed) != 1
}

/// True when products by xi take the quotient form, the default (see [`set_xi_form`]).
#[inline(always)]
pub(crate) fn xi_quotient() -> bool {
    matches!(XI_FORM.load(Ordering::Relaxed), 0 | 3)
}

/// How the Fp2 sums that feed the Karatsuba products of a wide Fp6 product
/// ([`crate::tower::lazy::Fp6Wide`]: (a1 + a2)(b1 + b2) and its two siblings, and the sparse
/// line products' (a0 + a1)(b0 + b1)) are formed in the lazy tower. An unreduced sum is below
/// 2p; the wide Fp2 product then has its own Karatsuba sum below 4p < R and its middle
/// coefficient below 8p^2, from which the Fp6 formula subtracts two exact sub-products (no
/// borrow) before anything else, so every value that is added, subtracted modulo p R or
/// reduced is below p R (bounds in `tower::lazy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KaratsubaSums {
    /// The measured best, [`KaratsubaSums::Lazy`]: 0.97 of [`KaratsubaSums::Reduced`]'s time
    /// for BLS12-381's Fp6 and Fp12 products and Fp12 square, 0.96-0.97 for BN254's, 0.99 for
    /// the BLS12-381 Miller loop in the scalar tower (`examples/karatsuba_sums.rs` in
    /// zkforge-pairing, Zen 4, 2026-12-06; BENCHMARKS.md).
    Auto,
    /// Every sum reduced below p (blst's `mul_fp6x2` does this).
    Reduced,
    /// The sums left unreduced (below 2p): one carry chain, no conditional subtraction.
    Lazy,
}

// 0 = auto, 1 = reduced, 2 = lazy
static KARATSUBA_SUMS: AtomicU8 = AtomicU8::new(0);

/// Choose how the Karatsuba sums of wide Fp6 products are formed for the whole process.
/// Every value gives the same results (tested); only speed differs.
///
/// # Example
/// ```
/// use zkforge_field::backend::{set_karatsuba_sums, KaratsubaSums};
/// use zkforge_field::bls12_381::Fp12;
/// use rand_core::OsRng;
/// let (a, b) = (Fp12::random(&mut OsRng), Fp12::random(&mut OsRng));
/// set_karatsuba_sums(KaratsubaSums::Reduced);
/// let reduced = a * b;
/// set_karatsuba_sums(KaratsubaSums::Auto);
/// assert_eq!(a * b, reduced);
/// ```
pub fn set_karatsuba_sums(k: KaratsubaSums) {
    KARATSUBA_SUMS.store(
        match k {
            KaratsubaSums::Auto => 0,
            KaratsubaSums::Reduced => 1,
            KaratsubaSums::Lazy => 2,
        },
        Ordering::Relaxed,
    );
}

/// True when the Karatsuba sums of wide Fp6 products may stay unreduced (see
/// [`set_karatsuba_sums`]; the caller checks the field's spare bits).
#[inline(always)]
pub(crate) fn karatsuba_sums_lazy() -> bool {
    KARATSUBA_SUMS.load(Ordering::Relaxed) != 1
}

/// How the constant-time select at the end of a reduced addition or doubling (keep a + b,
/// or a + b - p, by the borrow of the subtraction) runs for 4- and 6-limb fields on x86-64.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NarrowSelect {
    /// The measured best, [`NarrowSelect::Cmov`]: 0.975 of [`NarrowSelect::Masks`]'s time for
    /// BLS12-381's scalar cyclotomic square, 0.99 for the Fp12 square and BN254's cyclotomic
    /// square, 0.99-1.00 for the Fp12 products (`examples/select_probe.rs` in
    /// zkforge-pairing, Zen 4, 2026-12-06; BENCHMARKS.md).
    Auto,
    /// `(a & m) | (d & !m)` with the mask hidden from the optimiser: three logic instructions
    /// a word and a NOT.
    Masks,
    /// One TEST and a CMOVZ a word (inline assembly; x86-64 only, masks elsewhere).
    Cmov,
}

// 0 = auto, 1 = masks, 2 = cmov
static NARROW_SELECT: AtomicU8 = AtomicU8::new(0);

/// Choose how reduced additions select their result for the whole process. Every value gives
/// the same results (tested); only speed differs. Both are constant time.
///
/// # Example
/// ```
/// use zkforge_field::backend::{set_narrow_select, NarrowSelect};
/// use zkforge_field::bls12_381::Fp;
/// use rand_core::OsRng;
/// let (a, b) = (Fp::random(&mut OsRng), Fp::random(&mut OsRng));
/// set_narrow_select(NarrowSelect::Masks);
/// let masks = a + b;
/// set_narrow_select(NarrowSelect::Auto);
/// assert_eq!(a + b, masks);
/// ```
pub fn set_narrow_select(k: NarrowSelect) {
    NARROW_SELECT.store(
        match k {
            NarrowSelect::Auto => 0,
            NarrowSelect::Masks => 1,
            NarrowSelect::Cmov => 2,
        },
        Ordering::Relaxed,
    );
}

/// True when reduced additions select by CMOV (see [`set_narrow_select`]).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
pub(crate) fn cmov_select() -> bool {
    NARROW_SELECT.load(Ordering::Relaxed) != 1
}

/// How the Fp4 squarings of the Granger-Scott cyclotomic square run when the tower is lazy
/// ([`set_tower`]): three wide Fp2 squarings with one reduction per output coefficient
/// (`tower::lazy::fp4_square`), or three reduced Fp2 squarings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fp4Squaring {
    /// The measured best per field: [`Fp4Squaring::Lazy`] for 6 limbs (BLS12-381),
    /// [`Fp4Squaring::Reduced`] for 4 limbs (BN254, whose reduced Fp2 squaring is two
    /// interleaved 4-limb Montgomery products and leaves the wide form nothing to save).
    Auto,
    /// Wide squarings, one reduction per output coefficient (6 products, 4 reductions).
    Lazy,
    /// Reduced squarings (6 products, 6 reductions).
    Reduced,
}

// 0 = auto, 1 = lazy, 2 = reduced
static FP4_SQUARING: AtomicU8 = AtomicU8::new(0);

/// Choose how cyclotomic squarings square their Fp4 pairs for the whole process. Every value
/// gives the same results (tested); only speed differs.
///
/// # Example
/// ```
/// use zkforge_field::backend::{set_fp4_squaring, Fp4Squaring};
/// use zkforge_field::bn254::Fp12;
/// use rand_core::OsRng;
/// let f = Fp12::random(&mut OsRng);
/// let g = f.conjugate() * f.invert().unwrap();
/// let g = g.frobenius_map(2) * g;
/// set_fp4_squaring(Fp4Squaring::Lazy);
/// let lazy = g.cyclotomic_square();
/// set_fp4_squaring(Fp4Squaring::Auto);
/// assert_eq!(g.cyclotomic_square(), lazy);
/// ```
pub fn set_fp4_squaring(f: Fp4Squaring) {
    FP4_SQUARING.store(
        match f {
            Fp4Squaring::Auto => 0,
            Fp4Squaring::Lazy => 1,
            Fp4Squaring::Reduced => 2,
        },
        Ordering::Relaxed,
    );
}

/// True when the cyclotomic square's Fp4 squarings of an `n_limbs`-limb field take the wide
/// form (asked only where the lazy tower is selected; see [`set_fp4_squaring`]).
#[inline(always)]
pub(crate) fn fp4_squaring_lazy(n_limbs: usize) -> bool {
    match FP4_SQUARING.load(Ordering::Relaxed) {
        0 => n_limbs != 4,
        1 => true,
        _ => false,
    }
}

/// Which plan the fixed exponentiations of square roots, Legendre symbols and Tonelli-Shanks
/// follow (`chain.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PowChain {
    /// [`PowChain::Stored`], the measured best (fewer products for the same squarings).
    Auto,
    /// The addition chain stored for the exponent (generated by mmcloughlin/addchain,
    /// verified at compile time) where there is one and it is cheaper, else the window plan:
    /// BLS12-381's (p + 1) / 4 in 373 squarings and 76 products.
    Stored,
    /// The cheapest sliding-window plan (width 3 to 6): BLS12-381's (p + 1) / 4 in 376
    /// squarings and 81 products.
    SlidingWindow,
}

// 0 = auto, 1 = stored, 2 = sliding window
static POW_CHAIN: AtomicU8 = AtomicU8::new(0);

/// Choose the plan of the fixed exponentiations (square roots, Legendre symbols,
/// Tonelli-Shanks) for the whole process. Every value gives the same results (tested); only
/// speed differs.
///
/// # Example
/// ```
/// use zkforge_field::backend::{set_pow_chain, PowChain};
/// use zkforge_field::bls12_381::Fp;
/// let x = Fp::from_u64(7).square();
/// set_pow_chain(PowChain::SlidingWindow);
/// let window = x.sqrt().unwrap();
/// set_pow_chain(PowChain::Auto);
/// assert_eq!(x.sqrt().unwrap(), window);
/// ```
pub fn set_pow_chain(c: PowChain) {
    POW_CHAIN.store(
        match c {
            PowChain::Auto => 0,
            PowChain::Stored => 1,
            PowChain::SlidingWindow => 2,
        },
        Ordering::Relaxed,
    );
}

/// True when fixed exponentiations take the stored chains (see [`set_pow_chain`]).
#[inline(always)]
pub(crate) fn pow_chain_stored() -> bool {
    POW_CHAIN.load(Ordering::Relaxed) != 2
}

/// How the constant-time inversion ([`crate::Fp::invert`]) runs its hddivsteps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InverseSteps {
    /// The measured best: [`InverseSteps::PackedCmov`] on x86-64 (0.73-0.74x the time of
    /// [`InverseSteps::Packed`] on Zen 5, BENCHMARKS.md), [`InverseSteps::Packed`] elsewhere.
    Auto,
    /// Batches of 62 steps on four matrix words (27 word operations a step).
    Wide,
    /// Batches of 60 steps as two runs of 30 with each matrix row packed into one word
    /// (Pornin's packed update factors, ePrint 2020/972): 20 word operations a step, and the two
    /// runs' matrices multiplied before the one big update per batch.
    Packed,
    /// [`InverseSteps::Packed`] with each run of steps in x86-64 assembly that selects with
    /// conditional moves instead of masks (a shorter dependency chain per step). On other
    /// architectures this is [`InverseSteps::Packed`].
    PackedCmov,
}

/// How the constant-time inversion runs its steps (the value behind [`set_inverse_steps`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum StepForm {
    Wide,
    Packed,
    PackedCmov,
}

// 0 = auto, 1 = wide, 2 = packed, 3 = packed with cmov
static INVERSE_STEPS: AtomicU8 = AtomicU8::new(0);

/// Choose how constant-time inversions run their steps for the whole process. Every value gives
/// the same results (tested); only speed differs. The step count is fixed by the modulus size
/// in every form, so each stays constant time.
///
/// # Example
/// ```
/// use zkforge_field::backend::{set_inverse_steps, InverseSteps};
/// use zkforge_field::bls12_381::Fp;
/// let x = Fp::from_u64(12345);
/// set_inverse_steps(InverseSteps::Wide);
/// let wide = x.invert().unwrap();
/// set_inverse_steps(InverseSteps::Auto);
/// assert_eq!(x.invert().unwrap(), wide);
/// ```
pub fn set_inverse_steps(s: InverseSteps) {
    INVERSE_STEPS.store(
        match s {
            InverseSteps::Auto => 0,
            InverseSteps::Wide => 1,
            InverseSteps::Packed => 2,
            InverseSteps::PackedCmov => 3,
        },
        Ordering::Relaxed,
    );
}

/// The step form constant-time inversions use now (see [`set_inverse_steps`]).
#[inline(always)]
pub(crate) fn inverse_step_form() -> StepForm {
    match INVERSE_STEPS.load(Ordering::Relaxed) {
        1 => StepForm::Wide,
        2 => StepForm::Packed,
        3 => StepForm::PackedCmov,
        _ if cfg!(target_arch = "x86_64") => StepForm::PackedCmov,
        _ => StepForm::Packed,
    }
}

/// How runs of cyclotomic squarings are computed ([`crate::tower::Fp12::cyclotomic_square_n`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CyclotomicSquaring {
    /// The measured best: Karabina's compressed squarings for runs of at least
    /// [`KARABINA_MIN_RUN`] squarings (one decompression, with an Fp2 inversion, pays for
    /// itself there), on the IFMA lanes where [`CyclotomicSquaring::KarabinaIfma`] applies
    /// (from [`KARABINA_IFMA_MIN_RUN`] squarings), Granger-Scott below.
    Auto,
    /// Granger-Scott for every squaring (ePrint 2009/565).
    GrangerScott,
    /// Karabina's compressed squarings for every run of two or more, scalar (the reference).
    Karabina,
    /// Karabina's compressed squarings for every run of two or more, the six Fp2 squarings of
    /// each on eight AVX-512 IFMA lanes (BLS12-381's tower on CPUs with AVX-512 IFMA, std
    /// builds; the scalar compressed squarings elsewhere).
    KarabinaIfma,
}

/// The shortest run of squarings that `CyclotomicSquaring::Auto` compresses (measured with
/// `examples/karabina.rs` in zkforge-field on Zen 5: on BLS12-381 one decompression, with its
/// Fp2 inversion, costs what about eleven compressed squarings save, so runs of 12 break even;
/// on BN254 a compressed squaring saves nothing measurable, so only the long runs of BLS12-381's
/// |x| use it in practice).
pub const KARABINA_MIN_RUN: u32 = 12;

/// The shortest run that `CyclotomicSquaring::Auto` compresses when the squarings run on IFMA
/// lanes (measured with `examples/karabina.rs`, Zen 5, BLS12-381: a lane squaring costs 226 ns
/// against 690 ns for Granger-Scott, the conversions and the decompression 2.7 us, so runs of 6
/// break even).
pub const KARABINA_IFMA_MIN_RUN: u32 = 6;

// 0 = auto, 1 = Granger-Scott, 2 = Karabina, 3 = Karabina on IFMA lanes
static CYCLO: AtomicU8 = AtomicU8::new(0);

/// Choose how runs of cyclotomic squarings run for the whole process. Every value gives the
/// same results (tested); only speed differs.
///
/// # Example
/// ```
/// use zkforge_field::backend::{set_cyclotomic_squaring, CyclotomicSquaring};
/// set_cyclotomic_squaring(CyclotomicSquaring::GrangerScott);
/// set_cyclotomic_squaring(CyclotomicSquaring::Auto);
/// ```
pub fn set_cyclotomic_squaring(c: CyclotomicSquaring) {
    CYCLO.store(
        match c {
            CyclotomicSquaring::Auto => 0,
            CyclotomicSquaring::GrangerScott => 1,
            CyclotomicSquaring::Karabina => 2,
            CyclotomicSquaring::KarabinaIfma => 3,
        },
        Ordering::Relaxed,
    );
}

/// The shortest run of `k` squarings that goes through Karabina's compressed form under the
/// current [`set_cyclotomic_squaring`] choice (`u32::MAX`: never).
#[inline(always)]
pub fn karabina_min_run() -> u32 {
    match CYCLO.load(Ordering::Relaxed) {
        0 => KARABINA_MIN_RUN,
        1 => u32::MAX,
        _ => 2,
    }
}

/// Whether the compressed squarings may run on IFMA lanes under the current
/// [`set_cyclotomic_squaring`] choice (`Auto` or `KarabinaIfma`), and the shortest run that
/// then compresses.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn karabina_lanes() -> Option<u32> {
    match CYCLO.load(Ordering::Relaxed) {
        0 => Some(KARABINA_IFMA_MIN_RUN),
        3 => Some(2),
        _ => None,
    }
}

/// How the assembly loop of a run of squarings ([`mont_square_n_lazy`]: square roots,
/// Legendre symbols, Tonelli-Shanks) starts each round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquaringRuns {
    /// The measured best per field: [`SquaringRuns::RegisterHead`] for 6 limbs (BLS12-381:
    /// a squaring in a run 0.983-0.987 of [`SquaringRuns::Memory`]'s time, the square root
    /// 0.976-0.986), [`SquaringRuns::Memory`] for 4 (BN254: the run 0.983 but the square root
    /// 1.002-1.014, its runs being short; `examples/sqrn_probe.rs`, Zen 4, 2026-12-06).
    Auto,
    /// Each round reloads its input words from the words the previous round just stored, so
    /// its first product waits on store-to-load forwarding.
    Memory,
    /// The next round's first word stays in a register (rdx), so the round's first product
    /// waits on no forwarding; the other words are still reloaded, later in the round.
    RegisterHead,
}

// 0 = auto, 1 = memory, 2 = register head
static SQUARING_RUNS: AtomicU8 = AtomicU8::new(0);

/// Choose how runs of squarings start their rounds for the whole process. Every value gives
/// the same results (tested); only speed differs.
///
/// # Example
/// ```
/// use zkforge_field::backend::{set_squaring_runs, SquaringRuns};
/// use zkforge_field::bls12_381::Fp;
/// let x = Fp::from_u64(7).square();
/// set_squaring_runs(SquaringRuns::Memory);
/// let memory = x.sqrt().unwrap();
/// set_squaring_runs(SquaringRuns::Auto);
/// assert_eq!(x.sqrt().unwrap(), memory);
/// ```
pub fn set_squaring_runs(r: SquaringRuns) {
    SQUARING_RUNS.store(
        match r {
            SquaringRuns::Auto => 0,
            SquaringRuns::Memory => 1,
            SquaringRuns::RegisterHead => 2,
        },
        Ordering::Relaxed,
    );
}

/// True when runs of squarings of an `n_limbs`-limb field carry each round's first word in a
/// register (see [`set_squaring_runs`]).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
pub(crate) fn squaring_runs_head(n_limbs: usize) -> bool {
    match SQUARING_RUNS.load(Ordering::Relaxed) {
        0 => n_limbs == 6,
        1 => false,
        _ => true,
    }
}

/// r <- r^(2^k) in Montgomery form, in place, for chains of squarings (sqrt, the Legendre
/// symbol): with MULX/ADX one assembly loop whose rounds skip the final subtraction, so `r`
/// may come back anywhere in [0, 2p) (fields with two spare top bits only; the caller's next
/// Montgomery product reduces it fully); elsewhere k fully reduced squarings. `r` must be
/// below 2p on entry.
#[inline(always)]
pub fn mont_square_n_lazy<const N: usize>(r: &mut [u64; N], k: u32, p: &[u64; 8]) {
    if k == 0 {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    {
        if (N == 4 || N == 6) && p[N - 1] >> 62 == 0 && selected() == 2 {
            // SAFETY: BMI2 and ADX were detected (`selected() == 2`); `r` holds N words below 2p
            // (the caller's contract), the modulus has two spare bits (checked), k >= 1.
            unsafe {
                match (N == 4, squaring_runs_head(N)) {
                    (true, true) => x86_64_adx::sqr_n_head_4(r.as_mut_ptr(), k as usize, p),
                    (true, false) => x86_64_adx::sqr_n_4(r.as_mut_ptr(), k as usize, p),
                    (false, true) => x86_64_adx::sqr_n_head_6(r.as_mut_ptr(), k as usize, p),
                    (false, false) => x86_64_adx::sqr_n_6(r.as_mut_ptr(), k as usize, p),
                }
            }
            return;
        }
    }
    *r = portable::reduce_once_ct(*r, p);
    for _ in 0..k {
        *r = mont_square(r, p);
    }
}

/// [`mont_square_n_lazy`] on two values at once, r[0] and r[1] each squared k times, the two
/// chains interleaved round by round in one assembly loop with MULX/ADX (the out-of-order core
/// overlaps them); elsewhere the two runs one after the other. Same bounds as
/// [`mont_square_n_lazy`]: each value below 2p on entry and on return.
#[inline(always)]
pub fn mont_square_n_lazy_x2<const N: usize>(r: &mut [[u64; N]; 2], k: u32, p: &[u64; 8]) {
    if k == 0 {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    {
        if (N == 4 || N == 6) && p[N - 1] >> 62 == 0 && selected() == 2 {
            // SAFETY: BMI2 and ADX were detected (`selected() == 2`); `r` is 2N contiguous
            // words (an array of arrays), each half below 2p (the caller's contract), the
            // modulus has two spare bits (checked), k >= 1.
            unsafe {
                let pr = r.as_mut_ptr() as *mut u64;
                if N == 4 {
                    x86_64_adx::sqr_n_x2_4(pr, k as usize, p);
                } else {
                    x86_64_adx::sqr_n_x2_6(pr, k as usize, p);
                }
            }
            return;
        }
    }
    let [a, b] = r;
    mont_square_n_lazy(a, k, p);
    mont_square_n_lazy(b, k, p);
}

/// out = a * a exactly: the dedicated squaring kernel with MULX/ADX, the portable product
/// otherwise.
#[inline(always)]
pub fn sqr_wide<const N: usize>(out: &mut Wide<N>, a: &[u64; N]) {
    #[cfg(target_arch = "x86_64")]
    {
        if (N == 4 || N == 6) && selected() == 2 {
            let po = out as *mut Wide<N> as *mut u64;
            // SAFETY: BMI2 and ADX were detected (`selected() == 2`); `a` holds N words and
            // `out` (repr(C), two [u64; N]) 2N contiguous words that do not alias it (an
            // exclusive borrow).
            unsafe {
                if N == 4 {
                    x86_64_adx::sqr_wide_4(po, a.as_ptr());
                } else {
                    x86_64_adx::sqr_wide_6(po, a.as_ptr());
                }
            }
            return;
        }
    }
    mul_wide_portable(out, a, a);
}

/// True when the tower of an `n_limbs`-limb field reduces lazily (see [`set_tower`]).
#[inline(always)]
pub fn lazy_tower_selected(n_limbs: usize) -> bool {
    match TOWER.load(Ordering::Relaxed) {
        0 => (n_limbs == 6 || (n_limbs == 4 && xi_quotient())) && adx_selected(),
        1 => true,
        _ => false,
    }
}

/// True when the MULX/ADX assembly backend is in use.
pub fn adx_active() -> bool {
    selected() == 2
}

fn detect() -> u8 {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    {
        if std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("adx") {
            return 2;
        }
    }
    #[cfg(all(target_arch = "x86_64", not(feature = "std")))]
    {
        // no_std: CPUID leaf 7, sub-leaf 0, EBX bit 8 = BMI2 (MULX), bit 19 = ADX
        // SAFETY: CPUID exists on every x86-64 CPU; leaf 7 is valid when the maximum basic
        // leaf (leaf 0's EAX) is at least 7, which is checked first.
        #[allow(unused_unsafe)]
        let ebx = unsafe {
            if core::arch::x86_64::__cpuid(0).eax >= 7 {
                core::arch::x86_64::__cpuid_count(7, 0).ebx
            } else {
                0
            }
        };
        if ebx & (1 << 8) != 0 && ebx & (1 << 19) != 0 {
            return 2;
        }
    }
    1
}

#[inline(always)]
fn selected() -> u8 {
    // A build told at compile time that the CPU has BMI2 and ADX (`-C target-feature=+bmi2,+adx`,
    // or a `target-cpu` that has them) cannot run on a CPU without them anyway: the choice is
    // fixed, as in blst's default build, and no kernel call pays a load and a branch for it
    // (measured: Fp12 product -5.5 %, square -2.5 %; BENCHMARKS.md, issue 19 seventh part).
    if STATIC_ADX {
        return 2;
    }
    let v = SELECTED.load(Ordering::Relaxed);
    if v != 0 {
        return v;
    }
    init_selected()
}

#[cold]
#[inline(never)]
fn init_selected() -> u8 {
    let d = detect();
    SELECTED.store(d, Ordering::Relaxed);
    d
}

/// The Fp2 product (a0 + a1 u)(b0 + b1 u), u^2 = -1, as two lazy sums of products:
/// c0 = a0 b0 + a1 (-b1), c1 = a0 b1 + a1 b0. The operands are laid out once so the ADX kernel
/// reads both of its 2N-word inputs in place: `a` = [a0, a1] and `b` = [b1, b0, -b1], so
/// (b0, -b1) = b[1..3] and (b1, b0) = b[0..2] (5N words copied per Fp2 product, not 8N).
/// Fully reduced, canonical inputs.
#[inline(always)]
pub(crate) fn mont_fp2_mul<const N: usize>(a: &[[u64; N]; 2], b: &[[u64; N]; 3], p: &[u64; 8]) -> [[u64; N]; 2] {
    #[cfg(target_arch = "x86_64")]
    {
        if (N == 4 || N == 6) && selected() == 2 {
            let pa = a.as_ptr() as *const u64;
            let pb = b.as_ptr() as *const u64;
            let mut r = [[0u64; N]; 2];
            // SAFETY: `selected() == 2` only after BMI2 and ADX were detected on this CPU; an
            // array of arrays is contiguous, so `pa` points to 2N words and `pb` (and `pb + N`)
            // to at least 2N, exactly what the N-limb routine reads.
            unsafe {
                if N == 4 {
                    let (c0, c1) = (x86_64_adx::mont_sum2_4(pa, pb.add(N), p), x86_64_adx::mont_sum2_4(pa, pb, p));
                    r[0].copy_from_slice(&c0[..N]);
                    r[1].copy_from_slice(&c1[..N]);
                } else {
                    let (c0, c1) = (x86_64_adx::mont_sum2_6(pa, pb.add(N), p), x86_64_adx::mont_sum2_6(pa, pb, p));
                    r[0].copy_from_slice(&c0[..N]);
                    r[1].copy_from_slice(&c1[..N]);
                }
            }
            return [portable::reduce_once_ct(r[0], p), portable::reduce_once_ct(r[1], p)];
        }
    }
    [mont_sum2(&a[0], &a[1], &b[1], &b[2], p), mont_sum2(&a[0], &a[1], &b[0], &b[1], p)]
}

/// (a0 b0 + a1 b1) R^-1 mod p, fully reduced, for canonical inputs: with ADX one interleaved
/// pass that adds both products in each row before one reduction (3N^2 multiplications
/// instead of 4N^2); elsewhere two Montgomery products and an addition.
#[inline(always)]
pub(crate) fn mont_sum2<const N: usize>(a0: &[u64; N], a1: &[u64; N], b0: &[u64; N], b1: &[u64; N], p: &[u64; 8]) -> [u64; N] {
    #[cfg(target_arch = "x86_64")]
    {
        if (N == 4 || N == 6) && selected() == 2 {
            let mut a = [0u64; 12];
            let mut b = [0u64; 12];
            a[..N].copy_from_slice(a0);
            a[N..2 * N].copy_from_slice(a1);
            b[..N].copy_from_slice(b0);
            b[N..2 * N].copy_from_slice(b1);
            let mut r = [0u64; N];
            // SAFETY: `selected() == 2` only after BMI2 and ADX were detected on this CPU; `a`
            // and `b` hold 2N initialised words, exactly what the N-limb routine reads.
            unsafe {
                if N == 4 {
                    let s = x86_64_adx::mont_sum2_4(a.as_ptr(), b.as_ptr(), p);
                    r.copy_from_slice(&s[..N]);
                } else {
                    let s = x86_64_adx::mont_sum2_6(a.as_ptr(), b.as_ptr(), p);
                    r.copy_from_slice(&s[..N]);
                }
            }
            return portable::reduce_once_ct(r, p);
        }
    }
    let x = portable::reduce_once_ct(portable::mont_mul(a0, b0, p), p);
    let y = portable::reduce_once_ct(portable::mont_mul(a1, b1, p), p);
    let (s, _) = crate::limbs::add_rt(&x, &y);
    portable::reduce_once_ct(s, p)
}

/// out = the exact product a * b (see [`wide`]).
#[inline(always)]
pub fn mul_wide<const N: usize>(out: &mut Wide<N>, a: &[u64; N], b: &[u64; N]) {
    #[cfg(target_arch = "x86_64")]
    {
        if (N == 4 || N == 6) && selected() == 2 {
            let po = out as *mut Wide<N> as *mut u64;
            // SAFETY: BMI2 and ADX were detected (`selected() == 2`); `a` and `b` hold N words
            // and `out` (repr(C), two [u64; N]) 2N contiguous words that alias neither (an
            // exclusive borrow).
            unsafe {
                if N == 4 {
                    x86_64_adx::mul_wide_4(po, a.as_ptr(), b.as_ptr());
                } else {
                    x86_64_adx::mul_wide_6(po, a.as_ptr(), b.as_ptr());
                }
            }
            return;
        }
    }
    mul_wide_portable(out, a, b);
}

/// The portable path of [`mul_wide`], kept out of line: the tower inlines the wide kernels
/// dozens of times per Fp12 product, and an inlined copy of the fallback beside each
/// assembly block doubled the hot functions' code (64 KB for the wide Fp6 product, 32 KB
/// without). The time moved within noise (BENCHMARKS.md, issue 19 sixth part).
#[cold]
#[inline(never)]
fn mul_wide_portable<const N: usize>(out: &mut Wide<N>, a: &[u64; N], b: &[u64; N]) {
    *out = wide::mul_wide(a, b);
}

/// The portable path of [`redc`], out of line (see [`mul_wide_portable`]).
#[cold]
#[inline(never)]
fn redc_portable<const N: usize>(t: &Wide<N>, p: &[u64; 8]) -> [u64; N] {
    wide::redc(t, p)
}

/// t R^-1 mod p, fully reduced, for a [`Wide`] t < p R.
#[inline(always)]
pub fn redc<const N: usize>(t: &Wide<N>, p: &[u64; 8]) -> [u64; N] {
    #[cfg(target_arch = "x86_64")]
    {
        if (N == 4 || N == 6) && selected() == 2 {
            let pt = t as *const Wide<N> as *const u64;
            let mut r = [0u64; N];
            // SAFETY: BMI2 and ADX were detected; `t` is 2N contiguous words (repr(C)).
            unsafe {
                if N == 4 {
                    r.copy_from_slice(&x86_64_adx::redc_4(pt, p)[..N]);
                } else {
                    r.copy_from_slice(&x86_64_adx::redc_6(pt, p)[..N]);
                }
            }
            return r;
        }
    }
    redc_portable(t, p)
}

/// Which 2N-word addition or subtraction [`wide_op`] runs.
#[derive(Clone, Copy)]
enum WideOp {
    /// a + b modulo p R.
    Add,
    /// a - b modulo p R.
    Sub,
    /// The plain difference a - b, a >= b.
    SubNoReduce,
}

/// out = a op b on 2N-word values through the x86-64 kernel (which allows `out` to alias `a`
/// or `b`), or the portable reference.
///
/// # Safety
/// `out`, `a` and `b` must each point to a valid `Wide<N>`; `out` must be writable and no
/// reference to it may be live except the one it came from.
#[inline(always)]
unsafe fn wide_op<const N: usize>(op: WideOp, out: *mut Wide<N>, a: *const Wide<N>, b: *const Wide<N>, p: &[u64; 8]) {
    #[cfg(target_arch = "x86_64")]
    {
        if (N == 4 || N == 6) && selected() == 2 {
            let (po, pa, pb) = (out as *mut u64, a as *const u64, b as *const u64);
            // SAFETY: the caller's contract: 2N words behind each pointer (repr(C)); the
            // kernels read each word before writing it, so aliasing is fine. BMI2 was detected
            // (MULX in the correction).
            unsafe {
                match (op, N) {
                    (WideOp::Add, 4) => x86_64_adx::dbl_add_4(po, pa, pb, p),
                    (WideOp::Add, _) => x86_64_adx::dbl_add_6(po, pa, pb, p),
                    (WideOp::Sub, 4) => x86_64_adx::dbl_sub_4(po, pa, pb, p),
                    (WideOp::Sub, _) => x86_64_adx::dbl_sub_6(po, pa, pb, p),
                    (WideOp::SubNoReduce, 4) => x86_64_adx::wide_sub_4(po, pa, pb),
                    (WideOp::SubNoReduce, _) => x86_64_adx::wide_sub_6(po, pa, pb),
                }
            }
            return;
        }
    }
    // SAFETY: the caller's contract (valid, and `out` not otherwise borrowed).
    unsafe { wide_op_portable(op, out, a, b, p) }
}

/// The portable path of [`wide_op`], out of line (see [`mul_wide_portable`]).
///
/// # Safety
/// As for [`wide_op`].
#[cold]
#[inline(never)]
unsafe fn wide_op_portable<const N: usize>(op: WideOp, out: *mut Wide<N>, a: *const Wide<N>, b: *const Wide<N>, p: &[u64; 8]) {
    // SAFETY: the caller's contract (valid, and `out` not otherwise borrowed).
    unsafe {
        let (a, b) = (&*a, &*b);
        let r = match op {
            WideOp::Add => wide::dbl_add(a, b, p),
            WideOp::Sub => wide::dbl_sub(a, b, p),
            WideOp::SubNoReduce => wide::wide_sub(a, b),
        };
        *out = r;
    }
}

/// out = a + b modulo p R, for [`Wide`] a, b < p R.
#[inline(always)]
pub fn dbl_add<const N: usize>(out: &mut Wide<N>, a: &Wide<N>, b: &Wide<N>, p: &[u64; 8]) {
    // SAFETY: three valid references; `out` is exclusively borrowed.
    unsafe { wide_op(WideOp::Add, out, a, b, p) }
}

/// x = x + b modulo p R, in place.
#[inline(always)]
pub fn dbl_add_assign<const N: usize>(x: &mut Wide<N>, b: &Wide<N>, p: &[u64; 8]) {
    let px = x as *mut Wide<N>;
    // SAFETY: `px` comes from the exclusive borrow `x`, used only through these pointers.
    unsafe { wide_op(WideOp::Add, px, px, b, p) }
}

/// x = 2x modulo p R, in place.
#[inline(always)]
pub fn dbl_double_assign<const N: usize>(x: &mut Wide<N>, p: &[u64; 8]) {
    let px = x as *mut Wide<N>;
    // SAFETY: `px` comes from the exclusive borrow `x`, used only through these pointers.
    unsafe { wide_op(WideOp::Add, px, px, px, p) }
}

/// out = a - b modulo p R, for [`Wide`] a, b < p R.
#[inline(always)]
pub fn dbl_sub<const N: usize>(out: &mut Wide<N>, a: &Wide<N>, b: &Wide<N>, p: &[u64; 8]) {
    // SAFETY: three valid references; `out` is exclusively borrowed.
    unsafe { wide_op(WideOp::Sub, out, a, b, p) }
}

/// x = x - b modulo p R, in place.
#[inline(always)]
pub fn dbl_sub_assign<const N: usize>(x: &mut Wide<N>, b: &Wide<N>, p: &[u64; 8]) {
    let px = x as *mut Wide<N>;
    // SAFETY: `px` comes from the exclusive borrow `x`, used only through these pointers.
    unsafe { wide_op(WideOp::Sub, px, px, b, p) }
}

/// x = x - b, the plain difference, in place, for x >= b.
#[inline(always)]
pub fn wide_sub_assign<const N: usize>(x: &mut Wide<N>, b: &Wide<N>) {
    let px = x as *mut Wide<N>;
    // SAFETY: `px` comes from the exclusive borrow `x`, used only through these pointers.
    unsafe { wide_op(WideOp::SubNoReduce, px, px, b, &[0; 8]) }
}

/// True when the MULX/ADX kernels are in use.
#[inline(always)]
pub(crate) fn adx_selected() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        selected() == 2
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Montgomery product a*b*R^-1 mod p, fully reduced to [0, p).
/// `p` holds the modulus limbs followed by -p^-1 mod 2^64 at index N.
#[inline(always)]
pub(crate) fn mont_mul<const N: usize>(a: &[u64; N], b: &[u64; N], p: &[u64; 8]) -> [u64; N] {
    #[cfg(target_arch = "x86_64")]
    {
        if (N == 4 || N == 6) && selected() == 2 {
            // SAFETY: `selected() == 2` only after BMI2 and ADX were detected on this CPU, and
            // `a`, `b` hold N limbs, exactly what the N-limb routine reads.
            let s = unsafe {
                if N == 4 {
                    x86_64_adx::mont_mul_4(a.as_ptr(), b.as_ptr(), p)
                } else {
                    x86_64_adx::mont_mul_6(a.as_ptr(), b.as_ptr(), p)
                }
            };
            let mut r = [0u64; N];
            for i in 0..N {
                r[i] = s[i];
            }
            return r;
        }
    }
    portable::reduce_once_ct(portable::mont_mul(a, b, p), p)
}

// 0 = not read yet, 1 = allowed, 2 = refused
static IFMA_GATE: AtomicU8 = AtomicU8::new(0);

/// Allow or refuse the AVX-512 IFMA lane kernels of the field, curve, MSM, pairing and KZG code
/// for the whole process (every lane path has a 64-bit path beside it that gives the same
/// answers). Refused, an AVX-512 machine runs what an AVX2-only machine runs: to measure that
/// path against a peer where it runs, or to test it. Work already prepared in a lane form (an
/// MSM's prepared bases) keeps it. The default is allowed unless the environment variable
/// `ZKFORGE_NO_IFMA` is set to a value other than empty or `0` when the gate is first read.
/// Without effect on a CPU without IFMA, where the lanes never run.
///
/// ```
/// use zkforge_field::backend::{ifma_allowed, set_ifma_allowed};
/// set_ifma_allowed(false);
/// assert!(!ifma_allowed());
/// set_ifma_allowed(true);
/// assert!(ifma_allowed());
/// ```
pub fn set_ifma_allowed(allowed: bool) {
    IFMA_GATE.store(if allowed { 1 } else { 2 }, Ordering::Relaxed);
}

/// Whether the IFMA lane kernels may run ([`set_ifma_allowed`], `ZKFORGE_NO_IFMA`); the CPU
/// must have them too.
pub fn ifma_allowed() -> bool {
    match IFMA_GATE.load(Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => {
            let allowed = !env_refuses_ifma();
            // a concurrent set_ifma_allowed wins over the environment
            let _ = IFMA_GATE.compare_exchange(0, if allowed { 1 } else { 2 }, Ordering::Relaxed, Ordering::Relaxed);
            IFMA_GATE.load(Ordering::Relaxed) == 1
        }
    }
}

#[cfg(feature = "std")]
fn env_refuses_ifma() -> bool {
    std::env::var_os("ZKFORGE_NO_IFMA").is_some_and(|v| !v.is_empty() && v != "0")
}

#[cfg(not(feature = "std"))]
fn env_refuses_ifma() -> bool {
    false
}

/// True on a CPU that runs AVX-512 on 256-bit units, issuing each 512-bit instruction as two
/// halves: AMD family 19h (Zen 4), read once from CPUID (vendor "AuthenticAMD", family 0x19
/// with AVX-512F). The IFMA lanes still pay there, but less than on Zen 5 or Intel's server
/// cores, so a lane kernel whose gain is slim at some size starts later on such a CPU
/// (`zkforge_pairing::config::lane_steps_min_pairs`). False elsewhere and off x86-64.
pub fn avx512_half_width() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // 0 = not read yet, 1 = false, 2 = true
        static HALF: AtomicU8 = AtomicU8::new(0);
        match HALF.load(Ordering::Relaxed) {
            1 => false,
            2 => true,
            _ => {
                let v = amd_family_19h_with_avx512();
                HALF.store(if v { 2 } else { 1 }, Ordering::Relaxed);
                v
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `half` on a CPU with half-width AVX-512 units ([`avx512_half_width`]), `full` elsewhere: how
/// a lane kernel's measured threshold is chosen for the CPU it runs on.
///
/// ```
/// use zkforge_field::backend::{avx512_half_width, per_avx512_width};
/// assert_eq!(per_avx512_width(4, 5), if avx512_half_width() { 5 } else { 4 });
/// ```
pub fn per_avx512_width<T>(full: T, half: T) -> T {
    if avx512_half_width() {
        half
    } else {
        full
    }
}

/// CPUID: vendor AuthenticAMD, display family 0x19, and AVX-512F (leaf 7, EBX bit 16).
#[cfg(target_arch = "x86_64")]
fn amd_family_19h_with_avx512() -> bool {
    use core::arch::x86_64::__cpuid;
    #[allow(unused_unsafe)]
    // SAFETY: CPUID exists on every x86-64 CPU; leaf 0 gives the highest standard leaf, and
    // leaves 1 and 7 are read only when it reaches them.
    let (l0, l1, l7) = unsafe {
        let l0 = __cpuid(0);
        if l0.eax < 7 {
            return false;
        }
        (l0, __cpuid(1), core::arch::x86_64::__cpuid_count(7, 0))
    };
    // "AuthenticAMD" in EBX, EDX, ECX
    let amd = l0.ebx == 0x6874_7541 && l0.edx == 0x6974_6e65 && l0.ecx == 0x444d_4163;
    let base = (l1.eax >> 8) & 0xf;
    let family = if base == 0xf { base + ((l1.eax >> 20) & 0xff) } else { base };
    amd && family == 0x19 && (l7.ebx >> 16) & 1 == 1
}

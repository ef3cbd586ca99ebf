//! The Poseidon2 permutation over KoalaBear, widths 16 and 24, exactly as Plonky3's
//! `default_koalabear_poseidon2_{16,24}` (Grassi, Khovratovich, Schofnegger, "Poseidon2: A
//! Faster Version of the Poseidon Hash Function", ePrint 2023/323):
//! - S-box x^3; 8 external rounds (4 before, 4 after) and 20 (width 16) or 23 (width 24)
//!   internal rounds;
//! - external matrix: the 4x4 block M4 = `[[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]]` on every
//!   chunk of four, then each lane adds the sum of its column across chunks (circ(2 M4, M4,
//!   ...)); applied once before the first round as well;
//! - internal matrix 1 1^T + diag(V): x_i <- sum(x) + V_i x_i, with Plonky3's vectors
//!   V16 = [-2, 1, 2, 1/2, 3, 4, -1/2, -3, -4, 1/2^8, 1/8, 1/2^24, -1/2^8, -1/8, -1/16,
//!   -1/2^24] and V24 = [-2, 1, 2, 1/2, 3, 4, -1/2, -3, -4, 1/2^8, 1/4, 1/8, 1/16, 1/32,
//!   1/64, 1/2^24, -1/2^8, -1/8, -1/16, -1/32, -1/64, -1/2^7, -1/2^9, -1/2^24];
//! - round constants from the Grain LFSR (`poseidon2_consts.rs`, generated).
//!
//! Cost per permutation: width 16: 8 * 16 + 20 = 148 cubes (296 multiplications), 20
//! internal diagonal products; width 24: 8 * 24 + 23 = 215 cubes.

use crate::koalabear::Kb;
use crate::poseidon2_consts as rc;

/// The external (full-round) linear layer: M4 on each chunk, then column sums added. Sums
/// are taken lazily on the u64 Montgomery representatives (each output is at most
/// 7 * (W/4 + 1) inputs, far below 2^62) and reduced once per lane.
#[inline(always)]
fn external_linear<const W: usize>(s: &mut [Kb; W]) {
    let mut t = [0u64; W];
    for (c, o) in s.chunks_exact(4).zip(t.chunks_exact_mut(4)) {
        let (x0, x1, x2, x3) = (c[0].raw64(), c[1].raw64(), c[2].raw64(), c[3].raw64());
        let t01 = x0 + x1;
        let t23 = x2 + x3;
        let t0123 = t01 + t23;
        let t01123 = t0123 + x1;
        let t01233 = t0123 + x3;
        o[3] = t01233 + 2 * x0; // 3 x0 + x1 + x2 + 2 x3
        o[1] = t01123 + 2 * x2; // x0 + 2 x1 + 3 x2 + x3
        o[0] = t01123 + t01; // 2 x0 + 3 x1 + x2 + x3
        o[2] = t01233 + t23; // x0 + x1 + 2 x2 + 3 x3
    }
    let mut sums = [0u64; 4];
    for (i, x) in t.iter().enumerate() {
        sums[i % 4] += *x;
    }
    for (i, (x, y)) in s.iter_mut().zip(&t).enumerate() {
        *x = Kb::from_lazy(*y + sums[i % 4]);
    }
}

/// One entry of the internal diagonal V as the cheap operation it is: small multiples by
/// additions, and 1/2^k through p = 127 2^24 + 1: writing x = h 2^k + l (l < 2^k),
/// x / 2^k = h - 127 2^(24-k) l (mod p), where 127 2^(24-k) l = (l << (31-k)) - (l << (24-k))
/// is below p. `neg` subtracts the product from the sum instead of adding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiagOp {
    /// 1, 2, 3 or 4 times x; or 0 for the power-of-two division below.
    pub(crate) mul: u32,
    /// k of x / 2^k when `mul` is 0.
    pub(crate) shift: u32,
    /// Subtract V x from the sum instead of adding it.
    pub(crate) neg: bool,
}

const fn m(mul: u32, neg: bool) -> DiagOp {
    DiagOp { mul, shift: 0, neg }
}
const fn d(shift: u32, neg: bool) -> DiagOp {
    DiagOp { mul: 0, shift, neg }
}

/// V16 as operations (see [`Poseidon2::new_16`]).
pub(crate) const DIAG16: [DiagOp; 16] = [m(2, true), m(1, false), m(2, false), d(1, false), m(3, false), m(4, false), d(1, true), m(3, true), m(4, true), d(8, false), d(3, false), d(24, false), d(8, true), d(3, true), d(4, true), d(24, true)];
/// V24 as operations (see [`Poseidon2::new_24`]).
pub(crate) const DIAG24: [DiagOp; 24] = [
    m(2, true), m(1, false), m(2, false), d(1, false), m(3, false), m(4, false), d(1, true), m(3, true), m(4, true),
    d(8, false), d(2, false), d(3, false), d(4, false), d(5, false), d(6, false), d(24, false),
    d(8, true), d(3, true), d(4, true), d(5, true), d(6, true), d(7, true), d(9, true), d(24, true),
];

/// The operation table of width W.
#[inline(always)]
pub(crate) const fn diag_ops<const W: usize>() -> &'static [DiagOp] {
    if W == 16 {
        &DIAG16
    } else {
        &DIAG24
    }
}

/// x V for one diagonal entry, without the sign (Montgomery representatives < p in and out).
#[inline(always)]
fn diag_mag(op: DiagOp, x: u32) -> u32 {
    let add = |a: u32, b: u32| {
        let t = a + b;
        t.min(t.wrapping_sub(crate::koalabear::P))
    };
    match op.mul {
        1 => x,
        2 => add(x, x),
        3 => add(add(x, x), x),
        4 => {
            let y = add(x, x);
            add(y, y)
        }
        _ => {
            let k = op.shift;
            let h = x >> k;
            let l = x & ((1 << k) - 1);
            let c = (l << (31 - k)) - (l << (24 - k));
            sub_mod(h, c)
        }
    }
}

#[inline(always)]
fn sub_mod(a: u32, b: u32) -> u32 {
    let t = a.wrapping_sub(b);
    t.min(t.wrapping_add(crate::koalabear::P))
}

/// sum + V x for one entry (Montgomery representatives).
#[inline(always)]
fn diag(op: DiagOp, x: Kb, sum: Kb) -> Kb {
    let v = diag_mag(op, x.to_monty());
    let s = sum.to_monty();
    Kb::from_monty_unchecked(if op.neg {
        sub_mod(s, v)
    } else {
        (s + v).min((s + v).wrapping_sub(crate::koalabear::P))
    })
}

/// v_j <- sum + V_j v_j for every lane, written out entry by entry so that each entry's
/// operation is a compile-time constant (a loop over the table was left rolled, with branches).
#[inline(always)]
fn internal_diag<const W: usize>(v: &mut [Kb; W], sum: Kb) {
    let ops = diag_ops::<W>();
    v[0] = diag(ops[0], v[0], sum);
    v[1] = diag(ops[1], v[1], sum);
    v[2] = diag(ops[2], v[2], sum);
    v[3] = diag(ops[3], v[3], sum);
    v[4] = diag(ops[4], v[4], sum);
    v[5] = diag(ops[5], v[5], sum);
    v[6] = diag(ops[6], v[6], sum);
    v[7] = diag(ops[7], v[7], sum);
    v[8] = diag(ops[8], v[8], sum);
    v[9] = diag(ops[9], v[9], sum);
    v[10] = diag(ops[10], v[10], sum);
    v[11] = diag(ops[11], v[11], sum);
    v[12] = diag(ops[12], v[12], sum);
    v[13] = diag(ops[13], v[13], sum);
    v[14] = diag(ops[14], v[14], sum);
    v[15] = diag(ops[15], v[15], sum);
    if W == 24 {
        v[16] = diag(ops[16], v[16], sum);
        v[17] = diag(ops[17], v[17], sum);
        v[18] = diag(ops[18], v[18], sum);
        v[19] = diag(ops[19], v[19], sum);
        v[20] = diag(ops[20], v[20], sum);
        v[21] = diag(ops[21], v[21], sum);
        v[22] = diag(ops[22], v[22], sum);
        v[23] = diag(ops[23], v[23], sum);
    }
}

/// x^3 by [`Kb::cube_lazy_square`] or [`Kb::cube`].
#[inline(always)]
fn cube<const LAZY: bool>(x: Kb) -> Kb {
    if LAZY {
        x.cube_lazy_square()
    } else {
        x.cube()
    }
}

/// How the one-state permutation ([`Poseidon2::permute_mut`], [`Poseidon2::permute`]) runs
/// its rounds; the packed paths (`permute_x8`, `permute_x16`, `permute_columns_x16`) have their
/// own kernels. Every value gives the same permutation (tested); only speed differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScalarForm {
    /// Internal rounds with the next S-box input formed straight from the cube (lane 0
    /// becomes tail - c), off the wait for the reduced full sum.
    pub fused_internal: bool,
    /// The S-box's first Montgomery reduction left below 2p ([`Kb::cube`]'s square without
    /// its conditional subtraction).
    pub lazy_cube: bool,
    /// Where the state lives: in vector registers, lane j = element j, with lane 0's S-box of
    /// the internal rounds on a scalar register beside the other lanes (`single_avx512.rs`,
    /// `single_avx2.rs`); or in the compiled portable rounds that the two fields above shape
    /// (which the register forms do not read).
    pub registers: Registers,
}

/// Which registers hold the one state ([`ScalarForm::registers`]). A choice the CPU lacks
/// falls back to the next: AVX-512 to AVX2, AVX2 to the portable rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Registers {
    /// AVX-512 registers where the CPU has AVX-512F (width 16 in one, 24 in one and a half),
    /// else AVX2 registers where it has AVX2 (width 16 in two, 24 in three), else portable.
    Auto,
    /// AVX-512 registers (AVX2 without AVX-512F, portable without either).
    Avx512,
    /// AVX2 registers (portable without AVX2), also on an AVX-512 CPU.
    Avx2,
    /// The portable rounds, compiled with AVX2 where the CPU has it.
    Portable,
}

impl ScalarForm {
    /// The measured best (`examples/scalar_forms.rs`, Intel Emerald Rapids, latency chains,
    /// against the reference form): AVX-512 registers 0.56-0.57 (widths 16 and 24), AVX2
    /// registers 0.58 / 0.77; in the portable rounds (CPUs without AVX2) the lazy square
    /// 0.95-0.98, where the fused internal rounds added nothing (0.98-1.02 alone, 0.95-0.99
    /// with the lazy square), so they stay off.
    pub const DEFAULT: ScalarForm = ScalarForm { fused_internal: false, lazy_cube: true, registers: Registers::Auto };
    /// The reference formulas: each round as the specification writes it.
    pub const REFERENCE: ScalarForm = ScalarForm { fused_internal: false, lazy_cube: false, registers: Registers::Portable };
}

impl Default for ScalarForm {
    fn default() -> Self {
        Self::DEFAULT
    }
}

// bit 0: fused internal rounds, bit 1: lazy cube, bits 2-3: registers (auto, AVX-512, AVX2,
// portable); bit 7 set once chosen
static SCALAR_FORM: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// Choose the form of the one-state permutation for the whole process.
///
/// ```
/// use zkforge_hashsig::{koalabear::Kb, poseidon2::{set_scalar_form, Poseidon2, ScalarForm}};
/// let p = Poseidon2::new_16();
/// set_scalar_form(ScalarForm::REFERENCE);
/// let reference = p.permute([Kb::ONE; 16]);
/// set_scalar_form(ScalarForm::DEFAULT);
/// assert_eq!(p.permute([Kb::ONE; 16]), reference);
/// ```
pub fn set_scalar_form(f: ScalarForm) {
    let regs = match f.registers {
        Registers::Auto => 0u8,
        Registers::Avx512 => 1,
        Registers::Avx2 => 2,
        Registers::Portable => 3,
    };
    SCALAR_FORM.store(0x80 | f.fused_internal as u8 | (f.lazy_cube as u8) << 1 | regs << 2, core::sync::atomic::Ordering::Relaxed);
}

/// The current form of the one-state permutation ([`ScalarForm::DEFAULT`] until set).
#[inline(always)]
pub fn scalar_form() -> ScalarForm {
    let v = SCALAR_FORM.load(core::sync::atomic::Ordering::Relaxed);
    if v == 0 {
        ScalarForm::DEFAULT
    } else {
        let registers = match (v >> 2) & 3 {
            0 => Registers::Auto,
            1 => Registers::Avx512,
            2 => Registers::Avx2,
            _ => Registers::Portable,
        };
        ScalarForm { fused_internal: v & 1 != 0, lazy_cube: v & 2 != 0, registers }
    }
}

/// The form of the packed permutation (sixteen AVX-512 lanes; `tail_first` and
/// `sixteen_lanes` also shape the eight AVX2 lanes), for the whole process
/// ([`set_packed_form`]). Every value gives the same states; `DEFAULT` is the measured best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedForm {
    /// The S-box takes x + rc unreduced into signed products with one merge of the even and
    /// odd lanes, and products move lanes by shuffles rather than shifts (`packed_avx512.rs`);
    /// `false` is the previous form (x + rc reduced first, two full Montgomery products).
    pub signed_cube: bool,
    /// The internal diagonal's x / 2^k entries as -x / 2^k in [0, p] from a masked shift (127 l
    /// by `vpmaddwd` / `vpmaddubsw`), then a plain modular addition or subtraction; `false` is
    /// the previous form (a signed value in (-p, p) and a signed addition, 11 uops against 9).
    pub masked_diag: bool,
    /// The internal rounds in Plonky3's order, in the AVX-512 and the AVX2 lanes: per round
    /// first the work that does not wait for the round's S-box (the tail sum of the entries the
    /// last round left, as a tree; the diagonal parts that read only their entry), then the
    /// sum and the additions into it. `false`: one pass per round, each new entry added into
    /// the next round's tail sum as it is made (the same operations in another order).
    pub tail_first: bool,
    /// Sixteen states in AVX-512 registers where the CPU has AVX-512F and AVX-512BW; `false`
    /// takes the eight-lane AVX2 path twice there too (`permute_x16`, `permute_columns_x16`
    /// and the chain walks), to measure and test that path on an AVX-512 CPU.
    pub sixteen_lanes: bool,
}

impl PackedForm {
    /// The measured best (`examples/poseidon2_packed_peer.rs`, sixteen states): the signed
    /// cube, 0.85-0.87 (widths 16 and 24) of the previous form, and the masked diagonal,
    /// 0.92-0.99 of the signed one (Intel Emerald Rapids); the internal rounds tail first,
    /// 0.97-0.98 of one pass in the sixteen lanes and 0.93-0.97 in the eight (Zen 4; not yet
    /// measured on Intel, where Plonky3's packed permutation, which has this order, and ours
    /// in one pass were level).
    pub const DEFAULT: PackedForm = PackedForm { signed_cube: true, masked_diag: true, tail_first: true, sixteen_lanes: true };
}

impl Default for PackedForm {
    fn default() -> Self {
        Self::DEFAULT
    }
}

// bit 0: signed cube; bit 1: masked diagonal; bit 2: tail first; bit 3: sixteen lanes; bit 7
// set once chosen
static PACKED_FORM: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// Choose the form of the packed permutation for the whole process (the first two fields shape
/// the AVX-512 lanes only; the one-state paths are not affected).
///
/// ```
/// use zkforge_hashsig::{koalabear::Kb, poseidon2::{set_packed_form, PackedForm, Poseidon2}};
/// let p = Poseidon2::new_16();
/// let mut a = [[Kb::ONE; 16]; 16];
/// let mut b = a;
/// set_packed_form(PackedForm { signed_cube: false, masked_diag: false, tail_first: false, sixteen_lanes: true });
/// p.permute_x16(&mut a);
/// set_packed_form(PackedForm::DEFAULT);
/// p.permute_x16(&mut b);
/// assert_eq!(a, b);
/// ```
pub fn set_packed_form(f: PackedForm) {
    PACKED_FORM.store(0x80 | f.signed_cube as u8 | (f.masked_diag as u8) << 1 | (f.tail_first as u8) << 2 | (f.sixteen_lanes as u8) << 3, core::sync::atomic::Ordering::Relaxed);
}

/// The current form of the packed permutation ([`PackedForm::DEFAULT`] until set).
#[inline(always)]
pub fn packed_form() -> PackedForm {
    let v = PACKED_FORM.load(core::sync::atomic::Ordering::Relaxed);
    if v == 0 {
        PackedForm::DEFAULT
    } else {
        PackedForm { signed_cube: v & 1 != 0, masked_diag: v & 2 != 0, tail_first: v & 4 != 0, sixteen_lanes: v & 8 != 0 }
    }
}

/// The Poseidon2 permutation of width W (16 or 24) with its constants.
#[derive(Clone, Debug)]
pub struct Poseidon2<const W: usize> {
    initial: [[Kb; W]; 4],
    internal: Vec<Kb>,
    terminal: [[Kb; W]; 4],
    /// V as field elements: the permutation uses `DIAG16`/`DIAG24`; tests check they agree.
    #[cfg_attr(not(test), allow(dead_code))]
    diag: [Kb; W],
    /// V's Montgomery representatives with lane 0 set to 0, for the register forms' lane-wise
    /// product (lane 0's update is done apart there).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    diag_lanes: [u32; W],
    /// The round constants as signed Montgomery representatives minus p, in [-p, 0), for the
    /// packed paths: v + (rc - p) lies in [-p, p) and goes into the signed cube unreduced.
    neg: NegConstants<W>,
}

/// Round constants in the packed paths' form (see `Poseidon2::neg_constants`; read only by
/// the x86-64 SIMD paths).
#[derive(Clone, Debug)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct NegConstants<const W: usize> {
    pub(crate) initial: [[i32; W]; 4],
    pub(crate) internal: Vec<i32>,
    pub(crate) terminal: [[i32; W]; 4],
}

/// p - 1 = 127 * 2^24, so 1/2^k = -(p - 1)/2^k for k <= 24.
fn inv_pow2(k: u32) -> Kb {
    Kb::new(2).pow(k as u64).inverse()
}

fn signed(v: i64) -> Kb {
    if v < 0 {
        -Kb::new((-v) as u32)
    } else {
        Kb::new(v as u32)
    }
}

impl Poseidon2<16> {
    /// Plonky3's `default_koalabear_poseidon2_16`.
    pub fn new_16() -> Self {
        let h = inv_pow2;
        let diag = [
            signed(-2),
            signed(1),
            signed(2),
            h(1),
            signed(3),
            signed(4),
            -h(1),
            signed(-3),
            signed(-4),
            h(8),
            h(3),
            h(24),
            -h(8),
            -h(3),
            -h(4),
            -h(24),
        ];
        Self::from_tables(&rc::RC16_EXTERNAL_INITIAL, &rc::RC16_INTERNAL, &rc::RC16_EXTERNAL_FINAL, diag)
    }
}

impl Poseidon2<24> {
    /// Plonky3's `default_koalabear_poseidon2_24`.
    pub fn new_24() -> Self {
        let h = inv_pow2;
        let diag = [
            signed(-2),
            signed(1),
            signed(2),
            h(1),
            signed(3),
            signed(4),
            -h(1),
            signed(-3),
            signed(-4),
            h(8),
            h(2),
            h(3),
            h(4),
            h(5),
            h(6),
            h(24),
            -h(8),
            -h(3),
            -h(4),
            -h(5),
            -h(6),
            -h(7),
            -h(9),
            -h(24),
        ];
        Self::from_tables(&rc::RC24_EXTERNAL_INITIAL, &rc::RC24_INTERNAL, &rc::RC24_EXTERNAL_FINAL, diag)
    }
}

impl<const W: usize> Poseidon2<W> {
    fn from_tables(ini: &[[u32; W]; 4], internal: &[u32], fin: &[[u32; W]; 4], diag: [Kb; W]) -> Self {
        let conv = |t: &[[u32; W]; 4]| t.map(|r| r.map(Kb::new));
        let neg = |x: Kb| x.to_monty() as i32 - crate::koalabear::P as i32;
        let (initial, internal, terminal) = (conv(ini), internal.iter().map(|&v| Kb::new(v)).collect::<Vec<_>>(), conv(fin));
        let neg = NegConstants { initial: initial.map(|r| r.map(neg)), internal: internal.iter().map(|&x| neg(x)).collect(), terminal: terminal.map(|r| r.map(neg)) };
        let mut diag_lanes = diag.map(|x| x.to_monty());
        diag_lanes[0] = 0;
        Self { initial, internal, terminal, diag, diag_lanes, neg }
    }

    #[inline(always)]
    fn full_round<const LAZY: bool>(s: &mut [Kb; W], c: &[Kb; W]) {
        for (x, k) in s.iter_mut().zip(c) {
            *x = cube::<LAZY>(*x + *k);
        }
        external_linear(s);
    }

    /// Permute the state in place.
    pub fn permute_mut(&self, s: &mut [Kb; W]) {
        #[cfg(target_arch = "x86_64")]
        {
            let regs = scalar_form().registers;
            if matches!(regs, Registers::Auto | Registers::Avx512) && std::is_x86_feature_detected!("avx512f") {
                // SAFETY: AVX-512F was detected on this CPU just above.
                if unsafe { crate::single_avx512::permute_one(self, s) } {
                    return;
                }
            }
            if regs != Registers::Portable && std::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 was detected on this CPU just above.
                let done = unsafe {
                    match W {
                        16 => crate::single_avx2::permute_one::<W, 2>(self, s),
                        24 => crate::single_avx2::permute_one::<W, 3>(self, s),
                        _ => false,
                    }
                };
                if done {
                    return;
                }
            }
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 was detected on this CPU just above.
                unsafe { self.permute_mut_avx2(s) };
                return;
            }
        }
        self.permute_mut_portable(s);
    }

    /// [`Poseidon2::permute_mut`] compiled with AVX2 enabled: the same portable code, which
    /// the compiler vectorises within the state (the full rounds' sixteen or twenty-four
    /// cubes and the linear layers). An AVX-512 build of the same code measured slower
    /// (0.84 us against 0.74 us for width 16), so AVX-512 CPUs run this one too.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn permute_mut_avx2(&self, s: &mut [Kb; W]) {
        self.permute_body(s);
    }

    /// The portable permutation (what other CPUs run; tests compare it with the AVX2 build).
    pub fn permute_mut_portable(&self, s: &mut [Kb; W]) {
        self.permute_body(s);
    }

    /// The permutation under the current [`scalar_form`], one compiled body per form.
    #[inline(always)]
    fn permute_body(&self, s: &mut [Kb; W]) {
        let f = scalar_form();
        match (f.fused_internal, f.lazy_cube) {
            (true, true) => self.permute_form::<true, true>(s),
            (true, false) => self.permute_form::<true, false>(s),
            (false, true) => self.permute_form::<false, true>(s),
            (false, false) => self.permute_form::<false, false>(s),
        }
    }

    #[inline(always)]
    fn permute_form<const FUSED: bool, const LAZY: bool>(&self, s: &mut [Kb; W]) {
        external_linear(s);
        for c in &self.initial {
            Self::full_round::<LAZY>(s, c);
        }
        if FUSED {
            Self::internal_rounds_fused::<LAZY>(s, &self.internal);
        } else {
            for k in &self.internal {
                // the tail sum does not wait for the S-box
                let tail: u64 = s[1..].iter().map(|x| x.raw64()).sum();
                s[0] = cube::<LAZY>(s[0] + *k);
                let sum = Kb::from_lazy(tail + s[0].raw64());
                internal_diag(s, sum);
            }
        }
        for c in &self.terminal {
            Self::full_round::<LAZY>(s, c);
        }
    }

    /// The internal rounds with each round's S-box input formed straight from the previous
    /// cube c. Lane 0 becomes sum + V_0 c = (tail + c) - 2c = tail - c, so the next input,
    /// tail - c + k, is one lazy sum (tail + k + p - c < 2^36) and one reduction after the
    /// cube, where the reference form waits for the reduced sum, then a subtraction, then the
    /// constant's addition. The sum, the other lanes' updates and the next tail run beside
    /// the next cube.
    #[inline(always)]
    fn internal_rounds_fused<const LAZY: bool>(s: &mut [Kb; W], internal: &[Kb]) {
        let p = crate::koalabear::P as u64;
        let mut tail: u64 = s[1..].iter().map(|x| x.raw64()).sum();
        let mut input = s[0] + internal.first().copied().unwrap_or(Kb::ZERO);
        for r in 0..internal.len() {
            let c = cube::<LAZY>(input);
            let k = internal.get(r + 1).map_or(0, |k| k.raw64());
            // tail - c (+ the next round's constant); after the last round, lane 0 itself
            let next = Kb::from_lazy(tail + k + p - c.raw64());
            let sum = Kb::from_lazy(tail + c.raw64());
            s[0] = c;
            internal_diag(s, sum);
            tail = s[1..].iter().map(|x| x.raw64()).sum();
            input = next;
        }
        if !internal.is_empty() {
            s[0] = input;
        }
    }

    /// All round constants as rc - p (Montgomery representatives), for the packed paths.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn neg_constants(&self) -> &NegConstants<W> {
        &self.neg
    }

    /// The internal layer's diagonal V.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn diagonal(&self) -> &[Kb; W] {
        &self.diag
    }

    /// V as Montgomery representatives with lane 0 set to 0 (the register forms' operand).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn diagonal_lanes(&self) -> &[u32; W] {
        &self.diag_lanes
    }

    /// The internal rounds' constants.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn internal_constants(&self) -> &[Kb] {
        &self.internal
    }

    /// The permuted copy of `s`.
    pub fn permute(&self, mut s: [Kb; W]) -> [Kb; W] {
        self.permute_mut(&mut s);
        s
    }
}

impl<const W: usize> Poseidon2<W> {
    /// Permute eight independent states: the AVX2 path (eight lanes) when the CPU has AVX2,
    /// else eight scalar permutations. Both give identical results (tested).
    pub fn permute_x8(&self, states: &mut [[Kb; W]; 8]) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 was detected on this CPU just above.
                unsafe { crate::packed_avx2::permute_x8(self, states) };
                return;
            }
        }
        self.permute_x8_scalar(states);
    }

    /// Permute sixteen independent states: the AVX-512 path (sixteen lanes) when the CPU has
    /// AVX-512F and AVX-512BW (and [`PackedForm::sixteen_lanes`] is on), else two eight-lane
    /// calls.
    pub fn permute_x16(&self, states: &mut [[Kb; W]; 16]) {
        #[cfg(target_arch = "x86_64")]
        {
            if crate::packed_avx512::use_lanes() {
                // SAFETY: `use_lanes` found AVX-512F and AVX-512BW on this CPU just above.
                unsafe { crate::packed_avx512::permute_x16(self, states) };
                return;
            }
        }
        let (a, b) = states.split_at_mut(8);
        self.permute_x8(a.try_into().expect("8 states"));
        self.permute_x8(b.try_into().expect("8 states"));
    }

    /// Permute L independent states, L = 8 or 16 ([`Poseidon2::permute_x8`],
    /// [`Poseidon2::permute_x16`]); other L one by one.
    pub fn permute_lanes<const L: usize>(&self, states: &mut [[Kb; W]; L]) {
        if let Ok(s) = <&mut [[Kb; W]; 16]>::try_from(&mut states[..]) {
            self.permute_x16(s);
        } else if let Ok(s) = <&mut [[Kb; W]; 8]>::try_from(&mut states[..]) {
            self.permute_x8(s);
        } else {
            for s in states.iter_mut() {
                self.permute_mut(s);
            }
        }
    }

    /// Permute sixteen states held in column layout, the layout of packed SIMD fields
    /// (Plonky3's packed KoalaBear, for one): `cols[j][i]` is element j of state i. The
    /// registers load straight from the columns, with no transposes; AVX-512 or AVX2 as
    /// detected, else scalar permutations. Equal to [`Poseidon2::permute_x16`] on the
    /// transposed states (tested).
    ///
    /// ```
    /// use zkforge_hashsig::{koalabear::Kb, poseidon2::Poseidon2};
    /// let p = Poseidon2::new_16();
    /// let mut cols = [[Kb::ZERO; 16]; 16];
    /// p.permute_columns_x16(&mut cols);
    /// assert_eq!(cols[5][3], p.permute([Kb::ZERO; 16])[5]);
    /// ```
    pub fn permute_columns_x16(&self, cols: &mut [[Kb; 16]; W]) {
        #[cfg(target_arch = "x86_64")]
        {
            if crate::packed_avx512::use_lanes() {
                // SAFETY: `use_lanes` found AVX-512F and AVX-512BW on this CPU just above.
                unsafe { crate::packed_avx512::permute_columns(self, cols) };
                return;
            }
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 was detected on this CPU just above.
                unsafe { crate::packed_avx2::permute_columns(self, cols) };
                return;
            }
        }
        for i in 0..16 {
            let mut s: [Kb; W] = core::array::from_fn(|j| cols[j][i]);
            self.permute_mut(&mut s);
            for (col, x) in cols.iter_mut().zip(s) {
                col[i] = x;
            }
        }
    }

    /// The scalar fallback of [`Poseidon2::permute_x8`], for comparison.
    pub fn permute_x8_scalar(&self, states: &mut [[Kb; W]; 8]) {
        for s in states.iter_mut() {
            self.permute_mut(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each operation of the tables equals multiplying by its diagonal entry.
    #[test]
    fn diag_ops_match_the_diagonal() {
        fn check<const W: usize>(p: &Poseidon2<W>) {
            let sum = Kb::new(123_456_789);
            for (j, (op, dj)) in diag_ops::<W>().iter().zip(p.diagonal()).enumerate() {
                for x in [0u32, 1, 2, 3, 255, 256, 0x7f00_0000, 0x12_3456, 0x7eff_ffff] {
                    let x = Kb::new(x);
                    let v = diag_mag(*op, x.to_monty());
                    let y = if op.neg { sub_mod(sum.to_monty(), v) } else { (sum + Kb::from_monty_unchecked(v)).to_monty() };
                    assert_eq!(y, (sum + x * *dj).to_monty(), "W {W} entry {j}");
                }
            }
        }
        check(&Poseidon2::new_16());
        check(&Poseidon2::new_24());
    }
}

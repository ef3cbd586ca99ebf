//! The width-16/24 Poseidon2 permutation on N states at once, written once over a [`Lanes`]
//! register type (N KoalaBear elements per register, lane i of every register belonging to
//! state i). `packed_avx2.rs` (eight lanes) and `packed_avx512.rs` (sixteen lanes) supply
//! only the lane arithmetic and their `#[target_feature]` entry points.
//!
//! Round structure (Poseidon2, ePrint 2023/323, with Plonky3's M4 = circ(2, 3, 1, 1) external
//! layer and its KoalaBear internal diagonal):
//! - external rounds: S-box x -> (x + rc)^3 on every entry, then M4 per chunk of four and each
//!   column sum added to its column;
//! - internal rounds: s0 <- (s0 + rc)^3, then s_j <- sum + V_j s_j, and with V_0 = -2 the
//!   next s0 is tail - s0^3 (tail = s_1 + ...). Two orders of the same operations
//!   (`PackedForm::tail_first`): by default Plonky3's, per round first what does not wait for
//!   the S-box (the tail sum of the entries the last round left, as trees of eight, and the
//!   diagonal parts that read only their entry: [`Lanes::diag_part`]), then the sum and the
//!   additions into it ([`Lanes::diag_finish`]); or one pass, each new s_j added into the next
//!   round's tail sum as it is made. The instruction counts and the latency chain (28 cycles
//!   a round on Zen 4) are the same; the first order leaves about 150 instructions a round
//!   free to run while the S-box's products are in flight, where the one pass puts about 140
//!   behind the S-box. Measured 0.97 (AVX-512) and 0.93-0.97 (AVX2) of the one pass on Zen 4
//!   (BENCHMARKS.md, "Zen 4, 2026-12-07").
//!
//! Lane values are canonical (in [0, p)) in Montgomery form between operations. Round
//! constants come as rc - p (`Poseidon2::neg_constants`), so v + rc lies in [-p, p) and goes
//! into the signed cube without a reduction.
//!
//! Every function is `unsafe` only because the lane operations are intrinsics: all of them are
//! `#[inline(always)]` and reach machine code only inside an entry point compiled with the
//! right `#[target_feature]`, which its caller enables after run-time detection. The tests
//! compare every path with the scalar permutation.

use crate::koalabear::Kb;
use crate::poseidon2::{diag_ops, DiagOp, Poseidon2};

/// One SIMD register of `N` KoalaBear lanes and the arithmetic the permutation needs.
///
/// # Safety
/// Implementations call intrinsics of one instruction set: every method may only run on a CPU
/// that has it, from code compiled with that `#[target_feature]`.
pub(crate) unsafe trait Lanes: Copy {
    /// Lanes per register.
    const N: usize;
    /// Every lane zero.
    unsafe fn zero() -> Self;
    /// Every lane `x` (an i32 bit pattern).
    unsafe fn splat(x: i32) -> Self;
    /// Lanes 0..N from `lanes[..N]` (Montgomery form, canonical).
    unsafe fn load(lanes: &[u32; 16]) -> Self;
    /// Lanes 0..N into `lanes[..N]`.
    unsafe fn store(self, lanes: &mut [u32; 16]);
    /// a + b mod p, canonical in and out.
    unsafe fn add(a: Self, b: Self) -> Self;
    /// a - b mod p, canonical in and out.
    unsafe fn sub(a: Self, b: Self) -> Self;
    /// x / 2 mod p, canonical in and out: (x >> 1) + (x odd) (p + 1) / 2.
    unsafe fn half(x: Self) -> Self;
    /// sum + x / 2^k (or sum - x / 2^k with `neg`) for 2 <= k <= 24, canonical in and out,
    /// from 2^-k = -127 2^(24 - k) mod p with h = x >> k and l the low k bits of x: AVX2 forms
    /// the signed value +-(h - c), c = 127 l 2^(24 - k), and adds it with `vpsignd`; AVX-512
    /// forms -x / 2^k in [0, p] by a masked shift and adds or subtracts it plainly (see
    /// `packed_avx512.rs`).
    unsafe fn add_div_pow2(neg: bool, k: u32, sum: Self, x: Self) -> Self;

    /// sum + V_j x for one internal-diagonal entry (`DiagOp`), canonical in and out: small
    /// multiples by additions, x / 2 by [`Lanes::half`], x / 2^k by [`Lanes::add_div_pow2`]
    /// ([`Lanes::diag_part`], then [`Lanes::diag_finish`]). (No closures here: a closure is not
    /// `inline(always)`, and one left out of line would call every intrinsic out of line too.)
    #[inline(always)]
    unsafe fn add_diag(op: DiagOp, sum: Self, x: Self) -> Self {
        // SAFETY: the caller runs this under the instruction set of `Self`.
        unsafe { Self::diag_finish(op, sum, Self::diag_part(op, x)) }
    }
    /// The part of [`Lanes::add_div_pow2`] that does not read `sum`; by default none (x itself,
    /// and [`Lanes::div_pow2_finish`] does it all).
    #[inline(always)]
    unsafe fn div_pow2_part(neg: bool, k: u32, x: Self) -> Self {
        let _ = (neg, k);
        x
    }
    /// The rest of [`Lanes::add_div_pow2`]: `div_pow2_finish(neg, k, sum, div_pow2_part(neg,
    /// k, x))` is `add_div_pow2(neg, k, sum, x)`.
    #[inline(always)]
    unsafe fn div_pow2_finish(neg: bool, k: u32, sum: Self, part: Self) -> Self {
        // SAFETY: the caller runs this under the instruction set of `Self`.
        unsafe { Self::add_div_pow2(neg, k, sum, part) }
    }
    /// [`Lanes::add_diag`] in two steps: the part that does not read `sum` (the small multiple,
    /// the half, or [`Lanes::div_pow2_part`])...
    #[inline(always)]
    unsafe fn diag_part(op: DiagOp, x: Self) -> Self {
        // SAFETY: the caller runs this under the instruction set of `Self`.
        unsafe {
            match op.mul {
                1 => x,
                2 => Self::add(x, x),
                3 => Self::add(Self::add(x, x), x),
                4 => {
                    let x2 = Self::add(x, x);
                    Self::add(x2, x2)
                }
                _ if op.shift == 1 => Self::half(x),
                _ => Self::div_pow2_part(op.neg, op.shift, x),
            }
        }
    }
    /// ... and the addition (or subtraction) into `sum`.
    #[inline(always)]
    unsafe fn diag_finish(op: DiagOp, sum: Self, part: Self) -> Self {
        // SAFETY: the caller runs this under the instruction set of `Self`.
        unsafe {
            if op.mul == 0 && op.shift > 1 {
                Self::div_pow2_finish(op.neg, op.shift, sum, part)
            } else if op.neg {
                Self::sub(sum, part)
            } else {
                Self::add(sum, part)
            }
        }
    }
    /// (v + rc)^3 mod p, canonical, for v canonical and `rc_neg` = rc - p in [-p, 0).
    unsafe fn add_rc_cube(v: Self, rc_neg: Self) -> Self;
    /// a b 2^-32 mod p (the Montgomery product), canonical in and out.
    unsafe fn mul(a: Self, b: Self) -> Self;
}

/// 2x mod p.
#[inline(always)]
unsafe fn double<L: Lanes>(x: L) -> L {
    unsafe { L::add(x, x) }
}

/// One operation on entry J of a width-W state, J a constant: [`each_entry`] calls it for
/// every entry, one call written out per entry.
///
/// # Safety
/// As [`Lanes`]: implementations call intrinsics of one instruction set.
pub(crate) unsafe trait EntryOp<L: Lanes, const W: usize> {
    /// The operation on entry J.
    unsafe fn apply<const J: usize>(&mut self, v: &mut [L; W]);
}

/// `op` on entries FROM.. of a width-16 or width-24 state (FROM = 0 or 1), one call per entry
/// written out (J a constant in each).
///
/// Why written out: a `for j in 0..W` loop over a body this long stays a loop (LLVM does not
/// unroll it), and the state then lives in a stack array, stored and reloaded around every
/// round. Written out, it stays in registers (all of width 16 in AVX-512's 32; width 24
/// spills a few). Measured on Emerald Rapids: packed Poseidon2 0.96 / 0.98 of the loop
/// (widths 16 / 24), Poseidon1's AVX2 batches 0.87 / 0.90 (BENCHMARKS.md, fourth session of
/// 2026-12-07).
#[inline(always)]
pub(crate) unsafe fn each_entry<L: Lanes, const W: usize, const FROM: usize, O: EntryOp<L, W>>(v: &mut [L; W], op: &mut O) {
    const { assert!((W == 16 || W == 24) && FROM <= 1) };
    // SAFETY: the caller runs this under the instruction set of `L`.
    unsafe {
        if FROM == 0 {
            op.apply::<0>(v);
        }
        op.apply::<1>(v);
        op.apply::<2>(v);
        op.apply::<3>(v);
        op.apply::<4>(v);
        op.apply::<5>(v);
        op.apply::<6>(v);
        op.apply::<7>(v);
        op.apply::<8>(v);
        op.apply::<9>(v);
        op.apply::<10>(v);
        op.apply::<11>(v);
        op.apply::<12>(v);
        op.apply::<13>(v);
        op.apply::<14>(v);
        op.apply::<15>(v);
        if W == 24 {
            op.apply::<16>(v);
            op.apply::<17>(v);
            op.apply::<18>(v);
            op.apply::<19>(v);
            op.apply::<20>(v);
            op.apply::<21>(v);
            op.apply::<22>(v);
            op.apply::<23>(v);
        }
    }
}

/// An internal round's entry J >= 1: `v[J] <- sum + V_J v[J]`, added into the next round's tail
/// sum (accumulator (J - 1) mod 4). J is a constant, so the diagonal operation is too.
struct InternalEntry<L> {
    sum: L,
    acc: [L; 4],
}

// SAFETY: lane operations only; the caller of `apply` runs it under `L`'s instruction set.
unsafe impl<L: Lanes, const W: usize> EntryOp<L, W> for InternalEntry<L> {
    #[inline(always)]
    unsafe fn apply<const J: usize>(&mut self, v: &mut [L; W]) {
        unsafe {
            let y = L::add_diag(diag_ops::<W>()[J], self.sum, v[J]);
            v[J] = y;
            // (J + 3) % 4 is (J - 1) mod 4 without an underflow in the never-called J = 0 copy
            self.acc[(J + 3) % 4] = if J <= 4 { y } else { L::add(self.acc[(J + 3) % 4], y) };
        }
    }
}

/// Entry J >= 1's part of the diagonal that does not read the sum: `v[J] <- diag_part(v[J])`.
struct DiagPart;

// SAFETY: lane operations only; the caller of `apply` runs it under `L`'s instruction set.
unsafe impl<L: Lanes, const W: usize> EntryOp<L, W> for DiagPart {
    #[inline(always)]
    unsafe fn apply<const J: usize>(&mut self, v: &mut [L; W]) {
        unsafe { v[J] = L::diag_part(diag_ops::<W>()[J], v[J]) }
    }
}

/// Entry J >= 1's addition into the sum: `v[J] <- diag_finish(sum, v[J])`.
struct DiagFinish<L>(L);

// SAFETY: lane operations only; the caller of `apply` runs it under `L`'s instruction set.
unsafe impl<L: Lanes, const W: usize> EntryOp<L, W> for DiagFinish<L> {
    #[inline(always)]
    unsafe fn apply<const J: usize>(&mut self, v: &mut [L; W]) {
        unsafe { v[J] = L::diag_finish(diag_ops::<W>()[J], self.0, v[J]) }
    }
}

/// x0 + x1 + x2 + x3 as a tree.
#[inline(always)]
unsafe fn sum4<L: Lanes>(x: &[L]) -> L {
    unsafe { L::add(L::add(x[0], x[1]), L::add(x[2], x[3])) }
}

/// x0 + ... + x7 as a tree.
#[inline(always)]
unsafe fn sum8<L: Lanes>(x: &[L]) -> L {
    unsafe { L::add(sum4(&x[..4]), sum4(&x[4..8])) }
}

/// The sum of registers 1.. of `v` (15 or 23 of them) as trees of eight (as Plonky3's
/// `sum_array`): depth 4 at width 16, 5 at width 24. (Written out: an array indexed in a loop
/// stays on the stack. No closures: one left out of line, as a closure may be inside a
/// `#[target_feature]` function of a default build, takes its vectors through memory.)
#[inline(always)]
unsafe fn tree_tail<L: Lanes, const W: usize>(v: &[L; W]) -> L {
    const { assert!(W == 16 || W == 24) };
    unsafe {
        let last7 = &v[W - 7..];
        let sum7 = L::add(sum4(&last7[..4]), L::add(L::add(last7[4], last7[5]), last7[6]));
        if W == 16 {
            L::add(sum8(&v[1..9]), sum7)
        } else {
            L::add(L::add(sum8(&v[1..9]), sum8(&v[9..17])), sum7)
        }
    }
}

/// All internal rounds (see the module header), in one of two orders (`PackedForm::tail_first`).
#[inline(always)]
unsafe fn internal_rounds<L: Lanes, const W: usize>(v: &mut [L; W], constants: &[i32], tail_first: bool) {
    unsafe {
        if tail_first {
            // Per round, what does not wait for the S-box first (the tail sum of the entries
            // the last round left, by a tree; the diagonal parts), then the S-box's sum and the
            // additions into it.
            for k in constants {
                let s0 = L::add_rc_cube(v[0], L::splat(*k));
                let tail = tree_tail(v);
                each_entry::<L, W, 1, _>(v, &mut DiagPart);
                let sum = L::add(tail, s0);
                v[0] = L::sub(tail, s0);
                each_entry::<L, W, 1, _>(v, &mut DiagFinish(sum));
            }
            return;
        }
        let mut tail = tree_tail(v);
        for k in constants {
            let s0 = L::add_rc_cube(v[0], L::splat(*k));
            let sum = L::add(tail, s0);
            v[0] = L::sub(tail, s0);
            let mut op = InternalEntry { sum, acc: [L::zero(); 4] };
            each_entry::<L, W, 1, _>(v, &mut op);
            let acc = op.acc;
            tail = L::add(L::add(acc[0], acc[1]), L::add(acc[2], acc[3]));
        }
    }
}

/// M4 (Plonky3's `MDSMat4`, circ(2, 3, 1, 1)) on one chunk of four.
#[inline(always)]
unsafe fn m4<L: Lanes>(x: [L; 4]) -> [L; 4] {
    unsafe {
        let t01 = L::add(x[0], x[1]);
        let t23 = L::add(x[2], x[3]);
        let t0123 = L::add(t01, t23);
        let t01123 = L::add(t0123, x[1]);
        let t01233 = L::add(t0123, x[3]);
        [L::add(t01123, t01), L::add(t01123, double(x[2])), L::add(t01233, t23), L::add(t01233, double(x[0]))]
    }
}

/// The external linear layer alone (before the first round): M4 per chunk, then each column
/// sum added to its column.
#[inline(always)]
unsafe fn external_linear<L: Lanes, const W: usize>(s: &mut [L; W]) {
    unsafe {
        for c in 0..W / 4 {
            let y = m4([s[4 * c], s[4 * c + 1], s[4 * c + 2], s[4 * c + 3]]);
            s[4 * c..4 * c + 4].copy_from_slice(&y);
        }
        for k in 0..4 {
            let mut sum = s[k];
            for c in 1..W / 4 {
                sum = L::add(sum, s[4 * c + k]);
            }
            for c in 0..W / 4 {
                s[4 * c + k] = L::add(s[4 * c + k], sum);
            }
        }
    }
}

/// The S-box of entry J, `v[J] <- (v[J] + rc_J)^3`, with the constants given as rc_J - p.
struct Sbox<'a, const W: usize>(&'a [i32; W]);

// SAFETY: lane operations only; the caller of `apply` runs it under `L`'s instruction set.
unsafe impl<L: Lanes, const W: usize> EntryOp<L, W> for Sbox<'_, W> {
    #[inline(always)]
    unsafe fn apply<const J: usize>(&mut self, v: &mut [L; W]) {
        unsafe { v[J] = L::add_rc_cube(v[J], L::splat(self.0[J])) }
    }
}

/// The S-box on every entry, `v[j] <- (v[j] + rc_j)^3`, with the constants as rc_j - p
/// (Poseidon2's external rounds, Poseidon1's full rounds), written out by [`each_entry`].
#[inline(always)]
pub(crate) unsafe fn sbox_layer<L: Lanes, const W: usize>(v: &mut [L; W], c: &[i32; W]) {
    // SAFETY: the caller runs this under the instruction set of `L`.
    unsafe { each_entry::<L, W, 0, _>(v, &mut Sbox(c)) }
}

/// One external round: the S-box on every entry ([`sbox_layer`]), then the external linear
/// layer. (S-boxes and M4 interleaved chunk by chunk measured 1.13-1.19x slower on Emerald
/// Rapids.)
#[inline(always)]
unsafe fn external_round<L: Lanes, const W: usize>(v: &mut [L; W], c: &[i32; W]) {
    unsafe {
        sbox_layer(v, c);
        external_linear(v);
    }
}

/// The width-W permutation on lane-major registers.
#[inline(always)]
pub(crate) unsafe fn permute_regs<L: Lanes, const W: usize>(perm: &Poseidon2<W>, v: &mut [L; W]) {
    let rc = perm.neg_constants();
    unsafe {
        external_linear(v);
        // Two loops of external rounds around the internal ones. (One loop over all eight with
        // the internal rounds entered after the fourth, one copy of the code fewer, kept more
        // of the state on the stack and read 1.01-1.03x slower on Emerald Rapids.)
        for c in &rc.initial {
            external_round(v, c);
        }
        internal_rounds(v, &rc.internal, crate::poseidon2::packed_form().tail_first);
        for c in &rc.terminal {
            external_round(v, c);
        }
    }
}

/// Load lane-major registers from N rows (`rows.len() == L::N`): v[j] lane i = rows[i][j].
#[inline(always)]
pub(crate) unsafe fn load_rows<L: Lanes, const M: usize>(rows: &[[Kb; M]]) -> [L; M] {
    core::array::from_fn(|j| {
        let mut lanes = [0u32; 16];
        for (i, row) in rows.iter().enumerate().take(L::N) {
            lanes[i] = row[j].to_monty();
        }
        // SAFETY: the caller runs this under the instruction set of `L`.
        unsafe { L::load(&lanes) }
    })
}

/// Store lane-major registers back into N rows: rows[i][j] = v[j] lane i.
#[inline(always)]
pub(crate) unsafe fn store_rows<L: Lanes, const M: usize>(v: &[L; M], rows: &mut [[Kb; M]]) {
    for (j, vj) in v.iter().enumerate() {
        let mut lanes = [0u32; 16];
        // SAFETY: the caller runs this under the instruction set of `L`.
        unsafe { vj.store(&mut lanes) };
        for (i, row) in rows.iter_mut().enumerate().take(L::N) {
            // every register lane is reduced below p
            row[j] = Kb::from_monty_unchecked(lanes[i]);
        }
    }
}

/// The width-W permutation on L states in column layout (`cols[j][i]` is element j of state
/// i; the state count a multiple of N), N states at a time, each register loaded from N
/// consecutive entries of a column (no transposes).
#[inline(always)]
pub(crate) unsafe fn permute_columns<L: Lanes, const W: usize, const S: usize>(perm: &Poseidon2<W>, cols: &mut [[Kb; S]; W]) {
    for b in 0..S / L::N {
        let mut v: [L; W] = core::array::from_fn(|j| {
            let mut lanes = [0u32; 16];
            for i in 0..L::N {
                lanes[i] = cols[j][L::N * b + i].to_monty();
            }
            // SAFETY: the caller runs this under the instruction set of `L`.
            unsafe { L::load(&lanes) }
        });
        // SAFETY: as above.
        unsafe { permute_regs(perm, &mut v) };
        for (col, vj) in cols.iter_mut().zip(v.iter()) {
            let mut lanes = [0u32; 16];
            // SAFETY: as above.
            unsafe { vj.store(&mut lanes) };
            for i in 0..L::N {
                // every register lane is reduced below p
                col[L::N * b + i] = Kb::from_monty_unchecked(lanes[i]);
            }
        }
    }
}

/// N chain walks of `steps` steps each with the width-16 permutation, the chain values staying
/// in registers between steps: lane i holds `values[i]`; step j (1-based) hashes
/// [parameter | tweaks(j)[i] | value | 0...] and keeps the feed-forward (P(s) + s)[..H].
/// `tweaks(j)` and `values` hold `L::N` rows.
#[inline(always)]
pub(crate) unsafe fn chains<L: Lanes, const PL: usize, const T: usize, const H: usize, Tw: AsRef<[[Kb; T]]>>(
    perm: &Poseidon2<16>,
    parameter: &[Kb; PL],
    tweaks: impl Fn(u8) -> Tw,
    steps: u8,
    values: &mut [[Kb; H]],
) {
    // SAFETY (every block below): the caller runs this under the instruction set of `L`.
    let par: [L; PL] = core::array::from_fn(|k| unsafe { L::splat(parameter[k].to_monty() as i32) });
    let mut val: [L; H] = unsafe { load_rows(values) };
    for j in 1..=steps {
        let tw: [L; T] = unsafe { load_rows(tweaks(j).as_ref()) };
        let mut s = [unsafe { L::zero() }; 16];
        s[..PL].copy_from_slice(&par);
        s[PL..PL + T].copy_from_slice(&tw);
        s[PL + T..PL + T + H].copy_from_slice(&val);
        let input = s;
        unsafe { permute_regs(perm, &mut s) };
        for k in 0..H {
            val[k] = unsafe { L::add(s[k], input[k]) };
        }
    }
    unsafe { store_rows(&val, values) };
}

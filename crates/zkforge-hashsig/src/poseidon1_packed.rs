//! Poseidon1 (widths 16 and 24) on N states at once, written once over the [`Lanes`] register
//! type of `packed.rs` (lane i of every register belongs to state i): sixteen states in
//! AVX-512 registers, eight in AVX2. Used by leanSig devnet 4's key generation, whose chains
//! and leaves are independent hashes (`devnet4.rs`).
//!
//! Rounds as in `poseidon1.rs`; with `sparse` the partial rounds take the sparse form of
//! `poseidon1_fast.rs` (ePrint 2019/458 appendix B), else the textbook dense product. Values
//! stay canonical between operations. Matrix products reduce late ([`MatrixLanes`]): the
//! width-16 MDS matrix's small integer entries give sums of products below 2^40, reduced once
//! per output; field entries (width 24, the sparse form's matrices) are summed in pairs, one
//! Montgomery reduction per pair. The sparse rounds' x_j + v_j x0 are lane-wise Montgomery
//! products.
//!
//! Cost per state, width 16 (products): full rounds 8 x 256, partial rounds 20 x 31 (sparse)
//! or 20 x 256 (dense), S-boxes 8 x 16 x 2 + 20 x 2.
//!
//! Every function is `unsafe` because the lane operations are intrinsics; all are
//! `#[inline(always)]` and reach machine code only inside the `#[target_feature]` entry
//! points of `poseidon1_avx512.rs` and `poseidon1_avx2.rs`, whose callers check the CPU first.
//! No closures here: one left out of line would call every intrinsic out of line.

use crate::koalabear::{Kb, P};
use crate::packed::{each_entry, EntryOp, Lanes};
use crate::poseidon1::Poseidon1;
use crate::tweak_hash::{chain_tweak, tree_tweak};

/// Matrix products with delayed reduction, products in 64-bit lanes (even and odd lanes
/// apart).
///
/// # Safety
/// As [`Lanes`]: implementations call intrinsics of one instruction set.
pub(crate) unsafe trait MatrixLanes: Lanes {
    /// x <- M x for `rows` of non-negative integer entries whose every row sums below 2^9
    /// (each output, a sum of products by canonical values, stays below 2^40): one reduction
    /// per output (the full rounds of width 16).
    unsafe fn small_mds<const W: usize>(rows: &[[u64; W]], x: &mut [Self; W]);
    /// sum_j row_j x_j for field entries: x_j row_j + x_k row_k < 2p^2 < p 2^32 is one
    /// Montgomery reduction (below 2p) per pair of products, the reduced pairs summed (below
    /// 2^40) and reduced once.
    unsafe fn dot<const W: usize>(row: &[Kb; W], x: &[Self; W]) -> Self;
}

/// Every lane `c`.
#[inline(always)]
unsafe fn splat<L: Lanes>(c: Kb) -> L {
    // SAFETY: the caller runs this under the instruction set of `L`.
    unsafe { L::splat(c.to_monty() as i32) }
}

/// c - p (Montgomery form), the form [`Lanes::add_rc_cube`] takes its constant in.
#[inline(always)]
fn neg_form(c: Kb) -> i32 {
    (c.to_monty() as i32).wrapping_sub(P as i32)
}

/// Every lane [`neg_form`]`(c)`.
#[inline(always)]
unsafe fn splat_neg<L: Lanes>(c: Kb) -> L {
    // SAFETY: the caller runs this under the instruction set of `L`.
    unsafe { L::splat(neg_form(c)) }
}

/// x <- A x for the dense matrix `a` (rows), a [`MatrixLanes::dot`] per output.
#[inline(always)]
unsafe fn dense<L: MatrixLanes, const W: usize>(a: &[[Kb; W]], x: &mut [L; W]) {
    // SAFETY (every block): the caller runs this under the instruction set of `L`.
    let mut y = [unsafe { L::zero() }; W];
    for (yi, row) in y.iter_mut().zip(a) {
        *yi = unsafe { L::dot(row, x) };
    }
    *x = y;
}

/// A full round: constants, S-box on every lane, then the matrix `a`, or the MDS matrix's
/// small integer entries `small` when given.
#[inline(always)]
unsafe fn full_round<L: MatrixLanes, const W: usize>(rc: &[Kb; W], a: &[[Kb; W]], small: Option<&[[u64; W]]>, x: &mut [L; W]) {
    // SAFETY (every block): the caller runs this under the instruction set of `L`.
    let mut neg = [0i32; W];
    for (n, c) in neg.iter_mut().zip(rc) {
        *n = neg_form(*c);
    }
    unsafe { crate::packed::sbox_layer(x, &neg) };
    match small {
        Some(rows) => unsafe { L::small_mds(rows, x) },
        None => unsafe { dense(a, x) },
    }
}

/// Entry J >= 1 of a sparse partial round: `x[J] <- x[J] + v[J] x0` (all of them written out by
/// `packed::each_entry`: a loop over j kept the state in a stack array).
struct SparseEntry<'a, L, const W: usize> {
    x0: L,
    v: &'a [Kb; W],
}

// SAFETY: lane operations only; the caller of `apply` runs it under `L`'s instruction set.
unsafe impl<L: MatrixLanes, const W: usize> EntryOp<L, W> for SparseEntry<'_, L, W> {
    #[inline(always)]
    unsafe fn apply<const J: usize>(&mut self, x: &mut [L; W]) {
        unsafe { x[J] = L::add(x[J], L::mul(self.x0, splat(self.v[J]))) }
    }
}

/// The width-W permutation on the registers `x`.
#[inline(always)]
pub(crate) unsafe fn permute_regs<L: MatrixLanes, const W: usize>(p: &Poseidon1<W>, sparse: bool, x: &mut [L; W]) {
    let f = &p.fast;
    let small = p.small.then_some(&p.rows[..]);
    // SAFETY (every block): the caller runs this under the instruction set of `L`.
    unsafe {
        if sparse {
            for r in 0..4 {
                full_round(&f.init_rc[r], if r == 3 { &f.pre } else { &f.m }, if r == 3 { None } else { small }, x);
            }
            for i in 0..p.partial {
                let x0 = L::add_rc_cube(x[0], splat_neg(f.k[i]));
                x[0] = x0;
                let y0 = L::dot(&f.w[i], x);
                each_entry::<L, W, 1, _>(x, &mut SparseEntry { x0, v: &f.v[i] });
                x[0] = y0;
            }
            for c in &f.term_rc {
                full_round(c, &f.m, small, x);
            }
        } else {
            for (r, c) in p.rc.iter().enumerate() {
                if r < 4 || r >= 4 + p.partial {
                    full_round(c, &f.m, small, x);
                } else {
                    x[0] = L::add_rc_cube(x[0], splat_neg(c[0]));
                    for j in 1..W {
                        x[j] = L::add(x[j], splat(c[j]));
                    }
                    match small {
                        Some(rows) => L::small_mds(rows, x),
                        None => dense(&f.m, x),
                    }
                }
            }
        }
    }
}

/// Registers from N = `L::N` rows: lane i of register j is `rows[i][j]`.
#[inline(always)]
unsafe fn load_rows<L: Lanes, const M: usize>(rows: &[[Kb; M]]) -> [L; M] {
    // SAFETY (every block): the caller runs this under the instruction set of `L`.
    let mut v = [unsafe { L::zero() }; M];
    for (j, vj) in v.iter_mut().enumerate() {
        let mut lanes = [0u32; 16];
        for (l, row) in lanes.iter_mut().zip(rows.iter().take(L::N)) {
            *l = row[j].to_monty();
        }
        *vj = unsafe { L::load(&lanes) };
    }
    v
}

/// Lane i of every register into `rows[i]`, for the first `M` registers.
#[inline(always)]
unsafe fn store_rows<L: Lanes, const W: usize, const M: usize>(v: &[L; W], rows: &mut [[Kb; M]]) {
    for (j, vj) in v.iter().take(M).enumerate() {
        let mut lanes = [0u32; 16];
        // SAFETY: the caller runs this under the instruction set of `L`.
        unsafe { vj.store(&mut lanes) };
        for (row, l) in rows.iter_mut().take(L::N).zip(lanes) {
            // every register lane is reduced below p
            row[j] = Kb::from_monty_unchecked(l);
        }
    }
}

/// The permutation of `L::N` states (`states.len() == L::N`).
#[inline(always)]
pub(crate) unsafe fn permute_states<L: MatrixLanes, const W: usize>(p: &Poseidon1<W>, sparse: bool, states: &mut [[Kb; W]]) {
    // SAFETY: the caller runs this under the instruction set of `L`.
    unsafe {
        let mut x: [L; W] = load_rows(states);
        permute_regs(p, sparse, &mut x);
        store_rows(&x, states);
    }
}

/// `L::N` devnet-4 chain walks of `steps` steps: lane i walks chain `chains[i]` of epoch
/// `epochs[i]` from `values[i]` at position `starts[i]`; step j hashes [value | parameter |
/// chain tweak (epoch, chain, starts[i] + j) | 0..] with width 16 and keeps (P(s) + s)[..H].
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) unsafe fn chains<L: MatrixLanes, const PL: usize, const T: usize, const H: usize>(
    p: &Poseidon1<16>,
    sparse: bool,
    parameter: &[Kb; PL],
    epochs: &[u32],
    chains: &[u8],
    starts: &[u8],
    steps: u8,
    values: &mut [[Kb; H]],
) {
    const { assert!(H + PL + T <= 16, "a chain step must fit one width-16 state") };
    // SAFETY (every block): the caller runs this under the instruction set of `L`.
    let mut x: [L; H] = unsafe { load_rows(values) };
    for j in 1..=steps {
        let tweaks: [[Kb; T]; 16] = core::array::from_fn(|i| if i < L::N { chain_tweak::<T>(epochs[i], chains[i], starts[i].wrapping_add(j)) } else { [Kb::ZERO; T] });
        let tw: [L; T] = unsafe { load_rows(&tweaks) };
        let mut s = [unsafe { L::zero() }; 16];
        s[..H].copy_from_slice(&x);
        for k in 0..PL {
            s[H + k] = unsafe { splat(parameter[k]) };
        }
        s[H + PL..H + PL + T].copy_from_slice(&tw);
        unsafe { permute_regs(p, sparse, &mut s) };
        for k in 0..H {
            x[k] = unsafe { L::add(s[k], x[k]) };
        }
    }
    unsafe { store_rows(&x, values) };
}

/// `L::N` devnet-4 leaves: the replacement sponge with width 24, capacity `cap` first, over
/// [parameter | tree tweak (0, epochs[i]) | ends[i] flattened] for lane i (every lane's input
/// the same length), each chunk of 24 - CAP elements overwriting state[CAP..] (the last one
/// zero-padded); lane i's leaf is state[CAP..CAP + H].
#[inline(always)]
pub(crate) unsafe fn leaves<L: MatrixLanes, const PL: usize, const T: usize, const H: usize, const CAP: usize>(
    p: &Poseidon1<24>,
    sparse: bool,
    cap: &[Kb; CAP],
    parameter: &[Kb; PL],
    epochs: &[u32],
    ends: &[&[[Kb; H]]],
    out: &mut [[Kb; H]],
) {
    let rate = 24 - CAP;
    let len = PL + T + ends[0].len() * H;
    // element k of lane i's input
    let elem = |i: usize, k: usize| -> Kb {
        if k < PL {
            parameter[k]
        } else if k < PL + T {
            tree_tweak::<T>(0, epochs[i])[k - PL]
        } else {
            let e = k - PL - T;
            ends[i][e / H][e % H]
        }
    };
    // SAFETY (every block): the caller runs this under the instruction set of `L`.
    let mut s = [unsafe { L::zero() }; 24];
    for k in 0..CAP {
        s[k] = unsafe { splat(cap[k]) };
    }
    for chunk in (0..len).step_by(rate) {
        for k in 0..rate {
            let mut lanes = [0u32; 16];
            if chunk + k < len {
                for (i, l) in lanes.iter_mut().enumerate().take(L::N) {
                    *l = elem(i, chunk + k).to_monty();
                }
            }
            s[CAP + k] = unsafe { L::load(&lanes) };
        }
        unsafe { permute_regs(p, sparse, &mut s) };
    }
    let mut leaf = [unsafe { L::zero() }; H];
    leaf.copy_from_slice(&s[CAP..CAP + H]);
    unsafe { store_rows(&leaf, out) };
}

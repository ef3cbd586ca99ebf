//! Poseidon1 (widths 16 and 24) on N states at once, written once over the [`Lanes`] register
//! type of `packed.rs` (lane i of every register belongs to state i): sixteen states in
//! AVX-512 registers, eight in AVX2. Used by leanSig devnet 4's key generation, whose chains
//! and leaves are independent hashes (`devnet4.rs`).
//!
//! Rounds as in `poseidon1.rs`; with `sparse` the partial rounds take the sparse form of
//! `poseidon1_fast.rs` (ePrint 2019/458 appendix B), else the textbook dense product. Values
//! stay canonical between operations. Matrix products reduce late ([`MatrixLanes`]): the
//! width-16 MDS matrix's small integer entries give sums of products below 2^40, reduced once
//! per output; field entries (width 24 with `Form::circulant_ntt` off, the sparse form's
//! matrices) are summed in pairs, one Montgomery reduction per pair. With the switch on, width
//! 24's MDS product is a convolution ([`circulant24`]: transforms and length-3 convolutions of
//! lane-wise products). The sparse rounds' x_j + v_j x0 are lane-wise Montgomery products.
//!
//! With `Form::mds16_crt`, width 16's small-entry MDS product is split by the CRT
//! ([`MatrixLanes::small_mds_crt`]: 128 integer products instead of 256).
//!
//! Cost per state, width 16 (products): full rounds 7 x 128 (CRT split; 256 whole) plus the
//! sparse form's dense B_0 M, 256; partial rounds 20 x 31 (sparse) or 20 x 128 (dense);
//! S-boxes 8 x 16 x 2 + 20 x 2. Width 24: 7 x 62 (convolution; 576 dense) + 576, partial
//! rounds 23 x 47, S-boxes 8 x 24 x 2 + 23 x 2.
//!
//! Every function is `unsafe` because the lane operations are intrinsics; all are
//! `#[inline(always)]` and reach machine code only inside the `#[target_feature]` entry
//! points of `poseidon1_avx512.rs` and `poseidon1_avx2.rs`, whose callers check the CPU first.
//! No closures here: one left out of line would call every intrinsic out of line.

use crate::koalabear::{Kb, P};
use crate::packed::{each_entry, EntryOp, Lanes};
use crate::poseidon1::Poseidon1;
use crate::poseidon1_circulant::{crt_index, Circulant24, SmallCrt16};
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
    /// x <- M x for width 16's small-entry circulant matrix split by the CRT ([`SmallCrt16`]):
    /// the halves' sums and biased differences (x_lo + p - x_hi) in 32-bit lanes, a cyclic
    /// and a negacyclic length-8 product of unsigned 32 x 32-bit products in wrapping 64-bit
    /// lanes (128 instead of 256), then (u + v + off) / 2 and (u - v + off) / 2 reduced once
    /// per output.
    unsafe fn small_mds_crt(k: &SmallCrt16, x: &mut [Self; 16]);
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

/// Forward length-8 transform on lanes, as `poseidon1_circulant::ntt8` (natural order in,
/// bit-reversed out; `tw` = [w, w^2, w^3]).
#[inline(always)]
unsafe fn ntt8<L: Lanes>(x: &mut [L; 8], tw: &[Kb; 3]) {
    // SAFETY (every block): the caller runs this under the instruction set of `L`.
    unsafe {
        for j in 0..4 {
            let (u, v) = (x[j], x[j + 4]);
            x[j] = L::add(u, v);
            x[j + 4] = if j == 0 { L::sub(u, v) } else { L::mul(L::sub(u, v), splat(tw[j - 1])) };
        }
        for base in [0, 4] {
            let (u, v) = (x[base], x[base + 2]);
            x[base] = L::add(u, v);
            x[base + 2] = L::sub(u, v);
            let (u, v) = (x[base + 1], x[base + 3]);
            x[base + 1] = L::add(u, v);
            x[base + 3] = L::mul(L::sub(u, v), splat(tw[1]));
        }
        for base in [0, 2, 4, 6] {
            let (u, v) = (x[base], x[base + 1]);
            x[base] = L::add(u, v);
            x[base + 1] = L::sub(u, v);
        }
    }
}

/// Inverse length-8 transform on lanes without the 1/8, as `poseidon1_circulant::intt8`
/// (bit-reversed order in, natural out; `tw` = [w^-1, w^-2, w^-3]).
#[inline(always)]
unsafe fn intt8<L: Lanes>(x: &mut [L; 8], tw: &[Kb; 3]) {
    // SAFETY (every block): the caller runs this under the instruction set of `L`.
    unsafe {
        for base in [0, 2, 4, 6] {
            let (u, v) = (x[base], x[base + 1]);
            x[base] = L::add(u, v);
            x[base + 1] = L::sub(u, v);
        }
        for base in [0, 4] {
            let (u, v) = (x[base], x[base + 2]);
            x[base] = L::add(u, v);
            x[base + 2] = L::sub(u, v);
            let (u, v) = (x[base + 1], L::mul(x[base + 3], splat(tw[1])));
            x[base + 1] = L::add(u, v);
            x[base + 3] = L::sub(u, v);
        }
        for j in 0..4 {
            let u = x[j];
            let v = if j == 0 { x[j + 4] } else { L::mul(x[j + 4], splat(tw[j - 1])) };
            x[j] = L::add(u, v);
            x[j + 4] = L::sub(u, v);
        }
    }
}

/// x <- M x for a circulant 24 x 24 matrix in its convolution form (`poseidon1_circulant.rs`):
/// the 3 x 8 CRT array, a length-8 transform per row, per frequency a length-3 cyclic
/// convolution with the kernel ([`conv3`], 4 products), the inverse transforms: 62 lane
/// products instead of the dense form's 576.
#[inline(always)]
unsafe fn circulant24<L: MatrixLanes, const W: usize>(c: &Circulant24, x: &mut [L; W]) {
    let x: &mut [L; 24] = x.as_mut_slice().try_into().expect("the convolution form is width 24's");
    // SAFETY (every block): the caller runs this under the instruction set of `L`.
    unsafe {
        let mut h: [[L; 8]; 3] = core::array::from_fn(|a| core::array::from_fn(|b| x[crt_index(a, b)]));
        for row in h.iter_mut() {
            ntt8(row, &c.fwd);
        }
        let mut y = [[L::zero(); 8]; 3];
        for k in 0..8 {
            [y[0][k], y[1][k], y[2][k]] = conv3(&c.conv[k], [h[0][k], h[1][k], h[2][k]]);
        }
        for (a, ya) in y.iter_mut().enumerate() {
            intt8(ya, &c.inv);
            for (b, v) in ya.iter().enumerate() {
                x[crt_index(a, b)] = *v;
            }
        }
    }
}

/// The length-3 cyclic convolution of `poseidon1_circulant::conv3` on lanes (4 products).
#[inline(always)]
unsafe fn conv3<L: Lanes>(c: &[Kb; 4], x: [L; 3]) -> [L; 3] {
    // SAFETY: the caller runs this under the instruction set of `L`.
    unsafe {
        let (b0, b1) = (L::sub(x[0], x[2]), L::sub(x[1], x[2]));
        let s = L::mul(L::add(L::add(x[0], x[1]), x[2]), splat(c[0]));
        let (m0, m1, m2) = (L::mul(b0, splat(c[1])), L::mul(b1, splat(c[2])), L::mul(L::add(b0, b1), splat(c[3])));
        let t = L::sub(s, m2);
        [L::add(t, m0), L::sub(L::sub(L::add(s, L::add(m2, m2)), m0), m1), L::add(t, m1)]
    }
}

/// The matrix of a full round.
#[derive(Clone, Copy)]
enum Matrix<'a, const W: usize> {
    /// Small integer entries (width 16's MDS), [`MatrixLanes::small_mds`].
    Small(&'a [[u64; W]]),
    /// Width 16's MDS split by the CRT, [`MatrixLanes::small_mds_crt`].
    SmallCrt(&'a SmallCrt16),
    /// Field entries, rows: a [`MatrixLanes::dot`] per output.
    Dense(&'a [[Kb; W]]),
    /// Width 24's circulant MDS matrix in its convolution form.
    Circulant(&'a Circulant24),
}

/// A full round: constants, S-box on every lane, then the matrix.
#[inline(always)]
unsafe fn full_round<L: MatrixLanes, const W: usize>(rc: &[Kb; W], m: Matrix<'_, W>, x: &mut [L; W]) {
    // SAFETY (every block): the caller runs this under the instruction set of `L`.
    let mut neg = [0i32; W];
    for (n, c) in neg.iter_mut().zip(rc) {
        *n = neg_form(*c);
    }
    unsafe { crate::packed::sbox_layer(x, &neg) };
    unsafe { apply_matrix(m, x) };
}

/// x <- M x for a full round's matrix.
#[inline(always)]
unsafe fn apply_matrix<L: MatrixLanes, const W: usize>(m: Matrix<'_, W>, x: &mut [L; W]) {
    // SAFETY (every block): the caller runs this under the instruction set of `L`.
    match m {
        Matrix::Small(rows) => unsafe { L::small_mds(rows, x) },
        Matrix::SmallCrt(k) => unsafe { L::small_mds_crt(k, x.as_mut_slice().try_into().expect("the CRT split is width 16's")) },
        Matrix::Dense(a) => unsafe { dense(a, x) },
        Matrix::Circulant(c) => unsafe { circulant24(c, x) },
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
    let form = crate::poseidon1::form();
    let mds = if p.small {
        match p.small_crt.as_ref().filter(|_| form.mds16_crt) {
            Some(k) => Matrix::SmallCrt(k),
            None => Matrix::Small(&p.rows[..]),
        }
    } else {
        match p.circulant.as_ref().filter(|_| form.circulant_ntt) {
            Some(c) => Matrix::Circulant(c),
            None => Matrix::Dense(&f.m),
        }
    };
    // SAFETY (every block): the caller runs this under the instruction set of `L`.
    unsafe {
        if sparse {
            for r in 0..4 {
                full_round(&f.init_rc[r], if r == 3 { Matrix::Dense(&f.pre) } else { mds }, x);
            }
            for i in 0..p.partial {
                let x0 = L::add_rc_cube(x[0], splat_neg(f.k[i]));
                x[0] = x0;
                let y0 = L::dot(&f.w[i], x);
                each_entry::<L, W, 1, _>(x, &mut SparseEntry { x0, v: &f.v[i] });
                x[0] = y0;
            }
            for c in &f.term_rc {
                full_round(c, mds, x);
            }
        } else {
            for (r, c) in p.rc.iter().enumerate() {
                if r < 4 || r >= 4 + p.partial {
                    full_round(c, mds, x);
                } else {
                    x[0] = L::add_rc_cube(x[0], splat_neg(c[0]));
                    for j in 1..W {
                        x[j] = L::add(x[j], splat(c[j]));
                    }
                    apply_matrix(mds, x);
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

/// Width 16's CRT-split MDS product ([`MatrixLanes::small_mds_crt`]) on the first `L::N`
/// of `states`, for the lane tests.
#[cfg(test)]
#[inline(always)]
pub(crate) unsafe fn small_mds_crt_states<L: MatrixLanes>(k: &SmallCrt16, states: &mut [[Kb; 16]]) {
    // SAFETY: the caller runs this under the instruction set of `L`.
    unsafe {
        let mut x: [L; 16] = load_rows(states);
        L::small_mds_crt(k, &mut x);
        store_rows(&x, states);
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

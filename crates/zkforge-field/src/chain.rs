//! Exponentiation by fixed public exponents (square roots, the Legendre symbol, Tonelli-Shanks)
//! along a plan computed at compile time.
//!
//! A plan is a straight-line program over a few registers of field elements (register 0 holds
//! the base): runs of squarings and products of two registers. Two sources of plans:
//! - an addition chain stored for that exponent (`chain_data.rs`, generated from the
//!   mmcloughlin/addchain v0.4.0 listings in `crates/zkforge-field/chains/`; its dictionary and
//!   sliding-window searches follow Bos-Coster and Bergeron-Berstel-Brlek, see addchain's
//!   bibliography): for BLS12-381's (p + 1) / 4, 373 squarings and 76 products;
//! - the sliding-window decomposition of the exponent (Menezes, van Oorschot, Vanstone,
//!   Handbook of Applied Cryptography, algorithm 14.85) with the window width w in 3..=6 that
//!   needs the fewest operations, counting the 2^(w-1) odd powers of its table: for the same
//!   exponent w = 5, 376 squarings and 81 products.
//!
//! [`PowPlan::new`] evaluates every stored program's exponent at compile time and takes one
//! only for the exponent it equals exactly and only where it is cheaper than the window plan,
//! so no stored chain is trusted. [`crate::backend::set_pow_chain`] picks between the two at
//! run time. Each run of squarings goes to one assembly loop ([`crate::backend`]'s
//! `mont_square_n_lazy`, blst's `sqr_n_mul` shape) that keeps the value in [0, 2p) and in
//! memory with plain word stores, so no per-squaring dispatch, final subtraction or vector copy
//! sits on the critical path; each product reduces fully.
//!
//! The exponents are public constants and the plan depends only on them, so every run performs
//! the same operation sequence for every base: constant time in the base.

use crate::backend;
use crate::mont::{FieldConfig, Fp};

/// Most instructions in a plan (the window plans of the 512-bit test exponents stay far below).
const MAX_OPS: usize = 640;
/// Most registers a plan uses: a width-6 window table (32 odd powers, the square, the
/// accumulator) or a stored chain (up to 29).
pub(crate) const MAX_REGS: usize = 40;

const SQR: u8 = 0;
const MUL: u8 = 1;
/// A product whose two inputs may both be lazy (below 2p): the first is reduced first.
const MUL_REDUCE_A: u8 = 2;

/// One instruction of a [`PowPlan`]: regs[dst] = regs[a]^(2^n) (a copy for n = 0), or
/// regs[dst] = regs[a] * regs[b].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Op {
    kind: u8,
    dst: u8,
    a: u8,
    /// The second factor of a product, the squaring count of a squaring run.
    b: u8,
}

impl Op {
    /// regs[dst] = regs[src]^(2^n).
    pub(crate) const fn sqr(dst: u8, src: u8, n: u8) -> Op {
        Op { kind: SQR, dst, a: src, b: n }
    }

    /// regs[dst] = regs[a] * regs[b].
    pub(crate) const fn mul(dst: u8, a: u8, b: u8) -> Op {
        Op { kind: MUL, dst, a, b }
    }

    /// True for a squaring run.
    pub(crate) fn is_sqr(&self) -> bool {
        self.kind == SQR
    }

    /// True for a product whose first input must be reduced below p first.
    pub(crate) fn reduce_a(&self) -> bool {
        self.kind == MUL_REDUCE_A
    }

    /// (destination, first input, second input or squaring count), as register indices.
    pub(crate) fn regs(&self) -> (usize, usize, usize) {
        (self.dst as usize, self.a as usize, self.b as usize)
    }
}

/// A compile-time plan for x^e with e fixed: a straight-line program of [`Op`]s over
/// [`MAX_REGS`] registers, register 0 holding x, the result in `out`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PowPlan {
    ops: [Op; MAX_OPS],
    len: usize,
    /// The result's register; `None` for exponent 0 (the result is 1).
    out: Option<u8>,
    /// True when the result may be lazy (below 2p) and needs one subtraction.
    out_lazy: bool,
    /// Squarings plus products.
    cost: usize,
}

const fn bit(exp: &[u64], i: usize) -> u64 {
    (exp[i / 64] >> (i % 64)) & 1
}

/// Exponents as 8 little-endian words (512 bits: every plan here).
type Exp = [u64; 8];

/// The register of the window table's entry k, x^(2k + 1).
const fn table_reg(k: usize) -> u8 {
    if k == 0 {
        0
    } else {
        (k + 1) as u8
    }
}

const fn exp_eq(a: &Exp, b: &[u64]) -> bool {
    let mut i = 0;
    while i < 8 {
        let w = if i < b.len() { b[i] } else { 0 };
        if a[i] != w {
            return false;
        }
        i += 1;
    }
    let mut j = 8;
    while j < b.len() {
        if b[j] != 0 {
            return false;
        }
        j += 1;
    }
    true
}

impl PowPlan {
    const EMPTY: PowPlan = PowPlan { ops: [Op::sqr(0, 0, 0); MAX_OPS], len: 0, out: None, out_lazy: false, cost: 0 };

    /// The plan for `exp` (little-endian words): the stored addition chain for exactly this
    /// exponent where there is one and it is cheaper, else the cheapest sliding window.
    pub const fn new(exp: &[u64]) -> Self {
        let mut best = Self::window(exp);
        let mut i = 0;
        while i < crate::chain_data::CHAINS.len() {
            let c = Self::from_program(crate::chain_data::CHAINS[i], 1);
            if exp_eq(&c.exponent(), exp) && c.cost < best.cost {
                best = c;
            }
            i += 1;
        }
        best
    }

    /// The cheapest sliding-window plan for `exp`, w in 3..=6.
    pub const fn window(exp: &[u64]) -> Self {
        let mut best = Self::with_window(exp, 3);
        let mut w = 4;
        while w <= 6 {
            let p = Self::with_window(exp, w);
            if p.cost < best.cost {
                best = p;
            }
            w += 1;
        }
        best
    }

    /// The plan running `ops` (registers below [`MAX_REGS`], x in register 0), result in `out`.
    const fn from_program(ops: &[Op], out: u8) -> Self {
        assert!(ops.len() <= MAX_OPS, "program too long for PowPlan");
        let mut plan = Self::EMPTY;
        let mut i = 0;
        while i < ops.len() {
            plan.ops[i] = ops[i];
            i += 1;
        }
        plan.len = ops.len();
        plan.out = Some(out);
        plan.finish();
        plan
    }

    /// Mark the products with two possibly lazy inputs, the result's laziness and the cost;
    /// check that every register index is in range and every register is written before it
    /// is read (register 0, the base, is written on entry).
    const fn finish(&mut self) {
        let mut lazy = [false; MAX_REGS];
        let mut written = [false; MAX_REGS];
        written[0] = true;
        let mut cost = 0;
        let mut i = 0;
        while i < self.len {
            let op = &mut self.ops[i];
            let (d, a, b) = (op.dst as usize, op.a as usize, op.b as usize);
            assert!(d < MAX_REGS && a < MAX_REGS && written[a], "bad register in a PowPlan");
            if op.kind == SQR {
                lazy[d] = if b > 0 { true } else { lazy[a] };
                cost += b;
            } else {
                assert!(b < MAX_REGS && written[b], "bad register in a PowPlan");
                op.kind = if lazy[a] && lazy[b] { MUL_REDUCE_A } else { MUL };
                lazy[d] = false;
                cost += 1;
            }
            written[d] = true;
            i += 1;
        }
        self.out_lazy = match self.out {
            Some(r) => {
                assert!((r as usize) < MAX_REGS && written[r as usize], "bad register in a PowPlan");
                lazy[r as usize]
            }
            None => false,
        };
        self.cost = cost;
    }

    /// The exponent e of x^e the plan computes; panics (a compile error where a constant plan
    /// is built) if any register's exponent would pass 512 bits, so that no program can match
    /// an exponent modulo 2^512.
    pub const fn exponent(&self) -> Exp {
        let mut e = [[0u64; 8]; MAX_REGS];
        e[0][0] = 1;
        let mut i = 0;
        while i < self.len {
            let op = self.ops[i];
            let (d, a) = (op.dst as usize, op.a as usize);
            if op.kind == SQR {
                let mut v = e[a];
                let mut k = 0;
                while k < op.b {
                    assert!(v[7] >> 63 == 0, "PowPlan exponent past 512 bits");
                    let mut j = 7;
                    while j > 0 {
                        v[j] = (v[j] << 1) | (v[j - 1] >> 63);
                        j -= 1;
                    }
                    v[0] <<= 1;
                    k += 1;
                }
                e[d] = v;
            } else {
                let (x, y) = (e[a], e[op.b as usize]);
                let mut carry = 0u64;
                let mut j = 0;
                while j < 8 {
                    let (s1, c1) = x[j].overflowing_add(y[j]);
                    let (s2, c2) = s1.overflowing_add(carry);
                    e[d][j] = s2;
                    carry = (c1 as u64) + (c2 as u64);
                    j += 1;
                }
                assert!(carry == 0, "PowPlan exponent past 512 bits");
            }
            i += 1;
        }
        match self.out {
            Some(r) => e[r as usize],
            None => [0; 8],
        }
    }

    /// The instructions.
    pub(crate) fn ops(&self) -> &[Op] {
        &self.ops[..self.len]
    }

    /// The register holding the result (`None`: the exponent is 0 and the result 1).
    pub(crate) fn out(&self) -> Option<usize> {
        self.out.map(|r| r as usize)
    }

    /// True when the result may be in [p, 2p) and needs one conditional subtraction.
    pub(crate) fn out_lazy(&self) -> bool {
        self.out_lazy
    }

    /// Squarings plus products.
    #[cfg(test)]
    fn cost(&self) -> usize {
        self.cost
    }

    /// Squarings and products apart.
    #[cfg(test)]
    fn counts(&self) -> (usize, usize) {
        let mut s = 0;
        for op in self.ops() {
            if op.is_sqr() {
                s += op.b as usize;
            }
        }
        (s, self.cost - s)
    }

    /// The sliding-window plan with width w: register 0 = x, 1 = x^2, k + 1 = x^(2k + 1) for
    /// k >= 1 (x itself for k = 0), the accumulator after the table.
    const fn with_window(exp: &[u64], w: usize) -> Self {
        let nbits = exp.len() * 64;
        // pass 1: the windows, most significant first, as (squarings before, odd value)
        let mut first: Option<usize> = None;
        let mut steps_sq = [0u16; MAX_OPS];
        let mut steps_idx = [u8::MAX; MAX_OPS];
        let mut nsteps = 0;
        let mut i = nbits as isize - 1;
        let mut pending: u16 = 0;
        let mut max_index = 0usize;
        while i >= 0 {
            if bit(exp, i as usize) == 0 {
                if first.is_some() {
                    pending += 1;
                }
                i -= 1;
                continue;
            }
            // the window [i - l + 1, i], l <= w, ending in a one bit
            let mut l = if w < i as usize + 1 { w } else { i as usize + 1 };
            while bit(exp, i as usize + 1 - l) == 0 {
                l -= 1;
            }
            let mut v = 0usize;
            let mut k = 0;
            while k < l {
                v = (v << 1) | bit(exp, i as usize - k) as usize;
                k += 1;
            }
            let index = v >> 1;
            if index > max_index {
                max_index = index;
            }
            if first.is_none() {
                first = Some(index);
            } else {
                assert!(nsteps < MAX_OPS, "exponent too long for PowPlan");
                steps_sq[nsteps] = pending + l as u16;
                steps_idx[nsteps] = index as u8;
                nsteps += 1;
                pending = 0;
            }
            i -= l as isize;
        }
        if pending > 0 {
            assert!(nsteps < MAX_OPS, "exponent too long for PowPlan");
            steps_sq[nsteps] = pending;
            nsteps += 1;
        }
        let mut plan = Self::EMPTY;
        let Some(first) = first else {
            return plan; // exponent 0
        };
        // pass 2: the program
        let mut n = 0;
        if max_index > 0 {
            plan.ops[n] = Op::sqr(1, 0, 1);
            n += 1;
            let mut k = 1;
            while k <= max_index {
                plan.ops[n] = Op::mul(table_reg(k), table_reg(k - 1), 1);
                n += 1;
                k += 1;
            }
        }
        let acc = (max_index + 2) as u8;
        assert!((acc as usize) < MAX_REGS, "window table too large");
        let mut cur = table_reg(first);
        let mut s = 0;
        while s < nsteps {
            let mut left = steps_sq[s];
            while left > 0 {
                let k = if left > 255 { 255 } else { left };
                assert!(n + 2 <= MAX_OPS, "exponent too long for PowPlan");
                plan.ops[n] = Op::sqr(acc, cur, k as u8);
                n += 1;
                cur = acc;
                left -= k;
            }
            if steps_idx[s] != u8::MAX {
                assert!(n < MAX_OPS, "exponent too long for PowPlan");
                plan.ops[n] = Op::mul(acc, acc, table_reg(steps_idx[s] as usize));
                n += 1;
                cur = acc;
            }
            s += 1;
        }
        plan.len = n;
        plan.out = Some(cur);
        plan.finish();
        plan
    }
}

/// `stored` or `window`, as [`crate::backend::set_pow_chain`] selects.
fn selected(stored: &'static PowPlan, window: &'static PowPlan) -> &'static PowPlan {
    if backend::pow_chain_stored() {
        stored
    } else {
        window
    }
}

impl<C: FieldConfig<N>, const N: usize> Fp<C, N> {
    /// Plan for (p + 1) / 4, the square root when p = 3 mod 4.
    const PLAN_P_PLUS_1_OVER_4: PowPlan = PowPlan::new(&Self::P_PLUS_1_OVER_4);
    /// Plan for (p - 3) / 4 (Fp2 square roots).
    const PLAN_P_MINUS_3_OVER_4: PowPlan = PowPlan::new(&Self::P_MINUS_3_OVER_4);
    /// Plan for (p - 1) / 2 (Euler's criterion).
    const PLAN_P_MINUS_1_OVER_2: PowPlan = PowPlan::new(&Self::P_MINUS_1_OVER_2);
    /// Plan for (T - 1) / 2 (Tonelli-Shanks).
    const PLAN_TRACE_MINUS_1_OVER_2: PowPlan = PowPlan::new(&Self::TRACE_MINUS_1_OVER_2);
    const WINDOW_P_PLUS_1_OVER_4: PowPlan = PowPlan::window(&Self::P_PLUS_1_OVER_4);
    const WINDOW_P_MINUS_3_OVER_4: PowPlan = PowPlan::window(&Self::P_MINUS_3_OVER_4);
    const WINDOW_P_MINUS_1_OVER_2: PowPlan = PowPlan::window(&Self::P_MINUS_1_OVER_2);
    const WINDOW_TRACE_MINUS_1_OVER_2: PowPlan = PowPlan::window(&Self::TRACE_MINUS_1_OVER_2);

    /// The plan for (p + 1) / 4 that [`crate::backend::set_pow_chain`] selects.
    pub(crate) fn plan_p_plus_1_over_4() -> &'static PowPlan {
        selected(&Self::PLAN_P_PLUS_1_OVER_4, &Self::WINDOW_P_PLUS_1_OVER_4)
    }

    /// The plan for (p - 3) / 4 that [`crate::backend::set_pow_chain`] selects.
    pub(crate) fn plan_p_minus_3_over_4() -> &'static PowPlan {
        selected(&Self::PLAN_P_MINUS_3_OVER_4, &Self::WINDOW_P_MINUS_3_OVER_4)
    }

    /// The plan for (p - 1) / 2 that [`crate::backend::set_pow_chain`] selects.
    pub(crate) fn plan_p_minus_1_over_2() -> &'static PowPlan {
        selected(&Self::PLAN_P_MINUS_1_OVER_2, &Self::WINDOW_P_MINUS_1_OVER_2)
    }

    /// The plan for (T - 1) / 2 that [`crate::backend::set_pow_chain`] selects.
    pub(crate) fn plan_trace_minus_1_over_2() -> &'static PowPlan {
        selected(&Self::PLAN_TRACE_MINUS_1_OVER_2, &Self::WINDOW_TRACE_MINUS_1_OVER_2)
    }

    /// self^e along a compile-time plan of e; constant time in `self`.
    pub(crate) fn pow_plan(&self, plan: &PowPlan) -> Self {
        let Some(out) = plan.out() else {
            return Self::ONE;
        };
        let p = &Self::PINV;
        let mut regs = [self.limbs; MAX_REGS];
        for op in plan.ops() {
            let (d, a, b) = op.regs();
            if op.is_sqr() {
                if d == a {
                    backend::mont_square_n_lazy(&mut regs[d], b as u32, p);
                } else if b == 0 {
                    regs[d] = regs[a];
                } else {
                    // the first squaring out of place: its kernel reads the source word by word,
                    // where a copy would load words just stored as a vector (a store-forwarding
                    // stall); the source is reduced first, as for a product of two lazy values
                    regs[d] = backend::mont_square(&backend::portable::reduce_once_ct(regs[a], p), p);
                    backend::mont_square_n_lazy(&mut regs[d], b as u32 - 1, p);
                }
            } else if op.reduce_a() {
                let x = backend::portable::reduce_once_ct(regs[a], p);
                regs[d] = backend::mont_mul(&x, &regs[b], p);
            } else {
                // a Montgomery product of two values below 2p, one of them below p, is below p
                regs[d] = backend::mont_mul(&regs[a], &regs[b], p);
            }
        }
        let mut r = regs[out];
        if plan.out_lazy() {
            r = backend::portable::reduce_once_ct(r, p);
        }
        Self::from_mont_unchecked(r)
    }

    /// (a^e, b^e) for two independent bases along one plan, the two chains interleaved step by
    /// step: each squaring of `a` is followed by the same squaring of `b`, so the out-of-order
    /// core overlaps two dependency chains (on the Intel Xeon of BENCHMARKS.md a chained
    /// BLS12-381 squaring takes 43-45 ns, two interleaved ones 38 ns each). Same operation
    /// sequence for every pair of bases: constant time in both.
    pub(crate) fn pow_plan_x2(a: &Self, b: &Self, plan: &PowPlan) -> (Self, Self) {
        let Some(out) = plan.out() else {
            return (Self::ONE, Self::ONE);
        };
        let p = &Self::PINV;
        let mut regs = [[a.limbs, b.limbs]; MAX_REGS];
        for op in plan.ops() {
            let (d, x, y) = op.regs();
            if op.is_sqr() {
                if d == x {
                    backend::mont_square_n_lazy_x2(&mut regs[d], y as u32, p);
                } else if y == 0 {
                    regs[d] = regs[x];
                } else {
                    // as in `pow_plan`: the first squaring out of place
                    let r0 = backend::mont_square(&backend::portable::reduce_once_ct(regs[x][0], p), p);
                    let r1 = backend::mont_square(&backend::portable::reduce_once_ct(regs[x][1], p), p);
                    regs[d] = [r0, r1];
                    backend::mont_square_n_lazy_x2(&mut regs[d], y as u32 - 1, p);
                }
            } else {
                let (mut x0, mut x1) = (regs[x][0], regs[x][1]);
                if op.reduce_a() {
                    x0 = backend::portable::reduce_once_ct(x0, p);
                    x1 = backend::portable::reduce_once_ct(x1, p);
                }
                let r0 = backend::mont_mul(&x0, &regs[y][0], p);
                let r1 = backend::mont_mul(&x1, &regs[y][1], p);
                regs[d] = [r0, r1];
            }
        }
        let mut r = regs[out];
        if plan.out_lazy() {
            r[0] = backend::portable::reduce_once_ct(r[0], p);
            r[1] = backend::portable::reduce_once_ct(r[1], p);
        }
        (Self::from_mont_unchecked(r[0]), Self::from_mont_unchecked(r[1]))
    }

    /// (a^((p + 1) / 4), b^((p + 1) / 4)), the two exponentiations interleaved (see
    /// [`Fp::pow_p_plus_1_over_4`] and [`Fp::pow_p_minus_3_over_4_x2`]). Constant time.
    ///
    /// ```
    /// use zkforge_field::bls12_381::Fp;
    /// let (a, b) = (Fp::from_u64(11), Fp::from_u64(13));
    /// assert_eq!(Fp::pow_p_plus_1_over_4_x2(&a, &b), (a.pow_p_plus_1_over_4(), b.pow_p_plus_1_over_4()));
    /// ```
    pub fn pow_p_plus_1_over_4_x2(a: &Self, b: &Self) -> (Self, Self) {
        Self::pow_plan_x2(a, b, Self::plan_p_plus_1_over_4())
    }

    /// (a^((p - 3) / 4), b^((p - 3) / 4)), the two exponentiations interleaved (see
    /// [`Fp::pow_p_minus_3_over_4`]); for callers with two independent square roots to take,
    /// such as the two SSWU maps of a hash to G1 or G2. Constant time.
    ///
    /// ```
    /// use zkforge_field::bls12_381::Fp;
    /// let (a, b) = (Fp::from_u64(11), Fp::from_u64(13));
    /// assert_eq!(Fp::pow_p_minus_3_over_4_x2(&a, &b), (a.pow_p_minus_3_over_4(), b.pow_p_minus_3_over_4()));
    /// ```
    pub fn pow_p_minus_3_over_4_x2(a: &Self, b: &Self) -> (Self, Self) {
        Self::pow_plan_x2(a, b, Self::plan_p_minus_3_over_4())
    }

    /// a^((p + 1) / 4): the square root of a when a is a square and p = 3 mod 4 (check the
    /// result's square otherwise). Constant time.
    ///
    /// ```
    /// use zkforge_field::bls12_381::Fp;
    /// let x = Fp::from_u64(5).square();
    /// let r = x.pow_p_plus_1_over_4();
    /// assert_eq!(r.square(), x);
    /// ```
    pub fn pow_p_plus_1_over_4(&self) -> Self {
        self.pow_plan(Self::plan_p_plus_1_over_4())
    }

    /// a^((p - 3) / 4), the exponent of the Fp2 square root and of RFC 9380's sqrt_ratio for
    /// p = 3 mod 4. Constant time.
    ///
    /// ```
    /// use zkforge_field::bls12_381::Fp;
    /// let a = Fp::from_u64(11);
    /// assert_eq!(a.pow_p_minus_3_over_4(), a.pow(&Fp::P_MINUS_3_OVER_4));
    /// ```
    pub fn pow_p_minus_3_over_4(&self) -> Self {
        self.pow_plan(Self::plan_p_minus_3_over_4())
    }
}

#[cfg(test)]
mod tests {
    use super::PowPlan;
    use crate::backend::{set_pow_chain, PowChain};
    use crate::bls12_381::Fp;

    #[test]
    fn plans_match_pow_on_awkward_exponents() {
        let x = Fp::from_u64(0x1234_5678_9abc_def1).square() + Fp::from_u64(3);
        let exps: [[u64; 6]; 9] = [
            [0; 6],
            [1, 0, 0, 0, 0, 0],
            [2, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 1 << 63],
            [u64::MAX; 6],
            [0x8000_0000_0000_0001, 0, 0, 0, 0, 0],
            [0xdead_beef_0000_f00d, 0x0123_4567_89ab_cdef, 0, 0xffff_0000_ffff_0000, 1, 0],
            [0, 0, 0x1_0000, 0, 0, 0],
            [0x5555_5555_5555_5555; 6],
        ];
        for e in &exps {
            let plan = PowPlan::new(e);
            assert_eq!(&plan.exponent()[..6], e, "{e:x?}");
            assert_eq!(x.pow_plan(&plan), x.pow(e), "{e:x?}");
            assert_eq!(Fp::ZERO.pow_plan(&plan), Fp::ZERO.pow(e), "{e:x?}");
            let y = x.square() + Fp::ONE;
            assert_eq!(Fp::pow_plan_x2(&x, &y, &plan), (x.pow(e), y.pow(e)), "{e:x?}");
            assert_eq!(Fp::pow_plan_x2(&y, &Fp::ZERO, &plan), (y.pow(e), Fp::ZERO.pow(e)), "{e:x?}");
        }
    }

    /// Every stored chain is taken for its own exponent and computes it; the window plans
    /// compute theirs; both agree with `pow` on the square-root exponents, under both switch
    /// values.
    #[test]
    fn stored_chains_are_used_and_agree() {
        fn check<C: crate::mont::FieldConfig<N>, const N: usize>(name: &str, stored: usize) {
            type F<C, const N: usize> = crate::mont::Fp<C, N>;
            let exps: [(&[u64; N], &PowPlan, &PowPlan); 4] = [
                (&F::<C, N>::P_PLUS_1_OVER_4, &F::<C, N>::PLAN_P_PLUS_1_OVER_4, &F::<C, N>::WINDOW_P_PLUS_1_OVER_4),
                (&F::<C, N>::P_MINUS_3_OVER_4, &F::<C, N>::PLAN_P_MINUS_3_OVER_4, &F::<C, N>::WINDOW_P_MINUS_3_OVER_4),
                (&F::<C, N>::P_MINUS_1_OVER_2, &F::<C, N>::PLAN_P_MINUS_1_OVER_2, &F::<C, N>::WINDOW_P_MINUS_1_OVER_2),
                (&F::<C, N>::TRACE_MINUS_1_OVER_2, &F::<C, N>::PLAN_TRACE_MINUS_1_OVER_2, &F::<C, N>::WINDOW_TRACE_MINUS_1_OVER_2),
            ];
            let x = F::<C, N>::from_u64(0x1234_5678_9abc_def1).square() + F::<C, N>::from_u64(7);
            let y = x.square() + F::<C, N>::ONE;
            let mut taken = 0;
            for (e, plan, window) in exps {
                assert!(super::exp_eq(&plan.exponent(), e), "{name}");
                assert!(super::exp_eq(&window.exponent(), e), "{name}");
                assert!(plan.cost() <= window.cost(), "{name}");
                taken += (plan.cost() < window.cost()) as usize;
                let want = x.pow(e);
                assert_eq!(x.pow_plan(plan), want, "{name}");
                assert_eq!(x.pow_plan(window), want, "{name}");
                assert_eq!(F::<C, N>::pow_plan_x2(&x, &y, plan), (want, y.pow(e)), "{name}");
                assert_eq!(F::<C, N>::pow_plan_x2(&y, &x, window), (y.pow(e), want), "{name}");
            }
            // the base fields take a stored chain for all four exponents (with p = 3 mod 4,
            // (T - 1) / 2 is (p - 3) / 4); the scalar fields for the two they use
            assert_eq!(taken, stored, "{name}");
        }
        check::<crate::bls12_381::FpConfig, 6>("bls12_381 Fp", 4);
        check::<crate::bls12_381::FrConfig, 4>("bls12_381 Fr", 2);
        check::<crate::bn254::FpConfig, 4>("bn254 Fp", 4);
        check::<crate::bn254::FrConfig, 4>("bn254 Fr", 2);
    }

    #[test]
    fn every_pow_chain_value_gives_the_square_root() {
        let x = Fp::from_u64(0xfeed_beef).square();
        for v in [PowChain::Auto, PowChain::SlidingWindow, PowChain::Stored] {
            set_pow_chain(v);
            let r = x.pow_p_plus_1_over_4();
            assert_eq!(r.square(), x, "{v:?}");
            assert_eq!(x.pow_p_minus_3_over_4(), x.pow(&Fp::P_MINUS_3_OVER_4), "{v:?}");
            assert_eq!(x.legendre(), 1, "{v:?}");
            let (a, b) = Fp::pow_p_plus_1_over_4_x2(&x, &(x + Fp::ONE));
            assert_eq!((a, b), (r, (x + Fp::ONE).pow(&Fp::P_PLUS_1_OVER_4)), "{v:?}");
            // eight at once: on the IFMA lanes where the CPU has them
            let xs: alloc::vec::Vec<Fp> = (0..8u64).map(|k| x + Fp::from_u64(k)).collect();
            let many = crate::tower::pow_p_plus_1_over_4_many::<crate::bls12_381::FpConfig, 6>(&xs);
            let many3 = crate::tower::pow_p_minus_3_over_4_many::<crate::bls12_381::FpConfig, 6>(&xs);
            for (k, xk) in xs.iter().enumerate() {
                assert_eq!(many[k], xk.pow(&Fp::P_PLUS_1_OVER_4), "{v:?}");
                assert_eq!(many3[k], xk.pow(&Fp::P_MINUS_3_OVER_4), "{v:?}");
            }
        }
        set_pow_chain(PowChain::Auto);
    }

    /// A program whose exponent passes 512 bits is refused, not matched modulo 2^512.
    #[test]
    #[should_panic(expected = "past 512 bits")]
    fn exponents_past_512_bits_are_refused() {
        use super::Op;
        let ops = [Op::sqr(1, 0, 255), Op::sqr(1, 1, 255), Op::sqr(1, 1, 3)];
        let _ = PowPlan::from_program(&ops, 1).exponent();
    }

    #[test]
    fn sqrt_plan_cost() {
        // the stored chain for BLS12-381's (p + 1) / 4: 373 squarings and 76 products (the
        // best sliding window, w = 5: 376 squarings and 81 products, its table included)
        assert_eq!(Fp::PLAN_P_PLUS_1_OVER_4.counts(), (373, 76));
        assert_eq!(Fp::WINDOW_P_PLUS_1_OVER_4.counts(), (376, 81));
    }
}

//! Exponentiation by fixed public exponents (square roots, the Legendre symbol, Tonelli-Shanks)
//! along a plan computed at compile time.
//!
//! The plan is the sliding-window decomposition of the exponent (Menezes, van Oorschot,
//! Vanstone, Handbook of Applied Cryptography, algorithm 14.85) with the window width w in 3..=6
//! that needs the fewest products, counting the 2^(w-1) odd powers of the table: for BLS12-381's
//! (p + 1) / 4 that is w = 5, 375 squarings and 66 + 16 products. Each run of squarings goes to
//! one assembly loop ([`crate::backend`]'s `mont_square_n_lazy`, blst's `sqr_n_mul` shape) that
//! keeps the value in [0, 2p) and in memory with plain word stores, so no per-squaring
//! dispatch, final subtraction or vector copy sits on the critical path; each table product
//! reduces fully.
//!
//! The exponents are public constants and the plan depends only on them, so every run performs
//! the same operation sequence for every base: constant time in the base.

use crate::backend;
use crate::mont::{FieldConfig, Fp};

/// Longest plan: one step per exponent bit at most.
const MAX_STEPS: usize = 512;
/// Marks a step without a table product (trailing squarings).
const NO_MUL: u8 = PowPlan::NO_MUL;

/// The sliding-window plan of a fixed exponent: start from the table entry `first`, then for
/// each step square `squarings[i]` times and multiply by table entry `table_index[i]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PowPlan {
    /// Table entry the result starts from (entry k holds a^(2k+1)); `None` for exponent 0.
    first: Option<u8>,
    /// Odd powers a, a^3, ..., a^(2 table_len - 1) the plan uses.
    table_len: usize,
    len: usize,
    squarings: [u16; MAX_STEPS],
    table_index: [u8; MAX_STEPS],
}

const fn bit(exp: &[u64], i: usize) -> u64 {
    (exp[i / 64] >> (i % 64)) & 1
}

impl PowPlan {
    /// The plan for `exp` (little-endian words) with the cheapest window width in 3..=6.
    pub const fn new(exp: &[u64]) -> Self {
        let mut best = Self::with_window(exp, 3);
        let mut w = 4;
        while w <= 6 {
            let p = Self::with_window(exp, w);
            if p.products() < best.products() {
                best = p;
            }
            w += 1;
        }
        best
    }

    /// The `table_index` value of a step without a table product.
    pub(crate) const NO_MUL: u8 = u8::MAX;

    /// The table entry the result starts from (`None` for exponent 0).
    pub(crate) fn first(&self) -> Option<u8> {
        self.first
    }

    /// The number of odd powers in the table.
    pub(crate) fn table_len(&self) -> usize {
        self.table_len
    }

    /// The steps as (squarings, table entry or [`PowPlan::NO_MUL`]).
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    pub(crate) fn steps(&self) -> alloc::vec::Vec<(u16, u8)> {
        (0..self.len).map(|i| (self.squarings[i], self.table_index[i])).collect()
    }

    /// Squarings plus products, the table included (its one squaring and table_len - 1
    /// products).
    pub const fn products(&self) -> usize {
        let mut n = self.table_len;
        let mut i = 0;
        while i < self.len {
            n += self.squarings[i] as usize + (self.table_index[i] != NO_MUL) as usize;
            i += 1;
        }
        n
    }

    const fn with_window(exp: &[u64], w: usize) -> Self {
        let mut plan = PowPlan { first: None, table_len: 0, len: 0, squarings: [0; MAX_STEPS], table_index: [NO_MUL; MAX_STEPS] };
        let nbits = exp.len() * 64;
        assert!(nbits <= MAX_STEPS, "exponent too long for PowPlan");
        let mut i = nbits as isize - 1;
        let mut pending: u16 = 0;
        let mut max_index = 0usize;
        while i >= 0 {
            if bit(exp, i as usize) == 0 {
                if plan.first.is_some() {
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
            if plan.first.is_none() {
                plan.first = Some(index as u8);
            } else {
                plan.squarings[plan.len] = pending + l as u16;
                plan.table_index[plan.len] = index as u8;
                plan.len += 1;
                pending = 0;
            }
            i -= l as isize;
        }
        if pending > 0 {
            plan.squarings[plan.len] = pending;
            plan.len += 1;
        }
        plan.table_len = if plan.first.is_some() { max_index + 1 } else { 0 };
        plan
    }
}

impl<C: FieldConfig<N>, const N: usize> Fp<C, N> {
    /// Plan for (p + 1) / 4, the square root when p = 3 mod 4.
    pub(crate) const PLAN_P_PLUS_1_OVER_4: PowPlan = PowPlan::new(&Self::P_PLUS_1_OVER_4);
    /// Plan for (p - 3) / 4 (Fp2 square roots).
    pub(crate) const PLAN_P_MINUS_3_OVER_4: PowPlan = PowPlan::new(&Self::P_MINUS_3_OVER_4);
    /// Plan for (p - 1) / 2 (Euler's criterion).
    pub(crate) const PLAN_P_MINUS_1_OVER_2: PowPlan = PowPlan::new(&Self::P_MINUS_1_OVER_2);
    /// Plan for (T - 1) / 2 (Tonelli-Shanks).
    pub(crate) const PLAN_TRACE_MINUS_1_OVER_2: PowPlan = PowPlan::new(&Self::TRACE_MINUS_1_OVER_2);

    /// self^e along a compile-time plan of e; constant time in `self`.
    pub(crate) fn pow_plan(&self, plan: &PowPlan) -> Self {
        let Some(first) = plan.first else {
            return Self::ONE;
        };
        let mut table = [*self; 32];
        if plan.table_len > 1 {
            let sq = self.square();
            for k in 1..plan.table_len {
                table[k] = table[k - 1] * sq;
            }
        }
        let mut r = table[first as usize].limbs;
        for i in 0..plan.len {
            backend::mont_square_n_lazy(&mut r, plan.squarings[i] as u32, &Self::PINV);
            let k = plan.table_index[i];
            if k != NO_MUL {
                // a Montgomery product with one input below 2p and one below p is fully reduced
                r = backend::mont_mul(&r, &table[k as usize].limbs, &Self::PINV);
            }
        }
        if plan.len > 0 && plan.table_index[plan.len - 1] == NO_MUL {
            r = backend::portable::reduce_once_ct(r, &Self::PINV);
        }
        Self::from_mont_unchecked(r)
    }

    /// (a^e, b^e) for two independent bases along one plan, the two chains interleaved step by
    /// step: each squaring of `a` is followed by the same squaring of `b`, so the out-of-order
    /// core overlaps two dependency chains (on the Intel Xeon of BENCHMARKS.md a chained
    /// BLS12-381 squaring takes 43-45 ns, two interleaved ones 38 ns each). Same operation
    /// sequence for every pair of bases: constant time in both.
    pub(crate) fn pow_plan_x2(a: &Self, b: &Self, plan: &PowPlan) -> (Self, Self) {
        let Some(first) = plan.first else {
            return (Self::ONE, Self::ONE);
        };
        let mut ta = [*a; 32];
        let mut tb = [*b; 32];
        if plan.table_len > 1 {
            let (sa, sb) = (a.square(), b.square());
            for k in 1..plan.table_len {
                ta[k] = ta[k - 1] * sa;
                tb[k] = tb[k - 1] * sb;
            }
        }
        let mut r = [ta[first as usize].limbs, tb[first as usize].limbs];
        for i in 0..plan.len {
            backend::mont_square_n_lazy_x2(&mut r, plan.squarings[i] as u32, &Self::PINV);
            let k = plan.table_index[i];
            if k != NO_MUL {
                r[0] = backend::mont_mul(&r[0], &ta[k as usize].limbs, &Self::PINV);
                r[1] = backend::mont_mul(&r[1], &tb[k as usize].limbs, &Self::PINV);
            }
        }
        if plan.len > 0 && plan.table_index[plan.len - 1] == NO_MUL {
            r[0] = backend::portable::reduce_once_ct(r[0], &Self::PINV);
            r[1] = backend::portable::reduce_once_ct(r[1], &Self::PINV);
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
        Self::pow_plan_x2(a, b, &Self::PLAN_P_PLUS_1_OVER_4)
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
        Self::pow_plan_x2(a, b, &Self::PLAN_P_MINUS_3_OVER_4)
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
        self.pow_plan(&Self::PLAN_P_PLUS_1_OVER_4)
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
        self.pow_plan(&Self::PLAN_P_MINUS_3_OVER_4)
    }
}

#[cfg(test)]
mod tests {
    use super::PowPlan;
    use crate::bls12_381::Fp;

    #[test]
    fn plans_match_pow_on_awkward_exponents() {
        let x = Fp::from_u64(0x1234_5678_9abc_def1).square() + Fp::from_u64(3);
        let exps: [[u64; 6]; 8] = [
            [0; 6],
            [1, 0, 0, 0, 0, 0],
            [2, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 1 << 63],
            [u64::MAX; 6],
            [0x8000_0000_0000_0001, 0, 0, 0, 0, 0],
            [0xdead_beef_0000_f00d, 0x0123_4567_89ab_cdef, 0, 0xffff_0000_ffff_0000, 1, 0],
            [0, 0, 0x1_0000, 0, 0, 0],
        ];
        for e in &exps {
            let plan = PowPlan::new(e);
            assert_eq!(x.pow_plan(&plan), x.pow(e), "{e:x?}");
            assert_eq!(Fp::ZERO.pow_plan(&plan), Fp::ZERO.pow(e), "{e:x?}");
            let y = x.square() + Fp::ONE;
            assert_eq!(Fp::pow_plan_x2(&x, &y, &plan), (x.pow(e), y.pow(e)), "{e:x?}");
            assert_eq!(Fp::pow_plan_x2(&y, &Fp::ZERO, &plan), (y.pow(e), Fp::ZERO.pow(e)), "{e:x?}");
        }
    }

    #[test]
    fn sqrt_plan_cost() {
        // 375 squarings and 66 products plus a 16-entry table for BLS12-381's (p + 1) / 4
        assert!(Fp::PLAN_P_PLUS_1_OVER_4.products() <= 457, "{}", Fp::PLAN_P_PLUS_1_OVER_4.products());
    }
}

//! Sparse products in Fp12 = Fp6\[w\]/(w^2 - v), Fp6 = Fp2\[v\]/(v^3 - xi), for multiplying a
//! Miller-loop accumulator by a line. A line has three non-zero Fp2 coefficients out of six:
//! slots 0, 1, 4 (1, v, vw) on an M-type twist (BLS12-381) and slots 0, 3, 4 (1, w, vw) on a
//! D-type twist (BN254). Both products cost 13 Fp2 multiplications instead of the 18 of a
//! dense Karatsuba product (Aranha, Karabina, Longa, Gebotys, Lopez, "Faster explicit
//! formulas for computing pairings over ordinary curves", ePrint 2010/526, section 4).
//!
//! With the lazy tower (`zkforge_field::tower::lazy`, on by default with the MULX/ADX
//! kernels) the three Fp6 parts are kept double width and each of the 12 output
//! coefficients is reduced once: 39 N-limb products + 12 reductions instead of 13 * 6 = 78.
//!
//! A prepared line divided by its constant coefficient (`config::PreparedLines`) has a one
//! in that slot, and its product takes 9 Fp2 multiplications (`mul_by_014_unit`,
//! `mul_by_034_unit`): f (1 + L) = f + f L with L's two remaining coefficients, by Karatsuba
//! over the Fp6 halves.

use zkforge_field::tower::lazy::{self, Fp6Wide};
use zkforge_field::tower::{Fp12, Fp2, Fp6, TowerConfig};

/// a * (b0 + b1 v) in Fp6: 5 Fp2 multiplications (a0 b0, a1 b1, a2 b1, a2 b0 and the middle
/// term a0 b1 + a1 b0 by Karatsuba).
/// Out of line: inlined twice into each line product it made those functions 17,000
/// instructions long, more than the instruction cache holds with the loop around them.
#[inline(never)]
pub fn fp6_mul_by_01<C: TowerConfig<N>, const N: usize>(a: &Fp6<C, N>, b0: &Fp2<C, N>, b1: &Fp2<C, N>) -> Fp6<C, N> {
    let t0 = a.c0 * *b0;
    let t1 = a.c1 * *b1;
    // v^3 = xi; a2 b1 and a2 b0 directly (their Karatsuba forms cost the same products and
    // more additions)
    let c0 = C::mul_by_xi(&(a.c2 * *b1)) + t0;
    let c1 = (a.c0 + a.c1) * (*b0 + *b1) - t0 - t1;
    let c2 = a.c2 * *b0 + t1;
    Fp6::new(c0, c1, c2)
}

/// a * (b1 v) in Fp6: 3 Fp2 multiplications.
#[inline(always)]
pub fn fp6_mul_by_1<C: TowerConfig<N>, const N: usize>(a: &Fp6<C, N>, b1: &Fp2<C, N>) -> Fp6<C, N> {
    Fp6::new(C::mul_by_xi(&(a.c2 * *b1)), a.c0 * *b1, a.c1 * *b1)
}

/// f * (c0 + c1 v + c4 v w): the M-twist line product, 13 Fp2 multiplications.
#[inline]
pub fn mul_by_014<C: TowerConfig<N>, const N: usize>(f: &Fp12<C, N>, c0: &Fp2<C, N>, c1: &Fp2<C, N>, c4: &Fp2<C, N>) -> Fp12<C, N> {
    if lazy::use_lazy::<C, N>() {
        let (mut aa, mut bb, mut mid) = (Fp6Wide::ZERO, Fp6Wide::ZERO, Fp6Wide::ZERO);
        Fp6Wide::mul_by_01_to(&mut aa, &f.c0, c0, c1);
        Fp6Wide::mul_by_1_to(&mut bb, &f.c1, c4);
        Fp6Wide::mul_by_01_to(&mut mid, &(f.c0 + f.c1), c0, &(*c1 + *c4));
        return lazy::fp12_karatsuba_finish(&aa, &bb, &mut mid);
    }
    let aa = fp6_mul_by_01(&f.c0, c0, c1);
    let bb = fp6_mul_by_1(&f.c1, c4);
    let s = *c1 + *c4;
    let mid = fp6_mul_by_01(&(f.c0 + f.c1), c0, &s) - aa - bb;
    Fp12::new(bb.mul_by_nonresidue() + aa, mid)
}

/// f * (d0 + d3 w + d4 v w): the D-twist line product, 13 Fp2 multiplications.
#[inline]
pub fn mul_by_034<C: TowerConfig<N>, const N: usize>(f: &Fp12<C, N>, d0: &Fp2<C, N>, d3: &Fp2<C, N>, d4: &Fp2<C, N>) -> Fp12<C, N> {
    if lazy::use_lazy::<C, N>() {
        let (mut aa, mut bb, mut mid) = (Fp6Wide::ZERO, Fp6Wide::ZERO, Fp6Wide::ZERO);
        Fp6Wide::mul_by_fp2_to(&mut aa, &f.c0, d0);
        Fp6Wide::mul_by_01_to(&mut bb, &f.c1, d3, d4);
        Fp6Wide::mul_by_01_to(&mut mid, &(f.c0 + f.c1), &(*d0 + *d3), d4);
        return lazy::fp12_karatsuba_finish(&aa, &bb, &mut mid);
    }
    let aa = f.c0.mul_by_fp2(d0);
    let bb = fp6_mul_by_01(&f.c1, d3, d4);
    let s = *d0 + *d3;
    let mid = fp6_mul_by_01(&(f.c0 + f.c1), &s, d4) - aa - bb;
    Fp12::new(bb.mul_by_nonresidue() + aa, mid)
}

/// f * (1 + c1 v + c4 v w): the M-twist line product of a line whose constant coefficient is
/// one, 9 Fp2 multiplications. With F0 v = v * f.c0 and F1 v = v * f.c1 (shifts):
/// a = c1 F0 v, b = c4 F1 v, m = (c1 + c4)(F0 + F1) v (3 each), then
/// f.c0 + a + v b and f.c1 + m - a - b (the Karatsuba finish, plus f).
#[inline]
pub fn mul_by_014_unit<C: TowerConfig<N>, const N: usize>(f: &Fp12<C, N>, c1: &Fp2<C, N>, c4: &Fp2<C, N>) -> Fp12<C, N> {
    if lazy::use_lazy::<C, N>() {
        let (mut aa, mut bb, mut mid) = (Fp6Wide::ZERO, Fp6Wide::ZERO, Fp6Wide::ZERO);
        Fp6Wide::mul_by_1_to(&mut aa, &f.c0, c1);
        Fp6Wide::mul_by_1_to(&mut bb, &f.c1, c4);
        Fp6Wide::mul_by_1_to(&mut mid, &(f.c0 + f.c1), &(*c1 + *c4));
        let r = lazy::fp12_karatsuba_finish(&aa, &bb, &mut mid);
        return Fp12::new(r.c0 + f.c0, r.c1 + f.c1);
    }
    mul_by_014(f, &Fp2::ONE, c1, c4)
}

/// f * (d0 + d3 w + v w): the D-twist line product of a line whose constant coefficient (slot
/// 4) is one, 9 Fp2 multiplications: a = d0 F0, b = d3 F1, m = (d0 + d3)(F0 + F1) (3 each),
/// then a + v b + v^2 F1 and m - a - b + v F0 (the Karatsuba finish, plus the shifts of f).
#[inline]
pub fn mul_by_034_unit<C: TowerConfig<N>, const N: usize>(f: &Fp12<C, N>, d0: &Fp2<C, N>, d3: &Fp2<C, N>) -> Fp12<C, N> {
    if lazy::use_lazy::<C, N>() {
        let (mut aa, mut bb, mut mid) = (Fp6Wide::ZERO, Fp6Wide::ZERO, Fp6Wide::ZERO);
        Fp6Wide::mul_by_fp2_to(&mut aa, &f.c0, d0);
        Fp6Wide::mul_by_fp2_to(&mut bb, &f.c1, d3);
        Fp6Wide::mul_by_fp2_to(&mut mid, &(f.c0 + f.c1), &(*d0 + *d3));
        let r = lazy::fp12_karatsuba_finish(&aa, &bb, &mut mid);
        // v^2 F1 and v F0 (products by the Fp6 non-residue v: shifts and one product by xi each)
        return Fp12::new(r.c0 + f.c1.mul_by_nonresidue().mul_by_nonresidue(), r.c1 + f.c0.mul_by_nonresidue());
    }
    mul_by_034(f, d0, d3, &Fp2::ONE)
}

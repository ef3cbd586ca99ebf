//! Fp12 on eight AVX-512 IFMA lanes for the pairing: the Miller-loop accumulator (square and
//! the sparse line products of both twists) and, with `ifma_gt`'s kernels, the cyclotomic
//! arithmetic of the final exponentiation, for both towers: BLS12-381 on 8 limbs of 52 bits
//! (R = 2^416, xi = 1 + u) and BN254 on 6 (R = 2^312, xi = 9 + u). The kernels are generic
//! over the limb count M; t below is the real part of xi (1 or 9), a constant after inlining.
//!
//! Layout: lane i holds the Fp2 coefficient i of f in the order (c0.c0, c0.c1, c0.c2, c1.c0,
//! c1.c1, c1.c2); real and imaginary parts are two register sets of M 52-bit limbs in the
//! Montgomery form of `ifma`, each coordinate below 3p between operations; lanes 6 and 7 are
//! zero. A lane Fp2 product is Karatsuba's three Fp products (three 8-lane products for eight
//! Fp2 products).
//!
//! - Square: the complex method over Fp6 (Devegili, O hEigeartaigh, Scott, Dahab, ePrint
//!   2006/471): t = a0 a1, s = (a0 + a1)(a0 + v a1), c1 = 2t, c0 = s - t - v t, each Fp6
//!   product by Karatsuba; the operand lanes of t are K(a0) and K(a1) with
//!   K(z) = (z0, z1, z2, z1 + z2, z0 + z1, z0 + z2), and K is linear, so those of s are
//!   K(a0) + K(a1) and K(a0) + K(v a1): two lane Fp2 products (6 lane Fp products for the 36
//!   Fp products of the square), then lane permutations and lazy additions.
//! - M-twist line product (BLS12-381), f (l0 + l1 v + l4 v w): the 15 Fp2 products of a
//!   schoolbook f_0 (l0 + l1 v) (6), f_1 l4 v (3) and (f_0 + f_1)(l0 + (l1 + l4) v) (6) in two
//!   lane Fp2 products (6 lane Fp products), then the Karatsuba combination c0 = aa + v bb,
//!   c1 = mid - aa - bb as permutations and lazy sums.
//! - D-twist line product (BN254), f (d0 + d3 w + d4 v w): likewise f_0 d0 (3), f_1 (d3 + d4 v)
//!   (6) and (f_0 + f_1)((d0 + d3) + d4 v) (6), two lane Fp2 products.
//! - The line enters the lanes with one lane product: its six Fp coordinates (64-bit Montgomery
//!   form) times (k, px k, py k) mod p per pair ([`LineScale`], k = `Consts52::k_in`) give l0,
//!   lx px and ly py in the 52-bit form at once.
//!
//! Every combination adds a multiple of p at least as large as what it subtracts, so limbs stay
//! signed-exact and values non-negative; one normalisation and one Barrett-style step
//! (`ifma::simd::reduce`) per output bring each coordinate back below 3p. The bound of each
//! intermediate is written beside it (for t = 1 unless t is named). The scalar tower is the
//! reference the tests compare with.

#![allow(clippy::needless_range_loop)]

use core::marker::PhantomData;

use super::ifma::{lane_fp2, rows, rows_mut, set_lane_fp2, simd, to52, tower_consts, Consts, Consts52, Lanes};
use super::{Fp12, Fp2, Fp6, TowerConfig};
use crate::mont::Fp;

/// An Fp12 value held on IFMA lanes for a pairing: the Miller loop's [`Fp12Lanes::square`]
/// and line products ([`Fp12Lanes::mul_by_014`], [`Fp12Lanes::mul_by_034`]) and the final
/// exponentiation's [`Fp12Lanes::cyclotomic_square`], [`Fp12Lanes::mul_assign`] and
/// [`Fp12Lanes::conjugate`], without leaving the 52-bit form. Exists only where the CPU has
/// AVX-512 IFMA and the tower is BLS12-381's or BN254's ([`Fp12Lanes::available`]).
///
/// ```
/// use zkforge_field::bls12_381::{Fp, Fp12, Fp2, FpConfig};
/// use zkforge_field::tower::{Fp12Lanes, LineScale};
/// use rand_core::OsRng;
/// if let Some(mut lanes) = Fp12Lanes::<FpConfig, 6>::one() {
///     let f = Fp12::random(&mut OsRng);
///     let mut g = Fp12Lanes::from_fp12(&f).unwrap();
///     g.square();
///     assert_eq!(g.to_fp12(), f.square());
///     let (px, py) = (Fp::from_u64(3), Fp::from_u64(5));
///     let (l0, lx, ly) = (Fp2::random(&mut OsRng), Fp2::random(&mut OsRng), Fp2::random(&mut OsRng));
///     lanes.mul_by_014(&l0, &lx, &ly, &LineScale::new(&px, &py).unwrap());
///     let line = Fp12::new(zkforge_field::bls12_381::Fp6::new(l0, lx.mul_by_fp(&px), Fp2::ZERO), zkforge_field::bls12_381::Fp6::new(Fp2::ZERO, ly.mul_by_fp(&py), Fp2::ZERO));
///     assert_eq!(lanes.to_fp12(), line);
/// }
/// ```
///
/// The cyclotomic arithmetic (BN254 here):
///
/// ```
/// use zkforge_field::bn254::{Fp12, FpConfig};
/// use zkforge_field::tower::Fp12Lanes;
/// use rand_core::OsRng;
/// let f = Fp12::random(&mut OsRng);
/// let t = f.conjugate() * f.invert().unwrap();
/// let g = t.frobenius_map(2) * t; // cyclotomic
/// if let Some(mut x) = Fp12Lanes::<FpConfig, 4>::from_fp12(&g) {
///     x.cyclotomic_square();
///     x.mul_assign(&Fp12Lanes::from_fp12(&f).unwrap()); // the product needs no subgroup
///     assert_eq!(x.to_fp12(), g.cyclotomic_square() * f);
///     assert_eq!(x.conjugate().to_fp12(), (g.cyclotomic_square() * f).conjugate());
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Fp12Lanes<C: TowerConfig<N>, const N: usize> {
    /// Real and imaginary parts, limb-major; 6-limb towers use the first six rows.
    re: Lanes,
    im: Lanes,
    consts: Consts,
    _c: PhantomData<C>,
}

/// The per-pair multipliers that bring a line's coefficients onto the lanes and scale them by
/// the G1 point: lanes (k, px k, py k, the same again) mod p with k = `Consts52::k_in`.
#[derive(Clone, Debug)]
pub struct LineScale<C: TowerConfig<N>, const N: usize> {
    z: Lanes,
    _c: PhantomData<C>,
}

/// The multipliers (k, px k, py k) of [`LineScale`] on M-limb lanes.
fn line_scale<C: TowerConfig<N>, const N: usize, const M: usize>(c: &Consts52<M>, px: &Fp<C, N>, py: &Fp<C, N>) -> Option<Lanes> {
    let mut t = [0u64; N];
    t.copy_from_slice(&c.k_in64[..N]);
    // k as a field element; its products with px and py, read as integers, are the Montgomery
    // multipliers (a 2^(64 N) times px k / 2^(52 M) = a px 2^(52 M))
    let k = Fp::<C, N>::from_limbs(t).ok()?;
    let zx = to52::<M>(&(*px * k).to_limbs());
    let zy = to52::<M>(&(*py * k).to_limbs());
    let mut z = [[0u64; 8]; 8];
    for j in 0..M {
        z[j] = [c.k_in[j], zx[j], zy[j], c.k_in[j], zx[j], zy[j], 0, 0];
    }
    Some(z)
}

impl<C: TowerConfig<N>, const N: usize> LineScale<C, N> {
    /// The multipliers for the G1 point (px, py); `None` where the lanes do not apply.
    pub fn new(px: &Fp<C, N>, py: &Fp<C, N>) -> Option<Self> {
        let z = match tower_consts::<C, N>()? {
            Consts::L8(c) => line_scale(c, px, py)?,
            Consts::L6(c) => line_scale(c, px, py)?,
        };
        Some(Self { z, _c: PhantomData })
    }
}

/// The line's coordinates (l0, lx, ly) on lanes (l0.re, lx.re, ly.re, l0.im, lx.im, ly.im) in
/// 52-bit limbs of the 64-bit Montgomery form.
fn line_lanes<C: TowerConfig<N>, const N: usize, const M: usize>(l0: &Fp2<C, N>, lx: &Fp2<C, N>, ly: &Fp2<C, N>) -> Lanes {
    let mut line = [[0u64; 8]; 8];
    for (i, v) in [&l0.c0, &lx.c0, &ly.c0, &l0.c1, &lx.c1, &ly.c1].into_iter().enumerate() {
        let a = to52::<M>(&v.limbs);
        for j in 0..M {
            line[j][i] = a[j];
        }
    }
    line
}

impl<C: TowerConfig<N>, const N: usize> Fp12Lanes<C, N> {
    /// Whether the lanes apply: AVX-512 IFMA on this CPU and BLS12-381's or BN254's tower.
    pub fn available() -> bool {
        tower_consts::<C, N>().is_some()
    }

    /// One, on the lanes; `None` where they do not apply.
    pub fn one() -> Option<Self> {
        Self::from_fp12(&Fp12::ONE)
    }

    /// f moved onto the lanes; `None` where they do not apply.
    pub fn from_fp12(f: &Fp12<C, N>) -> Option<Self> {
        let consts = tower_consts::<C, N>()?;
        let coeffs = [f.c0.c0, f.c0.c1, f.c0.c2, f.c1.c0, f.c1.c1, f.c1.c2];
        let mut w = [[[0u64; 8]; 8]; 2];
        let [re, im] = &mut w;
        for (i, e) in coeffs.iter().enumerate() {
            set_lane_fp2(re, im, i, e);
        }
        convert(consts, &mut w, true);
        let [re, im] = w;
        Some(Self { re, im, consts, _c: PhantomData })
    }

    /// The value back in the 64-bit tower (canonical coordinates).
    pub fn to_fp12(&self) -> Fp12<C, N> {
        let mut w = [self.re, self.im];
        convert(self.consts, &mut w, false);
        let [a, b, c, d, e, f] = core::array::from_fn(|i| lane_fp2(&w[0], &w[1], i));
        Fp12::new(Fp6::new(a, b, c), Fp6::new(d, e, f))
    }

    /// self <- self^2 (the complex method; any Fp12 value).
    pub fn square(&mut self) {
        match self.consts {
            // SAFETY (both): `self` exists, so the CPU has AVX-512F and AVX-512 IFMA.
            Consts::L8(c) => unsafe { kernels::square::<8, 1>(rows_mut(&mut self.re), rows_mut(&mut self.im), c) },
            Consts::L6(c) => unsafe { kernels::square::<6, 9>(rows_mut(&mut self.re), rows_mut(&mut self.im), c) },
        }
    }

    /// self <- self * (l0 + (lx px) v + (ly py) v w), the M-twist line product of a Miller
    /// loop, with (px, py) the G1 point `scale` was made for.
    pub fn mul_by_014(&mut self, l0: &Fp2<C, N>, lx: &Fp2<C, N>, ly: &Fp2<C, N>, scale: &LineScale<C, N>) {
        self.mul_by_line(l0, lx, ly, scale, false);
    }

    /// self <- self * ((ly py) + (lx px) w + l0 v w), the D-twist line product of a Miller
    /// loop (`zkforge_pairing`'s slots 0, 3, 4), with (px, py) the G1 point `scale` was made for.
    pub fn mul_by_034(&mut self, l0: &Fp2<C, N>, lx: &Fp2<C, N>, ly: &Fp2<C, N>, scale: &LineScale<C, N>) {
        self.mul_by_line(l0, lx, ly, scale, true);
    }

    fn mul_by_line(&mut self, l0: &Fp2<C, N>, lx: &Fp2<C, N>, ly: &Fp2<C, N>, scale: &LineScale<C, N>, d_twist: bool) {
        match self.consts {
            Consts::L8(c) => line_product::<C, N, 8, 1>(&mut self.re, &mut self.im, [l0, lx, ly], &scale.z, c, d_twist),
            Consts::L6(c) => line_product::<C, N, 6, 9>(&mut self.re, &mut self.im, [l0, lx, ly], &scale.z, c, d_twist),
        }
    }

    /// self <- self^2 for a cyclotomic self (Granger-Scott, half the lane products of
    /// [`Fp12Lanes::square`]; on other values it is not a square).
    pub fn cyclotomic_square(&mut self) {
        match self.consts {
            // SAFETY (both): `self` exists, so the CPU has AVX-512F and AVX-512 IFMA.
            Consts::L8(c) => unsafe { super::ifma_gt::cyclotomic_square::<8, 1>(rows_mut(&mut self.re), rows_mut(&mut self.im), c) },
            Consts::L6(c) => unsafe { super::ifma_gt::cyclotomic_square::<6, 9>(rows_mut(&mut self.re), rows_mut(&mut self.im), c) },
        }
    }

    /// self <- self * b (any Fp12 values).
    pub fn mul_assign(&mut self, b: &Self) {
        match self.consts {
            // SAFETY (both): `self` exists, so the CPU has AVX-512F and AVX-512 IFMA.
            Consts::L8(c) => unsafe { super::ifma_gt::product::<8, 1>(rows_mut(&mut self.re), rows_mut(&mut self.im), rows(&b.re), rows(&b.im), c) },
            Consts::L6(c) => unsafe { super::ifma_gt::product::<6, 9>(rows_mut(&mut self.re), rows_mut(&mut self.im), rows(&b.re), rows(&b.im), c) },
        }
    }

    /// The conjugate c0 - c1 w (the inverse on the cyclotomic subgroup).
    pub fn conjugate(&self) -> Self {
        let mut r = self.clone();
        match self.consts {
            // SAFETY (both): `self` exists, so the CPU has AVX-512F and AVX-512 IFMA.
            Consts::L8(c) => unsafe { super::ifma_gt::conjugate::<8>(rows_mut(&mut r.re), rows_mut(&mut r.im), c) },
            Consts::L6(c) => unsafe { super::ifma_gt::conjugate::<6>(rows_mut(&mut r.re), rows_mut(&mut r.im), c) },
        }
        r
    }
}

/// f <- f * line on M-limb lanes (xi = T + u): the line's coordinates onto the lanes, then the
/// M- or D-twist kernel; `c` comes from `consts_for` / `consts6_for`.
fn line_product<C: TowerConfig<N>, const N: usize, const M: usize, const T: u64>(re: &mut Lanes, im: &mut Lanes, [l0, lx, ly]: [&Fp2<C, N>; 3], z: &Lanes, c: &Consts52<M>, d_twist: bool) {
    let line = line_lanes::<C, N, M>(l0, lx, ly);
    let (re, im, line, z) = (rows_mut(re), rows_mut(im), rows(&line), rows(z));
    // SAFETY (both): the constants exist, so the CPU has AVX-512F and AVX-512 IFMA.
    if d_twist {
        unsafe { kernels::mul_by_line::<M, T, true>(re, im, line, z, c) }
    } else {
        unsafe { kernels::mul_by_line::<M, T, false>(re, im, line, z, c) }
    }
}

/// Each array into the 52-bit form of the tower's lanes (`into`, a product by `k_in`) or out
/// of it (`k_out`). Values are written to and read from the lanes as 8-limb splits of their
/// 64-bit Montgomery form (`set_lane_fp2`, `lane_fp2`): for a value below 2^(64 N) the limbs
/// above the lane width are zero, so the same split serves 6-limb lanes, whose kernels read and
/// write only the first six rows.
fn convert(consts: Consts, v: &mut [Lanes], into: bool) {
    match consts {
        Consts::L8(c) => mul_all_rows(v, if into { &c.k_in } else { &c.k_out }, c),
        Consts::L6(c) => mul_all_rows(v, if into { &c.k_in } else { &c.k_out }, c),
    }
}

/// Up to eight twist points T of a Miller loop on IFMA lanes, one pair per lane, with their
/// pairs' G1 points: [`G2Lanes::double_into`] runs the doubling step of every pair at once
/// (its 5 + 4 Fp2 products as 9 lane Fp2 products for all the pairs together, one more for a
/// general 3b') and multiplies each pair's line into a [`Fp12Lanes`] accumulator. The formulas
/// are those of `zkforge_pairing::line::doubling_step`, for both towers: BLS12-381's M-twist
/// (3b' = 12 xi: additions) and BN254's D-twist (3b' a general constant: one more lane Fp2
/// product); the tests compare the two (`zkforge-pairing/tests/switches.rs`).
///
/// ```
/// use zkforge_field::bls12_381::{Fp, Fp2, FpConfig};
/// use zkforge_field::tower::{Fp12Lanes, G2Lanes};
/// if let Some(mut f) = Fp12Lanes::<FpConfig, 6>::one() {
///     let p = [(Fp::from_u64(3), Fp::from_u64(5)); 2];
///     let t = [(Fp2::ONE, Fp2::ONE, Fp2::ONE); 2];
///     let three_b = Fp2::new(Fp::from_u64(12), Fp::from_u64(12)); // BLS12-381's twist
///     let mut g = G2Lanes::new(&p, &t, &three_b, false).unwrap();
///     g.double_into(&mut f); // both pairs' T doubled, both lines multiplied into f
///     let [a, b] = [g.points()[0], g.points()[1]];
///     assert_eq!(a, b);
/// }
/// ```
#[derive(Clone, Debug)]
pub struct G2Lanes<C: TowerConfig<N>, const N: usize> {
    /// X.re, X.im, Y.re, Y.im, Z.re, Z.im.
    t: [Lanes; 6],
    /// px, py in the 52-bit form.
    pxy: [Lanes; 2],
    /// 3b' (real and imaginary part in every lane, 52-bit form) when it is not 12 xi.
    three_b: Option<[Lanes; 2]>,
    /// D-twist lines (slots 0, 3, 4) instead of M-twist ones (0, 1, 4).
    d_twist: bool,
    /// The addition steps' Q: qx.re, qx.im, qy.re, qy.im, and the same with -qy (52-bit form).
    q: Option<[[Lanes; 4]; 2]>,
    n: usize,
    consts: Consts,
    _c: PhantomData<C>,
}

/// Each array times the constant `m` of M-limb lanes (`simd::mul_all`); `c` comes from
/// `consts_for` / `consts6_for`, which exist only on CPUs with IFMA.
fn mul_all_rows<const M: usize>(v: &mut [Lanes], m: &[u64; M], c: &Consts52<M>) {
    // SAFETY: the constants exist, so the CPU has AVX-512F and AVX-512 IFMA.
    unsafe { simd::mul_all(v, m, c) };
}

impl<C: TowerConfig<N>, const N: usize> G2Lanes<C, N> {
    /// Most pairs one value holds.
    pub const MAX_PAIRS: usize = 8;

    /// The pairs' G1 points (px, py) and twist points T = (X, Y, Z) (homogeneous), the twist's
    /// 3b' and its type (`d_twist`: lines in slots 0, 3, 4, else 0, 1, 4); `None` where the
    /// lanes do not apply or for 0 or more than [`G2Lanes::MAX_PAIRS`] pairs.
    pub fn new(g1: &[(Fp<C, N>, Fp<C, N>)], t: &[(Fp2<C, N>, Fp2<C, N>, Fp2<C, N>)], three_b: &Fp2<C, N>, d_twist: bool) -> Option<Self> {
        let consts = tower_consts::<C, N>()?;
        let n = g1.len();
        if n == 0 || n > Self::MAX_PAIRS || t.len() != n {
            return None;
        }
        let mut pxy = [[[0u64; 8]; 8]; 2];
        for (i, (px, py)) in g1.iter().enumerate() {
            let [x, y] = &mut pxy;
            set_lane_fp2(x, y, i, &Fp2::new(*px, *py));
        }
        // 3b' = 12 xi takes additions (BLS12-381); any other value a lane product
        let xi12 = C::XI.double().double() + C::XI.double().double() + C::XI.double().double();
        let general = *three_b != xi12 || C::XI_C0 != 1;
        let mut tb = [[[0u64; 8]; 8]; 2];
        if general {
            let [x, y] = &mut tb;
            for i in 0..8 {
                set_lane_fp2(x, y, i, three_b);
            }
        }
        convert(consts, &mut pxy, true);
        convert(consts, &mut tb, true);
        let three_b = general.then_some(tb);
        let mut g = Self { t: [[[0u64; 8]; 8]; 6], pxy, three_b, d_twist, q: None, n, consts, _c: PhantomData };
        g.set_points(t);
        Some(g)
    }

    /// The number of pairs.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether it holds no pair (never: [`G2Lanes::new`] refuses that).
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The twist points T (canonical coordinates), in pair order.
    pub fn points(&self) -> Vec<(Fp2<C, N>, Fp2<C, N>, Fp2<C, N>)> {
        let mut t = self.t;
        convert(self.consts, &mut t, false);
        (0..self.n).map(|i| (lane_fp2(&t[0], &t[1], i), lane_fp2(&t[2], &t[3], i), lane_fp2(&t[4], &t[5], i))).collect()
    }

    /// Replaces the twist points (as many as pairs, in pair order).
    pub fn set_points(&mut self, t: &[(Fp2<C, N>, Fp2<C, N>, Fp2<C, N>)]) {
        let mut v = [[[0u64; 8]; 8]; 6];
        for (i, (x, y, z)) in t.iter().take(self.n).enumerate() {
            let [vx0, vx1, vy0, vy1, vz0, vz1] = &mut v;
            set_lane_fp2(vx0, vx1, i, x);
            set_lane_fp2(vy0, vy1, i, y);
            set_lane_fp2(vz0, vz1, i, z);
        }
        convert(self.consts, &mut v, true);
        self.t = v;
    }

    /// Sets the affine points Q = (qx, qy) of the addition steps (as many as pairs, in pair
    /// order).
    pub fn set_addends(&mut self, q: &[(Fp2<C, N>, Fp2<C, N>)]) {
        let mut v = [[[[0u64; 8]; 8]; 4]; 2];
        for (i, (qx, qy)) in q.iter().take(self.n).enumerate() {
            for (s, y) in [*qy, -*qy].iter().enumerate() {
                let [a, b, c, d] = &mut v[s];
                set_lane_fp2(a, b, i, qx);
                set_lane_fp2(c, d, i, y);
            }
        }
        for w in v.iter_mut() {
            convert(self.consts, w, true);
        }
        self.q = Some(v);
    }

    /// The mixed addition step of every pair (T <- T + Q, or T - Q when `negate`) with the
    /// points of [`G2Lanes::set_addends`], each pair's line multiplied into `f` in pair order;
    /// `false` (and nothing done) when no addends were set.
    #[must_use]
    pub fn add_into(&mut self, f: &mut Fp12Lanes<C, N>, negate: bool) -> bool {
        let Some(q) = &self.q else {
            return false;
        };
        let q = &q[negate as usize];
        let mut lines = [[[0u64; 8]; 8]; 6];
        // SAFETY (both): `self` exists, so the CPU has AVX-512F and AVX-512 IFMA.
        match self.consts {
            Consts::L8(c) => unsafe { kernels::add_steps::<8>(&mut self.t, q, &self.pxy, Some(&mut lines), c) },
            Consts::L6(c) => unsafe { kernels::add_steps::<6>(&mut self.t, q, &self.pxy, Some(&mut lines), c) },
        }
        self.lines_into(f, &lines);
        true
    }

    /// The doubling step of every pair (T <- 2T), each pair's line multiplied into `f` in pair
    /// order.
    pub fn double_into(&mut self, f: &mut Fp12Lanes<C, N>) {
        let mut lines = [[[0u64; 8]; 8]; 6];
        self.double(Some(&mut lines));
        self.lines_into(f, &lines);
    }

    /// T <- 2T for every pair, without the lines (the ladder of a batched G2 subgroup test:
    /// [`G2Lanes::for_points`]).
    pub fn double_points(&mut self) {
        self.double(None);
    }

    /// T <- T + Q (or T - Q when `negate`) for every pair with the points of
    /// [`G2Lanes::set_addends`], without the lines; `false` (and nothing done) when no addends
    /// were set. The homogeneous formulas are not complete: T = +-Q gives Z = 0, and Z stays 0
    /// in every later step (see `zkforge_pairing::engine::multi_miller_loop_with_ends`).
    #[must_use]
    pub fn add_points(&mut self, negate: bool) -> bool {
        let Some(q) = &self.q else {
            return false;
        };
        let q = &q[negate as usize];
        // SAFETY (both): `self` exists, so the CPU has AVX-512F and AVX-512 IFMA.
        match self.consts {
            Consts::L8(c) => unsafe { kernels::add_steps::<8>(&mut self.t, q, &self.pxy, None, c) },
            Consts::L6(c) => unsafe { kernels::add_steps::<6>(&mut self.t, q, &self.pxy, None, c) },
        }
        true
    }

    /// Up to [`G2Lanes::MAX_PAIRS`] twist points T = (X, Y, Z) (homogeneous) without G1
    /// points, for [`G2Lanes::double_points`] and [`G2Lanes::add_points`] alone (the line
    /// steps would take px = py = 0).
    pub fn for_points(t: &[(Fp2<C, N>, Fp2<C, N>, Fp2<C, N>)], three_b: &Fp2<C, N>, d_twist: bool) -> Option<Self> {
        let none = [(Fp::ZERO, Fp::ZERO); 8];
        Self::new(&none[..t.len().min(none.len())], t, three_b, d_twist)
    }

    /// The doubling step of every pair, the lines into `lines` when given.
    fn double(&mut self, lines: Option<&mut [Lanes; 6]>) {
        let (t, pxy) = (&mut self.t, &self.pxy);
        // SAFETY (every call): `self` exists, so the CPU has AVX-512F and AVX-512 IFMA.
        match (self.consts, &self.three_b) {
            (Consts::L8(c), None) => unsafe { kernels::double_steps::<8, 1, false>(t, pxy, lines, &[[[0; 8]; 8]; 2], c) },
            (Consts::L8(c), Some(tb)) => unsafe { kernels::double_steps::<8, 1, true>(t, pxy, lines, tb, c) },
            (Consts::L6(c), Some(tb)) => unsafe { kernels::double_steps::<6, 9, true>(t, pxy, lines, tb, c) },
            (Consts::L6(c), None) => unsafe { kernels::double_steps::<6, 9, false>(t, pxy, lines, &[[[0; 8]; 8]; 2], c) },
        }
    }

    /// Each pair's line (lanes of `lines`) multiplied into `f`, in pair order.
    fn lines_into(&self, f: &mut Fp12Lanes<C, N>, lines: &[Lanes; 6]) {
        for i in 0..self.n {
            // SAFETY (every call): `self` exists, so the CPU has AVX-512F and AVX-512 IFMA.
            match (self.consts, self.d_twist) {
                (Consts::L8(c), false) => unsafe { kernels::mul_by_line_pair::<8, 1, false>(&mut f.re, &mut f.im, lines, i, c) },
                (Consts::L8(c), true) => unsafe { kernels::mul_by_line_pair::<8, 1, true>(&mut f.re, &mut f.im, lines, i, c) },
                (Consts::L6(c), false) => unsafe { kernels::mul_by_line_pair::<6, 9, false>(&mut f.re, &mut f.im, lines, i, c) },
                (Consts::L6(c), true) => unsafe { kernels::mul_by_line_pair::<6, 9, true>(&mut f.re, &mut f.im, lines, i, c) },
            }
        }
    }
}

pub(super) mod kernels {
    //! The vector kernels; each needs AVX-512F and AVX-512 IFMA (the callers hold an
    //! `Fp12Lanes`, which exists only on such CPUs). The lane Fp2 helpers are generic over the
    //! limb count M and shared with `ifma_gt`.
    use super::super::ifma::simd::{add, blend, constants, load, mul, norm, perm, reduce, splat, store, sub, E, K, V};
    use super::super::ifma::{rows, rows_mut, Consts52, Lanes, L};
    use core::arch::x86_64::*;

    /// An Fp2 value per lane: real and imaginary parts.
    #[derive(Clone, Copy)]
    pub(in crate::tower) struct F2<const M: usize = L> {
        pub(in crate::tower) re: E<M>,
        pub(in crate::tower) im: E<M>,
    }

    /// Lane indices as a vector (lane i takes lane idx[i]).
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(in crate::tower) fn idx(i: [i64; 8]) -> V {
        _mm512_set_epi64(i[7], i[6], i[5], i[4], i[3], i[2], i[1], i[0])
    }

    /// Lane i of the result is lane idx[i] of a where mask bit i is set, zero elsewhere.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(in crate::tower) fn pz<const M: usize>(a: &F2<M>, m: __mmask8, ix: V) -> F2<M> {
        let mut r = *a;
        for j in 0..M {
            r.re[j] = _mm512_maskz_permutexvar_epi64(m, ix, a.re[j]);
            r.im[j] = _mm512_maskz_permutexvar_epi64(m, ix, a.im[j]);
        }
        r
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(in crate::tower) fn p2<const M: usize>(a: &F2<M>, ix: V) -> F2<M> {
        F2 { re: perm(&a.re, ix), im: perm(&a.im, ix) }
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(in crate::tower) fn a2<const M: usize>(a: &F2<M>, b: &F2<M>) -> F2<M> {
        F2 { re: add(&a.re, &b.re), im: add(&a.im, &b.im) }
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(in crate::tower) fn s2<const M: usize>(a: &F2<M>, b: &F2<M>) -> F2<M> {
        F2 { re: sub(&a.re, &b.re), im: sub(&a.im, &b.im) }
    }

    /// a + k p on both parts.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(in crate::tower) fn ak<const M: usize>(a: &F2<M>, kp: &E<M>) -> F2<M> {
        F2 { re: add(&a.re, kp), im: add(&a.im, kp) }
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(in crate::tower) fn n2<const M: usize>(a: &F2<M>, k: &K<M>) -> F2<M> {
        F2 { re: norm(a.re, k), im: norm(a.im, k) }
    }

    /// Lanes of b where `m` is set, of a elsewhere.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(in crate::tower) fn b2<const M: usize>(m: __mmask8, a: &F2<M>, b: &F2<M>) -> F2<M> {
        F2 { re: blend(m, &a.re, &b.re), im: blend(m, &a.im, &b.im) }
    }

    /// t a limb-wise for the small constant t of xi = t + u (1 or 9 folded at compile time
    /// after inlining; shifts and additions otherwise).
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn times<const M: usize, const T: u64>(a: &E<M>) -> E<M> {
        match T {
            1 => *a,
            9 => {
                let mut r = *a;
                for j in 0..M {
                    r[j] = _mm512_add_epi64(_mm512_slli_epi64(a[j], 3), a[j]);
                }
                r
            }
            _ => {
                let mut r = [_mm512_setzero_si512(); M];
                let mut d = *a;
                let mut t = T;
                while t != 0 {
                    if t & 1 == 1 {
                        r = add(&r, &d);
                    }
                    d = add(&d, &d);
                    t >>= 1;
                }
                r
            }
        }
    }

    /// xi a = (t a.re - a.im + k p) + (a.re + t a.im) u for xi = t + u (k p above a.im's
    /// bound; both parts below (t + 1) times a's bound, plus k p).
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(in crate::tower) fn xi_t<const M: usize, const T: u64>(a: &F2<M>, kp: &E<M>) -> F2<M> {
        F2 { re: add(&sub(&times::<M, T>(&a.re), &a.im), kp), im: add(&a.re, &times::<M, T>(&a.im)) }
    }

    /// Normalise, then reduce each coordinate below 3p.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(in crate::tower) fn r2<const M: usize>(a: &F2<M>, k: &K<M>) -> F2<M> {
        F2 { re: reduce(&norm(a.re, k), k), im: reduce(&norm(a.im, k), k) }
    }

    /// Lane-wise Fp2 products by Karatsuba for normalised inputs below 2^20 p: real part
    /// below 4p, imaginary below 6p (not normalised).
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(in crate::tower) fn m2<const M: usize>(x: &F2<M>, y: &F2<M>, k: &K<M>) -> F2<M> {
        let p0 = mul(&x.re, &y.re, k);
        let p1 = mul(&x.im, &y.im, k);
        let p2 = mul(&norm(add(&x.re, &x.im), k), &norm(add(&y.re, &y.im), k), k);
        F2 { re: add(&sub(&p0, &p1), &k.p2), im: add(&sub(&sub(&p2, &p0), &p1), &k.p4) }
    }

    /// Karatsuba's Fp6 combination of the lane products (v0, v1, v2, m12, m01, m02) (parts
    /// below 6p) into lanes 0..3: r0 = v0 + xi (m12 - v1 - v2), r1 = m01 - v0 - v1 + xi v2,
    /// r2 = m02 - v0 - v2 + v1, for xi = t + u. Below (24 + 24 (t + 1)) p (72p for BLS12-381),
    /// not normalised; lanes 3.. zero.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    pub(in crate::tower) fn fp6_combine_t<const M: usize, const T: u64>(p: &F2<M>, c: &Consts52<M>) -> F2<M> {
        const L012: __mmask8 = 0b111;
        // plain terms: + (v0, m01, m02) + (0, 0, v1) - (0, v0, v0) - (0, v1, v2), + 12p
        let plus = a2(&pz(p, L012, idx([0, 4, 5, 0, 0, 0, 0, 0])), &pz(p, 0b100, idx([0, 0, 1, 0, 0, 0, 0, 0])));
        let minus = a2(&pz(p, 0b110, idx([0, 0, 0, 0, 0, 0, 0, 0])), &pz(p, 0b110, idx([0, 1, 2, 0, 0, 0, 0, 0])));
        let plain = ak(&s2(&plus, &minus), &splat(&c.mult[12])); // < 24p
        // xi terms: (m12 - v1 - v2, v2, 0) + 12p on lane 0 and 1
        let xp = pz(p, 0b011, idx([3, 2, 0, 0, 0, 0, 0, 0]));
        let xm = a2(&pz(p, 0b001, idx([1, 0, 0, 0, 0, 0, 0, 0])), &pz(p, 0b001, idx([2, 0, 0, 0, 0, 0, 0, 0])));
        let xz = ak(&s2(&xp, &xm), &splat(&c.mult[12])); // < 24p (lane 2: 12p, harmless)
        let r = a2(&plain, &xi_t::<M, T>(&xz, &splat(&c.mult[24]))); // < 24p + 24 (t + 1) p
        // clear lanes 3..: the caller places these
        let zero = F2 { re: [_mm512_setzero_si512(); M], im: [_mm512_setzero_si512(); M] };
        b2(L012, &zero, &r)
    }

    /// f <- f^2 by the complex method with Karatsuba Fp6 products on the lanes (see the
    /// module notes).
    ///
    /// # Safety
    /// The CPU must support AVX-512F and AVX-512 IFMA.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) unsafe fn square<const M: usize, const T: u64>(re: &mut [[u64; 8]; M], im: &mut [[u64; 8]; M], c: &Consts52<M>) {
        let k: K<M> = constants(c);
        let f = F2 { re: load(re), im: load(im) }; // < 3p
        const HI3: __mmask8 = 0b111000;
        // K(a0), K(a1) (< 6p)
        let ka0 = n2(&a2(&p2(&f, idx([0, 1, 2, 1, 0, 0, 0, 0])), &pz(&f, HI3, idx([0, 0, 0, 2, 1, 2, 0, 0]))), &k);
        let ka1 = n2(&a2(&p2(&f, idx([3, 4, 5, 4, 3, 3, 0, 0])), &pz(&f, HI3, idx([0, 0, 0, 5, 4, 5, 0, 0]))), &k);
        // v a1 = (xi a1_2, a1_0, a1_1) on lanes 0..3 (< 6p; < 3 (t + 2) p), then K(v a1) (< 12p)
        let w = p2(&f, idx([5, 3, 4, 0, 0, 0, 0, 0]));
        let va1 = n2(&b2(0b001, &w, &xi_t::<M, T>(&w, &splat(&c.mult[3]))), &k);
        let kva1 = a2(&p2(&va1, idx([0, 1, 2, 1, 0, 0, 0, 0])), &pz(&va1, HI3, idx([0, 0, 0, 2, 1, 2, 0, 0])));
        // operands of s: K(a0) + K(a1) (< 12p) and K(a0) + K(v a1) (< 18p)
        let xs = n2(&a2(&ka0, &ka1), &k);
        let ys = n2(&a2(&ka0, &kva1), &k);
        let tt = fp6_combine_t::<M, T>(&m2(&ka0, &ka1, &k), c); // < 72p; < 24 (t + 2) p
        let ss = fp6_combine_t::<M, T>(&m2(&xs, &ys, &k), c);
        // for t > 1 both are reduced first (below 3p), so that the offsets below stay small
        let (tt, ss, off_vt, off_c0) = if T == 1 { (tt, ss, 72, 216) } else { (r2(&tt, &k), r2(&ss, &k), 3, 3 * (T as usize + 4)) };
        // c1 = 2t on lanes 3..6; c0 = s - t - v t with v t = (xi t2, t0, t1) on lanes 0..3
        let t_hi = p2(&tt, idx([0, 0, 0, 0, 1, 2, 0, 0]));
        let rot = p2(&tt, idx([2, 0, 1, 0, 0, 0, 0, 0]));
        let vt = b2(0b001, &rot, &xi_t::<M, T>(&rot, &splat(&c.mult[off_vt]))); // < 144p; < 3 (t + 2) p
        let c0 = ak(&s2(&s2(&ss, &tt), &vt), &splat(&c.mult[off_c0])); // < 288p; < 3 (2t + 6) p
        let out = b2(HI3, &c0, &a2(&t_hi, &t_hi)); // lanes 0..3 c0, 3..6 2t (< 144p)
        // lanes 6 and 7 stay zero: c0's are off_c0 p there, cleared by the mask below
        let out = r2(&out, &k);
        let zero = [_mm512_setzero_si512(); M];
        store(&blend(0b0011_1111, &zero, &out.re), re);
        store(&blend(0b0011_1111, &zero, &out.im), im);
    }

    /// f <- f * line with the line's coordinates `line` (lanes l0.re, lx.re, ly.re, l0.im,
    /// lx.im, ly.im, 64-bit Montgomery form in 52-bit limbs) and the pair's multipliers `z`:
    /// (l0 + (lx px) v + (ly py) v w) for the M-twist, ((ly py) + (lx px) w + l0 v w) for the
    /// D-twist.
    ///
    /// # Safety
    /// The CPU must support AVX-512F and AVX-512 IFMA.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) unsafe fn mul_by_line<const M: usize, const T: u64, const D_TWIST: bool>(re: &mut [[u64; 8]; M], im: &mut [[u64; 8]; M], line: &[[u64; 8]; M], z: &[[u64; 8]; M], c: &Consts52<M>) {
        let k: K<M> = constants(c);
        let lv = mul(&load(line), &load(z), &k); // < 2p: l0, lx px, ly py on lanes 0..3 and 3..6
        let ln = F2 { re: perm(&lv, idx([0, 1, 2, 0, 0, 0, 0, 0])), im: perm(&lv, idx([3, 4, 5, 0, 0, 0, 0, 0])) };
        line_body::<M, T, D_TWIST>(re, im, &ln, &k, c);
    }

    /// One Miller-loop doubling step for every lane (one pair per lane) on BLS12-381's twist,
    /// the formulas of `zkforge_pairing::line::doubling_step` (Costello-Lange-Naehrig with the
    /// halvings scaled away, 3b' c = 12 xi c): T = (X, Y, Z) in `t` (X.re, X.im, Y.re, Y.im,
    /// Z.re, Z.im, each below 3p) is doubled in place, and the line's (l0, lx px, ly py) go to
    /// `lines` (l0.re, l0.im, l1.re, l1.im, l4.re, l4.im, each below 3p); `pxy` holds px and py
    /// in the 52-bit form. Without `lines` only T is doubled (8 lane Fp2 products, not 9 and
    /// four lane Fp products: the G2 subgroup test's ladder).
    ///
    /// # Safety
    /// The CPU must support AVX-512F and AVX-512 IFMA.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) unsafe fn double_steps<const M: usize, const T: u64, const GENERAL_3B: bool>(t: &mut [Lanes; 6], pxy: &[Lanes; 2], lines: Option<&mut [Lanes; 6]>, three_b: &[Lanes; 2], c: &Consts52<M>) {
        let k: K<M> = constants(c);
        let kp = |m: usize| splat(&c.mult[m]);
        let ld = |a: &Lanes| load(rows::<M>(a));
        let x = F2 { re: ld(&t[0]), im: ld(&t[1]) };
        let y = F2 { re: ld(&t[2]), im: ld(&t[3]) };
        let z = F2 { re: ld(&t[4]), im: ld(&t[5]) };
        // first layer: 2A = XY, B = Y^2, C = Z^2, (Y + Z)^2, X^2 (parts < 6p)
        let w = n2(&a2(&y, &z), &k); // < 6p
        let a = m2(&x, &y, &k);
        let b = n2(&m2(&y, &y, &k), &k);
        let cc = m2(&z, &z, &k);
        let hh = m2(&w, &w, &k);
        // E = 12 xi C (reduced below 3p), F = 3E, G' = B + F, B - F, H = (Y + Z)^2 - B - C
        let e = if GENERAL_3B {
            // 3b' C as a lane Fp2 product by the constant (< 6p before the reduction)
            let tb = F2 { re: ld(&three_b[0]), im: ld(&three_b[1]) };
            r2(&m2(&n2(&cc, &k), &tb, &k), &k)
        } else {
            let xc = xi_t::<M, T>(&cc, &kp(6)); // < 12p
            let x2 = a2(&xc, &xc);
            let x4 = a2(&x2, &x2);
            r2(&a2(&a2(&x4, &x4), &x4), &k) // 12 xi C < 144p before the reduction
        };
        let f3 = a2(&a2(&e, &e), &e); // < 9p
        let g = n2(&a2(&b, &f3), &k); // < 15p
        let bmf = n2(&ak(&s2(&b, &f3), &kp(9)), &k); // < 15p
        let h = n2(&ak(&s2(&s2(&hh, &b), &cc), &kp(12)), &k); // < 18p
        // second layer: E^2, 2A (B - F), G'^2, B H
        let e2 = m2(&e, &e, &k);
        let x3 = m2(&n2(&a, &k), &bmf, &k);
        let g2 = m2(&g, &g, &k);
        let z3 = m2(&b, &h, &k);
        // (X, Y, Z) <- (2 * 2A (B - F), G'^2 - 12 E^2, 4 B H)
        let x_new = r2(&a2(&x3, &x3), &k); // < 12p before
        let e4 = a2(&a2(&e2, &e2), &a2(&e2, &e2));
        let e12 = a2(&a2(&e4, &e4), &e4); // < 72p
        let y_new = r2(&ak(&s2(&g2, &e12), &kp(72)), &k); // < 78p before
        let z2 = a2(&z3, &z3);
        let z_new = r2(&a2(&z2, &z2), &k); // < 24p before
        store_point(t, [&x_new, &y_new, &z_new]);
        if let Some(lines) = lines {
            // the line: l0 = E - B, lx = 3 X^2, ly = -H; then lx px, ly py
            let j = m2(&x, &x, &k);
            let l0 = r2(&ak(&s2(&e, &b), &kp(6)), &k); // < 9p before
            let lx = r2(&a2(&a2(&j, &j), &j), &k); // < 18p before
            let ly = r2(&s2(&F2 { re: kp(18), im: kp(18) }, &h), &k); // < 18p before
            store_line(lines, pxy, [&l0, &lx, &ly], &k);
        }
    }

    /// T's new coordinates into `t`.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn store_point<const M: usize>(t: &mut [Lanes; 6], xyz: [&F2<M>; 3]) {
        for (i, v) in xyz.iter().enumerate() {
            store(&v.re, rows_mut::<M>(&mut t[2 * i]));
            store(&v.im, rows_mut::<M>(&mut t[2 * i + 1]));
        }
    }

    /// The end of a lane step's line: (l0, lx px, ly py) into `lines` (each below 3p; px, py
    /// from `pxy`).
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn store_line<const M: usize>(lines: &mut [Lanes; 6], pxy: &[Lanes; 2], [l0, lx, ly]: [&F2<M>; 3], k: &K<M>) {
        let (px, py) = (load(rows::<M>(&pxy[0])), load(rows::<M>(&pxy[1])));
        let l1 = F2 { re: mul(&lx.re, &px, k), im: mul(&lx.im, &px, k) };
        let l4 = F2 { re: mul(&ly.re, &py, k), im: mul(&ly.im, &py, k) };
        for (i, v) in [l0, &l1, &l4].iter().enumerate() {
            store(&v.re, rows_mut::<M>(&mut lines[2 * i]));
            store(&v.im, rows_mut::<M>(&mut lines[2 * i + 1]));
        }
    }

    /// One Miller-loop mixed addition step for every lane (one pair per lane): T <- T + Q with
    /// Q = (qx, qy) affine, the formulas of `zkforge_pairing::line::addition_step`
    /// (theta = Y - qy Z, lambda = X - qx Z, C = theta^2, D = lambda^2, E = lambda D, F = Z C,
    /// G = X D, H = E + F - 2G; (X, Y, Z) <- (lambda H, theta (G - H) - E Y, Z E); line
    /// (theta qx - lambda qy, -theta, lambda)). `q` holds qx.re, qx.im, qy.re, qy.im (below 2p);
    /// T, `pxy` and `lines` as in [`double_steps`] (without `lines`, T alone: 8 lane Fp2
    /// products instead of 10 and four lane Fp products).
    ///
    /// # Safety
    /// The CPU must support AVX-512F and AVX-512 IFMA.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) unsafe fn add_steps<const M: usize>(t: &mut [Lanes; 6], q: &[Lanes; 4], pxy: &[Lanes; 2], lines: Option<&mut [Lanes; 6]>, c: &Consts52<M>) {
        let k: K<M> = constants(c);
        let kp = |m: usize| splat(&c.mult[m]);
        let ld = |a: &Lanes| load(rows::<M>(a));
        let x = F2 { re: ld(&t[0]), im: ld(&t[1]) };
        let y = F2 { re: ld(&t[2]), im: ld(&t[3]) };
        let z = F2 { re: ld(&t[4]), im: ld(&t[5]) };
        let qx = F2 { re: ld(&q[0]), im: ld(&q[1]) };
        let qy = F2 { re: ld(&q[2]), im: ld(&q[3]) };
        // first layer: qy Z, qx Z (parts < 6p); theta, lambda (< 9p)
        let theta = n2(&ak(&s2(&y, &m2(&qy, &z, &k)), &kp(6)), &k);
        let lambda = n2(&ak(&s2(&x, &m2(&qx, &z, &k)), &kp(6)), &k);
        // second layer: C = theta^2, D = lambda^2; third: E = lambda D, F = Z C, G = X D (< 6p)
        let cc = n2(&m2(&theta, &theta, &k), &k);
        let d = n2(&m2(&lambda, &lambda, &k), &k);
        let e = n2(&m2(&lambda, &d, &k), &k);
        let f = m2(&z, &cc, &k);
        let g = n2(&m2(&x, &d, &k), &k);
        let h = n2(&ak(&s2(&a2(&e, &f), &a2(&g, &g)), &kp(12)), &k); // < 24p
        let gmh = n2(&ak(&s2(&g, &h), &kp(24)), &k); // < 30p
        // fourth layer: lambda H, theta (G - H), E Y, Z E, theta qx, lambda qy
        let x_new = r2(&m2(&lambda, &h, &k), &k);
        let y_new = r2(&ak(&s2(&m2(&theta, &gmh, &k), &m2(&e, &y, &k)), &kp(6)), &k); // < 12p before
        let z_new = r2(&m2(&z, &e, &k), &k);
        store_point(t, [&x_new, &y_new, &z_new]);
        if let Some(lines) = lines {
            let l0 = r2(&ak(&s2(&m2(&theta, &qx, &k), &m2(&lambda, &qy, &k)), &kp(6)), &k); // < 12p before
            let lx = r2(&s2(&F2 { re: kp(9), im: kp(9) }, &theta), &k); // -theta, < 9p before
            let ly = r2(&lambda, &k);
            store_line(lines, pxy, [&l0, &lx, &ly], &k);
        }
    }

    /// f <- f * line for pair `i` of lines held one pair per lane ([`double_steps`]' output:
    /// l0, lx px, ly py, each coordinate below 3p), in the M-twist's slots (0, 1, 4) or the
    /// D-twist's (0, 3, 4).
    ///
    /// # Safety
    /// The CPU must support AVX-512F and AVX-512 IFMA.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) unsafe fn mul_by_line_pair<const M: usize, const T: u64, const D_TWIST: bool>(re: &mut Lanes, im: &mut Lanes, lines: &[Lanes; 6], i: usize, c: &Consts52<M>) {
        let k: K<M> = constants(c);
        let i = i as i64;
        let ix = idx([i, i, i, 0, 0, 0, 0, 0]);
        let pick = |a: &Lanes, b: &Lanes, d: &Lanes| {
            let (a, b, d): (E<M>, E<M>, E<M>) = (load(rows::<M>(a)), load(rows::<M>(b)), load(rows::<M>(d)));
            let mut r = [k.zero; M];
            for j in 0..M {
                let x = _mm512_maskz_permutexvar_epi64(0b001, ix, a[j]);
                let y = _mm512_maskz_permutexvar_epi64(0b010, ix, b[j]);
                let z = _mm512_maskz_permutexvar_epi64(0b100, ix, d[j]);
                r[j] = _mm512_or_si512(_mm512_or_si512(x, y), z);
            }
            r
        };
        let ln = F2 { re: pick(&lines[0], &lines[2], &lines[4]), im: pick(&lines[1], &lines[3], &lines[5]) };
        let (re, im) = (rows_mut::<M>(re), rows_mut::<M>(im));
        line_body::<M, T, D_TWIST>(re, im, &ln, &k, c);
    }

    /// The shared body of the line products, f <- f * line with (l0, l1, l4) = (l0, lx px,
    /// ly py) on lanes 0..3 of `ln` (each coordinate below 3p, normalised; lanes 3.. zero):
    /// - M-twist (`D_TWIST` false), line l0 + l1 v + l4 v w: aa = f_0 (l0 + l1 v),
    ///   bb = f_1 l4 v, mid = (f_0 + f_1)(l0 + (l1 + l4) v);
    /// - D-twist, line d0 + d3 w + d4 v w with (d4, d3, d0) = (l0, l1, l4): aa = f_0 d0,
    ///   bb = f_1 (d3 + d4 v), mid = (f_0 + f_1)((d0 + d3) + d4 v);
    /// then c0 = aa + v bb, c1 = mid - aa - bb. The 15 Fp2 products are two lane Fp2 products
    /// (q1, q2 below); the combinations differ in two terms.
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[inline]
    fn line_body<const M: usize, const T: u64, const D_TWIST: bool>(re: &mut [[u64; 8]; M], im: &mut [[u64; 8]; M], ln: &F2<M>, k: &K<M>, c: &Consts52<M>) {
        let ln = *ln;
        let f = F2 { re: load(re), im: load(im) }; // < 3p
        // group 1, x = f_0, y = f_1:
        // M: (x0 l0, x1 l0, x2 l0, x0 l1, x1 l1, x2 l1, y0 l4, y1 l4)
        // D: (x0 d0, x1 d0, x2 d0, y0 d3, y1 d3, y2 d3, y0 d4, y1 d4)
        let (x1, y1) = if D_TWIST {
            (p2(&f, idx([0, 1, 2, 3, 4, 5, 3, 4])), p2(&ln, idx([2, 2, 2, 1, 1, 1, 0, 0])))
        } else {
            (p2(&f, idx([0, 1, 2, 0, 1, 2, 3, 4])), p2(&ln, idx([0, 0, 0, 1, 1, 1, 2, 2])))
        };
        // group 2, s = x + y:
        // M: (y2 l4, s0 l0, s1 l0, s2 l0, s0 m, s1 m, s2 m, -), m = l1 + l4
        // D: (y2 d4, s0 m, s1 m, s2 m, s0 d4, s1 d4, s2 d4, -), m = d0 + d3
        const S6: __mmask8 = 0b0111_1110;
        let x2 = n2(&a2(&p2(&f, idx([5, 0, 1, 2, 0, 1, 2, 0])), &pz(&f, S6, idx([0, 3, 4, 5, 3, 4, 5, 0]))), k); // < 6p
        let y2 = if D_TWIST {
            n2(&a2(&p2(&ln, idx([0, 2, 2, 2, 0, 0, 0, 0])), &pz(&ln, 0b0000_1110, idx([0, 1, 1, 1, 0, 0, 0, 0]))), k)
        } else {
            n2(&a2(&p2(&ln, idx([2, 0, 0, 0, 1, 1, 1, 0])), &pz(&ln, 0b0111_0000, idx([0, 0, 0, 0, 2, 2, 2, 0]))), k)
        }; // < 6p
        let q1 = m2(&x1, &y1, k); // parts < 6p
        let q2 = m2(&x2, &y2, k);
        // out0 = q1[0] + xi (q1[5] + q1[7])
        // out1 = q1[1] + q1[3] + xi q2[0]
        // out2 = q1[2] + q1[4] + q1[6]
        // out3 = q2[1] - q1[0] + xi (q2[6] - q1[5] - q2[0])      (M)
        //        q2[1] - q1[0] - q1[3] + xi (q2[6] - q2[0])      (D)
        // out4 = q2[2] + q2[4] - q1[1] - q1[3] - q1[6]           (M; D: - q1[4] for - q1[3])
        // out5 = q2[3] + q2[5] - q1[2] - q1[4] - q1[7]           (M; D: - q1[5] for - q1[4])
        let pp = a2(
            &a2(&pz(&q1, 0b000_111, idx([0, 1, 2, 0, 0, 0, 0, 0])), &pz(&q1, 0b000_110, idx([0, 3, 4, 0, 0, 0, 0, 0]))),
            &a2(&pz(&q1, 0b000_100, idx([0, 0, 6, 0, 0, 0, 0, 0])), &a2(&pz(&q2, 0b111_000, idx([0, 0, 0, 1, 2, 3, 0, 0])), &pz(&q2, 0b110_000, idx([0, 0, 0, 0, 4, 5, 0, 0])))),
        ); // < 18p
        let pm_mid = if D_TWIST { pz(&q1, 0b111_000, idx([0, 0, 0, 3, 4, 5, 0, 0])) } else { pz(&q1, 0b110_000, idx([0, 0, 0, 0, 3, 4, 0, 0])) };
        let pm = a2(&a2(&pz(&q1, 0b111_000, idx([0, 0, 0, 0, 1, 2, 0, 0])), &pm_mid), &pz(&q1, 0b110_000, idx([0, 0, 0, 0, 6, 7, 0, 0]))); // < 18p
        let xp = a2(&a2(&pz(&q1, 0b000_001, idx([5, 0, 0, 0, 0, 0, 0, 0])), &pz(&q1, 0b000_001, idx([7, 0, 0, 0, 0, 0, 0, 0]))), &pz(&q2, 0b001_010, idx([0, 0, 0, 6, 0, 0, 0, 0])));
        let xm_q2 = pz(&q2, 0b001_000, idx([0, 0, 0, 0, 0, 0, 0, 0]));
        let xm = if D_TWIST { xm_q2 } else { a2(&pz(&q1, 0b001_000, idx([0, 0, 0, 5, 0, 0, 0, 0])), &xm_q2) };
        let plain = ak(&s2(&pp, &pm), &splat(&c.mult[18])); // < 36p
        let xz = ak(&s2(&xp, &xm), &splat(&c.mult[12])); // < 24p
        let out = r2(&a2(&plain, &xi_t::<M, T>(&xz, &splat(&c.mult[24]))), k); // < 84p; < 24 (t + 3) p before the reduction
        let zero = [_mm512_setzero_si512(); M];
        store(&blend(0b0011_1111, &zero, &out.re), re);
        store(&blend(0b0011_1111, &zero, &out.im), im);
    }
}

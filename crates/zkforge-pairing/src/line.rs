//! Miller-loop steps on the sextic twist E'(Fp2): y^2 = x^3 + b', with T in homogeneous
//! projective coordinates (x = X/Z, y = Y/Z) so that no step inverts. Formulas from Costello,
//! Lange, Naehrig, "Faster pairing computations on curves with high-degree twists" (ePrint
//! 2009/615) as written in Aranha et al., ePrint 2010/526, section 4 (equations for the
//! doubling and mixed addition steps), with the halvings removed by scaling the output point
//! by 4 (homogeneous coordinates absorb it).
//!
//! A step returns the line through T (and Q) as three Fp2 coefficients (l0, lx, ly); at a G1
//! point P = (xP, yP) the line is l0 + lx xP + ly yP, each term in its own Fp12 slot (see
//! `sparse.rs`). Lines are defined up to an Fp2 factor, which the final exponentiation kills.
//!
//! Costs (M~, S~: Fp2 multiplication and squaring; m: Fp2 times Fp):
//! - doubling step: 3 M~ + 5 S~ and a multiplication by the constant 3b', then 4 m to
//!   evaluate the line at P. On BLS12-381, b' = 4(1 + u), so 3b' c = 12 (c0 - c1 + (c0 + c1) u)
//!   takes two Fp2 additions and four doublings instead of an M~ ([`ThreeB::OnePlusUTimes`],
//!   the form blst's doubling also uses);
//! - mixed addition step: 11 M~ + 2 S~, then 4 m.

use zkforge_field::tower::{Fp2, TowerConfig};
use zkforge_field::Fp;

/// A twist point in homogeneous projective coordinates.
#[derive(Clone, Copy, Debug)]
pub struct G2Homogeneous<C: TowerConfig<N>, const N: usize> {
    /// X = x Z.
    pub x: Fp2<C, N>,
    /// Y = y Z.
    pub y: Fp2<C, N>,
    /// Z.
    pub z: Fp2<C, N>,
}

/// The coefficients of one line: l0 + lx * xP + ly * yP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCoeffs<C: TowerConfig<N>, const N: usize> {
    /// Constant coefficient.
    pub l0: Fp2<C, N>,
    /// Coefficient of xP.
    pub lx: Fp2<C, N>,
    /// Coefficient of yP.
    pub ly: Fp2<C, N>,
}

/// How a doubling step multiplies by 3b' of the twist.
#[derive(Clone, Copy, Debug)]
pub enum ThreeB<C: TowerConfig<N>, const N: usize> {
    /// A general Fp2 product by this value of 3b' (BN254, where b' = 3 / (9 + u)).
    General(Fp2<C, N>),
    /// 3b' = k (1 + u) for a small k (BLS12-381: b' = 4 (1 + u), k = 12): c (1 + u) =
    /// (c0 - c1) + (c0 + c1) u, then k times by doublings and additions.
    OnePlusUTimes(u64),
}

impl<C: TowerConfig<N>, const N: usize> ThreeB<C, N> {
    /// The value 3b'.
    pub fn value(&self) -> Fp2<C, N> {
        match *self {
            ThreeB::General(b) => b,
            ThreeB::OnePlusUTimes(k) => {
                let k = Fp::from_u64(k);
                Fp2::new(k, k)
            }
        }
    }

    /// 3b' c.
    #[inline(always)]
    pub fn mul(&self, c: &Fp2<C, N>) -> Fp2<C, N> {
        match *self {
            ThreeB::General(b) => b * *c,
            ThreeB::OnePlusUTimes(0) => Fp2::ZERO,
            ThreeB::OnePlusUTimes(k) => {
                let x = Fp2::new(c.c0 - c.c1, c.c0 + c.c1);
                // k x by the bits of k, most significant first (k = 12: 2x, 3x, 6x, 12x)
                let mut acc = x;
                let top = 63 - k.leading_zeros();
                for i in (0..top).rev() {
                    acc = acc.double();
                    if (k >> i) & 1 == 1 {
                        acc = acc + x;
                    }
                }
                acc
            }
        }
    }
}

/// T <- 2T; returns the tangent line at T. `three_b` multiplies by 3b' of the twist.
/// Out of line: inlined into the Miller loop it made an 18,000-instruction loop body (see the
/// code-size notes of `zkforge_field::tower`); out of line the BLS12-381 Miller loop ran 6 %
/// faster.
#[inline(never)]
pub fn doubling_step<C: TowerConfig<N>, const N: usize>(t: &mut G2Homogeneous<C, N>, three_b: &ThreeB<C, N>) -> LineCoeffs<C, N> {
    let a = t.x * t.y; // 2A of the paper
    let b = t.y.square();
    let c = t.z.square();
    let e = three_b.mul(&c);
    let f = e.double() + e;
    let g = b + f; // 2G
    let h = (t.y + t.z).square() - b - c; // 2YZ
    let i = e - b;
    let j = t.x.square();
    let e2 = e.square();
    // (4 X3, 4 Y3, 4 Z3) = (2 A'(B - F), G'^2 - 12 E^2, 4 B H)
    t.x = (a * (b - f)).double();
    let e2_3 = e2.double() + e2;
    t.y = g.square() - e2_3.double().double();
    t.z = (b * h).double().double();
    LineCoeffs { l0: i, lx: j.double() + j, ly: -h }
}

/// T <- T + Q for an affine Q = (qx, qy) with T != +-Q; returns the line through T and Q.
/// Y3 and the line's constant term, each a product minus a product, take one reduction
/// ([`Fp2::mul_sub_mul`]).
#[inline]
pub fn addition_step<C: TowerConfig<N>, const N: usize>(t: &mut G2Homogeneous<C, N>, qx: &Fp2<C, N>, qy: &Fp2<C, N>) -> LineCoeffs<C, N> {
    let theta = t.y - *qy * t.z;
    let lambda = t.x - *qx * t.z;
    let c = theta.square();
    let d = lambda.square();
    let e = lambda * d;
    let f = t.z * c;
    let g = t.x * d;
    let h = e + f - g.double();
    t.x = lambda * h;
    t.y = theta.mul_sub_mul(&(g - h), &e, &t.y);
    t.z = t.z * e;
    let j = theta.mul_sub_mul(qx, &lambda, qy);
    LineCoeffs { l0: j, lx: -theta, ly: lambda }
}

/// Which sextic twist: where the line's terms land in Fp12.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Twist {
    /// Multiplicative twist (BLS12-381): slots 0, 1, 4 take l0, lx xP, ly yP.
    M,
    /// Divisive twist (BN254): slots 0, 3, 4 take ly yP, lx xP, l0.
    D,
}

/// f * line(P) in sparse form.
#[inline(always)]
pub fn mul_by_line<C: TowerConfig<N>, const N: usize>(
    f: &zkforge_field::tower::Fp12<C, N>,
    l: &LineCoeffs<C, N>,
    px: &Fp<C, N>,
    py: &Fp<C, N>,
    twist: Twist,
) -> zkforge_field::tower::Fp12<C, N> {
    let cx = l.lx.mul_by_fp(px);
    let cy = l.ly.mul_by_fp(py);
    // a normalized prepared line (`config::PreparedLines`) has l0 = 1: 9 Fp2 products instead
    // of 13 (exact for any line whose l0 is one)
    let unit = l.l0 == Fp2::ONE;
    match twist {
        Twist::M if unit => crate::sparse::mul_by_014_unit(f, &cx, &cy),
        Twist::M => crate::sparse::mul_by_014(f, &l.l0, &cx, &cy),
        Twist::D if unit => crate::sparse::mul_by_034_unit(f, &cy, &cx),
        Twist::D => crate::sparse::mul_by_034(f, &cy, &cx, &l.l0),
    }
}


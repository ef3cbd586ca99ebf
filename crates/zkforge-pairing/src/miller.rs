//! The multi-Miller loop shared by both curves: one Fp12 accumulator for all pairs, one
//! squaring per loop digit for all of them, each pair's line multiplied in sparse form. Lines
//! come either from a live twist point (computed as the loop runs) or from a prepared list
//! (`G2Prepared`, computed once for a fixed G2 point).
//!
//! Loop shape: digits of the loop count from the one after the leading 1 down to bit 0
//! (a doubling step per digit, an addition with +-Q per non-zero digit), then `extra`
//! addition steps with per-pair points (BN254's Frobenius steps), then a conjugation when
//! the curve parameter is negative (BLS12-381).

use zkforge_field::tower::{Fp12, Fp2, TowerConfig};
use zkforge_field::Fp;

use crate::line::{addition_step, doubling_step, mul_by_line, G2Homogeneous, LineCoeffs, ThreeB, Twist};

/// A curve's Miller loop (what [`crate::PairingConfig::loop_shape`] returns).
#[derive(Clone, Copy, Debug)]
pub struct LoopShape {
    /// Loop digits (0, 1, -1) after the leading 1, most significant first.
    pub digits: &'static [i8],
    /// Number of trailing addition steps with per-pair extra points.
    pub extra: usize,
    /// Sextic twist type.
    pub twist: Twist,
    /// Conjugate the result (negative loop parameter).
    pub conjugate: bool,
}

/// Where one pair's lines come from.
pub(crate) enum Lines<'a, C: TowerConfig<N>, const N: usize> {
    /// From a precomputed list, in loop order.
    Prepared { coeffs: &'a [LineCoeffs<C, N>], pos: usize },
    /// Computed from the running point T.
    Live {
        t: G2Homogeneous<C, N>,
        qx: Fp2<C, N>,
        qy: Fp2<C, N>,
        neg_qy: Fp2<C, N>,
        extra: [(Fp2<C, N>, Fp2<C, N>); 2],
    },
}

impl<'a, C: TowerConfig<N>, const N: usize> Lines<'a, C, N> {
    /// Live lines for Q = (qx, qy) with its extra points.
    pub fn live(qx: Fp2<C, N>, qy: Fp2<C, N>, extra: [(Fp2<C, N>, Fp2<C, N>); 2]) -> Self {
        Lines::Live { t: G2Homogeneous { x: qx, y: qy, z: Fp2::ONE }, qx, qy, neg_qy: -qy, extra }
    }

    #[inline(always)]
    fn take(coeffs: &[LineCoeffs<C, N>], pos: &mut usize) -> LineCoeffs<C, N> {
        let l = coeffs[*pos];
        *pos += 1;
        l
    }

    #[inline(always)]
    pub fn double(&mut self, three_b: &ThreeB<C, N>) -> LineCoeffs<C, N> {
        match self {
            Lines::Prepared { coeffs, pos } => Self::take(coeffs, pos),
            Lines::Live { t, .. } => doubling_step(t, three_b),
        }
    }

    #[inline(always)]
    pub fn add(&mut self, digit: i8) -> LineCoeffs<C, N> {
        match self {
            Lines::Prepared { coeffs, pos } => Self::take(coeffs, pos),
            Lines::Live { t, qx, qy, neg_qy, .. } => {
                let y = if digit > 0 { *qy } else { *neg_qy };
                addition_step(t, qx, &y)
            }
        }
    }

    #[inline(always)]
    pub fn add_extra(&mut self, k: usize) -> LineCoeffs<C, N> {
        match self {
            Lines::Prepared { coeffs, pos } => Self::take(coeffs, pos),
            Lines::Live { t, extra, .. } => {
                let (x, y) = extra[k];
                addition_step(t, &x, &y)
            }
        }
    }
}

/// Every line of one G2 point, in loop order.
pub(crate) fn prepare<C: TowerConfig<N>, const N: usize>(
    shape: &LoopShape,
    three_b: &ThreeB<C, N>,
    mut src: Lines<'_, C, N>,
) -> Vec<LineCoeffs<C, N>> {
    let nonzero = shape.digits.iter().filter(|&&d| d != 0).count();
    let mut out = Vec::with_capacity(shape.digits.len() + nonzero + shape.extra);
    for &d in shape.digits {
        out.push(src.double(three_b));
        if d != 0 {
            out.push(src.add(d));
        }
    }
    for k in 0..shape.extra {
        out.push(src.add_extra(k));
    }
    out
}

/// Divide every line by its constant coefficient l0 where that is not zero (lines are defined
/// up to an Fp2 factor, which the final exponentiation kills), so that the Miller loop takes
/// the cheaper product of a line with a constant one (`sparse::mul_by_014_unit`). One
/// inversion for all of them (Montgomery's batch inversion: prefix products, one inverse,
/// then back through the prefixes); a line with l0 = 0 stays as it is.
pub(crate) fn normalize_lines<C: TowerConfig<N>, const N: usize>(lines: &mut [LineCoeffs<C, N>]) {
    let live = |l: &LineCoeffs<C, N>| !bool::from(l.l0.is_zero());
    let mut prefix = Vec::with_capacity(lines.len());
    let mut acc = Fp2::<C, N>::ONE;
    for l in lines.iter() {
        prefix.push(acc);
        if live(l) {
            acc = acc * l.l0;
        }
    }
    // a product of non-zero elements is not zero; the fallback keeps the lines as they are
    let Some(mut inv) = Option::<Fp2<C, N>>::from(acc.invert()) else { return };
    for (l, pre) in lines.iter_mut().zip(prefix).rev() {
        if !live(l) {
            continue;
        }
        // inv = 1 / (l0 of this line and every earlier live one), pre = their product up to here
        let i = inv * pre;
        inv = inv * l.l0;
        l.lx = l.lx * i;
        l.ly = l.ly * i;
        l.l0 = Fp2::ONE;
    }
}

/// prod_i f_{loop, Q_i}(P_i) for the pairs (P_i = (x, y), lines of Q_i).
///
/// Each pair's line goes into f on its own. Multiplying two pairs' lines together first (6 Fp2
/// products) and their 5-sparse product into f (17) saves three of 26 Fp2 products but adds
/// more wide additions than it saves; measured in one process (issue 19, eighth part): BLS12-381
/// pairing checks of 2 and 8 pairs 0.4 % faster and 0.2 % slower, BN254 3 % and 5 % slower,
/// so it was not kept.
pub(crate) fn multi_miller_loop<C: TowerConfig<N>, const N: usize>(
    shape: &LoopShape,
    three_b: &ThreeB<C, N>,
    pairs: &mut [(Fp<C, N>, Fp<C, N>, Lines<'_, C, N>)],
) -> Fp12<C, N> {
    #[cfg(target_arch = "x86_64")]
    if crate::config::miller_accumulator() != crate::config::MillerAccumulator::Scalar {
        if let Some(f) = multi_miller_loop_lanes(shape, three_b, pairs) {
            return f;
        }
    }
    let mut f = Fp12::<C, N>::ONE;
    let twist = shape.twist;
    for (k, &d) in shape.digits.iter().enumerate() {
        if k > 0 {
            f = f.square();
        }
        for (px, py, src) in pairs.iter_mut() {
            let l = src.double(three_b);
            f = mul_by_line(&f, &l, px, py, twist);
        }
        if d != 0 {
            for (px, py, src) in pairs.iter_mut() {
                let l = src.add(d);
                f = mul_by_line(&f, &l, px, py, twist);
            }
        }
    }
    for k in 0..shape.extra {
        for (px, py, src) in pairs.iter_mut() {
            let l = src.add_extra(k);
            f = mul_by_line(&f, &l, px, py, twist);
        }
    }
    if shape.conjugate {
        f = f.conjugate();
    }
    f
}

/// A line into the lane accumulator, in the twist's slots.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn line_into_lanes<C: TowerConfig<N>, const N: usize>(f: &mut zkforge_field::tower::Fp12Lanes<C, N>, l: &LineCoeffs<C, N>, sc: &zkforge_field::tower::LineScale<C, N>, twist: Twist) {
    match twist {
        Twist::M => f.mul_by_014(&l.l0, &l.lx, &l.ly, sc),
        Twist::D => f.mul_by_034(&l.l0, &l.lx, &l.ly, sc),
    }
}

/// How many pairs one call of [`multi_miller_loop`] takes at once for `n` pairs: where their
/// steps would run on lanes (one pair per lane, `G2Lanes::MAX_PAIRS` = 8 per chunk), 8, else 1.
/// A parallel split into chunks smaller than this leaves lanes empty, and every chunk costs
/// what a full one does.
pub(crate) fn lane_chunk<C: TowerConfig<N>, const N: usize>(n: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    if crate::config::miller_accumulator() != crate::config::MillerAccumulator::Scalar
        && n >= crate::config::lane_steps_min_pairs()
        && zkforge_field::tower::Fp12Lanes::<C, N>::one().is_some()
    {
        return zkforge_field::tower::G2Lanes::<C, N>::MAX_PAIRS;
    }
    let _ = n;
    1
}

/// The length of each part (the last may be shorter) when `n` pairs are cut over `parts`
/// threads, by [`crate::config::parallel_split`]: near-equal parts, or parts rounded up to
/// whole lane groups ([`lane_chunk`]).
pub(crate) fn parallel_part_len<C: TowerConfig<N>, const N: usize>(n: usize, parts: usize) -> usize {
    use crate::config::{parallel_split, ParallelSplit};
    let even = n.div_ceil(parts.max(1)).max(1);
    let lane_groups = match parallel_split() {
        ParallelSplit::Auto => !zkforge_field::backend::avx512_half_width(),
        ParallelSplit::LaneGroups => true,
        ParallelSplit::Even => false,
    };
    if lane_groups {
        even.next_multiple_of(lane_chunk::<C, N>(n))
    } else {
        even
    }
}

/// [`multi_miller_loop`] with the accumulator on IFMA lanes (`Fp12Lanes`: its squarings and
/// line products there, M-twist for BLS12-381 and D-twist for BN254; lines from the same scalar
/// steps, scaled by each pair's G1 point as they enter the lanes); `None` where the lanes do
/// not apply. Same result.
#[cfg(target_arch = "x86_64")]
fn multi_miller_loop_lanes<C: TowerConfig<N>, const N: usize>(
    shape: &LoopShape,
    three_b: &ThreeB<C, N>,
    pairs: &mut [(Fp<C, N>, Fp<C, N>, Lines<'_, C, N>)],
) -> Option<Fp12<C, N>> {
    use zkforge_field::tower::{Fp12Lanes, LineScale};
    let mut f = Fp12Lanes::<C, N>::one()?;
    let scales = pairs.iter().map(|(px, py, _)| LineScale::new(px, py)).collect::<Option<Vec<_>>>()?;
    let all_live = pairs.iter().all(|(_, _, src)| matches!(src, Lines::Live { .. }));
    if all_live && pairs.len() >= crate::config::lane_steps_min_pairs() {
        return miller_loop_lane_steps(shape, three_b, pairs, f, &scales);
    }
    for (k, &d) in shape.digits.iter().enumerate() {
        if k > 0 {
            f.square();
        }
        for ((_, _, src), sc) in pairs.iter_mut().zip(&scales) {
            let l = src.double(three_b);
            line_into_lanes(&mut f, &l, sc, shape.twist);
        }
        if d != 0 {
            for ((_, _, src), sc) in pairs.iter_mut().zip(&scales) {
                let l = src.add(d);
                line_into_lanes(&mut f, &l, sc, shape.twist);
            }
        }
    }
    for k in 0..shape.extra {
        for ((_, _, src), sc) in pairs.iter_mut().zip(&scales) {
            let l = src.add_extra(k);
            line_into_lanes(&mut f, &l, sc, shape.twist);
        }
    }
    let f = f.to_fp12();
    Some(if shape.conjugate { f.conjugate() } else { f })
}

/// The lane Miller loop with the doubling steps on lanes too ([`zkforge_field::tower::G2Lanes`],
/// one pair per lane, chunks of eight): every pair's T lives on the lanes; addition steps run
/// there too (`G2Lanes::add_into`) or, with [`crate::config::set_lane_addition_steps`] off,
/// take the points out, run the scalar step per pair and put them back; the live lines' T is
/// written back at the end (callers read it, see `multi_miller_loop_with_ends`), and the
/// shape's extra steps (BN254's) run from there in the scalar tower.
#[cfg(target_arch = "x86_64")]
fn miller_loop_lane_steps<C: TowerConfig<N>, const N: usize>(
    shape: &LoopShape,
    three_b: &ThreeB<C, N>,
    pairs: &mut [(Fp<C, N>, Fp<C, N>, Lines<'_, C, N>)],
    mut f: zkforge_field::tower::Fp12Lanes<C, N>,
    scales: &[zkforge_field::tower::LineScale<C, N>],
) -> Option<Fp12<C, N>> {
    use zkforge_field::tower::G2Lanes;
    let chunk = G2Lanes::<C, N>::MAX_PAIRS;
    // a live line's running point T and its Q
    let live = |src: &Lines<'_, C, N>| match src {
        Lines::Live { t, qx, qy, .. } => ((t.x, t.y, t.z), (*qx, *qy)),
        Lines::Prepared { .. } => unreachable!("only live lines reach the lane steps"),
    };
    let t_of = |src: &Lines<'_, C, N>| live(src).0;
    let mut groups = Vec::new();
    for c in pairs.chunks(chunk) {
        let g1: Vec<_> = c.iter().map(|(px, py, _)| (*px, *py)).collect();
        let t: Vec<_> = c.iter().map(|(_, _, src)| t_of(src)).collect();
        let mut g = G2Lanes::new(&g1, &t, &three_b.value(), shape.twist == Twist::D)?;
        if crate::config::lane_addition_steps() {
            g.set_addends(&c.iter().map(|(_, _, src)| live(src).1).collect::<Vec<_>>());
        }
        groups.push(g);
    }
    for (k, &d) in shape.digits.iter().enumerate() {
        if k > 0 {
            f.square();
        }
        for g in groups.iter_mut() {
            g.double_into(&mut f);
        }
        if d != 0 {
            for (g, (c, sc)) in groups.iter_mut().zip(pairs.chunks_mut(chunk).zip(scales.chunks(chunk))) {
                // on the lanes when their addends are set, else the points out for scalar steps
                if g.add_into(&mut f, d < 0) {
                    continue;
                }
                let pts = g.points();
                let mut out = Vec::with_capacity(pts.len());
                for (((_, _, src), s), (x, y, z)) in c.iter_mut().zip(sc).zip(pts) {
                    if let Lines::Live { t, .. } = src {
                        *t = G2Homogeneous { x, y, z };
                    }
                    let l = src.add(d);
                    line_into_lanes(&mut f, &l, s, shape.twist);
                    out.push(t_of(src));
                }
                g.set_points(&out);
            }
        }
    }
    for (g, c) in groups.iter().zip(pairs.chunks_mut(chunk)) {
        for ((_, _, src), (x, y, z)) in c.iter_mut().zip(g.points()) {
            if let Lines::Live { t, .. } = src {
                *t = G2Homogeneous { x, y, z };
            }
        }
    }
    // the extra steps (BN254's Frobenius additions) in the scalar tower, lines onto the lanes
    for k in 0..shape.extra {
        for ((_, _, src), s) in pairs.iter_mut().zip(scales) {
            let l = src.add_extra(k);
            line_into_lanes(&mut f, &l, s, shape.twist);
        }
    }
    let f = f.to_fp12();
    Some(if shape.conjugate { f.conjugate() } else { f })
}

/// Signed binary digits of a loop count, most significant first, without the leading 1:
/// plain binary when `naf` is false, the non-adjacent form otherwise.
pub(crate) const fn loop_digits<const L: usize>(mut n: u128, naf: bool) -> ([i8; L], usize) {
    let mut lsb_first = [0i8; L];
    let mut len = 0;
    while n > 0 {
        let d: i8 = if n & 1 == 1 {
            if naf {
                2 - (n & 3) as i8
            } else {
                1
            }
        } else {
            0
        };
        lsb_first[len] = d;
        if d == 1 {
            n -= 1;
        } else if d == -1 {
            n += 1;
        }
        n >>= 1;
        len += 1;
    }
    // reverse, dropping the leading digit (always 1)
    let mut out = [0i8; L];
    let mut i = 0;
    while i + 1 < len {
        out[i] = lsb_first[len - 2 - i];
        i += 1;
    }
    (out, len - 1)
}

#[cfg(test)]
mod tests {
    use super::normalize_lines;
    use crate::line::LineCoeffs;
    use zkforge_field::bls12_381::{Fp2, FpConfig};

    /// Each line with l0 != 0 becomes (1, lx / l0, ly / l0); a line with l0 = 0 stays as it is,
    /// and the batch inversion skips it (zeros first, in the middle and last).
    #[test]
    fn normalized_lines_are_scaled_and_zero_constants_kept() {
        let mut rng = rand::thread_rng();
        let mut lines: Vec<LineCoeffs<FpConfig, 6>> = (0..9).map(|_| LineCoeffs { l0: Fp2::random(&mut rng), lx: Fp2::random(&mut rng), ly: Fp2::random(&mut rng) }).collect();
        for k in [0, 4, 8] {
            lines[k].l0 = Fp2::ZERO;
        }
        let before = lines.clone();
        normalize_lines(&mut lines);
        for (a, b) in before.iter().zip(&lines) {
            if bool::from(a.l0.is_zero()) {
                assert_eq!(a, b);
            } else {
                assert_eq!(b.l0, Fp2::ONE);
                assert_eq!(b.lx * a.l0, a.lx);
                assert_eq!(b.ly * a.l0, a.ly);
            }
        }
        // all zero: nothing to invert
        let mut zeros = vec![LineCoeffs { l0: Fp2::ZERO, lx: Fp2::ONE, ly: Fp2::ONE }; 3];
        normalize_lines(&mut zeros);
        assert!(zeros.iter().all(|l| bool::from(l.l0.is_zero())));
    }
}

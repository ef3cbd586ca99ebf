//! Poseidon1 with sparse partial rounds: the equivalent form of Grassi et al., "Poseidon",
//! ePrint 2019/458, appendix B (as Plonky2's "fast partial rounds" use it), derived here at
//! construction from the round constants and the MDS matrix, and the scalar permutation in
//! that form. The packed paths (`poseidon1_packed.rs`) run the same constants.
//!
//! A partial round is x <- M S0(x + c), S0 cubing lane 0 only.
//! - Constants, pushed forward: with c = c_0 e0 + c', S0(x + c) = S0(x + c_0 e0) + c', so
//!   M c' joins the next round's constants; each partial round adds one scalar k_i to lane 0,
//!   and what is left after the last one joins the first terminal full round's constants.
//! - Matrices, factored backward: write the round's matrix C = A B with B = diag(1, C^)
//!   (C^ the lower-right (t-1)x(t-1) block) and A = [[C00, w^T], [C_{1..,0}, I]], where
//!   w^T = C_{0,1..} C^^-1. B leaves lane 0 alone, so it commutes with S0 and with adding
//!   k e0 and moves into the round before, whose matrix becomes B M. Every partial round is
//!   then A_i: x0' = C00 x0 + w_i . x_{1..}, x_j' = x_j + v_ij x0 (2t - 1 products instead
//!   of t^2), and the last initial full round takes the dense matrix B_0 M.
//!
//! C^ is invertible at every step: for the first, a square submatrix of an MDS matrix; after,
//! a product of such blocks.
//!
//! One state at a time the partial rounds are a latency chain: x0 <- w_i . x waits for the
//! S-box, and the next S-box for x0. [`Deferred`] takes the dot products off that chain. The
//! tail x_{1..} only ever receives x_j += v_ij c_i (c_i the i-th S-box output), so with u the
//! tail when the partial rounds begin,
//!   x0_{i+1} = w_i0 c_i + w_i . u + sum_{i' < i} (w_i . v_i') c_i'   (dots over lanes 1..),
//! and every term but the first is known before c_i is: the dots w_i . u of all rounds are one
//! matrix-vector product at the start, and each c_i' is added, times the precomputed
//! C[i][i'] = w_i . v_i', into the sums of the rounds after it as soon as it exists (lane-wise
//! products over the rounds, off the chain). What stays on the chain per round is the cube,
//! one product w_i0 c_i and one Montgomery reduction. About W + R lane products more per
//! permutation than the sparse rounds (the C terms), all of them off the chain.

use crate::koalabear::{reduce64, Kb, P, P_NEG_INV};

/// The constants of the sparse form for width W (`R` partial rounds).
#[derive(Clone, Debug)]
pub(crate) struct Fast<const W: usize> {
    /// Round constants of the four initial full rounds.
    pub init_rc: Vec<[Kb; W]>,
    /// The MDS matrix, rows.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub m: Vec<[Kb; W]>,
    /// B_0 M, the last initial full round's matrix, rows.
    pub pre: Vec<[Kb; W]>,
    /// Lane-0 constant of each partial round (added before its S-box).
    pub k: Vec<Kb>,
    /// Row 0 of each partial round's sparse matrix: [C00, w_1, ..].
    pub w: Vec<[Kb; W]>,
    /// Column 0 below the diagonal of each partial round's sparse matrix: [0, v_1, ..].
    pub v: Vec<[Kb; W]>,
    /// Round constants of the four terminal full rounds (the first with the carried part).
    pub term_rc: Vec<[Kb; W]>,
    /// The same constants as raw Montgomery representatives, in the layouts the one-state
    /// register rounds load (`poseidon1_avx512::permute_wide_sparse`): `init_rc`, `term_rc`,
    /// `k`; `w` and `v` widened to u64; `pre` by columns (entry i of column j in position i).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub raw: Raw<W>,
    /// The partial rounds' constants in the deferred form (see the module header).
    pub deferred: Deferred<W>,
}

/// Lanes of [`Deferred`]'s per-round sums: at least the partial-round count (20 at width 16,
/// 23 at width 24), and a multiple of 8 (three 512-bit or six 256-bit registers of u64).
pub(crate) const DEFER_LANES: usize = 24;

/// 2^64 mod p: [`redc`] of a representative times this is the representative times R.
const R2: u64 = ((1u128 << 64) % P as u128) as u64;

const M32: u64 = 0xffff_ffff;

/// a b for a, b below 2^32 in u64, written so that LLVM sees the operands' width and uses a
/// 32 x 32-bit multiplication (`vpmuludq` when vectorised) rather than a 64-bit one.
#[inline(always)]
fn mul32(a: u64, b: u64) -> u64 {
    (a & M32) * (b & M32)
}

/// x R^-1 mod p, below 2p (no final subtraction), for x < p 2^32.
#[inline(always)]
fn redc(x: u64) -> u64 {
    let m = mul32(x, P_NEG_INV as u64) & M32;
    (x + mul32(m, P as u64)) >> 32
}

/// The partial rounds of the sparse form with the dot products off the latency chain (see the
/// module header), on one state of canonical Montgomery representatives held as u64. Plain
/// Rust: the lane loops over [`DEFER_LANES`] rounds and W entries vectorise with whatever the
/// calling function is compiled for (AVX-512, AVX2, SSE2, NEON); the chain per round is the
/// cube, one product and one reduction.
///
/// Bounds: a round's sum collects at most 12 + 21 Montgomery outputs below 2p and one
/// constant below p, a tail lane one representative and at most 23 outputs: below 67p < 2^38,
/// where `reduce64` is exact. The reduction on the chain sums two products below p^2 and one
/// value below 2p, below p 2^32 as `redc` needs.
#[derive(Clone, Debug)]
pub(crate) struct Deferred<const W: usize> {
    /// k_0, added to x0 before the first S-box.
    k0: u64,
    /// k_{i+1} for round i (0 for the last: its output is x0 itself).
    knext: Vec<u64>,
    /// w_i0, the product on the chain.
    w0: Vec<u64>,
    /// C[i + 1][i] = w_{i+1} . v_i: c_i's term in the next round's sum, kept on the scalar
    /// side (one product, its reduction shared with w_i0 c_i); 0 for the last round.
    next_term: Vec<u64>,
    /// Column j of the rounds' dots: a[j][r] = w_rj for j >= 1 and r < R (0 elsewhere).
    a: Vec<[u64; DEFER_LANES]>,
    /// c_i's coefficients in the later rounds' sums: c[i][r] = C[r][i] for r >= i + 2 (the
    /// round after next on; 0 elsewhere).
    c: Vec<[u64; DEFER_LANES]>,
    /// v_i (v_i0 = 0), added to the tail times c_i.
    v: Vec<[u64; W]>,
}

impl<const W: usize> Deferred<W> {
    fn new(k: &[Kb], w: &[[Kb; W]], v: &[[Kb; W]]) -> Self {
        let r = k.len();
        assert!(r <= DEFER_LANES && w.len() == r && v.len() == r, "at most DEFER_LANES partial rounds");
        let rep = |x: Kb| x.to_monty() as u64;
        // C[a][b] = w_a . v_b over lanes 1..
        let cc = |a: usize, b: usize| (1..W).fold(Kb::ZERO, |acc, j| acc + w[a][j] * v[b][j]);
        Deferred {
            k0: k.first().map_or(0, |x| rep(*x)),
            knext: (0..r).map(|i| k.get(i + 1).map_or(0, |x| rep(*x))).collect(),
            w0: w.iter().map(|row| rep(row[0])).collect(),
            next_term: (0..r).map(|i| if i + 1 < r { rep(cc(i + 1, i)) } else { 0 }).collect(),
            a: (0..W).map(|j| core::array::from_fn(|row| if j >= 1 && row < r { rep(w[row][j]) } else { 0 })).collect(),
            c: (0..r).map(|i| core::array::from_fn(|row| if row >= i + 2 && row < r { rep(cc(row, i)) } else { 0 })).collect(),
            v: v.iter().map(|row| row.map(rep)).collect(),
        }
    }

    /// The partial rounds on `x` (canonical Montgomery representatives in and out).
    #[inline(always)]
    pub(crate) fn run(&self, x: &mut [u64; W]) {
        // d[r]: round r's sum w_r . u + sum of the C terms added so far (lanes 1.. only)
        let mut d = [0u64; DEFER_LANES];
        let mut j = 1;
        while j + 1 < W {
            let (xa, xb, ca, cb) = (x[j], x[j + 1], &self.a[j], &self.a[j + 1]);
            for r in 0..DEFER_LANES {
                d[r] += redc(mul32(xa, ca[r]) + mul32(xb, cb[r]));
            }
            j += 2;
        }
        if j < W {
            let (xa, ca) = (x[j], &self.a[j]);
            for r in 0..DEFER_LANES {
                d[r] += redc(mul32(xa, ca[r]));
            }
        }
        let mut tail = *x;
        let mut s = reduce64(x[0] + self.k0) as u64;
        let mut term = 0u64;
        // round i's sum, read before round i - 1 adds its S-box output to the lanes (which
        // leaves row i alone): a load that waited for that addition would put the lane
        // products back on the chain
        let mut sum = d[0];
        for i in 0..self.w0.len() {
            let c = Kb::from_monty_unchecked(s as u32).cube_lazy_square().raw64();
            // off the chain: round i's sum with the next constant, times R (for the shared
            // reduction below)
            let g = redc(mul32(reduce64(sum + self.knext[i]) as u64, R2));
            // on the chain: x0 + k of the next round = R^-1 (w_i0 c + C[i][i-1] c_{i-1} + g)
            let t = redc(mul32(self.w0[i], c) + term + g);
            s = t.min(t.wrapping_sub(P as u64));
            term = mul32(self.next_term[i], c);
            sum = d[(i + 1) % DEFER_LANES];
            let (ci, vi) = (&self.c[i], &self.v[i]);
            for r in 0..DEFER_LANES {
                d[r] += redc(mul32(c, ci[r]));
            }
            for jj in 0..W {
                tail[jj] += redc(mul32(c, vi[jj]));
            }
        }
        x[0] = s;
        for jj in 1..W {
            x[jj] = reduce64(tail[jj]) as u64;
        }
    }
}

/// [`Fast`]'s constants as raw Montgomery representatives (see [`Fast::raw`]).
#[derive(Clone, Debug)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct Raw<const W: usize> {
    pub init_rc: Vec<[u32; W]>,
    pub term_rc: Vec<[u32; W]>,
    pub k: Vec<u32>,
    pub w: Vec<[u64; W]>,
    pub v: Vec<[u64; W]>,
    pub pre_cols: Vec<[u64; W]>,
}

fn mat_vec<const W: usize>(a: &[[Kb; W]], x: &[Kb; W]) -> [Kb; W] {
    let mut y = [Kb::ZERO; W];
    for (yi, row) in y.iter_mut().zip(a) {
        for (c, xj) in row.iter().zip(x) {
            *yi += *c * *xj;
        }
    }
    y
}

/// The inverse of a square matrix over KoalaBear (Gauss-Jordan; `None` when singular).
fn invert(a: &[Vec<Kb>]) -> Option<Vec<Vec<Kb>>> {
    let n = a.len();
    let mut m: Vec<Vec<Kb>> = a.iter().enumerate().map(|(i, r)| r.iter().copied().chain((0..n).map(|j| if i == j { Kb::ONE } else { Kb::ZERO })).collect()).collect();
    for col in 0..n {
        let piv = (col..n).find(|&r| m[r][col] != Kb::ZERO)?;
        m.swap(col, piv);
        let inv = m[col][col].inverse();
        for x in m[col].iter_mut() {
            *x *= inv;
        }
        for r in 0..n {
            if r != col && m[r][col] != Kb::ZERO {
                let f = m[r][col];
                let pivot_row = m[col].clone();
                for (x, p) in m[r].iter_mut().zip(&pivot_row) {
                    *x -= f * *p;
                }
            }
        }
    }
    Some(m.into_iter().map(|r| r[n..].to_vec()).collect())
}

impl<const W: usize> Fast<W> {
    /// The sparse form of the permutation with round constants `rc` (4 + `partial` + 4
    /// rounds) and MDS matrix `m` (rows).
    pub(crate) fn derive(rc: &[[Kb; W]], m: &[[Kb; W]], partial: usize) -> Self {
        assert_eq!(rc.len(), 8 + partial, "4 + partial + 4 rounds");
        let mut carry = [Kb::ZERO; W];
        let mut k = Vec::with_capacity(partial);
        for r in &rc[4..4 + partial] {
            let mut c = *r;
            for (x, y) in c.iter_mut().zip(&carry) {
                *x += *y;
            }
            k.push(c[0]);
            c[0] = Kb::ZERO;
            carry = mat_vec(m, &c);
        }
        let mut term_rc = rc[4 + partial..].to_vec();
        for (x, y) in term_rc[0].iter_mut().zip(&carry) {
            *x += *y;
        }
        let mut cur: Vec<[Kb; W]> = m.to_vec();
        let (mut w, mut v) = (vec![[Kb::ZERO; W]; partial], vec![[Kb::ZERO; W]; partial]);
        for i in (0..partial).rev() {
            let chat: Vec<Vec<Kb>> = (1..W).map(|a| (1..W).map(|b| cur[a][b]).collect()).collect();
            let inv = invert(&chat).expect("a square submatrix of an MDS matrix is invertible");
            for j in 1..W {
                w[i][j] = (1..W).fold(Kb::ZERO, |acc, a| acc + cur[0][a] * inv[a - 1][j - 1]);
                v[i][j] = cur[j][0];
            }
            w[i][0] = cur[0][0];
            cur = (0..W).map(|a| core::array::from_fn(|b| if a == 0 { m[0][b] } else { (1..W).fold(Kb::ZERO, |acc, c| acc + chat[a - 1][c - 1] * m[c][b]) })).collect();
        }
        let row32 = |r: &[Kb; W]| r.map(|x| x.to_monty());
        let row64 = |r: &[Kb; W]| r.map(|x| x.to_monty() as u64);
        let raw = Raw {
            init_rc: rc[..4].iter().map(row32).collect(),
            term_rc: term_rc.iter().map(row32).collect(),
            k: k.iter().map(|x| x.to_monty()).collect(),
            w: w.iter().map(row64).collect(),
            v: v.iter().map(row64).collect(),
            pre_cols: (0..W).map(|j| core::array::from_fn(|i| cur[i][j].to_monty() as u64)).collect(),
        };
        let deferred = Deferred::new(&k, &w, &v);
        Fast { init_rc: rc[..4].to_vec(), m: m.to_vec(), pre: cur, k, w, v, term_rc, raw, deferred }
    }

    /// One partial round i of the sparse form on one state.
    #[inline(always)]
    pub(crate) fn partial_round(&self, i: usize, s: &mut [Kb; W]) {
        let x0 = (s[0] + self.k[i]).cube();
        let w = &self.w[i];
        let mut y0 = w[0] * x0;
        for j in 1..W {
            y0 += w[j] * s[j];
        }
        let v = &self.v[i];
        for j in 1..W {
            s[j] += v[j] * x0;
        }
        s[0] = y0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Deferred::run`] against the sparse rounds one by one ([`Fast::partial_round`]) on
    /// random states and the edges (all zero, all p - 1, one lane set), both widths.
    fn deferred_matches<const W: usize>(f: &Fast<W>) {
        let mut next = crate::poseidon1_circulant::test_states::random_kb(0x2545_f491_4f6c_dd1d);
        let mut states: Vec<[Kb; W]> = (0..200).map(|_| core::array::from_fn(|_| next())).collect();
        states.push([Kb::ZERO; W]);
        states.push([-Kb::ONE; W]);
        for j in 0..W {
            let mut e = [Kb::ZERO; W];
            e[j] = -Kb::ONE;
            states.push(e);
        }
        for s in states {
            let mut want = s;
            for i in 0..f.k.len() {
                f.partial_round(i, &mut want);
            }
            let mut x: [u64; W] = s.map(|e| e.to_monty() as u64);
            f.deferred.run(&mut x);
            assert!(x.iter().all(|&e| e < P as u64), "canonical representatives");
            assert_eq!(x.map(|e| Kb::from_monty(e as u32).expect("canonical")), want);
        }
    }

    #[test]
    fn deferred_matches_the_sparse_rounds() {
        deferred_matches(&crate::poseidon1::Poseidon1::new_16().fast);
        deferred_matches(&crate::poseidon1::Poseidon1::new_24().fast);
    }

    #[test]
    #[allow(clippy::needless_range_loop)]
    fn inverse_of_inverse() {
        let a: Vec<Vec<Kb>> = (0..5).map(|i| (0..5).map(|j| Kb::new((i * 7 + j * j + 1) as u32 % 13 + (i == j) as u32 * 50)).collect()).collect();
        let inv = invert(&a).unwrap();
        for i in 0..5 {
            for j in 0..5 {
                let e = (0..5).fold(Kb::ZERO, |acc, k| acc + a[i][k] * inv[k][j]);
                assert_eq!(e, if i == j { Kb::ONE } else { Kb::ZERO });
            }
        }
        assert!(invert(&[vec![Kb::ONE, Kb::ONE], vec![Kb::ONE, Kb::ONE]]).is_none());
    }
}

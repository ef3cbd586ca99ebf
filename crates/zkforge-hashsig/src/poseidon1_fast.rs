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

use crate::koalabear::Kb;

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
        Fast { init_rc: rc[..4].to_vec(), m: m.to_vec(), pre: cur, k, w, v, term_rc, raw }
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

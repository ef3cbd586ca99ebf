//! The width-24 circulant MDS product of Poseidon1 as a cyclic convolution of length 24,
//! computed in 62 products instead of 576.
//!
//! y_i = sum_j row[(j - i) mod 24] x_j is the cyclic convolution y = r * x with
//! r[d] = row[-d mod 24]. Z_24 = Z_3 x Z_8 (Good-Thomas / CRT index map: n <-> (n mod 3,
//! n mod 8), n = 16 a + 9 b mod 24), so it is a two-dimensional cyclic convolution of 3 x 8
//! arrays. KoalaBear has 8th roots of unity (p - 1 = 2^24 127) but no cube roots, so:
//! - along the 8-axis, a number-theoretic transform of length 8 for each of the three rows
//!   (radix 2, 5 products by twiddles each), forward on x, inverse on the result;
//! - along the 3-axis, per frequency, a length-3 cyclic convolution of the rows' transforms
//!   with the kernel's in 4 products (CRT over z^3 - 1 = (z - 1)(z^2 + z + 1): one product
//!   mod z - 1, a Karatsuba product of 3 mod z^2 + z + 1; see [`conv3`]);
//! - the kernel's transform, its residues and the factors 1/8 and 1/3 precomputed at
//!   construction.
//!
//! Products: 3 x 5 + 8 x 4 + 3 x 5 = 62 instead of 576; additions: 6 x 24 in the butterflies
//! and 8 x 12 in the convolutions.
//! The forward transform (Gentleman-Sande, decimation in frequency) leaves its output in
//! bit-reversed order and the inverse (Cooley-Tukey, decimation in time) takes that order
//! back, so the kernel is transformed by the same forward function and nothing is permuted.
//! This file holds the constants and the scalar product (the reference the packed lanes in
//! `poseidon1_packed.rs` are tested against), and [`SmallCrt16`], width 16's small-entry
//! circulant split in two by the CRT (128 integer products instead of 256).

use crate::koalabear::{Kb, P};

/// Index n of x for position (a, b) of the 3 x 8 array: n = 16 a + 9 b mod 24
/// (16 = 1 mod 3 = 0 mod 8, 9 = 0 mod 3 = 1 mod 8).
pub(crate) const fn crt_index(a: usize, b: usize) -> usize {
    (16 * a + 9 * b) % 24
}

/// The constants of the convolution form of one circulant 24 x 24 matrix.
#[derive(Clone, Debug)]
pub(crate) struct Circulant24 {
    /// Per frequency (position k of the bit-reversed transform), the kernel's length-3
    /// polynomial K = k0 + k1 z + k2 z^2 (its rows' transforms at k, divided by 8 for the
    /// inverse transform) as [`conv3`] takes it: [K(1) / 3, k0 - k2, k1 - k2, (k0 + k1 - 2 k2) / 3].
    pub conv: [[Kb; 4]; 8],
    /// w, w^2, w^3 for a primitive 8th root of unity w (the forward transform's twiddles).
    pub fwd: [Kb; 3],
    /// w^-1, w^-2, w^-3 (the inverse transform's).
    pub inv: [Kb; 3],
}

/// A primitive 8th root of unity: x^((p - 1) / 8) for the least x >= 2 whose 4th power of it
/// is -1.
fn root_of_unity_8() -> Kb {
    (2u32..)
        .map(|x| Kb::new(x).pow((P as u64 - 1) / 8))
        .find(|w| w.pow(4) == -Kb::ONE)
        .expect("KoalaBear has primitive 8th roots of unity")
}

/// Forward transform of length 8 in place (decimation in frequency): natural order in,
/// bit-reversed order out. `tw` = [w, w^2, w^3].
pub(crate) fn ntt8(x: &mut [Kb; 8], tw: &[Kb; 3]) {
    for j in 0..4 {
        let (u, v) = (x[j], x[j + 4]);
        x[j] = u + v;
        x[j + 4] = if j == 0 { u - v } else { (u - v) * tw[j - 1] };
    }
    for base in [0, 4] {
        for j in 0..2 {
            let (u, v) = (x[base + j], x[base + j + 2]);
            x[base + j] = u + v;
            x[base + j + 2] = if j == 0 { u - v } else { (u - v) * tw[1] };
        }
    }
    for base in [0, 2, 4, 6] {
        let (u, v) = (x[base], x[base + 1]);
        x[base] = u + v;
        x[base + 1] = u - v;
    }
}

/// Inverse transform of length 8 in place, without the 1/8 (decimation in time):
/// bit-reversed order in, natural order out. `tw` = [w^-1, w^-2, w^-3].
pub(crate) fn intt8(x: &mut [Kb; 8], tw: &[Kb; 3]) {
    for base in [0, 2, 4, 6] {
        let (u, v) = (x[base], x[base + 1]);
        x[base] = u + v;
        x[base + 1] = u - v;
    }
    for base in [0, 4] {
        for j in 0..2 {
            let u = x[base + j];
            let v = if j == 0 { x[base + j + 2] } else { x[base + j + 2] * tw[1] };
            x[base + j] = u + v;
            x[base + j + 2] = u - v;
        }
    }
    for j in 0..4 {
        let u = x[j];
        let v = if j == 0 { x[j + 4] } else { x[j + 4] * tw[j - 1] };
        x[j] = u + v;
        x[j + 4] = u - v;
    }
}

/// The length-3 cyclic convolution y = K x mod z^3 - 1 for the kernel `c` =
/// [K(1) / 3, a0, a1, (a0 + a1) / 3] (a0 + a1 z = K mod z^2 + z + 1) in 4 products:
/// S = K(1) x(1) / 3, and with b0 + b1 z = x mod z^2 + z + 1, m0 = a0 b0, m1 = a1 b1,
/// m2 = (a0 + a1)(b0 + b1) / 3, the CRT recombination
/// y0 = S - m2 + m0, y1 = S + 2 m2 - m0 - m1, y2 = S - m2 + m1.
/// (The residue mod z^2 + z + 1 is c0 + c1 z = (m0 - m1) + (3 m2 - m0 - 2 m1) z, and
/// y = S (1 + z + z^2) + (c0 + c1 z)(2 - z - z^2) / 3 mod z^3 - 1.)
pub(crate) fn conv3(c: &[Kb; 4], x: [Kb; 3]) -> [Kb; 3] {
    let (b0, b1) = (x[0] - x[2], x[1] - x[2]);
    let s = c[0] * (x[0] + x[1] + x[2]);
    let (m0, m1, m2) = (c[1] * b0, c[2] * b1, c[3] * (b0 + b1));
    let t = s - m2;
    [t + m0, s + m2 + m2 - m0 - m1, t + m1]
}

impl Circulant24 {
    /// The convolution form of the circulant matrix with first row `row0`
    /// (rows[i][j] = row0[(j - i) mod 24]).
    pub(crate) fn new(row0: &[u32; 24]) -> Self {
        let w = root_of_unity_8();
        let wi = w.inverse();
        let fwd = [w, w * w, w * w * w];
        let inv = [wi, wi * wi, wi * wi * wi];
        let eighth = Kb::new(8).inverse();
        let kernel: [[Kb; 8]; 3] = core::array::from_fn(|a| {
            // r[n] = row0[-n mod 24] at position (n mod 3, n mod 8)
            let mut k: [Kb; 8] = core::array::from_fn(|b| Kb::new(row0[(24 - crt_index(a, b)) % 24]));
            ntt8(&mut k, &fwd);
            k.map(|v| v * eighth)
        });
        let third = Kb::new(3).inverse();
        let conv = core::array::from_fn(|k| {
            let (k0, k1, k2) = (kernel[0][k], kernel[1][k], kernel[2][k]);
            let (a0, a1) = (k0 - k2, k1 - k2);
            [(k0 + k1 + k2) * third, a0, a1, (a0 + a1) * third]
        });
        Self { conv, fwd, inv }
    }

    /// x <- M x (the scalar reference of the packed form).
    pub(crate) fn apply(&self, x: &mut [Kb; 24]) {
        let mut h: [[Kb; 8]; 3] = core::array::from_fn(|a| core::array::from_fn(|b| x[crt_index(a, b)]));
        for row in h.iter_mut() {
            ntt8(row, &self.fwd);
        }
        let mut y = [[Kb::ZERO; 8]; 3];
        for k in 0..8 {
            [y[0][k], y[1][k], y[2][k]] = conv3(&self.conv[k], [h[0][k], h[1][k], h[2][k]]);
        }
        for (a, ya) in y.iter_mut().enumerate() {
            intt8(ya, &self.inv);
            for (b, v) in ya.iter().enumerate() {
                x[crt_index(a, b)] = *v;
            }
        }
    }
}

/// Width 16's circulant MDS matrix of small integer entries c (first row c_0..c_15, below 2^7),
/// split by the CRT over z^16 - 1 = (z^8 - 1)(z^8 + 1). With x = x_lo + z^8 x_hi, the sums
/// s = x_lo + x_hi and differences d = x_lo - x_hi, the output halves y_lo, y_hi satisfy
/// - u = y_lo + y_hi = a cyclic length-8 product of s by cs_m = c_m + c_{m+8};
/// - v = y_lo - y_hi = a negacyclic length-8 product of d by cd_m = c_m - c_{m+8}
///   (coefficient delta_ij = cd_(j - i) for j >= i, else -cd_(j + 8 - i));
///
/// and y_lo = (u + v) / 2, y_hi = (u - v) / 2: 128 products instead of 256, all in integers
/// (no reduction before the end), every one an unsigned 32 x 32-bit product: s < 2p fits 32
/// bits, and the negacyclic half takes d' = d + p in (0, 2p) and delta' = delta + 128 in
/// [0, 256), so that sum_j delta'_ij d'_j = v_i + 128 D' + corr_i with D' = sum_j d'_j (one
/// sum for all outputs) and corr_i = p sum_j delta_ij. The lanes compute in wrapping 64-bit
/// arithmetic; the true values u + v + off and u - v + off are even and in [0, 2^44), so
/// the wrapped results are exact.
#[derive(Clone, Debug)]
pub(crate) struct SmallCrt16 {
    /// cyc[i][j] = cs_((j - i) mod 8): output i of u is sum_j cyc[i][j] s_j.
    pub cyc: [[u64; 8]; 8],
    /// neg[i][j] = delta_ij + 128 (in [0, 256)).
    pub neg: [[u64; 8]; 8],
    /// Per output i, off - corr_i (wrapping): the constant that turns u + w,
    /// w = sum_j neg[i][j] d'_j - 128 D', into u + v + off, where off is an even multiple of
    /// p above every |v| (p sum|cd|), so that u + v + off and u - v + off are non-negative
    /// (their halves carry off / 2, a multiple of p).
    pub off_lo: [u64; 8],
    /// Per output i, off + corr_i (wrapping): u - w + off_hi = u - v + off.
    pub off_hi: [u64; 8],
}

/// The bias that makes the negacyclic coefficients non-negative.
pub(crate) const CRT_BIAS: u64 = 128;

impl SmallCrt16 {
    /// The split of the circulant matrix with first row `row0` (entries below 2^7).
    pub(crate) fn new(row0: &[u64; 16]) -> Self {
        assert!(row0.iter().all(|&c| c < CRT_BIAS));
        let cs: [u64; 8] = core::array::from_fn(|m| row0[m] + row0[m + 8]);
        let cd: [i64; 8] = core::array::from_fn(|m| row0[m] as i64 - row0[m + 8] as i64);
        let delta = |i: usize, j: usize| if j >= i { cd[j - i] } else { -cd[j + 8 - i] };
        let cyc = core::array::from_fn(|i| core::array::from_fn(|j| cs[(j + 8 - i) % 8]));
        let neg = core::array::from_fn(|i| core::array::from_fn(|j| (delta(i, j) + CRT_BIAS as i64) as u64));
        let abs: u64 = cd.iter().map(|c| c.unsigned_abs()).sum();
        let off = 2 * (abs / 2 + 1) * P as u64;
        let corr = |i: usize| (P as i64 * (0..8).map(|j| delta(i, j)).sum::<i64>()) as u64;
        let off_lo = core::array::from_fn(|i| off.wrapping_sub(corr(i)));
        let off_hi = core::array::from_fn(|i| off.wrapping_add(corr(i)));
        Self { cyc, neg, off_lo, off_hi }
    }

    /// The halves' numerators u + v + off and u - v + off per output pair (i, i + 8), from
    /// Montgomery representatives as integers: the same sums, biased products and wrapping
    /// 64-bit arithmetic as the lane versions.
    fn numerators(&self, x: &[Kb; 16]) -> [(u64, u64); 8] {
        let raw: [u64; 16] = core::array::from_fn(|j| x[j].to_monty() as u64);
        let s: [u64; 8] = core::array::from_fn(|j| raw[j] + raw[j + 8]);
        let d: [u64; 8] = core::array::from_fn(|j| raw[j] + P as u64 - raw[j + 8]);
        let big_d: u64 = d.iter().sum();
        core::array::from_fn(|i| {
            let u = (0..8).fold(0u64, |acc, j| acc.wrapping_add(self.cyc[i][j] * s[j]));
            let w = (0..8).fold(0u64, |acc, j| acc.wrapping_add(self.neg[i][j] * d[j])).wrapping_sub(CRT_BIAS * big_d);
            (u.wrapping_add(w).wrapping_add(self.off_lo[i]), u.wrapping_sub(w).wrapping_add(self.off_hi[i]))
        })
    }

    /// x <- M x (the scalar rounds' product, and the reference the lanes are tested against):
    /// the numerators halved (they are even and below 2^44 by construction, checked on edge
    /// states in the tests) and reduced mod p.
    pub(crate) fn apply(&self, x: &mut [Kb; 16]) {
        for (i, (lo, hi)) in self.numerators(x).into_iter().enumerate() {
            x[i] = Kb::from_monty_unchecked(((lo / 2) % P as u64) as u32);
            x[i + 8] = Kb::from_monty_unchecked(((hi / 2) % P as u64) as u32);
        }
    }

    /// [`SmallCrt16::apply`] with its invariants asserted: every s and d + p below 2^32, the
    /// numerators even and below 2^44.
    #[cfg(test)]
    pub(crate) fn apply_checked(&self, x: &mut [Kb; 16]) {
        let (lo, hi) = (|j: usize| x[j].to_monty() as u64, |j: usize| x[j + 8].to_monty() as u64);
        assert!((0..8).all(|j| lo(j) + hi(j) < 1 << 32 && lo(j) + P as u64 - hi(j) < 1 << 32));
        assert!(self.numerators(x).iter().all(|&(lo, hi)| lo % 2 == 0 && hi % 2 == 0 && lo < 1 << 44 && hi < 1 << 44));
        self.apply(x);
    }
}

/// Inputs and the dense reference for the tests of both products, scalar and on lanes
/// (`poseidon1_avx512.rs`, `poseidon1_avx2.rs`).
#[cfg(test)]
pub(crate) mod test_states {
    use crate::koalabear::{Kb, P};

    /// A xorshift stream of field elements from `seed`.
    pub(crate) fn random_kb(mut seed: u64) -> impl FnMut() -> Kb {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            Kb::new((seed % P as u64) as u32)
        }
    }

    /// `n` width-16 states: extreme halves as Montgomery words (x_lo all p - 1 and x_hi all 0,
    /// and the reverse: the largest and smallest d' = x_lo + p - x_hi), all words 0, all p - 1,
    /// then random ones.
    pub(crate) fn crt_states(n: usize) -> Vec<[Kb; 16]> {
        let word = |w: u32| Kb::from_monty(w).expect("below p");
        let mut next = random_kb(0x2545_f491_4f6c_dd1d);
        (0..n)
            .map(|l| match l {
                0 => [word(P - 1); 16],
                1 => [word(0); 16],
                2 => core::array::from_fn(|j| word(if j < 8 { P - 1 } else { 0 })),
                3 => core::array::from_fn(|j| word(if j < 8 { 0 } else { P - 1 })),
                _ => core::array::from_fn(|_| next()),
            })
            .collect()
    }

    /// The circulant product with first row `row0` by its definition,
    /// y_i = sum_j row0[(j - i) mod W] x_j.
    pub(crate) fn dense<const W: usize>(row0: &[u32; W], x: &[Kb; W]) -> [Kb; W] {
        core::array::from_fn(|i| (0..W).fold(Kb::ZERO, |acc, j| acc + Kb::new(row0[(j + W - i) % W]) * x[j]))
    }
}

#[cfg(test)]
mod tests {
    use super::test_states::{crt_states, dense, random_kb};
    use super::*;
    use crate::poseidon1::{MDS16, MDS24};

    #[test]
    fn crt_index_is_a_bijection() {
        let mut seen = [false; 24];
        for a in 0..3 {
            for b in 0..8 {
                let n = crt_index(a, b);
                assert_eq!((n % 3, n % 8), (a, b));
                seen[n] = true;
            }
        }
        assert!(seen.iter().all(|s| *s));
    }

    #[test]
    fn conv3_is_the_cyclic_convolution() {
        let k = [Kb::new(5), Kb::new(0x7000_0000), -Kb::new(9)];
        let third = Kb::new(3).inverse();
        let (a0, a1) = (k[0] - k[2], k[1] - k[2]);
        let c = [(k[0] + k[1] + k[2]) * third, a0, a1, (a0 + a1) * third];
        for x in [[Kb::ZERO; 3], [Kb::ONE, Kb::ZERO, Kb::ZERO], [-Kb::ONE; 3], [Kb::new(3), Kb::new(0x7f00_0000), Kb::new(77)]] {
            let want: [Kb; 3] = core::array::from_fn(|i| (0..3).fold(Kb::ZERO, |acc, j| acc + k[(i + 3 - j) % 3] * x[j]));
            assert_eq!(conv3(&c, x), want);
        }
    }

    #[test]
    fn small_crt_matches_the_dense_product() {
        let k = SmallCrt16::new(&MDS16.map(|c| c as u64));
        for x in [[Kb::ONE; 16], [-Kb::ONE; 16]].into_iter().chain(crt_states(205)) {
            let mut y = x;
            k.apply_checked(&mut y);
            assert_eq!(y, dense(&MDS16, &x));
        }
    }

    #[test]
    fn transforms_invert() {
        let c = Circulant24::new(&MDS24);
        let x: [Kb; 8] = core::array::from_fn(|i| Kb::new(0x1234_5678u32.wrapping_mul(i as u32 + 1)));
        let mut y = x;
        ntt8(&mut y, &c.fwd);
        intt8(&mut y, &c.inv);
        assert_eq!(y, x.map(|v| v * Kb::new(8)));
    }

    #[test]
    fn matches_the_dense_product() {
        let c = Circulant24::new(&MDS24);
        let mut next = random_kb(0x9e37_79b9_7f4a_7c15);
        let edges = [[Kb::ZERO; 24], [Kb::ONE; 24], [-Kb::ONE; 24], core::array::from_fn(|i| if i == 5 { Kb::ONE } else { Kb::ZERO })];
        let randoms = (0..200).map(|_| core::array::from_fn(|_| next()));
        for x in edges.into_iter().chain(randoms) {
            let mut y = x;
            c.apply(&mut y);
            assert_eq!(y, dense(&MDS24, &x));
        }
        // another circulant: every unit vector as the first row
        for e in 0..24 {
            let row: [u32; 24] = core::array::from_fn(|j| (j == e) as u32);
            let c = Circulant24::new(&row);
            let x: [Kb; 24] = core::array::from_fn(|_| next());
            let mut y = x;
            c.apply(&mut y);
            assert_eq!(y, dense(&row, &x));
        }
    }
}

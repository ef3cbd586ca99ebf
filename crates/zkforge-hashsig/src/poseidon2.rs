//! The Poseidon2 permutation over KoalaBear, widths 16 and 24, exactly as Plonky3's
//! `default_koalabear_poseidon2_{16,24}` (Grassi, Khovratovich, Schofnegger, "Poseidon2: A
//! Faster Version of the Poseidon Hash Function", ePrint 2023/323):
//! - S-box x^3; 8 external rounds (4 before, 4 after) and 20 (width 16) or 23 (width 24)
//!   internal rounds;
//! - external matrix: the 4x4 block M4 = [[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]] on every
//!   chunk of four, then each lane adds the sum of its column across chunks (circ(2 M4, M4,
//!   ...)); applied once before the first round as well;
//! - internal matrix 1 1^T + diag(V): x_i <- sum(x) + V_i x_i, with Plonky3's vectors
//!   V16 = [-2, 1, 2, 1/2, 3, 4, -1/2, -3, -4, 1/2^8, 1/8, 1/2^24, -1/2^8, -1/8, -1/16,
//!   -1/2^24] and V24 = [-2, 1, 2, 1/2, 3, 4, -1/2, -3, -4, 1/2^8, 1/4, 1/8, 1/16, 1/32,
//!   1/64, 1/2^24, -1/2^8, -1/8, -1/16, -1/32, -1/64, -1/2^7, -1/2^9, -1/2^24];
//! - round constants from the Grain LFSR (`poseidon2_consts.rs`, generated).
//!
//! Cost per permutation: width 16: 8 * 16 + 20 = 148 cubes (296 multiplications), 20
//! internal diagonal products; width 24: 8 * 24 + 23 = 215 cubes.

use crate::koalabear::Kb;
use crate::poseidon2_consts as rc;

/// The external (full-round) linear layer: M4 on each chunk, then column sums added. Sums
/// are taken lazily on the u64 Montgomery representatives (each output is at most
/// 7 * (W/4 + 1) inputs, far below 2^62) and reduced once per lane.
#[inline(always)]
fn external_linear<const W: usize>(s: &mut [Kb; W]) {
    let mut t = [0u64; W];
    for (c, o) in s.chunks_exact(4).zip(t.chunks_exact_mut(4)) {
        let (x0, x1, x2, x3) = (c[0].raw64(), c[1].raw64(), c[2].raw64(), c[3].raw64());
        let t01 = x0 + x1;
        let t23 = x2 + x3;
        let t0123 = t01 + t23;
        let t01123 = t0123 + x1;
        let t01233 = t0123 + x3;
        o[3] = t01233 + 2 * x0; // 3 x0 + x1 + x2 + 2 x3
        o[1] = t01123 + 2 * x2; // x0 + 2 x1 + 3 x2 + x3
        o[0] = t01123 + t01; // 2 x0 + 3 x1 + x2 + x3
        o[2] = t01233 + t23; // x0 + x1 + 2 x2 + 3 x3
    }
    let mut sums = [0u64; 4];
    for (i, x) in t.iter().enumerate() {
        sums[i % 4] += *x;
    }
    for (i, (x, y)) in s.iter_mut().zip(&t).enumerate() {
        *x = Kb::from_lazy(*y + sums[i % 4]);
    }
}

/// The Poseidon2 permutation of width W (16 or 24) with its constants.
#[derive(Clone, Debug)]
pub struct Poseidon2<const W: usize> {
    initial: [[Kb; W]; 4],
    internal: Vec<Kb>,
    terminal: [[Kb; W]; 4],
    diag: [Kb; W],
}

/// p - 1 = 127 * 2^24, so 1/2^k = -(p - 1)/2^k for k <= 24.
fn inv_pow2(k: u32) -> Kb {
    Kb::new(2).pow(k as u64).inverse()
}

fn signed(v: i64) -> Kb {
    if v < 0 {
        -Kb::new((-v) as u32)
    } else {
        Kb::new(v as u32)
    }
}

impl Poseidon2<16> {
    /// Plonky3's `default_koalabear_poseidon2_16`.
    pub fn new_16() -> Self {
        let h = inv_pow2;
        let diag = [
            signed(-2),
            signed(1),
            signed(2),
            h(1),
            signed(3),
            signed(4),
            -h(1),
            signed(-3),
            signed(-4),
            h(8),
            h(3),
            h(24),
            -h(8),
            -h(3),
            -h(4),
            -h(24),
        ];
        Self::from_tables(&rc::RC16_EXTERNAL_INITIAL, &rc::RC16_INTERNAL, &rc::RC16_EXTERNAL_FINAL, diag)
    }
}

impl Poseidon2<24> {
    /// Plonky3's `default_koalabear_poseidon2_24`.
    pub fn new_24() -> Self {
        let h = inv_pow2;
        let diag = [
            signed(-2),
            signed(1),
            signed(2),
            h(1),
            signed(3),
            signed(4),
            -h(1),
            signed(-3),
            signed(-4),
            h(8),
            h(2),
            h(3),
            h(4),
            h(5),
            h(6),
            h(24),
            -h(8),
            -h(3),
            -h(4),
            -h(5),
            -h(6),
            -h(7),
            -h(9),
            -h(24),
        ];
        Self::from_tables(&rc::RC24_EXTERNAL_INITIAL, &rc::RC24_INTERNAL, &rc::RC24_EXTERNAL_FINAL, diag)
    }
}

impl<const W: usize> Poseidon2<W> {
    fn from_tables(ini: &[[u32; W]; 4], internal: &[u32], fin: &[[u32; W]; 4], diag: [Kb; W]) -> Self {
        let conv = |t: &[[u32; W]; 4]| t.map(|r| r.map(Kb::new));
        Self { initial: conv(ini), internal: internal.iter().map(|&v| Kb::new(v)).collect(), terminal: conv(fin), diag }
    }

    #[inline(always)]
    fn full_round(s: &mut [Kb; W], c: &[Kb; W]) {
        for (x, k) in s.iter_mut().zip(c) {
            *x = (*x + *k).cube();
        }
        external_linear(s);
    }

    /// Permute the state in place.
    pub fn permute_mut(&self, s: &mut [Kb; W]) {
        external_linear(s);
        for c in &self.initial {
            Self::full_round(s, c);
        }
        for k in &self.internal {
            s[0] = (s[0] + *k).cube();
            let sum = Kb::from_lazy(s.iter().map(|x| x.raw64()).sum());
            for (x, d) in s.iter_mut().zip(&self.diag) {
                *x = x.mul_add(*d, sum);
            }
        }
        for c in &self.terminal {
            Self::full_round(s, c);
        }
    }

    /// External-round constants before the internal rounds.
    pub(crate) fn initial_constants(&self) -> &[[Kb; W]; 4] {
        &self.initial
    }
    /// Internal-round constants.
    pub(crate) fn internal_constants(&self) -> &[Kb] {
        &self.internal
    }
    /// External-round constants after the internal rounds.
    pub(crate) fn terminal_constants(&self) -> &[[Kb; W]; 4] {
        &self.terminal
    }
    /// The internal layer's diagonal V.
    pub(crate) fn diagonal(&self) -> &[Kb; W] {
        &self.diag
    }

    /// The permuted copy of `s`.
    pub fn permute(&self, mut s: [Kb; W]) -> [Kb; W] {
        self.permute_mut(&mut s);
        s
    }
}

impl<const W: usize> Poseidon2<W> {
    /// Permute eight independent states: the AVX2 path (eight lanes) when the CPU has AVX2,
    /// else eight scalar permutations. Both give identical results (tested).
    pub fn permute_x8(&self, states: &mut [[Kb; W]; 8]) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 was detected on this CPU just above.
                unsafe { crate::packed_avx2::permute_x8(self, states) };
                return;
            }
        }
        self.permute_x8_scalar(states);
    }

    /// Permute sixteen independent states: the AVX-512 path (sixteen lanes) when the CPU has
    /// AVX-512F, else two eight-lane calls.
    pub fn permute_x16(&self, states: &mut [[Kb; W]; 16]) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f") {
                // SAFETY: AVX-512F was detected on this CPU just above.
                unsafe { crate::packed_avx512::permute_x16(self, states) };
                return;
            }
        }
        let (a, b) = states.split_at_mut(8);
        self.permute_x8(a.try_into().expect("8 states"));
        self.permute_x8(b.try_into().expect("8 states"));
    }

    /// Permute L independent states, L = 8 or 16 ([`Poseidon2::permute_x8`],
    /// [`Poseidon2::permute_x16`]); other L one by one.
    pub fn permute_lanes<const L: usize>(&self, states: &mut [[Kb; W]; L]) {
        if let Ok(s) = <&mut [[Kb; W]; 16]>::try_from(&mut states[..]) {
            self.permute_x16(s);
        } else if let Ok(s) = <&mut [[Kb; W]; 8]>::try_from(&mut states[..]) {
            self.permute_x8(s);
        } else {
            for s in states.iter_mut() {
                self.permute_mut(s);
            }
        }
    }

    /// The scalar fallback of [`Poseidon2::permute_x8`], for comparison.
    pub fn permute_x8_scalar(&self, states: &mut [[Kb; W]; 8]) {
        for s in states.iter_mut() {
            self.permute_mut(s);
        }
    }
}

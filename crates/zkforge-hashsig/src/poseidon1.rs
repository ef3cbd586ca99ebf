//! The Poseidon1 permutation over KoalaBear, widths 16 and 24, as Plonky3's
//! `default_koalabear_poseidon1_{16,24}` (Grassi, Khovratovich, Rechberger, Roy, Schofnegger,
//! "Poseidon: A New Hash Function for Zero-Knowledge Proof Systems", ePrint 2019/458), which
//! leanSig's devnet-4 generation (commit c08a3ba) hashes with:
//! - S-box x^3; 4 full rounds, 20 (width 16) or 23 (width 24) partial rounds, 4 full rounds;
//! - every round: add its t round constants, S-box (all lanes in full rounds, lane 0 in
//!   partial ones), multiply by the circulant MDS matrix;
//! - the MDS matrix is circulant with first row `MDS16` / `MDS24` (Plonky3's KoalaBear
//!   `MATRIX_CIRC_MDS_{16,24}`): y_i = sum_j row[(j - i) mod t] x_j;
//! - round constants from the Grain LFSR (`poseidon2_consts.rs`, `P1_RC16` / `P1_RC24`).
//!
//! This is the plain textbook form (a full matrix product every round): it serves the
//! devnet-4 instantiation's correctness; the hot Poseidon2 paths live in `poseidon2.rs`.

use crate::koalabear::{Kb, P};
pub use crate::poseidon2::Registers;
use crate::poseidon2_consts as rc;

/// First row of the width-16 circulant MDS matrix.
pub const MDS16: [u32; 16] = [1, 1, 51, 1, 11, 17, 2, 1, 101, 63, 15, 2, 67, 22, 13, 3];
/// First row of the width-24 circulant MDS matrix.
pub const MDS24: [u32; 24] = [
    0x2D0AAAAB, 0x64850517, 0x17F5551D, 0x04ECBEB5, 0x6D91A8D5, 0x60703026, 0x18D6F3CA, 0x729601A7, 0x77CDA9E2, 0x3C0F5038, 0x26D52A61, 0x0360405D,
    0x68FC71C8, 0x2495A71D, 0x5D57AFC2, 0x1689DD98, 0x3C2C3DBE, 0x0C23DC41, 0x0524C7F2, 0x6BE4DF69, 0x0A6E572C, 0x5C7790FA, 0x17E118F6, 0x0878A07F,
];

/// The Poseidon1 permutation of width W with its constants.
#[derive(Clone, Debug)]
pub struct Poseidon1<const W: usize> {
    rc: Vec<[Kb; W]>,
    /// The round constants as Montgomery representatives (the register path's loads).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    rc_raw: Vec<[u32; W]>,
    /// Column j of the matrix, entry i in position i: `rows` transposed, for the register path.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    cols: Vec<[u64; W]>,
    /// `cols` with each entry c as c 2^32 mod p (Montgomery form), for the width-24 register path.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    cols_mont: Vec<[u64; W]>,
    /// The circulant matrix written out: rows[i][j] = row0[(j - i) mod W].
    rows: Vec<[u64; W]>,
    /// Every entry below 2^7 (width 16): a row's sum of products fits u64.
    small: bool,
    partial: usize,
}

fn circulant<const W: usize>(row0: &[u32; W]) -> Vec<[u64; W]> {
    (0..W).map(|i| core::array::from_fn(|j| row0[(j + W - i) % W] as u64)).collect()
}

impl Poseidon1<16> {
    /// Plonky3's `default_koalabear_poseidon1_16`.
    pub fn new_16() -> Self {
        Self::with(rc::P1_RC16.iter().map(|r| r.map(Kb::new)).collect(), circulant(&MDS16), true, 20)
    }
}

impl Poseidon1<24> {
    /// Plonky3's `default_koalabear_poseidon1_24`.
    pub fn new_24() -> Self {
        Self::with(rc::P1_RC24.iter().map(|r| r.map(Kb::new)).collect(), circulant(&MDS24), false, 23)
    }
}

/// Where the one-state Poseidon1 (widths 16 and 24) runs, for the whole process: in AVX-512
/// registers (`poseidon1_avx512.rs`), in AVX2 registers (`poseidon1_avx2.rs`), or in the
/// textbook scalar rounds ([`Registers::Portable`]); a choice the CPU lacks falls back as
/// [`Registers`] says. The default is [`Registers::Auto`]. Every value gives the same
/// permutation (tested); only speed differs.
///
/// ```
/// use zkforge_hashsig::{koalabear::Kb, poseidon1::{set_registers, Poseidon1}, poseidon2::Registers};
/// let p = Poseidon1::new_16();
/// set_registers(Registers::Portable);
/// let textbook = p.permute([Kb::ONE; 16]);
/// set_registers(Registers::Auto);
/// assert_eq!(p.permute([Kb::ONE; 16]), textbook);
/// ```
pub fn set_registers(r: Registers) {
    let v = match r {
        Registers::Auto => 0,
        Registers::Avx512 => 1,
        Registers::Avx2 => 2,
        Registers::Portable => 3,
    };
    REGISTERS.store(v, core::sync::atomic::Ordering::Relaxed);
}

/// The current [`set_registers`] choice.
pub fn registers() -> Registers {
    match REGISTERS.load(core::sync::atomic::Ordering::Relaxed) {
        0 => Registers::Auto,
        1 => Registers::Avx512,
        2 => Registers::Avx2,
        _ => Registers::Portable,
    }
}

static REGISTERS: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

impl<const W: usize> Poseidon1<W> {
    fn with(rc: Vec<[Kb; W]>, rows: Vec<[u64; W]>, small: bool, partial: usize) -> Self {
        let rc_raw = rc.iter().map(|r| r.map(|x| x.to_monty())).collect();
        let cols: Vec<[u64; W]> = (0..W).map(|j| core::array::from_fn(|i| rows[i][j])).collect();
        let cols_mont = cols.iter().map(|c| c.map(|e| (((e as u128) << 32) % P as u128) as u64)).collect();
        Self { rc, rc_raw, cols, cols_mont, rows, small, partial }
    }

    /// y = M x: each output a sum of W products of Montgomery representatives by canonical
    /// matrix entries (the product of a representative x R by an integer c represents c x).
    /// Width 16's entries are below 2^7, so a row sums below 2^42 in u64 and one 64-bit
    /// remainder by the constant p reduces it; width 24's are full 31-bit values, summed in
    /// u128 and reduced as hi 2^64 + lo with 64-bit remainders (no u128 division routine).
    fn mds(&self, s: &mut [Kb; W]) {
        let x: [u64; W] = core::array::from_fn(|j| s[j].to_monty() as u64);
        for (y, row) in s.iter_mut().zip(&self.rows) {
            let r = if self.small {
                row.iter().zip(&x).map(|(c, xj)| c * xj).sum::<u64>() % P as u64
            } else {
                const R64: u64 = ((1u128 << 64) % P as u128) as u64;
                let acc: u128 = row.iter().zip(&x).map(|(c, xj)| (c * xj) as u128).sum();
                let (hi, lo) = ((acc >> 64) as u64 % P as u64, acc as u64 % P as u64);
                (hi * R64 + lo) % P as u64
            };
            *y = Kb::from_monty(r as u32).expect("reduced");
        }
    }

    /// Permute in place.
    pub fn permute_mut(&self, s: &mut [Kb; W]) {
        #[cfg(target_arch = "x86_64")]
        let regs = registers();
        #[cfg(target_arch = "x86_64")]
        if W == 16 && matches!(regs, Registers::Auto | Registers::Avx512) && std::is_x86_feature_detected!("avx512f") {
            // SAFETY: AVX-512F was detected on this CPU just above.
            if unsafe { crate::poseidon1_avx512::permute_16(&self.rc_raw, &self.cols, self.partial, s) } {
                return;
            }
        }
        #[cfg(target_arch = "x86_64")]
        if W == 24 && matches!(regs, Registers::Auto | Registers::Avx512) && std::is_x86_feature_detected!("avx512f") {
            // SAFETY: AVX-512F was detected on this CPU just above.
            if unsafe { crate::poseidon1_avx512::permute_wide::<W, 3>(&self.rc_raw, &self.cols_mont, self.partial, s) } {
                return;
            }
        }
        #[cfg(target_arch = "x86_64")]
        if regs != Registers::Portable && std::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 was detected on this CPU just above.
            let done = unsafe {
                match W {
                    16 => crate::poseidon1_avx2::permute_wide::<W, 4>(&self.rc_raw, &self.cols_mont, self.partial, s),
                    24 => crate::poseidon1_avx2::permute_wide::<W, 6>(&self.rc_raw, &self.cols_mont, self.partial, s),
                    _ => false,
                }
            };
            if done {
                return;
            }
        }
        self.permute_mut_textbook(s);
    }

    /// The textbook rounds (every CPU; the reference the register path is tested against).
    pub fn permute_mut_textbook(&self, s: &mut [Kb; W]) {
        for (r, c) in self.rc.iter().enumerate() {
            let full = r < 4 || r >= 4 + self.partial;
            for (x, k) in s.iter_mut().zip(c) {
                *x += *k;
            }
            if full {
                for x in s.iter_mut() {
                    *x = x.cube();
                }
            } else {
                s[0] = s[0].cube();
            }
            self.mds(s);
        }
    }

    /// The permuted copy of `s`.
    pub fn permute(&self, mut s: [Kb; W]) -> [Kb; W] {
        self.permute_mut(&mut s);
        s
    }
}

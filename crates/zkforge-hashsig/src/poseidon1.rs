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
//! Forms, all giving the same permutation (tested against each other and Plonky3's vectors):
//! - the textbook rounds (a full matrix product every round, [`Poseidon1::permute_mut_textbook`]);
//! - the sparse partial rounds of ePrint 2019/458 appendix B (`poseidon1_fast.rs`), 2t - 1
//!   products per partial round instead of t^2 (the packed rounds; one state at a time
//!   [`Poseidon1::permute_mut_sparse`], the reference, slower than the textbook there);
//! - one state in AVX-512 or AVX2 registers (`poseidon1_avx512.rs`, `poseidon1_avx2.rs`;
//!   AVX-512 width 24 also with the sparse partial rounds);
//! - sixteen (AVX-512) or eight (AVX2) states at once, lane i of every register belonging to
//!   state i (`poseidon1_packed.rs`), for devnet 4's key generation: its chains and leaves;
//! - width 24's MDS product as a cyclic convolution of length 24 (`poseidon1_circulant.rs`:
//!   Good-Thomas 3 x 8, length-8 transforms, 62 products instead of 576), and width 16's
//!   small-entry one split by the CRT into a cyclic and a negacyclic product of length 8 (128
//!   integer products instead of 256), in the scalar and packed rounds.
//!
//! [`set_registers`] picks the instruction set and [`set_form`] the rest, process-wide.

use crate::koalabear::{Kb, P};
pub use crate::poseidon2::Registers;
use crate::poseidon1_circulant::{Circulant24, SmallCrt16};
use crate::poseidon1_fast::Fast;
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
    pub(crate) rc: Vec<[Kb; W]>,
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
    pub(crate) rows: Vec<[u64; W]>,
    /// Every entry below 2^7 (width 16): a row's sum of products fits u64.
    pub(crate) small: bool,
    pub(crate) partial: usize,
    /// The sparse partial-round form's constants.
    pub(crate) fast: Fast<W>,
    /// Width 24's MDS matrix in its convolution form ([`Form::circulant_ntt`]).
    pub(crate) circulant: Option<Circulant24>,
    /// Width 16's MDS matrix split by the CRT ([`Form::mds16_crt`]).
    pub(crate) small_crt: Option<SmallCrt16>,
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
/// textbook scalar rounds ([`Registers::Portable`]); the packed batches follow it too
/// (AVX-512, AVX2, or none). A choice the CPU lacks falls back as
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

/// The Poseidon1 forms besides the instruction set ([`set_registers`]), process-wide. Every
/// combination gives the same permutation (tested); only speed differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Form {
    /// Partial rounds in the sparse form (ePrint 2019/458 appendix B), 2t - 1 products per
    /// partial round instead of t^2: in the packed rounds, and one state at a time in the
    /// AVX-512 width-24 register rounds (measured 0.61-0.62 of their dense form; sign and
    /// verify hash leaves and tree paths with them), and with [`Form::deferred_partial`] in
    /// the AVX-512 and AVX2 register rounds of both widths. The portable one-state rounds keep
    /// their dense matrix product (see [`Poseidon1::permute_mut_sparse`]).
    pub sparse_partial: bool,
    /// devnet 4 key generation hashes its chains and its leaves sixteen (AVX-512) or eight
    /// (AVX2) at a time through the packed permutation; off, or with
    /// [`Registers::Portable`], one by one.
    pub packed: bool,
    /// In the packed batches of sixteen, width 16's MDS product (small integer entries) as
    /// 52-bit multiply-adds where the CPU has AVX-512 IFMA (one `vpmadd52luq` per product and
    /// addition), else as 32x32-bit products and additions.
    pub ifma_mds: bool,
    /// Width 24's circulant MDS product as a cyclic convolution (`poseidon1_circulant.rs`:
    /// a 3 x 8 Good-Thomas array, length-8 number-theoretic transforms, length-3
    /// convolutions per frequency; 62 products instead of 576) in the packed batches and the
    /// scalar rounds; else a dense matrix-vector product. The one-state register rounds keep
    /// their dense product (one broadcast and three vector products per column, whose
    /// latency the transforms' cross-lane steps would lengthen).
    pub circulant_ntt: bool,
    /// Width 16's small-entry MDS product split by the CRT over z^16 - 1 = (z^8 - 1)(z^8 + 1)
    /// (`poseidon1_circulant::SmallCrt16`: a cyclic and a negacyclic product of length 8 on
    /// the halves' sums and differences, 128 products instead of 256), in the packed batches
    /// and the scalar rounds; else the whole product ([`Form::ifma_mds`] says how in the
    /// packed batches). The one-state register rounds keep theirs.
    pub mds16_crt: bool,
    /// One state at a time in AVX-512 or AVX2 registers (both widths), the sparse partial
    /// rounds with their dot products off the latency chain (`poseidon1_fast::Deferred`: per
    /// round the chain is the cube, one product and one reduction; the sums of the later
    /// rounds take each S-box output as lane-wise products beside it): 0.55-0.57 / 0.67
    /// (widths 16 / 24) of the previous AVX-512 register rounds, 0.52 / 0.41 of the AVX2 ones
    /// (`examples/poseidon1_forms.rs`, Emerald Rapids). Needs
    /// [`Form::sparse_partial`]; the register rounds then run the sparse form at width 16 too.
    /// (The portable rounds keep the textbook form: see [`Poseidon1::permute_mut_deferred`].)
    pub deferred_partial: bool,
}

impl Form {
    /// The measured best: all on.
    pub const DEFAULT: Form = Form { sparse_partial: true, packed: true, ifma_mds: true, circulant_ntt: true, mds16_crt: true, deferred_partial: true };
}

impl Default for Form {
    fn default() -> Self {
        Form::DEFAULT
    }
}

static FORM: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0b11_1111);

/// Choose the [`Form`] (process-wide); the default is [`Form::DEFAULT`].
///
/// ```
/// use zkforge_hashsig::{koalabear::Kb, poseidon1::{set_form, Form, Poseidon1}};
/// let p = Poseidon1::new_24();
/// set_form(Form { sparse_partial: false, packed: false, ifma_mds: false, circulant_ntt: false, mds16_crt: false, deferred_partial: false });
/// let dense = p.permute([Kb::ONE; 24]);
/// set_form(Form::DEFAULT);
/// assert_eq!(p.permute([Kb::ONE; 24]), dense);
/// ```
pub fn set_form(f: Form) {
    FORM.store(f.sparse_partial as u8 | (f.packed as u8) << 1 | (f.ifma_mds as u8) << 2 | (f.circulant_ntt as u8) << 3 | (f.mds16_crt as u8) << 4 | (f.deferred_partial as u8) << 5, core::sync::atomic::Ordering::Relaxed);
}

/// The current [`set_form`] choice.
pub fn form() -> Form {
    let v = FORM.load(core::sync::atomic::Ordering::Relaxed);
    Form { sparse_partial: v & 1 != 0, packed: v & 2 != 0, ifma_mds: v & 4 != 0, circulant_ntt: v & 8 != 0, mds16_crt: v & 16 != 0, deferred_partial: v & 32 != 0 }
}

/// Whether packed batches of sixteen take the IFMA matrix product ([`Form::ifma_mds`] on and
/// the CPU has AVX-512 IFMA).
#[cfg(target_arch = "x86_64")]
pub(crate) fn packed_ifma() -> bool {
    form().ifma_mds && std::is_x86_feature_detected!("avx512ifma")
}

/// How many states a packed Poseidon1 batch holds under the current switches and CPU: 16
/// (AVX-512), 8 (AVX2), or 1 (no packed form: states one by one).
pub fn packed_lanes() -> usize {
    if !form().packed {
        return 1;
    }
    #[cfg(target_arch = "x86_64")]
    {
        let regs = registers();
        if matches!(regs, Registers::Auto | Registers::Avx512) && std::is_x86_feature_detected!("avx512f") {
            return 16;
        }
        if regs != Registers::Portable && std::is_x86_feature_detected!("avx2") {
            return 8;
        }
    }
    1
}

impl<const W: usize> Poseidon1<W> {
    fn with(rc: Vec<[Kb; W]>, rows: Vec<[u64; W]>, small: bool, partial: usize) -> Self {
        let rc_raw = rc.iter().map(|r| r.map(|x| x.to_monty())).collect();
        let cols: Vec<[u64; W]> = (0..W).map(|j| core::array::from_fn(|i| rows[i][j])).collect();
        let cols_mont = cols.iter().map(|c| c.map(|e| (((e as u128) << 32) % P as u128) as u64)).collect();
        let m: Vec<[Kb; W]> = rows.iter().map(|r| r.map(|e| Kb::new(e as u32))).collect();
        let fast = Fast::derive(&rc, &m, partial);
        // the first row back from the rows (rows[0][j] = row0[j]) when the width is 24
        let circulant = (W == 24).then(|| Circulant24::new(&core::array::from_fn(|j| rows[0][j] as u32)));
        let small_crt = (W == 16 && small).then(|| SmallCrt16::new(&core::array::from_fn(|j| rows[0][j])));
        Self { rc, rc_raw, cols, cols_mont, rows, small, partial, fast, circulant, small_crt }
    }

    /// y = M x: each output a sum of W products of Montgomery representatives by canonical
    /// matrix entries (the product of a representative x R by an integer c represents c x).
    /// Width 16's entries are below 2^7, so a row sums below 2^42 in u64 and one 64-bit
    /// remainder by the constant p reduces it; width 24's are full 31-bit values, summed in
    /// u128 and reduced as hi 2^64 + lo with 64-bit remainders (no u128 division routine),
    /// or, with [`Form::circulant_ntt`] / [`Form::mds16_crt`], taken as a cyclic convolution /
    /// split by the CRT (`poseidon1_circulant.rs`).
    fn mds(&self, s: &mut [Kb; W]) {
        let f = form();
        if let Some(c) = self.circulant.as_ref().filter(|_| f.circulant_ntt) {
            c.apply(s.as_mut_slice().try_into().expect("the convolution form is width 24's"));
            return;
        }
        if let Some(k) = self.small_crt.as_ref().filter(|_| f.mds16_crt) {
            k.apply(s.as_mut_slice().try_into().expect("the CRT split is width 16's"));
            return;
        }
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
        let f = form();
        #[cfg(target_arch = "x86_64")]
        if W == 16 && matches!(regs, Registers::Auto | Registers::Avx512) && std::is_x86_feature_detected!("avx512f") {
            // SAFETY: AVX-512F was detected on this CPU just above.
            let done = unsafe {
                if f.sparse_partial && f.deferred_partial {
                    crate::poseidon1_avx512::permute_wide_sparse::<W, 2>(&self.fast.raw, Some(&self.fast.deferred), &self.cols_mont, s)
                } else {
                    crate::poseidon1_avx512::permute_16(&self.rc_raw, &self.cols, self.partial, s)
                }
            };
            if done {
                return;
            }
        }
        #[cfg(target_arch = "x86_64")]
        if W == 24 && matches!(regs, Registers::Auto | Registers::Avx512) && std::is_x86_feature_detected!("avx512f") {
            // SAFETY: AVX-512F was detected on this CPU just above.
            let done = unsafe {
                if f.sparse_partial {
                    let deferred = f.deferred_partial.then_some(&self.fast.deferred);
                    crate::poseidon1_avx512::permute_wide_sparse::<W, 3>(&self.fast.raw, deferred, &self.cols_mont, s)
                } else {
                    crate::poseidon1_avx512::permute_wide::<W, 3>(&self.rc_raw, &self.cols_mont, self.partial, s)
                }
            };
            if done {
                return;
            }
        }
        #[cfg(target_arch = "x86_64")]
        if regs != Registers::Portable && std::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 was detected on this CPU just above.
            let done = unsafe {
                let deferred = f.sparse_partial && f.deferred_partial;
                match W {
                    16 if deferred => crate::poseidon1_avx2::permute_wide_deferred::<W, 4>(&self.fast.raw, &self.fast.deferred, &self.cols_mont, s),
                    24 if deferred => crate::poseidon1_avx2::permute_wide_deferred::<W, 6>(&self.fast.raw, &self.fast.deferred, &self.cols_mont, s),
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

    /// The sparse form with the partial rounds deferred (`poseidon1_fast::Deferred`) on the
    /// scalar field type (every CPU): the full rounds as [`Poseidon1::permute_mut_sparse`] has
    /// them, the partial rounds with their sums off the latency chain, in plain Rust that the
    /// compiler vectorises for the target. In a baseline x86-64 build it measured 1.26-1.28x
    /// (width 16) and 1.02-1.03x (width 24) the textbook rounds with their matrix products as a
    /// convolution and split by the CRT (`examples/poseidon1_forms.rs`: the dense B_0 M and the
    /// lane loops on SSE2 cost more than the latency saved), so [`Poseidon1::permute_mut`]
    /// takes it only in the AVX2 and AVX-512 register rounds ([`Form::deferred_partial`]).
    pub fn permute_mut_deferred(&self, s: &mut [Kb; W]) {
        self.sparse_initial_rounds(s);
        let mut x: [u64; W] = s.map(|e| e.raw64());
        self.fast.deferred.run(&mut x);
        for (e, r) in s.iter_mut().zip(x) {
            // `Deferred::run` returns canonical representatives
            *e = Kb::from_monty_unchecked(r as u32);
        }
        self.sparse_terminal_rounds(s);
    }

    /// The sparse form's four initial full rounds, the last with the dense matrix B_0 M.
    fn sparse_initial_rounds(&self, s: &mut [Kb; W]) {
        let f = &self.fast;
        for (r, c) in f.init_rc.iter().enumerate() {
            for (x, k) in s.iter_mut().zip(c) {
                *x = (*x + *k).cube();
            }
            if r == 3 {
                let x = *s;
                for (y, row) in s.iter_mut().zip(&f.pre) {
                    *y = row.iter().zip(&x).fold(Kb::ZERO, |acc, (a, b)| acc + *a * *b);
                }
            } else {
                self.mds(s);
            }
        }
    }

    /// The sparse form's four terminal full rounds (the first with the carried constants).
    fn sparse_terminal_rounds(&self, s: &mut [Kb; W]) {
        for c in &self.fast.term_rc {
            for (x, k) in s.iter_mut().zip(c) {
                *x = (*x + *k).cube();
            }
            self.mds(s);
        }
    }

    /// The sparse partial-round form on the scalar field type (every CPU): the reference
    /// for the constants the packed rounds use. One state at a time it measured slower than
    /// the textbook rounds (1.6x at width 16, 1.1-1.2x at width 24, `examples/poseidon1_forms.rs`:
    /// the textbook's small-entry matrix sums in u64 cost less than 2t - 1 Montgomery
    /// products plus the dense field matrix B_0 M), so [`Poseidon1::permute_mut`] does not
    /// select it.
    pub fn permute_mut_sparse(&self, s: &mut [Kb; W]) {
        self.sparse_initial_rounds(s);
        for i in 0..self.partial {
            self.fast.partial_round(i, s);
        }
        self.sparse_terminal_rounds(s);
    }

    /// The textbook rounds (every CPU; the reference the register path is tested against),
    /// the matrix product as [`Form::circulant_ntt`] and [`Form::mds16_crt`] say.
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

    /// Permute every state of `states`: [`packed_lanes`] states at a time through the packed
    /// rounds (`poseidon1_packed.rs`), the rest one by one.
    ///
    /// ```
    /// use zkforge_hashsig::{koalabear::Kb, poseidon1::Poseidon1};
    /// let p = Poseidon1::new_16();
    /// let mut states: Vec<[Kb; 16]> = (0..20u32).map(|i| [Kb::new(i); 16]).collect();
    /// p.permute_many(&mut states);
    /// assert_eq!(states[19], p.permute([Kb::new(19); 16]));
    /// ```
    pub fn permute_many(&self, states: &mut [[Kb; W]]) {
        #[allow(unused_mut)]
        let mut rest = states;
        #[cfg(target_arch = "x86_64")]
        {
            let n = packed_lanes();
            let sparse = form().sparse_partial;
            if n > 1 {
                let (head, tail) = rest.split_at_mut(rest.len() / n * n);
                for b in head.chunks_exact_mut(n) {
                    // SAFETY: `packed_lanes` gives 16 only after detecting AVX-512F, 8 only
                    // after detecting AVX2; `packed_ifma` detects IFMA.
                    unsafe {
                        if n == 16 && packed_ifma() {
                            crate::poseidon1_avx512::permute_x16_ifma(self, sparse, b)
                        } else if n == 16 {
                            crate::poseidon1_avx512::permute_x16(self, sparse, b)
                        } else {
                            crate::poseidon1_avx2::permute_x8(self, sparse, b)
                        }
                    }
                }
                rest = tail;
            }
        }
        for s in rest {
            self.permute_mut(s);
        }
    }
}

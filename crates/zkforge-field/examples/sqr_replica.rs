//! Where the BLS12-381 Fp12 square loses to blst on CPUs without IFMA. Four latency chains
//! x <- x^2, rounds alternating, fastest chunk each, after checking that all agree:
//! - our square (the library's lazy tower);
//! - blst's `blst_fp12_sqr`;
//! - a transcription of blst's `sqr_fp12` and `mul_fp6x2` (two Fp6 products reduced, then the
//!   complex-squaring finish on reduced values) through raw pointers, as its C is written,
//!   whose kernels come from blst (its hidden symbols, linked as `kernelprobe` links them) or
//!   from us, family by family, chosen when the probe is built: `NARROW_OURS` (Fp2 addition,
//!   subtraction, product by xi), `MUL_OURS` (the wide Fp2 product), `WIDE_OURS` (double-width
//!   addition and subtraction), `REDC_OURS` (the reduction), each set to any value;
//! - blst's structure on our library's `Fp6Wide::mul_to` ("narrow finish").
//!
//! The transcription on blst's kernels runs at 1.01-1.03 of blst; findings in BENCHMARKS.md
//! ("Zen 3: the Fp12 square transcribed"). A development probe (x86-64 with BMI2 and ADX):
//! `NARROW_OURS=1 cargo run --release -p zkforge-field --example sqr_replica`.
use std::hint::black_box;
use std::time::Instant;

use zkforge_field::bls12_381 as bls;
use zkforge_field::backend::{self, Wide};
use zkforge_field::tower::lazy::{Fp2Wide, Fp6Wide};

type V384 = [u64; 6];
type V384x = [V384; 2];
type Fp6B = [V384x; 3];
type Fp12B = [Fp6B; 2];

extern "C" {
    fn mulx_382x(ret: *mut u64, a: *const u64, b: *const u64, p: *const u64);
    fn redcx_mont_384(ret: *mut u64, a: *const u64, p: *const u64, n0: u64);
    fn sub_mod_384x384(ret: *mut u64, a: *const u64, b: *const u64, p: *const u64);
    fn add_mod_384x384(ret: *mut u64, a: *const u64, b: *const u64, p: *const u64);
    fn add_mod_384x(ret: *mut u64, a: *const u64, b: *const u64, p: *const u64);
    fn sub_mod_384x(ret: *mut u64, a: *const u64, b: *const u64, p: *const u64);
    fn mul_by_1_plus_i_mod_384x(ret: *mut u64, a: *const u64, p: *const u64);
}

const P: [u64; 8] = bls::Fp::PINV;

// Raw-pointer wrappers, aliasing allowed as in blst's C (its kernels read before they write).
// The switches below select whose kernel each family uses (false = blst's).
const NARROW_OURS: bool = option_env!("NARROW_OURS").is_some();
const MUL_OURS: bool = option_env!("MUL_OURS").is_some();
const WIDE_OURS: bool = option_env!("WIDE_OURS").is_some();
const REDC_OURS: bool = option_env!("REDC_OURS").is_some();
// The wrappers' contract: every pointer addresses the words its kernel reads or writes (6 per
// Fp, 12 per Fp2, 24 per wide Fp2, 36 per Fp6); the output may alias an input (blst's kernels
// and ours read each word before writing it); main checks BMI2/ADX before any call.
type P6 = *mut u64;

#[inline(always)]
unsafe fn add2(r: P6, a: P6, b: P6) {
    // SAFETY: the wrappers' contract (above `type P6`).
    unsafe {
        if NARROW_OURS {
            let x = fp2_of(a) + fp2_of(b);
            put2(r, &x);
        } else {
            add_mod_384x(r, a, b, P.as_ptr());
        }
    }
}
#[inline(always)]
unsafe fn sub2(r: P6, a: P6, b: P6) {
    // SAFETY: the wrappers' contract (above `type P6`).
    unsafe {
        if NARROW_OURS {
            let x = fp2_of(a) - fp2_of(b);
            put2(r, &x);
        } else {
            sub_mod_384x(r, a, b, P.as_ptr());
        }
    }
}
#[inline(always)]
unsafe fn xi2(r: P6, a: P6) {
    // SAFETY: the wrappers' contract (above `type P6`).
    unsafe {
        if NARROW_OURS {
            let x = fp2_of(a);
            put2(r, &<bls::FpConfig as zkforge_field::tower::TowerConfig<6>>::mul_by_xi(&x));
        } else {
            mul_by_1_plus_i_mod_384x(r, a, P.as_ptr());
        }
    }
}
#[inline(always)]
unsafe fn fp2_of(a: P6) -> bls::Fp2 {
    // SAFETY: the wrappers' contract (above `type P6`).
    unsafe {
        // Fp2 is repr(C) of two repr(transparent) [u64; 6]
        *(a as *const bls::Fp2)
    }
}
#[inline(always)]
unsafe fn put2(r: P6, x: &bls::Fp2) {
    // SAFETY: the wrappers' contract (above `type P6`).
    unsafe {
        *(r as *mut bls::Fp2) = *x;
    }
}
#[inline(always)]
unsafe fn mul2x2(r: P6, a: P6, b: P6) {
    // SAFETY: the wrappers' contract (above `type P6`).
    unsafe {
        if MUL_OURS {
            let w = &mut *(r as *mut Fp2Wide<bls::FpConfig, 6>);
            Fp2Wide::mul_to(w, &fp2_of(a), &fp2_of(b));
        } else {
            mulx_382x(r, a, b, P.as_ptr());
        }
    }
}
/// r = a - b (`sub`) or a + b modulo p 2^384, on wide values.
#[inline(always)]
unsafe fn wide(sub: bool, r: P6, a: P6, b: P6) {
    // SAFETY: the wrappers' contract (above `type P6`).
    unsafe {
        if !WIDE_OURS {
            return if sub { sub_mod_384x384(r, a, b, P.as_ptr()) } else { add_mod_384x384(r, a, b, P.as_ptr()) };
        }
        // references only where they cannot alias: the transcription's outputs either are
        // its first input or overlap neither input
        let (rw, bw) = (&mut *(r as *mut Wide<6>), &*(b as *const Wide<6>));
        match (r == a, sub) {
            (true, true) => backend::dbl_sub_assign(rw, bw, &P),
            (true, false) => backend::dbl_add_assign(rw, bw, &P),
            (false, true) => backend::dbl_sub(rw, &*(a as *const Wide<6>), bw, &P),
            (false, false) => backend::dbl_add(rw, &*(a as *const Wide<6>), bw, &P),
        }
    }
}
#[inline(always)]
unsafe fn wsub(r: P6, a: P6, b: P6) {
    // SAFETY: the wrappers' contract (above `type P6`).
    unsafe { wide(true, r, a, b) }
}
#[inline(always)]
unsafe fn wadd(r: P6, a: P6, b: P6) {
    // SAFETY: the wrappers' contract (above `type P6`).
    unsafe { wide(false, r, a, b) }
}
#[inline(always)]
unsafe fn sub2x2(r: P6, a: P6, b: P6) {
    // SAFETY: the wrappers' contract (above `type P6`).
    unsafe {
        wsub(r, a, b);
        wsub(r.add(12), a.add(12), b.add(12));
    }
}
#[inline(always)]
unsafe fn add2x2(r: P6, a: P6, b: P6) {
    // SAFETY: the wrappers' contract (above `type P6`).
    unsafe {
        wadd(r, a, b);
        wadd(r.add(12), a.add(12), b.add(12));
    }
}
#[inline(always)]
unsafe fn xi2x2(r: P6, a: P6) {
    // SAFETY: the wrappers' contract (above `type P6`).
    unsafe {
        wsub(r, a, a.add(12));
        wadd(r.add(12), a, a.add(12));
    }
}
#[inline(always)]
unsafe fn redc1(r: P6, a: P6) {
    // SAFETY: the wrappers' contract (above `type P6`).
    unsafe {
        if REDC_OURS {
            let x = backend::redc(&*(a as *const Wide<6>), &P);
            std::slice::from_raw_parts_mut(r, 6).copy_from_slice(&x);
        } else {
            redcx_mont_384(r, a, P.as_ptr(), P[6]);
        }
    }
}
#[inline(always)]
unsafe fn redc2(r: P6, a: P6) {
    // SAFETY: the wrappers' contract (above `type P6`).
    unsafe {
        redc1(r, a);
        redc1(r.add(6), a.add(12));
    }
}

/// blst's `mul_fp6x2` then `redc_fp6x2`, transcribed.
#[inline(never)]
unsafe fn mul_fp6_b(ret: P6, a: P6, b: P6) {
    // SAFETY: the wrappers' contract (above `type P6`).
    unsafe {
        let mut t = [0u64; 24 * 3];
        let mut rr = [0u64; 24 * 3];
        let mut ab = [0u64; 24];
        let (t0, t1, t2) = (t.as_mut_ptr(), t.as_mut_ptr().add(24), t.as_mut_ptr().add(48));
        let (r0, r1, r2) = (rr.as_mut_ptr(), rr.as_mut_ptr().add(24), rr.as_mut_ptr().add(48));
        let (aa, bb) = (ab.as_mut_ptr(), ab.as_mut_ptr().add(12));
        let (a0, a1, a2) = (a, a.add(12), a.add(24));
        let (b0, b1, b2) = (b, b.add(12), b.add(24));
        mul2x2(t0, a0, b0);
        mul2x2(t1, a1, b1);
        mul2x2(t2, a2, b2);
        add2(aa, a1, a2);
        add2(bb, b1, b2);
        mul2x2(r0, aa, bb);
        sub2x2(r0, r0, t1);
        sub2x2(r0, r0, t2);
        xi2x2(r1, r0);
        add2x2(r0, r1, t0);
        add2(aa, a0, a1);
        add2(bb, b0, b1);
        mul2x2(r1, aa, bb);
        sub2x2(r1, r1, t0);
        sub2x2(r1, r1, t1);
        xi2x2(r2, t2);
        add2x2(r1, r1, r2);
        add2(aa, a0, a2);
        add2(bb, b0, b2);
        mul2x2(r2, aa, bb);
        sub2x2(r2, r2, t0);
        sub2x2(r2, r2, t2);
        add2x2(r2, r2, t1);
        redc2(ret, r0);
        redc2(ret.add(12), r1);
        redc2(ret.add(24), r2);
    }
}

/// blst's `sqr_fp12`, transcribed.
#[inline(never)]
unsafe fn sqr_fp12_b(ret: P6, a: P6) {
    // SAFETY: the wrappers' contract (above `type P6`).
    unsafe {
        let mut t = [0u64; 72];
        let (t0, t1) = (t.as_mut_ptr(), t.as_mut_ptr().add(36));
        let (a0, a1) = (a, a.add(36));
        for i in 0..3 {
            add2(t0.add(12 * i), a0.add(12 * i), a1.add(12 * i));
        }
        xi2(t1.add(24), a1.add(24));
        add2(t1, a0, t1.add(24));
        add2(t1.add(12), a0.add(12), a1);
        add2(t1.add(24), a0.add(24), a1.add(12));
        mul_fp6_b(t0, t0, t1);
        mul_fp6_b(t1, a0, a1);
        let (r0, r1) = (ret, ret.add(36));
        for i in 0..3 {
            add2(r1.add(12 * i), t1.add(12 * i), t1.add(12 * i));
            sub2(r0.add(12 * i), t0.add(12 * i), t1.add(12 * i));
        }
        xi2(t1.add(24), t1.add(24));
        sub2(r0, r0, t1.add(24));
        sub2(r0.add(12), r0.add(12), t1);
        sub2(r0.add(24), r0.add(24), t1.add(12));
    }
}

/// blst's structure on our kernels: two reduced lazy Fp6 products, the finish on reduced values.
#[inline(never)]
fn sqr_ours_narrow(a: &bls::Fp12) -> bls::Fp12 {
    let mut w = Fp6Wide::ZERO;
    let t0 = a.c0 + a.c1;
    let t1 = a.c0 + a.c1.mul_by_nonresidue();
    Fp6Wide::mul_to(&mut w, &t0, &t1);
    let t0 = w.reduce();
    Fp6Wide::mul_to(&mut w, &a.c0, &a.c1);
    let t1 = w.reduce();
    bls::Fp12::new(t0 - t1 - t1.mul_by_nonresidue(), t1.double())
}

fn to_b(f: &bls::Fp12) -> Fp12B {
    let e = |x: &bls::Fp2| [x.c0.to_mont_limbs(), x.c1.to_mont_limbs()];
    let s = |x: &bls::Fp6| [e(&x.c0), e(&x.c1), e(&x.c2)];
    [s(&f.c0), s(&f.c1)]
}

fn chain(mut f: impl FnMut()) -> f64 {
    let s = Instant::now();
    for _ in 0..1000 {
        f();
    }
    s.elapsed().as_nanos() as f64 / 1000.0
}

fn main() {
    if !zkforge_field::backend::adx_active() {
        println!("sqr_replica: this CPU lacks BMI2/ADX (blst's mulx kernels need them); nothing to compare");
        return;
    }
    let mut s = 0x1234_5678_9abc_def0u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let f = bls::Fp12::random_with(&mut next);
    // a public blst call pulls in the archive member with the hidden kernels
    // SAFETY: blst_fp12 is 72 u64 words (12 blst_fp of 6 limbs), exactly Fp12B.
    let bf: blst::blst_fp12 = unsafe { std::mem::transmute(to_b(&f)) };
    let mut br = blst::blst_fp12::default();
    // SAFETY: blst's C function on valid, initialised values.
    unsafe { blst::blst_fp12_sqr(&mut br, &bf) };
    let want = to_b(&f.square());
    // SAFETY: as above, the other way round.
    let got: Fp12B = unsafe { std::mem::transmute(br) };
    assert_eq!(got, want, "blst_fp12_sqr differs");
    {
        // the cast in mul2x2 needs Fp2Wide laid out as c0 then c1
        let w = Fp2Wide::<bls::FpConfig, 6>::ZERO;
        let base = &w as *const _ as usize;
        assert_eq!(std::mem::size_of_val(&w), 192);
        assert_eq!(&w.c0 as *const _ as usize - base, 0);
        assert_eq!(&w.c1 as *const _ as usize - base, 96);
    }
    let mut r = [[[[0u64; 6]; 2]; 3]; 2];
    let mut a = to_b(&f);
    // SAFETY: 72-word output and input; BMI2/ADX checked above.
    unsafe { sqr_fp12_b(r.as_mut_ptr() as P6, a.as_mut_ptr() as P6) };
    assert_eq!(r, want, "replica on blst kernels differs");
    assert_eq!(to_b(&sqr_ours_narrow(&f)), want, "replica on our kernels differs");

    let names = ["ours (lib)", "blst_fp12_sqr", "replica (switches)", "ours, narrow finish"];
    println!("replica kernels ours: narrow {NARROW_OURS} mul {MUL_OURS} wide {WIDE_OURS} redc {REDC_OURS}");
    let mut best = [f64::MAX; 4];
    for _ in 0..40 {
        let mut x = black_box(f);
        best[0] = best[0].min(chain(|| x = x.square()));
        black_box(x);
        let mut xb = black_box(bf);
        // SAFETY: valid values; blst allows the copy `y` as input.
        best[1] = best[1].min(chain(|| unsafe {
            let y = xb;
            blst::blst_fp12_sqr(&mut xb, &y)
        }));
        black_box(xb);
        let mut xr = black_box(to_b(&f));
        // SAFETY: 72 words, aliasing as in blst's C (checked equal above).
        best[2] = best[2].min(chain(|| unsafe {
            let p = xr.as_mut_ptr() as P6;
            sqr_fp12_b(p, p)
        }));
        black_box(xr);
        let mut x = black_box(f);
        best[3] = best[3].min(chain(|| x = sqr_ours_narrow(&x)));
        black_box(x);
    }
    for (n, b) in names.iter().zip(best) {
        println!("{n:24} {b:8.1} ns  {:.3} of blst", b / best[1]);
    }
}

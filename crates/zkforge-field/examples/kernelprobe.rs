//! Our double-width (lazy-reduction) kernels against blst's, one by one: the exact 6-limb
//! product, the Montgomery reduction, the modular double-width addition and subtraction, and
//! the unreduced Fp2 product and square, each timed for throughput (8 independent slots) in
//! alternating chunks, ours then blst's, fastest chunk per side, after checking both agree.
//! blst's kernels are the hidden symbols of its statically linked library (src/vect.h); they
//! link because hidden visibility only hides them from dynamic linking.
//! A development probe for issue 19 (x86-64 with BMI2 and ADX only):
//! `cargo run --release -p zkforge-field --example kernelprobe`.
use std::hint::black_box;
use std::time::Instant;

use zkforge_field::bls12_381 as bls;

const CHUNK: u32 = 4_000;
const ROUNDS: usize = 40;

// blst's internal kernels (hidden symbols of the statically linked libblst.a; src/vect.h):
// the double-width building blocks of its tower, compared one by one with ours below.
extern "C" {
    fn mulx_384(ret: *mut u64, a: *const u64, b: *const u64);
    fn redcx_mont_384(ret: *mut u64, a: *const u64, p: *const u64, n0: u64);
    fn sub_mod_384x384(ret: *mut u64, a: *const u64, b: *const u64, p: *const u64);
    fn add_mod_384x384(ret: *mut u64, a: *const u64, b: *const u64, p: *const u64);
    fn mulx_382x(ret: *mut u64, a: *const u64, b: *const u64, p: *const u64);
    fn sqrx_382x(ret: *mut u64, a: *const u64, p: *const u64);
}

/// Throughput of `f` over 8 independent slots (ns per call), fastest chunk.
fn tput(f: &mut impl FnMut(usize)) -> f64 {
    let s = Instant::now();
    for _ in 0..CHUNK / 8 {
        for k in 0..8 {
            f(k);
        }
    }
    s.elapsed().as_nanos() as f64 / (CHUNK / 8 * 8) as f64
}

fn pair_tput(name: &str, mut fa: impl FnMut(usize), mut fb: impl FnMut(usize)) {
    let (mut ta, mut tb) = (f64::MAX, f64::MAX);
    for _ in 0..ROUNDS {
        ta = ta.min(tput(&mut fa));
        tb = tb.min(tput(&mut fb));
    }
    println!("{name:24} ours {ta:8.1} ns   blst {tb:8.1} ns   ratio {:.3}  (throughput)", ta / tb);
}

fn primitives(x2: &bls::Fp2, y2: &bls::Fp2) {
    use zkforge_field::backend::{self, Wide};
    use zkforge_field::tower::lazy::Fp2Wide;
    let p = bls::Fp::PINV;
    let a = x2.c0.to_mont_limbs();
    let b = y2.c0.to_mont_limbs();
    let mut wa = [Wide::<6>::ZERO; 8];
    let mut wb = [[0u64; 12]; 8];
    for k in 0..8 {
        backend::mul_wide(&mut wa[k], &a, &b);
        // SAFETY: 12-word output, 6-word inputs.
        unsafe { mulx_384(wb[k].as_mut_ptr(), a.as_ptr(), b.as_ptr()) };
    }
    let wa_lo: Vec<u64> = wa[0].lo.iter().chain(wa[0].hi.iter()).copied().collect();
    assert_eq!(wa_lo, wb[0].to_vec(), "mul_wide differs from blst's mulx_384");
    let (ab, bb) = (black_box(a), black_box(b));
    pair_tput(
        "mul_wide_6 / mulx_384",
        |k| backend::mul_wide(&mut wa[k], &ab, &bb),
        // SAFETY: as above.
        |k| unsafe { mulx_384(wb[k].as_mut_ptr(), ab.as_ptr(), bb.as_ptr()) },
    );
    let t = wa[0];
    let tb = wb[0];
    let mut ra = [[0u64; 6]; 8];
    let mut rb = [[0u64; 6]; 8];
    pair_tput(
        "redc_6 / redcx_mont_384",
        |k| ra[k] = backend::redc(black_box(&t), &p),
        // SAFETY: 6-word output, 12-word input, blst's modulus and n0 (the same as ours).
        |k| unsafe { redcx_mont_384(rb[k].as_mut_ptr(), black_box(&tb).as_ptr(), p.as_ptr(), p[6]) },
    );
    assert_eq!(ra[0], rb[0], "redc differs");
    let u = wa[1];
    let ub = wb[1];
    pair_tput(
        "dbl_sub_6 / sub_mod_384x384",
        |k| backend::dbl_sub(&mut wa[k], black_box(&t), black_box(&u), &p),
        // SAFETY: 12-word values, 6-word modulus.
        |k| unsafe { sub_mod_384x384(wb[k].as_mut_ptr(), black_box(&tb).as_ptr(), black_box(&ub).as_ptr(), p.as_ptr()) },
    );
    pair_tput(
        "dbl_add_6 / add_mod_384x384",
        |k| backend::dbl_add(&mut wa[k], black_box(&t), black_box(&u), &p),
        // SAFETY: as above.
        |k| unsafe { add_mod_384x384(wb[k].as_mut_ptr(), black_box(&tb).as_ptr(), black_box(&ub).as_ptr(), p.as_ptr()) },
    );
    let mut fa = [Fp2Wide::<bls::FpConfig, 6>::ZERO, Fp2Wide::ZERO, Fp2Wide::ZERO, Fp2Wide::ZERO, Fp2Wide::ZERO, Fp2Wide::ZERO, Fp2Wide::ZERO, Fp2Wide::ZERO];
    let mut fb = [[0u64; 24]; 8];
    let (xa, ya) = (black_box(*x2), black_box(*y2));
    let xb: [u64; 12] = {
        let mut v = [0u64; 12];
        v[..6].copy_from_slice(&x2.c0.to_mont_limbs());
        v[6..].copy_from_slice(&x2.c1.to_mont_limbs());
        v
    };
    let yb: [u64; 12] = {
        let mut v = [0u64; 12];
        v[..6].copy_from_slice(&y2.c0.to_mont_limbs());
        v[6..].copy_from_slice(&y2.c1.to_mont_limbs());
        v
    };
    pair_tput(
        "Fp2Wide::mul_to / mulx_382x",
        |k| Fp2Wide::mul_to(&mut fa[k], &xa, &ya),
        // SAFETY: 24-word output, 12-word inputs, 6-word modulus.
        |k| unsafe { mulx_382x(fb[k].as_mut_ptr(), black_box(&xb).as_ptr(), black_box(&yb).as_ptr(), p.as_ptr()) },
    );
    pair_tput(
        "Fp2Wide::square_to / sqrx_382x",
        |k| Fp2Wide::square_to(&mut fa[k], &xa),
        // SAFETY: as above.
        |k| unsafe { sqrx_382x(fb[k].as_mut_ptr(), black_box(&xb).as_ptr(), p.as_ptr()) },
    );
}

fn main() {
    if !zkforge_field::backend::adx_active() {
        println!("kernelprobe: this CPU lacks BMI2/ADX; nothing to compare");
        return;
    }
    let mut s = 0x1234_5678_9abc_def0u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let (x2, y2) = (bls::Fp2::random_with(&mut next), bls::Fp2::random_with(&mut next));
    // one public blst call: it also makes the linker pull in the archive member that holds
    // the hidden kernels
    let mut r = blst::blst_fp::default();
    let a = blst::blst_fp { l: x2.c0.to_mont_limbs() };
    let b = blst::blst_fp { l: y2.c0.to_mont_limbs() };
    // SAFETY: blst's C function on valid, initialised values.
    unsafe { blst::blst_fp_mul(&mut r, &a, &b) };
    assert_eq!(r.l, (x2.c0 * y2.c0).to_mont_limbs(), "Fp product differs from blst");
    primitives(&x2, &y2);
}

//! Field cases: Fp, Fr, Fp2 and Fp12 of BLS12-381 and BN254, ours against blst (BLS12-381
//! only), arkworks with `asm`, halo2curves with `asm` and gnark-crypto (BN254 only; Go, one
//! thread, when Go is present: [`crate::gnark`]), on the same inputs.
//!
//! blst and halo2curves keep the same Montgomery form as we do (R = 2^384 and 2^256), so
//! inputs are handed over limb for limb; arkworks inputs are converted from canonical limbs.
//!
//! Rows: latency chains (x <- x * y), throughput rows (`*_throughput`: eight independent
//! chains, which lets inlined code overlap operations the way a caller's loop would), and
//! inversions split by security class (`*_inverse_ct` against constant-time peers only,
//! `*_inverse_vartime` against variable-time ones). Every row first checks that all sides give
//! the same value (sqrt: the same square of the root).

use std::hint::black_box;
use std::time::Instant;

use ark_ff::{BigInt, CyclotomicMultSubgroup, Field as ArkField, PrimeField as ArkPrimeField};
use ff::{Field as _, PrimeField as _};
use rand::{rngs::StdRng, SeedableRng};
use zkforge_field::{bls12_381 as bls, bn254 as bn, FieldConfig, Fp};

use crate::canon::Canon;
use crate::{probed_case, Case, Impl, Runner};

/// Latency chain x <- f(x, y). The inputs are made opaque once per batch and the result is
/// observed once: a `black_box` on every step would force each value through memory, whose
/// store-to-load forwarding stalls depend on how each library's types are copied rather than
/// on its arithmetic. The probe is f(x0, y).
pub(crate) fn chain2<T: Copy + Canon + 'static>(x0: T, y: T, f: impl Fn(&T, &T) -> T + 'static) -> Impl {
    let probe = f(&x0, &y).canon();
    let mut x = x0;
    let runner: Runner = Box::new(move |iters| {
        let y = black_box(y);
        let mut z = black_box(x);
        let start = Instant::now();
        for _ in 0..iters {
            z = f(&z, &y);
        }
        x = black_box(z);
        start.elapsed()
    });
    Impl { runner, probe }
}

/// Throughput: eight independent chains x_i <- f(x_i, y) advanced together, so the CPU can
/// overlap them (an out-of-order core hides most of one operation's latency); `iters`
/// operations per batch in all, as in [`chain2`]. The probe is f(x0[0], y).
pub(crate) fn throughput2<T: Copy + Canon + 'static>(x0: [T; 8], y: T, f: impl Fn(&T, &T) -> T + 'static) -> Impl {
    let probe = f(&x0[0], &y).canon();
    let mut x = x0;
    let runner: Runner = Box::new(move |iters| {
        let y = black_box(y);
        let mut z = black_box(x);
        let start = Instant::now();
        for _ in 0..iters.div_ceil(8) {
            for zi in z.iter_mut() {
                *zi = f(zi, &y);
            }
        }
        x = black_box(z);
        start.elapsed()
    });
    Impl { runner, probe }
}

/// Latency chain x <- f(x) (see [`chain2`]); the probe is f(x0).
pub(crate) fn chain1<T: Copy + Canon + 'static>(x0: T, f: impl Fn(&T) -> T + 'static) -> Impl {
    let probe = f(&x0).canon();
    let mut x = x0;
    let runner: Runner = Box::new(move |iters| {
        let mut z = black_box(x);
        let start = Instant::now();
        for _ in 0..iters {
            z = f(&z);
        }
        x = black_box(z);
        start.elapsed()
    });
    Impl { runner, probe }
}

/// f over a fixed list of inputs (for sqrt, whose input must stay a square); the probe is
/// `probe` applied to f(inputs[0]) (the identity for most rows; the square for sqrt, whose two
/// roots implementations may pick differently).
pub(crate) fn over_probe<T: Copy + 'static, R, P: Canon>(inputs: Vec<T>, f: impl Fn(&T) -> R + 'static, probe: impl Fn(&R) -> P) -> Impl {
    let probe = probe(&f(&inputs[0])).canon();
    let runner: Runner = Box::new(move |iters| {
        let n = inputs.len();
        let start = Instant::now();
        for i in 0..iters as usize {
            black_box(f(black_box(&inputs[i % n])));
        }
        start.elapsed()
    });
    Impl { runner, probe }
}

/// [`over_probe`] with the output itself as the probe.
pub(crate) fn over<T: Copy + 'static, R: Canon + Clone>(inputs: Vec<T>, f: impl Fn(&T) -> R + 'static) -> Impl {
    over_probe(inputs, f, |r: &R| r.clone())
}

/// gnark-crypto's run of a field or tower latency chain (`kind` in `gnark/main.go`) on the
/// BN254 elements `xs` (canonical, structural order), when the Go peer is available: its
/// runner, and its output on the inputs as the probe.
fn gnark_bn(kind: &str, xs: &[bn::Fp]) -> Option<(&'static str, Impl)> {
    let bytes: Vec<u8> = xs.iter().flat_map(|x| x.to_bytes_be().as_ref().to_vec()).collect();
    let (runner, out) = crate::gnark::load(kind, &bytes).ok()?;
    Some(("gnark-crypto", Impl { runner, probe: crate::gnark::be_to_limbs(&out, 32) }))
}

/// The 12 coefficients of a BN254 Fp12 in structural order.
fn bn_fp12_coeffs(x: &bn::Fp12) -> Vec<bn::Fp> {
    [x.c0, x.c1].iter().flat_map(|c| [c.c0, c.c1, c.c2]).flat_map(|e| [e.c0, e.c1]).collect()
}

fn case(op: &'static str, curve: &'static str, ours: Impl, peers: Vec<(&'static str, Impl)>) -> Case {
    probed_case("field", op, curve, ours, peers)
}

fn ark<C: FieldConfig<N>, const N: usize, A: ArkPrimeField<BigInt = BigInt<N>>>(x: &Fp<C, N>) -> A {
    A::from_bigint(BigInt(x.to_limbs())).expect("canonical")
}

fn h2_fq(x: &bn::Fp) -> halo2curves::bn256::Fq {
    halo2curves::bn256::Fq::from_repr(x.to_bytes_le().into()).expect("canonical")
}
fn h2_fr(x: &bn::Fr) -> halo2curves::bn256::Fr {
    halo2curves::bn256::Fr::from_repr(x.to_bytes_le().into()).expect("canonical")
}

// ---- conversions of tower elements ----
/// The same element as blst's type (both keep Montgomery form with R = 2^384).
pub fn blst_fp(x: &bls::Fp) -> blst::blst_fp {
    blst::blst_fp { l: x.to_mont_limbs() }
}
/// The same Fp2 element as blst's type.
pub fn blst_fp2(x: &bls::Fp2) -> blst::blst_fp2 {
    blst::blst_fp2 { fp: [blst_fp(&x.c0), blst_fp(&x.c1)] }
}
/// The same Fp12 element as blst's type (the towers match coefficient by coefficient).
pub fn blst_fp12(x: &bls::Fp12) -> blst::blst_fp12 {
    let f6 = |y: &bls::Fp6| blst::blst_fp6 { fp2: [blst_fp2(&y.c0), blst_fp2(&y.c1), blst_fp2(&y.c2)] };
    blst::blst_fp12 { fp6: [f6(&x.c0), f6(&x.c1)] }
}
fn ark_bls_fp2(x: &bls::Fp2) -> ark_bls12_381::Fq2 {
    ark_bls12_381::Fq2::new(ark(&x.c0), ark(&x.c1))
}
fn ark_bls_fp12(x: &bls::Fp12) -> ark_bls12_381::Fq12 {
    let f6 = |y: &bls::Fp6| ark_bls12_381::Fq6::new(ark_bls_fp2(&y.c0), ark_bls_fp2(&y.c1), ark_bls_fp2(&y.c2));
    ark_bls12_381::Fq12::new(f6(&x.c0), f6(&x.c1))
}
fn ark_bn_fp2(x: &bn::Fp2) -> ark_bn254::Fq2 {
    ark_bn254::Fq2::new(ark(&x.c0), ark(&x.c1))
}
fn ark_bn_fp12(x: &bn::Fp12) -> ark_bn254::Fq12 {
    let f6 = |y: &bn::Fp6| ark_bn254::Fq6::new(ark_bn_fp2(&y.c0), ark_bn_fp2(&y.c1), ark_bn_fp2(&y.c2));
    ark_bn254::Fq12::new(f6(&x.c0), f6(&x.c1))
}
fn h2_fp2(x: &bn::Fp2) -> halo2curves::bn256::Fq2 {
    halo2curves::bn256::Fq2::new(h2_fq(&x.c0), h2_fq(&x.c1))
}
fn h2_fp12(x: &bn::Fp12) -> halo2curves::bn256::Fq12 {
    let f6 = |y: &bn::Fp6| halo2curves::bn256::Fq6::new(h2_fp2(&y.c0), h2_fp2(&y.c1), h2_fp2(&y.c2));
    halo2curves::bn256::Fq12::new(f6(&x.c0), f6(&x.c1))
}

// blst calls: SAFETY for every `unsafe` block below: blst's functions read their inputs and
// write their output through valid, properly aligned references to blst's own repr(C) types.
macro_rules! blst1 {
    ($f:path) => {
        |a| {
            let mut r = Default::default();
            // SAFETY: see the note above.
            unsafe { $f(&mut r, a) };
            r
        }
    };
}
macro_rules! blst2 {
    ($f:path) => {
        |a, b| {
            let mut r = Default::default();
            // SAFETY: see the note above.
            unsafe { $f(&mut r, a, b) };
            r
        }
    };
}

/// All field cases.
pub fn cases() -> Vec<Case> {
    let mut rng = StdRng::seed_from_u64(0x5eed);
    let mut v = Vec::new();

    // ---------------- BLS12-381 Fp ----------------
    let (x, y) = (bls::Fp::random(&mut rng), bls::Fp::random(&mut rng));
    let (ax, ay): (ark_bls12_381::Fq, ark_bls12_381::Fq) = (ark(&x), ark(&y));
    v.push(case("fp_mul", "bls12_381", chain2(x, y, |a, b| *a * *b), vec![
        ("blst", chain2(blst_fp(&x), blst_fp(&y), blst2!(blst::blst_fp_mul))),
        ("arkworks", chain2(ax, ay, |a, b| *a * b)),
    ]));
    let xs: [bls::Fp; 8] = core::array::from_fn(|_| bls::Fp::random(&mut rng));
    v.push(case("fp_mul_throughput", "bls12_381", throughput2(xs, y, |a, b| *a * *b), vec![
        ("blst", throughput2(xs.map(|z| blst_fp(&z)), blst_fp(&y), blst2!(blst::blst_fp_mul))),
        ("arkworks", throughput2(xs.map(|z| ark::<_, 6, ark_bls12_381::Fq>(&z)), ay, |a, b| *a * b)),
    ]));
    v.push(case("fp_square", "bls12_381", chain1(x, |a| a.square()), vec![
        ("blst", chain1(blst_fp(&x), blst1!(blst::blst_fp_sqr))),
        ("arkworks", chain1(ax, |a| a.square())),
    ]));
    // inversion by security class: constant time against constant time (blst's
    // `blst_fp_inverse` and its constant-time Euclid `blst_fp_eucl_inverse`); variable time
    // against variable time (arkworks' binary Euclid)
    v.push(case("fp_inverse_ct", "bls12_381", chain1(x, |a| a.invert().unwrap()), vec![
        ("blst-ct", chain1(blst_fp(&x), blst1!(blst::blst_fp_inverse))),
        ("blst-eucl-ct", chain1(blst_fp(&x), blst1!(blst::blst_fp_eucl_inverse))),
    ]));
    // blst has no variable-time inverse: its constant-time one is the row the target
    // (vartime <= 0.8x blst) is read against
    v.push(case("fp_inverse_vartime", "bls12_381", chain1(x, |a| a.invert_vartime().unwrap()), vec![
        ("arkworks-vartime", chain1(ax, |a| a.inverse().unwrap())),
        ("blst-ct", chain1(blst_fp(&x), blst1!(blst::blst_fp_inverse))),
    ]));
    let squares: Vec<bls::Fp> = (0..64).map(|_| bls::Fp::random(&mut rng).square()).collect();
    let bsq: Vec<blst::blst_fp> = squares.iter().map(blst_fp).collect();
    let asq: Vec<ark_bls12_381::Fq> = squares.iter().map(ark).collect();
    // the probe is the root's square: implementations may return either root
    v.push(case("fp_sqrt", "bls12_381", over_probe(squares, |a| a.sqrt().unwrap(), |r| r.square()), vec![
        ("blst", over_probe(bsq, |a| {
            let mut r = blst::blst_fp::default();
            // SAFETY: see the note above.
            unsafe { blst::blst_fp_sqrt(&mut r, a) };
            r
        }, |r| {
            let mut q = blst::blst_fp::default();
            // SAFETY: see the note above.
            unsafe { blst::blst_fp_sqr(&mut q, r) };
            q
        })),
        ("arkworks", over_probe(asq, |a| a.sqrt().unwrap(), |r| r.square())),
    ]));

    // ---------------- BLS12-381 Fr ----------------
    let (x, y) = (bls::Fr::random(&mut rng), bls::Fr::random(&mut rng));
    let bfr = |z: &bls::Fr| blst::blst_fr { l: z.to_mont_limbs() };
    let (ax, ay): (ark_bls12_381::Fr, ark_bls12_381::Fr) = (ark(&x), ark(&y));
    v.push(case("fr_mul", "bls12_381", chain2(x, y, |a, b| *a * *b), vec![
        ("blst", chain2(bfr(&x), bfr(&y), blst2!(blst::blst_fr_mul))),
        ("arkworks", chain2(ax, ay, |a, b| *a * b)),
    ]));
    let xs: [bls::Fr; 8] = core::array::from_fn(|_| bls::Fr::random(&mut rng));
    v.push(case("fr_mul_throughput", "bls12_381", throughput2(xs, y, |a, b| *a * *b), vec![
        ("blst", throughput2(xs.map(|z| bfr(&z)), bfr(&y), blst2!(blst::blst_fr_mul))),
        ("arkworks", throughput2(xs.map(|z| ark::<_, 4, ark_bls12_381::Fr>(&z)), ay, |a, b| *a * b)),
    ]));
    v.push(case("fr_inverse_ct", "bls12_381", chain1(x, |a| a.invert().unwrap()), vec![
        ("blst-ct", chain1(bfr(&x), blst1!(blst::blst_fr_inverse))),
    ]));
    v.push(case("fr_inverse_vartime", "bls12_381", chain1(x, |a| a.invert_vartime().unwrap()), vec![
        ("arkworks-vartime", chain1(ax, |a| a.inverse().unwrap())),
    ]));

    // ---------------- BLS12-381 Fp2 / Fp12 ----------------
    let (x, y) = (bls::Fp2::random(&mut rng), bls::Fp2::random(&mut rng));
    v.push(case("fp2_mul", "bls12_381", chain2(x, y, |a, b| *a * *b), vec![
        ("blst", chain2(blst_fp2(&x), blst_fp2(&y), blst2!(blst::blst_fp2_mul))),
        ("arkworks", chain2(ark_bls_fp2(&x), ark_bls_fp2(&y), |a, b| *a * b)),
    ]));
    let xs: [bls::Fp2; 8] = core::array::from_fn(|_| bls::Fp2::random(&mut rng));
    v.push(case("fp2_mul_throughput", "bls12_381", throughput2(xs, y, |a, b| *a * *b), vec![
        ("blst", throughput2(xs.map(|z| blst_fp2(&z)), blst_fp2(&y), blst2!(blst::blst_fp2_mul))),
        ("arkworks", throughput2(xs.map(|z| ark_bls_fp2(&z)), ark_bls_fp2(&y), |a, b| *a * b)),
    ]));
    v.push(case("fp2_square", "bls12_381", chain1(x, |a| a.square()), vec![
        ("blst", chain1(blst_fp2(&x), blst1!(blst::blst_fp2_sqr))),
        ("arkworks", chain1(ark_bls_fp2(&x), |a| a.square())),
    ]));
    v.push(case("fp2_inverse_ct", "bls12_381", chain1(x, |a| a.invert().unwrap()), vec![
        ("blst-ct", chain1(blst_fp2(&x), blst1!(blst::blst_fp2_inverse))),
    ]));

    let (x, y) = (bls::Fp12::random(&mut rng), bls::Fp12::random(&mut rng));
    v.push(case("fp12_mul", "bls12_381", chain2(x, y, |a, b| *a * *b), vec![
        ("blst", chain2(blst_fp12(&x), blst_fp12(&y), blst2!(blst::blst_fp12_mul))),
        ("arkworks", chain2(ark_bls_fp12(&x), ark_bls_fp12(&y), |a, b| *a * b)),
    ]));
    v.push(case("fp12_square", "bls12_381", chain1(x, |a| a.square()), vec![
        ("blst", chain1(blst_fp12(&x), blst1!(blst::blst_fp12_sqr))),
        ("arkworks", chain1(ark_bls_fp12(&x), |a| a.square())),
    ]));
    // an element of the cyclotomic subgroup: x^((p^6 - 1)(p^2 + 1))
    let g = x.conjugate() * x.invert().unwrap();
    let g = g.frobenius_map(2) * g;
    v.push(case("fp12_cyclotomic_square", "bls12_381", chain1(g, |a| a.cyclotomic_square()), vec![
        ("blst", chain1(blst_fp12(&g), blst1!(blst::blst_fp12_cyclotomic_sqr))),
        ("arkworks", chain1(ark_bls_fp12(&g), |a| *a.clone().cyclotomic_square_in_place())),
    ]));
    v.push(case("fp12_inverse_ct", "bls12_381", chain1(x, |a| a.invert().unwrap()), vec![
        ("blst-ct", chain1(blst_fp12(&x), blst1!(blst::blst_fp12_inverse))),
    ]));

    // ---------------- BN254 Fp / Fr ----------------
    let (x, y) = (bn::Fp::random(&mut rng), bn::Fp::random(&mut rng));
    let (ax, ay): (ark_bn254::Fq, ark_bn254::Fq) = (ark(&x), ark(&y));
    v.push(case("fp_mul", "bn254", chain2(x, y, |a, b| *a * *b), [
        ("halo2curves", chain2(h2_fq(&x), h2_fq(&y), |a, b| *a * b)),
        ("arkworks", chain2(ax, ay, |a, b| *a * b)),
    ].into_iter().chain(gnark_bn("bn_fp_mul", &[x, y])).collect()));
    let xs: [bn::Fp; 8] = core::array::from_fn(|_| bn::Fp::random(&mut rng));
    v.push(case("fp_mul_throughput", "bn254", throughput2(xs, y, |a, b| *a * *b), vec![
        ("halo2curves", throughput2(xs.map(|z| h2_fq(&z)), h2_fq(&y), |a, b| *a * b)),
        ("arkworks", throughput2(xs.map(|z| ark::<_, 4, ark_bn254::Fq>(&z)), ay, |a, b| *a * b)),
    ]));
    v.push(case("fp_square", "bn254", chain1(x, |a| a.square()), vec![
        ("halo2curves", chain1(h2_fq(&x), |a| a.square())),
        ("arkworks", chain1(ax, |a| a.square())),
    ]));
    // halo2curves 0.8 inverts with a Bernstein-Yang loop that stops when g = 0 (variable
    // time), arkworks with a binary Euclid (variable time): both against our vartime inverse;
    // no constant-time BN254 peer is linked here
    v.push(case("fp_inverse_vartime", "bn254", chain1(x, |a| a.invert_vartime().unwrap()), vec![
        ("halo2curves-vartime", chain1(h2_fq(&x), |a| a.invert().unwrap())),
        ("arkworks-vartime", chain1(ax, |a| a.inverse().unwrap())),
    ]));
    let squares: Vec<bn::Fp> = (0..64).map(|_| bn::Fp::random(&mut rng).square()).collect();
    let hsq: Vec<halo2curves::bn256::Fq> = squares.iter().map(h2_fq).collect();
    let asq: Vec<ark_bn254::Fq> = squares.iter().map(ark).collect();
    v.push(case("fp_sqrt", "bn254", over_probe(squares, |a| a.sqrt().unwrap(), |r| r.square()), vec![
        ("halo2curves", over_probe(hsq, |a| a.sqrt().unwrap(), |r| r.square())),
        ("arkworks", over_probe(asq, |a| a.sqrt().unwrap(), |r| r.square())),
    ]));
    let (x, y) = (bn::Fr::random(&mut rng), bn::Fr::random(&mut rng));
    let (ax, ay): (ark_bn254::Fr, ark_bn254::Fr) = (ark(&x), ark(&y));
    v.push(case("fr_mul", "bn254", chain2(x, y, |a, b| *a * *b), vec![
        ("halo2curves", chain2(h2_fr(&x), h2_fr(&y), |a, b| *a * b)),
        ("arkworks", chain2(ax, ay, |a, b| *a * b)),
    ]));

    // ---------------- BN254 Fp2 / Fp12 ----------------
    let (x, y) = (bn::Fp2::random(&mut rng), bn::Fp2::random(&mut rng));
    v.push(case("fp2_mul", "bn254", chain2(x, y, |a, b| *a * *b), [
        ("halo2curves", chain2(h2_fp2(&x), h2_fp2(&y), |a, b| *a * b)),
        ("arkworks", chain2(ark_bn_fp2(&x), ark_bn_fp2(&y), |a, b| *a * b)),
    ].into_iter().chain(gnark_bn("bn_fp2_mul", &[x.c0, x.c1, y.c0, y.c1])).collect()));
    v.push(case("fp2_square", "bn254", chain1(x, |a| a.square()), [
        ("halo2curves", chain1(h2_fp2(&x), |a| a.square())),
        ("arkworks", chain1(ark_bn_fp2(&x), |a| a.square())),
    ].into_iter().chain(gnark_bn("bn_fp2_square", &[x.c0, x.c1])).collect()));
    v.push(case("fp2_mul_by_nonresidue", "bn254", chain1(x, |a| a.mul_by_nonresidue()), [
        ("halo2curves", chain1(h2_fp2(&x), |a| halo2curves::ff_ext::ExtField::mul_by_nonresidue(a))),
    ].into_iter().chain(gnark_bn("bn_fp2_mul_by_nonresidue", &[x.c0, x.c1])).collect()));
    let (x, y) = (bn::Fp12::random(&mut rng), bn::Fp12::random(&mut rng));
    let xy: Vec<bn::Fp> = bn_fp12_coeffs(&x).into_iter().chain(bn_fp12_coeffs(&y)).collect();
    v.push(case("fp12_mul", "bn254", chain2(x, y, |a, b| *a * *b), [
        ("halo2curves", chain2(h2_fp12(&x), h2_fp12(&y), |a, b| *a * b)),
        ("arkworks", chain2(ark_bn_fp12(&x), ark_bn_fp12(&y), |a, b| *a * b)),
    ].into_iter().chain(gnark_bn("bn_fp12_mul", &xy)).collect()));
    v.push(case("fp12_square", "bn254", chain1(x, |a| a.square()), [
        ("halo2curves", chain1(h2_fp12(&x), |a| a.square())),
        ("arkworks", chain1(ark_bn_fp12(&x), |a| a.square())),
    ].into_iter().chain(gnark_bn("bn_fp12_square", &bn_fp12_coeffs(&x))).collect()));
    let g = x.conjugate() * x.invert().unwrap();
    let g = g.frobenius_map(2) * g;
    v.push(case("fp12_cyclotomic_square", "bn254", chain1(g, |a| a.cyclotomic_square()), [
        ("arkworks", chain1(ark_bn_fp12(&g), |a| *a.clone().cyclotomic_square_in_place())),
    ].into_iter().chain(gnark_bn("bn_fp12_cyclotomic_square", &bn_fp12_coeffs(&g))).collect()));
    v
}

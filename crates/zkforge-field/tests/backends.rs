//! The x86-64 MULX/ADX assembly against the portable CIOS on the same inputs (random and
//! edge values), for every 4- and 6-limb field; and the run-time selection.

mod common;

use common::*;
use zkforge_field::backend::{self, portable};
use zkforge_field::{bls12_381, bn254, FieldConfig, Fp};

fn compare<C: FieldConfig<N>, const N: usize>() {
    #[cfg(target_arch = "x86_64")]
    {
        use zkforge_field::backend::x86_64_adx;
        if !(std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("adx")) {
            eprintln!("no ADX on this CPU: only the portable backend is exercised");
            return;
        }
        let p = Fp::<C, N>::PINV;
        let mut rng = rng();
        let mut inputs: Vec<[u64; N]> = edge_values::<C, N>().iter().map(|x| x.to_mont_limbs()).collect();
        for _ in 0..iters() {
            inputs.push(Fp::<C, N>::random(&mut rng).to_mont_limbs());
        }
        for (i, a) in inputs.iter().enumerate() {
            let b = &inputs[(i * 7 + 3) % inputs.len()];
            let want = portable::reduce_once(portable::mont_mul(a, b, &p), &p);
            let got: [u64; N] = if N == 4 {
                // SAFETY: BMI2 and ADX detected above; a and b hold N = 4 limbs.
                let r = unsafe { x86_64_adx::mont_mul_4(a.as_ptr(), b.as_ptr(), &p) };
                r[..N].try_into().unwrap()
            } else {
                // SAFETY: as above, N = 6 limbs.
                let r = unsafe { x86_64_adx::mont_mul_6(a.as_ptr(), b.as_ptr(), &p) };
                r[..N].try_into().unwrap()
            };
            assert_eq!(got, want, "{} a={a:x?} b={b:x?}", C::NAME);
        }
    }
}

#[test]
fn adx_matches_portable() {
    compare::<bls12_381::FpConfig, 6>();
    compare::<bls12_381::FrConfig, 4>();
    compare::<bn254::FpConfig, 4>();
    compare::<bn254::FrConfig, 4>();
}

#[test]
fn forced_portable_backend_gives_same_results() {
    let mut rng = rng();
    let xs: Vec<bls12_381::Fp> = (0..256).map(|_| bls12_381::Fp::random(&mut rng)).collect();
    let auto: Vec<_> = xs.windows(2).map(|w| w[0] * w[1]).collect();
    backend::set_backend(backend::Backend::Portable);
    // a build compiled for BMI2 + ADX fixes the assembly at compile time (`STATIC_ADX`); every
    // other build honours the switch
    assert_eq!(backend::adx_active(), backend::STATIC_ADX);
    let port: Vec<_> = xs.windows(2).map(|w| w[0] * w[1]).collect();
    backend::set_backend(backend::Backend::Auto);
    assert_eq!(auto, port);
}

fn sum_of_products<C: FieldConfig<N>, const N: usize>() {
    let mut rng = rng();
    let mut xs: Vec<Fp<C, N>> = edge_values::<C, N>();
    for _ in 0..iters() {
        xs.push(Fp::<C, N>::random(&mut rng));
    }
    let n = xs.len();
    for i in 0..n {
        let (a0, a1, b0, b1) = (xs[i], xs[(i * 3 + 1) % n], xs[(i * 5 + 2) % n], xs[(i * 7 + 3) % n]);
        assert_eq!(Fp::sum_of_products2(&a0, &a1, &b0, &b1), a0 * b0 + a1 * b1, "{}", C::NAME);
        assert_eq!(Fp::sum_of_products2(&a0, &a1, &b0, &-b1), a0 * b0 - a1 * b1, "{}", C::NAME);
    }
    // all inputs p - 1: the accumulator's largest case
    let m = -Fp::<C, N>::ONE;
    assert_eq!(Fp::sum_of_products2(&m, &m, &m, &m), m * m + m * m);
}

#[test]
fn sum_of_products_matches_two_products() {
    sum_of_products::<bls12_381::FpConfig, 6>();
    sum_of_products::<bls12_381::FrConfig, 4>();
    sum_of_products::<bn254::FpConfig, 4>();
    sum_of_products::<bn254::FrConfig, 4>();
}

#[test]
fn fp2_mul_matches_karatsuba() {
    let mut rng = rng();
    for _ in 0..iters() {
        let (a, b) = (bls12_381::Fp2::random(&mut rng), bls12_381::Fp2::random(&mut rng));
        assert_eq!(a * b, a.mul_karatsuba(&b));
        let (a, b) = (bn254::Fp2::random(&mut rng), bn254::Fp2::random(&mut rng));
        assert_eq!(a * b, a.mul_karatsuba(&b));
    }
    let m = -bls12_381::Fp2::ONE;
    let mm = bls12_381::Fp2::new(-bls12_381::Fp::ONE, -bls12_381::Fp::ONE);
    assert_eq!(mm * mm, mm.mul_karatsuba(&mm));
    assert_eq!(m * mm, m.mul_karatsuba(&mm));
    // lazy squaring (unreduced sums into the products) at the edges
    for a in [mm, m, bls12_381::Fp2::ZERO, bls12_381::Fp2::ONE, bls12_381::Fp2::new(bls12_381::Fp::ZERO, -bls12_381::Fp::ONE)] {
        assert_eq!(a.square(), a.mul_karatsuba(&a));
    }
    let bm = bn254::Fp2::new(-bn254::Fp::ONE, -bn254::Fp::ONE);
    for a in [bm, bn254::Fp2::new(bn254::Fp::ZERO, -bn254::Fp::ONE), bn254::Fp2::new(-bn254::Fp::ONE, bn254::Fp::ZERO)] {
        assert_eq!(a.square(), a.mul_karatsuba(&a));
    }
    for _ in 0..iters() {
        let a = bls12_381::Fp2::random(&mut rng);
        assert_eq!(a.square(), a.mul_karatsuba(&a));
        let a = bn254::Fp2::random(&mut rng);
        assert_eq!(a.square(), a.mul_karatsuba(&a));
    }
}

/// Wide values below p R: random (high half below p), the products of edge values, 0 and
/// p R - 1.
fn wide_inputs<C: FieldConfig<N>, const N: usize>() -> Vec<backend::Wide<N>> {
    use rand::RngCore;
    let mut rng = rng();
    let mut pm1 = backend::Wide { lo: [u64::MAX; N], hi: C::MODULUS };
    pm1.hi[0] -= 1;
    let mut v = vec![backend::Wide::ZERO, pm1];
    let edges = edge_values::<C, N>();
    for a in &edges {
        for b in &edges {
            v.push(backend::wide::mul_wide(&a.to_mont_limbs(), &b.to_mont_limbs()));
        }
    }
    // 10^5 by default: the issue asks each new kernel to see that many random inputs
    for _ in 0..10 * iters() {
        let mut lo = [0u64; N];
        lo.iter_mut().for_each(|x| *x = rng.next_u64());
        v.push(backend::Wide { lo, hi: Fp::<C, N>::random(&mut rng).to_mont_limbs() });
    }
    v
}

/// Every wide kernel (product, reduction, modular sum and difference, plain difference)
/// against its portable reference, and the reference against its definition.
fn wide_kernels<C: FieldConfig<N>, const N: usize>() {
    use backend::wide;
    let p = Fp::<C, N>::PINV;
    let xs = wide_inputs::<C, N>();
    let below = |w: &backend::Wide<N>| {
        // w < p R  <=>  w.hi < p
        let (_, borrow) = zkforge_field::limbs::sub_rt(&w.hi, &C::MODULUS);
        borrow == 1
    };
    // products of inputs below 2p (the lazy sums), reduced and compared with `*`
    let mut rng = rng();
    let edges = edge_values::<C, N>();
    for i in 0..10 * iters() + edges.len() {
        let (a, b) = if i < edges.len() { (edges[i], edges[edges.len() - 1 - i]) } else { (Fp::<C, N>::random(&mut rng), Fp::<C, N>::random(&mut rng)) };
        let (a2, _) = zkforge_field::limbs::add_rt(&a.to_mont_limbs(), &b.to_mont_limbs());
        let b2 = (-a).to_mont_limbs();
        let w = wide::mul_wide(&a2, &b2);
        let mut k = backend::Wide::ZERO;
        backend::mul_wide(&mut k, &a2, &b2);
        assert_eq!(k, w);
        assert!(below(&w));
        let want = ((a + b) * -a).to_mont_limbs();
        assert_eq!(wide::redc(&w, &p), want);
        assert_eq!(backend::redc(&w, &p), want);
    }
    // the exact product on any limbs: all ones, zero, and random full-width words
    {
        use rand::RngCore;
        let mut words: Vec<[u64; N]> = vec![[u64::MAX; N], [0; N], [1; N]];
        for _ in 0..10 * iters() {
            let mut a = [0u64; N];
            a.iter_mut().for_each(|x| *x = rng.next_u64());
            words.push(a);
        }
        for (i, a) in words.iter().enumerate() {
            for b in [&words[0], &words[(i * 7 + 3) % words.len()]] {
                let mut k = backend::Wide::ZERO;
                backend::mul_wide(&mut k, a, b);
                assert_eq!(k, wide::mul_wide(a, b), "{} {a:?} {b:?}", C::NAME);
            }
        }
    }
    for (i, a) in xs.iter().enumerate() {
        let b = &xs[(i * 7 + 3) % xs.len()];
        assert_eq!(backend::redc(a, &p), wide::redc(a, &p), "{}", C::NAME);
        let mut k = backend::Wide::ZERO;
        let s = wide::dbl_add(a, b, &p);
        assert!(below(&s));
        backend::dbl_add(&mut k, a, b, &p);
        assert_eq!(k, s);
        let d = wide::dbl_sub(a, b, &p);
        assert!(below(&d));
        backend::dbl_sub(&mut k, a, b, &p);
        assert_eq!(k, d);
        // (a + b) - b = a and (a - b) + b = a modulo p R, both canonical below p R
        assert_eq!(wide::dbl_sub(&s, b, &p), *a);
        assert_eq!(wide::dbl_add(&d, b, &p), *a);
        let (hi, lo) = if wide::dbl_sub(a, b, &p) == wide::wide_sub(a, b) { (a, b) } else { (b, a) };
        let mut x = *hi;
        backend::wide_sub_assign(&mut x, lo);
        assert_eq!(x, wide::wide_sub(hi, lo));
        // in place: the kernels allow `out` to alias an input
        let mut x = *a;
        backend::dbl_add_assign(&mut x, b, &p);
        assert_eq!(x, s);
        let mut x = *a;
        backend::dbl_sub_assign(&mut x, b, &p);
        assert_eq!(x, d);
        let mut x = *a;
        backend::dbl_double_assign(&mut x, &p);
        assert_eq!(x, wide::dbl_add(a, a, &p));
    }
}

#[test]
fn wide_kernels_match_portable() {
    wide_kernels::<bls12_381::FpConfig, 6>();
    wide_kernels::<bn254::FpConfig, 4>();
}

/// The dedicated squaring kernel: the wide square against the portable product on edge values,
/// random field elements and random full-width limbs (10^5 by default), and `square` against
/// `a * a` under every value of the `set_squaring` switch.
fn squaring<C: FieldConfig<N>, const N: usize>() {
    use backend::{wide, Squaring};
    use rand::RngCore;
    let mut rng = rng();
    let mut inputs: Vec<[u64; N]> = edge_values::<C, N>().iter().map(|a| a.to_mont_limbs()).collect();
    inputs.push([u64::MAX; N]);
    inputs.push([0; N]);
    for i in 0..10 * iters() {
        if i % 2 == 0 {
            inputs.push(Fp::<C, N>::random(&mut rng).to_mont_limbs());
        } else {
            let mut a = [0u64; N];
            a.iter_mut().for_each(|x| *x = rng.next_u64());
            inputs.push(a);
        }
    }
    for a in &inputs {
        let mut k = backend::Wide::ZERO;
        backend::sqr_wide(&mut k, a);
        assert_eq!(k, wide::mul_wide(a, a), "{} {a:?}", C::NAME);
    }
    let mut xs: Vec<Fp<C, N>> = edge_values::<C, N>();
    xs.extend((0..1000).map(|_| Fp::<C, N>::random(&mut rng)));
    for s in [Squaring::Auto, Squaring::Dedicated, Squaring::Multiply] {
        backend::set_squaring(s);
        for x in &xs {
            assert_eq!(x.square(), *x * *x, "{} {s:?}", C::NAME);
        }
    }
    backend::set_squaring(Squaring::Auto);
}

#[test]
fn squaring_kernel_matches_portable() {
    squaring::<bls12_381::FpConfig, 6>();
    squaring::<bls12_381::FrConfig, 4>();
    squaring::<bn254::FpConfig, 4>();
}

/// The in-place squaring loop (`sqr_n_4`, `sqr_n_6` or `sqr_n_head_*`: rounds without the final subtraction)
/// against k fully reduced portable squarings, on edge values, random values and inputs in
/// [p, 2p) (the loop's own output range), for k = 1, 2, 3 and 17; its output stays below 2p.
/// The two-value loop (`sqr_n_x2_4`, `sqr_n_x2_6`) likewise, against the one-value loop.
fn compare_sqr_n<C: FieldConfig<N>, const N: usize>() {
    let p = Fp::<C, N>::PINV;
    let modulus: [u64; N] = p[..N].try_into().unwrap();
    let mut rng = rng();
    let mut inputs: Vec<[u64; N]> = edge_values::<C, N>().iter().map(|x| x.to_mont_limbs()).collect();
    for _ in 0..10 * iters() {
        inputs.push(Fp::<C, N>::random(&mut rng).to_mont_limbs());
    }
    // x + p for a few x (still below 2p < 2^(64N))
    let lifted: Vec<[u64; N]> = inputs.iter().take(64).map(|x| zkforge_field::limbs::add_rt(x, &modulus).0).collect();
    inputs.extend(lifted);
    let below_2p = |x: &[u64; N]| {
        let (d, borrow) = zkforge_field::limbs::sub_rt(x, &modulus);
        borrow != 0 || zkforge_field::limbs::sub_rt(&d, &modulus).1 != 0
    };
    for (i, a) in inputs.iter().enumerate() {
        let k = [1u32, 2, 3, 17][i % 4];
        let mut want = portable::reduce_once(*a, &p);
        for _ in 0..k {
            want = portable::reduce_once(portable::mont_mul(&want, &want, &p), &p);
        }
        let mut got = *a;
        backend::mont_square_n_lazy(&mut got, k, &p);
        assert!(below_2p(&got), "{} output not below 2p: a={a:x?} k={k}", C::NAME);
        assert_eq!(portable::reduce_once(got, &p), want, "{} a={a:x?} k={k}", C::NAME);
        // the two-value loop (`sqr_n_x2_*`), with this input in either half and its neighbour
        // in the other
        let b = inputs[(i + 1) % inputs.len()];
        let mut want_b = b;
        backend::mont_square_n_lazy(&mut want_b, k, &p);
        for (x, y, wx, wy) in [(*a, b, want, want_b), (b, *a, want_b, want)] {
            let mut pair = [x, y];
            backend::mont_square_n_lazy_x2(&mut pair, k, &p);
            assert!(below_2p(&pair[0]) && below_2p(&pair[1]), "{} x2 output not below 2p: k={k}", C::NAME);
            assert_eq!(portable::reduce_once(pair[0], &p), portable::reduce_once(wx, &p), "{} x2 first: x={x:x?} k={k}", C::NAME);
            assert_eq!(portable::reduce_once(pair[1], &p), portable::reduce_once(wy, &p), "{} x2 second: y={y:x?} k={k}", C::NAME);
        }
    }
}

/// Under every `set_squaring_runs` value (`sqr_n_*` and `sqr_n_head_*`).
#[test]
fn sqr_n_loop_matches_portable() {
    use backend::SquaringRuns;
    for runs in [SquaringRuns::Auto, SquaringRuns::Memory, SquaringRuns::RegisterHead] {
        backend::set_squaring_runs(runs);
        compare_sqr_n::<bls12_381::FpConfig, 6>();
        compare_sqr_n::<bls12_381::FrConfig, 4>();
        compare_sqr_n::<bn254::FpConfig, 4>();
        compare_sqr_n::<bn254::FrConfig, 4>();
    }
    backend::set_squaring_runs(SquaringRuns::Auto);
}

/// The exponentiation plans (sqrt, Fp2 sqrt, Legendre, Tonelli-Shanks) against the plain
/// constant-time `pow` on every backend.
fn compare_chains<C: FieldConfig<N>, const N: usize>() {
    let mut rng = rng();
    let mut xs = edge_values::<C, N>();
    for _ in 0..200 {
        xs.push(Fp::<C, N>::random(&mut rng));
    }
    for b in [backend::Backend::Auto, backend::Backend::Portable] {
        backend::set_backend(b);
        for x in &xs {
            assert_eq!(x.pow_p_plus_1_over_4(), x.pow(&Fp::<C, N>::P_PLUS_1_OVER_4), "{} {b:?}", C::NAME);
            assert_eq!(x.pow_p_minus_3_over_4(), x.pow(&Fp::<C, N>::P_MINUS_3_OVER_4), "{} {b:?}", C::NAME);
            let e = x.pow(&Fp::<C, N>::P_MINUS_1_OVER_2);
            let want = if x.is_zero().into() { 0 } else if e == Fp::ONE { 1 } else { -1 };
            assert_eq!(x.legendre(), want, "{} {b:?}", C::NAME);
            let sq = x.square();
            let r = sq.sqrt().unwrap();
            assert_eq!(r.square(), sq, "{} {b:?}", C::NAME);
        }
    }
    backend::set_backend(backend::Backend::Auto);
}

/// Under every `set_pow_chain` value (the stored addition chains and the sliding windows).
#[test]
fn exponentiation_plans_match_pow() {
    use backend::PowChain;
    for chain in [PowChain::Auto, PowChain::Stored, PowChain::SlidingWindow] {
        backend::set_pow_chain(chain);
        compare_chains::<bls12_381::FpConfig, 6>();
        compare_chains::<bls12_381::FrConfig, 4>();
        compare_chains::<bn254::FpConfig, 4>();
        compare_chains::<bn254::FrConfig, 4>();
    }
    backend::set_pow_chain(PowChain::Auto);
}

/// The variable-time inverse (original divsteps, zero runs skipped, six bits per odd step)
/// against the constant-time one (hddivsteps, fixed count) under every value of the
/// `set_inverse_steps` switch (62-step batches on four matrix words, 60-step batches with packed
/// rows, the same in assembly with conditional moves), on edge values, 1..199, +-2^k and 10 x ITERS random inputs per field, and both against
/// a * a^-1 = 1.
fn compare_inverses<C: FieldConfig<N>, const N: usize>() {
    use backend::InverseSteps;
    let mut rng = rng();
    let mut xs = edge_values::<C, N>();
    xs.extend((1..200u64).map(Fp::<C, N>::from_u64));
    let mut two = Fp::<C, N>::from_u64(2);
    for _ in 0..400 {
        xs.push(two);
        xs.push(-two);
        two = two.double();
    }
    for _ in 0..10 * iters() {
        xs.push(Fp::<C, N>::random(&mut rng));
    }
    for s in [InverseSteps::Auto, InverseSteps::Wide, InverseSteps::Packed, InverseSteps::PackedCmov] {
        backend::set_inverse_steps(s);
        for x in &xs {
            let ct: Option<Fp<C, N>> = x.invert().into();
            assert_eq!(x.invert_vartime(), ct, "{} {s:?} {x:?}", C::NAME);
            if let Some(i) = ct {
                assert_eq!(i * *x, Fp::ONE, "{} {s:?} {x:?}", C::NAME);
            }
        }
    }
    backend::set_inverse_steps(InverseSteps::Auto);
}

#[test]
fn vartime_inverse_matches_constant_time() {
    compare_inverses::<bls12_381::FpConfig, 6>();
    compare_inverses::<bls12_381::FrConfig, 4>();
    compare_inverses::<bn254::FpConfig, 4>();
    compare_inverses::<bn254::FrConfig, 4>();
}

/// Both forms of the reduced addition's constant-time select (CMOV and masks) give the
/// reduced sum, double, difference and negation on every pair of edge and random values,
/// checked against the plain integer definition (a + b, minus p when that is at least p).
fn narrow_selects_agree<C: FieldConfig<N>, const N: usize>() {
    use backend::{set_narrow_select, NarrowSelect};
    use zkforge_field::limbs::{add_rt, sub_rt};
    let mut rng = rng();
    let mut xs = edge_values::<C, N>();
    for _ in 0..iters() {
        xs.push(Fp::<C, N>::random(&mut rng));
    }
    let p = C::MODULUS;
    let reduced_sum = |a: &[u64; N], b: &[u64; N]| {
        let (s, _) = add_rt(a, b);
        let (d, borrow) = sub_rt(&s, &p);
        if borrow == 1 { s } else { d }
    };
    for sel in [NarrowSelect::Auto, NarrowSelect::Masks, NarrowSelect::Cmov] {
        set_narrow_select(sel);
        for (i, a) in xs.iter().enumerate() {
            for b in xs.iter().skip(i % 3).step_by(5) {
                let (la, lb) = (a.to_mont_limbs(), b.to_mont_limbs());
                assert_eq!((*a + *b).to_mont_limbs(), reduced_sum(&la, &lb), "{} {sel:?} add", C::NAME);
                assert_eq!(a.double().to_mont_limbs(), reduced_sum(&la, &la), "{} {sel:?} double", C::NAME);
                assert_eq!((*a - *b) + *b, *a, "{} {sel:?} sub", C::NAME);
                assert_eq!((-*a + *a), Fp::ZERO, "{} {sel:?} neg", C::NAME);
            }
        }
    }
    set_narrow_select(NarrowSelect::Auto);
}

#[test]
fn every_narrow_select_agrees() {
    narrow_selects_agree::<bls12_381::FpConfig, 6>();
    narrow_selects_agree::<bls12_381::FrConfig, 4>();
    narrow_selects_agree::<bn254::FpConfig, 4>();
    narrow_selects_agree::<bn254::FrConfig, 4>();
}

//! Fp2, Fp6 and Fp12 of both curves against arkworks (same tower shapes: u^2 = -1,
//! v^3 = xi, w^2 = v), Frobenius tables rechecked against x^(p^k), cyclotomic squaring and
//! Fp2 square roots.

mod common;

use ark_ff::{CyclotomicMultSubgroup, Field};
use common::*;
use zkforge_field::tower::{Fp12, Fp2, Fp6, TowerConfig};
use zkforge_field::{bls12_381, bn254, Fp};

macro_rules! conv {
    ($N:expr, $C:ty, $A2:ty, $A6:ty, $A12:ty, $AF:ty) => {
        fn f2(x: &Fp2<$C, $N>) -> $A2 {
            <$A2>::new(to_ark::<$C, $N, $AF>(&x.c0), to_ark::<$C, $N, $AF>(&x.c1))
        }
        fn f6(x: &Fp6<$C, $N>) -> $A6 {
            <$A6>::new(f2(&x.c0), f2(&x.c1), f2(&x.c2))
        }
        fn f12(x: &Fp12<$C, $N>) -> $A12 {
            <$A12>::new(f6(&x.c0), f6(&x.c1))
        }
    };
}

fn pow12<C: TowerConfig<N>, const N: usize>(x: Fp12<C, N>, e: &[u64]) -> Fp12<C, N> {
    let mut r = Fp12::ONE;
    for limb in e.iter().rev() {
        for i in (0..64).rev() {
            r = r.square();
            if (limb >> i) & 1 == 1 {
                r *= x;
            }
        }
    }
    r
}

fn generic_checks<C: TowerConfig<N>, const N: usize>() {
    let mut rng = rng();
    let p = C::MODULUS;
    for _ in 0..20 {
        // Frobenius tables: x^(p^k) by repeated exponentiation
        let x = Fp12::<C, N>::random(&mut rng);
        let mut want = x;
        for k in 1..12 {
            want = pow12(want, &p);
            assert_eq!(x.frobenius_map(k), want, "{} frobenius {k}", C::NAME);
        }
        assert_eq!(pow12(want, &p), x, "x^(p^12) = x");
        // cyclotomic squaring on f^((p^6 - 1)(p^2 + 1))
        let g = x.conjugate() * x.invert().unwrap();
        let g = g.frobenius_map(2) * g;
        assert_eq!(g.cyclotomic_square(), g.square());
        assert_eq!(g.conjugate(), g.invert().unwrap());
        // Fp2 sqrt
        let a = Fp2::<C, N>::random(&mut rng);
        let s: Option<Fp2<C, N>> = a.square().sqrt().into();
        assert_eq!(s.unwrap().square(), a.square());
        // a non-square has no root: xi is a non-residue of Fp2 (cubic non-residue too)
        let nr: Option<Fp2<C, N>> = (a.square() * C::XI).sqrt().into();
        if !bool::from(a.is_zero()) {
            assert!(nr.is_none());
        }
        // every Fp element is a square in Fp2: real (square or not in Fp) and imaginary inputs
        let b = Fp::<C, N>::random(&mut rng);
        for v in [Fp2::new(b, Fp::ZERO), Fp2::new(-b, Fp::ZERO), Fp2::new(Fp::ZERO, b), Fp2::new(b.square(), Fp::ZERO)] {
            let r: Option<Fp2<C, N>> = v.sqrt().into();
            assert_eq!(r.expect("Fp elements are squares in Fp2").square(), v);
        }
        // the paired root (two interleaved exponentiations) equals two single ones, for
        // squares, non-squares, real and imaginary inputs and zero, on either side
        let cases = [a.square(), a.square() * C::XI, Fp2::new(b, Fp::ZERO), Fp2::new(Fp::ZERO, b), Fp2::ZERO, -Fp2::ONE];
        for (i, x) in cases.iter().enumerate() {
            let y = cases[(i + 1) % cases.len()];
            let (ax, ay) = (x.norm().pow_p_plus_1_over_4(), y.norm().pow_p_plus_1_over_4());
            let (rx, ry) = Fp2::sqrt_with_norm_root_x2(x, ax, &y, ay);
            let (wx, wy): (Option<Fp2<C, N>>, Option<Fp2<C, N>>) = (x.sqrt_with_norm_root(ax).into(), y.sqrt_with_norm_root(ay).into());
            assert_eq!((Option::from(rx), Option::from(ry)), (wx, wy), "{} case {i}", C::NAME);
            assert_eq!(Fp::pow_p_plus_1_over_4_x2(&ax, &ay), (ax.pow_p_plus_1_over_4(), ay.pow_p_plus_1_over_4()));
        }
    }
    // edge: zero and one
    assert!(bool::from(Fp2::<C, N>::ZERO.invert().is_none()));
    assert!(bool::from(Fp12::<C, N>::ZERO.invert().is_none()));
    assert_eq!(Fp2::<C, N>::ZERO.sqrt().unwrap(), Fp2::ZERO);
    let minus_one = -Fp2::<C, N>::ONE;
    assert_eq!(minus_one.sqrt().unwrap().square(), minus_one);
    let _ = Fp::<C, N>::ONE;
}

mod bls {
    use super::*;
    type C = bls12_381::FpConfig;
    conv!(6, C, ark_bls12_381::Fq2, ark_bls12_381::Fq6, ark_bls12_381::Fq12, ark_bls12_381::Fq);

    #[test]
    fn bls12_381_tower_vs_arkworks() {
        let mut rng = rng();
        for _ in 0..iters() / 10 {
            let (a, b) = (Fp2::<C, 6>::random(&mut rng), Fp2::<C, 6>::random(&mut rng));
            assert_eq!(f2(&(a * b)), f2(&a) * f2(&b));
            assert_eq!(f2(&a.square()), f2(&a).square());
            assert_eq!(f2(&a.invert().unwrap()), f2(&a).inverse().unwrap());
            let (a, b) = (Fp6::<C, 6>::random(&mut rng), Fp6::<C, 6>::random(&mut rng));
            assert_eq!(f6(&(a * b)), f6(&a) * f6(&b));
            assert_eq!(f6(&a.square()), f6(&a).square());
            assert_eq!(f6(&a.invert().unwrap()), f6(&a).inverse().unwrap());
            let (a, b) = (Fp12::<C, 6>::random(&mut rng), Fp12::<C, 6>::random(&mut rng));
            assert_eq!(f12(&(a * b)), f12(&a) * f12(&b));
            assert_eq!(f12(&a.square()), f12(&a).square());
            assert_eq!(f12(&a.invert().unwrap()), f12(&a).inverse().unwrap());
            let mut fa = f12(&a);
            fa.frobenius_map_in_place(1);
            assert_eq!(f12(&a.frobenius_map(1)), fa);
            let g = a.conjugate() * a.invert().unwrap();
            let g = g.frobenius_map(2) * g;
            assert_eq!(f12(&g.cyclotomic_square()), f12(&g).cyclotomic_square());
        }
    }

    #[test]
    fn bls12_381_tower_identities() {
        generic_checks::<C, 6>();
    }
}

mod bn {
    use super::*;
    type C = bn254::FpConfig;
    conv!(4, C, ark_bn254::Fq2, ark_bn254::Fq6, ark_bn254::Fq12, ark_bn254::Fq);

    #[test]
    fn bn254_tower_vs_arkworks() {
        let mut rng = rng();
        for _ in 0..iters() / 10 {
            let (a, b) = (Fp2::<C, 4>::random(&mut rng), Fp2::<C, 4>::random(&mut rng));
            assert_eq!(f2(&(a * b)), f2(&a) * f2(&b));
            assert_eq!(f2(&a.square()), f2(&a).square());
            let (a, b) = (Fp6::<C, 4>::random(&mut rng), Fp6::<C, 4>::random(&mut rng));
            assert_eq!(f6(&(a * b)), f6(&a) * f6(&b));
            assert_eq!(f6(&a.square()), f6(&a).square());
            assert_eq!(f6(&a.invert().unwrap()), f6(&a).inverse().unwrap());
            let (a, b) = (Fp12::<C, 4>::random(&mut rng), Fp12::<C, 4>::random(&mut rng));
            assert_eq!(f12(&(a * b)), f12(&a) * f12(&b));
            assert_eq!(f12(&a.square()), f12(&a).square());
            assert_eq!(f12(&a.invert().unwrap()), f12(&a).inverse().unwrap());
            for k in [1, 2, 3, 6] {
                let mut fa = f12(&a);
                fa.frobenius_map_in_place(k);
                assert_eq!(f12(&a.frobenius_map(k)), fa);
            }
        }
    }

    #[test]
    fn bn254_tower_identities() {
        generic_checks::<C, 4>();
    }
}

/// Fp2 elements whose coefficients are edge values (0, 1, p - 1, ...), then random ones.
fn fp2_inputs<C: TowerConfig<N>, const N: usize>(rng: &mut rand::rngs::StdRng, n: usize) -> Vec<Fp2<C, N>> {
    let e = edge_values::<C, N>();
    let mut v: Vec<Fp2<C, N>> = Vec::new();
    for (i, a) in e.iter().enumerate() {
        v.push(Fp2::new(*a, e[(i * 5 + 1) % e.len()]));
        v.push(Fp2::new(*a, *a));
    }
    while v.len() < n {
        v.push(Fp2::random(&mut *rng));
    }
    v
}

/// The lazy tower (wide products, one reduction per coefficient) against the per-product
/// reference formulas, on edge and random elements: Fp6 and Fp12 products, the Fp12 square,
/// and the sparse Fp6 products the Miller loop uses.
fn lazy_matches_reference<C: TowerConfig<N>, const N: usize>() {
    use zkforge_field::tower::lazy::{self, Fp6Wide};
    assert_eq!(C::XI, Fp2::new(Fp::from_u64(C::XI_C0), Fp::ONE), "XI_C0 disagrees with XI");
    let mut rng = rng();
    let xs = fp2_inputs::<C, N>(&mut rng, iters() / 4);
    let n = xs.len();
    let f6 = |i: usize| Fp6::new(xs[i % n], xs[(i * 3 + 1) % n], xs[(i * 7 + 2) % n]);
    // every coefficient p - 1: the largest Karatsuba sums and wide products
    let top = Fp2::<C, N>::new(-Fp::<C, N>::ONE, -Fp::<C, N>::ONE);
    let (ta, tf) = (Fp6::new(top, top, top), Fp12::new(Fp6::new(top, top, top), Fp6::new(top, top, top)));
    assert_eq!(lazy::fp6_mul(&ta, &ta), ta.mul_per_product(&ta), "{} fp6 p - 1", C::NAME);
    assert_eq!(lazy::fp12_mul(&tf, &tf), tf.mul_per_product(&tf), "{} fp12 p - 1", C::NAME);
    assert_eq!(lazy::fp12_square(&tf), tf.square_per_product(), "{} fp12 square p - 1", C::NAME);
    let mut w = Fp6Wide::ZERO;
    Fp6Wide::mul_by_01_to(&mut w, &ta, &top, &top);
    assert_eq!(w.reduce(), ta.mul_per_product(&Fp6::new(top, top, Fp2::ZERO)), "{} sparse p - 1", C::NAME);
    for i in 0..n {
        let (a, b) = (f6(i), f6(i * 11 + 5));
        assert_eq!(lazy::fp6_mul(&a, &b), a.mul_per_product(&b), "{} fp6 {i}", C::NAME);
        let (fa, fb) = (Fp12::new(a, f6(i + 1)), Fp12::new(b, f6(i * 13 + 9)));
        assert_eq!(lazy::fp12_mul(&fa, &fb), fa.mul_per_product(&fb), "{} fp12 {i}", C::NAME);
        assert_eq!(lazy::fp12_square(&fa), fa.square_per_product(), "{} fp12 square {i}", C::NAME);
        let (b0, b1) = (xs[(i * 17 + 3) % n], xs[(i * 19 + 4) % n]);
        let mut w = Fp6Wide::ZERO;
        Fp6Wide::mul_by_01_to(&mut w, &a, &b0, &b1);
        assert_eq!(w.reduce(), a.mul_per_product(&Fp6::new(b0, b1, Fp2::ZERO)));
        Fp6Wide::mul_by_1_to(&mut w, &a, &b1);
        assert_eq!(w.reduce(), a.mul_per_product(&Fp6::new(Fp2::ZERO, b1, Fp2::ZERO)));
        Fp6Wide::mul_by_fp2_to(&mut w, &a, &b0);
        assert_eq!(w.reduce(), a.mul_per_product(&Fp6::new(b0, Fp2::ZERO, Fp2::ZERO)));
    }
}

#[test]
fn lazy_tower_matches_per_product() {
    use zkforge_field::backend::{set_karatsuba_sums, set_xi_form, KaratsubaSums, XiForm};
    // the Karatsuba sums of BLS12-381's wide Fp6 products reduced or not (BN254 always
    // reduces them: it lacks the third spare bit)
    for sums in [KaratsubaSums::Auto, KaratsubaSums::Reduced, KaratsubaSums::Lazy] {
        set_karatsuba_sums(sums);
        lazy_matches_reference::<bls12_381::FpConfig, 6>();
        lazy_matches_reference::<bn254::FpConfig, 4>();
    }
    set_karatsuba_sums(KaratsubaSums::Auto);
    for form in [XiForm::Auto, XiForm::Chain, XiForm::OnePass, XiForm::Quotient] {
        set_xi_form(form);
        lazy_matches_reference::<bn254::FpConfig, 4>();
    }
    set_xi_form(XiForm::Auto);
}

/// BN254's wide product by xi (the lazy tower's, on 2N-word values below p R) in the quotient
/// form equals the double-and-add chain, on edge values (0, 1, p R - 1, p R - 2^(64N), words
/// all ones below a top half of p - 1) and random ones below p R.
#[test]
fn wide_product_by_xi_quotient_matches_the_chain() {
    use rand::RngCore;
    use zkforge_field::backend::{set_xi_form, Wide, XiForm};
    use zkforge_field::tower::lazy::Fp2Wide;
    let p = <bn254::FpConfig as zkforge_field::FieldConfig<4>>::MODULUS;
    let mut pm1 = p;
    pm1[0] -= 1;
    let mut rng = rng();
    let mut ws: Vec<Wide<4>> = vec![
        Wide::ZERO,
        Wide { lo: [1, 0, 0, 0], hi: [0; 4] },
        Wide { lo: [u64::MAX; 4], hi: pm1 },
        Wide { lo: [0; 4], hi: pm1 },
        Wide { lo: [u64::MAX; 4], hi: [0; 4] },
        Wide { lo: [0; 4], hi: [1, 0, 0, 0] },
    ];
    while ws.len() < 400 {
        // a random value below p R: random low words, a random high half reduced below p
        let lo = [rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64()];
        let hi = bn254::Fp::random(&mut rng).to_mont_limbs();
        ws.push(Wide { lo, hi });
    }
    let xi = |form: XiForm, a: &Wide<4>, b: &Wide<4>| {
        set_xi_form(form);
        let mut x = Fp2Wide::<bn254::FpConfig, 4>::ZERO;
        x.c0 = *a;
        x.c1 = *b;
        let mut out = Fp2Wide::ZERO;
        Fp2Wide::mul_by_xi_to(&mut out, &x);
        (out.c0, out.c1)
    };
    for (i, a) in ws.iter().enumerate() {
        for b in ws.iter().skip(i % 5).step_by(37) {
            assert_eq!(xi(XiForm::Quotient, a, b), xi(XiForm::Chain, a, b), "{a:?} {b:?}");
        }
    }
    set_xi_form(XiForm::Auto);
}

/// Every value of the tower switch, of the Karatsuba sums and of the cyclotomic square's Fp4
/// squarings, with either multiplication backend, gives the same products, squares and
/// cyclotomic squares (the portable backend runs the lazy tower on its
/// own wide kernels).
#[test]
fn every_tower_switch_value_agrees() {
    use zkforge_field::backend::{set_backend, set_tower, Backend, Tower};
    let mut rng = rng();
    let xs: Vec<bls12_381::Fp12> = (0..64).map(|_| bls12_381::Fp12::random(&mut rng)).collect();
    let ys: Vec<bn254::Fp12> = (0..64).map(|_| bn254::Fp12::random(&mut rng)).collect();
    // cyclotomic elements x^((p^6 - 1)(p^2 + 1)): their squarings (Granger-Scott's Fp4
    // squares and Karabina's compressed ones) also take the lazy path
    let gx: Vec<_> = xs.iter().take(8).map(|x| {
        let t = x.conjugate() * x.invert().unwrap();
        t.frobenius_map(2) * t
    }).collect();
    let gy: Vec<_> = ys.iter().take(8).map(|x| {
        let t = x.conjugate() * x.invert().unwrap();
        t.frobenius_map(2) * t
    }).collect();
    let run = || {
        let a: Vec<_> = xs.windows(2).map(|w| (w[0] * w[1], w[0].square(), w[0].c0 * w[1].c1)).collect();
        let b: Vec<_> = ys.windows(2).map(|w| (w[0] * w[1], w[0].square(), w[0].c0 * w[1].c1)).collect();
        let c: Vec<_> = gx.iter().map(|g| (g.cyclotomic_square(), g.cyclotomic_square_n(20))).collect();
        let d: Vec<_> = gy.iter().map(|g| (g.cyclotomic_square(), g.cyclotomic_square_n(20))).collect();
        (a, b, c, d)
    };
    let want = run();
    use zkforge_field::backend::{set_fp4_squaring, set_karatsuba_sums, Fp4Squaring, KaratsubaSums};
    for backend in [Backend::Auto, Backend::Portable] {
        set_backend(backend);
        for tower in [Tower::Auto, Tower::Lazy, Tower::PerProduct] {
            set_tower(tower);
            for sums in [KaratsubaSums::Auto, KaratsubaSums::Reduced, KaratsubaSums::Lazy] {
                set_karatsuba_sums(sums);
                for fp4 in [Fp4Squaring::Auto, Fp4Squaring::Lazy, Fp4Squaring::Reduced] {
                    set_fp4_squaring(fp4);
                    assert!(run() == want, "{backend:?} {tower:?} {sums:?} {fp4:?}");
                }
            }
        }
    }
    set_backend(Backend::Auto);
    set_tower(Tower::Auto);
    set_karatsuba_sums(KaratsubaSums::Auto);
    set_fp4_squaring(Fp4Squaring::Auto);
}

/// Runs of cyclotomic squarings (Karabina's compressed squarings and decompression) equal as
/// many Granger-Scott squarings, for every value of the switch, on random cyclotomic
/// elements and the identity, for run lengths 0..40; the variable-time simultaneous
/// decompression equals them too or declines, exactly when some power has g1 = 0.
fn karabina_matches_granger_scott<C: TowerConfig<N>, const N: usize>() {
    use zkforge_field::backend::{set_cyclotomic_squaring, CyclotomicSquaring};
    let mut rng = rng();
    let cyclotomic = |x: Fp12<C, N>| {
        let t = x.conjugate() * x.invert().unwrap();
        t.frobenius_map(2) * t
    };
    let mut inputs = vec![Fp12::<C, N>::ONE];
    for _ in 0..6 {
        inputs.push(cyclotomic(Fp12::random(&mut rng)));
    }
    // sparse inputs, whose images have small and zero coefficients
    let u = Fp2::<C, N>::new(Fp::ZERO, Fp::ONE);
    let sparse = |c00: Fp2<C, N>, c11: Fp2<C, N>| Fp12 { c0: Fp6::new(c00, Fp2::ZERO, Fp2::ZERO), c1: Fp6::new(Fp2::ZERO, c11, Fp2::ZERO) };
    inputs.push(cyclotomic(sparse(Fp2::ONE, Fp2::ONE)));
    inputs.push(cyclotomic(sparse(u, Fp2::ZERO)));
    inputs.push(cyclotomic(sparse(Fp2::ZERO, -Fp2::ONE)));
    for mode in [CyclotomicSquaring::Auto, CyclotomicSquaring::GrangerScott, CyclotomicSquaring::Karabina, CyclotomicSquaring::KarabinaIfma] {
        set_cyclotomic_squaring(mode);
        for g in &inputs {
            let mut want = *g;
            let mut powers = vec![*g];
            for k in 0..40u32 {
                assert_eq!(g.cyclotomic_square_n(k), want, "{} {mode:?} k={k}", C::NAME);
                want = want.cyclotomic_square();
                powers.push(want);
            }
            // one compressed run kept at several depths, one simultaneous decompression
            assert_eq!(g.cyclotomic_square_depths(&[1]), [powers[1]], "{} {mode:?}", C::NAME);
            assert_eq!(g.cyclotomic_square_depths(&[1, 2, 3]), [powers[1], powers[2], powers[3]], "{} {mode:?}", C::NAME);
            let d = [2u32, 9, 10, 25, 39, 40];
            assert_eq!(g.cyclotomic_square_depths(&d), d.map(|k| powers[k as usize]), "{} {mode:?}", C::NAME);
            // the variable-time form: exact, or declining exactly where a power has g1 = 0
            for depths in [&[1u32, 2, 3][..], &d[..]] {
                let g1_zero = depths.iter().any(|&k| bool::from(powers[k as usize].c1.c0.is_zero()));
                let got = match depths.len() {
                    3 => g.cyclotomic_square_depths_vartime(&[1u32, 2, 3]).map(|a| a.to_vec()),
                    _ => g.cyclotomic_square_depths_vartime(&d).map(|a| a.to_vec()),
                };
                match got {
                    None => assert!(g1_zero, "{} {mode:?}: declined without a zero g1", C::NAME),
                    Some(v) => {
                        assert!(!g1_zero, "{} {mode:?}: decompressed a zero g1", C::NAME);
                        assert_eq!(v, depths.iter().map(|&k| powers[k as usize]).collect::<Vec<_>>(), "{} {mode:?}", C::NAME);
                    }
                }
            }
        }
    }
    set_cyclotomic_squaring(CyclotomicSquaring::Auto);
}

#[test]
fn karabina_squarings_match() {
    karabina_matches_granger_scott::<bls12_381::FpConfig, 6>();
    karabina_matches_granger_scott::<bn254::FpConfig, 4>();
}

/// The IFMA-lane Miller accumulator (`Fp12Lanes`) against the 64-bit tower, both towers
/// (8-limb lanes for BLS12-381, 6-limb for BN254): the round trip, squares, M-twist and
/// D-twist line products, one at a time and in chains of 60 mixed operations, on random values
/// and on every coefficient set to 0, 1 or p - 1, with G1 coordinates 0, 1, p - 1 and random.
/// Skipped (with a note) on CPUs without AVX-512 IFMA.
#[cfg(target_arch = "x86_64")]
fn fp12_lanes_match<C: TowerConfig<N>, const N: usize>() {
    use zkforge_field::tower::{Fp12Lanes, LineScale};
    if !Fp12Lanes::<C, N>::available() {
        eprintln!("no AVX-512 IFMA here: Fp12Lanes not exercised for {}", C::NAME);
        return;
    }
    let mut rng = rng();
    let edge = [Fp::<C, N>::ZERO, Fp::ONE, -Fp::<C, N>::ONE];
    let e2 = |k: usize| Fp2::<C, N>::new(edge[k % 3], edge[(k / 3) % 3]);
    let mut fs: Vec<Fp12<C, N>> = (0..20).map(|_| Fp12::random(&mut rng)).collect();
    fs.push(Fp12::ONE);
    fs.push(Fp12::ZERO);
    for k in 0..9 {
        let c = e2(k);
        fs.push(Fp12::new(Fp6::new(c, c, c), Fp6::new(c, c, c)));
    }
    // the M-twist line in slots 0, 1, 4 and the D-twist line in slots 0, 3, 4
    let line014 = |l0: Fp2<C, N>, lx: Fp2<C, N>, ly: Fp2<C, N>, px: Fp<C, N>, py: Fp<C, N>| Fp12::new(Fp6::new(l0, lx.mul_by_fp(&px), Fp2::ZERO), Fp6::new(Fp2::ZERO, ly.mul_by_fp(&py), Fp2::ZERO));
    let line034 = |l0: Fp2<C, N>, lx: Fp2<C, N>, ly: Fp2<C, N>, px: Fp<C, N>, py: Fp<C, N>| Fp12::new(Fp6::new(ly.mul_by_fp(&py), Fp2::ZERO, Fp2::ZERO), Fp6::new(lx.mul_by_fp(&px), l0, Fp2::ZERO));
    let mut points = vec![(Fp::random(&mut rng), Fp::random(&mut rng))];
    for a in edge {
        for b in edge {
            points.push((a, b));
        }
    }
    for f in &fs {
        let l = Fp12Lanes::<C, N>::from_fp12(f).unwrap();
        assert_eq!(l.to_fp12(), *f, "{} round trip", C::NAME);
        let mut s = l.clone();
        s.square();
        assert_eq!(s.to_fp12(), f.square(), "{} square of {f:?}", C::NAME);
        for (i, &(px, py)) in points.iter().enumerate() {
            let sc = LineScale::new(&px, &py).unwrap();
            let (l0, lx, ly) = if i % 2 == 0 { (Fp2::random(&mut rng), Fp2::random(&mut rng), Fp2::random(&mut rng)) } else { (e2(i), e2(i + 4), e2(i + 7)) };
            let mut m = l.clone();
            m.mul_by_014(&l0, &lx, &ly, &sc);
            assert_eq!(m.to_fp12(), *f * line014(l0, lx, ly, px, py), "{} M-twist line product", C::NAME);
            let mut m = l.clone();
            m.mul_by_034(&l0, &lx, &ly, &sc);
            assert_eq!(m.to_fp12(), *f * line034(l0, lx, ly, px, py), "{} D-twist line product", C::NAME);
        }
    }
    // chains without leaving the lanes
    for f in fs.iter().take(6) {
        let (px, py) = (Fp::random(&mut rng), Fp::random(&mut rng));
        let sc = LineScale::new(&px, &py).unwrap();
        let mut l = Fp12Lanes::<C, N>::from_fp12(f).unwrap();
        let mut want = *f;
        for step in 0..60 {
            let (l0, lx, ly) = (Fp2::random(&mut rng), Fp2::random(&mut rng), Fp2::random(&mut rng));
            match step % 3 {
                0 => {
                    l.square();
                    want = want.square();
                }
                1 => {
                    l.mul_by_014(&l0, &lx, &ly, &sc);
                    want *= line014(l0, lx, ly, px, py);
                }
                _ => {
                    l.mul_by_034(&l0, &lx, &ly, &sc);
                    want *= line034(l0, lx, ly, px, py);
                }
            }
        }
        assert_eq!(l.to_fp12(), want, "{} chain", C::NAME);
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn fp12_lanes_match_the_tower() {
    fp12_lanes_match::<bls12_381::FpConfig, 6>();
    fp12_lanes_match::<bn254::FpConfig, 4>();
}

/// The IFMA-lane cyclotomic arithmetic (`Fp12Lanes`: Granger-Scott squares, products,
/// conjugates) against the 64-bit tower, on both towers (8-limb lanes for BLS12-381, 6-limb
/// for BN254): one operation at a time on random cyclotomic values, random Fp12 values (the
/// product), the identity, sparse values and every coefficient set to 0, 1 or p - 1; then
/// chains of 300 mixed operations without leaving the lanes. Skipped (with a note) on CPUs
/// without AVX-512 IFMA.
#[cfg(target_arch = "x86_64")]
fn cyclotomic_lanes_match<C: TowerConfig<N>, const N: usize>() {
    use zkforge_field::tower::Fp12Lanes;
    if !Fp12Lanes::<C, N>::available() {
        eprintln!("no AVX-512 IFMA here: Fp12Lanes not exercised for {}", C::NAME);
        return;
    }
    let mut rng = rng();
    let cyclotomic = |x: Fp12<C, N>| {
        let t = x.conjugate() * x.invert().unwrap();
        t.frobenius_map(2) * t
    };
    let edge = [Fp::<C, N>::ZERO, Fp::ONE, -Fp::<C, N>::ONE];
    let e2 = |k: usize| Fp2::<C, N>::new(edge[k % 3], edge[(k / 3) % 3]);
    let mut gs = vec![Fp12::<C, N>::ONE];
    for _ in 0..10 {
        gs.push(cyclotomic(Fp12::random(&mut rng)));
    }
    let u = Fp2::<C, N>::new(Fp::ZERO, Fp::ONE);
    let sparse = |c00: Fp2<C, N>, c11: Fp2<C, N>| Fp12 { c0: Fp6::new(c00, Fp2::ZERO, Fp2::ZERO), c1: Fp6::new(Fp2::ZERO, c11, Fp2::ZERO) };
    gs.push(cyclotomic(sparse(Fp2::ONE, Fp2::ONE)));
    gs.push(cyclotomic(sparse(u, Fp2::ZERO)));
    // any Fp12 values for the product and conjugate, edge coefficients included
    let mut fs: Vec<Fp12<C, N>> = (0..10).map(|_| Fp12::random(&mut rng)).collect();
    fs.push(Fp12::ZERO);
    for k in 0..9 {
        let c = e2(k);
        fs.push(Fp12::new(Fp6::new(c, c, c), Fp6::new(c, c, c)));
        fs.push(Fp12::new(Fp6::new(c, e2(k + 1), e2(k + 2)), Fp6::new(e2(k + 3), e2(k + 4), c)));
    }
    fs.extend(gs.iter().copied());
    for g in &gs {
        let l = Fp12Lanes::<C, N>::from_fp12(g).unwrap();
        assert_eq!(l.to_fp12(), *g, "{} round trip", C::NAME);
        let mut s = l.clone();
        s.cyclotomic_square();
        assert_eq!(s.to_fp12(), g.cyclotomic_square(), "{} cyclotomic square of {g:?}", C::NAME);
    }
    for a in &fs {
        let la = Fp12Lanes::<C, N>::from_fp12(a).unwrap();
        assert_eq!(la.to_fp12(), *a, "{} round trip", C::NAME);
        assert_eq!(la.conjugate().to_fp12(), a.conjugate(), "{} conjugate", C::NAME);
        for b in fs.iter().step_by(3) {
            let mut m = la.clone();
            m.mul_assign(&Fp12Lanes::from_fp12(b).unwrap());
            assert_eq!(m.to_fp12(), *a * *b, "{} product {a:?} * {b:?}", C::NAME);
        }
    }
    // chains: squares, products by random cyclotomic values and conjugates on the lanes
    for g in gs.iter().take(4) {
        let mut l = Fp12Lanes::<C, N>::from_fp12(g).unwrap();
        let mut want = *g;
        for step in 0..300 {
            if step % 7 == 3 {
                let h = cyclotomic(Fp12::random(&mut rng));
                l.mul_assign(&Fp12Lanes::from_fp12(&h).unwrap());
                want *= h;
            } else if step % 29 == 5 {
                l = l.conjugate();
                want = want.conjugate();
            } else {
                l.cyclotomic_square();
                want = want.cyclotomic_square();
            }
        }
        assert_eq!(l.to_fp12(), want, "{} chain", C::NAME);
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn cyclotomic_lanes_match_the_tower() {
    cyclotomic_lanes_match::<bls12_381::FpConfig, 6>();
    cyclotomic_lanes_match::<bn254::FpConfig, 4>();
}

/// `pow_p_plus_1_over_4_many` and `pow_p_minus_3_over_4_many` (eight at a time on IFMA lanes
/// for BLS12-381 where the CPU has them, interleaved pairs elsewhere and for BN254) equal one
/// exponentiation each, for every length from 0 to 20 (balanced groups, partial groups, the
/// pair path's odd value) and on 0, 1, 2 and p - 1; `Fp2::sqrt_with_norm_root_many` equals
/// `sqrt_with_norm_root` on squares, non-squares and zero.
#[test]
fn exponentiations_of_many_values_equal_single_ones() {
    use zkforge_field::tower::{pow_p_minus_3_over_4_many, pow_p_plus_1_over_4_many};
    fn check<C: TowerConfig<N>, const N: usize>(rng: &mut rand::rngs::StdRng) {
        use rand::RngCore;
        let edge = [Fp::<C, N>::ZERO, Fp::ONE, Fp::from_u64(2), -Fp::<C, N>::ONE];
        for n in 0..=20 {
            let xs: Vec<Fp<C, N>> = (0..n).map(|i| if i < edge.len() && n % 3 == 0 { edge[i] } else { Fp::random_with(|| rng.next_u64()) }).collect();
            let a: Vec<_> = xs.iter().map(|x| x.pow_p_plus_1_over_4()).collect();
            let b: Vec<_> = xs.iter().map(|x| x.pow_p_minus_3_over_4()).collect();
            assert_eq!(pow_p_plus_1_over_4_many(&xs), a, "(p+1)/4, n = {n}");
            assert_eq!(pow_p_minus_3_over_4_many(&xs), b, "(p-3)/4, n = {n}");
            let es: Vec<Fp2<C, N>> = (0..n)
                .map(|i| {
                    let e = Fp2::new(Fp::random_with(|| rng.next_u64()), Fp::random_with(|| rng.next_u64()));
                    match i % 4 {
                        0 => e.square(),
                        1 => Fp2::ZERO,
                        _ => e,
                    }
                })
                .collect();
            let alphas: Vec<Fp<C, N>> = es.iter().map(|e| e.norm().pow_p_plus_1_over_4()).collect();
            let many = Fp2::sqrt_with_norm_root_many(&es, &alphas);
            for ((e, a), r) in es.iter().zip(&alphas).zip(many) {
                let one = e.sqrt_with_norm_root(*a);
                assert_eq!(bool::from(r.is_some()), bool::from(one.is_some()), "n = {n}");
                assert_eq!(r.unwrap_or(Fp2::ZERO), one.unwrap_or(Fp2::ZERO), "n = {n}");
            }
        }
    }
    let mut rng = rng();
    check::<bls12_381::FpConfig, 6>(&mut rng);
    check::<bn254::FpConfig, 4>(&mut rng);
}

/// Every value of BN254's xi switch gives a * xi as the general Fp2 product computes it, on
/// edge coefficients (0, 1, p - 1, ...) and random ones; BLS12-381's product by xi likewise.
#[test]
fn every_xi_form_agrees_with_the_product_by_xi() {
    use zkforge_field::backend::{set_xi_form, XiForm};
    let mut rng = rng();
    let xs = fp2_inputs::<bn254::FpConfig, 4>(&mut rng, iters());
    let want: Vec<_> = xs.iter().map(|a| *a * <bn254::FpConfig as TowerConfig<4>>::XI).collect();
    for form in [XiForm::Auto, XiForm::Chain, XiForm::OnePass, XiForm::Quotient] {
        set_xi_form(form);
        for (a, w) in xs.iter().zip(&want) {
            assert_eq!(a.mul_by_nonresidue(), *w, "{form:?} {a:?}");
        }
    }
    set_xi_form(XiForm::Auto);
    let ys = fp2_inputs::<bls12_381::FpConfig, 6>(&mut rng, 64);
    for a in &ys {
        assert_eq!(a.mul_by_nonresidue(), *a * <bls12_381::FpConfig as TowerConfig<6>>::XI);
    }
}

/// Every value of the Fp2 product switch gives the schoolbook product (a0 b0 - a1 b1,
/// a0 b1 + a1 b0) in reduced Fp arithmetic, on edge coefficients (0, 1, p - 1, ...) and random
/// ones, for both base fields; squares and products with an operand repeated included.
fn fp2_products_match<C: TowerConfig<N>, const N: usize>(rng: &mut rand::rngs::StdRng) {
    use zkforge_field::backend::{set_fp2_product, Fp2Product};
    let xs = fp2_inputs::<C, N>(rng, iters());
    let n = xs.len();
    let school = |a: &Fp2<C, N>, b: &Fp2<C, N>| Fp2::new(a.c0 * b.c0 - a.c1 * b.c1, a.c0 * b.c1 + a.c1 * b.c0);
    for form in [Fp2Product::Auto, Fp2Product::SumsOfProducts, Fp2Product::Karatsuba] {
        set_fp2_product(form);
        for i in 0..n {
            let (a, b) = (xs[i], xs[(i * 7 + 3) % n]);
            assert_eq!(a * b, school(&a, &b), "{} {form:?} {a:?} {b:?}", C::NAME);
            assert_eq!(a * a, school(&a, &a), "{} {form:?} {a:?}", C::NAME);
            assert_eq!(a * b, a.mul_karatsuba(&b), "{} {form:?}", C::NAME);
        }
    }
    set_fp2_product(Fp2Product::Auto);
    // a b - 2 c^2 and a b - c d (the doubling's and the additions' Y) on the wide path and
    // the reduced one
    use zkforge_field::backend::{set_tower, Tower};
    for tower in [Tower::Auto, Tower::Lazy, Tower::PerProduct] {
        set_tower(tower);
        for i in 0..n {
            let (a, b, c) = (xs[i], xs[(i * 7 + 3) % n], xs[(i * 5 + 1) % n]);
            let want = school(&a, &b) - school(&c, &c) - school(&c, &c);
            assert_eq!(a.mul_sub_double_square(&b, &c), want, "{} {tower:?} {a:?} {b:?} {c:?}", C::NAME);
            let d = xs[(i * 3 + 2) % n];
            assert_eq!(a.mul_sub_mul(&b, &c, &d), school(&a, &b) - school(&c, &d), "{} {tower:?} {a:?} {b:?} {c:?} {d:?}", C::NAME);
        }
    }
    set_tower(Tower::Auto);
}

/// Also `mul_sub_double_square` and `mul_sub_mul` under every value of the tower switch.
#[test]
fn every_fp2_product_form_agrees() {
    let mut rng = rng();
    fp2_products_match::<bls12_381::FpConfig, 6>(&mut rng);
    fp2_products_match::<bn254::FpConfig, 4>(&mut rng);
}

/// `tower::double_run_lanes` against the scalar doubling formula it transcribes (the curve
/// crate's `Jacobian::double` on a = 0), on both towers: points with edge coordinates (every
/// coordinate from 0, 1, p - 1, ... in `fp2_inputs`, Z = 0, Y = 0), random ones, and run
/// lengths 0 to 70. Skipped (with a note) on CPUs without AVX-512 IFMA.
#[cfg(target_arch = "x86_64")]
fn double_runs_match<C: TowerConfig<N>, const N: usize>() {
    use rand::SeedableRng;
    let dbl = |(x, y, z): (Fp2<C, N>, Fp2<C, N>, Fp2<C, N>)| {
        let a = x.square();
        let b2 = y.square().double();
        let d = (x * b2).double();
        let e = a.double() + a;
        let x3 = e.square() - d.double();
        (x3, Fp2::mul_sub_double_square(&e, &(d - x3), &b2), (y * z).double())
    };
    if zkforge_field::tower::double_run_lanes(&Fp2::<C, N>::ONE, &Fp2::ONE, &Fp2::ONE, 1).is_none() {
        eprintln!("no AVX-512 IFMA on this CPU: the lane doubling is not exercised here");
        return;
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x00d0_0b1e);
    let v = fp2_inputs::<C, N>(&mut rng, 40);
    let mut points: Vec<_> = (0..v.len()).map(|i| (v[i], v[(i * 7 + 3) % v.len()], v[(i * 13 + 5) % v.len()])).collect();
    points.push((v[20], v[21], Fp2::ZERO));
    points.push((v[22], Fp2::ZERO, v[23]));
    points.push((-Fp2::ONE, -Fp2::ONE, -Fp2::ONE));
    for (i, p) in points.iter().enumerate() {
        for n in [0u32, 1, 2, 5, 9, 17, 32, 70] {
            if (i + n as usize) % 3 != 0 && n > 9 {
                continue; // the long runs on a third of the points
            }
            let mut q = *p;
            for _ in 0..n {
                q = dbl(q);
            }
            assert_eq!(zkforge_field::tower::double_run_lanes(&p.0, &p.1, &p.2, n), Some(q), "point {i}, {n} doublings");
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn double_runs_on_lanes_match_the_scalar_doubling() {
    double_runs_match::<bls12_381::FpConfig, 6>();
    double_runs_match::<bn254::FpConfig, 4>();
}

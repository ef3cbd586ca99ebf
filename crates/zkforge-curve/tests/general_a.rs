//! The a-terms of the formulas and the no-endomorphism paths, on the test group
//! y^2 = x^3 + 5x + 7 over BN254 Fp (`test_curves::ToyA5`, no GLV): every point operation
//! against a plain affine reference (chord and tangent with slope (3x^2 + a) / 2y), and scalar
//! multiplication (constant time and `_vartime`, which take the no-split paths here) against
//! double-and-add.

use rand::{rngs::StdRng, Rng, SeedableRng};
use zkforge_curve::point::{Affine, Jacobian, Xyzz};
use zkforge_curve::test_curves::ToyA5;
use zkforge_curve::{CurveConfig, Endomorphism};
use zkforge_field::bn254::Fp;

type P = Affine<ToyA5>;

/// Reference affine addition (None is the identity).
fn ref_add(p: Option<(Fp, Fp)>, q: Option<(Fp, Fp)>) -> Option<(Fp, Fp)> {
    let (Some((x1, y1)), Some((x2, y2))) = (p, q) else { return p.or(q) };
    let a = Fp::from_u64(5);
    let lambda = if x1 == x2 {
        if y1 != y2 || bool::from(y1.is_zero()) {
            return None;
        }
        (x1.square().double() + x1.square() + a) * y1.double().invert_vartime().unwrap()
    } else {
        (y2 - y1) * (x2 - x1).invert_vartime().unwrap()
    };
    let x3 = lambda.square() - x1 - x2;
    Some((x3, lambda * (x1 - x3) - y1))
}

fn coords(p: &P) -> Option<(Fp, Fp)> {
    (!bool::from(p.is_identity())).then(|| (p.x(), p.y()))
}

fn from(c: Option<(Fp, Fp)>) -> P {
    c.map(|(x, y)| P::new_unchecked(x, y)).unwrap_or(P::IDENTITY)
}

/// Points k G for small random k (the group order is unknown; any point on the curve will do).
fn points(rng: &mut StdRng, n: usize) -> Vec<P> {
    let g = coords(&P::generator());
    let mut out = Vec::new();
    let mut acc = g;
    for _ in 0..n {
        for _ in 0..rng.gen_range(1..5) {
            acc = ref_add(acc, g);
        }
        out.push(from(acc));
    }
    out
}

#[test]
fn the_group_law_has_the_a_terms() {
    assert!(<ToyA5 as CurveConfig>::A.is_some() && !<<ToyA5 as CurveConfig>::Endo as Endomorphism<ToyA5>>::PRESENT);
    let mut rng = StdRng::seed_from_u64(5);
    let g = P::generator();
    assert!(g.is_on_curve());
    assert_eq!(P::from_xy(g.x(), g.y()), Ok(g));
    assert!(P::from_xy(g.x(), g.y() + Fp::ONE).is_err());
    let pts = points(&mut rng, 12);
    for p in &pts {
        assert!(p.is_on_curve());
        let want2 = from(ref_add(coords(p), coords(p)));
        assert_eq!(p.to_jacobian().double().to_affine(), want2, "Jacobian doubling");
        assert_eq!(p.double_affine().to_affine(), want2, "affine doubling");
        assert_eq!(Xyzz::double_affine(p).to_affine(), want2, "XYZZ affine doubling");
        assert_eq!(p.to_xyzz().double().to_affine(), want2, "XYZZ doubling");
        assert_eq!(p.add_vartime(p), want2);
        // doubling of a point with Z != 1
        let pz = p.to_jacobian().add(&g.to_jacobian()); // some Jacobian point with Z != 1
        let want = from(ref_add(coords(&pz.to_affine()), coords(&pz.to_affine())));
        assert_eq!(pz.double().to_affine(), want);
        assert!(pz.double().is_on_curve());
        assert_eq!(pz.to_xyzz().double().to_affine(), want);
        for q in pts.iter().chain([p, &-*p, &P::IDENTITY]) {
            let want = from(ref_add(coords(p), coords(q)));
            assert_eq!(p.to_jacobian().add(&q.to_jacobian()).to_affine(), want, "complete addition");
            assert_eq!(p.to_jacobian().add_mixed(q).to_affine(), want, "complete mixed addition");
            assert_eq!(p.to_jacobian().add_vartime(&q.to_jacobian()).to_affine(), want);
            assert_eq!(p.to_jacobian().add_mixed_vartime(q).to_affine(), want);
            assert_eq!(p.to_xyzz().add_mixed_vartime(q).to_affine(), want);
            assert_eq!(p.to_xyzz().add_vartime(&q.to_xyzz()).to_affine(), want);
            assert_eq!(p.add_vartime(q), want);
            // the unified formula's tangent branch with Z1 Z2 != 1
            let pj = pz;
            let want = from(ref_add(coords(&pj.to_affine()), coords(&pj.to_affine())));
            assert_eq!(pj.add(&pj).to_affine(), want);
            assert!(pj.add(&pj).is_on_curve());
        }
    }
}

#[test]
fn scalar_multiplication_without_the_endomorphism() {
    let mut rng = StdRng::seed_from_u64(6);
    for p in points(&mut rng, 4) {
        for _ in 0..6 {
            let k = [rng.gen(), rng.gen(), rng.gen(), rng.gen::<u64>() >> 8];
            // double-and-add reference
            let mut want = Jacobian::<ToyA5>::IDENTITY;
            for i in (0..256).rev() {
                want = want.double();
                if (k[i / 64] >> (i % 64)) & 1 == 1 {
                    want = want.add(&p.to_jacobian());
                }
            }
            assert_eq!(p.to_jacobian().mul_limbs(&k).to_affine(), want.to_affine());
            assert_eq!(p.to_jacobian().mul_limbs_vartime(&k).to_affine(), want.to_affine());
            assert_eq!(p.to_jacobian().mul_bigint_vartime(&k).to_affine(), want.to_affine());
        }
    }
}

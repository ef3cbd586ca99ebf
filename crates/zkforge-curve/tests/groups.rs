//! Group law, scalar multiplication, subgroup checks and cofactor clearing of all four groups,
//! differentially against arkworks on fresh random points and scalars, plus edge cases.

mod common;

use ark_ec::{AffineRepr, CurveGroup, PrimeGroup};
use ark_ff::PrimeField;
use rand::RngCore;
use zkforge_curve::scalar_mul::{mul_ct, mul_vartime, multi_mul_ct, ScalarMulConfig};
use zkforge_curve::{Affine, CurveConfig, CurveField, Jacobian, Xyzz};

use common::*;

/// Points off the prime-order subgroup: random x with a square x^3 + b, no cofactor clearing.
fn random_curve_point<C: CurveConfig>(rng: &mut impl RngCore) -> Affine<C> {
    loop {
        let x = C::Base::random(rng);
        let rhs = x.square() * x + C::B;
        if let Some(y) = Option::<C::Base>::from(rhs.sqrt()) {
            return Affine::new_unchecked(x, y);
        }
    }
}

fn edge_scalars(r_minus_1: [u64; 4]) -> Vec<[u64; 4]> {
    let mut v = vec![[0, 0, 0, 0], [1, 0, 0, 0], [2, 0, 0, 0], [u64::MAX, 0, 0, 0], [0, 0, 1, 0], [u64::MAX, u64::MAX, 0, 0]];
    v.push(r_minus_1);
    let mut r2 = r_minus_1;
    r2[0] -= 1;
    v.push(r2);
    // (r-1)/2
    let mut h = r_minus_1;
    for i in 0..4 {
        h[i] = (h[i] >> 1) | if i < 3 { h[i + 1] << 63 } else { 0 };
    }
    v.push(h);
    // z^2 multiples and the decomposition boundaries
    let t = (0xd201_0000_0001_0000u128) * (0xd201_0000_0001_0000u128);
    v.push([t as u64, (t >> 64) as u64, 0, 0]);
    v.push([(t - 1) as u64, ((t - 1) >> 64) as u64, 0, 0]);
    v.push([0, 0, t as u64, (t >> 64) as u64 & 0x3fff_ffff_ffff_ffff]);
    v.push([0x6f4d8248eeb859fbf83e9682e87cfd46u128 as u64, 0x6f4d8248eeb859fb, 0, 0]);
    v
}

macro_rules! group_suite {
    ($name:ident, $cfg:ty, $ark_affine:ty, $ark_proj:ty, $ark_fr:ty, $to_ark_base:expr, $r_minus_1:expr, $iters:expr) => {
        mod $name {
            use super::*;
            type C = $cfg;

            fn to_ark(p: &Affine<C>) -> $ark_affine {
                if bool::from(p.is_identity()) {
                    <$ark_affine>::zero()
                } else {
                    <$ark_affine>::new_unchecked($to_ark_base(&p.x()), $to_ark_base(&p.y()))
                }
            }

            fn fr(k: &[u64; 4]) -> $ark_fr {
                let mut bytes = Vec::new();
                for l in k {
                    bytes.extend_from_slice(&l.to_le_bytes());
                }
                <$ark_fr>::from_le_bytes_mod_order(&bytes)
            }

            fn random_scalar(rng: &mut impl RngCore) -> [u64; 4] {
                let r1: [u64; 4] = $r_minus_1;
                loop {
                    let k = [rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64() & (u64::MAX >> r1[3].leading_zeros())];
                    // k <= r - 1
                    let mut le = true;
                    for i in (0..4).rev() {
                        if k[i] != r1[i] {
                            le = k[i] < r1[i];
                            break;
                        }
                    }
                    if le {
                        return k;
                    }
                }
            }

            #[test]
            fn generator_matches_arkworks() {
                let g = Affine::<C>::generator();
                assert!(g.is_on_curve());
                assert!(g.is_in_subgroup());
                assert_eq!(to_ark(&g), <$ark_affine>::generator());
            }

            #[test]
            fn group_law_vs_arkworks() {
                let mut rng = rng();
                let g = Jacobian::<C>::generator();
                let ag = <$ark_proj>::generator();
                for _ in 0..iters($iters) {
                    let (k1, k2) = (random_scalar(&mut rng), random_scalar(&mut rng));
                    let p = g.mul_limbs_vartime(&k1);
                    let q = g.mul_limbs_vartime(&k2);
                    let ap = ag * fr(&k1);
                    let aq = ag * fr(&k2);
                    let (pa, qa) = (p.to_affine(), q.to_affine());
                    assert_eq!(to_ark(&pa), ap.into_affine());
                    assert!(p.is_on_curve() && pa.is_on_curve());
                    assert_eq!(to_ark(&p.add(&q).to_affine()), (ap + aq).into_affine());
                    assert_eq!(to_ark(&p.add_vartime(&q).to_affine()), (ap + aq).into_affine());
                    assert_eq!(to_ark(&p.add_mixed(&qa).to_affine()), (ap + aq).into_affine());
                    assert_eq!(to_ark(&p.add_mixed_vartime(&qa).to_affine()), (ap + aq).into_affine());
                    assert_eq!(to_ark(&(p - q).to_affine()), (ap - aq).into_affine());
                    assert_eq!(to_ark(&p.double().to_affine()), (ap + ap).into_affine());
                    assert_eq!(to_ark(&pa.double_affine().to_affine()), (ap + ap).into_affine());
                    // special cases of the complete formulas
                    assert_eq!(p.add(&p), p.double());
                    assert_eq!(p.add_mixed(&pa), p.double());
                    assert_eq!(p.add_vartime(&p), p.double());
                    assert_eq!(p.add_mixed_vartime(&pa), p.double());
                    assert!(bool::from(p.add(&-p).is_identity()));
                    assert!(bool::from(p.add_mixed(&-pa).is_identity()));
                    assert_eq!(Jacobian::<C>::IDENTITY.add(&p), p);
                    assert_eq!(p.add(&Jacobian::IDENTITY), p);
                    assert_eq!(Jacobian::<C>::IDENTITY.add_mixed(&pa), p);
                    assert_eq!(p.add_mixed(&Affine::IDENTITY), p);
                    // XYZZ agrees
                    let px = p.to_xyzz();
                    let qx = q.to_xyzz();
                    assert_eq!(px.add_vartime(&qx).to_jacobian(), p.add(&q));
                    assert_eq!(px.add_mixed_vartime(&qa).to_affine(), p.add(&q).to_affine());
                    assert_eq!(px.double().to_jacobian(), p.double());
                    assert_eq!(zkforge_curve::Xyzz::double_affine(&pa).to_affine(), p.double().to_affine());
                    assert_eq!(px.add_vartime(&px).to_jacobian(), p.double());
                    assert!(bool::from(px.add_vartime(&(-p).to_xyzz()).is_identity()));
                    assert!(bool::from(px.add_vartime(&-px).is_identity()));
                    assert!(px == p && px == pa && px == pa.to_xyzz() && px != qx);
                    assert!(Xyzz::<C>::IDENTITY == Jacobian::<C>::IDENTITY);
                }
            }

            #[test]
            fn scalar_mul_vs_arkworks() {
                let mut rng = rng();
                let g = Jacobian::<C>::generator();
                let base = g.mul_limbs_vartime(&random_scalar(&mut rng));
                let abase = to_ark(&base.to_affine()).into_group();
                let mut scalars = edge_scalars($r_minus_1);
                for _ in 0..iters($iters) {
                    scalars.push(random_scalar(&mut rng));
                }
                let no_endo = ScalarMulConfig { ct_window: 4, wnaf_window: 4, endomorphism: false };
                for k in &scalars {
                    let want = (abase * fr(k)).into_affine();
                    assert_eq!(to_ark(&base.mul_limbs(k).to_affine()), want, "ct k={k:x?}");
                    assert_eq!(to_ark(&base.mul_limbs_vartime(k).to_affine()), want, "vartime k={k:x?}");
                    assert_eq!(to_ark(&mul_ct(&base, k, &no_endo).to_affine()), want);
                    assert_eq!(to_ark(&mul_vartime(&base, k, &no_endo).to_affine()), want);
                    for w in 2..=6 {
                        let cfg = ScalarMulConfig { ct_window: w, wnaf_window: w.max(2), endomorphism: true };
                        assert_eq!(to_ark(&mul_ct(&base, k, &cfg).to_affine()), want, "w={w}");
                        assert_eq!(to_ark(&mul_vartime(&base, k, &cfg).to_affine()), want, "w={w}");
                    }
                    assert_eq!(to_ark(&base.mul_bigint_vartime(k).to_affine()), want);
                }
                // identity base
                assert!(bool::from(Jacobian::<C>::IDENTITY.mul_limbs(&scalars[5]).is_identity()));
                assert!(bool::from(Jacobian::<C>::IDENTITY.mul_limbs_vartime(&scalars[5]).is_identity()));
                // scalars >= r are reduced: (k + r) P = k P, and all-ones limbs
                for k in scalars.iter().take(20) {
                    let mut kr = [0u64; 4];
                    let mut carry = 0u128;
                    let r1: [u64; 4] = $r_minus_1;
                    for i in 0..4 {
                        let s = k[i] as u128 + r1[i] as u128 + carry + if i == 0 { 1 } else { 0 };
                        kr[i] = s as u64;
                        carry = s >> 64;
                    }
                    if carry == 0 {
                        assert_eq!(base.mul_limbs(&kr), base.mul_limbs(k));
                        assert_eq!(base.mul_limbs_vartime(&kr), base.mul_limbs(k));
                    }
                }
                let ones = [u64::MAX; 4];
                assert_eq!(base.mul_limbs(&ones), base.mul_bigint_vartime(&ones));
                assert_eq!(base.mul_limbs_vartime(&ones), base.mul_bigint_vartime(&ones));
                // r P = O through the bigint path
                let mut r = $r_minus_1;
                r[0] += 1;
                assert!(bool::from(base.mul_bigint_vartime(&r).is_identity()));
            }

            #[test]
            fn multi_mul_ct_vs_arkworks() {
                // sum_i k_i P_i in constant time against arkworks, with edge scalars, repeated
                // and identity points, every window width, with and without the split
                let mut rng = rng();
                let g = Jacobian::<C>::generator();
                let mut scalars = edge_scalars($r_minus_1);
                for _ in 0..iters(12) {
                    scalars.push(random_scalar(&mut rng));
                }
                let mut points: Vec<Jacobian<C>> = scalars.iter().map(|_| g.mul_limbs_vartime(&random_scalar(&mut rng))).collect();
                points[1] = Jacobian::IDENTITY;
                points[2] = points[3];
                let mut want = to_ark(&Affine::<C>::IDENTITY).into_group();
                for (p, k) in points.iter().zip(&scalars) {
                    want += to_ark(&p.to_affine()).into_group() * fr(k);
                }
                let want = want.into_affine();
                for w in 2..=6 {
                    for endo in [true, false] {
                        let cfg = ScalarMulConfig { ct_window: w, wnaf_window: w.max(2), endomorphism: endo };
                        assert_eq!(to_ark(&multi_mul_ct(&points, &scalars, &cfg).to_affine()), want, "w={w} endo={endo}");
                    }
                }
                assert!(bool::from(multi_mul_ct::<C>(&[], &[], &ScalarMulConfig::for_curve::<C>()).is_identity()));
            }

            #[test]
            fn subgroup_and_cofactor_vs_arkworks() {
                let mut rng = rng();
                let mut r = $r_minus_1;
                r[0] += 1;
                for _ in 0..iters(20) {
                    let p = random_curve_point::<C>(&mut rng);
                    let ap = to_ark(&p);
                    assert!(p.is_on_curve());
                    let in_sub = bool::from(p.to_jacobian().mul_bigint_vartime(&r).is_identity());
                    assert_eq!(p.is_in_subgroup(), in_sub);
                    assert_eq!(p.is_in_subgroup(), ap.is_in_correct_subgroup_assuming_on_curve());
                    let c = C::clear_cofactor(&p.to_jacobian()).to_affine();
                    assert!(c.is_in_subgroup());
                    assert_eq!(to_ark(&c), ap.clear_cofactor());
                    // off the curve
                    let off = Affine::<C>::new_unchecked(p.x(), p.y() + <C as CurveConfig>::Base::ONE);
                    assert!(!off.is_on_curve());
                    assert!(!off.is_in_subgroup());
                }
                let g = Affine::<C>::generator();
                assert!(g.is_in_subgroup());
                assert!(Affine::<C>::IDENTITY.is_in_subgroup());
            }

            #[test]
            fn batch_normalisation() {
                let mut rng = rng();
                let g = Jacobian::<C>::generator();
                let mut pts: Vec<Jacobian<C>> = (0..17).map(|_| g.mul_limbs_vartime(&random_scalar(&mut rng))).collect();
                pts[3] = Jacobian::IDENTITY;
                pts[16] = Jacobian::IDENTITY;
                let aff = Jacobian::batch_to_affine(&pts);
                for (p, a) in pts.iter().zip(&aff) {
                    assert_eq!(p.to_affine(), *a);
                }
                assert!(Jacobian::<C>::batch_to_affine(&[]).is_empty());
                assert_eq!(Jacobian::batch_to_affine_vartime(&pts), aff);
                assert!(Jacobian::<C>::batch_to_affine_vartime(&[]).is_empty());
                assert_eq!(Jacobian::batch_to_affine_vartime(&[Jacobian::<C>::IDENTITY; 3]), vec![Affine::<C>::IDENTITY; 3]);
            }
        }
    };
}

const BLS_R_MINUS_1: [u64; 4] = [0xffffffff00000000, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48];
const BN_R_MINUS_1: [u64; 4] = [0x43e1f593f0000000, 0x2833e84879b97091, 0xb85045b68181585d, 0x30644e72e131a029];

group_suite!(
    bls_g1,
    zkforge_curve::bls12_381::G1Config,
    ark_bls12_381::G1Affine,
    ark_bls12_381::G1Projective,
    ark_bls12_381::Fr,
    |x: &zkforge_field::bls12_381::Fp| fp_to_ark::<_, 6, ark_bls12_381::Fq>(x),
    BLS_R_MINUS_1,
    300
);
group_suite!(
    bls_g2,
    zkforge_curve::bls12_381::G2Config,
    ark_bls12_381::G2Affine,
    ark_bls12_381::G2Projective,
    ark_bls12_381::Fr,
    |x: &zkforge_field::bls12_381::Fp2| fp2_to_ark::<_, 6, ark_bls12_381::Fq, ark_bls12_381::Fq2Config>(x),
    BLS_R_MINUS_1,
    100
);
group_suite!(
    bn_g1,
    zkforge_curve::bn254::G1Config,
    ark_bn254::G1Affine,
    ark_bn254::G1Projective,
    ark_bn254::Fr,
    |x: &zkforge_field::bn254::Fp| fp_to_ark::<_, 4, ark_bn254::Fq>(x),
    BN_R_MINUS_1,
    300
);
group_suite!(
    bn_g2,
    zkforge_curve::bn254::G2Config,
    ark_bn254::G2Affine,
    ark_bn254::G2Projective,
    ark_bn254::Fr,
    |x: &zkforge_field::bn254::Fp2| fp2_to_ark::<_, 4, ark_bn254::Fq, ark_bn254::Fq2Config>(x),
    BN_R_MINUS_1,
    100
);

/// `Affine::add_vartime` and `Jacobian::to_affine_vartime` equal the constant-time group law on
/// every group: random pairs, P + P, P + (-P), the identity on either side, and points outside
/// the subgroup (BLS12-381 map outputs before cofactor clearing).
#[test]
fn affine_add_vartime_matches_the_group_law() {
    use zkforge_curve::point::{Affine, Jacobian};
    use zkforge_curve::CurveConfig;
    fn check<C: CurveConfig>(points: &[Affine<C>]) {
        for p in points {
            for q in points.iter().chain([&-*p, p, &Affine::IDENTITY]) {
                let want = p.to_jacobian().add(&q.to_jacobian());
                assert_eq!(p.add_vartime(q), want.to_affine(), "{}", C::NAME);
                assert_eq!(want.to_affine_vartime(), want.to_affine(), "{}", C::NAME);
            }
            assert_eq!(Affine::<C>::IDENTITY.add_vartime(p), *p);
        }
        assert_eq!(Jacobian::<C>::IDENTITY.to_affine_vartime(), Affine::IDENTITY);
    }
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    use zkforge_curve::{bls12_381 as bls, bn254 as bn};
    let bls1: Vec<_> = (0..6).map(|_| (bls::G1Projective::generator() * bls::Scalar::random(&mut rng)).to_affine()).collect();
    let bls2: Vec<_> = (0..6).map(|_| (bls::G2Projective::generator() * bls::Scalar::random(&mut rng)).to_affine()).collect();
    let bn1: Vec<_> = (0..6).map(|_| (bn::G1Projective::generator() * bn::Scalar::random(&mut rng)).to_affine()).collect();
    let bn2: Vec<_> = (0..6).map(|_| (bn::G2Projective::generator() * bn::Scalar::random(&mut rng)).to_affine()).collect();
    check(&bls1);
    check(&bls2);
    check(&bn1);
    check(&bn2);
    let off: Vec<_> = (0..4)
        .map(|_| zkforge_curve::hash_to_curve::map_to_curve_bls12_381_g1(&zkforge_field::bls12_381::Fp::random(&mut rng)).to_affine())
        .collect();
    check(&off);
}

/// The doubling and the additions (Jacobian and XYZZ) under every value of the tower switch
/// (`zkforge_field::backend::set_tower`, which also chooses whether their Y coordinates take
/// one reduction, `CurveField::mul_sub_double_square` / `mul_sub_mul`): the same points on all
/// four groups; the suites above check the default against arkworks.
fn group_law_agrees_under_every_tower<C: CurveConfig>(rng: &mut impl RngCore) {
    use zkforge_field::backend::{set_tower, Tower};
    let g = Jacobian::<C>::generator();
    let pts: Vec<Jacobian<C>> = (0..16).map(|_| g.mul_limbs_vartime(&[rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64() >> 8])).collect();
    let run = || {
        let mut out = Vec::new();
        for w in pts.windows(2) {
            let (p, q) = (w[0], w[1]);
            let qa = q.to_affine();
            out.extend([p.double(), p.add(&q), p.add_vartime(&q), p.add_mixed(&qa), p.add_mixed_vartime(&qa), p.add(&p), p.add_mixed(&p.to_affine())].map(|r| r.to_affine()));
            // the XYZZ bucket formulas
            let (px, qx) = (p.to_xyzz(), q.to_xyzz());
            out.extend([px.double(), Xyzz::double_affine(&qa), px.add_vartime(&qx), px.add_mixed_vartime(&qa), px.add_vartime(&px)].map(|r| r.to_affine()));
        }
        out
    };
    set_tower(Tower::PerProduct);
    let want = run();
    for tower in [Tower::Auto, Tower::Lazy, Tower::PerProduct] {
        set_tower(tower);
        assert!(run() == want, "{} {tower:?}", core::any::type_name::<C>());
    }
    set_tower(Tower::Auto);
}

#[test]
fn group_law_agrees_under_every_tower_switch_value() {
    let mut rng = rng();
    group_law_agrees_under_every_tower::<zkforge_curve::bls12_381::G1Config>(&mut rng);
    group_law_agrees_under_every_tower::<zkforge_curve::bls12_381::G2Config>(&mut rng);
    group_law_agrees_under_every_tower::<zkforge_curve::bn254::G1Config>(&mut rng);
    group_law_agrees_under_every_tower::<zkforge_curve::bn254::G2Config>(&mut rng);
}

/// Every value of `set_g2_doubling_runs` (the |z| ladders' runs of doublings on IFMA lanes or
/// scalar) gives the same coordinates: `G2Config::double_n` against repeated doublings for run
/// lengths around the lane threshold, on points in and off the subgroup, the identity and a
/// point with Z != 1; the constant-time and variable-time cofactor clearings, [|z|] both ways,
/// and the subgroup test on subgroup points, points off it, and the identity.
#[test]
fn g2_doubling_runs_agree() {
    use zkforge_curve::bls12_381::{clear_cofactor_g2_vartime, mul_by_z_abs, mul_by_z_abs_vartime, set_g2_doubling_runs, G2Config, G2DoublingRuns, G2_LANE_RUN_MIN};
    let mut rng = rng();
    let g = Jacobian::<G2Config>::generator();
    let mut pts: Vec<Jacobian<G2Config>> = (0..6).map(|_| random_curve_point::<G2Config>(&mut rng).to_jacobian()).collect();
    pts.extend((0..4).map(|_| g.mul_limbs_vartime(&[rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64() >> 8])));
    pts.push(Jacobian::IDENTITY);
    pts.push(g.double().add(&g)); // Z != 1
    let run = || {
        let mut out = Vec::new();
        for p in &pts {
            for n in [0, 1, G2_LANE_RUN_MIN - 1, G2_LANE_RUN_MIN, 33] {
                let mut q = *p;
                for _ in 0..n {
                    q = q.double();
                }
                let r = G2Config::double_n(p, n);
                assert!(r == q && r.to_affine() == q.to_affine(), "{n} doublings");
                out.push(r.to_affine());
            }
            out.extend([G2Config::clear_cofactor(p), clear_cofactor_g2_vartime(p), mul_by_z_abs(p), mul_by_z_abs_vartime(p)].map(|r| r.to_affine()));
        }
        (out, pts.iter().map(|p| p.to_affine().is_in_subgroup()).collect::<Vec<_>>())
    };
    set_g2_doubling_runs(G2DoublingRuns::Scalar);
    let want = run();
    for mode in [G2DoublingRuns::Auto, G2DoublingRuns::Lanes, G2DoublingRuns::Scalar] {
        set_g2_doubling_runs(mode);
        assert!(run() == want, "{mode:?}");
    }
    set_g2_doubling_runs(G2DoublingRuns::Auto);
    // the subgroup test itself: the six random curve points are off the subgroup, the rest in it
    assert_eq!(want.1, [vec![false; 6], vec![true; 6]].concat());
}

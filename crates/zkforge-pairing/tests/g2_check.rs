//! `bls12_381::pairing_check_g2_unchecked`: the G2 subgroup test done with the Miller loop's
//! last point. Its verdict must equal the separate test (`is_in_subgroup`) on every kind of
//! twist point: G2 points, random twist points (cofactor not cleared), points of small order
//! 13, 23, 299 and 2713 (factors of the G2 cofactor; order 13 makes the loop's addition step
//! meet T = -Q, the exceptional case), those plus a G2 point, the identity, and points off the
//! twist; the first failing pair is the one reported; the Boolean equals `pairing_check`.
//! `zkforge_curve::bls12_381::g2_in_subgroup_batch_vartime` (the same ladder on IFMA lanes, eight
//! points at a time) must give the separate test's verdict on the same kinds of points.

use rand::{rngs::StdRng, RngCore, SeedableRng};
use zkforge_curve::bls12_381::{g2_in_subgroup_batch_vartime, G1Affine, G1Projective, G2Affine, G2Config, G2Projective, Scalar};
use zkforge_curve::hash_to_curve::map_to_curve_bls12_381_g2;
use zkforge_curve::CurveConfig;
use zkforge_field::bls12_381::{Fp, Fp2};
use zkforge_pairing::bls12_381::{pairing_check, pairing_check_g2_unchecked, G2NotInSubgroup};

fn rng() -> StdRng {
    let seed = std::env::var("ZKFORGE_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random::<u64>);
    eprintln!("ZKFORGE_SEED={seed}");
    StdRng::seed_from_u64(seed)
}

fn scalar(rng: &mut impl RngCore) -> Scalar {
    Scalar::random_with(|| rng.next_u64())
}

fn g1(rng: &mut impl RngCore) -> G1Affine {
    (G1Projective::generator() * scalar(rng)).to_affine()
}

fn g2(rng: &mut impl RngCore) -> G2Affine {
    (G2Projective::generator() * scalar(rng)).to_affine()
}

/// A twist point from SSWU and the isogeny, cofactor not cleared: almost never in G2.
fn twist_point(rng: &mut impl RngCore) -> G2Projective {
    let u = Fp2::new(Fp::random_with(|| rng.next_u64()), Fp::random_with(|| rng.next_u64()));
    map_to_curve_bls12_381_g2(&u)
}

/// h2 with every factor l removed, for l = 13, 23, 13 * 23 and 2713 (G2 cofactor h2 =
/// 13^2 23^2 2713 11953 q; the 13- and 23-parts of the twist group have exponent 13 and 23, so
/// h2 / l alone would kill them), little-endian limbs.
const COFACTOR_OVER: [(u64, [u64; 8]); 4] = [
    (13, [0x3336b3150941cfdd, 0xedf4046db800a837, 0x45e0aef29c5e8629, 0x5a5b213dcb710859, 0x81be2a9b0c648304, 0x60a5f9bdc250555d, 0xd5a3c5663541d68b, 0x0008d5fc7522f6c4]),
    (23, [0x359fc03a804bb595, 0x39a13152f610a9e2, 0xddb42e36473f96c7, 0xb0771fe9a3b739d5, 0x47efceb33a28d243, 0xf3528b4f0309b1c6, 0x4a8af1a258a2d34c, 0x0002d2a367b86ae7]),
    (299, [0x7b03f9904061650d, 0xd4697979aca0aaa9, 0x137d4777fd645a43, 0x8350fd28c4608421, 0x935c4e7a3e735da5, 0xc04dbe2c6582545d, 0xc55d397a24e1271e, 0x00000446a5b9e55d]),
    (2713, [0x6bbddd1b8ae8bc2d, 0xe8e3cb6f1a5ef7b3, 0xd0bcd89a93e2689a, 0x82a7fa0cd0483e83, 0x9e4dcdcfe8e6158f, 0xea16fbbdc8d346b5, 0xc45e1694f20cb022, 0x00008ce7b7a81050]),
];

/// A point of order dividing l (and not the identity): [r h'] R for h' above.
fn small_order(rng: &mut impl RngCore, l: u64, h_over_l: &[u64; 8]) -> G2Affine {
    for attempt in 0.. {
        assert!(attempt < 20, "no point of order {l} in 20 tries");
        let s = twist_point(rng).mul_bigint_vartime(&G2Config::ORDER).mul_bigint_vartime(h_over_l);
        if !bool::from(s.is_identity()) {
            assert!(bool::from(s.mul_u64_vartime(l).is_identity()), "order divides {l}");
            return s.to_affine();
        }
    }
    unreachable!()
}

/// Cancelling pairs (e(a_i P, Q) e(-P, a_i Q)), so that the check is true.
fn cancelling(rng: &mut impl RngCore, n: usize) -> Vec<(G1Affine, G2Affine)> {
    let mut v = Vec::new();
    for _ in 0..n / 2 {
        let a = scalar(rng);
        let (p, q) = (G1Projective::generator() * scalar(rng), G2Projective::generator() * scalar(rng));
        v.push(((p * a).to_affine(), q.to_affine()));
        v.push(((-p).to_affine(), (q * a).to_affine()));
    }
    v
}

#[test]
fn valid_inputs_give_the_pairing_check() {
    let mut rng = rng();
    for n in [0usize, 1, 2, 4, 8] {
        let good = cancelling(&mut rng, n);
        assert_eq!(pairing_check_g2_unchecked(&good), Ok(pairing_check(&good)), "n = {n}");
        assert_eq!(pairing_check_g2_unchecked(&good), Ok(true));
        let random: Vec<_> = (0..n.max(1)).map(|_| (g1(&mut rng), g2(&mut rng))).collect();
        assert_eq!(pairing_check_g2_unchecked(&random), Ok(false), "n = {n}");
    }
    // identities on either side, and both
    let (p, q) = (g1(&mut rng), g2(&mut rng));
    let mut v = cancelling(&mut rng, 2);
    v.extend([(G1Affine::IDENTITY, q), (p, G2Affine::IDENTITY), (G1Affine::IDENTITY, G2Affine::IDENTITY)]);
    assert_eq!(pairing_check_g2_unchecked(&v), Ok(true));
}

#[test]
fn verdict_equals_the_separate_test_on_every_kind_of_point() {
    let mut rng = rng();
    let mut bad: Vec<(&str, G2Affine)> = Vec::new();
    for _ in 0..12 {
        bad.push(("random twist point", twist_point(&mut rng).to_affine()));
    }
    for (l, h) in COFACTOR_OVER.iter() {
        eprintln!("order {l}");
        let s = small_order(&mut rng, *l, h);
        bad.push(("small order", s));
        bad.push(("small order + G2 point", (s.to_jacobian() + g2(&mut rng).to_jacobian()).to_affine()));
    }
    for (what, q) in &bad {
        assert!(!q.is_in_subgroup(), "{what} should be outside G2");
        let p = g1(&mut rng);
        assert_eq!(pairing_check_g2_unchecked(&[(p, *q)]), Err(G2NotInSubgroup { index: 0 }), "{what}");
        // among valid pairs, at every position; two bad points: the first is named
        let mut v = cancelling(&mut rng, 4);
        for pos in 0..=v.len() {
            let mut w = v.clone();
            w.insert(pos, (g1(&mut rng), *q));
            assert_eq!(pairing_check_g2_unchecked(&w), Err(G2NotInSubgroup { index: pos }), "{what} at {pos}");
        }
        v.insert(1, (p, *q));
        v.insert(3, (p, twist_point(&mut rng).to_affine()));
        assert_eq!(pairing_check_g2_unchecked(&v), Err(G2NotInSubgroup { index: 1 }), "{what}");
        // with the identity in G1 the pair is out of the loop: the separate test answers
        assert_eq!(pairing_check_g2_unchecked(&[(G1Affine::IDENTITY, *q)]), Err(G2NotInSubgroup { index: 0 }), "{what}");
    }
    // G2 points pass wherever they stand
    for _ in 0..8 {
        let q = g2(&mut rng);
        assert!(pairing_check_g2_unchecked(&[(g1(&mut rng), q)]).is_ok());
    }
}

#[test]
fn points_off_the_twist_are_refused() {
    let mut rng = rng();
    let q = g2(&mut rng);
    let off = G2Affine::new_unchecked(q.x(), q.y() + Fp2::ONE);
    assert!(!off.is_on_curve());
    let mut v = cancelling(&mut rng, 4);
    v.insert(2, (g1(&mut rng), off));
    assert_eq!(pairing_check_g2_unchecked(&v), Err(G2NotInSubgroup { index: 2 }));
    // a point outside G2 before the off-twist one is named first
    v.insert(1, (g1(&mut rng), twist_point(&mut rng).to_affine()));
    assert_eq!(pairing_check_g2_unchecked(&v), Err(G2NotInSubgroup { index: 1 }));
    // the off-twist point with the identity in G1 is refused too
    assert_eq!(pairing_check_g2_unchecked(&[(G1Affine::IDENTITY, off)]), Err(G2NotInSubgroup { index: 0 }));
}

/// The batched test equals `is_in_subgroup` point by point, on G2 points, random twist points,
/// small-order points and those plus a G2 point, and the identity, mixed in batches of every
/// length from 0 to 20 (chunks of eight on the lanes, and partial chunks).
#[test]
fn batched_test_equals_the_separate_test() {
    let mut rng = rng();
    let mut pts: Vec<G2Affine> = vec![G2Affine::IDENTITY];
    for (l, h) in COFACTOR_OVER.iter() {
        let s = small_order(&mut rng, *l, h);
        pts.push(s);
        pts.push((s.to_jacobian() + g2(&mut rng).to_jacobian()).to_affine());
    }
    for _ in 0..6 {
        pts.push(twist_point(&mut rng).to_affine());
        pts.push(g2(&mut rng));
    }
    pts.push(G2Projective::generator().to_affine());
    pts.push((-G2Projective::generator()).to_affine());
    // off the twist: a G2 point's y changed
    let g = g2(&mut rng);
    pts.push(G2Affine::new_unchecked(g.x(), g.y() + Fp2::ONE));
    let want: Vec<bool> = pts.iter().map(|q| q.is_in_subgroup()).collect();
    assert!(want.iter().any(|&b| b) && want.iter().any(|&b| !b));
    assert_eq!(g2_in_subgroup_batch_vartime(&pts), want);
    for n in 0..=20 {
        let idx: Vec<usize> = (0..n).map(|_| (rng.next_u64() % pts.len() as u64) as usize).collect();
        let batch: Vec<G2Affine> = idx.iter().map(|&i| pts[i]).collect();
        let expect: Vec<bool> = idx.iter().map(|&i| want[i]).collect();
        assert_eq!(g2_in_subgroup_batch_vartime(&batch), expect, "n = {n}, points {idx:?}");
    }
    // one bad point in a batch of G2 points is found wherever it stands
    for pos in 0..10 {
        let mut batch: Vec<G2Affine> = (0..10).map(|_| g2(&mut rng)).collect();
        batch[pos] = twist_point(&mut rng).to_affine();
        let got = g2_in_subgroup_batch_vartime(&batch);
        assert!(got.iter().enumerate().all(|(i, &ok)| ok == (i != pos)), "bad point at {pos}: {got:?}");
    }
}

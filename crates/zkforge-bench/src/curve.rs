//! Curve cases: group law, scalar multiplication, subgroup checks, decompression and
//! hash-to-curve, ours against blst and arkworks (BLS12-381) and against arkworks and
//! halo2curves (BN254), on the same points and scalars.
//!
//! Additions and doublings are latency chains (x <- x + y, x <- 2x); scalar multiplications,
//! checks and decodings cycle over a fixed list of inputs. Scalar multiplications are split by
//! security class: `*_mul_ct` rows against constant-time peers (blst, halo2curves),
//! `*_mul_vartime` rows against arkworks' GLV path (`glv_mul_projective`, variable time). Every
//! row first checks that all sides give the same point (or answer).

use std::hint::black_box;

use ark_ec::AffineRepr;
use ark_ff::AdditiveGroup;
use ark_ff::{BigInt, PrimeField as ArkPrimeField};
use blst::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use zkforge_curve::bls12_381 as bls;
use zkforge_curve::bn254 as bn;
use zkforge_curve::hash_to_curve;

use ark_ec::scalar_mul::glv::GLVConfig;

use crate::field::{chain1, chain2, over};
use crate::{probed_case, Case, Impl};

fn case(op: &'static str, curve: &'static str, ours: Impl, peers: Vec<(&'static str, Impl)>) -> Case {
    probed_case("curve", op, curve, ours, peers)
}

fn ark_fq(x: &zkforge_field::bls12_381::Fp) -> ark_bls12_381::Fq {
    ark_bls12_381::Fq::from_bigint(BigInt(x.to_limbs())).unwrap()
}
fn ark_fq2(x: &zkforge_field::bls12_381::Fp2) -> ark_bls12_381::Fq2 {
    ark_bls12_381::Fq2::new(ark_fq(&x.c0), ark_fq(&x.c1))
}
pub(crate) fn ark_g1(p: &bls::G1Affine) -> ark_bls12_381::G1Affine {
    ark_bls12_381::G1Affine::new_unchecked(ark_fq(&p.x()), ark_fq(&p.y()))
}
pub(crate) fn ark_g2(p: &bls::G2Affine) -> ark_bls12_381::G2Affine {
    ark_bls12_381::G2Affine::new_unchecked(ark_fq2(&p.x()), ark_fq2(&p.y()))
}
fn ark_fr(k: &zkforge_field::bls12_381::Fr) -> ark_bls12_381::Fr {
    ark_bls12_381::Fr::from_bigint(BigInt(k.to_limbs())).unwrap()
}
/// Our point as blst's; a point blst refuses stops the benchmark (a silently zeroed input
/// would time the wrong work).
pub(crate) fn blst_g1(p: &bls::G1Affine) -> blst_p1_affine {
    let mut a = blst_p1_affine::default();
    // SAFETY: `a` is a valid blst_p1_affine and the input is a 96-byte buffer.
    let rc = unsafe { blst_p1_deserialize(&mut a, p.to_uncompressed().as_ptr()) };
    assert_eq!(rc, BLST_ERROR::BLST_SUCCESS, "blst refused a G1 point");
    a
}
/// See [`blst_g1`].
pub(crate) fn blst_g2(p: &bls::G2Affine) -> blst_p2_affine {
    let mut a = blst_p2_affine::default();
    // SAFETY: `a` is a valid blst_p2_affine and the input is a 192-byte buffer.
    let rc = unsafe { blst_p2_deserialize(&mut a, p.to_uncompressed().as_ptr()) };
    assert_eq!(rc, BLST_ERROR::BLST_SUCCESS, "blst refused a G2 point");
    a
}
/// blst's G1 point in our uncompressed encoding (for agreement checks).
pub(crate) fn blst_p1_bytes(p: &blst_p1) -> Vec<u8> {
    let mut out = [0u8; 96];
    // SAFETY: 96-byte output buffer, valid point.
    unsafe { blst_p1_serialize(out.as_mut_ptr(), p) };
    out.to_vec()
}
/// blst's G2 point in our uncompressed encoding.
pub(crate) fn blst_p2_bytes(p: &blst_p2) -> Vec<u8> {
    let mut out = [0u8; 192];
    // SAFETY: 192-byte output buffer, valid point.
    unsafe { blst_p2_serialize(out.as_mut_ptr(), p) };
    out.to_vec()
}
fn blst_p1_of(p: &bls::G1Affine) -> blst_p1 {
    let mut o = blst_p1::default();
    unsafe { blst_p1_from_affine(&mut o, &blst_g1(p)) };
    o
}
fn blst_p2_of(p: &bls::G2Affine) -> blst_p2 {
    let mut o = blst_p2::default();
    unsafe { blst_p2_from_affine(&mut o, &blst_g2(p)) };
    o
}
fn blst_scalar_of(k: &zkforge_field::bls12_381::Fr) -> [u8; 32] {
    let mut b = [0u8; 32];
    b.copy_from_slice(&k.to_bytes_le());
    b
}

fn bls_cases(out: &mut Vec<Case>) {
    let mut rng = StdRng::seed_from_u64(11);
    let g1 = bls::G1Projective::generator();
    let g2 = bls::G2Projective::generator();
    let ks: Vec<zkforge_field::bls12_381::Fr> = (0..64).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng)).collect();
    let p1: Vec<bls::G1Affine> = ks.iter().map(|k| (g1 * *k).to_affine()).collect();
    let p2: Vec<bls::G2Affine> = ks.iter().map(|k| (g2 * *k).to_affine()).collect();
    let (a1, b1) = (p1[0], p1[1]);
    let (a2, b2) = (p2[0], p2[1]);

    // --- group law
    out.push(case(
        "g1_add",
        "bls12_381",
        chain2(a1.to_jacobian(), b1.to_jacobian(), |x, y| x.add(y)),
        vec![
            ("blst", chain2(blst_p1_of(&a1), blst_p1_of(&b1), |x, y| {
                let mut o = blst_p1::default();
                unsafe { blst_p1_add_or_double(&mut o, x, y) };
                o
            })),
            ("arkworks", chain2(ark_g1(&a1).into_group(), ark_g1(&b1).into_group(), |x, y| *x + y)),
        ],
    ));
    out.push(case(
        "g1_add_mixed",
        "bls12_381",
        {
            let y = b1;
            chain1(a1.to_jacobian(), move |x| x.add_mixed(&y))
        },
        vec![
            ("blst", {
                let y = blst_g1(&b1);
                chain1(blst_p1_of(&a1), move |x| {
                    let mut o = blst_p1::default();
                    unsafe { blst_p1_add_or_double_affine(&mut o, x, &y) };
                    o
                })
            }),
            ("arkworks", {
                let y = ark_g1(&b1);
                chain1(ark_g1(&a1).into_group(), move |x| *x + y)
            }),
        ],
    ));
    out.push(case(
        "g1_double",
        "bls12_381",
        chain1(a1.to_jacobian(), |x| x.double()),
        vec![
            ("blst", chain1(blst_p1_of(&a1), |x| {
                let mut o = blst_p1::default();
                unsafe { blst_p1_double(&mut o, x) };
                o
            })),
            ("arkworks", chain1(ark_g1(&a1).into_group(), |x| {
                let mut y = *x;
                y.double_in_place();
                y
            })),
        ],
    ));
    out.push(case(
        "g2_add",
        "bls12_381",
        chain2(a2.to_jacobian(), b2.to_jacobian(), |x, y| x.add(y)),
        vec![
            ("blst", chain2(blst_p2_of(&a2), blst_p2_of(&b2), |x, y| {
                let mut o = blst_p2::default();
                unsafe { blst_p2_add_or_double(&mut o, x, y) };
                o
            })),
            ("arkworks", chain2(ark_g2(&a2).into_group(), ark_g2(&b2).into_group(), |x, y| *x + y)),
        ],
    ));
    out.push(case(
        "g2_add_mixed",
        "bls12_381",
        {
            let y = b2;
            chain1(a2.to_jacobian(), move |x| x.add_mixed(&y))
        },
        vec![
            ("blst", {
                let y = blst_g2(&b2);
                chain1(blst_p2_of(&a2), move |x| {
                    let mut o = blst_p2::default();
                    unsafe { blst_p2_add_or_double_affine(&mut o, x, &y) };
                    o
                })
            }),
            ("arkworks", {
                let y = ark_g2(&b2);
                chain1(ark_g2(&a2).into_group(), move |x| *x + y)
            }),
        ],
    ));
    out.push(case(
        "g2_double",
        "bls12_381",
        chain1(a2.to_jacobian(), |x| x.double()),
        vec![
            ("blst", chain1(blst_p2_of(&a2), |x| {
                let mut o = blst_p2::default();
                unsafe { blst_p2_double(&mut o, x) };
                o
            })),
            ("arkworks", chain1(ark_g2(&a2).into_group(), |x| {
                let mut y = *x;
                y.double_in_place();
                y
            })),
        ],
    ));

    // --- scalar multiplication over (point, scalar) pairs
    let pairs1: Vec<(bls::G1Projective, [u64; 4])> = p1.iter().zip(ks.iter().rev()).map(|(p, k)| (p.to_jacobian(), k.to_limbs())).collect();
    let blst_pairs1: Vec<(blst_p1, [u8; 32])> = p1.iter().zip(ks.iter().rev()).map(|(p, k)| (blst_p1_of(p), blst_scalar_of(k))).collect();
    let ark_pairs1: Vec<(ark_bls12_381::G1Projective, ark_bls12_381::Fr)> = p1.iter().zip(ks.iter().rev()).map(|(p, k)| (ark_g1(p).into_group(), ark_fr(k))).collect();
    let blst_mult1 = |(p, k): &(blst_p1, [u8; 32])| {
        let mut o = blst_p1::default();
        unsafe { blst_p1_mult(&mut o, p, k.as_ptr(), 255) };
        o
    };
    // by security class: blst's `blst_p1_mult` is constant time; arkworks' `*` on G1 is its
    // GLV path, variable time
    out.push(case("g1_mul_ct", "bls12_381", over(pairs1.clone(), |(p, k)| p.mul_limbs(k)), vec![("blst-ct", over(blst_pairs1, blst_mult1))]));
    out.push(case(
        "g1_mul_vartime",
        "bls12_381",
        over(pairs1, |(p, k)| p.mul_limbs_vartime(k)),
        vec![("arkworks-glv-vartime", over(ark_pairs1, |(p, k)| <ark_bls12_381::g1::Config as GLVConfig>::glv_mul_projective(*p, *k)))],
    ));
    let pairs2: Vec<(bls::G2Projective, [u64; 4])> = p2.iter().zip(ks.iter().rev()).map(|(p, k)| (p.to_jacobian(), k.to_limbs())).collect();
    let blst_pairs2: Vec<(blst_p2, [u8; 32])> = p2.iter().zip(ks.iter().rev()).map(|(p, k)| (blst_p2_of(p), blst_scalar_of(k))).collect();
    let ark_pairs2: Vec<(ark_bls12_381::G2Projective, ark_bls12_381::Fr)> = p2.iter().zip(ks.iter().rev()).map(|(p, k)| (ark_g2(p).into_group(), ark_fr(k))).collect();
    let blst_mult2 = |(p, k): &(blst_p2, [u8; 32])| {
        let mut o = blst_p2::default();
        unsafe { blst_p2_mult(&mut o, p, k.as_ptr(), 255) };
        o
    };
    // arkworks' `*` on G2 is plain double-and-add; its public GLV entry point is the fair peer
    out.push(case("g2_mul_ct", "bls12_381", over(pairs2.clone(), |(p, k)| p.mul_limbs(k)), vec![("blst-ct", over(blst_pairs2, blst_mult2))]));
    out.push(case(
        "g2_mul_vartime",
        "bls12_381",
        over(pairs2, |(p, k)| p.mul_limbs_vartime(k)),
        vec![("arkworks-glv-vartime", over(ark_pairs2, |(p, k)| <ark_bls12_381::g2::Config as GLVConfig>::glv_mul_projective(*p, *k)))],
    ));

    // --- subgroup checks, decompression
    out.push(case(
        "g1_subgroup_check",
        "bls12_381",
        over(p1.clone(), |p| p.is_in_subgroup()),
        vec![
            ("blst", over(p1.iter().map(blst_g1).collect(), |p| unsafe { blst_p1_affine_in_g1(p) })),
            ("arkworks", over(p1.iter().map(ark_g1).collect(), |p: &ark_bls12_381::G1Affine| p.is_in_correct_subgroup_assuming_on_curve())),
        ],
    ));
    out.push(case(
        "g2_subgroup_check",
        "bls12_381",
        over(p2.clone(), |p| p.is_in_subgroup()),
        vec![
            ("blst", over(p2.iter().map(blst_g2).collect(), |p| unsafe { blst_p2_affine_in_g2(p) })),
            ("arkworks", over(p2.iter().map(ark_g2).collect(), |p: &ark_bls12_381::G2Affine| p.is_in_correct_subgroup_assuming_on_curve())),
        ],
    ));
    let comp1: Vec<[u8; 48]> = p1.iter().map(|p| p.to_compressed()).collect();
    out.push(case(
        "g1_decompress_checked",
        "bls12_381",
        over(comp1.clone(), |b| bls::G1Affine::from_compressed(b).is_ok()),
        vec![("blst", over(comp1.clone(), |b| {
            let mut a = blst_p1_affine::default();
            unsafe { blst_p1_uncompress(&mut a, b.as_ptr()) == BLST_ERROR::BLST_SUCCESS && blst_p1_affine_in_g1(&a) }
        }))],
    ));
    out.push(case(
        "g1_decompress",
        "bls12_381",
        over(comp1.clone(), |b| bls::G1Affine::from_compressed_unchecked(b).is_ok()),
        vec![("blst", over(comp1, |b| {
            let mut a = blst_p1_affine::default();
            unsafe { blst_p1_uncompress(&mut a, b.as_ptr()) == BLST_ERROR::BLST_SUCCESS }
        }))],
    ));
    let comp2: Vec<[u8; 96]> = p2.iter().map(|p| p.to_compressed()).collect();
    out.push(case(
        "g2_decompress_checked",
        "bls12_381",
        over(comp2.clone(), |b| bls::G2Affine::from_compressed(b).is_ok()),
        vec![("blst", over(comp2, |b| {
            let mut a = blst_p2_affine::default();
            unsafe { blst_p2_uncompress(&mut a, b.as_ptr()) == BLST_ERROR::BLST_SUCCESS && blst_p2_affine_in_g2(&a) }
        }))],
    ));

    // --- hash to curve
    let msgs: Vec<[u8; 32]> = (0..64).map(|_| rng.gen()).collect();
    const DST1: &[u8] = b"QUUX-V01-CS02-with-BLS12381G1_XMD:SHA-256_SSWU_RO_";
    const DST2: &[u8] = b"QUUX-V01-CS02-with-BLS12381G2_XMD:SHA-256_SSWU_RO_";
    out.push(case(
        "hash_to_g1",
        "bls12_381",
        over(msgs.clone(), |m| hash_to_curve::hash_to_g1(m, DST1).unwrap()),
        vec![("blst", over(msgs.clone(), |m| {
            let mut o = blst_p1::default();
            unsafe { blst_hash_to_g1(&mut o, m.as_ptr(), m.len(), DST1.as_ptr(), DST1.len(), std::ptr::null(), 0) };
            let mut a = blst_p1_affine::default();
            unsafe { blst_p1_to_affine(&mut a, &o) };
            a
        }))],
    ));
    out.push(case(
        "hash_to_g2",
        "bls12_381",
        over(msgs.clone(), |m| hash_to_curve::hash_to_g2(m, DST2).unwrap()),
        vec![("blst", over(msgs.clone(), |m| {
            let mut o = blst_p2::default();
            unsafe { blst_hash_to_g2(&mut o, m.as_ptr(), m.len(), DST2.as_ptr(), DST2.len(), std::ptr::null(), 0) };
            let mut a = blst_p2_affine::default();
            unsafe { blst_p2_to_affine(&mut a, &o) };
            a
        }))],
    ));
    // many messages at once (batch verification of signatures on distinct messages): ours
    // through `hash_to_g2_batch_vartime` (public messages), blst one message at a time (it has
    // no batch hash), both to affine points
    for n in [8usize, 64] {
        let batch: &'static [[u8; 32]] = Box::leak(msgs[..n].to_vec().into_boxed_slice());
        let mut c = case(
            "hash_to_g2_batch_vartime",
            "bls12_381",
            over(vec![batch], |b| hash_to_curve::hash_to_g2_batch_vartime(b, DST2).unwrap()),
            vec![("blst", over(vec![batch], |b| {
                b.iter()
                    .map(|m| {
                        let mut o = blst_p2::default();
                        // SAFETY: blst reads the message and DST within their lengths and writes one point.
                        unsafe { blst_hash_to_g2(&mut o, m.as_ptr(), m.len(), DST2.as_ptr(), DST2.len(), std::ptr::null(), 0) };
                        let mut a = blst_p2_affine::default();
                        // SAFETY: both are valid blst points.
                        unsafe { blst_p2_to_affine(&mut a, &o) };
                        a
                    })
                    .collect::<Vec<_>>()
            }))],
        );
        c.size = n;
        out.push(c);
    }
    // the same on G1 (the min-sig variant): `hash_to_g1_batch_vartime` against blst one message
    // at a time, both to affine points
    for n in [8usize, 64] {
        let batch: &'static [[u8; 32]] = Box::leak(msgs[..n].to_vec().into_boxed_slice());
        let mut c = case(
            "hash_to_g1_batch_vartime",
            "bls12_381",
            over(vec![batch], |b| hash_to_curve::hash_to_g1_batch_vartime(b, DST1).unwrap()),
            vec![("blst", over(vec![batch], |b| {
                b.iter()
                    .map(|m| {
                        let mut o = blst_p1::default();
                        // SAFETY: blst reads the message and DST within their lengths and writes one point.
                        unsafe { blst_hash_to_g1(&mut o, m.as_ptr(), m.len(), DST1.as_ptr(), DST1.len(), std::ptr::null(), 0) };
                        let mut a = blst_p1_affine::default();
                        // SAFETY: both are valid blst points.
                        unsafe { blst_p1_to_affine(&mut a, &o) };
                        a
                    })
                    .collect::<Vec<_>>()
            }))],
        );
        c.size = n;
        out.push(c);
    }
}

fn bn_ark_fq(x: &zkforge_field::bn254::Fp) -> ark_bn254::Fq {
    ark_bn254::Fq::from_bigint(BigInt(x.to_limbs())).unwrap()
}

fn bn_cases(out: &mut Vec<Case>) {
    use ff::PrimeField as _;
    use halo2curves::group::Group as _;
    let mut rng = StdRng::seed_from_u64(12);
    let g1 = bn::G1Projective::generator();
    let g2 = bn::G2Projective::generator();
    let ks: Vec<zkforge_field::bn254::Fr> = (0..64).map(|_| zkforge_field::bn254::Fr::random(&mut rng)).collect();
    let p1: Vec<bn::G1Affine> = ks.iter().map(|k| (g1 * *k).to_affine()).collect();
    let p2: Vec<bn::G2Affine> = ks.iter().map(|k| (g2 * *k).to_affine()).collect();
    let ark_fr = |k: &zkforge_field::bn254::Fr| ark_bn254::Fr::from_bigint(BigInt(k.to_limbs())).unwrap();
    let h2_fr = |k: &zkforge_field::bn254::Fr| halo2curves::bn256::Fr::from_repr(k.to_bytes_le().into()).unwrap();
    let h2_fq = |x: &zkforge_field::bn254::Fp| halo2curves::bn256::Fq::from_repr(x.to_bytes_le().into()).unwrap();
    let ark_p1 = |p: &bn::G1Affine| ark_bn254::G1Affine::new_unchecked(bn_ark_fq(&p.x()), bn_ark_fq(&p.y()));
    let h2_p1 = |p: &bn::G1Affine| halo2curves::bn256::G1::from(halo2curves::bn256::G1Affine { x: h2_fq(&p.x()), y: h2_fq(&p.y()) });

    let pairs: Vec<(bn::G1Projective, [u64; 4])> = p1.iter().zip(ks.iter().rev()).map(|(p, k)| (p.to_jacobian(), k.to_limbs())).collect();
    let ark_pairs: Vec<(ark_bn254::G1Projective, ark_bn254::Fr)> = p1.iter().zip(ks.iter().rev()).map(|(p, k)| (ark_p1(p).into_group(), ark_fr(k))).collect();
    let h2_pairs: Vec<(halo2curves::bn256::G1, halo2curves::bn256::Fr)> = p1.iter().zip(ks.iter().rev()).map(|(p, k)| (h2_p1(p), h2_fr(k))).collect();
    // arkworks' `*` on BN254 G1 is its GLV path (variable time); halo2curves' `*` is a
    // constant-time double-and-add-always
    out.push(case(
        "g1_mul_vartime",
        "bn254",
        over(pairs.clone(), |(p, k)| p.mul_limbs_vartime(k)),
        vec![("arkworks-glv-vartime", over(ark_pairs, |(p, k)| <ark_bn254::g1::Config as GLVConfig>::glv_mul_projective(*p, *k)))],
    ));
    out.push(case("g1_mul_ct", "bn254", over(pairs, |(p, k)| p.mul_limbs(k)), vec![("halo2curves-ct", over(h2_pairs, |(p, k)| *p * k))]));
    let (a, b) = (p1[0], p1[1]);
    out.push(case(
        "g1_add",
        "bn254",
        chain2(a.to_jacobian(), b.to_jacobian(), |x, y| x.add(y)),
        vec![
            ("arkworks", chain2(ark_p1(&a).into_group(), ark_p1(&b).into_group(), |x, y| *x + y)),
            ("halo2curves", chain2(h2_p1(&a), h2_p1(&b), |x, y| *x + y)),
        ],
    ));
    out.push(case(
        "g1_double",
        "bn254",
        chain1(a.to_jacobian(), |x| x.double()),
        vec![
            ("arkworks", chain1(ark_p1(&a).into_group(), |x| {
                let mut y = *x;
                y.double_in_place();
                y
            })),
            ("halo2curves", chain1(h2_p1(&a), |x| x.double())),
        ],
    ));
    let ark_p2 = |p: &bn::G2Affine| {
        ark_bn254::G2Affine::new_unchecked(
            ark_bn254::Fq2::new(bn_ark_fq(&p.x().c0), bn_ark_fq(&p.x().c1)),
            ark_bn254::Fq2::new(bn_ark_fq(&p.y().c0), bn_ark_fq(&p.y().c1)),
        )
    };
    out.push(case(
        "g2_subgroup_check",
        "bn254",
        over(p2.clone(), |p| p.is_in_subgroup()),
        vec![("arkworks", over(p2.iter().map(ark_p2).collect(), |p: &ark_bn254::G2Affine| p.is_in_correct_subgroup_assuming_on_curve()))],
    ));
    let _ = black_box(halo2curves::bn256::G1::generator());
}

/// Every curve case.
pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    bls_cases(&mut out);
    bn_cases(&mut out);
    out
}

//! The batched hashes to G1 and G2 (`hash_to_g1_batch_vartime`, `hash_to_g2_batch_vartime`)
//! and G2 cofactor clearing (`clear_cofactor_g2_batch_vartime`): the same points as one call
//! each, for batches of every
//! length from 0 to 20 (balanced groups of at most eight, on IFMA lanes where the CPU has them,
//! partial groups and the one-point fallback elsewhere); the RFC 9380 J.10.1 vectors through
//! the batch; blst on random messages; and the points the lane ladders cannot take (the
//! identity, points of order 13, 23, 299 and 2713, those plus a G2 point), which must fall
//! back to the one-point clearing and still give its answer.

mod common;

use common::rng;
use rand::RngCore;
use serde_json::Value;
use zkforge_curve::bls12_381::{clear_cofactor_g2_batch_vartime, G1Affine, G2Affine, G2Config, G2Projective, Scalar};
use zkforge_curve::hash_to_curve::{hash_to_g1, hash_to_g1_batch_vartime, hash_to_g2, hash_to_g2_batch_vartime, map_to_curve_bls12_381_g2, HashToCurveError};
use zkforge_curve::CurveConfig;
use zkforge_field::bls12_381::{Fp, Fp2};

const DST: &[u8] = b"QUUX-V01-CS02-with-BLS12381G2_XMD:SHA-256_SSWU_RO_";
const DST1: &[u8] = b"QUUX-V01-CS02-with-BLS12381G1_XMD:SHA-256_SSWU_RO_";

fn random_msgs(rng: &mut impl RngCore, n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|_| {
            let mut m = vec![0u8; (rng.next_u64() % 80) as usize];
            rng.fill_bytes(&mut m);
            m
        })
        .collect()
}

fn blst_hash_to_g2(msg: &[u8], dst: &[u8]) -> [u8; 96] {
    let mut p = blst::blst_p2::default();
    let mut out = [0u8; 96];
    // SAFETY: blst reads msg and dst within their lengths and writes one point.
    unsafe {
        blst::blst_hash_to_g2(&mut p, msg.as_ptr(), msg.len(), dst.as_ptr(), dst.len(), std::ptr::null(), 0);
        blst::blst_p2_compress(out.as_mut_ptr(), &p);
    }
    out
}

fn blst_hash_to_g1(msg: &[u8], dst: &[u8]) -> [u8; 48] {
    let mut p = blst::blst_p1::default();
    let mut out = [0u8; 48];
    // SAFETY: blst reads msg and dst within their lengths and writes one point.
    unsafe {
        blst::blst_hash_to_g1(&mut p, msg.as_ptr(), msg.len(), dst.as_ptr(), dst.len(), std::ptr::null(), 0);
        blst::blst_p1_compress(out.as_mut_ptr(), &p);
    }
    out
}

/// `batch(msgs)` against `one(msg)` for batches of every length from 0 to 20, with the empty
/// message and a repeated one among them.
fn every_length<P: PartialEq + std::fmt::Debug>(batch: impl Fn(&[Vec<u8>]) -> Vec<P>, one: impl Fn(&[u8]) -> P) {
    let mut rng = rng();
    for n in 0..=20 {
        let mut msgs = random_msgs(&mut rng, n);
        if n > 3 {
            msgs[1] = Vec::new(); // the empty message
            msgs[3] = msgs[2].clone(); // a repeated message
        }
        let got = batch(&msgs);
        assert_eq!(got.len(), n);
        for (i, (m, p)) in msgs.iter().zip(&got).enumerate() {
            assert_eq!(*p, one(m), "n = {n}, message {i}");
        }
    }
}

/// `batch(msgs, dst)` against blst's compressed points `peer(msg, dst)`, under the test DST,
/// a 300-byte DST (hashed first, RFC 9380 section 5.3.3) and a one-byte one.
fn against_blst<P, const L: usize>(dst0: &[u8], n: usize, batch: impl Fn(&[Vec<u8>], &[u8]) -> Vec<P>, compress: impl Fn(&P) -> [u8; L], peer: impl Fn(&[u8], &[u8]) -> [u8; L]) {
    let mut rng = rng();
    let long_dst = vec![b'D'; 300];
    for dst in [dst0, &long_dst[..], b"x"] {
        let msgs = random_msgs(&mut rng, n);
        for (m, p) in msgs.iter().zip(&batch(&msgs, dst)) {
            assert_eq!(compress(p), peer(m, dst));
        }
    }
}

#[test]
fn g1_batch_equals_one_by_one_for_every_length() {
    every_length(|m| hash_to_g1_batch_vartime(m, DST1).unwrap(), |m| {
        let p = hash_to_g1(m, DST1).unwrap();
        assert!(p.is_in_subgroup());
        p
    });
}

#[test]
fn g1_batch_equals_blst_and_takes_long_dsts() {
    against_blst(DST1, 17, |m, dst| hash_to_g1_batch_vartime(m, dst).unwrap(), G1Affine::to_compressed, blst_hash_to_g1);
}

#[test]
fn g1_batch_gives_the_rfc_vectors() {
    let path = format!("{}/tests/vectors/h2c/BLS12381G1_XMD-SHA-256_SSWU_RO_.json", env!("CARGO_MANIFEST_DIR"));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let dst = v["dst"].as_str().unwrap().as_bytes();
    let vecs = v["vectors"].as_array().unwrap();
    let msgs: Vec<&[u8]> = vecs.iter().map(|t| t["msg"].as_str().unwrap().as_bytes()).collect();
    let fp = |t: &Value, c: &str| Fp::from_hex(t["P"][c].as_str().unwrap()).unwrap();
    let want: Vec<G1Affine> = vecs.iter().map(|t| G1Affine::new_unchecked(fp(t, "x"), fp(t, "y"))).collect();
    assert_eq!(hash_to_g1_batch_vartime(&msgs, dst).unwrap(), want);
    let mut rng = rng();
    let mut mixed = random_msgs(&mut rng, 10);
    mixed.insert(6, msgs[3].to_vec());
    assert_eq!(hash_to_g1_batch_vartime(&mixed, dst).unwrap()[6], want[3]);
}

#[test]
fn g1_batch_refuses_an_empty_dst() {
    assert_eq!(hash_to_g1_batch_vartime(&[b"abc"], b""), Err(HashToCurveError::EmptyDst));
    assert_eq!(hash_to_g1_batch_vartime::<&[u8]>(&[], b""), Err(HashToCurveError::EmptyDst));
}

#[test]
fn batch_equals_one_by_one_for_every_length() {
    every_length(|m| hash_to_g2_batch_vartime(m, DST).unwrap(), |m| hash_to_g2(m, DST).unwrap());
}

#[test]
fn batch_equals_blst_and_takes_long_dsts() {
    against_blst(DST, 9, |m, dst| hash_to_g2_batch_vartime(m, dst).unwrap(), G2Affine::to_compressed, blst_hash_to_g2);
}

#[test]
fn batch_gives_the_rfc_vectors() {
    let path = format!("{}/tests/vectors/h2c/BLS12381G2_XMD-SHA-256_SSWU_RO_.json", env!("CARGO_MANIFEST_DIR"));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let dst = v["dst"].as_str().unwrap().as_bytes();
    let fp2 = |s: &str| {
        let (a, b) = s.split_once(',').unwrap();
        Fp2::new(Fp::from_hex(a).unwrap(), Fp::from_hex(b).unwrap())
    };
    let vecs = v["vectors"].as_array().unwrap();
    let msgs: Vec<&[u8]> = vecs.iter().map(|t| t["msg"].as_str().unwrap().as_bytes()).collect();
    let want: Vec<G2Affine> = vecs.iter().map(|t| G2Affine::new_unchecked(fp2(t["P"]["x"].as_str().unwrap()), fp2(t["P"]["y"].as_str().unwrap()))).collect();
    assert_eq!(hash_to_g2_batch_vartime(&msgs, dst).unwrap(), want);
    // and each vector inside a group of random messages
    let mut rng = rng();
    let mut mixed = random_msgs(&mut rng, 7);
    mixed.insert(4, msgs[2].to_vec());
    assert_eq!(hash_to_g2_batch_vartime(&mixed, dst).unwrap()[4], want[2]);
}

#[test]
fn batch_refuses_an_empty_dst() {
    assert_eq!(hash_to_g2_batch_vartime(&[b"abc"], b""), Err(HashToCurveError::EmptyDst));
    assert_eq!(hash_to_g2_batch_vartime::<&[u8]>(&[], b""), Err(HashToCurveError::EmptyDst));
}

/// A twist point from SSWU and the isogeny, cofactor not cleared.
fn twist_point(rng: &mut impl RngCore) -> G2Projective {
    map_to_curve_bls12_381_g2(&Fp2::new(Fp::random_with(|| rng.next_u64()), Fp::random_with(|| rng.next_u64())))
}

/// h2 with every factor l removed, for l = 13, 23, 13 * 23 and 2713 (the constants of
/// `zkforge-pairing/tests/g2_check.rs`), little-endian limbs.
const COFACTOR_OVER: [(u64, [u64; 8]); 4] = [
    (13, [0x3336b3150941cfdd, 0xedf4046db800a837, 0x45e0aef29c5e8629, 0x5a5b213dcb710859, 0x81be2a9b0c648304, 0x60a5f9bdc250555d, 0xd5a3c5663541d68b, 0x0008d5fc7522f6c4]),
    (23, [0x359fc03a804bb595, 0x39a13152f610a9e2, 0xddb42e36473f96c7, 0xb0771fe9a3b739d5, 0x47efceb33a28d243, 0xf3528b4f0309b1c6, 0x4a8af1a258a2d34c, 0x0002d2a367b86ae7]),
    (299, [0x7b03f9904061650d, 0xd4697979aca0aaa9, 0x137d4777fd645a43, 0x8350fd28c4608421, 0x935c4e7a3e735da5, 0xc04dbe2c6582545d, 0xc55d397a24e1271e, 0x00000446a5b9e55d]),
    (2713, [0x6bbddd1b8ae8bc2d, 0xe8e3cb6f1a5ef7b3, 0xd0bcd89a93e2689a, 0x82a7fa0cd0483e83, 0x9e4dcdcfe8e6158f, 0xea16fbbdc8d346b5, 0xc45e1694f20cb022, 0x00008ce7b7a81050]),
];

/// A point of order dividing l (not the identity).
fn small_order(rng: &mut impl RngCore, l: u64, h_over_l: &[u64; 8]) -> G2Projective {
    for _ in 0..20 {
        let s = twist_point(rng).mul_bigint_vartime(&G2Config::ORDER).mul_bigint_vartime(h_over_l);
        if !bool::from(s.is_identity()) {
            assert!(bool::from(s.mul_u64_vartime(l).is_identity()), "order divides {l}");
            return s;
        }
    }
    panic!("no point of order {l} in 20 tries");
}

#[test]
fn cofactor_batch_equals_one_by_one_on_every_kind_of_point() {
    let mut rng = rng();
    let g2 = |rng: &mut dyn RngCore| G2Projective::generator() * Scalar::random_with(|| rng.next_u64());
    let mut pts: Vec<G2Projective> = vec![G2Projective::IDENTITY];
    for (l, h) in COFACTOR_OVER.iter() {
        let s = small_order(&mut rng, *l, h);
        pts.push(s);
        pts.push(s + g2(&mut rng));
        pts.push(s + twist_point(&mut rng));
    }
    for _ in 0..8 {
        let t = twist_point(&mut rng);
        pts.push(t);
        pts.push(-t);
        pts.push(g2(&mut rng));
    }
    let want: Vec<G2Projective> = pts.iter().map(G2Config::clear_cofactor).collect();
    assert_eq!(clear_cofactor_g2_batch_vartime(&pts), want);
    // random selections (repeats included) of every length; groups of plain twist points, which
    // take the lanes, and groups with one exceptional point, which fall back
    for n in 0..=20 {
        let idx: Vec<usize> = (0..n).map(|_| (rng.next_u64() % pts.len() as u64) as usize).collect();
        let batch: Vec<G2Projective> = idx.iter().map(|&i| pts[i]).collect();
        let expect: Vec<G2Projective> = idx.iter().map(|&i| want[i]).collect();
        assert_eq!(clear_cofactor_g2_batch_vartime(&batch), expect, "n = {n}, points {idx:?}");
        let plain: Vec<G2Projective> = (0..n).map(|_| twist_point(&mut rng)).collect();
        let expect: Vec<G2Projective> = plain.iter().map(G2Config::clear_cofactor).collect();
        assert_eq!(clear_cofactor_g2_batch_vartime(&plain), expect, "n = {n}, twist points");
        for p in clear_cofactor_g2_batch_vartime(&plain) {
            assert!(p.to_affine().is_in_subgroup());
        }
    }
}

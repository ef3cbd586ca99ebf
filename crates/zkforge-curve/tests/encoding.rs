//! Encodings byte for byte against blst (Zcash BLS12-381 format) and arkworks (BN254), plus
//! the malformed inputs every decoder must reject with the right typed error: wrong lengths,
//! bad flag combinations, non-canonical coordinates, points off the curve and off the subgroup.

mod common;

use blst::*;
use rand::{Rng, RngCore};
use zkforge_curve::bls12_381::{G1Affine, G1Config, G1Projective, G2Affine, G2Config, G2Projective};
use zkforge_curve::{Affine, CurveConfig, CurveError, CurveField};
use zkforge_field::bls12_381::Fr;

use common::*;

fn blst_g1_decode(b: &[u8]) -> Option<[u8; 96]> {
    let mut a = blst_p1_affine::default();
    let r = unsafe {
        if b.len() == 48 {
            blst_p1_uncompress(&mut a, b.as_ptr())
        } else if b.len() == 96 {
            // blst reads a 96-byte buffer with the C bit as a compressed point; the Zcash
            // format requires C = 0 for the uncompressed encoding, as we do.
            if b[0] & 0x80 != 0 {
                return None;
            }
            blst_p1_deserialize(&mut a, b.as_ptr())
        } else {
            return None;
        }
    };
    if r != BLST_ERROR::BLST_SUCCESS || !unsafe { blst_p1_affine_in_g1(&a) } {
        return None;
    }
    let mut out = [0u8; 96];
    unsafe { blst_p1_affine_serialize(out.as_mut_ptr(), &a) };
    Some(out)
}

fn blst_g2_decode(b: &[u8]) -> Option<[u8; 192]> {
    let mut a = blst_p2_affine::default();
    let r = unsafe {
        if b.len() == 96 {
            blst_p2_uncompress(&mut a, b.as_ptr())
        } else if b.len() == 192 {
            if b[0] & 0x80 != 0 {
                return None;
            }
            blst_p2_deserialize(&mut a, b.as_ptr())
        } else {
            return None;
        }
    };
    if r != BLST_ERROR::BLST_SUCCESS || !unsafe { blst_p2_affine_in_g2(&a) } {
        return None;
    }
    let mut out = [0u8; 192];
    unsafe { blst_p2_affine_serialize(out.as_mut_ptr(), &a) };
    Some(out)
}

fn blst_hash_g1(msg: &[u8]) -> ([u8; 48], [u8; 96]) {
    let mut p = blst_p1::default();
    let dst = b"ZKFORGE-TEST";
    unsafe { blst_hash_to_g1(&mut p, msg.as_ptr(), msg.len(), dst.as_ptr(), dst.len(), std::ptr::null(), 0) };
    let (mut c, mut u) = ([0u8; 48], [0u8; 96]);
    unsafe {
        blst_p1_compress(c.as_mut_ptr(), &p);
        blst_p1_serialize(u.as_mut_ptr(), &p);
    }
    (c, u)
}

fn blst_hash_g2(msg: &[u8]) -> ([u8; 96], [u8; 192]) {
    let mut p = blst_p2::default();
    let dst = b"ZKFORGE-TEST";
    unsafe { blst_hash_to_g2(&mut p, msg.as_ptr(), msg.len(), dst.as_ptr(), dst.len(), std::ptr::null(), 0) };
    let (mut c, mut u) = ([0u8; 96], [0u8; 192]);
    unsafe {
        blst_p2_compress(c.as_mut_ptr(), &p);
        blst_p2_serialize(u.as_mut_ptr(), &p);
    }
    (c, u)
}

fn off_subgroup<C: CurveConfig>(rng: &mut impl RngCore) -> Affine<C> {
    loop {
        let x = C::Base::random(rng);
        if let Some(y) = Option::<C::Base>::from((x.square() * x + C::B).sqrt()) {
            let p = Affine::new_unchecked(x, y);
            if !p.is_in_subgroup() {
                return p;
            }
        }
    }
}

fn non_square_x<C: CurveConfig>(rng: &mut impl RngCore) -> C::Base {
    loop {
        let x = C::Base::random(rng);
        if bool::from((x.square() * x + C::B).sqrt().is_none()) {
            return x;
        }
    }
}

#[test]
fn g1_zcash_format_vs_blst() {
    let mut rng = rng();
    for i in 0..iters(300) {
        let msg: [u8; 16] = rng.gen();
        let (c, u) = blst_hash_g1(&msg);
        let p = G1Affine::from_compressed(&c).unwrap();
        assert_eq!(G1Affine::from_uncompressed(&u).unwrap(), p);
        assert_eq!(p.to_compressed(), c);
        assert_eq!(p.to_uncompressed(), u);
        // our random points through blst
        let q = (G1Projective::generator() * Fr::random(&mut rng)).to_affine();
        assert_eq!(blst_g1_decode(&q.to_compressed()).unwrap(), q.to_uncompressed());
        assert_eq!(blst_g1_decode(&q.to_uncompressed()).unwrap(), q.to_uncompressed());
        // random single-byte / single-bit corruptions: accept exactly when blst does, same point
        for enc in [&c[..], &u[..]] {
            let mut bad = enc.to_vec();
            let pos = if i % 3 == 0 { 0 } else { rng.gen_range(0..bad.len()) };
            bad[pos] ^= 1 << rng.gen_range(0..8);
            let ours = if bad.len() == 48 { G1Affine::from_compressed(&bad) } else { G1Affine::from_uncompressed(&bad) };
            match (ours, blst_g1_decode(&bad)) {
                (Ok(o), Some(b)) => assert_eq!(o.to_uncompressed(), b),
                (Err(_), None) => {}
                (o, b) => panic!("disagree on {bad:02x?}: ours {o:?}, blst {}", b.is_some()),
            }
        }
    }
}

#[test]
fn g2_zcash_format_vs_blst() {
    let mut rng = rng();
    for i in 0..iters(100) {
        let msg: [u8; 16] = rng.gen();
        let (c, u) = blst_hash_g2(&msg);
        let p = G2Affine::from_compressed(&c).unwrap();
        assert_eq!(G2Affine::from_uncompressed(&u).unwrap(), p);
        assert_eq!(p.to_compressed(), c);
        assert_eq!(p.to_uncompressed(), u);
        let q = (G2Projective::generator() * Fr::random(&mut rng)).to_affine();
        assert_eq!(blst_g2_decode(&q.to_compressed()).unwrap(), q.to_uncompressed());
        for enc in [&c[..], &u[..]] {
            let mut bad = enc.to_vec();
            let pos = if i % 3 == 0 { 0 } else { rng.gen_range(0..bad.len()) };
            bad[pos] ^= 1 << rng.gen_range(0..8);
            let ours = if bad.len() == 96 { G2Affine::from_compressed(&bad) } else { G2Affine::from_uncompressed(&bad) };
            match (ours, blst_g2_decode(&bad)) {
                (Ok(o), Some(b)) => assert_eq!(o.to_uncompressed(), b),
                (Err(_), None) => {}
                (o, b) => panic!("disagree: ours {o:?}, blst {}", b.is_some()),
            }
        }
    }
}

#[test]
fn zcash_identity_and_malformed() {
    let mut rng = rng();
    // identity
    let mut c = [0u8; 48];
    c[0] = 0xc0;
    assert_eq!(G1Affine::IDENTITY.to_compressed(), c);
    assert!(bool::from(G1Affine::from_compressed(&c).unwrap().is_identity()));
    let mut u = [0u8; 96];
    u[0] = 0x40;
    assert_eq!(G1Affine::IDENTITY.to_uncompressed(), u);
    assert!(bool::from(G1Affine::from_uncompressed(&u).unwrap().is_identity()));
    assert_eq!(blst_g1_decode(&c).unwrap(), u);
    let mut c2 = [0u8; 96];
    c2[0] = 0xc0;
    assert_eq!(G2Affine::IDENTITY.to_compressed(), c2);
    assert!(bool::from(G2Affine::from_compressed(&c2).unwrap().is_identity()));
    // infinity with the sign bit, with coordinate bits, uncompressed with the C bit
    let mut bad = c;
    bad[0] |= 0x20;
    assert_eq!(G1Affine::from_compressed(&bad), Err(CurveError::InvalidFlags));
    let mut bad = c;
    bad[47] = 1;
    assert_eq!(G1Affine::from_compressed(&bad), Err(CurveError::InvalidInfinity));
    let mut bad = u;
    bad[95] = 1;
    assert_eq!(G1Affine::from_uncompressed(&bad), Err(CurveError::InvalidInfinity));
    let g = G1Affine::generator();
    let mut bad = g.to_compressed();
    bad[0] &= 0x7f;
    assert_eq!(G1Affine::from_compressed(&bad), Err(CurveError::InvalidFlags));
    let mut bad = g.to_uncompressed();
    bad[0] |= 0x80;
    assert_eq!(G1Affine::from_uncompressed(&bad), Err(CurveError::InvalidFlags));
    let mut bad = g.to_uncompressed();
    bad[0] |= 0x20;
    assert_eq!(G1Affine::from_uncompressed(&bad), Err(CurveError::InvalidFlags));
    // all-zero 48 bytes (no C flag)
    assert_eq!(G1Affine::from_compressed(&[0u8; 48]), Err(CurveError::InvalidFlags));
    // x = p (non-canonical)
    let p_be = zkforge_field::bls12_381::Fp::ZERO - zkforge_field::bls12_381::Fp::ONE;
    let mut xp = p_be.to_bytes_be();
    xp[47] += 1; // p - 1 + 1 = p, no carry (p ends in 0xab)
    let mut bad = [0u8; 48];
    bad.copy_from_slice(&xp);
    bad[0] |= 0x80;
    assert_eq!(G1Affine::from_compressed(&bad), Err(CurveError::NonCanonical));
    assert!(blst_g1_decode(&bad).is_none());
    // x with no y
    let x = non_square_x::<G1Config>(&mut rng);
    let mut bad = [0u8; 48];
    bad.copy_from_slice(&x.to_bytes_be());
    bad[0] |= 0x80;
    assert_eq!(G1Affine::from_compressed(&bad), Err(CurveError::NotOnCurve));
    // on the curve, off the subgroup: unchecked accepts, checked rejects, blst rejects
    let q = off_subgroup::<G1Config>(&mut rng);
    assert_eq!(G1Affine::from_compressed_unchecked(&q.to_compressed()).unwrap(), q);
    assert_eq!(G1Affine::from_compressed(&q.to_compressed()), Err(CurveError::NotInSubgroup));
    assert_eq!(G1Affine::from_uncompressed(&q.to_uncompressed()), Err(CurveError::NotInSubgroup));
    assert!(blst_g1_decode(&q.to_compressed()).is_none());
    let q2 = off_subgroup::<G2Config>(&mut rng);
    assert_eq!(G2Affine::from_compressed_unchecked(&q2.to_compressed()).unwrap(), q2);
    assert_eq!(G2Affine::from_compressed(&q2.to_compressed()), Err(CurveError::NotInSubgroup));
    assert!(blst_g2_decode(&q2.to_compressed()).is_none());
    // off the curve (uncompressed)
    let mut off = g.to_uncompressed();
    off[95] ^= 1;
    assert_eq!(G1Affine::from_uncompressed(&off), Err(CurveError::NotOnCurve));
    // lengths
    for n in [0usize, 47, 49, 95, 97, 191, 193] {
        let v = vec![0u8; n];
        if n != 48 {
            assert!(matches!(G1Affine::from_compressed(&v), Err(CurveError::WrongLength { .. })));
        }
        if n != 96 {
            assert!(matches!(G1Affine::from_uncompressed(&v), Err(CurveError::WrongLength { .. })));
            assert!(matches!(G2Affine::from_compressed(&v), Err(CurveError::WrongLength { .. })));
        }
        if n != 192 {
            assert!(matches!(G2Affine::from_uncompressed(&v), Err(CurveError::WrongLength { .. })));
        }
    }
}


/// Our hash_to_g1 / hash_to_g2 (RO suites) against blst's on random messages and DSTs, under
/// every value of the two hash switches: the G1 random-oracle form and how the two SSWU maps
/// run their exponentiations.
#[test]
fn hashes_match_blst_under_every_switch() {
    use zkforge_curve::hash_to_curve::*;
    let forms = [G1RandomOracleForm::Auto, G1RandomOracleForm::AddOnIsogenous, G1RandomOracleForm::MapThenAdd];
    let exps = [SswuExponentiations::Auto, SswuExponentiations::Interleaved, SswuExponentiations::OneByOne];
    let mut rng = rng();
    for _ in 0..iters(20) {
        let msg: Vec<u8> = (0..rng.gen_range(0..100)).map(|_| rng.gen()).collect();
        let dst: Vec<u8> = (0..rng.gen_range(1..40)).map(|_| rng.gen()).collect();
        let (mut p1, mut p2) = (blst_p1::default(), blst_p2::default());
        let (mut w1, mut w2) = ([0u8; 96], [0u8; 192]);
        unsafe {
            blst_hash_to_g1(&mut p1, msg.as_ptr(), msg.len(), dst.as_ptr(), dst.len(), std::ptr::null(), 0);
            blst_hash_to_g2(&mut p2, msg.as_ptr(), msg.len(), dst.as_ptr(), dst.len(), std::ptr::null(), 0);
            blst_p1_serialize(w1.as_mut_ptr(), &p1);
            blst_p2_serialize(w2.as_mut_ptr(), &p2);
        }
        for e in exps {
            set_sswu_exponentiations(e);
            for f in forms {
                set_g1_ro_form(f);
                assert_eq!(hash_to_g1(&msg, &dst).unwrap().to_uncompressed(), w1, "{f:?} {e:?}");
            }
            assert_eq!(hash_to_g2(&msg, &dst).unwrap().to_uncompressed(), w2, "{e:?}");
        }
    }
    set_g1_ro_form(G1RandomOracleForm::Auto);
    set_sswu_exponentiations(SswuExponentiations::Auto);
}

//! `ifma::bls12_381_g1_from_compressed_batch_unchecked` against `G1Affine::from_compressed_unchecked`
//! one by one: random points of both signs, random x (about half have no root), x = p - 1 and
//! other edge values, non-canonical x (x >= p, x = 2^381 - 1), the identity and malformed
//! identities, every flag combination and wrong lengths, mixed into batches of every size from 0
//! to 40. (No point has y = 0: the cofactor of G1 is odd, so x^3 = -4 has no root.)

use rand::{rngs::StdRng, Rng, SeedableRng};
use zkforge_curve::bls12_381::{G1Affine, G1Config};
use zkforge_curve::sample_points;
use zkforge_field::bls12_381::Fp;
use zkforge_msm::ifma::bls12_381_g1_from_compressed_batch_unchecked;

fn check(inputs: &[Vec<u8>], what: &str) {
    let got = bls12_381_g1_from_compressed_batch_unchecked(inputs);
    assert_eq!(got.len(), inputs.len());
    for (i, (g, b)) in got.iter().zip(inputs).enumerate() {
        assert_eq!(*g, G1Affine::from_compressed_unchecked(b), "{what}: input {i} {}", hex(b));
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|v| format!("{v:02x}")).collect()
}

fn with_flags(x: &[u8; 48], flags: u8) -> Vec<u8> {
    let mut v = x.to_vec();
    v[0] = (v[0] & 0x1f) | flags;
    v
}

fn odd_inputs(rng: &mut StdRng) -> Vec<Vec<u8>> {
    let p_minus_1 = (-Fp::ONE).to_bytes_be();
    let mut p_bytes = [0u8; 48];
    // p itself: p - 1 plus one, big-endian
    p_bytes.copy_from_slice(p_minus_1.as_ref());
    for i in (0..48).rev() {
        let (s, c) = p_bytes[i].overflowing_add(1);
        p_bytes[i] = s;
        if !c {
            break;
        }
    }
    let mut top = [0xffu8; 48];
    top[0] = 0x1f;
    let mut v: Vec<Vec<u8>> = Vec::new();
    for flags in [0x80u8, 0xa0, 0x00, 0x20, 0x40, 0x60, 0xc0, 0xe0] {
        let mut one = [0u8; 48];
        one[47] = 1;
        v.push(with_flags(&one, flags));
        let mut pm1 = [0u8; 48];
        pm1.copy_from_slice(p_minus_1.as_ref());
        v.push(with_flags(&pm1, flags));
        v.push(with_flags(&p_bytes, flags));
        v.push(with_flags(&top, flags));
        v.push(with_flags(&[0u8; 48], flags));
    }
    // malformed identities, wrong lengths
    let mut inf = [0u8; 48];
    inf[0] = 0xc0;
    inf[47] = 1;
    v.push(inf.to_vec());
    v.push(vec![0xc0; 47]);
    v.push(vec![0x80; 49]);
    v.push(Vec::new());
    // random x of both flags (about half without a root)
    for _ in 0..24 {
        let x = Fp::random(&mut *rng).to_bytes_be();
        let mut xb = [0u8; 48];
        xb.copy_from_slice(x.as_ref());
        v.push(with_flags(&xb, if rng.gen() { 0x80 } else { 0xa0 }));
    }
    v
}

#[test]
fn batches_match_the_scalar_decoder() {
    let mut rng = StdRng::seed_from_u64(381);
    let pts = sample_points::<G1Config>(&mut rng, 64);
    let valid: Vec<Vec<u8>> = pts.iter().flat_map(|p| [p.to_compressed().to_vec(), (-*p).to_compressed().to_vec()]).collect();
    let odd = odd_inputs(&mut rng);
    check(&[], "empty");
    for n in 0..=40 {
        // valid points only, then valid points with odd ones mixed in at random places
        let only: Vec<Vec<u8>> = (0..n).map(|i| valid[(i * 7) % valid.len()].clone()).collect();
        check(&only, &format!("{n} valid"));
        let mixed: Vec<Vec<u8>> = (0..n).map(|_| if rng.gen_bool(0.3) { odd[rng.gen_range(0..odd.len())].clone() } else { valid[rng.gen_range(0..valid.len())].clone() }).collect();
        check(&mixed, &format!("{n} mixed"));
    }
    // every odd input in one batch, and each inside a batch of valid points
    check(&odd, "all odd inputs");
    for o in &odd {
        let mut b: Vec<Vec<u8>> = valid[..11].to_vec();
        b.insert(5, o.clone());
        check(&b, "one odd input among valid points");
    }
}

#[test]
fn random_x_of_both_signs() {
    let mut rng = StdRng::seed_from_u64(4);
    let xs: Vec<Vec<u8>> = (0..200)
        .map(|i| {
            let x = Fp::random(&mut rng).to_bytes_be();
            let mut xb = [0u8; 48];
            xb.copy_from_slice(x.as_ref());
            with_flags(&xb, if i % 2 == 0 { 0x80 } else { 0xa0 })
        })
        .collect();
    check(&xs, "random x");
}

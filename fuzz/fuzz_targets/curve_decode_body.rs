// Shared body of the `curve_decode` fuzz target and of the curve crate's decode smoke test
// (`crates/zkforge-curve/tests/decode_smoke.rs`), which runs it on seeded random inputs in CI.
// Included with `include!`; the includer imports the names used here.

fn decode_all(sel: u8, b: &[u8]) {
    match sel % 10 {
        0 => {
            if let Ok(p) = G1Affine::from_compressed(b) {
                assert!(p.is_in_subgroup());
                assert_eq!(&p.to_compressed()[..], b);
            }
            if let Ok(p) = G1Affine::from_compressed_unchecked(b) {
                assert!(p.is_on_curve());
                assert_eq!(&p.to_compressed()[..], b);
            }
        }
        1 => {
            if let Ok(p) = G1Affine::from_uncompressed(b) {
                assert!(p.is_in_subgroup());
                assert_eq!(&p.to_uncompressed()[..], b);
            }
            let _ = G1Affine::from_uncompressed_unchecked(b);
        }
        2 => {
            if let Ok(p) = G2Affine::from_compressed(b) {
                assert!(p.is_in_subgroup());
                assert_eq!(&p.to_compressed()[..], b);
            }
            let _ = G2Affine::from_compressed_unchecked(b);
        }
        3 => {
            if let Ok(p) = G2Affine::from_uncompressed(b) {
                assert!(p.is_in_subgroup());
                assert_eq!(&p.to_uncompressed()[..], b);
            }
            let _ = G2Affine::from_uncompressed_unchecked(b);
        }
        4 => {
            if let Ok(p) = G1Affine::from_eip2537(b) {
                assert!(p.is_in_subgroup());
                assert_eq!(&p.to_eip2537()[..], b);
            }
            if let Ok(p) = G1Affine::from_eip2537_unchecked(b) {
                assert!(p.is_on_curve());
                assert_eq!(&p.to_eip2537()[..], b);
            }
        }
        5 => {
            if let Ok(p) = G2Affine::from_eip2537(b) {
                assert!(p.is_in_subgroup());
                assert_eq!(&p.to_eip2537()[..], b);
            }
            if let Ok(p) = G2Affine::from_eip2537_unchecked(b) {
                assert!(p.is_on_curve());
                assert_eq!(&p.to_eip2537()[..], b);
            }
        }
        6 => {
            if let Ok(u) = fp_from_eip2537(b) {
                assert!(map_fp_to_g1(&u).is_in_subgroup());
            }
            if let Ok(u) = fp2_from_eip2537(b) {
                assert!(map_fp2_to_g2(&u).is_in_subgroup());
            }
        }
        7 => {
            if let Ok(p) = BnG1::from_eip196(b) {
                assert!(p.is_on_curve());
                assert_eq!(&p.to_eip196()[..], b);
            }
        }
        _ => {
            if let Ok(p) = BnG2::from_eip197(b) {
                assert!(p.is_in_subgroup());
                assert_eq!(&p.to_eip197()[..], b);
            }
        }
    }
}

/// A valid encoding of kind `sel` must decode, through the checked decoder, to a point that
/// re-encodes to the same bytes (the `if let Ok` arms above would pass a decoder that rejects
/// everything).
fn must_decode(sel: u8, b: &[u8]) {
    let ok = match sel % 10 {
        0 => G1Affine::from_compressed(b).map(|p| p.to_compressed().to_vec()),
        1 => G1Affine::from_uncompressed(b).map(|p| p.to_uncompressed().to_vec()),
        2 => G2Affine::from_compressed(b).map(|p| p.to_compressed().to_vec()),
        3 => G2Affine::from_uncompressed(b).map(|p| p.to_uncompressed().to_vec()),
        4 => G1Affine::from_eip2537(b).map(|p| p.to_eip2537().to_vec()),
        5 => G2Affine::from_eip2537(b).map(|p| p.to_eip2537().to_vec()),
        6 => fp_from_eip2537(b).map(|u| {
            let mut v = vec![0u8; 16];
            v.extend_from_slice(u.to_bytes_be().as_ref());
            v
        }),
        7 => BnG1::from_eip196(b).map(|p| p.to_eip196().to_vec()),
        _ => BnG2::from_eip197(b).map(|p| p.to_eip197().to_vec()),
    };
    match ok {
        Ok(v) => assert_eq!(v, b, "selector {sel}: a valid encoding did not round-trip"),
        Err(e) => panic!("selector {sel}: a valid encoding was rejected: {e}"),
    }
}

/// One fuzz input: selector, mode, position, payload (see the fuzz target's header).
pub fn one_input(data: &[u8]) {
    if data.len() < 3 {
        return;
    }
    let (sel, mode, pos, rest) = (data[0], data[1], data[2], &data[3..]);
    if mode & 1 == 0 {
        decode_all(sel, rest);
        return;
    }
    // a valid encoding of the selected kind, then one corrupted byte
    let g1 = map_fp_to_g1(&bls12_381::Fp::from_bytes_be_mod_order(rest));
    let g2 = map_fp2_to_g2(&bls12_381::Fp2::new(bls12_381::Fp::from_bytes_be_mod_order(rest), bls12_381::Fp::ONE));
    let bn1 = map_to_curve_bn254_g1(&bn254::Fp::from_bytes_be_mod_order(rest));
    let mut enc: Vec<u8> = match sel % 10 {
        0 => g1.to_compressed().to_vec(),
        1 => g1.to_uncompressed().to_vec(),
        2 => g2.to_compressed().to_vec(),
        3 => g2.to_uncompressed().to_vec(),
        4 => g1.to_eip2537().to_vec(),
        5 => g2.to_eip2537().to_vec(),
        6 => g1.to_eip2537()[..64].to_vec(),
        7 => bn1.to_eip196().to_vec(),
        _ => {
            let q = (zkforge_curve::bn254::G2Projective::generator() * bn254::Fr::from_bytes_be_mod_order(rest)).to_affine();
            q.to_eip197().to_vec()
        }
    };
    must_decode(sel, &enc);
    decode_all(sel, &enc);
    let i = pos as usize % enc.len();
    enc[i] ^= mode;
    decode_all(sel, &enc);
}

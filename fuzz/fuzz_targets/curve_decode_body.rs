// Shared body of the `curve_decode` fuzz target and of the curve crate's decode smoke test
// (`crates/zkforge-curve/tests/decode_smoke.rs`), which runs it on seeded random inputs in CI.
// Included with `include!`; the includer imports the names used here.

fn decode_all(sel: u8, b: &[u8]) {
    match sel % 4 {
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
        _ => {
            if let Ok(p) = G2Affine::from_uncompressed(b) {
                assert!(p.is_in_subgroup());
                assert_eq!(&p.to_uncompressed()[..], b);
            }
            let _ = G2Affine::from_uncompressed_unchecked(b);
        }
    }
}

/// A valid encoding of kind `sel` must decode, through the checked decoder, to a point that
/// re-encodes to the same bytes (the `if let Ok` arms above would pass a decoder that rejects
/// everything).
fn must_decode(sel: u8, b: &[u8]) {
    let ok = match sel % 4 {
        0 => G1Affine::from_compressed(b).map(|p| p.to_compressed().to_vec()),
        1 => G1Affine::from_uncompressed(b).map(|p| p.to_uncompressed().to_vec()),
        2 => G2Affine::from_compressed(b).map(|p| p.to_compressed().to_vec()),
        _ => G2Affine::from_uncompressed(b).map(|p| p.to_uncompressed().to_vec()),
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
    let mut enc: Vec<u8> = match sel % 4 {
        0 => g1.to_compressed().to_vec(),
        1 => g1.to_uncompressed().to_vec(),
        2 => g2.to_compressed().to_vec(),
        _ => g2.to_uncompressed().to_vec(),
    };
    must_decode(sel, &enc);
    decode_all(sel, &enc);
    let i = pos as usize % enc.len();
    enc[i] ^= mode;
    decode_all(sel, &enc);
}

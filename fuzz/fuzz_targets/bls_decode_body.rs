// Shared body of the `bls_decode` fuzz target and of the BLS crate's decode smoke test
// (`crates/zkforge-bls/tests/decode_smoke.rs`), which runs it on seeded random inputs in CI.
// Included with `include!`; the includer imports the names used here.

/// Every decoder of zkforge-bls on `b`: Ok or a typed error, never a panic; what is accepted
/// re-encodes to the same bytes, a key passes KeyValidate, a validated signature is in G2, and
/// verifying a decoded signature under a decoded key answers (true or false) without panicking.
fn decode_all(sel: u8, b: &[u8]) {
    match sel % 3 {
        0 => {
            if let Ok(sk) = SecretKey::from_bytes(b) {
                assert_eq!(&sk.to_bytes()[..], b);
                let pk = sk.public_key();
                assert!(zkforge_bls::verify(&pk, b, &sk.sign(b)));
            }
        }
        1 => {
            if let Ok(pk) = PublicKey::from_bytes(b) {
                assert_eq!(&pk.to_bytes()[..], b);
                assert!(pk.as_affine().is_in_subgroup());
                assert!(!bool::from(pk.as_affine().is_identity()));
            }
        }
        _ => {
            if let Ok(s) = Signature::from_bytes(b) {
                assert_eq!(&s.to_bytes()[..], b);
                assert_eq!(Signature::from_bytes_validated(b).is_ok(), s.is_in_subgroup());
                let pk = SecretKey::from_bytes(&[7u8; 32]).unwrap().public_key();
                let _ = zkforge_bls::verify(&pk, b"fuzz", &s);
            }
        }
    }
}

/// One fuzz input: selector, mode, position, payload. Mode bit 0 clear: the payload as it is;
/// set: a valid encoding of the selected kind derived from the payload with one byte flipped.
pub fn one_input(data: &[u8]) {
    if data.len() < 3 {
        return;
    }
    let (sel, mode, pos, rest) = (data[0], data[1], data[2], &data[3..]);
    if mode & 1 == 0 {
        decode_all(sel, rest);
        return;
    }
    let mut ikm = [0u8; 32];
    for (i, b) in rest.iter().enumerate() {
        ikm[i % 32] ^= *b;
    }
    let sk = SecretKey::key_gen(&ikm, b"fuzz").unwrap();
    let mut enc: Vec<u8> = match sel % 3 {
        0 => sk.to_bytes().to_vec(),
        1 => sk.public_key().to_bytes().to_vec(),
        _ => sk.sign(rest).to_bytes().to_vec(),
    };
    decode_all(sel, &enc);
    let i = pos as usize % enc.len();
    enc[i] ^= mode;
    decode_all(sel, &enc);
}

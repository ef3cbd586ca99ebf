// Shared body of the `bls_keystore` fuzz target and of the BLS crate's keystore smoke test
// (`crates/zkforge-bls/tests/keystore_smoke.rs`), which runs it on seeded random inputs in CI.
// Included with `include!`; the includer imports the names used here.

/// Parses `text` as an EIP-2335 keystore: Ok or a typed error, never a panic. What parses
/// writes back to JSON that parses to the same keystore, and, where its KDF is cheap, opening
/// it with a password answers (a key or a typed error) without panicking.
fn parse_and_open(text: &str) {
    let Ok(ks) = Keystore::from_json(text) else { return };
    assert_eq!(Keystore::from_json(&ks.to_json()).as_ref(), Ok(&ks));
    let cheap = match &ks.kdf {
        Kdf::Scrypt { n, r, p, .. } => n.saturating_mul(*r).saturating_mul(*p) <= 1 << 12,
        Kdf::Pbkdf2 { c, .. } => *c <= 1 << 10,
    };
    if cheap {
        let _ = ks.decrypt("fuzz");
    }
}

/// A small valid keystore (cheap KDF) of a key derived from `seed`.
fn valid_keystore(seed: &[u8], pbkdf2: bool) -> String {
    let mut ikm = [0u8; 32];
    for (i, b) in seed.iter().enumerate() {
        ikm[i % 32] ^= *b;
    }
    let sk = SecretKey::derive_master(&ikm).unwrap();
    let kdf = if pbkdf2 { Kdf::Pbkdf2 { c: 2, salt: seed.to_vec() } } else { Kdf::Scrypt { n: 4, r: 1, p: 1, salt: seed.to_vec() } };
    Keystore::encrypt_with(&sk, "fuzz", kdf, [7; 16], "00000000-0000-4000-8000-000000000000", "m/12381/3600/0/0/0", "fuzz").unwrap().to_json()
}

/// One fuzz input: mode, position, payload. Mode bit 0 clear: the payload (as UTF-8, lossy)
/// is the document; set: a valid keystore derived from the payload with one byte changed.
pub fn one_input(data: &[u8]) {
    if data.len() < 2 {
        return;
    }
    let (mode, pos, rest) = (data[0], data[1], &data[2..]);
    if mode & 1 == 0 {
        parse_and_open(&String::from_utf8_lossy(rest));
        return;
    }
    let text = valid_keystore(rest, mode & 2 != 0);
    parse_and_open(&text);
    let mut b = text.into_bytes();
    let i = (pos as usize * 7 + rest.len()) % b.len();
    b[i] = mode;
    parse_and_open(&String::from_utf8_lossy(&b));
}

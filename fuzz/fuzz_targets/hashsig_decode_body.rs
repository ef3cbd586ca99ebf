// Body of the `hashsig_decode` fuzz target, shared with
// crates/zkforge-hashsig/tests/decode_smoke.rs. Expects in scope:
// zkforge_hashsig::scheme::{PublicKey, Signature}.
//
// Byte 0 picks the decoder (signature bincode-legacy / SSZ, public key bincode-legacy / SSZ)
// for the top-level 2^8 shape (8 co-path nodes, 64 chains, HASH_LEN 8, RAND_LEN 7). Any input
// gives Ok or a typed error, never a panic; an accepted input re-encodes to the same bytes.

fn one_input(data: &[u8]) {
    if data.is_empty() {
        return;
    }
    let (sel, rest) = (data[0], &data[1..]);
    match sel % 4 {
        0 => {
            if let Ok(s) = Signature::<7, 8>::from_bincode_legacy(rest, 8, 64) {
                assert_eq!(s.to_bincode_legacy(), rest);
            }
        }
        1 => {
            if let Ok(s) = Signature::<7, 8>::from_ssz(rest, 8, 64) {
                assert_eq!(s.to_ssz(), rest);
            }
        }
        2 => {
            if let Ok(k) = PublicKey::<5, 8>::from_bincode_legacy(rest) {
                assert_eq!(k.to_bincode_legacy(), rest);
            }
        }
        _ => {
            if let Ok(k) = PublicKey::<5, 8>::from_ssz(rest) {
                assert_eq!(k.to_ssz(), rest);
            }
        }
    }
}

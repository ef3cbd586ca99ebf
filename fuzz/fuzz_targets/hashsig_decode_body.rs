// Body of the `hashsig_decode` fuzz target, shared with
// crates/zkforge-hashsig/tests/decode_smoke.rs. Expects in scope:
// zkforge_hashsig::scheme::{PublicKey, Signature} and zkforge_hashsig::sha3_xmss::sha3_instance_by_name.
//
// Byte 0 picks the decoder (signature bincode-legacy / SSZ, public key bincode-legacy / SSZ,
// Winternitz 2^18 signature with HASH_LEN 7 / RAND_LEN 5, SHA3 Winternitz signature and public
// key) for the top-level 2^8 shape (8 co-path nodes, 64 chains, HASH_LEN 8, RAND_LEN 7). Any input
// gives Ok or a typed error, never a panic; an accepted input re-encodes to the same bytes.

fn one_input(data: &[u8]) {
    if data.is_empty() {
        return;
    }
    let (sel, rest) = (data[0], &data[1..]);
    match sel % 7 {
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
        4 => {
            if let Ok(s) = Signature::<5, 7>::from_bincode_legacy(rest, 18, 22) {
                assert_eq!(s.to_bincode_legacy(), rest);
            }
        }
        5 => {
            let inst = sha3_instance_by_name("sha3_winternitz_lifetime18_w8").expect("known");
            if let Ok(s) = inst.signature_from_bytes(rest) {
                assert_eq!(inst.signature_to_bytes(&s), rest);
            }
            if let Ok((root, parameter)) = inst.public_key_from_bytes(rest) {
                assert_eq!(root[..28], rest[..28]);
                assert_eq!(parameter[..], rest[28..]);
            }
        }
        _ => {
            if let Ok(k) = PublicKey::<5, 8>::from_ssz(rest) {
                assert_eq!(k.to_ssz(), rest);
            }
        }
    }
}

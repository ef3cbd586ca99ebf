// Body of the `gt_decode` fuzz target, shared with crates/zkforge-pairing/tests/gt_smoke.rs.
// Expects in scope: zkforge_pairing::{bls12_381 as pb, bn254 as pn}.
//
// Byte 0 picks the curve and the mode: raw bytes, or a valid Gt element (a power of the
// generator chosen by the input) with one input-chosen byte corrupted. Any input gives Ok or
// a typed error, never a panic; an accepted element re-encodes to the same bytes and its
// r-th power is one.

fn one_input(data: &[u8]) {
    if data.is_empty() {
        return;
    }
    let (sel, rest) = (data[0], &data[1..]);
    // a valid element must decode (and re-encode) before it is corrupted
    let mutate = |valid: Vec<u8>| -> Vec<u8> {
        let ok = if valid.len() == 576 { pb::Gt::from_bytes(&valid).map(|g| g.to_bytes().to_vec()) } else { pn::Gt::from_bytes(&valid).map(|g| g.to_bytes().to_vec()) };
        assert_eq!(ok.as_deref(), Ok(&valid[..]), "a valid Gt encoding was rejected or changed");
        let mut v = valid;
        if rest.len() >= 3 {
            let pos = (rest[0] as usize | (rest[1] as usize) << 8) % v.len();
            v[pos] ^= rest[2] | 1;
        }
        v
    };
    let k = [rest.first().copied().unwrap_or(1) as u64 + 1, 0, 0, 0];
    if sel % 4 < 2 {
        let bytes = if sel % 4 == 0 { rest.to_vec() } else { mutate(pb::Gt::generator().pow_vartime(&k).to_bytes().to_vec()) };
        if let Ok(g) = pb::Gt::from_bytes(&bytes) {
            assert_eq!(g.to_bytes()[..], bytes[..]);
        }
    } else {
        let bytes = if sel % 4 == 2 { rest.to_vec() } else { mutate(pn::Gt::generator().pow_vartime(&k).to_bytes().to_vec()) };
        if let Ok(g) = pn::Gt::from_bytes(&bytes) {
            assert_eq!(g.to_bytes()[..], bytes[..]);
        }
    }
}

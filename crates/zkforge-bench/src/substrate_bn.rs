//! The substrate-bn peer of the BN254 precompile rows (ecAdd 0x06, ecMul 0x07, ecPairing
//! 0x08): the backend revm-precompile builds with its `bn` feature, called here directly
//! because a revm build has one BN254 backend and this workspace's is arkworks (the default).
//! The framing is EIP-196/197's, written here against substrate-bn's public API (inputs
//! right-padded with zeros, coordinates checked below p and on the curve, G2 points in the
//! subgroup by `AffineG2::new`, (0, 0) as the identity, scalars taken mod r), so the row does
//! the same work as a precompile call: decode with every check, the arithmetic, encode.
//! substrate-bn's scalar multiplication and pairing are variable time: the peer is labelled so.

use substrate_bn::{pairing_batch, AffineG1, AffineG2, Fq, Fq2, Fr, Group, Gt, G1, G2};

/// Peer name in the table.
pub const NAME: &str = "substrate-bn-vartime";

fn padded(input: &[u8], len: usize) -> Vec<u8> {
    let mut v = input[..input.len().min(len)].to_vec();
    v.resize(len, 0);
    v
}

fn fq(b: &[u8]) -> Option<Fq> {
    Fq::from_slice(b).ok()
}

fn g1(b: &[u8]) -> Option<G1> {
    let (x, y) = (fq(&b[..32])?, fq(&b[32..64])?);
    if x.is_zero() && y.is_zero() {
        return Some(G1::zero());
    }
    AffineG1::new(x, y).ok().map(G1::from)
}

fn g2(b: &[u8]) -> Option<G2> {
    // EIP-197: each Fq2 coordinate is (imaginary, real)
    let x = Fq2::new(fq(&b[32..64])?, fq(&b[..32])?);
    let y = Fq2::new(fq(&b[96..128])?, fq(&b[64..96])?);
    if x.is_zero() && y.is_zero() {
        return Some(G2::zero());
    }
    AffineG2::new(x, y).ok().map(G2::from)
}

fn encode_g1(p: G1) -> Vec<u8> {
    let mut out = vec![0u8; 64];
    if let Some(a) = AffineG1::from_jacobian(p) {
        a.x().to_big_endian(&mut out[..32]).ok();
        a.y().to_big_endian(&mut out[32..]).ok();
    }
    out
}

/// One precompile call at `address` (0x06, 0x07 or 0x08); `None` for an input the EIPs reject.
pub fn call(address: u8, input: &[u8]) -> Option<Vec<u8>> {
    match address {
        0x06 => {
            let b = padded(input, 128);
            Some(encode_g1(g1(&b[..64])? + g1(&b[64..])?))
        }
        0x07 => {
            let b = padded(input, 96);
            let k = Fr::from_slice(&b[64..96]).ok()?;
            Some(encode_g1(g1(&b[..64])? * k))
        }
        0x08 => {
            if input.len() % 192 != 0 {
                return None;
            }
            let mut pairs = Vec::with_capacity(input.len() / 192);
            for c in input.chunks_exact(192) {
                let (p, q) = (g1(&c[..64])?, g2(&c[64..])?);
                if !p.is_zero() && !q.is_zero() {
                    pairs.push((p, q));
                }
            }
            let one = pairs.is_empty() || pairing_batch(&pairs) == Gt::one();
            let mut out = vec![0u8; 32];
            out[31] = one as u8;
            Some(out)
        }
        _ => None,
    }
}

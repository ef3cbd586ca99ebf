//! BN254 G1 compressed encoding, gnark-crypto's format (32 bytes).
//!
//! gnark-crypto `ecc/bn254/marshal.go`: x as 32 big-endian bytes; since p < 2^254 the two top
//! bits of the first byte are free and carry the mode: `0b10` compressed with the
//! lexicographically smallest y (y <= (p-1)/2), `0b11` compressed with the largest, `0b01` the
//! point at infinity (all other bits zero); `0b00` is gnark's uncompressed form, which this
//! 32-byte decoder rejects. G1 has cofactor 1, so on the curve means in the group.
//! The EVM's 64-byte EIP-196 format lives in `zkforge-evm`.

use zkforge_field::bn254::Fp;

use super::G1Affine;
use crate::field::CurveField;
use crate::{check_len, Affine, CurveConfig, CurveError};

const MASK: u8 = 0b11 << 6;
const SMALLEST: u8 = 0b10 << 6;
const LARGEST: u8 = 0b11 << 6;
const INFINITY: u8 = 0b01 << 6;

impl G1Affine {
    /// The 32-byte compressed encoding (gnark-crypto's `Bytes()`).
    ///
    /// ```
    /// use zkforge_curve::bn254::G1Affine;
    /// let g = G1Affine::generator();
    /// assert_eq!(G1Affine::from_compressed(&g.to_compressed()).unwrap(), g);
    /// ```
    pub fn to_compressed(&self) -> [u8; 32] {
        let mut out = [0u8; 32];
        if self.is_identity_vartime() {
            out[0] = INFINITY;
            return out;
        }
        out.copy_from_slice(self.x.to_bytes_be().as_ref());
        out[0] |= if bool::from(self.y.lexicographically_largest()) { LARGEST } else { SMALLEST };
        out
    }

    /// Decode a 32-byte compressed point: checks the length, the mode bits, that x < p and
    /// that x is on the curve (which for G1 is the whole group check).
    pub fn from_compressed(b: &[u8]) -> Result<Self, CurveError> {
        check_len(b, 32)?;
        let mut body = [0u8; 32];
        body.copy_from_slice(b);
        let mode = body[0] & MASK;
        body[0] &= !MASK;
        match mode {
            INFINITY => {
                if body.iter().any(|&v| v != 0) {
                    Err(CurveError::InvalidInfinity)
                } else {
                    Ok(Affine::IDENTITY)
                }
            }
            SMALLEST | LARGEST => {
                let x = Fp::from_bytes_be(&body).map_err(|_| CurveError::NonCanonical)?;
                let rhs = x.square() * x + super::G1Config::B;
                let y: Option<Fp> = rhs.sqrt().into();
                let y = y.ok_or(CurveError::NotOnCurve)?;
                let largest = mode == LARGEST;
                let y = if bool::from(y.lexicographically_largest()) == largest { y } else { -y };
                Ok(Affine::new_unchecked(x, y))
            }
            _ => Err(CurveError::InvalidFlags),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bn254::{G1Projective, Scalar};

    #[test]
    fn roundtrip_and_rejections() {
        let g = G1Projective::generator();
        for k in 1..50u64 {
            let p = (g * Scalar::from_u64(k)).to_affine();
            let b = p.to_compressed();
            assert_eq!(G1Affine::from_compressed(&b).unwrap(), p);
            let n = (-(g * Scalar::from_u64(k))).to_affine();
            assert_ne!(n.to_compressed(), b);
            assert_eq!(G1Affine::from_compressed(&n.to_compressed()).unwrap(), n);
        }
        let id = G1Affine::IDENTITY.to_compressed();
        assert_eq!(G1Affine::from_compressed(&id).unwrap(), G1Affine::IDENTITY);
        // generator (1, 2): y = 2 is the smallest root
        let mut gb = [0u8; 32];
        gb[31] = 1;
        gb[0] = SMALLEST;
        assert_eq!(G1Affine::generator().to_compressed(), gb);
        let mut bad = id;
        bad[31] = 1;
        assert_eq!(G1Affine::from_compressed(&bad), Err(CurveError::InvalidInfinity));
        let mut unc = gb;
        unc[0] = 0;
        assert_eq!(G1Affine::from_compressed(&unc), Err(CurveError::InvalidFlags));
        assert!(matches!(G1Affine::from_compressed(&gb[..31]), Err(CurveError::WrongLength { .. })));
        // x = p - 1 + something >= p: non-canonical
        let mut big = [0xffu8; 32];
        big[0] = 0x3f | SMALLEST;
        assert_eq!(G1Affine::from_compressed(&big), Err(CurveError::NonCanonical));
        // x = 0: 0 + 3 = 3 is not a square mod p
        let mut zero = [0u8; 32];
        zero[0] = SMALLEST;
        assert_eq!(G1Affine::from_compressed(&zero), Err(CurveError::NotOnCurve));
    }
}

//! BLS12-381 point encodings.
//!
//! Zcash format (used by Ethereum consensus, c-kzg, blst; spec:
//! github.com/zkcrypto/pairing/tree/master/src/bls12_381#serialization): big-endian
//! coordinates, G2 coordinates as c1 then c0; the three top bits of the first byte are
//! C (compressed), I (infinity), S (y is the lexicographically larger root; compressed only).
//! Compressed G1 is 48 bytes, G2 96; uncompressed 96 and 192.
//!
//! EIP-2537: each Fp as 64 bytes (16 zero bytes then 48), G1 = x || y (128 bytes),
//! G2 = x.c0 || x.c1 || y.c0 || y.c1 (256 bytes), the identity as all zeros.
//!
//! Every decoder checks length, flags, padding, canonical coordinates, the curve equation and
//! (in the checked variants) subgroup membership, and returns a typed [`CurveError`].

use zkforge_field::bls12_381::{Fp, Fp2};

use super::{G1Affine, G2Affine};
use crate::field::CurveField;
use crate::CurveError;

const FLAG_C: u8 = 0x80;
const FLAG_I: u8 = 0x40;
const FLAG_S: u8 = 0x20;

fn fp_from(b: &[u8]) -> Result<Fp, CurveError> {
    Fp::from_bytes_be(b).map_err(|_| CurveError::NonCanonical)
}

fn check_len(b: &[u8], n: usize) -> Result<(), CurveError> {
    if b.len() != n {
        Err(CurveError::WrongLength { expected: n, got: b.len() })
    } else {
        Ok(())
    }
}

/// Reads the flags of a Zcash encoding and returns (flags, body with flags cleared).
fn split_flags<const L: usize>(b: &[u8]) -> (u8, [u8; L]) {
    let mut body = [0u8; L];
    body.copy_from_slice(b);
    let flags = body[0] & 0xe0;
    body[0] &= 0x1f;
    (flags, body)
}

/// y from x: the root with the requested "largest" bit.
fn y_from_x<F: CurveField>(x: F, b: F, largest: bool) -> Result<F, CurveError> {
    let rhs = x.square() * x + b;
    let y: Option<F> = rhs.sqrt().into();
    let y = y.ok_or(CurveError::NotOnCurve)?;
    Ok(if bool::from(y.lexicographically_largest()) == largest { y } else { -y })
}

impl G1Affine {
    /// 48-byte Zcash compressed encoding.
    pub fn to_compressed(&self) -> [u8; 48] {
        let mut out = [0u8; 48];
        if self.infinity {
            out[0] = FLAG_C | FLAG_I;
            return out;
        }
        out.copy_from_slice(self.x.to_bytes_be().as_ref());
        out[0] |= FLAG_C;
        if bool::from(self.y.lexicographically_largest()) {
            out[0] |= FLAG_S;
        }
        out
    }

    /// 96-byte Zcash uncompressed encoding.
    pub fn to_uncompressed(&self) -> [u8; 96] {
        let mut out = [0u8; 96];
        if self.infinity {
            out[0] = FLAG_I;
            return out;
        }
        out[..48].copy_from_slice(self.x.to_bytes_be().as_ref());
        out[48..].copy_from_slice(self.y.to_bytes_be().as_ref());
        out
    }

    /// Decode a compressed point, on the curve but without the subgroup check.
    pub fn from_compressed_unchecked(b: &[u8]) -> Result<Self, CurveError> {
        check_len(b, 48)?;
        let (flags, body) = split_flags::<48>(b);
        if flags & FLAG_C == 0 {
            return Err(CurveError::InvalidFlags);
        }
        if flags & FLAG_I != 0 {
            if flags & FLAG_S != 0 {
                return Err(CurveError::InvalidFlags);
            }
            if body.iter().any(|&v| v != 0) {
                return Err(CurveError::InvalidInfinity);
            }
            return Ok(Self::IDENTITY);
        }
        let x = fp_from(&body)?;
        let y = y_from_x(x, Fp::from_u64(4), flags & FLAG_S != 0)?;
        Ok(Self::new_unchecked(x, y))
    }

    /// Decode a compressed point and check subgroup membership.
    ///
    /// ```
    /// use zkforge_curve::bls12_381::G1Affine;
    /// let g = G1Affine::generator();
    /// assert_eq!(G1Affine::from_compressed(&g.to_compressed()).unwrap(), g);
    /// ```
    pub fn from_compressed(b: &[u8]) -> Result<Self, CurveError> {
        let p = Self::from_compressed_unchecked(b)?;
        if !p.is_in_subgroup() {
            return Err(CurveError::NotInSubgroup);
        }
        Ok(p)
    }

    /// Decode an uncompressed point, checking the curve equation but not the subgroup.
    pub fn from_uncompressed_unchecked(b: &[u8]) -> Result<Self, CurveError> {
        check_len(b, 96)?;
        let (flags, body) = split_flags::<96>(b);
        if flags & (FLAG_C | FLAG_S) != 0 {
            return Err(CurveError::InvalidFlags);
        }
        if flags & FLAG_I != 0 {
            if body.iter().any(|&v| v != 0) {
                return Err(CurveError::InvalidInfinity);
            }
            return Ok(Self::IDENTITY);
        }
        let p = Self::new_unchecked(fp_from(&body[..48])?, fp_from(&body[48..])?);
        if !p.is_on_curve() {
            return Err(CurveError::NotOnCurve);
        }
        Ok(p)
    }

    /// Decode an uncompressed point and check subgroup membership.
    pub fn from_uncompressed(b: &[u8]) -> Result<Self, CurveError> {
        let p = Self::from_uncompressed_unchecked(b)?;
        if !p.is_in_subgroup() {
            return Err(CurveError::NotInSubgroup);
        }
        Ok(p)
    }

    /// 128-byte EIP-2537 encoding.
    pub fn to_eip2537(&self) -> [u8; 128] {
        let mut out = [0u8; 128];
        if !self.infinity {
            out[16..64].copy_from_slice(self.x.to_bytes_be().as_ref());
            out[80..128].copy_from_slice(self.y.to_bytes_be().as_ref());
        }
        out
    }

    /// Decode an EIP-2537 G1 point; the curve equation is always checked, the subgroup when
    /// `subgroup_check` is set (the MSM and pairing precompiles need it, G1ADD does not).
    pub fn from_eip2537(b: &[u8], subgroup_check: bool) -> Result<Self, CurveError> {
        check_len(b, 128)?;
        let x = fp_from_eip2537(&b[..64])?;
        let y = fp_from_eip2537(&b[64..])?;
        decode_eip2537_point(x, y, subgroup_check)
    }
}

/// Decode one 64-byte EIP-2537 field element (16 zero bytes then 48 big-endian bytes).
pub fn fp_from_eip2537(b: &[u8]) -> Result<Fp, CurveError> {
    check_len(b, 64)?;
    if b[..16].iter().any(|&v| v != 0) {
        return Err(CurveError::InvalidPadding);
    }
    fp_from(&b[16..])
}

/// Decode a 128-byte EIP-2537 Fp2 element (c0 then c1).
pub fn fp2_from_eip2537(b: &[u8]) -> Result<Fp2, CurveError> {
    check_len(b, 128)?;
    Ok(Fp2::new(fp_from_eip2537(&b[..64])?, fp_from_eip2537(&b[64..])?))
}

fn decode_eip2537_point<C: crate::CurveConfig>(x: C::Base, y: C::Base, subgroup_check: bool) -> Result<crate::Affine<C>, CurveError> {
    if bool::from(x.is_zero() & y.is_zero()) {
        return Ok(crate::Affine::IDENTITY);
    }
    let p = crate::Affine::<C>::new_unchecked(x, y);
    if !p.is_on_curve() {
        return Err(CurveError::NotOnCurve);
    }
    if subgroup_check && !p.is_in_subgroup() {
        return Err(CurveError::NotInSubgroup);
    }
    Ok(p)
}

fn fp2_to_be_c1c0(a: &Fp2, out: &mut [u8]) {
    out[..48].copy_from_slice(a.c1.to_bytes_be().as_ref());
    out[48..96].copy_from_slice(a.c0.to_bytes_be().as_ref());
}

fn fp2_from_be_c1c0(b: &[u8]) -> Result<Fp2, CurveError> {
    Ok(Fp2::new(fp_from(&b[48..96])?, fp_from(&b[..48])?))
}

impl G2Affine {
    /// 96-byte Zcash compressed encoding (x.c1 || x.c0 with flags).
    pub fn to_compressed(&self) -> [u8; 96] {
        let mut out = [0u8; 96];
        if self.infinity {
            out[0] = FLAG_C | FLAG_I;
            return out;
        }
        fp2_to_be_c1c0(&self.x, &mut out);
        out[0] |= FLAG_C;
        if bool::from(self.y.lexicographically_largest()) {
            out[0] |= FLAG_S;
        }
        out
    }

    /// 192-byte Zcash uncompressed encoding.
    pub fn to_uncompressed(&self) -> [u8; 192] {
        let mut out = [0u8; 192];
        if self.infinity {
            out[0] = FLAG_I;
            return out;
        }
        fp2_to_be_c1c0(&self.x, &mut out[..96]);
        fp2_to_be_c1c0(&self.y, &mut out[96..]);
        out
    }

    /// Decode a compressed point, on the curve but without the subgroup check.
    pub fn from_compressed_unchecked(b: &[u8]) -> Result<Self, CurveError> {
        check_len(b, 96)?;
        let (flags, body) = split_flags::<96>(b);
        if flags & FLAG_C == 0 {
            return Err(CurveError::InvalidFlags);
        }
        if flags & FLAG_I != 0 {
            if flags & FLAG_S != 0 {
                return Err(CurveError::InvalidFlags);
            }
            if body.iter().any(|&v| v != 0) {
                return Err(CurveError::InvalidInfinity);
            }
            return Ok(Self::IDENTITY);
        }
        let x = fp2_from_be_c1c0(&body)?;
        let b2 = <super::G2Config as crate::CurveConfig>::B;
        let y = y_from_x(x, b2, flags & FLAG_S != 0)?;
        Ok(Self::new_unchecked(x, y))
    }

    /// Decode a compressed point and check subgroup membership.
    pub fn from_compressed(b: &[u8]) -> Result<Self, CurveError> {
        let p = Self::from_compressed_unchecked(b)?;
        if !p.is_in_subgroup() {
            return Err(CurveError::NotInSubgroup);
        }
        Ok(p)
    }

    /// Decode an uncompressed point, checking the curve equation but not the subgroup.
    pub fn from_uncompressed_unchecked(b: &[u8]) -> Result<Self, CurveError> {
        check_len(b, 192)?;
        let (flags, body) = split_flags::<192>(b);
        if flags & (FLAG_C | FLAG_S) != 0 {
            return Err(CurveError::InvalidFlags);
        }
        if flags & FLAG_I != 0 {
            if body.iter().any(|&v| v != 0) {
                return Err(CurveError::InvalidInfinity);
            }
            return Ok(Self::IDENTITY);
        }
        let p = Self::new_unchecked(fp2_from_be_c1c0(&body[..96])?, fp2_from_be_c1c0(&body[96..])?);
        if !p.is_on_curve() {
            return Err(CurveError::NotOnCurve);
        }
        Ok(p)
    }

    /// Decode an uncompressed point and check subgroup membership.
    pub fn from_uncompressed(b: &[u8]) -> Result<Self, CurveError> {
        let p = Self::from_uncompressed_unchecked(b)?;
        if !p.is_in_subgroup() {
            return Err(CurveError::NotInSubgroup);
        }
        Ok(p)
    }

    /// 256-byte EIP-2537 encoding (x.c0, x.c1, y.c0, y.c1, each padded to 64 bytes).
    pub fn to_eip2537(&self) -> [u8; 256] {
        let mut out = [0u8; 256];
        if !self.infinity {
            for (i, c) in [self.x.c0, self.x.c1, self.y.c0, self.y.c1].iter().enumerate() {
                out[64 * i + 16..64 * (i + 1)].copy_from_slice(c.to_bytes_be().as_ref());
            }
        }
        out
    }

    /// Decode an EIP-2537 G2 point (curve equation always, subgroup when asked).
    pub fn from_eip2537(b: &[u8], subgroup_check: bool) -> Result<Self, CurveError> {
        check_len(b, 256)?;
        let x = fp2_from_eip2537(&b[..128])?;
        let y = fp2_from_eip2537(&b[128..])?;
        decode_eip2537_point(x, y, subgroup_check)
    }
}

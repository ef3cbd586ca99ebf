//! BLS12-381 point encodings.
//!
//! Zcash format (used by Ethereum consensus, c-kzg, blst; spec:
//! github.com/zkcrypto/pairing/tree/master/src/bls12_381#serialization): big-endian
//! coordinates, G2 coordinates as c1 then c0; the three top bits of the first byte are
//! C (compressed), I (infinity), S (y is the lexicographically larger root; compressed only).
//! Compressed G1 is 48 bytes, G2 96; uncompressed 96 and 192.
//!
//! The EVM's EIP-2537 format belongs to the precompiles and lives in `zkforge-evm`.
//!
//! Every decoder checks length, flags, padding, canonical coordinates, the curve equation and
//! (in the checked variants) subgroup membership, and returns a typed [`CurveError`].

use zkforge_field::bls12_381::{Fp, Fp2};

use super::{G1Affine, G2Affine};
use crate::field::CurveField;
use crate::{check_len, Affine, CurveConfig, CurveError};

const FLAG_C: u8 = 0x80;
const FLAG_I: u8 = 0x40;
const FLAG_S: u8 = 0x20;

fn fp_from(b: &[u8]) -> Result<Fp, CurveError> {
    Fp::from_bytes_be(b).map_err(|_| CurveError::NonCanonical)
}

/// A coordinate in the Zcash format: Fp as 48 big-endian bytes, Fp2 as c1 || c0.
trait ZcashCoord: CurveField {
    const LEN: usize;
    fn write(&self, out: &mut [u8]);
    fn read(b: &[u8]) -> Result<Self, CurveError>;
}

impl ZcashCoord for Fp {
    const LEN: usize = 48;
    fn write(&self, out: &mut [u8]) {
        out.copy_from_slice(self.to_bytes_be().as_ref());
    }
    fn read(b: &[u8]) -> Result<Self, CurveError> {
        fp_from(b)
    }
}

impl ZcashCoord for Fp2 {
    const LEN: usize = 96;
    fn write(&self, out: &mut [u8]) {
        out[..48].copy_from_slice(self.c1.to_bytes_be().as_ref());
        out[48..].copy_from_slice(self.c0.to_bytes_be().as_ref());
    }
    fn read(b: &[u8]) -> Result<Self, CurveError> {
        Ok(Fp2::new(fp_from(&b[48..])?, fp_from(&b[..48])?))
    }
}

/// y from x: the root with the requested "largest" bit.
fn y_from_x<F: CurveField>(x: F, b: F, largest: bool) -> Result<F, CurveError> {
    let rhs = x.square() * x + b;
    let y: Option<F> = rhs.sqrt().into();
    let y = y.ok_or(CurveError::NotOnCurve)?;
    Ok(if bool::from(y.lexicographically_largest()) == largest { y } else { -y })
}

fn write_compressed<C: CurveConfig>(p: &Affine<C>, out: &mut [u8])
where
    C::Base: ZcashCoord,
{
    if p.is_identity_vartime() {
        out[0] = FLAG_C | FLAG_I;
        return;
    }
    p.x.write(out);
    out[0] |= FLAG_C;
    if bool::from(p.y.lexicographically_largest()) {
        out[0] |= FLAG_S;
    }
}

fn write_uncompressed<C: CurveConfig>(p: &Affine<C>, out: &mut [u8])
where
    C::Base: ZcashCoord,
{
    if p.is_identity_vartime() {
        out[0] = FLAG_I;
        return;
    }
    let n = C::Base::LEN;
    p.x.write(&mut out[..n]);
    p.y.write(&mut out[n..]);
}

/// The longest encoding (uncompressed G2).
const MAX_LEN: usize = 192;

/// Splits off the three flag bits into a stack copy of the body (no allocation); an infinity
/// encoding must carry nothing else. The body is `body[..len]`.
fn read_flags(b: &[u8], len: usize) -> Result<(u8, [u8; MAX_LEN]), CurveError> {
    check_len(b, len)?;
    let mut body = [0u8; MAX_LEN];
    body[..len].copy_from_slice(b);
    let flags = body[0] & 0xe0;
    body[0] &= 0x1f;
    if flags & FLAG_I != 0 && body[..len].iter().any(|&v| v != 0) {
        return Err(CurveError::InvalidInfinity);
    }
    Ok((flags, body))
}

fn read_compressed<C: CurveConfig>(b: &[u8]) -> Result<Affine<C>, CurveError>
where
    C::Base: ZcashCoord,
{
    let (flags, body) = read_flags(b, C::Base::LEN)?;
    if flags & FLAG_C == 0 {
        return Err(CurveError::InvalidFlags);
    }
    if flags & FLAG_I != 0 {
        return if flags & FLAG_S != 0 { Err(CurveError::InvalidFlags) } else { Ok(Affine::IDENTITY) };
    }
    let x = C::Base::read(&body[..C::Base::LEN])?;
    let y = y_from_x(x, C::B, flags & FLAG_S != 0)?;
    Ok(Affine::new_unchecked(x, y))
}

fn read_uncompressed<C: CurveConfig>(b: &[u8]) -> Result<Affine<C>, CurveError>
where
    C::Base: ZcashCoord,
{
    let n = C::Base::LEN;
    let (flags, body) = read_flags(b, 2 * n)?;
    if flags & (FLAG_C | FLAG_S) != 0 {
        return Err(CurveError::InvalidFlags);
    }
    if flags & FLAG_I != 0 {
        return Ok(Affine::IDENTITY);
    }
    let p = Affine::new_unchecked(C::Base::read(&body[..n])?, C::Base::read(&body[n..2 * n])?);
    if !p.is_on_curve() {
        return Err(CurveError::NotOnCurve);
    }
    Ok(p)
}

fn subgroup_checked<C: CurveConfig>(p: Affine<C>) -> Result<Affine<C>, CurveError> {
    if p.is_in_subgroup() {
        Ok(p)
    } else {
        Err(CurveError::NotInSubgroup)
    }
}

impl G1Affine {
    /// 48-byte Zcash compressed encoding.
    pub fn to_compressed(&self) -> [u8; 48] {
        let mut out = [0u8; 48];
        write_compressed(self, &mut out);
        out
    }

    /// 96-byte Zcash uncompressed encoding.
    pub fn to_uncompressed(&self) -> [u8; 96] {
        let mut out = [0u8; 96];
        write_uncompressed(self, &mut out);
        out
    }

    /// Decode a compressed point, on the curve but without the subgroup check.
    pub fn from_compressed_unchecked(b: &[u8]) -> Result<Self, CurveError> {
        read_compressed(b)
    }

    /// Decode a compressed point and check subgroup membership.
    ///
    /// ```
    /// use zkforge_curve::bls12_381::G1Affine;
    /// let g = G1Affine::generator();
    /// assert_eq!(G1Affine::from_compressed(&g.to_compressed()).unwrap(), g);
    /// ```
    pub fn from_compressed(b: &[u8]) -> Result<Self, CurveError> {
        subgroup_checked(read_compressed(b)?)
    }

    /// Decode an uncompressed point, checking the curve equation but not the subgroup.
    pub fn from_uncompressed_unchecked(b: &[u8]) -> Result<Self, CurveError> {
        read_uncompressed(b)
    }

    /// Decode an uncompressed point and check subgroup membership.
    pub fn from_uncompressed(b: &[u8]) -> Result<Self, CurveError> {
        subgroup_checked(read_uncompressed(b)?)
    }
}

impl G2Affine {
    /// 96-byte Zcash compressed encoding (x.c1 || x.c0 with flags).
    pub fn to_compressed(&self) -> [u8; 96] {
        let mut out = [0u8; 96];
        write_compressed(self, &mut out);
        out
    }

    /// 192-byte Zcash uncompressed encoding.
    pub fn to_uncompressed(&self) -> [u8; 192] {
        let mut out = [0u8; 192];
        write_uncompressed(self, &mut out);
        out
    }

    /// Decode a compressed point, on the curve but without the subgroup check.
    pub fn from_compressed_unchecked(b: &[u8]) -> Result<Self, CurveError> {
        read_compressed(b)
    }

    /// Decode a compressed point and check subgroup membership.
    pub fn from_compressed(b: &[u8]) -> Result<Self, CurveError> {
        subgroup_checked(read_compressed(b)?)
    }

    /// Decode an uncompressed point, checking the curve equation but not the subgroup.
    pub fn from_uncompressed_unchecked(b: &[u8]) -> Result<Self, CurveError> {
        read_uncompressed(b)
    }

    /// Decode an uncompressed point and check subgroup membership.
    pub fn from_uncompressed(b: &[u8]) -> Result<Self, CurveError> {
        subgroup_checked(read_uncompressed(b)?)
    }
}

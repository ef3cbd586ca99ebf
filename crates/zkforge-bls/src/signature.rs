//! Signatures: G2 points in the 96-byte Zcash compressed encoding, and `Aggregate`
//! (draft-irtf-cfrg-bls-signature-05, section 2.8: the sum of the signatures).
//!
//! Decoding checks the encoding and the twist equation; the G2 subgroup test
//! (`signature_subgroup_check`) is done by every verification function, where the Miller loop
//! gives it almost for free, or up front by [`Signature::from_bytes_validated`].

use zkforge_curve::bls12_381::{G2Affine, G2Projective};

use crate::{BlsError, SIGNATURE_BYTES};

/// A BLS signature: a point on the twist E'(Fp2). Verification refuses it unless it is in G2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature(pub(crate) G2Affine);

impl Signature {
    /// Decodes a 96-byte compressed signature: length, flags, both coordinates below p, and
    /// the point on the twist (the identity, 0xc0 followed by zeros, is a valid encoding). The
    /// subgroup test is left to verification (see [`Signature::from_bytes_validated`]).
    ///
    /// ```
    /// use zkforge_bls::Signature;
    /// let mut inf = [0u8; 96];
    /// inf[0] = 0xc0;
    /// assert!(Signature::from_bytes(&inf).is_ok());
    /// assert!(Signature::from_bytes(&[0u8; 96]).is_err()); // no compression flag
    /// assert!(Signature::from_bytes(&inf[..95]).is_err());
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, BlsError> {
        if bytes.len() != SIGNATURE_BYTES {
            return Err(BlsError::WrongLength { expected: SIGNATURE_BYTES, got: bytes.len() });
        }
        Ok(Self(G2Affine::from_compressed_unchecked(bytes)?))
    }

    /// [`Signature::from_bytes`] and the G2 subgroup test (`NotInSubgroup`).
    pub fn from_bytes_validated(bytes: &[u8]) -> Result<Self, BlsError> {
        let s = Self::from_bytes(bytes)?;
        if !s.is_in_subgroup() {
            return Err(BlsError::Point(zkforge_curve::CurveError::NotInSubgroup));
        }
        Ok(s)
    }

    /// A signature from a point of the twist (on the curve is checked; the subgroup is left to
    /// verification).
    pub fn from_affine_checked(p: G2Affine) -> Result<Self, BlsError> {
        if !bool::from(p.is_identity()) && !p.is_on_curve() {
            return Err(BlsError::Point(zkforge_curve::CurveError::NotOnCurve));
        }
        Ok(Self(p))
    }

    pub(crate) fn from_affine(p: G2Affine) -> Self {
        Self(p)
    }

    /// Whether the point is in the order-r subgroup G2 (the identity is).
    pub fn is_in_subgroup(&self) -> bool {
        bool::from(self.0.is_identity()) || self.0.is_in_subgroup()
    }

    /// The 96-byte compressed encoding.
    pub fn to_bytes(&self) -> [u8; 96] {
        self.0.to_compressed()
    }

    /// The G2 point.
    pub fn as_affine(&self) -> &G2Affine {
        &self.0
    }

    /// `Aggregate`: the sum of the signatures; `EmptyAggregate` for none. As in the draft,
    /// the parts are not subgroup-tested here; verification tests the sum.
    ///
    /// ```
    /// use zkforge_bls::{Signature, SecretKey};
    /// let sk = SecretKey::from_bytes(&[5; 32]).unwrap();
    /// let s = sk.sign(b"x");
    /// assert_eq!(Signature::aggregate(&[s]).unwrap(), s);
    /// assert!(Signature::aggregate(&[]).is_err());
    /// ```
    pub fn aggregate(signatures: &[Signature]) -> Result<Signature, BlsError> {
        if signatures.is_empty() {
            return Err(BlsError::EmptyAggregate);
        }
        let mut acc = G2Projective::IDENTITY;
        for s in signatures {
            acc = acc.add_mixed_vartime(&s.0);
        }
        Ok(Signature(acc.to_affine_vartime()))
    }

    /// [`Signature::aggregate`] of encoded signatures, each decoded by
    /// [`Signature::from_bytes`].
    pub fn aggregate_bytes<B: AsRef<[u8]>>(signatures: &[B]) -> Result<Signature, BlsError> {
        let sigs = signatures.iter().map(|b| Signature::from_bytes(b.as_ref())).collect::<Result<Vec<_>, _>>()?;
        Self::aggregate(&sigs)
    }
}

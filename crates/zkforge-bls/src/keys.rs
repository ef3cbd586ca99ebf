//! Secret and public keys (draft-irtf-cfrg-bls-signature-05, sections 2.3-2.5 and 3.3):
//! `KeyGen` by HKDF-SHA-256 reduced mod r (the same function as EIP-2333's `HKDF_mod_r`),
//! `SkToPk` = sk * g1, `KeyValidate`, `Sign` = sk * H(m) and `PopProve` = sk * H_pop(pk).
//! The secret scalar only meets constant-time code (the fixed-window scalar multiplications
//! of zkforge-curve) and is zeroized on drop.

use hkdf::Hkdf;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};
use zkforge_curve::bls12_381::{G1Affine, G1Projective, Scalar};
use zkforge_curve::hash_to_curve::hash_to_g2_jacobian;

use crate::{BlsError, Signature, DST, POP_DST, PUBLIC_KEY_BYTES, SECRET_KEY_BYTES};

/// A BLS secret key: a scalar in 1..r-1. Zeroized on drop; `Debug` does not print it.
///
/// ```
/// use zkforge_bls::SecretKey;
/// let sk = SecretKey::from_bytes(&[0x11; 32]).unwrap();
/// assert_eq!(*sk.to_bytes(), [0x11; 32]);
/// assert!(SecretKey::from_bytes(&[0; 32]).is_err()); // zero is not a key
/// assert!(SecretKey::from_bytes(&[0xff; 32]).is_err()); // not below r
/// ```
#[derive(Clone)]
pub struct SecretKey(Scalar);

impl SecretKey {
    /// The draft's `KeyGen(IKM, key_info)` (section 2.3), which is also EIP-2333's
    /// `HKDF_mod_r(IKM, key_info)`: salt = "BLS-SIG-KEYGEN-SALT-"; repeat { salt = SHA-256(salt);
    /// PRK = HKDF-Extract(salt, IKM || 0x00); OKM = HKDF-Expand(PRK, key_info || I2OSP(48, 2), 48);
    /// SK = OS2IP(OKM) mod r } while SK = 0. `ikm` must hold at least 32 bytes of secret
    /// randomness.
    ///
    /// ```
    /// use zkforge_bls::SecretKey;
    /// let sk = SecretKey::key_gen(&[1u8; 32], b"").unwrap();
    /// assert_eq!(sk.public_key(), SecretKey::key_gen(&[1u8; 32], b"").unwrap().public_key());
    /// assert!(SecretKey::key_gen(&[1u8; 31], b"").is_err());
    /// ```
    pub fn key_gen(ikm: &[u8], key_info: &[u8]) -> Result<Self, BlsError> {
        if ikm.len() < 32 {
            return Err(BlsError::ShortKeyMaterial { got: ikm.len() });
        }
        let mut ikm0 = Zeroizing::new(Vec::with_capacity(ikm.len() + 1));
        ikm0.extend_from_slice(ikm);
        ikm0.push(0);
        let mut info = Vec::with_capacity(key_info.len() + 2);
        info.extend_from_slice(key_info);
        info.extend_from_slice(&48u16.to_be_bytes());
        let mut salt: [u8; 32] = Sha256::digest(b"BLS-SIG-KEYGEN-SALT-").into();
        loop {
            let mut okm = Zeroizing::new([0u8; 48]);
            // HKDF-Expand can only fail for an output over 255 hash lengths; 48 bytes is one and a half.
            if Hkdf::<Sha256>::new(Some(&salt), &ikm0).expand(&info, okm.as_mut()).is_err() {
                return Err(BlsError::InvalidSecretKey);
            }
            let sk = Scalar::from_bytes_be_mod_order(okm.as_ref());
            if !bool::from(sk.is_zero()) {
                return Ok(Self(sk));
            }
            salt = Sha256::digest(salt).into();
        }
    }

    /// Decodes a 32-byte big-endian secret key; `InvalidSecretKey` unless it is in 1..r-1.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, BlsError> {
        if bytes.len() != SECRET_KEY_BYTES {
            return Err(BlsError::WrongLength { expected: SECRET_KEY_BYTES, got: bytes.len() });
        }
        let sk = Scalar::from_bytes_be(bytes).map_err(|_| BlsError::InvalidSecretKey)?;
        if bool::from(sk.is_zero()) {
            return Err(BlsError::InvalidSecretKey);
        }
        Ok(Self(sk))
    }

    /// The 32-byte big-endian encoding, in a buffer that is zeroized when dropped.
    pub fn to_bytes(&self) -> Zeroizing<[u8; 32]> {
        let mut out = Zeroizing::new([0u8; 32]);
        let mut be = self.0.to_bytes_be();
        out.copy_from_slice(be.as_ref());
        be.as_mut().zeroize();
        out
    }

    /// `SkToPk`: sk * g1 (constant time).
    pub fn public_key(&self) -> PublicKey {
        PublicKey((G1Projective::generator() * self.0).to_affine())
    }

    /// `Sign(SK, message)`: sk * hash_to_g2(message, [`DST`]) (the scalar multiplication in
    /// constant time; the message is public).
    ///
    /// ```
    /// use zkforge_bls::{verify, SecretKey};
    /// let sk = SecretKey::from_bytes(&[0x22; 32]).unwrap();
    /// assert!(verify(&sk.public_key(), b"msg", &sk.sign(b"msg")));
    /// ```
    pub fn sign(&self, message: &[u8]) -> Signature {
        self.sign_with_dst(message, DST)
    }

    /// `PopProve(SK)`: sk * hash_to_g2(SkToPk(SK) as 48 bytes, [`POP_DST`]).
    ///
    /// ```
    /// use zkforge_bls::{pop_verify, SecretKey};
    /// let sk = SecretKey::from_bytes(&[0x33; 32]).unwrap();
    /// assert!(pop_verify(&sk.public_key(), &sk.pop_prove()));
    /// ```
    pub fn pop_prove(&self) -> Signature {
        self.sign_with_dst(&self.public_key().to_bytes(), POP_DST)
    }

    fn sign_with_dst(&self, message: &[u8], dst: &[u8]) -> Signature {
        // Both DSTs are non-empty constants: hash_to_g2's only error cannot happen.
        let h = hash_to_g2_jacobian(message, dst).unwrap_or_default();
        Signature::from_affine((h * self.0).to_affine())
    }
}

impl PartialEq for SecretKey {
    /// Constant-time comparison.
    fn eq(&self, other: &Self) -> bool {
        bool::from(self.0.to_limbs().ct_eq(&other.0.to_limbs()))
    }
}
impl Eq for SecretKey {}

impl core::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SecretKey(<redacted>)")
    }
}

impl Drop for SecretKey {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl zeroize::ZeroizeOnDrop for SecretKey {}

/// A BLS public key: a G1 point that passed `KeyValidate` (on the curve, in the order-r
/// subgroup, not the identity).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicKey(pub(crate) G1Affine);

impl PublicKey {
    /// Decodes a 48-byte compressed (Zcash-format) public key and runs `KeyValidate`: the
    /// point decoding's errors (length, flags, x not below p, not on the curve, not in G1) and
    /// `IdentityPublicKey`.
    ///
    /// ```
    /// use zkforge_bls::{BlsError, PublicKey};
    /// let mut inf = [0u8; 48];
    /// inf[0] = 0xc0;
    /// assert_eq!(PublicKey::from_bytes(&inf), Err(BlsError::IdentityPublicKey));
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, BlsError> {
        if bytes.len() != PUBLIC_KEY_BYTES {
            return Err(BlsError::WrongLength { expected: PUBLIC_KEY_BYTES, got: bytes.len() });
        }
        Self::from_affine(G1Affine::from_compressed(bytes)?)
    }

    /// A public key from a G1 point, with `KeyValidate`'s checks.
    pub fn from_affine(p: G1Affine) -> Result<Self, BlsError> {
        if bool::from(p.is_identity()) {
            return Err(BlsError::IdentityPublicKey);
        }
        if !p.is_on_curve() || !p.is_in_subgroup() {
            return Err(BlsError::Point(zkforge_curve::CurveError::NotInSubgroup));
        }
        Ok(Self(p))
    }

    /// The 48-byte compressed encoding.
    pub fn to_bytes(&self) -> [u8; 48] {
        self.0.to_compressed()
    }

    /// The G1 point.
    pub fn as_affine(&self) -> &G1Affine {
        &self.0
    }

    /// The sum of public keys (the aggregate key of `FastAggregateVerify`);
    /// `EmptyAggregate` for none, `IdentityPublicKey` when the sum is the identity (the
    /// draft's `CoreVerify` would refuse it by `KeyValidate`).
    ///
    /// ```
    /// use zkforge_bls::{PublicKey, SecretKey};
    /// let a = SecretKey::from_bytes(&[1; 32]).unwrap();
    /// let b = SecretKey::from_bytes(&[2; 32]).unwrap();
    /// let agg = PublicKey::aggregate(&[a.public_key(), b.public_key()]).unwrap();
    /// assert_ne!(agg, a.public_key());
    /// ```
    pub fn aggregate(keys: &[PublicKey]) -> Result<PublicKey, BlsError> {
        if keys.is_empty() {
            return Err(BlsError::EmptyAggregate);
        }
        let mut acc = G1Projective::IDENTITY;
        for k in keys {
            acc = acc.add_mixed_vartime(&k.0);
        }
        let p = acc.to_affine_vartime();
        if bool::from(p.is_identity()) {
            return Err(BlsError::IdentityPublicKey);
        }
        Ok(PublicKey(p))
    }
}

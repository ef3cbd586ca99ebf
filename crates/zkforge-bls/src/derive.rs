//! Hierarchical key derivation for BLS12-381 keys: EIP-2333 (`derive_master_SK`,
//! `derive_child_SK` through a compressed Lamport public key) and EIP-2334 paths
//! (`m/12381/3600/i/0/0` for validator i's signing key, `m/12381/3600/i/0` for its withdrawal
//! key).
//!
//! A child key is `HKDF_mod_r(compressed_lamport_PK)` where the Lamport key comes from the
//! parent key and the child index: two HKDF-SHA-256 expansions of 255 x 32 bytes (of the
//! parent key's big-endian bytes and of their bitwise complement, salt = the index as 4
//! big-endian bytes), each 32-byte chunk hashed, and the 510 digests hashed once more. Only
//! hashes and the constant-time reduction mod r touch the secret; every intermediate buffer
//! is zeroized.

use hkdf::Hkdf;
use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

use crate::{BlsError, SecretKey};

/// Bytes of one HKDF expansion of `IKM_to_lamport_SK`: 255 chunks of 32 (HKDF-SHA-256's most).
const LAMPORT_BYTES: usize = 255 * 32;

/// An EIP-2334 key path: `m` followed by child indices, each below 2^32 (`m/12381/3600/0/0/0`).
///
/// ```
/// use zkforge_bls::KeyPath;
/// let p: KeyPath = "m/12381/3600/7/0/0".parse().unwrap();
/// assert_eq!(p, KeyPath::validator_signing(7));
/// assert_eq!(p.to_string(), "m/12381/3600/7/0/0");
/// assert!("m/12381/x".parse::<KeyPath>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct KeyPath(pub Vec<u32>);

impl KeyPath {
    /// EIP-2334's purpose, 12381 (the curve's name).
    pub const PURPOSE: u32 = 12381;
    /// EIP-2334's coin type of Ethereum validators, 3600.
    pub const ETH_COIN_TYPE: u32 = 3600;

    /// Validator `index`'s signing key: `m/12381/3600/index/0/0`.
    pub fn validator_signing(index: u32) -> Self {
        Self(vec![Self::PURPOSE, Self::ETH_COIN_TYPE, index, 0, 0])
    }

    /// Validator `index`'s withdrawal key: `m/12381/3600/index/0`.
    pub fn validator_withdrawal(index: u32) -> Self {
        Self(vec![Self::PURPOSE, Self::ETH_COIN_TYPE, index, 0])
    }
}

impl core::str::FromStr for KeyPath {
    type Err = BlsError;

    /// Parses `m` or `m/i/j/...` with decimal indices below 2^32 (no signs, no spaces, no
    /// empty components).
    fn from_str(s: &str) -> Result<Self, BlsError> {
        let bad = |why: &'static str| BlsError::InvalidPath { path: s.to_string(), why };
        let mut parts = s.split('/');
        if parts.next() != Some("m") {
            return Err(bad("it must start with \"m\""));
        }
        let mut out = Vec::new();
        for p in parts {
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad("every index must be a decimal number"));
            }
            out.push(p.parse::<u32>().map_err(|_| bad("an index must be below 2^32"))?);
        }
        Ok(Self(out))
    }
}

impl core::fmt::Display for KeyPath {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("m")?;
        for i in &self.0 {
            write!(f, "/{i}")?;
        }
        Ok(())
    }
}

/// The hash of the concatenated chunk digests of `IKM_to_lamport_SK(ikm, salt)`, fed into
/// `outer` (the compressed Lamport key's hash), 32-byte chunk by chunk.
fn absorb_lamport_half(outer: &mut Sha256, ikm: &[u8; 32], salt: &[u8; 4]) {
    let mut okm = Zeroizing::new([0u8; LAMPORT_BYTES]);
    // HKDF-Expand refuses only outputs over 255 hash lengths; this constant is exactly 255.
    Hkdf::<Sha256>::new(Some(salt), ikm).expand(&[], okm.as_mut()).expect("255 x 32 bytes is within HKDF-SHA-256's limit");
    for chunk in okm.chunks_exact(32) {
        outer.update(Sha256::digest(chunk));
    }
}

/// EIP-2333 `parent_SK_to_lamport_PK(parent_SK, index)`: the 32-byte compressed Lamport key.
fn parent_to_lamport_pk(parent: &SecretKey, index: u32) -> Zeroizing<[u8; 32]> {
    let salt = index.to_be_bytes();
    let ikm = parent.to_bytes();
    let mut not_ikm = Zeroizing::new([0u8; 32]);
    for (o, b) in not_ikm.iter_mut().zip(ikm.iter()) {
        *o = !*b;
    }
    let mut outer = Sha256::new();
    absorb_lamport_half(&mut outer, &ikm, &salt);
    absorb_lamport_half(&mut outer, &not_ikm, &salt);
    Zeroizing::new(outer.finalize().into())
}

impl SecretKey {
    /// EIP-2333 `derive_master_SK(seed)`: `HKDF_mod_r(seed)`, which is `KeyGen(seed, "")`.
    /// The seed (a BIP-39 seed, usually 64 bytes) must hold at least 32 bytes.
    ///
    /// ```
    /// use zkforge_bls::SecretKey;
    /// let m = SecretKey::derive_master(&[9u8; 32]).unwrap();
    /// assert_eq!(m, SecretKey::key_gen(&[9u8; 32], b"").unwrap());
    /// ```
    pub fn derive_master(seed: &[u8]) -> Result<Self, BlsError> {
        Self::key_gen(seed, b"")
    }

    /// EIP-2333 `derive_child_SK(parent_SK, index)`: `HKDF_mod_r` of the compressed Lamport
    /// public key of (this key, index). Every index below 2^32 is valid (all EIP-2333 keys are
    /// hardened).
    ///
    /// ```
    /// use zkforge_bls::SecretKey;
    /// let m = SecretKey::derive_master(&[9u8; 32]).unwrap();
    /// assert_ne!(m.derive_child(0), m.derive_child(1));
    /// ```
    pub fn derive_child(&self, index: u32) -> Self {
        let lamport = parent_to_lamport_pk(self, index);
        // HKDF_mod_r refuses only key material under 32 bytes; the Lamport key has 32.
        Self::key_gen(lamport.as_ref(), b"").expect("a 32-byte Lamport key is valid HKDF_mod_r input")
    }

    /// The key at an EIP-2334 path below the master key of `seed`:
    /// `derive_child(...derive_child(derive_master(seed), path[0])..., path[last])`.
    ///
    /// ```
    /// use zkforge_bls::{KeyPath, SecretKey};
    /// let seed = [5u8; 64];
    /// let sk = SecretKey::derive_path(&seed, &KeyPath::validator_signing(0)).unwrap();
    /// let step = SecretKey::derive_master(&seed).unwrap()
    ///     .derive_child(12381).derive_child(3600).derive_child(0).derive_child(0).derive_child(0);
    /// assert_eq!(sk, step);
    /// ```
    pub fn derive_path(seed: &[u8], path: &KeyPath) -> Result<Self, BlsError> {
        let mut sk = Self::derive_master(seed)?;
        for &i in &path.0 {
            sk = sk.derive_child(i);
        }
        Ok(sk)
    }
}

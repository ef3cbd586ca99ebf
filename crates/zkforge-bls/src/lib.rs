//! BLS signatures on BLS12-381 as Ethereum's consensus layer uses them: the
//! minimal-pubkey-size variant (public keys in G1, 48 bytes; signatures in G2, 96 bytes) with
//! the proof-of-possession ciphersuite `BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_` of
//! draft-irtf-cfrg-bls-signature-05 (the draft the consensus specs pin), on zkforge's curves,
//! RFC 9380 hash to G2 and multi-Miller-loop pairing check.
//!
//! - [`SecretKey`]: `KeyGen` (section 2.3; EIP-2333's `HKDF_mod_r`), 32-byte big-endian
//!   encoding, `SkToPk`, `Sign` and `PopProve`, with the scalar multiplications in constant
//!   time and the scalar zeroized on drop.
//! - Key trees: EIP-2333's [`SecretKey::derive_master`] and [`SecretKey::derive_child`],
//!   EIP-2334 paths ([`KeyPath`], [`SecretKey::derive_path`]), and EIP-2335 keystores (the
//!   password-encrypted JSON key files of Ethereum validators, module [`keystore`], feature
//!   `keystore`, on by default).
//! - [`PublicKey`]: decoding with `KeyValidate` (on the curve, in G1, not the identity).
//! - [`Signature`]: decoding (on the twist; the G2 subgroup test is part of every verification,
//!   as the draft's `CoreVerify` does it, or up front with [`Signature::from_bytes_validated`]),
//!   `Aggregate`.
//! - Verification: [`verify`], [`fast_aggregate_verify`], [`aggregate_verify`] and
//!   [`verify_signature_sets`] (many independent signature sets in one pairing check, with
//!   random 64-bit weights, as Ethereum clients verify a block's signatures), and
//!   [`pop_verify`].
//!
//! A verification is one pairing check `e(-g1, sigma) * prod e(pk_i, H(m_i)) = 1`. The G2
//! subgroup test of the signature comes out of the Miller loop (it ends on [|x|] sigma, and
//! sigma is in G2 exactly when that equals -psi(sigma); `zkforge_pairing`'s
//! `pairing_check_g2_unchecked`), so it costs two Fp2 products instead of a separate ladder.
//! Messages are public: several of them are hashed at once by
//! `hash_to_g2_batch_vartime` (one inversion per group of eight, the exponentiations and the
//! cofactor ladders on IFMA lanes where the CPU has them).
//!
//! ```
//! use zkforge_bls::{aggregate_verify, fast_aggregate_verify, verify, SecretKey, Signature};
//! let sk = SecretKey::key_gen(&[7u8; 32], b"").unwrap();
//! let pk = sk.public_key();
//! let sig = sk.sign(b"hello");
//! assert!(verify(&pk, b"hello", &sig));
//! assert!(!verify(&pk, b"hullo", &sig));
//! // round trip through the 48- and 96-byte encodings
//! let pk2 = zkforge_bls::PublicKey::from_bytes(&pk.to_bytes()).unwrap();
//! let sig2 = Signature::from_bytes(&sig.to_bytes()).unwrap();
//! assert!(verify(&pk2, b"hello", &sig2));
//! // two signers, one message
//! let sk_b = SecretKey::key_gen(&[8u8; 32], b"").unwrap();
//! let agg = Signature::aggregate(&[sk.sign(b"m"), sk_b.sign(b"m")]).unwrap();
//! assert!(fast_aggregate_verify(&[pk, sk_b.public_key()], b"m", &agg));
//! // two signers, two messages
//! let agg = Signature::aggregate(&[sk.sign(b"a"), sk_b.sign(b"b")]).unwrap();
//! assert!(aggregate_verify(&[pk, sk_b.public_key()], &[&b"a"[..], &b"b"[..]], &agg));
//! ```

mod derive;
mod keys;
#[cfg(feature = "keystore")]
pub mod keystore;
mod signature;
mod verify;

pub use derive::KeyPath;
pub use keys::{PublicKey, SecretKey};
pub use signature::Signature;
pub use verify::{
    aggregate_verify, aggregate_verify_with, fast_aggregate_verify, pop_verify, verify, verify_signature_sets,
    verify_signature_sets_with, Handoff, HashMethod, SignatureSet, VerifyConfig,
};

/// The domain separation tag of signatures: the draft's proof-of-possession ciphersuite, the
/// one Ethereum's consensus layer uses.
pub const DST: &[u8] = b"BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_";

/// The domain separation tag of proofs of possession (`PopProve`, `PopVerify`).
pub const POP_DST: &[u8] = b"BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_";

/// Bytes of an encoded secret key (big-endian scalar).
pub const SECRET_KEY_BYTES: usize = 32;
/// Bytes of an encoded public key (compressed G1 point).
pub const PUBLIC_KEY_BYTES: usize = 48;
/// Bytes of an encoded signature (compressed G2 point).
pub const SIGNATURE_BYTES: usize = 96;

/// Why a key or signature was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlsError {
    /// The input has the wrong number of bytes.
    #[error("wrong length: expected {expected} bytes, got {got}")]
    WrongLength {
        /// Bytes the encoding needs.
        expected: usize,
        /// Bytes given.
        got: usize,
    },
    /// A secret key that is zero or not below the group order r.
    #[error("invalid secret key: it must be a big-endian integer in 1..r-1")]
    InvalidSecretKey,
    /// Key generation's input keying material is shorter than the 32 bytes the draft requires.
    #[error("key material too short: KeyGen needs at least 32 bytes of IKM, got {got}")]
    ShortKeyMaterial {
        /// Bytes given.
        got: usize,
    },
    /// A public key that is the identity (KeyValidate refuses it).
    #[error("invalid public key: the point at infinity")]
    IdentityPublicKey,
    /// The point's encoding was refused (length, flags, field range, curve or subgroup).
    #[error("invalid point: {0}")]
    Point(#[from] zkforge_curve::CurveError),
    /// Nothing to aggregate.
    #[error("nothing to aggregate: the list is empty")]
    EmptyAggregate,
    /// An EIP-2334 key path that does not parse.
    #[error("invalid key path {path:?}: {why} (EIP-2334 paths look like m/12381/3600/0/0/0)")]
    InvalidPath {
        /// The path given.
        path: String,
        /// What is wrong with it.
        why: &'static str,
    },
}

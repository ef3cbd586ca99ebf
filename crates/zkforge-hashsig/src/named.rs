//! Every scheme by its name, bytes in and bytes out: the layer the CLI (`zkforge hashsig`) and
//! the Python package (`zkforge.hashsig`) share, so both have one key-generation, signing and
//! verification path and the same key-reuse guard.
//!
//! Secret keys exist only inside a [`keystore`](crate::keystore) file: [`NamedScheme::keygen_to_store`]
//! writes a new store (never over an existing file) and returns the public key bytes;
//! [`NamedScheme::sign_with_store`] opens the store (locked, digest checked), reserves the epoch
//! on disk before signing, verifies the signature against the key's own public key and only
//! then returns it. No entry point takes a secret key as bytes, so a caller cannot sign twice
//! for one epoch by reloading an old copy of the key through this API.
//!
//! Scheme families (names as the reference vectors name them, listed by [`scheme_names`]):
//! the Poseidon2 instances of hash-sig and leanSig ([`crate::scheme`]), the SHA3-256
//! instances of hash-sig ([`crate::sha3_xmss`], bincode-legacy encoding only) and leanSig's
//! devnet-4 generation ([`crate::devnet4`]). Wire encodings: hash-sig's bincode-legacy (field
//! elements as Montgomery u32) and leanSig's SSZ (canonical u32).
//!
//! ```
//! use zkforge_hashsig::named::{NamedScheme, SeedRng, Wire};
//! let s = NamedScheme::by_name("poseidon2_toplevel_lifetime8_dim64_base8").unwrap();
//! let store = std::env::temp_dir().join(format!("zkforge-doc-{}.key", std::process::id()));
//! # let _ = std::fs::remove_file(&store);
//! let store = store.as_path();
//! let pk = s.keygen_to_store(store, [0x42; 32], SeedRng::ChaCha20, 0, 256, Wire::Ssz, &mut |_, _| {}).unwrap();
//! let sig = s.sign_with_store(store, 3, &[7u8; 32], Wire::Ssz).unwrap();
//! assert!(s.verify(&pk, 3, &[7u8; 32], &sig, Wire::Ssz).unwrap());
//! // the same epoch again is refused: the store already moved past it
//! assert!(s.sign_with_store(store, 3, &[8u8; 32], Wire::Ssz).is_err());
//! # std::fs::remove_file(store).unwrap();
//! ```

use std::path::Path;

use rand_chacha::rand_core::{RngCore, SeedableRng};

use crate::devnet4::Devnet4;
use crate::keygen::{check_activation, key_gen_with_progress, ActivationError, KeyMaterial};
use crate::keystore::{KeyStoreError, Store, StoredKey};
use crate::hypercube::Layers;
use crate::koalabear::Kb;
use crate::scheme::{instance_by_name, Instance, PublicKey, SchemeError, Signature};
use crate::sha3_xmss::{sha3_instance_by_name, Sha3Instance, Sha3Key, Sha3Signature};
use crate::tweak_hash::Perms;

/// Parameter length (field elements) of every Poseidon instance.
const PL: usize = 5;
/// Tweak length of the Poseidon2 instances.
const T: usize = 2;
/// Sponge capacity of the Poseidon2 leaf hash.
const CAP: usize = 9;

/// Wire encoding of public keys and signatures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wire {
    /// hash-sig's serde + bincode 1.x (field elements as Montgomery u32); the only encoding
    /// of the SHA3 instances.
    BincodeLegacy,
    /// leanSig's SSZ (field elements as canonical u32).
    Ssz,
}

/// The RNG a 32-byte key-generation seed drives (the reference vectors use both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedRng {
    /// rand_chacha's ChaCha20Rng (the hash-sig vectors' default).
    ChaCha20,
    /// rand's StdRng (ChaCha12), as the hash-sig benchmark repository and leanSig seed it.
    Std,
}

/// Errors of the by-name API. `Display` says what happened and what to do.
#[derive(Debug)]
pub enum NamedError {
    /// No scheme has this name.
    UnknownScheme(String),
    /// The SHA3 instances have only the bincode-legacy encoding.
    NoSsz,
    /// Key generation: activation parameters outside the lifetime (nothing was written).
    Activation(ActivationError),
    /// A public key or signature did not decode for this scheme and encoding.
    Decode {
        /// "public key" or "signature".
        what: &'static str,
        /// Why.
        source: SchemeError,
    },
    /// The key store refused (exists, damaged, not a store, epoch used or out of range) or
    /// could not be read or written; nothing was changed and no epoch was spent.
    Refused(KeyStoreError),
    /// Signing failed after the epoch was reserved: the epoch is spent, no signature exists.
    Spent {
        /// The spent epoch.
        epoch: u64,
        /// The cause.
        source: KeyStoreError,
    },
}

impl core::fmt::Display for NamedError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            NamedError::UnknownScheme(n) => write!(f, "unknown scheme {n:?}; `zkforge hashsig schemes` (or zkforge.hashsig.schemes()) lists them"),
            NamedError::NoSsz => write!(f, "the SHA3 instances have no SSZ encoding: use the bincode-legacy encoding"),
            NamedError::Activation(e) => write!(f, "{e}"),
            NamedError::Decode { what, source } => write!(f, "the {what} does not decode for this scheme and encoding: {source}"),
            NamedError::Refused(e) => write!(f, "{e}"),
            NamedError::Spent { epoch, source } => {
                let what = source.to_string();
                if what.contains("is spent") {
                    write!(f, "{what}")
                } else {
                    write!(f, "{what}; epoch {epoch} is spent (it will never be signed again), sign the message at a later epoch")
                }
            }
        }
    }
}

impl std::error::Error for NamedError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NamedError::Activation(e) => Some(e),
            NamedError::Decode { source, .. } => Some(source),
            NamedError::Refused(e) | NamedError::Spent { source: e, .. } => Some(e),
            _ => None,
        }
    }
}

/// The family a scheme name belongs to.
#[derive(Clone, Debug)]
enum Family {
    Poseidon2(Instance),
    Sha3(Sha3Instance),
    Devnet4(Box<Devnet4>),
}

/// A scheme chosen by name. The Poseidon2 permutations and the hypercube layer tables are
/// built on first use and kept (about half a millisecond to build, several times a
/// verification), so a caller that verifies many signatures keeps one `NamedScheme`.
pub struct NamedScheme {
    name: String,
    family: Family,
    perms: std::sync::OnceLock<Perms>,
    layers: std::sync::OnceLock<Layers>,
}

/// Every scheme name the library knows, in the order `zkforge hashsig schemes` lists them.
pub fn scheme_names() -> Vec<String> {
    let mut v: Vec<String> = ["8", "18", "32"].iter().map(|l| format!("poseidon2_toplevel_lifetime{l}_dim64_base8")).collect();
    for fam in ["poseidon2", "sha3"] {
        for life in [18, 20] {
            for w in [1, 2, 4, 8] {
                v.push(format!("{fam}_winternitz_lifetime{life}_w{w}"));
                for off in ["nooff", "off10"] {
                    v.push(format!("{fam}_targetsum_lifetime{life}_w{w}_{off}"));
                }
            }
        }
    }
    v.push("leansig_head_aborting_lifetime8_dim46_base8".into());
    v.push("leansig_head_aborting_lifetime32_dim46_base8".into());
    v
}

fn seeded(rng: SeedRng, seed: [u8; 32]) -> Box<dyn RngCore + Send> {
    match rng {
        SeedRng::ChaCha20 => Box::new(rand_chacha::ChaCha20Rng::from_seed(seed)),
        SeedRng::Std => Box::new(rand_chacha::ChaCha12Rng::from_seed(seed)),
    }
}

/// Create the store for a freshly generated key; returns the public key bytes.
fn store_new<K: StoredKey>(path: &Path, scheme: &str, key: K, pk: impl FnOnce(&K) -> Vec<u8>) -> Result<Vec<u8>, NamedError> {
    let pk = pk(&key);
    Store::create(path, scheme, key).map_err(NamedError::Refused)?;
    Ok(pk)
}

/// Open, reserve, prepare, sign and self-verify: the one signing path.
fn store_sign<K: StoredKey, S>(
    path: &Path,
    scheme: &str,
    epoch: u64,
    prepare: impl FnOnce(&mut Store<K>) -> Result<(), KeyStoreError>,
    sign: impl FnOnce(&K) -> Result<S, SchemeError>,
    verify: impl FnOnce(&K, &S) -> bool,
) -> Result<S, NamedError> {
    let mut ks = Store::<K>::open(path, scheme).map_err(NamedError::Refused)?;
    ks.reserve(epoch).map_err(NamedError::Refused)?;
    // from here on the epoch is spent whatever happens
    prepare(&mut ks).map_err(|source| NamedError::Spent { epoch, source })?;
    ks.sign_reserved(epoch, sign, verify).map_err(|source| NamedError::Spent { epoch, source })
}

fn decode<X>(r: Result<X, SchemeError>, what: &'static str) -> Result<X, NamedError> {
    r.map_err(|source| NamedError::Decode { what, source })
}

fn encode_pk<const H: usize>(km: &KeyMaterial<PL, H>, wire: Wire) -> Vec<u8> {
    let pk = PublicKey::<PL, H> { root: km.root, parameter: km.parameter };
    match wire {
        Wire::BincodeLegacy => pk.to_bincode_legacy(),
        Wire::Ssz => pk.to_ssz(),
    }
}

fn encode_sig<const R: usize, const H: usize>(sig: &Signature<R, H>, wire: Wire) -> Vec<u8> {
    match wire {
        Wire::BincodeLegacy => sig.to_bincode_legacy(),
        Wire::Ssz => sig.to_ssz(),
    }
}

fn decode_pk_sig<const R: usize, const H: usize>(pk: &[u8], sig: &[u8], wire: Wire, log_lifetime: usize, dimension: usize) -> Result<(PublicKey<PL, H>, Signature<R, H>), NamedError> {
    Ok(match wire {
        Wire::BincodeLegacy => (decode(PublicKey::from_bincode_legacy(pk), "public key")?, decode(Signature::from_bincode_legacy(sig, log_lifetime, dimension), "signature")?),
        Wire::Ssz => (decode(PublicKey::from_ssz(pk), "public key")?, decode(Signature::from_ssz(sig, log_lifetime, dimension), "signature")?),
    })
}

/// (public key, signature) sizes in bytes for both encodings of a Poseidon instance.
fn kb_sizes<const H: usize, const R: usize>(log_lifetime: usize, dimension: usize) -> String {
    let pk = PublicKey::<PL, H> { root: [Kb::ZERO; H], parameter: [Kb::ZERO; PL] };
    let sig = Signature::<R, H> { co_path: vec![[Kb::ZERO; H]; log_lifetime], rho: [Kb::ZERO; R], hashes: vec![[Kb::ZERO; H]; dimension] };
    format!("pk {:>3} B, sig {:>5} B (ssz); pk {:>3} B, sig {:>5} B (bincode-legacy)", pk.to_ssz().len(), sig.to_ssz().len(), pk.to_bincode_legacy().len(), sig.to_bincode_legacy().len())
}

/// The Poseidon2 paths, one monomorphised copy per (HASH_LEN, RAND_LEN).
struct P2<const H: usize, const R: usize>;

/// (next usable epoch, first active epoch, active epochs) of the store at `path` (opened, so
/// locked and digest-checked, then released).
fn store_status<K: StoredKey>(path: &Path, name: &str) -> Result<(u64, u64, u64), NamedError> {
    let ks = Store::<K>::open(path, name).map_err(NamedError::Refused)?;
    Ok((ks.next_epoch, ks.key.activation_start(), ks.key.active_epochs()))
}

impl<const H: usize, const R: usize> P2<H, R> {
    fn sizes(log_lifetime: usize, dimension: usize) -> String {
        kb_sizes::<H, R>(log_lifetime, dimension)
    }

    fn status(path: &Path, name: &str) -> Result<(u64, u64, u64), NamedError> {
        store_status::<KeyMaterial<PL, H>>(path, name)
    }

    #[allow(clippy::too_many_arguments)]
    fn keygen(i: &Instance, perms: &Perms, name: &str, path: &Path, rng: &mut impl RngCore, a: (u64, u64), wire: Wire, progress: &mut (dyn FnMut(u64, u64) + Send)) -> Result<Vec<u8>, NamedError> {
        let km = key_gen_with_progress::<PL, T, H, CAP>(perms, &i.shape, rng, a.0, a.1, progress).map_err(NamedError::Activation)?;
        store_new(path, name, km, |km| encode_pk(km, wire))
    }

    #[allow(clippy::too_many_arguments)]
    fn sign(i: &Instance, perms: &Perms, layers: &Layers, name: &str, path: &Path, epoch: u32, msg: &[u8; 32], wire: Wire) -> Result<Vec<u8>, NamedError> {
        let sig = store_sign::<KeyMaterial<PL, H>, Signature<R, H>>(
            path,
            name,
            epoch as u64,
            |ks| ks.advance_preparation::<T, CAP>(perms, &i.shape, epoch as u64),
            |key| i.sign::<PL, T, H, CAP, R>(perms, layers, key, epoch, msg),
            |key, sig| i.verify::<PL, T, H, CAP, R>(perms, layers, &key.root, &key.parameter, epoch, msg, sig),
        )?;
        Ok(encode_sig(&sig, wire))
    }

    #[allow(clippy::too_many_arguments)]
    fn verify(i: &Instance, perms: &Perms, layers: &Layers, pk: &[u8], epoch: u32, msg: &[u8; 32], sig: &[u8], wire: Wire) -> Result<bool, NamedError> {
        let (pk, sig) = decode_pk_sig::<R, H>(pk, sig, wire, i.shape.log_lifetime as usize, i.shape.dimension)?;
        Ok(i.verify::<PL, T, H, CAP, R>(perms, layers, &pk.root, &pk.parameter, epoch, msg, &sig))
    }
}

/// Dispatch on (HASH_LEN, RAND_LEN) of a Poseidon2 instance; `$f` is a `P2` method.
macro_rules! p2 {
    ($i:expr, $f:ident ( $($arg:expr),* )) => {
        match ($i.hash_len, $i.rand_len) {
            (8, 7) => P2::<8, 7>::$f($($arg),*),
            (7, 6) => P2::<7, 6>::$f($($arg),*),
            (7, 5) => P2::<7, 5>::$f($($arg),*),
            (8, 6) => P2::<8, 6>::$f($($arg),*),
            (h, r) => unreachable!("instance_by_name gave HASH_LEN {h}, RAND_LEN {r}, which has no build"),
        }
    };
}

impl core::fmt::Debug for NamedScheme {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("NamedScheme").field("name", &self.name).finish_non_exhaustive()
    }
}

impl NamedScheme {
    /// The scheme called `name` (see [`scheme_names`]).
    pub fn by_name(name: &str) -> Result<Self, NamedError> {
        let family = if let Some(d) = Devnet4::by_name(name) {
            Family::Devnet4(Box::new(d))
        } else if let Some(i) = sha3_instance_by_name(name) {
            Family::Sha3(i)
        } else if let Some(i) = instance_by_name(name).filter(|i| matches!((i.hash_len, i.rand_len), (8, 7) | (7, 6) | (7, 5) | (8, 6))) {
            Family::Poseidon2(i)
        } else {
            return Err(NamedError::UnknownScheme(name.to_string()));
        };
        Ok(NamedScheme { name: name.to_string(), family, perms: Default::default(), layers: Default::default() })
    }

    fn perms(&self) -> &Perms {
        self.perms.get_or_init(Perms::default)
    }

    /// The Poseidon2 instance's hypercube layers (only called for that family).
    fn layers(&self, i: &Instance) -> &Layers {
        self.layers.get_or_init(|| i.layers())
    }

    /// The scheme's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// log2 of the lifetime (number of epochs).
    pub fn log_lifetime(&self) -> u32 {
        match &self.family {
            Family::Poseidon2(i) => i.shape.log_lifetime,
            Family::Sha3(i) => i.log_lifetime,
            Family::Devnet4(d) => d.log_lifetime,
        }
    }

    /// Whether `wire` exists for this scheme (the SHA3 instances have no SSZ).
    pub fn check_wire(&self, wire: Wire) -> Result<(), NamedError> {
        match (&self.family, wire) {
            (Family::Sha3(_), Wire::Ssz) => Err(NamedError::NoSsz),
            _ => Ok(()),
        }
    }

    /// The reference's key-generation precondition for this scheme's lifetime.
    pub fn check_activation(&self, activation_epoch: u64, active_epochs: u64) -> Result<(), NamedError> {
        check_activation(self.log_lifetime(), activation_epoch, active_epochs).map_err(NamedError::Activation)
    }

    /// One line: name, lifetime, hash and the key and signature sizes.
    pub fn describe(&self) -> String {
        let name = &self.name;
        match &self.family {
            Family::Poseidon2(i) => {
                let (ll, dim) = (i.shape.log_lifetime as usize, i.shape.dimension);
                let sizes = p2!(i, sizes(ll, dim));
                format!("{name:<46} lifetime 2^{ll:<2} Poseidon2  {sizes}")
            }
            Family::Devnet4(d) => {
                let sizes = kb_sizes::<{ crate::devnet4::H }, { crate::devnet4::R }>(d.log_lifetime as usize, d.dimension);
                format!("{name:<46} lifetime 2^{:<2} Poseidon1  {sizes}", d.log_lifetime)
            }
            Family::Sha3(i) => {
                let sig = Sha3Signature { co_path: vec![[0u8; 32]; i.log_lifetime as usize], rho: [0u8; 32], hashes: vec![[0u8; 32]; i.dimension()] };
                let pk = i.hash_len + crate::sha3_xmss::PARAMETER_LEN;
                format!("{name:<46} lifetime 2^{:<2} SHA3-256   pk {pk:>3} B, sig {:>5} B (bincode-legacy only)", i.log_lifetime, i.signature_to_bytes(&sig).len())
            }
        }
    }

    /// Generate a key from `seed` (reproducing the reference's key for the same seed and
    /// RNG) into a new key store at `path`, and return the public key in `wire` encoding.
    ///
    /// Checks the activation range and the encoding first, and refuses an existing `path`
    /// before the (possibly long) key generation; the store is created with
    /// [`Store::create`], which never overwrites. Runs on the caller's rayon pool;
    /// `progress(done, total)` is called after each bottom tree of the Poseidon2 instances.
    #[allow(clippy::too_many_arguments)]
    pub fn keygen_to_store(
        &self,
        path: &Path,
        seed: [u8; 32],
        rng: SeedRng,
        activation_epoch: u64,
        active_epochs: u64,
        wire: Wire,
        progress: &mut (dyn FnMut(u64, u64) + Send),
    ) -> Result<Vec<u8>, NamedError> {
        self.check_wire(wire)?;
        self.check_activation(activation_epoch, active_epochs)?;
        if path.exists() {
            return Err(NamedError::Refused(KeyStoreError::AlreadyExists { path: path.to_path_buf() }));
        }
        let mut boxed = seeded(rng, seed);
        let mut r: &mut (dyn RngCore + Send) = &mut *boxed;
        let a = (activation_epoch, active_epochs);
        let name = self.name.as_str();
        match &self.family {
            Family::Poseidon2(i) => p2!(i, keygen(i, self.perms(), name, path, &mut r, a, wire, progress)),
            Family::Devnet4(d) => store_new(path, name, d.key_gen(&mut r, a.0, a.1).map_err(NamedError::Activation)?, |km| encode_pk(km, wire)),
            Family::Sha3(i) => store_new(path, name, i.key_gen(&mut r, a.0, a.1).map_err(NamedError::Activation)?, |key: &Sha3Key| i.public_key_bytes(key)),
        }
    }

    /// Sign `message` at `epoch` with the key in the store at `path` and return the
    /// signature in `wire` encoding. The store is locked, its digest checked, and the epoch
    /// reserved on disk before anything is signed: an epoch at or below one already used is
    /// [`NamedError::Refused`] (`EpochAlreadyUsed`), and a failure after the reservation is
    /// [`NamedError::Spent`]. The signature is verified against the key's public key before
    /// it is returned.
    pub fn sign_with_store(&self, path: &Path, epoch: u32, message: &[u8; 32], wire: Wire) -> Result<Vec<u8>, NamedError> {
        self.check_wire(wire)?;
        let name = self.name.as_str();
        match &self.family {
            Family::Poseidon2(i) => p2!(i, sign(i, self.perms(), self.layers(i), name, path, epoch, message, wire)),
            Family::Devnet4(d) => {
                let sig = store_sign::<KeyMaterial<PL, { crate::devnet4::H }>, Signature<{ crate::devnet4::R }, { crate::devnet4::H }>>(
                    path,
                    name,
                    epoch as u64,
                    |_| Ok(()),
                    |key| d.sign(key, epoch, message),
                    |key, sig| d.verify(&key.root, &key.parameter, epoch, message, sig),
                )?;
                Ok(encode_sig(&sig, wire))
            }
            Family::Sha3(i) => {
                let sig = store_sign::<Sha3Key, Sha3Signature>(path, name, epoch as u64, |_| Ok(()), |key| i.sign(key, epoch, message), |key, sig| i.verify(&key.root, &key.parameter, epoch, message, sig))?;
                Ok(i.signature_to_bytes(&sig))
            }
        }
    }

    /// Verify `signature` on `message` at `epoch` under `public_key` (both in `wire`
    /// encoding). `Ok(false)` for a well-formed signature that does not verify; an error
    /// when either input does not decode.
    pub fn verify(&self, public_key: &[u8], epoch: u32, message: &[u8; 32], signature: &[u8], wire: Wire) -> Result<bool, NamedError> {
        self.check_wire(wire)?;
        match &self.family {
            Family::Poseidon2(i) => p2!(i, verify(i, self.perms(), self.layers(i), public_key, epoch, message, signature, wire)),
            Family::Devnet4(d) => {
                let (pk, sig) = decode_pk_sig::<{ crate::devnet4::R }, { crate::devnet4::H }>(public_key, signature, wire, d.log_lifetime as usize, d.dimension)?;
                Ok(d.verify(&pk.root, &pk.parameter, epoch, message, &sig))
            }
            Family::Sha3(i) => {
                let (root, parameter) = decode(i.public_key_from_bytes(public_key), "public key")?;
                let sig = decode(i.signature_from_bytes(signature), "signature")?;
                Ok(i.verify(&root, &parameter, epoch, message, &sig))
            }
        }
    }

    /// The store at `path` (checked as for signing, then released): (next usable epoch,
    /// first active epoch, number of active epochs).
    pub fn store_status(&self, path: &Path) -> Result<(u64, u64, u64), NamedError> {
        match &self.family {
            Family::Poseidon2(i) => p2!(i, status(path, &self.name)),
            Family::Devnet4(_) => store_status::<KeyMaterial<PL, { crate::devnet4::H }>>(path, &self.name),
            Family::Sha3(_) => store_status::<Sha3Key>(path, &self.name),
        }
    }
}

//! A stateful signing key that never signs twice in one epoch.
//!
//! A one-time signature scheme is broken the moment an epoch is signed for two messages, so the
//! store is built around four rules:
//! - **Reserve before sign.** Before a signature is produced, the advanced epoch is written to
//!   a temporary file beside the store (a name unique to the process and the call), fsynced,
//!   renamed over the store, and the directory fsynced: after a crash the file names an epoch
//!   at or past every signature that left the process. A crash may skip an epoch, never reuse
//!   one. Signing an epoch below the stored one is [`KeyStoreError::EpochAlreadyUsed`].
//! - **One signer at a time.** Opening a store takes an exclusive advisory lock (`flock` on a
//!   sidecar `<store>.lock` file, which is never removed, so the lock survives the rename of
//!   the store) held until the handle is dropped: concurrent signers on one store serialise,
//!   and the later one sees the earlier one's epoch.
//! - **Damage is detected.** The file ends with a SHA3-256 digest of everything before it,
//!   checked on every open before anything else is read ([`KeyStoreError::Damaged`]), so a
//!   flipped bit in the PRF key, the parameter, a tree node or the epoch counter stops the
//!   store before an epoch is spent.
//! - **Nothing unverified leaves.** [`Store::sign_reserved`] verifies each signature against
//!   the key's public root and parameter before returning it.
//!
//! [`Store::create`] refuses to overwrite an existing file: a new key goes to a new file.
//!
//! The key type is generic ([`StoredKey`]): Poseidon2/Poseidon1 keys ([`KeyStore`], over
//! [`KeyMaterial`]) and SHA3 keys ([`Sha3KeyStore`]).
//!
//! File format (little-endian): magic "ZKFHSIG2", u32 scheme-name length and name, u64 next
//! epoch, the key body, then the 32-byte SHA3-256 digest of all preceding bytes. The
//! [`KeyMaterial`] body: u64 activation start, u64 active epochs, 32-byte PRF key, PL parameter
//! words, H root words, u32 number of top layers, then per layer u64 start, u32 count and
//! count * H words; u32 number of prepared bottom trees, then per tree u64 index, u32 layer
//! count and per layer u32 count and count * H words (field elements as canonical u32). The
//! SHA3 body is the same with HASH_LEN-byte nodes and an 18-byte parameter. Version-1 files
//! ("ZKFHSIG1": no digest) are still read, and rewritten as version 2 by the next write.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use sha3::{Digest, Sha3_256};

use crate::keygen::KeyMaterial;
use crate::koalabear::{Kb, P};
use crate::sha3_xmss::{Sha3Key, PARAMETER_LEN};

const MAGIC_V1: &[u8; 8] = b"ZKFHSIG1";
const MAGIC_V2: &[u8; 8] = b"ZKFHSIG2";
const DIGEST_LEN: usize = 32;

/// Errors of the key store. Each names what happened and what to do in its `Display` text.
#[derive(Debug)]
pub enum KeyStoreError {
    /// A file-system operation on `path` failed.
    Io {
        /// What was being done ("read", "write", "lock", ...).
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// `create` found a file already at `path`.
    AlreadyExists {
        /// The file.
        path: PathBuf,
    },
    /// The store's digest does not match its contents.
    Damaged {
        /// The file.
        path: PathBuf,
    },
    /// The file is not a key store of this format or scheme.
    Malformed(&'static str),
    /// The epoch was already used (or lies below the next usable one).
    EpochAlreadyUsed {
        /// Requested epoch.
        epoch: u64,
        /// The first epoch still usable.
        next: u64,
    },
    /// The epoch is outside the key's activation range.
    EpochOutOfRange,
    /// `sign_reserved` was called for an epoch this handle did not reserve.
    NotReserved {
        /// The epoch.
        epoch: u64,
    },
    /// Signing failed after the epoch was reserved (the epoch is spent).
    Scheme {
        /// The reserved, now spent, epoch.
        epoch: u64,
        /// The scheme's error.
        source: crate::scheme::SchemeError,
    },
    /// A signature did not verify under the key's own public key: the key material is
    /// inconsistent. The epoch is spent; nothing was returned.
    SelfCheckFailed {
        /// The spent epoch.
        epoch: u64,
    },
}

impl core::fmt::Display for KeyStoreError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            KeyStoreError::Io { action, path, source } => write!(f, "could not {action} {}: {source}", path.display()),
            KeyStoreError::AlreadyExists { path } => write!(
                f,
                "{} already exists: a key store is never overwritten (that would reset its epoch counter); write the new key to a new file",
                path.display()
            ),
            KeyStoreError::Damaged { path } => write!(
                f,
                "key store {} is damaged (its checksum does not match its contents); no epoch was spent. Restore it from a backup taken after its last signature, or generate a new key",
                path.display()
            ),
            KeyStoreError::Malformed(w) => write!(f, "not a usable key store: {w}"),
            KeyStoreError::EpochAlreadyUsed { epoch, next } => {
                write!(f, "epoch {epoch} was already used by this key (the next usable epoch is {next}); signing it again would break the one-time signature")
            }
            KeyStoreError::EpochOutOfRange => write!(f, "epoch outside the key's activation range"),
            KeyStoreError::NotReserved { epoch } => write!(f, "epoch {epoch} was not reserved by this handle before signing"),
            KeyStoreError::Scheme { epoch, source } => write!(f, "signing epoch {epoch} failed: {source}; the epoch is spent, sign at a later epoch"),
            KeyStoreError::SelfCheckFailed { epoch } => write!(
                f,
                "the signature for epoch {epoch} did not verify under the key's own public key, so it was not written; the key material is inconsistent and the epoch is spent"
            ),
        }
    }
}

impl std::error::Error for KeyStoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            KeyStoreError::Io { source, .. } => Some(source),
            KeyStoreError::Scheme { source, .. } => Some(source),
            _ => None,
        }
    }
}

fn io<'a>(action: &'static str, path: &'a Path) -> impl FnOnce(std::io::Error) -> KeyStoreError + 'a {
    move |source| KeyStoreError::Io { action, path: path.to_path_buf(), source }
}

/// A byte reader over a key-store body (for [`StoredKey::decode_body`]).
pub struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], KeyStoreError> {
        if self.0.len() < n {
            return Err(KeyStoreError::Malformed("truncated"));
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }
    /// A little-endian u32.
    pub fn u32(&mut self) -> Result<u32, KeyStoreError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
    /// A little-endian u64.
    pub fn u64(&mut self) -> Result<u64, KeyStoreError> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
    /// A canonical KoalaBear element.
    pub fn kb(&mut self) -> Result<Kb, KeyStoreError> {
        let v = self.u32()?;
        if v >= P {
            return Err(KeyStoreError::Malformed("field element >= p"));
        }
        Ok(Kb::new(v))
    }
    /// N canonical KoalaBear elements.
    pub fn kbs<const N: usize>(&mut self) -> Result<[Kb; N], KeyStoreError> {
        let mut a = [Kb::ZERO; N];
        for x in a.iter_mut() {
            *x = self.kb()?;
        }
        Ok(a)
    }
    /// A count that must leave at least `min_each` bytes per item in the rest of the input
    /// (so a corrupt count cannot ask for a huge allocation).
    fn count(&mut self, min_each: usize) -> Result<usize, KeyStoreError> {
        let n = self.u32()? as usize;
        if n.saturating_mul(min_each.max(1)) > self.0.len() {
            return Err(KeyStoreError::Malformed("count larger than the file"));
        }
        Ok(n)
    }
}

/// A secret key the store can hold: its activation range and its body encoding.
pub trait StoredKey: Sized {
    /// First epoch of the (expanded) activation range.
    fn activation_start(&self) -> u64;
    /// Number of epochs of the range.
    fn active_epochs(&self) -> u64;
    /// Append the body encoding (see the module docs).
    fn encode_body(&self, out: &mut Vec<u8>);
    /// Decode a body written by [`StoredKey::encode_body`].
    fn decode_body(r: &mut Reader<'_>) -> Result<Self, KeyStoreError>;
}

fn words(out: &mut Vec<u8>, xs: &[Kb]) {
    for x in xs {
        out.extend_from_slice(&x.to_canonical().to_le_bytes());
    }
}

/// Layers of nodes: u32 count, then per layer (u64 start or nothing) u32 count and nodes.
fn encode_top<N>(out: &mut Vec<u8>, layers: &[(u64, Vec<N>)], node: impl Fn(&mut Vec<u8>, &N)) {
    out.extend_from_slice(&(layers.len() as u32).to_le_bytes());
    for (start, layer) in layers {
        out.extend_from_slice(&start.to_le_bytes());
        out.extend_from_slice(&(layer.len() as u32).to_le_bytes());
        for n in layer {
            node(out, n);
        }
    }
}

fn encode_prepared<N>(out: &mut Vec<u8>, trees: &[(u64, Vec<Vec<N>>)], node: impl Fn(&mut Vec<u8>, &N)) {
    out.extend_from_slice(&(trees.len() as u32).to_le_bytes());
    for (k, tree) in trees {
        out.extend_from_slice(&k.to_le_bytes());
        out.extend_from_slice(&(tree.len() as u32).to_le_bytes());
        for layer in tree {
            out.extend_from_slice(&(layer.len() as u32).to_le_bytes());
            for n in layer {
                node(out, n);
            }
        }
    }
}

/// Top-tree layers written by [`encode_top`]; `node` reads one node of `node_len` bytes.
fn decode_top<N>(r: &mut Reader<'_>, node_len: usize, node: impl Fn(&mut Reader<'_>) -> Result<N, KeyStoreError>) -> Result<Vec<(u64, Vec<N>)>, KeyStoreError> {
    let nl = r.count(12)?;
    let mut layers = Vec::with_capacity(nl);
    for _ in 0..nl {
        let start = r.u64()?;
        let count = r.count(node_len)?;
        let mut layer = Vec::with_capacity(count);
        for _ in 0..count {
            layer.push(node(r)?);
        }
        layers.push((start, layer));
    }
    Ok(layers)
}

/// Prepared bottom trees: (tree index, layers of nodes).
type Trees<N> = Vec<(u64, Vec<Vec<N>>)>;

/// Prepared trees written by [`encode_prepared`].
fn decode_prepared<N>(r: &mut Reader<'_>, node_len: usize, node: impl Fn(&mut Reader<'_>) -> Result<N, KeyStoreError>) -> Result<Trees<N>, KeyStoreError> {
    let np = r.count(12)?;
    let mut trees = Vec::with_capacity(np);
    for _ in 0..np {
        let k = r.u64()?;
        let nl = r.count(4)?;
        let mut tree = Vec::with_capacity(nl);
        for _ in 0..nl {
            let count = r.count(node_len)?;
            let mut layer = Vec::with_capacity(count);
            for _ in 0..count {
                layer.push(node(r)?);
            }
            tree.push(layer);
        }
        trees.push((k, tree));
    }
    Ok(trees)
}

impl<const PL: usize, const H: usize> StoredKey for KeyMaterial<PL, H> {
    fn activation_start(&self) -> u64 {
        self.activation_start
    }
    fn active_epochs(&self) -> u64 {
        self.active_epochs
    }
    fn encode_body(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.activation_start.to_le_bytes());
        out.extend_from_slice(&self.active_epochs.to_le_bytes());
        out.extend_from_slice(&self.prf_key);
        words(out, &self.parameter);
        words(out, &self.root);
        encode_top(out, &self.top_layers, |o, n| words(o, n));
        encode_prepared(out, &self.prepared, |o, n| words(o, n));
    }
    fn decode_body(r: &mut Reader<'_>) -> Result<Self, KeyStoreError> {
        let activation_start = r.u64()?;
        let active_epochs = r.u64()?;
        let prf_key: [u8; 32] = r.take(32)?.try_into().expect("32 bytes");
        let parameter = r.kbs::<PL>()?;
        let root = r.kbs::<H>()?;
        let top_layers = decode_top(r, 4 * H, |r| r.kbs::<H>())?;
        let prepared = decode_prepared(r, 4 * H, |r| r.kbs::<H>())?;
        Ok(KeyMaterial { root, parameter, prf_key, activation_start, active_epochs, top_layers, prepared })
    }
}

/// SHA3 nodes are stored as their first `hash_len` bytes; the body starts with that length.
impl StoredKey for Sha3Key {
    fn activation_start(&self) -> u64 {
        self.activation_start
    }
    fn active_epochs(&self) -> u64 {
        self.active_epochs
    }
    fn encode_body(&self, out: &mut Vec<u8>) {
        let hash_len = self.hash_len;
        out.extend_from_slice(&(hash_len as u32).to_le_bytes());
        out.extend_from_slice(&self.activation_start.to_le_bytes());
        out.extend_from_slice(&self.active_epochs.to_le_bytes());
        out.extend_from_slice(&self.prf_key);
        out.extend_from_slice(&self.parameter);
        out.extend_from_slice(&self.root[..hash_len]);
        encode_top(out, &self.top_layers, |o, n| o.extend_from_slice(&n[..hash_len]));
        encode_prepared(out, &self.prepared, |o, n| o.extend_from_slice(&n[..hash_len]));
    }
    fn decode_body(r: &mut Reader<'_>) -> Result<Self, KeyStoreError> {
        let hash_len = r.u32()? as usize;
        if hash_len == 0 || hash_len > 32 {
            return Err(KeyStoreError::Malformed("SHA3 node length"));
        }
        let node = |r: &mut Reader<'_>| -> Result<[u8; 32], KeyStoreError> {
            let mut n = [0u8; 32];
            n[..hash_len].copy_from_slice(r.take(hash_len)?);
            Ok(n)
        };
        let activation_start = r.u64()?;
        let active_epochs = r.u64()?;
        let prf_key: [u8; 32] = r.take(32)?.try_into().expect("32 bytes");
        let parameter: [u8; PARAMETER_LEN] = r.take(PARAMETER_LEN)?.try_into().expect("parameter");
        let root = node(r)?;
        let top_layers = decode_top(r, hash_len, node)?;
        let prepared = decode_prepared(r, hash_len, node)?;
        Ok(Sha3Key { root, parameter, prf_key, activation_start, active_epochs, top_layers, prepared, hash_len })
    }
}

/// A secret key on disk with its next usable epoch, locked for the life of the handle.
pub struct Store<K: StoredKey> {
    path: PathBuf,
    /// The scheme name the key belongs to.
    pub scheme: String,
    /// The first epoch that may still be signed.
    pub next_epoch: u64,
    /// The key.
    pub key: K,
    /// The epoch this handle reserved last (what `sign_reserved` may sign).
    reserved: Option<u64>,
    /// The exclusive lock on `<path>.lock`, released on drop.
    _lock: File,
}

/// The store of Poseidon2 / Poseidon1 keys.
pub type KeyStore<const PL: usize, const H: usize> = Store<KeyMaterial<PL, H>>;
/// The store of SHA3 keys.
pub type Sha3KeyStore = Store<Sha3Key>;

/// The sidecar lock file of a store.
pub fn lock_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(".lock");
    PathBuf::from(s)
}

/// Take the exclusive lock of the store at `path` (blocking until other holders let go).
fn lock(path: &Path) -> Result<File, KeyStoreError> {
    let lp = lock_path(path);
    let f = OpenOptions::new().create(true).truncate(false).write(true).open(&lp).map_err(io("open the lock file", &lp))?;
    f.lock().map_err(io("lock", &lp))?;
    Ok(f)
}

/// A temporary name beside `path`, unique to this process and call.
fn temp_path(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut s = path.as_os_str().to_os_string();
    s.push(format!(".tmp.{}.{}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed)));
    PathBuf::from(s)
}

/// Write `bytes` to `path` atomically: a unique temporary file, fsync, rename, fsync of the
/// directory. Also used for signature files, so a reader never sees half a file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), KeyStoreError> {
    let tmp = temp_path(path);
    let res = (|| {
        let mut f = OpenOptions::new().write(true).create_new(true).open(&tmp).map_err(io("create", &tmp))?;
        f.write_all(bytes).map_err(io("write", &tmp))?;
        f.sync_all().map_err(io("sync", &tmp))?;
        fs::rename(&tmp, path).map_err(io("replace", path))?;
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        File::open(dir).and_then(|d| d.sync_all()).map_err(io("sync the directory of", path))
    })();
    if res.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    res
}

impl<K: StoredKey> Store<K> {
    /// Create a store for a fresh key (first usable epoch: the activation start) and write
    /// it; the file must not exist yet ([`KeyStoreError::AlreadyExists`]).
    pub fn create(path: &Path, scheme: &str, key: K) -> Result<Self, KeyStoreError> {
        let lock = lock(path)?;
        // claim the name: fails if anything is there, so a store is never overwritten
        match OpenOptions::new().write(true).create_new(true).open(path) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Err(KeyStoreError::AlreadyExists { path: path.to_path_buf() }),
            Err(e) => return Err(KeyStoreError::Io { action: "create", path: path.to_path_buf(), source: e }),
        }
        let s = Self { path: path.to_path_buf(), scheme: scheme.to_string(), next_epoch: key.activation_start(), key, reserved: None, _lock: lock };
        if let Err(e) = s.persist() {
            let _ = fs::remove_file(path);
            return Err(e);
        }
        Ok(s)
    }

    /// The whole file: header, body, digest.
    fn encode(&self) -> zeroize::Zeroizing<Vec<u8>> {
        let mut out = zeroize::Zeroizing::new(Vec::new());
        out.extend_from_slice(MAGIC_V2);
        out.extend_from_slice(&(self.scheme.len() as u32).to_le_bytes());
        out.extend_from_slice(self.scheme.as_bytes());
        out.extend_from_slice(&self.next_epoch.to_le_bytes());
        self.key.encode_body(&mut out);
        let digest = Sha3_256::digest(&out[..]);
        out.extend_from_slice(&digest);
        out
    }

    fn persist(&self) -> Result<(), KeyStoreError> {
        write_atomic(&self.path, &self.encode())
    }

    /// Open the store at `path` for scheme `scheme`: take its lock (waiting for another
    /// holder), check its digest ([`KeyStoreError::Damaged`]) and decode it.
    pub fn open(path: &Path, scheme: &str) -> Result<Self, KeyStoreError> {
        // a missing store is an error before its lock file is created beside it
        fs::metadata(path).map_err(io("read", path))?;
        let lock = lock(path)?;
        let data = zeroize::Zeroizing::new(fs::read(path).map_err(io("read", path))?);
        let body: &[u8] = if data.starts_with(MAGIC_V2) {
            if data.len() < 8 + DIGEST_LEN {
                return Err(KeyStoreError::Damaged { path: path.to_path_buf() });
            }
            let (content, digest) = data.split_at(data.len() - DIGEST_LEN);
            if Sha3_256::digest(content)[..] != digest[..] {
                return Err(KeyStoreError::Damaged { path: path.to_path_buf() });
            }
            &content[8..]
        } else if data.starts_with(MAGIC_V1) {
            &data[8..]
        } else {
            return Err(KeyStoreError::Malformed("not a zkforge hash-signature key store (bad magic)"));
        };
        let mut r = Reader(body);
        let n = r.count(1)?;
        let name = std::str::from_utf8(r.take(n)?).map_err(|_| KeyStoreError::Malformed("scheme name"))?.to_string();
        if name != scheme {
            return Err(KeyStoreError::Malformed("the key belongs to another scheme"));
        }
        let next_epoch = r.u64()?;
        let key = K::decode_body(&mut r)?;
        if !r.0.is_empty() {
            return Err(KeyStoreError::Malformed("trailing bytes"));
        }
        Ok(Self { path: path.to_path_buf(), scheme: name, next_epoch, key, reserved: None, _lock: lock })
    }

    /// The store's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reserve `epoch` for signing: refuses used epochs, then persists next = epoch + 1
    /// before returning, so the caller may release a signature for `epoch` afterwards.
    pub fn reserve(&mut self, epoch: u64) -> Result<(), KeyStoreError> {
        if epoch < self.next_epoch {
            return Err(KeyStoreError::EpochAlreadyUsed { epoch, next: self.next_epoch });
        }
        if epoch >= self.key.activation_start() + self.key.active_epochs() {
            return Err(KeyStoreError::EpochOutOfRange);
        }
        let old = self.next_epoch;
        self.next_epoch = epoch + 1;
        if let Err(e) = self.persist() {
            self.next_epoch = old;
            return Err(e);
        }
        self.reserved = Some(epoch);
        Ok(())
    }

    /// Sign `epoch`, which this handle must have reserved ([`Store::reserve`]), with `sign`,
    /// and return the signature only if `verify` accepts it under the key's public key
    /// ([`KeyStoreError::SelfCheckFailed`] otherwise). Either way the epoch stays spent.
    ///
    /// ```no_run
    /// # use zkforge_hashsig::keystore::KeyStore;
    /// # fn demo(ks: &mut KeyStore<5, 8>) -> Result<(), Box<dyn std::error::Error>> {
    /// ks.reserve(7)?;
    /// let sig = ks.sign_reserved(7, |key| Ok(key.root), |key, s| *s == key.root)?;
    /// # Ok(()) }
    /// ```
    pub fn sign_reserved<S>(
        &self,
        epoch: u64,
        sign: impl FnOnce(&K) -> Result<S, crate::scheme::SchemeError>,
        verify: impl FnOnce(&K, &S) -> bool,
    ) -> Result<S, KeyStoreError> {
        if self.reserved != Some(epoch) {
            return Err(KeyStoreError::NotReserved { epoch });
        }
        let sig = sign(&self.key).map_err(|source| KeyStoreError::Scheme { epoch, source })?;
        if !verify(&self.key, &sig) {
            return Err(KeyStoreError::SelfCheckFailed { epoch });
        }
        Ok(sig)
    }
}

impl<const PL: usize, const H: usize> Store<KeyMaterial<PL, H>> {
    /// Advance the prepared interval so that it starts at the bottom tree of `epoch`
    /// (computing the following tree when it is in range), then persist.
    pub fn advance_preparation<const T: usize, const CAP: usize>(&mut self, perms: &crate::tweak_hash::Perms, shape: &crate::keygen::Shape, epoch: u64) -> Result<(), KeyStoreError> {
        let half = shape.log_lifetime / 2;
        let k = epoch >> half;
        let last = (self.key.activation_start + self.key.active_epochs - 1) >> half;
        let before: Vec<u64> = self.key.prepared.iter().map(|(i, _)| *i).collect();
        self.key.prepared.retain(|(i, _)| *i >= k);
        for want in [k, k + 1] {
            if want <= last && !self.key.prepared.iter().any(|(i, _)| *i == want) {
                let t = perms.bottom_tree::<PL, T, H, CAP>(shape, &self.key.parameter, &self.key.prf_key, want);
                self.key.prepared.push((want, t));
            }
        }
        self.key.prepared.sort_by_key(|(i, _)| *i);
        if self.key.prepared.iter().map(|(i, _)| *i).collect::<Vec<_>>() != before {
            self.persist()?;
        }
        Ok(())
    }
}

//! A stateful signing key that never signs twice in one epoch.
//!
//! The store keeps the secret key and the next usable epoch in one file. Before a signature
//! is returned, the advanced epoch is written to a temporary file beside it, fsynced, renamed
//! over the old file, and the directory fsynced: after a crash the file names an epoch at or
//! past every signature that left the process. Signing an epoch below the stored one is a
//! typed error. The key keeps two bottom trees whole (the prepared interval); once signing
//! moves into the second, the store computes the next one, drops the first and persists
//! (the epoch is on disk before that work starts).
//!
//! File format (little-endian): magic "ZKFHSIG1", u32 scheme-name length and name, u64 next
//! epoch, u64 activation start, u64 active epochs, 32-byte PRF key, PL parameter words, H root
//! words, u32 number of top layers, then per layer u64 start, u32 count and count * H words;
//! u32 number of prepared bottom trees, then per tree u64 index, u32 layer count and per
//! layer u32 count and count * H words (field elements as canonical u32).

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::keygen::KeyMaterial;
use crate::koalabear::{Kb, P};

const MAGIC: &[u8; 8] = b"ZKFHSIG1";

/// Errors of the key store.
#[derive(Debug)]
pub enum KeyStoreError {
    /// File system error.
    Io(std::io::Error),
    /// The file is not a key of this format or scheme.
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
    /// Signing failed.
    Scheme(crate::scheme::SchemeError),
}

impl core::fmt::Display for KeyStoreError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            KeyStoreError::Io(e) => write!(f, "key store I/O: {e}"),
            KeyStoreError::Malformed(w) => write!(f, "malformed key file: {w}"),
            KeyStoreError::EpochAlreadyUsed { epoch, next } => write!(f, "epoch {epoch} already used (next usable: {next})"),
            KeyStoreError::EpochOutOfRange => write!(f, "epoch outside the key's activation range"),
            KeyStoreError::Scheme(e) => write!(f, "{e}"),
        }
    }
}
impl std::error::Error for KeyStoreError {}
impl From<std::io::Error> for KeyStoreError {
    fn from(e: std::io::Error) -> Self {
        KeyStoreError::Io(e)
    }
}

/// A secret key on disk with its next usable epoch.
pub struct KeyStore<const PL: usize, const H: usize> {
    path: PathBuf,
    /// The scheme name the key belongs to.
    pub scheme: String,
    /// The first epoch that may still be signed.
    pub next_epoch: u64,
    /// The key.
    pub key: KeyMaterial<PL, H>,
}

fn words(out: &mut Vec<u8>, xs: &[Kb]) {
    for x in xs {
        out.extend_from_slice(&x.to_canonical().to_le_bytes());
    }
}

struct Reader<'a>(&'a [u8]);
impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], KeyStoreError> {
        if self.0.len() < n {
            return Err(KeyStoreError::Malformed("truncated"));
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }
    fn u32(&mut self) -> Result<u32, KeyStoreError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4")))
    }
    fn u64(&mut self) -> Result<u64, KeyStoreError> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8")))
    }
    fn kb(&mut self) -> Result<Kb, KeyStoreError> {
        let v = self.u32()?;
        if v >= P {
            return Err(KeyStoreError::Malformed("field element >= p"));
        }
        Ok(Kb::new(v))
    }
    fn kbs<const N: usize>(&mut self) -> Result<[Kb; N], KeyStoreError> {
        let mut a = [Kb::ZERO; N];
        for x in a.iter_mut() {
            *x = self.kb()?;
        }
        Ok(a)
    }
}

impl<const PL: usize, const H: usize> KeyStore<PL, H> {
    /// Create a store for a fresh key (first usable epoch: the activation start) and write it.
    pub fn create(path: &Path, scheme: &str, key: KeyMaterial<PL, H>) -> Result<Self, KeyStoreError> {
        let s = Self { path: path.to_path_buf(), scheme: scheme.to_string(), next_epoch: key.activation_start, key };
        s.persist()?;
        Ok(s)
    }

    fn encode(&self) -> zeroize::Zeroizing<Vec<u8>> {
        let mut out = zeroize::Zeroizing::new(Vec::new());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.scheme.len() as u32).to_le_bytes());
        out.extend_from_slice(self.scheme.as_bytes());
        out.extend_from_slice(&self.next_epoch.to_le_bytes());
        out.extend_from_slice(&self.key.activation_start.to_le_bytes());
        out.extend_from_slice(&self.key.active_epochs.to_le_bytes());
        out.extend_from_slice(&self.key.prf_key);
        words(&mut out, &self.key.parameter);
        words(&mut out, &self.key.root);
        out.extend_from_slice(&(self.key.top_layers.len() as u32).to_le_bytes());
        for (start, layer) in &self.key.top_layers {
            out.extend_from_slice(&start.to_le_bytes());
            out.extend_from_slice(&(layer.len() as u32).to_le_bytes());
            for n in layer {
                words(&mut out, n);
            }
        }
        out.extend_from_slice(&(self.key.prepared.len() as u32).to_le_bytes());
        for (k, tree) in &self.key.prepared {
            out.extend_from_slice(&k.to_le_bytes());
            out.extend_from_slice(&(tree.len() as u32).to_le_bytes());
            for layer in tree {
                out.extend_from_slice(&(layer.len() as u32).to_le_bytes());
                for n in layer {
                    words(&mut out, n);
                }
            }
        }
        out
    }

    /// Write atomically: temporary file, fsync, rename, fsync of the directory.
    fn persist(&self) -> Result<(), KeyStoreError> {
        let bytes = self.encode();
        let tmp = self.path.with_extension("tmp");
        {
            let mut f = File::create(&tmp)?;
            f.write_all(&bytes)?;
            f.sync_all()?;
        }
        fs::rename(&tmp, &self.path)?;
        if let Some(dir) = self.path.parent() {
            let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
            File::open(dir)?.sync_all()?;
        }
        Ok(())
    }

    /// Open a stored key of scheme `scheme`.
    pub fn open(path: &Path, scheme: &str) -> Result<Self, KeyStoreError> {
        let data = zeroize::Zeroizing::new(fs::read(path)?);
        let mut r = Reader(&data);
        if r.take(8)? != MAGIC {
            return Err(KeyStoreError::Malformed("bad magic"));
        }
        let n = r.u32()? as usize;
        let name = std::str::from_utf8(r.take(n)?).map_err(|_| KeyStoreError::Malformed("scheme name"))?.to_string();
        if name != scheme {
            return Err(KeyStoreError::Malformed("key belongs to another scheme"));
        }
        let next_epoch = r.u64()?;
        let activation_start = r.u64()?;
        let active_epochs = r.u64()?;
        let prf_key: [u8; 32] = r.take(32)?.try_into().expect("32");
        let parameter = r.kbs::<PL>()?;
        let root = r.kbs::<H>()?;
        let nl = r.u32()? as usize;
        let mut top_layers = Vec::with_capacity(nl.min(64));
        for _ in 0..nl {
            let start = r.u64()?;
            let count = r.u32()? as usize;
            let mut layer = Vec::with_capacity(count.min(1 << 20));
            for _ in 0..count {
                layer.push(r.kbs::<H>()?);
            }
            top_layers.push((start, layer));
        }
        let np = r.u32()? as usize;
        let mut prepared = Vec::with_capacity(np.min(4));
        for _ in 0..np {
            let k = r.u64()?;
            let nl = r.u32()? as usize;
            let mut tree = Vec::with_capacity(nl.min(64));
            for _ in 0..nl {
                let count = r.u32()? as usize;
                let mut layer = Vec::with_capacity(count.min(1 << 20));
                for _ in 0..count {
                    layer.push(r.kbs::<H>()?);
                }
                tree.push(layer);
            }
            prepared.push((k, tree));
        }
        if !r.0.is_empty() {
            return Err(KeyStoreError::Malformed("trailing bytes"));
        }
        let key = KeyMaterial { root, parameter, prf_key, activation_start, active_epochs, top_layers, prepared };
        Ok(Self { path: path.to_path_buf(), scheme: name, next_epoch, key })
    }

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

    /// Reserve `epoch` for signing: refuses used epochs, then persists next = epoch + 1
    /// before returning, so the caller may release a signature for `epoch` afterwards.
    pub fn reserve(&mut self, epoch: u64) -> Result<(), KeyStoreError> {
        if epoch < self.next_epoch {
            return Err(KeyStoreError::EpochAlreadyUsed { epoch, next: self.next_epoch });
        }
        if epoch >= self.key.activation_start + self.key.active_epochs {
            return Err(KeyStoreError::EpochOutOfRange);
        }
        let old = self.next_epoch;
        self.next_epoch = epoch + 1;
        if let Err(e) = self.persist() {
            self.next_epoch = old;
            return Err(e);
        }
        Ok(())
    }
}

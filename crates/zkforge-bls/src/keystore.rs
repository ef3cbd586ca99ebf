//! EIP-2335 keystores: the password-encrypted JSON files in which Ethereum validator clients
//! and deposit tools keep BLS secret keys (version 4).
//!
//! Decryption: the password is normalised (Unicode NFKD, then the C0 and C1 control codes and
//! DEL removed, then UTF-8); the KDF module (scrypt, RFC 7914, or PBKDF2-HMAC-SHA-256, RFC 8018)
//! turns it into a 32-byte decryption key DK; the checksum module is SHA-256(DK[16..32] ||
//! ciphertext), compared in constant time, which tells a wrong password; the cipher module is
//! AES-128-CTR (RFC 3686) under DK[0..16] with the file's IV. The plaintext must be a secret
//! key in 1..r-1 and, where the file names a `pubkey`, the key's public key must be it.
//!
//! A file's KDF parameters are its author's choice, so they are bounded before any work: scrypt
//! at most 2 GiB of memory (128 r n bytes) and p <= 16, PBKDF2 at most 2^24 iterations, a
//! 32-byte key. Encryption uses the EIP's parameters (scrypt n = 2^18, r = 8, p = 1, or PBKDF2
//! with c = 2^18), a fresh 32-byte salt, 16-byte IV and a random (version 4) UUID. The
//! password, DK and plaintext live in buffers that are zeroized when dropped.
//!
//! ```
//! use zkforge_bls::keystore::{Kdf, Keystore};
//! use zkforge_bls::{KeyPath, SecretKey};
//! let sk = SecretKey::derive_path(&[3u8; 32], &KeyPath::validator_signing(0)).unwrap();
//! // cheap scrypt parameters for the example; `Keystore::encrypt` uses the EIP's
//! let kdf = Kdf::Scrypt { n: 16, r: 8, p: 1, salt: vec![1; 32] };
//! let ks = Keystore::encrypt_with(&sk, "correct horse", kdf, [2; 16], "6f7c1c9e-2b1e-4a57-9d3a-6a1c0e0b9f41", "m/12381/3600/0/0/0", "").unwrap();
//! let back = Keystore::from_json(&ks.to_json()).unwrap();
//! assert_eq!(back.decrypt("correct horse").unwrap(), sk);
//! assert!(back.decrypt("wrong").is_err());
//! ```

use aes::cipher::{KeyIvInit, StreamCipher};
use rand_core::{CryptoRng, RngCore};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use unicode_normalization::UnicodeNormalization;
use zeroize::Zeroizing;

use crate::{BlsError, KeyPath, PublicKey, SecretKey, PUBLIC_KEY_BYTES};

type Aes128Ctr = ctr::Ctr128BE<aes::Aes128>;

/// The keystore version EIP-2335 defines.
pub const VERSION: u64 = 4;
/// Bytes of the decryption key (every KDF's `dklen`; the only length supported).
pub const DKLEN: usize = 32;
/// The EIP's scrypt cost n = 2^18 (with r = 8, p = 1: 256 MiB, about a second).
pub const SCRYPT_N: u64 = 1 << 18;
/// The EIP's PBKDF2 iteration count, 2^18.
pub const PBKDF2_C: u64 = 1 << 18;
/// The most scrypt memory (128 r n bytes) a file may ask for: 2 GiB.
pub const MAX_SCRYPT_MEMORY: u64 = 1 << 31;
/// The largest scrypt parallelism p a file may ask for.
pub const MAX_SCRYPT_P: u64 = 16;
/// The most PBKDF2 iterations a file may ask for: 2^24 (64 times the EIP's).
pub const MAX_PBKDF2_C: u64 = 1 << 24;

/// The key-derivation module of a keystore, with its parameters (dklen is always 32).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kdf {
    /// scrypt (RFC 7914): cost n (a power of two, at least 2), block size r, parallelism p.
    Scrypt {
        /// CPU/memory cost, a power of two.
        n: u64,
        /// Block size.
        r: u64,
        /// Parallelism.
        p: u64,
        /// Salt.
        salt: Vec<u8>,
    },
    /// PBKDF2 with HMAC-SHA-256 (RFC 8018), c iterations.
    Pbkdf2 {
        /// Iterations.
        c: u64,
        /// Salt.
        salt: Vec<u8>,
    },
}

/// Which KDF [`Keystore::encrypt`] uses, with the EIP's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum KdfKind {
    /// scrypt, n = 2^18, r = 8, p = 1 (what deposit tools write; memory-hard).
    #[default]
    Scrypt,
    /// PBKDF2-HMAC-SHA-256, c = 2^18.
    Pbkdf2,
}

/// Why a keystore was refused or could not be opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeystoreError {
    /// The text is not JSON.
    #[error("not a JSON document: {0}")]
    Json(String),
    /// A field is missing, of the wrong type, not hex or of the wrong length.
    #[error("field {field}: {why}")]
    Field {
        /// The field's path in the document, e.g. `crypto.cipher.params.iv`.
        field: &'static str,
        /// What is wrong with it.
        why: String,
    },
    /// A version other than 4.
    #[error("keystore version {0} is not supported: EIP-2335 keystores are version 4")]
    Version(u64),
    /// A module function this implementation does not have.
    #[error("{module} function {function:?} is not supported (supported: {supported})")]
    Function {
        /// `kdf`, `checksum` or `cipher`.
        module: &'static str,
        /// The function named in the file.
        function: String,
        /// What is supported.
        supported: &'static str,
    },
    /// KDF parameters that are invalid or over the bounds (see the module's text).
    #[error("KDF parameters refused: {0}")]
    KdfParams(String),
    /// The checksum does not match: the password is wrong (or the file was altered).
    #[error("wrong password: the keystore's checksum does not match")]
    WrongPassword,
    /// The decrypted secret is not a BLS secret key.
    #[error("the decrypted secret is not a BLS secret key: {0}")]
    Secret(BlsError),
    /// The file's `pubkey` is not the public key of the decrypted secret key.
    #[error("the keystore's pubkey is not the public key of its secret key")]
    PublicKeyMismatch,
    /// The file's `path` is neither empty nor an EIP-2334 path.
    #[error("the keystore's path: {0}")]
    Path(BlsError),
}

/// A parsed EIP-2335 keystore. [`Keystore::from_json`] checks its shape, [`Keystore::decrypt`]
/// opens it; [`Keystore::encrypt`] makes one and [`Keystore::to_json`] writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keystore {
    /// The KDF module.
    pub kdf: Kdf,
    /// The checksum module's message: SHA-256(DK[16..32] || ciphertext).
    pub checksum: [u8; 32],
    /// The AES-128-CTR initial counter block.
    pub iv: [u8; 16],
    /// The cipher module's message: the encrypted secret.
    pub ciphertext: Vec<u8>,
    /// The public key the file names (48 bytes), if it names one.
    pub pubkey: Option<[u8; PUBLIC_KEY_BYTES]>,
    /// The EIP-2334 path of the key, or empty.
    pub path: String,
    /// The file's UUID (RFC 4122 text form).
    pub uuid: String,
    /// The optional description.
    pub description: Option<String>,
}

/// The password as EIP-2335 hashes it: NFKD, without C0 (0x00-0x1f), DEL (0x7f) and C1
/// (0x80-0x9f) control codes, in UTF-8.
///
/// ```
/// use zkforge_bls::keystore::normalize_password;
/// // the EIP's test password: mathematical letters and a key emoji
/// assert_eq!(&normalize_password("𝔱𝔢𝔰𝔱𝔭𝔞𝔰𝔰𝔴𝔬𝔯𝔡🔑")[..], "testpassword🔑".as_bytes());
/// assert_eq!(&normalize_password("pass word\n")[..], b"pass word");
/// ```
pub fn normalize_password(password: &str) -> Zeroizing<Vec<u8>> {
    let mut out = Zeroizing::new(Vec::with_capacity(password.len()));
    let mut buf = [0u8; 4];
    for c in password.nfkd() {
        let u = c as u32;
        if u <= 0x1f || (0x7f..=0x9f).contains(&u) {
            continue;
        }
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
    buf.fill(0);
    out
}

impl Kdf {
    /// Checks the parameters against the bounds, then derives the 32-byte decryption key.
    pub fn derive(&self, password: &[u8]) -> Result<Zeroizing<[u8; DKLEN]>, KeystoreError> {
        let mut dk = Zeroizing::new([0u8; DKLEN]);
        match self {
            Kdf::Scrypt { n, r, p, salt } => {
                let (n, r, p) = (*n, *r, *p);
                if n < 2 || !n.is_power_of_two() {
                    return Err(KeystoreError::KdfParams(format!("scrypt n = {n}: it must be a power of two, at least 2")));
                }
                if r == 0 || p == 0 || p > MAX_SCRYPT_P {
                    return Err(KeystoreError::KdfParams(format!("scrypt r = {r}, p = {p}: r must be positive and p in 1..={MAX_SCRYPT_P}")));
                }
                let memory = 128u64.checked_mul(r).and_then(|m| m.checked_mul(n));
                if memory.is_none_or(|m| m > MAX_SCRYPT_MEMORY) {
                    return Err(KeystoreError::KdfParams(format!("scrypt n = {n}, r = {r} needs more than {} MiB", MAX_SCRYPT_MEMORY >> 20)));
                }
                let params = scrypt::Params::new(n.trailing_zeros() as u8, r as u32, p as u32, DKLEN)
                    .map_err(|e| KeystoreError::KdfParams(format!("scrypt n = {n}, r = {r}, p = {p}: {e}")))?;
                scrypt::scrypt(password, salt, &params, dk.as_mut()).map_err(|e| KeystoreError::KdfParams(format!("scrypt: {e}")))?;
            }
            Kdf::Pbkdf2 { c, salt } => {
                if *c == 0 || *c > MAX_PBKDF2_C {
                    return Err(KeystoreError::KdfParams(format!("pbkdf2 c = {c}: it must be in 1..={MAX_PBKDF2_C}")));
                }
                pbkdf2::pbkdf2_hmac::<Sha256>(password, salt, *c as u32, dk.as_mut());
            }
        }
        Ok(dk)
    }

    /// The EIP's parameters for `kind`, with this salt.
    pub fn standard(kind: KdfKind, salt: Vec<u8>) -> Self {
        match kind {
            KdfKind::Scrypt => Kdf::Scrypt { n: SCRYPT_N, r: 8, p: 1, salt },
            KdfKind::Pbkdf2 => Kdf::Pbkdf2 { c: PBKDF2_C, salt },
        }
    }
}

fn checksum_of(dk: &[u8; DKLEN], ciphertext: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(&dk[16..32]);
    h.update(ciphertext);
    h.finalize().into()
}

fn apply_cipher(dk: &[u8; DKLEN], iv: &[u8; 16], data: &mut [u8]) {
    let mut c = Aes128Ctr::new(dk[..16].into(), iv.into());
    c.apply_keystream(data);
}

/// Whether `s` is a UUID in RFC 4122's text form (8-4-4-4-12 hex digits).
fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36 && b.iter().enumerate().all(|(i, c)| if [8, 13, 18, 23].contains(&i) { *c == b'-' } else { c.is_ascii_hexdigit() })
}

/// A random (version 4, RFC 4122 variant) UUID.
fn random_uuid<R: RngCore + CryptoRng>(rng: &mut R) -> String {
    let mut b = [0u8; 16];
    rng.fill_bytes(&mut b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = hex_encode(&b);
    format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32])
}

fn hex_encode(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn field<'a>(obj: &'a Map<String, Value>, key: &str, name: &'static str) -> Result<&'a Value, KeystoreError> {
    obj.get(key).ok_or(KeystoreError::Field { field: name, why: "missing".into() })
}

fn object<'a>(obj: &'a Map<String, Value>, key: &str, name: &'static str) -> Result<&'a Map<String, Value>, KeystoreError> {
    field(obj, key, name)?.as_object().ok_or(KeystoreError::Field { field: name, why: "not a JSON object".into() })
}

fn string<'a>(obj: &'a Map<String, Value>, key: &str, name: &'static str) -> Result<&'a str, KeystoreError> {
    field(obj, key, name)?.as_str().ok_or(KeystoreError::Field { field: name, why: "not a string".into() })
}

fn integer(obj: &Map<String, Value>, key: &str, name: &'static str) -> Result<u64, KeystoreError> {
    field(obj, key, name)?.as_u64().ok_or(KeystoreError::Field { field: name, why: "not a non-negative integer".into() })
}

/// Hex (an optional 0x prefix allowed) of `len` bytes when `len` is given.
fn hex_bytes(obj: &Map<String, Value>, key: &str, name: &'static str, len: Option<usize>) -> Result<Vec<u8>, KeystoreError> {
    let s = string(obj, key, name)?;
    let s = s.strip_prefix("0x").unwrap_or(s);
    let bad = |why: String| KeystoreError::Field { field: name, why };
    if s.len() % 2 != 0 || !s.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Err(bad("not an even number of hex digits".into()));
    }
    let out: Vec<u8> = (0..s.len() / 2).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap_or(0)).collect();
    match len {
        Some(l) if out.len() != l => Err(bad(format!("{} bytes, expected {l}", out.len()))),
        _ => Ok(out),
    }
}

/// The `function` of a module, which must be one of `allowed` (listed as `supported`).
fn function(module: &Map<String, Value>, name: &'static str, module_name: &'static str, allowed: &[&str], supported: &'static str) -> Result<String, KeystoreError> {
    let f = string(module, "function", name)?;
    if !allowed.contains(&f) {
        return Err(KeystoreError::Function { module: module_name, function: f.to_string(), supported });
    }
    Ok(f.to_string())
}

impl Keystore {
    /// Parses a keystore's JSON text and checks its shape: version 4; modules scrypt or
    /// pbkdf2 (prf hmac-sha256, dklen 32), sha256 and aes-128-ctr; hex fields of the right
    /// lengths (a 32-byte checksum, a 16-byte IV, a 48-byte pubkey when present and non-empty);
    /// a UUID; a path that is empty or EIP-2334. The KDF's bounds are checked when it runs.
    pub fn from_json(text: &str) -> Result<Self, KeystoreError> {
        let v: Value = serde_json::from_str(text).map_err(|e| KeystoreError::Json(e.to_string()))?;
        let top = v.as_object().ok_or(KeystoreError::Field { field: "(document)", why: "not a JSON object".into() })?;
        let version = integer(top, "version", "version")?;
        if version != VERSION {
            return Err(KeystoreError::Version(version));
        }
        let crypto = object(top, "crypto", "crypto")?;
        let kdf_m = object(crypto, "kdf", "crypto.kdf")?;
        let kdf_p = object(kdf_m, "params", "crypto.kdf.params")?;
        string(kdf_m, "message", "crypto.kdf.message")?;
        let kdf_name = function(kdf_m, "crypto.kdf.function", "kdf", &["scrypt", "pbkdf2"], "scrypt, pbkdf2")?;
        let dklen = integer(kdf_p, "dklen", "crypto.kdf.params.dklen")?;
        if dklen != DKLEN as u64 {
            return Err(KeystoreError::KdfParams(format!("dklen = {dklen}: only 32 is supported")));
        }
        let salt = hex_bytes(kdf_p, "salt", "crypto.kdf.params.salt", None)?;
        let kdf = if kdf_name == "scrypt" {
            Kdf::Scrypt {
                n: integer(kdf_p, "n", "crypto.kdf.params.n")?,
                r: integer(kdf_p, "r", "crypto.kdf.params.r")?,
                p: integer(kdf_p, "p", "crypto.kdf.params.p")?,
                salt,
            }
        } else {
            let prf = string(kdf_p, "prf", "crypto.kdf.params.prf")?;
            if prf != "hmac-sha256" {
                return Err(KeystoreError::Function { module: "kdf prf", function: prf.to_string(), supported: "hmac-sha256" });
            }
            Kdf::Pbkdf2 { c: integer(kdf_p, "c", "crypto.kdf.params.c")?, salt }
        };
        let ck = object(crypto, "checksum", "crypto.checksum")?;
        function(ck, "crypto.checksum.function", "checksum", &["sha256"], "sha256")?;
        object(ck, "params", "crypto.checksum.params")?;
        let checksum = hex_bytes(ck, "message", "crypto.checksum.message", Some(32))?;
        let ci = object(crypto, "cipher", "crypto.cipher")?;
        function(ci, "crypto.cipher.function", "cipher", &["aes-128-ctr"], "aes-128-ctr")?;
        let ci_p = object(ci, "params", "crypto.cipher.params")?;
        let iv = hex_bytes(ci_p, "iv", "crypto.cipher.params.iv", Some(16))?;
        let ciphertext = hex_bytes(ci, "message", "crypto.cipher.message", None)?;
        let pubkey = match top.get("pubkey") {
            None => None,
            Some(Value::String(s)) if s.is_empty() => None,
            Some(_) => {
                let b = hex_bytes(top, "pubkey", "pubkey", Some(PUBLIC_KEY_BYTES))?;
                let mut a = [0u8; PUBLIC_KEY_BYTES];
                a.copy_from_slice(&b);
                Some(a)
            }
        };
        let path = string(top, "path", "path")?.to_string();
        if !path.is_empty() {
            path.parse::<KeyPath>().map_err(KeystoreError::Path)?;
        }
        let uuid = string(top, "uuid", "uuid")?.to_string();
        if !is_uuid(&uuid) {
            return Err(KeystoreError::Field { field: "uuid", why: "not a UUID (8-4-4-4-12 hex digits)".into() });
        }
        let description = match top.get("description") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err(KeystoreError::Field { field: "description", why: "not a string".into() }),
        };
        let mut c32 = [0u8; 32];
        c32.copy_from_slice(&checksum);
        let mut iv16 = [0u8; 16];
        iv16.copy_from_slice(&iv);
        Ok(Self { kdf, checksum: c32, iv: iv16, ciphertext, pubkey, path, uuid, description })
    }

    /// The keystore as JSON text (EIP-2335's layout, hex without a 0x prefix).
    pub fn to_json(&self) -> String {
        let kdf = match &self.kdf {
            Kdf::Scrypt { n, r, p, salt } => json!({
                "function": "scrypt",
                "params": { "dklen": DKLEN, "n": n, "r": r, "p": p, "salt": hex_encode(salt) },
                "message": "",
            }),
            Kdf::Pbkdf2 { c, salt } => json!({
                "function": "pbkdf2",
                "params": { "dklen": DKLEN, "c": c, "prf": "hmac-sha256", "salt": hex_encode(salt) },
                "message": "",
            }),
        };
        let mut top = json!({
            "crypto": {
                "kdf": kdf,
                "checksum": { "function": "sha256", "params": {}, "message": hex_encode(&self.checksum) },
                "cipher": { "function": "aes-128-ctr", "params": { "iv": hex_encode(&self.iv) }, "message": hex_encode(&self.ciphertext) },
            },
            "path": self.path,
            "uuid": self.uuid,
            "version": VERSION,
        });
        if let Some(obj) = top.as_object_mut() {
            if let Some(pk) = &self.pubkey {
                obj.insert("pubkey".into(), Value::String(hex_encode(pk)));
            }
            if let Some(d) = &self.description {
                obj.insert("description".into(), Value::String(d.clone()));
            }
        }
        let mut s = serde_json::to_string_pretty(&top).unwrap_or_default();
        s.push('\n');
        s
    }

    /// The secret bytes inside, whatever they are: the KDF, the checksum (a mismatch is
    /// [`KeystoreError::WrongPassword`]) and the cipher.
    pub fn decrypt_secret(&self, password: &str) -> Result<Zeroizing<Vec<u8>>, KeystoreError> {
        let pw = normalize_password(password);
        let dk = self.kdf.derive(&pw)?;
        if !bool::from(checksum_of(&dk, &self.ciphertext).ct_eq(&self.checksum)) {
            return Err(KeystoreError::WrongPassword);
        }
        let mut secret = Zeroizing::new(self.ciphertext.clone());
        apply_cipher(&dk, &self.iv, &mut secret);
        Ok(secret)
    }

    /// Opens the keystore: [`Keystore::decrypt_secret`], then the secret must be a 32-byte
    /// secret key in 1..r-1 whose public key is the file's `pubkey` (where it names one).
    pub fn decrypt(&self, password: &str) -> Result<SecretKey, KeystoreError> {
        let secret = self.decrypt_secret(password)?;
        let sk = SecretKey::from_bytes(&secret).map_err(KeystoreError::Secret)?;
        if let Some(pk) = &self.pubkey {
            if sk.public_key().to_bytes() != *pk {
                return Err(KeystoreError::PublicKeyMismatch);
            }
        }
        Ok(sk)
    }

    /// The file's `pubkey` decoded with KeyValidate (no password needed; not yet checked
    /// against the secret inside, which [`Keystore::decrypt`] does).
    pub fn public_key(&self) -> Option<Result<PublicKey, BlsError>> {
        self.pubkey.as_ref().map(|pk| PublicKey::from_bytes(pk))
    }

    /// Encrypts `sk` under `password` with the EIP's parameters for `kind`, a fresh salt, IV
    /// and UUID from `rng`; `path` is empty or EIP-2334, `description` may be empty (then the
    /// file has none).
    pub fn encrypt<R: RngCore + CryptoRng>(sk: &SecretKey, password: &str, kind: KdfKind, path: &str, description: &str, rng: &mut R) -> Result<Self, KeystoreError> {
        let mut salt = vec![0u8; 32];
        rng.fill_bytes(&mut salt);
        let mut iv = [0u8; 16];
        rng.fill_bytes(&mut iv);
        let uuid = random_uuid(rng);
        Self::encrypt_with(sk, password, Kdf::standard(kind, salt), iv, &uuid, path, description)
    }

    /// [`Keystore::encrypt`] with every parameter given (the KDF's bounds apply): the same
    /// inputs give the same file, as the EIP's test vectors need.
    pub fn encrypt_with(sk: &SecretKey, password: &str, kdf: Kdf, iv: [u8; 16], uuid: &str, path: &str, description: &str) -> Result<Self, KeystoreError> {
        if !path.is_empty() {
            path.parse::<KeyPath>().map_err(KeystoreError::Path)?;
        }
        if !is_uuid(uuid) {
            return Err(KeystoreError::Field { field: "uuid", why: "not a UUID (8-4-4-4-12 hex digits)".into() });
        }
        let pw = normalize_password(password);
        let dk = kdf.derive(&pw)?;
        // encrypted in place: the buffer holds the plaintext only until this call returns
        let mut ciphertext = sk.to_bytes().to_vec();
        apply_cipher(&dk, &iv, &mut ciphertext);
        Ok(Self {
            checksum: checksum_of(&dk, &ciphertext),
            kdf,
            iv,
            ciphertext,
            pubkey: Some(sk.public_key().to_bytes()),
            path: path.to_string(),
            uuid: uuid.to_string(),
            description: if description.is_empty() { None } else { Some(description.to_string()) },
        })
    }
}

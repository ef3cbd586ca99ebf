//! `zkforge.hashsig`: Generalized XMSS (hash-sig / leanSig instances) for Python through
//! zkforge-hashsig's by-name API (`zkforge_hashsig::named`), the same path as
//! `zkforge hashsig` in the CLI.
//!
//! The key-reuse guard: a secret key never crosses into Python. `keygen` writes it into a new
//! key-store file (never over an existing one) and returns the public key; `sign` takes the
//! store's path, and the store is locked, checked against its digest, and moved past the
//! epoch on disk before the signature is computed, then the signature is verified against
//! the public key before it is returned. Signing an epoch at or below one already used raises
//! `EpochAlreadyUsedError`; a failure after the reservation raises `EpochSpentError` (the
//! epoch will never be signed). Every long call releases the GIL.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use zkforge_hashsig::keystore::KeyStoreError as StoreError;
use zkforge_hashsig::named::{scheme_names, NamedError, NamedScheme, SeedRng, Wire};

create_exception!(zkforge.hashsig, HashsigError, PyException, "Base class of the key store's refusals and failures.");
create_exception!(
    zkforge.hashsig,
    KeyStoreError,
    HashsigError,
    "The key store refused (it exists, is damaged, is not a store of this scheme, the epoch is out of range) or could not be read or written; nothing was changed."
);
create_exception!(
    zkforge.hashsig,
    EpochAlreadyUsedError,
    KeyStoreError,
    "The epoch is at or below one this key already signed: signing it would reuse a one-time key. Nothing was changed."
);
create_exception!(zkforge.hashsig, EpochSpentError, HashsigError, "Signing failed after the epoch was reserved: the epoch is spent and no signature exists.");

fn err(e: NamedError) -> PyErr {
    let msg = e.to_string();
    match e {
        NamedError::Refused(StoreError::EpochAlreadyUsed { .. }) => EpochAlreadyUsedError::new_err(msg),
        NamedError::Refused(_) => KeyStoreError::new_err(msg),
        NamedError::Spent { .. } => EpochSpentError::new_err(msg),
        _ => PyValueError::new_err(msg),
    }
}

/// The scheme by name, built once per process (its permutations and layer tables are kept).
fn scheme(name: &str) -> PyResult<Arc<NamedScheme>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<NamedScheme>>>> = OnceLock::new();
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner());
    if let Some(s) = cache.get(name) {
        return Ok(s.clone());
    }
    let s = Arc::new(NamedScheme::by_name(name).map_err(err)?);
    cache.insert(name.to_string(), s.clone());
    Ok(s)
}

fn wire(encoding: &str) -> PyResult<Wire> {
    match encoding {
        "ssz" => Ok(Wire::Ssz),
        "bincode-legacy" | "bincode_legacy" => Ok(Wire::BincodeLegacy),
        other => Err(PyValueError::new_err(format!("unknown encoding {other:?}: use \"ssz\" or \"bincode-legacy\""))),
    }
}

fn bytes32(b: &[u8], what: &str) -> PyResult<[u8; 32]> {
    b.try_into().map_err(|_| PyValueError::new_err(format!("expected {what} to be 32 bytes, got {}", b.len())))
}

/// schemes() -> list[str]
///
/// Every scheme name, as `zkforge hashsig schemes` lists them.
#[pyfunction]
fn schemes() -> Vec<String> {
    scheme_names()
}

/// describe(scheme) -> str
///
/// One line: the name, lifetime, hash and key and signature sizes.
#[pyfunction]
fn describe(scheme_name: &str) -> PyResult<String> {
    Ok(scheme(scheme_name)?.describe())
}

/// keygen(scheme, seed, secret_key_path, active_epochs, activation_epoch=0, encoding="ssz", rng="chacha20") -> bytes
///
/// Generate a key from the 32-byte `seed` (the reference's key for the same seed and RNG:
/// "chacha20" is ChaCha20Rng, "std" is rand's StdRng) into a new key store at
/// `secret_key_path`, and return the public key.
#[pyfunction]
#[pyo3(signature = (scheme_name, seed, secret_key_path, active_epochs, activation_epoch = 0, encoding = "ssz", rng = "chacha20"))]
#[allow(clippy::too_many_arguments)]
fn keygen<'py>(
    py: Python<'py>,
    scheme_name: &str,
    seed: &[u8],
    secret_key_path: PathBuf,
    active_epochs: u64,
    activation_epoch: u64,
    encoding: &str,
    rng: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let s = scheme(scheme_name)?;
    let seed = bytes32(seed, "seed")?;
    let w = wire(encoding)?;
    let rng = match rng {
        "chacha20" => SeedRng::ChaCha20,
        "std" => SeedRng::Std,
        other => return Err(PyValueError::new_err(format!("unknown rng {other:?}: use \"chacha20\" or \"std\""))),
    };
    let pk = py.detach(|| s.keygen_to_store(&secret_key_path, seed, rng, activation_epoch, active_epochs, w, &mut |_, _| {})).map_err(err)?;
    Ok(PyBytes::new(py, &pk))
}

/// sign(scheme, secret_key_path, epoch, message, encoding="ssz") -> bytes
///
/// Sign the 32-byte `message` at `epoch` with the key in the store; the store moves past
/// `epoch` before the signature exists.
#[pyfunction]
#[pyo3(signature = (scheme_name, secret_key_path, epoch, message, encoding = "ssz"))]
fn sign<'py>(py: Python<'py>, scheme_name: &str, secret_key_path: PathBuf, epoch: u32, message: &[u8], encoding: &str) -> PyResult<Bound<'py, PyBytes>> {
    let s = scheme(scheme_name)?;
    let msg = bytes32(message, "message")?;
    let w = wire(encoding)?;
    let sig = py.detach(|| s.sign_with_store(&secret_key_path, epoch, &msg, w)).map_err(err)?;
    Ok(PyBytes::new(py, &sig))
}

/// verify(scheme, public_key, epoch, message, signature, encoding="ssz") -> bool
///
/// `True` when the signature is valid; `ValueError` when the key or signature does not
/// decode for the scheme and encoding.
#[pyfunction]
#[pyo3(signature = (scheme_name, public_key, epoch, message, signature, encoding = "ssz"))]
fn verify(py: Python<'_>, scheme_name: &str, public_key: &[u8], epoch: u32, message: &[u8], signature: &[u8], encoding: &str) -> PyResult<bool> {
    let s = scheme(scheme_name)?;
    let msg = bytes32(message, "message")?;
    let w = wire(encoding)?;
    py.detach(|| s.verify(public_key, epoch, &msg, signature, w)).map_err(err)
}

/// key_status(scheme, secret_key_path) -> (next_epoch, activation_epoch, active_epochs)
///
/// The store's next usable epoch and its (expanded) activation range.
#[pyfunction]
fn key_status(py: Python<'_>, scheme_name: &str, secret_key_path: PathBuf) -> PyResult<(u64, u64, u64)> {
    let s = scheme(scheme_name)?;
    py.detach(|| s.store_status(&secret_key_path)).map_err(err)
}

/// Add the functions and exceptions to the native module (re-exported by `zkforge.hashsig`).
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let h = PyModule::new(m.py(), "hashsig")?;
    for f in [
        wrap_pyfunction!(schemes, &h)?,
        wrap_pyfunction!(describe, &h)?,
        wrap_pyfunction!(keygen, &h)?,
        wrap_pyfunction!(sign, &h)?,
        wrap_pyfunction!(verify, &h)?,
        wrap_pyfunction!(key_status, &h)?,
    ] {
        h.add_function(f)?;
    }
    let py = m.py();
    h.add("HashsigError", py.get_type::<HashsigError>())?;
    h.add("KeyStoreError", py.get_type::<KeyStoreError>())?;
    h.add("EpochAlreadyUsedError", py.get_type::<EpochAlreadyUsedError>())?;
    h.add("EpochSpentError", py.get_type::<EpochSpentError>())?;
    m.add_submodule(&h)
}

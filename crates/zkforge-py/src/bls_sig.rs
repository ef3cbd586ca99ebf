//! `zkforge.bls`: BLS signatures through zkforge-bls (Ethereum's minimal-pubkey-size
//! proof-of-possession ciphersuite). The native functions here take and return bytes; the
//! Python module `zkforge/bls.py` wraps them as py_ecc's `G2ProofOfPossession` (integer secret
//! keys, py_ecc's `ValidationError`s, `False` for any undecodable input of a verification).
//! Every call releases the GIL.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use zkforge_bls::keystore::{KdfKind, Keystore};
use zkforge_bls::{PublicKey, SecretKey, Signature, SignatureSet};
use zkforge_curve::bls12_381::{G1Affine, G1Projective};

fn value_err(op: &str, e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{op}: {e}"))
}

fn secret(sk: &[u8]) -> PyResult<SecretKey> {
    SecretKey::from_bytes(sk).map_err(|e| value_err("secret key", e))
}

/// KeyGen(IKM, key_info) as the 32-byte big-endian secret key.
#[pyfunction]
fn key_gen<'py>(py: Python<'py>, ikm: &[u8], key_info: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let sk = py.detach(|| SecretKey::key_gen(ikm, key_info)).map_err(|e| value_err("KeyGen", e))?;
    Ok(PyBytes::new(py, &*sk.to_bytes()))
}

/// SkToPk of a 32-byte big-endian secret key in 1..r-1.
#[pyfunction]
fn sk_to_pk<'py>(py: Python<'py>, sk: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let sk = secret(sk)?;
    let pk = py.detach(|| sk.public_key().to_bytes());
    Ok(PyBytes::new(py, &pk))
}

/// Sign(SK, message), 96 bytes.
#[pyfunction]
fn sign<'py>(py: Python<'py>, sk: &[u8], message: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let sk = secret(sk)?;
    let sig = py.detach(|| sk.sign(message).to_bytes());
    Ok(PyBytes::new(py, &sig))
}

/// PopProve(SK), 96 bytes.
#[pyfunction]
fn pop_prove<'py>(py: Python<'py>, sk: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let sk = secret(sk)?;
    let sig = py.detach(|| sk.pop_prove().to_bytes());
    Ok(PyBytes::new(py, &sig))
}

/// KeyValidate(PK): decodes, in G1, not the identity.
#[pyfunction]
fn key_validate(py: Python<'_>, pk: &[u8]) -> bool {
    py.detach(|| PublicKey::from_bytes(pk).is_ok())
}

fn keys(pks: &[Vec<u8>]) -> Option<Vec<PublicKey>> {
    pks.iter().map(|p| PublicKey::from_bytes(p).ok()).collect()
}

/// Verify(PK, message, signature); false for any input that does not decode.
#[pyfunction]
fn verify(py: Python<'_>, pk: &[u8], message: &[u8], signature: &[u8]) -> bool {
    py.detach(|| match (PublicKey::from_bytes(pk), Signature::from_bytes(signature)) {
        (Ok(pk), Ok(sig)) => zkforge_bls::verify(&pk, message, &sig),
        _ => false,
    })
}

/// PopVerify(PK, proof).
#[pyfunction]
fn pop_verify(py: Python<'_>, pk: &[u8], proof: &[u8]) -> bool {
    py.detach(|| match (PublicKey::from_bytes(pk), Signature::from_bytes(proof)) {
        (Ok(pk), Ok(sig)) => zkforge_bls::pop_verify(&pk, &sig),
        _ => false,
    })
}

/// FastAggregateVerify(PKs, message, signature).
#[pyfunction]
fn fast_aggregate_verify(py: Python<'_>, pks: Vec<Vec<u8>>, message: &[u8], signature: &[u8]) -> bool {
    py.detach(|| match (keys(&pks), Signature::from_bytes(signature)) {
        (Some(pks), Ok(sig)) => zkforge_bls::fast_aggregate_verify(&pks, message, &sig),
        _ => false,
    })
}

/// AggregateVerify(PKs, messages, signature) (messages hashed together).
#[pyfunction]
fn aggregate_verify(py: Python<'_>, pks: Vec<Vec<u8>>, messages: Vec<Vec<u8>>, signature: &[u8]) -> bool {
    py.detach(|| match (keys(&pks), Signature::from_bytes(signature)) {
        (Some(pks), Ok(sig)) => zkforge_bls::aggregate_verify(&pks, &messages, &sig),
        _ => false,
    })
}

/// Aggregate(signatures): the sum of decodable signatures (`ValueError` for none or one that
/// does not decode).
#[pyfunction]
fn aggregate<'py>(py: Python<'py>, signatures: Vec<Vec<u8>>) -> PyResult<Bound<'py, PyBytes>> {
    let s = py.detach(|| Signature::aggregate_bytes(&signatures)).map_err(|e| value_err("Aggregate", e))?;
    Ok(PyBytes::new(py, &s.to_bytes()))
}

/// The sum of public keys as py_ecc's `_AggregatePKs`: each decoded onto the curve (no
/// subgroup or identity test), the sum encoded (the identity as 0xc0 00..).
#[pyfunction]
fn aggregate_pks<'py>(py: Python<'py>, pks: Vec<Vec<u8>>) -> PyResult<Bound<'py, PyBytes>> {
    let out = py.detach(|| -> Result<[u8; 48], String> {
        if pks.is_empty() {
            return Err("Insufficient number of PKs. (n < 1)".into());
        }
        let mut acc = G1Projective::IDENTITY;
        for p in &pks {
            let a = G1Affine::from_compressed_unchecked(p).map_err(|e| e.to_string())?;
            acc = acc.add_mixed_vartime(&a);
        }
        Ok(acc.to_affine_vartime().to_compressed())
    });
    Ok(PyBytes::new(py, &out.map_err(|e| value_err("_AggregatePKs", e))?))
}

/// Many (public keys, message, signature) sets in one check with random 64-bit weights (OS
/// randomness): whether every set holds (false if any input does not decode).
#[pyfunction]
fn verify_signature_sets(py: Python<'_>, sets: Vec<(Vec<Vec<u8>>, Vec<u8>, Vec<u8>)>) -> bool {
    py.detach(|| {
        let mut keys_of = Vec::with_capacity(sets.len());
        let mut sigs = Vec::with_capacity(sets.len());
        for (pks, _, sig) in &sets {
            match (keys(pks), Signature::from_bytes(sig)) {
                (Some(k), Ok(s)) => {
                    keys_of.push(k);
                    sigs.push(s);
                }
                _ => return false,
            }
        }
        let v: Vec<SignatureSet> =
            (0..sets.len()).map(|i| SignatureSet { public_keys: &keys_of[i], message: &sets[i].1, signature: &sigs[i] }).collect();
        zkforge_bls::verify_signature_sets(&v, &mut rand_core::OsRng)
    })
}

/// EIP-2333 derive_master_SK(seed), 32 bytes big-endian.
#[pyfunction]
fn derive_master_sk<'py>(py: Python<'py>, seed: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let sk = py.detach(|| SecretKey::derive_master(seed)).map_err(|e| value_err("derive_master_SK", e))?;
    Ok(PyBytes::new(py, &*sk.to_bytes()))
}

/// EIP-2333 derive_child_SK(parent_SK, index), 32 bytes big-endian.
#[pyfunction]
fn derive_child_sk<'py>(py: Python<'py>, parent: &[u8], index: u32) -> PyResult<Bound<'py, PyBytes>> {
    let parent = secret(parent)?;
    let sk = py.detach(|| parent.derive_child(index));
    Ok(PyBytes::new(py, &*sk.to_bytes()))
}

/// The key at an EIP-2334 path ("m/12381/3600/0/0/0") below the master key of `seed`.
#[pyfunction]
fn derive_path<'py>(py: Python<'py>, seed: &[u8], path: &str) -> PyResult<Bound<'py, PyBytes>> {
    let path: zkforge_bls::KeyPath = path.parse().map_err(|e| value_err("path", e))?;
    let sk = py.detach(|| SecretKey::derive_path(seed, &path)).map_err(|e| value_err("derive_path", e))?;
    Ok(PyBytes::new(py, &*sk.to_bytes()))
}

/// The secret bytes of an EIP-2335 keystore (JSON text) under `password` (`ValueError` naming
/// the problem: a malformed file, refused KDF parameters, a wrong password).
#[pyfunction]
fn keystore_decrypt<'py>(py: Python<'py>, json: &str, password: &str) -> PyResult<Bound<'py, PyBytes>> {
    let secret = py
        .detach(|| Keystore::from_json(json).and_then(|k| k.decrypt_secret(password)))
        .map_err(|e| value_err("keystore", e))?;
    Ok(PyBytes::new(py, &secret))
}

/// An EIP-2335 keystore (JSON text) of a 32-byte secret key under `password`: `kdf` is
/// "scrypt" or "pbkdf2" (the EIP's parameters), fresh salt, IV and UUID from the OS.
#[pyfunction]
#[pyo3(signature = (sk, password, kdf="scrypt", path="", description=""))]
fn keystore_encrypt(py: Python<'_>, sk: &[u8], password: &str, kdf: &str, path: &str, description: &str) -> PyResult<String> {
    let sk = secret(sk)?;
    let kind = match kdf {
        "scrypt" => KdfKind::Scrypt,
        "pbkdf2" => KdfKind::Pbkdf2,
        other => return Err(value_err("keystore", format!("kdf {other:?}: use \"scrypt\" or \"pbkdf2\""))),
    };
    let ks = py
        .detach(|| Keystore::encrypt(&sk, password, kind, path, description, &mut rand_core::OsRng))
        .map_err(|e| value_err("keystore", e))?;
    Ok(ks.to_json())
}

/// Add the functions to the native module as the submodule `bls_sig` (wrapped by `zkforge.bls`).
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let b = PyModule::new(m.py(), "bls_sig")?;
    for f in [
        wrap_pyfunction!(key_gen, &b)?,
        wrap_pyfunction!(sk_to_pk, &b)?,
        wrap_pyfunction!(sign, &b)?,
        wrap_pyfunction!(pop_prove, &b)?,
        wrap_pyfunction!(key_validate, &b)?,
        wrap_pyfunction!(verify, &b)?,
        wrap_pyfunction!(pop_verify, &b)?,
        wrap_pyfunction!(fast_aggregate_verify, &b)?,
        wrap_pyfunction!(aggregate_verify, &b)?,
        wrap_pyfunction!(aggregate, &b)?,
        wrap_pyfunction!(aggregate_pks, &b)?,
        wrap_pyfunction!(verify_signature_sets, &b)?,
        wrap_pyfunction!(derive_master_sk, &b)?,
        wrap_pyfunction!(derive_child_sk, &b)?,
        wrap_pyfunction!(derive_path, &b)?,
        wrap_pyfunction!(keystore_decrypt, &b)?,
        wrap_pyfunction!(keystore_encrypt, &b)?,
    ] {
        b.add_function(f)?;
    }
    m.add_submodule(&b)
}

//! The `zkforge` Python package's native module (`zkforge._zkforge`), built with PyO3 for the
//! stable ABI (CPython 3.9+). It wraps zkforge-kzg with the calling convention of the `ckzg`
//! package 2.x (the Python binding of c-kzg-4844), so that `import zkforge.kzg as ckzg` runs
//! code written for ckzg unchanged:
//!
//! - the same function names, argument order and return types (bytes in, bytes out; lists of
//!   bytes for cells and cell proofs; `(proof, y)` from `compute_kzg_proof`);
//! - the same exception classes: `ValueError` for arguments of the wrong type or length (as
//!   ckzg checks them before calling C), `RuntimeError` when the operation refuses its input
//!   (a field element not below r, a point not in G1, a bad cell index), with zkforge's message
//!   in plain words instead of ckzg's "... failed";
//! - `load_trusted_setup(path, precompute)` reads c-kzg's text format; `precompute` (0..=15) is
//!   the FK20 table width as in ckzg (0 = no tables).
//!
//! The other modules: `bls.rs` (`zkforge.bls12_381`, py_arkworks_bls12381's API), `bls_sig.rs`
//! (`zkforge.bls`, py_ecc's `G2ProofOfPossession`), `bn.rs`
//! (`zkforge.bn254`, EVM encodings), `evm.rs` (`zkforge.evm`, the precompiles) and
//! `hashsig.rs` (`zkforge.hashsig`, Generalized XMSS through a key store).
//!
//! Every call that computes releases the GIL while it runs. Extensions beyond ckzg:
//! `load_trusted_setup_mainnet(precompute=8)`, which needs no file (the setup is embedded), and
//! `compute_cells`.

// PyO3 methods take `&self`; `to_*` names are the peers' API
#![allow(clippy::wrong_self_convention)]

use std::sync::Arc;

mod bls;
mod bls_sig;
mod bn;
mod evm;
mod hashsig;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};
use zkforge_kzg::{CellPrecompute, KzgConfig, KzgError, KzgSettings};

/// A loaded trusted setup (ckzg returns an opaque capsule; this is the same role).
#[pyclass(frozen, name = "KZGSettings", module = "zkforge.kzg")]
struct PyKzgSettings {
    inner: Arc<KzgSettings>,
}

#[pymethods]
impl PyKzgSettings {
    fn __repr__(&self) -> String {
        "<zkforge.kzg.KZGSettings>".to_string()
    }
}

/// The big-endian bytes of a non-negative Python int (`TypeError` for a non-int,
/// `OverflowError` for a negative one, as the peers); the callers reduce them mod r with the
/// field's `from_bytes_be_mod_order`.
pub(crate) fn int_be_bytes(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let int = obj.cast::<pyo3::types::PyInt>().map_err(|_| pyo3::exceptions::PyTypeError::new_err("expected an int"))?;
    if int.lt(0)? {
        return Err(pyo3::exceptions::PyOverflowError::new_err("can't convert negative int to unsigned"));
    }
    let bits: usize = int.call_method0("bit_length")?.extract()?;
    int.call_method1("to_bytes", (bits.div_ceil(8), "big"))?.extract()
}

/// Three lists of borrowed byte strings (blobs or cells, commitments, proofs).
type Slices3<'a> = (Vec<&'a [u8]>, Vec<&'a [u8]>, Vec<&'a [u8]>);

/// A KZG error as the Python exception ckzg raises for it.
fn kzg_err(op: &str, e: KzgError) -> PyErr {
    match e {
        KzgError::InvalidLength { .. } | KzgError::BatchLengthMismatch { .. } | KzgError::CellLengthMismatch { .. } => PyValueError::new_err(format!("{op}: {e}")),
        _ => PyRuntimeError::new_err(format!("{op} failed: {e}")),
    }
}

/// `obj` as bytes, or ckzg's `ValueError`.
fn bytes_arg<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<&'a [u8]> {
    match obj.cast::<PyBytes>() {
        Ok(b) => Ok(b.as_bytes()),
        Err(_) => Err(PyValueError::new_err(format!("expected {what} to be bytes, got {}", obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()))),
    }
}

/// `obj` as bytes of exactly `len`, or `ValueError`.
fn sized_arg<'a>(obj: &'a Bound<'_, PyAny>, what: &str, len: usize) -> PyResult<&'a [u8]> {
    let b = bytes_arg(obj, what)?;
    if b.len() != len {
        return Err(PyValueError::new_err(format!("expected {what} to be {len} bytes, got {}", b.len())));
    }
    Ok(b)
}

/// `obj` as a list, or `ValueError`.
fn list_arg<'a, 'py>(obj: &'a Bound<'py, PyAny>, what: &str) -> PyResult<&'a Bound<'py, PyList>> {
    obj.cast::<PyList>().map_err(|_| PyValueError::new_err(format!("expected {what} to be a list")))
}

/// A list of bytes of `len` each.
fn bytes_list<'py>(obj: &Bound<'py, PyAny>, what: &str, len: usize) -> PyResult<Vec<Vec<u8>>> {
    list_arg(obj, what)?.iter().map(|x| sized_arg(&x, what, len).map(<[u8]>::to_vec)).collect()
}

/// A list of cell indices (non-negative integers below 2^64).
fn index_list(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
    list_arg(obj, "cell_indices")?
        .iter()
        .map(|x| x.extract::<u64>().map_err(|_| PyValueError::new_err("expected cell index to be an integer from 0 to 2^64 - 1")))
        .collect()
}

fn settings(obj: &Bound<'_, PyAny>) -> PyResult<Arc<KzgSettings>> {
    obj.cast::<PyKzgSettings>()
        .map(|s| s.get().inner.clone())
        .map_err(|_| PyValueError::new_err("expected a trusted setup from zkforge.kzg.load_trusted_setup"))
}

fn config(precompute: i64) -> PyResult<KzgConfig> {
    if !(0..=15).contains(&precompute) {
        return Err(PyValueError::new_err(format!("invalid precompute value {precompute}: it must be 0 to 15")));
    }
    let cell_precompute = if precompute == 0 {
        CellPrecompute::None
    } else {
        // ckzg's width w: tables of 2^w points per position; ours start at width 2
        CellPrecompute::FixedBase { window: (precompute as u32).max(2), stride: 1, interleaved: true }
    };
    Ok(KzgConfig { threads: 1, cell_precompute, ..KzgConfig::default() })
}

/// load_trusted_setup(file, precompute) -> KZGSettings
///
/// Load a trusted setup in c-kzg's text format from the path `file`. `precompute` (0 to 15)
/// is the width of the cell-proof tables, as in ckzg (0: none; 8: ckzg's recommended value).
/// Raises ValueError for wrong argument types or precompute, RuntimeError when the file
/// cannot be read or is not a valid setup.
#[pyfunction]
fn load_trusted_setup(py: Python<'_>, file: &Bound<'_, PyAny>, precompute: &Bound<'_, PyAny>) -> PyResult<PyKzgSettings> {
    let path: String = file.extract().map_err(|_| PyValueError::new_err("expected string and int"))?;
    let precompute: i64 = precompute.extract().map_err(|_| PyValueError::new_err("invalid precompute value"))?;
    let cfg = config(precompute)?;
    let text = std::fs::read_to_string(&path).map_err(|e| PyRuntimeError::new_err(format!("error reading trusted setup {path}: {e}")))?;
    let s = py.detach(|| KzgSettings::from_text_with(&text, &cfg)).map_err(|e| PyRuntimeError::new_err(format!("error loading trusted setup {path}: {e}")))?;
    Ok(PyKzgSettings { inner: Arc::new(s) })
}

/// load_trusted_setup_mainnet(precompute=8) -> KZGSettings
///
/// The Ethereum mainnet setup, embedded in the package (no file needed).
#[pyfunction]
#[pyo3(signature = (precompute = 8))]
fn load_trusted_setup_mainnet(py: Python<'_>, precompute: i64) -> PyResult<PyKzgSettings> {
    let cfg = config(precompute)?;
    let s = py.detach(|| KzgSettings::mainnet_with(&cfg)).map_err(|e| PyRuntimeError::new_err(format!("error loading the mainnet setup: {e}")))?;
    Ok(PyKzgSettings { inner: Arc::new(s) })
}

/// blob_to_kzg_commitment(blob, s) -> bytes (48)
#[pyfunction]
fn blob_to_kzg_commitment<'py>(py: Python<'py>, blob: &Bound<'py, PyAny>, s: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let blob = sized_arg(blob, "blob", zkforge_kzg::BYTES_PER_BLOB)?;
    let s = settings(s)?;
    let c = py.detach(|| s.blob_to_kzg_commitment(blob)).map_err(|e| kzg_err("blob_to_kzg_commitment", e))?;
    Ok(PyBytes::new(py, &c))
}

/// compute_kzg_proof(blob, z, s) -> (proof: bytes (48), y: bytes (32))
#[pyfunction]
fn compute_kzg_proof<'py>(py: Python<'py>, blob: &Bound<'py, PyAny>, z: &Bound<'py, PyAny>, s: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
    let blob = sized_arg(blob, "blob", zkforge_kzg::BYTES_PER_BLOB)?;
    let z = sized_arg(z, "z", 32)?;
    let s = settings(s)?;
    let (proof, y) = py.detach(|| s.compute_kzg_proof(blob, z)).map_err(|e| kzg_err("compute_kzg_proof", e))?;
    PyTuple::new(py, [PyBytes::new(py, &proof), PyBytes::new(py, &y)])
}

/// compute_blob_kzg_proof(blob, commitment, s) -> bytes (48)
#[pyfunction]
fn compute_blob_kzg_proof<'py>(py: Python<'py>, blob: &Bound<'py, PyAny>, commitment: &Bound<'py, PyAny>, s: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let blob = sized_arg(blob, "blob", zkforge_kzg::BYTES_PER_BLOB)?;
    let c = sized_arg(commitment, "commitment", 48)?;
    let s = settings(s)?;
    let p = py.detach(|| s.compute_blob_kzg_proof(blob, c)).map_err(|e| kzg_err("compute_blob_kzg_proof", e))?;
    Ok(PyBytes::new(py, &p))
}

/// verify_kzg_proof(commitment, z, y, proof, s) -> bool
#[pyfunction]
fn verify_kzg_proof(py: Python<'_>, commitment: &Bound<'_, PyAny>, z: &Bound<'_, PyAny>, y: &Bound<'_, PyAny>, proof: &Bound<'_, PyAny>, s: &Bound<'_, PyAny>) -> PyResult<bool> {
    let c = sized_arg(commitment, "commitment", 48)?;
    let z = sized_arg(z, "z", 32)?;
    let y = sized_arg(y, "y", 32)?;
    let p = sized_arg(proof, "proof", 48)?;
    let s = settings(s)?;
    py.detach(|| s.verify_kzg_proof(c, z, y, p)).map_err(|e| kzg_err("verify_kzg_proof", e))
}

/// verify_blob_kzg_proof(blob, commitment, proof, s) -> bool
#[pyfunction]
fn verify_blob_kzg_proof(py: Python<'_>, blob: &Bound<'_, PyAny>, commitment: &Bound<'_, PyAny>, proof: &Bound<'_, PyAny>, s: &Bound<'_, PyAny>) -> PyResult<bool> {
    let blob = sized_arg(blob, "blob", zkforge_kzg::BYTES_PER_BLOB)?;
    let c = sized_arg(commitment, "commitment", 48)?;
    let p = sized_arg(proof, "proof", 48)?;
    let s = settings(s)?;
    py.detach(|| s.verify_blob_kzg_proof(blob, c, p)).map_err(|e| kzg_err("verify_blob_kzg_proof", e))
}

/// verify_blob_kzg_proof_batch(blobs, commitments, proofs, s) -> bool
///
/// As in ckzg, each argument is one bytes object: the blobs, commitments and proofs
/// concatenated.
#[pyfunction]
fn verify_blob_kzg_proof_batch(py: Python<'_>, blobs: &Bound<'_, PyAny>, commitments: &Bound<'_, PyAny>, proofs: &Bound<'_, PyAny>, s: &Bound<'_, PyAny>) -> PyResult<bool> {
    let b = bytes_arg(blobs, "blobs")?;
    let c = bytes_arg(commitments, "commitments")?;
    let p = bytes_arg(proofs, "proofs")?;
    if b.len() % zkforge_kzg::BYTES_PER_BLOB != 0 {
        return Err(PyValueError::new_err("expected blobs to be a multiple of BYTES_PER_BLOB bytes"));
    }
    if c.len() % 48 != 0 {
        return Err(PyValueError::new_err("expected commitments to be a multiple of BYTES_PER_COMMITMENT bytes"));
    }
    if p.len() % 48 != 0 {
        return Err(PyValueError::new_err("expected proofs to be a multiple of BYTES_PER_PROOF bytes"));
    }
    let (bl, cl, pl): Slices3 = (b.chunks(zkforge_kzg::BYTES_PER_BLOB).collect(), c.chunks(48).collect(), p.chunks(48).collect());
    if bl.len() != cl.len() || bl.len() != pl.len() {
        return Err(PyValueError::new_err("expected same number of blobs/commitments/proofs"));
    }
    let s = settings(s)?;
    py.detach(|| s.verify_blob_kzg_proof_batch(&bl, &cl, &pl)).map_err(|e| kzg_err("verify_blob_kzg_proof_batch", e))
}

fn cells_to_list<'py>(py: Python<'py>, flat: &[u8]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, flat.chunks(zkforge_kzg::BYTES_PER_CELL).map(|c| PyBytes::new(py, c)))
}

fn proofs_to_list<'py>(py: Python<'py>, proofs: &[[u8; 48]]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, proofs.iter().map(|p| PyBytes::new(py, p)))
}

/// compute_cells(blob, s) -> list[bytes] (128 cells of 2048 bytes)
#[pyfunction]
fn compute_cells<'py>(py: Python<'py>, blob: &Bound<'py, PyAny>, s: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let blob = sized_arg(blob, "blob", zkforge_kzg::BYTES_PER_BLOB)?;
    let s = settings(s)?;
    let cells = py.detach(|| s.compute_cells(blob)).map_err(|e| kzg_err("compute_cells", e))?;
    cells_to_list(py, &cells)
}

/// compute_cells_and_kzg_proofs(blob, s) -> (list[bytes], list[bytes])
#[pyfunction]
fn compute_cells_and_kzg_proofs<'py>(py: Python<'py>, blob: &Bound<'py, PyAny>, s: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
    let blob = sized_arg(blob, "blob", zkforge_kzg::BYTES_PER_BLOB)?;
    let s = settings(s)?;
    let (cells, proofs) = py.detach(|| s.compute_cells_and_kzg_proofs(blob)).map_err(|e| kzg_err("compute_cells_and_kzg_proofs", e))?;
    PyTuple::new(py, [cells_to_list(py, &cells)?, proofs_to_list(py, &proofs)?])
}

/// recover_cells_and_kzg_proofs(cell_indices, cells, s) -> (list[bytes], list[bytes])
#[pyfunction]
fn recover_cells_and_kzg_proofs<'py>(py: Python<'py>, cell_indices: &Bound<'py, PyAny>, cells: &Bound<'py, PyAny>, s: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
    let idx = index_list(cell_indices)?;
    let cells = bytes_list(cells, "cell", zkforge_kzg::BYTES_PER_CELL)?;
    if idx.len() != cells.len() {
        return Err(PyValueError::new_err("expected same number of cell_indices and cells"));
    }
    let s = settings(s)?;
    let refs: Vec<&[u8]> = cells.iter().map(Vec::as_slice).collect();
    let (cells, proofs) = py.detach(|| s.recover_cells_and_kzg_proofs(&idx, &refs)).map_err(|e| kzg_err("recover_cells_and_kzg_proofs", e))?;
    PyTuple::new(py, [cells_to_list(py, &cells)?, proofs_to_list(py, &proofs)?])
}

/// verify_cell_kzg_proof_batch(commitments, cell_indices, cells, proofs, s) -> bool
#[pyfunction]
fn verify_cell_kzg_proof_batch(
    py: Python<'_>,
    commitments: &Bound<'_, PyAny>,
    cell_indices: &Bound<'_, PyAny>,
    cells: &Bound<'_, PyAny>,
    proofs: &Bound<'_, PyAny>,
    s: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    let cm = bytes_list(commitments, "commitment", 48)?;
    let idx = index_list(cell_indices)?;
    let cl = bytes_list(cells, "cell", zkforge_kzg::BYTES_PER_CELL)?;
    let pr = bytes_list(proofs, "proof", 48)?;
    if cm.len() != idx.len() || cm.len() != cl.len() || cm.len() != pr.len() {
        return Err(PyValueError::new_err("expected same number of commitments, cell_indices, cells and proofs"));
    }
    let s = settings(s)?;
    let (cm, cl, pr): Slices3 = (cm.iter().map(Vec::as_slice).collect(), cl.iter().map(Vec::as_slice).collect(), pr.iter().map(Vec::as_slice).collect());
    py.detach(|| s.verify_cell_kzg_proof_batch(&cm, &idx, &cl, &pr)).map_err(|e| kzg_err("verify_cell_kzg_proof_batch", e))
}

/// _rust_verify_kzg_proof_ns(commitment, z, y, proof, s, iters) -> float
///
/// Nanoseconds per `verify_kzg_proof` measured inside Rust (no Python call in the loop): the
/// reference `python -m zkforge.bench` compares the Python-level call with (call overhead).
#[pyfunction]
fn _rust_verify_kzg_proof_ns(py: Python<'_>, commitment: &Bound<'_, PyAny>, z: &Bound<'_, PyAny>, y: &Bound<'_, PyAny>, proof: &Bound<'_, PyAny>, s: &Bound<'_, PyAny>, iters: u32) -> PyResult<f64> {
    let c = sized_arg(commitment, "commitment", 48)?;
    let z = sized_arg(z, "z", 32)?;
    let y = sized_arg(y, "y", 32)?;
    let p = sized_arg(proof, "proof", 48)?;
    let s = settings(s)?;
    let iters = iters.max(1);
    py.detach(|| {
        let t = std::time::Instant::now();
        for _ in 0..iters {
            std::hint::black_box(s.verify_kzg_proof(c, z, y, p).map_err(|e| kzg_err("verify_kzg_proof", e))?);
        }
        Ok(t.elapsed().as_secs_f64() * 1e9 / f64::from(iters))
    })
}

/// The native module: the KZG functions (re-exported by `zkforge.kzg`).
#[pymodule]
fn _zkforge(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyKzgSettings>()?;
    bls::register(m)?;
    bls_sig::register(m)?;
    evm::register(m)?;
    bn::register(m)?;
    hashsig::register(m)?;
    m.add_function(wrap_pyfunction!(load_trusted_setup, m)?)?;
    m.add_function(wrap_pyfunction!(load_trusted_setup_mainnet, m)?)?;
    m.add_function(wrap_pyfunction!(blob_to_kzg_commitment, m)?)?;
    m.add_function(wrap_pyfunction!(compute_kzg_proof, m)?)?;
    m.add_function(wrap_pyfunction!(compute_blob_kzg_proof, m)?)?;
    m.add_function(wrap_pyfunction!(verify_kzg_proof, m)?)?;
    m.add_function(wrap_pyfunction!(verify_blob_kzg_proof, m)?)?;
    m.add_function(wrap_pyfunction!(verify_blob_kzg_proof_batch, m)?)?;
    m.add_function(wrap_pyfunction!(compute_cells, m)?)?;
    m.add_function(wrap_pyfunction!(compute_cells_and_kzg_proofs, m)?)?;
    m.add_function(wrap_pyfunction!(recover_cells_and_kzg_proofs, m)?)?;
    m.add_function(wrap_pyfunction!(verify_cell_kzg_proof_batch, m)?)?;
    m.add_function(wrap_pyfunction!(_rust_verify_kzg_proof_ns, m)?)?;
    m.add("BYTES_PER_BLOB", zkforge_kzg::BYTES_PER_BLOB)?;
    m.add("BYTES_PER_CELL", zkforge_kzg::BYTES_PER_CELL)?;
    m.add("CELLS_PER_EXT_BLOB", zkforge_kzg::CELLS_PER_EXT_BLOB)?;
    Ok(())
}

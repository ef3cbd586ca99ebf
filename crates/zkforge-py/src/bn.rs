//! `zkforge.bn254`: BN254 (alt_bn128) points in the EVM's encodings (EIP-196/197): G1 as 64
//! bytes x || y, G2 as 128 bytes x.im || x.re || y.im || y.re, big-endian, the identity all
//! zeros. `g1_add`, `g1_neg`, `g1_mul`, `g1_msm`, `g2_add`, `g2_mul`, `g2_msm` and
//! `pairing_check`, bytes in and bytes out; scalars are Python ints (any non-negative size,
//! reduced mod r as the EVM's ECMUL does). Decoding checks coordinates below p, the curve, and
//! for G2 the subgroup (G1 has prime order); a bad point raises `ValueError`. Multiplications
//! are variable time (EVM data is public). MSMs and pairings release the GIL.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use zkforge_curve::bn254::{G1Affine, G2Affine};
use zkforge_evm::bn254::{decode_g1, decode_g2, encode_g1, encode_g2};
use zkforge_field::bn254::Fr;

fn g1_of(b: &[u8]) -> PyResult<G1Affine> {
    let arr: &[u8; 64] = b.try_into().map_err(|_| PyValueError::new_err(format!("expected a G1 point of 64 bytes, got {}", b.len())))?;
    decode_g1(arr).map_err(|e| PyValueError::new_err(format!("G1 point: {e}")))
}

fn g2_of(b: &[u8]) -> PyResult<G2Affine> {
    let arr: &[u8; 128] = b.try_into().map_err(|_| PyValueError::new_err(format!("expected a G2 point of 128 bytes, got {}", b.len())))?;
    decode_g2(arr).map_err(|e| PyValueError::new_err(format!("G2 point: {e}")))
}

/// A non-negative Python int reduced mod r.
fn scalar_of(k: &Bound<'_, PyAny>) -> PyResult<Fr> {
    Ok(Fr::from_bytes_be_mod_order(&crate::int_be_bytes(k)?))
}

fn scalars_of(ks: &Bound<'_, PyAny>) -> PyResult<Vec<Fr>> {
    ks.try_iter()?.map(|k| scalar_of(&k?)).collect()
}

fn bytes_items(list: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<u8>>> {
    list.try_iter()?.map(|x| x?.extract::<Vec<u8>>()).collect()
}

/// g1_add(p, q) -> bytes (64): P + Q.
#[pyfunction]
fn g1_add<'py>(py: Python<'py>, p: &[u8], q: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let (p, q) = (g1_of(p)?, g1_of(q)?);
    Ok(PyBytes::new(py, &encode_g1(&p.add_vartime(&q))))
}

/// g1_neg(p) -> bytes (64): -P.
#[pyfunction]
fn g1_neg<'py>(py: Python<'py>, p: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    Ok(PyBytes::new(py, &encode_g1(&-g1_of(p)?)))
}

/// g1_mul(p, k) -> bytes (64): k P.
#[pyfunction]
fn g1_mul<'py>(py: Python<'py>, p: &[u8], k: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let (p, k) = (g1_of(p)?, scalar_of(k)?);
    Ok(PyBytes::new(py, &encode_g1(&p.to_jacobian().mul_limbs_vartime(&k.to_limbs()).to_affine_vartime())))
}

/// g1_msm(points, scalars) -> bytes (64): sum k_i P_i (`ValueError` for lists of different
/// lengths).
#[pyfunction]
fn g1_msm<'py>(py: Python<'py>, points: &Bound<'py, PyAny>, scalars: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let pts: Vec<G1Affine> = bytes_items(points)?.iter().map(|b| g1_of(b)).collect::<PyResult<_>>()?;
    let ks = scalars_of(scalars)?;
    let r = py.detach(|| zkforge_msm::msm(&pts, &ks)).map_err(|e| PyValueError::new_err(format!("g1_msm: {e}")))?;
    Ok(PyBytes::new(py, &encode_g1(&r.to_affine_vartime())))
}

/// g2_add(p, q) -> bytes (128): P + Q.
#[pyfunction]
fn g2_add<'py>(py: Python<'py>, p: &[u8], q: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let (p, q) = (g2_of(p)?, g2_of(q)?);
    Ok(PyBytes::new(py, &encode_g2(&p.add_vartime(&q))))
}

/// g2_mul(p, k) -> bytes (128): k P.
#[pyfunction]
fn g2_mul<'py>(py: Python<'py>, p: &[u8], k: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let (p, k) = (g2_of(p)?, scalar_of(k)?);
    Ok(PyBytes::new(py, &encode_g2(&p.to_jacobian().mul_limbs_vartime(&k.to_limbs()).to_affine_vartime())))
}

/// g2_msm(points, scalars) -> bytes (128): sum k_i P_i.
#[pyfunction]
fn g2_msm<'py>(py: Python<'py>, points: &Bound<'py, PyAny>, scalars: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let pts: Vec<G2Affine> = bytes_items(points)?.iter().map(|b| g2_of(b)).collect::<PyResult<_>>()?;
    let ks = scalars_of(scalars)?;
    let r = py.detach(|| zkforge_msm::msm(&pts, &ks)).map_err(|e| PyValueError::new_err(format!("g2_msm: {e}")))?;
    Ok(PyBytes::new(py, &encode_g2(&r.to_affine_vartime())))
}

/// pairing_check(g1s, g2s) -> bool: is prod e(g1s[i], g2s[i]) one? (EIP-197; an empty product
/// is one; `ValueError` for lists of different lengths.)
#[pyfunction]
fn pairing_check(py: Python<'_>, g1s: &Bound<'_, PyAny>, g2s: &Bound<'_, PyAny>) -> PyResult<bool> {
    let a: Vec<G1Affine> = bytes_items(g1s)?.iter().map(|b| g1_of(b)).collect::<PyResult<_>>()?;
    let b: Vec<G2Affine> = bytes_items(g2s)?.iter().map(|b| g2_of(b)).collect::<PyResult<_>>()?;
    if a.len() != b.len() {
        return Err(PyValueError::new_err("g1s and g2s must have the same length"));
    }
    let pairs: Vec<(G1Affine, G2Affine)> = a.into_iter().zip(b).collect();
    Ok(py.detach(|| zkforge_pairing::bn254::pairing_check(&pairs)))
}

/// Add the functions to a `bn254` submodule of the native module (re-exported by
/// `zkforge.bn254`).
pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = PyModule::new(parent.py(), "bn254")?;
    m.add_function(wrap_pyfunction!(g1_add, &m)?)?;
    m.add_function(wrap_pyfunction!(g1_neg, &m)?)?;
    m.add_function(wrap_pyfunction!(g1_mul, &m)?)?;
    m.add_function(wrap_pyfunction!(g1_msm, &m)?)?;
    m.add_function(wrap_pyfunction!(g2_add, &m)?)?;
    m.add_function(wrap_pyfunction!(g2_mul, &m)?)?;
    m.add_function(wrap_pyfunction!(g2_msm, &m)?)?;
    m.add_function(wrap_pyfunction!(pairing_check, &m)?)?;
    parent.add_submodule(&m)
}

//! `zkforge.evm`: the EVM precompiles of zkforge-evm (BN254 0x06-0x08 under Istanbul prices,
//! EIP-2537 BLS12-381 0x0b-0x11, EIP-4844 point evaluation 0x0a) for Python:
//! `call(address, input, gas) -> (output, gas_used)`. A failed call raises
//! `zkforge.evm.PrecompileError` (an EVM precompile failure consumes all the gas given; the
//! message says why, and `.args[0]` is that message).

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt};

create_exception!(zkforge.evm, PrecompileError, PyException, "A precompile refused its input or ran out of gas; all the gas given is consumed.");

/// The precompile address as its low byte: an int, or 20 big-endian bytes, whose upper 19
/// bytes must be zero.
fn address_byte(a: &Bound<'_, PyAny>) -> PyResult<u8> {
    if let Ok(b) = a.cast::<PyBytes>() {
        let b = b.as_bytes();
        if b.len() != 20 || b[..19].iter().any(|&x| x != 0) {
            return Err(PyValueError::new_err("expected address to be 20 bytes naming a precompile (0x00..01 to 0x00..11)"));
        }
        return Ok(b[19]);
    }
    if a.cast::<PyInt>().is_ok() {
        return a.extract::<u8>().map_err(|_| PyValueError::new_err("expected address to be a precompile number from 0 to 255"));
    }
    Err(PyValueError::new_err("expected address to be an int or 20 bytes"))
}

/// call(address, input, gas) -> (output: bytes, gas_used: int)
///
/// Run the precompile at `address` on `input` with a gas limit of `gas`.
#[pyfunction]
fn call<'py>(py: Python<'py>, address: &Bound<'py, PyAny>, input: &[u8], gas: u64) -> PyResult<(Bound<'py, PyBytes>, u64)> {
    let addr = address_byte(address)?;
    let out = py.detach(|| zkforge_evm::call(addr, input, gas)).map_err(|e| PrecompileError::new_err(format!("precompile {addr:#04x}: {e}")))?;
    Ok((PyBytes::new(py, &out.bytes), out.gas_used))
}

/// Add `call` and `PrecompileError` to the native module (re-exported by `zkforge.evm`).
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(call, m)?)?;
    m.add("PrecompileError", m.py().get_type::<PrecompileError>())?;
    Ok(())
}

//! `zkforge.bls12_381`: BLS12-381 points, scalars and pairings with the API of the
//! `py_arkworks_bls12381` package (0.5), so that code written for it (the consensus specs'
//! arkworks backend) runs on zkforge: `G1Point`, `G2Point`, `Scalar`, `GT`, with the same
//! constructors, methods, operators, encodings and exception classes.
//!
//! - Points: `G1Point()` is the generator; `+`, `-`, unary `-`, `* Scalar` (also
//!   `Scalar * point`), `==`, `hash`; Zcash compressed encodings (checked and `_unchecked`),
//!   uncompressed x || y in big- or little-endian (G2: x.c0 || x.c1 || y.c0 || y.c1, 48 bytes
//!   each; the identity is all zeros), RFC 9380 `hash_to_curve(msg, dst)`, the SSWU maps with
//!   cofactor clearing (`map_from_fp_be`, ...), `multiexp_unchecked(points, scalars)` (pairs
//!   taken up to the shorter list, as the peer does).
//! - A point decoded `_unchecked` may lie outside the prime-order subgroup: it is multiplied by
//!   plain double-and-add (right for any curve point); points known to be in the subgroup use
//!   the constant-time GLV multiplication (a Scalar may be a secret key). Point addition and
//!   subtraction are variable time, as the peer's: points are public.
//! - `Scalar(int)` reduces a non-negative int mod r (negative: `OverflowError`); `+ - * /`,
//!   `pow(Scalar)`, `inverse()` (`ZeroDivisionError` on zero), `int()`, `str()` (little-endian
//!   hex, as the peer), byte encodings checked or reduced.
//! - `GT` holds an Fp12 element with the peer's operators: `*` is the group operation (Fp12
//!   multiplication), `+`/`-` are Fp12 addition and subtraction, `zero()`/`one()` the Fp12
//!   constants; `pairing`, `multi_pairing`, `pairing_check`. `str()` is the 576-byte
//!   little-endian serialisation (c0.c0.c0 first), in hex.
//!
//! Pairings, MSMs and hash-to-curve release the GIL. Errors are `ValueError` (bad encodings,
//! wrong lengths, mismatched lists) and `TypeError` (operands of the wrong type), as the peer.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyValueError, PyZeroDivisionError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt};
use zkforge_curve::bls12_381::{G1Affine, G1Config, G1Projective, G2Affine, G2Config, G2Projective};
use zkforge_curve::point::{Affine, Jacobian};
use zkforge_curve::CurveConfig;
use zkforge_field::bls12_381::{Fp, Fp12, Fp2, Fr};

fn value_err(op: &str, e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{op}: {e}"))
}

fn sized<'a>(b: &'a [u8], what: &str, len: usize) -> PyResult<&'a [u8]> {
    if b.len() == len {
        Ok(b)
    } else {
        Err(PyValueError::new_err(format!("expected {what} of length {len} (got {})", b.len())))
    }
}

fn short_hex(b: &[u8]) -> String {
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!("0x{}...{}", &h[..8], &h[h.len() - 8..])
}

fn hash_bytes(b: &[u8]) -> isize {
    let mut h = DefaultHasher::new();
    b.hash(&mut h);
    h.finish() as isize
}

fn fp_from(b: &[u8], be: bool) -> PyResult<Fp> {
    let r = if be { Fp::from_bytes_be(b) } else { Fp::from_bytes_le(b) };
    r.map_err(|e| value_err("field element", e))
}

fn fp_to(x: &Fp, be: bool) -> [u8; 48] {
    let mut out = [0u8; 48];
    if be {
        out.copy_from_slice(x.to_bytes_be().as_ref());
    } else {
        out.copy_from_slice(x.to_bytes_le().as_ref());
    }
    out
}

/// The coordinate encodings of the two groups' base fields (x || y, each coordinate in the
/// peer's order).
trait Coords: CurveConfig {
    /// Bytes of one coordinate.
    const COORD: usize;
    fn coord_from(b: &[u8], be: bool) -> PyResult<Self::Base>;
    fn coord_to(x: &Self::Base, be: bool) -> Vec<u8>;
}

impl Coords for G1Config {
    const COORD: usize = 48;
    fn coord_from(b: &[u8], be: bool) -> PyResult<Fp> {
        fp_from(b, be)
    }
    fn coord_to(x: &Fp, be: bool) -> Vec<u8> {
        fp_to(x, be).to_vec()
    }
}

impl Coords for G2Config {
    const COORD: usize = 96;
    fn coord_from(b: &[u8], be: bool) -> PyResult<Fp2> {
        Ok(Fp2 { c0: fp_from(&b[..48], be)?, c1: fp_from(&b[48..], be)? })
    }
    fn coord_to(x: &Fp2, be: bool) -> Vec<u8> {
        [fp_to(&x.c0, be), fp_to(&x.c1, be)].concat()
    }
}

/// x || y (all zeros for the identity).
fn xy_to<C: Coords>(p: &Affine<C>, be: bool) -> Vec<u8> {
    if bool::from(p.is_identity()) {
        return vec![0u8; 2 * C::COORD];
    }
    [C::coord_to(&p.x(), be), C::coord_to(&p.y(), be)].concat()
}

/// Decode x || y; `checked` adds the subgroup check. Returns the point and whether it is known
/// to be in the subgroup.
fn xy_from<C: Coords>(b: &[u8], be: bool, checked: bool) -> PyResult<(Affine<C>, bool)> {
    let b = sized(b, "uncompressed point", 2 * C::COORD)?;
    if b.iter().all(|&x| x == 0) {
        return Ok((Affine::IDENTITY, true));
    }
    let (x, y) = (C::coord_from(&b[..C::COORD], be)?, C::coord_from(&b[C::COORD..], be)?);
    match Affine::<C>::from_xy(x, y) {
        Ok(p) => Ok((p, true)),
        Err(zkforge_curve::CurveError::NotInSubgroup) if !checked => Ok((Affine::new_unchecked(x, y), false)),
        Err(e) => Err(value_err("uncompressed point", e)),
    }
}

/// k P for a point in the subgroup (constant time, GLV) or any curve point (double-and-add).
fn mul_point<C: CurveConfig>(p: &Jacobian<C>, in_subgroup: bool, k: &Fr) -> Jacobian<C> {
    let limbs = k.to_limbs();
    if in_subgroup {
        p.mul_limbs(&limbs)
    } else {
        p.mul_bigint_vartime(&limbs)
    }
}

/// sum k_i P_i over the pairs (up to the shorter list).
fn multiexp<C: CurveConfig<Scalar = Fr>>(points: &[(Jacobian<C>, bool)], scalars: &[Fr]) -> Jacobian<C> {
    let n = points.len().min(scalars.len());
    if points[..n].iter().all(|p| p.1) {
        let affine = Jacobian::batch_to_affine(&points[..n].iter().map(|p| p.0).collect::<Vec<_>>());
        return zkforge_msm::msm(&affine, &scalars[..n]).expect("equal lengths");
    }
    points[..n].iter().zip(&scalars[..n]).fold(Jacobian::IDENTITY, |acc, (p, k)| acc + mul_point(&p.0, p.1, k))
}

/// A G1 point (`py_arkworks_bls12381.G1Point`).
#[pyclass(frozen, from_py_object, name = "G1Point", module = "zkforge.bls12_381")]
#[derive(Clone, Copy)]
pub struct PyG1 {
    p: G1Projective,
    sub: bool,
}

/// A G2 point (`py_arkworks_bls12381.G2Point`).
#[pyclass(frozen, from_py_object, name = "G2Point", module = "zkforge.bls12_381")]
#[derive(Clone, Copy)]
pub struct PyG2 {
    p: G2Projective,
    sub: bool,
}

/// An element of Fr (`py_arkworks_bls12381.Scalar`).
#[pyclass(frozen, from_py_object, name = "Scalar", module = "zkforge.bls12_381")]
#[derive(Clone, Copy)]
pub struct PyScalar {
    k: Fr,
}

/// An Fp12 element, the pairing's target (`py_arkworks_bls12381.GT`).
#[pyclass(frozen, from_py_object, name = "GT", module = "zkforge.bls12_381")]
#[derive(Clone, Copy)]
pub struct PyGt {
    f: Fp12,
}

fn g1(p: G1Projective, sub: bool) -> PyG1 {
    PyG1 { p, sub }
}

fn g2(p: G2Projective, sub: bool) -> PyG2 {
    PyG2 { p, sub }
}

fn scalars_of(list: &Bound<'_, PyAny>) -> PyResult<Vec<Fr>> {
    list.try_iter()?.map(|x| x?.extract::<PyScalar>().map_err(PyErr::from).map(|s| s.k)).collect()
}

fn eq_result(py: Python<'_>, op: CompareOp, same: Option<bool>) -> Py<PyAny> {
    match (op, same) {
        (CompareOp::Eq, Some(s)) => s.into_pyobject(py).expect("bool").to_owned().into_any().unbind(),
        (CompareOp::Ne, Some(s)) => (!s).into_pyobject(py).expect("bool").to_owned().into_any().unbind(),
        (CompareOp::Eq, None) => false.into_pyobject(py).expect("bool").to_owned().into_any().unbind(),
        (CompareOp::Ne, None) => true.into_pyobject(py).expect("bool").to_owned().into_any().unbind(),
        _ => py.NotImplemented(),
    }
}

#[pymethods]
impl PyG1 {
    /// The generator.
    #[new]
    fn new() -> Self {
        g1(G1Projective::generator(), true)
    }

    /// The identity (point at infinity).
    #[staticmethod]
    fn identity() -> Self {
        g1(G1Projective::IDENTITY, true)
    }

    /// 48-byte Zcash compressed encoding.
    fn to_compressed_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.p.to_affine().to_compressed())
    }

    /// Decode 48 compressed bytes, with the subgroup check (`ValueError` otherwise).
    #[staticmethod]
    fn from_compressed_bytes(data: &[u8]) -> PyResult<Self> {
        let a = G1Affine::from_compressed(sized(data, "compressed G1 point", 48)?).map_err(|e| value_err("G1 point", e))?;
        Ok(g1(a.to_jacobian(), true))
    }

    /// Decode 48 compressed bytes, on the curve but without the subgroup check.
    #[staticmethod]
    fn from_compressed_bytes_unchecked(data: &[u8]) -> PyResult<Self> {
        let a = G1Affine::from_compressed_unchecked(sized(data, "compressed G1 point", 48)?).map_err(|e| value_err("G1 point", e))?;
        Ok(g1(a.to_jacobian(), a.is_in_subgroup()))
    }

    /// 96 bytes: big-endian x || y.
    fn to_xy_bytes_be<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &xy_to(&self.p.to_affine(), true))
    }

    /// 96 bytes: little-endian x || y.
    fn to_xy_bytes_le<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &xy_to(&self.p.to_affine(), false))
    }

    /// Decode big-endian x || y with the curve and subgroup checks.
    #[staticmethod]
    fn from_xy_bytes_be(data: &[u8]) -> PyResult<Self> {
        xy_from::<G1Config>(data, true, true).map(|(a, s)| g1(a.to_jacobian(), s))
    }

    /// Decode little-endian x || y with the curve and subgroup checks.
    #[staticmethod]
    fn from_xy_bytes_le(data: &[u8]) -> PyResult<Self> {
        xy_from::<G1Config>(data, false, true).map(|(a, s)| g1(a.to_jacobian(), s))
    }

    /// Decode big-endian x || y with the curve check only.
    #[staticmethod]
    fn from_xy_bytes_unchecked_be(data: &[u8]) -> PyResult<Self> {
        xy_from::<G1Config>(data, true, false).map(|(a, s)| g1(a.to_jacobian(), s))
    }

    /// Decode little-endian x || y with the curve check only.
    #[staticmethod]
    fn from_xy_bytes_unchecked_le(data: &[u8]) -> PyResult<Self> {
        xy_from::<G1Config>(data, false, false).map(|(a, s)| g1(a.to_jacobian(), s))
    }

    /// RFC 9380 hash_to_curve (BLS12381G1_XMD:SHA-256_SSWU_RO_ with the given DST).
    #[staticmethod]
    fn hash_to_curve(py: Python<'_>, msg: &[u8], dst: &[u8]) -> PyResult<Self> {
        let a = py.detach(|| zkforge_curve::hash_to_curve::hash_to_g1(msg, dst)).map_err(|e| value_err("hash_to_curve", e))?;
        Ok(g1(a.to_jacobian(), true))
    }

    /// SSWU map of a 48-byte big-endian field element, cofactor cleared (EIP-2537 MAP_FP_TO_G1).
    #[staticmethod]
    fn map_from_fp_be(fp_bytes: &[u8]) -> PyResult<Self> {
        let u = fp_from(sized(fp_bytes, "field element", 48)?, true)?;
        Ok(g1(zkforge_curve::hash_to_curve::map_fp_to_g1(&u).to_jacobian(), true))
    }

    /// SSWU map of a 48-byte little-endian field element, cofactor cleared.
    #[staticmethod]
    fn map_from_fp_le(fp_bytes: &[u8]) -> PyResult<Self> {
        let u = fp_from(sized(fp_bytes, "field element", 48)?, false)?;
        Ok(g1(zkforge_curve::hash_to_curve::map_fp_to_g1(&u).to_jacobian(), true))
    }

    /// sum scalars[i] * points[i], over the pairs up to the shorter list.
    #[staticmethod]
    fn multiexp_unchecked(py: Python<'_>, points: &Bound<'_, PyAny>, scalars: &Bound<'_, PyAny>) -> PyResult<Self> {
        let pts: Vec<(G1Projective, bool)> = points.try_iter()?.map(|x| x?.extract::<PyG1>().map_err(PyErr::from).map(|p| (p.p, p.sub))).collect::<PyResult<_>>()?;
        let ks = scalars_of(scalars)?;
        let all_sub = pts.iter().all(|p| p.1);
        Ok(g1(py.detach(|| multiexp(&pts, &ks)), all_sub))
    }

    /// True when the point is in the prime-order subgroup.
    fn is_in_subgroup(&self) -> bool {
        self.sub || self.p.to_affine().is_in_subgroup()
    }

    // operands of another type: PyO3 answers NotImplemented, so Python raises TypeError
    fn __add__(&self, o: &Bound<'_, PyG1>) -> Self {
        let o = o.get();
        g1(self.p.add_vartime(&o.p), self.sub && o.sub)
    }

    fn __sub__(&self, o: &Bound<'_, PyG1>) -> Self {
        let o = o.get();
        g1(self.p.add_vartime(&-o.p), self.sub && o.sub)
    }

    fn __neg__(&self) -> Self {
        g1(-self.p, self.sub)
    }

    fn __mul__(&self, k: &Bound<'_, PyScalar>) -> Self {
        g1(mul_point(&self.p, self.sub, &k.get().k), self.sub)
    }

    fn __rmul__(&self, k: &Bound<'_, PyScalar>) -> Self {
        self.__mul__(k)
    }

    fn __richcmp__(&self, py: Python<'_>, o: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        eq_result(py, op, o.extract::<PyG1>().ok().map(|o| self.p.to_affine() == o.p.to_affine()))
    }

    fn __hash__(&self) -> isize {
        hash_bytes(&self.p.to_affine().to_compressed())
    }

    fn __str__(&self) -> String {
        self.p.to_affine().to_compressed().iter().map(|x| format!("{x:02x}")).collect()
    }

    fn __repr__(&self) -> String {
        format!("G1Point({})", short_hex(&self.p.to_affine().to_compressed()))
    }
}

#[pymethods]
impl PyG2 {
    /// The generator.
    #[new]
    fn new() -> Self {
        g2(G2Projective::generator(), true)
    }

    /// The identity (point at infinity).
    #[staticmethod]
    fn identity() -> Self {
        g2(G2Projective::IDENTITY, true)
    }

    /// 96-byte Zcash compressed encoding.
    fn to_compressed_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.p.to_affine().to_compressed())
    }

    /// Decode 96 compressed bytes, with the subgroup check (`ValueError` otherwise).
    #[staticmethod]
    fn from_compressed_bytes(data: &[u8]) -> PyResult<Self> {
        let a = G2Affine::from_compressed(sized(data, "compressed G2 point", 96)?).map_err(|e| value_err("G2 point", e))?;
        Ok(g2(a.to_jacobian(), true))
    }

    /// Decode 96 compressed bytes, on the curve but without the subgroup check.
    #[staticmethod]
    fn from_compressed_bytes_unchecked(data: &[u8]) -> PyResult<Self> {
        let a = G2Affine::from_compressed_unchecked(sized(data, "compressed G2 point", 96)?).map_err(|e| value_err("G2 point", e))?;
        Ok(g2(a.to_jacobian(), a.is_in_subgroup()))
    }

    /// 192 bytes: big-endian x.c0 || x.c1 || y.c0 || y.c1.
    fn to_xy_bytes_be<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &xy_to(&self.p.to_affine(), true))
    }

    /// 192 bytes: little-endian x.c0 || x.c1 || y.c0 || y.c1.
    fn to_xy_bytes_le<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &xy_to(&self.p.to_affine(), false))
    }

    /// Decode big-endian coordinates with the curve and subgroup checks.
    #[staticmethod]
    fn from_xy_bytes_be(data: &[u8]) -> PyResult<Self> {
        xy_from::<G2Config>(data, true, true).map(|(a, s)| g2(a.to_jacobian(), s))
    }

    /// Decode little-endian coordinates with the curve and subgroup checks.
    #[staticmethod]
    fn from_xy_bytes_le(data: &[u8]) -> PyResult<Self> {
        xy_from::<G2Config>(data, false, true).map(|(a, s)| g2(a.to_jacobian(), s))
    }

    /// Decode big-endian coordinates with the curve check only.
    #[staticmethod]
    fn from_xy_bytes_unchecked_be(data: &[u8]) -> PyResult<Self> {
        xy_from::<G2Config>(data, true, false).map(|(a, s)| g2(a.to_jacobian(), s))
    }

    /// Decode little-endian coordinates with the curve check only.
    #[staticmethod]
    fn from_xy_bytes_unchecked_le(data: &[u8]) -> PyResult<Self> {
        xy_from::<G2Config>(data, false, false).map(|(a, s)| g2(a.to_jacobian(), s))
    }

    /// RFC 9380 hash_to_curve (BLS12381G2_XMD:SHA-256_SSWU_RO_ with the given DST).
    #[staticmethod]
    fn hash_to_curve(py: Python<'_>, msg: &[u8], dst: &[u8]) -> PyResult<Self> {
        let a = py.detach(|| zkforge_curve::hash_to_curve::hash_to_g2(msg, dst)).map_err(|e| value_err("hash_to_curve", e))?;
        Ok(g2(a.to_jacobian(), true))
    }

    /// SSWU map of a 96-byte big-endian Fp2 element (c0 || c1), cofactor cleared (EIP-2537
    /// MAP_FP2_TO_G2).
    #[staticmethod]
    fn map_from_fp2_be(fp2_bytes: &[u8]) -> PyResult<Self> {
        let u = G2Config::coord_from(sized(fp2_bytes, "Fp2 element", 96)?, true)?;
        Ok(g2(zkforge_curve::hash_to_curve::map_fp2_to_g2(&u).to_jacobian(), true))
    }

    /// SSWU map of a 96-byte little-endian Fp2 element (c0 || c1), cofactor cleared.
    #[staticmethod]
    fn map_from_fp2_le(fp2_bytes: &[u8]) -> PyResult<Self> {
        let u = G2Config::coord_from(sized(fp2_bytes, "Fp2 element", 96)?, false)?;
        Ok(g2(zkforge_curve::hash_to_curve::map_fp2_to_g2(&u).to_jacobian(), true))
    }

    /// sum scalars[i] * points[i], over the pairs up to the shorter list.
    #[staticmethod]
    fn multiexp_unchecked(py: Python<'_>, points: &Bound<'_, PyAny>, scalars: &Bound<'_, PyAny>) -> PyResult<Self> {
        let pts: Vec<(G2Projective, bool)> = points.try_iter()?.map(|x| x?.extract::<PyG2>().map_err(PyErr::from).map(|p| (p.p, p.sub))).collect::<PyResult<_>>()?;
        let ks = scalars_of(scalars)?;
        let all_sub = pts.iter().all(|p| p.1);
        Ok(g2(py.detach(|| multiexp(&pts, &ks)), all_sub))
    }

    /// True when the point is in the prime-order subgroup.
    fn is_in_subgroup(&self) -> bool {
        self.sub || self.p.to_affine().is_in_subgroup()
    }

    // operands of another type: PyO3 answers NotImplemented, so Python raises TypeError
    fn __add__(&self, o: &Bound<'_, PyG2>) -> Self {
        let o = o.get();
        g2(self.p.add_vartime(&o.p), self.sub && o.sub)
    }

    fn __sub__(&self, o: &Bound<'_, PyG2>) -> Self {
        let o = o.get();
        g2(self.p.add_vartime(&-o.p), self.sub && o.sub)
    }

    fn __neg__(&self) -> Self {
        g2(-self.p, self.sub)
    }

    fn __mul__(&self, k: &Bound<'_, PyScalar>) -> Self {
        g2(mul_point(&self.p, self.sub, &k.get().k), self.sub)
    }

    fn __rmul__(&self, k: &Bound<'_, PyScalar>) -> Self {
        self.__mul__(k)
    }

    fn __richcmp__(&self, py: Python<'_>, o: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        eq_result(py, op, o.extract::<PyG2>().ok().map(|o| self.p.to_affine() == o.p.to_affine()))
    }

    fn __hash__(&self) -> isize {
        hash_bytes(&self.p.to_affine().to_compressed())
    }

    fn __str__(&self) -> String {
        self.p.to_affine().to_compressed().iter().map(|x| format!("{x:02x}")).collect()
    }

    fn __repr__(&self) -> String {
        format!("G2Point({})", short_hex(&self.p.to_affine().to_compressed()))
    }
}

fn fr_from(b: &[u8], be: bool) -> PyResult<Fr> {
    let b = sized(b, "scalar", 32)?;
    let r = if be { Fr::from_bytes_be(b) } else { Fr::from_bytes_le(b) };
    r.map_err(|e| value_err("scalar", e))
}

fn fr_le(k: &Fr) -> [u8; 32] {
    let mut out = [0u8; 32];
    out.copy_from_slice(k.to_bytes_le().as_ref());
    out
}

fn scalar(k: Fr) -> PyScalar {
    PyScalar { k }
}

fn other_scalar(o: &Bound<'_, PyAny>) -> Option<Fr> {
    o.extract::<PyScalar>().ok().map(|s| s.k)
}

#[pymethods]
impl PyScalar {
    /// Scalar(integer): a non-negative int reduced mod r.
    #[new]
    fn new(integer: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(scalar(Fr::from_bytes_be_mod_order(&crate::int_be_bytes(integer)?)))
    }

    /// Decode 32 big-endian bytes (`ValueError` unless below r).
    #[staticmethod]
    fn from_be_bytes(data: &[u8]) -> PyResult<Self> {
        fr_from(data, true).map(scalar)
    }

    /// Decode 32 little-endian bytes (`ValueError` unless below r).
    #[staticmethod]
    fn from_le_bytes(data: &[u8]) -> PyResult<Self> {
        fr_from(data, false).map(scalar)
    }

    /// Any number of big-endian bytes, reduced mod r.
    #[staticmethod]
    fn from_be_bytes_mod_order(data: &[u8]) -> Self {
        scalar(Fr::from_bytes_be_mod_order(data))
    }

    /// Any number of little-endian bytes, reduced mod r.
    #[staticmethod]
    fn from_le_bytes_mod_order(data: &[u8]) -> Self {
        let be: Vec<u8> = data.iter().rev().copied().collect();
        scalar(Fr::from_bytes_be_mod_order(&be))
    }

    /// 32 big-endian bytes.
    fn to_be_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.k.to_bytes_be().as_ref())
    }

    /// 32 little-endian bytes.
    fn to_le_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &fr_le(&self.k))
    }

    /// 1 / self (`ZeroDivisionError` for zero).
    fn inverse(&self) -> PyResult<Self> {
        Option::<Fr>::from(self.k.invert()).map(scalar).ok_or_else(|| PyZeroDivisionError::new_err("Cannot invert zero"))
    }

    /// self^exp, exp a Scalar taken as its integer (constant time).
    fn pow(&self, exp: PyScalar) -> Self {
        scalar(self.k.pow(&exp.k.to_limbs()))
    }

    /// self^2.
    fn square(&self) -> Self {
        scalar(self.k.square())
    }

    /// True for zero.
    fn is_zero(&self) -> bool {
        bool::from(self.k.is_zero())
    }

    /// True for one.
    fn is_one(&self) -> bool {
        bool::from(self.k.is_one())
    }

    fn __add__(&self, o: &Bound<'_, PyScalar>) -> Self {
        let o = o.get().k;
        scalar(self.k + o)
    }

    fn __sub__(&self, o: &Bound<'_, PyScalar>) -> Self {
        let o = o.get().k;
        scalar(self.k - o)
    }

    fn __mul__(&self, o: &Bound<'_, PyScalar>) -> Self {
        let o = o.get().k;
        scalar(self.k * o)
    }

    fn __truediv__(&self, o: &Bound<'_, PyScalar>) -> PyResult<Self> {
        let inv = Option::<Fr>::from(o.get().k.invert()).ok_or_else(|| PyZeroDivisionError::new_err("Cannot divide by zero"))?;
        Ok(scalar(self.k * inv))
    }

    fn __neg__(&self) -> Self {
        scalar(-self.k)
    }

    fn __int__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        PyInt::new(py, 0).call_method1("from_bytes", (PyBytes::new(py, &fr_le(&self.k)), "little"))
    }

    fn __richcmp__(&self, py: Python<'_>, o: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        eq_result(py, op, other_scalar(o).map(|o| o == self.k))
    }

    fn __hash__(&self) -> isize {
        hash_bytes(&fr_le(&self.k))
    }

    fn __str__(&self) -> String {
        fr_le(&self.k).iter().map(|x| format!("{x:02x}")).collect()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("Scalar({})", self.__int__(py)?.str()?))
    }
}

/// The 576-byte little-endian serialisation of an Fp12 element (c0.c0.c0 first), the peer's.
fn fp12_le(f: &Fp12) -> Vec<u8> {
    let mut out = Vec::with_capacity(576);
    for c6 in [&f.c0, &f.c1] {
        for c2 in [&c6.c0, &c6.c1, &c6.c2] {
            out.extend_from_slice(&fp_to(&c2.c0, false));
            out.extend_from_slice(&fp_to(&c2.c1, false));
        }
    }
    out
}

fn gt(f: Fp12) -> PyGt {
    PyGt { f }
}

fn pairs_of(g1s: &Bound<'_, PyAny>, g2s: &Bound<'_, PyAny>) -> PyResult<Vec<(G1Affine, G2Affine)>> {
    let a: Vec<PyG1> = g1s.try_iter()?.map(|x| x?.extract::<PyG1>().map_err(PyErr::from)).collect::<PyResult<_>>()?;
    let b: Vec<PyG2> = g2s.try_iter()?.map(|x| x?.extract::<PyG2>().map_err(PyErr::from)).collect::<PyResult<_>>()?;
    if a.len() != b.len() {
        return Err(PyValueError::new_err("g1s and g2s must have the same length"));
    }
    Ok(a.iter().zip(&b).map(|(p, q)| (p.p.to_affine(), q.p.to_affine())).collect())
}

#[pymethods]
impl PyGt {
    /// The Fp12 zero (the peer's `GT.zero()`; not a group element).
    #[staticmethod]
    fn zero() -> Self {
        gt(Fp12::ZERO)
    }

    /// The Fp12 one: the identity of the group.
    #[staticmethod]
    fn one() -> Self {
        gt(Fp12::ONE)
    }

    /// e(g1, g2): the optimal ate pairing with its final exponentiation.
    #[staticmethod]
    fn pairing(py: Python<'_>, g1: PyG1, g2: PyG2) -> Self {
        let (p, q) = (g1.p.to_affine(), g2.p.to_affine());
        gt(*py.detach(|| zkforge_pairing::bls12_381::pairing(&p, &q)).as_fp12())
    }

    /// prod e(g1s[i], g2s[i]) with one final exponentiation (`ValueError` for lists of
    /// different lengths).
    #[staticmethod]
    fn multi_pairing(py: Python<'_>, g1s: &Bound<'_, PyAny>, g2s: &Bound<'_, PyAny>) -> PyResult<Self> {
        let pairs = pairs_of(g1s, g2s)?;
        let f = py.detach(|| {
            let m = zkforge_pairing::bls12_381::multi_miller_loop(&pairs);
            zkforge_pairing::bls12_381::final_exponentiation(&m).map(|g| *g.as_fp12()).unwrap_or(Fp12::ZERO)
        });
        Ok(gt(f))
    }

    /// True when prod e(g1s[i], g2s[i]) is one.
    #[staticmethod]
    fn pairing_check(py: Python<'_>, g1s: &Bound<'_, PyAny>, g2s: &Bound<'_, PyAny>) -> PyResult<bool> {
        let pairs = pairs_of(g1s, g2s)?;
        Ok(py.detach(|| zkforge_pairing::bls12_381::pairing_check(&pairs)))
    }

    fn __add__(&self, o: &Bound<'_, PyGt>) -> Self {
        let o = o.get();
        gt(self.f + o.f)
    }

    fn __sub__(&self, o: &Bound<'_, PyGt>) -> Self {
        let o = o.get();
        gt(self.f - o.f)
    }

    fn __mul__(&self, o: &Bound<'_, PyGt>) -> Self {
        let o = o.get();
        gt(self.f * o.f)
    }

    fn __neg__(&self) -> Self {
        gt(-self.f)
    }

    fn __richcmp__(&self, py: Python<'_>, o: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        eq_result(py, op, o.extract::<PyGt>().ok().map(|o| o.f == self.f))
    }

    fn __hash__(&self) -> isize {
        hash_bytes(&fp12_le(&self.f))
    }

    fn __str__(&self) -> String {
        fp12_le(&self.f).iter().map(|x| format!("{x:02x}")).collect()
    }

    fn __repr__(&self) -> String {
        format!("GT({})", short_hex(&fp12_le(&self.f)))
    }
}

/// _rust_g1_mul_ns(point, scalar, iters) -> float
///
/// Nanoseconds per G1 scalar multiplication measured inside Rust (the same operation as
/// `G1Point * Scalar`, without the Python call): `python -m zkforge.bench` reports the
/// Python-level call against it.
#[pyfunction]
pub fn _rust_g1_mul_ns(py: Python<'_>, point: PyG1, k: PyScalar, iters: u32) -> f64 {
    let iters = iters.max(1);
    py.detach(|| {
        let t = std::time::Instant::now();
        for _ in 0..iters {
            std::hint::black_box(mul_point(std::hint::black_box(&point.p), point.sub, &k.k));
        }
        t.elapsed().as_secs_f64() * 1e9 / f64::from(iters)
    })
}

/// Add the four classes to the native module (re-exported by `zkforge.bls12_381`).
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyG1>()?;
    m.add_class::<PyG2>()?;
    m.add_class::<PyScalar>()?;
    m.add_class::<PyGt>()?;
    m.add_function(wrap_pyfunction!(_rust_g1_mul_ns, m)?)?;
    Ok(())
}

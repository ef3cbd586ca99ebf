//! WGSL generator for prime-field arithmetic in Montgomery form with 13-bit limbs.
//!
//! WGSL has no 64-bit integers and no 32x32->64 multiply, so a field element is N limbs of 13
//! bits, each held in a `u32` (N = 20 for BN254's 254-bit p, 30 for BLS12-381's 381-bit p).
//! A limb product is below 2^26, so 64 of them can be summed in a `u32`: Montgomery
//! multiplication (CIOS, Koc-Acar-Kaliski 1996) then runs with lazy carries, as in the
//! ZPrize 2023 WebGPU MSM entries (Koh and Derei): every column of the CIOS accumulator
//! receives at most 2N limb products plus one carry, and 2N <= 60 keeps it below 2^32
//! (60 (2^13 - 1)^2 + 2^19 < 2^32). Only the final result is carry-normalised and reduced
//! below p by one conditional subtraction. R = 2^(13 N).
//!
//! Everything is emitted fully unrolled with constant indices and the modulus inlined as
//! literals: loops over private arrays with dynamic indices are lowered to scratch memory by
//! Mesa's CPU driver and ran ~100x slower there.
//!
//! Storage form: an element is packed into W 32-bit words (W = 8 or 12, little-endian); the
//! generated `unpack`/`pack` helpers move between that and the 13-bit limbs.

use std::fmt::Write;

/// Bits per limb.
pub const LIMB_BITS: u32 = 13;
const MASK: u32 = (1 << LIMB_BITS) - 1;

/// The parameters a field's WGSL is generated from.
#[derive(Clone, Debug)]
pub struct FieldSpec {
    /// The modulus, little-endian 64-bit limbs.
    pub modulus: Vec<u64>,
    /// 32-bit words of the packed storage form.
    pub words: usize,
    /// R^2 mod p for R = 2^(13 N), little-endian 64-bit limbs (used to enter Montgomery form).
    pub r2: Vec<u64>,
}

impl FieldSpec {
    /// Bits of the modulus.
    pub fn bits(&self) -> u32 {
        let top = self.modulus.iter().rposition(|&l| l != 0).expect("nonzero modulus");
        64 * top as u32 + (64 - self.modulus[top].leading_zeros())
    }

    /// Number of 13-bit limbs: enough for 2p with a spare bit (so values below 2p fit).
    pub fn limbs(&self) -> usize {
        (self.bits() as usize + 1).div_ceil(LIMB_BITS as usize)
    }

    /// -p^-1 mod 2^13.
    pub fn neg_inv(&self) -> u32 {
        let p0 = (self.modulus[0] as u32) & MASK;
        // Newton iteration for p^-1 mod 2^32, then negate.
        let mut inv: u32 = 1;
        for _ in 0..5 {
            inv = inv.wrapping_mul(2u32.wrapping_sub(p0.wrapping_mul(inv)));
        }
        inv.wrapping_neg() & MASK
    }
}

/// Splits a little-endian 64-bit-limb integer into `n` limbs of 13 bits.
pub fn to_limbs13(x: &[u64], n: usize) -> Vec<u32> {
    (0..n)
        .map(|j| {
            let bit = j * LIMB_BITS as usize;
            let (w, s) = (bit / 64, bit % 64);
            let mut v = x.get(w).copied().unwrap_or(0) >> s;
            if s + LIMB_BITS as usize > 64 {
                v |= x.get(w + 1).copied().unwrap_or(0) << (64 - s);
            }
            (v as u32) & MASK
        })
        .collect()
}

/// Emits the field's WGSL: the `Fp` type and `fp_*` functions. Buffer access helpers are
/// emitted separately by [`emit_access`]. `unroll` selects the fully unrolled Montgomery
/// product (N^2 straight-line limb products) or the rolled one (a loop over a's limbs with
/// the inner products unrolled: 1/N of the code, for drivers whose compile time grows with
/// code size, such as lavapipe's LLVM).
pub fn emit_field(spec: &FieldSpec, unroll: bool) -> String {
    let n = spec.limbs();
    let p = to_limbs13(&spec.modulus, n);
    let r2 = to_limbs13(&spec.r2, n);
    let np0 = spec.neg_inv();
    let mut s = String::new();
    let _ = writeln!(s, "// Field: {}-bit modulus, {n} limbs of 13 bits, Montgomery R = 2^{}.", spec.bits(), 13 * n);
    let _ = writeln!(s, "alias Fp = array<u32, {n}>;");

    // Constants as functions (WGSL const arrays indexed dynamically would be slow; these are
    // only ever used whole).
    let list = |v: &[u32]| v.iter().map(|x| format!("{x}u")).collect::<Vec<_>>().join(", ");
    let _ = writeln!(s, "fn fp_zero() -> Fp {{ return Fp(); }}");
    let mut one = vec![0u32; n];
    one[0] = 1;
    let _ = writeln!(s, "fn fp_raw_one() -> Fp {{ return Fp({}); }}", list(&one));
    let _ = writeln!(s, "fn fp_r2() -> Fp {{ return Fp({}); }}", list(&r2));

    // is_zero / eq on normalised elements.
    let _ = writeln!(s, "fn fp_is_zero(a: Fp) -> bool {{");
    let ors: Vec<String> = (0..n).map(|j| format!("a[{j}]")).collect();
    let _ = writeln!(s, "  return ({}) == 0u;", ors.join(" | "));
    let _ = writeln!(s, "}}");
    let _ = writeln!(s, "fn fp_eq(a: Fp, b: Fp) -> bool {{");
    let xs: Vec<String> = (0..n).map(|j| format!("(a[{j}] ^ b[{j}])")).collect();
    let _ = writeln!(s, "  return ({}) == 0u;", xs.join(" | "));
    let _ = writeln!(s, "}}");

    // Conditional subtraction of p from a normalised value below 2p.
    let _ = writeln!(s, "fn fp_reduce_once(a: Fp) -> Fp {{");
    let _ = writeln!(s, "  var d: Fp;\n  var br = 0u;\n  var v = 0u;");
    for j in 0..n {
        let _ = writeln!(s, "  v = a[{j}] + {}u - {}u - br; d[{j}] = v & {MASK}u; br = 1u - (v >> 13u);", 1 << LIMB_BITS, p[j]);
    }
    let _ = writeln!(s, "  if (br == 0u) {{ return d; }}\n  return a;\n}}");

    // a + b mod p.
    let _ = writeln!(s, "fn fp_add(a: Fp, b: Fp) -> Fp {{");
    let _ = writeln!(s, "  var r: Fp;\n  var c = 0u;\n  var v = 0u;");
    for j in 0..n {
        let _ = writeln!(s, "  v = a[{j}] + b[{j}] + c; r[{j}] = v & {MASK}u; c = v >> 13u;");
    }
    let _ = writeln!(s, "  return fp_reduce_once(r);\n}}");

    // a - b mod p.
    let _ = writeln!(s, "fn fp_sub(a: Fp, b: Fp) -> Fp {{");
    let _ = writeln!(s, "  var r: Fp;\n  var br = 0u;\n  var v = 0u;");
    for j in 0..n {
        let _ = writeln!(s, "  v = a[{j}] + {}u - b[{j}] - br; r[{j}] = v & {MASK}u; br = 1u - (v >> 13u);", 1 << LIMB_BITS);
    }
    let _ = writeln!(s, "  if (br == 0u) {{ return r; }}");
    let _ = writeln!(s, "  var c = 0u;");
    for j in 0..n {
        let _ = writeln!(s, "  v = r[{j}] + {}u + c; r[{j}] = v & {MASK}u; c = v >> 13u;", p[j]);
    }
    let _ = writeln!(s, "  return r;\n}}");

    let _ = writeln!(s, "fn fp_neg(a: Fp) -> Fp {{ return fp_sub(fp_zero(), a); }}");
    let _ = writeln!(s, "fn fp_dbl(a: Fp) -> Fp {{ return fp_add(a, a); }}");

    // The inversion's loop always uses the unrolled product (`fp_mul_full`): with the rolled
    // one nested inside it, inside the batch-affine step loop, Mesa 22.3's lavapipe computed
    // wrong values (NVIDIA's driver did not); the field tests cover both forms.
    emit_mul_unrolled(&mut s, n, &p, np0, "fp_mul_full");
    if unroll {
        let _ = writeln!(s, "fn fp_mul(a: Fp, b: Fp) -> Fp {{ return fp_mul_full(a, b); }}");
    } else {
        emit_mul_rolled(&mut s, n, &p, np0);
    }
    let _ = writeln!(s, "fn fp_sqr(a: Fp) -> Fp {{ return fp_mul(a, a); }}");
    let _ = writeln!(s, "fn fp_to_mont(a: Fp) -> Fp {{ return fp_mul(a, fp_r2()); }}");
    let _ = writeln!(s, "fn fp_from_mont(a: Fp) -> Fp {{ return fp_mul(a, fp_raw_one()); }}");

    // Inversion by Fermat, a^(p-2): a square-and-multiply loop over the exponent's bits (two
    // call sites of fp_mul keep the shader small; the exponent words are module constants).
    let mut e = spec.modulus.clone();
    e[0] -= 2; // p is odd and > 2
    let ew: Vec<u32> = e.iter().flat_map(|&l| [l as u32, (l >> 32) as u32]).collect();
    let _ = writeln!(s, "const FP_EXP: array<u32, {}> = array<u32, {}>({});", ew.len(), ew.len(), list(&ew));
    let _ = writeln!(s, "fn fp_inv(a: Fp) -> Fp {{");
    let _ = writeln!(s, "  var r = fp_to_mont(fp_raw_one());");
    let _ = writeln!(s, "  for (var i = {}i; i >= 0i; i--) {{", spec.bits() - 1);
    let _ = writeln!(s, "    r = fp_mul_full(r, r);");
    let _ = writeln!(s, "    let w = FP_EXP[u32(i) >> 5u];");
    let _ = writeln!(s, "    if (((w >> (u32(i) & 31u)) & 1u) == 1u) {{ r = fp_mul_full(r, a); }}");
    let _ = writeln!(s, "  }}\n  return r;\n}}");
    s
}

/// Emits `ld_<buf>(o) -> Fp` and, when `writable`, `st_<buf>(o, a)`, moving an element between
/// its packed form at word offset `o` of the storage buffer `buf` and 13-bit limbs.
pub fn emit_access(spec: &FieldSpec, buf: &str, writable: bool) -> String {
    let n = spec.limbs();
    let w = spec.words;
    let mut s = String::new();
    let _ = writeln!(s, "fn ld_{buf}(o: u32) -> Fp {{");
    for k in 0..w {
        let _ = writeln!(s, "  let w{k} = {buf}[o + {k}u];");
    }
    let _ = writeln!(s, "  var r: Fp;");
    for j in 0..n {
        let bit = j * LIMB_BITS as usize;
        let (k, sh) = (bit / 32, bit % 32);
        if k >= w {
            continue;
        }
        let lo = if sh == 0 { format!("w{k}") } else { format!("(w{k} >> {sh}u)") };
        let expr = if sh + LIMB_BITS as usize > 32 && k + 1 < w { format!("({lo} | (w{} << {}u))", k + 1, 32 - sh) } else { lo };
        let _ = writeln!(s, "  r[{j}] = {expr} & {MASK}u;");
    }
    let _ = writeln!(s, "  return r;\n}}");
    if writable {
        let _ = writeln!(s, "fn st_{buf}(o: u32, a: Fp) {{");
        for k in 0..w {
            let mut parts = Vec::new();
            for j in 0..n {
                let bit = j * LIMB_BITS as usize;
                let (lk, sh) = (bit / 32, bit % 32);
                if lk == k {
                    parts.push(if sh == 0 { format!("a[{j}]") } else { format!("(a[{j}] << {sh}u)") });
                } else if lk + 1 == k && sh + LIMB_BITS as usize > 32 {
                    parts.push(format!("(a[{j}] >> {}u)", 32 - sh));
                }
            }
            let expr = if parts.is_empty() { "0u".to_string() } else { parts.join(" | ") };
            let _ = writeln!(s, "  {buf}[o + {k}u] = {expr};");
        }
        let _ = writeln!(s, "}}");
    }
    s
}

/// One CIOS iteration's two rows of limb products, a_i b and m p, into the columns t_(off+j)
/// (`ai` and the current low column are named by the caller), with m from the low column.
fn emit_cios_rows(s: &mut String, n: usize, p: &[u32], np0: u32, off: usize, indent: &str) {
    let mut line = String::new();
    for j in 0..n {
        let _ = write!(line, " t{} += ai * b[{j}];", off + j);
    }
    let _ = writeln!(s, "{indent}{line}");
    let _ = writeln!(s, "{indent} m = ((t{off} & {MASK}u) * {np0}u) & {MASK}u;");
    let mut line = String::new();
    for (j, &pj) in p.iter().enumerate() {
        if pj != 0 {
            let _ = write!(line, " t{} += m * {pj}u;", off + j);
        }
    }
    let _ = writeln!(s, "{indent}{line}");
}

/// Carry-normalises the result columns t_first .. t_(first+N-1) into 13-bit limbs and
/// subtracts p once if needed; closes the function.
fn emit_normalise(s: &mut String, n: usize, first: usize) {
    let _ = writeln!(s, "  var r: Fp;\n  var c = 0u;\n  var v = 0u;");
    for j in 0..n {
        let _ = writeln!(s, "  v = t{} + c; r[{j}] = v & {MASK}u; c = v >> 13u;", first + j);
    }
    let _ = writeln!(s, "  return fp_reduce_once(r);\n}}");
}

/// Montgomery product, CIOS with lazy carries, fully unrolled; t_k are the accumulator columns
/// (iteration i works on t_i .. t_(i+N-1), so no column is ever moved).
fn emit_mul_unrolled(s: &mut String, n: usize, p: &[u32], np0: u32, name: &str) {
    let _ = writeln!(s, "fn {name}(a: Fp, b: Fp) -> Fp {{");
    for k in 0..2 * n {
        let _ = writeln!(s, "  var t{k} = 0u;");
    }
    let _ = writeln!(s, "  var m = 0u;\n  var ai = 0u;");
    for i in 0..n {
        let _ = writeln!(s, "  ai = a[{i}];");
        emit_cios_rows(s, n, p, np0, i, " ");
        let _ = writeln!(s, "  t{} += t{i} >> 13u;", i + 1);
    }
    emit_normalise(s, n, n);
}

/// Montgomery product, CIOS with lazy carries, rolled over a's limbs: the N columns shift
/// down one place per iteration (t_0 drops out after passing its carry on).
fn emit_mul_rolled(s: &mut String, n: usize, p: &[u32], np0: u32) {
    let _ = writeln!(s, "fn fp_mul(a: Fp, b: Fp) -> Fp {{");
    for k in 0..n {
        let _ = writeln!(s, "  var t{k} = 0u;");
    }
    let _ = writeln!(s, "  var m = 0u;\n  var ai = 0u;\n  var aa = a;");
    let _ = writeln!(s, "  for (var i = 0u; i < {n}u; i++) {{");
    let _ = writeln!(s, "    ai = aa[i];");
    emit_cios_rows(s, n, p, np0, 0, "   ");
    let mut line = " t0 = t1 + (t0 >> 13u);".to_string();
    for j in 1..n - 1 {
        let _ = write!(line, " t{j} = t{};", j + 1);
    }
    let _ = write!(line, " t{} = 0u;", n - 1);
    let _ = writeln!(s, "   {line}");
    let _ = writeln!(s, "  }}");
    emit_normalise(s, n, 0);
}

//! CUDA C generator for the CUDA backend ([`crate::cuda`], cargo feature `cuda`): prime-field
//! arithmetic in Montgomery form with 32-bit limbs, XYZZ point formulas and the kernels of the
//! bucket method, as one source that NVRTC compiles at run time.
//!
//! CUDA has 32x32->64 multiplications, so a field element is W = 8 (BN254) or 12 (BLS12-381)
//! 32-bit limbs and R = 2^(32 W): the same R as zkforge-field's 64-bit Montgomery form
//! (2^256, 2^384), so bases go up and bucket sums come down as zkforge's own Montgomery limbs,
//! with no conversion kernel. Montgomery multiplication is CIOS (Koc-Acar-Kaliski 1996), fully
//! unrolled with the modulus inlined, in one of three forms ([`CudaMul`]):
//! - `Portable`: 64-bit accumulations in plain C (also compiles as host C++, where the tests
//!   run it against zkforge-field);
//! - `Ptx`: the carry chains in PTX (`mad.lo.cc` / `madc.hi.cc`), two chains per row (low and
//!   high halves of the products), as in sppark and the ZPrize GPU MSM entries;
//! - `Wide` (default): each row's products as 64-bit `mul.wide` values, even and odd limbs in
//!   two non-overlapping sets, each added with one carry chain (one IMAD.WIDE a limb product
//!   on sm_90, and a fifth fewer instructions than the others).
//!
//! Both moduli are below R/4, so CIOS leaves its result below 2p and one conditional
//! subtraction reduces it.
//!
//! The kernels are the CUDA forms of the WGSL ones ([`crate::kernels`], [`crate::sort_kernels`]):
//! the same signed-digit counting sort, run layout, XYZZ accumulation (madd-2008-s), merge,
//! segmented reduction. Every kernel takes a 1-D grid; thread counts come as arguments.

use crate::field_gen::FieldSpec;
use std::fmt::Write;

/// The form of the generated Montgomery multiplication (every form is tested; `ALL` lists them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CudaMul {
    /// 64-bit accumulations in C: the compiler builds the carries.
    Portable,
    /// Carry chains written in PTX (add-with-carry multiply-adds).
    Ptx,
    /// Each row's products as 64-bit `mul.wide` results laid side by side (even limbs at even
    /// words, odd limbs at odd words, so neither set overlaps itself), then added into the
    /// accumulator by two PTX add-with-carry chains: W wide products and 2W + 3 additions a row.
    Wide,
}

impl CudaMul {
    /// Every form.
    pub const ALL: [CudaMul; 3] = [CudaMul::Portable, CudaMul::Ptx, CudaMul::Wide];
}

/// The modulus as 32-bit words, little-endian.
pub(crate) fn words32(spec: &FieldSpec) -> Vec<u32> {
    (0..spec.words).map(|i| (spec.modulus.get(i / 2).copied().unwrap_or(0) >> (32 * (i % 2))) as u32).collect()
}

/// -p^-1 mod 2^32.
fn neg_inv32(p0: u32) -> u32 {
    let mut inv: u32 = 1;
    for _ in 0..5 {
        inv = inv.wrapping_mul(2u32.wrapping_sub(p0.wrapping_mul(inv)));
    }
    inv.wrapping_neg()
}

/// 2^k mod p as `words` 32-bit words, by doubling (p odd, p < 2^(32 words - 1)).
pub fn pow2_mod(p: &[u32], k: usize) -> Vec<u32> {
    let n = p.len();
    let mut x = vec![0u32; n];
    x[0] = 1;
    for _ in 0..k {
        // x = 2x (fits: x < p < 2^(32n - 1)), then x -= p if x >= p.
        let mut carry = 0u32;
        for w in x.iter_mut() {
            let v = (*w as u64) << 1 | carry as u64;
            *w = v as u32;
            carry = (v >> 32) as u32;
        }
        let ge = x.iter().rev().zip(p.iter().rev()).find(|(a, b)| a != b).is_none_or(|(a, b)| a > b);
        if ge {
            let mut br = 0i64;
            for (w, &pj) in x.iter_mut().zip(p) {
                let v = *w as i64 - pj as i64 - br;
                *w = v as u32;
                br = (v < 0) as i64;
            }
        }
    }
    x
}

/// Definitions that let the generated source compile as host C++ too (`cuda_host_prelude`):
/// the CUDA keywords vanish, thread indices are globals the host harness sets, atomics are
/// plain read-modify-writes (the harness runs one thread at a time).
pub const HOST_PRELUDE: &str = r#"
#include <stdint.h>
#define __global__
#define __device__
#define __forceinline__ inline
#define __noinline__
struct uint4 { unsigned x, y, z, w; };
static inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
#define __restrict__
#define __shared__ static
struct Dim3 { unsigned x, y, z; };
static Dim3 blockIdx, threadIdx, blockDim, gridDim;
static inline void __syncthreads() {}
static inline unsigned atomicAdd(unsigned* p, unsigned v) { unsigned o = *p; *p = o + v; return o; }
static inline unsigned atomicMax(unsigned* p, unsigned v) { unsigned o = *p; if (v > o) *p = v; return o; }
"#;

/// The complete CUDA source for a base field `spec`, the scalar field `scalar` and a
/// multiplication form: field and curve code, and the kernels `field_ops`, `fold_shift`, `scalar_prep`,
/// `sort_count`, `scan_partial`, `scan_top`, `scan_final`, `sort_runs`, `sort_scatter`,
/// `acc_xyzz`, `acc_xyzz_prefetch`, `fold_runs`, `merge_runs`, `reduce_segments`,
/// `tree_segments`.
pub fn cuda_source(spec: &FieldSpec, scalar: &FieldSpec, mul: CudaMul) -> String {
    cuda_source_with(spec, scalar, mul, 0)
}

/// [`cuda_source`] with the accumulation kernel's registers capped at `acc_regs` a thread
/// (`__maxnreg__`, CUDA 12.4+; 0: the compiler's choice): fewer registers, more resident
/// warps to hide the multiplications' latency, at the risk of spills.
pub fn cuda_source_with(spec: &FieldSpec, scalar: &FieldSpec, mul: CudaMul, acc_regs: u32) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "// Generated by zkforge-gpu (cuda_gen.rs); do not edit.");
    let _ = writeln!(s, "typedef unsigned int u32;\ntypedef unsigned long long u64;");
    if acc_regs == 0 {
        let _ = writeln!(s, "#define ACC_REGS");
    } else {
        let _ = writeln!(s, "#define ACC_REGS __maxnreg__({acc_regs})");
    }
    s.push_str(&emit_field(spec, mul));
    s.push_str(CURVE);
    s.push_str(KERNELS);
    s.push_str(&emit_scalar_prep(scalar));
    s
}

/// The kernel `scalar_prep(sc, np, montgomery)`: each of np scalars (8 words) in place to its
/// residue mod r, below r, by one Montgomery product with R = 2^256 (portable CIOS, the rows of
/// `emit_mul_portable` as loops: it runs once a scalar, so its speed is the memory's) by
/// K = 1 when `montgomery` (zkforge `Fr` limbs, k 2^256 mod r) and K = 2^256 mod r otherwise
/// (any 256-bit integer); [`crate::kernels::scalar_k`] explains the two constants.
pub fn emit_scalar_prep(scalar: &FieldSpec) -> String {
    use crate::kernels::scalar_k;
    use zkforge_msm::ScalarForm;
    let r = words32(scalar);
    let list = |v: &[u32]| v.iter().map(|x| format!("{x}u")).collect::<Vec<_>>().join(", ");
    let mut s = String::new();
    let _ = writeln!(s, "// Scalar field: {}-bit r, 8 limbs of 32 bits.", scalar.bits());
    let _ = writeln!(
        s,
        "extern \"C\" __global__ void scalar_prep(u32* __restrict__ sc, u32 np, u32 montgomery) {{
  u32 i = gid();
  if (i >= np) return;
  const u32 r[8] = {{{}}};
  const u32 km[8] = {{{}}};
  const u32 ki[8] = {{{}}};
  u32 k[8], a[8], t[10];
  for (int j = 0; j < 8; j++) {{ k[j] = montgomery ? km[j] : ki[j]; a[j] = sc[8u * i + j]; t[j] = 0u; }}
  t[8] = 0u; t[9] = 0u;
  for (int row = 0; row < 8; row++) {{
    u64 c = 0;
    for (int j = 0; j < 8; j++) {{ c = (u64)a[j] * k[row] + t[j] + (c >> 32); t[j] = (u32)c; }}
    c = (u64)t[8] + (c >> 32); t[8] = (u32)c; t[9] = (u32)(c >> 32);
    u32 m = t[0] * {}u;
    c = (u64)m * r[0] + t[0];
    for (int j = 1; j < 8; j++) {{ c = (u64)m * r[j] + t[j] + (c >> 32); t[j - 1] = (u32)c; }}
    c = (u64)t[8] + (c >> 32); t[7] = (u32)c; t[8] = t[9] + (u32)(c >> 32);
  }}
  // t < 2r < 2^256 (a < 2^256 = R, K < r): subtract r once if t >= r.
  u32 d[8];
  u64 b = 0;
  for (int j = 0; j < 8; j++) {{ b = (u64)t[j] - r[j] - (b >> 63); d[j] = (u32)b; }}
  bool below = (b >> 63) != 0;
  for (int j = 0; j < 8; j++) sc[8u * i + j] = below ? t[j] : d[j];
}}",
        list(&r),
        list(&scalar_k(scalar, ScalarForm::Montgomery, 256)),
        list(&scalar_k(scalar, ScalarForm::Integer, 256)),
        neg_inv32(r[0])
    );
    s
}

/// The field code: `Fp`, `fp_*`.
pub fn emit_field(spec: &FieldSpec, mul: CudaMul) -> String {
    let w = spec.words;
    let p = words32(spec);
    let np0 = neg_inv32(p[0]);
    let one = pow2_mod(&p, 32 * w);
    let mut s = String::new();
    let _ = writeln!(s, "// Field: {}-bit modulus, {w} limbs of 32 bits, Montgomery R = 2^{}.", spec.bits(), 32 * w);
    let _ = writeln!(s, "#define W {w}");
    let _ = writeln!(s, "struct Fp {{ u32 v[W]; }};");
    let _ = writeln!(s, "__device__ __forceinline__ Fp fp_zero() {{ Fp r; {} return r; }}", (0..w).map(|j| format!("r.v[{j}] = 0u;")).collect::<String>());
    let _ = writeln!(s, "__device__ __forceinline__ Fp fp_one() {{ Fp r; {} return r; }}", (0..w).map(|j| format!("r.v[{j}] = {}u;", one[j])).collect::<String>());
    let ors: Vec<String> = (0..w).map(|j| format!("a.v[{j}]")).collect();
    let _ = writeln!(s, "__device__ __forceinline__ bool fp_is_zero(const Fp& a) {{ return ({}) == 0u; }}", ors.join(" | "));
    let xs: Vec<String> = (0..w).map(|j| format!("(a.v[{j}] ^ b.v[{j}])")).collect();
    let _ = writeln!(s, "__device__ __forceinline__ bool fp_eq(const Fp& a, const Fp& b) {{ return ({}) == 0u; }}", xs.join(" | "));

    // r - p if r >= p (r < 2p < 2^(32 W)).
    let _ = writeln!(s, "__device__ __forceinline__ Fp fp_reduce_once(const Fp& r) {{");
    let _ = writeln!(s, "  Fp d; u64 t = 0;");
    for (j, pj) in p.iter().enumerate() {
        let _ = writeln!(s, "  t = (u64)r.v[{j}] - {pj}u - (t >> 63); d.v[{j}] = (u32)t;");
    }
    let _ = writeln!(s, "  return (t >> 63) ? r : d;\n}}");

    let _ = writeln!(s, "__device__ __forceinline__ Fp fp_add(const Fp& a, const Fp& b) {{");
    let _ = writeln!(s, "  Fp r; u64 t = 0;");
    for j in 0..w {
        let _ = writeln!(s, "  t = (u64)a.v[{j}] + b.v[{j}] + (t >> 32); r.v[{j}] = (u32)t;");
    }
    let _ = writeln!(s, "  return fp_reduce_once(r);\n}}");

    let _ = writeln!(s, "__device__ __forceinline__ Fp fp_sub(const Fp& a, const Fp& b) {{");
    let _ = writeln!(s, "  Fp r; u64 t = 0;");
    for j in 0..w {
        let _ = writeln!(s, "  t = (u64)a.v[{j}] - b.v[{j}] - (t >> 63); r.v[{j}] = (u32)t;");
    }
    let _ = writeln!(s, "  if ((t >> 63) == 0) return r;\n  t = 0;");
    for (j, pj) in p.iter().enumerate() {
        let _ = writeln!(s, "  t = (u64)r.v[{j}] + {pj}u + (t >> 32); r.v[{j}] = (u32)t;");
    }
    let _ = writeln!(s, "  return r;\n}}");
    let _ = writeln!(s, "__device__ __forceinline__ Fp fp_neg(const Fp& a) {{ return fp_sub(fp_zero(), a); }}");
    let _ = writeln!(s, "__device__ __forceinline__ Fp fp_dbl(const Fp& a) {{ return fp_add(a, a); }}");

    match mul {
        CudaMul::Portable => emit_mul_portable(&mut s, &p, np0),
        CudaMul::Ptx => emit_mul_ptx(&mut s, &p, np0),
        CudaMul::Wide => emit_mul_wide(&mut s, &p, np0),
    }
    let _ = writeln!(s, "__device__ __forceinline__ Fp fp_sqr(const Fp& a) {{ return fp_mul(a, a); }}");

    // Inversion by Fermat, a^(p-2), over the exponent's bits (the test kernel and fold_shift,
    // once a point: off the MSM's path).
    let mut e = p.clone();
    e[0] -= 2; // p is odd and > 2
    let list: Vec<String> = e.iter().map(|x| format!("{x}u")).collect();
    let _ = writeln!(s, "__device__ __noinline__ Fp fp_inv(const Fp& a) {{");
    let _ = writeln!(s, "  const u32 e[W] = {{{}}};", list.join(", "));
    let _ = writeln!(s, "  Fp r = fp_one();");
    let _ = writeln!(s, "  for (int i = {}; i >= 0; i--) {{", spec.bits() - 1);
    let _ = writeln!(s, "    r = fp_mul(r, r);\n    if ((e[i >> 5] >> (i & 31)) & 1u) r = fp_mul(r, a);\n  }}\n  return r;\n}}");
    s
}

/// CIOS with 64-bit accumulations: row i adds a b_i into t_0 .. t_(W+1), then m p with
/// m = t_0 (-p^-1) mod 2^32, shifting the columns down one word.
fn emit_mul_portable(s: &mut String, p: &[u32], np0: u32) {
    let w = p.len();
    let _ = writeln!(s, "__device__ __forceinline__ Fp fp_mul(const Fp& a, const Fp& b) {{");
    let _ = writeln!(s, "  u32 {};", (0..w + 2).map(|k| format!("t{k} = 0u")).collect::<Vec<_>>().join(", "));
    let _ = writeln!(s, "  u64 c; u32 m;");
    for i in 0..w {
        let _ = writeln!(s, "  c = (u64)a.v[0] * b.v[{i}] + t0; t0 = (u32)c;");
        for j in 1..w {
            let _ = writeln!(s, "  c = (u64)a.v[{j}] * b.v[{i}] + t{j} + (c >> 32); t{j} = (u32)c;");
        }
        let _ = writeln!(s, "  c = (u64)t{w} + (c >> 32); t{w} = (u32)c; t{} = (u32)(c >> 32);", w + 1);
        let _ = writeln!(s, "  m = t0 * {np0}u;");
        let _ = writeln!(s, "  c = (u64)m * {}u + t0;", p[0]);
        for (j, pj) in p.iter().enumerate().skip(1) {
            let _ = writeln!(s, "  c = (u64)m * {pj}u + t{j} + (c >> 32); t{} = (u32)c;", j - 1);
        }
        let _ = writeln!(s, "  c = (u64)t{w} + (c >> 32); t{} = (u32)c; t{w} = t{} + (u32)(c >> 32);", w - 1, w + 1);
    }
    let _ = writeln!(s, "  Fp r; {}", (0..w).map(|j| format!("r.v[{j}] = t{j};")).collect::<String>());
    let _ = writeln!(s, "  return fp_reduce_once(r);\n}}");
}

/// A PTX form's row emitter: given the operand text of x_j, the row's PTX.
type RowAsm<'a> = dyn Fn(&dyn Fn(usize) -> String) -> String + 'a;

/// The frame both PTX forms share: CIOS over the W rows, each row i emitting `t += a b_i` and
/// then `t += m p` (m = t_0 (-p^-1) mod 2^32) as one asm statement each, then shifting the
/// columns down a word. `row(x, y)` returns a row's PTX: operands %0 .. %(W+1) are t_0 ..
/// t_(W+1), %(W+2) is y, and x_j is `x(j)` (a register operand or an immediate).
fn emit_mul_asm(s: &mut String, p: &[u32], np0: u32, row: &RowAsm) {
    let w = p.len();
    let _ = writeln!(s, "__device__ __forceinline__ Fp fp_mul(const Fp& a, const Fp& b) {{");
    let _ = writeln!(s, "  u32 {};", (0..w + 2).map(|k| format!("t{k} = 0u")).collect::<Vec<_>>().join(", "));
    let _ = writeln!(s, "  u32 m, bi;");
    let outs: Vec<String> = (0..w + 2).map(|k| format!("\"+r\"(t{k})")).collect();
    let outs = outs.join(", ");
    let a_ins: String = (0..w).map(|j| format!(", \"r\"(a.v[{j}])")).collect();
    for i in 0..w {
        let _ = writeln!(s, "  bi = b.v[{i}];");
        let _ = writeln!(s, "  asm(\"{}\" : {outs} : \"r\"(bi){a_ins});", row(&|j| format!("%{}", w + 3 + j)));
        let _ = writeln!(s, "  m = t0 * {np0}u;");
        let _ = writeln!(s, "  asm(\"{}\" : {outs} : \"r\"(m));", row(&|j| format!("{}", p[j])));
        // Shift down: t0 is now 0 mod 2^32.
        let shift: String = (0..w + 1).map(|k| format!("t{k} = t{}; ", k + 1)).collect();
        let _ = writeln!(s, "  {shift}t{} = 0u;", w + 1);
    }
    let _ = writeln!(s, "  Fp r; {}", (0..w).map(|j| format!("r.v[{j}] = t{j};")).collect::<String>());
    let _ = writeln!(s, "  return fp_reduce_once(r);\n}}");
}

/// CIOS with PTX carry chains. Row t += x y as two chains (low halves into t_0 .. t_(W-1) with
/// the carry into t_W, t_(W+1); high halves into t_1 .. t_W with the carry into t_(W+1)).
/// Between rows t < 2p < 2^(32 W), so t_W and t_(W+1) hold at most a few bits and never
/// overflow.
fn emit_mul_ptx(s: &mut String, p: &[u32], np0: u32) {
    let w = p.len();
    emit_mul_asm(s, p, np0, &|x| {
        let mut asm = String::new();
        for j in 0..w {
            let op = if j == 0 { "mad.lo.cc.u32" } else { "madc.lo.cc.u32" };
            let _ = write!(asm, "{op} %{j}, %{}, {}, %{j}; ", w + 2, x(j));
        }
        let _ = write!(asm, "addc.cc.u32 %{w}, %{w}, 0; addc.u32 %{}, %{}, 0; ", w + 1, w + 1);
        for j in 0..w {
            let op = if j == 0 { "mad.hi.cc.u32" } else { "madc.hi.cc.u32" };
            let _ = write!(asm, "{op} %{}, %{}, {}, %{}; ", j + 1, w + 2, x(j), j + 1);
        }
        let _ = write!(asm, "addc.u32 %{}, %{}, 0;", w + 1, w + 1);
        asm
    });
}

/// CIOS with wide products: row t += x y (x = a or p, y = b_i or m) forms the W products
/// x_j y as 64-bit values with `mul.wide.u32`, the even ones at words j, j + 1 and the odd ones
/// likewise (each set fills its words without overlap), and adds the even set into t_0 .. t_W
/// and the odd set into t_1 .. t_(W+1) with two add-with-carry chains.
fn emit_mul_wide(s: &mut String, p: &[u32], np0: u32) {
    let w = p.len();
    emit_mul_asm(s, p, np0, &|x| {
        let mut asm = String::from("{ .reg .u64 %%q<2>; .reg .u32 %%e<2>, %%f<2>; ");
        // Even products into t_0 .. t_(W-1), carry into t_W, t_(W+1).
        for j in (0..w).step_by(2) {
            let _ = write!(asm, "mul.wide.u32 %%q0, %{}, {}; mov.b64 {{%%e0, %%e1}}, %%q0; ", w + 2, x(j));
            let op = if j == 0 { "add.cc.u32" } else { "addc.cc.u32" };
            let _ = write!(asm, "{op} %{j}, %{j}, %%e0; addc.cc.u32 %{}, %{}, %%e1; ", j + 1, j + 1);
        }
        let _ = write!(asm, "addc.cc.u32 %{w}, %{w}, 0; addc.u32 %{}, %{}, 0; ", w + 1, w + 1);
        // Odd products into t_1 .. t_W, carry into t_(W+1).
        for j in (1..w).step_by(2) {
            let _ = write!(asm, "mul.wide.u32 %%q1, %{}, {}; mov.b64 {{%%f0, %%f1}}, %%q1; ", w + 2, x(j));
            let op = if j == 1 { "add.cc.u32" } else { "addc.cc.u32" };
            let _ = write!(asm, "{op} %{j}, %{j}, %%f0; addc.cc.u32 %{}, %{}, %%f1; ", j + 1, j + 1);
        }
        let _ = write!(asm, "addc.u32 %{}, %{}, 0; }}", w + 1, w + 1);
        asm
    });
}

const CURVE: &str = r#"
// XYZZ points (x, y, zz, zzz); identity: zz = 0. Formulas: EFD g1p/shortw/xyzz, a = 0.
struct Xyzz { Fp x, y, zz, zzz; };
__device__ __forceinline__ Xyzz xyzz_zero() { Xyzz r; r.x = fp_zero(); r.y = fp_zero(); r.zz = fp_zero(); r.zzz = fp_zero(); return r; }
__device__ __forceinline__ bool xyzz_is_zero(const Xyzz& p) { return fp_is_zero(p.zz); }

// Rare or off-the-hot-path formulas are not inlined (`__noinline__`): with every product
// inlined everywhere the BLS12-381 module was 3.5-5.8 MB of PTX and took NVRTC 9-40 s.
// mdbl-2008-s: 2 (x, y).
__device__ __noinline__ Xyzz xyzz_dbl_affine(const Fp& x, const Fp& y) {
  Fp u = fp_dbl(y), v = fp_sqr(u), w = fp_mul(u, v), s = fp_mul(x, v), xx = fp_sqr(x);
  Fp m = fp_add(fp_dbl(xx), xx);
  Xyzz r;
  r.x = fp_sub(fp_sub(fp_sqr(m), s), s);
  r.y = fp_sub(fp_mul(m, fp_sub(s, r.x)), fp_mul(w, y));
  r.zz = v; r.zzz = w;
  return r;
}

// dbl-2008-s: 2P.
__device__ __noinline__ Xyzz xyzz_dbl(const Xyzz& p) {
  if (xyzz_is_zero(p)) return p;
  Fp u = fp_dbl(p.y), v = fp_sqr(u), w = fp_mul(u, v), s = fp_mul(p.x, v), xx = fp_sqr(p.x);
  Fp m = fp_add(fp_dbl(xx), xx);
  Xyzz r;
  r.x = fp_sub(fp_sub(fp_sqr(m), s), s);
  r.y = fp_sub(fp_mul(m, fp_sub(s, r.x)), fp_mul(w, p.y));
  r.zz = fp_mul(v, p.zz); r.zzz = fp_mul(w, p.zzz);
  return r;
}

// madd-2008-s: P + (x2, y2), every case (P = 0, P = Q, P = -Q).
__device__ __forceinline__ Xyzz xyzz_add_affine(const Xyzz& p, const Fp& x2, const Fp& y2) {
  if (xyzz_is_zero(p)) { Xyzz r; r.x = x2; r.y = y2; r.zz = fp_one(); r.zzz = fp_one(); return r; }
  Fp u2 = fp_mul(x2, p.zz), s2 = fp_mul(y2, p.zzz);
  Fp pp_ = fp_sub(u2, p.x), rr = fp_sub(s2, p.y);
  if (fp_is_zero(pp_)) {
    if (fp_is_zero(rr)) return xyzz_dbl_affine(x2, y2);
    return xyzz_zero();
  }
  Fp pp = fp_sqr(pp_), ppp = fp_mul(pp_, pp), q = fp_mul(p.x, pp);
  Xyzz r;
  r.x = fp_sub(fp_sub(fp_sub(fp_sqr(rr), ppp), q), q);
  r.y = fp_sub(fp_mul(rr, fp_sub(q, r.x)), fp_mul(p.y, ppp));
  r.zz = fp_mul(p.zz, pp); r.zzz = fp_mul(p.zzz, ppp);
  return r;
}

// add-2008-s: P + Q, every case.
__device__ __noinline__ Xyzz xyzz_add(const Xyzz& p, const Xyzz& q) {
  if (xyzz_is_zero(p)) return q;
  if (xyzz_is_zero(q)) return p;
  Fp u1 = fp_mul(p.x, q.zz), u2 = fp_mul(q.x, p.zz), s1 = fp_mul(p.y, q.zzz), s2 = fp_mul(q.y, p.zzz);
  Fp pp_ = fp_sub(u2, u1), rr = fp_sub(s2, s1);
  if (fp_is_zero(pp_)) {
    if (fp_is_zero(rr)) return xyzz_dbl(p);
    return xyzz_zero();
  }
  Fp pp = fp_sqr(pp_), ppp = fp_mul(pp_, pp), qq = fp_mul(u1, pp);
  Xyzz r;
  r.x = fp_sub(fp_sub(fp_sub(fp_sqr(rr), ppp), qq), qq);
  r.y = fp_sub(fp_mul(rr, fp_sub(qq, r.x)), fp_mul(s1, ppp));
  r.zz = fp_mul(fp_mul(p.zz, q.zz), pp); r.zzz = fp_mul(fp_mul(p.zzz, q.zzz), ppp);
  return r;
}

// Element access: W words at word offset o (W is a multiple of 4 and every offset is a
// multiple of W, so the 16-byte loads are aligned).
__device__ __forceinline__ Fp ld_fp(const u32* __restrict__ src) {
  Fp r;
#pragma unroll
  for (int k = 0; k < W / 4; k++) {
    uint4 q = *(const uint4*)(src + 4 * k);
    r.v[4 * k] = q.x; r.v[4 * k + 1] = q.y; r.v[4 * k + 2] = q.z; r.v[4 * k + 3] = q.w;
  }
  return r;
}
__device__ __forceinline__ void st_fp(u32* __restrict__ dst, const Fp& a) {
#pragma unroll
  for (int k = 0; k < W / 4; k++) {
    uint4 q; q.x = a.v[4 * k]; q.y = a.v[4 * k + 1]; q.z = a.v[4 * k + 2]; q.w = a.v[4 * k + 3];
    *(uint4*)(dst + 4 * k) = q;
  }
}
__device__ __forceinline__ Xyzz ld_xyzz(const u32* __restrict__ src) {
  Xyzz r; r.x = ld_fp(src); r.y = ld_fp(src + W); r.zz = ld_fp(src + 2 * W); r.zzz = ld_fp(src + 3 * W); return r;
}
__device__ __forceinline__ void st_xyzz(u32* __restrict__ dst, const Xyzz& p) {
  st_fp(dst, p.x); st_fp(dst + W, p.y); st_fp(dst + 2 * W, p.zz); st_fp(dst + 3 * W, p.zzz);
}
__device__ __forceinline__ u32 gid() { return blockIdx.x * blockDim.x + threadIdx.x; }
"#;

const KERNELS: &str = r#"
// ---- test kernel: a b, a + b, a - b, a^-1 (0 for 0), -a, x <- x^2 + b 1000 times from a.
extern "C" __global__ void field_ops(const u32* __restrict__ src, u32* __restrict__ dst, u32 n) {
  u32 i = gid();
  if (i >= n) return;
  Fp a = ld_fp(src + 2 * i * W), b = ld_fp(src + (2 * i + 1) * W);
  u32* o = dst + 6 * i * W;
  Fp x = a;
  for (int k = 0; k < 1000; k++) x = fp_add(fp_sqr(x), b);
  st_fp(o, fp_mul(a, b));
  st_fp(o + W, fp_add(a, b));
  st_fp(o + 2 * W, fp_sub(a, b));
  st_fp(o + 3 * W, fp_inv(a));
  st_fp(o + 4 * W, fp_neg(a));
  st_fp(o + 5 * W, x);
}

// ---- window-folded bases (plan::Fold): copy `dst` = 2^bits copy `src` (point indices of the
// copies' first points), bits = c sets, for the n points of a copy. XYZZ doublings (dbl-2008-s),
// then one Fermat inversion a point back to affine: x = X (ZZ / ZZZ)^2, y = Y / ZZZ (ZZ^3 =
// ZZZ^2 for any XYZZ point). The identity (0, 0) stays; so does a point doubled into it.
extern "C" __global__ void fold_shift(u32* __restrict__ pts, u32 n, u32 src, u32 dst, u32 bits) {
  u32 i = gid();
  if (i >= n) return;
  const u32* s = pts + (u64)(src + i) * 2 * W;
  u32* d = pts + (u64)(dst + i) * 2 * W;
  Fp x = ld_fp(s), y = ld_fp(s + W);
  if (fp_is_zero(x) && fp_is_zero(y)) { st_fp(d, x); st_fp(d + W, y); return; }
  Xyzz p; p.x = x; p.y = y; p.zz = fp_one(); p.zzz = fp_one();
  for (u32 k = 0; k < bits; k++) p = xyzz_dbl(p);
  if (xyzz_is_zero(p)) { st_fp(d, fp_zero()); st_fp(d + W, fp_zero()); return; }
  Fp iz = fp_inv(p.zzz);
  Fp t = fp_mul(p.zz, iz);
  st_fp(d, fp_mul(p.x, fp_sqr(t)));
  st_fp(d + W, fp_mul(p.y, iz));
}

// ---- bucket sort (sort_kernels.rs has the method) ----
#define SCAN_CHUNK 32u
__device__ __forceinline__ u32 runs_of(u32 k, u32 max_run) { return k / max_run + (k % max_run != 0u ? 1u : 0u); }
// Bits start .. start + c of scalar i (8 little-endian words), zero above 256.
__device__ __forceinline__ u32 sbits(const u32* __restrict__ sc, u32 i, u32 start, u32 c) {
  if (start >= 256u) return 0u;
  u32 wi = start >> 5, off = start & 31u;
  u32 v = sc[i * 8u + wi] >> off;
  if (off + c > 32u && wi + 1u < 8u) v |= sc[i * 8u + wi + 1u] << (32u - off);
  return v & ((1u << c) - 1u);
}

// Window w's digits go to bucket set w % sets, read from base copy w / sets (folded bases,
// copy k holding 2^(c sets k) P; sets = nw is the plain method: set w, copy 0).
extern "C" __global__ void sort_count(const u32* __restrict__ sc, u32* __restrict__ counts, u32 np, u32 c, u32 nw, u32 h, u32 sets) {
  u32 i = gid();
  if (i >= np) return;
  u32 carry = 0u;
  for (u32 w = 0; w < nw; w++) {
    u32 v = sbits(sc, i, w * c, c) + carry;
    u32 mag = v;
    carry = 0u;
    if (v >= h) { mag = 2u * h - v; carry = 1u; }
    if (mag != 0u) atomicAdd(&counts[(w % sets) * h + mag - 1u], 1u);
  }
}

extern "C" __global__ void sort_scatter(const u32* __restrict__ sc, u32* __restrict__ fill, const u32* __restrict__ starts, u32* __restrict__ entries, u32 np, u32 c, u32 nw, u32 h, u32 base, u32 sets, u32 nbases) {
  u32 i = gid();
  if (i >= np) return;
  u32 carry = 0u;
  for (u32 w = 0; w < nw; w++) {
    u32 v = sbits(sc, i, w * c, c) + carry;
    u32 mag = v, neg = 0u;
    carry = 0u;
    if (v >= h) { mag = 2u * h - v; neg = 1u; carry = 1u; }
    if (mag != 0u) {
      u32 b = (w % sets) * h + mag - 1u;
      entries[starts[b] + atomicAdd(&fill[b], 1u)] = (base + i + (w / sets) * nbases) | (neg << 31);
    }
  }
}

extern "C" __global__ void scan_partial(const u32* __restrict__ counts, u32* __restrict__ partials, u32 nb, u32 max_run) {
  u32 t = gid();
  u32 nc = (nb + SCAN_CHUNK - 1u) / SCAN_CHUNK;
  if (t >= nc) return;
  u32 lo = t * SCAN_CHUNK, hi = min(lo + SCAN_CHUNK, nb), se = 0u, sr = 0u;
  for (u32 b = lo; b < hi; b++) { u32 k = counts[b]; se += k; sr += runs_of(k, max_run); }
  partials[2u * t] = se;
  partials[2u * t + 1u] = sr;
}

// One block: exclusive prefix sums of the chunk totals (Hillis-Steele over the block's
// threads, each thread first summing a contiguous range), and the grand totals.
#define SCAN_THREADS 1024
extern "C" __global__ void scan_top(u32* __restrict__ partials, u32* __restrict__ starts, u32* __restrict__ bucket_runs, u32 nb) {
  __shared__ u32 she[SCAN_THREADS];
  __shared__ u32 shr[SCAN_THREADS];
  u32 l = threadIdx.x, nt = blockDim.x;
  u32 nc = (nb + SCAN_CHUNK - 1u) / SCAN_CHUNK;
  u32 per = (nc + nt - 1u) / nt;
  u32 lo = min(l * per, nc), hi = min(lo + per, nc);
  u32 me = 0u, mr = 0u;
  for (u32 j = lo; j < hi; j++) { me += partials[2u * j]; mr += partials[2u * j + 1u]; }
  she[l] = me; shr[l] = mr;
  __syncthreads();
  for (u32 off = 1u; off < nt; off *= 2u) {
    u32 ve = she[l], vr = shr[l];
    if (l >= off) { ve += she[l - off]; vr += shr[l - off]; }
    __syncthreads();
    she[l] = ve; shr[l] = vr;
    __syncthreads();
  }
  u32 re = she[l] - me, rr = shr[l] - mr;
  for (u32 j = lo; j < hi; j++) {
    u32 xe = partials[2u * j], xr = partials[2u * j + 1u];
    partials[2u * j] = re; partials[2u * j + 1u] = rr;
    re += xe; rr += xr;
  }
  if (l == nt - 1u) { starts[nb] = she[l]; bucket_runs[nb] = shr[l]; }
}

extern "C" __global__ void scan_final(const u32* __restrict__ counts, const u32* __restrict__ partials, u32* __restrict__ starts, u32* __restrict__ bucket_runs, u32 nb, u32 max_run) {
  u32 t = gid();
  u32 nc = (nb + SCAN_CHUNK - 1u) / SCAN_CHUNK;
  if (t >= nc) return;
  u32 se = partials[2u * t], sr = partials[2u * t + 1u];
  u32 lo = t * SCAN_CHUNK, hi = min(lo + SCAN_CHUNK, nb);
  for (u32 b = lo; b < hi; b++) {
    starts[b] = se; bucket_runs[b] = sr;
    u32 k = counts[b];
    se += k; sr += runs_of(k, max_run);
  }
}

// Run offsets and each run's bucket; past the last run, empty runs ending at the entry total
// (and offsets[nr]) whose bucket is nb (none). stats[0]: the most runs of any bucket (the host
// clears it), which sets the number of fold_runs passes.
extern "C" __global__ void sort_runs(const u32* __restrict__ counts, const u32* __restrict__ starts, const u32* __restrict__ bucket_runs, u32* __restrict__ offsets, u32* __restrict__ run_bucket, u32* __restrict__ stats, u32 nb, u32 nr, u32 max_run) {
  u32 t = gid();
  if (t < nb) {
    u32 k = counts[t], s0 = starts[t], r0 = bucket_runs[t], n = runs_of(k, max_run);
    for (u32 j = 0; j < n; j++) { offsets[r0 + j] = s0 + j * max_run; run_bucket[r0 + j] = t; }
    // Read first: most threads then skip the atomic.
    if (n > stats[0]) atomicMax(&stats[0], n);
  }
  if (t <= nr && t >= bucket_runs[nb]) { offsets[t] = starts[nb]; run_bucket[t] = nb; }
}

// ---- accumulation: one thread per run, XYZZ mixed additions ----
extern "C" __global__ void ACC_REGS acc_xyzz(const u32* __restrict__ points, const u32* __restrict__ entries, const u32* __restrict__ offsets, u32* __restrict__ partials, u32 nr) {
  u32 g = gid();
  if (g >= nr) return;
  Xyzz acc = xyzz_zero();
  u32 end = offsets[g + 1u];
  for (u32 e = offsets[g]; e < end; e++) {
    u32 ent = entries[e];
    const u32* pt = points + (u64)(ent & 0x7fffffffu) * (2u * W);
    Fp x = ld_fp(pt), y = ld_fp(pt + W);
    if (fp_is_zero(x) && fp_is_zero(y)) continue;
    if (ent >> 31) y = fp_neg(y);
    acc = xyzz_add_affine(acc, x, y);
  }
  st_xyzz(partials + (u64)g * (4u * W), acc);
}

// acc_xyzz with the next entry's base loaded before the current addition (software
// pipelining, CudaConfig::prefetch): the load's latency overlaps the addition's ~1000
// instructions instead of stalling the thread, for 2 W more registers. The same sums.
extern "C" __global__ void ACC_REGS acc_xyzz_prefetch(const u32* __restrict__ points, const u32* __restrict__ entries, const u32* __restrict__ offsets, u32* __restrict__ partials, u32 nr) {
  u32 g = gid();
  if (g >= nr) return;
  Xyzz acc = xyzz_zero();
  u32 e = offsets[g], end = offsets[g + 1u];
  u32 ent = e < end ? entries[e] : 0u;
  const u32* pt = points + (u64)(ent & 0x7fffffffu) * (2u * W);
  Fp x = e < end ? ld_fp(pt) : fp_zero(), y = e < end ? ld_fp(pt + W) : fp_zero();
  for (; e < end; e++) {
    // the next base (this one again past the end: a load that hits the cache, never used)
    u32 nxt = e + 1u < end ? entries[e + 1u] : ent;
    const u32* np = points + (u64)(nxt & 0x7fffffffu) * (2u * W);
    Fp xn = ld_fp(np), yn = ld_fp(np + W);
    if (!(fp_is_zero(x) && fp_is_zero(y))) {
      if (ent >> 31) y = fp_neg(y);
      acc = xyzz_add_affine(acc, x, y);
    }
    ent = nxt; x = xn; y = yn;
  }
  st_xyzz(partials + (u64)g * (4u * W), acc);
}

// One step of a tree sum over each bucket's run sums (for buckets with many runs: a skewed
// scalar set, or a top window of few buckets): the run at position j of its bucket, j a
// multiple of 2 stride, adds the run at j + stride. No two threads touch the same sums.
extern "C" __global__ void fold_runs(u32* __restrict__ partials, const u32* __restrict__ bucket_runs, const u32* __restrict__ run_bucket, u32 nr, u32 nb, u32 stride) {
  u32 r = gid();
  if (r >= nr) return;
  u32 b = run_bucket[r];
  if (b >= nb) return;
  u32 lo = bucket_runs[b], j = r - lo;
  if (j % (2u * stride) != 0u || lo + j + stride >= bucket_runs[b + 1u]) return;
  Xyzz a = ld_xyzz(partials + (u64)r * (4u * W));
  Xyzz q = ld_xyzz(partials + (u64)(r + stride) * (4u * W));
  st_xyzz(partials + (u64)r * (4u * W), xyzz_add(a, q));
}

// Per bucket, the sum of its runs' partial sums at positions 0, step, 2 step, ... (step = 2^k
// after k fold_runs passes, 1 without).
extern "C" __global__ void merge_runs(const u32* __restrict__ partials, const u32* __restrict__ bucket_runs, u32* __restrict__ buckets, u32 nb, u32 step) {
  u32 g = gid();
  if (g >= nb) return;
  u32 lo = bucket_runs[g], hi = bucket_runs[g + 1u];
  Xyzz acc = xyzz_zero();
  if (hi > lo) acc = ld_xyzz(partials + (u64)lo * (4u * W));
  for (u32 r = lo + step; r < hi; r += step) acc = xyzz_add(acc, ld_xyzz(partials + (u64)r * (4u * W)));
  st_xyzz(buckets + (u64)g * (4u * W), acc);
}

// Per window, T segments of L buckets: acc = sum_j j B_(seg L + j), running = sum_j B_(seg L + j),
// written as the triple [acc, running, 0] that tree_segments starts from.
extern "C" __global__ void reduce_segments(const u32* __restrict__ buckets, u32* __restrict__ segs, u32 nw, u32 t, u32 l, u32 h) {
  u32 i = gid();
  if (i >= nw * t) return;
  u32 w = i / t, seg = i % t;
  u64 base = (u64)w * h + (u64)seg * l;
  Xyzz running = xyzz_zero(), acc = xyzz_zero();
  for (u32 j = l; j > 0u; j--) {
    running = xyzz_add(running, ld_xyzz(buckets + (base + j - 1u) * (4u * W)));
    acc = xyzz_add(acc, running);
  }
  st_xyzz(segs + (u64)(3u * i) * (4u * W), acc);
  st_xyzz(segs + (u64)(3u * i + 1u) * (4u * W), running);
  st_xyzz(segs + (u64)(3u * i + 2u) * (4u * W), xyzz_zero());
}

// Tree combination of each window's T segment triples, level k: the adjacent ranges of m = 2^k
// segments starting at 2 j m and (2 j + 1) m, as triples [A, D, S] (A = sum acc_s, D = m sum
// running_s, S = sum (s - s0) running_s over the range from s0; a segment alone is
// [acc, running, 0]), join into the left one: [A_l + A_r, 2 (D_l + D_r), S_l + S_r + D_r]
// (one doubling a level instead of k). The last level (per = roots a window) writes triple
// roots_at + w roots + j instead; the host joins a window's roots (plan::combine_roots).
extern "C" __global__ void tree_segments(u32* __restrict__ segs, u32 roots_at, u32 nw, u32 t, u32 k, u32 roots) {
  u32 i = gid();
  u32 per = t >> (k + 1u);
  if (i >= nw * per) return;
  u32 w = i / per, j = i % per;
  u64 left = (u64)w * t + ((u64)j << (k + 1u));
  u32* a = segs + left * (12u * W);
  u32* b = segs + (left + (1ull << k)) * (12u * W);
  u32* o = per == roots ? segs + ((u64)roots_at + (u64)w * roots + j) * (12u * W) : a;
  Xyzz db = ld_xyzz(b + 4u * W);
  st_xyzz(o, xyzz_add(ld_xyzz(a), ld_xyzz(b)));
  st_xyzz(o + 8u * W, xyzz_add(xyzz_add(ld_xyzz(a + 8u * W), ld_xyzz(b + 8u * W)), db));
  st_xyzz(o + 4u * W, xyzz_dbl(xyzz_add(ld_xyzz(a + 4u * W), db)));
}
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GpuCurve;
    use zkforge_curve::{bls12_381, bn254};

    #[test]
    fn pow2_mod_is_r_mod_p() {
        // R mod p is zkforge's Montgomery form of 1 (R64 = R for 32-bit words).
        let p = words32(<bls12_381::G1Config as GpuCurve>::spec());
        let one = pow2_mod(&p, 384);
        let want = zkforge_field::bls12_381::Fp::ONE.to_mont_limbs();
        let got: Vec<u64> = one.chunks(2).map(|c| c[0] as u64 | (c[1] as u64) << 32).collect();
        assert_eq!(got, want.to_vec());
        let p = words32(<bn254::G1Config as GpuCurve>::spec());
        let one = pow2_mod(&p, 256);
        let want = zkforge_field::bn254::Fp::ONE.to_mont_limbs();
        let got: Vec<u64> = one.chunks(2).map(|c| c[0] as u64 | (c[1] as u64) << 32).collect();
        assert_eq!(got, want.to_vec());
    }

    #[test]
    fn neg_inv_is_an_inverse() {
        for p0 in [0xffff_ffffu32, 0xb9fe_ffff, 0xd87c_fd47, 12345677] {
            assert_eq!(p0.wrapping_mul(neg_inv32(p0)), u32::MAX);
        }
    }

    /// A small interpreter for the generated PTX-form and wide-form `fp_mul` (their statements
    /// and the PTX instructions they use), run against zkforge-field: checks the generated
    /// operand numbering and chains without a GPU.
    fn ptx_mul_model(src: &str, p: &[u32], a: &[u32], b: &[u32]) -> Vec<u32> {
        use std::collections::HashMap;
        let body = &src[src.find("Fp fp_mul(").unwrap()..];
        let body = &body[..body.find("\n}").unwrap()];
        let mut v: HashMap<String, u32> = HashMap::new();
        let eval = |v: &HashMap<String, u32>, e: &str| -> u32 {
            let e = e.trim();
            if let Some(j) = e.strip_prefix("a.v[") {
                a[j.trim_end_matches(']').parse::<usize>().unwrap()]
            } else if let Some(j) = e.strip_prefix("b.v[") {
                b[j.trim_end_matches(']').parse::<usize>().unwrap()]
            } else if let Some(x) = e.strip_suffix('u') {
                x.parse().unwrap()
            } else {
                v[e]
            }
        };
        let mut out = vec![0u32; p.len()];
        for line in body.lines().skip(1) {
            let line = line.trim();
            if let Some(rest) = line.strip_prefix("asm(\"") {
                let (code, ops) = rest.split_once("\" :").unwrap();
                let (outs, ins) = ops.trim_end_matches(");").split_once(" : ").unwrap();
                let outs = outs.trim();
                let mut names: Vec<String> = outs.split(", ").map(|o| o.trim_start_matches("\"+r\"(").trim_end_matches(')').to_string()).collect();
                let mut vals: Vec<u32> = names.iter().map(|n| v[n]).collect();
                for i in ins.split(", ") {
                    names.push(String::new());
                    vals.push(eval(&v, i.trim_start_matches("\"r\"(").trim_end_matches(')')));
                }
                let nouts = outs.split(", ").count();
                // Operands: `%k` (the statement's operands), `%%name` (registers local to the
                // asm block, 32 or 64 bits, kept as u64), or an immediate.
                let mut local: HashMap<String, u64> = HashMap::new();
                let get = |vals: &Vec<u32>, local: &HashMap<String, u64>, o: &str| -> u64 {
                    if let Some(l) = o.strip_prefix("%%") {
                        local[l]
                    } else if let Some(k) = o.strip_prefix('%') {
                        vals[k.parse::<usize>().unwrap()] as u64
                    } else {
                        o.parse().unwrap()
                    }
                };
                let mut cf = 0u64;
                for ins in code.split(';').map(str::trim).filter(|x| !x.is_empty() && !x.starts_with('{') && *x != "}") {
                    let ins = ins.trim_start_matches("{ ").trim();
                    if ins.starts_with(".reg") {
                        continue;
                    }
                    let (op, args) = ins.split_once(' ').unwrap();
                    if op == "mov.b64" {
                        // mov.b64 {lo, hi}, q
                        let (pair, q) = args.rsplit_once(", ").unwrap();
                        let q = get(&vals, &local, q);
                        let (lo, hi) = pair.trim_matches(|c| c == '{' || c == '}').split_once(", ").unwrap();
                        local.insert(lo.trim_start_matches("%%").to_string(), q & 0xffff_ffff);
                        local.insert(hi.trim_start_matches("%%").to_string(), q >> 32);
                        continue;
                    }
                    let args: Vec<&str> = args.split(", ").collect();
                    let x = get(&vals, &local, args[1]);
                    let y = get(&vals, &local, args[2]);
                    let (val, cc, uses_cf) = match op {
                        "mul.wide.u32" => {
                            local.insert(args[0].trim_start_matches("%%").to_string(), x * y);
                            continue;
                        }
                        "mad.lo.cc.u32" => ((x * y) as u32 as u64 + get(&vals, &local, args[3]), true, false),
                        "madc.lo.cc.u32" => ((x * y) as u32 as u64 + get(&vals, &local, args[3]), true, true),
                        "mad.hi.cc.u32" => (((x * y) >> 32) + get(&vals, &local, args[3]), true, false),
                        "madc.hi.cc.u32" => (((x * y) >> 32) + get(&vals, &local, args[3]), true, true),
                        "add.cc.u32" => (x + y, true, false),
                        "addc.cc.u32" => (x + y, true, true),
                        "addc.u32" => (x + y, false, true),
                        _ => panic!("unknown instruction {op}"),
                    };
                    let val = val + if uses_cf { cf } else { 0 };
                    let d: usize = args[0].trim_start_matches('%').parse().unwrap();
                    assert!(d < nouts, "writes an input operand");
                    vals[d] = val as u32;
                    if cc {
                        cf = val >> 32;
                    }
                }
                for (k, n) in names.iter().enumerate().take(nouts) {
                    v.insert(n.clone(), vals[k]);
                }
            } else if let Some(rest) = line.strip_prefix("u32 ") {
                for d in rest.trim_end_matches(';').split(", ") {
                    let (n, x) = d.split_once(" = ").unwrap_or((d, "0u"));
                    v.insert(n.to_string(), eval(&v, x));
                }
            } else if let Some(rest) = line.strip_prefix("Fp r; ") {
                for st in rest.split(';').map(str::trim).filter(|x| !x.is_empty()) {
                    let (l, r) = st.split_once(" = ").unwrap();
                    out[l.trim_start_matches("r.v[").trim_end_matches(']').parse::<usize>().unwrap()] = v[r];
                }
            } else if line.starts_with("return") {
                break;
            } else {
                for st in line.split(';').map(str::trim).filter(|x| !x.is_empty()) {
                    let (l, r) = st.split_once(" = ").unwrap();
                    let val = if let Some((x, y)) = r.split_once(" * ") { eval(&v, x).wrapping_mul(eval(&v, y)) } else { eval(&v, r) };
                    v.insert(l.to_string(), val);
                }
            }
        }
        // fp_reduce_once.
        let ge = out.iter().rev().zip(p.iter().rev()).find(|(x, y)| x != y).is_none_or(|(x, y)| x > y);
        if ge {
            let mut br = 0i64;
            for (w, &pj) in out.iter_mut().zip(p) {
                let d = *w as i64 - pj as i64 - br;
                *w = d as u32;
                br = (d < 0) as i64;
            }
        }
        out
    }

    fn ptx_mul_matches<C: GpuCurve<Base = zkforge_field::mont::Fp<F, N>>, F: zkforge_field::mont::FieldConfig<N>, const N: usize>(mul: CudaMul) {
        type E<F, const N: usize> = zkforge_field::mont::Fp<F, N>;
        let spec = C::spec();
        let src = emit_field(spec, mul);
        let p = words32(spec);
        let mut x = 0x243f6a8885a308d3u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut vals = vec![E::<F, N>::ZERO, E::ONE, -E::<F, N>::ONE, -E::<F, N>::from_u64(2)];
        for _ in 0..40 {
            vals.push(E::random_with(&mut next));
        }
        for a in &vals {
            for b in vals.iter().take(12) {
                let (mut wa, mut wb, mut want) = (vec![0u32; C::WORDS], vec![0u32; C::WORDS], vec![0u32; C::WORDS]);
                C::to_mont_words(a, &mut wa);
                C::to_mont_words(b, &mut wb);
                C::to_mont_words(&(*a * *b), &mut want);
                assert_eq!(ptx_mul_model(&src, &p, &wa, &wb), want);
            }
        }
    }

    #[test]
    fn ptx_forms_multiply_correctly_in_a_model() {
        for mul in [CudaMul::Ptx, CudaMul::Wide] {
            ptx_mul_matches::<bls12_381::G1Config, _, 6>(mul);
            ptx_mul_matches::<bn254::G1Config, _, 4>(mul);
        }
    }
}

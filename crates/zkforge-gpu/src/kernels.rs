//! WGSL kernels of the GPU bucket method, assembled from the generated field code
//! ([`crate::field_gen`]) and curve-independent templates (both G1 curves have a = 0).
//!
//! Point formulas (Explicit-Formulas Database, "g1p/shortw/xyzz"): `madd-2008-s` (mixed
//! addition, 8M + 2S), `add-2008-s` (12M + 2S), `mdbl-2008-s` / `dbl-2008-s` (doublings);
//! the batch-affine accumulation uses Montgomery's simultaneous-inversion trick (one field
//! inversion for S affine additions, 6M + 1S each), the method of the Barretenberg WebGPU MSM
//! (seed 004) and of the ZPrize 2022 GPU MSM entries.
//!
//! Buffers: points are affine (x, y) packed in 2W words, Montgomery form, identity (0, 0);
//! buckets are XYZZ (x, y, zz, zzz) in 4W words, identity all zero; `entries` holds, bucket
//! after bucket, `point index | sign << 31`; `offsets[r] .. offsets[r + 1]` is run r (a
//! bucket's entries cut into runs of bounded length); the accumulation kernels sum runs into
//! `partials`, and `Merge` sums bucket g's runs `bucket_runs[g] .. bucket_runs[g + 1]`. A
//! bucket with many runs is first summed in a tree: each `FoldRuns` pass (stride 1, 2, 4, ...)
//! adds run j + stride into run j for j a multiple of 2 stride, `run_bucket[r]` naming run r's
//! bucket, and `Merge` then adds every 2^passes-th run.

use crate::cuda_gen::{pow2_mod, words32};
use crate::field_gen::{emit_access, emit_field, to_limbs13, FieldSpec, LIMB_BITS};
use zkforge_msm::ScalarForm;
use crate::sort_kernels::{sort_source, SortKernel};
use std::fmt::Write;

/// Which kernel a shader module holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// Canonical packed points -> Montgomery packed points.
    ToMont,
    /// Uploaded scalars (8 words each, in the given form) to their residues mod r below r,
    /// in place: one Montgomery product by a constant K of the scalar field ([`scalar_k`]).
    /// Built with the scalar field's spec ([`crate::GpuCurve::scalar_spec`]).
    ScalarPrep(ScalarForm),
    /// One thread per bucket, XYZZ mixed additions.
    AccumulateXyzz,
    /// `AccumulateXyzz` with the next entry's base loaded before the current addition
    /// (software pipelining, [`crate::GpuConfig::prefetch`]).
    AccumulateXyzzPrefetch,
    /// One thread per S buckets, batch-affine additions with one inversion per step.
    AccumulateAffine,
    /// One tree step over each bucket's run sums: the run at position j (a multiple of
    /// 2 stride) adds the run at j + stride.
    FoldRuns,
    /// Per bucket, the sum of its runs' partial sums (every `step`-th after the folds).
    Merge,
    /// Per window, T segments of running sums, written as triples [acc, running, 0].
    Reduce,
    /// One level k of the segment tree ([`crate::GpuConfig::combine`]): adjacent ranges of
    /// 2^k segments joined as triples [A, D, S] (the CUDA backend's `tree_segments`); the
    /// last level writes a window's roots after the segments.
    TreeSegments,
    /// Window-folded bases ([`crate::plan::Fold`]): points `nb ..` of the (Montgomery) bases
    /// buffer become 2^s times points `nr ..`, `np` points: `s` XYZZ doublings and one Fermat
    /// inversion a point back to affine (x = X (ZZ / ZZZ)^2, y = Y / ZZZ); the identity stays.
    FoldShift,
    /// Test kernel: a b, a + b, a - b, a^-1 (0 for 0), -a, and the chain x <- x^2 + b 1000 times from a, for pairs of canonical elements.
    FieldOps,
    /// A bucket-sort kernel ([`crate::sort_kernels`]): no field code.
    Sort(SortKernel),
}

const PARAMS: &str = "
struct Params {
  // runs (accumulation threads' work items)
  nr: u32,
  // buckets per window (2^(c-1))
  h: u32,
  // batch-affine: buckets per thread (S)
  s: u32,
  // reduction: segments per window (T) and buckets per segment (L = h / T)
  t: u32,
  l: u32,
  // windows
  nw: u32,
  // points (ToMont); the fold stride (FoldRuns) and run step (Merge) of the MSM kernels
  np: u32,
  // buckets in all windows
  nb: u32,
}
@group(0) @binding(0) var<uniform> params: Params;
";

const CURVE: &str = "
struct Xyzz { x: Fp, y: Fp, zz: Fp, zzz: Fp }
fn xyzz_zero() -> Xyzz { return Xyzz(fp_zero(), fp_zero(), fp_zero(), fp_zero()); }
fn xyzz_is_zero(p: Xyzz) -> bool { return fp_is_zero(p.zz); }

// mdbl-2008-s: 2 (x, y) for an affine point.
fn xyzz_dbl_affine(x: Fp, y: Fp) -> Xyzz {
  let u = fp_dbl(y);
  let v = fp_sqr(u);
  let w = fp_mul(u, v);
  let s = fp_mul(x, v);
  let xx = fp_sqr(x);
  let m = fp_add(fp_dbl(xx), xx);
  let x3 = fp_sub(fp_sub(fp_sqr(m), s), s);
  let y3 = fp_sub(fp_mul(m, fp_sub(s, x3)), fp_mul(w, y));
  return Xyzz(x3, y3, v, w);
}

// dbl-2008-s: 2P in XYZZ.
fn xyzz_dbl(p: Xyzz) -> Xyzz {
  if (xyzz_is_zero(p)) { return p; }
  let u = fp_dbl(p.y);
  let v = fp_sqr(u);
  let w = fp_mul(u, v);
  let s = fp_mul(p.x, v);
  let xx = fp_sqr(p.x);
  let m = fp_add(fp_dbl(xx), xx);
  let x3 = fp_sub(fp_sub(fp_sqr(m), s), s);
  let y3 = fp_sub(fp_mul(m, fp_sub(s, x3)), fp_mul(w, p.y));
  return Xyzz(x3, y3, fp_mul(v, p.zz), fp_mul(w, p.zzz));
}

// madd-2008-s: P + (x2, y2), all cases (P = 0, P = Q, P = -Q).
fn xyzz_add_affine(p: Xyzz, x2: Fp, y2: Fp) -> Xyzz {
  if (xyzz_is_zero(p)) { let one = fp_to_mont(fp_raw_one()); return Xyzz(x2, y2, one, one); }
  let u2 = fp_mul(x2, p.zz);
  let s2 = fp_mul(y2, p.zzz);
  let pp_ = fp_sub(u2, p.x);
  let r = fp_sub(s2, p.y);
  if (fp_is_zero(pp_)) {
    if (fp_is_zero(r)) { return xyzz_dbl_affine(x2, y2); }
    return xyzz_zero();
  }
  let pp = fp_sqr(pp_);
  let ppp = fp_mul(pp_, pp);
  let q = fp_mul(p.x, pp);
  let x3 = fp_sub(fp_sub(fp_sub(fp_sqr(r), ppp), q), q);
  let y3 = fp_sub(fp_mul(r, fp_sub(q, x3)), fp_mul(p.y, ppp));
  return Xyzz(x3, y3, fp_mul(p.zz, pp), fp_mul(p.zzz, ppp));
}

// add-2008-s: P + Q in XYZZ, all cases.
fn xyzz_add(p: Xyzz, q: Xyzz) -> Xyzz {
  if (xyzz_is_zero(p)) { return q; }
  if (xyzz_is_zero(q)) { return p; }
  let u1 = fp_mul(p.x, q.zz);
  let u2 = fp_mul(q.x, p.zz);
  let s1 = fp_mul(p.y, q.zzz);
  let s2 = fp_mul(q.y, p.zzz);
  let pp_ = fp_sub(u2, u1);
  let r = fp_sub(s2, s1);
  if (fp_is_zero(pp_)) {
    if (fp_is_zero(r)) { return xyzz_dbl(p); }
    return xyzz_zero();
  }
  let pp = fp_sqr(pp_);
  let ppp = fp_mul(pp_, pp);
  let qq = fp_mul(u1, pp);
  let x3 = fp_sub(fp_sub(fp_sub(fp_sqr(r), ppp), qq), qq);
  let y3 = fp_sub(fp_mul(r, fp_sub(qq, x3)), fp_mul(s1, ppp));
  return Xyzz(x3, y3, fp_mul(fp_mul(p.zz, q.zz), pp), fp_mul(fp_mul(p.zzz, q.zzz), ppp));
}
";

/// Global invocation index for 2-D dispatches (more than 65535 workgroups).
const GID: &str = "
fn gid(wid: vec3<u32>, nwg: vec3<u32>, lid: vec3<u32>) -> u32 {
  return (wid.x + wid.y * nwg.x) * WG + lid.x;
}
";

/// `ld_xyzz_<buf>(i)` (and with `writable`, `st_xyzz_<buf>(i, p)`): point i of an XYZZ buffer,
/// 4 W words each.
fn xyzz_access(buf: &str, writable: bool) -> String {
    let mut s = format!(
        "fn ld_xyzz_{buf}(i: u32) -> Xyzz {{\n  let b = i * 4u * W;\n  return Xyzz(ld_{buf}(b), ld_{buf}(b + W), ld_{buf}(b + 2u * W), ld_{buf}(b + 3u * W));\n}}\n"
    );
    if writable {
        s.push_str(&format!(
            "fn st_xyzz_{buf}(i: u32, p: Xyzz) {{\n  let b = i * 4u * W;\n  st_{buf}(b, p.x); st_{buf}(b + W, p.y); st_{buf}(b + 2u * W, p.zz); st_{buf}(b + 3u * W, p.zzz);\n}}\n"
        ));
    }
    s
}

/// Bindings shared by the two accumulation kernels (`buckets` receives the run sums).
const ACC_BINDINGS: &str = "@group(0) @binding(1) var<storage, read> points: array<u32>;
@group(0) @binding(2) var<storage, read> entries: array<u32>;
@group(0) @binding(3) var<storage, read> offsets: array<u32>;
@group(0) @binding(4) var<storage, read_write> buckets: array<u32>;
";

/// A read-only `src` and a writable `dst` word buffer with their element access (the
/// per-element kernels `ToMont` and `FieldOps`).
fn src_dst(spec: &FieldSpec) -> String {
    let mut s = String::from("@group(0) @binding(1) var<storage, read> src: array<u32>;\n");
    s.push_str("@group(0) @binding(2) var<storage, read_write> dst: array<u32>;\n");
    s.push_str(&emit_access(spec, "src", false));
    s.push_str(&emit_access(spec, "dst", true));
    s
}

/// The constant K that [`Kernel::ScalarPrep`] multiplies by, as little-endian 32-bit words,
/// for the scalar field `spec` with Montgomery radix R = 2^bits (a Montgomery product gives
/// x K R^-1 mod r):
/// - `Montgomery` limbs hold k 2^256 mod r, so K = 2^(bits - 256) gives k;
/// - `Integer` limbs hold any x < 2^256 <= R, so K = R mod r gives x mod r.
///
/// Both products stay within the CIOS bound (x K < R r), so the result is below 2r and one
/// conditional subtraction makes it canonical. `bits` is 13 N for the WGSL kernels and 256 for
/// the CUDA ones.
pub fn scalar_k(spec: &FieldSpec, form: ScalarForm, bits: usize) -> Vec<u32> {
    let r = words32(spec);
    match form {
        ScalarForm::Montgomery => pow2_mod(&r, bits - 256),
        ScalarForm::Integer => pow2_mod(&r, bits),
    }
}

/// The full WGSL source of `kernel` for field `spec` with workgroup size `wg`; `unroll`
/// selects the field multiplication's form ([`emit_field`]).
pub fn source(spec: &FieldSpec, kernel: Kernel, wg: u32, unroll: bool) -> String {
    let w = spec.words;
    let mut s = String::new();
    let _ = writeln!(s, "// Generated by zkforge-gpu (kernels.rs, field_gen.rs); do not edit.");
    let _ = writeln!(s, "const WG: u32 = {wg}u;\nconst W: u32 = {w}u;");
    s.push_str(&emit_field(spec, unroll));
    s.push_str(PARAMS);
    s.push_str(GID);
    let entry = "@compute @workgroup_size(WG)\nfn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>)";
    match kernel {
        Kernel::ScalarPrep(form) => {
            let n = spec.limbs();
            let k: Vec<u64> = scalar_k(spec, form, LIMB_BITS as usize * n).chunks(2).map(|w| w[0] as u64 | (w.get(1).copied().unwrap_or(0) as u64) << 32).collect();
            let list: Vec<String> = to_limbs13(&k, n).iter().map(|x| format!("{x}u")).collect();
            let _ = writeln!(s, "fn fp_k() -> Fp {{ return Fp({}); }}", list.join(", "));
            s.push_str("@group(0) @binding(1) var<storage, read_write> sc: array<u32>;\n");
            s.push_str(&emit_access(spec, "sc", true));
            let _ = writeln!(s, "{entry} {{");
            s.push_str(
                "  let i = gid(wid, nwg, lid);
  if (i >= params.np) { return; }
  st_sc(i * 8u, fp_mul(ld_sc(i * 8u), fp_k()));
}
",
            );
        }
        Kernel::ToMont => {
            s.push_str(&src_dst(spec));
            let _ = writeln!(s, "{entry} {{");
            s.push_str(
                "  let i = gid(wid, nwg, lid);
  if (i >= params.np) { return; }
  let o = i * 2u * W;
  st_dst(o, fp_to_mont(ld_src(o)));
  st_dst(o + W, fp_to_mont(ld_src(o + W)));
}
",
            );
        }
        Kernel::AccumulateXyzz | Kernel::AccumulateXyzzPrefetch => {
            s.push_str(CURVE);
            s.push_str(ACC_BINDINGS);
            s.push_str(&emit_access(spec, "points", false));
            s.push_str(&emit_access(spec, "buckets", true));
            s.push_str(&xyzz_access("buckets", true));
            let _ = writeln!(s, "{entry} {{");
            s.push_str("  let g = gid(wid, nwg, lid);\n  if (g >= params.nr) { return; }\n  var acc = xyzz_zero();\n");
            if kernel == Kernel::AccumulateXyzz {
                s.push_str(
                    "  let end = offsets[g + 1u];
  for (var e = offsets[g]; e < end; e++) {
    let ent = entries[e];
    let o = (ent & 0x7fffffffu) * 2u * W;
    let x = ld_points(o);
    var y = ld_points(o + W);
    if (fp_is_zero(x) && fp_is_zero(y)) { continue; }
    if ((ent >> 31u) == 1u) { y = fp_neg(y); }
    acc = xyzz_add_affine(acc, x, y);
  }
",
                );
            } else {
                s.push_str(
                    "  var e = offsets[g];
  let end = offsets[g + 1u];
  var ent = 0u;
  var x = fp_zero();
  var y = fp_zero();
  if (e < end) { ent = entries[e]; x = ld_points((ent & 0x7fffffffu) * 2u * W); y = ld_points((ent & 0x7fffffffu) * 2u * W + W); }
  for (; e < end; e++) {
    // the next base (this one again past the end: loaded, never used)
    var nxt = ent;
    if (e + 1u < end) { nxt = entries[e + 1u]; }
    let o = (nxt & 0x7fffffffu) * 2u * W;
    let xn = ld_points(o);
    let yn = ld_points(o + W);
    if (!(fp_is_zero(x) && fp_is_zero(y))) {
      if ((ent >> 31u) == 1u) { y = fp_neg(y); }
      acc = xyzz_add_affine(acc, x, y);
    }
    ent = nxt;
    x = xn;
    y = yn;
  }
",
                );
            }
            s.push_str("  st_xyzz_buckets(g, acc);\n}\n");
        }
        Kernel::AccumulateAffine => {
            s.push_str(ACC_BINDINGS);
            s.push_str("@group(0) @binding(5) var<storage, read_write> scratch: array<u32>;\n");
            s.push_str(&emit_access(spec, "points", false));
            s.push_str(&emit_access(spec, "buckets", true));
            s.push_str(&emit_access(spec, "scratch", true));
            s.push_str(AFFINE_HELPERS);
            let _ = writeln!(s, "{entry} {{");
            s.push_str(AFFINE_BODY);
        }
        Kernel::FoldShift => {
            s.push_str(CURVE);
            s.push_str("@group(0) @binding(1) var<storage, read_write> pts: array<u32>;\n");
            s.push_str(&emit_access(spec, "pts", true));
            let _ = writeln!(s, "{entry} {{");
            s.push_str(
                "  let i = gid(wid, nwg, lid);
  if (i >= params.np) { return; }
  let so = (params.nr + i) * 2u * W;
  let d = (params.nb + i) * 2u * W;
  let x = ld_pts(so);
  let y = ld_pts(so + W);
  if (fp_is_zero(x) && fp_is_zero(y)) { st_pts(d, x); st_pts(d + W, y); return; }
  let one = fp_to_mont(fp_raw_one());
  var p = Xyzz(x, y, one, one);
  for (var k = 0u; k < params.s; k++) { p = xyzz_dbl(p); }
  if (xyzz_is_zero(p)) { st_pts(d, fp_zero()); st_pts(d + W, fp_zero()); return; }
  let iz = fp_inv(p.zzz);
  let t = fp_mul(p.zz, iz);
  st_pts(d, fp_mul(p.x, fp_sqr(t)));
  st_pts(d + W, fp_mul(p.y, iz));
}
",
            );
        }
        Kernel::FieldOps => {
            s.push_str(&src_dst(spec));
            let _ = writeln!(s, "{entry} {{");
            s.push_str(
                "  let i = gid(wid, nwg, lid);
  if (i >= params.np) { return; }
  let a = fp_to_mont(ld_src(2u * i * W));
  let b = fp_to_mont(ld_src((2u * i + 1u) * W));
  let o = 6u * i * W;
  var x = a;
  for (var k = 0u; k < 1000u; k++) { x = fp_add(fp_mul(x, x), b); }
  st_dst(o, fp_from_mont(fp_mul(a, b)));
  st_dst(o + W, fp_from_mont(fp_add(a, b)));
  st_dst(o + 2u * W, fp_from_mont(fp_sub(a, b)));
  st_dst(o + 3u * W, fp_from_mont(fp_inv(a)));
  st_dst(o + 4u * W, fp_from_mont(fp_neg(a)));
  st_dst(o + 5u * W, fp_from_mont(x));
}
",
            );
        }
        Kernel::Merge => {
            s.push_str(CURVE);
            s.push_str("@group(0) @binding(1) var<storage, read> partials: array<u32>;\n");
            s.push_str("@group(0) @binding(2) var<storage, read> bucket_runs: array<u32>;\n");
            s.push_str("@group(0) @binding(3) var<storage, read_write> buckets: array<u32>;\n");
            s.push_str(&emit_access(spec, "partials", false));
            s.push_str(&emit_access(spec, "buckets", true));
            s.push_str(&xyzz_access("partials", false));
            s.push_str(&xyzz_access("buckets", true));
            let _ = writeln!(s, "{entry} {{");
            s.push_str(
                "  let g = gid(wid, nwg, lid);
  if (g >= params.nb) { return; }
  var acc = xyzz_zero();
  let end = bucket_runs[g + 1u];
  for (var r = bucket_runs[g]; r < end; r += params.np) {
    acc = xyzz_add(acc, ld_xyzz_partials(r));
  }
  st_xyzz_buckets(g, acc);
}
",
            );
        }
        Kernel::FoldRuns => {
            s.push_str(CURVE);
            s.push_str("@group(0) @binding(1) var<storage, read_write> partials: array<u32>;\n");
            s.push_str("@group(0) @binding(2) var<storage, read> bucket_runs: array<u32>;\n");
            s.push_str("@group(0) @binding(3) var<storage, read> run_bucket: array<u32>;\n");
            s.push_str(&emit_access(spec, "partials", true));
            s.push_str(&xyzz_access("partials", true));
            let _ = writeln!(s, "{entry} {{");
            s.push_str(
                "  let r = gid(wid, nwg, lid);
  if (r >= params.nr) { return; }
  let b = run_bucket[r];
  if (b >= params.nb) { return; }
  let lo = bucket_runs[b];
  let j = r - lo;
  // No two threads touch the same sums: run j writes itself and reads j + stride, which no
  // thread of this pass writes (j + stride is not a multiple of 2 stride).
  if (j % (2u * params.np) != 0u || r + params.np >= bucket_runs[b + 1u]) { return; }
  st_xyzz_partials(r, xyzz_add(ld_xyzz_partials(r), ld_xyzz_partials(r + params.np)));
}
",
            );
        }
        Kernel::Sort(k) => return sort_source(k, wg),
        Kernel::TreeSegments => {
            s.push_str(CURVE);
            s.push_str("@group(0) @binding(1) var<storage, read_write> segs: array<u32>;\n");
            s.push_str(&emit_access(spec, "segs", true));
            s.push_str(&xyzz_access("segs", true));
            let _ = writeln!(s, "{entry} {{");
            s.push_str(
                "  // Level k = params.s of the tree over each window's T = params.t segment triples
  // [A, D, S] (A = sum acc_s, D = m sum running_s, S = sum (s - s0) running_s over a range
  // of m = 2^k segments from s0; a segment alone is [acc, running, 0]): the ranges at 2 j m
  // and (2 j + 1) m join into the left one as [A_l + A_r, 2 (D_l + D_r), S_l + S_r + D_r].
  // At the last level (params.np roots a window) the result goes to triple
  // params.nr + w roots + j instead, after the segments.
  let i = gid(wid, nwg, lid);
  let k = params.s;
  let per = params.t >> (k + 1u);
  if (i >= params.nw * per) { return; }
  let w = i / per;
  let j = i % per;
  let left = w * params.t + (j << (k + 1u));
  let right = left + (1u << k);
  var o = left;
  if (per == params.np) { o = params.nr + w * params.np + j; }
  let d_r = ld_xyzz_segs(3u * right + 1u);
  // The four sums through one xyzz_add call site (drivers that inline everything compile
  // it once): A_l + A_r, S_l + S_r, (S_l + S_r) + D_r, D_l + D_r.
  var a_sum = xyzz_zero();
  var s_sum = xyzz_zero();
  var d_sum = xyzz_zero();
  for (var step = 0u; step < 4u; step++) {
    var p = s_sum;
    var q = d_r;
    if (step == 0u) { p = ld_xyzz_segs(3u * left); q = ld_xyzz_segs(3u * right); }
    if (step == 1u) { p = ld_xyzz_segs(3u * left + 2u); q = ld_xyzz_segs(3u * right + 2u); }
    if (step == 3u) { p = ld_xyzz_segs(3u * left + 1u); }
    let r = xyzz_add(p, q);
    if (step == 0u) { a_sum = r; } else if (step == 3u) { d_sum = r; } else { s_sum = r; }
  }
  st_xyzz_segs(3u * o, a_sum);
  st_xyzz_segs(3u * o + 1u, xyzz_dbl(d_sum));
  st_xyzz_segs(3u * o + 2u, s_sum);
}
",
            );
        }
        Kernel::Reduce => {
            s.push_str(CURVE);
            s.push_str("@group(0) @binding(1) var<storage, read> buckets: array<u32>;\n");
            s.push_str("@group(0) @binding(2) var<storage, read_write> segs: array<u32>;\n");
            s.push_str(&emit_access(spec, "buckets", false));
            s.push_str(&emit_access(spec, "segs", true));
            s.push_str(&xyzz_access("buckets", false));
            s.push_str(&xyzz_access("segs", true));
            let _ = writeln!(s, "{entry} {{");
            s.push_str(
                "  let i = gid(wid, nwg, lid);
  if (i >= params.nw * params.t) { return; }
  let w = i / params.t;
  let seg = i % params.t;
  // buckets b = seg*L + 1 ..= seg*L + L of window w, from the top: running = sum B_b,
  // acc = sum (b - seg*L) B_b.
  var running = xyzz_zero();
  var acc = xyzz_zero();
  let base = w * params.h + seg * params.l;
  // One xyzz_add call site (odd steps add the bucket to running, even steps running to
  // acc): half the code for drivers that inline everything.
  for (var k = 2u * params.l; k > 0u; k--) {
    let j = (k + 1u) / 2u;
    var p = acc;
    var q = running;
    if ((k & 1u) == 0u) { p = running; q = ld_xyzz_buckets(base + j - 1u); }
    let r = xyzz_add(p, q);
    if ((k & 1u) == 0u) { running = r; } else { acc = r; }
  }
  st_xyzz_segs(3u * i, acc);
  st_xyzz_segs(3u * i + 1u, running);
  st_xyzz_segs(3u * i + 2u, xyzz_zero());
}
",
            );
        }
    }
    s
}

/// Batch-affine helpers: the bucket accumulator is affine (x, y) in the bucket's first two
/// slots, (0, 0) while empty.
const AFFINE_HELPERS: &str = "
fn acc_x(g: u32) -> Fp { return ld_buckets(g * 4u * W); }
fn acc_y(g: u32) -> Fp { return ld_buckets(g * 4u * W + W); }
fn pt_x(ent: u32) -> Fp { return ld_points((ent & 0x7fffffffu) * 2u * W); }
fn pt_y(ent: u32) -> Fp {
  let y = ld_points((ent & 0x7fffffffu) * 2u * W + W);
  if ((ent >> 31u) == 1u) { return fp_neg(y); }
  return y;
}
// The denominator of acc + P: x_P - x_acc, or 2 y for a doubling, or 1 for P = -acc.
fn denom(ax: Fp, ay: Fp, px: Fp, py: Fp) -> Fp {
  if (fp_eq(ax, px)) {
    if (fp_eq(ay, py)) { return fp_dbl(py); }
    return fp_to_mont(fp_raw_one());
  }
  return fp_sub(px, ax);
}
";

const AFFINE_BODY: &str = "
  let t = gid(wid, nwg, lid);
  let lo = t * params.s;
  if (lo >= params.nr) { return; }
  let hi = min(lo + params.s, params.nr);
  var steps = 0u;
  for (var g = lo; g < hi; g++) { steps = max(steps, offsets[g + 1u] - offsets[g]); }
  let one = fp_to_mont(fp_raw_one());
  for (var k = 0u; k < steps; k++) {
    // Pass 1: prefix products of the denominators of every bucket that adds a point to a
    // non-empty accumulator this step.
    var prod = one;
    for (var g = lo; g < hi; g++) {
      let e = offsets[g] + k;
      if (e >= offsets[g + 1u]) { continue; }
      let ent = entries[e];
      let px = pt_x(ent);
      let py = pt_y(ent);
      if (fp_is_zero(px) && fp_is_zero(py)) { continue; }
      let ax = acc_x(g);
      let ay = acc_y(g);
      if (fp_is_zero(ax) && fp_is_zero(ay)) { continue; }
      st_scratch(g * W, prod);
      prod = fp_mul(prod, denom(ax, ay, px, py));
    }
    // One inversion for the whole step.
    var inv = fp_inv(prod);
    // Pass 2, in reverse: peel each inverse off the running product and add.
    for (var gg = hi; gg > lo; gg--) {
      let g = gg - 1u;
      let e = offsets[g] + k;
      if (e >= offsets[g + 1u]) { continue; }
      let ent = entries[e];
      let px = pt_x(ent);
      let py = pt_y(ent);
      if (fp_is_zero(px) && fp_is_zero(py)) { continue; }
      let ax = acc_x(g);
      let ay = acc_y(g);
      let b = g * 4u * W;
      if (fp_is_zero(ax) && fp_is_zero(ay)) {
        st_buckets(b, px);
        st_buckets(b + W, py);
        continue;
      }
      let d = denom(ax, ay, px, py);
      let dinv = fp_mul(inv, ld_scratch(g * W));
      inv = fp_mul(inv, d);
      if (fp_eq(ax, px) && !fp_eq(ay, py)) {
        st_buckets(b, fp_zero());
        st_buckets(b + W, fp_zero());
        continue;
      }
      var lambda: Fp;
      if (fp_eq(ax, px)) {
        let xx = fp_sqr(px);
        lambda = fp_mul(fp_add(fp_dbl(xx), xx), dinv);
      } else {
        lambda = fp_mul(fp_sub(py, ay), dinv);
      }
      let x3 = fp_sub(fp_sub(fp_sqr(lambda), ax), px);
      let y3 = fp_sub(fp_mul(lambda, fp_sub(ax, x3)), ay);
      st_buckets(b, x3);
      st_buckets(b + W, y3);
    }
  }
  // To XYZZ: zz = zzz = 1, or 0 for an empty bucket.
  for (var g = lo; g < hi; g++) {
    let b = g * 4u * W;
    var z = one;
    if (fp_is_zero(acc_x(g)) && fp_is_zero(acc_y(g))) { z = fp_zero(); }
    st_buckets(b + 2u * W, z);
    st_buckets(b + 3u * W, z);
  }
}
";

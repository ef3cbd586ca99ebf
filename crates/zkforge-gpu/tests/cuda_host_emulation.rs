//! The generated CUDA kernels (portable multiplication form) compiled as host C++ with g++ and
//! run one thread at a time by an emulated launcher: the field arithmetic against
//! zkforge-field and the whole MSM kernel sequence (sort, accumulate, merge, reduce, the same
//! launches as `cuda.rs`) against zkforge-msm. This checks the kernels' logic on any machine
//! with a C++ compiler (no GPU, no CUDA); the PTX form and the real launches are tested on a
//! GPU by `cuda_msm.rs`. Without g++ the test says so and passes (unless ZKFORGE_REQUIRE_CXX=1,
//! which CI sets).

mod common;
use common::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use zkforge_curve::{bls12_381, bn254, Affine, Jacobian, Xyzz};
use zkforge_gpu::cuda_gen::{cuda_source, HOST_PRELUDE};
use zkforge_gpu::{plan, CudaMul, GpuCurve};

/// The host driver: reads a mode and its inputs as decimal words on stdin, writes words out.
const DRIVER: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <vector>
template <class F> static void launch(u32 threads, u32 block, F f) {
  blockDim.x = block; gridDim.x = (threads + block - 1) / block;
  for (u32 b = 0; b < gridDim.x; b++) for (u32 t = 0; t < block; t++) { blockIdx.x = b; threadIdx.x = t; f(); }
}
static u32 rd() { unsigned v; if (scanf("%u", &v) != 1) { fprintf(stderr, "bad input\n"); exit(2); } return v; }
static void out(const std::vector<u32>& v, size_t n) { for (size_t i = 0; i < n; i++) printf("%u\n", v[i]); }
int main() {
  u32 mode = rd();
  if (mode == 0) {
    u32 n = rd();
    std::vector<u32> src(2 * n * W), dst(6 * n * W + 1);
    for (auto& x : src) x = rd();
    launch(n, 64, [&] { field_ops(src.data(), dst.data(), n); });
    out(dst, 6 * n * W);
    return 0;
  }
  if (mode == 2) {
    // scalar_prep: n, montgomery, then 8 n words.
    u32 n = rd(), mont = rd();
    std::vector<u32> sc(8 * (size_t)n + 1);
    for (size_t i = 0; i < 8 * (size_t)n; i++) sc[i] = rd();
    launch(n, 64, [&] { scalar_prep(sc.data(), n, mont); });
    out(sc, 8 * (size_t)n);
    return 0;
  }
  if (mode == 3) {
    // fold_shift: n copies bits, then 2 W n words (copy 0); out: all copies.
    u32 n = rd(), copies = rd(), bits = rd();
    std::vector<u32> pts(2 * W * (size_t)n * copies + 1, 0xdeadbeef);
    for (size_t i = 0; i < 2 * W * (size_t)n; i++) pts[i] = rd();
    for (u32 k = 1; k < copies; k++) launch(n, 64, [&] { fold_shift(pts.data(), n, (k - 1) * n, k * n, bits); });
    out(pts, 2 * W * (size_t)n * copies);
    return 0;
  }
  // MSM: n c nw sets copies h max_run t l nr block merge_serial roots prefetch, then
  // 2 W n copies point words (the folded tables, copy after copy), then 8 n scalar words.
  u32 n = rd(), c = rd(), nw = rd(), sets = rd(), copies = rd(), h = rd(), mr = rd(), ts = rd(), l = rd(), nr = rd(), blk = rd(), serial = rd(), roots = rd(), pf = rd();
  u32 nb = sets * h, nc = (nb + SCAN_CHUNK - 1) / SCAN_CHUNK;
  std::vector<u32> pts(2 * W * (size_t)n * copies + 4), sc(8 * (size_t)n + 1);
  for (size_t i = 0; i < 2 * W * (size_t)n * copies; i++) pts[i] = rd();
  for (size_t i = 0; i < 8 * (size_t)n; i++) sc[i] = rd();
  std::vector<u32> counts(nb, 0), starts(nb + 1, 0xdeadbeef), bruns(nb + 1, 0xdeadbeef), parts(2 * nc + 1, 0xdeadbeef),
      entries((size_t)n * nw + 1, 0xdeadbeef), offsets(nr + 1, 0xdeadbeef), rbk(nr + 1, 0xdeadbeef), stats(1, 0), sums((size_t)nr * 4 * W + 4, 0xdeadbeef),
      buckets((size_t)nb * 4 * W, 0xdeadbeef), segs(((size_t)sets * ts + (size_t)sets * roots) * 3 * 4 * W, 0xdeadbeef);
  if (n > 0) launch(n, blk, [&] { sort_count(sc.data(), counts.data(), n, c, nw, h, sets); });
  launch(nc, blk, [&] { scan_partial(counts.data(), parts.data(), nb, mr); });
  launch(1, 1, [&] { scan_top(parts.data(), starts.data(), bruns.data(), nb); });
  launch(nc, blk, [&] { scan_final(counts.data(), parts.data(), starts.data(), bruns.data(), nb, mr); });
  launch(nb > nr + 1 ? nb : nr + 1, blk, [&] { sort_runs(counts.data(), starts.data(), bruns.data(), offsets.data(), rbk.data(), stats.data(), nb, nr, mr); });
  for (auto& x : counts) x = 0;
  if (n > 0) launch(n, blk, [&] { sort_scatter(sc.data(), counts.data(), starts.data(), entries.data(), n, c, nw, h, 0, sets, n); });
  if (pf) launch(nr, blk, [&] { acc_xyzz_prefetch(pts.data(), entries.data(), offsets.data(), sums.data(), nr); });
  else launch(nr, blk, [&] { acc_xyzz(pts.data(), entries.data(), offsets.data(), sums.data(), nr); });
  // plan::fold_passes
  u32 passes = 0;
  while (passes < 31 && (stats[0] + (1u << passes) - 1) / (1u << passes) > serial) passes++;
  for (u32 p = 0; p < passes; p++) launch(nr, blk, [&] { fold_runs(sums.data(), bruns.data(), rbk.data(), nr, nb, 1u << p); });
  launch(nb, blk, [&] { merge_runs(sums.data(), bruns.data(), buckets.data(), nb, 1u << passes); });
  launch(sets * ts, 64, [&] { reduce_segments(buckets.data(), segs.data(), sets, ts, l, h); });
  // The segment tree (CudaConfig::combine = Gpu) down to `roots` triples a window, which go out.
  u32 levels = 0;
  while ((roots << levels) < ts) levels++;
  for (u32 k = 0; k < levels; k++) launch(sets * (ts >> (k + 1)), 64, [&] { tree_segments(segs.data(), sets * ts, sets, ts, k, roots); });
  size_t from = levels == 0 ? 0 : (size_t)sets * ts * 12 * W;
  for (size_t i = 0; i < (size_t)sets * roots * 12 * W; i++) printf("%u\n", segs[from + i]);
  return 0;
}
"#;

fn have_gxx() -> bool {
    Command::new("g++").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

/// Compiles the driver for curve C once per test process.
fn build<C: GpuCurve>(tag: &str) -> Option<PathBuf> {
    if !have_gxx() {
        assert!(std::env::var("ZKFORGE_REQUIRE_CXX").as_deref() != Ok("1"), "ZKFORGE_REQUIRE_CXX=1 but g++ is missing");
        eprintln!("skipping: no g++ here");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("zkforge-cuda-emu-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("emu.cpp");
    let bin = dir.join("emu");
    std::fs::write(&src, format!("{HOST_PRELUDE}\n{}\n{DRIVER}", cuda_source(C::spec(), C::scalar_spec(), CudaMul::Portable))).unwrap();
    let t = std::time::Instant::now();
    let st = Command::new("g++").args(["-O1", "-std=c++17", "-fno-strict-aliasing", "-w", "-o"]).arg(&bin).arg(&src).status().unwrap();
    assert!(st.success(), "g++ failed on {}", src.display());
    eprintln!("{tag}: g++ built the emulator in {:?}", t.elapsed());
    Some(bin)
}

fn run(bin: &PathBuf, input: &[u32]) -> Vec<u32> {
    let mut child = Command::new(bin).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    {
        let mut stdin = std::io::BufWriter::new(child.stdin.take().unwrap());
        for x in input {
            writeln!(stdin, "{x}").unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap().lines().map(|l| l.parse().unwrap()).collect()
}

fn field<C: GpuCurve<Base = zkforge_field::mont::Fp<F, N>>, F: zkforge_field::mont::FieldConfig<N>, const N: usize>(bin: &PathBuf, r: &mut StdRng) {
    let (pairs, words) = field_pairs::<C, F, N>(r, 60);
    let mut input = vec![0u32, pairs.len() as u32];
    input.extend(&words);
    check_field_out::<C, F, N>(&pairs, &run(bin, &input), "host emulation");
}

/// `scalar_prep` against zkforge: Montgomery limbs of field elements (random, 0, 1, -1) to
/// their values, and raw integers (random, 2^256 - 1, every multiple j r below 2^256 and its
/// neighbours) to their residues.
fn scalars<C: GpuCurve<Scalar = zkforge_field::mont::Fp<F, 4>>, F: zkforge_field::mont::FieldConfig<4>>(bin: &PathBuf, r: &mut StdRng) {
    use zkforge_field::mont::Fp;
    let words = |v: &[[u64; 4]]| -> Vec<u32> { v.iter().flat_map(|k| k.iter().flat_map(|&l| [l as u32, (l >> 32) as u32])).collect() };
    let limbs = |w: &[u32]| -> Vec<[u64; 4]> { w.chunks(8).map(|w| core::array::from_fn(|i| w[2 * i] as u64 | (w[2 * i + 1] as u64) << 32)).collect() };
    let fr: Vec<Fp<F, 4>> = field_scalars(r, 43);
    let mont: Vec<[u64; 4]> = fr.iter().map(|k| k.to_mont_limbs()).collect();
    let mut input = vec![2u32, fr.len() as u32, 1];
    input.extend(words(&mont));
    let got = limbs(&run(bin, &input));
    for (k, got) in fr.iter().zip(&got) {
        assert_eq!(*got, k.to_limbs(), "Montgomery limbs of {k:?}");
    }
    let mut raw: Vec<[u64; 4]> = (0..40).map(|_| [r.gen(), r.gen(), r.gen(), r.gen()]).collect();
    raw.extend(order_multiples::<C>());
    let mut input = vec![2u32, raw.len() as u32, 0];
    input.extend(words(&raw));
    let got = limbs(&run(bin, &input));
    for (k, got) in raw.iter().zip(&got) {
        assert_eq!(*got, zkforge_curve::scalar_mul::reduce_scalar::<C>(k), "integer {k:x?}");
    }
}

/// One MSM through the emulated kernels, with both accumulation kernels (`prefetch` off and on).
fn msm<C: GpuCurve>(bin: &PathBuf, pts: &[Affine<C>], sc: &[[u64; 4]], c: u32, max_run: u32, segments: u32, block: u32) {
    for prefetch in [false, true] {
        msm_with(bin, pts, sc, c, max_run, segments, block, 16, 32, prefetch);
    }
}

#[allow(clippy::too_many_arguments)]
fn msm_serial<C: GpuCurve>(bin: &PathBuf, pts: &[Affine<C>], sc: &[[u64; 4]], c: u32, max_run: u32, segments: u32, block: u32, serial: u32, roots: u32) {
    msm_with(bin, pts, sc, c, max_run, segments, block, serial, roots, false);
}

#[allow(clippy::too_many_arguments)]
fn msm_with<C: GpuCurve>(bin: &PathBuf, pts: &[Affine<C>], sc: &[[u64; 4]], c: u32, max_run: u32, segments: u32, block: u32, serial: u32, roots: u32, prefetch: bool) {
    msm_folded(bin, pts, sc, c, max_run, segments, block, serial, roots, prefetch, None);
}

/// One MSM through the emulated kernels, on bases folded into `sets` bucket sets
/// (`plan::FoldTables`, as `CudaMsm::upload_bases_folded` uploads them) or plain (`None`).
#[allow(clippy::too_many_arguments)]
fn msm_folded<C: GpuCurve>(bin: &PathBuf, pts: &[Affine<C>], sc: &[[u64; 4]], c: u32, max_run: u32, segments: u32, block: u32, serial: u32, roots: u32, prefetch: bool, sets: Option<usize>) {
    let w = C::WORDS;
    let n = pts.len();
    let reduced: Vec<[u64; 4]> = sc.iter().map(|k| zkforge_curve::scalar_mul::reduce_scalar::<C>(k)).collect();
    let nw = plan::windows(c);
    let fold = plan::Fold::new(c, sets.unwrap_or(nw)).unwrap();
    let tables = if sets.is_some() { plan::FoldTables::new(pts, fold).points().to_vec() } else { pts.to_vec() };
    assert_eq!(tables.len(), n * fold.copies);
    let h = 1usize << (c - 1);
    let nr = zkforge_gpu::sort_kernels::runs_bound(n, nw, fold.sets * h, max_run);
    let t = (segments as usize).min(h);
    let l = h / t;
    let roots = (roots as usize).min(t);
    let mut input = vec![1u32, n as u32, c, nw as u32, fold.sets as u32, fold.copies as u32, h as u32, max_run, t as u32, l as u32, nr as u32, block, serial, roots as u32, u32::from(prefetch)];
    for p in &tables {
        let mut a = vec![0u32; w];
        C::to_mont_words(&p.x(), &mut a);
        input.extend(&a);
        C::to_mont_words(&p.y(), &mut a);
        input.extend(&a);
    }
    for k in &reduced {
        input.extend(k.iter().flat_map(|&l| [l as u32, (l >> 32) as u32]));
    }
    let out = run(bin, &input);
    let segs: Vec<Xyzz<C>> = out
        .chunks(4 * w)
        .map(|p| {
            let f = |k: usize| C::from_mont_words(&p[k * w..(k + 1) * w]);
            Xyzz::from_xyzz_unchecked(f(0), f(1), f(2), f(3))
        })
        .collect();
    let tri: Vec<[Xyzz<C>; 3]> = segs.chunks(3).map(|t| [t[0], t[1], t[2]]).collect();
    let windows: Vec<Xyzz<C>> = tri.chunks(roots).map(|r| plan::combine_roots(r, l)).collect();
    let got = plan::combine_windows(&windows, c);
    let want: Jacobian<C> = zkforge_msm::msm(pts, &reduced).unwrap();
    assert_eq!(windows.len(), fold.sets);
    assert_eq!(got, want, "n {n} c {c} max_run {max_run} segments {segments} block {block} merge_serial {serial} roots {roots} prefetch {prefetch} sets {sets:?}");
}

/// `fold_shift` (the device build of folded bases, `CudaMsm::upload_bases_folded`) against
/// `plan::FoldTables::new`, word for word, identities and repeated points among the bases.
fn fold_shift<C: GpuCurve>(bin: &PathBuf, r: &mut StdRng) {
    let w = C::WORDS;
    let pts = awkward::<C>(r, 90);
    for (c, sets) in [(16u32, 1usize), (5, 3), (2, 1), (13, 19), (20, 1), (17, 2)] {
        let fold = plan::Fold::new(c, sets).unwrap();
        let mut input = vec![3u32, pts.len() as u32, fold.copies as u32, c * fold.sets as u32];
        let words = |p: &Affine<C>| -> Vec<u32> {
            let mut a = vec![0u32; 2 * w];
            C::to_mont_words(&p.x(), &mut a[..w]);
            C::to_mont_words(&p.y(), &mut a[w..]);
            a
        };
        for p in &pts {
            input.extend(words(p));
        }
        let got = run(bin, &input);
        let want: Vec<u32> = plan::FoldTables::new(&pts, fold).points().iter().flat_map(words).collect();
        assert_eq!(got.len(), want.len());
        assert!(got == want, "fold_shift c {c} sets {sets}");
    }
}

fn msm_cases<C: GpuCurve>(bin: &PathBuf) {
    let seed: u64 = rand::random();
    eprintln!("seed {seed}");
    let mut r = StdRng::seed_from_u64(seed);
    msm::<C>(bin, &[], &[], 4, 64, 256, 128);
    for (n, c, max_run, segments, block) in [(1usize, 4u32, 64u32, 256u32, 128u32), (2, 2, 1, 1, 32), (17, 3, 2, 2, 64), (100, 5, 5, 8, 128), (300, 8, 64, 64, 256), (400, 11, 3, 4096, 1024), (150, 16, 100_000, 1024, 128), (257, 7, u32::MAX, 16, 32)] {
        let pts = awkward::<C>(&mut r, n);
        let sc: Vec<[u64; 4]> = (0..n).map(|_| [r.gen(), r.gen(), r.gen(), r.gen()]).collect();
        msm::<C>(bin, &pts, &sc, c, max_run, segments, block);
    }
    // Equal scalars (one bucket per window, doublings), zeros, r - 1 next to 1.
    let pts = awkward::<C>(&mut r, 120);
    let k: [u64; 4] = [r.gen(), r.gen(), r.gen(), r.gen()];
    msm::<C>(bin, &pts, &vec![k; 120], 6, 16, 8, 64);
    // Tree merges (CudaConfig::merge_serial): one bucket a window of 1 to 120 runs, folded
    // down to 1, 2, 3 or 16 sums a merge thread, or never folded.
    for (max_run, serial) in [(1u32, 1u32), (1, 2), (1, 3), (2, 1), (3, 16), (1, u32::MAX), (7, 2)] {
        msm_serial::<C>(bin, &pts, &vec![k; 120], 6, max_run, 8, 64, serial, 32);
    }
    let sc: Vec<[u64; 4]> = (0..120).map(|i| if i % 3 == 0 { k } else { [r.gen(), r.gen(), r.gen(), r.gen()] }).collect();
    msm_serial::<C>(bin, &pts, &sc, 4, 1, 8, 32, 1, 32);
    // The GPU segment tree run to every depth: 1, 2, 4 ... 64 roots a window of 64 segments.
    let sc: Vec<[u64; 4]> = (0..120).map(|_| [r.gen(), r.gen(), r.gen(), r.gen()]).collect();
    for roots in [1u32, 2, 4, 16, 64] {
        msm_serial::<C>(bin, &pts, &sc, 8, 4, 64, 64, 16, roots);
    }
    msm::<C>(bin, &pts, &vec![[0; 4]; 120], 6, 16, 8, 64);
    let mut rm1 = C::ORDER;
    rm1[0] -= 1;
    let sc: Vec<[u64; 4]> = (0..120).map(|i| if i % 2 == 0 { rm1 } else { [1, 0, 0, 0] }).collect();
    msm::<C>(bin, &pts, &sc, 9, 4, 32, 64);
    let same = vec![pts[0]; 40];
    msm::<C>(bin, &same, &vec![k; 40], 5, 64, 4, 64);
    // Folded bases (CudaMsm::upload_bases_folded): every window into one bucket set, two, three,
    // one short of the window count and the window count itself (one copy: the plain method),
    // with random scalars, r - 1 next to 1, one scalar repeated, and the identities and
    // repeated points of `awkward`.
    for (c, sets) in [(4u32, 1usize), (5, 2), (8, 3), (13, 1), (16, 1), (16, 15), (11, 24), (7, 36)] {
        let nw = plan::windows(c);
        let sets = sets.min(nw);
        let sc: Vec<[u64; 4]> = (0..120).map(|_| [r.gen(), r.gen(), r.gen(), r.gen()]).collect();
        msm_folded::<C>(bin, &pts, &sc, c, 4, 16, 64, 16, 8, c % 2 == 0, Some(sets));
    }
    let sc: Vec<[u64; 4]> = (0..120).map(|i| if i % 2 == 0 { rm1 } else { [1, 0, 0, 0] }).collect();
    msm_folded::<C>(bin, &pts, &sc, 9, 4, 32, 64, 2, 1, false, Some(2));
    msm_folded::<C>(bin, &pts, &vec![k; 120], 6, 2, 8, 64, 1, 4, true, Some(1));
    msm_folded::<C>(bin, &[], &[], 10, 4, 8, 64, 16, 8, false, Some(1));
    // Wide windows (above 16), what folding is for: 2^19 buckets in one set, and two sets of
    // 2^16 with the last window's digits alone in one.
    let sc: Vec<[u64; 4]> = (0..120).map(|_| [r.gen(), r.gen(), r.gen(), r.gen()]).collect();
    msm_folded::<C>(bin, &pts, &sc, 20, 4, 1 << 15, 64, 16, 32, false, Some(1));
    msm_folded::<C>(bin, &pts, &sc, 17, 16, 4096, 128, 2, 1, true, Some(2));
}

/// `iters` MSMs through the emulated kernels with every launch parameter drawn at random (window,
/// run length, segments, block, merge run, tree roots, prefetch, folded bases) and a random scalar shape
/// (`common::scalar_shape`), against zkforge-msm.
fn random_msm_cases<C: GpuCurve>(bin: &PathBuf, iters: usize) {
    let seed: u64 = rand::random();
    eprintln!("random cases: seed {seed}");
    let mut r = StdRng::seed_from_u64(seed);
    let pts = awkward::<C>(&mut r, 400);
    for _ in 0..iters {
        let n = r.gen_range(0..=400usize);
        let sc = scalar_shape::<C>(&mut r, n);
        // One in ten a wide window (17..=20) on bases folded into one to three sets.
        let wide = r.gen_ratio(1, 10);
        let c = if wide { r.gen_range(17..=20u32) } else { r.gen_range(2..=16u32) };
        let max_run = if r.gen_ratio(1, 8) { u32::MAX } else { r.gen_range(1..=70) };
        let serial = if r.gen_ratio(1, 8) { u32::MAX } else { r.gen_range(1..=20) };
        let seg_log = if wide { r.gen_range(c - 9..=c - 1) } else { r.gen_range(0..=12) };
        let (segments, block, roots) = (1u32 << seg_log, 32u32 << r.gen_range(0..=5), 1u32 << r.gen_range(0..=11));
        // Half the other cases on folded bases, any number of bucket sets.
        let sets = if wide { Some(r.gen_range(1..=3)) } else { r.gen_bool(0.5).then(|| r.gen_range(1..=plan::windows(c))) };
        msm_folded(bin, &pts[..n], &sc, c, max_run, segments, block, serial, roots, r.gen(), sets);
    }
}

/// The random cases as a soak run by hand: `ZKFORGE_EMU_SOAK=N cargo test --release -p
/// zkforge-gpu --test cuda_host_emulation soak -- --ignored` (N a curve, default 200).
#[test]
#[ignore]
fn random_cases_soak() {
    let iters = std::env::var("ZKFORGE_EMU_SOAK").ok().and_then(|s| s.parse().ok()).unwrap_or(200);
    if let Some(bin) = build::<bn254::G1Config>("bn254-soak") {
        random_msm_cases::<bn254::G1Config>(&bin, iters);
    }
    if let Some(bin) = build::<bls12_381::G1Config>("bls12_381-soak") {
        random_msm_cases::<bls12_381::G1Config>(&bin, iters);
    }
}

#[test]
fn bn254_kernels_on_the_host() {
    let Some(bin) = build::<bn254::G1Config>("bn254") else { return };
    let mut r = StdRng::seed_from_u64(rand::random());
    field::<bn254::G1Config, _, 4>(&bin, &mut r);
    scalars::<bn254::G1Config, _>(&bin, &mut r);
    fold_shift::<bn254::G1Config>(&bin, &mut r);
    msm_cases::<bn254::G1Config>(&bin);
    random_msm_cases::<bn254::G1Config>(&bin, 6);
}

#[test]
fn bls12_381_kernels_on_the_host() {
    let Some(bin) = build::<bls12_381::G1Config>("bls12_381") else { return };
    let mut r = StdRng::seed_from_u64(rand::random());
    field::<bls12_381::G1Config, _, 6>(&bin, &mut r);
    scalars::<bls12_381::G1Config, _>(&bin, &mut r);
    fold_shift::<bls12_381::G1Config>(&bin, &mut r);
    msm_cases::<bls12_381::G1Config>(&bin);
    random_msm_cases::<bls12_381::G1Config>(&bin, 4);
}

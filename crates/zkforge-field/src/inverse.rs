//! Modular inversion by Bernstein-Yang "safegcd" divsteps (ePrint 2019/266), batched 62
//! divsteps at a time on signed 62-bit limbs, following the structure described in
//! libsecp256k1's `doc/safegcd_implementation.md` (transition matrices applied to (f, g) and
//! to (d, e) with the division by 2^62 done mod p).
//!
//! The steps are Wuille's "hddivsteps" (delta starts at 1/2 instead of 1; github.com/sipa/
//! safegcd-bounds), which need about 18 % fewer iterations than Bernstein-Yang's bound:
//! 878 for 381-bit moduli (15 batches of 62) against 1101 (18 batches).
//!
//! Constant-time version: a fixed number of batches derived from the modulus bit length by
//! that bound (`hddivsteps_bound`), branch-free steps. The `_vartime` version runs the
//! original divsteps in variable time (runs of zeros skipped, up to six bits cancelled per odd
//! step, libsecp256k1's method) and stops as soon as g = 0.
//!
//! The default step loop packs each row of the 2x2 transition matrix into one word (Pornin's
//! packed update factors, ePrint 2020/972): two runs of 30 steps per batch of 60, their
//! matrices multiplied, 20 word operations a step against 27 for four separate matrix words.
//! On x86-64 the default runs those packed steps in assembly that selects with conditional moves
//! (a three-cycle f-g chain instead of six mask operations; 0.73x the time of the portable packed
//! steps on Zen 5). `backend::set_inverse_steps` chooses; all forms are tested against each other.
//!
//! Cost: per batch, 60 or 62 branch-free steps on 64-bit words plus two 2x2 matrix products on
//! L = ceil(64N / 62) limbs. Input and output are in Montgomery form: the plain-integer
//! inverse of aR is multiplied by R^3 (one Montgomery product) to give a^-1 R.

use alloc::vec;
use subtle::{ConstantTimeEq, CtOption};

use crate::backend::StepForm;
use crate::limbs;
use crate::mont::{FieldConfig, Fp};

const M62: u64 = u64::MAX >> 2;

/// A 2x2 transition matrix scaled by 2^62: [u v; q r].
#[derive(Clone, Copy)]
struct Trans {
    u: i64,
    v: i64,
    q: i64,
    r: i64,
}

/// Signed 62-bit limb representation, up to 8 limbs (only the first L are used).
type S62 = [i64; 8];

const fn s62_len(n: usize) -> usize {
    (64 * n).div_ceil(62)
}

fn to_s62<const N: usize>(a: &[u64; N]) -> S62 {
    let mut r = [0i64; 8];
    let l = s62_len(N);
    for (i, limb) in r.iter_mut().enumerate().take(l) {
        let bit = 62 * i;
        let w = bit / 64;
        let sh = bit % 64;
        let mut x = a[w] >> sh;
        if sh > 2 && w + 1 < N {
            x |= a[w + 1] << (64 - sh);
        }
        *limb = (x & M62) as i64;
    }
    r
}

fn from_s62<const N: usize>(a: &S62) -> [u64; N] {
    // a is normalised: every limb in [0, 2^62), value < 2^(64N)
    let mut r = [0u64; N];
    let l = s62_len(N);
    for (i, &limb) in a.iter().enumerate().take(l) {
        let x = limb as u64;
        let bit = 62 * i;
        let w = bit / 64;
        let sh = bit % 64;
        if w < N {
            r[w] |= x << sh;
        }
        if sh > 2 && w + 1 < N {
            r[w + 1] |= x >> (64 - sh);
        }
    }
    r
}

/// 62 branch-free "hddivsteps" (half-delta divsteps, safegcd-bounds README) on the low words
/// of f and g. delta starts at 1/2 and is kept as zeta = -(delta + 1/2), so delta > 0 is
/// zeta < 0:
/// if delta > 0 and g odd: (delta, f, g) <- (1 - delta, g, (g - f) / 2)
/// elif g odd:             (delta, f, g) <- (1 + delta, f, (g + f) / 2)
/// else:                   (delta, f, g) <- (1 + delta, f, g / 2)
/// The matrix tracks 2^k f_k = u f_0 + v g_0, 2^k g_k = q f_0 + r g_0.
///
/// Per step: g += (+-f if g odd); on a swap also f += g (which turns f into the old g);
/// then halve g and double (u, v). 17 word operations, no branch.
///
/// `steps` (at most 62, public) is the number of steps taken; the matrix is then scaled by
/// 2^(62 - steps) so that it is a 2^62-scaled transition like a full batch's (the last batch
/// of an inversion takes only the steps the bound still needs).
#[inline(always)]
fn divsteps_62(mut zeta: i64, f0: u64, g0: u64, steps: u32) -> (i64, Trans) {
    let (mut f, mut g) = (f0, g0);
    let (mut u, mut v, mut q, mut r): (u64, u64, u64, u64) = (1, 0, 0, 1);
    for _ in 0..steps {
        // c1: all ones when delta > 0; then x, y, z = -f, -u, -v, else f, u, v
        let c1 = (zeta >> 63) as u64;
        let x = (f ^ c1).wrapping_sub(c1);
        let y = (u ^ c1).wrapping_sub(c1);
        let z = (v ^ c1).wrapping_sub(c1);
        // c2: all ones when g is odd
        let c2 = 0u64.wrapping_sub(g & 1);
        g = g.wrapping_add(x & c2);
        q = q.wrapping_add(y & c2);
        r = r.wrapping_add(z & c2);
        // swap (delta > 0 and g odd): zeta <- -zeta - 2, (f, u, v) <- old (g, q, r)
        let swap = c1 & c2;
        zeta = (zeta ^ swap as i64).wrapping_sub(1);
        f = f.wrapping_add(g & swap);
        u = u.wrapping_add(q & swap);
        v = v.wrapping_add(r & swap);
        g >>= 1;
        u <<= 1;
        v <<= 1;
    }
    // the matrix is scaled by 2^steps: bring it to 2^62 (entries stay within 2^62 in size)
    let k = 62 - steps;
    (zeta, Trans { u: (u << k) as i64, v: (v << k) as i64, q: (q << k) as i64, r: (r << k) as i64 })
}

/// `steps` (at most 30, public) hddivsteps like [`divsteps_62`], with each row of the
/// transition matrix packed into one word: uv = u + 2^32 v and qr = q + 2^32 r. Every update of
/// the rows is linear (negate, add, mask with all ones or zero, double), so it acts on both
/// entries of a packed row at once and a step costs 20 word operations instead of 27 (measured
/// effect in BENCHMARKS.md: the step is bound by its f-g dependency chain more than by the
/// operation count, so the gain is smaller than the count suggests). After k
/// steps every entry is at most 2^k in size, so after 30 both entries of a row unpack exactly
/// from their signed 32-bit fields (at 31, u = 2^31 and v = 0 would not). The same packing of
/// the update factors is Pornin's (ePrint 2020/972, section 3), applied here to the divsteps.
///
/// Returns zeta and the matrix scaled by 2^steps (not rescaled).
#[inline(always)]
fn divsteps_packed(mut zeta: i64, f0: u64, g0: u64, steps: u32) -> (i64, Trans) {
    let (mut f, mut g) = (f0, g0);
    let (mut uv, mut qr): (u64, u64) = (1, 1 << 32);
    for _ in 0..steps {
        let c1 = (zeta >> 63) as u64;
        let x = (f ^ c1).wrapping_sub(c1);
        let y = (uv ^ c1).wrapping_sub(c1);
        let c2 = 0u64.wrapping_sub(g & 1);
        g = g.wrapping_add(x & c2);
        qr = qr.wrapping_add(y & c2);
        let swap = c1 & c2;
        zeta = (zeta ^ swap as i64).wrapping_sub(1);
        f = f.wrapping_add(g & swap);
        uv = uv.wrapping_add(qr & swap);
        g >>= 1;
        uv <<= 1;
    }
    (zeta, unpack_rows(uv, qr))
}

/// The matrix from its packed rows uv = u + 2^32 v and qr = q + 2^32 r (signed 32-bit fields).
#[inline(always)]
fn unpack_rows(uv: u64, qr: u64) -> Trans {
    let unpack = |w: u64| {
        let lo = ((w as i64) << 32) >> 32;
        (lo, (w as i64).wrapping_sub(lo) >> 32)
    };
    let (u, v) = unpack(uv);
    let (q, r) = unpack(qr);
    Trans { u, v, q, r }
}

/// [`divsteps_packed`] with the selections made by conditional moves in x86-64 assembly: the
/// same steps, the same results (the tests compare the two on every field). Per step, with x =
/// f or -f and y = uv or -uv chosen by the sign of zeta: the swap (zeta < 0 and g odd) moves g
/// into f, qr into uv and -zeta - 2 into zeta; an odd g takes g + x and qr takes qr + y; then
/// g is halved and uv doubled. The f-g chain is an add, a cmov and a shift (three cycles)
/// instead of the masks' six operations. Constant time: no branch depends on the data (the loop
/// counter is public), and `cmov` runs in the same time whichever way it selects.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn divsteps_packed_cmov(zeta: i64, f0: u64, g0: u64, steps: u32) -> (i64, Trans) {
    if steps == 0 {
        return (zeta, Trans { u: 1, v: 0, q: 0, r: 1 });
    }
    let mut zeta = zeta;
    let (mut uv, mut qr): (u64, u64) = (1, 1 << 32);
    // SAFETY: register-only arithmetic (no memory operand, no stack use); every register the
    // template writes is declared as an output or a clobbered temporary, the flags are
    // clobbered (no `preserves_flags`), and the loop ends after `cnt` >= 1 turns.
    unsafe {
        core::arch::asm!(
            "2:",
            "mov {x}, {f}",
            "neg {x}",
            "mov {y}, {uv}",
            "neg {y}",
            "mov {zs}, {zeta}",
            "shr {zs}, 63",
            "mov {zn}, -2",
            "sub {zn}, {zeta}",
            "test {zeta}, {zeta}",
            "cmovns {x}, {f}",
            "cmovns {y}, {uv}",
            "add {x}, {g}",
            "add {y}, {qr}",
            "sub {zeta}, 1",
            "test {g}, {zs}",
            "cmovnz {f}, {g}",
            "cmovnz {uv}, {qr}",
            "cmovnz {zeta}, {zn}",
            "test {g}, 1",
            "cmovnz {g}, {x}",
            "cmovnz {qr}, {y}",
            "shr {g}, 1",
            "add {uv}, {uv}",
            "dec {cnt}",
            "jnz 2b",
            zeta = inout(reg) zeta,
            f = inout(reg) f0 => _,
            g = inout(reg) g0 => _,
            uv = inout(reg) uv,
            qr = inout(reg) qr,
            cnt = inout(reg) steps as u64 => _,
            x = out(reg) _,
            y = out(reg) _,
            zs = out(reg) _,
            zn = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    (zeta, unpack_rows(uv, qr))
}

/// One packed run of `steps` hddivsteps, in assembly with conditional moves when `CMOV` (and the
/// target is x86-64), else in portable Rust.
#[inline(always)]
fn packed_run<const CMOV: bool>(zeta: i64, f0: u64, g0: u64, steps: u32) -> (i64, Trans) {
    #[cfg(target_arch = "x86_64")]
    if CMOV {
        return divsteps_packed_cmov(zeta, f0, g0, steps);
    }
    divsteps_packed(zeta, f0, g0, steps)
}

/// Up to 60 hddivsteps as two packed runs of at most 30 ([`divsteps_packed`]): the low words of
/// f and g after the first run come from its matrix ((u f + v g) / 2^h, exact in its low 64 - h
/// bits, and the second run reads only its low 30), and the two matrices are multiplied
/// (entries at most 2^60). The product is rescaled to 2^62 like [`divsteps_62`]'s.
#[inline(always)]
fn divsteps_60_packed<const CMOV: bool>(zeta: i64, f0: u64, g0: u64, steps: u32) -> (i64, Trans) {
    let h1 = steps.min(30);
    let h2 = steps - h1;
    let (zeta, a) = packed_run::<CMOV>(zeta, f0, g0, h1);
    let f1 = ((a.u as u64).wrapping_mul(f0).wrapping_add((a.v as u64).wrapping_mul(g0))) >> h1;
    let g1 = ((a.q as u64).wrapping_mul(f0).wrapping_add((a.r as u64).wrapping_mul(g0))) >> h1;
    let (zeta, b) = packed_run::<CMOV>(zeta, f1, g1, h2);
    let k = 62 - steps;
    let m = Trans {
        u: (b.u * a.u + b.v * a.q) << k,
        v: (b.u * a.v + b.v * a.r) << k,
        q: (b.q * a.u + b.r * a.q) << k,
        r: (b.q * a.v + b.r * a.r) << k,
    };
    (zeta, m)
}

/// 62 divsteps (Bernstein-Yang's original delta form, kept as eta = -delta) in variable time,
/// for public inputs only (libsecp256k1's `doc/safegcd_implementation.md`, section 7): runs of
/// zero bits of g are skipped with one trailing-zero count, and after a (possible) swap up to
/// six low bits of g are cancelled at once by adding w f with w = -g / f mod 2^k, where
/// -1 / f mod 64 = f (f^2 - 2) for odd f (one Newton step from f^-1 = f mod 8). Same matrix
/// convention as [`divsteps_62`].
#[inline(always)]
fn divsteps_62_var(mut eta: i64, f0: u64, g0: u64) -> (i64, Trans) {
    let (mut f, mut g) = (f0, g0);
    let (mut u, mut v, mut q, mut r): (u64, u64, u64, u64) = (1, 0, 0, 1);
    let mut i: u32 = 62;
    loop {
        // zeros = min(i, trailing zeros of g): the bits above i are forced to one
        let zeros = (g | (u64::MAX << i)).trailing_zeros();
        g >>= zeros;
        u <<= zeros;
        v <<= zeros;
        eta -= zeros as i64;
        i -= zeros;
        if i == 0 {
            break;
        }
        // g is odd: when delta > 0 (eta < 0) swap, (f, g) <- (g, -f) and the rows with them
        if eta < 0 {
            eta = -eta;
            let (tf, tu, tv) = (f, u, v);
            f = g;
            u = q;
            v = r;
            g = tf.wrapping_neg();
            q = tu.wrapping_neg();
            r = tv.wrapping_neg();
        }
        // cancel min(eta + 1, i, 6) low bits of g: g += w f with w = -g / f mod 2^limit
        let limit = (eta + 1).min(i as i64).min(6) as u32;
        let mask = (u64::MAX >> (64 - limit)) & 63;
        let w = f.wrapping_mul(g).wrapping_mul(f.wrapping_mul(f).wrapping_sub(2)) & mask;
        g = g.wrapping_add(f.wrapping_mul(w));
        q = q.wrapping_add(u.wrapping_mul(w));
        r = r.wrapping_add(v.wrapping_mul(w));
    }
    (eta, Trans { u: u as i64, v: v as i64, q: q as i64, r: r as i64 })
}

/// `x` unchanged, with what the optimiser knows of its bits forgotten. The limbs of f, g, d and
/// e are in [0, 2^62) after a carry step, and knowing that, LLVM multiplies them by the signed
/// matrix entries as unsigned 64 x 64 products with a sign correction (three instructions and a
/// spilled sign mask); not knowing it, it emits one signed `imul`. The product is the same
/// either way (a non-negative limb below 2^63 is the same value signed or unsigned).
#[inline(always)]
fn opaque(x: i64) -> i64 {
    #[cfg(target_arch = "x86_64")]
    {
        let mut y = x;
        // SAFETY: the template is a comment, so no instruction runs: nothing in memory, on the
        // stack or in the flags is touched, and `y` leaves the block with the value it entered.
        unsafe { core::arch::asm!("/* {0} */", inout(reg) y, options(pure, nomem, nostack, preserves_flags)) };
        y
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        x
    }
}

/// (f, g) <- ([u v; q r] (f, g)) / 2^62, exact.
#[inline(always)]
fn update_fg(f: &mut S62, g: &mut S62, t: &Trans, l: usize) {
    let (u, v, q, r) = (t.u as i128, t.v as i128, t.q as i128, t.r as i128);
    let (f0, g0) = (opaque(f[0]) as i128, opaque(g[0]) as i128);
    let mut cf = u * f0 + v * g0;
    let mut cg = q * f0 + r * g0;
    cf >>= 62;
    cg >>= 62;
    for i in 1..l {
        let (fi, gi) = (opaque(f[i]) as i128, opaque(g[i]) as i128);
        cf += u * fi + v * gi;
        cg += q * fi + r * gi;
        f[i - 1] = (cf as u64 & M62) as i64;
        g[i - 1] = (cg as u64 & M62) as i64;
        cf >>= 62;
        cg >>= 62;
    }
    f[l - 1] = cf as i64;
    g[l - 1] = cg as i64;
}

/// (d, e) <- ([u v; q r] (d, e)) / 2^62 mod p, keeping both in (-2p, p).
#[inline(always)]
fn update_de(d: &mut S62, e: &mut S62, t: &Trans, p: &S62, inv62: u64, l: usize) {
    let (u, v, q, r) = (t.u, t.v, t.q, t.r);
    let sd = d[l - 1] >> 63;
    let se = e[l - 1] >> 63;
    // add p * (u, q) when d < 0 and p * (v, r) when e < 0
    let mut md = (u & sd).wrapping_add(v & se);
    let mut me = (q & sd).wrapping_add(r & se);
    let (u, v, q, r) = (u as i128, v as i128, q as i128, r as i128);
    let (d0, e0) = (opaque(d[0]) as i128, opaque(e[0]) as i128);
    let mut cd = u * d0 + v * e0;
    let mut ce = q * d0 + r * e0;
    // choose md, me so that the low 62 bits of cd + md*p and ce + me*p vanish
    md = md.wrapping_sub((inv62.wrapping_mul(cd as u64).wrapping_add(md as u64) & M62) as i64);
    me = me.wrapping_sub((inv62.wrapping_mul(ce as u64).wrapping_add(me as u64) & M62) as i64);
    cd += p[0] as i128 * md as i128;
    ce += p[0] as i128 * me as i128;
    debug_assert_eq!(cd as u64 & M62, 0);
    debug_assert_eq!(ce as u64 & M62, 0);
    cd >>= 62;
    ce >>= 62;
    for i in 1..l {
        let (di, ei) = (opaque(d[i]) as i128, opaque(e[i]) as i128);
        cd += u * di + v * ei + p[i] as i128 * md as i128;
        ce += q * di + r * ei + p[i] as i128 * me as i128;
        d[i - 1] = (cd as u64 & M62) as i64;
        e[i - 1] = (ce as u64 & M62) as i64;
        cd >>= 62;
        ce >>= 62;
    }
    d[l - 1] = cd as i64;
    e[l - 1] = ce as i64;
}

/// d in (-2p, p) and the sign of f (f = +-1) -> d * f mod p in [0, p), all limbs normalised.
fn normalize(d: &mut S62, f_neg: i64, p: &S62, l: usize) {
    // 1. d < 0: d += p
    let sd = d[l - 1] >> 63;
    for i in 0..l {
        d[i] += p[i] & sd;
    }
    // 2. negate when f < 0
    for x in d.iter_mut().take(l) {
        *x = (*x ^ f_neg).wrapping_sub(f_neg);
    }
    carry_propagate(d, l);
    // 3. d < 0: d += p
    let sd = d[l - 1] >> 63;
    for i in 0..l {
        d[i] += p[i] & sd;
    }
    carry_propagate(d, l);
}

fn carry_propagate(d: &mut S62, l: usize) {
    for i in 0..l - 1 {
        let c = d[i] >> 62;
        d[i] &= M62 as i64;
        d[i + 1] += c;
    }
}

/// Number of hddivsteps that always suffice for 0 <= g <= f < 2^bits: floor((3787 bits +
/// 2166) / 1644), the bound of the safegcd-bounds README (Wuille, convex-hull analysis,
/// verified for every M <= 2^4096 once M >= 2301079; the same analysis gives libsecp256k1's
/// 590 for 256 bits). Below 22 bits the bound for 2^22 is used (it covers every smaller M).
const fn hddivsteps_bound(bits: u32) -> usize {
    let b = if bits < 22 { 22 } else { bits as usize };
    (3787 * b + 2166) / 1644
}

/// Batches of the original divsteps that always suffice (Bernstein-Yang Theorem 11.2: d >= 46
/// bits, floor((49 d + 57) / 17) divsteps): the cap of the variable-time loop.
const fn batches_divsteps(bits: u32) -> usize {
    let b = bits as usize;
    let steps = if b >= 46 { (49 * b + 57) / 17 } else { (49 * b + 80) / 17 };
    steps.div_ceil(62)
}

/// Plain-integer inverse of `a` mod p (a < p); 0 maps to 0.
fn inverse_limbs<const N: usize, const VARTIME: bool>(a: &[u64; N], modulus: &[u64; N], bits: u32) -> [u64; N] {
    let l = s62_len(N);
    let p = to_s62(modulus);
    let inv62 = limbs::neg_inv64(modulus[0]).wrapping_neg() & M62;
    let mut f = p;
    let mut g = to_s62(a);
    let mut d = [0i64; 8];
    let mut e = [0i64; 8];
    e[0] = 1;
    let low = |x: &S62| (x[0] as u64) | ((x[1] as u64) << 62);
    let mut f_top = l;
    if VARTIME {
        // original divsteps (eta = -delta = -1 at the start) until g = 0; Bernstein-Yang's
        // bound caps the batches. f and g shrink as they go: once both top limbs are only a
        // sign, they are folded into the limb below and the updates of f and g run on one
        // limb fewer (d and e keep their length: they live modulo p).
        let mut eta: i64 = -1;
        let mut len = l;
        for _ in 0..batches_divsteps(bits) {
            let (lf, lg) = if len == 1 { (f[0] as u64, g[0] as u64) } else { (low(&f), low(&g)) };
            let (ne, t) = divsteps_62_var(eta, lf, lg);
            eta = ne;
            update_fg(&mut f, &mut g, &t, len);
            update_de(&mut d, &mut e, &t, &p, inv62, l);
            if g[..len].iter().all(|&x| x == 0) {
                break;
            }
            let (fn_, gn) = (f[len - 1], g[len - 1]);
            if len >= 2 && (fn_ ^ (fn_ >> 63)) | (gn ^ (gn >> 63)) == 0 {
                f[len - 2] |= ((fn_ as u64) << 62) as i64;
                g[len - 2] |= ((gn as u64) << 62) as i64;
                len -= 1;
            }
        }
        f_top = len;
    } else {
        // zeta = -(delta + 1/2) with delta = 1/2 at the start
        let mut zeta: i64 = -1;
        let total = hddivsteps_bound(bits) as u32;
        let form = crate::backend::inverse_step_form();
        let batch: u32 = if form == StepForm::Wide { 62 } else { 60 };
        let nb = total.div_ceil(batch);
        for b in 0..nb {
            // full batches, then exactly the steps the bound still needs (public counts)
            let steps = if b + 1 == nb { total - batch * (nb - 1) } else { batch };
            let (nz, t) = match form {
                StepForm::Wide => divsteps_62(zeta, low(&f), low(&g), steps),
                StepForm::Packed => divsteps_60_packed::<false>(zeta, low(&f), low(&g), steps),
                StepForm::PackedCmov => divsteps_60_packed::<true>(zeta, low(&f), low(&g), steps),
            };
            zeta = nz;
            update_fg(&mut f, &mut g, &t, l);
            update_de(&mut d, &mut e, &t, &p, inv62, l);
        }
    }
    // f = +-1 now (or +-p when a = 0, where d = 0 anyway)
    let f_neg = f[f_top - 1] >> 63;
    normalize(&mut d, f_neg, &p, l);
    from_s62(&d)
}

impl<C: FieldConfig<N>, const N: usize> Fp<C, N> {
    /// Multiplicative inverse, constant time (Bernstein-Yang safegcd, fixed iteration count).
    /// `None` (as a `CtOption`) for zero.
    ///
    /// ```
    /// use zkforge_field::bls12_381::Fp;
    /// let x = Fp::from_u64(7);
    /// assert_eq!(x * x.invert().unwrap(), Fp::ONE);
    /// assert!(bool::from(Fp::ZERO.invert().is_none()));
    /// ```
    pub fn invert(&self) -> CtOption<Self> {
        let inv = inverse_limbs::<N, false>(&self.limbs, &C::MODULUS, Self::BITS);
        let r = Self::mont_from_integer_inverse(inv);
        CtOption::new(r, !self.limbs.ct_eq(&[0u64; N]))
    }

    /// Multiplicative inverse, variable time (safegcd with early exit); public inputs only.
    pub fn invert_vartime(&self) -> Option<Self> {
        if self.limbs == [0u64; N] {
            return None;
        }
        let inv = inverse_limbs::<N, true>(&self.limbs, &C::MODULUS, Self::BITS);
        Some(Self::mont_from_integer_inverse(inv))
    }

    /// (aR)^-1 as an integer -> a^-1 R: one Montgomery product with R^3.
    #[inline(always)]
    fn mont_from_integer_inverse(inv: [u64; N]) -> Self {
        // `inv` < p by construction (normalised to [0, p)); R^3 mod p < p by definition
        Self::from_mont_unchecked(inv) * Self::from_mont_unchecked(Self::R3)
    }

    /// Invert every nonzero element in place with one inversion (Montgomery's trick); zeros
    /// stay zero. `scratch` must hold at least `values.len()` elements. Constant time in the
    /// values (not in their count).
    pub fn batch_invert_with_scratch(values: &mut [Self], scratch: &mut [Self]) {
        use subtle::ConditionallySelectable;
        assert!(scratch.len() >= values.len(), "scratch too small");
        let mut acc = Self::ONE;
        for (v, s) in values.iter().zip(scratch.iter_mut()) {
            *s = acc;
            // treat zero as one so it does not poison the product
            let z = v.is_zero();
            acc *= Self::conditional_select(v, &Self::ONE, z);
        }
        let mut inv = acc.invert().unwrap_or(Self::ZERO);
        for (v, s) in values.iter_mut().zip(scratch.iter()).rev() {
            let z = v.is_zero();
            let x = *v;
            let new = inv * *s;
            inv = Self::conditional_select(&(inv * x), &inv, z);
            *v = Self::conditional_select(&new, &Self::ZERO, z);
        }
    }

    /// [`Fp::batch_invert_with_scratch`] with an internally allocated scratch buffer.
    ///
    /// ```
    /// use zkforge_field::bn254::Fr;
    /// let mut v = [Fr::from_u64(2), Fr::ZERO, Fr::from_u64(4)];
    /// Fr::batch_invert(&mut v);
    /// assert_eq!(v[0] * Fr::from_u64(2), Fr::ONE);
    /// assert_eq!(v[1], Fr::ZERO);
    /// ```
    pub fn batch_invert(values: &mut [Self]) {
        let mut scratch = vec![Self::ZERO; values.len()];
        Self::batch_invert_with_scratch(values, &mut scratch);
    }
}

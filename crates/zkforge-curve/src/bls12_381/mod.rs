//! BLS12-381 G1 (y^2 = x^3 + 4 over Fp) and G2 (y^2 = x^3 + 4(1 + u) over Fp2, an M-twist).
//!
//! - G1 endomorphism phi(x, y) = (beta x, y) with eigenvalue -z^2 (z = -0xd201000000010000 the
//!   curve seed); scalars split as k = k0 + k1 z^2 (both below 2^128), so
//!   kP = k0 P - k1 phi(P). Subgroup test phi(P) = -z^2 P (Scott, ePrint 2021/1130; EIP-2537).
//!   Cofactor clearing by h_eff = 1 - z (RFC 9380 section 8.8.1).
//! - G2 endomorphism psi = twist^-1 o Frobenius o twist, eigenvalue z; scalars split in base
//!   |z| into four 64-bit digits (Galbraith-Lin-Scott). Subgroup test psi(P) = zP (Scott,
//!   ePrint 2021/1130). Cofactor clearing by Budroni-Pintore (ePrint 2017/419), as written in
//!   RFC 9380 appendix G.3.
//! - The |z| ladders (cofactor clearing, subgroup tests) double in runs between their five
//!   additions ([`CurveConfig::double_n`]); on G2 the runs of five and more go to AVX-512 IFMA
//!   lanes where the CPU has them (`zkforge_field::tower::double_run_lanes`,
//!   [`set_g2_doubling_runs`]).
//! Constants are generated from the curve record (`generated.rs`, `scripts/gen_all.py`).

mod encoding;

use alloc::vec::Vec;
use zkforge_field::bls12_381::{Fp, Fp2, Fr};

use crate::config::{CurveConfig, Endomorphism, SubScalar};
use crate::point::{Affine, Jacobian};
use crate::wide::divrem_ct;

pub use zkforge_field::bls12_381::{Fp as Base, Fr as Scalar};

mod generated;
use generated::{G1_B, G1_GENERATOR, G2_B, G2_GENERATOR, MU_T, MU_Z, PSI2_X, PSI_X, PSI_Y};
pub use generated::{BETA, Z_ABS};

/// z^2.
const T: u128 = (Z_ABS as u128) * (Z_ABS as u128);

/// G1 parameters.
#[derive(Clone, Copy, Debug)]
pub struct G1Config;
/// G2 parameters.
#[derive(Clone, Copy, Debug)]
pub struct G2Config;

/// A G1 point in affine coordinates.
pub type G1Affine = Affine<G1Config>;
/// A G1 point in Jacobian coordinates.
pub type G1Projective = Jacobian<G1Config>;
/// A G2 point in affine coordinates.
pub type G2Affine = Affine<G2Config>;
/// A G2 point in Jacobian coordinates.
pub type G2Projective = Jacobian<G2Config>;

/// [|z|] P by the fixed chain of |z| = 2^63 + 2^62 + 2^60 + 2^57 + 2^48 + 2^16 (63 doublings,
/// 5 complete additions; the sequence depends only on the constant).
pub fn mul_by_z_abs<C: CurveConfig>(p: &Jacobian<C>) -> Jacobian<C> {
    ladder_z_abs(p, Jacobian::add)
}

/// The chain of |z| with the given addition (complete or `_vartime`): its runs of doublings
/// (1, 2, 3, 9, 32 and 16 between the additions) through [`CurveConfig::double_n`].
#[inline(always)]
fn ladder_z_abs<C: CurveConfig>(p: &Jacobian<C>, add: impl Fn(&Jacobian<C>, &Jacobian<C>) -> Jacobian<C>) -> Jacobian<C> {
    let mut acc = *p;
    let mut run = 0;
    for i in (0..63).rev() {
        run += 1;
        if (Z_ABS >> i) & 1 == 1 {
            acc = add(&C::double_n(&acc, run), p);
            run = 0;
        }
    }
    C::double_n(&acc, run)
}

/// How the |z| ladders on BLS12-381 G2 (cofactor clearing, so hash to G2 and EIP-2537's
/// MAP_FP2_TO_G2; the subgroup test, so G2 decoding and signature checks) run their long runs
/// of doublings ([`CurveConfig::double_n`]). Every value gives the same coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum G2DoublingRuns {
    /// The measured best: [`G2DoublingRuns::Lanes`] where the CPU has AVX-512 IFMA, for runs
    /// of [`G2_LANE_RUN_MIN`] doublings and more; scalar elsewhere (on Zen 4, against scalar
    /// runs: cofactor clearing 0.84-0.85, hash to G2 0.90-0.91, the subgroup test 0.84,
    /// checked decompression 0.90; `examples/g2_doubling_runs.rs`).
    Auto,
    /// One scalar doubling after the other ([`Jacobian::double`]).
    Scalar,
    /// Each doubling's 17 Fp products as three products on eight IFMA lanes
    /// (`zkforge_field::tower::double_run_lanes`), for runs of [`G2_LANE_RUN_MIN`] and more;
    /// scalar where the CPU has no IFMA.
    Lanes,
}

/// The shortest run of G2 doublings that [`G2DoublingRuns::Lanes`] takes to the lanes (a lane
/// product into the 52-bit form and one out of it cost about what three doublings save):
/// measured on Zen 4, lanes / scalar 1.02 at 3 doublings, 0.91 at 5, 0.83 at 9, 0.75 at 63
/// (`zkforge-field --example double_run`). The |z| ladders' runs are 1, 2, 3, 9, 32 and 16.
pub const G2_LANE_RUN_MIN: u32 = 5;

#[cfg(feature = "std")]
static G2_DOUBLING_RUNS: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// Choose how the BLS12-381 G2 |z| ladders double (process-wide; every value gives the same
/// point). Without the `std` feature the runs are always scalar.
///
/// ```
/// use zkforge_curve::bls12_381::{set_g2_doubling_runs, G2Config, G2DoublingRuns, G2Projective};
/// use zkforge_curve::CurveConfig;
/// let p = G2Projective::generator().double();
/// set_g2_doubling_runs(G2DoublingRuns::Scalar);
/// let a = G2Config::clear_cofactor(&p);
/// set_g2_doubling_runs(G2DoublingRuns::Auto);
/// assert_eq!(G2Config::clear_cofactor(&p), a);
/// ```
pub fn set_g2_doubling_runs(r: G2DoublingRuns) {
    #[cfg(feature = "std")]
    G2_DOUBLING_RUNS.store(
        match r {
            G2DoublingRuns::Auto => 0,
            G2DoublingRuns::Scalar => 1,
            G2DoublingRuns::Lanes => 2,
        },
        core::sync::atomic::Ordering::Relaxed,
    );
    #[cfg(not(feature = "std"))]
    let _ = r;
}

/// The current [`G2DoublingRuns`].
pub fn g2_doubling_runs() -> G2DoublingRuns {
    #[cfg(feature = "std")]
    return match G2_DOUBLING_RUNS.load(core::sync::atomic::Ordering::Relaxed) {
        0 => G2DoublingRuns::Auto,
        1 => G2DoublingRuns::Scalar,
        _ => G2DoublingRuns::Lanes,
    };
    #[cfg(not(feature = "std"))]
    G2DoublingRuns::Scalar
}

/// n doublings of a G2 point on the IFMA lanes where [`g2_doubling_runs`] and the CPU allow
/// and the run is long enough; `None` otherwise.
#[inline]
fn g2_double_run_lanes(p: &G2Projective, n: u32) -> Option<G2Projective> {
    if n < G2_LANE_RUN_MIN || g2_doubling_runs() == G2DoublingRuns::Scalar {
        return None;
    }
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    {
        let (x, y, z) = zkforge_field::tower::double_run_lanes(&p.x, &p.y, &p.z, n)?;
        Some(Jacobian { x, y, z })
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    {
        let _ = p;
        None
    }
}

/// [`mul_by_z_abs`] with additions that branch on their special cases (public points only:
/// the EIP-2537 map precompiles), 2M + selections cheaper per addition than the complete ones.
pub fn mul_by_z_abs_vartime<C: CurveConfig>(p: &Jacobian<C>) -> Jacobian<C> {
    ladder_z_abs(p, Jacobian::add_vartime)
}

/// G1 cofactor clearing, [1 - z] P = [|z|] P + P, in variable time for public points (the same
/// point as [`CurveConfig::clear_cofactor`] for every input, identities and small-order points
/// included: `add_vartime` takes its doubling and identity cases by branches).
pub fn clear_cofactor_g1_vartime(p: &G1Projective) -> G1Projective {
    mul_by_z_abs_vartime(p).add_vartime(p)
}

/// G2 cofactor clearing (RFC 9380 G.3, Budroni-Pintore) in variable time for public points,
/// as [`clear_cofactor_g1_vartime`]: the same formula and result as
/// [`CurveConfig::clear_cofactor`].
pub fn clear_cofactor_g2_vartime(p: &G2Projective) -> G2Projective {
    let t1 = -mul_by_z_abs_vartime(p);
    let mut t2 = psi(p);
    let mut t3 = psi2(&p.double());
    t3 = t3.add_vartime(&-t2);
    t2 = t1.add_vartime(&t2);
    t2 = -mul_by_z_abs_vartime(&t2);
    t3 = t3.add_vartime(&t2);
    t3 = t3.add_vartime(&-t1);
    t3.add_vartime(&-*p)
}

/// [|z|] P for an affine P with mixed additions (variable time: subgroup checks of public
/// points).
fn mul_by_z_abs_affine_vartime<C: CurveConfig>(p: &Affine<C>) -> Jacobian<C> {
    let mut acc = p.to_jacobian();
    let mut run = 0;
    for i in (0..63).rev() {
        run += 1;
        if (Z_ABS >> i) & 1 == 1 {
            acc = C::double_n(&acc, run).add_mixed_vartime(p);
            run = 0;
        }
    }
    C::double_n(&acc, run)
}

impl CurveConfig for G1Config {
    type Base = Fp;
    type Scalar = zkforge_field::bls12_381::Fr;
    const NAME: &'static str = "BLS12-381 G1";
    const A: Option<Self::Base> = None;
    const B: Fp = G1_B;
    const GENERATOR: (Fp, Fp) = G1_GENERATOR;
    const ORDER: [u64; 4] = <zkforge_field::bls12_381::FrConfig as zkforge_field::FieldConfig<4>>::MODULUS;
    type Endo = Self;

    #[inline(always)]
    fn mul_by_b(x: &Fp) -> Fp {
        x.double().double()
    }

    fn is_torsion_free_vartime(p: &Affine<Self>) -> bool {
        // phi(P) + z^2 P = O, i.e. [z^2] P = -phi(P) = (beta x, -y)
        let zp = mul_by_z_abs_affine_vartime(p);
        let mut t = zp;
        for i in (0..63).rev() {
            t = t.double();
            if (Z_ABS >> i) & 1 == 1 {
                t = t.add_vartime(&zp);
            }
        }
        let minus_phi = Affine::<Self> { x: p.x * BETA, y: -p.y };
        t == minus_phi.to_jacobian()
    }

    fn clear_cofactor(p: &Jacobian<Self>) -> Jacobian<Self> {
        // h_eff = 1 - z = 1 + |z|
        mul_by_z_abs(p).add(p)
    }
}

impl Endomorphism<G1Config> for G1Config {
    const DIM: usize = 2;
    const SUB_BITS: u32 = 128;

    fn decompose(k: &[u64; 4]) -> [SubScalar; 4] {
        // k = q z^2 + r0 = r0 - q (-z^2)
        let (q, r0) = divrem_ct(k, T, &MU_T, 4);
        [
            SubScalar { neg: 0.into(), mag: r0 },
            SubScalar { neg: 1.into(), mag: q },
            SubScalar::default(),
            SubScalar::default(),
        ]
    }

    #[inline]
    fn endo(p: &Jacobian<Self>) -> Jacobian<Self> {
        Jacobian { x: p.x * BETA, y: p.y, z: p.z }
    }
}

/// psi(P) on Jacobian coordinates (psi is Frobenius-semilinear, so it maps X, Y, Z directly).
#[inline]
pub fn psi(p: &G2Projective) -> G2Projective {
    Jacobian { x: p.x.conjugate() * PSI_X, y: p.y.conjugate() * PSI_Y, z: p.z.conjugate() }
}

/// G2 membership of many twist points, variable time (for public inputs such as EIP-2537's
/// G2MSM): `out[i]` is `points[i].is_in_subgroup()`, the identity included. The test is that
/// of [`G2Affine::is_in_subgroup`], [|z|] Q = -psi(Q) (Scott, ePrint 2021/1130, section 4);
/// where the CPU has AVX-512 IFMA its ladder (63 doublings and 5 additions) runs for eight
/// points at a time (groups of three or more) on the lanes of `zkforge_field::tower::G2Lanes`, in the homogeneous
/// coordinates of the Miller loop. Those formulas are not complete: a point outside G2 may
/// meet T = +-Q, which leaves Z = 0 to the end, and Z = 0 fails the test (such a point has
/// [k] Q = O for some 0 < k < r, so it is outside G2 indeed). Elsewhere, and for groups of
/// fewer than three, point by point. A point off the twist is outside G2 (`false`), as
/// [`Affine::is_in_subgroup`] says.
///
/// ```
/// use zkforge_curve::bls12_381::{g2_in_subgroup_batch_vartime, G2Affine, G2Projective};
/// let g = G2Projective::generator();
/// let pts: Vec<G2Affine> = (1..12u64).map(|k| g.mul_u64_vartime(k).to_affine()).chain([G2Affine::IDENTITY]).collect();
/// assert!(g2_in_subgroup_batch_vartime(&pts).iter().all(|&ok| ok));
/// ```
pub fn g2_in_subgroup_batch_vartime(points: &[G2Affine]) -> Vec<bool> {
    let mut out: Vec<bool> = points.iter().map(|p| bool::from(p.is_identity())).collect();
    // points off the twist are outside G2 (as `is_in_subgroup` says); the rest take the test
    let live: Vec<usize> = (0..points.len()).filter(|&i| !out[i] && points[i].is_on_curve()).collect();
    for chunk in live.chunks(8) {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        if chunk.len() >= g2_lanes_worth_it() && ladder_on_lanes(points, chunk, &mut out) {
            continue;
        }
        for &i in chunk {
            out[i] = points[i].is_in_subgroup();
        }
    }
    out
}

/// The fewest points worth a group of lanes in [`g2_in_subgroup_batch_vartime`]: the lanes
/// cost the same for one point as for eight, 2.9x one scalar test (Intel Xeon with IFMA of
/// BENCHMARKS.md, `examples/g2_subgroup_batch.rs`: 0.97x the scalar tests at 3 points, 0.39x at
/// 8). On CPUs that run AVX-512 on 256-bit units (AMD Zen 4) a group costs about five scalar
/// tests: 1.55-1.76x at 3 points, 1.14-1.35x at 4, 0.96-1.06x at 5, 0.83-0.87x at 6, 0.64-0.67x
/// at 8 (same probe, 2026-12-06), so there it takes six.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
fn g2_lanes_worth_it() -> usize {
    zkforge_field::backend::per_avx512_width(3, 6)
}

/// The G2 test of up to eight non-identity points (`chunk` indexes `points`) on IFMA lanes,
/// verdicts into `out`; `false` where the lanes do not apply.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
fn ladder_on_lanes(points: &[G2Affine], chunk: &[usize], out: &mut [bool]) -> bool {
    let three_b = G2_B.double() + G2_B; // 3b' = 12 (1 + u): the lanes use additions
    let t: Vec<_> = chunk.iter().map(|&i| (points[i].x(), points[i].y(), Fp2::ONE)).collect();
    let Some(mut lanes) = zkforge_field::tower::G2Lanes::for_points(&t, &three_b, false) else {
        return false;
    };
    let q: Vec<_> = chunk.iter().map(|&i| (points[i].x(), points[i].y())).collect();
    lanes.set_addends(&q);
    // T = [|z|] Q, the bits of |z| below the top one
    for bit in (0..63).rev() {
        lanes.double_points();
        if (Z_ABS >> bit) & 1 == 1 && !lanes.add_points(false) {
            return false;
        }
    }
    for (&i, (x, y, z)) in chunk.iter().zip(lanes.points()) {
        // [|z|] Q = -psi(Q) = (X/Z, Y/Z) with Z != 0
        let m = psi(&points[i].to_jacobian());
        out[i] = !bool::from(z.is_zero()) && x == m.x() * z && y == -(m.y() * z);
    }
    true
}

/// [|z|] Q for up to eight affine, non-identity twist points at once on the lanes of
/// `zkforge_field::tower::G2Lanes` (the ladder of [`ladder_on_lanes`]), in Jacobian
/// coordinates; `None` where the lanes do not apply or a lane ended with Z = 0 (the
/// homogeneous formulas met T = +-Q or a point of order 2, see [`g2_in_subgroup_batch_vartime`];
/// with Z != 0 at the end no step was exceptional, so the result is exact).
#[cfg(all(feature = "std", target_arch = "x86_64"))]
fn mul_by_z_abs_lanes(q: &[G2Affine]) -> Option<Vec<G2Projective>> {
    let three_b = G2_B.double() + G2_B;
    let t: Vec<_> = q.iter().map(|p| (p.x(), p.y(), Fp2::ONE)).collect();
    let mut lanes = zkforge_field::tower::G2Lanes::for_points(&t, &three_b, false)?;
    let qa: Vec<_> = q.iter().map(|p| (p.x(), p.y())).collect();
    lanes.set_addends(&qa);
    for bit in (0..63).rev() {
        lanes.double_points();
        if (Z_ABS >> bit) & 1 == 1 && !lanes.add_points(false) {
            return None;
        }
    }
    // homogeneous (X, Y, Z) -> Jacobian (X Z, Y Z^2, Z)
    lanes
        .points()
        .into_iter()
        .map(|(x, y, z)| (!bool::from(z.is_zero())).then(|| Jacobian { x: x * z, y: y * z.square(), z }))
        .collect()
}

/// The fewest points of a group that [`clear_cofactor_g2_batch_vartime`] clears on the lanes
/// (smaller groups, and CPUs without IFMA, clear one point at a time): measured on IFMA, three
/// points on the lanes cost 1.06-1.09x what three one-point clearings do, four 0.81-0.95x.
pub const CLEAR_COFACTOR_G2_LANES_MIN: usize = 4;

/// [`CLEAR_COFACTOR_G2_LANES_MIN`] on CPUs that run AVX-512 on 256-bit units (AMD Zen 4,
/// `zkforge_field::backend::avx512_half_width`), where a group of lanes costs more against the
/// one-point clearings (see [`clear_cofactor_g2_lanes_min`]).
pub const CLEAR_COFACTOR_G2_LANES_MIN_HALF_WIDTH: usize = 6;

/// The fewest points of a group that [`clear_cofactor_g2_batch_vartime`] clears on the lanes
/// on this CPU: [`CLEAR_COFACTOR_G2_LANES_MIN_HALF_WIDTH`] where AVX-512 runs on 256-bit
/// units, [`CLEAR_COFACTOR_G2_LANES_MIN`] elsewhere.
pub fn clear_cofactor_g2_lanes_min() -> usize {
    zkforge_field::backend::per_avx512_width(CLEAR_COFACTOR_G2_LANES_MIN, CLEAR_COFACTOR_G2_LANES_MIN_HALF_WIDTH)
}

/// G2 cofactor clearing ([`CurveConfig::clear_cofactor`]: RFC 9380 G.3, Budroni-Pintore) of
/// many twist points, for public points (a batch of hashes to G2): `out[i]` is
/// `G2Config::clear_cofactor(&points[i])`. Where the CPU has AVX-512 IFMA, balanced groups of
/// [`clear_cofactor_g2_lanes_min`] to eight points run the two [|z|] ladders of each point
/// together, one point per lane of `zkforge_field::tower::G2Lanes`. Variable time: a group
/// goes back to the one-point form when it holds an identity, or when a ladder meets an
/// exceptional step (T = +-Q, possible only for a point whose order divides a number below
/// 2^64; points of large order such as hash outputs meet one with negligible probability).
///
/// ```
/// use zkforge_curve::bls12_381::{clear_cofactor_g2_batch_vartime, G2Config};
/// use zkforge_curve::hash_to_curve::map_to_curve_bls12_381_g2;
/// use zkforge_curve::CurveConfig;
/// use zkforge_field::bls12_381::{Fp, Fp2};
/// let pts: Vec<_> = (1..6u64).map(|k| map_to_curve_bls12_381_g2(&Fp2::new(Fp::from_u64(k), Fp::ONE))).collect();
/// let out = clear_cofactor_g2_batch_vartime(&pts);
/// assert_eq!(out[3], G2Config::clear_cofactor(&pts[3]));
/// assert!(out[3].to_affine().is_in_subgroup());
/// ```
pub fn clear_cofactor_g2_batch_vartime(points: &[G2Projective]) -> Vec<G2Projective> {
    let mut out = Vec::with_capacity(points.len());
    if points.is_empty() {
        return out;
    }
    let size = points.len().div_ceil(points.len().div_ceil(8));
    for group in points.chunks(size) {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        if group.len() >= clear_cofactor_g2_lanes_min() {
            if let Some(v) = clear_cofactor_g2_lanes(group) {
                out.extend(v);
                continue;
            }
        }
        out.extend(group.iter().map(G2Config::clear_cofactor));
    }
    out
}

/// [`clear_cofactor_g2_batch_vartime`] of up to eight points on the lanes
/// ([`mul_by_z_abs_lanes`]); `None` where the lanes do not apply, for an identity among the
/// inputs or among the second ladder's inputs, or when a ladder met an exceptional step.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
fn clear_cofactor_g2_lanes(ps: &[G2Projective]) -> Option<Vec<G2Projective>> {
    if ps.is_empty() || ps.len() > 8 || ps.iter().any(|p| bool::from(p.is_identity())) {
        return None;
    }
    let pa = G2Projective::batch_to_affine_vartime(ps);
    let t1: Vec<G2Projective> = mul_by_z_abs_lanes(&pa)?.into_iter().map(|a| -a).collect(); // c1 P
    let t2: Vec<G2Projective> = ps.iter().zip(&t1).map(|(p, t1)| t1.add_vartime(&psi(p))).collect();
    if t2.iter().any(|p| bool::from(p.is_identity())) {
        return None;
    }
    let t2a = G2Projective::batch_to_affine_vartime(&t2);
    let zt2 = mul_by_z_abs_lanes(&t2a)?;
    Some(
        ps.iter()
            .zip(t1.iter().zip(&zt2))
            .map(|(p, (t1, zt2))| {
                // psi^2(2P) - psi(P) + c1 (c1 P + psi(P)) - c1 P - P
                let mut t3 = psi2(&p.double()).add_vartime(&-psi(p));
                t3 = t3.add_vartime(&-*zt2);
                t3 = t3.add_vartime(&-*t1);
                t3.add_vartime(&-*p)
            })
            .collect(),
    )
}

/// psi^2(P) = (PSI2_X X, -Y, Z).
#[inline]
pub fn psi2(p: &G2Projective) -> G2Projective {
    Jacobian { x: p.x.mul_by_fp(&PSI2_X), y: -p.y, z: p.z }
}

impl CurveConfig for G2Config {
    type Base = Fp2;
    type Scalar = zkforge_field::bls12_381::Fr;
    const NAME: &'static str = "BLS12-381 G2";
    const A: Option<Self::Base> = None;
    const B: Fp2 = G2_B;
    const GENERATOR: (Fp2, Fp2) = G2_GENERATOR;
    const ORDER: [u64; 4] = <zkforge_field::bls12_381::FrConfig as zkforge_field::FieldConfig<4>>::MODULUS;
    type Endo = Self;

    #[inline(always)]
    fn mul_by_b(x: &Fp2) -> Fp2 {
        // (4 + 4u)(c0 + c1 u) = 4(c0 - c1) + 4(c0 + c1) u
        Fp2::new((x.c0 - x.c1).double().double(), (x.c0 + x.c1).double().double())
    }

    fn double_n(p: &Jacobian<Self>, n: u32) -> Jacobian<Self> {
        g2_double_run_lanes(p, n).unwrap_or_else(|| p.double_times(n))
    }

    fn is_torsion_free_vartime(p: &Affine<Self>) -> bool {
        // psi(P) = zP, i.e. [|z|] P = -psi(P)
        let zp = mul_by_z_abs_affine_vartime(p);
        zp == -psi(&p.to_jacobian())
    }

    fn clear_cofactor(p: &Jacobian<Self>) -> Jacobian<Self> {
        // RFC 9380 G.3 with c1 = z: h_eff P = [z^2 - z - 1] P + [z - 1] psi(P) + psi^2(2P)
        let t1 = -mul_by_z_abs(p); // c1 * P
        let mut t2 = psi(p);
        let mut t3 = psi2(&p.double());
        t3 = t3 - t2;
        t2 = t1 + t2;
        t2 = -mul_by_z_abs(&t2);
        t3 = t3 + t2;
        t3 = t3 - t1;
        t3 - *p
    }
}

impl Endomorphism<G2Config> for G2Config {
    const DIM: usize = 4;
    const SUB_BITS: u32 = 64;

    fn decompose(k: &[u64; 4]) -> [SubScalar; 4] {
        // k = d0 + d1 |z| + d2 |z|^2 + d3 |z|^3 and |z| = -z: signs alternate on psi^i
        let (q, r0) = divrem_ct(k, T, &MU_T, 4);
        let (d1, d0) = divrem_ct(&[r0 as u64, (r0 >> 64) as u64, 0, 0], Z_ABS as u128, &MU_Z, 3);
        let (d3, d2) = divrem_ct(&[q as u64, (q >> 64) as u64, 0, 0], Z_ABS as u128, &MU_Z, 3);
        [
            SubScalar { neg: 0.into(), mag: d0 },
            SubScalar { neg: 1.into(), mag: d1 },
            SubScalar { neg: 0.into(), mag: d2 },
            SubScalar { neg: 1.into(), mag: d3 },
        ]
    }

    #[inline]
    fn endo(p: &Jacobian<Self>) -> Jacobian<Self> {
        psi(p)
    }
}

impl core::ops::Mul<Fr> for G1Projective {
    type Output = Self;
    /// Constant-time scalar multiplication.
    fn mul(self, k: Fr) -> Self {
        self.mul_limbs(&k.to_limbs())
    }
}
impl core::ops::Mul<Fr> for G2Projective {
    type Output = Self;
    /// Constant-time scalar multiplication.
    fn mul(self, k: Fr) -> Self {
        self.mul_limbs(&k.to_limbs())
    }
}

//! The BLS12-381 G2 operations whose |z| ladders take their long runs of doublings to the IFMA
//! lanes (`set_g2_doubling_runs`), each timed under `Scalar` and `Auto` in alternating chunks,
//! fastest chunk of each (us), and checked equal: cofactor clearing (constant time), hash to
//! G2, the subgroup test, the variable-time map of EIP-2537's MAP_FP2_TO_G2, and checked
//! decompression.
//!
//! `cargo run --release -p zkforge-curve --example g2_doubling_runs`
use std::hint::black_box;
use std::time::Instant;
use zkforge_curve::bls12_381::{set_g2_doubling_runs, G2Affine, G2Config, G2DoublingRuns, G2Projective};
use zkforge_curve::hash_to_curve::{hash_to_g2, map_fp2_to_g2_vartime};
use zkforge_curve::CurveConfig;
use zkforge_field::bls12_381::{Fp, Fp2};

const DST: &[u8] = b"QUUX-V01-CS02-with-BLS12381G2_XMD:SHA-256_SSWU_RO_";

fn time<T: PartialEq + std::fmt::Debug>(name: &str, f: impl Fn() -> T) {
    let modes = [G2DoublingRuns::Scalar, G2DoublingRuns::Auto];
    let mut best = [f64::MAX; 2];
    let mut out = Vec::new();
    for _ in 0..15 {
        for (m, mode) in modes.iter().enumerate() {
            set_g2_doubling_runs(*mode);
            let t = Instant::now();
            for _ in 0..20 {
                black_box(f());
            }
            best[m] = best[m].min(t.elapsed().as_secs_f64() * 1e6 / 20.0);
            out.push(f());
        }
    }
    set_g2_doubling_runs(G2DoublingRuns::Auto);
    assert!(out.windows(2).all(|w| w[0] == w[1]), "{name}: the modes disagree");
    println!("{name:32} scalar {:8.1} us  auto {:8.1} us  auto / scalar {:.3}", best[0], best[1], best[1] / best[0]);
}

fn main() {
    let u = Fp2::new(Fp::from_u64(0x1234_5678), Fp::from_u64(99));
    let raw: G2Projective = zkforge_curve::hash_to_curve::map_to_curve_bls12_381_g2(&u);
    let p: G2Affine = G2Projective::generator().mul_u64_vartime(0xdead_beef_1234).to_affine();
    let bytes = p.to_compressed();
    time("clear_cofactor (ct)", || G2Config::clear_cofactor(black_box(&raw)));
    time("hash_to_g2", || hash_to_g2(black_box(b"abc"), DST).unwrap());
    time("is_in_subgroup", || black_box(&p).is_in_subgroup());
    time("map_fp2_to_g2_vartime", || map_fp2_to_g2_vartime(black_box(&u)));
    time("G2Affine::from_compressed", || G2Affine::from_compressed(black_box(&bytes)).unwrap());
}

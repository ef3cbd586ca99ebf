//! The reduced Fp2 product's two forms (`backend::set_fp2_product`: two lazy sums of products,
//! or Karatsuba over wide products with two reductions) measured in one process on what uses
//! it: the product and square alone, G2 addition and doubling, a G2 scalar multiplication and
//! subgroup check, hash to G2 (BLS12-381), the Miller loop and final exponentiation (default
//! and scalar tower), for both curves. Fastest of 15 alternating chunks per form.
//! `cargo run --release -p zkforge-pairing --example fp2_product_switch`.
use std::hint::black_box;
use std::time::Instant;

use zkforge_curve::{hash_to_curve, Affine};
use zkforge_field::backend::{set_fp2_product, Fp2Product};
use zkforge_field::tower::Fp2;
use zkforge_pairing::config::{self, HardPart, MillerAccumulator};
use zkforge_pairing::engine::{final_exponentiation, multi_miller_loop, pairing_check};
use zkforge_pairing::{bls12_381::Bls12_381, bn254::Bn254, PairingConfig};

fn time(reps: u32, mut f: impl FnMut()) -> f64 {
    let s = Instant::now();
    for _ in 0..reps {
        f();
    }
    s.elapsed().as_nanos() as f64 / reps as f64
}

const FORMS: [(&str, Fp2Product); 2] = [("sums", Fp2Product::SumsOfProducts), ("karatsuba", Fp2Product::Karatsuba)];

const NAMES: [&str; 13] = [
    "fp2 mul",
    "fp2 square",
    "g2 add",
    "g2 add mixed",
    "g2 double",
    "g2 mul ct",
    "g2 subgroup check",
    "miller loop",
    "final exp",
    "miller loop scalar",
    "final exp scalar",
    "pairing check 2",
    "hash to g2",
];

/// One chunk of every row under the current form, each time folded into `best`; `extra` times
/// the curve's own last row (hash to G2 on BLS12-381).
fn chunk<P: PairingConfig<N>, const N: usize>(best: &mut [f64; 13], extra: &dyn Fn() -> f64) {
    let mut rng = rand::thread_rng();
    let (a, b) = (Fp2::<P::Fp, N>::random(&mut rng), Fp2::<P::Fp, N>::random(&mut rng));
    let k = [0x1234_5678_9abc_def1u64, 0xfeed_beef_0bad_cafe, 0x0123_4567_89ab_cdef, 0x0fed_cba9_8765_4321];
    let (p, q): (Affine<P::G1>, Affine<P::G2>) = (Affine::generator(), Affine::generator());
    let q2 = q.to_jacobian().double().to_affine();
    let ml = multi_miller_loop::<P, N>(&[(p, q)]);
    let mut x = black_box(a);
    best[0] = best[0].min(time(20000, || x = black_box(x) * b));
    best[1] = best[1].min(time(20000, || x = black_box(x).square()));
    let (mut j, jq2) = (q.to_jacobian(), q2.to_jacobian());
    best[2] = best[2].min(time(5000, || j = black_box(j).add(&jq2)));
    best[3] = best[3].min(time(5000, || j = black_box(j).add_mixed(&q2)));
    best[4] = best[4].min(time(5000, || j = black_box(j).double()));
    best[5] = best[5].min(time(20, || {
        black_box(black_box(j).mul_limbs(&k));
    }));
    best[6] = best[6].min(time(40, || {
        black_box(black_box(q2).is_in_subgroup());
    }));
    // the default (IFMA lanes where the CPU has them), then the scalar tower
    for (col, (acc, hard)) in [(7, (MillerAccumulator::Auto, HardPart::Auto)), (9, (MillerAccumulator::Scalar, HardPart::Scalar))] {
        config::set_miller_accumulator(acc);
        config::set_hard_part(hard);
        best[col] = best[col].min(time(20, || {
            black_box(multi_miller_loop::<P, N>(black_box(&[(p, q)])));
        }));
        best[col + 1] = best[col + 1].min(time(20, || {
            black_box(final_exponentiation::<P, N>(black_box(&ml)));
        }));
    }
    config::set_miller_accumulator(MillerAccumulator::Auto);
    config::set_hard_part(HardPart::Auto);
    best[11] = best[11].min(time(10, || {
        black_box(pairing_check::<P, N>(black_box(&[(p, q), (-p, q)])));
    }));
    best[12] = best[12].min(extra());
}

fn run<P: PairingConfig<N>, const N: usize>(curve: &str, extra: &dyn Fn() -> f64) {
    let mut best = [[f64::MAX; 13]; 2];
    for _ in 0..15 {
        for (f, (_, form)) in FORMS.iter().enumerate() {
            set_fp2_product(*form);
            chunk::<P, N>(&mut best[f], extra);
        }
    }
    set_fp2_product(Fp2Product::Auto);
    println!("{curve:28} {:>12} {:>12}  karatsuba / sums", FORMS[0].0, FORMS[1].0);
    for (i, n) in NAMES.iter().enumerate() {
        if best[0][i] > 0.0 {
            println!("{n:28} {:12.1} {:12.1}  {:.3}", best[0][i], best[1][i], best[1][i] / best[0][i]);
        }
    }
}

fn main() {
    run::<Bls12_381, 6>("bls12_381 (ns)", &|| {
        time(40, || {
            black_box(hash_to_curve::hash_to_g2(black_box(b"abc"), b"QUUX-V01-CS02-with-BLS12381G2_XMD:SHA-256_SSWU_RO_").unwrap());
        })
    });
    // BN254 has no hash to G2 row
    run::<Bn254, 4>("bn254 (ns)", &|| 0.0);
}

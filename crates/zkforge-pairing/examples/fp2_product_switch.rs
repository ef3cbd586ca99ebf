//! The reduced Fp2 product's two forms (`backend::set_fp2_product`: two lazy sums of products,
//! or Karatsuba over wide products with two reductions) measured in one process on what uses
//! it: the product and square alone, G2 addition and doubling, a G2 scalar multiplication and subgroup
//! check, hash to G2, the Miller loop and final exponentiation (default and scalar tower),
//! for both curves. Fastest of 15 alternating chunks per form.
//! `cargo run --release -p zkforge-pairing --example fp2_product_switch`.
use std::hint::black_box;
use std::time::Instant;

use zkforge_curve::hash_to_curve;
use zkforge_curve::{bls12_381 as bc, bn254 as nc};
use zkforge_field::backend::{set_fp2_product, Fp2Product};
use zkforge_pairing::config::{self, HardPart, MillerAccumulator};
use zkforge_pairing::{bls12_381 as bp, bn254 as np};

fn time(reps: u32, mut f: impl FnMut()) -> f64 {
    let s = Instant::now();
    for _ in 0..reps {
        f();
    }
    s.elapsed().as_nanos() as f64 / reps as f64
}

const FORMS: [(&str, Fp2Product); 2] = [
    ("sums", Fp2Product::SumsOfProducts),
    ("karatsuba", Fp2Product::Karatsuba),
];

fn report(curve: &str, names: &[&str], best: &[Vec<f64>]) {
    println!(
        "{curve:28} {:>12} {:>12}  karatsuba / sums",
        FORMS[0].0, FORMS[1].0
    );
    for (i, n) in names.iter().enumerate() {
        println!(
            "{n:28} {:12.1} {:12.1}  {:.3}",
            best[0][i],
            best[1][i],
            best[1][i] / best[0][i]
        );
    }
}

fn main() {
    let mut rng = rand::thread_rng();
    let k = [
        0x1234_5678_9abc_def1u64,
        0xfeed_beef_0bad_cafe,
        0x0123_4567_89ab_cdef,
        0x0fed_cba9_8765_4321,
    ];
    {
        use zkforge_field::bls12_381::Fp2;
        let (a, b) = (Fp2::random(&mut rng), Fp2::random(&mut rng));
        let (p, q) = (bc::G1Affine::generator(), bc::G2Affine::generator());
        let q2 = q.to_jacobian().double().to_affine();
        let ml = bp::multi_miller_loop(&[(p, q)]);
        let names = [
            "fp2 mul",
            "fp2 square",
            "g2 add",
            "g2 add mixed",
            "g2 double",
            "g2 mul ct",
            "g2 subgroup check",
            "hash to g2",
            "miller loop",
            "final exp",
            "miller loop scalar",
            "final exp scalar",
            "pairing check 2",
        ];
        let mut best = vec![vec![f64::MAX; names.len()]; 2];
        for _ in 0..15 {
            for (f, (_, form)) in FORMS.iter().enumerate() {
                set_fp2_product(*form);
                let bst = &mut best[f];
                let mut x = black_box(a);
                bst[0] = bst[0].min(time(20000, || x = black_box(x) * b));
                bst[1] = bst[1].min(time(20000, || x = black_box(x).square()));
                let (mut j, jq2) = (q.to_jacobian(), q2.to_jacobian());
                bst[2] = bst[2].min(time(5000, || j = black_box(j).add(&jq2)));
                bst[3] = bst[3].min(time(5000, || j = black_box(j).add_mixed(&q2)));
                bst[4] = bst[4].min(time(5000, || j = black_box(j).double()));
                bst[5] = bst[5].min(time(20, || {
                    black_box(black_box(j).mul_limbs(&k));
                }));
                bst[6] = bst[6].min(time(40, || {
                    black_box(black_box(q2).is_in_subgroup());
                }));
                bst[7] = bst[7].min(time(40, || {
                    black_box(
                        hash_to_curve::hash_to_g2(
                            black_box(b"abc"),
                            b"QUUX-V01-CS02-with-BLS12381G2_XMD:SHA-256_SSWU_RO_",
                        )
                        .unwrap(),
                    );
                }));
                for (col, (acc, hard)) in [
                    (8, (MillerAccumulator::Auto, HardPart::Auto)),
                    (10, (MillerAccumulator::Scalar, HardPart::Scalar)),
                ] {
                    config::set_miller_accumulator(acc);
                    config::set_hard_part(hard);
                    bst[col] = bst[col].min(time(20, || {
                        black_box(bp::multi_miller_loop(black_box(&[(p, q)])));
                    }));
                    bst[col + 1] = bst[col + 1].min(time(20, || {
                        black_box(bp::final_exponentiation(black_box(&ml)));
                    }));
                }
                config::set_miller_accumulator(MillerAccumulator::Auto);
                config::set_hard_part(HardPart::Auto);
                bst[12] = bst[12].min(time(10, || {
                    black_box(bp::pairing_check(black_box(&[(p, q), (-p, q)])));
                }));
            }
        }
        report("bls12_381 (ns)", &names, &best);
    }
    {
        use zkforge_field::bn254::Fp2;
        let (a, b) = (Fp2::random(&mut rng), Fp2::random(&mut rng));
        let (p, q) = (nc::G1Affine::generator(), nc::G2Affine::generator());
        let q2 = q.to_jacobian().double().to_affine();
        let ml = np::multi_miller_loop(&[(p, q)]);
        let names = [
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
        ];
        let mut best = vec![vec![f64::MAX; names.len()]; 2];
        for _ in 0..15 {
            for (f, (_, form)) in FORMS.iter().enumerate() {
                set_fp2_product(*form);
                let bst = &mut best[f];
                let mut x = black_box(a);
                bst[0] = bst[0].min(time(20000, || x = black_box(x) * b));
                bst[1] = bst[1].min(time(20000, || x = black_box(x).square()));
                let (mut j, jq2) = (q.to_jacobian(), q2.to_jacobian());
                bst[2] = bst[2].min(time(5000, || j = black_box(j).add(&jq2)));
                bst[3] = bst[3].min(time(5000, || j = black_box(j).add_mixed(&q2)));
                bst[4] = bst[4].min(time(5000, || j = black_box(j).double()));
                bst[5] = bst[5].min(time(20, || {
                    black_box(black_box(j).mul_limbs(&k));
                }));
                bst[6] = bst[6].min(time(40, || {
                    black_box(black_box(q2).is_in_subgroup());
                }));
                for (col, (acc, hard)) in [
                    (7, (MillerAccumulator::Auto, HardPart::Auto)),
                    (9, (MillerAccumulator::Scalar, HardPart::Scalar)),
                ] {
                    config::set_miller_accumulator(acc);
                    config::set_hard_part(hard);
                    bst[col] = bst[col].min(time(20, || {
                        black_box(np::multi_miller_loop(black_box(&[(p, q)])));
                    }));
                    bst[col + 1] = bst[col + 1].min(time(20, || {
                        black_box(np::final_exponentiation(black_box(&ml)));
                    }));
                }
                config::set_miller_accumulator(MillerAccumulator::Auto);
                config::set_hard_part(HardPart::Auto);
                bst[11] = bst[11].min(time(10, || {
                    black_box(np::pairing_check(black_box(&[(p, q), (-p, q)])));
                }));
            }
        }
        report("bn254 (ns)", &names, &best);
    }
    set_fp2_product(Fp2Product::Auto);
}

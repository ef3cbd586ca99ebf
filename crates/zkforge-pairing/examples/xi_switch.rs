//! BN254's product by xi = 9 + u in its three forms, with the per-product and the lazy tower, (`backend::set_xi_form`), measured in one
//! process on what uses it: the Fp2 product by xi, the Fp12 square, product and cyclotomic
//! square, the Miller loop and the final exponentiation, the last two also in the scalar tower
//! that CPUs without AVX-512 IFMA run (latency chains or single runs,
//! fastest of 25 alternating chunks per form).
//! `cargo run --release -p zkforge-pairing --example xi_switch`.
use std::hint::black_box;
use std::time::Instant;

use zkforge_curve::bn254 as bn;
use zkforge_field::backend::{set_tower, set_xi_form, Tower, XiForm};
use zkforge_field::bn254::{Fp12, Fp2};
use zkforge_pairing::bn254 as pn;
use zkforge_pairing::config::{self, HardPart, MillerAccumulator};

fn time(reps: u32, mut f: impl FnMut()) -> f64 {
    let s = Instant::now();
    for _ in 0..reps {
        f();
    }
    s.elapsed().as_nanos() as f64 / reps as f64
}

fn main() {
    let mut rng = rand::thread_rng();
    let a = Fp2::random(&mut rng);
    let (f, g) = (Fp12::random(&mut rng), Fp12::random(&mut rng));
    let c = f.conjugate() * f.invert().unwrap();
    let c = c.frobenius_map(2) * c;
    let p = bn::G1Affine::generator();
    let q = bn::G2Affine::generator();
    let ml = pn::multi_miller_loop(&[(p, q)]);
    let forms = [
        ("chain", XiForm::Chain, Tower::PerProduct),
        ("one pass", XiForm::OnePass, Tower::PerProduct),
        ("quotient", XiForm::Quotient, Tower::PerProduct),
        ("chain lazy", XiForm::Chain, Tower::Lazy),
        ("quot. lazy", XiForm::Quotient, Tower::Lazy),
    ];
    let names = ["fp2 * xi", "fp12 square", "fp12 mul", "cyclotomic square", "miller loop", "final exp", "miller loop, scalar", "final exp, scalar"];
    let mut best = [[f64::MAX; 8]; 5];
    for _ in 0..25 {
        for (k, (_, form, tower)) in forms.iter().enumerate() {
            set_xi_form(*form);
            set_tower(*tower);
            let mut x = black_box(a);
            best[k][0] = best[k][0].min(time(20000, || x = x.mul_by_nonresidue()));
            black_box(x);
            let mut y = black_box(f);
            best[k][1] = best[k][1].min(time(2000, || y = y.square()));
            black_box(y);
            let mut y = black_box(f);
            best[k][2] = best[k][2].min(time(2000, || y = y * g));
            black_box(y);
            let mut y = black_box(c);
            best[k][3] = best[k][3].min(time(2000, || y = y.cyclotomic_square()));
            black_box(y);
            // the default (IFMA lanes where the CPU has them), then the scalar tower, as on
            // CPUs without AVX-512 IFMA
            for (col, (acc, hard)) in [(4, (MillerAccumulator::Auto, HardPart::Auto)), (6, (MillerAccumulator::Scalar, HardPart::Scalar))] {
                config::set_miller_accumulator(acc);
                config::set_hard_part(hard);
                best[k][col] = best[k][col].min(time(20, || {
                    black_box(pn::multi_miller_loop(black_box(&[(p, q)])));
                }));
                best[k][col + 1] = best[k][col + 1].min(time(20, || {
                    black_box(pn::final_exponentiation(black_box(&ml)));
                }));
            }
            config::set_miller_accumulator(MillerAccumulator::Auto);
            config::set_hard_part(HardPart::Auto);
        }
    }
    set_xi_form(XiForm::Auto);
    set_tower(Tower::Auto);
    print!("{:20}", "");
    for f in &forms {
        print!(" {:>11}", f.0);
    }
    println!("   each / chain (per-product tower)");
    for (i, n) in names.iter().enumerate() {
        print!("{n:20}");
        for b in &best {
            print!(" {:11.1}", b[i]);
        }
        for b in &best[1..] {
            print!("  {:.3}", b[i] / best[0][i]);
        }
        println!();
    }
}

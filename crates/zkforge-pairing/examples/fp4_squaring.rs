//! The cyclotomic square's Fp4 squarings wide (one reduction per output coefficient) or
//! reduced (`backend::set_fp4_squaring`), with the lazy tower, measured in one process on both
//! curves: the cyclotomic square (a latency chain) and the final exponentiation in the scalar
//! tower, as CPUs without AVX-512 IFMA run it (fastest of 25 alternating chunks per form).
//! `cargo run --release -p zkforge-pairing --example fp4_squaring`.
use std::hint::black_box;
use std::time::Instant;

use zkforge_curve::{bls12_381 as bls, bn254 as bn};
use zkforge_field::backend::{set_fp4_squaring, Fp4Squaring};
use zkforge_field::{bls12_381 as fb, bn254 as fnn};
use zkforge_pairing::config::{self, HardPart};
use zkforge_pairing::{bls12_381 as pb, bn254 as pn};

fn time(reps: u32, mut f: impl FnMut()) -> f64 {
    let s = Instant::now();
    for _ in 0..reps {
        f();
    }
    s.elapsed().as_nanos() as f64 / reps as f64
}

fn main() {
    let mut rng = rand::thread_rng();
    let f = fb::Fp12::random(&mut rng);
    let c = f.conjugate() * f.invert().unwrap();
    let c = c.frobenius_map(2) * c;
    let g = fnn::Fp12::random(&mut rng);
    let d = g.conjugate() * g.invert().unwrap();
    let d = d.frobenius_map(2) * d;
    let bml = pb::multi_miller_loop(&[(bls::G1Affine::generator(), bls::G2Affine::generator())]);
    let nml = pn::multi_miller_loop(&[(bn::G1Affine::generator(), bn::G2Affine::generator())]);
    let forms = [Fp4Squaring::Lazy, Fp4Squaring::Reduced];
    let mut outs = Vec::new();
    for form in forms {
        set_fp4_squaring(form);
        outs.push((c.cyclotomic_square(), d.cyclotomic_square(), pb::final_exponentiation(&bml), pn::final_exponentiation(&nml)));
    }
    assert!(outs[0] == outs[1]);
    config::set_hard_part(HardPart::Scalar);
    let names = ["bls12_381 cyclotomic square (ns)", "bn254 cyclotomic square (ns)", "bls12_381 final exp, scalar (ns)", "bn254 final exp, scalar (ns)"];
    let mut best = [[f64::MAX; 4]; 2];
    for _ in 0..25 {
        for (k, form) in forms.iter().enumerate() {
            set_fp4_squaring(*form);
            let mut y = black_box(c);
            best[k][0] = best[k][0].min(time(2000, || y = y.cyclotomic_square()));
            black_box(y);
            let mut y = black_box(d);
            best[k][1] = best[k][1].min(time(2000, || y = y.cyclotomic_square()));
            black_box(y);
            best[k][2] = best[k][2].min(time(10, || { black_box(pb::final_exponentiation(black_box(&bml))); }));
            best[k][3] = best[k][3].min(time(10, || { black_box(pn::final_exponentiation(black_box(&nml))); }));
        }
    }
    config::set_hard_part(HardPart::Auto);
    set_fp4_squaring(Fp4Squaring::Auto);
    println!("{:34} {:>11} {:>11}   reduced / lazy", "", "lazy", "reduced");
    for (i, n) in names.iter().enumerate() {
        println!("{n:34} {:11.1} {:11.1}  {:.3}", best[0][i], best[1][i], best[1][i] / best[0][i]);
    }
}

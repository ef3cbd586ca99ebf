//! BN254's final exponentiation with each `ExpByUForm` (u's window NAF against its signed
//! addition chain), interleaved chunk by chunk in one process so that both see the same machine
//! state: the fastest of 60 chunks of 5 calls per form, and the ratio. Run it with
//! `ZKFORGE_NO_IFMA=1` for the scalar tower on a CPU with AVX-512 IFMA.
//! `cargo run --release -p zkforge-pairing --example exp_by_u`.
use std::hint::black_box;
use std::time::Instant;
use zkforge_curve::bn254 as bn;
use zkforge_pairing::bn254 as pn;
use zkforge_pairing::config::{set_exp_by_u_form, ExpByUForm};

fn main() {
    let (g1, g2) = (bn::G1Projective::generator(), bn::G2Projective::generator());
    let p = (g1 * bn::Scalar::from_u64(1001)).to_affine();
    let f = pn::multi_miller_loop(&[(p, g2.to_affine())]);
    let forms = [ExpByUForm::Wnaf, ExpByUForm::Chain];
    let want = pn::final_exponentiation(&f);
    let mut mins = [f64::MAX; 2];
    for _ in 0..60 {
        for (i, form) in forms.iter().enumerate() {
            set_exp_by_u_form(*form);
            assert_eq!(pn::final_exponentiation(&f), want);
            let s = Instant::now();
            for _ in 0..5 {
                black_box(pn::final_exponentiation(black_box(&f)));
            }
            mins[i] = mins[i].min(s.elapsed().as_secs_f64() / 5.0 * 1e6);
        }
    }
    set_exp_by_u_form(ExpByUForm::Auto);
    println!("final_exponentiation bn254, u by window NAF: {:8.1} us", mins[0]);
    println!("final_exponentiation bn254, u by chain:      {:8.1} us  ratio {:.3}", mins[1], mins[1] / mins[0]);
}

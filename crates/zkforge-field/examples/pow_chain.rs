//! Probe: the fixed exponentiations under `backend::set_pow_chain` (stored addition chain
//! against the sliding-window plan), alternating chunks, fastest chunk per form: BLS12-381 and
//! BN254 square roots in Fp (and blst's `blst_fp_sqrt` beside them), the BLS12-381 Fp2 square
//! root, the Legendre symbol, Tonelli-Shanks in BLS12-381's Fr, two interleaved roots and eight
//! roots on the IFMA lanes.
//! `RUSTFLAGS="-C target-feature=+bmi2,+adx" cargo run --release -p zkforge-field --example pow_chain`
use std::hint::black_box;
use std::time::Instant;

use zkforge_field::backend::{set_pow_chain, PowChain};
use zkforge_field::bls12_381 as bls;
use zkforge_field::bn254 as bn;
use zkforge_field::tower::pow_p_plus_1_over_4_many;

const ROUNDS: usize = 15;

fn time(reps: u32, mut f: impl FnMut()) -> f64 {
    let s = Instant::now();
    for _ in 0..reps {
        f();
    }
    s.elapsed().as_nanos() as f64 / reps as f64
}

fn main() {
    let mut rng = rand::thread_rng();
    let a = bls::Fp::random(&mut rng).square();
    let b = bn::Fp::random(&mut rng).square();
    let a2 = bls::Fp2::random(&mut rng).square();
    let r = bls::Fr::random(&mut rng).square();
    let many: Vec<bls::Fp> = (0..8).map(|_| bls::Fp::random(&mut rng).square()).collect();
    let names = ["bls Fp sqrt", "bn Fp sqrt", "bls Fp2 sqrt", "bls Fp legendre", "bls Fr sqrt", "bls Fp x2 /root", "bls Fp lanes x8 /root"];
    let forms = [("stored", PowChain::Stored), ("window", PowChain::SlidingWindow)];
    let mut best = vec![[f64::MAX; 2]; names.len()];
    let mut blst_best = f64::MAX;
    let ab = blst::blst_fp { l: a.to_mont_limbs() };
    for _ in 0..ROUNDS {
        for (j, (_, f)) in forms.iter().enumerate() {
            set_pow_chain(*f);
            let t = [
                time(200, || {
                    black_box(black_box(a).sqrt());
                }),
                time(300, || {
                    black_box(black_box(b).sqrt());
                }),
                time(100, || {
                    black_box(black_box(a2).sqrt());
                }),
                time(200, || {
                    black_box(black_box(a).legendre());
                }),
                time(200, || {
                    black_box(black_box(r).sqrt());
                }),
                time(100, || {
                    black_box(bls::Fp::pow_p_plus_1_over_4_x2(&black_box(a), &black_box(a)));
                }) / 2.0,
                time(50, || {
                    black_box(pow_p_plus_1_over_4_many::<bls::FpConfig, 6>(black_box(&many)));
                }) / 8.0,
            ];
            for i in 0..names.len() {
                best[i][j] = best[i][j].min(t[i]);
            }
        }
        blst_best = blst_best.min(time(200, || {
            let mut out = blst::blst_fp::default();
            // SAFETY: blst's C function on a valid field element.
            black_box(unsafe { blst::blst_fp_sqrt(&mut out, &black_box(ab)) });
            black_box(out);
        }));
    }
    set_pow_chain(PowChain::Auto);
    for (i, n) in names.iter().enumerate() {
        println!("{n:24} stored {:9.1} ns  window {:9.1} ns  stored/window {:.3}", best[i][0], best[i][1], best[i][0] / best[i][1]);
    }
    println!("blst_fp_sqrt {blst_best:.1} ns; bls Fp sqrt stored/blst {:.3}, window/blst {:.3}", best[0][0] / blst_best, best[0][1] / blst_best);
}

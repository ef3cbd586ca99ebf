//! Probe: one run of 10 000 lazy squarings (`backend::mont_square_n_lazy`) under each
//! `backend::set_squaring_runs` value, and the square roots built on such runs, for both
//! base fields; alternating chunks, fastest chunk per form.
//! `RUSTFLAGS="-C target-feature=+bmi2,+adx" cargo run --release -p zkforge-field --example sqrn_probe`
use std::hint::black_box;
use std::time::Instant;

use zkforge_field::backend::{mont_square_n_lazy, set_squaring_runs, SquaringRuns};
use zkforge_field::bls12_381 as bls;
use zkforge_field::bn254 as bn;

fn time(reps: u32, mut f: impl FnMut()) -> f64 {
    let s = Instant::now();
    for _ in 0..reps {
        f();
    }
    s.elapsed().as_nanos() as f64 / reps as f64
}

fn main() {
    let mut rng = rand::thread_rng();
    let (a, b) = (bls::Fp::random(&mut rng).square(), bn::Fp::random(&mut rng).square());
    let forms = [("memory", SquaringRuns::Memory), ("register head", SquaringRuns::RegisterHead)];
    let names = ["bls12_381 squaring in a run", "bn254 squaring in a run", "bls12_381 Fp sqrt", "bn254 Fp sqrt"];
    let mut best = [[f64::MAX; 2]; 4];
    let mut outs = [[0u64; 6]; 2];
    for _ in 0..20 {
        for (j, (_, f)) in forms.iter().enumerate() {
            set_squaring_runs(*f);
            let (mut ra, mut rb) = (a.to_mont_limbs(), b.to_mont_limbs());
            let t = [
                time(1, || mont_square_n_lazy(black_box(&mut ra), 10_000, &bls::Fp::PINV)) / 10_000.0,
                time(1, || mont_square_n_lazy(black_box(&mut rb), 10_000, &bn::Fp::PINV)) / 10_000.0,
                time(200, || {
                    black_box(black_box(a).sqrt());
                }),
                time(300, || {
                    black_box(black_box(b).sqrt());
                }),
            ];
            outs[j] = ra;
            for i in 0..4 {
                best[i][j] = best[i][j].min(t[i]);
            }
        }
    }
    set_squaring_runs(SquaringRuns::Auto);
    assert_eq!(outs[0], outs[1], "the two loops disagree");
    for (i, n) in names.iter().enumerate() {
        println!("{n:30} memory {:9.2} ns  register head {:9.2} ns  head/memory {:.3}", best[i][0], best[i][1], best[i][1] / best[i][0]);
    }
}

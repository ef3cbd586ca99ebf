//! Two independent BLS12-381 exponentiations by (p - 3) / 4: one after the other against the
//! interleaved `pow_p_minus_3_over_4_x2`, medians of interleaved rounds.
//!
//! `RUSTFLAGS="-C target-feature=+bmi2,+adx" cargo run --release -p zkforge-field --example interleave_probe`
use std::hint::black_box;
use std::time::Instant;
use zkforge_field::bls12_381::Fp;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let (x, y) = (Fp::from_u64(7), Fp::from_u64(9));
    assert_eq!(Fp::pow_p_minus_3_over_4_x2(&x, &y), (x.pow_p_minus_3_over_4(), y.pow_p_minus_3_over_4()));
    const R: usize = 20;
    let (mut seq, mut par, mut ratio) = (vec![], vec![], vec![]);
    for _ in 0..41 {
        let t = Instant::now();
        for _ in 0..R {
            black_box((black_box(x).pow_p_minus_3_over_4(), black_box(y).pow_p_minus_3_over_4()));
        }
        let s = t.elapsed().as_secs_f64() * 1e9 / R as f64;
        let t = Instant::now();
        for _ in 0..R {
            black_box(Fp::pow_p_minus_3_over_4_x2(&black_box(x), &black_box(y)));
        }
        let p = t.elapsed().as_secs_f64() * 1e9 / R as f64;
        seq.push(s);
        par.push(p);
        ratio.push(p / s);
    }
    println!("two exponentiations: one after the other {:.0} ns, interleaved {:.0} ns, ratio {:.3}", median(&mut seq), median(&mut par), median(&mut ratio));
}

//! A/B probe: two BLS12-381 / BN254 Fp exponentiations by (p - 3) / 4 one after the other
//! against the interleaved pair (`pow_p_minus_3_over_4_pair`), best of several chunks.
use std::hint::black_box;
use std::time::Instant;
use zkforge_field::{bls12_381, bn254};

fn best<F: FnMut()>(mut f: F, reps: usize) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..15 {
        let t = Instant::now();
        for _ in 0..reps {
            f();
        }
        best = best.min(t.elapsed().as_nanos() as f64 / reps as f64);
    }
    best
}

fn main() {
    let (a, b) = (bls12_381::Fp::from_u64(12345).square(), bls12_381::Fp::from_u64(777).square());
    for _ in 0..3 {
        let one = best(|| { black_box(black_box(a).pow_p_minus_3_over_4()); black_box(black_box(b).pow_p_minus_3_over_4()); }, 200);
        let pair = best(|| { black_box(bls12_381::Fp::pow_p_minus_3_over_4_pair(&black_box(a), &black_box(b))); }, 200);
        println!("bls12-381: two singles {:.0} ns, pair {:.0} ns, ratio {:.3}", one, pair, pair / one);
    }
    let (a, b) = (bn254::Fp::from_u64(12345).square(), bn254::Fp::from_u64(777).square());
    let one = best(|| { black_box(black_box(a).pow_p_minus_3_over_4()); black_box(black_box(b).pow_p_minus_3_over_4()); }, 200);
    let pair = best(|| { black_box(bn254::Fp::pow_p_minus_3_over_4_pair(&black_box(a), &black_box(b))); }, 200);
    println!("bn254: two singles {:.0} ns, pair {:.0} ns, ratio {:.3}", one, pair, pair / one);
}

//! Times the constant-time BLS12-381 / BN254 inverses under each `set_inverse_steps` form: a
//! dependent chain (each input is the previous output plus one) in short chunks, the forms
//! interleaved chunk by chunk, the fastest chunk kept (robust on a shared, noisy machine);
//! prints ns per inverse. `cargo run --release -p zkforge-field --example inverse_probe`
use std::hint::black_box;
use std::time::Instant;
use zkforge_field::backend::{set_inverse_steps, InverseSteps};
use zkforge_field::{bls12_381, bn254, FieldConfig, Fp};

#[inline(never)]
fn chain<C: FieldConfig<N>, const N: usize>(mut x: Fp<C, N>, n: usize) -> Fp<C, N> {
    for _ in 0..n {
        x = black_box(x).invert().unwrap_or(Fp::ZERO) + Fp::ONE;
    }
    x
}

fn probe<C: FieldConfig<N>, const N: usize>(name: &str) {
    let forms = [InverseSteps::Wide, InverseSteps::Packed, InverseSteps::PackedCmov];
    let mut best = [f64::MAX; 3];
    let mut x = Fp::<C, N>::from_u64(7);
    let n = 500;
    for _ in 0..200 {
        for (i, s) in forms.iter().enumerate() {
            set_inverse_steps(*s);
            let t = Instant::now();
            x = chain(x, n);
            best[i] = best[i].min(t.elapsed().as_nanos() as f64 / n as f64);
        }
    }
    black_box(x);
    set_inverse_steps(InverseSteps::Auto);
    println!(
        "{name:<16} wide {:8.1} ns   packed {:8.1} ns   cmov {:8.1} ns   cmov/packed {:.3}",
        best[0],
        best[1],
        best[2],
        best[2] / best[1]
    );
}

fn main() {
    probe::<bls12_381::FpConfig, 6>("bls12_381 Fp");
    probe::<bls12_381::FrConfig, 4>("bls12_381 Fr");
    probe::<bn254::FpConfig, 4>("bn254 Fp");
    probe::<bn254::FrConfig, 4>("bn254 Fr");
}

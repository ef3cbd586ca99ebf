//! Shared helpers: a seeded RNG and conversions between zkforge and arkworks points.
#![allow(dead_code)]

use ark_ff::{BigInt, PrimeField};
use rand::{rngs::StdRng, SeedableRng};
use zkforge_field::tower::Fp2;
use zkforge_field::{FieldConfig, Fp};

/// Fresh randomness each run (seed printed so a failure can be replayed with ZKFORGE_SEED).
pub fn rng() -> StdRng {
    let seed = std::env::var("ZKFORGE_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random::<u64>);
    eprintln!("ZKFORGE_SEED={seed}");
    StdRng::seed_from_u64(seed)
}

/// Iterations for the point tests (ZKFORGE_ITERS overrides; points are slower than fields).
pub fn iters(default: usize) -> usize {
    std::env::var("ZKFORGE_ITERS").ok().and_then(|s| s.parse::<usize>().ok()).map(|n| n.min(default * 10)).unwrap_or(default)
}

pub fn fp_to_ark<C: FieldConfig<N>, const N: usize, A: PrimeField<BigInt = BigInt<N>>>(x: &Fp<C, N>) -> A {
    A::from_bigint(BigInt(x.to_limbs())).expect("canonical")
}

pub fn fp_from_ark<C: FieldConfig<N>, const N: usize, A: PrimeField<BigInt = BigInt<N>>>(x: &A) -> Fp<C, N> {
    Fp::from_limbs(x.into_bigint().0).expect("canonical")
}

pub fn fp2_to_ark<C: FieldConfig<N>, const N: usize, A: PrimeField<BigInt = BigInt<N>>, P: ark_ff::Fp2Config<Fp = A>>(
    x: &Fp2<C, N>,
) -> ark_ff::Fp2<P> {
    ark_ff::Fp2::new(fp_to_ark(&x.c0), fp_to_ark(&x.c1))
}

pub fn fp2_from_ark<C: FieldConfig<N>, const N: usize, A: PrimeField<BigInt = BigInt<N>>, P: ark_ff::Fp2Config<Fp = A>>(
    x: &ark_ff::Fp2<P>,
) -> Fp2<C, N> {
    Fp2::new(fp_from_ark(&x.c0), fp_from_ark(&x.c1))
}

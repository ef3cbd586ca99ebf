//! Shared helpers for the differential tests: conversions between zkforge and arkworks
//! elements, a seeded RNG and the edge values every operation is tried on.
#![allow(dead_code)]

use ark_ff::{BigInt, PrimeField};
use rand::{rngs::StdRng, SeedableRng};
use zkforge_field::{FieldConfig, Fp};

/// Fresh randomness each run (seed printed so a failure can be replayed with ZKFORGE_SEED).
pub fn rng() -> StdRng {
    let seed = std::env::var("ZKFORGE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| rand::random::<u64>());
    eprintln!("ZKFORGE_SEED={seed}");
    StdRng::seed_from_u64(seed)
}

/// Iterations per operation (10,000 by default; ZKFORGE_ITERS overrides).
pub fn iters() -> usize {
    std::env::var("ZKFORGE_ITERS").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000)
}

pub fn to_ark<C: FieldConfig<N>, const N: usize, A: PrimeField<BigInt = BigInt<N>>>(x: &Fp<C, N>) -> A {
    A::from_bigint(BigInt(x.to_limbs())).expect("canonical")
}

pub fn from_ark<C: FieldConfig<N>, const N: usize, A: PrimeField<BigInt = BigInt<N>>>(x: &A) -> Fp<C, N> {
    Fp::from_limbs(x.into_bigint().0).expect("canonical")
}

/// 0, 1, 2, p-1, p-2, (p-1)/2, (p+1)/2, high Hamming weight values below p, R mod p, and
/// 2^k for limb boundaries.
pub fn edge_values<C: FieldConfig<N>, const N: usize>() -> Vec<Fp<C, N>> {
    let mut v = vec![Fp::ZERO, Fp::ONE, Fp::from_u64(2), -Fp::ONE, -Fp::from_u64(2), Fp::from_u64(u64::MAX)];
    v.push(Fp::from_limbs(Fp::<C, N>::P_MINUS_1_OVER_2).unwrap());
    v.push(Fp::from_limbs(Fp::<C, N>::P_MINUS_1_OVER_2).unwrap() + Fp::ONE);
    // all ones below the top bit of p
    let bits = Fp::<C, N>::BITS;
    let mut ones = [u64::MAX; N];
    ones[N - 1] = (1u64 << ((bits - 1) % 64)) - 1;
    if (bits - 1) % 64 == 0 {
        ones[N - 1] = 0;
    }
    v.push(Fp::from_limbs(ones).unwrap());
    // alternating bits
    let mut alt = [0xAAAA_AAAA_AAAA_AAAAu64; N];
    alt[N - 1] >>= 64 - ((bits - 1) % 64).max(1);
    v.push(Fp::from_limbs(alt).unwrap());
    v.push(Fp::from_limbs(Fp::<C, N>::R).unwrap());
    for k in [63u32, 64, 127, 128, 191, 192] {
        if k < bits - 1 {
            let mut l = [0u64; N];
            l[(k / 64) as usize] = 1 << (k % 64);
            v.push(Fp::from_limbs(l).unwrap());
        }
    }
    v
}

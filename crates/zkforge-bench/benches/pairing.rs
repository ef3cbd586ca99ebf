//! Criterion benches: each pairing case as one group, ours and every peer on the same inputs.
//! `cargo zkcriterion --bench pairing` (the bench build with +bmi2,+adx for arkworks' assembly).

// criterion_group! generates an undocumented `benches` function
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};

mod common;

/// The pairing cases under criterion.
fn pairing(c: &mut Criterion) {
    common::run(c, zkforge_bench::pairing::cases());
}

criterion_group!(benches, pairing);
criterion_main!(benches);

//! Criterion benches: each curve case as one group, ours and every peer on the same inputs.
//! `cargo zkcriterion --bench curve` (the bench build with +bmi2,+adx for arkworks' assembly).

// criterion_group! generates an undocumented `benches` function
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};

mod common;

/// The curve cases under criterion.
fn curve(c: &mut Criterion) {
    common::run(c, zkforge_bench::curve::cases());
}

criterion_group!(benches, curve);
criterion_main!(benches);

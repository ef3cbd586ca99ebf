//! Criterion benches: each field case as one group, ours and every peer on the same inputs.
//! `cargo zkcriterion --bench field` (the bench build with +bmi2,+adx for arkworks' assembly).

// criterion_group! generates an undocumented `benches` function
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};

mod common;

/// The field cases under criterion.
fn field(c: &mut Criterion) {
    common::run(c, zkforge_bench::field::cases());
}

criterion_group!(benches, field);
criterion_main!(benches);

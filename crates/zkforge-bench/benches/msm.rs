//! Criterion benches: each msm case as one group, ours and every peer on the same inputs.
//! `cargo zkcriterion --bench msm` (the bench build with +bmi2,+adx for arkworks' assembly).

// criterion_group! generates an undocumented `benches` function
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};

mod common;

/// The msm cases under criterion.
fn msm(c: &mut Criterion) {
    common::run(c, zkforge_bench::msm::cases());
}

criterion_group!(benches, msm);
criterion_main!(benches);

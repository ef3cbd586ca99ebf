//! Criterion benches: each field case as one group, ours and every peer on the same inputs.
//! `cargo bench -p zkforge-bench --bench field`

use criterion::{criterion_group, criterion_main, Criterion};

fn field(c: &mut Criterion) {
    for mut case in zkforge_bench::field::cases() {
        if let Some(check) = case.check.take() {
            if let Err(e) = check() {
                panic!("{}/{}/{}: outputs differ: {e}", case.group, case.curve, case.op);
            }
        }
        let mut g = c.benchmark_group(format!("{}/{}/{}", case.group, case.curve, case.op));
        g.bench_function("zkforge", |b| b.iter_custom(|n| (case.ours)(n)));
        for (name, r) in case.peers.iter_mut() {
            g.bench_function(*name, |b| b.iter_custom(|n| r(n)));
        }
        g.finish();
    }
}

criterion_group!(benches, field);
criterion_main!(benches);

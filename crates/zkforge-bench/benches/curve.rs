//! Criterion benches: each curve case as one group, ours and every peer on the same inputs.
//! `cargo bench -p zkforge-bench --bench curve`

use criterion::{criterion_group, criterion_main, Criterion};

fn curve(c: &mut Criterion) {
    for mut case in zkforge_bench::curve::cases() {
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

criterion_group!(benches, curve);
criterion_main!(benches);

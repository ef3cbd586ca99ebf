//! The one criterion driver of every bench file: each case becomes a criterion group with
//! ours and every peer as functions, after the case's agreement check.

use criterion::Criterion;

/// Run `cases` under criterion (a case whose implementations disagree stops the bench).
pub fn run(c: &mut Criterion, cases: Vec<zkforge_bench::Case>) {
    for mut case in cases {
        if let Some(check) = case.check.take() {
            if let Err(e) = check() {
                panic!("{}/{}/{}: outputs differ: {e}", case.group, case.curve, case.op);
            }
        }
        let mut g = c.benchmark_group(format!("{}/{}/{}/{}", case.group, case.curve, case.op, case.size));
        g.bench_function("zkforge", |b| b.iter_custom(|n| (case.ours)(n)));
        for (name, r) in case.peers.iter_mut() {
            g.bench_function(*name, |b| b.iter_custom(|n| r(n)));
        }
        g.finish();
    }
}

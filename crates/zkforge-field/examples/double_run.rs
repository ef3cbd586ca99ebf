//! Probe: a run of G2 Jacobian doublings (y^2 = x^3 + b' over Fp2, the formula of
//! `zkforge_curve`'s `Jacobian::double`) on IFMA lanes (`tower::double_run_lanes`) against the
//! scalar doubling, alternating chunks, fastest of each; both must give the same point.
//! `cargo run --release -p zkforge-field --example double_run`
use std::hint::black_box;
use std::time::Instant;

use zkforge_field::tower::{double_run_lanes, Fp2, TowerConfig};
use zkforge_field::{bls12_381, bn254};

type P<C, const N: usize> = (Fp2<C, N>, Fp2<C, N>, Fp2<C, N>);

fn dbl<C: TowerConfig<N>, const N: usize>((x, y, z): P<C, N>) -> P<C, N> {
    let a = x.square();
    let b2 = y.square().double();
    let d = (x * b2).double();
    let e = a.double() + a;
    let x3 = e.square() - d.double();
    let y3 = Fp2::mul_sub_double_square(&e, &(d - x3), &b2);
    (x3, y3, (y * z).double())
}

fn run<C: TowerConfig<N>, const N: usize>(name: &str) {
    let mut rng = rand::thread_rng();
    let p: P<C, N> = (Fp2::random(&mut rng), Fp2::random(&mut rng), Fp2::random(&mut rng));
    for n in [0u32, 1, 2, 3, 9, 16, 32] {
        let mut q = p;
        for _ in 0..n {
            q = dbl(q);
        }
        let Some(r) = double_run_lanes(&p.0, &p.1, &p.2, n) else {
            println!("no IFMA lanes on this CPU");
            return;
        };
        assert!(r == q, "{name} n={n}");
    }
    for n in [3u32, 5, 7, 9, 16, 32, 63] {
        let (mut ts, mut tl) = (f64::MAX, f64::MAX);
        for _ in 0..30 {
            let s = Instant::now();
            for _ in 0..200 {
                let mut q = black_box(p);
                for _ in 0..n {
                    q = dbl(q);
                }
                black_box(q);
            }
            ts = ts.min(s.elapsed().as_nanos() as f64 / 200.0);
            let s = Instant::now();
            for _ in 0..200 {
                let q = black_box(p);
                black_box(double_run_lanes(&q.0, &q.1, &q.2, n));
            }
            tl = tl.min(s.elapsed().as_nanos() as f64 / 200.0);
        }
        println!("{name} n={n:2}: scalar {:.0} ns ({:.0} a doubling), lanes {:.0} ns ({:.0} a doubling), lanes / scalar {:.3}", ts, ts / n as f64, tl, tl / n as f64, tl / ts);
    }
}

fn main() {
    run::<bls12_381::FpConfig, 6>("bls12_381");
    run::<bn254::FpConfig, 4>("bn254");
}

//! Probe: the reduced Fp2 product and square in their forms, latency chains, alternating
//! chunks, fastest chunk per variant: `*` under each `backend::set_fp2_product` value (two lazy
//! sums of products; Karatsuba over wide products and two REDC), the Karatsuba form inlined
//! at the call site (`Fp2Wide::mul_to` + `reduce`), and blst's `blst_fp2_mul`; the square as
//! two Montgomery products (`square`) against `Fp2Wide::square_to` + `reduce`.
//! `cargo run --release -p zkforge-field --example fp2_forms`
use std::hint::black_box;
use std::time::Instant;

use zkforge_field::backend::{set_fp2_product, Fp2Product};
use zkforge_field::bls12_381 as bls;
use zkforge_field::bn254 as bn;
use zkforge_field::tower::lazy::Fp2Wide;
use zkforge_field::tower::{Fp2, TowerConfig};

const CHUNK: u32 = 20_000;
const ROUNDS: usize = 30;

fn time(f: &mut impl FnMut()) -> f64 {
    let s = Instant::now();
    for _ in 0..CHUNK {
        f();
    }
    s.elapsed().as_nanos() as f64 / CHUNK as f64
}

/// [sums `*`, Karatsuba `*`, inlined Karatsuba, square, wide square] in ns.
fn forms<C: TowerConfig<N>, const N: usize>(x: Fp2<C, N>, y: Fp2<C, N>) -> [f64; 5] {
    let mut best = [f64::MAX; 5];
    let mut outs = [x; 5];
    for _ in 0..ROUNDS {
        for (k, form) in [Fp2Product::SumsOfProducts, Fp2Product::Karatsuba]
            .into_iter()
            .enumerate()
        {
            set_fp2_product(form);
            let mut a = x;
            best[k] = best[k].min(time(&mut || a = black_box(a) * y));
            outs[k] = a;
        }
        set_fp2_product(Fp2Product::Auto);
        let mut b = x;
        best[2] = best[2].min(time(&mut || {
            let mut w = Fp2Wide::ZERO;
            Fp2Wide::mul_to(&mut w, &black_box(b), &y);
            b = w.reduce();
        }));
        outs[2] = b;
        let mut s = x;
        best[3] = best[3].min(time(&mut || s = black_box(s).square()));
        outs[3] = s;
        let mut t = x;
        best[4] = best[4].min(time(&mut || {
            let mut w = Fp2Wide::ZERO;
            Fp2Wide::square_to(&mut w, &black_box(t));
            t = w.reduce();
        }));
        outs[4] = t;
    }
    assert!(outs[0] == outs[1] && outs[1] == outs[2] && outs[3] == outs[4]);
    best
}

fn main() {
    let mut rng = rand::thread_rng();
    let (x, y) = (
        bls::Fp2::random(&mut rng),
        bls::Fp2::random(&mut rng),
    );
    let f = forms(x, y);
    let mut c = blst::blst_fp2 {
        fp: [
            blst::blst_fp {
                l: x.c0.to_mont_limbs(),
            },
            blst::blst_fp {
                l: x.c1.to_mont_limbs(),
            },
        ],
    };
    let yb = blst::blst_fp2 {
        fp: [
            blst::blst_fp {
                l: y.c0.to_mont_limbs(),
            },
            blst::blst_fp {
                l: y.c1.to_mont_limbs(),
            },
        ],
    };
    let (mut tm, mut ts) = (f64::MAX, f64::MAX);
    let mut d = c;
    for _ in 0..ROUNDS {
        // SAFETY: blst's C functions on valid values; in-place use is allowed by blst.
        tm = tm.min(time(&mut || unsafe {
            blst::blst_fp2_mul(&mut c, &black_box(c), &yb)
        }));
        // SAFETY: as above.
        ts = ts.min(time(&mut || unsafe {
            blst::blst_fp2_sqr(&mut d, &black_box(d))
        }));
    }
    println!(
        "bls12_381 product: sums {:.1}, karatsuba {:.1}, karatsuba inlined {:.1}, blst {tm:.1} ns; square: two products {:.1}, wide + 2 redc {:.1}, blst {ts:.1} ns",
        f[0], f[1], f[2], f[3], f[4]
    );
    let (x, y) = (
        bn::Fp2::random(&mut rng),
        bn::Fp2::random(&mut rng),
    );
    let f = forms(x, y);
    println!(
        "bn254 product: sums {:.1}, karatsuba {:.1}, karatsuba inlined {:.1} ns; square: two products {:.1}, wide + 2 redc {:.1} ns",
        f[0], f[1], f[2], f[3], f[4]
    );
}

//! Probe: two forms of the Jacobian doubling (EFD dbl-2009-l, a = 0) on the four groups,
//! alternated in one process, each figure the fastest of 15 chunks of a doubling chain:
//! `squares`, D = 2 ((X + B)^2 - A - C) with C = B^2 reduced and 8 C by three doublings (the
//! form before 2026-12-06), and `product`, D = 2 X (2B) and Y3 = E (D - X3) - 2 (2B)^2 through
//! `CurveField::mul_sub_double_square` (one reduction on the lazy tower), the form
//! `Jacobian::double` takes now.
//! `cargo run --release -p zkforge-curve --example double_forms`.
use std::hint::black_box;
use std::time::Instant;
use zkforge_curve::field::CurveField;
use zkforge_curve::{bls12_381 as bls, bn254 as bn, CurveConfig, Jacobian};

fn best(reps: usize, mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..15 {
        let s = Instant::now();
        for _ in 0..reps {
            f();
        }
        best = best.min(s.elapsed().as_secs_f64() / reps as f64 * 1e9);
    }
    best
}

#[inline(never)]
fn squares<F: CurveField>(p: &[F; 3]) -> [F; 3] {
    let [x, y, z] = *p;
    let a = x.square();
    let b = y.square();
    let c = b.square();
    let d = ((x + b).square() - a - c).double();
    let e = a.double() + a;
    let x3 = e.square() - d.double();
    let y3 = e * (d - x3) - c.double().double().double();
    [x3, y3, (y * z).double()]
}

#[inline(never)]
fn product<F: CurveField>(p: &[F; 3]) -> [F; 3] {
    let [x, y, z] = *p;
    let a = x.square();
    let b2 = y.square().double();
    let d = (x * b2).double();
    let e = a.double() + a;
    let x3 = e.square() - d.double();
    let y3 = F::mul_sub_double_square(&e, &(d - x3), &b2);
    [x3, y3, (y * z).double()]
}

fn row<C: CurveConfig>(name: &str) {
    let g = Jacobian::<C>::generator().double();
    let p = [g.x(), g.y(), g.z()];
    assert_eq!(squares(&p), product(&p));
    let mut ratios = Vec::new();
    let (mut ta, mut tb) = (f64::MAX, f64::MAX);
    for _ in 0..5 {
        let mut q = p;
        let a = best(5000, || q = squares(black_box(&q)));
        let mut q = p;
        let b = best(5000, || q = product(black_box(&q)));
        ratios.push(format!("{:.3}", b / a));
        ta = ta.min(a);
        tb = tb.min(b);
    }
    println!("{name}: squares {ta:.1} ns, product {tb:.1} ns, product / squares per round {}", ratios.join(" "));
}

fn main() {
    row::<bls::G1Config>("BLS12-381 G1");
    row::<bn::G1Config>("BN254 G1");
    row::<bls::G2Config>("BLS12-381 G2");
    row::<bn::G2Config>("BN254 G2");
    madd_rows();
}

/// madd-2007-bl's Y3 as two reduced products, or through `mul_sub_mul`.
#[inline(never)]
fn madd<F: CurveField, const WIDE: bool>(p: &[F; 3], q: &[F; 2]) -> [F; 3] {
    let [x, y, z] = *p;
    let z1z1 = z.square();
    let u2 = q[0] * z1z1;
    let s2 = q[1] * z * z1z1;
    let h = u2 - x;
    let hh = h.square();
    let i = hh.double().double();
    let j = h * i;
    let r = (s2 - y).double();
    let v = x * i;
    let x3 = r.square() - j - v.double();
    let y3 = if WIDE { F::mul_sub_mul(&r, &(v - x3), &y, &j.double()) } else { r * (v - x3) - (y * j).double() };
    [x3, y3, (z + h).square() - z1z1 - hh]
}

pub fn madd_rows() {
    fn one<C: CurveConfig>(name: &str) {
        let g = Jacobian::<C>::generator().double().double();
        let a = Jacobian::<C>::generator().to_affine();
        let (p, q) = ([g.x(), g.y(), g.z()], [a.x(), a.y()]);
        assert_eq!(madd::<_, false>(&p, &q), madd::<_, true>(&p, &q));
        let mut ratios = Vec::new();
        for _ in 0..5 {
            let mut s = p;
            let t0 = best(5000, || s = madd::<_, false>(black_box(&s), &q));
            let mut s = p;
            let t1 = best(5000, || s = madd::<_, true>(black_box(&s), &q));
            ratios.push(format!("{:.3}", t1 / t0));
        }
        println!("{name} mixed addition: wide Y3 / reduced per round {}", ratios.join(" "));
    }
    one::<bls::G1Config>("BLS12-381 G1");
    one::<bls::G2Config>("BLS12-381 G2");
    one::<bn::G2Config>("BN254 G2");
}

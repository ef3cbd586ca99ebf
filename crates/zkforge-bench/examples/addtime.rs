//! Timing loop for Fp additions (a profiling helper, not a benchmark: see `cargo zkbench`).
use std::hint::black_box;
use std::time::Instant;
use zkforge_field::bls12_381::Fp;
fn main() {
    let mut a = black_box(Fp::from_u64(123456789) .square().square());
    let b = black_box(Fp::from_u64(987654321).square().square());
    let n = 20_000_000;
    let t = Instant::now();
    for _ in 0..n { a = a + b; }
    println!("ours add  {:.2} ns {:?}", t.elapsed().as_nanos() as f64 / n as f64, black_box(a).is_zero());
    let t = Instant::now();
    for _ in 0..n { a = a - b; }
    println!("ours sub  {:.2} ns", t.elapsed().as_nanos() as f64 / n as f64);
    let t = Instant::now();
    for _ in 0..n { a = a.double(); }
    println!("ours dbl  {:.2} ns", t.elapsed().as_nanos() as f64 / n as f64);
    let mut x = blst::blst_fp::default(); let y = blst::blst_fp { l: [1,2,3,4,5,6] };
    x.l = [7,8,9,10,11,12];
    let t = Instant::now();
    for _ in 0..n { let mut o = blst::blst_fp::default(); unsafe { blst::blst_fp_add(&mut o, &x, &y) }; x = o; }
    println!("blst add  {:.2} ns {}", t.elapsed().as_nanos() as f64 / n as f64, black_box(x).l[0]);
    let t = Instant::now();
    for _ in 0..n { let mut o = blst::blst_fp::default(); unsafe { blst::blst_fp_sub(&mut o, &x, &y) }; x = o; }
    println!("blst sub  {:.2} ns {}", t.elapsed().as_nanos() as f64 / n as f64, black_box(x).l[0]);
}

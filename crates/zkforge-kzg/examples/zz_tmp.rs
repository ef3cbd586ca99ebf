use std::time::Instant;
use zkforge_curve::bls12_381::{G1Affine, G1Projective};
use zkforge_field::bls12_381::Fr;
use zkforge_msm::{Buckets, FixedBaseMsm, PreparedBases};
fn main() {
    let g = G1Projective::generator();
    let pts: Vec<G1Affine> = (1..=4096u64).map(|i| g.mul_u64_vartime(i * 7919 + 3)).collect::<Vec<_>>().iter().map(|p| p.to_affine_vartime()).collect();
    let sc: Vec<Fr> = (0..4096u64).map(|i| Fr::from_u64(i * 31 + 1).pow_vartime(&[77])).collect();
    let pb = PreparedBases::new(&pts);
    let want = pb.msm(&sc, 1).unwrap();
    let t = Instant::now();
    for _ in 0..5 { std::hint::black_box(pb.msm(&sc, 1).unwrap()); }
    println!("prepared {:?}", t.elapsed() / 5);
    for (c, stride, b) in [(12u32, 1usize, 256usize), (10, 1, 256), (13, 1, 256), (14,1,512), (12, 2, 256), (16, 1, 1024), (11,1,256)] {
        let t0 = Instant::now();
        let fb = FixedBaseMsm::with_params(&pts, c, stride, Buckets::BatchAffine { batch: b }).unwrap();
        let build = t0.elapsed();
        assert_eq!(fb.msm(&sc).unwrap(), want);
        let t = Instant::now();
        for _ in 0..5 { std::hint::black_box(fb.msm(&sc).unwrap()); }
        println!("fixed c={c} s={stride} b={b}: {:?} build {:?} {} MB", t.elapsed() / 5, build, fb.memory_bytes() / 1000000);
    }
}

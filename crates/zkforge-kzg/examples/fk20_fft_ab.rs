//! `compute_cells_and_kzg_proofs` with FK20's G1 FFT products one by one against the IFMA
//! lanes (`KzgConfig::g1_fft_products`), alternating in one process: median of 15 blobs per
//! side, on one and two threads (`cargo run --release -p zkforge-kzg --example fk20_fft_ab`).
use std::time::Instant;
use zkforge_kzg::{KzgConfig, KzgSettings, MulManyMethod, BYTES_PER_BLOB};

fn main() {
    let mut blob = vec![0u8; BYTES_PER_BLOB];
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for c in blob.chunks_exact_mut(32) {
        for x in c[1..].iter_mut() {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            *x = (state >> 56) as u8;
        }
        c[0] = (state % 0x73) as u8;
    }
    for threads in [1, 2] {
        let make = |m| KzgSettings::mainnet_with(&KzgConfig { threads, g1_fft_products: m, ..KzgConfig::default() }).unwrap();
        let (a, b) = (make(MulManyMethod::OneByOne), make(MulManyMethod::Auto));
        assert_eq!(a.compute_cells_and_kzg_proofs(&blob).unwrap(), b.compute_cells_and_kzg_proofs(&blob).unwrap());
        let (mut ta, mut tb) = (Vec::new(), Vec::new());
        for _ in 0..15 {
            let t = Instant::now();
            std::hint::black_box(a.compute_cells_and_kzg_proofs(&blob).unwrap());
            ta.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            std::hint::black_box(b.compute_cells_and_kzg_proofs(&blob).unwrap());
            tb.push(t.elapsed().as_secs_f64() * 1e3);
        }
        ta.sort_by(f64::total_cmp);
        tb.sort_by(f64::total_cmp);
        println!("threads {threads}: one by one {:.1} ms, lanes (Auto) {:.1} ms, ratio {:.2}", ta[7], tb[7], tb[7] / ta[7]);
    }
}

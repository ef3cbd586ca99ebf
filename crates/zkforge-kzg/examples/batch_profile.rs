//! A loop of 64-blob batch verifications, for `perf record`; with the argument `cells`, a loop
//! of cell batch verifications (all 128 cells of 64 blobs, 8192 cells) instead; with `fused-ab`,
//! the 64-blob batch and single-blob verification with `KzgConfig::fused_blob_decode` on and off,
//! interleaved in chunks (fastest chunk per side: the A/B on a noisy machine); with `decode-ab`,
//! a 2048-cell batch with `KzgConfig::batch_point_decoding` on and off, alternating.
//! `cargo run --release -p zkforge-kzg --example batch_profile [cells|fused-ab|decode-ab]`
use zkforge_kzg::{KzgSettings, BYTES_PER_BLOB};

fn main() {
    let kzg = KzgSettings::mainnet_with_threads(1);
    let mut state = 0x1234_5678_9abc_def0u64;
    let blobs: Vec<Vec<u8>> = (0..64)
        .map(|_| {
            let mut b = vec![0u8; BYTES_PER_BLOB];
            for c in b.chunks_exact_mut(32) {
                for x in c[1..].iter_mut() {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    *x = (state >> 56) as u8;
                }
                c[0] = (state % 0x73) as u8;
            }
            b
        })
        .collect();
    let cs: Vec<[u8; 48]> = blobs.iter().map(|b| kzg.blob_to_kzg_commitment(b).unwrap()).collect();
    let ps: Vec<[u8; 48]> = blobs.iter().zip(&cs).map(|(b, c)| kzg.compute_blob_kzg_proof(b, c).unwrap()).collect();
    let b: Vec<&[u8]> = blobs.iter().map(|x| x.as_slice()).collect();
    let c: Vec<&[u8]> = cs.iter().map(|x| x.as_slice()).collect();
    let p: Vec<&[u8]> = ps.iter().map(|x| x.as_slice()).collect();
    if std::env::args().nth(1).as_deref() == Some("decode-ab") {
        // the cell batch of 16 blobs (2048 cells) with the proofs' and commitments' square roots
        // on lanes and one at a time, alternating; medians of 9 rounds
        let (mut cells, mut proofs) = (Vec::new(), Vec::new());
        for bl in &blobs[..16] {
            let (c, p) = kzg.compute_cells_and_kzg_proofs(bl).unwrap();
            cells.extend(c);
            proofs.extend(p);
        }
        let commitments: Vec<&[u8]> = cs[..16].iter().flat_map(|c| std::iter::repeat_n(c.as_slice(), 128)).collect();
        let indices: Vec<u64> = (0..16).flat_map(|_| 0..128u64).collect();
        let cells: Vec<&[u8]> = cells.chunks_exact(2048).collect();
        let proofs: Vec<&[u8]> = proofs.iter().map(|p| p.as_slice()).collect();
        let sides = [true, false].map(|batch_point_decoding| zkforge_kzg::KzgSettings::mainnet_with(&zkforge_kzg::KzgConfig { threads: 1, batch_point_decoding, ..Default::default() }).unwrap());
        let mut t = [Vec::new(), Vec::new()];
        for _round in 0..9 {
            for (k, side) in sides.iter().enumerate() {
                let s = std::time::Instant::now();
                assert!(side.verify_cell_kzg_proof_batch(&commitments, &indices, &cells, &proofs).unwrap());
                t[k].push(s.elapsed().as_secs_f64() * 1e3);
            }
        }
        for v in t.iter_mut() {
            v.sort_by(f64::total_cmp);
        }
        println!("2048-cell batch: lane roots {:.1} ms, one at a time {:.1} ms, ratio {:.2}", t[0][4], t[1][4], t[0][4] / t[1][4]);
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("cells") {
        let (mut cells, mut proofs) = (Vec::new(), Vec::new());
        for bl in &blobs {
            let (c, p) = kzg.compute_cells_and_kzg_proofs(bl).unwrap();
            cells.extend(c);
            proofs.extend(p);
        }
        let commitments: Vec<&[u8]> = cs.iter().flat_map(|c| std::iter::repeat_n(c.as_slice(), 128)).collect();
        let indices: Vec<u64> = (0..64).flat_map(|_| 0..128u64).collect();
        let cells: Vec<&[u8]> = cells.chunks_exact(2048).collect();
        let proofs: Vec<&[u8]> = proofs.iter().map(|p| p.as_slice()).collect();
        // the inputs took seconds: say when the loop starts (for `perf record -D`)
        eprintln!("inputs ready");
        let s = std::time::Instant::now();
        for _ in 0..10 {
            assert!(kzg.verify_cell_kzg_proof_batch(&commitments, &indices, &cells, &proofs).unwrap());
        }
        println!("8192-cell batch: {:.2} ms", s.elapsed().as_secs_f64() / 10.0 * 1e3);
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("fused-ab") {
        let sides = [true, false].map(|fused_blob_decode| zkforge_kzg::KzgSettings::mainnet_with(&zkforge_kzg::KzgConfig { fused_blob_decode, ..Default::default() }).unwrap());
        let mut best = [[f64::MAX; 2]; 2];
        for _round in 0..15 {
            for (k, side) in sides.iter().enumerate() {
                let s = std::time::Instant::now();
                for _ in 0..5 {
                    assert!(side.verify_blob_kzg_proof_batch(&b, &c, &p).unwrap());
                }
                best[k][0] = best[k][0].min(s.elapsed().as_secs_f64() / 5.0 * 1e3);
                let s = std::time::Instant::now();
                for i in 0..64 {
                    assert!(side.verify_blob_kzg_proof(b[i], c[i], p[i]).unwrap());
                }
                best[k][1] = best[k][1].min(s.elapsed().as_secs_f64() / 64.0 * 1e3);
            }
        }
        println!("64-blob batch: fused {:.3} ms, decode first {:.3} ms ({:.3})", best[0][0], best[1][0], best[0][0] / best[1][0]);
        println!("one blob: fused {:.4} ms, decode first {:.4} ms ({:.3})", best[0][1], best[1][1], best[0][1] / best[1][1]);
        return;
    }
    let s = std::time::Instant::now();
    for _ in 0..300 {
        assert!(kzg.verify_blob_kzg_proof_batch(&b, &c, &p).unwrap());
    }
    println!("64-blob batch: {:.2} ms", s.elapsed().as_secs_f64() / 300.0 * 1e3);
}

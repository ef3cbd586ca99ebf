//! Times the CPU decomposition and bucket sort (`plan::layout`) at 2^20 scalars.
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::time::Instant;
fn main() {
    let mut r = StdRng::seed_from_u64(1);
    let n = 1 << 20;
    let sc: Vec<[u64; 4]> = (0..n).map(|_| [r.gen(), r.gen(), r.gen(), r.gen::<u64>() >> 2]).collect();
    for c in [15u32, 16] {
        for _ in 0..3 {
            let t = Instant::now();
            let lay = zkforge_gpu::plan::layout(&sc, 0, c, 64);
            println!("c {c}: layout {:.1} ms ({} entries, {} runs)", t.elapsed().as_secs_f64() * 1e3, lay.entries.len(), lay.runs());
        }
    }
}

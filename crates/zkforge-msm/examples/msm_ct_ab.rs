//! `msm_ct` on BLS12-381 G1: the lanes against Straus on the same inputs, alternating in one
//! process (medians of 15 rounds), for the sizes a Bulletproofs+ prover meets (1 to 130 points).
//! `cargo run --release -p zkforge-msm --example msm_ct_ab`
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::time::Instant;
use zkforge_curve::{bls12_381::G1Config, sample_points};
use zkforge_msm::msm_ct::{lanes_apply, msm_ct_with, CtMsmMethod};

fn main() {
    println!("lanes apply: {}", lanes_apply::<G1Config>());
    let mut rng = StdRng::seed_from_u64(5);
    for n in [1usize, 2, 3, 4, 5, 6, 8, 9, 10, 11, 16, 18, 34, 66, 130, 258] {
        let pts = sample_points::<G1Config>(&mut rng, n);
        let ks: Vec<[u64; 4]> = (0..n).map(|_| [rng.gen(), rng.gen(), rng.gen(), rng.gen::<u64>() >> 2]).collect();
        let a = msm_ct_with(&pts, &ks, CtMsmMethod::Straus).unwrap();
        let b = msm_ct_with(&pts, &ks, CtMsmMethod::Lanes).unwrap();
        assert_eq!(a, b);
        let reps = (400 / n).max(3);
        let mut t = [Vec::new(), Vec::new(), Vec::new()];
        for _ in 0..15 {
            for (k, m) in [CtMsmMethod::Straus, CtMsmMethod::Lanes, CtMsmMethod::Auto].into_iter().enumerate() {
                let s = Instant::now();
                for _ in 0..reps {
                    std::hint::black_box(msm_ct_with(&pts, &ks, m).unwrap());
                }
                t[k].push(s.elapsed().as_secs_f64() / reps as f64 * 1e6);
            }
        }
        for v in t.iter_mut() {
            v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        }
        let (s, l, a) = (t[0][7], t[1][7], t[2][7]);
        println!("n {n:>4}: straus {s:>9.1} us  lanes {l:>9.1} us  auto {a:>9.1} us  lanes/straus {:.2}  auto/straus {:.2}", l / s, a / s);
    }
}

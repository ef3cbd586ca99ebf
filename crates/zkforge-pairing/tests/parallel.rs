//! The Miller loop split over threads (`*_parallel`, issue 19) against the single-threaded
//! one on both curves: 0 to 12, 16, 17 and 20 pairs in pools of 1, 2 and 3 threads, under
//! every `ParallelSplit` (whole lane groups of eight where the IFMA steps apply, near-equal
//! parts), identities among the pairs, true and false checks; the Miller-loop values agree
//! after the final exponentiation.

use std::sync::Mutex;

use rand::{Rng, SeedableRng};
use zkforge_curve::{bls12_381 as bls, bn254 as bn};
use zkforge_pairing::config::{set_parallel_split, ParallelSplit};

/// The split is process-wide: the tests take turns so that each runs under the value it set.
static SPLIT: Mutex<()> = Mutex::new(());

macro_rules! check_curve {
    ($c:ident, $pair:ident) => {{
        let _turn = SPLIT.lock().unwrap_or_else(|e| e.into_inner());
        let mut rng = rand::rngs::StdRng::seed_from_u64(19);
        let g1 = $c::G1Projective::generator();
        let g2 = $c::G2Projective::generator();
        for (split, threads) in [ParallelSplit::Auto, ParallelSplit::LaneGroups, ParallelSplit::Even].into_iter().flat_map(|s| (1..=3).map(move |t| (s, t))) {
            set_parallel_split(split);
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            for n in (0..13usize).chain([16, 17, 20]) {
                // pairs (a_i P, Q), each odd one made (-a_(i-1) P, Q): the check is true for even n
                let mut pairs = Vec::new();
                for _ in 0..n {
                    let a = $c::Scalar::from_u64(rng.gen::<u64>() | 1);
                    pairs.push(((g1 * a).to_affine(), g2.to_affine()));
                }
                // make the odd entries cancel the even ones
                for i in (1..n).step_by(2) {
                    pairs[i].0 = -pairs[i - 1].0;
                }
                if n == 7 {
                    // an identity among the pairs
                    pairs[3].0 = $c::G1Affine::IDENTITY;
                }
                let serial = $pair::pairing_check(&pairs);
                let parallel = pool.install(|| $pair::pairing_check_parallel(&pairs));
                assert_eq!(serial, parallel, "{split:?}, {threads} threads, {n} pairs");
                assert_eq!(serial, n % 2 == 0, "{n} pairs");
                let f = $pair::final_exponentiation(&$pair::multi_miller_loop(&pairs));
                let g = $pair::final_exponentiation(&pool.install(|| $pair::multi_miller_loop_parallel(&pairs)));
                assert_eq!(f, g, "{split:?}, {threads} threads, {n} pairs");
                // a random pair breaks every check
                let k = $c::Scalar::from_u64(rng.gen::<u64>() | 1);
                pairs.push(((g1 * k).to_affine(), (g2 * k).to_affine()));
                assert!(!pool.install(|| $pair::pairing_check_parallel(&pairs)));
            }
        }
        set_parallel_split(ParallelSplit::Auto);
    }};
}

#[test]
fn parallel_bls12_381() {
    use zkforge_pairing::bls12_381 as pb;
    check_curve!(bls, pb);
}

#[test]
fn parallel_bn254() {
    use zkforge_pairing::bn254 as pn;
    check_curve!(bn, pn);
}

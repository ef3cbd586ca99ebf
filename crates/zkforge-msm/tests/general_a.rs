//! The MSM on a group with a != 0 and no endomorphism (`test_curves::ToyA5`): every bucket kind,
//! thread split, small-size method and the GLV switch (which has no effect without an
//! endomorphism) give the naive sum; `PreparedBases` too.

use rand::{rngs::StdRng, Rng, SeedableRng};
use zkforge_curve::point::{Affine, Jacobian};
use zkforge_curve::test_curves::ToyA5;
use zkforge_msm::{msm_with, Buckets, MsmConfig, PreparedBases, SmallMethod, Split};

#[test]
fn msm_without_endomorphism_and_with_a() {
    let mut rng = StdRng::seed_from_u64(55);
    let g = Affine::<ToyA5>::generator().to_jacobian();
    for n in [1usize, 5, 63, 64, 200] {
        // points k_i G for random small k_i, scalars below 2^250 (the toy group's order is unknown)
        let pts: Vec<Affine<ToyA5>> = (0..n).map(|_| g.mul_bigint_vartime(&[rng.gen::<u32>() as u64 + 1]).to_affine()).collect();
        let ks: Vec<[u64; 4]> = (0..n).map(|_| [rng.gen(), rng.gen(), rng.gen(), rng.gen::<u64>() >> 8]).collect();
        let want = pts.iter().zip(&ks).fold(Jacobian::<ToyA5>::IDENTITY, |acc, (p, k)| acc.add(&p.to_jacobian().mul_bigint_vartime(k)));
        for glv in [false, true] {
            for buckets in [Buckets::Xyzz, Buckets::BatchAffine { batch: 16 }, Buckets::BatchAffineSimd { batch: 16 }] {
                for (threads, split) in [(1, Split::Windows), (2, Split::Windows), (2, Split::Points)] {
                    for (small_threshold, small_method) in [(64, SmallMethod::Straus), (64, SmallMethod::Singles), (0, SmallMethod::Straus)] {
                        let cfg = MsmConfig { window: None, glv, buckets, small_threshold, small_method, threads, split };
                        let got = msm_with(&pts, &ks, &cfg).expect("valid config");
                        assert_eq!(got.to_affine(), want.to_affine(), "n {n} {cfg:?}");
                    }
                }
            }
        }
        let prepared = PreparedBases::new(&pts);
        assert_eq!(prepared.msm(&ks, 1).expect("lengths").to_affine(), want.to_affine(), "prepared, n {n}");
    }
}

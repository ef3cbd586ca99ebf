//! The IFMA bucket accumulator's running sums on lanes (`ifma::set_running_sum_lanes`) against
//! the one-bucket-at-a-time loop and XYZZ buckets: BLS12-381 G1 MSMs with windows 7 to 12 (64 to
//! 2048 buckets per window), random inputs, repeated points (overflow accumulators, equal
//! running sums), P and -P (sums that vanish inside a segment), identities among the bases, and
//! scalars that fill a single bucket; the fixed-base tables and FK20-style many-sum passes too.

use rand::{rngs::StdRng, Rng, SeedableRng};
use zkforge_curve::bls12_381::G1Config;
use zkforge_curve::point::Affine;
use zkforge_curve::sample_points;
use zkforge_msm::{msm_with, Buckets, FixedBaseMany, MsmConfig, SmallMethod, Split};

fn cfg(window: u32, buckets: Buckets, threads: usize) -> MsmConfig {
    MsmConfig { window: Some(window), glv: true, buckets, small_threshold: 0, small_method: SmallMethod::Straus, threads, split: Split::Windows }
}

#[test]
fn running_sums_on_lanes_match() {
    let mut rng = StdRng::seed_from_u64(64);
    let n = 1500;
    let pts = sample_points::<G1Config>(&mut rng, n);
    let ks: Vec<[u64; 4]> = (0..n).map(|_| [rng.gen(), rng.gen(), rng.gen(), rng.gen::<u64>() >> 2]).collect();
    let p0 = pts[0];
    let small: Vec<[u64; 4]> = (0..n).map(|i| [(i % 300) as u64 + 1, 0, 0, 0]).collect();
    let cases: Vec<(Vec<Affine<G1Config>>, Vec<[u64; 4]>)> = vec![
        (pts.clone(), ks.clone()),
        (vec![p0; n], ks.clone()),
        (vec![p0; n], vec![[77, 0, 0, 0]; n]),
        (pts.iter().enumerate().map(|(i, p)| if i % 2 == 0 { *p } else { -pts[i - 1] }).collect(), (0..n).map(|i| ks[i / 2 * 2]).collect()),
        (pts.iter().enumerate().map(|(i, p)| if i % 5 == 0 { Affine::IDENTITY } else { *p }).collect(), ks.clone()),
        (pts.clone(), small.clone()),
        (pts[..7].iter().cycle().take(n).copied().collect(), small),
    ];
    for (ci, (p, k)) in cases.iter().enumerate() {
        let want = msm_with(p, k, &cfg(8, Buckets::Xyzz, 1)).unwrap();
        for window in 7..=12 {
            for threads in [1, 2] {
                for on in [true, false] {
                    zkforge_msm::ifma::set_running_sum_lanes(on);
                    let got = msm_with(p, k, &cfg(window, Buckets::BatchAffineSimd { batch: 256 }, threads)).unwrap();
                    zkforge_msm::ifma::set_running_sum_lanes(true);
                    assert_eq!(got, want, "case {ci}, window {window}, threads {threads}, lanes {on}");
                }
            }
        }
    }
}

#[test]
fn many_sums_on_lanes_match() {
    // 16 lists of 64 points as FK20's positions, every window from 5 to 9, both settings
    let mut rng = StdRng::seed_from_u64(65);
    let lists: Vec<Vec<Affine<G1Config>>> = (0..16).map(|_| sample_points::<G1Config>(&mut rng, 64)).collect();
    let mut scalars: Vec<zkforge_field::bls12_381::Fr> = (0..16 * 64).map(|_| zkforge_field::bls12_381::Fr::random(&mut rng)).collect();
    // a list whose scalars are all equal (one bucket per window)
    for s in scalars[64..128].iter_mut() {
        *s = zkforge_field::bls12_381::Fr::from_u64(5);
    }
    for window in 5..=9 {
        let t = FixedBaseMany::new(&lists, window, 64, 256).unwrap();
        let mut outs = Vec::new();
        for on in [true, false] {
            zkforge_msm::ifma::set_running_sum_lanes(on);
            outs.push(t.msm_many(&scalars, 1).unwrap());
            zkforge_msm::ifma::set_running_sum_lanes(true);
        }
        assert_eq!(outs[0], outs[1], "window {window}");
        for (j, l) in lists.iter().enumerate() {
            let ks: Vec<[u64; 4]> = scalars[j * 64..(j + 1) * 64].iter().map(|s| s.to_limbs()).collect();
            assert_eq!(outs[0][j], msm_with(l, &ks, &cfg(6, Buckets::Xyzz, 1)).unwrap(), "window {window} list {j}");
        }
    }
}

//! Inputs shared by the lane tests (`mul_many.rs`, `msm_ct.rs`): random scalars and the
//! special scalars every lane kernel must survive.

use rand::{rngs::StdRng, Rng};
use zkforge_curve::CurveConfig;

/// `n` random 256-bit scalars (not reduced: the entry points reduce them).
pub fn random_scalars(rng: &mut StdRng, n: usize) -> Vec<[u64; 4]> {
    (0..n).map(|_| [rng.gen(), rng.gen(), rng.gen(), rng.gen()]).collect()
}

/// 0, 1, 2, 3, r - 1, r, r + 1, 2^256 - 1, lambda and its neighbours (a GLV part of 0 or 1),
/// 2^128, 2^128 - 1 (the largest low part), 2^254.
pub fn special_scalars<C: CurveConfig>(lambda: [u64; 4]) -> Vec<[u64; 4]> {
    let r = C::ORDER;
    let sub1 = |k: [u64; 4]| {
        let (a, b) = k[0].overflowing_sub(1);
        [a, if b { k[1] - 1 } else { k[1] }, k[2], k[3]]
    };
    let add1 = |k: [u64; 4]| {
        let (a, c) = k[0].overflowing_add(1);
        [a, if c { k[1] + 1 } else { k[1] }, k[2], k[3]]
    };
    vec![
        [0, 0, 0, 0],
        [1, 0, 0, 0],
        [2, 0, 0, 0],
        [3, 0, 0, 0],
        sub1(r),
        r,
        add1(r),
        [u64::MAX; 4],
        lambda,
        sub1(lambda),
        add1(lambda),
        [0, 0, 1, 0],
        [u64::MAX, u64::MAX, 0, 0],
        [0, 0, 0, 1 << 62],
    ]
}

/// z^2 - 1 for BLS12-381 G1 (the eigenvalue of phi), as little-endian limbs.
pub const BLS12_381_LAMBDA: [u64; 4] = {
    let z: u128 = 0xd201000000010000;
    let v = z * z - 1;
    [v as u64, (v >> 64) as u64, 0, 0]
};

/// A random-looking 192-bit scalar standing in for lambda on BN254.
pub const BN254_LAMBDA: [u64; 4] = [0x8b17ea66b99c90dd, 0x5bfc41088d8daaa7, 0xb3c4d79d41a91758, 0];

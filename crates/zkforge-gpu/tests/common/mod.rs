//! Inputs shared by the GPU test files: seeded RNGs, raw scalars, and bases with the awkward
//! cases (identities, repeats, P next to -P) mixed in.
#![allow(dead_code)]

use rand::{rngs::StdRng, Rng, SeedableRng};
use zkforge_curve::{Affine, CurveConfig, Jacobian};

/// A seeded generator; the seed is printed, and `ZKFORGE_TEST_SEED` replays one.
pub fn rng() -> StdRng {
    let seed: u64 = std::env::var("ZKFORGE_TEST_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random);
    eprintln!("seed {seed}");
    StdRng::seed_from_u64(seed)
}

/// n raw (unreduced) 256-bit scalars.
pub fn random_scalars(r: &mut StdRng, n: usize) -> Vec<[u64; 4]> {
    (0..n).map(|_| [r.gen(), r.gen(), r.gen(), r.gen()]).collect()
}

/// n field elements (n >= 3): 0, 1 and -1 first, then random ones.
pub fn field_scalars<F: zkforge_field::mont::FieldConfig<4>>(r: &mut StdRng, n: usize) -> Vec<zkforge_field::mont::Fp<F, 4>> {
    use zkforge_field::mont::Fp;
    let mut fr: Vec<Fp<F, 4>> = vec![Fp::ZERO, Fp::ONE, -Fp::<F, 4>::ONE];
    fr.extend((3..n).map(|_| Fp::random_with(|| r.gen())));
    fr
}

/// The integer scalars at the edges of a reduction mod r: every multiple j r below 2^256 with
/// its neighbours j r - 1 and j r + 1, then 2^256 - 1.
pub fn order_multiples<C: CurveConfig>() -> Vec<[u64; 4]> {
    let mut out = Vec::new();
    let mut k = [0u64; 4];
    loop {
        let (next, carry) = zkforge_field::limbs::add(&k, &C::ORDER);
        if carry != 0 {
            break;
        }
        k = next;
        out.extend([zkforge_field::limbs::sub(&k, &[1, 0, 0, 0]).0, k, zkforge_field::limbs::add(&k, &[1, 0, 0, 0]).0]);
    }
    out.push([u64::MAX; 4]);
    out
}

/// n scalars of one shape drawn at random: uniform 256-bit integers, small ones (below 2^16),
/// one value repeated (one bucket a window), mostly zero, the reduction's edges
/// ([`order_multiples`]) mixed with random ones, or 2^b - 1, 2^b, 2^b + 1 for random bits b
/// (window digits at their carry edges).
pub fn scalar_shape<C: CurveConfig>(r: &mut StdRng, n: usize) -> Vec<[u64; 4]> {
    let mut sc = random_scalars(r, n);
    match r.gen_range(0..6) {
        0 => {}
        1 => sc.iter_mut().for_each(|k| *k = [r.gen_range(0..1 << 16), 0, 0, 0]),
        2 => {
            let k = sc.first().copied().unwrap_or_default();
            sc.iter_mut().for_each(|s| *s = k);
        }
        3 => {
            for k in sc.iter_mut() {
                if r.gen_ratio(7, 8) {
                    *k = [0; 4];
                }
            }
        }
        4 => {
            let edges = order_multiples::<C>();
            for k in sc.iter_mut() {
                if r.gen() {
                    *k = edges[r.gen_range(0..edges.len())];
                }
            }
        }
        _ => {
            for k in sc.iter_mut() {
                let b = r.gen_range(0..256usize);
                let mut v = [0u64; 4];
                v[b / 64] = 1 << (b % 64);
                *k = match r.gen_range(0..3) {
                    0 => zkforge_field::limbs::sub(&v, &[1, 0, 0, 0]).0,
                    1 => v,
                    _ => zkforge_field::limbs::add(&v, &[1, 0, 0, 0]).0,
                };
            }
        }
    }
    sc
}

/// Bases with the awkward cases mixed in: identities, repeats, P next to -P.
pub fn awkward<C: CurveConfig>(r: &mut StdRng, n: usize) -> Vec<Affine<C>> {
    let mut pts = zkforge_curve::sample_points::<C>(r, n);
    for i in 0..n {
        match i % 7 {
            1 => pts[i] = Affine::<C>::IDENTITY,
            3 if i > 0 => pts[i] = pts[i - 1],
            5 if i > 0 => pts[i] = -pts[i - 1],
            _ => {}
        }
    }
    pts
}

/// n distinct points (i + 1) G' for a random G' (cheap at millions of points), with the
/// awkward cases mixed in every 4099 points: identities, repeats and P next to -P.
pub fn many_points<C: CurveConfig>(r: &mut StdRng, n: usize) -> Vec<Affine<C>> {
    let g = zkforge_curve::sample_points::<C>(r, 1)[0];
    let mut acc = g.to_jacobian();
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        v.push(acc);
        acc = acc.add_mixed_vartime(&g);
    }
    let mut pts = Jacobian::batch_to_affine(&v);
    for i in (5..n).step_by(4099) {
        pts[i - 1] = Affine::<C>::IDENTITY;
        pts[i - 2] = pts[i - 3];
        pts[i - 4] = -pts[i - 5];
    }
    pts
}

type E<F, const N: usize> = zkforge_field::mont::Fp<F, N>;
/// Field test pairs, and their Montgomery words.
pub type FieldPairs<F, const N: usize> = (Vec<(E<F, N>, E<F, N>)>, Vec<u32>);

/// Pairs (a, b) for the field test kernels: every pair of 0, 1, p - 1, 2, p - 2, then random
/// pairs up to `n`, as Montgomery words (`to_mont_words`, 2 W words a pair).
pub fn field_pairs<C, F, const N: usize>(r: &mut StdRng, n: usize) -> FieldPairs<F, N>
where
    C: zkforge_gpu::GpuCurve<Base = E<F, N>>,
    F: zkforge_field::mont::FieldConfig<N>,
{
    let pm1 = -E::<F, N>::ONE;
    let edge = [E::<F, N>::ZERO, E::ONE, pm1, E::from_u64(2), pm1 - E::ONE];
    let mut pairs: Vec<(E<F, N>, E<F, N>)> = edge.iter().flat_map(|&a| edge.iter().map(move |&b| (a, b))).collect();
    while pairs.len() < n {
        pairs.push((E::random(&mut *r), E::random(&mut *r)));
    }
    let w = C::WORDS;
    let mut words = vec![0u32; pairs.len() * 2 * w];
    for (i, (a, b)) in pairs.iter().enumerate() {
        C::to_mont_words(a, &mut words[2 * i * w..(2 * i + 1) * w]);
        C::to_mont_words(b, &mut words[(2 * i + 1) * w..(2 * i + 2) * w]);
    }
    (pairs, words)
}

/// What the field test kernels compute for (a, b): a b, a + b, a - b, a^-1 (0 for 0), -a, and
/// x <- x^2 + b 1000 times from a.
pub fn field_want<F: zkforge_field::mont::FieldConfig<N>, const N: usize>(a: E<F, N>, b: E<F, N>) -> [E<F, N>; 6] {
    let inv = if a == E::ZERO { E::ZERO } else { a.invert_fermat().unwrap() };
    let mut x = a;
    for _ in 0..1000 {
        x = x.square() + b;
    }
    [a * b, a + b, a - b, inv, -a, x]
}

/// Checks the field kernels' Montgomery-word output against [`field_want`].
pub fn check_field_out<C, F, const N: usize>(pairs: &[(E<F, N>, E<F, N>)], out: &[u32], what: &str)
where
    C: zkforge_gpu::GpuCurve<Base = E<F, N>>,
    F: zkforge_field::mont::FieldConfig<N>,
{
    let w = C::WORDS;
    for (i, &(a, b)) in pairs.iter().enumerate() {
        for (k, v) in field_want(a, b).iter().enumerate() {
            let o = (6 * i + k) * w;
            assert_eq!(C::from_mont_words(&out[o..o + w]), *v, "op {k} on pair {i} ({what})");
        }
    }
}

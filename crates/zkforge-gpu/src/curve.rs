//! The two G1 groups the GPU MSM runs on, and the conversions between zkforge-field elements
//! and the GPU's packed words: canonical 32-bit little-endian words going up (the GPU enters
//! Montgomery form itself), Montgomery-13 words (value a R, R = 2^(13 N)) coming down, read
//! as zkforge's own Montgomery limbs (value a R R64^-1, R64 = 2^(64 limbs)) and turned into a
//! by one multiplication by R64 R^-1.

use crate::field_gen::{FieldSpec, LIMB_BITS};
use std::sync::OnceLock;
use zkforge_curve::{bls12_381, bn254, CurveConfig};
use zkforge_field::mont::{FieldConfig, Fp};

/// A G1 group with GPU kernels: both have a = 0 and a 255/254-bit scalar field.
pub trait GpuCurve: CurveConfig {
    /// Packed 32-bit words per base-field element.
    const WORDS: usize;
    /// The base field's generator parameters.
    fn spec() -> &'static FieldSpec;
    /// The scalar field's generator parameters (modulus r, 8 words): the kernels that turn
    /// uploaded scalars into their residues mod r.
    fn scalar_spec() -> &'static FieldSpec;
    /// Canonical little-endian words of `x` into `out` (`WORDS` long).
    fn to_words(x: &Self::Base, out: &mut [u32]);
    /// The element whose Montgomery-13 representation is `w` (a R mod p, below p).
    fn from_mont13_words(w: &[u32]) -> Self::Base;
    /// zkforge's Montgomery limbs of `x` (a 2^(64 limbs) mod p) as little-endian 32-bit words
    /// into `out` (`WORDS` long): the CUDA backend's form, R = 2^(32 WORDS).
    fn to_mont_words(x: &Self::Base, out: &mut [u32]);
    /// The element whose Montgomery words (as [`GpuCurve::to_mont_words`] writes) are `w`; a
    /// value >= p (a kernel bug) is reduced rather than trusted.
    fn from_mont_words(w: &[u32]) -> Self::Base;
}

fn from_mont<C: FieldConfig<N>, const N: usize>(w: &[u32]) -> Fp<C, N> {
    let l = limbs_of::<N>(w);
    Fp::<C, N>::from_mont_limbs(l).unwrap_or_else(|_| {
        // The words encode l R^-1 for the integer l >= p: (l mod p) R^-1, with l mod p by
        // subtracting p (2^(64 N) / p is below 10 for both fields).
        let mut x = l;
        while !below(&x, &C::MODULUS) {
            let mut borrow = 0u64;
            for (xi, pi) in x.iter_mut().zip(C::MODULUS) {
                let (d, b1) = xi.overflowing_sub(pi);
                let (d, b2) = d.overflowing_sub(borrow);
                *xi = d;
                borrow = u64::from(b1 | b2);
            }
        }
        Fp::<C, N>::from_mont_limbs(x).expect("reduced below p")
    })
}

/// a < b for little-endian limbs.
fn below<const N: usize>(a: &[u64; N], b: &[u64; N]) -> bool {
    for i in (0..N).rev() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
    }
    false
}

fn spec_of<C: FieldConfig<N>, const N: usize>(words: usize) -> FieldSpec {
    let base = FieldSpec { modulus: C::MODULUS.to_vec(), words, r2: Vec::new() };
    let n = base.limbs() as u64;
    let r2 = Fp::<C, N>::from_u64(2).pow(&[2 * LIMB_BITS as u64 * n]).to_limbs().to_vec();
    FieldSpec { r2, ..base }
}

/// R64 R^-1 mod p: the factor from Montgomery-13 words read as zkforge Montgomery limbs to
/// the element (R = 2^(13 N) of the GPU, R64 = 2^(64 limbs) of zkforge-field).
fn down_factor<C: FieldConfig<N>, const N: usize>(spec: &FieldSpec) -> Fp<C, N> {
    let two = Fp::<C, N>::from_u64(2);
    let r = two.pow(&[LIMB_BITS as u64 * spec.limbs() as u64]);
    // R is a power of two, never 0 mod an odd prime.
    two.pow(&[64 * N as u64]) * r.invert_fermat().unwrap()
}

/// The element whose Montgomery-13 representation is `w`, given `down_factor`.
fn from_mont13<C: FieldConfig<N>, const N: usize>(w: &[u32], factor: &Fp<C, N>) -> Fp<C, N> {
    let l = limbs_of::<N>(w);
    // The GPU only writes reduced values; one >= p would be a kernel bug, and is reduced here
    // rather than trusted (the canonical limbs of the reduction always pass the check).
    let e = Fp::<C, N>::from_mont_limbs(l).unwrap_or_else(|_| Fp::from_mont_limbs(reduce_slow::<C, N>(l).to_limbs()).expect("canonical limbs"));
    e * *factor
}

fn words_of<const N: usize>(limbs: [u64; N], out: &mut [u32]) {
    for (i, o) in out.iter_mut().enumerate() {
        let l = limbs[i / 2];
        *o = if i % 2 == 0 { l as u32 } else { (l >> 32) as u32 };
    }
}

fn limbs_of<const N: usize>(w: &[u32]) -> [u64; N] {
    let mut l = [0u64; N];
    for (i, &x) in w.iter().enumerate() {
        l[i / 2] |= (x as u64) << (32 * (i % 2));
    }
    l
}

impl GpuCurve for bls12_381::G1Config {
    const WORDS: usize = 12;
    fn spec() -> &'static FieldSpec {
        static S: OnceLock<FieldSpec> = OnceLock::new();
        S.get_or_init(|| spec_of::<zkforge_field::bls12_381::FpConfig, 6>(12))
    }
    fn scalar_spec() -> &'static FieldSpec {
        static S: OnceLock<FieldSpec> = OnceLock::new();
        S.get_or_init(|| spec_of::<zkforge_field::bls12_381::FrConfig, 4>(8))
    }
    fn to_words(x: &Self::Base, out: &mut [u32]) {
        words_of(x.to_limbs(), out)
    }
    fn from_mont13_words(w: &[u32]) -> Self::Base {
        static F: OnceLock<zkforge_field::bls12_381::Fp> = OnceLock::new();
        from_mont13(w, F.get_or_init(|| down_factor(Self::spec())))
    }
    fn to_mont_words(x: &Self::Base, out: &mut [u32]) {
        words_of(x.to_mont_limbs(), out)
    }
    fn from_mont_words(w: &[u32]) -> Self::Base {
        from_mont(w)
    }
}

impl GpuCurve for bn254::G1Config {
    const WORDS: usize = 8;
    fn spec() -> &'static FieldSpec {
        static S: OnceLock<FieldSpec> = OnceLock::new();
        S.get_or_init(|| spec_of::<zkforge_field::bn254::FpConfig, 4>(8))
    }
    fn scalar_spec() -> &'static FieldSpec {
        static S: OnceLock<FieldSpec> = OnceLock::new();
        S.get_or_init(|| spec_of::<zkforge_field::bn254::FrConfig, 4>(8))
    }
    fn to_words(x: &Self::Base, out: &mut [u32]) {
        words_of(x.to_limbs(), out)
    }
    fn from_mont13_words(w: &[u32]) -> Self::Base {
        static F: OnceLock<zkforge_field::bn254::Fp> = OnceLock::new();
        from_mont13(w, F.get_or_init(|| down_factor(Self::spec())))
    }
    fn to_mont_words(x: &Self::Base, out: &mut [u32]) {
        words_of(x.to_mont_limbs(), out)
    }
    fn from_mont_words(w: &[u32]) -> Self::Base {
        from_mont(w)
    }
}

/// x mod p for any x below 2^(64 N), bit by bit (only reached if a kernel misbehaved).
fn reduce_slow<C: FieldConfig<N>, const N: usize>(x: [u64; N]) -> Fp<C, N> {
    let two = Fp::<C, N>::from_u64(2);
    let mut acc = Fp::<C, N>::ZERO;
    for i in (0..64 * N).rev() {
        acc *= two;
        if (x[i / 64] >> (i % 64)) & 1 == 1 {
            acc += Fp::<C, N>::ONE;
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words of a R mod p (what the GPU writes) come back as a, for both curves, including the
    /// edge values; a value >= p (a kernel bug) is reduced, not misread.
    fn round_trip<G: GpuCurve<Base = Fp<C, N>>, C: FieldConfig<N>, const N: usize>() {
        let r = Fp::<C, N>::from_u64(2).pow(&[LIMB_BITS as u64 * G::spec().limbs() as u64]);
        let mut x = 0x243f6a8885a308d3u64;
        let mut vals = vec![Fp::<C, N>::ZERO, Fp::ONE, -Fp::<C, N>::ONE];
        for _ in 0..50 {
            vals.push(Fp::random_with(|| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            }));
        }
        for a in vals {
            let mut w = vec![0u32; G::WORDS];
            G::to_words(&(a * r), &mut w);
            assert_eq!(G::from_mont13_words(&w), a);
            // The CUDA form: zkforge's Montgomery limbs as words, and back; p + (a R64 mod p)
            // (a value >= p, a kernel bug) reads the same.
            G::to_mont_words(&a, &mut w);
            assert_eq!(G::from_mont_words(&w), a);
            let (sum, carry) = zkforge_field::limbs::add(&a.to_mont_limbs(), &C::MODULUS);
            if carry == 0 {
                words_of(sum, &mut w);
                assert_eq!(G::from_mont_words(&w), a);
            }
            // p + (a R mod p), when it fits the words, reads the same.
            let mut l = (a * r).to_limbs();
            let (sum, carry) = zkforge_field::limbs::add(&l, &C::MODULUS);
            if carry == 0 {
                l = sum;
                let mut w2 = vec![0u32; G::WORDS];
                words_of(l, &mut w2);
                assert_eq!(G::from_mont13_words(&w2), a);
            }
        }
    }

    #[test]
    fn mont13_words_round_trip() {
        round_trip::<bls12_381::G1Config, zkforge_field::bls12_381::FpConfig, 6>();
        round_trip::<bn254::G1Config, zkforge_field::bn254::FpConfig, 4>();
    }
}

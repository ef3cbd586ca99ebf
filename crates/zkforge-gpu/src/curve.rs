//! The two G1 groups the GPU MSM runs on, and the conversions between zkforge-field elements
//! and the GPU's packed words: canonical 32-bit little-endian words going up (the GPU enters
//! Montgomery form itself), Montgomery-13 words (value a R, R = 2^(13 N)) coming down, turned
//! back into field elements by one multiplication by R^-1 on the CPU.

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
    /// Canonical little-endian words of `x` into `out` (`WORDS` long).
    fn to_words(x: &Self::Base, out: &mut [u32]);
    /// The element whose Montgomery-13 representation is `w` (a R mod p, below p).
    fn from_mont13_words(w: &[u32]) -> Self::Base;
}

fn spec_of<C: FieldConfig<N>, const N: usize>(words: usize) -> FieldSpec {
    let base = FieldSpec { modulus: C::MODULUS.to_vec(), words, r2: Vec::new() };
    let n = base.limbs() as u64;
    let r2 = Fp::<C, N>::from_u64(2).pow(&[2 * LIMB_BITS as u64 * n]).to_limbs().to_vec();
    FieldSpec { r2, ..base }
}

fn r_inv<C: FieldConfig<N>, const N: usize>(spec: &FieldSpec) -> Fp<C, N> {
    let r = Fp::<C, N>::from_u64(2).pow(&[LIMB_BITS as u64 * spec.limbs() as u64]);
    // R is a power of two, never 0 mod an odd prime.
    r.invert_fermat().unwrap()
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
    fn to_words(x: &Self::Base, out: &mut [u32]) {
        words_of(x.to_limbs(), out)
    }
    fn from_mont13_words(w: &[u32]) -> Self::Base {
        static RI: OnceLock<zkforge_field::bls12_381::Fp> = OnceLock::new();
        let ri = RI.get_or_init(|| r_inv(Self::spec()));
        // The GPU only writes reduced values; a value >= p would be a kernel bug, and is
        // reduced here rather than trusted.
        let v = zkforge_field::bls12_381::Fp::from_limbs(limbs_of::<6>(w)).unwrap_or_else(|_| reduce_slow::<_, 6>(limbs_of::<6>(w)));
        v * *ri
    }
}

impl GpuCurve for bn254::G1Config {
    const WORDS: usize = 8;
    fn spec() -> &'static FieldSpec {
        static S: OnceLock<FieldSpec> = OnceLock::new();
        S.get_or_init(|| spec_of::<zkforge_field::bn254::FpConfig, 4>(8))
    }
    fn to_words(x: &Self::Base, out: &mut [u32]) {
        words_of(x.to_limbs(), out)
    }
    fn from_mont13_words(w: &[u32]) -> Self::Base {
        static RI: OnceLock<zkforge_field::bn254::Fp> = OnceLock::new();
        let ri = RI.get_or_init(|| r_inv(Self::spec()));
        let v = zkforge_field::bn254::Fp::from_limbs(limbs_of::<4>(w)).unwrap_or_else(|_| reduce_slow::<_, 4>(limbs_of::<4>(w)));
        v * *ri
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

//! Differential tests of the four prime fields against arkworks: every operation on
//! `iters()` (10,000) fresh random inputs and on all pairs of edge values, plus the
//! encodings' rejection of non-canonical values and wrong lengths.

mod common;

use ark_ff::{BigInt, BigInteger, LegendreSymbol, PrimeField};
use common::*;
use zkforge_field::{bls12_381, bn254, FieldConfig, FieldError, Fp};

fn check_pair<C: FieldConfig<N>, const N: usize, A: PrimeField<BigInt = BigInt<N>>>(a: Fp<C, N>, b: Fp<C, N>) {
    let (aa, ab): (A, A) = (to_ark(&a), to_ark(&b));
    assert_eq!(to_ark::<C, N, A>(&(a + b)), aa + ab, "add {a:?} {b:?}");
    assert_eq!(to_ark::<C, N, A>(&(a - b)), aa - ab, "sub {a:?} {b:?}");
    assert_eq!(to_ark::<C, N, A>(&(a * b)), aa * ab, "mul {a:?} {b:?}");
}

fn check_unary<C: FieldConfig<N>, const N: usize, A: PrimeField<BigInt = BigInt<N>>>(a: Fp<C, N>) {
    let aa: A = to_ark(&a);
    assert_eq!(to_ark::<C, N, A>(&a.square()), aa.square(), "square {a:?}");
    assert_eq!(to_ark::<C, N, A>(&a.double()), aa.double(), "double {a:?}");
    assert_eq!(to_ark::<C, N, A>(&-a), -aa, "neg {a:?}");
    // inversion, both versions
    let inv: Option<Fp<C, N>> = a.invert().into();
    assert_eq!(inv.map(|x| to_ark::<C, N, A>(&x)), aa.inverse(), "invert {a:?}");
    assert_eq!(a.invert_vartime().map(|x| to_ark::<C, N, A>(&x)), aa.inverse(), "invert_vartime {a:?}");
    // legendre and sqrt
    let leg = match aa.legendre() {
        LegendreSymbol::Zero => 0,
        LegendreSymbol::QuadraticResidue => 1,
        LegendreSymbol::QuadraticNonResidue => -1,
    };
    assert_eq!(a.legendre(), leg, "legendre {a:?}");
    let s: Option<Fp<C, N>> = a.sqrt().into();
    match s {
        Some(r) => {
            assert_eq!(r.square(), a);
            assert!(leg >= 0);
        }
        None => assert_eq!(leg, -1, "sqrt failed on a square {a:?}"),
    }
    // encodings
    let le = a.to_bytes_le();
    assert_eq!(le.as_ref(), aa.into_bigint().to_bytes_le().as_slice());
    assert_eq!(Fp::<C, N>::from_bytes_le(le.as_ref()).unwrap(), a);
    let be = a.to_bytes_be();
    assert_eq!(be.as_ref(), aa.into_bigint().to_bytes_be().as_slice());
    assert_eq!(Fp::<C, N>::from_bytes_be(be.as_ref()).unwrap(), a);
    assert_eq!(Fp::<C, N>::from_hex(&a.to_hex()).unwrap(), a);
    assert_eq!(Fp::<C, N>::from_dec(&aa.into_bigint().to_string()).unwrap(), a);
}

fn run<C: FieldConfig<N>, const N: usize, A: PrimeField<BigInt = BigInt<N>>>() {
    // derived constants agree with arkworks
    assert_eq!(C::MODULUS, A::MODULUS.0);
    assert_eq!(Fp::<C, N>::TWO_ADICITY, A::TWO_ADICITY);
    assert_eq!(to_ark::<C, N, A>(&Fp::<C, N>::ONE), A::ONE);
    assert_eq!(to_ark::<C, N, A>(&Fp::from_limbs(Fp::<C, N>::R).unwrap()), A::from(2u64).pow([64 * N as u64]));
    assert_eq!(to_ark::<C, N, A>(&Fp::from_limbs(Fp::<C, N>::R2).unwrap()), A::from(2u64).pow([128 * N as u64]));
    assert_eq!(to_ark::<C, N, A>(&Fp::from_limbs(Fp::<C, N>::R3).unwrap()), A::from(2u64).pow([192 * N as u64]));
    assert_eq!(C::MODULUS[0].wrapping_mul(Fp::<C, N>::INV), u64::MAX);
    let root = Fp::<C, N>::ROOT_OF_UNITY;
    assert_eq!(root.square_n(Fp::<C, N>::TWO_ADICITY), Fp::ONE);
    assert_ne!(root.square_n(Fp::<C, N>::TWO_ADICITY - 1), Fp::ONE);
    assert_eq!(Fp::<C, N>::GENERATOR.legendre(), -1, "generator must be a non-residue");

    let mut rng = rng();
    let edges = edge_values::<C, N>();
    for &a in &edges {
        check_unary::<C, N, A>(a);
        for &b in &edges {
            check_pair::<C, N, A>(a, b);
        }
    }
    for _ in 0..iters() {
        let a = Fp::<C, N>::random(&mut rng);
        let b = Fp::<C, N>::random(&mut rng);
        check_pair::<C, N, A>(a, b);
        check_unary::<C, N, A>(a);
        // squares always have roots
        let sq = a.square();
        let r: Option<Fp<C, N>> = sq.sqrt().into();
        assert_eq!(r.expect("square has a root").square(), sq);
    }
    // pow against arkworks on random exponents (fewer: 2 exponentiations each)
    for _ in 0..iters() / 10 {
        let a = Fp::<C, N>::random(&mut rng);
        let e: [u64; 2] = [rand::Rng::gen(&mut rng), rand::Rng::gen(&mut rng)];
        let want = to_ark::<C, N, A>(&a).pow(e);
        assert_eq!(to_ark::<C, N, A>(&a.pow(&e)), want);
        assert_eq!(to_ark::<C, N, A>(&a.pow_vartime(&e)), want);
    }
}

fn decoding<C: FieldConfig<N>, const N: usize>() {
    let n = 8 * N;
    // p, p + 1 and all-ones are non-canonical, in both byte orders
    let p = C::MODULUS;
    let mut p1 = p;
    p1[0] += 1;
    for l in [p, p1, [u64::MAX; N]] {
        assert_eq!(Fp::<C, N>::from_limbs(l), Err(FieldError::NonCanonical));
        let mut be = vec![0u8; n];
        let mut le = vec![0u8; n];
        for i in 0..N {
            be[8 * (N - 1 - i)..8 * (N - i)].copy_from_slice(&l[i].to_be_bytes());
            le[8 * i..8 * i + 8].copy_from_slice(&l[i].to_le_bytes());
        }
        assert_eq!(Fp::<C, N>::from_bytes_be(&be), Err(FieldError::NonCanonical));
        assert_eq!(Fp::<C, N>::from_bytes_le(&le), Err(FieldError::NonCanonical));
    }
    // p - 1 is the largest canonical value
    let pm1 = Fp::<C, N>::P_MINUS_1;
    assert_eq!(Fp::<C, N>::from_limbs(pm1).unwrap(), -Fp::ONE);
    for len in [0, 1, n - 1, n + 1, 2 * n] {
        let v = vec![0u8; len];
        assert_eq!(Fp::<C, N>::from_bytes_be(&v), Err(FieldError::WrongLength { expected: n, got: len }));
        assert_eq!(Fp::<C, N>::from_bytes_le(&v), Err(FieldError::WrongLength { expected: n, got: len }));
    }
    assert_eq!(Fp::<C, N>::from_hex(""), Err(FieldError::Empty));
    assert_eq!(Fp::<C, N>::from_hex("0xzz"), Err(FieldError::InvalidDigit("hex")));
    assert_eq!(Fp::<C, N>::from_dec("12a"), Err(FieldError::InvalidDigit("decimal")));
    assert_eq!(Fp::<C, N>::from_dec(&"9".repeat(200)), Err(FieldError::NonCanonical));
    assert_eq!(Fp::<C, N>::from_hex(&"f".repeat(16 * N)), Err(FieldError::NonCanonical));
    assert_eq!(Fp::<C, N>::from_hex(&format!("{}1", "0".repeat(300))).unwrap(), Fp::ONE);
}

fn batch<C: FieldConfig<N>, const N: usize>() {
    let mut rng = rng();
    for len in [0usize, 1, 2, 7, 64] {
        let mut v: Vec<Fp<C, N>> = (0..len).map(|_| Fp::random(&mut rng)).collect();
        if len > 3 {
            v[0] = Fp::ZERO;
            v[3] = Fp::ZERO;
        }
        let orig = v.clone();
        Fp::batch_invert(&mut v);
        for (x, y) in orig.iter().zip(&v) {
            let want: Option<Fp<C, N>> = x.invert().into();
            assert_eq!(*y, want.unwrap_or(Fp::ZERO));
        }
    }
}

#[test]
fn bls12_381_fp() {
    run::<bls12_381::FpConfig, 6, ark_bls12_381::Fq>();
}
#[test]
fn bls12_381_fr() {
    run::<bls12_381::FrConfig, 4, ark_bls12_381::Fr>();
}
#[test]
fn bn254_fp() {
    run::<bn254::FpConfig, 4, ark_bn254::Fq>();
}
#[test]
fn bn254_fr() {
    run::<bn254::FrConfig, 4, ark_bn254::Fr>();
}
#[test]
fn decoders_reject_bad_input() {
    decoding::<bls12_381::FpConfig, 6>();
    decoding::<bls12_381::FrConfig, 4>();
    decoding::<bn254::FpConfig, 4>();
    decoding::<bn254::FrConfig, 4>();
}
#[test]
fn batch_inversion_is_zero_tolerant() {
    batch::<bls12_381::FpConfig, 6>();
    batch::<bn254::FrConfig, 4>();
}
#[test]
fn wide_reduction_matches_arkworks() {
    let mut rng = rng();
    for len in [0usize, 1, 7, 8, 23, 24, 25, 31, 32, 39, 40, 41, 47, 48, 49, 64, 80, 100, 129] {
        for fill in [None, Some(0xffu8), Some(0u8)] {
            let bytes: Vec<u8> = (0..len).map(|_| fill.unwrap_or_else(|| rand::Rng::gen(&mut rng))).collect();
            let ours = bls12_381::Fp::from_bytes_be_mod_order(&bytes);
            let want = ark_bls12_381::Fq::from_be_bytes_mod_order(&bytes);
            assert_eq!(to_ark::<_, 6, ark_bls12_381::Fq>(&ours), want, "BLS12-381 Fp, len {len}");
            assert_eq!(ours, bls12_381::Fp::from_bytes_be_mod_order_by_words(&bytes));
            let ours = bn254::Fp::from_bytes_be_mod_order(&bytes);
            let want = ark_bn254::Fq::from_be_bytes_mod_order(&bytes);
            assert_eq!(to_ark::<_, 4, ark_bn254::Fq>(&ours), want, "BN254 Fp, len {len}");
            let ours = bls12_381::Fr::from_bytes_be_mod_order(&bytes);
            let want = ark_bls12_381::Fr::from_be_bytes_mod_order(&bytes);
            assert_eq!(to_ark::<_, 4, ark_bls12_381::Fr>(&ours), want, "BLS12-381 Fr, len {len}");
            assert_eq!(ours, bls12_381::Fr::from_bytes_be_mod_order_by_words(&bytes));
        }
    }
}

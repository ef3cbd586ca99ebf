//! One canonical form for the outputs of every implementation in the head-to-head rows, so
//! that a case can check that ours and each peer computed the same value before timing:
//! field elements as canonical (non-Montgomery) little-endian limbs in the tower's structural
//! order (c0 before c1, Fp6 coefficients in order), points as their affine coordinates in the
//! same form (empty for the identity), booleans as 0/1.

use ark_ec::{AffineRepr, CurveGroup};
use blst::*;
use zkforge_curve::{CurveConfig, Jacobian};

/// A value in the common canonical form.
pub trait Canon {
    /// Canonical limbs of the value (see the module docs).
    fn canon(&self) -> Vec<u64>;
}

/// A batch: its elements' limbs one after another.
impl<T: Canon> Canon for Vec<T> {
    fn canon(&self) -> Vec<u64> {
        self.iter().flat_map(Canon::canon).collect()
    }
}

impl Canon for bool {
    fn canon(&self) -> Vec<u64> {
        vec![*self as u64]
    }
}

impl<C: zkforge_field::FieldConfig<N>, const N: usize> Canon for zkforge_field::Fp<C, N> {
    fn canon(&self) -> Vec<u64> {
        self.to_limbs().to_vec()
    }
}
impl<C: zkforge_field::tower::TowerConfig<N>, const N: usize> Canon for zkforge_field::tower::Fp2<C, N> {
    fn canon(&self) -> Vec<u64> {
        [self.c0.canon(), self.c1.canon()].concat()
    }
}
impl<C: zkforge_field::tower::TowerConfig<N>, const N: usize> Canon for zkforge_field::tower::Fp6<C, N> {
    fn canon(&self) -> Vec<u64> {
        [self.c0.canon(), self.c1.canon(), self.c2.canon()].concat()
    }
}
impl<C: zkforge_field::tower::TowerConfig<N>, const N: usize> Canon for zkforge_field::tower::Fp12<C, N> {
    fn canon(&self) -> Vec<u64> {
        [self.c0.canon(), self.c1.canon()].concat()
    }
}
impl<C: CurveConfig> Canon for Jacobian<C>
where
    C::Base: Canon,
{
    fn canon(&self) -> Vec<u64> {
        self.to_affine().canon()
    }
}
impl<C: CurveConfig> Canon for zkforge_curve::Affine<C>
where
    C::Base: Canon,
{
    fn canon(&self) -> Vec<u64> {
        if bool::from(self.is_identity()) {
            return vec![];
        }
        [self.x().canon(), self.y().canon()].concat()
    }
}

// ---- blst (Montgomery limbs inside; blst_uint64_from_fp gives canonical ones)
impl Canon for blst_fp {
    fn canon(&self) -> Vec<u64> {
        let mut out = [0u64; 6];
        // SAFETY: 6-limb output, valid input.
        unsafe { blst_uint64_from_fp(out.as_mut_ptr(), self) };
        out.to_vec()
    }
}
impl Canon for blst_fr {
    fn canon(&self) -> Vec<u64> {
        let mut out = [0u64; 4];
        // SAFETY: 4-limb output, valid input.
        unsafe { blst_uint64_from_fr(out.as_mut_ptr(), self) };
        out.to_vec()
    }
}
impl Canon for blst_fp2 {
    fn canon(&self) -> Vec<u64> {
        [self.fp[0].canon(), self.fp[1].canon()].concat()
    }
}
impl Canon for blst_fp6 {
    fn canon(&self) -> Vec<u64> {
        self.fp2.iter().flat_map(|x| x.canon()).collect()
    }
}
impl Canon for blst_fp12 {
    fn canon(&self) -> Vec<u64> {
        self.fp6.iter().flat_map(|x| x.canon()).collect()
    }
}
impl Canon for blst_p1_affine {
    fn canon(&self) -> Vec<u64> {
        // SAFETY: valid point.
        if unsafe { blst_p1_affine_is_inf(self) } {
            return vec![];
        }
        [self.x.canon(), self.y.canon()].concat()
    }
}
impl Canon for blst_p2_affine {
    fn canon(&self) -> Vec<u64> {
        // SAFETY: valid point.
        if unsafe { blst_p2_affine_is_inf(self) } {
            return vec![];
        }
        [self.x.canon(), self.y.canon()].concat()
    }
}
impl Canon for blst_p1 {
    fn canon(&self) -> Vec<u64> {
        let mut a = blst_p1_affine::default();
        // SAFETY: valid input and output.
        unsafe { blst_p1_to_affine(&mut a, self) };
        a.canon()
    }
}
impl Canon for blst_p2 {
    fn canon(&self) -> Vec<u64> {
        let mut a = blst_p2_affine::default();
        // SAFETY: valid input and output.
        unsafe { blst_p2_to_affine(&mut a, self) };
        a.canon()
    }
}

// ---- arkworks
fn ark_field<F: ark_ff::Field>(f: &F) -> Vec<u64> {
    use ark_ff::PrimeField;
    f.to_base_prime_field_elements().flat_map(|b| b.into_bigint().as_ref().to_vec()).collect()
}
fn ark_point<P: CurveGroup>(p: &P) -> Vec<u64> {
    match p.into_affine().xy() {
        None => vec![],
        Some((x, y)) => [ark_field(&x), ark_field(&y)].concat(),
    }
}
impl<P: ark_ff::FpConfig<N>, const N: usize> Canon for ark_ff::Fp<P, N> {
    fn canon(&self) -> Vec<u64> {
        ark_field(self)
    }
}
impl<P: ark_ff::QuadExtConfig> Canon for ark_ff::QuadExtField<P> {
    fn canon(&self) -> Vec<u64> {
        ark_field(self)
    }
}
impl<P: ark_ec::short_weierstrass::SWCurveConfig> Canon for ark_ec::short_weierstrass::Projective<P> {
    fn canon(&self) -> Vec<u64> {
        ark_point(self)
    }
}

// ---- halo2curves (BN254)
fn h2_prime<F: ff::PrimeField>(f: &F) -> Vec<u64> {
    let r = f.to_repr();
    r.as_ref().chunks(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))).collect()
}
impl Canon for halo2curves::bn256::Fq {
    fn canon(&self) -> Vec<u64> {
        h2_prime(self)
    }
}
impl Canon for halo2curves::bn256::Fr {
    fn canon(&self) -> Vec<u64> {
        h2_prime(self)
    }
}
impl Canon for halo2curves::bn256::Fq2 {
    fn canon(&self) -> Vec<u64> {
        [h2_prime(self.c0()), h2_prime(self.c1())].concat()
    }
}
impl Canon for halo2curves::bn256::Fq6 {
    fn canon(&self) -> Vec<u64> {
        [self.c0().canon(), self.c1().canon(), self.c2().canon()].concat()
    }
}
impl Canon for halo2curves::bn256::Fq12 {
    fn canon(&self) -> Vec<u64> {
        [self.c0().canon(), self.c1().canon()].concat()
    }
}
impl Canon for halo2curves::bn256::G1 {
    fn canon(&self) -> Vec<u64> {
        use halo2curves::group::Curve;
        let a = self.to_affine();
        if bool::from(halo2curves::group::prime::PrimeCurveAffine::is_identity(&a)) {
            return vec![];
        }
        [h2_prime(&a.x), h2_prime(&a.y)].concat()
    }
}

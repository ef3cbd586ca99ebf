//! A test group for the general-`a` formulas and the no-endomorphism paths (behind the
//! `test-utils` feature; not a curve anyone should use): y^2 = x^3 + 5x + 7 over the BN254 base
//! field, generator (1, y), no GLV endomorphism. Its group order is not computed, so only
//! operations that do not need it are meaningful: the group law, multiplication by integers
//! below `ORDER` (set to BN254's r only as a bound for scalar reduction), and MSM with such
//! scalars. The shipped groups all have a = 0; this one keeps the a-terms tested.

use zkforge_field::bn254::Fp;

use crate::config::{CurveConfig, NoEndomorphism};
use crate::point::{Affine, Jacobian};

/// y^2 = x^3 + 5x + 7 over BN254 Fp, without an endomorphism.
#[derive(Clone, Copy, Debug)]
pub struct ToyA5;

impl CurveConfig for ToyA5 {
    type Base = Fp;
    type Scalar = zkforge_field::bn254::Fr;
    const NAME: &'static str = "toy y^2 = x^3 + 5x + 7 over BN254 Fp";
    const A: Option<Fp> = Some(Fp::from_u64_const(5));
    const B: Fp = Fp::from_u64_const(7);
    const GENERATOR: (Fp, Fp) = (Fp::from_u64_const(1), Fp::from_hex_const("1c358800160da43b4a5d11dd7f22902e00d123051c13dd6b9293849d8f1d8634"));
    const ORDER: [u64; 4] = <zkforge_field::bn254::FrConfig as zkforge_field::FieldConfig<4>>::MODULUS;
    type Endo = NoEndomorphism;

    fn is_torsion_free_vartime(_p: &Affine<Self>) -> bool {
        true
    }

    fn clear_cofactor(p: &Jacobian<Self>) -> Jacobian<Self> {
        *p
    }
}

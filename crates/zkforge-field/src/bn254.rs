//! BN254 (alt_bn128, the EIP-196/197 curve): the base field Fp, the scalar field Fr and the pairing tower Fp2/Fp6/Fp12.
//!
//! Only the moduli and small generators are typed here; Montgomery constants and roots of
//! unity are derived at compile time (`crate::mont`). The moduli, generators, xi and the Frobenius tables
//! are generated from the curve record (`generated.rs`, `scripts/gen_all.py`) and the tables are
//! rechecked against x^(p^k) in `tests/tower.rs`.

use crate::mont::{FieldConfig, Fp as MontFp};
use crate::tower::{self, TowerConfig};

mod generated;

/// Definition of the base field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FpConfig;
impl FieldConfig<4> for FpConfig {
    const NAME: &'static str = "bn254::Fp";
    const MODULUS: [u64; 4] = generated::FP_MODULUS;
    const GENERATOR: u64 = generated::FP_GENERATOR;
    type Bytes = [u8; 32];
}

/// Definition of the scalar field (the group order r).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrConfig;
impl FieldConfig<4> for FrConfig {
    const NAME: &'static str = "bn254::Fr";
    const MODULUS: [u64; 4] = generated::FR_MODULUS;
    const GENERATOR: u64 = generated::FR_GENERATOR;
    type Bytes = [u8; 32];
}

/// The base field.
pub type Fp = MontFp<FpConfig, 4>;
/// The scalar field.
pub type Fr = MontFp<FrConfig, 4>;
/// Fp2 = Fp[u]/(u^2 + 1).
pub type Fp2 = tower::Fp2<FpConfig, 4>;
/// Fp6 = Fp2[v]/(v^3 - xi).
pub type Fp6 = tower::Fp6<FpConfig, 4>;
/// Fp12 = Fp6[w]/(w^2 - v).
pub type Fp12 = tower::Fp12<FpConfig, 4>;

impl TowerConfig<4> for FpConfig {
    const XI: Fp2 = generated::XI;
    const XI_C0: u64 = 9;
    const FROB6_C1: [Fp2; 6] = generated::FROB6_C1;
    const FROB6_C2: [Fp2; 6] = generated::FROB6_C2;
    const FROB12_C1: [Fp2; 12] = generated::FROB12_C1;
    #[inline(always)]
    fn mul_by_xi(a: &Fp2) -> Fp2 {
        // (a0 + a1 u)(9 + u) = (9 a0 - a1) + (a0 + 9 a1) u
        if crate::backend::xi_quotient() {
            return Fp2::new(a.c0.mul_small_sub_quotient(9, &a.c1), a.c1.mul_small_add_quotient(9, &a.c0));
        }
        if crate::backend::xi_one_pass() {
            return Fp2::new(a.c0.mul_small_add(9, &-a.c1), a.c1.mul_small_add(9, &a.c0));
        }
        let n0 = a.c0.double().double().double() + a.c0;
        let n1 = a.c1.double().double().double() + a.c1;
        Fp2::new(n0 - a.c1, n1 + a.c0)
    }
}

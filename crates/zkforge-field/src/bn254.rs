//! BN254 (alt_bn128, the EIP-196/197 curve): the base field Fp, the scalar field Fr and the pairing tower Fp2/Fp6/Fp12.
//!
//! Only the moduli and small generators are typed here; Montgomery constants and roots of
//! unity are derived at compile time (`crate::mont`). The Frobenius tables are printed by
//! `scripts/gen_tower_consts.py bn254` and rechecked against x^(p^k) in `tests/tower.rs`.

use crate::mont::{FieldConfig, Fp as MontFp};
use crate::tower::{self, TowerConfig};

/// Definition of the base field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FpConfig;
impl FieldConfig<4> for FpConfig {
    const NAME: &'static str = "bn254::Fp";
    const MODULUS: [u64; 4] = crate::limbs::from_hex_const("30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47");
    const GENERATOR: u64 = 3;
    type Bytes = [u8; 32];
}

/// Definition of the scalar field (the group order r).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrConfig;
impl FieldConfig<4> for FrConfig {
    const NAME: &'static str = "bn254::Fr";
    const MODULUS: [u64; 4] = crate::limbs::from_hex_const("30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001");
    const GENERATOR: u64 = 5;
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

const fn fp2(c0: &str, c1: &str) -> Fp2 {
    Fp2::from_hex_const(c0, c1)
}

impl TowerConfig<4> for FpConfig {
    const XI: Fp2 = Fp2::new(Fp::from_u64_const(9), Fp::ONE);
    const FROB6_C1: [Fp2; 6] = FROB6_C1;
    const FROB6_C2: [Fp2; 6] = FROB6_C2;
    const FROB12_C1: [Fp2; 12] = FROB12_C1;
    #[inline(always)]
    fn mul_by_xi(a: &Fp2) -> Fp2 {
        // (a0 + a1 u)(9 + u) = (9 a0 - a1) + (a0 + 9 a1) u
        let n0 = a.c0.double().double().double() + a.c0;
        let n1 = a.c1.double().double().double() + a.c1;
        Fp2::new(n0 - a.c1, n1 + a.c0)
    }
}

pub(crate) const FROB6_C1: [Fp2; 6] = [
    fp2("0000000000000000000000000000000000000000000000000000000000000001", "0000000000000000000000000000000000000000000000000000000000000000"),
    fp2("2fb347984f7911f74c0bec3cf559b143b78cc310c2c3330c99e39557176f553d", "16c9e55061ebae204ba4cc8bd75a079432ae2a1d0b7c9dce1665d51c640fcba2"),
    fp2("30644e72e131a0295e6dd9e7e0acccb0c28f069fbb966e3de4bd44e5607cfd48", "0000000000000000000000000000000000000000000000000000000000000000"),
    fp2("0856e078b755ef0abaff1c77959f25ac805ffd3d5d6942d37b746ee87bdcfb6d", "04f1de41b3d1766fa9f30e6dec26094f0fdf31bf98ff2631380cab2baaa586de"),
    fp2("000000000000000059e26bcea0d48bacd4f263f1acdb5c4f5763473177fffffe", "0000000000000000000000000000000000000000000000000000000000000000"),
    fp2("28be74d4bb943f51699582b87809d9caf71614d4b0b71f3a62e913ee1dada9e4", "14a88ae0cb747b99c2b86abcbe01477a54f40eb4c3f6068dedae0bcec9c7aac7"),
];
pub(crate) const FROB6_C2: [Fp2; 6] = [
    fp2("0000000000000000000000000000000000000000000000000000000000000001", "0000000000000000000000000000000000000000000000000000000000000000"),
    fp2("05b54f5e64eea80180f3c0b75a181e84d33365f7be94ec72848a1f55921ea762", "2c145edbe7fd8aee9f3a80b03b0b1c923685d2ea1bdec763c13b4711cd2b8126"),
    fp2("000000000000000059e26bcea0d48bacd4f263f1acdb5c4f5763473177fffffe", "0000000000000000000000000000000000000000000000000000000000000000"),
    fp2("0bc58c6611c08dab19bee0f7b5b2444ee633094575b06bcb0e1a92bc3ccbf066", "23d5e999e1910a12feb0f6ef0cd21d04a44a9e08737f96e55fe3ed9d730c239f"),
    fp2("30644e72e131a0295e6dd9e7e0acccb0c28f069fbb966e3de4bd44e5607cfd48", "0000000000000000000000000000000000000000000000000000000000000000"),
    fp2("1ee972ae6a826a7d1d9da40771b6f589de1afb54342c724fa97bda050992657f", "10de546ff8d4ab51d2b513cdbb25772454326430418536d15721e37e70c255c9"),
];
pub(crate) const FROB12_C1: [Fp2; 12] = [
    fp2("0000000000000000000000000000000000000000000000000000000000000001", "0000000000000000000000000000000000000000000000000000000000000000"),
    fp2("1284b71c2865a7dfe8b99fdd76e68b605c521e08292f2176d60b35dadcc9e470", "246996f3b4fae7e6a6327cfe12150b8e747992778eeec7e5ca5cf05f80f362ac"),
    fp2("30644e72e131a0295e6dd9e7e0acccb0c28f069fbb966e3de4bd44e5607cfd49", "0000000000000000000000000000000000000000000000000000000000000000"),
    fp2("19dc81cfcc82e4bbefe9608cd0acaa90894cb38dbe55d24ae86f7d391ed4a67f", "00abf8b60be77d7306cbeee33576139d7f03a5e397d439ec7694aa2bf4c0c101"),
    fp2("30644e72e131a0295e6dd9e7e0acccb0c28f069fbb966e3de4bd44e5607cfd48", "0000000000000000000000000000000000000000000000000000000000000000"),
    fp2("0757cab3a41d3cdc072fc0af59c61f302cfa95859526b0d41264475e420ac20f", "0ca6b035381e35b618e9b79ba4e2606ca20b7dfd71573c93e85845e34c4a5b9c"),
    fp2("30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd46", "0000000000000000000000000000000000000000000000000000000000000000"),
    fp2("1ddf9756b8cbf849cf96a5d90a9accfd3b2f4c893f42a9166615563bfbb318d7", "0bfab77f2c36b843121dc8b86f6c4ccf2307d819d98302a771c39bb757899a9b"),
    fp2("000000000000000059e26bcea0d48bacd4f263f1acdb5c4f5763473177fffffe", "0000000000000000000000000000000000000000000000000000000000000000"),
    fp2("1687cca314aebb6dc866e529b0d4adcd0e34b703aa1bf84253b10eddb9a856c8", "2fb855bcd54a22b6b18456d34c0b44c0187dc4add09d90a0c58be1eae3bc3c46"),
    fp2("000000000000000059e26bcea0d48bacd4f263f1acdb5c4f5763473177ffffff", "0000000000000000000000000000000000000000000000000000000000000000"),
    fp2("290c83bf3d14634db120850727bb392d6a86d50bd34b19b929bc44b896723b38", "23bd9e3da9136a739f668e1adc9ef7f0f575ec93f71a8df953c846338c32a1ab"),
];

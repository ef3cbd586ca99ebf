//! BN254 (alt_bn128) G1 (y^2 = x^3 + 3 over Fp, prime order) and G2 (y^2 = x^3 + 3/(9 + u)
//! over Fp2, a D-twist).
//!
//! - G1 endomorphism phi(x, y) = (beta x, y) with eigenvalue lambda; scalars split by Babai
//!   rounding against a reduced lattice basis (GLV, CRYPTO 2001, section 4), parts < 2^127.
//!   G1 has cofactor 1: the curve equation is the whole membership test.
//! - G2 endomorphism psi with eigenvalue 6u^2 (= p mod r, u the BN seed); scalars split as
//!   k = k0 + k1 6u^2 with both parts < 2^128. Subgroup test of Dai-Lin-Zhao-Zhou
//!   (ePrint 2022/348): [u+1]P + psi([u]P) + psi^2([u]P) = psi^3([2u]P).
//!   Cofactor clearing multiplies by the cofactor 2p - r.
//! - The EIP-196/197 byte formats belong to the EVM and live in `zkforge-evm`.
//! Constants are generated from the curve record (`generated.rs`, `scripts/gen_all.py`).

use zkforge_field::bn254::{Fp, Fp2, Fr};

use crate::config::{CurveConfig, Endomorphism, SubScalar};
use crate::point::{Affine, Jacobian};
use crate::wide::{divrem_ct, signed_mag};
use zkforge_field::limbs::{mul_wide, sub_rt as sub};

pub use zkforge_field::bn254::{Fp as Base, Fr as Scalar};

mod encoding;
mod generated;
use generated::{
    A1, A2, B1_ABS, B2, G1_B, G1_GENERATOR, G1_ROUND, G2_B, G2_COFACTOR, G2_GENERATOR, G2_ROUND, MU_SIX_U2, PSI_X, PSI_Y,
    SIX_U2,
};
pub use generated::{BETA, U};

/// G1 parameters.
#[derive(Clone, Copy, Debug)]
pub struct G1Config;
/// G2 parameters.
#[derive(Clone, Copy, Debug)]
pub struct G2Config;

/// A G1 point in affine coordinates.
pub type G1Affine = Affine<G1Config>;
/// A G1 point in Jacobian coordinates.
pub type G1Projective = Jacobian<G1Config>;
/// A G2 point in affine coordinates.
pub type G2Affine = Affine<G2Config>;
/// A G2 point in Jacobian coordinates.
pub type G2Projective = Jacobian<G2Config>;

impl CurveConfig for G1Config {
    type Base = Fp;
    type Scalar = zkforge_field::bn254::Fr;
    const NAME: &'static str = "BN254 G1";
    const A: Option<Self::Base> = None;
    const B: Fp = G1_B;
    const GENERATOR: (Fp, Fp) = G1_GENERATOR;
    const ORDER: [u64; 4] = <zkforge_field::bn254::FrConfig as zkforge_field::FieldConfig<4>>::MODULUS;
    type Endo = Self;

    #[inline(always)]
    fn mul_by_b(x: &Fp) -> Fp {
        x.double() + *x
    }

    fn is_torsion_free_vartime(_p: &Affine<Self>) -> bool {
        true
    }

    fn clear_cofactor(p: &Jacobian<Self>) -> Jacobian<Self> {
        *p
    }
}

impl Endomorphism<G1Config> for G1Config {
    const DIM: usize = 2;
    const SUB_BITS: u32 = 128;

    fn decompose(k: &[u64; 4]) -> [SubScalar; 4] {
        // c1 = round(b2 k / r), c2 = round(-b1 k / r); k1 = k - c1 a1 - c2 a2,
        // k2 = -c1 b1 - c2 b2 (all mod 2^256, results in (-2^127, 2^127)).
        let p1: [u64; 6] = mul_wide(k, &G1_ROUND);
        let c1 = [p1[4], p1[5], 0, 0];
        let p2: [u64; 7] = mul_wide(k, &G2_ROUND);
        let c2 = [p2[4], p2[5], p2[6], 0];
        let t1: [u64; 4] = mul_wide(&c1, &A1);
        let t2: [u64; 4] = mul_wide(&c2, &A2);
        let (k1, _) = sub(&sub(k, &t1).0, &t2);
        let t3: [u64; 4] = mul_wide(&c1, &B1_ABS);
        let t4: [u64; 4] = mul_wide(&c2, &B2);
        let (k2, _) = sub(&t3, &t4);
        let (n1, m1) = signed_mag(&k1);
        let (n2, m2) = signed_mag(&k2);
        [SubScalar { neg: n1, mag: m1 }, SubScalar { neg: n2, mag: m2 }, SubScalar::default(), SubScalar::default()]
    }

    #[inline]
    fn endo(p: &Jacobian<Self>) -> Jacobian<Self> {
        Jacobian { x: p.x * BETA, y: p.y, z: p.z }
    }
}

/// psi(P) = (conj(X) PSI_X, conj(Y) PSI_Y, conj(Z)).
#[inline]
pub fn psi(p: &G2Projective) -> G2Projective {
    Jacobian { x: p.x.conjugate() * PSI_X, y: p.y.conjugate() * PSI_Y, z: p.z.conjugate() }
}

impl CurveConfig for G2Config {
    type Base = Fp2;
    type Scalar = zkforge_field::bn254::Fr;
    const NAME: &'static str = "BN254 G2";
    const A: Option<Self::Base> = None;
    const B: Fp2 = G2_B;
    const GENERATOR: (Fp2, Fp2) = G2_GENERATOR;
    const ORDER: [u64; 4] = <zkforge_field::bn254::FrConfig as zkforge_field::FieldConfig<4>>::MODULUS;
    type Endo = Self;

    fn is_torsion_free_vartime(p: &Affine<Self>) -> bool {
        // [u+1]P + psi([u]P) + psi^2([u]P) = psi^3([2u]P)
        let up = p.mul_u64_vartime(U);
        let p = &p.to_jacobian();
        let psi_up = psi(&up);
        let psi2_up = psi(&psi_up);
        let lhs = up.add_vartime(p).add_vartime(&psi_up).add_vartime(&psi2_up);
        let rhs = psi(&psi(&psi(&up.double())));
        lhs == rhs
    }

    fn clear_cofactor(p: &Jacobian<Self>) -> Jacobian<Self> {
        p.mul_bigint_vartime(&G2_COFACTOR)
    }
}

impl Endomorphism<G2Config> for G2Config {
    const DIM: usize = 2;
    const SUB_BITS: u32 = 128;

    fn decompose(k: &[u64; 4]) -> [SubScalar; 4] {
        let (q, r0) = divrem_ct(k, SIX_U2, &MU_SIX_U2, 4);
        [
            SubScalar { neg: 0.into(), mag: r0 },
            SubScalar { neg: 0.into(), mag: q },
            SubScalar::default(),
            SubScalar::default(),
        ]
    }

    #[inline]
    fn endo(p: &Jacobian<Self>) -> Jacobian<Self> {
        psi(p)
    }
}

impl core::ops::Mul<Fr> for G1Projective {
    type Output = Self;
    /// Constant-time scalar multiplication.
    fn mul(self, k: Fr) -> Self {
        self.mul_limbs(&k.to_limbs())
    }
}
impl core::ops::Mul<Fr> for G2Projective {
    type Output = Self;
    /// Constant-time scalar multiplication.
    fn mul(self, k: Fr) -> Self {
        self.mul_limbs(&k.to_limbs())
    }
}


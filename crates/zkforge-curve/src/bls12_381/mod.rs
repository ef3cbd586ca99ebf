//! BLS12-381 G1 (y^2 = x^3 + 4 over Fp) and G2 (y^2 = x^3 + 4(1 + u) over Fp2, an M-twist).
//!
//! - G1 endomorphism phi(x, y) = (beta x, y) with eigenvalue -z^2 (z = -0xd201000000010000 the
//!   curve seed); scalars split as k = k0 + k1 z^2 (both below 2^128), so
//!   kP = k0 P - k1 phi(P). Subgroup test phi(P) = -z^2 P (Scott, ePrint 2021/1130; EIP-2537).
//!   Cofactor clearing by h_eff = 1 - z (RFC 9380 section 8.8.1).
//! - G2 endomorphism psi = twist^-1 o Frobenius o twist, eigenvalue z; scalars split in base
//!   |z| into four 64-bit digits (Galbraith-Lin-Scott). Subgroup test psi(P) = zP (Scott,
//!   ePrint 2021/1130). Cofactor clearing by Budroni-Pintore (ePrint 2017/419), as written in
//!   RFC 9380 appendix G.3.
//! Endomorphism constants come from `scripts/gen_curve_consts.py` and are checked by tests.

mod encoding;
pub use encoding::{fp2_from_eip2537, fp_from_eip2537};

use zkforge_field::bls12_381::{Fp, Fp2, Fr};

use crate::config::{CurveConfig, SubScalar};
use crate::point::{Affine, Jacobian};
use crate::wide::divrem_ct;

pub use zkforge_field::bls12_381::{Fp as Base, Fr as Scalar};

/// |z|, the absolute value of the BLS12-381 seed (z is negative).
pub const Z_ABS: u64 = 0xd201_0000_0001_0000;
/// z^2.
const T: u128 = (Z_ABS as u128) * (Z_ABS as u128);
/// floor(2^256 / z^2).
const MU_T: [u64; 3] = [0x63f6e522f6cfee2e, 0x7c6becf1e01faadd, 0x1];
/// floor(2^192 / |z|), for dividing values below 2^128 by |z|.
const MU_Z: [u64; 3] = [0x33cfcc0d3e76ec28, 0x381204ca56cd56b5, 0x1];

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

/// A primitive cube root of unity in Fp with phi(P) = [-z^2] P on G1.
pub const BETA: Fp = Fp::from_hex_const("5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe");
/// psi x-coefficient 1 / xi^((p-1)/3), xi = 1 + u.
const PSI_X: Fp2 = Fp2::from_hex_const(
    "0",
    "1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaad",
);
/// psi y-coefficient 1 / xi^((p-1)/2).
const PSI_Y: Fp2 = Fp2::from_hex_const(
    "135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e304466cf3e67fa0af1ee7b04121bdea2",
    "6af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09",
);
/// psi^2(x, y) = (PSI2_X x, -y).
const PSI2_X: Fp = Fp::from_hex_const("1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaac");

/// [|z|] P by the fixed chain of |z| = 2^63 + 2^62 + 2^60 + 2^57 + 2^48 + 2^16 (63 doublings,
/// 5 complete additions; the sequence depends only on the constant).
pub fn mul_by_z_abs<C: CurveConfig>(p: &Jacobian<C>) -> Jacobian<C> {
    let mut acc = *p;
    for i in (0..63).rev() {
        acc = acc.double();
        if (Z_ABS >> i) & 1 == 1 {
            acc = acc.add(p);
        }
    }
    acc
}

/// [|z|] P for an affine P with mixed additions (variable time: subgroup checks of public
/// points).
fn mul_by_z_abs_affine_vartime<C: CurveConfig>(p: &Affine<C>) -> Jacobian<C> {
    let mut acc = p.to_jacobian();
    for i in (0..63).rev() {
        acc = acc.double();
        if (Z_ABS >> i) & 1 == 1 {
            acc = acc.add_mixed_vartime(p);
        }
    }
    acc
}

impl CurveConfig for G1Config {
    type Base = Fp;
    type Scalar = zkforge_field::bls12_381::Fr;
    const NAME: &'static str = "BLS12-381 G1";
    const B: Fp = Fp::from_u64_const(4);
    const GENERATOR: (Fp, Fp) = (
        Fp::from_hex_const("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"),
        Fp::from_hex_const("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1"),
    );
    const ORDER: [u64; 4] = <zkforge_field::bls12_381::FrConfig as zkforge_field::FieldConfig<4>>::MODULUS;
    const DIM: usize = 2;
    const SUB_BITS: u32 = 128;

    #[inline(always)]
    fn mul_by_b(x: &Fp) -> Fp {
        x.double().double()
    }

    fn decompose(k: &[u64; 4]) -> [SubScalar; 4] {
        // k = q z^2 + r0 = r0 - q (-z^2)
        let (q, r0) = divrem_ct(k, T, &MU_T, 4);
        [
            SubScalar { neg: 0.into(), mag: r0 },
            SubScalar { neg: 1.into(), mag: q },
            SubScalar::default(),
            SubScalar::default(),
        ]
    }

    #[inline]
    fn endo(p: &Jacobian<Self>) -> Jacobian<Self> {
        Jacobian { x: p.x * BETA, y: p.y, z: p.z }
    }

    fn is_torsion_free_vartime(p: &Affine<Self>) -> bool {
        // phi(P) + z^2 P = O, i.e. [z^2] P = -phi(P) = (beta x, -y)
        let zp = mul_by_z_abs_affine_vartime(p);
        let mut t = zp;
        for i in (0..63).rev() {
            t = t.double();
            if (Z_ABS >> i) & 1 == 1 {
                t = t.add_vartime(&zp);
            }
        }
        let minus_phi = Affine::<Self> { x: p.x * BETA, y: -p.y, infinity: p.infinity };
        t == minus_phi.to_jacobian()
    }

    fn clear_cofactor(p: &Jacobian<Self>) -> Jacobian<Self> {
        // h_eff = 1 - z = 1 + |z|
        mul_by_z_abs(p).add(p)
    }
}

/// psi(P) on Jacobian coordinates (psi is Frobenius-semilinear, so it maps X, Y, Z directly).
#[inline]
pub fn psi(p: &G2Projective) -> G2Projective {
    Jacobian { x: p.x.conjugate() * PSI_X, y: p.y.conjugate() * PSI_Y, z: p.z.conjugate() }
}

/// psi^2(P) = (PSI2_X X, -Y, Z).
#[inline]
pub fn psi2(p: &G2Projective) -> G2Projective {
    Jacobian { x: p.x.mul_by_fp(&PSI2_X), y: -p.y, z: p.z }
}

impl CurveConfig for G2Config {
    type Base = Fp2;
    type Scalar = zkforge_field::bls12_381::Fr;
    const NAME: &'static str = "BLS12-381 G2";
    const B: Fp2 = Fp2::new(Fp::from_u64_const(4), Fp::from_u64_const(4));
    const GENERATOR: (Fp2, Fp2) = (
        Fp2::from_hex_const(
            "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8",
            "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e",
        ),
        Fp2::from_hex_const(
            "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801",
            "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be",
        ),
    );
    const ORDER: [u64; 4] = <zkforge_field::bls12_381::FrConfig as zkforge_field::FieldConfig<4>>::MODULUS;
    const DIM: usize = 4;
    const SUB_BITS: u32 = 64;

    #[inline(always)]
    fn mul_by_b(x: &Fp2) -> Fp2 {
        // (4 + 4u)(c0 + c1 u) = 4(c0 - c1) + 4(c0 + c1) u
        Fp2::new((x.c0 - x.c1).double().double(), (x.c0 + x.c1).double().double())
    }

    fn decompose(k: &[u64; 4]) -> [SubScalar; 4] {
        // k = d0 + d1 |z| + d2 |z|^2 + d3 |z|^3 and |z| = -z: signs alternate on psi^i
        let (q, r0) = divrem_ct(k, T, &MU_T, 4);
        let (d1, d0) = divrem_ct(&[r0 as u64, (r0 >> 64) as u64, 0, 0], Z_ABS as u128, &MU_Z, 3);
        let (d3, d2) = divrem_ct(&[q as u64, (q >> 64) as u64, 0, 0], Z_ABS as u128, &MU_Z, 3);
        [
            SubScalar { neg: 0.into(), mag: d0 },
            SubScalar { neg: 1.into(), mag: d1 },
            SubScalar { neg: 0.into(), mag: d2 },
            SubScalar { neg: 1.into(), mag: d3 },
        ]
    }

    #[inline]
    fn endo(p: &Jacobian<Self>) -> Jacobian<Self> {
        psi(p)
    }

    fn is_torsion_free_vartime(p: &Affine<Self>) -> bool {
        // psi(P) = zP, i.e. [|z|] P = -psi(P)
        let zp = mul_by_z_abs_affine_vartime(p);
        zp == -psi(&p.to_jacobian())
    }

    fn clear_cofactor(p: &Jacobian<Self>) -> Jacobian<Self> {
        // RFC 9380 G.3 with c1 = z: h_eff P = [z^2 - z - 1] P + [z - 1] psi(P) + psi^2(2P)
        let t1 = -mul_by_z_abs(p); // c1 * P
        let mut t2 = psi(p);
        let mut t3 = psi2(&p.double());
        t3 = t3 - t2;
        t2 = t1 + t2;
        t2 = -mul_by_z_abs(&t2);
        t3 = t3 + t2;
        t3 = t3 - t1;
        t3 - *p
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

//! Square roots in prime fields, constant time.
//!
//! - p = 3 mod 4 (BN254 Fp, BLS12-381 Fp): x = a^((p+1)/4), then check x^2 = a.
//!   Exponents are public constants, so the compile-time exponentiation plans of `chain.rs`
//!   (whose operation sequence depends only on the exponent) keep every root constant time.
//! - otherwise (the scalar fields, 2-adicity 28 and 32): Tonelli-Shanks (Tonelli 1891,
//!   Shanks 1973) with a fixed loop: x = a^((T+1)/2), b = a^T, z = root of unity of order
//!   2^S; for i = S-1 .. 1: if b^(2^(i-1)) != 1 then (x, b) <- (x z, b z^2); z <- z^2.
//!   Every step runs for every input, selections are masked: (S^2 - S)/2 squarings.

use subtle::{ConditionallySelectable, ConstantTimeEq, CtOption};

use crate::mont::{FieldConfig, Fp};

impl<C: FieldConfig<N>, const N: usize> Fp<C, N> {
    /// Square root, constant time: `Some(x)` with x^2 = a (either root), `None` for a
    /// non-square.
    ///
    /// ```
    /// use zkforge_field::bls12_381::Fr;
    /// let a = Fr::from_u64(9);
    /// let r = a.sqrt().unwrap();
    /// assert_eq!(r.square(), a);
    /// ```
    pub fn sqrt(&self) -> CtOption<Self> {
        // The exponents are public constants and their plans (`chain.rs`) depend on them
        // alone, so every base runs the same operation sequence: constant time in `self`.
        let x = if C::MODULUS[0] & 3 == 3 {
            self.pow_p_plus_1_over_4()
        } else {
            self.sqrt_tonelli_shanks()
        };
        CtOption::new(x, x.square().ct_eq(self))
    }

    fn sqrt_tonelli_shanks(&self) -> Self {
        // w = a^((T-1)/2); x = a w = a^((T+1)/2); b = x w = a^T
        let w = self.pow_plan(Self::plan_trace_minus_1_over_2());
        let mut x = *self * w;
        let mut b = x * w;
        let mut z = Self::ROOT_OF_UNITY;
        for i in (1..Self::TWO_ADICITY).rev() {
            let d = b.square_n(i - 1);
            let flip = !d.is_one();
            x = Self::conditional_select(&x, &(x * z), flip);
            z = z.square();
            b = Self::conditional_select(&b, &(b * z), flip);
        }
        x
    }
}

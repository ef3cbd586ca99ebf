//! Fuzz every field decoder (big/little-endian bytes, hex, decimal) of the four prime fields:
//! any input gives Ok or a typed error, never a panic, and an accepted value re-encodes to
//! the same canonical bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zkforge_field::{bls12_381, bn254, FieldConfig, Fp};

fn check<C: FieldConfig<N>, const N: usize>(data: &[u8]) {
    if let Ok(x) = Fp::<C, N>::from_bytes_be(data) {
        assert_eq!(x.to_bytes_be().as_ref(), data);
    }
    if let Ok(x) = Fp::<C, N>::from_bytes_le(data) {
        assert_eq!(x.to_bytes_le().as_ref(), data);
    }
    if let Ok(s) = core::str::from_utf8(data) {
        if let Ok(x) = Fp::<C, N>::from_hex(s) {
            assert_eq!(Fp::<C, N>::from_hex(&x.to_hex()).unwrap(), x);
        }
        let _ = Fp::<C, N>::from_dec(s);
    }
    let _ = Fp::<C, N>::from_bytes_be_mod_order(data);
}

fuzz_target!(|data: &[u8]| {
    check::<bls12_381::FpConfig, 6>(data);
    check::<bls12_381::FrConfig, 4>(data);
    check::<bn254::FpConfig, 4>(data);
    check::<bn254::FrConfig, 4>(data);
});

//! Fuzz every point decoder: Zcash BLS12-381 G1/G2 compressed and uncompressed (checked and
//! unchecked), EIP-2537 G1/G2 and Fp/Fp2, EIP-196/197 BN254 G1/G2. Any input gives Ok or a
//! typed error, never a panic; an accepted point is on the curve (and in the subgroup for the
//! checked decoders) and re-encodes to the same bytes.
//!
//! Raw bytes almost never decode, so half of the runs start from a valid point (the input
//! mapped to the curve) and corrupt its encoding at an input-chosen position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zkforge_curve::bls12_381::{fp2_from_eip2537, fp_from_eip2537, G1Affine, G2Affine};
use zkforge_curve::bn254::{G1Affine as BnG1, G2Affine as BnG2};
use zkforge_curve::hash_to_curve::{map_fp2_to_g2, map_fp_to_g1, map_to_curve_bn254_g1};
use zkforge_field::{bls12_381, bn254};

include!("curve_decode_body.rs");

fuzz_target!(|data: &[u8]| one_input(data));

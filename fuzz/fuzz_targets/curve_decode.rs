//! Fuzz every point decoder of the curve crate: Zcash BLS12-381 G1/G2 compressed and
//! uncompressed (checked and unchecked). (The EVM encodings live in zkforge-evm, fuzzed by the
//! `evm_*` targets.) Any input gives Ok or a
//! typed error, never a panic; an accepted point is on the curve (and in the subgroup for the
//! checked decoders) and re-encodes to the same bytes.
//!
//! Raw bytes almost never decode, so half of the runs start from a valid point (the input
//! mapped to the curve) and corrupt its encoding at an input-chosen position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zkforge_curve::bls12_381::{G1Affine, G2Affine};
use zkforge_curve::hash_to_curve::{map_fp2_to_g2, map_fp_to_g1};
use zkforge_field::bls12_381;

include!("curve_decode_body.rs");

fuzz_target!(|data: &[u8]| one_input(data));

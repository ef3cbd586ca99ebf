//! Fuzz the Gt decoders of BLS12-381 (576 bytes) and BN254 (384 bytes): wrong lengths,
//! coefficients >= p and elements outside the order-r subgroup must give typed errors.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zkforge_pairing::{bls12_381 as pb, bn254 as pn};

include!("gt_decode_body.rs");

fuzz_target!(|data: &[u8]| one_input(data));

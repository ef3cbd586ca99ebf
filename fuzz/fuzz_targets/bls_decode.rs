//! Fuzz the decoders of zkforge-bls: secret keys (32 bytes, 1..r-1), public keys (48-byte
//! compressed G1 with KeyValidate) and signatures (96-byte compressed G2, with and without the
//! subgroup test), and a verification of whatever decodes. Any input gives Ok or a typed
//! error, never a panic; half of the runs start from a valid encoding with one byte flipped.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zkforge_bls::{PublicKey, SecretKey, Signature};

include!("bls_decode_body.rs");

fuzz_target!(|data: &[u8]| one_input(data));

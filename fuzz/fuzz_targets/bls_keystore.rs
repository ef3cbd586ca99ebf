//! Fuzz the EIP-2335 keystore decoder of zkforge-bls (`Keystore::from_json`): any document
//! gives Ok or a typed error, never a panic; what parses round-trips through `to_json`; cheap
//! keystores are also opened. Half of the runs start from a valid keystore with one byte
//! changed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zkforge_bls::keystore::{Kdf, Keystore};
use zkforge_bls::SecretKey;

include!("bls_keystore_body.rs");

fuzz_target!(|data: &[u8]| one_input(data));

//! Fuzz the hash-based signature decoders: signatures and public keys in bincode-legacy
//! (hash-sig) and SSZ (leanSig). Wrong lengths, bad offsets and elements >= p must give typed
//! errors.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zkforge_hashsig::scheme::{PublicKey, Signature};
use zkforge_hashsig::sha3_xmss::sha3_instance_by_name;

include!("hashsig_decode_body.rs");

fuzz_target!(|data: &[u8]| one_input(data));

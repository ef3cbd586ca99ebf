//! Fuzz every EVM precompile's input handling at once: the first byte picks the precompile
//! (0x06-0x11 and an unknown address), the rest is the call data. See `evm_precompile_body.rs`
//! for what is asserted.
#![no_main]

use libfuzzer_sys::fuzz_target;

include!("evm_precompile_body.rs");

fuzz_target!(|data: &[u8]| one_input(data));

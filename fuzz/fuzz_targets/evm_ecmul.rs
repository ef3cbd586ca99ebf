//! Fuzz the ecmul precompile (0x07) input decoder and computation: any call data
//! gives an output of the fixed size or a typed error, never a panic (`evm_precompile_body.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

include!("evm_precompile_body.rs");

fuzz_target!(|data: &[u8]| one_call(0x07, data));

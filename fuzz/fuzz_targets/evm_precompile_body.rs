// Shared body of the `evm_precompile` fuzz target and of zkforge-evm's smoke test
// (`crates/zkforge-evm/tests/fuzz_smoke.rs`), which runs it on seeded random and mutated-valid
// inputs in CI. Included with `include!`.
//
// The first byte picks the precompile (every address 0x06-0x11, plus unknown ones), the rest
// is the call data. Every input must give an output or a typed error, never a panic; an
// output must have the precompile's fixed size and charge no more than the limit; the decoders
// must agree with the precompiles (a point the add precompile accepts decodes on its own).

#[allow(dead_code)]
const ADDRESSES: [u8; 12] = [0x06, 0x07, 0x08, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x05];

#[allow(dead_code)]
fn one_input(data: &[u8]) {
    let Some((&sel, input)) = data.split_first() else { return };
    one_call(ADDRESSES[sel as usize % ADDRESSES.len()], input);
}

fn one_call(address: u8, input: &[u8]) {
    let gas = 30_000_000;
    match zkforge_evm::call(address, input, gas) {
        Ok(out) => {
            assert!(out.gas_used <= gas);
            let want = match address {
                0x06 | 0x07 => 64,
                0x08 | 0x0f => 32,
                0x0a => 64,
                0x0b | 0x0c | 0x10 => 128,
                _ => 256,
            };
            assert_eq!(out.bytes.len(), want, "{address:#04x}");
            if address == 0x0b {
                // both inputs decode on their own (curve check, no subgroup)
                assert!(zkforge_evm::bls12_381::decode_g1(&input[..128], false).is_ok());
                assert!(zkforge_evm::bls12_381::decode_g1(&input[128..], false).is_ok());
            }
        }
        Err(zkforge_evm::PrecompileError::UnknownAddress(a)) => assert_eq!(a, address),
        Err(_) => {}
    }
}

//! The SHAKE128 pseudorandom function of hash-sig's `ShakePRFtoF` (FIPS 202 SHAKE128):
//! - chain start: SHAKE128(SEP || 0x00 || key || epoch (u32 BE) || chain index (u64 BE));
//! - signing randomness rho: SHAKE128(SEP || 0x01 || key || epoch (u32 BE) || message (32
//!   bytes) || counter (u64 BE)).
//!
//! Each field element is read from 16 output bytes as a big-endian u128 reduced mod p.

use sha3::digest::{ExtendableOutput, Update, XofReader};
use sha3::Shake128;

use crate::koalabear::{Kb, P};

/// The PRF's 16-byte domain separator.
pub const PRF_SEPARATOR: [u8; 16] = [0xae, 0xae, 0x22, 0xff, 0x00, 0x01, 0xfa, 0xff, 0x21, 0xaf, 0x12, 0x00, 0x01, 0x11, 0xff, 0x00];

/// A field element from 16 bytes read as a big-endian integer mod p.
pub fn kb_from_u128_be(b: &[u8; 16]) -> Kb {
    Kb::new((u128::from_be_bytes(*b) % P as u128) as u32)
}

fn read_elements<const L: usize>(mut xof: impl XofReader) -> [Kb; L] {
    core::array::from_fn(|_| {
        let mut b = [0u8; 16];
        xof.read(&mut b);
        kb_from_u128_be(&b)
    })
}

/// The secret start of chain `chain_index` at `epoch`.
pub fn chain_start<const L: usize>(key: &[u8; 32], epoch: u32, chain_index: u64) -> [Kb; L] {
    let mut h = Shake128::default();
    h.update(&PRF_SEPARATOR);
    h.update(&[0x00]);
    h.update(key);
    h.update(&epoch.to_be_bytes());
    h.update(&chain_index.to_be_bytes());
    read_elements(h.finalize_xof())
}

/// The signing randomness rho for (epoch, message, counter).
pub fn randomness<const L: usize>(key: &[u8; 32], epoch: u32, message: &[u8; 32], counter: u64) -> [Kb; L] {
    let mut h = Shake128::default();
    h.update(&PRF_SEPARATOR);
    h.update(&[0x01]);
    h.update(key);
    h.update(&epoch.to_be_bytes());
    h.update(message);
    h.update(&counter.to_be_bytes());
    read_elements(h.finalize_xof())
}

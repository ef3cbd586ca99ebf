//! Helpers shared by the range-proof test files.
use rand::Rng;
use rand_chacha::ChaCha20Rng;

/// A random value below 2^n.
pub fn value(rng: &mut ChaCha20Rng, n: usize) -> u64 {
    let v: u64 = rng.gen();
    if n == 64 {
        v
    } else {
        v >> (64 - n)
    }
}

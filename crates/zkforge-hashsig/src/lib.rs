//! # zkforge-hashsig
//!
//! Hash-based signatures for Ethereum's lean consensus: Generalized XMSS over Poseidon2 and
//! the 31-bit KoalaBear field (and over SHA3), bit-compatible with the reference implementations (hash-sig,
//! leanSig). This crate is being built bottom-up; present so far:
//! - [`koalabear`]: the field, Montgomery form as Plonky3 stores it;
//! - [`poseidon2`]: the width-16 and width-24 permutations, equal to Plonky3's defaults;
//! - [`poseidon1`]: Poseidon1 widths 16 and 24 (leanSig's devnet-4 generation);
//! - [`prf`]: the SHAKE128 PRF (chain starts, signing randomness);
//! - [`tweak_hash`]: tweaks, chain steps, tree nodes and the sponge leaf hash;
//! - [`keygen`]: key generation reproducing the reference's keys from the same seed;
//! - [`hypercube`]: the top-level message hash and the target-sum encoding;
//! - [`encoding`]: the Winternitz / target-sum message hash and the Winternitz checksum;
//! - [`scheme`]: signing, verification, bincode-legacy and SSZ encodings;
//! - [`sha3_xmss`]: the SHA3-256 instantiations;
//! - [`devnet4`]: leanSig's devnet-4 generation (Poseidon1, aborting target sum);
//! - [`keystore`]: a crash-safe key file that refuses to sign an epoch twice.
//! - [`named`]: every scheme by name, bytes in and bytes out, signing only through a key store.
//!
//! ```
//! use zkforge_hashsig::{koalabear::Kb, poseidon2::Poseidon2};
//! let perm = Poseidon2::new_16();
//! let out = perm.permute([Kb::ZERO; 16]);
//! assert_eq!(out[0].to_canonical(), 1194359470); // hash-sig's vector for the zero state
//! ```
#![warn(missing_docs)]

pub mod devnet4;
pub mod encoding;
pub mod hypercube;
pub mod keygen;
mod keccak_x4;
mod keccak_x8;
pub mod keystore;
pub mod named;
pub mod koalabear;
pub mod poseidon1;
mod poseidon1_avx2;
mod poseidon1_avx512;
mod poseidon1_circulant;
mod poseidon1_fast;
#[cfg(target_arch = "x86_64")]
mod poseidon1_packed;
pub mod poseidon2;
#[cfg(target_arch = "x86_64")]
mod packed;
mod packed_avx2;
mod packed_avx512;
mod single_avx2;
mod single_avx512;
pub mod prf;
pub mod scheme;
pub mod sha3_xmss;
pub mod tweak_hash;
#[allow(missing_docs)]
mod poseidon2_consts;

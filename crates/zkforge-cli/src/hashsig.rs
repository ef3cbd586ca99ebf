//! `zkforge hashsig keygen | sign | verify`: Generalized XMSS keys and signatures,
//! byte-compatible with hash-sig (bincode-legacy) and leanSig (SSZ). Key generation is
//! reproducible: the RNG is ChaCha20 seeded with the 32-byte `--seed`, as the reference
//! vectors were made. The secret key file is a crash-safe key store that refuses to sign an
//! epoch twice.

use std::path::PathBuf;

use clap::{Subcommand, ValueEnum};
use rand_chacha::rand_core::SeedableRng;
use zkforge_hashsig::hypercube::Layers;
use zkforge_hashsig::keygen::key_gen_with_progress;
use zkforge_hashsig::keystore::KeyStore;
use zkforge_hashsig::scheme::{top_level_by_name, PublicKey, Signature};
use zkforge_hashsig::tweak_hash::Perms;

const PL: usize = 5;
const T: usize = 2;
const H: usize = 8;
const CAP: usize = 9;
const R: usize = 7;

/// Wire encoding of keys and signatures.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Encoding {
    /// hash-sig's serde + bincode 1.x (field elements as Montgomery u32).
    BincodeLegacy,
    /// leanSig's SSZ (field elements as canonical u32).
    Ssz,
}

/// The hashsig subcommands.
#[derive(Subcommand)]
pub enum HashsigCmd {
    /// Generate a key pair from a 32-byte seed.
    Keygen {
        /// Scheme name, e.g. poseidon2_toplevel_lifetime8_dim64_base8.
        #[arg(long)]
        scheme: String,
        /// 64 hex digits: the ChaCha20 seed.
        #[arg(long)]
        seed: String,
        /// First epoch to activate.
        #[arg(long, default_value_t = 0)]
        activation_epoch: u64,
        /// Number of epochs to activate (expanded to whole bottom trees).
        #[arg(long)]
        active_epochs: u64,
        /// Encoding of the public key file.
        #[arg(long, value_enum, default_value_t = Encoding::Ssz)]
        encoding: Encoding,
        /// Where to write the public key (exactly the encoded bytes).
        #[arg(long)]
        public_key_out: PathBuf,
        /// Where to write the secret key store.
        #[arg(long)]
        secret_key_out: PathBuf,
    },
    /// Sign a 32-byte message at an epoch (the key store advances first).
    Sign {
        /// Scheme name.
        #[arg(long)]
        scheme: String,
        /// Secret key store.
        #[arg(long)]
        secret_key: PathBuf,
        /// Epoch.
        #[arg(long)]
        epoch: u32,
        /// Message, 64 hex digits.
        #[arg(long)]
        message: String,
        /// Signature encoding.
        #[arg(long, value_enum, default_value_t = Encoding::Ssz)]
        encoding: Encoding,
        /// Where to write the signature.
        #[arg(long)]
        signature_out: PathBuf,
    },
    /// Verify a signature; exit status 0 when valid, 1 when not.
    Verify {
        /// Scheme name.
        #[arg(long)]
        scheme: String,
        /// Public key file.
        #[arg(long)]
        public_key: PathBuf,
        /// Epoch.
        #[arg(long)]
        epoch: u32,
        /// Message, 64 hex digits.
        #[arg(long)]
        message: String,
        /// Signature file.
        #[arg(long)]
        signature: PathBuf,
        /// Encoding of both files.
        #[arg(long, value_enum, default_value_t = Encoding::Ssz)]
        encoding: Encoding,
    },
}

fn hex32(s: &str) -> Result<[u8; 32], String> {
    let s = s.trim_start_matches("0x");
    if s.len() != 64 {
        return Err(format!("expected 64 hex digits, got {}", s.len()));
    }
    let mut out = [0u8; 32];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|e| format!("bad hex: {e}"))?;
    }
    Ok(out)
}

/// Run one subcommand; returns the process exit code.
pub fn run(cmd: HashsigCmd) -> Result<i32, Box<dyn std::error::Error>> {
    let perms = Perms::default();
    match cmd {
        HashsigCmd::Keygen { scheme, seed, activation_epoch, active_epochs, encoding, public_key_out, secret_key_out } => {
            let sch = top_level_by_name(&scheme).ok_or_else(|| format!("unknown scheme {scheme}"))?;
            let mut rng = rand_chacha::ChaCha20Rng::from_seed(hex32(&seed)?);
            let bar = indicatif::ProgressBar::new(0);
            bar.set_style(indicatif::ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} bottom trees, {elapsed} (eta {eta})")?.progress_chars("=> "));
            bar.set_message("keygen");
            let km = key_gen_with_progress::<PL, T, H, CAP>(&perms, &sch.shape, &mut rng, activation_epoch, active_epochs, &mut |done, total| {
                bar.set_length(total);
                bar.set_position(done);
            });
            bar.finish();
            let pk = PublicKey::<PL, H> { root: km.root, parameter: km.parameter };
            let bytes = match encoding {
                Encoding::BincodeLegacy => pk.to_bincode_legacy(),
                Encoding::Ssz => pk.to_ssz(),
            };
            std::fs::write(&public_key_out, bytes)?;
            let ks = KeyStore::create(&secret_key_out, &scheme, km)?;
            eprintln!("epochs [{}, {}) active; next usable epoch {}", ks.key.activation_start, ks.key.activation_start + ks.key.active_epochs, ks.next_epoch);
            Ok(0)
        }
        HashsigCmd::Sign { scheme, secret_key, epoch, message, encoding, signature_out } => {
            let sch = top_level_by_name(&scheme).ok_or_else(|| format!("unknown scheme {scheme}"))?;
            let msg = hex32(&message)?;
            let mut ks = KeyStore::<PL, H>::open(&secret_key, &scheme)?;
            // the next usable epoch is on disk before any signature exists
            ks.reserve(epoch as u64)?;
            ks.advance_preparation::<T, CAP>(&perms, &sch.shape, epoch as u64)?;
            let layers = Layers::new(sch.shape.base as usize, sch.shape.dimension);
            let sig = sch.sign::<PL, T, H, CAP, R>(&perms, &layers, &ks.key, epoch, &msg)?;
            let bytes = match encoding {
                Encoding::BincodeLegacy => sig.to_bincode_legacy(),
                Encoding::Ssz => sig.to_ssz(),
            };
            std::fs::write(&signature_out, bytes)?;
            Ok(0)
        }
        HashsigCmd::Verify { scheme, public_key, epoch, message, signature, encoding } => {
            let sch = top_level_by_name(&scheme).ok_or_else(|| format!("unknown scheme {scheme}"))?;
            let msg = hex32(&message)?;
            let (pkb, sigb) = (std::fs::read(&public_key)?, std::fs::read(&signature)?);
            let (ll, dim) = (sch.shape.log_lifetime as usize, sch.shape.dimension);
            let (pk, sig) = match encoding {
                Encoding::BincodeLegacy => (PublicKey::<PL, H>::from_bincode_legacy(&pkb)?, Signature::<R, H>::from_bincode_legacy(&sigb, ll, dim)?),
                Encoding::Ssz => (PublicKey::<PL, H>::from_ssz(&pkb)?, Signature::<R, H>::from_ssz(&sigb, ll, dim)?),
            };
            let layers = Layers::new(sch.shape.base as usize, sch.shape.dimension);
            let ok = sch.verify::<PL, T, H, CAP, R>(&perms, &layers, &pk.root, &pk.parameter, epoch, &msg, &sig);
            println!("{}", if ok { "valid" } else { "invalid" });
            Ok(if ok { 0 } else { 1 })
        }
    }
}

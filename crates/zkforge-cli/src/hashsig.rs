//! `zkforge hashsig keygen | sign | verify`: Generalized XMSS keys and signatures,
//! byte-compatible with hash-sig (bincode-legacy) and leanSig (SSZ). Key generation is
//! reproducible: the RNG is ChaCha20 seeded with the 32-byte `--seed`, as the reference
//! vectors were made. The secret key file is a crash-safe key store that refuses to sign an
//! epoch twice.

use std::path::PathBuf;

use clap::{Subcommand, ValueEnum};
use rand_chacha::rand_core::SeedableRng;
use zkforge_hashsig::keygen::key_gen_with_progress;
use zkforge_hashsig::keystore::KeyStore;
use zkforge_hashsig::scheme::{instance_by_name, Instance, PublicKey, Signature};
use zkforge_hashsig::tweak_hash::Perms;

const PL: usize = 5;
const T: usize = 2;
const CAP: usize = 9;

/// The key-generation RNG, seeded with `--seed`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Rng {
    /// rand_chacha's ChaCha20Rng (the vectors' default).
    Chacha20,
    /// rand 0.9's StdRng (ChaCha12), as the hash-sig benchmark repository seeds it.
    Std,
}

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
        /// The RNG the seed drives.
        #[arg(long, value_enum, default_value_t = Rng::Chacha20)]
        rng: Rng,
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

fn scheme_of(cmd: &HashsigCmd) -> &str {
    match cmd {
        HashsigCmd::Keygen { scheme, .. } | HashsigCmd::Sign { scheme, .. } | HashsigCmd::Verify { scheme, .. } => scheme,
    }
}

/// Run one subcommand; returns the process exit code.
pub fn run(cmd: HashsigCmd) -> Result<i32, Box<dyn std::error::Error>> {
    let name = scheme_of(&cmd).to_string();
    if let Some(inst) = zkforge_hashsig::devnet4::Devnet4::by_name(&name) {
        return run_devnet4(cmd, inst);
    }
    let sch = instance_by_name(&name).ok_or_else(|| format!("unknown scheme {name}"))?;
    // the array lengths are const generics: one monomorphised path per (HASH_LEN, RAND_LEN)
    match (sch.hash_len, sch.rand_len) {
        (8, 7) => run_with::<8, 7>(cmd, sch),
        (7, 6) => run_with::<7, 6>(cmd, sch),
        (7, 5) => run_with::<7, 5>(cmd, sch),
        (8, 6) => run_with::<8, 6>(cmd, sch),
        (h, r) => Err(format!("no build for HASH_LEN {h}, RAND_LEN {r}").into()),
    }
}

fn run_with<const H: usize, const R: usize>(cmd: HashsigCmd, sch: Instance) -> Result<i32, Box<dyn std::error::Error>> {
    let perms = Perms::default();
    match cmd {
        HashsigCmd::Keygen { scheme, seed, activation_epoch, active_epochs, encoding, rng, public_key_out, secret_key_out } => {
            let seed = hex32(&seed)?;
            let mut rng: Box<dyn rand_chacha::rand_core::RngCore + Send> = match rng {
                Rng::Chacha20 => Box::new(rand_chacha::ChaCha20Rng::from_seed(seed)),
                Rng::Std => Box::new(rand_chacha::ChaCha12Rng::from_seed(seed)),
            };
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
            let msg = hex32(&message)?;
            let mut ks = KeyStore::<PL, H>::open(&secret_key, &scheme)?;
            // the next usable epoch is on disk before any signature exists
            ks.reserve(epoch as u64)?;
            ks.advance_preparation::<T, CAP>(&perms, &sch.shape, epoch as u64)?;
            let layers = sch.layers();
            let sig = sch.sign::<PL, T, H, CAP, R>(&perms, &layers, &ks.key, epoch, &msg)?;
            let bytes = match encoding {
                Encoding::BincodeLegacy => sig.to_bincode_legacy(),
                Encoding::Ssz => sig.to_ssz(),
            };
            std::fs::write(&signature_out, bytes)?;
            Ok(0)
        }
        HashsigCmd::Verify { public_key, epoch, message, signature, encoding, .. } => {
            let msg = hex32(&message)?;
            let (pkb, sigb) = (std::fs::read(&public_key)?, std::fs::read(&signature)?);
            let (ll, dim) = (sch.shape.log_lifetime as usize, sch.shape.dimension);
            let (pk, sig) = match encoding {
                Encoding::BincodeLegacy => (PublicKey::<PL, H>::from_bincode_legacy(&pkb)?, Signature::<R, H>::from_bincode_legacy(&sigb, ll, dim)?),
                Encoding::Ssz => (PublicKey::<PL, H>::from_ssz(&pkb)?, Signature::<R, H>::from_ssz(&sigb, ll, dim)?),
            };
            let layers = sch.layers();
            let ok = sch.verify::<PL, T, H, CAP, R>(&perms, &layers, &pk.root, &pk.parameter, epoch, &msg, &sig);
            println!("{}", if ok { "valid" } else { "invalid" });
            Ok(if ok { 0 } else { 1 })
        }
    }
}

/// leanSig devnet 4 (Poseidon1, aborting target sum): the same files and key store; bottom
/// trees outside the two prepared at key generation are recomputed when signing.
fn run_devnet4(cmd: HashsigCmd, inst: zkforge_hashsig::devnet4::Devnet4) -> Result<i32, Box<dyn std::error::Error>> {
    use zkforge_hashsig::devnet4::{H, R};
    match cmd {
        HashsigCmd::Keygen { scheme, seed, activation_epoch, active_epochs, encoding, rng, public_key_out, secret_key_out } => {
            let seed = hex32(&seed)?;
            let mut rng: Box<dyn rand_chacha::rand_core::RngCore + Send> = match rng {
                Rng::Chacha20 => Box::new(rand_chacha::ChaCha20Rng::from_seed(seed)),
                Rng::Std => Box::new(rand_chacha::ChaCha12Rng::from_seed(seed)),
            };
            let km = inst.key_gen(&mut rng, activation_epoch, active_epochs);
            let pk = PublicKey::<PL, H> { root: km.root, parameter: km.parameter };
            std::fs::write(&public_key_out, match encoding {
                Encoding::BincodeLegacy => pk.to_bincode_legacy(),
                Encoding::Ssz => pk.to_ssz(),
            })?;
            let ks = KeyStore::create(&secret_key_out, &scheme, km)?;
            eprintln!("epochs [{}, {}) active; next usable epoch {}", ks.key.activation_start, ks.key.activation_start + ks.key.active_epochs, ks.next_epoch);
            Ok(0)
        }
        HashsigCmd::Sign { scheme, secret_key, epoch, message, encoding, signature_out } => {
            let msg = hex32(&message)?;
            let mut ks = KeyStore::<PL, H>::open(&secret_key, &scheme)?;
            ks.reserve(epoch as u64)?;
            let sig = inst.sign(&ks.key, epoch, &msg)?;
            std::fs::write(&signature_out, match encoding {
                Encoding::BincodeLegacy => sig.to_bincode_legacy(),
                Encoding::Ssz => sig.to_ssz(),
            })?;
            Ok(0)
        }
        HashsigCmd::Verify { public_key, epoch, message, signature, encoding, .. } => {
            let msg = hex32(&message)?;
            let (pkb, sigb) = (std::fs::read(&public_key)?, std::fs::read(&signature)?);
            let (ll, dim) = (inst.log_lifetime as usize, inst.dimension);
            let (pk, sig) = match encoding {
                Encoding::BincodeLegacy => (PublicKey::<PL, H>::from_bincode_legacy(&pkb)?, Signature::<R, H>::from_bincode_legacy(&sigb, ll, dim)?),
                Encoding::Ssz => (PublicKey::<PL, H>::from_ssz(&pkb)?, Signature::<R, H>::from_ssz(&sigb, ll, dim)?),
            };
            let ok = inst.verify(&pk.root, &pk.parameter, epoch, &msg, &sig);
            println!("{}", if ok { "valid" } else { "invalid" });
            Ok(if ok { 0 } else { 1 })
        }
    }
}

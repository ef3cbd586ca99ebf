//! `zkforge hashsig schemes | keygen | sign | verify`: Generalized XMSS keys and signatures,
//! byte-compatible with hash-sig (bincode-legacy) and leanSig (SSZ), for the Poseidon2
//! instances, the SHA3 instances and leanSig devnet 4. Key generation is reproducible: the RNG
//! is ChaCha20 (or rand's StdRng) seeded with the 32-byte `--seed`, as the reference vectors
//! were made.
//!
//! The secret key file is the library's key store (`zkforge_hashsig::keystore`): never
//! overwritten, locked while in use, checked against its digest on every open, an epoch
//! reserved on disk before its signature exists, and every signature verified against the
//! public key before it is written. Output paths are checked before an epoch is reserved;
//! an error after the reservation says that the epoch is spent.
//!
//! Exit codes (also in `--help`): 0 success / valid signature; 1 invalid signature (verify);
//! 2 usage or input error (bad arguments, unknown scheme, unreadable or undecodable files,
//! unusable output paths), nothing changed; 3 refused by the key store (epoch already used or
//! outside the key's range, store exists, damaged, not a store), nothing changed; 4 failure
//! after the epoch was reserved: the epoch is spent and no signature was written.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand, ValueEnum};
use zkforge_hashsig::keystore::{write_atomic, KeyStoreError};
use zkforge_hashsig::named::{scheme_names, NamedError, NamedScheme, SeedRng, Wire};

/// The exit codes, documented in `--help`.
pub const EXIT_HELP: &str = "Exit codes:
  0  success (verify: the signature is valid)
  1  verify: the signature is invalid
  2  usage or input error (bad arguments, unknown scheme, unreadable or undecodable
     input files, unusable output paths); nothing was changed
  3  refused by the key store (epoch already used or outside the key's range, store
     already exists, store damaged, not a key store); nothing was changed
  4  failure after the epoch was reserved: the epoch is spent, no signature was written

Scheme names: `zkforge hashsig schemes`.";

/// An error with its exit code and a message in plain words.
#[derive(Debug)]
pub struct CliError {
    /// Process exit code (see [`EXIT_HELP`]).
    pub code: i32,
    /// What went wrong and what to do.
    pub message: String,
}

impl CliError {
    fn input(message: impl Into<String>) -> Self {
        CliError { code: 2, message: message.into() }
    }
}

/// A key-store error before any reservation: exit 3 for refusals, 2 for I/O.
fn store_error(e: KeyStoreError) -> CliError {
    let code = match e {
        KeyStoreError::Io { .. } => 2,
        _ => 3,
    };
    CliError { code, message: e.to_string() }
}

/// The key-generation RNG, seeded with `--seed`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Rng {
    /// rand_chacha's ChaCha20Rng (the vectors' default).
    Chacha20,
    /// rand 0.9's StdRng (ChaCha12), as the hash-sig benchmark repository seeds it.
    Std,
}

/// Wire encoding of keys and signatures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Encoding {
    /// hash-sig's serde + bincode 1.x (field elements as Montgomery u32); the only encoding
    /// of the SHA3 instances.
    BincodeLegacy,
    /// leanSig's SSZ (field elements as canonical u32).
    Ssz,
}

/// The hashsig subcommands.
#[derive(Subcommand)]
pub enum HashsigCmd {
    /// List every scheme name with its lifetime and key and signature sizes.
    Schemes,
    /// Generate a key pair from a 32-byte seed into a new secret-key store.
    #[command(after_help = EXIT_HELP)]
    Keygen(KeygenArgs),
    /// Sign a 32-byte message at an epoch (the store advances past it first).
    #[command(after_help = EXIT_HELP)]
    Sign(SignArgs),
    /// Verify a signature: exit 0 when valid, 1 when invalid, 2 when an input cannot be read
    /// or decoded.
    #[command(after_help = EXIT_HELP)]
    Verify(VerifyArgs),
}

/// `zkforge hashsig keygen`.
#[derive(Args)]
pub struct KeygenArgs {
    /// Scheme name (see `zkforge hashsig schemes`).
    #[arg(long)]
    scheme: String,
    /// 64 hex digits: the RNG seed.
    #[arg(long)]
    seed: String,
    /// First epoch to activate.
    #[arg(long, default_value_t = 0)]
    activation_epoch: u64,
    /// Number of epochs to activate (at least 1; activation epoch + count at most the
    /// lifetime; expanded to whole bottom trees).
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
    /// Where to write the secret key store; must not exist yet.
    #[arg(long)]
    secret_key_out: PathBuf,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
}

/// `zkforge hashsig sign`.
#[derive(Args)]
pub struct SignArgs {
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
    /// Where to write the signature (written whole or not at all).
    #[arg(long)]
    signature_out: PathBuf,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
}

/// `zkforge hashsig verify`.
#[derive(Args)]
pub struct VerifyArgs {
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
}

fn hex32(s: &str, what: &str) -> Result<[u8; 32], CliError> {
    let s = s.trim_start_matches("0x");
    if s.len() != 64 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(CliError::input(format!("{what} must be 64 hex digits (32 bytes), got {} characters", s.len())));
    }
    let mut out = [0u8; 32];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("checked hex");
    }
    Ok(out)
}

fn read_input(path: &Path, what: &str) -> Result<Vec<u8>, CliError> {
    std::fs::read(path).map_err(|e| CliError::input(format!("could not read the {what} {}: {e}", path.display())))
}

/// An output path must be creatable: its directory exists and is writable, and it is not a
/// directory itself. Checked before any state changes.
fn check_output(path: &Path, what: &str) -> Result<(), CliError> {
    if path.is_dir() {
        return Err(CliError::input(format!("the {what} path {} is a directory; give a file name", path.display())));
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Err(CliError::input(format!("the directory {} for the {what} does not exist; create it first", dir.display())));
    }
    let probe = dir.join(format!(".zkforge-probe-{}", std::process::id()));
    match std::fs::OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => Err(CliError::input(format!("cannot write the {what} into {}: {e}", dir.display()))),
    }
}

/// The pool for `--threads` (None: rayon's global pool, every core). Built before any state
/// changes, so a bad count is an input error.
fn thread_pool(threads: Option<usize>) -> Result<Option<rayon::ThreadPool>, CliError> {
    match threads {
        None => Ok(None),
        Some(0) => Err(CliError::input("--threads must be at least 1")),
        Some(n) => rayon::ThreadPoolBuilder::new().num_threads(n).build().map(Some).map_err(|e| CliError::input(format!("could not start {n} threads: {e}"))),
    }
}

/// Run `f` on the pool (or the caller's).
fn run_on<R: Send>(pool: &Option<rayon::ThreadPool>, f: impl FnOnce() -> R + Send) -> R {
    match pool {
        Some(p) => p.install(f),
        None => f(),
    }
}

fn scheme(name: &str) -> Result<NamedScheme, CliError> {
    NamedScheme::by_name(name).map_err(|e| CliError::input(e.to_string()))
}

fn wire(e: Encoding) -> Wire {
    match e {
        Encoding::BincodeLegacy => Wire::BincodeLegacy,
        Encoding::Ssz => Wire::Ssz,
    }
}

/// The library's error as the CLI's exit code and message: 2 for input and I/O errors
/// (nothing changed), 3 for the store's refusals, 4 once the epoch is spent.
fn named_error(e: NamedError) -> CliError {
    match e {
        NamedError::Refused(k) => store_error(k),
        NamedError::Spent { .. } => CliError { code: 4, message: e.to_string() },
        _ => CliError::input(e.to_string()),
    }
}

/// Run one subcommand; returns the process exit code.
pub fn run(cmd: HashsigCmd) -> Result<i32, CliError> {
    match cmd {
        HashsigCmd::Schemes => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            for n in scheme_names() {
                // a closed pipe (`| head`) ends the listing quietly
                if writeln!(out, "{}", scheme(&n)?.describe()).is_err() {
                    break;
                }
            }
            Ok(0)
        }
        HashsigCmd::Keygen(a) => keygen(&a),
        HashsigCmd::Sign(a) => sign(&a),
        HashsigCmd::Verify(a) => verify(&a),
    }
}

/// Parameter and path checks, key generation into the new store on the pool (the store is
/// claimed by the library, which never overwrites), then the public key file. A failure to
/// write the public key removes the new store again: nobody has signed with it.
fn keygen(a: &KeygenArgs) -> Result<i32, CliError> {
    let s = scheme(&a.scheme)?;
    let seed = hex32(&a.seed, "--seed")?;
    s.check_wire(wire(a.encoding)).map_err(named_error)?;
    s.check_activation(a.activation_epoch, a.active_epochs).map_err(|e| CliError::input(format!("{e} (scheme {})", a.scheme)))?;
    if a.secret_key_out.exists() {
        return Err(store_error(KeyStoreError::AlreadyExists { path: a.secret_key_out.clone() }));
    }
    check_output(&a.secret_key_out, "secret key store")?;
    check_output(&a.public_key_out, "public key")?;
    let pool = thread_pool(a.threads)?;
    let rng = match a.rng {
        Rng::Chacha20 => SeedRng::ChaCha20,
        Rng::Std => SeedRng::Std,
    };
    let bar = indicatif::ProgressBar::hidden();
    let pk = run_on(&pool, || {
        s.keygen_to_store(&a.secret_key_out, seed, rng, a.activation_epoch, a.active_epochs, wire(a.encoding), &mut |done, total| {
            if bar.is_hidden() && total > 0 {
                // only the Poseidon2 instances report progress: the bar appears with the first report
                bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                if let Ok(style) = indicatif::ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} bottom trees, {elapsed} (eta {eta})") {
                    bar.set_style(style.progress_chars("=> "));
                }
                bar.set_message("keygen");
            }
            bar.set_length(total);
            bar.set_position(done);
        })
    })
    .map_err(named_error)?;
    bar.finish();
    if let Err(e) = write_atomic(&a.public_key_out, &pk) {
        let _ = std::fs::remove_file(&a.secret_key_out);
        return Err(CliError::input(format!("{e}; the new secret key store was removed again")));
    }
    let (next, start, num) = s.store_status(&a.secret_key_out).map_err(named_error)?;
    eprintln!("epochs [{start}, {}) active; next usable epoch {next}; secret key store {}", start + num, a.secret_key_out.display());
    Ok(0)
}

/// The signature path is checked first; the library opens the store (locked, digest
/// checked), reserves the epoch, signs and self-verifies; then the signature is written
/// atomically. A failure to write it spends the epoch (exit 4).
fn sign(a: &SignArgs) -> Result<i32, CliError> {
    let s = scheme(&a.scheme)?;
    let msg = hex32(&a.message, "--message")?;
    s.check_wire(wire(a.encoding)).map_err(named_error)?;
    check_output(&a.signature_out, "signature")?;
    let pool = thread_pool(a.threads)?;
    let sig = run_on(&pool, || s.sign_with_store(&a.secret_key, a.epoch, &msg, wire(a.encoding))).map_err(named_error)?;
    write_atomic(&a.signature_out, &sig).map_err(|err| CliError {
        code: 4,
        message: format!("{err}; epoch {} is spent (it will never be signed again), sign the message at a later epoch", a.epoch),
    })?;
    Ok(0)
}

/// Exit 0 when valid, 1 when invalid, 2 when a file cannot be read or decoded.
fn verify(a: &VerifyArgs) -> Result<i32, CliError> {
    let s = scheme(&a.scheme)?;
    let msg = hex32(&a.message, "--message")?;
    s.check_wire(wire(a.encoding)).map_err(named_error)?;
    let (pkb, sigb) = (read_input(&a.public_key, "public key")?, read_input(&a.signature, "signature")?);
    let ok = s.verify(&pkb, a.epoch, &msg, &sigb, wire(a.encoding)).map_err(|e| match e {
        NamedError::Decode { what, source } => {
            let path = if what == "public key" { &a.public_key } else { &a.signature };
            CliError::input(format!("{} is not a {what} of {} in this encoding: {source}", path.display(), a.scheme))
        }
        e => named_error(e),
    })?;
    println!("{}", if ok { "valid" } else { "invalid" });
    Ok(if ok { 0 } else { 1 })
}

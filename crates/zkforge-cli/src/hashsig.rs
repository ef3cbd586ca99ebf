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
use rand_chacha::rand_core::SeedableRng;
use zkforge_hashsig::devnet4::Devnet4;
use zkforge_hashsig::keygen::{check_activation, key_gen_with_progress, KeyMaterial};
use zkforge_hashsig::keystore::{write_atomic, KeyStoreError, Sha3KeyStore, Store, StoredKey};
use zkforge_hashsig::scheme::{instance_by_name, Instance, PublicKey, Signature};
use zkforge_hashsig::sha3_xmss::{sha3_instance_by_name, Sha3Instance, Sha3Key, Sha3Signature};
use zkforge_hashsig::tweak_hash::Perms;

const PL: usize = 5;
const T: usize = 2;
const CAP: usize = 9;

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

/// Any failure after `epoch` was reserved: exit 4, saying that the epoch is spent.
fn spent(epoch: u64, what: impl std::fmt::Display) -> CliError {
    let what = what.to_string();
    let message = if what.contains("is spent") { what } else { format!("{what}; epoch {epoch} is spent (it will never be signed again), sign the message at a later epoch") };
    CliError { code: 4, message }
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

fn decode<X, E: std::fmt::Display>(r: Result<X, E>, path: &Path, what: &str, scheme: &str) -> Result<X, CliError> {
    r.map_err(|e| CliError::input(format!("{} is not a {what} of {scheme} in this encoding: {e}", path.display())))
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

fn seeded_rng(rng: Rng, seed: [u8; 32]) -> Box<dyn rand_chacha::rand_core::RngCore + Send> {
    match rng {
        Rng::Chacha20 => Box::new(rand_chacha::ChaCha20Rng::from_seed(seed)),
        Rng::Std => Box::new(rand_chacha::ChaCha12Rng::from_seed(seed)),
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

/// The family a scheme name belongs to.
enum Family {
    Poseidon2(Instance),
    Sha3(Sha3Instance),
    Devnet4(Devnet4),
}

fn family(name: &str) -> Result<Family, CliError> {
    if let Some(d) = Devnet4::by_name(name) {
        return Ok(Family::Devnet4(d));
    }
    if let Some(i) = sha3_instance_by_name(name) {
        return Ok(Family::Sha3(i));
    }
    if let Some(i) = instance_by_name(name) {
        return Ok(Family::Poseidon2(i));
    }
    Err(CliError::input(format!("unknown scheme {name:?}; `zkforge hashsig schemes` lists them")))
}

/// Every scheme name the library knows.
pub fn scheme_names() -> Vec<String> {
    let mut v: Vec<String> = ["8", "18", "32"].iter().map(|l| format!("poseidon2_toplevel_lifetime{l}_dim64_base8")).collect();
    for fam in ["poseidon2", "sha3"] {
        for life in [18, 20] {
            for w in [1, 2, 4, 8] {
                v.push(format!("{fam}_winternitz_lifetime{life}_w{w}"));
                for off in ["nooff", "off10"] {
                    v.push(format!("{fam}_targetsum_lifetime{life}_w{w}_{off}"));
                }
            }
        }
    }
    v.push("leansig_head_aborting_lifetime8_dim46_base8".into());
    v.push("leansig_head_aborting_lifetime32_dim46_base8".into());
    v
}

/// (public key, signature) sizes in bytes for both encodings of a Poseidon instance.
fn kb_sizes<const H: usize, const R: usize>(log_lifetime: usize, dimension: usize) -> String {
    use zkforge_hashsig::koalabear::Kb;
    let pk = PublicKey::<PL, H> { root: [Kb::ZERO; H], parameter: [Kb::ZERO; PL] };
    let sig = Signature::<R, H> { co_path: vec![[Kb::ZERO; H]; log_lifetime], rho: [Kb::ZERO; R], hashes: vec![[Kb::ZERO; H]; dimension] };
    format!("pk {:>3} B, sig {:>5} B (ssz); pk {:>3} B, sig {:>5} B (bincode-legacy)", pk.to_ssz().len(), sig.to_ssz().len(), pk.to_bincode_legacy().len(), sig.to_bincode_legacy().len())
}

fn describe(name: &str) -> Result<String, CliError> {
    Ok(match family(name)? {
        Family::Poseidon2(i) => {
            let (ll, dim) = (i.shape.log_lifetime as usize, i.shape.dimension);
            let sizes = match (i.hash_len, i.rand_len) {
                (8, 7) => kb_sizes::<8, 7>(ll, dim),
                (7, 6) => kb_sizes::<7, 6>(ll, dim),
                (7, 5) => kb_sizes::<7, 5>(ll, dim),
                (8, 6) => kb_sizes::<8, 6>(ll, dim),
                (h, r) => format!("HASH_LEN {h}, RAND_LEN {r}"),
            };
            format!("{name:<46} lifetime 2^{ll:<2} Poseidon2  {sizes}")
        }
        Family::Devnet4(d) => {
            let sizes = kb_sizes::<{ zkforge_hashsig::devnet4::H }, { zkforge_hashsig::devnet4::R }>(d.log_lifetime as usize, d.dimension);
            format!("{name:<46} lifetime 2^{:<2} Poseidon1  {sizes}", d.log_lifetime)
        }
        Family::Sha3(i) => {
            let sig = Sha3Signature { co_path: vec![[0u8; 32]; i.log_lifetime as usize], rho: [0u8; 32], hashes: vec![[0u8; 32]; i.dimension()] };
            let pk = i.hash_len + zkforge_hashsig::sha3_xmss::PARAMETER_LEN;
            format!("{name:<46} lifetime 2^{:<2} SHA3-256   pk {pk:>3} B, sig {:>5} B (bincode-legacy only)", i.log_lifetime, i.signature_to_bytes(&sig).len())
        }
    })
}

/// Run one subcommand; returns the process exit code.
pub fn run(cmd: HashsigCmd) -> Result<i32, CliError> {
    let name = match &cmd {
        HashsigCmd::Schemes => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            for n in scheme_names() {
                // a closed pipe (`| head`) ends the listing quietly
                if writeln!(out, "{}", describe(&n)?).is_err() {
                    break;
                }
            }
            return Ok(0);
        }
        HashsigCmd::Keygen(KeygenArgs { scheme, .. }) | HashsigCmd::Sign(SignArgs { scheme, .. }) | HashsigCmd::Verify(VerifyArgs { scheme, .. }) => scheme.clone(),
    };
    match family(&name)? {
        Family::Devnet4(inst) => run_devnet4(cmd, inst),
        Family::Sha3(inst) => run_sha3(cmd, inst),
        // the array lengths are const generics: one monomorphised path per (HASH_LEN, RAND_LEN)
        Family::Poseidon2(sch) => match (sch.hash_len, sch.rand_len) {
            (8, 7) => run_poseidon2::<8, 7>(cmd, sch),
            (7, 6) => run_poseidon2::<7, 6>(cmd, sch),
            (7, 5) => run_poseidon2::<7, 5>(cmd, sch),
            (8, 6) => run_poseidon2::<8, 6>(cmd, sch),
            (h, r) => Err(CliError::input(format!("no build for HASH_LEN {h}, RAND_LEN {r}"))),
        },
    }
}

/// Keygen's shared part: parameter and path checks, key generation on the pool (`make` gets
/// the seeded RNG), the store (claimed first, so an existing one is never touched), then the
/// public key. A failure after the store was created removes it again: nobody has signed
/// with it.
fn keygen_common<K: StoredKey + Send>(
    log_lifetime: u32,
    a: &KeygenArgs,
    make: impl FnOnce(&mut Box<dyn rand_chacha::rand_core::RngCore + Send>) -> K + Send,
    public_key_bytes: impl FnOnce(&K) -> Vec<u8>,
) -> Result<i32, CliError> {
    let seed = hex32(&a.seed, "--seed")?;
    check_activation(log_lifetime, a.activation_epoch, a.active_epochs).map_err(|e| CliError::input(format!("{e} (scheme {})", a.scheme)))?;
    if a.secret_key_out.exists() {
        return Err(store_error(KeyStoreError::AlreadyExists { path: a.secret_key_out.clone() }));
    }
    check_output(&a.secret_key_out, "secret key store")?;
    check_output(&a.public_key_out, "public key")?;
    let pool = thread_pool(a.threads)?;
    let rng = a.rng;
    let key = run_on(&pool, move || make(&mut seeded_rng(rng, seed)));
    let pk = public_key_bytes(&key);
    let ks = Store::create(&a.secret_key_out, &a.scheme, key).map_err(store_error)?;
    if let Err(e) = write_atomic(&a.public_key_out, &pk) {
        drop(ks);
        let _ = std::fs::remove_file(&a.secret_key_out);
        return Err(CliError::input(format!("{e}; the new secret key store was removed again")));
    }
    eprintln!(
        "epochs [{}, {}) active; next usable epoch {}; secret key store {}",
        ks.key.activation_start(),
        ks.key.activation_start() + ks.key.active_epochs(),
        ks.next_epoch,
        a.secret_key_out.display()
    );
    Ok(0)
}

/// Sign's shared part: paths checked, store opened (locked, digest checked), epoch reserved,
/// `prepare` (may persist), sign and self-verify, then the signature written atomically.
fn sign_common<K, S>(
    a: &SignArgs,
    prepare: impl FnOnce(&mut Store<K>) -> Result<(), KeyStoreError> + Send,
    sign: impl FnOnce(&K) -> Result<S, zkforge_hashsig::scheme::SchemeError> + Send,
    verify: impl FnOnce(&K, &S) -> bool + Send,
    encode: impl FnOnce(&S) -> Vec<u8>,
) -> Result<i32, CliError>
where
    K: StoredKey + Send + Sync,
    S: Send,
{
    check_output(&a.signature_out, "signature")?;
    let pool = thread_pool(a.threads)?;
    let e = a.epoch as u64;
    let mut ks = Store::<K>::open(&a.secret_key, &a.scheme).map_err(store_error)?;
    ks.reserve(e).map_err(store_error)?;
    // from here on the epoch is spent whatever happens
    let sig = run_on(&pool, || -> Result<S, CliError> {
        prepare(&mut ks).map_err(|err| spent(e, err))?;
        ks.sign_reserved(e, sign, verify).map_err(|err| spent(e, err))
    })?;
    write_atomic(&a.signature_out, &encode(&sig)).map_err(|err| spent(e, err))?;
    Ok(0)
}

/// A Poseidon public key in the chosen encoding.
fn encode_pk<const H: usize>(km: &KeyMaterial<PL, H>, encoding: Encoding) -> Vec<u8> {
    let pk = PublicKey::<PL, H> { root: km.root, parameter: km.parameter };
    match encoding {
        Encoding::BincodeLegacy => pk.to_bincode_legacy(),
        Encoding::Ssz => pk.to_ssz(),
    }
}

/// A Poseidon signature in the chosen encoding.
fn encode_sig<const R: usize, const H: usize>(sig: &Signature<R, H>, encoding: Encoding) -> Vec<u8> {
    match encoding {
        Encoding::BincodeLegacy => sig.to_bincode_legacy(),
        Encoding::Ssz => sig.to_ssz(),
    }
}

/// Read and decode verify's public key and signature files (exit 2 on any failure).
fn read_pk_sig<const R: usize, const H: usize>(a: &VerifyArgs, log_lifetime: usize, dimension: usize) -> Result<(PublicKey<PL, H>, Signature<R, H>), CliError> {
    let (public_key, signature, scheme) = (&a.public_key, &a.signature, &a.scheme);
    let (pkb, sigb) = (read_input(public_key, "public key")?, read_input(signature, "signature")?);
    Ok(match a.encoding {
        Encoding::BincodeLegacy => (
            decode(PublicKey::<PL, H>::from_bincode_legacy(&pkb), public_key, "public key", scheme)?,
            decode(Signature::<R, H>::from_bincode_legacy(&sigb, log_lifetime, dimension), signature, "signature", scheme)?,
        ),
        Encoding::Ssz => (
            decode(PublicKey::<PL, H>::from_ssz(&pkb), public_key, "public key", scheme)?,
            decode(Signature::<R, H>::from_ssz(&sigb, log_lifetime, dimension), signature, "signature", scheme)?,
        ),
    })
}

fn verify_result(ok: bool) -> Result<i32, CliError> {
    println!("{}", if ok { "valid" } else { "invalid" });
    Ok(if ok { 0 } else { 1 })
}

fn run_poseidon2<const H: usize, const R: usize>(cmd: HashsigCmd, sch: Instance) -> Result<i32, CliError> {
    let perms = Perms::default();
    match cmd {
        HashsigCmd::Schemes => Ok(0),
        HashsigCmd::Keygen(a) => keygen_common(
            sch.shape.log_lifetime,
            &a,
            |rng| {
                let bar = indicatif::ProgressBar::new(0);
                if let Ok(style) = indicatif::ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} bottom trees, {elapsed} (eta {eta})") {
                    bar.set_style(style.progress_chars("=> "));
                }
                bar.set_message("keygen");
                let km = key_gen_with_progress::<PL, T, H, CAP>(&perms, &sch.shape, rng, a.activation_epoch, a.active_epochs, &mut |done, total| {
                    bar.set_length(total);
                    bar.set_position(done);
                });
                bar.finish();
                km
            },
            |km: &KeyMaterial<PL, H>| encode_pk(km, a.encoding),
        ),
        HashsigCmd::Sign(a) => {
            let msg = hex32(&a.message, "--message")?;
            let (layers, epoch) = (sch.layers(), a.epoch);
            sign_common::<KeyMaterial<PL, H>, Signature<R, H>>(
                &a,
                |ks| ks.advance_preparation::<T, CAP>(&perms, &sch.shape, epoch as u64),
                |key| sch.sign::<PL, T, H, CAP, R>(&perms, &layers, key, epoch, &msg),
                |key, sig| sch.verify::<PL, T, H, CAP, R>(&perms, &layers, &key.root, &key.parameter, epoch, &msg, sig),
                |sig| encode_sig(sig, a.encoding),
            )
        }
        HashsigCmd::Verify(a) => {
            let msg = hex32(&a.message, "--message")?;
            let (pk, sig) = read_pk_sig::<R, H>(&a, sch.shape.log_lifetime as usize, sch.shape.dimension)?;
            let layers = sch.layers();
            verify_result(sch.verify::<PL, T, H, CAP, R>(&perms, &layers, &pk.root, &pk.parameter, a.epoch, &msg, &sig))
        }
    }
}

/// leanSig devnet 4 (Poseidon1, aborting target sum): the same files and key store; bottom
/// trees outside the two prepared at key generation are recomputed when signing.
fn run_devnet4(cmd: HashsigCmd, inst: Devnet4) -> Result<i32, CliError> {
    use zkforge_hashsig::devnet4::{H, R};
    match cmd {
        HashsigCmd::Schemes => Ok(0),
        HashsigCmd::Keygen(a) => keygen_common(inst.log_lifetime, &a, |rng| inst.key_gen(rng, a.activation_epoch, a.active_epochs), |km: &KeyMaterial<PL, H>| encode_pk(km, a.encoding)),
        HashsigCmd::Sign(a) => {
            let (msg, epoch) = (hex32(&a.message, "--message")?, a.epoch);
            sign_common::<KeyMaterial<PL, H>, Signature<R, H>>(
                &a,
                |_| Ok(()),
                |key| inst.sign(key, epoch, &msg),
                |key, sig| inst.verify(&key.root, &key.parameter, epoch, &msg, sig),
                |sig| encode_sig(sig, a.encoding),
            )
        }
        HashsigCmd::Verify(a) => {
            let msg = hex32(&a.message, "--message")?;
            let (pk, sig) = read_pk_sig::<R, H>(&a, inst.log_lifetime as usize, inst.dimension)?;
            verify_result(inst.verify(&pk.root, &pk.parameter, a.epoch, &msg, &sig))
        }
    }
}

/// The SHA3 instances: hash-sig's bincode-legacy encoding only.
fn run_sha3(cmd: HashsigCmd, inst: Sha3Instance) -> Result<i32, CliError> {
    let only_bincode = |e: Encoding| -> Result<(), CliError> {
        if e == Encoding::Ssz {
            Err(CliError::input("the SHA3 instances have no SSZ encoding: pass --encoding bincode-legacy"))
        } else {
            Ok(())
        }
    };
    match cmd {
        HashsigCmd::Schemes => Ok(0),
        HashsigCmd::Keygen(a) => {
            only_bincode(a.encoding)?;
            keygen_common(inst.log_lifetime, &a, |rng| inst.key_gen(rng, a.activation_epoch, a.active_epochs), |key: &Sha3Key| inst.public_key_bytes(key))
        }
        HashsigCmd::Sign(a) => {
            only_bincode(a.encoding)?;
            let (msg, epoch) = (hex32(&a.message, "--message")?, a.epoch);
            sign_common::<Sha3Key, Sha3Signature>(
                &a,
                |_: &mut Sha3KeyStore| Ok(()),
                |key| inst.sign(key, epoch, &msg),
                |key, sig| inst.verify(&key.root, &key.parameter, epoch, &msg, sig),
                |sig| inst.signature_to_bytes(sig),
            )
        }
        HashsigCmd::Verify(a) => {
            only_bincode(a.encoding)?;
            let msg = hex32(&a.message, "--message")?;
            let (pkb, sigb) = (read_input(&a.public_key, "public key")?, read_input(&a.signature, "signature")?);
            let (root, parameter) = decode(inst.public_key_from_bytes(&pkb), &a.public_key, "public key", &a.scheme)?;
            let sig = decode(inst.signature_from_bytes(&sigb), &a.signature, "signature", &a.scheme)?;
            verify_result(inst.verify(&root, &parameter, a.epoch, &msg, &sig))
        }
    }
}

//! `zkforge bls keygen | sign | verify | aggregate`: BLS signatures in Ethereum's ciphersuite
//! (zkforge-bls: minimal-pubkey-size, proof of possession, `BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_`).
//!
//! `keygen` derives a secret key from at least 32 bytes of key material (the draft's KeyGen,
//! EIP-2333's master key for empty key info; with `--path`, the EIP-2333 child key at that
//! EIP-2334 path below the master key of the material as seed), writes it to a new file (never
//! over an existing one; mode 0600 on Unix), as hex or, with `--password-file`, as an EIP-2335
//! keystore (scrypt or PBKDF2, the EIP's parameters), and prints the public key and the proof
//! of possession. `sign` reads either kind of key file (a keystore needs `--password-file`)
//! and prints the signature. `verify` takes one or more public keys:
//! one key and one message is Verify, several keys and one message FastAggregateVerify, as
//! many messages as keys AggregateVerify; it exits 0 when the signature is valid, 1 when not.
//! `aggregate` prints the sum of signatures. Keys, messages and signatures are hex (a message
//! also as a file with `--message-file`).

use std::path::PathBuf;

use clap::{Subcommand, ValueEnum};
use zkforge_bls::keystore::{KdfKind, Keystore};
use zkforge_bls::{aggregate_verify, fast_aggregate_verify, verify, KeyPath, PublicKey, SecretKey, Signature};

use crate::evm::unhex;
use crate::hashsig::CliError;

/// Exit-code summary for `--help`.
pub const EXIT_HELP: &str = "Exit codes: 0 success (verify: the signature is valid); 1 verify found the signature invalid; 2 usage or input error (bad hex, short key material, a bad key path, a key or signature that does not decode or validate, a key file that exists or cannot be read or written, a keystore that does not parse, a wrong keystore password).";

/// The KDF of a new keystore.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum KdfArg {
    /// scrypt, n = 2^18, r = 8, p = 1 (memory-hard; what deposit tools write).
    Scrypt,
    /// PBKDF2-HMAC-SHA-256, 2^18 iterations.
    Pbkdf2,
}

/// `zkforge bls ...`
#[derive(Subcommand)]
pub enum BlsCmd {
    /// Derive a secret key (KeyGen) into a new file and print its public key and proof of possession.
    Keygen {
        /// Secret key material, at least 32 bytes of hex (e.g. a BIP-39 seed).
        #[arg(long)]
        ikm: String,
        /// KeyGen's key_info (text; empty by default, as EIP-2333's master key).
        #[arg(long, default_value = "")]
        key_info: String,
        /// Derive the EIP-2333 child key at this EIP-2334 path below the master key of the key
        /// material (the seed), e.g. m/12381/3600/0/0/0 for validator 0's signing key.
        #[arg(long, conflicts_with = "key_info")]
        path: Option<String>,
        /// Write an EIP-2335 keystore encrypted under the password in this file (its text;
        /// control characters such as the final newline are ignored, as EIP-2335 says).
        #[arg(long)]
        password_file: Option<PathBuf>,
        /// The keystore's key-derivation function.
        #[arg(long, value_enum, default_value = "scrypt", requires = "password_file")]
        kdf: KdfArg,
        /// The keystore's description field.
        #[arg(long, default_value = "", requires = "password_file")]
        description: String,
        /// The file to write the secret key into (hex, or the keystore JSON); it must not exist.
        #[arg(long)]
        out: PathBuf,
    },
    /// Sign a message with the secret key in a file written by `keygen`: 32-byte hex, or an
    /// EIP-2335 keystore (with `--password-file`).
    Sign {
        /// The secret key file (hex or EIP-2335 keystore JSON).
        #[arg(long)]
        key: PathBuf,
        /// The keystore's password, in a file.
        #[arg(long)]
        password_file: Option<PathBuf>,
        /// The message (hex).
        #[arg(long, conflicts_with = "message_file", required_unless_present = "message_file")]
        message: Option<String>,
        /// A file holding the message (raw bytes).
        #[arg(long)]
        message_file: Option<PathBuf>,
    },
    /// Verify a signature: one key (Verify), several keys on one message (FastAggregateVerify),
    /// or one message per key (AggregateVerify). Exit 0 when valid, 1 when not.
    Verify {
        /// Public keys (48-byte compressed, hex); repeat for aggregates.
        #[arg(long = "public-key", required = true)]
        public_keys: Vec<String>,
        /// Messages (hex): one for all keys, or one per key in the same order.
        #[arg(long = "message")]
        messages: Vec<String>,
        /// A file holding the one message (raw bytes).
        #[arg(long, conflicts_with = "messages")]
        message_file: Option<PathBuf>,
        /// The signature (96-byte compressed, hex).
        #[arg(long)]
        signature: String,
    },
    /// Print the aggregate (sum) of signatures.
    Aggregate {
        /// Signatures (hex), two or more usually.
        #[arg(long = "signature", required = true)]
        signatures: Vec<String>,
    },
}

fn input(message: String) -> CliError {
    CliError { code: 2, message }
}

fn hex(b: &[u8]) -> String {
    format!("0x{}", b.iter().map(|x| format!("{x:02x}")).collect::<String>())
}

fn public_key(s: &str) -> Result<PublicKey, CliError> {
    PublicKey::from_bytes(&unhex(s, "the public key")?).map_err(|e| input(format!("the public key {s} is not valid: {e}")))
}

fn signature(s: &str) -> Result<Signature, CliError> {
    Signature::from_bytes(&unhex(s, "the signature")?).map_err(|e| input(format!("the signature does not decode: {e}")))
}

fn read_message(message: Option<String>, file: Option<PathBuf>) -> Result<Vec<u8>, CliError> {
    match (message, file) {
        (Some(m), _) => unhex(&m, "the message"),
        (None, Some(p)) => std::fs::read(&p).map_err(|e| input(format!("cannot read the message file {}: {e}", p.display()))),
        (None, None) => Err(input("give the message with --message HEX or --message-file FILE".into())),
    }
}

fn write_new(path: &PathBuf, text: &str) -> Result<(), CliError> {
    use std::io::Write;
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    let mut f = o.open(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            input(format!("{} already exists: choose a new file for the secret key (an existing one is never overwritten)", path.display()))
        } else {
            input(format!("cannot create {}: {e}", path.display()))
        }
    })?;
    f.write_all(text.as_bytes()).map_err(|e| input(format!("cannot write {}: {e}", path.display())))
}

fn read_password(path: &PathBuf) -> Result<zeroize::Zeroizing<String>, CliError> {
    let bytes = zeroize::Zeroizing::new(std::fs::read(path).map_err(|e| input(format!("cannot read the password file {}: {e}", path.display())))?);
    match std::str::from_utf8(&bytes) {
        Ok(s) => Ok(zeroize::Zeroizing::new(s.to_string())),
        Err(_) => Err(input(format!("the password file {} is not UTF-8 text", path.display()))),
    }
}

/// The secret key in `key`: hex, or an EIP-2335 keystore opened with the password file.
fn read_secret_key(key: &PathBuf, password_file: Option<&PathBuf>) -> Result<SecretKey, CliError> {
    let text = zeroize::Zeroizing::new(std::fs::read_to_string(key).map_err(|e| input(format!("cannot read the key file {}: {e}", key.display())))?);
    if text.trim_start().starts_with('{') {
        let ks = Keystore::from_json(&text).map_err(|e| input(format!("the key file {} is not a valid EIP-2335 keystore: {e}", key.display())))?;
        let Some(pw) = password_file else {
            return Err(input(format!("the key file {} is an EIP-2335 keystore: give its password with --password-file FILE", key.display())));
        };
        let pw = read_password(pw)?;
        return ks.decrypt(&pw).map_err(|e| input(format!("cannot open the keystore {}: {e}", key.display())));
    }
    let bytes = zeroize::Zeroizing::new(unhex(text.trim(), "the key file")?);
    SecretKey::from_bytes(&bytes).map_err(|e| input(format!("the key file {} does not hold a secret key: {e}", key.display())))
}

/// Runs a `zkforge bls` command.
pub fn run(cmd: BlsCmd) -> Result<i32, CliError> {
    match cmd {
        BlsCmd::Keygen { ikm, key_info, path, password_file, kdf, description, out } => {
            let ikm = zeroize::Zeroizing::new(unhex(&ikm, "the key material")?);
            let path = path.map(|p| p.parse::<KeyPath>().map_err(|e| input(format!("{e}")))).transpose()?;
            let sk = match &path {
                Some(p) => SecretKey::derive_path(&ikm, p),
                None => SecretKey::key_gen(&ikm, key_info.as_bytes()),
            }
            .map_err(|e| input(format!("{e}")))?;
            let text = match &password_file {
                Some(pw) => {
                    let pw = read_password(pw)?;
                    let kind = match kdf {
                        KdfArg::Scrypt => KdfKind::Scrypt,
                        KdfArg::Pbkdf2 => KdfKind::Pbkdf2,
                    };
                    let path_text = path.as_ref().map(|p| p.to_string()).unwrap_or_default();
                    let ks = Keystore::encrypt(&sk, &pw, kind, &path_text, &description, &mut rand_core::OsRng).map_err(|e| input(format!("cannot make the keystore: {e}")))?;
                    zeroize::Zeroizing::new(ks.to_json())
                }
                None => zeroize::Zeroizing::new(format!("{}\n", hex(&*sk.to_bytes()))),
            };
            write_new(&out, &text)?;
            println!("public_key {}", hex(&sk.public_key().to_bytes()));
            println!("proof_of_possession {}", hex(&sk.pop_prove().to_bytes()));
            Ok(0)
        }
        BlsCmd::Sign { key, password_file, message, message_file } => {
            let sk = read_secret_key(&key, password_file.as_ref())?;
            let msg = read_message(message, message_file)?;
            println!("signature {}", hex(&sk.sign(&msg).to_bytes()));
            Ok(0)
        }
        BlsCmd::Verify { public_keys, messages, message_file, signature: sig } => {
            let pks = public_keys.iter().map(|s| public_key(s)).collect::<Result<Vec<_>, _>>()?;
            let sig = signature(&sig)?;
            let one_message = |m: Vec<u8>| if pks.len() == 1 { verify(&pks[0], &m, &sig) } else { fast_aggregate_verify(&pks, &m, &sig) };
            let ok = match (messages.len(), message_file) {
                (0, Some(p)) => one_message(read_message(None, Some(p))?),
                (1, None) => one_message(unhex(&messages[0], "the message")?),
                (n, None) if n == pks.len() => {
                    let ms = messages.iter().map(|m| unhex(m, "a message")).collect::<Result<Vec<_>, _>>()?;
                    aggregate_verify(&pks, &ms, &sig)
                }
                (0, None) => return Err(input("give the message with --message HEX (once per key for AggregateVerify) or --message-file FILE".into())),
                (n, _) => return Err(input(format!("{n} messages for {} public keys: give one message for all keys, or one per key", pks.len()))),
            };
            if ok {
                println!("valid");
                Ok(0)
            } else {
                println!("invalid");
                Ok(1)
            }
        }
        BlsCmd::Aggregate { signatures } => {
            let sigs = signatures.iter().map(|s| signature(s)).collect::<Result<Vec<_>, _>>()?;
            let agg = Signature::aggregate(&sigs).map_err(|e| input(format!("{e}")))?;
            println!("signature {}", hex(&agg.to_bytes()));
            Ok(0)
        }
    }
}

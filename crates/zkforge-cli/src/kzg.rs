//! `zkforge kzg commit | prove | verify | cells | verify-cells | recover`: KZG commitments, proofs and
//! EIP-7594 cells for Ethereum blobs, on files of raw bytes or hex.
//!
//! A blob file holds the 131072 bytes raw, or as hex (whitespace and a 0x prefix allowed). A
//! cells file (the output of `cells`, or any subset of its lines) has one cell per line:
//! `INDEX CELL_HEX [PROOF_HEX]`. `--setup` takes `mainnet` (the embedded ceremony setup, the
//! default) or a file in c-kzg's text format or the consensus specs' JSON format.
//!
//! Exit codes: 0 success (verify: the proof is valid); 1 verify found the proof invalid;
//! 2 usage or input error (unreadable file, wrong length, bad hex, a field element not below r,
//! a point not in G1, a bad setup file, too few cells).

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use zkforge_kzg::{KzgConfig, KzgSettings, BYTES_PER_BLOB, BYTES_PER_CELL, CELLS_PER_EXT_BLOB};

use crate::evm::unhex;
use crate::hashsig::CliError;

/// Exit-code summary for `--help`.
pub const EXIT_HELP: &str = "Exit codes: 0 success (verify: the proof is valid); 1 verify found the proof invalid; 2 usage or input error (unreadable file, wrong length, bad hex, a field element not below r, a point not in G1, a bad setup file, too few cells).";

/// Options every KZG command takes.
#[derive(Args)]
pub struct Common {
    /// `mainnet` (the embedded ceremony setup) or a setup file (c-kzg text format, or JSON
    /// with g1_monomial, g1_lagrange and g2_monomial).
    #[arg(long, default_value = "mainnet")]
    setup: String,
    /// Threads for MSMs, FK20 and recovery.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// `zkforge kzg ...`
#[derive(Subcommand)]
pub enum KzgCmd {
    /// Print the blob's commitment (48 bytes, hex).
    Commit {
        /// Blob file (131072 bytes raw, or hex).
        blob: PathBuf,
        #[command(flatten)]
        common: Common,
    },
    /// Print a proof: the blob proof at its Fiat-Shamir challenge (with the commitment), or with
    /// --z the proof and value y = p(z) at that point.
    Prove {
        /// Blob file (131072 bytes raw, or hex).
        blob: PathBuf,
        /// Evaluation point (32 bytes hex, big-endian, below r).
        #[arg(long)]
        z: Option<String>,
        #[command(flatten)]
        common: Common,
    },
    /// Check a proof: a blob proof (BLOB, --commitment, --proof), or a point proof (--commitment,
    /// --z, --y, --proof and no BLOB). Exit 0 when valid, 1 when not.
    Verify {
        /// Blob file, for a blob proof.
        blob: Option<PathBuf>,
        /// Commitment (48 bytes hex).
        #[arg(long)]
        commitment: String,
        /// Proof (48 bytes hex).
        #[arg(long)]
        proof: String,
        /// Point proof: the evaluation point (32 bytes hex).
        #[arg(long)]
        z: Option<String>,
        /// Point proof: the claimed value (32 bytes hex).
        #[arg(long)]
        y: Option<String>,
        #[command(flatten)]
        common: Common,
    },
    /// Print the blob's 128 cells and their proofs (EIP-7594), one per line:
    /// `INDEX CELL_HEX PROOF_HEX`.
    Cells {
        /// Blob file (131072 bytes raw, or hex).
        blob: PathBuf,
        #[command(flatten)]
        common: Common,
    },
    /// Check cells of one blob against its commitment (a file of `INDEX CELL_HEX PROOF_HEX`
    /// lines, as `cells` prints them; any subset, any order) with one batch verification. Exit 0
    /// when all are valid, 1 when not.
    VerifyCells {
        /// Cells file with proofs.
        cells: PathBuf,
        /// The blob's commitment (48 bytes hex).
        #[arg(long)]
        commitment: String,
        #[command(flatten)]
        common: Common,
    },
    /// Recover all 128 cells and proofs from at least 64 of them (a file of `INDEX CELL_HEX`
    /// lines, any order); prints them as `cells` does.
    Recover {
        /// Cells file.
        cells: PathBuf,
        #[command(flatten)]
        common: Common,
    },
}

fn input(message: String) -> CliError {
    CliError { code: 2, message }
}

fn hex(b: &[u8]) -> String {
    format!("0x{}", b.iter().map(|x| format!("{x:02x}")).collect::<String>())
}

fn read(path: &Path) -> Result<Vec<u8>, CliError> {
    std::fs::read(path).map_err(|e| input(format!("cannot read {}: {e}", path.display())))
}

/// A blob file: raw bytes, or hex text.
fn blob(path: &Path) -> Result<Vec<u8>, CliError> {
    let raw = read(path)?;
    if raw.len() == BYTES_PER_BLOB {
        return Ok(raw);
    }
    let text = String::from_utf8(raw).map_err(|_| input(format!("{} is neither a raw blob of {BYTES_PER_BLOB} bytes nor hex text", path.display())))?;
    let b = unhex(&text, &path.display().to_string())?;
    if b.len() != BYTES_PER_BLOB {
        return Err(input(format!("{} holds {} bytes; a blob is {BYTES_PER_BLOB} bytes (raw, or as hex)", path.display(), b.len())));
    }
    Ok(b)
}

fn settings(c: &Common) -> Result<KzgSettings, CliError> {
    if c.threads == 0 {
        return Err(input("--threads must be at least 1".into()));
    }
    let cfg = KzgConfig { threads: c.threads, ..KzgConfig::default() };
    let bad = |e: zkforge_kzg::KzgError| input(format!("setup {}: {e}", c.setup));
    if c.setup == "mainnet" {
        return KzgSettings::mainnet_with(&cfg).map_err(bad);
    }
    let text = std::fs::read_to_string(&c.setup).map_err(|e| input(format!("cannot read the setup file {}: {e} (or use --setup mainnet)", c.setup)))?;
    if text.trim_start().starts_with('{') {
        KzgSettings::from_json_with(&text, &cfg).map_err(bad)
    } else {
        KzgSettings::from_text_with(&text, &cfg).map_err(bad)
    }
}

fn kzg_err(what: &str) -> impl Fn(zkforge_kzg::KzgError) -> CliError + '_ {
    move |e| input(format!("{what}: {e}"))
}

fn print_cells(cells: &[u8], proofs: &[[u8; 48]]) {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (i, p) in proofs.iter().enumerate() {
        // a closed pipe (`| head`) is not an error worth reporting
        if writeln!(out, "{i} {} {}", hex(&cells[i * BYTES_PER_CELL..(i + 1) * BYTES_PER_CELL]), hex(p)).is_err() {
            return;
        }
    }
    let _ = out.flush();
}

/// A cells file: `INDEX CELL_HEX [PROOF_HEX]` lines (the proof required when `proofs`).
fn read_cells(path: &Path, proofs: bool) -> Result<Vec<(u64, Vec<u8>, Vec<u8>)>, CliError> {
    let name = path.display().to_string();
    let form = if proofs { "`INDEX CELL_HEX PROOF_HEX`" } else { "`INDEX CELL_HEX`" };
    let text = String::from_utf8(read(path)?).map_err(|_| input(format!("{name} is not text: give one {form} line per cell")))?;
    let mut given = Vec::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let at = format!("{name} line {}", n + 1);
        let mut f = line.split_whitespace();
        let (Some(i), Some(cell)) = (f.next(), f.next()) else {
            return Err(input(format!("{at}: expected {form}")));
        };
        let i: u64 = i.parse().map_err(|_| input(format!("{at}: the cell index `{i}` is not a number")))?;
        let cell = unhex(cell, &at)?;
        if cell.len() != BYTES_PER_CELL {
            return Err(input(format!("{at}: a cell is {BYTES_PER_CELL} bytes, got {}", cell.len())));
        }
        let proof = match (proofs, f.next()) {
            (true, Some(p)) => unhex(p, &at)?,
            (true, None) => return Err(input(format!("{at}: expected {form}"))),
            (false, _) => Vec::new(),
        };
        given.push((i, cell, proof));
    }
    Ok(given)
}

/// Run one `zkforge kzg` command; returns the exit code.
pub fn run(cmd: KzgCmd) -> Result<i32, CliError> {
    match cmd {
        KzgCmd::Commit { blob: path, common } => {
            let b = blob(&path)?;
            let c = settings(&common)?.blob_to_kzg_commitment(&b).map_err(kzg_err(&path.display().to_string()))?;
            println!("{}", hex(&c));
            Ok(0)
        }
        KzgCmd::Prove { blob: path, z, common } => {
            let b = blob(&path)?;
            let k = settings(&common)?;
            let name = path.display().to_string();
            match z {
                Some(z) => {
                    let (proof, y) = k.compute_kzg_proof(&b, &unhex(&z, "--z")?).map_err(kzg_err(&name))?;
                    println!("proof {}\ny {}", hex(&proof), hex(&y));
                }
                None => {
                    let c = k.blob_to_kzg_commitment(&b).map_err(kzg_err(&name))?;
                    let proof = k.compute_blob_kzg_proof(&b, &c).map_err(kzg_err(&name))?;
                    println!("commitment {}\nproof {}", hex(&c), hex(&proof));
                }
            }
            Ok(0)
        }
        KzgCmd::Verify { blob: path, commitment, proof, z, y, common } => {
            let (c, p) = (unhex(&commitment, "--commitment")?, unhex(&proof, "--proof")?);
            let k = settings(&common)?;
            let ok = match (path, z, y) {
                (Some(path), None, None) => {
                    let b = blob(&path)?;
                    k.verify_blob_kzg_proof(&b, &c, &p).map_err(kzg_err(&path.display().to_string()))?
                }
                (None, Some(z), Some(y)) => k.verify_kzg_proof(&c, &unhex(&z, "--z")?, &unhex(&y, "--y")?, &p).map_err(kzg_err("the proof's inputs"))?,
                _ => return Err(input("give either a BLOB file (blob proof) or both --z and --y (point proof)".into())),
            };
            println!("{}", if ok { "valid" } else { "invalid" });
            Ok(if ok { 0 } else { 1 })
        }
        KzgCmd::Cells { blob: path, common } => {
            let b = blob(&path)?;
            let (cells, proofs) = settings(&common)?.compute_cells_and_kzg_proofs(&b).map_err(kzg_err(&path.display().to_string()))?;
            print_cells(&cells, &proofs);
            Ok(0)
        }
        KzgCmd::VerifyCells { cells: path, commitment, common } => {
            let name = path.display().to_string();
            let c = unhex(&commitment, "--commitment")?;
            let given = read_cells(&path, true)?;
            let idx: Vec<u64> = given.iter().map(|g| g.0).collect();
            let cells: Vec<&[u8]> = given.iter().map(|g| g.1.as_slice()).collect();
            let proofs: Vec<&[u8]> = given.iter().map(|g| g.2.as_slice()).collect();
            let commitments: Vec<&[u8]> = vec![&c; given.len()];
            let ok = settings(&common)?.verify_cell_kzg_proof_batch(&commitments, &idx, &cells, &proofs).map_err(kzg_err(&name))?;
            println!("{}", if ok { "valid" } else { "invalid" });
            Ok(if ok { 0 } else { 1 })
        }
        KzgCmd::Recover { cells: path, common } => {
            let name = path.display().to_string();
            let mut given = read_cells(&path, false)?;
            given.sort_by_key(|g| g.0);
            if given.len() < CELLS_PER_EXT_BLOB / 2 {
                return Err(input(format!("{name} has {} cells; recovery needs at least {}", given.len(), CELLS_PER_EXT_BLOB / 2)));
            }
            let idx: Vec<u64> = given.iter().map(|g| g.0).collect();
            let cells: Vec<&[u8]> = given.iter().map(|g| g.1.as_slice()).collect();
            let (all, proofs) = settings(&common)?.recover_cells_and_kzg_proofs(&idx, &cells).map_err(kzg_err(&name))?;
            print_cells(&all, &proofs);
            Ok(0)
        }
    }
}

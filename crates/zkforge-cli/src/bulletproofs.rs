//! `zkforge bulletproofs prove | verify [--plus]`: Bulletproofs (or, with `--plus`,
//! Bulletproofs+) range proofs for committed values on a named group (`ristretto255`, dalek-compatible; `bls12-381-g1`; `bn254-g1`).
//!
//! `prove` prints `commitment` lines (one per value), the `blinding` factors when it drew them,
//! and the `proof`, all hex. Blinding factors are 32 bytes little-endian hex; commitments the
//! group's compressed points. `verify` takes the commitments and the proof (hex, or a file of
//! raw bytes or hex) and exits 0 when the proof is valid, 1 when not.
//!
//! Exit codes: 0 success (verify: the proof is valid); 1 verify found the proof invalid;
//! 2 usage or input error (unknown group, bad hex, a value outside the bit size, a commitment
//! or proof that does not decode, an unreadable file).

use std::path::PathBuf;

use clap::{Args, Subcommand};
use zkforge_bulletproofs::{Bls12381G1, Bn254G1, BpGroup, BulletproofGens, Commitment, GeneratorTables, PedersenGens, PlusFormat, ProverConfig, RangeProof, RangeProofPlus, Ristretto255, Transcript};

use crate::evm::unhex;
use crate::hashsig::CliError;

/// Exit-code summary for `--help`.
pub const EXIT_HELP: &str = "Exit codes: 0 success (verify: the proof is valid); 1 verify found the proof invalid; 2 usage or input error (unknown group, bad hex, a value outside the bit size, a commitment or proof that does not decode, an unreadable file).";

/// Options both commands take.
#[derive(Args)]
pub struct Common {
    /// The group: ristretto255 (dalek-compatible proofs), bls12-381-g1 or bn254-g1.
    #[arg(long, default_value = "ristretto255")]
    group: String,
    /// Bit size n: the proof shows each value is below 2^n (1 to 64).
    #[arg(long, default_value_t = 64)]
    bits: usize,
    /// Transcript label (both sides must use the same one).
    #[arg(long, default_value = "zkforge bulletproofs")]
    label: String,
    /// Bulletproofs+ (shorter proofs) instead of Bulletproofs.
    #[arg(long)]
    plus: bool,
    /// Bulletproofs+ in Tari's format (its transcript, bytes and blinding base: proofs that
    /// tari_bulletproofs_plus 0.5 verifies and makes); ristretto255 only, bit sizes 8, 16, 32,
    /// 64 and power-of-two value counts.
    #[arg(long)]
    tari: bool,
}

/// `zkforge bulletproofs ...`
#[derive(Subcommand)]
pub enum BulletproofsCmd {
    /// Commit to one or more values and prove each is below 2^bits (one aggregated proof).
    Prove {
        /// The values (repeat for an aggregated proof of up to 64).
        #[arg(long = "value", required = true)]
        values: Vec<u64>,
        /// Blinding factors, one per value (32 bytes little-endian hex); drawn at random and
        /// printed when none is given.
        #[arg(long = "blinding")]
        blindings: Vec<String>,
        #[command(flatten)]
        common: Common,
    },
    /// Check a proof against its commitments. Exit 0 when valid, 1 when not.
    Verify {
        /// The commitments, in the prover's order (hex).
        #[arg(long = "commitment", required = true)]
        commitments: Vec<String>,
        /// The proof (hex).
        #[arg(long, conflicts_with = "proof_file")]
        proof: Option<String>,
        /// A file holding the proof (raw bytes or hex).
        #[arg(long)]
        proof_file: Option<PathBuf>,
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

/// Runs a `zkforge bulletproofs` command.
pub fn run(cmd: BulletproofsCmd) -> Result<i32, CliError> {
    let group = match &cmd {
        BulletproofsCmd::Prove { common, .. } | BulletproofsCmd::Verify { common, .. } => common.group.clone(),
    };
    let tari = match &cmd {
        BulletproofsCmd::Prove { common, .. } | BulletproofsCmd::Verify { common, .. } => common.tari,
    };
    if tari && group != "ristretto255" {
        return Err(input(format!("--tari is Tari's format on ristretto255 only, not on `{group}`")));
    }
    match group.as_str() {
        "ristretto255" if tari => run_tari(cmd),
        "ristretto255" => run_on::<Ristretto255>(cmd),
        "bls12-381-g1" => run_on::<Bls12381G1>(cmd),
        "bn254-g1" => run_on::<Bn254G1>(cmd),
        other => Err(input(format!("unknown group `{other}`: use ristretto255, bls12-381-g1 or bn254-g1"))),
    }
}

fn generators<G: BpGroup>(bits: usize, m: usize) -> Result<(BulletproofGens<G>, PedersenGens<G>), CliError> {
    if bits == 0 || bits > 64 {
        return Err(input(format!("--bits {bits} is not supported: use 1 to 64")));
    }
    if m == 0 || m > 64 {
        return Err(input(format!("{m} values cannot be aggregated: give 1 to 64")));
    }
    Ok((BulletproofGens::new(bits.next_power_of_two(), m.next_power_of_two()), PedersenGens::default()))
}

/// `--tari`: Bulletproofs+ in Tari's format on ristretto255, with Tari's blinding base.
fn run_tari(cmd: BulletproofsCmd) -> Result<i32, CliError> {
    type G = Ristretto255;
    let pc = PedersenGens::<G>::tari();
    let f = PlusFormat::Tari;
    match cmd {
        BulletproofsCmd::Prove { values, blindings, common } => {
            let (bp, _) = generators::<G>(common.bits, values.len())?;
            let (blind, drawn) = blindings_for::<G>(&values, &blindings)?;
            let (p, commitments) = RangeProofPlus::prove_in(f, &bp, &pc, &ProverConfig::BULLETPROOFS_PLUS, &mut transcript(&common.label), &values, &blind, common.bits, &mut rand_core::OsRng)
                .map_err(|e| input(format!("cannot prove in Tari's format (bit sizes 8, 16, 32, 64 and power-of-two value counts): {e}")))?;
            print_proof::<G>(common.bits, &commitments, drawn.then_some(&blind[..]), &p.to_bytes_in(f));
            Ok(0)
        }
        BulletproofsCmd::Verify { commitments, proof, proof_file, common } => {
            let (bp, _) = generators::<G>(common.bits, commitments.len())?;
            let cs = read_commitments::<G>(&commitments)?;
            let bytes = read_proof(proof, proof_file)?;
            let p = RangeProofPlus::<G>::from_bytes_in(f, &bytes).map_err(|e| input(format!("the proof does not decode in Tari's format: {e}")))?;
            report(p.verify_in(f, &bp, &pc, &mut transcript(&common.label), &cs, common.bits))
        }
    }
}

/// `Transcript::new(label)` as dalek's users write it; merlin wants a `'static` label, and a
/// command runs once, so the label is leaked.
fn transcript(label: &str) -> Transcript {
    Transcript::new(Box::leak(label.as_bytes().to_vec().into_boxed_slice()))
}

fn run_on<G: BpGroup>(cmd: BulletproofsCmd) -> Result<i32, CliError> {
    match cmd {
        BulletproofsCmd::Prove { values, blindings, common } => {
            let (bp, pc) = generators::<G>(common.bits, values.len())?;
            let (blind, drawn) = blindings_for::<G>(&values, &blindings)?;
            let (proof, commitments) = if common.plus {
                let (p, c) = RangeProofPlus::prove(&bp, &pc, &mut transcript(&common.label), &values, &blind, common.bits, &mut rand_core::OsRng)
                    .map_err(|e| input(format!("cannot prove: {e}")))?;
                (p.to_bytes(), c)
            } else {
                let tables = GeneratorTables::new(&bp, &pc, common.bits, values.len()).map_err(|e| input(e.to_string()))?;
                let (p, c) = RangeProof::prove_with_tables(&bp, &pc, Some(&tables), &ProverConfig::default(), &mut transcript(&common.label), &values, &blind, common.bits, &mut rand_core::OsRng)
                    .map_err(|e| input(format!("cannot prove: {e}")))?;
                (p.to_bytes(), c)
            };
            print_proof::<G>(common.bits, &commitments, drawn.then_some(&blind[..]), &proof);
            Ok(0)
        }
        BulletproofsCmd::Verify { commitments, proof, proof_file, common } => {
            let (bp, pc) = generators::<G>(common.bits, commitments.len())?;
            let cs = read_commitments::<G>(&commitments)?;
            let bytes = read_proof(proof, proof_file)?;
            let result = if common.plus {
                let p = RangeProofPlus::<G>::from_bytes(&bytes).map_err(|e| input(format!("the proof does not decode as Bulletproofs+: {e}")))?;
                p.verify(&bp, &pc, &mut transcript(&common.label), &cs, common.bits)
            } else {
                let p = RangeProof::<G>::from_bytes(&bytes).map_err(|e| input(format!("the proof does not decode: {e}")))?;
                p.verify_multiple(&bp, &pc, &mut transcript(&common.label), &cs, common.bits)
            };
            report(result)
        }
    }
}

/// The blinding factors given (32 bytes little-endian hex each), or drawn at random when none
/// is given; the flag says they were drawn (and must be printed).
fn blindings_for<G: BpGroup>(values: &[u64], blindings: &[String]) -> Result<(Vec<G::Scalar>, bool), CliError> {
    if blindings.is_empty() {
        return Ok((values.iter().map(|_| G::scalar_random(&mut rand_core::OsRng)).collect(), true));
    }
    if blindings.len() != values.len() {
        return Err(input(format!("{} values but {} --blinding factors: give one per value, or none to draw them", values.len(), blindings.len())));
    }
    let blind = blindings
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let b = unhex(h, &format!("blinding factor {}", i + 1))?;
            let arr: [u8; 32] = b.as_slice().try_into().map_err(|_| input(format!("blinding factor {} is {} bytes: give 32 bytes little-endian hex", i + 1, b.len())))?;
            G::scalar_from_canonical(&arr).ok_or_else(|| input(format!("blinding factor {} is not below the {} group order", i + 1, G::NAME)))
        })
        .collect::<Result<_, _>>()?;
    Ok((blind, false))
}

/// `prove`'s output lines.
fn print_proof<G: BpGroup>(bits: usize, commitments: &[Commitment<G>], drawn: Option<&[G::Scalar]>, proof: &[u8]) {
    println!("group {}", G::NAME);
    println!("bits {bits}");
    for c in commitments {
        println!("commitment {}", hex(&c.bytes));
    }
    for b in drawn.unwrap_or(&[]) {
        println!("blinding {}", hex(&G::scalar_to_bytes(b)));
    }
    println!("proof {}", hex(proof));
}

/// The `--commitment` arguments, decoded with every check.
fn read_commitments<G: BpGroup>(commitments: &[String]) -> Result<Vec<Commitment<G>>, CliError> {
    commitments
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let b = unhex(h, &format!("commitment {}", i + 1))?;
            Commitment::<G>::from_bytes(&b).ok_or_else(|| input(format!("commitment {} is not a compressed {} point ({} bytes)", i + 1, G::NAME, G::POINT_BYTES)))
        })
        .collect()
}

/// The proof from `--proof HEX` or `--proof-file PATH` (raw bytes or hex).
fn read_proof(proof: Option<String>, proof_file: Option<PathBuf>) -> Result<Vec<u8>, CliError> {
    match (proof, proof_file) {
        (Some(h), None) => unhex(&h, "the proof"),
        (None, Some(path)) => {
            let raw = std::fs::read(&path).map_err(|e| input(format!("cannot read {}: {e}", path.display())))?;
            match std::str::from_utf8(&raw) {
                Ok(text) if text.trim().chars().all(|c| c.is_ascii_hexdigit() || c == 'x' || c.is_whitespace()) && !text.trim().is_empty() => {
                    unhex(text, &format!("the proof in {}", path.display()))
                }
                _ => Ok(raw),
            }
        }
        _ => Err(input("give the proof with --proof HEX or --proof-file PATH".into())),
    }
}

/// Prints the verdict; exit 0 when valid, 1 when not.
fn report(result: Result<(), zkforge_bulletproofs::BulletproofError>) -> Result<i32, CliError> {
    match result {
        Ok(()) => {
            println!("valid");
            Ok(0)
        }
        Err(e) => {
            println!("invalid: {e}");
            Ok(1)
        }
    }
}

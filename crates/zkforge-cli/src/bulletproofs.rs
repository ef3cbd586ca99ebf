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
use zkforge_bulletproofs::{Bls12381G1, Bn254G1, BpGroup, BulletproofGens, Commitment, GeneratorTables, PedersenGens, ProverConfig, RangeProof, RangeProofPlus, Ristretto255, Transcript};

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
    match group.as_str() {
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

/// `Transcript::new(label)` as dalek's users write it; merlin wants a `'static` label, and a
/// command runs once, so the label is leaked.
fn transcript(label: &str) -> Transcript {
    Transcript::new(Box::leak(label.as_bytes().to_vec().into_boxed_slice()))
}

fn run_on<G: BpGroup>(cmd: BulletproofsCmd) -> Result<i32, CliError> {
    match cmd {
        BulletproofsCmd::Prove { values, blindings, common } => {
            let (bp, pc) = generators::<G>(common.bits, values.len())?;
            let drawn = blindings.is_empty();
            let blind: Vec<G::Scalar> = if drawn {
                values.iter().map(|_| G::scalar_random(&mut rand_core::OsRng)).collect()
            } else {
                if blindings.len() != values.len() {
                    return Err(input(format!("{} values but {} --blinding factors: give one per value, or none to draw them", values.len(), blindings.len())));
                }
                blindings
                    .iter()
                    .enumerate()
                    .map(|(i, h)| {
                        let b = unhex(h, &format!("blinding factor {}", i + 1))?;
                        let arr: [u8; 32] = b.as_slice().try_into().map_err(|_| input(format!("blinding factor {} is {} bytes: give 32 bytes little-endian hex", i + 1, b.len())))?;
                        G::scalar_from_canonical(&arr).ok_or_else(|| input(format!("blinding factor {} is not below the {} group order", i + 1, G::NAME)))
                    })
                    .collect::<Result<_, _>>()?
            };
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
            println!("group {}", G::NAME);
            println!("bits {}", common.bits);
            for c in &commitments {
                println!("commitment {}", hex(&c.bytes));
            }
            if drawn {
                for b in &blind {
                    println!("blinding {}", hex(&G::scalar_to_bytes(b)));
                }
            }
            println!("proof {}", hex(&proof));
            Ok(0)
        }
        BulletproofsCmd::Verify { commitments, proof, proof_file, common } => {
            let (bp, pc) = generators::<G>(common.bits, commitments.len())?;
            let cs: Vec<Commitment<G>> = commitments
                .iter()
                .enumerate()
                .map(|(i, h)| {
                    let b = unhex(h, &format!("commitment {}", i + 1))?;
                    Commitment::<G>::from_bytes(&b).ok_or_else(|| input(format!("commitment {} is not a compressed {} point ({} bytes)", i + 1, G::NAME, G::POINT_BYTES)))
                })
                .collect::<Result<_, _>>()?;
            let bytes = match (proof, proof_file) {
                (Some(h), None) => unhex(&h, "the proof")?,
                (None, Some(path)) => {
                    let raw = std::fs::read(&path).map_err(|e| input(format!("cannot read {}: {e}", path.display())))?;
                    match std::str::from_utf8(&raw) {
                        Ok(text) if text.trim().chars().all(|c| c.is_ascii_hexdigit() || c == 'x' || c.is_whitespace()) && !text.trim().is_empty() => {
                            unhex(text, &format!("the proof in {}", path.display()))?
                        }
                        _ => raw,
                    }
                }
                _ => return Err(input("give the proof with --proof HEX or --proof-file PATH".into())),
            };
            let result = if common.plus {
                let p = RangeProofPlus::<G>::from_bytes(&bytes).map_err(|e| input(format!("the proof does not decode as Bulletproofs+: {e}")))?;
                p.verify(&bp, &pc, &mut transcript(&common.label), &cs, common.bits)
            } else {
                let p = RangeProof::<G>::from_bytes(&bytes).map_err(|e| input(format!("the proof does not decode: {e}")))?;
                p.verify_multiple(&bp, &pc, &mut transcript(&common.label), &cs, common.bits)
            };
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
    }
}

//! `zkforge evm call ADDRESS --input HEX [--gas N] [--byzantium]` runs one precompile and prints
//! the gas used and the output (or the error); `zkforge evm vectors DIR` runs every
//! go-ethereum-format vector file in a folder (`{"Input","Expected","Gas"}` success files and
//! `fail-*.json` files of inputs that must fail) and reports per file.
//!
//! Exit codes: 0 success (every vector passed); 1 the precompile refused the input (call) or a
//! vector failed (vectors); 2 usage or input error (bad hex, unreadable folder or file).

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use crate::hashsig::CliError;

/// Exit-code summary for `--help`.
pub const EXIT_HELP: &str = "Exit codes: 0 success (every vector passed); 1 the precompile refused the input, or a vector failed; 2 usage or input error (bad hex, unreadable folder or file).";

/// `zkforge evm ...`
#[derive(Subcommand)]
pub enum EvmCmd {
    /// Run one precompile: prints `gas_used` and the output as hex, or the error.
    Call(CallArgs),
    /// Run every go-ethereum-format vector file (*.json) in a folder and report per file.
    Vectors(VectorsArgs),
}

/// `zkforge evm call`
#[derive(Args)]
pub struct CallArgs {
    /// Precompile address: 0x06-0x08 (BN254), 0x0a (point evaluation), 0x0b-0x11 (EIP-2537).
    address: String,
    /// Call data as hex (with or without 0x).
    #[arg(long, default_value = "")]
    input: String,
    /// Gas limit of the call.
    #[arg(long, default_value_t = 30_000_000)]
    gas: u64,
    /// Price BN254 calls with the Byzantium schedule instead of Istanbul's (EIP-1108).
    #[arg(long)]
    byzantium: bool,
}

/// `zkforge evm vectors`
#[derive(Args)]
pub struct VectorsArgs {
    /// Folder of vector files; the precompile comes from each file name (bn256Add, blsG1Add,
    /// blsG1MultiExp, ... as in go-ethereum's `core/vm/testdata/precompiles`, or the EIP-2537
    /// names add_G1_bls, msm_G2_bls, ...).
    dir: PathBuf,
}

/// Hex (a 0x prefix and whitespace, such as line breaks in a file, allowed) to bytes; `what`
/// names the input in the error.
pub(crate) fn unhex(s: &str, what: &str) -> Result<Vec<u8>, CliError> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let s = s.strip_prefix("0x").unwrap_or(&s);
    if !s.is_ascii() {
        return Err(CliError { code: 2, message: format!("{what} is not hex: use digits 0-9 and a-f") });
    }
    if s.len() % 2 != 0 {
        return Err(CliError { code: 2, message: format!("{what} has an odd number of hex digits") });
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16))
        .collect::<Result<_, _>>()
        .map_err(|_| CliError { code: 2, message: format!("{what} is not hex: use digits 0-9 and a-f") })
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn parse_address(s: &str) -> Result<u8, CliError> {
    let t = s.trim().trim_start_matches("0x");
    // 0x06, 6, or the whole 20-byte address 0x00..06 (leading zeros never overflow)
    u8::from_str_radix(t, 16)
        .map_err(|_| CliError { code: 2, message: format!("address `{s}` is not a precompile address: use 0x06-0x08, 0x0a or 0x0b-0x11") })
}

/// The precompile a go-ethereum or EIP-2537 vector file is for, from its name.
fn address_for(name: &str) -> Option<u8> {
    let n = name.trim_start_matches("fail-").to_lowercase();
    let table: [(&str, u8); 16] = [
        ("bn256add", 0x06),
        ("ecadd", 0x06),
        ("bn256scalarmul", 0x07),
        ("ecmul", 0x07),
        ("bn256pairing", 0x08),
        ("ecpairing", 0x08),
        ("blsg1add", 0x0b),
        ("add_g1", 0x0b),
        ("blsg1mul", 0x0c),
        ("blsg1multiexp", 0x0c),
        ("blsg2add", 0x0d),
        ("add_g2", 0x0d),
        ("blsg2mul", 0x0e),
        ("blsg2multiexp", 0x0e),
        ("blspairing", 0x0f),
        ("pairing_check", 0x0f),
    ];
    let more: [(&str, u8); 6] = [("mul_g1", 0x0c), ("msm_g1", 0x0c), ("mul_g2", 0x0e), ("msm_g2", 0x0e), ("blsmapg1", 0x10), ("blsmapg2", 0x11)];
    let maps: [(&str, u8); 2] = [("map_fp_to_g1", 0x10), ("map_fp2_to_g2", 0x11)];
    table.iter().chain(more.iter()).chain(maps.iter()).find(|(k, _)| n.contains(k)).map(|(_, a)| *a)
}

/// Run `zkforge evm ...`; returns the exit code.
pub fn run(cmd: EvmCmd) -> Result<i32, CliError> {
    match cmd {
        EvmCmd::Call(a) => {
            let address = parse_address(&a.address)?;
            let input = unhex(&a.input, "--input")?;
            let schedule = if a.byzantium { zkforge_evm::GasSchedule::Byzantium } else { zkforge_evm::GasSchedule::Istanbul };
            match zkforge_evm::call_with(address, &input, a.gas, schedule) {
                Ok(out) => {
                    println!("gas_used {}", out.gas_used);
                    println!("output {}", hex(&out.bytes));
                    Ok(0)
                }
                Err(zkforge_evm::PrecompileError::UnknownAddress(_)) => Err(CliError {
                    code: 2,
                    message: format!("no precompile at {}: use 0x06-0x08, 0x0a or 0x0b-0x11", a.address),
                }),
                Err(e) => {
                    println!("error {e} (all {} gas consumed)", a.gas);
                    Ok(1)
                }
            }
        }
        EvmCmd::Vectors(a) => vectors(&a.dir),
    }
}

fn vectors(dir: &Path) -> Result<i32, CliError> {
    let read_err = |e: std::io::Error| CliError { code: 2, message: format!("cannot read {}: {e}; give a folder of *.json vector files", dir.display()) };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).map_err(read_err)?.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "json")).collect();
    files.sort();
    if files.is_empty() {
        return Err(CliError { code: 2, message: format!("{} has no *.json vector files", dir.display()) });
    }
    let (mut total_ok, mut total_bad) = (0usize, 0usize);
    for path in files {
        let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        let Some(address) = address_for(&name) else {
            println!("{name}: skipped (no precompile for this file name)");
            continue;
        };
        let text = std::fs::read_to_string(&path).map_err(|e| CliError { code: 2, message: format!("cannot read {}: {e}", path.display()) })?;
        let cases: serde_json::Value = serde_json::from_str(&text).map_err(|e| CliError { code: 2, message: format!("{} is not JSON: {e}", path.display()) })?;
        let Some(cases) = cases.as_array() else {
            return Err(CliError { code: 2, message: format!("{} is not a JSON array of cases", path.display()) });
        };
        let (mut ok, mut bad) = (0, 0);
        for c in cases {
            let case = c["Name"].as_str().unwrap_or("?");
            let input = unhex(c["Input"].as_str().unwrap_or(""), &format!("{name} case {case}: Input"))?;
            let pass = match c["Expected"].as_str() {
                Some(expected) => {
                    let gas = c["Gas"].as_u64().unwrap_or(30_000_000);
                    let want = unhex(expected, &format!("{name} case {case}: Expected"))?;
                    match zkforge_evm::call(address, &input, gas) {
                        Ok(out) if out.bytes == want && out.gas_used == gas => true,
                        Ok(out) => {
                            println!("  {name} {case}: got gas {} output {}", out.gas_used, hex(&out.bytes));
                            false
                        }
                        Err(e) => {
                            println!("  {name} {case}: failed: {e}");
                            false
                        }
                    }
                }
                None => match zkforge_evm::call(address, &input, 30_000_000) {
                    Err(_) => true,
                    Ok(_) => {
                        println!("  {name} {case}: succeeded but must fail");
                        false
                    }
                },
            };
            if pass {
                ok += 1;
            } else {
                bad += 1;
            }
        }
        println!("{name} ({address:#04x}): {ok} passed, {bad} failed");
        total_ok += ok;
        total_bad += bad;
    }
    println!("{total_ok} passed, {total_bad} failed");
    Ok(if total_bad == 0 { 0 } else { 1 })
}

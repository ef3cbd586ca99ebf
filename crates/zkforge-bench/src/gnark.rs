//! gnark-crypto (Consensys, Go) as a peer in the same run: a small Go program
//! (`crates/zkforge-bench/gnark/main.go`, gnark-crypto pinned in its `go.mod`, fetched through
//! the Go module proxy) is built with the `go` on PATH on first use and driven over its
//! stdin/stdout: `load` hands it a case's inputs (a file of canonical big-endian encodings) and
//! returns its output for the agreement check, `time` runs the operation a number of times and
//! returns the nanoseconds it measured. Its rows are therefore timed by the same harness as
//! every other peer, in the same shuffled rounds, on the same inputs.
//!
//! One thread on both sides: the Go process runs with `GOMAXPROCS=1` and its MSM with
//! `NbTasks: 1`. Set `ZKFORGE_NO_GNARK=1` to leave the rows out; without Go the bench says why
//! in its header (`gnark-crypto: not run (...)`) and prints the other rows.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use crate::pipe::{from_hex, PipePeer};
use crate::{Check, Runner};

/// The running Go peer. It lives in a static for the whole run and exits when the bench does
/// (its stdin closes).
pub struct GnarkPeer {
    pipe: PipePeer,
    next_id: u64,
    /// gnark-crypto's module version and the Go version.
    pub version: String,
}

static PEER: OnceLock<Result<Arc<Mutex<GnarkPeer>>, String>> = OnceLock::new();

/// The shared peer, started on first use; `Err` says why it is not available.
pub fn peer() -> Result<Arc<Mutex<GnarkPeer>>, String> {
    PEER.get_or_init(|| start().map(|p| Arc::new(Mutex::new(p)))).clone()
}

/// One line for the bench header: the version run, or why gnark-crypto's rows are missing.
pub fn status() -> String {
    match peer() {
        Ok(p) => format!("gnark-crypto {} (GOMAXPROCS=1)", p.lock().expect("gnark peer lock").version),
        Err(e) => format!("gnark-crypto: not run ({e})"),
    }
}

/// [`status`] when a group asked for the peer during this run, `None` otherwise (so a run of
/// groups without gnark rows neither builds the Go program nor mentions it).
pub fn status_if_used() -> Option<String> {
    PEER.get().map(|_| status())
}

fn start() -> Result<GnarkPeer, String> {
    if std::env::var_os("ZKFORGE_NO_GNARK").is_some() {
        return Err("ZKFORGE_NO_GNARK is set".into());
    }
    let go = std::env::var("ZKFORGE_GO").unwrap_or_else(|_| "go".into());
    let go_version = Command::new(&go)
        .arg("version")
        .output()
        .map_err(|_| format!("no Go toolchain: `{go}` is not on PATH (install Go 1.26.8+, which gnark-crypto v0.22 needs, for the gnark-crypto rows)"))?;
    let go_version = String::from_utf8_lossy(&go_version.stdout).split_whitespace().nth(2).unwrap_or("go?").to_string();
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("gnark");
    // the program goes beside the bench binary (target/<profile>/); Go's build cache makes
    // the rebuild on every run cheap
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate the bench binary: {e}"))?;
    let bin = exe.with_file_name("zkforge-gnarkpeer");
    let build = Command::new(&go)
        .args(["build", "-o"])
        .arg(&bin)
        .arg(".")
        .current_dir(&src)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("`go build` did not start: {e}"))?;
    if !build.status.success() {
        let err = String::from_utf8_lossy(&build.stderr);
        return Err(format!("`go build` in {} failed: {}", src.display(), err.lines().last().unwrap_or("").trim()));
    }
    let mut cmd = Command::new(&bin);
    cmd.env("GOMAXPROCS", "1");
    let mut p = GnarkPeer { pipe: PipePeer::spawn(cmd, "gnark peer")?, next_id: 0, version: String::new() };
    let v = p.ask("version")?;
    p.version = format!("{v}, {go_version}");
    Ok(p)
}

impl GnarkPeer {
    fn ask(&mut self, line: &str) -> Result<String, String> {
        self.pipe.ask(line)
    }

    /// Hand the peer a case: `kind` as in `main.go`, `input` the file's bytes. Returns the
    /// case's id and the peer's output on it (decoded from hex).
    fn load(&mut self, kind: &str, input: &[u8]) -> Result<(String, Vec<u8>), String> {
        self.next_id += 1;
        let id = format!("c{}", self.next_id);
        let path = std::env::temp_dir().join(format!("zkforge-gnark-{}-{id}.bin", std::process::id()));
        std::fs::write(&path, input).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let out = self.ask(&format!("load {id} {kind} {}", path.display()));
        let _ = std::fs::remove_file(&path);
        let hex = out?;
        Ok((id, from_hex(&hex)?))
    }

    fn time(&mut self, id: &str, iters: u64) -> Result<Duration, String> {
        let ns: u64 = self.ask(&format!("time {id} {iters}"))?.parse().map_err(|_| "gnark peer: bad time".to_string())?;
        Ok(Duration::from_nanos(ns))
    }
}

/// Load a case into the peer; returns the timed [`Runner`] and the peer's output bytes, or
/// `Err` when the peer is unavailable or refuses the input.
pub fn load(kind: &str, input: &[u8]) -> Result<(Runner, Vec<u8>), String> {
    let peer = peer()?;
    let (id, out) = peer.lock().expect("gnark peer lock").load(kind, input)?;
    let runner: Runner = Box::new(move |iters| peer.lock().expect("gnark peer lock").time(&id, iters).expect("the gnark peer ran this case at load"));
    Ok((runner, out))
}

/// Add gnark-crypto's runner (when the peer is available) to a case's peers and its check after
/// the case's own.
pub fn join(peers: &mut Vec<(&'static str, Runner)>, check: Check, gnark: Option<(Runner, Check)>) -> Check {
    match gnark {
        Some((runner, gcheck)) => {
            peers.push(("gnark-crypto", runner));
            Box::new(move || {
                check()?;
                gcheck()
            })
        }
        None => check,
    }
}

/// Big-endian bytes of canonical field elements (each `width` bytes) -> our canonical
/// little-endian limbs, concatenated in order.
pub fn be_to_limbs(bytes: &[u8], width: usize) -> Vec<u64> {
    bytes
        .chunks(width)
        .flat_map(|c| {
            let mut le: Vec<u8> = c.to_vec();
            le.reverse();
            le.chunks(8).map(|w| u64::from_le_bytes(w.try_into().expect("8-byte word"))).collect::<Vec<_>>()
        })
        .collect()
}

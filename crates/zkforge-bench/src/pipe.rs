//! A peer in another process, driven over its stdin and stdout one line at a time: each request
//! is a line, each reply a line `ok ...` or `err ...`. The gnark-crypto Go program
//! ([`crate::gnark`]) and the one-thread revm child ([`crate::revm_1thr`]) are such peers; both
//! time their batches themselves, so the pipe costs nothing in a row.

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};

/// A started peer process. It exits when the bench does (its stdin closes).
pub struct PipePeer {
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    name: &'static str,
}

impl PipePeer {
    /// Start `cmd` with piped stdin and stdout (stderr inherited); `name` prefixes its errors.
    pub fn spawn(mut cmd: Command, name: &'static str) -> Result<Self, String> {
        let program = cmd.get_program().to_string_lossy().into_owned();
        let child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::inherit()).spawn().map_err(|e| format!("cannot start {program}: {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin, child.stdout) else {
            return Err(format!("{name} started without pipes"));
        };
        Ok(Self { stdin, stdout: BufReader::new(stdout), name })
    }

    /// Send one request line; the text after `ok`, or the peer's `err` text (or "exited").
    pub fn ask(&mut self, line: &str) -> Result<String, String> {
        let name = self.name;
        writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).map_err(|e| format!("{name}: {e}"))?;
        let mut reply = String::new();
        self.stdout.read_line(&mut reply).map_err(|e| format!("{name}: {e}"))?;
        let reply = reply.trim_end();
        match reply.strip_prefix("ok") {
            Some(ok) => Ok(ok.trim().to_string()),
            None => Err(format!("{name}: {}", reply.strip_prefix("err ").unwrap_or(if reply.is_empty() { "exited" } else { reply }))),
        }
    }
}

/// Lower-case hex of bytes.
pub fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Bytes of an even-length hex string.
pub fn from_hex(s: &str) -> Result<Vec<u8>, String> {
    if !s.len().is_multiple_of(2) {
        return Err("odd hex length".into());
    }
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(s.get(i..i + 2).ok_or("bad hex")?, 16).map_err(|_| "bad hex".to_string())).collect()
}

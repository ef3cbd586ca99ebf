//! revm-precompile on exactly one thread, as a peer served by a child process.
//!
//! revm's BLS12-381 MSM precompiles call the blst crate's `mult`, which splits the work over
//! blst's own thread pool whenever that pool has two or more workers, and blst sizes the pool
//! once per process from the CPUs the process may use. Run in the bench's own process, the
//! G1MSM/G2MSM peer therefore used every CPU while ours ran on one thread. A pool cannot be
//! resized from outside blst, and a feature (`no-threads`) would remove the pool from every
//! other blst row of the build, so the one-thread peer runs in a child: the bench binary
//! started again with [`CHILD_ENV`] set pins itself to one CPU, makes blst create its pool
//! there (one G1MSM of two points through revm), so the pool has one worker and `mult` takes
//! its single-threaded path from then on (no pool at all), and unpins itself again, so that it
//! runs on the same CPUs as the bench process. It then serves revm's own precompile entry
//! points over stdin/stdout:
//!
//! - `hello` -> `ok <CPUs the process could use when blst's pool was made>` (must be 1);
//! - `load <id> <address> <input hex>` -> `ok <output hex>` (the agreement check's output);
//! - `time <id> <iters>` -> `ok <nanoseconds>` for `iters` calls, timed in the child.
//!
//! The parent times nothing itself, so the pipe costs nothing in the row. Only a binary that
//! calls [`serve_if_child`] first in `main` (the `zkforge` CLI) can be the child; it says so with
//! [`enable`]. Elsewhere (tests, criterion) [`load`] returns `Err` and the rows fall back to the
//! in-process peer with its pool, labelled as such.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::pipe::{from_hex, to_hex, PipePeer};
use crate::Runner;

/// Set in the child's environment; its value is the CPU to pin to while blst makes its pool.
pub const CHILD_ENV: &str = "ZKFORGE_BENCH_REVM_1THR_CHILD";

static ENABLED: AtomicBool = AtomicBool::new(false);

/// Declare that the running binary calls [`serve_if_child`] first in `main`, so that it may be
/// started as the one-thread peer.
pub fn enable() {
    ENABLED.store(true, Ordering::SeqCst);
}

/// When this process was started as the peer (its environment has [`CHILD_ENV`]): pin to the
/// CPU named there while blst makes its pool (one two-point G1MSM through revm), unpin, serve
/// requests until stdin closes, and exit. Otherwise return at once. Call it first in `main`,
/// before anything touches blst.
pub fn serve_if_child() {
    let Some(cpu) = std::env::var(CHILD_ENV).ok().and_then(|v| v.parse::<usize>().ok()) else {
        return;
    };
    let saved = affinity();
    pin_to(cpu);
    let pool_cpus = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0);
    let g = zkforge_evm::bls12_381::encode_g1(&zkforge_curve::bls12_381::G1Affine::generator());
    let two_pairs = [g.as_slice(), &[0u8; 31], &[3], g.as_slice(), &[0u8; 31], &[5]].concat();
    let made_pool = call(0x0c, &two_pairs).is_ok();
    if let Some(set) = saved {
        // SAFETY: restores the set sched_getaffinity returned at the start.
        unsafe { libc::sched_setaffinity(0, core::mem::size_of::<libc::cpu_set_t>(), &set) };
    }
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut inputs: HashMap<String, (u8, Vec<u8>)> = HashMap::new();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let reply = if line == "hello" {
            if made_pool {
                format!("ok {pool_cpus}")
            } else {
                "err the warm-up MSM failed".to_string()
            }
        } else {
            answer(&line, &mut inputs).unwrap_or_else(|e| format!("err {e}"))
        };
        if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
            break;
        }
    }
    std::process::exit(0);
}

fn answer(line: &str, inputs: &mut HashMap<String, (u8, Vec<u8>)>) -> Result<String, String> {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("load") => {
            let (Some(id), Some(addr), Some(hex)) = (words.next(), words.next(), words.next()) else {
                return Err("load wants an id, an address and an input".into());
            };
            let addr = u8::from_str_radix(addr, 16).map_err(|_| "bad address")?;
            let input = from_hex(hex)?;
            let output = call(addr, &input)?;
            inputs.insert(id.to_string(), (addr, input));
            Ok(format!("ok {}", to_hex(&output)))
        }
        Some("time") => {
            let (Some(id), Some(iters)) = (words.next(), words.next().and_then(|s| s.parse::<u64>().ok())) else {
                return Err("time wants an id and a count".into());
            };
            let (addr, input) = inputs.get(id).ok_or("unknown id")?;
            let start = Instant::now();
            for _ in 0..iters {
                std::hint::black_box(call(*addr, std::hint::black_box(input))?);
            }
            Ok(format!("ok {}", start.elapsed().as_nanos()))
        }
        _ => Err(format!("unknown request `{line}`")),
    }
}

/// revm-precompile's entry point for `address` on `input` (100M gas): its output bytes, or why
/// not. The in-process EVM peer calls it too.
pub(crate) fn call(address: u8, input: &[u8]) -> Result<Vec<u8>, String> {
    match zkforge_revm::revm_call(address, input, 100_000_000) {
        Some(Ok((_, out))) => Ok(out),
        Some(Err(e)) => Err(format!("revm refused the input: {e:?}")),
        None => Err(format!("no precompile at {address:#x}")),
    }
}

/// Restrict this process to one CPU.
fn pin_to(cpu: usize) {
    // SAFETY: a zeroed cpu_set_t is a valid empty set; CPU_SET and sched_setaffinity only read
    // and write that set.
    unsafe {
        let mut set: libc::cpu_set_t = core::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, core::mem::size_of::<libc::cpu_set_t>(), &set);
    }
}

/// The CPUs this process may run on.
fn affinity() -> Option<libc::cpu_set_t> {
    // SAFETY: a zeroed cpu_set_t is a valid empty set; sched_getaffinity fills it.
    unsafe {
        let mut set: libc::cpu_set_t = core::mem::zeroed();
        (libc::sched_getaffinity(0, core::mem::size_of::<libc::cpu_set_t>(), &mut set) == 0).then_some(set)
    }
}

/// The first CPU this process may run on.
fn first_cpu() -> usize {
    // SAFETY: CPU_ISSET only reads the set `affinity` filled.
    affinity().and_then(|set| (0..libc::CPU_SETSIZE as usize).find(|&c| unsafe { libc::CPU_ISSET(c, &set) })).unwrap_or(0)
}

struct Child {
    pipe: PipePeer,
    next_id: u64,
}

static CHILD: OnceLock<Result<Arc<Mutex<Child>>, String>> = OnceLock::new();

fn start() -> Result<Child, String> {
    if !ENABLED.load(Ordering::SeqCst) {
        return Err("this binary cannot serve as the one-thread peer".into());
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate the bench binary: {e}"))?;
    let mut cmd = Command::new(&exe);
    cmd.env(CHILD_ENV, first_cpu().to_string());
    let mut c = Child { pipe: PipePeer::spawn(cmd, "revm 1-thread peer")?, next_id: 0 };
    let cpus = c.pipe.ask("hello")?;
    if cpus != "1" {
        return Err(format!("blst's pool in the peer process was made for {cpus} CPUs, not 1"));
    }
    Ok(c)
}

/// One line for the bench header when an EVM case asked for the child: what ran, or why the
/// one-thread MSM rows are missing. `None` when no case asked.
pub fn status_if_used() -> Option<String> {
    CHILD.get().map(|c| match c {
        Ok(_) => "revm-precompile in a child process whose blst pool has 1 worker (no pool) for the one-thread revm-blst MSM rows".to_string(),
        Err(e) => format!("revm-blst one-thread child: not run ({e}); the EVM MSM rows have only the pooled in-process peer"),
    })
}

/// Load a precompile call into the one-thread peer: its timed [`Runner`] and revm's output,
/// or `Err` when the peer is unavailable (then leave the row to the in-process peer).
pub fn load(address: u8, input: &[u8]) -> Result<(Runner, Vec<u8>), String> {
    let child = CHILD.get_or_init(|| start().map(|c| Arc::new(Mutex::new(c)))).clone()?;
    let (id, out) = {
        let mut c = child.lock().expect("revm peer lock");
        c.next_id += 1;
        let id = format!("c{}", c.next_id);
        let out = c.pipe.ask(&format!("load {id} {address:x} {}", to_hex(input)))?;
        (id, from_hex(&out)?)
    };
    let runner: Runner = Box::new(move |iters| {
        let ns: u64 = child.lock().expect("revm peer lock").pipe.ask(&format!("time {id} {iters}")).expect("the peer ran this case at load").parse().expect("nanoseconds");
        Duration::from_nanos(ns)
    });
    Ok((runner, out))
}

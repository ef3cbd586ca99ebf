//! `zkforge hashsig` end to end: keygen from the reference seed gives leanSig's SSZ public key
//! byte for byte; sign, verify, refusal to sign an epoch twice, rejection of a wrong epoch.

use std::process::Command;

const SCHEME: &str = "poseidon2_toplevel_lifetime8_dim64_base8";
const SEED: &str = "4242424242424242424242424242424242424242424242424242424242424242";
const MSG: &str = "ccbebb1a7e7e65bbaa09a7783fe4e9adb7f7a0e6a9f4f31c96eb4c1dc6854ab6";
// leanSig f477348, SIGTopLevelTargetSumLifetime8Dim64Base8, seed 0x42 * 32 (vectors in
// crates/zkforge-hashsig/tests/vectors)
const PK_SSZ: &str = "8a505a6b2bbc28049f4af16a9c1dc6204715017e941ea57842a29c51dbb6fb298602e50e7a500506efe12b1080bc487cf9029d0f";

fn zkforge(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_zkforge")).args(args).output().expect("run zkforge")
}

#[test]
fn keygen_sign_verify() {
    let dir = std::env::temp_dir().join(format!("zkforge-cli-hashsig-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let out = zkforge(&["hashsig", "keygen", "--scheme", SCHEME, "--seed", SEED, "--activation-epoch", "0", "--active-epochs", "256", "--encoding", "ssz", "--public-key-out", &p("pk"), "--secret-key-out", &p("sk")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let pk: String = std::fs::read(dir.join("pk")).unwrap().iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(pk, PK_SSZ);
    let out = zkforge(&["hashsig", "sign", "--scheme", SCHEME, "--secret-key", &p("sk"), "--epoch", "5", "--message", MSG, "--signature-out", &p("sig")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let verify = |epoch: &str| zkforge(&["hashsig", "verify", "--scheme", SCHEME, "--public-key", &p("pk"), "--epoch", epoch, "--message", MSG, "--signature", &p("sig")]);
    assert!(verify("5").status.success());
    assert_eq!(verify("6").status.code(), Some(1));
    // epoch 5 is used; so is everything below it
    for e in ["5", "4"] {
        let out = zkforge(&["hashsig", "sign", "--scheme", SCHEME, "--secret-key", &p("sk"), "--epoch", e, "--message", MSG, "--signature-out", &p("sig2")]);
        assert!(!out.status.success());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The other families through the same commands: hash-sig's Winternitz 2^18 with the StdRng
/// seed (bincode-legacy), and leanSig devnet 4 (SSZ); public keys byte for byte.
#[test]
fn winternitz_and_devnet4_keys() {
    let dir = std::env::temp_dir().join(format!("zkforge-cli-hashsig2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = |f: &str| dir.join(f).to_string_lossy().into_owned();
    for (scheme, epochs, enc, want) in [
        ("poseidon2_winternitz_lifetime18_w8", "1024", "bincode-legacy", "0df0546031d42536c236ff159afb5b22a74b2e78c802605115a1b361998143437ac01e6ee4d3dd762d73b96f484fa34d"),
        ("leansig_head_aborting_lifetime8_dim46_base8", "256", "ssz", "284af619f3b29451e2766755bf720371a26ab31e564ae874c9f3a250d971662bb6823a5184bed80be3f3eb51deffbf70acfbc334"),
    ] {
        let out = zkforge(&["hashsig", "keygen", "--scheme", scheme, "--seed", SEED, "--active-epochs", epochs, "--rng", "std", "--encoding", enc, "--public-key-out", &p("pk"), "--secret-key-out", &p("sk")]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let pk: String = std::fs::read(dir.join("pk")).unwrap().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(pk, want, "{scheme}");
        let out = zkforge(&["hashsig", "sign", "--scheme", scheme, "--secret-key", &p("sk"), "--epoch", "300", "--message", MSG, "--encoding", enc, "--signature-out", &p("sig")]);
        assert!(out.status.success() == (scheme != "leansig_head_aborting_lifetime8_dim46_base8"), "{}", String::from_utf8_lossy(&out.stderr));
        let out = zkforge(&["hashsig", "sign", "--scheme", scheme, "--secret-key", &p("sk"), "--epoch", "200", "--message", MSG, "--encoding", enc, "--signature-out", &p("sig")]);
        if scheme.starts_with("leansig") {
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            let out = zkforge(&["hashsig", "verify", "--scheme", scheme, "--public-key", &p("pk"), "--epoch", "200", "--message", MSG, "--signature", &p("sig"), "--encoding", enc]);
            assert!(out.status.success());
        }
        std::fs::remove_file(dir.join("sk")).ok();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("zkforge-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Errors are plain words: no Rust Debug values (`Variant { field: .. }`, `Os { code`).
fn assert_plain(msg: &str) {
    assert!(msg.starts_with("error: "), "{msg}");
    for debug in ["{ ", "Os {", "Io(", "Malformed(", "EpochAlreadyUsed"] {
        assert!(!msg.contains(debug), "Debug text in {msg:?}");
    }
}

/// Each misuse case of issue 15 with the exit code and the words the CLI now answers with.
#[test]
fn misuse_cases_are_refused_with_plain_errors_and_exit_codes() {
    let dir = temp_dir("misuse");
    let p = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let keygen = |sk: &str, pk: &str, act: &str, n: &str| zkforge(&["hashsig", "keygen", "--scheme", SCHEME, "--seed", SEED, "--activation-epoch", act, "--active-epochs", n, "--public-key-out", pk, "--secret-key-out", sk]);
    let sign = |epoch: &str, msg: &str, out: &str| zkforge(&["hashsig", "sign", "--scheme", SCHEME, "--secret-key", &p("sk"), "--epoch", epoch, "--message", msg, "--signature-out", out]);
    assert!(keygen(&p("sk"), &p("pk"), "0", "256").status.success());
    assert!(sign("5", MSG, &p("sig5")).status.success());

    // keygen onto an existing store: refused (3), store untouched, epoch 5 still spent
    let before = std::fs::read(dir.join("sk")).unwrap();
    let o = keygen(&p("sk"), &p("pk_again"), "0", "256");
    assert_eq!(o.status.code(), Some(3));
    assert!(stderr(&o).contains("already exists") && stderr(&o).contains("new file"), "{}", stderr(&o));
    assert_plain(stderr(&o).trim());
    assert_eq!(std::fs::read(dir.join("sk")).unwrap(), before);
    let other = "00".repeat(32);
    let o = sign("5", &other, &p("sig5b"));
    assert_eq!(o.status.code(), Some(3));
    assert!(stderr(&o).contains("epoch 5 was already used"), "{}", stderr(&o));
    assert_plain(stderr(&o).trim());
    assert!(!dir.join("sig5b").exists());

    // activation outside the lifetime: refused (2), nothing written
    for (act, n) in [("250", "100"), ("0", "0"), ("4294967000", "1")] {
        let o = keygen(&p("sk_range"), &p("pk_range"), act, n);
        assert_eq!(o.status.code(), Some(2), "{act} {n}: {}", stderr(&o));
        assert_plain(stderr(&o).trim());
        assert!(!dir.join("sk_range").exists() && !dir.join("pk_range").exists());
    }

    // --secret-key-out into a missing directory: refused before any file is written
    let o = keygen(&dir.join("missing/sk").to_string_lossy(), &p("pk_orphan"), "0", "256");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing") && stderr(&o).contains("does not exist"), "{}", stderr(&o));
    assert!(!dir.join("pk_orphan").exists(), "orphan public key left behind");

    // --signature-out into a missing directory: refused before the epoch is reserved
    let o = sign("6", MSG, &dir.join("missing/sig").to_string_lossy());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("does not exist"), "{}", stderr(&o));
    assert!(sign("6", MSG, &p("sig6")).status.success(), "epoch 6 was spent by a refused call");

    // a damaged store: refused (3) before an epoch is spent
    let good = std::fs::read(dir.join("sk")).unwrap();
    let mut bad = good.clone();
    bad[70] ^= 0x10;
    std::fs::write(dir.join("sk"), &bad).unwrap();
    let o = sign("7", MSG, &p("sig7"));
    assert_eq!(o.status.code(), Some(3));
    assert!(stderr(&o).contains("damaged"), "{}", stderr(&o));
    assert_plain(stderr(&o).trim());
    assert_eq!(std::fs::read(dir.join("sk")).unwrap(), bad);
    std::fs::write(dir.join("sk"), &good).unwrap();
    assert!(sign("7", MSG, &p("sig7")).status.success());

    // verify: 0 valid, 1 invalid, 2 for unreadable or undecodable inputs
    let verify = |epoch: &str, sig: &str, pk: &str| zkforge(&["hashsig", "verify", "--scheme", SCHEME, "--public-key", pk, "--epoch", epoch, "--message", MSG, "--signature", sig]);
    assert_eq!(verify("7", &p("sig7"), &p("pk")).status.code(), Some(0));
    assert_eq!(verify("8", &p("sig7"), &p("pk")).status.code(), Some(1));
    let o = verify("7", &p("no_such_sig"), &p("pk"));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no_such_sig"), "{}", stderr(&o));
    std::fs::write(dir.join("short"), [1u8, 2, 3]).unwrap();
    let o = verify("7", &p("short"), &p("pk"));
    assert_eq!(o.status.code(), Some(2));
    assert_plain(stderr(&o).trim());
    assert_eq!(verify("7", &p("sig7"), &p("short")).status.code(), Some(2));
    // unknown scheme and bad hex: 2, in words
    let o = zkforge(&["hashsig", "verify", "--scheme", "nope", "--public-key", &p("pk"), "--epoch", "7", "--message", MSG, "--signature", &p("sig7")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("hashsig schemes"), "{}", stderr(&o));
    let o = sign("9", "xyz", &p("sig9"));
    assert_eq!(o.status.code(), Some(2));
    assert_plain(stderr(&o).trim());
    // --help documents the exit codes and points to `schemes`
    let o = zkforge(&["hashsig", "verify", "--help"]);
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(help.contains("Exit codes") && help.contains("hashsig schemes"), "{help}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn schemes_lists_every_family() {
    let o = zkforge(&["hashsig", "schemes"]);
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    for name in [
        "poseidon2_toplevel_lifetime32_dim64_base8",
        "poseidon2_winternitz_lifetime18_w8",
        "poseidon2_targetsum_lifetime20_w4_off10",
        "sha3_winternitz_lifetime18_w8",
        "sha3_targetsum_lifetime20_w2_nooff",
        "leansig_head_aborting_lifetime32_dim46_base8",
    ] {
        let line = out.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name} missing:\n{out}"));
        assert!(line.contains("lifetime 2^") && line.contains("sig"), "{line}");
    }
}

/// SHA3 instances through keygen / sign / verify (bincode-legacy; SSZ is refused in words),
/// with --threads; hash-sig's SHA3 Winternitz 2^18 public key for the StdRng seed.
#[test]
fn sha3_through_the_cli() {
    let dir = temp_dir("sha3");
    let p = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let scheme = "sha3_winternitz_lifetime18_w8";
    let o = zkforge(&["hashsig", "keygen", "--scheme", scheme, "--seed", SEED, "--active-epochs", "1024", "--public-key-out", &p("pk"), "--secret-key-out", &p("sk")]);
    assert_eq!(o.status.code(), Some(2), "SSZ must be refused for SHA3");
    assert!(stderr(&o).contains("bincode-legacy"), "{}", stderr(&o));
    let o = zkforge(&["hashsig", "keygen", "--scheme", scheme, "--seed", SEED, "--active-epochs", "1024", "--encoding", "bincode-legacy", "--threads", "2", "--public-key-out", &p("pk"), "--secret-key-out", &p("sk")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = zkforge(&["hashsig", "sign", "--scheme", scheme, "--secret-key", &p("sk"), "--epoch", "77", "--message", MSG, "--encoding", "bincode-legacy", "--threads", "1", "--signature-out", &p("sig")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let verify = |epoch: &str| zkforge(&["hashsig", "verify", "--scheme", scheme, "--public-key", &p("pk"), "--epoch", epoch, "--message", MSG, "--signature", &p("sig"), "--encoding", "bincode-legacy"]);
    assert_eq!(verify("77").status.code(), Some(0));
    assert_eq!(verify("78").status.code(), Some(1));
    let o = zkforge(&["hashsig", "sign", "--scheme", scheme, "--secret-key", &p("sk"), "--epoch", "77", "--message", MSG, "--encoding", "bincode-legacy", "--signature-out", &p("sig2")]);
    assert_eq!(o.status.code(), Some(3));
    let o = zkforge(&["hashsig", "keygen", "--scheme", scheme, "--seed", SEED, "--active-epochs", "1024", "--encoding", "bincode-legacy", "--threads", "0", "--public-key-out", &p("pk3"), "--secret-key-out", &p("sk3")]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Kill `sign` processes on one store with SIGKILL at random moments, then check: no epoch
/// was ever signed for two different messages, the store still opens (and signs), and every
/// signature file that exists verifies. Signature files are written atomically, so a killed
/// process leaves either a whole file or none (its temporary file is ignored).
fn crash_harness(kills: usize) {
    use std::time::{Duration, Instant};
    let dir = temp_dir(&format!("crash{kills}"));
    let p = |f: &str| dir.join(f).to_string_lossy().into_owned();
    // lifetime 2^18 with 1024 active epochs: room for a few thousand attempts
    let scheme = "poseidon2_toplevel_lifetime18_dim64_base8";
    let probe_seed = "11".repeat(32);
    for (sk, pk, seed) in [("sk", "pk", SEED), ("probe_sk", "probe_pk", probe_seed.as_str())] {
        let o = zkforge(&["hashsig", "keygen", "--scheme", scheme, "--seed", seed, "--active-epochs", "1024", "--public-key-out", &p(pk), "--secret-key-out", &p(sk)]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let mut state = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64 | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    // how long one sign takes here (on a second store), to spread the kills across its run
    let t = Instant::now();
    assert!(zkforge(&["hashsig", "sign", "--scheme", scheme, "--secret-key", &p("probe_sk"), "--epoch", "3", "--message", MSG, "--signature-out", &p("probe")]).status.success());
    let span = (t.elapsed().as_micros() as u64).max(1000) * 3 / 2;
    let mut attempts = Vec::new();
    let mut killed = 0;
    let mut completed = 0;
    let mut highest = 0u64;
    let mut i = 0u64;
    while killed < kills {
        i += 1;
        let msg = format!("{:064x}", i);
        if i % 5 == 0 {
            // every fifth attempt runs to its end at an epoch above every earlier attempt:
            // the store must still sign after the kills before it (and a run always has
            // signatures to check, whatever the timing of the killed ones)
            highest += 1;
            let sig = dir.join(format!("sig_{i}_{highest}"));
            let o = zkforge(&["hashsig", "sign", "--scheme", scheme, "--secret-key", &p("sk"), "--epoch", &highest.to_string(), "--message", &msg, "--signature-out", &sig.to_string_lossy()]);
            assert!(o.status.success(), "fresh epoch {highest} refused after kills: {}", stderr(&o));
            completed += 1;
            attempts.push((highest, msg, sig));
            continue;
        }
        // epochs creep upwards with a spread of eight: reuse attempts are frequent, and
        // fresh epochs keep coming
        let epoch = (i / 4 + next() % 8).min(1015);
        highest = highest.max(epoch);
        let sig = dir.join(format!("sig_{i}_{epoch}"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_zkforge"))
            .args(["hashsig", "sign", "--scheme", scheme, "--secret-key", &p("sk"), "--epoch", &epoch.to_string(), "--message", &msg, "--signature-out", &sig.to_string_lossy()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn zkforge");
        std::thread::sleep(Duration::from_micros(next() % span));
        if child.try_wait().expect("poll").is_none() {
            child.kill().expect("SIGKILL");
            killed += 1;
        }
        let _ = child.wait();
        attempts.push((epoch, msg, sig));
    }
    // the store opens and still signs (at an epoch past everything above)
    let o = zkforge(&["hashsig", "sign", "--scheme", scheme, "--secret-key", &p("sk"), "--epoch", "1020", "--message", MSG, "--signature-out", &p("after")]);
    assert!(o.status.success(), "store unusable after the kills: {}", stderr(&o));
    let mut signed: std::collections::HashMap<u64, String> = std::collections::HashMap::new();
    let mut files = 0;
    for (epoch, msg, sig) in &attempts {
        if !sig.exists() {
            continue;
        }
        files += 1;
        let o = zkforge(&["hashsig", "verify", "--scheme", scheme, "--public-key", &p("pk"), "--epoch", &epoch.to_string(), "--message", msg, "--signature", &sig.to_string_lossy()]);
        assert_eq!(o.status.code(), Some(0), "{} does not verify", sig.display());
        if let Some(prev) = signed.insert(*epoch, msg.clone()) {
            assert_eq!(&prev, msg, "epoch {epoch} signed for two messages");
        }
    }
    eprintln!("crash harness: {} attempts, {killed} killed, {completed} run to the end, {files} signatures, {} epochs signed", attempts.len(), signed.len());
    assert!(files >= completed && completed > 0, "{files} signature files, {completed} runs completed");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn crash_harness_50_kills() {
    crash_harness(50);
}

/// By hand: `cargo test --release -p zkforge-cli -- --ignored crash_harness_1000`.
#[test]
#[ignore]
fn crash_harness_1000_kills() {
    crash_harness(1000);
}

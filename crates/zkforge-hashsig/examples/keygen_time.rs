//! Time key generation of a Poseidon2 instantiation on a given number of threads (run under
//! `/usr/bin/time -v` for peak memory): `cargo run --release --example keygen_time --
//! poseidon2_toplevel_lifetime32_dim64_base8 131072 1`. Seed 0x42 x 32 through ChaCha20 (ChaCha12,
//! rand 0.10's StdRng, for leanSig devnet 4's `leansig_head_aborting_*` names): a driver of the
//! reference given the same seed prints the same public key (BENCHMARKS.md, "Key generation
//! against leanSig built natively"). For devnet 4, a fourth argument `sign` then times signing
//! and verification at 40 epochs (medians, one thread) and prints a digest of the signatures.
//! With the environment variable `ONE_PASS` set, packed Poseidon2 runs its internal rounds in
//! one pass (`PackedForm::tail_first` off), for A/B timing against the default.
use rand_chacha::rand_core::SeedableRng;
use sha3::Digest;
use zkforge_hashsig::devnet4::Devnet4;
use zkforge_hashsig::keygen::{key_gen, KeyMaterial};
use zkforge_hashsig::scheme::{instance_by_name, PublicKey};
use zkforge_hashsig::tweak_hash::Perms;

fn run<const H: usize>(name: &str, epochs: u64, threads: usize) {
    let inst = instance_by_name(name).expect("known scheme");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
    let perms = Perms::default();
    let t = std::time::Instant::now();
    let km = match pool.install(|| key_gen::<5, 2, H, 9>(&perms, &inst.shape, &mut rand_chacha::ChaCha20Rng::from_seed([0x42; 32]), 0, epochs)) {
        Ok(km) => km,
        Err(e) => {
            eprintln!("{name}: {e}");
            std::process::exit(2);
        }
    };
    let secs = t.elapsed().as_secs_f64();
    // The public key in leanSig's SSZ form, to check against the reference's key for the same
    // seed before a ratio is reported.
    let pk = PublicKey::<5, H> { root: km.root, parameter: km.parameter };
    let hex: String = pk.to_ssz().iter().map(|b| format!("{b:02x}")).collect();
    println!("zkforge {name} {epochs} epochs, {threads} thread(s): {secs:.3} s, pk ssz = {hex}");
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Sign [e; 32] at epochs 1000 e (e < 40) and verify each, one at a time, on this thread;
/// print the medians and SHA3-256 of the signatures' SSZ bytes (equal to a reference driver's
/// for the same key when the signatures are).
fn devnet4_sign(inst: &Devnet4, km: &KeyMaterial<5, 8>) {
    let (mut ts, mut tv) = (Vec::new(), Vec::new());
    let mut h = sha3::Sha3_256::new();
    for e in 0..40u32 {
        let msg = [e as u8; 32];
        let t = std::time::Instant::now();
        let sig = inst.sign(km, e * 1000, &msg).expect("epoch in the prepared interval");
        ts.push(t.elapsed().as_secs_f64() * 1e6);
        let t = std::time::Instant::now();
        assert!(inst.verify(&km.root, &km.parameter, e * 1000, &msg, &sig));
        tv.push(t.elapsed().as_secs_f64() * 1e6);
        h.update(sig.to_ssz());
    }
    let d: String = h.finalize().iter().map(|x| format!("{x:02x}")).collect();
    println!("zkforge sign median {:.0} us, verify median {:.0} us, sha3(sigs) {}", median(ts), median(tv), &d[..16]);
}

fn main() {
    if std::env::var_os("ONE_PASS").is_some() {
        use zkforge_hashsig::poseidon2::{set_packed_form, PackedForm};
        set_packed_form(PackedForm { tail_first: false, ..PackedForm::DEFAULT });
        println!("packed Poseidon2: internal rounds in one pass");
    }
    let a: Vec<String> = std::env::args().collect();
    let name = a.get(1).map(String::as_str).unwrap_or("poseidon2_toplevel_lifetime32_dim64_base8");
    let epochs: u64 = a.get(2).and_then(|x| x.parse().ok()).unwrap_or(131072);
    let threads: usize = a.get(3).and_then(|x| x.parse().ok()).unwrap_or(1);
    if let Some(inst) = Devnet4::by_name(name) {
        // leanSig devnet 4 draws its keys from rand 0.10's StdRng, ChaCha12 keyed by the seed.
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
        let t = std::time::Instant::now();
        let km = match pool.install(|| inst.key_gen(&mut rand_chacha::ChaCha12Rng::from_seed([0x42; 32]), 0, epochs)) {
            Ok(km) => km,
            Err(e) => {
                eprintln!("{name}: {e}");
                std::process::exit(2);
            }
        };
        let secs = t.elapsed().as_secs_f64();
        let pk = PublicKey::<5, 8> { root: km.root, parameter: km.parameter };
        let hex: String = pk.to_ssz().iter().map(|b| format!("{b:02x}")).collect();
        println!("zkforge {name} {epochs} epochs, {threads} thread(s): {secs:.3} s, pk ssz = {hex}");
        if a.get(4).map(String::as_str) == Some("sign") {
            devnet4_sign(&inst, &km);
        }
        return;
    }
    if let Some(inst) = zkforge_hashsig::sha3_xmss::sha3_instance_by_name(name) {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
        let t = std::time::Instant::now();
        let km = match pool.install(|| inst.key_gen(&mut rand_chacha::ChaCha20Rng::from_seed([0x42; 32]), 0, epochs)) {
            Ok(km) => km,
            Err(e) => {
                eprintln!("{name}: {e}");
                std::process::exit(2);
            }
        };
        println!("{name} {epochs} epochs, {threads} thread(s): {:.3} s, root[0] = {}", t.elapsed().as_secs_f64(), km.root[0]);
        return;
    }
    match instance_by_name(name).expect("known scheme").hash_len {
        7 => run::<7>(name, epochs, threads),
        _ => run::<8>(name, epochs, threads),
    }
}

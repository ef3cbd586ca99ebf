//! Time key generation of a Poseidon2 instantiation on a given number of threads (run under
//! `/usr/bin/time -v` for peak memory): `cargo run --release --example keygen_time --
//! poseidon2_toplevel_lifetime32_dim64_base8 131072 1`. Seed 0x42 x 32 through ChaCha20: a
//! driver of the reference given the same seed prints the same public key (BENCHMARKS.md,
//! "Key generation against leanSig built natively").
use rand_chacha::rand_core::SeedableRng;
use zkforge_hashsig::keygen::key_gen;
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

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let name = a.get(1).map(String::as_str).unwrap_or("poseidon2_toplevel_lifetime32_dim64_base8");
    let epochs: u64 = a.get(2).and_then(|x| x.parse().ok()).unwrap_or(131072);
    let threads: usize = a.get(3).and_then(|x| x.parse().ok()).unwrap_or(1);
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

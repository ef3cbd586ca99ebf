//! Time key generation of a Poseidon2 instantiation on a given number of threads (run under
//! `/usr/bin/time -v` for peak memory): `cargo run --release --example keygen_time --
//! poseidon2_toplevel_lifetime32_dim64_base8 131072 1`.
use rand_chacha::rand_core::SeedableRng;
use zkforge_hashsig::keygen::key_gen;
use zkforge_hashsig::scheme::instance_by_name;
use zkforge_hashsig::tweak_hash::Perms;

fn run<const H: usize>(name: &str, epochs: u64, threads: usize) {
    let inst = instance_by_name(name).expect("known scheme");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
    let perms = Perms::default();
    let t = std::time::Instant::now();
    let km = pool.install(|| key_gen::<5, 2, H, 9>(&perms, &inst.shape, &mut rand_chacha::ChaCha20Rng::from_seed([0x42; 32]), 0, epochs));
    println!("{name} {epochs} epochs, {threads} thread(s): {:.3} s, root[0] = {}", t.elapsed().as_secs_f64(), km.root[0].to_canonical());
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let name = a.get(1).map(String::as_str).unwrap_or("poseidon2_toplevel_lifetime32_dim64_base8");
    let epochs: u64 = a.get(2).and_then(|x| x.parse().ok()).unwrap_or(131072);
    let threads: usize = a.get(3).and_then(|x| x.parse().ok()).unwrap_or(1);
    if let Some(inst) = zkforge_hashsig::sha3_xmss::sha3_instance_by_name(name) {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
        let t = std::time::Instant::now();
        let km = pool.install(|| inst.key_gen(&mut rand_chacha::ChaCha20Rng::from_seed([0x42; 32]), 0, epochs));
        println!("{name} {epochs} epochs, {threads} thread(s): {:.3} s, root[0] = {}", t.elapsed().as_secs_f64(), km.root[0]);
        return;
    }
    match instance_by_name(name).expect("known scheme").hash_len {
        7 => run::<7>(name, epochs, threads),
        _ => run::<8>(name, epochs, threads),
    }
}

//! Time signing and verification of a Poseidon2 instantiation (median and mean of N runs each, after
//! key generation for 1024 epochs; epochs of the prepared interval): `cargo run --release --example sign_verify_time --
//! poseidon2_winternitz_lifetime18_w8 200`. With the environment variable `ONE_PASS` set, packed
//! Poseidon2 runs its internal rounds in one pass (`PackedForm::tail_first` off), for A/B timing.
use rand_chacha::rand_core::SeedableRng;
use zkforge_hashsig::keygen::key_gen;
use zkforge_hashsig::scheme::instance_by_name;
use zkforge_hashsig::tweak_hash::Perms;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
    v[v.len() / 2]
}

fn run<const H: usize, const R: usize>(name: &str, n: u32) {
    let inst = instance_by_name(name).expect("known scheme");
    let perms = Perms::default();
    let layers = inst.layers();
    let epochs = 1024.min(1u64 << inst.shape.log_lifetime);
    let key = key_gen::<5, 2, H, 9>(&perms, &inst.shape, &mut rand_chacha::ChaCha20Rng::from_seed([0x42; 32]), 0, epochs).expect("activation within the lifetime");
    // epochs of the prepared interval (the first two bottom trees), as a key store keeps it
    let prepared = epochs.min(2 << (inst.shape.log_lifetime / 2));
    let (mut ts, mut tv) = (Vec::new(), Vec::new());
    for i in 0..n {
        let e = (i as u64 * 7 % prepared) as u32;
        let msg = [i as u8; 32];
        let t = std::time::Instant::now();
        let sig = inst.sign::<5, 2, H, 9, R>(&perms, &layers, &key, e, &msg).expect("sign");
        ts.push(t.elapsed().as_secs_f64());
        let t = std::time::Instant::now();
        assert!(inst.verify::<5, 2, H, 9, R>(&perms, &layers, &key.root, &key.parameter, e, &msg, &sig));
        tv.push(t.elapsed().as_secs_f64());
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64 * 1e6;
    let (ms, mv) = (mean(&ts), mean(&tv));
    println!("{name}: sign {:.1} us, verify {:.1} us (medians of {n}; means {ms:.1} and {mv:.1} us)", median(ts) * 1e6, median(tv) * 1e6);
}

fn main() {
    if std::env::var_os("ONE_PASS").is_some() {
        use zkforge_hashsig::poseidon2::{set_packed_form, PackedForm};
        set_packed_form(PackedForm { tail_first: false, ..PackedForm::DEFAULT });
        println!("packed Poseidon2: internal rounds in one pass");
    }
    let a: Vec<String> = std::env::args().collect();
    let name = a.get(1).map(String::as_str).unwrap_or("poseidon2_winternitz_lifetime18_w8");
    let n: u32 = a.get(2).and_then(|x| x.parse().ok()).unwrap_or(200);
    let inst = instance_by_name(name).expect("known scheme");
    match (inst.hash_len, inst.rand_len) {
        (8, 7) => run::<8, 7>(name, n),
        (7, 6) => run::<7, 6>(name, n),
        (7, 5) => run::<7, 5>(name, n),
        (8, 6) => run::<8, 6>(name, n),
        other => panic!("no build for (hash_len, rand_len) = {other:?}"),
    }
}

//! hash-sig's Winternitz and target-sum instantiations of lifetime 2^18 (w = 8; 1024 active
//! epochs): per-layer values, public keys from the seeded RNG (ChaCha20, and rand 0.9's StdRng
//! = ChaCha12), every signature byte for byte, verification and the negative cases.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use serde_json::Value;
use zkforge_hashsig::keygen::key_gen;
use zkforge_hashsig::koalabear::Kb;
use zkforge_hashsig::prf;
use zkforge_hashsig::scheme::{instance_by_name, Instance, Signature};
use zkforge_hashsig::tweak_hash::Perms;

const PL: usize = 5;
const T: usize = 2;
const CAP: usize = 9;

fn kbs(v: &Value) -> Vec<u32> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect()
}

fn arr<const N: usize>(v: &Value) -> [Kb; N] {
    let x = kbs(v);
    assert_eq!(x.len(), N);
    core::array::from_fn(|i| Kb::new(x[i]))
}

fn canon(a: &[Kb]) -> Vec<u32> {
    a.iter().map(|x| x.to_canonical()).collect()
}

fn hex_bytes(h: &str) -> Vec<u8> {
    (0..h.len() / 2).map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap()).collect()
}

/// Per-layer values: PRF chain starts, steps, chain ends, first tree node, message hash and
/// encoding attempts.
fn check_layers<const H: usize, const R: usize>(d: &Value, inst: &Instance) {
    let perms = Perms::default();
    let l = &d["layers"];
    let key: [u8; 32] = hex_bytes(d["secret_key_info"]["prf_key_hex"].as_str().unwrap()).try_into().unwrap();
    let parameter: [Kb; PL] = arr(&l["parameter"]);
    assert_eq!(l["dimension_num_chains"].as_u64().unwrap() as usize, inst.shape.dimension);
    assert_eq!(l["base_chain_length"].as_u64().unwrap() as u32, inst.shape.base);
    assert_eq!(l["max_tries"].as_u64().unwrap(), inst.max_tries);
    let last = (inst.shape.base - 1) as u8;
    for c in l["chains"].as_array().unwrap() {
        let epoch = c["epoch"].as_u64().unwrap() as u32;
        if let Some(ends) = c.get("all_chain_ends") {
            // the leaf sponge, with the reference's separator chain count
            let ends: Vec<[Kb; H]> = ends.as_array().unwrap().iter().map(arr).collect();
            assert_eq!(ends.len(), inst.shape.dimension);
            for (i, e) in ends.iter().enumerate() {
                let start: [Kb; H] = prf::chain_start(&key, epoch, i as u64);
                assert_eq!(perms.chain::<PL, T, H>(&parameter, epoch, i as u8, 0, last, &start), *e);
            }
            let leaf = perms.leaf::<PL, T, H, CAP>(&parameter, epoch, &ends, inst.shape.sponge_chunks as u32);
            assert_eq!(canon(&leaf), kbs(&c["leaf_hash_tree_tweak_level0_pos_epoch"]));
            continue;
        }
        let chain = c["chain_index"].as_u64().unwrap();
        let start: [Kb; H] = prf::chain_start(&key, epoch, chain);
        assert_eq!(canon(&start), kbs(&c["start_prf_domain_element"]));
        let s1 = perms.chain_step::<PL, T, H>(&parameter, epoch, chain as u8, 1, &start);
        assert_eq!(canon(&s1), kbs(&c["after_step_1_pos1"]));
        let s2 = perms.chain_step::<PL, T, H>(&parameter, epoch, chain as u8, 2, &s1);
        assert_eq!(canon(&s2), kbs(&c["after_step_2_pos2"]));
        let end = perms.chain::<PL, T, H>(&parameter, epoch, chain as u8, 0, last, &start);
        assert_eq!(canon(&end), kbs(&c["chain_end_after_base_minus_1_steps"]));
    }
    for n in l["tree"].as_array().unwrap() {
        let node = perms.node::<PL, T, H>(&parameter, n["level"].as_u64().unwrap() as u8, n["pos_in_level"].as_u64().unwrap() as u32, &arr(&n["left"]), &arr(&n["right"]));
        assert_eq!(canon(&node), kbs(&n["parent"]));
    }
    let layers = inst.layers();
    for e in l["message_hash_and_encoding"].as_array().unwrap() {
        let epoch = e["epoch"].as_u64().unwrap() as u32;
        let message: [u8; 32] = hex_bytes(e["message_hex"].as_str().unwrap()).try_into().unwrap();
        let rho: [Kb; R] = prf::randomness(&key, epoch, &message, e["prf_counter"].as_u64().unwrap());
        assert_eq!(canon(&rho), kbs(&e["rho"]));
        let chunks = kbs(&e["message_hash_chunks"]);
        let digits = perms.poseidon_message_hash::<PL, T, R, 9>(&parameter, epoch, &rho, &message, chunks.len(), inst.shape.base);
        assert_eq!(digits.iter().map(|&x| x as u32).collect::<Vec<_>>(), chunks);
        let cw = inst.codeword::<PL, T, R>(&perms, &layers, &parameter, epoch, &rho, &message);
        match &e["encoding_result"] {
            Value::String(s) => {
                assert!(s.starts_with("Err(Mismatch"), "{s}");
                assert!(cw.is_none());
            }
            v => assert_eq!(cw.unwrap().iter().map(|&x| x as u32).collect::<Vec<_>>(), kbs(v)),
        }
    }
}

/// Key generation, signatures, verification and negative cases.
fn check_scheme<const H: usize, const R: usize>(d: &Value, inst: &Instance, rng: &mut impl RngCore) {
    let perms = Perms::default();
    let layers = inst.layers();
    let start = d["activation_epoch_requested"].as_u64().unwrap();
    let num = d["num_active_epochs_requested"].as_u64().unwrap();
    let km = key_gen::<PL, T, H, CAP>(&perms, &inst.shape, rng, start, num).unwrap();
    assert_eq!(hex_bytes(d["secret_key_info"]["prf_key_hex"].as_str().unwrap()), km.prf_key);
    assert_eq!(canon(&km.root), kbs(&d["public_key_decoded"]["root"]));
    let pk = zkforge_hashsig::scheme::PublicKey::<PL, H> { root: km.root, parameter: km.parameter };
    assert_eq!(pk.to_bincode_legacy(), hex_bytes(d["public_key_bincode_legacy_hex"].as_str().unwrap()));
    let (ll, dim) = (inst.shape.log_lifetime as usize, inst.shape.dimension);
    for s in d["signatures"].as_array().unwrap() {
        let epoch = s["epoch"].as_u64().unwrap() as u32;
        let msg: [u8; 32] = hex_bytes(s["message_hex"].as_str().unwrap()).try_into().unwrap();
        let sig = inst.sign::<PL, T, H, CAP, R>(&perms, &layers, &km, epoch, &msg).unwrap();
        let bytes = sig.to_bincode_legacy();
        assert_eq!(bytes, hex_bytes(s["signature_bincode_legacy_hex"].as_str().unwrap()), "signature at epoch {epoch}");
        assert_eq!(Signature::<R, H>::from_bincode_legacy(&bytes, ll, dim).unwrap(), sig);
        assert_eq!(Signature::<R, H>::from_ssz(&sig.to_ssz(), ll, dim).unwrap(), sig);
        assert!(inst.verify::<PL, T, H, CAP, R>(&perms, &layers, &km.root, &km.parameter, epoch, &msg, &sig));
        for neg in s["negative_cases"].as_array().unwrap() {
            let case = neg["case"].as_str().unwrap();
            let ne = neg["epoch"].as_u64().unwrap() as u32;
            let nmsg: [u8; 32] = match neg.get("message_hex").and_then(|m| m.as_str()) {
                Some(h) if h != "same" => hex_bytes(h).try_into().unwrap(),
                _ => msg,
            };
            let nsig = match neg.get("signature_bincode_legacy_hex") {
                Some(h) => match Signature::<R, H>::from_bincode_legacy(&hex_bytes(h.as_str().unwrap()), ll, dim) {
                    Ok(s) => s,
                    Err(_) => continue,
                },
                None => sig.clone(),
            };
            let mut root = km.root;
            if let Some(pkh) = neg.get("public_key_bincode_legacy_hex") {
                root = zkforge_hashsig::scheme::PublicKey::<PL, H>::from_bincode_legacy(&hex_bytes(pkh.as_str().unwrap())).unwrap().root;
            }
            assert!(!inst.verify::<PL, T, H, CAP, R>(&perms, &layers, &root, &km.parameter, ne, &nmsg, &nsig), "{case} must fail");
        }
    }
    // truncated and non-canonical encodings
    let good = hex_bytes(d["signatures"][0]["signature_bincode_legacy_hex"].as_str().unwrap());
    assert!(Signature::<R, H>::from_bincode_legacy(&good[..good.len() - 1], ll, dim).is_err());
    let mut bad = good;
    bad[8..12].copy_from_slice(&0x7f00_0001u32.to_le_bytes());
    assert!(Signature::<R, H>::from_bincode_legacy(&bad, ll, dim).is_err());
}

fn load(s: &str) -> Value {
    serde_json::from_str(s).unwrap()
}

#[test]
fn winternitz_lifetime18_w8() {
    let d = load(include_str!("vectors/poseidon2_winternitz_lifetime18_w8.json"));
    let inst = instance_by_name(d["name"].as_str().unwrap()).unwrap();
    assert_eq!((inst.hash_len, inst.rand_len, inst.shape.sponge_chunks), (7, 5, 20));
    check_layers::<7, 5>(&d, &inst);
    check_scheme::<7, 5>(&d, &inst, &mut rand_chacha::ChaCha20Rng::from_seed([0x42; 32]));
}

#[test]
fn winternitz_lifetime18_w8_stdrng() {
    let d = load(include_str!("vectors/poseidon2_winternitz_lifetime18_w8_stdrng.json"));
    let inst = instance_by_name("poseidon2_winternitz_lifetime18_w8").unwrap();
    // rand 0.9's StdRng is ChaCha12 with the seed as key
    check_scheme::<7, 5>(&d, &inst, &mut rand_chacha::ChaCha12Rng::from_seed([0x42; 32]));
}

#[test]
fn target_sum_lifetime18_w8_off10() {
    let d = load(include_str!("vectors/poseidon2_targetsum_lifetime18_w8_off10.json"));
    let inst = instance_by_name(d["name"].as_str().unwrap()).unwrap();
    assert_eq!((inst.hash_len, inst.rand_len), (7, 6));
    check_layers::<7, 6>(&d, &inst);
    check_scheme::<7, 6>(&d, &inst, &mut rand_chacha::ChaCha20Rng::from_seed([0x42; 32]));
}

#[test]
fn every_named_instance_is_consistent() {
    for life in [18, 20] {
        for w in [1u32, 2, 4, 8] {
            let wi = instance_by_name(&format!("poseidon2_winternitz_lifetime{life}_w{w}")).unwrap();
            // the checksum of the largest digit sum must fit the checksum chunks
            let max_checksum = wi.shape.sponge_chunks as u64 * ((1u64 << w) - 1);
            assert!(max_checksum < 1u64 << (w as usize * (wi.shape.dimension - wi.shape.sponge_chunks)), "w{w}");
            assert!(wi.shape.dimension <= 256 && 5 + 2 + wi.hash_len <= 16);
            for off in ["nooff", "off10"] {
                let ti = instance_by_name(&format!("poseidon2_targetsum_lifetime{life}_w{w}_{off}")).unwrap();
                assert_eq!(ti.shape.dimension, wi.shape.sponge_chunks);
            }
        }
    }
    assert!(instance_by_name("poseidon2_toplevel_lifetime18_dim64_base8").is_some());
    assert!(instance_by_name("poseidon2_winternitz_lifetime18_w3").is_none());
    assert!(instance_by_name("poseidon2_targetsum_lifetime18_w8").is_none());
}

/// A top-level 2^18 key (HASH_LEN 7, RAND_LEN 6) signs and verifies; no reference vectors
/// exist for this instance, so it is checked for self-consistency and tamper rejection.
#[test]
fn top_level_lifetime18_round_trip() {
    let inst = instance_by_name("poseidon2_toplevel_lifetime18_dim64_base8").unwrap();
    let perms = Perms::default();
    let layers = inst.layers();
    let km = key_gen::<PL, T, 7, CAP>(&perms, &inst.shape, &mut rand_chacha::ChaCha20Rng::from_seed([7; 32]), 1000, 10).unwrap();
    assert_eq!((km.activation_start, km.active_epochs), (512, 1024));
    let msg = [9u8; 32];
    let sig = inst.sign::<PL, T, 7, CAP, 6>(&perms, &layers, &km, 1000, &msg).unwrap();
    assert!(inst.verify::<PL, T, 7, CAP, 6>(&perms, &layers, &km.root, &km.parameter, 1000, &msg, &sig));
    assert!(!inst.verify::<PL, T, 7, CAP, 6>(&perms, &layers, &km.root, &km.parameter, 1001, &msg, &sig));
    assert_eq!(sig.to_ssz().len(), 4 + 24 + 4 + 4 + 18 * 28 + 64 * 28);
}

/// hash-sig's SHA3-256 Winternitz 2^18 w = 8 (HASH_LEN 28, RAND_LEN 20 bytes, 20 chains).
#[test]
fn sha3_winternitz_lifetime18_w8() {
    use zkforge_hashsig::sha3_xmss::sha3_instance_by_name;
    let d = load(include_str!("vectors/sha3_winternitz_lifetime18_w8.json"));
    let inst = sha3_instance_by_name(d["name"].as_str().unwrap()).unwrap();
    assert_eq!(inst.dimension(), 20);
    let l = &d["layers"];
    let key: [u8; 32] = hex_bytes(d["secret_key_info"]["prf_key_hex"].as_str().unwrap()).try_into().unwrap();
    let parameter: [u8; 18] = hex_bytes(l["parameter"].as_str().unwrap()).try_into().unwrap();
    let h = |v: &Value| hex_bytes(v.as_str().unwrap());
    for c in l["chains"].as_array().unwrap() {
        let epoch = c["epoch"].as_u64().unwrap() as u32;
        if let Some(ends) = c.get("all_chain_ends") {
            let ends: Vec<[u8; 32]> = ends.as_array().unwrap().iter().map(|e| { let mut n = [0u8; 32]; n[..28].copy_from_slice(&h(e)); n }).collect();
            assert_eq!(inst.leaf(&parameter, epoch, &ends)[..28], h(&c["leaf_hash_tree_tweak_level0_pos_epoch"])[..]);
            continue;
        }
        let chain = c["chain_index"].as_u64().unwrap();
        let start = inst.chain_start(&key, epoch, chain);
        assert_eq!(start[..28], h(&c["start_prf_domain_element"])[..]);
        assert_eq!(inst.chain(&parameter, epoch, chain as u8, 0, 1, &start)[..28], h(&c["after_step_1_pos1"])[..]);
        assert_eq!(inst.chain(&parameter, epoch, chain as u8, 0, 2, &start)[..28], h(&c["after_step_2_pos2"])[..]);
        assert_eq!(inst.chain(&parameter, epoch, chain as u8, 0, 255, &start)[..28], h(&c["chain_end_after_base_minus_1_steps"])[..]);
    }
    for e in l["message_hash_and_encoding"].as_array().unwrap() {
        let epoch = e["epoch"].as_u64().unwrap() as u32;
        let message: [u8; 32] = h(&e["message_hex"]).try_into().unwrap();
        let rho = inst.randomness(&key, epoch, &message, e["prf_counter"].as_u64().unwrap());
        assert_eq!(rho[..20], h(&e["rho"])[..]);
        assert_eq!(inst.message_hash(&parameter, epoch, &rho, &message).iter().map(|&x| x as u32).collect::<Vec<_>>(), kbs(&e["message_hash_chunks"]));
        assert_eq!(inst.codeword(&parameter, epoch, &rho, &message).unwrap().iter().map(|&x| x as u32).collect::<Vec<_>>(), kbs(&e["encoding_result"]));
    }
    let km = inst.key_gen(&mut rand_chacha::ChaCha20Rng::from_seed([0x42; 32]), 0, 1024).unwrap();
    assert_eq!(km.prf_key, key);
    assert_eq!(inst.public_key_bytes(&km), h(&d["public_key_bincode_legacy_hex"]));
    for s in d["signatures"].as_array().unwrap() {
        let epoch = s["epoch"].as_u64().unwrap() as u32;
        let msg: [u8; 32] = h(&s["message_hex"]).try_into().unwrap();
        let sig = inst.sign(&km, epoch, &msg).unwrap();
        let bytes = inst.signature_to_bytes(&sig);
        assert_eq!(bytes, h(&s["signature_bincode_legacy_hex"]), "epoch {epoch}");
        assert_eq!(inst.signature_from_bytes(&bytes).unwrap(), sig);
        assert!(inst.verify(&km.root, &km.parameter, epoch, &msg, &sig));
        for neg in s["negative_cases"].as_array().unwrap() {
            let ne = neg["epoch"].as_u64().unwrap() as u32;
            let nmsg: [u8; 32] = match neg.get("message_hex").and_then(|m| m.as_str()) {
                Some(x) if x != "same" => hex_bytes(x).try_into().unwrap(),
                _ => msg,
            };
            let nsig = match neg.get("signature_bincode_legacy_hex") {
                Some(x) => inst.signature_from_bytes(&h(x)).unwrap(),
                None => sig.clone(),
            };
            let root = match neg.get("public_key_bincode_legacy_hex") {
                Some(x) => inst.public_key_from_bytes(&h(x)).unwrap().0,
                None => km.root,
            };
            assert!(!inst.verify(&root, &km.parameter, ne, &nmsg, &nsig), "{}", neg["case"]);
        }
        assert!(inst.signature_from_bytes(&bytes[1..]).is_err());
    }
    assert!(sha3_instance_by_name("sha3_targetsum_lifetime20_w4_off10").is_some());
    assert!(sha3_instance_by_name("sha3_winternitz_lifetime19_w8").is_none());
}

fn check_devnet4(d: &Value) {
    use zkforge_hashsig::devnet4::Devnet4;
    use zkforge_hashsig::scheme::PublicKey;
    let inst = Devnet4::by_name(d["name"].as_str().unwrap()).unwrap();
    // rand 0.10's StdRng: ChaCha12 keyed by the seed
    let seed: [u8; 32] = hex_bytes(d["seed_hex"].as_str().unwrap()).try_into().unwrap();
    let km = inst.key_gen(&mut rand_chacha::ChaCha12Rng::from_seed(seed), d["activation_epoch_requested"].as_u64().unwrap(), d["num_active_epochs_requested"].as_u64().unwrap()).unwrap();
    let pk = PublicKey::<PL, 8> { root: km.root, parameter: km.parameter };
    assert_eq!(pk.to_ssz(), hex_bytes(d["public_key_ssz_hex"].as_str().unwrap()), "public key");
    assert_eq!(pk.to_bincode_legacy(), hex_bytes(d["public_key_bincode_legacy_hex"].as_str().unwrap()));
    let (ll, dim) = (inst.log_lifetime as usize, inst.dimension);
    for s in d["signatures"].as_array().unwrap() {
        let epoch = s["epoch"].as_u64().unwrap() as u32;
        let msg: [u8; 32] = hex_bytes(s["message_hex"].as_str().unwrap()).try_into().unwrap();
        let sig = inst.sign(&km, epoch, &msg).unwrap();
        let ssz = hex_bytes(s["signature_ssz_hex"].as_str().unwrap());
        assert_eq!(sig.to_ssz(), ssz, "signature at epoch {epoch}");
        assert_eq!(Signature::<7, 8>::from_ssz(&ssz, ll, dim).unwrap(), sig);
        assert_eq!(sig.to_bincode_legacy().len() as u64, s["signature_bincode_legacy_len"].as_u64().unwrap());
        assert!(inst.verify(&km.root, &km.parameter, epoch, &msg, &sig));
        for neg in s["negative_cases"].as_array().unwrap() {
            let ne = neg.get("epoch").and_then(|e| e.as_u64()).map_or(epoch, |e| e as u32);
            let nmsg: [u8; 32] = match neg.get("message_hex").and_then(|m| m.as_str()) {
                Some(h) if h != "same" => hex_bytes(h).try_into().unwrap(),
                _ => msg,
            };
            let nsig = match neg.get("signature_ssz_hex") {
                Some(h) => match Signature::<7, 8>::from_ssz(&hex_bytes(h.as_str().unwrap()), ll, dim) {
                    Ok(s) => s,
                    Err(_) => continue,
                },
                None => sig.clone(),
            };
            assert!(!inst.verify(&km.root, &km.parameter, ne, &nmsg, &nsig), "{}", neg["case"]);
        }
    }
}

/// leanSig c08a3ba (devnet 4, Poseidon1, aborting target sum): the 2^8 test instance's keys
/// and signatures byte for byte.
#[test]
fn devnet4_lifetime8() {
    let v = load(include_str!("vectors/leansig_c08a3ba_devnet4_poseidon1_ssz.json"));
    check_devnet4(&v[0]);
}

/// The same vectors under every Poseidon1 switch: each `Registers` value (AVX-512 and AVX2
/// where the CPU has them) with each `Form` (sparse or dense partial rounds, packed batches or
/// one by one, IFMA matrix product or not, width 24's MDS product as a convolution or dense,
/// width 16's split by the CRT or whole, one-state partial rounds deferred or not).
/// The switches are process-wide, and every value gives the same bytes, so other
/// tests running beside this one stay correct.
#[test]
fn devnet4_lifetime8_every_poseidon1_form() {
    use zkforge_hashsig::poseidon1::{set_form, set_registers, Form, Registers};
    let v = load(include_str!("vectors/leansig_c08a3ba_devnet4_poseidon1_ssz.json"));
    for registers in [Registers::Avx512, Registers::Avx2, Registers::Portable] {
        for bits in 0..64u8 {
            set_registers(registers);
            set_form(Form { sparse_partial: bits & 1 != 0, packed: bits & 2 != 0, ifma_mds: bits & 4 != 0, circulant_ntt: bits & 8 != 0, mds16_crt: bits & 16 != 0, deferred_partial: bits & 32 != 0 });
            check_devnet4(&v[0]);
        }
    }
    set_registers(Registers::Auto);
    set_form(Form::DEFAULT);
}

/// The same for the 2^32 instance (131072 active epochs): slow with the textbook Poseidon1,
/// run by hand with `--ignored`.
#[test]
#[ignore]
fn devnet4_lifetime32() {
    let v = load(include_str!("vectors/leansig_c08a3ba_devnet4_poseidon1_ssz.json"));
    check_devnet4(&v[1]);
}

/// Key generation runs its bottom trees, and the leaf groups and nodes inside each, on the
/// caller's rayon pool: every layer is the same on one thread (no parallelism) and on three
/// (more threads than trees), for the Poseidon2 generation (activations of two and three
/// bottom trees), devnet 4 (sixteen trees) and SHA3.
#[test]
fn key_gen_same_on_every_pool() {
    use zkforge_hashsig::devnet4::Devnet4;
    use zkforge_hashsig::sha3_xmss::sha3_instance_by_name;
    let pool = |n: usize| rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap();
    let (one, three) = (pool(1), pool(3));
    let perms = Perms::default();
    for name in ["poseidon2_toplevel_lifetime18_dim64_base8", "poseidon2_winternitz_lifetime18_w8"] {
        let inst = instance_by_name(name).unwrap();
        for (start, num) in [(1000, 10), (0, 1536)] {
            let gen = |p: &rayon::ThreadPool| p.install(|| key_gen::<PL, T, 7, CAP>(&perms, &inst.shape, &mut rand_chacha::ChaCha20Rng::from_seed([3; 32]), start, num).unwrap());
            let (a, b) = (gen(&one), gen(&three));
            assert_eq!((a.root, &a.top_layers, &a.prepared), (b.root, &b.top_layers, &b.prepared), "{name} ({start}, {num})");
        }
    }
    let d4 = Devnet4::by_name("leansig_head_aborting_lifetime8_dim46_base8").unwrap();
    let gen = |p: &rayon::ThreadPool| p.install(|| d4.key_gen(&mut rand_chacha::ChaCha12Rng::from_seed([4; 32]), 0, 256).unwrap());
    let (a, b) = (gen(&one), gen(&three));
    assert_eq!((a.root, &a.top_layers, &a.prepared), (b.root, &b.top_layers, &b.prepared), "devnet 4");
    let s3 = sha3_instance_by_name("sha3_winternitz_lifetime18_w8").unwrap();
    let gen = |p: &rayon::ThreadPool| p.install(|| s3.key_gen(&mut rand_chacha::ChaCha20Rng::from_seed([5; 32]), 0, 512).unwrap());
    let (a, b) = (gen(&one), gen(&three));
    assert_eq!((a.root, &a.top_layers, &a.prepared), (b.root, &b.top_layers, &b.prepared), "sha3");
}

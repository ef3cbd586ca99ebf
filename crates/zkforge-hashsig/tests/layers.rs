//! hash-sig's per-layer vectors (top-level target-sum, lifetime 2^8, dimension 64, base 8):
//! PRF chain starts, chain steps, chain ends, the sponge leaf and the first tree node.

use serde_json::Value;
use zkforge_hashsig::koalabear::Kb;
use zkforge_hashsig::prf;
use zkforge_hashsig::tweak_hash::Perms;

const PL: usize = 5;
const T: usize = 2;
const H: usize = 8;
const CAP: usize = 9;

fn file() -> Value {
    serde_json::from_str(include_str!("vectors/poseidon2_toplevel_lifetime8_dim64_base8.json")).unwrap()
}

fn kbs(v: &Value) -> Vec<u32> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect()
}

fn arr<const N: usize>(v: &Value) -> [Kb; N] {
    let x = kbs(v);
    core::array::from_fn(|i| Kb::new(x[i]))
}

fn canon<const N: usize>(a: &[Kb; N]) -> Vec<u32> {
    a.iter().map(|x| x.to_canonical()).collect()
}

fn key(d: &Value) -> [u8; 32] {
    let hex = d["secret_key_info"]["prf_key_hex"].as_str().unwrap();
    core::array::from_fn(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
}

#[test]
fn chains_leaf_and_node() {
    let d = file();
    let perms = Perms::default();
    let key = key(&d);
    let parameter: [Kb; PL] = arr(&d["layers"]["parameter"]);
    let mut checked = 0;
    for c in d["layers"]["chains"].as_array().unwrap() {
        let epoch = c["epoch"].as_u64().unwrap() as u32;
        if let Some(ends) = c.get("all_chain_ends") {
            let ends: Vec<[Kb; H]> = ends.as_array().unwrap().iter().map(arr).collect();
            // recompute every end from the PRF
            for (i, e) in ends.iter().enumerate() {
                let start: [Kb; H] = prf::chain_start(&key, epoch, i as u64);
                assert_eq!(perms.chain::<PL, T, H>(&parameter, epoch, i as u8, 0, 7, &start), *e, "end of chain {i}");
            }
            let leaf = perms.leaf::<PL, T, H, CAP>(&parameter, epoch, &ends, 64);
            assert_eq!(canon(&leaf), kbs(&c["leaf_hash_tree_tweak_level0_pos_epoch"]), "leaf {epoch}");
            checked += 1;
            continue;
        }
        let chain = c["chain_index"].as_u64().unwrap();
        let start: [Kb; H] = prf::chain_start(&key, epoch, chain);
        assert_eq!(canon(&start), kbs(&c["start_prf_domain_element"]), "prf {epoch}/{chain}");
        let s1 = perms.chain_step::<PL, T, H>(&parameter, epoch, chain as u8, 1, &start);
        assert_eq!(canon(&s1), kbs(&c["after_step_1_pos1"]));
        let s2 = perms.chain_step::<PL, T, H>(&parameter, epoch, chain as u8, 2, &s1);
        assert_eq!(canon(&s2), kbs(&c["after_step_2_pos2"]));
        let end = perms.chain::<PL, T, H>(&parameter, epoch, chain as u8, 0, 7, &start);
        assert_eq!(canon(&end), kbs(&c["chain_end_after_base_minus_1_steps"]));
        checked += 1;
    }
    assert!(checked >= 8);
    for n in d["layers"]["tree"].as_array().unwrap() {
        let node = perms.node::<PL, T, H>(&parameter, n["level"].as_u64().unwrap() as u8, n["pos_in_level"].as_u64().unwrap() as u32, &arr(&n["left"]), &arr(&n["right"]));
        assert_eq!(canon(&node), kbs(&n["parent"]));
    }
}

#[test]
fn rng_sampling_matches_reference() {
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    let v: Value = serde_json::from_str(include_str!("vectors/poseidon2_koalabear_permutation.json")).unwrap();
    let r = &v["rng_field_sampling"];
    let mut rng = rand_chacha::ChaCha20Rng::from_seed([0x42; 32]);
    let words: Vec<u32> = (0..8).map(|_| rng.next_u32()).collect();
    assert_eq!(words, kbs(&r["first_next_u32"]));
    let mut rng = rand_chacha::ChaCha20Rng::from_seed([0x42; 32]);
    let f: Vec<u32> = (0..8).map(|_| zkforge_hashsig::keygen::sample_kb(&mut rng).to_canonical()).collect();
    assert_eq!(f, kbs(&r["first_8_sampled_field_elements_canonical"]));
}

#[test]
fn key_gen_reproduces_public_key_lifetime_2_8() {
    use rand_chacha::rand_core::SeedableRng;
    use zkforge_hashsig::keygen::{key_gen, Shape};
    let d = file();
    let mut rng = rand_chacha::ChaCha20Rng::from_seed([0x42; 32]);
    let shape = Shape::new(8, 64, 8);
    let start = d["activation_epoch_requested"].as_u64().unwrap();
    let num = d["num_active_epochs_requested"].as_u64().unwrap();
    let km = key_gen::<PL, T, H, CAP>(&Perms::default(), &shape, &mut rng, start, num).unwrap();
    assert_eq!(km.prf_key, key(&d));
    assert_eq!(canon(&km.parameter), kbs(&d["public_key_decoded"]["parameter"]));
    assert_eq!(canon(&km.root), kbs(&d["public_key_decoded"]["root"]));
    // bincode-legacy public key: root || parameter as Montgomery u32 LE
    let mut pk = Vec::new();
    for x in km.root.iter().chain(km.parameter.iter()) {
        pk.extend_from_slice(&x.to_monty().to_le_bytes());
    }
    let hex: String = pk.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hex, d["public_key_bincode_legacy_hex"].as_str().unwrap());
}

#[test]
fn message_hash_and_target_sum_encoding() {
    use zkforge_hashsig::hypercube::{target_sum, Layers};
    let d = file();
    let perms = Perms::default();
    let key = key(&d);
    let parameter: [Kb; PL] = arr(&d["layers"]["parameter"]);
    let layers = Layers::new(8, 64);
    let mut n = 0;
    for e in d["layers"]["message_hash_and_encoding"].as_array().unwrap() {
        let epoch = e["epoch"].as_u64().unwrap() as u32;
        let hex = e["message_hex"].as_str().unwrap();
        let message: [u8; 32] = core::array::from_fn(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap());
        let counter = e["prf_counter"].as_u64().unwrap();
        let rho: [Kb; 7] = prf::randomness(&key, epoch, &message, counter);
        assert_eq!(canon(&rho), kbs(&e["rho"]));
        let chunks = perms.top_level_message_hash::<PL, T, 7, 9, 15>(&layers, 64, 77, 1, &parameter, epoch, &rho, &message);
        let want: Vec<u8> = kbs(&e["message_hash_chunks"]).iter().map(|&x| x as u8).collect();
        assert_eq!(chunks, want, "epoch {epoch} counter {counter}");
        match &e["encoding_result"] {
            Value::String(s) => {
                let got = target_sum(&chunks, 375).unwrap_err();
                assert_eq!(s, &format!("Err(Mismatch {{ expected: 375, actual: {got} }})"));
            }
            v => assert_eq!(target_sum(&chunks, 375).unwrap(), kbs(v).iter().map(|&x| x as u8).collect::<Vec<u8>>()),
        }
        n += 1;
    }
    assert!(n >= 3);
}

fn hex_bytes(h: &str) -> Vec<u8> {
    (0..h.len() / 2).map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap()).collect()
}

#[test]
fn signatures_and_negative_cases_lifetime_2_8() {
    use rand_chacha::rand_core::SeedableRng;
    use zkforge_hashsig::hypercube::Layers;
    use zkforge_hashsig::keygen::key_gen;
    use zkforge_hashsig::scheme::{instance_by_name, Signature};
    let d = file();
    let perms = Perms::default();
    let layers = Layers::new(8, 64);
    let scheme = instance_by_name("poseidon2_toplevel_lifetime8_dim64_base8").unwrap();
    let mut rng = rand_chacha::ChaCha20Rng::from_seed([0x42; 32]);
    let km = key_gen::<PL, T, H, CAP>(&perms, &scheme.shape, &mut rng, 0, 256).unwrap();
    let mut n = 0;
    for s in d["signatures"].as_array().unwrap() {
        let epoch = s["epoch"].as_u64().unwrap() as u32;
        let msg: [u8; 32] = hex_bytes(s["message_hex"].as_str().unwrap()).try_into().unwrap();
        let sig = scheme.sign::<PL, T, H, CAP, 7>(&perms, &layers, &km, epoch, &msg).unwrap();
        let bytes = sig.to_bincode_legacy();
        assert_eq!(bytes, hex_bytes(s["signature_bincode_legacy_hex"].as_str().unwrap()), "signature at epoch {epoch}");
        assert_eq!(Signature::<7, H>::from_bincode_legacy(&bytes, 8, 64).unwrap(), sig);
        assert!(scheme.verify::<PL, T, H, CAP, 7>(&perms, &layers, &km.root, &km.parameter, epoch, &msg, &sig));
        for neg in s["negative_cases"].as_array().unwrap() {
            let case = neg["case"].as_str().unwrap();
            let ne = neg["epoch"].as_u64().unwrap() as u32;
            let nmsg: [u8; 32] = match neg.get("message_hex").and_then(|m| m.as_str()) {
                Some(h) if h != "same" => hex_bytes(h).try_into().unwrap(),
                _ => msg,
            };
            let nsig = match neg.get("signature_bincode_legacy_hex") {
                Some(h) => match Signature::<7, H>::from_bincode_legacy(&hex_bytes(h.as_str().unwrap()), 8, 64) {
                    Ok(s) => s,
                    Err(_) => continue, // a flipped bit that leaves the field: rejected at decoding
                },
                None => sig.clone(),
            };
            let mut root = km.root;
            if let Some(pk) = neg.get("public_key_bincode_legacy_hex") {
                let b = hex_bytes(pk.as_str().unwrap());
                root = core::array::from_fn(|i| Kb::from_monty(u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap())).unwrap());
            }
            assert!(!scheme.verify::<PL, T, H, CAP, 7>(&perms, &layers, &root, &km.parameter, ne, &nmsg, &nsig), "{case} must fail");
        }
        n += 1;
    }
    assert_eq!(n, 5);
    // malformed encodings
    let good = hex_bytes(d["signatures"][0]["signature_bincode_legacy_hex"].as_str().unwrap());
    assert!(Signature::<7, H>::from_bincode_legacy(&good[..good.len() - 1], 8, 64).is_err());
    let mut bad = good.clone();
    bad[8..12].copy_from_slice(&0x7f00_0001u32.to_le_bytes()); // = p
    assert_eq!(Signature::<7, H>::from_bincode_legacy(&bad, 8, 64), Err(zkforge_hashsig::scheme::SchemeError::NonCanonical));
    let mut bad = good;
    bad[0] = 9; // wrong co-path length
    assert!(Signature::<7, H>::from_bincode_legacy(&bad, 8, 64).is_err());
}

#[test]
fn leansig_ssz_lifetime_2_8() {
    use rand_chacha::rand_core::SeedableRng;
    use zkforge_hashsig::hypercube::Layers;
    use zkforge_hashsig::keygen::key_gen;
    use zkforge_hashsig::scheme::{instance_by_name, PublicKey, SchemeError, Signature};
    let v: Value = serde_json::from_str(include_str!("vectors/leansig_f477348_poseidon2_ssz.json")).unwrap();
    let d = &v[0];
    let perms = Perms::default();
    let layers = Layers::new(8, 64);
    let scheme = instance_by_name("poseidon2_toplevel_lifetime8_dim64_base8").unwrap();
    let mut rng = rand_chacha::ChaCha20Rng::from_seed([0x42; 32]);
    let km = key_gen::<PL, T, H, CAP>(&perms, &scheme.shape, &mut rng, 0, 256).unwrap();
    let pk = PublicKey::<PL, H> { root: km.root, parameter: km.parameter };
    assert_eq!(pk.to_ssz(), hex_bytes(d["public_key_ssz_hex"].as_str().unwrap()));
    assert_eq!(pk.to_bincode_legacy(), hex_bytes(d["public_key_bincode_legacy_hex"].as_str().unwrap()));
    assert_eq!(PublicKey::<PL, H>::from_ssz(&pk.to_ssz()).unwrap(), pk);
    assert_eq!(PublicKey::<PL, H>::from_bincode_legacy(&pk.to_bincode_legacy()).unwrap(), pk);
    assert_eq!(PublicKey::<PL, H>::from_ssz(&pk.to_ssz()[1..]), Err(SchemeError::WrongLength));
    let mut bad = pk.to_ssz();
    bad[..4].copy_from_slice(&0x7f00_0001u32.to_le_bytes());
    assert_eq!(PublicKey::<PL, H>::from_ssz(&bad), Err(SchemeError::NonCanonical));
    for s in d["signatures"].as_array().unwrap() {
        let epoch = s["epoch"].as_u64().unwrap() as u32;
        let msg: [u8; 32] = hex_bytes(s["message_hex"].as_str().unwrap()).try_into().unwrap();
        let sig = scheme.sign::<PL, T, H, CAP, 7>(&perms, &layers, &km, epoch, &msg).unwrap();
        let ssz = hex_bytes(s["signature_ssz_hex"].as_str().unwrap());
        assert_eq!(sig.to_ssz(), ssz, "epoch {epoch}");
        let back = Signature::<7, H>::from_ssz(&ssz, 8, 64).unwrap();
        assert_eq!(back, sig);
        // an element >= p is rejected (the reference accepts it: malleability)
        let mut bad = ssz.clone();
        let last = bad.len() - 4;
        let v = u32::from_le_bytes(bad[last..].try_into().unwrap()) + 0x7f00_0001;
        if v > 0x7f00_0001 {
            bad[last..].copy_from_slice(&v.to_le_bytes());
            assert_eq!(Signature::<7, H>::from_ssz(&bad, 8, 64), Err(SchemeError::NonCanonical));
        }
        let mut bad = ssz.clone();
        bad[0] = 0x25;
        assert_eq!(Signature::<7, H>::from_ssz(&bad, 8, 64), Err(SchemeError::WrongLength));
        // the negative case: low bit of the last element flipped
        let mut flipped = ssz.clone();
        flipped[last] ^= 1;
        if let Ok(f) = Signature::<7, H>::from_ssz(&flipped, 8, 64) {
            assert!(!scheme.verify::<PL, T, H, CAP, 7>(&perms, &layers, &pk.root, &pk.parameter, epoch, &msg, &f));
        }
    }
}

/// The batched PRF (eight SHAKE128 instances per AVX-512 call where available) equals the
/// one-at-a-time PRF.
#[test]
fn batched_chain_starts_match() {
    let key: [u8; 32] = core::array::from_fn(|i| (i * 37 + 5) as u8);
    let epochs: [u32; 16] = core::array::from_fn(|i| (i as u32).wrapping_mul(0x9e37_79b9));
    let chains: [u64; 16] = core::array::from_fn(|i| (i as u64) * 3 + u64::from(i == 7) * u64::MAX / 2);
    let got: [[Kb; 8]; 16] = prf::chain_starts(&key, &epochs, &chains);
    for i in 0..16 {
        assert_eq!(got[i], prf::chain_start::<8>(&key, epochs[i], chains[i]), "lane {i}");
    }
    let got7: [[Kb; 7]; 8] = prf::chain_starts(&key, &core::array::from_fn(|i| epochs[i]), &core::array::from_fn(|i| chains[i]));
    for i in 0..8 {
        assert_eq!(got7[i], prf::chain_start::<7>(&key, epochs[i], chains[i]));
    }
}

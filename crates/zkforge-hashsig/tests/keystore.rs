//! The key store: round trip, refusal of used epochs, persistence across reopen, malformed
//! files rejected; no overwrite, activation parameters checked, every class of damaged byte
//! refused before an epoch is spent, concurrent signers serialised by the lock, signatures
//! verified before they are returned, SHA3 keys in the same store.

use rand_chacha::rand_core::SeedableRng;
use zkforge_hashsig::keygen::{key_gen, Shape};
use zkforge_hashsig::keystore::{KeyStore, KeyStoreError};
use zkforge_hashsig::tweak_hash::Perms;

#[test]
fn never_signs_an_epoch_twice() {
    let dir = std::env::temp_dir().join(format!("zkforge-keystore-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("key.bin");
    let mut rng = rand_chacha::ChaCha20Rng::from_seed([7; 32]);
    let km = key_gen::<5, 2, 8, 9>(&Perms::default(), &Shape::new(8, 64, 8), &mut rng, 0, 256).unwrap();
    let root = km.root;
    let mut ks = KeyStore::<5, 8>::create(&path, "poseidon2_toplevel_lifetime8_dim64_base8", km).unwrap();
    ks.reserve(3).unwrap();
    assert!(matches!(ks.reserve(3), Err(KeyStoreError::EpochAlreadyUsed { epoch: 3, next: 4 })));
    assert!(matches!(ks.reserve(1), Err(KeyStoreError::EpochAlreadyUsed { .. })));
    assert!(matches!(ks.reserve(256), Err(KeyStoreError::EpochOutOfRange)));
    drop(ks);
    // the advanced epoch survived
    let mut ks = KeyStore::<5, 8>::open(&path, "poseidon2_toplevel_lifetime8_dim64_base8").unwrap();
    assert_eq!(ks.next_epoch, 4);
    // (the handle holds the lock: the reopen below happens after it is dropped)
    assert_eq!(ks.key.root, root);
    assert!(matches!(ks.reserve(3), Err(KeyStoreError::EpochAlreadyUsed { .. })));
    ks.reserve(10).unwrap();
    // moving into bottom tree 3 prepares trees 3 and 4, persisted; signatures still verify
    let shape = Shape::new(8, 64, 8);
    ks.reserve(50).unwrap();
    ks.advance_preparation::<2, 9>(&Perms::default(), &shape, 50).unwrap();
    assert_eq!(ks.key.prepared.iter().map(|(k, _)| *k).collect::<Vec<_>>(), vec![3, 4]);
    drop(ks);
    let reopened = KeyStore::<5, 8>::open(&path, "poseidon2_toplevel_lifetime8_dim64_base8").unwrap();
    assert_eq!(reopened.key.prepared.iter().map(|(k, _)| *k).collect::<Vec<_>>(), vec![3, 4]);
    let scheme = zkforge_hashsig::scheme::instance_by_name("poseidon2_toplevel_lifetime8_dim64_base8").unwrap();
    let layers = zkforge_hashsig::hypercube::Layers::new(8, 64);
    let perms = Perms::default();
    for e in [50u32, 70, 100] {
        let sig = scheme.sign::<5, 2, 8, 9, 7>(&perms, &layers, &reopened.key, e, &[e as u8; 32]).unwrap();
        assert!(scheme.verify::<5, 2, 8, 9, 7>(&perms, &layers, &root, &reopened.key.parameter, e, &[e as u8; 32], &sig));
    }
    drop(reopened);
    assert!(matches!(KeyStore::<5, 8>::open(&path, "another"), Err(KeyStoreError::Malformed(_))));
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.truncate(bytes.len() - 1);
    std::fs::write(dir.join("bad.bin"), &bytes).unwrap();
    assert!(matches!(KeyStore::<5, 8>::open(&dir.join("bad.bin"), "poseidon2_toplevel_lifetime8_dim64_base8"), Err(KeyStoreError::Damaged { .. })));
    std::fs::remove_dir_all(&dir).unwrap();
}

const SCHEME: &str = "poseidon2_toplevel_lifetime8_dim64_base8";

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("zkforge-keystore-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn small_key(seed: u8) -> zkforge_hashsig::keygen::KeyMaterial<5, 8> {
    key_gen::<5, 2, 8, 9>(&Perms::default(), &Shape::new(8, 64, 8), &mut rand_chacha::ChaCha20Rng::from_seed([seed; 32]), 0, 256).unwrap()
}

#[test]
fn an_existing_store_is_never_overwritten() {
    let dir = temp_dir("overwrite");
    let path = dir.join("key.bin");
    let mut ks = KeyStore::<5, 8>::create(&path, SCHEME, small_key(1)).unwrap();
    ks.reserve(5).unwrap();
    drop(ks);
    let before = std::fs::read(&path).unwrap();
    // same seed again (the reported key-reuse path): refused, file untouched
    assert!(matches!(KeyStore::<5, 8>::create(&path, SCHEME, small_key(1)), Err(KeyStoreError::AlreadyExists { .. })));
    assert_eq!(std::fs::read(&path).unwrap(), before);
    let ks = KeyStore::<5, 8>::open(&path, SCHEME).unwrap();
    assert_eq!(ks.next_epoch, 6);
    let msg = KeyStoreError::AlreadyExists { path: path.clone() }.to_string();
    assert!(msg.contains("new file") && msg.contains("key.bin"), "{msg}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn activation_outside_the_lifetime_is_refused() {
    use zkforge_hashsig::keygen::{check_activation, key_gen_with_progress};
    assert!(check_activation(8, 0, 256).is_ok());
    assert!(check_activation(8, 255, 1).is_ok());
    assert!(check_activation(8, 250, 100).is_err());
    assert!(check_activation(8, 0, 257).is_err());
    assert!(check_activation(8, 0, 0).is_err());
    assert!(check_activation(32, 4_294_967_000, 1000).is_err());
    assert!(check_activation(32, u64::MAX, 2).is_err());
    let e = check_activation(8, 250, 100).unwrap_err();
    assert!(e.to_string().contains("at most 256"), "{e}");
    let r = key_gen_with_progress::<5, 2, 8, 9>(&Perms::default(), &Shape::new(8, 64, 8), &mut rand_chacha::ChaCha20Rng::from_seed([3; 32]), 250, 100, &mut |_, _| {});
    assert!(r.is_err());
    // Every key-generation function of the library refuses, before it draws from the RNG.
    use rand_chacha::rand_core::RngCore;
    let fresh = rand_chacha::ChaCha20Rng::from_seed([3; 32]).next_u64();
    let mut rng = rand_chacha::ChaCha20Rng::from_seed([3; 32]);
    for (start, num) in [(250u64, 100u64), (0, 257), (0, 0), (u64::MAX, 2)] {
        assert!(zkforge_hashsig::keygen::key_gen::<5, 2, 8, 9>(&Perms::default(), &Shape::new(8, 64, 8), &mut rng, start, num).is_err());
    }
    let sha3 = zkforge_hashsig::sha3_xmss::sha3_instance_by_name("sha3_winternitz_lifetime18_w8").expect("known");
    assert!(sha3.key_gen(&mut rng, (1 << 18) - 10, 11).is_err());
    assert!(sha3.key_gen(&mut rng, 0, 0).is_err());
    let d4 = zkforge_hashsig::devnet4::Devnet4::by_name("leansig_head_aborting_lifetime8_dim46_base8").expect("known");
    assert!(d4.key_gen(&mut rng, 250, 100).is_err());
    assert_eq!(rng.next_u64(), fresh, "a refused key generation drew from the RNG");
}

/// One flipped bit in every class of byte position (magic, scheme name, epoch counter,
/// activation range, PRF key, parameter, root, top-tree nodes, prepared bottom-tree nodes, the
/// digest itself): the store is refused at open, before any epoch is reserved, and the file
/// is left as it was.
#[test]
fn every_damaged_byte_class_is_refused_before_an_epoch_is_spent() {
    let dir = temp_dir("damage");
    let path = dir.join("key.bin");
    let mut ks = KeyStore::<5, 8>::create(&path, SCHEME, small_key(2)).unwrap();
    ks.reserve(3).unwrap();
    drop(ks);
    let good = std::fs::read(&path).unwrap();
    let name = 12;
    let epoch = name + SCHEME.len();
    let act = epoch + 8;
    let prf = act + 16;
    let param = prf + 32;
    let root = param + 4 * 5;
    let top = root + 4 * 8 + 4 + 12; // past the layer count, the first layer's start and count
    let classes = [
        ("magic", 3usize),
        ("scheme name", name + 2),
        ("epoch counter", epoch),
        ("activation range", act + 9),
        ("PRF key", prf + 17),
        ("parameter", param + 5),
        ("root", root + 1),
        ("top-tree node", top + 6),
        ("prepared node", good.len() - 32 - 40),
        ("digest", good.len() - 5),
    ];
    for (class, pos) in classes {
        for bit in [0u8, 7] {
            let mut bad = good.clone();
            bad[pos] ^= 1 << bit;
            std::fs::write(&path, &bad).unwrap();
            match KeyStore::<5, 8>::open(&path, SCHEME) {
                Err(KeyStoreError::Damaged { .. }) => {}
                Err(KeyStoreError::Malformed(_)) if class == "magic" => {}
                other => panic!("{class} (byte {pos}, bit {bit}): {:?}", other.map(|s| s.next_epoch)),
            }
            assert_eq!(std::fs::read(&path).unwrap(), bad, "{class}: the damaged store was modified");
        }
    }
    std::fs::write(&path, &good).unwrap();
    assert_eq!(KeyStore::<5, 8>::open(&path, SCHEME).unwrap().next_epoch, 4);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Signers on one store in several threads, all aiming at the same epochs at once: the lock
/// serialises them, each epoch is signed exactly once, every loser gets EpochAlreadyUsed.
#[test]
fn concurrent_signers_sign_each_epoch_once() {
    let dir = temp_dir("race");
    let path = dir.join("key.bin");
    drop(KeyStore::<5, 8>::create(&path, SCHEME, small_key(4)).unwrap());
    let scheme = zkforge_hashsig::scheme::instance_by_name(SCHEME).unwrap();
    let layers = std::sync::Arc::new(scheme.layers());
    let perms = std::sync::Arc::new(Perms::default());
    for epoch in [10u64, 11, 40, 200] {
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(4));
        let handles: Vec<_> = (0..4u8)
            .map(|t| {
                let (path, barrier, layers, perms, scheme) = (path.clone(), barrier.clone(), layers.clone(), perms.clone(), scheme);
                std::thread::spawn(move || -> Result<(), KeyStoreError> {
                    barrier.wait();
                    let mut ks = KeyStore::<5, 8>::open(&path, SCHEME)?;
                    ks.reserve(epoch)?;
                    let msg = [t; 32];
                    ks.sign_reserved(
                        epoch,
                        |k| scheme.sign::<5, 2, 8, 9, 7>(&perms, &layers, k, epoch as u32, &msg),
                        |k, s| scheme.verify::<5, 2, 8, 9, 7>(&perms, &layers, &k.root, &k.parameter, epoch as u32, &msg, s),
                    )?;
                    Ok(())
                })
            })
            .collect();
        let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1, "epoch {epoch}");
        for r in results.iter().filter(|r| r.is_err()) {
            assert!(matches!(r, Err(KeyStoreError::EpochAlreadyUsed { .. })), "{r:?}");
        }
    }
    // no temporary files left behind
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).filter(|n| n.contains(".tmp")).collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A signature that does not verify under the key's public key is never returned, and the
/// epoch stays spent; signing an epoch that was not reserved is refused.
#[test]
fn signatures_are_verified_before_they_are_returned() {
    let dir = temp_dir("selfcheck");
    let path = dir.join("key.bin");
    let mut ks = KeyStore::<5, 8>::create(&path, SCHEME, small_key(5)).unwrap();
    let scheme = zkforge_hashsig::scheme::instance_by_name(SCHEME).unwrap();
    let (layers, perms) = (scheme.layers(), Perms::default());
    let msg = [9u8; 32];
    assert!(matches!(
        ks.sign_reserved(7, |k| scheme.sign::<5, 2, 8, 9, 7>(&perms, &layers, k, 7, &msg), |_, _| true),
        Err(KeyStoreError::NotReserved { epoch: 7 })
    ));
    ks.reserve(7).unwrap();
    // damage the PRF key in memory: the chains no longer lead to the stored root
    ks.key.prf_key[0] ^= 1;
    let r = ks.sign_reserved(
        7,
        |k| scheme.sign::<5, 2, 8, 9, 7>(&perms, &layers, k, 7, &msg),
        |k, s| scheme.verify::<5, 2, 8, 9, 7>(&perms, &layers, &k.root, &k.parameter, 7, &msg, s),
    );
    assert!(matches!(r, Err(KeyStoreError::SelfCheckFailed { epoch: 7 })));
    drop(ks);
    assert_eq!(KeyStore::<5, 8>::open(&path, SCHEME).unwrap().next_epoch, 8);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sha3_keys_in_the_store() {
    use zkforge_hashsig::keystore::Sha3KeyStore;
    use zkforge_hashsig::sha3_xmss::sha3_instance_by_name;
    let dir = temp_dir("sha3");
    let path = dir.join("key.bin");
    let name = "sha3_winternitz_lifetime18_w8";
    let inst = sha3_instance_by_name(name).unwrap();
    let key = inst.key_gen(&mut rand_chacha::ChaCha20Rng::from_seed([6; 32]), 0, 1024).unwrap();
    let root = key.root;
    let mut ks = Sha3KeyStore::create(&path, name, key).unwrap();
    ks.reserve(3).unwrap();
    drop(ks);
    let mut ks = Sha3KeyStore::open(&path, name).unwrap();
    assert_eq!((ks.next_epoch, ks.key.root), (4, root));
    ks.reserve(600).unwrap();
    let msg = [1u8; 32];
    let sig = ks.sign_reserved(600, |k| inst.sign(k, 600, &msg), |k, s| inst.verify(&k.root, &k.parameter, 600, &msg, s)).unwrap();
    assert!(inst.verify(&root, &ks.key.parameter, 600, &msg, &sig));
    drop(ks);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[60] ^= 2;
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(Sha3KeyStore::open(&path, name), Err(KeyStoreError::Damaged { .. })));
    std::fs::remove_dir_all(&dir).unwrap();
}

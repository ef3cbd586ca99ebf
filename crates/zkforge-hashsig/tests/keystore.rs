//! The key store: round trip, refusal of used epochs, persistence across reopen, malformed
//! files rejected.

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
    let km = key_gen::<5, 2, 8, 9>(&Perms::default(), &Shape::new(8, 64, 8), &mut rng, 0, 256);
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
    assert_eq!(ks.key.root, root);
    assert!(matches!(ks.reserve(3), Err(KeyStoreError::EpochAlreadyUsed { .. })));
    ks.reserve(10).unwrap();
    // moving into bottom tree 3 prepares trees 3 and 4, persisted; signatures still verify
    let shape = Shape::new(8, 64, 8);
    ks.reserve(50).unwrap();
    ks.advance_preparation::<2, 9>(&Perms::default(), &shape, 50).unwrap();
    assert_eq!(ks.key.prepared.iter().map(|(k, _)| *k).collect::<Vec<_>>(), vec![3, 4]);
    let reopened = KeyStore::<5, 8>::open(&path, "poseidon2_toplevel_lifetime8_dim64_base8").unwrap();
    assert_eq!(reopened.key.prepared.iter().map(|(k, _)| *k).collect::<Vec<_>>(), vec![3, 4]);
    let scheme = zkforge_hashsig::scheme::instance_by_name("poseidon2_toplevel_lifetime8_dim64_base8").unwrap();
    let layers = zkforge_hashsig::hypercube::Layers::new(8, 64);
    let perms = Perms::default();
    for e in [50u32, 70, 100] {
        let sig = scheme.sign::<5, 2, 8, 9, 7>(&perms, &layers, &reopened.key, e, &[e as u8; 32]).unwrap();
        assert!(scheme.verify::<5, 2, 8, 9, 7>(&perms, &layers, &root, &reopened.key.parameter, e, &[e as u8; 32], &sig));
    }
    assert!(matches!(KeyStore::<5, 8>::open(&path, "another"), Err(KeyStoreError::Malformed(_))));
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.truncate(bytes.len() - 1);
    std::fs::write(dir.join("bad.bin"), &bytes).unwrap();
    assert!(matches!(KeyStore::<5, 8>::open(&dir.join("bad.bin"), "poseidon2_toplevel_lifetime8_dim64_base8"), Err(KeyStoreError::Malformed(_))));
    std::fs::remove_dir_all(&dir).unwrap();
}

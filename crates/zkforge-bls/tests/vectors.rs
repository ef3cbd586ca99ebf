//! The Ethereum consensus BLS test suite (ethereum/bls12-381-tests v0.1.2: sign, verify,
//! deserialization_G1/G2, and aggregate / fast_aggregate_verify / aggregate_verify built from
//! its keys and messages as its generator builds them) and EIP-2333's master keys. Sources and
//! licences: `tests/vectors/README.md`.

use serde_json::Value;
use zkforge_bls::{aggregate_verify, fast_aggregate_verify, verify, PublicKey, SecretKey, Signature};
use zkforge_curve::bls12_381::G1Affine;

fn hex(s: &str) -> Vec<u8> {
    let s = s.strip_prefix("0x").unwrap_or(s);
    assert!(s.len().is_multiple_of(2), "odd hex length");
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

fn suite() -> Value {
    serde_json::from_str(include_str!("vectors/ethereum_bls12_381_tests.json")).unwrap()
}

#[test]
fn sign_vectors() {
    let v = suite();
    let cases = v["sign"].as_array().unwrap();
    assert_eq!(cases.len(), 10);
    for c in cases {
        let sk = SecretKey::from_bytes(&hex(c["input"]["privkey"].as_str().unwrap()));
        let msg = hex(c["input"]["message"].as_str().unwrap());
        match c["output"].as_str() {
            Some(out) => {
                let sk = sk.unwrap();
                assert_eq!(sk.sign(&msg).to_bytes().to_vec(), hex(out));
                assert!(verify(&sk.public_key(), &msg, &sk.sign(&msg)));
            }
            None => assert!(sk.is_err(), "the zero key must be refused"),
        }
    }
}

#[test]
fn verify_vectors() {
    let v = suite();
    let cases = v["verify"].as_array().unwrap();
    assert_eq!(cases.len(), 29);
    let (mut valid, mut invalid) = (0, 0);
    for c in cases {
        let pk = PublicKey::from_bytes(&hex(c["input"]["pubkey"].as_str().unwrap()));
        let msg = hex(c["input"]["message"].as_str().unwrap());
        let sig = Signature::from_bytes(&hex(c["input"]["signature"].as_str().unwrap()));
        let got = match (pk, sig) {
            (Ok(pk), Ok(sig)) => verify(&pk, &msg, &sig),
            _ => false,
        };
        assert_eq!(got, c["output"].as_bool().unwrap(), "{c}");
        if got {
            valid += 1
        } else {
            invalid += 1
        }
    }
    assert_eq!((valid, invalid), (10, 19));
}

#[test]
fn deserialization_vectors() {
    let v = suite();
    for c in v["deserialization_G1"].as_array().unwrap() {
        let b = hex(c["input"]["pubkey"].as_str().unwrap());
        let ok = G1Affine::from_compressed(&b).is_ok();
        assert_eq!(ok, c["output"].as_bool().unwrap(), "{}", c["name"]);
        // a public key is a decodable point that is not the identity
        let is_identity = ok && bool::from(G1Affine::from_compressed(&b).unwrap().is_identity());
        assert_eq!(PublicKey::from_bytes(&b).is_ok(), ok && !is_identity, "{}", c["name"]);
    }
    for c in v["deserialization_G2"].as_array().unwrap() {
        let b = hex(c["input"]["signature"].as_str().unwrap());
        assert_eq!(Signature::from_bytes_validated(&b).is_ok(), c["output"].as_bool().unwrap(), "{}", c["name"]);
    }
}

#[test]
fn eip2333_master_keys() {
    let v = suite();
    for c in v["eip2333_master_sk"]["cases"].as_array().unwrap() {
        let sk = SecretKey::key_gen(&hex(c["seed"].as_str().unwrap()), b"").unwrap();
        assert_eq!(sk.to_bytes().to_vec(), hex(c["master_sk"].as_str().unwrap()));
    }
}

/// The suite's keys and messages (its generator's PRIVKEYS and MESSAGES).
fn keys_and_messages() -> (Vec<SecretKey>, Vec<Vec<u8>>) {
    let v = suite();
    let mut sks = Vec::new();
    for c in v["sign"].as_array().unwrap().iter().step_by(3).take(3) {
        sks.push(SecretKey::from_bytes(&hex(c["input"]["privkey"].as_str().unwrap())).unwrap());
    }
    (sks, [0x00u8, 0x56, 0xab].iter().map(|&b| vec![b; 32]).collect())
}

fn blst_aggregate(sigs: &[Signature]) -> [u8; 96] {
    let parsed: Vec<blst::min_pk::Signature> = sigs.iter().map(|s| blst::min_pk::Signature::from_bytes(&s.to_bytes()).unwrap()).collect();
    let refs: Vec<&blst::min_pk::Signature> = parsed.iter().collect();
    blst::min_pk::AggregateSignature::aggregate(&refs, false).unwrap().to_signature().compress()
}

#[test]
fn aggregate_cases() {
    let (sks, msgs) = keys_and_messages();
    let mut inf = [0u8; 96];
    inf[0] = 0xc0;
    for m in &msgs {
        let sigs: Vec<Signature> = sks.iter().map(|k| k.sign(m)).collect();
        assert_eq!(Signature::aggregate(&sigs).unwrap().to_bytes(), blst_aggregate(&sigs));
    }
    assert!(Signature::aggregate(&[]).is_err(), "aggregate_na_signatures");
    let z2 = Signature::from_bytes(&inf).unwrap();
    assert_eq!(Signature::aggregate(&[z2]).unwrap().to_bytes(), inf, "aggregate_infinity_signature");
    let one = sks[0].sign(&msgs[0]);
    assert_eq!(Signature::aggregate(&[one]).unwrap(), one, "aggregate_single_signature");
}

#[test]
fn fast_aggregate_verify_cases() {
    let (sks, msgs) = keys_and_messages();
    let pks: Vec<PublicKey> = sks.iter().map(|k| k.public_key()).collect();
    for (i, m) in msgs.iter().enumerate() {
        let signers = &sks[..=i];
        let agg = Signature::aggregate(&signers.iter().map(|k| k.sign(m)).collect::<Vec<_>>()).unwrap();
        assert!(fast_aggregate_verify(&pks[..=i], m, &agg), "valid");
        let mut extra = pks[..=i].to_vec();
        extra.push(pks[2]);
        assert!(!fast_aggregate_verify(&extra, m, &agg), "extra_pubkey");
        let mut t = agg.to_bytes();
        t[92..].copy_from_slice(&[0xff; 4]);
        if let Ok(ts) = Signature::from_bytes(&t) {
            assert!(!fast_aggregate_verify(&pks[..=i], m, &ts), "tampered_signature");
        }
    }
    let mut inf = [0u8; 96];
    inf[0] = 0xc0;
    assert!(!fast_aggregate_verify(&[], &msgs[2], &Signature::from_bytes(&inf).unwrap()), "na_pubkeys_and_infinity_signature");
    assert!(Signature::from_bytes(&[0u8; 96]).is_err(), "na_pubkeys_and_na_signature: 0x00.. is no signature");
    let mut z1 = [0u8; 48];
    z1[0] = 0xc0;
    assert!(PublicKey::from_bytes(&z1).is_err(), "infinity_pubkey: refused by KeyValidate");
}

#[test]
fn aggregate_verify_cases() {
    let (sks, msgs) = keys_and_messages();
    let pks: Vec<PublicKey> = sks.iter().map(|k| k.public_key()).collect();
    let sigs: Vec<Signature> = sks.iter().zip(&msgs).map(|(k, m)| k.sign(m)).collect();
    let agg = Signature::aggregate(&sigs).unwrap();
    assert!(aggregate_verify(&pks, &msgs, &agg), "aggregate_verify_valid");
    // the generator tampers with bytes 4..8 (signature[:4] + 0xff * 4): not a point at all
    let mut t = agg.to_bytes().to_vec();
    t.truncate(4);
    t.extend_from_slice(&[0xff; 4]);
    assert!(Signature::from_bytes(&t).is_err(), "aggregate_verify_tampered_signature");
    let mut inf = [0u8; 96];
    inf[0] = 0xc0;
    let none: [&[u8]; 0] = [];
    assert!(!aggregate_verify(&[], &none, &Signature::from_bytes(&inf).unwrap()), "na_pubkeys_and_infinity_signature");
    assert!(!aggregate_verify(&pks[..2], &msgs, &agg), "length mismatch");
}

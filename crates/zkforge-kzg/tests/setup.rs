//! Setup loading: the text and JSON formats give the same settings as the embedded mainnet copy
//! (the same commitments, cells and proofs), and damaged files are typed errors.

use zkforge_kzg::{KzgConfig, KzgError, KzgSettings, BYTES_PER_BLOB};

const TEXT: &str = include_str!("../data/trusted_setup.txt");
const JSON: &str = include_str!("data/trusted_setup_4096.json");

fn blob() -> Vec<u8> {
    (0..BYTES_PER_BLOB).map(|i| if i % 32 == 0 { 0 } else { (i * 37 % 253) as u8 }).collect()
}

/// Every point of both files decoded and subgroup-checked (`known_setup: false`), and through
/// the known-setup shortcut (the default), against the embedded copy.
#[test]
fn text_json_and_embedded_agree() {
    for known_setup in [false, true] {
        text_json_and_embedded_agree_with(KzgConfig { threads: 2, known_setup, ..KzgConfig::default() });
    }
}

fn text_json_and_embedded_agree_with(cfg: KzgConfig) {
    let text = KzgSettings::from_text_with(TEXT, &cfg).unwrap();
    let json = KzgSettings::from_json_with(JSON, &cfg).unwrap();
    let embedded = KzgSettings::mainnet();
    let b = blob();
    let c = embedded.blob_to_kzg_commitment(&b).unwrap();
    assert_eq!(text.blob_to_kzg_commitment(&b).unwrap(), c);
    assert_eq!(json.blob_to_kzg_commitment(&b).unwrap(), c);
    let p = embedded.compute_blob_kzg_proof(&b, &c).unwrap();
    assert!(text.verify_blob_kzg_proof(&b, &c, &p).unwrap());
    assert!(json.verify_blob_kzg_proof(&b, &c, &p).unwrap());
    let cells = embedded.compute_cells_and_kzg_proofs(&b).unwrap();
    assert_eq!(text.compute_cells_and_kzg_proofs(&b).unwrap(), cells);
}

/// The known-setup digest is the SHA-256 of the mainnet file's compressed points in file order.
#[test]
fn mainnet_setup_digest() {
    use sha2::{Digest, Sha256};
    let lines: Vec<&str> = TEXT.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let mut h = Sha256::new();
    for l in &lines[2..] {
        let l = l.trim_start_matches("0x");
        let b: Vec<u8> = (0..l.len()).step_by(2).map(|i| u8::from_str_radix(&l[i..i + 2], 16).unwrap()).collect();
        assert!(b.len() == 48 || b.len() == 96);
        h.update(&b);
    }
    assert_eq!(h.finalize().as_slice(), zkforge_kzg::MAINNET_SETUP_SHA256);
}

#[test]
fn damaged_setups_are_errors() {
    for known_setup in [true, false] {
        damaged_setups_are_errors_with(KzgConfig { known_setup, ..KzgConfig::default() });
    }
}

fn damaged_setups_are_errors_with(cfg: KzgConfig) {
    let lines: Vec<&str> = TEXT.lines().collect();
    let bad = |v: Vec<&str>| KzgSettings::from_text_with(&v.join("\n"), &cfg).map(|_| ());
    // a missing last line, an extra line, a wrong count
    assert!(matches!(bad(lines[..lines.len() - 1].to_vec()), Err(KzgError::InvalidSetup(_))));
    let mut extra = lines.clone();
    extra.push("00");
    assert!(bad(extra).is_err());
    let mut count = lines.clone();
    count[0] = "4095";
    assert!(bad(count).is_err());
    // a G1 point off the curve, a G2 point flipped, not hex
    let mut v = lines.clone();
    let flipped = format!("{}0", &v[2][..v[2].len() - 1]);
    v[2] = &flipped;
    assert!(bad(v).is_err());
    let mut v = lines.clone();
    v[4096 + 2] = "zz";
    assert!(bad(v).is_err());
    // a G2 point on the twist but outside G2 (SSWU without cofactor clearing)
    let off = zkforge_curve::hash_to_curve::map_to_curve_bls12_381_g2(&zkforge_field::bls12_381::Fp2::ONE).to_affine();
    assert!(!off.is_in_subgroup());
    let off_hex: String = off.to_compressed().iter().map(|b| format!("{b:02x}")).collect();
    let mut v = lines.clone();
    v[4096 + 3] = &off_hex;
    assert!(matches!(bad(v), Err(KzgError::InvalidSetup("a G2 point does not decode to the subgroup"))));
    // a valid point in the wrong place (two Lagrange points swapped): a valid setup, not the
    // mainnet one, so the full path loads it and its commitments differ
    let mut v = lines.clone();
    v.swap(2, 3);
    let swapped = KzgSettings::from_text_with(&v.join("\n"), &cfg).expect("a valid setup");
    let b = blob();
    assert_ne!(swapped.blob_to_kzg_commitment(&b).unwrap(), KzgSettings::mainnet().blob_to_kzg_commitment(&b).unwrap());
    // a line one byte short
    let mut v = lines.clone();
    let short_line = &v[5][..v[5].len() - 2].to_string();
    v[5] = short_line;
    assert!(matches!(bad(v), Err(KzgError::InvalidSetup(_))));
    assert!(KzgSettings::from_text_with("", &cfg).is_err());
    assert!(KzgSettings::from_json_with("{}", &cfg).is_err());
    assert!(KzgSettings::from_json_with("not json", &cfg).is_err());
    let short = JSON.replacen("\"0x97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb\",", "", 1);
    assert!(KzgSettings::from_json_with(&short, &cfg).is_err());
}

/// Every value of the commitment precomputation knob gives the same commitments and proofs, on
/// one, two and three threads (three splits the points unevenly).
#[test]
fn commit_precompute_values_agree() {
    use zkforge_kzg::CommitPrecompute;
    let b = blob();
    let want_c = KzgSettings::mainnet().blob_to_kzg_commitment(&b).unwrap();
    let want_p = KzgSettings::mainnet().compute_kzg_proof(&b, &[7u8; 32]).unwrap();
    for pre in [CommitPrecompute::None, CommitPrecompute::default(), CommitPrecompute::FixedBase { window: 8, stride: 3 }, CommitPrecompute::FixedBase { window: 16, stride: 1 }] {
        for threads in [1, 2, 3] {
            let k = KzgSettings::mainnet_with(&KzgConfig { threads, commit_precompute: pre, ..KzgConfig::default() }).unwrap();
            assert_eq!(k.blob_to_kzg_commitment(&b).unwrap(), want_c, "{pre:?} threads {threads}");
            assert_eq!(k.compute_kzg_proof(&b, &[7u8; 32]).unwrap(), want_p, "{pre:?} threads {threads}");
        }
    }
    for bad in [CommitPrecompute::FixedBase { window: 1, stride: 1 }, CommitPrecompute::FixedBase { window: 17, stride: 1 }, CommitPrecompute::FixedBase { window: 8, stride: 0 }] {
        assert!(KzgSettings::mainnet_with(&KzgConfig { commit_precompute: bad, ..KzgConfig::default() }).is_err());
    }
}

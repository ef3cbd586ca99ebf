//! Official vectors: RFC 9380 appendix J (BLS12-381 hash_to_curve / encode_to_curve, including
//! the u values and the map_to_curve outputs Q0, Q1) and appendix K.1 (expand_message_xmd).
//! The EVM precompile vectors are in zkforge-evm's tests.

use serde_json::Value;
use zkforge_curve::hash_to_curve::*;
use zkforge_curve::bls12_381::{G1Affine, G2Affine};
use zkforge_field::bls12_381::{Fp, Fp2};

fn load(path: &str) -> Value {
    let full = format!("{}/tests/vectors/{path}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))).unwrap()
}

fn unhex(s: &str) -> Vec<u8> {
    let s = s.trim_start_matches("0x");
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

fn fp(s: &str) -> Fp {
    Fp::from_hex(s).unwrap()
}

fn fp2(s: &str) -> Fp2 {
    let (a, b) = s.split_once(',').unwrap();
    Fp2::new(fp(a), fp(b))
}

#[test]
fn expand_message_xmd_rfc9380_k1() {
    let mut n = 0;
    for file in ["h2c/expand_message_xmd_SHA256_38.json", "h2c/expand_message_xmd_SHA256_256.json"] {
        let v = load(file);
        let dst = v["DST"].as_str().unwrap().as_bytes();
        for t in v["tests"].as_array().unwrap() {
            let len = usize::from_str_radix(t["len_in_bytes"].as_str().unwrap().trim_start_matches("0x"), 16).unwrap();
            let out = expand_message_xmd(t["msg"].as_str().unwrap().as_bytes(), dst, len).unwrap();
            assert_eq!(out, unhex(t["uniform_bytes"].as_str().unwrap()));
            n += 1;
        }
    }
    assert_eq!(n, 20);
    assert!(expand_message_xmd(b"", b"d", 65536).is_err());
    assert!(expand_message_xmd(b"", b"d", 255 * 32 + 1).is_err());
    assert_eq!(expand_message_xmd(b"", b"d", 255 * 32).unwrap().len(), 255 * 32);
}

/// Run `check` under every value of the hash switches (G1 random-oracle form, SSWU
/// exponentiations, G2's runs of doublings in the cofactor clearing), then restore the
/// defaults.
fn for_every_hash_switch(check: impl Fn()) {
    use zkforge_curve::bls12_381::{set_g2_doubling_runs, G2DoublingRuns};
    for e in [SswuExponentiations::Auto, SswuExponentiations::Interleaved, SswuExponentiations::OneByOne] {
        set_sswu_exponentiations(e);
        for f in [G1RandomOracleForm::Auto, G1RandomOracleForm::AddOnIsogenous, G1RandomOracleForm::MapThenAdd] {
            set_g1_ro_form(f);
            for d in [G2DoublingRuns::Auto, G2DoublingRuns::Scalar, G2DoublingRuns::Lanes] {
                set_g2_doubling_runs(d);
                check();
            }
        }
    }
    set_g2_doubling_runs(G2DoublingRuns::Auto);
    set_g1_ro_form(G1RandomOracleForm::Auto);
    set_sswu_exponentiations(SswuExponentiations::Auto);
}

#[test]
fn bls12_381_g1_suites_rfc9380_j9() {
    for (file, ro) in [("h2c/BLS12381G1_XMD-SHA-256_SSWU_RO_.json", true), ("h2c/BLS12381G1_XMD-SHA-256_SSWU_NU_.json", false)] {
        let v = load(file);
        let dst = v["dst"].as_str().unwrap().as_bytes();
        let vecs = v["vectors"].as_array().unwrap();
        assert_eq!(vecs.len(), 5);
        for t in vecs {
            let msg = t["msg"].as_str().unwrap().as_bytes();
            let want = G1Affine::new_unchecked(fp(t["P"]["x"].as_str().unwrap()), fp(t["P"]["y"].as_str().unwrap()));
            let us: Vec<Fp> = t["u"].as_array().unwrap().iter().map(|u| fp(u.as_str().unwrap())).collect();
            assert_eq!(hash_to_field_bls12_381_fp(msg, dst, us.len()).unwrap(), us);
            let got = if ro { hash_to_g1(msg, dst).unwrap() } else { encode_to_g1(msg, dst).unwrap() };
            assert_eq!(got, want, "{file} msg={:?}", t["msg"]);
            if ro {
                for_every_hash_switch(|| assert_eq!(hash_to_g1(msg, dst).unwrap(), want, "{file} msg={:?}", t["msg"]));
            }
            let qs: Vec<&Value> = if ro { vec![&t["Q0"], &t["Q1"]] } else { vec![&t["Q"]] };
            for (u, q) in us.iter().zip(qs) {
                let qa = G1Affine::new_unchecked(fp(q["x"].as_str().unwrap()), fp(q["y"].as_str().unwrap()));
                assert_eq!(map_to_curve_bls12_381_g1(u).to_affine(), qa);
            }
        }
    }
}

#[test]
fn bls12_381_g2_suites_rfc9380_j10() {
    for (file, ro) in [("h2c/BLS12381G2_XMD-SHA-256_SSWU_RO_.json", true), ("h2c/BLS12381G2_XMD-SHA-256_SSWU_NU_.json", false)] {
        let v = load(file);
        let dst = v["dst"].as_str().unwrap().as_bytes();
        let vecs = v["vectors"].as_array().unwrap();
        assert_eq!(vecs.len(), 5);
        for t in vecs {
            let msg = t["msg"].as_str().unwrap().as_bytes();
            let want = G2Affine::new_unchecked(fp2(t["P"]["x"].as_str().unwrap()), fp2(t["P"]["y"].as_str().unwrap()));
            let us: Vec<Fp2> = t["u"].as_array().unwrap().iter().map(|u| fp2(u.as_str().unwrap())).collect();
            assert_eq!(hash_to_field_bls12_381_fp2(msg, dst, us.len()).unwrap(), us);
            let got = if ro { hash_to_g2(msg, dst).unwrap() } else { encode_to_g2(msg, dst).unwrap() };
            assert_eq!(got, want, "{file} msg={:?}", t["msg"]);
            if ro {
                for_every_hash_switch(|| assert_eq!(hash_to_g2(msg, dst).unwrap(), want, "{file} msg={:?}", t["msg"]));
            }
            let qs: Vec<&Value> = if ro { vec![&t["Q0"], &t["Q1"]] } else { vec![&t["Q"]] };
            for (u, q) in us.iter().zip(qs) {
                let qa = G2Affine::new_unchecked(fp2(q["x"].as_str().unwrap()), fp2(q["y"].as_str().unwrap()));
                assert_eq!(map_to_curve_bls12_381_g2(u).to_affine(), qa);
            }
        }
    }
}

#[test]
fn bn254_g1_svdw_gnark_vectors() {
    use zkforge_curve::bn254::G1Affine as Bn;
    use zkforge_field::bn254::Fp as BnFp;
    let p = |v: &Value| Bn::new_unchecked(BnFp::from_hex(v["x"].as_str().unwrap()).unwrap(), BnFp::from_hex(v["y"].as_str().unwrap()).unwrap());
    for (file, ro) in [("h2c_bn254/BN254G1_XMD-SHA-256_SVDW_RO_.json", true), ("h2c_bn254/BN254G1_XMD-SHA-256_SVDW_NU_.json", false)] {
        let v = load(file);
        let dst = v["dst"].as_str().unwrap().as_bytes();
        for t in v["vectors"].as_array().unwrap() {
            let msg = t["msg"].as_str().unwrap().as_bytes();
            let us: Vec<BnFp> = t["u"].as_array().unwrap().iter().map(|u| BnFp::from_hex(u.as_str().unwrap()).unwrap()).collect();
            assert_eq!(hash_to_field_bn254_fp(msg, dst, us.len()).unwrap(), us);
            let got = if ro { hash_to_bn254_g1(msg, dst).unwrap() } else { encode_to_bn254_g1(msg, dst).unwrap() };
            assert_eq!(got, p(&t["P"]), "{file}");
            let qs: Vec<&Value> = if ro { vec![&t["Q0"], &t["Q1"]] } else { vec![&t["Q"]] };
            for (u, q) in us.iter().zip(qs) {
                assert_eq!(map_to_curve_bn254_g1(u), p(q));
            }
        }
    }
}

//! Official vectors: RFC 9380 appendix J (BLS12-381 hash_to_curve / encode_to_curve, including
//! the u values and the map_to_curve outputs Q0, Q1), appendix K.1 (expand_message_xmd), and the
//! go-ethereum EIP-2537 / EIP-196 precompile vectors for add, single multiplication and
//! map-to-curve, success and failure files.

use serde_json::Value;
use zkforge_curve::bls12_381::{fp2_from_eip2537, fp_from_eip2537, G1Affine, G2Affine};
use zkforge_curve::hash_to_curve::*;
use zkforge_field::bls12_381::{Fp, Fp2, Fr};

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
            let qs: Vec<&Value> = if ro { vec![&t["Q0"], &t["Q1"]] } else { vec![&t["Q"]] };
            for (u, q) in us.iter().zip(qs) {
                let qa = G2Affine::new_unchecked(fp2(q["x"].as_str().unwrap()), fp2(q["y"].as_str().unwrap()));
                assert_eq!(map_to_curve_bls12_381_g2(u).to_affine(), qa);
            }
        }
    }
}

fn cases(file: &str) -> Vec<(Vec<u8>, Option<Vec<u8>>, String)> {
    load(file)
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (unhex(c["Input"].as_str().unwrap()), c.get("Expected").map(|e| unhex(e.as_str().unwrap())), c["Name"].as_str().unwrap().to_string())
        })
        .collect()
}

// Minimal precompile bodies over the curve API, enough to run the vectors.
fn g1add(inp: &[u8]) -> Result<Vec<u8>, String> {
    if inp.len() != 256 {
        return Err("length".into());
    }
    let a = G1Affine::from_eip2537_unchecked(&inp[..128]).map_err(|e| e.to_string())?;
    let b = G1Affine::from_eip2537_unchecked(&inp[128..]).map_err(|e| e.to_string())?;
    Ok(a.to_jacobian().add(&b.to_jacobian()).to_affine().to_eip2537().to_vec())
}
fn g2add(inp: &[u8]) -> Result<Vec<u8>, String> {
    if inp.len() != 512 {
        return Err("length".into());
    }
    let a = G2Affine::from_eip2537_unchecked(&inp[..256]).map_err(|e| e.to_string())?;
    let b = G2Affine::from_eip2537_unchecked(&inp[256..]).map_err(|e| e.to_string())?;
    Ok(a.to_jacobian().add(&b.to_jacobian()).to_affine().to_eip2537().to_vec())
}
fn g1mul(inp: &[u8]) -> Result<Vec<u8>, String> {
    if inp.len() != 160 {
        return Err("length".into());
    }
    let p = G1Affine::from_eip2537(&inp[..128]).map_err(|e| e.to_string())?;
    let k = Fr::from_bytes_be_mod_order(&inp[128..]);
    Ok((p.to_jacobian() * k).to_affine().to_eip2537().to_vec())
}
fn g2mul(inp: &[u8]) -> Result<Vec<u8>, String> {
    if inp.len() != 288 {
        return Err("length".into());
    }
    let p = G2Affine::from_eip2537(&inp[..256]).map_err(|e| e.to_string())?;
    let k = Fr::from_bytes_be_mod_order(&inp[256..]);
    Ok((p.to_jacobian() * k).to_affine().to_eip2537().to_vec())
}
fn map_g1(inp: &[u8]) -> Result<Vec<u8>, String> {
    let u = fp_from_eip2537(inp).map_err(|e| e.to_string())?;
    Ok(map_fp_to_g1(&u).to_eip2537().to_vec())
}
fn map_g2(inp: &[u8]) -> Result<Vec<u8>, String> {
    let u = fp2_from_eip2537(inp).map_err(|e| e.to_string())?;
    Ok(map_fp2_to_g2(&u).to_eip2537().to_vec())
}

type Precompile = fn(&[u8]) -> Result<Vec<u8>, String>;

#[test]
fn eip2537_add_mul_map_vectors() {
    let table: [(&str, Precompile, usize); 6] = [
        ("blsG1Add", g1add, 112),
        ("blsG2Add", g2add, 112),
        ("blsG1Mul", g1mul, 11),
        ("blsG2Mul", g2mul, 11),
        ("blsMapG1", map_g1, 105),
        ("blsMapG2", map_g2, 105),
    ];
    for (name, f, count) in table {
        let ok = cases(&format!("evm/{name}.json"));
        assert_eq!(ok.len(), count, "{name}");
        for (inp, want, case) in &ok {
            assert_eq!(f(inp).unwrap_or_else(|e| panic!("{name}/{case}: {e}")), *want.as_ref().unwrap(), "{name}/{case}");
        }
        let bad = cases(&format!("evm/fail-{name}.json"));
        assert!(!bad.is_empty());
        for (inp, _, case) in &bad {
            assert!(f(inp).is_err(), "{name}/{case} must fail");
        }
    }
}

fn pad(inp: &[u8], n: usize) -> Vec<u8> {
    let mut v = inp.to_vec();
    v.resize(n, 0);
    v
}

#[test]
fn eip196_add_mul_vectors() {
    use zkforge_curve::bn254::G1Affine as Bn;
    let add = cases("evm/bn256Add.json");
    assert_eq!(add.len(), 16);
    for (inp, want, case) in &add {
        let inp = pad(inp, 128);
        let a = Bn::from_eip196(&inp[..64]).unwrap();
        let b = Bn::from_eip196(&inp[64..128]).unwrap();
        assert_eq!(a.to_jacobian().add(&b.to_jacobian()).to_affine().to_eip196().to_vec(), *want.as_ref().unwrap(), "{case}");
    }
    let mul = cases("evm/bn256ScalarMul.json");
    assert_eq!(mul.len(), 19);
    for (inp, want, case) in &mul {
        let inp = pad(inp, 96);
        let a = Bn::from_eip196(&inp[..64]).unwrap();
        let k = zkforge_field::bn254::Fr::from_bytes_be_mod_order(&inp[64..96]);
        assert_eq!((a.to_jacobian() * k).to_affine().to_eip196().to_vec(), *want.as_ref().unwrap(), "{case}");
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

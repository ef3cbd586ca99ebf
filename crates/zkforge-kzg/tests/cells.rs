//! EIP-7594 cells: every c-kzg-4844 vector case of recover_cells_and_kzg_proofs,
//! verify_cell_kzg_proof_batch and compute_verify_cell_kzg_proof_batch_challenge (see
//! tests/vectors/README.md), FK20 against the proof by direct division, every value of the
//! cell precomputation knob, and a differential run against c-kzg 2.1.8 on random blobs,
//! erasure patterns and corrupted inputs.

mod common;

use common::yaml::{self, Value};
use rand::{rngs::StdRng, Rng, SeedableRng};
use zkforge_kzg::{compute_verify_cell_kzg_proof_batch_challenge, CellPrecompute, KzgConfig, KzgSettings, MulManyMethod, BYTES_PER_BLOB, BYTES_PER_CELL, CELLS_PER_EXT_BLOB};

fn cases(op: &str) -> Vec<(String, Value)> {
    let dir = format!("{}/tests/vectors/{op}", env!("CARGO_MANIFEST_DIR"));
    let mut v: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| {
            let p = e.unwrap().path();
            (p.file_name().unwrap().to_string_lossy().to_string(), yaml::parse(&std::fs::read_to_string(&p).unwrap()))
        })
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

fn hex(b: &[u8]) -> String {
    format!("0x{}", b.iter().map(|x| format!("{x:02x}")).collect::<String>())
}

fn refs(v: &[Vec<u8>]) -> Vec<&[u8]> {
    v.iter().map(Vec::as_slice).collect()
}

fn cell(cells: &[u8], i: usize) -> &[u8] {
    &cells[i * BYTES_PER_CELL..(i + 1) * BYTES_PER_CELL]
}

/// A cell given as a YAML list of 64 field elements, or as one hex string.
fn cell_bytes(v: &Value) -> Vec<u8> {
    match v {
        Value::List(l) => l.iter().flat_map(Value::bytes).collect(),
        v => v.bytes(),
    }
}

#[test]
fn recover_cells_and_kzg_proofs_vectors() {
    let kzg = KzgSettings::mainnet();
    let all = cases("recover_cells_and_kzg_proofs");
    for (name, c) in &all {
        let input = c.get("input");
        let idx = input.get("cell_indices").u64_list();
        let cells: Vec<Vec<u8>> = input.get("cells").list().iter().map(cell_bytes).collect();
        let r = kzg.recover_cells_and_kzg_proofs(&idx, &refs(&cells));
        let out = c.get("output");
        if out.is_null() {
            assert!(r.is_err(), "{name}: {:?}", r.map(|_| ()));
            continue;
        }
        let (got_cells, got_proofs) = r.unwrap_or_else(|e| panic!("{name}: {e}"));
        let (want_cells, want_proofs) = (out.list()[0].list(), out.list()[1].list());
        assert_eq!((want_cells.len(), want_proofs.len()), (CELLS_PER_EXT_BLOB, CELLS_PER_EXT_BLOB), "{name}");
        for i in 0..CELLS_PER_EXT_BLOB {
            assert_eq!(cell(&got_cells, i), cell_bytes(&want_cells[i]).as_slice(), "{name} cell {i}");
            assert_eq!(hex(&got_proofs[i]), want_proofs[i].str(), "{name} proof {i}");
        }
    }
    assert_eq!(all.len(), 18);
}

/// The consensus-spec vectors, with the points' square roots on lanes (the default) and one at
/// a time, on one and two threads.
#[test]
fn verify_cell_kzg_proof_batch_vectors() {
    for (batch_point_decoding, threads) in [(true, 1), (false, 1), (true, 2)] {
        let kzg = KzgSettings::mainnet_with(&KzgConfig { threads, batch_point_decoding, ..KzgConfig::default() }).unwrap();
        verify_cell_batch_vectors_with(&kzg);
    }
}

fn verify_cell_batch_vectors_with(kzg: &KzgSettings) {
    let all = cases("verify_cell_kzg_proof_batch");
    for (name, c) in &all {
        let input = c.get("input");
        let commitments = input.get("commitments").bytes_list();
        let idx = input.get("cell_indices").u64_list();
        let cells: Vec<Vec<u8>> = input.get("cells").list().iter().map(cell_bytes).collect();
        let proofs = input.get("proofs").bytes_list();
        let r = kzg.verify_cell_kzg_proof_batch(&refs(&commitments), &idx, &refs(&cells), &refs(&proofs));
        match c.get("output") {
            Value::Null => assert!(r.is_err(), "{name}: {r:?}"),
            v => assert_eq!(r.unwrap_or_else(|e| panic!("{name}: {e}")).to_string(), v.str(), "{name}"),
        }
    }
    assert_eq!(all.len(), 32);
}

#[test]
fn compute_verify_cell_kzg_proof_batch_challenge_vectors() {
    let all = cases("compute_verify_cell_kzg_proof_batch_challenge");
    for (name, c) in &all {
        let input = c.get("input");
        let commitments = input.get("commitments").bytes_list();
        let ci = input.get("commitment_indices").u64_list();
        let idx = input.get("cell_indices").u64_list();
        let cells: Vec<Vec<u8>> = input.get("cosets_evals").list().iter().map(cell_bytes).collect();
        let proofs = input.get("proofs").bytes_list();
        let r = compute_verify_cell_kzg_proof_batch_challenge(&refs(&commitments), &ci, &idx, &refs(&cells), &refs(&proofs));
        assert_eq!(hex(r.to_bytes_be().as_ref()), c.get("output").str(), "{name}");
    }
    assert_eq!(all.len(), 10);
}

fn random_blob(rng: &mut StdRng) -> Vec<u8> {
    let mut blob = vec![0u8; BYTES_PER_BLOB];
    for chunk in blob.chunks_exact_mut(32) {
        rng.fill(&mut chunk[1..]);
        chunk[0] = rng.gen_range(0..0x73);
    }
    blob
}

/// FK20 equals the direct quotient for a few cells, under every documented precomputation
/// value and on one and two threads.
#[test]
fn fk20_matches_division_for_every_precompute() {
    let mut rng = StdRng::seed_from_u64(7594);
    let blob = random_blob(&mut rng);
    let reference = KzgSettings::mainnet();
    let want: Vec<(u64, [u8; 48])> = [0u64, 1, 77, 127].iter().map(|&k| (k, reference.cell_kzg_proof_by_division(&blob, k).unwrap())).collect();
    let mut all = None;
    for pre in [
        CellPrecompute::None,
        CellPrecompute::default(),
        CellPrecompute::FixedBase { window: 8, stride: 1, interleaved: false },
        CellPrecompute::FixedBase { window: 6, stride: 4, interleaved: true },
        CellPrecompute::FixedBase { window: 2, stride: 1000, interleaved: false },
        CellPrecompute::FixedBase { window: 16, stride: 1, interleaved: true },
    ] {
        for threads in [1, 2] {
            let kzg = KzgSettings::mainnet_with(&KzgConfig { threads, cell_precompute: pre, ..KzgConfig::default() }).unwrap();
            let (cells, proofs) = kzg.compute_cells_and_kzg_proofs(&blob).unwrap();
            for (k, p) in &want {
                assert_eq!(proofs[*k as usize], *p, "{pre:?} threads {threads} cell {k}");
            }
            match &all {
                None => all = Some((cells, proofs)),
                Some(a) => assert_eq!(a, &(cells, proofs), "{pre:?} threads {threads}"),
            }
        }
    }
}

/// Every way of taking the G1 FFTs' products (IFMA lanes, one by one, lanes forced) gives the
/// same cells and proofs, on one and two threads, for a random blob, the zero blob (every FFT
/// point the identity) and a blob with one non-zero element (many identities among the points);
/// a few proofs are checked against the direct quotient.
#[test]
fn fk20_is_the_same_under_every_g1_fft_method() {
    let mut rng = StdRng::seed_from_u64(4844);
    let mut one_element = vec![0u8; BYTES_PER_BLOB];
    one_element[32 * 1000 + 31] = 3;
    let reference = KzgSettings::mainnet();
    for blob in [random_blob(&mut rng), vec![0u8; BYTES_PER_BLOB], one_element] {
        let want: Vec<(u64, [u8; 48])> = [0u64, 5, 127].iter().map(|&k| (k, reference.cell_kzg_proof_by_division(&blob, k).unwrap())).collect();
        let mut all = None;
        for method in [MulManyMethod::Auto, MulManyMethod::OneByOne, MulManyMethod::Lanes] {
            for threads in [1, 2] {
                let kzg = KzgSettings::mainnet_with(&KzgConfig { threads, g1_fft_products: method, ..KzgConfig::default() }).unwrap();
                let (cells, proofs) = kzg.compute_cells_and_kzg_proofs(&blob).unwrap();
                for (k, p) in &want {
                    assert_eq!(proofs[*k as usize], *p, "{method:?} threads {threads} cell {k}");
                }
                match &all {
                    None => all = Some((cells, proofs)),
                    Some(a) => assert_eq!(a, &(cells, proofs), "{method:?} threads {threads}"),
                }
            }
        }
    }
}

#[test]
fn config_out_of_range_is_an_error() {
    for cfg in [
        KzgConfig { threads: 0, ..KzgConfig::default() },
        KzgConfig { threads: 1, cell_precompute: CellPrecompute::FixedBase { window: 1, stride: 1, interleaved: true }, ..KzgConfig::default() },
        KzgConfig { threads: 1, cell_precompute: CellPrecompute::FixedBase { window: 17, stride: 1, interleaved: false }, ..KzgConfig::default() },
        KzgConfig { threads: 1, cell_precompute: CellPrecompute::FixedBase { window: 8, stride: 0, interleaved: true }, ..KzgConfig::default() },
    ] {
        assert!(KzgSettings::mainnet_with(&cfg).is_err(), "{cfg:?}");
    }
}

/// Against c-kzg on random blobs: cells and proofs byte for byte, recovery from random erasure
/// patterns, batch verification of random subsets across blobs, and corrupted cells, proofs
/// and commitments rejected by both.
#[test]
fn differential_against_c_kzg() {
    let mut rng = StdRng::seed_from_u64(0xce11);
    let kzg = KzgSettings::mainnet();
    let ck = c_kzg::ethereum_kzg_settings(0);
    let blobs: Vec<Vec<u8>> = (0..3).map(|_| random_blob(&mut rng)).collect();
    let mut all = Vec::new();
    for blob in &blobs {
        let cb = c_kzg::Blob::from_bytes(blob).unwrap();
        let (cells, proofs) = kzg.compute_cells_and_kzg_proofs(blob).unwrap();
        let (c_cells, c_proofs) = ck.compute_cells_and_kzg_proofs(&cb).unwrap();
        for i in 0..CELLS_PER_EXT_BLOB {
            assert_eq!(cell(&cells, i), &c_cells[i].to_bytes()[..], "cell {i}");
            assert_eq!(proofs[i], *c_proofs[i].to_bytes().as_slice(), "proof {i}");
        }
        let commitment = kzg.blob_to_kzg_commitment(blob).unwrap();
        all.push((commitment, cells, proofs));
    }
    // recovery from random patterns of 64 to 127 cells
    for trial in 0..4 {
        let (_, cells, proofs) = &all[trial % all.len()];
        let keep = rng.gen_range(64..=127);
        let mut idx: Vec<u64> = (0..CELLS_PER_EXT_BLOB as u64).collect();
        for i in (1..idx.len()).rev() {
            idx.swap(i, rng.gen_range(0..=i));
        }
        idx.truncate(keep);
        idx.sort_unstable();
        let kept: Vec<&[u8]> = idx.iter().map(|&i| cell(cells, i as usize)).collect();
        let (rc, rp) = kzg.recover_cells_and_kzg_proofs(&idx, &kept).unwrap();
        assert_eq!((&rc, &rp), (cells, proofs), "recovery from {keep} cells");
        let c_kept: Vec<c_kzg::Cell> = kept.iter().map(|c| c_kzg::Cell::from_bytes(c).unwrap()).collect();
        let (cc, cp) = ck.recover_cells_and_kzg_proofs(&idx, &c_kept).unwrap();
        assert_eq!(cc.iter().flat_map(|c| c.to_bytes()).collect::<Vec<u8>>(), rc);
        assert_eq!(cp.iter().map(|p| p.to_bytes().as_slice().to_vec()).collect::<Vec<Vec<u8>>>(), rp.iter().map(|p| p.to_vec()).collect::<Vec<_>>());
    }
    // batch verification of a random subset across the blobs, then corrupted
    let picks: Vec<(usize, u64)> = (0..40).map(|_| (rng.gen_range(0..all.len()), rng.gen_range(0..CELLS_PER_EXT_BLOB as u64))).collect();
    let mut commitments: Vec<Vec<u8>> = picks.iter().map(|&(b, _)| all[b].0.to_vec()).collect();
    let idx: Vec<u64> = picks.iter().map(|&(_, i)| i).collect();
    let mut cells: Vec<Vec<u8>> = picks.iter().map(|&(b, i)| cell(&all[b].1, i as usize).to_vec()).collect();
    let mut proofs: Vec<Vec<u8>> = picks.iter().map(|&(b, i)| all[b].2[i as usize].to_vec()).collect();
    let c_verify = |commitments: &[Vec<u8>], cells: &[Vec<u8>], proofs: &[Vec<u8>]| {
        let cm: Vec<c_kzg::Bytes48> = commitments.iter().map(|c| c_kzg::Bytes48::from_bytes(c).unwrap()).collect();
        let ce: Vec<c_kzg::Cell> = cells.iter().map(|c| c_kzg::Cell::from_bytes(c).unwrap()).collect();
        let pr: Vec<c_kzg::Bytes48> = proofs.iter().map(|c| c_kzg::Bytes48::from_bytes(c).unwrap()).collect();
        ck.verify_cell_kzg_proof_batch(&cm, &idx, &ce, &pr).map_err(|e| format!("{e:?}"))
    };
    let ours = |commitments: &[Vec<u8>], cells: &[Vec<u8>], proofs: &[Vec<u8>]| kzg.verify_cell_kzg_proof_batch(&refs(commitments), &idx, &refs(cells), &refs(proofs)).map_err(|e| e.to_string());
    assert_eq!(ours(&commitments, &cells, &proofs), Ok(true));
    assert_eq!(c_verify(&commitments, &cells, &proofs), Ok(true));
    // a changed field element (still below r): false for both
    cells[3][31] ^= 1;
    assert_eq!(ours(&commitments, &cells, &proofs), Ok(false));
    assert_eq!(c_verify(&commitments, &cells, &proofs), Ok(false));
    cells[3][31] ^= 1;
    // another valid proof in the wrong place: false
    proofs.swap(0, 1);
    if proofs[0] != proofs[1] {
        assert_eq!(ours(&commitments, &cells, &proofs), Ok(false));
        assert_eq!(c_verify(&commitments, &cells, &proofs), Ok(false));
    }
    proofs.swap(0, 1);
    // a commitment of another blob: false
    let other = all.iter().find(|a| a.0.as_slice() != commitments[5].as_slice()).unwrap().0.to_vec();
    commitments[5] = other;
    assert_eq!(ours(&commitments, &cells, &proofs), Ok(false));
    assert_eq!(c_verify(&commitments, &cells, &proofs), Ok(false));
}

/// Bad inputs are typed errors, never panics.
#[test]
fn bad_cell_inputs_are_errors() {
    let kzg = KzgSettings::mainnet();
    let blob = vec![0u8; BYTES_PER_BLOB];
    let (cells, proofs) = kzg.compute_cells_and_kzg_proofs(&blob).unwrap();
    let c = kzg.blob_to_kzg_commitment(&blob).unwrap();
    let ok_cell = cell(&cells, 0);
    let v = |cm: &[&[u8]], idx: &[u64], ce: &[&[u8]], pr: &[&[u8]]| kzg.verify_cell_kzg_proof_batch(cm, idx, ce, pr);
    assert_eq!(v(&[&c], &[0], &[ok_cell], &[&proofs[0]]), Ok(true));
    assert!(v(&[&c], &[128], &[ok_cell], &[&proofs[0]]).is_err());
    assert!(v(&[&c], &[u64::MAX], &[ok_cell], &[&proofs[0]]).is_err());
    assert!(v(&[&c[..47]], &[0], &[ok_cell], &[&proofs[0]]).is_err());
    assert!(v(&[&c], &[0], &[&ok_cell[..2047]], &[&proofs[0]]).is_err());
    assert!(v(&[&c], &[0], &[ok_cell], &[&proofs[0][..47]]).is_err());
    assert!(v(&[&c, &c], &[0], &[ok_cell], &[&proofs[0]]).is_err());
    let mut big = ok_cell.to_vec();
    big[0..32].copy_from_slice(&[0xff; 32]);
    assert!(v(&[&c], &[0], &[&big], &[&proofs[0]]).is_err());
    let mut off = [0u8; 48];
    off[0] = 0x80 | 0x1f;
    off[47] = 5;
    assert!(v(&[&off], &[0], &[ok_cell], &[&proofs[0]]).is_err());
    assert!(v(&[&c], &[0], &[ok_cell], &[&off]).is_err());
    // recovery
    let all: Vec<&[u8]> = (0..128).map(|i| cell(&cells, i)).collect();
    let idx: Vec<u64> = (0..128).collect();
    assert!(kzg.recover_cells_and_kzg_proofs(&idx, &all).is_ok());
    assert!(kzg.recover_cells_and_kzg_proofs(&idx[..63], &all[..63]).is_err());
    assert!(kzg.recover_cells_and_kzg_proofs(&idx[..64], &all[..63]).is_err());
    assert!(kzg.recover_cells_and_kzg_proofs(&[], &[]).is_err());
    let mut swapped = idx.clone();
    swapped.swap(3, 4);
    assert!(kzg.recover_cells_and_kzg_proofs(&swapped, &all).is_err());
    let mut dup = idx[..64].to_vec();
    dup[1] = 0;
    assert!(kzg.recover_cells_and_kzg_proofs(&dup, &all[..64]).is_err());
    let mut far = idx[..64].to_vec();
    far[63] = 200;
    assert!(kzg.recover_cells_and_kzg_proofs(&far, &all[..64]).is_err());
    let mut bad: Vec<&[u8]> = all[..64].to_vec();
    bad[2] = &big;
    assert!(kzg.recover_cells_and_kzg_proofs(&idx[..64], &bad).is_err());
    bad[2] = &ok_cell[..100];
    assert!(kzg.recover_cells_and_kzg_proofs(&idx[..64], &bad).is_err());
}

/// Recovery from cells that no blob produced (random field elements). With exactly 64 cells any
/// values are one polynomial's, and ours equals c-kzg's byte for byte. With more, the cells are
/// inconsistent: ours refuses them (as rust_eth_kzg does), where the spec's procedure would
/// truncate silently and c-kzg returns cells that differ from the truncated polynomial's.
#[test]
fn recovery_of_inconsistent_cells() {
    let mut rng = StdRng::seed_from_u64(0x7ec0);
    let kzg = KzgSettings::mainnet();
    let ck = c_kzg::ethereum_kzg_settings(0);
    for keep in [64usize, 65, 100, 128] {
        let mut idx: Vec<u64> = (0..CELLS_PER_EXT_BLOB as u64).collect();
        for i in (1..idx.len()).rev() {
            idx.swap(i, rng.gen_range(0..=i));
        }
        idx.truncate(keep);
        idx.sort_unstable();
        let cells: Vec<Vec<u8>> = (0..keep).map(|_| random_blob(&mut rng)[..BYTES_PER_CELL].to_vec()).collect();
        let ours = kzg.recover_cells_and_kzg_proofs(&idx, &refs(&cells));
        if keep > 64 {
            assert_eq!(ours, Err(zkforge_kzg::KzgError::InconsistentCells), "{keep} cells");
            continue;
        }
        let ours = ours.unwrap();
        let c_cells: Vec<c_kzg::Cell> = cells.iter().map(|c| c_kzg::Cell::from_bytes(c).unwrap()).collect();
        let (cc, cp) = ck.recover_cells_and_kzg_proofs(&idx, &c_cells).unwrap();
        assert_eq!(ours.0, cc.iter().flat_map(|c| c.to_bytes()).collect::<Vec<u8>>(), "{keep} cells");
        assert_eq!(ours.1.iter().map(|p| p.to_vec()).collect::<Vec<_>>(), cp.iter().map(|p| p.to_bytes().as_slice().to_vec()).collect::<Vec<_>>(), "{keep} cells");
        // and the 64 given cells come back unchanged
        for (k, &i) in idx.iter().enumerate() {
            assert_eq!(cell(&ours.0, i as usize), cells[k].as_slice());
        }
    }
}

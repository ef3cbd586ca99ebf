//! KZG cases (EIP-4844, and EIP-7594's `compute_cells`): zkforge-kzg against c-kzg 2.1.8 (blst inside, constant-time where the
//! spec asks; one thread, no precomputation: `ethereum_kzg_settings(0)`) on the same random
//! blobs, ours with its MSMs on the calling thread (`mainnet_with_threads(1)`, whose commitments
//! and proofs use 7.2 MB of fixed-base tables; `blob_to_kzg_commitment_noprecomp` runs without
//! them). Outputs are checked equal first (commitments and proofs byte for byte, verifications
//! true).

use std::hint::black_box;

use rand::{rngs::StdRng, Rng, SeedableRng};
use zkforge_kzg::{CommitPrecompute, KzgConfig, KzgSettings, BYTES_PER_BLOB};

use crate::{agree, timed, Case};

/// A blob of random field elements (each below r: top byte below r's 0x73).
pub(crate) fn random_blob(rng: &mut StdRng) -> Vec<u8> {
    let mut blob = vec![0u8; BYTES_PER_BLOB];
    for chunk in blob.chunks_exact_mut(32) {
        rng.fill(&mut chunk[1..]);
        chunk[0] = rng.gen_range(0..0x73); // below r's top byte 0x73
    }
    blob
}

fn refs(v: &[Vec<u8>]) -> Vec<&[u8]> {
    v.iter().map(|b| b.as_slice()).collect()
}

/// Every KZG case, `batch` blobs in the batch row (64 in the targets).
pub fn cases(batch: usize) -> Vec<Case> {
    let mut rng = StdRng::seed_from_u64(4844);
    let ours: &'static KzgSettings = Box::leak(Box::new(KzgSettings::mainnet_with_threads(1)));
    // the commitment tables (7.2 MB; c-kzg has no such option) are built before timing; the
    // `_noprecomp` row runs without them
    ours.prepare_commitments();
    let ours0: &'static KzgSettings =
        Box::leak(Box::new(KzgSettings::mainnet_with(&KzgConfig { threads: 1, commit_precompute: CommitPrecompute::None, ..KzgConfig::default() }).expect("mainnet")));
    let ck = c_kzg::ethereum_kzg_settings(0);
    // 64 blobs: the batch row's size in the targets (the other rows use the first)
    let blobs: Vec<Vec<u8>> = (0..batch.max(1)).map(|_| random_blob(&mut rng)).collect();
    let cblobs: Vec<c_kzg::Blob> = blobs.iter().map(|b| c_kzg::Blob::from_bytes(b).expect("blob")).collect();
    let commitments: Vec<[u8; 48]> = blobs.iter().map(|b| ours.blob_to_kzg_commitment(b).expect("blob")).collect();
    let proofs: Vec<[u8; 48]> = blobs.iter().zip(&commitments).map(|(b, c)| ours.compute_blob_kzg_proof(b, c).expect("blob")).collect();
    let c48 = |b: &[u8; 48]| c_kzg::Bytes48::from_bytes(b).expect("48 bytes");
    let mut z = [0u8; 32];
    rng.fill(&mut z[1..]);
    let mut out = Vec::new();

    // blob_to_kzg_commitment
    let (b0, cb0) = (blobs[0].clone(), cblobs[0].clone());
    let check = {
        let (b, cb) = (b0.clone(), cb0.clone());
        move || agree(ours.blob_to_kzg_commitment(&b).map_err(|e| e.to_string())?.to_vec(), vec![("c-kzg", ck.blob_to_kzg_commitment(&cb).map_err(|e| format!("{e:?}"))?.to_bytes().into_inner().to_vec())])
    };
    let (b1, cb1) = (b0.clone(), cb0.clone());
    out.push(
        Case {
            group: "kzg",
            op: "blob_to_kzg_commitment",
            curve: "bls12_381",
            size: 4096,
            threads: 1,
            ours: timed(move || {
                black_box(ours.blob_to_kzg_commitment(black_box(&b1)).expect("blob"));
            }),
            peers: vec![("c-kzg", timed(move || {
                black_box(ck.blob_to_kzg_commitment(black_box(&cb1)).expect("blob"));
            }))],
            check: None,
        }
        .with_check(check),
    );

    // blob_to_kzg_commitment without tables (GLV Pippenger over the prepared points)
    let (b5, cb5) = (b0.clone(), cb0.clone());
    let check = {
        let b = b0.clone();
        move || agree(ours0.blob_to_kzg_commitment(&b).map_err(|e| e.to_string())?.to_vec(), vec![("zkforge-tables", ours.blob_to_kzg_commitment(&b).map_err(|e| e.to_string())?.to_vec())])
    };
    out.push(
        Case {
            group: "kzg",
            op: "blob_to_kzg_commitment_noprecomp",
            curve: "bls12_381",
            size: 4096,
            threads: 1,
            ours: timed(move || {
                black_box(ours0.blob_to_kzg_commitment(black_box(&b5)).expect("blob"));
            }),
            peers: vec![("c-kzg", timed(move || {
                black_box(ck.blob_to_kzg_commitment(black_box(&cb5)).expect("blob"));
            }))],
            check: None,
        }
        .with_check(check),
    );

    // compute_kzg_proof at a random z
    let check = {
        let (b, cb) = (b0.clone(), cb0.clone());
        move || {
            let (p, y) = ours.compute_kzg_proof(&b, &z).map_err(|e| e.to_string())?;
            let (cp, cy) = ck.compute_kzg_proof(&cb, &c_kzg::Bytes32::from_bytes(&z).map_err(|e| format!("{e:?}"))?).map_err(|e| format!("{e:?}"))?;
            agree([p.to_vec(), y.to_vec()].concat(), vec![("c-kzg", [cp.to_bytes().into_inner().to_vec(), cy.as_slice().to_vec()].concat())])
        }
    };
    let (b2, cb2) = (b0.clone(), cb0.clone());
    let cz = c_kzg::Bytes32::from_bytes(&z).expect("32 bytes");
    out.push(
        Case {
            group: "kzg",
            op: "compute_kzg_proof",
            curve: "bls12_381",
            size: 4096,
            threads: 1,
            ours: timed(move || {
                black_box(ours.compute_kzg_proof(black_box(&b2), &z).expect("blob"));
            }),
            peers: vec![("c-kzg", timed(move || {
                black_box(ck.compute_kzg_proof(black_box(&cb2), &cz).expect("blob"));
            }))],
            check: None,
        }
        .with_check(check),
    );

    // compute_cells (EIP-7594): ours is an inverse FFT and an 8192-point FFT; c-kzg's
    // `compute_cells` (its compute_cells_and_kzg_proofs without the proofs)
    let check = {
        let (b, cb) = (b0.clone(), cb0.clone());
        move || {
            let o = ours.compute_cells(&b).map_err(|e| e.to_string())?;
            let t: Vec<u8> = ck.compute_cells(&cb).map_err(|e| format!("{e:?}"))?.iter().flat_map(|c| c.to_bytes()).collect();
            agree(o, vec![("c-kzg", t)])
        }
    };
    let (b4, cb4) = (b0.clone(), cb0.clone());
    out.push(
        Case {
            group: "kzg",
            op: "compute_cells",
            curve: "bls12_381",
            size: 8192,
            threads: 1,
            ours: timed(move || {
                black_box(ours.compute_cells(black_box(&b4)).expect("blob"));
            }),
            peers: vec![("c-kzg", timed(move || {
                black_box(ck.compute_cells(black_box(&cb4)).expect("blob"));
            }))],
            check: None,
        }
        .with_check(check),
    );

    // verify_blob_kzg_proof
    let (c0, p0) = (commitments[0], proofs[0]);
    let check = {
        let (b, cb) = (b0.clone(), cb0.clone());
        move || {
            let o = ours.verify_blob_kzg_proof(&b, &c0, &p0).map_err(|e| e.to_string())?;
            let t = ck.verify_blob_kzg_proof(&cb, &c48(&c0), &c48(&p0)).map_err(|e| format!("{e:?}"))?;
            agree((o, true), vec![("c-kzg", (t, true))])
        }
    };
    let (b3, cb3) = (b0.clone(), cb0.clone());
    out.push(
        Case {
            group: "kzg",
            op: "verify_blob_kzg_proof",
            curve: "bls12_381",
            size: 4096,
            threads: 1,
            ours: timed(move || {
                black_box(ours.verify_blob_kzg_proof(black_box(&b3), &c0, &p0).expect("valid"));
            }),
            peers: vec![("c-kzg", timed(move || {
                black_box(ck.verify_blob_kzg_proof(black_box(&cb3), &c48(&c0), &c48(&p0)).expect("valid"));
            }))],
            check: None,
        }
        .with_check(check),
    );

    // verify_blob_kzg_proof_batch, `batch` blobs
    let cc: Vec<c_kzg::Bytes48> = commitments.iter().map(c48).collect();
    let cp: Vec<c_kzg::Bytes48> = proofs.iter().map(c48).collect();
    let (bl, cm, pr) = (blobs.clone(), commitments.iter().map(|c| c.to_vec()).collect::<Vec<_>>(), proofs.iter().map(|p| p.to_vec()).collect::<Vec<_>>());
    let check = {
        let (bl, cm, pr, cbl, cc, cp) = (bl.clone(), cm.clone(), pr.clone(), cblobs.clone(), cc.clone(), cp.clone());
        move || {
            let o = ours.verify_blob_kzg_proof_batch(&refs(&bl), &refs(&cm), &refs(&pr)).map_err(|e| e.to_string())?;
            let t = ck.verify_blob_kzg_proof_batch(&cbl, &cc, &cp).map_err(|e| format!("{e:?}"))?;
            agree((o, true), vec![("c-kzg", (t, true))])
        }
    };
    let cbl = cblobs.clone();
    out.push(
        Case {
            group: "kzg",
            op: "verify_blob_kzg_proof_batch",
            curve: "bls12_381",
            size: blobs.len(),
            threads: 1,
            ours: timed(move || {
                black_box(ours.verify_blob_kzg_proof_batch(&refs(&bl), &refs(&cm), &refs(&pr)).expect("valid"));
            }),
            peers: vec![("c-kzg", timed(move || {
                black_box(ck.verify_blob_kzg_proof_batch(black_box(&cbl), &cc, &cp).expect("valid"));
            }))],
            check: None,
        }
        .with_check(check),
    );
    out
}

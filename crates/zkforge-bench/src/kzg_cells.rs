//! EIP-7594 cell cases: zkforge-kzg against c-kzg 2.1.8 (blst inside) and rust_eth_kzg 0.10.0
//! (crate-crypto, blstrs inside, single-threaded build), all on one thread, on the same random
//! blobs. Outputs are checked equal before timing (cells and proofs byte for byte,
//! verifications true).
//!
//! Precomputation is part of the row's name: `compute_cells_and_kzg_proofs` and
//! `recover_cells_and_kzg_proofs` compare our default FK20 tables (window 8, stride 1,
//! the 128 positions interleaved in one batch-affine pass: 25 MB)
//! with both peers' width-8 tables (`c-kzg-precompute8`, `rust_eth_kzg-precomp8`), and
//! `compute_cells_and_kzg_proofs_noprecomp` compares the three without tables.

use std::hint::black_box;

use rand::{rngs::StdRng, Rng, SeedableRng};
use rust_eth_kzg::{DASContext, TrustedSetup, UsePrecomp};
use zkforge_kzg::{CellPrecompute, KzgConfig, KzgSettings, BYTES_PER_BLOB, BYTES_PER_CELL, CELLS_PER_EXT_BLOB};

use crate::kzg::random_blob;
use crate::{agree, timed, Case};

fn leak<T>(t: T) -> &'static T {
    Box::leak(Box::new(t))
}

type Cells = (Vec<u8>, Vec<[u8; 48]>);

fn flat_c(cells: &[c_kzg::Cell], proofs: &[c_kzg::KzgProof]) -> Cells {
    (cells.iter().flat_map(|c| c.to_bytes()).collect(), proofs.iter().map(|p| p.to_bytes().into_inner()).collect())
}

fn flat_r(cells: &[rust_eth_kzg::Cell], proofs: &[[u8; 48]]) -> Cells {
    (cells.iter().flat_map(|c| c.iter().copied()).collect(), proofs.to_vec())
}

/// Every EIP-7594 case. `verify_blobs` blobs of 128 cells go into the batch-verification row.
pub fn cases(verify_blobs: usize) -> Vec<Case> {
    let mut rng = StdRng::seed_from_u64(7594);
    let ours: &'static KzgSettings = leak(KzgSettings::mainnet_with(&KzgConfig { threads: 1, ..KzgConfig::default() }).expect("mainnet"));
    let ours0: &'static KzgSettings =
        leak(KzgSettings::mainnet_with(&KzgConfig { threads: 1, cell_precompute: CellPrecompute::None, ..KzgConfig::default() }).expect("mainnet"));
    ours.prepare_cell_proofs();
    ours0.prepare_cell_proofs();
    ours.prepare_commitments();
    let ck8 = c_kzg::ethereum_kzg_settings(8);
    let ck0 = c_kzg::ethereum_kzg_settings(0);
    let re8: &'static DASContext = leak(DASContext::new(&TrustedSetup::default(), UsePrecomp::Yes { width: 8 }));
    let re0: &'static DASContext = leak(DASContext::new(&TrustedSetup::default(), UsePrecomp::No));
    let blob = random_blob(&mut rng);
    let cblob = c_kzg::Blob::from_bytes(&blob).expect("blob");
    let rblob: &'static [u8; BYTES_PER_BLOB] = leak(blob.clone().try_into().expect("blob size"));
    let mut out = Vec::new();

    // compute_cells_and_kzg_proofs, with and without tables
    for (op, o, c, r, cname, rname) in [
        ("compute_cells_and_kzg_proofs", ours, ck8, re8, "c-kzg-precompute8", "rust_eth_kzg-precomp8"),
        ("compute_cells_and_kzg_proofs_noprecomp", ours0, ck0, re0, "c-kzg-precompute0", "rust_eth_kzg-noprecomp"),
    ] {
        let check = {
            let (b, cb) = (blob.clone(), cblob.clone());
            move || {
                let mine = o.compute_cells_and_kzg_proofs(&b).map_err(|e| e.to_string())?;
                let (cc, cp) = c.compute_cells_and_kzg_proofs(&cb).map_err(|e| format!("{e:?}"))?;
                let (rc, rp) = r.compute_cells_and_kzg_proofs(rblob).map_err(|e| format!("{e:?}"))?;
                agree(mine, vec![(cname, flat_c(&cc[..], &cp[..])), (rname, flat_r(&rc, &rp))])
            }
        };
        let (b, cb) = (blob.clone(), cblob.clone());
        out.push(
            Case {
                group: "kzg",
                op,
                curve: "bls12_381",
                size: CELLS_PER_EXT_BLOB,
                threads: 1,
                ours: timed(move || {
                    black_box(o.compute_cells_and_kzg_proofs(black_box(&b)).expect("blob"));
                }),
                peers: vec![
                    (cname, timed(move || {
                        black_box(c.compute_cells_and_kzg_proofs(black_box(&cb)).expect("blob"));
                    })),
                    (rname, timed(move || {
                        black_box(r.compute_cells_and_kzg_proofs(black_box(rblob)).expect("blob"));
                    })),
                ],
                check: None,
            }
            .with_check(check),
        );
    }

    // recover_cells_and_kzg_proofs from a random half of the cells
    let (cells, _) = ours.compute_cells_and_kzg_proofs(&blob).expect("blob");
    let mut idx: Vec<u64> = (0..CELLS_PER_EXT_BLOB as u64).collect();
    for i in (1..idx.len()).rev() {
        idx.swap(i, rng.gen_range(0..=i));
    }
    idx.truncate(CELLS_PER_EXT_BLOB / 2);
    idx.sort_unstable();
    let idx: &'static [u64] = leak(idx);
    let kept: &'static Vec<Vec<u8>> = leak(idx.iter().map(|&i| cells[i as usize * BYTES_PER_CELL..][..BYTES_PER_CELL].to_vec()).collect());
    let kept_refs: &'static Vec<&'static [u8]> = leak(kept.iter().map(Vec::as_slice).collect());
    let c_kept: &'static Vec<c_kzg::Cell> = leak(kept.iter().map(|c| c_kzg::Cell::from_bytes(c).expect("cell")).collect());
    let r_kept: &'static Vec<&'static [u8; BYTES_PER_CELL]> = leak(kept.iter().map(|c| <&[u8; BYTES_PER_CELL]>::try_from(c.as_slice()).expect("cell")).collect());
    let check = move || {
        let mine = ours.recover_cells_and_kzg_proofs(idx, kept_refs).map_err(|e| e.to_string())?;
        let (cc, cp) = ck8.recover_cells_and_kzg_proofs(idx, c_kept).map_err(|e| format!("{e:?}"))?;
        let (rc, rp) = re8.recover_cells_and_kzg_proofs(idx.to_vec(), r_kept.clone()).map_err(|e| format!("{e:?}"))?;
        agree(mine, vec![("c-kzg-precompute8", flat_c(&cc[..], &cp[..])), ("rust_eth_kzg-precomp8", flat_r(&rc, &rp))])
    };
    out.push(
        Case {
            group: "kzg",
            op: "recover_cells_and_kzg_proofs",
            curve: "bls12_381",
            size: CELLS_PER_EXT_BLOB / 2,
            threads: 1,
            ours: timed(move || {
                black_box(ours.recover_cells_and_kzg_proofs(black_box(idx), kept_refs).expect("cells"));
            }),
            peers: vec![
                ("c-kzg-precompute8", timed(move || {
                    black_box(ck8.recover_cells_and_kzg_proofs(black_box(idx), c_kept).expect("cells"));
                })),
                ("rust_eth_kzg-precomp8", timed(move || {
                    black_box(re8.recover_cells_and_kzg_proofs(black_box(idx).to_vec(), r_kept.clone()).expect("cells"));
                })),
            ],
            check: None,
        }
        .with_check(check),
    );

    // verify_cell_kzg_proof_batch: every cell of `verify_blobs` blobs
    let mut commitments = Vec::new();
    let mut vidx = Vec::new();
    let mut vcells = Vec::new();
    let mut vproofs = Vec::new();
    for _ in 0..verify_blobs {
        let b = random_blob(&mut rng);
        let c = ours.blob_to_kzg_commitment(&b).expect("blob");
        let (cs, ps) = ours.compute_cells_and_kzg_proofs(&b).expect("blob");
        for i in 0..CELLS_PER_EXT_BLOB {
            commitments.push(c);
            vidx.push(i as u64);
            vcells.push(cs[i * BYTES_PER_CELL..][..BYTES_PER_CELL].to_vec());
            vproofs.push(ps[i]);
        }
    }
    let vidx: &'static [u64] = leak(vidx);
    let cm: &'static Vec<&'static [u8]> = leak(leak(commitments).iter().map(|c| &c[..]).collect());
    let ce: &'static Vec<&'static [u8]> = leak(leak(vcells).iter().map(Vec::as_slice).collect());
    let pr: &'static Vec<&'static [u8]> = leak(leak(vproofs).iter().map(|p| &p[..]).collect());
    let c_cm: &'static Vec<c_kzg::Bytes48> = leak(cm.iter().map(|c| c_kzg::Bytes48::from_bytes(c).expect("48")).collect());
    let c_ce: &'static Vec<c_kzg::Cell> = leak(ce.iter().map(|c| c_kzg::Cell::from_bytes(c).expect("cell")).collect());
    let c_pr: &'static Vec<c_kzg::Bytes48> = leak(pr.iter().map(|c| c_kzg::Bytes48::from_bytes(c).expect("48")).collect());
    let r_cm: &'static Vec<&'static [u8; 48]> = leak(cm.iter().map(|c| <&[u8; 48]>::try_from(*c).expect("48")).collect());
    let r_ce: &'static Vec<&'static [u8; BYTES_PER_CELL]> = leak(ce.iter().map(|c| <&[u8; BYTES_PER_CELL]>::try_from(*c).expect("cell")).collect());
    let r_pr: &'static Vec<&'static [u8; 48]> = leak(pr.iter().map(|c| <&[u8; 48]>::try_from(*c).expect("48")).collect());
    let check = move || {
        let mine = ours.verify_cell_kzg_proof_batch(cm, vidx, ce, pr).map_err(|e| e.to_string())?;
        let c = ck0.verify_cell_kzg_proof_batch(c_cm, vidx, c_ce, c_pr).map_err(|e| format!("{e:?}"))?;
        let r = re0.verify_cell_kzg_proof_batch(r_cm.clone(), vidx, r_ce.clone(), r_pr.clone()).is_ok();
        agree((mine, true), vec![("c-kzg", (c, true)), ("rust_eth_kzg", (r, true))])
    };
    out.push(
        Case {
            group: "kzg",
            op: "verify_cell_kzg_proof_batch",
            curve: "bls12_381",
            size: verify_blobs * CELLS_PER_EXT_BLOB,
            threads: 1,
            ours: timed(move || {
                black_box(ours.verify_cell_kzg_proof_batch(black_box(cm), vidx, ce, pr).expect("valid"));
            }),
            peers: vec![
                ("c-kzg", timed(move || {
                    black_box(ck0.verify_cell_kzg_proof_batch(black_box(c_cm), vidx, c_ce, c_pr).expect("valid"));
                })),
                ("rust_eth_kzg", timed(move || {
                    black_box(re0.verify_cell_kzg_proof_batch(black_box(r_cm.clone()), vidx, r_ce.clone(), r_pr.clone()).expect("valid"));
                })),
            ],
            check: None,
        }
        .with_check(check),
    );
    out
}

/// Thread scaling: ours on two threads against ours on one (the "peer"), same inputs, for the
/// operations the issue asks to scale: cells and proofs, recovery from half the cells, and the
/// batch verification of 64 blob proofs. The ratio is t(2 threads) / t(1 thread); 0.556 is 1.8x.
/// `batch` blobs go into the batch-verification row (64 in the targets).
pub fn scaling_cases(batch: usize) -> Vec<Case> {
    let mut rng = StdRng::seed_from_u64(2);
    let one: &'static KzgSettings = leak(KzgSettings::mainnet_with(&KzgConfig { threads: 1, ..KzgConfig::default() }).expect("mainnet"));
    let two: &'static KzgSettings = leak(KzgSettings::mainnet_with(&KzgConfig { threads: 2, ..KzgConfig::default() }).expect("mainnet"));
    for k in [one, two] {
        k.prepare_cell_proofs();
        k.prepare_commitments();
    }
    let blob: &'static Vec<u8> = leak(random_blob(&mut rng));
    let cells: &'static Vec<u8> = leak(one.compute_cells_and_kzg_proofs(blob).expect("blob").0);
    let idx: &'static Vec<u64> = leak((0..CELLS_PER_EXT_BLOB as u64).step_by(2).collect());
    let kept: &'static Vec<&'static [u8]> = leak(idx.iter().map(|&i| &cells[i as usize * BYTES_PER_CELL..][..BYTES_PER_CELL]).collect());
    let blobs: &'static Vec<Vec<u8>> = leak((0..batch.max(1)).map(|_| random_blob(&mut rng)).collect());
    let cms: &'static Vec<[u8; 48]> = leak(blobs.iter().map(|b| one.blob_to_kzg_commitment(b).expect("blob")).collect());
    let prs: &'static Vec<[u8; 48]> = leak(blobs.iter().zip(cms.iter()).map(|(b, c)| one.compute_blob_kzg_proof(b, c).expect("blob")).collect());
    let bl: &'static Vec<&'static [u8]> = leak(blobs.iter().map(Vec::as_slice).collect());
    let cm: &'static Vec<&'static [u8]> = leak(cms.iter().map(|c| &c[..]).collect());
    let pr: &'static Vec<&'static [u8]> = leak(prs.iter().map(|c| &c[..]).collect());
    let row = |op: &'static str, size: usize, f: fn(&'static KzgSettings, &'static [u8], &'static [u64], &'static [&'static [u8]], [&'static [&'static [u8]]; 3]) -> Vec<u8>| {
        let args = (blob.as_slice(), idx.as_slice(), kept.as_slice(), [bl.as_slice(), cm.as_slice(), pr.as_slice()]);
        let check = move || agree(f(two, args.0, args.1, args.2, args.3), vec![("zkforge-1thread", f(one, args.0, args.1, args.2, args.3))]);
        Case {
            group: "kzg",
            op,
            curve: "bls12_381",
            size,
            threads: 2,
            ours: timed(move || {
                black_box(f(two, args.0, args.1, args.2, args.3));
            }),
            peers: vec![("zkforge-1thread", timed(move || {
                black_box(f(one, args.0, args.1, args.2, args.3));
            }))],
            check: None,
        }
        .with_check(check)
    };
    vec![
        row("compute_cells_and_kzg_proofs", CELLS_PER_EXT_BLOB, |k, b, _, _, _| {
            let (c, p) = k.compute_cells_and_kzg_proofs(b).expect("blob");
            [c, p.concat()].concat()
        }),
        row("recover_cells_and_kzg_proofs", CELLS_PER_EXT_BLOB / 2, |k, _, i, c, _| {
            let (c, p) = k.recover_cells_and_kzg_proofs(i, c).expect("cells");
            [c, p.concat()].concat()
        }),
        row("verify_blob_kzg_proof_batch", batch.max(1), |k, _, _, _, [b, c, p]| vec![u8::from(k.verify_blob_kzg_proof_batch(b, c, p).expect("valid"))]),
    ]
}

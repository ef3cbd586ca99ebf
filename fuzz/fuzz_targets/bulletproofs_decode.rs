//! Fuzz the Bulletproofs and Bulletproofs+ (both formats) decoders and verifiers
//! (zkforge-bulletproofs):
//! arbitrary bytes as a range proof of either kind and commitments on each group; decoding gives a proof or a typed error, and a
//! decoded proof verifies or fails, never panics. The first byte picks the group and the bit
//! size; the next byte the number of commitments; then commitments, then the proof.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use zkforge_bulletproofs::{Bls12381G1, Bn254G1, BpGroup, BulletproofGens, Commitment, ExtendedPedersenGens, PedersenGens, PlusFormat, RangeProof, RangeProofPlus, Ristretto255, Transcript};

fn run<G: BpGroup>(gens: &(BulletproofGens<G>, PedersenGens<G>), n: usize, mut d: &[u8]) {
    let Some((&m, rest)) = d.split_first() else { return };
    d = rest;
    let m = (m % 5) as usize;
    let mut cs = Vec::new();
    for _ in 0..m {
        if d.len() < G::POINT_BYTES {
            return;
        }
        let (c, rest) = d.split_at(G::POINT_BYTES);
        d = rest;
        match Commitment::<G>::from_bytes(c) {
            Some(c) => cs.push(c),
            None => return,
        }
    }
    if let Ok(p) = RangeProof::<G>::from_bytes(d) {
        assert_eq!(p.to_bytes(), d, "decode then encode changes the bytes");
        let _ = p.verify_multiple(&gens.0, &gens.1, &mut Transcript::new(b"fuzz"), &cs, n);
    }
    if let Ok(p) = RangeProofPlus::<G>::from_bytes(d) {
        assert_eq!(p.to_bytes(), d, "decode then encode changes the bytes (plus)");
        let _ = p.verify(&gens.0, &gens.1, &mut Transcript::new(b"fuzz"), &cs, n);
    }
    if let Ok(p) = RangeProofPlus::<G>::from_bytes_in(PlusFormat::Tari, d) {
        assert_eq!(p.to_bytes_in(PlusFormat::Tari), d, "decode then encode changes the bytes (Tari format)");
        let _ = p.verify_in(PlusFormat::Tari, &gens.0, &gens.1, &mut Transcript::new(b"fuzz"), &cs, n);
        // extension degrees above 1 (any bases do for a fuzzed verification)
        let epc = ExtendedPedersenGens { pc: gens.1, extra_blinding: vec![gens.1.b_blinding; p.extension_degree() - 1] };
        let _ = p.verify_extended(&gens.0, &epc, &mut Transcript::new(b"fuzz"), &cs, &[], n);
    }
}

fn gens<G: BpGroup>(cell: &OnceLock<(BulletproofGens<G>, PedersenGens<G>)>) -> &(BulletproofGens<G>, PedersenGens<G>) {
    cell.get_or_init(|| (BulletproofGens::new(64, 4), PedersenGens::default()))
}

static R: OnceLock<(BulletproofGens<Ristretto255>, PedersenGens<Ristretto255>)> = OnceLock::new();
static B: OnceLock<(BulletproofGens<Bls12381G1>, PedersenGens<Bls12381G1>)> = OnceLock::new();
static N: OnceLock<(BulletproofGens<Bn254G1>, PedersenGens<Bn254G1>)> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let Some((&sel, d)) = data.split_first() else { return };
    let n = [0usize, 1, 8, 13, 32, 64, 65, 64][(sel >> 2) as usize % 8];
    match sel % 3 {
        0 => run::<Ristretto255>(gens(&R), n, d),
        1 => run::<Bls12381G1>(gens(&B), n, d),
        _ => run::<Bn254G1>(gens(&N), n, d),
    }
});

//! Fuzz the KZG decoders (zkforge-kzg): blobs, field elements, commitments and proofs, cells and
//! cell indices reach every public function through arbitrary bytes; each call gives a result
//! or a typed error, never a panic. The first byte picks the function, the rest is cut into
//! that function's inputs (short inputs become wrong lengths on purpose).
#![no_main]

use libfuzzer_sys::fuzz_target;
use zkforge_kzg::{KzgSettings, BYTES_PER_BLOB, BYTES_PER_CELL};

/// Take `n` bytes (fewer when the input runs out).
fn take<'a>(d: &mut &'a [u8], n: usize) -> &'a [u8] {
    let (a, b) = d.split_at(n.min(d.len()));
    *d = b;
    a
}

/// A blob-sized input: the bytes given, repeated to 131072 (so the decoders see real field
/// elements), or short when the selector asks for a wrong length.
fn blob(d: &[u8], exact: bool) -> Vec<u8> {
    if !exact || d.is_empty() {
        return d.to_vec();
    }
    d.iter().copied().cycle().take(BYTES_PER_BLOB).collect()
}

fuzz_target!(|data: &[u8]| {
    let kzg = KzgSettings::mainnet();
    let Some((&sel, mut d)) = data.split_first() else { return };
    let exact = sel & 0x80 != 0;
    match sel % 8 {
        0 => {
            let _ = kzg.verify_kzg_proof(take(&mut d, 48), take(&mut d, 32), take(&mut d, 32), take(&mut d, 48));
        }
        1 => {
            let (c, p) = (take(&mut d, 48), take(&mut d, 48));
            let _ = kzg.verify_blob_kzg_proof(&blob(d, exact), c, p);
        }
        2 => {
            let _ = kzg.blob_to_kzg_commitment(&blob(d, exact));
        }
        3 => {
            let z = take(&mut d, 32);
            let _ = kzg.compute_kzg_proof(&blob(d, exact), z);
        }
        4 => {
            // cells: up to 4, each with an index byte, a commitment and a proof
            let (mut cs, mut idx, mut cells, mut ps) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            while !d.is_empty() && cells.len() < 4 {
                idx.push(u64::from(take(&mut d, 1)[0]));
                cs.push(take(&mut d, 48).to_vec());
                ps.push(take(&mut d, 48).to_vec());
                let c = take(&mut d, 64);
                cells.push(if exact { c.iter().copied().cycle().take(BYTES_PER_CELL).collect() } else { c.to_vec() });
            }
            fn r(v: &[Vec<u8>]) -> Vec<&[u8]> {
                v.iter().map(Vec::as_slice).collect()
            }
            let _ = kzg.verify_cell_kzg_proof_batch(&r(&cs), &idx, &r(&cells), &r(&ps));
        }
        5 => {
            // recovery from the cells of a fuzzed blob, some indices and bytes changed
            let Ok((cells, _)) = kzg.compute_cells(&blob(d, true)).map(|c| (c, ())) else { return };
            let mut idx: Vec<u64> = (0..128).filter(|i| d.get(*i as usize % d.len().max(1)).is_some_and(|b| b & 1 == 1) || *i < 64).collect();
            if let Some(&b) = d.first() {
                idx[0] = u64::from(b);
            }
            let mut kept: Vec<Vec<u8>> = idx.iter().map(|&i| cells[(i as usize % 128) * BYTES_PER_CELL..][..BYTES_PER_CELL].to_vec()).collect();
            if let (Some(&b), Some(c)) = (d.get(1), kept.get_mut(1)) {
                c[b as usize % BYTES_PER_CELL] ^= 0xff;
            }
            let r: Vec<&[u8]> = kept.iter().map(Vec::as_slice).collect();
            let _ = kzg.recover_cells_and_kzg_proofs(&idx, &r);
        }
        6 => {
            let _ = KzgSettings::from_text(&String::from_utf8_lossy(d), 1);
        }
        _ => {
            let _ = KzgSettings::from_json_with(&String::from_utf8_lossy(d), &Default::default());
        }
    }
});

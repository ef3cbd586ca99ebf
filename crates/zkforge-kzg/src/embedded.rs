//! The mainnet setup in a fast-load form, embedded in the crate (`data/mainnet_setup.bin`):
//! the magic `ZKFKZG01`, then uncompressed big-endian points (Zcash encoding: 96 bytes for G1,
//! 192 for G2) in this order:
//!
//! - the 4096 G1 Lagrange points, already in bit-reversed order;
//! - the 65 G2 monomial points;
//! - the first 4032 G1 monomial points (the ones cell proofs use);
//! - FK20's transformed setup, 128 x 64 G1 points, position-major (`fk20::Fk20::columns`).
//!
//! Loading costs two Montgomery conversions and a curve-equation check per point (no square
//! roots, no subgroup checks, no G1 FFTs). `examples/embed_setup.rs` writes the file from
//! `data/trusted_setup.txt`; the test below checks that the two agree point for point, which
//! (with the text path's subgroup checks) is what vouches for the embedded points.

use zkforge_curve::bls12_381::{G1Affine, G2Affine};

use crate::{KzgError, FIELD_ELEMENTS_PER_BLOB, FIELD_ELEMENTS_PER_CELL, FIELD_ELEMENTS_PER_EXT_BLOB};

/// The embedded mainnet file.
pub(crate) const MAINNET: &[u8] = include_bytes!("../data/mainnet_setup.bin");

const MAGIC: &[u8; 8] = b"ZKFKZG01";
const LAGRANGE: usize = FIELD_ELEMENTS_PER_BLOB;
const G2: usize = FIELD_ELEMENTS_PER_CELL + 1;
const MONOMIAL: usize = FIELD_ELEMENTS_PER_BLOB - FIELD_ELEMENTS_PER_CELL;
const FK20: usize = FIELD_ELEMENTS_PER_EXT_BLOB;
const LEN: usize = 8 + (LAGRANGE + MONOMIAL + FK20) * 96 + G2 * 192;

/// The decoded points.
pub(crate) struct Embedded {
    pub(crate) lagrange_brp: Vec<G1Affine>,
    pub(crate) g2: Vec<G2Affine>,
    pub(crate) monomial: Vec<G1Affine>,
    pub(crate) fk20_columns: Vec<G1Affine>,
}

fn g1s(b: &[u8]) -> Result<Vec<G1Affine>, KzgError> {
    b.chunks_exact(96).map(|c| G1Affine::from_uncompressed_unchecked(c).map_err(|_| KzgError::InvalidSetup("an embedded G1 point is not on the curve"))).collect()
}

/// Decode (and check on the curve) an embedded setup.
pub(crate) fn decode(b: &[u8]) -> Result<Embedded, KzgError> {
    if b.len() != LEN || &b[..8] != MAGIC {
        return Err(KzgError::InvalidSetup("the embedded setup has the wrong size or magic"));
    }
    let (l, rest) = b[8..].split_at(LAGRANGE * 96);
    let (g2, rest) = rest.split_at(G2 * 192);
    let (m, f) = rest.split_at(MONOMIAL * 96);
    let g2 = g2.chunks_exact(192).map(|c| G2Affine::from_uncompressed_unchecked(c).map_err(|_| KzgError::InvalidSetup("an embedded G2 point is not on the curve"))).collect::<Result<_, _>>()?;
    Ok(Embedded { lagrange_brp: g1s(l)?, g2, monomial: g1s(m)?, fk20_columns: g1s(f)? })
}

/// Encode points in the embedded form (the generator example uses this).
pub(crate) fn encode(e: &Embedded) -> Vec<u8> {
    let mut out = Vec::with_capacity(LEN);
    out.extend_from_slice(MAGIC);
    e.lagrange_brp.iter().for_each(|p| out.extend_from_slice(&p.to_uncompressed()));
    e.g2.iter().for_each(|p| out.extend_from_slice(&p.to_uncompressed()));
    e.monomial.iter().for_each(|p| out.extend_from_slice(&p.to_uncompressed()));
    e.fk20_columns.iter().for_each(|p| out.extend_from_slice(&p.to_uncompressed()));
    out
}

/// The embedded form of a setup parsed (and fully checked) from text, with FK20's columns
/// computed: what `data/mainnet_setup.bin` must hold for the mainnet text.
pub fn embedded_from_text(text: &str) -> Result<Vec<u8>, KzgError> {
    // every point decoded and subgroup-checked: not the known-setup shortcut, which takes the
    // points from this very file
    let k = crate::KzgSettings::from_text_with(text, &crate::KzgConfig { threads: 2, known_setup: false, ..crate::KzgConfig::default() })?;
    let fk20_columns = crate::fk20::Fk20::columns(&k.g1_monomial, &k.w128(), 2, zkforge_msm::mul_many::MulManyMethod::Auto);
    Ok(encode(&Embedded {
        lagrange_brp: k.g1_lagrange.points().to_vec(),
        g2: k.g2_monomial.clone(),
        monomial: k.g1_monomial.clone(),
        fk20_columns,
    }))
}

#[cfg(test)]
mod tests {
    /// The embedded file equals what the checked text setup gives, byte for byte.
    #[test]
    fn embedded_setup_equals_the_text_file() {
        let want = super::embedded_from_text(include_str!("../data/trusted_setup.txt")).expect("the text setup is valid");
        assert!(want == super::MAINNET, "data/mainnet_setup.bin is stale: run `cargo run --release -p zkforge-kzg --example embed_setup`");
        assert!(super::decode(&want[..want.len() - 1]).is_err());
        let mut bad = want.clone();
        bad[8 + 95] ^= 1; // the first point's y: off the curve
        assert!(super::decode(&bad).is_err());
    }
}

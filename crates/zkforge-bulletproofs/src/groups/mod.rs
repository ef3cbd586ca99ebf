//! The three groups: [`Ristretto255`] (curve25519-dalek's arithmetic, dalek's generators),
//! [`Bls12381G1`] and [`Bn254G1`] (our curves and MSM, generators by RFC 9380 hash-to-curve).

mod ristretto;
mod weierstrass;

pub use ristretto::{Ristretto255, Scalar25519, Scalar25519Config};
pub use weierstrass::{BpCurve, Bls12381G1, Bn254G1, Weierstrass};

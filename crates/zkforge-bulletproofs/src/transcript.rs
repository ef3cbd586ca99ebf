//! Merlin transcript operations of the range proof, with dalek's `bulletproofs` labels
//! (`dom-sep` "rangeproof v1" / "ipp v1", `n`, `m`, `V`, `A`, `S`, `y`, `z`, `T_1`, `T_2`, `x`,
//! `t_x`, `t_x_blinding`, `e_blinding`, `w`, `L`, `R`, `u`): the same bytes in, the same
//! challenges out, for every group. Challenges are 64 bytes reduced mod the group order.

use merlin::Transcript;

use crate::error::BulletproofError;
use crate::group::BpGroup;

/// "rangeproof v1" with the bit size and the number of values.
pub(crate) fn rangeproof_domain_sep(t: &mut Transcript, n: u64, m: u64) {
    t.append_message(b"dom-sep", b"rangeproof v1");
    t.append_u64(b"n", n);
    t.append_u64(b"m", m);
}

/// "ipp v1" with the vector length.
pub(crate) fn innerproduct_domain_sep(t: &mut Transcript, n: u64) {
    t.append_message(b"dom-sep", b"ipp v1");
    t.append_u64(b"n", n);
}

/// A scalar's 32 little-endian bytes.
pub(crate) fn append_scalar<G: BpGroup>(t: &mut Transcript, label: &'static [u8], s: &G::Scalar) {
    t.append_message(label, &G::scalar_to_bytes(s));
}

/// A point's compressed bytes.
pub(crate) fn append_point(t: &mut Transcript, label: &'static [u8], bytes: &[u8]) {
    t.append_message(label, bytes);
}

/// A point that must not be the identity (A, S, T_1, T_2, L, R), as dalek checks.
pub(crate) fn validate_and_append_point<G: BpGroup>(t: &mut Transcript, label: &'static [u8], p: &G::Point, bytes: &[u8]) -> Result<(), BulletproofError> {
    if G::is_identity(p) {
        return Err(BulletproofError::VerificationFailed);
    }
    t.append_message(label, bytes);
    Ok(())
}

/// A challenge scalar: 64 transcript bytes reduced mod the order.
pub(crate) fn challenge_scalar<G: BpGroup>(t: &mut Transcript, label: &'static [u8]) -> G::Scalar {
    let mut buf = [0u8; 64];
    t.challenge_bytes(label, &mut buf);
    G::scalar_from_wide(&buf)
}

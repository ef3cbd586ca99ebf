//! Typed errors of proving, verifying and decoding.

/// Everything that can go wrong; no operation of this crate panics on its input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BulletproofError {
    /// The bit size is not in 1..=64.
    #[error("bit size {0} is not supported: use 1 to 64 bits")]
    InvalidBitsize(usize),
    /// No values, or more than the generators have parties for.
    #[error("{0} values cannot be aggregated: give 1 to 64 values (at most the generators' party capacity)")]
    InvalidAggregation(usize),
    /// The generators are too few for this proof.
    #[error("the generators hold {capacity} per party for {parties} parties; this proof needs {need_bits} per party for {need_parties} parties")]
    GeneratorsTooSmall {
        /// Generators per party held.
        capacity: usize,
        /// Parties held.
        parties: usize,
        /// Generators per party needed (the bit size rounded up to a power of two).
        need_bits: usize,
        /// Parties needed (the value count rounded up to a power of two).
        need_parties: usize,
    },
    /// Values and blinding factors differ in number.
    #[error("{values} values but {blindings} blinding factors")]
    WrongNumBlindingFactors {
        /// Values given.
        values: usize,
        /// Blinding factors given.
        blindings: usize,
    },
    /// A value does not fit the bit size (a proof of it could not verify).
    #[error("value number {index} does not fit in {bits} bits")]
    ValueOutOfRange {
        /// Position of the value.
        index: usize,
        /// The bit size.
        bits: usize,
    },
    /// Minimum-value promises and values differ in number.
    #[error("{values} values but {minimums} minimum-value promises")]
    WrongNumMinimums {
        /// Values given.
        values: usize,
        /// Promises given.
        minimums: usize,
    },
    /// A value is below its minimum-value promise (a proof of it could not verify).
    #[error("value number {index} is below its minimum-value promise")]
    BelowMinimum {
        /// Position of the value.
        index: usize,
    },
    /// A value's blinding factors are not one per base of the extended commitment (or an
    /// extension degree outside 1..=6 was asked for).
    #[error("value number {index} has {got} blinding factors where the extension degree is {expected} (Tari's degrees are 1 to 6)")]
    WrongExtensionDegree {
        /// Position of the value.
        index: usize,
        /// The extension degree.
        expected: usize,
        /// Factors given.
        got: usize,
    },
    /// Extension degrees above 1 exist only in Tari's format.
    #[error("extended commitments (extension degree above 1) exist only in Tari's format")]
    ExtensionNeedsTariFormat,
    /// Tari's format takes only minimum-value promises below 2^n.
    #[error("the minimum-value promise of value number {index} does not fit in {bits} bits, which Tari's format requires")]
    MinimumTooLarge {
        /// Position of the value.
        index: usize,
        /// The bit size.
        bits: usize,
    },
    /// The byte string has a length no proof of this group has.
    #[error("a {group} range proof cannot be {len} bytes long")]
    WrongLength {
        /// The group's name.
        group: &'static str,
        /// Bytes given.
        len: usize,
    },
    /// A scalar is not below the group order.
    #[error("the scalar at byte {offset} is not canonical (not below the group order)")]
    NonCanonicalScalar {
        /// Where it starts.
        offset: usize,
    },
    /// A point does not decode to a group element.
    #[error("the point at byte {offset} is not a valid compressed {group} element")]
    InvalidPoint {
        /// The group's name.
        group: &'static str,
        /// Where it starts.
        offset: usize,
    },
    /// The proof does not verify.
    #[error("the range proof does not verify")]
    VerificationFailed,
}

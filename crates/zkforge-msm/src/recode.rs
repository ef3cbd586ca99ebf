//! Signed window digits: k = sum_j d_j 2^(c j) with d_j in [-2^(c-1), 2^(c-1)), from the plain
//! base-2^c digits by carrying 1 into the next window whenever a digit reaches 2^(c-1)
//! (the signed-digit recoding of the bucket method; e.g. Bernstein et al., ePrint 2012/549).
//!
//! Window count: the top window must absorb the last carry without producing one. With the
//! largest scalar `max`, the top window's raw digit is at most t = max >> (c (w - 1)), and with
//! an incoming carry at most t + 1, which must stay below 2^(c-1): so w is the least count with
//! t <= 2^(c-1) - 2. (Counting only bits is not enough: 255-bit scalars at c = 2 fill exactly
//! 128 windows, and the carry out of the top one was lost.) c = 1 has no such count (its digit
//! set {-1, 0} cannot build positive numbers), so widths run 2..=16.

/// Smallest width the signed recoding supports.
pub const MIN_WINDOW: u32 = 2;
/// Largest width (digits are stored as i16).
pub const MAX_WINDOW: u32 = 16;

/// `k >> s` for a 256-bit k, saturating to 0 for s >= 256.
fn shr256(k: &[u64; 4], s: u32) -> [u64; 4] {
    let mut out = [0u64; 4];
    if s >= 256 {
        return out;
    }
    let (limbs, bits) = ((s / 64) as usize, s % 64);
    for i in 0..4 - limbs {
        let lo = k[i + limbs] >> bits;
        let hi = if bits > 0 && i + limbs + 1 < 4 { k[i + limbs + 1] << (64 - bits) } else { 0 };
        out[i] = lo | hi;
    }
    out
}

/// Number of signed windows of width `c` that every scalar <= `max` needs, the final carry
/// included (see the module header). Any width in 2..=31 counts (zkforge-gpu's folded bases
/// take up to 24); this crate's own recoding stores digits of at most [`MAX_WINDOW`] bits.
pub fn num_windows(max: &[u64; 4], c: u32) -> usize {
    assert!((MIN_WINDOW..=31).contains(&c), "window width {c} outside 2..=31");
    let limit = (1u64 << (c - 1)) - 2;
    let mut w = 1usize;
    loop {
        let t = shr256(max, c * (w as u32 - 1));
        if t[1] == 0 && t[2] == 0 && t[3] == 0 && t[0] <= limit {
            return w;
        }
        w += 1;
    }
}

/// The largest value of `bits`-bit integers, 2^bits - 1, as limbs.
pub fn max_of_bits(bits: u32) -> [u64; 4] {
    let mut m = [0u64; 4];
    for (i, limb) in m.iter_mut().enumerate() {
        let lo = 64 * i as u32;
        if bits >= lo + 64 {
            *limb = u64::MAX;
        } else if bits > lo {
            *limb = (1u64 << (bits - lo)) - 1;
        }
    }
    m
}

/// Bits c*j .. c*j + c of k (zero above 256).
#[inline]
fn window_bits(k: &[u64; 4], start: u32, c: u32) -> u32 {
    if start >= 256 {
        return 0;
    }
    let limb = (start / 64) as usize;
    let off = start % 64;
    let mut v = k[limb] >> off;
    if off + c > 64 && limb + 1 < 4 {
        v |= k[limb + 1] << (64 - off);
    }
    (v & ((1u64 << c) - 1)) as u32
}

/// Signed digits of k into `out[j * stride]`, j = 0..nwin. Returns false when k does not fit
/// in `nwin` windows (a carry out of the top window, or bits above it): the digits are then not
/// a representation of k and the caller must not use them. Callers size `nwin` with
/// [`num_windows`] from a bound on k, so this never fails for them; it is checked anyway,
/// in release builds too.
#[inline]
#[must_use]
pub fn signed_digits(k: &[u64; 4], c: u32, nwin: usize, out: &mut [i16], stride: usize) -> bool {
    let half = 1i32 << (c - 1);
    let full = 1i32 << c;
    let mut carry = 0i32;
    for j in 0..nwin {
        let v = window_bits(k, j as u32 * c, c) as i32 + carry;
        let (d, cy) = if v >= half { (v - full, 1) } else { (v, 0) };
        out[j * stride] = d as i16;
        carry = cy;
    }
    let rest = shr256(k, c * nwin as u32);
    carry == 0 && rest == [0; 4]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// sum_j d_j 2^(c j) as a 384-bit two's-complement value (little-endian limbs).
    fn rebuild(d: &[i16], c: u32) -> [u64; 6] {
        let mut acc = [0u64; 6];
        for (j, &dj) in d.iter().enumerate() {
            let s = c * j as u32;
            let (limb, off) = ((s / 64) as usize, s % 64);
            let mag = (dj.unsigned_abs() as u128) << off;
            let mut term = [0u64; 6];
            term[limb] = mag as u64;
            if limb + 1 < 6 {
                term[limb + 1] = (mag >> 64) as u64;
            }
            if dj < 0 {
                // two's complement negation of term
                let mut carry = 1u64;
                for t in term.iter_mut() {
                    let (v, o) = (!*t).overflowing_add(carry);
                    *t = v;
                    carry = o as u64;
                }
            }
            let mut carry = 0u64;
            for i in 0..6 {
                let (v1, o1) = acc[i].overflowing_add(term[i]);
                let (v2, o2) = v1.overflowing_add(carry);
                acc[i] = v2;
                carry = (o1 | o2) as u64;
            }
        }
        acc
    }

    #[test]
    fn digits_rebuild_every_width() {
        let r = [0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48];
        let r1 = [r[0] - 1, r[1], r[2], r[3]];
        let ones255 = max_of_bits(255);
        let ones128 = max_of_bits(128);
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for c in MIN_WINDOW..=MAX_WINDOW {
            for (max, ks) in [
                (r1, vec![r1, [0; 4], [1, 0, 0, 0], [next(), next(), next(), next() >> 2]]),
                (ones255, vec![ones255, [next(), next(), next(), next() >> 1]]),
                (ones128, vec![ones128, [next(), next(), 0, 0]]),
            ] {
                let nwin = num_windows(&max, c);
                for k in ks {
                    let mut d = vec![0i16; nwin];
                    assert!(signed_digits(&k, c, nwin, &mut d, 1), "c={c} k={k:x?}");
                    for &x in &d {
                        assert!((-(1i32 << (c - 1))..(1i32 << (c - 1))).contains(&(x as i32)));
                    }
                    assert_eq!(rebuild(&d, c), [k[0], k[1], k[2], k[3], 0, 0], "c={c} k={k:x?}");
                }
            }
        }
    }

    #[test]
    fn too_few_windows_is_reported() {
        let k = max_of_bits(255);
        let nwin = num_windows(&k, 2);
        let mut d = vec![0i16; nwin];
        assert!(!signed_digits(&k, 2, nwin - 1, &mut d, 1));
        // the reviewer's case: 255-bit scalars at c = 2 need 129 windows, not 128
        let r1 = [0xffffffff00000000, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48];
        assert_eq!(num_windows(&r1, 2), 129);
    }
}

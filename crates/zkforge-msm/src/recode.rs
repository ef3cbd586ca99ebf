//! Signed window digits: k = sum_j d_j 2^(c j) with d_j in [-2^(c-1), 2^(c-1)), from the plain
//! base-2^c digits by carrying 1 into the next window whenever a digit reaches 2^(c-1).

/// Number of windows for `bits`-bit scalars with width c (one more for the final carry).
pub fn num_windows(bits: u32, c: u32) -> usize {
    (bits / c + 1) as usize
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

/// Signed digits of k into `out[j * stride]`, j = 0..nwin.
#[inline]
pub fn signed_digits(k: &[u64; 4], c: u32, nwin: usize, out: &mut [i16], stride: usize) {
    let half = 1i32 << (c - 1);
    let full = 1i32 << c;
    let mut carry = 0i32;
    for j in 0..nwin {
        let v = window_bits(k, j as u32 * c, c) as i32 + carry;
        let (d, cy) = if v >= half { (v - full, 1) } else { (v, 0) };
        out[j * stride] = d as i16;
        carry = cy;
    }
    debug_assert_eq!(carry, 0, "scalar too wide for the window count");
}

//! Bucket accumulation with batch-affine additions: buckets are affine points, and additions
//! into them are gathered into batches of S independent additions whose slope denominators
//! share one field inversion (Montgomery's trick, 3M per element), so an addition costs about
//! 5M + 1S instead of the 8M + 2S of an XYZZ mixed addition. A batch may touch each bucket
//! once: a point whose bucket is already in the current batch goes instead into that bucket's
//! XYZZ overflow accumulator (one mixed addition, no waiting), which keeps the work linear
//! even when every point falls into the same bucket (a deferral queue would go quadratic).
//! Empty buckets take their first point for free; a point meeting its own negation empties the
//! bucket; a point meeting itself is doubled (tangent slope).

use zkforge_curve::{Affine, CurveConfig, CurveField, Xyzz};

/// One window by batch-affine accumulation then running sums; returns the window sum and the
/// time of each of the two phases.
pub fn window_sum_batch_affine<C: CurveConfig>(
    points: &[Affine<C>],
    digits: &[i16],
    nwin: usize,
    w: usize,
    c: u32,
    batch: usize,
) -> (Xyzz<C>, std::time::Duration, std::time::Duration) {
    bucket_sum_batch_affine(points.iter().zip(digits.chunks_exact(nwin).map(|row| row[w])), c, batch)
}

/// sum_b b * (sum of the points whose signed digit is +-b), batch-affine, over any stream of
/// (point, digit) pairs; returns the sum and the accumulate and reduce times.
pub fn bucket_sum_batch_affine<'a, C: CurveConfig>(
    pairs: impl Iterator<Item = (&'a Affine<C>, i16)>,
    c: u32,
    batch: usize,
) -> (Xyzz<C>, std::time::Duration, std::time::Duration) {
    let t0 = std::time::Instant::now();
    let nb = 1usize << (c - 1);
    let mut acc = Accumulator::<C>::new(nb, batch.max(1));
    for (p, d) in pairs {
        acc.push_digit(0, p, d);
    }
    acc.flush();
    let t1 = std::time::Instant::now();
    let sum = acc.running_sum(0..nb);
    (sum, t1 - t0, t1.elapsed())
}

/// Many independent bucket sums in one batch-affine pass: pair (j, point, digit) goes to sum j
/// (j < `sums`), all `sums * 2^(c-1)` buckets share the batches, so a stream that interleaves
/// the sums (consecutive pairs for different j) fills each batch with no collisions even when
/// every sum is small. Returns sum_b b * bucket_b for every j (XYZZ running sums per j).
pub fn bucket_sums_batch_affine<'a, C: CurveConfig>(
    sums: usize,
    pairs: impl Iterator<Item = (usize, &'a Affine<C>, i16)>,
    c: u32,
    batch: usize,
) -> Vec<Xyzz<C>> {
    let nb = 1usize << (c - 1);
    let mut acc = Accumulator::<C>::new(nb * sums, batch.max(1));
    for (j, p, d) in pairs {
        acc.push_digit(j * nb, p, d);
    }
    acc.flush();
    (0..sums).map(|j| acc.running_sum(j * nb..(j + 1) * nb)).collect()
}

struct Accumulator<C: CurveConfig> {
    x: Vec<C::Base>,
    y: Vec<C::Base>,
    occupied: Vec<bool>,
    /// Batch number in which the bucket has a pending addition.
    mark: Vec<u32>,
    overflow: Vec<Xyzz<C>>,
    overflow_used: Vec<bool>,
    epoch: u32,
    batch: usize,
    pend_b: Vec<u32>,
    pend_q: Vec<Affine<C>>,
    num: Vec<C::Base>,
    den: Vec<C::Base>,
    /// Per pending addition: true when the bucket empties (q = -bucket).
    cancel: Vec<bool>,
}

impl<C: CurveConfig> Accumulator<C> {
    fn new(nb: usize, batch: usize) -> Self {
        Self {
            x: vec![C::Base::ZERO; nb],
            y: vec![C::Base::ZERO; nb],
            occupied: vec![false; nb],
            mark: vec![u32::MAX; nb],
            overflow: vec![Xyzz::IDENTITY; nb],
            overflow_used: vec![false; nb],
            epoch: 0,
            batch,
            pend_b: Vec::with_capacity(batch),
            pend_q: Vec::with_capacity(batch),
            num: Vec::with_capacity(batch),
            den: Vec::with_capacity(batch),
            cancel: Vec::with_capacity(batch),
        }
    }

    /// Add P to bucket base + |d| - 1 (negated when d < 0); nothing for d = 0 or the identity.
    #[inline]
    fn push_digit(&mut self, base: usize, p: &Affine<C>, d: i16) {
        if d == 0 || bool::from(p.is_identity()) {
            return;
        }
        if d > 0 {
            self.push(base + d as usize - 1, *p);
        } else {
            self.push(base + (-(d as i32)) as usize - 1, -*p);
        }
    }

    /// sum_b (b - start + 1) * bucket_b over `buckets` by running sums, from the affine buckets
    /// and their overflow accumulators (after `flush`).
    fn running_sum(&self, buckets: core::ops::Range<usize>) -> Xyzz<C> {
        let mut running = Xyzz::IDENTITY;
        let mut sum = Xyzz::IDENTITY;
        for b in buckets.rev() {
            if self.occupied[b] {
                running = running.add_mixed_vartime(&Affine::new_unchecked(self.x[b], self.y[b]));
            }
            if self.overflow_used[b] {
                running = running.add_vartime(&self.overflow[b]);
            }
            sum = sum.add_vartime(&running);
        }
        sum
    }

    #[inline]
    fn push(&mut self, b: usize, q: Affine<C>) {
        if !self.occupied[b] {
            self.x[b] = q.x();
            self.y[b] = q.y();
            self.occupied[b] = true;
            return;
        }
        if self.mark[b] == self.epoch {
            self.overflow[b] = self.overflow[b].add_mixed_vartime(&q);
            self.overflow_used[b] = true;
            return;
        }
        self.mark[b] = self.epoch;
        self.pend_b.push(b as u32);
        self.pend_q.push(q);
        if self.pend_b.len() == self.batch {
            self.flush();
        }
    }

    /// Apply the pending additions with one inversion.
    fn flush(&mut self) {
        let n = self.pend_b.len();
        if n > 0 {
            self.num.clear();
            self.den.clear();
            self.cancel.clear();
            for k in 0..n {
                let b = self.pend_b[k] as usize;
                let q = &self.pend_q[k];
                let dx = q.x() - self.x[b];
                if bool::from(dx.is_zero()) {
                    if q.y() == self.y[b] && !bool::from(q.y().is_zero()) {
                        // doubling: slope (3x^2 + a) / 2y
                        let xx = q.x().square();
                        self.num.push(C::plus_a_times(xx.double() + xx, || C::Base::ONE));
                        self.den.push(q.y().double());
                        self.cancel.push(false);
                    } else {
                        // q = -bucket (or 2-torsion): the bucket empties; dummy denominator
                        self.num.push(C::Base::ZERO);
                        self.den.push(C::Base::ONE);
                        self.cancel.push(true);
                    }
                } else {
                    self.num.push(q.y() - self.y[b]);
                    self.den.push(dx);
                    self.cancel.push(false);
                }
            }
            batch_invert_nonzero(&mut self.den);
            // slopes in their own pass: independent multiplications that overlap
            for (l, d) in self.num.iter_mut().zip(&self.den) {
                *l *= *d;
            }
            for k in 0..n {
                let b = self.pend_b[k] as usize;
                let q = self.pend_q[k];
                if self.cancel[k] {
                    self.occupied[b] = false;
                    continue;
                }
                let l = self.num[k]; // the slope, formed in the pass above
                let x3 = l.square() - self.x[b] - q.x();
                let y3 = l * (self.x[b] - x3) - self.y[b];
                self.x[b] = x3;
                self.y[b] = y3;
            }
            self.pend_b.clear();
            self.pend_q.clear();
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == u32::MAX {
            // never confuse a stale mark with the current batch
            self.mark.iter_mut().for_each(|m| *m = u32::MAX - 1);
            self.epoch = 0;
        }
    }
}

/// In-place inversion of non-zero elements with one field inversion (Montgomery's trick), the
/// prefix products kept in `LANES` independent chains (element i in chain i mod LANES) so the
/// multiplications of the forward and backward passes overlap instead of each waiting for the
/// previous one: the passes become throughput-bound rather than latency-bound.
fn batch_invert_nonzero<F: CurveField>(v: &mut [F]) {
    const LANES: usize = 4;
    if v.is_empty() {
        return;
    }
    let mut prefix = Vec::with_capacity(v.len());
    let mut acc = [F::ONE; LANES];
    for (i, x) in v.iter().enumerate() {
        let l = i % LANES;
        prefix.push(acc[l]);
        acc[l] *= *x;
    }
    // invert the product of the lanes once, then peel each lane's inverse off it
    let a01 = acc[0] * acc[1];
    let a23 = acc[2] * acc[3];
    // the denominators are public (MSM is variable time): the faster variable-time inverse
    let t = (a01 * a23).invert_vartime().unwrap_or(F::ZERO);
    let t01 = t * a23; // (a0 a1)^-1
    let t23 = t * a01; // (a2 a3)^-1
    let mut inv = [t01 * acc[1], t01 * acc[0], t23 * acc[3], t23 * acc[2]];
    for (i, (x, pre)) in v.iter_mut().zip(prefix).enumerate().rev() {
        let l = i % LANES;
        let next = inv[l] * *x;
        *x = inv[l] * pre;
        inv[l] = next;
    }
}

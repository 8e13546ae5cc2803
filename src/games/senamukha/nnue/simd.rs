//! The network's arithmetic on whole vectors: adding and taking away columns of an
//! accumulator, and the clipped dot product of the output layer.
//!
//! Each function has two forms that give the same numbers bit for bit: one in plain
//! Rust over 16 lanes at a time, which the compiler vectorises for the build's baseline
//! (x86-64-v2: SSE4.2), and one with AVX2 instructions, used when the processor running
//! the program has them (checked at run time, so one binary serves every x86-64).
//! Lengths are multiples of [`LANES`], as every hidden size is (see
//! [`super::network::hidden_size_is_valid`]).

/// The numbers of an accumulator handled together: one AVX2 register of i16.
pub const LANES: usize = 16;

/// `out` = `base` plus every column of `added` minus every column of `removed`, lane by
/// lane in wrapping 16-bit arithmetic. `out` may not overlap the others; all are as
/// long as `out`.
#[inline]
pub fn add_sub(out: &mut [i16], base: &[i16], added: &[&[i16]], removed: &[&[i16]]) {
    let n = out.len();
    assert!(n.is_multiple_of(LANES) && base.len() == n);
    assert!(added.iter().chain(removed).all(|column| column.len() == n));
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2 (checked above) and every slice is `n` long,
        // a multiple of the 16 lanes a load or store reads (asserted above).
        unsafe { avx2::add_sub(out, base, added, removed) };
        return;
    }
    portable::add_sub(out, base, added, removed);
}

/// The sum over all lanes of `values` clipped to 0..=`ceiling` times `weights`, the
/// products summed in 32 bits. `values` and `weights` are equally long.
#[inline]
pub fn clipped_dot(values: &[i16], weights: &[i16], ceiling: i16) -> i32 {
    assert!(values.len().is_multiple_of(LANES) && weights.len() == values.len());
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2 and both slices are a whole number of
        // 16-lane vectors long (checked above).
        return unsafe { avx2::clipped_dot(values, weights, ceiling) };
    }
    portable::clipped_dot(values, weights, ceiling)
}

/// The forms in plain Rust, which the compiler vectorises for the baseline.
mod portable {
    use super::LANES;

    pub fn add_sub(out: &mut [i16], base: &[i16], added: &[&[i16]], removed: &[&[i16]]) {
        for (at, (out, base)) in out
            .chunks_exact_mut(LANES)
            .zip(base.chunks_exact(LANES))
            .enumerate()
        {
            let mut lanes = [0i16; LANES];
            lanes.copy_from_slice(base);
            for column in added {
                for (lane, w) in lanes.iter_mut().zip(&column[at * LANES..][..LANES]) {
                    *lane = lane.wrapping_add(*w);
                }
            }
            for column in removed {
                for (lane, w) in lanes.iter_mut().zip(&column[at * LANES..][..LANES]) {
                    *lane = lane.wrapping_sub(*w);
                }
            }
            out.copy_from_slice(&lanes);
        }
    }

    pub fn clipped_dot(values: &[i16], weights: &[i16], ceiling: i16) -> i32 {
        values
            .iter()
            .zip(weights)
            .map(|(&v, &w)| i32::from(v.clamp(0, ceiling)) * i32::from(w))
            .fold(0i32, i32::wrapping_add)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::LANES;

    /// # Safety
    /// The processor has AVX2; every slice is `out.len()` long, a multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn add_sub(out: &mut [i16], base: &[i16], added: &[&[i16]], removed: &[&[i16]]) {
        for at in (0..out.len()).step_by(LANES) {
            // SAFETY: `at + 16 <= len` for every slice read or written (the caller's
            // promise); unaligned loads and stores take any address.
            unsafe {
                let mut lanes = _mm256_loadu_si256(base.as_ptr().add(at).cast());
                for column in added {
                    let w = _mm256_loadu_si256(column.as_ptr().add(at).cast());
                    lanes = _mm256_add_epi16(lanes, w);
                }
                for column in removed {
                    let w = _mm256_loadu_si256(column.as_ptr().add(at).cast());
                    lanes = _mm256_sub_epi16(lanes, w);
                }
                _mm256_storeu_si256(out.as_mut_ptr().add(at).cast(), lanes);
            }
        }
    }

    /// # Safety
    /// The processor has AVX2; both slices are equally long, a multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn clipped_dot(values: &[i16], weights: &[i16], ceiling: i16) -> i32 {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(ceiling);
        let mut sum = _mm256_setzero_si256();
        for at in (0..values.len()).step_by(LANES) {
            // SAFETY: `at + 16 <= len` for both slices (the caller's promise).
            let (v, w) = unsafe {
                (
                    _mm256_loadu_si256(values.as_ptr().add(at).cast()),
                    _mm256_loadu_si256(weights.as_ptr().add(at).cast()),
                )
            };
            let clipped = _mm256_min_epi16(_mm256_max_epi16(v, zero), top);
            // Pairs of 16-bit products summed into 32 bits: the same sums as the
            // portable form's, in another order, which wrapping addition allows.
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(clipped, w));
        }
        let halves = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let pairs = _mm_add_epi32(halves, _mm_shuffle_epi32::<0b01_00_11_10>(halves));
        let total = _mm_add_epi32(pairs, _mm_shuffle_epi32::<0b10_11_00_01>(pairs));
        _mm_cvtsi128_si32(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rng;

    fn random(rng: &mut Rng, n: usize, bound: usize) -> Vec<i16> {
        (0..n)
            .map(|_| (rng.below(2 * bound + 1) as i32 - bound as i32) as i16)
            .collect()
    }

    /// Whichever form runs here, it gives the plain form's numbers, on random values
    /// at the extremes of i16 too (wrapping is part of the arithmetic).
    #[test]
    fn the_chosen_form_gives_the_portable_forms_numbers() {
        let mut rng = Rng(0x51_3D);
        for n in [16, 32, 128, 512, 2048] {
            for bound in [300, 32_767] {
                let base = random(&mut rng, n, bound);
                let columns: Vec<Vec<i16>> = (0..3).map(|_| random(&mut rng, n, bound)).collect();
                let added = [&columns[0][..]];
                let removed = [&columns[1][..], &columns[2][..]];
                let (mut fast, mut plain) = (vec![0; n], vec![0; n]);
                add_sub(&mut fast, &base, &added, &removed);
                portable::add_sub(&mut plain, &base, &added, &removed);
                assert_eq!(fast, plain, "add_sub, {n} lanes up to {bound}");
                let expected: Vec<i16> = (0..n)
                    .map(|i| {
                        base[i]
                            .wrapping_add(columns[0][i])
                            .wrapping_sub(columns[1][i])
                            .wrapping_sub(columns[2][i])
                    })
                    .collect();
                assert_eq!(plain, expected);
                let weights = random(&mut rng, n, 2_000);
                assert_eq!(
                    clipped_dot(&base, &weights, 255),
                    portable::clipped_dot(&base, &weights, 255),
                    "clipped_dot, {n} lanes up to {bound}"
                );
            }
        }
        // The clipping: negative values count 0, those above the ceiling count it.
        let values = [-5i16, 0, 7, 300].repeat(4);
        let weights = [1i16, 1, 1, 1].repeat(4);
        assert_eq!(clipped_dot(&values, &weights, 255), 4 * (7 + 255));
    }
}

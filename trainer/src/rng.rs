//! The trainer's one small seeded generator, SplitMix64 (Steele, Lea and Flood, "Fast
//! splittable pseudorandom number generators", 2014): the samplers draw their uniforms
//! from it (one generator per sequence, so a sequence's draws do not depend on what it is
//! batched with), and [`mix`] derives seeds and data orders from a seed.
//!
//! Every number it gives is a pure function of the seed: runs repeat bit for bit.

/// The golden-ratio increment of SplitMix64.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// A SplitMix64 generator.
#[derive(Debug, Clone)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in the open interval (0, 1): the top 53 bits, centred in their
    /// cell, so neither 0 nor 1 is ever drawn.
    pub fn next_open01(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }
}

/// A 64-bit mix of `x`: the first draw of a generator seeded with `x`. For seeds and
/// data orders (`mix(seed ^ mix(step))`).
pub fn mix(x: u64) -> u64 {
    SplitMix::new(x).next_u64()
}

/// A permutation of `0..n` (Fisher-Yates), each swap drawn as `mix` of the draw before,
/// starting from `state`: the data orders' shuffle (training steps, warm-start epochs).
pub fn permutation(n: usize, state: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut r = state;
    for i in (1..n).rev() {
        r = mix(r);
        order.swap(i, (r % (i as u64 + 1)) as usize);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference outputs of SplitMix64 seeded with 0 (as in the paper's and
    /// Vigna's C code), and the uniforms strictly inside (0, 1).
    #[test]
    fn matches_the_reference_sequence() {
        let mut g = SplitMix::new(0);
        let first: Vec<u64> = (0..3).map(|_| g.next_u64()).collect();
        assert_eq!(
            first,
            [
                0xE220_A839_7B1D_CDAF,
                0x6E78_9E6A_A1B9_65F4,
                0x06C4_5D18_8009_454F
            ]
        );
        assert_eq!(mix(0), first[0]);
        let mut p = permutation(10, 3);
        assert_eq!(p, permutation(10, 3));
        assert_ne!(p, permutation(10, 4));
        p.sort();
        assert_eq!(p, (0..10).collect::<Vec<_>>());
        let mut g = SplitMix::new(7);
        assert!(
            (0..1000)
                .map(|_| g.next_open01())
                .all(|u| u > 0.0 && u < 1.0)
        );
    }
}

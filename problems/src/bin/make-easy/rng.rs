//! A small seeded generator (SplitMix64): the test data must not change when a
//! dependency's generator does.

/// SplitMix64.
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator from its seed.
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform integer in `lo..=hi`.
    pub(crate) fn range(&mut self, lo: i64, hi: i64) -> i64 {
        assert!(lo <= hi, "empty range {lo}..={hi}");
        let span = (hi as i128 - lo as i128 + 1) as u128;
        (lo as i128 + (u128::from(self.next()) % span) as i128) as i64
    }

    /// One item of a slice.
    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.range(0, items.len() as i64 - 1) as usize]
    }

    /// Puts `items` in a random order (Fisher-Yates, from the last item down).
    pub(crate) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.range(0, i as i64) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_inclusive_and_seeded() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..1000 {
            let x = a.range(-3, 3);
            assert!((-3..=3).contains(&x));
            assert_eq!(x, b.range(-3, 3));
        }
        assert!((0..100).any(|_| a.range(i64::MIN, i64::MAX) < 0));
    }

    #[test]
    fn a_shuffle_is_a_seeded_permutation() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        let (mut x, mut y): (Vec<u32>, Vec<u32>) = ((0..50).collect(), (0..50).collect());
        a.shuffle(&mut x);
        b.shuffle(&mut y);
        assert_eq!(x, y, "the seed decides the order");
        assert_ne!(
            x,
            (0..50).collect::<Vec<u32>>(),
            "fifty items stay in order once in 50!"
        );
        x.sort_unstable();
        assert_eq!(x, (0..50).collect::<Vec<u32>>(), "every item once");
    }
}

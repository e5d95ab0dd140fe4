//! The portable generator (R32) and sampler (R33).

/// SplitMix64 (R32): all arithmetic mod 2^64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SplitMix64 {
    /// The generator state.
    pub state: u64,
}

impl SplitMix64 {
    /// Seeded with `seed mod 2^64` (an already reduced seed; see [`seed_from_decimal`]).
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next output (R32).
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The sampler (R33): `r = next() mod W`, the first i with `w_0 + … + w_i > r`.
    /// Returns None when W is 0 (nothing to pick).
    pub fn sample(&mut self, weights: &[u64]) -> Option<usize> {
        let total: u128 = weights.iter().map(|w| *w as u128).sum();
        if total == 0 {
            return None;
        }
        let r = self.next() as u128 % total;
        let mut acc: u128 = 0;
        for (i, w) in weights.iter().enumerate() {
            acc += *w as u128;
            if acc > r {
                return Some(i);
            }
        }
        None
    }
}

/// A seed given as a decimal integer string of any size, taken mod 2^64 with a mathematical
/// modulo (R8, R32). None if `text` is not `-?(0|[1-9][0-9]*)`.
pub fn seed_from_decimal(text: &str) -> Option<u64> {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if digits.len() > 1 && digits.starts_with('0') {
        return None;
    }
    let mut v: u64 = 0;
    for b in digits.bytes() {
        v = v.wrapping_mul(10).wrapping_add((b - b'0') as u64);
    }
    Some(if neg { v.wrapping_neg() } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_answers_r32() {
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next(), 0xE220A8397B1DCDAF);
        assert_eq!(g.next(), 0x6E789E6AA1B965F4);
        assert_eq!(g.next(), 0x06C45D188009454F);
        let mut g = SplitMix64::new(seed_from_decimal("-1").unwrap());
        assert_eq!(g.next(), 0xE4D971771B652C20);
        assert_eq!(seed_from_decimal("18446744073709551616"), Some(0));
    }
}

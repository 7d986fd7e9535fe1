//! A tiny seeded generator (SplitMix64) for reproducible simulations, ids
//! and timestamps: the SDK's one seeded RNG (xtask's mutation check uses it
//! too). A maintained crate was considered (`rand_xoshiro`, `fastrand`); the
//! generator is 60 lines with no dependency, and keeping it keeps every
//! simulated log of a given seed byte-for-byte what it was.

/// SplitMix64: a small, fast, seeded pseudo-random generator. Not for
/// cryptography; used so that a simulation with a given seed always writes
/// the same log.
///
/// ```
/// use mplp_collab::rng::SplitMix64;
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// let id = a.uuid_v4();
/// assert_eq!(id.get_version_num(), 4);
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // Lemire's multiply-shift; the bias is negligible for small n.
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// An index in `0..n` (0 when `n` is 0).
    pub fn index(&mut self, n: usize) -> usize {
        usize::try_from(self.below(n as u64)).unwrap_or(0)
    }

    /// A random item of `items` (`None` when it is empty).
    ///
    /// ```
    /// use mplp_collab::rng::SplitMix64;
    /// let mut r = SplitMix64::new(1);
    /// assert!(r.pick(&[1, 2, 3]).is_some_and(|x| (1..=3).contains(x)));
    /// assert_eq!(r.pick::<u8>(&[]), None);
    /// ```
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.index(items.len()))
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }

    /// A random (version 4, RFC 4122 variant) UUID.
    pub fn uuid_v4(&mut self) -> uuid::Uuid {
        let hi = self.next_u64().to_be_bytes();
        let lo = self.next_u64().to_be_bytes();
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&hi);
        bytes[8..].copy_from_slice(&lo);
        uuid::Builder::from_random_bytes(bytes).into_uuid()
    }
}

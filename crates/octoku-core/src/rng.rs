//! A tiny deterministic generator (SplitMix64) for reproducible test, fuzz,
//! gas and puzzle cases: the same seed gives the same cases on every machine.
//!
//! Written here rather than taken from `rand` because the gas snapshot, the
//! fuzzer's replay commands and generated puzzles are pinned to this exact
//! stream; a dependency's stream may change between versions.

/// SplitMix64: 64-bit state, one multiply-xorshift round per output.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The generator for item `index` of stream `seed`: any item of a run can
    /// be drawn on its own, so runs split across threads and replay.
    pub const fn for_index(seed: u64, index: u64) -> SplitMix64 {
        SplitMix64(seed ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform value below `bound` (bound > 0), by rejection.
    pub fn below(&mut self, bound: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % bound;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % bound;
            }
        }
    }

    /// 20 random bytes.
    pub fn bytes20(&mut self) -> [u8; 20] {
        let mut out = [0u8; 20];
        for chunk in out.chunks_mut(8) {
            let word = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
        out
    }

    /// Shuffles `items` uniformly in place (Fisher-Yates, last to first).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// 256 random bits.
    pub fn u256(&mut self) -> crate::U256 {
        crate::U256::from_limbs([
            self.next_u64(),
            self.next_u64(),
            self.next_u64(),
            self.next_u64(),
        ])
    }
}

//! A perfect hash of a fixed set of 64-bit keys, read here and built by
//! `perfectplay._kernel.perfect_hash` (Python), whose notes write the scheme down: a key's
//! hash picks a bucket, the bucket's pilot picks the key's slot. A book whose positions the
//! rules can tell keeps one score a slot and no keys.

use crate::engine::random::mix;

/// The pilot byte that sends the reader to the overflow list.
pub const OVERFLOW: u8 = 255;
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// A perfect hash's columns, borrowed: one pilot byte a bucket, the overflow list's buckets
/// (increasing) and pilots, and the number of slots.
#[derive(Clone, Copy)]
pub struct PerfectHash<'a> {
    pub pilots: &'a [u8],
    pub overflow_buckets: &'a [u32],
    pub overflow_pilots: &'a [u16],
    pub slots: u32,
}

impl PerfectHash<'_> {
    /// The slot of `key`, one of the keys the hash was built on (any other key gets some
    /// slot below `slots`). None only for a hash whose overflow list lacks a bucket.
    #[inline]
    pub fn slot(&self, key: u64) -> Option<usize> {
        let hashed = mix(key);
        let bucket = ((hashed >> 32) * self.pilots.len() as u64) >> 32;
        let pilot = match *self.pilots.get(bucket as usize)? {
            OVERFLOW => {
                let at = self.overflow_buckets.binary_search(&(bucket as u32)).ok()?;
                u64::from(*self.overflow_pilots.get(at)?)
            }
            pilot => u64::from(pilot),
        };
        let mixed = mix(hashed ^ mix((pilot + 1).wrapping_mul(GOLDEN)));
        Some((((mixed & 0xFFFF_FFFF) * u64::from(self.slots)) >> 32) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mix_is_splitmix64s_finaliser() {
        // SplitMix64's first output from seed 0 is mix(GOLDEN).
        assert_eq!(mix(GOLDEN), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn a_pilot_of_the_overflow_list_is_read_there() {
        let (pilots, buckets, overflow) = ([0u8, OVERFLOW, 7], [1u32], [300u16]);
        let hash = PerfectHash {
            pilots: &pilots,
            overflow_buckets: &buckets,
            overflow_pilots: &overflow,
            slots: 10,
        };
        let missing = PerfectHash {
            overflow_buckets: &[],
            overflow_pilots: &[],
            ..hash
        };
        for key in 0..200u64 {
            let slot = hash.slot(key).unwrap();
            assert!(slot < 10);
            let bucket = ((mix(key) >> 32) * 3) >> 32;
            assert_eq!(missing.slot(key).is_none(), bucket == 1, "{key}");
        }
    }
}

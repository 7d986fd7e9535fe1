//! The validators' bounded memory of completed sessions (runs): the last
//! `cap` distinct ids completed, first in, first out, exact (an id is
//! reported as completed only if it is one of them).
//!
//! It was a `HashSet<Uuid>` and a `VecDeque<Uuid>`: about 66 bytes an id at
//! the default capacity of 2^18 (the set's table of 2^19 buckets of 17
//! bytes, the deque doubled to 2^19 ids by the push before the pop), and
//! both held their old and new storage at once while growing: 13-17 MiB of
//! a 32 MiB peak at 10^7 events. Here the ids live in a ring of 16 bytes an
//! id, allocated in chunks of [`CHUNK`] ids as it fills (never copied), and
//! an open-addressing index (linear probing, at most 2/3 full) of 4-byte
//! slots holds each id's position in the ring and a fingerprint of its
//! hash, so a lookup reads the ring only where a fingerprint agrees. An id
//! leaves the index with a backward shift (no tombstones), so the index
//! never fills with dead slots. About 22 bytes an id: 5.5 MiB at 2^18.

use std::hash::BuildHasher as _;

use uuid::Uuid;

/// Ids per chunk of the ring (64 KiB).
const CHUNK: usize = 1 << 12;
/// The largest capacity: positions (+ 1) fit in a slot's 32 bits with at
/// least one bit of fingerprint.
pub(crate) const MAX_COMPLETED: usize = (1 << 31) - 2;
/// Slots of the first index.
const MIN_SLOTS: usize = 16;

/// The last `cap` distinct completed ids (see the [module docs](self)).
pub(crate) struct Completed {
    /// The ids in the order they were completed, in chunks of [`CHUNK`]:
    /// positions `0..len` are used; once `len == cap`, `head` is the oldest
    /// (the next one overwritten).
    ring: Vec<Box<[Uuid]>>,
    len: usize,
    head: usize,
    /// Per slot 0 (free) or the fingerprint (the high bits) and the
    /// position + 1 (the low `index_bits` bits).
    index: Vec<u32>,
    cap: usize,
    index_bits: u32,
    hasher: foldhash::fast::RandomState,
    /// Bits of the hash kept (all of them, except in tests of collisions).
    #[cfg(test)]
    hash_bits: u64,
}

impl Completed {
    /// A memory of the last `cap` completed ids (at most [`MAX_COMPLETED`];
    /// 0 remembers none). Nothing is allocated before the first id.
    pub(crate) fn new(cap: usize) -> Self {
        let cap = cap.min(MAX_COMPLETED);
        Completed {
            ring: Vec::new(),
            len: 0,
            head: 0,
            index: Vec::new(),
            cap,
            index_bits: usize::BITS - cap.leading_zeros(),
            hasher: foldhash::fast::RandomState::default(),
            #[cfg(test)]
            hash_bits: u64::MAX,
        }
    }

    /// Remembers `id` as completed (the oldest one is forgotten when `cap`
    /// are remembered); an id already remembered keeps its place.
    pub(crate) fn insert(&mut self, id: Uuid) {
        if self.cap == 0 {
            return;
        }
        let hash = self.hash(id);
        if self.find(id, hash).is_some() {
            return;
        }
        let at = if self.len == self.cap {
            // Full: the oldest leaves, the new one takes its place.
            let at = self.head;
            if let Some(slot) = self.get(at).and_then(|old| self.find(old, self.hash(old))) {
                self.remove_slot(slot);
            }
            self.head = (self.head + 1) % self.cap;
            at
        } else {
            if (self.len + 1) * 3 > self.index.len() * 2 {
                self.grow();
            }
            self.len += 1;
            self.len - 1
        };
        self.set(at, id);
        self.place(hash, at);
    }

    /// Whether `id` is remembered as completed.
    pub(crate) fn contains(&self, id: &Uuid) -> bool {
        self.cap != 0 && self.find(*id, self.hash(*id)).is_some()
    }

    /// How many ids are remembered.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The bytes of the storage: 16 an id (allocated by chunks), 4 a slot.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.ring.iter().map(|c| c.len()).sum::<usize>() * std::mem::size_of::<Uuid>()
            + self.index.capacity() * std::mem::size_of::<u32>()
    }

    #[cfg(not(test))]
    fn hash(&self, id: Uuid) -> u64 {
        self.hasher.hash_one(id.as_u128())
    }

    #[cfg(test)]
    fn hash(&self, id: Uuid) -> u64 {
        self.hasher.hash_one(id.as_u128()) & self.hash_bits
    }

    /// The first slot of a hash: its low 32 bits scaled to the index's size.
    fn home(&self, hash: u64) -> usize {
        (((hash & 0xFFFF_FFFF) * self.index.len() as u64) >> 32) as usize
    }

    /// The fingerprint of a hash, shifted in place above the position.
    fn fingerprint(&self, hash: u64) -> u32 {
        ((hash >> 32) as u32)
            .checked_shr(self.index_bits)
            .unwrap_or(0)
            .checked_shl(self.index_bits)
            .unwrap_or(0)
    }

    /// The bits of a slot that hold the position + 1.
    fn low(&self) -> u32 {
        u32::MAX.checked_shr(32 - self.index_bits).unwrap_or(0)
    }

    /// The id at ring position `at`.
    fn get(&self, at: usize) -> Option<Uuid> {
        self.ring
            .get(at / CHUNK)
            .and_then(|c| c.get(at % CHUNK))
            .copied()
    }

    /// Writes the id at ring position `at` (a new chunk when it starts one).
    fn set(&mut self, at: usize, id: Uuid) {
        if self.ring.len() <= at / CHUNK {
            let size = CHUNK.min(self.cap - at / CHUNK * CHUNK);
            self.ring.push(vec![Uuid::nil(); size].into_boxed_slice());
        }
        if let Some(s) = self
            .ring
            .get_mut(at / CHUNK)
            .and_then(|c| c.get_mut(at % CHUNK))
        {
            *s = id;
        }
    }

    /// The slot holding `id` (hashed to `hash`), if it is remembered.
    fn find(&self, id: Uuid, hash: u64) -> Option<usize> {
        let n = self.index.len();
        if n == 0 {
            return None;
        }
        let (fp, low) = (self.fingerprint(hash), self.low());
        let mut i = self.home(hash);
        loop {
            let s = *self.index.get(i)?;
            if s == 0 {
                return None;
            }
            if s & !low == fp && self.get((s & low).wrapping_sub(1) as usize) == Some(id) {
                return Some(i);
            }
            i = if i + 1 == n { 0 } else { i + 1 };
        }
    }

    /// Puts ring position `at` (of an id hashed to `hash`) into the first
    /// free slot from its home (the index is at most 2/3 full).
    fn place(&mut self, hash: u64, at: usize) {
        let n = self.index.len();
        let slot = self.fingerprint(hash) | (at as u32 + 1);
        let mut i = self.home(hash);
        for _ in 0..n {
            match self.index.get_mut(i) {
                Some(s) if *s == 0 => {
                    *s = slot;
                    return;
                }
                _ => i = if i + 1 == n { 0 } else { i + 1 },
            }
        }
    }

    /// Frees slot `i`, moving back the slots after it that would no longer
    /// be found past the hole (backward-shift deletion).
    fn remove_slot(&mut self, mut hole: usize) {
        let n = self.index.len();
        let low = self.low();
        let mut j = hole;
        loop {
            j = if j + 1 == n { 0 } else { j + 1 };
            let s = self.index.get(j).copied().unwrap_or(0);
            if s == 0 {
                break;
            }
            let Some(id) = self.get((s & low).wrapping_sub(1) as usize) else {
                break;
            };
            let home = self.home(self.hash(id));
            // The slot stays if its home lies cyclically in (hole, j].
            let stays = if hole <= j {
                hole < home && home <= j
            } else {
                hole < home || home <= j
            };
            if !stays {
                self.index.swap(hole, j);
                hole = j;
            }
        }
        if let Some(s) = self.index.get_mut(hole) {
            *s = 0;
        }
    }

    /// An index twice as large (at most 3/2 of `cap`, at least
    /// [`MIN_SLOTS`]), built again from the ring.
    fn grow(&mut self) {
        let most = self.cap + self.cap / 2 + 1;
        let n = (self.index.len() * 2).clamp(MIN_SLOTS, most.max(MIN_SLOTS));
        self.index = Vec::new();
        self.index = vec![0; n];
        for at in 0..self.len {
            if let Some(id) = self.get(at) {
                let hash = self.hash(id);
                self.place(hash, at);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{HashSet, VecDeque};

    use proptest::prelude::*;

    use super::*;
    // Ids of every shape (random, and ids that agree in many bits): the tracker's.
    use crate::unique_ids::tests::pool;

    /// The reference model: what `Completed` was (a set and a FIFO).
    struct Model {
        set: HashSet<Uuid>,
        order: VecDeque<Uuid>,
        cap: usize,
    }

    impl Model {
        fn insert(&mut self, id: Uuid) {
            if self.cap == 0 || !self.set.insert(id) {
                return;
            }
            self.order.push_back(id);
            if self.order.len() > self.cap {
                if let Some(old) = self.order.pop_front() {
                    self.set.remove(&old);
                }
            }
        }
    }

    /// Hash bits kept: all; none (one probe sequence for every id); few.
    const HASH_BITS: [u64; 4] = [u64::MAX, 0, 0b101, (0x7 << 32) | (1 << 31) | 1];

    proptest! {
        #[test]
        fn completed_answers_as_the_model_does(
            cap in prop::sample::select(vec![0usize, 1, 2, 3, 5, 16, 40, 200]),
            bits in 0usize..HASH_BITS.len(),
            seed in any::<u64>(),
            ops in prop::collection::vec((any::<bool>(), 0usize..120), 0..600),
        ) {
            let pool = pool(120, seed);
            let mut c = Completed::new(cap);
            c.hash_bits = HASH_BITS[bits];
            let mut m = Model { set: HashSet::new(), order: VecDeque::new(), cap };
            for (insert, k) in ops {
                if insert {
                    c.insert(pool[k]);
                    m.insert(pool[k]);
                    prop_assert_eq!(c.len(), m.order.len());
                } else {
                    prop_assert_eq!(c.contains(&pool[k]), m.set.contains(&pool[k]));
                }
            }
            for id in &pool {
                prop_assert_eq!(c.contains(id), m.set.contains(id), "{}", id);
            }
        }
    }

    #[test]
    fn memory_is_chunked_and_bounded() {
        let mut c = Completed::new(10_000);
        assert_eq!(c.bytes(), 0);
        let ids = pool(50_000, 9);
        for id in &ids {
            c.insert(*id);
        }
        assert_eq!(c.len(), 10_000);
        // Two chunks of 4,096 ids and one of 1,808; 15,001 slots.
        assert_eq!(c.ring.len(), 3);
        assert_eq!(c.bytes(), 10_000 * 16 + 15_001 * 4);
        assert!(ids[..40_000].iter().all(|id| !c.contains(id)));
        assert!(ids[40_000..].iter().all(|id| c.contains(id)));
        // The documented largest memory: 2^31 − 2 sessions.
        assert_eq!(Completed::new(3_000_000_000).cap, 2_147_483_646);
        assert_eq!(Completed::new(usize::MAX).cap, MAX_COMPLETED);
        assert_eq!(Completed::new(MAX_COMPLETED).index_bits, 31);
    }
}

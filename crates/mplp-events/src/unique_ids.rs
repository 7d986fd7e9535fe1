//! Repeated event ids in a log (rule [`LOG_UNIQUE_EVENT_IDS`](crate::rules::LOG_UNIQUE_EVENT_IDS)).
//!
//! An `event_id` identifies one event; a repeated one is how duplicated
//! deliveries and replays show up. The MAP and SA log validators report a
//! repeat anywhere in the log (same session or another), naming the line of
//! the repeat and the line where the id was first seen.
//!
//! # Memory and time
//! Tracking is **exact** (no false positives: a reported repeat is a
//! repeat) within a bounded **window**: ids live in two generations of at
//! most `window` ids each; when the current one is full, the older one is
//! dropped. So a repeat at most `window` events after the first occurrence is
//! always reported; one up to `2 × window` events later may be; farther
//! apart, it is not. Memory is at most two hash tables of `window` entries
//! (16-byte UUID + 8-byte line, ~25 bytes a bucket): with
//! [`DEFAULT_EVENT_ID_WINDOW`] (917,504 ids, the most a table of 2^20 buckets
//! holds) the tables stay below 50 MiB whatever the log's length (more
//! while a growing table is rehashed). Each event costs one lookup and one
//! insert in a table that outgrows the CPU caches on long logs
//! (`validate_big_log` measures the time, `event_id_memory` the memory; see
//! `docs/spec-notes.md`). A validator built
//! `with_event_id_window(0)` does not track ids (no memory, no cost, no
//! `log_unique_event_ids`). Ids are compared as UUID values (`ABC…` and
//! `abc…` are the same id), as session ids are.
//!
//! ```
//! use mplp_events::unique_ids::UniqueIds;
//! use uuid::Uuid;
//! let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
//! let mut ids = UniqueIds::new();
//! assert_eq!(ids.see(a, 1), None);
//! assert_eq!(ids.see(b, 2), None);
//! assert_eq!(ids.see(a, 7), Some(1)); // first seen on line 1
//! ```

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use uuid::Uuid;

use crate::validate::IdMap;

/// The default window of [`UniqueIds`]: 7/8 of 2^20, the most ids a hash
/// table of 2^20 buckets holds before it grows.
pub const DEFAULT_EVENT_ID_WINDOW: usize = (1 << 20) / 8 * 7;

/// The event ids seen so far in a log, with the line of each first sighting
/// (see the [module documentation](self) for the window and memory).
pub struct UniqueIds {
    current: IdMap<Uuid, u64>,
    older: IdMap<Uuid, u64>,
    window: usize,
}

impl Default for UniqueIds {
    fn default() -> Self {
        Self::new()
    }
}

impl UniqueIds {
    /// A tracker with the [`DEFAULT_EVENT_ID_WINDOW`].
    pub fn new() -> Self {
        Self::with_window(DEFAULT_EVENT_ID_WINDOW)
    }

    /// A tracker that always reports repeats at most `window` events apart,
    /// and keeps at most `2 × window` ids. `0` tracks nothing ([`UniqueIds::see`]
    /// always answers `None`).
    pub fn with_window(window: usize) -> Self {
        UniqueIds {
            current: HashMap::default(),
            older: HashMap::default(),
            window,
        }
    }

    /// Records that `id` was seen on `line`. Returns the line where it was
    /// first seen if it is a repeat (the first line is kept: a third
    /// occurrence also names the first).
    pub fn see(&mut self, id: Uuid, line: u64) -> Option<u64> {
        if self.window == 0 {
            return None;
        }
        // The two generations never hold the same id. The older one is
        // asked first: it is empty, and asked for free, until the first
        // generation fills up. Then the current one is asked and filled
        // with one hash of the id.
        if let Some(first) = self.older.get(&id) {
            return Some(*first);
        }
        if self.current.len() >= self.window {
            if let Some(first) = self.current.get(&id) {
                return Some(*first);
            }
            self.older = std::mem::take(&mut self.current);
        }
        match self.current.entry(id) {
            Entry::Occupied(first) => Some(*first.get()),
            Entry::Vacant(slot) => {
                slot.insert(line);
                None
            }
        }
    }

    /// How many ids are remembered (at most `2 × window`).
    pub fn len(&self) -> usize {
        self.current.len() + self.older.len()
    }

    /// True when no id is remembered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes of the tables' storage, estimated from their capacities
    /// (entries plus one control byte per bucket, buckets = capacity × 8/7
    /// rounded up to a power of two, as the standard library lays them out).
    pub fn table_bytes(&self) -> usize {
        fn bytes(cap: usize) -> usize {
            if cap == 0 {
                return 0;
            }
            let buckets = (cap.saturating_mul(8) / 7).next_power_of_two();
            buckets * (std::mem::size_of::<(Uuid, u64)>() + 1)
        }
        bytes(self.current.capacity()) + bytes(self.older.capacity())
    }
}

/// The message of a repeat of `id`, first seen on line `first`.
pub(crate) fn repeat_message(id: &crate::SchemaUuid, first: u64) -> String {
    format!(
        "event id {id} was already used on line {first}: every event of a log has its own `event_id`"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_drops_the_older_generation() {
        let ids: Vec<Uuid> = (0..10).map(|_| Uuid::new_v4()).collect();
        let mut t = UniqueIds::with_window(3);
        for (n, id) in ids.iter().enumerate() {
            assert_eq!(t.see(*id, n as u64 + 1), None);
            assert!(t.len() <= 6);
        }
        // The last 3 (current generation, or the older one) are remembered.
        assert_eq!(t.see(ids[9], 20), Some(10));
        assert_eq!(t.see(ids[7], 21), Some(8));
        // The first ones are forgotten.
        assert_eq!(t.see(ids[0], 22), None);
        // Window 0: nothing tracked.
        let mut off = UniqueIds::with_window(0);
        assert_eq!(off.see(ids[0], 1), None);
        assert_eq!(off.see(ids[0], 2), None);
        assert!(off.is_empty());
    }

    /// The tracker as first written (a lookup in each generation, then an
    /// insert): the reference the one-hash `see` must agree with.
    struct Reference {
        current: HashMap<Uuid, u64>,
        older: HashMap<Uuid, u64>,
        window: usize,
    }

    impl Reference {
        fn see(&mut self, id: Uuid, line: u64) -> Option<u64> {
            if self.window == 0 {
                return None;
            }
            if let Some(first) = self.current.get(&id).or_else(|| self.older.get(&id)) {
                return Some(*first);
            }
            if self.current.len() >= self.window {
                self.older = std::mem::take(&mut self.current);
            }
            self.current.insert(id, line);
            None
        }
    }

    proptest::proptest! {
        #[test]
        fn see_answers_as_the_reference_does(
            window in 0usize..6,
            picks in proptest::collection::vec(0usize..12, 0..80),
        ) {
            let pool: Vec<Uuid> = (0..12).map(|_| Uuid::new_v4()).collect();
            let mut t = UniqueIds::with_window(window);
            let mut r = Reference { current: HashMap::new(), older: HashMap::new(), window };
            for (line, &k) in picks.iter().enumerate() {
                let line = line as u64 + 1;
                proptest::prop_assert_eq!(t.see(pool[k], line), r.see(pool[k], line));
                proptest::prop_assert_eq!(t.len(), r.current.len() + r.older.len());
            }
        }
    }

    #[test]
    fn len_counts_both_generations() {
        // 7/8 of 2^20, as the documentation says.
        assert_eq!(DEFAULT_EVENT_ID_WINDOW, 917_504);
        let mut t = UniqueIds::with_window(2);
        assert!(t.is_empty());
        assert_eq!(t.len(), 0);
        t.see(Uuid::new_v4(), 1);
        assert!(!t.is_empty());
        assert_eq!(t.len(), 1);
        t.see(Uuid::new_v4(), 2);
        t.see(Uuid::new_v4(), 3); // the first two become the older generation
        assert_eq!(t.len(), 3);
        assert!(!t.is_empty());
    }

    #[test]
    fn table_bytes_counts_the_buckets_of_both_tables() {
        let entry = std::mem::size_of::<(Uuid, u64)>() + 1;
        assert_eq!(entry, 25);
        let mut t = UniqueIds::with_window(100);
        assert_eq!(t.table_bytes(), 0);
        for line in 0..100 {
            t.see(Uuid::new_v4(), line);
        }
        // The standard library's table holds 100 ids in 128 buckets (7/8 full).
        assert_eq!(t.current.capacity(), 112);
        assert_eq!(t.table_bytes(), 128 * entry);
        // One more: those 100 become the older table, and the new one holds
        // 1 id in 4 buckets.
        t.see(Uuid::new_v4(), 100);
        assert_eq!(t.current.capacity(), 3);
        assert_eq!(t.table_bytes(), (128 + 4) * entry);
    }
}

//! The items a session (run) keeps open: its running steps (SA), its open
//! turns, broadcasts and conflicts (MAP). A log has a few open at a time per session, usually one:
//! they sit in a short list searched from end to end ([`FEW`] at most), and
//! only what comes beyond it goes into a hash map, so the work per event
//! stays O(1) whatever a log holds open. A step or turn opened and closed
//! on the next lines was a hash map insert and remove per event of the log
//! (1.4% and 1.5% of the CPU samples of `mplp validate --kind sa-log` on
//! 10^6 events, and the map's allocation per run); here it is a push and a
//! `swap_remove` on a list of one (see `docs/spec-notes.md`).

use std::borrow::Borrow;
use std::hash::Hash;

use super::IdMap;

/// Items kept in the list before the hash map is used.
const FEW: usize = 8;

/// A map of few entries (see the [module docs](self)): keys are unique
/// across the list and the map, the order of the entries is not kept.
pub(crate) struct FewMap<K, V> {
    /// At most [`FEW`] entries, searched in order.
    few: Vec<(K, V)>,
    /// The entries beyond the list's [`FEW`] (none until the list has
    /// been full). Boxed: a session's state is then 32 bytes for this map
    /// instead of a hash map's 40 (a log can hold many sessions open).
    many: Option<Box<IdMap<K, V>>>,
}

impl<K, V> Default for FewMap<K, V> {
    fn default() -> Self {
        FewMap {
            few: Vec::new(),
            many: None,
        }
    }
}

impl<K: Eq + Hash, V> FewMap<K, V> {
    /// The value of `key`, if it is there.
    pub(crate) fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        match self.few.iter().find(|(k, _)| k.borrow() == key) {
            Some((_, v)) => Some(v),
            None => self.many.as_ref().and_then(|m| m.get(key)),
        }
    }

    /// The value of `key`, to change, if it is there.
    pub(crate) fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        match self.few.iter_mut().find(|(k, _)| (*k).borrow() == key) {
            Some((_, v)) => Some(v),
            None => self.many.as_mut().and_then(|m| m.get_mut(key)),
        }
    }

    /// Puts `key` with the value `value` makes, unless `key` is there
    /// (then nothing changes, and `value` is not called); true when it was
    /// put.
    pub(crate) fn insert_absent(&mut self, key: K, value: impl FnOnce() -> V) -> bool {
        if self.get::<K>(&key).is_some() {
            return false;
        }
        if self.few.len() < FEW {
            self.few.push((key, value()));
        } else {
            self.many
                .get_or_insert_with(Box::default)
                .insert(key, value());
        }
        true
    }

    /// Takes `key` out; its value, if it was there.
    pub(crate) fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        match self.few.iter().position(|(k, _)| k.borrow() == key) {
            Some(i) => Some(self.few.swap_remove(i).1),
            None => self.many.as_mut().and_then(|m| m.remove(key)),
        }
    }

    /// How many entries there are.
    pub(crate) fn len(&self) -> usize {
        self.few.len() + self.many.as_ref().map_or(0, |m| m.len())
    }

    /// True when there is none.
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every entry, in no particular order.
    pub(crate) fn into_entries(self) -> impl Iterator<Item = (K, V)> {
        self.few
            .into_iter()
            .chain(self.many.into_iter().flat_map(|m| m.into_iter()))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;

    #[derive(Debug, Clone)]
    enum Op {
        Get(u8),
        Insert(u8, u32),
        Remove(u8),
        /// Adds 1 to the value, through `get_mut`.
        Bump(u8),
    }

    fn op(keys: u8) -> impl Strategy<Value = Op> {
        prop_oneof![
            (0..keys).prop_map(Op::Get),
            ((0..keys), any::<u32>()).prop_map(|(k, v)| Op::Insert(k, v)),
            (0..keys).prop_map(Op::Remove),
            (0..keys).prop_map(Op::Bump),
        ]
    }

    proptest! {
        /// Every answer is a `HashMap`'s, with few keys (the list alone)
        /// and many (the list full, then the map too).
        #[test]
        fn few_map_answers_as_a_hash_map_does(
            keys in prop::sample::select(vec![3u8, 9, 40]),
            ops in prop::collection::vec(op(40), 0..400),
        ) {
            let mut few: FewMap<u8, u32> = FewMap::default();
            let mut model: HashMap<u8, u32> = HashMap::new();
            for op in ops {
                match op {
                    Op::Get(k) => prop_assert_eq!(few.get(&(k % keys)), model.get(&(k % keys))),
                    Op::Insert(k, v) => {
                        let k = k % keys;
                        let put = few.insert_absent(k, || v);
                        prop_assert_eq!(put, !model.contains_key(&k));
                        model.entry(k).or_insert(v);
                    }
                    Op::Remove(k) => prop_assert_eq!(few.remove(&(k % keys)), model.remove(&(k % keys))),
                    Op::Bump(k) => {
                        let (a, b) = (few.get_mut(&(k % keys)), model.get_mut(&(k % keys)));
                        prop_assert_eq!(a.is_some(), b.is_some());
                        if let (Some(a), Some(b)) = (a, b) {
                            *a = a.wrapping_add(1);
                            *b = b.wrapping_add(1);
                        }
                    }
                }
                prop_assert_eq!(few.len(), model.len());
                prop_assert_eq!(few.is_empty(), model.is_empty());
                prop_assert!(few.few.len() <= FEW);
            }
            let mut entries: Vec<_> = few.into_entries().collect();
            entries.sort_unstable();
            let mut expected: Vec<_> = model.into_iter().collect();
            expected.sort_unstable();
            prop_assert_eq!(entries, expected);
        }
    }

    proptest! {
        /// Keys that own their text (`ShortString`, as the MAP validator's
        /// broadcast and conflict ids) are found by a `&str`, as in a
        /// `HashMap<String, _>`, in the list and beyond it.
        #[test]
        fn text_keys_are_found_by_str(
            ops in prop::collection::vec((0u8..3, 0u8..20, any::<u32>()), 0..200),
        ) {
            use mplp_core::ShortString;
            let mut few: FewMap<ShortString, u32> = FewMap::default();
            let mut model: HashMap<String, u32> = HashMap::new();
            for (how, k, v) in ops {
                // Some keys longer than a `ShortString` holds inline.
                let key = if k % 2 == 0 { format!("b-{k}") } else { format!("{k}-{}", "x".repeat(30)) };
                match how {
                    0 => {
                        prop_assert_eq!(few.insert_absent(ShortString::from(key.as_str()), || v), !model.contains_key(&key));
                        model.entry(key).or_insert(v);
                    }
                    1 => prop_assert_eq!(few.remove(key.as_str()), model.remove(&key)),
                    _ => {
                        if let Some(x) = few.get_mut(key.as_str()) {
                            *x = v;
                        }
                        if let Some(x) = model.get_mut(&key) {
                            *x = v;
                        }
                        prop_assert_eq!(few.get(key.as_str()), model.get(&key));
                    }
                }
                prop_assert_eq!(few.len(), model.len());
            }
        }
    }

    #[test]
    fn a_few_map_is_smaller_than_a_hash_map() {
        assert_eq!(std::mem::size_of::<FewMap<u64, u64>>(), 32);
        assert!(std::mem::size_of::<FewMap<u64, u64>>() < std::mem::size_of::<IdMap<u64, u64>>());
    }

    #[test]
    fn the_map_is_made_only_beyond_the_list() {
        let mut few: FewMap<u64, u64> = FewMap::default();
        for k in 0..FEW as u64 {
            assert!(few.insert_absent(k, || k));
        }
        assert!(few.many.is_none());
        assert!(few.insert_absent(100, || 1));
        assert_eq!(few.many.as_ref().map(|m| m.len()), Some(1));
        // There already: not put again, its value not made.
        assert!(!few.insert_absent(100, || unreachable!()));
        assert!(!few.insert_absent(3, || unreachable!()));
        // Room in the list again: a new key goes there.
        assert_eq!(few.remove(&0), Some(0));
        assert!(few.insert_absent(200, || 2));
        assert_eq!(few.few.len(), FEW);
        assert_eq!(few.get(&100), Some(&1));
        assert_eq!(few.get(&200), Some(&2));
        assert_eq!(few.len(), FEW + 1);
    }
}

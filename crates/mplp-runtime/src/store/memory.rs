//! The in-memory store.

use std::collections::HashMap;

use super::{Expect, Store, StoreError, Versioned, check_expect};

/// A [`Store`] in memory: for tests, benchmarks and runs that need no
/// durability. The event log is one buffer plus line offsets (one
/// allocation per doubling, not per event).
#[derive(Clone, Debug, Default)]
pub struct MemoryStore {
    docs: HashMap<(String, String), Versioned>,
    log: Vec<u8>,
    ends: Vec<usize>,
    checkpoints: HashMap<String, Vec<u8>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        MemoryStore::default()
    }

    /// The log as NDJSON (one event a line).
    pub fn ndjson(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.log.len() + self.ends.len());
        let mut start = 0;
        for &end in &self.ends {
            out.extend_from_slice(&self.log[start..end]);
            out.push(b'\n');
            start = end;
        }
        out
    }
}

impl Store for MemoryStore {
    fn get(&self, kind: &str, id: &str) -> Result<Option<Versioned>, StoreError> {
        Ok(self.docs.get(&(kind.to_owned(), id.to_owned())).cloned())
    }

    fn put(
        &mut self,
        kind: &str,
        id: &str,
        bytes: &[u8],
        expect: Expect,
    ) -> Result<u64, StoreError> {
        let key = (kind.to_owned(), id.to_owned());
        let found = self.docs.get(&key).map(|v| v.revision);
        check_expect(kind, id, expect, found)?;
        let revision = found.map_or(1, |r| r + 1);
        self.docs.insert(
            key,
            Versioned {
                revision,
                bytes: bytes.to_vec(),
            },
        );
        Ok(revision)
    }

    fn append(&mut self, event: &[u8]) -> Result<u64, StoreError> {
        self.log.extend_from_slice(event);
        self.ends.push(self.log.len());
        Ok(self.ends.len() as u64)
    }

    fn events(&self) -> Result<Vec<Vec<u8>>, StoreError> {
        let mut start = 0;
        Ok(self
            .ends
            .iter()
            .map(|&end| {
                let e = self.log[start..end].to_vec();
                start = end;
                e
            })
            .collect())
    }

    fn event_count(&self) -> u64 {
        self.ends.len() as u64
    }

    fn put_checkpoint(&mut self, name: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.checkpoints.insert(name.to_owned(), bytes.to_vec());
        Ok(())
    }

    fn checkpoint(&self, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.checkpoints.get(name).cloned())
    }
}

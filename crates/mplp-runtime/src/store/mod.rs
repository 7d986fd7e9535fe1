//! What a runtime keeps: documents by kind and id with a revision
//! (compare-and-set writes), one append-only event log, and named
//! checkpoints ([`Store`]), in memory ([`MemoryStore`]) or in a directory
//! laid out as an evidence pack ([`DirStore`]).

use std::fmt;
use std::path::PathBuf;

mod dir;
mod memory;

pub use dir::DirStore;
pub use memory::MemoryStore;

/// The revision a compare-and-set write expects to replace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Expect {
    /// The document must not exist yet.
    Absent,
    /// The document must be at exactly this revision.
    Revision(u64),
    /// Whatever is there (an unconditional write).
    Any,
}

/// A stored document: its bytes and its revision (1 for the first write,
/// one more at each write).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Versioned {
    /// The revision.
    pub revision: u64,
    /// The document's JSON text.
    pub bytes: Vec<u8>,
}

/// What can go wrong in a store. Every variant names what it is about.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// A compare-and-set write found another revision.
    #[error("{kind} {id}: expected {expected}, found {found}: another writer changed it")]
    Conflict {
        /// The document kind.
        kind: String,
        /// The document id.
        id: String,
        /// What the writer expected.
        expected: String,
        /// What the store holds.
        found: String,
    },
    /// Another writer holds the store.
    #[error("{path}: {message}")]
    Locked {
        /// The store.
        path: PathBuf,
        /// Who holds it, as far as known.
        message: String,
    },
    /// Content of the store is not what this version writes (bad JSON,
    /// a checksum that does not match, a missing file, another format).
    #[error("{file}: {message}")]
    Corrupt {
        /// The file (or key) at fault.
        file: String,
        /// What is wrong and what was expected.
        message: String,
    },
    /// The store refuses the operation (e.g. a second document of a kind
    /// the directory store keeps once).
    #[error("{0}")]
    Unsupported(String),
    /// An I/O error on a file.
    #[error("{file}: {source}")]
    Io {
        /// The file.
        file: String,
        /// The error.
        #[source]
        source: std::io::Error,
    },
}

impl StoreError {
    pub(crate) fn io(file: impl fmt::Display, source: std::io::Error) -> Self {
        StoreError::Io {
            file: file.to_string(),
            source,
        }
    }

    pub(crate) fn corrupt(file: impl fmt::Display, message: impl Into<String>) -> Self {
        StoreError::Corrupt {
            file: file.to_string(),
            message: message.into(),
        }
    }

    pub(crate) fn conflict(kind: &str, id: &str, expected: Expect, found: Option<u64>) -> Self {
        let expected = match expected {
            Expect::Absent => "no document".to_owned(),
            Expect::Revision(r) => format!("revision {r}"),
            Expect::Any => "any revision".to_owned(),
        };
        StoreError::Conflict {
            kind: kind.to_owned(),
            id: id.to_owned(),
            expected,
            found: found.map_or_else(|| "no document".to_owned(), |r| format!("revision {r}")),
        }
    }
}

/// Checks `expect` against the current revision `found`.
pub(crate) fn check_expect(
    kind: &str,
    id: &str,
    expect: Expect,
    found: Option<u64>,
) -> Result<(), StoreError> {
    let ok = match expect {
        Expect::Any => true,
        Expect::Absent => found.is_none(),
        Expect::Revision(r) => found == Some(r),
    };
    if ok {
        Ok(())
    } else {
        Err(StoreError::conflict(kind, id, expect, found))
    }
}

/// What a runtime must keep across a crash: documents, an event log and
/// checkpoints.
///
/// - Documents are keyed by kind (`Document::KIND`: `plan`, `trace`, ...)
///   and id; each write is a compare-and-set on the revision ([`Expect`]).
/// - The event log is append-only: one JSON text per event, in order; an
///   append returns when the event is as durable as the store makes it.
/// - Checkpoints are small named JSON texts (runtime bookkeeping).
///
/// ```
/// use mplp_runtime::store::{Expect, MemoryStore, Store};
/// let mut store = MemoryStore::new();
/// let r1 = store.put("plan", "p1", br#"{"v":1}"#, Expect::Absent)?;
/// assert!(store.put("plan", "p1", br#"{"v":2}"#, Expect::Absent).is_err());
/// let r2 = store.put("plan", "p1", br#"{"v":2}"#, Expect::Revision(r1))?;
/// assert_eq!(store.get("plan", "p1")?.map(|v| v.revision), Some(r2));
/// store.append(br#"{"event_id":"a"}"#)?;
/// assert_eq!(store.events()?.len(), 1);
/// # Ok::<(), mplp_runtime::store::StoreError>(())
/// ```
pub trait Store {
    /// The document `kind`/`id`, if stored.
    fn get(&self, kind: &str, id: &str) -> Result<Option<Versioned>, StoreError>;

    /// Writes the document `kind`/`id` if its revision is what `expect`
    /// says, and returns the new revision.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when the revision differs (nothing written).
    fn put(
        &mut self,
        kind: &str,
        id: &str,
        bytes: &[u8],
        expect: Expect,
    ) -> Result<u64, StoreError>;

    /// Appends one event (a JSON text without a newline) to the log and
    /// returns how many events the log holds.
    fn append(&mut self, event: &[u8]) -> Result<u64, StoreError>;

    /// The events of the log, in order.
    fn events(&self) -> Result<Vec<Vec<u8>>, StoreError>;

    /// How many events the log holds.
    fn event_count(&self) -> u64;

    /// Writes the checkpoint `name` (replacing any earlier one).
    fn put_checkpoint(&mut self, name: &str, bytes: &[u8]) -> Result<(), StoreError>;

    /// The checkpoint `name`, if any.
    fn checkpoint(&self, name: &str) -> Result<Option<Vec<u8>>, StoreError>;

    /// The work is finished: the store seals what it keeps (the directory
    /// store writes the manifest and the integrity list). Nothing is
    /// written after, but a later mutation unseals the store again.
    fn seal(&mut self) -> Result<(), StoreError> {
        Ok(())
    }
}

macro_rules! forward_store {
    ($($t:ty),*) => {$(
impl<S: Store + ?Sized> Store for $t {
    fn get(&self, kind: &str, id: &str) -> Result<Option<Versioned>, StoreError> {
        (**self).get(kind, id)
    }
    fn put(
        &mut self,
        kind: &str,
        id: &str,
        bytes: &[u8],
        expect: Expect,
    ) -> Result<u64, StoreError> {
        (**self).put(kind, id, bytes, expect)
    }
    fn append(&mut self, event: &[u8]) -> Result<u64, StoreError> {
        (**self).append(event)
    }
    fn events(&self) -> Result<Vec<Vec<u8>>, StoreError> {
        (**self).events()
    }
    fn event_count(&self) -> u64 {
        (**self).event_count()
    }
    fn put_checkpoint(&mut self, name: &str, bytes: &[u8]) -> Result<(), StoreError> {
        (**self).put_checkpoint(name, bytes)
    }
    fn checkpoint(&self, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        (**self).checkpoint(name)
    }
    fn seal(&mut self) -> Result<(), StoreError> {
        (**self).seal()
    }
}
)*};
}

forward_store!(&mut S, Box<S>);

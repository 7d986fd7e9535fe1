//! Conflicts: concurrent modification of one resource (a plan step, a file)
//! detected by compare-and-set on versions, and resolved by a strategy.
//!
//! Every write names the version it was based on. When the resource has
//! moved on since (another participant wrote in between), the write is not
//! applied: a [`Conflict`] is returned, recorded as detected, and must be
//! handed to [`ResourceStore::resolve`], which applies the winner's value and
//! records the resolution.
//!
//! ```
//! use mplp_collab::conflict::{ConflictPolicy, ResourceStore};
//! let mut store = ResourceStore::new();
//! let v0 = store.insert("step-1", "pending", "planner");
//! store.compare_and_set("step-1", v0, "running", "coder").unwrap();   // v1
//! // The reviewer read v0 and writes now: a conflict.
//! let conflict = store.compare_and_set("step-1", v0, "blocked", "reviewer").unwrap_err();
//! assert_eq!((conflict.incumbent(), conflict.challenger()), ("coder", "reviewer"));
//! let resolution = store.resolve(conflict, &mut ConflictPolicy::LastWriterWins).unwrap();
//! assert_eq!(resolution.winner, "reviewer");
//! assert_eq!(store.get("step-1"), Some((&"blocked", 2)));
//! assert!(store.unresolved().next().is_none());
//! ```

use std::collections::BTreeMap;

use mplp_core::rules::Source;
use mplp_core::{Error, Violation};

mplp_core::declare_rules! {
    /// The rules of the resource store.
    pub(crate) const RULES;

    /// A conflict was presented to a store that did not detect it, or twice.
    pub const MAP_CONFLICT_UNKNOWN = "map_conflict_unknown" {
        strict: Error,
        scope: Api,
        source: Source::Sdk { note: "mplp-collab: Conflicts" },
        summary: "a conflict presented to a store that did not detect it, or twice",
    }
}

mplp_core::wire_enum! {
    /// How a conflict is resolved (the `strategy` of `MAPConflictResolved`).
    pub enum ConflictStrategy {
        /// The participant of higher rank wins (ties: the first writer).
        Hierarchy = "hierarchy",
        /// The value already written stays.
        FirstWriterWins = "first_writer_wins",
        /// The newer write replaces it.
        LastWriterWins = "last_writer_wins",
        /// The orchestrator chooses.
        OrchestratorDecides = "orchestrator_decides",
    }
}

/// Which side of a conflict wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// The participant whose write is in the store.
    Incumbent,
    /// The participant whose write was refused.
    Challenger,
}

/// A detected conflict: a write based on a version that is no longer current.
/// Must be resolved with [`ResourceStore::resolve`].
#[derive(Debug, PartialEq, Eq)]
#[must_use = "every conflict must be resolved with ResourceStore::resolve"]
pub struct Conflict<V> {
    id: uuid::Uuid,
    resource: String,
    expected_version: u64,
    current_version: u64,
    incumbent: String,
    challenger: String,
    proposed: V,
}

impl<V> Conflict<V> {
    /// The conflict's id (`conflict_id` on the wire).
    pub fn id(&self) -> uuid::Uuid {
        self.id
    }

    /// The resource written concurrently.
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// The version the refused write was based on.
    pub fn expected_version(&self) -> u64 {
        self.expected_version
    }

    /// The version in the store.
    pub fn current_version(&self) -> u64 {
        self.current_version
    }

    /// Who wrote the version in the store.
    pub fn incumbent(&self) -> &str {
        &self.incumbent
    }

    /// Who attempted the refused write.
    pub fn challenger(&self) -> &str {
        &self.challenger
    }

    /// The refused value.
    pub fn proposed(&self) -> &V {
        &self.proposed
    }
}

/// The orchestrator's decision: given the conflict and the value in the
/// store, which side wins.
pub type Decider<'a, V> = Box<dyn FnMut(&Conflict<V>, &V) -> Winner + 'a>;

/// How to choose a winner.
pub enum ConflictPolicy<'a, V> {
    /// Higher rank wins; unknown writers rank 0; ties go to the incumbent.
    Hierarchy(BTreeMap<String, u32>),
    /// The incumbent wins.
    FirstWriterWins,
    /// The challenger wins.
    LastWriterWins,
    /// The orchestrator's decision function chooses.
    OrchestratorDecides(Decider<'a, V>),
}

impl<V> ConflictPolicy<'_, V> {
    /// The strategy's wire name.
    pub fn strategy(&self) -> ConflictStrategy {
        match self {
            ConflictPolicy::Hierarchy(_) => ConflictStrategy::Hierarchy,
            ConflictPolicy::FirstWriterWins => ConflictStrategy::FirstWriterWins,
            ConflictPolicy::LastWriterWins => ConflictStrategy::LastWriterWins,
            ConflictPolicy::OrchestratorDecides(_) => ConflictStrategy::OrchestratorDecides,
        }
    }
}

impl<V> std::fmt::Debug for ConflictPolicy<'_, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConflictPolicy::Hierarchy(ranks) => f.debug_tuple("Hierarchy").field(ranks).finish(),
            other => f.write_str(other.strategy().as_str()),
        }
    }
}

/// How a conflict was resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Resolution {
    /// The conflict resolved.
    pub conflict_id: uuid::Uuid,
    /// The strategy used.
    pub strategy: ConflictStrategy,
    /// The participant whose value stands.
    pub winner: String,
    /// The other participant.
    pub loser: String,
    /// The resource's version after the resolution.
    pub version: u64,
    /// Why, for people.
    pub reason: String,
}

/// One entry of a store's conflict record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConflictRecord {
    /// A conflict was detected.
    Detected {
        /// Its id.
        conflict_id: uuid::Uuid,
        /// The resource.
        resource: String,
        /// Incumbent and challenger.
        participants: [String; 2],
    },
    /// A conflict was resolved.
    Resolved(Resolution),
}

#[derive(Debug)]
struct Entry<V> {
    value: V,
    version: u64,
    writer: String,
}

/// Versioned resources with compare-and-set writes and a conflict record.
///
/// The conflict record ([`ResourceStore::record`]) grows with every conflict;
/// it is on by default and can be turned off
/// ([`ResourceStore::record_conflicts`]), leaving the store in memory
/// proportional to its resources and its unresolved conflicts.
#[derive(Debug)]
pub struct ResourceStore<V> {
    entries: BTreeMap<String, Entry<V>>,
    record: Vec<ConflictRecord>,
    recording: bool,
    open: Vec<uuid::Uuid>,
    ids: Option<crate::rng::SplitMix64>,
}

impl<V> Default for ResourceStore<V> {
    fn default() -> Self {
        ResourceStore {
            entries: BTreeMap::new(),
            record: Vec::new(),
            recording: true,
            open: Vec::new(),
            ids: None,
        }
    }
}

impl<V> ResourceStore<V> {
    /// An empty store (conflict ids at random).
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty store whose conflict ids come from a seeded generator.
    pub fn with_seed(seed: u64) -> Self {
        ResourceStore {
            ids: Some(crate::rng::SplitMix64::new(seed)),
            ..Self::default()
        }
    }

    /// Creates or replaces a resource unconditionally at version 0
    /// (or the next version); returns the version.
    pub fn insert(&mut self, resource: impl Into<String>, value: V, writer: &str) -> u64 {
        let resource = resource.into();
        let version = self.entries.get(&resource).map_or(0, |e| e.version + 1);
        self.entries.insert(
            resource,
            Entry {
                value,
                version,
                writer: writer.to_owned(),
            },
        );
        version
    }

    /// The value and version of a resource.
    pub fn get(&self, resource: &str) -> Option<(&V, u64)> {
        self.entries.get(resource).map(|e| (&e.value, e.version))
    }

    /// Every resource with its value and version, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &V, u64)> {
        self.entries
            .iter()
            .map(|(k, e)| (k.as_str(), &e.value, e.version))
    }

    /// Who last wrote a resource.
    pub fn last_writer(&self, resource: &str) -> Option<&str> {
        self.entries.get(resource).map(|e| e.writer.as_str())
    }

    /// Writes `value` if the resource is still at `expected` (or, for a new
    /// resource, `expected` is 0); returns the new version. Otherwise the
    /// write is not applied and the detected conflict is returned.
    pub fn compare_and_set(
        &mut self,
        resource: &str,
        expected: u64,
        value: V,
        writer: &str,
    ) -> Result<u64, Conflict<V>> {
        match self.entries.get_mut(resource) {
            None if expected == 0 => {
                self.entries.insert(
                    resource.to_owned(),
                    Entry {
                        value,
                        version: 0,
                        writer: writer.to_owned(),
                    },
                );
                Ok(0)
            }
            Some(e) if e.version == expected => {
                e.value = value;
                e.version += 1;
                writer.clone_into(&mut e.writer);
                Ok(e.version)
            }
            other => {
                let (current_version, incumbent) = other
                    .map(|e| (e.version, e.writer.clone()))
                    .unwrap_or_default();
                let id = match &mut self.ids {
                    Some(rng) => rng.uuid_v4(),
                    None => uuid::Uuid::new_v4(),
                };
                if self.recording {
                    self.record.push(ConflictRecord::Detected {
                        conflict_id: id,
                        resource: resource.to_owned(),
                        participants: [incumbent.clone(), writer.to_owned()],
                    });
                }
                self.open.push(id);
                Err(Conflict {
                    id,
                    resource: resource.to_owned(),
                    expected_version: expected,
                    current_version,
                    incumbent,
                    challenger: writer.to_owned(),
                    proposed: value,
                })
            }
        }
    }

    /// Resolves a conflict this store detected: the winner's value stands
    /// (a challenger's win is written as a new version). Recorded.
    pub fn resolve(
        &mut self,
        conflict: Conflict<V>,
        policy: &mut ConflictPolicy<'_, V>,
    ) -> Result<Resolution, Error> {
        let pos = self
            .open
            .iter()
            .position(|id| *id == conflict.id)
            .ok_or_else(|| {
                Error::State(Violation::error(
                    "",
                    MAP_CONFLICT_UNKNOWN,
                    format!(
                        "conflict {} was not detected by this store, or is already resolved",
                        conflict.id
                    ),
                ))
            })?;
        let current = self.entries.get(&conflict.resource);
        let (winner, reason) = match policy {
            ConflictPolicy::Hierarchy(ranks) => {
                let rank = |who: &str| ranks.get(who).copied().unwrap_or(0);
                let (a, b) = (rank(&conflict.incumbent), rank(&conflict.challenger));
                if b > a {
                    (
                        Winner::Challenger,
                        format!(
                            "`{}` (rank {b}) outranks `{}` (rank {a})",
                            conflict.challenger, conflict.incumbent
                        ),
                    )
                } else {
                    (
                        Winner::Incumbent,
                        format!(
                            "`{}` (rank {a}) is not outranked by `{}` (rank {b})",
                            conflict.incumbent, conflict.challenger
                        ),
                    )
                }
            }
            ConflictPolicy::FirstWriterWins => {
                (Winner::Incumbent, "the first write stands".to_owned())
            }
            ConflictPolicy::LastWriterWins => {
                (Winner::Challenger, "the last write replaces it".to_owned())
            }
            ConflictPolicy::OrchestratorDecides(decide) => match current {
                Some(e) => (
                    decide(&conflict, &e.value),
                    "the orchestrator decided".to_owned(),
                ),
                None => (
                    Winner::Challenger,
                    "the resource no longer exists; the orchestrator's decision was not needed"
                        .to_owned(),
                ),
            },
        };
        self.open.remove(pos);
        let strategy = policy.strategy();
        let Conflict {
            id,
            resource,
            incumbent,
            challenger,
            proposed,
            ..
        } = conflict;
        let (winner_name, loser) = match winner {
            Winner::Incumbent => (incumbent, challenger),
            Winner::Challenger => (challenger, incumbent),
        };
        let version = match winner {
            Winner::Incumbent => self.entries.get(&resource).map_or(0, |e| e.version),
            Winner::Challenger => self.insert(resource, proposed, &winner_name),
        };
        let resolution = Resolution {
            conflict_id: id,
            strategy,
            winner: winner_name,
            loser,
            version,
            reason,
        };
        if self.recording {
            self.record
                .push(ConflictRecord::Resolved(resolution.clone()));
        }
        Ok(resolution)
    }

    /// Every detection and resolution recorded, in order: all of them while
    /// the record is on (the default), none while it is off.
    pub fn record(&self) -> &[ConflictRecord] {
        &self.record
    }

    /// Turns the conflict record on (the default) or off. Turning it off
    /// drops what was recorded; turning it on records from then on.
    /// Detection and resolution work the same either way.
    ///
    /// ```
    /// use mplp_collab::conflict::{ConflictPolicy, ResourceStore};
    /// let mut store = ResourceStore::new();
    /// store.record_conflicts(false);
    /// let v0 = store.insert("doc", 1, "ana");
    /// store.compare_and_set("doc", v0, 2, "bob").unwrap();
    /// let conflict = store.compare_and_set("doc", v0, 3, "eve").unwrap_err();
    /// store.resolve(conflict, &mut ConflictPolicy::LastWriterWins).unwrap();
    /// assert_eq!(store.get("doc"), Some((&3, 2)));
    /// assert!(store.record().is_empty());
    /// ```
    pub fn record_conflicts(&mut self, on: bool) {
        self.recording = on;
        if !on {
            self.record = Vec::new();
        }
    }

    /// True while conflicts are recorded.
    pub fn records_conflicts(&self) -> bool {
        self.recording
    }

    /// Conflicts detected and not yet resolved.
    pub fn unresolved(&self) -> impl Iterator<Item = uuid::Uuid> + '_ {
        self.open.iter().copied()
    }
}

//! Helpers shared by the cross-crate tests: finding the example documents and
//! validating a document of any kind.

use std::path::{Path, PathBuf};

use mplp_core::{Document, Report};

/// The repository's `schemas/examples` folder.
pub fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/examples")
}

/// Every `.json`/`.ndjson` example (not the `.expect.json` sidecars) directly in `dir`, sorted.
pub fn example_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    let name = p.to_string_lossy();
                    (name.ends_with(".json") || name.ends_with(".ndjson"))
                        && !name.ends_with(".expect.json")
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// The document kinds of the examples, by file-name prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `plan-`
    Plan,
    /// `dialog-`
    Dialog,
    /// `collab-`
    Collab,
    /// `context-`
    Context,
    /// `confirm-`
    Confirm,
    /// `trace-`
    Trace,
    /// `role-`
    Role,
    /// `map-event-`
    MapEvent,
    /// `sa-event-`
    SaEvent,
    /// `event-`
    Event,
    /// `map-log-`
    MapLog,
    /// `sa-log-`
    SaLog,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 12] = [
        Kind::Plan,
        Kind::Dialog,
        Kind::Collab,
        Kind::Context,
        Kind::Confirm,
        Kind::Trace,
        Kind::Role,
        Kind::MapEvent,
        Kind::SaEvent,
        Kind::Event,
        Kind::MapLog,
        Kind::SaLog,
    ];

    /// The kind of an example from its file name.
    pub fn of(path: &Path) -> Option<Kind> {
        let name = path.file_name()?.to_str()?;
        [
            ("map-event", Kind::MapEvent),
            ("sa-event", Kind::SaEvent),
            ("map-log", Kind::MapLog),
            ("sa-log", Kind::SaLog),
            ("plan", Kind::Plan),
            ("dialog", Kind::Dialog),
            ("collab", Kind::Collab),
            ("context", Kind::Context),
            ("role", Kind::Role),
            ("confirm", Kind::Confirm),
            ("trace", Kind::Trace),
            ("event", Kind::Event),
        ]
        .into_iter()
        .find(|(p, _)| name.starts_with(p))
        .map(|(_, k)| k)
    }
}

/// Validates bytes as a document (or log) of `kind`.
pub fn validate(kind: Kind, bytes: &[u8]) -> Report {
    match kind {
        Kind::Plan => mplp_plan::Plan::validate_json(bytes).report,
        Kind::Dialog => mplp_dialog::Dialog::validate_json(bytes).report,
        Kind::Collab => mplp_collab::Collab::validate_json(bytes).report,
        Kind::Context => mplp_context::Context::validate_json(bytes).report,
        Kind::Role => mplp_role::Role::validate_json(bytes).report,
        Kind::Confirm => mplp_confirm::Confirm::validate_json(bytes).report,
        Kind::Trace => mplp_trace::Trace::validate_json(bytes).report,
        Kind::MapEvent => mplp_events::MapEvent::validate_json(bytes).report,
        Kind::SaEvent => mplp_events::SaEvent::validate_json(bytes).report,
        Kind::Event => mplp_events::CoreEvent::validate_json(bytes).report,
        Kind::MapLog => mplp_events::log::validate_map_log(bytes),
        Kind::SaLog => mplp_events::log::validate_sa_log(bytes),
    }
}

/// Parses and writes back a single document of `kind`; `None` for logs.
pub fn round_trip(kind: Kind, bytes: &[u8]) -> Option<Result<String, mplp_core::Error>> {
    fn rt<T: Document>(bytes: &[u8]) -> Result<String, mplp_core::Error> {
        T::from_json(bytes).map(|d| d.to_json())
    }
    Some(match kind {
        Kind::Plan => rt::<mplp_plan::Plan>(bytes),
        Kind::Dialog => rt::<mplp_dialog::Dialog>(bytes),
        Kind::Collab => rt::<mplp_collab::Collab>(bytes),
        Kind::Context => rt::<mplp_context::Context>(bytes),
        Kind::Role => rt::<mplp_role::Role>(bytes),
        Kind::Confirm => rt::<mplp_confirm::Confirm>(bytes),
        Kind::Trace => rt::<mplp_trace::Trace>(bytes),
        Kind::MapEvent => rt::<mplp_events::MapEvent>(bytes),
        Kind::SaEvent => rt::<mplp_events::SaEvent>(bytes),
        Kind::Event => rt::<mplp_events::CoreEvent>(bytes),
        Kind::MapLog | Kind::SaLog => return None,
    })
}

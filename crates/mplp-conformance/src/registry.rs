//! The module validators the runner knows: ONE table, [`MODULES`].
//!
//! A flow document is looked up by its file stem (`plan.json` -> `plan`).
//! When the SDK gains a module, its line here changes from
//! `Validator::Missing(..)` to `Validator::Json(..)` (or `Validator::Log(..)`
//! for an NDJSON log); nothing else in the runner changes.

use std::io::Cursor;

use mplp_core::{Document, Report};

/// How a document of one kind is validated.
#[derive(Clone, Copy, Debug)]
pub enum Validator {
    /// A JSON document, validated whole.
    Json(fn(&[u8]) -> Report),
    /// An NDJSON log, validated line by line (findings carry line numbers).
    Log(fn(&[u8]) -> Report),
    /// The SDK has no validator for this kind yet: the reason is reported
    /// and the document is counted as skipped, never as passed.
    Missing(&'static str),
}

fn plan(b: &[u8]) -> Report {
    mplp_plan::Plan::validate_json(b).report
}
fn dialog(b: &[u8]) -> Report {
    mplp_dialog::Dialog::validate_json(b).report
}
fn collab(b: &[u8]) -> Report {
    mplp_collab::Collab::validate_json(b).report
}
fn map_event(b: &[u8]) -> Report {
    mplp_events::MapEvent::validate_json(b).report
}
fn sa_event(b: &[u8]) -> Report {
    mplp_events::SaEvent::validate_json(b).report
}
fn core_event(b: &[u8]) -> Report {
    mplp_events::CoreEvent::validate_json(b).report
}
fn map_log(b: &[u8]) -> Report {
    mplp_events::log::validate_map_log(Cursor::new(b))
}
fn sa_log(b: &[u8]) -> Report {
    mplp_events::log::validate_sa_log(Cursor::new(b))
}

const NOT_YET: &str = "the SDK has no validator for this module yet";

/// Every document kind the runner recognises, by file stem.
///
/// `map-events`/`sa-events` (`.ndjson`) are logs; `map-event`, `sa-event`,
/// `event` are single events.
pub const MODULES: &[(&str, Validator)] = &[
    ("plan", Validator::Json(plan)),
    ("dialog", Validator::Json(dialog)),
    ("collab", Validator::Json(collab)),
    ("map-event", Validator::Json(map_event)),
    ("sa-event", Validator::Json(sa_event)),
    ("event", Validator::Json(core_event)),
    ("map-events", Validator::Log(map_log)),
    ("sa-events", Validator::Log(sa_log)),
    (
        "context",
        Validator::Json(|b| mplp_kinds::CONTEXT.validate(b)),
    ),
    (
        "confirm",
        Validator::Json(|b| mplp_kinds::CONFIRM.validate(b)),
    ),
    ("trace", Validator::Json(|b| mplp_kinds::TRACE.validate(b))),
    ("role", Validator::Json(|b| mplp_kinds::ROLE.validate(b))),
    ("extension", Validator::Missing(NOT_YET)),
    ("network", Validator::Missing(NOT_YET)),
    ("core", Validator::Missing(NOT_YET)),
    ("learning", Validator::Missing(NOT_YET)),
    ("integration", Validator::Missing(NOT_YET)),
];

/// The validator for documents named `stem`, if the runner knows the kind.
///
/// ```
/// use mplp_conformance::registry::{validator, Validator};
/// assert!(matches!(validator("plan"), Some(Validator::Json(_))));
/// assert!(matches!(validator("context"), Some(Validator::Json(_))));
/// assert!(matches!(validator("network"), Some(Validator::Missing(_))));
/// assert!(validator("README").is_none());
/// ```
pub fn validator(stem: &str) -> Option<Validator> {
    MODULES.iter().find(|(k, _)| *k == stem).map(|(_, v)| *v)
}

//! Core types of the MPLP v1.0.0 protocol
//! (Multi-Agent Lifecycle Protocol), shared by every mplp-rs crate.
//!
//! - [`Meta`]: the metadata block of every document.
//! - Typed identifiers ([`ContextId`], [`PlanId`], [`StepId`], ...): one type
//!   per entity, so ids cannot be mixed up, each always a lowercase UUID v4.
//! - [`Timestamp`]: RFC 3339, keeping its text so documents round-trip exactly.
//! - [`Ref`], [`Governance`], [`TraceBase`], [`BaseEvent`]: the shared blocks.
//! - [`Error`], [`Violation`], [`Rule`], [`Report`]: one error type for the
//!   whole SDK; every violation names a JSON pointer, a stable rule id and
//!   what was expected, and validation reports all of them.
//! - [`rules`]: one declaration per rule (`declare_rules!`): its id, its
//!   severity per [`rules::Profile`] (`strict`, the default, or
//!   `canonical`), its scope and its source; [`rules::apply`] applies a
//!   profile to a report.
//! - [`Document`]: reading (`from_json`, `validate_json`) and writing
//!   (`to_json`) for every module document, with a fast typed path for
//!   valid input and a thorough pass that collects every error.
//!
//! ```
//! use mplp_core::{ContextId, Meta, Timestamp};
//! let meta = Meta::v1();
//! let ctx = ContextId::new();
//! let when: Timestamp = "2025-12-07T00:00:05.000Z".parse()?;
//! assert_eq!(when.to_string(), "2025-12-07T00:00:05.000Z");
//! assert!("ctx-123".parse::<ContextId>().is_err()); // the seeds' ids are not MPLP ids
//! # let _ = (meta, ctx);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Feature flags
//! - `schema`: our rendering of the canonical JSON Schemas, embedded, and
//!   `schema::validate` to check a `serde_json::Value` with the `jsonschema` crate.
//! - `schemars`: `schemars::JsonSchema` for every type (used by `cargo xtask schema-check`).
//!
//! # Dependencies, and why
//! - `serde`/`serde_json`: the wire format (serde_json's `unbounded_depth`
//!   feature lifts its recursion limit for [`mplp_json::nesting`], which bounds the
//!   depth itself). `serde_path_to_error` locates the
//!   rare serde error that the thorough pass does not explain itself.
//! - `uuid`, `time`: identifiers and RFC 3339 timestamps.
//! - `thiserror`: the error types.
//! - `mplp-json`: the JSON engine (the fast reader, exact numbers, nesting
//!   limits, the derive's deserialization helpers); [`Rule`], [`Pointer`],
//!   [`JsonObject`] and [`StrictValue`] are its types, re-exported here.
//! - `compact_str`: the inline storage of [`ShortString`] (roles, actors,
//!   MAP ids), a well-kept crate whose `unsafe` we would otherwise have to
//!   write (this workspace forbids it).
//!
//! # Spec notes
//! See `docs/spec-notes.md` in the repository. The ones decided here:
//! - Identifiers are lowercase UUID v4 only (the `identifiers` pattern); the
//!   error says whether the text was not a UUID, not version 4 or not lowercase.
//! - Timestamps follow RFC 3339 `date-time` (a `T` separator and an offset are
//!   required; lowercase `t`/`z` are accepted, as RFC 3339 allows), and keep
//!   their text. [`Timestamp::now`] writes UTC with milliseconds and `Z`.
//! - Versions are `MAJOR.MINOR.PATCH` digits only: `1.0.0-beta` is refused.
//! - `integer` fields refuse `1.0` (JSON Schema would accept it): a fraction
//!   is never written by any MPLP SDK, and accepting it would break the exact
//!   round trip. `-0` is the integer 0; a number beyond the member's range
//!   gets a message that names the range (`mplp_json::integer::read_integer`).
//! - Input may nest up to `mplp_json::nesting::MAX_NESTING` (1,024) levels, not
//!   serde_json's 128; deeper input is refused with `json-depth`.
//! - Duplicate keys in an object are an error (`duplicate-key`), at any depth.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod check;
pub mod document;
mod error;
mod event;
pub mod id;
mod meta;
pub mod protocol;
mod refs;
pub mod rules;
#[cfg(feature = "schema")]
pub mod schema;
pub mod text;
mod timestamp;
mod trigger_table;
mod values;
pub mod wire;
pub mod wire_enum;

pub use check::CheckValue;
pub use document::{Document, Stated, Validation};
pub use error::{Error, Report, Severity, TransitionError, Violation};
pub use event::{BaseEvent, EVENT_TYPE_PATTERN, EventType, EventTypeError};
pub use id::{
    CollabId, ConfirmId, ContextId, DialogId, EventId, IdError, MplpId, PlanId, SpanId, StepId,
    ThreadId, TraceId,
};
pub use meta::{CrossCutting, Meta};
/// `#[derive(Wire)]`: see the [`mplp_derive`] crate.
pub use mplp_derive::Wire;
pub use refs::{CollabMode, Governance, ModuleName, Ref, TraceBase};
pub use timestamp::{Timestamp, TimestampError};
pub use values::{
    DuplicateItemError, EmptyStringError, EmptyVecError, NonEmpty, NonEmptyShortString,
    NonEmptyString, NonEmptyVec, ShortList, ShortString, UniqueVec, VERSION_PATTERN, Version,
    VersionError,
};
// Defined by the JSON engine; part of this crate's API (violations carry a
// rule and a pointer, documents hold free-form objects).
pub use mplp_json::{JsonObject, Pointer, Rule, StrictValue};
pub use wire::Wire;
pub use wire_enum::UnknownVariant;

/// Re-exports for the macros of this crate. Not part of the public API.
#[doc(hidden)]
pub mod __private {
    pub use mplp_json;
    #[cfg(feature = "schemars")]
    pub use schemars;
    pub use serde;
    pub use serde_json;
    pub use uuid;

    pub use crate::id::mplp_id_of;
}

/// Implements `schemars::JsonSchema` for a type written as a JSON string
/// (an implementation detail of the macros; empty without the `schemars` feature).
#[cfg(feature = "schemars")]
#[doc(hidden)]
#[macro_export]
macro_rules! __schemars_string {
    ($name:ident, $schema:tt) => {
        $crate::__schemars_string!([] $name, stringify!($name), $schema);
    };
    // A generic type (`[S] NonEmpty<S>`), named `$schema_name`.
    ([$($g:ident),*] $ty:ty, $schema_name:expr, $schema:tt) => {
        impl<$($g),*> $crate::__private::schemars::JsonSchema for $ty {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                $schema_name.into()
            }
            fn inline_schema() -> bool {
                true
            }
            fn json_schema(
                _: &mut $crate::__private::schemars::SchemaGenerator,
            ) -> $crate::__private::schemars::Schema {
                $crate::__private::schemars::json_schema!($schema)
            }
        }
    };
}

/// Empty without the `schemars` feature.
#[cfg(not(feature = "schemars"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __schemars_string {
    ($($any:tt)*) => {};
}

// --- README doc tests; keep this block last. ---

// The crate README: each of its Rust snippets is a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme {}

//! The table of Rust types that `schema-check` covers: one entry per kind.
//!
//! To cover a new type, add one `Kind` to [`KINDS`] (and enable the
//! crate's `schemars` feature in `xtask/Cargo.toml`).

use mplp_core::check::CheckValue;
use mplp_core::schema::SchemaKind;
use mplp_core::{Pointer, Report};
use schemars::JsonSchema;
use serde_json::Value;

/// One Rust type and the schema it stands for.
pub(crate) struct Kind {
    /// The kind's name: the CLI's document kind (`plan`), or the schema
    /// kind's name for shared blocks (`metadata`).
    pub(crate) name: &'static str,
    /// The Rust type, for reports.
    pub(crate) rust: &'static str,
    /// The schema the type is compared with.
    pub(crate) schema: SchemaKind,
    /// Picks the schema a given value is validated with, when it is not
    /// `schema` (observability events: by `event_family`).
    pub(crate) pick: Option<fn(&Value) -> SchemaKind>,
    /// The schemars schema of the type (draft 07), when it implements `JsonSchema`.
    pub(crate) rust_schema: Option<fn() -> Value>,
    /// Values of a discriminating member that select a schema of their own
    /// (observability events: `event_family`); empty for the other kinds.
    /// The drift check compares the type once per variant, see
    /// `drift::specialise`.
    pub(crate) variants: &'static [Variant],
    /// The fast path: does the typed serde parse of this JSON text succeed?
    pub(crate) serde_ok: fn(&str) -> bool,
    /// The thorough pass (`CheckValue`) over a value.
    pub(crate) check: fn(&Value) -> Report,
    /// The row of the kinds table it stands for (documents only; its
    /// examples in `schemas/examples/` start with the row's name and `-`).
    pub(crate) doc_kind: Option<&'static mplp_check::DocKind>,
    /// For shared blocks: the member name under which valid examples carry
    /// one (its values are the seeds of the differential check).
    pub(crate) seed_key: Option<&'static str>,
}

/// One value of a discriminating member with a schema of its own: the
/// rows of mplp-core's family tables.
pub(crate) use mplp_core::schema::FamilySchema as Variant;

/// The learning sample families with a schema of their own (mplp-core's
/// table, which `SchemaKind::learning_sample_for` reads).
pub(crate) const SAMPLE_FAMILIES: &[Variant] = SchemaKind::SAMPLE_FAMILIES;

/// The observability families with a schema of their own (mplp-core's
/// table, which `SchemaKind::event_for` reads).
pub(crate) const EVENT_FAMILIES: &[Variant] = SchemaKind::EVENT_FAMILIES;

fn rust_schema<T: JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft07().into_generator();
    serde_json::to_value(generator.into_root_schema_for::<T>()).unwrap_or(Value::Null)
}

/// The typed parse at the schema level: `Wire::deserialize_unchecked`
/// (the semantic rules, which the checker and jsonschema know nothing of,
/// do not run). Trailing input is refused as `serde_json::from_str` does.
fn serde_ok<T: mplp_core::Wire>(text: &str) -> bool {
    let mut de = serde_json::Deserializer::from_str(text);
    T::deserialize_unchecked(&mut de).is_ok() && de.end().is_ok()
}

fn check<T: CheckValue>(value: &Value) -> Report {
    let mut report = Report::new();
    T::check_value(value, &Pointer::root(), &mut report);
    report
}

/// A shared block of mplp-core (not a document: no examples of its own).
macro_rules! block {
    ($name:literal, $ty:ty, $schema:expr, $seed:literal) => {
        Kind {
            name: $name,
            rust: stringify!($ty),
            schema: $schema,
            pick: None,
            rust_schema: Some(rust_schema::<$ty>),
            variants: &[],
            serde_ok: serde_ok::<$ty>,
            check: check::<$ty>,
            doc_kind: None,
            seed_key: Some($seed),
        }
    };
}

/// A module document (implements `mplp_core::Document`): its name and
/// example prefix come from the kinds table of `mplp-check` (`$kind`).
macro_rules! doc {
    ($kind:expr, $ty:ty, $schema:expr, $pick:expr, $rs:expr) => {
        doc!($kind, $ty, $schema, $pick, $rs, &[])
    };
    ($kind:expr, $ty:ty, $schema:expr, $pick:expr, $rs:expr, $variants:expr) => {
        Kind {
            name: $kind.name,
            rust: stringify!($ty),
            schema: $schema,
            pick: $pick,
            rust_schema: $rs,
            variants: $variants,
            serde_ok: serde_ok::<$ty>,
            check: check::<$ty>,
            doc_kind: Some(&$kind),
            seed_key: None,
        }
    };
}

impl Kind {
    /// The verdict of the one dispatch (`mplp_check`) on bytes of this
    /// document kind, schema and semantic rules; `None` for shared blocks.
    pub(crate) fn validate_document(&self, bytes: &[u8]) -> Option<Report> {
        self.doc_kind.map(|kind| kind.validate(bytes))
    }

    /// The schema that validates `value`.
    pub(crate) fn schema_for(&self, value: &Value) -> SchemaKind {
        self.pick.map_or(self.schema, |pick| pick(value))
    }
}

/// Every covered type.
pub(crate) static KINDS: &[Kind] = &[
    block!("metadata", mplp_core::Meta, SchemaKind::Metadata, "meta"),
    block!(
        "trace-base",
        mplp_core::TraceBase,
        SchemaKind::TraceBase,
        "trace"
    ),
    // A document of its own (`module-event`) and a block of every module's
    // `events`: its seeds are both.
    Kind {
        seed_key: Some("events"),
        ..doc!(
            mplp_check::MODULE_EVENT,
            mplp_core::BaseEvent,
            SchemaKind::BaseEvent,
            None,
            Some(rust_schema::<mplp_core::BaseEvent>)
        )
    },
    block!("ref", mplp_core::Ref, SchemaKind::Ref, "lastConfirmRef"),
    block!(
        "governance",
        mplp_core::Governance,
        SchemaKind::Governance,
        "governance"
    ),
    doc!(
        mplp_check::PLAN,
        mplp_plan::Plan,
        SchemaKind::Plan,
        None,
        Some(rust_schema::<mplp_plan::Plan>)
    ),
    doc!(
        mplp_check::DIALOG,
        mplp_dialog::Dialog,
        SchemaKind::Dialog,
        None,
        Some(rust_schema::<mplp_dialog::Dialog>)
    ),
    doc!(
        mplp_check::COLLAB,
        mplp_collab::Collab,
        SchemaKind::Collab,
        None,
        Some(rust_schema::<mplp_collab::Collab>)
    ),
    doc!(
        mplp_check::CONTEXT,
        mplp_context::Context,
        SchemaKind::Context,
        None,
        Some(rust_schema::<mplp_context::Context>)
    ),
    doc!(
        mplp_check::CONFIRM,
        mplp_confirm::Confirm,
        SchemaKind::Confirm,
        None,
        Some(rust_schema::<mplp_confirm::Confirm>)
    ),
    doc!(
        mplp_check::TRACE,
        mplp_trace::Trace,
        SchemaKind::Trace,
        None,
        Some(rust_schema::<mplp_trace::Trace>)
    ),
    doc!(
        mplp_check::ROLE,
        mplp_role::Role,
        SchemaKind::Role,
        None,
        Some(rust_schema::<mplp_role::Role>)
    ),
    doc!(
        mplp_check::EXTENSION,
        mplp_extension::Extension,
        SchemaKind::Extension,
        None,
        Some(rust_schema::<mplp_extension::Extension>)
    ),
    doc!(
        mplp_check::NETWORK,
        mplp_network::Network,
        SchemaKind::Network,
        None,
        Some(rust_schema::<mplp_network::Network>)
    ),
    doc!(
        mplp_check::CORE,
        mplp_manifest::CoreManifest,
        SchemaKind::Core,
        None,
        Some(rust_schema::<mplp_manifest::CoreManifest>)
    ),
    doc!(
        mplp_check::MAP_EVENT,
        mplp_events::MapEvent,
        SchemaKind::MapEvent,
        None,
        Some(rust_schema::<mplp_events::MapEvent>)
    ),
    doc!(
        mplp_check::SA_EVENT,
        mplp_events::SaEvent,
        SchemaKind::SaEvent,
        None,
        Some(rust_schema::<mplp_events::SaEvent>)
    ),
    doc!(
        mplp_check::EVENT,
        mplp_events::CoreEvent,
        SchemaKind::CoreEvent,
        Some(SchemaKind::event_for),
        Some(rust_schema::<mplp_events::CoreEvent>),
        EVENT_FAMILIES
    ),
    doc!(
        mplp_check::LEARNING_SAMPLE,
        mplp_events::learning::LearningSample,
        SchemaKind::LearningSampleCore,
        Some(SchemaKind::learning_sample_for),
        Some(rust_schema::<mplp_events::learning::LearningSample>),
        SAMPLE_FAMILIES
    ),
    doc!(
        mplp_check::COMMON_LEARNING_SAMPLE,
        mplp_events::learning::CommonLearningSample,
        SchemaKind::CommonLearningSample,
        None,
        Some(rust_schema::<mplp_events::learning::CommonLearningSample>)
    ),
    doc!(
        mplp_check::TOOL_EVENT,
        mplp_events::integration::ToolEvent,
        SchemaKind::ToolEvent,
        None,
        Some(rust_schema::<mplp_events::integration::ToolEvent>)
    ),
    doc!(
        mplp_check::FILE_UPDATE_EVENT,
        mplp_events::integration::FileUpdateEvent,
        SchemaKind::FileUpdateEvent,
        None,
        Some(rust_schema::<mplp_events::integration::FileUpdateEvent>)
    ),
    doc!(
        mplp_check::GIT_EVENT,
        mplp_events::integration::GitEvent,
        SchemaKind::GitEvent,
        None,
        Some(rust_schema::<mplp_events::integration::GitEvent>)
    ),
    doc!(
        mplp_check::CI_EVENT,
        mplp_events::integration::CiEvent,
        SchemaKind::CiEvent,
        None,
        Some(rust_schema::<mplp_events::integration::CiEvent>)
    ),
];

/// True for the schema rules of a document: the `Document`-scope entries of
/// mplp-core's registry ([`mplp_core::rules::SCHEMA_RULES`]); anything else
/// is a semantic or SDK rule.
///
/// `json-depth` counts too: input nested past `mplp_json::nesting::MAX_NESTING`
/// is not read on either side (the schema side reads JSON with the same
/// limit), as `json-syntax` input is not.
pub(crate) fn is_schema_rule(rule: &str) -> bool {
    rule == mplp_core::rules::JSON_DEPTH.as_str()
        || mplp_core::rules::SCHEMA_RULES
            .iter()
            .any(|r| r.scope == mplp_core::rules::Scope::Document && r.rule.as_str() == rule)
}

/// Rule-id prefixes of mplp-events' SDK-level payload rules. The canonical
/// MAP and SA schemas only say that `payload` is an object; the SDK's typed
/// payloads require and type the members the MAP/SA events spec names
/// (`map_payload_required`, `sa_payload_type`, ...). They are stricter than
/// the bare schema by design, so the differential check leaves them out of
/// the Rust schema-level verdict (a documented exception, mirrored in
/// docs/spec-notes.md ("xtask")).
pub(crate) const SDK_PAYLOAD_RULE_PREFIXES: &[&str] = &["map_payload_", "sa_payload_"];

/// True for an SDK-level payload rule id (see [`SDK_PAYLOAD_RULE_PREFIXES`]).
pub(crate) fn is_sdk_payload_rule(rule: &str) -> bool {
    SDK_PAYLOAD_RULE_PREFIXES
        .iter()
        .any(|p| rule.starts_with(p))
}

/// The schema rule behind a violation: its rule, or for a frozen invariant
/// that the schema states (`Document::STATED_BY_SCHEMA`) the keyword kept in
/// its message (`Violation::schema_keyword`).
pub(crate) fn schema_rule_of(v: &mplp_core::Violation) -> &str {
    v.schema_keyword().unwrap_or(v.rule.as_str())
}

/// True for an error that JSON Schema would also report: a schema rule
/// that is not an SDK-level payload rule.
pub(crate) fn counts_for_schema_verdict(rule: &str) -> bool {
    is_schema_rule(rule) && !is_sdk_payload_rule(rule)
}

/// The kind whose examples start with this file name: `mplp_check::for_example`
/// (longest prefix wins), then the entry of [`KINDS`] with that name.
pub(crate) fn for_example(file_name: &str) -> Option<&'static Kind> {
    let name = mplp_check::for_example(file_name)?.name;
    KINDS.iter().find(|k| k.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_consistent() {
        for kind in KINDS {
            assert_eq!(kind.schema_for(&Value::Null), kind.schema, "{}", kind.name);
            if let Some(f) = kind.rust_schema {
                assert!(f().is_object(), "{}", kind.name);
            }
        }
        assert_eq!(
            for_example("map-event-x.json").map(|k| k.name),
            Some("map-event")
        );
        assert_eq!(for_example("plan-x.json").map(|k| k.name), Some("plan"));
    }

    #[test]
    fn every_document_kind_of_the_table_is_covered() {
        for kind in mplp_check::KINDS.iter().filter(|k| !k.is_log()) {
            let ours = KINDS.iter().find(|k| k.name == kind.name);
            assert!(
                ours.is_some(),
                "{} is not covered by schema-check",
                kind.name
            );
            assert_eq!(ours.and_then(|k| k.doc_kind), Some(*kind));
        }
        assert!(is_schema_rule("required") && is_schema_rule("json-syntax"));
        assert!(!is_schema_rule("lifecycle-transition") && !is_schema_rule("sa_plan_dag_acyclic"));
    }

    #[test]
    fn every_kind_is_compared() {
        for kind in KINDS {
            assert!(kind.rust_schema.is_some(), "{} is not compared", kind.name);
        }
        // The variants are exactly the values `event_for` routes elsewhere.
        for v in EVENT_FAMILIES {
            let value = serde_json::json!({ v.member: v.value });
            assert_eq!(SchemaKind::event_for(&value), v.schema);
        }
        for v in SAMPLE_FAMILIES {
            let value = serde_json::json!({ v.member: v.value });
            assert_eq!(SchemaKind::learning_sample_for(&value), v.schema);
        }
    }

    #[test]
    fn sdk_payload_rules_do_not_count_for_the_schema_verdict() {
        use mplp_events::rules;
        for r in [
            rules::MAP_PAYLOAD_REQUIRED,
            rules::MAP_PAYLOAD_TYPE,
            rules::MAP_PAYLOAD_ENUM,
            rules::MAP_PAYLOAD_FORMAT,
            rules::SA_PAYLOAD_REQUIRED,
            rules::SA_PAYLOAD_TYPE,
            rules::SA_PAYLOAD_ENUM,
            rules::SA_PAYLOAD_FORMAT,
        ] {
            assert!(is_sdk_payload_rule(r.as_str()), "{r}");
            assert!(!counts_for_schema_verdict(r.as_str()), "{r}");
        }
        assert!(counts_for_schema_verdict(
            mplp_core::Rule::REQUIRED.as_str()
        ));
        assert!(!is_sdk_payload_rule(mplp_core::Rule::REQUIRED.as_str()));
    }
}

//! The canonical schemas (our rendering), embedded, and validation of a
//! `serde_json::Value` against them with the [`jsonschema`] crate.
//!
//! The schema files of `schemas/` are compiled into the crate
//! ([`FILES`]). [`validate`] checks a value against one of them, fully
//! offline: every embedded file is registered under its `$id`, so `$ref`s
//! between files resolve without any network or file access. Format
//! assertion is on: `date-time` (RFC 3339) and `uuid` (RFC 9562 text form,
//! any version, either case) are checked, as the canonical schemas intend.
//!
//! Validators are compiled once, on first use, and shared by all threads.
//!
//! ```
//! use mplp_core::schema::{self, SchemaKind};
//! use serde_json::json;
//!
//! let meta = json!({"protocol_version": "1.0.0", "schema_version": "1.0"});
//! let report = schema::validate(SchemaKind::Metadata, &meta);
//! let found: Vec<_> = report.errors().map(|v| (v.pointer.as_str(), v.rule.as_str())).collect();
//! assert_eq!(found, [("/schema_version", "pattern")]);
//!
//! let meta = json!({"protocolVersion": "1.0.0", "schema_version": "1.0.0"});
//! let report = schema::validate(SchemaKind::Metadata, &meta);
//! let mut found: Vec<_> = report.errors().map(|v| (v.pointer.as_str(), v.rule.as_str())).collect();
//! found.sort();
//! // `required` and `additional-properties` point at the member itself.
//! assert_eq!(found, [("/protocolVersion", "additional-properties"), ("/protocol_version", "required")]);
//! assert!(schema::is_valid(SchemaKind::Metadata, &json!({"protocol_version": "1.0.0", "schema_version": "1.0.0"})));
//! ```
//!
//! # Spec notes
//! - Rule ids are the JSON Schema keyword names in kebab case (`required`,
//!   `additional-properties`, `min-length`, ...), as [`Rule`] defines them.
//!   `const` is reported as `enum` (a one-value enum), the rule the typed
//!   SDK reports for the same mistake. An `anyOf` whose branches all fail on
//!   the type alone (the base event's `data`: object or null) is reported
//!   as `type`.
//! - `required` and `additional-properties` point at the missing or extra
//!   member (`/meta/protocolVersion`), not at the object that holds it.
//! - Draft 7 does not define the `uuid` format; it is asserted here as RFC
//!   9562 defines its text form (`8-4-4-4-12` hex digits, any version and
//!   either case). The typed SDK is stricter (lowercase version 4 only).

use std::sync::OnceLock;

use jsonschema::error::ValidationErrorKind;
use jsonschema::{Draft, Registry, ValidationError, Validator};
use serde_json::Value;

use crate::{Pointer, Report, Rule, Violation};

/// Declares the schema kinds once: each row gives the variant, its short
/// name, and where its schema lives: its own file (which then is one of
/// [`FILES`], embedded), or the file of an earlier kind, and optionally a
/// fragment inside the file. The macro writes [`FILES`], [`SchemaKind`],
/// `ALL`, `name`, `file` and `fragment` from the rows.
macro_rules! schema_kinds {
    (
        $(
            $(#[$meta:meta])*
            $V:ident = $name:literal, $( file $file:literal )? $( in $of:ident )? $( # $fragment:literal )?;
        )+
    ) => {
        /// The embedded schema files: path below `schemas/` and text.
        ///
        /// ```
        /// assert_eq!(mplp_core::schema::FILES.len(), 29);
        /// assert!(mplp_core::schema::FILES.iter().any(|(path, _)| *path == "common/metadata.schema.json"));
        /// ```
        pub const FILES: [(&str, &str); [$($($file,)?)+].len()] = [
            $($( ($file, include_str!(concat!("../schemas/", $file))), )?)+
        ];

        /// What to validate against: a whole schema file, or one definition inside one.
        ///
        /// ```
        /// use mplp_core::schema::SchemaKind;
        /// assert_eq!(SchemaKind::Plan.file(), "mplp-plan.schema.json");
        /// assert_eq!(SchemaKind::from_name("map-event"), Some(SchemaKind::MapEvent));
        /// assert_eq!(SchemaKind::Ref.fragment(), "#/definitions/Ref");
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum SchemaKind {
            $(
                $( #[doc = concat!("`", $file, "`")] )?
                $( #[doc = concat!("In the file of [`SchemaKind::", stringify!($of), "`]")] )?
                $( #[doc = concat!("at `", $fragment, "`")] )?
                #[doc = ""]
                $(#[$meta])*
                $V,
            )+
        }

        impl SchemaKind {
            /// Every kind.
            pub const ALL: [SchemaKind; [$(stringify!($V)),+].len()] = [$(SchemaKind::$V),+];

            /// A short name (`plan`, `map-event`, `event-core`, ...); the document
            /// kinds use the names of the CLI.
            pub const fn name(self) -> &'static str {
                match self {
                    $( SchemaKind::$V => $name, )+
                }
            }

            /// The schema file, as a path below `schemas/` (one of [`FILES`]).
            pub const fn file(self) -> &'static str {
                match self {
                    $( SchemaKind::$V => $($file)? $(SchemaKind::$of.file())?, )+
                }
            }

            /// The URI fragment of the schema inside its file (`""` for the whole file).
            pub const fn fragment(self) -> &'static str {
                match self {
                    $( SchemaKind::$V => concat!("" $(, $fragment)?), )+
                }
            }
        }
    };
}

schema_kinds! {
    Plan = "plan", file "mplp-plan.schema.json";
    Dialog = "dialog", file "mplp-dialog.schema.json";
    Collab = "collab", file "mplp-collab.schema.json";
    Context = "context", file "mplp-context.schema.json";
    Confirm = "confirm", file "mplp-confirm.schema.json";
    Trace = "trace", file "mplp-trace.schema.json";
    Role = "role", file "mplp-role.schema.json";
    Extension = "extension", file "mplp-extension.schema.json";
    Network = "network", file "mplp-network.schema.json";
    /// The Core module's manifest, not this crate.
    Core = "core", file "mplp-core.schema.json";
    /// The `meta` block.
    Metadata = "metadata", file "common/metadata.schema.json";
    /// A lowercase UUID v4.
    Identifier = "identifier", file "common/identifiers.schema.json";
    /// The base module event.
    BaseEvent = "base-event", file "common/events.schema.json";
    TraceBase = "trace-base", file "common/trace-base.schema.json";
    Ref = "ref", file "common/common-types.schema.json" # "#/definitions/Ref";
    /// The `governance` block (Collab's is the same).
    Governance = "governance", in Dialog # "#/properties/governance";
    MapEvent = "map-event", file "events/mplp-map-event.schema.json";
    SaEvent = "sa-event", file "events/mplp-sa-event.schema.json";
    CoreEvent = "event-core", file "events/mplp-event-core.schema.json";
    RuntimeExecutionEvent = "runtime-execution-event", file "events/mplp-runtime-execution-event.schema.json";
    GraphUpdateEvent = "graph-update-event", file "events/mplp-graph-update-event.schema.json";
    PipelineStageEvent = "pipeline-stage-event", file "events/mplp-pipeline-stage-event.schema.json";
    LearningSampleCore = "learning-sample-core", file "learning/mplp-learning-sample-core.schema.json";
    /// Family `intent_resolution`.
    LearningSampleIntent = "learning-sample-intent", file "learning/mplp-learning-sample-intent.schema.json";
    /// Family `delta_impact`.
    LearningSampleDelta = "learning-sample-delta", file "learning/mplp-learning-sample-delta.schema.json";
    /// The structured learning sample.
    CommonLearningSample = "common-learning-sample", file "common/learning-sample.schema.json";
    ToolEvent = "tool-event", file "integration/mplp-tool-event.schema.json";
    FileUpdateEvent = "file-update-event", file "integration/mplp-file-update-event.schema.json";
    GitEvent = "git-event", file "integration/mplp-git-event.schema.json";
    CiEvent = "ci-event", file "integration/mplp-ci-event.schema.json";
}

/// A value of a discriminating member that selects a schema of its own
/// (`event_family: graph_update` selects [`SchemaKind::GraphUpdateEvent`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FamilySchema {
    /// The discriminating member (`event_family`).
    pub member: &'static str,
    /// Its value (`graph_update`).
    pub value: &'static str,
    /// The schema that validates values of this family.
    pub schema: SchemaKind,
}

const fn family(member: &'static str, value: &'static str, schema: SchemaKind) -> FamilySchema {
    FamilySchema {
        member,
        value,
        schema,
    }
}

/// The schema `families` picks for `value` by its discriminating member,
/// or `default`.
fn pick(value: &Value, families: &[FamilySchema], default: SchemaKind) -> SchemaKind {
    families
        .iter()
        .find(|f| value.get(f.member).and_then(Value::as_str) == Some(f.value))
        .map_or(default, |f| f.schema)
}

impl SchemaKind {
    /// The observability event families with a schema of their own
    /// ([`SchemaKind::event_for`] picks it; every other family uses
    /// [`SchemaKind::CoreEvent`]).
    pub const EVENT_FAMILIES: &'static [FamilySchema] = &[
        family("event_family", "graph_update", SchemaKind::GraphUpdateEvent),
        family(
            "event_family",
            "runtime_execution",
            SchemaKind::RuntimeExecutionEvent,
        ),
        family(
            "event_family",
            "pipeline_stage",
            SchemaKind::PipelineStageEvent,
        ),
    ];

    /// The learning sample families with a schema of their own
    /// ([`SchemaKind::learning_sample_for`] picks it; every other family uses
    /// [`SchemaKind::LearningSampleCore`]).
    pub const SAMPLE_FAMILIES: &'static [FamilySchema] = &[
        family(
            "sample_family",
            "intent_resolution",
            SchemaKind::LearningSampleIntent,
        ),
        family(
            "sample_family",
            "delta_impact",
            SchemaKind::LearningSampleDelta,
        ),
    ];

    /// The kind with this [`name`](SchemaKind::name).
    pub fn from_name(name: &str) -> Option<Self> {
        SchemaKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The schema of an observability event (the CLI's `event` kind), picked
    /// by its `event_family`: `runtime_execution`, `graph_update` and
    /// `pipeline_stage` have their own schemas, every other value (or none)
    /// uses the core event schema.
    ///
    /// ```
    /// use mplp_core::schema::SchemaKind;
    /// let e = serde_json::json!({"event_family": "graph_update"});
    /// assert_eq!(SchemaKind::event_for(&e), SchemaKind::GraphUpdateEvent);
    /// assert_eq!(SchemaKind::event_for(&serde_json::json!({})), SchemaKind::CoreEvent);
    /// ```
    pub fn event_for(value: &Value) -> Self {
        pick(value, SchemaKind::EVENT_FAMILIES, SchemaKind::CoreEvent)
    }

    /// The schema of a learning sample (the CLI's `learning-sample` kind),
    /// picked by its `sample_family`: `intent_resolution` and `delta_impact`
    /// have their own schemas, every other value (or none) uses the core one.
    ///
    /// ```
    /// use mplp_core::schema::SchemaKind;
    /// let s = serde_json::json!({"sample_family": "delta_impact"});
    /// assert_eq!(SchemaKind::learning_sample_for(&s), SchemaKind::LearningSampleDelta);
    /// assert_eq!(SchemaKind::learning_sample_for(&serde_json::json!({})), SchemaKind::LearningSampleCore);
    /// ```
    pub fn learning_sample_for(value: &Value) -> Self {
        pick(
            value,
            SchemaKind::SAMPLE_FAMILIES,
            SchemaKind::LearningSampleCore,
        )
    }

    fn index(self) -> usize {
        SchemaKind::ALL
            .iter()
            .position(|k| *k == self)
            .unwrap_or_default()
    }
}

/// The parsed text of an embedded schema file (`path` as in [`FILES`]).
///
/// ```
/// let plan = mplp_core::schema::parsed("mplp-plan.schema.json").unwrap();
/// assert_eq!(plan["type"], "object");
/// ```
pub fn parsed(path: &str) -> Option<&'static Value> {
    let index = FILES.iter().position(|(p, _)| *p == path)?;
    parsed_files().get(index)?.as_ref()
}

fn parsed_files() -> &'static [Option<Value>] {
    static PARSED: OnceLock<Vec<Option<Value>>> = OnceLock::new();
    PARSED.get_or_init(|| {
        FILES
            .iter()
            .map(|(_, text)| serde_json::from_str(text).ok())
            .collect()
    })
}

/// True when `value` is valid against the schema of `kind` (faster than
/// [`validate`]: stops at the first error and builds no report).
pub fn is_valid(kind: SchemaKind, value: &Value) -> bool {
    match validators() {
        Ok(v) => v
            .get(kind.index())
            .is_some_and(|validator| validator.is_valid(value)),
        Err(_) => false,
    }
}

/// Validates `value` against the schema of `kind`, reporting every error
/// with an RFC 6901 pointer and a kebab-case rule id (see the module docs).
///
/// ```
/// use mplp_core::schema::{validate, SchemaKind};
/// let step_status = serde_json::json!({"event_id": "not-a-uuid"});
/// let report = validate(SchemaKind::BaseEvent, &step_status);
/// assert!(report.errors().any(|v| v.pointer == "/event_id" && v.rule.as_str() == "pattern"));
/// assert!(report.errors().any(|v| v.pointer == "/timestamp" && v.rule.as_str() == "required"));
/// ```
pub fn validate(kind: SchemaKind, value: &Value) -> Report {
    let mut report = Report::new();
    let validator = match validators() {
        Ok(v) => v.get(kind.index()),
        Err(message) => {
            report.error("", Rule::new("schema"), message.clone());
            return report;
        }
    };
    let Some(validator) = validator else {
        report.error("", Rule::new("schema"), "no validator for this kind");
        return report;
    };
    for error in validator.iter_errors(value) {
        push_error(&error, &mut report);
    }
    report
}

fn push_error(error: &ValidationError<'_>, report: &mut Report) {
    let at = error.instance_path().as_str();
    let message = error.to_string();
    match error.kind() {
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            report.push(Violation::error(
                pointer_below(at, name),
                Rule::REQUIRED,
                format!("missing required member `{name}`"),
            ));
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            for name in unexpected {
                report.push(Violation::error(
                    pointer_below(at, name),
                    Rule::ADDITIONAL_PROPERTIES,
                    format!("member `{name}` is not allowed here"),
                ));
            }
        }
        // The one `anyOf` of the schemas is a union of types (an event's
        // `data`: an object or null), so failing it is a type error
        // (`every_any_of_is_a_union_of_types` checks the premise).
        ValidationErrorKind::AnyOf { .. } => report.error(at, Rule::TYPE, message),
        kind => report.error(at, rule_of(kind.keyword()), message),
    }
}

/// The rule id of a JSON Schema keyword that the embedded schemas use (its
/// name in kebab case; `const` counts as `enum`); `schema` for any other
/// (`every_keyword_of_the_schemas_has_its_rule` checks that there is none).
/// `required` and `additionalProperties` are reported by [`push_error`]
/// itself, member by member.
fn rule_of(keyword: &str) -> Rule {
    match keyword {
        "enum" | "const" => Rule::ENUM,
        "pattern" => Rule::PATTERN,
        "format" => Rule::FORMAT,
        "minLength" => Rule::MIN_LENGTH,
        "minItems" => Rule::MIN_ITEMS,
        "uniqueItems" => Rule::UNIQUE_ITEMS,
        "type" => Rule::TYPE,
        "minimum" => Rule::MINIMUM,
        "maximum" => Rule::MAXIMUM,
        _ => Rule::new("schema"),
    }
}

fn pointer_below(at: &str, name: &str) -> String {
    let mut p = Pointer::root();
    // `at` is already an escaped pointer; only the new member needs escaping.
    p = p.key(name);
    format!("{at}{p}")
}

type Validators = Result<Vec<Validator>, String>;

fn validators() -> &'static Validators {
    static VALIDATORS: OnceLock<Validators> = OnceLock::new();
    VALIDATORS.get_or_init(compile)
}

fn compile() -> Validators {
    let mut resources = Vec::with_capacity(FILES.len());
    for (path, parsed) in FILES.iter().zip(parsed_files()) {
        let Some(schema) = parsed else {
            return Err(format!("embedded schema {} is not JSON", path.0));
        };
        let Some(id) = schema.get("$id").and_then(Value::as_str) else {
            return Err(format!("embedded schema {} has no $id", path.0));
        };
        resources.push((id.to_owned(), schema));
    }
    let registry = Registry::new()
        .draft(Draft::Draft7)
        .extend(resources.iter().map(|(id, schema)| (id.as_str(), *schema)))
        .and_then(|b| b.prepare())
        .map_err(|e| format!("cannot register the embedded schemas: {e}"))?;
    SchemaKind::ALL
        .iter()
        .map(|kind| {
            let id = resources
                .iter()
                .zip(FILES.iter())
                .find(|(_, (path, _))| *path == kind.file())
                .map(|((id, _), _)| id.as_str())
                .unwrap_or_default();
            let root = serde_json::json!({
                "$schema": "http://json-schema.org/draft-07/schema#",
                "$ref": format!("{id}{}", kind.fragment()),
            });
            jsonschema::options()
                .with_draft(Draft::Draft7)
                .with_registry(&registry)
                .should_validate_formats(true)
                .should_ignore_unknown_formats(false)
                .with_format("uuid", is_uuid)
                .build(&root)
                .map_err(|e| format!("cannot compile the {} schema: {e}", kind.name()))
        })
        .collect()
}

/// The `uuid` format: the RFC 9562 text form, `8-4-4-4-12` hexadecimal
/// digits in either case, any version or variant.
///
/// ```
/// use mplp_core::schema::is_uuid;
/// assert!(is_uuid("550e8400-e29b-41d4-a716-446655440000"));
/// assert!(is_uuid("550E8400-E29B-11D4-A716-446655440000")); // upper case, version 1
/// assert!(!is_uuid("550e8400e29b41d4a716446655440000"));
/// assert!(!is_uuid("sess-1"));
/// ```
pub fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_uuid_is_36_characters_with_hyphens_in_place() {
        let good = "550e8400-e29b-41d4-a716-446655440000";
        assert!(is_uuid(good) && is_uuid(&good.to_uppercase()));
        for bad in [
            "550e8400",
            "550e8400-e29b-41d4-a716-4466554400001",
            "550e8400-e29b-41d4-a716-44665544000",
            "550e8400-e29b-41d4-a716_446655440000",
            "550e8400-e29b-41d4-a716-44665544000g",
            "",
        ] {
            assert!(!is_uuid(bad), "{bad}");
        }
    }

    #[test]
    fn every_kind_compiles_offline() {
        let validators = validators().as_ref().unwrap();
        assert_eq!(validators.len(), SchemaKind::ALL.len());
        for kind in SchemaKind::ALL {
            assert_eq!(SchemaKind::from_name(kind.name()), Some(kind));
            assert!(parsed(kind.file()).is_some(), "{}", kind.file());
        }
    }

    #[test]
    fn refs_across_files_resolve() {
        // Plan -> metadata (another file); Governance -> common-types#/definitions/Ref.
        let gov = json!({"lastConfirmRef": {"id": "x", "module": "nope"}});
        let report = validate(SchemaKind::Governance, &gov);
        let mut found: Vec<_> = report
            .errors()
            .map(|v| (v.pointer.clone(), v.rule.as_str()))
            .collect();
        found.sort();
        assert_eq!(
            found,
            [
                ("/lastConfirmRef/id".to_owned(), "pattern"),
                ("/lastConfirmRef/module".to_owned(), "enum")
            ]
        );
    }

    #[test]
    fn formats_are_asserted() {
        let base = json!({
            "event_id": "550e8400-e29b-41d4-a716-446655440000",
            "event_type": "x",
            "event_family": "intent",
            "timestamp": "2025-12-07T00:00:05Z",
        });
        assert!(is_valid(SchemaKind::CoreEvent, &base));
        let mut bad = base.clone();
        bad["timestamp"] = json!("yesterday");
        bad["event_id"] = json!("sess-1");
        let mut found: Vec<_> = validate(SchemaKind::CoreEvent, &bad)
            .errors()
            .map(|v| (v.pointer.clone(), v.rule.as_str()))
            .collect();
        found.sort();
        assert_eq!(
            found,
            [
                ("/event_id".to_owned(), "format"),
                ("/timestamp".to_owned(), "format")
            ]
        );
        // The uuid format accepts any version and case (the SDK types are stricter).
        let mut upper = base;
        upper["event_id"] = json!("550E8400-E29B-11D4-A716-446655440000");
        assert!(is_valid(SchemaKind::CoreEvent, &upper));
    }

    #[test]
    fn const_is_enum_and_nullable_data_is_type() {
        let e = json!({
            "event_id": "550e8400-e29b-41d4-a716-446655440000",
            "event_type": "x",
            "event_family": "intent",
            "timestamp": "2025-12-07T00:00:05Z",
            "graph_id": "550e8400-e29b-41d4-a716-446655440000",
            "update_kind": "bulk", "node_delta": 1, "edge_delta": 0
        });
        let report = validate(SchemaKind::GraphUpdateEvent, &e);
        let found: Vec<_> = report
            .errors()
            .map(|v| (v.pointer.as_str(), v.rule.as_str()))
            .collect();
        assert_eq!(found, [("/event_family", "enum")]);

        let ev = json!({
            "event_id": "550e8400-e29b-41d4-a716-446655440000",
            "event_type": "plan.created", "source": "plan",
            "timestamp": "2025-12-07T00:00:05Z", "data": "text"
        });
        let report = validate(SchemaKind::BaseEvent, &ev);
        let found: Vec<_> = report
            .errors()
            .map(|v| (v.pointer.as_str(), v.rule.as_str()))
            .collect();
        assert_eq!(found, [("/data", "type")]);
    }

    /// Every `anyOf` in the embedded schemas lists branches that say only
    /// which type the value has (`push_error` reports a failed `anyOf` as a
    /// `type` error on this premise).
    #[test]
    fn every_any_of_is_a_union_of_types() {
        fn walk(v: &Value, found: &mut usize) {
            match v {
                Value::Object(map) => {
                    if let Some(branches) = map.get("anyOf") {
                        *found += 1;
                        for branch in branches.as_array().unwrap() {
                            let keys: Vec<&str> = branch
                                .as_object()
                                .unwrap()
                                .keys()
                                .map(String::as_str)
                                .collect();
                            assert!(
                                keys.iter().all(|k| matches!(*k, "type" | "description")),
                                "an anyOf branch with {keys:?}"
                            );
                        }
                    }
                    map.values().for_each(|v| walk(v, found));
                }
                Value::Array(items) => items.iter().for_each(|v| walk(v, found)),
                _ => {}
            }
        }
        let mut found = 0;
        for (_, text) in FILES {
            walk(&serde_json::from_str(text).unwrap(), &mut found);
        }
        assert_eq!(found, 1);
    }

    /// The keywords of the embedded schemas: those that judge a value are
    /// the ones `rule_of` names (or `push_error` reports itself).
    #[test]
    fn every_keyword_of_the_schemas_has_its_rule() {
        fn walk(schema: &Value, found: &mut std::collections::BTreeSet<String>) {
            let Some(map) = schema.as_object() else {
                return;
            };
            for (key, value) in map {
                found.insert(key.clone());
                match key.as_str() {
                    "properties" | "definitions" | "$defs" => {
                        for sub in value.as_object().unwrap().values() {
                            walk(sub, found);
                        }
                    }
                    "allOf" | "anyOf" => value
                        .as_array()
                        .unwrap()
                        .iter()
                        .for_each(|v| walk(v, found)),
                    "items" | "additionalProperties" | "then" | "if" | "else" | "not" => {
                        walk(value, found)
                    }
                    _ => {}
                }
            }
        }
        let mut found = std::collections::BTreeSet::new();
        for (_, text) in FILES {
            walk(&serde_json::from_str(text).unwrap(), &mut found);
        }
        let annotations = [
            "$comment",
            "$defs",
            "$id",
            "$ref",
            "$schema",
            "definitions",
            "description",
            "examples",
            "properties",
            "title",
        ];
        let judged: Vec<&str> = found
            .iter()
            .map(String::as_str)
            .filter(|k| !annotations.contains(k) && !k.starts_with("x-"))
            .collect();
        assert_eq!(
            judged,
            [
                "additionalProperties",
                "allOf",
                "anyOf",
                "const",
                "enum",
                "format",
                "items",
                "maximum",
                "minItems",
                "minLength",
                "minimum",
                "pattern",
                "required",
                "type",
                "uniqueItems"
            ]
        );
        for keyword in judged {
            let named = rule_of(keyword).as_str() != "schema";
            // allOf, anyOf, items: their errors are those of their branches
            // (anyOf: a type error); required, additionalProperties: member by member.
            let structural = [
                "additionalProperties",
                "allOf",
                "anyOf",
                "items",
                "required",
            ];
            assert!(
                named || structural.contains(&keyword),
                "{keyword} has no rule"
            );
        }
    }

    /// Each keyword's rule, on documents that break it.
    #[test]
    fn keywords_are_reported_under_their_kebab_case_names() {
        let read = |name: &str| -> Value {
            let path = format!(
                "{}/schemas/examples/valid/{name}",
                env!("CARGO_MANIFEST_DIR")
            );
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
        };
        let found = |kind, v: &Value| -> Vec<(String, String)> {
            validate(kind, v)
                .errors()
                .map(|v| (v.pointer.clone(), v.rule.as_str().to_owned()))
                .collect()
        };
        let pairs = |p: &[(&str, &str)]| -> Vec<(String, String)> {
            p.iter()
                .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
                .collect()
        };
        let mut plan = read("plan-minimal.json");
        assert_eq!(found(SchemaKind::Plan, &plan), []);
        plan["title"] = json!("");
        plan["steps"] = json!([]);
        plan["status"] = json!("paused");
        plan["meta"]["tags"] = json!(["x", "x"]);
        plan["meta"]["protocol_version"] = json!(1);
        plan["context_id"] = json!("ctx-123");
        let mut got = found(SchemaKind::Plan, &plan);
        got.sort();
        assert_eq!(
            got,
            pairs(&[
                ("/context_id", "pattern"),
                ("/meta/protocol_version", "type"),
                ("/meta/tags", "unique-items"),
                ("/status", "enum"),
                ("/steps", "min-items"),
                ("/title", "min-length"),
            ])
        );
        // The published invalid examples of the other keywords: each breaks
        // only its rule, where its sidecar says.
        for (kind, name) in [
            (
                SchemaKind::CommonLearningSample,
                "common-learning-sample--maximum--rating-six",
            ),
            (
                SchemaKind::CommonLearningSample,
                "common-learning-sample--minimum--negative-tokens",
            ),
            (SchemaKind::Plan, "plan--format--event-timestamp-no-offset"),
        ] {
            let dir = format!("{}/schemas/examples/invalid", env!("CARGO_MANIFEST_DIR"));
            let text = |file: String| std::fs::read_to_string(format!("{dir}/{file}")).unwrap();
            let doc: Value = serde_json::from_str(&text(format!("{name}.json"))).unwrap();
            let expect: Value = serde_json::from_str(&text(format!("{name}.expect.json"))).unwrap();
            let want = (
                expect["pointer"].as_str().unwrap(),
                expect["rule"].as_str().unwrap(),
            );
            assert_eq!(found(kind, &doc), pairs(&[want]), "{name}");
        }
    }

    /// The kind table, written out: every kind's name and file, in order;
    /// [`FILES`] holds each file once, in the order of the kinds.
    #[test]
    fn the_kind_table_gives_each_kind_its_name_and_file() {
        let table = [
            (SchemaKind::Plan, "plan", "mplp-plan.schema.json"),
            (SchemaKind::Dialog, "dialog", "mplp-dialog.schema.json"),
            (SchemaKind::Collab, "collab", "mplp-collab.schema.json"),
            (SchemaKind::Context, "context", "mplp-context.schema.json"),
            (SchemaKind::Confirm, "confirm", "mplp-confirm.schema.json"),
            (SchemaKind::Trace, "trace", "mplp-trace.schema.json"),
            (SchemaKind::Role, "role", "mplp-role.schema.json"),
            (
                SchemaKind::Extension,
                "extension",
                "mplp-extension.schema.json",
            ),
            (SchemaKind::Network, "network", "mplp-network.schema.json"),
            (SchemaKind::Core, "core", "mplp-core.schema.json"),
            (
                SchemaKind::Metadata,
                "metadata",
                "common/metadata.schema.json",
            ),
            (
                SchemaKind::Identifier,
                "identifier",
                "common/identifiers.schema.json",
            ),
            (
                SchemaKind::BaseEvent,
                "base-event",
                "common/events.schema.json",
            ),
            (
                SchemaKind::TraceBase,
                "trace-base",
                "common/trace-base.schema.json",
            ),
            (SchemaKind::Ref, "ref", "common/common-types.schema.json"),
            (
                SchemaKind::Governance,
                "governance",
                "mplp-dialog.schema.json",
            ),
            (
                SchemaKind::MapEvent,
                "map-event",
                "events/mplp-map-event.schema.json",
            ),
            (
                SchemaKind::SaEvent,
                "sa-event",
                "events/mplp-sa-event.schema.json",
            ),
            (
                SchemaKind::CoreEvent,
                "event-core",
                "events/mplp-event-core.schema.json",
            ),
            (
                SchemaKind::RuntimeExecutionEvent,
                "runtime-execution-event",
                "events/mplp-runtime-execution-event.schema.json",
            ),
            (
                SchemaKind::GraphUpdateEvent,
                "graph-update-event",
                "events/mplp-graph-update-event.schema.json",
            ),
            (
                SchemaKind::PipelineStageEvent,
                "pipeline-stage-event",
                "events/mplp-pipeline-stage-event.schema.json",
            ),
            (
                SchemaKind::LearningSampleCore,
                "learning-sample-core",
                "learning/mplp-learning-sample-core.schema.json",
            ),
            (
                SchemaKind::LearningSampleIntent,
                "learning-sample-intent",
                "learning/mplp-learning-sample-intent.schema.json",
            ),
            (
                SchemaKind::LearningSampleDelta,
                "learning-sample-delta",
                "learning/mplp-learning-sample-delta.schema.json",
            ),
            (
                SchemaKind::CommonLearningSample,
                "common-learning-sample",
                "common/learning-sample.schema.json",
            ),
            (
                SchemaKind::ToolEvent,
                "tool-event",
                "integration/mplp-tool-event.schema.json",
            ),
            (
                SchemaKind::FileUpdateEvent,
                "file-update-event",
                "integration/mplp-file-update-event.schema.json",
            ),
            (
                SchemaKind::GitEvent,
                "git-event",
                "integration/mplp-git-event.schema.json",
            ),
            (
                SchemaKind::CiEvent,
                "ci-event",
                "integration/mplp-ci-event.schema.json",
            ),
        ];
        let got: Vec<_> = SchemaKind::ALL
            .iter()
            .map(|k| (*k, k.name(), k.file()))
            .collect();
        assert_eq!(got, table);
        let mut files: Vec<&str> = Vec::new();
        for (_, _, file) in table {
            if !files.contains(&file) {
                files.push(file);
            }
        }
        let embedded: Vec<&str> = FILES.iter().map(|(path, _)| *path).collect();
        assert_eq!(embedded, files);
        let with_fragment: Vec<_> = SchemaKind::ALL
            .iter()
            .filter(|k| !k.fragment().is_empty())
            .map(|k| (*k, k.fragment()))
            .collect();
        assert_eq!(
            with_fragment,
            [
                (SchemaKind::Ref, "#/definitions/Ref"),
                (SchemaKind::Governance, "#/properties/governance")
            ]
        );
    }

    #[test]
    fn kinds_pick_their_schema_and_fragment() {
        assert_eq!(SchemaKind::Ref.fragment(), "#/definitions/Ref");
        assert_eq!(SchemaKind::Governance.fragment(), "#/properties/governance");
        assert_eq!(SchemaKind::BaseEvent.fragment(), "");
        for (family, kind) in [
            ("runtime_execution", SchemaKind::RuntimeExecutionEvent),
            ("graph_update", SchemaKind::GraphUpdateEvent),
            ("pipeline_stage", SchemaKind::PipelineStageEvent),
            ("intent", SchemaKind::CoreEvent),
        ] {
            assert_eq!(
                SchemaKind::event_for(&json!({"event_family": family})),
                kind
            );
        }
        assert_eq!(SchemaKind::event_for(&json!({})), SchemaKind::CoreEvent);
        for (family, kind) in [
            ("intent_resolution", SchemaKind::LearningSampleIntent),
            ("delta_impact", SchemaKind::LearningSampleDelta),
            ("other", SchemaKind::LearningSampleCore),
        ] {
            assert_eq!(
                SchemaKind::learning_sample_for(&json!({"sample_family": family})),
                kind
            );
        }
        // `is_valid` agrees with `validate`.
        let good = json!({
            "event_id": "550e8400-e29b-41d4-a716-446655440000",
            "event_type": "plan.created", "source": "plan",
            "timestamp": "2025-12-07T00:00:05Z"
        });
        assert!(is_valid(SchemaKind::BaseEvent, &good));
        assert!(validate(SchemaKind::BaseEvent, &good).is_empty());
        let bad = json!({"event_id": "not-a-uuid"});
        assert!(!is_valid(SchemaKind::BaseEvent, &bad));
        assert!(!validate(SchemaKind::BaseEvent, &bad).is_valid());
    }

    #[test]
    fn member_pointers_are_escaped() {
        let meta = json!({"protocol_version": "1.0.0", "schema_version": "1.0.0", "a/b~c": 1, "tags": ["x", "x"]});
        let report = validate(SchemaKind::Metadata, &meta);
        let mut found: Vec<_> = report
            .errors()
            .map(|v| (v.pointer.as_str(), v.rule.as_str()))
            .collect();
        found.sort();
        assert_eq!(
            found,
            [
                ("/a~1b~0c", "additional-properties"),
                ("/tags", "unique-items")
            ]
        );
    }

    #[test]
    fn every_embedded_file_is_draft_07_with_an_id() {
        for (path, _) in FILES {
            let s = parsed(path).unwrap();
            assert_eq!(
                s["$schema"], "http://json-schema.org/draft-07/schema#",
                "{path}"
            );
            // The published integration schemas' `$id`s end in `.json`, not
            // `.schema.json` (kept as published: `$id` is the schema's name).
            let id = s["$id"].as_str().unwrap();
            assert!(
                id.ends_with(path) || id.ends_with(&path.replace(".schema.json", ".json")),
                "{path}"
            );
        }
    }
}

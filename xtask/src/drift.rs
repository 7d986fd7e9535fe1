//! Drift between the Rust types (schemars) and `schemas/`, and between
//! `schemas/` and an upstream copy of the canonical schemas.

use std::collections::BTreeMap;
use std::path::Path;

use mplp_core::schema::{FILES, SchemaKind};
use serde_json::Value;

use crate::diff::{Drift, compare};
use crate::kinds::Kind;
use crate::normalize::SchemaSet;

/// The schema files of one tree, ready for normalisation.
#[derive(Clone, Debug, Default)]
pub(crate) struct Schemas {
    set: SchemaSet,
    /// Path below the tree (`common/metadata.schema.json`) to the file's URI.
    uris: BTreeMap<String, String>,
}

impl Schemas {
    /// Loads the files (the paths of [`FILES`]) from `dir`.
    pub(crate) fn load(dir: &Path) -> Result<Self, String> {
        let mut files = Vec::new();
        for (path, _) in FILES {
            let full = dir.join(path);
            let text = std::fs::read_to_string(&full)
                .map_err(|e| format!("cannot read {}: {e}", full.display()))?;
            let doc: Value = serde_json::from_str(&text)
                .map_err(|e| format!("{} is not JSON: {e}", full.display()))?;
            files.push((path.to_owned(), doc));
        }
        Ok(Schemas::from_docs(files))
    }

    /// The schemas from parsed documents (path, document).
    pub(crate) fn from_docs(files: Vec<(String, Value)>) -> Self {
        let mut schemas = Schemas::default();
        for (path, doc) in files {
            let uri = schemas
                .set
                .add_with_id(&format!("file:///schemas/{path}"), doc);
            schemas.uris.insert(path, uri);
        }
        schemas
    }

    /// The normal form of the schema of `kind`.
    pub(crate) fn normalized(&self, kind: SchemaKind) -> Result<Value, String> {
        self.normalized_file(kind.file(), kind.fragment())
    }

    fn normalized_file(&self, path: &str, fragment: &str) -> Result<Value, String> {
        let uri = self
            .uris
            .get(path)
            .ok_or_else(|| format!("no schema file {path}"))?;
        self.set.normalized(&format!("{uri}{fragment}"))
    }
}

/// A drift that is expected, with the reason. Matched on the kind name, the
/// path and a part of the difference's text.
pub(crate) struct Accepted {
    kind: &'static str,
    path: &'static str,
    contains: &'static str,
    reason: &'static str,
}

/// Every accepted difference between a Rust type and its schema. Keep this
/// list short, and give each entry its reason (mirrored in
/// docs/spec-notes.md ("xtask")).
pub(crate) const ACCEPTED_DRIFT: &[Accepted] = &[Accepted {
    kind: "-",
    path: "-",
    contains: "-",
    reason: "placeholder that matches nothing (the list is empty so far)",
}];

fn accepted(kind: &str, drift: &Drift) -> Option<&'static Accepted> {
    ACCEPTED_DRIFT
        .iter()
        .find(|a| a.kind == kind && a.path == drift.path && drift.what.contains(a.contains))
}

/// The outcome of comparing one type (or one variant of it) with one schema.
pub(crate) struct TypeDrift {
    /// What was compared: the kind's name, with the variant for kinds that
    /// have variants (`event[graph_update]`).
    pub(crate) label: String,
    /// The schema file compared with.
    pub(crate) file: &'static str,
    /// Differences that make the check fail.
    pub(crate) drift: Vec<Drift>,
    /// Differences on the accepted list, with their reason.
    pub(crate) accepted: Vec<(Drift, &'static str)>,
}

/// Normalisations applied to the Rust side only, each with its reason
/// (mirrored in docs/spec-notes.md ("xtask")). Printed by `schema-check`.
pub(crate) const RUST_SIDE_NORMALISATIONS: &[(&str, &str)] = &[(
    "variant-conditionals",
    "mplp_events::CoreEvent reads the families with a schema of their own \
     (graph_update, runtime_execution, pipeline_stage) with typed members, and its \
     JsonSchema says so with one `if {event_family: const F} then {...}` per family \
     in a top-level allOf. The canonical schemas spell this as one file per family \
     (allOf of the core schema and the family's members), so the type is compared \
     once per file: with the core schema without the conditionals of those \
     families, and with each family's schema with that family's `then` merged into \
     the envelope (see `specialise`). A conditional on any other value is kept, \
     so it shows as drift. mplp_events::learning::LearningSample does the same with \
     `sample_family` (intent_resolution and delta_impact have schemas of their own, \
     allOf of the core learning sample schema and the family's sections).",
)];

/// Compares the schemars schema of `kind`'s type with `ours`: once, or for
/// a kind with variants once for its base schema and once per variant.
pub(crate) fn type_drift(ours: &Schemas, kind: &Kind) -> Result<Option<Vec<TypeDrift>>, String> {
    let Some(rust_schema) = kind.rust_schema else {
        return Ok(None);
    };
    let root = rust_schema();
    let values: Vec<&str> = kind.variants.iter().map(|v| v.value).collect();
    let mut out = Vec::new();
    let base = specialise(
        root.clone(),
        kind.variants.first().map(|v| v.member),
        &values,
        None,
    );
    out.push(compare_one(
        ours,
        kind,
        kind.name.to_owned(),
        kind.schema,
        base,
    )?);
    for v in kind.variants {
        let rust = specialise(root.clone(), Some(v.member), &values, Some(v.value));
        let label = format!("{}[{}]", kind.name, v.value);
        out.push(compare_one(ours, kind, label, v.schema, rust)?);
    }
    Ok(Some(out))
}

fn compare_one(
    ours: &Schemas,
    kind: &Kind,
    label: String,
    schema_kind: SchemaKind,
    rust: Value,
) -> Result<TypeDrift, String> {
    let schema = ours.normalized(schema_kind)?;
    let rust = normalized_rust(rust)?;
    let subject = if kind.variants.is_empty() {
        kind.rust.to_owned()
    } else {
        format!("{} ({label})", kind.rust)
    };
    Ok(split(
        kind.name,
        label,
        schema_kind.file(),
        compare(&subject, "schema", &schema, "Rust", &rust),
    ))
}

/// The Rust schema of a kind with variants, for one of them (`value`) or
/// for the base schema (`None`): every top-level `allOf` branch of the form
/// `{"if": {"properties": {member: {"const": V}}, ...}, "then": T}` with `V`
/// one of the kind's variant `values` is replaced by `T` when `V` is the
/// variant compared, and dropped otherwise. Everything else is left as it is.
pub(crate) fn specialise(
    mut root: Value,
    member: Option<&str>,
    values: &[&str],
    value: Option<&str>,
) -> Value {
    let Some(member) = member else {
        return root;
    };
    let Some(obj) = root.as_object_mut() else {
        return root;
    };
    let Some(Value::Array(branches)) = obj.remove("allOf") else {
        return root;
    };
    let mut kept = Vec::new();
    for branch in branches {
        match conditional_on(&branch, member) {
            Some((v, then)) if values.contains(&v) => {
                if Some(v) == value {
                    kept.push(then.clone());
                }
            }
            _ => kept.push(branch),
        }
    }
    if !kept.is_empty() {
        obj.insert("allOf".to_owned(), Value::Array(kept));
    }
    root
}

/// `(V, T)` for a branch `{"if": {"properties": {member: {"const": V}}}, "then": T}`.
fn conditional_on<'a>(branch: &'a Value, member: &str) -> Option<(&'a str, &'a Value)> {
    let o = branch.as_object()?;
    if o.len() != 2 {
        return None;
    }
    let v = o
        .get("if")?
        .get("properties")?
        .get(member)?
        .get("const")?
        .as_str()?;
    Some((v, o.get("then")?))
}

/// The normal form of a schemars root schema.
pub(crate) fn normalized_rust(root: Value) -> Result<Value, String> {
    let mut set = SchemaSet::default();
    set.add("rust:root", root);
    set.normalized("rust:root")
}

fn split(kind: &str, label: String, file: &'static str, all: Vec<Drift>) -> TypeDrift {
    let mut out = TypeDrift {
        label,
        file,
        drift: Vec::new(),
        accepted: Vec::new(),
    };
    for d in all {
        match accepted(kind, &d) {
            Some(a) => out.accepted.push((d, a.reason)),
            None => out.drift.push(d),
        }
    }
    out
}

/// Compares every one of the files of `ours` with `upstream`, semantically.
pub(crate) fn upstream_drift(ours: &Schemas, upstream: &Schemas) -> Result<Vec<Drift>, String> {
    let mut out = Vec::new();
    for (path, _) in FILES {
        let a = ours.normalized_file(path, "")?;
        let b = upstream.normalized_file(path, "")?;
        out.extend(compare(path, "ours", &a, "upstream", &b));
        // The definitions are only reachable through `$ref`; compare them too,
        // so that a definition no file uses yet cannot drift unseen.
        for defs in ["definitions", "$defs"] {
            let names = |s: &Schemas| -> Vec<String> {
                s.set_doc(path)
                    .and_then(|d| d.get(defs))
                    .and_then(Value::as_object)
                    .map(|m| m.keys().cloned().collect())
                    .unwrap_or_default()
            };
            let (on, un) = (names(ours), names(upstream));
            for name in on.iter().filter(|n| !un.contains(n)) {
                out.push(Drift {
                    subject: path.to_owned(),
                    path: format!("{defs}/{name}"),
                    what: "definition only in ours".to_owned(),
                });
            }
            for name in un.iter().filter(|n| !on.contains(n)) {
                out.push(Drift {
                    subject: path.to_owned(),
                    path: format!("{defs}/{name}"),
                    what: "definition only in upstream".to_owned(),
                });
            }
            for name in on.iter().filter(|n| un.contains(n)) {
                let fragment = format!("#/{defs}/{name}");
                let a = ours.normalized_file(path, &fragment)?;
                let b = upstream.normalized_file(path, &fragment)?;
                for mut d in compare(path, "ours", &a, "upstream", &b) {
                    d.path = format!("{defs}/{name}{}", d.path);
                    out.push(d);
                }
            }
        }
    }
    Ok(out)
}

impl Schemas {
    fn set_doc(&self, path: &str) -> Option<&Value> {
        let uri = self.uris.get(path)?;
        self.set.doc(uri)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::KINDS;
    use serde_json::json;

    fn embedded() -> Vec<(String, Value)> {
        FILES
            .iter()
            .map(|(p, _)| {
                (
                    (*p).to_owned(),
                    mplp_core::schema::parsed(p).unwrap().clone(),
                )
            })
            .collect()
    }

    fn with(path: &str, change: impl Fn(&mut Value)) -> Schemas {
        let mut docs = embedded();
        for (p, d) in &mut docs {
            if p == path {
                change(d);
            }
        }
        Schemas::from_docs(docs)
    }

    fn kind(name: &str) -> &'static Kind {
        KINDS.iter().find(|k| k.name == name).unwrap()
    }

    fn drift_of(schemas: &Schemas, name: &str) -> Vec<String> {
        type_drift(schemas, kind(name))
            .unwrap()
            .unwrap()
            .iter()
            .flat_map(|t| t.drift.iter().map(ToString::to_string))
            .collect()
    }

    #[test]
    fn every_covered_type_matches_our_schemas() {
        let ours = Schemas::from_docs(embedded());
        for kind in KINDS {
            for d in type_drift(&ours, kind).unwrap().unwrap() {
                assert!(d.drift.is_empty(), "{}: {:#?}", d.label, d.drift);
            }
        }
    }

    #[test]
    fn a_field_added_to_a_schema_is_drift() {
        let s = with("common/metadata.schema.json", |d| {
            d["properties"]["source"] = json!({"type": "string"});
        });
        assert_eq!(
            drift_of(&s, "metadata"),
            ["mplp_core::Meta: .source: property only in schema (missing in Rust)"]
        );
    }

    #[test]
    fn a_renamed_field_is_drift() {
        let s = with("common/trace-base.schema.json", |d| {
            let span = d["properties"]["span_id"].clone();
            d["properties"].as_object_mut().unwrap().remove("span_id");
            d["properties"]["spanId"] = span;
            d["required"] = json!(["trace_id", "spanId"]);
        });
        assert_eq!(
            drift_of(&s, "trace-base"),
            [
                "mplp_core::TraceBase: .spanId: property only in schema (missing in Rust)",
                "mplp_core::TraceBase: .span_id: property only in Rust (missing in schema)",
                "mplp_core::TraceBase: (root): required \"spanId\" only in schema",
                "mplp_core::TraceBase: (root): required \"span_id\" only in Rust",
            ]
        );
    }

    #[test]
    fn a_missing_enum_value_is_drift() {
        let s = with("common/common-types.schema.json", |d| {
            let e = d["definitions"]["Ref"]["properties"]["module"]["enum"]
                .as_array_mut()
                .unwrap();
            e.retain(|v| v != "network");
        });
        assert_eq!(
            drift_of(&s, "ref"),
            ["mplp_core::Ref: .module: enum value \"network\" only in Rust"]
        );
    }

    #[test]
    fn a_changed_bound_or_format_deep_inside_is_drift() {
        let s = with("mplp-plan.schema.json", |d| {
            d["$defs"]["plan_step_core"]["properties"]["order_index"]["minimum"] = json!(1);
        });
        assert_eq!(
            drift_of(&s, "plan"),
            ["mplp_plan::Plan: .steps[].order_index: `minimum` differs: schema 1, Rust 0"]
        );
        let s = with("common/events.schema.json", |d| {
            d["properties"]["timestamp"]
                .as_object_mut()
                .unwrap()
                .remove("format");
        });
        assert_eq!(
            drift_of(&s, "plan"),
            [
                "mplp_plan::Plan: .events[].timestamp: `format: \"date-time\"` only in Rust (schema has no `format`)"
            ]
        );
    }

    #[test]
    fn event_envelope_drift_is_caught() {
        let s = with("events/mplp-map-event.schema.json", |d| {
            let e = d["properties"]["event_type"]["enum"]
                .as_array_mut()
                .unwrap();
            e.retain(|v| v != "MAPConflictResolved");
            d["required"].as_array_mut().unwrap().push(json!("payload"));
        });
        assert_eq!(
            drift_of(&s, "map-event"),
            [
                "mplp_events::MapEvent: .event_type: enum value \"MAPConflictResolved\" only in Rust",
                "mplp_events::MapEvent: (root): required \"payload\" only in schema",
            ]
        );
        let s = with("events/mplp-sa-event.schema.json", |d| {
            d["additionalProperties"] = json!(true);
            d["properties"]["plan_id"]
                .as_object_mut()
                .unwrap()
                .remove("format");
        });
        assert_eq!(
            drift_of(&s, "sa-event"),
            [
                "mplp_events::SaEvent: (root): `additionalProperties: false` only in Rust (schema has no `additionalProperties`)",
                "mplp_events::SaEvent: .plan_id: `format: \"uuid\"` only in Rust (schema has no `format`)",
            ]
        );
    }

    #[test]
    fn family_drift_is_caught_in_its_variant_only() {
        let s = with("events/mplp-graph-update-event.schema.json", |d| {
            let req = d["allOf"][1]["required"].as_array_mut().unwrap();
            req.retain(|v| v != "edge_delta");
        });
        assert_eq!(
            drift_of(&s, "event"),
            [
                "mplp_events::CoreEvent (event[graph_update]): (root): required \"edge_delta\" only in Rust"
            ]
        );
        let s = with("events/mplp-event-core.schema.json", |d| {
            d["properties"]["project_id"]["format"] = json!("date-time");
        });
        // The core envelope is shared by the base comparison and every family.
        assert_eq!(drift_of(&s, "event").len(), 4);
    }

    #[test]
    fn specialise_replaces_the_selected_conditional_and_keeps_unknown_ones() {
        let cond = |v: &str, member: &str| {
            json!({
                "if": {"properties": {"event_family": {"const": v}}, "required": ["event_family"]},
                "then": {"properties": {member: {"type": "string"}}, "required": [member]},
            })
        };
        let root = json!({
            "type": "object",
            "allOf": [cond("a", "x"), cond("b", "y"), cond("c", "z")],
        });
        let values = ["a", "b"];
        let a = specialise(root.clone(), Some("event_family"), &values, Some("a"));
        assert_eq!(a["allOf"], json!([cond("a", "x")["then"], cond("c", "z")]));
        let base = specialise(root.clone(), Some("event_family"), &values, None);
        assert_eq!(base["allOf"], json!([cond("c", "z")]));
        // A conditional on an unknown value stays, so the comparison shows it.
        let ours = Schemas::from_docs(embedded());
        let core = ours.normalized(SchemaKind::CoreEvent).unwrap();
        let rust = normalized_rust(json!({"allOf": [core, cond("c", "z")]})).unwrap();
        assert!(!compare("t", "schema", &core, "Rust", &rust).is_empty());
        // Without variants nothing changes.
        assert_eq!(specialise(root.clone(), None, &[], None), root);
    }

    #[test]
    fn upstream_comparison_is_semantic() {
        let ours = Schemas::from_docs(embedded());
        // Reworded annotations and reordered enums are not drift.
        let reworded = with("mplp-dialog.schema.json", |d| {
            d["description"] = json!("other words");
            d["properties"]["status"]["enum"]
                .as_array_mut()
                .unwrap()
                .reverse();
        });
        assert!(upstream_drift(&ours, &reworded).unwrap().is_empty());
        let changed = with("mplp-collab.schema.json", |d| {
            d["$defs"]["collab_participant_core"]["properties"]["kind"]["enum"]
                .as_array_mut()
                .unwrap()
                .push(json!("robot"));
        });
        let found: Vec<String> = upstream_drift(&ours, &changed)
            .unwrap()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            found,
            [
                "mplp-collab.schema.json: .participants[].kind: enum value \"robot\" only in upstream",
                "mplp-collab.schema.json: $defs/collab_core_properties.participants[].kind: enum value \"robot\" only in upstream",
                "mplp-collab.schema.json: $defs/collab_participant_core.kind: enum value \"robot\" only in upstream",
            ]
        );
    }
}

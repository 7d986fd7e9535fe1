//! `schemars::JsonSchema` for the observability event envelope (feature
//! `schemars`), and tests of the MAP and SA envelope schemas.
//!
//! The MAP and SA envelopes are declared with `#[derive(Wire)]` (the event
//! type is the payload's tag), which writes their schema. `CoreEvent` has
//! hand-written serde (the observability family picks the typed fields), so
//! its schema is written by hand too - but from the Rust sources of truth,
//! so that `cargo xtask schema-check` catches drift:
//!
//! - the members and their order are the type's `FIELDS` (MAP, SA) or the
//!   core and family member lists the `Serialize` impl writes (core events);
//! - each member's schema is its Rust type's own `JsonSchema`
//!   (`generator.subschema_for::<T>()`): `SchemaUuid`, `SessionId` and `SaId`
//!   say `format: uuid`, `Timestamp` says `format: date-time`, the event type
//!   and family enums are generated from the `wire_enum!` name lists
//!   (`MapEventType::NAMES`, ...), integers carry their Rust range;
//! - `required` is what the `Deserialize` impl refuses to do without, and
//!   `additionalProperties: false` is written exactly where it refuses
//!   unknown members (MAP and SA envelopes; the core envelope keeps them in
//!   `CoreEvent::extensions`). Unit tests below pin both against serde.
//!
//! **Payloads.** The schema describes the *envelope*: `payload` is an object
//! (`{"type": "object"}`, as the canonical schemas say). The SDK's typed
//! payloads ([`crate::map::MapPayload`], [`crate::sa::SaPayload`]) - which
//! members a payload must have for a given event type, and their types -
//! are SDK-level rules reported as `map_payload_*` / `sa_payload_*`, not
//! JSON Schema rules; they are deliberately left out of the schema (the
//! differential check of xtask filters those rule ids for the same reason).
//!
//! **Core event families.** `CoreEvent` reads the three families that have
//! their own schema (`graph_update`, `runtime_execution`, `pipeline_stage`)
//! with typed, partly required members. The schema says so with one
//! `if {event_family: const F} then {members of F}` per family, inside a
//! top-level `allOf`. xtask compares the schema without those conditionals
//! with `mplp-event-core.schema.json`, and each family's `then` merged into
//! the envelope with the family's schema.

use std::borrow::Cow;

use mplp_core::{JsonObject, Timestamp};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde_json::{Map, Value};

use crate::SchemaUuid;
use crate::core_event::{
    CoreEvent, CoreFamily, ExecutionStatus, ExecutorKind, StageStatus, UpdateKind,
};

/// One member of an object: name, schema, required by the `Deserialize` impl.
type Member = (&'static str, Schema, bool);

/// An object schema with the members in the given order.
fn object(members: Vec<Member>, additional: bool) -> Schema {
    let required: Vec<Value> = members
        .iter()
        .filter(|(_, _, req)| *req)
        .map(|(name, _, _)| Value::from(*name))
        .collect();
    let properties: Map<String, Value> = members
        .into_iter()
        .map(|(name, schema, _)| (name.to_owned(), schema.to_value()))
        .collect();
    json_schema!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": additional,
    })
}

/// The schema of `T`, for the member list of `kind`'s `FIELDS`; refuses to
/// describe a member the type does not list, so that the two stay in step.
fn in_fields(fields: &[&str], name: &'static str, schema: Schema, required: bool) -> Member {
    debug_assert!(fields.contains(&name), "{name} is not a field");
    (name, schema, required)
}

/// The members of the core envelope (`CORE_FIELDS`, in that order).
pub(crate) fn core_members(g: &mut SchemaGenerator) -> Vec<Member> {
    let f = crate::core_event::CORE_FIELDS;
    vec![
        in_fields(f, "event_id", g.subschema_for::<SchemaUuid>(), true),
        in_fields(f, "event_type", g.subschema_for::<String>(), true),
        in_fields(f, "event_family", g.subschema_for::<CoreFamily>(), true),
        in_fields(f, "timestamp", g.subschema_for::<Timestamp>(), true),
        in_fields(f, "project_id", g.subschema_for::<SchemaUuid>(), false),
        in_fields(f, "payload", g.subschema_for::<JsonObject>(), false),
    ]
}

/// The typed members of a family with its own schema (`family_fields`
/// order); empty for the nine generic families.
pub(crate) fn family_members(family: CoreFamily, g: &mut SchemaGenerator) -> Vec<Member> {
    let f = crate::core_event::family_fields(family);
    match family {
        CoreFamily::GraphUpdate => vec![
            in_fields(f, "graph_id", g.subschema_for::<SchemaUuid>(), true),
            in_fields(f, "update_kind", g.subschema_for::<UpdateKind>(), true),
            in_fields(f, "node_delta", g.subschema_for::<i64>(), true),
            in_fields(f, "edge_delta", g.subschema_for::<i64>(), true),
            in_fields(f, "source_module", g.subschema_for::<String>(), false),
        ],
        CoreFamily::RuntimeExecution => vec![
            in_fields(f, "execution_id", g.subschema_for::<SchemaUuid>(), true),
            in_fields(f, "executor_kind", g.subschema_for::<ExecutorKind>(), true),
            in_fields(f, "executor_role", g.subschema_for::<String>(), false),
            in_fields(f, "status", g.subschema_for::<ExecutionStatus>(), true),
        ],
        CoreFamily::PipelineStage => vec![
            in_fields(f, "pipeline_id", g.subschema_for::<SchemaUuid>(), true),
            in_fields(f, "stage_id", g.subschema_for::<String>(), true),
            in_fields(f, "stage_name", g.subschema_for::<String>(), false),
            in_fields(f, "stage_status", g.subschema_for::<StageStatus>(), true),
            in_fields(f, "stage_order", g.subschema_for::<u64>(), false),
        ],
        _ => Vec::new(),
    }
}

impl JsonSchema for CoreEvent {
    fn schema_name() -> Cow<'static, str> {
        "CoreEvent".into()
    }
    fn schema_id() -> Cow<'static, str> {
        "mplp_events::CoreEvent".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        // Unknown members are kept in `extensions`: additionalProperties true.
        let mut schema = object(core_members(g), true);
        let mut conditionals = Vec::new();
        for &family in CoreFamily::ALL {
            let mut members = family_members(family, g);
            if members.is_empty() {
                continue;
            }
            let name = family.as_str();
            members.insert(0, ("event_family", json_schema!({ "const": name }), true));
            let then = object(members, true);
            let mut then = then.to_value();
            if let Some(o) = then.as_object_mut() {
                // The envelope decides about other members; `then` only adds.
                o.remove("additionalProperties");
                o.remove("type");
            }
            conditionals.push(serde_json::json!({
                "if": {
                    "properties": { "event_family": { "const": name } },
                    "required": ["event_family"],
                },
                "then": then,
            }));
        }
        schema.insert("allOf".to_owned(), Value::Array(conditionals));
        schema
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{MapEvent, MapEventType};
    use crate::sa::{SaEvent, SaEventType};
    use mplp_core::Wire;
    use serde_json::json;

    fn root<T: JsonSchema>() -> Value {
        let g = schemars::generate::SchemaSettings::draft07().into_generator();
        g.into_root_schema_for::<T>().to_value()
    }

    fn keys(v: &Value) -> Vec<String> {
        v.as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default()
    }

    fn strings(v: &Value) -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    }

    #[test]
    fn map_event_schema_is_the_envelope() {
        let s = root::<MapEvent>();
        assert_eq!(s["type"], "object");
        assert_eq!(s["additionalProperties"], false);
        let mut props = keys(&s["properties"]);
        let mut fields: Vec<String> = MapEvent::FIELDS.iter().map(|f| f.to_string()).collect();
        props.sort();
        fields.sort();
        assert_eq!(props, fields);
        assert_eq!(
            strings(&s["required"]),
            ["event_id", "event_type", "timestamp", "session_id"]
        );
        assert_eq!(
            strings(&s["properties"]["event_type"]["enum"]),
            MapEventType::NAMES
        );
        assert_eq!(s["properties"]["event_id"]["format"], "uuid");
        assert_eq!(s["properties"]["session_id"]["format"], "uuid");
        assert_eq!(s["properties"]["timestamp"]["format"], "date-time");
        assert_eq!(s["properties"]["target_roles"]["items"]["type"], "string");
        // The payload is an object; the typed payloads are SDK rules.
        assert_eq!(s["properties"]["payload"], json!({"type": "object"}));
        assert!(s["properties"].get("event_family").is_none());
    }

    #[test]
    fn sa_event_schema_is_the_envelope() {
        let s = root::<SaEvent>();
        assert_eq!(s["additionalProperties"], false);
        assert_eq!(
            strings(&s["required"]),
            ["event_id", "event_type", "timestamp", "sa_id"]
        );
        assert_eq!(
            strings(&s["properties"]["event_type"]["enum"]),
            SaEventType::NAMES
        );
        for k in ["event_id", "sa_id", "context_id", "plan_id", "trace_id"] {
            assert_eq!(s["properties"][k]["format"], "uuid", "{k}");
        }
        assert_eq!(s["properties"]["payload"], json!({"type": "object"}));
    }

    #[test]
    fn core_event_schema_has_one_conditional_per_typed_family() {
        let s = root::<CoreEvent>();
        assert_eq!(s["additionalProperties"], true);
        assert_eq!(
            strings(&s["properties"]["event_family"]["enum"]),
            CoreFamily::NAMES
        );
        assert_eq!(
            strings(&s["required"]),
            ["event_id", "event_type", "event_family", "timestamp"]
        );
        let all = s["allOf"].as_array().unwrap();
        let families: Vec<&str> = all
            .iter()
            .map(|c| {
                c["if"]["properties"]["event_family"]["const"]
                    .as_str()
                    .unwrap()
            })
            .collect();
        let typed: Vec<&str> = CoreFamily::ALL
            .iter()
            .filter(|f| f.has_own_schema())
            .map(|f| f.as_str())
            .collect();
        assert_eq!(families, typed);
        let pipeline = &all
            .iter()
            .find(|c| c["if"]["properties"]["event_family"]["const"] == "pipeline_stage")
            .unwrap()["then"];
        assert_eq!(pipeline["properties"]["stage_order"]["minimum"], 0);
        assert_eq!(
            strings(&pipeline["required"]),
            ["event_family", "pipeline_id", "stage_id", "stage_status"]
        );
        for c in all {
            let family = CoreFamily::from_wire(
                c["if"]["properties"]["event_family"]["const"]
                    .as_str()
                    .unwrap(),
            )
            .unwrap();
            let mut props = keys(&c["then"]["properties"]);
            props.retain(|p| p != "event_family");
            props.sort();
            let mut fields = crate::core_event::family_fields(family).to_vec();
            fields.sort_unstable();
            assert_eq!(props, fields, "{family}");
        }
    }

    /// Drops each member in turn from `full` and checks that serde refuses
    /// exactly the members the schema calls required; and that serde refuses
    /// an unknown member exactly when the schema says additionalProperties false.
    fn schema_agrees_with_serde<T: JsonSchema + serde::de::DeserializeOwned>(full: Value) {
        let s = root::<T>();
        let required = strings(&s["required"]);
        for key in keys(&full) {
            let mut v = full.clone();
            v.as_object_mut().unwrap().remove(&key);
            let refused = serde_json::from_value::<T>(v).is_err();
            let is_required = required.contains(&key);
            // Typed-family members are required through the conditional.
            let conditional = s["allOf"].as_array().is_some_and(|all| {
                all.iter().any(|c| {
                    full.get("event_family")
                        == Some(&c["if"]["properties"]["event_family"]["const"])
                        && strings(&c["then"]["required"]).contains(&key)
                })
            });
            assert_eq!(refused, is_required || conditional, "member {key}");
        }
        let mut v = full.clone();
        v["x_unknown"] = json!(1);
        assert_eq!(
            serde_json::from_value::<T>(v).is_err(),
            s["additionalProperties"] == false
        );
    }

    #[test]
    fn required_and_additional_properties_match_the_deserializer() {
        let uuid = "4f1c3c51-7f4e-4d1e-9c31-0c1a2b3c4d5e";
        let time = "2025-01-01T00:00:00Z";
        // An event type whose payload the SDK does not require.
        schema_agrees_with_serde::<MapEvent>(json!({
            "event_id": uuid, "event_type": "MAPBroadcastSent", "timestamp": time,
            "session_id": uuid, "initiator_role": "lead", "target_roles": ["a"], "payload": {}
        }));
        schema_agrees_with_serde::<SaEvent>(json!({
            "event_id": uuid, "event_type": "SAInitialized", "timestamp": time, "sa_id": uuid,
            "context_id": uuid, "plan_id": uuid, "trace_id": uuid, "payload": {}
        }));
        schema_agrees_with_serde::<CoreEvent>(json!({
            "event_id": uuid, "event_type": "x", "event_family": "intent", "timestamp": time,
            "project_id": uuid, "payload": {}
        }));
        schema_agrees_with_serde::<CoreEvent>(json!({
            "event_id": uuid, "event_type": "x", "event_family": "graph_update", "timestamp": time,
            "graph_id": uuid, "update_kind": "bulk", "node_delta": -1, "edge_delta": 2,
            "source_module": "plan"
        }));
        schema_agrees_with_serde::<CoreEvent>(json!({
            "event_id": uuid, "event_type": "x", "event_family": "runtime_execution",
            "timestamp": time, "execution_id": uuid, "executor_kind": "llm",
            "executor_role": "r", "status": "running"
        }));
        schema_agrees_with_serde::<CoreEvent>(json!({
            "event_id": uuid, "event_type": "x", "event_family": "pipeline_stage",
            "timestamp": time, "pipeline_id": uuid, "stage_id": "s", "stage_name": "S",
            "stage_status": "skipped", "stage_order": 0
        }));
    }
}

//! `schemars::JsonSchema` helpers (feature `schemars`), and tests of the
//! envelope schemas.
//!
//! Every event type is declared with `#[derive(Wire)]`, which writes its
//! schema. The MAP and SA envelopes type their `payload` by `event_type`
//! (the schema says `payload` is an object: the typed payloads are SDK
//! rules, `map_payload_*` / `sa_payload_*`). `CoreEvent` and
//! `LearningSample` carry a body whose members sit beside the envelope's,
//! typed by a tag member (`event_family`, `sample_family`): their schema
//! says so with one `if {tag: const V} then {members of V}` per tag value
//! with members of its own, inside a top-level `allOf` ([`tag_branch`]).
//! xtask compares the schema without those conditionals with the base
//! schema (`mplp-event-core`, `mplp-learning-sample-core`), and each
//! branch merged into the envelope with that value's own schema.

use schemars::Schema;
use serde_json::Value;

/// `{"if": {"properties": {member: {"const": value}}, "required": [member]},
/// "then": T}` where `T` is `schema` (a derived object's inline schema)
/// with `member: {const: value}` added and without `type` and
/// `additionalProperties` (the envelope decides about other members; the
/// branch only adds).
pub(crate) fn tag_branch(member: &str, value: &str, schema: Schema) -> Value {
    let mut then = schema.to_value();
    if let Some(o) = then.as_object_mut() {
        o.remove("additionalProperties");
        o.remove("type");
        if let Some(Value::Object(props)) = o.get_mut("properties") {
            let mut with_tag = serde_json::Map::new();
            with_tag.insert(member.to_owned(), serde_json::json!({ "const": value }));
            with_tag.extend(std::mem::take(props));
            *props = with_tag;
        }
        let mut required = vec![Value::from(member)];
        if let Some(Value::Array(r)) = o.remove("required") {
            required.extend(r);
        }
        o.insert("required".to_owned(), Value::Array(required));
    }
    serde_json::json!({
        "if": {
            "properties": { member: { "const": value } },
            "required": [member],
        },
        "then": then,
    })
}

#[cfg(test)]
mod tests {
    use crate::core_event::{CoreEvent, CoreFamily};
    use crate::map::{MapEvent, MapEventType};
    use crate::sa::{SaEvent, SaEventType};
    use mplp_core::Wire;
    use schemars::JsonSchema;
    use serde_json::Value;
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
        assert_ne!(s["additionalProperties"], false);
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
            let mut fields = crate::core_event::family_members(family).to_vec();
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

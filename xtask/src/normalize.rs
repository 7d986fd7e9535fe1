//! Normalisation of JSON Schemas before they are compared.
//!
//! Both sides (our `schemas/` and the schemars output of the Rust types, or
//! our `schemas/` and an upstream copy) are brought to one normal form, so
//! that only differences that change what validates remain:
//!
//! 1. `$ref` is replaced by what it points at (resolved against the `$id` of
//!    the file it appears in; siblings of `$ref` are ignored, as draft 7 says).
//! 2. Annotations are dropped: `title`, `description`, `$comment`,
//!    `examples`, `default`, `$id`, `$schema`, every `x-*` keyword, and
//!    `definitions`/`$defs` (they only matter through `$ref`). Only keyword
//!    positions are touched: a *property* named `title` or `description`
//!    (Plan.title, Ref.description) is kept.
//! 3. `null` is removed: from `type` arrays and as an `anyOf`/`oneOf` branch.
//!    Whether a member may be absent is the `required` set; an `Option<T>`
//!    field is the schema of `T`. (The base event's `data`, object or null,
//!    normalises to `object` on both sides.)
//! 4. `allOf` is merged into one schema (properties and required sets are
//!    united, enums intersected); a single `allOf`/`anyOf` branch is unwrapped.
//! 5. `const: x` is written `enum: [x]`; `enum` and `required` are sorted
//!    (they are sets); `additionalProperties: true` and `uniqueItems: false`
//!    are dropped (they are the defaults).
//! 6. The integer formats of schemars (`int32`, `uint64`, ...) are dropped:
//!    they say which Rust integer holds the value, not what JSON is valid.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// Keywords whose value is a map from *names* to subschemas.
const NAME_MAPS: &[&str] = &["properties", "patternProperties", "dependencies"];
/// Keywords that are dropped (annotations and containers only reached through `$ref`).
const DROPPED: &[&str] = &[
    "title",
    "description",
    "$comment",
    "examples",
    "default",
    "$id",
    "$schema",
    "definitions",
    "$defs",
];
/// `format`s that schemars writes for Rust integer and float types.
const RUST_NUMBER_FORMATS: &[&str] = &[
    "int", "int8", "int16", "int32", "int64", "int128", "uint", "uint8", "uint16", "uint32",
    "uint64", "uint128", "float", "double",
];
/// Deepest `$ref` chain followed (the MPLP schemas are not recursive).
const MAX_DEPTH: usize = 64;

/// A set of schema documents, keyed by their absolute URI (`$id`).
#[derive(Clone, Debug, Default)]
pub(crate) struct SchemaSet {
    docs: BTreeMap<String, Value>,
}

impl SchemaSet {
    /// Adds a document under `uri` (normally its `$id`).
    pub(crate) fn add(&mut self, uri: &str, doc: Value) {
        self.docs.insert(uri.to_owned(), doc);
    }

    /// Adds a document under its own `$id`, or under `fallback` when it has none.
    pub(crate) fn add_with_id(&mut self, fallback: &str, doc: Value) -> String {
        let uri = doc
            .get("$id")
            .and_then(Value::as_str)
            .unwrap_or(fallback)
            .to_owned();
        self.add(&uri, doc);
        uri
    }

    /// The document stored under `uri`.
    pub(crate) fn doc(&self, uri: &str) -> Option<&Value> {
        self.docs.get(uri)
    }

    /// The normal form of the schema at `uri` (`file#/json/pointer` or `file`).
    pub(crate) fn normalized(&self, uri: &str) -> Result<Value, String> {
        let (doc_uri, fragment) = split_fragment(uri);
        let node = self.lookup(doc_uri, fragment)?;
        self.norm(node, doc_uri, 0)
    }

    fn lookup(&self, doc_uri: &str, fragment: &str) -> Result<&Value, String> {
        let doc = self
            .docs
            .get(doc_uri)
            .ok_or_else(|| format!("unknown schema document {doc_uri}"))?;
        doc.pointer(fragment)
            .ok_or_else(|| format!("{doc_uri}#{fragment} does not exist"))
    }

    fn norm(&self, node: &Value, base: &str, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return Err(format!("$ref chain deeper than {MAX_DEPTH} below {base}"));
        }
        let Value::Object(obj) = node else {
            // `true`/`false` schemas stay as they are.
            return Ok(node.clone());
        };
        if let Some(reference) = obj.get("$ref").and_then(Value::as_str) {
            let target = resolve(base, reference);
            let (doc_uri, fragment) = split_fragment(&target);
            let resolved = self.lookup(doc_uri, fragment)?;
            return self.norm(resolved, doc_uri, depth + 1);
        }
        let mut out = Map::new();
        for (key, value) in obj {
            if DROPPED.contains(&key.as_str()) || key.starts_with("x-") {
                continue;
            }
            let value = match key.as_str() {
                "const" => {
                    out.insert("enum".to_owned(), Value::Array(vec![value.clone()]));
                    continue;
                }
                "enum" | "required" => sorted(value),
                k if NAME_MAPS.contains(&k) => match value {
                    Value::Object(map) => {
                        let mut m = Map::new();
                        for (name, sub) in map {
                            m.insert(name.clone(), self.norm(sub, base, depth + 1)?);
                        }
                        Value::Object(m)
                    }
                    other => other.clone(),
                },
                "allOf" | "anyOf" | "oneOf" => match value {
                    Value::Array(items) => Value::Array(
                        items
                            .iter()
                            .map(|s| self.norm(s, base, depth + 1))
                            .collect::<Result<_, _>>()?,
                    ),
                    other => other.clone(),
                },
                "type" => without_null_type(value),
                "additionalProperties"
                | "items"
                | "not"
                | "additionalItems"
                | "contains"
                | "propertyNames"
                | "if"
                | "then"
                | "else" => self.norm(value, base, depth + 1)?,
                _ => value.clone(),
            };
            out.insert(key.clone(), value);
        }
        Ok(simplify(out))
    }
}

/// Applies the structural rules (null branches, allOf merge, defaults).
fn simplify(mut out: Map<String, Value>) -> Value {
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = out.remove(key) {
            let branches: Vec<Value> = branches.into_iter().filter(|b| !is_null(b)).collect();
            if branches.len() == 1 {
                if let Some(Value::Object(only)) = branches.into_iter().next() {
                    out = merge(out, only);
                }
            } else {
                out.insert(key.to_owned(), Value::Array(branches));
            }
        }
    }
    if let Some(Value::Array(branches)) = out.remove("allOf") {
        for branch in branches {
            if let Value::Object(b) = branch {
                out = merge(out, b);
            }
        }
    }
    if out.get("additionalProperties") == Some(&Value::Bool(true)) {
        out.remove("additionalProperties");
    }
    if out.get("uniqueItems") == Some(&Value::Bool(false)) {
        out.remove("uniqueItems");
    }
    if let Some(Value::String(f)) = out.get("format") {
        if RUST_NUMBER_FORMATS.contains(&f.as_str()) {
            out.remove("format");
        }
    }
    Value::Object(out)
}

fn is_null(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("null")
        && schema.as_object().is_some_and(|o| o.len() == 1)
}

/// Merges two normalised object schemas (both must hold: `allOf`).
fn merge(mut a: Map<String, Value>, b: Map<String, Value>) -> Map<String, Value> {
    for (key, bv) in b {
        let merged = match (key.as_str(), a.remove(&key)) {
            (_, None) => bv,
            ("properties", Some(Value::Object(mut ap))) => {
                if let Value::Object(bp) = bv {
                    for (name, sub) in bp {
                        let m = match (ap.remove(&name), sub) {
                            (Some(Value::Object(x)), Value::Object(y)) => {
                                Value::Object(merge(x, y))
                            }
                            (_, y) => y,
                        };
                        ap.insert(name, m);
                    }
                }
                Value::Object(ap)
            }
            ("required", Some(Value::Array(mut ar))) => {
                if let Value::Array(br) = bv {
                    ar.extend(br);
                }
                let mut names: Vec<Value> = ar;
                names.sort_by_key(|v| v.to_string());
                names.dedup();
                Value::Array(names)
            }
            ("enum", Some(Value::Array(ae))) => {
                let be = bv.as_array().cloned().unwrap_or_default();
                Value::Array(ae.into_iter().filter(|v| be.contains(v)).collect())
            }
            ("additionalProperties", Some(av)) => {
                if av == Value::Bool(false) || bv == Value::Bool(false) {
                    Value::Bool(false)
                } else {
                    bv
                }
            }
            (_, Some(av)) if av == bv => av,
            (_, Some(av)) => Value::Array(vec![av, bv]),
        };
        a.insert(key, merged);
    }
    a
}

fn without_null_type(value: &Value) -> Value {
    match value {
        Value::Array(types) => {
            let rest: Vec<Value> = types
                .iter()
                .filter(|t| t.as_str() != Some("null"))
                .cloned()
                .collect();
            match rest.as_slice() {
                [one] => one.clone(),
                _ => Value::Array(rest),
            }
        }
        other => other.clone(),
    }
}

fn sorted(value: &Value) -> Value {
    match value {
        Value::Array(items) => {
            let mut items = items.clone();
            items.sort_by_key(|v| v.to_string());
            Value::Array(items)
        }
        other => other.clone(),
    }
}

fn split_fragment(uri: &str) -> (&str, &str) {
    match uri.split_once('#') {
        Some((doc, fragment)) => (doc, fragment),
        None => (uri, ""),
    }
}

/// Resolves a reference against a base URI (RFC 3986, enough for relative paths).
fn resolve(base: &str, reference: &str) -> String {
    if reference.starts_with('#') {
        return format!("{base}{reference}");
    }
    if reference.contains("://") {
        return reference.to_owned();
    }
    let dir = match base.rfind('/') {
        Some(i) => &base[..=i],
        None => "",
    };
    let joined = format!("{dir}{reference}");
    // Remove `./` and `segment/../` pairs.
    let (scheme, path) = match joined.find("://") {
        Some(i) => joined.split_at(i + 3),
        None => ("", joined.as_str()),
    };
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "." => {}
            ".." => {
                if parts.len() > 1 {
                    parts.pop();
                }
            }
            s => parts.push(s),
        }
    }
    format!("{scheme}{}", parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resolves_relative_refs() {
        assert_eq!(
            resolve("https://x/v1/mplp-plan.schema.json", "common/a.json#/d"),
            "https://x/v1/common/a.json#/d"
        );
        assert_eq!(
            resolve("https://x/v1/common/b.json", "../events/c.json"),
            "https://x/v1/events/c.json"
        );
        assert_eq!(
            resolve("https://x/a.json", "#/defs/y"),
            "https://x/a.json#/defs/y"
        );
    }

    #[test]
    fn keeps_properties_named_like_annotations() {
        let mut set = SchemaSet::default();
        set.add(
            "s",
            json!({"title": "T", "description": "D", "type": "object",
                   "properties": {"title": {"type": "string", "description": "x"},
                                  "description": {"type": "string"}}}),
        );
        assert_eq!(
            set.normalized("s").unwrap(),
            json!({"type": "object", "properties": {"title": {"type": "string"}, "description": {"type": "string"}}})
        );
    }

    #[test]
    fn option_and_nullable_normalise_to_the_inner_schema() {
        let mut set = SchemaSet::default();
        set.add(
            "s",
            json!({"definitions": {"T": {"type": "string", "pattern": "^a$"}},
            "properties": {
                "a": {"anyOf": [{"$ref": "#/definitions/T"}, {"type": "null"}]},
                "b": {"type": ["string", "null"], "pattern": "^a$"},
                "c": {"allOf": [{"$ref": "#/definitions/T"}], "description": "c"},
                "d": {"anyOf": [{"type": "object"}, {"type": "null"}]},
                "e": {"type": ["object", "null"]},
                "n": {"type": ["integer", "null"], "format": "uint32", "minimum": 0}
            }}),
        );
        let n = set.normalized("s").unwrap();
        let t = json!({"type": "string", "pattern": "^a$"});
        assert_eq!(n["properties"]["a"], t);
        assert_eq!(n["properties"]["b"], t);
        assert_eq!(n["properties"]["c"], t);
        assert_eq!(n["properties"]["d"], json!({"type": "object"}));
        assert_eq!(n["properties"]["e"], json!({"type": "object"}));
        assert_eq!(
            n["properties"]["n"],
            json!({"type": "integer", "minimum": 0})
        );
    }

    #[test]
    fn all_of_is_merged_and_const_is_an_enum() {
        let mut set = SchemaSet::default();
        set.add(
            "https://x/core.json",
            json!({"type": "object", "properties": {"f": {"type": "string", "enum": ["a", "b"]}},
                   "required": ["f"], "additionalProperties": true}),
        );
        set.add(
            "https://x/ext.json",
            json!({"allOf": [{"$ref": "core.json"},
                             {"type": "object", "properties": {"f": {"const": "b"}, "g": {"type": "integer"}},
                              "required": ["g", "f"]}]}),
        );
        assert_eq!(
            set.normalized("https://x/ext.json").unwrap(),
            json!({"type": "object",
                   "properties": {"f": {"type": "string", "enum": ["b"]}, "g": {"type": "integer"}},
                   "required": ["f", "g"]})
        );
    }

    #[test]
    fn unknown_refs_are_errors() {
        let mut set = SchemaSet::default();
        set.add("https://x/a.json", json!({"$ref": "b.json"}));
        assert!(set.normalized("https://x/a.json").is_err());
        set.add("https://x/b.json", json!({"$ref": "a.json"}));
        assert!(
            set.normalized("https://x/a.json")
                .unwrap_err()
                .contains("deeper")
        );
    }
}

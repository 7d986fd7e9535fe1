//! Semantic comparison of two normalised schemas (see `normalize`).

use std::collections::BTreeSet;
use std::fmt;

use serde_json::Value;

/// One difference between two schemas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Drift {
    /// What is compared (`mplp_plan::Plan`, `mplp-plan.schema.json`).
    pub(crate) subject: String,
    /// Where, as a path of property names (`.steps[].status`); `(root)` for the top.
    pub(crate) path: String,
    /// The difference.
    pub(crate) what: String,
}

impl fmt::Display for Drift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() {
            "(root)"
        } else {
            &self.path
        };
        write!(f, "{}: {}: {}", self.subject, path, self.what)
    }
}

/// Compares `left` (named `left_name`, e.g. "schema") with `right` ("Rust").
pub(crate) fn compare(
    subject: &str,
    left_name: &str,
    left: &Value,
    right_name: &str,
    right: &Value,
) -> Vec<Drift> {
    let mut cx = Cx {
        subject,
        left_name,
        right_name,
        out: Vec::new(),
    };
    cx.schema(left, right, "");
    cx.out
}

struct Cx<'a> {
    subject: &'a str,
    left_name: &'a str,
    right_name: &'a str,
    out: Vec<Drift>,
}

impl Cx<'_> {
    fn push(&mut self, path: &str, what: String) {
        self.out.push(Drift {
            subject: self.subject.to_owned(),
            path: path.to_owned(),
            what,
        });
    }

    fn schema(&mut self, l: &Value, r: &Value, path: &str) {
        let (Value::Object(lo), Value::Object(ro)) = (l, r) else {
            if l != r {
                self.push(
                    path,
                    format!(
                        "{} has {}, {} has {}",
                        self.left_name,
                        short(l),
                        self.right_name,
                        short(r)
                    ),
                );
            }
            return;
        };
        let keys: BTreeSet<&String> = lo.keys().chain(ro.keys()).collect();
        for key in keys {
            let (lv, rv) = (lo.get(key), ro.get(key));
            match key.as_str() {
                "properties" => self.properties(lv, rv, path),
                "required" => self.set(key, "required", lv, rv, path),
                "enum" => self.set(key, "enum value", lv, rv, path),
                "items" => match (lv, rv) {
                    (Some(a), Some(b)) => self.schema(a, b, &format!("{path}[]")),
                    _ => self.keyword(key, lv, rv, path),
                },
                "additionalProperties" => match (lv, rv) {
                    (Some(a @ Value::Object(_)), Some(b @ Value::Object(_))) => {
                        self.schema(a, b, &format!("{path}{{*}}"))
                    }
                    _ => self.keyword(key, lv, rv, path),
                },
                _ => self.keyword(key, lv, rv, path),
            }
        }
    }

    fn keyword(&mut self, key: &str, l: Option<&Value>, r: Option<&Value>, path: &str) {
        match (l, r) {
            (Some(a), Some(b)) if a == b => {}
            (Some(a), Some(b)) => self.push(
                path,
                format!(
                    "`{key}` differs: {} {}, {} {}",
                    self.left_name,
                    short(a),
                    self.right_name,
                    short(b)
                ),
            ),
            (Some(a), None) => self.push(
                path,
                format!(
                    "`{key}: {}` only in {} ({} has no `{key}`)",
                    short(a),
                    self.left_name,
                    self.right_name
                ),
            ),
            (None, Some(b)) => self.push(
                path,
                format!(
                    "`{key}: {}` only in {} ({} has no `{key}`)",
                    short(b),
                    self.right_name,
                    self.left_name
                ),
            ),
            (None, None) => {}
        }
    }

    fn properties(&mut self, l: Option<&Value>, r: Option<&Value>, path: &str) {
        let empty = serde_json::Map::new();
        let lp = l.and_then(Value::as_object).unwrap_or(&empty);
        let rp = r.and_then(Value::as_object).unwrap_or(&empty);
        let names: BTreeSet<&String> = lp.keys().chain(rp.keys()).collect();
        for name in names {
            let at = format!("{path}.{name}");
            match (lp.get(name), rp.get(name)) {
                (Some(a), Some(b)) => self.schema(a, b, &at),
                (Some(_), None) => self.push(
                    &at,
                    format!(
                        "property only in {} (missing in {})",
                        self.left_name, self.right_name
                    ),
                ),
                (None, Some(_)) => self.push(
                    &at,
                    format!(
                        "property only in {} (missing in {})",
                        self.right_name, self.left_name
                    ),
                ),
                (None, None) => {}
            }
        }
    }

    fn set(&mut self, key: &str, noun: &str, l: Option<&Value>, r: Option<&Value>, path: &str) {
        let as_set = |v: Option<&Value>| -> Option<BTreeSet<String>> {
            v.and_then(Value::as_array)
                .map(|a| a.iter().map(short).collect())
        };
        let (ls, rs) = (as_set(l), as_set(r));
        if key == "enum" && (ls.is_none() || rs.is_none()) {
            // An enum on one side only is a difference of its own kind.
            self.keyword(key, l, r, path);
            return;
        }
        let (ls, rs) = (ls.unwrap_or_default(), rs.unwrap_or_default());
        for only in ls.difference(&rs) {
            self.push(path, format!("{noun} {only} only in {}", self.left_name));
        }
        for only in rs.difference(&ls) {
            self.push(path, format!("{noun} {only} only in {}", self.right_name));
        }
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 100 {
        let cut: String = s.chars().take(97).collect();
        format!("{cut}...")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plan_like() -> Value {
        json!({"type": "object", "additionalProperties": false,
               "properties": {"status": {"type": "string", "enum": ["a", "b"]},
                              "steps": {"type": "array", "minItems": 1,
                                        "items": {"type": "object", "properties": {"id": {"type": "string", "pattern": "^x$"}}}}},
               "required": ["status"]})
    }

    #[test]
    fn equal_schemas_have_no_drift() {
        assert!(compare("T", "schema", &plan_like(), "Rust", &plan_like()).is_empty());
    }

    #[test]
    fn names_type_path_and_difference() {
        let mut r = plan_like();
        r["properties"]["steps"]["items"]["properties"]["id"]["pattern"] = json!("^y$");
        r["properties"]["status"]["enum"] = json!(["a"]);
        r["required"] = json!([]);
        let found: Vec<String> = compare("T", "schema", &plan_like(), "Rust", &r)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            found,
            [
                "T: .status: enum value \"b\" only in schema",
                "T: .steps[].id: `pattern` differs: schema \"^x$\", Rust \"^y$\"",
                "T: (root): required \"status\" only in schema",
            ]
        );
    }
}

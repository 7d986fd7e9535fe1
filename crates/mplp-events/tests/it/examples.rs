//! The shared examples in schemas/examples: valid ones parse and round-trip,
//! invalid ones are reported at the pointer and rule of their sidecar.

use std::path::PathBuf;

use mplp_core::Document;
use mplp_events::MapEvent;
use serde_json::Value;

pub(crate) fn examples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../schemas/examples")
}

pub(crate) fn files(kind: &str, prefix: &str, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(examples_dir().join(kind))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.starts_with(prefix) && name.ends_with(ext) && !name.ends_with(".expect.json")
        })
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no {kind} examples for {prefix}");
    v
}

/// The text without the whitespace between tokens (key order kept).
pub(crate) fn minify(text: &[u8]) -> String {
    let text = std::str::from_utf8(text).unwrap();
    let mut out = String::new();
    let (mut in_str, mut esc) = (false, false);
    for c in text.chars() {
        if in_str {
            out.push(c);
            if esc {
                esc = false;
            } else if c == '\\' {
                esc = true;
            } else if c == '"' {
                in_str = false;
            }
        } else if c == '"' {
            in_str = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}

/// The top-level keys in order, and the keys of `payload` in order.
pub(crate) fn key_order(text: &[u8]) -> (Vec<String>, Vec<String>) {
    let outer: Vec<(String, serde_json::Value)> = {
        struct Ordered(Vec<(String, serde_json::Value)>);
        impl<'de> serde::Deserialize<'de> for Ordered {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> serde::de::Visitor<'de> for V {
                    type Value = Ordered;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str("object")
                    }
                    fn visit_map<A: serde::de::MapAccess<'de>>(
                        self,
                        mut m: A,
                    ) -> Result<Ordered, A::Error> {
                        let mut v = Vec::new();
                        while let Some((k, x)) =
                            m.next_entry::<String, Box<serde_json::value::RawValue>>()?
                        {
                            let inner = if k == "payload" {
                                let o: Ordered = serde_json::from_str(x.get())
                                    .map_err(serde::de::Error::custom)?;
                                serde_json::Value::Array(
                                    o.0.into_iter().map(|(k, _)| k.into()).collect(),
                                )
                            } else {
                                serde_json::Value::Null
                            };
                            v.push((k, inner));
                        }
                        Ok(Ordered(v))
                    }
                }
                d.deserialize_map(V)
            }
        }
        serde_json::from_slice::<Ordered>(text).unwrap().0
    };
    let top = outer.iter().map(|(k, _)| k.clone()).collect();
    let payload = outer
        .iter()
        .find(|(k, _)| k == "payload")
        .map(|(_, v)| {
            v.as_array()
                .unwrap()
                .iter()
                .map(|k| k.as_str().unwrap().to_owned())
                .collect()
        })
        .unwrap_or_default();
    (top, payload)
}

pub(crate) fn check_valid<T: Document + PartialEq + std::fmt::Debug>(
    prefix: &str,
    typed_payload: bool,
) {
    for path in files("valid", prefix, ".json") {
        let text = std::fs::read(&path).unwrap();
        let v = T::validate_json(&text);
        assert!(v.report.is_empty(), "{}: {:?}", path.display(), v.report);
        let doc = v.value.unwrap();
        let input: Value = serde_json::from_slice(&text).unwrap();
        assert_eq!(doc.to_value(), input, "{}", path.display());
        // The typed value written in compact form reads back the same.
        assert_eq!(T::from_json(doc.to_json()).unwrap(), doc);
        // And the text keeps the key order of the envelope and the payload
        // (free-form nested objects are kept as values: serde_json sorts their keys).
        let (ours, theirs) = (key_order(doc.to_json().as_bytes()), key_order(&text));
        assert_eq!(ours.0, theirs.0, "{}", path.display());
        if typed_payload {
            assert_eq!(ours.1, theirs.1, "{}", path.display());
        }
    }
}

pub(crate) fn check_invalid<T: Document + std::fmt::Debug>(prefix: &str) {
    for path in files("invalid", prefix, ".json") {
        let text = std::fs::read(&path).unwrap();
        let expect: Value =
            serde_json::from_slice(&std::fs::read(path.with_extension("expect.json")).unwrap())
                .unwrap();
        let v = T::validate_json(&text);
        assert!(v.value.is_none(), "{} should be invalid", path.display());
        let found = v.report.errors().any(|e| {
            e.pointer == expect["pointer"].as_str().unwrap()
                && e.rule.as_str() == expect["rule"].as_str().unwrap()
        });
        assert!(
            found,
            "{}: expected {expect}, got {:#?}",
            path.display(),
            v.report
        );
        // from_value agrees with from_json.
        let value: Value = serde_json::from_slice(&text).unwrap();
        assert_eq!(
            T::validate_value(&value).report,
            v.report,
            "{}",
            path.display()
        );
    }
}

#[test]
fn map_event_examples() {
    check_valid::<MapEvent>("map-event-", true);
    check_invalid::<MapEvent>("map-event-");
}

#[test]
fn sa_event_examples() {
    check_valid::<mplp_events::SaEvent>("sa-event-", true);
    check_invalid::<mplp_events::SaEvent>("sa-event-");
}

#[test]
fn core_event_examples() {
    check_valid::<mplp_events::CoreEvent>("event-", false);
    check_invalid::<mplp_events::CoreEvent>("event-");
}

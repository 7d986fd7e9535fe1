//! The leaf parsers: timestamps and identifiers. No panic; what parses
//! keeps its text exactly and agrees with the schema's `format`/`pattern`
//! checks (the `jsonschema` crate on `schemas/`).
#![no_main]

use std::str::FromStr;

use libfuzzer_sys::fuzz_target;
use mplp_core::schema::SchemaKind;
use mplp_core::{PlanId, Timestamp};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(t) = Timestamp::from_str(text) {
        assert_eq!(t.text(), text, "a timestamp changed its text");
        let again = Timestamp::from_str(&t.text());
        assert_eq!(again.ok().as_ref(), Some(&t));
    }
    let id = PlanId::from_str(text);
    let schema_ok = mplp_core::schema::is_valid(
        SchemaKind::Identifier,
        &serde_json::Value::String(text.to_owned()),
    );
    assert_eq!(
        id.is_ok(),
        schema_ok,
        "PlanId::from_str and the identifier schema disagree on {text:?}"
    );
    if let Ok(id) = id {
        assert_eq!(id.to_string(), text);
    }
});

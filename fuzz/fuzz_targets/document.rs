//! Every document kind of the `mplp-check` table on the same bytes, with
//! the differential properties of issue 19:
//!
//! - no panic, whatever the bytes;
//! - typed parse and verdict agree: `round_trip` (the typed parse) succeeds
//!   exactly when `validate` reports no error;
//! - a typed parse writes text that parses again to the same text;
//! - no over-acceptance: what the SDK accepts, the canonical schema (the
//!   `jsonschema` crate on `schemas/`) accepts too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mplp_core::schema::SchemaKind;

fuzz_target!(|data: &[u8]| {
    let value: Option<serde_json::Value> = serde_json::from_slice(data).ok();
    for kind in mplp_check::KINDS.iter().filter(|k| !k.is_log()) {
        let report = kind.validate(data);
        let Some(parsed) = kind.round_trip(data) else {
            continue;
        };
        assert_eq!(
            parsed.is_ok(),
            report.is_valid(),
            "{}: typed parse {:?} but verdict {:?}",
            kind.name,
            parsed.as_ref().err(),
            report.violations()
        );
        if let Ok(text) = parsed {
            let again = kind.round_trip(text.as_bytes());
            assert_eq!(
                again.as_ref().map(|r| r.as_ref().ok()),
                Some(Some(&text)),
                "{}: round trip not stable",
                kind.name
            );
            let schema = match kind.name {
                "event" => value.as_ref().map(SchemaKind::event_for),
                name => SchemaKind::from_name(name),
            };
            if let (Some(schema), Some(value)) = (schema, &value) {
                assert!(
                    mplp_core::schema::is_valid(schema, value),
                    "{}: accepted by the SDK, refused by the schema: {:?}",
                    kind.name,
                    mplp_core::schema::validate(schema, value).violations()
                );
            }
        }
    }
});

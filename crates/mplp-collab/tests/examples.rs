//! The shared schema examples: valid ones parse and round-trip, invalid ones
//! report the pointer and rule of their `.expect.json` sidecar, and the
//! typed verdict agrees with the JSON Schema rendering (checks shared with
//! the other module crates: `tests/support/examples.rs`).
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

#[path = "../../../tests/support/examples.rs"]
mod support;

use mplp_collab::Collab;
use mplp_core::schema::SchemaKind;

#[test]
fn valid_examples_parse_without_warnings_and_round_trip() {
    support::valid_examples_parse_without_warnings_and_round_trip::<Collab>(
        "collab-",
        SchemaKind::Collab,
        6,
    );
}

#[test]
fn invalid_examples_report_their_pointer_and_rule() {
    support::invalid_examples_report_their_pointer_and_rule::<Collab>(
        "collab-",
        SchemaKind::Collab,
        8,
    );
}

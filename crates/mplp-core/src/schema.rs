//! The canonical schemas (our rendering), embedded, and validation of a
//! `serde_json::Value` against them with the `jsonschema` crate.
//!
//! (Filled in by the schema-check work.)

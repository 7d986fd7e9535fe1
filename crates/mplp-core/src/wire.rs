//! The [`Wire`] trait: what `#[derive(Wire)]` knows about an MPLP object.
//!
//! Every MPLP wire object (documents, nested objects, event payloads) is
//! declared once, as a Rust struct with `#[derive(Wire)]`; the derive
//! writes serde, the all-errors [`CheckValue`](crate::CheckValue) pass, the
//! JSON Schema description (feature `schemars`) and this trait from that
//! one declaration. See the [`mplp_derive`] crate for the attributes.
//!
//! ```
//! use mplp_core::{Meta, Wire};
//! assert_eq!(Meta::NAME, "Meta");
//! assert_eq!(&Meta::FIELDS[..2], ["protocol_version", "schema_version"]);
//! assert_eq!(Meta::REQUIRED, ["protocol_version", "schema_version"]);
//!
//! // Objects only: serde's own derive would read `[..]` as the field values.
//! assert!(serde_json::from_str::<Meta>(r#"["1.0.0", "1.0.0"]"#).is_err());
//! ```

/// An MPLP object declared with `#[derive(Wire)]`.
pub trait Wire: Sized {
    /// The Rust name of the object (used in messages).
    const NAME: &'static str;
    /// Every member name the object declares, in declaration (and writing) order.
    const FIELDS: &'static [&'static str];
    /// The members that must be present.
    const REQUIRED: &'static [&'static str];

    /// Reads the object with its schema rules only: for a document, the
    /// module's semantic rules do not run (the public `Deserialize` runs
    /// them). [`Document::validate_json`](crate::Document::validate_json)
    /// uses this, then runs the rules itself so that it can report their
    /// warnings too.
    fn deserialize_unchecked<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
}

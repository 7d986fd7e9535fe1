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

/// A payload whose type a sibling member names (MAP and SA events: the
/// `payload` member is read as the type `event_type` says), declared on the
/// envelope with `#[wire(tag = "event_type")]` and `#[wire(tagged)]` on the
/// payload field. The envelope keeps no separate tag field: the tag is read
/// from the payload ([`Tagged::tag`]), so the two can never disagree.
pub trait Tagged: Sized {
    /// The tag member's type (an event type enum).
    type Tag: Copy + serde::Serialize + for<'de> serde::Deserialize<'de>;

    /// The tag this payload belongs to.
    fn tag(&self) -> Self::Tag;

    /// Whether the envelope has a payload member (some tags allow none).
    fn is_present(&self) -> bool;

    /// Reads the payload of `tag`.
    fn deserialize_tagged<'de, D: serde::Deserializer<'de>>(
        tag: Self::Tag,
        d: D,
    ) -> Result<Self, D::Error>;

    /// The payload of `tag` when the member is absent, or the error saying
    /// that `tag` needs one.
    fn absent<E: serde::de::Error>(tag: Self::Tag) -> Result<Self, E>;

    /// The all-errors check of the tag member's value.
    fn check_tag(value: &serde_json::Value, at: &crate::Pointer, report: &mut crate::Report);

    /// The all-errors check of the payload member's value, whatever the tag.
    fn check_member(value: &serde_json::Value, at: &crate::Pointer, report: &mut crate::Report);

    /// The all-errors check of the payload (or its absence) against the tag
    /// (`object_at` is the envelope's pointer).
    fn check_payload(
        tag: &serde_json::Value,
        payload: Option<&serde_json::Value>,
        object_at: &crate::Pointer,
        report: &mut crate::Report,
    );
}

/// The payload member of an envelope being read: typed when the tag came
/// first, else kept as a value until the tag is known. (Used by the code
/// `#[derive(Wire)]` writes.)
#[doc(hidden)]
pub enum TaggedSlot<P> {
    /// Not seen (yet).
    Empty,
    /// Read with the tag's type.
    Typed(P),
    /// Seen before the tag.
    Early(serde_json::Value),
}

struct TaggedSeed<P: Tagged>(P::Tag);

impl<'de, P: Tagged> serde::de::DeserializeSeed<'de> for TaggedSeed<P> {
    type Value = P;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<P, D::Error> {
        P::deserialize_tagged(self.0, d)
    }
}

impl<P: Tagged> TaggedSlot<P> {
    /// Reads the member `name`; a second occurrence is a duplicate.
    pub fn read<'de, A: serde::de::MapAccess<'de>>(
        &mut self,
        map: &mut A,
        tag: Option<P::Tag>,
        name: &str,
    ) -> Result<(), A::Error> {
        if !matches!(self, TaggedSlot::Empty) {
            return Err(crate::de::duplicate_member(name));
        }
        *self = match tag {
            Some(tag) => TaggedSlot::Typed(map.next_value_seed(TaggedSeed::<P>(tag))?),
            None => TaggedSlot::Early(map.next_value::<crate::StrictValue>()?.0),
        };
        Ok(())
    }

    /// The payload once the whole envelope is read.
    pub fn finish<E: serde::de::Error>(self, tag: P::Tag) -> Result<P, E> {
        match self {
            TaggedSlot::Typed(p) => Ok(p),
            TaggedSlot::Early(v) => P::deserialize_tagged(tag, v).map_err(E::custom),
            TaggedSlot::Empty => P::absent(tag),
        }
    }
}

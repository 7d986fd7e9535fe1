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

pub use mplp_json::Wire;

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

    /// [`Tagged::deserialize_tagged`] by the fast reader: the same
    /// payload, or `GaveUp` where that fails. The default reads with serde
    /// on the same reader; mplp-events' payload enums read each variant's
    /// payload with its direct read (`mplp_json::fast::Direct`).
    #[doc(hidden)]
    #[inline]
    fn read_fast(
        tag: Self::Tag,
        r: &mut mplp_json::fast::Reader<'_>,
    ) -> Result<Self, mplp_json::fast::GaveUp> {
        Self::deserialize_tagged(tag, r)
    }

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
    /// Seen before the tag (with its exact numbers).
    Early(mplp_json::exact::ExactValue),
}

struct TaggedSeed<P: Tagged>(P::Tag);

impl<'de, P: Tagged> serde::de::DeserializeSeed<'de> for TaggedSeed<P> {
    type Value = P;
    #[inline]
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<P, D::Error> {
        P::deserialize_tagged(self.0, d)
    }
}

impl<P: Tagged> TaggedSlot<P> {
    /// Reads the member `name`; a second occurrence is a duplicate.
    #[inline]
    pub fn read<'de, A: serde::de::MapAccess<'de>>(
        &mut self,
        map: &mut A,
        tag: Option<P::Tag>,
        name: &str,
    ) -> Result<(), A::Error> {
        if !matches!(self, TaggedSlot::Empty) {
            return Err(mplp_json::de::duplicate_member(name));
        }
        *self = match tag {
            Some(tag) => TaggedSlot::Typed(map.next_value_seed(TaggedSeed::<P>(tag))?),
            None => TaggedSlot::Early(map.next_value::<mplp_json::exact::ExactValue>()?),
        };
        Ok(())
    }

    /// [`TaggedSlot::read`] by the fast reader: the payload read with
    /// [`Tagged::read_fast`] when the tag came first.
    #[inline]
    pub fn read_fast(
        &mut self,
        r: &mut mplp_json::fast::Reader<'_>,
        tag: Option<P::Tag>,
    ) -> Result<(), mplp_json::fast::GaveUp> {
        if !matches!(self, TaggedSlot::Empty) {
            return Err(mplp_json::fast::GaveUp);
        }
        let read = match tag {
            Some(tag) => TaggedSlot::Typed(P::read_fast(tag, r)?),
            None => TaggedSlot::Early(serde::Deserialize::deserialize(r)?),
        };
        // The slot is `Empty` (checked above), which owns nothing: it is
        // replaced without a drop. An assignment called the slot's
        // `drop_in_place` each time (some 20 instructions a line,
        // callgrind).
        std::mem::forget(std::mem::replace(self, read));
        Ok(())
    }

    /// [`TaggedSlot::finish`] in place, for the fast reader's direct read:
    /// afterwards the slot is `Typed` (or the error is returned). The
    /// direct read then moves the payload into the envelope from the slot
    /// alone (see mplp-derive's `build_value`).
    #[inline]
    pub fn settle<E: serde::de::Error>(&mut self, tag: P::Tag) -> Result<(), E> {
        if matches!(self, TaggedSlot::Typed(_)) {
            return Ok(());
        }
        self.settle_other(tag)
    }

    /// [`TaggedSlot::settle`] of a payload seen before its tag, or absent.
    /// Not `#[cold]`: a fifth of the lines of an SA log have no payload.
    /// An absent payload is written into the slot as it is read (the slot
    /// is `Empty`, which owns nothing, so it is replaced without a drop):
    /// taking the slot out first and writing it back copied it twice
    /// (callgrind).
    #[inline(never)]
    fn settle_other<E: serde::de::Error>(&mut self, tag: P::Tag) -> Result<(), E> {
        if matches!(self, TaggedSlot::Empty) {
            let absent = TaggedSlot::Typed(P::absent(tag)?);
            std::mem::forget(std::mem::replace(self, absent));
            return Ok(());
        }
        let slot = std::mem::replace(self, TaggedSlot::Empty);
        *self = TaggedSlot::Typed(slot.finish(tag)?);
        Ok(())
    }

    /// The payload once the whole envelope is read.
    #[inline]
    pub fn finish<E: serde::de::Error>(self, tag: P::Tag) -> Result<P, E> {
        match self {
            TaggedSlot::Typed(p) => Ok(p),
            TaggedSlot::Early(v) => read_exact(v, ReadTagged::<P>(tag)),
            TaggedSlot::Empty => P::absent(tag),
        }
    }
}

/// Writes an object's members into a map that is already open: what a
/// [`Flattened`] body uses to write its members beside the envelope's.
/// `#[derive(Wire)]` implements it for every object (its `Serialize` opens
/// a map and calls this).
pub trait SerializeMembers {
    /// Writes the members, in declaration order.
    fn serialize_members<M: serde::ser::SerializeMap>(&self, map: &mut M) -> Result<(), M::Error>;
}

/// A body whose members sit beside the envelope's own (not under one
/// member), and whose shape a sibling tag member decides: the observability
/// event families (`event_family` picks `graph_id`, `update_kind`, ... at the
/// top level of the event) and the learning sample families
/// (`sample_family` picks the types of `input`, `state`, `output`, `meta`).
///
/// Declared on the envelope with `#[wire(tag = "...")]` and
/// `#[wire(tagged, flatten)]` on the body field; the envelope also needs a
/// `#[wire(extra)]` map (such envelopes are open objects). The derive reads
/// every member it does not declare into that map, then lets the body take
/// its members out of it ([`Flattened::take`]); what is left stays in the
/// map. As with [`Tagged`], the tag is read from the body, so the two cannot
/// disagree.
pub trait Flattened: Sized {
    /// The tag member's type.
    type Tag: Clone + serde::Serialize + for<'de> serde::Deserialize<'de>;

    /// The tag this body belongs to.
    fn tag(&self) -> Self::Tag;

    /// Whether `member` is one of this body's members (the envelope's extra
    /// map never writes such a member a second time).
    fn is_member(&self, member: &str) -> bool;

    /// Takes the members of `tag`'s body out of `extra` and reads the body.
    fn take<E: serde::de::Error>(tag: Self::Tag, extra: &mut crate::JsonObject) -> Result<Self, E>;

    /// Writes the body's members into the envelope's map.
    fn serialize_members<M: serde::ser::SerializeMap>(&self, map: &mut M) -> Result<(), M::Error>;

    /// The all-errors check of the tag member's value.
    fn check_tag(value: &serde_json::Value, at: &crate::Pointer, report: &mut crate::Report);

    /// The all-errors check of the body's members of the envelope `object`
    /// (at `at`), given the tag member's value (`None` when it is absent).
    fn check_members(
        tag: Option<&serde_json::Value>,
        object: &serde_json::Value,
        at: &crate::Pointer,
        report: &mut crate::Report,
    );
}

/// The JSON Schema side of a [`Flattened`] body (feature `schemars`): the
/// members every tag has, and one `if {tag: const V} then {...}` branch per
/// tag value with members of its own.
#[cfg(feature = "schemars")]
pub trait FlattenedSchema {
    /// Adds the members every body has to the envelope's `properties` and
    /// `required`, and the per-tag branches to `all_of`.
    fn extend_schema(
        generator: &mut schemars::SchemaGenerator,
        properties: &mut serde_json::Map<String, serde_json::Value>,
        required: &mut Vec<serde_json::Value>,
        all_of: &mut Vec<serde_json::Value>,
    );
}

/// The members `names` of `extra`, taken out of it (absent ones skipped),
/// as one object: what a [`Flattened`] body reads. Numbers the map holds
/// only as stand-ins (see [`mplp_json::exact`]) lose their exact text: a body
/// read with [`take_members_exact`] and [`read_exact`] keeps it.
pub fn take_members(extra: &mut crate::JsonObject, names: &[&str]) -> serde_json::Value {
    take_members_exact(extra, names).into_value()
}

/// [`take_members`], keeping the exact text of the members' numbers.
pub fn take_members_exact(
    extra: &mut crate::JsonObject,
    names: &[&str],
) -> mplp_json::exact::ExactValue {
    let mut out = crate::JsonObject::new();
    for name in names {
        if let Some(v) = extra.remove_exact(name) {
            out.insert_exact((*name).to_owned(), v);
        }
    }
    out.into_exact()
}

/// How a value taken from a larger one is read (by [`read_exact`]).
pub trait ReadWith<T> {
    /// Reads `T` from `d`.
    fn read<'de, D: serde::Deserializer<'de>>(self, d: D) -> Result<T, D::Error>;
}

/// Reads a [`Wire`] object with its schema rules only
/// ([`Wire::deserialize_unchecked`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Unchecked;

impl<T: Wire> ReadWith<T> for Unchecked {
    fn read<'de, D: serde::Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::deserialize_unchecked(d)
    }
}

struct ReadTagged<P: Tagged>(P::Tag);

impl<P: Tagged> ReadWith<P> for ReadTagged<P> {
    fn read<'de, D: serde::Deserializer<'de>>(self, d: D) -> Result<P, D::Error> {
        P::deserialize_tagged(self.0, d)
    }
}

/// Reads a value taken from a larger one: from its `serde_json::Value`
/// when that holds every number exactly, else from its JSON text, so that
/// free-form members inside keep their exact numbers (see [`mplp_json::exact`]).
///
/// # Errors
/// The error of reading, as `E`.
pub fn read_exact<T, E: serde::de::Error>(
    v: mplp_json::exact::ExactValue,
    with: impl ReadWith<T>,
) -> Result<T, E> {
    if v.is_plain() {
        return with.read(v.into_value()).map_err(E::custom);
    }
    let text = serde_json::to_string(&v).map_err(E::custom)?;
    let mut de = serde_json::Deserializer::from_str(&text);
    with.read(&mut de)
        .map_err(|e| E::custom(mplp_json::exact::message_of(&e)))
}

/// The members `names` of the object `value` (a copy): what a
/// [`Flattened`] body checks.
pub fn pick_members(value: &serde_json::Value, names: &[&str]) -> serde_json::Value {
    let mut out = serde_json::Map::new();
    if let Some(o) = value.as_object() {
        for name in names {
            if let Some(v) = o.get(*name) {
                out.insert((*name).to_owned(), v.clone());
            }
        }
    }
    serde_json::Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A flattened body's members: `pick_members` copies the named ones
    /// that are present, `take_members` moves them out of the extra members.
    #[test]
    fn members_are_picked_and_taken_by_name() {
        let v = json!({"a": 1, "b": [true], "c": "x"});
        assert_eq!(
            pick_members(&v, &["a", "c", "z"]),
            json!({"a": 1, "c": "x"})
        );
        assert_eq!(pick_members(&json!([1]), &["a"]), json!({}));
        let mut extra = crate::JsonObject::try_from(v).unwrap();
        assert_eq!(take_members(&mut extra, &["b", "z"]), json!({"b": [true]}));
        assert_eq!(
            serde_json::Value::from(extra.clone()),
            json!({"a": 1, "c": "x"})
        );
        let exact = take_members_exact(&mut extra, &["a"]);
        assert_eq!(exact.into_value(), json!({"a": 1}));
        assert_eq!(serde_json::Value::from(extra), json!({"c": "x"}));
    }
}

//! [`Wire`]: what `#[derive(Wire)]` (crate `mplp-derive`, re-exported by
//! `mplp-core`) tells the engine about an object. The derive writes it with
//! serde, the all-errors check and the JSON Schema of the object from one
//! declaration; mplp-core's `wire` module holds the rest of the derive's
//! contract (tagged payloads, flattened bodies).

/// An MPLP object declared with `#[derive(Wire)]`.
pub trait Wire: Sized {
    /// The Rust name of the object (used in messages).
    const NAME: &'static str;
    /// Every member name the object declares, in declaration (and writing) order.
    const FIELDS: &'static [&'static str];
    /// The members that must be present.
    const REQUIRED: &'static [&'static str];
    /// Whether the object takes members it does not declare (an
    /// `#[wire(extra)]` map). When false, a successful
    /// [`Wire::deserialize_unchecked`] proves that every member of the input
    /// is one of [`Wire::FIELDS`]. The default (`true`) claims nothing.
    const OPEN: bool = true;

    /// Reads the object with its schema rules only: for a document, the
    /// module's semantic rules do not run (the public `Deserialize` runs
    /// them). mplp-core's `Document::validate_json` uses this, then runs the
    /// rules itself so that it can report their warnings too; the fast
    /// reader ([`crate::fast`]) reads with it.
    fn deserialize_unchecked<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error>;

    /// [`Wire::deserialize_unchecked`] by the fast reader ([`crate::fast`]):
    /// the same value, or [`GaveUp`](crate::fast::GaveUp) where that fails.
    /// `#[derive(Wire)]` writes it as a [`Direct`](crate::fast::Direct)
    /// read (no serde calls); the default reads with
    /// `deserialize_unchecked` on the same reader.
    #[doc(hidden)]
    #[inline]
    fn read_fast(r: &mut crate::fast::Reader<'_>) -> Result<Self, crate::fast::GaveUp> {
        Self::deserialize_unchecked(r)
    }
}

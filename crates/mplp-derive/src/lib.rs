//! `#[derive(Wire)]`: one declaration per MPLP wire object.
//!
//! Every MPLP object (documents, nested objects, event payloads) is a Rust
//! struct with named fields, declared once. This derive reads that one
//! declaration and writes everything else that used to be written by hand
//! beside it:
//!
//! - `serde::Serialize`: members in declaration order; an `Option<T>` that is
//!   `None` is left out; `Option<Option<T>>` writes `null` for `Some(None)`;
//!   an `#[wire(extra)]` map is written after the typed members.
//! - `serde::Deserialize`: JSON **objects only** (an array of field values,
//!   which serde's own derive accepts, is refused); unknown members refused
//!   with a near-miss suggestion (or kept in the `#[wire(extra)]` map);
//!   a member named twice refused; `null` refused for an `Option<T>` member
//!   (the MPLP schemas never allow it) and kept apart from absence for an
//!   `Option<Option<T>>` member. For a type marked `#[wire(document)]` the
//!   module's semantic rules (`Document::check_rules`) run too, so
//!   *Deserialize means valid* through every serde format and when the
//!   document is embedded in a user's struct. Every error raised here
//!   carries its rule id (`mplp_json::de::raise`).
//! - `mplp_core::check::CheckValue`: the all-errors pass over a
//!   `serde_json::Value`, with a JSON pointer and a rule id per violation.
//! - `mplp_core::Wire`: the member list (`FIELDS`) and the rules-free
//!   deserializer that `Document::validate_json` uses before it runs the
//!   rules itself (so that it can report warnings too). It announces
//!   `FIELDS` to the fast reader (`mplp_json::fast::member_names`), and its
//!   member visitor also takes a name's index in `FIELDS` (`visit_u64`): the
//!   fast reader then matches member names byte for byte instead of reading
//!   and comparing strings. A member name JSON would have to escape is a
//!   compile error.
//! - `mplp_json::fast::Direct` and `Wire::read_fast`: the fast reader's
//!   direct read of the struct, the same members, checks and value as the
//!   map visitor without serde's visitor, `MapAccess` and seed calls
//!   (members by index, each value by its type's own direct read when it
//!   has one, else by its serde read on the same reader; a tagged payload
//!   by `Tagged::read_fast`). Any failure is `GaveUp`: serde_json then reads
//!   the input again, as for every other failure of the fast reader.
//! - `schemars::JsonSchema`, when the deriving crate's `schemars` feature is
//!   on: the object schema that `cargo xtask schema-check` compares with
//!   `schemas/`.
//!
//! # Attributes
//!
//! On the struct:
//! - `#[wire(crate = "path")]`: where `mplp_core` is (default `::mplp_core`;
//!   `crate` inside mplp-core itself).
//! - `#[wire(document)]`: a top-level document; `Deserialize` also runs
//!   `<Self as Document>::check_rules` and fails on the first error.
//!
//! On a field:
//! - `#[wire(rename = "name")]`: the member name when it is not the field name.
//! - `#[wire(extra)]`: a `JsonObject` that keeps every member not declared
//!   (the schema's object is open there).
//! - `#[wire(default)]`: the member may be absent (the field is then
//!   `Default::default()`); it is always written.
//! - `#[wire(tagged)]` (with `#[wire(tag = "member")]` on the struct): a
//!   `mplp_core::wire::Tagged` payload whose type the tag member names.
//! - `#[wire(tagged, flatten)]` (with `#[wire(tag = "member")]` and an
//!   `#[wire(extra)]` map): a `mplp_core::wire::Flattened` body whose
//!   members sit beside the struct's own, typed by the tag member (the
//!   observability event families, the learning sample families). Members
//!   the struct does not declare are read into the extra map; the body takes
//!   its own out of it.
//! - `#[wire(check = "path")]`: check the member's value with
//!   `fn(&Value, &Pointer, &mut Report)` instead of the field type's
//!   `CheckValue` (for a rule the type does not carry by itself).
//! - `#[wire(skip)]`: not a member at all: state the type derives from its
//!   members (a cache, an index). It is never written, never read (an input
//!   member of that name is unknown like any other), not in `FIELDS` nor in
//!   the schema; `Deserialize` sets it to `Default::default()`. Its type
//!   should compare equal, hash and print the same whatever it holds, so
//!   that the type's `PartialEq`, `Hash` and `Debug` stay those of its
//!   members (see `mplp_plan`'s lifecycle index for an example). Goes with
//!   no other field attribute.
//!
//! # Why a proc-macro
//!
//! A `macro_rules!` macro can stamp out impls, but it cannot tell
//! `Option<T>` from `Option<Option<T>>` from `T` without a different
//! syntax per case, cannot read `#[doc]`-commented fields with attributes in
//! any order, and gives poor errors; serde's own derive cannot be told to
//! refuse arrays or to carry rule ids. The derive keeps the declaration
//! plain Rust (field types, visibility, doc comments) and generates the rest.
//! It depends only on `syn`, `quote` and `proc-macro2`, which serde's derive
//! already brings into every build.
//!
//! # Layout
//! `parse` reads the struct and its attributes into a model and reports
//! every error the derive has (at the span it is about, saying what is
//! expected); `expand` writes the impls from the model, one function per
//! impl, and reports none. `tests/ui` holds those errors as rustc prints
//! them (trybuild).

use proc_macro::TokenStream;
use syn::DeriveInput;

mod expand;
mod parse;

/// Derives serde, `CheckValue`, `Wire` and (with the `schemars` feature of
/// the deriving crate) `JsonSchema` from one struct declaration. See the
/// crate documentation for the attributes.
#[proc_macro_derive(Wire, attributes(wire))]
pub fn derive_wire(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as DeriveInput);
    match parse::parse(&input) {
        Ok(model) => expand::expand(&model).into(),
        Err(e) => e.to_compile_error().into(),
    }
}

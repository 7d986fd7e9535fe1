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
//!   carries its rule id (`mplp_core::de::raise`).
//! - `mplp_core::check::CheckValue`: the all-errors pass over a
//!   `serde_json::Value`, with a JSON pointer and a rule id per violation.
//! - `mplp_core::Wire`: the member list (`FIELDS`) and the rules-free
//!   deserializer that `Document::validate_json` uses before it runs the
//!   rules itself (so that it can report warnings too). It announces
//!   `FIELDS` to the fast reader (`mplp_core::fast::member_names`), and its
//!   member visitor also takes a name's index in `FIELDS` (`visit_u64`): the
//!   fast reader then matches member names byte for byte instead of reading
//!   and comparing strings. A member name JSON would have to escape is a
//!   compile error.
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

use proc_macro::TokenStream;
use proc_macro2::TokenStream as TokenStream2;
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields, GenericArgument, LitStr, Path, PathArguments, Type};

/// Derives serde, `CheckValue`, `Wire` and (with the `schemars` feature of
/// the deriving crate) `JsonSchema` from one struct declaration. See the
/// crate documentation for the attributes.
#[proc_macro_derive(Wire, attributes(wire))]
pub fn derive_wire(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as DeriveInput);
    match expand(&input) {
        Ok(ts) => ts.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

enum Kind {
    /// `T`: the member must be present.
    Required,
    /// `Option<T>`: absent or a value (never `null`).
    Optional(Type),
    /// `Option<Option<T>>`: absent, `null` or a value.
    Nullable(Type),
    /// `#[wire(extra)]`: every undeclared member.
    Extra,
    /// `#[wire(default)]`: may be absent (then `Default::default()`), always written.
    Default,
    /// `#[wire(tagged)]`: a `Tagged` payload whose type the container's tag decides.
    Tagged,
    /// `#[wire(tagged, flatten)]`: a `Flattened` body whose members sit
    /// beside the envelope's, typed by the container's tag.
    Flat,
    /// `#[wire(skip)]`: not a member; `Default::default()` when read.
    Skip,
}

struct Field {
    ident: syn::Ident,
    name: String,
    ty: Type,
    kind: Kind,
    check: Option<Path>,
}

struct Container {
    krate: Path,
    document: bool,
    /// `tag = "event_type"`: the member that names the tagged payload's type.
    tag: Option<String>,
    /// `tag_after = "event_id"`: the member the tag is written after.
    tag_after: Option<String>,
    /// `unknown_hint = "path"`: `fn(&str) -> Option<&'static str>`, a
    /// message for particular unknown members.
    unknown_hint: Option<Path>,
}

fn option_inner(ty: &Type) -> Option<&Type> {
    // A type passed through a `macro_rules!` `$t:ty` arrives wrapped in an
    // invisible group: look inside it.
    if let Type::Group(g) = ty {
        return option_inner(&g.elem);
    }
    let Type::Path(p) = ty else { return None };
    if p.qself.is_some() {
        return None;
    }
    let seg = p.path.segments.last()?;
    if seg.ident != "Option" {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &seg.arguments else {
        return None;
    };
    match args.args.first() {
        Some(GenericArgument::Type(t)) if args.args.len() == 1 => Some(t),
        _ => None,
    }
}

/// True for a primitive integer type (`u64`, `i64`, ...), which is read with
/// `mplp_core::de::Integer` so that its verdicts and messages are the
/// thorough pass's (`-0` is 0; a number beyond the range names the range).
fn is_integer(ty: &Type) -> bool {
    if let Type::Group(g) = ty {
        return is_integer(&g.elem);
    }
    let Type::Path(p) = ty else { return false };
    p.qself.is_none()
        && p.path.segments.len() == 1
        && p.path.segments[0].arguments.is_none()
        && [
            "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64",
        ]
        .iter()
        .any(|name| p.path.segments[0].ident == name)
}

/// The element type of `Vec<T>` (also written `std::vec::Vec<T>` or
/// `alloc::vec::Vec<T>`), read through `mplp_core::de::List`.
fn vec_element(ty: &Type) -> Option<&Type> {
    if let Type::Group(g) = ty {
        return vec_element(&g.elem);
    }
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if p.qself.is_some() || last.ident != "Vec" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    // (`Vec<T, A>`, with an allocator, is unstable Rust: no wire type has one.)
    match args.args.first() {
        Some(syn::GenericArgument::Type(elem)) => Some(elem),
        _ => None,
    }
}

fn container_attrs(input: &DeriveInput) -> syn::Result<Container> {
    let mut c = Container {
        krate: syn::parse_quote!(::mplp_core),
        document: false,
        tag: None,
        tag_after: None,
        unknown_hint: None,
    };
    for attr in &input.attrs {
        if !attr.path().is_ident("wire") {
            continue;
        }
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                let s: LitStr = meta.value()?.parse()?;
                c.krate = s.parse()?;
                Ok(())
            } else if meta.path.is_ident("document") {
                c.document = true;
                Ok(())
            } else if meta.path.is_ident("tag") {
                let s: LitStr = meta.value()?.parse()?;
                c.tag = Some(s.value());
                Ok(())
            } else if meta.path.is_ident("tag_after") {
                let s: LitStr = meta.value()?.parse()?;
                c.tag_after = Some(s.value());
                Ok(())
            } else if meta.path.is_ident("unknown_hint") {
                let s: LitStr = meta.value()?.parse()?;
                c.unknown_hint = Some(s.parse()?);
                Ok(())
            } else {
                Err(meta.error(
                    "unknown `wire` attribute (expected `crate`, `document`, `tag`, `tag_after` or `unknown_hint`)",
                ))
            }
        })?;
    }
    Ok(c)
}

fn fields(input: &DeriveInput) -> syn::Result<Vec<Field>> {
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "`Wire` is derived for structs with named fields only",
        ));
    };
    let Fields::Named(named) = &data.fields else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "`Wire` is derived for structs with named fields only",
        ));
    };
    let mut out = Vec::new();
    let mut extra_seen = false;
    for f in &named.named {
        let Some(ident) = f.ident.clone() else {
            continue;
        };
        let mut name = ident.to_string();
        let mut extra = false;
        let mut default = false;
        let mut tagged = false;
        let mut flatten = false;
        let mut skip = false;
        let mut check = None;
        for attr in &f.attrs {
            if !attr.path().is_ident("wire") {
                continue;
            }
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename") {
                    let s: LitStr = meta.value()?.parse()?;
                    name = s.value();
                    Ok(())
                } else if meta.path.is_ident("extra") {
                    extra = true;
                    Ok(())
                } else if meta.path.is_ident("default") {
                    default = true;
                    Ok(())
                } else if meta.path.is_ident("tagged") {
                    tagged = true;
                    Ok(())
                } else if meta.path.is_ident("flatten") {
                    flatten = true;
                    Ok(())
                } else if meta.path.is_ident("skip") {
                    skip = true;
                    Ok(())
                } else if meta.path.is_ident("check") {
                    let s: LitStr = meta.value()?.parse()?;
                    check = Some(s.parse()?);
                    Ok(())
                } else {
                    Err(meta.error(
                        "unknown `wire` attribute (expected `rename`, `extra`, `default`, `tagged`, `flatten`, `check` or `skip`)",
                    ))
                }
            })?;
        }
        let kind = if skip {
            let plain = ident == name;
            if extra || default || tagged || flatten || check.is_some() || !plain {
                return Err(syn::Error::new_spanned(
                    &ident,
                    "`#[wire(skip)]` is not a member: it goes with no other `wire` attribute",
                ));
            }
            Kind::Skip
        } else if extra {
            if extra_seen {
                return Err(syn::Error::new_spanned(
                    &ident,
                    "only one `#[wire(extra)]` field",
                ));
            }
            extra_seen = true;
            Kind::Extra
        } else if tagged && flatten {
            Kind::Flat
        } else if flatten {
            return Err(syn::Error::new_spanned(
                &ident,
                "`#[wire(flatten)]` goes with `tagged`: `#[wire(tagged, flatten)]`",
            ));
        } else if tagged {
            Kind::Tagged
        } else if default {
            Kind::Default
        } else if let Some(inner) = option_inner(&f.ty) {
            match option_inner(inner) {
                Some(inner2) => Kind::Nullable(inner2.clone()),
                None => Kind::Optional(inner.clone()),
            }
        } else {
            Kind::Required
        };
        out.push(Field {
            ident,
            name,
            ty: f.ty.clone(),
            kind,
            check,
        });
    }
    Ok(out)
}

fn expand(input: &DeriveInput) -> syn::Result<TokenStream2> {
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &input.generics,
            "`Wire` does not support generic types",
        ));
    }
    let c = container_attrs(input)?;
    let fields = fields(input)?;
    let krate = &c.krate;
    let name = &input.ident;
    let name_str = name.to_string();
    let typed: Vec<&Field> = fields
        .iter()
        .filter(|f| !matches!(f.kind, Kind::Extra | Kind::Flat | Kind::Skip))
        .collect();
    let extra = fields.iter().find(|f| matches!(f.kind, Kind::Extra));
    let tagged = fields
        .iter()
        .find(|f| matches!(f.kind, Kind::Tagged | Kind::Flat));
    let flat = tagged.is_some_and(|f| matches!(f.kind, Kind::Flat));
    if flat && extra.is_none() {
        return Err(syn::Error::new_spanned(
            name,
            "a `#[wire(tagged, flatten)]` body needs a `#[wire(extra)]` map beside it",
        ));
    }
    let tag_trait = if flat {
        quote! { #krate::wire::Flattened }
    } else {
        quote! { #krate::wire::Tagged }
    };
    let tag = match (&c.tag, tagged) {
        (Some(t), Some(f)) => Some((t.clone(), f)),
        (None, None) => None,
        _ => {
            return Err(syn::Error::new_spanned(
                name,
                "`#[wire(tag = ..)]` and one `#[wire(tagged)]` field go together",
            ));
        }
    };

    if let Some(after) = &c.tag_after {
        if !typed.iter().any(|f| &f.name == after) {
            return Err(syn::Error::new_spanned(
                name,
                format!("`tag_after = \"{after}\"` names no member of this struct"),
            ));
        }
    }

    // Where the tag member is written: after `tag_after`, or first.
    let tag_before_all = tag.is_some() && c.tag_after.is_none();
    let tag_after_here =
        |f: &Field| tag.is_some() && c.tag_after.as_deref() == Some(f.name.as_str());

    // Member names (FIELDS) and required ones, in writing order, and the
    // `__Field` variant of each name (`visit_u64` reads FIELDS' indexes).
    let mut names: Vec<String> = Vec::new();
    let mut name_variants: Vec<TokenStream2> = Vec::new();
    let mut required_names: Vec<String> = Vec::new();
    if let (true, Some((t, _))) = (tag_before_all, &tag) {
        names.push(t.clone());
        name_variants.push(quote! { __Field::__tag });
        required_names.push(t.clone());
    }
    for (i, f) in typed.iter().enumerate() {
        names.push(f.name.clone());
        let v = format_ident!("__f{i}");
        name_variants.push(quote! { __Field::#v });
        if matches!(f.kind, Kind::Required) {
            required_names.push(f.name.clone());
        }
        if let (true, Some((t, _))) = (tag_after_here(f), &tag) {
            names.push(t.clone());
            name_variants.push(quote! { __Field::__tag });
            required_names.push(t.clone());
        }
    }
    // The fast reader matches member names byte for byte (see
    // `mplp_core::fast::member_names`): a name it could only read escaped is
    // refused here.
    if let Some(bad) = names
        .iter()
        .find(|n| n.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\'))
    {
        return Err(syn::Error::new_spanned(
            name,
            format!("member name {bad:?} needs escaping in JSON"),
        ));
    }
    let indexes = (0..name_variants.len() as u64).map(|i| quote! { #i });

    // ---------------------------------------------------------------- serde
    let field_variants: Vec<syn::Ident> =
        (0..typed.len()).map(|i| format_ident!("__f{i}")).collect();
    let slots: Vec<syn::Ident> = (0..typed.len()).map(|i| format_ident!("__s{i}")).collect();
    let tag_ty = tag.as_ref().map(|(_, f)| {
        let ty = &f.ty;
        quote! { <#ty as #tag_trait>::Tag }
    });

    let slot_decls = typed.iter().zip(&slots).map(|(f, s)| {
        let ty = &f.ty;
        match &f.kind {
            Kind::Required | Kind::Default => quote! { let mut #s: ::core::option::Option<#ty> = ::core::option::Option::None; },
            Kind::Tagged => quote! { let mut #s: #krate::wire::TaggedSlot<#ty> = #krate::wire::TaggedSlot::Empty; },
            // `Option<T>` and `Option<Option<T>>`: the slot is the field itself.
            _ => quote! { let mut #s: #ty = ::core::option::Option::None; },
        }
    });
    let tag_slot = tag_ty.as_ref().map(
        |t| quote! { let mut __tag: ::core::option::Option<#t> = ::core::option::Option::None; },
    );
    let match_arms = typed.iter().zip(&field_variants).zip(&slots).map(|((f, v), s)| {
        let member = &f.name;
        let read_as = |ty: &Type| {
            if is_integer(ty) {
                quote! { __map.next_value_seed(#krate::de::Integer::<#ty>::new())? }
            } else if let Some(elem) = vec_element(ty) {
                quote! { __map.next_value_seed(#krate::de::List::<#elem>::new())? }
            } else {
                quote! { __map.next_value::<#ty>()? }
            }
        };
        let read = match &f.kind {
            Kind::Required | Kind::Default => read_as(&f.ty),
            Kind::Optional(inner) => read_as(inner),
            Kind::Nullable(inner) => quote! { __map.next_value::<::core::option::Option<#inner>>()? },
            Kind::Extra | Kind::Tagged | Kind::Flat | Kind::Skip => quote! {},
        };
        if matches!(f.kind, Kind::Tagged) {
            return quote! {
                __Field::#v => #s.read(&mut __map, __tag, #member)?,
            };
        }
        quote! {
            __Field::#v => {
                if #s.is_some() {
                    return ::core::result::Result::Err(#krate::de::duplicate_member::<__A::Error>(#member));
                }
                #s = ::core::option::Option::Some(#read);
            }
        }
    });
    let tag_arm = tag.as_ref().map(|(t, _)| {
        quote! {
            __Field::__tag => {
                if __tag.is_some() {
                    return ::core::result::Result::Err(#krate::de::duplicate_member::<__A::Error>(#t));
                }
                __tag = ::core::option::Option::Some(__map.next_value()?);
            }
        }
    });
    let hint = c.unknown_hint.as_ref().map(|h| {
        quote! {
            if let ::core::option::Option::Some(__msg) = #h(&__name) {
                return ::core::result::Result::Err(#krate::de::raise::<__A::Error>(#krate::Rule::ADDITIONAL_PROPERTIES, __msg));
            }
        }
    });
    let other_arm = match extra {
        Some(_) => quote! {
            __Field::__other(__name) => {
                if __extra.contains_key(&__name) {
                    return ::core::result::Result::Err(#krate::de::duplicate_member::<__A::Error>(&__name));
                }
                let __v: #krate::exact::ExactValue = __map.next_value()?;
                __extra.insert_exact(__name, __v);
            }
        },
        None => quote! {
            __Field::__other(__name) => {
                #hint
                return ::core::result::Result::Err(#krate::de::unknown_member::<__A::Error>(&__name, __FIELDS));
            }
        },
    };
    let extra_decl = extra.map(|_| quote! { let mut __extra = #krate::JsonObject::new(); });
    let tag_finish = tag.as_ref().map(|(t, _)| {
        quote! {
            let __tag = match __tag {
                ::core::option::Option::Some(__t) => __t,
                ::core::option::Option::None => return ::core::result::Result::Err(#krate::de::missing_member::<__A::Error>(#t)),
            };
        }
    });
    let finish = fields.iter().map(|f| {
        let ident = &f.ident;
        let slot = || {
            let idx = typed.iter().position(|t| t.ident == f.ident).unwrap_or(0);
            slots[idx].clone()
        };
        match &f.kind {
            Kind::Extra => quote! { #ident: __extra },
            Kind::Skip => quote! { #ident: ::core::default::Default::default() },
            Kind::Required => {
                let s = slot();
                let member = &f.name;
                quote! {
                    #ident: match #s {
                        ::core::option::Option::Some(__v) => __v,
                        ::core::option::Option::None => return ::core::result::Result::Err(#krate::de::missing_member::<__A::Error>(#member)),
                    }
                }
            }
            Kind::Default => {
                let s = slot();
                quote! { #ident: #s.unwrap_or_default() }
            }
            Kind::Tagged => {
                let s = slot();
                quote! { #ident: #s.finish::<__A::Error>(__tag)? }
            }
            Kind::Flat => quote! { #ident: __flat_body },
            Kind::Optional(_) | Kind::Nullable(_) => {
                let s = slot();
                quote! { #ident: #s }
            }
        }
    });
    let flat_take = tagged.filter(|_| flat).map(|f| {
        let ty = &f.ty;
        quote! {
            let __flat_body = <#ty as #krate::wire::Flattened>::take::<__A::Error>(::core::clone::Clone::clone(&__tag), &mut __extra)?;
        }
    });
    let expecting = format!("a JSON object (an MPLP `{name_str}`)");
    let tag_match = tag.as_ref().map(|(t, _)| quote! { #t => __Field::__tag, });
    let tag_variant = tag.as_ref().map(|_| quote! { __tag, });
    let field_match = typed.iter().zip(&field_variants).map(|(f, v)| {
        let n = &f.name;
        quote! { #n => __Field::#v, }
    });

    // A document's `Deserialize` enforces its rules; any other type's is its
    // rules-free read, returned as it is (not taken out of its `Result` and
    // put back: that is a copy of the value).
    let read = if c.document {
        quote! {
            let __value = <Self as #krate::Wire>::deserialize_unchecked(__d)?;
            #krate::document::enforce_rules(&__value).map_err(<__D::Error as #krate::__private::serde::de::Error>::custom)?;
            ::core::result::Result::Ok(__value)
        }
    } else {
        quote! { <Self as #krate::Wire>::deserialize_unchecked(__d) }
    };

    // Serialize.
    let tag_entry = tag.as_ref().map(|(t, f)| {
        let ty = &f.ty;
        let ident = &f.ident;
        quote! { __s.serialize_entry(#t, &<#ty as #tag_trait>::tag(&self.#ident))?; }
    });
    let ser_body = {
        let first = if tag_before_all {
            tag_entry.clone()
        } else {
            None
        };
        let entries = fields.iter().filter(|f| !matches!(f.kind, Kind::Extra | Kind::Skip)).map(|f| {
            let ident = &f.ident;
            let member = &f.name;
            let entry = match &f.kind {
                Kind::Flat => {
                    let ty = &f.ty;
                    quote! { <#ty as #krate::wire::Flattened>::serialize_members(&self.#ident, __s)?; }
                }
                Kind::Required | Kind::Default => {
                    quote! { __s.serialize_entry(#member, &self.#ident)?; }
                }
                Kind::Optional(_) | Kind::Nullable(_) => quote! {
                    if let ::core::option::Option::Some(__v) = &self.#ident {
                        __s.serialize_entry(#member, __v)?;
                    }
                },
                Kind::Tagged => {
                    let ty = &f.ty;
                    quote! {
                        if <#ty as #krate::wire::Tagged>::is_present(&self.#ident) {
                            __s.serialize_entry(#member, &self.#ident)?;
                        }
                    }
                }
                Kind::Extra | Kind::Skip => quote! {},
            };
            let tag_here = if tag_after_here(f) {
                tag_entry.clone()
            } else {
                None
            };
            quote! { #entry #tag_here }
        });
        let flat_skip = tagged.filter(|_| flat).map(|f| {
            let ty = &f.ty;
            let ident = &f.ident;
            quote! { && !<#ty as #krate::wire::Flattened>::is_member(&self.#ident, __k.as_str()) }
        });
        let extra_entries = extra.map(|f| {
            let ident = &f.ident;
            quote! {
                for (__k, __v) in self.#ident.exact_members() {
                    if !__FIELDS.contains(&__k.as_str()) #flat_skip {
                        __s.serialize_entry(__k, &__v)?;
                    }
                }
            }
        });
        quote! {
            #first
            #(#entries)*
            #extra_entries
            ::core::result::Result::Ok(())
        }
    };

    // ---------------------------------------------------------------- check
    let tag_check = tag.as_ref().map(|(t, f)| {
        let ty = &f.ty;
        quote! { let __tag_v = __o.required_with(#t, <#ty as #tag_trait>::check_tag); }
    });
    let checks = typed.iter().map(|f| {
        let member = &f.name;
        let check = match (&f.kind, &f.check) {
            (Kind::Required, Some(p)) => quote! { let _ = __o.required_with(#member, #p); },
            (Kind::Required, None) => {
                let ty = &f.ty;
                quote! { let _ = __o.required::<#ty>(#member); }
            }
            (Kind::Default, None) => {
                let ty = &f.ty;
                quote! { let _ = __o.optional::<#ty>(#member); }
            }
            (Kind::Tagged, _) => {
                let ty = &f.ty;
                quote! { let __payload_v = __o.optional_with(#member, <#ty as #krate::wire::Tagged>::check_member); }
            }
            (Kind::Optional(_) | Kind::Nullable(_) | Kind::Default, Some(p)) => {
                quote! { let _ = __o.optional_with(#member, #p); }
            }
            (Kind::Optional(inner), None) => quote! { let _ = __o.optional::<#inner>(#member); },
            (Kind::Nullable(inner), None) => {
                quote! { let _ = __o.optional::<::core::option::Option<#inner>>(#member); }
            }
            (Kind::Extra | Kind::Flat | Kind::Skip, _) => quote! {},
        };
        let tag_here = if tag_after_here(f) { tag_check.clone() } else { None };
        quote! { #check #tag_here }
    });
    let first_check = if tag_before_all {
        tag_check.clone()
    } else {
        None
    };
    let finish_check = match (extra.is_some(), &c.unknown_hint) {
        (true, _) => quote! { __o.allow_unknown(); },
        (false, Some(h)) => quote! { __o.deny_unknown_with(#h); },
        (false, None) => quote! { __o.deny_unknown(); },
    };
    let payload_check = tag.as_ref().map(|(_, f)| {
        let ty = &f.ty;
        if flat {
            return quote! {
                <#ty as #krate::wire::Flattened>::check_members(__tag_v, __value, __at, __report);
            };
        }
        quote! {
            if let ::core::option::Option::Some(__t) = __tag_v {
                <#ty as #krate::wire::Tagged>::check_payload(__t, __payload_v, __at, __report);
            }
        }
    });

    // ------------------------------------------------------------- schemars
    let tag_prop = tag.as_ref().map(|(t, _)| {
        let tt = tag_ty.clone();
        quote! {
            __props.insert(::std::string::String::from(#t), __serde_json::Value::from(__gen.subschema_for::<#tt>()));
        }
    });
    let props = typed.iter().map(|f| {
        let member = &f.name;
        let ty = match &f.kind {
            Kind::Required | Kind::Default => {
                let ty = &f.ty;
                quote! { #ty }
            }
            Kind::Optional(inner) => quote! { #inner },
            Kind::Nullable(inner) => quote! { ::core::option::Option<#inner> },
            Kind::Tagged => quote! { #krate::JsonObject },
            Kind::Extra | Kind::Flat | Kind::Skip => quote! { () },
        };
        quote! {
            __props.insert(::std::string::String::from(#member), __serde_json::Value::from(__gen.subschema_for::<#ty>()));
        }
    });
    let additional = extra.is_none();
    let open = extra.is_some();
    let schema_id = format!("::{name_str}");
    let flat_schema = tagged.filter(|_| flat).map(|f| {
        let ty = &f.ty;
        quote! {
            <#ty as #krate::wire::FlattenedSchema>::extend_schema(__gen, &mut __props, &mut __required, &mut __all_of);
        }
    });

    Ok(quote! {
        const _: () = {
            use #krate::__private::serde as __serde;
            use #krate::__private::serde_json as __serde_json;

            const __FIELDS: &[&str] = &[#(#names),*];
            // The same names as the fast reader compares them.
            const __NAMES: &[#krate::fast::MemberName] = &[#(#krate::fast::MemberName::new(#names)),*];

            #[allow(non_camel_case_types)]
            enum __Field {
                #(#field_variants,)*
                #tag_variant
                __other(::std::string::String),
            }

            struct __FieldVisitor;

            impl<'de> __serde::de::Visitor<'de> for __FieldVisitor {
                type Value = __Field;
                fn expecting(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    __f.write_str("a member name")
                }
                // The index of a name in FIELDS: how the fast reader hands
                // over a member name it matched byte for byte.
                fn visit_u64<__E: __serde::de::Error>(self, __i: u64) -> ::core::result::Result<__Field, __E> {
                    ::core::result::Result::Ok(match __i {
                        #(#indexes => #name_variants,)*
                        _ => return ::core::result::Result::Err(__E::invalid_value(__serde::de::Unexpected::Unsigned(__i), &self)),
                    })
                }
                fn visit_str<__E: __serde::de::Error>(self, __v: &str) -> ::core::result::Result<__Field, __E> {
                    ::core::result::Result::Ok(match __v {
                        #(#field_match)*
                        #tag_match
                        __other => __Field::__other(::std::string::String::from(__other)),
                    })
                }
            }

            impl<'de> __serde::Deserialize<'de> for __Field {
                #[inline]
                fn deserialize<__D: __serde::Deserializer<'de>>(__d: __D) -> ::core::result::Result<Self, __D::Error> {
                    __d.deserialize_identifier(__FieldVisitor)
                }
            }

            struct __Visitor;

            impl<'de> __serde::de::Visitor<'de> for __Visitor {
                type Value = #name;
                fn expecting(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    __f.write_str(#expecting)
                }
                fn visit_map<__A: __serde::de::MapAccess<'de>>(self, mut __map: __A) -> ::core::result::Result<#name, __A::Error> {
                    #tag_slot
                    #(#slot_decls)*
                    #extra_decl
                    while let ::core::option::Option::Some(__key) = __map.next_key::<__Field>()? {
                        match __key {
                            #(#match_arms)*
                            #tag_arm
                            #other_arm
                        }
                    }
                    #tag_finish
                    #flat_take
                    ::core::result::Result::Ok(#name {
                        #(#finish,)*
                    })
                }
            }

            impl #krate::Wire for #name {
                const NAME: &'static str = #name_str;
                const FIELDS: &'static [&'static str] = __FIELDS;
                const REQUIRED: &'static [&'static str] = &[#(#required_names),*];
                const OPEN: bool = #open;

                fn deserialize_unchecked<'de, __D: __serde::Deserializer<'de>>(__d: __D) -> ::core::result::Result<Self, __D::Error> {
                    // Cleared again when the guard drops, after the value
                    // has gone to the caller.
                    let _announced = #krate::fast::Announced::new(__NAMES);
                    __d.deserialize_map(__Visitor)
                }
            }

            impl<'de> __serde::Deserialize<'de> for #name {
                fn deserialize<__D: __serde::Deserializer<'de>>(__d: __D) -> ::core::result::Result<Self, __D::Error> {
                    #read
                }
            }

            impl #krate::wire::SerializeMembers for #name {
                fn serialize_members<__M: __serde::ser::SerializeMap>(&self, __s: &mut __M) -> ::core::result::Result<(), __M::Error> {
                    #ser_body
                }
            }

            impl __serde::Serialize for #name {
                fn serialize<__S: __serde::Serializer>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    use __serde::ser::SerializeMap as _;
                    let mut __s = __serializer.serialize_map(::core::option::Option::None)?;
                    <Self as #krate::wire::SerializeMembers>::serialize_members(self, &mut __s)?;
                    __s.end()
                }
            }

            impl #krate::check::CheckValue for #name {
                fn check_value(__value: &__serde_json::Value, __at: &#krate::Pointer, __report: &mut #krate::Report) {
                    let ::core::option::Option::Some(mut __o) = #krate::check::ObjectCheck::new(__value, __at, __report) else {
                        return;
                    };
                    #first_check
                    #(#checks)*
                    #finish_check
                    #payload_check
                }
            }

            #[cfg(feature = "schemars")]
            impl #krate::__private::schemars::JsonSchema for #name {
                fn schema_name() -> ::std::borrow::Cow<'static, str> {
                    ::std::borrow::Cow::Borrowed(#name_str)
                }
                fn schema_id() -> ::std::borrow::Cow<'static, str> {
                    ::std::borrow::Cow::Owned(::std::format!("{}{}", ::core::module_path!(), #schema_id))
                }
                fn json_schema(__gen: &mut #krate::__private::schemars::SchemaGenerator) -> #krate::__private::schemars::Schema {
                    let mut __props = __serde_json::Map::new();
                    #tag_prop
                    #(#props)*
                    #[allow(unused_mut)]
                    let mut __required: ::std::vec::Vec<__serde_json::Value> = ::std::vec![#(__serde_json::Value::from(#required_names)),*];
                    #[allow(unused_mut)]
                    let mut __all_of: ::std::vec::Vec<__serde_json::Value> = ::std::vec::Vec::new();
                    #flat_schema
                    let mut __m = __serde_json::Map::new();
                    __m.insert(::std::string::String::from("type"), __serde_json::Value::from("object"));
                    __m.insert(::std::string::String::from("properties"), __serde_json::Value::Object(__props));
                    __m.insert(::std::string::String::from("required"), __serde_json::Value::Array(__required));
                    if !__all_of.is_empty() {
                        __m.insert(::std::string::String::from("allOf"), __serde_json::Value::Array(__all_of));
                    }
                    if #additional {
                        __m.insert(::std::string::String::from("additionalProperties"), __serde_json::Value::Bool(false));
                    }
                    #krate::__private::schemars::Schema::from(__m)
                }
            }
        };
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    /// `ty` wrapped in the invisible group a `macro_rules!` `$t:ty` makes.
    fn grouped(ty: Type) -> Type {
        Type::Group(syn::TypeGroup {
            group_token: Default::default(),
            elem: Box::new(ty),
        })
    }

    #[test]
    fn integers_are_the_primitive_types_by_their_plain_names() {
        let yes: Vec<Type> = vec![
            parse_quote!(u8),
            parse_quote!(u64),
            parse_quote!(usize),
            parse_quote!(i64),
            grouped(parse_quote!(u32)),
        ];
        for ty in yes {
            assert!(is_integer(&ty), "{}", quote!(#ty));
        }
        let no: Vec<Type> = vec![
            parse_quote!(f64),
            parse_quote!(String),
            parse_quote!(u128),
            parse_quote!(core::primitive::u64),
            parse_quote!(u64<T>),
            parse_quote!(<T as Tr>::u64),
            parse_quote!(Option<u64>),
            parse_quote!(&u64),
            grouped(parse_quote!(bool)),
        ];
        for ty in no {
            assert!(!is_integer(&ty), "{}", quote!(#ty));
        }
    }

    #[test]
    fn option_inner_is_the_one_type_argument_of_option() {
        let inner = |ty: Type| option_inner(&ty).map(|t| quote!(#t).to_string());
        assert_eq!(inner(parse_quote!(Option<u8>)).as_deref(), Some("u8"));
        assert_eq!(
            inner(parse_quote!(std::option::Option<Vec<u8>>)).as_deref(),
            Some("Vec < u8 >")
        );
        assert_eq!(
            inner(parse_quote!(Option<Option<u8>>)).as_deref(),
            Some("Option < u8 >")
        );
        assert_eq!(
            inner(grouped(parse_quote!(Option<u8>))).as_deref(),
            Some("u8")
        );
        for ty in [
            parse_quote!(Option<u8, u8>),
            parse_quote!(Option),
            parse_quote!(Option<'a>),
            parse_quote!(<T as Tr>::Option<u8>),
            parse_quote!(Vec<u8>),
            parse_quote!(&Option<u8>),
        ] {
            let shown = quote!(#ty).to_string();
            assert_eq!(inner(ty), None, "{shown}");
        }
    }

    #[test]
    fn tag_after_names_a_member() {
        let ok: DeriveInput = parse_quote! {
            #[wire(tag = "kind", tag_after = "a")]
            struct S { a: u8, b: u8, #[wire(tagged)] p: P }
        };
        assert!(expand(&ok).is_ok());
        let bad: DeriveInput = parse_quote! {
            #[wire(tag = "kind", tag_after = "nope")]
            struct S { a: u8, b: u8, #[wire(tagged)] p: P }
        };
        let error = expand(&bad).err().map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some("`tag_after = \"nope\"` names no member of this struct")
        );
    }

    #[test]
    fn a_skipped_field_takes_no_other_wire_attribute() {
        let ok: DeriveInput = parse_quote! {
            struct S { a: u8, #[wire(skip)] x: u8 }
        };
        assert!(expand(&ok).is_ok());
        for attribute in [
            quote!(#[wire(skip, extra)]),
            quote!(#[wire(skip, default)]),
            quote!(#[wire(skip, tagged)]),
            quote!(#[wire(skip, tagged, flatten)]),
            quote!(#[wire(skip, check = "f")]),
            quote!(#[wire(skip, rename = "y")]),
        ] {
            let input: DeriveInput = parse_quote! {
                struct S { a: u8, #attribute x: u8 }
            };
            let error = expand(&input).err().map(|e| e.to_string());
            assert_eq!(
                error.as_deref(),
                Some("`#[wire(skip)]` is not a member: it goes with no other `wire` attribute"),
                "{attribute}"
            );
        }
    }

    #[test]
    fn a_member_name_that_json_escapes_is_refused() {
        for (name, ok) in [
            ("plain_name", true),
            ("", true),
            ("é", true),
            ("a\"b", false),
            ("a\\b", false),
            ("tab\there", false),
            ("\u{1f}", false),
        ] {
            let input: DeriveInput = parse_quote! {
                struct S { a: u8, #[wire(rename = #name)] x: u8 }
            };
            let error = expand(&input).err().map(|e| e.to_string());
            let expected = (!ok).then(|| format!("member name {name:?} needs escaping in JSON"));
            assert_eq!(error, expected, "{name:?}");
        }
    }
}

//! Parsing: the struct and its `#[wire(..)]` attributes read into a
//! [`Model`], with every error the derive reports itself (each at the span
//! it is about, saying what is expected). [`crate::expand`] writes the impls
//! from the model and reports nothing.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, GenericArgument, Ident, LitStr, Path, PathArguments, Type};

/// What a field is on the wire.
pub(crate) enum Kind {
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

/// One field of the struct.
pub(crate) struct Field {
    pub(crate) ident: Ident,
    /// The member name (`rename`, else the field name).
    pub(crate) name: String,
    pub(crate) ty: Type,
    pub(crate) kind: Kind,
    /// `check = "path"`: the member's check instead of the type's.
    pub(crate) check: Option<Path>,
}

impl Field {
    /// A member read into a typed slot (not the extra map, a flattened body
    /// or a skipped field).
    pub(crate) fn is_typed(&self) -> bool {
        !matches!(self.kind, Kind::Extra | Kind::Flat | Kind::Skip)
    }
}

/// The struct-level attributes.
struct Container {
    krate: Path,
    document: bool,
    /// `tag = "event_type"`: the member that names the tagged payload's
    /// type, and where the attribute was written.
    tag: Option<(String, Span)>,
    /// `tag_after = "event_id"`: the member the tag is written after.
    tag_after: Option<(String, Span)>,
    /// `unknown_hint = "path"`: `fn(&str) -> Option<&'static str>`, a
    /// message for particular unknown members.
    unknown_hint: Option<Path>,
}

/// A struct with a tagged payload (`#[wire(tag = "..")]` and one
/// `#[wire(tagged)]` field).
pub(crate) struct Tag {
    /// The tag member's name.
    pub(crate) member: String,
    /// The index in [`Model::fields`] of the tagged field.
    pub(crate) field: usize,
    /// `#[wire(tagged, flatten)]`: a `Flattened` body, not a `Tagged` payload.
    pub(crate) flat: bool,
    /// `tag_after`: the member the tag is written after (first when `None`).
    pub(crate) after: Option<String>,
}

/// Everything the derive knows about one struct, checked.
pub(crate) struct Model<'a> {
    pub(crate) name: &'a Ident,
    /// Where `mplp_core` is.
    pub(crate) krate: Path,
    /// `#[wire(document)]`.
    pub(crate) document: bool,
    pub(crate) unknown_hint: Option<Path>,
    /// Every field, in declaration order.
    pub(crate) fields: Vec<Field>,
    pub(crate) tag: Option<Tag>,
    /// The index in `fields` of the `#[wire(extra)]` map.
    pub(crate) extra: Option<usize>,
}

impl Model<'_> {
    /// The typed members, in declaration order.
    pub(crate) fn typed(&self) -> impl Iterator<Item = &Field> {
        self.fields.iter().filter(|f| f.is_typed())
    }

    /// The tagged field (payload or flattened body), with its tag.
    pub(crate) fn tagged(&self) -> Option<(&Tag, &Field)> {
        self.tag.as_ref().map(|t| (t, &self.fields[t.field]))
    }

    /// The `#[wire(extra)]` field.
    pub(crate) fn extra(&self) -> Option<&Field> {
        self.extra.map(|i| &self.fields[i])
    }

    /// Whether the tag member is written after the member `f`.
    pub(crate) fn tag_after(&self, f: &Field) -> bool {
        self.tag
            .as_ref()
            .is_some_and(|t| t.after.as_deref() == Some(f.name.as_str()))
    }

    /// Whether the tag member is written before every other.
    pub(crate) fn tag_first(&self) -> bool {
        self.tag.as_ref().is_some_and(|t| t.after.is_none())
    }

    /// Every member name (`FIELDS`), in writing order, each with the typed
    /// field it belongs to (`None` for the tag member).
    pub(crate) fn members(&self) -> Vec<(String, Option<&Field>)> {
        let mut out = Vec::new();
        let tag = self.tag.as_ref().map(|t| (t.member.clone(), None));
        if self.tag_first() {
            out.extend(tag.clone());
        }
        for f in self.typed() {
            out.push((f.name.clone(), Some(f)));
            if self.tag_after(f) {
                out.extend(tag.clone());
            }
        }
        out
    }

    /// The members that must be present, in writing order.
    pub(crate) fn required(&self) -> Vec<String> {
        self.members()
            .into_iter()
            .filter(|(_, f)| f.is_none_or(|f| matches!(f.kind, Kind::Required)))
            .map(|(name, _)| name)
            .collect()
    }
}

/// Reads `input` into its model, or the first error found.
pub(crate) fn parse(input: &DeriveInput) -> syn::Result<Model<'_>> {
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &input.generics,
            "`Wire` does not support generic types",
        ));
    }
    let c = container_attrs(input)?;
    let fields = fields(input)?;
    let extra = fields.iter().position(|f| matches!(f.kind, Kind::Extra));
    let tagged: Vec<usize> = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| matches!(f.kind, Kind::Tagged | Kind::Flat))
        .map(|(i, _)| i)
        .collect();
    if let Some(second) = tagged.get(1) {
        return Err(syn::Error::new_spanned(
            &fields[*second].ident,
            "only one `#[wire(tagged)]` field: the tag member names the type of one payload",
        ));
    }
    let tag = match (c.tag, tagged.first()) {
        (Some((member, _)), Some(&field)) => {
            let flat = matches!(fields[field].kind, Kind::Flat);
            if flat && extra.is_none() {
                return Err(syn::Error::new_spanned(
                    &fields[field].ident,
                    "a `#[wire(tagged, flatten)]` body needs a `#[wire(extra)]` map beside it",
                ));
            }
            Some(Tag {
                member,
                field,
                flat,
                after: c.tag_after.as_ref().map(|(after, _)| after.clone()),
            })
        }
        (None, None) => None,
        (None, Some(&field)) => {
            return Err(syn::Error::new_spanned(
                &fields[field].ident,
                "a `#[wire(tagged)]` field needs `#[wire(tag = \"member\")]` on the struct: \
                 the member whose value names the payload's type",
            ));
        }
        (Some((_, span)), None) => {
            return Err(syn::Error::new(
                span,
                "`tag` names the member that types a `#[wire(tagged)]` field, and this struct \
                 has none: mark the payload field `#[wire(tagged)]`",
            ));
        }
    };
    if let Some((after, span)) = &c.tag_after {
        if tag.is_none() {
            return Err(syn::Error::new(
                *span,
                "`tag_after` places the tag member: it goes with `tag = \"member\"`",
            ));
        }
        if !fields.iter().any(|f| f.is_typed() && &f.name == after) {
            return Err(syn::Error::new(
                *span,
                format!("`tag_after = \"{after}\"` names no member of this struct"),
            ));
        }
    }
    let model = Model {
        name: &input.ident,
        krate: c.krate,
        document: c.document,
        unknown_hint: c.unknown_hint,
        fields,
        tag,
        extra,
    };
    // The fast reader matches member names byte for byte (see
    // `mplp_json::fast::member_names`): a name it could only read escaped is
    // refused here.
    if let Some((bad, field)) = model
        .members()
        .into_iter()
        .find(|(n, _)| n.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\'))
    {
        let message = format!("member name {bad:?} needs escaping in JSON");
        return Err(match field {
            Some(f) => syn::Error::new_spanned(&f.ident, message),
            None => syn::Error::new_spanned(model.name, message),
        });
    }
    Ok(model)
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
                c.tag = Some((s.value(), meta.path.span()));
                Ok(())
            } else if meta.path.is_ident("tag_after") {
                let s: LitStr = meta.value()?.parse()?;
                c.tag_after = Some((s.value(), s.span()));
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

pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
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
/// `mplp_json::de::Integer` so that its verdicts and messages are the
/// thorough pass's (`-0` is 0; a number beyond the range names the range).
pub(crate) fn is_integer(ty: &Type) -> bool {
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
/// `alloc::vec::Vec<T>`), read through `mplp_json::de::List`.
pub(crate) fn vec_element(ty: &Type) -> Option<&Type> {
    if let Type::Group(g) = ty {
        return vec_element(&g.elem);
    }
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if p.qself.is_some() || last.ident != "Vec" {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    // (`Vec<T, A>`, with an allocator, is unstable Rust: no wire type has one.)
    match args.args.first() {
        Some(GenericArgument::Type(elem)) => Some(elem),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proc_macro2::TokenStream as TokenStream2;
    use quote::quote;
    use syn::parse_quote;

    /// What the derive writes for `input`, or its error.
    fn expand(input: &DeriveInput) -> syn::Result<TokenStream2> {
        parse(input).map(|m| crate::expand::expand(&m))
    }

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

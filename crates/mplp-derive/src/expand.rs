//! Expansion: the impls written from a [`Model`], one function per
//! generated impl (the member-name identifier, the map visitor, `Wire`, `Deserialize`,
//! `Serialize`, `CheckValue`, `JsonSchema`). Nothing here reports an
//! error: [`crate::parse`] has checked the model.

use proc_macro2::TokenStream as TokenStream2;
use quote::{format_ident, quote};
use syn::Type;

use crate::parse::{Field, Kind, Model, is_integer, vec_element};

/// Everything `#[derive(Wire)]` writes for `m`, in one anonymous `const`.
pub(crate) fn expand(m: &Model<'_>) -> TokenStream2 {
    let krate = &m.krate;
    let json = json(m);
    let names: Vec<String> = m.members().into_iter().map(|(n, _)| n).collect();
    let identifier = field_identifier(m);
    let map_visitor = map_visitor(m);
    let direct = direct(m);
    let wire = wire(m);
    let deserialize = deserialize(m);
    let serialize = serialize(m);
    let check_value = check_value(m);
    let json_schema = json_schema(m);
    quote! {
        const _: () = {
            use #krate::__private::serde as __serde;
            use #krate::__private::serde_json as __serde_json;

            const __FIELDS: &[&str] = &[#(#names),*];
            // The same names as the fast reader compares them.
            const __NAMES: &[#json::fast::MemberName] = &[#(#json::fast::MemberName::new(#names)),*];

            #identifier
            #map_visitor
            #direct
            #wire
            #deserialize
            #serialize
            #check_value
            #json_schema
        };
    }
}

/// The JSON engine, through the re-export of mplp-core (generated code
/// names only mplp-core).
fn json(m: &Model<'_>) -> TokenStream2 {
    let krate = &m.krate;
    quote! { #krate::__private::mplp_json }
}

/// The trait of the tagged field: `Flattened` for a flattened body, else `Tagged`.
fn tag_trait(m: &Model<'_>) -> TokenStream2 {
    let krate = &m.krate;
    if m.tag.as_ref().is_some_and(|t| t.flat) {
        quote! { #krate::wire::Flattened }
    } else {
        quote! { #krate::wire::Tagged }
    }
}

/// The type of the tag member.
fn tag_ty(m: &Model<'_>) -> Option<TokenStream2> {
    let tag_trait = tag_trait(m);
    m.tagged().map(|(_, f)| {
        let ty = &f.ty;
        quote! { <#ty as #tag_trait>::Tag }
    })
}

/// The `__Field` variant of the `i`-th typed member.
fn field_variant(i: usize) -> syn::Ident {
    format_ident!("__f{i}")
}

/// The `__Field` identifier of a member name: by its text, or by its index
/// in `FIELDS` (`visit_u64`: how the fast reader hands over a name it
/// matched byte for byte).
fn field_identifier(m: &Model<'_>) -> TokenStream2 {
    let typed: Vec<&Field> = m.typed().collect();
    let field_variants: Vec<syn::Ident> = (0..typed.len()).map(field_variant).collect();
    let name_variants: Vec<TokenStream2> = m
        .members()
        .into_iter()
        .map(
            |(_, f)| match f.and_then(|f| typed.iter().position(|t| t.ident == f.ident)) {
                Some(i) => {
                    let v = field_variant(i);
                    quote! { __Field::#v }
                }
                None => quote! { __Field::__tag },
            },
        )
        .collect();
    let indexes = (0..name_variants.len() as u64).map(|i| quote! { #i });
    let tag_match = m.tag.as_ref().map(|t| {
        let member = &t.member;
        quote! { #member => __Field::__tag, }
    });
    let tag_variant = m.tag.as_ref().map(|_| quote! { __tag, });
    let field_match = typed.iter().zip(&field_variants).map(|(f, v)| {
        let n = &f.name;
        quote! { #n => __Field::#v, }
    });
    quote! {
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
    }
}

/// The map visitor (`__Visitor`) that `Wire::deserialize_unchecked` reads
/// with: objects only, each member once, the tag before or after its payload.
fn map_visitor(m: &Model<'_>) -> TokenStream2 {
    let krate = &m.krate;
    let json = json(m);
    let name = m.name;
    let typed: Vec<&Field> = m.typed().collect();
    let field_variants: Vec<syn::Ident> = (0..typed.len()).map(field_variant).collect();
    let (locals, slots) = slot_locals(m, &typed);
    let match_arms = typed.iter().zip(&field_variants).zip(&slots).map(|((f, v), s)| {
        let member = &f.name;
        let read_as = |ty: &Type| {
            if is_integer(ty) {
                quote! { __map.next_value_seed(#json::de::Integer::<#ty>::new())? }
            } else if let Some(elem) = vec_element(ty) {
                quote! { __map.next_value_seed(#json::de::List::<#elem>::new())? }
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
                    return ::core::result::Result::Err(#json::de::duplicate_member::<__A::Error>(#member));
                }
                #s = ::core::option::Option::Some(#read);
            }
        }
    });
    let tag_arm = m.tag.as_ref().map(|t| {
        let member = &t.member;
        quote! {
            __Field::__tag => {
                if __tag.is_some() {
                    return ::core::result::Result::Err(#json::de::duplicate_member::<__A::Error>(#member));
                }
                __tag = ::core::option::Option::Some(__map.next_value()?);
            }
        }
    });
    let hint = m.unknown_hint.as_ref().map(|h| {
        quote! {
            if let ::core::option::Option::Some(__msg) = #h(&__name) {
                return ::core::result::Result::Err(#json::de::raise::<__A::Error>(#krate::Rule::ADDITIONAL_PROPERTIES, __msg));
            }
        }
    });
    let other_arm = match m.extra() {
        Some(_) => quote! {
            __Field::__other(__name) => {
                if __extra.contains_key(&__name) {
                    return ::core::result::Result::Err(#json::de::duplicate_member::<__A::Error>(&__name));
                }
                let __v: #json::exact::ExactValue = __map.next_value()?;
                __extra.insert_exact(__name, __v);
            }
        },
        None => quote! {
            __Field::__other(__name) => {
                #hint
                return ::core::result::Result::Err(#json::de::unknown_member::<__A::Error>(&__name, __FIELDS));
            }
        },
    };
    let build = build_value(m, &typed, &slots, &quote! { __A::Error }, false, |member| {
        quote! { ::core::result::Result::Err(#json::de::missing_member::<__A::Error>(#member)) }
    });
    let expecting = format!("a JSON object (an MPLP `{name}`)");

    quote! {
        struct __Visitor;

        impl<'de> __serde::de::Visitor<'de> for __Visitor {
            type Value = #name;
            fn expecting(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                __f.write_str(#expecting)
            }
            fn visit_map<__A: __serde::de::MapAccess<'de>>(self, mut __map: __A) -> ::core::result::Result<#name, __A::Error> {
                #locals
                while let ::core::option::Option::Some(__key) = __map.next_key::<__Field>()? {
                    match __key {
                        #(#match_arms)*
                        #tag_arm
                        #other_arm
                    }
                }
                #build
            }
        }
    }
}

/// The locals both readers of a struct fill (the map visitor's
/// `visit_map` and the direct read): the tag, one slot per typed field
/// (`__s0`, `__s1`, ...: an `Option` of the field's type, a `TaggedSlot`
/// for a tagged payload, or the field itself for `Option<T>` and
/// `Option<Option<T>>`), and the extra members. Gives the declarations
/// and the slots' names.
fn slot_locals(m: &Model<'_>, typed: &[&Field]) -> (TokenStream2, Vec<syn::Ident>) {
    let krate = &m.krate;
    let slots: Vec<syn::Ident> = (0..typed.len()).map(|i| format_ident!("__s{i}")).collect();
    let slot_decls = typed.iter().zip(&slots).map(|(f, s)| {
        let ty = &f.ty;
        match &f.kind {
            Kind::Required | Kind::Default => quote! { let mut #s: ::core::option::Option<#ty> = ::core::option::Option::None; },
            Kind::Tagged => quote! { let mut #s: #krate::wire::TaggedSlot<#ty> = #krate::wire::TaggedSlot::Empty; },
            // `Option<T>` and `Option<Option<T>>`: the slot is the field itself.
            _ => quote! { let mut #s: #ty = ::core::option::Option::None; },
        }
    });
    let tag_slot = tag_ty(m).map(
        |t| quote! { let mut __tag: ::core::option::Option<#t> = ::core::option::Option::None; },
    );
    let extra_decl = m
        .extra()
        .map(|_| quote! { let mut __extra = #krate::JsonObject::new(); });
    let locals = quote! {
        #tag_slot
        #(#slot_decls)*
        #extra_decl
    };
    (locals, slots)
}

/// How both readers end once every member is read: the tag and each
/// required field taken out of its slot (`missing(member)`, the reader's
/// `Err`, returned when one is absent), the tagged payload finished and the
/// flattened body taken with the reader's error type `err`, and the value
/// built.
///
/// `direct`: for the fast reader's direct read, whose every error is the
/// same `GaveUp` (so the order of the checks does not show): the tagged
/// payload is settled in its slot first (`TaggedSlot::settle`), and moved
/// into the value from there alone. A `match` whose arms gave the payload
/// from the slot or from `finish` made the compiler copy it through a
/// temporary (issue 41: the direct read of an SA event 24.16M → 23.13M
/// instructions on 20,000 lines, callgrind).
/// The serde visitor keeps its order of errors (a missing member before the
/// payload's error, as the fields come).
fn build_value(
    m: &Model<'_>,
    typed: &[&Field],
    slots: &[syn::Ident],
    err: &TokenStream2,
    direct: bool,
    missing: impl Fn(&str) -> TokenStream2,
) -> TokenStream2 {
    let krate = &m.krate;
    let name = m.name;
    let tag_finish = m.tag.as_ref().map(|t| {
        let missing = missing(&t.member);
        quote! {
            let ::core::option::Option::Some(__tag) = __tag else {
                return #missing;
            };
        }
    });
    // The direct read takes each required field and the settled payload out
    // of its slot into a local first (`let ... else`), so that the value is
    // built from plain locals (issue 41, stop 52: see `bind` below).
    let mut binds = Vec::new();
    let fields: Vec<TokenStream2> = m
        .fields
        .iter()
        .map(|f| {
            let ident = &f.ident;
            let slot = || {
                let idx = typed.iter().position(|t| t.ident == f.ident).unwrap_or(0);
                slots[idx].clone()
            };
            match &f.kind {
                Kind::Extra => quote! { #ident: __extra },
                Kind::Skip => quote! { #ident: ::core::default::Default::default() },
                Kind::Required if direct => {
                    let s = slot();
                    let missing = missing(&f.name);
                    let v = format_ident!("__v_{}", ident);
                    binds.push(quote! {
                        let ::core::option::Option::Some(#v) = #s else {
                            return #missing;
                        };
                    });
                    quote! { #ident: #v }
                }
                Kind::Required => {
                    let s = slot();
                    let missing = missing(&f.name);
                    quote! {
                        #ident: match #s {
                            ::core::option::Option::Some(__v) => __v,
                            ::core::option::Option::None => return #missing,
                        }
                    }
                }
                Kind::Default => {
                    let s = slot();
                    quote! { #ident: #s.unwrap_or_default() }
                }
                Kind::Tagged if direct => {
                    // Settled before the value is built (`settle` below).
                    let s = slot();
                    let missing = missing(&f.name);
                    let v = format_ident!("__v_{}", ident);
                    binds.push(quote! {
                        let #krate::wire::TaggedSlot::Typed(#v) = #s else {
                            return #missing;
                        };
                    });
                    quote! { #ident: #v }
                }
                Kind::Tagged => {
                    // A payload read with its tag (the usual case) goes from
                    // its slot to the field as it is, not through `finish`'s
                    // `Result` (a copy of the payload more, callgrind).
                    let s = slot();
                    quote! {
                        #ident: match #s {
                            #krate::wire::TaggedSlot::Typed(__p) => __p,
                            __other => __other.finish::<#err>(__tag)?,
                        }
                    }
                }
                Kind::Flat => quote! { #ident: __flat_body },
                Kind::Optional(_) | Kind::Nullable(_) => {
                    let s = slot();
                    quote! { #ident: #s }
                }
            }
        })
        .collect();
    let flat_take = m.tagged().filter(|(t, _)| t.flat).map(|(_, f)| {
        let ty = &f.ty;
        quote! {
            let __flat_body = <#ty as #krate::wire::Flattened>::take::<#err>(::core::clone::Clone::clone(&__tag), &mut __extra)?;
        }
    });
    let settle = m
        .fields
        .iter()
        .filter(|f| direct && matches!(f.kind, Kind::Tagged))
        .map(|f| {
            let idx = typed.iter().position(|t| t.ident == f.ident).unwrap_or(0);
            let s = &slots[idx];
            quote! { #s.settle::<#err>(__tag)?; }
        });
    quote! {
        #tag_finish
        #flat_take
        #(#settle)*
        #(#binds)*
        ::core::result::Result::Ok(#name {
            #(#fields,)*
        })
    }
}

/// The fast reader's direct read (`mplp_json::fast::Direct`): the same
/// members, checks and value as the map visitor, read by index from the
/// reader without serde's visitor, `MapAccess` and seed calls; any failure
/// is `GaveUp` (serde_json then reads the input again and says why).
/// Each member's value is its type's own `Direct` read when it has one,
/// else its serde read on the same reader (`Probe`).
fn direct(m: &Model<'_>) -> TokenStream2 {
    let krate = &m.krate;
    let json = json(m);
    let name = m.name;
    let typed: Vec<&Field> = m.typed().collect();
    let (locals, slots) = slot_locals(m, &typed);
    let gave_up = quote! { ::core::result::Result::Err(#json::fast::GaveUp) };
    let read_as = |ty: &Type| {
        if is_integer(ty) {
            quote! { __r.integer::<#ty>()? }
        } else if let Some(elem) = vec_element(ty) {
            quote! { (&&#json::fast::ListProbe::<#elem>::new()).read_value(__r)? }
        } else {
            quote! { (&&#json::fast::Probe::<#ty>::new()).read_value(__r)? }
        }
    };
    let arms = m.members().into_iter().enumerate().map(|(i, (_, f))| {
        let Some(f) = f else {
            // The tag member.
            let tt = tag_ty(m);
            return quote! {
                #i => {
                    if __tag.is_some() {
                        return #gave_up;
                    }
                    __tag = ::core::option::Option::Some((&&#json::fast::Probe::<#tt>::new()).read_value(__r)?);
                }
            };
        };
        let idx = typed.iter().position(|t| t.ident == f.ident).unwrap_or(0);
        let s = &slots[idx];
        let read = match &f.kind {
            Kind::Tagged => {
                return quote! { #i => #s.read_fast(__r, __tag)?, };
            }
            Kind::Required | Kind::Default => read_as(&f.ty),
            Kind::Optional(inner) => read_as(inner),
            Kind::Nullable(inner) => {
                quote! { (&&#json::fast::Probe::<::core::option::Option<#inner>>::new()).read_value(__r)? }
            }
            Kind::Extra | Kind::Flat | Kind::Skip => quote! {},
        };
        quote! {
            #i => {
                if #s.is_some() {
                    return #gave_up;
                }
                #s = ::core::option::Option::Some(#read);
            }
        }
    });
    let other_arm = match m.extra() {
        Some(_) => quote! {
            #json::fast::Member::Other(__name) => {
                if __extra.contains_key(&__name) {
                    return #gave_up;
                }
                let __v: #json::exact::ExactValue = __serde::Deserialize::deserialize(&mut *__r)?;
                __extra.insert_exact(__name, __v);
            }
        },
        None => quote! {
            #json::fast::Member::Other(_) => return #gave_up,
        },
    };
    let build = build_value(
        m,
        &typed,
        &slots,
        &quote! { #json::fast::GaveUp },
        true,
        |_| gave_up.clone(),
    );
    // A document's `Deserialize` (what a member of its type is read with)
    // enforces its rules; the unchecked read is `Wire::read_fast`.
    let rules = m.document.then(|| {
        quote! {
            if #krate::document::enforce_rules(&__value).is_err() {
                return #gave_up;
            }
        }
    });

    quote! {
        #[allow(unused_imports, unused_mut, unused_variables)]
        #[inline]
        fn __read_direct(__r: &mut #json::fast::Reader<'_>) -> ::core::result::Result<#name, #json::fast::GaveUp> {
            use #json::fast::{ReadDirect as _, ReadSerde as _};
            #locals
            let mut __m = __r.members(__NAMES)?;
            while let ::core::option::Option::Some(__k) = __m.next_member()? {
                let __r = __m.reader();
                match __k {
                    #json::fast::Member::Field(__i) => match __i {
                        #(#arms)*
                        _ => return #gave_up,
                    },
                    #other_arm
                }
            }
            #build
        }

        impl #json::fast::Direct for #name {
            #[inline]
            fn read(__r: &mut #json::fast::Reader<'_>) -> ::core::result::Result<Self, #json::fast::GaveUp> {
                let __value = __read_direct(__r)?;
                #rules
                ::core::result::Result::Ok(__value)
            }
        }
    }
}

/// `Deserialize`: a document's enforces its rules; any other type's is its
/// rules-free read (`Wire`).
fn deserialize(m: &Model<'_>) -> TokenStream2 {
    let krate = &m.krate;
    let name = m.name;
    // A document's `Deserialize` enforces its rules; any other type's is its
    // rules-free read, returned as it is (not taken out of its `Result` and
    // put back: that is a copy of the value).
    let read = if m.document {
        quote! {
            let __value = <Self as #krate::Wire>::deserialize_unchecked(__d)?;
            #krate::document::enforce_rules(&__value).map_err(<__D::Error as #krate::__private::serde::de::Error>::custom)?;
            ::core::result::Result::Ok(__value)
        }
    } else {
        quote! { <Self as #krate::Wire>::deserialize_unchecked(__d) }
    };

    quote! {
        impl<'de> __serde::Deserialize<'de> for #name {
            fn deserialize<__D: __serde::Deserializer<'de>>(__d: __D) -> ::core::result::Result<Self, __D::Error> {
                #read
            }
        }
    }
}

/// `Wire`: the member lists, and the rules-free read that announces the
/// member names to the fast reader.
fn wire(m: &Model<'_>) -> TokenStream2 {
    let krate = &m.krate;
    let json = json(m);
    let name = m.name;
    let name_str = name.to_string();
    let required = m.required();
    let open = m.extra.is_some();
    quote! {
        impl #krate::Wire for #name {
            const NAME: &'static str = #name_str;
            const FIELDS: &'static [&'static str] = __FIELDS;
            const REQUIRED: &'static [&'static str] = &[#(#required),*];
            const OPEN: bool = #open;

            fn deserialize_unchecked<'de, __D: __serde::Deserializer<'de>>(__d: __D) -> ::core::result::Result<Self, __D::Error> {
                // Cleared again when the guard drops, after the value
                // has gone to the caller.
                let _announced = #json::fast::Announced::new(__NAMES);
                __d.deserialize_map(__Visitor)
            }

            #[inline]
            fn read_fast(__r: &mut #json::fast::Reader<'_>) -> ::core::result::Result<Self, #json::fast::GaveUp> {
                __read_direct(__r)
            }
        }
    }
}

/// `SerializeMembers` and `Serialize`: the members in writing order, the
/// tag where it goes, then the extra map.
fn serialize(m: &Model<'_>) -> TokenStream2 {
    let krate = &m.krate;
    let name = m.name;
    let tag_trait = tag_trait(m);
    let tag_entry = m.tagged().map(|(t, f)| {
        let ty = &f.ty;
        let ident = &f.ident;
        let member = &t.member;
        quote! { __s.serialize_entry(#member, &<#ty as #tag_trait>::tag(&self.#ident))?; }
    });
    let first = if m.tag_first() {
        tag_entry.clone()
    } else {
        None
    };
    let entries = m.fields.iter().filter(|f| !matches!(f.kind, Kind::Extra | Kind::Skip)).map(|f| {
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
        let tag_here = if m.tag_after(f) {
            tag_entry.clone()
        } else {
            None
        };
        quote! { #entry #tag_here }
    });
    let flat_skip = m.tagged().filter(|(t, _)| t.flat).map(|(_, f)| {
        let ty = &f.ty;
        let ident = &f.ident;
        quote! { && !<#ty as #krate::wire::Flattened>::is_member(&self.#ident, __k.as_str()) }
    });
    let extra_entries = m.extra().map(|f| {
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
        impl #krate::wire::SerializeMembers for #name {
            fn serialize_members<__M: __serde::ser::SerializeMap>(&self, __s: &mut __M) -> ::core::result::Result<(), __M::Error> {
                #first
                #(#entries)*
                #extra_entries
                ::core::result::Result::Ok(())
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
    }
}

/// `CheckValue`: the all-errors pass over a `serde_json::Value`.
fn check_value(m: &Model<'_>) -> TokenStream2 {
    let krate = &m.krate;
    let name = m.name;
    let tag_trait = tag_trait(m);
    let tag_check = m.tagged().map(|(t, f)| {
        let ty = &f.ty;
        let member = &t.member;
        quote! { let __tag_v = __o.required_with(#member, <#ty as #tag_trait>::check_tag); }
    });
    let checks = m.typed().map(|f| {
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
        let tag_here = if m.tag_after(f) {
            tag_check.clone()
        } else {
            None
        };
        quote! { #check #tag_here }
    });
    let first_check = if m.tag_first() {
        tag_check.clone()
    } else {
        None
    };
    let finish_check = match (m.extra.is_some(), &m.unknown_hint) {
        (true, _) => quote! { __o.allow_unknown(); },
        (false, Some(h)) => quote! { __o.deny_unknown_with(#h); },
        (false, None) => quote! { __o.deny_unknown(); },
    };
    let payload_check = m.tagged().map(|(t, f)| {
        let ty = &f.ty;
        if t.flat {
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
    quote! {
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
    }
}

/// `schemars::JsonSchema` (when the deriving crate's `schemars` feature is
/// on): the object schema `cargo xtask schema-check` compares.
fn json_schema(m: &Model<'_>) -> TokenStream2 {
    let krate = &m.krate;
    let name = m.name;
    let name_str = name.to_string();
    let required = m.required();
    let tag_prop = m.tag.as_ref().map(|t| {
        let member = &t.member;
        let tt = tag_ty(m);
        quote! {
            __props.insert(::std::string::String::from(#member), __serde_json::Value::from(__gen.subschema_for::<#tt>()));
        }
    });
    let props = m.typed().map(|f| {
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
    let additional = m.extra.is_none();
    let schema_id = format!("::{name_str}");
    let flat_schema = m.tagged().filter(|(t, _)| t.flat).map(|(_, f)| {
        let ty = &f.ty;
        quote! {
            <#ty as #krate::wire::FlattenedSchema>::extend_schema(__gen, &mut __props, &mut __required, &mut __all_of);
        }
    });
    quote! {
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
                let mut __required: ::std::vec::Vec<__serde_json::Value> = ::std::vec![#(__serde_json::Value::from(#required)),*];
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
    }
}

//! Typed event payloads: the machinery shared by the MAP and SA payload types.
//!
//! The canonical schemas only say that `payload` is an object. The typed
//! payloads of this crate are SDK-level rules (see the crate's spec notes):
//! a payload field that the seed requires must be present, and a field the
//! SDK types must have the right type. Every other member is kept in
//! `extra` and written back unchanged.

use std::fmt;

use mplp_core::{Pointer, Report, Rule, Violation};

/// The rule ids a payload check reports, per profile.
pub(crate) struct PayloadRules {
    pub(crate) required: Rule,
    pub(crate) type_: Rule,
    pub(crate) enum_: Rule,
    pub(crate) format: Rule,
}

impl PayloadRules {
    /// Turns a schema-style violation inside a payload into its SDK rule.
    /// (The payload is checked as a parsed `Value`, so the parser's rules,
    /// `duplicate-key` and `json-syntax`, are reported before and never
    /// reach this.)
    pub(crate) fn remap(&self, mut v: Violation) -> Violation {
        v.rule = match v.rule {
            Rule::REQUIRED => self.required,
            Rule::ENUM => self.enum_,
            Rule::FORMAT | Rule::PATTERN => self.format,
            _ => self.type_,
        };
        v
    }

    /// Reports a payload that is absent although the event type `t` needs
    /// the fields `required` (nothing when it needs none); `why` ends the
    /// message.
    pub(crate) fn missing_payload(
        &self,
        t: impl fmt::Display,
        required: &[&str],
        why: &str,
        at: &Pointer,
        report: &mut Report,
    ) {
        if required.is_empty() {
            return;
        }
        let fields = required
            .iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", ");
        report.error(
            at,
            self.required,
            format!("{t} needs a payload with {fields}{why}"),
        );
    }

    /// Moves the violations of a payload check into `report`, each with its
    /// SDK rule.
    pub(crate) fn push_remapped(&self, sub: Report, report: &mut Report) {
        for v in sub {
            report.push(self.remap(v));
        }
    }
}

/// Declares a typed payload: public typed fields (required and optional),
/// an `extra` map for every other member, and `new(required..)`. serde,
/// the schema check and the member list come from `#[derive(Wire)]`.
macro_rules! payload_struct {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            required { $( $(#[$rmeta:meta])* $req:ident : $rty:ty ),* $(,)? }
            optional { $( $(#[$ometa:meta])* $opt:ident : $oty:ty ),* $(,)? }
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, mplp_core::Wire)]
        #[non_exhaustive]
        pub struct $name {
            $( $(#[$rmeta])* pub $req: $rty, )*
            $( $(#[$ometa])* pub $opt: Option<$oty>, )*
            /// Every other member of the payload, kept and written back
            /// unchanged (after the typed fields). Members named like a typed
            /// field are not written.
            #[wire(extra)]
            pub extra: mplp_core::JsonObject,
        }

        impl $name {
            /// A payload with the required fields and nothing else.
            #[allow(clippy::new_without_default)]
            pub fn new($($req: $rty),*) -> Self {
                $name {
                    $($req,)*
                    $($opt: None,)*
                    extra: mplp_core::JsonObject::new(),
                }
            }
        }
    };
}

pub(crate) use payload_struct;

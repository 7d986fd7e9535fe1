//! Which validator the runner uses for a flow document, looked up by its file
//! stem (`plan.json` -> `plan`).
//!
//! The runner keeps no table of kinds of its own: a stem is looked up in the
//! one table of document kinds, [`mplp_check::KINDS`] (by
//! [`mplp_check::by_name`]). Only what the published flows call differently
//! is written here: two log names ([`ALIASES`]) and the two event families
//! whose flow documents may be of several kinds ([`FAMILIES`], told apart by
//! the dispatch, [`mplp_check::validate_bytes`]). When the SDK gains a kind, the runner validates
//! flow documents of that name without a change here.

use mplp_check::DocKind;
use mplp_core::{Report, Violation};

/// How a document of one kind is validated.
#[derive(Clone, Copy, Debug)]
pub enum Validator {
    /// Validated as this kind: a whole JSON document, or an NDJSON log line
    /// by line (findings carry line numbers).
    Kind(&'static DocKind),
    /// A document of one of these kinds, which one read from its members
    /// ([`mplp_check::validate_bytes`] without a kind); a document of any
    /// other kind is an error.
    Family(&'static [&'static DocKind]),
}

impl Validator {
    /// Every error and warning of `bytes` read as this kind.
    ///
    /// ```
    /// use mplp_conformance::registry::validator;
    /// let plan = validator("plan").unwrap();
    /// assert!(!plan.validate(b"{}").is_valid());
    /// ```
    pub fn validate(&self, bytes: &[u8]) -> Report {
        match self {
            Validator::Kind(kind) => kind.validate(bytes),
            Validator::Family(kinds) => match mplp_check::validate_bytes(None, bytes) {
                (Some(kind), _) if !kinds.contains(&kind) => {
                    let expected: Vec<&str> = kinds.iter().map(|k| k.name).collect();
                    let mut report = Report::new();
                    report.push(Violation::error(
                        "",
                        mplp_check::UNKNOWN_KIND,
                        format!(
                            "this document reads as a `{}`, but its file name asks for one of: {}",
                            kind.name,
                            expected.join(", ")
                        ),
                    ));
                    report
                }
                // A member of the family, or not recognised (the report says why).
                (_, report) => report,
            },
        }
    }
}

/// Flow file stems that name a kind of [`mplp_check::KINDS`] by another
/// name: `(stem, kind name)`. The flows call their logs `map-events.ndjson`
/// and `sa-events.ndjson`.
pub const ALIASES: &[(&str, &str)] = &[("map-events", "map-log"), ("sa-events", "sa-log")];

/// Flow file stems that name an event family rather than one kind:
/// `(stem, the kinds a document of that name may be)`.
pub const FAMILIES: &[(&str, &[&DocKind])] = &[
    (
        "learning",
        &[
            &mplp_check::LEARNING_SAMPLE,
            &mplp_check::COMMON_LEARNING_SAMPLE,
        ],
    ),
    (
        "integration",
        &[
            &mplp_check::CI_EVENT,
            &mplp_check::TOOL_EVENT,
            &mplp_check::GIT_EVENT,
            &mplp_check::FILE_UPDATE_EVENT,
        ],
    ),
];

/// The validator for documents named `stem`, if the runner knows the kind.
///
/// ```
/// use mplp_conformance::registry::{validator, Validator};
/// assert!(matches!(validator("plan"), Some(Validator::Kind(k)) if k.name == "plan"));
/// assert!(matches!(validator("map-events"), Some(Validator::Kind(k)) if k.name == "map-log"));
/// assert!(matches!(validator("integration"), Some(Validator::Family(_))));
/// assert!(validator("README").is_none());
/// ```
pub fn validator(stem: &str) -> Option<Validator> {
    let name = ALIASES
        .iter()
        .find(|(alias, _)| *alias == stem)
        .map_or(stem, |(_, name)| name);
    if let Some(kind) = mplp_check::by_name(name) {
        return Some(Validator::Kind(kind));
    }
    FAMILIES
        .iter()
        .find(|(family, _)| *family == stem)
        .map(|(_, kinds)| Validator::Family(kinds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_found_by_its_name_and_every_alias_names_a_log() {
        for kind in mplp_check::KINDS {
            assert!(
                matches!(validator(kind.name), Some(Validator::Kind(k)) if std::ptr::eq(k, *kind))
            );
        }
        for (alias, name) in ALIASES {
            let Some(Validator::Kind(kind)) = validator(alias) else {
                panic!("{alias}")
            };
            assert_eq!(kind.name, *name);
            assert!(kind.is_log(), "{alias}");
        }
    }

    #[test]
    fn a_family_validates_its_members_and_refuses_other_kinds() {
        let examples =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/examples/valid");
        let tool = std::fs::read(examples.join("tool-event-eslint.json")).unwrap();
        let tool = tool.as_slice();
        let integration = validator("integration").unwrap();
        let learning = validator("learning").unwrap();
        assert_eq!(mplp_check::detect(tool).unwrap().name, "tool-event");
        assert!(integration.validate(tool).is_valid());
        let mut broken: serde_json::Value = serde_json::from_slice(tool).unwrap();
        broken["status"] = "exploded".into();
        let broken = serde_json::to_vec(&broken).unwrap();
        let as_integration = integration.validate(&broken);
        assert!(!as_integration.is_valid());
        assert_eq!(
            as_integration.violations(),
            mplp_check::TOOL_EVENT.validate(&broken).violations()
        );
        let refused = learning.validate(tool);
        assert!(!refused.is_valid());
        assert!(
            refused.violations().iter().any(
                |v| v.rule == mplp_check::UNKNOWN_KIND && v.message.contains("learning-sample")
            )
        );
        assert!(!learning.validate(b"[1]").is_valid());
    }
}

//! The rule registry: one declaration per rule, with its id, its severity
//! per profile, where it comes from and what it says.
//!
//! Each crate declares its rules with [`declare_rules!`](crate::declare_rules)
//! next to the code that checks them; the macro makes the [`Rule`] constant
//! that the check raises and a list of [`RuleInfo`] for the registry. Each
//! crate's `rules()` function gathers its lists; `cargo xtask rules` writes
//! the table `docs/rules.md` from all of them, and xtask's tests fail when a
//! rule id raised in the sources is missing from the registry or the table
//! differs from it.
//!
//! ```
//! use mplp_core::rules::{Profile, Scope, Source};
//! use mplp_core::{Rule, Severity};
//!
//! mplp_core::declare_rules! {
//!     /// The rules of this example.
//!     pub const EXAMPLE_RULES;
//!
//!     /// Seed: the dependencies form a directed acyclic graph.
//!     pub const DAG_ACYCLIC = "sa_plan_dag_acyclic" {
//!         strict: Error,
//!         scope: Document,
//!         source: Source::Prose { doc: "Plan Module", section: "4.2 DAG Validation" },
//!         summary: "the dependencies form a cycle",
//!     }
//!     /// An SDK decision: a warning under the canonical profile.
//!     pub const ORDER_INDEX = "sa_plan_order_index_dependency" {
//!         strict: Warning,
//!         scope: Document,
//!         source: Source::Sdk { note: "mplp-plan" },
//!         summary: "an `order_index` is smaller than a dependency's",
//!     }
//! }
//!
//! assert_eq!(DAG_ACYCLIC, Rule::new("sa_plan_dag_acyclic"));
//! assert_eq!(EXAMPLE_RULES[0].rule, DAG_ACYCLIC);
//! assert_eq!(EXAMPLE_RULES[0].severity(Profile::Canonical), Severity::Error);
//! assert_eq!(EXAMPLE_RULES[1].severity(Profile::Strict), Severity::Warning);
//! assert_eq!(EXAMPLE_RULES[1].scope, Scope::Document);
//! ```

use crate::{Report, Rule, Severity, Violation};

/// Where a rule comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Source {
    /// A frozen invariant of MPLP v1.0.0: its file in `invariants/` and its id.
    Invariant {
        /// The file, e.g. `sa-invariants.yaml`.
        file: &'static str,
        /// The invariant's id in that file.
        id: &'static str,
    },
    /// A keyword of the canonical JSON Schemas.
    Schema {
        /// The JSON Schema keyword, e.g. `minItems`.
        keyword: &'static str,
    },
    /// Normative prose of the specification (a module or profile text).
    Prose {
        /// The document, e.g. `Plan Module` or `MAP Events`.
        doc: &'static str,
        /// Its section, e.g. `4.2 DAG Validation`.
        section: &'static str,
    },
    /// A decision of this SDK where the specification is silent; `note`
    /// names the section of `docs/spec-notes.md` that gives the reason.
    Sdk {
        /// The section of `docs/spec-notes.md`.
        note: &'static str,
    },
}

impl Source {
    /// True when the rule is in the canonical schemas, the frozen invariants
    /// or the normative prose (not an SDK decision).
    pub const fn is_normative(self) -> bool {
        !matches!(self, Source::Sdk { .. })
    }
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Invariant { file, id } => write!(f, "invariant `{id}` ({file})"),
            Source::Schema { keyword } => write!(f, "schema keyword `{keyword}`"),
            Source::Prose { doc, section } => write!(f, "{doc}, {section}"),
            Source::Sdk { note } => write!(f, "SDK decision (spec-notes: {note})"),
        }
    }
}

/// What a rule judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Scope {
    /// One document (or one event), as `validate_json` checks it.
    Document,
    /// An event log, across events (the streaming log validators).
    Log,
    /// A refusal of an API call (a lifecycle guard, a runtime rule): not a
    /// finding of validation, so profiles do not change it.
    Api,
    /// Several documents validated together (a bundle: a plan and its
    /// Context, Confirm, Trace, ...; see the `mplp-check` crate).
    Bundle,
}

impl Scope {
    /// The lowercase name (`document`, `log`, `api`, `bundle`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Scope::Document => "document",
            Scope::Log => "log",
            Scope::Api => "api",
            Scope::Bundle => "bundle",
        }
    }
}

/// A validation profile: how strictly the rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Profile {
    /// Only what the canonical schemas, the frozen invariants and the
    /// normative prose require is an error; the SDK's own rules are warnings.
    Canonical,
    /// Every rule at the SDK's severity (today's behaviour).
    Strict,
}

/// One rule: its id, its severity per profile, its scope, its source and a
/// one-line summary. Made by [`declare_rules!`](crate::declare_rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RuleInfo {
    /// The rule id that violations carry.
    pub rule: Rule,
    /// The severity under [`Profile::Strict`] (what the SDK reports today).
    pub strict: Severity,
    /// The severity under [`Profile::Canonical`]: the strict one, except for
    /// SDK decisions on documents and logs, which are warnings.
    pub canonical: Severity,
    /// What the rule judges.
    pub scope: Scope,
    /// Where it comes from.
    pub source: Source,
    /// What a violation means, in one line.
    pub summary: &'static str,
}

impl RuleInfo {
    /// A rule; the canonical severity follows from the source and scope
    /// (see [`RuleInfo::canonical`]).
    pub const fn new(
        rule: Rule,
        strict: Severity,
        scope: Scope,
        source: Source,
        summary: &'static str,
    ) -> Self {
        let canonical = match (source.is_normative(), scope) {
            (false, Scope::Document | Scope::Log | Scope::Bundle) => Severity::Warning,
            _ => strict,
        };
        RuleInfo {
            rule,
            strict,
            canonical,
            scope,
            source,
            summary,
        }
    }

    /// The severity of the rule under `profile`.
    pub const fn severity(&self, profile: Profile) -> Severity {
        match profile {
            Profile::Canonical => self.canonical,
            Profile::Strict => self.strict,
        }
    }
}

/// Declares rules: for each, a public [`Rule`] constant (with its doc
/// comment) and an entry of a `&[RuleInfo]` list named first. See the
/// [module documentation](crate::rules) for an example.
#[macro_export]
macro_rules! declare_rules {
    (
        $(#[$list_meta:meta])*
        $list_vis:vis const $list:ident;
        $(
            $(#[$meta:meta])*
            $vis:vis const $name:ident = $id:tt {
                strict: $strict:ident,
                scope: $scope:ident,
                source: $source:expr,
                summary: $summary:expr $(,)?
            }
        )*
    ) => {
        $(
            $(#[$meta])*
            $vis const $name: $crate::Rule = $crate::__rule_id!($id);
        )*
        $(#[$list_meta])*
        $list_vis const $list: &[$crate::rules::RuleInfo] = &[
            $(
                $crate::rules::RuleInfo::new(
                    $name,
                    $crate::Severity::$strict,
                    $crate::rules::Scope::$scope,
                    $source,
                    $summary,
                ),
            )*
        ];
    };
}

/// The id of a rule in [`declare_rules!`]: a literal, or (in parentheses)
/// a [`Rule`] declared elsewhere (an implementation detail of the macro).
#[doc(hidden)]
#[macro_export]
macro_rules! __rule_id {
    ($id:literal) => {
        $crate::Rule::new($id)
    };
    (($rule:expr)) => {
        $rule
    };
}

/// The schema rules (the JSON Schema keywords in kebab case, reported by the
/// thorough pass of every document; the ids are [`Rule`]'s associated
/// constants, e.g. [`Rule::REQUIRED`]) and the lifecycle refusal.
pub const SCHEMA_RULES: &[RuleInfo] = &[
    RuleInfo::new(
        Rule::REQUIRED,
        Severity::Error,
        Scope::Document,
        Source::Schema {
            keyword: "required",
        },
        "a required property is missing",
    ),
    RuleInfo::new(
        Rule::ADDITIONAL_PROPERTIES,
        Severity::Error,
        Scope::Document,
        Source::Schema {
            keyword: "additionalProperties",
        },
        "a property the schema does not allow",
    ),
    RuleInfo::new(
        Rule::ENUM,
        Severity::Error,
        Scope::Document,
        Source::Schema { keyword: "enum" },
        "a value outside the allowed set of an `enum` (or `const`)",
    ),
    RuleInfo::new(
        Rule::PATTERN,
        Severity::Error,
        Scope::Document,
        Source::Schema { keyword: "pattern" },
        "a string that does not match the schema's `pattern`",
    ),
    RuleInfo::new(
        Rule::FORMAT,
        Severity::Error,
        Scope::Document,
        Source::Schema { keyword: "format" },
        "a string that is not of its `format` (`date-time`, `uuid`)",
    ),
    RuleInfo::new(
        Rule::MIN_LENGTH,
        Severity::Error,
        Scope::Document,
        Source::Schema {
            keyword: "minLength",
        },
        "a string shorter than `minLength`",
    ),
    RuleInfo::new(
        Rule::MIN_ITEMS,
        Severity::Error,
        Scope::Document,
        Source::Schema {
            keyword: "minItems",
        },
        "an array shorter than `minItems`",
    ),
    RuleInfo::new(
        Rule::UNIQUE_ITEMS,
        Severity::Error,
        Scope::Document,
        Source::Schema {
            keyword: "uniqueItems",
        },
        "an array with repeated items where `uniqueItems` is set",
    ),
    RuleInfo::new(
        Rule::TYPE,
        Severity::Error,
        Scope::Document,
        Source::Schema { keyword: "type" },
        "a value of the wrong JSON type",
    ),
    RuleInfo::new(
        Rule::MINIMUM,
        Severity::Error,
        Scope::Document,
        Source::Schema { keyword: "minimum" },
        "a number below `minimum`",
    ),
    RuleInfo::new(
        Rule::MAXIMUM,
        Severity::Error,
        Scope::Document,
        Source::Schema { keyword: "maximum" },
        "a number above `maximum`",
    ),
    RuleInfo::new(
        Rule::DUPLICATE_KEY,
        Severity::Error,
        Scope::Document,
        Source::Prose {
            doc: "RFC 8259 (JSON)",
            section: "4. Objects (names SHOULD be unique; read as MUST, see spec-notes)",
        },
        "an object names the same member twice",
    ),
    RuleInfo::new(
        Rule::JSON_SYNTAX,
        Severity::Error,
        Scope::Document,
        Source::Prose {
            doc: "RFC 8259 (JSON)",
            section: "2. JSON Grammar",
        },
        "the input is not well-formed JSON (or not UTF-8, or nested too deeply)",
    ),
    RuleInfo::new(
        Rule::LIFECYCLE_TRANSITION,
        Severity::Error,
        Scope::Api,
        Source::Prose {
            doc: "Plan, Dialog and Collab Modules",
            section: "Lifecycle State Machine",
        },
        "a lifecycle transition that the module's state table does not allow",
    ),
];

crate::declare_rules! {
    /// The rules of reading an input (a file, a directory entry, standard
    /// input) before any validation: what `mplp validate` reports for an
    /// input it cannot check. Profiles do not change them (scope `Api`).
    pub const INPUT_RULES;

    /// The input cannot be read: missing, unreadable, a directory loop; the
    /// message carries the operating system's error.
    pub const INPUT_IO = "io" {
        strict: Error,
        scope: Api,
        source: Source::Sdk { note: "Inputs that cannot be read" },
        summary: "the input cannot be read (missing, unreadable, a directory loop)",
    }

    /// A document (not a log) is larger than the configured limit, so it was
    /// not read into memory.
    pub const INPUT_TOO_LARGE = "input-too-large" {
        strict: Error,
        scope: Api,
        source: Source::Sdk { note: "Inputs that cannot be read" },
        summary: "a document is larger than the size limit and was not read",
    }

    /// Arrays and objects nested deeper than
    /// [`MAX_NESTING`](mplp_json::nesting::MAX_NESTING) levels: not read, to keep
    /// the stack safe (the canonical schemas set no depth). The JSON engine
    /// raises it, so its id is [`Rule::JSON_DEPTH`].
    pub const JSON_DEPTH = (Rule::JSON_DEPTH) {
        strict: Error,
        scope: Api,
        source: Source::Sdk { note: "Nesting" },
        summary: "arrays and objects nested deeper than the limit mplp-rs reads (1,024 levels)",
    }

    /// A directory entry that is not a regular file (a FIFO, a socket, a
    /// device) was skipped without being opened.
    pub const INPUT_SKIPPED = "input-skipped" {
        strict: Warning,
        scope: Api,
        source: Source::Sdk { note: "Inputs that cannot be read" },
        summary: "a directory entry that is not a regular file was skipped, never opened",
    }

    /// A file starts with a UTF-8 byte-order mark, which `mplp` skipped
    /// before reading the JSON (RFC 8259 lets a parser ignore it; the
    /// library refuses it with a `json-syntax` error that names it).
    pub const INPUT_BOM = "input-bom" {
        strict: Warning,
        scope: Api,
        source: Source::Sdk { note: "Byte-order marks" },
        summary: "a file starts with a UTF-8 byte-order mark, which was skipped",
    }
}

/// The rules of mplp-core: [`SCHEMA_RULES`] and [`INPUT_RULES`].
pub fn rules() -> impl Iterator<Item = &'static RuleInfo> {
    SCHEMA_RULES.iter().chain(INPUT_RULES)
}

/// Applies `profile` to a report: each violation takes the severity its rule
/// has under the profile, as `lookup` finds it in the rule registries (a
/// rule that `lookup` does not know keeps its severity; rules of scope
/// [`Scope::Api`] are not findings of validation and keep theirs too).
///
/// ```
/// use mplp_core::rules::{apply, Profile, RuleInfo};
/// use mplp_core::{Report, Rule};
/// let mut report = Report::new();
/// report.error("/status", Rule::new("some_sdk_rule"), "...");
/// let none = |_: &str| -> Option<&'static RuleInfo> { None };
/// assert!(!apply(report, Profile::Canonical, none).is_valid());
/// ```
pub fn apply<'a>(
    report: Report,
    profile: Profile,
    lookup: impl Fn(&str) -> Option<&'a RuleInfo>,
) -> Report {
    let mut out = Report::new();
    for v in report {
        let info = lookup(v.rule.as_str());
        out.push(apply_one(v, profile, info));
    }
    out
}

/// Applies `profile` to one violation whose rule is `info` (`None`: a rule
/// no registry knows, which keeps its severity): what [`apply`] does to
/// each violation of a report.
pub fn apply_one(mut v: Violation, profile: Profile, info: Option<&RuleInfo>) -> Violation {
    if let Some(info) = info {
        // Profiles only relax: `strict` is what the SDK reports, and
        // `canonical` turns the errors of SDK-level rules into warnings.
        if info.scope != Scope::Api
            && profile == Profile::Canonical
            && info.canonical == Severity::Warning
        {
            v.severity = Severity::Warning;
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_rules_are_the_rule_constants() {
        let consts = [
            Rule::REQUIRED,
            Rule::ADDITIONAL_PROPERTIES,
            Rule::ENUM,
            Rule::PATTERN,
            Rule::FORMAT,
            Rule::MIN_LENGTH,
            Rule::MIN_ITEMS,
            Rule::UNIQUE_ITEMS,
            Rule::TYPE,
            Rule::MINIMUM,
            Rule::MAXIMUM,
            Rule::DUPLICATE_KEY,
            Rule::JSON_SYNTAX,
            Rule::LIFECYCLE_TRANSITION,
        ];
        let listed: Vec<Rule> = SCHEMA_RULES.iter().map(|r| r.rule).collect();
        assert_eq!(listed, consts);
    }

    #[test]
    fn canonical_relaxes_only_sdk_decisions_on_documents_and_logs() {
        let sdk = Source::Sdk { note: "x" };
        let inv = Source::Invariant { file: "f", id: "i" };
        let r = Rule::new("r");
        for scope in [Scope::Document, Scope::Log, Scope::Api, Scope::Bundle] {
            for strict in [Severity::Error, Severity::Warning] {
                let normative = RuleInfo::new(r, strict, scope, inv, "");
                assert_eq!(normative.canonical, strict);
                let own = RuleInfo::new(r, strict, scope, sdk, "");
                let expected = if scope == Scope::Api {
                    strict
                } else {
                    Severity::Warning
                };
                assert_eq!(own.canonical, expected, "{scope:?} {strict:?}");
                assert_eq!(own.severity(Profile::Strict), strict);
            }
        }
    }

    #[test]
    fn profiles_relax_sdk_document_rules_and_nothing_else() {
        let sdk = Source::Sdk { note: "x" };
        let inv = Source::Invariant { file: "f", id: "i" };
        let table = [
            RuleInfo::new(
                Rule::new("sdk_doc"),
                Severity::Error,
                Scope::Document,
                sdk,
                "",
            ),
            RuleInfo::new(
                Rule::new("normative"),
                Severity::Error,
                Scope::Document,
                inv,
                "",
            ),
            // An API rule whose registry severity is a warning, reported as
            // an error: not a finding of validation, so left alone.
            RuleInfo::new(Rule::new("sdk_api"), Severity::Warning, Scope::Api, sdk, ""),
        ];
        let lookup = |id: &str| table.iter().find(|r| r.rule.as_str() == id);
        let report = || {
            let mut r = Report::new();
            for id in ["sdk_doc", "normative", "sdk_api", "unknown"] {
                r.error("/x", Rule::new(id), "m");
            }
            r.warn("/y", Rule::new("sdk_doc"), "already a warning");
            r
        };
        let severities = |profile| -> Vec<(String, Severity)> {
            apply(report(), profile, lookup)
                .into_violations()
                .into_iter()
                .map(|v| (v.rule.as_str().to_owned(), v.severity))
                .collect()
        };
        let pairs = |p: [(&str, Severity); 5]| -> Vec<(String, Severity)> {
            p.iter().map(|(r, s)| ((*r).to_owned(), *s)).collect()
        };
        use Severity::{Error, Warning};
        assert_eq!(
            severities(Profile::Canonical),
            pairs([
                ("sdk_doc", Warning),
                ("normative", Error),
                ("sdk_api", Error),
                ("unknown", Error),
                ("sdk_doc", Warning),
            ])
        );
        assert_eq!(
            severities(Profile::Strict),
            pairs([
                ("sdk_doc", Error),
                ("normative", Error),
                ("sdk_api", Error),
                ("unknown", Error),
                ("sdk_doc", Warning),
            ])
        );
    }

    #[test]
    fn scopes_sources_and_the_registry_read_as_written() {
        let names: Vec<_> = [Scope::Document, Scope::Log, Scope::Api, Scope::Bundle]
            .into_iter()
            .map(Scope::as_str)
            .collect();
        assert_eq!(names, ["document", "log", "api", "bundle"]);
        let shown: Vec<String> = [
            Source::Invariant {
                file: "plan.yaml",
                id: "plan_steps_unique",
            },
            Source::Schema {
                keyword: "minItems",
            },
            Source::Prose {
                doc: "MPLP Plan",
                section: "4.2",
            },
            Source::Sdk { note: "Nesting" },
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        assert_eq!(
            shown,
            [
                "invariant `plan_steps_unique` (plan.yaml)",
                "schema keyword `minItems`",
                "MPLP Plan, 4.2",
                "SDK decision (spec-notes: Nesting)",
            ]
        );
        let ids: Vec<&str> = rules().map(|r| r.rule.as_str()).collect();
        assert_eq!(ids.len(), SCHEMA_RULES.len() + INPUT_RULES.len());
        assert!(
            ids.contains(&"json-depth") && ids.contains(&"required"),
            "{ids:?}"
        );
    }
}

//! [`Rule`]: the stable id of the rule a violation breaks, which the
//! deserialization helpers ([`crate::de::raise`]) carry through serde's errors.

use std::fmt;

use serde::{Serialize, Serializer};

/// A stable rule identifier, such as `required`, `pattern` or `sa_plan_dag_acyclic`.
///
/// Schema rules use the JSON Schema keyword names in kebab case (the
/// associated constants below). Semantic rules use the canonical invariant
/// ids of MPLP v1.0.0 (for example `sa_plan_dag_acyclic`) and are defined as
/// constants by the crate that checks them. The text of a rule id is part of
/// the public interface (the CLI prints it) and never changes.
///
/// ```
/// use mplp_json::Rule;
/// assert_eq!(Rule::REQUIRED.as_str(), "required");
/// const MY_RULE: Rule = Rule::new("my_rule");
/// assert_eq!(MY_RULE.to_string(), "my_rule");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rule(&'static str);

impl Rule {
    /// A required property is missing.
    pub const REQUIRED: Rule = Rule("required");
    /// A property that the schema does not allow (`additionalProperties: false`).
    pub const ADDITIONAL_PROPERTIES: Rule = Rule("additional-properties");
    /// A value outside the allowed set of an `enum` (or `const`).
    pub const ENUM: Rule = Rule("enum");
    /// A string that does not match the schema's `pattern`.
    pub const PATTERN: Rule = Rule("pattern");
    /// A string that is not of the schema's `format` (`date-time`, `uuid`).
    pub const FORMAT: Rule = Rule("format");
    /// A string shorter than `minLength`.
    pub const MIN_LENGTH: Rule = Rule("min-length");
    /// An array shorter than `minItems`.
    pub const MIN_ITEMS: Rule = Rule("min-items");
    /// An array with repeated items where `uniqueItems` is set.
    pub const UNIQUE_ITEMS: Rule = Rule("unique-items");
    /// A value of the wrong JSON type.
    pub const TYPE: Rule = Rule("type");
    /// A number below `minimum`.
    pub const MINIMUM: Rule = Rule("minimum");
    /// A number above `maximum`.
    pub const MAXIMUM: Rule = Rule("maximum");
    /// An object that names the same key twice. JSON Schema cannot see this
    /// (parsers silently keep one value); mplp-rs rejects it, because a
    /// validator that silently drops data is not a validator.
    pub const DUPLICATE_KEY: Rule = Rule("duplicate-key");
    /// The input is not well-formed JSON (or not UTF-8, or nested too deeply).
    pub const JSON_SYNTAX: Rule = Rule("json-syntax");
    /// A lifecycle transition that the module's state table does not allow.
    pub const LIFECYCLE_TRANSITION: Rule = Rule("lifecycle-transition");
    /// Arrays and objects nested deeper than
    /// [`MAX_NESTING`](crate::nesting::MAX_NESTING) levels: not read, to keep
    /// the stack safe (registered in mplp-core's `rules::INPUT_RULES` as
    /// `rules::JSON_DEPTH`).
    pub const JSON_DEPTH: Rule = Rule("json-depth");

    /// Makes a rule id. Use snake_case invariant ids for semantic rules.
    pub const fn new(id: &'static str) -> Self {
        Rule(id)
    }

    /// The id as text.
    pub const fn as_str(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl Serialize for Rule {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0)
    }
}

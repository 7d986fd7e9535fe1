//! Leaf values of the learning and integration schemas: strings of
//! `format: uri` and `format: email`, and JSON numbers with bounds.
//!
//! Each type has one parser, used by `Deserialize`, `FromStr`/`new` and the
//! all-errors [`CheckValue`] pass, so the fast path and the thorough pass
//! cannot disagree; `cargo xtask schema-check` holds them equal to the
//! `jsonschema` crate's format checks on mutated documents.
//!
//! # Spec notes
//! - **`uri`** is RFC 3986 `URI` (a scheme is required; a relative reference
//!   is not a URI), parsed with `fluent-uri`, the parser the `jsonschema`
//!   crate falls back on.
//! - **`email`** is RFC 5321 as the `jsonschema` crate checks it: the
//!   `email_address` parser, an ASCII local part, and a domain that is an
//!   ASCII host name (labels of 1 to 63 letters, digits and hyphens, not
//!   starting or ending with a hyphen, at most 253 characters, no `--` in
//!   the third and fourth places except in an `xn--` label) or an address
//!   literal (`[192.0.2.1]`, `[IPv6:2001:db8::1]`). An `xn--` label is not
//!   decoded: the `jsonschema` crate also refuses one whose Punycode does
//!   not decode to a valid IDNA label (see `docs/spec-notes.md`).
//! - **Numbers** keep the JSON number as written (`5` stays `5`, `5.0`
//!   stays `5.0`), so round trips are exact.

use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

use mplp_core::check::{CheckValue, expect_str, type_error};
use mplp_core::{Pointer, Report, Rule};
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Number, Value};

/// Why a string is not of its format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not {expected}")]
pub struct FormatError {
    text: String,
    expected: &'static str,
}

macro_rules! format_string {
    ($(#[$meta:meta])* $name:ident, $format:literal, $expected:literal, $check:path) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(String);

        impl $name {
            /// Parses the text, keeping it as written.
            pub fn new(s: impl Into<String>) -> Result<Self, FormatError> {
                let s = s.into();
                if $check(&s) {
                    Ok($name(s))
                } else {
                    Err(FormatError { text: s, expected: $expected })
                }
            }

            /// The text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl FromStr for $name {
            type Err = FormatError;
            fn from_str(s: &str) -> Result<Self, FormatError> {
                $name::new(s)
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.0)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl Visitor<'_> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str(concat!("a string of format `", $format, "`"))
                    }
                    fn visit_str<E: de::Error>(self, s: &str) -> Result<$name, E> {
                        $name::new(s).map_err(|e| mplp_json::de::raise(Rule::FORMAT, e))
                    }
                }
                d.deserialize_str(V)
            }
        }

        impl CheckValue for $name {
            fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
                if let Some(s) = expect_str(value, at, report) {
                    if !$check(s) {
                        report.error(at, Rule::FORMAT, format!("`{s}` is not {}", $expected));
                    }
                }
            }
        }

        mplp_core::__schemars_string!($name, { "type": "string", "format": $format });
    };
}

format_string!(
    /// A string of `format: uri`: an RFC 3986 URI (with a scheme).
    ///
    /// ```
    /// use mplp_events::formats::Uri;
    /// assert!(Uri::new("https://ci.example.com/runs/42").is_ok());
    /// assert!(Uri::new("urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66").is_ok());
    /// assert!(Uri::new("runs/42").is_err()); // a relative reference
    /// ```
    Uri,
    "uri",
    "a URI (RFC 3986, with a scheme)",
    is_uri
);

format_string!(
    /// A string of `format: email`: an RFC 5321 mailbox.
    ///
    /// ```
    /// use mplp_events::formats::Email;
    /// assert!(Email::new("dev@example.com").is_ok());
    /// assert!(Email::new("dev@[192.0.2.1]").is_ok());
    /// assert!(Email::new("dev@-example.com").is_err());
    /// assert!(Email::new("example.com").is_err());
    /// ```
    Email,
    "email",
    "an email address (RFC 5321)",
    is_email
);

/// True for an RFC 3986 URI (a scheme is required).
pub fn is_uri(s: &str) -> bool {
    fluent_uri::Uri::parse(s).is_ok()
}

/// True for an email address as the `jsonschema` crate's `email` format
/// accepts it (see the module's spec notes).
pub fn is_email(s: &str) -> bool {
    // An empty quoted local part is allowed by RFC 5321; the parser refuses it.
    if let Some(domain) = s.strip_prefix("\"\"@") {
        return is_email(&format!("\"a\"@{domain}"));
    }
    let Ok(parsed) = email_address::EmailAddress::from_str(s) else {
        return false;
    };
    if !parsed.local_part().is_ascii() {
        return false;
    }
    let domain = parsed.domain();
    match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(literal) => match literal.get(..5) {
            Some(tag) if tag.eq_ignore_ascii_case("IPv6:") => {
                literal[5..].parse::<Ipv6Addr>().is_ok()
            }
            _ => literal.parse::<Ipv4Addr>().is_ok(),
        },
        None => is_host_name(domain),
    }
}

/// An ASCII host name (RFC 1034 labels; see the module's spec notes).
fn is_host_name(s: &str) -> bool {
    let b = s.as_bytes();
    // An empty name and a trailing dot make an empty label, refused below.
    if b.len() > 253 {
        return false;
    }
    b.split(|c| *c == b'.').all(|label| {
        !label.is_empty()
            && label.len() <= 63
            && label
                .iter()
                .all(|c| c.is_ascii_alphanumeric() || *c == b'-')
            && label.first() != Some(&b'-')
            && label.last() != Some(&b'-')
            && !(label.len() >= 4 && &label[2..4] == b"--" && !label.starts_with(b"xn--"))
    })
}

macro_rules! bounded_number {
    ($(#[$meta:meta])* $name:ident, $min:literal, $max:expr, $schema:tt) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $name(Number);

        impl $name {
            /// The number, when it is within the bounds.
            pub fn new(n: impl Into<Number>) -> Option<Self> {
                let n = n.into();
                Self::in_bounds(&n).then_some($name(n))
            }

            /// The number as written.
            pub fn as_number(&self) -> &Number {
                &self.0
            }

            /// The value as an `f64`.
            pub fn get(&self) -> f64 {
                self.0.as_f64().unwrap_or_default()
            }

            fn in_bounds(n: &Number) -> bool {
                let max: Option<f64> = $max;
                match n.as_f64() {
                    Some(v) => v >= $min as f64 && max.is_none_or(|m| v <= m),
                    None => false,
                }
            }

            fn bound_message(n: &Number) -> String {
                let max: Option<f64> = $max;
                match max {
                    Some(m) => format!("expected a number from {} to {m}, found {n}", $min),
                    None => format!("expected a number of at least {}, found {n}", $min),
                }
            }

            fn rule_for(n: &Number) -> Rule {
                if n.as_f64().is_some_and(|v| v < $min as f64) {
                    Rule::MINIMUM
                } else {
                    Rule::MAXIMUM
                }
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                self.0.serialize(s)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let n = Number::deserialize(d)?;
                if $name::in_bounds(&n) {
                    Ok($name(n))
                } else {
                    Err(mplp_json::de::raise($name::rule_for(&n), $name::bound_message(&n)))
                }
            }
        }

        impl CheckValue for $name {
            fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
                match value {
                    Value::Number(n) if !$name::in_bounds(n) => {
                        report.error(at, $name::rule_for(n), $name::bound_message(n));
                    }
                    Value::Number(_) => {}
                    other => type_error(other, at, report, "a number"),
                }
            }
        }

        mplp_core::__schemars_string!($name, $schema);
    };
}

bounded_number!(
    /// A JSON number of at least 0 (`type: number, minimum: 0`), kept as written.
    ///
    /// ```
    /// use mplp_events::formats::NonNegative;
    /// assert!(NonNegative::new(12).is_some());
    /// assert!(NonNegative::new(-1).is_none());
    /// let n: NonNegative = serde_json::from_str("2.5").unwrap();
    /// assert_eq!(serde_json::to_string(&n).unwrap(), "2.5");
    /// ```
    NonNegative,
    0,
    None,
    { "type": "number", "minimum": 0 }
);

bounded_number!(
    /// A JSON number from 0 to 1 (`type: number, minimum: 0, maximum: 1`).
    ///
    /// ```
    /// use mplp_events::formats::UnitInterval;
    /// assert!(UnitInterval::new(1).is_some());
    /// assert!(serde_json::from_str::<UnitInterval>("1.5").is_err());
    /// ```
    UnitInterval,
    0,
    Some(1.0),
    { "type": "number", "minimum": 0, "maximum": 1 }
);

bounded_number!(
    /// A JSON number from 0 to 5 (`type: number, minimum: 0, maximum: 5`):
    /// a feedback rating.
    ///
    /// ```
    /// use mplp_events::formats::Rating;
    /// assert!(Rating::new(5).is_some());
    /// assert!(Rating::new(6).is_none());
    /// ```
    Rating,
    0,
    Some(5.0),
    { "type": "number", "minimum": 0, "maximum": 5 }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_need_a_scheme() {
        for ok in [
            "https://github.com/org/repo/actions/runs/1",
            "HTTPS://GITHUB.COM/ORG",
            "urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66",
            "mailto:dev@example.com",
        ] {
            assert!(is_uri(ok), "{ok}");
        }
        for bad in [
            "",
            "x",
            "runs/1",
            "2025-12-07T00:00:05Z",
            "http://exa mple.com",
            "git@github.com:org/repo.git",
        ] {
            assert!(!is_uri(bad), "{bad}");
        }
    }

    #[test]
    fn emails_follow_rfc_5321() {
        for ok in [
            "dev@example.com",
            "a.b+c@sub.example.org",
            "\"\"@example.com",
            "x@[IPv6:2001:db8::1]",
            "x@[192.0.2.1]",
            "x@xn--bcher-kva.example",
            "x@localhost",
        ] {
            assert!(is_email(ok), "{ok}");
        }
        for bad in [
            "",
            "x",
            "@example.com",
            "dev@",
            "dev@-x.com",
            "dev@x-.com",
            "dev@ab--cd.com",
            "dev@example.com.",
            "dev@[300.1.1.1]",
            "dév@example.com",
        ] {
            assert!(!is_email(bad), "{bad}");
        }
        // A host name has at most 253 characters (labels of up to 63).
        let label = "a".repeat(63);
        let name = |last: usize| format!("{label}.{label}.{label}.{}", "b".repeat(last));
        assert_eq!(name(61).len(), 253);
        assert!(is_host_name(&name(61)));
        assert!(is_email(&format!("x@{}", name(61))));
        assert!(!is_host_name(&name(62)));
        assert!(!is_email(&format!("x@{}", name(62))));
        assert!(!is_host_name(&format!("{label}.{}", "c".repeat(64))));
        for bad in ["", ".", "a.", "a..b", ".a"] {
            assert!(!is_host_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn bounded_numbers_keep_their_text_and_name_the_bound() {
        let n: UnitInterval = serde_json::from_str("1.0").unwrap();
        assert_eq!(serde_json::to_string(&n).unwrap(), "1.0");
        let mut r = Report::new();
        UnitInterval::check_value(&serde_json::json!(-0.5), &Pointer::root(), &mut r);
        UnitInterval::check_value(&serde_json::json!(7), &Pointer::root(), &mut r);
        UnitInterval::check_value(&serde_json::json!("1"), &Pointer::root(), &mut r);
        let rules: Vec<&str> = r.errors().map(|v| v.rule.as_str()).collect();
        assert_eq!(rules, ["minimum", "maximum", "type"]);
        assert_eq!(
            NonNegative::new(u64::MAX).map(|n| n.get()),
            Some(u64::MAX as f64)
        );
    }
}

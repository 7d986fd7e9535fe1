//! [`SemVer`]: a Semantic Versioning 2.0.0 version string, as the
//! Extension schema's `version` pattern says.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use mplp_core::check::{CheckValue, expect_str};
use mplp_core::{Pointer, Report, Rule};
use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::{Serialize, Serializer};
use serde_json::Value;

/// The `pattern` of the Extension schema's `version`: SemVer 2.0.0
/// (`MAJOR.MINOR.PATCH`, an optional `-pre.release`, an optional `+build`).
pub const SEMVER_PATTERN: &str = r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$";

/// A Semantic Versioning 2.0.0 version (`2.1.0`, `1.0.0-rc.1+build.7`),
/// exactly as [`SEMVER_PATTERN`] accepts it: no leading zeros in numbers,
/// non-empty dot-separated identifiers, ASCII only. The text is kept as
/// written.
///
/// Unlike [`mplp_core::Version`] (the `meta` versions, digits only), a
/// `SemVer` may carry a pre-release and build suffix. [`SemVer::precedence`]
/// orders versions as SemVer §11 says (build metadata is ignored).
///
/// ```
/// use mplp_extension::SemVer;
/// let v: SemVer = "1.4.0-rc.1+build.7".parse().unwrap();
/// assert_eq!(v.pre_release(), Some("rc.1"));
/// assert_eq!(v.build(), Some("build.7"));
/// assert!("01.0.0".parse::<SemVer>().is_err()); // leading zero
/// assert!("1.0".parse::<SemVer>().is_err());
/// let rc: SemVer = "1.4.0-rc.1".parse().unwrap();
/// let release: SemVer = "1.4.0".parse().unwrap();
/// assert!(rc.precedence(&release).is_lt());
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SemVer(String);

/// The error of parsing a [`SemVer`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SemVerError(String);

impl fmt::Display for SemVerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a SemVer 2.0.0 version (expected MAJOR.MINOR.PATCH without leading zeros, optionally followed by -PRERELEASE and +BUILD, such as 1.2.0-rc.1)",
            self.0
        )
    }
}

impl std::error::Error for SemVerError {}

/// Numbers: `0` or no leading zero, ASCII digits only.
fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'))
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-'
}

/// A pre-release identifier: a number, or an alphanumeric identifier with
/// at least one letter or hyphen.
fn is_pre_ident(s: &str) -> bool {
    is_number(s)
        || (!s.is_empty() && s.bytes().all(is_ident_byte) && s.bytes().any(|b| !b.is_ascii_digit()))
}

fn is_build_ident(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(is_ident_byte)
}

/// The three parts: core, pre-release, build.
fn split(s: &str) -> (&str, Option<&str>, Option<&str>) {
    let (rest, build) = match s.split_once('+') {
        Some((a, b)) => (a, Some(b)),
        None => (s, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((a, b)) => (a, Some(b)),
        None => (rest, None),
    };
    (core, pre, build)
}

fn is_semver(s: &str) -> bool {
    let (core, pre, build) = split(s);
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|p| is_number(p))
        && pre.is_none_or(|p| p.split('.').all(is_pre_ident))
        && build.is_none_or(|b| b.split('.').all(is_build_ident))
}

impl SemVer {
    /// Parses a version.
    ///
    /// # Errors
    /// [`SemVerError`] when `s` does not match [`SEMVER_PATTERN`].
    pub fn parse(s: &str) -> Result<Self, SemVerError> {
        if is_semver(s) {
            Ok(SemVer(s.to_owned()))
        } else {
            Err(SemVerError(s.to_owned()))
        }
    }

    /// The text, as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The pre-release part (after `-`, before `+`), if any.
    pub fn pre_release(&self) -> Option<&str> {
        split(&self.0).1
    }

    /// The build metadata (after `+`), if any.
    pub fn build(&self) -> Option<&str> {
        split(&self.0).2
    }

    /// SemVer §11 precedence: major, minor and patch numerically; a
    /// pre-release is lower than its release; pre-release identifiers
    /// compared one by one (numbers numerically and below alphanumerics);
    /// build metadata ignored. `Equal` for `1.0.0+a` and `1.0.0+b`, so this
    /// is not `Ord` (which must agree with `==`).
    ///
    /// ```
    /// use mplp_extension::SemVer;
    /// let v = |s: &str| s.parse::<SemVer>().unwrap();
    /// let ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta",
    ///     "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "2.0.0", "10.0.0"];
    /// for w in ordered.windows(2) {
    ///     assert!(v(w[0]).precedence(&v(w[1])).is_lt(), "{} < {}", w[0], w[1]);
    /// }
    /// assert!(v("1.0.0+a").precedence(&v("1.0.0+b")).is_eq());
    /// ```
    pub fn precedence(&self, other: &SemVer) -> Ordering {
        let (a_core, a_pre, _) = split(&self.0);
        let (b_core, b_pre, _) = split(&other.0);
        for (x, y) in a_core.split('.').zip(b_core.split('.')) {
            let o = cmp_numbers(x, y);
            if o.is_ne() {
                return o;
            }
        }
        match (a_pre, b_pre) {
            (None, None) => Ordering::Equal,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some(a), Some(b)) => {
                let mut xs = a.split('.');
                let mut ys = b.split('.');
                loop {
                    match (xs.next(), ys.next()) {
                        (None, None) => return Ordering::Equal,
                        (None, Some(_)) => return Ordering::Less,
                        (Some(_), None) => return Ordering::Greater,
                        (Some(x), Some(y)) => {
                            let o = match (is_number(x), is_number(y)) {
                                (true, true) => cmp_numbers(x, y),
                                (true, false) => Ordering::Less,
                                (false, true) => Ordering::Greater,
                                (false, false) => x.cmp(y),
                            };
                            if o.is_ne() {
                                return o;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Compares two numbers without leading zeros, of any length.
fn cmp_numbers(a: &str, b: &str) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

impl fmt::Debug for SemVer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SemVer({})", self.0)
    }
}

impl fmt::Display for SemVer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for SemVer {
    type Err = SemVerError;
    fn from_str(s: &str) -> Result<Self, SemVerError> {
        SemVer::parse(s)
    }
}

impl Serialize for SemVer {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for SemVer {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = SemVer;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a SemVer 2.0.0 version string")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<SemVer, E> {
                SemVer::parse(s).map_err(|e| mplp_json::de::raise(Rule::PATTERN, e))
            }
        }
        d.deserialize_str(V)
    }
}

impl CheckValue for SemVer {
    fn check_value(value: &Value, at: &Pointer, report: &mut Report) {
        if let Some(s) = expect_str(value, at, report) {
            if let Err(e) = SemVer::parse(s) {
                report.error(at, Rule::PATTERN, e.to_string());
            }
        }
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for SemVer {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SemVer".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "pattern": SEMVER_PATTERN })
    }
}

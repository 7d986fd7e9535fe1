//! The one error type of the SDK, and the violations it carries.
//!
//! Every problem found in a document is a [`Violation`]: a JSON pointer
//! ([RFC 6901](https://www.rfc-editor.org/rfc/rfc6901)), a stable [`Rule`] id
//! and a message that says what was expected. Validation collects *all*
//! violations into a [`Report`]; an invalid document becomes
//! [`Error::Invalid`] with every one of them.

use std::fmt;

use serde::Serialize;

use mplp_json::Rule;

/// How serious a violation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The document is invalid.
    Error,
    /// The document is valid, but probably not what was meant.
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// One problem found in a document.
///
/// ```
/// use mplp_core::{Rule, Severity, Violation};
/// let v = Violation::error("/steps/2/dependencies/0", Rule::PATTERN, "expected a lowercase UUID v4");
/// assert_eq!(v.severity, Severity::Error);
/// assert_eq!(v.to_string(), "/steps/2/dependencies/0: [pattern] expected a lowercase UUID v4");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Violation {
    /// Where: an RFC 6901 JSON pointer into the document (`""` is the whole document).
    pub pointer: String,
    /// Which rule was broken.
    pub rule: Rule,
    /// What is wrong and what was expected.
    pub message: String,
    /// Error or warning.
    #[serde(skip)]
    pub severity: Severity,
    /// For line-oriented inputs (NDJSON logs), the 1-based line number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
}

impl Violation {
    /// A violation that makes the document invalid.
    pub fn error(pointer: impl Into<String>, rule: Rule, message: impl Into<String>) -> Self {
        Violation {
            pointer: pointer.into(),
            rule,
            message: message.into(),
            severity: Severity::Error,
            line: None,
        }
    }

    /// A violation that is only reported as a warning.
    pub fn warning(pointer: impl Into<String>, rule: Rule, message: impl Into<String>) -> Self {
        Violation {
            severity: Severity::Warning,
            ..Violation::error(pointer, rule, message)
        }
    }

    /// The same violation, located on a line of a line-oriented input.
    #[must_use]
    pub fn at_line(mut self, line: u64) -> Self {
        self.line = Some(line);
        self
    }

    /// The same violation, with its pointer placed below `prefix`
    /// (for documents embedded in larger ones).
    #[must_use]
    pub fn under(mut self, prefix: &str) -> Self {
        self.pointer.insert_str(0, prefix);
        self
    }

    /// True for [`Severity::Error`].
    #[inline]
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The JSON Schema keyword behind a violation that is reported under a
    /// frozen invariant's id because the schema states the invariant (see
    /// [`Document::STATED_BY_SCHEMA`](crate::Document::STATED_BY_SCHEMA)):
    /// `Some("enum")` for `map_participant_kind_valid` at
    /// `/participants/0/kind`. `None` for every other violation.
    pub fn schema_keyword(&self) -> Option<&str> {
        let rest = self.message.strip_suffix("`)")?;
        let at = rest.rfind(SCHEMA_KEYWORD_MARK)?;
        let keyword = &rest[at + SCHEMA_KEYWORD_MARK.len()..];
        (!keyword.is_empty() && keyword.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'))
            .then_some(keyword)
    }
}

/// What separates a message from the schema keyword behind it (see
/// [`Violation::schema_keyword`]).
const SCHEMA_KEYWORD_MARK: &str = " (schema `";

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        let pointer = if self.pointer.is_empty() {
            "(document)"
        } else {
            &self.pointer
        };
        write!(f, "{pointer}: [{}] {}", self.rule, self.message)
    }
}

/// All violations found in one document, errors and warnings.
///
/// ```
/// use mplp_core::{Report, Rule};
/// let mut report = Report::new();
/// report.warn("/status", Rule::new("some_advice"), "consider this");
/// assert!(report.is_valid());
/// report.error("/title", Rule::MIN_LENGTH, "expected at least 1 character");
/// assert!(!report.is_valid());
/// assert_eq!(report.errors().count(), 1);
/// assert_eq!(report.warnings().count(), 1);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    violations: Vec<Violation>,
}

impl Report {
    /// An empty report.
    pub fn new() -> Self {
        Report::default()
    }

    /// Reports each violation for which `rule_for` names a rule under that
    /// rule, its former rule (a schema keyword) kept at the end of its
    /// message, where [`Violation::schema_keyword`] finds it.
    pub(crate) fn relabel(&mut self, mut rule_for: impl FnMut(&Violation) -> Option<Rule>) {
        for v in &mut self.violations {
            if let Some(rule) = rule_for(v) {
                v.message = format!("{}{SCHEMA_KEYWORD_MARK}{}`)", v.message, v.rule);
                v.rule = rule;
            }
        }
    }

    /// Adds a violation.
    pub fn push(&mut self, violation: Violation) {
        self.violations.push(violation);
    }

    /// Adds an error.
    pub fn error(&mut self, pointer: impl Into<String>, rule: Rule, message: impl Into<String>) {
        self.push(Violation::error(pointer, rule, message));
    }

    /// Adds a warning.
    pub fn warn(&mut self, pointer: impl Into<String>, rule: Rule, message: impl Into<String>) {
        self.push(Violation::warning(pointer, rule, message));
    }

    /// Adds every violation of another report.
    pub fn extend(&mut self, other: impl IntoIterator<Item = Violation>) {
        self.violations.extend(other);
    }

    /// True when there is no error (warnings are allowed).
    // Inlined across crates: the log readers ask it of every line's
    // (usually empty) report of rules (`mplp_events::log::read`).
    #[inline]
    pub fn is_valid(&self) -> bool {
        !self.violations.iter().any(Violation::is_error)
    }

    /// True when there is nothing at all.
    pub fn is_empty(&self) -> bool {
        self.violations.is_empty()
    }

    /// Every violation, in the order found.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// The errors.
    pub fn errors(&self) -> impl Iterator<Item = &Violation> {
        self.violations.iter().filter(|v| v.is_error())
    }

    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Violation> {
        self.violations.iter().filter(|v| !v.is_error())
    }

    /// The violations of the rules declared in `rules` (a module's rule
    /// table, such as `mplp_plan::rules::RULES`), in the order found: that
    /// module's own findings, without the schema's.
    ///
    /// ```
    /// use mplp_core::{Report, Rule};
    /// use mplp_core::rules::SCHEMA_RULES;
    /// let mut report = Report::new();
    /// report.error("/title", Rule::MIN_LENGTH, "expected at least 1 character");
    /// report.warn("/status", Rule::new("some_advice"), "consider this");
    /// let schema: Vec<_> = report.of_rules(SCHEMA_RULES).map(|v| v.pointer.as_str()).collect();
    /// assert_eq!(schema, ["/title"]);
    /// ```
    pub fn of_rules<'a>(
        &'a self,
        rules: &'a [crate::rules::RuleInfo],
    ) -> impl Iterator<Item = &'a Violation> + 'a {
        self.violations
            .iter()
            .filter(|v| rules.iter().any(|info| info.rule == v.rule))
    }

    /// Consumes the report, giving its violations.
    pub fn into_violations(self) -> Vec<Violation> {
        self.violations
    }

    /// `Ok(value)` when there is no error, else [`Error::Invalid`] with all errors.
    pub fn into_result<T>(self, value: T) -> Result<T, Error> {
        if self.is_valid() {
            Ok(value)
        } else {
            Err(Error::Invalid(
                self.violations
                    .into_iter()
                    .filter(Violation::is_error)
                    .collect(),
            ))
        }
    }
}

impl IntoIterator for Report {
    type Item = Violation;
    type IntoIter = std::vec::IntoIter<Violation>;
    fn into_iter(self) -> Self::IntoIter {
        self.violations.into_iter()
    }
}

/// A lifecycle transition that the state table does not allow.
///
/// ```
/// use mplp_core::TransitionError;
/// let e = TransitionError::new("plan", "/status", "completed", "draft", "completed is a final status");
/// assert_eq!(e.to_string(), "plan cannot go from `completed` to `draft`: completed is a final status");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{entity} cannot go from `{from}` to `{to}`: {reason}")]
#[non_exhaustive]
pub struct TransitionError {
    /// What changes status (`plan`, `step`, `dialog`, `collab`, ...).
    pub entity: &'static str,
    /// The pointer of the status that would change (`/status`, `/steps/3/status`).
    pub pointer: String,
    /// The current status, as written on the wire.
    pub from: &'static str,
    /// The requested status, as written on the wire.
    pub to: &'static str,
    /// Why the transition is refused.
    pub reason: String,
}

impl TransitionError {
    /// Makes a transition error.
    pub fn new(
        entity: &'static str,
        pointer: impl Into<String>,
        from: &'static str,
        to: &'static str,
        reason: impl Into<String>,
    ) -> Self {
        TransitionError {
            entity,
            pointer: pointer.into(),
            from,
            to,
            reason: reason.into(),
        }
    }

    /// This error as a [`Violation`] with rule [`Rule::LIFECYCLE_TRANSITION`].
    pub fn to_violation(&self) -> Violation {
        Violation::error(
            self.pointer.clone(),
            Rule::LIFECYCLE_TRANSITION,
            self.to_string(),
        )
    }
}

/// The error type of every fallible operation in the SDK.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input is not a valid document: every violation found, in document order.
    #[error("{}", invalid_summary(.0))]
    Invalid(Vec<Violation>),
    /// A lifecycle transition was refused.
    #[error(transparent)]
    Transition(#[from] TransitionError),
    /// An operation that the document's current state does not allow
    /// (for example adding a message to a paused dialog).
    #[error("{0}")]
    State(Violation),
}

fn invalid_summary(violations: &[Violation]) -> String {
    match violations {
        [] => "invalid document".to_owned(),
        [one] => format!("invalid document: {one}"),
        [first, rest @ ..] => format!(
            "invalid document: {first} (and {} more violation{})",
            rest.len(),
            if rest.len() == 1 { "" } else { "s" }
        ),
    }
}

impl Error {
    /// One violation as an error.
    pub fn single(pointer: impl Into<String>, rule: Rule, message: impl Into<String>) -> Self {
        Error::Invalid(vec![Violation::error(pointer, rule, message)])
    }

    /// The violations this error stands for (one for a transition or state error).
    pub fn violations(&self) -> Vec<Violation> {
        match self {
            Error::Invalid(v) => v.clone(),
            Error::Transition(t) => vec![t.to_violation()],
            Error::State(v) => vec![v.clone()],
        }
    }

    /// The rule of the first violation.
    pub fn rule(&self) -> Option<Rule> {
        match self {
            Error::Invalid(v) => v.first().map(|v| v.rule),
            Error::Transition(_) => Some(Rule::LIFECYCLE_TRANSITION),
            Error::State(v) => Some(v.rule),
        }
    }

    /// The pointer of the first violation.
    pub fn pointer(&self) -> Option<&str> {
        match self {
            Error::Invalid(v) => v.first().map(|v| v.pointer.as_str()),
            Error::Transition(t) => Some(&t.pointer),
            Error::State(v) => Some(&v.pointer),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_error_summarises_all_violations() {
        let e = Error::Invalid(vec![
            Violation::error("/a", Rule::REQUIRED, "missing"),
            Violation::error("/b", Rule::TYPE, "wrong"),
            Violation::error("/c", Rule::TYPE, "wrong"),
        ]);
        assert_eq!(
            e.to_string(),
            "invalid document: /a: [required] missing (and 2 more violations)"
        );
        assert_eq!(e.rule(), Some(Rule::REQUIRED));
        assert_eq!(e.pointer(), Some("/a"));
        assert_eq!(e.violations().len(), 3);
    }

    #[test]
    fn into_result_keeps_only_errors() {
        let mut r = Report::new();
        r.warn("/x", Rule::new("w"), "w");
        r.error("/y", Rule::ENUM, "e");
        let err = r.into_result(()).unwrap_err();
        assert_eq!(err.violations().len(), 1);
        assert_eq!(err.pointer(), Some("/y"));
    }

    #[test]
    fn violation_serialises_without_severity() {
        let v = Violation::error("/a", Rule::ENUM, "m").at_line(3);
        let json = serde_json::to_value(&v).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"pointer": "/a", "rule": "enum", "message": "m", "line": 3})
        );
    }

    #[test]
    fn severities_are_shown_as_their_wire_names() {
        for (severity, name) in [(Severity::Error, "error"), (Severity::Warning, "warning")] {
            assert_eq!(severity.to_string(), name);
            assert_eq!(serde_json::to_value(severity).unwrap(), name);
        }
    }

    #[test]
    fn a_report_tells_empty_from_valid_and_gives_up_its_violations() {
        let mut r = Report::new();
        assert!(r.is_empty() && r.is_valid());
        r.warn("/w", Rule::new("w"), "a warning");
        assert!(!r.is_empty() && r.is_valid());
        r.error("/e", Rule::ENUM, "an error");
        assert!(!r.is_empty() && !r.is_valid());
        let pointers: Vec<_> = r
            .into_violations()
            .into_iter()
            .map(|v| (v.pointer, v.severity))
            .collect();
        assert_eq!(
            pointers,
            [
                ("/w".to_owned(), Severity::Warning),
                ("/e".to_owned(), Severity::Error)
            ]
        );
    }
}

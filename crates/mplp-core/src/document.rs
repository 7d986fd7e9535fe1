//! Reading and writing whole module documents.
//!
//! [`Document`] is implemented by every top-level MPLP document (Plan, Dialog,
//! Collab, the events). Reading goes in two passes:
//!
//! 1. **Fast path.** The bytes are deserialized straight into the typed
//!    document (no `serde_json::Value` is built), then the module's semantic
//!    rules run on the typed value. A valid document costs one typed parse.
//! 2. **Thorough pass**, only when the fast path fails. Serde stops at the
//!    first problem, so the input is parsed again into a `Value` and walked by
//!    the type's [`CheckValue`] implementation, which reports *every* schema
//!    violation with its pointer. Duplicate keys are found by a separate scan
//!    of the text, since a `Value` keeps only one of them.
//!
//! Invalid documents are slower than valid ones; valid ones are fast.

use std::fmt;

use serde::de::{DeserializeOwned, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::{Deserializer, Serialize};
use serde_json::Value;

use crate::check::CheckValue;
use crate::{Error, Pointer, Report, Rule, Violation, Wire};

/// The outcome of validating one document: the typed value when it is valid,
/// and every error and warning found.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Validation<T> {
    /// The document, when it has no error.
    pub value: Option<T>,
    /// Every violation found (errors and warnings).
    pub report: Report,
}

impl<T> Validation<T> {
    /// True when the document has no error.
    pub fn is_valid(&self) -> bool {
        self.value.is_some()
    }

    /// The document, or [`Error::Invalid`] with every error.
    pub fn into_result(self) -> Result<T, Error> {
        match self.value {
            Some(v) if self.report.is_valid() => Ok(v),
            _ => {
                let errors: Vec<Violation> = self
                    .report
                    .into_iter()
                    .filter(Violation::is_error)
                    .collect();
                Err(Error::Invalid(errors))
            }
        }
    }
}

/// A top-level MPLP document that can be read from and written to JSON.
///
/// Documents are declared with `#[derive(Wire)]` and `#[wire(document)]`,
/// which gives serde, [`CheckValue`] (the schema rules over a `Value`, for
/// the thorough pass) and [`Wire`]; implementors add [`Document::KIND`] and,
/// when the module has semantic rules, [`Document::check_rules`]. Everything
/// else is provided.
///
/// ```
/// use mplp_core::{Document, Meta};
/// // `Meta` is not a document; module crates implement `Document` for
/// // `Plan`, `Dialog`, `Collab`, ...; the provided methods look like this:
/// #[derive(Debug, PartialEq, mplp_core::Wire)]
/// #[wire(document)]
/// struct Doc { meta: Meta }
/// impl Document for Doc { const KIND: &'static str = "doc"; }
///
/// let doc = Doc::from_json(r#"{"meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"}}"#).unwrap();
/// assert_eq!(doc.to_json(), r#"{"meta":{"protocol_version":"1.0.0","schema_version":"1.0.0"}}"#);
///
/// let err = Doc::from_json(r#"{"meta": {"protocolVersion": "1.0.0", "schema_version": "1.0"}}"#).unwrap_err();
/// let found: Vec<_> = err.violations().into_iter().map(|v| (v.pointer, v.rule.as_str())).collect();
/// assert_eq!(found, [
///     ("/meta/protocol_version".to_string(), "required"),    // missing
///     ("/meta/schema_version".to_string(), "pattern"),       // 1.0 is not MAJOR.MINOR.PATCH
///     ("/meta/protocolVersion".to_string(), "additional-properties"), // did you mean protocol_version?
/// ]);
/// ```
pub trait Document: Wire + Serialize + DeserializeOwned + CheckValue {
    /// The document kind, as the CLI names it (`plan`, `dialog`, `collab`, ...).
    const KIND: &'static str;

    /// Adds the module's semantic rules (those JSON Schema cannot express) to
    /// `report`. Runs only on documents that passed the schema rules.
    fn check_rules(&self, _report: &mut Report) {}

    /// Adds the semantic rules whose inputs can still be read in `value`, a
    /// document that failed its schema rules, so that one pass reports
    /// every error (a Collab with a bad participant `kind` also gets
    /// `map_unique_participant_ids`). Each rule is the function
    /// [`Document::check_rules`] runs, fed from the value; members that
    /// cannot be read are left out (never guessed). The default adds none.
    fn check_rules_of_value(_value: &Value, _report: &mut Report) {}

    /// The members whose schema rule states a frozen invariant: a schema
    /// violation at one of these pointers (`*` stands for any array index)
    /// is reported under the invariant's id, the schema keyword kept at the
    /// end of its message (see [`Violation::schema_keyword`]), so that a
    /// report can be searched for the canonical id. A member the schema
    /// does not allow (`additional-properties`), a duplicate key and a
    /// syntax error keep their rules: they are not the value the invariant
    /// judges. The default lists none.
    ///
    /// ```
    /// use mplp_core::{Document, Meta, Rule, Stated};
    /// #[derive(Debug, PartialEq, mplp_core::Wire)]
    /// #[wire(document)]
    /// struct Doc { meta: Meta }
    /// impl Document for Doc {
    ///     const KIND: &'static str = "doc";
    ///     const STATED_BY_SCHEMA: &'static [Stated] =
    ///         &[Stated::at("/meta/schema_version", Rule::new("doc_version_valid"))];
    /// }
    /// let v = Doc::validate_json(r#"{"meta": {"protocol_version": "1.0.0", "schema_version": "1.0"}}"#);
    /// let found = &v.report.violations()[0];
    /// assert_eq!(found.rule.as_str(), "doc_version_valid");
    /// assert_eq!(found.schema_keyword(), Some("pattern"));
    /// ```
    const STATED_BY_SCHEMA: &'static [Stated] = &[];

    /// Validates JSON bytes, collecting every error and warning.
    fn validate_json(input: impl AsRef<[u8]>) -> Validation<Self> {
        validate_bytes::<Self>(input.as_ref())
    }

    /// Validates an already parsed JSON value.
    fn validate_value(value: &Value) -> Validation<Self> {
        mplp_json::de::take_raised();
        match Self::deserialize_unchecked(value) {
            Ok(doc) => finish(doc),
            Err(e) => {
                let rule = mplp_json::de::take_raised().unwrap_or(Rule::TYPE);
                let mut report = Report::new();
                Self::check_value(value, &Pointer::root(), &mut report);
                if report.is_valid() {
                    report.push(Violation::error("", rule, e.to_string()));
                }
                report.state_invariants(Self::STATED_BY_SCHEMA);
                Self::check_rules_of_value(value, &mut report);
                Validation {
                    value: None,
                    report,
                }
            }
        }
    }

    /// Reads a document from JSON bytes or text; any error makes it
    /// [`Error::Invalid`] with every violation found.
    fn from_json(input: impl AsRef<[u8]>) -> Result<Self, Error> {
        Self::validate_json(input).into_result()
    }

    /// Reads a document from a parsed JSON value.
    fn from_value(value: &Value) -> Result<Self, Error> {
        Self::validate_value(value).into_result()
    }

    /// Writes the document as compact JSON.
    fn to_json(&self) -> String {
        // Serializing these types cannot fail: every map key is a string and
        // no Serialize impl returns an error.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Writes the document as indented JSON.
    fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The document as a JSON value.
    ///
    /// A `Value` cannot hold every JSON number: numbers that free-form
    /// members keep exactly (see [`mplp_json::exact`]) become their stand-ins.
    fn to_value(&self) -> Value {
        mplp_json::exact::write_stand_ins(|| serde_json::to_value(self)).unwrap_or(Value::Null)
    }
}

/// A member of a document whose schema rule states a frozen invariant (see
/// [`Document::STATED_BY_SCHEMA`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stated {
    /// The member: a JSON pointer in which `*` stands for any array index
    /// (`/participants/*/kind`).
    pub pointer: &'static str,
    /// The frozen invariant the schema rule there states.
    pub rule: Rule,
}

impl Stated {
    /// The invariant `rule`, stated by the schema at `pointer`.
    pub const fn at(pointer: &'static str, rule: Rule) -> Self {
        Stated { pointer, rule }
    }

    /// True when `pointer` is this member (`*` matching one array index).
    pub fn matches(&self, pointer: &str) -> bool {
        let mut want = self.pointer.split('/');
        let mut found = pointer.split('/');
        loop {
            match (want.next(), found.next()) {
                (None, None) => return true,
                (Some("*"), Some(index)) => {
                    if index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
                        return false;
                    }
                }
                (Some(a), Some(b)) if a == b => {}
                _ => return false,
            }
        }
    }
}

impl Report {
    /// Reports the schema violations at the members of `stated` under their
    /// invariants' ids, each schema keyword kept at the end of its message
    /// (see [`Violation::schema_keyword`]): what
    /// [`Document::validate_json`] and [`Document::validate_value`] do with
    /// [`Document::STATED_BY_SCHEMA`]. Code that finds schema violations
    /// itself (a builder refusing an empty list) calls it with the
    /// document's table, so that it reports what the parse path reports.
    /// An extra member, a duplicate key or a syntax error keeps its rule,
    /// as does every violation already reported under an invariant.
    ///
    /// ```
    /// use mplp_core::{Report, Rule, Stated};
    /// let mut report = Report::new();
    /// report.error("/steps", Rule::MIN_ITEMS, "expected at least 1 step, found none");
    /// report.error("/title", Rule::MIN_LENGTH, "expected at least 1 character");
    /// report.state_invariants(&[Stated::at("/steps", Rule::new("plan_has_steps"))]);
    /// let found: Vec<_> = report
    ///     .violations()
    ///     .iter()
    ///     .map(|v| (v.rule.as_str(), v.schema_keyword()))
    ///     .collect();
    /// assert_eq!(found, [("plan_has_steps", Some("min-items")), ("min-length", None)]);
    /// ```
    pub fn state_invariants(&mut self, stated: &[Stated]) {
        if stated.is_empty() {
            return;
        }
        self.relabel(|v| {
            if !states_a_value(v.rule) {
                return None;
            }
            stated
                .iter()
                .find(|s| s.matches(&v.pointer))
                .map(|s| s.rule)
        });
    }
}

/// True for a schema keyword that judges a member's value (not an extra
/// member, a duplicate key or the text's syntax).
fn states_a_value(rule: Rule) -> bool {
    crate::rules::SCHEMA_RULES
        .iter()
        .any(|info| info.rule == rule)
        && ![
            Rule::ADDITIONAL_PROPERTIES,
            Rule::DUPLICATE_KEY,
            Rule::JSON_SYNTAX,
            Rule::LIFECYCLE_TRANSITION,
        ]
        .contains(&rule)
}

fn finish<T: Document>(doc: T) -> Validation<T> {
    let mut validation = Validation {
        value: Some(doc),
        report: Report::new(),
    };
    keep_if_valid(&mut validation);
    validation
}

/// Runs the module's rules on the value read into `validation`, and keeps
/// the value only when they pass.
fn keep_if_valid<T: Document>(validation: &mut Validation<T>) {
    if let Some(doc) = &validation.value {
        doc.check_rules(&mut validation.report);
    }
    if !validation.report.is_valid() {
        validation.value = None;
    }
}

/// Reads `T` from JSON bytes with its schema rules only (no semantic rules),
/// refusing trailing input.
///
/// The [fast reader](mplp_json::fast) tries first; when it gives up, serde_json
/// reads the input, and its values and errors are the result.
///
/// Checking UTF-8 once for the whole input lets serde_json skip the check
/// per string (its `StrRead` instead of `SliceRead`); the two readers give
/// the same values and the same errors on valid UTF-8, and input that is not
/// UTF-8 goes through `SliceRead` as before, so errors are unchanged.
///
/// Input nested deeper than serde_json's limit of 128 levels is parsed again
/// without it, up to [`mplp_json::nesting::MAX_NESTING`] levels.
///
/// Free-form members are read with their exact numbers (see
/// [`mplp_json::exact`]); one nested deeper than serde_json's limit makes the
/// whole input measured against [`mplp_json::nesting::MAX_NESTING`], and input
/// past it gets serde_json's recursion error (which
/// [`syntax_violation_in`] reports as [`JSON_DEPTH`](crate::rules::JSON_DEPTH)).
#[inline]
pub fn from_slice_unchecked<T: Wire>(input: &[u8]) -> Result<T, serde_json::Error> {
    let mut slot = None;
    parse_into(input, mplp_json::utf8(input), &mut slot)?;
    slot.ok_or_else(|| serde::de::Error::custom("the typed parse read no value"))
}

/// [`from_slice_unchecked`] into `slot`, where the caller keeps the value
/// (`text`: the input when it is UTF-8, checked once by the caller). A
/// document returned through the `Result`s and `Option`s of the readers was
/// copied at each step (a `Dialog` is 568 bytes); `perf` put the copies
/// of a dialog of 10 messages at several percent of its validation.
#[inline]
fn parse_into<T: Wire>(
    input: &[u8],
    text: Option<&str>,
    slot: &mut Option<T>,
) -> Result<(), serde_json::Error> {
    mplp_json::exact::take_deep_member();
    if let Some(text) = text
        && mplp_json::fast::read_into(text, slot)
    {
        // The fast reader gives up before nesting that could make a
        // free-form member deep (see `take_deep_member`).
        return Ok(());
    }
    *slot = Some(serde_json_unchecked(input, text)?);
    Ok(())
}

/// [`from_slice_unchecked`], lending the value to `f` where it was read:
/// `Ok(f(&value))`, or the error. A caller that only looks at the value
/// spares a large one (a MAP event is some 400 bytes) the copies through
/// `Result`s on its way out: the MAP and SA log validators read every line
/// this way.
#[inline]
pub fn with_slice_unchecked<T: Wire, R>(
    input: &[u8],
    f: impl FnOnce(&T) -> R,
) -> Result<R, serde_json::Error> {
    mplp_json::exact::take_deep_member();
    // The fast reader takes the bytes: it checks the strings it hands out
    // for UTF-8 and gives up on anything else that is not ASCII (see
    // `mplp_json::fast::read_bytes`), so the line is checked as a whole
    // only when serde_json reads it (issue 41: simdutf8's pass was 3-5% of
    // the CPU of validating a log).
    let f = match mplp_json::fast::read_bytes::<T, R, _>(input, f) {
        // As in `from_slice_unchecked`.
        Ok(read) => return Ok(read),
        Err(f) => f,
    };
    serde_json_unchecked(input, mplp_json::utf8(input)).map(|value| f(&value))
}

/// The typed parse by serde_json, once the fast reader has given up.
#[cold]
fn serde_json_unchecked<T: Wire>(input: &[u8], text: Option<&str>) -> Result<T, serde_json::Error> {
    // What the fast reader's attempt may have noted belongs to no error.
    mplp_json::de::take_raised();
    mplp_json::exact::take_deep_member();
    let read = from_slice_within_serde_limit(input, text).or_else(|first| {
        mplp_json::nesting::retry_deep(input, first, |de| {
            let value = T::deserialize_unchecked(&mut *de)?;
            de.end()?;
            Ok(value)
        })
    });
    if mplp_json::exact::take_deep_member()
        && mplp_json::nesting::depth(input) > mplp_json::nesting::MAX_NESTING
    {
        // serde_json's recursion error, which the thorough pass reports as
        // `json-depth`.
        serde_json::from_slice::<Value>(input)?;
    }
    read
}

/// `text`: the input when it is UTF-8 (checked once by the caller).
fn from_slice_within_serde_limit<T: Wire>(
    input: &[u8],
    text: Option<&str>,
) -> Result<T, serde_json::Error> {
    match text {
        Some(text) => {
            let mut de = serde_json::Deserializer::from_str(text);
            let value = T::deserialize_unchecked(&mut de)?;
            de.end()?;
            Ok(value)
        }
        None => {
            let mut de = serde_json::Deserializer::from_slice(input);
            let value = T::deserialize_unchecked(&mut de)?;
            de.end()?;
            Ok(value)
        }
    }
}

fn validate_bytes<T: Document>(input: &[u8]) -> Validation<T> {
    let mut validation = Validation {
        value: None,
        report: Report::new(),
    };
    match parse_into(input, mplp_json::utf8(input), &mut validation.value) {
        Ok(()) => keep_if_valid(&mut validation),
        Err(first) => {
            validation.report = thorough_with::<T>(input, &first, |value, report| {
                report.state_invariants(T::STATED_BY_SCHEMA);
                T::check_rules_of_value(value, report);
            });
        }
    }
    validation
}

/// The report of [`Document::validate_json`] for input (already checked to
/// be UTF-8: a `&str`) that passes `T`'s
/// schema rules (its typed parse): the module's rules run on the value,
/// which is then dropped. `None` when the typed parse
/// fails, without the thorough pass that would then list every violation:
/// for a caller that is only guessing that the input is a `T`
/// (`mplp_check::validate_bytes` without a kind).
pub fn report_parsed<T: Document>(text: &str) -> Option<Report> {
    validate_parsed::<T>(text).map(|validation| validation.report)
}

/// [`report_parsed`] with the value: the [`Validation`] that
/// [`Document::validate_json`] gives for input that passes `T`'s typed
/// parse (the value kept when the module rules find no error), `None` when
/// the typed parse fails.
pub fn validate_parsed<T: Document>(text: &str) -> Option<Validation<T>> {
    let mut validation: Validation<T> = Validation {
        value: None,
        report: Report::new(),
    };
    parse_into(text.as_bytes(), Some(text), &mut validation.value).ok()?;
    keep_if_valid(&mut validation);
    Some(validation)
}

/// The thorough pass over bytes that failed the typed parse: every schema
/// violation of `T`, duplicate keys and syntax errors.
pub fn thorough<T: CheckValue + Wire>(input: &[u8], first: &serde_json::Error) -> Report {
    thorough_with::<T>(input, first, |_, _| {})
}

/// [`thorough`], then `rules` over the value read (when the input is JSON):
/// the semantic rules whose inputs can still be read.
fn thorough_with<T: CheckValue + Wire>(
    input: &[u8],
    first: &serde_json::Error,
    rules: fn(&Value, &mut Report),
) -> Report {
    let mut report = Report::new();
    if !first.is_data() && !beyond_f64(first) {
        // Not well-formed (or cut off): there is no value to check.
        report.push(syntax_violation_in(input, first));
        return report;
    }
    // Numbers beyond f64's range (valid JSON, which free-form members keep)
    // are checked as their stand-ins.
    let mut checked = std::borrow::Cow::Borrowed(input);
    let value: Value = match mplp_json::nesting::from_slice(input) {
        Ok(v) => v,
        Err(e) => match std::str::from_utf8(input)
            .ok()
            .and_then(mplp_json::exact::stand_ins)
        {
            Some(replaced) => match mplp_json::nesting::from_slice(replaced.as_bytes()) {
                Ok(v) => {
                    checked = std::borrow::Cow::Owned(replaced.into_bytes());
                    v
                }
                Err(_) => {
                    report.push(syntax_violation_in(input, &e));
                    return report;
                }
            },
            None => {
                report.push(syntax_violation_in(input, &e));
                return report;
            }
        },
    };
    report.extend(duplicate_keys(&checked));
    // Numbers the `Value` does not hold with their value are echoed as
    // written (`18446744073709551617`, `1e400`), not as their `f64`.
    mplp_json::exact::with_written_numbers(input, || {
        T::check_value(&value, &Pointer::root(), &mut report);
        if report.is_valid() {
            // The checker found nothing serde disliked: fall back on serde's own
            // error, located with serde_path_to_error.
            report.push(located_serde_error::<T>(input));
        }
        rules(&value, &mut report);
    });
    report
}

/// Whether `e` is serde_json refusing a number beyond `f64`'s range
/// (`1e400`): well-formed JSON, which the thorough pass reads with stand-ins
/// so that the member holding it gets its own rule (an integer member: the
/// range, `type`), not `json-syntax`.
fn beyond_f64(e: &serde_json::Error) -> bool {
    e.is_syntax() && mplp_json::exact::message_of(e) == "number out of range"
}

/// The UTF-8 encoding of U+FEFF, the byte-order mark some editors write at
/// the start of a file.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// `input` without a UTF-8 byte-order mark at its start, and whether there
/// was one. The one rule for skipping a mark, which the `mplp` command and
/// `mplp_check::validate_file` apply to files (with [`bom_warning`]); see
/// docs/spec-notes.md, "Byte-order marks".
///
/// ```
/// use mplp_core::document::strip_bom;
/// assert_eq!(strip_bom(b"\xEF\xBB\xBF{}"), (&b"{}"[..], true));
/// assert_eq!(strip_bom(b"{}"), (&b"{}"[..], false));
/// ```
pub fn strip_bom(input: &[u8]) -> (&[u8], bool) {
    match input.strip_prefix(UTF8_BOM) {
        Some(rest) => (rest, true),
        None => (input, false),
    }
}

/// Skips a UTF-8 byte-order mark at the start of `reader` (as [`strip_bom`]
/// does for bytes); whether there was one. The first read of a file holds
/// the whole mark (unless the file is shorter); a pipe that delivers it in
/// pieces is not stripped, and the parser's error then names the mark.
///
/// # Errors
/// When the reader fails.
pub fn skip_bom<R: std::io::BufRead + ?Sized>(reader: &mut R) -> std::io::Result<bool> {
    let found = loop {
        match reader.fill_buf() {
            Ok(buf) => break buf.starts_with(UTF8_BOM),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    };
    if found {
        reader.consume(UTF8_BOM.len());
    }
    Ok(found)
}

/// The `input-bom` warning of an input whose byte-order mark was skipped.
pub fn bom_warning() -> Violation {
    Violation::warning(
        "",
        crate::rules::INPUT_BOM,
        "the file starts with a UTF-8 byte-order mark (bytes EF BB BF), skipped; \
         JSON texts are written without one (RFC 8259, section 8.1)",
    )
}

/// The `json-syntax` violation of `input`, which failed to parse with `e`:
/// as [`syntax_violation`], except that a UTF-8 byte-order mark at the
/// start is named as such. RFC 8259 (section 8.1) forbids writing one and
/// lets a parser refuse it; the library does, and says what to remove (the
/// `mplp` command strips it from files with an `input-bom` warning: see
/// docs/spec-notes.md, "Byte-order marks").
///
/// ```
/// use mplp_core::document::syntax_violation_in;
/// let input = b"\xEF\xBB\xBF{}";
/// let e = serde_json::from_slice::<serde_json::Value>(input).unwrap_err();
/// let v = syntax_violation_in(input, &e);
/// assert_eq!(v.rule.as_str(), "json-syntax");
/// assert!(v.message.contains("UTF-8 byte-order mark"), "{}", v.message);
/// ```
///
/// Input nested deeper than [`mplp_json::nesting::MAX_NESTING`] levels, which
/// serde_json stops at its own limit, gets the
/// [`JSON_DEPTH`](crate::rules::JSON_DEPTH) violation that names the limit
/// (see [`mplp_json::nesting`]), not a syntax error.
pub fn syntax_violation_in(input: &[u8], e: &serde_json::Error) -> Violation {
    if let Some(v) = depth_violation(input, e) {
        return v;
    }
    if input.starts_with(UTF8_BOM) && e.line() == 1 && e.column() <= 1 {
        return Violation::error(
            "",
            Rule::JSON_SYNTAX,
            "not well-formed JSON: a UTF-8 byte-order mark (bytes EF BB BF) at the start; \
             JSON texts are written without one (RFC 8259, section 8.1): remove it",
        );
    }
    syntax_violation(e)
}

/// The `json-depth` violation when `e` is serde_json's recursion limit
/// stopping a parse of `input` that nests deeper than
/// [`mplp_json::nesting::MAX_NESTING`]: the error lies at or after the bracket
/// that opens serde_json's last level (an error before it is a real syntax
/// error).
fn depth_violation(input: &[u8], e: &serde_json::Error) -> Option<Violation> {
    if !e.is_syntax() {
        return None;
    }
    let offset =
        mplp_json::nesting::offset_of_level(input, mplp_json::nesting::SERDE_JSON_NESTING)?;
    let before = &input[..offset];
    let line = 1 + before.iter().filter(|b| **b == b'\n').count();
    let column = offset
        - before
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |n| n + 1)
        + 1;
    if (e.line(), e.column()) < (line, column) {
        return None;
    }
    let pointer = mplp_json::nesting::past_limit(input)?;
    Some(Violation::error(
        pointer,
        crate::rules::JSON_DEPTH,
        mplp_json::nesting::too_deep_message(Some(mplp_json::nesting::MAX_NESTING + 1)),
    ))
}

/// A `json-syntax` violation for a parse error, with its line and column.
pub fn syntax_violation(e: &serde_json::Error) -> Violation {
    let what = if e.is_eof() {
        "the input ends too early (empty, or a value is cut off)".to_owned()
    } else {
        // serde's own "at line L column C" left out: said once, below.
        mplp_json::exact::message_of(e)
    };
    Violation::error(
        "",
        Rule::JSON_SYNTAX,
        format!(
            "not well-formed JSON: {what} (line {}, column {})",
            e.line(),
            e.column()
        ),
    )
}

/// The serde error of `input`, located with serde_path_to_error, with the
/// rule recorded where it was raised (`type` for the parser's own errors).
fn located_serde_error<T: Wire>(input: &[u8]) -> Violation {
    let mut de = mplp_json::nesting::slice_deserializer(input);
    let mut track = serde_path_to_error::Track::new();
    mplp_json::de::take_raised();
    let result =
        T::deserialize_unchecked(serde_path_to_error::Deserializer::new(&mut de, &mut track))
            .and_then(|_| de.end());
    match result {
        Ok(()) => Violation::error("", Rule::TYPE, "the document could not be read"),
        Err(e) => {
            let rule = mplp_json::de::take_raised().unwrap_or(Rule::TYPE);
            let pointer = path_to_pointer(&track.path());
            Violation::error(pointer, rule, e.to_string())
        }
    }
}

/// The error of a document's public `Deserialize` when a semantic rule
/// fails: the first error, with its rule id and pointer, and how many more
/// there are. ([`Document::validate_json`] reports them all.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError {
    /// The first error found.
    pub first: Violation,
    /// How many more errors there are.
    pub more: usize,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.first.pointer.is_empty() {
            "the document"
        } else {
            self.first.pointer.as_str()
        };
        write!(
            f,
            "rule `{}` is violated at {at}: {}",
            self.first.rule, self.first.message
        )?;
        if self.more > 0 {
            write!(
                f,
                " (and {} more error{})",
                self.more,
                if self.more == 1 { "" } else { "s" }
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for RulesError {}

/// Runs the semantic rules of a document; the error names the first rule
/// that fails. This is what `#[wire(document)]` makes the public
/// `Deserialize` call, so that every way of reading a document yields a
/// valid one.
///
/// The rule id travels with the error as [`mplp_json::de::raise`] records it.
pub fn enforce_rules<T: Document>(doc: &T) -> Result<(), RulesError> {
    let mut report = Report::new();
    doc.check_rules(&mut report);
    let mut errors = report.into_iter().filter(Violation::is_error);
    match errors.next() {
        None => Ok(()),
        Some(first) => {
            let more = errors.count();
            // Record the rule for callers that locate the error.
            mplp_json::de::note(first.rule);
            Err(RulesError { first, more })
        }
    }
}

/// Turns a serde_path_to_error path into an RFC 6901 pointer.
pub fn path_to_pointer(path: &serde_path_to_error::Path) -> String {
    let mut p = Pointer::root();
    for seg in path.iter() {
        p = match seg {
            serde_path_to_error::Segment::Seq { index } => p.index(*index),
            serde_path_to_error::Segment::Map { key } => p.key(key),
            serde_path_to_error::Segment::Enum { variant } => p.key(variant),
            serde_path_to_error::Segment::Unknown => p,
        };
    }
    p.into()
}

/// Every key that an object of `input` names twice, at any depth, as a
/// `duplicate-key` violation pointing at the repeated member.
///
/// ```
/// let v = mplp_core::document::duplicate_keys(br#"{"a": [{"b": 1, "b": 2}], "c": {}, "c": {}}"#);
/// let pointers: Vec<_> = v.iter().map(|v| v.pointer.as_str()).collect();
/// assert_eq!(pointers, ["/a/0/b", "/c"]);
/// ```
pub fn duplicate_keys(input: &[u8]) -> Vec<Violation> {
    let mut found = Vec::new();
    let mut de = mplp_json::nesting::slice_deserializer(input);
    // A syntax error simply ends the scan; the caller reports it.
    let _ = DupScan {
        at: Pointer::root(),
        found: &mut found,
    }
    .deserialize(&mut de);
    found
}

struct DupScan<'a> {
    at: Pointer,
    found: &'a mut Vec<Violation>,
}

impl<'de> DeserializeSeed<'de> for DupScan<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for DupScan<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        while seq
            .next_element_seed(DupScan {
                at: self.at.index(i),
                found: &mut *self.found,
            })?
            .is_some()
        {
            i += 1;
        }
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut keys = std::collections::BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let at = self.at.key(&key);
            if keys.contains(&key) {
                self.found.push(Violation::error(
                    at.clone(),
                    Rule::DUPLICATE_KEY,
                    format!("key `{key}` appears more than once in this object; each key may appear only once"),
                ));
            }
            map.next_value_seed(DupScan {
                at,
                found: &mut *self.found,
            })?;
            keys.insert(key);
        }
        Ok(())
    }
}

#[cfg(test)]
mod bom_tests {
    use super::{UTF8_BOM, skip_bom, strip_bom};
    use std::io::{BufRead, Read};

    /// A reader that is interrupted once, then gives its bytes.
    struct Interrupted<'a>(bool, &'a [u8]);
    impl Read for Interrupted<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.1.read(buf)
        }
    }
    impl BufRead for Interrupted<'_> {
        fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
            if !self.0 {
                self.0 = true;
                return Err(std::io::ErrorKind::Interrupted.into());
            }
            Ok(self.1)
        }
        fn consume(&mut self, n: usize) {
            self.1 = &self.1[n..];
        }
    }

    /// The mark is dropped, with and without a pause, and nothing else is.
    #[test]
    fn a_byte_order_mark_and_only_it_is_skipped() {
        let mut marked = UTF8_BOM.to_vec();
        marked.extend_from_slice(b"{\"a\":1}");
        for text in [&marked[..], b"{\"a\":1}", b"", b"\xEF\xBB"] {
            let bom = text.starts_with(UTF8_BOM);
            let rest = if bom { &text[3..] } else { text };
            assert_eq!(strip_bom(text), (rest, bom));
            for pause in [false, true] {
                let mut reader = Interrupted(!pause, text);
                assert_eq!(skip_bom(&mut reader).unwrap(), bom);
                let mut left = Vec::new();
                reader.read_to_end(&mut left).unwrap();
                assert_eq!(left, rest);
            }
        }
        // A failing reader's error is passed on.
        struct Failing;
        impl Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::BrokenPipe.into())
            }
        }
        let mut failing = std::io::BufReader::new(Failing);
        assert_eq!(
            skip_bom(&mut failing).unwrap_err().kind(),
            std::io::ErrorKind::BrokenPipe
        );
    }
}

//! The rule language of the golden flows' `invariants.yaml`, and its interpreter.
//!
//! An invariant names a `scope` (the flow document it reads: `context`,
//! `plan`, `collab`, `confirm`, `trace`, ...), usually a `path` in it, and a
//! `rule`. Rule kinds:
//!
//! | rule | holds when every value the path reaches ... |
//! |---|---|
//! | `uuid-v4` | is a string in UUID v4 form (any letter case, as the reference harness) |
//! | `non-empty-string` | is a string with a non-blank character |
//! | `exists` | is present and not `null` |
//! | `iso-datetime` | is an RFC 3339 date-time string |
//! | `positive-integer` | is an integer > 0 |
//! | `min-length(N)` | is an array of at least N items, or a string of at least N characters |
//! | `enum(a,b,...)` | is one of the strings listed (items may be quoted: `enum("a", "b")`) |
//! | `one-of([LIT, ...])` | equals one of the JSON literals of the array |
//! | `if(PATH == LIT, RULE)` | holds RULE, when every value at `PATH` (read in the same document; absent is `null`) compares so; `!=` too |
//! | `eq(scope.path)` / `eq("text")` | equals the one value at `scope.path` in the flow, or the literal |
//! | `exists(PATH)` (no `path`) | at least one non-null value is at `PATH` |
//! | `PATH == LIT` / `PATH != LIT` (no `path`) | every value at `PATH` compares so with the JSON literal |
//!
//! Paths: `a.b`, `a[2]`, `a[*]`, `a[?key=="value"]` (items whose member `key`
//! equals the literal; `!=` too). An absent member that `[*]` or `[?...]`
//! ranges over is an empty array: a rule over its items holds of none.
//!
//! The global invariants (`golden/invariants/*.yaml`, beside `flows/`) are
//! lists whose scope is their file's stem; the runner applies them to
//! every flow as the reference harness does (see [`crate::run_dir_with`]).
//!
//! Where the reference harness is lenient, this interpreter is strict (see
//! `docs/spec-notes.md`, "Golden-flow runner"): a member the path needs but
//! the document lacks fails the invariant (the harness skips it silently),
//! a rule kind it does not know fails the invariant (the harness passes it),
//! and an invariant whose scope document the flow lacks fails.

use serde_json::{Map, Value};
use yaml_rust2::{Yaml, YamlLoader};

use crate::path::{CmpOp, Path, parse_literal, type_name};
use crate::report::Finding;

/// One invariant of an `invariants.yaml`.
#[derive(Clone, Debug)]
pub struct Invariant {
    /// Its id (`flow02_step_ids_are_uuid`); findings carry it as their rule.
    pub id: String,
    /// The flow document it reads (`plan`, `context`, ...).
    pub scope: String,
    /// The `path` member, when present.
    pub path: Option<String>,
    /// The `rule` member, as written.
    pub rule: String,
    /// The file a global invariant came from (`invariants/plan.yaml`);
    /// `None` for a flow's own `invariants.yaml`.
    pub source: Option<String>,
}

/// A parsed rule.
#[derive(Clone, Debug)]
enum RuleKind {
    UuidV4,
    NonEmptyString,
    Exists,
    IsoDatetime,
    PositiveInteger,
    MinLength(usize),
    Enum(Vec<String>),
    OneOf(Vec<Value>),
    If {
        cond: Path,
        op: CmpOp,
        lit: Value,
        cond_text: String,
        then: Box<RuleKind>,
    },
    EqLiteral(Value),
    EqRef(Path, String),
    ExistsAt(Path),
    Compare(Path, CmpOp, Value),
}

impl RuleKind {
    /// Whether the rule carries its own path (and the invariant must not have one).
    fn has_own_path(&self) -> bool {
        match self {
            RuleKind::ExistsAt(_) | RuleKind::Compare(..) => true,
            RuleKind::If { then, .. } => then.has_own_path(),
            _ => false,
        }
    }
}

/// The rule ids of findings about the invariants file itself.
pub(crate) const RULE_SYNTAX: &str = "invariants-syntax";

/// Reads an `invariants.yaml` (a mapping with `invariants:` or a bare
/// list). Returns the invariants, or findings naming what is wrong.
pub fn parse_invariants(text: &str, file: &str) -> Result<Vec<Invariant>, Vec<Finding>> {
    parse_list(text, file, None)
}

/// Reads a global invariants file (`golden/invariants/plan.yaml`): a list
/// whose invariants read the document named by `scope` (the file's stem,
/// as the reference harness takes it) unless they name their own.
pub fn parse_global_invariants(
    text: &str,
    file: &str,
    scope: &str,
) -> Result<Vec<Invariant>, Vec<Finding>> {
    parse_list(text, file, Some(scope))
}

fn parse_list(
    text: &str,
    file: &str,
    global_scope: Option<&str>,
) -> Result<Vec<Invariant>, Vec<Finding>> {
    let docs = YamlLoader::load_from_str(text).map_err(|e| {
        vec![Finding::new(
            file,
            "",
            RULE_SYNTAX,
            format!("not valid YAML: {e}"),
        )]
    })?;
    let list = match docs.first() {
        None | Some(Yaml::Null) => return Ok(Vec::new()),
        Some(Yaml::Array(items)) => items,
        Some(Yaml::Hash(map)) => match map.get(&Yaml::String("invariants".into())) {
            Some(Yaml::Array(items)) => items,
            Some(Yaml::Null) | None => return Ok(Vec::new()),
            Some(_) => {
                return Err(vec![Finding::new(
                    file,
                    "/invariants",
                    RULE_SYNTAX,
                    "expected `invariants` to be a list",
                )]);
            }
        },
        Some(_) => {
            return Err(vec![Finding::new(
                file,
                "",
                RULE_SYNTAX,
                "expected a mapping with `invariants:` or a list of invariants",
            )]);
        }
    };
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (n, item) in list.iter().enumerate() {
        let at = format!("/invariants/{n}");
        let Yaml::Hash(map) = item else {
            errors.push(Finding::new(file, &at, RULE_SYNTAX, "expected a mapping"));
            continue;
        };
        let mut field = |name: &str, required: bool| -> Option<String> {
            match map.get(&Yaml::String(name.into())) {
                Some(Yaml::String(s)) => Some(s.clone()),
                None if !required => None,
                None => {
                    errors.push(Finding::new(
                        file,
                        &format!("{at}/{name}"),
                        RULE_SYNTAX,
                        format!("missing required member `{name}` (a string)"),
                    ));
                    None
                }
                Some(_) => {
                    errors.push(Finding::new(
                        file,
                        &format!("{at}/{name}"),
                        RULE_SYNTAX,
                        format!("expected `{name}` to be a string"),
                    ));
                    None
                }
            }
        };
        let id = field("id", true);
        let scope =
            field("scope", global_scope.is_none()).or_else(|| global_scope.map(str::to_owned));
        let rule = field("rule", true);
        let path = field("path", false);
        if let (Some(id), Some(scope), Some(rule)) = (id, scope, rule) {
            out.push(Invariant {
                id,
                scope,
                path,
                rule,
                source: global_scope.map(|_| file.to_owned()),
            });
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Parses a rule text.
fn parse_rule(rule: &str) -> Result<RuleKind, String> {
    let rule = rule.trim();
    if let Some((left, op, right)) = split_comparison(rule) {
        let path = Path::parse(left)?;
        let chars: Vec<char> = right.trim().chars().collect();
        let (value, end) = parse_literal(rule, &chars, 0, &[])?;
        if end != chars.len() {
            return Err(format!("`{rule}`: unexpected text after the literal"));
        }
        return Ok(RuleKind::Compare(path, op, value));
    }
    let (name, arg) = match rule.find('(') {
        Some(open) if rule.ends_with(')') => (&rule[..open], Some(&rule[open + 1..rule.len() - 1])),
        Some(_) => return Err(format!("`{rule}`: expected `)` at the end")),
        None => (rule, None),
    };
    let kind = match (name.trim(), arg) {
        ("uuid-v4", None) => RuleKind::UuidV4,
        ("non-empty-string", None) => RuleKind::NonEmptyString,
        ("exists", None) => RuleKind::Exists,
        ("iso-datetime", None) => RuleKind::IsoDatetime,
        ("positive-integer", None) => RuleKind::PositiveInteger,
        ("min-length", Some(a)) => {
            RuleKind::MinLength(a.trim().parse().map_err(|_| {
                format!("`{rule}`: expected a non-negative integer in min-length(N)")
            })?)
        }
        ("enum", Some(a)) => {
            let values: Vec<String> = a
                .split(',')
                .map(|v| {
                    let v = v.trim();
                    v.strip_prefix('"')
                        .and_then(|v| v.strip_suffix('"'))
                        .unwrap_or(v)
                        .to_owned()
                })
                .filter(|v| !v.is_empty())
                .collect();
            if values.is_empty() {
                return Err(format!("`{rule}`: enum() lists no value"));
            }
            RuleKind::Enum(values)
        }
        ("eq", Some(a)) => {
            let a = a.trim();
            let chars: Vec<char> = a.chars().collect();
            match parse_literal(rule, &chars, 0, &[]) {
                Ok((value, end)) if end == chars.len() => RuleKind::EqLiteral(value),
                _ => RuleKind::EqRef(Path::parse(a)?, a.to_owned()),
            }
        }
        ("exists", Some(a)) => RuleKind::ExistsAt(Path::parse(a)?),
        ("one-of", Some(a)) => {
            let values = match serde_json::from_str::<Value>(a.trim()) {
                Ok(Value::Array(items)) if !items.is_empty() => items,
                Ok(Value::Array(_)) => return Err(format!("`{rule}`: one-of() lists no value")),
                _ => {
                    return Err(format!(
                        "`{rule}`: expected a JSON array of literals in one-of([...])"
                    ));
                }
            };
            if values.iter().any(|v| v.is_array() || v.is_object()) {
                return Err(format!("`{rule}`: one-of() takes scalar literals only"));
            }
            RuleKind::OneOf(values)
        }
        ("if", Some(a)) => {
            let Some((cond_text, then_text)) = split_top_level_comma(a) else {
                return Err(format!("`{rule}`: expected if(PATH == LITERAL, RULE)"));
            };
            let Some((left, op, right)) = split_comparison(cond_text) else {
                return Err(format!(
                    "`{rule}`: the condition `{}` is not PATH == LITERAL or PATH != LITERAL",
                    cond_text.trim()
                ));
            };
            let chars: Vec<char> = right.trim().chars().collect();
            let (lit, end) = parse_literal(rule, &chars, 0, &[])?;
            if end != chars.len() {
                return Err(format!("`{rule}`: unexpected text after the literal"));
            }
            let then = parse_rule(then_text)?;
            if then.has_own_path() {
                return Err(format!(
                    "`{rule}`: the rule applied must take the invariant's path, not carry its own"
                ));
            }
            RuleKind::If {
                cond: Path::parse(left)?,
                op,
                lit,
                cond_text: cond_text.trim().to_owned(),
                then: Box::new(then),
            }
        }
        (
            known @ ("uuid-v4" | "non-empty-string" | "iso-datetime" | "positive-integer"
            | "min-length" | "enum" | "eq" | "one-of" | "if"),
            _,
        ) => {
            return Err(format!(
                "`{rule}`: `{known}` {}",
                if arg.is_some() {
                    "takes no argument"
                } else {
                    "needs an argument"
                }
            ));
        }
        (other, _) => return Err(format!("unknown rule kind `{other}`")),
    };
    Ok(kind)
}

/// The offset of the first byte of `text` outside brackets, parentheses and
/// quoted strings (a quote escaped in a string does not end it) for which
/// `at(bytes, offset)` holds.
fn find_top_level(text: &str, at: impl Fn(&[u8], usize) -> bool) -> Option<usize> {
    let bytes = text.as_bytes();
    let (mut depth, mut quoted, mut escaped) = (0usize, false, false);
    for (i, &b) in bytes.iter().enumerate() {
        if quoted {
            match b {
                b'\\' if !escaped => escaped = true,
                b'"' if !escaped => quoted = false,
                _ => escaped = false,
            }
            continue;
        }
        match b {
            b'"' => quoted = true,
            b'[' | b'(' => depth += 1,
            b']' | b')' => depth = depth.saturating_sub(1),
            _ if depth == 0 && at(bytes, i) => return Some(i),
            _ => {}
        }
    }
    None
}

/// Splits `A, B` at the first comma outside brackets, parentheses and quotes.
fn split_top_level_comma(text: &str) -> Option<(&str, &str)> {
    let i = find_top_level(text, |b, i| b[i] == b',')?;
    Some((&text[..i], &text[i + 1..]))
}

/// Splits `PATH == LIT` / `PATH != LIT` at the first operator outside
/// brackets and quotes.
fn split_comparison(rule: &str) -> Option<(&str, CmpOp, &str)> {
    let i = find_top_level(rule, |b, i| {
        matches!(b[i], b'=' | b'!') && b.get(i + 1) == Some(&b'=')
    })?;
    let op = if rule.as_bytes()[i] == b'=' {
        CmpOp::Eq
    } else {
        CmpOp::Ne
    };
    Some((&rule[..i], op, &rule[i + 2..]))
}

/// The documents of one flow, by scope name.
pub type Scopes = Map<String, Value>;

/// Evaluates one invariant over the flow's documents; returns its findings
/// (none when it holds). `file_of` names the file a scope was read from.
pub fn evaluate(
    inv: &Invariant,
    scopes: &Scopes,
    file_of: &dyn Fn(&str) -> String,
) -> Vec<Finding> {
    let file = file_of(&inv.scope);
    let fail = |pointer: &str, message: String| Finding::new(&file, pointer, &inv.id, message);
    let rule = match parse_rule(&inv.rule) {
        Ok(r) => r,
        Err(e) => {
            return vec![fail(
                "",
                format!("cannot evaluate rule `{}`: {e}", inv.rule),
            )];
        }
    };
    let Some(doc) = scopes.get(&inv.scope) else {
        let known: Vec<&str> = scopes.keys().map(String::as_str).collect();
        return vec![fail(
            "",
            format!(
                "the flow has no `{}` document (it has: {})",
                inv.scope,
                if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                }
            ),
        )];
    };
    let path = match (&inv.path, rule.has_own_path()) {
        (Some(_), true) => {
            return vec![fail(
                "",
                format!(
                    "rule `{}` carries its own path; the invariant must not also have `path`",
                    inv.rule
                ),
            )];
        }
        (None, false) => {
            return vec![fail("", format!("rule `{}` needs a `path`", inv.rule))];
        }
        (None, true) => None,
        (Some(p), false) => match Path::parse(p) {
            Ok(p) => Some(p),
            Err(e) => return vec![fail("", format!("cannot evaluate path: {e}"))],
        },
    };
    // `if(COND, RULE)`: RULE applies only where COND holds.
    let mut rule = &rule;
    let mut applies_since = Vec::new();
    while let RuleKind::If {
        cond,
        op,
        lit,
        cond_text,
        then,
    } = rule
    {
        if !condition_holds(cond, *op, lit, doc) {
            return Vec::new();
        }
        applies_since.push(cond_text.as_str());
        rule = then;
    }
    let mut findings = evaluate_rule(rule, path, inv, doc, scopes, &fail);
    if !applies_since.is_empty() {
        let since = applies_since.join("` and `");
        for f in &mut findings {
            f.message = format!("{} (the rule applies because `{since}`)", f.message);
        }
    }
    findings
}

/// Whether every value at `cond` (absent: `null`) compares with `lit` by `op`.
fn condition_holds(cond: &Path, op: CmpOp, lit: &Value, doc: &Value) -> bool {
    let r = cond.resolve(doc);
    let absent_holds = r.missing.is_empty() || op.holds(&Value::Null, lit);
    absent_holds && r.nodes.iter().all(|n| op.holds(n.value, lit))
}

fn evaluate_rule(
    rule: &RuleKind,
    path: Option<Path>,
    inv: &Invariant,
    doc: &Value,
    scopes: &Scopes,
    fail: &dyn Fn(&str, String) -> Finding,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    match (rule, path) {
        (RuleKind::ExistsAt(p), _) => {
            let r = p.resolve(doc);
            if !r.nodes.iter().any(|n| !n.value.is_null()) {
                findings.push(fail(
                    "",
                    format!(
                        "expected at least one non-null value at `{}`, found none",
                        path_text(&inv.rule)
                    ),
                ));
            }
        }
        (RuleKind::Compare(p, op, lit), _) => {
            let r = p.resolve(doc);
            for m in r.missing {
                // An absent member compares as `null`, as in the reference evaluator.
                if !op.holds(&Value::Null, lit) {
                    findings.push(fail(
                        m.pointer.as_str(),
                        format!("expected a value {} {lit}: {}", op.as_str(), m.reason),
                    ));
                }
            }
            for n in r.nodes {
                if !op.holds(n.value, lit) {
                    findings.push(fail(
                        n.pointer.as_str(),
                        format!("expected a value {} {lit}, found {}", op.as_str(), n.value),
                    ));
                }
            }
        }
        (rule, Some(p)) => {
            let r = p.resolve(doc);
            for m in r.missing {
                findings.push(fail(
                    m.pointer.as_str(),
                    format!("{}: {}", expectation(rule), m.reason),
                ));
            }
            let target = match rule {
                RuleKind::EqRef(p, text) => {
                    let root = Value::Object(scopes.clone());
                    let r = p.resolve(&root);
                    match (r.nodes.as_slice(), r.missing.first()) {
                        ([one], None) => Some(one.value.clone()),
                        (_, Some(m)) => {
                            findings.push(fail(
                                "",
                                format!("eq target `{text}` not found: {}", m.reason),
                            ));
                            return findings;
                        }
                        (_, None) => {
                            findings.push(fail(
                                "",
                                format!("eq target `{text}` must name exactly one value"),
                            ));
                            return findings;
                        }
                    }
                }
                RuleKind::EqLiteral(v) => Some(v.clone()),
                _ => None,
            };
            for n in r.nodes {
                if let Some(problem) = check_value(rule, n.value, target.as_ref()) {
                    findings.push(fail(n.pointer.as_str(), problem));
                }
            }
        }
        (_, None) => findings.push(fail("", "internal: no path".to_owned())),
    }
    findings
}

fn path_text(rule: &str) -> &str {
    rule.trim()
        .strip_prefix("exists(")
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or(rule)
}

/// What the rule expects, for messages.
fn expectation(rule: &RuleKind) -> String {
    match rule {
        RuleKind::UuidV4 => "expected a UUID v4".into(),
        RuleKind::NonEmptyString => "expected a non-empty string".into(),
        RuleKind::Exists => "expected a value".into(),
        RuleKind::IsoDatetime => "expected an RFC 3339 date-time".into(),
        RuleKind::PositiveInteger => "expected a positive integer".into(),
        RuleKind::MinLength(n) => format!("expected an array or string of length >= {n}"),
        RuleKind::Enum(vs) => format!("expected one of {}", vs.join(", ")),
        RuleKind::OneOf(vs) => format!(
            "expected one of {}",
            vs.iter()
                .map(Value::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        RuleKind::If { then, .. } => expectation(then),
        RuleKind::EqLiteral(v) => format!("expected {v}"),
        RuleKind::EqRef(_, t) => format!("expected the value of `{t}`"),
        RuleKind::ExistsAt(_) | RuleKind::Compare(..) => "expected a value".into(),
    }
}

/// Checks one value; `None` when it satisfies the rule.
fn check_value(rule: &RuleKind, v: &Value, target: Option<&Value>) -> Option<String> {
    let ok = match rule {
        RuleKind::UuidV4 => v.as_str().is_some_and(is_uuid_v4),
        RuleKind::NonEmptyString => v.as_str().is_some_and(|s| !s.trim().is_empty()),
        RuleKind::Exists => !v.is_null(),
        RuleKind::IsoDatetime => v
            .as_str()
            .is_some_and(|s| s.parse::<mplp_core::Timestamp>().is_ok()),
        RuleKind::PositiveInteger => v.as_u64().is_some_and(|n| n > 0),
        RuleKind::MinLength(n) => match v {
            Value::Array(a) => a.len() >= *n,
            Value::String(s) => s.chars().count() >= *n,
            _ => false,
        },
        RuleKind::Enum(vs) => v.as_str().is_some_and(|s| vs.iter().any(|x| x == s)),
        RuleKind::OneOf(vs) => vs.contains(v),
        RuleKind::If { then, .. } => return check_value(then, v, target),
        RuleKind::EqLiteral(_) | RuleKind::EqRef(..) => target.is_some_and(|t| t == v),
        RuleKind::ExistsAt(_) | RuleKind::Compare(..) => true,
    };
    if ok {
        return None;
    }
    let found = match (rule, v) {
        (RuleKind::MinLength(_), Value::Array(a)) => {
            format!("an array of {}", mplp_core::text::count(a.len(), "item"))
        }
        (RuleKind::MinLength(_), Value::String(s)) => {
            format!(
                "a string of {}",
                mplp_core::text::count(s.chars().count(), "character")
            )
        }
        (_, Value::String(_) | Value::Number(_) | Value::Bool(_) | Value::Null) => v.to_string(),
        _ => type_name(v).to_owned(),
    };
    Some(match (rule, target) {
        (RuleKind::EqRef(_, t), Some(tv)) => {
            format!("expected the value of `{t}` ({tv}), found {found}")
        }
        _ => format!("{}, found {found}", expectation(rule)),
    })
}

/// UUID v4 text: 8-4-4-4-12 hex digits, version digit 4, variant 8, 9, a or b
/// (either letter case, as the reference harness's pattern).
fn is_uuid_v4(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
        && b[14] == b'4'
        && matches!(b[19], b'8' | b'9' | b'a' | b'b' | b'A' | b'B')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_published_rule_text_parses() {
        for r in [
            "uuid-v4",
            "non-empty-string",
            "exists",
            "iso-datetime",
            "positive-integer",
            "min-length(20)",
            "enum(pending,active,completed,skipped)",
            r#"enum("draft", "active", "archived")"#,
            "eq(context.context_id)",
            r#"eq("x")"#,
            r#"exists(events[?event_type=="tool.call"])"#,
            r#"events[?event_type=="tool.call"].data != null"#,
        ] {
            assert!(parse_rule(r).is_ok(), "{r}: {:?}", parse_rule(r));
        }
    }

    #[test]
    fn refuses_unknown_and_malformed_rules() {
        for r in [
            "uuid-v5",
            "min-length(x)",
            "min-length",
            "enum()",
            "uuid-v4(1)",
            "eq(",
            "a == ",
            "a == 1 2",
        ] {
            assert!(parse_rule(r).is_err(), "{r} parsed");
        }
        assert_eq!(
            parse_rule("is-even").unwrap_err(),
            "unknown rule kind `is-even`"
        );
    }

    /// A failed check says what the rule expects and what it found: the
    /// length of a short array or string, the JSON text of a scalar, the
    /// type of anything else, and for `eq(PATH)` the value at that path.
    #[test]
    fn failure_messages_name_the_expectation_and_what_was_found() {
        use serde_json::json;
        let msg = |rule: &str, v: Value, target: Option<&Value>| {
            check_value(&parse_rule(rule).unwrap(), &v, target)
        };
        assert_eq!(
            msg("min-length(3)", json!([1]), None).as_deref(),
            Some("expected an array or string of length >= 3, found an array of 1 item")
        );
        assert_eq!(
            msg("min-length(3)", json!("ab"), None).as_deref(),
            Some("expected an array or string of length >= 3, found a string of 2 characters")
        );
        assert_eq!(
            msg("uuid-v4", json!("x"), None).as_deref(),
            Some(r#"expected a UUID v4, found "x""#)
        );
        assert_eq!(
            msg("uuid-v4", json!(5), None).as_deref(),
            Some("expected a UUID v4, found 5")
        );
        assert_eq!(
            msg("uuid-v4", json!({"a": 1}), None).as_deref(),
            Some(&*format!(
                "expected a UUID v4, found {}",
                type_name(&json!({}))
            ))
        );
        assert_eq!(
            msg("eq(context.status)", json!("draft"), Some(&json!("active"))).as_deref(),
            Some(r#"expected the value of `context.status` ("active"), found "draft""#)
        );
        assert_eq!(
            msg(r#"eq("x")"#, json!("y"), Some(&json!("x"))).as_deref(),
            Some(r#"expected "x", found "y""#)
        );
        assert_eq!(msg(r#"eq("x")"#, json!("x"), Some(&json!("x"))), None);
    }

    /// An `exists(PATH)` failure names the path inside the parentheses.
    #[test]
    fn an_exists_rule_is_named_by_its_path() {
        assert_eq!(path_text("exists(events[0].data)"), "events[0].data");
        assert_eq!(path_text(" exists(a.b) "), "a.b");
        assert_eq!(path_text("a.b"), "a.b");
    }

    /// `eq(...)` takes a whole literal, or else a path.
    #[test]
    fn eq_takes_a_whole_literal_or_a_path() {
        assert!(matches!(parse_rule(r#"eq("x")"#), Ok(RuleKind::EqLiteral(v)) if v == "x"));
        assert!(matches!(parse_rule("eq(1)"), Ok(RuleKind::EqLiteral(v)) if v == 1));
        assert!(matches!(parse_rule("eq(a.b)"), Ok(RuleKind::EqRef(_, t)) if t == "a.b"));
        // `"x"` followed by more text is not a literal.
        assert!(!matches!(
            parse_rule(r#"eq("x".y)"#),
            Ok(RuleKind::EqLiteral(_))
        ));
    }

    /// A comparison splits at its first operator outside quotes and
    /// brackets; a quote escaped in a string does not end it, and an
    /// escaped backslash does not escape the quote after it.
    #[test]
    fn comparisons_split_outside_quoted_strings() {
        assert_eq!(
            split_comparison(r#"a == "x\"==y""#),
            Some(("a ", CmpOp::Eq, r#" "x\"==y""#))
        );
        assert_eq!(
            split_comparison(r#"a["p==q"] != 1"#),
            Some((r#"a["p==q"] "#, CmpOp::Ne, " 1"))
        );
        assert_eq!(
            split_comparison(r#"a."p==q" != 1"#),
            Some((r#"a."p==q" "#, CmpOp::Ne, " 1"))
        );
        assert_eq!(
            split_comparison(r#""a\\" == 1"#),
            Some((r#""a\\" "#, CmpOp::Eq, " 1"))
        );
        assert_eq!(
            split_comparison(r#"a["x\"==y"] == 1"#),
            Some((r#"a["x\"==y"] "#, CmpOp::Eq, " 1"))
        );
        assert_eq!(
            split_comparison(r#""x\"==y" != 1"#),
            Some((r#""x\"==y" "#, CmpOp::Ne, " 1"))
        );
        assert_eq!(split_comparison(r#""a == 1"#), None);
    }

    #[test]
    fn uuid_v4_shape() {
        assert!(is_uuid_v4("123e4567-e89b-42d3-a456-426614174000"));
        assert!(is_uuid_v4("123E4567-E89B-42D3-A456-426614174000"));
        assert!(!is_uuid_v4("123e4567-e89b-52d3-a456-426614174000"));
        assert!(!is_uuid_v4("123e4567-e89b-42d3-c456-426614174000"));
        assert!(!is_uuid_v4("123e4567e89b42d3a456426614174000"));
    }
}

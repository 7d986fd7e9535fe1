//! Paths of the golden-flow rule language: `steps[*].agent_role`,
//! `decisions[0].status`, `events[?event_type=="tool.call"].data`.

use mplp_core::Pointer;
use serde_json::Value;

/// One step of a [`Path`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Step {
    /// `.name`: the member `name` of an object.
    Key(String),
    /// `[3]`: one item of an array.
    Index(usize),
    /// `[*]`: every item of an array.
    Wildcard,
    /// `[?key=="value"]` / `[?key!="value"]`: the items of an array that
    /// are objects whose member `key` is (is not) equal to `value`.
    Filter {
        /// The member compared.
        key: String,
        /// `==` or `!=`.
        op: CmpOp,
        /// The JSON literal compared with.
        value: Value,
    },
}

/// A comparison operator (`==`, `!=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl CmpOp {
    pub(crate) fn holds(self, left: &Value, right: &Value) -> bool {
        match self {
            CmpOp::Eq => left == right,
            CmpOp::Ne => left != right,
        }
    }

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
        }
    }
}

/// A parsed path.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Path {
    pub(crate) steps: Vec<Step>,
}

/// A value the path reached, with its JSON pointer.
#[derive(Debug)]
pub(crate) struct Node<'a> {
    pub(crate) pointer: Pointer,
    pub(crate) value: &'a Value,
}

/// A place where the path could not go on: a member that is absent, an
/// index past the end, or a value of the wrong type.
#[derive(Debug)]
pub(crate) struct Missing {
    pub(crate) pointer: Pointer,
    pub(crate) reason: String,
}

/// Everything a path reached, and every place where it stopped.
#[derive(Debug, Default)]
pub(crate) struct Resolved<'a> {
    pub(crate) nodes: Vec<Node<'a>>,
    pub(crate) missing: Vec<Missing>,
}

fn is_key_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '$' | '@')
}

impl Path {
    /// Parses a path; the error says what was expected where.
    pub(crate) fn parse(text: &str) -> Result<Path, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("empty path".to_owned());
        }
        let chars: Vec<char> = text.chars().collect();
        let mut steps = Vec::new();
        let mut i = 0;
        let mut expect_key = true;
        while i < chars.len() {
            match chars[i] {
                '.' => {
                    if expect_key {
                        return Err(format!("`{text}`: expected a member name at offset {i}"));
                    }
                    expect_key = true;
                    i += 1;
                }
                '[' => {
                    let (step, next) = parse_bracket(text, &chars, i)?;
                    steps.push(step);
                    expect_key = false;
                    i = next;
                }
                c if is_key_char(c) => {
                    let start = i;
                    while i < chars.len() && is_key_char(chars[i]) {
                        i += 1;
                    }
                    if !expect_key {
                        return Err(format!("`{text}`: expected `.` or `[` at offset {start}"));
                    }
                    steps.push(Step::Key(chars[start..i].iter().collect()));
                    expect_key = false;
                }
                c => return Err(format!("`{text}`: unexpected `{c}` at offset {i}")),
            }
        }
        if expect_key {
            return Err(format!("`{text}`: ends where a member name was expected"));
        }
        Ok(Path { steps })
    }

    /// Follows the path from `root`.
    pub(crate) fn resolve<'a>(&self, root: &'a Value) -> Resolved<'a> {
        let mut out = Resolved::default();
        let mut nodes = vec![Node {
            pointer: Pointer::root(),
            value: root,
        }];
        for (n, step) in self.steps.iter().enumerate() {
            // An absent member whose items the next step ranges over (`[*]`,
            // `[?...]`) is an empty array: "every item" holds of none.
            let ranged = matches!(
                self.steps.get(n + 1),
                Some(Step::Wildcard | Step::Filter { .. })
            );
            let mut next = Vec::new();
            for node in nodes {
                step_into(step, node, ranged, &mut next, &mut out.missing);
            }
            nodes = next;
        }
        out.nodes = nodes;
        out
    }
}

fn step_into<'a>(
    step: &Step,
    node: Node<'a>,
    ranged: bool,
    next: &mut Vec<Node<'a>>,
    missing: &mut Vec<Missing>,
) {
    match (step, node.value) {
        (Step::Key(k), Value::Object(map)) => match map.get(k) {
            Some(v) => next.push(Node {
                pointer: node.pointer.key(k),
                value: v,
            }),
            None if ranged => {}
            None => missing.push(Missing {
                pointer: node.pointer.key(k),
                reason: format!("member `{k}` is absent"),
            }),
        },
        (Step::Index(n), Value::Array(items)) => match items.get(*n) {
            Some(v) => next.push(Node {
                pointer: node.pointer.index(*n),
                value: v,
            }),
            None => missing.push(Missing {
                pointer: node.pointer.index(*n),
                reason: format!(
                    "index {n} is past the end ({})",
                    mplp_core::text::count(items.len(), "item")
                ),
            }),
        },
        (Step::Wildcard, Value::Array(items)) => {
            for (n, v) in items.iter().enumerate() {
                next.push(Node {
                    pointer: node.pointer.index(n),
                    value: v,
                });
            }
        }
        (Step::Filter { key, op, value }, Value::Array(items)) => {
            for (n, v) in items.iter().enumerate() {
                let selected = v
                    .as_object()
                    .and_then(|m| m.get(key))
                    .is_some_and(|member| op.holds(member, value));
                if selected {
                    next.push(Node {
                        pointer: node.pointer.index(n),
                        value: v,
                    });
                }
            }
        }
        (step, v) => {
            let wanted = match step {
                Step::Key(_) => "an object",
                _ => "an array",
            };
            missing.push(Missing {
                pointer: node.pointer,
                reason: format!("expected {wanted}, found {}", type_name(v)),
            });
        }
    }
}

/// The JSON type of a value, for messages.
pub(crate) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Parses `[...]` starting at `chars[open] == '['`; returns the step and the
/// offset after `]`.
fn parse_bracket(text: &str, chars: &[char], open: usize) -> Result<(Step, usize), String> {
    let mut i = open + 1;
    let skip_ws = |i: &mut usize| {
        while *i < chars.len() && chars[*i].is_whitespace() {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    let step = match chars.get(i) {
        Some('*') => {
            i += 1;
            Step::Wildcard
        }
        Some(c) if c.is_ascii_digit() => {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let digits: String = chars[start..i].iter().collect();
            let n = digits
                .parse::<usize>()
                .map_err(|e| format!("`{text}`: bad index `{digits}`: {e}"))?;
            Step::Index(n)
        }
        Some('?') => {
            i += 1;
            skip_ws(&mut i);
            let start = i;
            while i < chars.len() && is_key_char(chars[i]) {
                i += 1;
            }
            if start == i {
                return Err(format!("`{text}`: expected a member name after `[?`"));
            }
            let key: String = chars[start..i].iter().collect();
            skip_ws(&mut i);
            let op = match (chars.get(i), chars.get(i + 1)) {
                (Some('='), Some('=')) => CmpOp::Eq,
                (Some('!'), Some('=')) => CmpOp::Ne,
                _ => return Err(format!("`{text}`: expected `==` or `!=` at offset {i}")),
            };
            i += 2;
            skip_ws(&mut i);
            let (value, next) = parse_literal(text, chars, i, &[']'])?;
            i = next;
            Step::Filter { key, op, value }
        }
        _ => {
            return Err(format!(
                "`{text}`: expected `*`, an index or `?member==value` after `[` at offset {open}"
            ));
        }
    };
    skip_ws(&mut i);
    if chars.get(i) != Some(&']') {
        return Err(format!("`{text}`: expected `]` at offset {i}"));
    }
    Ok((step, i + 1))
}

/// Parses a JSON literal (a quoted string, a number, `true`, `false`,
/// `null`) starting at `chars[start]`, ending before one of `stops` or at
/// the end; returns it and the offset after it.
pub(crate) fn parse_literal(
    text: &str,
    chars: &[char],
    start: usize,
    stops: &[char],
) -> Result<(Value, usize), String> {
    let mut i = start;
    if chars.get(i) == Some(&'"') {
        i += 1;
        let mut escaped = false;
        while i < chars.len() {
            match chars[i] {
                '\\' if !escaped => escaped = true,
                '"' if !escaped => break,
                _ => escaped = false,
            }
            i += 1;
        }
        if i >= chars.len() {
            return Err(format!("`{text}`: unterminated string literal"));
        }
        i += 1;
    } else {
        while i < chars.len() && !stops.contains(&chars[i]) && !chars[i].is_whitespace() {
            i += 1;
        }
    }
    let literal: String = chars[start..i].iter().collect();
    let value = serde_json::from_str::<Value>(&literal).map_err(|_| {
        format!("`{text}`: `{literal}` is not a JSON literal (a quoted string, number, true, false or null)")
    })?;
    if value.is_array() || value.is_object() {
        return Err(format!("`{text}`: `{literal}` is not a scalar literal"));
    }
    Ok((value, i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_the_published_forms() {
        let p = Path::parse("steps[*].agent_role").unwrap();
        assert_eq!(
            p.steps,
            vec![
                Step::Key("steps".into()),
                Step::Wildcard,
                Step::Key("agent_role".into())
            ]
        );
        let p = Path::parse(r#"events[?event_type=="tool.call"].data"#).unwrap();
        assert_eq!(
            p.steps[1],
            Step::Filter {
                key: "event_type".into(),
                op: CmpOp::Eq,
                value: json!("tool.call")
            }
        );
        assert_eq!(Path::parse("a[2]").unwrap().steps[1], Step::Index(2));
    }

    #[test]
    fn refuses_malformed_paths() {
        for bad in [
            "",
            "a..b",
            "a.",
            ".a",
            "a[",
            "a[x]",
            "a[?k=1",
            "a[?==1]",
            "a b",
            "a[?k==[1]]",
            // Cut off inside an index, a member name, a string.
            "a[12",
            "a[?k",
            "a[?k==\"abc",
            "a[?k==\"abc\\\"]",
        ] {
            assert!(Path::parse(bad).is_err(), "{bad:?} parsed");
        }
        // What was expected where.
        for (bad, says) in [
            ("a#b", "`a#b`: unexpected `#` at offset 1"),
            ("#a", "`#a`: unexpected `#` at offset 0"),
            (
                "a[ x ]",
                "`a[ x ]`: expected `*`, an index or `?member==value` after `[` at offset 1",
            ),
            ("a[?k=={}]", "`a[?k=={}]`: `{}` is not a scalar literal"),
            ("a[?k==\"abc", "`a[?k==\"abc`: unterminated string literal"),
        ] {
            assert_eq!(Path::parse(bad).unwrap_err(), says);
        }
    }

    #[test]
    fn brackets_allow_spaces_and_strings_escapes() {
        let p = Path::parse("a[ * ][ 2 ][? k != \"x\" ]").unwrap();
        assert_eq!(
            p.steps,
            vec![
                Step::Key("a".into()),
                Step::Wildcard,
                Step::Index(2),
                Step::Filter {
                    key: "k".into(),
                    op: CmpOp::Ne,
                    value: json!("x")
                },
            ]
        );
        // An escaped quote does not end the string; an escaped backslash
        // does not escape the quote after it.
        for (text, value) in [
            (r#"a[?k=="say \"hi\""]"#, json!("say \"hi\"")),
            (r#"a[?k=="dir\\"]"#, json!("dir\\")),
            (r#"a[?k=="\\\"x"]"#, json!("\\\"x")),
        ] {
            let p = Path::parse(text).unwrap();
            match &p.steps[1] {
                Step::Filter { value: v, .. } => assert_eq!(v, &value, "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
        assert_eq!((CmpOp::Eq.as_str(), CmpOp::Ne.as_str()), ("==", "!="));
    }

    #[test]
    fn a_path_stopped_by_a_value_of_the_wrong_type_says_what_it_found() {
        let doc = json!({"a": 3, "b": [1], "c": null, "d": "s", "e": true, "f": {}});
        let reasons = |path: &str| -> Vec<String> {
            Path::parse(path)
                .unwrap()
                .resolve(&doc)
                .missing
                .into_iter()
                .map(|m| format!("{}: {}", m.pointer.as_str(), m.reason))
                .collect()
        };
        assert_eq!(reasons("a.x"), ["/a: expected an object, found a number"]);
        assert_eq!(reasons("b.x"), ["/b: expected an object, found an array"]);
        assert_eq!(reasons("c[0]"), ["/c: expected an array, found null"]);
        assert_eq!(reasons("d[*]"), ["/d: expected an array, found a string"]);
        assert_eq!(
            reasons("e[?k==1]"),
            ["/e: expected an array, found a boolean"]
        );
        assert_eq!(reasons("f[0]"), ["/f: expected an array, found an object"]);
        assert_eq!(reasons("b[3]"), ["/b/3: index 3 is past the end (1 item)"]);
    }

    #[test]
    fn resolves_and_reports_where_it_stopped() {
        let doc = json!({"steps": [{"id": "a"}, {"x": 1}, 3]});
        let r = Path::parse("steps[*].id").unwrap().resolve(&doc);
        assert_eq!(r.nodes.len(), 1);
        assert_eq!(r.nodes[0].pointer.as_str(), "/steps/0/id");
        let where_: Vec<&str> = r.missing.iter().map(|m| m.pointer.as_str()).collect();
        assert_eq!(where_, ["/steps/1/id", "/steps/2"]);
        let r = Path::parse("steps[5]").unwrap().resolve(&doc);
        assert!(r.nodes.is_empty());
        assert_eq!(r.missing[0].pointer.as_str(), "/steps/5");
    }

    #[test]
    fn filters_select_matching_items() {
        let doc = json!({"events": [{"t": "a", "d": 1}, {"t": "b"}, {"t": "a", "d": 2}, "x"]});
        let r = Path::parse(r#"events[?t=="a"].d"#).unwrap().resolve(&doc);
        let got: Vec<&Value> = r.nodes.iter().map(|n| n.value).collect();
        assert_eq!(got, [&json!(1), &json!(2)]);
        let r = Path::parse(r#"events[?t!="a"]"#).unwrap().resolve(&doc);
        assert_eq!(r.nodes.len(), 1);
        assert_eq!(r.nodes[0].pointer.as_str(), "/events/1");
    }
}

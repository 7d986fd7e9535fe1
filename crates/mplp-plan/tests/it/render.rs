//! Diagrams.

use mplp_core::{ContextId, Document, StepId};
use mplp_plan::{Plan, StepStatus, render};

fn plan() -> Plan {
    let mut b = Plan::builder(ContextId::new(), "Say \"hi\" <now>", "o");
    let a = b.step("Read the \"logs\" & <errors> # 1\nthen `stop`");
    b.step_after("back\\slash", &[a]);
    let mut plan = b.build().unwrap();
    plan.propose().unwrap();
    plan.approve(&mplp_plan::ConfirmDecision::approved("lead"))
        .unwrap();
    plan.start().unwrap();
    let first = plan.steps()[0].step_id;
    plan.step_mut(first).unwrap().start().unwrap();
    plan.step_mut(first).unwrap().complete().unwrap();
    assert_eq!(plan.steps()[0].status(), StepStatus::Completed);
    plan
}

#[test]
fn mermaid_escapes_labels_and_colours_by_status() {
    let chart = render::mermaid(&plan());
    assert!(
        chart.contains(
            "s0[\"Read the #quot;logs#quot; #amp; #lt;errors#gt; #35; 1 then #96;stop#96;\"]"
        ),
        "{chart}"
    );
    assert!(chart.contains("s1[\"back\\slash\"]"));
    assert!(chart.contains("s0 --> s1"));
    assert!(chart.contains("classDef completed fill:#c8e6c9"));
    assert!(chart.contains("class s0 completed;"));
    assert!(chart.contains("class s1 pending;"));
    assert!(chart.contains("%% Say #quot;hi#quot; #lt;now#gt;"));
    // Every label line has exactly two unescaped quotes.
    for line in chart.lines().filter(|l| l.contains('[')) {
        assert_eq!(line.matches('"').count(), 2, "{line}");
    }
}

#[test]
fn dot_escapes_labels_and_colours_by_status() {
    let graph = render::dot(&plan());
    assert!(
        graph.contains(
            r##"s0 [label="Read the \"logs\" & <errors> # 1\nthen `stop`", fillcolor="#c8e6c9""##
        ),
        "{graph}"
    );
    assert!(graph.contains(r##"s1 [label="back\\slash", fillcolor="#eeeeee""##));
    assert!(graph.contains("label=\"Say \\\"hi\\\" <now>\";"));
    assert!(graph.contains("s0 -> s1;"));
    assert!(graph.ends_with("}\n"));
}

#[test]
fn unknown_dependencies_are_left_out() {
    let mut json = plan().to_value();
    json["steps"][1]["dependencies"] = serde_json::json!([StepId::new()]);
    let p = <Plan as mplp_core::Wire>::deserialize_unchecked(&json).unwrap();
    assert!(!render::dot(&p).contains("->"));
    assert!(!render::mermaid(&p).contains("-->"));
}

/// What the renderers must never put raw in a label.
fn is_break(c: char) -> bool {
    c.is_control() || c == '\u{2028}' || c == '\u{2029}'
}

/// Reads back a Graphviz double-quoted string body written by `dot_escape`.
fn dot_unescape(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return None, // an unescaped quote would end the string
            '\\' => match chars.next()? {
                '"' => out.push('"'),
                '\\' => out.push('\\'),
                'n' => out.push('\n'),
                _ => return None,
            },
            c => out.push(c),
        }
    }
    Some(out)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

    /// Any text, including quotes, markup, `%%` and every kind of line
    /// break, stays inside one Mermaid label and one DOT string.
    #[test]
    fn labels_never_escape_their_quotes(
        text in "(\\PC|[\"<>&`#%;\\\\\\[\\]{}\\n\\r\\t\\u{0}\\u{85}\\u{2028}\\u{2029}]){0,40}"
    ) {
        let m = render::mermaid_escape(&text);
        for bad in ['"', '<', '>', '`', '%', '\n', '\r'] {
            proptest::prop_assert!(!m.contains(bad), "{:?} in {:?}", bad, m);
        }
        proptest::prop_assert!(!m.chars().any(is_break), "{:?}", m);

        let d = render::dot_escape(&text);
        proptest::prop_assert!(!d.chars().any(is_break), "{:?}", d);
        // The escaping is exact: reading it back gives the text, with `\r`
        // dropped and other breaks turned into spaces.
        let expected: String = text
            .chars()
            .filter(|&c| c != '\r')
            .map(|c| if c != '\n' && is_break(c) { ' ' } else { c })
            .collect();
        proptest::prop_assert_eq!(dot_unescape(&d), Some(expected));

        // Rendered, a step with this description is one node line.
        let mut b = Plan::builder(ContextId::new(), text.clone(), "o");
        b.step(if text.is_empty() { "x".to_owned() } else { text.clone() });
        if let Ok(plan) = b.build() {
            proptest::prop_assert_eq!(render::mermaid(&plan).lines().count(), 5);
            proptest::prop_assert_eq!(render::dot(&plan).lines().count(), 7);
        }
    }
}

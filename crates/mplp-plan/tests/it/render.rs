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
fn mermaid_escapes_labels_and_shows_status_as_text_shape_and_colour() {
    let plan = plan();
    let chart = render::mermaid(&plan);
    let h0 = render::header_line(0, &plan.steps()[0]);
    let h1 = render::header_line(1, &plan.steps()[1]);
    assert!(h0.starts_with("/steps/0 · "), "{h0}");
    assert!(
        chart.contains(&format!(
            "s0[[\"{h0}<br/>Read the #quot;logs#quot; #amp; #lt;errors#gt; #35;<br/>1 then #96;stop#96;<br/>[completed]\"]]:::completed"
        )),
        "{chart}"
    );
    assert!(
        chart.contains(&format!(
            "s1[\"{h1}<br/>back\\slash<br/>[pending]\"]:::pending"
        )),
        "{chart}"
    );
    assert!(chart.contains("s0 --> s1"));
    assert!(chart.contains("classDef completed fill:#c8e6c9"));
    assert!(
        chart.starts_with("---\ntitle: \"Say \\\"hi\\\" <now>\"\n---\nflowchart TD\n"),
        "{chart}"
    );
    // The legend names every status and its shape.
    for status in StepStatus::ALL {
        assert!(chart.contains(&format!("legend_{status}")), "{status}");
    }
    assert!(chart.contains("double box"));
    assert!(!chart.contains("cycle"), "a valid plan has no cycle mark");
    // Every node line has exactly two unescaped quotes.
    for line in chart
        .lines()
        .filter(|l| l.trim_start().starts_with('s') && l.contains(":::"))
    {
        assert_eq!(line.matches('"').count(), 2, "{line}");
    }
}

#[test]
fn dot_escapes_labels_and_shows_status_as_text_shape_and_colour() {
    let plan = plan();
    let graph = render::dot(&plan);
    let h0 = render::header_line(0, &plan.steps()[0]);
    let h1 = render::header_line(1, &plan.steps()[1]);
    assert!(
        graph.contains(&format!(
            r##"s0 [label="{h0}\nRead the \"logs\" & <errors> #\n1\nthen `stop`\n[completed]", shape=box, style="rounded,filled", peripheries=2, fillcolor="#c8e6c9""##
        )),
        "{graph}"
    );
    assert!(
        graph.contains(&format!(r##"s1 [label="{h1}\nback\\slash\n[pending]", shape=box, style="rounded,filled", fillcolor="#ffffff""##)),
        "{graph}"
    );
    assert!(graph.contains("label=\"Say \\\"hi\\\" <now>\";"));
    assert!(graph.contains("s0 -> s1;"));
    assert!(graph.contains("subgraph cluster_legend"));
    assert!(graph.contains("legend_failed [label=\"failed\\noctagon\", shape=octagon"));
    assert!(graph.ends_with("}\n"));
}

#[test]
fn labels_are_wrapped_and_show_the_agent_role() {
    let mut b = Plan::builder(ContextId::new(), "T", "o");
    b.add(
        mplp_plan::StepSpec::new("Collect every failing request from the gateway logs")
            .role("planner"),
    );
    let plan = b.build().unwrap();
    let graph = render::dot(&plan);
    assert!(
        graph.contains(
            "\\nCollect every failing\\nrequest from the gateway\\nlogs\\n[pending]\\nrole: planner\""
        ),
        "{graph}"
    );
    let chart = render::mermaid(&plan);
    assert!(
        chart.contains("logs<br/>[pending]<br/>role: planner"),
        "{chart}"
    );
}

/// A plan of three steps a -> b -> c, with `edit` applied to its JSON,
/// read without its rules (as `mplp plan render` reads an invalid plan).
fn broken(edit: impl FnOnce(&mut serde_json::Value, &[String])) -> Plan {
    let mut b = Plan::builder(ContextId::new(), "T", "o");
    let a = b.step("a");
    let bb = b.step_after("b", &[a]);
    b.step_after("c", &[bb]);
    let mut json = b.build().unwrap().to_value();
    let ids: Vec<String> = (0..3)
        .map(|i| json["steps"][i]["step_id"].as_str().unwrap().to_owned())
        .collect();
    edit(&mut json, &ids);
    <Plan as mplp_core::Wire>::deserialize_unchecked(&json).unwrap()
}

#[test]
fn a_cycle_is_drawn_with_its_edges_marked() {
    // c -> a closes the cycle a -> b -> c -> a.
    let p = broken(|json, ids| json["steps"][0]["dependencies"] = serde_json::json!([ids[2]]));
    assert!(!Plan::validate_value(&p.to_value()).report.is_valid());
    let graph = render::dot(&p);
    for edge in ["s0 -> s1 [color", "s1 -> s2 [color", "s2 -> s0 [color"] {
        assert!(graph.contains(edge), "{edge} in {graph}");
    }
    assert_eq!(graph.matches("label=\"cycle\"").count(), 3, "{graph}");
    assert!(graph.contains("legend_cycle"));
    let chart = render::mermaid(&p);
    assert_eq!(chart.matches("-- cycle -->").count(), 3, "{chart}");
    assert!(chart.contains("linkStyle 0,1,2 stroke:#c62828"), "{chart}");

    // Only the edges on the cycle: d -> a is outside it.
    let p = broken(|json, ids| {
        json["steps"][1]["dependencies"] = serde_json::json!([ids[0], ids[2]]);
        json["steps"][2]["dependencies"] = serde_json::json!([ids[1]]);
    });
    let graph = render::dot(&p);
    assert!(graph.contains("s0 -> s1;"), "{graph}");
    assert!(graph.contains("s2 -> s1 [color"), "{graph}");
    assert!(graph.contains("s1 -> s2 [color"), "{graph}");

    // A step that depends on itself.
    let p = broken(|json, ids| json["steps"][0]["dependencies"] = serde_json::json!([ids[0]]));
    assert!(render::dot(&p).contains("s0 -> s0 [color"));
    assert!(render::mermaid(&p).contains("s0 -- cycle --> s0"));
}

#[test]
fn a_missing_dependency_is_a_dashed_edge_from_a_missing_node() {
    let ghost = StepId::new();
    let p = broken(|json, _| json["steps"][1]["dependencies"] = serde_json::json!([ghost]));
    let graph = render::dot(&p);
    assert!(
        graph.contains(&format!(
            "m0 [label=\"missing step\\n{ghost}\", shape=box, style=dashed"
        )),
        "{graph}"
    );
    assert!(graph.contains("m0 -> s1 [style=dashed"), "{graph}");
    assert!(!graph.contains("s0 -> s1"), "{graph}");
    let chart = render::mermaid(&p);
    assert!(
        chart.contains(&format!("m0[\"missing step<br/>{ghost}\"]:::missing")),
        "{chart}"
    );
    assert!(chart.contains("m0 -.-> s1"), "{chart}");
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
            let lines = |s: &str| s.lines().filter(|l| l.trim_start().starts_with("s0")).count();
            proptest::prop_assert_eq!(lines(&render::mermaid(&plan)), 1);
            proptest::prop_assert_eq!(lines(&render::dot(&plan)), 1);
        }
    }

    /// Wrapping keeps every character but the spaces it breaks at, and no
    /// line is longer than the width.
    #[test]
    fn wrapping_loses_nothing(text in "[a-z ]{0,80}", width in 1usize..30) {
        let lines = render::wrap(&text, width);
        for line in &lines {
            proptest::prop_assert!(line.chars().count() <= width, "{:?}", line);
        }
        let joined: String = lines.concat();
        let expected: String = text.chars().filter(|c| *c != ' ').collect();
        let got: String = joined.chars().filter(|c| *c != ' ').collect();
        proptest::prop_assert_eq!(got, expected);
    }
}

/// A plan of `n` steps whose dependencies are `deps` (indices, self and
/// repeats left out), read without its rules.
fn with_deps(n: usize, deps: &[Vec<usize>]) -> Plan {
    let mut pairs = Vec::new();
    for (i, list) in deps.iter().enumerate().take(n) {
        let mut seen = std::collections::BTreeSet::new();
        pairs.extend(
            list.iter()
                .filter(|&&d| d != i && d < n && seen.insert(d))
                .map(|&d| (d, i)),
        );
    }
    super::plan(n, &pairs, &[], &[])
}

/// The edges `(dependency, step)` of the cycle `sa_plan_dag_acyclic`
/// reports, read from its message (`... (/steps/i) -> ...`).
fn reported_cycle(plan: &Plan) -> std::collections::BTreeSet<(usize, usize)> {
    let report = Plan::validate_value(&plan.to_value()).report;
    let Some(v) = report
        .violations()
        .iter()
        .find(|v| v.rule.as_str() == "sa_plan_dag_acyclic")
    else {
        return Default::default();
    };
    let steps: Vec<usize> = v
        .message
        .split("(/steps/")
        .skip(1)
        .map(|t| t.split(')').next().unwrap().parse().unwrap())
        .collect();
    (0..steps.len())
        .map(|k| (steps[(k + steps.len() - 1) % steps.len()], steps[k]))
        .collect()
}

#[test]
fn in_a_tangle_only_the_reported_cycle_is_marked() {
    // 0 <-> 1 and 1 <-> 2 and 2 -> 0: a tangle of several cycles.
    let p = with_deps(4, &[vec![1, 2], vec![0, 2], vec![1], vec![0]]);
    let cycle = reported_cycle(&p);
    assert!(!cycle.is_empty());
    let graph = render::dot(&p);
    assert_eq!(
        graph.matches("label=\"cycle\"").count(),
        cycle.len(),
        "{graph}"
    );
    for (d, i) in &cycle {
        assert!(graph.contains(&format!("s{d} -> s{i} [color")), "{graph}");
    }
    // 3 waits for 0: plain.
    assert!(graph.contains("s0 -> s3;"), "{graph}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// In any dependency graph, the edges drawn as the cycle (DOT and
    /// Mermaid) are exactly the edges of the cycle the rules report, and
    /// every step's node is labelled with its number and short id.
    #[test]
    fn only_the_reported_cycle_is_marked(
        deps in proptest::collection::vec(proptest::collection::vec(0usize..8, 0..4), 1..8)
    ) {
        let n = deps.len();
        let plan = with_deps(n, &deps);
        let cycle = reported_cycle(&plan);
        let graph = render::dot(&plan);
        let marked: std::collections::BTreeSet<(usize, usize)> = graph
            .lines()
            .filter(|l| l.contains("label=\"cycle\""))
            .map(|l| {
                let (a, b) = l.trim().split_once(" -> ").unwrap();
                let b = b.split(' ').next().unwrap();
                (a[1..].parse().unwrap(), b[1..].parse().unwrap())
            })
            .collect();
        proptest::prop_assert_eq!(&marked, &cycle);
        let chart = render::mermaid(&plan);
        proptest::prop_assert_eq!(chart.matches("-- cycle -->").count(), cycle.len());
        for (i, step) in plan.steps().iter().enumerate() {
            let header = render::header_line(i, step);
            proptest::prop_assert!(chart.contains(&format!("s{i}[\"{header}<br/>")), "{}", chart);
            proptest::prop_assert!(graph.contains(&format!("s{i} [label=\"{header}\\n")), "{}", graph);
        }
    }
}

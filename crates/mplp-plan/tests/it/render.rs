//! Diagrams.

use mplp_core::{ContextId, StepId};
use mplp_plan::{Plan, StepStatus, render};

fn plan() -> Plan {
    let mut b = Plan::builder(ContextId::new(), "Say \"hi\" <now>", "o");
    let a = b.step("Read the \"logs\" & <errors> # 1\nthen `stop`");
    b.step_after("back\\slash", &[a]);
    let mut plan = b.build().unwrap();
    plan.steps.as_mut_slice()[0].status = StepStatus::Completed;
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
    let mut p = plan();
    p.steps.as_mut_slice()[1].dependencies = Some(vec![StepId::new()]);
    assert!(!render::dot(&p).contains("->"));
    assert!(!render::mermaid(&p).contains("-->"));
}

//! Diagrams of a plan: [`mermaid`] (a Mermaid flowchart) and [`dot`]
//! (Graphviz). Steps are labelled with their description, properly escaped
//! for each language, and coloured by status; an edge goes from each
//! dependency to the step that waits for it. Dependencies that name no step
//! are left out (validation reports them).

use std::fmt::Write;

use crate::graph::Graph;
use crate::{Plan, StepStatus};

/// Fill and border colours of a step status.
fn colours(status: StepStatus) -> (&'static str, &'static str) {
    match status {
        StepStatus::Pending => ("#eeeeee", "#757575"),
        StepStatus::InProgress => ("#bbdefb", "#1565c0"),
        StepStatus::Completed => ("#c8e6c9", "#2e7d32"),
        StepStatus::Blocked => ("#ffe0b2", "#ef6c00"),
        StepStatus::Skipped => ("#f5f5f5", "#bdbdbd"),
        StepStatus::Failed => ("#ffcdd2", "#c62828"),
    }
}

/// Control characters and Unicode line/paragraph separators: none may
/// appear raw inside a one-line label.
fn is_break(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Escapes text for a double-quoted Mermaid label, with Mermaid's entity
/// codes: nothing in the text can end the label or be read as markup. `%`
/// is escaped too, so `%%` can never start a comment or a `%%{init}%%`
/// directive, and line breaks and other control characters become spaces.
///
/// ```
/// assert_eq!(mplp_plan::render::mermaid_escape(r#"say "hi" <b> #1"#), "say #quot;hi#quot; #lt;b#gt; #35;1");
/// assert_eq!(mplp_plan::render::mermaid_escape("100%%\nnext"), "100#37;#37; next");
/// ```
pub fn mermaid_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '#' => out.push_str("#35;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '&' => out.push_str("#amp;"),
            '`' => out.push_str("#96;"),
            '%' => out.push_str("#37;"),
            c if is_break(c) => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Escapes text for a double-quoted Graphviz string: quotes and
/// backslashes are escaped, a line break becomes Graphviz's `\n`, a
/// carriage return is dropped and any other control character (or Unicode
/// line separator) becomes a space.
///
/// ```
/// assert_eq!(mplp_plan::render::dot_escape("a \"b\" \\ c\nd"), r#"a \"b\" \\ c\nd"#);
/// ```
pub fn dot_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c if is_break(c) => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The plan as a Mermaid flowchart (top to bottom).
///
/// ```
/// let mut b = mplp_plan::Plan::builder(mplp_core::ContextId::new(), "Fix", "Fix the bug");
/// let a = b.step("Read \"error\" logs");
/// b.step_after("Write the fix", &[a]);
/// let chart = mplp_plan::render::mermaid(&b.build()?);
/// assert!(chart.starts_with("flowchart TD\n"));
/// assert!(chart.contains(r#"s0["Read #quot;error#quot; logs"]"#));
/// assert!(chart.contains("s0 --> s1"));
/// assert!(chart.contains("class s0,s1 pending"));
/// # Ok::<(), mplp_core::Error>(())
/// ```
pub fn mermaid(plan: &Plan) -> String {
    let (graph, _) = Graph::build(&plan.steps);
    let mut out = String::from("flowchart TD\n");
    let _ = writeln!(out, "  %% {}", mermaid_escape(&plan.title));
    for (i, step) in plan.steps.iter().enumerate() {
        let _ = writeln!(out, "  s{i}[\"{}\"]", mermaid_escape(&step.description));
    }
    for i in 0..plan.steps.len() {
        for &d in graph.deps(i) {
            let _ = writeln!(out, "  s{d} --> s{i}");
        }
    }
    for &status in StepStatus::ALL {
        let members: Vec<String> = plan
            .steps
            .iter()
            .enumerate()
            .filter(|(_, s)| s.status == status)
            .map(|(i, _)| format!("s{i}"))
            .collect();
        if members.is_empty() {
            continue;
        }
        let (fill, stroke) = colours(status);
        let dash = if status == StepStatus::Skipped {
            ",stroke-dasharray:4 3"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  classDef {status} fill:{fill},stroke:{stroke}{dash};\n  class {} {status};",
            members.join(",")
        );
    }
    out
}

/// The plan as a Graphviz `digraph`.
///
/// ```
/// let mut b = mplp_plan::Plan::builder(mplp_core::ContextId::new(), "Fix", "Fix the bug");
/// let a = b.step("Read logs\\errors");
/// b.step_after("Write the fix", &[a]);
/// let graph = mplp_plan::render::dot(&b.build()?);
/// assert!(graph.starts_with("digraph plan {\n"));
/// assert!(graph.contains(r##"s0 [label="Read logs\\errors", fillcolor="#eeeeee""##));
/// assert!(graph.contains("s0 -> s1;"));
/// # Ok::<(), mplp_core::Error>(())
/// ```
pub fn dot(plan: &Plan) -> String {
    let (graph, _) = Graph::build(&plan.steps);
    let mut out = String::from("digraph plan {\n");
    let _ = writeln!(
        out,
        "  label=\"{}\";\n  labelloc=t;\n  rankdir=TB;\n  node [shape=box, style=\"rounded,filled\"];",
        dot_escape(&plan.title)
    );
    for (i, step) in plan.steps.iter().enumerate() {
        let (fill, stroke) = colours(step.status);
        let style = if step.status == StepStatus::Skipped {
            ", style=\"rounded,filled,dashed\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  s{i} [label=\"{}\", fillcolor=\"{fill}\", color=\"{stroke}\", tooltip=\"{}\"{style}];",
            dot_escape(&step.description),
            step.status
        );
    }
    for i in 0..plan.steps.len() {
        for &d in graph.deps(i) {
            let _ = writeln!(out, "  s{d} -> s{i};");
        }
    }
    out.push_str("}\n");
    out
}

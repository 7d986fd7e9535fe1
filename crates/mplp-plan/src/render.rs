//! Diagrams of a plan: [`mermaid`] (a Mermaid flowchart), [`dot`]
//! (Graphviz) and, with the feature `svg`, `svg` (a picture laid out in
//! pure Rust). An edge goes from each dependency to the step that waits for
//! it. Each step shows its number and short id first (`/steps/7 ·
//! 3f2a1b9c`, [`header_line`]: an error's pointer finds its step), then its
//! description (wrapped at [`WRAP`] characters), its status **as text**,
//! and its `agent_role`; the status is also told by
//! the node's **shape** and colour, so the picture reads in greyscale and
//! for colour-blind readers, and a legend explains the shapes. The plan's
//! title is the diagram's title.
//!
//! An invalid plan is drawn too, with what is wrong marked: the edges of a
//! dependency cycle the plan's rules report (`sa_plan_dag_acyclic` names
//! one cycle, in order) are red, bold and labelled `cycle` (other edges of
//! a tangled region stay plain), a step depending on itself has a red
//! loop, and a dependency that names no step is a dashed edge
//! from a "missing step" node. A [`Plan`] obtained through the public API
//! is always valid; an invalid one comes from
//! [`Wire::deserialize_unchecked`](mplp_core::Wire::deserialize_unchecked),
//! which is what `mplp plan render` uses to draw a plan it also reports.

use std::collections::HashSet;
use std::fmt::Write;

use mplp_core::text::{is_line_break, one_line};

use crate::graph::Graph;
use crate::{Plan, StepStatus};

#[cfg(feature = "svg")]
mod svg;
#[cfg(feature = "svg")]
pub use svg::{DETAILED_MAX, svg};

/// The width, in characters, at which step labels are wrapped.
pub const WRAP: usize = 28;

/// Fill and border colours of a step status (pending is white, skipped grey
/// and dashed: the two are told apart without colour too).
fn colours(status: StepStatus) -> (&'static str, &'static str) {
    match status {
        StepStatus::Pending => ("#ffffff", "#616161"),
        StepStatus::InProgress => ("#bbdefb", "#1565c0"),
        StepStatus::Completed => ("#c8e6c9", "#2e7d32"),
        StepStatus::Blocked => ("#ffe0b2", "#ef6c00"),
        StepStatus::Skipped => ("#e0e0e0", "#9e9e9e"),
        StepStatus::Failed => ("#ffcdd2", "#c62828"),
    }
}

/// The Graphviz attributes that give a status its shape.
fn dot_shape(status: StepStatus) -> &'static str {
    match status {
        StepStatus::Pending => "shape=box, style=\"rounded,filled\"",
        StepStatus::InProgress => "shape=box, style=\"rounded,filled,bold\", penwidth=3",
        StepStatus::Completed => "shape=box, style=\"rounded,filled\", peripheries=2",
        StepStatus::Blocked => "shape=hexagon, style=filled",
        StepStatus::Skipped => "shape=box, style=\"rounded,filled,dashed\"",
        StepStatus::Failed => "shape=octagon, style=filled, penwidth=2",
    }
}

/// The Mermaid brackets that give a status its shape.
fn mermaid_shape(status: StepStatus) -> (&'static str, &'static str) {
    match status {
        StepStatus::Pending => ("[", "]"),
        StepStatus::InProgress => ("([", "])"),
        StepStatus::Completed => ("[[", "]]"),
        StepStatus::Blocked => ("{{", "}}"),
        StepStatus::Skipped => ("[/", "/]"),
        StepStatus::Failed => (">", "]"),
    }
}

/// The shape's name, for the legend.
fn shape_name(status: StepStatus) -> &'static str {
    match status {
        StepStatus::Pending => "box",
        StepStatus::InProgress => "bold box",
        StepStatus::Completed => "double box",
        StepStatus::Blocked => "hexagon",
        StepStatus::Skipped => "dashed box",
        StepStatus::Failed => "octagon",
    }
}

/// Splits `text` into lines of at most `width` characters, at spaces where
/// it can (a longer word is cut). No character is lost but the spaces where
/// lines break.
///
/// ```
/// use mplp_plan::render::wrap;
/// assert_eq!(wrap("Read the error logs of the login service", 16), ["Read the error", "logs of the", "login service"]);
/// assert_eq!(wrap("abcdefgh", 3), ["abc", "def", "gh"]);
/// assert_eq!(wrap("", 10), [""]);
/// ```
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut len = 0;
    for word in text.split(' ') {
        let mut word: Vec<char> = word.chars().collect();
        if len > 0 && len + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
            len = 0;
        } else if len > 0 {
            line.push(' ');
            len += 1;
        }
        while len + word.len() > width {
            let cut = width - len;
            line.extend(word.drain(..cut));
            lines.push(std::mem::take(&mut line));
            len = 0;
        }
        len += word.len();
        line.extend(word);
    }
    lines.push(line);
    lines
}

/// What is wrong with the plan's graph, for drawing: the edges of the
/// cycle the plan's rules report, self-dependencies, and dependencies that
/// name no step.
struct Marks {
    graph: Graph,
    /// `(dependency, step)` for each edge of the reported cycle (the one
    /// `sa_plan_dag_acyclic` names, found by the same algorithm on the same
    /// graph): only these are drawn as the cycle, not every edge of a
    /// tangled region.
    cycle: HashSet<(usize, usize)>,
    /// Steps that depend on themselves.
    self_loops: Vec<usize>,
    /// `(step, dependency id)` for every dependency that names no step.
    missing: Vec<(usize, String)>,
}

impl Marks {
    fn of(plan: &Plan) -> Marks {
        let (graph, problems) = Graph::build(&plan.steps);
        let mut cycle = HashSet::new();
        if let Err(found) = graph.kahn() {
            // Each step depends on the one before it, the first on the last.
            for (k, &step) in found.iter().enumerate() {
                let before = found[(k + found.len() - 1) % found.len()];
                cycle.insert((before as usize, step as usize));
            }
        }
        let self_loops = problems.self_deps.iter().map(|&(i, _)| i).collect();
        let missing = problems
            .unknown
            .iter()
            .filter_map(|&(i, j)| {
                let dep = plan.steps.get(i)?.dependency_ids().get(j)?;
                Some((i, dep.to_string()))
            })
            .collect();
        Marks {
            graph,
            cycle,
            self_loops,
            missing,
        }
    }

    /// The edge `d -> i` lies on the reported cycle.
    fn in_cycle(&self, d: usize, i: usize) -> bool {
        self.cycle.contains(&(d, i))
    }

    fn has_cycle(&self) -> bool {
        !self.self_loops.is_empty() || !self.cycle.is_empty()
    }
}

/// The first line of a step's label: its number (its index in `/steps`, as
/// error pointers name it) and the first 8 characters of its id.
///
/// ```
/// let mut b = mplp_plan::Plan::builder(mplp_core::ContextId::new(), "Fix", "Fix the bug");
/// b.step("Read the logs");
/// let plan = b.build()?;
/// let line = mplp_plan::render::header_line(0, &plan.steps()[0]);
/// assert_eq!(line, format!("/steps/0 · {}", &plan.steps()[0].step_id.to_string()[..8]));
/// # Ok::<(), mplp_core::Error>(())
/// ```
pub fn header_line(index: usize, step: &crate::PlanStep) -> String {
    let id = step.step_id.to_string();
    let short: String = id.chars().take(8).collect();
    format!("/steps/{index} · {short}")
}

/// The text lines of a step's label: its number and short id
/// ([`header_line`]), the wrapped description, the status, and the agent
/// role when there is one.
fn label_lines(index: usize, step: &crate::PlanStep) -> Vec<String> {
    let mut lines = vec![header_line(index, step)];
    lines.extend(wrap(&step.description, WRAP));
    lines.push(format!("[{}]", step.status));
    if let Some(role) = &step.agent_role {
        lines.push(format!("role: {role}"));
    }
    lines
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
            c if is_line_break(c) => out.push(' '),
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
            c if is_line_break(c) => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The plan as a Mermaid flowchart (top to bottom), with a title, a
/// legend, and any cycle or missing dependency marked (see the module docs).
///
/// ```
/// let mut b = mplp_plan::Plan::builder(mplp_core::ContextId::new(), "Fix", "Fix the bug");
/// let a = b.step("Read \"error\" logs");
/// b.step_after("Write the fix", &[a]);
/// let chart = mplp_plan::render::mermaid(&b.build()?);
/// assert!(chart.starts_with("---\ntitle: \"Fix\"\n---\nflowchart TD\n"));
/// assert!(chart.contains(r#"s0["/steps/0 · "#));
/// assert!(chart.contains(r#"<br/>Read #quot;error#quot; logs<br/>[pending]"]:::pending"#));
/// assert!(chart.contains("s0 --> s1"));
/// assert!(chart.contains("subgraph legend"));
/// # Ok::<(), mplp_core::Error>(())
/// ```
pub fn mermaid(plan: &Plan) -> String {
    let marks = Marks::of(plan);
    let mut out = String::new();
    let title: String = one_line(&plan.title)
        .replace('\\', "\\\\")
        .replace('"', "\\\"");
    let _ = writeln!(out, "---\ntitle: \"{title}\"\n---\nflowchart TD");
    for (i, step) in plan.steps.iter().enumerate() {
        let (open, close) = mermaid_shape(step.status);
        let label: Vec<String> = label_lines(i, step)
            .iter()
            .map(|l| mermaid_escape(l))
            .collect();
        let _ = writeln!(
            out,
            "  s{i}{open}\"{}\"{close}:::{}",
            label.join("<br/>"),
            step.status
        );
    }
    let mut link = 0usize;
    let mut red = Vec::new();
    for i in 0..plan.steps.len() {
        for &d in marks.graph.deps(i) {
            if marks.in_cycle(d as usize, i) {
                let _ = writeln!(out, "  s{d} -- cycle --> s{i}");
                red.push(link);
            } else {
                let _ = writeln!(out, "  s{d} --> s{i}");
            }
            link += 1;
        }
    }
    for &i in &marks.self_loops {
        let _ = writeln!(out, "  s{i} -- cycle --> s{i}");
        red.push(link);
        link += 1;
    }
    for (m, (i, id)) in marks.missing.iter().enumerate() {
        let _ = writeln!(
            out,
            "  m{m}[\"missing step<br/>{}\"]:::missing\n  m{m} -.-> s{i}",
            mermaid_escape(id)
        );
    }
    // The legend: one node per status, in its shape and colour.
    out.push_str("  subgraph legend[\"Legend\"]\n    direction LR\n");
    for &status in StepStatus::ALL {
        let (open, close) = mermaid_shape(status);
        let _ = writeln!(
            out,
            "    legend_{status}{open}\"{status}<br/>{}\"{close}:::{status}",
            shape_name(status)
        );
    }
    if marks.has_cycle() {
        out.push_str("    legend_cycle[\"red edge: the cycle reported\"]:::cycle\n");
    }
    if !marks.missing.is_empty() {
        out.push_str("    legend_missing[\"dashed: missing step\"]:::missing\n");
    }
    out.push_str("  end\n");
    for &status in StepStatus::ALL {
        let (fill, stroke) = colours(status);
        let extra = match status {
            StepStatus::Skipped => ",stroke-dasharray:4 3",
            StepStatus::InProgress => ",stroke-width:3px",
            _ => "",
        };
        let _ = writeln!(
            out,
            "  classDef {status} fill:{fill},stroke:{stroke}{extra};"
        );
    }
    if !marks.missing.is_empty() {
        out.push_str("  classDef missing fill:#ffffff,stroke:#c62828,stroke-dasharray:4 3;\n");
    }
    if marks.has_cycle() {
        out.push_str("  classDef cycle fill:#ffffff,stroke:#c62828,stroke-width:3px;\n");
    }
    if !red.is_empty() {
        let list: Vec<String> = red.iter().map(usize::to_string).collect();
        let _ = writeln!(
            out,
            "  linkStyle {} stroke:#c62828,stroke-width:3px;",
            list.join(",")
        );
    }
    out
}

/// The plan as a Graphviz `digraph`, with a title, a legend, and any cycle
/// or missing dependency marked (see the module docs).
///
/// ```
/// let mut b = mplp_plan::Plan::builder(mplp_core::ContextId::new(), "Fix", "Fix the bug");
/// let a = b.step("Read logs\\errors");
/// b.step_after("Write the fix", &[a]);
/// let graph = mplp_plan::render::dot(&b.build()?);
/// assert!(graph.starts_with("digraph plan {\n"));
/// assert!(graph.contains(r#"s0 [label="/steps/0 · "#));
/// assert!(graph.contains(r#"\nRead logs\\errors\n[pending]", shape=box"#));
/// assert!(graph.contains("s0 -> s1;"));
/// assert!(graph.contains("subgraph cluster_legend"));
/// # Ok::<(), mplp_core::Error>(())
/// ```
pub fn dot(plan: &Plan) -> String {
    let marks = Marks::of(plan);
    let mut out = String::from("digraph plan {\n");
    let _ = writeln!(
        out,
        "  label=\"{}\";\n  labelloc=t;\n  fontsize=18;\n  rankdir=TB;\n  node [fontname=\"Helvetica\"];",
        dot_escape(&plan.title)
    );
    for (i, step) in plan.steps.iter().enumerate() {
        let (fill, stroke) = colours(step.status);
        let label: Vec<String> = label_lines(i, step).iter().map(|l| dot_escape(l)).collect();
        let _ = writeln!(
            out,
            "  s{i} [label=\"{}\", {}, fillcolor=\"{fill}\", color=\"{stroke}\", tooltip=\"{}\"];",
            label.join("\\n"),
            dot_shape(step.status),
            step.status
        );
    }
    for i in 0..plan.steps.len() {
        for &d in marks.graph.deps(i) {
            if marks.in_cycle(d as usize, i) {
                let _ = writeln!(
                    out,
                    "  s{d} -> s{i} [color=\"#c62828\", penwidth=3, label=\"cycle\", fontcolor=\"#c62828\"];"
                );
            } else {
                let _ = writeln!(out, "  s{d} -> s{i};");
            }
        }
    }
    for &i in &marks.self_loops {
        let _ = writeln!(
            out,
            "  s{i} -> s{i} [color=\"#c62828\", penwidth=3, label=\"cycle\", fontcolor=\"#c62828\"];"
        );
    }
    for (m, (i, id)) in marks.missing.iter().enumerate() {
        let _ = writeln!(
            out,
            "  m{m} [label=\"missing step\\n{}\", shape=box, style=dashed, color=\"#c62828\"];\n  m{m} -> s{i} [style=dashed, color=\"#c62828\"];",
            dot_escape(id)
        );
    }
    out.push_str(
        "  subgraph cluster_legend {\n    label=\"Legend\";\n    fontsize=12;\n    style=dashed;\n",
    );
    for &status in StepStatus::ALL {
        let (fill, stroke) = colours(status);
        let _ = writeln!(
            out,
            "    legend_{status} [label=\"{status}\\n{}\", {}, fillcolor=\"{fill}\", color=\"{stroke}\"];",
            shape_name(status),
            dot_shape(status)
        );
    }
    if marks.has_cycle() {
        out.push_str("    legend_cycle [label=\"red edge: the cycle reported\", shape=plaintext, fontcolor=\"#c62828\"];\n");
    }
    if !marks.missing.is_empty() {
        out.push_str("    legend_missing [label=\"dashed: missing step\", shape=box, style=dashed, color=\"#c62828\"];\n");
    }
    out.push_str("  }\n}\n");
    out
}

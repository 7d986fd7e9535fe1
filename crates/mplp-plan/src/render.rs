//! Diagrams of a plan: [`mermaid`] (a Mermaid flowchart), [`dot`]
//! (Graphviz) and, with the feature `svg`, `svg` (a picture laid out in
//! pure Rust). An edge goes from each dependency to the step that waits for
//! it. Each step shows its description (wrapped at [`WRAP`] characters),
//! its status **as text**, and its `agent_role`; the status is also told by
//! the node's **shape** and colour, so the picture reads in greyscale and
//! for colour-blind readers, and a legend explains the shapes. The plan's
//! title is the diagram's title.
//!
//! An invalid plan is drawn too, with what is wrong marked: the edges of a
//! dependency cycle (a step depending on itself included) are red, bold and
//! labelled `cycle`, and a dependency that names no step is a dashed edge
//! from a "missing step" node. A [`Plan`] obtained through the public API
//! is always valid; an invalid one comes from
//! [`Wire::deserialize_unchecked`](mplp_core::Wire::deserialize_unchecked),
//! which is what `mplp plan render` uses to draw a plan it also reports.

use std::fmt::Write;

use mplp_core::text::{is_line_break, one_line};

use crate::graph::Graph;
use crate::{Plan, StepStatus};

#[cfg(feature = "svg")]
mod svg;
#[cfg(feature = "svg")]
pub use svg::svg;

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

/// What is wrong with the plan's graph, for drawing: edges in a cycle and
/// dependencies that name no step.
struct Marks {
    graph: Graph,
    /// `cyclic[i]`: step `i`'s strongly connected component has a cycle
    /// (an edge `d -> i` is in a cycle when `comp[d] == comp[i]`).
    comp: Vec<usize>,
    /// Steps that depend on themselves.
    self_loops: Vec<usize>,
    /// `(step, dependency id)` for every dependency that names no step.
    missing: Vec<(usize, String)>,
}

impl Marks {
    fn of(plan: &Plan) -> Marks {
        let (graph, problems) = Graph::build(&plan.steps);
        let comp = components(&graph);
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
            comp,
            self_loops,
            missing,
        }
    }

    /// The edge `d -> i` lies on a cycle.
    fn in_cycle(&self, d: usize, i: usize) -> bool {
        self.comp
            .get(d)
            .is_some_and(|c| Some(c) == self.comp.get(i))
    }

    fn has_cycle(&self) -> bool {
        !self.self_loops.is_empty()
            || (0..self.graph.len()).any(|i| {
                self.graph
                    .deps(i)
                    .iter()
                    .any(|&d| self.in_cycle(d as usize, i))
            })
    }
}

/// Strongly connected components (Tarjan's algorithm, iterative): the
/// component number of each step.
fn components(graph: &Graph) -> Vec<usize> {
    let n = graph.len();
    let unvisited = usize::MAX;
    let mut index = vec![unvisited; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut comp = vec![unvisited; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut comps = 0;
    for root in 0..n {
        if index[root] != unvisited {
            continue;
        }
        // (node, position in its dependency list)
        let mut work = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut pos)) = work.last_mut() {
            let deps = graph.deps(v);
            if let Some(&w) = deps.get(*pos) {
                *pos += 1;
                let w = w as usize;
                if index[w] == unvisited {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp[w] = comps;
                    if w == v {
                        break;
                    }
                }
                comps += 1;
            }
        }
    }
    comp
}

/// The text lines of a step's label: the wrapped description, the status,
/// and the agent role when there is one.
fn label_lines(step: &crate::PlanStep) -> Vec<String> {
    let mut lines = wrap(&step.description, WRAP);
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
/// assert!(chart.contains(r#"s0["Read #quot;error#quot; logs<br/>[pending]"]:::pending"#));
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
        let label: Vec<String> = label_lines(step)
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
        out.push_str("    legend_cycle[\"red edge: in a cycle\"]:::cycle\n");
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
/// assert!(graph.contains(r#"s0 [label="Read logs\\errors\n[pending]", shape=box"#));
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
        let label: Vec<String> = label_lines(step).iter().map(|l| dot_escape(l)).collect();
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
        out.push_str("    legend_cycle [label=\"red edge: in a cycle\", shape=plaintext, fontcolor=\"#c62828\"];\n");
    }
    if !marks.missing.is_empty() {
        out.push_str("    legend_missing [label=\"dashed: missing step\", shape=box, style=dashed, color=\"#c62828\"];\n");
    }
    out.push_str("  }\n}\n");
    out
}

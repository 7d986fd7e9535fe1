//! The plan as an SVG picture, laid out in pure Rust (feature `svg`).
//!
//! **Up to [`DETAILED_MAX`] steps**, a layered drawing: each step is a box
//! holding its number and short id (`/steps/7 · 3f2a1b9c`, as error pointers
//! name it), its wrapped description, status and role; the steps stand in
//! layers (a step below all of its dependencies, at most a few boxes side
//! by side, so a wide plan wraps instead of growing sideways), the order
//! within a layer reduces crossings (barycentres), and an edge that spans
//! several layers is routed through its own lane in each layer it crosses
//! (it never runs through a box). The picture is as large as what it draws
//! (the title, the legend above the graph, the graph): nothing is left
//! empty.
//!
//! **Above**, a summary by layer: each layer is a group of small boxes, one
//! per step, numbered and short-id'd as above, in its status's shape and
//! colour, the description in a tooltip; the groups flow in rows. Only the
//! reported cycle's edges and the missing steps' edges are drawn (a
//! thousand dependencies would be a grey cloud); `mplp plan render --format
//! dot` draws them all.
//!
//! Each status keeps its shape (box, bold box, double box, hexagon, dashed
//! box, octagon) and colour as in the DOT and Mermaid diagrams; every text
//! is XML-escaped ([`mplp_core::text::xml_escape`]). Elements carry classes
//! and ids a reader (or a test) can find: `g.step` (with `id="step-7"`,
//! `data-pointer="/steps/7"` and `data-status`), `path.edge`
//! (`path.edge.cycle` on the reported cycle, `path.edge.missing` from a
//! missing step), `g.missing`, `g.legend`, `g.layer` (summary).
//! Coordinates are absolute (no `transform`).

use std::fmt::Write;

use mplp_core::text::{SVG_CHAR_WIDTH, one_line, svg_header, xml_escape};

use super::{Marks, colours, header_line, label_lines, shape_name};
use crate::{Plan, StepStatus};

/// Height of one line of label text.
const LINE_H: f64 = 16.0;
/// Space around the picture.
const MARGIN: f64 = 20.0;
const RED: &str = "#c62828";
const GREY: &str = "#424242";
/// Horizontal space between two boxes of a layer.
const GAP_X: f64 = 24.0;
/// Vertical space between two layers (where the edges bend).
const GAP_Y: f64 = 48.0;
/// The width an edge takes in a layer it passes through.
const LANE: f64 = 12.0;
/// Up to this many steps, the detailed drawing; above, the summary by layer.
pub const DETAILED_MAX: usize = 150;
/// The most boxes side by side in one layer of the detailed drawing.
const LAYER_CAP: usize = 6;
/// Boxes per row in a layer's group of the summary.
const GROUP_COLS: usize = 8;
/// The width the summary's groups flow in.
const SUMMARY_W: f64 = 1500.0;

/// The plan as a standalone SVG picture: its title, a legend, and the
/// steps and their dependencies (see the module docs), any cycle or
/// missing dependency marked as in [`dot`](super::dot). Opens in a browser
/// and in image viewers; needs no system tool.
///
/// ```
/// let mut b = mplp_plan::Plan::builder(mplp_core::ContextId::new(), "Fix <it>", "Fix the bug");
/// let a = b.step("Read the logs");
/// b.step_after("Write the fix", &[a]);
/// let svg = mplp_plan::render::svg(&b.build()?);
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
/// assert!(svg.contains("Fix &lt;it&gt;"));
/// assert_eq!(svg.matches("<g class=\"step\"").count(), 2);
/// assert!(svg.contains(r#"id="step-1" data-pointer="/steps/1""#));
/// assert_eq!(svg.matches("<path class=\"edge").count(), 1);
/// # Ok::<(), mplp_core::Error>(())
/// ```
pub fn svg(plan: &Plan) -> String {
    let marks = Marks::of(plan);
    let title = one_line(&plan.title);
    let steps = plan.steps.len();
    let mut body = String::new();
    // The legend, under the title.
    let legend_top = 48.0;
    let (legend, legend_w, legend_h) = legend(&marks, legend_top, steps > DETAILED_MAX);
    let graph_top = legend_top + legend_h + 20.0;
    let (graph_w, graph_h) = if steps > DETAILED_MAX {
        summary(plan, &marks, graph_top, &mut body)
    } else {
        detailed(plan, &marks, graph_top, &mut body)
    };
    let title_w = title.chars().count() as f64 * 10.0;
    let width = MARGIN * 2.0 + graph_w.max(legend_w).max(title_w);
    let height = graph_top + graph_h + MARGIN;
    let mut out = svg_header(
        width,
        height,
        &title,
        &format!(
            "Plan {}: {} step{}",
            plan.plan_id,
            steps,
            mplp_core::text::plural_s(steps)
        ),
    );
    // Marker sizes are in stroke widths: the cycle's bold edges get a
    // smaller one, so that all heads look alike.
    for (id, colour, size) in [
        ("arrow", GREY, 7.0),
        ("arrow-red", RED, 7.0),
        ("arrow-cycle", RED, 3.5),
    ] {
        let _ = writeln!(
            out,
            r#"<defs><marker id="{id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="{size}" markerHeight="{size}" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{colour}"/></marker></defs>"#
        );
    }
    let _ = writeln!(
        out,
        r##"<rect class="background" width="100%" height="100%" fill="#ffffff"/><text class="title" x="{MARGIN}" y="30" font-size="18" font-weight="bold">{}</text>"##,
        xml_escape(&title)
    );
    out.push_str(&legend);
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

/// The legend as one wrapped row of samples: its SVG, width and height.
fn legend(marks: &Marks, top: f64, summary: bool) -> (String, f64, f64) {
    let mut items: Vec<(Option<StepStatus>, String)> = StepStatus::ALL
        .iter()
        .map(|&s| (Some(s), format!("{s}: {}", shape_name(s))))
        .collect();
    if marks.has_cycle() {
        items.push((None, "red edge: the cycle reported".to_owned()));
    }
    if !marks.missing.is_empty() {
        items.push((None, "dashed: missing step".to_owned()));
    }
    items.push((
        None,
        if summary {
            "box: /steps/N · short id (hover: the step)".to_owned()
        } else {
            "first line: /steps/N · short id".to_owned()
        },
    ));
    let row_h = 32.0;
    let max_w = 980.0;
    let mut out = String::from(r#"<g class="legend">"#);
    let (mut x, mut y, mut widest) = (MARGIN, top, 0.0f64);
    for (status, text) in &items {
        let item_w = 52.0 + text.chars().count() as f64 * SVG_CHAR_WIDTH + 18.0;
        if x > MARGIN && x + item_w > MARGIN + max_w {
            x = MARGIN;
            y += row_h;
        }
        let sample = match (status, text.starts_with("red"), text.starts_with("dashed")) {
            (Some(s), _, _) => shape(Some(*s), x, y + 3.0, 44.0, 24.0),
            (None, true, _) => format!(
                r#"<path class="legend-edge" d="M {x:.1} {:.1} L {:.1} {:.1}" stroke="{RED}" stroke-width="3" marker-end="url(#arrow-cycle)"/>"#,
                y + 15.0,
                x + 44.0,
                y + 15.0
            ),
            (None, _, true) => shape(None, x, y + 3.0, 44.0, 24.0),
            (None, _, _) => format!(
                r##"<rect x="{x:.1}" y="{:.1}" width="44" height="24" rx="6" fill="#ffffff" stroke="#616161"/><text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="10">/steps/N</text>"##,
                y + 3.0,
                x + 22.0,
                y + 19.0
            ),
        };
        let _ = write!(
            out,
            r#"{sample}<text x="{:.1}" y="{:.1}">{}</text>"#,
            x + 52.0,
            y + 20.0,
            xml_escape(text)
        );
        x += item_w;
        widest = widest.max(x - MARGIN);
    }
    out.push_str("</g>\n");
    (out, widest, y + row_h - top)
}

/// What a box of the detailed drawing stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The step at this index.
    Step(usize),
    /// The missing step at this index of [`Marks::missing`].
    Missing(usize),
    /// A point an edge passes through in a layer it crosses.
    Lane,
}

/// A box of the detailed drawing.
struct Node {
    kind: Kind,
    lines: Vec<String>,
    w: f64,
    h: f64,
    layer: usize,
    /// Centre.
    x: f64,
}

/// How an edge is drawn.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Plain,
    Cycle,
    Missing,
}

impl Class {
    fn name(self) -> &'static str {
        match self {
            Class::Plain => "edge",
            Class::Cycle => "edge cycle",
            Class::Missing => "edge missing",
        }
    }
}

/// An edge from a dependency to the step that waits for it.
struct Edge {
    /// `data-from` and `data-to`: the steps' indices (`m0`, ... for a
    /// missing step).
    ends: (String, String),
    from: usize,
    to: usize,
    class: Class,
    /// The nodes it passes through, from the upper end to the lower
    /// (`from` first, unless the edge points up).
    chain: Vec<usize>,
}

/// The size of a box holding `lines`.
fn box_size(lines: &[String]) -> (f64, f64) {
    let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    (
        (longest.max(6) as f64) * SVG_CHAR_WIDTH + 24.0,
        (lines.len().max(1) as f64) * LINE_H + 14.0,
    )
}

/// A topological order of the steps in which a cycle is broken at its
/// smallest remaining index: the edges that go back in it are the ones
/// drawn pointing up.
fn order(marks: &Marks) -> Vec<usize> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let n = marks.graph.len();
    let mut indeg: Vec<usize> = (0..n).map(|i| marks.graph.deps(i).len()).collect();
    let mut done = vec![false; n];
    let mut ready: BinaryHeap<Reverse<usize>> =
        (0..n).filter(|&i| indeg[i] == 0).map(Reverse).collect();
    let mut out = Vec::with_capacity(n);
    let mut next_forced = 0;
    while out.len() < n {
        let v = match ready.pop() {
            Some(Reverse(v)) if !done[v] => v,
            Some(_) => continue,
            None => {
                while next_forced < n && done[next_forced] {
                    next_forced += 1;
                }
                next_forced
            }
        };
        if v >= n {
            break;
        }
        done[v] = true;
        out.push(v);
        for &d in marks.graph.dependents(v) {
            let d = d as usize;
            indeg[d] = indeg[d].saturating_sub(1);
            if indeg[d] == 0 && !done[d] {
                ready.push(Reverse(d));
            }
        }
    }
    out
}

/// The layer of each step: below each dependency that comes earlier in
/// `order`, and at most `cap` steps in a layer (a step that finds its
/// layer full goes lower).
fn layers(marks: &Marks, order: &[usize], cap: usize, base: usize) -> Vec<usize> {
    let n = marks.graph.len();
    let mut pos = vec![0; n];
    for (p, &v) in order.iter().enumerate() {
        pos[v] = p;
    }
    let mut layer = vec![base; n];
    let mut count: Vec<usize> = Vec::new();
    for &v in order {
        let mut l = marks
            .graph
            .deps(v)
            .iter()
            .map(|&d| d as usize)
            .filter(|&d| pos[d] < pos[v])
            .map(|d| layer[d] + 1)
            .max()
            .unwrap_or(base);
        while count.get(l).is_some_and(|&c| c >= cap) {
            l += 1;
        }
        if count.len() <= l {
            count.resize(l + 1, 0);
        }
        count[l] += 1;
        layer[v] = l;
    }
    layer
}

/// The detailed drawing, its top at `top`: appended to `out`; its width and
/// height.
fn detailed(plan: &Plan, marks: &Marks, top: f64, out: &mut String) -> (f64, f64) {
    let n = plan.steps.len();
    if n == 0 && marks.missing.is_empty() {
        return (0.0, 0.0);
    }
    let order = order(marks);
    let base = usize::from(!marks.missing.is_empty());
    let step_layer = layers(marks, &order, LAYER_CAP, base);
    let mut nodes: Vec<Node> = Vec::new();
    for (i, step) in plan.steps.iter().enumerate() {
        let lines: Vec<String> = label_lines(i, step).iter().map(|l| one_line(l)).collect();
        let (w, h) = box_size(&lines);
        nodes.push(Node {
            kind: Kind::Step(i),
            lines,
            w,
            h,
            layer: step_layer[i],
            x: 0.0,
        });
    }
    let mut edges: Vec<Edge> = Vec::new();
    for i in 0..n {
        for &d in marks.graph.deps(i) {
            let d = d as usize;
            let class = if marks.in_cycle(d, i) {
                Class::Cycle
            } else {
                Class::Plain
            };
            edges.push(Edge {
                ends: (d.to_string(), i.to_string()),
                from: d,
                to: i,
                class,
                chain: Vec::new(),
            });
        }
    }
    for (m, (i, id)) in marks.missing.iter().enumerate() {
        let lines = vec!["missing step".to_owned(), one_line(id)];
        let (w, h) = box_size(&lines);
        let layer = step_layer.get(*i).map_or(0, |l| l.saturating_sub(1));
        nodes.push(Node {
            kind: Kind::Missing(m),
            lines,
            w,
            h,
            layer,
            x: 0.0,
        });
        edges.push(Edge {
            ends: (format!("m{m}"), i.to_string()),
            from: nodes.len() - 1,
            to: *i,
            class: Class::Missing,
            chain: Vec::new(),
        });
    }
    // Each edge's chain, with a lane in every layer it crosses.
    for e in &mut edges {
        let (lf, lt) = (nodes[e.from].layer, nodes[e.to].layer);
        let (upper, lower, lu, ll) = if lf <= lt {
            (e.from, e.to, lf, lt)
        } else {
            (e.to, e.from, lt, lf)
        };
        let mut chain = vec![upper];
        for layer in lu + 1..ll {
            nodes.push(Node {
                kind: Kind::Lane,
                lines: Vec::new(),
                w: LANE,
                h: 0.0,
                layer,
                x: 0.0,
            });
            chain.push(nodes.len() - 1);
        }
        chain.push(lower);
        e.chain = chain;
    }
    let depth = nodes.iter().map(|n| n.layer + 1).max().unwrap_or(0);
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); depth];
    for (k, node) in nodes.iter().enumerate() {
        rows[node.layer].push(k);
    }
    // Neighbours in the layer above and below (through the chains).
    let mut above: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    let mut below: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for e in &edges {
        for pair in e.chain.windows(2) {
            if let [a, b] = *pair {
                if nodes[a].layer < nodes[b].layer {
                    below[a].push(b);
                    above[b].push(a);
                }
            }
        }
    }
    order_rows(&mut rows, &above, &below);
    place(&mut nodes, &rows, &above, &below);
    // The top of each layer and its height.
    let mut layer_top = Vec::with_capacity(depth);
    let mut layer_h = Vec::with_capacity(depth);
    let mut y = top;
    for row in &rows {
        let h = row.iter().map(|&k| nodes[k].h).fold(0.0, f64::max);
        layer_top.push(y);
        layer_h.push(h);
        y += h + GAP_Y;
    }
    let height = (y - GAP_Y - top).max(0.0);
    // Shift so that the leftmost box starts at the margin.
    let left = nodes
        .iter()
        .map(|n| n.x - n.w / 2.0)
        .fold(f64::INFINITY, f64::min);
    let right = nodes
        .iter()
        .map(|n| n.x + n.w / 2.0)
        .fold(f64::NEG_INFINITY, f64::max);
    let shift = MARGIN - left;
    for node in &mut nodes {
        node.x += shift;
    }
    let mut width = right - left;
    // Edges first (under the boxes), the cycle's last (on top).
    let mut edge_svg: Vec<(Class, String)> = Vec::new();
    for e in &edges {
        let mut points: Vec<(f64, f64)> = Vec::new();
        let last = e.chain.len() - 1;
        for (p, &k) in e.chain.iter().enumerate() {
            let node = &nodes[k];
            let t = layer_top[node.layer];
            match (p, node.kind) {
                (0, _) => points.push((node.x, t + node.h)),
                (p, _) if p == last => points.push((node.x, t)),
                _ => {
                    points.push((node.x, t));
                    points.push((node.x, t + layer_h[node.layer]));
                }
            }
        }
        let same_layer = nodes[e.from].layer == nodes[e.to].layer;
        let d = if same_layer {
            // A back edge between two boxes of one layer: an arc above.
            let (a, b) = (&nodes[e.from], &nodes[e.to]);
            let t = layer_top[a.layer];
            format!(
                "M {:.1} {t:.1} C {:.1} {:.1}, {:.1} {:.1}, {:.1} {t:.1}",
                a.x,
                a.x,
                t - GAP_Y * 0.8,
                b.x,
                t - GAP_Y * 0.8,
                b.x
            )
        } else {
            // Drawn from the dependency: reversed when it points up.
            if nodes[e.from].layer > nodes[e.to].layer {
                points.reverse();
                // Leave the lower box from its top, enter the upper from
                // its bottom.
                if let Some(first) = points.first_mut() {
                    first.1 = layer_top[nodes[e.from].layer];
                }
                if let Some(end) = points.last_mut() {
                    end.1 = layer_top[nodes[e.to].layer] + nodes[e.to].h;
                }
            }
            path_d(&points)
        };
        let (stroke, sw, marker, dash) = match e.class {
            Class::Cycle => (RED, 3.0, "arrow-cycle", ""),
            Class::Missing => (RED, 1.5, "arrow-red", r#" stroke-dasharray="6 4""#),
            Class::Plain => (GREY, 1.5, "arrow", ""),
        };
        edge_svg.push((
            e.class,
            format!(
                r#"<path class="{}" data-from="{}" data-to="{}" d="{d}" fill="none" stroke="{stroke}" stroke-width="{sw}"{dash} marker-end="url(#{marker})"/>"#,
                e.class.name(),
                e.ends.0,
                e.ends.1
            ),
        ));
    }
    edge_svg.sort_by_key(|(c, _)| *c == Class::Cycle);
    for (_, e) in &edge_svg {
        out.push_str(e);
        out.push('\n');
    }
    for node in &nodes {
        let (x, y) = (node.x - node.w / 2.0, layer_top[node.layer]);
        match node.kind {
            Kind::Lane => {}
            Kind::Step(i) => {
                let step = &plan.steps[i];
                let _ = writeln!(
                    out,
                    r#"<g class="step" id="step-{i}" data-pointer="/steps/{i}" data-status="{}"><title>{}</title>{}{}</g>"#,
                    step.status,
                    xml_escape(&one_line(&step.description)),
                    shape(Some(step.status), x, y, node.w, node.h),
                    text_block(&node.lines, x, y, node.w, node.h)
                );
            }
            Kind::Missing(_) => {
                let _ = writeln!(
                    out,
                    r#"<g class="missing">{}{}</g>"#,
                    shape(None, x, y, node.w, node.h),
                    text_block(&node.lines, x, y, node.w, node.h)
                );
            }
        }
    }
    // A step that depends on itself: a loop on its right side.
    for &i in &marks.self_loops {
        let Some(node) = nodes.iter().find(|n| n.kind == Kind::Step(i)) else {
            continue;
        };
        let (r, t) = (node.x + node.w / 2.0, layer_top[node.layer]);
        let _ = writeln!(
            out,
            r#"<path class="edge cycle" data-from="{i}" data-to="{i}" d="M {r:.1} {:.1} C {:.1} {:.1}, {:.1} {:.1}, {r:.1} {:.1}" fill="none" stroke="{RED}" stroke-width="3" marker-end="url(#arrow-cycle)"/>"#,
            t + node.h * 0.3,
            r + 34.0,
            t - 4.0,
            r + 34.0,
            t + node.h + 4.0,
            t + node.h * 0.7
        );
        width = width.max(r + 36.0 - MARGIN);
    }
    (width, height)
}

/// Orders each layer to reduce crossings: sweeps down and up, each node at
/// the mean position of its neighbours in the layer before (ties keep the
/// current order).
fn order_rows(rows: &mut [Vec<usize>], above: &[Vec<usize>], below: &[Vec<usize>]) {
    let total = above.len();
    let mut pos = vec![0.0f64; total];
    let set_pos = |rows: &[Vec<usize>], pos: &mut [f64]| {
        for row in rows {
            let len = row.len().max(1) as f64;
            for (p, &k) in row.iter().enumerate() {
                pos[k] = (p as f64 + 0.5) / len;
            }
        }
    };
    set_pos(rows, &mut pos);
    for sweep in 0..8 {
        let down = sweep % 2 == 0;
        let layers: Vec<usize> = if down {
            (1..rows.len()).collect()
        } else {
            (0..rows.len().saturating_sub(1)).rev().collect()
        };
        for l in layers {
            let neighbours = if down { above } else { below };
            let mut keyed: Vec<(f64, usize)> = rows[l]
                .iter()
                .map(|&k| {
                    let ns = &neighbours[k];
                    let key = if ns.is_empty() {
                        pos[k]
                    } else {
                        ns.iter().map(|&m| pos[m]).sum::<f64>() / ns.len() as f64
                    };
                    (key, k)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
            rows[l] = keyed.into_iter().map(|(_, k)| k).collect();
            let len = rows[l].len().max(1) as f64;
            for (p, &k) in rows[l].iter().enumerate() {
                pos[k] = (p as f64 + 0.5) / len;
            }
        }
    }
}

/// Gives each node its centre: packed left to right, then pulled towards
/// its neighbours' centres, a layer at a time, without overlapping (the
/// mean of the placement pushed from the left and the one pushed from the
/// right, each keeping the gaps).
fn place(nodes: &mut [Node], rows: &[Vec<usize>], above: &[Vec<usize>], below: &[Vec<usize>]) {
    let gap = |a: &Node, b: &Node| {
        let g = if a.kind == Kind::Lane || b.kind == Kind::Lane {
            6.0
        } else {
            GAP_X
        };
        a.w / 2.0 + g + b.w / 2.0
    };
    for row in rows {
        let mut x = 0.0;
        for (p, &k) in row.iter().enumerate() {
            if p > 0 {
                x += gap(&nodes[row[p - 1]], &nodes[k]);
            }
            nodes[k].x = x;
        }
    }
    for round in 0..12 {
        let down = round % 2 == 0;
        let order: Vec<usize> = if down {
            (1..rows.len()).collect()
        } else {
            (0..rows.len().saturating_sub(1)).rev().collect()
        };
        for l in order {
            let row = &rows[l];
            let neighbours = if down { above } else { below };
            let want: Vec<f64> = row
                .iter()
                .map(|&k| {
                    let ns = &neighbours[k];
                    if ns.is_empty() {
                        nodes[k].x
                    } else {
                        ns.iter().map(|&m| nodes[m].x).sum::<f64>() / ns.len() as f64
                    }
                })
                .collect();
            let m = row.len();
            let mut from_left = want.clone();
            for p in 1..m {
                let min = from_left[p - 1] + gap(&nodes[row[p - 1]], &nodes[row[p]]);
                from_left[p] = from_left[p].max(min);
            }
            let mut from_right = want.clone();
            for p in (0..m.saturating_sub(1)).rev() {
                let max = from_right[p + 1] - gap(&nodes[row[p]], &nodes[row[p + 1]]);
                from_right[p] = from_right[p].min(max);
            }
            for (p, &k) in row.iter().enumerate() {
                nodes[k].x = (from_left[p] + from_right[p]) / 2.0;
            }
        }
    }
}

/// An SVG path's `d` through `points`: a vertical S-curve across each gap
/// between layers, a straight line down a lane.
fn path_d(points: &[(f64, f64)]) -> String {
    let mut d = String::new();
    let Some(&(x0, y0)) = points.first() else {
        return d;
    };
    let _ = write!(d, "M {x0:.1} {y0:.1}");
    let mut prev = (x0, y0);
    for &(x, y) in &points[1..] {
        if (x - prev.0).abs() < 0.05 {
            let _ = write!(d, " L {x:.1} {y:.1}");
        } else {
            let ym = (prev.1 + y) / 2.0;
            let _ = write!(d, " C {:.1} {ym:.1}, {x:.1} {ym:.1}, {x:.1} {y:.1}", prev.0);
        }
        prev = (x, y);
    }
    d
}

/// The summary by layer, its top at `top`: appended to `out`; its width
/// and height.
fn summary(plan: &Plan, marks: &Marks, top: f64, out: &mut String) -> (f64, f64) {
    let order = order(marks);
    let layer = layers(marks, &order, usize::MAX, 0);
    let depth = layer.iter().map(|l| l + 1).max().unwrap_or(0);
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); depth];
    for (i, &l) in layer.iter().enumerate() {
        groups[l].push(i);
    }
    let chip_w = plan
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| header_line(i, s).chars().count())
        .max()
        .unwrap_or(6) as f64
        * SVG_CHAR_WIDTH
        + 16.0;
    let chip_h = 26.0;
    let (gx, gy, pad, head) = (6.0, 6.0, 8.0, 20.0);
    let mut centre: Vec<(f64, f64)> = vec![(0.0, 0.0); plan.steps.len()];
    let (mut x, mut y, mut row_h, mut widest) = (MARGIN, top, 0.0f64, 0.0f64);
    let mut body = String::new();
    for (l, group) in groups.iter().enumerate() {
        let cols = group.len().clamp(1, GROUP_COLS);
        let lines = group.len().div_ceil(cols).max(1);
        let label = format!(
            "layer {l} · {}",
            mplp_core::text::count(group.len(), "step")
        );
        let w = (cols as f64 * (chip_w + gx) - gx + 2.0 * pad)
            .max(label.chars().count() as f64 * SVG_CHAR_WIDTH + 2.0 * pad);
        let h = head + lines as f64 * (chip_h + gy) - gy + pad;
        if x > MARGIN && x + w > MARGIN + SUMMARY_W {
            x = MARGIN;
            y += row_h + 14.0;
            row_h = 0.0;
        }
        let _ = write!(
            body,
            r##"<g class="layer" data-layer="{l}"><rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" rx="6" fill="#f5f5f5" stroke="#bdbdbd"/><text x="{:.1}" y="{:.1}" font-size="11" fill="#616161">{label}</text>"##,
            x + pad,
            y + 14.0
        );
        for (p, &i) in group.iter().enumerate() {
            let (cx, cy) = (
                x + pad + (p % cols) as f64 * (chip_w + gx),
                y + head + (p / cols) as f64 * (chip_h + gy),
            );
            let step = &plan.steps[i];
            let _ = write!(
                body,
                r#"<g class="step" id="step-{i}" data-pointer="/steps/{i}" data-status="{}"><title>{}</title>{}{}</g>"#,
                step.status,
                xml_escape(&one_line(&format!(
                    "{} [{}]{}",
                    step.description,
                    step.status,
                    step.agent_role
                        .as_ref()
                        .map(|r| format!(" role: {r}"))
                        .unwrap_or_default()
                ))),
                shape(Some(step.status), cx, cy, chip_w, chip_h),
                text_block(&[header_line(i, step)], cx, cy, chip_w, chip_h)
            );
            centre[i] = (cx + chip_w / 2.0, cy + chip_h / 2.0);
        }
        body.push_str("</g>\n");
        x += w + 14.0;
        row_h = row_h.max(h);
        widest = widest.max(x - 14.0 - MARGIN);
    }
    let height = if depth == 0 { 0.0 } else { y + row_h - top };
    out.push_str(&body);
    // The reported cycle, on top.
    for i in 0..plan.steps.len() {
        for &d in marks.graph.deps(i) {
            let d = d as usize;
            if marks.in_cycle(d, i) {
                let ((x1, y1), (x2, y2)) = (centre[d], centre[i]);
                let _ = writeln!(
                    out,
                    r#"<path class="edge cycle" data-from="{d}" data-to="{i}" d="M {x1:.1} {y1:.1} L {x2:.1} {y2:.1}" fill="none" stroke="{RED}" stroke-width="3" marker-end="url(#arrow-cycle)"/>"#
                );
            }
        }
    }
    for &i in &marks.self_loops {
        let (cx, cy) = centre[i];
        let r = cx + chip_w / 2.0;
        let _ = writeln!(
            out,
            r#"<path class="edge cycle" data-from="{i}" data-to="{i}" d="M {r:.1} {:.1} C {:.1} {:.1}, {:.1} {:.1}, {r:.1} {:.1}" fill="none" stroke="{RED}" stroke-width="3" marker-end="url(#arrow-cycle)"/>"#,
            cy - 4.0,
            r + 24.0,
            cy - 22.0,
            r + 24.0,
            cy + 18.0,
            cy + 4.0
        );
    }
    // Missing steps: a red chip under the plan, an edge to each step.
    let mut my = top + height + 14.0;
    let mut grown = height;
    for (m, (i, id)) in marks.missing.iter().enumerate() {
        let lines = vec![format!("missing step {}", one_line(id))];
        let (w, h) = box_size(&lines);
        let mx = MARGIN + (m % 4) as f64 * (w + 14.0);
        if m > 0 && m % 4 == 0 {
            my += h + 10.0;
        }
        let _ = writeln!(
            out,
            r#"<g class="missing">{}{}</g>"#,
            shape(None, mx, my, w, h),
            text_block(&lines, mx, my, w, h)
        );
        let (tx, ty) = centre[*i];
        let _ = writeln!(
            out,
            r#"<path class="edge missing" data-from="m{m}" data-to="{i}" d="M {:.1} {my:.1} L {tx:.1} {ty:.1}" fill="none" stroke="{RED}" stroke-width="1.5" stroke-dasharray="6 4" marker-end="url(#arrow-red)"/>"#,
            mx + w / 2.0
        );
        widest = widest.max(mx + w - MARGIN);
        grown = my + h - top;
    }
    (widest, grown)
}

/// The outline of a status's shape in the box at `(x, y)` of size `(w, h)`
/// (`None`: a missing step, dashed red).
fn shape(status: Option<StepStatus>, x: f64, y: f64, w: f64, h: f64) -> String {
    let (fill, stroke) = status.map_or(("#ffffff", RED), colours);
    let rect = |extra: &str| {
        format!(
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" rx="6" fill="{fill}" stroke="{stroke}" {extra}/>"#
        )
    };
    let polygon = |points: &[(f64, f64)], extra: &str| {
        let pts: Vec<String> = points
            .iter()
            .map(|(px, py)| format!("{:.1},{:.1}", x + px, y + py))
            .collect();
        format!(
            r#"<polygon points="{}" fill="{fill}" stroke="{stroke}" {extra}/>"#,
            pts.join(" ")
        )
    };
    let k = (h / 2.0).min(14.0);
    match status {
        None => rect(r#"stroke-width="1.5" stroke-dasharray="5 4""#),
        Some(StepStatus::Pending) => rect(r#"stroke-width="1.5""#),
        Some(StepStatus::InProgress) => rect(r#"stroke-width="3.5""#),
        Some(StepStatus::Completed) => format!(
            r#"{}<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="4" fill="none" stroke="{stroke}" stroke-width="1.5"/>"#,
            rect(r#"stroke-width="1.5""#),
            x + 3.0,
            y + 3.0,
            w - 6.0,
            h - 6.0
        ),
        Some(StepStatus::Blocked) => polygon(
            &[
                (k, 0.0),
                (w - k, 0.0),
                (w, h / 2.0),
                (w - k, h),
                (k, h),
                (0.0, h / 2.0),
            ],
            r#"stroke-width="1.5""#,
        ),
        Some(StepStatus::Skipped) => rect(r#"stroke-width="1.5" stroke-dasharray="6 4""#),
        Some(StepStatus::Failed) => polygon(
            &[
                (k, 0.0),
                (w - k, 0.0),
                (w, k),
                (w, h - k),
                (w - k, h),
                (k, h),
                (0.0, h - k),
                (0.0, k),
            ],
            r#"stroke-width="2.5""#,
        ),
    }
}

/// Centred lines of text in the box at `(x, y)` of size `(w, h)`; the
/// first line (the step's number and short id) in bold.
fn text_block(lines: &[String], x: f64, y: f64, w: f64, h: f64) -> String {
    let top = y + h / 2.0 - (lines.len() as f64) * LINE_H / 2.0 + LINE_H * 0.75;
    let mut out = format!(
        r#"<text x="{:.1}" y="{top:.1}" text-anchor="middle">"#,
        x + w / 2.0
    );
    for (n, line) in lines.iter().enumerate() {
        let dy = if n == 0 { 0.0 } else { LINE_H };
        let weight = if n == 0 { r#" font-weight="bold""# } else { "" };
        let _ = write!(
            out,
            r#"<tspan x="{:.1}" dy="{dy:.1}"{weight}>{}</tspan>"#,
            x + w / 2.0,
            xml_escape(line)
        );
    }
    out.push_str("</text>");
    out
}

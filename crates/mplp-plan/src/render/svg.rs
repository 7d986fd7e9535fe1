//! The plan as an SVG picture, laid out in pure Rust (feature `svg`).
//!
//! The layered layout (ranks, crossing reduction, edge routing) is
//! `layout-rs`'s; this module hands it one box per step and one arrow per
//! dependency, then writes the SVG itself from what `layout-rs` placed
//! (through its `RenderBackend` trait): each status keeps its shape (box,
//! bold box, double box, hexagon, dashed box, octagon) and colour as in the
//! DOT and Mermaid diagrams, every text is XML-escaped
//! ([`mplp_core::text::xml_escape`]), and the title and legend are added
//! around the graph. Elements carry classes a reader (or a test) can find:
//! `g.step` (with `data-status`), `path.edge` (`path.edge.cycle` on a cycle,
//! `path.edge.missing` from a missing step), `g.missing`, `g.legend`.

use std::fmt::Write;

use layout::core::base::Orientation;
use layout::core::color::Color;
use layout::core::format::{ClipHandle, RenderBackend};
use layout::core::geometry::Point;
use layout::core::style::{LineStyleKind, StyleAttr};
use layout::std_shapes::shapes::{Arrow, Element, LineEndKind, ShapeKind};
use layout::topo::layout::VisualGraph;
use mplp_core::text::{SVG_CHAR_WIDTH, one_line, svg_header, xml_escape};

use super::{Marks, colours, label_lines, shape_name};
use crate::{Plan, StepStatus};

/// Height of one line of label text.
const LINE_H: f64 = 16.0;
/// Space around the graph.
const MARGIN: f64 = 20.0;
const RED: &str = "#c62828";

/// One arrow `layout-rs` routed: its properties (our class), its path, and
/// which ends have a head (it reverses the back edges of a cycle and moves
/// their head to the start).
struct Routed {
    class: String,
    path: Vec<(Point, Point)>,
    heads: (bool, bool),
}

/// What `layout-rs` asked to draw, in its coordinates.
#[derive(Default)]
struct Drawn {
    /// `(properties, top-left, size)` of each box.
    boxes: Vec<(String, Point, Point)>,
    arrows: Vec<Routed>,
    min: Option<Point>,
    max: Option<Point>,
}

impl Drawn {
    fn grow(&mut self, p: Point) {
        let (min, max) = match (self.min, self.max) {
            (Some(a), Some(b)) => (
                Point::new(a.x.min(p.x), a.y.min(p.y)),
                Point::new(b.x.max(p.x), b.y.max(p.y)),
            ),
            _ => (p, p),
        };
        self.min = Some(min);
        self.max = Some(max);
    }
}

impl RenderBackend for Drawn {
    fn draw_rect(
        &mut self,
        xy: Point,
        size: Point,
        _look: &StyleAttr,
        properties: Option<String>,
        _clip: Option<ClipHandle>,
    ) {
        self.grow(xy);
        self.grow(xy.add(size));
        if let Some(p) = properties {
            self.boxes.push((p, xy, size));
        }
    }
    fn draw_line(&mut self, _: Point, _: Point, _: &StyleAttr, _: Option<String>) {}
    fn draw_circle(&mut self, _: Point, _: Point, _: &StyleAttr, _: Option<String>) {}
    // The labels are written from the plan, not from what layout-rs measured.
    fn draw_text(&mut self, _: Point, _: &str, _: &StyleAttr) {}
    fn draw_arrow(
        &mut self,
        path: &[(Point, Point)],
        _dashed: bool,
        head: (bool, bool),
        _look: &StyleAttr,
        properties: Option<String>,
        _text: &str,
    ) {
        for (p, c) in path {
            self.grow(*p);
            self.grow(*c);
        }
        self.arrows.push(Routed {
            class: properties.unwrap_or_default(),
            path: path.to_vec(),
            heads: head,
        });
    }
    fn create_clip(&mut self, _: Point, _: Point, _: usize) -> ClipHandle {
        0
    }
}

/// The size of a box holding `lines`.
fn box_size(lines: &[String]) -> Point {
    let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    Point::new(
        (longest.max(6) as f64) * SVG_CHAR_WIDTH + 24.0,
        (lines.len().max(1) as f64) * LINE_H + 14.0,
    )
}

/// An SVG path's `d` for a `layout-rs` path: the exit vector of the first
/// point, then the entry vector of each following point.
fn path_d(path: &[(Point, Point)]) -> String {
    let mut d = String::new();
    if let [(p0, c0), (p1, c1), rest @ ..] = path {
        let _ = write!(
            d,
            "M {:.1} {:.1} C {:.1} {:.1}, {:.1} {:.1}, {:.1} {:.1}",
            p0.x, p0.y, c0.x, c0.y, p1.x, p1.y, c1.x, c1.y
        );
        for (p, c) in rest {
            let _ = write!(d, " S {:.1} {:.1}, {:.1} {:.1}", p.x, p.y, c.x, c.y);
        }
    }
    d
}

/// The outline of a status's shape in the box at `(x, y)` of size `(w, h)`.
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
            x + 4.0,
            y + 4.0,
            w - 8.0,
            h - 8.0
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

/// Centred lines of text in the box at `(x, y)` of size `(w, h)`.
fn text_block(lines: &[String], x: f64, y: f64, w: f64, h: f64) -> String {
    let top = y + h / 2.0 - (lines.len() as f64) * LINE_H / 2.0 + LINE_H * 0.75;
    let mut out = format!(
        r#"<text x="{:.1}" y="{top:.1}" text-anchor="middle">"#,
        x + w / 2.0
    );
    for (n, line) in lines.iter().enumerate() {
        let dy = if n == 0 { 0.0 } else { LINE_H };
        let _ = write!(
            out,
            r#"<tspan x="{:.1}" dy="{dy:.1}">{}</tspan>"#,
            x + w / 2.0,
            xml_escape(line)
        );
    }
    out.push_str("</text>");
    out
}

/// The plan as a standalone SVG picture: its title, the steps and their
/// dependencies laid out top to bottom, any cycle or missing dependency
/// marked as in [`dot`](super::dot), and a legend. Opens in a browser and
/// in image viewers; needs no system tool.
///
/// ```
/// let mut b = mplp_plan::Plan::builder(mplp_core::ContextId::new(), "Fix <it>", "Fix the bug");
/// let a = b.step("Read the logs");
/// b.step_after("Write the fix", &[a]);
/// let svg = mplp_plan::render::svg(&b.build()?);
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
/// assert!(svg.contains("Fix &lt;it&gt;"));
/// assert_eq!(svg.matches("<g class=\"step\"").count(), 2);
/// assert_eq!(svg.matches("<path class=\"edge").count(), 1);
/// # Ok::<(), mplp_core::Error>(())
/// ```
pub fn svg(plan: &Plan) -> String {
    let marks = Marks::of(plan);
    let mut graph = VisualGraph::new(Orientation::TopToBottom);
    let look = StyleAttr::new(Color::fast("black"), 1, None, 0, 13);
    let mut labels: Vec<Vec<String>> = Vec::new();
    let mut handles = Vec::new();
    for (i, step) in plan.steps.iter().enumerate() {
        let lines: Vec<String> = label_lines(step).iter().map(|l| one_line(l)).collect();
        let size = box_size(&lines);
        handles.push(graph.add_node(Element::create_with_properties(
            ShapeKind::new_box(""),
            look.clone(),
            Orientation::LeftToRight,
            size,
            format!("s{i}"),
        )));
        labels.push(lines);
    }
    let arrow = |class: &str, style: LineStyleKind| {
        Arrow::with_properties(
            LineEndKind::None,
            LineEndKind::Arrow,
            style,
            "",
            &look,
            class,
            &None,
            &None,
        )
    };
    for (i, &to) in handles.iter().enumerate() {
        for &d in marks.graph.deps(i) {
            let Some(&from) = handles.get(d as usize) else {
                continue;
            };
            let class = if marks.in_cycle(d as usize, i) {
                "edge cycle"
            } else {
                "edge"
            };
            graph.add_edge(arrow(class, LineStyleKind::Normal), from, to);
        }
    }
    for &i in &marks.self_loops {
        if let Some(&h) = handles.get(i) {
            graph.add_edge(arrow("edge cycle", LineStyleKind::Normal), h, h);
        }
    }
    for (m, (i, id)) in marks.missing.iter().enumerate() {
        let lines = vec!["missing step".to_owned(), one_line(id)];
        let size = box_size(&lines);
        let node = graph.add_node(Element::create_with_properties(
            ShapeKind::new_box(""),
            look.clone(),
            Orientation::LeftToRight,
            size,
            format!("m{m}"),
        ));
        labels.push(lines);
        if let Some(&to) = handles.get(*i) {
            graph.add_edge(arrow("edge missing", LineStyleKind::Dashed), node, to);
        }
    }
    let mut drawn = Drawn::default();
    if !handles.is_empty() || !marks.missing.is_empty() {
        graph.do_it(false, false, false, &mut drawn);
    }
    write_svg(plan, &marks, &labels, &drawn)
}

fn write_svg(plan: &Plan, marks: &Marks, labels: &[Vec<String>], drawn: &Drawn) -> String {
    let steps = plan.steps.len();
    let (min, max) = match (drawn.min, drawn.max) {
        (Some(a), Some(b)) => (a, b),
        _ => (Point::zero(), Point::zero()),
    };
    let title = one_line(&plan.title);
    let title_h = 40.0;
    let graph_w = max.x - min.x;
    let graph_h = max.y - min.y;
    // The legend: one row per status, plus the marks in use.
    let mut legend: Vec<(Option<StepStatus>, String)> = StepStatus::ALL
        .iter()
        .map(|&s| (Some(s), format!("{s}: {}", shape_name(s))))
        .collect();
    if marks.has_cycle() {
        legend.push((None, "red edge: in a cycle".to_owned()));
    }
    if !marks.missing.is_empty() {
        legend.push((None, "dashed: missing step".to_owned()));
    }
    let legend_w = 230.0;
    let row_h = 34.0;
    let legend_h = 30.0 + legend.len() as f64 * row_h;
    let width =
        (MARGIN * 3.0 + graph_w + legend_w).max(title.chars().count() as f64 * 9.5 + 2.0 * MARGIN);
    let height = title_h + MARGIN + graph_h.max(legend_h) + MARGIN;
    let (dx, dy) = (MARGIN - min.x, title_h + MARGIN - min.y);
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
    for (id, colour) in [("arrow", "#424242"), ("arrow-red", RED)] {
        let _ = writeln!(
            out,
            r#"<defs><marker id="{id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{colour}"/></marker></defs>"#
        );
    }
    let _ = writeln!(
        out,
        r##"<rect width="100%" height="100%" fill="#ffffff"/><text class="title" x="{MARGIN}" y="28" font-size="18" font-weight="bold">{}</text>"##,
        xml_escape(&title)
    );
    let _ = writeln!(
        out,
        r#"<g class="graph" transform="translate({dx:.1} {dy:.1})">"#
    );
    for Routed {
        class,
        path,
        heads: (start, end),
    } in &drawn.arrows
    {
        let (stroke, width, marker, dash) = match class.as_str() {
            "edge cycle" => (RED, 3.0, "arrow-red", ""),
            "edge missing" => (RED, 1.5, "arrow-red", r#" stroke-dasharray="6 4""#),
            _ => ("#424242", 1.5, "arrow", ""),
        };
        let _ = writeln!(
            out,
            r#"<path class="{class}" d="{}" fill="none" stroke="{stroke}" stroke-width="{width}"{dash}{}{}/>"#,
            path_d(path),
            if *start {
                format!(r#" marker-start="url(#{marker})""#)
            } else {
                String::new()
            },
            if *end {
                format!(r#" marker-end="url(#{marker})""#)
            } else {
                String::new()
            }
        );
    }
    for (props, xy, size) in &drawn.boxes {
        let (kind, index) = props.split_at(1.min(props.len()));
        let Ok(index) = index.parse::<usize>() else {
            continue;
        };
        let (status, label, class) = match kind {
            "s" => (
                plan.steps.get(index).map(|s| s.status),
                labels.get(index),
                "step",
            ),
            _ => (None, labels.get(steps + index), "missing"),
        };
        let Some(label) = label else { continue };
        let data = status.map_or(String::new(), |s| format!(r#" data-status="{s}""#));
        let _ = writeln!(
            out,
            r#"<g class="{class}"{data}>{}{}</g>"#,
            shape(status, xy.x, xy.y, size.x, size.y),
            text_block(label, xy.x, xy.y, size.x, size.y)
        );
    }
    out.push_str("</g>\n");
    // The legend, right of the graph.
    let lx = MARGIN * 2.0 + graph_w;
    let ly = title_h + MARGIN;
    let _ = writeln!(
        out,
        r##"<g class="legend" transform="translate({lx:.1} {ly:.1})"><rect width="{legend_w}" height="{legend_h:.0}" fill="#fafafa" stroke="#9e9e9e" stroke-dasharray="4 3"/><text x="10" y="20" font-weight="bold">Legend</text>"##
    );
    for (n, (status, text)) in legend.iter().enumerate() {
        let y = 30.0 + n as f64 * row_h;
        let sample = match (status, text.starts_with("red")) {
            (Some(s), _) => shape(Some(*s), 10.0, y + 3.0, 44.0, 26.0),
            (None, true) => format!(
                r#"<path class="legend-edge" d="M 10 {:.1} L 54 {:.1}" stroke="{RED}" stroke-width="3" marker-end="url(#arrow-red)"/>"#,
                y + 16.0,
                y + 16.0
            ),
            (None, false) => shape(None, 10.0, y + 3.0, 44.0, 26.0),
        };
        let _ = writeln!(
            out,
            r#"{sample}<text x="64" y="{:.1}">{}</text>"#,
            y + 21.0,
            xml_escape(text)
        );
    }
    out.push_str("</g>\n</svg>\n");
    out
}

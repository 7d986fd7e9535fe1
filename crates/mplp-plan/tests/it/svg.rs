//! The plan's SVG picture (feature `svg`): exact sizes and positions of
//! small plans, and the geometry every picture keeps (boxes inside the
//! picture and apart, edges from a box's bottom to the next one's top,
//! the picture as large as what it draws).

use mplp_core::ContextId;
use mplp_plan::{Plan, render};

use super::plan;

/// The value of attribute `name` in `tag`.
fn attr<'a>(tag: &'a str, name: &str) -> &'a str {
    let key = format!(" {name}=\"");
    let from = tag
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {tag}"))
        + key.len();
    &tag[from..from + tag[from..].find('"').unwrap()]
}

fn num(tag: &str, name: &str) -> f64 {
    attr(tag, name).parse().unwrap()
}

/// The elements that start with `start`, each up to its `</g>`, `/>`
/// or `end`.
fn elements<'a>(svg: &'a str, start: &str, end: &str) -> Vec<&'a str> {
    svg.match_indices(start)
        .map(|(i, _)| &svg[i..i + svg[i..].find(end).unwrap() + end.len()])
        .collect()
}

/// A box: x, y, width, height.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

impl Rect {
    /// The outline of a step or missing step (a rect, or a polygon's
    /// bounding box).
    fn of(group: &str) -> Rect {
        if let Some(i) = group.find("<rect ") {
            let tag = &group[i..];
            return Rect {
                x: num(tag, "x"),
                y: num(tag, "y"),
                w: num(tag, "width"),
                h: num(tag, "height"),
            };
        }
        let points: Vec<(f64, f64)> = attr(group, "points")
            .split(' ')
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        let (x0, x1, y0, y1) = points.iter().fold(
            (f64::MAX, f64::MIN, f64::MAX, f64::MIN),
            |(a, b, c, d), &(x, y)| (a.min(x), b.max(x), c.min(y), d.max(y)),
        );
        Rect {
            x: x0,
            y: y0,
            w: x1 - x0,
            h: y1 - y0,
        }
    }
    fn right(self) -> f64 {
        self.x + self.w
    }
    fn bottom(self) -> f64 {
        self.y + self.h
    }
    fn cx(self) -> f64 {
        self.x + self.w / 2.0
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.11
}

/// The step boxes by index.
fn steps(svg: &str) -> Vec<Rect> {
    let groups = elements(svg, "<g class=\"step\"", "</g>");
    let mut out = vec![None; groups.len()];
    for g in groups {
        let i: usize = attr(g, "id")["step-".len()..].parse().unwrap();
        out[i] = Some(Rect::of(g));
    }
    out.into_iter().map(Option::unwrap).collect()
}

/// `(class, from, to, d)` of every edge.
fn edges(svg: &str) -> Vec<(String, String, String, String)> {
    elements(svg, "<path class=\"edge", "/>")
        .into_iter()
        .map(|e| {
            (
                attr(e, "class").to_owned(),
                attr(e, "data-from").to_owned(),
                attr(e, "data-to").to_owned(),
                attr(e, "d").to_owned(),
            )
        })
        .collect()
}

fn size(svg: &str) -> (f64, f64) {
    let head = &svg[..svg.find('>').unwrap()];
    (num(head, "width"), num(head, "height"))
}

/// The numbers of a path's `d`.
fn coords(d: &str) -> Vec<f64> {
    d.split([' ', ',']).filter_map(|t| t.parse().ok()).collect()
}

/// What every detailed picture keeps: boxes of a layer side by side
/// without overlapping (at least 24 px apart), inside the picture, the
/// leftmost at the margin, the picture 20 px wider than the widest of the
/// graph, the legend and the title, and 20 px below the lowest box; each
/// plain edge leaves its dependency's bottom centre and enters its step's
/// top centre, a layer lower.
fn check_detailed(svg: &str, legend_w: f64) -> Vec<Rect> {
    let boxes = steps(svg);
    let mut all = boxes.clone();
    all.extend(
        elements(svg, "<g class=\"missing\"", "</g>")
            .into_iter()
            .map(Rect::of),
    );
    let (width, height) = size(svg);
    let left = all.iter().map(|r| r.x).fold(f64::MAX, f64::min);
    let right = all.iter().map(|r| r.right()).fold(f64::MIN, f64::max);
    let bottom = all.iter().map(|r| r.bottom()).fold(f64::MIN, f64::max);
    assert!(close(left, 20.0), "leftmost box at {left}");
    let loops =
        svg.matches("data-from=\"").count() > 0 && edges(svg).iter().any(|(_, f, t, _)| f == t);
    if !loops {
        let want = 40.0 + (right - 20.0).max(legend_w).max(10.0);
        assert!(
            (width - want).abs() <= 0.5,
            "width {width}, content to {right}"
        );
    }
    assert!(
        close(height, bottom + 20.0),
        "height {height}, lowest box to {bottom}"
    );
    for (n, a) in all.iter().enumerate() {
        for b in &all[n + 1..] {
            if close(a.y, b.y) {
                assert!(
                    a.right() + 24.0 <= b.x + 0.11 || b.right() + 24.0 <= a.x + 0.11,
                    "{a:?} and {b:?} overlap"
                );
            } else {
                assert!(
                    a.bottom() + 48.0 <= b.y + 0.11 || b.bottom() + 48.0 <= a.y + 0.11,
                    "layers of {a:?} and {b:?} overlap"
                );
            }
        }
    }
    for (class, from, to, d) in edges(svg) {
        if class != "edge" {
            continue;
        }
        let (a, b) = (
            boxes[from.parse::<usize>().unwrap()],
            boxes[to.parse::<usize>().unwrap()],
        );
        let c = coords(&d);
        let n = c.len();
        if close(a.y, b.y) {
            // Within a layer: an arc above the two boxes.
            let t = a.y - 38.4;
            assert_eq!(
                d,
                format!(
                    "M {:.1} {:.1} C {:.1} {t:.1}, {:.1} {t:.1}, {:.1} {:.1}",
                    a.cx(),
                    a.y,
                    a.cx(),
                    b.cx(),
                    b.cx(),
                    a.y
                )
            );
            continue;
        }
        assert!(
            close(c[0], a.cx()) && close(c[1], a.bottom()),
            "{d} from {a:?}"
        );
        assert!(
            close(c[n - 2], b.cx()) && close(c[n - 1], b.y),
            "{d} to {b:?}"
        );
        assert!(b.y > a.bottom(), "{d}: {b:?} not below {a:?}");
    }
    boxes
}

/// The legend's width with the cycle's item.
const CYCLE_LEGEND_W: f64 = 949.6;

/// A step id that names no step.
const GHOST: &str = "00000000-0000-4000-8000-00000000dead";

/// The legend's width for a detailed plan without marks (see
/// `the_legend_wraps_at_980_px`).
const LEGEND_W: f64 = 784.0;

#[test]
fn a_chain_of_two_exactly() {
    let p = plan(2, &[(0, 1)], &[], &[]);
    let svg = render::svg(&p);
    let b = check_detailed(&svg, LEGEND_W);
    // Three lines ("/steps/0 · 8 chars", "s0", "[pending]"): 19 × 7.2 + 24
    // by 3 × 16 + 14. The graph starts 20 px under the legend (48 + 64).
    let r0 = Rect {
        x: 20.0,
        y: 132.0,
        w: 160.8,
        h: 62.0,
    };
    assert_eq!(b, [r0, Rect { y: 242.0, ..r0 }]);
    assert_eq!(size(&svg), (824.0, 324.0));
    assert_eq!(
        edges(&svg),
        [(
            "edge".into(),
            "0".into(),
            "1".into(),
            "M 100.4 194.0 L 100.4 242.0".into()
        )]
    );
    let short = &p.steps()[0].step_id.to_string()[..8];
    assert!(svg.contains(&format!(
        r#"<text x="100.4" y="151.0" text-anchor="middle"><tspan x="100.4" dy="0.0" font-weight="bold">/steps/0 · {short}</tspan><tspan x="100.4" dy="16.0">s0</tspan><tspan x="100.4" dy="16.0">[pending]</tspan></text>"#
    )), "{svg}");
    assert!(svg.contains(r#"<g class="step" id="step-1" data-pointer="/steps/1" data-status="pending"><title>s1</title>"#));
    assert!(svg.contains(&format!("<desc>Plan {}: 2 steps</desc>", p.plan_id)));
}

#[test]
fn the_legend_wraps_at_980_px() {
    let svg = render::svg(&plan(1, &[], &[], &[]));
    let legend = elements(&svg, "<g class=\"legend\"", "</g>")[0];
    let texts: Vec<(f64, f64, &str)> = elements(legend, "<text x=", "</text>")
        .into_iter()
        .filter(|t| !t.contains("font-size=\"10\""))
        .map(|t| {
            let text = &t[t.find('>').unwrap() + 1..t.len() - "</text>".len()];
            (num(t, "x"), num(t, "y"), text)
        })
        .collect();
    // Each item: a 44-px sample, its text 52 px right of it, 18 px after
    // the text (7.2 px a character); a row of 32 px; no row wider than 980.
    assert_eq!(
        texts,
        [
            (72.0, 68.0, "pending: box"),
            (228.4, 68.0, "in_progress: bold box"),
            (449.6, 68.0, "completed: double box"),
            (670.8, 68.0, "blocked: hexagon"),
            (72.0, 100.0, "skipped: dashed box"),
            (278.8, 100.0, "failed: octagon"),
            (456.8, 100.0, "first line: /steps/N · short id"),
        ]
    );
    assert!(legend.contains(r##"<rect x="20.0" y="51.0" width="44.0" height="24.0" rx="6" fill="#ffffff" stroke="#616161" stroke-width="1.5"/>"##), "{legend}");
    assert!(legend.contains(r##"<rect x="404.8" y="83.0" width="44" height="24" rx="6" fill="#ffffff" stroke="#616161"/><text x="426.8" y="99.0" text-anchor="middle" font-size="10">/steps/N</text>"##), "{legend}");
    // The graph starts 20 px under the legend's two rows.
    assert_eq!(steps(&svg)[0].y, 132.0);
    // A cycle and a missing step add their items (the red edge sample is
    // a bold red line); the rows wrap again.
    let svg = render::svg(&plan(2, &[(0, 1), (1, 0)], &[(0, GHOST)], &[]));
    let legend = elements(&svg, "<g class=\"legend\"", "</g>")[0];
    assert!(legend.contains(r##"<path class="legend-edge" d="M 404.8 95.0 L 448.8 95.0" stroke="#c62828" stroke-width="3" marker-end="url(#arrow-cycle)"/><text x="456.8" y="100.0">red edge: the cycle reported</text>"##), "{legend}");
    assert!(legend.contains(r##"<rect x="676.4" y="83.0" width="44.0" height="24.0" rx="6" fill="#ffffff" stroke="#c62828" stroke-width="1.5" stroke-dasharray="5 4"/><text x="728.4" y="100.0">dashed: missing step</text>"##), "{legend}");
    assert!(
        legend.contains(r#"<text x="72.0" y="132.0">first line: /steps/N · short id</text>"#),
        "{legend}"
    );
    // Three rows: the graph starts at 48 + 96 + 20.
    assert!(steps(&svg).iter().all(|r| r.y >= 164.0));
    assert_eq!(elements(&svg, "<g class=\"missing\"", "</g>").len(), 1);
    // The summary's legend says what a small box is.
    let big = plan(151, &[], &[], &[]);
    assert!(render::svg(&big).contains(">box: /steps/N · short id (hover: the step)</text>"));
}

#[test]
fn a_fork_is_centred_under_its_parent() {
    let svg = render::svg(&plan(3, &[(0, 1), (0, 2)], &[], &[]));
    let b = check_detailed(&svg, LEGEND_W);
    // The children 24 px apart, their middle under the parent.
    let centres: Vec<f64> = b.iter().map(|r| r.cx()).collect();
    assert!(
        centres
            .iter()
            .zip([192.8, 100.4, 285.2])
            .all(|(a, b)| close(*a, b)),
        "{centres:?}"
    );
    assert_eq!(b[1].x, 20.0);
    assert!(close(b[2].x - b[1].right(), 24.0));
    assert_eq!(
        edges(&svg).into_iter().map(|e| e.3).collect::<Vec<_>>(),
        [
            "M 192.8 194.0 C 192.8 218.0, 100.4 218.0, 100.4 242.0",
            "M 192.8 194.0 C 192.8 218.0, 285.2 218.0, 285.2 242.0"
        ]
    );
}

#[test]
fn a_wide_layer_wraps_at_six_boxes() {
    let svg = render::svg(&plan(8, &[], &[], &[]));
    let b = check_detailed(&svg, LEGEND_W);
    // Six boxes of 160.8 px, 24 apart; the seventh and eighth a layer
    // lower, from the left.
    for (i, r) in b.iter().enumerate().take(6) {
        assert!(close(r.x, 20.0 + 184.8 * i as f64), "{i}: {r:?}");
        assert_eq!(r.y, 132.0);
    }
    assert_eq!((b[6].x, b[6].y), (20.0, 242.0));
    assert!(close(b[7].x, 204.8) && b[7].y == 242.0, "{:?}", b[7]);
    // The picture is as wide as the first layer: 6 × 160.8 + 5 × 24 + 40.
    assert!(close(size(&svg).0, 1125.0), "{:?}", size(&svg));
}

#[test]
fn an_edge_across_layers_runs_down_its_own_lane() {
    // 0 -> 1 -> 2 and 0 -> 2: the edge 0 -> 2 passes layer 1 beside 1.
    let svg = render::svg(&plan(3, &[(0, 1), (1, 2), (0, 2)], &[], &[]));
    let b = check_detailed(&svg, LEGEND_W);
    let long = edges(&svg)
        .into_iter()
        .find(|e| e.1 == "0" && e.2 == "2")
        .unwrap()
        .3;
    let c = coords(&long);
    // M, a curve to the lane's top, straight down the layer, a curve to 2.
    assert_eq!(c.len(), 2 + 6 + 2 + 6, "{long}");
    assert!(long.contains(" L "), "{long}");
    let lane_x = c[6];
    assert!(
        close(c[8], lane_x) && close(c[7], b[1].y) && close(c[9], b[1].bottom()),
        "{long}"
    );
    // The lane is 6 px beside box 1 (half its 12-px width + 6 + half the box).
    let gap = (lane_x - b[1].cx()).abs() - b[1].w / 2.0;
    assert!(close(gap, 12.0), "{long} beside {:?}", b[1]);
    // Each curve bends half-way between the layers.
    assert!(close(c[3], (c[1] + c[7]) / 2.0), "{long}");
}

#[test]
fn a_cycle_is_drawn_red_and_pointing_back() {
    let p = plan(2, &[(0, 1), (1, 0)], &[], &[]);
    let svg = render::svg(&p);
    let b = check_detailed(&svg, CYCLE_LEGEND_W);
    let mut e = edges(&svg);
    e.sort();
    // 1 -> 0 points up: it leaves 1 at its top and enters 0 at its bottom.
    assert_eq!(
        e,
        [
            (
                "edge cycle".into(),
                "0".into(),
                "1".into(),
                format!("M 100.4 {:.1} L 100.4 {:.1}", b[0].bottom(), b[1].y)
            ),
            (
                "edge cycle".into(),
                "1".into(),
                "0".into(),
                format!("M 100.4 {:.1} L 100.4 {:.1}", b[1].y, b[0].bottom())
            ),
        ]
    );
    assert!(
        svg.contains(r##"stroke="#c62828" stroke-width="3" marker-end="url(#arrow-cycle)"/>"##)
    );
    // In a tangle, only the reported cycle is red; the other edges are
    // plain, drawn before (under) the cycle.
    let svg = render::svg(&plan(
        4,
        &[(1, 0), (2, 0), (0, 1), (2, 1), (1, 2), (0, 3)],
        &[],
        &[],
    ));
    let e = edges(&svg);
    let red = e.iter().filter(|x| x.0 == "edge cycle").count();
    assert!((2..5).contains(&red), "{e:?}");
    let first_red = e.iter().position(|x| x.0 == "edge cycle").unwrap();
    assert!(e[first_red..].iter().all(|x| x.0 == "edge cycle"), "{e:?}");
    assert!(
        e.iter().any(|x| x.0 == "edge" && x.1 == "0" && x.2 == "3"),
        "{e:?}"
    );
}

#[test]
fn a_three_step_cycle_ends_at_the_boxes() {
    // Every edge of the cycle starts at its dependency's centre line and
    // ends at the box it enters: its top, or its bottom when it points up.
    let p = plan(3, &[(0, 1), (1, 2), (2, 0)], &[], &[]);
    let svg = render::svg(&p);
    let b = check_detailed(&svg, CYCLE_LEGEND_W);
    for (class, from, to, d) in edges(&svg) {
        assert_eq!(class, "edge cycle");
        let (a, z) = (
            b[from.parse::<usize>().unwrap()],
            b[to.parse::<usize>().unwrap()],
        );
        let c = coords(&d);
        assert!(close(c[0], a.cx()), "{d}");
        assert!(close(c[c.len() - 2], z.cx()), "{d}");
        // The end touches the box it enters: its top, or its bottom when
        // the edge points up.
        let y = c[c.len() - 1];
        assert!(close(y, z.y) || close(y, z.bottom()), "{d} to {z:?}");
    }
}

#[test]
fn a_step_waiting_for_itself_gets_a_loop() {
    let svg = render::svg(&plan(1, &[(0, 0)], &[], &[]));
    let b = steps(&svg);
    assert_eq!(
        b[0],
        Rect {
            x: 20.0,
            y: 132.0,
            w: 160.8,
            h: 62.0
        }
    );
    assert_eq!(
        edges(&svg),
        [(
            "edge cycle".into(),
            "0".into(),
            "0".into(),
            "M 180.8 150.6 C 214.8 128.0, 214.8 198.0, 180.8 175.4".into()
        )]
    );
    // The legend (its red-edge item) is the widest: 949.6 + 40.
    assert!(close(size(&svg).0, 990.0), "{:?}", size(&svg));
    // Six such steps side by side: the loop of the last one widens the
    // picture (36 px right of its box).
    let svg = render::svg(&plan(6, &[(5, 5)], &[], &[]));
    let b = steps(&svg);
    assert!(
        (size(&svg).0 - b[5].right() - 36.0 - 20.0).abs() <= 0.5,
        "{:?} {:?}",
        size(&svg),
        b[5]
    );
}

#[test]
fn a_missing_dependency_is_a_dashed_box_above_its_step() {
    let svg = render::svg(&plan(1, &[], &[(0, GHOST)], &[]));
    let b = check_detailed(&svg, 892.0);
    let missing = elements(&svg, "<g class=\"missing\"", "</g>");
    assert_eq!(missing.len(), 1);
    // "missing step" / its 36-character id: 36 × 7.2 + 24 by 2 × 16 + 14, centred
    // over the step, a layer above it.
    assert_eq!(
        Rect::of(missing[0]),
        Rect {
            x: 20.0,
            y: 132.0,
            w: 283.2,
            h: 46.0
        }
    );
    assert!(
        missing[0].contains(r##"stroke="#c62828" stroke-width="1.5" stroke-dasharray="5 4"/>"##)
    );
    assert!(missing[0].contains(&format!(">{GHOST}</tspan>")));
    assert_eq!(
        b[0],
        Rect {
            x: 81.2,
            y: 226.0,
            w: 160.8,
            h: 62.0
        }
    );
    assert_eq!(
        edges(&svg),
        [(
            "edge missing".into(),
            "m0".into(),
            "0".into(),
            "M 161.6 178.0 L 161.6 226.0".into()
        )]
    );
}

#[test]
fn every_status_has_its_shape() {
    let statuses: Vec<&str> = mplp_plan::StepStatus::ALL
        .iter()
        .map(|s| s.as_str())
        .collect();
    let status: Vec<(usize, &str)> = statuses.iter().copied().enumerate().collect();
    let svg = render::svg(&plan(6, &[], &[], &status));
    let groups = elements(&svg, "<g class=\"step\"", "</g>");
    for (g, s) in groups.iter().zip(statuses) {
        assert_eq!(attr(g, "data-status"), s);
        let r = Rect::of(g);
        // 3 lines; "[in_progress]" is 13 characters, shorter than the header.
        assert!(close(r.w, 160.8) && close(r.h, 62.0), "{s}: {r:?}");
    }
    // The hexagon's and octagon's corners are 14 px in.
    assert!(
        groups[3].contains(&format!(
            r#"points="{:.1},132.0 {:.1},132.0 {:.1},163.0"#,
            20.0 + 3.0 * 184.8 + 14.0,
            20.0 + 3.0 * 184.8 + 160.8 - 14.0,
            20.0 + 3.0 * 184.8 + 160.8
        )),
        "{}",
        groups[3]
    );
    assert!(groups[2].contains(r#"rx="4" fill="none""#), "{}", groups[2]);
}

/// What every summary keeps: each step's chip inside its layer's group,
/// the groups apart and within 1500 px, the picture as large as them.
fn check_summary(svg: &str) -> (Vec<Rect>, Vec<Rect>) {
    let groups: Vec<Rect> = elements(svg, "<g class=\"layer\"", ">")
        .into_iter()
        .map(|g| Rect::of(&svg[svg.find(g).unwrap()..]))
        .collect();
    let chips = steps(svg);
    let (width, height) = size(svg);
    let right = groups.iter().map(|g| g.right()).fold(f64::MIN, f64::max);
    let bottom = groups.iter().map(|g| g.bottom()).fold(f64::MIN, f64::max);
    assert!(right <= 20.0 + 1500.0 + 0.11, "{right}");
    let missing: Vec<Rect> = elements(svg, "<g class=\"missing\"", "</g>")
        .into_iter()
        .map(Rect::of)
        .collect();
    let far = missing.iter().map(|m| m.right()).fold(right, f64::max);
    assert!(
        (width - far - 20.0).abs() <= 0.5,
        "width {width}, content to {far}"
    );
    let low = missing.iter().map(|m| m.bottom()).fold(bottom, f64::max);
    assert!(
        (height - low - 20.0).abs() <= 0.5,
        "height {height}, lowest {low}"
    );
    for (n, a) in groups.iter().enumerate() {
        for b in &groups[n + 1..] {
            let apart = a.right() + 14.0 <= b.x + 0.11
                || b.right() + 14.0 <= a.x + 0.11
                || a.bottom() + 14.0 <= b.y + 0.11
                || b.bottom() + 14.0 <= a.y + 0.11;
            assert!(apart, "{a:?} {b:?}");
        }
    }
    (groups, chips)
}

#[test]
fn a_long_plan_is_summarised_by_layer() {
    // 160 steps: 0 <- 1 <- 2 (three layers), 3 and 4 wait for 0; the rest
    // wait for nothing.
    let p = plan(160, &[(0, 1), (1, 2), (0, 3), (0, 4)], &[], &[]);
    let svg = render::svg(&p);
    let (groups, chips) = check_summary(&svg);
    assert_eq!(groups.len(), 3);
    // Layer 0: 156 steps in rows of 8; chips as wide as the longest label
    // ("/steps/159 · 8 chars": 21 × 7.2 + 16) by 26, 6 px apart, 8 px in,
    // under a 20-px heading.
    let (chip_w, chip_h) = (167.2, 26.0);
    let g0 = groups[0];
    assert!(close(g0.w, 8.0 * (chip_w + 6.0) - 6.0 + 16.0), "{g0:?}");
    assert!(
        close(g0.h, 20.0 + 20.0 * (chip_h + 6.0) - 6.0 + 8.0),
        "{g0:?}"
    );
    assert_eq!(g0.x, 20.0);
    let layer0: Vec<usize> = (0..160).filter(|i| ![1, 2, 3, 4].contains(i)).collect();
    for (p, &i) in layer0.iter().enumerate() {
        let c = chips[i];
        assert!(
            close(c.x, 28.0 + (p % 8) as f64 * (chip_w + 6.0)),
            "{i}: {c:?}"
        );
        assert!(
            close(c.y, g0.y + 20.0 + (p / 8) as f64 * (chip_h + 6.0)),
            "{i}: {c:?}"
        );
        assert!(close(c.w, chip_w) && close(c.h, chip_h));
    }
    // Layer 1 (1, 3, 4) does not fit beside layer 0: a new row, 14 px
    // lower; layer 2 beside it, 14 px apart.
    let (g1, g2) = (groups[1], groups[2]);
    assert_eq!(g1.x, 20.0);
    assert!(close(g1.y, g0.bottom() + 14.0), "{g1:?}");
    assert!(close(g1.w, 3.0 * (chip_w + 6.0) - 6.0 + 16.0), "{g1:?}");
    assert!(
        close(g2.x, g1.right() + 14.0) && close(g2.y, g1.y),
        "{g2:?}"
    );
    // Layer 2's one step: the group is as wide as its heading.
    let heading = "layer 2 · 1 step";
    assert!(svg.contains(&format!(">{heading}</text>")));
    assert!(close(g2.w, (chip_w + 6.0) - 6.0 + 16.0), "{g2:?}");
    assert!(close(g2.h, 20.0 + 26.0 + 8.0), "{g2:?}");
    assert!(svg.contains(&format!(
        r##"y="{:.1}" font-size="11" fill="#616161">layer 0 · 156 steps</text>"##,
        g0.y + 14.0
    )));
    // No dependency is drawn: there is no cycle and no missing step.
    assert!(edges(&svg).is_empty());
    assert!(svg.contains("<title>s7 [pending]</title>"));
}

#[test]
fn a_summary_marks_the_reported_cycle_and_missing_steps() {
    // 151 steps; 10 <-> 11 a cycle; 12 waits for itself; 20 and 21 for
    // steps that do not exist (and 22..26 too: the chips wrap after 4).
    let missing: Vec<(usize, String)> = (20..26)
        .map(|i| (i, format!("00000000-0000-4000-8000-0000000000{i}")))
        .collect();
    let missing: Vec<(usize, &str)> = missing.iter().map(|(i, s)| (*i, s.as_str())).collect();
    let p = plan(
        151,
        &[(10, 11), (11, 10), (12, 12)],
        &missing,
        &[(3, "failed")],
    );
    let svg = render::svg(&p);
    let (groups, chips) = check_summary(&svg);
    let e = edges(&svg);
    let centre = |c: Rect| (c.cx(), c.y + c.h / 2.0);
    let cycle: Vec<_> = e
        .iter()
        .filter(|x| x.0 == "edge cycle" && x.1 != x.2)
        .collect();
    assert_eq!(cycle.len(), 2, "{e:?}");
    for (_, from, to, d) in cycle {
        let (a, b) = (
            chips[from.parse::<usize>().unwrap()],
            chips[to.parse::<usize>().unwrap()],
        );
        let (a, b) = (centre(a), centre(b));
        assert_eq!(
            d,
            &format!("M {:.1} {:.1} L {:.1} {:.1}", a.0, a.1, b.0, b.1)
        );
    }
    // The self-loop on the chip's right side.
    let c = chips[12];
    let (r, cy) = (c.right(), c.y + c.h / 2.0);
    let own = e.iter().find(|x| x.1 == "12" && x.2 == "12").unwrap();
    assert_eq!(
        own.3,
        format!(
            "M {r:.1} {:.1} C {:.1} {:.1}, {:.1} {:.1}, {r:.1} {:.1}",
            cy - 4.0,
            r + 24.0,
            cy - 22.0,
            r + 24.0,
            cy + 18.0,
            cy + 4.0
        )
    );
    // Missing steps: chips under the plan, four a row, each with a dashed
    // edge to its step's centre.
    let boxes: Vec<Rect> = elements(&svg, "<g class=\"missing\"", "</g>")
        .into_iter()
        .map(Rect::of)
        .collect();
    assert_eq!(boxes.len(), 6);
    let bottom = groups.iter().map(|g| g.bottom()).fold(f64::MIN, f64::max);
    // "missing step " and a 36-character id: 49 × 7.2 + 24 by 30.
    let (w, h) = (376.8, 30.0);
    for (m, b) in boxes.iter().enumerate() {
        assert!(close(b.w, w) && close(b.h, h), "{b:?}");
        assert!(close(b.x, 20.0 + (m % 4) as f64 * (w + 14.0)), "{m}: {b:?}");
        let row = if m < 4 { 0.0 } else { 1.0 };
        assert!(close(b.y, bottom + 14.0 + row * (h + 10.0)), "{m}: {b:?}");
        let edge = e.iter().find(|x| x.1 == format!("m{m}")).unwrap();
        assert_eq!(edge.0, "edge missing");
        let t = centre(chips[edge.2.parse::<usize>().unwrap()]);
        assert_eq!(
            edge.3,
            format!("M {:.1} {:.1} L {:.1} {:.1}", b.cx(), b.y, t.0, t.1)
        );
    }
    assert!(svg.contains(r#"<g class="step" id="step-3" data-pointer="/steps/3" data-status="failed"><title>s3 [failed]</title><polygon"#));
}

#[test]
fn an_edge_within_a_layer_is_an_arc_above() {
    // 0 waits for 1; 1 and 2 wait for each other. 0 is drawn first (the
    // order breaks cycles at the smallest index), then 1, whose dependency
    // (2) comes later: both in the first layer, the edge 1 -> 0 an arc.
    let svg = render::svg(&plan(3, &[(1, 0), (2, 1), (1, 2)], &[], &[]));
    let b = check_detailed(&svg, CYCLE_LEGEND_W);
    assert!(close(b[0].y, b[1].y) && b[2].y > b[1].bottom(), "{b:?}");
    let arc = edges(&svg)
        .into_iter()
        .find(|e| e.1 == "1" && e.2 == "0")
        .unwrap();
    assert_eq!(arc.0, "edge");
    assert!(arc.3.contains(" C "), "{arc:?}");
}

#[test]
fn up_to_150_steps_are_drawn_in_detail() {
    let svg = render::svg(&plan(150, &[], &[], &[]));
    assert!(svg.contains(">first line: /steps/N · short id</text>"));
    assert!(!svg.contains("<g class=\"layer\""));
    let b = check_detailed(&svg, LEGEND_W);
    assert_eq!(b.len(), 150);
    // 25 layers of six boxes.
    assert!(close(b[149].y, 132.0 + 24.0 * 110.0), "{:?}", b[149]);
    let svg = render::svg(&plan(151, &[], &[], &[]));
    assert_eq!(svg.matches("<g class=\"layer\"").count(), 1);
}

#[test]
fn a_long_title_widens_the_picture() {
    let mut b = Plan::builder(ContextId::new(), "x".repeat(100), "o");
    b.step("s0");
    let svg = render::svg(&b.build().unwrap());
    // 10 px a character of the 18-px bold title.
    assert_eq!(size(&svg).0, 1040.0);
}

#[test]
fn a_plan_written_backwards_is_drawn_top_down() {
    // 0 waits for 1, 1 for 2: 2 on top.
    let svg = render::svg(&plan(3, &[(1, 0), (2, 1)], &[], &[]));
    let b = check_detailed(&svg, LEGEND_W);
    assert!(b[2].bottom() < b[1].y && b[1].bottom() < b[0].y, "{b:?}");
    // 1 waits for 0 and for 2; 2 for 3: 1 is drawn below 2, although 0
    // (its other dependency) comes first.
    let svg = render::svg(&plan(4, &[(0, 1), (2, 1), (3, 2)], &[], &[]));
    let b = check_detailed(&svg, LEGEND_W);
    assert!(b[1].y > b[2].bottom() && b[2].y > b[3].bottom(), "{b:?}");
    assert!(close(b[0].y, b[3].y), "{b:?}");
}

#[test]
fn the_order_within_a_layer_avoids_crossings() {
    // 2 waits for 1, 3 for 0: 3 is drawn left of 2, under 0.
    let svg = render::svg(&plan(4, &[(1, 2), (0, 3)], &[], &[]));
    let b = check_detailed(&svg, LEGEND_W);
    assert!(b[3].x < b[2].x, "{b:?}");
    assert!(
        close(b[3].cx(), b[0].cx()) && close(b[2].cx(), b[1].cx()),
        "{b:?}"
    );
    // The same with a third parent: each child under its parent.
    let svg = render::svg(&plan(6, &[(2, 3), (1, 4), (0, 5)], &[], &[]));
    let b = check_detailed(&svg, LEGEND_W);
    for (parent, child) in [(2, 3), (1, 4), (0, 5)] {
        assert!(close(b[child].cx(), b[parent].cx()), "{b:?}");
    }
}

#[test]
fn a_step_with_two_dependencies_stands_between_them() {
    let svg = render::svg(&plan(3, &[(0, 2), (1, 2)], &[], &[]));
    let b = check_detailed(&svg, LEGEND_W);
    assert!(close(b[2].cx(), (b[0].cx() + b[1].cx()) / 2.0), "{b:?}");
    // Ordered by the mean position of their dependencies: 4 (under 0 and
    // 1) left of 3 (under 1), although 3 comes first.
    let svg = render::svg(&plan(5, &[(1, 3), (0, 4), (1, 4)], &[], &[]));
    let b = check_detailed(&svg, LEGEND_W);
    assert!(b[4].x < b[3].x, "{b:?}");
}

#[test]
fn a_step_without_dependencies_keeps_its_place_in_a_lower_layer() {
    // Seven steps without dependencies: the seventh (6) goes to the
    // second layer, where 7 (waiting for 0) is put first, under 0.
    let svg = render::svg(&plan(8, &[(0, 7)], &[], &[]));
    let b = check_detailed(&svg, LEGEND_W);
    assert!(close(b[6].y, b[7].y) && b[7].x < b[6].x, "{b:?}");
    assert!(close(b[7].cx(), b[0].cx()), "{b:?}");
}

#[test]
fn a_child_stands_under_its_parent_not_between_the_parents_row() {
    // 2 waits for 1 only: under 1, with 0 beside 1.
    let svg = render::svg(&plan(3, &[(1, 2)], &[], &[]));
    let b = check_detailed(&svg, LEGEND_W);
    assert!(close(b[2].cx(), b[1].cx()), "{b:?}");
    assert!(close(b[1].x - b[0].right(), 24.0), "{b:?}");
}

#[test]
fn boxes_of_different_widths_keep_24_px_apart() {
    // No dependencies, one layer: the packing alone places the boxes.
    let mut b = Plan::builder(ContextId::new(), "T", "o");
    b.step("x".repeat(40));
    b.step("s1");
    b.step("another description, longer than a header line");
    let svg = render::svg(&b.build().unwrap());
    let r = check_detailed(&svg, LEGEND_W);
    assert!(r[0].w > r[1].w && r[2].w > r[1].w, "{r:?}");
    assert!(
        close(r[1].x - r[0].right(), 24.0) && close(r[2].x - r[1].right(), 24.0),
        "{r:?}"
    );
}

#[test]
fn a_layer_wider_than_the_row_starts_it_all_the_same() {
    // 10,001 steps: labels of 23 characters ("/steps/10000 · 8 chars"),
    // so a group of 8 chips a row is 1510.8 px, wider than the 1500-px
    // row; it still starts at the top left, under the legend.
    let svg = render::svg(&plan(10_001, &[], &[], &[]));
    let group = elements(&svg, "<g class=\"layer\"", ">")[0];
    let g = Rect::of(&svg[svg.find(group).unwrap()..]);
    assert_eq!(
        g,
        Rect {
            x: 20.0,
            y: 132.0,
            w: 1510.8,
            h: 20.0 + 1251.0 * 32.0 - 6.0 + 8.0
        }
    );
    assert_eq!(size(&svg).0, 1551.0);
}

/// The boxes' centres (x) and tops (y), to one decimal.
fn centres(svg: &str) -> Vec<(String, String)> {
    steps(svg)
        .iter()
        .map(|r| (format!("{:.1}", r.cx()), format!("{:.1}", r.y)))
        .collect()
}

#[test]
fn tangled_plans_keep_their_layout() {
    // Three plans found by comparing the drawings of 400 random plans with
    // those of slightly changed layouts (a sweep order, a mean, a neighbour
    // within a layer): these are the positions the crossing reduction and
    // the placement give them, pinned.
    let cases: [(usize, &[(usize, usize)]); 3] = [
        (
            7,
            &[
                (3, 0),
                (6, 2),
                (1, 3),
                (0, 3),
                (3, 4),
                (1, 5),
                (5, 6),
                (0, 6),
            ],
        ),
        (
            11,
            &[
                (2, 0),
                (1, 0),
                (4, 1),
                (7, 2),
                (4, 2),
                (3, 2),
                (10, 4),
                (1, 4),
                (10, 5),
                (1, 5),
                (5, 6),
                (9, 6),
                (0, 7),
                (4, 8),
                (0, 9),
                (1, 9),
                (0, 10),
                (3, 10),
                (7, 10),
            ],
        ),
        (12, &[(2, 5), (3, 6), (6, 7), (3, 7), (3, 10)]),
    ];
    let got: Vec<Vec<(String, String)>> = cases
        .iter()
        .map(|(n, deps)| {
            let svg = render::svg(&plan(*n, deps, &[], &[]));
            centres(&svg)
        })
        .collect();
    let want: Vec<Vec<(&str, &str)>> = vec![
        vec![
            ("100.4", "132.0"),
            ("285.2", "132.0"),
            ("296.7", "462.0"),
            ("111.9", "242.0"),
            ("111.9", "352.0"),
            ("342.9", "242.0"),
            ("296.7", "352.0"),
        ],
        vec![
            ("137.4", "132.0"),
            ("507.0", "132.0"),
            ("173.2", "572.0"),
            ("322.2", "132.0"),
            ("338.7", "462.0"),
            ("523.5", "462.0"),
            ("384.9", "572.0"),
            ("332.4", "242.0"),
            ("569.7", "572.0"),
            ("147.6", "242.0"),
            ("440.1", "352.0"),
        ],
        vec![
            ("100.4", "132.0"),
            ("619.2", "132.0"),
            ("285.2", "132.0"),
            ("825.3", "132.0"),
            ("1010.1", "132.0"),
            ("278.0", "242.0"),
            ("727.5", "242.0"),
            ("773.7", "352.0"),
            ("1194.9", "132.0"),
            ("462.8", "242.0"),
            ("939.0", "242.0"),
            ("1196.5", "242.0"),
        ],
    ];
    let want: Vec<Vec<(String, String)>> = want
        .into_iter()
        .map(|c| {
            c.into_iter()
                .map(|(x, y)| (x.to_owned(), y.to_owned()))
                .collect()
        })
        .collect();
    assert_eq!(got, want);
}

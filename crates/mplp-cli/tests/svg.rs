//! SVG pictures of plans and sessions: parsed with a real XML
//! parser (roxmltree) for arbitrary step texts, role ids and dependency
//! graphs (cycles and missing steps included), with the node and edge
//! counts and the label texts compared against what the input holds.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeSet;

use common::{mplp, mplp_stdin, repo, stdout as out};
use mplp_collab::simulate::{SimConfig, simulate};
use mplp_collab::sink::MemorySink;
use mplp_core::{CollabMode, ContextId, Document};
use mplp_events::{MapEvent, MapPayload};
use mplp_plan::{Plan, StepSpec, StepStatus, render};
use proptest::prelude::*;

/// Elements of `doc` whose `class` attribute is `class` (exactly).
fn with_class<'a, 'i>(
    doc: &'a roxmltree::Document<'i>,
    tag: &'a str,
    class: &'a str,
) -> impl Iterator<Item = roxmltree::Node<'a, 'i>> + 'a {
    doc.descendants()
        .filter(move |n| n.has_tag_name(tag) && n.attribute("class") == Some(class))
}

/// The texts of the `tspan`s (or the one `text`) under `node`.
fn lines(node: roxmltree::Node<'_, '_>) -> Vec<String> {
    let spans: Vec<String> = node
        .descendants()
        .filter(|n| n.has_tag_name("tspan"))
        .map(|n| n.text().unwrap_or("").to_owned())
        .collect();
    if spans.is_empty() {
        node.descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| n.text().unwrap_or("").to_owned())
            .collect()
    } else {
        spans
    }
}

/// What a label line becomes in the picture: line breaks and control
/// characters are spaces; XML's non-characters are U+FFFD.
fn shown(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') => ' ',
            '\u{FFFE}' | '\u{FFFF}' => '\u{FFFD}',
            c => c,
        })
        .collect()
}

/// Text that tries to break markup: XML specials, control characters,
/// line separators, and anything printable.
const NASTY: &str =
    "(\\PC|[<>&\"'\\]\\[{}#%;\\\\\\n\\r\\t\\u{0}\\u{1}\\u{85}\\u{2028}\\u{FFFE}\\u{FFFF}]){1,24}";

/// A plan of `texts.len()` steps with these descriptions and roles, then
/// the given statuses and dependency lists (indices; `n` and above name a
/// missing step) written into its JSON and read without its rules.
fn plan_with(
    title: &str,
    steps: &[(String, Option<String>, usize, BTreeSet<usize>)],
) -> Option<(Plan, usize)> {
    let mut b = Plan::builder(ContextId::new(), title, "o");
    for (text, role, _, _) in steps {
        let mut spec = StepSpec::new(text.clone());
        if let Some(r) = role {
            spec = spec.role(r.clone());
        }
        b.add(spec);
    }
    let mut json = b.build().ok()?.to_value();
    let ids: Vec<String> = (0..steps.len())
        .map(|i| json["steps"][i]["step_id"].as_str().unwrap().to_owned())
        .collect();
    let mut edges = 0;
    for (i, (_, _, status, deps)) in steps.iter().enumerate() {
        json["steps"][i]["status"] = StepStatus::ALL[*status].to_string().into();
        let list: Vec<serde_json::Value> = deps
            .iter()
            .map(|&d| match ids.get(d) {
                Some(id) => id.clone().into(),
                None => uuid_for(d).into(),
            })
            .collect();
        edges += list.len();
        json["steps"][i]["dependencies"] = list.into();
    }
    let plan = <Plan as mplp_core::Wire>::deserialize_unchecked(&json).ok()?;
    Some((plan, edges))
}

/// A v4 UUID that names no step (one per index).
fn uuid_for(d: usize) -> String {
    format!("00000000-0000-4000-8000-{d:012}")
}

fn steps_strategy() -> impl Strategy<Value = Vec<(String, Option<String>, usize, BTreeSet<usize>)>>
{
    (1usize..7).prop_flat_map(|n| {
        prop::collection::vec(
            (
                NASTY,
                prop::option::of(NASTY),
                0..StepStatus::ALL.len(),
                // Indices past the steps are missing dependencies.
                prop::collection::btree_set(0..n + 2, 0..3),
            ),
            n,
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Any plan, valid or not, gives well-formed SVG with one `g.step` per
    /// step (labelled with its wrapped description, status and role), one
    /// `path.edge*` per dependency, and one `g.missing` per missing one.
    #[test]
    fn plan_svg_is_well_formed_and_counts_what_the_plan_holds(
        title in NASTY,
        steps in steps_strategy(),
    ) {
        let built = plan_with(&title, &steps);
        prop_assume!(built.is_some());
        let (plan, edges) = built.unwrap();
        let svg = render::svg(&plan);
        let doc = roxmltree::Document::parse(&svg)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{svg}")))?;
        prop_assert_eq!(doc.root_element().tag_name().name(), "svg");
        let nodes: Vec<_> = with_class(&doc, "g", "step").collect();
        prop_assert_eq!(nodes.len(), plan.steps().len());
        let drawn_edges = doc
            .descendants()
            .filter(|n| n.has_tag_name("path") && n.attribute("class").is_some_and(|c| c.starts_with("edge")))
            .count();
        prop_assert_eq!(drawn_edges, edges);
        // Each edge has one head (at its end, or at its start when the
        // layout drew a back edge of a cycle the other way round).
        for edge in doc.descendants().filter(|n| n.has_tag_name("path") && n.attribute("class").is_some_and(|c| c.starts_with("edge"))) {
            let heads = usize::from(edge.has_attribute("marker-start")) + usize::from(edge.has_attribute("marker-end"));
            prop_assert_eq!(heads, 1);
        }
        let missing: usize = steps
            .iter()
            .map(|(_, _, _, d)| d.iter().filter(|&&k| k >= steps.len()).count())
            .sum();
        prop_assert_eq!(with_class(&doc, "g", "missing").count(), missing);
        prop_assert_eq!(with_class(&doc, "path", "edge missing").count(), missing);
        // Labels, compared as values, in the order the steps were laid out.
        let mut expected: Vec<Vec<String>> = plan
            .steps()
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let mut l = vec![render::header_line(i, s)];
                l.extend(render::wrap(&s.description, render::WRAP)
                    .iter()
                    .map(|l| shown(l)));
                l.push(format!("[{}]", s.status()));
                if let Some(r) = &s.agent_role {
                    l.push(format!("role: {}", shown(r)));
                }
                l
            })
            .collect();
        let mut found: Vec<Vec<String>> = nodes.iter().map(|n| lines(*n)).collect();
        expected.sort();
        found.sort();
        prop_assert_eq!(found, expected);
        let title_text = doc.descendants().find(|n| n.has_tag_name("title")).and_then(|n| n.text());
        prop_assert_eq!(title_text.map(str::to_owned), Some(shown(&title)));
        // Each step's node is found by its pointer.
        for i in 0..nodes.len() {
            let id = format!("step-{i}");
            let pointer = format!("/steps/{i}");
            let by_id = doc.descendants().find(|n| n.attribute("id") == Some(id.as_str()));
            prop_assert_eq!(by_id.and_then(|n| n.attribute("data-pointer")), Some(pointer.as_str()));
        }
        // Compact: the picture is at most twice its drawn content.
        let (vw, vh, bw, bh) = sizes(&doc);
        prop_assert!(vw <= 2.0 * bw && vh <= 2.0 * bh, "viewBox {}x{} for content {}x{}", vw, vh, bw, bh);
        // Only the reported cycle (and self-dependencies) drawn as the cycle.
        let marked: BTreeSet<(String, String)> = with_class(&doc, "path", "edge cycle")
            .map(|e| (e.attribute("data-from").unwrap().to_owned(), e.attribute("data-to").unwrap().to_owned()))
            .collect();
        prop_assert_eq!(marked, reported_cycle(&plan));
    }

    /// Any role ids and task texts give a well-formed sequence diagram: one
    /// lifeline per role plus `session`, one `g.message` per turn, broadcast
    /// and answer, and every dispatched task's text as it is.
    #[test]
    fn session_svg_is_well_formed_and_counts_what_the_log_holds(
        roles in prop::collection::vec(NASTY, 1..5),
        task in NASTY,
        mode in 0usize..3,
    ) {
        let mut b = Plan::builder(ContextId::new(), "T", "o");
        let mut prev = None;
        for role in &roles {
            let mut spec = StepSpec::new(format!("{task} {role}")).role(role.clone());
            if let Some(p) = prev {
                spec = spec.after(p);
            }
            prev = Some(b.add(spec));
        }
        let plan = b.build();
        prop_assume!(plan.is_ok());
        let plan = plan.unwrap();
        let mode = [CollabMode::RoundRobin, CollabMode::Broadcast, CollabMode::Orchestrated][mode];
        let mut sink = MemorySink::new();
        let config = SimConfig::new(mode, roles.len().max(2), 6).with_plan(plan);
        let ran = simulate(&config, &mut sink);
        prop_assert!(ran.is_ok(), "{:?}", ran.err());
        let svg = mplp_collab::render::svg_sequence(&sink.events);
        let doc = roxmltree::Document::parse(&svg)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{svg}")))?;
        let (headers, messages, tasks) = expected_of(&sink.events);
        let found: BTreeSet<String> = with_class(&doc, "g", "lifeline")
            .map(|n| lines(n).concat())
            .collect();
        prop_assert_eq!(with_class(&doc, "g", "lifeline").count(), headers.len());
        prop_assert_eq!(found, headers);
        let drawn: Vec<_> = with_class(&doc, "g", "message").collect();
        prop_assert_eq!(drawn.len(), messages);
        let texts: Vec<String> = drawn
            .iter()
            .map(|n| lines(*n).concat())
            .filter(|t| t.starts_with("turn ") && t.contains(": "))
            .collect();
        prop_assert_eq!(texts.len(), tasks.len());
        // The full text of each arrow is its tooltip.
        let titles: Vec<String> = drawn
            .iter()
            .filter_map(|n| n.children().find(|c| c.has_tag_name("title")).and_then(|t| t.text()).map(str::to_owned))
            .filter(|t| t.starts_with("turn ") && t.contains(": "))
            .collect();
        prop_assert_eq!(titles, tasks);
        check_arrows(&doc)?;
    }
}

/// The SVG's `viewBox` size and the size of the box around everything it
/// draws (shapes, paths, and texts at 7.2 px a character).
fn sizes(doc: &roxmltree::Document<'_>) -> (f64, f64, f64, f64) {
    let nums = |s: &str| -> Vec<f64> {
        s.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
            .filter_map(|t| t.parse().ok())
            .collect()
    };
    let root = doc.root_element();
    let view = nums(root.attribute("viewBox").unwrap());
    let mut pts: Vec<(f64, f64)> = Vec::new();
    for n in doc.descendants() {
        if n.ancestors().any(|a| a.has_tag_name("defs")) {
            continue;
        }
        let f = |k: &str| {
            n.attribute(k)
                .and_then(|v| v.parse::<f64>().ok())
                .unwrap_or(0.0)
        };
        match n.tag_name().name() {
            "rect" if n.attribute("class") != Some("background") => {
                pts.push((f("x"), f("y")));
                pts.push((f("x") + f("width"), f("y") + f("height")));
            }
            "polygon" => {
                let a = nums(n.attribute("points").unwrap());
                pts.extend(a.chunks(2).map(|c| (c[0], c[1])));
            }
            "path" => {
                let a = nums(n.attribute("d").unwrap());
                pts.extend(a.chunks(2).filter(|c| c.len() == 2).map(|c| (c[0], c[1])));
            }
            "text" => {
                let w = lines(n)
                    .iter()
                    .map(|l| l.chars().count())
                    .max()
                    .unwrap_or(0) as f64
                    * 7.2;
                let x = match n.attribute("text-anchor") {
                    Some("middle") => f("x") - w / 2.0,
                    Some("end") => f("x") - w,
                    _ => f("x"),
                };
                pts.push((x, f("y") - 12.0));
                pts.push((x + w, f("y")));
            }
            _ => {}
        }
    }
    let (min_x, max_x) = pts
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (min_y, max_y) = pts
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    (view[2], view[3], max_x - min_x, max_y - min_y)
}

/// The edges of the cycle the plan's rules report (`(/steps/i)` in its
/// message, each step depending on the one before it) and the
/// self-dependencies, as `(dependency, step)` indices.
fn reported_cycle(plan: &Plan) -> BTreeSet<(String, String)> {
    let report = Plan::validate_value(&plan.to_value()).report;
    let mut out = BTreeSet::new();
    for v in report.violations() {
        let steps: Vec<String> = v
            .message
            .split("(/steps/")
            .skip(1)
            .map(|t| t.split(')').next().unwrap().to_owned())
            .collect();
        if v.rule.as_str() == "sa_plan_dag_acyclic" {
            for k in 0..steps.len() {
                out.insert((
                    steps[(k + steps.len() - 1) % steps.len()].clone(),
                    steps[k].clone(),
                ));
            }
        }
    }
    for (i, step) in plan.steps().iter().enumerate() {
        if step.dependency_ids().contains(&step.step_id) {
            out.insert((i.to_string(), i.to_string()));
        }
    }
    out
}

/// The arrows of a session picture: no label crosses a lifeline, and each
/// completion goes back to the lifeline its turn came from.
fn check_arrows(doc: &roxmltree::Document<'_>) -> Result<(), TestCaseError> {
    let lifelines: Vec<f64> = with_class(doc, "g", "lifeline")
        .filter_map(|g| g.children().find(|c| c.has_tag_name("line")))
        .map(|l| l.attribute("x1").unwrap().parse().unwrap())
        .collect();
    let mut calls: Vec<(String, String, String)> = Vec::new();
    for m in with_class(doc, "g", "message") {
        let text = m.children().find(|c| c.has_tag_name("text")).unwrap();
        let label = text.text().unwrap_or("");
        let w = label.chars().count() as f64 * 7.2;
        let x: f64 = text.attribute("x").unwrap().parse().unwrap();
        let (a, b) = match text.attribute("text-anchor") {
            Some("end") => (x - w, x),
            _ => (x, x + w),
        };
        for &l in &lifelines {
            prop_assert!(
                !(a < l && l < b),
                "label {:?} ({}..{}) crosses the lifeline at {}",
                label,
                a,
                b,
                l
            );
        }
        let from = m.attribute("data-from").unwrap().to_owned();
        let to = m.attribute("data-to").unwrap().to_owned();
        let title = m
            .children()
            .find(|c| c.has_tag_name("title"))
            .and_then(|t| t.text())
            .unwrap_or("")
            .to_owned();
        let turn = title.split([' ', ':']).nth(1).unwrap_or("").to_owned();
        match m.attribute("data-style") {
            Some("call") => calls.push((turn, from, to)),
            Some("reply") => {
                // The last call of this turn to the role that replies.
                let call = calls
                    .iter()
                    .rev()
                    .find(|(t, _, callee)| *t == turn && *callee == from);
                if let Some((_, caller, _)) = call {
                    prop_assert_eq!(&to, caller, "turn {} completed back to {}", turn, to);
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// From the events alone: the lifeline headers, the number of arrows, and
/// the text of each dispatched turn with a task.
fn expected_of(events: &[MapEvent]) -> (BTreeSet<String>, usize, Vec<String>) {
    let mut headers = BTreeSet::from(["session".to_owned()]);
    let mut assigned = BTreeSet::new();
    let mut messages = 0;
    let mut tasks = Vec::new();
    for e in events {
        match &e.payload {
            MapPayload::RolesAssigned(p) => {
                for a in &p.assignments {
                    if assigned.insert(a.role_id.clone()) {
                        headers.insert(shown(&format!("{} ({})", a.role_id, a.participant_id)));
                    }
                }
            }
            MapPayload::TurnDispatched(p) => {
                messages += 1;
                if let Some(t) = &p.task {
                    tasks.push(shown(&format!("turn {}: {t}", p.turn_number)));
                }
            }
            MapPayload::TurnCompleted(_) => messages += 1,
            MapPayload::BroadcastSent(_) => messages += e.target_roles.iter().flatten().count(),
            MapPayload::BroadcastReceived(Some(_)) => messages += 1,
            _ => {}
        }
    }
    (headers, messages, tasks)
}

#[test]
fn an_invalid_plan_svg_marks_its_cycle_and_missing_steps() {
    let steps = vec![
        ("a".to_owned(), None, 0, BTreeSet::from([2])),
        ("b".to_owned(), None, 1, BTreeSet::from([0, 1])),
        (
            "c".to_owned(),
            Some("reviewer".to_owned()),
            2,
            BTreeSet::from([1, 7]),
        ),
    ];
    let (plan, _) = plan_with("Broken", &steps).unwrap();
    let svg = render::svg(&plan);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    // a <- c <- b <- a is a cycle, and b depends on itself: 4 red edges.
    assert_eq!(with_class(&doc, "path", "edge cycle").count(), 4, "{svg}");
    assert_eq!(with_class(&doc, "path", "edge missing").count(), 1);
    assert_eq!(with_class(&doc, "path", "edge").count(), 0);
    // The cycle is drawn top to bottom, so one of its edges points up
    // (ends above where it starts).
    assert!(
        with_class(&doc, "path", "edge cycle").any(|e| {
            let d: Vec<f64> = e
                .attribute("d")
                .unwrap()
                .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
                .filter_map(|t| t.parse().ok())
                .collect();
            e.attribute("data-from") != e.attribute("data-to") && d[d.len() - 1] < d[1]
        }),
        "{svg}"
    );
    let legend = with_class(&doc, "g", "legend").next().unwrap();
    let legend_text: Vec<String> = legend
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").to_owned())
        .collect();
    assert!(
        legend_text
            .iter()
            .any(|t| t == "red edge: the cycle reported"),
        "{legend_text:?}"
    );
    assert!(
        legend_text.iter().any(|t| t == "dashed: missing step"),
        "{legend_text:?}"
    );
    assert!(
        legend_text.iter().any(|t| t == "blocked: hexagon"),
        "{legend_text:?}"
    );
    let statuses: BTreeSet<&str> = with_class(&doc, "g", "step")
        .filter_map(|n| n.attribute("data-status"))
        .collect();
    assert_eq!(
        statuses,
        BTreeSet::from(["in_progress", "pending", "completed"])
    );
}

#[test]
fn plan_render_svg_draws_every_example_and_an_invalid_plan() {
    let dir = repo().join("schemas/examples/valid");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if !name.starts_with("plan-") {
            continue;
        }
        let path = format!("schemas/examples/valid/{name}");
        let o = mplp(&["plan", "render", "--format", "svg", &path]);
        assert_eq!(o.status.code(), Some(0), "{name}");
        let svg = out(&o);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let plan = Plan::from_json(std::fs::read(dir.join(&name)).unwrap()).unwrap();
        assert_eq!(
            with_class(&doc, "g", "step").count(),
            plan.steps().len(),
            "{name}"
        );
        seen += 1;
    }
    assert!(seen >= 3);
    // A plan with a cycle: drawn, reported, exit 1.
    let (plan, _) = plan_with(
        "Cycle",
        &[
            ("a".to_owned(), None, 0, BTreeSet::from([1])),
            ("b".to_owned(), None, 0, BTreeSet::from([0])),
        ],
    )
    .unwrap();
    let json = serde_json::to_vec(&plan.to_value()).unwrap();
    let o = mplp_stdin(&["plan", "render", "--format", "svg", "-"], &json);
    assert_eq!(o.status.code(), Some(1));
    let doc = roxmltree::Document::parse(&out(&o))
        .unwrap()
        .descendants()
        .count();
    assert!(doc > 10);
    assert!(out(&o).contains("edge cycle"));
}

#[test]
fn collab_render_svg_draws_a_simulated_session() {
    let sim = mplp(&[
        "collab",
        "simulate",
        "--mode",
        "broadcast",
        "--participants",
        "3",
        "--turns",
        "2",
    ]);
    assert_eq!(sim.status.code(), Some(0));
    let o = mplp_stdin(&["collab", "render", "--format", "svg", "-"], &sim.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let svg = out(&o);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let events: Vec<MapEvent> = out(&sim)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (headers, messages, _) = expected_of(&events);
    assert_eq!(with_class(&doc, "g", "lifeline").count(), headers.len());
    assert_eq!(with_class(&doc, "g", "message").count(), messages);
    assert!(messages > 4);
    let styles: BTreeSet<&str> = with_class(&doc, "g", "message")
        .filter_map(|n| n.attribute("data-style"))
        .collect();
    assert!(
        styles.contains("async") && styles.contains("async-reply"),
        "{styles:?}"
    );
    assert!(with_class(&doc, "g", "note").count() >= 2);
}

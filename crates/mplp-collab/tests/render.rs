//! The session diagram: any role id and any task text stays safe Mermaid.
#![allow(clippy::unwrap_used, clippy::panic)] // test code: a failed unwrap is a failed test

use mplp_collab::render::mermaid_sequence;
use mplp_collab::simulate::{SimConfig, simulate};
use mplp_collab::sink::MemorySink;
use mplp_core::{CollabMode, ContextId};
use mplp_plan::{Plan, StepSpec};
use proptest::prelude::*;

/// Checks the shape of every line: declarations, arrows between declared
/// ids, and notes, with no text that could end a statement or start a
/// directive. Returns the labels of the declared lifelines.
fn check_lines(diagram: &str) -> Vec<String> {
    let mut lines = diagram.lines();
    assert_eq!(lines.next(), Some("sequenceDiagram"));
    let title = lines.next().unwrap_or_default();
    assert!(title.starts_with("  title MAP session "), "{title}");
    assert!(
        !title.contains([';', ':', '"', '%', '<', '>', '#']),
        "{title}"
    );
    let mut ids = vec!["session".to_owned()];
    let mut labels = Vec::new();
    for line in lines {
        let line = line
            .strip_prefix("  ")
            .unwrap_or_else(|| panic!("{line:?}"));
        if line == "participant session" {
            continue;
        }
        if let Some(rest) = line.strip_prefix("participant ") {
            let (id, label) = rest.split_once(" as ").unwrap_or_else(|| panic!("{line}"));
            assert!(
                id.starts_with('r') && id[1..].parse::<usize>().is_ok(),
                "{line}"
            );
            assert!(
                !label.contains([';', ':', '"', '%', '<', '>', '#']),
                "{line}"
            );
            ids.push(id.to_owned());
            labels.push(label.to_owned());
            continue;
        }
        let note = line.strip_prefix("Note over session: ").or_else(|| {
            // A finding's mark, right of a declared lifeline.
            let rest = line.strip_prefix("Note right of ")?;
            let (at, note) = rest.split_once(": ")?;
            assert!(ids.iter().any(|i| i == at), "undeclared {at} in {line}");
            Some(note)
        });
        if let Some(note) = note {
            assert!(
                !strip_entities(note).contains([';', ':', '"', '%', '#']),
                "{line}"
            );
            continue;
        }
        let (arrow, message) = line.split_once(": ").unwrap_or_else(|| panic!("{line}"));
        // A message runs to the end of the line (a second `:` is text);
        // `;` and `#` would end it, `%%` start a directive.
        assert!(
            !strip_entities(message).contains([';', '"', '%', '#']),
            "{line}"
        );
        let (from, to) = ["-->>", "->>", "--)", "-)"]
            .iter()
            .find_map(|a| arrow.split_once(a))
            .unwrap_or_else(|| panic!("{line}"));
        assert!(ids.iter().any(|i| i == from), "undeclared {from} in {line}");
        assert!(ids.iter().any(|i| i == to), "undeclared {to} in {line}");
    }
    labels
}

/// The text without its Mermaid entity codes (`#quot;`, `#59;`).
fn strip_entities(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('#') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        match after.find(';') {
            Some(j) if j > 0 && after[..j].chars().all(|c| c.is_ascii_alphanumeric()) => {
                rest = &after[j + 1..];
            }
            _ => {
                out.push('#');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Role ids that break naive Mermaid: keywords, separators, markup.
const HOSTILE: &[&str] = &[
    "end",
    "loop",
    "note",
    "alt",
    "opt",
    "par",
    "rect",
    "activate",
    "a;b",
    "x:y",
    "say \"hi\"",
    "%%{init}%%",
    "<b>",
    "a b",
    "#1",
    "participant",
];

fn session_with_roles(roles: &[String], task: &str) -> String {
    let mut b = Plan::builder(ContextId::new(), "T", "o");
    let mut prev = None;
    for role in roles {
        let mut spec = StepSpec::new(format!("{task} {role}")).role(role.clone());
        if let Some(p) = prev {
            spec = spec.after(p);
        }
        prev = Some(b.add(spec));
    }
    let plan = b.build().unwrap();
    let mut sink = MemorySink::new();
    let config = SimConfig::new(CollabMode::RoundRobin, roles.len().max(2), 8).with_plan(plan);
    simulate(&config, &mut sink).unwrap();
    mermaid_sequence(&sink.events)
}

#[test]
fn keywords_as_role_ids_are_safe() {
    let roles: Vec<String> = HOSTILE.iter().map(|s| (*s).to_owned()).collect();
    let diagram = session_with_roles(&roles, "do; #it");
    let labels = check_lines(&diagram);
    // Every role is a lifeline, shown under its (escaped) name.
    assert!(labels.iter().any(|l| l.starts_with("end")), "{diagram}");
    assert!(
        labels.iter().any(|l| l.starts_with("say _hi_")),
        "{diagram}"
    );
    assert!(labels.iter().any(|l| l.starts_with("a_b")), "{diagram}");
    // The task text keeps its characters, as entity codes.
    assert!(diagram.contains("do#59; #35;it"), "{diagram}");
    assert!(!diagram.contains("participant end"), "{diagram}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_role_id_gives_well_formed_lines(
        roles in proptest::collection::vec(
            prop_oneof![
                proptest::sample::select(HOSTILE).prop_map(str::to_owned),
                "[a-z;:#%\"<> ]{1,10}",
            ],
            1..5,
        )
    ) {
        let mut roles = roles;
        roles.retain(|r| !r.trim().is_empty());
        roles.sort();
        roles.dedup();
        prop_assume!(!roles.is_empty());
        let diagram = session_with_roles(&roles, "task");
        let labels = check_lines(&diagram);
        prop_assert!(!labels.is_empty());
    }
}

/// The broadcast example's events, with `edit` applied to each line's JSON.
fn broadcast_log(edit: impl Fn(&mut serde_json::Value)) -> Vec<mplp_events::MapEvent> {
    include_str!("../../../schemas/examples/valid/map-log-broadcast.ndjson")
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            edit(&mut v);
            serde_json::from_value(v).unwrap()
        })
        .collect()
}

#[test]
fn answers_go_back_to_the_sender_and_the_title_counts_what_is_observed() {
    let events = broadcast_log(|_| {});
    let diagram = mermaid_sequence(&events);
    check_lines(&diagram);
    // release-manager (r0) broadcasts; each answer comes back to it.
    assert!(diagram.contains("r0-)r1: broadcast"), "{diagram}");
    assert!(diagram.contains("r1--)r0: answer"), "{diagram}");
    assert!(diagram.contains("r2--)r0: answer"), "{diagram}");
    assert!(!diagram.contains("--)session"), "{diagram}");
    assert!(
        diagram.contains("title MAP session e00ce8b2-079d-49a5-be88-13fa8ea8d1e2 (broadcast)"),
        "{diagram}"
    );
    assert!(diagram.contains("1 broadcast, 2 answers"), "{diagram}");
    assert!(diagram.contains("Legend"), "{diagram}");
}

#[test]
fn the_end_note_does_not_repeat_a_false_total() {
    let events = broadcast_log(|v| {
        if v["event_type"] == "MAPSessionCompleted" {
            v["payload"]["turns_total"] = 5.into();
        }
    });
    let svg = mplp_collab::render::svg_sequence(&events);
    assert!(
        svg.contains("0 turns completed (observed) (the log claims 5)"),
        "{svg}"
    );
    assert!(!svg.contains("after 5 turns"), "{svg}");
    assert!(
        svg.contains("observed 3 roles, 0 turns dispatched, 0 completed"),
        "{svg}"
    );
}

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

// ---------------------------------------------------------------------
// The pictures' exact text and geometry. Every value below follows from
// the layout: a margin of 20 px, columns of 170 px (wider for a long
// lifeline name, at most 360), rows of 36 px starting at y = 198 (title,
// legend of 58 px at y = 66, lifeline heads of 34 px), 7.2 px per
// character.

const S: &str = "e00ce8b2-079d-49a5-be88-13fa8ea8d1e2";

/// A MAP event of session `S` from its type and the members to add
/// (`payload`, `initiator_role`, `target_roles`).
fn ev(event_type: &str, members: serde_json::Value) -> mplp_events::MapEvent {
    let mut v = serde_json::json!({
        "event_id": "83ef7668-6f62-4ab7-b64b-eece4d107b64",
        "event_type": event_type,
        "timestamp": "2025-12-07T00:00:00.000Z",
        "session_id": S,
    });
    for (k, x) in members.as_object().unwrap() {
        v[k] = x.clone();
    }
    serde_json::from_value(v).unwrap()
}

fn lines(events: Vec<mplp_events::MapEvent>) -> Vec<(u64, mplp_events::MapEvent)> {
    (1u64..).zip(events).collect()
}

/// The first `<g class="message" ...>...</g>` whose title is `title`.
fn message<'a>(svg: &'a str, title: &str) -> &'a str {
    let at = svg
        .find(&format!("<title>{title}</title>"))
        .unwrap_or_else(|| panic!("no message {title:?} in {svg}"));
    let start = svg[..at].rfind("<g class=\"message\"").unwrap();
    let end = at + svg[at..].find("</g>").unwrap() + 4;
    &svg[start..end]
}

/// The size the `<svg>` element states.
fn size(svg: &str) -> (String, String) {
    let attr = |name: &str| {
        let from = svg.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        svg[from..from + svg[from..].find('"').unwrap()].to_owned()
    };
    (attr("width"), attr("height"))
}

#[test]
fn the_broadcast_example_as_mermaid_line_by_line() {
    let diagram = mermaid_sequence(&broadcast_log(|_| {}));
    let expected = format!(
        "sequenceDiagram
  title MAP session {S} (broadcast) · observed 3 roles, 0 turns dispatched, 0 completed, 1 broadcast, 2 answers, 1 conflict
  participant session
  Note over session: Legend<br/>solid line = request, dashed = answer<br/>filled head = turn, open head = broadcast<br/>⚠ = a finding of the check, with its rule
  Note over session: started (broadcast, 3 participants announced)
  participant r0 as release-manager (agent-release-manager)
  participant r1 as security-reviewer (agent-security)
  participant r2 as perf-reviewer (agent-perf)
  r0-)r1: broadcast
  r0-)r2: broadcast
  r1--)r0: answer
  r2--)r0: answer
  Note over session: conflict on release/0.4.0-rc.2/decision
  Note over session: resolved (owner_decides) winner perf-reviewer
  Note over session: ended (completed), 0 turns completed (observed)
"
    );
    assert_eq!(diagram, expected);
}

#[test]
fn the_round_robin_example_counts_its_turns_and_agrees_with_its_total() {
    let events: Vec<mplp_events::MapEvent> =
        include_str!("../../../schemas/examples/valid/map-log-round-robin.ndjson")
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
    let diagram = mermaid_sequence(&events);
    let title = diagram.lines().nth(1).unwrap();
    assert_eq!(
        title,
        "  title MAP session 35e68fcd-928b-41d2-b8ee-b6a4232ea2a3 (round_robin) · observed 3 roles, 6 turns dispatched, 6 completed, 0 broadcasts, 0 answers, 0 conflicts"
    );
    // No role dispatched the turns: they come from `session` and go back.
    assert!(diagram.contains("\n  session->>r0: turn 1\n  r0-->>session: turn 1 completed\n"));
    assert!(diagram.contains("\n  session->>r2: turn 6\n  r2-->>session: turn 6 completed\n"));
    // The log's total (6) is what was observed: nothing to contradict.
    assert!(
        diagram.ends_with("  Note over session: ended (completed), 6 turns completed (observed)\n"),
        "{diagram}"
    );
    let svg = mplp_collab::render::svg_sequence(&events);
    assert!(svg.contains(">ended (completed), 6 turns completed (observed)</text>"));
    assert!(!svg.contains("claims"), "{svg}");
}

/// A log with findings on a declaration-only event (line 2), on an event
/// whose first row declares a new lifeline (line 3, two findings), on a
/// line between events (5), after the last event (9), and on the whole log.
fn checked_log() -> (Vec<(u64, mplp_events::MapEvent)>, Vec<mplp_core::Violation>) {
    use mplp_core::{Rule, Violation};
    use serde_json::json;
    let events = vec![
        (
            1,
            ev(
                "MAPSessionStarted",
                json!({"payload": {"mode": "broadcast", "participant_count": 2}}),
            ),
        ),
        (
            2,
            ev(
                "MAPRolesAssigned",
                json!({"payload": {"assignments": [{"participant_id": "p-lead", "role_id": "lead"}]}}),
            ),
        ),
        (
            3,
            ev(
                "MAPTurnDispatched",
                json!({"initiator_role": "lead", "payload": {"role_id": "new", "turn_number": 1}}),
            ),
        ),
        (
            4,
            ev(
                "MAPBroadcastSent",
                json!({"initiator_role": "lead", "target_roles": ["new"], "payload": {"broadcast_id": "b1"}}),
            ),
        ),
        (
            6,
            ev(
                "MAPBroadcastReceived",
                json!({"payload": {"receiver_role_id": "new", "broadcast_id": "b1"}}),
            ),
        ),
        (
            7,
            ev(
                "MAPSessionCompleted",
                json!({"payload": {"status": "completed", "turns_total": 3}}),
            ),
        ),
    ];
    let findings = vec![
        Violation::warning("", Rule::new("rule_w"), "w").at_line(2),
        Violation::error("", Rule::new("rule_a"), "a").at_line(3),
        Violation::warning("", Rule::new("rule_b"), "b").at_line(3),
        Violation::error("", Rule::new("rule_gap"), "g").at_line(5),
        Violation::warning("", Rule::new("rule_after"), "f").at_line(9),
        Violation::error("", Rule::new("rule_log"), "l"),
    ];
    (events, findings)
}

#[test]
fn findings_are_marked_where_they_point_in_mermaid() {
    let (events, findings) = checked_log();
    let diagram = mplp_collab::render::mermaid_sequence_checked(&events, &findings);
    check_lines(&diagram);
    let body: Vec<&str> = diagram.lines().skip(4).collect();
    assert_eq!(
        body,
        [
            "  Note over session: started (broadcast, 2 participants announced)",
            "  participant r0 as lead (p-lead)",
            // Line 2 draws no arrow: it gets a row of its own.
            "  Note over session: line 2, MAPRolesAssigned",
            "  Note right of session: ⚠ line 2 warning rule_w",
            "  participant r1 as new",
            // The mark goes with the arrow, beside its sender.
            "  r0->>r1: turn 1",
            "  Note right of r0: ⚠ line 3 error rule_a, warning rule_b",
            "  r0-)r1: broadcast",
            "  Note over session: line 5, not drawn (no MAP event read)",
            "  Note right of session: ⚠ line 5 error rule_gap",
            "  r1--)r0: answer",
            "  Note over session: ended (completed), 0 turns completed (observed) (the log claims 3)",
            "  Note over session: line 9, not drawn (no MAP event read)",
            "  Note right of session: ⚠ line 9 warning rule_after",
            "  Note over session: the whole log",
            "  Note right of session: ⚠ the log error rule_log",
        ],
        "{diagram}"
    );
    assert!(
        diagram.lines().nth(1).unwrap().ends_with(
            "(broadcast) · observed 2 roles, 1 turn dispatched, 0 completed, 1 broadcast, 1 answer, 0 conflicts"
        ),
        "{diagram}"
    );
    // Without findings, nothing is marked and no row is added.
    let plain = mplp_collab::render::mermaid_sequence_checked(&events, &[]);
    assert!(!plain.contains("Note right of"), "{plain}");
    assert!(!plain.contains("the whole log"), "{plain}");
    assert!(!plain.contains("line 2,"), "{plain}");
}

#[test]
fn findings_are_marked_where_they_point_in_svg() {
    let (events, findings) = checked_log();
    let svg = mplp_collab::render::svg_sequence_checked(&events, &findings);
    // Five marked rows, in the log's order, red when one finding is an
    // error, orange for warnings only.
    let groups: Vec<&str> = svg
        .match_indices("<g class=\"finding\"")
        .map(|(i, _)| &svg[i..i + svg[i..].find("</g>").unwrap()])
        .collect();
    let summary: Vec<(&str, &str)> = groups
        .iter()
        .map(|g| {
            let head = &g[..g.find('>').unwrap()];
            let fill = &g[g.find("fill=\"").unwrap() + 6..];
            (head, &fill[..7])
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                r##"<g class="finding" data-line="2" data-rules="rule_w""##,
                "#fff3e0"
            ),
            (
                r##"<g class="finding" data-line="3" data-rules="rule_a rule_b""##,
                "#ffebee"
            ),
            (
                r##"<g class="finding" data-line="5" data-rules="rule_gap""##,
                "#ffebee"
            ),
            (
                r##"<g class="finding" data-line="9" data-rules="rule_after""##,
                "#fff3e0"
            ),
            (
                r##"<g class="finding" data-line="" data-rules="rule_log""##,
                "#ffebee"
            ),
        ],
        "{svg}"
    );
    // Three lanes of 170 px; the marks column is as wide as the longest
    // mark ("⚠ line 3 error rule_a, warning rule_b", 37 characters) + 16.
    // The tint spans both; the picture is the margins wider.
    assert!(
        groups[0].contains(
            r##"<rect x="20" y="234.0" width="792.4" height="36" fill="#fff3e0" stroke="#e65100" stroke-width="0.8"/><text x="538.0" y="256.5" fill="#e65100" font-weight="bold">⚠ line 2 warning rule_w</text>"##
        ),
        "{}",
        groups[0]
    );
    assert!(groups[1].contains(">⚠ line 3 error rule_a, warning rule_b</text>"));
    assert!(groups[4].contains(">⚠ the log error rule_log</text>"));
    assert_eq!(size(&svg).0, "832");
    // The row of line 2 is the note the event gets.
    assert!(svg.contains(">line 2, MAPRolesAssigned</text>"), "{svg}");
    // Without findings: no tint, and the picture is the 800-px minimum.
    let plain = mplp_collab::render::svg_sequence_checked(&events, &[]);
    assert!(!plain.contains("class=\"finding\""), "{plain}");
    assert_eq!(size(&plain).0, "800");
}

#[test]
fn the_svg_geometry_of_a_small_session() {
    use serde_json::json;
    let events = lines(vec![
        ev(
            "MAPSessionStarted",
            json!({"payload": {"mode": "round_robin", "participant_count": 2}}),
        ),
        ev(
            "MAPRolesAssigned",
            json!({"payload": {"assignments": [{"participant_id": "pa", "role_id": "a"}]}}),
        ),
        ev(
            "MAPTurnDispatched",
            json!({"payload": {"role_id": "a", "turn_number": 1}}),
        ),
        ev(
            "MAPTurnCompleted",
            json!({"payload": {"role_id": "a", "turn_number": 1, "status": "completed"}}),
        ),
        ev(
            "MAPSessionCompleted",
            json!({"payload": {"status": "completed", "turns_total": 1}}),
        ),
    ]);
    let svg = mplp_collab::render::svg_sequence_checked(&events, &[]);
    // 4 rows (2 notes, 2 arrows): 198 + 4 × 36 + 10 = 352 to the lifelines'
    // end, + 20 of margin.
    assert_eq!(size(&svg), ("800".to_owned(), "372".to_owned()));
    assert!(svg.contains(&format!(
        r##"<text class="title" x="20" y="30" font-size="18" font-weight="bold">MAP session {S} (round_robin)</text><text class="counts" x="20" y="52" fill="#424242">observed 1 role, 1 turn dispatched, 1 completed, 0 broadcasts, 0 answers, 0 conflicts</text>"##
    )));
    // The legend: two columns of samples, 370 px apart, rows 22 px apart.
    for (d, head, text_at) in [
        (
            r##"M 30.0 84.0 L 70.0 84.0" stroke="#424242" stroke-width="1.5""##,
            "head",
            r##"x="78.0" y="88.0""##,
        ),
        (
            r##"M 400.0 84.0 L 440.0 84.0" stroke="#424242" stroke-width="1.5" stroke-dasharray="6 4""##,
            "head",
            r##"x="448.0" y="88.0""##,
        ),
        (
            r##"M 30.0 106.0 L 70.0 106.0" stroke="#424242" stroke-width="1.5""##,
            "head-open",
            r##"x="78.0" y="110.0""##,
        ),
        (
            r##"M 400.0 106.0 L 440.0 106.0" stroke="#424242" stroke-width="1.5" stroke-dasharray="6 4""##,
            "head-open",
            r##"x="448.0" y="110.0""##,
        ),
    ] {
        let sample =
            format!(r##"<path d="{d} marker-end="url(#{head})"/><text {text_at} font-size="12">"##);
        assert!(svg.contains(&sample), "{sample}\n{svg}");
    }
    // Lifelines at the middle of their columns: x = 20 + 85 + i × 170,
    // heads at y = 140, lines from 174 to 352.
    assert!(svg.contains(
        r##"<g class="lifeline"><line x1="105.0" y1="174.0" x2="105.0" y2="352.0" stroke="#9e9e9e" stroke-dasharray="5 4"/><rect x="28.0" y="140.0" width="154.0" height="34" rx="4" fill="#e3f2fd" stroke="#1565c0"/><text x="105.0" y="161.5" text-anchor="middle">session</text></g>"##
    ), "{svg}");
    assert!(
        svg.contains(r##"<line x1="275.0" y1="174.0" x2="275.0" y2="352.0""##),
        "{svg}"
    );
    assert!(
        svg.contains(r##"<text x="275.0" y="161.5" text-anchor="middle">a (pa)</text>"##),
        "{svg}"
    );
    // Row n at y = 216 + 36 n. Row 0: the start note.
    assert!(
        svg.contains(r##"y="204.0" width="358.4" height="24""##),
        "{svg}"
    );
    assert!(svg.contains(r##"<text x="183.2" y="220.5" text-anchor="middle">started (round_robin, 2 participants announced)</text>"##), "{svg}");
    // Row 1: the turn, from session to `a`, its label after the sender.
    assert_eq!(
        message(&svg, "turn 1"),
        r##"<g class="message" data-style="call" data-from="105.0" data-to="275.0"><title>turn 1</title><path d="M 105.0 258.0 L 275.0 258.0" fill="none" stroke="#424242" stroke-width="1.5" marker-end="url(#head)"/><text x="113.0" y="250.0" text-anchor="start">turn 1</text></g>"##
    );
    // Row 2: its completion, back to the dispatcher, its label before `a`.
    assert_eq!(
        message(&svg, "turn 1 completed"),
        r##"<g class="message" data-style="reply" data-from="275.0" data-to="105.0"><title>turn 1 completed</title><path d="M 275.0 294.0 L 105.0 294.0" fill="none" stroke="#424242" stroke-width="1.5" stroke-dasharray="6 4" marker-end="url(#head)"/><text x="267.0" y="286.0" text-anchor="end">turn 1 completed</text></g>"##
    );
    // Row 3: the end note; the log's total agrees, so no claim.
    assert!(svg.contains(r##"y="328.5" text-anchor="middle">ended (completed), 1 turn completed (observed)</text>"##), "{svg}");
    assert!(!svg.contains("claims"), "{svg}");
}

#[test]
fn long_labels_are_cut_before_the_next_lifeline() {
    use serde_json::json;
    let t = "T".repeat(40);
    let u = "U".repeat(40);
    let v = "V".repeat(40);
    let events = lines(vec![
        ev(
            "MAPTurnDispatched",
            json!({"payload": {"role_id": "a", "turn_number": 1, "task": t}}),
        ),
        ev(
            "MAPTurnDispatched",
            json!({"initiator_role": "b", "payload": {"role_id": "a", "turn_number": 2, "task": u}}),
        ),
        ev(
            "MAPTurnDispatched",
            json!({"initiator_role": "a", "payload": {"role_id": "a", "turn_number": 3, "task": v}}),
        ),
    ]);
    let svg = mplp_collab::render::svg_sequence_checked(&events, &[]);
    // Lifelines session, a, b at x = 105, 275, 445. A label has its
    // column less 16 px (154 px: 21 characters, the last one `…`); the
    // tooltip has the whole text.
    let right = message(&svg, &format!("turn 1: {t}"));
    assert!(
        right.contains(r##"data-from="105.0" data-to="275.0""##),
        "{right}"
    );
    assert!(
        right.contains(&format!(
            r##"<text x="113.0" y="214.0" text-anchor="start">turn 1: {}…</text>"##,
            &t[..12]
        )),
        "{right}"
    );
    let left = message(&svg, &format!("turn 2: {u}"));
    assert!(
        left.contains(r##"data-from="445.0" data-to="275.0""##),
        "{left}"
    );
    assert!(
        left.contains(&format!(
            r##"<text x="437.0" y="250.0" text-anchor="end">turn 2: {}…</text>"##,
            &u[..12]
        )),
        "{left}"
    );
    // A role's turn to itself: a loop right of its lifeline, the label
    // after the loop (its column less 44 px: 17 characters).
    let own = message(&svg, &format!("turn 3: {v}"));
    assert!(
        own.contains(r##"<path d="M 275.0 288.0 h 30 v 12 h -28""##),
        "{own}"
    );
    assert!(
        own.contains(&format!(
            r##"<text x="311.0" y="286.0" text-anchor="start">turn 3: {}…</text>"##,
            &v[..8]
        )),
        "{own}"
    );
}

#[test]
fn columns_fit_the_longest_lifeline_name_up_to_a_bound() {
    use serde_json::json;
    let assigned = |role: &str, participant: &str| {
        lines(vec![ev(
            "MAPRolesAssigned",
            json!({"payload": {"assignments": [{"participant_id": participant, "role_id": role}]}}),
        )])
    };
    // "reviewer-of-the-api (participant-x)": 35 characters, 252 px + 24:
    // columns of 276 px, lifelines at 20 + 138 and 20 + 138 + 276.
    let svg = mplp_collab::render::svg_sequence_checked(
        &assigned("reviewer-of-the-api", "participant-x"),
        &[],
    );
    assert!(
        svg.contains(r##"<line x1="158.0" y1="174.0" x2="158.0""##),
        "{svg}"
    );
    assert!(
        svg.contains(r##"<rect x="28.0" y="140.0" width="260.0""##),
        "{svg}"
    );
    assert!(svg.contains(r##"<text x="434.0" y="161.5" text-anchor="middle">reviewer-of-the-api (participant-x)</text>"##), "{svg}");
    // A 64-character name: the column stops at 360 px; the name is cut to
    // 46 characters (336 px), the last one `…`.
    let long = "r".repeat(60);
    let svg = mplp_collab::render::svg_sequence_checked(&assigned(&long, "p"), &[]);
    assert!(
        svg.contains(r##"<line x1="560.0" y1="174.0" x2="560.0""##),
        "{svg}"
    );
    assert!(
        svg.contains(&format!(
            r##"text-anchor="middle">{}…</text>"##,
            &long[..45]
        )),
        "{svg}"
    );
    // A short name is never cut.
    let svg = mplp_collab::render::svg_sequence_checked(&assigned("a", "b"), &[]);
    assert!(
        svg.contains(r##"text-anchor="middle">a (b)</text>"##),
        "{svg}"
    );
}

#[test]
fn the_picture_is_as_wide_as_its_widest_part() {
    use serde_json::json;
    let width = |events: Vec<mplp_events::MapEvent>| {
        let svg = mplp_collab::render::svg_sequence_checked(&lines(events), &[]);
        size(&svg).0
    };
    // A note: "conflict on " + 150 characters = 162 × 7.2 + 20, + 40.
    let resource = "x".repeat(150);
    assert_eq!(
        width(vec![ev(
            "MAPConflictDetected",
            json!({"payload": {"resource": resource}})
        )]),
        "1226"
    );
    // The title (its font is 1.4 times larger): 100 characters with the
    // five modes, 1008 px, + 40.
    let modes = ["broadcast", "round_robin", "orchestrated", "swarm", "pair"].map(|m| {
        ev(
            "MAPSessionStarted",
            json!({"payload": {"mode": m, "participant_count": 2}}),
        )
    });
    assert_eq!(width(modes.to_vec()), "1048");
    // The lanes: six of 170 px, + 40 (no findings, no marks column).
    let roles: Vec<serde_json::Value> = (0..5)
        .map(|i| json!({"participant_id": format!("p{i}"), "role_id": format!("r{i}")}))
        .collect();
    assert_eq!(
        width(vec![ev(
            "MAPRolesAssigned",
            json!({"payload": {"assignments": roles}})
        )]),
        "1060"
    );
}

#[test]
fn the_counts_line_of_a_long_log_fits_the_picture() {
    use serde_json::json;
    let dispatched = ev(
        "MAPTurnDispatched",
        json!({"payload": {"role_id": "a", "turn_number": 1}}),
    );
    let completed = ev(
        "MAPTurnCompleted",
        json!({"payload": {"role_id": "a", "turn_number": 1, "status": "completed"}}),
    );
    let sent = ev("MAPBroadcastSent", json!({"payload": {}}));
    let answer = ev("MAPBroadcastReceived", json!({"payload": {}}));
    let conflict = ev("MAPConflictDetected", json!({"payload": {}}));
    let mut events = Vec::new();
    for (e, n) in [
        (dispatched, 10_000),
        (completed, 10_000),
        (sent, 10_000),
        (answer, 10_000),
        (conflict, 10_000),
    ] {
        events.extend(std::iter::repeat_n(e, n));
    }
    let svg = mplp_collab::render::svg_sequence(&events);
    let counts = "observed 1 role, 10000 turns dispatched, 10000 completed, 10000 broadcasts, 10000 answers, 10000 conflicts";
    assert!(
        svg.contains(&format!("<desc>{counts}</desc>")),
        "{}",
        &svg[..400]
    );
    // 106 characters: wider than the title (66 × 7.2 × 1.4), the lanes
    // and the 760-px minimum.
    assert_eq!(counts.chars().count(), 106);
    assert_eq!(size(&svg).0, "803");
}

//! Sequence diagrams of MAP event logs: Mermaid ([`mermaid_sequence`]) and
//! SVG ([`svg_sequence`]), drawn from the same rows.
//!
//! What the pictures say, and how:
//! - **a title** with the session's id and mode, and the counts **observed**
//!   in the log (roles, turns dispatched and completed, broadcasts, answers,
//!   conflicts), not the totals the log's last event claims; the end note
//!   says the claim only to contradict it ("the log claims 5");
//! - **a legend**: a solid line is a request (a turn dispatched, a
//!   broadcast sent), a dashed line its answer; a filled head is a turn, an
//!   open head a broadcast;
//! - **arrows between the lifelines they concern**: a turn goes from the
//!   role that dispatched it (or `session` when no role did) to the role
//!   that takes it, its completion comes back to that dispatcher; a
//!   broadcast goes from its sender to each target, each answer back to the
//!   sender (found by `broadcast_id`, else the last broadcast);
//! - **findings** ([`svg_sequence_checked`], [`mermaid_sequence_checked`]:
//!   the violations of the log's validation, with their lines) marked at
//!   the events they point at, with their rule ids; a finding on a line
//!   that is not a drawable event gets a row of its own, at its place in
//!   the log.
//!
//! In the SVG, an arrow's label starts beside its sender and is cut (with
//! `…`, the whole text in a tooltip) before the next lifeline, so no label
//! crosses a lifeline.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write;

use mplp_core::text::{SVG_CHAR_WIDTH, one_line, svg_header, xml_escape};
use mplp_core::{Severity, Violation};
use mplp_events::{MapEvent, MapPayload};

/// Draws a log as a Mermaid `sequenceDiagram` (see the module docs): one
/// lifeline per role (plus `session`), one arrow per turn, broadcast and
/// answer, notes for the start, conflicts and the end. Every role is drawn
/// under a safe id (`r0`, `r1`, ...) with its name as the label, and every
/// text is escaped, so no role id or task text can break the diagram
/// (`end`, `loop`, `note`, quotes, `;`, `#`, `%%`).
///
/// ```
/// use mplp_collab::simulate::{simulate, SimConfig};
/// use mplp_collab::sink::MemorySink;
/// let mut sink = MemorySink::new();
/// simulate(&SimConfig::new(mplp_core::CollabMode::Pair, 2, 2), &mut sink)?;
/// let diagram = mplp_collab::render::mermaid_sequence(&sink.events);
/// assert!(diagram.starts_with("sequenceDiagram\n  title MAP session "));
/// assert!(diagram.contains("participant r0 as driver"));
/// assert!(diagram.contains("session->>r0: turn 1"));
/// assert!(diagram.contains("r0-->>session: turn 1 completed"));
/// # Ok::<(), mplp_collab::runtime::SessionError>(())
/// ```
pub fn mermaid_sequence(events: &[MapEvent]) -> String {
    mermaid_sequence_checked(&numbered(events), &[])
}

/// [`mermaid_sequence`] of events read at the given log lines, with the
/// `findings` (violations with a `line`, or without one for the whole log)
/// marked: a note `⚠ line N, error RULE` beside the event's arrow.
pub fn mermaid_sequence_checked(events: &[(u64, MapEvent)], findings: &[Violation]) -> String {
    let seq = Sequence::of(events, findings);
    let mut out = String::from("sequenceDiagram\n");
    let _ = writeln!(out, "  title {}", alias(&seq.title()));
    let _ = writeln!(out, "  participant session");
    let _ = writeln!(
        out,
        "  Note over session: Legend<br/>solid line = request, dashed = answer<br/>filled head = turn, open head = broadcast<br/>⚠ = a finding of the check, with its rule"
    );
    let id = |w: Who| match w {
        Who::Session => "session".to_owned(),
        Who::Role(i) => format!("r{i}"),
    };
    for row in &seq.rows {
        let _ = match &row.item {
            Item::Declare(i) => {
                let (role, participant) = &seq.lifelines[*i];
                let label = match participant {
                    Some(p) => format!("{} ({})", alias(role), alias(p)),
                    None => alias(role),
                };
                writeln!(out, "  participant r{i} as {label}")
            }
            Item::Note(t) => writeln!(out, "  Note over session: {}", t.mermaid()),
            Item::Message {
                from,
                to,
                style,
                text,
            } => {
                let arrow = match style {
                    Style::Call => "->>",
                    Style::Reply => "-->>",
                    Style::Async => "-)",
                    Style::AsyncReply => "--)",
                };
                writeln!(out, "  {}{arrow}{}: {}", id(*from), id(*to), text.mermaid())
            }
        };
        if !row.marks.is_empty() {
            let at = match &row.item {
                Item::Message { from, .. } => id(*from),
                _ => "session".to_owned(),
            };
            let _ = writeln!(out, "  Note right of {at}: {}", text(&row.mark_text()));
        }
    }
    out
}

/// The events with their line numbers, 1 to n.
fn numbered(events: &[MapEvent]) -> Vec<(u64, MapEvent)> {
    (1u64..).zip(events.iter().cloned()).collect()
}

/// Who a message or lifeline belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Who {
    /// The session itself (notes, messages without an initiator role).
    Session,
    /// The role at this index of [`Sequence::lifelines`].
    Role(usize),
}

/// The arrow of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    /// A turn dispatched (solid, filled head).
    Call,
    /// A turn completed (dashed, filled head).
    Reply,
    /// A broadcast sent (solid, open head).
    Async,
    /// A broadcast answered (dashed, open head).
    AsyncReply,
}

/// A piece of diagram text: written by the SDK (safe as it is), or taken
/// from the log (escaped for the diagram language).
#[derive(Clone, Debug)]
enum Seg {
    Fixed(String),
    Log(String),
}

/// A label made of pieces.
#[derive(Clone, Debug, Default)]
struct Text(Vec<Seg>);

impl Text {
    fn fixed(s: impl Into<String>) -> Self {
        Text(vec![Seg::Fixed(s.into())])
    }
    fn then(mut self, s: impl Into<String>) -> Self {
        self.0.push(Seg::Fixed(s.into()));
        self
    }
    fn log(mut self, s: &str) -> Self {
        self.0.push(Seg::Log(s.to_owned()));
        self
    }
    fn mermaid(&self) -> String {
        self.0
            .iter()
            .map(|s| match s {
                Seg::Fixed(f) => f.clone(),
                Seg::Log(l) => text(l),
            })
            .collect()
    }
    /// The plain text (for the SVG, which escapes it as a whole).
    fn plain(&self) -> String {
        self.0
            .iter()
            .map(|s| match s {
                Seg::Fixed(t) | Seg::Log(t) => t.as_str(),
            })
            .collect()
    }
}

/// One row of a sequence diagram.
#[derive(Clone, Debug)]
enum Item {
    /// A role's lifeline appears (first sight, or its assignment).
    Declare(usize),
    /// A note over the session.
    Note(Text),
    /// An arrow between two lifelines.
    Message {
        from: Who,
        to: Who,
        style: Style,
        text: Text,
    },
}

/// A row and the findings marked on it: `(line, severity, rule)`.
#[derive(Clone, Debug)]
struct Row {
    item: Item,
    marks: Vec<(Option<u64>, Severity, String)>,
}

impl Row {
    /// `⚠ line 7, error RULE; warning RULE`.
    fn mark_text(&self) -> String {
        let mut out = String::from("⚠");
        let mut last_line = None;
        for (n, (line, severity, rule)) in self.marks.iter().enumerate() {
            if n > 0 {
                out.push(',');
            }
            if *line != last_line || n == 0 {
                match line {
                    Some(l) => {
                        let _ = write!(out, " line {l}");
                    }
                    None => out.push_str(" the log"),
                }
                last_line = *line;
            }
            let _ = write!(out, " {severity} {rule}");
        }
        out
    }
}

/// What the log shows happened (not what it claims).
#[derive(Default)]
struct Observed {
    sessions: BTreeSet<String>,
    modes: BTreeSet<String>,
    dispatched: u64,
    completed: u64,
    broadcasts: u64,
    answers: u64,
    conflicts: u64,
}

/// What a log draws, independent of the diagram language: the lifelines
/// (role, participant) in order of first sight, and the rows.
#[derive(Default)]
struct Sequence {
    lifelines: Vec<(String, Option<String>)>,
    rows: Vec<Row>,
    observed: Observed,
}

impl Sequence {
    fn of(events: &[(u64, MapEvent)], findings: &[Violation]) -> Sequence {
        let mut seq = Sequence::default();
        // Findings by line; those without a line go at the end.
        let mut by_line: BTreeMap<u64, Vec<(Option<u64>, Severity, String)>> = BTreeMap::new();
        let mut whole = Vec::new();
        for v in findings {
            let mark = (v.line, v.severity, v.rule.as_str().to_owned());
            match v.line {
                Some(l) => by_line.entry(l).or_default().push(mark),
                None => whole.push(mark),
            }
        }
        // Who dispatched each (role, turn), who sent each broadcast.
        let mut dispatcher: HashMap<(String, u64), Who> = HashMap::new();
        let mut sender: HashMap<String, Who> = HashMap::new();
        let mut last_sender = Who::Session;
        for (line, e) in events {
            // Findings on lines before this event that are no event drawn.
            let before: Vec<u64> = by_line.range(..*line).map(|(l, _)| *l).collect();
            for l in before {
                if let Some(marks) = by_line.remove(&l) {
                    seq.rows.push(Row {
                        item: Item::Note(Text::fixed(format!(
                            "line {l}, not drawn (no MAP event read)"
                        ))),
                        marks,
                    });
                }
            }
            let first_row = seq.rows.len();
            seq.observed.sessions.insert(e.session_id.to_string());
            let from = match e.initiator_role.as_deref() {
                Some(role) => seq.id(role, None),
                None => Who::Session,
            };
            match &e.payload {
                MapPayload::SessionStarted(p) => {
                    seq.observed.modes.insert(p.mode.to_string());
                    seq.note(Text::fixed(format!(
                        "started ({}, {} announced)",
                        p.mode,
                        mplp_core::text::count(p.participant_count, "participant")
                    )));
                }
                MapPayload::RolesAssigned(p) => {
                    for a in &p.assignments {
                        seq.id(&a.role_id, Some(&a.participant_id));
                    }
                }
                MapPayload::TurnDispatched(p) => {
                    seq.observed.dispatched += 1;
                    let to = seq.id(&p.role_id, None);
                    dispatcher.insert((p.role_id.to_string(), p.turn_number), from);
                    let mut text = Text::fixed(format!("turn {}", p.turn_number));
                    if let Some(task) = p.task.as_deref() {
                        text = text.then(": ").log(task);
                    }
                    seq.message(from, to, Style::Call, text);
                }
                MapPayload::TurnCompleted(p) => {
                    seq.observed.completed += 1;
                    let who = seq.id(&p.role_id, None);
                    let back = dispatcher
                        .get(&(p.role_id.to_string(), p.turn_number))
                        .copied()
                        .unwrap_or(Who::Session);
                    let text =
                        Text::fixed(format!("turn {} ", p.turn_number)).log(p.status.as_str());
                    seq.message(who, back, Style::Reply, text);
                }
                MapPayload::BroadcastSent(p) => {
                    seq.observed.broadcasts += 1;
                    let p = p.as_ref();
                    let broadcaster = p.and_then(|p| p.broadcaster_role_id.as_deref());
                    let from = match (e.initiator_role.as_deref(), broadcaster) {
                        (Some(_), _) => from,
                        (None, Some(role)) => seq.id(role, None),
                        (None, None) => Who::Session,
                    };
                    if let Some(id) = p.and_then(|p| p.broadcast_id.as_deref()) {
                        sender.insert(id.to_owned(), from);
                    }
                    last_sender = from;
                    for t in e.target_roles.iter().flatten() {
                        let to = seq.id(t, None);
                        seq.message(from, to, Style::Async, Text::fixed("broadcast"));
                    }
                }
                MapPayload::BroadcastReceived(Some(p)) => {
                    seq.observed.answers += 1;
                    let who = match p.receiver_role_id.as_deref().or(p.receiver_role.as_deref()) {
                        Some(role) => seq.id(role, None),
                        None => from,
                    };
                    let back = p
                        .broadcast_link()
                        .and_then(|id| sender.get(id).copied())
                        .unwrap_or(last_sender);
                    seq.message(who, back, Style::AsyncReply, Text::fixed("answer"));
                }
                MapPayload::ConflictDetected(Some(p)) => {
                    seq.observed.conflicts += 1;
                    seq.note(Text::fixed("conflict on ").log(p.resource.as_deref().unwrap_or("?")));
                }
                MapPayload::ConflictResolved(Some(p)) => seq.note(
                    Text::fixed("resolved (")
                        .log(p.strategy.as_deref().unwrap_or("?"))
                        .then(") winner ")
                        .log(p.winner.as_deref().unwrap_or("?")),
                ),
                MapPayload::SessionCompleted(p) => {
                    let seen = seq.observed.completed;
                    let mut text = Text::fixed("ended (").log(&p.status).then(format!(
                        "), {} completed (observed)",
                        mplp_core::text::count(seen, "turn")
                    ));
                    if p.turns_total != seen {
                        text = text.then(format!(" (the log claims {})", p.turns_total));
                    }
                    seq.note(text);
                }
                _ => {}
            }
            let Some(marks) = by_line.remove(line) else {
                continue;
            };
            // The event's first row carries its findings; an event drawn
            // without a row gets one.
            match seq.rows[first_row..]
                .iter_mut()
                .find(|r| !matches!(r.item, Item::Declare(_)))
            {
                Some(row) => row.marks = marks,
                None => seq.rows.push(Row {
                    item: Item::Note(Text::fixed(format!(
                        "line {line}, {}",
                        e.event_type().as_str()
                    ))),
                    marks,
                }),
            }
        }
        for (l, marks) in std::mem::take(&mut by_line) {
            seq.rows.push(Row {
                item: Item::Note(Text::fixed(format!(
                    "line {l}, not drawn (no MAP event read)"
                ))),
                marks,
            });
        }
        if !whole.is_empty() {
            seq.rows.push(Row {
                item: Item::Note(Text::fixed("the whole log")),
                marks: whole,
            });
        }
        seq
    }

    /// `MAP session ID (MODE) · observed ...`.
    fn title(&self) -> String {
        format!("{} · {}", self.heading(), self.counts())
    }

    /// `MAP session ID (MODE)`.
    fn heading(&self) -> String {
        let o = &self.observed;
        let id = match o.sessions.len() {
            0 => "(no event)".to_owned(),
            1 => o.sessions.iter().next().cloned().unwrap_or_default(),
            n => format!("({n} sessions)"),
        };
        let mode = if o.modes.is_empty() {
            "mode not stated".to_owned()
        } else {
            o.modes.iter().cloned().collect::<Vec<_>>().join(", ")
        };
        format!("MAP session {id} ({mode})")
    }

    /// The counts observed.
    fn counts(&self) -> String {
        use mplp_core::text::count;
        let o = &self.observed;
        format!(
            "observed {}, {} dispatched, {} completed, {}, {}, {}",
            count(self.lifelines.len(), "role"),
            count(o.dispatched, "turn"),
            o.completed,
            count(o.broadcasts, "broadcast"),
            count(o.answers, "answer"),
            count(o.conflicts, "conflict")
        )
    }

    /// The lifeline of `role`, declared (with its participant when known)
    /// on first sight.
    fn id(&mut self, role: &str, participant: Option<&str>) -> Who {
        if let Some(i) = self.lifelines.iter().position(|(r, _)| r == role) {
            return Who::Role(i);
        }
        let i = self.lifelines.len();
        self.lifelines
            .push((role.to_owned(), participant.map(str::to_owned)));
        self.rows.push(Row {
            item: Item::Declare(i),
            marks: Vec::new(),
        });
        Who::Role(i)
    }

    fn note(&mut self, text: Text) {
        self.rows.push(Row {
            item: Item::Note(text),
            marks: Vec::new(),
        });
    }

    fn message(&mut self, from: Who, to: Who, style: Style, text: Text) {
        self.rows.push(Row {
            item: Item::Message {
                from,
                to,
                style,
                text,
            },
            marks: Vec::new(),
        });
    }
}

/// Message and label text, escaped for a Mermaid sequence diagram: the
/// entity codes of [`mplp_plan::render::mermaid_escape`], and `;` (which
/// would end the statement) and `:` (which would start a message) too.
fn text(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    let mut buf = [0u8; 4];
    for c in t.chars() {
        match c {
            ';' => out.push_str("#59;"),
            ':' => out.push_str("#58;"),
            c => out.push_str(&mplp_plan::render::mermaid_escape(c.encode_utf8(&mut buf))),
        }
    }
    out
}

/// A lifeline's displayed name: Mermaid documents entity codes in message
/// text, not in `participant ... as` aliases, so an alias keeps only
/// characters that cannot end or change the statement (letters, digits,
/// space, `-`, `_`, `.`, `/`, `(`, `)`, `[`, `]`, `,`, `·`); any other
/// becomes `_`. The role is still told apart by its id (`r0`, ...).
fn alias(t: &str) -> String {
    let name: String = t
        .chars()
        .map(|c| {
            if c.is_alphanumeric()
                || matches!(
                    c,
                    ' ' | '-' | '_' | '.' | '/' | '(' | ')' | '[' | ']' | ',' | '·'
                )
            {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.trim().is_empty() {
        "_".to_owned()
    } else {
        name
    }
}

/// Height of one row (a message or a note).
const ROW_H: f64 = 36.0;
const RED: &str = "#c62828";

/// `text` cut to at most `width` pixels (with `…`).
fn fit(text: &str, width: f64) -> String {
    let max = (width / SVG_CHAR_WIDTH).floor().max(1.0) as usize;
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Draws a log as an SVG sequence diagram, laid out directly (no system
/// tool, no browser): the title and legend of the module docs, one
/// lifeline per role plus `session`, one arrow per turn, broadcast and
/// answer, notes for the session's start and end and for conflicts. The
/// rows are the ones [`mermaid_sequence`] draws, in the same order. Every
/// text is XML-escaped ([`mplp_core::text::xml_escape`]), so any role id or
/// task text gives well-formed SVG. Elements carry classes: `g.lifeline`,
/// `g.message` (with `data-style`, `data-from` and `data-to`, the
/// lifelines' x), `g.note`, `g.legend`, `g.finding` (with `data-line` and
/// `data-rules`).
///
/// ```
/// use mplp_collab::simulate::{simulate, SimConfig};
/// use mplp_collab::sink::MemorySink;
/// let mut sink = MemorySink::new();
/// simulate(&SimConfig::new(mplp_core::CollabMode::Pair, 2, 2), &mut sink)?;
/// let svg = mplp_collab::render::svg_sequence(&sink.events);
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
/// assert_eq!(svg.matches("<g class=\"lifeline\"").count(), 3);
/// assert!(svg.contains(">turn 1</text>"));
/// assert!(svg.contains("(pair)"));
/// # Ok::<(), mplp_collab::runtime::SessionError>(())
/// ```
pub fn svg_sequence(events: &[MapEvent]) -> String {
    svg_sequence_checked(&numbered(events), &[])
}

/// [`svg_sequence`] of events read at the given log lines, with the
/// `findings` (violations with a `line`, or without one for the whole log)
/// marked: the row of the event a finding points at is tinted (red for an
/// error, orange for a warning) and its rule ids are written right of the
/// lifelines.
///
/// ```
/// use mplp_collab::simulate::{simulate, SimConfig};
/// use mplp_collab::sink::MemorySink;
/// use mplp_core::{Rule, Violation};
/// let mut sink = MemorySink::new();
/// simulate(&SimConfig::new(mplp_core::CollabMode::Pair, 2, 2), &mut sink)?;
/// let events: Vec<_> = (1u64..).zip(sink.events).collect();
/// let finding = Violation::error("/turn_number", Rule::new("map_x"), "wrong").at_line(3);
/// let svg = mplp_collab::render::svg_sequence_checked(&events, &[finding]);
/// assert!(svg.contains(r#"<g class="finding" data-line="3" data-rules="map_x">"#));
/// # Ok::<(), mplp_collab::runtime::SessionError>(())
/// ```
pub fn svg_sequence_checked(events: &[(u64, MapEvent)], findings: &[Violation]) -> String {
    let seq = Sequence::of(events, findings);
    let headers: Vec<String> = std::iter::once("session".to_owned())
        .chain(
            seq.lifelines
                .iter()
                .map(|(role, participant)| match participant {
                    Some(p) => format!("{role} ({p})"),
                    None => role.clone(),
                }),
        )
        .map(|h| one_line(&h))
        .collect();
    let width_of = |t: &str| t.chars().count() as f64 * SVG_CHAR_WIDTH;
    let col = headers
        .iter()
        .map(|h| width_of(h) + 24.0)
        .fold(170.0, f64::max)
        .min(360.0);
    let margin = 20.0;
    let x = |w: Who| {
        let i = match w {
            Who::Session => 0,
            Who::Role(i) => i + 1,
        };
        margin + col / 2.0 + i as f64 * col
    };
    let rows: Vec<&Row> = seq
        .rows
        .iter()
        .filter(|r| !matches!(r.item, Item::Declare(_)))
        .collect();
    let heading = one_line(&seq.heading());
    let counts = seq.counts();
    // The legend, under the title: four arrows and the finding mark.
    let legend_top = 66.0;
    let legend_h = 58.0;
    let top = legend_top + legend_h + 16.0;
    let head_h = 34.0;
    let first_row = top + head_h + 24.0;
    let bottom = first_row + rows.len() as f64 * ROW_H + 10.0;
    let lanes_w = headers.len() as f64 * col;
    let marks_w = rows
        .iter()
        .filter(|r| !r.marks.is_empty())
        .map(|r| width_of(&r.mark_text()) + 16.0)
        .fold(0.0, f64::max);
    let notes_w = rows
        .iter()
        .filter_map(|r| match &r.item {
            Item::Note(t) => Some(width_of(&one_line(&t.plain())) + 20.0),
            _ => None,
        })
        .fold(0.0, f64::max);
    let width = (margin * 2.0 + lanes_w + marks_w)
        .max(margin * 2.0 + notes_w)
        .max(margin * 2.0 + width_of(&heading) * 1.4)
        .max(margin * 2.0 + width_of(&counts))
        .max(margin * 2.0 + 760.0);
    let height = bottom + margin;
    let mut out = svg_header(width, height, &heading, &counts);
    for (id, open) in [("head", false), ("head-open", true)] {
        let path = if open {
            r##"<path d="M 0 0 L 10 5 L 0 10" fill="none" stroke="#424242" stroke-width="1.5"/>"##
        } else {
            r##"<path d="M 0 0 L 10 5 L 0 10 z" fill="#424242"/>"##
        };
        let _ = writeln!(
            out,
            r#"<defs><marker id="{id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">{path}</marker></defs>"#
        );
    }
    let _ = writeln!(
        out,
        r##"<rect class="background" width="100%" height="100%" fill="#ffffff"/><text class="title" x="{margin}" y="30" font-size="18" font-weight="bold">{}</text><text class="counts" x="{margin}" y="52" fill="#424242">{}</text>"##,
        xml_escape(&heading),
        xml_escape(&counts)
    );
    // The legend.
    let _ = write!(
        out,
        r##"<g class="legend"><rect x="{margin}" y="{legend_top}" width="760" height="{legend_h}" rx="4" fill="#fafafa" stroke="#bdbdbd" stroke-dasharray="4 3"/>"##
    );
    let samples = [
        ("", "head", "turn dispatched (solid, filled head)"),
        (
            r#" stroke-dasharray="6 4""#,
            "head",
            "turn completed, back to its dispatcher (dashed, filled)",
        ),
        ("", "head-open", "broadcast sent (solid, open head)"),
        (
            r#" stroke-dasharray="6 4""#,
            "head-open",
            "answer, back to the sender (dashed, open)",
        ),
    ];
    for (n, (dash, head, label)) in samples.iter().enumerate() {
        let (lx, ly) = (
            margin + 10.0 + (n % 2) as f64 * 370.0,
            legend_top + 18.0 + (n / 2) as f64 * 22.0,
        );
        let _ = write!(
            out,
            r##"<path d="M {lx:.1} {ly:.1} L {:.1} {ly:.1}" stroke="#424242" stroke-width="1.5"{dash} marker-end="url(#{head})"/><text x="{:.1}" y="{:.1}" font-size="12">{label}</text>"##,
            lx + 40.0,
            lx + 48.0,
            ly + 4.0
        );
    }
    out.push_str("</g>\n");
    for (i, h) in headers.iter().enumerate() {
        let cx = margin + col / 2.0 + i as f64 * col;
        let w = col - 16.0;
        let _ = writeln!(
            out,
            r##"<g class="lifeline"><line x1="{cx:.1}" y1="{:.1}" x2="{cx:.1}" y2="{bottom:.1}" stroke="#9e9e9e" stroke-dasharray="5 4"/><rect x="{:.1}" y="{top:.1}" width="{w:.1}" height="{head_h}" rx="4" fill="#e3f2fd" stroke="#1565c0"/><text x="{cx:.1}" y="{:.1}" text-anchor="middle">{}</text></g>"##,
            top + head_h,
            cx - w / 2.0,
            top + head_h / 2.0 + 4.5,
            xml_escape(&fit(h, w - 8.0))
        );
    }
    for (n, row) in rows.iter().enumerate() {
        let y = first_row + n as f64 * ROW_H + ROW_H / 2.0;
        if !row.marks.is_empty() {
            let error = row.marks.iter().any(|(_, s, _)| *s == Severity::Error);
            let (fill, ink) = if error {
                ("#ffebee", RED)
            } else {
                ("#fff3e0", "#e65100")
            };
            let rules: Vec<&str> = row.marks.iter().map(|(_, _, r)| r.as_str()).collect();
            let line = row
                .marks
                .iter()
                .find_map(|(l, _, _)| *l)
                .map_or(String::new(), |l| l.to_string());
            let _ = writeln!(
                out,
                r#"<g class="finding" data-line="{line}" data-rules="{}"><rect x="{margin}" y="{:.1}" width="{:.1}" height="{ROW_H}" fill="{fill}" stroke="{ink}" stroke-width="0.8"/><text x="{:.1}" y="{:.1}" fill="{ink}" font-weight="bold">{}</text></g>"#,
                xml_escape(&rules.join(" ")),
                y - ROW_H / 2.0,
                lanes_w + marks_w,
                margin + lanes_w + 8.0,
                y + 4.5,
                xml_escape(&row.mark_text())
            );
        }
        match &row.item {
            Item::Declare(_) => {}
            Item::Note(t) => {
                let label = one_line(&t.plain());
                let w = width_of(&label) + 20.0;
                let cx = x(Who::Session);
                let left = (cx - w / 2.0).max(4.0);
                let _ = writeln!(
                    out,
                    r##"<g class="note"><rect x="{left:.1}" y="{:.1}" width="{w:.1}" height="24" fill="#fff8e1" stroke="#f9a825"/><text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text></g>"##,
                    y - 12.0,
                    left + w / 2.0,
                    y + 4.5,
                    xml_escape(&label)
                );
            }
            Item::Message {
                from,
                to,
                style,
                text,
            } => {
                let (x1, x2) = (x(*from), x(*to));
                let (dash, head, name) = match style {
                    Style::Call => ("", "head", "call"),
                    Style::Reply => (r#" stroke-dasharray="6 4""#, "head", "reply"),
                    Style::Async => ("", "head-open", "async"),
                    Style::AsyncReply => (r#" stroke-dasharray="6 4""#, "head-open", "async-reply"),
                };
                let line_y = y + 6.0;
                let d = if from == to {
                    format!("M {x1:.1} {:.1} h 30 v 12 h -28", line_y - 6.0)
                } else {
                    format!("M {x1:.1} {line_y:.1} L {x2:.1} {line_y:.1}")
                };
                // The label beside the sender, within its column: it never
                // reaches the next lifeline.
                let full = one_line(&text.plain());
                let (tx, anchor, room) = if from == to {
                    (x1 + 36.0, "start", col - 44.0)
                } else if x2 > x1 {
                    (x1 + 8.0, "start", col - 16.0)
                } else {
                    (x1 - 8.0, "end", col - 16.0)
                };
                let shown = fit(&full, room);
                let _ = writeln!(
                    out,
                    r##"<g class="message" data-style="{name}" data-from="{x1:.1}" data-to="{x2:.1}"><title>{}</title><path d="{d}" fill="none" stroke="#424242" stroke-width="1.5"{dash} marker-end="url(#{head})"/><text x="{tx:.1}" y="{:.1}" text-anchor="{anchor}">{}</text></g>"##,
                    xml_escape(&full),
                    y - 2.0,
                    xml_escape(&shown)
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

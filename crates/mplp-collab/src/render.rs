//! Sequence diagrams of MAP event logs: Mermaid ([`mermaid_sequence`]) and
//! SVG ([`svg_sequence`]), drawn from the same rows.

use std::fmt::Write;

use mplp_core::text::{SVG_CHAR_WIDTH, one_line, svg_header, xml_escape};
use mplp_events::{MapEvent, MapPayload};

/// Draws a log as a Mermaid `sequenceDiagram`: one lifeline per role (plus
/// `session`), one arrow per turn, broadcast and answer, notes for conflicts.
/// Every role is drawn under a safe id (`r0`, `r1`, ...) with its name as
/// the label, and every text is escaped, so no role id or task text can
/// break the diagram (`end`, `loop`, `note`, quotes, `;`, `#`, `%%`).
///
/// ```
/// use mplp_collab::simulate::{simulate, SimConfig};
/// use mplp_collab::sink::MemorySink;
/// let mut sink = MemorySink::new();
/// simulate(&SimConfig::new(mplp_core::CollabMode::Pair, 2, 2), &mut sink)?;
/// let diagram = mplp_collab::render::mermaid_sequence(&sink.events);
/// assert!(diagram.starts_with("sequenceDiagram\n"));
/// assert!(diagram.contains("participant r0 as driver"));
/// assert!(diagram.contains("session->>r0: turn 1"));
/// # Ok::<(), mplp_collab::runtime::SessionError>(())
/// ```
pub fn mermaid_sequence(events: &[MapEvent]) -> String {
    let seq = Sequence::of(events);
    let mut out = String::from("sequenceDiagram\n");
    let _ = writeln!(out, "  participant session");
    let id = |w: Who| match w {
        Who::Session => "session".to_owned(),
        Who::Role(i) => format!("r{i}"),
    };
    for item in &seq.items {
        let _ = match item {
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
    }
    out
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

/// What a log draws, independent of the diagram language: the lifelines
/// (role, participant) in order of first sight, and the rows.
#[derive(Default)]
struct Sequence {
    lifelines: Vec<(String, Option<String>)>,
    items: Vec<Item>,
}

impl Sequence {
    fn of(events: &[MapEvent]) -> Sequence {
        let mut seq = Sequence::default();
        for e in events {
            let from = match e.initiator_role.as_deref() {
                Some(role) => seq.id(role, None),
                None => Who::Session,
            };
            match &e.payload {
                MapPayload::SessionStarted(p) => seq.items.push(Item::Note(Text::fixed(format!(
                    "started ({}, {})",
                    p.mode,
                    mplp_core::text::count(p.participant_count, "participant")
                )))),
                MapPayload::RolesAssigned(p) => {
                    for a in &p.assignments {
                        seq.id(&a.role_id, Some(&a.participant_id));
                    }
                }
                MapPayload::TurnDispatched(p) => {
                    let to = seq.id(&p.role_id, None);
                    let mut text = Text::fixed(format!("turn {}", p.turn_number));
                    if let Some(task) = p.task.as_deref() {
                        text = text.then(": ").log(task);
                    }
                    seq.message(from, to, Style::Call, text);
                }
                MapPayload::TurnCompleted(p) => {
                    let who = seq.id(&p.role_id, None);
                    let text = Text::fixed(format!("turn {} {}", p.turn_number, p.status));
                    seq.message(who, from, Style::Reply, text);
                }
                MapPayload::BroadcastSent(_) => {
                    for t in e.target_roles.iter().flatten() {
                        let to = seq.id(t, None);
                        seq.message(from, to, Style::Async, Text::fixed("broadcast"));
                    }
                }
                MapPayload::BroadcastReceived(Some(p)) => {
                    let who = match p.receiver_role_id.as_deref() {
                        Some(role) => seq.id(role, None),
                        None => Who::Session,
                    };
                    seq.message(who, Who::Session, Style::AsyncReply, Text::fixed("answer"));
                }
                MapPayload::ConflictDetected(Some(p)) => seq.items.push(Item::Note(
                    Text::fixed("conflict on ").log(p.resource.as_deref().unwrap_or("?")),
                )),
                MapPayload::ConflictResolved(Some(p)) => seq.items.push(Item::Note(
                    Text::fixed("resolved (")
                        .log(p.strategy.as_deref().unwrap_or("?"))
                        .then(") winner ")
                        .log(p.winner.as_deref().unwrap_or("?")),
                )),
                MapPayload::SessionCompleted(p) => {
                    seq.items.push(Item::Note(Text::fixed(format!(
                        "{} after {}",
                        p.status,
                        mplp_core::text::count(p.turns_total, "turn")
                    ))))
                }
                _ => {}
            }
        }
        seq
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
        self.items.push(Item::Declare(i));
        Who::Role(i)
    }

    fn message(&mut self, from: Who, to: Who, style: Style, text: Text) {
        self.items.push(Item::Message {
            from,
            to,
            style,
            text,
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
/// space, `-`, `_`, `.`, `/`, `(`, `)`, `[`, `]`); any other becomes `_`.
/// The role is still told apart by its id (`r0`, ...).
fn alias(t: &str) -> String {
    let name: String = t
        .chars()
        .map(|c| {
            if c.is_alphanumeric()
                || matches!(c, ' ' | '-' | '_' | '.' | '/' | '(' | ')' | '[' | ']')
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

/// Draws a log as an SVG sequence diagram, laid out directly (no system
/// tool, no browser): one lifeline per role plus `session`, one arrow per
/// turn, broadcast and answer (solid for turns and broadcasts, dashed for
/// answers), notes for the session's start and end and for conflicts. The
/// rows are the ones [`mermaid_sequence`] draws, in the same order. Every
/// text is XML-escaped ([`mplp_core::text::xml_escape`]), so any role id or
/// task text gives well-formed SVG. Elements carry classes: `g.lifeline`,
/// `g.message` (with `data-style`), `g.note`.
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
/// # Ok::<(), mplp_collab::runtime::SessionError>(())
/// ```
pub fn svg_sequence(events: &[MapEvent]) -> String {
    let seq = Sequence::of(events);
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
        .fold(150.0, f64::max)
        .min(360.0);
    let margin = 20.0;
    let x = |w: Who| {
        let i = match w {
            Who::Session => 0,
            Who::Role(i) => i + 1,
        };
        margin + col / 2.0 + i as f64 * col
    };
    let top = 64.0;
    let head_h = 34.0;
    let rows: Vec<&Item> = seq
        .items
        .iter()
        .filter(|i| !matches!(i, Item::Declare(_)))
        .collect();
    let first_row = top + head_h + 24.0;
    let bottom = first_row + rows.len() as f64 * ROW_H + 10.0;
    let notes_w = rows
        .iter()
        .filter_map(|r| match r {
            Item::Note(t) => Some(width_of(&one_line(&t.plain())) + 20.0),
            _ => None,
        })
        .fold(0.0, f64::max);
    let width = (margin * 2.0 + headers.len() as f64 * col).max(margin * 2.0 + notes_w);
    let height = bottom + margin;
    let mut out = svg_header(
        width,
        height,
        "MAP session",
        &format!("{} lifelines, {} rows", headers.len(), rows.len()),
    );
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
        r##"<rect width="100%" height="100%" fill="#ffffff"/><text class="title" x="{margin}" y="32" font-size="18" font-weight="bold">MAP session</text>"##
    );
    for (i, h) in headers.iter().enumerate() {
        let cx = margin + col / 2.0 + i as f64 * col;
        let w = col - 16.0;
        let _ = writeln!(
            out,
            r##"<g class="lifeline"><line x1="{cx:.1}" y1="{:.1}" x2="{cx:.1}" y2="{bottom:.1}" stroke="#9e9e9e" stroke-dasharray="5 4"/><rect x="{:.1}" y="{top:.1}" width="{w:.1}" height="{head_h}" rx="4" fill="#e3f2fd" stroke="#1565c0"/><text x="{cx:.1}" y="{:.1}" text-anchor="middle">{}</text></g>"##,
            top + head_h,
            cx - w / 2.0,
            top + head_h / 2.0 + 4.5,
            xml_escape(h)
        );
    }
    for (n, row) in rows.iter().enumerate() {
        let y = first_row + n as f64 * ROW_H + ROW_H / 2.0;
        match row {
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
                let tx = if from == to {
                    x1 + 36.0
                } else {
                    (x1 + x2) / 2.0
                };
                let anchor = if from == to { "start" } else { "middle" };
                let _ = writeln!(
                    out,
                    r##"<g class="message" data-style="{name}"><path d="{d}" fill="none" stroke="#424242" stroke-width="1.5"{dash} marker-end="url(#{head})"/><text x="{tx:.1}" y="{:.1}" text-anchor="{anchor}">{}</text></g>"##,
                    y - 2.0,
                    xml_escape(&one_line(&text.plain()))
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

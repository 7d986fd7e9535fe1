//! Mermaid sequence diagrams of MAP event logs.

use std::fmt::Write;

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
    let mut out = String::from("sequenceDiagram\n");
    let _ = writeln!(out, "  participant session");
    let mut names = Lifelines::default();
    for e in events {
        let from = match e.initiator_role.as_deref() {
            Some(role) => names.id(role, &mut out),
            None => "session".to_owned(),
        };
        let _ = match &e.payload {
            MapPayload::SessionStarted(p) => {
                writeln!(
                    out,
                    "  Note over session: started ({}, {} participants)",
                    p.mode, p.participant_count
                )
            }
            MapPayload::RolesAssigned(p) => {
                for a in &p.assignments {
                    names.declare(&a.role_id, Some(&a.participant_id), &mut out);
                }
                Ok(())
            }
            MapPayload::TurnDispatched(p) => {
                let to = names.id(&p.role_id, &mut out);
                writeln!(
                    out,
                    "  {from}->>{to}: turn {}{}",
                    p.turn_number,
                    p.task
                        .as_deref()
                        .map(|t| format!(": {}", text(t)))
                        .unwrap_or_default()
                )
            }
            MapPayload::TurnCompleted(p) => {
                let who = names.id(&p.role_id, &mut out);
                writeln!(
                    out,
                    "  {who}-->>{from}: turn {} {}",
                    p.turn_number, p.status
                )
            }
            MapPayload::BroadcastSent(_) => {
                let mut r = Ok(());
                for t in e.target_roles.iter().flatten() {
                    let to = names.id(t, &mut out);
                    r = writeln!(out, "  {from}-){to}: broadcast");
                }
                r
            }
            MapPayload::BroadcastReceived(Some(p)) => {
                let who = match p.receiver_role_id.as_deref() {
                    Some(role) => names.id(role, &mut out),
                    None => "session".to_owned(),
                };
                writeln!(out, "  {who}--)session: answer")
            }
            MapPayload::ConflictDetected(Some(p)) => writeln!(
                out,
                "  Note over session: conflict on {}",
                text(p.resource.as_deref().unwrap_or("?"))
            ),
            MapPayload::ConflictResolved(Some(p)) => writeln!(
                out,
                "  Note over session: resolved ({}) winner {}",
                text(p.strategy.as_deref().unwrap_or("?")),
                text(p.winner.as_deref().unwrap_or("?"))
            ),
            MapPayload::SessionCompleted(p) => writeln!(
                out,
                "  Note over session: {} after {} turns",
                p.status, p.turns_total
            ),
            _ => Ok(()),
        };
    }
    out
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

/// The lifelines of the diagram: every role gets a safe id (`r0`, `r1`,
/// ...), declared once with its name as the displayed label, so that any
/// role id (`end`, `loop`, `note`, text with spaces or quotes) is safe.
#[derive(Default)]
struct Lifelines {
    ids: Vec<String>,
}

impl Lifelines {
    /// The id of `role`, declaring it (with no participant) on first sight.
    fn id(&mut self, role: &str, out: &mut String) -> String {
        self.declare(role, None, out)
    }

    /// Declares `role` (showing its participant when known) unless it is
    /// already declared; returns its id.
    fn declare(&mut self, role: &str, participant: Option<&str>, out: &mut String) -> String {
        if let Some(i) = self.ids.iter().position(|r| r == role) {
            return format!("r{i}");
        }
        let i = self.ids.len();
        self.ids.push(role.to_owned());
        let label = match participant {
            Some(p) => format!("{} ({})", alias(role), alias(p)),
            None => alias(role),
        };
        let _ = writeln!(out, "  participant r{i} as {label}");
        format!("r{i}")
    }
}

//! Mermaid sequence diagrams of MAP event logs.

use std::fmt::Write;

use mplp_events::{MapEvent, MapPayload};

/// Draws a log as a Mermaid `sequenceDiagram`: one lifeline per role (plus
/// `session`), one arrow per turn, broadcast and answer, notes for conflicts.
///
/// ```
/// use mplp_collab::simulate::{simulate, SimConfig};
/// use mplp_collab::sink::MemorySink;
/// let mut sink = MemorySink::new();
/// simulate(&SimConfig::new(mplp_core::CollabMode::Pair, 2, 2), &mut sink)?;
/// let diagram = mplp_collab::render::mermaid_sequence(&sink.events);
/// assert!(diagram.starts_with("sequenceDiagram\n"));
/// assert!(diagram.contains("session->>driver: turn 1"));
/// # Ok::<(), mplp_collab::runtime::SessionError>(())
/// ```
pub fn mermaid_sequence(events: &[MapEvent]) -> String {
    let mut out = String::from("sequenceDiagram\n");
    let name = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let _ = writeln!(out, "  participant session");
    for e in events {
        let from = e
            .initiator_role
            .as_deref()
            .map_or_else(|| "session".to_owned(), name);
        let _ = match &e.payload {
            MapPayload::SessionStarted(p) => {
                writeln!(
                    out,
                    "  Note over session: started ({}, {} participants)",
                    p.mode, p.participant_count
                )
            }
            MapPayload::RolesAssigned(p) => {
                let mut r = Ok(());
                for a in &p.assignments {
                    r = writeln!(
                        out,
                        "  participant {} as {} ({})",
                        name(&a.role_id),
                        name(&a.role_id),
                        name(&a.participant_id)
                    );
                }
                r
            }
            MapPayload::TurnDispatched(p) => writeln!(
                out,
                "  {from}->>{}: turn {}{}",
                name(&p.role_id),
                p.turn_number,
                p.task
                    .as_deref()
                    .map(|t| format!(": {}", t.replace([';', '#', '\n'], " ")))
                    .unwrap_or_default()
            ),
            MapPayload::TurnCompleted(p) => writeln!(
                out,
                "  {}-->>{from}: turn {} {}",
                name(&p.role_id),
                p.turn_number,
                p.status
            ),
            MapPayload::BroadcastSent(p) => {
                let targets = e.target_roles.clone().unwrap_or_default();
                let mut r = Ok(());
                for t in targets {
                    r = writeln!(out, "  {from}-){}: broadcast", name(&t));
                }
                let _ = p;
                r
            }
            MapPayload::BroadcastReceived(Some(p)) => {
                let who = p
                    .receiver_role_id
                    .as_deref()
                    .map_or_else(|| "session".to_owned(), name);
                writeln!(out, "  {who}--)session: answer")
            }
            MapPayload::ConflictDetected(Some(p)) => writeln!(
                out,
                "  Note over session: conflict on {}",
                p.resource
                    .as_deref()
                    .unwrap_or("?")
                    .replace([';', '#'], " ")
            ),
            MapPayload::ConflictResolved(Some(p)) => writeln!(
                out,
                "  Note over session: resolved ({}) winner {}",
                p.strategy.as_deref().unwrap_or("?"),
                p.winner.as_deref().unwrap_or("?")
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

//! A generator of valid MAP logs of any length, streaming (shared by the
//! `validate_big_log` example and the benchmark).

use std::io::{self, Write};

use mplp_core::{CollabId, CollabMode, ShortString};
use mplp_events::MapEvent;
use mplp_events::log::LogWriter;
use mplp_events::map::RoleAssignment;

/// Writes at least `n` events (every session started is completed): `concurrent` sessions interleaved line by line,
/// each of 3 roles, 8 turns, one broadcast with 2 receivers and one conflict
/// (26 events per session). Turns close right after they open.
pub(crate) fn write_log(out: impl Write, n: u64, concurrent: usize) -> io::Result<(u64, u64)> {
    let mut w = LogWriter::new(out);
    let roles = ["coder", "tester", "reviewer"];
    let mut sessions: Vec<(CollabId, std::vec::IntoIter<MapEvent>)> = Vec::new();
    let mut written = 0u64;
    let mut bytes = 0u64;
    while written < n || !sessions.is_empty() {
        while written < n && sessions.len() < concurrent {
            let s = CollabId::new();
            sessions.push((s, session(s, &roles).into_iter()));
        }
        let mut i = 0;
        while i < sessions.len() {
            match sessions[i].1.next() {
                Some(e) => {
                    let before = w.lines();
                    let json = serde_json::to_vec(&e).map_err(io::Error::other)?;
                    bytes += json.len() as u64 + 1;
                    w.write(&e)?;
                    written += w.lines() - before;
                    i += 1;
                }
                None => {
                    sessions.swap_remove(i);
                }
            }
        }
    }
    w.flush()?;
    Ok((written, bytes))
}

fn session(s: CollabId, roles: &[&str]) -> Vec<MapEvent> {
    let mut v = vec![
        MapEvent::session_started(s, CollabMode::RoundRobin, roles.len() as u64),
        MapEvent::roles_assigned(
            s,
            roles
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    RoleAssignment::new(format!("agent-{i}").into(), (*r).into()).with_kind("agent")
                })
                .collect(),
        ),
    ];
    for n in 1..=8u64 {
        let role = roles[(n as usize - 1) % roles.len()];
        v.push(MapEvent::turn_dispatched(s, role, n).with_initiator_role("orchestrator"));
        v.push(MapEvent::turn_completed(s, role, n, "completed"));
    }
    let targets: Vec<ShortString> = roles[1..].iter().map(|r| ShortString::from(*r)).collect();
    v.push(MapEvent::broadcast_sent(
        s,
        "b-1",
        roles[0],
        targets.clone(),
    ));
    for t in &targets {
        v.push(MapEvent::broadcast_received(s, "b-1", t.as_str()));
    }
    v.push(MapEvent::conflict_detected(s, "c-1", "src/lib.rs", targets));
    v.push(MapEvent::conflict_resolved(
        s,
        "c-1",
        "orchestrator_decides",
    ));
    v.push(MapEvent::session_completed(s, "completed", 8));
    v
}

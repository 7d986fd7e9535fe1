//! Sessions across processes against a REAL `nats-server` (JetStream on,
//! 127.0.0.1, a free port, a temporary store): participants are spawned
//! `mplp-nats-participant` processes. Without `nats-server` on the PATH the
//! tests are skipped with a loud message, and fail when `CI` is set.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use mplp_collab::Collab;
use mplp_collab::runtime::async_session::{AsyncAgent, AsyncMapSession};
use mplp_collab::runtime::{SessionError, TurnContext, TurnOutcome};
use mplp_core::{CollabMode, ContextId, JsonObject, ShortString};
use mplp_events::log::validate_map_log;
use mplp_events::{MapEvent, MapPayload, SessionId};
use mplp_nats::{BrokerSink, NatsTransport, RemoteAgent, Subjects, read_session_log};

#[path = "../../../tests/support/nats_server.rs"]
mod nats_server;

use nats_server::Server;

/// A participant process, waited for until it listens.
fn participant(url: &str, session: &SessionId, index: usize, extra: &[&str]) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mplp-nats-participant"))
        .args([
            "--url",
            url,
            "--session",
            &session.to_string(),
            "--index",
            &index.to_string(),
        ])
        .args(extra)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "ready", "participant {index} did not start");
    child
}

/// The session the remote participants join: `n` agents in `mode`.
fn remote_collab(mode: CollabMode, n: usize) -> Collab {
    Collab::of_agents(ContextId::new(), "remote", "work across processes", mode, n).unwrap()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn events(log: &[u8]) -> Vec<MapEvent> {
    log.split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect()
}

fn completions(events: &[MapEvent]) -> Vec<(ShortString, ShortString, Option<JsonObject>)> {
    events
        .iter()
        .filter_map(|e| match &e.payload {
            MapPayload::TurnCompleted(p) => {
                Some((p.role_id.clone(), p.status.clone(), p.result.clone()))
            }
            _ => None,
        })
        .collect()
}

/// The answers of the broadcasts: each receiver's role and its response.
fn answers(events: &[MapEvent]) -> Vec<(ShortString, JsonObject)> {
    events
        .iter()
        .filter_map(|e| match &e.payload {
            MapPayload::BroadcastReceived(Some(p)) => Some((
                p.receiver_role_id.clone().unwrap_or_default(),
                p.response.clone()?,
            )),
            _ => None,
        })
        .collect()
}

/// A text member of an answer (empty when it has none).
fn text(answer: &JsonObject, member: &str) -> String {
    answer
        .get(member)
        .and_then(serde_json::Value::as_str)
        .unwrap_or("")
        .to_owned()
}

async fn connect(url: &str) -> (NatsTransport, Subjects) {
    let client = async_nats::connect(url).await.unwrap();
    let subjects = Subjects::default();
    (
        NatsTransport::new(client, "MPLP", &subjects).await.unwrap(),
        subjects,
    )
}

type Driver = AsyncMapSession<BrokerSink<NatsTransport>>;

/// Connects, starts the session (publishing to JetStream), runs `body` with
/// remote participants answering within `timeout`, and reads the stored log back.
async fn drive<F>(url: &str, c: Collab, timeout: Duration, body: F) -> Vec<u8>
where
    F: AsyncFnOnce(&mut Driver, &mut RemoteAgent<NatsTransport>),
{
    let session = SessionId::from(c.collab_id);
    let (transport, subjects) = connect(url).await;
    let mut remote = RemoteAgent::new(
        transport.clone(),
        subjects.clone(),
        session.clone(),
        timeout,
    );
    let mut s =
        AsyncMapSession::new(c, BrokerSink::new(transport.clone(), subjects.clone())).unwrap();
    s.start().await.unwrap();
    body(&mut s, &mut remote).await;
    read_session_log(&transport, &subjects, &session)
        .await
        .unwrap()
}

#[test]
fn round_robin_across_three_processes_validates() {
    let Some(server) = Server::start() else {
        return;
    };
    let c = remote_collab(CollabMode::RoundRobin, 3);
    let session = SessionId::from(c.collab_id);
    let mut children: Vec<Child> = (0..3)
        .map(|i| participant(&server.url(), &session, i, &[]))
        .collect();
    let log = runtime().block_on(drive(
        &server.url(),
        c,
        Duration::from_secs(10),
        async |s, remote| {
            for _ in 0..6 {
                let o = s.turn(remote).await.unwrap();
                assert_eq!(o.status.as_str(), "completed", "{o:?}");
            }
            s.broadcast(0, JsonObject::new(), remote).await.unwrap();
            s.complete().await.unwrap();
            assert_eq!(s.sink().published(), 2 + 12 + 1 + 2 + 1);
        },
    ));
    for mut child in children.drain(..) {
        assert!(child.wait().unwrap().success());
    }
    let report = validate_map_log(&log[..]);
    assert!(report.is_empty(), "{report:?}");
    let events = events(&log);
    assert_eq!(events.len(), 18);
    let done = completions(&events);
    let roles: Vec<&str> = done.iter().map(|(r, _, _)| r.as_str()).collect();
    assert_eq!(roles, ["r0", "r1", "r2", "r0", "r1", "r2"]);
    // Each turn was taken by a process of its own (not this one).
    let pids: std::collections::BTreeSet<u64> = done
        .iter()
        .map(|(_, _, r)| {
            r.as_ref()
                .unwrap()
                .get("pid")
                .and_then(serde_json::Value::as_u64)
                .unwrap()
        })
        .collect();
    assert_eq!(pids.len(), 3);
    assert!(!pids.contains(&u64::from(std::process::id())));
    // The answers of the broadcast came from the other processes: each is
    // the vote of the participant it names.
    let answers: Vec<(String, String)> = answers(&events)
        .iter()
        .map(|(_, r)| (text(r, "vote"), text(r, "from")))
        .collect();
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert!(
        answers
            .iter()
            .all(|(vote, from)| vote == "go" && from.starts_with('p')),
        "{answers:?}"
    );
    assert_ne!(answers[0].1, answers[1].1);
}

/// The orchestrator (this process) dispatches to two workers that write
/// from stale versions: the conflicts are detected and resolved by the
/// driver, and the log says so.
#[test]
fn orchestrated_session_with_conflicts_validates() {
    let Some(server) = Server::start() else {
        return;
    };
    let c = remote_collab(CollabMode::Orchestrated, 3);
    let session = SessionId::from(c.collab_id);
    let children: Vec<Child> = (1..3)
        .map(|i| participant(&server.url(), &session, i, &["--stale"]))
        .collect();
    let log = runtime().block_on(drive(
        &server.url(),
        c,
        Duration::from_secs(10),
        async |s, remote| {
            for k in 0..4 {
                s.turn_for(1 + k % 2, Some("edit doc"), remote)
                    .await
                    .unwrap();
            }
            let summary = s.complete().await.unwrap();
            assert_eq!(
                summary.conflicts_count, 2,
                "writes based on version 0: the first creates `doc` at 0, the second moves it to 1, the last two are stale"
            );
        },
    ));
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let report = validate_map_log(&log[..]);
    assert!(report.is_empty(), "{report:?}");
    let events = events(&log);
    let count = |t: &str| {
        events
            .iter()
            .filter(|e| e.event_type().as_str() == t)
            .count()
    };
    assert_eq!(count("MAPConflictDetected"), 2);
    assert_eq!(count("MAPConflictResolved"), 2);
    // The orchestrator decided (it keeps the first write), and says so.
    assert!(
        events
            .iter()
            .filter(|e| e.event_type().as_str() == "MAPConflictResolved")
            .all(|e| e.initiator_role.as_deref() == Some("orchestrator"))
    );
}

/// A participant crashes mid-turn: its turn times out (no responders once
/// it is gone), is recorded as failed, and the round robin goes on.
#[test]
fn a_crashed_participant_fails_its_turns_and_the_session_goes_on() {
    let Some(server) = Server::start() else {
        return;
    };
    let c = remote_collab(CollabMode::RoundRobin, 3);
    let session = SessionId::from(c.collab_id);
    let mut crashing = participant(&server.url(), &session, 1, &["--crash-on-turn", "2"]);
    let others: Vec<Child> = [0, 2]
        .iter()
        .map(|i| participant(&server.url(), &session, *i, &[]))
        .collect();
    let log = runtime().block_on(drive(
        &server.url(),
        c,
        Duration::from_secs(2),
        async |s, remote| {
            for _ in 0..9 {
                s.turn(remote).await.unwrap();
            }
            // A broadcast to the crashed participant and another one.
            s.broadcast(0, JsonObject::new(), remote).await.unwrap();
            s.complete().await.unwrap();
        },
    ));
    assert_eq!(crashing.wait().unwrap().code(), Some(3));
    for mut child in others {
        assert!(child.wait().unwrap().success());
    }
    let report = validate_map_log(&log[..]);
    assert!(report.is_empty(), "{report:?}");
    let statuses: Vec<(ShortString, ShortString)> = completions(&events(&log))
        .into_iter()
        .map(|(r, s, _)| (r, s))
        .collect();
    let expect = |r: &str, s: &str| (ShortString::from(r), ShortString::from(s));
    assert_eq!(
        statuses,
        [
            expect("r0", "completed"),
            expect("r1", "completed"),
            expect("r2", "completed"),
            expect("r0", "completed"),
            expect("r1", "failed"),
            expect("r2", "completed"),
            expect("r0", "completed"),
            expect("r1", "failed"),
            expect("r2", "completed"),
        ]
    );
    // The crashed participant's answer says why there is none; the other
    // one votes.
    let answers = answers(&events(&log));
    let roles: Vec<&str> = answers.iter().map(|(r, _)| r.as_str()).collect();
    assert_eq!(roles, ["r1", "r2"], "{answers:?}");
    assert!(!text(&answers[0].1, "error").is_empty(), "{answers:?}");
    assert_eq!(text(&answers[0].1, "vote"), "");
    assert_eq!(text(&answers[1].1, "vote"), "go", "{answers:?}");
}

/// An agent of this process, for the restart test.
struct Local;

impl AsyncAgent for Local {
    async fn take_turn(&mut self, turn: &mut TurnContext<'_>) -> Result<TurnOutcome, SessionError> {
        turn.write("n", serde_json::json!(turn.turn_number()))?;
        Ok(TurnOutcome::completed())
    }
}

/// The server restarts mid-session: publishing waits and retries with the
/// same message ids; the stored log has every event exactly once.
#[test]
fn a_server_restart_loses_and_duplicates_nothing() {
    let Some(mut server) = Server::start() else {
        return;
    };
    let c = remote_collab(CollabMode::RoundRobin, 2);
    let session = SessionId::from(c.collab_id);
    let rt = runtime();
    let (transport, subjects) = rt.block_on(connect(&server.url()));
    let mut s =
        AsyncMapSession::new(c, BrokerSink::new(transport.clone(), subjects.clone())).unwrap();
    rt.block_on(async {
        s.start().await.unwrap();
        for _ in 0..3 {
            s.turn(&mut Local).await.unwrap();
        }
    });
    server.restart();
    let log = rt.block_on(async {
        for _ in 0..3 {
            s.turn(&mut Local).await.unwrap();
        }
        s.complete().await.unwrap();
        read_session_log(&transport, &subjects, &session)
            .await
            .unwrap()
    });
    let report = validate_map_log(&log[..]);
    assert!(report.is_empty(), "{report:?}");
    assert_eq!(events(&log).len(), 2 + 12 + 1);
    assert_eq!(s.sink().published(), 15);
}

/// Batched publishing (acknowledgements awaited together) across a server
/// restart: what was held is published after it, `MAPSessionCompleted`
/// publishes the rest, and the stored log is the whole session once.
#[test]
fn batched_publishing_across_a_restart_loses_and_duplicates_nothing() {
    let Some(mut server) = Server::start() else {
        return;
    };
    let c = remote_collab(CollabMode::RoundRobin, 2);
    let session = SessionId::from(c.collab_id);
    let rt = runtime();
    let (transport, subjects) = rt.block_on(connect(&server.url()));
    let sink = BrokerSink::new(transport.clone(), subjects.clone()).with_batch(5);
    let mut s = AsyncMapSession::new(c, sink).unwrap();
    rt.block_on(async {
        s.start().await.unwrap();
        for _ in 0..3 {
            s.turn(&mut Local).await.unwrap();
        }
    });
    // 2 + 6 events so far: one batch of 5 stored, 3 held.
    assert_eq!(s.sink().published(), 5);
    server.restart();
    let log = rt.block_on(async {
        for _ in 0..3 {
            s.turn(&mut Local).await.unwrap();
        }
        s.complete().await.unwrap();
        read_session_log(&transport, &subjects, &session)
            .await
            .unwrap()
    });
    let report = validate_map_log(&log[..]);
    assert!(report.is_empty(), "{report:?}");
    let stored = events(&log);
    assert_eq!(stored.len(), 2 + 12 + 1);
    let mut ids: Vec<_> = stored.iter().map(|e| e.event_id.to_string()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), stored.len());
    assert_eq!(s.sink().published(), 15);
}

/// Two sessions stored in the same stream: each one's log holds its own
/// events only.
#[test]
fn a_session_log_holds_only_its_own_events() {
    let Some(server) = Server::start() else {
        return;
    };
    let logs: Vec<(SessionId, Vec<u8>)> = (0..2)
        .map(|_| {
            let c = remote_collab(CollabMode::RoundRobin, 2);
            let session = SessionId::from(c.collab_id);
            let log = runtime().block_on(drive(
                &server.url(),
                c,
                Duration::from_secs(2),
                async |s, _| {
                    s.complete().await.unwrap();
                },
            ));
            (session, log)
        })
        .collect();
    for (session, log) in &logs {
        let events = events(log);
        assert!(!events.is_empty());
        assert!(
            events.iter().all(|e| e.session_id == *session),
            "{events:?}"
        );
        assert!(validate_map_log(&log[..]).is_empty());
    }
}

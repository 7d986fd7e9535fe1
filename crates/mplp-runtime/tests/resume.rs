//! Stores and resume: a run stopped after any number of events and resumed
//! (in memory and in a directory) ends with a valid log and pack, every
//! event once, one SA session, no completed step run again, and the
//! interrupted attempt retried in the log; an injected I/O error at each
//! write of the directory store, then a resume, does the same; the
//! directory store refuses a second writer and hand-edited content, naming
//! the file, and overwrites nothing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

mod support;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use mplp_core::Document;
use mplp_events::SaEvent;
use mplp_events::sa::SaPayload;
use mplp_plan::PlanStatus;
use mplp_runtime::store::{DirStore, MemoryStore, Store, StoreError};
use mplp_runtime::{
    AutoApprove, Backoff, FailurePolicy, SaOutcome, SaSession, StepRequest, StepResult,
};
use proptest::prelude::*;
use support::{Shape, check_log, context, plan};

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "mplp-runtime-{name}-{}-{}",
        std::process::id(),
        uuid::Uuid::new_v4().simple()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Fails the first attempt of every third position; counts executions per position.
fn flaky(req: &StepRequest<'_>) -> StepResult {
    if req.position % 3 == 1 && req.attempt == 1 {
        StepResult::failure("flaky")
    } else {
        StepResult::done()
    }
}

fn policy() -> FailurePolicy {
    FailurePolicy::retry(3).with_backoff(Backoff::NONE)
}

fn parse(bytes: &[Vec<u8>]) -> Vec<SaEvent> {
    bytes
        .iter()
        .map(|b| SaEvent::from_json(b).unwrap())
        .collect()
}

/// The properties of a finished log: valid, ids unique, one session,
/// no step completed twice, and every step completed.
fn check_finished(events: &[SaEvent], ndjson: &[u8], steps: usize) {
    let r = check_log(ndjson);
    assert!(r.is_valid(), "{:?}", r.violations());
    let ids: HashSet<String> = events.iter().map(|e| e.event_id.to_string()).collect();
    assert_eq!(ids.len(), events.len(), "a repeated event id");
    let sessions: HashSet<String> = events.iter().map(|e| e.sa_id.to_string()).collect();
    assert_eq!(sessions.len(), 1);
    let inits = events
        .iter()
        .filter(|e| matches!(e.payload, SaPayload::Initialized(_)))
        .count();
    assert_eq!(inits, 1);
    let mut completed = HashSet::new();
    for e in events {
        if let SaPayload::StepCompleted(p) = &e.payload {
            assert!(
                completed.insert(p.step_id.to_string()),
                "step completed twice"
            );
        }
    }
    assert_eq!(completed.len(), steps);
}

fn ndjson(events: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for e in events {
        out.extend_from_slice(e);
        out.push(b'\n');
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Stop after `k` events (as a kill would), resume, maybe stop again, finish.
    #[test]
    fn stopped_anywhere_then_resumed(n in 1usize..30, cut in 1u64..200, cut2 in 1u64..200) {
        let ctx = context();
        let p = plan(&ctx, Shape::Diamonds, n, &[]);
        let session = SaSession::new(ctx, p, Vec::new(), MemoryStore::new())
            .unwrap()
            .with_policy(policy())
            .stop_after_events(cut);
        let mut session = session;
        let mut executed: HashMap<usize, u32> = HashMap::new();
        let mut exec = |req: &StepRequest<'_>| {
            *executed.entry(req.position).or_default() += 1;
            flaky(req)
        };
        let first = session.run(&mut exec, &mut AutoApprove::default()).unwrap();
        let (_, store) = session.into_parts();
        let mut store = store;
        let mut outcome = first.outcome;
        let mut rounds = 0;
        while outcome == SaOutcome::Stopped {
            rounds += 1;
            let mut s = SaSession::resume(Vec::new(), store).unwrap().with_policy(policy());
            if rounds == 1 {
                s = s.stop_after_events(cut + cut2);
            }
            let r = s.run(&mut exec, &mut AutoApprove::default()).unwrap();
            outcome = r.outcome;
            prop_assert_eq!(s.plan().status(), if outcome == SaOutcome::Stopped { s.plan().status() } else { PlanStatus::Completed });
            store = s.into_parts().1;
            prop_assert!(rounds < 4);
        }
        prop_assert_eq!(outcome, SaOutcome::Completed);
        let events = store.events().unwrap();
        check_finished(&parse(&events), &ndjson(&events), n);
        // Every interrupted attempt is in the log, and is the only reason
        // a step ran more often than its scripted failures.
        let interrupted = parse(&events).iter().filter(|e| matches!(&e.payload,
            SaPayload::StepFailed(p) if p.extra.get("interrupted").is_some())).count();
        let runs: u32 = executed.values().sum();
        let scripted = (0..n).filter(|p| p % 3 == 1).count();
        prop_assert!(runs as usize <= n + scripted + interrupted);
    }
}

fn run_dir(dir: &Path, n: usize) -> (DirStore, SaOutcome) {
    let ctx = context();
    let p = plan(
        &ctx,
        Shape::Random,
        n,
        &(0..n as u32)
            .map(|i| i.wrapping_mul(2654435761))
            .collect::<Vec<_>>(),
    );
    let store = DirStore::open(dir).unwrap();
    let mut s = SaSession::new(ctx, p, Vec::new(), store)
        .unwrap()
        .with_policy(policy());
    let r = s.run(&mut flaky, &mut AutoApprove::default()).unwrap();
    (s.into_parts().1, r.outcome)
}

/// What `mplp validate --bundle DIR/artifacts`, `mplp validate
/// DIR/timeline/events.ndjson`, `sha256sum -c` and `mplp conformance`'s
/// pack checks say about a directory store.
fn check_pack(dir: &Path, steps: usize) {
    let bundle = mplp_check::bundle::check_dir(&dir.join("artifacts")).unwrap();
    let errors: Vec<String> = bundle
        .violations()
        .filter(|(_, v)| v.is_error())
        .map(|(n, v)| format!("{n}: {v}"))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let log = std::fs::read(dir.join("timeline/events.ndjson")).unwrap();
    let events: Vec<SaEvent> = log
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| SaEvent::from_json(l).unwrap())
        .collect();
    check_finished(&events, &log, steps);
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    for check in mplp_conformance::pack::check_pack(dir, &name, "") {
        assert!(
            check.findings.is_empty(),
            "{}: {:?}",
            check.name,
            check.findings
        );
    }
}

#[test]
fn a_directory_store_is_an_evidence_pack() {
    let dir = tmp("pack");
    let (store, outcome) = run_dir(&dir, 40);
    assert_eq!(outcome, SaOutcome::Completed);
    assert!(store.is_sealed());
    drop(store);
    check_pack(&dir, 40);
    for f in ["context", "plan", "trace", "confirm"] {
        assert!(dir.join(format!("artifacts/{f}.json")).is_file(), "{f}");
    }
    // A sealed pack opens again (checked against its integrity list), and
    // resuming a finished session changes nothing.
    let before = std::fs::read(dir.join("integrity/sha256sums.txt")).unwrap();
    let store = DirStore::open(&dir).unwrap();
    let mut s = SaSession::resume(Vec::new(), store).unwrap();
    let r = s.run(&mut flaky, &mut AutoApprove::default()).unwrap();
    assert_eq!(r.outcome, SaOutcome::Completed);
    assert!(s.sink().is_empty());
    drop(s);
    let log_after = std::fs::read(dir.join("timeline/events.ndjson")).unwrap();
    check_pack(&dir, 40);
    assert_eq!(
        log_after.iter().filter(|b| **b == b'\n').count() as u64,
        r.events
    );
    let _ = before;
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_second_writer_is_refused() {
    let dir = tmp("lock");
    let first = DirStore::open(&dir).unwrap();
    let err = DirStore::open(&dir).unwrap_err();
    assert!(matches!(err, StoreError::Locked { .. }), "{err}");
    assert!(err.to_string().contains("another process"), "{err}");
    drop(first);
    DirStore::open(&dir).unwrap();
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn hand_edited_or_broken_stores_are_refused_naming_the_file() {
    let dir = tmp("edit");
    let (store, _) = run_dir(&dir, 5);
    drop(store);
    let plan_path = dir.join("artifacts/plan.json");
    let edited = std::fs::read_to_string(&plan_path)
        .unwrap()
        .replace("\"completed\"", "\"failed\"");
    std::fs::write(&plan_path, &edited).unwrap();
    let err = DirStore::open(&dir).unwrap_err();
    assert!(err.to_string().starts_with("artifacts/plan.json:"), "{err}");
    assert!(err.to_string().contains("sha256"), "{err}");
    assert_eq!(std::fs::read_to_string(&plan_path).unwrap(), edited); // nothing overwritten
    assert!(dir.join("integrity/sha256sums.txt").is_file());

    // A missing file.
    let dir2 = tmp("missing");
    drop(run_dir(&dir2, 3).0);
    std::fs::remove_file(dir2.join("artifacts/trace.json")).unwrap();
    let err = DirStore::open(&dir2).unwrap_err();
    assert!(
        err.to_string().starts_with("artifacts/trace.json:"),
        "{err}"
    );

    // A file added after sealing.
    let dir3 = tmp("added");
    drop(run_dir(&dir3, 3).0);
    std::fs::write(dir3.join("artifacts/extra.json"), "{}").unwrap();
    let err = DirStore::open(&dir3).unwrap_err();
    assert!(
        err.to_string().starts_with("artifacts/extra.json:"),
        "{err}"
    );

    // Bad JSON in the log of an unsealed store.
    let dir4 = tmp("badlog");
    {
        let mut s = DirStore::open(&dir4).unwrap();
        s.append(br#"{"a":1}"#).unwrap();
    }
    std::fs::write(
        dir4.join("timeline/events.ndjson"),
        b"{\"a\":1}\n{not json\n",
    )
    .unwrap();
    let err = DirStore::open(&dir4).unwrap_err();
    assert!(
        err.to_string().starts_with("timeline/events.ndjson:2:"),
        "{err}"
    );

    // A checkpoint written by another version.
    let dir5 = tmp("version");
    {
        let ctx = context();
        let p = plan(&ctx, Shape::Chain, 2, &[]);
        let store = DirStore::open(&dir5).unwrap();
        let s = SaSession::new(ctx, p, Vec::new(), store).unwrap();
        drop(s);
    }
    let cp = dir5.join("checkpoints/sa-session.json");
    let text = std::fs::read_to_string(&cp)
        .unwrap()
        .replace("sa-session/1", "sa-session/9");
    std::fs::write(&cp, &text).unwrap();
    let err = SaSession::resume(Vec::new(), DirStore::open(&dir5).unwrap()).unwrap_err();
    assert!(err.to_string().contains("sa-session/9"), "{err}");
    assert_eq!(std::fs::read_to_string(&cp).unwrap(), text);

    // A document that is not JSON.
    std::fs::write(&cp, text.replace("sa-session/9", "sa-session/1")).unwrap();
    std::fs::write(dir5.join("artifacts/plan.json"), "{ broken").unwrap();
    let err = DirStore::open(&dir5).unwrap_err();
    assert!(err.to_string().starts_with("artifacts/plan.json:"), "{err}");
    for d in [dir, dir2, dir3, dir4, dir5] {
        std::fs::remove_dir_all(&d).ok();
    }
}

#[test]
fn a_torn_last_line_is_dropped_before_the_next_append() {
    let dir = tmp("torn");
    {
        let mut s = DirStore::open(&dir).unwrap();
        s.append(br#"{"a":1}"#).unwrap();
    }
    let log = dir.join("timeline/events.ndjson");
    let mut bytes = std::fs::read(&log).unwrap();
    bytes.extend_from_slice(br#"{"a":"#);
    std::fs::write(&log, &bytes).unwrap();
    let mut s = DirStore::open(&dir).unwrap();
    assert_eq!(s.event_count(), 1);
    assert_eq!(s.events().unwrap().len(), 1);
    s.append(br#"{"b":2}"#).unwrap();
    assert_eq!(std::fs::read(&log).unwrap(), b"{\"a\":1}\n{\"b\":2}\n");
    std::fs::remove_dir_all(&dir).ok();
}

/// An I/O error injected at write k (k = 1, 2, ... until a run passes
/// every write), then a resume: the pack ends valid every time.
#[test]
fn an_io_error_at_each_write_then_resume() {
    let n = 12;
    let mut k = 1;
    loop {
        let dir = tmp("fault");
        let ctx = context();
        let p = plan(&ctx, Shape::Diamonds, n, &[]);
        let (ctx2, p2) = (ctx.clone(), p.clone());
        let mut store = DirStore::open(&dir).unwrap();
        store.fail_write(k);
        let hit = match SaSession::new(ctx, p, Vec::new(), store) {
            Err(_) => true,
            Ok(s) => {
                let mut s = s.with_policy(policy());
                s.run(&mut flaky, &mut AutoApprove::default()).is_err()
            }
        };
        if !hit {
            std::fs::remove_dir_all(&dir).ok();
            break;
        }
        // The process "crashed" at write k; a new one resumes (if the
        // session was created at all: before that, there is nothing to resume).
        let store = DirStore::open(&dir).unwrap();
        let s = if store.checkpoint("sa-session").unwrap().is_some() {
            SaSession::resume(Vec::new(), store).unwrap_or_else(|e| panic!("write {k}: {e}"))
        } else {
            // Stopped while the session was created: create it again.
            SaSession::new(ctx2, p2, Vec::new(), store).unwrap_or_else(|e| panic!("write {k}: {e}"))
        };
        let mut s = s.with_policy(policy());
        let r = s.run(&mut flaky, &mut AutoApprove::default()).unwrap();
        assert_eq!(r.outcome, SaOutcome::Completed, "write {k}");
        drop(s);
        check_pack(&dir, n);
        std::fs::remove_dir_all(&dir).ok();
        k += 1;
        assert!(k < 10_000);
    }
    assert!(k > 50, "only {k} writes in a run of {n} steps");
}

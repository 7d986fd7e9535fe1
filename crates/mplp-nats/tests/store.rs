//! `NatsStore` against a REAL `nats-server` (JetStream on, 127.0.0.1, a
//! free port): an SA session whose log validates; two processes racing
//! to claim the same steps 1,000 times (exactly one winner each) and to
//! update one document (no lost update); a server restart in the middle
//! of a run, which waits and goes on. Skipped loudly without
//! `nats-server`, failing when `CI` is set.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use std::collections::HashSet;
use std::process::{Command, Stdio};

use mplp_nats::NatsStore;
use mplp_plan::Plan;
use mplp_runtime::store::{Expect, Store, StoreError};
use mplp_runtime::{AutoApprove, SaOutcome, SaSession, StepRequest, StepResult};

#[path = "../../../tests/support/nats_server.rs"]
mod nats_server;

use nats_server::Server;

#[path = "../../../tests/support/chain_plan.rs"]
mod chain_plan;
use chain_plan::chain as inputs;

const RACE_ENV: &str = "MPLP_NATS_STORE_RACER";
const KEYS: usize = 500;
const INCREMENTS: u64 = 100;

fn check_log(events: &[Vec<u8>]) {
    let mut ndjson = Vec::new();
    for e in events {
        ndjson.extend_from_slice(e);
        ndjson.push(b'\n');
    }
    let report = mplp_events::log::validate_sa_log(&ndjson[..]);
    assert!(report.is_empty(), "{report:?}");
    let ids: HashSet<String> = events
        .iter()
        .map(|e| {
            let v: serde_json::Value = serde_json::from_slice(e).unwrap();
            v["event_id"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(ids.len(), events.len());
}

#[test]
fn an_sa_session_keeps_its_state_in_jetstream() {
    let Some(server) = Server::start() else {
        return;
    };
    let (c, p) = inputs(20);
    let store = NatsStore::connect(&server.url(), "run1").unwrap();
    let mut s = SaSession::new(c, p, Vec::new(), store).unwrap();
    let r = s
        .run(
            &mut |_: &StepRequest<'_>| StepResult::done(),
            &mut AutoApprove::default(),
        )
        .unwrap();
    assert_eq!(r.outcome, SaOutcome::Completed);
    let plan_id = s.plan().plan_id.to_string();
    let (_, store) = s.into_parts();
    let events = store.events().unwrap();
    assert_eq!(events.len() as u64, r.events);
    check_log(&events);
    // Another connection sees the same documents.
    let other = NatsStore::connect(&server.url(), "run1").unwrap();
    let plan = other.get("plan", &plan_id).unwrap().unwrap();
    let plan = <Plan as mplp_core::Document>::from_json(&plan.bytes).unwrap();
    assert_eq!(plan.status(), mplp_plan::PlanStatus::Completed);
    assert_eq!(other.event_count(), r.events);
}

/// The child process of the race: claims every step key and increments the
/// shared counter with compare-and-set; prints the keys it won.
#[test]
fn racer_child() {
    let Ok(url) = std::env::var(RACE_ENV) else {
        return; // only as the child of `two_processes_race`
    };
    let mut store = NatsStore::connect(&url, "race").unwrap();
    // Start together: wait for the parent's signal.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while store.get("signal", "go").unwrap().is_none() {
        assert!(std::time::Instant::now() < deadline, "no start signal");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let mut won = Vec::new();
    for k in 0..KEYS {
        match store.put(
            "claim",
            &format!("step-{k}"),
            std::process::id().to_string().as_bytes(),
            Expect::Absent,
        ) {
            Ok(_) => won.push(k),
            Err(StoreError::Conflict { .. }) => {}
            Err(e) => panic!("{e}"),
        }
        if (k as u64) < INCREMENTS {
            loop {
                let cur = store.get("counter", "c").unwrap().unwrap();
                let n: u64 = String::from_utf8(cur.bytes).unwrap().parse().unwrap();
                match store.put(
                    "counter",
                    "c",
                    (n + 1).to_string().as_bytes(),
                    Expect::Revision(cur.revision),
                ) {
                    Ok(_) => break,
                    Err(StoreError::Conflict { .. }) => continue,
                    Err(e) => panic!("{e}"),
                }
            }
        }
    }
    println!(
        "WON {}",
        won.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")
    );
}

#[test]
fn two_processes_race_to_start_the_same_steps() {
    let Some(server) = Server::start() else {
        return;
    };
    let mut setup = NatsStore::connect(&server.url(), "race").unwrap();
    setup.put("counter", "c", b"0", Expect::Absent).unwrap();
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..2)
        .map(|_| {
            Command::new(&exe)
                .args([
                    "--exact",
                    "racer_child",
                    "--nocapture",
                    "--test-threads",
                    "1",
                ])
                .env(RACE_ENV, server.url())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(500));
    setup.put("signal", "go", b"1", Expect::Absent).unwrap();
    let mut all: Vec<HashSet<usize>> = Vec::new();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let line = text
            .lines()
            .find_map(|l| l.split_once("WON ").map(|(_, w)| w.trim()))
            .unwrap_or("");
        all.push(
            line.split(',')
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().unwrap())
                .collect(),
        );
    }
    // 1,000 attempts on 500 steps: every step has exactly one winner.
    assert!(all[0].is_disjoint(&all[1]));
    assert_eq!(all[0].len() + all[1].len(), KEYS);
    eprintln!("claims won: {} and {}", all[0].len(), all[1].len());
    // No lost update: 2 × 100 compare-and-set increments.
    let c = setup.get("counter", "c").unwrap().unwrap();
    assert_eq!(
        String::from_utf8(c.bytes).unwrap(),
        (2 * INCREMENTS).to_string()
    );
}

#[test]
fn a_server_restart_mid_run_pauses_and_goes_on() {
    let Some(server) = Server::start() else {
        return;
    };
    let url = server.url();
    let (c, p) = inputs(30);
    let store = NatsStore::connect(&url, "restart").unwrap();
    let server = std::cell::RefCell::new(server);
    let mut exec = |req: &StepRequest<'_>| {
        if req.position == 10 {
            server.borrow_mut().restart();
        }
        StepResult::done()
    };
    let mut s = SaSession::new(c, p, Vec::new(), store).unwrap();
    let r = s.run(&mut exec, &mut AutoApprove::default()).unwrap();
    assert_eq!(r.outcome, SaOutcome::Completed);
    let events = s.store().events().unwrap();
    assert_eq!(events.len() as u64, r.events);
    assert_eq!(events.len(), 3 + 2 * 30 + 2);
    check_log(&events);
}

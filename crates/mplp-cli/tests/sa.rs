//! `mplp sa simulate` on the real binary: a 200-step run is a pack that
//! `mplp validate --bundle`, `mplp validate` and `sha256sum -c` accept;
//! `--fail-step` ends the run as the policy says and the pack still
//! validates; `--stop-after-events` then `--resume` finishes it; and
//! SIGKILL at 50 random points of a 200-step run, then `--resume`: every
//! pack valid, no event id twice, no step completed twice; an I/O error
//! injected at each write (`--fail-write`, hidden), then `--resume`; and
//! `mplp conformance` on the standalone pack.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{mplp, stderr, stdout};
use mplp_core::{ContextId, Document, StepId};
use mplp_plan::Plan;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "mplp-cli-sa-{name}-{}-{}",
        std::process::id(),
        mplp_core::PlanId::new()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A draft plan of `n` steps: diamonds in a row.
fn write_plan(dir: &Path, n: usize) -> (PathBuf, Vec<StepId>) {
    let mut b = Plan::builder(ContextId::new(), "Simulated", "Two hundred steps");
    let mut ids: Vec<StepId> = Vec::new();
    for i in 0..n {
        let id = match i % 3 {
            0 if i > 0 => b.step_after(format!("Join {i}"), &[ids[i - 1], ids[i - 2]]),
            1 | 2 if i > 0 => b.step_after(format!("Branch {i}"), &[ids[i - 1 - (i % 3 - 1)]]),
            _ => b.step(format!("Start {i}")),
        };
        ids.push(id);
    }
    let path = dir.join("plan.json");
    std::fs::write(&path, b.build().unwrap().to_json_pretty()).unwrap();
    (path, ids)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// What the CLI and `sha256sum` say about a finished pack, and the log's
/// own properties. Returns the number of completed steps.
fn check_pack(pack: &Path) -> usize {
    let o = mplp(&["validate", "--bundle", s(&pack.join("artifacts"))]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let o = mplp(&["validate", s(&pack.join("timeline/events.ndjson"))]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    if Command::new("sha256sum")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok()
    {
        let o = Command::new("sha256sum")
            .args(["-c", "--quiet", "integrity/sha256sums.txt"])
            .current_dir(pack)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    }
    let log = std::fs::read_to_string(pack.join("timeline/events.ndjson")).unwrap();
    let mut ids = HashSet::new();
    let mut completed = HashSet::new();
    let mut sessions = HashSet::new();
    for line in log.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(
            ids.insert(v["event_id"].as_str().unwrap().to_owned()),
            "event id twice"
        );
        sessions.insert(v["sa_id"].as_str().unwrap().to_owned());
        if v["event_type"] == "SAStepCompleted" {
            let step = v["payload"]["step_id"].as_str().unwrap().to_owned();
            assert!(completed.insert(step), "a step completed twice");
        }
    }
    assert_eq!(sessions.len(), 1);
    completed.len()
}

/// `mplp conformance` on the standalone pack: one flow, every check passed.
fn check_conformance(pack: &Path) {
    let o = mplp(&["conformance", "--format", "json", s(pack)]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        v["summary"],
        serde_json::json!({"flows": 1, "passed": 1, "failed": 0, "skipped": 0}),
        "{v:#}"
    );
    let checks = v["flows"][0]["checks"].as_array().unwrap();
    for name in [
        "pack files",
        "pack manifest",
        "pack timeline",
        "pack integrity",
    ] {
        assert!(
            checks
                .iter()
                .any(|c| c["name"] == name && c["status"] == "pass"),
            "{name}: {v:#}"
        );
    }
}

#[test]
fn a_simulated_run_is_a_valid_evidence_pack() {
    let dir = tmp("run");
    let (plan, _) = write_plan(&dir, 200);
    let out = dir.join("pack");
    let o = mplp(&["sa", "simulate", s(&plan), "--out", s(&out), "--seed", "7"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).starts_with("completed: "), "{}", stdout(&o));
    assert_eq!(check_pack(&out), 200);
    check_conformance(&out);
    // A non-empty directory is refused; nothing is overwritten.
    let o = mplp(&["sa", "simulate", s(&plan), "--out", s(&dir)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not empty"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_failing_step_ends_the_run_as_the_policy_says() {
    let dir = tmp("fail");
    let (plan, ids) = write_plan(&dir, 30);
    let out = dir.join("fail-plan");
    let step = ids[10].to_string();
    let o = mplp(&[
        "sa",
        "simulate",
        s(&plan),
        "--out",
        s(&out),
        "--fail-step",
        &step,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).starts_with("failed: "), "{}", stdout(&o));
    check_pack(&out);
    let plan_doc = std::fs::read_to_string(out.join("artifacts/plan.json")).unwrap();
    assert!(plan_doc.contains("\"status\": \"failed\""));
    let out = dir.join("skip");
    let o = mplp(&[
        "sa",
        "simulate",
        s(&plan),
        "--out",
        s(&out),
        "--fail-step",
        &step,
        "--on-exhausted",
        "skip_dependents",
        "--retries",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains(" skipped"), "{}", stdout(&o));
    check_pack(&out);
    // An unknown step is a usage error.
    let o = mplp(&[
        "sa",
        "simulate",
        s(&plan),
        "--out",
        s(&dir.join("x")),
        "--fail-step",
        &StepId::new().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn stop_then_resume() {
    let dir = tmp("stop");
    let (plan, _) = write_plan(&dir, 40);
    let out = dir.join("pack");
    let o = mplp(&[
        "sa",
        "simulate",
        s(&plan),
        "--out",
        s(&out),
        "--seed",
        "3",
        "--stop-after-events",
        "37",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("stopped: "), "{}", stdout(&o));
    assert!(!out.join("integrity/sha256sums.txt").exists());
    let o = mplp(&["sa", "simulate", "--resume", s(&out)]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(check_pack(&out), 40);
    // Resuming a finished run changes nothing.
    let before = std::fs::read(out.join("timeline/events.ndjson")).unwrap();
    let o = mplp(&["sa", "simulate", "--resume", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(out.join("timeline/events.ndjson")).unwrap(),
        before
    );
    // A hand-edited pack is refused, naming the file.
    let p = out.join("artifacts/trace.json");
    let t = std::fs::read_to_string(&p)
        .unwrap()
        .replace("completed", "failed");
    std::fs::write(&p, &t).unwrap();
    let o = mplp(&["sa", "simulate", "--resume", s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("artifacts/trace.json"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&p).unwrap(), t);
    std::fs::remove_dir_all(&dir).ok();
}

/// SplitMix64, for kill times that do not depend on the machine's clock.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn sigkill_at_random_points_then_resume() {
    let kills: u64 = std::env::var("MPLP_SA_KILLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    let dir = tmp("kill");
    let (plan, _) = write_plan(&dir, 200);
    // How long a whole run takes here.
    let t = Instant::now();
    let o = mplp(&[
        "sa",
        "simulate",
        s(&plan),
        "--out",
        s(&dir.join("clean")),
        "--seed",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let full = t.elapsed();
    let mut resumed = 0;
    for i in 0..kills {
        let out = dir.join(format!("k{i}"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_mplp"))
            .args([
                "sa",
                "simulate",
                s(&plan),
                "--out",
                s(&out),
                "--seed",
                &i.to_string(),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let at = full.mul_f64((mix(i) % 1000) as f64 / 1000.0);
        std::thread::sleep(at.max(Duration::from_millis(5)));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let o = mplp(&["sa", "simulate", "--resume", s(&out)]);
        if !o.status.success() {
            // Killed before the settings were written: nothing to resume.
            assert!(
                !out.join("checkpoints/sa-simulate.json").exists(),
                "kill {i}: resume failed: {}",
                stderr(&o)
            );
            assert!(
                stderr(&o).contains("no `mplp sa simulate` run here"),
                "{}",
                stderr(&o)
            );
            continue;
        }
        resumed += 1;
        assert_eq!(check_pack(&out), 200, "kill {i}");
        std::fs::remove_dir_all(&out).ok();
    }
    assert!(
        resumed * 2 >= kills,
        "only {resumed} of {kills} kills hit a running session"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// An I/O error injected at write k of a run (k = 1, 2, ... until a run
/// makes fewer writes), through the binary: the command exits 2 naming
/// the file, and `--resume` (itself failing at its first writes for some
/// k, then resumed again) ends every run with a valid pack. Write 1 is
/// the settings (nothing to resume: the command says so); write 2 is the
/// first document of the session, after the settings: the crash where
/// only the settings were written, which `--resume` starts again.
#[test]
fn an_io_error_at_each_write_through_the_binary_then_resume() {
    let dir = tmp("fault");
    let (plan, _) = write_plan(&dir, 12);
    let mut k = 1u64;
    loop {
        let out = dir.join(format!("w{k}"));
        let o = mplp(&[
            "sa",
            "simulate",
            s(&plan),
            "--out",
            s(&out),
            "--seed",
            "5",
            "--fail-write",
            &k.to_string(),
        ]);
        if o.status.success() {
            // The run made fewer than k writes.
            assert!(stdout(&o).starts_with("completed: "), "{}", stdout(&o));
            check_pack(&out);
            // Every event was a write of its own, the documents more.
            let events = std::fs::read_to_string(out.join("timeline/events.ndjson"))
                .unwrap()
                .lines()
                .count() as u64;
            assert!(k > events + 5, "only {k} writes for {events} events");
            break;
        }
        assert_eq!(o.status.code(), Some(2), "write {k}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("injected I/O error"),
            "write {k}: {}",
            stderr(&o)
        );
        assert!(!out.join("integrity/sha256sums.txt").exists());
        if k == 1 {
            let o = mplp(&["sa", "simulate", "--resume", s(&out)]);
            assert_eq!(o.status.code(), Some(2));
            assert!(
                stderr(&o).contains("no `mplp sa simulate` run here"),
                "{}",
                stderr(&o)
            );
            k += 1;
            continue;
        }
        if k == 2 {
            assert!(out.join("checkpoints/sa-simulate.json").is_file());
            assert!(!out.join("checkpoints/sa-session.json").exists());
            assert!(!out.join("timeline/events.ndjson").exists());
        }
        // Every third resume fails too, at its own first or second write.
        if k % 3 == 0 {
            let o = mplp(&[
                "sa",
                "simulate",
                "--resume",
                s(&out),
                "--fail-write",
                &(k % 2 + 1).to_string(),
            ]);
            // (A resume that makes fewer writes succeeds.)
            if !o.status.success() {
                assert_eq!(o.status.code(), Some(2), "write {k}: {}", stderr(&o));
                assert!(stderr(&o).contains("injected I/O error"), "{}", stderr(&o));
            }
        }
        let o = mplp(&["sa", "simulate", "--resume", s(&out)]);
        assert!(
            o.status.success(),
            "write {k}: {}{}",
            stdout(&o),
            stderr(&o)
        );
        assert!(stdout(&o).starts_with("completed: "), "{}", stdout(&o));
        assert_eq!(check_pack(&out), 12, "write {k}");
        if k == 2 {
            check_conformance(&out);
        }
        std::fs::remove_dir_all(&out).ok();
        k += 1;
        assert!(k < 2_000);
    }
    std::fs::remove_dir_all(&dir).ok();
}

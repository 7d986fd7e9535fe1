//! End-to-end tests of `mplp plan`, `mplp dialog` and `mplp collab`: exit
//! codes, output that other tools accept, bad input, and closed pipes.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{assert_exit, mplp, mplp_stdin, repo, stderr as err, stdout as out};

use mplp_core::{ContextId, Document};
use mplp_dialog::{Dialog, DialogRole};
use mplp_plan::Plan;

/// The valid example files whose name starts with `prefix`.
fn valid_examples(prefix: &str) -> Vec<String> {
    let dir = repo().join("schemas/examples/valid");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with(prefix) && n.ends_with(".json"))
        .map(|n| format!("schemas/examples/valid/{n}"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no {prefix} examples");
    files
}

/// A plan whose step descriptions try to break out of diagram labels.
fn hostile_plan() -> Plan {
    let mut b = Plan::builder(
        ContextId::new(),
        "T\"itle\n%%{init: {'theme':'dark'}}%%",
        "objective",
    );
    let a = b.step("a\"] --> evil[\"x");
    let c = b.step_after("line\nbreak %% comment <b>bold</b> & #35; `tick`", &[a]);
    b.step_after("dot \" ] ; evil -> s0; \\ back\r\nslash", &[a, c]);
    b.build().unwrap()
}

#[test]
fn plan_render_every_example_in_both_formats() {
    for file in valid_examples("plan-") {
        let plan = Plan::from_json(std::fs::read(repo().join(&file)).unwrap()).unwrap();
        let deps: usize = plan.steps().iter().map(|s| s.dependency_ids().len()).sum();
        for format in ["mermaid", "dot"] {
            let o = mplp(&["plan", "render", "--format", format, &file]);
            assert_exit(&o, 0);
            let text = out(&o);
            let (head, arrow) = match format {
                "mermaid" => ("---\ntitle: ", " --> "),
                _ => ("digraph plan {\n", " -> "),
            };
            assert!(text.starts_with(head), "{file}: {text}");
            assert_eq!(text.matches(arrow).count(), deps, "{file} {format}: {text}");
            for (i, step) in plan.steps().iter().enumerate() {
                let node = match format {
                    "mermaid" => format!("  s{i}"),
                    _ => format!("  s{i} [label=\""),
                };
                let line = text
                    .lines()
                    .find(|l| l.starts_with(&node) && !l.contains("-->") && !l.contains("->"))
                    .unwrap_or_else(|| panic!("{file} {format}: step {i}: {text}"));
                // The status is in the label as text, not only as colour.
                assert!(line.contains(&format!("[{}]", step.status())), "{line}");
            }
        }
    }
}

#[test]
fn plan_render_labels_cannot_inject_mermaid() {
    let plan = hostile_plan();
    let o = mplp_stdin(
        &["plan", "render", "--format", "mermaid", "-"],
        plan.to_json().as_bytes(),
    );
    assert_exit(&o, 0);
    let text = out(&o);
    let lines: Vec<&str> = text.lines().collect();
    // The title is one double-quoted YAML string in the front matter.
    assert_eq!(lines[0], "---");
    assert_eq!(
        lines[1],
        "title: \"T\\\"itle %%{init: {'theme':'dark'}}%%\""
    );
    assert_eq!(lines[2..4], ["---", "flowchart TD"]);
    let nodes: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("  s") && l.contains(":::"))
        .collect();
    assert_eq!(nodes.len(), 3, "{text}");
    for (i, line) in nodes.iter().enumerate() {
        let label = line
            .strip_prefix(&format!("  s{i}[\""))
            .and_then(|l| l.strip_suffix("\"]:::pending"))
            .unwrap_or_else(|| panic!("node line {line}"));
        for bad in ['"', '<', '>', '`', '\n', '\r'] {
            assert!(
                !label.replace("<br/>", "").contains(bad),
                "{bad:?} in {label}"
            );
        }
        assert!(!label.contains("%%"), "{label}");
    }
    let edges: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.contains("-->"))
        .collect();
    assert_eq!(edges, ["  s0 --> s1", "  s0 --> s2", "  s1 --> s2"]);
}

#[test]
fn plan_render_labels_cannot_inject_dot() {
    let plan = hostile_plan();
    let o = mplp_stdin(
        &["plan", "render", "--format", "dot", "-"],
        plan.to_json().as_bytes(),
    );
    assert_exit(&o, 0);
    let text = out(&o);
    assert!(
        text.contains(r#"label="T\"itle\n%%{init: {'theme':'dark'}}%%";"#),
        "{text}"
    );
    // The label starts with the step's pointer and short id (issue 43).
    assert!(text.contains(r#"s2 [label="/steps/2 · "#), "{text}");
    assert!(
        text.contains(r#"\ndot \" ] ; evil -> s0; \\\nback\nslash\n[pending]","#),
        "{text}"
    );
    // Three edges, and none made up by a label.
    let edges: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("  s") && l.contains(" -> ") && !l.contains('['))
        .collect();
    assert_eq!(
        edges,
        ["  s0 -> s1;", "  s0 -> s2;", "  s1 -> s2;"],
        "{text}"
    );
    // Every line is a whole statement: no raw newline escaped a string.
    for line in text.lines() {
        assert!(
            line.ends_with(';') || line.ends_with('{') || line.ends_with('}'),
            "{line}"
        );
    }
}

#[test]
fn plan_render_draws_an_invalid_plan_with_its_faults_marked() {
    let file = "schemas/examples/invalid/plan--sa_plan_dag_acyclic--cycle.json";
    for (format, mark) in [("dot", "label=\"cycle\""), ("mermaid", "-- cycle -->")] {
        let o = mplp(&["plan", "render", "--format", format, file]);
        // Drawn, and still reported: the errors on stderr, exit status 1.
        assert_exit(&o, 1);
        assert!(err(&o).contains("[sa_plan_dag_acyclic]"), "{}", err(&o));
        assert!(out(&o).contains(mark), "{}", out(&o));
    }
    let file = "schemas/examples/invalid/plan--sa_plan_dependency_exists--unknown-step.json";
    let o = mplp(&["plan", "render", "--format", "dot", file]);
    assert_exit(&o, 1);
    assert!(out(&o).contains("missing step"), "{}", out(&o));
}

#[test]
fn collab_render_draws_a_simulated_session() {
    let log = mplp(&[
        "collab",
        "simulate",
        "--mode",
        "broadcast",
        "--participants",
        "3",
        "--turns",
        "2",
    ]);
    assert_exit(&log, 0);
    let o = mplp_stdin(
        &["collab", "render", "--format", "mermaid", "-"],
        &log.stdout,
    );
    assert_exit(&o, 0);
    let text = out(&o);
    assert!(text.starts_with("sequenceDiagram\n"), "{text}");
    assert!(text.contains(": broadcast"), "{text}");
    // A broadcast's answer goes back to its sender (issue 43, pictures).
    assert!(text.contains("r1--)r0: answer"), "{text}");
    assert!(!text.contains("--)session: answer"), "{text}");
    // A line that is not a MAP event is reported and left out: exit 1.
    let mut bad = log.stdout.clone();
    bad.extend_from_slice(b"{\"not\": \"an event\"}\n");
    let o = mplp_stdin(&["collab", "render", "--format", "mermaid", "-"], &bad);
    assert_exit(&o, 1);
    assert!(out(&o).starts_with("sequenceDiagram\n"));
    assert!(err(&o).contains(":"), "{}", err(&o));
}

#[test]
fn plan_render_bad_input() {
    let o = mplp(&["plan", "render", "--format", "dot", "no/such/plan.json"]);
    assert_exit(&o, 2);
    assert!(err(&o).contains("no/such/plan.json"), "{}", err(&o));
    let o = mplp(&["plan", "render", "--format", "dot", "schemas"]);
    assert_exit(&o, 2);
    let o = mplp_stdin(&["plan", "render", "--format", "mermaid", "-"], b"{ nope");
    assert_exit(&o, 1);
    assert!(err(&o).contains("[json-syntax]"), "{}", err(&o));
    assert!(out(&o).is_empty());
    // A dialog is not a plan: every missing member is named by its pointer.
    let o = mplp(&[
        "plan",
        "render",
        "--format",
        "dot",
        "schemas/examples/valid/dialog-multi-turn.json",
    ]);
    assert_exit(&o, 1);
    assert!(err(&o).contains("/plan_id: [required]"), "{}", err(&o));
    let o = mplp(&["plan", "render", "--format", "png", "-"]);
    assert_exit(&o, 2);
    let o = mplp(&["plan", "render", "-"]);
    assert_exit(&o, 2);
}

#[test]
fn closed_stdout_is_an_error_not_a_panic() {
    let mut b = Plan::builder(ContextId::new(), "big", "fill the pipe");
    let mut prev = b.step("step 0 with a fairly long description to fill the pipe");
    for i in 1..3000 {
        prev = b.step_after(
            format!("step {i} with a fairly long description to fill the pipe"),
            &[prev],
        );
    }
    let json = b.build().unwrap().to_json();
    for format in ["mermaid", "dot"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mplp"))
            .args(["plan", "render", "--format", format, "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // nobody reads the output
        child
            .stdin
            .take()
            .unwrap()
            .write_all(json.as_bytes())
            .unwrap();
        let o = child.wait_with_output().unwrap();
        assert_exit(&o, 2);
        assert!(err(&o).contains("cannot write the output"), "{}", err(&o));
    }
}

#[test]
fn dialog_convert_every_example_for_both_providers() {
    for file in valid_examples("dialog-") {
        let dialog = Dialog::from_json(std::fs::read(repo().join(&file)).unwrap()).unwrap();
        let o = mplp(&["dialog", "convert", "--to", "openai", &file]);
        if dialog.messages().is_empty() {
            // Both APIs refuse an empty `messages` list: refused, not sent.
            assert_exit(&o, 1);
            assert!(err(&o).contains("openai"), "{}", err(&o));
        } else {
            assert_exit(&o, 0);
            let body: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
            assert_eq!(body["model"], "gpt-4o");
            let messages = body["messages"].as_array().unwrap();
            assert_eq!(messages.len(), dialog.messages().len(), "{file}");
            for (m, d) in messages.iter().zip(dialog.messages()) {
                assert_eq!(m["content"], d.content.as_str(), "{file}");
            }
        }

        let o = mplp(&[
            "dialog",
            "convert",
            "--to",
            "anthropic",
            "--model",
            "m",
            "--max-tokens",
            "77",
            &file,
        ]);
        if dialog.messages().is_empty() {
            assert_exit(&o, 1);
            assert!(err(&o).contains("anthropic"), "{}", err(&o));
            continue;
        }
        assert_exit(&o, 0);
        let body: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
        assert_eq!(body["model"], "m");
        assert_eq!(body["max_tokens"], 77);
        let roles: Vec<&str> = body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["role"].as_str().unwrap())
            .collect();
        assert_eq!(roles.first(), Some(&"user"), "{file}");
        assert!(roles.windows(2).all(|w| w[0] != w[1]), "{file}: {roles:?}");
    }
}

#[test]
fn dialog_prune_fork_and_overview() {
    let mut d = Dialog::with_system_prompt(ContextId::new(), "You are terse.");
    for i in 0..50 {
        d.add_message(
            DialogRole::User,
            format!("message {i} größe {}", "x".repeat(90)),
        )
        .unwrap();
    }
    let json = d.to_json();

    let o = mplp_stdin(
        &[
            "dialog",
            "prune",
            "--max-tokens",
            "300",
            "--safety-margin",
            "0",
            "-",
        ],
        json.as_bytes(),
    );
    assert_exit(&o, 0);
    let pruned = Dialog::from_json(out(&o)).unwrap();
    assert!(pruned.messages().len() < d.messages().len());
    assert_eq!(pruned.messages()[0], d.messages()[0]);
    assert_eq!(pruned.messages().last(), d.messages().last());
    assert_ne!(pruned.dialog_id, d.dialog_id);

    let o = mplp_stdin(
        &[
            "dialog",
            "prune",
            "--max-tokens",
            "1",
            "--safety-margin",
            "0",
            "-",
        ],
        json.as_bytes(),
    );
    assert_exit(&o, 2);
    assert!(
        err(&o).contains("too few for the first message"),
        "{}",
        err(&o)
    );

    let o = mplp_stdin(
        &["dialog", "fork", "--first-k", "1", "--last-n", "2", "-"],
        json.as_bytes(),
    );
    assert_exit(&o, 0);
    let child = Dialog::from_json(out(&o)).unwrap();
    assert_eq!(child.messages().len(), 3);
    assert_eq!(child.messages()[2], d.messages()[50]);

    let o = mplp_stdin(
        &["dialog", "fork", "--node", "--last-n", "2", "-"],
        json.as_bytes(),
    );
    assert_exit(&o, 0);
    let node: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(node["parent_id"], d.dialog_id.to_string());
    assert_eq!(node["split_point"], 51);

    let o = mplp_stdin(&["dialog", "overview", "-"], json.as_bytes());
    assert_exit(&o, 0);
    assert!(out(&o).contains("51 messages"), "{}", out(&o));
}

#[test]
fn dialog_bad_input() {
    for sub in [
        &["convert", "--to", "openai"][..],
        &["prune", "--max-tokens", "9", "--safety-margin", "0"],
        &["fork"],
        &["overview"],
    ] {
        let mut args = vec!["dialog"];
        args.extend_from_slice(sub);
        let o = mplp(&[&args[..], &["missing.json"]].concat());
        assert_exit(&o, 2);
        let o = mplp(&[&args[..], &["schemas"]].concat());
        assert_exit(&o, 2);
        let o = mplp_stdin(&[&args[..], &["-"]].concat(), b"\xff\xfe not json");
        assert_exit(&o, 1);
        let o = mplp(&[&args[..], &["schemas/examples/valid/plan-minimal.json"]].concat());
        assert_exit(&o, 1);
        assert!(err(&o).contains("/dialog_id: [required]"), "{}", err(&o));
    }
    let o = mplp(&["dialog", "convert", "--to", "gemini", "-"]);
    assert_exit(&o, 2);
}

/// `mplp collab simulate ... | mplp validate --kind map-log -`.
fn simulate_then_validate(args: &[&str]) -> String {
    let sim = mplp(&[&["collab", "simulate"][..], args].concat());
    assert_exit(&sim, 0);
    let log = out(&sim);
    assert!(log.lines().count() >= 2, "{args:?}: {log}");
    let v = mplp_stdin(&["validate", "--kind", "map-log", "-"], log.as_bytes());
    assert_exit(&v, 0);
    assert!(
        out(&v).contains("1 valid, 0 invalid"),
        "{args:?}: {}",
        out(&v)
    );
    log
}

#[test]
fn collab_simulate_logs_validate_for_every_mode_and_seed() {
    for (mode, participants) in [
        ("broadcast", "3"),
        ("round_robin", "3"),
        ("round-robin", "4"),
        ("orchestrated", "3"),
        ("swarm", "4"),
        ("pair", "2"),
    ] {
        for seed in ["0", "1", "42"] {
            let args = [
                "--mode",
                mode,
                "--participants",
                participants,
                "--turns",
                "5",
                "--seed",
                seed,
            ];
            let log = simulate_then_validate(&args);
            // Deterministic for a seed.
            let again = out(&mplp(&[&["collab", "simulate"][..], &args].concat()));
            assert_eq!(log, again, "{mode} {seed}");
        }
    }
}

#[test]
fn collab_simulate_with_a_plan_validates() {
    let plan = "schemas/examples/valid/plan-code-review-dag.json";
    for mode in ["broadcast", "round_robin", "orchestrated", "swarm"] {
        let args = ["--mode", mode, "--participants", "3", "--turns", "10"];
        let with = simulate_then_validate(&[&args[..], &["--plan", plan]].concat());
        let without = simulate_then_validate(&args);
        // The plan has an effect: its first agent roles are assigned (in
        // every mode, the orchestrator aside), and the log is not the one
        // without it.
        assert_ne!(with, without, "{mode}: --plan changed nothing");
        for role in ["fetcher", "ci-runner"] {
            assert!(
                with.contains(&format!("\"{role}\"")),
                "{mode}: no `{role}` in {with}"
            );
            assert!(
                !without.contains(&format!("\"{role}\"")),
                "{mode}: {without}"
            );
        }
    }
    // A plan that cannot be read, or is not a plan.
    let o = mplp(&[
        "collab",
        "simulate",
        "--mode",
        "swarm",
        "--participants",
        "3",
        "--turns",
        "2",
        "--plan",
        "no/such/plan.json",
    ]);
    assert_exit(&o, 2);
    assert!(out(&o).is_empty());
    let o = mplp(&[
        "collab",
        "simulate",
        "--mode",
        "swarm",
        "--participants",
        "3",
        "--turns",
        "2",
        "--plan",
        "schemas/examples/valid/context-draft-minimal.json",
    ]);
    assert_exit(&o, 1);
    assert!(out(&o).is_empty());
}

#[test]
fn collab_simulate_bad_input() {
    let o = mplp(&[
        "collab",
        "simulate",
        "--mode",
        "pair",
        "--participants",
        "3",
        "--turns",
        "2",
    ]);
    assert_exit(&o, 2);
    assert!(err(&o).contains("--participants 2"), "{}", err(&o));
    assert!(out(&o).is_empty());
    let o = mplp(&[
        "collab",
        "simulate",
        "--mode",
        "swarm",
        "--participants",
        "0",
        "--turns",
        "2",
    ]);
    assert_exit(&o, 2);
    let base = [
        "collab",
        "simulate",
        "--mode",
        "broadcast",
        "--participants",
        "2",
        "--turns",
        "2",
        "--plan",
    ];
    let o = mplp(&[&base[..], &["missing.json"]].concat());
    assert_exit(&o, 2);
    let o = mplp(
        &[
            &base[..],
            &["schemas/examples/valid/dialog-multi-turn.json"],
        ]
        .concat(),
    );
    assert_exit(&o, 1);
    assert!(err(&o).contains("/plan_id: [required]"), "{}", err(&o));
    let o = mplp_stdin(&[&base[..], &["-"]].concat(), b"[]");
    assert_exit(&o, 1);
    let o = mplp(&[
        "collab",
        "simulate",
        "--mode",
        "mesh",
        "--participants",
        "2",
        "--turns",
        "2",
    ]);
    assert_exit(&o, 2);
}

#[test]
fn simulate_refuses_absurd_participant_counts() {
    for n in ["10001", "100000000"] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_mplp"))
            .args([
                "collab",
                "simulate",
                "--mode",
                "broadcast",
                "--participants",
                n,
                "--turns",
                "1",
            ])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "--participants {n}");
    }
}

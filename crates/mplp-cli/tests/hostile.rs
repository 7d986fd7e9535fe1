//! Hostile and large inputs, with the real `mplp` binary: every
//! input gets its record, output is bounded, streams stay streams, resource
//! options have bounds. Memory itself is measured by `cargo xtask
//! peak-memory` (a real process's VmHWM), not here.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{mplp, mplp_stdin, repo, stdout};
use serde_json::Value;

/// A fresh empty directory under the system's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mplp-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn plan_bytes() -> Vec<u8> {
    std::fs::read(repo().join("schemas/examples/valid/plan-minimal.json")).unwrap()
}

fn valid_log() -> String {
    std::fs::read_to_string(repo().join("schemas/examples/valid/map-log-round-robin.ndjson"))
        .unwrap()
}

/// Every line of JSON output, parsed.
fn records(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn rules(record: &Value, key: &str) -> Vec<String> {
    record[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["rule"].as_str().unwrap().to_owned())
        .collect()
}

fn run_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mplp"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn a_log_on_standard_input_streams_and_reports_each_line() {
    let mut log = valid_log();
    log.push_str("{not json\n");
    let o = mplp_stdin(
        &["validate", "--kind", "map-log", "--format", "json", "-"],
        log.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let r = &records(&o.stdout)[0];
    assert_eq!(r["file"], "-");
    assert_eq!(r["kind"], "map-log");
    assert_eq!(r["valid"], false);
    assert_eq!(r["error_count"], 1);
    let line = log.lines().count() as u64;
    assert_eq!(r["errors"][0]["line"], line);
    assert_eq!(r["errors"][0]["rule"], "json-syntax");
}

#[test]
fn max_errors_caps_the_json_record_and_counts_what_it_cut() {
    let bad = "{\"x\":1}\n".repeat(30);
    let args = [
        "validate",
        "--kind",
        "map-log",
        "--format",
        "json",
        "--max-errors",
        "5",
        "-",
    ];
    let o = mplp_stdin(&args, bad.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    let r = &records(&o.stdout)[0];
    let errors = r["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 5);
    let total = r["error_count"].as_u64().unwrap();
    assert!(total >= 30, "{r}");
    assert_eq!(r["suppressed_errors"].as_u64().unwrap(), total - 5);
    // Errors come in the order found: lines 1, 1, ..., never out of order.
    let lines: Vec<u64> = errors.iter().map(|e| e["line"].as_u64().unwrap()).collect();
    assert!(lines.windows(2).all(|w| w[0] <= w[1]), "{lines:?}");
    // JSON default: everything.
    let o = mplp_stdin(
        &args[..5]
            .iter()
            .chain(["-"].iter())
            .copied()
            .collect::<Vec<_>>(),
        bad.as_bytes(),
    );
    let r = &records(&o.stdout)[0];
    assert_eq!(r["errors"].as_array().unwrap().len() as u64, total);
    assert_eq!(r["suppressed_errors"], 0);
}

#[test]
fn text_output_is_capped_by_default_and_says_how_many_were_not_shown() {
    let bad = "not json\n".repeat(250);
    let o = mplp_stdin(&["validate", "--kind", "map-log", "-"], bad.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let shown = out.lines().filter(|l| l.starts_with("  error:")).count();
    assert_eq!(shown, 100, "{out}");
    assert!(
        out.contains("-: INVALID (map-log): 150 errors and 0 warnings not shown (of 250 and 0"),
        "{out}"
    );
    let all = mplp_stdin(
        &["validate", "--kind", "map-log", "--max-errors", "all", "-"],
        bad.as_bytes(),
    );
    let out = stdout(&all);
    assert_eq!(
        out.lines().filter(|l| l.starts_with("  error:")).count(),
        250
    );
    assert!(!out.contains("not shown"), "{out}");
}

#[test]
fn a_missing_file_gets_a_json_record_with_the_io_rule_and_exit_two() {
    let o = mplp(&[
        "validate",
        "--format",
        "json",
        "no/such/file.json",
        "schemas/examples/valid/plan-minimal.json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let rs = records(&o.stdout);
    assert_eq!(rs.len(), 2, "one record per file");
    assert_eq!(rs[0]["file"], "no/such/file.json");
    assert_eq!(rs[0]["valid"], false);
    assert_eq!(rules(&rs[0], "errors"), ["io"]);
    let message = rs[0]["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains("No such file"), "{message}");
    assert_eq!(rs[1]["valid"], true);
    // Text: an UNREADABLE line and the summary counts it.
    let o = mplp(&["validate", "no/such/file.json"]);
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    assert!(
        out.contains("no/such/file.json: UNREADABLE (auto)"),
        "{out}"
    );
    assert!(out.contains("1 unreadable"), "{out}");
}

#[test]
fn a_path_through_a_file_is_reported_with_the_os_error() {
    let dir = scratch("notdir");
    std::fs::write(dir.join("plan.json"), plan_bytes()).unwrap();
    let o = run_in(&dir, &["validate", "--format", "json", "plan.json/x.json"]);
    assert_eq!(o.status.code(), Some(2));
    let r = &records(&o.stdout)[0];
    assert_eq!(rules(r, "errors"), ["io"]);
    assert!(
        r["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("Not a directory"),
        "{r}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_symlink_loop_is_reported_once_and_no_file_is_checked_twice() {
    let dir = scratch("loop");
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/plan.json"), plan_bytes()).unwrap();
    std::os::unix::fs::symlink("..", dir.join("sub/up")).unwrap();
    std::os::unix::fs::symlink("sub", dir.join("zz-again")).unwrap();
    std::os::unix::fs::symlink("self.json", dir.join("self.json")).unwrap();
    let o = run_in(&dir, &["validate", "--format", "json", "."]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let rs = records(&o.stdout);
    let plans: Vec<&Value> = rs
        .iter()
        .filter(|r| r["file"].as_str().unwrap().ends_with("plan.json"))
        .collect();
    assert_eq!(plans.len(), 1, "{rs:?}");
    assert_eq!(plans[0]["valid"], true);
    let loops: Vec<&Value> = rs
        .iter()
        .filter(|r| {
            r["errors"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["message"].as_str().unwrap().starts_with("directory loop"))
        })
        .collect();
    assert_eq!(loops.len(), 1, "{rs:?}");
    assert_eq!(loops[0]["file"], "./sub/up");
    // The second way into `sub` is skipped with a warning, not re-listed.
    let again = rs.iter().find(|r| r["file"] == "./zz-again").unwrap();
    assert_eq!(rules(again, "warnings"), ["input-skipped"]);
    // Not checked, so not valid (its record says so; the summary counts it apart).
    assert_eq!(again["valid"], false);
    // A link to itself cannot be opened: an io record with the OS error.
    let selfie = rs.iter().find(|r| r["file"] == "./self.json").unwrap();
    assert_eq!(rules(selfie, "errors"), ["io"]);
    assert!(
        selfie["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("symbolic links"),
        "{selfie}"
    );
    assert_eq!(rs.len(), 4, "{rs:?}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_fifo_in_a_directory_is_skipped_without_being_opened() {
    let dir = scratch("fifo");
    std::fs::write(dir.join("a.json"), plan_bytes()).unwrap();
    let made = Command::new("mkfifo")
        .arg(dir.join("pipe.json"))
        .status()
        .unwrap();
    assert!(made.success());
    // No writer ever opens the FIFO: opening it would block forever.
    let o = run_in(&dir, &["validate", "--format", "json", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let rs = records(&o.stdout);
    assert_eq!(rs.len(), 2);
    assert_eq!(rs[1]["file"], "./pipe.json");
    assert_eq!(rules(&rs[1], "warnings"), ["input-skipped"]);
    assert_eq!(
        rs[1]["valid"], false,
        "a FIFO not opened is not valid: {}",
        rs[1]
    );
    assert!(
        rs[1]["warnings"][0]["message"]
            .as_str()
            .unwrap()
            .contains("FIFO"),
        "{}",
        rs[1]
    );
    // In text, the FIFO is skipped, not valid: its own verdict, and the
    // summary counts it apart.
    let o = run_in(&dir, &["validate", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let text = stdout(&o);
    assert!(
        text.contains("./pipe.json: SKIPPED: `./pipe.json` is a FIFO"),
        "{text}"
    );
    assert!(!text.contains("pipe.json: valid"), "{text}");
    assert!(
        text.ends_with(
            "1 file checked: 1 valid, 0 invalid; 0 errors, 0 warnings; 1 skipped (not opened)\n"
        ),
        "{text}"
    );
    // Nothing but the FIFO: nothing was checked, which is not success.
    std::fs::remove_file(dir.join("a.json")).unwrap();
    for format in ["text", "json"] {
        let o = run_in(&dir, &["validate", "--format", format, "."]);
        assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr)
                .contains("nothing was checked (1 input skipped without being opened)"),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_non_utf8_name_is_checked_and_shown_lossily() {
    use std::os::unix::ffi::OsStrExt;
    let dir = scratch("nonutf8");
    let name = std::ffi::OsStr::from_bytes(b"plan-\xff.json");
    std::fs::write(dir.join(name), plan_bytes()).unwrap();
    let o = run_in(&dir, &["validate", "--format", "json", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let r = &records(&o.stdout)[0];
    assert_eq!(r["file"], "./plan-\u{fffd}.json");
    assert_eq!(r["kind"], "plan");
    assert_eq!(r["valid"], true);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_endless_line_is_refused_at_the_line_limit() {
    // 17 MiB without a newline, then a good log: the long line is skipped
    // (never held whole) and the rest is still checked.
    let mut input = vec![b'x'; 17 << 20];
    input.push(b'\n');
    input.extend_from_slice(valid_log().as_bytes());
    let o = mplp_stdin(
        &["validate", "--kind", "map-log", "--format", "json", "-"],
        &input,
    );
    assert_eq!(o.status.code(), Some(1));
    let r = &records(&o.stdout)[0];
    assert_eq!(rules(r, "errors"), ["log_line_too_long"]);
    assert_eq!(r["errors"][0]["line"], 1);
}

#[test]
fn a_document_over_the_size_limit_is_refused_with_a_record() {
    let plan = plan_bytes();
    for file in ["-", "schemas/examples/valid/plan-minimal.json"] {
        let o = mplp_stdin(
            &[
                "validate",
                "--format",
                "json",
                "--max-document-bytes",
                "100",
                file,
            ],
            &plan,
        );
        assert_eq!(o.status.code(), Some(2), "{file}");
        let r = &records(&o.stdout)[0];
        assert_eq!(rules(r, "errors"), ["input-too-large"], "{file}");
        assert!(
            r["errors"][0]["message"]
                .as_str()
                .unwrap()
                .contains("limit of 100 bytes"),
            "{r}"
        );
    }
}

/// A round-robin log cut before its session completes.
fn unfinished_log() -> String {
    let log = valid_log();
    let lines: Vec<&str> = log.lines().collect();
    lines[..lines.len() - 2].join("\n")
}

#[test]
fn a_log_in_progress_fails_by_default_and_passes_with_partial() {
    let log = unfinished_log();
    let strict = mplp_stdin(
        &["validate", "--kind", "map-log", "--format", "json", "-"],
        log.as_bytes(),
    );
    assert_eq!(strict.status.code(), Some(1));
    let r = &records(&strict.stdout)[0];
    assert!(
        rules(r, "errors").contains(&"map_session_completed_last".to_owned()),
        "{r}"
    );
    for flag in ["--partial", "--in-progress"] {
        let partial = mplp_stdin(
            &[
                "validate", "--kind", "map-log", "--format", "json", flag, "-",
            ],
            log.as_bytes(),
        );
        assert_eq!(partial.status.code(), Some(0), "{}", stdout(&partial));
        let p = &records(&partial.stdout)[0];
        assert_eq!(p["valid"], true);
        // The same findings, as warnings.
        assert_eq!(rules(p, "warnings"), rules(r, "errors"));
    }
    // A real error stays an error in partial mode.
    let broken = format!("{log}\n{{not json\n");
    let o = mplp_stdin(
        &["validate", "--kind", "map-log", "--partial", "-"],
        broken.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn an_empty_log_is_valid_with_a_warning() {
    for input in [&b""[..], b"\n  \n"] {
        let o = mplp_stdin(
            &["validate", "--kind", "map-log", "--format", "json", "-"],
            input,
        );
        assert_eq!(o.status.code(), Some(0));
        let r = &records(&o.stdout)[0];
        assert_eq!(r["valid"], true);
        assert_eq!(rules(r, "warnings"), ["log_empty"]);
    }
    let dir = scratch("empty");
    std::fs::write(dir.join("empty.ndjson"), b"").unwrap();
    let o = run_in(&dir, &["validate", "--format", "json", "empty.ndjson"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(rules(&records(&o.stdout)[0], "warnings"), ["log_empty"]);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn canonical_profile_warnings_stream_into_the_record() {
    // Many SDK-rule findings turned into warnings by the profile: they are
    // held aside (spilled past 1 MiB) and all come back in `warnings`.
    // A `swarm` session: a repeated dispatch is then only the SDK's
    // `map_turn_number_sequence` (in `round_robin` it is also an error of the
    // coordination modes, streamed, and `mplp_stdin` writes all its input
    // before it reads).
    let mut log = valid_log().replace("\"round_robin\"", "\"swarm\"");
    let n = 20_000;
    let mut lines: Vec<String> = log.lines().map(str::to_owned).collect();
    let last = lines.pop().unwrap();
    for _ in 0..n {
        lines.push(lines[2].clone());
    }
    lines.push(last);
    log = lines.join("\n");
    let o = mplp_stdin(
        &[
            "validate",
            "--kind",
            "map-log",
            "--format",
            "json",
            "--profile",
            "canonical",
            "--event-id-window",
            "0",
            "-",
        ],
        log.as_bytes(),
    );
    let r = &records(&o.stdout)[0];
    let warnings = r["warnings"].as_array().unwrap().len() as u64;
    assert_eq!(warnings, r["warning_count"].as_u64().unwrap());
    assert!(warnings >= n, "{warnings}");
}

#[test]
fn a_closed_output_ends_the_command_without_a_panic() {
    let bad = "not json\n".repeat(100_000);
    let mut child = Command::new(env!("CARGO_BIN_EXE_mplp"))
        .args(["validate", "--kind", "map-log", "--format", "json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(bad.as_bytes());
    });
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
}

#[test]
fn collab_simulate_refuses_huge_counts_as_usage_errors() {
    for (flag, value) in [
        ("--turns", "18446744073709551615"),
        ("--turns", "1000000001"),
        ("--participants", "10001"),
    ] {
        let mut args = vec![
            "collab",
            "simulate",
            "--mode",
            "round_robin",
            "--participants",
            "3",
            "--turns",
            "2",
        ];
        let at = args.iter().position(|a| *a == flag).unwrap();
        args[at + 1] = value;
        let o = mplp(&args);
        assert_eq!(o.status.code(), Some(2), "{flag} {value}");
        assert!(o.stdout.is_empty());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(flag), "{err}");
    }
    // The bound itself is allowed (and streams: only the first lines are read).
    let o = mplp(&[
        "collab",
        "simulate",
        "--mode",
        "pair",
        "--participants",
        "2",
        "--turns",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(0));
}

/// The largest simulation allowed streams: its first events
/// arrive at once, and closing the output ends it with exit 2 and no panic.
#[test]
fn collab_simulate_at_the_turn_bound_streams_until_the_output_closes() {
    use std::io::BufRead;
    for mode in ["swarm", "round_robin"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mplp"))
            .args(["collab", "simulate", "--mode", mode, "--participants", "3"])
            .args(["--turns", "1000000000"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
        for expected in ["MAPSessionStarted", "MAPRolesAssigned", "MAPTurnDispatched"] {
            let line = lines.next().unwrap().unwrap();
            assert!(line.contains(expected), "{mode}: {line}");
        }
        drop(lines);
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{mode}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("cannot write the event log"), "{mode}: {err}");
        assert!(!err.contains("panicked"), "{mode}: {err}");
    }
}

#[test]
fn dialog_convert_refuses_zero_max_tokens_and_an_empty_model() {
    let dialog = "schemas/examples/valid/dialog-multi-turn.json";
    for args in [
        vec![
            "dialog",
            "convert",
            "--to",
            "anthropic",
            "--max-tokens",
            "0",
            dialog,
        ],
        vec!["dialog", "convert", "--to", "openai", "--model", "", dialog],
    ] {
        let o = mplp(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty());
    }
    let ok = mplp(&[
        "dialog",
        "convert",
        "--to",
        "anthropic",
        "--max-tokens",
        "1",
        dialog,
    ]);
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
}

/// `--kind auto -` (the default) streams a log from standard input instead
/// of reading it whole as one document: a log is known by its first lines
/// (`mplp_check::sniff_log`), a document (pretty-printed or one line) still
/// reads as a document, and line numbers count every line.
#[test]
fn auto_kind_on_stdin_streams_a_log_and_reads_a_document_as_a_document() {
    let log = valid_log();
    let o = mplp_stdin(&["validate", "--format", "json", "-"], log.as_bytes());
    let r = &records(&o.stdout)[0];
    assert_eq!(o.status.code(), Some(0), "{r}");
    assert_eq!(r["kind"], "map-log", "{r}");

    // Blank lines first, a bad third event: the error is on its real line.
    let mut lines: Vec<&str> = log.lines().collect();
    lines[2] = "{\"event_type\": 7}";
    let bad = format!("\n\n{}\n", lines.join("\n"));
    let o = mplp_stdin(&["validate", "--format", "json", "-"], bad.as_bytes());
    let r = &records(&o.stdout)[0];
    assert_eq!(o.status.code(), Some(1), "{r}");
    assert_eq!(r["kind"], "map-log", "{r}");
    let at: Vec<u64> = r["errors"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["line"].as_u64())
        .collect();
    // The broken event is on line 5; what follows from its loss comes after.
    assert_eq!(at.first(), Some(&5), "{r}");
    assert!(at.windows(2).all(|w| w[0] <= w[1]), "{r}");

    // A pretty-printed plan and the same plan on one line: documents.
    let plan = plan_bytes();
    let compact = serde_json::to_vec(&serde_json::from_slice::<Value>(&plan).unwrap()).unwrap();
    for bytes in [plan, compact] {
        let o = mplp_stdin(&["validate", "--format", "json", "-"], &bytes);
        let r = &records(&o.stdout)[0];
        assert_eq!(
            (o.status.code(), r["kind"].as_str()),
            (Some(0), Some("plan")),
            "{r}"
        );
    }
}

/// Runs `mplp` with a 2 MiB main-thread stack (`ulimit -s 2048`), writing
/// `input` to its standard input.
fn mplp_small_stack(args: &[&str], input: &[u8]) -> std::process::Output {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("ulimit -s 2048 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_mplp"))
        .args(args)
        .current_dir(repo());
    common::output_with_stdin(command, input)
}

/// The minimal plan with a trace whose free-form `attributes` nest so that
/// the document nests `total` levels (plan 1, trace 2, attributes 3).
fn deep_plan(total: usize) -> String {
    let levels = total - 3;
    let deep = format!("{}1{}", "[".repeat(levels), "]".repeat(levels));
    let trace = format!(
        r#""trace": {{"trace_id": "5f0c8f43-2b8e-4f4e-9d2b-1c6f0c1e2a3b", "span_id": "6a1d9e54-3c9f-4a5f-8e3c-2d7a1d2f3b4c", "attributes": {{"deep": {deep}}}}},"#
    );
    String::from_utf8(plan_bytes()).unwrap().replacen(
        r#""plan_id""#,
        &format!(r#"{trace} "plan_id""#),
        1,
    )
}

#[test]
fn deep_free_form_members_are_read_to_the_limit_and_refused_past_it_by_name() {
    let limit = mplp_json::nesting::MAX_NESTING;
    let dir = scratch("deep");
    for (total, valid) in [(limit, true), (limit + 1, false), (limit * 50, false)] {
        let text = deep_plan(total);
        std::fs::write(dir.join("plan.json"), &text).unwrap();
        let file = dir.join("plan.json");
        for arg in ["-", file.to_str().unwrap()] {
            let o = mplp_small_stack(&["validate", "--format", "json", arg], text.as_bytes());
            assert_eq!(
                o.status.code(),
                Some(if valid { 0 } else { 1 }),
                "{total} {arg}: {o:?}"
            );
            let r = &records(&o.stdout)[0];
            assert_eq!(r["kind"], "plan", "{r}");
            if !valid {
                assert_eq!(rules(r, "errors"), ["json-depth"], "{total} {arg}");
                let message = r["errors"][0]["message"].as_str().unwrap();
                assert!(message.contains("1024 levels"), "{message}");
                let pointer = r["errors"][0]["pointer"].as_str().unwrap();
                assert!(
                    pointer.starts_with("/trace/attributes/deep/0/0/"),
                    "{pointer}"
                );
            }
        }
        // `plan render` reads it the same way.
        let o = mplp_small_stack(
            &["plan", "render", "--format", "mermaid", "-"],
            text.as_bytes(),
        );
        assert_eq!(
            o.status.code(),
            Some(if valid { 0 } else { 1 }),
            "render {total}: {o:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn integer_messages_accept_minus_zero_and_name_the_range() {
    let plan = String::from_utf8(plan_bytes()).unwrap();
    let with = |n: &str| {
        plan.replacen(
            r#""status": "pending""#,
            &format!(r#""status": "pending", "order_index": {n}"#),
            1,
        )
    };
    let o = mplp_stdin(
        &["validate", "--format", "json", "-"],
        with("-0").as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    for n in ["18446744073709551616", "18446744073709551617"] {
        let o = mplp_stdin(&["validate", "--format", "json", "-"], with(n).as_bytes());
        assert_eq!(o.status.code(), Some(1), "{n}");
        let r = &records(&o.stdout)[0];
        assert_eq!(rules(r, "errors"), ["type"], "{r}");
        assert_eq!(r["errors"][0]["pointer"], "/steps/0/order_index");
        let message = r["errors"][0]["message"].as_str().unwrap();
        assert!(
            message.contains("from 0 to 18446744073709551615"),
            "{message}"
        );
    }
    let o = mplp_stdin(
        &["validate", "--format", "json", "-"],
        with("1.0").as_bytes(),
    );
    let r = &records(&o.stdout)[0];
    let message = r["errors"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("without a fraction or exponent"),
        "{message}"
    );
}

/// The size limit is inclusive: a document of exactly `--max-document-bytes`
/// is read, one byte more is refused, and the refusal gives the file's size
/// (known before reading) or, for standard input, what was read.
#[test]
fn a_document_of_exactly_the_size_limit_is_read() {
    let plan = plan_bytes();
    let dir = scratch("exact-limit");
    let path = dir.join("plan.json");
    std::fs::write(&path, &plan).unwrap();
    let file = path.to_str().unwrap();
    let n = plan.len();
    let run = |max: usize, input: &str| {
        let max = max.to_string();
        let args = [
            "validate",
            "--format",
            "json",
            "--max-document-bytes",
            &max,
            input,
        ];
        mplp_stdin(&args, &plan)
    };
    for input in [file, "-"] {
        let o = run(n, input);
        assert_eq!(o.status.code(), Some(0), "{input}: {}", stdout(&o));
        let o = run(n - 1, input);
        assert_eq!(o.status.code(), Some(2), "{input}");
        let r = &records(&o.stdout)[0];
        assert_eq!(rules(r, "errors"), ["input-too-large"], "{input}");
        let message = r["errors"][0]["message"].as_str().unwrap().to_owned();
        assert!(
            message.contains(&format!("holds at least {n} bytes")),
            "{message}"
        );
    }
    // A file far over the limit is known by its size.
    let o = run(n - 5, file);
    let message = records(&o.stdout)[0]["errors"][0]["message"].to_string();
    assert!(
        message.contains(&format!("holds at least {n} bytes")),
        "{message}"
    );
    let o = run(n - 5, "-");
    let message = records(&o.stdout)[0]["errors"][0]["message"].to_string();
    assert!(
        message.contains(&format!("holds at least {} bytes", n - 4)),
        "{message}"
    );
}

/// The summary adds up every file's errors and warnings.
#[test]
fn the_summary_adds_up_the_files() {
    let dir = scratch("summary");
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend(plan_bytes());
    let mut args = vec!["validate".to_owned()];
    for name in ["a.json", "b.json", "c.json"] {
        std::fs::write(dir.join(name), &bom).unwrap();
        args.push(dir.join(name).to_string_lossy().into_owned());
    }
    let bad = repo().join("schemas/examples/invalid/plan--required--missing-status.json");
    args.push(bad.to_string_lossy().into_owned());
    args.push(bad.to_string_lossy().into_owned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = mplp(&args);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.trim_end()
            .ends_with("5 files checked: 3 valid, 2 invalid; 2 errors, 3 warnings"),
        "{out}"
    );
}

/// `--help` gives the defaults the documentation promises: 256 MiB per
/// document and 229,376 event ids (7/8 of 2^18 buckets).
#[test]
fn the_documented_defaults_are_the_defaults() {
    let o = mplp(&["validate", "--help"]);
    let help = stdout(&o);
    assert!(help.contains("[default: 268435456]"), "{help}");
    assert!(help.contains("[default: 229376]"), "{help}");
}

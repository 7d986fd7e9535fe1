//! `mplp watch` on the real binary: a log on standard input and a file
//! appended to while it is watched; violations show up before the log ends.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use common::{mplp, mplp_stdin, mplp_to_full_device, repo, stdout};

/// Long enough for a loaded machine; the tests never wait for it when
/// things work.
const PATIENCE: Duration = Duration::from_secs(120);

fn log_lines() -> Vec<String> {
    let text =
        std::fs::read_to_string(repo().join("schemas/examples/valid/map-log-round-robin.ndjson"))
            .unwrap();
    text.lines().map(|l| format!("{l}\n")).collect()
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_mplp"))
        .args(args)
        .current_dir(repo())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The child's standard output, line by line, as it comes.
fn lines_of(child: &mut Child) -> Receiver<String> {
    let out = child.stdout.take().unwrap();
    let (send, recv) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    recv
}

/// Waits for an output line containing `needle`; the lines before it.
fn wait_for(lines: &Receiver<String>, needle: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        match lines.recv_timeout(PATIENCE) {
            Ok(line) if line.contains(needle) => return seen,
            Ok(line) => seen.push(line),
            Err(e) => panic!("no line with {needle:?} ({e}); saw {seen:?}"),
        }
    }
}

/// A file of its own under the target directory's temporary folder.
fn temp_log(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("watch-{}-{name}.ndjson", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

fn append(path: &PathBuf, text: &str) {
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f.flush().unwrap();
}

#[test]
fn a_violation_on_stdin_is_printed_before_stdin_closes() {
    let lines = log_lines();
    let mut child = spawn(&["watch", "-"]);
    let output = lines_of(&mut child);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(lines[0].as_bytes()).unwrap();
    stdin.write_all(b"{\"not\": \"an event\"}\n").unwrap();
    stdin.flush().unwrap();
    // Printed while standard input is still open, with its line number.
    let before = wait_for(&output, "line 2: /event_id: [required]");
    assert_eq!(before, ["- (map-log):"]);
    for line in &lines[1..] {
        stdin.write_all(line.as_bytes()).unwrap();
    }
    drop(stdin);
    wait_for(&output, "-: INVALID (map-log)");
    assert_eq!(child.wait().unwrap().code(), Some(1));
}

#[test]
fn a_whole_log_on_stdin_is_valid() {
    let out = mplp_stdin(
        &["watch", "--format", "json", "-"],
        log_lines().concat().as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let record: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(record["valid"], true);
    assert_eq!(record["kind"], "map-log");
    assert_eq!(record["error_count"], 0);
}

#[test]
fn a_followed_file_is_validated_as_it_grows() {
    let lines = log_lines();
    let path = temp_log("grows");
    append(&path, &lines[0]);
    let mut child = spawn(&[
        "watch",
        "--follow",
        "--idle-timeout",
        "5",
        "--format",
        "json",
        path.to_str().unwrap(),
    ]);
    let output = lines_of(&mut child);
    for line in &lines[1..] {
        // Half a line first: it is read only once it is complete.
        let (a, b) = line.split_at(line.len() / 2);
        append(&path, a);
        std::thread::sleep(Duration::from_millis(150));
        append(&path, b);
    }
    let record = output.recv_timeout(PATIENCE).unwrap();
    let record: serde_json::Value = serde_json::from_str(&record).unwrap();
    assert_eq!(record["valid"], true, "{record}");
    assert_eq!(child.wait().unwrap().code(), Some(0));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_followed_file_reports_a_bad_line_as_soon_as_it_is_appended() {
    let lines = log_lines();
    let path = temp_log("bad");
    append(&path, &lines[0]);
    // No idle timeout: it would follow the file for ever.
    let mut child = spawn(&["watch", "--follow", path.to_str().unwrap()]);
    let output = lines_of(&mut child);
    append(&path, &lines[1]);
    append(&path, "{\"event_type\": \"MAPTurnDispatched\"}\n");
    let before = wait_for(&output, "line 3: /event_id: [required]");
    assert_eq!(before, [format!("{} (map-log):", path.display())]);
    child.kill().unwrap();
    child.wait().unwrap();
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_log_left_open_is_judged_when_idle() {
    let lines = log_lines();
    let path = temp_log("open");
    append(&path, &lines[..3].concat());
    let file = path.to_str().unwrap();
    // Not --partial: an open session is an error once the log is taken as ended.
    let out = mplp_stdin(&["watch", "--follow", "--idle-timeout", "0.5", file], b"");
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains("error: line 1: /session_id: [map_session_completed_last]"),
        "{text}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("--idle-timeout"));
    // --partial: a warning.
    let out = mplp_stdin(
        &[
            "watch",
            "--follow",
            "--idle-timeout",
            "0.5",
            "--partial",
            file,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("warning: line 1: /session_id: [map_session_completed_last]"));
    // The same on standard input that stays open.
    let mut child = spawn(&["watch", "--idle-timeout", "0.5", "--kind", "map-log", "-"]);
    let output = lines_of(&mut child);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(lines[..3].concat().as_bytes()).unwrap();
    stdin.flush().unwrap();
    wait_for(&output, "-: INVALID (map-log)");
    assert_eq!(child.wait().unwrap().code(), Some(1));
    drop(stdin);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn an_sa_log_is_told_by_its_first_event_and_bad_arguments_exit_2() {
    let sa =
        std::fs::read(repo().join("schemas/examples/valid/sa-log-code-review.ndjson")).unwrap();
    let mut input = b"\n\n".to_vec(); // blank lines first: line numbers still count them
    input.extend_from_slice(&sa);
    let out = mplp_stdin(&["watch", "-"], &input);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(stdout(&out).trim(), "-: valid (sa-log)");
    let out = mplp_stdin(&["watch", "--kind", "map-log", "-"], &input);
    assert!(stdout(&out).contains("line 3: "), "{}", stdout(&out));
    assert_eq!(out.status.code(), Some(1));

    // --idle-timeout takes a positive, finite number of seconds.
    for bad in ["-1", "0", "inf", "NaN"] {
        let out = mplp_stdin(&["watch", &format!("--idle-timeout={bad}"), "-"], b"");
        assert_eq!(out.status.code(), Some(2), "--idle-timeout {bad}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!(
                "--idle-timeout {bad}: expected a positive number of seconds"
            )),
            "{stderr}"
        );
    }
    let out = mplp(&["watch", "no/such/file.ndjson"]);
    assert_eq!(out.status.code(), Some(2));
    // SUBJECT goes with nats:// only, and nats:// needs it.
    let out = mplp(&[
        "watch",
        "schemas/examples/valid/map-log-round-robin.ndjson",
        "subject",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = mplp(&["watch", "nats://127.0.0.1:1"]);
    assert_eq!(out.status.code(), Some(2));
    // Nothing listens on port 1 (or NATS is not built in): exit 2 with a message.
    let out = mplp(&["watch", "nats://127.0.0.1:1", "mplp.>"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot connect") || stderr.contains("built without NATS"),
        "{stderr}"
    );
}

#[test]
fn a_file_without_follow_is_read_to_its_end_and_an_unwritable_output_exits_2() {
    let valid = "schemas/examples/valid/map-log-round-robin.ndjson";
    let out = mplp(&["watch", valid]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(stdout(&out).trim(), format!("{valid}: valid (map-log)"));
    let path = temp_log("unwritable");
    append(&path, "not json\n");
    let invalid = path.to_str().unwrap();
    let out = mplp(&["watch", invalid]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    // Standard output that cannot be written (a full device), whether the
    // first write is a violation or the verdict: exit 2.
    for log in [valid, invalid] {
        let out = mplp_to_full_device(&["watch", log]);
        assert_eq!(out.status.code(), Some(2), "{log}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("cannot write the output"), "{stderr}");
    }
    let _ = std::fs::remove_file(&path);
}

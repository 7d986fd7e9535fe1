//! End-to-end tests of the CLI's messages: byte-order marks,
//! near-miss suggestions, plurals, usage errors, empty directories, and
//! messages that never name the SDK's internal types.

// Test code: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::PathBuf;

use common::{assert_exit, mplp, mplp_stdin, repo, stderr as err, stdout as out};
use proptest::prelude::*;

/// A fresh directory of this test under cargo's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("ux-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn example(name: &str) -> Vec<u8> {
    std::fs::read(repo().join("schemas/examples/valid").join(name)).unwrap()
}

fn with_bom(bytes: &[u8]) -> Vec<u8> {
    [&b"\xEF\xBB\xBF"[..], bytes].concat()
}

#[test]
fn a_byte_order_mark_is_skipped_with_a_warning_in_documents_and_logs() {
    let dir = scratch("bom");
    let plan = dir.join("plan.json");
    std::fs::write(&plan, with_bom(&example("plan-minimal.json"))).unwrap();
    // An SA log: the mark must not hide the first event from log detection.
    let log = dir.join("run.ndjson");
    std::fs::write(&log, with_bom(&example("sa-log-code-review.ndjson"))).unwrap();
    for file in [&plan, &log] {
        let o = mplp(&["validate", "--format", "json", file.to_str().unwrap()]);
        assert_exit(&o, 0);
        let record: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
        assert_eq!(record["valid"], true);
        assert_eq!(record["warning_count"], 1, "{record}");
        assert_eq!(record["warnings"][0]["rule"], "input-bom");
        assert!(
            record["warnings"][0]["message"]
                .as_str()
                .unwrap()
                .contains("byte-order mark"),
            "{record}"
        );
    }
    let o = mplp(&["validate", "--format", "json", log.to_str().unwrap()]);
    let record: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(record["kind"], "sa-log");
    // Standard input, in text: the warning and a valid verdict.
    let o = mplp_stdin(
        &["validate", "-"],
        &with_bom(&example("dialog-multi-turn.json")),
    );
    assert_exit(&o, 0);
    assert!(out(&o).contains("[input-bom]"), "{}", out(&o));
    assert!(out(&o).contains("-: valid (dialog)"), "{}", out(&o));
    // The other commands read it too, with the warning on standard error.
    let o = mplp(&["plan", "render", "--format", "dot", plan.to_str().unwrap()]);
    assert_exit(&o, 0);
    assert!(out(&o).starts_with("digraph"), "{}", out(&o));
    assert!(err(&o).contains("[input-bom]"), "{}", err(&o));
    // A mark alone is an empty document, and the error says so (no mark).
    let o = mplp_stdin(&["validate", "--kind", "plan", "-"], b"\xEF\xBB\xBF");
    assert_exit(&o, 1);
    assert!(out(&o).contains("[json-syntax]"), "{}", out(&o));
}

#[test]
fn the_library_names_the_byte_order_mark_it_refuses() {
    let bytes = with_bom(&example("plan-minimal.json"));
    let (_, report) = mplp_check::validate_bytes(None, &bytes);
    let v = &report.violations()[0];
    assert_eq!(v.rule.as_str(), "json-syntax");
    assert!(v.message.contains("UTF-8 byte-order mark"), "{}", v.message);
    let (_, report) = mplp_check::validate_bytes(mplp_check::by_name("plan"), &bytes);
    assert!(
        report.violations()[0]
            .message
            .contains("UTF-8 byte-order mark"),
        "{report:?}"
    );
}

#[test]
fn an_event_type_typo_gets_a_suggestion() {
    let mut event: serde_json::Value =
        serde_json::from_slice(&example("map-event-turn-dispatched.json")).unwrap();
    event["event_type"] = "MAPTurnDispatchd".into();
    let o = mplp_stdin(&["validate", "-"], event.to_string().as_bytes());
    assert_exit(&o, 1);
    assert!(
        out(&o)
            .contains("`MAPTurnDispatchd` is not allowed here (did you mean `MAPTurnDispatched`?)"),
        "{}",
        out(&o)
    );
    // In a log as well.
    let log = String::from_utf8(example("map-log-round-robin.ndjson"))
        .unwrap()
        .replacen("MAPTurnDispatched", "MAPturn_dispatched", 1);
    let o = mplp_stdin(&["validate", "--kind", "map-log", "-"], log.as_bytes());
    assert_exit(&o, 1);
    assert!(
        out(&o).contains("(did you mean `MAPTurnDispatched`?)"),
        "{}",
        out(&o)
    );
}

#[test]
fn an_enum_value_typo_gets_a_suggestion_and_a_far_one_does_not() {
    let mut plan: serde_json::Value =
        serde_json::from_slice(&example("plan-minimal.json")).unwrap();
    plan["status"] = "aproved".into();
    let o = mplp_stdin(&["validate", "-"], plan.to_string().as_bytes());
    assert_exit(&o, 1);
    assert!(
        out(&o).contains("(did you mean `approved`?)"),
        "{}",
        out(&o)
    );
    plan["status"] = "zzzzzzz".into();
    let o = mplp_stdin(&["validate", "-"], plan.to_string().as_bytes());
    assert_exit(&o, 1);
    assert!(!out(&o).contains("did you mean"), "{}", out(&o));
}

#[test]
fn a_seed_style_id_member_gets_a_suggestion_from_the_kinds_table() {
    for (member, meant, kind) in [
        ("planId", "plan_id", "plan"),
        ("dialogID", "dialog_id", "dialog"),
        ("sessionId", "session_id", "map-event"),
    ] {
        let doc = format!(r#"{{"{member}":"x","title":"t"}}"#);
        let o = mplp_stdin(&["validate", "-"], doc.as_bytes());
        assert_exit(&o, 1);
        let expected =
            format!("did you mean `{meant}` (which marks a {kind}) instead of `{member}`?");
        assert!(out(&o).contains(&expected), "{}", out(&o));
    }
    let o = mplp_stdin(&["validate", "-"], br#"{"title":"t"}"#);
    assert!(!out(&o).contains("did you mean"), "{}", out(&o));
}

#[test]
fn counts_of_one_are_singular() {
    // A session that claims 2 turns after completing 1.
    let sim = mplp(&[
        "collab",
        "simulate",
        "--mode",
        "round_robin",
        "--participants",
        "2",
        "--turns",
        "1",
    ]);
    assert_exit(&sim, 0);
    let log = out(&sim).replace("\"turns_total\":1", "\"turns_total\":2");
    assert_ne!(log, out(&sim));
    let o = mplp_stdin(&["validate", "--kind", "map-log", "-"], log.as_bytes());
    assert_exit(&o, 1);
    let text = out(&o);
    assert!(
        text.contains("turns_total is 2, but the log shows 1 completed turn (MAPTurnCompleted)"),
        "{text}"
    );
    assert!(
        text.contains("1 file checked: 0 valid, 1 invalid; 1 error, 0 warnings"),
        "{text}"
    );
    assert!(out(&sim).contains("Simulate 1 turn among 2 participants"));
    let o = mplp(&[
        "dialog",
        "prune",
        "--max-tokens",
        "30",
        "--safety-margin",
        "29",
        "schemas/examples/valid/dialog-multi-turn.json",
    ]);
    assert_exit(&o, 2);
    assert!(err(&o).contains("leaves 1 token,"), "{}", err(&o));
    assert!(!err(&o).contains(" 1 tokens"), "{}", err(&o));
}

#[test]
fn argument_errors_are_usage_errors_that_say_what_to_change() {
    let simulate = |mode: &str, n: &str| {
        mplp(&[
            "collab",
            "simulate",
            "--mode",
            mode,
            "--participants",
            n,
            "--turns",
            "2",
        ])
    };
    let o = simulate("broadcast", "0");
    assert_exit(&o, 2);
    assert!(err(&o).contains("--participants"), "{}", err(&o));
    assert!(
        err(&o).contains(
            "`0` is less than the minimum: give a number of participants from 1 to 10,000"
        ),
        "{}",
        err(&o)
    );
    assert!(out(&o).is_empty());
    for n in ["1", "3"] {
        let o = simulate("pair", n);
        assert_exit(&o, 2);
        assert!(
            err(&o).contains(&format!(
                "exactly 2 participants, not {n}: pass `--participants 2`"
            )),
            "{}",
            err(&o)
        );
        assert!(out(&o).is_empty());
    }
    assert_exit(&simulate("pair", "2"), 0);
    // The default safety margin (5,000 tokens) is larger than the window.
    let dialog = "schemas/examples/valid/dialog-multi-turn.json";
    let o = mplp(&["dialog", "prune", "--max-tokens", "50", dialog]);
    assert_exit(&o, 2);
    let e = err(&o);
    assert!(
        e.contains("safety margin of 5000 tokens (the default)"),
        "{e}"
    );
    assert!(e.contains("window of 50 tokens"), "{e}");
    assert!(e.contains("`--safety-margin 5`"), "{e}");
    assert!(out(&o).is_empty());
    let o = mplp(&[
        "dialog",
        "prune",
        "--max-tokens",
        "50",
        "--safety-margin",
        "50",
        dialog,
    ]);
    assert_exit(&o, 2);
    assert!(!err(&o).contains("(the default)"), "{}", err(&o));
    // A margin below the window is used.
    let o = mplp(&[
        "dialog",
        "prune",
        "--max-tokens",
        "5000",
        "--safety-margin",
        "100",
        dialog,
    ]);
    assert_exit(&o, 0);
}

#[test]
fn an_empty_directory_is_reported_and_alone_it_is_a_usage_error() {
    let dir = scratch("empty");
    let empty = dir.join("nothing");
    std::fs::create_dir_all(&empty).unwrap();
    // A file that is not `.json` does not count.
    std::fs::write(empty.join("notes.txt"), "hi").unwrap();
    let o = mplp(&["validate", empty.to_str().unwrap()]);
    assert_exit(&o, 2);
    assert!(
        err(&o).contains("holds no `.json`, `.ndjson` or `.jsonl` file"),
        "{}",
        err(&o)
    );
    assert!(err(&o).contains("nothing to check"), "{}", err(&o));
    assert!(out(&o).is_empty(), "{}", out(&o));
    // With a file beside it: the warning, and the file's verdict decides.
    let o = mplp(&[
        "validate",
        empty.to_str().unwrap(),
        "schemas/examples/valid/plan-minimal.json",
    ]);
    assert_exit(&o, 0);
    assert!(
        err(&o).contains("holds no `.json`, `.ndjson` or `.jsonl` file"),
        "{}",
        err(&o)
    );
    assert!(out(&o).contains("1 file checked: 1 valid"), "{}", out(&o));
    let o = mplp(&[
        "validate",
        "--format",
        "json",
        empty.to_str().unwrap(),
        "schemas/examples/valid/plan-minimal.json",
    ]);
    assert_exit(&o, 0);
    assert_eq!(out(&o).lines().count(), 1, "{}", out(&o));
}

/// Words of Rust's and serde's vocabulary that a message about a document
/// must not use: they name the SDK's types, not the user's JSON.
const INTERNAL: [&str; 6] = [
    "struct ",
    "invalid length",
    "expected struct",
    "Probe",
    "enum ",
    "newtype",
];

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        "[a-z]{0,6}".prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop::collection::vec(inner, 0..4).prop_map(serde_json::Value::Array)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// `[1,2]` and every other JSON text that is not an object gets a
    /// message in JSON's words, whatever kind it is checked as.
    #[test]
    fn messages_about_non_objects_name_no_internal_type(value in json_value()) {
        let bytes = serde_json::to_vec(&value).unwrap();
        let kinds = std::iter::once(None)
            .chain(mplp_check::KINDS.iter().filter(|k| !k.is_log()).map(|k| Some(*k)));
        for kind in kinds {
            let (_, report) = mplp_check::validate_bytes(kind, &bytes);
            prop_assert!(!report.is_valid());
            for v in report.violations() {
                for word in INTERNAL {
                    prop_assert!(
                        !v.message.contains(word),
                        "{:?} as {:?}: {}", value, kind.map(|k| k.name), v.message
                    );
                }
            }
        }
    }
}

#[test]
fn an_array_is_answered_in_json_words() {
    let o = mplp_stdin(&["validate", "-"], b"[1,2]");
    assert_exit(&o, 1);
    assert!(
        out(&o).contains("expected a JSON object (an MPLP document), found an array"),
        "{}",
        out(&o)
    );
    let o = mplp_stdin(&["validate", "--kind", "plan", "-"], b"[1,2]");
    assert_exit(&o, 1);
    assert!(
        out(&o).contains("[type] expected an object, found array"),
        "{}",
        out(&o)
    );
}

/// A large log, simulated: a few megabytes of MAP events.
fn big_log(dir: &std::path::Path) -> PathBuf {
    let sim = mplp(&[
        "collab",
        "simulate",
        "--mode",
        "broadcast",
        "--participants",
        "4",
        "--turns",
        "2000",
    ]);
    assert_exit(&sim, 0);
    let path = dir.join("big.ndjson");
    std::fs::write(&path, &sim.stdout).unwrap();
    path
}

#[test]
fn no_progress_bar_in_pipes() {
    let dir = scratch("progress-pipe");
    let log = big_log(&dir);
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_mplp"))
        .args(["validate", log.to_str().unwrap()])
        .env("MPLP_PROGRESS_BYTES", "1")
        .output()
        .unwrap();
    assert_exit(&o, 0);
    assert!(err(&o).is_empty(), "{}", err(&o));
    assert!(!out(&o).contains("checking"), "{}", out(&o));
}

#[test]
fn a_progress_bar_on_a_terminal_for_text_output_only() {
    // `script` (util-linux) runs the command on a pseudo-terminal.
    let have_script = std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_script {
        assert!(
            std::env::var_os("CI").is_none(),
            "`script` (util-linux) is missing, and CI is set"
        );
        eprintln!(
            "SKIPPED: `script` (util-linux) is not installed; no terminal to test the progress bar on"
        );
        return;
    }
    let dir = scratch("progress-tty");
    let log = big_log(&dir);
    let on_tty = |format: &str| {
        let command = format!(
            "'{}' validate --format {format} '{}' 2>&1",
            env!("CARGO_BIN_EXE_mplp"),
            log.display()
        );
        let o = std::process::Command::new("script")
            .args(["-qfec", &command, "/dev/null"])
            .env("MPLP_PROGRESS_BYTES", "1")
            .env("TERM", "xterm")
            .output()
            .unwrap();
        assert_exit(&o, 0);
        out(&o)
    };
    let text = on_tty("text");
    assert!(text.contains("checking"), "{text}");
    assert!(text.contains("valid (map-log)"), "{text}");
    let json = on_tty("json");
    assert!(!json.contains("checking"), "{json}");
    assert!(json.contains("\"valid\":true"), "{json}");
}

/// The plan example with its first `order_index` written as `number`.
fn plan_with_order_index(number: &str) -> Vec<u8> {
    let text = String::from_utf8(example("plan-code-review-dag.json")).unwrap();
    let at = text.find("\"order_index\": 0").unwrap();
    let mut changed = text.clone();
    changed.replace_range(
        at..at + "\"order_index\": 0".len(),
        &format!("\"order_index\": {number}"),
    );
    changed.into_bytes()
}

#[test]
fn an_out_of_range_number_gets_the_range_rule_and_is_echoed_as_written() {
    // Well-formed JSON (RFC 8259 sets no range): the member's rule, not
    // `json-syntax`; the number as the user wrote it, not as an `f64`.
    for (number, rule, expected) in [
        (
            "1e400",
            "type",
            "expected an integer from 0 to 18446744073709551615 (the range of a 64-bit unsigned integer), found 1e400",
        ),
        (
            "18446744073709551617",
            "type",
            "expected an integer from 0 to 18446744073709551615 (the range of a 64-bit unsigned integer), found 18446744073709551617",
        ),
        (
            "-1E+400",
            "minimum",
            "expected an integer of at least 0, found -1E+400",
        ),
        (
            "1.00000000000000000001",
            "type",
            "expected an integer written without a fraction or exponent, found 1.00000000000000000001",
        ),
    ] {
        let o = mplp_stdin(
            &["validate", "--format", "json", "--kind", "plan", "-"],
            &plan_with_order_index(number),
        );
        assert_exit(&o, 1);
        let record: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
        assert_eq!(record["error_count"], 1, "{record}");
        let e = &record["errors"][0];
        assert_eq!(e["pointer"], "/steps/0/order_index", "{record}");
        assert_eq!(e["rule"], rule, "{record}");
        assert_eq!(e["message"], expected, "{record}");
    }
    // The same in a log line (the log validators' thorough pass).
    let log = String::from_utf8(example("map-log-round-robin.ndjson")).unwrap();
    assert!(
        log.lines()
            .next()
            .unwrap()
            .contains(r#""participant_count":3"#)
    );
    let bad = log.replacen(
        r#""participant_count":3"#,
        r#""participant_count":1e400"#,
        1,
    );
    let o = mplp_stdin(
        &["validate", "--format", "json", "--kind", "map-log", "-"],
        bad.as_bytes(),
    );
    assert_exit(&o, 1);
    let record: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    let errors = record["errors"].as_array().unwrap();
    assert!(
        errors.iter().all(|e| e["rule"] != "json-syntax"),
        "{record}"
    );
    let e = errors
        .iter()
        .find(|e| e["pointer"] == "/payload/participant_count")
        .unwrap_or_else(|| panic!("{record}"));
    assert_eq!(e["line"], 1, "{record}");
    assert!(
        e["message"].as_str().unwrap().ends_with(", found 1e400"),
        "{record}"
    );
    // Text: a syntax error is still one, with its line and column.
    let o = mplp_stdin(
        &["validate", "--kind", "plan", "-"],
        &plan_with_order_index("1e400,,"),
    );
    assert_exit(&o, 1);
    assert!(
        out(&o).contains("[json-syntax] not well-formed JSON"),
        "{}",
        out(&o)
    );
}

#[test]
fn a_negative_max_errors_is_refused_without_suggesting_a_file_name() {
    let o = mplp(&[
        "validate",
        "--max-errors",
        "-1",
        "schemas/examples/valid/plan-minimal.json",
    ]);
    assert_exit(&o, 2);
    let e = err(&o);
    assert!(!e.contains("-- -1"), "{e}");
    assert!(e.contains("`-1` is negative"), "{e}");
    assert!(e.contains("or `all` for no limit"), "{e}");
    let o = mplp(&[
        "validate",
        "--max-errors",
        "lots",
        "schemas/examples/valid/plan-minimal.json",
    ]);
    assert_exit(&o, 2);
    assert!(err(&o).contains("`lots` is not a number"), "{}", err(&o));
    let o = mplp(&[
        "validate",
        "--max-errors",
        "0",
        "schemas/examples/valid/plan-minimal.json",
    ]);
    assert_exit(&o, 0);
}

#[test]
fn report_refuses_a_negative_max_errors_without_suggesting_a_file_name() {
    let o = mplp(&[
        "report",
        "--max-errors",
        "-1",
        "schemas/examples/valid/plan-minimal.json",
    ]);
    assert_exit(&o, 2);
    let e = err(&o);
    assert!(!e.contains("-- -1"), "{e}");
    assert!(
        e.contains("`-1` is negative: give a number of errors per file from 0 to"),
        "{e}"
    );
    let o = mplp(&[
        "report",
        "--max-errors",
        "99999999999999999999999",
        "schemas/examples/valid/plan-minimal.json",
    ]);
    assert_exit(&o, 2);
    assert!(err(&o).contains("is more than the maximum"), "{}", err(&o));
    let o = mplp(&[
        "report",
        "--max-errors",
        "3",
        "schemas/examples/valid/plan-minimal.json",
    ]);
    assert_exit(&o, 0);
}

#[test]
fn too_many_turns_name_the_maximum() {
    for turns in ["99999999999999999999", "1000000001"] {
        let o = mplp(&[
            "collab",
            "simulate",
            "--mode",
            "broadcast",
            "--participants",
            "2",
            "--turns",
            turns,
        ]);
        assert_exit(&o, 2);
        let e = err(&o);
        assert!(
            e.contains(&format!(
                "`{turns}` is more than the maximum, 1,000,000,000 turns"
            )),
            "{e}"
        );
        assert!(!e.contains("too large to fit"), "{e}");
    }
    let o = mplp(&[
        "collab",
        "simulate",
        "--mode",
        "broadcast",
        "--participants",
        "2",
        "--turns",
        "-3",
    ]);
    assert_exit(&o, 2);
    assert!(err(&o).contains("`-3` is negative"), "{}", err(&o));
    assert!(!err(&o).contains("-- -3"), "{}", err(&o));
}

#[test]
fn a_directory_says_what_it_did_not_check() {
    let dir = scratch("passed-by");
    std::fs::write(dir.join("plan.expect.json"), "{}").unwrap();
    std::fs::write(dir.join("notes.txt"), "hi").unwrap();
    let o = mplp(&["validate", dir.to_str().unwrap()]);
    assert_exit(&o, 2);
    let e = err(&o);
    assert!(
        e.contains("holds no `.json`, `.ndjson` or `.jsonl` file"),
        "{e}"
    );
    assert!(e.contains("2 files not checked: 1 `*.expect.json`"), "{e}");
    assert!(
        e.contains("plan.expect.json`; name one to check it), 1 of other names (`"),
        "{e}"
    );
    // A `.jsonl` file is a log, in a directory as on the command line.
    std::fs::write(dir.join("run.jsonl"), example("map-log-round-robin.ndjson")).unwrap();
    let o = mplp(&["validate", dir.to_str().unwrap()]);
    assert_exit(&o, 0);
    assert!(
        out(&o).contains("run.jsonl: valid (map-log)"),
        "{}",
        out(&o)
    );
    assert!(err(&o).contains("2 files not checked"), "{}", err(&o));
}

/// Every numeric option refuses a number out of range by naming the range
/// (never clap's "number too large to fit in target type"), and a negative
/// one without suggesting `-- -1` (which would make it a file name).
#[test]
fn every_count_option_names_its_range() {
    let plan = "schemas/examples/valid/plan-minimal.json";
    let dialog = "schemas/examples/valid/dialog-multi-turn.json";
    // (the command before the option, the option, what it counts, its maximum)
    let mut cases: Vec<(Vec<&str>, &str, &str, &str)> = vec![
        (
            vec!["validate", plan],
            "--max-document-bytes",
            "bytes",
            "18,446,744,073,709,551,615",
        ),
        (
            vec!["validate", plan],
            "--event-id-window",
            "events",
            "18,446,744,073,709,551,615",
        ),
        (
            vec!["sa", "simulate", plan, "--out", "x"],
            "--retries",
            "retries",
            "4,294,967,295",
        ),
        (
            vec!["sa", "simulate", plan, "--out", "x"],
            "--stop-after-events",
            "events",
            "18,446,744,073,709,551,615",
        ),
        (
            vec!["collab", "simulate", "--mode", "broadcast", "--turns", "2"],
            "--participants",
            "participants",
            "10,000",
        ),
        (
            vec!["dialog", "prune", dialog],
            "--max-tokens",
            "tokens",
            "18,446,744,073,709,551,615",
        ),
        (
            vec!["dialog", "prune", dialog, "--max-tokens", "100"],
            "--safety-margin",
            "tokens",
            "18,446,744,073,709,551,615",
        ),
        (
            vec!["dialog", "fork", dialog],
            "--last-n",
            "messages",
            "18,446,744,073,709,551,615",
        ),
        (
            vec!["dialog", "fork", dialog],
            "--first-k",
            "messages",
            "18,446,744,073,709,551,615",
        ),
        (
            vec!["dialog", "convert", "--to", "anthropic", dialog],
            "--max-tokens",
            "tokens",
            "4,294,967,295",
        ),
    ];
    if cfg!(feature = "http") {
        cases.extend([
            (
                vec!["dialog", "send", dialog],
                "--timeout",
                "seconds",
                "18,446,744,073,709,551,615",
            ),
            (
                vec!["dialog", "send", dialog],
                "--max-retries",
                "retries",
                "4,294,967,295",
            ),
            (
                vec!["dialog", "send", dialog],
                "--max-tokens",
                "tokens",
                "4,294,967,295",
            ),
        ]);
    }
    for (before, option, what, max) in &cases {
        for (value, says) in [
            (
                "99999999999999999999999",
                format!("is more than the maximum, {max} {what}"),
            ),
            (
                "-1",
                format!("`-1` is negative: give a number of {what} from "),
            ),
            (
                "ten",
                format!("`ten` is not a number: give a number of {what} from "),
            ),
        ] {
            let mut args = before.clone();
            args.extend([*option, value]);
            let o = mplp(&args);
            assert_exit(&o, 2);
            let e = err(&o);
            assert!(e.contains(&says), "{args:?}: {e}");
            assert!(e.contains(option), "{args:?}: {e}");
            assert!(
                !e.contains("too large to fit") && !e.contains("-- -1"),
                "{args:?}: {e}"
            );
        }
    }
    // A minimum of 1 is named too.
    let o = mplp(&[
        "dialog",
        "convert",
        "--to",
        "anthropic",
        dialog,
        "--max-tokens",
        "0",
    ]);
    assert_exit(&o, 2);
    assert!(
        err(&o).contains(
            "`0` is less than the minimum: give a number of tokens from 1 to 4,294,967,295"
        ),
        "{}",
        err(&o)
    );
}

//! The fast reader (`mplp_json::fast`) against serde_json, for every kind:
//! whenever the fast reader reads a value, serde_json reads the same text
//! to the same value (so trying the fast reader first never changes a
//! result), and it does read every valid example, written compactly,
//! indented, or with random whitespace and string escapes (so the fast
//! path is the path valid input takes).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use proptest::prelude::*;
use serde_json::Value;

#[path = "../../crates/mplp-core/tests/support/respell.rs"]
mod respell;

use respell::{Changes, Outcome, Rng, compare, edit, has_fraction, respell, restructure};

/// Reads one text of a kind both ways.
type Read = fn(&str) -> Outcome;

/// The reader of an example's kind, by the example's file name.
fn reader(name: &str) -> Read {
    const READERS: &[(&str, Read)] = &[
        ("plan-", compare::<mplp_plan::Plan>),
        ("dialog-", compare::<mplp_dialog::Dialog>),
        ("collab-", compare::<mplp_collab::Collab>),
        ("context-", compare::<mplp_context::Context>),
        ("confirm-", compare::<mplp_confirm::Confirm>),
        ("trace-", compare::<mplp_trace::Trace>),
        ("role-", compare::<mplp_role::Role>),
        ("extension-", compare::<mplp_extension::Extension>),
        ("network-", compare::<mplp_network::Network>),
        ("core-", compare::<mplp_manifest::CoreManifest>),
        ("map-event-", compare::<mplp_events::MapEvent>),
        ("map-log-", compare::<mplp_events::MapEvent>),
        ("sa-event-", compare::<mplp_events::SaEvent>),
        ("sa-log-", compare::<mplp_events::SaEvent>),
        ("event-", compare::<mplp_events::CoreEvent>),
        ("module-event-", compare::<mplp_core::BaseEvent>),
        (
            "learning-sample-",
            compare::<mplp_events::learning::LearningSample>,
        ),
        (
            "common-learning-sample-",
            compare::<mplp_events::learning::CommonLearningSample>,
        ),
        ("ci-event-", compare::<mplp_events::integration::CiEvent>),
        (
            "tool-event-",
            compare::<mplp_events::integration::ToolEvent>,
        ),
        ("git-event-", compare::<mplp_events::integration::GitEvent>),
        (
            "file-update-event-",
            compare::<mplp_events::integration::FileUpdateEvent>,
        ),
    ];
    READERS
        .iter()
        .find(|(prefix, _)| name.starts_with(prefix))
        .map(|&(_, read)| read)
        .unwrap_or_else(|| panic!("no kind for {name}"))
}

/// Every document of `schemas/examples/{dir}` (each line of a log), with
/// its reader.
fn examples(dir: &str) -> Vec<(String, String, Read)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../schemas/examples");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(root.join(dir)).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if path.is_dir() || name.ends_with(".expect.json") || name.starts_with("seed-") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        if name.ends_with(".ndjson") {
            for (i, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
                out.push((format!("{name}:{}", i + 1), line.to_owned(), reader(&name)));
            }
        } else if name.ends_with(".json") {
            out.push((name.clone(), text, reader(&name)));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn valid_examples_take_the_fast_path_compact_and_indented() {
    let all = examples("valid");
    assert!(all.len() > 90, "{} examples", all.len());
    let mut gave_up = Vec::new();
    for (name, text, read) in &all {
        let value: Value = serde_json::from_str(text).unwrap();
        for written in [
            text.clone(),
            serde_json::to_string(&value).unwrap(),
            serde_json::to_string_pretty(&value).unwrap(),
        ] {
            match read(&written) {
                Outcome::Read => {}
                Outcome::GaveUp if has_fraction(&serde_json::from_str(text).unwrap()) => {
                    gave_up.push(name.clone())
                }
                other => panic!("{name}: {other:?}\n{written}"),
            }
        }
    }
    // Numbers with fractions are rare in the examples: most take the fast path.
    assert!(gave_up.len() * 10 < all.len() * 3, "gave up on {gave_up:?}");
}

#[test]
fn invalid_examples_are_never_read() {
    let all = examples("invalid");
    assert!(all.len() > 100, "{} examples", all.len());
    for (name, text, read) in &all {
        // Semantic rules are not the typed parse's business: only check
        // that the fast reader does not read what serde_json refuses.
        read(text);
        let _ = name;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Every valid example respelled (whitespace, escapes): both readers
    /// read it, to the same value.
    #[test]
    fn respelled_examples_read_alike(seed in 1u64.., pick in any::<prop::sample::Index>()) {
        let all = examples("valid");
        let (name, text, read) = &all[pick.index(all.len())];
        let mut rng = Rng(seed);
        let mut out = String::new();
        respell(&serde_json::from_str(text).unwrap(), &mut rng, &mut out);
        let outcome = read(&out);
        prop_assert!(
            outcome == Outcome::Read || (outcome == Outcome::GaveUp && has_fraction(&serde_json::from_str(text).unwrap())),
            "{}: {:?}\n{}", name, outcome, out
        );
    }

    /// Valid examples with one to three random edits: whatever the fast
    /// reader reads, serde_json reads to the same value.
    #[test]
    fn edited_examples_never_read_differently(seed in 1u64.., pick in any::<prop::sample::Index>(), edits in 1usize..4) {
        let all = examples("valid");
        let (_, text, read) = &all[pick.index(all.len())];
        let mut rng = Rng(seed);
        let mut out = if rng.below(2) == 0 {
            text.clone()
        } else {
            serde_json::to_string(&serde_json::from_str::<Value>(text).unwrap()).unwrap()
        };
        for _ in 0..edits {
            out = edit(&out, &mut rng);
        }
        read(&out);
    }

    /// Valid examples with their objects restructured (members reordered,
    /// named twice, left out, added, of another type; names escaped):
    /// whatever the fast reader's direct reads take, serde_json reads to
    /// the same value, and a reordering alone is read.
    #[test]
    fn restructured_examples_read_alike(seed in 1u64.., pick in any::<prop::sample::Index>()) {
        let all = examples("valid");
        let (name, text, read) = &all[pick.index(all.len())];
        let value: Value = serde_json::from_str(text).unwrap();
        let mut changes = Changes::default();
        let mut out = String::new();
        restructure(&value, &mut Rng(seed), &mut out, &mut changes);
        let outcome = read(&out);
        if changes.broken == 0 && !has_fraction(&value) {
            prop_assert_eq!(outcome, Outcome::Read, "{}: {:?}\n{}", name, changes, out);
        }
    }
}

#[test]
fn hostile_input_is_left_to_serde_json() {
    let plan = compare::<mplp_plan::Plan>;
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    for text in [
        "",
        " ",
        "{",
        "[]",
        "null",
        "\u{feff}{}",
        deep.as_str(),
        "{\"meta\":{},\"meta\":{}}",
        "{\"title\":\"\\ud800\"}",
        "{\"title\":\"a\u{1}b\"}",
        "{\"title\":1e999999}",
    ] {
        assert_ne!(plan(text), Outcome::Read, "{text}");
    }
    let event = examples("valid")
        .into_iter()
        .find(|(n, _, _)| n.starts_with("event-intent"))
        .unwrap()
        .1;
    let mut value: Value = serde_json::from_str(&event).unwrap();
    // A free-form member nested deeper than the fast reader goes: serde_json reads it.
    let mut nested = Value::from(1);
    for _ in 0..150 {
        nested = Value::Array(vec![nested]);
    }
    value["payload"]["deep"] = nested;
    let text = serde_json::to_string(&value).unwrap();
    assert_eq!(compare::<mplp_events::CoreEvent>(&text), Outcome::GaveUp);
}

/// Every one-character change (replaced, inserted, removed) in and around
/// each string value of `line` that the fast reader reads in place (an id
/// of 36 bytes, a timestamp of 24, an `event_type` compared with its
/// closing quote), with the characters that matter there: each is read as
/// serde_json reads it (`read` fails otherwise). How many were read.
fn one_char_changes_read_alike(line: &str, read: Read) -> usize {
    const CHARS: [char; 16] = [
        '"', '\\', '\u{1}', '\t', ' ', 'a', 'A', 'F', 'g', '0', '4', '-', ':', 'T', 'z', 'é',
    ];
    let mut n = 0;
    let mut starts = vec![];
    let mut in_string = false;
    for (i, c) in line.char_indices() {
        if c == '"' {
            if !in_string {
                starts.push(i);
            }
            in_string = !in_string;
        }
    }
    for start in starts {
        for i in start..(start + 40).min(line.len()) {
            if !line.is_char_boundary(i) || !line.is_char_boundary(i + 1) {
                continue;
            }
            let (head, tail) = line.split_at(i);
            let mut texts = vec![format!("{head}{}", &tail[1..])];
            for c in CHARS {
                texts.push(format!("{head}{c}{}", &tail[1..]));
                texts.push(format!("{head}{c}{tail}"));
            }
            n += texts.iter().filter(|t| read(t) == Outcome::Read).count();
        }
    }
    n
}

#[test]
fn one_char_changes_of_log_lines_read_alike() {
    let sa = r#"{"event_id":"9f7cc6d8-b810-431b-955e-bd012c73af5d","event_type":"SAStepCompleted","timestamp":"2026-11-27T23:49:34.956Z","sa_id":"bad2cc2c-3740-4877-9e36-bb3aed92a0a8","payload":{"step_id":"9ab149c3-7131-4d4d-a57a-25adb2182c21","status":"completed"}}"#;
    let map = r#"{"event_id":"77905544-b485-4e5c-8a1b-efe32d871428","event_type":"MAPSessionStarted","timestamp":"2026-11-27T23:49:34.905Z","session_id":"9ab149c3-7131-4d4d-a57a-25adb2182c21","payload":{"mode":"round_robin","participant_count":3}}"#;
    assert_eq!(compare::<mplp_events::SaEvent>(sa), Outcome::Read);
    assert_eq!(compare::<mplp_events::MapEvent>(map), Outcome::Read);
    assert!(one_char_changes_read_alike(sa, compare::<mplp_events::SaEvent>) > 100);
    assert!(one_char_changes_read_alike(map, compare::<mplp_events::MapEvent>) > 100);
    // Upper-case ids are of `format: uuid` (their text is kept); escapes
    // inside and right after the 36 bytes.
    let id = "9f7cc6d8-b810-431b-955e-bd012c73af5d";
    for (spelled, outcome) in [
        (id.to_uppercase(), Outcome::Read),
        (format!("{}\\u0064", &id[..35]), Outcome::Read),
        (format!("\\u0039{}", &id[1..]), Outcome::Read),
        (format!("{id}\\u0064"), Outcome::Refused),
        (format!("{id}\\\\"), Outcome::Refused),
        (format!("{id}0"), Outcome::Refused),
        (id[..35].to_string(), Outcome::Refused),
        (id.replace('-', "_"), Outcome::Refused),
    ] {
        let text = sa.replace(id, &spelled);
        assert_eq!(compare::<mplp_events::SaEvent>(&text), outcome, "{spelled}");
    }
    for (spelled, outcome) in [
        ("SAStepCompleted", Outcome::Read),
        ("SAStep\\u0043ompleted", Outcome::Read),
        ("SAStepCompleted ", Outcome::Refused),
        ("SAStepComplete", Outcome::Refused),
        ("SAStepCompletedd", Outcome::Refused),
        ("sastepcompleted", Outcome::Refused),
    ] {
        let text = sa.replace("SAStepCompleted", spelled);
        assert_eq!(compare::<mplp_events::SaEvent>(&text), outcome, "{spelled}");
    }
}

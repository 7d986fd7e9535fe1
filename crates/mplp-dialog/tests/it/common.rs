//! Shared helpers and proptest strategies.

use std::path::PathBuf;

use mplp_core::{ContextId, Timestamp};
use mplp_dialog::{Dialog, DialogRole, Message};
use proptest::prelude::*;

pub(crate) fn examples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../schemas/examples")
}

/// `(file name, bytes)` of every example whose name starts with `dialog`.
pub(crate) fn examples(kind: &str) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(examples_dir().join(kind))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("dialog") && name.ends_with(".json") && !name.ends_with(".expect.json")
        })
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no dialog examples found in {kind}");
    out
}

/// The `i`-th second after 2025-12-07T00:00:00Z.
pub(crate) fn ts(i: usize) -> Timestamp {
    let (h, m, s) = (i / 3600 % 24, i / 60 % 60, i % 60);
    Timestamp::parse(&format!("2025-12-07T{h:02}:{m:02}:{s:02}Z")).unwrap()
}

pub(crate) fn role() -> impl Strategy<Value = DialogRole> {
    prop::sample::select(DialogRole::ALL.to_vec())
}

/// Content: mostly words, sometimes empty, whitespace-only, multi-byte or long.
pub(crate) fn content() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[a-zA-Z0-9 .,?!]{1,40}",
        1 => Just(String::new()),
        1 => "[ \t\n]{1,3}",
        1 => "[äöü€😀a-z ]{1,20}",
        1 => "[a-z ]{100,400}",
        1 => "[äöü€😀 a-z]{100,300}",
    ]
}

pub(crate) fn messages(max: usize) -> impl Strategy<Value = Vec<Message>> {
    prop::collection::vec((role(), content()), 0..max).prop_map(|v| {
        v.into_iter()
            .enumerate()
            .map(|(i, (r, c))| Message::new(r, c, ts(i)))
            .collect()
    })
}

/// An active dialog holding the given messages.
pub(crate) fn dialog_with(messages: Vec<Message>) -> Dialog {
    let mut d = Dialog::new_at(ContextId::new(), ts(0));
    for m in messages {
        d.push_message(m).unwrap();
    }
    d
}

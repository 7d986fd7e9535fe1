//! Log lines that are not UTF-8 (stop 55): the fast reader checks a line for
//! UTF-8 only from its first string handed out as text to the end of the
//! line (`mplp_json::fast::read_bytes`), so every byte that is not UTF-8,
//! before that string, in it, after it or after the value, must still make
//! it give up, and every line that is UTF-8 must read exactly as its text.

use mplp_events::{MapEvent, SaEvent};
use mplp_json::Wire;
use proptest::prelude::*;

/// MAP lines whose texts (roles, ids of broadcasts) come after the
/// envelope, one with a text that is not ASCII, one with an escape.
const MAP_LINES: [&str; 5] = [
    // A text with escapes (checked once decoded) before the first text
    // handed out as it is, within the 64 bytes before it.
    r#"{"event_id":"26bbdc7e-b2a4-4659-a478-073724897916","event_type":"MAPTurnDispatched","timestamp":"2026-11-28T06:03:44.994Z","session_id":"b459c87d-3437-48a7-83d2-0615c8e22b31","initiator_role":"é\\ééé","target_roles":["cé"],"payload":{"role_id":"日","turn_number":1}}"#,
    r#"{"event_id":"26bbdc7e-b2a4-4659-a478-073724897916","event_type":"MAPTurnDispatched","timestamp":"2026-11-28T06:03:44.994Z","session_id":"b459c87d-3437-48a7-83d2-0615c8e22b31","initiator_role":"orchestrator","target_roles":["coder"],"payload":{"role_id":"coder","turn_number":1}}"#,
    r#"{"event_id":"dc3ee131-c390-42cf-85d8-27d7af5becf2","event_type":"MAPTurnCompleted","timestamp":"2026-11-28T06:03:44.994Z","session_id":"b459c87d-3437-48a7-83d2-0615c8e22b31","payload":{"role_id":"rédacteur","turn_number":1,"status":"completed"}}"#,
    r#"{"event_id":"dc3ee131-c390-42cf-85d8-27d7af5becf2","event_type":"MAPRolesAssigned","timestamp":"2026-11-28T06:03:44.994Z","session_id":"b459c87d-3437-48a7-83d2-0615c8e22b31","payload":{"assignments":[{"participant_id":"a\n1","role_id":"coder"},{"participant_id":"b","role_id":"日本"}]}}"#,
    r#"{"event_id":"dc3ee131-c390-42cf-85d8-27d7af5becf2","event_type":"MAPSessionStarted","timestamp":"2026-11-28T06:03:44.994Z","session_id":"b459c87d-3437-48a7-83d2-0615c8e22b31","payload":{"mode":"round_robin","participant_count":3,"purpose":"ünïcode 🦀"}}"#,
];

/// An SA line: no text at all, only ids, a type and a timestamp.
const SA_LINE: &str = r#"{"event_id":"9a566963-1feb-4f08-8e27-cdc1097c4877","event_type":"SAInitialized","timestamp":"2026-11-28T06:03:45.036Z","sa_id":"9426df23-eb38-4ab7-8c0d-e77333021d24"}"#;

/// Bytes that are not UTF-8 wherever they stand: a stray continuation
/// byte, bytes never used, a cut sequence, overlong encodings of `/` and
/// of a quote, an encoded surrogate (U+D800), a code point above U+10FFFF;
/// and one valid character, which must read as the text reads.
const HOSTILE: [&[u8]; 11] = [
    &[0x80],
    &[0xff],
    &[0xc3],
    &[0xe2, 0x82],
    &[0xc0, 0xaf],
    &[0xc0, 0xa2],
    &[0xe0, 0x80, 0xaf],
    &[0xed, 0xa0, 0x80],
    &[0xf4, 0x90, 0x80, 0x80],
    &[0xf0, 0x9f, 0xa6],
    &[0xc3, 0xa9],
];

/// `read_bytes` of `bytes` as the text read of the same bytes: `None`
/// when they are not UTF-8 (serde_json refuses them too).
fn same_as_text<T: Wire + Clone + PartialEq + std::fmt::Debug>(bytes: &[u8]) -> bool {
    let fast = mplp_json::fast::read_bytes(bytes, |e: &T| e.clone()).ok();
    match std::str::from_utf8(bytes) {
        Err(_) => {
            assert_eq!(fast, None, "{bytes:?}");
            assert!(serde_json::from_slice::<serde_json::Value>(bytes).is_err());
        }
        Ok(text) => assert_eq!(fast, mplp_json::fast::from_str::<T>(text), "{text}"),
    }
    fast.is_some()
}

/// Each hostile sequence put before, in place of, and after every byte of
/// each line (in an id, the type, the timestamp, a member name, a role,
/// after a text, after the value).
#[test]
fn bytes_that_are_not_utf8_anywhere_in_a_line_are_never_read() {
    let mut read = 0;
    for line in MAP_LINES {
        assert!(same_as_text::<MapEvent>(line.as_bytes()), "{line}");
        for at in 0..=line.len() {
            for bytes in HOSTILE {
                let mut inserted = line.as_bytes().to_vec();
                inserted.splice(at..at, bytes.iter().copied());
                read += usize::from(same_as_text::<MapEvent>(&inserted));
                if at < line.len() {
                    let mut replaced = line.as_bytes().to_vec();
                    replaced.splice(at..=at, bytes.iter().copied());
                    read += usize::from(same_as_text::<MapEvent>(&replaced));
                }
            }
        }
    }
    assert!(same_as_text::<SaEvent>(SA_LINE.as_bytes()));
    for at in 0..=SA_LINE.len() {
        for bytes in HOSTILE {
            let mut inserted = SA_LINE.as_bytes().to_vec();
            inserted.splice(at..at, bytes.iter().copied());
            read += usize::from(same_as_text::<SaEvent>(&inserted));
        }
    }
    // `é` inside the texts of the MAP lines.
    assert!(read >= 40, "{read}");
}

proptest! {
    /// Any bytes put anywhere in a MAP or SA line read as the text of the
    /// line reads, or not at all when the line is not UTF-8.
    #[test]
    fn any_bytes_anywhere_read_as_the_text_reads(
        which in 0..=MAP_LINES.len(),
        at in any::<prop::sample::Index>(),
        cut in 0usize..3,
        bytes in prop::collection::vec(any::<u8>(), 1..5),
    ) {
        let line = MAP_LINES.get(which).copied().unwrap_or(SA_LINE).as_bytes();
        let at = at.index(line.len() + 1);
        let mut edited = line.to_vec();
        let end = (at + cut).min(line.len());
        edited.splice(at..end, bytes);
        if which < MAP_LINES.len() {
            same_as_text::<MapEvent>(&edited);
        } else {
            same_as_text::<SaEvent>(&edited);
        }
    }
}

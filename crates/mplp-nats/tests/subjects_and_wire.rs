//! Subjects are valid NATS subjects for any session and prefix we accept,
//! and the turn messages survive JSON both ways (no server needed).
#![allow(clippy::unwrap_used, clippy::panic)] // test code

use mplp_events::SessionId;
use mplp_nats::{ReplyStatus, Subjects, TurnReply, WriteRequest};
use proptest::prelude::*;
use serde_json::json;

/// A NATS subject: non-empty tokens separated by dots, no spaces, no
/// wildcards except a whole `*` token or a final `>`.
fn is_subject(s: &str, wildcards: bool) -> bool {
    let tokens: Vec<&str> = s.split('.').collect();
    tokens.iter().enumerate().all(|(i, t)| {
        !t.is_empty()
            && !t.contains(char::is_whitespace)
            && (match *t {
                "*" => wildcards,
                ">" => wildcards && i + 1 == tokens.len(),
                _ => !t.contains(['*', '>']),
            })
    })
}

proptest! {
    #[test]
    fn prefixes_are_accepted_exactly_when_they_make_valid_subjects(prefix in "[a-z0-9_.* >-]{0,12}", uuid in any::<u128>(), index in 0usize..1000) {
        let session = SessionId::from(uuid::Uuid::from_u128(uuid));
        match Subjects::new(&prefix) {
            Some(s) => {
                prop_assert_eq!(s.prefix(), prefix.as_str());
                prop_assert!(is_subject(&s.event(&session, "MAPTurnDispatched"), false));
                prop_assert!(is_subject(&s.turn(&session, index), false));
                prop_assert!(is_subject(&s.answer(&session, index), false));
                prop_assert!(is_subject(&s.session_events(&session), true));
                prop_assert!(is_subject(&s.stream_subject(), true));
                // A session's events match its filter, another session's do not.
                let other = SessionId::from(uuid::Uuid::from_u128(uuid.wrapping_add(1)));
                prop_assert!(s.event(&session, "X").starts_with(s.session_events(&session).trim_end_matches('>')));
                prop_assert!(!s.event(&other, "X").starts_with(s.session_events(&session).trim_end_matches('>')));
            }
            None => {
                let subject = format!("{}.x", prefix);
                prop_assert!(prefix.is_empty() || !is_subject(&subject, false), "{:?} refused", prefix);
            }
        }
    }

    #[test]
    fn turn_replies_round_trip(version in any::<u64>(), text in ".{0,20}", failed in any::<bool>()) {
        let reply = if failed {
            TurnReply::failed(text.clone())
        } else {
            TurnReply::completed(vec![WriteRequest { resource: text.clone(), expected_version: version, value: json!([text]) }])
        };
        let back: TurnReply = serde_json::from_slice(&serde_json::to_vec(&reply).unwrap()).unwrap();
        prop_assert_eq!(back, reply);
    }
}

#[test]
fn an_unknown_reply_status_is_refused() {
    let err = serde_json::from_value::<TurnReply>(json!({"status": "maybe"})).unwrap_err();
    assert!(err.to_string().contains("unknown variant `maybe`"), "{err}");
    let ok: TurnReply = serde_json::from_value(json!({"status": "failed"})).unwrap();
    assert_eq!(ok.status, ReplyStatus::Failed);
    assert!(ok.writes.is_empty());
}

/// The subjects other processes subscribe to, spelled out.
#[test]
fn the_subjects_are_the_documented_ones() {
    let session = SessionId::from(uuid::Uuid::from_u128(
        0x2b1d4a4e_8f3c_4c1e_9a6b_0d2f3e4a5b6c,
    ));
    let s = Subjects::new("org.mplp").unwrap();
    let id = "2b1d4a4e-8f3c-4c1e-9a6b-0d2f3e4a5b6c";
    assert_eq!(s.prefix(), "org.mplp");
    assert_eq!(
        s.event(&session, "MAPTurnDispatched"),
        format!("org.mplp.{id}.events.MAPTurnDispatched")
    );
    assert_eq!(
        s.session_events(&session),
        format!("org.mplp.{id}.events.>")
    );
    assert_eq!(s.stream_subject(), "org.mplp.*.events.>");
    assert_eq!(s.turn(&session, 2), format!("org.mplp.{id}.turn.2"));
    assert_eq!(s.answer(&session, 7), format!("org.mplp.{id}.answer.7"));
}

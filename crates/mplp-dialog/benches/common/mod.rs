//! Shared by mplp-dialog's `benches/dialog.rs` and mplp's bench and
//! `perf_report` example: support dialogs of any length.

use mplp_core::{ContextId, Timestamp};
use mplp_dialog::{Dialog, DialogRole, Message};

const TEXTS: [&str; 4] = [
    "I was charged twice for my December invoice; can you check what happened?",
    "Sorry about that. I am asking the billing agent to look up invoice INV-2025-12-0042 and the card captures on it.",
    "Lookup done: two captures of 49.00 EUR on 2025-12-01; the second capture is a duplicate and can be refunded.",
    "Yes please.",
];

/// A support dialog of `n` messages (a system prompt, then users, the
/// assistant and an agent in turn, one second apart).
pub(crate) fn dialog(n: usize) -> Dialog {
    let t0 = Timestamp::parse("2025-12-07T00:00:00.000Z").unwrap();
    let mut d = Dialog::new_at(ContextId::new(), t0.clone());
    d.push_message(Message::new(
        DialogRole::System,
        "You are the billing support assistant.",
        t0,
    ))
    .unwrap();
    let roles = [
        DialogRole::User,
        DialogRole::Assistant,
        DialogRole::Agent,
        DialogRole::User,
    ];
    for i in 1..n {
        let (h, m, s) = (i / 3600 % 24, i / 60 % 60, i % 60);
        let at =
            Timestamp::parse(&format!("2025-12-07T{h:02}:{m:02}:{s:02}.{:03}Z", i % 1000)).unwrap();
        d.push_message(Message::new(roles[i % 4], TEXTS[i % 4], at))
            .unwrap();
    }
    d
}

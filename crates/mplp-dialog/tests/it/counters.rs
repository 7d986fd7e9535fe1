//! Token counters and the default context manager's budget: a counter
//! used through a reference counts as the counter itself (its own `count`,
//! `count_message` and overhead, not the trait's defaults);
//! `TiktokenCounter` (feature `tiktoken`) counts as the `tiktoken-rs`
//! encodings do, plus its per-message overhead; the budget a refusal names
//! is the least that works.

use mplp_core::Timestamp;
use mplp_dialog::{DialogRole, EstimateCounter, Message, TokenCounter};

/// A counter unlike the defaults: one token per byte, 7 per message of
/// overhead, and a message costs its overhead twice.
struct Odd;

impl TokenCounter for Odd {
    fn count(&self, text: &str) -> usize {
        text.len()
    }
    fn count_message(&self, message: &Message) -> usize {
        self.count(&message.content) + 2 * self.message_overhead()
    }
    fn message_overhead(&self) -> usize {
        7
    }
}

fn message(text: &str) -> Message {
    Message::new(
        DialogRole::User,
        text,
        Timestamp::parse("2025-12-07T00:00:00Z").unwrap(),
    )
}

/// Calls every method through `counter` (a reference to a counter).
fn through<C: TokenCounter>(counter: C, m: &Message) -> [usize; 3] {
    [
        counter.count(&m.content),
        counter.count_message(m),
        counter.message_overhead(),
    ]
}

#[test]
// The borrows are the point: they make `through` use the `&T` impl.
#[allow(clippy::needless_borrows_for_generic_args)]
fn a_reference_to_a_counter_counts_as_the_counter() {
    let m = message("größe of it");
    assert_eq!(through(&Odd, &m), [13, 27, 7]);
    assert_eq!(through(&&Odd, &m), [13, 27, 7]);
    let dynamic: &dyn TokenCounter = &Odd;
    assert_eq!(through(dynamic, &m), [13, 27, 7]);
    assert_eq!(through(&EstimateCounter, &m), [3, 7, 4]);
}

#[cfg(feature = "tiktoken")]
#[test]
fn tiktoken_counts_as_its_encodings() {
    use mplp_dialog::TiktokenCounter;
    // Text on which the two encodings disagree.
    let text = "Größenordnung: 東京都の天気は晴れ。 <|endoftext|> fn main() { println!(\"hi\"); }";
    let o200k = tiktoken_rs::o200k_base_singleton()
        .encode_ordinary(text)
        .len();
    let cl100k = tiktoken_rs::cl100k_base_singleton()
        .encode_ordinary(text)
        .len();
    assert_ne!(o200k, cl100k);
    let m = message(text);
    assert_eq!(through(TiktokenCounter::o200k(), &m), [o200k, o200k + 4, 4]);
    assert_eq!(
        through(TiktokenCounter::cl100k(), &m),
        [cl100k, cl100k + 4, 4]
    );
    assert_eq!(format!("{:?}", TiktokenCounter::o200k()), "TiktokenCounter");
}

/// The least budget the default manager needs is what it says when it
/// refuses: the truncation suffix, the message overhead and one token of
/// content. With exactly that budget, the first message is kept, cut.
#[test]
fn the_budget_a_refusal_names_is_the_least_that_works() {
    use mplp_dialog::{ContextError, ContextManager, DefaultContextManager, TRUNCATED_SUFFIX};
    let long = message(&"word ".repeat(200));
    let needed = EstimateCounter.count(TRUNCATED_SUFFIX) + EstimateCounter.message_overhead() + 1;
    let manager = |budget| DefaultContextManager::new(budget).with_safety_margin(0);
    assert_eq!(manager(needed).name(), "default");
    match manager(needed - 1).prune_messages(std::slice::from_ref(&long)) {
        Err(ContextError::BudgetTooSmall {
            needed: n, budget, ..
        }) => {
            assert_eq!((n, budget), (needed, needed - 1));
        }
        other => panic!("{other:?}"),
    }
    let kept = manager(needed)
        .prune_messages(std::slice::from_ref(&long))
        .unwrap();
    assert_eq!(kept.len(), 1);
    assert!(
        kept[0].content.ends_with(TRUNCATED_SUFFIX),
        "{}",
        kept[0].content
    );
    assert!(kept[0].content.len() > TRUNCATED_SUFFIX.len());
    assert!(EstimateCounter.count_message(&kept[0]) <= needed);
}

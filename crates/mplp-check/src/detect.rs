//! Recognising a document's kind from its top-level members, and a log's
//! kind from its first line. The signs of each kind are in its row of the
//! table ([`DocKind::recognise`](crate::DocKind::recognise)); this module
//! only reads them.
//!
//! Why a serde probe and not a hand-written byte skimmer of the top-level
//! members: one was built and measured, eight bytes at a time,
//! and cost the same as this probe, about 1 ns per byte (2.03 µs against
//! 2.11 µs on a 2.1 KB plan): MPLP documents are dense in short strings,
//! and any scan pays per string. So [`crate::validate_bytes`] saves the
//! probe another way ([`validate_guess`]): it guesses the kind from the
//! first member that marks one (reading no further), and keeps the guess
//! when the document passes that kind's typed parse and the kind is
//! [`settled`]: it takes no undeclared member and declares none of the
//! signs of a kind [`detect`] prefers, so the typed parse proves that
//! [`detect`] would say the same.

use std::fmt;
use std::io::BufRead;

use mplp_core::{Rule, Violation};
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::{DocKind, EVENT_LOG, KINDS, MAP_LOG, SA_LOG, UNKNOWN_KIND};

/// What one pass over a document's top level found: which kinds have one of
/// their members present (a bit per row of [`KINDS`]), and the last
/// `event_type` string.
struct Probe {
    marked: u64,
    event_type: Option<String>,
}

/// A top-level member name, reduced to the kinds it marks (no allocation).
struct Key {
    event_type: bool,
    marks: u64,
}

/// The kinds (bits over [`KINDS`]) that list `name` among their members:
/// a binary search in [`member_marks`] (every top-level member of every
/// document is looked up, so not a walk over the whole table).
fn marks_of(name: &str) -> u64 {
    let table = member_marks();
    // Lengths first: most steps of the search then compare two numbers, not
    // two strings (a `memcmp` call each).
    table
        .binary_search_by(|(member, _)| (member.len(), *member).cmp(&(name.len(), name)))
        .ok()
        .and_then(|i| table.get(i))
        .map_or(0, |(_, bits)| *bits)
}

/// Every member name that marks a kind, sorted by length and then by name
/// (see [`marks_of`]), with the kinds it marks
/// (bits over [`KINDS`]); built once from the table.
fn member_marks() -> &'static [(&'static str, u64)] {
    static TABLE: std::sync::OnceLock<Vec<(&'static str, u64)>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: Vec<(&'static str, u64)> = Vec::new();
        for (i, kind) in KINDS.iter().enumerate() {
            for member in kind.recognise.members {
                table.push((member, 1 << i));
            }
        }
        table.sort_unstable_by_key(|(member, _)| (member.len(), *member));
        table.dedup_by(|later, first| {
            let same = later.0 == first.0;
            if same {
                first.1 |= later.1;
            }
            same
        });
        table
    })
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<Key, E> {
                Ok(Key {
                    event_type: name == "event_type",
                    marks: marks_of(name),
                })
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

/// A member value read only for its text: `Some` for a string, `None` for
/// any other value (which is skipped).
struct MaybeText(Option<String>);

impl<'de> Deserialize<'de> for MaybeText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = MaybeText;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<MaybeText, E> {
                Ok(MaybeText(Some(v.to_owned())))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<MaybeText, E> {
                Ok(MaybeText(None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<MaybeText, E> {
                Ok(MaybeText(None))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<MaybeText, E> {
                Ok(MaybeText(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<MaybeText, E> {
                Ok(MaybeText(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<MaybeText, E> {
                Ok(MaybeText(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<MaybeText, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(MaybeText(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<MaybeText, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(MaybeText(None))
            }
        }
        d.deserialize_any(TextVisitor)
    }
}

impl<'de> Deserialize<'de> for Probe {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ProbeVisitor;
        impl<'de> Visitor<'de> for ProbeVisitor {
            type Value = Probe;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            // A repeated member is not an error here: the last `event_type`
            // wins and presence accumulates; the module validator then
            // reports the duplicate key.
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Probe, A::Error> {
                let mut probe = Probe {
                    marked: 0,
                    event_type: None,
                };
                while let Some(key) = map.next_key::<Key>()? {
                    probe.marked |= key.marks;
                    if key.event_type {
                        probe.event_type = map.next_value::<MaybeText>()?.0;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(probe)
            }
        }
        d.deserialize_map(ProbeVisitor)
    }
}

/// The kind [`detect`] would prefer among those one member marks: the
/// member's own marks, or, for `event_type`, the kinds whose prefix its
/// value starts with. Its index in [`KINDS`]; only the marked rows are
/// looked at (this runs for every document `mplp validate` reads).
fn best_of(marks: u64) -> Option<usize> {
    let rank = |i: usize| KINDS.get(i).map(|k| k.recognise.rank);
    let mut best: Option<usize> = None;
    let mut rest = marks;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        // The first of equal ranks, as `min_by_key` would keep.
        if rank(i).is_some() && best.is_none_or(|b| rank(i) < rank(b)) {
            best = Some(i);
        }
    }
    best
}

fn prefix_marks(event_type: &str) -> u64 {
    KINDS
        .iter()
        .enumerate()
        .filter(|(_, k)| {
            k.recognise
                .event_type_prefix
                .is_some_and(|p| event_type.starts_with(p))
        })
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// Reads the top-level members up to the first one that marks a kind, and
/// stops there (the rest is not read: the parse ends with an error the
/// guess ignores).
struct Guess<'a>(&'a std::cell::Cell<Option<usize>>);

impl<'de> de::DeserializeSeed<'de> for Guess<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        struct GuessVisitor<'a>(&'a std::cell::Cell<Option<usize>>);
        impl<'de> Visitor<'de> for GuessVisitor<'_> {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
                while let Some(key) = map.next_key::<Key>()? {
                    let marks = if key.event_type {
                        map.next_value::<MaybeText>()?
                            .0
                            .map_or(0, |et| prefix_marks(&et))
                    } else {
                        map.next_value::<IgnoredAny>()?;
                        0
                    } | key.marks;
                    if marks != 0 {
                        self.0.set(best_of(marks));
                        return Err(de::Error::custom("guessed"));
                    }
                }
                Ok(())
            }
        }
        d.deserialize_map(GuessVisitor(self.0))
    }
}

/// [`guess_at`], as the kind.
#[cfg(test)]
fn guess(bytes: &[u8]) -> Option<&'static DocKind> {
    let text = std::str::from_utf8(bytes).ok()?;
    guess_at(text).and_then(|i| KINDS.get(i).copied())
}

/// The kind the first marking member of `text` points to, as its index in
/// [`KINDS`] (`None` when no member marks a kind).
///
/// The fast reader reads the members: it fails without building an error
/// (the guess stops by failing), and when it gives up before a marking
/// member there is no guess, and [`detect`] reads the document as before.
fn guess_at(text: &str) -> Option<usize> {
    let found = std::cell::Cell::new(None);
    let _ = mplp_json::fast::from_str_seed(text, Guess(&found));
    found.get()
}

/// Whether a document that passes `kind`'s typed parse is certainly
/// recognised as `kind` by [`detect`] (given that one of its members marks
/// `kind`): the kind takes no undeclared member, and no member it declares
/// marks a kind of lower rank (which [`detect`] prefers), nor is
/// `event_type` one of them when a kind of lower rank is marked by an
/// `event_type` prefix.
pub(crate) fn settled(kind: &DocKind) -> bool {
    let Some(typed) = kind.typed() else {
        return false;
    };
    !typed.open
        && KINDS
            .iter()
            .filter(|j| j.recognise.is_recognisable() && j.recognise.rank < kind.recognise.rank)
            .all(|j| {
                j.recognise
                    .members
                    .iter()
                    .all(|m| !typed.fields.contains(m))
                    && (j.recognise.event_type_prefix.is_none()
                        || !typed.fields.contains(&"event_type"))
            })
}

/// [`settled`] for each row of [`KINDS`] (a bit per row), computed once:
/// the check walks the table's signs and the kind's members, which costs
/// about a microsecond, as much as parsing a small document.
fn is_settled(at: usize) -> bool {
    static SETTLED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    let mask = *SETTLED.get_or_init(|| {
        KINDS
            .iter()
            .enumerate()
            .filter(|(_, k)| settled(k))
            .fold(0, |m, (i, _)| m | 1 << i)
    });
    // The mask has no bit past the table (and a shift past 63 is none).
    u32::try_from(at)
        .ok()
        .and_then(|at| mask.checked_shr(at))
        .is_some_and(|m| m & 1 == 1)
}

/// The kind and report of `bytes` when the guessed kind is
/// [`settled`] and the document passes its typed parse: what
/// [`detect`] followed by the kind's validation would give, in one parse.
/// `None` sends the caller to [`detect`].
pub(crate) fn validate_guess(
    bytes: &[u8],
) -> Option<(
    &'static DocKind,
    mplp_core::Report,
    Option<crate::AnyDocument>,
)> {
    // UTF-8 is checked once, for the guess and the typed parse.
    let text = mplp_json::utf8(bytes)?;
    let at = guess_at(text)?;
    if !is_settled(at) {
        return None;
    }
    let kind = KINDS.get(at)?;
    let (report, document) = (kind.typed()?.parse_guessed)(text)?;
    Some((kind, report, document))
}

fn is_marked(i: usize, kind: &DocKind, probe: &Probe) -> bool {
    probe.marked & (1 << i) != 0
        || kind
            .recognise
            .event_type_prefix
            .zip(probe.event_type.as_deref())
            .is_some_and(|(prefix, et)| et.starts_with(prefix))
}

/// Recognises the kind of a single document from its top-level members,
/// reading it once without building it. Each kind's signs are in its row
/// ([`DocKind::recognise`](crate::DocKind::recognise)): an `event_type`
/// prefix or members whose presence marks it (whatever their value,
/// `null` included: `"plan_id": null` is a plan with a wrong `plan_id`).
/// When several kinds are marked, the lowest rank wins: events first (they
/// carry `plan_id`, `context_id` and `trace_id` too), a Trace before a Plan
/// (a Trace carries `plan_id`), and a Context last (every module but Role
/// carries `context_id`).
///
/// # Errors
/// A syntax violation when the bytes are not JSON, a `type` violation when
/// they are not an object, and an [`UNKNOWN_KIND`] violation, naming every
/// sign it looked for, when no kind is marked.
///
/// ```
/// use mplp_check::{detect, MAP_EVENT, PLAN};
/// assert_eq!(detect(br#"{"event_type": "MAPTurnDispatched"}"#), Ok(&MAP_EVENT));
/// assert_eq!(detect(br#"{"plan_id": 1}"#), Ok(&PLAN));
/// assert_eq!(detect(b"[1]").unwrap_err().rule.as_str(), "type");
/// assert_eq!(detect(b"{}").unwrap_err().rule.as_str(), "unknown-kind");
/// ```
pub fn detect(bytes: &[u8]) -> Result<&'static DocKind, Violation> {
    if let Some(found) = json_type_name(bytes) {
        // Not an object: a syntax error if it is not JSON, else a type error.
        return Err(match mplp_json::nesting::from_slice::<IgnoredAny>(bytes) {
            Err(e) => mplp_core::document::syntax_violation_in(bytes, &e),
            Ok(_) => Violation::error(
                "",
                Rule::TYPE,
                format!("expected a JSON object (an MPLP document), found {found}"),
            ),
        });
    }
    // UTF-8 checked once (`mplp_json::utf8`, vectorised), then serde_json's `StrRead` (no check per
    // string); the same errors as `from_slice` on valid UTF-8, and input
    // that is not UTF-8 still goes through `from_slice`.
    // Input nested deeper than serde_json's limit is read again without it
    // (up to `mplp_json::nesting::MAX_NESTING`).
    let probe = match mplp_json::utf8(bytes) {
        Some(text) => serde_json::from_str::<Probe>(text),
        None => serde_json::from_slice::<Probe>(bytes),
    }
    .or_else(|first| {
        mplp_json::nesting::retry_deep(bytes, first, |de| {
            let probe = Probe::deserialize(&mut *de)?;
            de.end()?;
            Ok(probe)
        })
    });
    let probe = probe.map_err(|e| {
        if e.is_data() {
            Violation::error(
                "",
                Rule::TYPE,
                format!("expected a JSON object (an MPLP document): {e}"),
            )
        } else {
            mplp_core::document::syntax_violation_in(bytes, &e)
        }
    })?;
    KINDS
        .iter()
        .enumerate()
        .filter(|(i, k)| is_marked(*i, k, &probe))
        .min_by_key(|(_, k)| k.recognise.rank)
        .map(|(_, k)| *k)
        .ok_or_else(|| Violation::error("", UNKNOWN_KIND, unknown_kind_message(bytes)))
}

/// The signs [`detect`] looks for, in rank order, for messages and help.
pub(crate) fn signs() -> Vec<String> {
    let mut kinds: Vec<&DocKind> = KINDS
        .iter()
        .copied()
        .filter(|k| k.recognise.is_recognisable())
        .collect();
    kinds.sort_by_key(|k| k.recognise.rank);
    let mut signs = Vec::new();
    for kind in kinds {
        if let Some(prefix) = kind.recognise.event_type_prefix {
            signs.push(format!("an `event_type` starting with `{prefix}`"));
        }
        for member in kind.recognise.members {
            let sign = format!("`{member}`");
            if !signs.contains(&sign) {
                signs.push(sign);
            }
        }
    }
    signs
}

fn unknown_kind_message(bytes: &[u8]) -> String {
    format!(
        "cannot tell what kind of MPLP document this is: {}expected one of {} (or pass the kind)",
        near_misses(bytes)
            .iter()
            .map(|(key, member, kind)| {
                format!("did you mean `{member}` (which marks a {kind}) instead of `{key}`? ")
            })
            .collect::<String>(),
        signs().join(", ")
    )
}

/// The top-level members of `bytes` that are a near miss of a member the
/// table recognises (`planId` for `plan_id`): each with that member and
/// the name of its kind. Read only when no kind was recognised.
fn near_misses(bytes: &[u8]) -> Vec<(String, &'static str, &'static str)> {
    let Ok(top) =
        mplp_json::nesting::from_slice::<std::collections::BTreeMap<String, IgnoredAny>>(bytes)
    else {
        return Vec::new();
    };
    let members: Vec<&'static str> = KINDS
        .iter()
        .flat_map(|k| k.recognise.members.iter().copied())
        .collect();
    top.into_keys()
        .filter_map(|key| {
            let member = mplp_json::de::near_miss(&key, &members)?;
            let kind = KINDS
                .iter()
                .filter(|k| k.recognise.members.contains(&member))
                .min_by_key(|k| k.recognise.rank)?;
            Some((key, member, kind.name))
        })
        .collect()
}

/// What the JSON value in `bytes` is, by its first character ("an array",
/// ...); `None` for an object.
fn json_type_name(bytes: &[u8]) -> Option<&'static str> {
    match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') => None,
        Some(b'[') => Some("an array"),
        Some(b'"') => Some("a string"),
        Some(b't' | b'f') => Some("a boolean"),
        Some(b'n') => Some("null"),
        _ => Some("a number"),
    }
}

/// Probes only the top-level `event_type` string of a log line.
#[derive(serde::Deserialize)]
struct EventTypeProbe {
    event_type: Option<String>,
}

/// Recognises a log's kind from its first lines without consuming them:
/// the first line whose kind can be told decides, [`SA_LOG`] when its
/// `event_type` starts with `SA`, [`MAP_LOG`] when it starts with `MAP`,
/// [`EVENT_LOG`] when it is another event ([`EVENT_KINDS`](crate::EVENT_KINDS));
/// [`MAP_LOG`] when no buffered line tells. Only looks at what the reader
/// has buffered.
///
/// # Errors
/// When the reader fails.
///
/// ```
/// let mut log = std::io::Cursor::new(&b"\n{\"event_type\":\"SAInitialized\"}\n"[..]);
/// assert_eq!(mplp_check::detect_log(&mut log)?.name, "sa-log");
/// assert_eq!(log.position(), 0);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn detect_log<R: BufRead + ?Sized>(reader: &mut R) -> std::io::Result<&'static DocKind> {
    let buf = reader.fill_buf()?;
    let lines = buf
        .split(|b| *b == b'\n')
        .filter(|l| l.iter().any(|b| !b.is_ascii_whitespace()));
    for line in lines.take(LOG_DETECT_LINES) {
        let probe: Option<EventTypeProbe> = mplp_json::nesting::from_slice(line).ok();
        let et = probe.and_then(|p| p.event_type).unwrap_or_default();
        if et.starts_with("SA") {
            return Ok(&SA_LOG);
        }
        if et.starts_with("MAP") {
            return Ok(&MAP_LOG);
        }
        if detect(line).is_ok_and(|k| crate::EVENT_KINDS.contains(&k)) {
            return Ok(&EVENT_LOG);
        }
    }
    Ok(&MAP_LOG)
}

/// How many non-blank lines [`detect_log`] looks at, at most.
const LOG_DETECT_LINES: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_of_picks_the_lowest_rank_of_the_marked_kinds() {
        // The walk `best_of` replaced: the first of the lowest rank.
        let by_walk = |marks: u64| {
            KINDS
                .iter()
                .enumerate()
                .filter(|(i, _)| marks & (1 << i) != 0)
                .min_by_key(|(_, k)| k.recognise.rank)
                .map(|(i, _)| i)
        };
        let n = KINDS.len();
        let mut masks = vec![0u64, u64::MAX, (1 << n) - 1, 1 << n];
        for i in 0..n {
            for j in 0..n {
                masks.push(1 << i | 1 << j);
                masks.push(1 << i | 1 << j | 1 << ((i + j + 1) % n));
            }
        }
        // Bits past the table (in `u64::MAX`, `1 << n`) name no kind.
        for marks in masks {
            assert_eq!(best_of(marks), by_walk(marks), "{marks:#b}");
        }
        // Which of two equal ranks wins never arises: no two kinds that can
        // be marked share a rank (`ranks_are_unique_and_only_logs_are_unrecognisable`).
    }

    /// The kinds that list `name`, by a walk over the whole table.
    fn marks_by_walk(name: &str) -> u64 {
        KINDS
            .iter()
            .enumerate()
            .filter(|(_, k)| k.recognise.members.contains(&name))
            .fold(0, |bits, (i, _)| bits | (1 << i))
    }

    #[test]
    fn the_sorted_table_marks_what_the_table_says() {
        let mut names: Vec<&str> = KINDS
            .iter()
            .flat_map(|k| k.recognise.members.iter().copied())
            .collect();
        names.extend(["", "event_type", "status", "plan", "plan_idx", "zzz", "a"]);
        let mut marking = 0;
        for name in names {
            assert_eq!(marks_of(name), marks_by_walk(name), "{name:?}");
            marking += usize::from(marks_of(name) != 0);
        }
        assert!(marking > 0);
        // Sorted and without repeats, so the binary search finds every name.
        let table = member_marks();
        let key = |name: &'static str| (name.len(), name);
        assert!(table.windows(2).all(|w| key(w[0].0) < key(w[1].0)));
        // The premises of two exclusions in `.cargo/mutants.toml` (remove
        // them, and these lines, when a name comes to mark two kinds or
        // `event_type` comes to mark one): no name marks two kinds, and
        // `event_type` marks none by itself.
        let listed: usize = KINDS.iter().map(|k| k.recognise.members.len()).sum();
        assert_eq!(table.len(), listed, "a member name marks two kinds");
        assert_eq!(marks_of("event_type"), 0);
    }
}

#[cfg(test)]
mod message_tests {
    use super::*;

    /// An unknown kind's message suggests the member a near-miss key
    /// stands for, with the kind it marks, for every near miss and only
    /// for them.
    #[test]
    fn an_unknown_kind_names_the_members_its_keys_nearly_are() {
        let e = detect(br#"{"planId": 1, "zzz": 2, "contextID": 3}"#).unwrap_err();
        assert_eq!(e.rule, UNKNOWN_KIND);
        let suggestions: Vec<&str> = e
            .message
            .split("did you mean ")
            .skip(1)
            .map(|s| s.split('?').next().unwrap_or(""))
            .collect();
        assert_eq!(
            suggestions,
            [
                "`context_id` (which marks a context) instead of `contextID`",
                "`plan_id` (which marks a plan) instead of `planId`",
            ],
            "{}",
            e.message
        );
        assert_eq!(
            near_misses(br#"{"planId": 1}"#),
            [("planId".to_owned(), "plan_id", "plan")]
        );
        assert_eq!(near_misses(b"{\"zzz\": 1}"), []);
        assert_eq!(near_misses(b"{not json"), []);
    }
}

#[cfg(test)]
mod guess_tests {
    use super::*;

    /// Which kinds a typed parse settles, from their declared members and
    /// the table's signs: the kinds that take undeclared members (core
    /// events, learning samples), and SA events (their `event_type` member
    /// could, as far as the declaration tells, bear MAP's prefix) are left
    /// to `detect`.
    #[test]
    fn the_kinds_a_typed_parse_settles() {
        let unsettled: Vec<&str> = KINDS
            .iter()
            .filter(|k| !settled(k))
            .map(|k| k.name)
            .collect();
        assert_eq!(
            unsettled,
            // The module event declares `event_type`, which marks MAP and
            // SA events when it starts so.
            [
                "sa-event",
                "event",
                "learning-sample",
                "module-event",
                "map-log",
                "sa-log",
                "event-log"
            ]
        );
        for (i, k) in KINDS.iter().enumerate() {
            assert_eq!(is_settled(i), settled(k), "{k}");
        }
        assert!(!is_settled(KINDS.len()));
        assert!(!is_settled(64));
        assert!(!is_settled(usize::MAX));
    }

    fn example(name: &str) -> Vec<u8> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../schemas/examples/valid")
            .join(name);
        std::fs::read(path).unwrap_or_default()
    }

    #[test]
    fn a_valid_document_is_kept_as_its_first_sign_says() {
        let plan = example("plan-minimal.json");
        assert_eq!(guess(&plan), Some(&crate::PLAN));
        let (kind, report, document) =
            validate_guess(&plan).unwrap_or((&crate::MAP_LOG, Default::default(), None));
        assert_eq!(kind, &crate::PLAN);
        assert!(report.is_valid(), "{report:?}");
        assert_eq!(document.map(|d| d.kind()), Some(&crate::PLAN));
        let map = example("map-event-broadcast-sent.json");
        assert_eq!(
            validate_guess(&map).map(|(k, _, _)| k),
            Some(&crate::MAP_EVENT)
        );
    }

    #[test]
    fn a_guess_is_left_to_detect_when_the_typed_parse_or_the_kind_cannot_settle_it() {
        // `context_id` first: the guess is a context, whose typed parse
        // refuses `plan_id`.
        let plan = br#"{"context_id": "2530dc8f-0e8c-4a00-994e-7a9146b010c2", "plan_id": "27650952-d4ac-41e7-948b-97528f277c51"}"#;
        assert_eq!(guess(plan), Some(&crate::CONTEXT));
        assert!(validate_guess(plan).is_none());
        // An SA event is never settled by its guess.
        let sa = br#"{"event_type": "SAInitialized"}"#;
        assert_eq!(guess(sa), Some(&crate::SA_EVENT));
        assert!(validate_guess(sa).is_none());
        // `event_type` with MAP's prefix marks a MAP event; a value that is
        // not a string marks nothing, and the next member decides.
        assert_eq!(
            guess(br#"{"event_type": "MAPTurnDispatched"}"#),
            Some(&crate::MAP_EVENT)
        );
        assert_eq!(
            guess(br#"{"event_type": 1, "plan_id": 2}"#),
            Some(&crate::PLAN)
        );
        // No sign, not an object, not UTF-8: no guess.
        assert_eq!(guess(br#"{"meta": {}, "status": "x"}"#), None);
        assert_eq!(guess(b"[1]"), None);
        assert_eq!(guess(b"{\"plan_id\xff\": 1}"), None);
    }
}

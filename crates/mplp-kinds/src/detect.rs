//! Recognising a document's kind from its top-level members, and a log's
//! kind from its first line. The signs of each kind are in its row of the
//! table ([`DocKind::recognise`](crate::DocKind::recognise)); this module
//! only reads them.
//!
//! Why a serde probe and not a hand-written byte skimmer of the top-level
//! members: one was built and measured (issue 18), eight bytes at a time,
//! and cost the same as this probe, about 1 ns per byte (2.03 µs against
//! 2.11 µs on a 2.1 KB plan): MPLP documents are dense in short strings,
//! and any scan pays per string. Saving the probe needs a guess from the
//! first member that marks a kind, kept only when the document validates
//! as that kind and no valid document of it can mark a lower-ranked kind.

use std::fmt;
use std::io::BufRead;

use mplp_core::{Rule, Violation};
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::{DocKind, KINDS, MAP_LOG, SA_LOG, UNKNOWN_KIND};

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
    table
        .binary_search_by(|(member, _)| (*member).cmp(name))
        .ok()
        .and_then(|i| table.get(i))
        .map_or(0, |(_, bits)| *bits)
}

/// Every member name that marks a kind, sorted, with the kinds it marks
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
        table.sort_unstable_by_key(|(member, _)| *member);
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

/// Whether `kind`'s signs are in what the probe found.
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
/// use mplp_kinds::{detect, MAP_EVENT, PLAN};
/// assert_eq!(detect(br#"{"event_type": "MAPTurnDispatched"}"#), Ok(&MAP_EVENT));
/// assert_eq!(detect(br#"{"plan_id": 1}"#), Ok(&PLAN));
/// assert_eq!(detect(b"[1]").unwrap_err().rule.as_str(), "type");
/// assert_eq!(detect(b"{}").unwrap_err().rule.as_str(), "unknown-kind");
/// ```
pub fn detect(bytes: &[u8]) -> Result<&'static DocKind, Violation> {
    if let Some(found) = json_type_name(bytes) {
        // Not an object: a syntax error if it is not JSON, else a type error.
        return Err(match mplp_core::nesting::from_slice::<IgnoredAny>(bytes) {
            Err(e) => mplp_core::document::syntax_violation_in(bytes, &e),
            Ok(_) => Violation::error(
                "",
                Rule::TYPE,
                format!("expected a JSON object (an MPLP document), found {found}"),
            ),
        });
    }
    // UTF-8 checked once, then serde_json's `StrRead` (no check per
    // string); the same errors as `from_slice` on valid UTF-8, and input
    // that is not UTF-8 still goes through `from_slice`.
    // Input nested deeper than serde_json's limit is read again without it
    // (up to `mplp_core::nesting::MAX_NESTING`).
    let probe = match std::str::from_utf8(bytes) {
        Ok(text) => serde_json::from_str::<Probe>(text),
        Err(_) => serde_json::from_slice::<Probe>(bytes),
    }
    .or_else(|first| {
        mplp_core::nesting::retry_deep(bytes, first, |de| {
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
        mplp_core::nesting::from_slice::<std::collections::BTreeMap<String, IgnoredAny>>(bytes)
    else {
        return Vec::new();
    };
    let members: Vec<&'static str> = KINDS
        .iter()
        .flat_map(|k| k.recognise.members.iter().copied())
        .collect();
    top.into_keys()
        .filter_map(|key| {
            let member = mplp_core::check::near_miss(&key, &members)?;
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

/// Recognises a log's kind from its first non-blank line without consuming
/// it: [`SA_LOG`] when that line's `event_type` starts with `SA`, else
/// [`MAP_LOG`]. Only looks at what the reader has buffered.
///
/// # Errors
/// When the reader fails.
///
/// ```
/// let mut log = std::io::Cursor::new(&b"\n{\"event_type\":\"SAInitialized\"}\n"[..]);
/// assert_eq!(mplp_kinds::detect_log(&mut log)?.name, "sa-log");
/// assert_eq!(log.position(), 0);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn detect_log<R: BufRead + ?Sized>(reader: &mut R) -> std::io::Result<&'static DocKind> {
    let buf = reader.fill_buf()?;
    let first = buf
        .split(|b| *b == b'\n')
        .find(|l| l.iter().any(|b| !b.is_ascii_whitespace()))
        .unwrap_or(&[]);
    let probe: Option<EventTypeProbe> = mplp_core::nesting::from_slice(first).ok();
    let et = probe.and_then(|p| p.event_type).unwrap_or_default();
    Ok(if et.starts_with("SA") {
        &SA_LOG
    } else {
        &MAP_LOG
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(table.windows(2).all(|w| w[0].0 < w[1].0));
    }
}

//! The fast reader (`mplp_json::fast`) against serde_json on an object with
//! every kind of member the derive reads (ids, timestamps, enums, text,
//! integers, options, lists, any JSON value, free-form objects, nested
//! objects): generated values, respelled with random whitespace and
//! escapes, and edited at random. Whenever the fast reader reads a value,
//! serde_json reads the same text to the same value; and it reads every
//! valid respelling, but those with a fraction in a free-form member.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mplp_core::{
    CollabMode, JsonObject, Meta, NonEmpty, NonEmptyString, ShortList, StepId, Timestamp, Wire,
};
use proptest::prelude::*;
use serde_json::{Value, json};

#[path = "support/respell.rs"]
mod respell;

use respell::{Changes, Outcome, Rng, compare, edit, has_fraction, respell, restructure};

/// One of every member kind.
#[derive(Clone, Debug, PartialEq, Wire)]
struct Item {
    id: StepId,
    at: Timestamp,
    mode: CollabMode,
    text: String,
    n: u64,
    i: Option<i64>,
    flag: Option<bool>,
    any: Option<Value>,
    data: Option<JsonObject>,
    /// Absent, `null` or an object.
    maybe: Option<Option<JsonObject>>,
    #[wire(default)]
    list: Vec<String>,
    /// Read into a block of its length (`Reader::boxed_list`: the first
    /// four held aside, more in a `Vec`), as a plan step's dependencies.
    ids: Option<Box<[StepId]>>,
    /// Boxed text, as a plan step's description.
    note: Option<NonEmpty<Box<str>>>,
    /// One text held inline, more in a `Vec` (`Reader::one_or_list`), as a
    /// MAP event's `target_roles`.
    roles: Option<ShortList<String>>,
}

/// Nested objects and a list of them.
#[derive(Clone, Debug, PartialEq, Wire)]
struct Doc {
    meta: Meta,
    name: NonEmptyString,
    items: Vec<Item>,
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        (-1000i64..1000).prop_map(Value::from),
        any::<String>().prop_map(Value::from),
        "[a-z\"\\\\/\n\t\u{1}é😀]{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_\"\\\\é]{0,6}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A free-form object whose numbers are integers (read by the fast reader)
/// or anything (often not).
fn object() -> impl Strategy<Value = Value> {
    prop::collection::btree_map("[a-z_\"\\\\é]{0,6}", json_value(), 0..5)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
}

fn item() -> impl Strategy<Value = Value> {
    (
        any::<[u8; 16]>(),
        (
            0u32..10_000,
            1u32..13,
            1u32..29,
            0u32..24,
            0u32..60,
            0u32..60,
        ),
        prop_oneof![
            Just("broadcast"),
            Just("round_robin"),
            Just("orchestrated"),
            Just("swarm"),
            Just("pair"),
        ],
        any::<String>(),
        any::<u64>(),
        prop::option::of(any::<i64>()),
        prop::option::of(any::<bool>()),
        prop::option::of(json_value()),
        prop::option::of(object()),
        prop::collection::vec(any::<String>(), 0..4),
        (
            prop::option::of(prop::collection::vec(any::<[u8; 16]>(), 0..7)),
            prop::option::of(any::<String>()),
            prop::option::of(prop::collection::vec(any::<String>(), 0..4)),
        ),
    )
        .prop_map(
            |(
                id,
                (y, mo, d, h, mi, s),
                mode,
                text,
                n,
                i,
                flag,
                any,
                data,
                list,
                (ids, note, roles),
            )| {
                let id = uuid::Builder::from_random_bytes(id).into_uuid();
                let ids = ids.map(|ids| {
                    ids.into_iter()
                        .map(|b| uuid::Builder::from_random_bytes(b).into_uuid().to_string())
                        .collect::<Vec<_>>()
                });
                let mut v = json!({
                    "id": id.to_string(),
                    "at": format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{:03}Z", n % 1000),
                    "mode": mode,
                    "text": text,
                    "n": n,
                    "list": list,
                });
                for (key, member) in [
                    ("ids", ids.map(Value::from)),
                    ("note", note.map(|n| Value::from(format!("n{n}")))),
                    ("roles", roles.map(Value::from)),
                    ("i", i.map(Value::from)),
                    ("flag", flag.map(Value::from)),
                    ("any", any),
                    ("data", data),
                ] {
                    if let Some(m) = member {
                        v[key] = m;
                    }
                }
                v
            },
        )
}

fn doc() -> impl Strategy<Value = Value> {
    (any::<String>(), prop::collection::vec(item(), 0..5)).prop_map(|(name, items)| {
        json!({
            "meta": {"protocol_version": "1.0.0", "schema_version": "1.0.0"},
            "name": format!("n{name}"),
            "items": items,
        })
    })
}

/// An open object (`#[wire(extra)]`) with nested objects: one or `null`,
/// and a list of them.
#[derive(Clone, Debug, PartialEq, Wire)]
struct Open {
    id: StepId,
    /// Absent, `null` or a `Meta`.
    inner: Option<Option<Meta>>,
    #[wire(default)]
    metas: Vec<Meta>,
    doc: Option<Doc>,
    #[wire(extra)]
    extra: JsonObject,
}

fn open() -> impl Strategy<Value = Value> {
    (
        any::<[u8; 16]>(),
        0u8..3,
        0usize..3,
        prop::option::of(doc()),
        object(),
    )
        .prop_map(|(id, inner, metas, doc, extra)| {
            let meta =
                json!({"protocol_version": "1.0.0", "schema_version": "1.0.0", "tags": ["a"]});
            let mut v = extra;
            v["id"] = json!(uuid::Builder::from_random_bytes(id).into_uuid().to_string());
            match inner {
                0 => {}
                1 => v["inner"] = Value::Null,
                _ => v["inner"] = meta.clone(),
            }
            v["metas"] = Value::Array(vec![meta; metas]);
            if let Some(doc) = doc {
                v["doc"] = doc;
            }
            v
        })
}

/// Whether a free-form member (`data`) holds a number that is not an integer.
fn fraction_in_data(doc: &Value) -> bool {
    doc["items"]
        .as_array()
        .unwrap()
        .iter()
        .any(|item| has_fraction(&item["data"]))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn generated_documents_read_alike(doc in doc(), seed in 1u64..) {
        let mut text = String::new();
        respell(&doc, &mut Rng(seed), &mut text);
        let outcome = compare::<Doc>(&text);
        if fraction_in_data(&doc) {
            prop_assert_ne!(outcome, Outcome::Refused, "{}", text);
        } else {
            prop_assert_eq!(outcome, Outcome::Read, "{}", text);
        }
    }

    /// Objects restructured (members reordered, named twice, left out,
    /// added, of another type; names escaped, see `restructure`): the
    /// direct reads the derive writes agree with serde_json's visitor on
    /// every one, and read every reordering.
    #[test]
    fn restructured_documents_read_alike(doc in doc(), seed in 1u64..) {
        let mut changes = Changes::default();
        let mut text = String::new();
        restructure(&doc, &mut Rng(seed), &mut text, &mut changes);
        let outcome = compare::<Doc>(&text);
        if changes.broken == 0 && !fraction_in_data(&doc) {
            prop_assert_eq!(outcome, Outcome::Read, "{:?} {}", changes, text);
        }
    }

    /// The same for an open object (`#[wire(extra)]`: unknown members are
    /// kept, a name twice is refused) holding nested ones.
    #[test]
    fn restructured_open_objects_read_alike(open in open(), seed in 1u64..) {
        let mut changes = Changes::default();
        let mut text = String::new();
        restructure(&open, &mut Rng(seed), &mut text, &mut changes);
        let outcome = compare::<Open>(&text);
        if changes.broken == 0 && !has_fraction(&open) {
            prop_assert_eq!(outcome, Outcome::Read, "{:?} {}", changes, text);
        }
    }

    #[test]
    fn edited_documents_never_read_differently(doc in doc(), seed in 1u64.., edits in 1usize..4) {
        let mut rng = Rng(seed);
        let mut text = serde_json::to_string(&doc).unwrap();
        for _ in 0..edits {
            text = edit(&text, &mut rng);
        }
        compare::<Doc>(&text);
    }
}

const GOOD: &str = r#"{"meta":{"protocol_version":"1.0.0","schema_version":"1.0.0"},"name":"x","items":[{"id":"550e8400-e29b-41d4-a716-446655440000","at":"2025-12-07T00:00:00Z","mode":"pair","text":"t","n":0,"data":{"a":[1,-2,0,{"b":null}]}}]}"#;

#[test]
fn a_plain_document_is_read_with_its_values() {
    assert_eq!(compare::<Doc>(GOOD), Outcome::Read);
    let doc = mplp_json::fast::from_str::<Doc>(GOOD).unwrap();
    assert_eq!(doc.items[0].mode, CollabMode::Pair);
    assert_eq!(
        doc.items[0].data.as_ref().unwrap()["a"],
        json!([1, -2, 0, {"b": null}])
    );
}

#[test]
fn numbers_take_serde_json_s_reading() {
    for (n, read) in [
        ("0", true),
        ("7", true),
        ("9999999999999999999", true),
        ("18446744073709551615", true),
        ("18446744073709551616", false),
        // serde_json reads it as -0.0, which an integer member takes as 0.
        ("-0", true),
        ("01", false),
        ("1.0", false),
        ("1e2", false),
    ] {
        let text = GOOD.replace(r#""n":0"#, &format!(r#""n":{n}"#));
        let expected = if read {
            Outcome::Read
        } else {
            Outcome::Refused
        };
        assert_eq!(compare::<Doc>(&text), expected, "{n}");
    }
    for (i, expected) in [
        ("-1", -1),
        ("-999999999999999999", -999_999_999_999_999_999),
        ("-9223372036854775808", i64::MIN),
        ("9223372036854775807", i64::MAX),
    ] {
        let text = GOOD.replace(r#""n":0"#, &format!(r#""n":0,"i":{i}"#));
        assert_eq!(compare::<Doc>(&text), Outcome::Read, "{i}");
        let doc = mplp_json::fast::from_str::<Doc>(&text).unwrap();
        assert_eq!(doc.items[0].i, Some(expected));
    }
    // Any JSON value: fractions are serde_json's (the same f64).
    for any in ["1.5", "-0", "1e400", "[0.1,2e-3]", "{\"a\":-0.0}"] {
        let text = GOOD.replace(r#""n":0"#, &format!(r#""n":0,"any":{any}"#));
        let expected = if any == "1e400" {
            Outcome::Refused
        } else {
            Outcome::Read
        };
        assert_eq!(compare::<Doc>(&text), expected, "{any}");
    }
    // A fraction or a big integer in a free-form member: serde_json reads
    // it (keeping its text).
    for data in ["1.5", "18446744073709551616", "-0", "1e400"] {
        let text = GOOD.replace("-2", data);
        assert_eq!(compare::<Doc>(&text), Outcome::GaveUp, "{data}");
    }
}

#[test]
fn strings_and_escapes_read_as_serde_json_reads_them() {
    for (text, read) in [
        ("plain", true),
        // Shorter than the eight-byte scan, with a space; with a control
        // character.
        ("a b", true),
        ("a\tb", false),
        (r#"a\nb\tc\rd\be\ff\/g\\h\"i"#, true),
        (r"\u00e9\u00E9\ud83d\ude00\u0000", true),
        (
            "a long text without escapes that goes on past thirty-two bytes",
            true,
        ),
        (
            r"a long text that goes on past thirty-two bytes, then \n an escape",
            true,
        ),
        (r"\ud83d", false),
        (r"\ude00", false),
        (r"\ud83d\u0041", false),
        (r"\x", false),
        (r"\u12g4", false),
        ("tab\there", false),
        // Two raw control characters (an even number: the pass over the
        // input must still see that it has some).
        ("tabs\t\there", false),
        ("\u{1f}\u{1f}", false),
        (
            "a long text that goes on past thirty-two bytes \u{1} then",
            false,
        ),
        // Controls far into a long string, past where input without any
        // goes on with `memchr` (32 bytes): two, and one at either side of
        // byte 40.
        (
            "a long text that goes on past forty bytes, then \u{1}\u{1} two",
            false,
        ),
        ("0123456789012345678901234567890123456789\u{1f}", false),
        ("012345678901234567890123456789012345678\u{1f}x", false),
        ("0123456789012345678901234567890123456789x", true),
        // The length of an id, whose fifth word the scan reads before any
        // hand-over to `memchr`; and a longer text whose 37th byte is an
        // escaped quote.
        ("012345678901234567890123456789012345", true),
        (
            r#"01234567890123456789012345678901234\"then more than forty"#,
            true,
        ),
        ("01234567890123456789012345678901234\u{1}", false),
    ] {
        let doc = GOOD.replace(r#""text":"t""#, &format!(r#""text":"{text}""#));
        let expected = if read {
            Outcome::Read
        } else {
            Outcome::Refused
        };
        assert_eq!(compare::<Doc>(&doc), expected, "{text}");
        // The same in a member name (an unknown member: refused by both).
        let doc = GOOD.replace(r#""text":"t""#, &format!(r#""text":"t","{text}":1"#));
        assert_eq!(compare::<Doc>(&doc), Outcome::Refused, "{text}");
    }
}

#[test]
fn structure_errors_are_left_to_serde_json() {
    // The document, `items` and an item are three levels: `any` may nest
    // 97 more (100 in all), not 98.
    let deep = format!("{}1{}", "[".repeat(97), "]".repeat(97));
    let one_more = format!("{}1{}", "[".repeat(98), "]".repeat(98));
    let too_deep = format!("{}1{}", "[".repeat(120), "]".repeat(120));
    for (from, to, expected) in [
        (r#""n":0"#, r#""n":0,"any":DEEP"#, Outcome::Read),
        (r#""n":0"#, r#""n":0,"any":ONE_MORE"#, Outcome::GaveUp),
        (r#""n":0"#, r#""n":0,"any":TOO_DEEP"#, Outcome::GaveUp),
        (r#""n":0"#, r#""n":0,"#, Outcome::Refused),
        (r#""n":0"#, r#""n" 0"#, Outcome::Refused),
        (r#""n":0"#, r#""n":0 "n":0"#, Outcome::Refused),
        (r#""n":0"#, r#""n":0,"n":0"#, Outcome::Refused),
        ("[1,-2,", "[1,,-2,", Outcome::Refused),
        ("{\"b\":null}]", "{\"b\":null},]", Outcome::Refused),
        ("{\"b\":null}", "{\"b\":nul}", Outcome::Refused),
        ("{\"b\":null}", "{\"b\":true,\"b\":false}", Outcome::Refused),
        ("{\"b\":null}", "{\"b\" null}", Outcome::Refused),
        // Commas: none before the first element or member, one between.
        ("[1,-2,", "[,1,-2,", Outcome::Refused),
        ("[1,-2,", "[1 -2,", Outcome::Refused),
        ("{\"b\":null}", "{,\"b\":null}", Outcome::Refused),
        (r#""n":0"#, r#""n":0 "i":1"#, Outcome::Refused),
        (r#""flag""#, r#""flag""#, Outcome::Read),
    ] {
        let to = to
            .replace("TOO_DEEP", &too_deep)
            .replace("ONE_MORE", &one_more)
            .replace("DEEP", &deep);
        let text = GOOD.replace(from, &to);
        assert_ne!(text, GOOD.replace("\"n\":0", "\"n\":1"));
        assert_eq!(compare::<Doc>(&text), expected, "{to:.60}");
    }
    for text in [
        "",
        " ",
        "[]",
        "null",
        "\u{feff}{}",
        &format!("{GOOD} x"),
        &format!("{GOOD}}}"),
        &format!(" \n{GOOD}\t\r\n"),
    ] {
        let expected = if text.trim() == GOOD {
            Outcome::Read
        } else {
            Outcome::Refused
        };
        assert_eq!(compare::<Doc>(text), expected, "{text:.40}");
    }
}

#[test]
fn member_names_are_matched_whole_in_any_order() {
    // Every member in the reverse of the declared order: no name is the
    // expected next one.
    let reversed = r#"{"items":[{"data":{"a":1},"n":0,"text":"t","mode":"pair","at":"2025-12-07T00:00:00Z","id":"550e8400-e29b-41d4-a716-446655440000"}],"name":"x","meta":{"schema_version":"1.0.0","protocol_version":"1.0.0"}}"#;
    assert_eq!(compare::<Doc>(reversed), Outcome::Read);
    let doc = mplp_json::fast::from_str::<Doc>(reversed).unwrap();
    assert_eq!(doc.name.as_str(), "x");
    assert_eq!(doc.items[0].text, "t");
    for (from, to, expected) in [
        // `i` is a prefix of `id`: each is only itself.
        (r#""n":0"#, r#""n":0,"i":5"#, Outcome::Read),
        (r#""id""#, r#""i""#, Outcome::Refused),
        (r#""id""#, r#""idx""#, Outcome::Refused),
        (r#""id""#, r#""Id""#, Outcome::Refused),
        // Escaped, a name is read as a string, to the same member.
        (r#""id""#, r#""i\u0064""#, Outcome::Read),
        (r#""name""#, r#""n\u0061me""#, Outcome::Read),
        (r#""name""#, r#""nam""#, Outcome::Refused),
        (r#""name""#, r#""names""#, Outcome::Refused),
        (
            r#""name":"x""#,
            r#""name":"x","name":"y""#,
            Outcome::Refused,
        ),
        (
            r#""name":"x""#,
            r#""name":"x","n\u0061me":"y""#,
            Outcome::Refused,
        ),
        (
            r#""text":"t""#,
            r#""text":"t","text":"u""#,
            Outcome::Refused,
        ),
    ] {
        let text = GOOD.replace(from, to);
        assert_ne!(text, GOOD, "{to}");
        assert_eq!(compare::<Doc>(&text), expected, "{to}");
    }
    // Cut anywhere, in a member name too: refused.
    for end in 0..GOOD.len() {
        assert_eq!(compare::<Doc>(&GOOD[..end]), Outcome::Refused, "{end}");
    }
}

#[test]
fn read_lends_the_whole_input_only() {
    let name = |doc: &Doc| doc.name.as_str().to_owned();
    assert_eq!(mplp_json::fast::read(GOOD, name).ok(), Some("x".to_owned()));
    let spaced = format!(" \n{GOOD}\t ");
    assert_eq!(
        mplp_json::fast::read(&spaced, name).ok(),
        Some("x".to_owned())
    );
    // Trailing input, a cut document, a wrong value: `f` comes back
    // uncalled, for the caller's other reader.
    for bad in [
        format!("{GOOD} x"),
        format!("{GOOD}}}"),
        GOOD[..GOOD.len() - 1].to_owned(),
        GOOD.replace(r#""n":0"#, r#""n":-1"#),
    ] {
        let mut called = false;
        let back = mplp_json::fast::read(&bad, |_: &Doc| called = true);
        assert!(back.is_err(), "{bad}");
        assert!(!called, "{bad}");
    }
}

#[test]
fn a_nullable_member_reads_null_and_values() {
    for (maybe, expected) in [
        ("null", Some(None)),
        ("{\"k\":true}", Some(Some(json!({"k": true})))),
    ] {
        let text = GOOD.replace(r#""n":0"#, &format!(r#""n":0,"maybe":{maybe}"#));
        assert_eq!(compare::<Doc>(&text), Outcome::Read, "{maybe}");
        let doc = mplp_json::fast::from_str::<Doc>(&text).unwrap();
        let got = doc.items[0]
            .maybe
            .clone()
            .map(|m| m.map(|o| serde_json::to_value(&o).unwrap()));
        assert_eq!(got, expected, "{maybe}");
    }
}

#[test]
fn giving_up_says_so() {
    assert_eq!(
        mplp_json::fast::GaveUp.to_string(),
        "the fast reader gave up"
    );
}

/// What a member type of a derived struct needs besides serde, for the
/// hand-written types below: any object is valid.
macro_rules! any_object_schema {
    ($name:ident) => {
        #[cfg(feature = "schemars")]
        impl mplp_core::__private::schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(
                _: &mut mplp_core::__private::schemars::SchemaGenerator,
            ) -> mplp_core::__private::schemars::Schema {
                mplp_core::__private::schemars::json_schema!({ "type": "object" })
            }
        }

        impl mplp_core::check::CheckValue for $name {
            fn check_value(_: &Value, _: &mplp_core::Pointer, _: &mut mplp_core::Report) {}
        }
    };
}

/// An object read by a visitor that stops after its first member (no wire
/// type does: a derived visitor reads up to the closing brace).
#[derive(Debug, PartialEq)]
struct FirstOnly(u64);

impl<'de> serde::Deserialize<'de> for FirstOnly {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = FirstOnly;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<FirstOnly, A::Error> {
                let first = map.next_entry::<String, u64>()?;
                Ok(FirstOnly(first.map_or(0, |(_, v)| v)))
            }
        }
        d.deserialize_map(V)
    }
}

impl serde::Serialize for FirstOnly {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry("a", &self.0)?;
        map.end()
    }
}

any_object_schema!(FirstOnly);

#[derive(Debug, PartialEq, Wire)]
struct Holder {
    x: FirstOnly,
    y: Option<u64>,
}

#[test]
fn an_object_its_visitor_left_unfinished_is_not_read() {
    // The members read an object's closing brace (so the reader hands the
    // visitor's value on without a copy): what a visitor that stops early
    // leaves is read as if it belonged to the parent, and the reader cannot
    // end where the input ends.
    let whole = r#"{"x":{"a":1},"y":3}"#;
    assert_eq!(mplp_json::fast::from_str::<Holder>(whole), None);
    for text in [
        r#"{"x":{"a":1,"b":2},"y":3}"#,
        r#"{"x":{"a":1,"y":2}}"#,
        r#"{"x":{"a":1,"y":2},"y":3}"#,
        r#"[{"x":{"a":1,"y":2}}]"#,
    ] {
        assert_eq!(mplp_json::fast::from_str::<Holder>(text), None, "{text}");
        let mut called = false;
        assert!(mplp_json::fast::read(text, |_: &Holder| called = true).is_err());
        assert!(!called, "{text}");
    }
    // serde_json still reads the whole document (for the caller).
    let read: Holder = serde_json::from_str(whole).unwrap();
    assert_eq!(
        read,
        Holder {
            x: FirstOnly(1),
            y: Some(3)
        }
    );
    // A visitor that reads to the end is read as before, the empty object
    // included.
    let doc = mplp_json::fast::from_str::<Doc>(GOOD).unwrap();
    assert_eq!(doc.name.as_str(), "x");
    let empty = GOOD.replace(r#""data":{"a":[1,-2,0,{"b":null}]}"#, r#""data":{}"#);
    assert_ne!(empty, GOOD);
    assert_eq!(compare::<Doc>(&empty), Outcome::Read);
}

/// A struct of its own (with its member names announced to the fast
/// reader) read through another deserializer, `serde_json::Value`'s, in
/// the middle of a fast read (as a tagged payload seen before its tag is).
#[derive(Debug, PartialEq, Wire)]
struct Named {
    a: u64,
}

#[derive(Debug, PartialEq)]
struct ViaValue(Named);

impl<'de> serde::Deserialize<'de> for ViaValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(d)?;
        let named = serde_json::from_value(value).map_err(serde::de::Error::custom)?;
        Ok(ViaValue(named))
    }
}

impl serde::Serialize for ViaValue {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

any_object_schema!(ViaValue);

#[derive(Debug, PartialEq, Wire)]
struct Around {
    first: ViaValue,
    second: JsonObject,
}

#[test]
fn names_announced_to_another_deserializer_do_not_reach_the_next_map() {
    // `Named` announces `a` to a deserializer that never takes it; were
    // the names left, the free-form map after it would match its member
    // `a` as `Named`'s, and the fast reader would give up.
    let text = r#"{"first":{"a":1},"second":{"a":2}}"#;
    let read = mplp_json::fast::from_str::<Around>(text).unwrap();
    assert_eq!(read.first, ViaValue(Named { a: 1 }));
    assert_eq!(serde_json::to_value(&read.second).unwrap(), json!({"a": 2}));
}

/// Every one-character change (replaced, inserted or removed) in and
/// around `token` (a string token of GOOD, quotes included), with
/// characters that matter to the string scan and to the fixed-width reads
/// of ids and timestamps (quotes, backslashes, controls, hex digits either
/// case, separators, non-ASCII): the fast reader reads each as serde_json
/// does (`compare` fails otherwise). Returns how many it read.
fn one_char_changes_read_alike(token: &str) -> usize {
    const CHARS: [char; 16] = [
        '"', '\\', '\u{1}', '\t', ' ', 'a', 'A', 'f', 'g', '0', '4', '-', ':', 'T', 'z', 'é',
    ];
    let at = GOOD.find(token).unwrap();
    let mut read = 0;
    // From the opening quote to two bytes past the closing one.
    for i in at..(at + token.len() + 2).min(GOOD.len()) {
        let (head, tail) = GOOD.split_at(i);
        let mut texts = vec![format!("{head}{}", &tail[1..])];
        for c in CHARS {
            texts.push(format!("{head}{c}{}", &tail[1..]));
            texts.push(format!("{head}{c}{tail}"));
        }
        for text in texts {
            if compare::<Doc>(&text) == Outcome::Read {
                read += 1;
            }
        }
    }
    read
}

#[test]
fn fixed_width_ids_timestamps_and_enums_read_as_serde_json_reads_them() {
    // An id (36 bytes, read in place when its closing quote is where it
    // should be), a timestamp of the commonest spelling (24 bytes), an enum
    // value (compared in place with its closing quote).
    let millis = GOOD.replace("00:00:00Z", "00:00:00.123Z");
    assert_eq!(compare::<Doc>(&millis), Outcome::Read);
    for token in [
        r#""550e8400-e29b-41d4-a716-446655440000""#,
        r#""2025-12-07T00:00:00Z""#,
        r#""pair""#,
    ] {
        assert!(one_char_changes_read_alike(token) > 0, "{token}");
    }
    let at = millis.find("2025-12-07").unwrap() - 1;
    for i in at..at + 27 {
        let (head, tail) = millis.split_at(i);
        for c in ['"', '\\', '\u{1}', '0', '9', 'Z', 'z', 't', '.', ' '] {
            compare::<Doc>(&format!("{head}{c}{}", &tail[1..]));
            compare::<Doc>(&format!("{head}{c}{tail}"));
        }
    }
    // Hostile spellings next to the fast paths: escapes inside and right
    // after the 36 or 24 bytes, more digits, fewer, upper case.
    let id = "550e8400-e29b-41d4-a716-446655440000";
    for (spelled, outcome) in [
        (format!(r#""{id}""#), Outcome::Read),
        (
            r#""\u0035\u00350e8400-e29b-41d4-a716-446655440000""#.into(),
            Outcome::Read,
        ),
        (format!(r#""{}\u0030""#, &id[..35]), Outcome::Read),
        (format!(r#""{id}\"""#), Outcome::Refused),
        (format!(r#""{id}\\""#), Outcome::Refused),
        (format!(r#""{id}0""#), Outcome::Refused),
        (format!(r#""{}""#, &id[..35]), Outcome::Refused),
        (format!(r#""{}""#, id.to_uppercase()), Outcome::Refused),
        (format!(r#""{id}"#), Outcome::Refused),
    ] {
        let text = GOOD.replace(&format!(r#""{id}""#), &spelled);
        assert_eq!(compare::<Doc>(&text), outcome, "{spelled}");
    }
    for (spelled, outcome) in [
        (r#""2025-12-07T00:00:00.123Z""#, Outcome::Read),
        (r#""2025-12-07t00:00:00.123z""#, Outcome::Read),
        (r#""2025-12-07T00:00:00.12\u0033Z""#, Outcome::Read),
        (r#""2025-12-07T00:00:00.123Z\u0020""#, Outcome::Refused),
        (r#""2025-12-07T00:00:00.1234Z""#, Outcome::Read),
        (r#""2025-12-07T00:00:00.123+00:00""#, Outcome::Read),
        (r#""2025-02-30T00:00:00.123Z""#, Outcome::Refused),
        (r#""2025-12-07T00:00:60.123Z""#, Outcome::Refused),
    ] {
        let text = GOOD.replace(r#""2025-12-07T00:00:00Z""#, spelled);
        assert_eq!(compare::<Doc>(&text), outcome, "{spelled}");
    }
    for (spelled, outcome) in [
        (r#""pair""#, Outcome::Read),
        (r#""p\u0061ir""#, Outcome::Read),
        (r#""pair\u0020""#, Outcome::Refused),
        (r#""pairs""#, Outcome::Refused),
        (r#""Pair""#, Outcome::Refused),
    ] {
        let text = GOOD.replace(r#""pair""#, spelled);
        assert_eq!(compare::<Doc>(&text), outcome, "{spelled}");
    }
}

/// The read of bytes not known to be UTF-8 (`read_bytes`, what the log
/// validators read each line with): one byte that is not UTF-8, or one
/// character that is not ASCII, put anywhere in a document (in an id, a
/// timestamp, an enum, a member name, a free-form member, a string with an
/// escape, between tokens). Input that is not UTF-8 is never read (serde_json
/// refuses it); valid input reads exactly as `from_str` reads its text.
#[test]
fn bytes_that_are_not_utf8_are_never_read() {
    let base = GOOD.replace(r#""text":"t""#, r#""text":"t\né""#);
    let read = |bytes: &[u8]| mplp_json::fast::read_bytes(bytes, |d: &Doc| d.clone()).ok();
    assert_eq!(
        read(base.as_bytes()),
        mplp_json::fast::from_str::<Doc>(&base)
    );
    assert!(read(base.as_bytes()).is_some());
    let mut read_some = 0;
    for at in 0..=base.len() {
        for insert in [
            &[0xffu8][..],
            &[0x80],
            &[0xc3],
            &[0xe2, 0x82],
            &[0xc3, 0xa9],
        ] {
            let mut bytes = base.as_bytes().to_vec();
            bytes.splice(at..at, insert.iter().copied());
            let fast = read(&bytes);
            match std::str::from_utf8(&bytes) {
                Err(_) => {
                    assert_eq!(fast, None, "{at} {insert:?}");
                    assert!(serde_json::from_slice::<Value>(&bytes).is_err());
                }
                Ok(text) => {
                    assert_eq!(fast, mplp_json::fast::from_str::<Doc>(text), "{text}");
                    read_some += usize::from(fast.is_some());
                }
            }
        }
    }
    // `é` inside the strings that take any text.
    assert!(read_some >= 4, "{read_some}");
}

/// A boxed slice member (`Reader::boxed_list`: up to four elements held
/// aside, then one block of their number; more in a `Vec`) reads the ids
/// serde_json reads, in order, for every length across the four; a broken
/// array is refused by both. Boxed text reads as serde_json's, and an
/// empty one is refused by both.
#[test]
fn boxed_members_read_as_serde_json_reads_them() {
    let ids: Vec<StepId> = (0..10).map(|_| StepId::new()).collect();
    for n in 0..=ids.len() {
        let list: Vec<String> = ids[..n].iter().map(|id| format!("\"{id}\"")).collect();
        let text = GOOD.replace(
            r#""n":0"#,
            &format!(r#""n":0,"ids":[{}],"note":"a\u00e9""#, list.join(" , ")),
        );
        assert_eq!(compare::<Doc>(&text), Outcome::Read, "{n}");
        let doc = mplp_json::fast::from_str::<Doc>(&text).unwrap();
        assert_eq!(doc.items[0].ids.as_deref(), Some(&ids[..n]));
        assert_eq!(doc.items[0].note.as_deref(), Some("aé"));
        for broken in [
            format!(r#""ids":[{},]"#, list.join(",")),
            format!(r#""ids":[{}"#, list.join(",")),
            format!(r#""ids":[{},1]"#, list.join(",")),
        ] {
            let text = GOOD.replace(r#""n":0"#, &format!(r#""n":0,{broken}"#));
            assert_eq!(compare::<Doc>(&text), Outcome::Refused, "{broken}");
        }
    }
    let text = GOOD.replace(r#""n":0"#, r#""n":0,"ids":[],"note":"""#);
    assert_eq!(compare::<Doc>(&text), Outcome::Refused);
    // An optional member is absent or a value, not `null`.
    let text = GOOD.replace(r#""n":0"#, r#""n":0,"ids":null"#);
    assert_eq!(compare::<Doc>(&text), Outcome::Refused);
    let doc = mplp_json::fast::from_str::<Doc>(GOOD).unwrap();
    assert_eq!((&doc.items[0].ids, &doc.items[0].note), (&None, &None));
}

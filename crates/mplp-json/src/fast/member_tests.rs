//! The member names of a derived struct's direct read ([`Reader::members`],
//! [`Members::next_member`]) against what serde_json reads: each name as
//! the index of its field or, not one of them, its decoded text, whether
//! it is written as in `FIELDS`, spaced, escaped or repeated.

use super::tests::{Name, Names};
use super::*;
use proptest::prelude::*;
use serde::Deserialize as _;

const FIELDS: &[MemberName] = &[
    MemberName::new("name"),
    MemberName::new("id"),
    MemberName::new("a_much_longer_member_name_x"),
];

/// The names `input`'s object members arrive as, each value skipped.
fn names(input: &str) -> Result<Vec<Member>> {
    let mut de = Reader::new(input.as_bytes());
    let mut members = de.members(FIELDS)?;
    let mut out = Vec::new();
    while let Some(member) = members.next_member()? {
        out.push(member);
        de::IgnoredAny::deserialize(&mut *members.reader())?;
    }
    Ok(out)
}

/// What the names should arrive as: serde_json's decoding of each, in
/// document order (repeats included; the fast reader's own tests' `Names`),
/// looked up in `FIELDS` by its text.
fn expected(input: &str) -> Option<Vec<Member>> {
    let names = match serde_json::from_str::<Names>(input) {
        Ok(Names(names)) => names,
        Err(e) => panic!("{input}: {e}"),
    };
    let members = names
        .into_iter()
        .map(|name| match name {
            Name::Text(text) => match FIELDS.iter().position(|f| f.text == text) {
                Some(i) => Member::Field(i),
                None => Member::Other(text),
            },
            Name::Index(i) => Member::Field(i as usize),
        })
        .collect();
    Some(members)
}

#[test]
fn names_as_written_spaced_or_escaped_are_their_fields() {
    for input in [
        r#"{"name":1,"id":2}"#,
        r#"{"id":2,"name":1,"other":3}"#,
        r#"{ "name" : 1 , "id" :2}"#,
        // Escaped: decoded, then looked up by text.
        r#"{"n\u0061me":1,"\u0069d":2,"\u006fther":3}"#,
        r#"{"a_much_longer_member_name_x":0,"a_much_longer_member_name_\u0078":1}"#,
        r#"{"name":1,"name":2}"#,
        r#"{}"#,
        r#"{ }"#,
    ] {
        assert_eq!(names(input).ok(), expected(input), "{input}");
    }
    assert_eq!(
        names(r#"{"n\u0061me":1,"nam":2}"#).ok(),
        Some(vec![Member::Field(0), Member::Other("nam".into())])
    );
}

/// A member name: one of the fields, a near miss or another name.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("name".to_owned()),
        Just("id".to_owned()),
        Just("a_much_longer_member_name_x".to_owned()),
        Just("nam".to_owned()),
        Just("ids".to_owned()),
        "[a-z_]{0,30}",
    ]
}

/// `name` written as a JSON string: plain, or with some characters as
/// `\u` escapes.
fn written(name: &str, escapes: &[bool]) -> String {
    let mut out = String::from('"');
    for (i, c) in name.chars().enumerate() {
        if escapes.get(i).copied().unwrap_or(false) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out.push('"');
    out
}

proptest! {
    /// Any object of short members reads as serde_json reads it: the same
    /// names in the same order, each its field's index or its text.
    #[test]
    fn names_are_what_serde_json_reads(
        members in prop::collection::vec(
            (name(), prop::collection::vec(prop::bool::weighted(0.1), 30), any::<bool>()),
            0..6,
        ),
    ) {
        let body: Vec<String> = members
            .iter()
            .map(|(n, escapes, spaced)| {
                let sep = if *spaced { " : " } else { ":" };
                format!("{}{sep}[1,{{\"x\":null}}]", written(n, escapes))
            })
            .collect();
        let input = format!("{{{}}}", body.join(","));
        prop_assert_eq!(names(&input).ok(), expected(&input));
    }
}

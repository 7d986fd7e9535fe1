//! The fast reader's arrays and boxed values ([`Reader::list`],
//! [`Reader::boxed_list`] and the [`Direct`] reads of `Vec`, `Box<[T]>`,
//! `Box<str>` and `String`) against what serde_json reads from the same
//! text: the same values, the same first allocation as
//! [`crate::de::List`], and the same verdicts on broken arrays. (mplp-core's
//! `fast_reader` tests read them as members of derived structs; these are
//! this crate's own.)

use super::*;
use proptest::prelude::*;

/// `T`'s direct read of the whole of `input`: the value, or `None` where
/// the reader gives up or leaves input unread.
fn direct<T: Direct>(input: &str) -> Option<T> {
    let mut de = Reader::new(input.as_bytes());
    let value = T::read(&mut de).ok()?;
    de.at_end().then_some(value)
}

/// The direct reads of `input` as every list and text type, checked
/// against serde_json's read of the same text as `Vec<Vec<String>>`.
fn check_lists(input: &str) -> std::result::Result<(), TestCaseError> {
    let serde: Option<Vec<Vec<String>>> = serde_json::from_str(input).ok();
    let boxed = |v: &Vec<Vec<String>>| -> Box<[Box<[Box<str>]>]> {
        v.iter()
            .map(|inner| inner.iter().map(|s| Box::from(s.as_str())).collect())
            .collect()
    };
    prop_assert_eq!(
        direct::<Vec<Vec<String>>>(input),
        serde.clone(),
        "Vec of {}",
        input
    );
    prop_assert_eq!(
        direct::<Box<[Box<[Box<str>]>]>>(input),
        serde.as_ref().map(boxed),
        "Box<[T]> of {}",
        input
    );
    prop_assert_eq!(
        direct::<Vec<Box<[String]>>>(input).map(|v| v.into_iter().map(Vec::from).collect()),
        serde.clone(),
        "Vec of Box<[T]> of {}",
        input
    );
    Ok(())
}

/// Text of the lists `lists`, written compactly or with spaces around
/// every bracket and comma.
fn text(lists: &[Vec<String>], spaced: bool) -> String {
    if !spaced {
        return serde_json::to_string(lists).unwrap_or_default();
    }
    let inner: Vec<String> = lists
        .iter()
        .map(|l| {
            let items: Vec<String> = l
                .iter()
                .map(|s| serde_json::to_string(s).unwrap_or_default())
                .collect();
            format!("[ {} ]", items.join(" , "))
        })
        .collect();
    format!(" [ {} ] ", inner.join(" ,\n"))
}

#[test]
fn lists_of_every_length_around_the_four_held_aside_read_as_serde_json_reads_them() {
    for outer in 0..3 {
        for len in 0..=9 {
            let lists: Vec<Vec<String>> = (0..outer)
                .map(|o| (0..len).map(|i| format!("s{o}-{i}")).collect())
                .collect();
            for spaced in [false, true] {
                check_lists(&text(&lists, spaced)).unwrap();
            }
        }
    }
    // Broken arrays: the direct reads give up where serde_json fails.
    for input in [
        "[",
        "[[",
        "[[]",
        "[[],",
        "[[],]",
        "[[\"a\",]]",
        "[[\"a\" \"b\"]]",
        "[,]",
        "[[]]]",
        "[[1]]",
        "[\"a\"]",
        "{}",
        "[[null]]",
        "[[\"a\"],[\"b\"]",
        "[[\"\\q\"]]",
    ] {
        check_lists(input).unwrap();
    }
}

#[test]
fn a_list_takes_the_first_allocation_of_de_list_and_a_boxed_list_its_length() {
    for len in 1..=20 {
        let items: Vec<String> = (0..len).map(|i| format!("item-{i}")).collect();
        let input = serde_json::to_string(&items).unwrap_or_default();
        let Some(list) = direct::<Vec<String>>(&input) else {
            panic!("{input} not read");
        };
        assert_eq!(list, items);
        if len <= crate::de::List::<String>::FIRST_CAPACITY {
            assert_eq!(
                list.capacity(),
                crate::de::List::<String>::FIRST_CAPACITY,
                "{input}"
            );
        } else {
            assert!(list.capacity() >= len, "{input}");
        }
        let Some(boxed) = direct::<Box<[String]>>(&input) else {
            panic!("{input} not read as a boxed slice");
        };
        assert_eq!(boxed.len(), len);
        assert_eq!(&*boxed, &items[..]);
    }
    assert_eq!(direct::<Vec<String>>("[]").map(|v| v.capacity()), Some(0));
    assert_eq!(direct::<Box<[String]>>("[]").map(|v| v.len()), Some(0));
}

/// [`Reader::one_or_list`] of the whole of `input`: its items, and whether
/// the only one was held apart; `None` where the reader gives up or leaves
/// input unread.
fn one_or_list(input: &str) -> Option<(Vec<String>, bool, usize)> {
    let mut de = Reader::new(input.as_bytes());
    let (one, more) = de.one_or_list::<String>().ok()?;
    if !de.at_end() {
        return None;
    }
    let capacity = more.capacity();
    Some(match one {
        Some(item) if more.is_empty() => (vec![item], true, capacity),
        Some(_) => return None,
        None => (more, false, capacity),
    })
}

/// [`one_or_list`] of `input` against serde_json's `Vec<String>`: the same
/// items, the only one held apart (no list allocated) and no other, and a
/// longer list's first allocation [`crate::de::List::FIRST_CAPACITY`]
/// (or more).
fn check_one_or_list(input: &str) -> std::result::Result<(), TestCaseError> {
    let serde: Option<Vec<String>> = serde_json::from_str(input).ok();
    let read = one_or_list(input);
    prop_assert_eq!(read.as_ref().map(|r| &r.0), serde.as_ref(), "{}", input);
    if let Some((items, apart, capacity)) = read {
        prop_assert_eq!(apart, items.len() == 1, "{}", input);
        let first = crate::de::List::<String>::FIRST_CAPACITY;
        match items.len() {
            0 | 1 => prop_assert_eq!(capacity, 0, "{}", input),
            n if n <= first => prop_assert_eq!(capacity, first, "{}", input),
            n => prop_assert!(capacity >= n, "{}", input),
        }
    }
    Ok(())
}

#[test]
fn one_or_list_holds_an_only_item_apart_and_reads_the_rest_as_a_list() {
    for len in 0..=20 {
        let items: Vec<String> = (0..len).map(|i| format!("r{i}")).collect();
        for spaced in [false, true] {
            let input = if spaced {
                let quoted: Vec<String> = items.iter().map(|s| format!("\"{s}\"")).collect();
                format!(" [ {} ] ", quoted.join(" ,\n"))
            } else {
                serde_json::to_string(&items).unwrap_or_default()
            };
            check_one_or_list(&input).unwrap();
        }
    }
    for input in [
        "[",
        "[\"a\"",
        "[\"a\",",
        "[\"a\",]",
        "[,]",
        "[\"a\" \"b\"]",
        "[1]",
        "[\"a\",1]",
        "[\"a\"]]",
        "{}",
        "\"a\"",
        "[null]",
    ] {
        check_one_or_list(input).unwrap();
    }
    // Each array gives its depth back.
    let mut de = Reader::new(b"[[\"a\"],[\"b\",\"c\"],[]]");
    let read = de.array(|r, _| r.one_or_list::<String>().map(|_| ()));
    assert!(read.is_ok() && de.at_end() && de.depth == 0);
}

#[test]
fn sibling_arrays_leave_the_depth_as_they_found_it() {
    // Each array is left at the depth it was entered at: far more sibling
    // arrays than `MAX_DEPTH` read (a depth not given back would make the
    // reader give up past the limit).
    for n in [MAX_DEPTH - 1, MAX_DEPTH, 3 * MAX_DEPTH] {
        let input = format!("[{}]", vec!["[\"a\"]"; n].join(","));
        check_lists(&input).unwrap();
        assert_eq!(direct::<Vec<Vec<String>>>(&input).map(|v| v.len()), Some(n));
        assert_eq!(
            direct::<Box<[Box<[String]>]>>(&input).map(|v| v.len()),
            Some(n)
        );
    }
}

#[test]
fn boxed_and_owned_text_read_as_serde_json_reads_them() {
    for input in [
        r#""""#,
        r#""abc""#,
        r#""a\"b\\c\u00e9\n""#,
        r#""caf\u00e9 ☕""#,
        r#""unterminated"#,
        r#""bad \q escape""#,
        "17",
        "null",
        "[\"a\"]",
    ] {
        let serde: Option<String> = serde_json::from_str(input).ok();
        assert_eq!(direct::<String>(input), serde, "{input}");
        assert_eq!(
            direct::<Box<str>>(input),
            serde.as_deref().map(Box::from),
            "{input}"
        );
        assert_eq!(
            direct::<Option<Box<str>>>(input),
            serde_json::from_str::<Option<String>>(input)
                .ok()
                .map(|o| o.map(|s| Box::from(s.as_str()))),
            "{input}"
        );
    }
}

proptest! {
    /// Lists of lists of short texts (escapes and non-ASCII included),
    /// compact or spaced, and every prefix of them: the direct reads are
    /// serde_json's values, or give up where it fails.
    #[test]
    fn lists_and_their_prefixes_read_as_serde_json_reads_them(
        lists in proptest::collection::vec(
            proptest::collection::vec("[a-c\"\\\\é\u{1}]{0,4}", 0..7),
            0..5,
        ),
        spaced in any::<bool>(),
        cut in any::<proptest::sample::Index>(),
    ) {
        let input = text(&lists, spaced);
        check_lists(&input)?;
        for list in &lists {
            let one = text(std::slice::from_ref(list), spaced);
            // The inner list's own text: the outer brackets taken off.
            let inner = one.trim().strip_prefix('[').and_then(|t| t.strip_suffix(']')).unwrap_or_default();
            check_one_or_list(inner)?;
            let mut at = cut.index(inner.len() + 1);
            while !inner.is_char_boundary(at) {
                at -= 1;
            }
            check_one_or_list(&inner[..at])?;
        }
        prop_assert_eq!(direct::<Vec<Vec<String>>>(&input), Some(lists));
        let mut at = cut.index(input.len() + 1);
        while !input.is_char_boundary(at) {
            at -= 1;
        }
        check_lists(&input[..at])?;
    }
}

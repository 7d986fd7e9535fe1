//! A struct with every kind of member derives cleanly and reads, checks and
//! writes as declared.
use mplp_core::{Document, JsonObject, Wire};

#[derive(Debug, PartialEq, Wire)]
#[wire(document)]
struct Note {
    title: String,
    #[wire(rename = "count")]
    n: u64,
    tags: Option<Vec<String>>,
    parent: Option<Option<String>>,
    #[wire(default)]
    done: bool,
    #[wire(extra)]
    extra: JsonObject,
    #[wire(skip)]
    cache: (),
}

impl Document for Note {
    const KIND: &'static str = "note";
}

fn main() {
    assert_eq!(Note::FIELDS, ["title", "count", "tags", "parent", "done"]);
    assert_eq!(Note::REQUIRED, ["title", "count"]);
    let text = r#"{"title":"a","count":2,"parent":null,"done":false,"x":1}"#;
    let note = Note::from_json(text).unwrap();
    assert_eq!(note.parent, Some(None));
    assert_eq!(note.to_json(), text);
    assert!(!Note::validate_json(r#"{"title":"a","count":-1}"#).is_valid());
}

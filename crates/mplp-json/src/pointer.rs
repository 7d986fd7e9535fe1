//! RFC 6901 JSON pointers, as carried by every violation (mplp-core's `Violation`).

use std::fmt;

/// A JSON pointer being built while walking a document.
///
/// ```
/// use mplp_json::Pointer;
/// let p = Pointer::root().key("steps").index(2).key("a/b~c");
/// assert_eq!(p.as_str(), "/steps/2/a~1b~0c");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pointer(String);

impl Pointer {
    /// The pointer to the whole document (`""`).
    pub fn root() -> Self {
        Pointer(String::new())
    }

    /// The pointer to member `key` of the object at `self` (escaped as RFC 6901 says).
    #[must_use]
    pub fn key(&self, key: &str) -> Self {
        let mut s = String::with_capacity(self.0.len() + key.len() + 1);
        s.push_str(&self.0);
        push_segment(&mut s, key);
        Pointer(s)
    }

    /// The pointer to item `index` of the array at `self`.
    #[must_use]
    pub fn index(&self, index: usize) -> Self {
        Pointer(format!("{}/{index}", self.0))
    }

    /// The pointer as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<Pointer> for String {
    fn from(p: Pointer) -> String {
        p.0
    }
}

impl From<&Pointer> for String {
    fn from(p: &Pointer) -> String {
        p.0.clone()
    }
}

impl fmt::Display for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Appends `/segment` to `pointer`, escaping `~` and `/`.
pub(crate) fn push_segment(pointer: &mut String, segment: &str) {
    pointer.push('/');
    for c in segment.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn unescape(seg: &str) -> String {
        seg.replace("~1", "/").replace("~0", "~")
    }

    proptest! {
        #[test]
        fn segments_round_trip(keys in proptest::collection::vec(".*", 0..5)) {
            let mut p = Pointer::root();
            for k in &keys { p = p.key(k); }
            let parsed: Vec<String> = p.as_str().split('/').skip(1).map(unescape).collect();
            prop_assert_eq!(parsed, keys);
        }
    }
}

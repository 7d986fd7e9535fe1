//! The members of a JSON object in the order they are written (a `Value`
//! sorts them), each with its raw text. Included with
//! `#[path = "../../../tests/support/members.rs"] mod members;` (one
//! directory deeper for a test module under `tests/it/`).

use serde_json::value::RawValue;

/// The members of the object `bytes` holds, as written; `None` when it is
/// not a JSON object.
pub(crate) fn members_in_order(bytes: &[u8]) -> Option<Vec<(String, Box<RawValue>)>> {
    struct InOrder(Vec<(String, Box<RawValue>)>);
    impl<'de> serde::Deserialize<'de> for InOrder {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> serde::de::Visitor<'de> for V {
                type Value = InOrder;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: serde::de::MapAccess<'de>>(
                    self,
                    mut m: A,
                ) -> Result<InOrder, A::Error> {
                    let mut v = Vec::new();
                    while let Some(e) = m.next_entry()? {
                        v.push(e);
                    }
                    Ok(InOrder(v))
                }
            }
            d.deserialize_map(V)
        }
    }
    serde_json::from_slice::<InOrder>(bytes).ok().map(|m| m.0)
}

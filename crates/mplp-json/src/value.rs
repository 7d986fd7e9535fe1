//! The free-form values: [`JsonObject`] (exact numbers, duplicate keys
//! refused) and [`StrictValue`] (duplicate keys refused).

use std::fmt;
use std::mem::ManuallyDrop;
use std::ops::Deref;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use crate::{Pointer, Rule};

/// A free-form JSON object (`type: object`, any members), as in event `data`,
/// trace `attributes` or event payloads.
///
/// Unlike `serde_json::Map`, it refuses an object that names a key twice, at
/// any depth: a parser that keeps one of two values silently loses data.
///
/// ```
/// use mplp_json::JsonObject;
/// let ok: JsonObject = serde_json::from_str(r#"{"a": {"b": 1}}"#).unwrap();
/// assert_eq!(ok.get("a").unwrap()["b"], 1);
/// let err = serde_json::from_str::<JsonObject>(r#"{"a": {"b": 1, "b": 2}}"#).unwrap_err();
/// assert!(err.to_string().contains("duplicate key `b`"));
/// ```
///
/// **Numbers are kept exactly.** Read from JSON text, a number the map
/// cannot hold with its value (a big integer, a long fraction, a number
/// below or beyond `f64`'s range) keeps its text beside the map, and is
/// written back with it: see [`crate::exact`]. The map holds a *stand-in*
/// for it: the nearest `f64` that serde_json reads, and `±f64::MAX` beyond
/// `f64`'s range (`1e400`). [`JsonObject::exact_numbers`] lists the exact
/// texts. Mutable access drops the exact text the mutation could change:
/// [`as_map_mut`](JsonObject::as_map_mut) all of it,
/// [`insert`](JsonObject::insert) and [`remove`](JsonObject::remove) that
/// of the member. [`into_map`](JsonObject::into_map), `Value::from` and
/// reading from a `serde_json::Value` (which has already lost the text)
/// keep only the map.
///
/// ```
/// use mplp_json::JsonObject;
/// let text = r#"{"n":18446744073709551617,"x":[1e400,-0.0]}"#;
/// let o: JsonObject = serde_json::from_str(text).unwrap();
/// assert_eq!(serde_json::to_string(&o).unwrap(), text);
/// assert_eq!(o["n"].as_f64(), Some(18446744073709551617.0)); // the stand-in
/// let other: JsonObject = serde_json::from_str(r#"{"n":18446744073709551616,"x":[1e400,-0.0]}"#).unwrap();
/// assert_ne!(o, other); // equal stand-ins, different numbers
/// ```
#[derive(Clone, Default)]
pub struct JsonObject {
    // Dropped by hand (`Drop` below): the map of an object that was never
    // written to owns no memory, and its drop is skipped.
    map: ManuallyDrop<Map<String, Value>>,
    exact: crate::exact::Exact,
    /// Whether `map` may own memory: false only for an object made empty
    /// (`new`, `default`) and never written to since. (An emptied
    /// `BTreeMap` can keep its root node, so emptiness alone does not say.)
    written: bool,
}

/// The extra map of almost every event payload is empty and never written
/// to: its drop (a `BTreeMap` iterator's, some 65 instructions a line of a
/// MAP log by callgrind, issue 41) is skipped. Any other map is dropped as
/// usual.
impl Drop for JsonObject {
    #[inline]
    fn drop(&mut self) {
        if self.written || !self.map.is_empty() {
            drop(std::mem::take(&mut *self.map));
        }
    }
}

impl fmt::Debug for JsonObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JsonObject")
            .field("map", &*self.map)
            .field("exact", &self.exact)
            .finish()
    }
}

impl PartialEq for JsonObject {
    fn eq(&self, other: &Self) -> bool {
        *self.map == *other.map && self.exact.same(&other.exact)
    }
}

impl Eq for JsonObject {}

impl std::hash::Hash for JsonObject {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (*self.map).hash(state);
        self.exact.hash_into(state);
    }
}

impl JsonObject {
    /// An empty object.
    pub fn new() -> Self {
        JsonObject::default()
    }

    /// The members, mutably. Drops the exact text of every number (the map
    /// keeps their stand-ins).
    pub fn as_map_mut(&mut self) -> &mut Map<String, Value> {
        self.exact.clear();
        self.written = true;
        &mut self.map
    }

    /// The inner map (numbers it cannot hold exactly become their stand-ins).
    pub fn into_map(mut self) -> Map<String, Value> {
        std::mem::take(&mut *self.map)
    }

    /// Sets a member, returning the old value (the exact numbers of the old
    /// value are dropped).
    pub fn insert(&mut self, key: impl Into<String>, value: impl Into<Value>) -> Option<Value> {
        let key = key.into();
        self.exact.remove_key(&key);
        self.written = true;
        self.map.insert(key, value.into())
    }

    /// Removes a member, returning its value (its exact numbers are dropped).
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.exact.remove_key(key);
        self.map.remove(key)
    }

    /// The numbers the map holds only as stand-ins: each one's pointer
    /// (relative to this object) and its exact text, in pointer order.
    ///
    /// ```
    /// use mplp_json::JsonObject;
    /// let o: JsonObject = serde_json::from_str(r#"{"a": [1.5, 1e-400]}"#).unwrap();
    /// let found: Vec<_> = o.exact_numbers().map(|(p, t)| (p.as_str().to_owned(), t)).collect();
    /// assert_eq!(found, [("/a/1".to_owned(), "1e-400")]);
    /// assert_eq!(o["a"][1], 0.0); // the stand-in
    /// ```
    pub fn exact_numbers(&self) -> impl Iterator<Item = (Pointer, &str)> {
        self.exact.iter()
    }

    /// The members, each written with its exact numbers
    /// (`#[derive(Wire)]`'s extra maps). Not part of the public API.
    #[doc(hidden)]
    pub fn exact_members(&self) -> impl Iterator<Item = (&String, crate::exact::Member<'_>)> {
        self.map.iter().map(|(k, v)| (k, self.exact.member(k, v)))
    }

    /// Sets the member `key` to a value read with its exact numbers
    /// (`#[derive(Wire)]`'s extra members). Not part of the public API.
    #[doc(hidden)]
    pub fn insert_exact(&mut self, key: String, value: crate::exact::ExactValue) {
        self.exact.remove_key(&key);
        self.exact.put_key(&key, value.exact);
        self.written = true;
        self.map.insert(key, value.value);
    }

    /// Removes the member `key` with its exact numbers. Not part of the
    /// public API.
    #[doc(hidden)]
    pub fn remove_exact(&mut self, key: &str) -> Option<crate::exact::ExactValue> {
        let value = self.map.remove(key)?;
        let exact = self.exact.take_key(key);
        Some(crate::exact::ExactValue { value, exact })
    }

    /// The object as a value with its exact numbers. Not part of the public API.
    #[doc(hidden)]
    pub fn into_exact(mut self) -> crate::exact::ExactValue {
        crate::exact::ExactValue {
            value: Value::Object(std::mem::take(&mut *self.map)),
            exact: std::mem::take(&mut self.exact),
        }
    }
}

impl Deref for JsonObject {
    /// The members. A number the map cannot hold with its value (see
    /// [`JsonObject::exact_numbers`]) appears as its stand-in: the nearest
    /// `f64`, or `±f64::MAX` beyond `f64`'s range.
    type Target = Map<String, Value>;
    fn deref(&self) -> &Map<String, Value> {
        &self.map
    }
}

impl From<Map<String, Value>> for JsonObject {
    fn from(map: Map<String, Value>) -> Self {
        JsonObject {
            map: ManuallyDrop::new(map),
            exact: crate::exact::Exact::default(),
            written: true,
        }
    }
}

impl From<JsonObject> for Value {
    /// The map (numbers it cannot hold exactly become their stand-ins).
    fn from(o: JsonObject) -> Value {
        Value::Object(o.into_map())
    }
}

impl TryFrom<Value> for JsonObject {
    type Error = Value;
    /// Takes the object out of a value, or gives the value back.
    fn try_from(v: Value) -> Result<Self, Value> {
        match v {
            Value::Object(m) => Ok(JsonObject::from(m)),
            other => Err(other),
        }
    }
}

impl FromIterator<(String, Value)> for JsonObject {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Self {
        JsonObject::from(iter.into_iter().collect::<Map<String, Value>>())
    }
}

impl Serialize for JsonObject {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.exact.write_plain() {
            (*self.map).serialize(s)
        } else {
            crate::exact::serialize_map(&self.map, &self.exact, s)
        }
    }
}

impl<'de> Deserialize<'de> for JsonObject {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let crate::exact::ExactValue { value, exact } = crate::exact::ExactValue::deserialize(d)?;
        match value {
            Value::Object(map) => Ok(JsonObject {
                map: ManuallyDrop::new(map),
                exact,
                written: true,
            }),
            other => Err(de::Error::invalid_type(
                unexpected(&other),
                &"a JSON object",
            )),
        }
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for JsonObject {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "JsonObject".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "object" })
    }
}

/// A JSON value that refuses duplicate keys at any depth.
///
/// ```
/// use mplp_json::StrictValue;
/// assert!(serde_json::from_str::<StrictValue>("[1, {\"a\": 1}]").is_ok());
/// assert!(serde_json::from_str::<StrictValue>("[{\"a\": 1, \"a\": 1}]").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrictValue(pub Value);

impl<'de> Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictValueVisitor).map(StrictValue)
    }
}

impl Serialize for StrictValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

fn unexpected(v: &Value) -> de::Unexpected<'_> {
    match v {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(_) => de::Unexpected::Other("number"),
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

pub(crate) struct StrictValueVisitor;

impl<'de> Visitor<'de> for StrictValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        crate::exact::float_seen();
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut v = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(StrictValue(item)) = seq.next_element()? {
            v.push(item);
        }
        Ok(Value::Array(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        match map.next_key::<String>()? {
            Some(first) => StrictValueVisitor::finish_map(first, map),
            None => Ok(Value::Object(Map::new())),
        }
    }
}

impl StrictValueVisitor {
    /// Reads the rest of an object whose first key is `first`.
    pub(crate) fn finish_map<'de, A: MapAccess<'de>>(
        first: String,
        mut map: A,
    ) -> Result<Value, A::Error> {
        let mut m = Map::new();
        let mut next = Some(first);
        while let Some(key) = next {
            let StrictValue(value) = map.next_value()?;
            if m.contains_key(&key) {
                return Err(crate::de::raise(
                    Rule::DUPLICATE_KEY,
                    format_args!("duplicate key `{key}`: an object must not name a key twice"),
                ));
            }
            m.insert(key, value);
            next = map.next_key::<String>()?;
        }
        Ok(Value::Object(m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_value_keeps_numbers() {
        let v: StrictValue =
            serde_json::from_str(r#"{"a": 1, "b": -2, "c": 1.5, "d": [true, null]}"#).unwrap();
        assert_eq!(
            v.0,
            serde_json::json!({"a": 1, "b": -2, "c": 1.5, "d": [true, null]})
        );
    }

    /// The hand-written `Drop` and `Debug` (issue 41, stop 52): an object
    /// emptied by removal, written through `as_map_mut`, cloned, converted
    /// or never written keeps its members and its `Debug` text (the derived
    /// form: `map` and `exact` only).
    #[test]
    fn json_object_drop_and_debug_keep_values() {
        let fresh = JsonObject::new();
        assert!(!fresh.written);
        assert_eq!(
            format!("{fresh:?}"),
            "JsonObject { map: {}, exact: Exact([]) }"
        );
        let mut o = JsonObject::new();
        o.insert("a", 1);
        assert!(o.written);
        assert_eq!(
            format!("{o:?}"),
            "JsonObject { map: {\"a\": Number(1)}, exact: Exact([]) }"
        );
        assert_eq!(o.remove("a"), Some(serde_json::json!(1)));
        // Emptied, but it was written: dropped as usual.
        assert!(o.written && o.is_empty());
        assert_eq!(o, JsonObject::new());
        let copy = o.clone();
        assert!(copy.written);
        drop(o);
        let mut m = JsonObject::new();
        m.as_map_mut().insert("b".into(), serde_json::json!([true]));
        assert!(m.written);
        assert_eq!(Value::from(m.clone()), serde_json::json!({"b": [true]}));
        assert_eq!(
            m.clone().into_exact().value,
            serde_json::json!({"b": [true]})
        );
        let read: JsonObject = serde_json::from_str(r#"{"c": 1e400}"#).unwrap();
        assert!(read.written);
        assert_eq!(read.exact_numbers().count(), 1);
        assert!(read.clone().into_exact().exact.same(&read.exact));
        drop((copy, m, read, fresh));
    }

    /// `JsonObject`'s conversions keep every member: from and into a
    /// `Map`, from a `Value` (an object; anything else is given back), and
    /// from key-value pairs.
    #[test]
    fn json_object_conversions_keep_every_member() {
        let v = serde_json::json!({"a": 1, "b": [true], "c": {"d": null}});
        let map = v.as_object().unwrap().clone();
        let o = JsonObject::from(map.clone());
        assert_eq!(&*o, &map);
        assert_eq!(o.clone().into_map(), map);
        assert_eq!(JsonObject::try_from(v.clone()), Ok(o.clone()));
        assert_eq!(
            JsonObject::try_from(serde_json::json!([1])),
            Err(serde_json::json!([1]))
        );
        let pairs: JsonObject = map.clone().into_iter().collect();
        assert_eq!(pairs, o);
        // `visit_some` reads the value inside (serde's buffered content
        // calls it), `visit_unit` and `visit_none` give `null`.
        use serde::de::Visitor;
        let inside = serde_json::json!({"a": [1, "x"]});
        assert_eq!(
            StrictValueVisitor.visit_some(inside.clone()).unwrap(),
            inside
        );
        // What it expects, when a deserializer offers something else.
        let bytes = serde::de::value::BytesDeserializer::<serde_json::Error>::new(b"x");
        let err = StrictValue::deserialize(bytes).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid type: byte array, expected any JSON value"
        );
        // An owned string reaches the strict reader through `visit_string`.
        let s: StrictValue = serde_json::from_value(serde_json::json!("text")).unwrap();
        assert_eq!(s.0, serde_json::json!("text"));
    }
}

//! The values a fact holds: property values, the shared strings of a run (`Text`, interned once
//! per run by the [`Interner`]) and the property list of a fact, with their compact JSON forms.

use std::borrow::Cow;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// A property value: a string, an integer, a Boolean or a list of strings.
///
/// Written untagged (a JSON Boolean, number, string or array); read back by the kind of JSON
/// value, not by trying each variant in turn (serde's `untagged`, which builds an error message
/// for every failed try: most of the time of reading the extraction cache).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(untagged)]
pub enum PropertyValue {
    /// A Boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A string: borrowed for the extractors' fixed vocabulary (`language`), shared where
    /// many facts hold it (an import's `specifier` and `resolved` file), else owned.
    Str(Text),
    /// A list of strings, exactly sized (each item may be shared, as an import's names are).
    List(Box<[Text]>),
}

impl PropertyValue {
    /// The string, when this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Self::Str(text) => Some(text),
            _ => None,
        }
    }

    /// The Boolean, when this is a Boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Self::Bool(value) => Some(*value),
            _ => None,
        }
    }
}

impl PropertyValue {
    /// A string of the extractors' fixed vocabulary, stored without an allocation.
    pub const fn fixed(text: &'static str) -> Self {
        Self::Str(Text::Fixed(text))
    }

    /// A string many facts hold, shared (see [`Interner`]).
    pub fn shared(text: Arc<str>) -> Self {
        Self::Str(Text::Shared(text))
    }
}

impl From<&str> for PropertyValue {
    fn from(text: &str) -> Self {
        Self::Str(Text::Owned(text.into()))
    }
}

impl From<String> for PropertyValue {
    fn from(text: String) -> Self {
        Self::Str(Text::Owned(text.into_boxed_str()))
    }
}

/// The text of a string property: a `&'static str`, an exactly-sized owned string, or one
/// shared with other facts. It compares, hashes, orders and serialises as the string it holds,
/// whichever way it is kept.
#[derive(Debug, Clone)]
pub enum Text {
    /// Fixed vocabulary, stored without an allocation.
    Fixed(&'static str),
    /// A string of this fact's own.
    Owned(Box<str>),
    /// A string shared with other facts.
    Shared(Arc<str>),
}

impl Text {
    /// The string.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Fixed(text) => text,
            Self::Owned(text) => text,
            Self::Shared(text) => text,
        }
    }
}

impl Default for Text {
    fn default() -> Self {
        Self::Fixed("")
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Self {
        Self::Owned(text.into())
    }
}

impl From<String> for Text {
    fn from(text: String) -> Self {
        Self::Owned(text.into_boxed_str())
    }
}

impl std::ops::Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Display for Text {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.as_str())
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl std::hash::Hash for Text {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for PropertyValue {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Value;
        impl<'de> serde::de::Visitor<'de> for Value {
            type Value = PropertyValue;

            fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter.write_str("a Boolean, an integer, a string or a list of strings")
            }

            fn visit_bool<E: serde::de::Error>(self, value: bool) -> Result<Self::Value, E> {
                Ok(PropertyValue::Bool(value))
            }

            fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Self::Value, E> {
                Ok(PropertyValue::Int(value))
            }

            fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Self::Value, E> {
                i64::try_from(value)
                    .map(PropertyValue::Int)
                    .map_err(|_| E::custom("integer out of range"))
            }

            fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Self::Value, E> {
                Ok(PropertyValue::Str(Text::Owned(value.into())))
            }

            fn visit_string<E: serde::de::Error>(self, value: String) -> Result<Self::Value, E> {
                Ok(PropertyValue::Str(Text::Owned(value.into_boxed_str())))
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut items: A,
            ) -> Result<Self::Value, A::Error> {
                let mut list = Vec::with_capacity(items.size_hint().unwrap_or(0));
                while let Some(item) = items.next_element::<Text>()? {
                    list.push(item);
                }
                Ok(PropertyValue::List(list.into_boxed_slice()))
            }
        }
        deserializer.deserialize_any(Value)
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Self::Owned(
            String::deserialize(deserializer)?.into_boxed_str(),
        ))
    }
}

/// Shares equal strings between the facts of a run: the first holder's string is kept once and
/// every later one gets it. Safe to use from the extraction threads at once; the strings live as
/// long as the interner or a fact holding them. The set is split in [`INTERNER_SHARDS`] by a
/// string's hash, each behind its own lock, so that the threads seldom wait for one another:
/// resolving a large Java project's imports interns several strings a fact, from every thread.
#[derive(Debug, Default)]
pub struct Interner(pub(super) [std::sync::Mutex<InternedSet>; INTERNER_SHARDS]);

/// The number of [`Interner`] shards.
const INTERNER_SHARDS: usize = 16;

type InternedSet = std::collections::HashSet<Arc<str>, std::hash::BuildHasherDefault<WordHasher>>;

impl Interner {
    /// `text`, shared with every earlier equal string.
    pub fn intern(&self, text: &str) -> Arc<str> {
        let shard = {
            use std::hash::{BuildHasher, BuildHasherDefault};
            let hash = BuildHasherDefault::<WordHasher>::default().hash_one(text);
            // The top bits: the set itself indexes by the low ones.
            usize::try_from(hash >> 60).unwrap_or(0) % INTERNER_SHARDS
        };
        let Some(lock) = self.0.get(shard) else {
            return Arc::from(text);
        };
        // A poisoned lock still holds a consistent set: a panic cannot stop between its steps.
        let mut set = lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(known) = set.get(text) {
            return Arc::clone(known);
        }
        let shared: Arc<str> = Arc::from(text);
        set.insert(Arc::clone(&shared));
        shared
    }
}

/// A fast hash of short strings, eight bytes at a time (the multiply-rotate of rustc's
/// `FxHasher`): the interner's keys are paths, specifiers and names, chosen by no adversary
/// (a project could only slow its own check).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct WordHasher(u64);

impl WordHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(Self::SEED);
    }
}

impl std::hash::Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0; 8];
            if let Some(head) = word.get_mut(..rest.len()) {
                head.copy_from_slice(rest);
            }
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    fn write_usize(&mut self, value: usize) {
        self.add(value as u64);
    }
}

impl From<bool> for PropertyValue {
    fn from(value: bool) -> Self {
        Self::Bool(value)
    }
}

impl From<i64> for PropertyValue {
    fn from(value: i64) -> Self {
        Self::Int(value)
    }
}

impl From<Vec<String>> for PropertyValue {
    fn from(values: Vec<String>) -> Self {
        Self::List(values.into_iter().map(Text::from).collect())
    }
}

impl From<Vec<Text>> for PropertyValue {
    fn from(values: Vec<Text>) -> Self {
        Self::List(values.into_boxed_slice())
    }
}

/// The `&'static str` for a property name. The extractors' names are `&'static str` already; a
/// name made at run time (read back from the cache) is looked up in a process-wide vocabulary
/// and added to it once, so no fact holds a name of its own. The names are the fact schema's
/// ([`FactKind`] and its properties), a few dozen, so the vocabulary stays small.
fn property_name(name: Cow<'static, str>) -> &'static str {
    match name {
        Cow::Borrowed(name) => name,
        Cow::Owned(name) => interned(&name),
    }
}

/// [`property_name`] of a name read from text: allocated only the first time the process
/// meets it.
fn interned(name: &str) -> &'static str {
    static VOCABULARY: std::sync::OnceLock<
        std::sync::Mutex<std::collections::BTreeSet<&'static str>>,
    > = std::sync::OnceLock::new();
    // A poisoned lock still holds a consistent set: a panic cannot stop between its steps.
    let mut vocabulary = VOCABULARY
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(known) = vocabulary.get(name) {
        return known;
    }
    let leaked: &'static str = Box::leak(Box::from(name));
    vocabulary.insert(leaked);
    leaked
}

/// A property name as [`Properties`] reads it: interned without an allocation of its own.
struct PropertyName(&'static str);

impl<'de> Deserialize<'de> for PropertyName {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Name;
        impl serde::de::Visitor<'_> for Name {
            type Value = PropertyName;
            fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter.write_str("a property name")
            }
            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<PropertyName, E> {
                Ok(PropertyName(interned(name)))
            }
        }
        deserializer.deserialize_str(Name)
    }
}

/// The kind-specific properties of a fact, by name: a vector kept sorted by name.
///
/// A fact has two to six properties and a project has hundreds of thousands of facts, so this
/// stores them as one exactly-sized vector (a `BTreeMap` node would reserve room for eleven
/// entries per fact). Iteration, comparison, hashing and serialisation follow name order, as a
/// map's do, and it serialises as a JSON object.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Properties(Vec<(&'static str, PropertyValue)>);

impl Properties {
    /// No properties.
    pub fn new() -> Self {
        Self(Vec::new())
    }

    fn position(&self, name: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(key, _)| (*key).cmp(name))
    }

    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<&PropertyValue> {
        let index = self.position(name).ok()?;
        self.0.get(index).map(|(_, value)| value)
    }

    /// Whether `name` is set.
    pub fn contains_key(&self, name: &str) -> bool {
        self.position(name).is_ok()
    }

    /// Sets `name`, returning the value it replaces. A `&'static str` name (the extractors'
    /// fixed vocabulary) is stored without an allocation.
    pub fn insert(
        &mut self,
        name: impl Into<Cow<'static, str>>,
        value: PropertyValue,
    ) -> Option<PropertyValue> {
        let name = property_name(name.into());
        match self.position(name) {
            Ok(index) => self
                .0
                .get_mut(index)
                .map(|(_, slot)| std::mem::replace(slot, value)),
            Err(index) => {
                self.0.insert(index, (name, value));
                None
            }
        }
    }

    /// Removes `name`, returning its value.
    pub fn remove(&mut self, name: &str) -> Option<PropertyValue> {
        let index = self.position(name).ok()?;
        Some(self.0.remove(index).1)
    }

    /// The properties in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &PropertyValue)> {
        self.0.iter().map(|(key, value)| (*key, value))
    }

    /// The names, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(key, _)| *key)
    }

    /// The values, in name order.
    pub fn values(&self) -> impl Iterator<Item = &PropertyValue> {
        self.0.iter().map(|(_, value)| value)
    }

    /// How many properties are set.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether none is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Releases spare capacity (facts are kept for the whole run).
    pub fn shrink_to_fit(&mut self) {
        self.0.shrink_to_fit();
    }
}

impl FromIterator<(String, PropertyValue)> for Properties {
    fn from_iter<I: IntoIterator<Item = (String, PropertyValue)>>(items: I) -> Self {
        let mut properties = Self::new();
        for (name, value) in items {
            properties.insert(name, value);
        }
        properties
    }
}

impl<'a> IntoIterator for &'a Properties {
    type Item = (&'a str, &'a PropertyValue);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (&'static str, PropertyValue)>,
        fn(&'a (&'static str, PropertyValue)) -> (&'a str, &'a PropertyValue),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(key, value)| (*key, value))
    }
}

impl Serialize for Properties {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Properties {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Map;
        impl<'de> serde::de::Visitor<'de> for Map {
            type Value = Properties;
            fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter.write_str("a map of properties")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Properties, A::Error> {
                let mut entries: Vec<(&'static str, PropertyValue)> =
                    Vec::with_capacity(map.size_hint().unwrap_or(4).min(16));
                while let Some(PropertyName(name)) = map.next_key()? {
                    entries.push((name, map.next_value()?));
                }
                // In name order, and of a name given twice the last value, as a map keeps.
                entries.reverse();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                entries.dedup_by(|later, earlier| later.0 == earlier.0);
                entries.shrink_to_fit();
                Ok(Properties(entries))
            }
        }
        deserializer.deserialize_map(Map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_read_back_in_name_order_with_the_last_of_a_repeated_name() {
        let properties: Properties = serde_json::from_str(
            r#"{"specifier":"a","names":["x"],"specifier":"b","typeOnly":true}"#,
        )
        .unwrap();
        let names: Vec<&str> = properties.iter().map(|(name, _)| name).collect();
        assert_eq!(names, ["names", "specifier", "typeOnly"]);
        assert_eq!(
            properties.get("specifier").and_then(PropertyValue::as_str),
            Some("b")
        );
        // A name read from text is the same `&'static str` each time.
        let again: Properties = serde_json::from_str(r#"{"specifier":"c"}"#).unwrap();
        let first = properties
            .iter()
            .find(|(name, _)| *name == "specifier")
            .unwrap()
            .0;
        let second = again.iter().next().unwrap().0;
        assert!(std::ptr::eq(first, second));
    }
}

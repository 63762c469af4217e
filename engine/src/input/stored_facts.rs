//! How the extraction cache writes a file's facts: each fact is one JSON array of its fields in a
//! fixed order, without the names a JSON object repeats for every fact, and without what the
//! facts of one file share. Reading them is most of a cached run's work, and the text is about
//! half as long.
//!
//! The fields, in order: kind, id, confidence, properties (without `language`), language,
//! extractor, strategy, file, line, column, end line, end column, scope, message, technology,
//! model, route, subject, target. The id is `0` when it is the one [`fact_id`] builds from the
//! fact's own fields; the language, extractor and file are `0` when they are the previous fact's
//! (the language is `null` when the fact has none as a string: a non-string one stays among the
//! properties); the trailing `null`s are left out.

use std::sync::Arc;

use policies::facts::{fact_id, Confidence, Evidence, Fact, FactKind, Properties, PropertyValue};
use policies::facts::{Strategy, Text};
use serde::de::{Error as _, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Writes `facts` as rows.
#[expect(
    clippy::vec_box,
    reason = "the cache's facts are boxed, as the extraction hands them over"
)]
pub fn serialize<S: Serializer>(facts: &Vec<Box<Fact>>, serializer: S) -> Result<S::Ok, S::Error> {
    let mut rows = serializer.serialize_seq(Some(facts.len()))?;
    let mut previous: Option<&Fact> = None;
    for fact in facts {
        rows.serialize_element(&Row { fact, previous })?;
        previous = Some(fact);
    }
    rows.end()
}

/// Reads the rows [`serialize`] wrote.
#[expect(
    clippy::vec_box,
    reason = "the cache's facts are boxed, as the extraction hands them over"
)]
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Box<Fact>>, D::Error> {
    deserializer.deserialize_seq(Rows)
}

/// A fact's language, when it is a string.
fn language(fact: &Fact) -> Option<&str> {
    match fact.properties.get("language") {
        Some(PropertyValue::Str(text)) => Some(text.as_str()),
        _ => None,
    }
}

/// One fact as written, with the fact before it.
struct Row<'a> {
    fact: &'a Fact,
    previous: Option<&'a Fact>,
}

/// A field written as `0` when it is what the reader can tell without it.
struct Ditto<'a>(Option<&'a str>);

impl Serialize for Ditto<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(text) => serializer.serialize_str(text),
            None => serializer.serialize_u8(0),
        }
    }
}

impl Serialize for Row<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Row { fact, previous } = *self;
        let evidence = &fact.evidence;
        let same =
            |field: fn(&Fact) -> Option<&str>, value: &str| previous.and_then(field) == Some(value);
        let id = fact_id(
            &evidence.extractor,
            &evidence.file,
            evidence.line,
            evidence.column,
            fact.kind,
        );
        let id = (fact.id != id).then_some(fact.id.as_str());
        let language = language(fact);
        let language_field =
            language.map(|language| Ditto((!same(self::language, language)).then_some(language)));
        let extractor = Ditto(
            (!same(|fact| Some(&fact.evidence.extractor), &evidence.extractor))
                .then_some(&*evidence.extractor),
        );
        let file = Ditto(
            (!same(|fact| Some(&fact.evidence.file), &evidence.file)).then_some(&*evidence.file),
        );
        let tail = [
            fact.technology.as_deref(),
            fact.model.as_deref(),
            fact.route.as_deref(),
            fact.subject.as_deref(),
            fact.target.as_deref(),
        ];
        let kept = tail
            .iter()
            .rposition(Option::is_some)
            .map_or(0, |last| last + 1);
        let mut row = serializer.serialize_seq(Some(14 + kept))?;
        row.serialize_element(&fact.kind)?;
        row.serialize_element(&Ditto(id))?;
        row.serialize_element(&fact.confidence)?;
        row.serialize_element(&WithoutLanguage(&fact.properties, language.is_some()))?;
        row.serialize_element(&language_field)?;
        row.serialize_element(&extractor)?;
        row.serialize_element(&evidence.strategy)?;
        row.serialize_element(&file)?;
        row.serialize_element(&evidence.line)?;
        row.serialize_element(&evidence.column)?;
        row.serialize_element(&evidence.end_line)?;
        row.serialize_element(&evidence.end_column)?;
        row.serialize_element(&evidence.scope)?;
        row.serialize_element(&evidence.message)?;
        for field in tail.iter().take(kept) {
            row.serialize_element(field)?;
        }
        row.end()
    }
}

/// A fact's properties without its string `language`, which the row holds apart.
struct WithoutLanguage<'a>(&'a Properties, bool);

impl Serialize for WithoutLanguage<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let WithoutLanguage(properties, apart) = *self;
        let kept = |(name, _): &(&str, &PropertyValue)| !(apart && *name == "language");
        let count = properties.iter().filter(kept).count();
        let mut map = serializer.serialize_map(Some(count))?;
        for (name, value) in properties.iter().filter(kept) {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// A field read as `0` (what the reader tells without it) or a string.
enum Read {
    Same,
    Text(String),
}

impl<'de> Deserialize<'de> for Read {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Field;
        impl Visitor<'_> for Field {
            type Value = Read;
            fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter.write_str("0 or a string")
            }
            fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Read, E> {
                if value == 0 {
                    Ok(Read::Same)
                } else {
                    Err(E::custom("a field is 0 or a string"))
                }
            }
            fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Read, E> {
                Ok(Read::Text(value.to_owned()))
            }
            fn visit_string<E: serde::de::Error>(self, value: String) -> Result<Read, E> {
                Ok(Read::Text(value))
            }
        }
        deserializer.deserialize_any(Field)
    }
}

/// The rows of a file's facts.
struct Rows;

impl<'de> Visitor<'de> for Rows {
    type Value = Vec<Box<Fact>>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("the rows of a file's facts")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut rows: A) -> Result<Self::Value, A::Error> {
        let mut facts: Vec<Box<Fact>> = Vec::with_capacity(rows.size_hint().unwrap_or(8).min(4096));
        while let Some(fact) = rows.next_element_seed(Previous(facts.last().map(|fact| &**fact)))? {
            facts.push(Box::new(fact));
        }
        Ok(facts)
    }
}

/// Reads one row, given the fact before it.
struct Previous<'a>(Option<&'a Fact>);

impl<'de> serde::de::DeserializeSeed<'de> for Previous<'_> {
    type Value = Fact;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Fact, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Previous<'_> {
    type Value = Fact;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a fact's row")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut row: A) -> Result<Fact, A::Error> {
        let previous = self.0;
        fn next<'de, T: Deserialize<'de>, A: SeqAccess<'de>>(
            row: &mut A,
            field: &'static str,
        ) -> Result<T, A::Error> {
            row.next_element()?
                .ok_or_else(|| A::Error::custom(format!("a fact's row lacks its {field}")))
        }
        let same = |field: &'static str| {
            A::Error::custom(format!(
                "the first fact's {field} is that of the one before it"
            ))
        };
        let kind: FactKind = next(&mut row, "kind")?;
        let id: Read = next(&mut row, "id")?;
        let confidence: Confidence = next(&mut row, "confidence")?;
        let mut properties: Properties = next(&mut row, "properties")?;
        let language: Option<Read> = next(&mut row, "language")?;
        let extractor = match next(&mut row, "extractor")? {
            Read::Text(text) => std::borrow::Cow::Owned(text),
            Read::Same => previous
                .map(|fact| fact.evidence.extractor.clone())
                .ok_or_else(|| same("extractor"))?,
        };
        let strategy: Strategy = next(&mut row, "strategy")?;
        let file: Arc<str> = match next(&mut row, "file")? {
            Read::Text(text) => Arc::from(text),
            Read::Same => previous
                .map(|fact| Arc::clone(&fact.evidence.file))
                .ok_or_else(|| same("file"))?,
        };
        let line: u32 = next(&mut row, "line")?;
        let column: u32 = next(&mut row, "column")?;
        let end_line: u32 = next(&mut row, "end line")?;
        let end_column: u32 = next(&mut row, "end column")?;
        let scope: Option<Box<str>> = next(&mut row, "scope")?;
        let message: Text = next(&mut row, "message")?;
        let mut optional = || -> Result<Option<String>, A::Error> {
            Ok(row.next_element::<Option<String>>()?.flatten())
        };
        let technology = optional()?.map(String::into_boxed_str);
        let model = optional()?.map(String::into_boxed_str);
        let route = optional()?.map(String::into_boxed_str);
        let subject = optional()?.map(Arc::from);
        let target = optional()?.map(Arc::from);
        if row.next_element::<serde::de::IgnoredAny>()?.is_some() {
            return Err(A::Error::custom("a fact's row has more fields than a fact"));
        }
        match language {
            None => {}
            Some(Read::Text(text)) => {
                properties.insert("language", PropertyValue::Str(Text::Owned(text.into())));
            }
            Some(Read::Same) => {
                let text = previous
                    .and_then(|fact| fact.properties.get("language"))
                    .ok_or_else(|| same("language"))?
                    .clone();
                properties.insert("language", text);
            }
        }
        // Facts are kept for the whole run: the language's slot must not leave the properties
        // twice their size.
        properties.shrink_to_fit();
        let id = match id {
            Read::Text(id) => id,
            Read::Same => fact_id(&extractor, &file, line, column, kind),
        };
        Ok(Fact {
            id,
            kind,
            subject,
            target,
            technology,
            model,
            route,
            properties,
            confidence,
            evidence: Evidence {
                extractor,
                strategy,
                file,
                line,
                column,
                end_line,
                end_column,
                scope,
                message,
            },
        })
    }
}

#[cfg(test)]
#[expect(
    clippy::vec_box,
    reason = "the cache's facts are boxed, as the extraction hands them over"
)]
mod tests {
    use super::*;

    /// A Python fact of `file:line` with a language and a specifier.
    fn fact(file: &str, line: u32, kind: FactKind) -> Box<Fact> {
        let properties = [("language", "python"), ("specifier", "a.b")];
        let mut fact = crate::families::test_support::fact(kind, file, line, &properties);
        fact.evidence.extractor = std::borrow::Cow::Borrowed("python");
        fact.id = fact_id("python", file, line, 1, kind);
        Box::new(fact)
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Stored {
        #[serde(with = "super")]
        facts: Vec<Box<Fact>>,
    }

    fn round_trip(facts: Vec<Box<Fact>>) -> String {
        let stored = Stored { facts };
        let text = serde_json::to_string(&stored).unwrap();
        let read: Stored = serde_json::from_str(&text).unwrap();
        assert_eq!(read, stored, "{text}");
        text
    }

    #[test]
    fn what_the_facts_of_a_file_share_is_written_once() {
        let text = round_trip(vec![
            fact("app/a.py", 1, FactKind::Import),
            fact("app/a.py", 2, FactKind::External),
        ]);
        assert_eq!(text.matches("app/a.py").count(), 1, "{text}");
        assert_eq!(text.matches("python").count(), 2, "{text}");
        assert!(!text.contains("\"id\""), "{text}");
    }

    #[test]
    fn every_field_that_differs_is_kept() {
        let mut repeated = fact("app/a.py", 1, FactKind::Import);
        repeated.id.push_str("#1");
        let mut other = fact("lib/b.py", 3, FactKind::AccessesTechnology);
        other.evidence.extractor = std::borrow::Cow::Owned("query:orders".into());
        other.evidence.strategy = Strategy::Graph;
        other.evidence.scope = Some("Orders.save".into());
        other.technology = Some("postgres".into());
        other.route = Some("/x".into());
        other.target = Some(Arc::from("Db"));
        other.confidence = Confidence::Probable;
        other
            .properties
            .insert("language", PropertyValue::Str(Text::Owned("".into())));
        let mut boolean = fact("lib/b.py", 4, FactKind::Call);
        boolean
            .properties
            .insert("language", PropertyValue::Bool(true));
        let mut none = fact("lib/b.py", 5, FactKind::Call);
        none.properties.remove("language");
        round_trip(vec![
            fact("app/a.py", 1, FactKind::Import),
            repeated,
            other,
            boolean,
            none,
            fact("lib/b.py", 6, FactKind::Route),
        ]);
        round_trip(Vec::new());
    }

    #[test]
    fn a_row_that_cannot_be_a_fact_is_an_error() {
        for text in [
            r#"{"facts":[["import",0,"definite",{},0,"python","ast","a.py",1,1,1,2,null,"m"]]}"#,
            r#"{"facts":[["import",0,"definite",{},null,0,"ast","a.py",1,1,1,2,null,"m"]]}"#,
            r#"{"facts":[["import",0,"definite",{},null,"python","ast","a.py",1,1,1,2,null]]}"#,
            r#"{"facts":[["import",7,"definite",{},null,"python","ast","a.py",1,1,1,2,null,"m"]]}"#,
            r#"{"facts":[["import",0,"definite",{},null,"python","ast","a.py",1,1,1,2,null,"m",null,null,null,null,null,1]]}"#,
        ] {
            assert!(serde_json::from_str::<Stored>(text).is_err(), "{text}");
        }
        let good =
            r#"{"facts":[["import",0,"definite",{},null,"python","ast","a.py",1,1,1,2,null,"m"]]}"#;
        let read: Stored = serde_json::from_str(good).unwrap();
        assert_eq!(read.facts[0].id, "python:a.py:1:1:import");
    }
}

//! `lintel init --from .dependency-cruiser.js` (or `.json`, `.cjs`): the `forbidden` rules of a
//! dependency-cruiser configuration, read without running JavaScript.
//!
//! The configuration is the object literal after `module.exports =` (or the whole JSON file),
//! read as JSON5: comments, unquoted keys, single quotes and trailing commas are fine; anything
//! computed (a variable, a call, a spread) is skipped. Translated rules:
//! - `to: { circular: true }` → `deny cycle among *` and `deny cycle within *`;
//! - `to: { couldNotResolve: true }` → `deny unresolved imports in *`;
//! - `from: { path }` and `to: { path }` with plain folder expressions (`^src/ui`, `^src/db/`) →
//!   one component per folder and `deny flow A -> B` (`deny reach` with `reachable: true`);
//! - `options.exclude` with a plain folder expression → `exclude "folder/**"`.
//!
//! Every file belongs to a component: the folders the rules name, and `Rest` (`paths: "**"`, the
//! least specific glob) for all others, so cycles and unresolved imports are searched in every
//! file, as dependency-cruiser does. Every other rule or attribute (`pathNot`, `dependencyTypes`, `orphan`, regular expressions
//! beyond a folder prefix, `allowed`) is listed in a comment as not translated.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::error::EngineError;

/// The spec text for a dependency-cruiser configuration.
pub fn translate(text: &str, source_name: &str) -> Result<String, EngineError> {
    let object_text = match text.find("module.exports") {
        Some(position) => text.get(position..).and_then(|rest| {
            let brace = rest.find('{')?;
            rest.get(brace..)
        }),
        None => Some(text),
    }
    .unwrap_or(text);
    let config = Json5::new(object_text)
        .value()
        .filter(Value::is_object)
        .ok_or_else(|| {
            EngineError::Usage(format!(
            "`{source_name}`: no configuration object found (`module.exports = {{ … }}` or JSON)"
        ))
        })?;
    // Every file belongs to some component, as every module is dependency-cruiser's: the folders
    // the rules name, and `Rest` (the least specific glob) for the others.
    let mut components: BTreeMap<String, String> =
        BTreeMap::from([("**".to_owned(), "Rest".to_owned())]);
    let mut rules: Vec<String> = Vec::new();
    let mut skipped: Vec<String> = Vec::new();
    let forbidden = config
        .get("forbidden")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for rule in &forbidden {
        let name = rule
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("unnamed")
            .to_owned();
        let from = rule.get("from").cloned().unwrap_or(Value::Null);
        let to = rule.get("to").cloned().unwrap_or(Value::Null);
        let flag = |key: &str| to.get(key).and_then(Value::as_bool) == Some(true);
        if flag("circular") {
            rules.push(format!(
                "  // {name}\n  deny cycle among *\n  deny cycle within *"
            ));
            continue;
        }
        if flag("couldNotResolve") {
            rules.push(format!("  // {name}\n  deny unresolved imports in *"));
            continue;
        }
        let has_other = |side: &Value, known: &[&str]| {
            side.as_object()
                .is_some_and(|keys| keys.keys().any(|key| !known.contains(&key.as_str())))
        };
        let sources = folders(from.get("path"));
        let targets = folders(to.get("path"));
        if has_other(&from, &["path"]) || has_other(&to, &["path", "reachable"]) {
            skipped.push(name);
            continue;
        }
        let (Some(sources), Some(targets)) = (sources, targets) else {
            skipped.push(name);
            continue;
        };
        let verb = if flag("reachable") { "reach" } else { "flow" };
        let mut lines = vec![format!("  // {name}")];
        for source in &sources {
            for target in &targets {
                let from_name = component_for(source, &mut components);
                let to_name = component_for(target, &mut components);
                if from_name != to_name {
                    lines.push(format!("  deny {verb} {from_name} -> {to_name}"));
                }
            }
        }
        if lines.len() > 1 {
            rules.push(lines.join("\n"));
        } else {
            skipped.push(name);
        }
    }
    if config.get("allowed").is_some() {
        skipped.push("allowed (close each component with `depends_on`)".to_owned());
    }
    let excludes: Vec<String> = match config
        .get("options")
        .and_then(|options| options.get("exclude"))
    {
        Some(exclude) => folders(exclude.get("path").or(Some(exclude)))
            .unwrap_or_default()
            .into_iter()
            .map(|folder| format!("\"{folder}/**\""))
            .collect(),
        None => Vec::new(),
    };
    let mut spec = format!(
        "// Translated from `{source_name}` by `lintel init --from`: review it, then run `lintel check --all`.\n\
         // Each folder a rule names is a component, and `Rest` holds every other file.\n\n\
         node app : server\n"
    );
    if !excludes.is_empty() {
        spec.push_str(&format!("\nexclude {}\n", excludes.join(", ")));
    }
    spec.push('\n');
    for (folder, name) in &components {
        let glob = if folder == "**" {
            folder.clone()
        } else {
            format!("{folder}/**")
        };
        spec.push_str(&format!(
            "component {name} {{ runs_on: app  paths: \"{glob}\" }}\n"
        ));
    }
    if !rules.is_empty() {
        spec.push_str("\ninvariant DependencyCruiser {\n");
        spec.push_str(&rules.join("\n"));
        spec.push_str("\n}\n");
    }
    if !skipped.is_empty() {
        spec.push_str("\n// Not translated (see docs/MIGRATING.md):\n");
        for name in skipped {
            spec.push_str(&format!("// - {name}\n"));
        }
    }
    Ok(spec)
}

/// The folders a `path` expression (a string or an array of strings) names, when each is a
/// plain folder prefix: `^src/ui`, `^src/ui/`, `src/ui`; `None` otherwise.
fn folders(value: Option<&Value>) -> Option<Vec<String>> {
    let expressions: Vec<&str> = match value? {
        Value::String(text) => vec![text.as_str()],
        Value::Array(items) => items.iter().map(Value::as_str).collect::<Option<_>>()?,
        _ => return None,
    };
    expressions
        .into_iter()
        .map(|expression| {
            let folder = expression
                .trim_start_matches('^')
                .trim_end_matches('/')
                .replace("\\.", ".")
                .replace("\\/", "/");
            let is_plain = !folder.is_empty()
                && folder.chars().all(|character| {
                    character.is_ascii_alphanumeric()
                        || matches!(character, '/' | '_' | '-' | '.' | '@')
                })
                && !folder
                    .split('/')
                    .any(|segment| segment.is_empty() || segment == "..");
            is_plain.then_some(folder)
        })
        .collect()
}

/// The component of a folder: its last segment in PascalCase, made unique.
fn component_for(folder: &str, components: &mut BTreeMap<String, String>) -> String {
    if let Some(name) = components.get(folder) {
        return name.clone();
    }
    let last = folder.rsplit('/').next().unwrap_or(folder);
    let mut base: String = last
        .split(|character: char| !character.is_ascii_alphanumeric())
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut characters = part.chars();
            characters.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + characters.as_str()
            })
        })
        .collect();
    if !base.starts_with(|character: char| character.is_ascii_alphabetic()) {
        base.insert(0, 'M');
    }
    let mut name = base.clone();
    let mut counter = 2;
    while components.values().any(|taken| *taken == name) {
        name = format!("{base}{counter}");
        counter += 1;
    }
    components.insert(folder.to_owned(), name.clone());
    name
}

/// A JSON5-ish reader: objects, arrays, strings in any quotes, numbers, `true`/`false`/`null`,
/// comments and trailing commas. A value it cannot read (an identifier, a call, a regular
/// expression literal) is skipped to the next `,` or closing bracket and reads as `null`.
struct Json5<'a> {
    text: &'a [u8],
    position: usize,
}

impl<'a> Json5<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            text: text.as_bytes(),
            position: 0,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.position).copied()
    }

    fn skip_space(&mut self) {
        loop {
            match (self.peek(), self.text.get(self.position + 1).copied()) {
                (Some(byte), _) if byte.is_ascii_whitespace() => self.position += 1,
                (Some(b'/'), Some(b'/')) => {
                    while self.peek().is_some_and(|byte| byte != b'\n') {
                        self.position += 1;
                    }
                }
                (Some(b'/'), Some(b'*')) => {
                    self.position += 2;
                    while self.position < self.text.len()
                        && !(self.peek() == Some(b'*')
                            && self.text.get(self.position + 1) == Some(&b'/'))
                    {
                        self.position += 1;
                    }
                    self.position += 2;
                }
                _ => return,
            }
        }
    }

    fn value(&mut self) -> Option<Value> {
        self.value_at(0)
    }

    fn value_at(&mut self, depth: usize) -> Option<Value> {
        if depth > 64 {
            return None;
        }
        self.skip_space();
        match self.peek()? {
            b'{' => {
                self.position += 1;
                let mut object = serde_json::Map::new();
                loop {
                    self.skip_space();
                    let before = self.position;
                    match self.peek()? {
                        b'}' => {
                            self.position += 1;
                            return Some(Value::Object(object));
                        }
                        b',' => self.position += 1,
                        _ => {
                            let key = self.key()?;
                            self.skip_space();
                            if self.peek() != Some(b':') {
                                // A shorthand or spread entry: skip it; a stray closer ends
                                // the read.
                                self.skip_unknown();
                                if self.position == before {
                                    return None;
                                }
                                continue;
                            }
                            self.position += 1;
                            let value = self.value_at(depth + 1)?;
                            object.insert(key, value);
                        }
                    }
                }
            }
            b'[' => {
                self.position += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_space();
                    let before = self.position;
                    match self.peek()? {
                        b']' => {
                            self.position += 1;
                            return Some(Value::Array(items));
                        }
                        b',' => self.position += 1,
                        _ => items.push(self.value_at(depth + 1)?),
                    }
                    if self.position == before {
                        return None;
                    }
                }
            }
            b'"' | b'\'' | b'`' => self.string().map(Value::String),
            _ => {
                let start = self.position;
                self.skip_unknown();
                let word = std::str::from_utf8(self.text.get(start..self.position)?)
                    .ok()?
                    .trim();
                Some(match word {
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    _ => word
                        .parse::<f64>()
                        .ok()
                        .and_then(serde_json::Number::from_f64)
                        .map_or(Value::Null, Value::Number),
                })
            }
        }
    }

    fn key(&mut self) -> Option<String> {
        match self.peek()? {
            b'"' | b'\'' | b'`' => self.string(),
            _ => {
                let start = self.position;
                while self.peek().is_some_and(|byte| {
                    byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'$'
                }) {
                    self.position += 1;
                }
                if self.position == start {
                    return Some(String::new());
                }
                std::str::from_utf8(self.text.get(start..self.position)?)
                    .ok()
                    .map(str::to_owned)
            }
        }
    }

    fn string(&mut self) -> Option<String> {
        let quote = self.peek()?;
        self.position += 1;
        let mut bytes = Vec::new();
        loop {
            let byte = self.peek()?;
            self.position += 1;
            match byte {
                b'\\' => {
                    let escaped = self.peek()?;
                    self.position += 1;
                    bytes.push(match escaped {
                        b'n' => b'\n',
                        b't' => b'\t',
                        other => other,
                    });
                }
                _ if byte == quote => break,
                _ => bytes.push(byte),
            }
        }
        String::from_utf8(bytes).ok()
    }

    /// Skips an unreadable value: to the next `,`, `}` or `]` outside brackets and strings.
    fn skip_unknown(&mut self) {
        let mut depth = 0_usize;
        while let Some(byte) = self.peek() {
            match byte {
                b'"' | b'\'' | b'`' => {
                    if self.string().is_none() {
                        return;
                    }
                    continue;
                }
                b'(' | b'{' | b'[' => depth += 1,
                b')' | b'}' | b']' if depth == 0 => return,
                b')' | b'}' | b']' => depth -= 1,
                b',' if depth == 0 => return,
                _ => {}
            }
            self.position += 1;
        }
    }
}

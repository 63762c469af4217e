//! The few TOML and INI shapes lintel reads from `pyproject.toml`, `setup.cfg` and `Cargo.toml`:
//! `[section]` headers and `key = value` entries, where a value may span lines while its brackets
//! are open. Values stay raw text; [`strings`] and [`pairs`] read the quoted strings and the
//! `key = "value"` pairs out of one. Anything else (dates, numbers, escapes) is never needed.

/// One `key = value` entry with the section it sits in (`tool.setuptools.packages.find`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The dotted section name, without brackets (`""` before the first header).
    pub section: String,
    /// The key, unquoted.
    pub key: String,
    /// The raw value text, continuation lines joined with `\n`.
    pub value: String,
}

/// Reads the entries of a TOML (or INI, with `=` or `:`) text in order. INI continuation lines
/// (indented lines after `key =`) are joined to the value.
pub(crate) fn entries(text: &str) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    let mut section = String::new();
    let mut open_brackets = 0_i32;
    // INI: an entry written `key =` takes the indented lines after it as its value.
    let mut takes_indented_lines = false;
    for raw_line in text.lines() {
        let line = strip_comment(raw_line);
        let trimmed = line.trim();
        let is_indented = is_continuation(raw_line) && !trimmed.is_empty();
        if !is_indented && !trimmed.is_empty() {
            takes_indented_lines = false;
        }
        if open_brackets > 0 || (takes_indented_lines && is_indented) {
            if let Some(last) = entries.last_mut() {
                last.value.push('\n');
                last.value.push_str(trimmed);
                open_brackets += bracket_balance(trimmed);
                continue;
            }
        }
        if trimmed.is_empty() {
            continue;
        }
        if trimmed.starts_with('[') && open_brackets == 0 && !trimmed.contains('=') {
            section = trimmed
                .trim_start_matches('[')
                .trim_end_matches(']')
                .trim()
                .replace(['"', '\''], "");
            continue;
        }
        let Some((key, value)) = trimmed.split_once('=').or_else(|| trimmed.split_once(':')) else {
            continue;
        };
        let value = value.trim().to_owned();
        open_brackets = bracket_balance(&value).max(0);
        takes_indented_lines = value.is_empty();
        entries.push(Entry {
            section: section.clone(),
            key: key.trim().trim_matches(['"', '\'']).to_owned(),
            value,
        });
    }
    entries
}

/// The value of `key` in `section`, if present.
pub(crate) fn value<'a>(entries: &'a [Entry], section: &str, key: &str) -> Option<&'a str> {
    entries
        .iter()
        .find(|entry| entry.section == section && entry.key == key)
        .map(|entry| entry.value.as_str())
}

/// Every quoted string in a raw value, in order (`["src", 'lib']` → `src`, `lib`).
pub(crate) fn strings(value: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut current: Option<(char, String)> = None;
    for character in value.chars() {
        match &mut current {
            Some((quote, text)) if character == *quote => {
                found.push(std::mem::take(text));
                current = None;
            }
            Some((_, text)) => text.push(character),
            None if character == '"' || character == '\'' => {
                current = Some((character, String::new()));
            }
            None => {}
        }
    }
    found
}

/// The `key = "value"` pairs in a raw value, in order (`{ include = "x", from = "src" }`).
pub(crate) fn pairs(value: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for part in value.split([',', '{', '}', '[', ']', '\n']) {
        let Some((key, text)) = part.split_once('=') else {
            continue;
        };
        let key = key.trim().trim_matches(['"', '\'']).to_owned();
        if let Some(text) = strings(text).into_iter().next() {
            found.push((key, text));
        }
    }
    found
}

fn is_continuation(raw_line: &str) -> bool {
    raw_line.starts_with([' ', '\t'])
}

fn strip_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    for (index, character) in line.char_indices() {
        match quote {
            Some(open) if character == open => quote = None,
            Some(_) => {}
            None if character == '"' || character == '\'' => quote = Some(character),
            None if character == '#' || (character == ';' && index == 0) => {
                return line.get(..index).unwrap_or_default();
            }
            None => {}
        }
    }
    line
}

fn bracket_balance(text: &str) -> i32 {
    text.chars().fold(0, |balance, character| match character {
        '[' | '{' => balance + 1,
        ']' | '}' => balance - 1,
        _ => balance,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_multiline_values_strings_and_pairs_are_read() {
        let text = "[tool.poetry]\nname = \"shop\" # a comment\npackages = [\n  { include = \"shop\", from = \"src\" },\n]\n\n[options]\npackage_dir =\n    =src\n";
        let read = entries(text);
        assert_eq!(value(&read, "tool.poetry", "name"), Some("\"shop\""));
        let packages = value(&read, "tool.poetry", "packages").unwrap_or_default();
        assert_eq!(
            pairs(packages),
            [
                ("include".to_owned(), "shop".to_owned()),
                ("from".to_owned(), "src".to_owned())
            ]
        );
        assert_eq!(value(&read, "options", "package_dir"), Some("\n=src"));
        assert_eq!(strings("[\"a\", 'b']"), ["a", "b"]);
    }
}

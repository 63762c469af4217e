//! A parse rewrite for an attribute tree-sitter-rust cannot read: one on a field of a struct
//! pattern (`let Message { #[expect(unused_variables)] role, content } = m;`, or a
//! `#[cfg(feature = "x")]` field of a match arm's pattern; tensorzero had three files with parse
//! errors so). `crate::parse_source` reads such a file again with each attribute that stands
//! alone on its line before a line that is a field (`role,`, `prefix: _,`) blanked, every byte
//! at its offset, when the file as written has errors, and keeps that tree only when it has
//! fewer. Only attributes are lost, and a field's attribute makes no fact.

/// `source` with each single-line attribute before a field line blanked, or `None` when it
/// has none.
pub(crate) fn field_attributes(source: &str) -> Option<String> {
    if !source.contains("#[") {
        return None;
    }
    let mut lines = Vec::new();
    let mut start = 0;
    for line in source.split_inclusive('\n') {
        lines.push((start, line));
        start += line.len();
    }
    let mut text = source.as_bytes().to_vec();
    let mut changed = false;
    for (index, (start, line)) in lines.iter().enumerate() {
        let attribute = line.trim();
        if !(attribute.starts_with("#[") && attribute.ends_with(']')) {
            continue;
        }
        let next = lines
            .iter()
            .skip(index + 1)
            .map(|(_, line)| line.trim())
            .find(|line| !line.is_empty());
        if !next.is_some_and(is_field) {
            continue;
        }
        for byte in text.get_mut(*start..start + line.len())? {
            if !byte.is_ascii_whitespace() {
                *byte = b' ';
            }
        }
        changed = true;
    }
    // Only bytes of whole lines became spaces, newlines kept: the text is still UTF-8.
    changed.then(|| String::from_utf8(text).ok()).flatten()
}

/// Whether a trimmed line is a field of a struct pattern: `name,`, `mut name,`, `name: pattern,`.
fn is_field(line: &str) -> bool {
    let Some(field) = line.strip_suffix(',') else {
        return false;
    };
    let field = field.strip_prefix("ref ").unwrap_or(field);
    let field = field.strip_prefix("mut ").unwrap_or(field);
    let end = field
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(field.len());
    let (name, rest) = field.split_at(end);
    let rest = rest.trim_start();
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && (rest.is_empty() || (rest.starts_with(':') && !rest.starts_with("::")))
}

#[cfg(test)]
mod tests {
    use super::field_attributes;

    #[test]
    fn blanks_an_attribute_before_a_field_in_place() {
        let source = "let M {\n    #[expect(unused_variables)]\n    role,\n    content,\n} = m;\n";
        let rewritten = field_attributes(source).unwrap();
        assert_eq!(rewritten.len(), source.len());
        assert!(!rewritten.contains("#["));
        assert!(rewritten.contains("    role,\n"));
        // An attribute before an item or a statement stays.
        assert_eq!(field_attributes("#[cfg(test)]\nmod tests;\n"), None);
        assert_eq!(field_attributes("#[derive(Debug)]\npub struct A;\n"), None);
    }
}

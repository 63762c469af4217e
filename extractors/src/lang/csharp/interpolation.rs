//! A parse rewrite for interpolated strings tree-sitter-c-sharp misreads: an escaped `{{` right
//! before a hole whose expression holds a string literal (`$"{{{string.Join(", ", items)}}}"`,
//! the JSON Squidex's `ContentData.ToString()` writes) makes the grammar lose the rest of the
//! method. `crate::parse_source` reads such a file again with each `{{{` written `  {` (the
//! escape blanked, every byte at its offset) when the file as written has errors, and keeps
//! that tree only when it has fewer; only the string's literal text changes.

/// `source` with the escaped `{{` of each `{{{` blanked, or `None` when it has none.
pub(crate) fn escaped_brace_holes(source: &str) -> Option<String> {
    if !source.contains("{{{") {
        return None;
    }
    let mut text = source.as_bytes().to_vec();
    let mut from = 0;
    while let Some(found) = source.get(from..).and_then(|rest| rest.find("{{{")) {
        let at = from + found;
        // The first two of a run of braces: `{{{{` blanks `{{` and reads on after it.
        for byte in text.get_mut(at..at + 2)? {
            *byte = b' ';
        }
        from = at + 2;
    }
    // Only ASCII braces became spaces: the text is still UTF-8.
    String::from_utf8(text).ok()
}

#[cfg(test)]
mod tests {
    use super::escaped_brace_holes;

    #[test]
    fn blanks_the_escape_before_a_hole_in_place() {
        let source = r#"$"{{{string.Join(", ", x)}}}""#;
        let rewritten = escaped_brace_holes(source).unwrap();
        assert_eq!(rewritten, r#"$"  {string.Join(", ", x)}}}""#);
        assert_eq!(rewritten.len(), source.len());
        assert_eq!(escaped_brace_holes(r#"$"{{x}}""#), None);
    }
}

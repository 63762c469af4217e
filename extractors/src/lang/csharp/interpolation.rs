//! A parse rewrite for interpolated strings tree-sitter-c-sharp misreads: an escaped `{{` right
//! before a hole whose expression holds a string literal (`$"{{{string.Join(", ", items)}}}"`,
//! the JSON Squidex's `ContentData.ToString()` writes) makes the grammar lose the rest of the
//! method. `crate::parse_source` reads such a file again with each `{{{` written `  {` (the
//! escape blanked, every byte at its offset) when the file as written has errors, and keeps
//! that tree only when it has fewer; only the string's literal text changes.
//!
//! A hole whose format string starts with a colon (`{date::MM/dd/yyyy}`, the format
//! `:MM/dd/yyyy`, as Ombi's request cleanup logs its cut-off date) is a syntax error to the
//! grammar too: the same retry reads it with the second colon blanked (`{date: MM/dd/yyyy}`).

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

/// `source` with the second colon of each hole's `::` blanked (`{date::MM/dd/yyyy}`), or `None`
/// when it has none. A `::` counts when the text between it and the `{` before it is one
/// expression without spaces (a name, member accesses, calls, indexes) other than `global`, the
/// alias qualifier of `{global::System.DateTime.Now}`.
pub(crate) fn colon_format_holes(source: &str) -> Option<String> {
    if !source.contains("::") {
        return None;
    }
    let bytes = source.as_bytes();
    let mut text = bytes.to_vec();
    let mut changed = false;
    let mut from = 0;
    while let Some(found) = source.get(from..).and_then(|rest| rest.find("::")) {
        let at = from + found;
        from = at + 2;
        let before = bytes.get(..at).unwrap_or_default();
        let Some(open) = before.iter().rposition(|&byte| !is_expression_byte(byte)) else {
            continue;
        };
        let expression = before.get(open + 1..).unwrap_or_default();
        if before.get(open) != Some(&b'{') || expression.is_empty() || expression == b"global" {
            continue;
        }
        if let Some(second) = text.get_mut(at + 1) {
            *second = b' ';
            changed = true;
        }
    }
    // Only an ASCII colon became a space: the text is still UTF-8.
    changed.then(|| String::from_utf8(text).ok()).flatten()
}

/// A byte of a hole's expression written without spaces: a name, member accesses, calls and
/// indexes (`r.When?.Value`, `items[0]`, `Now()`).
fn is_expression_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'.' | b'?' | b'(' | b')' | b'[' | b']')
}

#[cfg(test)]
mod tests {
    use super::{colon_format_holes, escaped_brace_holes};

    #[test]
    fn blanks_the_second_colon_of_a_format_that_starts_with_one() {
        let source = r#"$"before {date::MM/dd/yyyy} and {r.When?.Value::HH}""#;
        let rewritten = colon_format_holes(source).unwrap();
        assert_eq!(
            rewritten,
            r#"$"before {date: MM/dd/yyyy} and {r.When?.Value: HH}""#
        );
        assert_eq!(
            colon_format_holes(r#"$"{global::System.DateTime.Now}""#),
            None
        );
        assert_eq!(
            colon_format_holes("var x = global::System.Math.Max(1, 2);"),
            None
        );
        assert_eq!(colon_format_holes(r#"$"{date:MM}""#), None);
    }

    #[test]
    fn blanks_the_escape_before_a_hole_in_place() {
        let source = r#"$"{{{string.Join(", ", x)}}}""#;
        let rewritten = escaped_brace_holes(source).unwrap();
        assert_eq!(rewritten, r#"$"  {string.Join(", ", x)}}}""#);
        assert_eq!(rewritten.len(), source.len());
        assert_eq!(escaped_brace_holes(r#"$"{{x}}""#), None);
    }
}

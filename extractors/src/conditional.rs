//! Conditional compilation (`#if`/`#elif`/`#elseif`/`#else`/`#endif`) as tree-sitter cannot
//! read it, in C# and Swift.
//!
//! tree-sitter-c-sharp takes a directive for a token that may stand between any two others, so it
//! reads both branches of a group as one text. That is right where each branch holds whole
//! declarations or statements, but not where a group splits an expression, as code that targets
//! several frameworks does:
//!
//! ```csharp
//! static readonly ValueTask Completed =
//! #if NET
//!     ValueTask.CompletedTask;
//! #else
//!     new ();
//! #endif
//! ```
//!
//! [`first_branches`] gives the text the compiler sees when the first branch of every group is
//! taken (as with the `NET` or `DEBUG` symbol defined): the directive lines and every later
//! branch blanked to spaces, so that every byte keeps its offset, line and column.
//!
//! tree-sitter-swift reads a group where a statement or a member may stand, so a group that
//! gives a declaration different attributes (`#if X @available(…) #else @available(…) #endif
//! func f()`) is an error to it, as are some conditions (`#elseif compiler(<6.1) && …`). Swift
//! branches hold whole statements, declarations, attributes or chain members, so
//! [`without_directives`] blanks the directive lines alone and keeps every branch: no branch's
//! imports or calls are lost.
//!
//! `crate::parse_source` parses these texts only when the file as written has syntax errors,
//! and keeps a tree only when it has fewer.

/// The directive of a line: `if`, `elif` (C#), `elseif` (Swift), `else` or `endif` after its
/// `#`, if any.
fn directive(line: &str) -> Option<&'static str> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let word = rest
        .split(|character: char| !character.is_ascii_alphabetic())
        .next()?;
    ["if", "elif", "elseif", "else", "endif"]
        .into_iter()
        .find(|known| *known == word)
}

/// `source` with the first branch of every conditional group taken: the `#if`, `#elif`,
/// `#elseif`, `#else` and `#endif` lines and the branches after the first blanked to spaces
/// (line breaks kept). `None` when the file has no conditional group, so nothing would change.
pub(crate) fn first_branches(source: &str) -> Option<String> {
    if !source.contains("#if") {
        return None;
    }
    // Per open group, innermost last: whether its current branch is blanked (a later branch, or
    // any branch of a group inside a blanked one).
    let mut groups: Vec<bool> = Vec::new();
    blank_lines(source, |line| match directive(line) {
        Some("if") => {
            groups.push(groups.last().copied().unwrap_or(false));
            true
        }
        Some("elif" | "elseif" | "else") => {
            if let Some(current) = groups.last_mut() {
                *current = true;
            }
            true
        }
        Some("endif") => {
            groups.pop();
            true
        }
        _ => groups.last().copied().unwrap_or(false),
    })
}

/// `source` with every directive line of its conditional groups blanked to spaces and every
/// branch kept (line breaks and offsets kept), or `None` when it has no group. Where each branch
/// holds whole declarations, statements, attributes or members of a chain, the text still reads
/// as code, and the facts of every branch are kept (an `import` in an `#else` branch, the calls
/// of each platform's code).
pub(crate) fn without_directives(source: &str) -> Option<String> {
    if !source.contains("#if") {
        return None;
    }
    blank_lines(source, |line| directive(line).is_some())
}

/// `source` with each line that `blank` answers true for (asked of every line in order, its
/// line break included) blanked to spaces: every byte but a line break becomes a space, so
/// offsets, lines and columns stay those of the file. `None` when no line is blanked.
pub(crate) fn blank_lines(source: &str, mut blank: impl FnMut(&str) -> bool) -> Option<String> {
    let mut text = String::with_capacity(source.len());
    let mut changed = false;
    for line in source.split_inclusive('\n') {
        if blank(line) {
            changed = true;
            text.extend(line.bytes().map(|byte| match byte {
                b'\n' | b'\r' => char::from(byte),
                _ => ' ',
            }));
        } else {
            text.push_str(line);
        }
    }
    changed.then_some(text)
}

#[cfg(test)]
mod tests {
    use super::{first_branches, without_directives};

    #[test]
    fn the_first_branch_of_each_group_is_kept_and_the_rest_blanked_in_place() {
        let source = "var a =\n#if NET\n    X.Y;\n#elif NETSTANDARD\n    Z;\n#else\n    new ();\n#endif\nvar b = 1;\n";
        let text = first_branches(source).expect("a group");
        assert_eq!(text.len(), source.len());
        // Line for line: each kept as written or blanked to as many spaces.
        for (blanked, line) in text.lines().zip(source.lines()) {
            assert!(
                blanked == line || blanked == " ".repeat(line.len()),
                "{line:?}"
            );
        }
        let kept: Vec<&str> = text
            .lines()
            .filter(|line| !line.trim().is_empty())
            .collect();
        assert_eq!(kept, ["var a =", "    X.Y;", "var b = 1;"]);
    }

    #[test]
    fn a_group_inside_a_blanked_branch_is_blanked_whole_and_offsets_hold_past_any_character() {
        let source = "#if A\r\nkeep();\r\n  #  if B\r\n  inner();\r\n  #else\r\n  other();\r\n  #endif\r\n#else\r\n#if C\r\nx(\"é\");\r\n#endif\r\n#endif\r\nafter();\r\n";
        let text = first_branches(source).expect("a group");
        assert_eq!(text.len(), source.len());
        let kept: Vec<&str> = text
            .split("\r\n")
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .collect();
        assert_eq!(kept, ["keep();", "inner();", "after();"]);
        // Byte for byte: what is kept is where it was.
        let at = source.find("after();").expect("in the source");
        assert_eq!(text.get(at..at + 8), Some("after();"));
    }

    /// The lines of `text` (made from `source` with lines blanked in place) that are not
    /// blank, trimmed.
    fn kept_lines<'t>(text: &'t str, source: &str) -> Vec<&'t str> {
        assert_eq!(text.len(), source.len());
        text.lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .collect()
    }

    #[test]
    fn elseif_as_swift_writes_it_starts_a_later_branch() {
        let source = "  #if A\n    @available(*, deprecated)\n  #elseif B\n    @available(iOS, deprecated: 9999)\n  #else\n    @available(macOS, deprecated: 9999)\n  #endif\n  func f() {}\n";
        let text = first_branches(source).expect("a group");
        assert_eq!(
            kept_lines(&text, source),
            ["@available(*, deprecated)", "func f() {}"]
        );
    }

    #[test]
    fn without_directives_every_branch_is_kept_in_place() {
        let source = "#if canImport(A)\nimport A\n#elseif os(Windows)\nimport B\n#else\nimport C\n#endif\nlet x = \"é\"\n";
        let text = without_directives(source).expect("a group");
        assert_eq!(
            kept_lines(&text, source),
            ["import A", "import B", "import C", "let x = \"é\""]
        );
        assert_eq!(without_directives("import A\n"), None);
    }

    #[test]
    fn a_file_without_groups_is_left_alone() {
        assert_eq!(first_branches("class A { #region x\n #endregion }"), None);
        assert_eq!(first_branches("// #iffy\nclass A {}"), None);
        assert_eq!(first_branches("#nullable enable\nclass A {}"), None);
    }
}

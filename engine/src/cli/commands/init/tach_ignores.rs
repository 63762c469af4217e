//! `# tach-ignore` directives, for `lintel init --from tach.toml`: Tach skips the imports they
//! mark, and lintel has no comments that silence a rule (an exception is written in the spec,
//! with an owner, a reason and an expiry). So the translation checks the project against the
//! spec it wrote, and waives each finding whose every import a directive marks, by its id.
//!
//! A directive is a comment holding the word `tach-ignore` (after other comment text too:
//! `# pylint: disable=x # tach-ignore`), on the first line of an import statement or alone on
//! the line above it; it marks the whole statement, as Tach reads it. After the word, an optional
//! `(reason)`, then the import paths it is limited to (`# tach-ignore(why) a.b.c`), up to the
//! next `#`: a limited directive marks a statement on one line whose every imported path it lists
//! (Tach compares the full path of each name, `a.b.c` for `from a.b import c`). What lintel
//! cannot tie to a statement it reports at is left alone, so the finding stays: a directive
//! on an inner line of a statement over several lines marks one name in Tach, and a lintel
//! finding stands for the whole statement.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::verdict::ArchitectureViolation;

/// The finding types the translation's rules produce that a directive may silence (Tach's import
/// errors: undeclared dependencies, interfaces, `cannot_depend_on`, layers and visibility).
const SILENCED: [&str; 3] = [
    "dependency_violation",
    "interface_violation",
    "flow_violation",
];

/// A file's text is read for directives up to this size (a source file, not data).
const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Whether any of `files` (project-relative) holds a directive: only then is the project checked.
pub fn any_directive(project: &Path, files: &[String]) -> bool {
    files
        .iter()
        .filter(|file| file.ends_with(".py") || file.ends_with(".pyi"))
        .any(|file| read(project, file).is_some_and(|text| text.contains("tach-ignore")))
}

fn read(project: &Path, file: &str) -> Option<String> {
    let bytes =
        policies::read::read_regular_file_no_follow(&project.join(file), MAX_FILE_BYTES).ok()?;
    String::from_utf8(bytes).ok()
}

/// The waivers (spec text, one per line) of the findings that directives silence; `until` is
/// the waivers' last day.
pub fn waivers(project: &Path, violations: &[ArchitectureViolation], until: &str) -> Vec<String> {
    let mut texts: BTreeMap<String, Option<Vec<String>>> = BTreeMap::new();
    let mut lines_of = |file: &str| -> Option<Vec<String>> {
        texts
            .entry(file.to_owned())
            .or_insert_with(|| {
                read(project, file).map(|text| text.lines().map(str::to_owned).collect())
            })
            .clone()
    };
    let mut waivers = Vec::new();
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for violation in violations {
        if !SILENCED.contains(&violation.violation_type) || !seen.insert(&violation.id) {
            continue;
        }
        let detected = &violation.detected;
        let mut marked = Vec::new();
        for (file, line) in detected.places() {
            let Some(directive) = lines_of(file).and_then(|lines| directive_line(&lines, line))
            else {
                marked.clear();
                break;
            };
            marked.push(format!("{file}:{directive}"));
        }
        if marked.is_empty() {
            continue;
        }
        waivers.push(format!(
            "waive {} until {until} owner \"tach-ignore\" reason \"`# tach-ignore` at {}\"",
            violation.id,
            marked.join(", ")
        ));
    }
    waivers
}

/// The line of the directive that marks the import statement starting at 1-based `line`, if one
/// does.
fn directive_line(lines: &[String], line: u32) -> Option<usize> {
    let at = usize::try_from(line).ok()?.checked_sub(1)?;
    let statement = lines.get(at)?;
    if statement.trim().is_empty() || statement.trim_start().starts_with('#') {
        return None;
    }
    if directive_of(comment_of(statement)).is_some_and(|directive| marks(&directive, statement)) {
        return Some(at + 1);
    }
    let above = lines.get(at.checked_sub(1)?)?;
    if !above.trim_start().starts_with('#') {
        return None;
    }
    let directive = directive_of(comment_of(above))?;
    marks(&directive, statement).then_some(at)
}

/// The comment of a line: after its first `#` outside a string literal.
fn comment_of(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (position, character) in line.char_indices() {
        match quote {
            Some(open) => {
                if escaped {
                    escaped = false;
                } else if character == '\\' {
                    escaped = true;
                } else if character == open {
                    quote = None;
                }
            }
            None => match character {
                '\'' | '"' => quote = Some(character),
                '#' => return line.get(position + 1..).unwrap_or_default(),
                _ => {}
            },
        }
    }
    ""
}

/// A directive: the import paths it is limited to (none: every import of the statement).
struct Directive {
    paths: Vec<String>,
}

fn directive_of(comment: &str) -> Option<Directive> {
    let start = comment
        .match_indices("tach-ignore")
        .find_map(|(position, _)| {
            let before = comment.get(..position)?.chars().next_back();
            before
                .is_none_or(|character| character.is_whitespace() || character == '#')
                .then_some(position + "tach-ignore".len())
        })?;
    let mut rest = comment.get(start..)?;
    if rest.starts_with(|character: char| {
        character.is_alphanumeric() || character == '_' || character == '-'
    }) {
        return None;
    }
    if let Some(reason) = rest.strip_prefix('(') {
        rest = reason.split_once(')').map_or("", |(_, after)| after);
    }
    let paths = rest
        .split('#')
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    Some(Directive { paths })
}

/// Whether `directive` marks the whole statement that starts on `statement`.
fn marks(directive: &Directive, statement: &str) -> bool {
    if directive.paths.is_empty() {
        return true;
    }
    imported_paths(statement).is_some_and(|paths| {
        !paths.is_empty() && paths.iter().all(|path| directive.paths.contains(path))
    })
}

/// The full paths a one-line absolute import statement imports (`from a.b import c, d as e`:
/// `a.b.c`, `a.b.d`; `import a.b as c, d`: `a.b`, `d`); `None` for any other line.
fn imported_paths(statement: &str) -> Option<Vec<String>> {
    let code = statement.get(..statement.len() - comment_of(statement).len())?;
    let code = code.trim().trim_end_matches('#').trim();
    if code.ends_with('(') || code.ends_with('\\') {
        return None;
    }
    let name_of = |item: &str| -> Option<String> {
        let name = item
            .split(" as ")
            .next()?
            .trim()
            .trim_matches(|c| c == '(' || c == ')');
        (!name.is_empty()).then(|| name.to_owned())
    };
    if let Some(rest) = code.strip_prefix("from ") {
        let (module, names) = rest.split_once(" import ")?;
        let module = module.trim();
        if module.starts_with('.') {
            return None;
        }
        return names
            .split(',')
            .filter(|item| !item.trim().is_empty())
            .map(|item| name_of(item).map(|name| format!("{module}.{name}")))
            .collect();
    }
    let names = code.strip_prefix("import ")?;
    names.split(',').map(name_of).collect()
}

/// The day a year after `today` (`YYYY-MM-DD`; 29 February gives 28 February).
pub fn a_year_after(today: &str) -> String {
    let (year, rest) = today.split_once('-').unwrap_or(("1970", "01-01"));
    let next = year.parse::<u32>().map_or(1971, |year| year + 1);
    let rest = if rest == "02-29" { "02-28" } else { rest };
    format!("{next:04}-{rest}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    /// The forms `tach check` (0.35.3) was seen to honour and to refuse, on one file.
    #[test]
    fn directives_mark_the_statements_tach_skips() {
        let file = lines(
            "# tach-ignore\n\
             from b.m import x\n\
             from b.m import y  # tach-ignore\n\
             # pylint: disable=foo # tach-ignore\n\
             from b.m import x as x5\n\
             from b.m import (  # pylint: disable=import-outside-toplevel # tach-ignore\n\
             \x20   z,\n\
             )\n\
             from b.m import x as x3  # tach-ignore(why) b.m.x\n\
             # tach-ignore(reason) b.m\n\
             from b.m import x as x4\n\
             from b.m import x  # tach-ignore pylint: disable=foo\n\
             # tach-ignore\n\
             \n\
             from b.m import x as x6\n\
             import b.m  # tach-ignore\n\
             x = \"# tach-ignore\"\n\
             from c import d  # tach-ignored\n\
             # tach-ignore\n\
             from b.m import (  # tach-ignore pylint: disable=foo\n",
        );
        let marked: Vec<u32> = (1..=20)
            .filter(|line| directive_line(&file, *line).is_some())
            .collect();
        // Tach reports lines 11 (the limit names the module, not the name), 12 (the words
        // after the directive are read as paths) and 15 (a blank line apart); line 20's own
        // directive is limited to such words, and the one above it marks it.
        assert_eq!(marked, [2, 3, 5, 6, 9, 16, 20]);
        assert_eq!(directive_line(&file, 2), Some(1));
        assert_eq!(directive_line(&file, 3), Some(3));
    }

    #[test]
    fn a_year_after_keeps_the_day_but_29_february() {
        assert_eq!(a_year_after("2026-12-07"), "2027-12-07");
        assert_eq!(a_year_after("2028-02-29"), "2029-02-28");
    }
}

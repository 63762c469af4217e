//! Component globs (see `component` in policies/LANGUAGE.md): validity (`invalid-glob`) and the compile-time
//! `ambiguous-paths` heuristic.

use std::collections::BTreeMap;

use globset::{GlobBuilder, GlobMatcher};

use super::Checker;
use crate::error::{Code, SpecError};
use crate::syntax::ast::{ComponentDecl, EntryValue};
use crate::syntax::Span;

/// Brace expansion stops at this many alternatives per glob.
const MAX_ALTERNATIVES: usize = 64;
/// The ambiguity heuristic compares at most this many pairs of alternatives.
const MAX_COMPARISONS: usize = 200_000;

/// Removes a leading `./` (repeatedly).
pub fn strip_dot_slash(glob: &str) -> &str {
    let mut glob = glob;
    while let Some(rest) = glob.strip_prefix("./") {
        glob = rest;
    }
    glob
}

/// Why a glob is invalid: empty, absolute, escaping the root, or not compilable.
pub fn glob_problem(glob: &str) -> Option<String> {
    pattern_problem(glob, glob)
}

/// Why a component glob is invalid (see `component` in policies/LANGUAGE.md): as [`glob_problem`], after the one `!` that makes a
/// glob remove files.
pub fn component_glob_problem(glob: &str) -> Option<String> {
    match glob.strip_prefix('!') {
        Some(negated) if negated.starts_with('!') => Some(format!(
            "invalid glob `{glob}`: one `!` removes files, and a glob cannot have two"
        )),
        Some(negated) => pattern_problem(glob, negated),
        None => glob_problem(glob),
    }
}

/// A component glob as the model keeps it: a leading `./` removed, after the `!` too.
pub fn normalized_component_glob(glob: &str) -> String {
    match glob.strip_prefix('!') {
        Some(negated) => format!("!{}", strip_dot_slash(negated)),
        None => strip_dot_slash(glob).to_owned(),
    }
}

/// Why `pattern` (the glob `written`, or what follows its `!`) is invalid.
fn pattern_problem(written: &str, pattern: &str) -> Option<String> {
    if let Some(problem) = crate::limits::glob_size_problem(pattern) {
        let glob = crate::limits::quoted_glob(written);
        return Some(format!("invalid glob `{glob}`: {problem}"));
    }
    let glob = written;
    let stripped = strip_dot_slash(pattern);
    let bytes = stripped.as_bytes();
    if stripped.is_empty() {
        return Some(format!("invalid glob `{glob}`: a glob cannot be empty"));
    }
    let has_drive =
        bytes.get(1) == Some(&b':') && bytes.first().is_some_and(u8::is_ascii_alphabetic);
    if stripped.starts_with('/') || stripped.starts_with('\\') || has_drive {
        return Some(format!(
            "invalid glob `{glob}`: globs are relative to the project root"
        ));
    }
    if stripped.split('/').any(|segment| segment == "..") {
        return Some(format!(
            "invalid glob `{glob}`: globs cannot leave the project root with `..`"
        ));
    }
    if crate::limits::has_nested_alternatives(stripped) {
        return Some(format!(
            "invalid glob `{glob}`: `{{…}}` alternatives cannot nest"
        ));
    }
    match compile(stripped) {
        Ok(_) => None,
        Err(reason) => Some(format!("invalid glob `{glob}`: {reason}")),
    }
}

fn compile(glob: &str) -> Result<GlobMatcher, String> {
    GlobBuilder::new(glob)
        .literal_separator(true)
        .build()
        .map(|compiled| compiled.compile_matcher())
        .map_err(|error| error.kind().to_string())
}

/// Expands non-nested `{a,b}` groups; stops growing at a fixed number of alternatives.
pub fn expand_braces(glob: &str) -> Vec<String> {
    let mut alternatives = vec![String::new()];
    let mut rest = glob;
    while let Some(open) = rest.find('{') {
        let (before, after_open) = rest.split_at(open);
        let Some(close) = after_open.find('}') else {
            break;
        };
        for alternative in &mut alternatives {
            alternative.push_str(before);
        }
        let group = after_open.get(1..close).unwrap_or_default();
        let mut expanded = Vec::new();
        for alternative in &alternatives {
            for choice in group.split(',') {
                if expanded.len() < MAX_ALTERNATIVES {
                    expanded.push(format!("{alternative}{choice}"));
                }
            }
        }
        alternatives = expanded;
        rest = after_open.get(close + 1..).unwrap_or_default();
    }
    for alternative in &mut alternatives {
        alternative.push_str(rest);
    }
    alternatives
}

struct Alternative {
    component: usize,
    text: String,
    tail: String,
    matcher: Option<GlobMatcher>,
    span: Span,
}

impl Checker<'_> {
    /// Reports `ambiguous-paths` (W) once per pair of components whose alternatives have equal
    /// literal prefixes and may match the same files (see `component` in policies/LANGUAGE.md).
    pub fn check_ambiguous_paths(&mut self) {
        let mut by_prefix: BTreeMap<String, Vec<Alternative>> = BTreeMap::new();
        let components: Vec<&ComponentDecl> = self.symbols.component_order.clone();
        // Each component's `!` globs, which take the files they match out of it.
        let mut removed: Vec<Vec<GlobMatcher>> = vec![Vec::new(); components.len()];
        for (index, component) in components.iter().enumerate() {
            for entry in &component.entries {
                let EntryValue::Globs(globs) = &entry.value else {
                    continue;
                };
                if entry.key.text != "paths" {
                    continue;
                }
                if let Some(removing) = removed.get_mut(index) {
                    removing.extend(
                        globs
                            .iter()
                            .filter_map(|glob| glob.value.strip_prefix('!'))
                            .filter(|negated| glob_problem(negated).is_none())
                            .flat_map(|negated| expand_braces(strip_dot_slash(negated)))
                            .filter_map(|negated| compile(&negated).ok()),
                    );
                }
                // A `!` glob removes files, so it cannot make two components own one file.
                for glob in globs.iter().filter(|glob| {
                    !glob.value.starts_with('!') && glob_problem(&glob.value).is_none()
                }) {
                    let mut text = strip_dot_slash(&glob.value).to_owned();
                    if text.ends_with('/') {
                        text.push_str("**");
                    }
                    for alternative in expand_braces(&text) {
                        let prefix_end = alternative
                            .find(['*', '?', '['])
                            .unwrap_or(alternative.len());
                        let prefix = alternative.get(..prefix_end).unwrap_or_default().to_owned();
                        let tail_start = alternative
                            .rfind(['*', '?', ']'])
                            .map_or(0, |position| position + 1);
                        let tail = alternative.get(tail_start..).unwrap_or_default().to_owned();
                        let matcher = compile(&alternative).ok();
                        let entry = Alternative {
                            component: index,
                            text: alternative,
                            tail,
                            matcher,
                            span: glob.span,
                        };
                        by_prefix.entry(prefix).or_default().push(entry);
                    }
                }
            }
        }
        let mut reported: BTreeMap<(usize, usize), ()> = BTreeMap::new();
        let mut comparisons = 0_usize;
        for group in by_prefix.values() {
            for (position, first) in group.iter().enumerate() {
                for second in group.iter().skip(position + 1) {
                    comparisons += 1;
                    if comparisons > MAX_COMPARISONS {
                        return;
                    }
                    let pair = (
                        first.component.min(second.component),
                        first.component.max(second.component),
                    );
                    // A component whose `!` glob matches the other's glob as written keeps
                    // none of its files (`src/pkg/**` with `!src/pkg/**/dao/**` beside
                    // `src/pkg/**/dao/**`).
                    let removes = |component: usize, other: &Alternative| {
                        removed.get(component).is_some_and(|matchers| {
                            matchers.iter().any(|matcher| matcher.is_match(&other.text))
                        })
                    };
                    if first.component == second.component
                        || reported.contains_key(&pair)
                        || !overlaps(first, second)
                        || removes(first.component, second)
                        || removes(second.component, first)
                    {
                        continue;
                    }
                    reported.insert(pair, ());
                    let later = if first.component > second.component {
                        first
                    } else {
                        second
                    };
                    let (Some(winner), Some(loser)) =
                        (components.get(pair.0), components.get(pair.1))
                    else {
                        continue;
                    };
                    let message = format!(
                        "paths of `{}` and `{}` may own the same files equally: `{}` (declared first) wins",
                        winner.name.text, loser.name.text, winner.name.text
                    );
                    self.errors
                        .push(SpecError::new(Code::AmbiguousPaths, later.span, message));
                }
            }
        }
    }
}

fn overlaps(first: &Alternative, second: &Alternative) -> bool {
    let matches = |matcher: &Option<GlobMatcher>, text: &str| {
        matcher
            .as_ref()
            .is_some_and(|matcher| matcher.is_match(text))
    };
    // An empty literal tail (a glob ending in `**` or `*`) says nothing of the other's files:
    // `p/*/a/**` and `p/*/b/**` share no file, though both tails are empty.
    let tail_within = |long: &str, short: &str| !short.is_empty() && long.ends_with(short);
    matches(&first.matcher, &second.text)
        || matches(&second.matcher, &first.text)
        || tail_within(&first.tail, &second.tail)
        || tail_within(&second.tail, &first.tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn braces_expand_to_alternatives() {
        assert_eq!(
            expand_braces("src/{a,b}/*.{ts,js}"),
            ["src/a/*.ts", "src/a/*.js", "src/b/*.ts", "src/b/*.js"]
        );
        assert_eq!(expand_braces("plain"), ["plain"]);
    }

    #[test]
    fn bad_globs_have_reasons() {
        assert!(glob_problem("/srv/**").is_some());
        assert!(glob_problem("../x/**").is_some());
        assert!(glob_problem("a/[b").is_some());
        assert!(glob_problem("").is_some());
        assert!(glob_problem("./api/**").is_none());
        assert!(
            glob_problem("!api/**").is_none(),
            "a plain glob may start with `!`"
        );
    }

    #[test]
    fn component_globs_may_be_negated_once() {
        assert_eq!(component_glob_problem("!./api/**/*.test.ts"), None);
        assert_eq!(
            component_glob_problem("!/srv/**").as_deref(),
            Some("invalid glob `!/srv/**`: globs are relative to the project root")
        );
        assert_eq!(
            component_glob_problem("!").as_deref(),
            Some("invalid glob `!`: a glob cannot be empty")
        );
        assert!(component_glob_problem("!!api/**").is_some());
        assert_eq!(normalized_component_glob("!./api/x.ts"), "!api/x.ts");
        assert_eq!(normalized_component_glob("./api/**"), "api/**");
    }
}

//! Size limits on user input that would otherwise make work grow without bound: the length of a
//! glob and the number of alternatives its `{…}` groups expand to.
//!
//! Every place that compiles a glob (component paths, `exclude`, workflow branch and tag
//! patterns, `urls` bindings, reviewed queries' `match.file`, and the same globs read back from
//! a compiled artifact) asks [`glob_size_problem`] first: a glob of hundreds of thousands of
//! characters makes the glob compiler give up (a panic inside the library), and seventeen
//! `{a,b}` groups make 131,072 alternatives, each compiled to its own matcher.

/// A glob longer than this (in bytes) is refused: a path glob has no use for more.
pub const MAX_GLOB_BYTES: usize = 4096;

/// A glob whose `{…}` groups expand to more alternatives than this is refused.
pub const MAX_GLOB_ALTERNATIVES: usize = 256;

/// Why `glob` is too large to compile, if it is: longer than [`MAX_GLOB_BYTES`], or expanding
/// to more than [`MAX_GLOB_ALTERNATIVES`] alternatives.
pub fn glob_size_problem(glob: &str) -> Option<String> {
    if glob.len() > MAX_GLOB_BYTES {
        return Some(format!(
            "a glob cannot be longer than {MAX_GLOB_BYTES} bytes (this one has {})",
            glob.len()
        ));
    }
    if alternative_count(glob) > MAX_GLOB_ALTERNATIVES {
        return Some(format!(
            "a glob cannot expand to more than {MAX_GLOB_ALTERNATIVES} alternatives (its `{{…}}` groups multiply)"
        ));
    }
    None
}

/// How many alternatives the `{…}` groups of `glob` expand to (the product of each group's
/// choices; saturating), outside character classes and escapes.
pub fn alternative_count(glob: &str) -> usize {
    let mut total = 1_usize;
    let mut choices = 0_usize;
    let mut depth = 0_u32;
    let mut in_class = false;
    let mut chars = glob.chars();
    while let Some(next) = chars.next() {
        match next {
            '\\' => {
                chars.next();
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '{' if !in_class => {
                depth += 1;
                if depth == 1 {
                    choices = 1;
                }
            }
            ',' if !in_class && depth == 1 => choices += 1,
            '}' if !in_class && depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    total = total.saturating_mul(choices);
                }
            }
            _ => {}
        }
    }
    total
}

/// A glob as a message may quote it: at most 80 characters, escaped.
pub fn quoted_glob(glob: &str) -> String {
    crate::read::excerpt(glob, 80)
}

/// True when a `{` opens inside another `{…}` group (outside character classes).
pub fn has_nested_alternatives(glob: &str) -> bool {
    let mut depth = 0_u32;
    let mut in_class = false;
    let mut chars = glob.chars();
    while let Some(next) = chars.next() {
        match next {
            '\\' => {
                chars.next();
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '{' if !in_class => {
                depth += 1;
                if depth > 1 {
                    return true;
                }
            }
            '}' if !in_class => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alternatives_multiply_across_groups() {
        assert_eq!(alternative_count("src/**"), 1);
        assert_eq!(alternative_count("{a,b}/{c,d,e}"), 6);
        assert_eq!(alternative_count("[{,}]"), 1);
        assert_eq!(alternative_count(&"{a,b}".repeat(17)), 131_072);
        assert_eq!(alternative_count(&"{a,b}".repeat(200)), usize::MAX);
    }

    #[test]
    fn long_and_wide_globs_are_refused() {
        assert!(glob_size_problem("src/{a,b}/**").is_none());
        assert!(glob_size_problem(&"{a,b}".repeat(9))
            .unwrap()
            .contains("256 alternatives"));
        assert!(glob_size_problem(&"a".repeat(400_000))
            .unwrap()
            .contains("4096 bytes"));
    }
}

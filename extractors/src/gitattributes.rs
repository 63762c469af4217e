//! The `linguist-generated` patterns of the root `.gitattributes`.
//!
//! Each line is a pattern and attributes; `linguist-generated` or `linguist-generated=true` marks
//! matching files generated, `-linguist-generated` or `linguist-generated=false` unmarks them, and
//! the last matching line wins, as in git. A pattern without `/` matches a file name at any
//! depth; one with `/` is anchored at the root (a leading `/` is dropped); `**` spans folders.

use globset::{GlobBuilder, GlobMatcher};

/// The generated-file patterns of a project's root `.gitattributes`.
#[derive(Debug, Clone, Default)]
pub struct GitAttributes {
    /// `(pattern, generated?)` in file order.
    rules: Vec<(GlobMatcher, bool)>,
}

impl GitAttributes {
    /// Reads the `linguist-generated` lines of a `.gitattributes` text; other lines and invalid
    /// patterns are ignored.
    pub fn parse(text: &str) -> Self {
        let mut rules = Vec::new();
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let Some(pattern) = words.next() else {
                continue;
            };
            let mut setting = None;
            for attribute in words {
                match attribute {
                    "linguist-generated" | "linguist-generated=true" => setting = Some(true),
                    "-linguist-generated" | "!linguist-generated" | "linguist-generated=false" => {
                        setting = Some(false);
                    }
                    _ => {}
                }
            }
            let Some(generated) = setting else {
                continue;
            };
            let glob = if pattern.trim_end_matches('/').contains('/') {
                pattern.trim_start_matches('/').to_owned()
            } else {
                format!("**/{pattern}")
            };
            if policies::limits::glob_size_problem(&glob).is_some() {
                continue;
            }
            if let Ok(glob) = GlobBuilder::new(&glob).literal_separator(true).build() {
                rules.push((glob.compile_matcher(), generated));
            }
        }
        Self { rules }
    }

    /// Whether the last line matching `path` (project-relative) marks it generated.
    pub fn is_generated(&self, path: &str) -> bool {
        self.rules
            .iter()
            .rev()
            .find(|(matcher, _)| matcher.is_match(path))
            .is_some_and(|(_, generated)| *generated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_like_git_and_the_last_line_wins() {
        let attributes = GitAttributes::parse(
            "# generated\n*.pb.ts linguist-generated\n/api/gen/** linguist-generated=true\napi/gen/keep.ts -linguist-generated\n*.md text\n",
        );
        assert!(attributes.is_generated("web/src/orders.pb.ts"));
        assert!(attributes.is_generated("api/gen/a/b.ts"));
        assert!(!attributes.is_generated("api/gen/keep.ts"));
        assert!(!attributes.is_generated("x/api/gen/a.ts"));
        assert!(!attributes.is_generated("README.md"));
    }
}

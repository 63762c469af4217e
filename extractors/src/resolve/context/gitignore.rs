//! The project's `.gitignore` files, read as data: a path one of them ignores is build output or
//! generated code that the repository does not hold (a Prisma generator's `generated/`, a
//! build's `dist/`), so an import that leads there names generated code, not a missing project
//! file (see [`crate::facts::imports::Resolution::Generated`]).

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;

use super::paths::{file_name, parent_dir};
use super::read::ConfigReader;

/// Every `.gitignore` of the project outside `node_modules`, deepest folder first.
#[derive(Debug, Default)]
pub(crate) struct GitIgnores {
    /// (folder, its rules): the folder is project-relative, `""` for the root.
    by_folder: Vec<(String, Gitignore)>,
}

impl GitIgnores {
    /// Reads the `.gitignore` files among `files`; a line git would reject is left out.
    pub fn discover<'a>(reader: &ConfigReader<'_>, files: impl Iterator<Item = &'a str>) -> Self {
        let mut by_folder: Vec<(String, Gitignore)> = files
            .filter(|path| {
                file_name(path) == ".gitignore"
                    && !path.split('/').any(|segment| segment == "node_modules")
            })
            .filter_map(|path| {
                let text = reader.read(path)?;
                let folder = parent_dir(path);
                let mut builder = GitignoreBuilder::new(folder);
                for line in text.lines() {
                    // A line git would reject is left out, as git leaves it out.
                    let _rejected = builder.add_line(None, line).err();
                }
                let rules = builder.build().ok()?;
                (!rules.is_empty()).then(|| (folder.to_owned(), rules))
            })
            .collect();
        by_folder.sort_by(|(left, _), (right, _)| {
            right
                .matches('/')
                .count()
                .cmp(&left.matches('/').count())
                .then_with(|| left.cmp(right))
        });
        Self { by_folder }
    }

    /// Whether the project-relative `path` (a file, or a module path without its extension) is
    /// ignored: the nearest `.gitignore` whose rules say something about it or about a folder
    /// above it decides, as git does.
    pub fn ignores(&self, path: &str) -> bool {
        self.by_folder.iter().find_map(|(folder, rules)| {
            let relative = match folder.is_empty() {
                true => path,
                false => path.strip_prefix(folder.as_str())?.strip_prefix('/')?,
            };
            decided(rules, relative)
        }) == Some(true)
    }
}

impl GitIgnores {
    /// Whether `path` is ignored by a line that names it, without a wildcard (`index.js`,
    /// `/src/schema.ts`): a file a tool writes, where `*.js` says only that builds are not
    /// committed.
    pub fn names(&self, path: &str) -> bool {
        self.ignores(path)
            && self.by_folder.iter().any(|(folder, rules)| {
                let relative = match folder.is_empty() {
                    true => Some(path),
                    false => path
                        .strip_prefix(folder.as_str())
                        .and_then(|rest| rest.strip_prefix('/')),
                };
                relative.is_some_and(|relative| match rules.matched(relative, false) {
                    Match::Ignore(glob) => !glob.original().trim().contains(['*', '?', '[']),
                    _ => false,
                })
            })
    }
}

/// What one `.gitignore` says about `relative` or, failing that, the nearest folder above it
/// (below the `.gitignore`'s own): `Some(true)` ignored, `Some(false)` re-included by a `!`
/// rule, `None` nothing.
fn decided(rules: &Gitignore, relative: &str) -> Option<bool> {
    let mut current = relative;
    let mut is_dir = false;
    while !current.is_empty() {
        match rules.matched(current, is_dir) {
            Match::Ignore(_) => return Some(true),
            Match::Whitelist(_) => return Some(false),
            Match::None => {}
        }
        current = parent_dir(current);
        is_dir = true;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ignores(files: &[(&str, &str)]) -> GitIgnores {
        let owned: Vec<(String, String)> = files
            .iter()
            .map(|(path, text)| ((*path).to_owned(), (*text).to_owned()))
            .collect();
        let reader = ConfigReader::from_source(move |wanted| {
            owned
                .iter()
                .find(|(path, _)| path == wanted)
                .map(|(_, text)| text.clone())
        });
        GitIgnores::discover(&reader, files.iter().map(|(path, _)| *path))
    }

    #[test]
    fn a_folder_rule_ignores_what_lies_below_it_and_the_nearest_file_decides() {
        let ignored = ignores(&[
            (".gitignore", "generated/\n/build\n*.log\n"),
            ("packages/db/.gitignore", "!generated/\nout/\n"),
            ("node_modules/x/.gitignore", "*\n"),
        ]);
        assert!(ignored.ignores("packages/prisma/generated/types"));
        assert!(ignored.ignores("packages/prisma/generated/zod/modelSchema/User.ts"));
        assert!(ignored.ignores("build/server/index.js"));
        assert!(
            !ignored.ignores("packages/app/build/x.ts"),
            "rooted at the top"
        );
        assert!(ignored.ignores("logs/today.log"));
        assert!(
            !ignored.ignores("src/generated.ts"),
            "a file named like the folder"
        );
        assert!(
            !ignored.ignores("packages/db/generated/types"),
            "re-included nearer"
        );
        assert!(ignored.ignores("packages/db/out/a.js"));
        assert!(!ignored.ignores("src/index.ts"));
        assert!(!ignored.ignores("node_modules/x/index.js"));
        assert!(!GitIgnores::default().ignores("generated/types"));
    }

    #[test]
    fn a_line_without_a_wildcard_names_the_file_it_ignores() {
        let ignored = ignores(&[
            (
                ".gitignore",
                "*.js
/dist/
",
            ),
            (
                "bindings/.gitignore",
                "index.cjs
index.d.ts
/loader.js
",
            ),
        ]);
        assert!(ignored.names("bindings/index.cjs"));
        assert!(ignored.names("bindings/index.d.ts"));
        assert!(ignored.names("bindings/loader.js"));
        assert!(
            !ignored.names("bindings/index.js"),
            "ignored by `*.js` only"
        );
        assert!(!ignored.names("src/util.js"), "a wildcard names no file");
        assert!(!ignored.names("dist/index.js"), "ignored with its folder");
        assert!(!ignored.names("bindings/other.cjs"));
    }
}

//! `exclude`: files left out of the checked project.
//!
//! # What it checks
//! `exclude "glob"`, `exclude ["a", "b"]` or `exclude "a", "b"` lists globs as component `paths`
//! do: each must compile, be relative and have no `..` segment, and none may start with
//! `!` (`invalid-glob`); a leading `./` is removed. Several `exclude` declarations merge, across
//! imported files too.
//!
//! # Why
//! Generated clients, vendored code, fixtures and tests that may cross layers are not the
//! architecture: a file an `exclude` glob matches is not read at all (not for its flows, not for
//! the types it declares), has no owner, starts or carries no flow, and no chain passes through
//! it. A component's `!` glob does less: it only takes files out of that component, and a file
//! it removes that no other component owns is still read, as a file no component owns.
//! `stats.files_excluded`, present whenever the spec has an `exclude` or a `!` glob, counts both:
//! the files an `exclude` glob matches, and those a `!` glob removes that no other component owns.
//!
//! # Passing example
//! `exclude ["**/testdata/**", "web/ui/node_modules/**"]` and, in an imported file,
//! `exclude "**/*.test.ts"`: the three globs apply together.
//!
//! # Failing example
//! `exclude "/abs/**"` gives `invalid-glob` (globs are relative to the project root);
//! `exclude "!src/keep.ts"` gives `invalid-glob` (an exclude glob cannot start with `!`).
//!
//! # SMT encoding
//! None: excluded files give no facts, so no slice mentions them.

use super::globs::{glob_problem, strip_dot_slash};
use super::Checker;
use crate::error::{Code, SpecError};
use crate::syntax::ast::StringLiteral;

impl Checker<'_> {
    /// Checks the globs of one `exclude` declaration and adds them to the model.
    pub fn check_exclude(&mut self, globs: &[StringLiteral]) {
        for glob in globs {
            if glob.value.starts_with('!') {
                let message = format!(
                    "invalid glob `{}`: an `exclude` glob cannot start with `!`",
                    glob.value
                );
                let help = "`exclude` only leaves files out: to keep some of the files an exclude glob matches, narrow that glob; to take files out of one component, put the `!` glob in its `paths`";
                self.errors
                    .push(SpecError::new(Code::InvalidGlob, glob.span, message).with_help(help));
                continue;
            }
            if let Some(problem) = glob_problem(&glob.value) {
                self.report(Code::InvalidGlob, glob.span, problem);
                continue;
            }
            let glob = strip_dot_slash(&glob.value).to_owned();
            if !self.model.excludes.contains(&glob) {
                self.model.excludes.push(glob);
            }
        }
    }
}

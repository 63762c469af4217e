//! A `use` declaration whose path goes through a module no file holds (`use
//! crate::missing::X`): its facts wait for the second pass, when every extracted Rust file's
//! top-level names are known (`crate::lang::rust::declarations`). The path then stays resolved
//! to the deepest module file when that file declares the name (an inline module, an enum, a
//! re-export, a macro that may make it) or when lintel cannot tell (the file was not extracted,
//! or a glob `use` or `include!` leaves it open); otherwise the module is missing and the
//! import is unresolved.
//!
//! A path that reaches the root of a crate without one (`use super::setup;` in
//! `tests/common/mod.rs`, module `common` of every integration test that declares `mod
//! common;`) resolves to each target of the folder whose root file declares the module, as
//! rustc compiles the file once per such target; when no extracted root declares it, lintel
//! cannot tell the root and makes no fact (never an unresolved one).
//!
//! A path through a module declared with a `#[path = "…"]` attribute (`#[path = "gen/schema.rs"]
//! mod schema;`, then `use crate::schema::Table`) goes on in the file the attribute names, read
//! as rustc reads it: relative to the declaring file's folder (inside inline modules, to their
//! folders, under the file's own folder when it is not a `mod.rs` or a crate root), and with the
//! modules the target declares beside it, as a `mod.rs`'s are. A module declared twice under
//! different `cfg`s (`#[cfg(unix)] #[path = "unix.rs"] mod imp;`, `#[cfg(windows)] …`) leads to
//! each file.

use policies::facts::{Fact, PropertyValue};
use tree_sitter::Node;

use crate::facts::imports::{self, ImportSiteAt};
use crate::resolve::context::paths::{file_name, parent_dir};
use crate::resolve::context::{ProjectContext, Resolution};
use crate::resolve::deferred::{Anchor, Anchors, Finishing, Part};

use super::{Resolved, SharedRoot};

/// The import facts of one `use` declaration, one per resolution of its paths.
pub(super) struct PendingUse {
    /// Each resolution's site (with the names it imports from there), the module names the path
    /// goes on through past the resolved file (the file must declare the first for the path to
    /// hold) and the roots it may resolve to instead.
    sites: Vec<(ImportSiteAt<Anchor>, Vec<String>, Option<SharedRoot>)>,
    /// Whether the declaration is compiled for tests only.
    test_only: bool,
}

impl PendingUse {
    /// The declaration `statement`, its tree's text `specifier` and its paths' resolutions.
    pub(super) fn new<'tree>(
        anchors: &mut Anchors<'tree>,
        statement: Node<'tree>,
        specifier: String,
        groups: Vec<(Resolved, Vec<String>)>,
        test_only: bool,
    ) -> Self {
        let anchor = anchors.at(statement);
        let sites = groups
            .into_iter()
            .map(|(resolved, names)| {
                let mut site =
                    ImportSiteAt::new(anchor, specifier.clone(), resolved.resolution, "use of");
                site.names = names;
                (site, resolved.through, resolved.shared)
            })
            .collect();
        Self { sites, test_only }
    }
}

impl Part for PendingUse {
    fn finish(self: Box<Self>, finishing: &mut Finishing<'_>, facts: &mut Vec<Fact>) {
        // Paths that lead to one resolution make one fact, as in the first pass.
        let mut sites: Vec<ImportSiteAt<Anchor>> = Vec::new();
        for (site, through, shared) in self.sites {
            let resolved = match shared {
                None => vec![site],
                Some(shared) => shared
                    .roots
                    .iter()
                    .filter(|root| finishing.context.rust_module_lists(root, &shared.module))
                    .map(|root| ImportSiteAt {
                        resolution: Resolution::File(root.clone()),
                        ..site.clone()
                    })
                    .collect(),
            };
            let mut resolved: Vec<ImportSiteAt<Anchor>> = resolved
                .into_iter()
                .flat_map(|site| match &site.resolution {
                    Resolution::File(file) if !through.is_empty() => {
                        let mut ends: Vec<ImportSiteAt<Anchor>> =
                            follow(finishing.context, file.clone(), through.clone())
                                .into_iter()
                                .map(|(file, through)| {
                                    let declared = through.first().and_then(|module| {
                                        finishing.context.rust_module_declares(&file, module)
                                    });
                                    ImportSiteAt {
                                        resolution: match declared {
                                            Some(false) => Resolution::Internal,
                                            _ => Resolution::File(file),
                                        },
                                        ..site.clone()
                                    }
                                })
                                .collect();
                        // Of a module declared once per `cfg` (`unix.rs`, `windows.rs`), a path
                        // that only some alternatives hold is code for those (`unix::orphan`).
                        if ends
                            .iter()
                            .any(|end| end.resolution != Resolution::Internal)
                        {
                            ends.retain(|end| end.resolution != Resolution::Internal);
                        }
                        ends
                    }
                    _ => vec![site],
                })
                .collect();
            // A file a `#[path]` attribute reaches has another module path than its place
            // gives: a `self::` or `super::` path read from its place may miss, which is no
            // finding of lintel's to make.
            if resolved
                .iter()
                .any(|site| site.resolution == Resolution::Internal)
                && !site_is_crate_path(&resolved)
                && is_path_target(finishing.context, finishing.path)
            {
                resolved.retain(|site| site.resolution != Resolution::Internal);
            }
            for mut site in resolved {
                match sites
                    .iter_mut()
                    .find(|known| known.resolution == site.resolution)
                {
                    Some(known) => known.names.append(&mut site.names),
                    None => sites.push(site),
                }
            }
        }
        for site in sites {
            if !imports::kept(&finishing.factory, &site.resolution) {
                continue;
            }
            let mut fact = imports::fact(&finishing.factory, &site, finishing.scope(site.node));
            if self.test_only {
                fact.properties
                    .insert("testOnly", PropertyValue::Bool(true));
            }
            facts.push(fact);
        }
    }
}

/// How many `#[path]` modules one path is followed through.
const MAX_FOLLOWED: usize = 32;

/// Where a path goes on from the module file `file` through the module names `through`: into the
/// files of the `#[path]` modules it names (one per declaration), and there into the modules
/// beside them. Each end is a file and the names left that no file holds.
fn follow(
    context: &ProjectContext,
    file: String,
    through: Vec<String>,
) -> Vec<(String, Vec<String>)> {
    let crates = context.crates();
    let mut ends = Vec::new();
    // Each file to go on from, the names left, and whether a `#[path]` reached it (its modules
    // then live beside it, as a `mod.rs`'s do).
    let mut next = vec![(file, through, false)];
    let mut followed = 0;
    while let Some((file, through, by_path)) = next.pop() {
        // Alternatives side by side reach the modules beside them alike.
        if ends.contains(&(file.clone(), through.clone())) {
            continue;
        }
        let declared = (followed < MAX_FOLLOWED)
            .then(|| context.rust_path_modules(&file, &through))
            .flatten();
        let Some((taken, declarations)) = declared else {
            ends.push((file, through));
            continue;
        };
        followed += 1;
        let is_mod_rs = by_path
            || file_name(&file) == "mod.rs"
            || crates
                .containing(&file)
                .is_some_and(|krate| krate.root_file.as_deref() == Some(file.as_str()));
        let rest = through.get(taken..).unwrap_or_default();
        let mut targets: Vec<String> = declarations
            .into_iter()
            .filter_map(|(inline, path)| super::attribute_path_file(&file, is_mod_rs, inline, path))
            .filter(|target| crates.has_file(target))
            .collect();
        targets.dedup();
        if targets.is_empty() {
            ends.push((file, through));
            continue;
        }
        for target in targets.into_iter().rev() {
            let beside = (1..=rest.len()).rev().find_map(|length| {
                let child = crates.module_file_in(parent_dir(&target), rest.get(..length)?)?;
                Some((child, rest.get(length..).unwrap_or_default().to_vec()))
            });
            next.push(match beside {
                Some((child, left)) => (child, left, false),
                None => (target, rest.to_vec(), true),
            });
        }
    }
    ends
}

/// Whether the sites' path starts at `crate::`, which no module path of the file changes.
fn site_is_crate_path(sites: &[ImportSiteAt<Anchor>]) -> bool {
    sites
        .first()
        .is_some_and(|site| site.specifier.starts_with("crate::"))
}

/// Whether some extracted Rust file declares `file` as a module with a `#[path]` attribute.
fn is_path_target(context: &ProjectContext, file: &str) -> bool {
    let crates = context.crates();
    context
        .rust_all_path_modules()
        .any(|(declaring, inline, path)| {
            let is_mod_rs = file_name(declaring) == "mod.rs"
                || crates
                    .containing(declaring)
                    .is_some_and(|krate| krate.root_file.as_deref() == Some(declaring));
            super::attribute_path_file(declaring, is_mod_rs, inline, path).as_deref() == Some(file)
        })
}

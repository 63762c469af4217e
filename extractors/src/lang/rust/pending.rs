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
//! each file. A path whose last name may be a module (`use crate::schema;`, `use
//! crate::schema::columns;`) lands on that module's file when the module is a `#[path]` one or
//! lives beside a `#[path]` file; otherwise the name is an item of the module before it.
//!
//! A path read against the file's own module (`self::`, `super::`, a module the file declares)
//! is read again here against the module paths rustc gives the file when a `#[path]` attribute
//! reaches it or a module above it ([`module_paths`]): `super` in `gen/schema.rs`, declared by
//! `lib.rs` as `#[path = "gen/schema.rs"] mod schema;`, is the crate root, not a module `gen`.

use std::collections::{HashMap, HashSet};

use policies::facts::{Fact, PropertyValue};
use tree_sitter::Node;

use crate::facts::imports::{self, ImportSiteAt};
use crate::resolve::context::paths::{file_name, parent_dir};
use crate::resolve::context::{attribute_path_target, Crate, ProjectContext, Resolution};
use crate::resolve::deferred::{Anchor, Anchors, Finishing, Part};

use super::Resolved;

/// The import facts of one `use` declaration, one per resolution of its paths.
pub(super) struct PendingUse {
    /// Each path group's site (with the names it imports from there) and where its paths lead.
    sites: Vec<(ImportSiteAt<Anchor>, Resolved)>,
    /// The inline modules around the declaration.
    inline: Vec<String>,
    /// Whether the declaration is compiled for tests only.
    test_only: bool,
}

impl PendingUse {
    /// The declaration `statement` (inside the inline modules `inline`), its tree's text
    /// `specifier` and its paths' resolutions.
    pub(super) fn new<'tree>(
        anchors: &mut Anchors<'tree>,
        statement: Node<'tree>,
        specifier: String,
        groups: Vec<(Resolved, Vec<String>)>,
        (inline, test_only): (Vec<String>, bool),
    ) -> Self {
        let anchor = anchors.at(statement);
        let sites = groups
            .into_iter()
            .map(|(resolved, names)| {
                let mut site = ImportSiteAt::new(
                    anchor,
                    specifier.clone(),
                    resolved.resolution.clone(),
                    "use of",
                );
                // A path that goes on past the resolved file's module through another of its
                // names reaches no name the file binds itself (`reexports`).
                if !resolved.through.is_empty() {
                    site.nested.clone_from(&names);
                }
                site.names = names;
                (site, resolved)
            })
            .collect();
        Self {
            sites,
            inline,
            test_only,
        }
    }
}

impl Part for PendingUse {
    fn finish(self: Box<Self>, finishing: &mut Finishing<'_>, facts: &mut Vec<Fact>) {
        let context = finishing.context;
        // The module paths rustc gives the file when a `#[path]` reaches it, for the paths read
        // against its module.
        let modules = module_paths(context, finishing.path);
        let chain = modules
            .as_ref()
            .map_or(&[][..], |modules| modules.chain.as_slice());
        // Paths that lead to one resolution make one fact, as in the first pass.
        let mut sites: Vec<ImportSiteAt<Anchor>> = Vec::new();
        for (site, resolved) in self.sites {
            let alternatives = match (&resolved.relative, &modules) {
                (Some(relative), Some(modules)) => modules
                    .paths
                    .iter()
                    .map(|(krate, module)| {
                        let mut base = module.clone();
                        base.extend(self.inline.iter().cloned());
                        if relative.up > base.len() {
                            return Resolution::Internal.into();
                        }
                        base.truncate(base.len() - relative.up);
                        let own = base.clone();
                        base.extend(relative.rest.iter().cloned());
                        let glob = relative.rest.last().is_some_and(|last| last == "*");
                        super::locate(context.crates(), (Some(krate), &own), krate, base, glob)
                    })
                    .collect(),
                _ => vec![resolved],
            };
            for resolved in alternatives {
                let site = ImportSiteAt {
                    resolution: resolved.resolution.clone(),
                    ..site.clone()
                };
                for mut site in ends(context, site, resolved, chain) {
                    match sites
                        .iter_mut()
                        .find(|known| known.resolution == site.resolution)
                    {
                        Some(known) => {
                            known.names.append(&mut site.names);
                            known.nested.append(&mut site.nested);
                        }
                        None => sites.push(site),
                    }
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

/// The sites one resolution of a path leads to: through the roots a helper module may have,
/// then through the `#[path]` modules and the modules beside them that the names past the
/// resolved file go on through.
fn ends(
    context: &ProjectContext,
    site: ImportSiteAt<Anchor>,
    resolved: Resolved,
    chain: &[String],
) -> Vec<ImportSiteAt<Anchor>> {
    let Resolved {
        through,
        shared,
        last,
        ..
    } = resolved;
    let resolved = match shared {
        None => vec![site],
        Some(shared) => shared
            .roots
            .iter()
            .filter(|root| context.rust_module_lists(root, &shared.module))
            .map(|root| ImportSiteAt {
                resolution: Resolution::File(root.clone()),
                ..site.clone()
            })
            .collect(),
    };
    resolved
        .into_iter()
        .flat_map(|site| match &site.resolution {
            Resolution::File(file) if !through.is_empty() || last.is_some() => {
                let mut names = through.clone();
                names.extend(last.iter().cloned());
                let mut ends: Vec<ImportSiteAt<Anchor>> =
                    follow(context, file.clone(), names, chain)
                        .into_iter()
                        .map(|(file, mut left)| {
                            // The last name named a module when nothing is left; else it is an
                            // item of the module the other names lead to.
                            if last.is_some() && !left.is_empty() {
                                left.pop();
                            }
                            let declared = left
                                .first()
                                .and_then(|module| context.rust_module_declares(&file, module));
                            ImportSiteAt {
                                resolution: match declared {
                                    Some(false) => Resolution::Internal,
                                    _ => Resolution::File(file),
                                },
                                ..site.clone()
                            }
                        })
                        .collect();
                // Of a module declared once per `cfg` (`unix.rs`, `windows.rs`), a path that
                // only some alternatives hold is code for those (`unix::orphan`).
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
        .collect()
}

/// How many `#[path]` modules one path is followed through.
const MAX_FOLLOWED: usize = 64;

/// Where a path goes on from the module file `file` through the module names `through`: into the
/// files of the `#[path]` modules it names (one per declaration), and there into the modules
/// beside them (of a module declared once per `cfg`, only the alternative among the importing
/// file's own modules, `chain`, when one is). Each end is a file and the names left that no file
/// holds. Each file is gone on from once with the same names left; an end the bound on how many
/// `#[path]` modules are followed cuts short is left out (lintel cannot tell where it leads).
fn follow(
    context: &ProjectContext,
    file: String,
    through: Vec<String>,
    chain: &[String],
) -> Vec<(String, Vec<String>)> {
    let crates = context.crates();
    let mut ends = Vec::new();
    // Each file to go on from, the names left, and whether a `#[path]` reached it (its modules
    // then live beside it, as a `mod.rs`'s do).
    let mut next = vec![(file, through, false)];
    let mut seen: HashSet<(String, Vec<String>)> = HashSet::new();
    while let Some((file, through, by_path)) = next.pop() {
        // Alternatives side by side reach the modules beside them alike.
        if !seen.insert((file.clone(), through.clone())) {
            continue;
        }
        let Some((taken, declarations)) = context.rust_path_modules(&file, &through) else {
            ends.push((file, through));
            continue;
        };
        if seen.len() > MAX_FOLLOWED {
            continue;
        }
        let is_mod_rs = by_path
            || file_name(&file) == "mod.rs"
            || crates
                .containing(&file)
                .is_some_and(|krate| krate.root_file.as_deref() == Some(file.as_str()));
        let rest = through.get(taken..).unwrap_or_default();
        let mut targets: Vec<String> = declarations
            .into_iter()
            .filter_map(|(inline, path)| {
                attribute_path_target(&file, is_mod_rs, inline, path, |target| {
                    crates.has_file(target)
                })
            })
            .collect();
        targets.dedup();
        // Of a module declared once per `cfg`, a file compiled as one alternative sees only its
        // own (`super::*` in `windows/sys.rs` is not `windows/stub.rs`).
        if targets
            .iter()
            .any(|target| chain.binary_search(target).is_ok())
        {
            targets.retain(|target| chain.binary_search(target).is_ok());
        }
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

/// How far up the module tree a file's module path is followed.
const MAX_MODULE_DEPTH: usize = 32;

/// How many files one file's module paths are worked out through at most.
const MAX_MODULE_VISITS: usize = 256;

/// How many module paths one file is given at most.
const MAX_MODULE_PATHS: usize = 16;

/// The module paths rustc gives `file`, with their crates, and the files of the modules above
/// it on those paths (the file included), when a `#[path]` attribute reaches it or a module above
/// it; `None` when its place in its crate gives its module path, as for every file of a project
/// without `#[path]` modules.
fn module_paths(context: &ProjectContext, file: &str) -> Option<ModulePaths> {
    context.rust_path_targets().next()?;
    let own = context.crates().containing(file)?;
    let place = super::module_of(file, &own);
    let mut known = HashMap::new();
    let paths = paths_of(context, file, 0, &mut known);
    let mut chain: Vec<String> = known.into_keys().collect();
    chain.sort();
    (paths != [(own, place)]).then_some(ModulePaths { paths, chain })
}

/// The module paths of a file a `#[path]` attribute reaches ([`module_paths`]).
struct ModulePaths {
    /// Each module path with its crate.
    paths: Vec<(Crate, Vec<String>)>,
    /// The files of the modules on those paths, sorted: of a module declared once per `cfg`,
    /// the file's own alternative is the one compiled with it.
    chain: Vec<String>,
}

/// The module paths of `file` in the crate module trees (see [`module_paths`]), read as rustc
/// reads them:
/// - a file a `#[path]` attribute names is the module its declaration names, once per
///   declaration (`cfg` alternatives, or a file two modules include);
/// - a file whose place in the module tree is a module file that declares it (`a/b.rs` of
///   `a.rs`'s `mod b;`) is that module's;
/// - a file beside a `#[path]` file that declares it (`mod columns;` in `gen/schema.rs`, then
///   `gen/columns.rs`) is that module's, since rustc reads a `#[path]` file as a `mod.rs`;
/// - otherwise its place gives it.
///
/// Each file's paths are worked out once (`known`, which also holds the files on the way); a
/// file met again before its paths are known (a cycle of declarations) is read by its place.
fn paths_of(
    context: &ProjectContext,
    file: &str,
    depth: usize,
    known: &mut HashMap<String, Vec<(Crate, Vec<String>)>>,
) -> Vec<(Crate, Vec<String>)> {
    if let Some(paths) = known.get(file) {
        return paths.clone();
    }
    let crates = context.crates();
    let Some(krate) = crates.containing(file) else {
        return Vec::new();
    };
    let place = super::module_of(file, &krate);
    let by_place = vec![(krate.clone(), place.clone())];
    known.insert(file.to_owned(), by_place.clone());
    if depth >= MAX_MODULE_DEPTH
        || known.len() > MAX_MODULE_VISITS
        || krate.root_file.as_deref() == Some(file)
    {
        return by_place;
    }
    let mut under = |parent: &str, names: &[String], paths: &mut Vec<(Crate, Vec<String>)>| {
        for (root, mut path) in paths_of(context, parent, depth + 1, known) {
            path.extend(names.iter().cloned());
            paths.push((root, path));
        }
    };
    let mut paths = Vec::new();
    for (declaring, module) in context.rust_path_declarations(file) {
        if declaring != file {
            under(declaring, module, &mut paths);
        }
    }
    let name = match file_name(file) {
        "mod.rs" => file_name(parent_dir(file)),
        other => other.strip_suffix(".rs").unwrap_or(other),
    };
    let folder = match file_name(file) {
        "mod.rs" => parent_dir(parent_dir(file)),
        _ => parent_dir(file),
    };
    let named = [name.to_owned()];
    let parent = place
        .split_last()
        .and_then(|(_, parent)| crates.module_file(&krate, parent))
        .filter(|parent| parent != file);
    if paths.is_empty() {
        if let Some(parent) = parent
            .as_deref()
            .filter(|parent| context.rust_module_lists(parent, name))
        {
            under(parent, &named, &mut paths);
        }
    }
    if paths.is_empty() {
        let beside: Vec<&str> = context
            .rust_path_targets()
            .filter(|target| {
                *target != file
                    && parent_dir(target) == folder
                    && context.rust_module_lists(target, name)
            })
            .collect();
        for target in beside {
            under(target, &named, &mut paths);
        }
    }
    if paths.is_empty() {
        if let Some(parent) = parent {
            under(&parent, &named, &mut paths);
        }
    }
    if paths.is_empty() {
        paths = by_place;
    }
    paths.sort();
    paths.dedup();
    // `cfg` alternatives at many levels multiply; a few are enough to tell where a path leads.
    paths.truncate(MAX_MODULE_PATHS);
    known.insert(file.to_owned(), paths.clone());
    paths
}

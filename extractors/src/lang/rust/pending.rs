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

use policies::facts::{Fact, PropertyValue};
use tree_sitter::Node;

use crate::facts::imports::{self, ImportSiteAt};
use crate::resolve::context::Resolution;
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
            for mut site in resolved {
                if let (Resolution::File(file), Some(module)) = (&site.resolution, through.first())
                {
                    if finishing.context.rust_module_declares(file, module) == Some(false) {
                        site.resolution = Resolution::Internal;
                    }
                }
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

//! A `use` declaration whose path goes through a module no file holds (`use
//! crate::missing::X`): its facts wait for the second pass, when every extracted Rust file's
//! top-level names are known (`crate::lang::rust::declarations`). The path then stays resolved
//! to the deepest module file when that file declares the name (an inline module, an enum, a
//! re-export, a macro that may make it) or when lintel cannot tell (the file was not extracted,
//! or a glob `use` or `include!` leaves it open); otherwise the module is missing and the
//! import is unresolved.

use policies::facts::{Fact, PropertyValue};
use tree_sitter::Node;

use crate::facts::imports::{self, ImportSiteAt};
use crate::resolve::context::Resolution;
use crate::resolve::deferred::{Anchor, Anchors, Finishing, Part};

use super::Resolved;

/// The import facts of one `use` declaration, one per resolution of its paths.
pub(super) struct PendingUse {
    /// Each resolution's site (with the names it imports from there) and the module name the
    /// resolved file must declare for the path to hold.
    sites: Vec<(ImportSiteAt<Anchor>, Option<String>)>,
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
                (site, resolved.through)
            })
            .collect();
        Self { sites, test_only }
    }
}

impl Part for PendingUse {
    fn finish(self: Box<Self>, finishing: &mut Finishing<'_>, facts: &mut Vec<Fact>) {
        // Paths that lead to one resolution make one fact, as in the first pass.
        let mut sites: Vec<ImportSiteAt<Anchor>> = Vec::new();
        for (mut site, through) in self.sites {
            if let (Resolution::File(file), Some(module)) = (&site.resolution, &through) {
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

//! Catalogue calls that may be a project type's static methods. A library whose calls the
//! catalogue knows by method name alone (Dapper's `Execute`, `QueryAsync`: extension methods on
//! any connection) is called on an instance; `CommandsExecutor.Execute(command)`, whose receiver
//! names a type, is a static call, and when the project declares that type
//! (kgrzybek/modular-monolith-with-ddd's internal `CommandsExecutor`) it is the project's method,
//! no access. The first pass cannot tell, so such a site makes no fact there (it still counts as
//! a use of its library, which keeps the library's `using` from a probable fact) and waits for
//! the type index.
//!
//! A site of a library that counts only where the file imports it (`requires_import`:
//! `new PaymentIntentService()` of Stripe.net, Dapper's `QueryAsync`) in a file without that
//! `using` waits too: the `global using`s of its project's other files (smartstore's
//! `global using Stripe;` in the module's `Module.cs`) and its project file's `<Using>` items
//! bring the namespace into every file of the project, and they are known only then.

use policies::facts::{Confidence, Fact};

use crate::facts::clients::{ClientImportAt, ClientMatcher, ClientSite, ClientSiteAt, ClientUse};
use crate::resolve::context::Types;
use crate::resolve::deferred::{Anchor, Anchors, Finishing};
use tree_sitter::Node;

use super::Using;

/// The sites that wait for the type index, and the libraries the first pass found used.
#[derive(Debug, Default)]
pub(super) struct StaticCalls {
    /// The sites, with their receivers written as a simple type name.
    pub(super) sites: Vec<ClientSiteAt<Anchor>>,
    /// The catalogue libraries the file's other sites use (they make no probable fact).
    pub(super) used: Vec<String>,
    /// The sites of a library the file does not import itself, which wait for its project's
    /// usings.
    pub(super) awaiting_import: Vec<ClientSiteAt<Anchor>>,
}

impl StaticCalls {
    /// Whether no site waits.
    pub(super) fn is_empty(&self) -> bool {
        self.sites.is_empty() && self.awaiting_import.is_empty()
    }

    /// What a file keeps of its `sites` for the type index, with the libraries its client facts
    /// (`clients`) show definitely used.
    pub(super) fn kept<'tree>(
        (sites, awaiting_import): (Vec<ClientSite<'tree>>, Vec<ClientSite<'tree>>),
        clients: &[Fact],
        anchors: &mut Anchors<'tree>,
        scope_of: &dyn Fn(Node<'_>) -> Option<String>,
    ) -> Self {
        if sites.is_empty() && awaiting_import.is_empty() {
            return Self::default();
        }
        let mut anchored = |sites: Vec<ClientSite<'tree>>| -> Vec<ClientSiteAt<Anchor>> {
            sites
                .into_iter()
                .map(|site| ClientSiteAt {
                    node: anchors.with_scope(site.node, scope_of(site.node)),
                    use_kind: site.use_kind,
                    path: site.path,
                    is_qualified: site.is_qualified,
                    argument: site.argument,
                    options: site.options,
                })
                .collect()
        };
        let sites = anchored(sites);
        let awaiting_import = anchored(awaiting_import);
        let used = clients
            .iter()
            .filter(|fact| fact.confidence == Confidence::Definite)
            .filter_map(|fact| fact.property_str("package"))
            .map(str::to_owned)
            .collect();
        Self {
            sites,
            used,
            awaiting_import,
        }
    }
}

/// Whether a site is a call that may be a static call of a project type: its receiver is one
/// capitalized name (`CommandsExecutor`) and the first rule it matches knows the call by its
/// method name alone.
pub(super) fn may_be_static(matcher: &ClientMatcher<'_>, site: &ClientSite<'_>) -> bool {
    if site.use_kind != ClientUse::Call {
        return false;
    }
    let Some((receiver, method)) = site.path.rsplit_once('.') else {
        return false;
    };
    receiver.starts_with(|first: char| first.is_ascii_uppercase())
        && receiver.chars().all(|c| c.is_alphanumeric() || c == '_')
        && matcher
            .first_rule(ClientUse::Call, &site.path, false)
            .is_some_and(|rule| rule.calls.contains(&method))
}

/// The facts of the waiting sites whose receiver is no type the project declares, and the
/// probable facts of their libraries' `using`s when none is (and the file uses them nowhere
/// else).
///
/// The sites that wait for an import are uses where the project's usings (`project_usings`:
/// its files' `global using`s and its project file's `<Using>`s) or the file's own bring
/// their library in; those usings make no probable fact here.
pub(super) fn facts(
    finishing: &Finishing<'_>,
    index: Types<'_>,
    (usings, project_usings): (&[Using<Anchor>], &[&str]),
    calls: StaticCalls,
    facts: &mut Vec<Fact>,
) {
    let matcher = ClientMatcher {
        rules: crate::catalogue::catalogue().libraries("csharp"),
        separator: ".",
    };
    let scope_of = |anchor: Anchor| finishing.scope(anchor);
    if let Some(first) = calls.awaiting_import.first() {
        let imports: Vec<ClientImportAt<Anchor>> = usings
            .iter()
            .filter(|using| using.alias.is_none() && !using.is_static)
            .map(|using| using.path.as_str())
            .chain(project_usings.iter().copied())
            .map(|path| ClientImportAt {
                node: first.node,
                path: path.to_owned(),
                is_project: index.owns_package(path),
            })
            .collect();
        let found = matcher.facts(
            &finishing.factory,
            &calls.awaiting_import,
            &imports,
            &scope_of,
        );
        facts.extend(
            found
                .into_iter()
                .filter(|fact| fact.confidence == Confidence::Definite),
        );
    }
    if calls.sites.is_empty() {
        return;
    }
    let libraries: Vec<&'static str> = calls
        .sites
        .iter()
        .filter_map(|site| matcher.first_rule(site.use_kind, &site.path, false))
        .map(|rule| rule.name)
        .collect();
    let kept: Vec<ClientSiteAt<Anchor>> = calls
        .sites
        .into_iter()
        .filter(|site| {
            let receiver = site
                .path
                .rsplit_once('.')
                .map_or("", |(receiver, _)| receiver);
            !index.declares_name(receiver)
        })
        .collect();
    let imports: Vec<ClientImportAt<Anchor>> = usings
        .iter()
        .filter(|using| !using.is_static)
        .map(|using| using.client_import(false))
        .collect();
    let found = matcher.facts(&finishing.factory, &kept, &imports, &scope_of);
    facts.extend(found.into_iter().filter(|fact| {
        let package = fact.property_str("package").unwrap_or_default();
        fact.confidence == Confidence::Definite
            || (libraries.contains(&package) && !calls.used.iter().any(|used| used == package))
    }));
}

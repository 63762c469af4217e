//! `import` and `external` facts of the languages other than TypeScript and JavaScript, in one
//! shape: the language extractors say what a construct imports and where it leads, this module
//! writes the fact (the fact schema, `policies::facts`).
//!
//! A file resolution gives `import` with `resolved`; a name meant to be inside the project that
//! does not resolve gives `import` without it (with `generated: true` where a `.gitignore` puts
//! generated code); a package outside the project gives `external`.
//! `typeOnly` is `true` only where a language marks an import as seen by type checkers alone
//! (Python's `if TYPE_CHECKING:` blocks); such an import is kept as a fact but makes no flow.

use policies::facts::{Confidence, Fact, FactKind, PropertyValue};
use tree_sitter::Node;

use crate::facts::{set, FactFactory, Located};

/// Where a module specifier leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Resolution {
    /// A file of the project (project-relative path).
    File(String),
    /// Meant to be inside the project (relative, aliased, a workspace package) but not found.
    Internal,
    /// Meant to be inside the project, where a `.gitignore` puts generated code or build output
    /// that the repository does not hold (`@db/generated/types` when `generated/` is ignored):
    /// no file, but no missing one either.
    Generated,
    /// A package outside the project.
    External {
        /// The package name, scope included (`@aws-sdk/client-s3`, `pg`, `fs`).
        package: String,
    },
}

impl Resolution {
    /// The answer as `crate::resolve::context::probes` records it (plain text: no escaping to pay for on every
    /// cached file's every import).
    pub(crate) fn answer(&self) -> String {
        match self {
            Resolution::File(path) => format!("file:{path}"),
            Resolution::Internal => "internal".to_owned(),
            Resolution::Generated => "generated".to_owned(),
            Resolution::External { package } => format!("external:{package}"),
        }
    }
}

/// One import edge of a file, at a syntax node.
pub(crate) type ImportSite<'tree> = ImportSiteAt<Node<'tree>>;

/// One import edge of a file, at a syntax node or at the anchor kept of one
/// (`crate::resolve::deferred`).
#[derive(Debug, Clone)]
pub(crate) struct ImportSiteAt<L> {
    /// The construct the evidence spans (the statement, or the first use of a type).
    pub node: L,
    /// What the file names: a module, package, type or path as written (`a.b`, `crate::db`).
    pub specifier: String,
    /// Where it leads.
    pub resolution: Resolution,
    /// The imported names, when the construct lists them.
    pub names: Vec<String>,
    /// Of `names`, those the path reaches past another name of the resolved file (Rust's
    /// `crate::a::inner::Deep` through an inline module, `crate::Mode::Fast` through an enum):
    /// names the file does not bind itself.
    pub nested: Vec<String>,
    /// The local alias, when the construct gives one.
    pub alias: Option<String>,
    /// The construct, for the message: `import of`, `use of`, `module declaration`, ….
    pub construct: &'static str,
    /// Whether only type checkers see the import (it is not executed at run time).
    pub type_only: bool,
}

impl<L> ImportSiteAt<L> {
    /// A site with no names or alias.
    pub fn new(
        node: L,
        specifier: impl Into<String>,
        resolution: Resolution,
        construct: &'static str,
    ) -> Self {
        Self {
            node,
            specifier: specifier.into(),
            resolution,
            names: Vec::new(),
            nested: Vec::new(),
            alias: None,
            construct,
            type_only: false,
        }
    }
}

/// Whether the fact of an import that leads to `resolution` is made (by [`fact`], or by the
/// TypeScript/JavaScript extractor): an `external` fact only where the factory keeps the facts
/// no policy reads (without reviewed queries, `graph --facts` or `--debug-extractors` the
/// engine would drop it unread), or for a library the spec binds with `clients` (the engine
/// makes it an access of the bound entity).
pub(crate) fn kept(factory: &FactFactory<'_>, resolution: &Resolution) -> bool {
    match resolution {
        Resolution::External { package } => factory.generic().wants_external(package),
        _ => true,
    }
}

/// The fact of one import site.
pub(crate) fn fact(
    factory: &FactFactory<'_>,
    site: &ImportSiteAt<impl Located>,
    scope: Option<String>,
) -> Fact {
    // Sized exactly: a `format!` grew its buffer for most imports.
    let message = [site.construct, " `", &site.specifier, "`"].concat();
    if let Resolution::External { package } = &site.resolution {
        let mut fact = factory.fact(
            FactKind::External,
            site.node,
            Confidence::Definite,
            scope,
            format!("{message} (external package `{package}`)"),
        );
        set(&mut fact, "specifier", factory.shared_text(&site.specifier));
        set(&mut fact, "package", factory.shared_text(package));
        // Only when true: a library seen by type checkers alone is no use of it, even where
        // the spec binds it (the engine makes no access of such an import).
        if site.type_only {
            set(&mut fact, "typeOnly", true);
        }
        return fact;
    }
    let mut fact = factory.fact(
        FactKind::Import,
        site.node,
        Confidence::Definite,
        scope,
        factory.shared(&message),
    );
    set(&mut fact, "specifier", factory.shared_text(&site.specifier));
    match &site.resolution {
        Resolution::File(resolved) => set(&mut fact, "resolved", factory.shared_text(resolved)),
        Resolution::Generated => set(&mut fact, "generated", true),
        Resolution::Internal | Resolution::External { .. } => {}
    }
    if !site.names.is_empty() {
        // One type's name is the same in every file that names it: shared, like the specifier.
        let names = site.names.iter().map(|name| factory.shared(name)).collect();
        set(&mut fact, "names", PropertyValue::List(names));
    }
    if !site.nested.is_empty() {
        let nested = site
            .nested
            .iter()
            .map(|name| factory.shared(name))
            .collect();
        set(&mut fact, "nested", PropertyValue::List(nested));
    }
    if let Some(alias) = &site.alias {
        set(&mut fact, "alias", alias.as_str());
    }
    set(&mut fact, "typeOnly", site.type_only);
    fact
}

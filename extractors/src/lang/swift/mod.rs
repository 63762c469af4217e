//! The Swift extractor: `import Module` resolved to the module's first file
//! (`context::swift`), infrastructure clients, and the SwiftPM target reader that discovery
//! uses on `Package.swift`.
//!
//! Apple frameworks are imported through umbrellas (`UIKit` brings `Foundation`), so their
//! clients (URLSession, Core Data, the Keychain, UserDefaults) match by name; Alamofire needs
//! its import.

pub(crate) mod calls_and_assignments;
pub(crate) mod spec;
pub(crate) mod walk;
pub(crate) mod web;

use std::collections::HashSet;

use policies::facts::{Fact, FactKind};
use tree_sitter::Node;

use crate::facts::clients::{ClientImport, ClientMatcher, ClientSite, ClientUse};
use crate::facts::imports::{self, ImportSite};
use crate::facts::FactFactory;
use crate::language::ExtractionInput;
use crate::query::Field;
use crate::resolve::context::swift::APPLE_MODULES;
use crate::resolve::context::Resolution;
use crate::source_scope;
use crate::syntax::{self, named_children};

/// `source` with each `#warning(…)` and `#error(…)` line blanked to spaces (every byte keeps
/// its offset, line breaks are kept), or `None` when it has none. Swift allows these compiler
/// diagnostics among a type's members too, where tree-sitter-swift reads an error; they declare
/// and use nothing. `crate::parse_source` parses this text only when the file as written has
/// errors, and keeps its tree only when it has fewer.
pub(crate) fn without_diagnostics(source: &str) -> Option<String> {
    if !source.contains("#warning") && !source.contains("#error") {
        return None;
    }
    crate::conditional::blank_lines(source, |line| {
        ["#warning", "#error"].into_iter().any(|directive| {
            line.trim_start()
                .strip_prefix(directive)
                .is_some_and(|rest| rest.trim_start().starts_with('('))
        })
    })
}

/// `source` with the `await` (and a `try`, `try?` or `try!` before it) of each
/// `switch await x.y {` blanked to spaces (every byte keeps its offset), or `None` when it has
/// none. tree-sitter-swift reads the `{` after an awaited member chain as a trailing closure of
/// it, and loses the switch's cases (mastodon-ios: `switch await statusView.viewModel.header
/// {`); the subject without its `await` reads as Swift does. `crate::parse_source` parses this
/// text only when the file as written has errors, and keeps its tree only when it has fewer.
pub(crate) fn without_switch_await(source: &str) -> Option<String> {
    if !source.contains("switch") || !source.contains("await") {
        return None;
    }
    let mut text = source.as_bytes().to_vec();
    let mut changed = false;
    let mut from = 0;
    while let Some(at) = source.get(from..).and_then(|rest| rest.find("switch")) {
        let start = from + at;
        from = start + "switch".len();
        let before_ok = source[..start]
            .chars()
            .next_back()
            .is_none_or(|character| !(character.is_alphanumeric() || character == '_'));
        if !before_ok {
            continue;
        }
        // `switch` then whitespace, then `try`/`try?`/`try!` and `await`, each after whitespace.
        let mut cursor = from;
        let mut blank: Vec<(usize, usize)> = Vec::new();
        for word in ["try", "await"] {
            let rest = &source[cursor..];
            let trimmed = rest.trim_start_matches([' ', '\t']);
            if trimmed.len() == rest.len() {
                break;
            }
            let word_start = cursor + (rest.len() - trimmed.len());
            let Some(after) = trimmed.strip_prefix(word) else {
                continue;
            };
            let mut word_end = word_start + word.len();
            if word == "try" && (after.starts_with('?') || after.starts_with('!')) {
                word_end += 1;
            }
            let next = source[word_end..].chars().next();
            if !next.is_some_and(|character| character == ' ' || character == '\t') {
                break;
            }
            blank.push((word_start, word_end));
            cursor = word_end;
        }
        if blank
            .last()
            .is_some_and(|(start, end)| &source[*start..*end] == "await")
        {
            for (start, end) in blank {
                if let Some(bytes) = text.get_mut(start..end) {
                    bytes.fill(b' ');
                }
            }
            changed = true;
        }
    }
    changed.then(|| String::from_utf8(text).ok()).flatten()
}

/// Extracts the facts of one Swift file (unsorted).
pub(crate) fn extract(input: &ExtractionInput<'_>) -> Vec<Fact> {
    let source = input.source;
    let hits = input.query.walked(|| {
        crate::lang::swift::walk::hits(input.tree, source, input.context.generic_facts())
    });
    let factory = input.fact_factory();
    let root = input.tree.root_node();
    let scope_of = |node: Node<'_>| source_scope::enclosing(node, root, source, scope_name);
    let mut facts = Vec::new();
    let mut client_imports = Vec::new();
    let mut imports_vapor = false;
    // `import class NATS.Client`: the declaration a scoped import names, by its name.
    let mut scoped_imports: Vec<(String, String)> = Vec::new();
    for hit in hits.iter().filter(|hit| hit.kind == FactKind::Import) {
        let Some(statement) = hit.node(Field::Statement) else {
            continue;
        };
        let Some(path) = named_children(statement)
            .into_iter()
            .find(|child| child.kind() == "identifier")
        else {
            continue;
        };
        let specifier = syntax::unspaced_text(path, source, 300);
        let module = specifier.split('.').next().unwrap_or_default().to_owned();
        imports_vapor |= module == "Vapor";
        if let Some((_, name)) = specifier.rsplit_once('.') {
            scoped_imports.push((name.to_owned(), specifier.clone()));
        }
        let resolution = input.context.resolve_swift(&module);
        client_imports.push(ClientImport {
            node: statement,
            path: module.clone(),
            is_project: !matches!(resolution, Resolution::External { .. }),
        });
        let site = ImportSite::new(statement, specifier, resolution, "import of");
        if imports::kept(&factory, &site.resolution) {
            let mut fact = imports::fact(&factory, &site, scope_of(statement));
            // An import is of the whole module: chains run through any of its files.
            if let (Resolution::File(_), Some(folder)) =
                (&site.resolution, input.context.swift_module_folder(&module))
            {
                fact.properties
                    .insert("moduleFolder", folder.to_owned().into());
            }
            facts.push(fact);
        }
    }
    let sites: Vec<ClientSite<'_>> = hits
        .iter()
        .filter(|hit| hit.kind == FactKind::AccessesTechnology)
        .filter_map(|hit| {
            let (node, use_kind, path) = match hit.node(Field::Call) {
                Some(call) => {
                    let callee = syntax::compact_text(hit.node(Field::Function)?, source, 200);
                    let is_plain_chain = callee.chars().all(|character| {
                        character.is_alphanumeric() || character == '_' || character == '.'
                    });
                    if !is_plain_chain {
                        return None;
                    }
                    (call, ClientUse::Call, callee)
                }
                None => (
                    hit.node(Field::Construction)?,
                    ClientUse::Construct,
                    format!(
                        "{}.{}",
                        syntax::text(hit.node(Field::Type)?, source),
                        syntax::text(hit.node(Field::Method)?, source)
                    ),
                ),
            };
            Some(ClientSite {
                node,
                use_kind,
                path,
                is_qualified: false,
                argument: None,
                options: Vec::new(),
            })
        })
        .collect();
    let matcher = ClientMatcher {
        rules: crate::catalogue::catalogue().libraries("swift"),
        separator: ".",
    };
    facts.extend(matcher.facts(&factory, &sites, &client_imports, &scope_of));
    if factory.generic().has_bound_clients() {
        // A bound module the catalogue knows is used at its catalogue clients only: Alamofire's
        // `HTTPHeaders(…)` or `URLEncoding.default` builds a request value, `AF.request(…)`
        // calls the client.
        let bound_sites = bound_sites(&factory, source, sites, &client_imports, &scoped_imports);
        facts.extend(matcher.bound_facts(&factory, &bound_sites, &client_imports, &scope_of));
    }
    let file = crate::facts::calls_and_assignments::FileSyntax {
        source,
        root,
        scope_of: &scope_of,
    };
    if input.context.generic_facts() {
        let grammar = crate::lang::swift::calls_and_assignments::Swift::new(root, source);
        facts.extend(crate::facts::calls_and_assignments::facts(
            &factory, &grammar, &hits, &file,
        ));
    }
    facts.extend(crate::lang::swift::web::facts(
        &factory,
        &hits,
        &file,
        imports_vapor,
    ));
    facts
}

/// Foundation and standard library types a file constructs beside a bound library's.
const WELL_KNOWN_TYPES: &[&str] = &[
    "Array",
    "Data",
    "Date",
    "DateFormatter",
    "Dictionary",
    "DispatchQueue",
    "JSONDecoder",
    "JSONEncoder",
    "NSLock",
    "Set",
    "String",
    "Task",
    "URL",
    "URLComponents",
    "URLRequest",
    "UUID",
];

/// The client sites of the libraries the spec binds with `clients` (see `node` and `resource` in policies/LANGUAGE.md), with
/// their qualified paths: a path written from a bound module (`NATS.Client(…)`), a declaration
/// of a scoped import (`Client(…)` after `import class NATS.Client`), or a type the file neither
/// declares nor gets from Foundation, constructed or called in a file whose only outside imports
/// besides Apple's are of one bound library. Swift sees a module's types without naming the
/// module, and lintel keeps no index of the project's Swift types, so a type of the file's own
/// target constructed in such a file is taken for the library's: the file imports it anyway.
/// A call of a capitalised name constructs, any other calls.
fn bound_sites<'tree>(
    factory: &FactFactory<'_>,
    source: &str,
    sites: Vec<ClientSite<'tree>>,
    imports: &[ClientImport<'tree>],
    scoped_imports: &[(String, String)],
) -> Vec<ClientSite<'tree>> {
    let generic = factory.generic();
    let mut bound_modules: Vec<(&str, &str)> = Vec::new();
    let mut has_other_outside = false;
    for import in imports.iter().filter(|import| !import.is_project) {
        match generic.bound_client(&import.path) {
            Some(library) => bound_modules.push((import.path.as_str(), library)),
            None => {
                has_other_outside |= !APPLE_MODULES.contains(&import.path.as_str());
            }
        }
    }
    let one_library = bound_modules
        .split_first()
        .filter(|((_, library), rest)| {
            !has_other_outside && rest.iter().all(|(_, other)| other == library)
        })
        .map(|((module, _), _)| *module);
    let is_declared_here = |name: &str| {
        ["class", "struct", "enum", "protocol", "actor", "typealias"]
            .iter()
            .any(|keyword| source.contains(&format!("{keyword} {name}")))
    };
    // A call of `T.f(…)` is a site twice (a call, and a navigation the catalogue reads as a
    // construction): one fact each.
    let mut seen: HashSet<(usize, String)> = HashSet::new();
    sites
        .into_iter()
        .filter_map(|mut site| {
            if !seen.insert((site.node.start_byte(), site.path.clone())) {
                return None;
            }
            let (head, rest) = site.path.split_once('.').unwrap_or((&site.path, ""));
            if !head.starts_with(|first: char| first.is_ascii_uppercase()) {
                return None;
            }
            let path = if generic.bound_client(head).is_some()
                && imports.iter().any(|import| import.path == head)
            {
                site.path.clone()
            } else if let Some((_, specifier)) =
                scoped_imports.iter().find(|(name, _)| name == head)
            {
                if rest.is_empty() {
                    specifier.clone()
                } else {
                    format!("{specifier}.{rest}")
                }
            } else if WELL_KNOWN_TYPES.contains(&head) || is_declared_here(head) {
                return None;
            } else {
                format!("{}.{}", one_library?, site.path)
            };
            generic.bound_client(&path)?;
            let last = path.rsplit('.').next().unwrap_or(&path);
            site.use_kind = if last.starts_with(|first: char| first.is_ascii_uppercase()) {
                ClientUse::Construct
            } else {
                ClientUse::Call
            };
            site.path = path;
            site.is_qualified = true;
            Some(site)
        })
        .collect()
}

/// Types, extensions and functions name scopes.
fn scope_name(node: Node<'_>, source: &str) -> Option<String> {
    match node.kind() {
        "class_declaration" | "protocol_declaration" | "function_declaration" => {
            source_scope::field_text(node, "name", source)
        }
        _ => None,
    }
}

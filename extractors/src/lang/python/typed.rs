//! Python clients handed in by type: a function's parameter, a class attribute (`db: Session`
//! in a class body) or an instance attribute (`self.db: Session = db` in a method) annotated with
//! a client type is an injection site. The annotation may name the type through a type alias:
//!
//! - one of the file's module-level aliases (`SessionDep = Annotated[Session, Depends(get_db)]`,
//!   `SessionDep: TypeAlias = …`, `type SessionDep = …`) is read in place;
//! - an alias another project file defines (`from app.api.deps import SessionDep`) is not known
//!   while one file is read: the annotated declaration waits in the file's links
//!   (`crate::resolve::links::AliasUse`), the defining file records its client aliases
//!   (`crate::resolve::links::ClientAlias`), and
//!   [`link_client_aliases`] joins them once every file is extracted, also through the files
//!   that only re-export the alias (`from .db import SessionDep` in `deps/__init__.py`, read
//!   from their `import` facts, or `from .db import SessionDep as Db`, which the file records,
//!   `crate::resolve::links::RenamedImport`).

use std::borrow::BorrowMut;
use std::collections::{BTreeMap, BTreeSet};

use policies::facts::{Confidence, Fact, FactKind};
use tree_sitter::Node;

use crate::facts::clients::{ClientSite, ClientUse};
use crate::lang::python::walk::{Typed, TypedIn};
use crate::resolve::links::{free_id, AliasUse, ClientAlias, RouteLinks};
use crate::syntax::{self, named_children, ChildField};

/// The catalogue types a parameter may be annotated with and still hold no client: a model
/// instance (`def slug(instance: Model)`) holds a row's values, and so does a user of auth's
/// abstract user models (`def greet(user: AbstractUser)`).
const MODEL_INSTANCE_TYPES: [&str; 5] = [
    "django.db.models.Model",
    "django.db.models.base.Model",
    "django.contrib.auth.models.AbstractUser",
    "django.contrib.auth.models.AbstractBaseUser",
    "django.contrib.auth.base_user.AbstractBaseUser",
];

/// A name a file imports from another project file: the file, and the name in it (`None` for
/// a module imported whole, whose attributes name its members: `deps.SessionDep`).
#[derive(Debug, Clone)]
pub(crate) struct ProjectName {
    /// Project-relative path of the file.
    pub file: String,
    /// The imported name, or `None` for the module itself.
    pub name: Option<String>,
}

/// A module-level type alias of the file: its name, its definition and the qualified client
/// type paths it names.
pub(crate) struct Alias<'tree> {
    pub name: String,
    pub node: Node<'tree>,
    pub paths: Vec<String>,
}

/// The file's module-level type aliases whose value names a type the file's imports qualify
/// (or an earlier alias names): `SessionDep = Annotated[Session, Depends(get_db)]`,
/// `Db: TypeAlias = Session | None`, `type Db = Session`. A plain `X = Y` is a value, not read.
pub(crate) fn module_aliases<'tree>(
    declarations: &Typed<'tree>,
    source: &str,
    bindings: &BTreeMap<String, String>,
) -> Vec<Alias<'tree>> {
    let mut aliases: Vec<Alias<'tree>> = Vec::new();
    let statements = declarations
        .iter()
        .filter(|(_, place, _)| *place == TypedIn::Alias)
        .map(|(statement, _, _)| *statement);
    for statement in statements {
        let (name, value) = match statement.kind() {
            "type_alias_statement" => {
                let (Some(left), Some(right)) = (
                    statement.child_field("left"),
                    statement.child_field("right"),
                ) else {
                    continue;
                };
                let name = named_children(left)
                    .into_iter()
                    .next()
                    .filter(|name| name.kind() == "identifier");
                match name {
                    Some(name) => (name, right),
                    None => continue,
                }
            }
            "expression_statement" => {
                let Some(assignment) = named_children(statement)
                    .into_iter()
                    .next()
                    .filter(|child| child.kind() == "assignment")
                else {
                    continue;
                };
                let (Some(left), Some(right)) = (
                    assignment.child_field("left"),
                    assignment.child_field("right"),
                ) else {
                    continue;
                };
                let declared_alias = assignment.child_field("type").is_some_and(|written| {
                    syntax::text(written, source)
                        .rsplit('.')
                        .next()
                        .is_some_and(|last| last.trim() == "TypeAlias")
                });
                let annotated = matches!(right.kind(), "subscript" | "generic_type")
                    && named_children(right).first().is_some_and(|head| {
                        let head = syntax::text(*head, source);
                        head.rsplit('.').next() == Some("Annotated")
                    });
                if left.kind() != "identifier" || !(declared_alias || annotated) {
                    continue;
                }
                (left, right)
            }
            _ => continue,
        };
        let paths: Vec<String> = annotated_types(value, source)
            .into_iter()
            .flat_map(|written| qualified_paths(written, bindings, &aliases))
            .collect();
        if !paths.is_empty() {
            aliases.push(Alias {
                name: syntax::text(name, source).to_owned(),
                node: statement,
                paths,
            });
        }
    }
    aliases
}

/// The qualified paths a written type names: through the file's aliases, else its imports.
fn qualified_paths(
    written: &str,
    bindings: &BTreeMap<String, String>,
    aliases: &[Alias<'_>],
) -> Vec<String> {
    if let Some(alias) = aliases.iter().rev().find(|alias| alias.name == written) {
        return alias.paths.clone();
    }
    let (first, rest) = written.split_once('.').unwrap_or((written, ""));
    let Some(qualified) = bindings.get(first) else {
        return Vec::new();
    };
    let path = if rest.is_empty() {
        qualified.clone()
    } else {
        format!("{qualified}.{rest}")
    };
    // A model instance is a row's values, not a connection: Django's `Model` is a client type
    // only to the classes that extend it.
    if MODEL_INSTANCE_TYPES.contains(&path.as_str()) {
        return Vec::new();
    }
    vec![path]
}

/// What [`typed_sites`] finds.
pub(crate) struct TypedSites<'tree> {
    /// The injection sites whose types the file qualifies.
    pub sites: Vec<ClientSite<'tree>>,
    /// Declarations annotated with a name of another project file: (declaration, the
    /// function or class it belongs to, file, name).
    pub pending: Vec<(Node<'tree>, Node<'tree>, String, String)>,
    /// The parameters among the sites that their function's body never names (node ids): they
    /// hold the client only to fit a signature, no access, though a use of its library.
    pub unused: BTreeSet<usize>,
}

/// The parameters of the file's functions, the annotated attributes of its class bodies and the
/// `self.x: T` attributes of its functions (`declarations`, found by the file's walk) whose
/// annotation names a type the file's imports or aliases qualify (`db: Session`, `cache:
/// redis.Redis`, FastAPI's `db: Session = Depends(get_db)`, also inside `Annotated[…]`,
/// `Optional[…]` and `X | None`): injection sites. An annotation naming one of `project`'s
/// names is pending. Lambdas take no annotation; a string annotation (a forward reference) is
/// not read.
pub(crate) fn typed_sites<'tree>(
    declarations: &Typed<'tree>,
    source: &str,
    bindings: &BTreeMap<String, String>,
    aliases: &[Alias<'_>],
    project: &BTreeMap<String, ProjectName>,
) -> TypedSites<'tree> {
    let mut found = TypedSites {
        sites: Vec::new(),
        pending: Vec::new(),
        unused: BTreeSet::new(),
    };
    // Whether a declaration's annotation may name a client, read from its text (`name: type`,
    // `name: type = default`, `self.name: type = value`) before any child is looked up: its
    // first name is one of the file's imports, aliases or project names, or a wrapper
    // (`Optional[…]`), or it is a union (`X | None`); a plain `str` or a string is read no further.
    let may_name = |declaration: Node<'_>| {
        let text = source
            .get(declaration.start_byte()..declaration.end_byte())
            .unwrap_or_default();
        let Some((_, annotation)) = text.split_once(':') else {
            return false;
        };
        let annotation = annotation.trim_start_matches([' ', '\t']);
        let end = annotation
            .bytes()
            .position(|byte| !(byte.is_ascii_alphanumeric() || byte == b'_'))
            .unwrap_or(annotation.len());
        let head = annotation.get(..end).unwrap_or_default();
        !head.is_empty()
            && (matches!(head, "Annotated" | "Optional" | "Union")
                || bindings.contains_key(head)
                || project.contains_key(head)
                || aliases.iter().any(|alias| alias.name == head)
                || annotation.contains('|'))
    };
    for &(declaration, place, owner) in declarations {
        if !may_name(declaration) {
            continue;
        }
        let annotation = match place {
            TypedIn::Alias => continue,
            TypedIn::Parameter => declaration.child_field("type"),
            // A class attribute: `db: Session`.
            TypedIn::Class => declaration
                .child_field("left")
                .filter(|left| left.kind() == "identifier")
                .and_then(|_| declaration.child_field("type")),
            // Only an attribute of the instance: `self.db: Session = db`.
            TypedIn::Function => declaration
                .child_field("left")
                .filter(|left| {
                    left.kind() == "attribute"
                        && left
                            .child_field("object")
                            .is_some_and(|object| syntax::text(object, source) == "self")
                })
                .and_then(|_| declaration.child_field("type")),
        };
        let Some(annotation) = annotation else {
            continue;
        };
        let unused = place == TypedIn::Parameter && is_unused_parameter(declaration, owner, source);
        for written in annotated_types(annotation, source) {
            for path in qualified_paths(written, bindings, aliases) {
                if unused {
                    found.unused.insert(declaration.id());
                }
                found.sites.push(ClientSite {
                    node: declaration,
                    use_kind: ClientUse::Inject,
                    path,
                    is_qualified: true,
                    argument: None,
                    options: Vec::new(),
                });
            }
            if let Some((file, name)) = project_name(written, project).filter(|_| !unused) {
                found.pending.push((declaration, owner, file, name));
            }
        }
    }
    found
}

/// Whether the parameter `declaration` of `function` is one its body never uses itself: no
/// identifier of the body names it (onyx's `fetch_logo_helper(db_session: Session)` hands on
/// nothing), or each one that does is an argument of a call, `get_user(db_session, id)` or
/// `get_user(db_session=db_session)`: a FastAPI handler given a session by `Depends` that
/// only hands it to the functions of the data layer, which make the queries (onyx's server
/// handlers). A method call or attribute of it (`db_session.query(…)`) is a use.
fn is_unused_parameter(declaration: Node<'_>, function: Node<'_>, source: &str) -> bool {
    let name = declaration.child_field("name").or_else(|| {
        named_children(declaration)
            .into_iter()
            .find(|child| child.kind() == "identifier")
    });
    let (Some(name), Some(body)) = (name, function.child_field("body")) else {
        return false;
    };
    syntax::only_handed_on(body, source, syntax::text(name, source), |node| {
        let parent = node.parent();
        let argument = |parent: Option<Node<'_>>| {
            parent.is_some_and(|parent| parent.kind() == "argument_list")
        };
        // The keyword of `f(db_session=…)` names no variable.
        let keyword = parent.is_some_and(|parent| {
            parent.kind() == "keyword_argument"
                && parent.child_by_field_name("name").map(|name| name.id()) == Some(node.id())
        });
        keyword
            || argument(parent)
            || parent.is_some_and(|parent| {
                parent.kind() == "keyword_argument"
                    && parent.child_by_field_name("value").map(|value| value.id())
                        == Some(node.id())
                    && argument(parent.parent())
            })
    })
}

/// The project file and name a written type names through the file's imports of project names
/// (`SessionDep`, or `deps.SessionDep` with `from app.api import deps`).
fn project_name(
    written: &str,
    project: &BTreeMap<String, ProjectName>,
) -> Option<(String, String)> {
    if project.is_empty() {
        return None;
    }
    match written.split_once('.') {
        None => {
            let imported = project.get(written)?;
            Some((imported.file.clone(), imported.name.clone()?))
        }
        Some((module, member)) if !member.contains('.') => {
            let imported = project.get(module)?;
            imported
                .name
                .is_none()
                .then(|| (imported.file.clone(), member.to_owned()))
        }
        Some(_) => None,
    }
}

/// The dotted type names an annotation names as the value's own type: `Session`,
/// `redis.Redis`, the first argument of `Annotated[…]`, the argument of `Optional[…]`, each
/// side of `X | None`; not the items of a collection (`list[Session]` holds sessions, it is not
/// one).
pub(crate) fn annotated_types<'s>(annotation: Node<'_>, source: &'s str) -> Vec<&'s str> {
    let mut found = Vec::new();
    let mut pending = vec![annotation];
    while let Some(node) = pending.pop() {
        match node.kind() {
            "type" => pending.extend(named_children(node)),
            "identifier" | "attribute" => {
                let written = syntax::text(node, source);
                if !written.contains(char::is_whitespace) {
                    found.push(written);
                }
            }
            "binary_operator" => pending.extend(named_children(node)),
            "generic_type" | "subscript" => {
                let children = named_children(node);
                let Some(head) = children.first() else {
                    continue;
                };
                let name = syntax::text(*head, source);
                let name = name.rsplit('.').next().unwrap_or(name);
                let arguments: Vec<Node<'_>> = children
                    .iter()
                    .skip(1)
                    .flat_map(|child| {
                        if child.kind() == "type_parameter" {
                            named_children(*child)
                        } else {
                            vec![*child]
                        }
                    })
                    .collect();
                match name {
                    "Annotated" => pending.extend(arguments.first().copied()),
                    "Optional" => pending.extend(arguments.first().copied()),
                    "Union" => pending.extend(arguments),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    found
}

/// Adds the definite facts of the declarations annotated with another project file's client
/// alias (an `AliasUse` against that file's `ClientAlias`), with ids no fact holds yet; such a
/// use settles its library in the file, so the file's probable fact for the same package (a bare
/// import) goes. TypeScript's client classes and their injections in other files
/// (`crate::lang::ecmascript::clients`) are joined the same way; only Python's are followed
/// through re-exports.
pub(crate) fn link_client_aliases<F>(facts: &mut Vec<F>, links: &BTreeMap<String, RouteLinks>)
where
    F: BorrowMut<Fact> + From<Fact>,
{
    // Most projects define no client alias: then there is nothing to join.
    if links.values().all(|links| links.client_aliases.is_empty()) {
        return;
    }
    let defined = |file: &str, name: &str| {
        links
            .get(file)
            .and_then(|links| links.client_aliases.iter().find(|alias| alias.name == name))
    };
    // A name used from a Python file that does not define it may be one the file re-exports:
    // its imports are read from its `import` facts, once, only then.
    let reexports = if links.values().any(|file_links| {
        file_links
            .alias_uses
            .iter()
            .any(|used| is_python(&used.file) && defined(&used.file, &used.name).is_none())
    }) {
        python_imports(facts)
    } else {
        BTreeMap::new()
    };
    let mut renamed: BTreeMap<(&str, &str), Vec<(&str, &str)>> = BTreeMap::new();
    for (file, file_links) in links {
        for import in &file_links.renamed_imports {
            renamed
                .entry((file.as_str(), import.local.as_str()))
                .or_default()
                .push((import.file.as_str(), import.name.as_str()));
        }
    }
    let mut found: Vec<(&str, &AliasUse, Fact)> = Vec::new();
    for (file, file_links) in links {
        for used in &file_links.alias_uses {
            let alias = defined(&used.file, &used.name)
                .or_else(|| reexported(&reexports, &renamed, &defined, &used.file, &used.name));
            if let Some(alias) = alias {
                for fact in &alias.facts {
                    found.push((file.as_str(), used, inherited_manager(fact, used, alias)));
                }
            }
        }
    }
    let mut taken: BTreeSet<String> = facts.iter().map(|fact| fact.borrow().id.clone()).collect();
    let mut settled: BTreeSet<(String, String)> = BTreeSet::new();
    for (file, used, mut fact) in found {
        let message = fact.evidence.message.clone();
        fact.evidence = used.fact.evidence.clone();
        fact.evidence.message = message;
        fact.id = if taken.contains(&used.fact.id) {
            free_id(&used.fact.id, &taken)
        } else {
            used.fact.id.clone()
        };
        taken.insert(fact.id.clone());
        if let Some(package) = fact.property_str("package") {
            settled.insert((file.to_owned(), package.to_owned()));
        }
        facts.push(F::from(fact));
    }
    if settled.is_empty() {
        return;
    }
    facts.retain(|fact| {
        let fact = fact.borrow();
        !(fact.kind == FactKind::AccessesTechnology
            && fact.confidence == Confidence::Probable
            && fact.property_str("package").is_some_and(|package| {
                settled.contains(&(fact.evidence.file.to_string(), package.to_owned()))
            }))
    });
}

/// The fact of a use of a Django model's manager that is its base model's (`Submission.objects`,
/// where `Submission` extends the abstract `PretalxModel`, which publishes the manager): the
/// base's fact, naming the model queried. Any other alias's fact as it is.
fn inherited_manager(fact: &Fact, used: &AliasUse, alias: &ClientAlias) -> Fact {
    let mut fact = fact.clone();
    let (Some(model), Some(base)) = (
        used.name.strip_suffix(".objects"),
        alias.name.strip_suffix(".objects"),
    ) else {
        return fact;
    };
    if model == base {
        return fact;
    }
    let (named, extended) = (format!("`{base}`"), format!("`{model}` (a `{base}`)"));
    fact.evidence.message = fact.evidence.message.replacen(&named, &extended, 1).into();
    crate::facts::set(
        &mut fact,
        "reason",
        format!("queries the Django model `{model}` through `{model}.objects`"),
    );
    fact
}

/// Whether a project file is Python source or a stub.
fn is_python(file: &str) -> bool {
    file.ends_with(".py") || file.ends_with(".pyi")
}

/// How many re-exports deep a client alias is followed.
const MAX_REEXPORTS: usize = 8;

/// The project imports of each Python file, from its `import` facts: (the file imported, the
/// names imported, `*` for a wildcard).
fn python_imports<F>(facts: &[F]) -> BTreeMap<&str, Vec<(&str, Vec<&str>)>>
where
    F: BorrowMut<Fact>,
{
    let mut imports: BTreeMap<&str, Vec<(&str, Vec<&str>)>> = BTreeMap::new();
    for fact in facts {
        let fact = fact.borrow();
        let file = &*fact.evidence.file;
        if fact.kind != FactKind::Import || !is_python(file) {
            continue;
        }
        let (Some(resolved), Some(policies::facts::PropertyValue::List(names))) =
            (fact.property_str("resolved"), fact.properties.get("names"))
        else {
            continue;
        };
        imports
            .entry(file)
            .or_default()
            .push((resolved, names.iter().map(|name| name.as_str()).collect()));
    }
    imports
}

/// The client alias `name` that `file` re-exports: one it imports by that name from another
/// project file (`from .db import SessionDep` in `deps/__init__.py`, or `from .db import *`), or
/// under that name (`from .db import SessionDep as Db`, `renamed`), which defines it or
/// re-exports it in turn, at most [`MAX_REEXPORTS`] files deep. The first import, in the file's
/// order, that leads to one wins. A dotted name (a model's manager, `Submission.objects`) is
/// followed through the imports of its first part (`from .submission import Submission` in
/// `models/__init__.py`), and `renamed` may also map the whole dotted name (a model whose
/// manager is its base's, `model_managers`).
fn reexported<'l>(
    imports: &BTreeMap<&str, Vec<(&str, Vec<&str>)>>,
    renamed: &BTreeMap<(&str, &str), Vec<(&'l str, &'l str)>>,
    defined: &dyn Fn(&str, &str) -> Option<&'l ClientAlias>,
    file: &'l str,
    name: &'l str,
) -> Option<&'l ClientAlias> {
    let mut visited: BTreeSet<(&str, String)> = BTreeSet::new();
    let mut current: Vec<(&str, String)> = vec![(file, name.to_owned())];
    for _ in 0..MAX_REEXPORTS {
        let mut next: Vec<(&str, String)> = Vec::new();
        for (file, name) in current {
            if !visited.insert((file, name.clone())) {
                continue;
            }
            let (head, rest) = match name.split_once('.') {
                Some((head, rest)) => (head, Some(rest)),
                None => (name.as_str(), None),
            };
            let targets: Vec<(&str, String)> = match renamed.get(&(file, name.as_str())) {
                Some(targets) => targets
                    .iter()
                    .map(|&(imported, original)| (imported, original.to_owned()))
                    .collect(),
                None => renamed
                    .get(&(file, head))
                    .into_iter()
                    .flatten()
                    .map(|&(imported, original)| {
                        let original = match rest {
                            Some(rest) => format!("{original}.{rest}"),
                            None => original.to_owned(),
                        };
                        (imported, original)
                    })
                    .collect(),
            };
            if !targets.is_empty() {
                for (imported, original) in targets {
                    if let Some(alias) = defined(imported, &original) {
                        return Some(alias);
                    }
                    next.push((imported, original));
                }
                continue;
            }
            for (imported, names) in imports.get(file).into_iter().flatten() {
                if !names
                    .iter()
                    .any(|imported| *imported == head || *imported == "*")
                {
                    continue;
                }
                if let Some(alias) = defined(imported, &name) {
                    return Some(alias);
                }
                next.push((imported, name.clone()));
            }
        }
        if next.is_empty() {
            return None;
        }
        current = next;
    }
    None
}

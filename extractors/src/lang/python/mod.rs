//! The Python extractor: imports resolved through the project's source roots
//! (`context::python`), and infrastructure clients.
//!
//! `import a.b` gives one fact per module; `from m import x, y` gives one fact per distinct file
//! the names lead to (a name may be a submodule: `from app import models` resolves to
//! `app/models.py` when it exists, else to `app/__init__.py`). Relative imports count their
//! dots from the importing file's folder. An import in the body of `if TYPE_CHECKING:` or in a
//! stub (`.pyi`) is `typeOnly`: type checkers see it, the interpreter does not run it. Bindings (`import a as
//! b`, `from a import c`) qualify the callees of client calls: `connect(…)` after `from psycopg2
//! import connect` is `psycopg2.connect`.

pub(crate) mod calls_and_assignments;
pub(crate) mod spec;
pub(crate) mod typed;
pub(crate) mod values;
pub(crate) mod walk;
pub(crate) mod web;

use std::collections::{BTreeMap, BTreeSet};

use policies::facts::{Fact, FactKind};
use tree_sitter::Node;

use crate::facts::clients::{ClientImport, ClientMatcher, ClientSite, ClientUse};
use crate::facts::imports::{self, ImportSite};
use crate::language::ExtractionInput;
use crate::query::Field;
use crate::resolve::context::Resolution;
use crate::source_scope;
use crate::syntax::ChildField;
use crate::syntax::{self, named_children};

/// Extracts the facts of one Python file (unsorted).
pub(crate) fn extract(input: &ExtractionInput<'_>) -> Vec<Fact> {
    let mut typed_declarations = Vec::new();
    let hits = input.query.walked(|| {
        let (hits, typed) = crate::lang::python::walk::hits_and_typed(
            input.tree,
            input.source,
            input.context.generic_facts(),
        );
        typed_declarations = typed;
        hits
    });
    let factory = input.fact_factory();
    let root = input.tree.root_node();
    let scope_of = |node: Node<'_>| source_scope::enclosing(node, root, input.source, scope_name);
    let mut bindings = BTreeMap::new();
    let mut project_names = BTreeMap::new();
    let mut client_imports = Vec::new();
    let mut values_only_imports = BTreeSet::new();
    let mut facts = Vec::new();
    for hit in hits.iter().filter(|hit| hit.kind == FactKind::Import) {
        let Some(statement) = hit.node(Field::Statement) else {
            continue;
        };
        for site in read_import(
            input,
            statement,
            (&mut bindings, &mut project_names),
            &mut client_imports,
            &mut values_only_imports,
        ) {
            if imports::kept(&factory, &site.resolution) {
                let mut fact = imports::fact(&factory, &site, scope_of(site.node));
                // The errors of a library alone bring no client of it, nor its values named
                // through a plain import: the engine makes no probable access of the import of
                // a bound library either.
                if fact.kind == FactKind::External
                    && (brings_only_errors(&site.specifier, &site.names)
                        || brings_no_probable_name(&site.specifier, &site.names)
                        || values_only_imports.contains(&(statement.id(), site.specifier.clone())))
                {
                    crate::facts::set(&mut fact, "noClient", true);
                }
                facts.push(fact);
            }
        }
    }
    let module_values = values::ModuleValues::of(root);
    // Only a library whose store a call's argument or options name reads them (`redis.from_url`,
    // `create_engine`, `Celery(broker=…)`): the rest of the calls through imported names (an
    // ORM's, the project's own) skip the file's module values.
    let deriving = deriving_tails();
    // The sites whose argument or option is an environment variable's default, and the variable.
    let mut environment_defaults: Vec<(Node<'_>, String)> = Vec::new();
    // The names and attributes assigned a library's session (`session = boto3.Session(…)`), by
    // their text, each with the session's qualified path; and the libraries whose sessions
    // the file makes.
    let (sessions, session_libraries) = sessions(&hits, input.source, &bindings);
    let mut sites: Vec<ClientSite<'_>> = hits
        .iter()
        .filter(|hit| hit.kind == FactKind::AccessesTechnology)
        .filter_map(|hit| {
            let call = hit.node(Field::Call)?;
            let function = hit.node(Field::Function)?;
            // Most callees are written without spaces: then the compacted text is the text.
            let written = syntax::text(function, input.source);
            let callee: std::borrow::Cow<'_, str> =
                if written.len() <= 200 && !written.contains(char::is_whitespace) {
                    std::borrow::Cow::Borrowed(written)
                } else {
                    std::borrow::Cow::Owned(syntax::compact_text(function, input.source, 200))
                };
            let (first, rest) = callee.split_once('.').unwrap_or((&callee, ""));
            let path = match bindings.get(first) {
                Some(qualified) if rest.is_empty() => qualified.clone(),
                Some(qualified) => format!("{qualified}.{rest}"),
                // A method of a session a name holds: the library's path through the session.
                None => sessions.iter().find_map(|holder| {
                    let method = callee
                        .strip_prefix(holder.text.as_str())?
                        .strip_prefix('.')?;
                    holder
                        .holds_at(call)
                        .then(|| format!("{}.{method}", holder.session))
                })?,
            };
            let reads_arguments = deriving.iter().any(|tail| ends_with_segments(&path, tail));
            let ((argument, argument_env), (options, option_env)) = if reads_arguments {
                (
                    first_string_argument(call, input.source, &module_values),
                    keyword_strings(call, input.source, &module_values),
                )
            } else {
                ((None, None), (Vec::new(), None))
            };
            if let Some(variable) = argument_env.or(option_env) {
                environment_defaults.push((call, variable));
            }
            Some(ClientSite {
                node: call,
                use_kind: ClientUse::Call,
                path,
                is_qualified: true,
                argument,
                options,
            })
        })
        .collect();
    sites.extend(base_class_sites(root, input.source, &bindings));
    let source = input.source;
    let aliases = typed::module_aliases(&typed_declarations, source, &bindings);
    // A name imported from the project may be another file's client alias.
    let mut pending = Vec::new();
    let mut unused_parameters = BTreeSet::new();
    if !typed_declarations.is_empty()
        && (!project_names.is_empty()
            || crate::facts::clients::imports_a_client_type("python", ".", bindings.values())
            || binds_a_spec_client(input, bindings.values()))
    {
        let typed = typed::typed_sites(
            &typed_declarations,
            source,
            &bindings,
            &aliases,
            &project_names,
        );
        sites.extend(typed.sites);
        pending = typed.pending;
        unused_parameters = typed.unused;
    }
    for (site, env) in setting_url_sites(root, input.source, &module_values) {
        if let Some(variable) = env {
            environment_defaults.push((site.node, variable));
        }
        sites.push(site);
    }
    if input.source.contains("BACKEND") {
        for (site, env) in setting_backend_sites(root, input.source, &module_values) {
            if let Some(variable) = env {
                environment_defaults.push((site.node, variable));
            }
            sites.push(site);
        }
    }
    let matcher = ClientMatcher {
        rules: crate::catalogue::catalogue().libraries("python"),
        separator: ".",
    };
    // A parameter its function never names holds the client only to fit a signature: no access,
    // though its import is no bare one either.
    let unused = |site: &ClientSite<'_>| {
        site.use_kind == ClientUse::Inject && unused_parameters.contains(&site.node.id())
    };
    let mut client_facts =
        matcher.facts_muting(&factory, &sites, &client_imports, &scope_of, &unused);
    // A session is a use of its library: the import is no bare one.
    client_facts.retain(|fact| {
        fact.confidence != policies::facts::Confidence::Probable
            || !fact
                .property_str("package")
                .is_some_and(|package| session_libraries.contains(package))
    });
    settle_project_categories(&mut client_facts, input);
    note_environment_defaults(&mut client_facts, &factory, &environment_defaults);
    sites.retain(|site| !unused(site));
    let mut bound_facts = matcher.bound_facts(&factory, &sites, &client_imports, &scope_of);
    note_environment_defaults(&mut bound_facts, &factory, &environment_defaults);
    client_facts.extend(bound_facts);
    drop_transports(&mut client_facts);
    facts.extend(client_facts);
    // An import of a bound library the catalogue knows, outside its clients' modules
    // (`django.shortcuts` of a bound `django`), brings no client: the engine makes no probable
    // access of it either.
    for fact in facts
        .iter_mut()
        .filter(|fact| fact.kind == FactKind::External && !fact.property_flag("typeOnly"))
    {
        if fact
            .property_str("specifier")
            .is_some_and(|specifier| matcher.brings_no_bound_client(&factory, specifier))
        {
            crate::facts::set(fact, "noClient", true);
        }
    }
    let file = crate::facts::calls_and_assignments::FileSyntax {
        source: input.source,
        root,
        scope_of: &scope_of,
    };
    if input.context.generic_facts() {
        facts.extend(crate::facts::calls_and_assignments::facts(
            &factory,
            &crate::lang::python::calls_and_assignments::Python,
            &hits,
            &file,
        ));
    }
    facts.extend(crate::lang::python::web::facts(
        input, &factory, &hits, &file,
    ));
    let mut client_aliases = alias_templates(input, &factory, &matcher, &aliases, &client_imports);
    client_aliases.extend(client_instances(root, input, &factory, &facts));
    let (managers, inherited) = model_managers(root, input, &factory, &facts, &project_names);
    // The file's own models, the ones it declares on `models.Model` and the ones on a class of
    // another file, whose queries in the file are uses too (`SubmissionFavourite.objects` in a
    // method of `Submission`).
    let own_models: BTreeSet<&str> = managers
        .iter()
        .map(|alias| alias.name.as_str())
        .chain(inherited.iter().map(|import| import.local.as_str()))
        .filter_map(|key| key.strip_suffix(".objects"))
        .collect();
    let mut instance_uses = instance_uses(&hits, input.source, &project_names);
    instance_uses.extend(manager_uses(
        &hits,
        input.source,
        &project_names,
        (input.path, &own_models),
    ));
    client_aliases.extend(managers);
    // A name imported under another name may re-export another file's client alias.
    let mut renamed: Vec<crate::resolve::links::RenamedImport> = project_names
        .iter()
        .filter_map(|(local, imported)| {
            let name = imported.name.as_ref().filter(|name| *name != local)?;
            Some(crate::resolve::links::RenamedImport {
                local: local.clone(),
                file: imported.file.clone(),
                name: name.clone(),
            })
        })
        .collect();
    renamed.extend(inherited);
    if !client_aliases.is_empty()
        || !pending.is_empty()
        || !renamed.is_empty()
        || !instance_uses.is_empty()
    {
        if let Ok(mut links) = input.links.try_borrow_mut() {
            links.client_aliases = client_aliases;
            links.renamed_imports = renamed;
            // The declarations of one function or class share their scope: it is worked out
            // once for each.
            let mut scopes: BTreeMap<usize, Option<String>> = BTreeMap::new();
            links.alias_uses = pending
                .into_iter()
                .map(
                    |(node, owner, file, name)| crate::resolve::links::AliasUse {
                        file,
                        name,
                        fact: factory.fact(
                            FactKind::AccessesTechnology,
                            node,
                            policies::facts::Confidence::Definite,
                            scopes
                                .entry(owner.id())
                                .or_insert_with(|| scope_of(node))
                                .clone(),
                            "injection of a client alias",
                        ),
                    },
                )
                .chain(instance_uses.into_iter().map(|(node, file, name)| {
                    crate::resolve::links::AliasUse {
                        file,
                        name,
                        fact: factory.fact(
                            FactKind::AccessesTechnology,
                            node,
                            policies::facts::Confidence::Definite,
                            scope_of(node),
                            "use of a client instance",
                        ),
                    }
                }))
                .collect();
        }
    }
    facts
}

/// Leaves out the HTTP clients built inside the arguments of another store's client (MinIO's
/// `Minio(…, http_client=PoolManager(…))` in healthchecks): such a pool is that client's
/// transport, not a call of an outside API.
fn drop_transports(facts: &mut Vec<Fact>) {
    let span = |fact: &Fact| {
        let evidence = &fact.evidence;
        (
            (evidence.line, evidence.column),
            (evidence.end_line, evidence.end_column),
        )
    };
    let stores: Vec<((u32, u32), (u32, u32))> = facts
        .iter()
        .filter(|fact| {
            fact.confidence == policies::facts::Confidence::Definite
                && fact.technology.as_deref() != Some("external_api")
        })
        .map(span)
        .collect();
    if stores.is_empty() {
        return;
    }
    facts.retain(|fact| {
        let (start, end) = span(fact);
        fact.technology.as_deref() != Some("external_api")
            || !stores
                .iter()
                .any(|(outer_start, outer_end)| *outer_start < start && end <= *outer_end)
    });
}

/// The file's module-level names assigned a client (`redis_connection =
/// redis.from_url(settings.REDIS_URL)`, `db = SQLAlchemy()`), each with the definite facts of
/// its construction, for the files that import the name and use it (`instance_uses`): a client
/// instance another module builds is the same store's client where it is used.
fn client_instances(
    root: Node<'_>,
    input: &ExtractionInput<'_>,
    factory: &crate::facts::FactFactory<'_>,
    facts: &[Fact],
) -> Vec<crate::resolve::links::ClientAlias> {
    let definite: Vec<&Fact> = facts
        .iter()
        .filter(|fact| {
            fact.kind == FactKind::AccessesTechnology
                && fact.confidence == policies::facts::Confidence::Definite
        })
        .collect();
    if definite.is_empty() {
        return Vec::new();
    }
    let mut instances = Vec::new();
    let mut cursor = root.walk();
    for statement in root.named_children(&mut cursor) {
        let Some(assignment) = statement.named_child(0).filter(|child| {
            statement.kind() == "expression_statement" && child.kind() == "assignment"
        }) else {
            continue;
        };
        let (Some(left), Some(right)) = (
            assignment.child_by_field_name("left"),
            assignment.child_by_field_name("right"),
        ) else {
            continue;
        };
        if left.kind() != "identifier" || right.kind() != "call" {
            continue;
        }
        let ((line, column), (end_line, end_column)) = factory.span(right);
        let name = syntax::text(left, input.source);
        let made: Vec<Fact> = definite
            .iter()
            .filter(|fact| {
                let evidence = &fact.evidence;
                (
                    evidence.line,
                    evidence.column,
                    evidence.end_line,
                    evidence.end_column,
                ) == (line, column, end_line, end_column)
            })
            .map(|fact| {
                let mut fact = (*fact).clone();
                fact.evidence.message = format!(
                    "use of `{name}`: {} at {}:{line}",
                    fact.evidence.message, input.path
                )
                .into();
                fact
            })
            .collect();
        if !made.is_empty() {
            instances.push(crate::resolve::links::ClientAlias {
                name: name.to_owned(),
                facts: made,
            });
        }
    }
    instances
}

/// The file's Django models, each published as `Model.objects` with the facts of its model base
/// (`class Entry(models.Model)`, or a class of the file that extends such a model, as khoj's
/// `class Entry(DbBaseModel)`), for the files that import the model and query it through its
/// manager (`manager_uses`): `Entry.objects.filter(…)` in a router is the database's use there,
/// not only in the models module (khoj's routers query `UserConversationConfig.objects`
/// beside its adapters). The key is not the model's own name, so a parameter annotated with a
/// model (`user: KhojUser`), an instance, is no use.
///
/// A class of a file that imports Django's ORM and extends a class it imports from another
/// project file (pretalx's `class Submission(GenerateCode, PretalxModel)`, with the abstract
/// `PretalxModel(models.Model)` in `common/models/mixins.py`) is returned as a renamed import of
/// that class's manager (`Submission.objects` stands for `PretalxModel.objects` there): it is a
/// model when the base is one, which is known only once every file is extracted
/// (`typed::link_client_aliases`); a base that is no model publishes no manager, and the
/// class's queries stay no use.
fn model_managers(
    root: Node<'_>,
    input: &ExtractionInput<'_>,
    factory: &crate::facts::FactFactory<'_>,
    facts: &[Fact],
    project_names: &BTreeMap<String, typed::ProjectName>,
) -> (
    Vec<crate::resolve::links::ClientAlias>,
    Vec<crate::resolve::links::RenamedImport>,
) {
    let django: Vec<&Fact> = facts
        .iter()
        .filter(|fact| {
            fact.kind == FactKind::AccessesTechnology
                && fact.property_str("package") == Some("django")
        })
        .collect();
    if django.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let extensions: Vec<&Fact> = django
        .into_iter()
        .filter(|fact| fact.confidence == policies::facts::Confidence::Definite)
        .collect();
    let mut models: BTreeMap<String, Vec<Fact>> = BTreeMap::new();
    // The classes of the file that extend a class of another project file, or such a class of
    // the file: the manager each stands for, (file, `Base.objects`).
    let mut inherited: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for class in top_level_classes(root) {
        let (Some(name), Some(bases)) =
            (class.child_field("name"), class.child_field("superclasses"))
        else {
            continue;
        };
        let name = syntax::text(name, input.source).to_owned();
        let mut made: Vec<Fact> = Vec::new();
        let mut forwards: Vec<(String, String)> = Vec::new();
        for base in named_children(bases) {
            let span = factory.span(base);
            made.extend(
                extensions
                    .iter()
                    .filter(|fact| {
                        let evidence = &fact.evidence;
                        (
                            (evidence.line, evidence.column),
                            (evidence.end_line, evidence.end_column),
                        ) == span
                    })
                    .map(|fact| (*fact).clone()),
            );
            let forward = match base.kind() {
                "identifier" => {
                    let base_name = syntax::text(base, input.source);
                    if let Some(parent) = models.get(base_name) {
                        made.extend(parent.iter().cloned());
                        None
                    } else if inherited.contains_key(base_name) {
                        Some((input.path.to_owned(), format!("{base_name}.objects")))
                    } else {
                        match project_names.get(base_name) {
                            Some(typed::ProjectName {
                                file,
                                name: Some(imported),
                            }) => Some((file.clone(), format!("{imported}.objects"))),
                            _ => None,
                        }
                    }
                }
                "attribute" => module_member(base, input.source, project_names)
                    .map(|(file, model)| (file, format!("{model}.objects"))),
                _ => None,
            };
            forwards.extend(forward);
        }
        // One fact for each library: a model that extends both `models.Model` and a model of
        // the file is one use.
        let mut packages = BTreeSet::new();
        made.retain(|fact| packages.insert(fact.property_str("package").map(str::to_owned)));
        if !made.is_empty() {
            models.insert(name, made);
        } else if !forwards.is_empty() {
            inherited.insert(name, forwards);
        }
    }
    let managers = models
        .into_iter()
        .map(|(name, made)| {
            let facts = made
                .into_iter()
                .map(|mut fact| {
                    fact.evidence.message = format!(
                        "query of the Django model `{name}` through its manager: {} at {}:{}",
                        fact.evidence.message, input.path, fact.evidence.line
                    )
                    .into();
                    crate::facts::set(
                        &mut fact,
                        "reason",
                        format!("queries the Django model `{name}` through `{name}.objects`"),
                    );
                    fact
                })
                .collect();
            crate::resolve::links::ClientAlias {
                name: format!("{name}.objects"),
                facts,
            }
        })
        .collect();
    let inherited = inherited
        .into_iter()
        .flat_map(|(name, forwards)| {
            forwards
                .into_iter()
                .map(move |(file, base)| crate::resolve::links::RenamedImport {
                    local: format!("{name}.objects"),
                    file,
                    name: base,
                })
        })
        .collect();
    (managers, inherited)
}

/// `module.Model` through a project module the file imports whole (`from khoj.database import
/// models`, then `models.Entry`): the module's file and the member's name.
fn module_member<'s>(
    node: Node<'_>,
    source: &'s str,
    project_names: &BTreeMap<String, typed::ProjectName>,
) -> Option<(String, &'s str)> {
    let imported = node
        .child_by_field_name("object")
        .filter(|module| module.kind() == "identifier")
        .and_then(|module| project_names.get(syntax::text(module, source)))
        .filter(|imported| imported.name.is_none())?;
    let member = node.child_by_field_name("attribute")?;
    Some((imported.file.clone(), syntax::text(member, source)))
}

/// The first query through each Django model manager the file reaches through an import from
/// another project file (`UserConversationConfig.objects.get_or_create(…)` after `from
/// khoj.database.models import UserConversationConfig`, or `models.Entry.objects.filter(…)`
/// after `from khoj.database import models`): a use of that file's `Model.objects`
/// (`model_managers`), joined once every file is extracted.
fn manager_uses<'tree>(
    hits: &[crate::query::QueryHit<'tree>],
    source: &str,
    project_names: &BTreeMap<String, typed::ProjectName>,
    (path, own_models): (&str, &BTreeSet<&str>),
) -> Vec<(Node<'tree>, String, String)> {
    let mut uses = Vec::new();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for (call, function) in client_calls(hits) {
        let Some(manager) = function
            .child_by_field_name("object")
            .filter(|object| object.kind() == "attribute")
            .filter(|object| {
                object
                    .child_by_field_name("attribute")
                    .is_some_and(|attribute| syntax::text(attribute, source) == "objects")
            })
        else {
            continue;
        };
        // An empty queryset (`queryset=Recipe.objects.none()`, a form field's placeholder)
        // never reaches the database.
        if function.kind() != "attribute"
            || function
                .child_by_field_name("attribute")
                .is_some_and(|method| syntax::text(method, source) == "none")
        {
            continue;
        }
        let Some(model) = manager.child_by_field_name("object") else {
            continue;
        };
        // `Model.objects`, or `module.Model.objects` through an imported project module.
        let found = match model.kind() {
            "identifier" => match project_names.get(syntax::text(model, source)) {
                Some(typed::ProjectName {
                    file,
                    name: Some(name),
                }) => Some((file.clone(), name.clone())),
                Some(_) => None,
                None => Some(syntax::text(model, source))
                    .filter(|name| own_models.contains(name))
                    .map(|name| (path.to_owned(), name.to_owned())),
            },
            "attribute" => module_member(model, source, project_names)
                .map(|(file, name)| (file, name.to_owned())),
            _ => None,
        };
        let Some((file, name)) = found else {
            continue;
        };
        let key = format!("{name}.objects");
        if seen.insert(format!("{file}\u{0}{key}")) {
            uses.push((call, file, key));
        }
    }
    uses
}

/// The call and callee of each client-call hit (`accesses_technology`) of the file's queries.
fn client_calls<'a, 'tree>(
    hits: &'a [crate::query::QueryHit<'tree>],
) -> impl Iterator<Item = (Node<'tree>, Node<'tree>)> + 'a {
    hits.iter()
        .filter(|hit| hit.kind == FactKind::AccessesTechnology)
        .filter_map(|hit| Some((hit.node(Field::Call)?, hit.node(Field::Function)?)))
}

/// The first call through each name the file imports from another project file (`from redash
/// import redis_connection`, then `redis_connection.hgetall(…)`): a use of the client instance
/// that file may assign the name (`client_instances`), joined once every file is extracted.
fn instance_uses<'tree>(
    hits: &[crate::query::QueryHit<'tree>],
    source: &str,
    project_names: &BTreeMap<String, typed::ProjectName>,
) -> Vec<(Node<'tree>, String, String)> {
    let mut uses = Vec::new();
    let mut seen: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    for (call, function) in client_calls(hits) {
        if function.kind() != "attribute" {
            continue;
        }
        let mut receiver = function;
        while let Some(object) = receiver.child_by_field_name("object") {
            receiver = object;
        }
        if receiver.kind() != "identifier" {
            continue;
        }
        let local = syntax::text(receiver, source);
        let Some((
            local,
            typed::ProjectName {
                file,
                name: Some(name),
            },
        )) = project_names.get_key_value(local)
        else {
            continue;
        };
        if seen.insert(local.as_str()) {
            uses.push((call, file.clone(), name.clone()));
        }
    }
    uses
}

/// Whether one of a file's qualified import paths lies in a library the spec binds with
/// `clients`: its types' parameters and attributes are uses of it too.
fn binds_a_spec_client<'a>(
    input: &ExtractionInput<'_>,
    mut qualified: impl Iterator<Item = &'a String>,
) -> bool {
    let generic = input.context.generic();
    generic.has_bound_clients() && qualified.any(|path| generic.bound_client(path).is_some())
}

/// The file's module-level aliases that name client types, each with the facts a declaration
/// annotated with it makes, one per client type (at the alias, for the files that import it:
/// `typed`).
fn alias_templates(
    input: &ExtractionInput<'_>,
    factory: &crate::facts::FactFactory<'_>,
    matcher: &ClientMatcher<'_>,
    aliases: &[typed::Alias<'_>],
    client_imports: &[ClientImport<'_>],
) -> Vec<crate::resolve::links::ClientAlias> {
    if aliases.is_empty() {
        return Vec::new();
    }
    // Only the project's own imports: a path through one is its own code, not a client.
    let project: Vec<ClientImport<'_>> = client_imports
        .iter()
        .filter(|import| import.is_project)
        .cloned()
        .collect();
    let no_scope = |_: Node<'_>| None;
    aliases
        .iter()
        .filter_map(|alias| {
            let sites: Vec<ClientSite<'_>> = alias
                .paths
                .iter()
                .map(|path| ClientSite {
                    node: alias.node,
                    use_kind: ClientUse::Inject,
                    path: path.clone(),
                    is_qualified: true,
                    argument: None,
                    options: Vec::new(),
                })
                .collect();
            let mut found = matcher.facts(factory, &sites, &project, &no_scope);
            settle_project_categories(&mut found, input);
            found.extend(matcher.bound_facts(factory, &sites, &project, &no_scope));
            (!found.is_empty()).then(|| crate::resolve::links::ClientAlias {
                name: alias.name.clone(),
                facts: found,
            })
        })
        .collect()
}

/// Reads one import statement: its import sites, the names it binds and its client imports.
fn read_import<'tree>(
    input: &ExtractionInput<'_>,
    statement: Node<'tree>,
    (bindings, project_names): (
        &mut BTreeMap<String, String>,
        &mut BTreeMap<String, typed::ProjectName>,
    ),
    client_imports: &mut Vec<ClientImport<'tree>>,
    values_only_imports: &mut BTreeSet<(usize, String)>,
) -> Vec<ImportSite<'tree>> {
    let source = input.source;
    let context = input.context;
    let mut sites = Vec::new();
    let names = imported_names(statement, source);
    // A stub (`.pyi`) is read by type checkers only.
    let type_only = input.path.ends_with(".pyi") || is_type_checking_only(statement, source);
    if statement.kind() == "import_statement" {
        for (module, alias) in names {
            let resolution = context.resolve_python(input.path, 0, &module, None);
            let local = alias
                .clone()
                .unwrap_or_else(|| module.split('.').next().unwrap_or_default().to_owned());
            let bound = alias
                .as_ref()
                .map_or_else(|| local.clone(), |_| module.clone());
            if let (Some(alias), Resolution::File(file)) = (&alias, &resolution) {
                project_names.insert(
                    alias.clone(),
                    typed::ProjectName {
                        file: file.clone(),
                        name: None,
                    },
                );
            }
            let is_project = !matches!(resolution, Resolution::External { .. });
            // A library whose file names only its values through the import brings no client.
            let values_only = !is_project
                && !type_only
                && names_only_values(input.tree.root_node(), &local, &bound, source);
            if values_only {
                values_only_imports.insert((statement.id(), module.clone()));
            }
            bindings.insert(local, bound);
            // A library imported for type checkers only is never loaded: no use of a client;
            // nor is one whose errors alone are imported.
            if is_project || !(type_only || values_only || brings_only_errors(&module, &[])) {
                client_imports.push(ClientImport {
                    node: statement,
                    path: module.clone(),
                    is_project,
                });
            }
            let mut site = ImportSite::new(statement, module, resolution, "import of");
            site.alias = alias;
            site.type_only = type_only;
            sites.push(site);
        }
        return sites;
    }
    let Some(module_node) = statement.child_field("module_name") else {
        return sites;
    };
    let (level, module) = relative_module(module_node, source);
    let specifier = syntax::text(module_node, source).to_owned();
    let is_wildcard = named_children(statement)
        .iter()
        .any(|child| child.kind() == "wildcard_import");
    let mut groups: Vec<(Resolution, Vec<String>)> = Vec::new();
    let entries: Vec<(String, Option<String>)> = if is_wildcard {
        vec![("*".to_owned(), None)]
    } else {
        names
    };
    for (name, alias) in entries {
        let resolution = context.resolve_python(input.path, level, &module, Some(&name));
        if name != "*" {
            let local = alias.unwrap_or_else(|| name.clone());
            if let Resolution::File(file) = &resolution {
                project_names.insert(
                    local.clone(),
                    typed::ProjectName {
                        file: file.clone(),
                        name: (!is_module_file(file, &name)).then(|| name.clone()),
                    },
                );
            }
            if level == 0 {
                bindings.insert(local, format!("{module}.{name}"));
            }
        }
        match groups.iter_mut().find(|(known, _)| *known == resolution) {
            Some((_, group)) => group.push(name),
            None => groups.push((resolution, vec![name])),
        }
    }
    let is_project = groups
        .iter()
        .any(|(resolution, _)| !matches!(resolution, Resolution::External { .. }));
    let names: Vec<String> = groups.iter().flat_map(|(_, group)| group.clone()).collect();
    if level == 0
        && (is_project
            || !(type_only
                || brings_only_errors(&module, &names)
                || brings_no_probable_name(&module, &names)))
    {
        client_imports.push(ClientImport {
            node: statement,
            path: module.clone(),
            is_project,
        });
    }
    for (resolution, group) in groups {
        let mut site = ImportSite::new(statement, specifier.clone(), resolution, "import from");
        site.names = group;
        site.type_only = type_only;
        sites.push(site);
    }
    sites
}

/// Whether an import of `module` (with `names`, for `from module import names`) brings only
/// a library's errors: its exceptions module (`sqlalchemy.exc`, `sqlalchemy.orm.exc`,
/// `redis.exceptions`, `psycopg2.errors`, `telegram.error`), or names that are all errors (`IntegrityError`,
/// `JobTimeoutException`). Catching what a store raises is no use of its client (redash's
/// handlers catch the models' `NoResultFound`).
fn brings_only_errors(module: &str, names: &[String]) -> bool {
    let last = module.rsplit('.').next().unwrap_or(module);
    crate::facts::clients::is_an_errors_module(last)
        || (!names.is_empty()
            && names
                .iter()
                .all(|name| crate::facts::clients::names_an_error_type(name)))
}

/// Whether `from module import names` names none of the `probable_names` of the catalogue
/// entry whose import prefixes hold `module`, when it lists them: aiohttp is also a server, and
/// hatchet's worker imports its `web` module and `web_request.Request` for a health endpoint,
/// which reach no outside API, while its `ClientSession` would. A wildcard may bring anything.
fn brings_no_probable_name(module: &str, names: &[String]) -> bool {
    if names.is_empty() || names.iter().any(|name| name == "*") {
        return false;
    }
    let inside = |prefix: &str| {
        module
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
    };
    crate::catalogue::catalogue()
        .libraries("python")
        .iter()
        .find(|library| library.imports.iter().any(|prefix| inside(prefix)))
        .is_some_and(|library| {
            !library.probable_names.is_empty()
                && !names
                    .iter()
                    .any(|name| library.probable_names.contains(&name.as_str()))
        })
}

/// Whether the file names, through the name `local` that `import module` (or `import module as
/// local`) binds to the path `bound`, only values of a catalogue library, never its client: each
/// use is an attribute path (`local.a.b`) that runs through the library's errors module or names
/// one of its errors (`requests.exceptions.HTTPError`, `httpx.TimeoutException`), or, for an entry
/// that lists `probable_names`, starts at none of them (`httpx.Timeout(30)`,
/// `urllib3.util.parse_url(…)`). khoj's search module imports `requests` only to catch its
/// `HTTPError`, and its chat helpers `httpx` for timeouts and errors. A file that uses the name
/// otherwise (hands the module on, or rebinds the name), or never, may reach the client.
fn names_only_values(root: Node<'_>, local: &str, bound: &str, source: &str) -> bool {
    let Some(library) = catalogue_library(bound) else {
        return false;
    };
    let mut uses = 0usize;
    // The name's occurrences in the text, each the identifier there (a comment's or a string's
    // text is no use), rather than a walk of the whole tree for each such import.
    let is_name = |character: char| character.is_alphanumeric() || character == '_';
    let occurrences = source.match_indices(local).filter(|(at, _)| {
        let before = source.get(..*at).and_then(|text| text.chars().next_back());
        let after = source
            .get(at + local.len()..)
            .and_then(|text| text.chars().next());
        !before.is_some_and(is_name) && !after.is_some_and(is_name)
    });
    for (at, _) in occurrences {
        let Some(node) = root.descendant_for_byte_range(at, at + local.len()) else {
            continue;
        };
        if node.kind() != "identifier" || syntax::text(node, source) != local {
            continue;
        }
        let Some(parent) = node.parent() else {
            continue;
        };
        if matches!(
            parent.kind(),
            "dotted_name" | "aliased_import" | "import_statement" | "import_from_statement"
        ) {
            continue;
        }
        // The attribute of another value (`self.requests`), or a keyword argument's name.
        if (parent.kind() == "attribute" && parent.child_field("attribute") == Some(node))
            || (parent.kind() == "keyword_argument" && parent.child_field("name") == Some(node))
        {
            continue;
        }
        if parent.kind() != "attribute" || parent.child_field("object") != Some(node) {
            return false;
        }
        let mut path = vec![bound.to_owned()];
        let mut current = node;
        while let Some(attribute) = current
            .parent()
            .filter(|up| up.kind() == "attribute" && up.child_field("object") == Some(current))
        {
            let Some(name) = attribute.child_field("attribute") else {
                break;
            };
            path.push(syntax::text(name, source).to_owned());
            current = attribute;
        }
        let path = path.join(".");
        let Some(inside) = library
            .imports
            .iter()
            .find_map(|prefix| path.strip_prefix(prefix)?.strip_prefix('.'))
        else {
            return false;
        };
        let first = inside.split('.').next().unwrap_or(inside);
        let value = crate::facts::clients::names_a_library_error(&path)
            || (!library.probable_names.is_empty() && !library.probable_names.contains(&first));
        if !value {
            return false;
        }
        uses += 1;
    }
    uses > 0
}

/// The Python catalogue entry whose import prefixes hold `module`, or lie inside it.
fn catalogue_library(module: &str) -> Option<&'static crate::catalogue::Library> {
    crate::catalogue::catalogue()
        .libraries("python")
        .iter()
        .find(|library| {
            library.imports.iter().any(|prefix| {
                module
                    .strip_prefix(prefix)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
                    || prefix
                        .strip_prefix(module)
                        .is_some_and(|rest| rest.starts_with('.'))
            })
        })
}

/// Whether `file` is the module `name` itself (`from app.api import deps` resolves to
/// `app/api/deps.py`), not a file that defines `name`.
fn is_module_file(file: &str, name: &str) -> bool {
    let stem = file
        .strip_suffix("/__init__.py")
        .or_else(|| file.strip_suffix(".py"))
        .or_else(|| file.strip_suffix(".pyi"))
        .unwrap_or(file);
    stem.rsplit('/').next() == Some(name)
}

/// Whether `statement` lies in the body of an `if TYPE_CHECKING:` (or `if typing.TYPE_CHECKING:`,
/// or such an `elif`): type checkers see it, the interpreter never runs it. An `else` branch runs.
fn is_type_checking_only(statement: Node<'_>, source: &str) -> bool {
    let mut node = statement;
    while let Some(parent) = node.parent() {
        if matches!(parent.kind(), "if_statement" | "elif_clause")
            && parent.child_field("consequence") == Some(node)
            && parent
                .child_field("condition")
                .is_some_and(|condition| names_type_checking(condition, source))
        {
            return true;
        }
        // The `elif`/`else` of `if not TYPE_CHECKING:` runs only where TYPE_CHECKING is true.
        if matches!(parent.kind(), "elif_clause" | "else_clause")
            && parent
                .parent()
                .filter(|statement| statement.kind() == "if_statement")
                .and_then(|statement| statement.child_field("condition"))
                .is_some_and(|condition| negates_type_checking(condition, source))
        {
            return true;
        }
        node = parent;
    }
    false
}

/// `not TYPE_CHECKING` (or `not <anything>.TYPE_CHECKING`).
fn negates_type_checking(condition: Node<'_>, source: &str) -> bool {
    condition.kind() == "not_operator"
        && condition
            .child_field("argument")
            .is_some_and(|argument| names_type_checking(argument, source))
}

/// `TYPE_CHECKING` or `<anything>.TYPE_CHECKING`.
fn names_type_checking(condition: Node<'_>, source: &str) -> bool {
    let name = match condition.kind() {
        "identifier" => condition,
        "attribute" => match condition.child_field("attribute") {
            Some(attribute) => attribute,
            None => return false,
        },
        "parenthesized_expression" => {
            return named_children(condition)
                .first()
                .is_some_and(|inner| names_type_checking(*inner, source));
        }
        _ => return false,
    };
    syntax::text(name, source) == "TYPE_CHECKING"
}

/// The `(name, alias)` pairs a statement imports (`a.b as c` → `("a.b", Some("c"))`).
pub(crate) fn imported_names(statement: Node<'_>, source: &str) -> Vec<(String, Option<String>)> {
    let mut cursor = statement.walk();
    let names: Vec<Node<'_>> = statement
        .children_by_field_name("name", &mut cursor)
        .collect();
    names
        .into_iter()
        .filter_map(|name| match name.kind() {
            "aliased_import" => {
                let module = name.child_field("name")?;
                let alias = name.child_field("alias")?;
                Some((
                    dotted(module, source),
                    Some(syntax::text(alias, source).to_owned()),
                ))
            }
            "dotted_name" => Some((dotted(name, source), None)),
            _ => None,
        })
        .collect()
}

/// The dots and module of `from <module_name> import …` (`..x.y` → `(2, "x.y")`).
pub(crate) fn relative_module(module_name: Node<'_>, source: &str) -> (usize, String) {
    if module_name.kind() != "relative_import" {
        return (0, dotted(module_name, source));
    }
    let mut level = 0;
    let mut module = String::new();
    for child in named_children(module_name) {
        match child.kind() {
            "import_prefix" => level = syntax::text(child, source).matches('.').count(),
            "dotted_name" => module = dotted(child, source),
            _ => {}
        }
    }
    (level, module)
}

/// A dotted name without whitespace or comments.
fn dotted(node: Node<'_>, source: &str) -> String {
    named_children(node)
        .into_iter()
        .filter(|child| child.kind() == "identifier")
        .map(|child| syntax::text(child, source))
        .collect::<Vec<_>>()
        .join(".")
}

/// A name or attribute assigned a library's session, in the function (a name) or class (an
/// attribute) that assigns it, or the module's.
struct SessionHolder {
    /// The name or attribute as written (`session`, `self.session`).
    text: String,
    /// The session's qualified path (`boto3.Session`).
    session: String,
    /// The function or class whose code sees it (node id), none at the module's level.
    scope: Option<usize>,
}

impl SessionHolder {
    /// Whether the holder is the one a call at `node` reads: same function or class, or the
    /// module's.
    fn holds_at(&self, node: Node<'_>) -> bool {
        self.scope.is_none() || self.scope == holder_scope(node, self.text.contains('.'))
    }
}

/// The function (a name's) or class (an attribute's) enclosing `node`, by node id.
fn holder_scope(node: Node<'_>, is_attribute: bool) -> Option<usize> {
    let kind = if is_attribute {
        "class_definition"
    } else {
        "function_definition"
    };
    let mut up = node.parent();
    while let Some(ancestor) = up {
        if ancestor.kind() == kind {
            return Some(ancestor.id());
        }
        up = ancestor.parent();
    }
    None
}

/// The sessions of the file's libraries (`factories`: boto3's `Session`): each name or
/// attribute assigned one (`session = boto3.Session(…)`, `self.session = …`, by its text) with
/// the session's qualified path, longest first so `self.session` is tried before `self`; and
/// the libraries whose sessions the file makes, chained or not.
fn sessions(
    hits: &[crate::query::QueryHit<'_>],
    source: &str,
    bindings: &BTreeMap<String, String>,
) -> (Vec<SessionHolder>, BTreeSet<&'static str>) {
    let mut holders = Vec::new();
    let mut libraries = BTreeSet::new();
    let rules = crate::catalogue::catalogue().libraries("python");
    if !rules.iter().any(|rule| !rule.factories.is_empty()) {
        return (holders, libraries);
    }
    for (call, function) in client_calls(hits) {
        let callee = syntax::text(function, source);
        let (first, rest) = callee.split_once('.').unwrap_or((callee, ""));
        let Some(qualified) = bindings.get(first) else {
            continue;
        };
        let path = if rest.is_empty() {
            qualified.clone()
        } else {
            format!("{qualified}.{rest}")
        };
        let Some(rule) = rules.iter().find(|rule| {
            rule.imports.iter().any(|prefix| {
                path.strip_prefix(*prefix)
                    .is_some_and(|tail| tail.starts_with('.'))
            }) && rule
                .factories
                .iter()
                .any(|tail| ends_with_segments(&path, tail))
        }) else {
            continue;
        };
        libraries.insert(rule.name);
        let holder = call
            .parent()
            .filter(|parent| {
                parent.kind() == "assignment" && parent.child_by_field_name("right") == Some(call)
            })
            .and_then(|assignment| assignment.child_by_field_name("left"))
            .filter(|left| matches!(left.kind(), "identifier" | "attribute"));
        if let Some(holder) = holder {
            holders.push(SessionHolder {
                text: syntax::text(holder, source).to_owned(),
                session: path,
                scope: holder_scope(holder, holder.kind() == "attribute"),
            });
        }
    }
    // Longest first; in one scope, one session (the first path).
    holders.sort_by(|a, b| {
        (b.text.len(), &a.text, a.scope, &a.session).cmp(&(
            a.text.len(),
            &b.text,
            b.scope,
            &b.session,
        ))
    });
    holders.dedup_by(|a, b| a.text == b.text && a.scope == b.scope);
    (holders, libraries)
}

/// The call and construct tails of the Python libraries whose category a call's first argument
/// or options derive (`derive = "connection"`, `"argument"` or `"options"`).
fn deriving_tails() -> &'static [&'static str] {
    static TAILS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
        crate::catalogue::catalogue()
            .libraries("python")
            .iter()
            .filter(|library| {
                matches!(
                    library.derive,
                    crate::catalogue::Derive::Connection
                        | crate::catalogue::Derive::Argument
                        | crate::catalogue::Derive::Options
                )
            })
            .flat_map(|library| library.calls.iter().chain(library.constructs))
            .copied()
            .collect()
    });
    &TAILS
}

/// Whether `path` ends with the dotted segments of `tail` (`redis.Redis.from_url` ends with
/// `from_url` and with `Redis.from_url`, not with `url`).
fn ends_with_segments(path: &str, tail: &str) -> bool {
    path == tail
        || path
            .strip_suffix(tail)
            .is_some_and(|head| head.ends_with('.'))
}

/// The content of a call's first argument when it is a string literal (an f-string's literal
/// parts) or stands for one through the file's module values, with the environment variable
/// whose default it is. A value that may be several strings is none.
fn first_string_argument<'tree>(
    call: Node<'tree>,
    source: &str,
    values: &values::ModuleValues<'tree>,
) -> (Option<String>, Option<String>) {
    let Some(first) = call
        .child_field("arguments")
        .and_then(|arguments| named_children(arguments).into_iter().next())
    else {
        return (None, None);
    };
    let first = if first.kind() == "keyword_argument" {
        match first.child_field("value") {
            Some(value) => value,
            None => return (None, None),
        }
    } else {
        first
    };
    match values.values(first, source).as_slice() {
        [value] => (Some(value.text.clone()), value.env.clone()),
        _ => (None, None),
    }
}

/// The base classes of the module's classes (top level, decorated or not) that its imports
/// qualify: `class Order(models.Model)` after `from django.db import models` extends
/// `django.db.models.Model`.
fn base_class_sites<'tree>(
    root: Node<'tree>,
    source: &str,
    bindings: &BTreeMap<String, String>,
) -> Vec<ClientSite<'tree>> {
    let mut sites = Vec::new();
    for class in top_level_classes(root) {
        let Some(bases) = class.child_field("superclasses") else {
            continue;
        };
        for base in named_children(bases) {
            if !matches!(base.kind(), "identifier" | "attribute") {
                continue;
            }
            let written = syntax::text(base, source);
            let (first, rest) = written.split_once('.').unwrap_or((written, ""));
            let Some(qualified) = bindings.get(first) else {
                continue;
            };
            sites.push(ClientSite {
                node: base,
                use_kind: ClientUse::Extend,
                path: if rest.is_empty() {
                    qualified.clone()
                } else {
                    format!("{qualified}.{rest}")
                },
                is_qualified: true,
                argument: None,
                options: Vec::new(),
            });
        }
    }
    sites
}

/// The Django settings whose entries each name a backend class under `BACKEND`, which Django
/// constructs: the cache, the Channels layer, the file storages.
const BACKEND_SETTINGS: [&str; 3] = ["CACHES", "CHANNEL_LAYERS", "STORAGES"];

/// The backend classes a Django settings module names as data: in a module-level
/// `CACHES = {'default': {'BACKEND': 'django_redis.cache.RedisCache', …}}` (or `CHANNEL_LAYERS`,
/// `STORAGES`, or one entry set alone: `STORAGES["default"] = {"BACKEND": …}`), each `BACKEND`
/// that is a literal, or stands for one through the file's module values
/// ([`values::ModuleValues`]: a constant, an environment read's default), is a site that
/// configures that class, qualified as written. The dictionary may be what a module-level
/// function of the file returns (`CACHES = _parse_caches()`). Assignments inside `if`, `try`
/// and `with` blocks count; those in functions and classes do not, and nothing is run. Each
/// site read from an environment default comes with its variable.
fn setting_backend_sites<'tree>(
    root: Node<'tree>,
    source: &str,
    values: &values::ModuleValues<'tree>,
) -> Vec<(ClientSite<'tree>, Option<String>)> {
    let mut sites = Vec::new();
    for (left, right) in values::module_assignments(root) {
        let right = if right.kind() == "call" {
            values.returned_dictionary(right, source).unwrap_or(right)
        } else {
            right
        };
        // `CACHES = {alias: {…}}`, or one entry: `STORAGES["default"] = {…}`.
        let (setting, entries) = match left.kind() {
            "identifier" => (left, named_children(right)),
            "subscript" => match left.child_field("value") {
                Some(value) => (value, vec![right]),
                None => continue,
            },
            _ => continue,
        };
        if setting.kind() != "identifier"
            || !BACKEND_SETTINGS.contains(&syntax::text(setting, source))
            || right.kind() != "dictionary"
        {
            continue;
        }
        for entry in entries {
            let options = if entry.kind() == "dictionary" {
                Some(entry)
            } else {
                entry.child_field("value")
            };
            let Some(options) = options.filter(|value| value.kind() == "dictionary") else {
                continue;
            };
            for option in named_children(options) {
                let key = option
                    .child_field("key")
                    .and_then(|key| string_value(key, source));
                let (Some("BACKEND"), Some(value)) = (key.as_deref(), option.child_field("value"))
                else {
                    continue;
                };
                for backend in values.values(value, source) {
                    if backend.interpolated {
                        continue;
                    }
                    sites.push((
                        ClientSite {
                            node: value,
                            use_kind: ClientUse::Configure,
                            path: backend.text,
                            is_qualified: true,
                            argument: None,
                            options: Vec::new(),
                        },
                        backend.env,
                    ));
                }
            }
        }
    }
    sites.sort_by_key(|(site, _)| site.node.start_byte());
    sites
}

/// The connection URLs a settings module gives a library through a module-level setting the
/// catalogue names (`settings`: Celery's `CELERY_BROKER_URL = "redis://…"`, also through the
/// file's module values, [`values::ModuleValues`]): each is a site that configures the
/// library's first `calls` entry, the URL its argument. Assignments inside `if`, `try` and
/// `with` blocks count, each with its own value; those in functions and classes do not.
fn setting_url_sites<'tree>(
    root: Node<'tree>,
    source: &str,
    values: &values::ModuleValues<'tree>,
) -> Vec<(ClientSite<'tree>, Option<String>)> {
    let libraries = crate::catalogue::catalogue().libraries("python");
    // Most files name no setting: the call path is made only for those that do.
    let settings: Vec<(&str, String)> = libraries
        .iter()
        .flat_map(|library| {
            library
                .settings
                .iter()
                .filter(|setting| source.contains(**setting))
                .filter_map(move |setting| {
                    let (module, call) = library.imports.first().zip(library.calls.first())?;
                    Some((*setting, format!("{module}.{call}")))
                })
        })
        .collect();
    if settings.is_empty() {
        return Vec::new();
    }
    let mut sites = Vec::new();
    for (left, right) in values::module_assignments(root) {
        // A module-level name, or a Celery app's configuration attribute
        // (`app.conf.broker_url = …`).
        let name = match left.kind() {
            "identifier" => syntax::text(left, source),
            "attribute"
                if left.child_field("object").is_some_and(|object| {
                    syntax::text(object, source).rsplit('.').next() == Some("conf")
                }) =>
            {
                match left.child_field("attribute") {
                    Some(attribute) => syntax::text(attribute, source),
                    None => continue,
                }
            }
            _ => continue,
        };
        let Some((_, path)) = settings.iter().find(|(setting, _)| *setting == name) else {
            continue;
        };
        for url in values.values(right, source) {
            sites.push((
                ClientSite {
                    node: right,
                    use_kind: ClientUse::Configure,
                    path: path.clone(),
                    is_qualified: true,
                    argument: Some(url.text),
                    options: Vec::new(),
                },
                url.env,
            ));
        }
    }
    sites.sort_by_key(|(site, _)| site.node.start_byte());
    sites
}

/// The content of a plain string literal (no interpolation).
fn string_value(node: Node<'_>, source: &str) -> Option<String> {
    if node.kind() != "string" {
        return None;
    }
    let mut text = String::new();
    for part in named_children(node) {
        match part.kind() {
            "string_start" | "string_end" => {}
            "string_content" => text.push_str(syntax::text(part, source)),
            _ => return None,
        }
    }
    Some(text)
}

/// Client facts whose library reads its store from the project take the category the
/// project's settings give: `derive = "django-settings"` when they give one; `django-caches`
/// (Django's cache API) the store of the settings' `CACHES`, with its library as the fact's
/// `driver` (which a node's `clients` binds), and no fact when the settings name no store.
fn settle_project_categories(facts: &mut Vec<policies::facts::Fact>, input: &ExtractionInput<'_>) {
    let libraries = crate::catalogue::catalogue().libraries("python");
    facts.retain_mut(|fact| {
        let Some(library) = fact
            .properties
            .get("package")
            .and_then(|value| value.as_str())
            .and_then(|package| libraries.iter().find(|library| library.name == package))
        else {
            return true;
        };
        if library.derive != crate::catalogue::Derive::DjangoCaches {
            return true;
        }
        let Some((category, driver)) = input.context.django_cache(input.path) else {
            return false;
        };
        fact.technology = Some(category.into());
        if let Some(driver) = driver {
            crate::facts::set(fact, "driver", driver);
        }
        true
    });
    for fact in facts.iter_mut() {
        let Some(package) = fact
            .properties
            .get("package")
            .and_then(|value| value.as_str())
        else {
            continue;
        };
        let Some(library) = libraries.iter().find(|library| library.name == package) else {
            continue;
        };
        if library.derive != crate::catalogue::Derive::DjangoSettings
            || fact.technology.as_deref() != Some(library.category)
        {
            continue;
        }
        if let Some(category) = input.context.django_category(input.path) {
            fact.technology = Some(category.into());
        }
    }
}

/// The keyword arguments of a call whose value is a string (`broker='redis://…'`, an f-string's
/// literal parts), or stands for one through the file's module values
/// (`broker=os.getenv("BROKER_URL", "redis://…")`), with the environment variable of the first
/// such default. A value that may be several strings is left out.
fn keyword_strings<'tree>(
    call: Node<'tree>,
    source: &str,
    values: &values::ModuleValues<'tree>,
) -> (Vec<(String, String)>, Option<String>) {
    let Some(arguments) = call.child_field("arguments") else {
        return (Vec::new(), None);
    };
    let mut environment = None;
    let options = named_children(arguments)
        .into_iter()
        .filter(|argument| argument.kind() == "keyword_argument")
        .filter_map(|argument| {
            let name = argument.child_field("name")?;
            let value = argument.child_field("value")?;
            let [value] = values.values(value, source).try_into().ok()?;
            let value: values::Value = value;
            if environment.is_none() {
                environment.clone_from(&value.env);
            }
            Some((syntax::text(name, source).to_owned(), value.text))
        })
        .collect();
    (options, environment)
}

/// The reason of each client fact at a site whose store was read from an environment
/// variable's default says so.
fn note_environment_defaults(
    facts: &mut [Fact],
    factory: &crate::facts::FactFactory<'_>,
    defaults: &[(Node<'_>, String)],
) {
    if defaults.is_empty() {
        return;
    }
    let spans: Vec<_> = defaults
        .iter()
        .map(|(node, variable)| (factory.span(*node), variable.as_str()))
        .collect();
    for fact in facts {
        let evidence = &fact.evidence;
        let at = (
            (evidence.line, evidence.column),
            (evidence.end_line, evidence.end_column),
        );
        let Some((_, variable)) = spans.iter().find(|(span, _)| *span == at) else {
            continue;
        };
        let Some(reason) = fact
            .properties
            .get("reason")
            .and_then(|value| value.as_str())
        else {
            continue;
        };
        let reason = format!("{reason}, as the default of the environment variable `{variable}`");
        crate::facts::set(fact, "reason", reason);
    }
}

/// Functions and classes name scopes.
fn scope_name(node: Node<'_>, source: &str) -> Option<String> {
    match node.kind() {
        "function_definition" | "class_definition" => {
            source_scope::field_text(node, "name", source)
        }
        _ => None,
    }
}

/// The text tree-sitter parses for a Python file: the file itself, except that a comment line
/// starting at column 0 between an indented decorator and what it decorates is blanked (its
/// bytes, newline aside, become spaces). CPython ignores such a line, but the grammar's scanner
/// reads it as a dedent and gives the decorated definition up as a syntax error (an editor's
/// "comment line" command writes `#` at column 0). Byte offsets, lines and columns are those of
/// the file, and no extractor reads comments.
pub(crate) fn parse_text(source: &str) -> std::borrow::Cow<'_, str> {
    let mut blank: Vec<std::ops::Range<usize>> = Vec::new();
    // After an indented decorator line, and how deep its brackets are still open.
    let (mut after_decorator, mut depth) = (false, 0_i64);
    let mut start = 0;
    for line in source.split_inclusive('\n') {
        let range = start..start + line.trim_end_matches(['\n', '\r']).len();
        start += line.len();
        let trimmed = line.trim_start();
        if trimmed.trim_end().is_empty() {
            continue;
        }
        if after_decorator && depth > 0 {
            depth += bracket_balance(line);
            continue;
        }
        if line.starts_with('#') {
            if after_decorator {
                blank.push(range);
            }
            continue;
        }
        if trimmed.starts_with('#') {
            continue;
        }
        after_decorator = trimmed.starts_with('@') && trimmed.len() < line.len();
        depth = if after_decorator {
            bracket_balance(line)
        } else {
            0
        };
    }
    if blank.is_empty() {
        return std::borrow::Cow::Borrowed(source);
    }
    let mut text = source.as_bytes().to_vec();
    for range in blank {
        if let Some(bytes) = text.get_mut(range) {
            bytes.fill(b' ');
        }
    }
    // Whole lines of a valid string were replaced by ASCII spaces: still valid UTF-8.
    String::from_utf8(text).map_or(std::borrow::Cow::Borrowed(source), std::borrow::Cow::Owned)
}

/// How many more brackets `line` opens than it closes (strings and comments not told apart: a
/// decorator's arguments seldom hold brackets in strings).
fn bracket_balance(line: &str) -> i64 {
    line.bytes().fold(0, |balance, byte| match byte {
        b'(' | b'[' | b'{' => balance + 1,
        b')' | b']' | b'}' => balance - 1,
        _ => balance,
    })
}

/// The classes a module defines at its top level, decorated or not.
fn top_level_classes(root: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    named_children(root)
        .into_iter()
        .filter_map(|statement| match statement.kind() {
            "class_definition" => Some(statement),
            "decorated_definition" => statement
                .child_field("definition")
                .filter(|definition| definition.kind() == "class_definition"),
            _ => None,
        })
}

#[cfg(test)]
mod tests {
    use super::parse_text;

    #[test]
    fn only_column_0_comments_after_an_indented_decorator_are_blanked() {
        let source = "class A:\n    @route(\n        \"/x\",\n    )\n# a\n#b\r\n    def f(self):\n# c\n        pass\n@top\n# d\ndef g():\n    pass\n";
        let parsed = parse_text(source);
        assert_eq!(parsed.len(), source.len());
        assert_eq!(
            parsed,
            "class A:\n    @route(\n        \"/x\",\n    )\n   \n  \r\n    def f(self):\n# c\n        pass\n@top\n# d\ndef g():\n    pass\n"
        );
        // A `#` inside the decorator's open brackets (a string's line) is left alone.
        let open = "class A:\n    @doc(\"\"\"\n# text\n\"\"\")\n    def f(self): pass\n";
        assert_eq!(parse_text(open), open);
        let plain = "x = 1\n# c\n";
        assert!(matches!(parse_text(plain), std::borrow::Cow::Borrowed(_)));
    }
}

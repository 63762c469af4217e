//! One `TreeCursor` walk that finds the matches of the Java query files (`queries/java/*.scm`)
//! without running the query.
//!
//! As for Python (`crate::lang::python::walk`): the query cursor costs several times a plain cursor
//! walk (on Apache Kafka the Java query took an eighth of the run). This walk recognises the
//! patterns by hand and returns the same [`QueryHit`]s in the same order: a match is reported
//! when the walk enters the last node of its pattern, and matches that end on the same node keep
//! their pattern order. The query files stay the reference: a test runs both on every Java
//! fixture and compares the hits, kind by kind and across kinds.
//!
//! The patterns, by the node that ends them:
//! - an `import_declaration` → `import`;
//! - the `type` of an `object_creation_expression`, `formal_parameter`, `field_declaration` or
//!   `local_variable_declaration`,
//!   the `name` of a `method_invocation` whose `object` is an identifier, a child of a
//!   `superclass` or of the `type_list` of `extends_interfaces`/`super_interfaces` →
//!   `accesses_technology`;
//! - the `arguments` of a `method_invocation`: (generic) a `call`, then `RestTemplate`-style and
//!   `WebClient` `.get().uri(…)` HTTP calls;
//! - the `right` of a `=` `assignment_expression` whose `left` is a `field_access` →
//!   `assignment` (generic);
//! - the `name` of an `annotation`/`marker_annotation` (`@GetMapping`…, Retrofit's marker
//!   `@GET`…) and the `arguments` of an `annotation` (`@PreAuthorize(…)`, Retrofit's `@GET(…)`)
//!   → `route`, `checks_role`, `http_call`.

use std::sync::OnceLock;

use policies::facts::FactKind;
use tree_sitter::Node;
#[cfg(test)]
use tree_sitter::Tree;

use crate::query::{Field, QueryHit};
use crate::syntax;
use crate::walk::{kind_in, kind_table, wild, Ancestor, ParentFields};

/// The node kinds the walk tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Other,
    Import,
    ObjectCreation,
    MethodInvocation,
    Identifier,
    FormalParameter,
    FieldDeclaration,
    LocalVariableDeclaration,
    Superclass,
    ExtendsInterfaces,
    SuperInterfaces,
    TypeList,
    ArgumentList,
    Assignment,
    FieldAccess,
    Annotation,
    MarkerAnnotation,
    AnnotationArguments,
}

/// Java node kind ids → [`Kind`], by name (one name may have several ids).
fn kinds() -> &'static [Kind] {
    static KINDS: OnceLock<Vec<Kind>> = OnceLock::new();
    KINDS.get_or_init(|| {
        kind_table(
            &tree_sitter_java::LANGUAGE.into(),
            Kind::Other,
            |name| match name {
                "import_declaration" => Kind::Import,
                "object_creation_expression" => Kind::ObjectCreation,
                "method_invocation" => Kind::MethodInvocation,
                "identifier" => Kind::Identifier,
                "formal_parameter" => Kind::FormalParameter,
                "field_declaration" => Kind::FieldDeclaration,
                "local_variable_declaration" => Kind::LocalVariableDeclaration,
                "superclass" => Kind::Superclass,
                "extends_interfaces" => Kind::ExtendsInterfaces,
                "super_interfaces" => Kind::SuperInterfaces,
                "type_list" => Kind::TypeList,
                "argument_list" => Kind::ArgumentList,
                "assignment_expression" => Kind::Assignment,
                "field_access" => Kind::FieldAccess,
                "annotation" => Kind::Annotation,
                "marker_annotation" => Kind::MarkerAnnotation,
                "annotation_argument_list" => Kind::AnnotationArguments,
                _ => Kind::Other,
            },
        )
    })
}

crate::walk::field_table!(tree_sitter_java::LANGUAGE.into();
    Object => "object",
    Name => "name",
    Left => "left",
    Operator => "operator",
);

fn kind_of(node: Node<'_>, kinds: &[Kind]) -> Kind {
    kind_in(node, kinds, Kind::Other)
}

/// `^(Get|Post|Put|Patch|Delete|Request)Mapping$`.
const MAPPINGS: [&str; 6] = [
    "GetMapping",
    "PostMapping",
    "PutMapping",
    "PatchMapping",
    "DeleteMapping",
    "RequestMapping",
];
const ROLE_ANNOTATIONS: [&str; 3] = ["PreAuthorize", "RolesAllowed", "Secured"];
/// `^(getFor(Object|Entity)|postFor(Object|Entity|Location)|put|delete|patchForObject|exchange)$`.
const REST_TEMPLATE: [&str; 9] = [
    "getForObject",
    "getForEntity",
    "postForObject",
    "postForEntity",
    "postForLocation",
    "put",
    "delete",
    "patchForObject",
    "exchange",
];
const WEB_CLIENT_VERBS: [&str; 5] = ["get", "post", "put", "patch", "delete"];
/// Request annotations without arguments: Retrofit's verbs and Spring's exchange verbs.
const RETROFIT_MARKERS: [&str; 12] = [
    "GET",
    "POST",
    "PUT",
    "PATCH",
    "DELETE",
    "HEAD",
    "OPTIONS",
    "GetExchange",
    "PostExchange",
    "PutExchange",
    "PatchExchange",
    "DeleteExchange",
];

/// The words that start a pattern of this matcher inside a statement, besides the clients'
/// names: a statement without them holds no match (`deferred::Prune`). A construction's type
/// is such a name or matches no client, and a qualified one is a chain.
pub(crate) fn trigger_words() -> impl Iterator<Item = &'static str> {
    REST_TEMPLATE
        .into_iter()
        .chain(WEB_CLIENT_VERBS)
        .chain(["uri", "newBuilder", "HttpRequest"])
        // The annotations matched by their names (not by the `@`, which most methods have).
        .chain(MAPPINGS)
        .chain(RETROFIT_MARKERS)
        .chain(ROLE_ANNOTATIONS)
        .chain(["HTTP", "HttpExchange"])
        // The types a statement declares, which the extractor collects too (a `record`
        // declaration is told from a name `record` by `deferred::Prune`).
        .chain(["class", "interface", "enum"])
}

/// The hits of the Java query files on `tree`; without `generic`, those of `graph.scm` (`call`
/// and `assignment`) are left out, as the query compiled without that file does.
#[cfg(test)]
pub(crate) fn hits<'tree>(
    tree: &'tree Tree,
    source: &'tree str,
    generic: bool,
) -> Vec<QueryHit<'tree>> {
    // The file's one walk, as the extractor runs it (it does not enter imports).
    let mut matcher = matcher(source, generic);
    crate::lang::java::walk(tree, source, |node, field, ancestors| {
        matcher.visit(node, field, ancestors);
    });
    matcher.hits
}

/// The Java patterns, matched node by node in any preorder walk that reports each node with
/// its field and ancestors ([`crate::walk`]).
pub(crate) type Matcher<'tree, 's> = crate::walk::Matcher<'tree, 's, Kind>;

/// A matcher for a file with text `source`; `generic` as for [`hits`].
pub(crate) fn matcher<'tree>(source: &str, generic: bool) -> Matcher<'tree, '_> {
    Matcher::new(source, generic, kinds())
}

impl<'tree> Matcher<'tree, '_> {
    /// The matches that end at `node` (its field in its parent, its ancestors parent last).
    #[cfg(test)]
    pub fn visit(
        &mut self,
        node: Node<'tree>,
        field: Option<&'static str>,
        ancestors: &[Ancestor<'tree>],
    ) {
        let parent_kind_id = ancestors.last().map(|(parent, _)| parent.kind_id());
        self.visit_ids(node, field, ancestors, node.kind_id(), parent_kind_id);
    }

    /// [`Matcher::visit`] given the kind ids of the node and of its parent, as the walk read
    /// them.
    pub fn visit_ids(
        &mut self,
        node: Node<'tree>,
        field: Option<&'static str>,
        ancestors: &[Ancestor<'tree>],
        kind_id: u16,
        parent_kind_id: Option<u16>,
    ) {
        let (kinds, source, generic) = (self.kinds, self.source, self.generic);
        let hits = &mut self.hits;
        let fields = &mut self.parent_fields;
        let kind_for = |id: u16| kinds.get(usize::from(id)).copied().unwrap_or(Kind::Other);
        let kind = kind_for(kind_id);
        if kind == Kind::Import {
            hits.push(QueryHit::new(FactKind::Import, [(Field::Statement, node)]));
        }
        let Some(parent) = ancestors.last().map(|(parent, _)| *parent) else {
            return;
        };
        let grandparent = || {
            ancestors
                .len()
                .checked_sub(2)
                .and_then(|index| ancestors.get(index))
                .map(|(grandparent, _)| *grandparent)
        };
        let mut visit = Visit {
            node,
            kind,
            parent,
            field,
            source,
            kinds,
            generic,
            fields,
        };
        match parent_kind_id.map_or(Kind::Other, kind_for) {
            Kind::ObjectCreation if field == Some("type") && wild(node) => {
                hits.push(QueryHit::new(
                    FactKind::AccessesTechnology,
                    [(Field::Construction, parent), (Field::Type, node)],
                ));
            }
            Kind::FormalParameter | Kind::FieldDeclaration | Kind::LocalVariableDeclaration
                if field == Some("type") && wild(node) =>
            {
                hits.push(QueryHit::new(
                    FactKind::AccessesTechnology,
                    [(Field::Parameter, parent), (Field::Type, node)],
                ));
            }
            Kind::Superclass if wild(node) => {
                hits.push(QueryHit::new(
                    FactKind::AccessesTechnology,
                    [(Field::Base, node)],
                ));
            }
            Kind::TypeList
                if wild(node)
                    && grandparent().is_some_and(|interfaces| {
                        matches!(
                            kind_of(interfaces, kinds),
                            Kind::ExtendsInterfaces | Kind::SuperInterfaces
                        )
                    }) =>
            {
                hits.push(QueryHit::new(
                    FactKind::AccessesTechnology,
                    [(Field::Base, node)],
                ));
            }
            Kind::MethodInvocation => visit.method_invocation(hits),
            Kind::Assignment => visit.assignment(hits),
            Kind::Annotation | Kind::MarkerAnnotation => visit.annotation(hits),
            _ => {}
        }
    }
}

/// The node the walk enters, with its parent and its field there.
struct Visit<'tree, 'a> {
    node: Node<'tree>,
    kind: Kind,
    parent: Node<'tree>,
    field: Option<&'static str>,
    source: &'a str,
    kinds: &'a [Kind],
    generic: bool,
    /// The fields read of the parent last asked about.
    fields: &'a mut ParentFields<'tree>,
}

impl<'tree> Visit<'tree, '_> {
    fn text(&self, node: Node<'_>) -> &str {
        syntax::text(node, self.source)
    }

    fn child(
        &mut self,
        node: Node<'tree>,
        field: Child,
        kind: Option<Kind>,
    ) -> Option<Node<'tree>> {
        let kinds = self.kinds;
        self.fields
            .get(node, field as usize, || field_child(node, field))
            .filter(|child| match kind {
                Some(kind) => kind_of(*child, kinds) == kind,
                None => wild(*child),
            })
    }

    /// The `name` or `arguments` of a `method_invocation` (the parent).
    fn method_invocation(&mut self, hits: &mut Vec<QueryHit<'tree>>) {
        let call = self.parent;
        // The walk reads no fields under a call (`java::WALK_KINDS`): its identifier children
        // are its `object` and its `name`, and its one argument list is its `arguments`.
        match self.kind {
            // clients.scm: `Type.method(…)`.
            Kind::Identifier => {
                if let Some(object) = self
                    .child(call, Child::Object, Some(Kind::Identifier))
                    .filter(|object| object.id() != self.node.id())
                {
                    hits.push(QueryHit::new(
                        FactKind::AccessesTechnology,
                        [
                            (Field::Call, call),
                            (Field::Type, object),
                            (Field::Method, self.node),
                        ],
                    ));
                }
            }
            Kind::ArgumentList => {
                let Some(method) = self.child(call, Child::Name, Some(Kind::Identifier)) else {
                    return;
                };
                let object = self.child(call, Child::Object, None);
                let arguments = self.node;
                // graph.scm: every call, its receiver when it has one.
                if self.generic {
                    let captures = [
                        Some((Field::Call, call)),
                        object.map(|object| (Field::Receiver, object)),
                        Some((Field::Method, method)),
                        Some((Field::Arguments, arguments)),
                    ];
                    hits.push(QueryHit::new(
                        FactKind::Call,
                        captures.into_iter().flatten(),
                    ));
                }
                let Some(object) = object else {
                    return;
                };
                let name = self.text(method);
                // web.scm: `RestTemplate` calls, and java.net.http's
                // `HttpRequest.newBuilder(…)`.
                let is_request_builder = name == "newBuilder"
                    && kind_of(object, self.kinds) == Kind::Identifier
                    && self.text(object) == "HttpRequest";
                if REST_TEMPLATE.contains(&name) || is_request_builder {
                    hits.push(QueryHit::new(
                        FactKind::HttpCall,
                        [
                            (Field::Call, call),
                            (Field::Receiver, object),
                            (Field::Method, method),
                            (Field::Arguments, arguments),
                        ],
                    ));
                }
                // web.scm: `WebClient` `client.get().uri(…)`.
                if name == "uri" && kind_of(object, self.kinds) == Kind::MethodInvocation {
                    let receiver = self.child(object, Child::Object, None);
                    let verb = self
                        .child(object, Child::Name, Some(Kind::Identifier))
                        .filter(|verb| WEB_CLIENT_VERBS.contains(&self.text(*verb)));
                    if let (Some(receiver), Some(verb)) = (receiver, verb) {
                        hits.push(QueryHit::new(
                            FactKind::HttpCall,
                            [
                                (Field::Call, call),
                                (Field::Receiver, receiver),
                                (Field::Function, verb),
                                (Field::Method, method),
                                (Field::Arguments, arguments),
                            ],
                        ));
                    }
                }
            }
            _ => {}
        }
    }

    /// graph.scm: the `right` of `object.field = value`.
    fn assignment(&mut self, hits: &mut Vec<QueryHit<'tree>>) {
        if !self.generic || self.field != Some("right") || !wild(self.node) {
            return;
        }
        let statement = self.parent;
        let Some(target) = self.child(statement, Child::Left, Some(Kind::FieldAccess)) else {
            return;
        };
        if field_child(statement, Child::Operator).is_none_or(|operator| operator.kind() != "=") {
            return;
        }
        hits.push(QueryHit::assignment(statement, target, self.node));
    }

    /// web.scm: the `name` or `arguments` of an annotation (the parent).
    fn annotation(&mut self, hits: &mut Vec<QueryHit<'tree>>) {
        let annotation = self.parent;
        let is_marker = kind_of(annotation, self.kinds) == Kind::MarkerAnnotation;
        match (self.field, self.kind) {
            (Some("name"), Kind::Identifier) => {
                let name = self.text(self.node);
                if MAPPINGS.contains(&name) {
                    hits.push(QueryHit::new(
                        FactKind::Route,
                        [(Field::Decorator, annotation), (Field::Method, self.node)],
                    ));
                }
                if is_marker && RETROFIT_MARKERS.contains(&name) {
                    hits.push(QueryHit::new(
                        FactKind::HttpCall,
                        [(Field::Call, annotation), (Field::Method, self.node)],
                    ));
                }
            }
            (Some("arguments"), Kind::AnnotationArguments) if !is_marker => {
                let Some(name) = self.child(annotation, Child::Name, Some(Kind::Identifier)) else {
                    return;
                };
                let text = self.text(name);
                if ROLE_ANNOTATIONS.contains(&text) {
                    hits.push(QueryHit::new(
                        FactKind::ChecksRole,
                        [
                            (Field::Decorator, annotation),
                            (Field::Method, name),
                            (Field::Arguments, self.node),
                        ],
                    ));
                }
                // Retrofit's and Spring's request annotations; only these two need arguments.
                if RETROFIT_MARKERS.contains(&text) || matches!(text, "HTTP" | "HttpExchange") {
                    hits.push(QueryHit::new(
                        FactKind::HttpCall,
                        [
                            (Field::Call, annotation),
                            (Field::Method, name),
                            (Field::Arguments, self.node),
                        ],
                    ));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;

//! One `TreeCursor` walk that finds the matches of the Kotlin query files
//! (`queries/kotlin/*.scm`) without running the query.
//!
//! As for Python (`crate::lang::python::walk`): the query cursor costs several times a plain cursor
//! walk, and compiling the Kotlin query took 20 to 35 ms per run. This walk recognises the
//! patterns by hand and returns the same [`QueryHit`]s in the same order: a match is reported
//! when the walk enters the last node of its pattern, and matches that end on the same node keep
//! their pattern order. The query files stay the reference: a test runs both on every Kotlin
//! fixture and compares the hits, kind by kind and across kinds.
//!
//! The patterns, by the node that ends them:
//! - an `import` → `import`;
//! - the first named child of a `call_expression`, an `identifier` or `navigation_expression`
//!   → `accesses_technology`; a `user_type` under a `class_parameter`, a `delegation_specifier`
//!   or the `constructor_invocation` of one → `accesses_technology` (`parameter`/`base`);
//! - the arguments of a `call_expression` (`value_arguments` or `annotated_lambda` right after
//!   the callee): (generic) a `call`, a Ktor `get("/x") { }` route, an `x.get(…)`-style HTTP
//!   call (for `value_arguments`, after any `navigation_expression` child);
//! - an `identifier` in the `user_type` of an annotation (directly, or in its
//!   `constructor_invocation`): Spring mappings → `route`, Retrofit markers → `http_call`; the
//!   `value_arguments` of an annotation's `constructor_invocation`: Retrofit `@GET("…")` →
//!   `http_call`;
//! - the `lambda_literal` on the right of `get ("/x") { }` parsed as nested binary expressions
//!   → `route`;
//! - the `right` of a `=` `assignment` whose `left` is a `navigation_expression` → `assignment`
//!   (generic).

use std::sync::OnceLock;

use policies::facts::FactKind;
use tree_sitter::Node;
#[cfg(test)]
use tree_sitter::Tree;

use crate::query::{Field, QueryHit};
use crate::syntax;
use crate::syntax::ChildField;
use crate::walk::{kind_in, kind_table, wild, Ancestor};

/// The node kinds the walk tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Other,
    Import,
    Call,
    Identifier,
    Navigation,
    ValueArguments,
    AnnotatedLambda,
    ClassParameter,
    UserType,
    DelegationSpecifier,
    ConstructorInvocation,
    Annotation,
    BinaryExpression,
    LambdaLiteral,
    Assignment,
}

/// Kotlin node kind ids → [`Kind`], by name (one name may have several ids).
fn kinds() -> &'static [Kind] {
    static KINDS: OnceLock<Vec<Kind>> = OnceLock::new();
    KINDS.get_or_init(|| {
        kind_table(
            &tree_sitter_kotlin_ng::LANGUAGE.into(),
            Kind::Other,
            |name| match name {
                "import" => Kind::Import,
                "call_expression" => Kind::Call,
                "identifier" => Kind::Identifier,
                "navigation_expression" => Kind::Navigation,
                "value_arguments" => Kind::ValueArguments,
                "annotated_lambda" => Kind::AnnotatedLambda,
                "class_parameter" => Kind::ClassParameter,
                "user_type" => Kind::UserType,
                "delegation_specifier" => Kind::DelegationSpecifier,
                "constructor_invocation" => Kind::ConstructorInvocation,
                "annotation" => Kind::Annotation,
                "binary_expression" => Kind::BinaryExpression,
                "lambda_literal" => Kind::LambdaLiteral,
                "assignment" => Kind::Assignment,
                _ => Kind::Other,
            },
        )
    })
}

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
const KTOR_VERBS: [&str; 7] = ["get", "post", "put", "patch", "delete", "head", "options"];
const RETROFIT: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "HTTP"];
const RETROFIT_MARKERS: [&str; 6] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"];
const CLIENT_VERBS: [&str; 7] = ["get", "post", "put", "patch", "delete", "head", "url"];

/// The hits of the Kotlin query files on `tree`; without `generic`, those of `graph.scm`
/// (`call` and `assignment`) are left out, as the query compiled without that file does.
#[cfg(test)]
pub(crate) fn hits<'tree>(
    tree: &'tree Tree,
    source: &'tree str,
    generic: bool,
) -> Vec<QueryHit<'tree>> {
    // The file's one walk, as the extractor runs it (it does not enter imports).
    let mut matcher = matcher(source, generic);
    crate::lang::kotlin::walk(tree, source, |node, field, ancestors| {
        matcher.visit(node, field, ancestors);
    });
    matcher.hits
}

/// The Kotlin patterns, matched node by node in any preorder walk that reports each node with
/// its field and ancestors ([`crate::walk`]).
pub(crate) type Matcher<'tree, 's> = crate::walk::Matcher<'tree, 's, Kind>;

/// A matcher for a file with text `source`; `generic` as for [`hits`].
pub(crate) fn matcher<'tree>(source: &str, generic: bool) -> Matcher<'tree, '_> {
    Matcher::new(source, generic, kinds())
}

impl<'tree> Matcher<'tree, '_> {
    /// The matches that end at `node` (its field in its parent, its ancestors parent last).
    pub fn visit(
        &mut self,
        node: Node<'tree>,
        field: Option<&'static str>,
        ancestors: &[Ancestor<'tree>],
    ) {
        let kind = kind_of(node, self.kinds);
        let (index, previous) = self.siblings.enter(node, ancestors.len());
        if kind == Kind::Import {
            self.hits
                .push(QueryHit::new(FactKind::Import, [(Field::Statement, node)]));
        }
        if let Some((parent, _)) = ancestors.last().copied() {
            let visit = Visit {
                node,
                kind,
                parent,
                index,
                previous,
                field,
                ancestors,
                source: self.source,
                kinds: self.kinds,
                generic: self.generic,
            };
            visit.run(&mut self.hits);
        }
    }
}

/// The node the walk enters, with its ancestors and its field in its parent.
struct Visit<'tree, 'a> {
    node: Node<'tree>,
    kind: Kind,
    parent: Node<'tree>,
    /// The node's index among the parent's named children.
    index: u32,
    /// The parent's named child before the node.
    previous: Option<Node<'tree>>,
    field: Option<&'static str>,
    ancestors: &'a [Ancestor<'tree>],
    source: &'a str,
    kinds: &'a [Kind],
    generic: bool,
}

impl<'tree> Visit<'tree, '_> {
    fn text(&self, node: Node<'_>) -> &str {
        syntax::text(node, self.source)
    }

    fn kind(&self, node: Node<'_>) -> Kind {
        kind_of(node, self.kinds)
    }

    /// The ancestor `up` levels above the parent (0: the grandparent).
    fn above(&self, up: usize) -> Option<Node<'tree>> {
        self.ancestors
            .len()
            .checked_sub(2 + up)
            .and_then(|index| self.ancestors.get(index))
            .map(|(node, _)| *node)
    }

    fn run(&self, hits: &mut Vec<QueryHit<'tree>>) {
        match (self.kind(self.parent), self.kind) {
            (Kind::Call, _) => self.in_call(hits),
            (Kind::ClassParameter, Kind::UserType) => hits.push(QueryHit::new(
                FactKind::AccessesTechnology,
                [(Field::Parameter, self.parent), (Field::Type, self.node)],
            )),
            (Kind::ConstructorInvocation, Kind::UserType)
                if self
                    .above(0)
                    .is_some_and(|up| self.kind(up) == Kind::DelegationSpecifier) =>
            {
                hits.push(QueryHit::new(
                    FactKind::AccessesTechnology,
                    [(Field::Base, self.node)],
                ));
            }
            (Kind::DelegationSpecifier, Kind::UserType) => hits.push(QueryHit::new(
                FactKind::AccessesTechnology,
                [(Field::Base, self.node)],
            )),
            (Kind::UserType, Kind::Identifier) => self.annotation_name(hits),
            (Kind::ConstructorInvocation, Kind::ValueArguments) => {
                self.annotation_arguments(hits);
            }
            (Kind::BinaryExpression, Kind::LambdaLiteral) if self.field == Some("right") => {
                self.infix_route(hits);
            }
            (Kind::Assignment, _) if self.generic && self.field == Some("right") => {
                self.assignment(hits);
            }
            _ => {}
        }
    }

    /// A child of a `call_expression` (the parent): its callee, or its arguments.
    fn in_call(&self, hits: &mut Vec<QueryHit<'tree>>) {
        let call = self.parent;
        if self.index == 0 && matches!(self.kind, Kind::Identifier | Kind::Navigation) {
            hits.push(QueryHit::new(
                FactKind::AccessesTechnology,
                [(Field::Call, call), (Field::Function, self.node)],
            ));
        }
        if !matches!(self.kind, Kind::ValueArguments | Kind::AnnotatedLambda) {
            return;
        }
        // The callee, when the node comes right after it.
        let callee = self
            .previous
            .filter(|_| self.index == 1)
            .filter(|first| matches!(self.kind(*first), Kind::Identifier | Kind::Navigation));
        // graph.scm: the callee, then its arguments.
        if let (true, Some(callee)) = (self.generic, callee) {
            hits.push(QueryHit::new(
                FactKind::Call,
                [
                    (Field::Call, call),
                    (Field::Function, callee),
                    (Field::Arguments, self.node),
                ],
            ));
        }
        // web.scm: Ktor `get("/x") { … }`.
        if let Some(method) = callee.filter(|callee| {
            self.kind(*callee) == Kind::Identifier && KTOR_VERBS.contains(&self.text(*callee))
        }) {
            hits.push(QueryHit::new(
                FactKind::Route,
                [
                    (Field::Call, call),
                    (Field::Method, method),
                    (Field::Arguments, self.node),
                ],
            ));
        }
        // web.scm: `client.get(…)`, `Request.Builder().url(…)`.
        if self.kind != Kind::ValueArguments {
            return;
        }
        // The navigations among the named children before the node: the one before it, or
        // (with more before it, which is rare) all of them, read from the call.
        let all_before: Vec<Node<'tree>>;
        let before: &[Node<'tree>] = if self.index <= 1 {
            self.previous.as_slice()
        } else {
            let mut cursor = call.walk();
            all_before = call
                .named_children(&mut cursor)
                .take_while(|child| child.id() != self.node.id())
                .collect();
            &all_before
        };
        for &navigation in before {
            if self.kind(navigation) != Kind::Navigation {
                continue;
            }
            let count = navigation.named_child_count();
            let Some(method) = count
                .checked_sub(1)
                .and_then(|last| navigation.named_child(last))
                .filter(|method| {
                    self.kind(*method) == Kind::Identifier
                        && CLIENT_VERBS.contains(&self.text(*method))
                })
            else {
                continue;
            };
            let Some(receiver) = count
                .checked_sub(2)
                .and_then(|before_last| navigation.named_child(before_last))
                .filter(|receiver| wild(*receiver))
            else {
                continue;
            };
            hits.push(QueryHit::new(
                FactKind::HttpCall,
                [
                    (Field::Call, call),
                    (Field::Receiver, receiver),
                    (Field::Method, method),
                    (Field::Arguments, self.node),
                ],
            ));
        }
    }

    /// web.scm: an identifier of an annotation's type, `@GetMapping`, `@GetMapping("/x")`,
    /// Retrofit's `@DELETE`.
    fn annotation_name(&self, hits: &mut Vec<QueryHit<'tree>>) {
        let Some(holder) = self.above(0) else {
            return;
        };
        let name = self.text(self.node);
        match self.kind(holder) {
            Kind::Annotation => {
                if MAPPINGS.contains(&name) {
                    hits.push(QueryHit::new(
                        FactKind::Route,
                        [(Field::Decorator, holder), (Field::Method, self.node)],
                    ));
                }
                if RETROFIT_MARKERS.contains(&name) {
                    hits.push(QueryHit::new(
                        FactKind::HttpCall,
                        [(Field::Call, holder), (Field::Method, self.node)],
                    ));
                }
            }
            Kind::ConstructorInvocation => {
                let annotation = self
                    .above(1)
                    .filter(|annotation| self.kind(*annotation) == Kind::Annotation);
                if let (Some(annotation), true) = (annotation, MAPPINGS.contains(&name)) {
                    hits.push(QueryHit::new(
                        FactKind::Route,
                        [(Field::Decorator, annotation), (Field::Method, self.node)],
                    ));
                }
            }
            _ => {}
        }
    }

    /// web.scm: the arguments of Retrofit's `@GET("…")` (the parent is its
    /// `constructor_invocation`).
    fn annotation_arguments(&self, hits: &mut Vec<QueryHit<'tree>>) {
        let invocation = self.parent;
        let Some(annotation) = self
            .above(0)
            .filter(|annotation| self.kind(*annotation) == Kind::Annotation)
        else {
            return;
        };
        let mut cursor = invocation.walk();
        let types: Vec<Node<'tree>> = invocation
            .named_children(&mut cursor)
            .take_while(|child| child.id() != self.node.id())
            .filter(|child| self.kind(*child) == Kind::UserType)
            .collect();
        for user_type in types {
            let mut cursor = user_type.walk();
            let names: Vec<Node<'tree>> = user_type
                .named_children(&mut cursor)
                .filter(|child| {
                    self.kind(*child) == Kind::Identifier && RETROFIT.contains(&self.text(*child))
                })
                .collect();
            for method in names {
                hits.push(QueryHit::new(
                    FactKind::HttpCall,
                    [
                        (Field::Call, annotation),
                        (Field::Method, method),
                        (Field::Arguments, self.node),
                    ],
                ));
            }
        }
    }

    /// web.scm: `get ("/x") { … }` read as `(get ("/x")) { … }` binary expressions.
    fn infix_route(&self, hits: &mut Vec<QueryHit<'tree>>) {
        let outer = self.parent;
        let Some(inner) = outer
            .child_field("left")
            .filter(|inner| self.kind(*inner) == Kind::BinaryExpression)
        else {
            return;
        };
        let method = inner.child_field("left").filter(|method| {
            self.kind(*method) == Kind::Identifier && KTOR_VERBS.contains(&self.text(*method))
        });
        let receiver = inner
            .child_field("right")
            .filter(|receiver| wild(*receiver));
        if let (Some(method), Some(receiver)) = (method, receiver) {
            hits.push(QueryHit::new(
                FactKind::Route,
                [
                    (Field::Call, outer),
                    (Field::Method, method),
                    (Field::Receiver, receiver),
                    (Field::Arguments, self.node),
                ],
            ));
        }
    }

    /// graph.scm: the `right` of `x.y = value`.
    fn assignment(&self, hits: &mut Vec<QueryHit<'tree>>) {
        if !wild(self.node) {
            return;
        }
        let statement = self.parent;
        let Some(target) = statement
            .child_field("left")
            .filter(|left| self.kind(*left) == Kind::Navigation)
        else {
            return;
        };
        if statement
            .child_field("operator")
            .is_none_or(|operator| operator.kind() != "=")
        {
            return;
        }
        hits.push(QueryHit::assignment(statement, target, self.node));
    }
}

#[cfg(test)]
mod tests;

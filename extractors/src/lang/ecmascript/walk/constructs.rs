//! What the walk reads at the constructs that start matches: imports, calls (routes and
//! requests among them), decorators, injected constructor parameters and the classes a class
//! extends.

use super::*;

impl<'tree> Walker<'_, 'tree, '_> {
    /// The child in `field` when it is a string literal.
    pub(super) fn string_child(
        &self,
        node: Node<'tree>,
        field: Option<u16>,
    ) -> Option<Node<'tree>> {
        self.grammar
            .child(node, field)
            .filter(|child| self.grammar.named_kind(*child) == Kind::String)
    }

    /// `javascript/imports.scm` static imports and `typescript/imports.scm` import-equals.
    pub(super) fn import_statement(&mut self, node: Node<'tree>) {
        if let Some(source) = self.string_child(node, self.grammar.source) {
            self.push_now(
                FactKind::Import,
                [(Field::Statement, node), (Field::Specifier, source)],
            );
        }
        let clauses: Vec<Node<'tree>> = named_children(node)
            .filter(|child| self.grammar.kind(*child) == Kind::ImportRequireClause)
            .collect();
        for clause in clauses {
            if let Some(source) = self.string_child(clause, self.grammar.source) {
                self.push_now(
                    FactKind::Import,
                    [(Field::Statement, node), (Field::Specifier, source)],
                );
            }
        }
    }

    /// The patterns rooted at a call: `require`, `import()`, client calls, requests, routes and
    /// generic calls.
    pub(super) fn call_expression(&mut self, call: Node<'tree>) {
        let grammar = self.grammar;
        let Some(function) = grammar.child(call, grammar.function) else {
            return;
        };
        let arguments = grammar
            .child(call, grammar.arguments)
            .filter(|arguments| arguments.start_byte() >= function.end_byte());
        let function_kind = grammar.named_kind(function);
        let argument_list = arguments.filter(|list| grammar.named_kind(*list) == Kind::Arguments);
        let has_argument = argument_list.is_some_and(|list| list.named_child_count() > 0);
        // Only `require`, `import()`, `.route(…)` and argument lists with errors need it.
        let first_argument = || argument_list.and_then(|list| list.named_child(0));
        // Matches that end at the first argument are reported at the argument list: no named
        // node is entered between the two.
        // `javascript/imports.scm`: `require('x')` with one string literal, also after comments
        // (`require(/* … */ 'x')`).
        if function_kind == Kind::Identifier && syntax::text(function, self.source) == "require" {
            let specifier = argument_list.and_then(|list| {
                named_children(list).find(|argument| grammar.kind(*argument) != Kind::Comment)
            });
            if let (Some(list), Some(specifier)) = (argument_list, specifier) {
                if is_specifier_literal(grammar, specifier)
                    && specifier.next_named_sibling().is_none()
                {
                    self.push(
                        list,
                        FactKind::Import,
                        [
                            (Field::Call, call),
                            (Field::Function, function),
                            (Field::Specifier, specifier),
                        ],
                    );
                }
            }
        }
        // `javascript/imports.scm`: `import('x')`, also after comments (`import(/* … */ 'x')`).
        if function_kind == Kind::Import {
            let specifier = argument_list.and_then(|list| {
                let mut cursor = list.walk();
                let first = list
                    .named_children(&mut cursor)
                    .find(|argument| argument.kind() != "comment");
                first
            });
            if let (Some(list), Some(specifier)) = (
                argument_list,
                specifier.filter(|first| is_specifier_literal(grammar, *first)),
            ) {
                self.push(
                    list,
                    FactKind::Import,
                    [(Field::Call, call), (Field::Specifier, specifier)],
                );
            }
        }
        let is_callee = matches!(function_kind, Kind::Identifier | Kind::MemberExpression);
        // `javascript/clients.scm`: calls (ending at the callee, the call's first child).
        if is_callee {
            self.push_now(
                FactKind::AccessesTechnology,
                [(Field::Call, call), (Field::Function, function)],
            );
        }
        // `javascript/http.scm`: calls with a first argument.
        if is_callee {
            // The first argument must not be an `ERROR`, which only a list with errors holds.
            let first_is_argument = has_argument
                && argument_list.is_some_and(|list| {
                    !list.has_error() || first_argument().is_some_and(|first| !first.is_error())
                });
            if let (Some(list), true) = (argument_list, first_is_argument) {
                self.push(
                    list,
                    FactKind::HttpCall,
                    [
                        (Field::Call, call),
                        (Field::Function, function),
                        (Field::Arguments, list),
                    ],
                );
            }
        }
        // `javascript/routes.scm`: `app.get('/x', …)` and `fastify.route({ … })`.
        if function_kind == Kind::MemberExpression {
            if let Some(list) = argument_list {
                self.route_call(call, function, list, first_argument);
            }
        }
        // `javascript/graph.scm`: every call.
        if self.generic && is_wildcard(function) {
            if let Some(arguments) = arguments.filter(|arguments| is_wildcard(*arguments)) {
                self.push(
                    arguments,
                    FactKind::Call,
                    [
                        (Field::Call, call),
                        (Field::Function, function),
                        (Field::Arguments, arguments),
                    ],
                );
            }
        }
    }

    pub(super) fn route_call(
        &mut self,
        call: Node<'tree>,
        function: Node<'tree>,
        list: Node<'tree>,
        first_argument: impl Fn() -> Option<Node<'tree>>,
    ) {
        // Verbs, the mounts of `super::mounts` (`use`, `route`, `register`) and Nest's
        // `app.setGlobalPrefix('api')` and `app.enableVersioning(…)`.
        const VERBS: [&str; 14] = [
            "get",
            "post",
            "put",
            "patch",
            "delete",
            "del",
            "options",
            "head",
            "all",
            "use",
            "route",
            "register",
            "setGlobalPrefix",
            "enableVersioning",
        ];
        let grammar = self.grammar;
        let Some(receiver) = grammar
            .child(function, grammar.object)
            .filter(|o| is_wildcard(*o))
        else {
            return;
        };
        let Some(method) = grammar
            .child(function, grammar.property)
            .filter(|property| grammar.named_kind(*property) == Kind::PropertyIdentifier)
            .filter(|property| property.start_byte() >= receiver.end_byte())
        else {
            return;
        };
        let method_name = syntax::text(method, self.source);
        if VERBS.contains(&method_name) {
            self.push(
                list,
                FactKind::Route,
                [
                    (Field::Call, call),
                    (Field::Receiver, receiver),
                    (Field::Method, method),
                    (Field::Arguments, list),
                ],
            );
        }
        if method_name == "route" {
            if let Some(options) =
                first_argument().filter(|first| grammar.named_kind(*first) == Kind::Object)
            {
                self.push(
                    list,
                    FactKind::Route,
                    [
                        (Field::Call, call),
                        (Field::Receiver, receiver),
                        (Field::Method, method),
                        (Field::Options, options),
                    ],
                );
            }
        }
    }

    /// `javascript/routes.scm`: `@Get(':id')` routes and `@Roles(…)` role checks.
    pub(super) fn decorator(&mut self, decorator: Node<'tree>) {
        const VERBS: [&str; 8] = [
            "Get", "Post", "Put", "Patch", "Delete", "Options", "Head", "All",
        ];
        let grammar = self.grammar;
        let calls: Vec<Node<'tree>> = named_children(decorator)
            .filter(|child| grammar.kind(*child) == Kind::CallExpression)
            .collect();
        for call in calls {
            let Some(function) = grammar
                .child(call, grammar.function)
                .filter(|function| grammar.named_kind(*function) == Kind::Identifier)
            else {
                continue;
            };
            let Some(list) = grammar
                .child(call, grammar.arguments)
                .filter(|list| grammar.named_kind(*list) == Kind::Arguments)
                .filter(|list| list.start_byte() >= function.end_byte())
            else {
                continue;
            };
            let name = syntax::text(function, self.source);
            let kind = if VERBS.contains(&name) {
                FactKind::Route
            } else if name == "Roles" {
                FactKind::ChecksRole
            } else {
                continue;
            };
            self.push(
                list,
                kind,
                [
                    (Field::Decorator, decorator),
                    (Field::Method, function),
                    (Field::Arguments, list),
                ],
            );
        }
    }

    /// `typescript/clients.scm`: `constructor(private readonly prisma: PrismaClient)`,
    /// `constructor(private redis: Redis | Cluster)`.
    pub(super) fn constructor_injection(&mut self, method: Node<'tree>, method_frame: Option<u32>) {
        let grammar = self.grammar;
        let Some(name) = grammar
            .child(method, grammar.name)
            .filter(|name| grammar.named_kind(*name) == Kind::PropertyIdentifier)
        else {
            return;
        };
        if syntax::text(name, self.source) != "constructor" {
            return;
        }
        let Some(parameters) = grammar
            .child(method, grammar.parameters)
            .filter(|parameters| grammar.named_kind(*parameters) == Kind::FormalParameters)
            .filter(|parameters| parameters.start_byte() >= name.end_byte())
        else {
            return;
        };
        let mut found = Vec::new();
        for parameter in named_children(parameters) {
            if !matches!(
                grammar.kind(parameter),
                Kind::RequiredParameter | Kind::OptionalParameter
            ) {
                continue;
            }
            let Some(annotation) = grammar
                .child(parameter, grammar.type_field)
                .filter(|annotation| grammar.named_kind(*annotation) == Kind::TypeAnnotation)
            else {
                continue;
            };
            for type_node in named_children(annotation) {
                // A generic type is its name: `Repository<User>` is a `Repository`.
                let type_node = if type_node.kind() == "generic_type" {
                    match type_node.child_by_field_name("name") {
                        Some(name) => name,
                        None => continue,
                    }
                } else {
                    type_node
                };
                // A union, parenthesized or object type is kept whole: the extractor reads the
                // types it names (`Redis | Cluster`, `Pool | undefined`, `{ db: Pool }`).
                if matches!(
                    grammar.kind(type_node),
                    Kind::TypeIdentifier | Kind::NestedTypeIdentifier
                ) || matches!(
                    type_node.kind(),
                    "union_type" | "parenthesized_type" | "object_type"
                ) {
                    found.push((parameter, type_node));
                }
            }
        }
        for (parameter, type_node) in found {
            self.scopes.by_node.insert(parameter.id(), method_frame);
            self.push(
                type_node,
                FactKind::AccessesTechnology,
                [
                    (Field::Method, name),
                    (Field::Parameter, parameter),
                    (Field::Type, type_node),
                ],
            );
        }
    }

    /// `javascript/classes.scm` (`class_heritage`, JavaScript) and `typescript/clients.scm`
    /// (`extends_clause`, TypeScript): the class a class extends, when it is a name or a member
    /// (`class Cache extends Redis`, `extends pg.Client`).
    pub(super) fn class_bases(&mut self, node: Node<'tree>, kind: Kind, frame: Option<u32>) {
        let grammar = self.grammar;
        let bases: Vec<Node<'tree>> = if kind == Kind::ExtendsClause {
            let Some(field) = grammar.value.and_then(std::num::NonZeroU16::new) else {
                return;
            };
            let mut cursor = node.walk();
            let values: Vec<Node<'tree>> = node.children_by_field_id(field, &mut cursor).collect();
            values
        } else {
            named_children(node).collect()
        };
        for base in bases {
            if !matches!(
                grammar.named_kind(base),
                Kind::Identifier | Kind::MemberExpression
            ) {
                continue;
            }
            self.scopes.by_node.insert(base.id(), frame);
            self.push(base, FactKind::AccessesTechnology, [(Field::Base, base)]);
        }
    }
}

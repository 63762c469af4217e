//! The stores a client's construction names through the values its arguments hold, traced
//! within the file: `new Sequelize(url, getOptions())` or `const options = makeOptions();
//! new Sequelize(options)`, where the `dialect` (or another option key of the catalogue entry)
//! or a connection URL sits in an object literal or a string that a local `const`, a local
//! function's `return` or a call of the enclosing function passes along.
//!
//! An argument is read as follows, nothing is run:
//! - a string literal is a connection URL when it is the first argument (`postgres://…`): as
//!   written there, any driver or scheme name of the catalogue; reached through a name, only
//!   a string with a scheme (`…:…`), so that a database name is no store;
//! - an object literal gives the value of each option key (`{ dialect: 'postgres' }`, the
//!   shorthand `{ dialect }`) and the objects it spreads (`{ ...base, ...common }`);
//! - a name is the value of its nearest declaration in the enclosing scopes when that is a
//!   `const` with a plain name; a parameter of the enclosing function (a function declaration,
//!   or a function bound to a `const`) is its default value and the argument each call of that
//!   function in the file passes at its position;
//! - a call of a local function (a declaration, or a `const` arrow or function expression) is
//!   each value its body returns (`return …` outside nested functions, or an arrow's
//!   expression body);
//! - `a || b`, `a ?? b` and `c ? a : b` are both sides; parentheses, `as`, `satisfies`, `!`
//!   and `await` are their operand.
//!
//! Anything else (`process.env.DATABASE_URL`, a parameter of a method, an import) names no
//! store and is left out. The stores found must agree: one category is the answer, several
//! are none (the entry's own category then stands), so a disagreement never makes a claim.
//! The trace is bounded in steps; a trace that runs out answers nothing.

use std::collections::BTreeSet;

use tree_sitter::Node;

use super::literals;
use crate::catalogue::connection_category;
use crate::syntax::{self, ChildField};

/// The kinds of a function's node: a scope of its own parameters and a body of its own returns.
const FUNCTIONS: [&str; 7] = [
    "function_declaration",
    "generator_function_declaration",
    "function_expression",
    "function",
    "generator_function",
    "arrow_function",
    "method_definition",
];
/// How many expressions one argument list's trace may read.
const MAX_STEPS: usize = 256;
/// How many names, calls and parameters deep a trace may follow.
const MAX_DEPTH: usize = 12;
/// How many times a trace may walk the whole file for the calls of a function.
const MAX_SCANS: usize = 4;

/// Where a traced value stands in the construction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// An argument, or an object spread into one; `first` for the first argument, whose
    /// string is a connection URL.
    Argument { first: bool },
    /// The value of an option key (`dialect`), whose string is a dialect or driver name.
    Option,
}

/// What a name is bound to where it is used.
#[derive(Debug, Clone, Copy)]
enum Binding<'tree> {
    /// `const name = value`.
    Const(Node<'tree>),
    /// `function name(…) {…}`.
    Function(Node<'tree>),
    /// Parameter `index` of `function` (with its default value).
    Parameter {
        function: Node<'tree>,
        index: usize,
        default: Option<Node<'tree>>,
    },
    /// Anything the trace does not follow.
    Unknown,
}

/// The one category the arguments of the construction or call `site` name, traced within the
/// file whose tree has `root`, reading the option keys `options`; `None` when they name none,
/// disagree, or the trace runs out.
pub(super) fn category(
    root: Node<'_>,
    source: &str,
    options: &[&str],
    arguments: &[Node<'_>],
) -> Option<&'static str> {
    let mut tracer = Tracer::new(root, source, options);
    for (index, argument) in arguments.iter().enumerate() {
        tracer.value(*argument, Slot::Argument { first: index == 0 }, 0);
    }
    if tracer.exhausted || tracer.found.len() != 1 {
        return None;
    }
    tracer.found.into_iter().next()
}

/// The value of the `const` that the identifier `node` (of the tree `root`) names inside a
/// function or block, where
/// it stands (`const route = '/api/app/about/theme'; fetch(route)`): its nearest declaration in
/// the enclosing scopes, when that is a `const` with a plain name in a block, not one at the top
/// level of the program (those are [`literals::Constants`]) and not a parameter, a `let` or a
/// destructured name.
pub(super) fn local_const<'tree>(
    root: Node<'tree>,
    node: Node<'tree>,
    source: &str,
) -> Option<Node<'tree>> {
    let tracer = Tracer::new(root, source, &[]);
    let Binding::Const(value) = tracer.lookup(node) else {
        return None;
    };
    let declaration = value.parent()?.parent()?;
    let scope = declaration.parent()?;
    (scope.kind() == "statement_block").then_some(value)
}

/// Whether a scope around `node` (of the tree `root`) declares `name`: a parameter of an
/// enclosing function, a variable, function, class or import among the statements of an
/// enclosing block or the file, or a `for`, `catch` or class binding.
pub(super) fn declares<'tree>(
    root: Node<'tree>,
    node: Node<'tree>,
    name: &str,
    source: &str,
) -> bool {
    let tracer = Tracer::new(root, source, &[]);
    tracer.binding_at(node, name).is_some()
}

struct Tracer<'tree, 's, 'o> {
    root: Node<'tree>,
    source: &'s str,
    options: &'o [&'o str],
    steps: usize,
    scans: usize,
    found: BTreeSet<&'static str>,
    exhausted: bool,
}

impl<'tree, 's, 'o> Tracer<'tree, 's, 'o> {
    /// A tracer over the tree `root` of `source`, reading the options `options` name.
    fn new(root: Node<'tree>, source: &'s str, options: &'o [&'o str]) -> Self {
        Self {
            root,
            source,
            options,
            steps: 0,
            scans: 0,
            found: BTreeSet::new(),
            exhausted: false,
        }
    }
}

impl<'tree> Tracer<'tree, '_, '_> {
    fn value(&mut self, node: Node<'tree>, slot: Slot, depth: usize) {
        self.steps += 1;
        if self.steps > MAX_STEPS || depth > MAX_DEPTH {
            self.exhausted = true;
            return;
        }
        match node.kind() {
            "parenthesized_expression"
            | "as_expression"
            | "satisfies_expression"
            | "non_null_expression"
            | "await_expression"
            | "type_assertion" => {
                // The operand is the first named child that is an expression (`type_assertion`
                // puts its type first).
                let operand = syntax::named_children(node)
                    .into_iter()
                    .find(|child| child.kind() != "comment" && child.kind() != "type_arguments");
                if let Some(operand) = operand {
                    self.value(operand, slot, depth);
                }
            }
            "string" | "template_string" => {
                let Some(text) = literals::static_string(node, self.source) else {
                    return;
                };
                let category = match slot {
                    Slot::Option => connection_category(&text),
                    Slot::Argument { first: true } if depth == 0 => connection_category(&text),
                    Slot::Argument { first: true } if text.contains(':') => {
                        connection_category(&text)
                    }
                    Slot::Argument { .. } => None,
                };
                self.found.extend(category);
            }
            "object" => {
                if slot == Slot::Option {
                    return;
                }
                for member in syntax::named_children(node) {
                    match member.kind() {
                        "pair" => {
                            let (Some(key), Some(value)) =
                                (member.child_field("key"), member.child_field("value"))
                            else {
                                continue;
                            };
                            if self.is_option(&literals::property_name(key, self.source)) {
                                self.value(value, Slot::Option, depth);
                            }
                        }
                        "shorthand_property_identifier"
                            if self.is_option(syntax::text(member, self.source)) =>
                        {
                            self.name(member, Slot::Option, depth);
                        }
                        "spread_element" => {
                            if let Some(inner) = syntax::named_children(member).into_iter().next() {
                                self.value(inner, Slot::Argument { first: false }, depth);
                            }
                        }
                        _ => {}
                    }
                }
            }
            "identifier" => self.name(node, slot, depth),
            "call_expression" => {
                let Some(callee) = node
                    .child_field("function")
                    .filter(|callee| callee.kind() == "identifier")
                else {
                    return;
                };
                let function = match self.lookup(callee) {
                    Binding::Function(function) => function,
                    Binding::Const(value) if is_function(value) => value,
                    _ => return,
                };
                for returned in returned_values(function) {
                    self.value(returned, slot, depth + 1);
                }
            }
            "binary_expression" => {
                let operator = node
                    .child_field("operator")
                    .map(|operator| syntax::text(operator, self.source));
                if matches!(operator, Some("||" | "??")) {
                    for side in [node.child_field("left"), node.child_field("right")]
                        .into_iter()
                        .flatten()
                    {
                        self.value(side, slot, depth);
                    }
                }
            }
            "ternary_expression" => {
                for side in [
                    node.child_field("consequence"),
                    node.child_field("alternative"),
                ]
                .into_iter()
                .flatten()
                {
                    self.value(side, slot, depth);
                }
            }
            _ => {}
        }
    }

    fn is_option(&self, key: &str) -> bool {
        self.options.contains(&key)
    }

    /// The values of the name `node` (an identifier or a shorthand property).
    fn name(&mut self, node: Node<'tree>, slot: Slot, depth: usize) {
        match self.lookup(node) {
            Binding::Const(value) => self.value(value, slot, depth + 1),
            Binding::Parameter {
                function,
                index,
                default,
            } => {
                if let Some(default) = default {
                    self.value(default, slot, depth + 1);
                }
                for argument in self.call_arguments(function, index) {
                    self.value(argument, slot, depth + 1);
                }
            }
            Binding::Function(_) | Binding::Unknown => {}
        }
    }

    /// What the name `node` is bound to where it stands: its nearest declaration in the
    /// enclosing scopes.
    fn lookup(&self, node: Node<'tree>) -> Binding<'tree> {
        self.binding_at(node, syntax::text(node, self.source))
            .unwrap_or(Binding::Unknown)
    }

    /// The nearest declaration of `name` in the scopes that enclose `at`, if any declares it.
    fn binding_at(&self, at: Node<'tree>, name: &str) -> Option<Binding<'tree>> {
        let chain = syntax::ancestors(self.root, at);
        chain.iter().rev().find_map(|scope| match scope.kind() {
            kind if FUNCTIONS.contains(&kind) => self.parameter(*scope, name),
            "statement_block" | "program" => self.declared_in(*scope, name),
            "for_statement" | "for_in_statement" | "catch_clause" | "class_declaration"
            | "class" => binds_within(*scope, name, self.source, at).then_some(Binding::Unknown),
            _ => None,
        })
    }

    /// The binding of `name` by a parameter of `function`, if one binds it.
    fn parameter(&self, function: Node<'tree>, name: &str) -> Option<Binding<'tree>> {
        if let Some(single) = function.child_field("parameter") {
            // `x => …`
            return (syntax::text(single, self.source) == name).then_some(Binding::Parameter {
                function,
                index: 0,
                default: None,
            });
        }
        let parameters = function.child_field("parameters")?;
        for (index, parameter) in syntax::named_children(parameters)
            .into_iter()
            .filter(|parameter| parameter.kind() != "comment")
            .enumerate()
        {
            // TypeScript: `required_parameter`/`optional_parameter` with `pattern` and `value`;
            // JavaScript: an identifier, or an `assignment_pattern` with `left` and `right`.
            let (pattern, default) = match parameter.kind() {
                "required_parameter" | "optional_parameter" => (
                    parameter.child_field("pattern"),
                    parameter.child_field("value"),
                ),
                "assignment_pattern" => (
                    parameter.child_field("left"),
                    parameter.child_field("right"),
                ),
                "identifier" => (Some(parameter), None),
                _ => (None, None),
            };
            match pattern {
                Some(pattern) if pattern.kind() == "identifier" => {
                    if syntax::text(pattern, self.source) == name {
                        return Some(Binding::Parameter {
                            function,
                            index,
                            default,
                        });
                    }
                }
                // A destructuring or rest parameter that binds the name hides outer ones.
                _ => {
                    if binds_within(parameter, name, self.source, parameter) {
                        return Some(Binding::Unknown);
                    }
                }
            }
        }
        None
    }

    /// The binding of `name` by a declaration directly in the block or program `scope`.
    fn declared_in(&self, scope: Node<'tree>, name: &str) -> Option<Binding<'tree>> {
        for statement in syntax::named_children(scope) {
            let declaration = match statement.kind() {
                "export_statement" => match statement.child_field("declaration") {
                    Some(declaration) => declaration,
                    None => continue,
                },
                _ => statement,
            };
            match declaration.kind() {
                "lexical_declaration" | "variable_declaration" => {
                    let is_const = declaration
                        .child_field("kind")
                        .is_some_and(|kind| syntax::text(kind, self.source) == "const");
                    for declarator in syntax::named_children(declaration)
                        .into_iter()
                        .filter(|child| child.kind() == "variable_declarator")
                    {
                        let Some(pattern) = declarator.child_field("name") else {
                            continue;
                        };
                        if pattern.kind() == "identifier" {
                            if syntax::text(pattern, self.source) == name {
                                return Some(match declarator.child_field("value") {
                                    Some(value) if is_const => Binding::Const(value),
                                    _ => Binding::Unknown,
                                });
                            }
                        } else if binds_within(pattern, name, self.source, pattern) {
                            return Some(Binding::Unknown);
                        }
                    }
                }
                "function_declaration" | "generator_function_declaration"
                    if self.is_named(declaration, name) =>
                {
                    return Some(Binding::Function(declaration));
                }
                "class_declaration" | "abstract_class_declaration" | "enum_declaration"
                    if self.is_named(declaration, name) =>
                {
                    return Some(Binding::Unknown);
                }
                "import_statement" if binds_within(declaration, name, self.source, declaration) => {
                    return Some(Binding::Unknown);
                }
                _ => {}
            }
        }
        None
    }

    /// Whether a declaration's own name is `name`.
    fn is_named(&self, declaration: Node<'_>, name: &str) -> bool {
        declaration
            .child_field("name")
            .is_some_and(|own| syntax::text(own, self.source) == name)
    }

    /// The argument at `index` of every call of `function` in the file by its name. A call
    /// that spreads an argument at or before `index` passes nothing the trace can read.
    fn call_arguments(&mut self, function: Node<'tree>, index: usize) -> Vec<Node<'tree>> {
        let Some(name) = function_name(function, self.source) else {
            return Vec::new();
        };
        self.scans += 1;
        if self.scans > MAX_SCANS {
            self.exhausted = true;
            return Vec::new();
        }
        let mut found = Vec::new();
        let mut stack = vec![self.root];
        while let Some(node) = stack.pop() {
            if node.kind() == "call_expression" {
                let called = node.child_field("function").filter(|callee| {
                    callee.kind() == "identifier" && syntax::text(*callee, self.source) == name
                });
                if let Some(callee) = called {
                    let same = match self.lookup(callee) {
                        Binding::Function(declared) | Binding::Const(declared) => {
                            declared.id() == function.id()
                        }
                        Binding::Parameter { .. } | Binding::Unknown => false,
                    };
                    let arguments = node
                        .child_field("arguments")
                        .map(literals::arguments)
                        .unwrap_or_default();
                    let spread = arguments
                        .iter()
                        .take(index + 1)
                        .any(|argument| argument.kind() == "spread_element");
                    if same && !spread {
                        found.extend(arguments.get(index).copied());
                    }
                }
            }
            stack.extend(syntax::named_children(node));
        }
        found.sort_by_key(Node::start_byte);
        found
    }
}

/// Whether a node is a function value (`() => …`, `function () {…}`).
fn is_function(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "arrow_function" | "function_expression" | "function"
    )
}

/// The name a function is called by in its file: its own (a declaration), or the `const` it
/// is bound to.
fn function_name<'s>(function: Node<'_>, source: &'s str) -> Option<&'s str> {
    match function.kind() {
        "function_declaration" | "generator_function_declaration" => {
            Some(syntax::text(function.child_field("name")?, source))
        }
        "arrow_function" | "function_expression" | "function" => {
            let declarator = function
                .parent()
                .filter(|parent| parent.kind() == "variable_declarator")?;
            let value = declarator.child_field("value")?;
            let name = declarator
                .child_field("name")
                .filter(|name| name.kind() == "identifier" && value.id() == function.id())?;
            let declaration = declarator.parent()?;
            let is_const = declaration
                .child_field("kind")
                .is_some_and(|kind| syntax::text(kind, source) == "const");
            is_const.then(|| syntax::text(name, source))
        }
        _ => None,
    }
}

/// The values a function returns: an arrow's expression body, or the operands of the
/// `return` statements of its body outside nested functions and classes.
fn returned_values(function: Node<'_>) -> Vec<Node<'_>> {
    let Some(body) = function.child_field("body") else {
        return Vec::new();
    };
    if body.kind() != "statement_block" {
        return vec![body];
    }
    let mut found = Vec::new();
    let mut stack = vec![body];
    while let Some(node) = stack.pop() {
        for child in syntax::named_children(node) {
            match child.kind() {
                "return_statement" => found.extend(
                    syntax::named_children(child)
                        .into_iter()
                        .find(|operand| operand.kind() != "comment"),
                ),
                kind if FUNCTIONS.contains(&kind)
                    || matches!(kind, "class_declaration" | "class") => {}
                _ => stack.push(child),
            }
        }
    }
    found.sort_by_key(Node::start_byte);
    found
}

/// Whether `scope` binds `name` itself: in a `for` head, a `catch` parameter, as a class's
/// name, or (any other node) in a pattern inside it, other than `except`.
fn binds_within(scope: Node<'_>, name: &str, source: &str, except: Node<'_>) -> bool {
    let head = match scope.kind() {
        "for_statement" => scope.child_field("initializer"),
        "for_in_statement" => scope.child_field("left"),
        "catch_clause" => scope.child_field("parameter"),
        "class_declaration" | "class" => {
            return scope
                .child_field("name")
                .is_some_and(|own| syntax::text(own, source) == name);
        }
        _ => Some(scope),
    };
    let mut stack: Vec<Node<'_>> = head.into_iter().collect();
    while let Some(node) = stack.pop() {
        if matches!(
            node.kind(),
            "identifier" | "shorthand_property_identifier_pattern"
        ) && node.id() != except.id()
            && syntax::text(node, source) == name
        {
            return true;
        }
        stack.extend(syntax::named_children(node));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::category;
    use crate::syntax;

    /// The category traced for the arguments of the last `new Sequelize(…)` of `source`.
    fn traced(source: &str) -> Option<&'static str> {
        let language: tree_sitter::Language = tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into();
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&language).expect("grammar");
        let tree = parser.parse(source, None).expect("tree");
        let root = tree.root_node();
        let construction = syntax::descendants(root)
            .filter(|node| node.kind() == "new_expression")
            .last()
            .expect("a construction");
        let arguments = super::literals::arguments(
            syntax::ChildField::child_field(&construction, "arguments").expect("arguments"),
        );
        category(root, source, &["dialect"], &arguments)
    }

    #[test]
    fn names_that_refer_to_each_other_end_the_trace_without_an_answer() {
        let source = "const a = b || { dialect: 'postgres' };\nconst b = a;\nnew Sequelize(a);\n";
        assert_eq!(traced(source), None);
    }

    #[test]
    fn a_long_chain_of_alternatives_runs_out_of_steps_without_an_answer() {
        let chain = (0..5_000)
            .map(|index| format!("x{index}"))
            .collect::<Vec<_>>()
            .join(" || ");
        let source = format!("new Sequelize({chain} || {{ dialect: 'mysql' }});\n");
        assert_eq!(traced(&source), None);
        assert_eq!(
            traced("new Sequelize(x1 || x2 || { dialect: 'mysql' });\n"),
            Some("mysql")
        );
    }

    #[test]
    fn a_function_that_calls_itself_ends_the_trace_without_an_answer() {
        let source = "function cfg(n: number): object {\n  return n > 0 ? cfg(n - 1) : { dialect: 'sqlite' };\n}\nnew Sequelize(cfg(3));\n";
        // Its returns reach the literal and itself; the trace stops at its depth bound and
        // answers nothing rather than a partial reading.
        assert_eq!(traced(source), None);
    }
}

//! The strings a Python module's settings stand for, read as data (nothing is run).
//!
//! Django settings and Celery configs often read a setting from the environment with a literal
//! default, and name it through a module-level constant:
//!
//! ```python
//! _CHANNELS_BACKEND = os.environ.get("CHANNELS_BACKEND", "channels_redis.pubsub.RedisPubSubChannelLayer")
//! REDIS_URL = os.getenv("REDIS_URL", "redis://localhost:6379")
//! CELERY_BROKER_URL = REDIS_URL
//! ```
//!
//! The default is what the project ships, so it stands for the value; the fact's reason says it
//! is the default of the environment variable. A value is a string literal (an f-string keeps
//! its literal parts: `f"amqp://{user}@{host}"` reads `amqp://@`), either arm of a conditional
//! expression (`"a" if DEBUG else "b"`), the literal default of an environment read
//! (`os.environ.get("X", "d")`, `os.getenv("X", "d")`, `environ.get`, `getenv`, django-environ's
//! `env("X", default="d")` and `env.str`/`env.url`, python-decouple's `config("X", default="d")`),
//! or a module-level name of the file assigned once (module level, or inside module-level `if`,
//! `try` and `with` blocks) to one of these, followed a few names deep. A name assigned twice,
//! or inside a function or class, stands for nothing.

use std::collections::BTreeMap;

use tree_sitter::Node;

use crate::syntax::ChildField;
use crate::syntax::{self, named_children};

/// How many names deep a value is followed (`A = B`, `B = os.getenv("X", "d")`).
const DEPTH: usize = 4;

/// How many strings a value may be, at most: the rest are not looked for.
const VALUES: usize = 8;

/// How deep in one expression a value is looked for (parentheses, conditional arms).
const NESTING: usize = 16;

/// The calls that read an environment variable, whose default (second argument or `default=`)
/// stands for the value the project ships.
const ENVIRONMENT_READS: [&str; 8] = [
    "os.environ.get",
    "os.getenv",
    "environ.get",
    "getenv",
    "env",
    "env.str",
    "env.url",
    "config",
];

/// One string a value may be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Value {
    /// Its text (an f-string's literal parts).
    pub text: String,
    /// The environment variable whose default it is, if any.
    pub env: Option<String>,
    /// Whether it was an f-string with holes (its text is not the whole value).
    pub interpolated: bool,
}

/// The module-level names of a file and the expressions assigned them once, read on first
/// use: most files have no client call or setting whose value is asked for.
pub(crate) struct ModuleValues<'tree> {
    root: Node<'tree>,
    read: std::cell::OnceCell<Module<'tree>>,
}

/// What [`ModuleValues`] reads of a module.
struct Module<'tree> {
    /// Each name with its one right-hand side, `None` when assigned more than once.
    names: BTreeMap<String, Option<Node<'tree>>>,
    /// The module-level functions, by name.
    functions: BTreeMap<String, Node<'tree>>,
}

impl<'tree> ModuleValues<'tree> {
    /// The module-level values of `root`, read when first asked for.
    pub fn of(root: Node<'tree>) -> Self {
        Self {
            root,
            read: std::cell::OnceCell::new(),
        }
    }

    /// The module's names and functions, read from `source` on the first call.
    fn module(&self, source: &str) -> &Module<'tree> {
        self.read.get_or_init(|| Module::of(self.root, source))
    }
}

/// The statements a module runs at its top level: those of the module and of its top-level
/// `if`, `try` and `with` blocks (not of its functions and classes).
pub(crate) fn module_level(root: Node<'_>) -> Vec<Node<'_>> {
    let mut statements = Vec::new();
    let mut blocks = vec![root];
    while let Some(block) = blocks.pop() {
        for statement in named_children(block) {
            match statement.kind() {
                "if_statement" | "elif_clause" | "else_clause" | "try_statement"
                | "except_clause" | "finally_clause" | "with_statement" | "block" => {
                    blocks.push(statement);
                }
                _ => statements.push(statement),
            }
        }
    }
    statements
}

/// The plain assignments (`X = …`, not `X += …`) a module runs at its top level, each as its
/// left and right side.
pub(crate) fn module_assignments(root: Node<'_>) -> Vec<(Node<'_>, Node<'_>)> {
    module_level(root)
        .into_iter()
        .filter(|statement| statement.kind() == "expression_statement")
        .flat_map(named_children)
        .filter(|assignment| assignment.kind() == "assignment")
        .filter_map(|assignment| {
            Some((
                assignment.child_field("left")?,
                assignment.child_field("right")?,
            ))
        })
        .collect()
}

impl<'tree> Module<'tree> {
    /// Reads the module-level assignments and functions of `root`.
    fn of(root: Node<'tree>, source: &str) -> Self {
        let mut names: BTreeMap<String, Option<Node<'tree>>> = BTreeMap::new();
        let mut functions = BTreeMap::new();
        for statement in module_level(root) {
            match statement.kind() {
                "expression_statement" => {}
                "function_definition" => {
                    if let Some(name) = statement.child_field("name") {
                        functions.insert(syntax::text(name, source).to_owned(), statement);
                    }
                    continue;
                }
                _ => continue,
            }
            for assignment in named_children(statement) {
                if assignment.kind() != "assignment" && assignment.kind() != "augmented_assignment"
                {
                    continue;
                }
                let Some(left) = assignment.child_field("left") else {
                    continue;
                };
                let right = assignment.child_field("right");
                let targets = match left.kind() {
                    "identifier" => vec![left],
                    "pattern_list" | "tuple_pattern" => named_children(left),
                    _ => continue,
                };
                let single = targets.len() == 1 && assignment.kind() == "assignment";
                for target in targets {
                    if target.kind() != "identifier" {
                        continue;
                    }
                    let name = syntax::text(target, source).to_owned();
                    let value = right.filter(|_| single);
                    names
                        .entry(name)
                        .and_modify(|bound| *bound = None)
                        .or_insert(value);
                }
            }
        }
        Self { names, functions }
    }
}

impl<'tree> ModuleValues<'tree> {
    /// The strings `node` may stand for (none when unknown).
    pub fn values(&self, node: Node<'tree>, source: &str) -> Vec<Value> {
        let mut values = Vec::new();
        self.collect(node, source, None, (DEPTH, NESTING), &mut values);
        values
    }

    /// The dictionary a module-level function of the file returns, when its body ends with
    /// `return {…}` and it takes no parameters (`CACHES = _parse_caches()`).
    pub fn returned_dictionary(&self, call: Node<'tree>, source: &str) -> Option<Node<'tree>> {
        let function = call.child_field("function")?;
        if function.kind() != "identifier" {
            return None;
        }
        let arguments = call.child_field("arguments")?;
        if !named_children(arguments).is_empty() {
            return None;
        }
        let definition = self
            .module(source)
            .functions
            .get(syntax::text(function, source))?;
        let parameters = definition.child_field("parameters")?;
        if !named_children(parameters).is_empty() {
            return None;
        }
        let body = definition.child_field("body")?;
        let last = named_children(body)
            .into_iter()
            .rfind(|statement| statement.kind() != "comment")?;
        if last.kind() != "return_statement" {
            return None;
        }
        named_children(last)
            .into_iter()
            .next()
            .filter(|value| value.kind() == "dictionary")
    }

    fn collect(
        &self,
        node: Node<'tree>,
        source: &str,
        env: Option<&str>,
        (depth, nesting): (usize, usize),
        values: &mut Vec<Value>,
    ) {
        let Some(nesting) = nesting.checked_sub(1).filter(|_| values.len() < VALUES) else {
            return;
        };
        match node.kind() {
            "string" => {
                let mut text = String::new();
                let mut interpolated = false;
                for part in named_children(node) {
                    match part.kind() {
                        "string_start" | "string_end" => {}
                        "string_content" => text.push_str(syntax::text(part, source)),
                        _ => interpolated = true,
                    }
                }
                values.push(Value {
                    text,
                    env: env.map(str::to_owned),
                    interpolated,
                });
            }
            "parenthesized_expression" => {
                if let Some(inner) = named_children(node)
                    .into_iter()
                    .find(|inner| inner.kind() != "comment")
                {
                    self.collect(inner, source, env, (depth, nesting), values);
                }
            }
            "conditional_expression" => {
                let arms: Vec<Node<'tree>> = named_children(node)
                    .into_iter()
                    .filter(|arm| arm.kind() != "comment")
                    .collect();
                for arm in [arms.first(), arms.get(2)].into_iter().flatten() {
                    self.collect(*arm, source, env, (depth, nesting), values);
                }
            }
            "identifier" if depth > 0 => {
                if let Some(Some(right)) = self.module(source).names.get(syntax::text(node, source))
                {
                    self.collect(*right, source, env, (depth - 1, NESTING), values);
                }
            }
            "call" if depth > 0 => {
                if let Some((variable, default)) = environment_default(node, source) {
                    self.collect(
                        default,
                        source,
                        Some(&variable),
                        (depth - 1, nesting),
                        values,
                    );
                }
            }
            _ => {}
        }
    }
}

/// The variable and the default of an environment read (`os.getenv("X", "d")` → `("X", "d")`).
fn environment_default<'tree>(call: Node<'tree>, source: &str) -> Option<(String, Node<'tree>)> {
    let function = call.child_field("function")?;
    let callee = syntax::text(function, source);
    if !ENVIRONMENT_READS.contains(&callee) {
        return None;
    }
    let arguments: Vec<Node<'tree>> = named_children(call.child_field("arguments")?)
        .into_iter()
        .filter(|argument| argument.kind() != "comment")
        .collect();
    let variable = arguments.first().filter(|first| first.kind() == "string")?;
    let variable: String = named_children(*variable)
        .into_iter()
        .map(|part| match part.kind() {
            "string_start" | "string_end" => Some(""),
            "string_content" => Some(syntax::text(part, source)),
            _ => None,
        })
        .collect::<Option<String>>()?;
    let default = arguments.iter().skip(1).find_map(|argument| {
        if argument.kind() == "keyword_argument" {
            let name = argument.child_field("name")?;
            (syntax::text(name, source) == "default").then(|| argument.child_field("value"))?
        } else {
            Some(*argument)
        }
    })?;
    Some((variable, default))
}

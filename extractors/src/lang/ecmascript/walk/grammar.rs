//! The node kinds the walk tells apart, and their ids in one grammar (TypeScript, TSX or
//! JavaScript).

use super::*;

/// The node kinds the walk tells apart; everything else is `Other`. Kinds are compared by name
/// (as `Node::kind` would), so one entry may stand for several symbol ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Other,
    ImportStatement,
    ExportStatement,
    ImportRequireClause,
    Comment,
    CallExpression,
    NewExpression,
    MemberExpression,
    AssignmentExpression,
    Decorator,
    MethodDefinition,
    FormalParameters,
    RequiredParameter,
    OptionalParameter,
    TypeAnnotation,
    Arguments,
    Identifier,
    TypeIdentifier,
    NestedTypeIdentifier,
    PropertyIdentifier,
    ShorthandPropertyIdentifier,
    ShorthandPropertyIdentifierPattern,
    String,
    Object,
    Import,
    /// The JavaScript grammar's `extends` part of a class (the TypeScript grammars' holds an
    /// `extends_clause`).
    ClassHeritage,
    /// The TypeScript grammars' `extends` part of a class.
    ExtendsClause,
    /// `type_annotation`, `type_arguments`, … (`usage::TYPE_CONTEXTS`) other than those above.
    TypeContext,
    /// A class (`class_declaration`, `class`, `abstract_class_declaration`).
    Class,
    /// `function_declaration`, `generator_function_declaration`.
    FunctionDeclaration,
    /// `function_expression`, `arrow_function`, `generator_function`.
    FunctionExpression,
    VariableDeclarator,
    AssignmentPattern,
}

impl Kind {
    pub(super) fn of_name(name: &str) -> Kind {
        match name {
            "import_statement" => Kind::ImportStatement,
            "export_statement" => Kind::ExportStatement,
            "import_require_clause" => Kind::ImportRequireClause,
            "comment" => Kind::Comment,
            "call_expression" => Kind::CallExpression,
            "new_expression" => Kind::NewExpression,
            "member_expression" => Kind::MemberExpression,
            "assignment_expression" => Kind::AssignmentExpression,
            "decorator" => Kind::Decorator,
            "method_definition" => Kind::MethodDefinition,
            "formal_parameters" => Kind::FormalParameters,
            "required_parameter" => Kind::RequiredParameter,
            "optional_parameter" => Kind::OptionalParameter,
            "type_annotation" => Kind::TypeAnnotation,
            "arguments" => Kind::Arguments,
            "identifier" => Kind::Identifier,
            "type_identifier" => Kind::TypeIdentifier,
            "nested_type_identifier" => Kind::NestedTypeIdentifier,
            "property_identifier" => Kind::PropertyIdentifier,
            "shorthand_property_identifier" => Kind::ShorthandPropertyIdentifier,
            "shorthand_property_identifier_pattern" => Kind::ShorthandPropertyIdentifierPattern,
            "string" => Kind::String,
            "object" => Kind::Object,
            "import" => Kind::Import,
            "class_heritage" => Kind::ClassHeritage,
            "extends_clause" => Kind::ExtendsClause,
            "class_declaration" | "class" | "abstract_class_declaration" => Kind::Class,
            "function_declaration" | "generator_function_declaration" => Kind::FunctionDeclaration,
            "function_expression" | "arrow_function" | "generator_function" => {
                Kind::FunctionExpression
            }
            "variable_declarator" => Kind::VariableDeclarator,
            "assignment_pattern" => Kind::AssignmentPattern,
            name if super::usage::TYPE_CONTEXTS.contains(&name) => Kind::TypeContext,
            _ => Kind::Other,
        }
    }

    /// Whether the whole subtree of a node of this kind is a type position.
    pub(super) fn is_type_context(self) -> bool {
        // `type_annotation` and `nested_type_identifier` have kinds of their own.
        matches!(
            self,
            Kind::TypeContext | Kind::TypeAnnotation | Kind::NestedTypeIdentifier
        )
    }

    /// Whether an identifier under a node of this kind may be a name it declares.
    pub(super) fn may_declare(self) -> bool {
        matches!(
            self,
            Kind::VariableDeclarator
                | Kind::FunctionDeclaration
                | Kind::Class
                | Kind::RequiredParameter
                | Kind::OptionalParameter
                | Kind::FormalParameters
                | Kind::AssignmentPattern
                | Kind::FunctionExpression
        )
    }

    /// Whether a node of this kind contributes to `evidence.scope` (see `scope`).
    pub(super) fn opens_scope(self) -> bool {
        matches!(
            self,
            Kind::MethodDefinition
                | Kind::FunctionDeclaration
                | Kind::FunctionExpression
                | Kind::Class
                | Kind::Object
        )
    }
}

/// The kinds and fields of one grammar, by id.
pub(super) struct Grammar {
    pub(super) kinds: Vec<Kind>,
    pub(super) function: Option<u16>,
    pub(super) arguments: Option<u16>,
    pub(super) constructor: Option<u16>,
    pub(super) source: Option<u16>,
    pub(super) object: Option<u16>,
    pub(super) property: Option<u16>,
    pub(super) left: Option<u16>,
    pub(super) right: Option<u16>,
    pub(super) name: Option<u16>,
    pub(super) parameters: Option<u16>,
    pub(super) type_field: Option<u16>,
    pub(super) value: Option<u16>,
}

impl Grammar {
    pub(super) fn new(language: &tree_sitter::Language) -> Grammar {
        let count = u16::try_from(language.node_kind_count()).unwrap_or(u16::MAX);
        let kinds = (0..count)
            .map(|id| {
                language
                    .node_kind_for_id(id)
                    .map_or(Kind::Other, Kind::of_name)
            })
            .collect();
        let field = |name: &str| language.field_id_for_name(name).map(u16::from);
        Grammar {
            kinds,
            function: field("function"),
            arguments: field("arguments"),
            constructor: field("constructor"),
            source: field("source"),
            object: field("object"),
            property: field("property"),
            left: field("left"),
            right: field("right"),
            name: field("name"),
            parameters: field("parameters"),
            type_field: field("type"),
            value: field("value"),
        }
    }

    /// The cached grammar of `language`, one of TypeScript, TSX and JavaScript.
    pub(super) fn cached(language: Language) -> Option<&'static OnceLock<Grammar>> {
        static TYPESCRIPT: OnceLock<Grammar> = OnceLock::new();
        static TSX: OnceLock<Grammar> = OnceLock::new();
        static JAVASCRIPT: OnceLock<Grammar> = OnceLock::new();
        match language {
            Language::TypeScript => Some(&TYPESCRIPT),
            Language::Tsx => Some(&TSX),
            Language::JavaScript => Some(&JAVASCRIPT),
            _ => None,
        }
    }

    pub(super) fn kind(&self, node: Node<'_>) -> Kind {
        self.kinds
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(Kind::Other)
    }

    /// The kind of a named node (query patterns name only named nodes); `Other` otherwise.
    pub(super) fn named_kind(&self, node: Node<'_>) -> Kind {
        if node.is_named() {
            self.kind(node)
        } else {
            Kind::Other
        }
    }

    pub(super) fn child<'tree>(
        &self,
        node: Node<'tree>,
        field: Option<u16>,
    ) -> Option<Node<'tree>> {
        node.child_by_field_id(field?)
    }
}

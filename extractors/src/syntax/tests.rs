use super::{compact, compact_text, descendants, parse, unspaced_text, ChildField};

/// `child_field` finds what `child_by_field_name` finds, for every node of trees in three
/// grammars whose ids for the same field names differ, read in turn so that the cache holds
/// each language's ids side by side, and for a name no grammar has.
#[test]
fn child_field_finds_the_child_by_field_name_finds_in_every_grammar() {
    type Grammar = fn() -> tree_sitter::Language;
    let sources: [(Grammar, &str); 3] = [
        (
            || tree_sitter_python::LANGUAGE.into(),
            "def f(a, b=1):\n    x.y = g(a, k=b)\n    return [v for v in a if v]\n",
        ),
        (
            || tree_sitter_go::LANGUAGE.into(),
            "package p\nfunc (s *S) F(a int) int { s.x = g(a); return a }\n",
        ),
        (
            || tree_sitter_java::LANGUAGE.into(),
            "class A { int f(int a) { this.x = g(a); return new B(a).c(); } }\n",
        ),
    ];
    let names: [&'static str; 12] = [
        "name",
        "body",
        "function",
        "arguments",
        "value",
        "left",
        "right",
        "object",
        "parameters",
        "result",
        "type",
        "no_such_field",
    ];
    let trees: Vec<_> = sources
        .iter()
        .map(|(grammar, source)| parse(*grammar, source).expect("the grammar loads"))
        .collect();
    let mut compared = 0;
    for _ in 0..2 {
        for tree in &trees {
            for node in descendants(tree.root_node()) {
                for name in names {
                    assert_eq!(
                        node.child_field(name),
                        node.child_by_field_name(name),
                        "{name} of {}",
                        node.kind()
                    );
                    compared += usize::from(node.child_field(name).is_some());
                }
            }
        }
    }
    assert!(compared > 40, "only {compared} fields found");
}

/// `compact` is the words joined by single spaces, then cut to the limit in characters.
#[test]
fn compact_joins_the_words_and_cuts_at_the_limit() {
    let values = [
        "",
        "   ",
        "a",
        "  a  b\n\t c  ",
        "new Foo(\n    a,\n    b)",
        "x\u{00a0}y\u{2003}z",
        "héllo wörld ∑ ok",
        "ab cd",
        "ab  cd ef",
    ];
    for value in values {
        for limit in 0..12 {
            let words: Vec<&str> = value.split_whitespace().collect();
            let expected: String = words.join(" ").chars().take(limit).collect();
            assert_eq!(compact(value, limit), expected, "{value:?} cut to {limit}");
        }
    }
}

/// On a line long enough to keep running counts, with characters of one to four bytes
/// before, across and after the counts' strides, every node's span is the one counting
/// each node's line afresh gives, in any order of asking (the counts are made by the first
/// node placed on the line, wherever it is).
#[test]
fn columns_on_long_lines_are_the_characters_before_the_node() {
    let mut line = String::new();
    for index in 0..1500 {
        let text = ["\"é\"", "\"∑\"", "\"😀\"", "\"a\""][index % 4];
        line.push_str(&format!("x{index}.f({text}); "));
    }
    let source = format!("let a = 1;\n{line}\nlet b = \"ü\"; {line}\n");
    assert!(line.len() > 4 * super::LONG_LINE);
    let tree = parsed(crate::language::Language::TypeScript, &source);
    let nodes: Vec<_> = super::descendants(tree.root_node()).collect();
    let afresh = |node: tree_sitter::Node<'_>| {
        let end = node.end_position();
        (
            super::start_position(node, &source),
            super::position(&source, node.end_byte(), end.row, end.column),
        )
    };
    let long = nodes
        .iter()
        .filter(|node| node.start_position().column >= super::LONG_LINE)
        .count();
    assert!(long > 1000, "{long} nodes far into a long line");
    for order in [nodes.clone(), nodes.iter().rev().copied().collect()] {
        let columns = super::Columns::new(&source);
        for node in &order {
            assert_eq!(columns.span(*node), afresh(*node), "{node:?}");
        }
        assert_eq!(
            columns.long_lines.borrow().len(),
            2,
            "one count table per long line"
        );
    }
}

/// The eager reading [`super::CommentFree`] replaced: the whole text, each comment cut out
/// for a space, before any cut to a limit.
fn without_comments(node: tree_sitter::Node<'_>, source: &str) -> Option<String> {
    let written = super::text(node, source);
    if !written.bytes().any(|byte| matches!(byte, b'/' | b'#')) {
        return None;
    }
    // The comments start where the text has a comment marker: each is found from there.
    let start = node.start_byte();
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    for (offset, _) in written.match_indices(['/', '#']) {
        let marker = written.get(offset..).unwrap_or_default();
        if !(marker.starts_with("//") || marker.starts_with("/*") || marker.starts_with('#'))
            || cuts.last().is_some_and(|(_, end)| offset < *end)
        {
            continue;
        }
        let Some(found) = node.descendant_for_byte_range(start + offset, start + offset + 1) else {
            continue;
        };
        if found.kind().contains("comment") && found.start_byte() == start + offset {
            cuts.push((offset, found.end_byte().saturating_sub(start)));
        }
    }
    if cuts.is_empty() {
        return None;
    }
    let mut kept = String::with_capacity(written.len());
    let mut at = 0;
    for (from, to) in cuts {
        kept.push_str(written.get(at..from).unwrap_or_default());
        kept.push(' ');
        at = to;
    }
    kept.push_str(written.get(at..).unwrap_or_default());
    Some(kept)
}

/// Reading a node's text lazily, comment by comment, as far as a limit, gives what cutting
/// the comments out of the whole text first and then compacting gives, for every node of
/// sources with line, block and `#` comments, division, and markers inside strings.
#[test]
fn lazy_comment_removal_reads_as_the_eager_one() {
    let cases = [
        (
            crate::language::Language::Java,
            "class A { void f() { http /* retry */ .retry(a / b, \"//x\")\n  // c\n  .go(); } }\n",
        ),
        (
            crate::language::Language::Kotlin,
            "fun f() { a\n  // one\n  .b(/* two */ c)\n  .d(\"#e\", 4 / 2) }\n",
        ),
        (
            crate::language::Language::Python,
            "x = (a  # one\n  .b(c / d, '#')\n  .e)\n",
        ),
        (
            crate::language::Language::TypeScript,
            "const x = a /* one */ .b(`//${c}`) // two\n  .d(e / f);\n",
        ),
    ];
    let mut compared = 0;
    for (language, source) in cases {
        let tree = parsed(language, source);
        for node in super::descendants(tree.root_node()) {
            let eager = without_comments(node, source);
            let text = eager.as_deref().unwrap_or(super::text(node, source));
            for limit in [0, 1, 2, 3, 5, 8, 13, 21, 34, 1000] {
                assert_eq!(
                    super::compact_text(node, source, limit),
                    compact(text, limit),
                    "{language:?} {node:?} {limit}"
                );
                // The unspaced text stops where the compacted one, with its single
                // spaces, would pass the limit.
                assert_eq!(
                    super::unspaced_text(node, source, limit),
                    compact(text, limit).replace(' ', ""),
                    "{language:?} {node:?} {limit}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 500, "{compared}");
}

/// `source` parsed as `language`.
fn parsed(language: crate::language::Language, source: &str) -> tree_sitter::Tree {
    language
        .spec()
        .tree_sitter()
        .and_then(|backend| super::parse(backend.grammar, source))
        .expect("the grammar parses")
}

/// `first_named_child` finds what a search of `named_children` finds, for every node and
/// every kind of a tree.
#[test]
fn first_named_child_is_the_first_of_named_children() {
    let source = "// c\npackage a.b;\nimport x.Y;\nimport z.*;\nclass C { void f() {} }\n";
    let tree = parsed(crate::language::Language::Java, source);
    let nodes: Vec<_> = super::descendants(tree.root_node()).collect();
    let kinds: std::collections::BTreeSet<&str> = nodes.iter().map(|node| node.kind()).collect();
    let mut found = 0;
    for node in &nodes {
        for kind in &kinds {
            let expected = super::named_children(*node)
                .into_iter()
                .find(|child| child.kind() == *kind);
            let first = super::first_named_child(*node, kind);
            assert_eq!(first.map(|n| n.id()), expected.map(|n| n.id()), "{kind}");
            found += usize::from(first.is_some());
        }
    }
    assert!(found > 10, "{found}");
    assert!(super::first_named_child(tree.root_node(), "package_declaration").is_some());
}

/// `ancestors_into` gives every node the chain `ancestors` gives it, whatever node was
/// asked before (in source order, backwards, a descendant with the same range), and for
/// empty (`MISSING`) nodes.
#[test]
fn ancestors_into_is_ancestors_after_any_node() {
    // Java with `MISSING` nodes; Python where a statement, its expression and a name
    // share one range.
    let cases = [
        (
            crate::language::Language::Java,
            "class A {\n  void f() { int x = q.r }\n  class B { void g() { return } }\n  \
             int z = p.\n  void h() { x.y(z -> { w(); }); }\n}\n",
        ),
        (
            crate::language::Language::Python,
            "x\nif a:\n    b\n    c.d(e)\n",
        ),
    ];
    let mut missing = false;
    for (language, source) in cases {
        let tree = parsed(language, source);
        let nodes: Vec<_> = super::descendants(tree.root_node()).collect();
        missing |= nodes.iter().any(|node| node.is_missing());
        let ids = |chain: &[tree_sitter::Node<'_>]| {
            chain.iter().map(|node| node.id()).collect::<Vec<_>>()
        };
        // Source order, backwards, and each node right after its deepest first descendant.
        let mut deep_first = Vec::new();
        for node in &nodes {
            let mut leaf = *node;
            while let Some(child) = leaf.child(0) {
                leaf = child;
            }
            deep_first.extend([leaf, *node]);
        }
        for order in [
            nodes.clone(),
            nodes.iter().rev().copied().collect(),
            deep_first,
        ] {
            let mut chain = Vec::new();
            for node in order {
                super::ancestors_into(tree.root_node(), node, &mut chain);
                assert_eq!(
                    ids(&chain),
                    ids(&super::ancestors(tree.root_node(), node)),
                    "{} at {}",
                    node.kind(),
                    node.start_position()
                );
            }
        }
    }
    assert!(missing, "a MISSING node");
}

/// Comments inside a node are no part of its compact text; a `//` in a string is.
#[test]
fn compact_text_leaves_comments_out() {
    let source = "api /* client */\n  .get('http://x/y') // all\n  .then(f);\n";
    let tree = parsed(crate::language::Language::TypeScript, source);
    let statement = tree.root_node().named_child(0).unwrap();
    assert_eq!(
        compact_text(statement, source, 200),
        "api .get('http://x/y') .then(f);"
    );
    assert_eq!(
        unspaced_text(statement, source, 200),
        "api.get('http://x/y').then(f);"
    );
    let python = "f(a,  # first\n  b)\n";
    let tree = parsed(crate::language::Language::Python, python);
    assert_eq!(
        compact_text(tree.root_node(), python, 200),
        "f(a, b)",
        "a Python comment"
    );
}

/// `unspaced_text` is `compact_text` without its spaces, for every node and limit.
#[test]
fn unspaced_text_is_compact_text_without_spaces() {
    let source =
        "fun f() {\n  val x =  Request . Builder ( )\n\t.url( \"a  b\" )  // c\n  é.ü .x }\n";
    let tree = parsed(crate::language::Language::Kotlin, source);
    let mut pending = vec![tree.root_node()];
    let mut compared = 0;
    while let Some(node) = pending.pop() {
        for limit in [0, 1, 2, 3, 4, 7, 12, 400] {
            assert_eq!(
                unspaced_text(node, source, limit),
                compact_text(node, source, limit).replace(' ', ""),
                "{node:?} at {limit}"
            );
            compared += 1;
        }
        let mut cursor = node.walk();
        pending.extend(node.children(&mut cursor));
    }
    assert!(compared > 100, "{compared}");
}

/// Errors counted in `source`, parsed as the file `path`.
fn errors_in(path: &str, source: &str) -> usize {
    let language = crate::language::Language::for_path(path).expect("a source path");
    super::count_parse_errors(&parsed(language, source), source).count
}

/// The errors of `source`, parsed as the file `path`: their count and the first's position.
fn errors_of(path: &str, source: &str) -> super::ParseErrors {
    let language = crate::language::Language::for_path(path).expect("a source path");
    super::count_parse_errors(&parsed(language, source), source)
}

/// A wasm-bindgen `extern` block's `pub type Modal;` (lldap's Yew front end) is valid Rust that
/// tree-sitter-rust reads only without the visibility: no parse error; a broken item there is one.
#[test]
fn rust_foreign_types_with_a_visibility_are_no_parse_errors() {
    let source = "#[wasm_bindgen]\nextern \"C\" {\n    #[wasm_bindgen(js_namespace = bootstrap)]\n    pub type Modal;\n    pub(crate) type Tooltip;\n    #[wasm_bindgen(constructor)]\n    pub fn new(e: Element) -> Modal;\n}\n";
    assert_eq!(errors_in("a.rs", source), 0);
    assert_eq!(errors_in("a.rs", "extern {\n    type Plain;\n}\n"), 0);
    assert_eq!(errors_in("a.rs", "extern {\n    pub type = 1;\n}\n"), 1);
    assert_eq!(errors_in("a.rs", "mod m {\n    pub type Modal;\n}\n"), 1);
}

#[test]
fn the_first_parse_error_is_the_earliest_in_the_file_however_many_there_are() {
    // Thousands of errors down a deep tree (`x && x && …` is a chain of Python syntax
    // errors): each counted once, the first where the file has it.
    let chain = format!("x{}\n", " && x".repeat(3000));
    let errors = errors_of("a.py", &chain);
    assert_eq!((errors.count, errors.first), (3000, Some((1, 4))));
    // The walk meets later errors first (the stack pops the last child first): the earliest
    // is still the first, its column counted in characters.
    let errors = errors_of("a.py", "a = 1\nbé = )\nc = 2\nd = )\n");
    assert_eq!((errors.count, errors.first), (2, Some((2, 6))));
    let errors = errors_of("a.ts", "const ok = 1;\nconst b = ;\nconst c = ;\n");
    assert_eq!((errors.count, errors.first), (2, Some((2, 9))));
}

/// tree-sitter-swift reads `#warning(…)` and `#error(…)` among statements but not among a
/// type's members: extraction reads such a file without them (their lines blanked), and
/// places what follows where it is written; a file whose errors are elsewhere keeps them.
#[test]
fn swift_compiler_diagnostics_among_members_are_read_without_them() {
    let source = "class A {\n    func f() {}\n    #warning(\"é later\")\n    #error (\"no\")\n    func g() {}\n}\n";
    assert_read_around_a_gap("a.swift", source);
    let blanked = crate::lang::swift::without_diagnostics(source).expect("two diagnostics");
    assert_eq!(blanked.len(), source.len());
    assert_eq!(blanked.lines().count(), source.lines().count());
    assert_eq!(
        blanked.find("func g()"),
        source.find("func g()"),
        "what follows keeps its offset"
    );
    assert_eq!(
        crate::lang::swift::without_diagnostics("func f() {}\n"),
        None
    );
    // A `#warning` in a string is no directive line, and other errors stay.
    assert_eq!(
        crate::lang::swift::without_diagnostics("let s = \"#warning(x)\"\n"),
        None
    );
    let broken = "class A {\n    #warning(\"x\")\n    let = \n}\n";
    assert!(crate::parse_only("a.swift", broken).is_some_and(|errors| errors > 0));
}

/// A Swift `#if` group that gives a declaration different attributes is an error to
/// tree-sitter-swift; extraction reads the file with the directive lines blanked and every
/// branch kept (the attributes of all branches stand before the declaration).
#[test]
fn swift_groups_that_split_attributes_from_their_declaration_are_read_with_every_branch() {
    let source = "struct S {\n  #if Deprecations\n    @available(*, deprecated, message: \"m\")\n  #elseif os(iOS)\n    @available(iOS, deprecated: 9999)\n  #else\n    @available(\n      macOS,\n      deprecated: 9999\n    )\n  #endif\n  public func f() {}\n  #warning(\"w\")\n}\n";
    assert_read_around_a_gap("a.swift", source);
}

/// Kotlin 2.2's context parameters are errors to tree-sitter-kotlin-ng (and its context
/// receivers among a class's members): extraction reads a list of plain types as an
/// annotation naming them, and blanks any other.
#[test]
fn kotlin_context_parameter_lists_are_read_as_annotations_or_without_them() {
    let source = "context(project: Project)\nfun f() {}\n\nclass A {\n    context(a: A<B, C>, log: (String) -> Unit)\n    fun g() = 1\n    context(Scope, _: Other) fun h() = \"é\"\n}\n";
    assert_kotlin_rewrite(
        crate::lang::kotlin::without_context_parameters,
        source,
        &[
            "@ontext(         Project)",
            "fun f() {}",
            "",
            "class A {",
            "",
            "fun g() = 1",
            "@ontext(Scope,    Other) fun h() = \"é\"",
            "}",
        ],
        // A call of a function named `context`, or a list not closed on its line.
        &[
            "val c = context(a)\n",
            "fun f() = context(x)\n",
            "context(\n  a: A,\n)\nfun f() {}\n",
        ],
    );
}

/// Kotlin 2.1's multi-dollar strings are errors to tree-sitter-kotlin-ng: extraction reads
/// them with their `$` prefix blanked, as strings of the same text.
#[test]
fn kotlin_multi_dollar_strings_are_read_without_their_prefix() {
    let source = "class A {\n    val json = $$\"\"\"\n      {\"id\": \"$$id\", \"cost\": \"$9\"}\n    \"\"\"\n    fun f(name: String) = name.endsWith($$$\"$$$serializer\")\n}\n";
    assert_kotlin_rewrite(
        crate::lang::kotlin::without_multi_dollar_prefixes,
        source,
        &[
            "class A {",
            "val json =   \"\"\"",
            "{\"id\": \"$$id\", \"cost\": \"$9\"}",
            "\"\"\"",
            "fun f(name: String) = name.endsWith(   \"$$$serializer\")",
            "}",
        ],
        // A string that ends in `$$` starts none; a file without a prefix.
        &["val s = \"a$$\"\n", "val s = \"$x\"\n"],
    );
}

/// A type annotation on a varargs parameter (JSpecify's `String @Nullable ... items`, halo's API
/// module) is an error to tree-sitter-java: extraction reads it with those annotations blanked.
#[test]
fn java_annotated_varargs_are_read_without_their_type_annotations() {
    let source = "import org.jspecify.annotations.Nullable;\n\nclass Lists {\n    static String[] of(String @Nullable ... items) {\n        return items;\n    }\n\n    static Object first(Object @org.jspecify.annotations.Nullable @Size(max = 2) ... xs) {\n        return xs[0];\n    }\n}\n";
    assert_read_around_a_gap("A.java", source);
    let read = crate::lang::java::without_vararg_annotations(source).expect("a rewrite");
    assert_eq!(read.len(), source.len());
    assert_eq!(
        read.lines().map(str::trim).collect::<Vec<_>>(),
        [
            "import org.jspecify.annotations.Nullable;",
            "",
            "class Lists {",
            "static String[] of(String           ... items) {",
            "return items;",
            "}",
            "",
            "static Object first(Object                                                   ... xs) {",
            "return xs[0];",
            "}",
            "}",
        ]
    );
    // A declaration annotation before the type, and varargs without one, are left as written.
    for unchanged in [
        "class A { void f(@Nullable String... s) {} }\n",
        "class A { void f(String ... s) {} }\n",
    ] {
        assert_eq!(
            crate::lang::java::without_vararg_annotations(unchanged),
            None,
            "{unchanged}"
        );
    }
}

/// Annotated accessors and a constructor whose line starts with an annotation or `actual`
/// end their declaration early to tree-sitter-kotlin-ng: extraction reads them with those
/// annotations and modifiers blanked.
#[test]
fn kotlin_annotated_accessors_and_constructors_are_read_without_their_annotations() {
    let source = "class Q {\n  var v: Int = 0\n    @Synchronized get() = field\n    @Synchronized set(value) { field = value }\n  var w = 1\n    private set\n}\n\nclass Foo\n  @RequiresApi(37)\n  internal constructor(val x: Int)\n\nactual class Baz\nactual constructor(val y: Int) {\n  fun g() = y\n}\n";
    assert_kotlin_rewrite(
        crate::lang::kotlin::without_accessor_annotations,
        source,
        &[
            "class Q {",
            "var v: Int = 0",
            "get() = field",
            "set(value) { field = value }",
            "var w = 1",
            "private set",
            "}",
            "",
            "class Foo",
            "",
            "internal constructor(val x: Int)",
            "",
            "actual class Baz",
            "constructor(val y: Int) {",
            "fun g() = y",
            "}",
        ],
        // An annotated declaration, or a call of `get`.
        &[
            "@Deprecated(\"x\")\nfun get() = 1\n",
            "val x = map.get(1)\n",
            "@Inject lateinit var s: S\n",
        ],
    );
}

/// A call of `get` with arguments on the line after a local property (Ktor's
/// `val service: S by inject()` then `get("/orders") { … }`) reads as that property's getter to
/// tree-sitter-kotlin-ng: extraction reads it with a `;` before it.
#[test]
fn kotlin_get_calls_after_a_property_are_read_as_calls() {
    let source = "fun Route.orders() {\n    val service: OrderService by inject()\n    get(\"/orders\") {\n        call.respond(service.all())\n    }\n    val n = 1\n    get<Health>() { call.respond(n) }\n}\n";
    assert_kotlin_rewrite(
        crate::lang::kotlin::with_calls_after_properties,
        source,
        &[
            "fun Route.orders() {",
            "val service: OrderService by inject()",
            ";get(\"/orders\") {",
            "call.respond(service.all())",
            "}",
            "val n = 1",
            ";get<Health>() { call.respond(n) }",
            "}",
        ],
        // A getter (no arguments), a continued expression, a call not at a line's start, a call
        // at the first column.
        &[
            "class A {\n    val x: Int\n        get() = 1\n}\n",
            "fun f() {\n    val x = a +\n        get(1)\n}\n",
            "fun f() {\n    val x = map.get(1)\n}\n",
            "val x = 1\nget(\"/a\")\n",
        ],
    );
}

/// Kotlin 2.3's explicit backing field (`field = MutableStateFlow(false)` under
/// `val done: StateFlow<Boolean>`), which tree-sitter-kotlin-ng cannot read, is read as a
/// getter of the same length.
#[test]
fn kotlin_explicit_backing_fields_are_read_as_getters() {
    let source = "class M {\n    val done: StateFlow<Boolean>\n        field = MutableStateFlow(false)\n\n    private val items: List<Int>\n        field = mutableListOf()\n}\n";
    assert_kotlin_rewrite(
        crate::lang::kotlin::with_backing_fields_as_getters,
        source,
        &[
            "class M {",
            "val done: StateFlow<Boolean>",
            "get() = MutableStateFlow(false)",
            "",
            "private val items: List<Int>",
            "get() = mutableListOf()",
            "}",
        ],
        // A setter's body, a property with a value.
        &[
            "class A {\n    var x: Int = 0\n        set(value) {\n            field = value\n        }\n}\n",
            "class A {\n    val x: Int = 1\n    field = 2\n}\n",
        ],
    );
}

/// Asserts that the Kotlin file `source` has parse errors to the grammar and none as
/// extraction reads it, that `rewrite` keeps its length and gives the lines `expected`
/// (trimmed), and that it leaves each of `unchanged` alone.
fn assert_kotlin_rewrite(
    rewrite: fn(&str) -> Option<String>,
    source: &str,
    expected: &[&str],
    unchanged: &[&str],
) {
    assert_read_around_a_gap("a.kt", source);
    let read = rewrite(source).expect("a rewrite");
    assert_eq!(read.len(), source.len());
    assert_eq!(read.lines().map(str::trim).collect::<Vec<_>>(), expected);
    for text in unchanged {
        assert_eq!(rewrite(text), None, "{text}");
    }
}

/// Asserts that `source` has parse errors to the grammar of `path` but none as extraction
/// reads it (`crate::parse_source`).
fn assert_read_around_a_gap(path: &str, source: &str) {
    assert!(
        errors_in(path, source) > 0,
        "the grammar's gap is still there"
    );
    assert_eq!(crate::parse_only(path, source), Some(0));
}

/// Asserts that each of `sources` parses without errors as every file of `paths`.
fn assert_no_errors(paths: &[&str], sources: &[&str]) {
    for source in sources {
        for path in paths {
            assert_eq!(errors_in(path, source), 0, "{path}: {source}");
        }
    }
}

/// Asserts that each of `sources` has parse errors as every file of `paths`.
fn assert_errors(paths: &[&str], sources: &[&str]) {
    for source in sources {
        for path in paths {
            assert!(errors_in(path, source) > 0, "{path}: {source}");
        }
    }
}

#[test]
fn a_call_with_a_module_type_argument_is_no_syntax_error() {
    assert_no_errors(
        &["a.ts", "a.tsx"],
        &[
            "const m = await importOriginal<typeof import('./x')>();\n",
            "vi.mock('@a/b', async (importOriginal) => {\n  const actual = await importOriginal<typeof import(\"@a/b\")>();\n  return { ...actual, f: vi.fn() };\n});\n",
            "const n = f< typeof import('m') >( );\n",
        ],
    );
    // Anything else after such a comparison is still an error.
    assert_errors(
        &["a.ts"],
        &[
            "const m = a < typeof import('./x') >();\nconst b = ;\n",
            "const m = a < typeof import(x) >();\n",
        ],
    );
}

#[test]
fn a_generic_tagged_template_is_no_syntax_error() {
    assert_no_errors(
        &["a.ts", "a.tsx"],
        &[
            "const A = styled.span<{ yellow?: boolean }>`\n  color: red;\n`;",
            "const B = styled(Link)<{ $on: boolean }>`x ${(p) => p.$on} y`;",
            "const C = styled.div<{\n  grow?: boolean;\n}>`min-height: 1px;`;",
            "const D = css<Props>`x`;",
        ],
    );
    // A `!` really missing elsewhere, and broken code next to a tagged template, still count.
    assert_eq!(
        errors_in("a.ts", "const A = styled.div<{ a: A }>`x`;\nconst b = ;"),
        1
    );
    assert!(errors_in("a.ts", "const A = (x as any).;") > 0);
}

#[test]
fn a_bare_ampersand_in_jsx_text_is_no_syntax_error() {
    assert_no_errors(
        &["a.tsx", "a.jsx"],
        &[
            "const A = <div>Runtime & Build</div>;",
            "const B = <p>{x} & {y}</p>;",
            "const C = <p>Tom &\n Jerry</p>;",
            "const D = <>Tom & Jerry</>;",
            "const E = <p>a &amp b</p>;",
        ],
    );
    // Where the parser's recovery breaks the element apart (`&copy;` after a bare `&`), the
    // tree is not what the code means, and the errors count.
    assert_errors(
        &["a.tsx"],
        &[
            "const A = <p>a & {</p>;",
            "const B = <div>& <span></div>;",
            "const D = <p>a &amp b &copy; c</p>;",
        ],
    );
}

/// A bare `&` in a JSX attribute string (a link's query, formbricks'
/// `href="https://formbricks.com?utm_source=app&utm_medium=webapp"`) is text to JSX, and to
/// tree-sitter's JSX only the start of a character reference: no syntax error either (9 of
/// formbricks' components had one).
#[test]
fn a_bare_ampersand_in_a_jsx_attribute_string_is_no_syntax_error() {
    assert_no_errors(
        &["a.tsx", "a.jsx"],
        &[
            "const A = <a href=\"https://x.com?utm_source=app&utm_medium=web\">x</a>;",
            "const B = <a href=\"/s?a=1&b=2&c=3\" target=\"_blank\">x</a>;",
            "const C = <a title='Tom & Jerry'>x</a>;",
            "const D = <a href=\"?q=1&amp;r=2&s=3\">x</a>;",
        ],
    );
    // A string that is not closed stays an error.
    assert_errors(&["a.tsx"], &["const A = <a href=\"x&y>z</a>;"]);
}

#[test]
fn swift_s_empty_tuple_is_no_syntax_error() {
    for source in [
        "let x = foo(())",
        "p.succeed(( ))\nlet y = 2",
        "func f() async throws {\n    try await done(.success(()))\n}",
        "let v: Void = ()",
    ] {
        assert_eq!(errors_in("a.swift", source), 0, "{source}");
    }
    assert!(errors_in("a.swift", "let x = foo(()\nlet y = ") > 0);
}

#[test]
fn typescript_forms_the_grammar_does_not_know_are_no_syntax_errors() {
    for source in [
        "export type * from '../types/index';",
        "export type * as ns from './x';",
        "interface C<in T = never> { a: T }",
        "interface Z<out O = unknown, out I = unknown> { o: O }",
        "type S<out Output = unknown, in Input> = { o: Output };",
        "class K<in out T> {}",
        "const identifiers: import('ts-morph').Node[] = [];",
        "let entries: import('node:fs').Dirent[];",
        "function f(a: import('m').B[]): import('m').B[] { return a; }",
        "class P { items: import('m').B[] = []; }",
        "type Q = { items: import('m').B[] };",
        "const d = [] as import('../src/types').Diagnostic[];",
    ] {
        assert_eq!(errors_in("a.ts", source), 0, "{source}");
        assert_eq!(errors_in("a.tsx", source), 0, "{source}");
    }
    // Broken code of the same shapes still counts.
    for broken in [
        "export type from './x';",
        "interface C<in T U> { a: T }",
        "interface C<T U> { a: T }",
        "const identifiers: import('m').Node[0] = [];",
        "let entries: import('node:fs').Dirent[] = ;",
        "const d = [] as import('m').D[0;",
        "function f(a: import('m').B[x]) {}",
    ] {
        assert!(errors_in("a.ts", broken) > 0, "{broken}");
    }
}

/// rstest's stacked parameter attributes (`#[future(awt)] #[from(empty_db)] db: Sqlite`, atuin's
/// tests) are valid Rust that tree-sitter-rust reads with the first attribute in an `ERROR`
/// before the second, the parameter itself whole: no parse error; a stray token there is one.
#[test]
fn rust_two_attributes_on_a_parameter_are_no_parse_error() {
    let lines =
        "fn two(\n    #[future(awt)]\n    #[from(empty_db)]\n    db: u32,\n    x: u8,\n) {}\n";
    assert_eq!(errors_in("a.rs", lines), 0);
    let each = "async fn f(#[a] #[b(c)] db: u32, #[e] #[with(40u16, 8u16)] (x, y): (u8, u8)) {}\n";
    assert_eq!(errors_in("a.rs", each), 0);
    let method = "impl S {\n    fn m(&self, #[a] #[b] v: u8) {}\n}\n";
    assert_eq!(errors_in("a.rs", method), 0);
    assert_eq!(errors_in("a.rs", "fn broken(#[a] + #[b] db: u32) {}\n"), 1);
}

/// `switch await x.y {` (mastodon-ios) is valid Swift that tree-sitter-swift reads as a trailing
/// closure of the awaited chain, losing the cases; the file is read again with the `await`
/// (and a `try` before it) blanked, every byte at its offset: no parse error. A name that only
/// starts with `await`, or a `switch` that is part of a longer name, is left alone.
#[test]
fn swift_a_switch_on_an_awaited_member_chain_is_no_parse_error() {
    let source = "func f() async {\n    switch await view.model.header {\n    case .none:\n        break\n    default:\n        break\n    }\n}\n";
    assert!(errors_in("A.swift", source) > 0, "the grammar's gap");
    assert_eq!(crate::parse_only("A.swift", source), Some(0));
    let tried = "func g() async throws {\n    switch try await view.model.header {\n    case .none:\n        break\n    default:\n        break\n    }\n}\n";
    assert_eq!(crate::parse_only("A.swift", tried), Some(0));
    assert_eq!(
        crate::lang::swift::without_switch_await("switch try? await a.b {"),
        Some("switch            a.b {".to_owned())
    );
    assert_eq!(
        crate::lang::swift::without_switch_await("let x = awaitable\nnoswitch await a\n"),
        None
    );
    assert_eq!(
        crate::lang::swift::without_switch_await("switch awaitable {"),
        None
    );
}

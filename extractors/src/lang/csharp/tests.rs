use super::{
    pack_member_calls, pack_usings, unpack_member_calls, unpack_usings, Anchor, MemberCall, Using,
};

/// The `using`s and member calls a file keeps for its second pass come back as they were:
/// aliases, `using static`, paths that share a prefix with the one before, or none.
#[test]
fn packed_usings_and_member_calls_come_back() {
    let anchors = crate::resolve::deferred::test_anchors();
    let usings: Vec<Using<Anchor>> = [
        ("System", None, false),
        ("System.Linq", None, false),
        ("Bit.Core.Entities", Some("Entities"), false),
        ("Bit.Core.Utilities.CoreHelpers", None, true),
        ("Élan", Some("É"), true),
        ("", None, false),
    ]
    .iter()
    .zip(anchors.iter().cycle())
    .map(|((path, alias, is_static), anchor)| Using {
        node: *anchor,
        alias: alias.map(str::to_owned),
        path: (*path).to_owned(),
        is_static: *is_static,
        depth: usize::from(alias.is_some()) * 2,
    })
    .collect();
    let read = unpack_usings(&pack_usings(&usings));
    let fields = |using: &Using<Anchor>| {
        (
            using.node,
            using.alias.clone(),
            using.path.clone(),
            using.is_static,
            using.depth,
        )
    };
    assert_eq!(
        read.iter().map(fields).collect::<Vec<_>>(),
        usings.iter().map(fields).collect::<Vec<_>>()
    );

    let calls: Vec<MemberCall> = [("AddScoped", 0), ("AddScoped", 2), ("AddSingleton", 1)]
        .iter()
        .zip(anchors.iter().cycle())
        .map(|((name, arguments), anchor)| MemberCall {
            name: (*name).into(),
            arguments: *arguments,
            anchor: *anchor,
        })
        .collect();
    let read = unpack_member_calls(&pack_member_calls(&calls));
    let fields = |call: &MemberCall| (call.name.clone(), call.arguments, call.anchor);
    assert_eq!(
        read.iter().map(fields).collect::<Vec<_>>(),
        calls.iter().map(fields).collect::<Vec<_>>()
    );
}

/// `global` and `static` are read from the keywords before the name, or from the tokens
/// when a comment stands among them.
#[test]
fn using_keywords_are_read_before_the_name() {
    let cases = [
        ("using A.B;", (false, false)),
        ("using static A.B;", (false, true)),
        ("global using A.B;", (true, false)),
        ("global  using\n static A.B;", (true, true)),
        ("using /* static */ A.B;", (false, false)),
        ("using /* c */ static A.B;", (false, true)),
        ("global /* c */ using A.B;", (true, false)),
        ("using unsafe static A.B;", (false, true)),
        ("global using X = A.B;", (true, false)),
        ("using X = global::A.B;", (false, false)),
    ];
    let grammar = crate::language::Language::CSharp
        .spec()
        .tree_sitter()
        .expect("C# is a tree-sitter language")
        .grammar;
    for (source, expected) in cases {
        let tree = crate::syntax::parse(grammar, source).expect("a tree");
        let directive = crate::syntax::named_children(tree.root_node())
            .into_iter()
            .find(|node| node.kind() == "using_directive")
            .expect("a using directive");
        assert_eq!(
            super::using_keywords(directive, source),
            expected,
            "{source}"
        );
    }
}

crate::walk::query_parity::check_fields_test!(
    crate::language::Language::CSharp,
    &super::WALK_KINDS,
    "LINTEL_CSHARP_WALK_CORPUS",
    100,
    [
        "class A { void F() { x.Y = ; a.( ; new (); [Route(] int P { get; } } }",
        "namespace /* c */ A . B { class C { void F() { a /* c */ . b /* c */ (c) ; } } }",
        "namespace A; class C { C(int a = 1, [X] ref int b) { x = y = z; m?.N(1); } }",
    ]
);

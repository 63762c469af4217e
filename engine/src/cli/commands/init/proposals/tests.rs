use super::*;

fn unit(name: &str, dir: &str) -> Unit {
    Unit {
        name: name.to_owned(),
        dir: dir.to_owned(),
        globs: vec![format!("{dir}/**")],
        why: "top-level source folder".to_owned(),
        files: 2,
        mostly_scripts: true,
    }
}

fn edge(from: &str, to: &str, imports: usize) -> ComponentEdge {
    ComponentEdge {
        from: from.to_owned(),
        to: to.to_owned(),
        kinds: vec![("import".to_owned(), imports)],
        example: format!("{}/x.ts:1", from.to_lowercase()),
    }
}

fn used(
    technology: &str,
    package: &str,
    definite: bool,
    file: &str,
    subject: &str,
) -> TechnologyUse {
    TechnologyUse {
        technology: technology.to_owned(),
        package: package.to_owned(),
        definite,
        file: file.to_owned(),
        subject: Some(subject.to_owned()),
    }
}

fn rules(list: &[RuleProposal]) -> Vec<String> {
    list.iter()
        .map(|rule| format!("{} -> {}", rule.from, rule.to))
        .collect()
}

#[test]
fn the_layering_denies_each_reverse_of_a_one_way_edge() {
    let units = [
        unit("Web", "web"),
        unit("Api", "api"),
        unit("Domain", "domain"),
        unit("Left", "left"),
        unit("Right", "right"),
        unit("Top", "top"),
    ];
    let edges = [
        edge("Web", "Api", 3),
        edge("Api", "Domain", 14),
        edge("Left", "Right", 1),
        edge("Right", "Left", 1),
        edge("Left", "Domain", 2),
        edge("Right", "Top", 1),
        edge("Top", "Left", 1),
    ];
    let proposals = propose(&units, &edges, &[]);
    // Left and Right use each other: no rule; Top is in their cycle, but each edge of it is one
    // way.
    assert_eq!(
        rules(&proposals.layering),
        [
            "Domain -> Api",
            "Domain -> Left",
            "Api -> Web",
            "Left -> Top",
            "Top -> Right"
        ]
    );
    assert_eq!(
        proposals.layering.get(3).map(|rule| rule.evidence.as_str()),
        Some("1 import from Top to Left, none back (e.g. top/x.ts:1); Left reaches Top only through their cycle of 3 components")
    );
    assert_eq!(
        proposals.layers,
        [
            vec!["Domain"],
            vec!["Api", "Left", "Right", "Top"],
            vec!["Web"]
        ]
    );
    assert_eq!(proposals.cycles, [vec!["Left", "Right", "Top"]]);
    assert_eq!(
        proposals
            .layering
            .first()
            .map(|rule| rule.evidence.as_str()),
        Some("14 imports from Api to Domain, none back (e.g. api/x.ts:1)")
    );
}

#[test]
fn nodes_bind_definite_clients_and_ui_keeps_away_from_unused_stores() {
    let units = [unit("Web", "apps/web"), unit("Server", "server")];
    let uses = [
        used("postgres", "pg", true, "server/db/pool.ts", "Server"),
        used("postgres", "pg", true, "server/db/other.ts", "Server"),
        used("redis", "ioredis", false, "server/cache.ts", "Server"),
        used("message_queue", "bullmq", true, "server/jobs.ts", "Server"),
        used("external_api", "axios", true, "apps/web/api.ts", "Web"),
        used(
            "object_store",
            "@aws-sdk/client-s3",
            true,
            "apps/web/upload.ts",
            "Web",
        ),
        used("relational_db", "typeorm", true, "server/orm.ts", "Server"),
    ];
    let proposals = propose(&units, &[], &uses);
    let nodes: Vec<(String, String, Vec<String>)> = proposals
        .nodes
        .iter()
        .map(|node| {
            (
                node.name.clone(),
                node.type_name.clone(),
                node.clients.keys().cloned().collect(),
            )
        })
        .collect();
    assert_eq!(
        nodes,
        [
            ("message_queue", "message_queue", vec!["bullmq"]),
            ("object_store", "object_store", vec!["@aws-sdk/client-s3"]),
            ("postgres", "postgres", vec!["pg", "typeorm"]),
        ]
        .map(|(name, type_name, clients)| (
            name.to_owned(),
            type_name.to_owned(),
            clients.into_iter().map(str::to_owned).collect()
        ))
    );
    // Web uses the object store, and a queue is no data store.
    assert_eq!(rules(&proposals.ui), ["Web -> postgres"]);
    let layout = Layout {
        units: units.to_vec(),
        ..Layout::default()
    };
    let text = render(&layout, &proposals);
    assert!(
        text.contains("// pg in server/db/other.ts (and 1 more file)\n// typeorm in server/orm.ts\nnode postgres : postgres { clients: [\"pg\", \"typeorm\"] }\n"),
        "{text}"
    );
    assert!(
        text.contains("  // Web looks like UI (`web` in `apps/web`) and no code of it uses postgres today\n  deny flow Web -> postgres\n"),
        "{text}"
    );
    assert!(
        text.contains("component Web    { runs_on: app  paths: \"apps/web/**\" }"),
        "{text}"
    );
}

#[test]
fn rules_with_findings_are_dropped_and_named() {
    let units = [unit("Web", "web"), unit("Api", "api")];
    let mut proposals = propose(&units, &[edge("Web", "Api", 1)], &[]);
    proposals.drop_rules(&BTreeSet::from([("Api".to_owned(), "Web".to_owned())]));
    assert!(proposals.layering.is_empty());
    assert_eq!(
        proposals.notes,
        ["left out because `check --all` finds flows the first graph did not show: `deny flow Api -> Web`."]
    );
}

#[test]
fn words_split_folders_and_names() {
    assert_eq!(words("excalidraw-app"), ["excalidraw", "app"]);
    assert_eq!(words("ClientApp"), ["client", "app"]);
    assert_eq!(words("Ordering.API"), ["ordering", "api"]);
    let host = Unit {
        name: "EShopAppHost".to_owned(),
        ..unit("X", "src/eShop.AppHost")
    };
    assert_eq!(ui_word(&host), None);
    let python_app = Unit {
        mostly_scripts: false,
        ..unit("App", "saleor/app")
    };
    assert_eq!(ui_word(&python_app), None);
    let blazor = Unit {
        mostly_scripts: false,
        ..unit("WebApp", "src/WebApp")
    };
    assert_eq!(ui_word(&blazor).as_deref(), Some("web"));
    assert_eq!(
        ui_word(&unit("WebAppComponents", "src/WebAppComponents")).as_deref(),
        Some("web")
    );
    assert_eq!(
        ui_word(&unit("ExcalidrawApp", "excalidraw-app")).as_deref(),
        Some("app")
    );
    assert_eq!(node_type("kafka"), None);
    assert_eq!(node_type("relational_db"), Some("relational_db"));
    assert_eq!(node_type("external_api"), None);
    assert_eq!(node_type("firebase"), Some("firestore"));
}

#[test]
fn a_dense_graph_gets_the_best_evidenced_rules_between_layers_first_and_a_note() {
    // A chain of 12 components, each using every one below it (66 one-way edges), plus a cycle
    // X ⇄ Y with a one-way edge Y → Z inside a three-component cycle X → Y → Z → X.
    let names: Vec<String> = (0..12).map(|index| format!("C{index:02}")).collect();
    let mut units: Vec<Unit> = names
        .iter()
        .map(|name| unit(name, &name.to_lowercase()))
        .collect();
    units.extend([unit("X", "x"), unit("Y", "y"), unit("Z", "z")]);
    let mut edges = Vec::new();
    for (upper, from) in names.iter().enumerate() {
        for to in names.iter().take(upper) {
            // Nearer layers have more imports.
            edges.push(edge(
                from,
                to,
                100 - (upper - names.iter().position(|n| n == to).unwrap()),
            ));
        }
    }
    edges.extend([
        edge("X", "Y", 500),
        edge("Y", "Z", 500),
        edge("Z", "X", 500),
    ]);
    let proposals = propose(&units, &edges, &[]);
    assert_eq!(proposals.layering.len(), MAX_LAYERING_RULES);
    // The cycle's edges, however well evidenced, come after the 66 edges between layers.
    assert!(proposals
        .layering
        .iter()
        .all(|rule| !["X", "Y", "Z"].contains(&rule.from.as_str())));
    // Each edge to the next layer down (99 imports) is kept; the weakest long edges are not.
    for pair in names.windows(2) {
        let kept = format!("{} -> {}", pair[0], pair[1]);
        assert!(rules(&proposals.layering).contains(&kept), "{kept}");
    }
    assert!(!rules(&proposals.layering).contains(&"C00 -> C11".to_owned()));
    assert_eq!(
        proposals.notes,
        vec![format!(
            "29 more one-way edges could each be denied the same way; the {MAX_LAYERING_RULES} proposed are those between layers first, then those inside a cycle, most facts first."
        )]
    );
}

#[test]
fn an_orm_does_not_join_an_embedded_sqlite_file() {
    // paperless-ngx: Django's ORM over a database its settings choose at run time, and a vector
    // index in an SQLite file of its own.
    let units = [unit("Documents", "src/documents"), unit("Ai", "src/ai")];
    let uses = [
        used(
            "relational_db",
            "django",
            true,
            "src/documents/models.py",
            "Documents",
        ),
        used("sqlite", "sqlite3", true, "src/ai/vectors.py", "Ai"),
    ];
    let proposals = propose(&units, &[], &uses);
    let nodes: Vec<(String, Vec<String>)> = proposals
        .nodes
        .iter()
        .map(|node| (node.name.clone(), node.clients.keys().cloned().collect()))
        .collect();
    assert_eq!(
        nodes,
        [
            ("relational_db".to_owned(), vec!["django".to_owned()]),
            ("sqlite".to_owned(), vec!["sqlite3".to_owned()]),
        ]
    );
}

#[test]
fn a_generic_library_whose_uses_name_one_store_of_its_family_is_that_store() {
    // miniflux: `database/sql` injected as `*sql.DB`/`*sql.Tx` in many files (`relational_db`),
    // and opened once with `sql.Open("postgres", dsn)`: its generic uses are that database, and
    // no `relational_db` node is proposed beside it.
    let units = [unit("Storage", "internal/storage")];
    let uses = [
        used(
            "relational_db",
            "database/sql",
            true,
            "internal/storage/a.go",
            "Storage",
        ),
        used(
            "relational_db",
            "database/sql",
            true,
            "internal/storage/b.go",
            "Storage",
        ),
        used(
            "postgres",
            "database/sql",
            true,
            "internal/database/pg.go",
            "Storage",
        ),
    ];
    let proposals = propose(&units, &[], &uses);
    let nodes: Vec<(String, String, Vec<String>)> = proposals
        .nodes
        .iter()
        .map(|node| {
            (
                node.name.clone(),
                node.type_name.clone(),
                node.clients.keys().cloned().collect(),
            )
        })
        .collect();
    assert_eq!(
        nodes,
        [("postgres", "postgres", vec!["database/sql"])].map(|(name, type_name, clients)| (
            name.to_owned(),
            type_name.to_owned(),
            clients.into_iter().map(str::to_owned).collect()
        ))
    );
}

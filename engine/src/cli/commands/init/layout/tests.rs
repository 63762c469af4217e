use std::collections::BTreeMap;

use super::*;

fn layout_of(files: &[(&str, &str)]) -> Layout {
    let texts: BTreeMap<String, String> = files
        .iter()
        .map(|(path, text)| ((*path).to_owned(), (*text).to_owned()))
        .collect();
    let paths: Vec<String> = texts.keys().cloned().collect();
    discover(&paths, &|path| texts.get(path).cloned())
}

fn summary(layout: &Layout) -> Vec<(String, Vec<String>)> {
    layout
        .units
        .iter()
        .map(|unit| (unit.name.clone(), unit.globs.clone()))
        .collect()
}

#[test]
fn names_are_pascal_case_identifiers() {
    assert_eq!(pascal("group-coordinator"), "GroupCoordinator");
    assert_eq!(pascal("Ordering.API"), "OrderingAPI");
    assert_eq!(pascal("@excalidraw/math"), "Math");
    assert_eq!(pascal("packages/excalidraw-app"), "ExcalidrawApp");
    assert_eq!(pascal("3d"), "M3d");
    assert_eq!(pascal("--"), "Root");
}

#[test]
fn npm_workspaces_cargo_members_and_csproj_projects_are_units() {
    let layout = layout_of(&[
        (
            "package.json",
            r#"{ "workspaces": { "packages": ["packages/*", "!packages/skip"] } }"#,
        ),
        (
            "packages/ui-kit/package.json",
            r#"{ "name": "@acme/ui-kit" }"#,
        ),
        ("packages/ui-kit/src/a.ts", ""),
        ("packages/core/package.json", "{}"),
        ("packages/core/src/b.ts", ""),
        ("packages/skip/package.json", "{}"),
        ("packages/skip/c.ts", ""),
        ("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n"),
        ("crates/engine-core/Cargo.toml", "[package]\nname = \"x\"\n"),
        ("crates/engine-core/src/lib.rs", ""),
        ("src/Shop.Api/Shop.Api.csproj", "<Project/>"),
        ("src/Shop.Api/Program.cs", ""),
        ("node_modules/left/package.json", "{}"),
        ("node_modules/left/index.js", ""),
    ]);
    assert_eq!(
        summary(&layout),
        [
            ("EngineCore", vec!["crates/engine-core/**"]),
            ("Core", vec!["packages/core/**"]),
            ("UiKit", vec!["packages/ui-kit/**"]),
            ("ShopApi", vec!["src/Shop.Api/**"]),
        ]
        .map(|(name, globs)| (
            name.to_owned(),
            globs.into_iter().map(str::to_owned).collect::<Vec<_>>()
        ))
    );
    assert_eq!(
        layout.units.first().map(|unit| unit.why.as_str()),
        Some("Cargo workspace member")
    );
}

#[test]
fn gradle_includes_and_maven_modules_are_units() {
    let layout = layout_of(&[
        (
            "settings.gradle.kts",
            "rootProject.name = \"x\"\ninclude(\":core\", \":connect:api\")\ninclude 'missing'\n",
        ),
        ("core/src/main/java/a/A.java", ""),
        ("connect/api/src/main/java/a/B.java", ""),
        ("pom.xml", "<modules><module>server</module></modules>"),
        ("server/pom.xml", "<modules><module>web</module></modules>"),
        ("server/web/src/W.java", ""),
        ("server/S.java", ""),
    ]);
    let names: Vec<&str> = layout.units.iter().map(|unit| unit.name.as_str()).collect();
    assert_eq!(names, ["Api", "Core", "Server", "Web"]);
}

#[test]
fn one_python_package_is_split_into_its_sub_packages() {
    let layout = layout_of(&[
        ("shop/__init__.py", ""),
        ("shop/settings.py", ""),
        ("shop/orders/__init__.py", ""),
        ("shop/orders/models.py", ""),
        ("shop/billing/__init__.py", ""),
        ("shop/billing/api.py", ""),
        ("shop/web/views.py", ""),
    ]);
    assert_eq!(
        summary(&layout)
            .into_iter()
            .map(|(name, _)| name)
            .collect::<Vec<_>>(),
        ["Shop", "Billing", "Orders", "Web"]
    );
    assert_eq!(
        layout.units.first().map(|unit| unit.files),
        Some(2),
        "the package keeps its own files"
    );
    assert!(layout.notes.iter().any(|note| note.contains("`shop`")));
}

#[test]
fn a_single_crate_is_split_into_its_modules() {
    let layout = layout_of(&[
        ("Cargo.toml", "[package]\nname = \"tool\"\n"),
        ("src/main.rs", ""),
        ("src/parse.rs", ""),
        ("src/parse/lexer.rs", ""),
        ("src/render.rs", ""),
        ("src/check/mod.rs", ""),
    ]);
    assert_eq!(
        summary(&layout),
        [
            ("Src", vec!["src/**"]),
            ("Check", vec!["src/check/**"]),
            ("Parse", vec!["src/parse.rs", "src/parse/**"]),
            ("Render", vec!["src/render.rs"]),
        ]
        .map(|(name, globs)| (
            name.to_owned(),
            globs.into_iter().map(str::to_owned).collect::<Vec<_>>()
        ))
    );
}

#[test]
fn go_packages_and_swift_targets_are_units() {
    let layout = layout_of(&[
        ("go.mod", "module example.com/x\n"),
        ("main.go", ""),
        ("cmd/x/main.go", ""),
        ("storage/db.go", ""),
        ("web/ui/app.go", ""),
        ("Package.swift", ""),
        ("Sources/Kit/Kit.swift", ""),
    ]);
    let names: Vec<&str> = layout.units.iter().map(|unit| unit.name.as_str()).collect();
    assert_eq!(names, ["Kit", "Cmd", "Storage", "Web"]);
}

#[test]
fn too_many_units_merge_by_top_level_folder_then_the_smallest_are_left_out() {
    let mut files: Vec<(String, String)> = Vec::new();
    for index in 0..40 {
        files.push((format!("pkg{index:02}/__init__.py"), String::new()));
    }
    for index in 0..8 {
        files.push((format!("group/m{index}/__init__.py"), String::new()));
    }
    let mut settings = String::new();
    for index in 0..8 {
        settings.push_str(&format!("include ':group:m{index}'\n"));
    }
    files.push(("settings.gradle".to_owned(), settings));
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(path, text)| (path.as_str(), text.as_str()))
        .collect();
    let layout = layout_of(&borrowed);
    assert_eq!(layout.units.len(), MAX_UNITS);
    assert!(layout.units.iter().any(|unit| unit.dir == "group"));
    assert!(layout
        .notes
        .iter()
        .any(|note| note.contains("the 8 units under `group/`")));
    assert!(layout
        .notes
        .iter()
        .any(|note| note.contains("the 11 smallest units are left to no component")));
}

#[test]
fn clashing_names_take_their_parent_folder() {
    let layout = layout_of(&[
        ("settings.gradle", "include ':a:api', ':b:api', ':c'\n"),
        ("a/api/A.java", ""),
        ("b/api/B.java", ""),
        ("c/C.java", ""),
    ]);
    let names: Vec<&str> = layout.units.iter().map(|unit| unit.name.as_str()).collect();
    assert_eq!(names, ["AApi", "BApi", "C"]);
}

#[test]
fn test_folders_and_files_are_excluded_and_never_units() {
    let layout = layout_of(&[
        ("settings.gradle", "include ':core', ':core-tests'\n"),
        ("core/src/main/java/a/A.java", ""),
        ("core/src/test/java/a/ATest.java", ""),
        ("core/src/jvmTest/kotlin/B.kt", ""),
        ("core-tests/src/C.java", ""),
        ("web/page.ts", ""),
        ("web/page.test.ts", ""),
        ("web/__tests__/x.tsx", ""),
        ("web/latest/y.ts", ""),
        ("tools/run.go", ""),
        ("tools/run_test.go", ""),
        ("py/test_x.py", ""),
        ("py/y.py", ""),
    ]);
    assert_eq!(
        layout.tests,
        (
            [
                "**/*.test.ts",
                "**/*_test.go",
                "**/__tests__/**",
                "**/core-tests/**",
                "**/jvmTest/**",
                "**/test/**",
                "**/test_*.py",
            ]
            .map(str::to_owned)
            .to_vec(),
            7
        )
    );
    let units: Vec<(&str, usize)> = layout
        .units
        .iter()
        .map(|unit| (unit.name.as_str(), unit.files))
        .collect();
    assert_eq!(units, [("Core", 1), ("Py", 1), ("Tools", 1), ("Web", 2)]);
    let scripts: Vec<bool> = layout
        .units
        .iter()
        .map(|unit| unit.mostly_scripts)
        .collect();
    assert_eq!(scripts, [false, false, false, true]);
}

#[test]
fn a_package_of_forty_subpackages_keeps_the_biggest_and_holds_the_rest() {
    let mut files: Vec<(String, String)> = vec![("shop/__init__.py".to_owned(), String::new())];
    for index in 0..40 {
        for file in 0..=index % 3 {
            files.push((format!("shop/m{index:02}/f{file}.py"), String::new()));
        }
    }
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(path, text)| (path.as_str(), text.as_str()))
        .collect();
    let layout = layout_of(&borrowed);
    assert_eq!(layout.units.len(), MAX_UNITS);
    let shop = layout.units.iter().find(|unit| unit.dir == "shop").unwrap();
    // Its own file and the eleven one-file sub-folders left out (m00, m03, …, m30 kept first).
    assert_eq!(shop.files, 1 + 11);
    assert!(
        layout
            .notes
            .iter()
            .any(|note| note.starts_with("the 11 smallest sub-folders stay in Shop")),
        "{:?}",
        layout.notes
    );
    let total: usize = layout.units.iter().map(|unit| unit.files).sum();
    assert_eq!(total, files.len());
}

#[test]
fn a_gradle_include_may_run_over_several_lines() {
    let layout = layout_of(&[
        (
            "settings.gradle",
            "rootProject.name = 'k'\ninclude 'clients',\n    'connect:api',\n    'core'\n\ninclude(\n  \":raft\",\n  \":server\"\n)\nbuildCache {}\n",
        ),
        ("clients/A.java", ""),
        ("connect/api/B.java", ""),
        ("core/C.java", ""),
        ("raft/D.java", ""),
        ("server/E.java", ""),
    ]);
    let dirs: Vec<&str> = layout.units.iter().map(|unit| unit.dir.as_str()).collect();
    assert_eq!(dirs, ["clients", "connect/api", "core", "raft", "server"]);
}

#[test]
fn the_smallest_groups_merge_first_and_the_biggest_stay_split() {
    let mut files: Vec<(String, String)> = Vec::new();
    let mut projects = |top: &str, count: usize, size: usize| {
        for index in 0..count {
            files.push((format!("{top}/P{index}/P{index}.csproj"), String::new()));
            for file in 0..size {
                files.push((format!("{top}/P{index}/F{file}.cs"), String::new()));
            }
        }
    };
    projects("src", 20, 5);
    projects("util", 12, 3);
    projects("license", 5, 2);
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(path, text)| (path.as_str(), text.as_str()))
        .collect();
    let layout = layout_of(&borrowed);
    let dirs: Vec<&str> = layout.units.iter().map(|unit| unit.dir.as_str()).collect();
    assert_eq!(dirs.len(), 22);
    assert!(
        dirs.contains(&"license") && dirs.contains(&"util"),
        "{dirs:?}"
    );
    assert!(dirs.contains(&"src/P0"), "{dirs:?}");
}

#[test]
fn many_test_folders_of_one_prefix_are_one_glob() {
    let layout = layout_of(&[
        ("streams/upgrade-system-tests-0100/A.java", ""),
        ("streams/upgrade-system-tests-0101/A.java", ""),
        ("streams/upgrade-system-tests-0102/A.java", ""),
        ("connect/test-plugins/A.java", ""),
        ("test-utils/A.java", ""),
        ("streams/S.java", ""),
        ("connect/C.java", ""),
        ("core/K.java", ""),
    ]);
    assert_eq!(
        layout.tests.0,
        [
            "**/test-plugins/**",
            "**/test-utils/**",
            "**/upgrade-system-tests-*/**"
        ]
    );
    assert_eq!(layout.tests.1, 5);
}

#[test]
fn folders_whose_names_are_glob_syntax_are_no_units() {
    let layout = layout_of(&[
        ("[id]/page.ts", ""),
        ("{a,b}/x.ts", ""),
        ("api/x.ts", ""),
        ("web/y.ts", ""),
        ("db/z.ts", ""),
    ]);
    let dirs: Vec<&str> = layout.units.iter().map(|unit| unit.dir.as_str()).collect();
    assert_eq!(dirs, ["api", "db", "web"]);
}

#[test]
fn a_django_projects_apps_beside_manage_py_are_units() {
    let layout = layout_of(&[
        ("netbox/manage.py", ""),
        ("netbox/netbox/__init__.py", ""),
        ("netbox/netbox/settings.py", ""),
        ("netbox/dcim/__init__.py", ""),
        ("netbox/dcim/models.py", ""),
        ("netbox/ipam/__init__.py", ""),
        ("netbox/ipam/views.py", ""),
        ("netbox/circuits/__init__.py", ""),
        ("netbox/circuits/api.py", ""),
        ("scripts/tool/__init__.py", ""),
        ("scripts/tool/run.py", ""),
    ]);
    let dirs: Vec<String> = layout.units.iter().map(|unit| unit.dir.clone()).collect();
    for app in [
        "netbox/circuits",
        "netbox/dcim",
        "netbox/ipam",
        "netbox/netbox",
    ] {
        assert!(dirs.contains(&app.to_owned()), "{app} in {dirs:?}");
    }
    // A package deeper than a source root is not a unit of its own.
    assert!(!dirs.contains(&"scripts/tool".to_owned()), "{dirs:?}");
}

#[test]
fn nx_projects_are_units() {
    // ghostfolio: an Nx workspace whose apps and libs declare `project.json`, with no npm
    // workspaces; the top-level `apps` and `libs` folders are no units of their own.
    let layout = layout_of(&[
        ("nx.json", "{}"),
        ("package.json", r#"{ "name": "ghostfolio" }"#),
        ("apps/api/project.json", "{}"),
        ("apps/api/src/main.ts", ""),
        ("apps/client/project.json", "{}"),
        ("apps/client/src/main.ts", ""),
        ("libs/common/project.json", "{}"),
        ("libs/common/src/lib/config.ts", ""),
        ("libs/ui/project.json", "{}"),
        ("libs/ui/src/lib/index.ts", ""),
        ("node_modules/x/project.json", "{}"),
    ]);
    assert_eq!(
        summary(&layout),
        [
            ("Api", vec!["apps/api/**"]),
            ("Client", vec!["apps/client/**"]),
            ("Common", vec!["libs/common/**"]),
            ("Ui", vec!["libs/ui/**"]),
        ]
        .map(|(name, globs)| (
            name.to_owned(),
            globs.into_iter().map(str::to_owned).collect::<Vec<_>>()
        ))
    );
    assert_eq!(
        layout.units.first().map(|unit| unit.why.as_str()),
        Some("Nx project")
    );
}

//! The route types React Router and SvelteKit generate outside the repository, through the real
//! binary: `import type { Route } from "./+types/root"` in a React Router app and
//! `import type { PageLoad } from "./$types"` in a SvelteKit app name the framework's modules
//! (its typegen writes them under `.react-router/` and `.svelte-kit/`, both gitignored), so
//! `deny unresolved imports` passes on them; a relative import of a missing file of the project
//! still fails it (documenso/documenso: 83 such findings, one per route module, were false).

use super::{check_all, write_files};

const SPEC: &str = "node app : server\n\
                    component Web { runs_on: app paths: \"web/**\" }\n\
                    component Kit { runs_on: app paths: \"kit/**\" }\n\
                    invariant Modules { deny unresolved imports in * }\n";

#[test]
fn generated_route_types_are_no_unresolved_imports_but_a_missing_file_is() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            ("architecture.ag", SPEC),
            ("web/react-router.config.ts", "export default { ssr: true };\n"),
            (
                "web/app/root.tsx",
                "import type { Route } from \"./+types/root\";\nexport const meta = (args: Route.MetaArgs) => [args];\n",
            ),
            (
                "web/app/routes/home.tsx",
                "import type { Route } from \"./+types/home\";\nexport const loader = (args: Route.LoaderArgs) => args;\n",
            ),
            ("kit/svelte.config.js", "export default { kit: {} };\n"),
            (
                "kit/src/routes/+page.ts",
                "import type { PageLoad } from \"./$types\";\nexport const load: PageLoad = () => ({});\n",
            ),
        ],
    );
    let (code, verdict) = check_all(project.path());
    assert_eq!(code, 0, "{verdict:#}");
    assert_eq!(crate::detections(&verdict), Vec::new());
    // A missing project file is still unresolved, next to the route types.
    crate::assert_one_unresolved_after_writing(
        project.path(),
        "web/app/routes/home.tsx",
        "import type { Route } from \"./+types/home\";\nimport { helper } from \"./helper\";\nexport const loader = (args: Route.LoaderArgs) => helper(args);\n",
        2,
    );
}

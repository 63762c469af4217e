//! A bounded fuzz-style generator over the configuration files the resolvers read (tsconfig,
//! package.json, go.mod, Cargo.toml, pyproject, .csproj, Package.swift), workflow YAML and
//! `.agq.yml` queries: seeded mutations of a valid file (byte flips, cuts, repeats, inserted
//! punctuation), each read as the project's file, with the sources of every language extracted
//! against it. The promise: never a panic, never a hang (the iteration counts are fixed, so the
//! run is bounded), and a query file always either loads or has located diagnostics.

use extractors::agq::load_queries_with;
use extractors::{extract_file, ProjectContext};

/// A small deterministic generator (xorshift64), so that a failure replays.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        let mut state = self.0;
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        self.0 = state;
        state
    }

    fn below(&mut self, bound: usize) -> usize {
        usize::try_from(self.next() % u64::try_from(bound.max(1)).unwrap()).unwrap()
    }
}

/// Bytes that break structured formats: quotes, brackets, separators, escapes, newlines, a NUL,
/// a high byte, YAML anchors and aliases.
const NOISE: &[&[u8]] = &[
    b"\"", b"'", b"{", b"}", b"[", b"]", b"<", b">", b"/>", b":", b",", b"=", b"\\", b"\n",
    b"\n  ", b"\t", b"#", b"\0", b"\xff", b"&a ", b"*a", b"---\n", b"\"\"\"", b"${{", b"%", b"..",
    b"/", b"**", b"{a,b}", b"0x", b"-1", b"1e999", b"null", b"true", b"[[",
];

/// One random edit of `seed`: flip, cut, repeat a slice, or insert noise, one to four times.
fn mutate(random: &mut Xorshift, seed: &[u8]) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    for _ in 0..=random.below(4) {
        let at = random.below(bytes.len() + 1);
        match random.below(4) {
            0 if at < bytes.len() => {
                let flipped = bytes[at] ^ u8::try_from(1 + random.below(255)).unwrap();
                bytes[at] = flipped;
            }
            1 => bytes.truncate(at),
            2 if at < bytes.len() => {
                let end = (at + 1 + random.below(40)).min(bytes.len());
                let slice = bytes[at..end].to_vec();
                let copies = 1 + random.below(8);
                for _ in 0..copies {
                    bytes.splice(at..at, slice.iter().copied());
                }
            }
            _ => {
                let noise = NOISE[random.below(NOISE.len())];
                bytes.splice(at..at, noise.iter().copied());
            }
        }
    }
    bytes
}

/// The configuration files and their valid seeds.
const CONFIGS: &[(&str, &str)] = &[
    (
        "web/tsconfig.json",
        "{\n  \"extends\": \"./base.json\",\n  \"compilerOptions\": {\n    \"baseUrl\": \".\",\n    \"paths\": { \"@app/*\": [\"src/*\"], \"@lib\": [\"lib/index.ts\"] }\n  },\n  // comment\n  \"references\": [{ \"path\": \"../common\" }]\n}\n",
    ),
    (
        "web/package.json",
        "{\n  \"name\": \"@acme/web\",\n  \"workspaces\": [\"packages/*\"],\n  \"exports\": { \".\": \"./src/index.ts\", \"./util\": { \"import\": \"./src/util.ts\" } },\n  \"imports\": { \"#db\": \"./src/db.ts\" },\n  \"dependencies\": { \"pg\": \"^8\" }\n}\n",
    ),
    (
        "go.mod",
        "module github.com/acme/shop\n\ngo 1.22\n\nrequire (\n\tgithub.com/lib/pq v1.10.9\n)\n\nreplace github.com/acme/lib => ./lib\n",
    ),
    (
        "Cargo.toml",
        "[package]\nname = \"shop\"\nversion = \"0.1.0\"\n\n[workspace]\nmembers = [\"crates/*\"]\n\n[dependencies]\nsqlx = { version = \"0.7\", features = [\"postgres\"] }\nlib = { path = \"crates/lib\", package = \"shop-lib\" }\n",
    ),
    (
        "pyproject.toml",
        "[project]\nname = \"shop\"\ndependencies = [\"psycopg2>=2\"]\n\n[tool.setuptools.packages.find]\nwhere = [\"src\"]\n\n[tool.poetry]\npackages = [{ include = \"shop\", from = \"src\" }]\n",
    ),
    (
        "Shop/Shop.csproj",
        "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup><RootNamespace>Acme.Shop</RootNamespace></PropertyGroup>\n  <ItemGroup>\n    <ProjectReference Include=\"..\\Lib\\Lib.csproj\" />\n    <PackageReference Include=\"Npgsql\" Version=\"8.0.0\" />\n  </ItemGroup>\n</Project>\n",
    ),
    (
        "Package.swift",
        "// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(\n  name: \"Shop\",\n  targets: [\n    .target(name: \"Shop\", dependencies: [\"Lib\"], path: \"Sources/Shop\"),\n    .target(name: \"Lib\")\n  ]\n)\n",
    ),
];

/// One source per language, each importing something a configuration could resolve.
const SOURCES: &[(&str, &str)] = &[
    (
        "web/src/app.ts",
        "import { pool } from \"@app/db\";\nimport x from \"#db\";\nexport const run = () => pool.query(\"select 1\");\n",
    ),
    (
        "main.go",
        "package main\n\nimport \"github.com/acme/shop/lib\"\n\nfunc main() { lib.Run() }\n",
    ),
    ("src/main.rs", "use shop_lib::run;\nfn main() { run(); }\n"),
    (
        "src/shop/app.py",
        "from shop.db import connect\nimport psycopg2\nconnect()\n",
    ),
    (
        "Shop/Orders.cs",
        "using Acme.Lib;\nnamespace Acme.Shop;\npublic class Orders { private readonly Repo repo; }\n",
    ),
    (
        "Sources/Shop/App.swift",
        "import Lib\nstruct App { let repo = Repo() }\n",
    ),
];

const WORKFLOW: &str = "name: release\non:\n  push:\n    tags: [\"v*\"]\npermissions:\n  contents: write\njobs:\n  publish:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm test\n      - run: npm publish\n        env:\n          TOKEN: ${{ secrets.NPM_TOKEN }}\n";

const QUERY: &str = "id: StripeIsThePaymentProvider\nowner: payments-team\nversion: 1\nconfidence: definite\nmatch:\n  kind: external\n  package: stripe\n  file: \"src/{a,b}/**\"\nemit:\n  kind: flow\n  from: \"$subject\"\n  to: payments\n---\nid: Second\nowner: team\nversion: 2\nconfidence: probable\nmatch:\n  kind: import\n  target: pg\nemit:\n  kind: operation\n  operation: write\n  component: \"$subject\"\n";

fn project_files() -> Vec<String> {
    CONFIGS
        .iter()
        .map(|(path, _)| *path)
        .chain(SOURCES.iter().map(|(path, _)| *path))
        .chain([".github/workflows/release.yml"])
        .map(str::to_owned)
        .collect()
}

#[test]
fn mutated_configuration_files_never_panic_the_resolvers() {
    let files = project_files();
    let mut random = Xorshift(0x51ed_270b_a3f1_4c29);
    for round in 0..300 {
        // One configuration mutated per round, the others valid: each format's reader sees its
        // own broken input next to working ones.
        let (target, seed) = CONFIGS[round % CONFIGS.len()];
        let mutated = String::from_utf8_lossy(&mutate(&mut random, seed.as_bytes())).into_owned();
        let context = ProjectContext::discover_with(&files, |path| {
            if path == target {
                return Some(mutated.clone());
            }
            CONFIGS
                .iter()
                .find(|(config, _)| *config == path)
                .map(|(_, text)| (*text).to_owned())
        });
        for (path, source) in SOURCES {
            // Whatever the configuration says, extraction answers.
            let _ = extract_file(&context, path, source);
        }
    }
}

#[test]
fn mutated_workflow_yaml_is_extracted_or_skipped_never_a_panic() {
    let files = project_files();
    let context = ProjectContext::discover_with(&files, |_| None);
    let mut random = Xorshift(0x2f8e_11c7_90d3_6b45);
    for _ in 0..400 {
        let mutated =
            String::from_utf8_lossy(&mutate(&mut random, WORKFLOW.as_bytes())).into_owned();
        let extraction = extract_file(&context, ".github/workflows/release.yml", &mutated);
        assert!(extraction.is_some(), "a workflow file is always taken");
    }
}

#[test]
fn mutated_query_files_load_or_give_located_diagnostics() {
    let files = vec![".lintel/queries/q.agq.yml".to_owned()];
    let mut random = Xorshift(0x7c4a_9e01_d2b3_5f86);
    for _ in 0..400 {
        let mutated = mutate(&mut random, QUERY.as_bytes());
        let read = |_: &str| Some(Ok(mutated.clone()));
        let (_, diagnostics) = load_queries_with(&files, &read);
        for diagnostic in &diagnostics {
            assert!(!diagnostic.code.is_empty());
            assert!(diagnostic.line >= 1, "{diagnostic:?}");
            assert!(
                diagnostic.message.len() < 2_000,
                "a message quotes a short excerpt: {} bytes",
                diagnostic.message.len()
            );
        }
    }
}

//! The per-file extraction cache never changes output: verdicts and facts with and without it
//! are the same, byte for byte, on every example and extractor fixture, after random edits,
//! renames, copies and deletions between runs, in every scope; an unchanged file is never
//! parsed again, a changed one always is.

use std::path::{Path, PathBuf};

use engine::ExtractionCache;
use engine::ScopeRequest;
use engine::Z3Solver;
use engine::{run_check_handing_back, CheckOptions};

/// The verdict and the facts of a run, as JSON text (timings and `files_cached` taken out),
/// and how many files came from the cache.
fn run(
    project: &Path,
    scope: ScopeRequest,
    cache: Option<&Path>,
    keep_all_facts: bool,
) -> (String, Option<u64>) {
    let mut options = CheckOptions::new(project);
    options.scope = scope;
    options.threads = Some(2);
    options.keep_all_facts = keep_all_facts;
    options.cache = cache.map(ExtractionCache::at);
    let (run, (), facts) =
        run_check_handing_back(&options, &Z3Solver, |_| (), true).expect("check runs");
    let mut verdict = serde_json::to_value(&run.verdict).unwrap();
    tests::redact(&mut verdict);
    let cached = verdict["stats"]
        .as_object_mut()
        .unwrap()
        .shift_remove("files_cached")
        .and_then(|value| value.as_u64());
    assert_eq!(
        cached.is_some(),
        cache.is_some(),
        "files_cached is there with a cache"
    );
    let facts = serde_json::to_string_pretty(&facts).unwrap();
    (
        format!(
            "{}\n{facts}",
            serde_json::to_string_pretty(&verdict).unwrap()
        ),
        cached,
    )
}

/// Asserts that a run with the cache at `cache` gives what a run without one gives, and returns
/// how many files came from the cache.
fn same_with_and_without(project: &Path, scope: ScopeRequest, cache: &Path, label: &str) -> u64 {
    // Generic facts too (calls, assignments, externals): every fact an extractor makes.
    let (fresh, _) = run(project, scope.clone(), None, true);
    let (cached_text, cached) = run(project, scope, Some(cache), true);
    if fresh != cached_text {
        if let Some(dump) = std::env::var_os("LINTEL_CACHE_TEST_DUMP") {
            let dump = PathBuf::from(dump);
            let _ = std::fs::write(dump.join("without.txt"), &fresh);
            let _ = std::fs::write(dump.join("with.txt"), &cached_text);
        }
        let line = fresh
            .lines()
            .zip(cached_text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        let around = |text: &str| {
            text.lines()
                .skip(line.saturating_sub(2))
                .take(5)
                .map(|line| line.chars().take(300).collect::<String>())
                .collect::<Vec<_>>()
                .join("\n")
        };
        panic!(
            "{label}: output differs with the cache at line {line}:\n--- without\n{}\n--- with\n{}",
            around(&fresh),
            around(&cached_text)
        );
    }
    cached.unwrap()
}

/// A small deterministic generator (no dependency needed for a test's random choices).
struct Random(u64);

impl Random {
    fn below(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from((self.0 >> 33) % u64::try_from(bound.max(1)).unwrap()).unwrap()
    }
}

/// Every file under `root` (relative, `/` separators), sorted, without `.git`.
fn files(root: &Path) -> Vec<String> {
    fn walk(root: &Path, folder: &Path, out: &mut Vec<String>) {
        let Ok(listing) = std::fs::read_dir(folder) else {
            return;
        };
        for entry in listing.flatten() {
            let path = entry.path();
            if entry.file_name() == ".git" {
                continue;
            }
            if entry.file_type().unwrap().is_dir() {
                walk(root, &path, out);
            } else {
                let relative = path.strip_prefix(root).unwrap();
                out.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort();
    out
}

/// One random change: an edit (a line of another file added, or a line removed), a rename, a
/// copy, or a deletion, of a file other than the spec. Returns what was done.
fn mutate(root: &Path, random: &mut Random) -> String {
    let candidates: Vec<String> = files(root)
        .into_iter()
        .filter(|file| !file.ends_with(".ag"))
        .collect();
    if candidates.is_empty() {
        return "nothing to change".to_owned();
    }
    let file = candidates[random.below(candidates.len())].clone();
    let path = root.join(&file);
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    match random.below(5) {
        0 => {
            let other = &candidates[random.below(candidates.len())];
            let other_text = std::fs::read_to_string(root.join(other)).unwrap_or_default();
            let other_lines: Vec<&str> = other_text.lines().collect();
            let line = other_lines
                .get(random.below(other_lines.len()))
                .copied()
                .unwrap_or("");
            let at = random.below(lines.len() + 1);
            let mut edited: Vec<&str> = lines.clone();
            edited.insert(at.min(edited.len()), line);
            std::fs::write(&path, edited.join("\n") + "\n").unwrap();
            format!("added `{line}` to {file}")
        }
        1 if !lines.is_empty() => {
            let at = random.below(lines.len());
            let mut edited = lines.clone();
            let removed = edited.remove(at);
            std::fs::write(&path, edited.join("\n") + "\n").unwrap();
            format!("removed `{removed}` from {file}")
        }
        2 => {
            let folder = &candidates[random.below(candidates.len())];
            let folder = Path::new(folder).parent().unwrap_or(Path::new(""));
            let name = Path::new(&file).file_name().unwrap().to_string_lossy();
            let target = root.join(folder).join(format!("moved_{name}"));
            std::fs::rename(&path, &target).unwrap();
            format!(
                "renamed {file} to {}",
                target.strip_prefix(root).unwrap().display()
            )
        }
        3 => {
            let folder = &candidates[random.below(candidates.len())];
            let folder = Path::new(folder).parent().unwrap_or(Path::new(""));
            let name = Path::new(&file).file_name().unwrap().to_string_lossy();
            let target = root.join(folder).join(&*name);
            if target.exists() {
                std::fs::remove_file(&path).unwrap();
                return format!("deleted {file}");
            }
            std::fs::copy(&path, &target).unwrap();
            format!(
                "copied {file} to {}",
                target.strip_prefix(root).unwrap().display()
            )
        }
        _ => {
            std::fs::remove_file(&path).unwrap();
            format!("deleted {file}")
        }
    }
}

/// The example projects (those with a spec) and every extractor fixture project, which gets a
/// spec whose one component owns every file.
fn projects() -> Vec<(String, PathBuf, Option<&'static str>)> {
    let mut projects = Vec::new();
    let examples = tests::workspace_root().join("examples");
    let mut names: Vec<_> = std::fs::read_dir(&examples)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.join("architecture.ag").is_file())
        .collect();
    names.sort();
    for path in names {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        projects.push((format!("examples/{name}"), path, None));
    }
    let fixtures = tests::workspace_root().join("extractors/tests/fixtures");
    let mut languages: Vec<_> = std::fs::read_dir(&fixtures)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .collect();
    languages.sort();
    for language in languages {
        let mut fixtures: Vec<_> = std::fs::read_dir(&language)
            .unwrap()
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.is_dir())
            .collect();
        fixtures.sort();
        for fixture in fixtures {
            let label = fixture
                .strip_prefix(tests::workspace_root())
                .unwrap()
                .display()
                .to_string();
            projects.push((
                label,
                fixture,
                Some("node n : server\ncomponent All { runs_on: n paths: \"**\" }\n"),
            ));
        }
    }
    projects
}

#[test]
fn verdicts_and_facts_are_the_same_with_and_without_the_cache_after_random_changes() {
    let cache = tempfile::tempdir().unwrap();
    let mut random = Random(0x5eed);
    let mut checked = 0;
    for (label, source, spec) in projects() {
        let project = tempfile::tempdir().unwrap();
        tests::copy_tree(&source, project.path()).unwrap();
        if let Some(spec) = spec {
            if !project.path().join("architecture.ag").exists() {
                std::fs::write(project.path().join("architecture.ag"), spec).unwrap();
            }
        }
        let listed = files(project.path()).len();
        // The cache is shared by every project (a file of one may be a hit for another).
        same_with_and_without(project.path(), ScopeRequest::All, cache.path(), &label);
        let warm = same_with_and_without(project.path(), ScopeRequest::All, cache.path(), &label);
        assert!(
            warm > 0 || listed <= 1,
            "{label}: the second run reads its files from the cache"
        );
        let mut changes = Vec::new();
        for _ in 0..3 {
            changes.push(mutate(project.path(), &mut random));
            let what = format!("{label} after {}", changes.join(", then "));
            same_with_and_without(project.path(), ScopeRequest::All, cache.path(), &what);
        }
        checked += 1;
    }
    assert!(
        checked > 50,
        "every example and fixture is checked ({checked})"
    );
}

/// Java, Kotlin and C# entries hold while the types and projects each file looked up are
/// unchanged (not while the whole project is): a longer run of random edits, renames, copies
/// and deletions (a copy declares its types twice, a rename moves them) on each of their
/// fixtures, every state compared with a run without the cache.
#[test]
fn typed_languages_stay_the_same_with_and_without_the_cache_through_many_changes() {
    let cache = tempfile::tempdir().unwrap();
    let mut random = Random(0x7e57);
    let mut checked = 0;
    for (label, source, spec) in projects() {
        let typed = ["/java/", "/kotlin/", "/csharp/"]
            .iter()
            .any(|language| label.contains(language));
        if !typed {
            continue;
        }
        let project = tempfile::tempdir().unwrap();
        tests::copy_tree(&source, project.path()).unwrap();
        if let Some(spec) = spec {
            if !project.path().join("architecture.ag").exists() {
                std::fs::write(project.path().join("architecture.ag"), spec).unwrap();
            }
        }
        same_with_and_without(project.path(), ScopeRequest::All, cache.path(), &label);
        let mut changes = Vec::new();
        for _ in 0..8 {
            if files(project.path()).len() <= 1 {
                break;
            }
            changes.push(mutate(project.path(), &mut random));
            let what = format!("{label} after {}", changes.join(", then "));
            same_with_and_without(project.path(), ScopeRequest::All, cache.path(), &what);
        }
        checked += 1;
    }
    assert!(
        checked >= 30,
        "every Java, Kotlin and C# fixture is checked ({checked})"
    );
}

#[test]
fn an_unchanged_file_is_read_from_the_cache_and_a_changed_one_is_extracted_again() {
    let project = tempfile::tempdir().unwrap();
    tests::copy_tree(&tests::example("layered-api"), project.path()).unwrap();
    let cache = tempfile::tempdir().unwrap();
    let (cold, cached) = run(project.path(), ScopeRequest::All, Some(cache.path()), false);
    assert_eq!(cached, Some(0));
    let (warm, cached) = run(project.path(), ScopeRequest::All, Some(cache.path()), false);
    assert_eq!(cold, warm);
    let scanned = serde_json::from_str::<serde_json::Value>(cold.split("\n[").next().unwrap())
        .unwrap()["stats"]["files_scanned"]
        .as_u64()
        .unwrap();
    assert_eq!(cached, Some(scanned), "every extracted file is a hit");

    // One source file edited: it alone is extracted again.
    let path = project.path().join("src/services/orders.ts");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("{text}\n// edited\n")).unwrap();
    let (_, cached) = run(project.path(), ScopeRequest::All, Some(cache.path()), false);
    assert_eq!(cached, Some(scanned - 1));

    // An entry is what the run read: a doctored one shows up in the output (so hits are real).
    let entry = entry_files(cache.path())
        .into_iter()
        .find(|entry| {
            std::fs::read_to_string(entry)
                .unwrap()
                .contains("construction of `Pool` from `pg`")
        })
        .expect("an entry holds the pg construction");
    let text = std::fs::read_to_string(&entry).unwrap();
    std::fs::write(
        &entry,
        text.replace(
            "construction of `Pool` from `pg`",
            "construction of `Pool` (cached)",
        ),
    )
    .unwrap();
    let (doctored, _) = run(project.path(), ScopeRequest::All, Some(cache.path()), false);
    assert!(doctored.contains("(cached)"));

    // Corrupt entries are misses, never errors, and are replaced.
    for entry in entry_files(cache.path()) {
        std::fs::write(entry, "{ not json").unwrap();
    }
    let (after, cached) = run(project.path(), ScopeRequest::All, Some(cache.path()), false);
    assert_eq!(cached, Some(0));
    let (again, cached) = run(project.path(), ScopeRequest::All, Some(cache.path()), false);
    assert_eq!(after, again);
    assert_eq!(cached, Some(scanned));
}

/// Writes `text` at `path` under `root`, making its folders.
fn write_file(root: &Path, path: &str, text: &str) {
    std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
    std::fs::write(root.join(path), text).unwrap();
}

/// A Java project of two components, `Core`'s `p.Store` and `Api`'s `q.Handler`, which imports
/// it; `components` adds to the spec.
fn store_and_handler(root: &Path, components: &str) {
    write_file(
        root,
        "architecture.ag",
        &format!(
            "node n : server\ncomponent Api {{ runs_on: n paths: \"api/**\" }}\n\
             component Core {{ runs_on: n paths: \"core/**\" }}\n{components}"
        ),
    );
    write_file(
        root,
        "core/src/p/Store.java",
        "package p;\npublic class Store { public int get() { return 1; } }\n",
    );
    write_file(
        root,
        "api/src/q/Handler.java",
        "package q;\nimport p.Store;\npublic class Handler { Store store; }\n",
    );
}

/// The entry files of a cache directory.
fn entry_files(cache: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = files(cache)
        .into_iter()
        .filter(|file| file.ends_with(".json") && !file.starts_with('.'))
        .map(|file| cache.join(file))
        .collect();
    entries.sort();
    entries
}

#[test]
fn a_same_size_edit_that_keeps_the_modification_time_gives_a_fresh_verdict() {
    let project = tempfile::tempdir().unwrap();
    let root = project.path();
    std::fs::create_dir_all(root.join("web")).unwrap();
    std::fs::create_dir_all(root.join("db")).unwrap();
    std::fs::write(
        root.join("architecture.ag"),
        "node app : server\ncomponent Web { runs_on: app paths: \"web/**\" }\n\
         component Db { runs_on: app paths: \"db/**\" }\n\
         invariant I { deny flow Web -> Db }\n",
    )
    .unwrap();
    std::fs::write(root.join("db/store.ts"), "export const store = 1;\n").unwrap();
    let violating = "import { store } from '../db/store';\nexport const a = store;\n";
    let clean = "import { store } from '../db/stxre';\nexport const a = store;\n";
    assert_eq!(violating.len(), clean.len());
    let page = root.join("web/page.ts");
    std::fs::write(&page, violating).unwrap();
    let metadata = std::fs::metadata(&page).unwrap();
    let cache = tempfile::tempdir().unwrap();
    let findings = |text: &str| {
        serde_json::from_str::<serde_json::Value>(text.split("\n[").next().unwrap()).unwrap()
            ["violations"]
            .as_array()
            .unwrap()
            .len()
    };
    let (first, _) = run(root, ScopeRequest::All, Some(cache.path()), false);
    assert_eq!(findings(&first), 1);
    // Same size, same modification time, same inode: only the content tells.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&page)
        .and_then(|mut file| std::io::Write::write_all(&mut file, clean.as_bytes()))
        .unwrap();
    std::fs::File::options()
        .append(true)
        .open(&page)
        .unwrap()
        .set_modified(metadata.modified().unwrap())
        .unwrap();
    let now = std::fs::metadata(&page).unwrap();
    assert_eq!(now.len(), metadata.len());
    assert_eq!(now.modified().unwrap(), metadata.modified().unwrap());
    let (second, _) = run(root, ScopeRequest::All, Some(cache.path()), false);
    let (fresh, _) = run(root, ScopeRequest::All, None, false);
    assert_eq!(findings(&second), 0, "a fresh verdict, not the cached one");
    assert_eq!(second, fresh);
}

/// A git repository holding `source` (with `spec` when it has none), committed.
fn repository_of(source: &Path, spec: Option<&str>) -> (tempfile::TempDir, git2::Repository) {
    let project = tempfile::tempdir().unwrap();
    tests::copy_tree(source, project.path()).unwrap();
    if let Some(spec) = spec {
        if !project.path().join("architecture.ag").exists() {
            std::fs::write(project.path().join("architecture.ag"), spec).unwrap();
        }
    }
    let repository = git2::Repository::init(project.path()).unwrap();
    crate::commit_all(&repository, "base");
    (project, repository)
}

#[test]
fn diff_and_staged_runs_are_the_same_with_and_without_the_cache_after_random_changes() {
    let cache = tempfile::tempdir().unwrap();
    let mut random = Random(0xd1ff);
    for (label, source, spec) in projects().into_iter().step_by(3) {
        let (project, repository) = repository_of(&source, spec);
        let root = project.path();
        // What `check --all` finds on the base commit is kept for the base side of the `--diff`
        // below (used when the changes rename nothing).
        run(root, ScopeRequest::All, Some(cache.path()), true);
        let mut changes = Vec::new();
        for _ in 0..3 {
            changes.push(mutate(root, &mut random));
        }
        // Staged: the index after the changes; then `--diff` of the commit against its parent.
        let mut index = repository.index().unwrap();
        index
            .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
            .unwrap();
        index.update_all(["*"], None).unwrap();
        index.write().unwrap();
        let what = format!("{label} after {}", changes.join(", then "));
        same_with_and_without(root, ScopeRequest::Staged, cache.path(), &what);
        crate::commit_all(&repository, "change");
        same_with_and_without(
            root,
            ScopeRequest::Diff("HEAD~1".to_owned()),
            cache.path(),
            &what,
        );
    }
}

#[test]
fn the_base_of_a_diff_reads_the_files_it_shares_with_the_head_from_the_cache() {
    let (project, repository) = repository_of(&tests::example("layered-api"), None);
    let root = project.path();
    let path = root.join("src/services/orders.ts");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("{text}\n// edited\n")).unwrap();
    crate::commit_all(&repository, "one edit");
    let cache = tempfile::tempdir().unwrap();
    let (_, cached) = run(
        root,
        ScopeRequest::Diff("HEAD~1".to_owned()),
        Some(cache.path()),
        false,
    );
    // The base is extracted first; the head then reads every file but the edited one from it.
    let (all, _) = run(root, ScopeRequest::All, None, false);
    let scanned = serde_json::from_str::<serde_json::Value>(all.split("\n[").next().unwrap())
        .unwrap()["stats"]["files_scanned"]
        .as_u64()
        .unwrap();
    assert_eq!(cached, Some(scanned - 1));
}

#[test]
fn a_diff_that_adds_a_java_type_extracts_again_only_the_files_that_looked_it_up() {
    let project = tempfile::tempdir().unwrap();
    let root = project.path();
    let write = |path: &str, text: &str| write_file(root, path, text);
    store_and_handler(root, "");
    let repository = git2::Repository::init(root).unwrap();
    crate::commit_all(&repository, "base");
    // The range adds a file (the project's file list changes; no declaration of another does).
    write(
        "api/src/q/Extra.java",
        "package q;\npublic class Extra { p.Store store; }\n",
    );
    crate::commit_all(&repository, "add a file");
    let cache = tempfile::tempdir().unwrap();
    let diff = || {
        let (text, cached) = run(
            root,
            ScopeRequest::Diff("HEAD~1".to_owned()),
            Some(cache.path()),
            false,
        );
        (text, cached.unwrap())
    };
    let (first, cached) = diff();
    // The head declares one more type, in package `q`: `Handler`, which looked up its own
    // package, is extracted again; `Store` looked up nothing that changed and comes from the
    // base (the base's entry for `Handler` stays valid for the base).
    assert_eq!(cached, 1);
    let (again, cached) = diff();
    assert_eq!(first, again);
    // Each side keeps its own entries: an exact repeat reads every file from the cache, on both
    // sides.
    assert_eq!(cached, 3, "an exact repeat reads every file from the cache");
    let (fresh, _) = run(root, ScopeRequest::Diff("HEAD~1".to_owned()), None, false);
    assert_eq!(first, fresh);
}

/// The lookups of every entry in `cache` that has some, replaced by one that no longer gets
/// its answer: an entry that is judged by asking its lookups is then extracted again.
fn spoil_lookups(cache: &Path) -> usize {
    let mut spoiled = 0;
    for path in entry_files(cache) {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
        let Some(second) = lines.get_mut(1).filter(|line| !line.is_empty()) else {
            continue;
        };
        let mut lookups: serde_json::Value = serde_json::from_str(second).unwrap();
        lookups["typed"] =
            serde_json::json!([{"T": {"i": "J", "q": {"N": "Nowhere"}, "a": "p\n"}}]);
        *second = lookups.to_string();
        std::fs::write(&path, lines.join("\n")).unwrap();
        spoiled += 1;
    }
    spoiled
}

/// A change of the declarations makes a new project shape, yet a cached Java file whose
/// lookups read none of the declarations that changed keeps its facts without asking them
/// again (its lookups are not even read): only the edited file is extracted again.
#[test]
fn cached_lookups_that_read_no_changed_declaration_are_not_asked_again() {
    let project = tempfile::tempdir().unwrap();
    let root = project.path();
    let write = |path: &str, text: &str| write_file(root, path, text);
    store_and_handler(root, "component Web { runs_on: n paths: \"web/**\" }\n");
    write(
        "web/src/w/Page.java",
        "package w;\npublic class Page { String title; }\n",
    );
    let cache = tempfile::tempdir().unwrap();
    let (_, cached) = run(root, ScopeRequest::All, Some(cache.path()), false);
    assert_eq!(cached, Some(0));
    // A new type in the package of `Page`, which `Handler` and `Store` never looked in.
    write(
        "web/src/w/Page.java",
        "package w;\npublic class Page { String title; }\nclass PageTitle {}\n",
    );
    assert!(spoil_lookups(cache.path()) >= 2, "the entries have lookups");
    let (after, cached) = run(root, ScopeRequest::All, Some(cache.path()), false);
    assert_eq!(cached, Some(2), "only the edited file is extracted again");
    let (fresh, _) = run(root, ScopeRequest::All, None, false);
    assert_eq!(after, fresh);
    // A new `Store`, which `Handler` looked up: its lookups are asked, and as spoiled, fail.
    write(
        "web/src/w/Page.java",
        "package w;\npublic class Page { String title; }\nclass Store {}\n",
    );
    spoil_lookups(cache.path());
    let (after, cached) = run(root, ScopeRequest::All, Some(cache.path()), false);
    assert_eq!(cached, Some(1), "Handler is extracted again, Store is not");
    let (fresh, _) = run(root, ScopeRequest::All, None, false);
    assert_eq!(after, fresh);
}

/// Which Razor files a C# project has says where its build generates code: adding one makes a
/// `using` of a namespace no `.cs` file declares no unresolved import, in a cached run as in
/// a fresh one (the `.cs` files' declarations did not change).
#[test]
fn a_new_razor_page_reaches_the_cached_usings_of_its_project() {
    let project = tempfile::tempdir().unwrap();
    let root = project.path();
    let write = |path: &str, text: &str| write_file(root, path, text);
    write(
        "architecture.ag",
        "node n : server\ncomponent App { runs_on: n paths: \"App/**\" }\n",
    );
    write(
        "App/App.csproj",
        "<Project Sdk=\"Microsoft.NET.Sdk.Web\">\n  <PropertyGroup>\n    \
         <RootNamespace>Shop</RootNamespace>\n  </PropertyGroup>\n</Project>\n",
    );
    write(
        "App/Program.cs",
        "using Shop.Pages;\nnamespace Shop;\npublic class Program { }\n",
    );
    write(
        "App/Orders.cs",
        "namespace Shop.Orders;\npublic class Order { }\n",
    );
    let cache = tempfile::tempdir().unwrap();
    let unresolved = |text: &str| text.contains("\"specifier\": \"Shop.Pages\"");
    let (before, _) = run(root, ScopeRequest::All, Some(cache.path()), false);
    let (fresh, _) = run(root, ScopeRequest::All, None, false);
    assert_eq!(before, fresh);
    assert!(
        unresolved(&before),
        "a using of a namespace nothing declares"
    );
    write("App/Pages/Index.cshtml", "@page\n<h1>Orders</h1>\n");
    let (after, cached) = run(root, ScopeRequest::All, Some(cache.path()), false);
    assert_eq!(
        cached,
        Some(1),
        "Orders.cs comes from the cache, Program.cs (whose lookup changed) does not"
    );
    let (fresh, _) = run(root, ScopeRequest::All, None, false);
    assert_eq!(after, fresh);
    assert!(!unresolved(&after), "the build generates code there now");
}

/// A model file's store comes from the Django settings (a project question, not the file's
/// bytes): changing the settings' `ENGINE` gives the cached model the new store, as a run
/// without the cache does.
#[test]
fn a_cached_django_model_follows_a_changed_settings_engine() {
    let project = tempfile::tempdir().unwrap();
    let root = project.path();
    std::fs::create_dir_all(root.join("shop")).unwrap();
    std::fs::write(
        root.join("architecture.ag"),
        "node app : server\nnode db : postgres\nnode local : sqlite\ncomponent Shop { runs_on: app paths: \"shop/**\" }\ninvariant I {\n  deny flow Shop -> db\n  deny flow Shop -> local\n}\n",
    )
    .unwrap();
    std::fs::write(root.join("shop/__init__.py"), "").unwrap();
    std::fs::write(
        root.join("shop/models.py"),
        "from django.db import models\n\n\nclass Order(models.Model):\n    pass\n",
    )
    .unwrap();
    let settings = |engine: &str| {
        std::fs::write(
            root.join("shop/settings.py"),
            format!(
                "DATABASES = {{\"default\": {{\"ENGINE\": \"django.db.backends.{engine}\"}}}}\n"
            ),
        )
        .unwrap();
    };
    // The targets of the run's violations.
    let targets = |text: &str| violation_values(text, "/detected/to");
    let cache = tempfile::tempdir().unwrap();
    settings("postgresql");
    let (postgres, _) = run(root, ScopeRequest::All, Some(cache.path()), false);
    assert_eq!(targets(&postgres), ["db"]);
    settings("sqlite3");
    let (sqlite, cached) = run(root, ScopeRequest::All, Some(cache.path()), false);
    let (fresh, _) = run(root, ScopeRequest::All, None, false);
    assert!(cached.unwrap_or_default() >= 1, "the package file is a hit");
    assert_eq!(targets(&sqlite), ["local"]);
    assert_eq!(sqlite, fresh);
}

/// The cache's documents that summarise a whole-project check (those with the files it read).
fn summaries(cache: &Path) -> Vec<PathBuf> {
    entry_files(cache)
        .into_iter()
        .filter(|path| std::fs::read_to_string(path).is_ok_and(|text| text.contains("\"reads\":")))
        .collect()
}

/// One string of each violation of a run ([`run`]'s text), at a JSON pointer.
fn violation_values(text: &str, pointer: &str) -> Vec<String> {
    let verdict: serde_json::Value =
        serde_json::from_str(text.split("\n[").next().unwrap()).unwrap();
    verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| {
            violation
                .pointer(pointer)
                .unwrap()
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

/// The statuses of a `--diff` verdict's violations.
fn statuses(text: &str) -> Vec<String> {
    violation_values(text, "/status")
}

/// The base side of `--diff` takes its findings from what `check --all` found on the base commit
/// (a summary in the cache, as CI restores it): with the summary's findings taken out, the
/// base's violation is `new`; as `check --all` left it, `existing`, as without the cache.
#[test]
fn a_diff_takes_the_base_findings_from_what_check_all_found_on_the_base_commit() {
    let (project, repository) = repository_of(&tests::example("layered-api"), None);
    let root = project.path();
    let cache = tempfile::tempdir().unwrap();
    run(root, ScopeRequest::All, Some(cache.path()), false);
    let kept = summaries(cache.path());
    assert_eq!(kept.len(), 1, "`check --all` keeps one summary");
    // The pull request edits the file with the violation, which the base has too.
    let path = root.join("src/controllers/orders.ts");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("{text}\n// edited\n")).unwrap();
    crate::commit_all(&repository, "one edit");
    let diff = || ScopeRequest::Diff("HEAD~1".to_owned());
    let (fresh, _) = run(root, diff(), None, false);
    assert_eq!(statuses(&fresh), ["existing"]);
    let (cached, _) = run(root, diff(), Some(cache.path()), false);
    assert_eq!(cached, fresh);
    // The summary is what the base side read: without its findings, the violation is new.
    let original = std::fs::read_to_string(&kept[0]).unwrap();
    let mut summary: serde_json::Value = serde_json::from_str(&original).unwrap();
    summary["ids"] = serde_json::json!([]);
    std::fs::write(&kept[0], summary.to_string()).unwrap();
    let (tampered, _) = run(root, diff(), Some(cache.path()), false);
    assert_eq!(statuses(&tampered), ["new"]);
}

/// A summary holds only for the files it read: `check --all` on a work tree whose edits are not
/// committed (here, the violation taken out of the controller) keeps a summary that the base
/// commit, which has the violation, must not use.
#[test]
fn a_summary_of_an_edited_work_tree_is_not_used_for_the_commit() {
    let (project, repository) = repository_of(&tests::example("layered-api"), None);
    let root = project.path();
    let cache = tempfile::tempdir().unwrap();
    let controller = root.join("src/controllers/orders.ts");
    let original = std::fs::read_to_string(&controller).unwrap();
    let cut = original.find("router.get(\"/orders/count\"").unwrap();
    std::fs::write(&controller, &original[..cut]).unwrap();
    let (edited, _) = run(root, ScopeRequest::All, Some(cache.path()), false);
    assert!(
        statuses(&edited).is_empty(),
        "the edit takes the violation out"
    );
    assert_eq!(summaries(cache.path()).len(), 1);
    std::fs::write(&controller, format!("{original}\n// edited\n")).unwrap();
    crate::commit_all(&repository, "one edit");
    let diff = || ScopeRequest::Diff("HEAD~1".to_owned());
    let (cached, _) = run(root, diff(), Some(cache.path()), false);
    assert_eq!(statuses(&cached), ["existing"]);
    let (fresh, _) = run(root, diff(), None, false);
    assert_eq!(cached, fresh);
}

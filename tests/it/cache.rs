//! The extraction cache: same output warm and cold, keyed by the whole snapshot, never stale.

use engine::cache::ExtractionCache;
use engine::check::{run_check, CheckOptions};
use engine::scope::ScopeRequest;
use engine::solve::Z3Solver;

fn verdict_with_cache(project: &std::path::Path, cache: &std::path::Path) -> serde_json::Value {
    let mut options = CheckOptions::new(project);
    options.scope = ScopeRequest::All;
    options.cache = Some(ExtractionCache::at(cache));
    let mut verdict =
        serde_json::to_value(run_check(&options, &Z3Solver).unwrap().verdict).unwrap();
    tests::redact(&mut verdict);
    verdict
}

fn entries(cache: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut entries: Vec<_> = std::fs::read_dir(cache)
        .map(|dir| dir.flatten().map(|entry| entry.path()).collect())
        .unwrap_or_default();
    entries.sort();
    entries
}

#[test]
fn a_warm_cache_gives_the_same_verdict_and_any_change_is_a_miss() {
    let project = tempfile::tempdir().unwrap();
    tests::copy_tree(&tests::example("layered-api"), project.path()).unwrap();
    let cache = tempfile::tempdir().unwrap();
    let cold = verdict_with_cache(project.path(), cache.path());
    assert_eq!(
        entries(cache.path()).len(),
        1,
        "the first run stores one entry"
    );
    let warm = verdict_with_cache(project.path(), cache.path());
    assert_eq!(cold, warm);
    assert_eq!(entries(cache.path()).len(), 1, "the second run hits it");

    // The entry is what the second run read: a doctored entry shows up in the output.
    let entry = entries(cache.path()).remove(0);
    let text = std::fs::read_to_string(&entry).unwrap();
    std::fs::write(
        &entry,
        text.replace(
            "construction of `Pool` from `pg`",
            "construction of `Pool` (cached)",
        ),
    )
    .unwrap();
    let doctored = verdict_with_cache(project.path(), cache.path());
    assert!(serde_json::to_string(&doctored)
        .unwrap()
        .contains("(cached)"));

    // Editing a file that is not even extracted changes the key: a miss, recomputed from source.
    std::fs::write(project.path().join("README.md"), "changed\n").unwrap();
    let after_edit = verdict_with_cache(project.path(), cache.path());
    assert_eq!(after_edit, cold);
    assert_eq!(entries(cache.path()).len(), 2);

    // A corrupt entry is a miss, never an error.
    for entry in entries(cache.path()) {
        std::fs::write(entry, "{ not json").unwrap();
    }
    assert_eq!(verdict_with_cache(project.path(), cache.path()), cold);
}

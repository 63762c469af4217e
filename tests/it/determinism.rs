//! Same input, same bytes: 1 vs 2 threads and two checkout locations.

use engine::ScopeRequest;

use crate::check;

fn redacted_bytes(project: &std::path::Path, threads: usize) -> String {
    let mut verdict = check(project, ScopeRequest::All, threads);
    tests::redact(&mut verdict);
    serde_json::to_string_pretty(&verdict).unwrap()
}

#[test]
fn verdicts_are_identical_across_thread_counts_and_checkout_paths() {
    let examples = std::fs::read_dir(tests::workspace_root().join("examples")).unwrap();
    let mut examples: Vec<String> = examples
        .flatten()
        .filter(|entry| entry.path().join("architecture.ag").is_file())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    examples.sort();
    assert!(examples.len() >= 5, "{examples:?}");
    for example in &examples {
        let first = tempfile::tempdir().unwrap();
        let second = tempfile::tempdir().unwrap();
        let first_path = first.path().join("checkout-a");
        let second_path = second.path().join("somewhere").join("else");
        tests::copy_tree(&tests::example(example), &first_path).unwrap();
        tests::copy_tree(&tests::example(example), &second_path).unwrap();
        let one_thread = redacted_bytes(&first_path, 1);
        let two_threads = redacted_bytes(&first_path, 2);
        let elsewhere = redacted_bytes(&second_path, 2);
        assert_eq!(
            one_thread, two_threads,
            "{example}: thread count changed the verdict"
        );
        assert_eq!(
            one_thread, elsewhere,
            "{example}: checkout location changed the verdict"
        );
        for temp in [first.path(), second.path()] {
            assert!(
                !one_thread.contains(&*temp.to_string_lossy()),
                "no absolute temp path in the verdict"
            );
        }
    }
}
